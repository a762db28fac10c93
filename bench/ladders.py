"""The shipped ladders: span, calibration, consistency, and how long a placement takes.

    python bench/ladders.py                       # every shipped ladder, placements of 200 games
    python bench/ladders.py --games 40 --only tictactoe,nim

For each ladder in zerosum/evaluation/ladders/:
- span: the top rung's Elo above random, the rungs, the widest 95% half-interval, the build time;
- calibration: for the pairs two or more rungs apart, the score the ratings predict against the
  score observed, as a mean absolute error in score (target <= 0.05);
- neighbours: the lowest and highest score between adjacent rungs (target 0.2-0.8);
- consistency: the middle rung placed again as if it were new, with seeds the build never used
  (``zerosum.rate(spec, game, games=N, seed=1000)``): does it land within its own interval?
- placement time: that placement's wall time here (target: 15 minutes for a 0.1 s-a-move agent).

``--place`` instead places each game's ``default_opponent`` and the model zoo's networks (alone
and with 64 simulations) on the shipped ladders and writes ``docs/results/placements.json``,
which the Ratings page shows, each entry with the command that measures it again:

    python bench/ladders.py --place --only tictactoe,connect_four
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("ZEROSUM_TIER", "auto")  # placements load the games' own copies as they compile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import emit, headline

from zerosum.evaluation.placement import rate
from zerosum.evaluation.ratings import expected_score
from zerosum.evaluation.scale import Ladder, ladder, shipped
from zerosum.games import make_game

PLACEMENTS = Path(__file__).resolve().parents[1] / "docs" / "results" / "placements.json"
ZOO = Path(__file__).resolve().parents[1] / "zerosum" / "nets" / "zoo"


def agents_to_place(game: str) -> list[str]:
    """The game's default opponent, and its zoo network alone and with 64 simulations where one ships."""
    out = [make_game(game).default_opponent]
    if (ZOO / f"{game}.pt").exists():
        out += [f"alphazero(path=zoo:{game}, sims=0)", f"alphazero(path=zoo:{game}, sims=64)"]
    return out


def place_all(games: list[str], n: int) -> None:
    """Place every agent of :func:`agents_to_place` and merge the results into PLACEMENTS."""
    rows = json.loads(PLACEMENTS.read_text()) if PLACEMENTS.exists() else []
    for game in games:
        for spec in agents_to_place(game):
            t0 = time.perf_counter()
            r = rate(spec, game, games=n, seed=0)
            command = f'zerosum evaluate "{spec}" --game {game} --ladder --games {n}'
            keep = ("elo", "low", "high", "scale_half_width", "beyond", "games", "cost")
            row = {"game": game, "agent": spec, **{k: r.as_dict()[k] for k in keep},
                   "seconds": round(time.perf_counter() - t0, 1), "command": command}
            rows = [x for x in rows if (x["game"], x["agent"]) != (game, spec)] + [row]
            print(json.dumps(row), flush=True)
    PLACEMENTS.write_text(json.dumps(sorted(rows, key=lambda x: (x["game"], x["agent"])), indent=1) + "\n")


def calibration(lad: Ladder) -> tuple[float | None, int]:
    """Mean absolute error between predicted and observed scores of pairs two or more rungs apart."""
    index = {r.spec: i for i, r in enumerate(lad.rungs)}
    errors = [abs(expected_score(lad.rung(p.a).elo, lad.rung(p.b).elo) - p.score) for p in lad.pairs
              if abs(index[p.a] - index[p.b]) >= 2 and p.games]
    return (sum(errors) / len(errors) if errors else None), len(errors)


def neighbours(lad: Ladder) -> tuple[float, float]:
    """The lowest and highest score of a rung against the next one up."""
    index = {r.spec: i for i, r in enumerate(lad.rungs)}
    scores = [1.0 - p.score for p in lad.pairs if abs(index[p.a] - index[p.b]) == 1]
    return min(scores), max(scores)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games of the consistency placement (200)")
    ap.add_argument("--only", default="", help="comma-separated games (default: every shipped ladder)")
    ap.add_argument("--no-placement", action="store_true", help="the ladders' own figures only")
    ap.add_argument("--place", action="store_true", help="place the default opponents and zoo networks instead")
    args = ap.parse_args()
    games = [g for g in args.only.split(",") if g] or shipped()
    if args.place:
        place_all(games, args.games)
        return
    rows, heads = [], []
    for name in games:
        lad = ladder(name)
        mae, n_far = calibration(lad)
        lo, hi = neighbours(lad)
        mid = lad.rungs[len(lad.rungs) // 2]
        row = {"game": name, "rungs": len(lad.rungs), "top": lad.top.spec, "span": lad.top.elo,
               "max_half_width": max(r.half_width for r in lad.rungs), "games_per_pair": lad.built["games_per_pair"],
               "build_s": lad.built["seconds"], "play_s": lad.built.get("play_seconds"), "calibration_mae": mae,
               "far_pairs": n_far,
               "neighbour_min": lo, "neighbour_max": hi}
        if not args.no_placement:
            t0 = time.perf_counter()
            r = rate(mid.spec, name, games=args.games, seed=1000)
            row.update({"placed": mid.spec, "rung_elo": mid.elo, "placed_elo": round(r.elo, 1),
                        "placed_low": round(r.low, 1), "placed_high": round(r.high, 1),
                        "within": bool(mid.low <= r.elo <= mid.high or r.low <= mid.elo <= r.high),
                        "placement_s": round(time.perf_counter() - t0, 1),
                        "placed_s_per_move": r.cost.get("seconds")})
        rows.append(row)
        if mae is not None:
            heads.append(headline(f"{name} ladder calibration error (score)", round(mae, 3), target="<= 0.05"))
    emit("ladders", rows, ["game", "rungs", "top", "span", "max_half_width", "games_per_pair", "build_s", "play_s",
                           "calibration_mae", "neighbour_min", "neighbour_max", "placed", "rung_elo", "placed_elo",
                           "within", "placement_s"], {"headline": heads})


if __name__ == "__main__":
    main()
