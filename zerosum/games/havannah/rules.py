"""Havannah's rules as kernels over one 64-bit word a board row.

Geometry, for base ``B`` (2..13) and diameter ``D = 2B - 1``: OpenSpiel's ``havannah`` lays
the hexagon in a D x D square; the cell in column ``x`` and row ``y`` (``|x - y| < B``) is
action ``x + y*D``, and the square's two cut-off corners are never legal. Its neighbours, in
OpenSpiel's (clockwise) order, are ``(x-1, y-1)``, ``(x, y-1)``, ``(x+1, y)``, ``(x+1, y+1)``,
``(x, y+1)`` and ``(x-1, y)``. Column ``x`` is bit ``D-1-x`` of row ``y``'s word: mirrored
so, the rows have the pattern of Hex's rows, and a chain grows with Hex's row fill
(:func:`zerosum.games.hex.rules.fill`).

The six corners and the six edges (the cells of a side but its two corners) are
OpenSpiel's, numbered as its bits: corners ``(0, 0)``, ``(m, 0)``, ``(e, m)``, ``(e, e)``,
``(m, e)``, ``(0, m)`` for ``m = B - 1``, ``e = 2m``; edges ``y = 0``, ``x - y = m``,
``x = e``, ``y = e``, ``y - x = m``, ``x = 0``.

A move wins when the new stone's chain touches three edges (a fork) or two corners (a
bridge), or closes a ring: OpenSpiel's test, which is followed exactly. When the stone
joins its chain a second time (the neighbours are taken in order, and the one after a
joined neighbour is skipped, a sharp corner of the same chain), a depth-first walk from the
stone along its stones, turning at most 60 degrees a step (the first step in directions 0-3),
looks for a cell it has already walked through. A full board without a winner is a draw.

With ``swap``, the second player's first move may be the cell of the first stone, which
becomes its own (OpenSpiel's ``swap``); the stone count stays 1.

params: ``[B, D, cells, swap, the 6 corner cells, the 6 edges (D row masks each), the
corners (D row masks), neighbours...]``: ``6*cell + k`` after ``P_NEIGHBOURS`` is the k-th neighbour of a cell in
OpenSpiel's order (-1 off the board); the heuristics read it too.

state: ``[to_move, status, stones on the board, player 0's stones (D row words), player 1's
(D row words), D work rows]``. Wins are found when the move is made, so a state is its
stones, count and mover, and states stay canonical: ``apply`` grows chains in the work rows
of the state it writes and clears them (zero in every state; no allocation a move).
"""

from __future__ import annotations

import numpy as np

from zerosum.games.hex.rules import fill, row_fill
from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State,
    helper, i64, kernel, lowest_bit, popcount, shr,
)

P_BASE, P_DIAM, P_CELLS, P_SWAP, P_CORNERS = range(5)
P_EDGES = P_CORNERS + 6
S_TO_MOVE, S_STATUS, S_COUNT, S_BOARDS = 0, 1, 2, 3
STEPS = ((-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0))
"""The (dx, dy) of a cell's six neighbours, in OpenSpiel's (clockwise) order."""
_MIX = i64(0xFF51AFD7ED558CCD)  # odd multiplier of the key's mixing (MurmurHash3's finaliser)
_SEED = i64(0x9E3779B97F4A7C15)


def on_board(base: int, x: int, y: int) -> bool:
    """Whether ``(x, y)`` is a cell of the hexagon of side ``base``."""
    d = 2 * base - 1
    return 0 <= x < d and 0 <= y < d and abs(x - y) < base


def neighbours(base: int, cell: int) -> list[int]:
    """The six neighbours of ``cell`` in OpenSpiel's order, -1 where one is off the board."""
    d = 2 * base - 1
    y, x = divmod(cell, d)
    return [(y + dy) * d + x + dx if on_board(base, x + dx, y + dy) else -1 for dx, dy in STEPS]


def corner_cells(base: int) -> list[int]:
    """The six corners' cells, in OpenSpiel's order of its corner bits."""
    m, d = base - 1, 2 * base - 1
    e = 2 * m
    return [y * d + x for x, y in ((0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m))]


def edge_of(base: int, cell: int) -> int:
    """The edge (0-5, OpenSpiel's edge bits) that ``cell`` lies on, -1 for none (a corner,
    the inside, or off the board)."""
    m, d = base - 1, 2 * base - 1
    e = 2 * m
    y, x = divmod(cell, d)
    if not on_board(base, x, y):
        return -1
    tests = (y == 0 and x not in (0, m), x - y == m and x not in (m, e), x == e and y not in (m, e),
             y == e and x not in (e, m), y - x == m and x not in (m, 0), x == 0 and y not in (m, 0))
    return tests.index(True) if any(tests) else -1


def geometry(base: int, swap: bool) -> list[int]:
    """The params vector of one variant."""
    d = 2 * base - 1
    cells = d * d - base * (base - 1)
    edges = [0] * (6 * d)
    for cell in range(d * d):
        k = edge_of(base, cell)
        if k >= 0:
            edges[k * d + cell // d] |= 1 << (d - 1 - cell % d)
    corner_rows = [0] * d
    for cell in corner_cells(base):
        corner_rows[cell // d] |= 1 << (d - 1 - cell % d)
    return [base, d, cells, int(swap), *corner_cells(base), *edges, *corner_rows,
            *(z for cell in range(d * d) for z in neighbours(base, cell))]


def state_size(base: int) -> int:
    """The length of a state on a board of side ``base``."""
    return S_BOARDS + 3 * (2 * base - 1)


@helper
def neighbours_at(params: Params) -> int:  # pragma: no cover - compiled
    """Where the neighbour table starts in ``params``."""
    return P_EDGES + 7 * params[P_DIAM]


@helper
def has(s: State, base: int, d: int, cell: int) -> bool:  # pragma: no cover - compiled
    """Whether the board at ``s[base:base+d]`` holds ``cell``."""
    y = cell // d
    return ((s[base + y] >> (d - 1 - (cell - y * d))) & 1) != 0


@helper
def swap_legal(params: Params, s: State) -> bool:  # pragma: no cover - compiled
    """The swap applies: it is in force and the second player is to make its first move."""
    return params[P_SWAP] != 0 and s[S_COUNT] == 1 and s[S_TO_MOVE] == 1 and s[S_STATUS] == ONGOING


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
    b, d = params[P_BASE], params[P_DIAM]
    anywhere = swap_legal(params, s)  # the one stone on the board may be taken
    n = 0
    for y in range(d):
        lo = max(0, y - b + 1)
        hi = min(d, y + b) - 1
        free = (((1 << (hi - lo + 1)) - 1) << (d - 1 - hi))
        if not anywhere:
            free &= ~(s[S_BOARDS + y] | s[S_BOARDS + d + y])
        first = n
        for _ in range(d):  # bit d-1-x: the lowest bit first is the highest x first
            if free == 0:
                break
            out[n] = y * d + d - 1 - lowest_bit(free)
            n += 1
            free &= free - 1
        i, j = first, n - 1
        while i < j:  # ascending x
            out[i], out[j] = out[j], out[i]
            i += 1
            j -= 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    b, d = params[P_BASE], params[P_DIAM]
    if s[S_STATUS] != ONGOING or a < 0 or a >= d * d:
        return False
    y = a // d
    x = a - y * d
    if abs(x - y) >= b:
        return False
    return swap_legal(params, s) or not ((s[S_BOARDS + y] | s[S_BOARDS + d + y]) >> (d - 1 - x)) & 1


@helper
def ring(params: Params, s: State, own: int, a: int) -> bool:  # pragma: no cover - compiled
    """OpenSpiel's ring test from the new stone ``a``: a depth-first walk along the stones at
    ``s[own:own+D]`` that turns at most one direction a step (the first step in directions
    0-3) and finds a cell already on its path. Iterative: a frame is (cell, next direction,
    last direction); the path's cells are marked in ``s``'s work rows, cleared after."""
    d = params[P_DIAM]
    nb = neighbours_at(params)
    at = S_BOARDS + 2 * d  # the walk's cells, one word a row, bits as the stones'
    frames = np.empty(3 * (d * d + 1), np.int64)
    frames[0], frames[1], frames[2] = a, 0, 3
    s[at + a // d] |= 1 << (d - 1 - a % d)
    top = 1
    found = False
    for _ in range(1 << 40):  # the walk ends: each frame tries at most four directions
        if top == 0:
            break
        f = 3 * (top - 1)
        c = frames[f]
        if frames[f + 1] > frames[f + 2]:
            s[at + c // d] &= ~(1 << (d - 1 - c % d))
            top -= 1
            continue
        direction = (frames[f + 1] + 6) % 6
        frames[f + 1] += 1
        z = params[nb + 6 * c + direction]
        if z < 0 or not has(s, own, d, z):
            continue
        if has(s, at, d, z):
            found = True
            break
        s[at + z // d] |= 1 << (d - 1 - z % d)
        frames[3 * top], frames[3 * top + 1], frames[3 * top + 2] = z, direction - 1, direction + 1
        top += 1
    clear(params, s)
    return found


@helper
def grow(params: Params, s: State, own: int, a: int, work: State) -> int:  # pragma: no cover - compiled
    """The chain of the stone on ``a`` among the stones at ``s[own:own+D]``, written to the
    work rows of ``work`` (a state's last D words, zero in every state: the caller clears
    them); where they start."""
    d = params[P_DIAM]
    at = S_BOARDS + 2 * d
    y = a // d
    work[at + y] = row_fill(1 << (d - 1 - (a - y * d)), s[own + y])
    fill(s, own, work, at, d, y)
    return at


@helper
def clear(params: Params, work: State) -> None:  # pragma: no cover - compiled
    """Zero the work rows of ``work``."""
    d = params[P_DIAM]
    for i in range(S_BOARDS + 2 * d, S_BOARDS + 3 * d):
        work[i] = 0


@helper
def same_chain(params: Params, s: State, own: int, a: int, b: int, c: int,
               work: State) -> bool:  # pragma: no cover - compiled
    """Whether ``b`` or ``c`` (-1: none) is in the chain of ``a`` among the stones at
    ``s[own:own+D]``, grown in ``work``'s work rows (zero before) and left there."""
    d = params[P_DIAM]
    at = grow(params, s, own, a, work)
    return (b >= 0 and has(work, at, d, b)) or (c >= 0 and has(work, at, d, c))


@helper
def joins_twice(params: Params, s: State, own: int, a: int, work: State) -> int:  # pragma: no cover - compiled
    """OpenSpiel's ``alreadyjoined`` for a stone put on ``a`` (before it is put): the own
    neighbours, in order, each but the one after a joined neighbour, joined to the stone's
    chain one by one: whether one was in it already (two of them were one chain). 1 when so,
    0 when not, -1 when the stone touches none of its own (a chain of one wins nothing). The
    work rows of ``work`` are left holding the last chain grown (empty if none), which
    :func:`wins` grows on from."""
    d = params[P_DIAM]
    nb = neighbours_at(params)
    y = a // d
    c = d - 1 - (a - y * d)  # the stone's bit; a neighbour (dx, dy) is bit c - dx of row y + dy
    j0 = j1 = j2 = -1
    k = 0
    skip = False
    for i in range(6):
        if skip:
            skip = False
            continue
        z = params[nb + 6 * a + i]
        dx = 1 if i == 2 or i == 3 else -1 if i == 0 or i == 5 else 0
        dy = -1 if i < 2 else 1 if i == 3 or i == 4 else 0
        if z >= 0 and (s[own + y + dy] >> (c - dx)) & 1:
            if k == 0:
                j0 = z
            elif k == 1:
                j1 = z
            else:
                j2 = z
            k += 1
            skip = True
    if k < 2:
        return k - 1
    if same_chain(params, s, own, j0, j1, j2, work):
        return 1
    if k < 3:
        return 0
    clear(params, work)
    return 1 if same_chain(params, s, own, j1, j2, -1, work) else 0


@helper
def wins(params: Params, s: State, own: int, a: int) -> bool:  # pragma: no cover - compiled
    """Whether the chain of the stone on ``a`` (in ``s``) touches three edges or two corners.
    The chain grows in ``s``'s work rows from what they hold (empty, or the chain of a stone
    next to ``a`` before ``a`` was put, which is part of it), and they are cleared after."""
    d = params[P_DIAM]
    at = S_BOARDS + 2 * d
    y = a // d
    s[at + y] = row_fill(s[at + y] | (1 << (d - 1 - (a - y * d))), s[own + y])
    fill(s, own, s, at, d, y)
    corners = 0
    edges = 0  # the edges touched, as bits
    for r in range(d):
        if s[at + r] != 0:
            corners += popcount(s[at + r] & params[P_EDGES + 6 * d + r])
            for k in range(6):
                if s[at + r] & params[P_EDGES + k * d + r]:
                    edges |= 1 << k
    clear(params, s)
    return corners >= 2 or popcount(edges) >= 3


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(s.shape[0]):
        child[i] = s[i]
    d = params[P_DIAM]
    p = s[S_TO_MOVE]
    child[S_TO_MOVE] = 1 - p
    own = S_BOARDS + p * d
    other = S_BOARDS + (1 - p) * d
    y = a // d
    bit = 1 << (d - 1 - (a - y * d))
    if child[other + y] & bit:  # the swap: the first stone changes hands, one stone wins nothing
        child[other + y] &= ~bit
        child[own + y] |= bit
        return
    joined = joins_twice(params, s, own, a, child)
    child[own + y] |= bit
    child[S_COUNT] += 1
    if joined >= 0 and (wins(params, child, own, a) or (joined == 1 and ring(params, child, own, a))):
        child[S_STATUS] = P0_WINS + p
    elif child[S_COUNT] == params[P_CELLS]:
        child[S_STATUS] = DRAW


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the stones and the player to move: each row word folded in by a
    multiply and a xor-shift."""
    d = params[P_DIAM]
    h = _SEED * (s[S_TO_MOVE] + 1)
    for i in range(S_BOARDS, S_BOARDS + 2 * d):
        h = (h ^ s[i]) * _MIX
        h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(D, D, 4), row y and column x: own stones, the opponent's, the empty cells of the
    board, ones on the board when the observer is to move (the cut-off corners all zeros)."""
    b, d = params[P_BASE], params[P_DIAM]
    own = S_BOARDS + player_ * d
    other = S_BOARDS + (1 - player_) * d
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for y in range(d):
        for x in range(d):
            k = 4 * (y * d + x)
            if abs(x - y) >= b:
                out[k] = out[k + 1] = out[k + 2] = out[k + 3] = 0
                continue
            u = (s[own + y] >> (d - 1 - x)) & 1
            v = (s[other + y] >> (d - 1 - x)) & 1
            out[k] = u
            out[k + 1] = v
            out[k + 2] = 1 - u - v
            out[k + 3] = mover

