"""Lines of Action against OpenSpiel's ``lines_of_action``: random games compared at every
step, perft, random-playout speed, and the default opponent's strength against OpenSpiel's
MCTSBot.

1. At every step of ``--games`` seeded random games per variant (the default, whose random
   games end in wins and in draws by a repeated board, and ``max_game_length`` 60 and 150,
   where the length limit draws many): the legal actions, the board, the player to move,
   the terminal flag, the returns and the names of the actions played must be equal in
   zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies, counted by both.
3. Speed: random games in the loop a user writes (``current_player``, ``legal_actions``,
   ``apply(s, int(a))``, ``returns``) on both sides, the same games (one seed each),
   taking turns in rounds; CPU seconds of this process; the ratio is ours / pyspiel's
   moves a second (issue 57's target: >= 1.5x).
4. Strength (skipped with ``--strength-games 0``): ``LinesOfAction.default_opponent``
   against OpenSpiel's ``MCTSBot`` (1,000 simulations, random rollouts; bench/strength.py,
   which plays it, says how), seats alternating from paired 4-ply random openings (target:
   >= 0.75 over 100 games).

Prints one JSON document, then a table::

    python bench/lines_of_action.py [--games 100] [--depth 4] [--speed-games 300] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from _openspiel_game import COLUMNS, compare, perft_rows, speed, strength
from _report import emit, headline

NAME = "lines_of_action"
DEFAULT = "8x8 (default)"
VARIANTS: tuple[dict[str, Any], ...] = ({}, {"max_game_length": 60}, {"max_game_length": 150})


def same_board(g: Any, s: Any, st: Any) -> None:
    """OpenSpiel's rows: the rank, then the cells, rank 8 first."""
    assert [line[1:] for line in str(st).split("\n")[:8]] == g.cells(s)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="random games per variant compared with OpenSpiel")
    ap.add_argument("--depth", type=int, default=4, help="perft depth from the start")
    ap.add_argument("--speed-games", type=int, default=300, help="random games for the speed ratio")
    ap.add_argument("--strength-games", type=int, default=100, help="games against MCTSBot (0: skip)")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--log", default="", help="JSON-lines file of the strength games (appended; read to resume)")
    ap.add_argument("--quick", action="store_true", help="20 games a variant, perft to 3, 60 speed games, "
                    "no strength games")
    args = ap.parse_args()
    if args.quick:
        args.games, args.depth, args.speed_games, args.strength_games = 20, 3, 60, 0
    rows = [compare(NAME, v, args.games, args.seed + i, same_board, DEFAULT) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    fast = speed(NAME, args.speed_games, 10, args.seed, DEFAULT)
    rows.append(fast)
    steps = sum(r["steps"] for r in rows if r["what"] == "random games")
    lines = [headline(f"{NAME} steps equal to OpenSpiel's (random games, {len(VARIANTS)} variants)", steps),
             headline(f"{NAME} natural loop vs pyspiel, moves/s", fast["zerosum moves/s"], fast["pyspiel moves/s"],
                      ">= 1.5x")]
    record = None
    if args.strength_games:
        record, row, line = strength(NAME, args.strength_games, args.workers, args.log, DEFAULT)
        rows.append(row)
        lines.append(line)
    emit(NAME, rows, COLUMNS, {"headline": lines, "strength": record, "load_1min": os.getloadavg()[0]})


if __name__ == "__main__":
    main()
