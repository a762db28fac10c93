"""Hex against OpenSpiel's ``hex`` at every step of many seeded random games, and perft.

At every step of every game, on zerosum's rules and pyspiel's side by side: the same legal
actions (the pie rule's ``swap`` included), the same board, the same player to move, the
same terminal flag and the same returns (tests/games/test_hex.py does the same on fewer
games). Then perft (move sequences of each length from the start) on both sides.

    python bench/hex_openspiel.py [--games N] [--seed S]

Prints one JSON document, then a table: per variant the games, the steps compared and
the outcomes, and the perft counts with OpenSpiel's.
"""

from __future__ import annotations

import argparse
import time

from _report import emit, headline
from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel, openspiel_perft, perft

VARIANTS = ({}, {"board_size": 5, "swap": True}, {"num_rows": 4, "num_cols": 7}, {"board_size": 7},
            {"board_size": 13, "swap": True}, {"num_rows": 9, "num_cols": 3})
PERFT = (({"board_size": 3}, 9), ({"board_size": 3, "swap": True}, 7), ({"num_rows": 2, "num_cols": 3}, 6),
         ({"board_size": 4}, 5), ({"board_size": 5, "swap": True}, 4), ({}, 2))


def compare(variant: dict, games: int, seed: int) -> dict:
    """Random games played on both sides at once; every step compared. Counts and outcomes."""
    import pyspiel

    g = make_game("hex", **variant)

    def same_board(s, st):
        assert "".join(g.cells(s)) == "".join(str(st).split())

    report = compare_with_openspiel(g, pyspiel.load_game("hex", variant), games, seed, same_board)
    black = sum(r[0] > 0 for r in report.returns)
    return {"variant": str(variant or "default 11x11"), "games": games, "steps": report.steps, "black wins": black,
            "white wins": games - black}


def main() -> None:
    import pyspiel

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300, help="random games per variant")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    t = time.perf_counter()
    rows = [compare(v, args.games, args.seed + i) for i, v in enumerate(VARIANTS)]
    for variant, depth in PERFT:
        g = make_game("hex", **variant)
        ours = [perft(g, g.initial_state(), d) for d in range(1, depth + 1)]
        og = pyspiel.load_game("hex", variant)
        theirs = [openspiel_perft(og.new_initial_state(), d) for d in range(1, depth + 1)]
        assert ours == theirs, f"perft {variant}: zerosum {ours}, OpenSpiel {theirs}"
        rows.append({"variant": f"perft {variant or 'default 11x11'}", "perft": ours})
    steps = sum(r.get("steps", 0) for r in rows)
    emit("hex_openspiel", rows, ["variant", "games", "steps", "black wins", "white wins", "perft"],
         {"seconds": time.perf_counter() - t,
          "headline": [headline("hex steps equal to OpenSpiel (random games)", steps, None, "all")]})


if __name__ == "__main__":
    main()
