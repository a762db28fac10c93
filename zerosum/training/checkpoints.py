"""Checkpoints: the SB3 ``.zip`` plus a sidecar ``.json`` of metadata that agents check on load.

The format and the loader live in :mod:`zerosum.agents.learned` (agents do not import
training); this module writes checkpoints. Metadata fields::

    format, format_version      "zerosum-checkpoint", 1
    game, variant, env          e.g. "tictactoe", {}, "tictactoe_v0"
    env_version                 "v0" (bumped when observations, rewards or rules change)
    observation_shape           the PettingZoo observation planes' shape
    obs_format, num_actions     the policy's input format ("flat" or "dict"), Discrete(n)
    algo, policy                "maskable_ppo" / "ppo" / "dqn", the SB3 policy class
    training_steps              learner steps (env steps from the learner's side)
    opponents, seat, seed       what it was trained against, from which seat, with which seed
    hyperparameters             the algorithm's settings
    zerosum_version, versions   zerosum, stable-baselines3, sb3-contrib, torch, python
    created                     UTC time
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from zerosum.agents.learned import (
    FORMAT, FORMAT_VERSION, CheckpointError, check_compatible, checkpoint_paths, env_name_for,
    jsonable_variant, load_checkpoint, read_metadata,
)
from zerosum.games.base import Game


def build_metadata(game: Game, *, algo: str, obs_format: str, training_steps: int, opponents: Any,
                   seat: Any, seed: int | None, policy: str = "", hyperparameters: dict[str, Any] | None = None,
                   extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The metadata dict for a checkpoint of a policy trained on ``game``."""
    import sb3_contrib
    import stable_baselines3
    import torch

    import zerosum

    env = env_name_for(game.name)
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


def save_checkpoint(model: Any, path: str | Path, metadata: dict[str, Any]) -> Path:
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


def is_checkpoint(path: str | Path) -> bool:
    """True when ``path`` holds a readable zerosum checkpoint (metadata and archive)."""
    try:
        read_metadata(path)
    except CheckpointError:
        return False
    return True


__all__ = ["CheckpointError", "build_metadata", "check_compatible", "checkpoint_paths", "is_checkpoint",
           "load_checkpoint", "read_metadata", "save_checkpoint"]
