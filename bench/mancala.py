"""Mancala (Kalah) against OpenSpiel's ``mancala``: random games compared at every step,
perft, random-playout speed, and the default opponent's strength against OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games (OpenSpiel's ``mancala`` has no
   parameters: the one game, on several seeds): the legal actions, the board (OpenSpiel's
   14 counts), the player to move, the terminal flag, the returns and the names of the
   actions played must be equal in zerosum and in pyspiel.
2. Perft from the start to ``--depth`` plies, counted by both.
3. Speed: random games in the loop a user writes (``current_player``, ``legal_actions``,
   ``apply(s, int(a))``, ``returns``) on both sides, the same games (one seed each),
   taking turns in rounds; CPU seconds of this process; the ratio is ours / pyspiel's
   moves a second (issue 57's target: >= 1.5x).
4. Strength (skipped with ``--strength-games 0``): ``Mancala.default_opponent`` against
   OpenSpiel's ``MCTSBot`` (1,000 simulations, random rollouts; bench/strength.py, which
   plays it, says how), seats alternating from paired 4-ply random openings (target:
   >= 0.75 over 100 games).

Prints one JSON document, then a table::

    python bench/mancala.py [--games 1000] [--depth 8] [--speed-games 3000] [--strength-games 100] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import time

from _openspiel_game import COLUMNS, perft_rows, speed, strength
from _report import emit, headline
from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel

NAME = "mancala"
DEFAULT = "Kalah 6x4 (the only game)"


def compare(games: int, seed: int) -> dict:
    """``games`` random games on both sides, the board and the action names compared at every step."""
    import pyspiel

    g = make_game(NAME)
    og = pyspiel.load_game(NAME)
    # OpenSpiel's MaxGameLength is 1,000 and a game is over once its move number passes it:
    # zerosum's bound on a game's length is the 1,001 moves that allows
    assert (g.num_actions, g.max_game_length) == (og.num_distinct_actions(), og.max_game_length() + 1)

    def same_board(s, st):
        assert g.board(s) == [int(x) for x in st.observation_tensor(0)[:14]]

    def same_name(s, st, a):
        assert g.action_to_string(a, s) == st.action_to_string(a)

    t = time.perf_counter()
    report = compare_with_openspiel(g, og, games, seed, same_board, check_action=same_name)
    return {"what": "random games", "variant": DEFAULT, "games": games, "steps": report.steps,
            "player 0 wins": sum(r[0] > 0 for r in report.returns), "draws": sum(r[0] == 0 for r in report.returns),
            "seconds": time.perf_counter() - t}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="random games compared with OpenSpiel")
    ap.add_argument("--depth", type=int, default=8, help="perft depth from the start")
    ap.add_argument("--speed-games", type=int, default=3000, help="random games for the speed ratio")
    ap.add_argument("--strength-games", type=int, default=100, help="games against MCTSBot (0: skip)")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--log", default="", help="JSON-lines file of the strength games (appended; read to resume)")
    ap.add_argument("--quick", action="store_true", help="200 games, perft to 6, 500 speed games, no strength games")
    args = ap.parse_args()
    if args.quick:
        args.games, args.depth, args.speed_games, args.strength_games = 200, 6, 500, 0
    rows = [compare(args.games, args.seed)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    fast = speed(NAME, args.speed_games, 10, args.seed, DEFAULT)
    rows.append(fast)
    lines = [headline(f"{NAME} steps equal to OpenSpiel's (random games)", rows[0]["steps"]),
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
