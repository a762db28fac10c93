"""Dots and Boxes against OpenSpiel's ``dots_and_boxes``: random games compared at every step,
perft and whole games, random-playout speed, and the default opponent's strength against
OpenSpiel's MCTSBot.

1. At every step of ``--games`` seeded random games on each variant (2x2, 3x3, 5x5, 3x4
   with ``utility_margin``, 1x5): the legal actions, the player to move (a box taken moves
   again), the terminal flag, the returns (``utility``: the box margin with
   ``utility_margin``), the lines and the boxes' takers (OpenSpiel's observation tensor)
   and the line each action names must be equal in zerosum and in pyspiel.
2. Perft from the start on 2x2 to ``--depth`` plies, and every whole game of 1x2 boxes
   (5,040) with its outcome, counted by both.
3. Speed and 4. strength (``DotsAndBoxes.default_opponent`` against ``MCTSBot(1000)``), both on
   2x2: as bench/_openspiel_game.py says.

Prints one JSON document, then a table::

    python bench/dots_and_boxes.py [--games 500] [--depth 6] [--speed-games 3000] [--strength-games 100]
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from _openspiel_game import finish, options, perft_rows
from zerosum.games import Outcome, make_game
from zerosum.testing import compare_with_openspiel

NAME = "dots_and_boxes"
DEFAULT = "2x2 boxes"
VARIANTS: list[dict[str, Any]] = [{}, {"num_rows": 3, "num_cols": 3}, {"num_rows": 5, "num_cols": 5},
                                  {"num_rows": 3, "num_cols": 4, "utility_margin": True},
                                  {"num_rows": 1, "num_cols": 5}]


def compare(variant: dict[str, Any], games: int, seed: int) -> dict[str, Any]:
    """``games`` random games on both sides, the lines, boxes and action names compared at every step."""
    import pyspiel

    g = make_game(NAME, **variant)
    og = pyspiel.load_game(NAME, variant)
    # every line is drawn once: a game lasts exactly num_actions moves (OpenSpiel's max_game_length
    # says more on boards that are not square: 32 on 3x4, 20 on 1x5)
    assert g.num_actions == g.max_game_length == og.num_distinct_actions() <= og.max_game_length()
    dots = (g.rows + 1) * (g.columns + 1)

    def same_board(s: Any, st: Any) -> None:
        t = np.array(st.observation_tensor(0)).reshape(3, dots, 3)
        ours = g.observation(s, 0).reshape(dots, 5)
        assert np.array_equal(ours[:, :2], 1 - t[0, :, :2]) and np.array_equal(ours[:, 2:4], t[1:, :, 2].T)

    def same_name(s: Any, st: Any, a: int) -> None:
        assert g.string_to_action(st.action_to_string(a)) == a

    t0 = time.perf_counter()
    report = compare_with_openspiel(g, og, games, seed, same_board, check_action=same_name, utility=g.utility)
    label = f"{g.rows}x{g.columns}" + (" margin" if g.utility_margin else "")
    return {"what": "random games", "variant": label, "games": games, "steps": report.steps,
            "player 0 wins": report.outcomes[Outcome.P0_WINS], "draws": report.outcomes[Outcome.DRAW],
            "seconds": time.perf_counter() - t0}


def whole_games(variant: dict[str, Any]) -> dict[str, Any]:
    """Every game from the start on both sides, with (player 0 wins, player 1 wins, draws)."""
    import pyspiel

    g = make_game(NAME, **variant)

    def ours(s: Any) -> np.ndarray:
        if g.is_terminal(s):
            return np.eye(3, dtype=np.int64)[int(g.outcome(s)) - 1]
        return sum((ours(g.apply_unchecked(s, int(a))) for a in g.legal_actions(s)), np.zeros(3, np.int64))

    def theirs(st: Any) -> np.ndarray:
        if st.is_terminal():
            r = st.returns()[0]
            return np.array([r > 0, r < 0, r == 0], np.int64)
        return sum((theirs(st.child(a)) for a in st.legal_actions()), np.zeros(3, np.int64))

    t0 = time.perf_counter()
    counts = ours(g.initial_state())
    seconds = time.perf_counter() - t0
    other = theirs(pyspiel.load_game(NAME, variant).new_initial_state())
    assert counts.tolist() == other.tolist(), (counts, other)
    return {"what": "every whole game", "variant": f"{g.rows}x{g.columns}", "games": int(counts.sum()),
            "player 0 wins": int(counts[0]), "draws": int(counts[2]), "seconds": seconds}


def main() -> None:
    args = options(__doc__, games=500, depth=6, speed_games=3000, quick=(100, 5, 500),
                   games_help="random games compared with OpenSpiel, per variant",
                   depth_help="perft depth from the start on 2x2")
    rows = [compare(v, args.games, args.seed + i) for i, v in enumerate(VARIANTS)]
    rows += perft_rows(NAME, {}, args.depth, DEFAULT)
    rows.append(whole_games({"num_rows": 1, "num_cols": 2}))
    finish(NAME, DEFAULT, rows, args, "random games")


if __name__ == "__main__":
    main()
