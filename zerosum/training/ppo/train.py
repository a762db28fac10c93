"""Train a learner against search opponents with stable-baselines3 (reads top to bottom).

>>> from zerosum.training.ppo.train import TrainConfig, train
>>> result = train(TrainConfig(game="tictactoe", opponent="random", steps=50_000, out="runs/ttt"))  # doctest: +SKIP
>>> result.checkpoint                                                                             # doctest: +SKIP
PosixPath('runs/ttt/model.zip')

One run: the opponent source (fixed, curriculum or self-play pool), ``n_envs`` single-agent
envs in one process (DummyVecEnv beats subprocesses for cheap games on 2 cores), the SB3 model
(MaskablePPO by default; PPO and DQN without masks: an illegal action ends the episode with a
penalty), callbacks (evaluation, snapshots, outcomes), ``learn``, the checkpoint. Output::

    run.json                   the settings, written before training starts
    model.zip, model.json      the final checkpoint and its metadata
    best.zip, best.json        the checkpoint of the best periodic evaluation (``keep_best``):
                               fewest losses, then highest score; both .json files say which
                               evaluation picked it (``"best"``)
    checkpoints/step_N.zip     periodic checkpoints (with ``save_every``)
    eval.csv                   periodic evaluation: wins/draws/losses per opponent and seat
    progress.csv               SB3's training log (and TensorBoard files when installed)

A directory that already holds a run is refused before anything is written, unless ``resume=True``
(same settings: load ``model.zip``, train on to ``steps``) or ``overwrite=True``. Opponent and
evaluation specs are checked against the game first too, so bad input fails before training.

Seeds: the same ``seed`` on the same machine replays the run exactly (SB3 seeds python, numpy
and torch; env ``i`` is seeded ``seed + i``, its opponent's generator from it).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.agents.checkpoints import require_train_extra
from zerosum.training.opponents import (
    Curriculum, FixedOpponent, MixedOpponent, OpponentSource, PrioritizedOpponents, SelfPlayPool,
)
from zerosum.training.rundir import TrainingSetupError, check_out
from zerosum.training.ppo.config import DQN_DEFAULTS, PPO_DEFAULTS, TrainConfig, TrainResult
from zerosum.training.single_agent import SingleAgentEnv, resolve_game


def _activation(name: str) -> Any:
    import torch

    return {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[name]


def make_source(cfg: TrainConfig, exploiter: Any = None) -> OpponentSource:
    """The opponent source a config asks for (with ``exploiter`` mixed in at weight ``cfg.exploiter``)."""
    if exploiter is not None and cfg.exploiter:
        specs = list(cfg.opponent) if isinstance(cfg.opponent, (list, tuple)) else [cfg.opponent]
        weights = np.ones(len(specs)) / len(specs) if cfg.opponent_weights is None else np.asarray(
            cfg.opponent_weights, dtype=float) / np.sum(cfg.opponent_weights)
        return MixedOpponent([*specs, exploiter], [*(weights * (1 - cfg.exploiter)), cfg.exploiter])
    if cfg.self_play:
        base = cfg.curriculum or (list(cfg.opponent) if isinstance(cfg.opponent, (list, tuple)) else [cfg.opponent])
        return SelfPlayPool(base=base, base_prob=cfg.base_prob, pool_size=cfg.pool_size,
                            priority=cfg.opponent_priority)
    if cfg.curriculum:
        return Curriculum(cfg.curriculum, threshold=cfg.threshold, window=cfg.window, metric=cfg.curriculum_metric)
    if isinstance(cfg.opponent, (list, tuple)):
        if cfg.opponent_priority:
            return PrioritizedOpponents(list(cfg.opponent), cfg.opponent_weights, priority=cfg.opponent_priority,
                                        window=cfg.window)
        if len(cfg.opponent) > 1:
            return MixedOpponent(list(cfg.opponent), cfg.opponent_weights)
        return FixedOpponent(cfg.opponent[0])
    return FixedOpponent(cfg.opponent)


def make_vec_env(cfg: TrainConfig, source: OpponentSource) -> Any:
    """``n_envs`` single-agent envs in one process (or subprocesses); with alternating seats,
    env i starts in seat i % 2. ``vec="zerosum"``: one compiled vector env of ``n_envs``
    lanes (:func:`zerosum.envs.make_vec`), the source's opponents inside its step, random
    openings and symmetries applied there, the source told each result and its weights
    handed back to the env (:class:`~zerosum.training.vector_sources.SourceVecEnv`)."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if cfg.vec == "zerosum":
        from zerosum.envs.vector import make_vec
        from zerosum.training.vector_sources import SourceVecEnv, source_mixture

        opponents, weights = source_mixture(source)
        venv = make_vec(cfg.game, cfg.n_envs, opponents, opponent_weights=weights, learner_seat=cfg.seat,
                        seed=cfg.seed, api="sb3", obs_format=cfg.obs_format, illegal_penalty=cfg.illegal_penalty,
                        random_opening=float(cfg.random_opening), symmetry=bool(cfg.symmetry), **cfg.variant)
        return VecMonitor(SourceVecEnv(venv, source))

    def factory(i: int) -> Callable[[], Any]:
        def make() -> Any:
            opp = source if cfg.vec == "dummy" else make_source(cfg)
            return Monitor(SingleAgentEnv(cfg.game, opp, seat=cfg.seat, first_seat=i % 2, obs_format=cfg.obs_format,
                                          illegal_penalty=cfg.illegal_penalty, variant=cfg.variant,
                                          random_opening=cfg.random_opening, symmetry=cfg.symmetry))
        return make

    fns = [factory(i) for i in range(cfg.n_envs)]
    return DummyVecEnv(fns) if cfg.vec == "dummy" else SubprocVecEnv(fns)


def make_model(cfg: TrainConfig, env: Any, tensorboard_dir: str | None) -> Any:
    """The SB3 model for ``cfg.algo`` with its defaults and overrides."""
    from zerosum.agents.checkpoints import algo_class

    cls = algo_class(cfg.algo)
    policy = "MultiInputPolicy" if cfg.obs_format == "dict" else "MlpPolicy"
    kwargs = cfg.hyperparameters()
    kwargs.pop("n_envs")
    if kwargs.pop("lr_schedule") == "linear":
        start_lr = float(kwargs["learning_rate"])
        kwargs["learning_rate"] = lambda remaining: start_lr * remaining  # SB3 passes the fraction left, 1 -> 0
    policy_kwargs = {"net_arch": list(kwargs.pop("net_arch")), "activation_fn": _activation(kwargs.pop("activation"))}
    try:
        return cls(policy, env, policy_kwargs=policy_kwargs, seed=cfg.seed, device=cfg.device,
                   tensorboard_log=tensorboard_dir, verbose=0, **kwargs)
    except TypeError as exc:  # an algo_kwargs key the algorithm does not take
        raise TrainingSetupError(f"algo_kwargs for {cfg.algo}: {exc}") from None


def _tensorboard_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("tensorboard") is not None


def opponent_specs(cfg: TrainConfig) -> list[str]:
    """Every agent spec a run plays against or evaluates with."""
    specs = list(cfg.opponent) if isinstance(cfg.opponent, (list, tuple)) else [cfg.opponent]
    return list(dict.fromkeys([*specs, *(cfg.curriculum or []), *cfg.eval_opponents]))


def check_opponents(cfg: TrainConfig, game: Any) -> None:
    """Build every opponent and evaluation spec and prepare it for the game; TrainingSetupError if one cannot play."""
    from zerosum.agents import make_agent

    for spec in opponent_specs(cfg):
        try:
            make_agent(spec).prepare(game)
        except (ValueError, TypeError) as exc:
            raise TrainingSetupError(f"opponent {spec!r} cannot play {game.name}: {exc}") from None


def train(cfg: TrainConfig, *, resume: bool = False, overwrite: bool = False) -> TrainResult:
    """Run one training and save the checkpoint under ``cfg.out`` (None: keep it in memory only).

    Everything that can be refused is checked before anything is written: the game and
    variant, every opponent and evaluation spec, and the output directory (a run already
    there needs ``resume`` or ``overwrite``).
    """
    game = resolve_game(cfg.game, cfg.variant)  # a bad game or variant fails before torch loads
    check_opponents(cfg, game)
    if cfg.symmetry:
        from zerosum.training.symmetry import board_symmetries

        try:
            board_symmetries(game)
        except ValueError as exc:
            raise TrainingSetupError(str(exc)) from None
    out = Path(cfg.out) if cfg.out else None
    resuming = check_out(cfg, out, resume=resume, overwrite=overwrite) if out else False
    require_train_extra()
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    from zerosum.nets import resolve_device

    resolve_device(cfg.device)  # SB3 would fall back to the CPU without a word

    from zerosum.agents.checkpoints import algo_class, save_checkpoint
    from zerosum.training.ppo.callbacks import (
        EvalCallback, OutcomeCallback, PeriodicSaveCallback, ProgressCallback, SelfPlayCallback, TimeLimitCallback,
    )

    torch.set_num_threads(cfg.threads)
    if out:
        out.mkdir(parents=True, exist_ok=True)
        if not resuming:
            for name in ("eval.csv", "progress.csv", "best.zip", "best.json"):
                (out / name).unlink(missing_ok=True)
        (out / "run.json").write_text(json.dumps({"settings": cfg.settings(), "steps": cfg.steps}, indent=2,
                                                 default=list) + "\n")
    exploiter = None
    if cfg.exploiter:
        from zerosum.agents.exploiter import ExploiterAgent

        exploiter = ExploiterAgent()
        exploiter.prepare(game)
    source = make_source(cfg, exploiter)
    env = make_vec_env(cfg, source)
    tb = _tensorboard_available() and cfg.tensorboard and out is not None
    if resuming:
        assert out is not None
        model = algo_class(cfg.algo).load(str(out / "model.zip"), env=env, device=cfg.device,
                                          tensorboard_log=str(out / "tb") if tb else None)
    else:
        model = make_model(cfg, env, str(out / "tb") if tb and out else None)
    model.set_logger(_logger(out, stdout=cfg.verbose > 1, tensorboard=tb))

    def save_best(steps: int, summary: dict[str, Any]) -> None:
        if out and cfg.keep_best:
            meta = _metadata(cfg, game, source, steps)
            meta["best"] = {"path": "best.zip", **summary}
            save_checkpoint(model, out / "best.zip", meta)

    evaluator = EvalCallback(game, cfg.eval_opponents, every=cfg.eval_every, games_per_seat=cfg.eval_games,
                             algo=cfg.algo, obs_format=cfg.obs_format, seed=cfg.seed, openings=cfg.eval_openings,
                             csv_path=out / "eval.csv" if out else None, verbose=cfg.verbose, on_best=save_best,
                             exhaustive=cfg.eval_exhaustive, exploiter=exploiter)
    if resuming and out and (out / "best.json").is_file():
        evaluator.best = json.loads((out / "best.json").read_text()).get("best")
    outcomes = OutcomeCallback(source, verbose=cfg.verbose)
    callbacks: list[BaseCallback] = [outcomes]
    if isinstance(source, SelfPlayPool):
        callbacks.append(SelfPlayCallback(source, every=cfg.snapshot_every, algo=cfg.algo, obs_format=cfg.obs_format,
                                          verbose=cfg.verbose))
    if out and cfg.save_every:
        callbacks.append(PeriodicSaveCallback(out / "checkpoints", every=cfg.save_every,
                                              metadata=lambda steps: _metadata(cfg, game, source, steps)))
    evaluating = cfg.eval_games > 0 and bool(cfg.eval_opponents)
    if evaluating:
        callbacks.append(evaluator)
    if cfg.verbose:
        callbacks.append(ProgressCallback(cfg.steps, outcomes, evaluator if evaluating else None, every=cfg.log_every))
    if cfg.max_seconds:
        callbacks.append(TimeLimitCallback(cfg.max_seconds, evaluator))

    start = time.perf_counter()
    remaining = max(cfg.steps - model.num_timesteps, 1) if resuming else cfg.steps
    model.learn(total_timesteps=remaining, callback=callbacks, progress_bar=False, reset_num_timesteps=not resuming)
    seconds = time.perf_counter() - start - evaluator.eval_seconds
    meta = _metadata(cfg, game, source, model.num_timesteps)
    meta["eval"] = [r for r in evaluator.history if r["steps"] == evaluator.history[-1]["steps"]]
    if out and cfg.keep_best and evaluator.best is not None:
        meta["best"] = {"path": "best.zip", **evaluator.best}
    checkpoint = save_checkpoint(model, out / "model.zip", meta) if out else None
    env.close()
    counts = {f"seat{s}": dict(zip(("win", "draw", "loss", "illegal"), map(int, outcomes.counts[s]))) for s in (0, 1)}
    return TrainResult(checkpoint, meta, int(model.num_timesteps), seconds, evaluator.eval_seconds,
                       evaluator.history, counts, model)


def _logger(out: Path | None, *, stdout: bool, tensorboard: bool) -> Any:
    """SB3's logger, writing only into the run's directory (progress.csv, TensorBoard) and to
    stdout with -vv; SB3's configure() would make a /tmp/SB3-<date> directory without one."""
    import sys

    from stable_baselines3.common.logger import CSVOutputFormat, HumanOutputFormat, Logger, TensorBoardOutputFormat

    formats: list[Any] = [CSVOutputFormat(str(out / "progress.csv"))] if out else []
    if out and tensorboard:
        formats.append(TensorBoardOutputFormat(str(out)))
    if stdout:
        formats.append(HumanOutputFormat(sys.stdout))
    return Logger(str(out) if out else None, formats)


def _metadata(cfg: TrainConfig, game: Any, source: OpponentSource, steps: int) -> dict[str, Any]:
    from zerosum.agents.checkpoints import build_metadata

    policy = "MultiInputPolicy" if cfg.obs_format == "dict" else "MlpPolicy"
    config = {k: v for k, v in dataclasses.asdict(cfg).items() if k not in ("variant",)}
    return build_metadata(game, algo=cfg.algo, obs_format=cfg.obs_format, training_steps=steps,
                          opponents=source.describe(), seat=cfg.seat, seed=cfg.seed, policy=policy,
                          hyperparameters=cfg.hyperparameters(), extra={"config": config})


__all__ = ["DQN_DEFAULTS", "PPO_DEFAULTS", "TrainConfig", "TrainResult", "TrainingSetupError", "check_opponents",
           "check_out", "make_model", "make_source", "make_vec_env", "opponent_specs", "train"]
