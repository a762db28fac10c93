"""Study 1 redone: Halma 16x16 at depth 3, nodes and time per move with and without pruning and
ordering, and games that now end.

1. Cost per move over whole games at depth 3 with the ``distance`` heuristic. The moves are
   played by the modern engine (alpha-beta with TT, ordering hint, killers and iterative
   deepening) for both sides; at every position each configuration searches the same
   position: alpha-beta (no TT, legal order), alpha-beta + ordering (the game's
   forward-first hint and killer moves, no TT, as the study's engine had none), and the
   modern engine. Minimax (no pruning) searches only the first ``--minimax-moves`` positions of
   the first game and every 20th after that: at 150-200 moves per position a depth-3
   minimax visits 3-8 M nodes per move. Game 0 starts from the initial position; the
   others from 4 seeded random moves.
2. Games that end: alpha-beta self-play to depths 2 and 3 (the defaults, ties broken at random
   from each game's seed, 4 seeded random opening moves) with the ``distance`` heuristic,
   the study's three-phase ``phased`` strategy and its plain far-corner sum ``corner``:
   how many games end with a winner before the 600-move cap, and how long they take.

    python experiments/study_halma.py [--games 3] [--minimax-moves 16] [--selfplay 8]
        [--figure docs/figures/halma_nodes.png]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # _report: the benchmarks' output

from _report import emit

from zerosum.games import make_game
from zerosum.games.halma import TURN
from zerosum.search import AlphaBeta, minimax

GAME = make_game("halma")
HEURISTIC = "distance"
DEPTH = 3
CONFIGS = {
    "alpha-beta": {"tt": False, "ordering": False, "iterative": False},
    "alpha-beta + ordering": {"tt": False, "ordering": True, "iterative": False},
    "modern": {},
}
SELFPLAY = ("distance", "phased", "corner")


def opening(seed: int) -> np.ndarray:
    s = GAME.initial_state()
    if seed:
        rng = np.random.default_rng(seed)
        for _ in range(4):
            s = GAME.apply(s, int(rng.choice(GAME.legal_actions(s))))
    return s


def cost_game(seed: int, minimax_moves: int) -> list[dict]:
    """One game played by the modern engine; every configuration searched at every position."""
    s = opening(seed)
    engines = {k: [AlphaBeta(GAME, HEURISTIC, **cfg) for _ in range(2)] for k, cfg in CONFIGS.items()}
    rows = []
    while not GAME.is_terminal(s):
        p = GAME.current_player(s)
        move = int(s[TURN])
        row = {"game": seed, "move": move, "legal": len(GAME.legal_actions(s))}
        values = []
        for k in CONFIGS:
            t = time.perf_counter()
            r = engines[k][p].search(s, DEPTH)
            row[k] = (r.stats.nodes, time.perf_counter() - t)
            values.append(r.value)
            action = r.action
        if seed == 0 and (move < minimax_moves or move % 20 == 0):
            t = time.perf_counter()
            r = minimax(GAME, s, DEPTH, HEURISTIC)
            row["minimax"] = (r.stats.nodes, time.perf_counter() - t)
            values.append(r.value)
        if len(set(values)) != 1:
            raise AssertionError(f"configurations disagree at move {move} of game {seed}: {values}")
        rows.append(row)
        s = GAME.apply(s, action)
    return rows


def self_play(heuristic: str, depth: int, games: int) -> dict:
    lengths, winners = [], []
    for seed in range(games):
        rng = np.random.default_rng(1000 + seed)
        engines = (AlphaBeta(GAME, heuristic), AlphaBeta(GAME, heuristic))
        s = opening(1000 + seed)
        while not GAME.is_terminal(s):
            r = engines[GAME.current_player(s)].search(s, depth, seed=int(rng.integers(1 << 31)))
            s = GAME.apply(s, r.action)
        lengths.append(int(s[TURN]))
        ret = GAME.returns(s)
        winners.append(0 if ret[0] > 0 else 1 if ret[1] > 0 else -1)
    won = [n for n, w in zip(lengths, winners) if w >= 0]
    return {"heuristic": heuristic, "depth": depth, "games": games, "won": len(won), "capped draws": winners.count(-1),
            "mean length (won)": round(float(np.mean(won)), 1) if won else None,
            "max length (won)": max(won) if won else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--minimax-moves", type=int, default=16)
    ap.add_argument("--selfplay", type=int, default=8, help="self-play games per heuristic and depth")
    ap.add_argument("--selfplay-depths", default="2,3")
    ap.add_argument("--figure", default="")
    args = ap.parse_args()
    AlphaBeta(GAME, HEURISTIC).search(GAME.initial_state(), 1)  # load the compiled search first
    minimax(GAME, GAME.initial_state(), 1, HEURISTIC)
    t0 = time.perf_counter()
    games = [cost_game(seed, args.minimax_moves) for seed in range(args.games)]
    cost_seconds = time.perf_counter() - t0
    moves = [m for g in games for m in g]
    keys = [*CONFIGS, "minimax"]
    phases = {"moves 0-15": lambda m: m["move"] < 16, "moves 16-99": lambda m: 16 <= m["move"] < 100,
              "moves 100+": lambda m: m["move"] >= 100, "all": lambda m: True}
    rows = []
    for phase, pick in phases.items():
        sel = [m for m in moves if pick(m)]
        for k in keys:
            got = [m[k] for m in sel if k in m]
            if not got:
                continue
            nodes = np.array([n for n, _ in got], float)
            secs = np.array([t for _, t in got], float)
            rows.append({"moves": phase, "search": k, "positions": len(got), "nodes mean": round(float(nodes.mean())),
                         "nodes max": int(nodes.max()), "ms mean": round(1000 * float(secs.mean()), 1),
                         "ms max": round(1000 * float(secs.max()), 1), "seconds total": round(float(secs.sum()), 2)})
    # the study's own yardstick: the first 16 moves of the game from the initial position
    first16 = {k: round(sum(m[k][1] for m in games[0] if m["move"] < 16 and k in m), 2) for k in keys}
    t1 = time.perf_counter()
    ends = [self_play(h, int(d), args.selfplay) for d in args.selfplay_depths.split(",") for h in SELFPLAY
            if args.selfplay]
    extra = {"first 16 moves of game 0, seconds": first16, "game lengths": [len(g) for g in games],
             "cost seconds": round(cost_seconds, 1), "self_play": ends,
             "self_play seconds": round(time.perf_counter() - t1, 1),
             "by_move": [{"game": m["game"], "move": m["move"], "legal": m["legal"],
                          **{k: m[k][0] for k in keys if k in m}} for m in moves]}
    emit("study_halma", rows, ["moves", "search", "positions", "nodes mean", "nodes max", "ms mean", "ms max",
                               "seconds total"], extra)
    print(f"\nfirst 16 moves of game 0 (seconds): {first16}; game lengths {extra['game lengths']}")
    for e in ends:
        print(e)
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
        g0 = games[0]
        for k in keys:
            pts = [(m["move"], m[k]) for m in g0 if k in m]
            style = {"marker": "o", "ms": 3, "ls": "none" if k == "minimax" else "-"}
            axes[0].plot([x for x, _ in pts], [max(v[0], 1) for _, v in pts], label=k, **style)
            axes[1].plot([x for x, _ in pts], [max(1000 * v[1], 1e-2) for _, v in pts], label=k, **style)
        for ax, what in zip(axes, ("nodes per move", "ms per move")):
            ax.set_yscale("log")
            ax.set_xlabel("move number (game from the initial position)")
            ax.set_ylabel(f"{what} (log)")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_title(f"Halma 16x16, depth {DEPTH}, {HEURISTIC} heuristic: nodes", fontsize=9)
        axes[1].set_title("time (this machine, shared)", fontsize=9)
        axes[0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.figure, dpi=110)
        print(f"wrote {args.figure}")


if __name__ == "__main__":
    main()
