"""Gomoku's search knowledge: threat patterns read from line windows, and a move order.

Every line of the board (rows, columns, both diagonals; on a ``wrap`` board each is a
cycle) is cut into *windows* of ``connect`` cells. A window with stones of one side only
is that side's: it can still become a line. Its number of stones says how far it is, and
the classic threat shapes are window counts:

* a **four** (``connect - 1`` stones and one empty cell) threatens to win on that cell;
  two different such cells cannot both be blocked;
* an **open three** is a window of ``connect + 1`` cells with both ends empty and
  ``connect - 2`` stones inside: one more stone makes an open four (two winning cells);
* twos and closed threes are windows of 2 and 3 stones (a closed three has only one
  window that can still become five, an open one several).

Heuristics (both symmetric: computed for player 0 and negated for player 1):

* ``windows``: the side's windows weighted 1, 6, 36, 216, ... by stones (6^(n-1)), own
  minus the opponent's (the tuple evaluation of the Gomoku literature, without tempo).
* ``threats`` (the default): the window score plus open threes, read with the move: the
  side to move with a four wins at once; facing two winning cells it loses; with an open
  three and no four against it, it makes an open four (values 9,000 / -8,500 / 7,000,
  below a proven win's 1,000,000).

The ordering hint ranks every move by the windows through its cell: first a cell that
completes the mover's line, then one that blocks the opponent's, that makes the mover's
four, blocks the opponent's four, makes or blocks a three, then any cell next to a stone,
so alpha-beta searches threats first among the 225 moves of the standard board. The
forcing moves (what the quiescence search follows past the horizon: a victory of
continuous fours) are the winning cells when the mover has one, else the blocks of the
opponent's winning cells, else the moves that make a four.

Everything is read bit-parallel (``scan``): for a direction and a start row, the rows of
the window's cells shifted into line give, in one int64 each, every window of that row of
starts; bit-sliced counters count their stones (about 9 us of CPU a position on 15x15,
measured on a shared 2-core machine at load 13).
"""

from __future__ import annotations

import numpy as np

from zerosum.games.gomoku.rules import (
    DIRECTIONS, P_ANTI, P_COLS, P_CONNECT, P_FULL_ROW, P_ROWS, P_WORDS, P_WRAP, legal, row_bits,
)
from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, popcount,
)

_WEIGHT = np.array([0.0] + [6.0 ** (n - 1) for n in range(1, 20)])  # a window of n own stones
_OPEN_THREE = 60.0
_WIN_NOW, _LOSE_NEXT, _OPEN_FOUR_NEXT = 9000.0, -8500.0, 7000.0
_BASE_LIMIT = 6000.0  # the window score's clip, below the tempo values
# The move-ordering hint: a cell that completes the mover's line, blocks the opponent's,
# makes the mover's four, blocks the opponent's four, makes a three, blocks a three.
_ORDER_OWN = np.array([1e6, 1e4, 100.0])
_ORDER_THEIRS = np.array([1e5, 1e3, 10.0])


@helper
def shift_cols(x: int, m: int, params: Params) -> int:  # pragma: no cover - compiled
    """Row bits ``x`` moved so that bit ``c`` of the result is bit ``c + m`` of ``x`` (round
    the row on a ``wrap`` board, else what falls off is lost)."""
    cols = params[P_COLS]
    full = params[P_FULL_ROW]
    if params[P_WRAP]:
        mm = m % cols
        return ((x >> mm) | (x << (cols - mm))) & full if mm else x
    return x >> m if m >= 0 else (x << -m) & full


@helper
def starts_mask(params: Params, dc: int, length: int) -> int:  # pragma: no cover - compiled
    """The columns where a window of ``length`` cells going ``dc`` columns a step fits."""
    full = params[P_FULL_ROW]
    if params[P_WRAP] or dc == 0:
        return full
    if length > params[P_COLS]:
        return 0
    if dc > 0:
        return (1 << (params[P_COLS] - length + 1)) - 1
    return full ^ ((1 << (length - 1)) - 1)


@helper
def count_in(planes: I64Array, base: int, x: int, bits: int) -> None:  # pragma: no cover - compiled
    """Adds one bit a column (``x``) to the bit-sliced counters ``planes[base:base+bits]``."""
    carry = x
    for j in range(bits):
        t = planes[base + j] & carry
        planes[base + j] ^= carry
        carry = t


@helper
def equal(planes: I64Array, base: int, n: int, bits: int) -> int:  # pragma: no cover - compiled
    """The columns whose bit-sliced counter (``bits`` planes) holds exactly ``n``."""
    acc = -1
    for j in range(bits):
        acc &= planes[base + j] if (n >> j) & 1 else ~planes[base + j]
    return acc


@helper
def scan(params: Params, s: State, windows: I64Array, opens: I64Array,
         cells: I64Array) -> None:  # pragma: no cover - compiled
    """Every window of ``connect`` cells, bit-parallel (a whole row of window starts at a
    time, four directions): ``windows[p*(k+1) + n]`` counts the windows with ``n`` stones of
    ``p`` and none of the other, ``opens[p]`` the open threes of ``p`` (windows of k+1 cells,
    both ends empty, k-2 stones of ``p`` inside and none of the other), and ``cells[(3*p +
    j)*rows + row]`` marks, row by row, the empty cells of ``p``'s windows of k-1-j stones
    (j = 0: the cells that win, 1: that make a four, 2: that make a three)."""
    size = params[P_ROWS]  # the rows of the board (a row's columns are the bits of a word)
    cols = params[P_COLS]
    k = params[P_CONNECT]
    wrap = params[P_WRAP]
    rows = np.empty(2 * size, np.int64)
    for r in range(size):
        rows[r] = row_bits(params, s, 0, r)
        rows[size + r] = row_bits(params, s, 1, r)
    planes = np.zeros(20, np.int64)  # interior counters of both sides, then full-window counters
    bits = 1
    while (1 << bits) <= k:  # planes enough to count to k
        bits += 1
    for d in range(4):
        dr, dc = DIRECTIONS[d]
        along = cols if dr == 0 else size if dc == 0 else min(size, cols)  # the most cells a line here has
        if k > along:
            continue
        last = size if wrap or dr == 0 else size - k + 1
        whole = starts_mask(params, dc, k)
        open_ = starts_mask(params, dc, k + 1) if k >= 3 and k + 1 <= along else 0
        for r in range(last):
            for j in range(20):
                planes[j] = 0
            any0 = 0
            any1 = 0
            for i in range(1, k):  # the interior: cells 1 .. k-1 of the window
                rr = r + i * dr
                if rr >= size:  # round a wrap board
                    rr -= size
                x0 = shift_cols(rows[rr], i * dc, params)
                x1 = shift_cols(rows[size + rr], i * dc, params)
                count_in(planes, 0, x0, bits)
                count_in(planes, 5, x1, bits)
                any0 |= x0
                any1 |= x1
            first0 = rows[r]
            first1 = rows[size + r]
            for j in range(10):
                planes[10 + j] = planes[j]
            count_in(planes, 10, first0, bits)
            count_in(planes, 15, first1, bits)
            only0 = whole & ~(any1 | first1)
            only1 = whole & ~(any0 | first0)
            for n in range(1, k):
                windows[n] += popcount(only0 & equal(planes, 10, n, bits))
                windows[k + 1 + n] += popcount(only1 & equal(planes, 15, n, bits))
            for j in range(3):  # the empty cells of the windows one, two, three stones short
                n = k - 1 - j
                if n < 1:
                    break
                m0 = only0 & equal(planes, 10, n, bits)
                m1 = only1 & equal(planes, 15, n, bits)
                if m0 == 0 and m1 == 0:
                    continue
                for i in range(k):
                    rr = r + i * dr
                    if rr >= size:
                        rr -= size
                    x = shift_cols(rows[rr] | rows[size + rr], i * dc, params)  # occupied (own, in these windows)
                    cells[j * size + rr] |= shift_cols(m0 & ~x, -i * dc, params)
                    cells[(3 + j) * size + rr] |= shift_cols(m1 & ~x, -i * dc, params)
            if open_ == 0 or (not wrap and r + k * dr >= size):
                continue
            rr = (r + k * dr) % size
            ends = open_ & ~(first0 | first1) & ~shift_cols(rows[rr] | rows[size + rr], k * dc, params)
            opens[0] += popcount(ends & ~any1 & equal(planes, 0, k - 2, bits))
            opens[1] += popcount(ends & ~any0 & equal(planes, 5, k - 2, bits))


@helper
def window_score(params: Params, windows: I64Array) -> float:  # pragma: no cover - compiled
    """Player 0's windows weighted 6^(n-1) by stones, minus player 1's."""
    k = params[P_CONNECT]
    v = 0.0
    for c in range(1, k):
        v += _WEIGHT[c] * (windows[c] - windows[k + 1 + c])
    return v


@helper
def clip(v: float, limit: float) -> float:  # pragma: no cover - compiled
    return min(max(v, -limit), limit)


@helper
def wins_of(params: Params, cells: I64Array, p: int) -> int:  # pragma: no cover - compiled
    """How many empty cells give ``p`` a line."""
    size = params[P_ROWS]
    n = 0
    for r in range(size):
        n += popcount(cells[3 * p * size + r])
    return n


@kernel(HEURISTIC)
def windows(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Windows of one side's stones weighted 1, 6, 36, ... by stones, own minus opponent's."""
    k = params[P_CONNECT]
    counts = np.zeros(2 * (k + 1), np.int64)
    opens = np.zeros(2, np.int64)
    cells = np.zeros(6 * params[P_ROWS], np.int64)
    scan(params, s, counts, opens, cells)
    v = clip(window_score(params, counts), HEURISTIC_LIMIT)
    if params[P_ANTI]:  # a line loses
        v = -v
    return v if player == 0 else -v


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Fours, open threes and windows, read with the side to move (see the module docstring)."""
    k = params[P_CONNECT]
    counts = np.zeros(2 * (k + 1), np.int64)
    opens = np.zeros(2, np.int64)
    cells = np.zeros(6 * params[P_ROWS], np.int64)
    scan(params, s, counts, opens, cells)
    me = s[2 * params[P_WORDS] + 1] & 1  # the side to move
    if params[P_ANTI]:  # a line loses: fewer and shorter windows are better
        v = -clip(window_score(params, counts), _BASE_LIMIT)
        return v if player == 0 else -v
    if wins_of(params, cells, me) > 0:
        v = _WIN_NOW
    elif wins_of(params, cells, 1 - me) >= 2:
        v = _LOSE_NEXT
    elif opens[me] > 0 and wins_of(params, cells, 1 - me) == 0:
        v = _OPEN_FOUR_NEXT
    else:
        base = window_score(params, counts) + _OPEN_THREE * (opens[0] - opens[1])
        v = clip(base if me == 0 else -base, _BASE_LIMIT)
    return v if player == me else -v


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """The mover's winning cells first, then blocks of the opponent's, cells that make the
    mover's fours, block the opponent's, make threes, then cells next to stones."""
    size = params[P_ROWS]
    cols = params[P_COLS]
    k = params[P_CONNECT]
    counts = np.zeros(2 * (k + 1), np.int64)
    opens = np.zeros(2, np.int64)
    cells = np.zeros(6 * size, np.int64)
    scan(params, s, counts, opens, cells)
    me = s[2 * params[P_WORDS] + 1] & 1
    near = np.zeros(size, np.int64)  # cells next to a stone (8 neighbours)
    for r in range(size):
        occ = row_bits(params, s, 0, r) | row_bits(params, s, 1, r)
        if occ == 0:
            continue
        spread = occ | shift_cols(occ, 1, params) | shift_cols(occ, -1, params)
        for rr in (r - 1, r, r + 1):
            if params[P_WRAP] or 0 <= rr < size:
                near[rr % size] |= spread
    for i in range(n):
        r = moves[i] // cols
        c = moves[i] % cols
        v = 0.0
        for j in range(3):
            v += _ORDER_OWN[j] * ((cells[(3 * me + j) * size + r] >> c) & 1)
            v += _ORDER_THEIRS[j] * ((cells[(3 * (1 - me) + j) * size + r] >> c) & 1)
        scores[i] = v + ((near[r] >> c) & 1)


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """The forcing moves, ascending: the cells that win when the mover has one; else the
    cells that block the opponent's line when it has one; else the cells that make a four."""
    n = legal(params, s, out)
    if n == 0:
        return 0
    size = params[P_ROWS]
    cols = params[P_COLS]
    k = params[P_CONNECT]
    counts = np.zeros(2 * (k + 1), np.int64)
    opens = np.zeros(2, np.int64)
    cells = np.zeros(6 * size, np.int64)
    scan(params, s, counts, opens, cells)
    me = s[2 * params[P_WORDS] + 1] & 1
    if wins_of(params, cells, me) > 0:
        row = 3 * me * size
    elif wins_of(params, cells, 1 - me) > 0:
        row = 3 * (1 - me) * size
    else:
        row = (3 * me + 1) * size
    m = 0
    for i in range(n):
        a = out[i]
        if (cells[row + a // cols] >> (a % cols)) & 1:
            out[m] = a
            m += 1
    return m


HEURISTICS = {
    "threats": Heuristic("threats", threats, "fours, open threes and line windows, read with the side to move",
                         symmetric=True),
    "windows": Heuristic("windows", windows, "windows of one side's stones weighted 6^(n-1), own minus opponent's",
                         symmetric=True),
}
