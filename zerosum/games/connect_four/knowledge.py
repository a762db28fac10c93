"""Connect Four's search knowledge: window counts, Allis's odd/even threats, centre first.

Both heuristics read the windows (every line of ``x_in_row`` cells) that the rules'
params hold, and score one side minus the other by absolute player, so
``h(s, 0) == -h(s, 1)`` for every position.

* ``windows``: every window free of the opponent's discs scores 1, 3, 9, ... for 1, 2,
  3, ... own discs (3^(k-1)); the opponent's windows count against.
* ``threats``: a *threat* is an empty cell that completes a line. Following Allis (1988),
  the first player's threats on odd rows (1, 3, 5 counted from 1 at the bottom) and the
  second player's on even rows are the ones that zugzwang lets each side cash in at the
  end of the game, so they weigh most (12 against 4); a threat above an opponent's threat
  in the same column is dead (the lower one comes first) and does not count. The window
  score is added. The default: against ``windows``, alpha-beta at equal depth, 200 games
  from 100 two-ply random openings in both seats, it scored 90-69 (41 draws) at depth 2,
  98-90 at 3, 111-61 at 4, 116-66 at 5 and 119-58 at 6.

The forcing moves (what the quiescence search follows past the horizon) are the
immediate threats and blocks: a move that wins, that takes the cell where the opponent
would win, or after which the mover could win with the next disc.

Every value is clipped to +-HEURISTIC_LIMIT (it only comes into play on boards far larger
than the standard one).
"""

from __future__ import annotations

import numpy as np

from zerosum.games.connect_four.rules import (
    P_BOARD, P_BOTTOM, P_COLS, P_H, P_ODD, P_ROWS, P_X, S_P0, S_P1, legal,
)
from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, popcount,
)

_IWEIGHT = np.array([0] + [3 ** (k - 1) for k in range(1, 10)], dtype=np.int64)  # by discs in an open window
_GOOD_THREAT, _OTHER_THREAT = 12.0, 4.0  # a live threat on its owner's good rows, on the others


@helper
def _clip(v: float) -> float:  # pragma: no cover - compiled
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@helper
def _before(b: int, d: int, k: int) -> int:  # pragma: no cover - compiled
    """The cells e whose ``k`` cells before them in direction ``d`` (e-d, ..., e-k*d) are all
    in ``b`` (every cell for k = 0); ``k*d <= 62``."""
    acc = -1
    for i in range(1, k + 1):
        acc &= b << (i * d)
    return acc


@helper
def _completions(b: int, h: int, x: int, board: int) -> tuple[int, bool]:  # pragma: no cover - compiled
    """The cells of the board that would give ``b`` a line of ``x`` through them (a window
    of ``x`` cells holding that cell and ``x - 1`` discs of ``b``), and whether ``b`` holds a
    line already: ``has_line(b | e)`` for an empty cell ``e`` is ``e in cells or line``.

    Bit-parallel, one pass per direction: the cells with ``j`` discs of ``b`` after them and
    ``x-1-j`` before. A column fills from the bottom, so a vertical window through an empty
    cell has it on top (the cells it returns that are not empty follow that rule too)."""
    below = _before(b, 1, x - 1)  # vertical: x-1 discs under the cell
    cells = below
    line = (b & below) != 0
    for d in (h, h + 1, h - 1):  # horizontal, diagonal up, diagonal down
        if (x - 1) * d > 62:
            continue  # no line that long fits in this direction (as has_line)
        after = -1
        for j in range(x):
            before = _before(b, d, x - 1 - j)
            if j == 0:
                line = line or (b & before) != 0
            cells |= after & before
            if j < x - 1:
                after &= b >> ((j + 1) * d)
    return cells & board, line


@helper
def _pair_cells(mine: int, empty: int, h: int, x: int) -> int:  # pragma: no cover - compiled
    """The cells of ``empty`` (one a column) that share a non-vertical window with exactly
    one other cell of ``empty``, all its other cells in ``mine``."""
    out = 0
    u = mine | empty
    for d in (h, h + 1, h - 1):
        if (x - 1) * d > 62:
            continue
        full = -1
        g1 = 0
        g2 = 0
        g3 = 0
        for i in range(x):
            e = empty >> (i * d)
            full &= u >> (i * d)
            g3 |= g2 & e
            g2 |= g1 & e
            g1 |= e
        starts = full & g2 & ~g3
        if starts != 0:
            for i in range(x):
                out |= (starts << (i * d)) & empty
    return out


@helper
def _window_score(params: Params, p0: int, p1: int, h: int, x: int) -> int:  # pragma: no cover - compiled
    """Player 0's open windows weighted by discs minus player 1's: per direction, the
    windows by their first cell, their discs counted bit-sliced (four bit planes: up to
    15 discs), one popcount per disc count."""
    board = params[P_BOARD]
    occupied = p0 | p1
    score = 0
    for d in (1, h, h + 1, h - 1):
        if (x - 1) * d > 62 or (x == 1 and d != 1):
            continue  # no line that long fits; a one-cell window is one window, not four
        starts, c0, c1, c2, c3, any0, any1 = -1, 0, 0, 0, 0, 0, 0
        for i in range(x):
            k = i * d
            starts &= board >> k  # every cell of the window on the board
            o = occupied >> k
            t = c0 & o
            c0 ^= o
            u = c1 & t
            c1 ^= t
            if x >= 8:  # a fourth plane only for counts of 8 or more (folded away on the standard board)
                c3 ^= c2 & u
            c2 ^= u
            any0 |= p0 >> k
            any1 |= p1 >> k
        own0 = starts & any0 & ~any1
        own1 = starts & any1 & ~any0
        for a in range(1, x + 1):
            eq = ((c0 if a & 1 else ~c0) & (c1 if a & 2 else ~c1) & (c2 if a & 4 else ~c2)
                  & (c3 if a & 8 else ~c3))
            score += _IWEIGHT[a] * (popcount(own0 & eq) - popcount(own1 & eq))
    return score


@helper
def _threats_value(params: Params, p0: int, p1: int, h: int, x: int) -> float:  # pragma: no cover - compiled
    """The threats heuristic for player 0: the window score plus the live threats (empty
    cells that complete a line) of player 0 minus player 1's."""
    v = float(_window_score(params, p0, p1, h, x))
    if x == 1:
        return v  # no window is one disc short
    board = params[P_BOARD]
    empty = board & ~(p0 | p1)
    t0 = _completions(p0, h, x, board)[0] & empty
    t1 = _completions(p1, h, x, board)[0] & empty
    odd = params[P_ODD]
    return v + (_threat_score(params, t0, t1, odd) - _threat_score(params, t1, t0, board & ~odd))


@helper
def _above(params: Params, t: int) -> int:  # pragma: no cover - compiled
    """Every cell above a cell of ``t`` (cells of the board) in the same column: with each
    column's guard set, subtracting the bottom row borrows up to the column's lowest cell of
    ``t`` and no further, and flips exactly the cells up to it."""
    board, bottom = params[P_BOARD], params[P_BOTTOM]
    marked = t | (bottom << params[P_ROWS])  # the guards: no column is empty, no borrow leaves one
    return board & ~((marked - bottom) ^ marked)


@helper
def _threat_score(params: Params, own: int, other: int, good: int) -> float:  # pragma: no cover - compiled
    alive = own & ~_above(params, other)
    return _GOOD_THREAT * popcount(alive & good) + _OTHER_THREAT * popcount(alive & ~good)


@kernel(HEURISTIC)
def windows(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Open windows weighted 1, 3, 9, ... by own discs, own minus the opponent's."""
    h, x = params[P_H], params[P_X]
    if h == 7 and x == 4:  # the standard board: the same code, its loops unrolled by the constants
        v = float(_window_score(params, s[S_P0], s[S_P1], 7, 4))
    else:
        v = float(_window_score(params, s[S_P0], s[S_P1], h, x))
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Live threats (odd rows for player 0, even rows for player 1 weigh most) plus the
    window score, own minus the opponent's."""
    h, x = params[P_H], params[P_X]
    if h == 7 and x == 4:  # the standard board, as in windows
        v = _threats_value(params, s[S_P0], s[S_P1], 7, 4)
    else:
        v = _threats_value(params, s[S_P0], s[S_P1], h, x)
    return _clip(v if player == 0 else -v)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Centre first: columns nearer the middle score higher."""
    last = params[P_COLS] - 1
    for i in range(n):
        scores[i] = -float(abs(2 * moves[i] - last))


@helper
def _forced(params: Params, s: State, h: int, x: int) -> int:  # pragma: no cover - compiled
    """The playable cells of the forcing moves of an ongoing position (-1: every move).

    Bit-parallel, every column at once: the mover's and the opponent's winning cells, and
    for the next disc the cell above a move, the columns where x-2 own discs lie under the
    move, and the windows that two playable cells would complete. Where the mover can
    already win, every move is one (it wins or leaves that cell)."""
    occupied = s[S_P0] | s[S_P1]
    p = popcount(occupied) & 1
    mine = s[p]
    theirs = s[1 - p]
    board = params[P_BOARD]
    playable = (occupied + params[P_BOTTOM]) & board  # each open column's lowest empty cell
    wins, line = _completions(mine, h, x, board)
    if line or (wins & playable) != 0:
        return -1
    blocks, their_line = _completions(theirs, h, x, board)
    if their_line:
        return -1
    return ((blocks | (wins >> 1) | (_before(mine, 1, x - 2) & (board >> 1))) & playable
            | _pair_cells(mine, playable, h, x))


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """Immediate threats and blocks: moves that win, that block the opponent's winning
    cell, or that leave the mover a winning cell for the next disc (in column order)."""
    n = legal(params, s, out)
    if n == 0:
        return 0
    h, x = params[P_H], params[P_X]
    forced = _forced(params, s, 7, 4) if h == 7 and x == 4 else _forced(params, s, h, x)  # as in windows
    if forced == -1:
        return n
    column = (1 << params[P_ROWS]) - 1
    m = 0
    for i in range(n):
        c = out[i]
        if ((forced >> (c * h)) & column) != 0:
            out[m] = c
            m += 1
    return m


HEURISTICS = {
    "windows": Heuristic("windows", windows, "open windows weighted 1/3/9 by discs, own minus opponent's",
                         symmetric=True),
    "threats": Heuristic("threats", threats, "live threats, odd/even rows by player (Allis), plus window counts",
                         symmetric=True),
}
