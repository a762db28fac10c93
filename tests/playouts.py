"""The per-game test files' playout check, now zerosum.testing's ``check_game`` (rules, keys,
text, observations over seeded random games) and ``perft``: no copy of the checks lives here."""

from __future__ import annotations

from zerosum.games import Game
from zerosum.testing import check_game, perft

__all__ = ["check_random_playouts", "perft"]


def check_random_playouts(game: Game, games: int, seed: int = 0) -> list[int]:
    """``check_game`` over ``games`` seeded random games, without the search and env parts
    (their own test files cover those); returns the game lengths."""
    return list(check_game(game, games=games, seed=seed, search_depth=0, env=False).lengths)
