"""AlphaZero training, the loop (reads top to bottom): labels, ladder rounds, self-play, final steps.

>>> from zerosum.training.alphazero import az_recipe, train_alphazero
>>> result = train_alphazero(az_recipe("az_tictactoe", out="runs/az_ttt"))   # doctest: +SKIP

One run, two processes or more (each one torch thread, so both cores work): the **workers**
(:mod:`~zerosum.training.alphazero.workers`: subprocesses, or Ray actors with ``backend="ray"``)
play and label; the **learner** (this process) keeps a replay buffer of the last ``buffer_size``
positions and takes minibatch steps on it (:mod:`~zerosum.training.alphazero.learner`). Its
stages, each optional, in order:

1. **Labels files** (``labels_from``): positions labelled before, trained on ``label_steps``
   steps (or only by the final steps), then kept in the buffer.
2. **Labels** (``labels`` > 0): the workers and the learner label that many positions with
   alpha-beta at ``label_depth`` (expert iteration, :mod:`~zerosum.training.alphazero.labels`);
   the learner trains ``label_steps`` steps on them.
3. **Ladder rounds** (``ladder_rounds``): the network alone plays ``ladder_games`` games against
   the ladder, alpha-beta labels every position met, the learner takes ``ladder_steps`` steps.
4. **Self-play iterations** (``iterations``): the workers play ``games_per_iteration`` games on
   the batched search (:mod:`~zerosum.training.alphazero.selfplay`) while the learner trains
   ``train_steps`` steps on the previous iteration's (the workers' weights one iteration stale).
5. **Final steps** (``final_steps``): the learning rate annealed to 0, from the run's network or
   afresh (``final_fresh``); the result is best.pt.

Every ``eval_every`` iterations (and after every ladder round) the network alone is evaluated
(:mod:`~zerosum.training.alphazero.evaluation`). :func:`train_alphazero` reads as that list:
:func:`start` makes the :class:`Run` (the game, network, learner, buffer, workers, state and
files every stage shares, and what they do alike: learn, evaluate, save, log, keep time), then
one function per stage, each given the run and its own group of the config. The run's files,
and what ``--resume`` reads, are in :mod:`~zerosum.training.alphazero.rundir`: a resumed run
starts from the last ladder round or iteration finished, its buffer kept; only the one in
progress is lost.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.alphazero.config import (
    AGENT, AlphaZeroConfig, FinalConfig, LadderConfig, SelfPlayConfig, TeacherConfig,
)
from zerosum.training.alphazero.data import (
    DatasetError, PlayJob, Positions, ReplayBuffer, WorkerSpec, concat, read_labels, shares,
)
from zerosum.training.alphazero.evaluation import better, evaluate_network
from zerosum.training.alphazero.labels import LadderRounds, run_labels
from zerosum.training.alphazero.learner import Learner
from zerosum.training.alphazero.network import build_net, weights_of
from zerosum.training.alphazero.rundir import (
    EVAL_FIELDS, PROGRESS_FIELDS, RunState, append_csv, atomic_json, command_line, load_state,
    plot_scores, save_state, tensorboard, truncate_csv,
)
from zerosum.training.alphazero.workers import LocalWorkers, RayWorkers
from zerosum.training.rundir import TrainingSetupError, check_out


# ---- setup checks (before anything is written) ----------------------------------------------
def resolve(cfg: AlphaZeroConfig) -> Game:
    """The run's game; TrainingSetupError for an unknown game or a bad variant."""
    from zerosum.games import make_game

    try:
        return make_game(cfg.game, **cfg.variant)
    except (ValueError, KeyError) as exc:
        raise TrainingSetupError(str(exc)) from None


def check_setup(cfg: AlphaZeroConfig, game: Game) -> Positions | None:
    """Every opponent can play the game, the teacher's options fit it, the labels files are its:
    TrainingSetupError otherwise. Returns the labels files' positions (None without ``labels_from``)."""
    from zerosum.agents import make_agent

    for what, specs in (("evaluation", cfg.evaluation.opponents), ("ladder", cfg.ladder.opponents)):
        for spec in specs:
            try:
                make_agent(spec).prepare(game)
            except (ValueError, TypeError) as exc:
                raise TrainingSetupError(f"{what} opponent {spec!r} cannot play {game.name}: {exc}") from None
    if (cfg.teacher.positions or cfg.ladder.rounds) and cfg.teacher.quiescence:
        from zerosum.search import AlphaBeta

        try:
            AlphaBeta(game, quiescence=True)
        except ValueError as exc:
            raise TrainingSetupError(f"label_quiescence: {exc}") from None
    if cfg.learner.symmetry:
        from zerosum.training.symmetry import board_symmetries

        try:
            board_symmetries(game)
        except ValueError as exc:
            raise TrainingSetupError(str(exc)) from None
    if not cfg.teacher.files:
        return None
    from zerosum.nets.errors import import_torch

    import_torch()  # a run's state.pt is read with torch
    try:
        return read_labels(cfg.teacher.files, game)
    except DatasetError as exc:
        raise TrainingSetupError(f"labels_from: {exc}") from None


def fits(elapsed: float, last: float, limit: float | None) -> bool:
    """Whether a run that has used ``elapsed`` seconds of its ``limit`` (None: no limit) starts
    another ladder round or iteration, the last of which took ``last`` seconds (0: none yet in
    this process): only if one more as long as the last would end within the limit."""
    return limit is None or elapsed + last < limit


# ---- the run --------------------------------------------------------------------------------
@dataclass
class AlphaZeroResult:
    """What a run produced."""

    out: Path | None
    """The run directory."""
    iterations: int
    """Iterations finished (over every resumption)."""
    games: int
    """Self-play games played."""
    seconds: float
    """Wall time of the run (over every resumption)."""
    best: dict[str, Any] | None
    """The evaluation that picked best.pt."""
    last_eval: dict[str, Any] | None
    """The latest evaluation."""
    net: Any = None
    """The trained network (torch module)."""
    game: str = ""
    """The game's name."""

    def summary(self) -> dict[str, Any]:
        """The run in a JSON object (``zerosum train --json``)."""
        best = self.best or {}
        return {"out": str(self.out) if self.out else None, "iterations": self.iterations, "games": self.games,
                "seconds": round(self.seconds, 1), "last_eval": (self.last_eval or {}).get("rows", []),
                "best": {k: best[k] for k in ("iteration", "score", "losses", "games", "lines", "lines_lost")
                         if k in best}}

    def report(self) -> list[str]:
        """The run in lines of text (what ``zerosum train`` prints)."""
        best = self.best or {}
        lines = [f"trained alphazero on {self.game}: {self.iterations} iterations, {self.games:,} self-play games "
                 f"in {self.seconds:.1f} s"]
        lines += [f"  network alone (sims=0) vs {row['opponent']:<24}: {row['wins']} won, {row['draws']} drawn, "
                  f"{row['losses']} lost of {row['games']} (score {row['score']:.3f})"
                  for row in (self.last_eval or {}).get("rows", [])]
        if self.out:
            walked = f", {best['lines_lost']} of {best['lines']} lines lost" if "lines_lost" in best else ""
            where = (f"ladder round {best['ladder_round']}" if best.get("iteration") == 0 and best.get("ladder_round")
                     else f"iteration {best.get('iteration', '?')}") + (", annealed" if best.get("annealed") else "")
            lines.append(f"checkpoint: {self.out / 'model.pt'}; best: {self.out / 'best.pt'} ({where}, "
                         f"score {best.get('score', float('nan')):.3f}{walked}); "
                         f"play it as \"{AGENT}(path={self.out / 'best.pt'})\"")
        return lines


OUTPUTS = ("progress.csv", "eval.csv", "best.pt", "best.json", "state.pt", "labels.npz", "model.pt", "model.json",
           "score.png")
"""The files a new run removes from its directory (one overwritten or left by a run that never saved)."""


class Run:
    """One run while it trains: what every stage shares (the game, the network, the learner and its
    buffer, the workers, the state that resumes it, the files) and what every stage does alike
    (learn, evaluate, save, log a line, keep to the time limit). Made by :func:`start`."""

    def __init__(self, cfg: AlphaZeroConfig, game: Game, net: Any, learner: Learner, state: RunState,
                 out: Path | None, files: Positions | None) -> None:
        from zerosum.nets import NetConfig

        self.cfg, self.game, self.net, self.learner, self.state, self.out = cfg, game, net, learner, state, out
        self.files = files
        """The positions of the labels files (``labels_from``), read by the setup checks; None without."""
        self.buffer = ReplayBuffer(cfg.learner.buffer_size, tuple(game.observation_shape), game.num_actions)
        """The replay buffer every stage adds to and the learner samples."""
        if state.buffer:
            self.buffer.restore(state.buffer)
        self.net_config = NetConfig.from_dict(dict(cfg.net))
        """The network's shape (the config's ``net`` group), saved with every checkpoint."""
        self.tb = tensorboard(out, cfg)
        """The TensorBoard writer (None without one)."""
        playing = cfg.teacher.positions or cfg.ladder.rounds or cfg.run.iterations  # a run on files alone: none
        specs = [WorkerSpec(game.name, dict(game.variant), dict(cfg.net), cfg.selfplay,
                            cfg.seed * 1000 + state.iteration * 7 + i)
                 for i in range(cfg.run.workers if playing else 0)]
        self.workers: LocalWorkers | RayWorkers = (LocalWorkers(specs) if cfg.run.backend == "local"
                                                   else RayWorkers(specs))
        """The self-play workers (processes or Ray actors)."""
        self.log: Any = print if cfg.run.verbose else (lambda *a, **k: None)
        """Prints a progress line with ``verbose`` (else nothing)."""
        self.start = time.perf_counter() - state.seconds
        """When the run began, as ``perf_counter`` reads it (earlier sessions' time included)."""
        self.last = 0.0
        """The wall time of the last ladder round or iteration: the next is started only if it fits."""
        self.per_step = 0.0
        """The seconds a learner step took last: the final steps' time (and a tenth more) is kept."""

    def elapsed(self) -> float:
        """Seconds of the run so far, over every resumption."""
        return time.perf_counter() - self.start

    def another(self) -> bool:
        """Whether one more ladder round or iteration as long as the last ends within ``max_seconds``,
        the final steps' time kept (:func:`fits`)."""
        return fits(self.elapsed() + 1.1 * self.cfg.final.steps * self.per_step, self.last, self.cfg.run.max_seconds)

    def path(self, name: str) -> Path | None:
        """The run directory's file ``name`` (None without a directory)."""
        return self.out / name if self.out else None

    def learn(self, steps: int, *, alone: bool = True, anneal: bool = False) -> dict[str, float]:
        """``steps`` learner steps on the buffer (``alone``: with the learner's threads, the workers
        waiting; ``anneal``: the learning rate lowered to 0); the mean losses, and ``seconds``."""
        t0 = time.perf_counter()
        with self.learner.alone() if alone else contextlib.nullcontext():
            train = self.learner.anneal if anneal else self.learner.train
            losses = train(self.buffer, steps, self.state.rng)
        seconds = time.perf_counter() - t0
        self.per_step = seconds / max(steps, 1)
        return {**losses, "seconds": seconds}

    def metadata(self, kind: str) -> dict[str, Any]:
        """The sidecar of ``model.pt`` (``kind="model"``) or ``best.pt`` (``"best"``)."""
        st = self.state
        return {"train_steps": self.learner.steps, "iteration": st.iteration, "games": st.games,
                "command": command_line(), "recipe_settings": self.cfg.settings(),
                "evaluation": (st.best if kind == "best" else st.last_eval) or {},
                **({"best": st.best} if st.best else {})}

    def save(self) -> None:
        """Write state.pt (what ``--resume`` needs) and model.pt."""
        from zerosum.nets import save_network

        if self.out is None:
            return
        st = self.state
        st.net, st.opt, st.learner_steps = self.net.state_dict(), self.learner.opt.state_dict(), self.learner.steps
        st.buffer, st.seconds = self.buffer.state(), self.elapsed()
        save_state(self.out / "state.pt", st)
        save_network(self.out / "model.pt", self.net, self.game, self.net_config, metadata=self.metadata("model"))

    def due(self, iteration: int) -> bool:
        """Whether the periodic evaluation falls at ``iteration`` (every ``eval_every``)."""
        every = self.cfg.evaluation.every
        return bool(every) and iteration % every == 0

    def evaluate(self, *, final: bool = False) -> None:
        """Evaluate the network alone (:func:`evaluate_network`): eval.csv, the curves, best.pt when
        it is the best yet (or ``final``: the annealed network is best.pt whatever its few games say)."""
        from zerosum.nets import save_network

        st, out, tb = self.state, self.out, self.tb
        summary = evaluate_network(self.net, self.game, self.cfg.evaluation, seed=self.cfg.seed + st.iteration)
        summary["iteration"] = st.iteration
        if st.ladder_rounds:
            summary["ladder_round"] = st.ladder_rounds
        if final:
            summary["annealed"] = True
        summary["seconds_at"] = self.elapsed()
        st.last_eval = summary
        for r in summary["rows"]:
            if out:
                append_csv(out / "eval.csv", EVAL_FIELDS, {"iteration": st.iteration,
                                                           "seconds": round(summary["seconds_at"], 1), **r})
            if tb:
                tb.add_scalar(f"eval/{r['opponent']}", r["score"], st.iteration)
        if "lines_lost" in summary and tb:
            tb.add_scalar("eval/lines_lost", summary["lines_lost"], st.iteration)
        if final or better(summary, st.best):
            st.best = dict(summary)
            if out:
                save_network(out / "best.pt", self.net, self.game, self.net_config, metadata=self.metadata("best"))
        if out:
            plot_scores(out)
        text = ", ".join(f"{r['opponent']} {r['score']:.2f} ({r['wins']}/{r['draws']}/{r['losses']})"
                         for r in summary["rows"])
        lines = f"; lines lost {summary['lines_lost']} of {summary['lines']}" if "lines_lost" in summary else ""
        where = f"ladder {st.ladder_rounds}" if st.iteration == 0 and st.ladder_rounds else f"it {st.iteration}"
        self.log(f"  eval @ {where}: {text}{lines}  ({summary['seconds']:.1f} s)", flush=True)

    def close(self) -> None:
        """Stop the workers and close the TensorBoard writer."""
        self.workers.close()
        if self.tb:
            self.tb.close()

    def result(self) -> AlphaZeroResult:
        """What the run produced."""
        st = self.state
        return AlphaZeroResult(self.out, st.iteration, st.games, self.elapsed(), st.best, st.last_eval, self.net,
                               self.game.name)


def start(cfg: AlphaZeroConfig, *, resume: bool, overwrite: bool) -> Run:
    """Check everything that can be refused before anything is written (the game, the opponents, the
    labels files, the network, the device, the run directory), then make the run: a new one, or the
    one in ``run.out`` resumed from its state.pt."""
    game = resolve(cfg)
    files = check_setup(cfg, game)
    from zerosum.nets.errors import import_torch

    torch = import_torch()
    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    net = build_net(game, cfg.net)  # a config that does not fit fails here, before anything is written
    learner = Learner(game, cfg, net)  # so does a device that is not here
    if cfg.run.backend == "ray":
        from zerosum.evaluation.backends import import_ray

        import_ray()
    out = Path(cfg.run.out) if cfg.run.out else None
    resuming = check_out(cfg, out, resume=resume, overwrite=overwrite) if out else False
    state = RunState(net={}, opt={}, learner_steps=0, buffer={}, rng=np.random.default_rng(cfg.seed), iteration=0,
                     games=0, seconds=0.0, best=None, last_eval=None, labelled=False)
    if out and resuming:
        state = load_state(out / "state.pt")  # a state this zerosum cannot resume is refused before anything is written
        learner.load_weights(state.net)
        learner.load_optimizer(state.opt)
        learner.steps = state.learner_steps
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resuming:
            for name in ("progress.csv", "eval.csv"):
                truncate_csv(out / name, state.iteration)
        else:
            for name in OUTPUTS:
                (out / name).unlink(missing_ok=True)
        atomic_json(out / "run.json", {"settings": cfg.settings(), "algo": "alphazero",
                                       "iterations": cfg.run.iterations, "command": command_line()})
    return Run(cfg, game, net, learner, state, out, files)


# ---- the stages -----------------------------------------------------------------------------
def learn_labels(run: Run, teacher: TeacherConfig) -> None:
    """1-2. The labels files' positions, then the alpha-beta labels made here (``labels``), each
    trained on ``label_steps`` steps once, before anything else, then kept in the buffer."""
    if run.state.labelled or (run.files is None and not teacher.positions):
        return

    def learn(data: Positions, what: str) -> None:
        run.buffer.add(data)
        losses = run.learn(teacher.steps)
        run.log(f"{what}: {len(data):,} positions, {teacher.steps} learner steps in {losses['seconds']:.1f} s "
                f"(policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f})", flush=True)

    if run.files is not None:
        learn(run.files, f"labels from {len(teacher.files)} file(s)")
    if teacher.positions:
        learn(run_labels(run.workers, teacher, run.cfg.seed, run.game, run.path("labels.npz"), run.log), "labels")
    run.state.labelled, run.state.annealed = True, False
    if teacher.steps and run.cfg.evaluation.every:
        run.evaluate()
    run.save()


def climb_ladder(run: Run, ladder: LadderConfig, teacher: TeacherConfig) -> None:
    """3. Ladder rounds: the network alone plays ``ladder_games`` games against the ladder (its own
    opponents, else the evaluation's), the teacher labels every position met, the learner takes
    ``ladder_steps`` steps; an evaluation after each round."""
    st = run.state
    rounds = LadderRounds(run.workers, ladder, teacher, ladder.opponents or run.cfg.evaluation.opponents, run.game,
                          run.net, run.cfg.seed)
    run.last = 0.0
    while st.ladder_rounds < ladder.rounds and run.another():
        began = time.perf_counter()
        data = rounds.round(weights_of(run.net), st.ladder_rounds)
        run.buffer.add(data)
        losses = run.learn(ladder.steps)
        st.ladder_rounds, st.annealed = st.ladder_rounds + 1, False
        w, d, lost = data.outcomes
        run.log(f"ladder {st.ladder_rounds:3d}  {run.elapsed():7.1f} s  {data.games} games "
                f"(W/D/L {w}/{d}/{lost}), {len(data):,} positions labelled ({data.kept:,} from the cache) in "
                f"{data.seconds:.1f} s; {ladder.steps} learner steps in {losses['seconds']:.1f} s "
                f"(policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f})  buffer {run.buffer.size:,}",
                flush=True)
        if run.cfg.evaluation.every:
            run.evaluate()
        run.save()
        run.last = time.perf_counter() - began


def self_play(run: Run, selfplay: SelfPlayConfig, iterations: int) -> None:
    """4. Self-play iterations: the workers play ``games_per_iteration`` games on the batched search
    while the learner trains on the previous iteration's (their weights one iteration stale)."""
    st, workers = run.state, run.workers
    per = shares(selfplay.games_per_iteration, len(workers))
    steps = run.learner.cfg.train_steps
    pending = False
    run.last = 0.0
    logged = -float("inf")  # when the last iteration's line was printed (log_every)

    def submit() -> None:
        w = weights_of(run.net)
        for i in range(len(workers)):
            workers.submit(i, PlayJob(w, per[i]))

    while st.iteration < iterations and run.another():
        began = time.perf_counter()
        if not pending:
            submit()
        played = concat([workers.result(i) for i in range(len(workers))])
        pending = st.iteration + 1 < iterations
        if pending:
            submit()  # the next iteration's games, played while this one's are learned from
        run.buffer.add(played)
        losses = run.learn(steps, alone=False)
        st.iteration, st.games, st.annealed = st.iteration + 1, st.games + played.games, False
        row = {"iteration": st.iteration, "seconds": round(run.elapsed(), 1), "games": st.games,
               "positions": len(played), "games_per_s": round(played.games / max(played.seconds, 1e-9), 2),
               "sims_per_s": round(played.simulations / max(played.seconds, 1e-9)),
               "policy_loss": round(losses["policy_loss"], 4), "value_loss": round(losses["value_loss"], 4),
               "buffer": run.buffer.size, "learner_steps": run.learner.steps,
               "selfplay_seconds": round(played.seconds, 2), "learn_seconds": round(losses["seconds"], 2)}
        if run.out:
            append_csv(run.out / "progress.csv", PROGRESS_FIELDS, row)
        if run.tb:
            for k in ("games_per_s", "sims_per_s", "policy_loss", "value_loss", "buffer"):
                run.tb.add_scalar(f"train/{k}", row[k], st.iteration)
        if time.perf_counter() - logged >= run.cfg.run.log_every or st.iteration == iterations:
            logged = time.perf_counter()
            ev = st.last_eval["rows"] if st.last_eval else []
            run.log(f"it {st.iteration:4d}  {row['seconds']:7.1f} s  games {st.games:6d} ({row['games_per_s']:.1f}/s)  "
                    f"sims/s {row['sims_per_s']:,}  loss p {row['policy_loss']:.3f} v {row['value_loss']:.3f}  "
                    f"buffer {run.buffer.size:,}  W/D/L {played.outcomes[0]}/{played.outcomes[1]}/{played.outcomes[2]}"
                    + ("  last eval: " + ", ".join(f"{r['opponent']} {r['score']:.2f}" for r in ev) if ev else ""),
                    flush=True)
        if run.due(st.iteration):
            run.evaluate()
        run.save()
        run.last = time.perf_counter() - began
    if pending:
        for i in range(len(workers)):
            workers.result(i)  # let the workers finish before they are stopped


def anneal(run: Run, final: FinalConfig) -> None:
    """5. The final steps, the learning rate annealed to 0, from the run's network or afresh
    (``final_fresh``: the weights its seed gave, trained on the whole buffer); the result is
    best.pt. Taken once after the last round and iteration (a resumed run that goes further takes
    them again)."""
    if not final.steps or run.state.annealed or not run.buffer.size:
        return
    if final.fresh:
        from zerosum.nets.errors import import_torch

        import_torch().manual_seed(run.cfg.seed)
        run.learner.restart(build_net(run.game, run.cfg.net).state_dict())
    losses = run.learn(final.steps, anneal=True)
    run.state.annealed = True
    run.log(f"final: {final.steps} learner steps{' from fresh weights' if final.fresh else ''}, "
            f"the learning rate annealed to 0, in {losses['seconds']:.1f} s (policy {losses['policy_loss']:.3f}, "
            f"value {losses['value_loss']:.3f})", flush=True)
    run.evaluate(final=True)
    run.save()


def train_alphazero(cfg: AlphaZeroConfig, *, resume: bool = False, overwrite: bool = False) -> AlphaZeroResult:
    """Run (or resume) one AlphaZero training, stage by stage (see the module docstring)."""
    run = start(cfg, resume=resume, overwrite=overwrite)
    try:
        learn_labels(run, cfg.teacher)
        climb_ladder(run, cfg.ladder, cfg.teacher)
        self_play(run, cfg.selfplay, cfg.run.iterations)
        anneal(run, cfg.final)
        if run.state.last_eval is None or run.state.last_eval.get("iteration") != run.state.iteration:
            run.evaluate()
            run.save()
    finally:
        run.close()
    return run.result()


__all__ = ["OUTPUTS", "AlphaZeroResult", "Run", "anneal", "check_setup", "climb_ladder", "fits", "learn_labels",
           "resolve", "self_play", "start", "train_alphazero"]
