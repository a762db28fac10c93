"""Oware against OpenSpiel's ``oware``: random games compared at every step, perft,
random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games per variant (the default 6 houses of
   4 seeds and four others): the legal actions, OpenSpiel's text of the board (scores,
   counts, the player to move), the player to move, the terminal flag, the returns and the
   names of the actions played must be equal in zerosum and in pyspiel. The games meet
   grand slams, starving opponents who must be fed, and repetitions.
2. Perft from the start to ``--depth`` plies on the default board (to 9 on 3 houses of 2
   seeds), counted by both.
3. Speed and 4. strength (``Oware.default_opponent`` against ``MCTSBot(1000)``): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/oware.py [--games 300] [--depth 7] [--speed-games 2000] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from _openspiel_game import compare, finish, options, perft_rows

NAME = "oware"
DEFAULT = "6 houses x 4 seeds (default)"
VARIANTS = ({}, {"num_houses_per_player": 3, "num_seeds_per_house": 2}, {"num_houses_per_player": 2,
            "num_seeds_per_house": 1}, {"num_houses_per_player": 8, "num_seeds_per_house": 3},
            {"num_houses_per_player": 4, "num_seeds_per_house": 7})


def same_board(g, s, st) -> None:
    """OpenSpiel's ToString: the scores, both rows with their letters, [PLAYING] and [FINISHED]."""
    assert g.render(s) == str(st)


def main() -> None:
    args = options(__doc__, games=300, depth=7, speed_games=2000, quick=(50, 5, 300),
                   games_help="random games per variant compared with OpenSpiel")
    rows = [compare(NAME, v, args.games, args.seed + i, same_board, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    rows += perft_rows(NAME, dict(VARIANTS[1]), args.depth + 2, DEFAULT)
    finish(NAME, DEFAULT, rows, args, f"random games, {len(VARIANTS)} variants")


if __name__ == "__main__":
    main()
