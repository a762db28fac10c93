"""Amazons against OpenSpiel's ``amazons``: random games compared at every step, perft,
random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games per board (10x10, 8x8 and 6x6, each
   move three actions: the queen, its destination, the arrow): the legal actions, the
   board, the player to move, the terminal flag, the returns and OpenSpiel's names of the
   actions played must be equal in zerosum and in pyspiel.
2. Perft in actions from the start to ``--depth`` on 10x10 and 6x6, counted by both.
3. Speed (in actions a second) and 4. strength (``Amazons.default_opponent`` against
   ``MCTSBot(1000)``, 1,000 simulations an action, from 4-action openings): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/amazons.py [--games 30] [--depth 5] [--speed-games 300] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from typing import Any

from _openspiel_game import compare, finish, options, perft_rows

NAME = "amazons"
DEFAULT = "10x10 (default)"
VARIANTS: tuple[dict[str, Any], ...] = ({}, {"board_size": 8}, {"board_size": 6})


def same_board(g: Any, s: Any, st: Any) -> None:
    """OpenSpiel's rows, the top row first, X, O, # and '.' as ours."""
    assert str(st).split("\n") == g.cells(s)


def main() -> None:
    args = options(__doc__, games=30, depth=5, speed_games=300, quick=(10, 4, 60),
                   games_help="random games per board compared with OpenSpiel",
                   depth_help="perft depth (actions) from the start")
    rows = [compare(NAME, v, args.games, args.seed + i, same_board, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT) + perft_rows(NAME, {"board_size": 6}, args.depth, DEFAULT)
    finish(NAME, DEFAULT, rows, args, f"random games, {len(VARIANTS)} boards", per="actions")


if __name__ == "__main__":
    main()
