"""How strong a Connect Four teacher can be: alpha-beta that plays exactly once enough discs are down.

    python bench/exact_teacher.py [--exact-from 42,20,16] [--depth 10] [--games 400] \\
        [--opponents "alphabeta(depth=2)"]

Each agent plays the engine's ``alphabeta(depth=D)`` (the labeller's depth, with the
agent's own quiescence, iterative deepening and random tie-breaks) until ``N`` discs are
on the board, and from then on searches every line to the end of the game (an exact
value: the nearest win, the farthest loss; among equal values, the first in centre-first
order), ``N = 42`` (the board's cells) being the plain ``alphabeta(depth=D)``. Scored as
``bench/alphazero_eval.py`` scores networks (:func:`zerosum.evaluate`: seats alternating,
games 2j and 2j+1 from the same opening of ``--openings`` random plies), with Wilson 95%
intervals; every opponent is met from the same openings. The exact searches' count, mean and
longest seconds are printed for each agent and opponent.

A network imitating its teacher scores below it, so these are ceilings for learning from
alpha-beta labels against the same ladder (issue 30's 0.90 against depth 2).

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit

import zerosum
from zerosum.agents.search import AlphaBetaAgent
from zerosum.games import make_game
from zerosum.games.connect_four.rules import S_P0, S_P1
from zerosum.values import split_top_level


class ExactFrom(AlphaBetaAgent):
    """``alphabeta(depth=D)`` before ``exact_from`` discs are down (None: never), an exact search after."""

    def __init__(self, depth: int, exact_from: int | None, **options: Any) -> None:
        super().__init__(depth, **options)
        self.exact_from = exact_from
        self.name = f"alphabeta(depth={depth})" + (f", exact from {exact_from} discs" if exact_from is not None else "")
        self.exact_seconds: list[float] = []

    def act(self, game: Any, state: Any) -> int:
        discs = (int(state[S_P0]) | int(state[S_P1])).bit_count()
        if self.exact_from is None or discs < self.exact_from:
            return super().act(game, state)
        start = time.perf_counter()
        result = self.last_stats = self._searcher(game).search(state, game.max_game_length - discs)
        self.exact_seconds.append(time.perf_counter() - start)
        return result.action

    def spawn(self, rng: Any) -> ExactFrom:
        clone = super().spawn(rng)
        clone.exact_seconds = self.exact_seconds  # one record for every game's copy
        return clone  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exact-from", default="42,20,16", help="disc counts from which the search is exact (42: never)")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--opponents", default="alphabeta(depth=2)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--openings", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cells = make_game("connect_four").max_game_length
    try:
        starts = [int(x) for x in args.exact_from.split(",") if x.strip()]
    except ValueError:
        starts = []
    if not starts or not all(0 <= n <= cells for n in starts):
        ap.error(f"--exact-from {args.exact_from!r}: give disc counts from 0 to {cells}, comma-separated")
    if args.depth < 1 or args.games < 1:
        ap.error("--depth and --games take positive whole numbers")
    rows = []
    for n in starts:
        for opponent in split_top_level(args.opponents, ";"):
            agent = ExactFrom(args.depth, n if n < cells else None)  # one agent an opponent: its own timings
            report = zerosum.evaluate(agent, "connect_four", opponents=[opponent], games=args.games,
                                      seed=args.seed, opening_plies=args.openings)
            result = report.results[0]
            t = result.total
            lo, hi = t.interval
            spent = agent.exact_seconds
            rows.append({"agent": agent.name, "exact_from": n, "opponent": result.opponent, "games": t.games,
                         "wdl": t.wdl(), "score": round(t.score, 3), "ci95": f"{lo:.3f}-{hi:.3f}",
                         "exact_searches": len(spent),
                         "exact_mean_s": round(sum(spent) / len(spent), 4) if spent else 0.0,
                         "exact_max_s": round(max(spent), 3) if spent else 0.0,
                         "load": round(os.getloadavg()[0], 2)})
    emit("exact_teacher", rows, ["agent", "opponent", "games", "wdl", "score", "ci95", "exact_searches",
                                 "exact_mean_s", "exact_max_s", "load"], {"depth": args.depth})


if __name__ == "__main__":
    main()
