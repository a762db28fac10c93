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

import numpy as np

from _report import emit, headline
from zerosum.games import make_game
from zerosum.testing import perft

VARIANTS = ({}, {"board_size": 5, "swap": True}, {"num_rows": 4, "num_cols": 7}, {"board_size": 7},
            {"board_size": 13, "swap": True}, {"num_rows": 9, "num_cols": 3})
PERFT = (({"board_size": 3}, 9), ({"board_size": 3, "swap": True}, 7), ({"num_rows": 2, "num_cols": 3}, 6),
         ({"board_size": 4}, 5), ({"board_size": 5, "swap": True}, 4), ({}, 2))


def compare(variant: dict, games: int, seed: int) -> dict:
    """Random games played on both sides at once; every step compared. Counts and outcomes."""
    import pyspiel

    g = make_game("hex", **variant)
    og = pyspiel.load_game("hex", variant)
    rng = np.random.default_rng(seed)
    steps, wins = 0, [0, 0]
    for _ in range(games):
        s, st = g.initial_state(), og.new_initial_state()
        while True:
            steps += 1
            same = (g.is_terminal(s) == st.is_terminal() and list(g.legal_actions(s)) == st.legal_actions()
                    and g.returns(s) == tuple(st.returns()) and "".join(g.cells(s)) == "".join(str(st).split())
                    and (g.is_terminal(s) or g.current_player(s) == st.current_player()))
            if not same:
                raise AssertionError(f"{variant}: zerosum and OpenSpiel differ after {st.history()}")
            if g.is_terminal(s):
                wins[0 if g.returns(s)[0] > 0 else 1] += 1
                break
            legal = st.legal_actions()
            a = legal[rng.integers(len(legal))]
            s = g.apply(s, a)
            st.apply_action(a)
    return {"variant": str(variant or "default 11x11"), "games": games, "steps": steps, "black wins": wins[0],
            "white wins": wins[1]}


def os_perft(state, depth: int) -> int:
    if state.is_terminal():
        return 0
    if depth == 1:
        return len(state.legal_actions())
    return sum(os_perft(state.child(a), depth - 1) for a in state.legal_actions())


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
        theirs = [os_perft(og.new_initial_state(), d) for d in range(1, depth + 1)]
        assert ours == theirs, f"perft {variant}: zerosum {ours}, OpenSpiel {theirs}"
        rows.append({"variant": f"perft {variant or 'default 11x11'}", "perft": ours})
    steps = sum(r.get("steps", 0) for r in rows)
    emit("hex_openspiel", rows, ["variant", "games", "steps", "black wins", "white wins", "perft"],
         {"seconds": time.perf_counter() - t,
          "headline": [headline("hex steps equal to OpenSpiel (random games)", steps, None, "all")]})


if __name__ == "__main__":
    main()
