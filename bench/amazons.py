"""Amazons against OpenSpiel's ``amazons``: random games compared at every step, perft,
random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games per board (10x10, 8x8 and 6x6, each
   move three actions: the queen, its destination, the arrow): the legal actions, the
   board, the player to move, the terminal flag, the returns and OpenSpiel's names of the
   actions played must be equal in zerosum and in pyspiel.
2. Perft in actions from the start to ``--depth`` on 10x10 and 6x6, counted by both.
3. Speed: random games in the loop a user writes (``current_player``, ``legal_actions``,
   ``apply(s, int(a))``, ``returns``) on both sides, the same games (one seed each),
   taking turns in rounds; CPU seconds of this process; the ratio is ours / pyspiel's
   actions a second (issue 57's target: >= 1.5x).
4. Strength (skipped with ``--strength-games 0``): ``Amazons.default_opponent`` against
   OpenSpiel's ``MCTSBot`` (1,000 simulations an action, random rollouts; bench/strength.py,
   which plays it, says how), seats alternating from paired 4-action random openings
   (target: >= 0.75 over 100 games).

Prints one JSON document, then a table::

    python bench/amazons.py [--games 30] [--depth 5] [--speed-games 300] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from _openspiel_game import COLUMNS, compare, perft_rows, speed, strength
from _report import emit, headline

NAME = "amazons"
DEFAULT = "10x10 (default)"
VARIANTS: tuple[dict[str, Any], ...] = ({}, {"board_size": 8}, {"board_size": 6})


def same_board(g: Any, s: Any, st: Any) -> None:
    """OpenSpiel's rows, the top row first, X, O, # and '.' as ours."""
    assert str(st).split("\n") == g.cells(s)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=30, help="random games per board compared with OpenSpiel")
    ap.add_argument("--depth", type=int, default=5, help="perft depth (actions) from the start")
    ap.add_argument("--speed-games", type=int, default=300, help="random games for the speed ratio")
    ap.add_argument("--strength-games", type=int, default=100, help="games against MCTSBot (0: skip)")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--log", default="", help="JSON-lines file of the strength games (appended; read to resume)")
    ap.add_argument("--quick", action="store_true", help="10 games a board, perft to 4, 60 speed games, "
                    "no strength games")
    args = ap.parse_args()
    if args.quick:
        args.games, args.depth, args.speed_games, args.strength_games = 10, 4, 60, 0
    rows = [compare(NAME, v, args.games, args.seed + i, same_board, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT) + perft_rows(NAME, {"board_size": 6}, args.depth, DEFAULT)
    fast = speed(NAME, args.speed_games, 10, args.seed, DEFAULT)
    rows.append(fast)
    steps = sum(r["steps"] for r in rows if r["what"] == "random games")
    lines = [headline(f"{NAME} steps equal to OpenSpiel's (random games, {len(VARIANTS)} boards)", steps),
             headline(f"{NAME} natural loop vs pyspiel, actions/s", fast["zerosum moves/s"],
                      fast["pyspiel moves/s"], ">= 1.5x")]
    record = None
    if args.strength_games:
        record, row, line = strength(NAME, args.strength_games, args.workers, args.log, DEFAULT)
        rows.append(row)
        lines.append(line)
    emit(NAME, rows, COLUMNS, {"headline": lines, "strength": record, "load_1min": os.getloadavg()[0]})


if __name__ == "__main__":
    main()
