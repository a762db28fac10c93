"""Checkpoints: the format, reading and writing it, and the algorithms a checkpoint may hold.

A checkpoint is the stable-baselines3 ``.zip`` plus a sidecar JSON of the same stem
(``model.zip`` and ``model.json``) holding the metadata::

    format, format_version      "zerosum-checkpoint", 1
    game, variant, env          e.g. "tictactoe", {}, "tictactoe_v0"
    env_version                 "v0" (bumped when observations, rewards or rules change)
    observation_shape           the PettingZoo observation planes' shape
    obs_format, num_actions     the policy's input format ("flat" or "dict"), Discrete(n)
    algo, policy                a name in ALGORITHMS, the SB3 policy class
    training_steps              learner steps (env steps from the learner's side)
    opponents, seat, seed       what it was trained against, from which seat, with which seed
    hyperparameters             the algorithm's settings
    zerosum_version, versions   zerosum, stable-baselines3, sb3-contrib, torch, python
    created                     UTC time

Reading refuses (with :class:`CheckpointError`) a missing or corrupt checkpoint;
:func:`check_compatible` refuses a game whose name, variant, env version, observation
shape or action count differ from the checkpoint's. :data:`ALGORITHMS` is the one list of
algorithms: training builds its models from it and loading reads them back with it.
Torch and stable-baselines3 are imported only to load or write a model.
"""

from __future__ import annotations

import importlib
import json
import os
import platform
import time
import zipfile
from pathlib import Path
from typing import Any

from zerosum.games.kit import Game
from zerosum.games.registry import env_name
from zerosum.nets.errors import TRAIN_EXTRA, CheckpointError, MissingExtraError  # shared with network checkpoints

FORMAT = "zerosum-checkpoint"
FORMAT_VERSION = 1

# algorithm name -> "module:Class" (imported on first use)
ALGORITHMS: dict[str, str] = {
    "maskable_ppo": "sb3_contrib:MaskablePPO",
    "ppo": "stable_baselines3:PPO",
    "maskable_dqn": "zerosum.agents.maskable_dqn:MaskableDQN",
    "dqn": "stable_baselines3:DQN",
}
ALGOS = tuple(ALGORITHMS)
Q_ALGOS = ("maskable_dqn", "dqn")  # value-based: the network gives Q-values, play is greedy


def require_train_extra() -> None:
    """Import torch, stable-baselines3 and sb3-contrib, or say which pip install fixes it."""
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError(
            f"learned agents and training need torch, stable-baselines3 and sb3-contrib ({exc}); "
            f"install them with: {TRAIN_EXTRA}"
        ) from None


def algo_class(algo: str) -> Any:
    """The SB3 class for an algorithm name in :data:`ALGORITHMS` (imports torch and SB3)."""
    if algo not in ALGORITHMS:
        raise ValueError(f"algo={algo!r} is not allowed: one of {ALGOS}")
    require_train_extra()
    module, _, name = ALGORITHMS[algo].partition(":")
    return getattr(importlib.import_module(module), name)


def algo_of(model: Any) -> str:
    """The algorithm name of an SB3 model object: Q-network or actor-critic, masked or not."""
    masked = type(model).__name__.startswith("Maskable")
    if hasattr(model.policy, "q_net"):
        return "maskable_dqn" if masked else "dqn"
    return "maskable_ppo" if masked else "ppo"


def jsonable_variant(variant: Any) -> dict[str, Any]:
    """A game's variant as plain JSON values (tuples become lists), for storing and comparing."""
    text = json.dumps(dict(variant), default=lambda v: v.tolist() if hasattr(v, "tolist") else list(v))
    plain: dict[str, Any] = json.loads(text)
    return plain


# ---- reading ---------------------------------------------------------------------------
def checkpoint_paths(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The model .zip and its sidecar .json for a path (a .zip, a stem, or a run directory)."""
    p = Path(path)
    if p.is_dir():
        p = p / "model.zip"
    if p.suffix == ".json":
        p = p.with_suffix(".zip")
    elif p.suffix != ".zip":
        p = p.with_name(p.name + ".zip")
    return p, p.with_suffix(".json")


def read_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The checkpoint's metadata; CheckpointError if either file is missing or unreadable."""
    model, sidecar = checkpoint_paths(path)
    if not model.is_file():
        raise CheckpointError(f"no checkpoint at {str(path)!r}: {model} does not exist "
                              "(train one with `zerosum train ... --out DIR`)")
    if not sidecar.is_file():
        raise CheckpointError(f"checkpoint {model} has no metadata file {sidecar.name} next to it; "
                              "zerosum checkpoints are the .zip plus a .json of the same name")
    try:
        meta = json.loads(sidecar.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"corrupt checkpoint metadata {sidecar}: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(f"{sidecar} is not zerosum checkpoint metadata (no \"format\": \"{FORMAT}\")")
    if meta.get("format_version", 0) > FORMAT_VERSION:
        raise CheckpointError(f"{sidecar} has format version {meta.get('format_version')}; this zerosum "
                              f"reads up to {FORMAT_VERSION}: upgrade zerosum")
    missing = [k for k in ("game", "variant", "env", "observation_shape", "num_actions", "algo", "obs_format")
               if k not in meta]
    if missing:
        raise CheckpointError(f"corrupt checkpoint metadata {sidecar}: missing {', '.join(missing)}")
    if meta["algo"] not in ALGORITHMS:
        raise CheckpointError(f"{sidecar}: algo {meta['algo']!r} is not one of {ALGOS}")
    if not zipfile.is_zipfile(model):
        raise CheckpointError(f"corrupt checkpoint {model}: not a zip archive (an SB3 model is a .zip)")
    return meta


def is_checkpoint(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` holds a readable zerosum checkpoint (metadata and archive)."""
    try:
        read_metadata(path)
    except CheckpointError:
        return False
    return True


def check_compatible(meta: dict[str, Any], game: Game, where: str = "checkpoint") -> None:
    """Raise CheckpointError unless the checkpoint was trained on this game, variant and env version."""
    problems = []
    if meta["game"] != game.name:
        problems.append(f"game {meta['game']!r}, not {game.name!r}")
    else:
        variant = jsonable_variant(game.variant)
        if meta["variant"] != variant:
            problems.append(f"variant {meta['variant']}, not {variant}")
        env = env_name(game.name)
        if env is not None and meta["env"] is not None and meta["env"] != env:
            problems.append(f"env {meta['env']}, but this zerosum serves {game.name} as {env} "
                            "(the observations may differ: retrain)")
        if tuple(meta["observation_shape"]) != tuple(game.observation_shape):
            problems.append(f"observation shape {tuple(meta['observation_shape'])}, "
                            f"not {tuple(game.observation_shape)}")
        if meta["num_actions"] != game.num_actions:
            problems.append(f"{meta['num_actions']} actions, not {game.num_actions}")
    if problems:
        raise CheckpointError(f"{where} was trained for {meta['game']} {meta['variant']} and cannot play "
                              f"{game.name} {jsonable_variant(game.variant)}: " + "; ".join(problems))


def load_checkpoint(path: str | os.PathLike[str], device: str = "cpu") -> tuple[Any, dict[str, Any]]:
    """The SB3 model and its metadata; CheckpointError for a missing or corrupt checkpoint."""
    meta = read_metadata(path)
    model_path, _ = checkpoint_paths(path)
    cls = algo_class(meta["algo"])
    # schedules are pickled closures; playing needs none of them
    custom: dict[str, Any] = {"learning_rate": 0.0, "lr_schedule": lambda _: 0.0, "clip_range": lambda _: 0.0,
                              "exploration_schedule": lambda _: 0.0}
    if meta["algo"] == "maskable_dqn":  # the policy class by name, wherever a pickle says it lived
        custom["policy_class"] = cls.policy_aliases["MultiInputPolicy" if meta["obs_format"] == "dict" else "MlpPolicy"]
    try:
        model = cls.load(str(model_path), device=device, custom_objects=custom)
    except Exception as exc:  # noqa: BLE001 - SB3 raises many kinds for a damaged archive
        raise CheckpointError(f"corrupt checkpoint {model_path}: cannot load it as {meta['algo']} "
                              f"({type(exc).__name__}: {exc})") from None
    return model, meta


# ---- writing ---------------------------------------------------------------------------
def build_metadata(game: Game, *, algo: str, obs_format: str, training_steps: int, opponents: Any,
                   seat: Any, seed: int | None, policy: str = "", hyperparameters: dict[str, Any] | None = None,
                   extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The metadata dict for a checkpoint of a policy trained on ``game``."""
    import sb3_contrib
    import stable_baselines3
    import torch

    import zerosum

    env = env_name(game.name)
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "game": game.name, "variant": jsonable_variant(game.variant),
        "env": env, "env_version": env.rsplit("_", 1)[-1] if env else None,
        "observation_shape": list(game.observation_shape), "obs_format": obs_format,
        "num_actions": game.num_actions, "algo": algo, "policy": policy,
        "training_steps": int(training_steps), "opponents": opponents, "seat": seat, "seed": seed,
        "hyperparameters": hyperparameters or {},
        "zerosum_version": zerosum.__version__,
        "versions": {"stable_baselines3": stable_baselines3.__version__, "sb3_contrib": sb3_contrib.__version__,
                     "torch": torch.__version__, "python": platform.python_version()},
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **(extra or {}),
    }


def save_checkpoint(model: Any, path: str | os.PathLike[str], metadata: dict[str, Any]) -> Path:
    """Write ``model`` and its metadata; returns the .zip path. Replaces both files atomically."""
    zip_path, sidecar = checkpoint_paths(path)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    tmp_zip = zip_path.with_name(zip_path.stem + ".tmp.zip")
    model.save(str(tmp_zip))
    tmp_json = sidecar.with_name(sidecar.name + ".tmp")
    tmp_json.write_text(json.dumps(metadata, indent=2, default=str) + "\n")
    os.replace(tmp_zip, zip_path)
    os.replace(tmp_json, sidecar)
    return zip_path


__all__ = [
    "ALGORITHMS",
    "ALGOS",
    "FORMAT",
    "FORMAT_VERSION",
    "Q_ALGOS",
    "TRAIN_EXTRA",
    "CheckpointError",
    "MissingExtraError",
    "algo_class",
    "algo_of",
    "build_metadata",
    "check_compatible",
    "checkpoint_paths",
    "is_checkpoint",
    "jsonable_variant",
    "load_checkpoint",
    "read_metadata",
    "require_train_extra",
    "save_checkpoint",
]
