"""Connect Four's search knowledge per call: the threats and windows heuristics, the
forcing-move kernel, and the rules' apply over every legal move, on every position of 300
random games (standard board), called from a compiled loop as the search calls them.

    python bench/connect_four_kernels.py [--reps 20]

``check`` is the sum of the results: equal across versions when the kernels agree.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

from _report import emit


def positions(games: int, seed: int) -> np.ndarray:
    from zerosum.games.connect_four import rules
    from zerosum.games.connect_four.rules import geometry
    from zerosum.games.kit import ONGOING

    params = np.array(geometry(6, 7, 4), dtype=np.int64)
    rng = np.random.default_rng(seed)
    found, moves = [], np.zeros(7, np.int64)
    for _ in range(games):
        s = np.array([0, 0, ONGOING], np.int64)
        while rules.status(params, s) == ONGOING:
            found.append(s.copy())
            n = rules.legal(params, s, moves)
            child = np.empty(3, np.int64)
            rules.apply(params, s, moves[rng.integers(n)], child)
            s = child
    return np.array(found)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20, help="passes over the positions")
    args = ap.parse_args()
    from zerosum.games.connect_four import knowledge, rules
    from zerosum.games.connect_four.rules import geometry

    params = np.array(geometry(6, 7, 4), dtype=np.int64)
    threats, windows, forcing, legal, apply = (knowledge.threats, knowledge.windows, knowledge.forcing, rules.legal,
                                               rules.apply)

    @njit
    def run_threats(params, states, reps):  # type: ignore[no-untyped-def]
        acc = 0.0
        for _ in range(reps):
            for i in range(states.shape[0]):
                acc += threats(params, states[i], i & 1)
        return acc

    @njit
    def run_windows(params, states, reps):  # type: ignore[no-untyped-def]
        acc = 0.0
        for _ in range(reps):
            for i in range(states.shape[0]):
                acc += windows(params, states[i], i & 1)
        return acc

    @njit
    def run_forcing(params, states, reps):  # type: ignore[no-untyped-def]
        out, acc = np.zeros(16, np.int64), 0
        for _ in range(reps):
            for i in range(states.shape[0]):
                acc += forcing(params, states[i], out)
        return acc

    @njit
    def run_apply(params, states, reps):  # type: ignore[no-untyped-def]
        out, child, acc = np.zeros(16, np.int64), np.zeros(3, np.int64), 0
        for _ in range(reps):
            for i in range(states.shape[0]):
                for j in range(legal(params, states[i], out)):
                    apply(params, states[i], out[j], child)
                    acc += child[2]
        return acc

    states = positions(300, 0)
    load = os.getloadavg()[0]
    rows = []
    for name, fn in [("threats", run_threats), ("windows", run_windows), ("forcing", run_forcing),
                     ("legal + apply every move", run_apply)]:
        fn(params, states, 1)  # compile
        t = time.process_time()
        check = fn(params, states, args.reps)
        spent = time.process_time() - t
        rows.append({"kernel": name, "ns_per_position": spent / (args.reps * len(states)) * 1e9, "check": check})
    emit("connect_four_kernels", rows, ["kernel", "ns_per_position", "check"],
         {"positions": len(states), "load_before": load, "load_after": os.getloadavg()[0]})


if __name__ == "__main__":
    main()
