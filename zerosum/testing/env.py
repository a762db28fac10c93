"""``check_env``: PettingZoo's own tests on a game's environment (the one part that needs PettingZoo)."""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Callable
from typing import Any

from zerosum.games.kit.game import Game
from zerosum.games.registry import env_name
from zerosum.testing.positions import fail

NOISE = ("Observation space for each agent probably should be", "Observation is not a NumPy array",
         "Observation numpy array is all zeros")
"""api_test's warnings about what every classic board game env does (a dict observation with
its action mask, an empty board at the start): not findings."""


def env_factory(game: Game) -> Callable[..., Any]:
    """``make(raw, render_mode)`` building ``game``'s environment: the registered env module's
    ``env``/``raw_env`` under the game's variant when one is registered, else the generic
    ``ZerosumEnv(game, name=f"{game.name}_v0")``."""
    from zerosum.envs import ZerosumEnv, env_module

    name = env_name(game.name)
    if name is None:
        def generic(raw: bool = False, render_mode: str | None = None) -> Any:
            return ZerosumEnv(game, name=f"{game.name}_v0", render_mode=render_mode, safe=not raw)

        return generic
    module = env_module(name)

    def registered(raw: bool = False, render_mode: str | None = None) -> Any:
        made = (module.raw_env if raw else module.env)(render_mode=render_mode, **dict(game.variant))
        if made.unwrapped.game != game:
            fail(game, None, f"the registered env {name} builds {made.unwrapped.game!r}, not this game")
        return made

    return registered


def check_env(game: Game, *, cycles: int = 100, seed: int = 0) -> None:
    """PettingZoo's ``api_test`` (on ``env()`` and ``raw_env()``), ``seed_test`` and
    ``render_test`` (ansi, human, rgb_array) on the game's environment, which declares
    the game's observation shape and action count."""
    try:
        from pettingzoo.test import api_test, render_test, seed_test
    except ImportError as e:  # pragma: no cover - pettingzoo is a dependency of zerosum.envs
        raise ImportError("check_env needs PettingZoo: pip install pettingzoo") from e
    make = env_factory(game)
    probe = make()
    obs_space = probe.observation_space("player_0")["observation"]
    if obs_space.shape != game.observation_shape or probe.action_space("player_0").n != game.num_actions:
        fail(game, None, f"the env declares observations {obs_space.shape} and {probe.action_space('player_0')}; "
                         f"the game {game.observation_shape} and {game.num_actions} actions")
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():  # human mode prints boards
        for noise in NOISE:
            warnings.filterwarnings("ignore", message=noise, category=UserWarning)
        api_test(make(), num_cycles=cycles)
        api_test(make(raw=True), num_cycles=cycles)
        seed_test(lambda: make(), num_cycles=cycles)
        render_test(lambda render_mode=None: make(render_mode=render_mode))
