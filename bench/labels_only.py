"""A network trained on alpha-beta labels alone, scored with no search against the alpha-beta ladder.

    python bench/labels_only.py --labels runs/az_c4/labels.npz [--sharpen 3] [--steps 3000] \\
        [--net kind=resnet blocks=2 channels=32] [--games 100] [--save runs/c4_labels_only.pt]

Reads a labels file (``OUT/labels.npz`` of an AlphaZero run, or
:func:`zerosum.training.labeller.save_dataset`) or the replay buffer of a run's ``OUT/state.pt``
(oldest position first: for a run of ladder rounds alone, every position is an alpha-beta
label), optionally sharpens the policy targets
(``p ** sharpen``, renormalised: the same softmax at ``temperature / sharpen``, so no
relabelling is needed), trains the network for ``steps`` minibatch steps (AdamW, batch 256,
one torch thread, the board's symmetries), then plays the network alone (``sims=0``)
``games`` games against each opponent (seats alternating, paired 2-ply random openings).
With ``--held-out F`` the last fraction F of the positions is kept out of training, and the
network's greedy legal move on them is scored against their labels: **agrees** (it is the
label's best move, or ties it) and **blunders** (the label gives it under 1/1000 of the best
move's weight; ``bench/blunders.py`` counts the same in a network's own games). Comparing
``--net ... lines=4`` with the same network without it measures what the line features give.
With ``--init CHECKPOINT`` training starts from that network (its own network config; ``--net``
is then ignored), and ``--lr-decay`` lowers the learning rate from ``--lr`` to 0 along a cosine
over the steps (``Learner.anneal``, as ``--final-steps`` does): together they measure what a
final annealed phase adds to a run's network. With ``--save`` the network is written as a
zerosum.nets checkpoint with this command in its sidecar.

Several ``--labels`` are joined in the order given; they must come from the same game and
labeller settings. ``--drop-overlap`` drops a set's oldest positions where they repeat the
newest of the set before it: the buffer of a run resumed from that one holds its last rounds
again. Repeats within a run (openings the games replay) are kept. ``--unique`` drops every
position whose planes and label appeared earlier, those repeats included. ``--held-out N`` with
N >= 1 keeps the last N positions out, and ``--limit N`` trains on the first N of the rest: the
same held-out positions then score networks trained on more or fewer labels.

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
    ap.add_argument("--labels", required=True, nargs="+",
                    help="labels files or runs' state.pt, concatenated in this order (the same game and labeller)")
    ap.add_argument("--unique", action="store_true",
                    help="drop every position whose planes and label appeared earlier (openings replayed included)")
    ap.add_argument("--drop-overlap", action="store_true",
                    help="drop a set's oldest positions where they repeat the newest of the set before it "
                         "(the buffer of a run resumed from that one); repeats within a set are kept")
    ap.add_argument("--limit", type=int, help="train on the first N positions kept for training only")
    ap.add_argument("--sharpen", type=float, default=1.0)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--net", nargs="+", default=["kind=resnet", "blocks=2", "channels=32"])
    ap.add_argument("--opponents", default="alphabeta(depth=2); alphabeta(depth=4)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--held-out", type=float, default=0.0,
                    help="the last positions kept out of training: a fraction below 1, or a count")
    ap.add_argument("--save")
    ap.add_argument("--init", help="start from this network checkpoint (a path or zoo:NAME) instead of --net")
    ap.add_argument("--lr-decay", action="store_true", help="cosine decay of the learning rate to 0 over the steps")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    from zerosum.nets import NetConfig, build_network, save_network
    from zerosum.training.alphazero import AlphaZeroConfig, Learner, ReplayBuffer, evaluate_network
    from zerosum.training.labeller import load_dataset
    from zerosum.training.selfplay import Games

    if args.held_out < 0.0 or (args.held_out >= 1.0 and not args.held_out.is_integer()):
        raise SystemExit(f"--held-out {args.held_out}: a fraction in [0, 1) or a whole count of positions is required")
    if args.limit is not None and args.limit <= 0:
        raise SystemExit(f"--limit {args.limit}: a positive count of positions is required")
    data = _concatenate([_buffer_dataset(Path(p)) if p.endswith(".pt") else load_dataset(p) for p in args.labels],
                        unique=args.unique, drop_overlap=args.drop_overlap)
    game = make_game(data.meta["game"], **data.meta["variant"])
    held_out = round(args.held_out * len(data)) if args.held_out < 1.0 else int(args.held_out)
    if held_out >= len(data):
        raise SystemExit(f"--held-out {args.held_out}: the labels hold only {len(data)} positions")
    policy = data.policy.astype(np.float64) ** args.sharpen
    policy = (policy / policy.sum(axis=1, keepdims=True)).astype(np.float32)
    n_train = len(data) - held_out
    first = min(n_train, args.limit or n_train)
    net_cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in parse_assignments(args.net, "--net").items()}
    init = None
    if args.init:
        from zerosum.nets import load_network

        init, meta = load_network(args.init, game)
        net_cfg = dict(meta["net"])
        args.net = [f"init={args.init}"]
    cfg = AlphaZeroConfig(game=game.name, net=net_cfg, symmetry=True, lr=args.lr, buffer_size=first,
                          eval_opponents=split_top_level(args.opponents), eval_games=args.games, eval_openings=2,
                          iterations=0, labels=first, label_steps=args.steps, seed=args.seed, out=None)
    net = init if init is not None else build_network(game, NetConfig.from_dict(net_cfg))
    learner = Learner(game, cfg, net)
    buf = ReplayBuffer(first, tuple(game.observation_shape), game.num_actions)
    buf.add(Games(data.obs[:first], data.mask[:first], policy[:first], data.value[:first]))
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    losses = (learner.anneal if args.lr_decay else learner.train)(buf, args.steps, rng)
    train_s = time.perf_counter() - t0
    held = _held_out(net, data.obs[n_train:], data.mask[n_train:], data.policy[n_train:])
    summary = evaluate_network(net, game, cfg, seed=args.seed)
    rows = [{"game": game.name, "net": " ".join(args.net), "labels": first, "depth": data.meta.get("depth"),
             "sharpen": args.sharpen, "lr_decay": args.lr_decay, **held,
             "steps": args.steps, "train_s": round(train_s, 1), "policy_loss": round(losses["policy_loss"], 3),
             "value_loss": round(losses["value_loss"], 3), "opponent": r["opponent"], "games": r["games"],
             "wdl": f"{r['wins']}/{r['draws']}/{r['losses']}", "score": round(r["score"], 3),
             "load": round(os.getloadavg()[0], 2)} for r in summary["rows"]]
    if args.save:
        command = shlex.join(["python", "bench/labels_only.py", *sys.argv[1:]])
        save_network(args.save, net, game, NetConfig.from_dict(net_cfg),
                     metadata={"train_steps": args.steps, "command": command, "evaluation": summary})
    emit("labels_only", rows, list(rows[0]))


def _rows(obs: np.ndarray, policy: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Each position's planes and label as one comparable bytes value."""
    rows = np.concatenate([obs.reshape(len(obs), -1).astype(np.int8), policy.view(np.int8).reshape(len(policy), -1),
                           value.view(np.int8).reshape(len(value), -1)], axis=1)
    return np.ascontiguousarray(rows).view(np.dtype((np.void, rows.shape[1]))).ravel()


def _overlap(before: np.ndarray, after: np.ndarray) -> int:
    """The length of the longest start of ``after`` that repeats the end of ``before``."""
    for j in np.flatnonzero(before == after[0]) if len(after) else []:
        k = len(before) - int(j)
        if k <= len(after) and (before[j:] == after[:k]).all():
            return k
    return 0


def _concatenate(parts: list, *, unique: bool, drop_overlap: bool = False) -> object:
    """Several label sets as one, in order. With ``drop_overlap`` a set's oldest positions are
    dropped where they repeat the newest of the set before it; with ``unique`` a position whose
    planes and label appeared before is dropped. Sets from another game or labeller are refused."""
    from zerosum.training.labeller import Dataset

    keys = ("game", "variant", "depth", "quiescence", "fast_wins")
    for p in parts[1:]:
        if any(p.meta.get(k) != parts[0].meta.get(k) for k in keys):
            raise SystemExit(f"--labels: {p.meta.get('source')} was made with "
                             f"{ {k: p.meta.get(k) for k in keys} }, the first with "
                             f"{ {k: parts[0].meta.get(k) for k in keys} }; only labels made alike can be joined")
    rows = [_rows(p.obs, p.policy, p.value) for p in parts] if unique or drop_overlap else []
    skip = [0] + [_overlap(rows[i - 1], rows[i]) if drop_overlap else 0 for i in range(1, len(parts))]
    obs, mask, policy, value = (np.concatenate([getattr(p, f)[k:] for p, k in zip(parts, skip)])
                                for f in ("obs", "mask", "policy", "value"))
    if unique:
        _, first = np.unique(np.concatenate([r[k:] for r, k in zip(rows, skip)]), return_index=True)
        keep = np.sort(first)
        obs, mask, policy, value = obs[keep], mask[keep], policy[keep], value[keep]
    meta = dict(parts[0].meta, positions=len(obs), source=[p.meta.get("source") for p in parts])
    return Dataset(obs, mask, policy, value, meta)


def _buffer_dataset(path: Path) -> object:
    """The replay buffer of a run's ``state.pt``, oldest position first, as a labels Dataset
    (its game and label settings from the ``run.json`` beside it)."""
    import json

    import torch

    from zerosum.training.labeller import DATASET_FORMAT, Dataset
    from zerosum.training.learner import ReplayBuffer

    try:
        state = torch.load(path, map_location="cpu", weights_only=False)
        settings = json.loads((path.parent / "run.json").read_text())["settings"]
    except (OSError, KeyError, ValueError) as exc:
        raise SystemExit(f"--labels {path}: not a run's state.pt with its run.json beside it ({exc})") from None
    game = make_game(settings["game"], **settings["variant"])
    buf = ReplayBuffer(int(state["buffer"]["size"]), tuple(game.observation_shape), game.num_actions)
    buf.restore(state["buffer"])
    g = buf.oldest_first()
    meta = {"format": DATASET_FORMAT, "game": game.name, "variant": dict(game.variant),
            "depth": settings.get("label_depth"), "quiescence": settings.get("label_quiescence"),
            "fast_wins": settings.get("label_fast_wins", False),
            "positions": len(g), "source": str(path)}
    return Dataset(g.obs, g.mask, g.policy, g.value, meta)


def _held_out(net: object, obs: np.ndarray, mask: np.ndarray, policy: np.ndarray) -> dict[str, object]:
    """The network's greedy legal move on held-out labelled positions, judged as ``bench/blunders.py`` does."""
    if not len(obs):
        return {}
    from blunders import judge

    from zerosum.nets import NetworkEvaluator

    evaluate = NetworkEvaluator(net)
    logits = np.concatenate([evaluate(obs[i:i + 1024], mask[i:i + 1024])[0] for i in range(0, len(obs), 1024)])
    agree, blunder = judge(policy, np.where(mask > 0, logits, -np.inf).argmax(axis=1))
    return {"held_out": len(obs), "agrees": round(float(agree.mean()), 3), "blunders": round(float(blunder.mean()), 4)}


if __name__ == "__main__":
    main()
