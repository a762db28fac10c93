"""Mancala (Kalah) against OpenSpiel's ``mancala``: random games compared at every step,
perft, random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games (OpenSpiel's ``mancala`` has no
   parameters: the one game, on several seeds): the legal actions, the board (OpenSpiel's
   14 counts), the player to move, the terminal flag, the returns and the names of the
   actions played must be equal in zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies, counted by both.
3. Speed and 4. strength (``Mancala.default_opponent`` against ``MCTSBot(1000)``): as
   bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/mancala.py [--games 1000] [--depth 8] [--speed-games 3000] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

from typing import Any

from _openspiel_game import compare, finish, options, perft_rows

NAME = "mancala"
DEFAULT = "Kalah 6x4 (the only game)"


def same_board(g: Any, s: Any, st: Any) -> None:
    """OpenSpiel's 14 counts (its observation tensor's first 14 entries)."""
    assert g.board(s) == [int(x) for x in st.observation_tensor(0)[:14]]


def sizes(g: Any, og: Any) -> None:
    """OpenSpiel's MaxGameLength is 1,000 and a game is over once its move number passes it:
    zerosum's bound on a game's length is the 1,001 moves that allows."""
    assert (g.num_actions, g.max_game_length) == (og.num_distinct_actions(), og.max_game_length() + 1)


def main() -> None:
    args = options(__doc__, games=1000, depth=8, speed_games=3000, quick=(200, 6, 500))
    rows = [compare(NAME, {}, args.games, args.seed, same_board, DEFAULT, sizes=sizes)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    finish(NAME, DEFAULT, rows, args, "random games")


if __name__ == "__main__":
    main()
