"""Nine Men's Morris speed, side by side with OpenSpiel in one run.

1. Alpha-beta to depth 8 from the start with the ``men`` heuristic (target <= 0.5 s), next
   to OpenSpiel's Python ``alpha_beta_search`` with a material heuristic (men on the board
   and in hand, read from the state) at the same depth (``--openspiel-depth`` to cap it).
   OpenSpiel's nodes are counted by wrapping its recursive ``_alpha_beta``.
2. Random playouts, moves/s: OpenSpiel's C++ game via pyspiel, our Game API
   (``legal_actions`` / ``apply`` or ``apply_unchecked`` / ``is_terminal``; target: at
   least as fast as pyspiel), our kernels with reused buffers, all in the same loop shape
   with the same random choices (so all play the very same games), CPU seconds of this
   process; and through the safe ``env()`` (``agent_iter`` / ``last`` / ``step``, target
   >= 30 k moves/s); and the kernels inside a compiled loop (how MCTS rollouts use them),
   for scale.

Prints one JSON object, then a table. ``python bench/nine_mens_morris.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from numba import njit

from game_api import interleaved_playouts
from zerosum.envs import nine_mens_morris_v0
from zerosum.games.nine_mens_morris import NineMensMorris
from zerosum.search import AlphaBeta, alphabeta


def bench_alphabeta(game: NineMensMorris, depth: int, heuristic: str) -> dict:
    alphabeta(game, game.initial_state(), 2, heuristic=heuristic)  # load the compiled search
    best = None
    for _ in range(3):
        searcher = AlphaBeta(game, heuristic, tt_size=1 << 20)
        t = time.perf_counter()
        r = searcher.search(game.initial_state(), depth)
        dt = time.perf_counter() - t
        if best is None or dt < best["seconds"]:
            best = {"seconds": dt, "nodes": r.stats.nodes, "nodes_per_s": r.stats.nodes / dt,
                    "value": r.value, "move": game.action_to_string(r.action)}
    return best


def bench_openspiel_alphabeta(depth: int) -> dict:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("nine_mens_morris")
    inner = minimax._alpha_beta
    count = [0]

    def counting(*args, **kwargs):
        count[0] += 1
        return inner(*args, **kwargs)

    def material(state) -> float:
        text = str(state)
        a, b = text[text.index("Num men: ") + 9:].split("\n", 1)[0].split()
        return float(int(a) - int(b))

    minimax._alpha_beta = counting
    try:
        t = time.perf_counter()
        value, action = minimax.alpha_beta_search(game, value_function=material, maximum_depth=depth)
        dt = time.perf_counter() - t
    finally:
        minimax._alpha_beta = inner
    return {"seconds": dt, "nodes": count[0], "nodes_per_s": count[0] / dt, "value": value,
            "move": game.action_to_string(0, action)}


def bench_playouts(game: NineMensMorris, games: int, seed: int = 0) -> dict:
    """pyspiel, the Game API and the kernels playing the same games (bench/game_api.py)."""
    import pyspiel

    return interleaved_playouts(game, pyspiel.load_game("nine_mens_morris"), games, seed)


@njit(cache=True)
def _compiled_playouts(legal, apply, params, initial, games, seed):  # pragma: no cover - compiled
    np.random.seed(seed)
    moves = np.empty(64, np.int64)
    s = initial.copy()
    child = initial.copy()
    total = 0
    for _ in range(games):
        s[:] = initial
        while True:
            n = legal(params, s, moves)
            if n == 0:
                break
            apply(params, s, moves[np.random.randint(n)], child)
            s, child = child, s
            total += 1
    return total


def bench_compiled_playouts(game: NineMensMorris, games: int) -> dict:
    """The same kernels in a numba loop, as MCTS rollouts run them."""
    k = game.kernels
    _compiled_playouts(k.legal, k.apply, game.params, game.initial, 2, 0)
    t = time.perf_counter()
    n = _compiled_playouts(k.legal, k.apply, game.params, game.initial, games, 1)
    dt = time.perf_counter() - t
    return {"moves": int(n), "seconds": dt, "moves_per_s": n / dt}


def bench_env(games: int, seed: int = 0) -> dict:
    env = nine_mens_morris_v0.env()
    rng = np.random.default_rng(seed)
    n = 0
    t = time.perf_counter()
    for _ in range(games):
        env.reset(seed=int(rng.integers(1 << 30)))
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
    dt = time.perf_counter() - t
    return {"moves": n, "seconds": dt, "moves_per_s": n / dt}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--openspiel-depth", type=int, default=8, help="cap OpenSpiel's depth (it is slow)")
    ap.add_argument("--games", type=int, default=1000, help="random playouts per loop")
    ap.add_argument("--env-games", type=int, default=300)
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.depth, args.openspiel_depth, args.games, args.env_games = 6, 4, 50, 20
    if args.openspiel_depth < args.depth:
        print(f"note: OpenSpiel searched to depth {args.openspiel_depth} only, ours to {args.depth}", file=sys.stderr)
    game = NineMensMorris()
    result = {
        "alphabeta_men": {"depth": args.depth, **bench_alphabeta(game, args.depth, "men")},
        "openspiel_alphabeta_material": {"depth": args.openspiel_depth,
                                         **bench_openspiel_alphabeta(args.openspiel_depth)},
        "playouts": bench_playouts(game, args.games),
        "env": bench_env(args.env_games),
        "compiled_playouts": bench_compiled_playouts(game, 10 * args.games),
    }
    for name in ("men_mills", "men_mobility", "threats"):
        result[f"alphabeta_{name}"] = {"depth": args.depth, **bench_alphabeta(game, args.depth, name)}
    po = result["playouts"]
    result["game_api_vs_pyspiel"] = {name: po[name]["moves_per_s"] / po["openspiel"]["moves_per_s"]
                                     for name in ("game_api", "game_api_unchecked")}
    print(json.dumps(result, indent=2, default=float))
    print()
    print(f"{'what':48} {'seconds':>9} {'nodes/moves':>12} {'per second':>12}")
    for key in ("alphabeta_men", "openspiel_alphabeta_material", "alphabeta_men_mills",
                "alphabeta_men_mobility", "alphabeta_threats"):
        r = result[key]
        label = f"{key} depth {r['depth']}"
        print(f"{label:48} {r['seconds']:9.3f} {r['nodes']:12,d} {r['nodes_per_s']:12,.0f}")
    for name, r in result["playouts"].items():
        ratio = result["game_api_vs_pyspiel"].get(name)
        vs = f"   {ratio:.2f}x pyspiel" if ratio else ""
        print(f"{'random playouts ' + name:48} {r['seconds']:9.3f} {r['moves']:12,d} {r['moves_per_s']:12,.0f}{vs}")
    r = result["env"]
    print(f"{'random playouts env()':48} {r['seconds']:9.3f} {r['moves']:12,d} {r['moves_per_s']:12,.0f}")
    r = result["compiled_playouts"]
    print(f"{'random playouts, kernels in a numba loop':48} {r['seconds']:9.3f} {r['moves']:12,d} "
          f"{r['moves_per_s']:12,.0f}")


if __name__ == "__main__":
    main()
