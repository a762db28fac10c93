"""Amazons' search knowledge: territory by queen and king distance, and mobility.

The evaluation of the strong Amazons programs (Lieberum, "An evaluation function for the
game of Amazons", Theoretical Computer Science 349, 2005; Hensgens' and Kloetzer's
theses): each empty cell belongs to the side that reaches it first, measured in queen
moves (``queen distance``, what decides the endgame, when the board splits into
territories) or in king steps (``king distance``, a smoother count that matters early);
mobility counts the queen moves each side's queens have.

Distances are found by a breadth-first search from each side's queens through empty
cells; a queen lifted off the board (the second action of a move) counts where it stood.

Every heuristic scores player 0's side (``X``) minus player 1's and negates it for
player 1, so ``h(s, 0) == -h(s, 1)``:

* ``territory`` (the default): the empty cells nearer by queen distance (1 each), plus
  half a cell for each nearer by king distance, plus a tenth of the mobility difference.
* ``queen_distance``, ``king_distance``: the cells each side reaches first, alone.
* ``mobility``: the queen moves of one's queens, own minus the opponent's.

The ordering hint picks first the queens and destinations with the most empty cells
around them, and the arrows that land next to the opponent's queens.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.amazons.rules import (
    EMPTY, MOVE, P_SIZE, S_CELLS, S_FROM, S_PHASE, S_TO_MOVE, SHOOT, step_col, step_row,
)
from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel

FAR = 1 << 20
W_KING, W_MOBILITY = 0.5, 0.1


@helper
def board_of(params: Params, s: State) -> I64Array:  # pragma: no cover - compiled
    """The cells, with a queen lifted to move put back where it stood."""
    size = params[P_SIZE]
    cells = np.empty(size * size, np.int64)
    for i in range(size * size):
        cells[i] = s[S_CELLS + i]
    if s[S_PHASE] == MOVE:
        cells[s[S_FROM]] = 1 + s[S_TO_MOVE]
    return cells


@helper
def distances(cells: I64Array, size: int, p: int, queen: bool) -> I64Array:  # pragma: no cover - compiled
    """Queen moves (``queen``) or king steps from player ``p``'s queens to every cell,
    through empty cells (FAR where none reaches)."""
    n = size * size
    dist = np.full(n, FAR, np.int64)
    frontier = np.empty(n, np.int64)
    nxt = np.empty(n, np.int64)
    m = 0
    for sq in range(n):
        if cells[sq] == 1 + p:
            dist[sq] = 0
            frontier[m] = sq
            m += 1
    d = 0
    while m > 0:
        k = 0
        for i in range(m):
            sq = frontier[i]
            for ray in range(8):
                dr = step_row(ray)
                dc = step_col(ray)
                r = sq // size + dr
                c = sq % size + dc
                while 0 <= r < size and 0 <= c < size and cells[r * size + c] == EMPTY:
                    to = r * size + c
                    if dist[to] > d + 1:
                        dist[to] = d + 1
                        nxt[k] = to
                        k += 1
                    if not queen:
                        break
                    r += dr
                    c += dc
        for i in range(k):
            frontier[i] = nxt[i]
        m = k
        d += 1
    return dist


@helper
def territory(cells: I64Array, size: int, queen: bool) -> float:  # pragma: no cover - compiled
    """Empty cells player 0 reaches first minus those player 1 reaches first."""
    d0 = distances(cells, size, 0, queen)
    d1 = distances(cells, size, 1, queen)
    v = 0.0
    for sq in range(size * size):
        if cells[sq] == EMPTY:
            if d0[sq] < d1[sq]:
                v += 1.0
            elif d1[sq] < d0[sq]:
                v -= 1.0
    return v


@helper
def moves_of(cells: I64Array, size: int, p: int) -> float:  # pragma: no cover - compiled
    """The queen moves of player ``p``'s queens."""
    v = 0.0
    for sq in range(size * size):
        if cells[sq] == 1 + p:
            for ray in range(8):
                dr = step_row(ray)
                dc = step_col(ray)
                r = sq // size + dr
                c = sq % size + dc
                while 0 <= r < size and 0 <= c < size and cells[r * size + c] == EMPTY:
                    v += 1.0
                    r += dr
                    c += dc
    return v


@kernel(HEURISTIC)
def combined(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Queen-distance territory, half the king-distance territory, a tenth of the mobility."""
    size = params[P_SIZE]
    cells = board_of(params, s)
    v = (territory(cells, size, True) + W_KING * territory(cells, size, False)
         + W_MOBILITY * (moves_of(cells, size, 0) - moves_of(cells, size, 1)))
    return v if player == 0 else -v


@kernel(HEURISTIC)
def queen_distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """The empty cells each side reaches first in queen moves, own minus the opponent's."""
    v = territory(board_of(params, s), params[P_SIZE], True)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def king_distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """The empty cells each side reaches first in king steps, own minus the opponent's."""
    v = territory(board_of(params, s), params[P_SIZE], False)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Queen moves, own minus the opponent's."""
    size = params[P_SIZE]
    cells = board_of(params, s)
    v = moves_of(cells, size, 0) - moves_of(cells, size, 1)
    return v if player == 0 else -v


@helper
def around(s: State, size: int, sq: int, what: int) -> int:  # pragma: no cover - compiled
    """The cells next to ``sq`` (sides and corners) that hold ``what``."""
    n = 0
    r = sq // size
    c = sq % size
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            rr = r + dr
            cc = c + dc
            if (dr != 0 or dc != 0) and 0 <= rr < size and 0 <= cc < size and s[S_CELLS + rr * size + cc] == what:
                n += 1
    return n


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Queens and destinations with more empty cells around first; arrows next to the
    opponent's queens (3 each) and not next to one's own (-1 each)."""
    size = params[P_SIZE]
    phase = s[S_PHASE]
    p = s[S_TO_MOVE]
    for i in range(n):
        sq = moves[i]
        if phase == SHOOT:
            scores[i] = 3.0 * around(s, size, sq, 2 - p) - around(s, size, sq, 1 + p)
        else:
            scores[i] = around(s, size, sq, EMPTY)


HEURISTICS = {
    "territory": Heuristic("territory", combined, "cells reached first by queen moves and (half) by king steps, "
                           "with a tenth of the mobility, own minus opponent's", symmetric=True),
    "queen_distance": Heuristic("queen_distance", queen_distance, "empty cells reached first in queen moves, own "
                                "minus opponent's", symmetric=True),
    "king_distance": Heuristic("king_distance", king_distance, "empty cells reached first in king steps, own minus "
                               "opponent's", symmetric=True),
    "mobility": Heuristic("mobility", mobility, "queen moves, own minus opponent's", symmetric=True),
}
