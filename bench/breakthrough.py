"""Breakthrough against its oracle, OpenSpiel's ``breakthrough``: random games compared at every
step, and perft from the start on both sides.

At every step of ``--games`` seeded random games per variant (the default 8x8 and five
others): the legal actions, the board, the player to move, the terminal flag, the returns
and the names of the actions played must be equal in zerosum and in pyspiel; the first
difference stops the run with the position. Then perft from the start (move sequences of
each length), counted by zerosum's compiled perft and by a pyspiel loop, to ``--depth``
plies on 8x8 and 6x6. Prints one JSON document, then a table::

    python bench/breakthrough.py [--games 1000] [--depth 5] [--quick]
"""

from __future__ import annotations

import argparse
import os
import time

from _report import emit, headline
from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel, openspiel_perft, perft

VARIANTS = ({}, {"rows": 6, "columns": 6}, {"rows": 5, "columns": 7}, {"rows": 4, "columns": 3},
            {"rows": 4, "columns": 16}, {"rows": 16, "columns": 4})


def compare(variant: dict, games: int, seed: int) -> dict:
    """Play ``games`` random games in both implementations; the steps compared."""
    import pyspiel

    g = make_game("breakthrough", **variant)
    og = pyspiel.load_game("breakthrough", variant)
    assert (g.num_actions, g.max_game_length) == (og.num_distinct_actions(), og.max_game_length())

    def same_board(s, st):
        assert [chr(ord("1") + g.rows - 1 - r) + row for r, row in enumerate(g.cells(s))] == str(st).split()[:-1]

    def same_name(s, st, a):
        if g.rows < 10:  # OpenSpiel names rank 10 and above with the characters after '9'
            assert g.action_to_string(a) == st.action_to_string(a)

    t = time.perf_counter()
    report = compare_with_openspiel(g, og, games, seed, same_board, check_action=same_name)
    seconds = time.perf_counter() - t
    return {"what": "random games", "variant": str(variant or "8x8 (default)"), "games": games, "steps": report.steps,
            "player 0 wins": sum(r[0] > 0 for r in report.returns), "seconds": seconds}


def perft_rows(variant: dict, depth: int) -> list[dict]:
    import pyspiel

    g = make_game("breakthrough", **variant)
    og = pyspiel.load_game("breakthrough", variant)
    rows = []
    for d in range(1, depth + 1):
        t = time.perf_counter()
        ours = perft(g, g.initial_state(), d)
        t_ours = time.perf_counter() - t
        t = time.perf_counter()
        theirs = openspiel_perft(og.new_initial_state(), d)
        t_theirs = time.perf_counter() - t
        assert ours == theirs, f"perft {variant} depth {d}: zerosum {ours}, OpenSpiel {theirs}"
        rows.append({"what": f"perft {d}", "variant": str(variant or "8x8 (default)"), "steps": ours,
                     "seconds": t_ours, "openspiel seconds": t_theirs})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="random games per variant")
    ap.add_argument("--depth", type=int, default=5, help="perft depth from the start (5: 6.2 M sequences on 8x8)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--quick", action="store_true", help="100 games per variant, perft to depth 4")
    args = ap.parse_args()
    games, depth = (100, 4) if args.quick else (args.games, args.depth)
    rows = [compare(v, games, args.seed + i) for i, v in enumerate(VARIANTS)]
    rows += perft_rows({}, depth) + perft_rows({"rows": 6, "columns": 6}, depth)
    steps = sum(r["steps"] for r in rows if r["what"] == "random games")
    emit("breakthrough", rows, ["what", "variant", "games", "steps", "player 0 wins", "seconds", "openspiel seconds"],
         {"headline": [headline("breakthrough steps equal to OpenSpiel's (random games, 6 variants)", steps)],
          "load_1min": os.getloadavg()[0]})


if __name__ == "__main__":
    main()
