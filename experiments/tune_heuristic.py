"""Tune the weights of a heuristic by self-play (SPSA on match results); rerun it to check them.

A tunable heuristic is a weighted sum of features: its game's knowledge module has a
helper ``value(params, state, player, weights)``, the feature names and the weights in
use (TUNABLE below). Each candidate plays through a *weight slot*: a heuristic compiled
once per process that reads its weights from a buffer at every call (by address), so a
new candidate is a write into the buffer, not a compilation.

SPSA (Spall 1992, as chess engines tune: fishtest's SPSA) works on the logarithms of the
weights, so every weight stays positive and steps are relative; the first weight is the
anchor (a heuristic's scale is free), the others move. Iteration k draws a random sign
per weight, plays ``--pairs`` pairs between theta + c_k*delta and theta - c_k*delta (each
pair both seat orders from one random opening), and moves theta by
a_k * (2 * score_plus - 1) / (2 * c_k * delta). Moves are searched to a node budget
(``--nodes``), so a run is reproducible from its seed on any machine (``--budget`` only
stops it early, and says so). At the end the tuned weights play the starting weights,
and ``--versus`` names a heuristic of the game they also play, both at the same budget.

    python experiments/tune_heuristic.py pentago threats [--iterations 40] [--pairs 16]
        [--nodes 50000] [--workers 2] [--seed 0] [--start w1,w2,...] [--final-pairs 50]
        [--versus open_lines] [--budget SECONDS]

Prints one JSON document, then the weights as a table.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from llvmlite import ir
from numba import carray, njit, types
from numba.extending import intrinsic

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # _report: the benchmarks' output

from _report import emit

from zerosum.evaluation.gsprt import elo_estimate, pair_category
from zerosum.evaluation.match import random_opening
from zerosum.evaluation.stats import Record
from zerosum.games import Heuristic, make_game
from zerosum.games.kit import HEURISTIC
from zerosum.search import AlphaBeta

# (game, heuristic) -> (knowledge module, value helper, feature names, weights in use)
TUNABLE = {
    ("pentago", "threats"): ("zerosum.games.pentago.knowledge", "threat_value", "THREAT_FEATURES", "THREAT_WEIGHTS"),
    ("nine_mens_morris", "petcu"): ("zerosum.games.nine_mens_morris.knowledge", "petcu_value", "PETCU_FEATURES",
                                    "PETCU_WEIGHTS"),
}
DEFAULTS = {"pentago": {"nodes": 50_000, "plies": 2}, "nine_mens_morris": {"nodes": 20_000, "plies": 4}}


@intrinsic
def _float_pointer(typingctx: Any, address: Any) -> Any:
    """The int64 ``address`` as a float64 pointer (for carray)."""
    if not isinstance(address, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], ir.PointerType(ir.DoubleType()))

    return types.CPointer(types.float64)(address), codegen


class WeightSlot:
    """A heuristic compiled once whose weights live in ``self.weights`` (read at every call)."""

    def __init__(self, value: Any, n: int, name: str) -> None:
        self.weights = np.zeros(n, np.float64)  # kept alive as long as the slot: the kernel reads it
        address = self.weights.ctypes.data

        @njit(HEURISTIC)
        def slot(params, s, player):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
            return value(params, s, player, carray(_float_pointer(address), n))

        self.heuristic = Heuristic(name, slot, "weights from a buffer (experiments/tune_heuristic.py)", symmetric=True)


_WORKER: dict[str, Any] = {}


def _init(game: str, heuristic: str) -> None:
    module, value, features, _ = TUNABLE[(game, heuristic)]
    mod = importlib.import_module(module)
    n = len(getattr(mod, features))
    _WORKER.update(game=make_game(game), slots=(WeightSlot(getattr(mod, value), n, "a"),
                                                WeightSlot(getattr(mod, value), n, "b")))


def _play(game: Any, heuristics: tuple[Any, Any], opening: list[int], nodes: int, seed: int) -> float:
    """One game, heuristics[p] playing player p at ``nodes`` a move; player 0's score."""
    engines = [AlphaBeta(game, h) for h in heuristics]
    s = game.initial_state()
    for a in opening:
        s = game.apply(s, a)
    ply = 0
    while not game.is_terminal(s):
        p = game.current_player(s)
        s = game.apply(s, engines[p].search(s, nodes=nodes, seed=seed * 1009 + ply).action)
        ply += 1
    return (game.returns(s)[0] + 1.0) / 2.0


def play_pair(task: tuple[Any, Any, int, int, int, int]) -> tuple[float, float]:
    """A's scores in both games of one pair: A (weights, or a heuristic name) first, then second."""
    a, b, plies, opening_seed, nodes, seed = task
    game = _WORKER["game"]
    side = []
    for slot, w in zip(_WORKER["slots"], (a, b)):
        if isinstance(w, str):
            side.append(game.heuristic(w))
        else:
            slot.weights[:] = w
            side.append(slot.heuristic)
    opening = random_opening(game, plies, opening_seed)
    first = _play(game, (side[0], side[1]), opening, nodes, seed)
    second = 1.0 - _play(game, (side[1], side[0]), opening, nodes, seed + 1)
    return first, second


class Runner:
    """Plays pairs in this process (workers=1) or in a pool of worker processes."""

    def __init__(self, game: str, heuristic: str, workers: int) -> None:
        self.pool = ProcessPoolExecutor(workers, initializer=_init, initargs=(game, heuristic)) if workers > 1 else None
        if self.pool is None:
            _init(game, heuristic)

    def pairs(self, tasks: list[tuple[Any, ...]]) -> list[tuple[float, float]]:
        return list(self.pool.map(play_pair, tasks)) if self.pool else [play_pair(t) for t in tasks]


def match(runner: Runner, a: Any, b: Any, pairs: int, plies: int, nodes: int, seed: int) -> dict[str, Any]:
    """``pairs`` pairs of A against B from seeded openings: W/D/L, score, Elo with its 95% interval."""
    results = runner.pairs([(a, b, plies, seed * 7919 + i, nodes, seed * 1_000_003 + 2 * i) for i in range(pairs)])
    record = Record()
    counts = [0] * 5
    for first, second in results:
        record.add(first)
        record.add(second)
        counts[pair_category(first + second)] += 1
    elo = elo_estimate(counts)
    return {"W/D/L": record.wdl(), "score": record.score, "Elo": elo.elo, "Elo low": elo.low, "Elo high": elo.high}


def spsa(runner: Runner, start: np.ndarray, args: argparse.Namespace) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """SPSA on log weights (the first weight fixed); the final weights and the history."""
    rng = np.random.default_rng(args.seed)
    theta = np.log(start)
    free = np.arange(1, len(start))
    history = []
    t0 = time.perf_counter()
    for k in range(args.iterations):
        if args.budget and time.perf_counter() - t0 > args.budget:
            print(f"budget of {args.budget:g} s spent after {k} iterations", file=sys.stderr)
            break
        ck = args.c / (k + 1) ** 0.101
        ak = args.a / (k + 1 + args.iterations / 10) ** 0.602
        delta = np.zeros_like(theta)
        delta[free] = rng.choice([-1.0, 1.0], size=len(free))
        plus, minus = np.exp(theta + ck * delta), np.exp(theta - ck * delta)
        result = match(runner, plus, minus, args.pairs, args.plies, args.nodes, args.seed * 10_007 + k)
        theta[free] += ak * (2.0 * result["score"] - 1.0) / (2.0 * ck * delta[free])
        theta[free] = np.clip(theta[free], math.log(args.low), math.log(args.high))
        history.append({"iteration": k + 1, "score_plus": result["score"], "weights": np.exp(theta).round(4).tolist()})
        print(f"{k + 1:3d}  plus scored {result['score']:.3f}  weights {np.round(np.exp(theta), 2).tolist()}  "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return np.exp(theta), history


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=sorted({g for g, _ in TUNABLE}))
    ap.add_argument("heuristic")
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--pairs", type=int, default=16, help="pairs of games per iteration (default 16)")
    ap.add_argument("--nodes", type=int, default=None, help="node budget a move (default per game)")
    ap.add_argument("--plies", type=int, default=None, help="random opening plies (default per game)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", default=None, help="starting weights, comma-separated (default: those in use)")
    ap.add_argument("--c", type=float, default=0.3, help="perturbation of the log weights (default 0.3)")
    ap.add_argument("--a", type=float, default=0.3, help="step size of the log weights (default 0.3)")
    ap.add_argument("--low", type=float, default=0.01, help="smallest weight")
    ap.add_argument("--high", type=float, default=5000.0, help="largest weight")
    ap.add_argument("--final-pairs", type=int, default=50, help="pairs of the final matches (default 50)")
    ap.add_argument("--versus", default=None, help="a heuristic of the game the tuned weights also play")
    ap.add_argument("--budget", type=float, default=None, help="stop SPSA after this many seconds")
    args = ap.parse_args()
    if (args.game, args.heuristic) not in TUNABLE:
        ap.error(f"{args.heuristic!r} of {args.game} is not tunable; tunable: {sorted(TUNABLE)}")
    args.nodes = args.nodes or DEFAULTS[args.game]["nodes"]
    args.plies = args.plies if args.plies is not None else DEFAULTS[args.game]["plies"]
    module, _, features_name, weights_name = TUNABLE[(args.game, args.heuristic)]
    mod = importlib.import_module(module)
    features = list(getattr(mod, features_name))
    start = np.array([float(x) for x in args.start.split(",")]) if args.start else np.array(getattr(mod, weights_name))
    if len(start) != len(features) or not np.all(start > 0):
        ap.error(f"--start needs {len(features)} positive weights ({', '.join(features)})")
    t0 = time.perf_counter()
    runner = Runner(args.game, args.heuristic, args.workers)
    final, history = spsa(runner, start, args)
    final = final.round(3)
    seed = args.seed + 1_000  # final matches on openings SPSA never played
    finals = {"tuned vs start": match(runner, final, start, args.final_pairs, args.plies, args.nodes, seed)}
    if args.versus:
        finals[f"tuned vs {args.versus}"] = match(runner, final, args.versus, args.final_pairs, args.plies,
                                                   args.nodes, seed)
        finals[f"start vs {args.versus}"] = match(runner, start, args.versus, args.final_pairs, args.plies,
                                                   args.nodes, seed)
    rows = [{"feature": f, "start": float(s), "tuned": float(w)} for f, s, w in zip(features, start, final)]
    command = " ".join(["python", "experiments/tune_heuristic.py", *sys.argv[1:]])
    emit("tune_heuristic", rows, ["feature", "start", "tuned"],
         {"command": command, "game": args.game, "heuristic": args.heuristic, "iterations": len(history),
          "pairs": args.pairs, "nodes": args.nodes, "seed": args.seed, "weights": final.tolist(),
          "finals": finals, "history": history, "minutes": (time.perf_counter() - t0) / 60})
    for what, r in finals.items():
        print(f"{what}: W/D/L {r['W/D/L']}, score {r['score']:.3f}, Elo {r['Elo']:+.0f} "
              f"[{r['Elo low']:+.0f}, {r['Elo high']:+.0f}]")


if __name__ == "__main__":
    main()
