"""Search nodes/s, env() moves/s and random playouts' moves/s of the working tree next to an earlier
commit, in one run.

The earlier commit (default: 9e01e13, the last one before the game kit) is built from the
repository's history into a temporary directory (bench/_builds.py); each build is
measured by bench/_probe.py in its own process, the two taking turns round by round so
that the load of a shared machine falls on both alike. Figures are medians over rounds;
the ratio is ours / previous (the kit's target: search within 5%, env() not lower).

    python bench/vs_previous.py [--rev REV] [--rounds 5] [--seconds 1] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from _builds import REPO, build_commit, environment
from _probe import CASES
from _report import emit, headline

PROBE = Path(__file__).with_name("_probe.py")


def probe(tree: Path, games: list[str], seconds: float, ours: bool) -> dict:
    env = environment(tree)
    if ours:  # our own build keeps its usual caches
        env.pop("ZEROSUM_CACHE_DIR")
        env.pop("NUMBA_CACHE_DIR")
    proc = subprocess.run([sys.executable, str(PROBE), *games, "--seconds", str(seconds)], env=env,
                          capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", default=["tictactoe", "nim", "pentago", "nine_mens_morris", "halma"])
    ap.add_argument("--rev", default="9e01e13")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    for g in args.games:
        if g not in CASES:
            ap.error(f"unknown game {g!r}; choose from {', '.join(sorted(CASES))}")
    previous = build_commit(args.rev)
    runs: dict[str, list[dict]] = {"ours": [], "previous": []}
    probe(previous, args.games, 0.2, ours=False)  # compile both before timing
    probe(REPO, args.games, 0.2, ours=True)
    for _ in range(args.rounds):
        runs["previous"].append(probe(previous, args.games, args.seconds, ours=False))
        runs["ours"].append(probe(REPO, args.games, args.seconds, ours=True))
    rows, heads = [], []
    for g in args.games:
        med = {k: {m: statistics.median(r[g][m] for r in runs[k])
                   for m in ("nodes_per_s", "env_moves_per_s", "loop_moves_per_s", "playout_moves_per_s")}
               for k in runs}
        row = {"game": g, "search nodes/s": med["ours"]["nodes_per_s"],
               "previous nodes/s": med["previous"]["nodes_per_s"],
               "search ratio": med["ours"]["nodes_per_s"] / med["previous"]["nodes_per_s"],
               "env() moves/s": med["ours"]["env_moves_per_s"],
               "previous env() moves/s": med["previous"]["env_moves_per_s"],
               "env ratio": med["ours"]["env_moves_per_s"] / med["previous"]["env_moves_per_s"],
               "loop moves/s": med["ours"]["loop_moves_per_s"],
               "loop ratio": med["ours"]["loop_moves_per_s"] / med["previous"]["loop_moves_per_s"],
               "playouts moves/s": med["ours"]["playout_moves_per_s"],
               "playouts ratio": (med["ours"]["playout_moves_per_s"] / med["previous"]["playout_moves_per_s"]
                                  if med["previous"]["playout_moves_per_s"] else None)}
        rows.append(row)
        heads.append(headline(f"{g} search nodes/s vs {args.rev}", row["search nodes/s"], row["previous nodes/s"],
                              ">= 0.95x"))
        heads.append(headline(f"{g} env() moves/s vs {args.rev}", row["env() moves/s"],
                              row["previous env() moves/s"], ">= 1x"))
    emit("vs_previous", rows, ["game", "search nodes/s", "previous nodes/s", "search ratio", "env() moves/s",
                               "previous env() moves/s", "env ratio", "loop moves/s", "loop ratio",
                               "playouts moves/s", "playouts ratio"], {"rev": args.rev, "headline": heads})


if __name__ == "__main__":
    main()
