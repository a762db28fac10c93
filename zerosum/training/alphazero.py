"""AlphaZero training (reads top to bottom): self-play on the batched search, a learner, checkpoints.

>>> from zerosum.training.alphazero import az_recipe, train_alphazero
>>> result = train_alphazero(az_recipe("az_tictactoe", out="runs/az_ttt"))   # doctest: +SKIP

One run, two processes (each one torch thread, so both cores work):

* the **self-play worker** (:class:`~zerosum.training.selfplay.SelfPlayWorker`: a subprocess,
  or Ray actors with ``backend="ray"``) plays ``games_per_iteration`` games at once on the
  batched search with the latest weights it was sent;
* the **learner** (this process) adds the finished games to a replay buffer of the last
  ``buffer_size`` positions and takes ``train_steps`` minibatch steps on it (cross-entropy
  to the search's policy over legal moves, squared error to the result, Adam with weight
  decay; each sample under a random board symmetry with ``symmetry``).

The two overlap: while the learner trains on iteration i's games, the worker already plays
iteration i+1's with the weights of the end of iteration i-1 (one iteration stale). With
``labels`` > 0 the worker first labels that many positions with alpha-beta at
``label_depth`` (expert iteration, :mod:`zerosum.training.labeller`), the learner trains
``label_steps`` steps on them, and they stay in the buffer until self-play pushes them out.

Every ``eval_every`` iterations the network alone (``sims=0``: the greedy legal move) plays
``eval_games`` games per opponent against the alpha-beta ladder (``eval_opponents``, seats
alternating, paired random openings); with ``eval_exhaustive`` (tic-tac-toe) it is also
walked against every opponent reply in both seats. ``best.pt`` is the evaluation with the
fewest lost lines, then the highest mean score.

Output (every file written atomically, every iteration)::

    run.json                 the settings (``algo: alphazero``), written before training starts
    model.pt, model.json     the latest network and its sidecar (zerosum.nets format)
    best.pt, best.json       the network the periodic evaluation picked (``best`` in the sidecar)
    state.pt                 what --resume needs: network, optimizer, replay buffer, counters
    labels.npz               the alpha-beta labels (kept so a resumed run does not redo them)
    progress.csv, eval.csv   per iteration; per evaluation and opponent
    score.png                evaluation score against wall-clock time
    tb/                      TensorBoard curves (when tensorboard is installed)

**Resuming** (``resume=True``) after a crash or SIGKILL starts from the last finished
iteration: ``state.pt`` holds the network, the optimizer and the replay buffer itself, so
the buffer is kept, not rebuilt; only the iteration in progress is lost.
"""

import io
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.games import Game
from zerosum.training.azconfig import (
    AZ_RECIPE_NOTES, AZ_RECIPES, BACKENDS, RESUMABLE_AZ, RULES, AlphaZeroConfig, az_recipe,
)
from zerosum.training.azrun import (
    EVAL_FIELDS, PROGRESS_FIELDS, LadderRounds, LocalWorkers, RayWorkers, _append_csv, _atomic_bytes, _atomic_json,
    _concat, _labels, _tensorboard, _truncate_csv, plot_scores, shares,
)
from zerosum.training.learner import Learner, ReplayBuffer, _better, evaluate_network, greedy_policy
from zerosum.training.rundir import TrainingSetupError, check_out

# ---- setup checks (before anything is written) ----------------------------------------------
def _resolve(cfg: AlphaZeroConfig) -> Game:
    from zerosum.training.single_agent import resolve_game

    try:
        return resolve_game(cfg.game, cfg.variant)
    except (ValueError, KeyError) as exc:
        raise TrainingSetupError(str(exc)) from None


def _build_net(game: Game, net: dict[str, Any]) -> Any:
    """The network for ``game``; TrainingSetupError when the config does not fit the game."""
    from zerosum.nets import NetConfig, build_network

    try:
        return build_network(game, NetConfig.from_dict(dict(net)))
    except (TypeError, ValueError) as exc:
        raise TrainingSetupError(f"network {net!r} does not fit {game.name} "
                                 f"(observation {tuple(game.observation_shape)}): {exc}") from None


def _check_eval(cfg: AlphaZeroConfig, game: Game) -> None:
    from zerosum.agents import make_agent

    for what, specs in (("evaluation", cfg.eval_opponents), ("ladder", cfg.ladder_opponents)):
        for spec in specs:
            try:
                make_agent(spec).prepare(game)
            except (ValueError, TypeError) as exc:
                raise TrainingSetupError(f"{what} opponent {spec!r} cannot play {game.name}: {exc}") from None
    if (cfg.labels or cfg.ladder_rounds) and cfg.label_quiescence:
        from zerosum.search import AlphaBeta

        try:
            AlphaBeta(game, quiescence=True)
        except ValueError as exc:
            raise TrainingSetupError(f"label_quiescence: {exc}") from None
    if cfg.symmetry:
        from zerosum.training.symmetry import board_symmetries

        try:
            board_symmetries(game)
        except ValueError as exc:
            raise TrainingSetupError(str(exc)) from None


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



def check_az_out(cfg: AlphaZeroConfig, out: Path, *, resume: bool, overwrite: bool) -> bool:
    """The run directory check of PPO runs (:func:`~zerosum.training.rundir.check_out`), plus: a PPO
    run is never resumed as AlphaZero. True when resuming."""
    from zerosum.training.rundir import existing_settings

    old = existing_settings(out) if out.is_dir() else None
    if old is not None and old.get("algo", "maskable_ppo") != "alphazero" and not overwrite:
        raise TrainingSetupError(f"{out} holds a {old.get('algo', 'maskable_ppo')} run, not an AlphaZero run; "
                                 "nothing was written. Give another --out"
                                 + (" (--resume continues a run with its own --algo)" if resume else ""))
    return check_out(cfg, out, resume=resume, overwrite=overwrite, checkpoint="state.pt")  # type: ignore[arg-type]


def fits(elapsed: float, last: float, limit: float | None) -> bool:
    """Whether a run that has used ``elapsed`` seconds of its ``limit`` (None: no limit) starts
    another ladder round or iteration, the last of which took ``last`` seconds (0: none yet in
    this process): only if one more as long as the last would end within the limit."""
    return limit is None or elapsed + last < limit


def train_alphazero(cfg: AlphaZeroConfig, *, resume: bool = False, overwrite: bool = False) -> AlphaZeroResult:
    """Run (or resume) one AlphaZero training; see the module docstring."""
    game = _resolve(cfg)
    _check_eval(cfg, game)
    from zerosum.agents.checkpoints import require_train_extra

    require_train_extra()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    net = _build_net(game, cfg.net)  # a config that does not fit fails here, before anything is written
    learner = Learner(game, cfg, net)  # so does a device that is not here
    if cfg.backend == "ray":
        from zerosum.evaluation.backends import import_ray

        import_ray()
    out = Path(cfg.out) if cfg.out else None
    resuming = check_az_out(cfg, out, resume=resume, overwrite=overwrite) if out else False
    from zerosum.nets import save_network

    buffer = ReplayBuffer(cfg.buffer_size, tuple(game.observation_shape), game.num_actions)
    rng = np.random.default_rng(cfg.seed)
    it = games_done = 0
    elapsed = 0.0
    best: dict[str, Any] | None = None
    last_eval: dict[str, Any] | None = None
    labelled = False
    rounds = 0  # ladder rounds done
    annealed_at: tuple[bool, int, int] | None = None  # (labelled, rounds, it) when final_steps were last taken
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if resuming:
            st = torch.load(out / "state.pt", weights_only=False, map_location="cpu")
            net.load_state_dict(st["net"])
            learner.load_optimizer(st["opt"])
            learner.steps = int(st["learner_steps"])
            buffer.restore(st["buffer"])
            rng = st["rng"]
            it, games_done, elapsed = int(st["iteration"]), int(st["games"]), float(st["seconds"])
            best, last_eval, labelled = st["best"], st["last_eval"], bool(st["labelled"])
            rounds = int(st.get("ladder_rounds", 0))
            annealed_at = (labelled, rounds, it) if st.get("annealed") else None
            for name in ("progress.csv", "eval.csv"):
                _truncate_csv(out / name, it)
        else:
            for name in ("progress.csv", "eval.csv", "best.pt", "best.json", "state.pt", "labels.npz",
                         "model.pt", "model.json", "score.png"):
                (out / name).unlink(missing_ok=True)
        _atomic_json(out / "run.json", {"settings": cfg.settings(), "algo": "alphazero",
                                        "iterations": cfg.iterations, "command": _command()})
    tb = _tensorboard(out, cfg)
    per = shares(cfg.games_per_iteration, cfg.workers)
    args = [(game.name, dict(game.variant), dict(cfg.net), cfg.search_options(), cfg.seed * 1000 + it * 7 + i)
            for i in range(cfg.workers)]
    workers: LocalWorkers | RayWorkers = LocalWorkers(args) if cfg.backend == "local" else RayWorkers(args)
    log = print if cfg.verbose else (lambda *a, **k: None)
    start = time.perf_counter() - elapsed

    def weights() -> bytes:
        from zerosum.training.selfplay import state_bytes

        return state_bytes({k: v.detach().clone() for k, v in net.state_dict().items()})

    def metadata(kind: str) -> dict[str, Any]:
        return {"train_steps": learner.steps, "iteration": it, "games": games_done, "command": _command(),
                "recipe_settings": cfg.settings(), "evaluation": (best if kind == "best" else last_eval) or {},
                **({"best": best} if best else {})}

    def save_state() -> None:
        if out is None:
            return
        buf = io.BytesIO()
        torch.save({"net": net.state_dict(), "opt": learner.opt.state_dict(), "learner_steps": learner.steps,
                    "buffer": buffer.state(), "rng": rng, "iteration": it, "games": games_done,
                    "seconds": time.perf_counter() - start, "best": best, "last_eval": last_eval,
                    "labelled": labelled, "ladder_rounds": rounds, "annealed": annealed_at == (labelled, rounds, it)},
                   buf)
        _atomic_bytes(out / "state.pt", buf.getvalue())
        save_network(out / "model.pt", net, game, _net_config(cfg), metadata=metadata("model"))

    def evaluate_now(final: bool = False) -> None:
        nonlocal best, last_eval
        summary = evaluate_network(net, game, cfg, seed=cfg.seed + it)
        summary["iteration"] = it
        if rounds:
            summary["ladder_round"] = rounds
        if final:  # the annealed network is best.pt whatever its few games say (see final_steps)
            summary["annealed"] = True
        summary["seconds_at"] = time.perf_counter() - start
        last_eval = summary
        for r in summary["rows"]:
            if out:
                _append_csv(out / "eval.csv", EVAL_FIELDS, {"iteration": it, "seconds": round(summary["seconds_at"], 1),
                                                            **r})
            if tb:
                tb.add_scalar(f"eval/{r['opponent']}", r["score"], it)
        if "lines_lost" in summary and tb:
            tb.add_scalar("eval/lines_lost", summary["lines_lost"], it)
        if final or _better(summary, best):
            best = dict(summary)
            if out:
                save_network(out / "best.pt", net, game, _net_config(cfg), metadata=metadata("best"))
        if out:
            plot_scores(out)
        text = ", ".join(f"{r['opponent']} {r['score']:.2f} ({r['wins']}/{r['draws']}/{r['losses']})"
                         for r in summary["rows"])
        lines = f"; lines lost {summary['lines_lost']} of {summary['lines']}" if "lines_lost" in summary else ""
        where = f"ladder {rounds}" if it == 0 and rounds else f"it {it}"
        log(f"  eval @ {where}: {text}{lines}  ({summary['seconds']:.1f} s)", flush=True)

    try:
        if cfg.labels and not labelled:
            labels_path = out / "labels.npz" if out else None
            data = _labels(workers, cfg, game, labels_path, log)
            buffer.add(data)
            t0 = time.perf_counter()
            with learner.alone():  # the workers wait
                losses = learner.train(buffer, cfg.label_steps, rng)
            log(f"labels: {len(data)} positions, {cfg.label_steps} learner steps in {time.perf_counter() - t0:.1f} s "
                f"(policy {losses['policy_loss']:.3f}, value {losses['value_loss']:.3f})", flush=True)
            labelled = True
            if cfg.eval_every:
                evaluate_now()
            save_state()
        ladder = LadderRounds(workers, cfg, game, net)
        last = 0.0  # the last round's (or iteration's) wall time: the next one is started only if it fits
        per_step = 0.0  # seconds a learner step took last: the final steps' time (and a tenth more) is kept

        def another() -> bool:  # whether one more round or iteration as long as the last fits
            return fits(time.perf_counter() - start + 1.1 * cfg.final_steps * per_step, last, cfg.max_seconds)

        while rounds < cfg.ladder_rounds and another():
            began = time.perf_counter()
            data = ladder.round(weights(), rounds)
            buffer.add(data)
            t0 = time.perf_counter()
            with learner.alone():  # the workers wait
                losses = learner.train(buffer, cfg.ladder_steps, rng)
            rounds, per_step = rounds + 1, (time.perf_counter() - t0) / cfg.ladder_steps
            w, d, lost = data.outcomes
            log(f"ladder {rounds:3d}  {time.perf_counter() - start:7.1f} s  {data.games} games (W/D/L {w}/{d}/{lost}), "
                f"{len(data):,} positions labelled ({data.kept:,} from the cache) in {data.seconds:.1f} s; "
                f"{cfg.ladder_steps} learner steps in "
                f"{time.perf_counter() - t0:.1f} s (policy {losses['policy_loss']:.3f}, "
                f"value {losses['value_loss']:.3f})  buffer {buffer.size:,}", flush=True)
            if cfg.eval_every:
                evaluate_now()
            save_state()
            last = time.perf_counter() - began
        pending = False
        last = 0.0

        def submit() -> None:
            w = weights()
            for i in range(cfg.workers):
                workers.submit(i, ("play", w, per[i]))

        while it < cfg.iterations and another():
            began = time.perf_counter()
            if not pending:
                submit()
            played = _concat([workers.result(i) for i in range(cfg.workers)])
            pending = False
            if it + 1 < cfg.iterations:
                submit()  # the next iteration's games, played while this one's are learned from
                pending = True
            buffer.add(played)
            t0 = time.perf_counter()
            losses = learner.train(buffer, cfg.train_steps, rng)
            learn_s = time.perf_counter() - t0
            it, per_step = it + 1, learn_s / max(cfg.train_steps, 1)
            games_done += played.games
            row = {"iteration": it, "seconds": round(time.perf_counter() - start, 1), "games": games_done,
                   "positions": len(played), "games_per_s": round(played.games / max(played.seconds, 1e-9), 2),
                   "sims_per_s": round(played.simulations / max(played.seconds, 1e-9)),
                   "policy_loss": round(losses["policy_loss"], 4), "value_loss": round(losses["value_loss"], 4),
                   "buffer": buffer.size, "learner_steps": learner.steps,
                   "selfplay_seconds": round(played.seconds, 2), "learn_seconds": round(learn_s, 2)}
            if out:
                _append_csv(out / "progress.csv", PROGRESS_FIELDS, row)
            if tb:
                for k in ("games_per_s", "sims_per_s", "policy_loss", "value_loss", "buffer"):
                    tb.add_scalar(f"train/{k}", row[k], it)
            ev = last_eval["rows"] if last_eval else []
            log(f"it {it:4d}  {row['seconds']:7.1f} s  games {games_done:6d} ({row['games_per_s']:.1f}/s)  "
                f"sims/s {row['sims_per_s']:,}  loss p {row['policy_loss']:.3f} v {row['value_loss']:.3f}  "
                f"buffer {buffer.size:,}  W/D/L {played.outcomes[0]}/{played.outcomes[1]}/{played.outcomes[2]}"
                + ("  last eval: " + ", ".join(f"{r['opponent']} {r['score']:.2f}" for r in ev) if ev else ""),
                flush=True)
            if cfg.eval_every and it % cfg.eval_every == 0:
                evaluate_now()
            save_state()
            last = time.perf_counter() - began
        if pending:
            for i in range(cfg.workers):
                workers.result(i)  # let the workers finish before they are stopped
        if cfg.final_steps and annealed_at != (labelled, rounds, it) and buffer.size:
            t0 = time.perf_counter()
            if cfg.final_fresh:  # the weights the run began with (its seed), trained on the whole buffer
                torch.manual_seed(cfg.seed)
                learner.restart(_build_net(game, cfg.net).state_dict())
            with learner.alone():  # the workers wait
                losses = learner.anneal(buffer, cfg.final_steps, rng)
            annealed_at = (labelled, rounds, it)
            log(f"final: {cfg.final_steps} learner steps{' from fresh weights' if cfg.final_fresh else ''}, "
                "the learning rate annealed to 0, in "
                f"{time.perf_counter() - t0:.1f} s (policy {losses['policy_loss']:.3f}, "
                f"value {losses['value_loss']:.3f})", flush=True)
            evaluate_now(final=True)
            save_state()
        if last_eval is None or last_eval.get("iteration") != it:
            evaluate_now()
            save_state()
    finally:
        workers.close()
        if tb:
            tb.close()
    return AlphaZeroResult(out, it, games_done, time.perf_counter() - start, best, last_eval, net)


def _net_config(cfg: AlphaZeroConfig) -> Any:
    from zerosum.nets import NetConfig

    return NetConfig.from_dict(dict(cfg.net))


def _command() -> str:
    """The command line that started this run (``zerosum train ...`` when it came from the CLI)."""
    import shlex

    cli = sys.argv and (sys.argv[0].endswith("zerosum") or sys.argv[0].endswith(os.path.join("zerosum", "__main__.py")))
    return shlex.join(["zerosum", *sys.argv[1:]] if cli else sys.argv)


__all__ = ["AZ_RECIPES", "AZ_RECIPE_NOTES", "BACKENDS", "EVAL_FIELDS", "PROGRESS_FIELDS", "RESUMABLE_AZ", "RULES",
           "AlphaZeroConfig", "AlphaZeroResult", "Learner", "LocalWorkers", "RayWorkers", "ReplayBuffer",
           "az_recipe", "check_az_out", "evaluate_network", "greedy_policy", "plot_scores", "train_alphazero"]
