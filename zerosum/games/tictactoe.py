"""Tic-tac-toe.

Board and actions (action = 3*row + col, row-major, row 1 at the top)::

       a   b   c
    1  0 | 1 | 2
      ---+---+---
    2  3 | 4 | 5
      ---+---+---
    3  6 | 7 | 8

Player 0 (X) moves first. Readable names are column letter + row number: action 4 is
``b2``. State vector: ``[x_bits, o_bits]`` (bit i = cell i); the mover is derived from
the number of marks. Observation (3, 3, 3): own marks, opponent's marks, and a plane of
ones when the observer is to move.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.base import (
    APPLY, DRAW, HEURISTIC, KEY, LEGAL, OBSERVE, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER,
    STATUS, Game, Heuristic, IllegalActionError, Kernels, State, kernel,
)

LINES = np.array([0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010,
                  0b100100100, 0b100010001, 0b001010100], dtype=np.int64)
FULL = 0b111111111
# Centre first, then corners, then edges: the classic static order.
_CELL_ORDER_SCORE = np.array([2.0, 1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 2.0])


@kernel(PLAYER)
def _player(params, s):
    n = 0
    b = s[0] | s[1]
    while b:
        b &= b - 1
        n += 1
    return n & 1


@kernel(STATUS)
def _status(params, s):
    for m in LINES:
        if s[0] & m == m:
            return P0_WINS
        if s[1] & m == m:
            return P1_WINS
    if (s[0] | s[1]) == FULL:
        return DRAW
    return ONGOING


@kernel(LEGAL)
def _legal(params, s, out):
    if _status(params, s) != ONGOING:
        return 0
    occ = s[0] | s[1]
    n = 0
    for c in range(9):
        if not (occ >> c) & 1:
            out[n] = c
            n += 1
    return n


@kernel(APPLY)
def _apply(params, s, a, child):
    p = _player(params, s)
    child[0] = s[0]
    child[1] = s[1]
    child[p] |= 1 << a


@kernel(KEY)
def _key(params, s):
    return s[0] | (s[1] << 9)


@kernel(OBSERVE)
def _observe(params, s, player, out):
    me = s[player]
    opp = s[1 - player]
    mover = 1 if _player(params, s) == player else 0
    for c in range(9):
        out[3 * c] = (me >> c) & 1
        out[3 * c + 1] = (opp >> c) & 1
        out[3 * c + 2] = mover


@kernel(HEURISTIC)
def lines(params, s, player):
    """Open lines: for each line free of the opponent, 1, 3 or 9 for 1, 2 or 3 own marks."""
    me = s[player]
    opp = s[1 - player]
    score = 0.0
    for m in LINES:
        a = me & m
        b = opp & m
        if b == 0 and a != 0:
            k = (a & 1) + ((a >> 1) & 1) + ((a >> 2) & 1) + ((a >> 3) & 1) + ((a >> 4) & 1) \
                + ((a >> 5) & 1) + ((a >> 6) & 1) + ((a >> 7) & 1) + ((a >> 8) & 1)
            score += 3.0 ** (k - 1)
        elif a == 0 and b != 0:
            k = (b & 1) + ((b >> 1) & 1) + ((b >> 2) & 1) + ((b >> 3) & 1) + ((b >> 4) & 1) \
                + ((b >> 5) & 1) + ((b >> 6) & 1) + ((b >> 7) & 1) + ((b >> 8) & 1)
            score -= 3.0 ** (k - 1)
    return score


@kernel(ORDER)
def _order(params, s, moves, n, scores):
    for i in range(n):
        scores[i] = _CELL_ORDER_SCORE[moves[i]]


KERNELS = Kernels(legal=_legal, apply=_apply, status=_status, player=_player, key=_key,
                  observe=_observe, order=_order)
_COLS = "abc"


class TicTacToe(Game):
    """Tic-tac-toe on a 3x3 board; no rule variants."""

    def __init__(self) -> None:
        super().__init__(
            name="tictactoe", kernels=KERNELS, params=np.zeros(1, np.int64),
            initial=np.zeros(2, np.int64), num_actions=9, max_moves=9, max_game_length=9,
            observation_shape=(3, 3, 3), variant={},
            heuristics={"lines": Heuristic("lines", lines, "open lines weighted 1/3/9 by marks")},
            default_heuristic="lines",
        )

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``b2`` style: column letter, row number."""
        return f"{_COLS[action % 3]}{action // 3 + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``b2`` (or a bare index ``4``)."""
        t = text.strip().lower()
        if t.isdigit() and int(t) < 9:
            return int(t)
        if len(t) == 2 and t[0] in _COLS and t[1] in "123":
            return 3 * (int(t[1]) - 1) + _COLS.index(t[0])
        raise IllegalActionError(f"cannot read move {text!r}: write a cell such as 'b2' (columns a-c, rows 1-3)")

    def render(self, state: State) -> str:
        """The board with coordinates; X is player 0, O player 1."""
        marks = ["X" if (state[0] >> c) & 1 else "O" if (state[1] >> c) & 1 else "." for c in range(9)]
        rows = ["   a b c"] + [f"{r + 1}  " + " ".join(marks[3 * r:3 * r + 3]) for r in range(3)]
        return "\n".join(rows)
