"""Pure game rules: the game kit and one package per game (no RL imports here).

``make_game("nim", piles=(3, 4, 5))`` builds a game by name; ``GAMES`` lists the names
and ``ENVS`` the environments that serve them (:mod:`zerosum.games.registry`). Game
packages are imported on first use, so their kernels load only when needed. A game of
your own: :mod:`zerosum.games.kit` and docs/new-game.md.
"""

from __future__ import annotations

from zerosum.games.kit import (
    Action, Game, GameLengthError, GameOverError, GameSpec, Heuristic, IllegalActionError, KernelError, Layout,
    MoveCountError, Outcome, Player, PositionError, State, UnknownGameError, Variant, VariantError, ZerosumError,
)
from zerosum.games.registry import ENVS, GAMES, env_name, game_class, make_game, register_env, register_game

__all__ = [
    "ENVS", "GAMES", "Action", "Game", "GameLengthError", "GameOverError", "GameSpec", "Heuristic",
    "IllegalActionError", "KernelError", "Layout", "MoveCountError", "Outcome", "Player", "PositionError", "State",
    "UnknownGameError", "Variant", "VariantError", "ZerosumError", "env_name", "game_class", "make_game",
    "register_env", "register_game",
]
