"""The alpha-beta labeller's throughput: Connect Four positions labelled at depth 8 per core-hour.

    python bench/labeller.py [--positions 400] [--depth 8] [--game connect_four]

Labels ``positions`` positions with :func:`zerosum.training.alphazero.labels.generate` (random
openings of 0-4 plies, then moves drawn from each label's policy, 10% random), in one
process, after a warm-up of 20 positions (numba's compilation, the table's first pages).
One process is one core, so positions per CPU-second x 3600 is the figure per core-hour
(the wall-clock rate is printed too: other work on the machine lowers it, not the CPU rate).
The load average is printed beside it. Target (issue 30): >= 500,000 per core-hour at depth 8.
Also reported: alpha-beta nodes per label, the share of proven labels (value +-1).

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit, headline

from zerosum.games import make_game
from zerosum.training.alphazero.labels import Labeller, generate

TARGET = 500_000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--game", default="connect_four")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = make_game(args.game)
    lab = Labeller(game, args.depth)
    for _ in generate(game, 20, labeller=lab, seed=args.seed + 1):
        pass
    nodes = proven = 0
    c0, t0 = time.process_time(), time.perf_counter()
    for _, _, label in generate(game, args.positions, labeller=lab, seed=args.seed):
        nodes += label.nodes
        proven += abs(label.value) == 1.0
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    per_core_hour = args.positions / cpu * 3600
    row = {"game": args.game, "depth": args.depth, "positions": args.positions, "cpu_s": round(cpu, 2),
           "wall_s": round(wall, 2), "per_core_hour": round(per_core_hour),
           "per_hour_wall": round(args.positions / wall * 3600), "nodes_per_label": round(nodes / args.positions),
           "proven": round(proven / args.positions, 3), "load": round(os.getloadavg()[0], 2)}
    emit("labeller", [row], list(row),
         {"headline": [headline(f"{args.game} positions labelled at depth {args.depth} per core-hour",
                                per_core_hour, None, f">= {TARGET:,}" if args.depth == 8 else "")],
          "target_met": bool(per_core_hour >= TARGET) if args.depth == 8 and args.game == "connect_four" else None,
          "value_scale": lab.value_scale, "temperature": lab.temperature})


if __name__ == "__main__":
    main()
