"""Connect Four's bit-parallel search knowledge (the ``forcing`` kernel and the window and
threat heuristics) against the straightforward versions it replaced, kept here as plain
Python: a loop over the windows, and ``has_line`` per move and per next disc. They must
agree exactly (values, and the forcing moves in the same order) on every position of many
random games, on the standard board and on variants of every shape."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.games.connect_four import knowledge
from zerosum.games.connect_four.rules import (
    P_BOARD, P_BOTTOM, P_COLS, P_H, P_ODD, P_ROWS, P_WINDOW0, P_WINDOWS, P_X, S_P0, S_P1, has_line,
)

_has_line = has_line.py_func
_WEIGHT = [0.0] + [3.0 ** (k - 1) for k in range(1, 10)]
_LIMIT = 10_000.0


def _popcount(x: int) -> int:
    return bin(x).count("1")


def ref_scan(params, p0: int, p1: int) -> tuple[float, int, int]:
    need = int(params[P_X]) - 1
    score, t0, t1 = 0.0, 0, 0
    for i in range(int(params[P_WINDOWS])):
        w = int(params[P_WINDOW0 + i])
        a, b = _popcount(p0 & w), _popcount(p1 & w)
        if b == 0 and a != 0:
            score += _WEIGHT[a]
            if a == need:
                t0 |= w & ~p0
        elif a == 0 and b != 0:
            score -= _WEIGHT[b]
            if b == need:
                t1 |= w & ~p1
    return score, t0, t1


def ref_above(params, t: int) -> int:
    board = int(params[P_BOARD])
    up, out = (t << 1) & board, 0
    for _ in range(int(params[P_ROWS])):
        out |= up
        up = (up << 1) & board
    return out


def ref_threat_score(params, own: int, other: int, good: int) -> float:
    alive = own & ~ref_above(params, other)
    return 12.0 * _popcount(alive & good) + 4.0 * _popcount(alive & ~good)


def ref_windows(params, s, player: int) -> float:
    v = ref_scan(params, int(s[S_P0]), int(s[S_P1]))[0]
    return min(max(v if player == 0 else -v, -_LIMIT), _LIMIT)


def ref_threats(params, s, player: int) -> float:
    v, t0, t1 = ref_scan(params, int(s[S_P0]), int(s[S_P1]))
    odd, board = int(params[P_ODD]), int(params[P_BOARD])
    v += ref_threat_score(params, t0, t1, odd) - ref_threat_score(params, t1, t0, board & ~odd)
    return min(max(v if player == 0 else -v, -_LIMIT), _LIMIT)


def ref_forcing(params, s, legal_moves: list[int]) -> list[int]:
    rows, h, x = int(params[P_ROWS]), int(params[P_H]), int(params[P_X])
    board, bottom = int(params[P_BOARD]), int(params[P_BOTTOM])
    occupied = int(s[S_P0]) | int(s[S_P1])
    p = _popcount(occupied) & 1
    mine, theirs = int(s[p]), int(s[1 - p])

    def wins_next(mine: int, occupied: int) -> bool:
        playable = (occupied + bottom) & board
        while playable:
            cell = playable & -playable
            playable ^= cell
            if _has_line(mine | cell, h, x):
                return True
        return False

    out = []
    for c in legal_moves:
        disc = (occupied + (1 << (c * h))) & (((1 << rows) - 1) << (c * h))
        if (_has_line(mine | disc, h, x) or _has_line(theirs | disc, h, x)
                or wins_next(mine | disc, occupied | disc)):
            out.append(c)
    return out


VARIANTS = [
    {}, {"rows": 4, "columns": 5, "x_in_row": 3}, {"rows": 5, "columns": 4, "x_in_row": 2},
    {"rows": 3, "columns": 3, "x_in_row": 1}, {"rows": 9, "columns": 6, "x_in_row": 5},
    {"rows": 6, "columns": 9, "x_in_row": 4}, {"rows": 7, "columns": 7, "x_in_row": 6},
    {"rows": 1, "columns": 9, "x_in_row": 3}, {"rows": 9, "columns": 1, "x_in_row": 4},
    {"rows": 4, "columns": 4, "x_in_row": 5}, {"rows": 8, "columns": 7, "x_in_row": 9},
    {"rows": 2, "columns": 9, "x_in_row": 2}, {"rows": 5, "columns": 9, "x_in_row": 3},
]


def game_positions(game, games: int, seed: int) -> list[np.ndarray]:
    """Every position of ``games`` random games, the finished ones included."""
    rng = np.random.default_rng(seed)
    moves = np.zeros(game.num_actions, dtype=np.int64)
    found = []
    for _ in range(games):
        s = game.initial_state()
        while True:
            found.append(s.copy())
            n = game.kernels.legal(game.params, s, moves)
            if n == 0:
                break
            child = np.empty_like(s)
            game.kernels.apply(game.params, s, moves[rng.integers(n)], child)
            s = child
    return found


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "x".join(str(v[k]) for k in v) or "standard")
def test_knowledge_equals_the_window_loop(variant):
    g = make_game("connect_four", **variant)
    params = g.params
    positions = game_positions(g, 60 if variant else 200, seed=len(variant) + int(params[P_COLS]))
    moves = np.zeros(g.num_actions, dtype=np.int64)
    forced = np.zeros(g.num_actions, dtype=np.int64)
    seen_forcing = 0
    for s in positions:
        for player in (0, 1):
            assert knowledge.threats(params, s, player) == ref_threats(params, s, player), (variant, s)
            assert knowledge.windows(params, s, player) == ref_windows(params, s, player), (variant, s)
        n = g.kernels.legal(params, s, moves)
        m = knowledge.forcing(params, s, forced)
        expected = ref_forcing(params, s, [int(a) for a in moves[:n]])
        assert [int(a) for a in forced[:m]] == expected, (variant, s)
        seen_forcing += 0 < m < n
    if variant in ({}, {"rows": 4, "columns": 5, "x_in_row": 3}):
        assert seen_forcing > 50  # positions where the forcing moves are some of the legal ones


def test_forcing_and_threats_run_as_python():
    """The kernels' Python bodies (as zerosum.testing runs them) give the compiled values."""
    g = make_game("connect_four")
    out_c, out_p = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64)
    for s in game_positions(g, 10, seed=3):
        assert knowledge.threats.py_func(g.params, s, 0) == knowledge.threats(g.params, s, 0)
        m = knowledge.forcing.py_func(g.params, s, out_p)
        assert m == knowledge.forcing(g.params, s, out_c) and list(out_p[:m]) == list(out_c[:m])
