"""AlphaZero self-play throughput per recipe: games per hour and simulations per second.

    python bench/alphazero.py [--recipes az_tictactoe,az_connect_four,az_pentago] [--games 64]

For each recipe, one :class:`~zerosum.training.alphazero.SelfPlayWorker` (one process, one
torch thread: what one self-play process of a run does) with the recipe's network (freshly
initialised: its weights do not change the cost), search rule, simulations, lanes and
playout cap plays ``games`` games after a warm-up of a few games (numba's compilation,
torch's first calls). Reported: games/hour and simulations/s of that one process (a run has
the learner on the other core), positions recorded per game, and the load average (other
work on the machine lowers every figure).

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import emit, headline

from zerosum.training.alphazero import AZ_RECIPES, az_recipe


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recipes", default=",".join(sorted(AZ_RECIPES)))
    ap.add_argument("--games", type=int, default=0, help="games per recipe (default: the recipe's games per iteration)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    from zerosum.training.alphazero import SelfPlayWorker
    from zerosum.training.alphazero.data import PlayJob, WorkerSpec

    rows = []
    heads = []
    for name in args.recipes.split(","):
        cfg = az_recipe(name)
        sp = cfg.selfplay
        games = args.games or sp.games_per_iteration
        worker = SelfPlayWorker(WorkerSpec(cfg.game, dict(cfg.variant), dict(cfg.net), sp, seed=0))
        worker.run(PlayJob(None, min(8, sp.lanes)))  # warm-up: compilation, first calls
        played = worker.run(PlayJob(None, games))
        per_hour = played.games / played.seconds * 3600
        sims = played.simulations / played.seconds
        rows.append({"recipe": name, "game": cfg.game, "rule": sp.rule, "sims": sp.sims, "lanes": sp.lanes,
                     "full_search_prob": sp.full_search_prob, "games": played.games,
                     "seconds": round(played.seconds, 2), "games_per_hour": round(per_hour),
                     "sims_per_s": round(sims), "moves_per_s": round(played.moves / played.seconds),
                     "recorded_per_game": round(len(played) / played.games, 1),
                     "load": round(os.getloadavg()[0], 2)})
        heads.append(headline(f"{name} self-play games/hour (one process)", per_hour))
    emit("alphazero", rows, list(rows[0]), {"headline": heads})


if __name__ == "__main__":
    main()
