"""Score AlphaZero networks by the issue's protocol: the network alone and with search, against a ladder.

    python bench/alphazero_eval.py --path zoo:connect_four --game connect_four \\
        --sims 0,64 --opponents "alphabeta(depth=2); alphabeta(depth=4)" [--games 400] [--mcts]

Each agent ``alphazero(path=PATH, sims=N)`` (``sims=0``: the network alone, its most likely
legal move; N > 0: the batched search with N simulations a move) plays ``games`` games
against each opponent with :func:`zerosum.evaluate`: seats alternating, games 2j and 2j+1
from the same opening of ``--openings`` random plies (2 by default), every game's agents
seeded from (seed, opponent, game). With ``--mcts`` each searching agent also plays plain
``mcts`` given the same time per move (its mean seconds per move in the games above), so
the search itself is not credited to the learning. Scores (wins + draws/2) with Wilson 95%
intervals, and the load average.

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit

import zerosum
from zerosum.values import split_top_level


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--path", required=True)
    ap.add_argument("--game", required=True)
    ap.add_argument("--sims", default="0")
    ap.add_argument("--opponents", default="alphabeta(depth=2)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--openings", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mcts", action="store_true")
    args = ap.parse_args()
    rows = []
    for sims in (int(s) for s in args.sims.split(",")):
        spec = f"alphazero(path={args.path}, sims={sims})"
        opponents = split_top_level(args.opponents)
        t0 = time.perf_counter()
        report = zerosum.evaluate(spec, args.game, opponents=opponents, games=args.games, seed=args.seed,
                                  opening_plies=args.openings)
        seconds = time.perf_counter() - t0
        moves = sum(len(g.match.moves) for g in report.games)
        per_move = seconds / max(moves, 1)
        results = list(report.results)
        if args.mcts and sims > 0:
            mcts = f"mcts(time={per_move:.4f})"
            results += zerosum.evaluate(spec, args.game, opponents=[mcts], games=args.games, seed=args.seed,
                                        opening_plies=args.openings).results
        for r in results:
            t = r.total
            lo, hi = t.interval
            rows.append({"agent": spec, "opponent": r.opponent, "games": t.games, "wdl": t.wdl(),
                         "score": round(t.score, 3), "ci95": f"{lo:.3f}-{hi:.3f}",
                         "s_per_move_both": round(per_move, 4), "load": round(os.getloadavg()[0], 2)})
    emit("alphazero_eval", rows, list(rows[0]))


if __name__ == "__main__":
    main()
