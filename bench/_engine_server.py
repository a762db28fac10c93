"""An alpha-beta engine behind a pipe, for matches between two builds of zerosum (vs_release.py).

Runs under whichever zerosum ``import zerosum`` finds (the working tree, or an earlier
commit built by bench/_builds.py) and uses only the API every version since 0.1.0 has:
``make_game(name, **variant)`` and ``AlphaBeta(game, heuristic, **options).search(state,
time=..., seed=...)``. One request per line on stdin, one JSON answer per line on stdout::

    {"game": "pentago", "variant": {}, "options": {"heuristic": "threats"}, "match": "7/0",
     "state": [...], "time": 0.05, "seed": 12345}
    -> {"action": 123, "nodes": 81234, "depth": 3, "seconds": 0.0501}

``depth`` instead of ``time`` searches to a fixed depth (the warm-up uses it). An engine is
kept for the whole of one game (``match`` names it), so its transposition table lives on
from move to move as an agent's does; a new ``match`` starts a fresh one. An error is
answered as ``{"error": "..."}`` and the server reads on.
"""

from __future__ import annotations

import json
import sys
import time
import traceback

import numpy as np


def main() -> None:
    from zerosum.games import make_game
    from zerosum.search import AlphaBeta

    games: dict[str, object] = {}
    engine = None
    current = None
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            key = json.dumps([req["game"], req.get("variant", {})], sort_keys=True)
            game = games.get(key)
            if game is None:
                game = games[key] = make_game(req["game"], **req.get("variant", {}))
            ident = (key, json.dumps(req.get("options", {}), sort_keys=True), req.get("match"))
            if engine is None or ident != current:
                options = dict(req.get("options", {}))
                engine = AlphaBeta(game, options.pop("heuristic", None), **options)
                current = ident
            state = np.array(req["state"], dtype=np.int64)
            budget = {"depth": req["depth"]} if "depth" in req else {"time": req["time"]}
            t0 = time.perf_counter()
            r = engine.search(state, seed=req.get("seed"), **budget)
            spent = time.perf_counter() - t0
            answer = {"action": int(r.action), "nodes": int(r.stats.nodes), "depth": int(r.stats.depth),
                      "seconds": spent}
        except Exception as exc:  # noqa: BLE001 - the driver reports it; the server stays up
            answer = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=3)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
