"""Clobber against OpenSpiel's ``clobber``: random games compared at every step, perft,
random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games per variant (the default 5x6 and four
   others): the legal actions, the board, the player to move, the terminal flag, the
   returns and the names of the actions played must be equal in zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies on 5x6 (to 3 on 8x8), counted by both.
3. Speed and 4. strength (``Clobber.default_opponent`` against ``MCTSBot(1000)``): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/clobber.py [--games 300] [--depth 4] [--speed-games 2000] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from _openspiel_game import compare, finish, options, perft_rows

NAME = "clobber"
DEFAULT = "5x6 (default)"
VARIANTS = ({}, {"rows": 8, "columns": 8}, {"rows": 4, "columns": 5}, {"rows": 11, "columns": 3},
            {"rows": 4, "columns": 16})


def same_board(g, s, st) -> None:
    """OpenSpiel's rows: the rank (right-aligned), then the cells; the column letters last."""
    assert [line.strip().lstrip("0123456789") for line in str(st).split("\n")[: g.rows]] == g.cells(s)


def main() -> None:
    args = options(__doc__, games=300, depth=4, speed_games=2000, quick=(50, 3, 300),
                   games_help="random games per variant compared with OpenSpiel")
    rows = [compare(NAME, v, args.games, args.seed + i, same_board, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT) + perft_rows(NAME, {"rows": 8, "columns": 8},
                                                                   min(args.depth, 3), DEFAULT)
    finish(NAME, DEFAULT, rows, args, f"random games, {len(VARIANTS)} variants")


if __name__ == "__main__":
    main()
