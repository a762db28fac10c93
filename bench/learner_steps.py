"""The AlphaZero learner's time a step, per recipe and torch thread count.

    python bench/learner_steps.py [--recipes az_connect_four,az_pentago] [--threads 1,2] [--steps 200]
                                  [--devices cpu,cuda]

For each recipe, a :class:`~zerosum.training.alphazero.Learner` with the recipe's network (freshly
initialised), batch size and symmetries takes ``steps`` minibatch steps (after 20 to warm up)
on a buffer of random positions (what the positions hold does not change the cost), once per
thread count. This is what ``--learner-threads`` buys where the workers wait (the steps on
labels, after each ladder round, the final steps): on a machine whose other cores are idle, a
second thread shortens a step; where another process keeps a core busy, it lengthens it.
With ``--devices cpu,cuda`` each thread count is also timed with the steps on the GPU
(``--device cuda``: the network and the minibatch go there, the sampling stays on the CPU).
Reported: milliseconds a step, the speed-up over one thread, and the load average (run it on
an otherwise idle machine).

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit

from zerosum.games import make_game
from zerosum.training.alphazero import AZ_RECIPES, Learner, Positions, ReplayBuffer, az_recipe, build_net


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recipes", default="az_connect_four,az_pentago", help="comma-separated AlphaZero recipes")
    ap.add_argument("--threads", default="1,2", help="comma-separated torch thread counts")
    ap.add_argument("--steps", type=int, default=200, help="timed steps per recipe and thread count")
    ap.add_argument("--devices", default="cpu", help="comma-separated torch devices of the steps (cpu, cuda)")
    args = ap.parse_args()
    import torch

    from zerosum.nets import NetConfigError, resolve_device

    names = [n.strip() for n in args.recipes.split(",") if n.strip()]
    unknown = [n for n in names if n not in AZ_RECIPES]
    if unknown:
        raise SystemExit(f"--recipes: {', '.join(unknown)} unknown; one of {', '.join(sorted(AZ_RECIPES))}")
    try:
        threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        threads = []
    if not threads or min(threads) < 1 or args.steps < 1:
        raise SystemExit("--threads takes positive whole numbers (e.g. 1,2) and --steps a positive whole number")
    devices = [d.strip() for d in args.devices.split(",") if d.strip()]
    try:
        for d in devices or ["none"]:
            resolve_device(d)
    except NetConfigError as exc:
        raise SystemExit(f"--devices: {exc}") from None
    rows = []
    for name in names:
        cfg = az_recipe(name)
        game = make_game(cfg.game, **cfg.variant)
        rng = np.random.default_rng(0)
        n = 4096
        obs = rng.integers(0, 2, (n, *game.observation_shape)).astype(np.int8)
        mask = np.ones((n, game.num_actions), np.int8)
        policy = np.full((n, game.num_actions), 1.0 / game.num_actions, np.float32)
        buffer = ReplayBuffer(n, tuple(game.observation_shape), game.num_actions)
        buffer.add(Positions(obs, mask, policy, rng.uniform(-1, 1, n).astype(np.float32)))
        base = None
        for device in devices:
            for t in threads:
                torch.manual_seed(0)
                learner = Learner(game, az_recipe(name, device=device), build_net(game, cfg.net))
                torch.set_num_threads(t)
                learner.train(buffer, 20, rng)
                start = time.perf_counter()
                learner.train(buffer, args.steps, rng)  # its losses come back as floats: the device is done
                ms = (time.perf_counter() - start) / args.steps * 1000
                base = base or ms
                rows.append({"recipe": name, "net": " ".join(f"{k}={v}" for k, v in cfg.net.items()),
                             "batch": cfg.learner.batch_size, "device": device, "threads": t,
                             "ms_per_step": round(ms, 2), "speedup": round(base / ms, 2),
                             "load": round(os.getloadavg()[0], 2)})
    emit("learner_steps", rows, ["recipe", "net", "batch", "device", "threads", "ms_per_step", "speedup", "load"])


if __name__ == "__main__":
    main()
