"""Ultimate tic-tac-toe against OpenSpiel's ``ultimate_tic_tac_toe``: random games compared
at every step, perft, random-playout speed, and the default opponent's strength against
OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games: the legal actions, the board, the
   board in play, the player to move, the terminal flag, the returns and the names of the
   actions played must be equal in zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies, counted by both.
3. Speed and 4. strength (``UltimateTicTacToe.default_opponent`` against ``MCTSBot(1000)``): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/ultimate_tic_tac_toe.py [--games 1000] [--depth 5] [--speed-games 1000] [--strength-games 100]
"""

from __future__ import annotations

from _openspiel_game import compare, finish, options, perft_rows

NAME = "ultimate_tic_tac_toe"
DEFAULT = "3x3 of 3x3"


def same_board(g, s, st) -> None:
    """OpenSpiel's drawing without its spaces and blank lines, and the board in play."""
    text = str(st)
    assert [line.replace(" ", "") for line in text.split("\n") if line.strip()][:9] == g.cells(s)
    assert text.endswith(f"Forced board: {'any' if g.choosing(s) else int(s[1])}")


def main() -> None:
    args = options(__doc__, games=1000, depth=5, speed_games=1000, quick=(200, 4, 200))
    rows = [compare(NAME, {}, args.games, args.seed, same_board, DEFAULT)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    finish(NAME, DEFAULT, rows, args, "random games")


if __name__ == "__main__":
    main()
