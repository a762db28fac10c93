"""The shipped ladders: span, calibration, consistency, and how long a placement takes.

    python bench/ladders.py                       # every shipped ladder, placements of 200 games
    python bench/ladders.py --games 40 --only tictactoe,nim

For each ladder in zerosum/evaluation/ladders/:
- span: the top rung's Elo above random, the rungs, the widest 95% half-interval, the games a pair
  (least and most), the build time;
- calibration: for the pairs two or more rungs apart, the score the ratings predict against the
  score observed, as a mean absolute error in score (target <= 0.05);
- neighbours: the lowest and highest score between adjacent rungs (target 0.2-0.8);
- consistency: the middle rung placed again as if it were new, with seeds the build never used
  (``zerosum.rate(spec, game, games=N, seed=1000)``): does it land within its own interval?
- placement time: that placement's wall time here (target: 15 minutes for a 0.1 s-a-move agent).

``--place`` instead places each game's ``default_opponent`` and the model zoo's networks (alone
and with 64 simulations) on the shipped ladders and merges them into ``docs/results/placements.json``,
which the Ratings page shows as a method x game table, each entry with the command that measures it
again and, for a trained agent, the command that trained it (a zoo network's from its sidecar):

    python bench/ladders.py --place --only tictactoe,connect_four [--workers 2]

``--place --agent SPEC`` places one agent of your own on one game instead, e.g. a training recipe's
checkpoint, with the method it stands for in the table and the command that trained it:

    python bench/ladders.py --place --only tictactoe --agent "ppo(path=runs/ttt/best.zip)" \
        --method "PPO recipe" --trained "zerosum train --recipe tictactoe --out runs/ttt --seed 0" \
        --trained-note "300k steps, 5 min on 2 cores"

Each row: game, agent, method, elo, low, high, scale_half_width, beyond, games, cost, seconds (the
placement's wall time), command (the placement), and for a trained agent trained and trained_note.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

# the rungs' games load the games' own copies as they compile (a fixed cost plays the same moves on either
# copy); a time-budgeted agent's placement runs on its game's own copy, compiled first (zerosum.rate does it)
os.environ.setdefault("ZEROSUM_TIER", "auto")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _report import emit, headline

from zerosum.evaluation.placement import rate
from zerosum.evaluation.ratings import expected_score
from zerosum.evaluation.scale import Ladder, ladder, shipped
from zerosum.games import make_game

PLACEMENTS = Path(__file__).resolve().parents[1] / "docs" / "results" / "placements.json"
ZOO = Path(__file__).resolve().parents[1] / "zerosum" / "nets" / "zoo"


DEFAULT_OPPONENT = "default opponent"
ZOO_ALONE = "AlphaZero zoo network, alone"
ZOO_SEARCH = "AlphaZero zoo network, 64 simulations"


def zoo_specs(game: str) -> dict[str, str]:
    """The zoo network of ``game`` alone and with 64 simulations, each with its method; none if none ships."""
    if not (ZOO / f"{game}.pt").exists():
        return {}
    return {f"alphazero(path=zoo:{game}, sims=0)": ZOO_ALONE, f"alphazero(path=zoo:{game}, sims=64)": ZOO_SEARCH}


def zoo_training(game: str) -> dict[str, str]:
    """How the zoo network of ``game`` was trained, from its sidecar: ``trained`` (the command) and
    ``trained_note`` (the sidecar's note on that command, where it has one)."""
    meta = json.loads((ZOO / f"{game}.json").read_text())
    out = {"trained": meta["command"]}
    if meta.get("command_note"):
        out["trained_note"] = meta["command_note"]
    return out


def agents_to_place(game: str) -> dict[str, str]:
    """The game's default opponent, and its zoo network alone and with 64 simulations where one ships,
    each with the method it stands for in the Ratings page's method x game table."""
    return {make_game(game).default_opponent: DEFAULT_OPPONENT, **zoo_specs(game)}


def known_method(game: str, spec: str) -> dict[str, str]:
    """The method (and for a zoo network how it was trained) of an agent :func:`agents_to_place` places;
    empty for any other agent. Fills in rows placed before rows carried a method."""
    method = agents_to_place(game).get(spec)
    if method is None:
        return {}
    return {"method": method, **method_training(game, method)}


def method_training(game: str, method: str) -> dict[str, str]:
    """How an agent standing for ``method`` on ``game`` was trained: the zoo network's sidecar for a
    zoo method, nothing for the others."""
    return zoo_training(game) if method in (ZOO_ALONE, ZOO_SEARCH) else {}


def place_one(game: str, spec: str, n: int, method: str, trained: dict[str, str], workers: int = 1) -> dict[str, Any]:
    """Place ``spec`` on the ladder of ``game`` with ``n`` games (seed 0) on ``workers`` processes: the row
    placements.json keeps."""
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:  # a line a round: a placement runs minutes to half an hour
        print(f"{game} {spec}: {done}/{total} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    r = rate(spec, game, games=n, seed=0, workers=workers, progress=progress)
    keep = ("elo", "low", "high", "scale_half_width", "beyond", "games", "cost")
    return {"game": game, "agent": spec, "method": method, **{k: r.as_dict()[k] for k in keep},
            "seconds": round(time.perf_counter() - t0, 1),
            "command": f'zerosum evaluate "{spec}" --game {game} --ladder --games {n}'
                       + (f" --workers {workers}" if workers > 1 else ""), **trained}


def merge(rows: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with ``new`` in place of any row of the same game and agent; rows without a method get
    the one :func:`known_method` knows (their figures untouched), sorted by game and agent."""
    replaced = {(x["game"], x["agent"]) for x in new}
    kept = [x if "method" in x else {**x, **known_method(x["game"], x["agent"])}
            for x in rows if (x["game"], x["agent"]) not in replaced]
    return sorted(kept + new, key=lambda x: (x["game"], x["agent"]))


def place_all(games: list[str], n: int, agent: str | None = None, method: str | None = None,
              trained: dict[str, str] | None = None, workers: int = 1) -> None:
    """Place every agent of :func:`agents_to_place` (or the one ``agent``, standing for ``method``,
    trained as ``trained`` says) and merge the results into PLACEMENTS, written after each placement."""
    for game in games:
        todo = ({agent: (method or "", trained or {})} if agent is not None else
                {spec: (m, method_training(game, m)) for spec, m in agents_to_place(game).items()})
        for spec, (m, how) in todo.items():
            row = place_one(game, spec, n, m, how, workers)
            rows = json.loads(PLACEMENTS.read_text()) if PLACEMENTS.exists() else []
            PLACEMENTS.write_text(json.dumps(merge(rows, [row]), indent=1) + "\n")
            print(json.dumps(row), flush=True)


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
    ap.add_argument("--agent", help="with --place: place this agent spec alone (one game in --only)")
    ap.add_argument("--method", help="with --agent: the method it stands for, a row of the table ('PPO recipe')")
    ap.add_argument("--trained", help="with --agent: the command that trained it")
    ap.add_argument("--trained-note", help="with --agent: a note on that training (budget, wall time, machine)")
    ap.add_argument("--workers", type=int, default=1, help="with --place: games played at once (1)")
    args = ap.parse_args()
    games = [g for g in args.only.split(",") if g] or shipped()
    if args.agent is not None and (not args.place or len(games) != 1 or not args.method):
        ap.error("--agent places one agent: give it with --place, --method and one game in --only "
                 f"(got --place={args.place}, --method={args.method!r}, --only={args.only!r})")
    if args.agent is None and (args.method or args.trained or args.trained_note):
        ap.error("--method, --trained and --trained-note describe the agent of --agent SPEC; give that too")
    if args.place:
        trained = {k: v for k, v in (("trained", args.trained), ("trained_note", args.trained_note)) if v}
        place_all(games, args.games, args.agent, args.method, trained, args.workers)
        return
    rows, heads = [], []
    for name in games:
        lad = ladder(name)
        mae, n_far = calibration(lad)
        lo, hi = neighbours(lad)
        mid = lad.rungs[len(lad.rungs) // 2]
        row = {"game": name, "rungs": len(lad.rungs), "top": lad.top.spec, "span": lad.top.elo,
               "max_half_width": max(r.half_width for r in lad.rungs), "games_per_pair": lad.built["games_per_pair"],
               "games_most": max(p.games for p in lad.pairs),
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
    emit("ladders", rows, ["game", "rungs", "top", "span", "max_half_width", "games_per_pair", "games_most", "build_s",
                           "play_s", "calibration_mae", "neighbour_min", "neighbour_max", "placed", "rung_elo",
                           "placed_elo", "within", "placement_s"], {"headline": heads})


if __name__ == "__main__":
    main()
