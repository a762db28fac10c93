"""Lines of Action against OpenSpiel's ``lines_of_action``: random games compared at every
step, perft, random-playout speed, and the default opponent's strength against OpenSpiel's
MCTSBot.

1. At every step of ``--games`` seeded random games per variant (the default, whose random
   games end in wins and in draws by a repeated board, and ``max_game_length`` 60 and 150,
   where the length limit draws many): the legal actions, the board, the player to move,
   the terminal flag, the returns and the names of the actions played must be equal in
   zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies, counted by both.
3. Speed and 4. strength (``LinesOfAction.default_opponent`` against ``MCTSBot(1000)``):
   as bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/lines_of_action.py [--games 100] [--depth 4] [--speed-games 300] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from typing import Any

from _openspiel_game import compare, finish, options, perft_rows

NAME = "lines_of_action"
DEFAULT = "8x8 (default)"
VARIANTS: tuple[dict[str, Any], ...] = ({}, {"max_game_length": 60}, {"max_game_length": 150})


def same_board(g: Any, s: Any, st: Any) -> None:
    """OpenSpiel's rows: the rank, then the cells, rank 8 first."""
    assert [line[1:] for line in str(st).split("\n")[:8]] == g.cells(s)


def main() -> None:
    args = options(__doc__, games=100, depth=4, speed_games=300, quick=(20, 3, 60),
                   games_help="random games per variant compared with OpenSpiel")
    rows = [compare(NAME, v, args.games, args.seed + i, same_board, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    finish(NAME, DEFAULT, rows, args, f"random games, {len(VARIANTS)} variants")


if __name__ == "__main__":
    main()
