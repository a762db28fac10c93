"""Y against OpenSpiel's ``y``: random games compared at every step, perft, random-playout
speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games per variant (the default 19 and sizes
   5, 9, 2 and 26): the legal actions, the board, the player to move, the terminal flag, the
   returns and the names of the actions played must be equal in zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies on size 5 (to 2 on 19), counted by both.
3. Speed and 4. strength (``Y.default_opponent`` against ``MCTSBot(1000)``): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/y.py [--games 200] [--depth 4] [--speed-games 400] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from _openspiel_game import compare, finish, options, perft_rows, same_stone_rows

NAME = "y"
DEFAULT = "size 19 (default)"
VARIANTS = ({}, {"board_size": 5}, {"board_size": 9}, {"board_size": 2}, {"board_size": 26})


def main() -> None:
    args = options(__doc__, games=200, depth=4, speed_games=400, quick=(30, 3, 100),
                   games_help="random games per variant compared with OpenSpiel",
                   depth_help="perft depth from the start (size 5)")
    rows = [compare(NAME, v, args.games if v != {"board_size": 26} else max(1, args.games // 10), args.seed + i,
                    same_stone_rows, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {"board_size": 5}, args.depth, DEFAULT) + perft_rows(NAME, {}, min(args.depth, 2),
                                                                                  DEFAULT)
    finish(NAME, DEFAULT, rows, args, f"random games, {len(VARIANTS)} variants")


if __name__ == "__main__":
    main()
