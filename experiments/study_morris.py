"""Study 5 redone: Nine Men's Morris, a round robin of the heuristics at equal depth, under the
standard rules and under the study's rules.

Agents: alpha-beta (the defaults: TT, ordering, killers, iterative deepening; ties broken at
random from each game's seed) to the same depth with the heuristics ``men`` (men count),
``men_mills`` (men and closed mills), ``men_mobility`` (men and possible moves) and
``threats`` (men and open two-in-a-rows). Every pair plays both seats from varied random
openings, through zerosum.evaluation (two worker processes, results under
results/study_morris/, resumable). Rule sets: standard (men in mills protected, no
no-return rule) and the study's (``protect_mills=False, no_return=True``). Depth counts
plies, and a removal is a ply of its own.

    python experiments/study_morris.py [--depth 4] [--games 12] [--figure docs/figures/morris_scores.png]

The figure option writes one score matrix per rule set (``<stem>_standard_d<depth>.png``
and ``<stem>_study_d<depth>.png``) with zerosum.evaluation.plots.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # _report: the benchmarks' output

from _report import emit

from zerosum.evaluation import build_config, run_tournament
from zerosum.evaluation.plots import plot_score_matrix

HEURISTICS = ("men", "men_mills", "men_mobility", "threats")
RULES = {"standard": {}, "study": {"protect_mills": False, "no_return": True}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--games", type=int, default=12, help="games per ordered pairing (each pair meets twice this)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="results/study_morris")
    ap.add_argument("--figure", default="")
    args = ap.parse_args()
    rows, pair_rows, extra = [], [], {"rules": {}}
    for rules, variant in RULES.items():
        cfg = build_config({
            "game": "nine_mens_morris", "variant": variant,
            "name": f"Nine Men's Morris, {rules} rules, depth {args.depth}",
            "agents": [{"spec": f"alphabeta(depth={args.depth}, heuristic={h})", "name": h} for h in HEURISTICS],
            "games_per_pairing": args.games, "opening_plies": args.opening_plies, "seed": 5,
            "workers": args.workers, "output": f"{args.out}/{rules}-d{args.depth}"})
        t0 = time.perf_counter()
        out = run_tournament(cfg, progress=False, plots=False, note=lambda s: None)
        s = out.summary
        extra["rules"][rules] = {"variant": variant, "games": s.games, "seconds": round(time.perf_counter() - t0, 1),
                                 "terminations": s.terminations, "mean_length": s.mean_length,
                                 "database": str(out.database)}
        for i in s.order():
            a, c = s.agents[i], s.cost[i]
            lo, hi = a.total.interval
            rows.append({"rules": rules, "heuristic": a.name, "games": a.total.games, "W/D/L": a.total.wdl(),
                         "score": round(a.total.score, 3), "95% low": round(lo, 3), "95% high": round(hi, 3),
                         "as first": round(a.first.score, 3), "as second": round(a.second.score, 3),
                         "nodes/move": round(c.nodes["mean"]), "ms/move": round(1000 * c.time["mean"], 2)})
        for p in s.pairs:
            lo, hi = p.total.interval
            pair_rows.append({"rules": rules, "A": p.a, "B": p.b, "W/D/L (A)": p.total.wdl(),
                              "score A": round(p.total.score, 3), "95% low": round(lo, 3), "95% high": round(hi, 3)})
        if args.figure:
            f = Path(args.figure)
            path = f.with_name(f"{f.stem}_{rules}_d{args.depth}{f.suffix}")
            plot_score_matrix(s, path)
            print(f"wrote {path}")
    extra["pairs"] = pair_rows
    emit("study_morris", rows, ["rules", "heuristic", "games", "W/D/L", "score", "95% low", "95% high", "as first",
                                "as second", "nodes/move", "ms/move"], extra)
    print()
    cols = ["rules", "A", "B", "W/D/L (A)", "score A", "95% low", "95% high"]
    print("  ".join(cols))
    for r in pair_rows:
        print("  ".join(str(r[c]) for c in cols))
    for rules, e in extra["rules"].items():
        print(f"{rules}: {e['games']} games in {e['seconds']} s, mean length {e['mean_length']:.1f} plies, "
              f"endings {e['terminations']}")


if __name__ == "__main__":
    main()
