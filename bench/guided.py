"""Speed of the network-guided batched search (zerosum.search.guided), side by side in one run.

    python bench/guided.py [--seconds 3] [--quick]

* **The tree alone**: a zero-cost evaluator (uniform priors, value 0), so every second is
  the compiled tree's (selection, the rules, the observation planes, expansion, backup) and
  the Python of one step. Connect Four, Pentago and Nine Men's Morris; 256 lanes with one
  leaf each (self-play's shape) and one lane with 8 leaves (one game in a tournament).
* **Network-guided**: Connect Four with a 4-block x 64-channel ResNet (untrained, the size
  DESIGN section 8 measured) on one torch thread, 64 lanes of one leaf: batches of 64.
  Simulations/s, and the tree's share of the time (everything but the evaluator call).
* **For reference**: a plain-Python PUCT (bench/_python_puct.py, the shape of the Python
  peers issue 29 cites) on the same network, one leaf evaluated at a time.

Every lane plays a game from a random 4-ply opening: a search of ``--sims`` simulations,
the move it chose, the subtree kept, and so on until ``--seconds`` have passed. The
1-minute load average is printed with each figure: on a shared machine compare figures of
one run only.

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from _python_puct import python_puct
from _report import emit, headline
from zerosum.games import make_game
from zerosum.games.kit import Game
from zerosum.search import BatchedSearch, GuidedConfig, uniform_evaluator
from zerosum.search.guided import Evaluator


def opening(game: Game, rng: np.random.Generator, plies: int = 4) -> np.ndarray:
    """A position ``plies`` random moves from the start (not over)."""
    while True:
        s = game.initial_state()
        for _ in range(plies):
            s = game.apply(s, int(rng.choice(game.legal_actions(s))))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            return s


def play(game: Game, evaluate: Evaluator, lanes: int, leaves: int, sims: int, seconds: float,
         rule: str = "puct") -> dict[str, float]:
    """Simulations/s (and the evaluator's share) of ``lanes`` games searched together."""
    rng = np.random.default_rng(0)
    search = BatchedSearch(game, lanes=lanes, config=GuidedConfig(rule=rule, leaves=leaves), seed=0)
    states = [opening(game, rng) for _ in range(lanes)]
    for lane, s in enumerate(states):
        search.set_root(lane, s)
    search.run(evaluate, sims=sims)  # compile, and grow the trees to a search's size
    total_sims = calls = evals = 0
    eval_time = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        res = search.run(evaluate, sims=sims)
        total_sims += sum(st.simulations for st in res.stats)
        eval_time += res.stats[0].eval_time
        calls += res.evaluator_calls
        evals += res.evaluations
        for lane in range(lanes):
            a = int(res.action[lane])
            states[lane] = game.apply(states[lane], a)
            if game.is_terminal(states[lane]):
                states[lane] = opening(game, rng)
                search.set_root(lane, states[lane])
            else:
                search.advance(lane, a)
    elapsed = time.perf_counter() - start
    return {"sims_per_s": total_sims / elapsed, "tree_share": 1.0 - eval_time / elapsed,
            "mean_batch": evals / max(calls, 1), "load": os.getloadavg()[0]}


def python_rate(game: Game, evaluate: Evaluator, sims: int, seconds: float) -> dict[str, float]:
    """Simulations/s of the plain-Python PUCT from random openings."""
    rng = np.random.default_rng(0)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        python_puct(game, opening(game, rng), evaluate, sims=sims)
        done += sims
    return {"sims_per_s": done / (time.perf_counter() - start), "load": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--sims", type=int, default=64, help="simulations per move")
    ap.add_argument("--quick", action="store_true", help="1 second per measurement")
    args = ap.parse_args()
    seconds = 1.0 if args.quick else args.seconds
    rows = []
    for name in ("connect_four", "pentago", "nine_mens_morris"):
        game = make_game(name)
        for lanes, leaves in ((256, 1), (1, 8)):
            r = play(game, uniform_evaluator, lanes, leaves, args.sims, seconds)
            rows.append({"what": "tree alone (zero-cost evaluator)", "game": name, "lanes": lanes, "leaves": leaves,
                         **r})
    c4 = make_game("connect_four")
    net_rows = []
    try:
        from zerosum.nets import NetConfig, NetworkEvaluator, build_network
    except ImportError:  # pragma: no cover - without the train extra
        NetworkEvaluator = None  # type: ignore[assignment,misc]
    if NetworkEvaluator is not None:
        ev = NetworkEvaluator(build_network(c4, NetConfig(kind="resnet", blocks=4, channels=64)))
        for rule in ("puct", "gumbel"):
            r = play(c4, ev, 64, 1, args.sims, seconds, rule=rule)
            net_rows.append({"what": f"4x64 ResNet, batched ({rule})", "game": "connect_four", "lanes": 64,
                             "leaves": 1, **r})
        r = play(c4, ev, 1, 8, args.sims, seconds)
        net_rows.append({"what": "4x64 ResNet, one game (puct)", "game": "connect_four", "lanes": 1, "leaves": 8, **r})
        r = python_rate(c4, ev, args.sims, seconds)
        net_rows.append({"what": "4x64 ResNet, plain-Python PUCT", "game": "connect_four", "lanes": 1, "leaves": 1,
                         "tree_share": None, "mean_batch": 1.0, **r})
    rows += net_rows
    tree_c4 = rows[0]["sims_per_s"]
    heads = [headline("guided search, tree alone, Connect Four (sims/s)", tree_c4, None, ">= 200,000")]
    if net_rows:
        heads.append(headline("guided search with a 4x64 ResNet, Connect Four (sims/s)", net_rows[0]["sims_per_s"],
                              net_rows[-1]["sims_per_s"], ">= 3,000; tree share <= 20%"))
    emit("guided", rows, ["what", "game", "lanes", "leaves", "sims_per_s", "tree_share", "mean_batch", "load"],
         {"headline": heads, "sims_per_move": args.sims})


if __name__ == "__main__":
    main()
