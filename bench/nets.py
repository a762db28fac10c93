"""Network evaluation speed: positions/s of a ResNet on Connect Four through NetworkEvaluator.

    python bench/nets.py [--net 4x64] [--net 2x32 ...] [--batch 1 --batch 64] [--seconds 2] [--rounds 3]
                         [--puct-sims 200]

Each network (BLOCKSxCHANNELS, default a 4-block x 64-channel ResNet, the size of DESIGN
section 8) evaluates batches of real positions (the env's int8 planes and masks from random
Connect Four games) through :class:`zerosum.nets.NetworkEvaluator`, the call the batched
search makes: int8 to float32, the forward pass under ``torch.inference_mode``, the answer
back as numpy. One torch thread, on the CPU. The batch sizes take turns in short rounds so
that the load of a shared machine falls on all alike; a figure is the median round. The
1-minute load average is printed beside each figure (DESIGN section 8 measured 0.6-1.0 k/s
at batch 1 and 3.6-4.5 k/s at batch 64 for 4x64 on a busy 2-core machine).

For reference, the same network guides the plain-Python PUCT of ``bench/_python_puct.py``
(one leaf per network call, as the Python peers of issue 29 do) from the opening for
``--puct-sims`` simulations, in the same rounds: its simulations/s (0 turns it off).

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from _python_puct import python_puct
from _report import emit, headline
from zerosum.games import make_game
from zerosum.nets import NetConfig, NetworkEvaluator, build_network


def positions(game, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` positions of random games: observation planes from the mover's side and legal masks."""
    rng = np.random.default_rng(seed)
    obs, masks, s = [], [], game.initial_state()
    while len(obs) < n:
        if game.is_terminal(s):
            s = game.initial_state()
        obs.append(game.observation(s, game.current_player(s)))
        masks.append(game.legal_mask(s))
        legal = game.legal_actions(s)
        s = game.apply(s, int(legal[rng.integers(len(legal))]))
    return np.stack(obs), np.stack(masks)


def rate(ev: NetworkEvaluator, obs: np.ndarray, mask: np.ndarray, batch: int, seconds: float) -> float:
    """Positions/s evaluating ``obs`` in batches of ``batch`` for about ``seconds``."""
    n, done, i = len(obs), 0, 0
    start = time.perf_counter()
    while True:
        j = i % (n - batch + 1)
        ev(obs[j:j + batch], mask[j:j + batch])
        done += batch
        i += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def puct_rate(game, ev: NetworkEvaluator, sims: int) -> float:
    """Simulations/s of the plain-Python PUCT from the opening."""
    start = time.perf_counter()
    visits = python_puct(game, game.initial_state(), ev, sims)
    elapsed = time.perf_counter() - start
    assert int(visits.sum()) == sims
    return sims / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--net", action="append", help="BLOCKSxCHANNELS (repeatable; default 4x64)")
    ap.add_argument("--batch", action="append", type=int, help="batch size (repeatable; default 1 and 64)")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported")
    ap.add_argument("--puct-sims", type=int, default=200, help="plain-Python PUCT simulations per round (0: off)")
    args = ap.parse_args()
    nets = args.net or ["4x64"]
    batches = args.batch or [1, 64]
    game = make_game("connect_four")
    obs, mask = positions(game, 1024)
    rows, heads = [], []
    for spec in nets:
        blocks, _, channels = spec.partition("x")
        config = NetConfig(kind="resnet", blocks=int(blocks), channels=int(channels))
        net = build_network(game, config)
        ev = NetworkEvaluator(net)  # one torch thread
        params = sum(p.numel() for p in net.parameters())
        for b in batches:
            rate(ev, obs, mask, b, 0.2)  # warm-up
        samples: dict[int, list[float]] = {b: [] for b in batches}
        loads: dict[int, list[float]] = {b: [] for b in batches}
        puct: list[float] = []
        puct_loads: list[float] = []
        for _ in range(args.rounds):
            for b in batches:
                samples[b].append(rate(ev, obs, mask, b, args.seconds))
                loads[b].append(os.getloadavg()[0])
            if args.puct_sims > 0:
                puct.append(puct_rate(game, ev, args.puct_sims))
                puct_loads.append(os.getloadavg()[0])
        name = f"{config.blocks}x{config.channels}"
        for b in batches:
            per_s = statistics.median(samples[b])
            rows.append({"what": "NetworkEvaluator", "net": name, "params": params, "batch": b,
                         "per_s": per_s, "unit": "positions", "min": min(samples[b]), "max": max(samples[b]),
                         "load_1min": statistics.median(loads[b]), "threads": 1})
            if name == "4x64" and b == 64:
                heads.append(headline("connect_four 4x64 ResNet positions/s at batch 64, one thread", per_s,
                                      target=">= 3600 (DESIGN section 8, busy 2-core machine)"))
        if puct:
            rows.append({"what": "python PUCT", "net": name, "params": params, "batch": 1,
                         "per_s": statistics.median(puct), "unit": "simulations", "min": min(puct), "max": max(puct),
                         "load_1min": statistics.median(puct_loads), "threads": 1, "sims": args.puct_sims})
    import torch

    emit("nets", rows, ["what", "net", "params", "batch", "per_s", "unit", "min", "max", "load_1min"],
         {"headline": heads, "torch": torch.__version__, "torch_threads": torch.get_num_threads(),
          "game": "connect_four", "seconds": args.seconds, "rounds": args.rounds})


if __name__ == "__main__":
    main()
