"""Score AlphaZero networks by the issue's protocol: the network alone and with search, against a ladder.

    python bench/alphazero_eval.py --path zoo:connect_four --game connect_four \\
        --sims 0,64 --opponents "alphabeta(depth=2); alphabeta(depth=4)" [--games 400] [--mcts]

Each agent ``alphazero(path=PATH, sims=N)`` (``sims=0``: the network alone, its most likely
legal move; N > 0: the batched search with N simulations a move) plays ``games`` games
against each opponent with :func:`zerosum.evaluate`: seats alternating, games 2j and 2j+1
from the same opening of ``--openings`` random plies (2 by default), every game's agents
seeded from (seed, opponent, game). With ``--mcts`` each searching agent also plays plain
``mcts`` given the same time per move (the agent's own mean seconds per move in the games
above), so the search itself is not credited to the learning. ``--reference "SPEC; ..."``
plays plain agents (say the labeller's ``alphabeta(depth=8)``) against the same ladder from
the same openings: what the learning is measured beside. Scores (wins + draws/2) with Wilson
95% intervals, and the load average.

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
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
    ap.add_argument("--reference", default="", help="plain agents scored against the same ladder")
    args = ap.parse_args()
    rows = []
    specs = [(f"alphazero(path={args.path}, sims={int(s)})", int(s)) for s in args.sims.split(",") if s.strip()]
    specs += [(spec, 0) for spec in split_top_level(args.reference)]
    for spec, sims in specs:
        opponents = split_top_level(args.opponents)
        report = zerosum.evaluate(spec, args.game, opponents=opponents, games=args.games, seed=args.seed,
                                  opening_plies=args.openings)
        own = [m.time for g in report.games for m in g.match.moves if m.player == g.seat]
        per_move = sum(own) / max(len(own), 1)  # the agent's own seconds per move
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
                         "s_per_move": round(per_move, 4), "load": round(os.getloadavg()[0], 2)})
    emit("alphazero_eval", rows, list(rows[0]))


if __name__ == "__main__":
    main()
