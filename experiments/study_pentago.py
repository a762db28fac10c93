"""Study 2 redone: Pentago, nodes per move over whole games for alpha-beta with and without a
transposition table and a history table, and for the modern engine.

Games are engine against engine with the study's ``runs`` heuristic, from seeded openings
of a few random plies (the same openings at every depth). At each position every
configuration searches the same position to the same depth with its own searcher per
side (the study kept one table per side; tables and the history are kept from move to
move); the move played is plain alpha-beta's (the first best move in legal order), so
every configuration is measured on the same positions. All configurations must return
the same value (checked): the TT reuses only depth-exact entries and the history only
reorders moves.

Configurations (zerosum.search.AlphaBetaConfig):
- alpha-beta: tt=False, ordering=False, iterative=False (legal order);
- + TT: tt=True, ordering=False: the study's table stored value, bound and depth but no move;
- + TT + TT move: the table's best move searched first;
- + history: history=True, history_increment="pow2" (2^k at a cutoff k plies above the
  leaves, as the study), TT off, no other ordering; two variants: the table cleared
  before every move, and depth^2 increments;
- modern: TT + TT move + ordering hint + killers + iterative deepening (the defaults);
- modern + history: the same with the history table as well.

Depths are plies. The study's "depth 1" evidently searched two plies (48,274 nodes at
depth 1 is impossible for one ply of 288 moves: see docs/experiments.md), so depths 1-4
are run here and set against the study's depths 1-3 at one ply more.

    python experiments/study_pentago.py [--games 16] [--games-deep 8] [--figure docs/figures/pentago_nodes.png]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # _report: the benchmarks' output

from _report import emit

from zerosum.evaluation.match import random_opening
from zerosum.games import make_game
from zerosum.search import AlphaBeta

GAME = make_game("pentago")
HEURISTIC = "runs"
OPENING_PLIES = 4
CONFIGS = {
    "alpha-beta": {"tt": False, "ordering": False, "iterative": False},
    "+ TT": {"tt": True, "ordering": False, "iterative": False},
    "+ TT + TT move": {"tt": True, "ordering": True, "tt_move": True, "hint": False,
                       "killers": False, "iterative": False},
    "+ history": {"tt": False, "ordering": True, "hint": False, "killers": False, "history": True,
                  "history_increment": "pow2", "iterative": False},
    "+ history, cleared each move": {"tt": False, "ordering": True, "hint": False, "killers": False, "history": True,
                                         "history_increment": "pow2", "iterative": False},
    "+ history, depth^2": {"tt": False, "ordering": True, "hint": False, "killers": False, "history": True,
                               "history_increment": "square", "iterative": False},
    "modern": {"tt": True, "ordering": True, "iterative": True},
    "modern + history": {"tt": True, "ordering": True, "iterative": True, "history": True, "history_increment": "pow2"},
}
CLEARED = {"+ history, cleared each move"}  # the history table starts empty at every move
# the study's mean nodes per move: depth -> (alpha-beta, + TT, + history)
STUDY = {1: (48_274, 13_540, 47_595), 2: (175_405, 84_082, 402_604), 3: (17_178_322, 4_344_483, 32_659_452)}
STUDY_KEYS = ("alpha-beta", "+ TT", "+ history")
FIGURE = ("alpha-beta", "+ TT", "+ TT + TT move", "+ history", "modern", "modern + history")


def play(depth: int, seed: int) -> list[dict]:
    """One game from the opening of ``seed``; per engine move: nodes and seconds of each configuration."""
    s = GAME.initial_state()
    for a in random_opening(GAME, OPENING_PLIES, np.random.default_rng(seed)):
        s = GAME.apply(s, a)
    engines = {k: [AlphaBeta(GAME, HEURISTIC, tt_size=1 << 20, **cfg) for _ in range(2)] for k, cfg in CONFIGS.items()}
    for pair in engines.values():
        for e in pair:
            e.clear()  # touch the table's pages now, so the first search's time is not page faults
    moves, ply = [], OPENING_PLIES
    while not GAME.is_terminal(s):
        p = GAME.current_player(s)
        row: dict = {"ply": ply}
        for k in CONFIGS:
            if k in CLEARED:
                engines[k][p].clear()
            t = time.perf_counter()
            r = engines[k][p].search(s, depth)
            row[k] = (r.stats.nodes, time.perf_counter() - t)
            if k == "alpha-beta":
                value, action = r.value, r.action
            elif r.value != value:
                raise AssertionError(f"{k} returned {r.value}, plain alpha-beta {value} (depth {depth}, seed {seed})")
        moves.append(row)
        s = GAME.apply(s, action)
        ply += 1
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=16, help="games per depth at depths 1-3")
    ap.add_argument("--games-deep", type=int, default=8, help="games at depth 4 (plain alpha-beta is the costly one)")
    ap.add_argument("--depths", default="1,2,3,4")
    ap.add_argument("--figure", default="")
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    # load the compiled search once, so no configuration pays the first call
    AlphaBeta(GAME, HEURISTIC).search(GAME.initial_state(), 1)
    rows, curves, extra = [], {}, {"games": {}, "moves": {}, "seconds": {}}
    for depth in depths:
        n = args.games if depth < 4 else args.games_deep
        t0 = time.perf_counter()
        games = [play(depth, seed) for seed in range(n)]
        extra["games"][depth] = n
        extra["moves"][depth] = sum(len(g) for g in games)
        extra["seconds"][depth] = round(time.perf_counter() - t0, 1)
        study_depth = depth - 1
        for k in CONFIGS:
            nodes = np.array([m[k][0] for g in games for m in g], float)
            secs = np.array([m[k][1] for g in games for m in g], float)
            study = STUDY.get(study_depth)
            rows.append({"depth": depth, "configuration": k, "games": n, "moves": nodes.size,
                         "nodes mean": round(float(nodes.mean())), "nodes std": round(float(nodes.std(ddof=1))),
                         "nodes max": int(nodes.max()), "ms per move": round(1000 * float(secs.mean()), 2),
                         "vs plain": round(float(nodes.mean()) / float(np.mean([m["alpha-beta"][0] for g in games
                                                                                 for m in g])), 3),
                         "study depth": study_depth if study and k in STUDY_KEYS else None,
                         "study mean": study[STUDY_KEYS.index(k)] if study and k in STUDY_KEYS else None})
            by_ply: dict[int, list[int]] = {}
            for g in games:
                for m in g:
                    by_ply.setdefault(m["ply"], []).append(m[k][0])
            curves[(depth, k)] = {p: float(np.mean(v)) for p, v in sorted(by_ply.items())}
    emit("study_pentago", rows, ["depth", "configuration", "games", "moves", "nodes mean", "nodes std", "nodes max",
                                 "ms per move", "vs plain", "study depth", "study mean"], extra)
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        shown = [d for d in depths if d >= 3] or depths[-1:]
        fig, axes = plt.subplots(1, len(shown), figsize=(6.5 * len(shown), 4.2), squeeze=False)
        for ax, depth in zip(axes[0], shown):
            for k in CONFIGS:
                c = curves[(depth, k)]
                if k in FIGURE:
                    ax.plot(list(c), [max(v, 1) for v in c.values()], marker="o", ms=3, label=k,
                            ls="--" if k == "modern + history" else "-")
            ax.set_yscale("log")
            ax.set_xlabel("ply (move number; the first 4 are the random opening)")
            ax.set_title(f"Pentago, runs heuristic, depth {depth}: mean over {extra['games'][depth]} games", fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].set_ylabel("nodes per move (log)")
        axes[0][0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.figure, dpi=110)
        print(f"wrote {args.figure}")


if __name__ == "__main__":
    main()
