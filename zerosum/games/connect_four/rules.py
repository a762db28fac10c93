"""Connect Four's rules as kernels over a column-major bitboard (the Pons/Tromp layout).

Geometry, for ``R`` rows, ``C`` columns and ``H = R + 1`` bits a column: the cell in
column ``c`` and row ``r`` (row 0 at the bottom) is bit ``c*H + r``. Bit ``c*H + R`` is
the column's guard and is never set, so a line shifted past the top of one column meets
a guard instead of wrapping into the next. ``C*H <= 63``: every board is a non-negative
int64.

params (built once per variant by :func:`geometry`)::

    [rows, columns, x_in_row, H, bottom, board, odd_rows, windows, window_0, window_1, ...]

``bottom`` has the lowest cell of each column, ``board`` every cell, ``odd_rows`` every
cell of rows 1, 3, 5, ... counted from 1 at the bottom, and the windows are the masks of
every line of ``x_in_row`` cells (the heuristics read them).

state: ``[discs of player 0, discs of player 1, status]``; ``apply`` sets the status (only
the mover can have made a line). The mover follows from the number of discs.
action: the column, 0 .. C-1.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State,
    helper, kernel, popcount,
)

S_P0, S_P1, S_STATUS = 0, 1, 2
P_ROWS, P_COLS, P_X, P_H, P_BOTTOM, P_BOARD, P_ODD, P_WINDOWS, P_WINDOW0 = range(9)
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (columns, rows) steps: vertical, horizontal, two diagonals


def cell(rows: int, col: int, row: int) -> int:
    """The bit of the cell in column ``col`` and row ``row`` (0 at the bottom)."""
    return col * (rows + 1) + row


def windows(rows: int, columns: int, x_in_row: int) -> list[int]:
    """The mask of every line of ``x_in_row`` cells on the board (each line once)."""
    found: dict[int, None] = {}
    for dc, dr in _DIRECTIONS:
        for c in range(columns):
            for r in range(rows):
                ends = (c + dc * (x_in_row - 1), r + dr * (x_in_row - 1))
                if 0 <= ends[0] < columns and 0 <= ends[1] < rows:
                    found[sum(1 << cell(rows, c + dc * k, r + dr * k) for k in range(x_in_row))] = None
    return list(found)


def geometry(rows: int, columns: int, x_in_row: int) -> list[int]:
    """The params vector of one variant (see the module docstring)."""
    bottom = sum(1 << cell(rows, c, 0) for c in range(columns))
    board = sum(1 << cell(rows, c, r) for c in range(columns) for r in range(rows))
    odd = sum(1 << cell(rows, c, r) for c in range(columns) for r in range(0, rows, 2))
    lines = windows(rows, columns, x_in_row)
    return [rows, columns, x_in_row, rows + 1, bottom, board, odd, len(lines), *lines]


@helper
def has_line(b: int, h: int, x: int) -> bool:  # pragma: no cover - compiled
    """True when the discs ``b`` hold ``x`` in a row in any direction (column height ``h``)."""
    for d in (1, h, h + 1, h - 1):  # vertical, horizontal, diagonal up, diagonal down
        if (x - 1) * d > 62:
            continue  # no line that long fits in this direction (and no shift of 64 or more)
        acc = b
        for k in range(1, x):
            acc &= b >> (k * d)
        if acc != 0:
            return True
    return False


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return popcount(s[S_P0] | s[S_P1]) & 1


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_STATUS]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if s[S_STATUS] != ONGOING:
        return 0
    occupied = s[S_P0] | s[S_P1]
    h = params[P_H]
    top = params[P_ROWS] - 1
    n = 0
    for c in range(params[P_COLS]):
        if not (occupied >> (c * h + top)) & 1:
            out[n] = c
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    if a < 0 or a >= params[P_COLS] or s[S_STATUS] != ONGOING:
        return False
    return not ((s[S_P0] | s[S_P1]) >> (a * params[P_H] + params[P_ROWS] - 1)) & 1


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    h = params[P_H]
    occupied = s[S_P0] | s[S_P1]
    p = popcount(occupied) & 1
    column = ((1 << params[P_ROWS]) - 1) << (a * h)
    disc = (occupied + (1 << (a * h))) & column  # the lowest empty cell of the column
    child[S_P0] = s[S_P0]
    child[S_P1] = s[S_P1]
    mine = s[p] | disc
    child[p] = mine
    if has_line(mine, h, params[P_X]):
        child[S_STATUS] = P0_WINS + p
    elif occupied | disc == params[P_BOARD]:
        child[S_STATUS] = DRAW
    else:
        child[S_STATUS] = ONGOING


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """Exact: the mover's discs plus the occupied cells. Column by column, h discs give a
    value in [2^h - 1, 2^(h+1) - 2], so no two positions share a key and no column carries
    into the next."""
    occupied = s[S_P0] | s[S_P1]
    return s[popcount(occupied) & 1] + occupied


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    rows = params[P_ROWS]
    cols = params[P_COLS]
    h = params[P_H]
    me = s[player_]
    opp = s[1 - player_]
    mover = 1 if (popcount(s[S_P0] | s[S_P1]) & 1) == player_ else 0
    for i in range(rows):  # observation row 0 is the top row, as PettingZoo's connect_four_v3
        r = rows - 1 - i
        for c in range(cols):
            bit = c * h + r
            k = 3 * (i * cols + c)
            out[k] = (me >> bit) & 1
            out[k + 1] = (opp >> bit) & 1
            out[k + 2] = mover
