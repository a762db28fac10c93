"""Gomoku against OpenSpiel's ``gomoku`` and, on rectangles, its ``mnk``, at more games than the tests play.

For each variant, ``--games`` seeded random games played in both at once: at every step
the legal actions, the player to move, the terminal flag, the returns, the board and the
observation planes must be equal (as tests/games/test_gomoku.py checks on fewer games),
and the perft counts from the start (move sequences of each length) on both sides. The
``mnk`` variants (``m`` columns, ``n`` rows, ``k`` = ``connect``) compare the board and
mnk's action names (its observation planes are empty, x, o rather than Gomoku's).

Prints one JSON document, then a table: per variant the games, the positions compared,
the results and the seconds::

    python bench/gomoku.py --games 200
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from _report import emit, headline
from zerosum.games import make_game
from zerosum.testing import compare_with_openspiel, openspiel_perft, perft

VARIANTS: list[dict[str, Any]] = [{}, {"size": 19}, {"size": 9}, {"size": 7, "connect": 4},
                                  {"size": 6, "connect": 4, "wrap": True}, {"size": 5, "connect": 3, "anti": True},
                                  {"size": 4, "connect": 4}]
PERFT = [({}, 3), ({"size": 7, "connect": 4}, 4), ({"size": 3, "connect": 3}, 9)]
MNK: list[dict[str, Any]] = [{"m": 7, "n": 4, "k": 4}, {"m": 3, "n": 6, "k": 3}, {"m": 9, "n": 5, "k": 5},
                             {"m": 19, "n": 3, "k": 3}]


def compare_mnk(variant: dict[str, Any], games: int, seed: int) -> dict[str, Any]:
    """``games`` random games in Gomoku on a rectangle and in OpenSpiel's ``mnk``."""
    import pyspiel

    g = make_game("gomoku", m=variant["m"], n=variant["n"], connect=variant["k"])
    og = pyspiel.load_game("mnk", variant)

    def same_board(s: Any, st: Any) -> None:
        assert [r.lower() for r in g.cells(s)] == str(st).split()

    def same_name(s: Any, st: Any, a: int) -> None:
        assert g.string_to_action(st.action_to_string(a)) == a

    t0 = time.perf_counter()
    report = compare_with_openspiel(g, og, games, seed, same_board, check_action=same_name)
    seconds = time.perf_counter() - t0
    results = {"p0": sum(r[0] > 0 for r in report.returns), "p1": sum(r[0] < 0 for r in report.returns),
               "draw": sum(r[0] == 0 for r in report.returns)}
    return {"variant": f"mnk {variant}", "games": games, "positions": report.steps, **results, "seconds": seconds}


def compare(variant: dict[str, Any], games: int, seed: int) -> dict[str, Any]:
    """``games`` random games in both; the positions compared and the results."""
    import pyspiel

    g = make_game("gomoku", **variant)
    og = pyspiel.load_game("gomoku", variant)

    def same_board_and_observation(s: Any, st: Any) -> None:
        assert [r.lower().replace("x", "b").replace("o", "w") for r in g.cells(s)] == str(st).split()[1:]
        if not g.is_terminal(s):
            planes = np.asarray(st.observation_tensor(0)).reshape(3, -1)
            assert np.array_equal(g.observation(s, 0).reshape(-1, 3).T, planes)

    t0 = time.perf_counter()
    report = compare_with_openspiel(g, og, games, seed, same_board_and_observation)
    seconds = time.perf_counter() - t0
    results = {"p0": sum(r[0] > 0 for r in report.returns), "p1": sum(r[0] < 0 for r in report.returns),
               "draw": sum(r[0] == 0 for r in report.returns)}
    return {"variant": str(variant or "default"), "games": games, "positions": report.steps, **results,
            "seconds": seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="random games per variant")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    import pyspiel

    rows = [compare(v, args.games, args.seed + i) for i, v in enumerate(VARIANTS)]
    rows += [compare_mnk(v, args.games, args.seed + 100 + i) for i, v in enumerate(MNK)]
    perfts = []
    for variant, depth in PERFT:
        g = make_game("gomoku", **variant)
        og = pyspiel.load_game("gomoku", variant)
        ours = [perft(g, g.initial_state(), d) for d in range(1, depth + 1)]
        theirs = [openspiel_perft(og.new_initial_state(), d) for d in range(1, depth + 1)]
        if ours != theirs:
            raise AssertionError(f"perft of {variant}: ours {ours}, OpenSpiel's {theirs}")
        perfts.append({"variant": str(variant or "default"), "perft": ours})
    total = sum(r["positions"] for r in rows)
    emit("gomoku", rows, ["variant", "games", "positions", "p0", "p1", "draw", "seconds"],
         {"headline": [headline("gomoku positions equal to OpenSpiel's (random games)", total, None, "all")],
          "perft": perfts, "load_1min": os.getloadavg()[0]})
    for p in perfts:
        print(f"perft {p['variant']}: {p['perft']}")


if __name__ == "__main__":
    main()
