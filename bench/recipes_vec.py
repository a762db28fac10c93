"""The PPO recipes on single-agent envs (``--vec dummy``) against the compiled vector env
(``--vec zerosum``, what the recipes use now): time to each recipe's target, env steps/s and
the final scores, both ways from the same seed in the same run (issue 31's item 5).

    python bench/recipes_vec.py [--recipes tictactoe connect_four pentago] [--seed 0]
        [--seconds 600] [--max-seconds S] [--steps N] [--eval-games G] [--eval-every N]
        [--vecs dummy zerosum] [--out DIR] [-v]

Each recipe trains as ``zerosum train --recipe NAME --vec V --seed S`` would (its own steps,
opponents and periodic evaluation), once per ``--vecs`` entry. The targets:

* ``tictactoe``: the first periodic evaluation (every 25k steps, the recipe's) whose
  exhaustive walk loses 0 lines (both seats, every opponent move, from the empty board and
  after one random ply, as the recipe evaluates).
* ``connect_four``: the first periodic evaluation whose score against alphabeta(depth=1)
  over both seats (the recipe's 50 games a seat) reaches **0.80**: the recipe's documented
  end-of-run level (1.00 first / 0.64 second, 0.82 over both seats; docs/tutorials/
  train-maskable-ppo.md) rounded down. ``--eval-every`` defaults to 50k here (the recipe's
  100k halves the resolution; the evaluation does not change what the learner trains on).
* ``pentago``: no threshold: ``--seconds`` of training (evaluation excluded), then the score
  against alphabeta(depth=1) and alphabeta(depth=2), 50 games a seat.

Time to target is the training time (rollouts and updates, evaluation excluded) at the
evaluation that first met the target, so it is only as fine as ``eval_every``; a run that
never meets it shows ``-``. ``--max-seconds`` caps every run's training time (and a Pentago
run's budget); ``--steps``, ``--eval-games`` and ``--eval-every`` override the recipe (for a
quick check that the script works, not for figures). Each row prints the load average beside
it: on a shared machine compare only rows of one run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from _report import emit

RECIPES = ("tictactoe", "connect_four", "pentago")
C4_THRESHOLD = 0.80
"""Connect Four's target: the score against alphabeta(depth=1) over both seats."""


def _by_steps(rows: list[dict[str, Any]], keep: Any) -> list[tuple[int, float, list[dict[str, Any]]]]:
    """(steps, training seconds, rows) of each evaluation, in order, rows filtered by ``keep``."""
    out: dict[int, tuple[float, list[dict[str, Any]]]] = {}
    for r in rows:
        if keep(r):
            out.setdefault(int(r["steps"]), (float(r["seconds"]), []))[1].append(r)
    return [(steps, seconds, kept) for steps, (seconds, kept) in sorted(out.items())]


def _score(rows: list[dict[str, Any]]) -> float | None:
    games = sum(r["games"] for r in rows)
    return round(sum(r["score"] * r["games"] for r in rows) / games, 4) if games else None


def time_to_target(name: str, rows: list[dict[str, Any]]) -> tuple[int | None, float | None]:
    """(steps, training seconds) of the first evaluation that met the recipe's target, or (None, None)."""
    if name == "tictactoe":
        evals = _by_steps(rows, lambda r: r["opponent"] == "every line")
        hit = [(s, t) for s, t, kept in evals if sum(r["losses"] for r in kept) == 0]
    elif name == "connect_four":
        evals = _by_steps(rows, lambda r: r["opponent"] == "alphabeta(depth=1)" and r["openings"] == 0)
        hit = [(s, t) for s, t, kept in evals if (_score(kept) or 0.0) >= C4_THRESHOLD]
    else:
        return None, None
    return hit[0] if hit else (None, None)


def final_scores(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The last evaluation: the score over both seats per opponent (empty board), and lines lost."""
    if not rows:
        return {}
    last = max(int(r["steps"]) for r in rows)
    at = [r for r in rows if int(r["steps"]) == last]
    out: dict[str, Any] = {}
    for opponent in dict.fromkeys(r["opponent"] for r in at):
        kept = [r for r in at if r["opponent"] == opponent and (r["openings"] == 0 or opponent == "every line")]
        if opponent == "every line":
            out["lines_lost"] = sum(r["losses"] for r in kept)
        else:
            out[f"vs {opponent}"] = _score(kept)
    return out


def run(name: str, vec: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    from zerosum.training.recipes import recipe
    from zerosum.training.train import train

    overrides: dict[str, Any] = {"seed": args.seed, "vec": vec, "out": str(out / f"{name}_{vec}"),
                                 "verbose": args.verbose, "tensorboard": False}
    cap = args.max_seconds
    if name == "pentago":
        overrides.update(max_seconds=min(args.seconds, cap) if cap else args.seconds, steps=10**9, eval_every=0,
                         save_every=0)
    elif cap:
        overrides["max_seconds"] = cap
    if name == "connect_four":
        overrides["eval_every"] = 50_000
    for key in ("steps", "eval_games", "eval_every"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    cfg = recipe(name, **overrides)
    load = os.getloadavg()[0]
    cpu0, t0 = time.process_time(), time.perf_counter()
    res = train(cfg, overwrite=True)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    steps_at, seconds_at = time_to_target(name, res.eval_rows)
    return {"recipe": name, "vec": vec, "seed": args.seed, "steps": res.steps, "train_s": round(res.seconds, 1),
            "eval_s": round(res.eval_seconds, 1), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "steps_per_s": round(res.steps_per_second), "target_s": seconds_at, "target_steps": steps_at,
            **final_scores(res.eval_rows), "load": f"{load:.1f}-{os.getloadavg()[0]:.1f}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recipes", nargs="+", default=list(RECIPES), choices=RECIPES)
    ap.add_argument("--vecs", nargs="+", default=["dummy", "zerosum"], choices=("dummy", "zerosum"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=600.0, help="pentago: the training budget (seconds)")
    ap.add_argument("--max-seconds", type=float, default=None, help="cap every run's training time (seconds)")
    ap.add_argument("--steps", type=int, default=None, help="override the recipes' steps (quick checks)")
    ap.add_argument("--eval-games", type=int, default=None, help="override the games per seat of each evaluation")
    ap.add_argument("--eval-every", type=int, default=None, help="override the steps between evaluations")
    ap.add_argument("--out", default=None, help="keep the runs here (default: a temporary directory)")
    ap.add_argument("-v", "--verbose", type=int, nargs="?", const=1, default=0)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out or tmp)
        for name in args.recipes:
            for vec in args.vecs:
                rows.append(run(name, vec, args, out))
    for r in rows:  # each recipe's vector run against its dummy run
        base = next((b for b in rows if b["recipe"] == r["recipe"] and b["vec"] == "dummy"), None)
        if base is not None and r["vec"] != "dummy":
            r["speedup_steps"] = round(r["steps_per_s"] / base["steps_per_s"], 2) if base["steps_per_s"] else None
            if r["target_s"] and base["target_s"]:
                r["speedup_target"] = round(base["target_s"] / r["target_s"], 2)
    scores = sorted({k for r in rows for k in r if k.startswith("vs ") or k == "lines_lost"})
    emit("recipes_vec", rows, ["recipe", "vec", "steps", "train_s", "steps_per_s", "target_s", "target_steps",
                               *scores, "speedup_steps", "speedup_target", "load"],
         {"targets": {"tictactoe": "0 lines lost in the exhaustive walk",
                      "connect_four": f"score >= {C4_THRESHOLD} against alphabeta(depth=1) over both seats",
                      "pentago": f"scores after {args.seconds:g} s of training"}})


if __name__ == "__main__":
    main()
