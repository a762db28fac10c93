"""Pure game rules: the Game protocol and one module per game (no RL imports here).

``make_game("nim", piles=(3, 4, 5))`` builds a game by name; ``GAMES`` lists the names.
Game modules are imported on first use, so their kernels load only when needed.
"""

from __future__ import annotations

import importlib
from typing import Any

from zerosum.games.base import (
    Action, Game, GameOverError, Heuristic, IllegalActionError, Outcome, Player, State,
    VariantError, ZerosumError,
)

# name -> "module:class"
GAMES: dict[str, str] = {
    "tictactoe": "zerosum.games.tictactoe:TicTacToe",
    "nim": "zerosum.games.nim:Nim",
    "pentago": "zerosum.games.pentago:Pentago",
    "halma": "zerosum.games.halma:Halma",
    "nine_mens_morris": "zerosum.games.nine_mens_morris:NineMensMorris",
}


def make_game(name: str, **variant: Any) -> Game:
    """Build a game by name with rule variants as keyword arguments."""
    try:
        path = GAMES[name]
    except KeyError:
        raise VariantError(f"unknown game {name!r}; available: {sorted(GAMES)}") from None
    module, cls = path.split(":")
    game_cls = getattr(importlib.import_module(module), cls)
    try:
        return game_cls(**variant)
    except TypeError as exc:
        raise VariantError(f"bad variant for {name}: {exc}") from None


__all__ = [
    "Action", "GAMES", "Game", "GameOverError", "Heuristic", "IllegalActionError", "Outcome",
    "Player", "State", "VariantError", "ZerosumError", "make_game",
]
