"""Measure one build of zerosum (whichever ``import zerosum`` finds): search nodes/s on the
bench positions, env() moves/s and random playouts' moves/s (the Python loop over
``legal_actions`` and ``apply``, and ``Game.random_playouts`` where the build has it),
printed as one JSON line. Run by vs_previous.py under
each build; it uses only the API that every version since 0.1.0 has. Both builds search with
the same heuristic (the one the earlier builds had as their default) and the same
enhancements: the ones a later build added (PVS, aspiration windows, ordering by child
values, late-move reductions, quiescence) are switched off, so that the figure measures
the machinery that runs the same search, not a different search.

    python bench/_probe.py GAME [GAME ...] [--seconds S]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

# game -> (variant, search depth, plies of random opening per bench position, heuristic)
CASES = {
    "tictactoe": ({}, 9, (0, 1, 2), "lines"),
    "nim": ({}, 8, (0, 2, 4), "nim_sum"),
    "pentago": ({}, 4, (8, 12, 16), "open_lines"),
    "nine_mens_morris": ({}, 6, (0, 12, 30), "men_mills"),
    "halma": ({"size": 10}, 3, (0, 20, 60), "distance"),
    "connect_four": ({}, 7, (0, 6, 12), "windows"),
}
LATER = {"pvs": False, "aspiration": False, "eval_order": False, "lmr": False, "quiescence": False}
"""Enhancements added after 0.1.0, switched off where the build has them."""


def engine(game, heuristic: str):
    """An AlphaBeta with ``heuristic`` and only the enhancements every build has."""
    import dataclasses

    from zerosum.search import AlphaBeta, AlphaBetaConfig

    fields = {f.name for f in dataclasses.fields(AlphaBetaConfig)}
    return AlphaBeta(game, heuristic, **{k: v for k, v in LATER.items() if k in fields})


def positions(game, plies: tuple[int, ...], seed: int = 0) -> list[np.ndarray]:
    """The bench positions: random openings of the given lengths (seeded, the same in every build)."""
    out = []
    for n in plies:
        rnd = random.Random(seed + n)
        s = game.initial_state()
        for _ in range(n):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            s = game.apply(s, legal[rnd.randrange(len(legal))])
        if not game.is_terminal(s):
            out.append(s)
    return out


def search_rate(name: str, seconds: float) -> dict:
    from zerosum.games import make_game

    variant, depth, plies, heuristic = CASES[name]
    game = make_game(name, **variant)
    states = positions(game, plies)
    engine(game, heuristic).search(states[0], depth=1)  # compile / load
    nodes = 0
    spent = 0.0
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        for s in states:
            searcher = engine(game, heuristic)
            t0 = time.perf_counter()
            r = searcher.search(s, depth=depth)
            spent += time.perf_counter() - t0
            nodes += r.stats.nodes
    return {"nodes": nodes, "seconds": spent, "nodes_per_s": nodes / spent}


def env_rate(name: str, seconds: float) -> float:
    from zerosum.envs import make

    variant = CASES[name][0]
    env = make(f"{name}_v0", **variant)
    rng = np.random.default_rng(0)
    moves = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += 1
    return moves / (time.process_time() - t0)


def playout_rates(name: str, seconds: float) -> dict:
    """Random playouts' moves/s: the loop a user writes, and the compiled batch (0 where absent)."""
    from zerosum.games import make_game

    game = make_game(name, **CASES[name][0])
    rng = random.Random(0)
    moves = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.initial_state()
        while not game.is_terminal(s):
            legal = game.legal_actions(s)
            s = game.apply(s, int(legal[rng.randrange(len(legal))]))
            moves += 1
    loop = moves / (time.process_time() - t0)
    batch = 0.0
    if hasattr(game, "random_playouts"):
        game.random_playouts(game.initial_state(), 2)  # compile / load
        done, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            done += game.random_playouts(game.initial_state(), 200, seed=done)["moves"]
        batch = done / (time.perf_counter() - t0)
    return {"loop_moves_per_s": loop, "playout_moves_per_s": batch}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="+", choices=sorted(CASES))
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    out = {}
    for name in args.games:
        out[name] = {**search_rate(name, args.seconds), "env_moves_per_s": env_rate(name, args.seconds / 2),
                     **playout_rates(name, args.seconds / 2)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
