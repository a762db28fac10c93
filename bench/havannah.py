"""Havannah against OpenSpiel's ``havannah``: random games compared at every step, perft,
random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games per variant (the default base 8, bases 3
   and 5, bases 4 and 2 with the swap): the legal actions, the board, the player to move, the
   terminal flag, the returns and the names of the actions played must be equal in zerosum
   and in pyspiel.
2. Perft from the start to ``--depth`` plies on base 3 (to 2 on base 8), counted by both.
3. Speed and 4. strength (``Havannah.default_opponent`` against ``MCTSBot(1000)``): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/havannah.py [--games 200] [--depth 4] [--speed-games 400] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from _openspiel_game import compare, finish, options, perft_rows, same_stone_rows

NAME = "havannah"
DEFAULT = "base 8 (default)"
VARIANTS = ({}, {"board_size": 3}, {"board_size": 4, "swap": True}, {"board_size": 5},
            {"board_size": 2, "swap": True})


def main() -> None:
    args = options(__doc__, games=200, depth=4, speed_games=400, quick=(30, 3, 100),
                   games_help="random games per variant compared with OpenSpiel",
                   depth_help="perft depth from the start (base 3)")
    rows = [compare(NAME, v, args.games, args.seed + i, same_stone_rows, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {"board_size": 3}, args.depth, DEFAULT) + perft_rows(NAME, {}, min(args.depth, 2),
                                                                                  DEFAULT)
    finish(NAME, DEFAULT, rows, args, f"random games, {len(VARIANTS)} variants")


if __name__ == "__main__":
    main()
