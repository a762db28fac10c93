"""Y's rules as kernels over one 64-bit word a board row.

Geometry, for a board of size ``N`` (2..26): the cell in column ``x`` and row ``y`` (both
from 0, ``x + y < N``) is action ``x + y*N`` (OpenSpiel's ``y``: the actions of the cut-off
corner, ``x + y >= N``, are never legal) and bit ``x`` of row ``y``'s word. Its neighbours,
in OpenSpiel's order, are ``(x, y-1)``, ``(x+1, y-1)``, ``(x+1, y)``, ``(x, y+1)``,
``(x-1, y+1)`` and ``(x-1, y)``: the pattern of Hex's rows, so Y grows a chain with Hex's
row fill (:func:`zerosum.games.hex.rules.fill`). The three sides are ``x = 0``, ``y = 0``
and ``x + y = N - 1``.

params: ``[N, neighbours...]``: ``6*cell + k`` after ``P_NEIGHBOURS`` is the k-th neighbour
of a cell in OpenSpiel's order (-1 off the board); the heuristics read this table.

state: ``[to_move, status, player 0's stones (N row words), player 1's stones (N row
words)]``. A move that leaves the new stone's chain touching all three sides wins; the
chain is grown from the stone when the move is made, so a state is its stones alone and
states stay canonical. A full board always holds a winning chain (no draws).
"""

from __future__ import annotations

import numpy as np

from zerosum.games.hex.rules import fill, row_fill
from zerosum.games.kit import (
    APPLY, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State, helper,
    i64, kernel, lowest_bit, shr,
)

P_SIZE, P_NEIGHBOURS = 0, 1
S_TO_MOVE, S_STATUS, S_BOARDS = 0, 1, 2
STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""The (dx, dy) of a cell's six neighbours, in OpenSpiel's (clockwise) order."""
_MIX = i64(0xFF51AFD7ED558CCD)  # odd multiplier of the key's mixing (MurmurHash3's finaliser)
_SEED = i64(0x9E3779B97F4A7C15)


def on_board(size: int, x: int, y: int) -> bool:
    """Whether ``(x, y)`` is a cell of the triangle of side ``size``."""
    return x >= 0 and y >= 0 and x + y < size


def neighbours(size: int, cell: int) -> list[int]:
    """The six neighbours of ``cell`` in OpenSpiel's order, -1 where one is off the board."""
    y, x = divmod(cell, size)
    return [(y + dy) * size + x + dx if on_board(size, x + dx, y + dy) else -1 for dx, dy in STEPS]


def sides(size: int, cell: int) -> int:
    """The sides ``cell`` lies on, as bits: 1 for ``x = 0``, 2 for ``y = 0``, 4 for
    ``x + y = size - 1`` (OpenSpiel's edge bits)."""
    y, x = divmod(cell, size)
    if not on_board(size, x, y):
        return 0
    return int(x == 0) | int(y == 0) << 1 | int(x + y == size - 1) << 2


def geometry(size: int) -> list[int]:
    """The params vector of a board of side ``size``."""
    return [size, *(z for cell in range(size * size) for z in neighbours(size, cell))]


def state_size(size: int) -> int:
    """The length of a state on a board of side ``size``."""
    return S_BOARDS + 2 * size


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_STATUS]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if s[S_STATUS] != ONGOING:
        return 0
    size = params[P_SIZE]
    n = 0
    for y in range(size):
        empty = ((1 << (size - y)) - 1) & ~(s[S_BOARDS + y] | s[S_BOARDS + size + y])
        for _ in range(size):
            if empty == 0:
                break
            out[n] = y * size + lowest_bit(empty)
            n += 1
            empty &= empty - 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    size = params[P_SIZE]
    if s[S_STATUS] != ONGOING or a < 0 or a >= size * size:
        return False
    y = a // size
    x = a - y * size
    return x + y < size and not ((s[S_BOARDS + y] | s[S_BOARDS + size + y]) >> x) & 1


@helper
def touches_all_sides(chain: I64Array, size: int) -> bool:  # pragma: no cover - compiled
    """Whether the cells of ``chain`` (one word a row) lie on all three sides."""
    if chain[0] == 0:
        return False
    left = False
    slant = False
    for y in range(size):
        left |= (chain[y] & 1) != 0
        slant |= ((chain[y] >> (size - 1 - y)) & 1) != 0
    return left and slant


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(s.shape[0]):
        child[i] = s[i]
    size = params[P_SIZE]
    p = s[S_TO_MOVE]
    child[S_TO_MOVE] = 1 - p
    y = a // size
    stones = S_BOARDS + p * size
    child[stones + y] |= 1 << (a - y * size)
    chain = np.zeros(size, np.int64)
    chain[y] = row_fill(1 << (a - y * size), child[stones + y])
    fill(child, stones, chain, 0, size, y)
    if touches_all_sides(chain, size):
        child[S_STATUS] = P0_WINS + p


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the stones and the player to move: each row word folded in by a
    multiply and a xor-shift."""
    size = params[P_SIZE]
    h = _SEED * (s[S_TO_MOVE] + 1)
    for i in range(S_BOARDS, S_BOARDS + 2 * size):
        h = (h ^ s[i]) * _MIX
        h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(N, N, 4), row y and column x: own stones, the opponent's, the empty cells of the
    board, ones when the observer is to move (the cut-off corner is all zeros)."""
    size = params[P_SIZE]
    own = S_BOARDS + player_ * size
    other = S_BOARDS + (1 - player_) * size
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for y in range(size):
        for x in range(size):
            k = 4 * (y * size + x)
            if x + y >= size:
                out[k] = out[k + 1] = out[k + 2] = out[k + 3] = 0
                continue
            a = (s[own + y] >> x) & 1
            b = (s[other + y] >> x) & 1
            out[k] = a
            out[k + 1] = b
            out[k + 2] = 1 - a - b
            out[k + 3] = mover
