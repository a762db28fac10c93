"""zerosum.evaluate() with two worker processes against one: the evaluate tutorial's example, scaled up.

    python bench/evaluate.py [--games 1000] [--repeats 3]

The evaluate tutorial's example (a centre-first tic-tac-toe policy, a plain Python function, against
``random`` and ``alphabeta(depth=2)``, seed 0) with ``games`` games per opponent, timed
end to end (pool start, every game, the tally) with ``workers=1`` and ``workers=2``,
alternately, ``repeats`` times each; the best time of each counts. The policy is a
function held in memory, so the two workers are forked. Target: >= 1.7x with two workers.
A tic-tac-toe game takes about a millisecond, so this measures the engine's overhead per
game (building agents, sending games to workers and results back) as much as the play.
Both runs must give the same results (checked). The machine ceiling (what two processes
get over one for a pure-Python loop, bench/tournament.py) is measured before and after:
other work on the same cores lowers it, and no speed-up can beat it. (With the kernel's
autogroup scheduling, processes started from one session share that session's part of
the cores, so on a machine busy with other sessions two workers get little more CPU than
one.) The CPU time of each run (this process and its workers) is measured too: ``cpu_bound``
= 2 x CPU with one worker / CPU with two is the speed-up two otherwise idle cores would
give if that work spread evenly over them, a figure the other work does not move.

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit, headline
from tournament import machine_ceiling

import zerosum

OPPONENTS = ["random", "alphabeta(depth=2)"]


def centre_first(obs: dict) -> int:
    """Take the centre if it is free, else the first free cell (the evaluate tutorial's policy)."""
    legal = np.flatnonzero(obs["action_mask"])
    return 4 if 4 in legal else int(legal[0])


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(games: int, workers: int) -> tuple[float, float, list[str]]:
    """(seconds, CPU seconds of this process and its workers, W/D/L per opponent)."""
    c0, t0 = _cpu(), time.perf_counter()
    report = zerosum.evaluate(centre_first, "tictactoe_v0", opponents=OPPONENTS, games=games, seed=0, workers=workers)
    return time.perf_counter() - t0, _cpu() - c0, [r.total.wdl() for r in report.results]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000, help="games per opponent (the tutorial plays 100)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per number of workers")
    args = p.parse_args()
    run(10, 1)  # load the kernels and compile the search once (forked workers inherit them)
    ceiling_before = machine_ceiling()
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    results: dict[int, list[str]] = {}
    for _ in range(args.repeats):
        for workers in (1, 2):
            seconds, cpu_seconds, wdl = run(args.games, workers)
            times[workers].append(seconds)
            cpu[workers].append(cpu_seconds)
            results[workers] = wdl
    if results[1] != results[2]:
        raise SystemExit(f"workers changed the results: {results[1]} with one, {results[2]} with two")
    ceiling = (ceiling_before + machine_ceiling()) / 2
    total = args.games * len(OPPONENTS)
    rows = [{"workers": w, "games": total, "best_s": min(times[w]), "median_s": sorted(times[w])[len(times[w]) // 2],
             "games_per_s": total / min(times[w]), "cpu_s": min(cpu[w]), "results": " ".join(results[w])}
            for w in (1, 2)]
    speedup = rows[1]["games_per_s"] / rows[0]["games_per_s"]
    cpu_bound = 2 * rows[0]["cpu_s"] / rows[1]["cpu_s"]
    extra = {"speedup_2_vs_1": speedup, "machine_ceiling_2_vs_1": ceiling,
             "scaling_efficiency": speedup / ceiling if ceiling > 0 else None, "cpu_bound_2_vs_1": cpu_bound,
             "times": {str(w): t for w, t in times.items()}, "cpu": {str(w): c for w, c in cpu.items()},
             "load_average": os.getloadavg(),
             "headline": [headline(f"evaluate() games/s, 2 workers / 1 ({total:,} tic-tac-toe games)", speedup, None,
                                   ">= 1.7x")]}
    table = [*rows, {"workers": "2/1", "games_per_s": speedup}, {"workers": "ceiling 2/1", "games_per_s": ceiling},
             {"workers": "cpu bound 2/1", "games_per_s": cpu_bound}]
    emit("evaluate", table, ["workers", "games", "best_s", "median_s", "games_per_s", "cpu_s", "results"], extra)


if __name__ == "__main__":
    main()
