"""Othello against its oracles: OpenSpiel at every step of many random games, and perft as published.

1. The OpenSpiel cross-check of ``tests/games/test_othello.py`` on more games: seeded
   uniformly random games played on both sides at once (zerosum's ``othello`` and pyspiel's),
   comparing at every step the legal actions, the board, the player to move, the terminal flag
   and the returns. Reports the games, steps (positions compared), passes and outcomes.
2. Perft from the start (move sequences of exactly d plies, passes counted as moves, as
   OpenSpiel counts them) on 8x8 against the published counts of Othello, and the time each
   depth takes through the Game API (a plain Python recursion, ``zerosum.testing.perft``).
   From depth 10 on the published counts also count every game that ended one ply earlier
   (a finished game has no legal action in OpenSpiel and here, but the published move
   generators let it pass once more): the ``finished at d-1`` column counts those games, and
   ``equal`` compares perft plus them with the published figure (228 games end at ply 9).

Prints one JSON document, then a table. ``python bench/othello.py [--games N] [--depth D]``.
"""

from __future__ import annotations

import argparse
import os
import time

from _report import emit, headline
from zerosum.games import Outcome, make_game
from zerosum.testing import compare_with_openspiel, perft

PUBLISHED = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284]
"""Othello perft from the start, depths 1-10 (the counts every Othello move generator is checked against)"""


def finished(game, state, plies: int) -> int:
    """How many games from ``state`` end after exactly ``plies`` plies."""
    if game.is_terminal(state):
        return int(plies == 0)
    if plies == 0:
        return 0
    return sum(finished(game, game.apply_unchecked(state, int(a)), plies - 1) for a in game.legal_actions(state))


def cross_check(games: int, seed: int) -> dict[str, int]:
    """Random games on both sides; AssertionError at the first step where they differ."""
    import pyspiel

    g = make_game("othello")

    def same_board(s, st):
        assert g.cells(s) == [row.replace("-", ".").replace(" ", "")[1:-1] for row in str(st).splitlines()[2:-1]]

    report = compare_with_openspiel(g, pyspiel.load_game("othello"), games, seed, same_board)
    names = {Outcome.P0_WINS: "black wins", Outcome.P1_WINS: "white wins", Outcome.DRAW: "draws"}
    return {"games": games, "steps": report.steps, "passes": report.actions[64],
            **{name: report.outcomes[outcome] for outcome, name in names.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="random games compared with OpenSpiel")
    ap.add_argument("--depth", type=int, default=9, help="deepest perft, at most 10 (each takes ~8x the one before)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    if not 1 <= args.depth <= len(PUBLISHED):
        raise SystemExit(f"--depth {args.depth}: 1 to {len(PUBLISHED)} (the published counts)")
    t = time.process_time()
    check = cross_check(args.games, args.seed)
    check_s = time.process_time() - t
    g = make_game("othello")
    rows = []
    for d in range(1, args.depth + 1):
        t = time.process_time()
        n = perft(g, g.initial_state(), d)
        seconds = time.process_time() - t
        ended = finished(g, g.initial_state(), d - 1) if d >= 10 else 0
        rows.append({"depth": d, "perft": n, "finished at d-1": ended, "published": PUBLISHED[d - 1],
                     "equal": n + ended == PUBLISHED[d - 1], "seconds": seconds})
    emit("othello", rows, ["depth", "perft", "finished at d-1", "published", "equal", "seconds"],
         {"openspiel_cross_check": {**check, "seconds": check_s}, "load_1min": os.getloadavg()[0],
          "headline": [headline(f"othello: positions equal to OpenSpiel's in {check['games']} random games",
                                check["steps"], None, "every step equal"),
                       headline(f"othello: perft depths 1-{args.depth} equal to the published counts",
                                float(all(r["equal"] for r in rows)), None, "1 (all equal)")]})
    print(f"\nOpenSpiel cross-check: {check} in {check_s:.1f} s CPU")


if __name__ == "__main__":
    main()
