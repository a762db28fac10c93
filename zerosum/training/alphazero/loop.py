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
(:mod:`~zerosum.training.alphazero.evaluation`). The run's files, and what ``--resume`` reads, are
in :mod:`~zerosum.training.alphazero.rundir`: a resumed run starts from the last ladder round or
iteration finished, its buffer kept; only the one in progress is lost.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.alphazero.config import AlphaZeroConfig
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
                         f"play it as \"alphazero(path={self.out / 'best.pt'})\"")
        return lines


OUTPUTS = ("progress.csv", "eval.csv", "best.pt", "best.json", "state.pt", "labels.npz", "model.pt", "model.json",
           "score.png")
"""The files a new run removes from its directory (one overwritten or left by a run that never saved)."""


def train_alphazero(cfg: AlphaZeroConfig, *, resume: bool = False, overwrite: bool = False) -> AlphaZeroResult:
    """Run (or resume) one AlphaZero training; see the module docstring."""
    game = resolve(cfg)
    files = check_setup(cfg, game)
    from zerosum.nets.errors import import_torch

    torch = import_torch()

    from zerosum.nets import NetConfig, save_network

    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    net = build_net(game, cfg.net)  # a config that does not fit fails here, before anything is written
    learner = Learner(game, cfg, net)  # so does a device that is not here
    if cfg.run.backend == "ray":
        from zerosum.evaluation.backends import import_ray

        import_ray()
    out = Path(cfg.run.out) if cfg.run.out else None
    resuming = check_out(cfg, out, resume=resume, overwrite=overwrite) if out else False
    net_config = NetConfig.from_dict(dict(cfg.net))
    buffer = ReplayBuffer(cfg.learner.buffer_size, tuple(game.observation_shape), game.num_actions)
    st = RunState(net={}, opt={}, learner_steps=0, buffer={}, rng=np.random.default_rng(cfg.seed), iteration=0,
                  games=0, seconds=0.0, best=None, last_eval=None, labelled=False)
    annealed_at: tuple[bool, int, int] | None = None  # (labelled, rounds, iteration) when final_steps were last taken
    if out and resuming:
        st = load_state(out / "state.pt")  # a state this zerosum cannot resume is refused before anything is written
        learner.load_weights(st.net)
        learner.load_optimizer(st.opt)
        learner.steps = st.learner_steps
        buffer.restore(st.buffer)
        annealed_at = (st.labelled, st.ladder_rounds, st.iteration) if st.annealed else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resuming:
            for name in ("progress.csv", "eval.csv"):
                truncate_csv(out / name, st.iteration)
        else:
            for name in OUTPUTS:
                (out / name).unlink(missing_ok=True)
        atomic_json(out / "run.json", {"settings": cfg.settings(), "algo": "alphazero",
                                       "iterations": cfg.run.iterations, "command": command_line()})
    tb = tensorboard(out, cfg)
    per = shares(cfg.selfplay.games_per_iteration, cfg.run.workers)
    playing = cfg.teacher.positions or cfg.ladder.rounds or cfg.run.iterations  # a run on labels files alone: none
    specs = [WorkerSpec(game.name, dict(game.variant), dict(cfg.net), cfg.selfplay,
                        cfg.seed * 1000 + st.iteration * 7 + i) for i in range(cfg.run.workers if playing else 0)]
    workers: LocalWorkers | RayWorkers = LocalWorkers(specs) if cfg.run.backend == "local" else RayWorkers(specs)
    log = print if cfg.run.verbose else (lambda *a, **k: None)
    start = time.perf_counter() - st.seconds

    def metadata(kind: str) -> dict[str, Any]:
        return {"train_steps": learner.steps, "iteration": st.iteration, "games": st.games, "command": command_line(),
                "recipe_settings": cfg.settings(), "evaluation": (st.best if kind == "best" else st.last_eval) or {},
                **({"best": st.best} if st.best else {})}

    def save() -> None:
        if out is None:
            return
        st.net, st.opt, st.learner_steps = net.state_dict(), learner.opt.state_dict(), learner.steps
        st.buffer, st.seconds = buffer.state(), time.perf_counter() - start
        st.annealed = annealed_at == (st.labelled, st.ladder_rounds, st.iteration)
        save_state(out / "state.pt", st)
        save_network(out / "model.pt", net, game, net_config, metadata=metadata("model"))

    def evaluate_now(final: bool = False) -> None:
        summary = evaluate_network(net, game, cfg.evaluation, seed=cfg.seed + st.iteration)
        summary["iteration"] = st.iteration
        if st.ladder_rounds:
            summary["ladder_round"] = st.ladder_rounds
        if final:  # the annealed network is best.pt whatever its few games say (see final_steps)
            summary["annealed"] = True
        summary["seconds_at"] = time.perf_counter() - start
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
                save_network(out / "best.pt", net, game, net_config, metadata=metadata("best"))
        if out:
            plot_scores(out)
        text = ", ".join(f"{r['opponent']} {r['score']:.2f} ({r['wins']}/{r['draws']}/{r['losses']})"
                         for r in summary["rows"])
        lines = f"; lines lost {summary['lines_lost']} of {summary['lines']}" if "lines_lost" in summary else ""
        where = f"ladder {st.ladder_rounds}" if st.iteration == 0 and st.ladder_rounds else f"it {st.iteration}"
        log(f"  eval @ {where}: {text}{lines}  ({summary['seconds']:.1f} s)", flush=True)

    def learn_labels(data: Positions, what: str) -> None:
        buffer.add(data)
        t0 = time.perf_counter()
        with learner.alone():  # the workers wait
            losses = learner.train(buffer, cfg.teacher.steps, st.rng)
        log(f"{what}: {len(data):,} positions, {cfg.teacher.steps} learner steps in {time.perf_counter() - t0:.1f} s "
            f"(policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f})", flush=True)

    try:
        # 1-2. labels: from files, then labelled here (both trained on once, before anything else)
        if (files is not None or cfg.teacher.positions) and not st.labelled:
            if files is not None:
                learn_labels(files, f"labels from {len(cfg.teacher.files)} file(s)")
            if cfg.teacher.positions:
                learn_labels(run_labels(workers, cfg.teacher, cfg.seed, game, out / "labels.npz" if out else None,
                                        log), "labels")
            st.labelled = True
            if cfg.evaluation.every and cfg.teacher.steps:
                evaluate_now()
            save()
        # 3. ladder rounds
        ladder = LadderRounds(workers, cfg.ladder, cfg.teacher, cfg.ladder.opponents or cfg.evaluation.opponents,
                              game, net, cfg.seed)
        last = 0.0  # the last round's (or iteration's) wall time: the next one is started only if it fits
        per_step = 0.0  # seconds a learner step took last: the final steps' time (and a tenth more) is kept

        def another() -> bool:  # whether one more round or iteration as long as the last fits
            return fits(time.perf_counter() - start + 1.1 * cfg.final.steps * per_step, last, cfg.run.max_seconds)

        while st.ladder_rounds < cfg.ladder.rounds and another():
            began = time.perf_counter()
            data = ladder.round(weights_of(net), st.ladder_rounds)
            buffer.add(data)
            t0 = time.perf_counter()
            with learner.alone():  # the workers wait
                losses = learner.train(buffer, cfg.ladder.steps, st.rng)
            st.ladder_rounds, per_step = st.ladder_rounds + 1, (time.perf_counter() - t0) / cfg.ladder.steps
            w, d, lost = data.outcomes
            log(f"ladder {st.ladder_rounds:3d}  {time.perf_counter() - start:7.1f} s  {data.games} games "
                f"(W/D/L {w}/{d}/{lost}), {len(data):,} positions labelled ({data.kept:,} from the cache) in "
                f"{data.seconds:.1f} s; {cfg.ladder.steps} learner steps in {time.perf_counter() - t0:.1f} s "
                f"(policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f})  buffer {buffer.size:,}",
                flush=True)
            if cfg.evaluation.every:
                evaluate_now()
            save()
            last = time.perf_counter() - began
        # 4. self-play iterations: the workers play iteration i+1 while the learner learns from iteration i
        pending = False
        last = 0.0
        logged = -float("inf")  # when the last iteration's line was printed (log_every)

        def submit() -> None:
            w = weights_of(net)
            for i in range(cfg.run.workers):
                workers.submit(i, PlayJob(w, per[i]))

        while st.iteration < cfg.run.iterations and another():
            began = time.perf_counter()
            if not pending:
                submit()
            played = concat([workers.result(i) for i in range(cfg.run.workers)])
            pending = False
            if st.iteration + 1 < cfg.run.iterations:
                submit()  # the next iteration's games, played while this one's are learned from
                pending = True
            buffer.add(played)
            t0 = time.perf_counter()
            losses = learner.train(buffer, cfg.learner.train_steps, st.rng)
            learn_s = time.perf_counter() - t0
            st.iteration, per_step = st.iteration + 1, learn_s / max(cfg.learner.train_steps, 1)
            st.games += played.games
            row = {"iteration": st.iteration, "seconds": round(time.perf_counter() - start, 1), "games": st.games,
                   "positions": len(played), "games_per_s": round(played.games / max(played.seconds, 1e-9), 2),
                   "sims_per_s": round(played.simulations / max(played.seconds, 1e-9)),
                   "policy_loss": round(losses["policy_loss"], 4), "value_loss": round(losses["value_loss"], 4),
                   "buffer": buffer.size, "learner_steps": learner.steps,
                   "selfplay_seconds": round(played.seconds, 2), "learn_seconds": round(learn_s, 2)}
            if out:
                append_csv(out / "progress.csv", PROGRESS_FIELDS, row)
            if tb:
                for k in ("games_per_s", "sims_per_s", "policy_loss", "value_loss", "buffer"):
                    tb.add_scalar(f"train/{k}", row[k], st.iteration)
            ev = st.last_eval["rows"] if st.last_eval else []
            if time.perf_counter() - logged >= cfg.run.log_every or st.iteration == cfg.run.iterations:
                logged = time.perf_counter()
                log(f"it {st.iteration:4d}  {row['seconds']:7.1f} s  games {st.games:6d} ({row['games_per_s']:.1f}/s)  "
                    f"sims/s {row['sims_per_s']:,}  loss p {row['policy_loss']:.3f} v {row['value_loss']:.3f}  "
                    f"buffer {buffer.size:,}  W/D/L {played.outcomes[0]}/{played.outcomes[1]}/{played.outcomes[2]}"
                    + ("  last eval: " + ", ".join(f"{r['opponent']} {r['score']:.2f}" for r in ev) if ev else ""),
                    flush=True)
            if cfg.evaluation.every and st.iteration % cfg.evaluation.every == 0:
                evaluate_now()
            save()
            last = time.perf_counter() - began
        if pending:
            for i in range(cfg.run.workers):
                workers.result(i)  # let the workers finish before they are stopped
        # 5. the final, annealed steps
        if cfg.final.steps and annealed_at != (st.labelled, st.ladder_rounds, st.iteration) and buffer.size:
            t0 = time.perf_counter()
            if cfg.final.fresh:  # the weights the run began with (its seed), trained on the whole buffer
                torch.manual_seed(cfg.seed)
                learner.restart(build_net(game, cfg.net).state_dict())
            with learner.alone():  # the workers wait
                losses = learner.anneal(buffer, cfg.final.steps, st.rng)
            annealed_at = (st.labelled, st.ladder_rounds, st.iteration)
            log(f"final: {cfg.final.steps} learner steps{' from fresh weights' if cfg.final.fresh else ''}, "
                "the learning rate annealed to 0, in "
                f"{time.perf_counter() - t0:.1f} s (policy {losses['policy_loss']:.3f}, "
                f"value {losses['value_loss']:.3f})", flush=True)
            evaluate_now(final=True)
            save()
        if st.last_eval is None or st.last_eval.get("iteration") != st.iteration:
            evaluate_now()
            save()
    finally:
        workers.close()
        if tb:
            tb.close()
    return AlphaZeroResult(out, st.iteration, st.games, time.perf_counter() - start, st.best, st.last_eval, net,
                           game.name)


__all__ = ["OUTPUTS", "AlphaZeroResult", "check_setup", "fits", "resolve", "train_alphazero"]
