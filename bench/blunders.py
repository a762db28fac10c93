"""How often a network alone plays a move its teacher calls a blunder, in its own games against the ladder.

    python bench/blunders.py --path zoo:connect_four [--game connect_four] [--games 200] \\
        [--opponents "alphabeta(depth=2); alphabeta(depth=4)"] [--depth 10] [--no-quiescence]

The network alone (``sims=0``: its greedy legal move, nothing sampled) plays ``games`` games
against each opponent (seats alternating, 2-4 random opening plies;
:func:`zerosum.training.labeller.ladder`). Alpha-beta at ``depth`` (with the engine's
quiescence unless ``--no-quiescence``) labels every position, and the positions where the
network was to move are scored:

* **agrees**: the network's move is the label's best move (or ties it);
* **blunders**: the label gives the network's move under 1/1000 of the best move's weight,
  that is a value at least ~7 temperatures (52 heuristic units on Connect Four) below the
  best, or a proven loss where the best move does not lose;
* **games with a blunder**: the share of games in which the network blundered at least once;
* **into a loss**: the share of its moves that the label proves lost (a loss within the
  label's search, such as a move that leaves a win in one) where a move not proven lost
  existed: the sharpest kind of blunder, which no heuristic value blurs (a floor: a move
  searched only to a bound, far below the best, may hide one);
* **already lost**: the share of its moves made where the label proves every move lost;
* **wins let go**: the share of its moves made where the label proves a win and the move
  played is not a proven win (``--fast-wins`` labels prefer the nearest win: see the labeller).

A network scores 0.90 against an opponent only if few of its games hold a blunder that the
opponent can punish; these figures say how far it is from that, and whether the teacher's
own moves would do better (``--teacher`` plays the label's best move instead of the network).

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from _report import emit

from zerosum.games import make_game
from zerosum.search import WIN_BOUND
from zerosum.values import split_top_level

BLUNDER = 1e-3
"""A move whose policy weight in the label is under this share of the best move's is a blunder."""


def judge(policy: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each position (a row of label policies) and the move played there: whether the move is
    the label's best (or ties it), and whether it is a blunder (:data:`BLUNDER`)."""
    weight, best = policy[np.arange(len(moves)), moves], policy.max(axis=1, initial=0.0)
    return weight >= best, weight < BLUNDER * best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--path", required=True, help="a zerosum.nets checkpoint, or zoo:NAME")
    ap.add_argument("--game", default="connect_four")
    ap.add_argument("--games", type=int, default=200, help="games against each opponent")
    ap.add_argument("--opponents", default="alphabeta(depth=2); alphabeta(depth=4)")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--quiescence", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--fast-wins", action="store_true", help="labels prefer the nearest proven win")
    ap.add_argument("--teacher", action="store_true", help="play the label's best move instead of the network's")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    from zerosum.nets import load_network
    from zerosum.training.labeller import Labeller, ladder
    from zerosum.training.selfplay import network_logits

    game = make_game(args.game)
    net, _ = load_network(args.path, game)
    net.eval()
    labeller = Labeller(game, args.depth, quiescence=args.quiescence, fast_wins=args.fast_wins)

    rows = []
    for k, spec in enumerate(split_top_level(args.opponents, ";")):
        start = time.perf_counter()
        found, (w, d, lost) = ladder(game, None if args.teacher else network_logits(net), [spec], args.games,
                                     labeller=labeller, seed=args.seed + k, sample=0.0)
        moves = [r for r in found if r.learner]
        agree, blunder = judge(np.array([r.label.policy for r in moves]).reshape(len(moves), game.num_actions),
                               np.array([r.move for r in moves], dtype=np.int64))
        blunders = [r.game for r, b in zip(moves, blunder) if b]
        values = [r.label.move_values for r in moves]
        best = np.array([np.nanmax(v) for v in values])
        played = np.array([v[r.move] for r, v in zip(moves, values)])
        into_loss = int(((played <= -WIN_BOUND) & (best > -WIN_BOUND)).sum())
        already_lost = int((best <= -WIN_BOUND).sum())
        wins_let_go = int(((best >= WIN_BOUND) & (played < WIN_BOUND)).sum())
        rows.append({"agent": "teacher" if args.teacher else args.path, "opponent": spec, "games": args.games,
                     "wdl": f"{w}/{d}/{lost}", "score": round((w + 0.5 * d) / args.games, 3), "moves": len(moves),
                     "agrees": round(int(agree.sum()) / max(len(moves), 1), 3),
                     "blunders": round(len(blunders) / max(len(moves), 1), 4),
                     "games_with_blunder": round(len(set(blunders)) / args.games, 3),
                     "into_loss": round(into_loss / max(len(moves), 1), 4),
                     "already_lost": round(already_lost / max(len(moves), 1), 4),
                     "wins_let_go": round(wins_let_go / max(len(moves), 1), 4),
                     "seconds": round(time.perf_counter() - start, 1)})
    emit("blunders", rows, ["agent", "opponent", "games", "wdl", "score", "moves", "agrees", "blunders",
                            "games_with_blunder", "into_loss", "already_lost", "wins_let_go", "seconds"],
         {"depth": args.depth, "quiescence": args.quiescence, "fast_wins": args.fast_wins, "blunder": BLUNDER})


if __name__ == "__main__":
    main()
