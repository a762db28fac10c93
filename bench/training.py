"""Training strength and speed: the figures of issue 8.

    python bench/training.py tictactoe [--seeds 0 1 2] [--games 500]
        the `tictactoe` recipe (MaskablePPO, <= 100k steps): wall and CPU time, training
        steps/s, then 500 deterministic games per seat against random
    python bench/training.py speed [--steps 30000]
        training steps/s of tic-tac-toe against random (recipe settings), and the wrapper alone
    python bench/training.py pentago [--minutes 30] [--games 50]
        the `pentago` recipe against alphabeta(depth=1) for a time budget, with the score curve
    python bench/training.py pentago_speed [--steps 5000]
        training steps/s of Pentago against alphabeta(depth=2)

Each case prints one JSON line and a table. The machine is shared: CPU seconds of this
process (torch runs on one thread) are printed next to wall time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from _report import emit, headline


def play_vs(checkpoint: Any, opponent: str, game_name: str, games: int, seed: int) -> list[dict[str, Any]]:
    """The checkpoint (deterministic, masked) against ``opponent`` in both seats."""
    import zerosum

    report = zerosum.evaluate(f"ppo(path={checkpoint})", game_name, [opponent], games=2 * games, seed=seed)
    r = report.results[0]
    return [{"opponent": opponent, "seat": seat, "games": rec.games, "wins": rec.wins, "draws": rec.draws,
             "losses": rec.losses, "score": rec.score} for seat, rec in enumerate((r.first, r.second))]


def case_tictactoe(args: argparse.Namespace) -> None:
    from zerosum.training.recipes import recipe
    from zerosum.training.train import train

    rows = []
    for seed in args.seeds:
        cfg = recipe("tictactoe", seed=seed, out=f"{args.out}/tictactoe_seed{seed}", eval_every=0, eval_games=0,
                     **({"steps": args.steps} if args.steps else {}))
        cpu0, t0 = time.process_time(), time.perf_counter()
        res = train(cfg)
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        for r in play_vs(res.checkpoint, "random", "tictactoe", args.games, seed=1000 + seed):
            rows.append({"seed": seed, "steps": res.steps, "train_s": round(res.seconds, 1), "wall_s": round(wall, 1),
                         "cpu_s": round(cpu, 1), "steps_per_s": round(res.steps_per_second), "seat": r["seat"],
                         "games": r["games"], "won": r["wins"], "drawn": r["draws"], "lost": r["losses"]})
    emit("training_tictactoe_vs_random", rows,
         ["seed", "steps", "train_s", "wall_s", "cpu_s", "steps_per_s", "seat", "games", "won", "drawn", "lost"],
         {"recipe": recipe("tictactoe").hyperparameters(), "opponents": recipe("tictactoe").opponent})


def case_speed(args: argparse.Namespace) -> None:
    from zerosum.training.recipes import recipe
    from zerosum.training.single_agent import SingleAgentEnv
    from zerosum.training.train import train

    env = SingleAgentEnv("tictactoe", "random")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    n, t0 = 0, time.perf_counter()
    while n < 50_000:
        _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        n += 1
        if done:
            env.reset()
    env_rate = n / (time.perf_counter() - t0)
    rows = [{"what": "wrapper alone, random actions", "steps": n, "steps_per_s": round(env_rate)}]
    for name, over in (("recipe tictactoe (vs random)", {"opponent": "random"}),
                       ("recipe with 4 epochs, 64x64", {"opponent": "random", "net_arch": (64, 64),
                                                        "algo_kwargs": {"n_epochs": 4}})):
        cpu0 = time.process_time()
        res = train(recipe("tictactoe", steps=args.steps, out=None, eval_games=0, eval_every=0, **over))
        rows.append({"what": name, "steps": res.steps, "steps_per_s": round(res.steps_per_second),
                     "cpu_steps_per_s": round(res.steps / (time.process_time() - cpu0))})
    emit("training_speed_tictactoe", rows, ["what", "steps", "steps_per_s", "cpu_steps_per_s"],
         {"headline": [headline("tictactoe training steps/s vs random (recipe)", rows[1]["steps_per_s"], None,
                                ">= 2 k (aim)")]})


def case_pentago(args: argparse.Namespace) -> None:
    from zerosum.training.recipes import recipe
    from zerosum.training.train import train

    cfg = recipe("pentago", max_seconds=args.minutes * 60, steps=10**9, out=f"{args.out}/pentago",
                 eval_every=args.eval_every, eval_games=args.games, verbose=1, seed=args.seed)
    cpu0 = time.process_time()
    res = train(cfg)
    rows = [{k: r[k] for k in ("steps", "seconds", "opponent", "seat", "games", "wins", "draws", "losses", "score")}
            for r in res.eval_rows]
    emit("training_pentago_vs_alphabeta1", rows, ["steps", "seconds", "opponent", "seat", "games", "wins", "draws",
                                                  "losses", "score"],
         {"steps": res.steps, "train_seconds": res.seconds, "steps_per_second": res.steps_per_second,
          "cpu_seconds": time.process_time() - cpu0, "checkpoint": str(res.checkpoint)})


def case_pentago_speed(args: argparse.Namespace) -> None:
    from zerosum.training.recipes import recipe
    from zerosum.training.train import train

    rows = []
    for opp in ("alphabeta(depth=2)", "alphabeta(depth=1)", "random"):
        cpu0 = time.process_time()
        res = train(recipe("pentago", opponent=opp, steps=args.steps, out=None, eval_games=0, eval_every=0,
                           save_every=0))
        rows.append({"opponent": opp, "steps": res.steps, "seconds": round(res.seconds, 1),
                     "steps_per_s": round(res.steps_per_second),
                     "cpu_steps_per_s": round(res.steps / (time.process_time() - cpu0))})
    emit("training_speed_pentago", rows, ["opponent", "steps", "seconds", "steps_per_s", "cpu_steps_per_s"],
         {"headline": [headline("Pentago training steps/s vs alphabeta(depth=2) (recipe)", rows[0]["steps_per_s"],
                                None, ">= 1 k (aim)")]})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=["tictactoe", "speed", "pentago", "pentago_speed"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=None, help="evaluation games per seat")
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--eval-every", type=int, default=100_000)
    ap.add_argument("--out", default="bench/out")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    if args.games is None:
        args.games = 500 if args.case == "tictactoe" else 50
    if args.steps is None and args.case in ("speed", "pentago_speed"):
        args.steps = 30_000 if args.case == "speed" else 5_000
    {"tictactoe": case_tictactoe, "speed": case_speed, "pentago": case_pentago,
     "pentago_speed": case_pentago_speed}[args.case](args)


if __name__ == "__main__":
    main()
