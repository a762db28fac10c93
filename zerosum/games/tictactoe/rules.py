"""Tic-tac-toe's rules: the winning lines (built once) and the kernels.

State ``[x_bits, o_bits]`` (bit i = cell i = 3*row + col); the mover follows from the
number of marks.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I64Array, I8Array, Params,
    State, kernel, popcount,
)

LINES = np.array([0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010,
                  0b100100100, 0b100010001, 0b001010100], dtype=np.int64)
FULL = 0b111111111


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return popcount(s[0] | s[1]) & 1


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    for m in LINES:
        if s[0] & m == m:
            return P0_WINS
        if s[1] & m == m:
            return P1_WINS
    if (s[0] | s[1]) == FULL:
        return DRAW
    return ONGOING


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if status(params, s) != ONGOING:
        return 0
    occ = s[0] | s[1]
    n = 0
    for c in range(9):
        if not (occ >> c) & 1:
            out[n] = c
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """Whether ``a`` is legal: the game goes on and cell ``a`` is empty (what ``apply``
    checks, without generating every move)."""
    return status(params, s) == ONGOING and not ((s[0] | s[1]) >> a) & 1


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    p = player(params, s)
    child[0] = s[0]
    child[1] = s[1]
    child[p] |= 1 << a


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[0] | (s[1] << 9)


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    me = s[player_]
    opp = s[1 - player_]
    mover = 1 if player(params, s) == player_ else 0
    for c in range(9):
        out[3 * c] = (me >> c) & 1
        out[3 * c + 1] = (opp >> c) & 1
        out[3 * c + 2] = mover
