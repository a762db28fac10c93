"""A network trained on alpha-beta labels alone, scored with no search against the alpha-beta ladder.

    python bench/labels_only.py --labels runs/az_c4/labels.npz [--sharpen 3] [--steps 3000] \\
        [--net kind=resnet blocks=2 channels=32] [--games 100] [--save runs/c4_labels_only.pt]

Reads a labels file (``OUT/labels.npz`` of an AlphaZero run, or
:func:`zerosum.training.labeller.save_dataset`), optionally sharpens the policy targets
(``p ** sharpen``, renormalised: the same softmax at ``temperature / sharpen``, so no
relabelling is needed), trains the network for ``steps`` minibatch steps (AdamW, batch 256,
one torch thread, the board's symmetries), then plays the network alone (``sims=0``)
``games`` games against each opponent (seats alternating, paired 2-ply random openings).
With ``--save`` the network is written as a zerosum.nets checkpoint with this command in
its sidecar.

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit

from zerosum.games import make_game
from zerosum.values import parse_assignments, split_top_level


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", required=True)
    ap.add_argument("--sharpen", type=float, default=1.0)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--net", nargs="+", default=["kind=resnet", "blocks=2", "channels=32"])
    ap.add_argument("--opponents", default="alphabeta(depth=2); alphabeta(depth=4)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    from zerosum.nets import NetConfig, build_network, save_network
    from zerosum.training.alphazero import AlphaZeroConfig, Learner, ReplayBuffer, evaluate_network
    from zerosum.training.labeller import load_dataset
    from zerosum.training.selfplay import Games

    data = load_dataset(args.labels)
    game = make_game(data.meta["game"], **data.meta["variant"])
    policy = data.policy.astype(np.float64) ** args.sharpen
    policy = (policy / policy.sum(axis=1, keepdims=True)).astype(np.float32)
    net_cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in parse_assignments(args.net, "--net").items()}
    cfg = AlphaZeroConfig(game=game.name, net=net_cfg, symmetry=True, lr=args.lr, buffer_size=len(data),
                          eval_opponents=split_top_level(args.opponents), eval_games=args.games, eval_openings=2,
                          iterations=0, labels=len(data), label_steps=args.steps, seed=args.seed, out=None)
    net = build_network(game, NetConfig.from_dict(net_cfg))
    learner = Learner(game, cfg, net)
    buf = ReplayBuffer(len(data), tuple(game.observation_shape), game.num_actions)
    buf.add(Games(data.obs, data.mask, policy, data.value))
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    losses = learner.train(buf, args.steps, rng)
    train_s = time.perf_counter() - t0
    summary = evaluate_network(net, game, cfg, seed=args.seed)
    rows = [{"game": game.name, "labels": len(data), "depth": data.meta.get("depth"), "sharpen": args.sharpen,
             "steps": args.steps, "train_s": round(train_s, 1), "policy_loss": round(losses["policy_loss"], 3),
             "value_loss": round(losses["value_loss"], 3), "opponent": r["opponent"], "games": r["games"],
             "wdl": f"{r['wins']}/{r['draws']}/{r['losses']}", "score": round(r["score"], 3),
             "load": round(os.getloadavg()[0], 2)} for r in summary["rows"]]
    if args.save:
        command = shlex.join(["python", "bench/labels_only.py", *sys.argv[1:]])
        save_network(args.save, net, game, NetConfig.from_dict(net_cfg),
                     metadata={"train_steps": args.steps, "command": command, "evaluation": summary})
    emit("labels_only", rows, list(rows[0]))


if __name__ == "__main__":
    main()
