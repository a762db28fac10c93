"""The Game of the Amazons' rules as kernels over a cell array (OpenSpiel's ``amazons``).

Geometry: the cell in row ``r`` and column ``c`` is ``r*size + c`` with OpenSpiel's rows:
row 0 is the top of the board as drawn (rank ``size``), row ``size - 1`` rank 1.

params: ``[size]``.

state::

    [player to move, phase, lifted queen's square, moved queen's square, cells...]

phase 0: the mover picks a queen (``from``); 1: the queen, lifted off the board, picks its
destination; 2: the queen, now there, shoots an arrow. Each phase is one action, an
action is a cell (OpenSpiel's encoding: ``size * size`` actions). The squares of a phase
that does not use them are 0, so equal positions are equal vectors. A cell holds 0
(empty), 1 (a queen of player 0, ``X``), 2 (a queen of player 1, ``O``) or 3 (an arrow).

A queen moves like a chess queen over empty cells; the arrow flies the same way from the
queen's new square (through or onto the square it left). After the arrow, the player to
move who has no queen with an empty cell next to it loses; there are no draws.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I8Array, I64Array, Params, State,
    helper, i64, kernel, shr,
)

S_TO_MOVE, S_PHASE, S_FROM, S_TO, S_CELLS = range(5)
SELECT, MOVE, SHOOT = range(3)
EMPTY, ARROW = 0, 3
P_SIZE = 0
NUM_PLANES = 6
# OpenSpiel's starting squares, (player 1's queens 'O', player 0's queens 'X'), by board size
START = {
    10: ((3, 6, 30, 39), (60, 69, 93, 96)),
    8: ((2, 5, 16, 23), (40, 47, 58, 61)),
    6: ((1, 4, 6, 11), (24, 29, 31, 34)),
}
ROW_STEP = (0, 0, -1, 1, -1, -1, 1, 1)  # OpenSpiel's rays: left, right, up, down and the four diagonals
COL_STEP = (-1, 1, 0, 0, -1, 1, -1, 1)
_MIX = i64(0xFF51AFD7ED558CCD)
_SEED = i64(0x9E3779B97F4A7C15)


def starting_state(size: int) -> list[int]:
    """The four queens a side where OpenSpiel puts them, player 0 (``X``) to pick a queen."""
    cells = [EMPTY] * (size * size)
    o_queens, x_queens = START[size]
    for sq in x_queens:
        cells[sq] = 1
    for sq in o_queens:
        cells[sq] = 2
    return [0, SELECT, 0, 0, *cells]


def max_reach(size: int) -> int:
    """The most cells a queen reaches from one square of an empty board."""
    best = 0
    for r in range(size):
        for c in range(size):
            n = 2 * (size - 1) + min(r, c) + min(r, size - 1 - c) + min(size - 1 - r, c) \
                + min(size - 1 - r, size - 1 - c)
            best = max(best, n)
    return best


@helper
def step_row(d: int) -> int:  # pragma: no cover - compiled
    """The row step of ray ``d`` (OpenSpiel's order: left, right, up, down, the diagonals)."""
    return -1 if d == 2 or d == 4 or d == 5 else 1 if d == 3 or d == 6 or d == 7 else 0


@helper
def step_col(d: int) -> int:  # pragma: no cover - compiled
    """The column step of ray ``d``."""
    return -1 if d == 0 or d == 4 or d == 6 else 1 if d == 1 or d == 5 or d == 7 else 0


@helper
def free_around(s: State, size: int, r: int, c: int) -> bool:  # pragma: no cover - compiled
    """Whether a cell next to the cell in row ``r`` and column ``c`` (by side or corner) is empty."""
    for rr in range(max(r - 1, 0), min(r + 2, size)):
        for cc in range(max(c - 1, 0), min(c + 2, size)):
            if s[S_CELLS + rr * size + cc] == EMPTY and (rr != r or cc != c):
                return True
    return False


@helper
def free_next_to(s: State, size: int, sq: int) -> bool:  # pragma: no cover - compiled
    """Whether a cell next to ``sq`` (by side or corner) is empty."""
    r = sq // size
    return free_around(s, size, r, sq - r * size)


@helper
def can_move(s: State, size: int, p: int) -> bool:  # pragma: no cover - compiled
    """Whether player ``p`` has a queen with an empty cell next to it."""
    queen = 1 + p
    for sq in range(size * size):  # noqa: SIM110 - numba compiles no generator expressions
        if s[S_CELLS + sq] == queen and free_next_to(s, size, sq):
            return True
    return False


@helper
def reach(s: State, sq: int, room: int, step: int) -> int:  # pragma: no cover - compiled
    """How many empty cells in a row a queen on ``sq`` sees along ``step`` (a cell index
    step), with ``room`` cells to the board's edge that way."""
    n = 0
    at = S_CELLS + sq + step
    while n < room and s[at] == EMPTY:
        n += 1
        at += step
    return n


@helper
def rays(s: State, size: int, sq: int, out: I64Array) -> int:  # pragma: no cover - compiled
    """The empty cells a queen on ``sq`` reaches, ascending, into ``out``; how many.

    Ascending without sorting: the rows above, farthest first, each with its up-left,
    up and up-right cell; then the row's own cells, left then right; then the rows below,
    nearest first, each with its down-left, down and down-right cell."""
    r0 = sq // size
    c0 = sq - r0 * size
    above, below, west, east = r0, size - 1 - r0, c0, size - 1 - c0  # cells to each edge
    up_left = reach(s, sq, min(above, west), -size - 1)
    up = reach(s, sq, above, -size)
    up_right = reach(s, sq, min(above, east), -size + 1)
    left = reach(s, sq, west, -1)
    right = reach(s, sq, east, 1)
    down_left = reach(s, sq, min(below, west), size - 1)
    down = reach(s, sq, below, size)
    down_right = reach(s, sq, min(below, east), size + 1)
    n = 0
    for k in range(max(up_left, max(up, up_right)), 0, -1):
        row = sq - k * size
        if k <= up_left:
            out[n] = row - k
            n += 1
        if k <= up:
            out[n] = row
            n += 1
        if k <= up_right:
            out[n] = row + k
            n += 1
    for k in range(left, 0, -1):
        out[n] = sq - k
        n += 1
    for k in range(1, right + 1):
        out[n] = sq + k
        n += 1
    for k in range(1, max(down_left, max(down, down_right)) + 1):
        row = sq + k * size
        if k <= down_left:
            out[n] = row - k
            n += 1
        if k <= down:
            out[n] = row
            n += 1
        if k <= down_right:
            out[n] = row + k
            n += 1
    return n


@helper
def sees(s: State, size: int, frm: int, to: int) -> bool:  # pragma: no cover - compiled
    """Whether ``to`` is an empty cell a queen on ``frm`` reaches (a straight line of empty cells)."""
    dr = to // size - frm // size
    dc = to % size - frm % size
    if (dr == 0 and dc == 0) or not (dr == 0 or dc == 0 or dr == dc or dr == -dc):
        return False
    n = max(abs(dr), abs(dc))
    sr = (dr > 0) - (dr < 0)
    sc = (dc > 0) - (dc < 0)
    clear = True
    for i in range(1, n + 1):
        if s[S_CELLS + frm + i * (sr * size + sc)] != EMPTY:
            clear = False
            break
    return clear


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    p = s[S_TO_MOVE]
    if s[S_PHASE] == SELECT and not can_move(s, params[P_SIZE], p):
        return P0_WINS + 1 - p  # the player to move has no queen that can move: the other wins
    return ONGOING


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    size = params[P_SIZE]
    phase = s[S_PHASE]
    if phase == MOVE:
        return rays(s, size, s[S_FROM], out)
    if phase == SHOOT:
        return rays(s, size, s[S_TO], out)
    queen = 1 + s[S_TO_MOVE]
    n = 0
    for sq in range(size * size):
        if s[S_CELLS + sq] == queen and free_next_to(s, size, sq):
            out[n] = sq
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    size = params[P_SIZE]
    if a < 0 or a >= size * size:
        return False
    phase = s[S_PHASE]
    if phase == MOVE:
        return sees(s, size, s[S_FROM], a)
    if phase == SHOOT:
        return sees(s, size, s[S_TO], a)
    return s[S_CELLS + a] == 1 + s[S_TO_MOVE] and free_next_to(s, size, a)


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    size = params[P_SIZE]
    for i in range(S_CELLS + size * size):
        child[i] = s[i]
    p = s[S_TO_MOVE]
    phase = s[S_PHASE]
    if phase == SELECT:
        child[S_CELLS + a] = EMPTY
        child[S_FROM] = a
        child[S_PHASE] = MOVE
    elif phase == MOVE:
        child[S_CELLS + a] = 1 + p
        child[S_TO] = a
        child[S_PHASE] = SHOOT
    else:
        child[S_CELLS + a] = ARROW
        child[S_FROM] = 0
        child[S_TO] = 0
        child[S_PHASE] = SELECT
        child[S_TO_MOVE] = 1 - p


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the whole state (MurmurHash3's finaliser, chained over the words)."""
    h = _SEED
    for i in range(S_CELLS + params[P_SIZE] * params[P_SIZE]):
        h = (h ^ (s[i] + 1 + i * 4)) * _MIX
        h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(size, size, 6), row 0 the top row: own queens, the opponent's, arrows, the square of
    the queen lifted to move (phase 1), the queen that shoots (phase 2), ones when the
    observer is to move."""
    size = params[P_SIZE]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    phase = s[S_PHASE]
    for sq in range(size * size):
        k = NUM_PLANES * sq
        cell = s[S_CELLS + sq]
        out[k] = 1 if cell == 1 + player_ else 0
        out[k + 1] = 1 if cell == 2 - player_ else 0
        out[k + 2] = 1 if cell == ARROW else 0
        out[k + 3] = 1 if phase == MOVE and sq == s[S_FROM] else 0
        out[k + 4] = 1 if phase == SHOOT and sq == s[S_TO] else 0
        out[k + 5] = mover
