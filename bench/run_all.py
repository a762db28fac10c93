"""Run every benchmark and write one JSON file plus a Markdown table (``make bench``).

Each script in SCRIPTS prints one JSON document (then a table for people). A document
may carry a ``headline`` list of {what, ours, peer, ratio, target} entries; those are
gathered into the summary table at the top of the Markdown file, the rest follows per
script. Scripts that are missing (a game not landed) are listed as skipped.

    python bench/run_all.py [--out bench/out] [--only search,env_throughput] [--full]

``make bench`` runs the quick settings; ``make bench FULL=1`` (``--full``) each script's own
defaults, and the comparisons with earlier builds of zerosum.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# (script, quick arguments, full arguments, time limit of the full run in seconds); quick settings keep
# `make bench` under about 20 minutes, and a script whose quick arguments are None runs with FULL=1 only
# (it builds an earlier zerosum from the repository's history first). A quick run gets a third of the limit.
SCRIPTS: list[tuple[str, list[str] | None, list[str], int]] = [
    ("env_throughput.py", ["--seconds", "3"], [], 360),
    ("search.py", ["--repeat", "10"], [], 900),
    ("game_api.py", ["--games", "300"], [], 900),
    ("pentago.py", ["--quick"], [], 900),
    ("nine_mens_morris.py", ["--quick"], [], 900),
    ("halma.py", ["--quick"], [], 900),
    ("connect_four_kernels.py", ["--reps", "5"], [], 600),
    ("first_use.py", ["--no-user-game"], [], 1200),
    ("tournament.py", ["--quick"], [], 900),
    ("evaluate.py", ["--games", "1000", "--repeats", "2"], [], 900),
    ("vector.py", ["--quick"], [], 900),
    ("guided.py", ["--quick"], [], 900),
    ("nets.py", ["--seconds", "1", "--rounds", "1", "--puct-sims", "50"], [], 900),
    ("labeller.py", ["--positions", "100"], [], 900),
    ("learner_steps.py", ["--recipes", "az_connect_four", "--steps", "50"], [], 900),
    ("alphazero.py", ["--recipes", "az_tictactoe,az_connect_four", "--games", "16"], [], 1800),
    ("training.py", ["speed", "--steps", "20000"], ["speed"], 900),
    ("training.py", ["pentago_speed", "--steps", "4000"], ["pentago_speed"], 900),
    ("training.py", ["opponent_search", "--positions", "50"], ["opponent_search"], 900),
    ("training.py", None, ["opponent_cost", "--steps", "3000", "--repeat", "3"], 1800),
    ("vs_previous.py", None, [], 1800),
    ("vs_release.py", None, [], 3600),
    ("strength.py", None, ["--games", "100"], 6 * 3600),  # each game of issue 47 against OpenSpiel's MCTSBot(1000)
    ("ladders.py", ["--games", "40"], [], 6 * 3600),  # the shipped ladders: calibration, consistency, placement time
    # the games of issues 47 and 48 against their oracles (more games than the tests play), perft and speed
    ("othello.py", ["--games", "100", "--depth", "6"], [], 1800),
    ("hex_openspiel.py", ["--games", "50"], [], 1800),
    ("breakthrough.py", ["--quick"], [], 1800),
    ("checkers.py", ["oracle", "--games", "50"], ["oracle"], 1800),
    ("checkers.py", None, ["perft"], 3600),
    ("gomoku.py", ["--games", "30"], [], 1800),
    ("chess_oracles.py", ["--games", "10"], [], 3600),
    ("chess_speed.py", ["--games", "5", "--spiel-games", "20", "--seconds", "2"], [], 1800),
    ("chess_stockfish.py", None, [], 3600),
    ("go.py", ["--oracle-games", "9:100,13:10,19:2", "--perft", "5:3,9:2", "--games", "50", "--rounds", "3",
               "--seconds", "2"], [], 3600),
    ("go_strength.py", None, [], 6 * 3600),
    # issue 57's games: OpenSpiel at every step, perft, speed; strength against MCTSBot(1000) with FULL=1
    ("clobber.py", ["--quick"], ["--strength-games", "100"], 3600),
    ("ultimate_tic_tac_toe.py", ["--quick"], ["--strength-games", "100"], 3 * 3600),
    ("mancala.py", ["--quick"], ["--strength-games", "100"], 3600),
    ("oware.py", ["--quick"], ["--strength-games", "100"], 3 * 3600),
    ("dots_and_boxes.py", ["--quick"], ["--strength-games", "100"], 3600),
    ("y.py", ["--quick"], ["--strength-games", "100"], 3 * 3600),
    ("havannah.py", ["--quick"], ["--strength-games", "100"], 3 * 3600),
    ("lines_of_action.py", ["--quick"], ["--strength-games", "100"], 6 * 3600),
    ("amazons.py", ["--quick"], ["--strength-games", "100"], 12 * 3600),
]
"""Every benchmark in bench/ (tests/bench/test_run_all.py checks that none is left out)."""


def first_json(text: str) -> dict[str, Any]:
    """The first JSON object printed by a script."""
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object in the output")
    doc, _ = json.JSONDecoder().raw_decode(text[start:])
    return doc


def run(script: str, args: list[str], limit: int) -> dict[str, Any]:
    path = HERE / script
    if not path.exists():
        return {"script": script, "status": "skipped (not in this checkout)"}
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                              timeout=limit, cwd=HERE)
    except subprocess.TimeoutExpired:
        return {"script": script, "status": f"timed out after {limit} s"}
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"script": script, "status": f"failed (exit {proc.returncode})", "stderr": proc.stderr[-2000:]}
    try:
        doc = first_json(proc.stdout)
    except ValueError as exc:
        return {"script": script, "status": f"unreadable output: {exc}"}
    return {"script": script, "status": "ok", "seconds": round(elapsed, 1), "result": doc}


def fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:,.3g}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}"
    return "-" if v is None else str(v)


def table(rows: list[dict[str, Any]], columns: list[str] | None = None) -> list[str]:
    if not rows:
        return []
    cols = columns or list(dict.fromkeys(k for r in rows for k in r if not isinstance(r[k], (dict, list))))
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(fmt(r.get(c)) for c in cols) + " |" for r in rows]
    return out


def markdown(results: list[dict[str, Any]]) -> str:
    lines = ["# zerosum benchmarks", "", "Generated by `make bench` (`python bench/run_all.py`); every peer figure is",
             "measured in the same run as ours.", ""]
    headline = [h for r in results if r["status"] == "ok" for h in r["result"].get("headline", [])]
    if headline:
        lines += ["## Headline figures", "", *table(headline, ["what", "ours", "peer", "ratio", "target"])]
        lines += ["", "ratio: how many times better than the peer (faster, or more moves per second).", ""]
    for r in results:
        lines += [f"## {r['script']}", "", f"status: {r['status']}" + (f", {r['seconds']} s" if "seconds" in r else ""),
                  ""]
        if r["status"] == "ok":
            rows = r["result"].get("rows")
            if isinstance(rows, list) and rows and isinstance(rows[0], dict):
                lines += [*table(rows), ""]
            else:
                lines += ["```json", json.dumps(r["result"], indent=1, default=float)[:4000], "```", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(HERE / "out"))
    ap.add_argument("--only", default="", help="comma-separated script names (without .py)")
    ap.add_argument("--full", action="store_true", help="each script's full settings, and the long ones")
    args = ap.parse_args()
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    results = []
    for script, quick, full, limit in SCRIPTS:
        if (only and script[:-3] not in only) or (quick is None and not args.full):
            continue
        script_args, limit = (full, limit) if args.full or quick is None else (quick, limit // 3)
        print(f"running {script} ...", flush=True)
        results.append(run(script, script_args, limit))
        print(f"  {results[-1]['status']}", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1, default=float))
    (out / "results.md").write_text(markdown(results))
    print(f"wrote {out / 'results.json'} and {out / 'results.md'}")
    return 0 if all(r["status"] == "ok" or r["status"].startswith("skipped") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
