"""PettingZoo AEC environments, one thin module per game.

Three ways to create one::

    from zerosum.envs import nim_v0
    env = nim_v0.env(piles=(3, 4, 5))
    env = zerosum.envs.make("nim_v0", piles=(3, 4, 5))
    env = pettingzoo.make("aec", "zerosum/nim-v0", piles=(3, 4, 5))   # after import zerosum.envs
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pettingzoo

from zerosum.envs.aec import AGENTS, EnvOrderError, ZerosumEnv

# env name -> (module, game name)
ENVS: dict[str, tuple[str, str]] = {
    "tictactoe_v0": ("zerosum.envs.tictactoe_v0", "tictactoe"),
    "nim_v0": ("zerosum.envs.nim_v0", "nim"),
    "pentago_v0": ("zerosum.envs.pentago_v0", "pentago"),
    "halma_v0": ("zerosum.envs.halma_v0", "halma"),
    "nine_mens_morris_v0": ("zerosum.envs.nine_mens_morris_v0", "nine_mens_morris"),
}


def env_module(name: str) -> ModuleType:
    """The env module by name, e.g. ``env_module("nim_v0")``."""
    try:
        return importlib.import_module(ENVS[name][0])
    except KeyError:
        raise ValueError(f"unknown environment {name!r}; available: {sorted(ENVS)}") from None


def make(name: str, *, raw: bool = False, render_mode: str | None = None, **variant: Any) -> ZerosumEnv:
    """Create an environment by name; ``raw=True`` gives ``raw_env`` (illegal actions raise)."""
    mod = env_module(name)
    return (mod.raw_env if raw else mod.env)(render_mode=render_mode, **variant)


def _pz_id(name: str) -> str:
    base, version = name.rsplit("_v", 1)
    return f"zerosum/{base}-v{version}"


for _name, (_module, _game) in ENVS.items():
    if _pz_id(_name) not in pettingzoo.aec_registry:
        pettingzoo.register("aec", _pz_id(_name), entry_point=f"{_module}:env")

__all__ = ["AGENTS", "ENVS", "EnvOrderError", "ZerosumEnv", "env_module", "make"]
