"""PettingZoo AEC environments, one thin module per game.

Three ways to create one::

    from zerosum.envs import nim_v0
    env = nim_v0.env(piles=(3, 4, 5))
    env = zerosum.envs.make("nim_v0", piles=(3, 4, 5))
    env = pettingzoo.make("aec", "zerosum/nim-v0", piles=(3, 4, 5))   # after import zerosum.envs

and the vector envs (many games in one compiled step, the opponent inside)::

    envs = zerosum.envs.make_vec("connect_four_v0", num_envs=1024, opponent="alphabeta(depth=2)")
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pettingzoo

from zerosum.envs.aec import AGENTS, EnvOrderError, ZerosumEnv
from zerosum.games.registry import ENVS  # env name -> (module, game name): the kit's registry
from zerosum.games.kit import Game


def env_module(name: str) -> ModuleType:
    """The env module by name, e.g. ``env_module("nim_v0")``."""
    try:
        return importlib.import_module(ENVS[name][0])
    except KeyError:
        raise ValueError(f"unknown environment {name!r}; available: {sorted(ENVS)}") from None


def make(name: str, *, raw: bool = False, render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Game]:
    """Create an environment by name; ``raw=True`` gives ``raw_env`` (illegal actions raise)."""
    mod = env_module(name)
    register_with_pettingzoo()
    made: ZerosumEnv[Game] = (mod.raw_env if raw else mod.env)(render_mode=render_mode, **variant)
    return made


def _pz_id(name: str) -> str:
    base, version = name.rsplit("_v", 1)
    return f"zerosum/{base}-v{version}"


def register_with_pettingzoo() -> None:
    """Register every env of the registry (yours too, after ``register_env``) with PettingZoo,
    so ``pettingzoo.make("aec", "zerosum/<game>-v<N>")`` creates it."""
    for name, (module, _game) in ENVS.items():
        if _pz_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", _pz_id(name), entry_point=f"{module}:env")


register_with_pettingzoo()


def __getattr__(name: str) -> Any:
    """``make_vec`` (zerosum.envs.vector), imported on first use: it loads the agents and the search."""
    if name == "make_vec":
        from zerosum.envs.vector import make_vec

        return make_vec
    raise AttributeError(f"module 'zerosum.envs' has no attribute {name!r}")


__all__ = ["AGENTS", "ENVS", "EnvOrderError", "ZerosumEnv", "env_module", "make", "make_vec",
           "register_with_pettingzoo"]
