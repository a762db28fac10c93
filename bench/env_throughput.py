"""Random games through PettingZoo's AEC loop: zerosum's envs against PettingZoo's tictactoe_v3
and connect_four_v3.

Both run the same loop (env.last(), a uniformly random legal action from the mask, step)
with the same seeds, through env() (the safe, wrapped env) and raw_env().

    python bench/env_throughput.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from _report import emit, headline


def playouts(env, seconds: float, rng: np.random.Generator) -> tuple[int, float]:
    """Moves of random play through the AEC loop in about ``seconds``, and the time taken."""
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=int(rng.integers(1 << 30)))
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            moves += 1
    return moves, time.perf_counter() - start


def interleaved(factories: list, seconds: float, rounds: int = 10) -> list[float]:
    """Moves/s for each env, measured in alternating short rounds so all see the same load."""
    envs = [f() for f in factories]
    rngs = [np.random.default_rng(0) for _ in envs]
    moves, spent = [0] * len(envs), [0.0] * len(envs)
    for env, rng in zip(envs, rngs):
        playouts(env, 0.05, rng)  # warm-up
    for _ in range(rounds):
        for i, (env, rng) in enumerate(zip(envs, rngs)):
            m, t = playouts(env, seconds / rounds, rng)
            moves[i] += m
            spent[i] += t
    return [m / t for m, t in zip(moves, spent)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    from pettingzoo.classic import tictactoe_v3

    from zerosum.envs import make

    cases = [("tictactoe", "zerosum tictactoe_v0", lambda: make("tictactoe_v0"),
              lambda: make("tictactoe_v0", raw=True)),
             ("tictactoe", "pettingzoo tictactoe_v3", tictactoe_v3.env, tictactoe_v3.raw_env)]
    for name in ("nim_v0", "pentago_v0", "nine_mens_morris_v0", "halma_v0", "connect_four_v0"):
        from zerosum.envs import ENVS

        if name in ENVS:
            cases.append((ENVS[name][1], f"zerosum {name}", lambda n=name: make(n), lambda n=name: make(n, raw=True)))
    try:
        from pettingzoo.classic import connect_four_v3  # its module imports pygame
    except ImportError:
        pass
    else:
        cases.append(("connect_four", "pettingzoo connect_four_v3", connect_four_v3.env, connect_four_v3.raw_env))
    factories = [f for _, _, safe, raw in cases for f in (safe, raw)]
    rates = interleaved(factories, args.seconds)
    rows = [{"game": game, "env": label, "env() moves/s": rates[2 * i], "raw_env() moves/s": rates[2 * i + 1]}
            for i, (game, label, _, _) in enumerate(cases)]
    ours = rows[0]["env() moves/s"]
    peer = rows[1]["env() moves/s"]
    for r in rows[:2]:
        r["vs pettingzoo env()"] = r["env() moves/s"] / peer
    c4 = {r["env"]: r["env() moves/s"] for r in rows if r["game"] == "connect_four"}
    for r in rows:
        if r["game"] == "connect_four" and "pettingzoo connect_four_v3" in c4:
            r["vs pettingzoo env()"] = r["env() moves/s"] / c4["pettingzoo connect_four_v3"]
    emit("env_throughput", rows, ["env", "env() moves/s", "raw_env() moves/s", "vs pettingzoo env()"],
         {"ratio_env_tictactoe": ours / peer, "target_ratio": 3.0,
          "headline": [headline("tictactoe env() random playouts, moves/s (vs PettingZoo tictactoe_v3 env())",
                                ours, peer, ">= 3x")]})


if __name__ == "__main__":
    main()
