"""What the ladder's label cache saves: ladder rounds labelled with and without it.

    python bench/label_cache.py [--path zoo:connect_four] [--game connect_four] [--rounds 4] \\
        [--games 100] [--opponents "alphabeta(depth=2); alphabeta(depth=4)"] [--depth 10] [--no-quiescence]

The network alone plays ``rounds`` ladder rounds of ``games`` games against the opponents in
turn (:func:`zerosum.training.selfplay.ladder_games`, a quarter of its moves sampled, each round its
own seed), every position labelled by alpha-beta at ``depth``, as a run's ladder rounds are.
The same rounds are played twice, in one process: once by a plain
:class:`~zerosum.training.labeller.Labeller`, once through a
:class:`~zerosum.training.label_cache.LabelCache` (the run's, :func:`zerosum.training.selfplay.ladder_labeller`).
The games are the same both times (the moves do not depend on the labels), so the difference
is the time saved. One network plays every round, where a run's changes from round to round,
so positions past the opening repeat less in a run than here.

Reported per round: positions, those given from the cache, seconds of labelling (the games'
time, the labels' included) without and with the cache, and the share saved; then the total.
Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit

from zerosum.games import make_game
from zerosum.values import split_top_level


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--path", default="zoo:connect_four", help="a zerosum.nets checkpoint, or zoo:NAME")
    ap.add_argument("--game", default="connect_four")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--games", type=int, default=100, help="games a round")
    ap.add_argument("--opponents", default="alphabeta(depth=2); alphabeta(depth=4)")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--quiescence", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.rounds < 1 or args.games < 1:
        raise SystemExit("--rounds and --games take positive whole numbers")
    import torch

    torch.set_num_threads(1)
    from zerosum.nets import load_network
    from zerosum.training.labeller import Labeller
    from zerosum.training.selfplay import ladder_games, ladder_labeller

    game = make_game(args.game)
    net, _ = load_network(args.path, game)
    net.eval()
    opponents = split_top_level(args.opponents, ";")
    options = {"quiescence": args.quiescence}
    seconds: dict[str, list[float]] = {"plain": [], "cached": []}
    positions: list[int] = []
    hits: list[int] = []
    for kind, labeller in (("plain", Labeller(game, args.depth, **options)),
                           ("cached", ladder_labeller(game, args.depth, options))):
        for r in range(args.rounds):
            played = ladder_games(game, net, labeller, args.games, opponents, args.seed + 1000 * r)
            seconds[kind].append(played.seconds)
            if kind == "plain":
                positions.append(len(played))
            else:
                if len(played) != positions[r]:
                    raise SystemExit(f"round {r + 1}: the games differed between the two passes")
                hits.append(played.kept)
    rows = []
    for r in range(args.rounds):
        plain, cached = seconds["plain"][r], seconds["cached"][r]
        rows.append({"round": r + 1, "positions": positions[r], "from_cache": hits[r], "s_plain": round(plain, 1),
                     "s_cached": round(cached, 1), "saved": round(1 - cached / plain, 3)})
    plain, cached = sum(seconds["plain"]), sum(seconds["cached"])
    rows.append({"round": "all", "positions": sum(positions), "from_cache": sum(hits), "s_plain": round(plain, 1),
                 "s_cached": round(cached, 1), "saved": round(1 - cached / plain, 3)})
    emit("label_cache", rows, ["round", "positions", "from_cache", "s_plain", "s_cached", "saved"],
         {"path": args.path, "game": args.game, "depth": args.depth, "quiescence": args.quiescence,
          "games": args.games, "opponents": opponents, "load": round(os.getloadavg()[0], 2)})


if __name__ == "__main__":
    main()
