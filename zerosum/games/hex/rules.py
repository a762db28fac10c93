"""Hex's rules as kernels over one 64-bit word a board row.

Geometry, for ``R`` rows and ``C`` columns (2..26 each): the cell in row ``r`` (0 at the
top, black's first edge) and column ``c`` (0 at the left, white's first edge) is action
``r*C + c`` (OpenSpiel's ``hex``), and bit ``c`` of its row's word. Each row is drawn
half a cell to the right of the one above, so the six neighbours of ``(r, c)`` are
``(r-1, c)``, ``(r-1, c+1)``, ``(r, c-1)``, ``(r, c+1)``, ``(r+1, c-1)`` and ``(r+1, c)``:
a set ``X`` reaches row ``r`` from the row above as ``X[r-1] | X[r-1] >> 1`` and from the
row below as ``X[r+1] | X[r+1] << 1``.

params: ``[rows, columns, swap, row_mask, neighbours...]``: ``row_mask`` has the C bits of a
row, and ``6*cell + k`` after ``P_NEIGHBOURS`` is the k-th neighbour of a cell (-1 past
its last); the heuristics read this table.

state: ``[to_move, status, then for player 0 and player 1 three blocks of R row words:
its stones, its stones joined to its first edge, its stones joined to its second edge]``.
Player 0 (black, ``x``) joins the top and bottom rows, player 1 (white, ``o``) the left
and right columns. The two edge sets are what OpenSpiel's cell states record (north /
south, west / east): ``apply`` keeps them closed (every stone joined to an edge is in
its set) by a flood fill from the new stone, only when the stone touches a set or its
edge; a stone that touches both wins. They are a function of the stones, so states stay
canonical.

With ``swap`` (the pie rule), the second player's first move may be action ``R*C``: black's
one stone leaves ``(r, c)`` and a white stone takes ``(c, r)``, the same cell seen from
the other side (square boards only), and black moves again, as OpenSpiel's ``swap``.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State, helper,
    i64, kernel, lowest_bit, popcount, shr,
)

P_ROWS, P_COLS, P_SWAP, P_MASK, P_NEIGHBOURS = range(5)
S_TO_MOVE, S_STATUS, S_BOARDS = 0, 1, 2
STONES, EDGE_A, EDGE_B = 0, 1, 2  # the three blocks of each player
_MIX = i64(0xFF51AFD7ED558CCD)  # odd multiplier of the key's mixing (MurmurHash3's finaliser)
_SEED = i64(0x9E3779B97F4A7C15)


def neighbours(rows: int, cols: int, cell: int) -> list[int]:
    """The cells next to ``cell``, in OpenSpiel's order: up, up-right, right, down,
    down-left, left."""
    r, c = divmod(cell, cols)
    steps = ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))
    return [(r + dr) * cols + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols]


def geometry(rows: int, cols: int, swap: bool) -> list[int]:
    """The params vector of one variant."""
    table: list[int] = []
    for cell in range(rows * cols):
        near = neighbours(rows, cols, cell)
        table += near + [-1] * (6 - len(near))
    return [rows, cols, int(swap), (1 << cols) - 1, *table]


def state_size(rows: int) -> int:
    """The length of a state on a board of ``rows`` rows."""
    return S_BOARDS + 6 * rows


@helper
def block(params: Params, p: int, kind: int) -> int:  # pragma: no cover - compiled
    """The first slot of player ``p``'s block ``kind`` (STONES, EDGE_A or EDGE_B)."""
    return S_BOARDS + (3 * p + kind) * params[P_ROWS]


@helper
def row_fill(x: int, m: int) -> int:  # pragma: no cover - compiled
    """The runs of ``m`` (bits of one row) that hold a bit of ``x`` (``x`` within ``m``):
    a Kogge-Stone fill both ways, 5 doubling steps (rows of up to 32 cells)."""
    up = x
    g = m
    down = x
    h = m
    for k in (1, 2, 4, 8, 16):
        up |= (up << k) & g
        g &= g << k
        down |= (down >> k) & h
        h &= h >> k
    return up | down


@helper
def fill(s: State, region: int, out: State, target: int, rows: int,
         r0: int) -> None:  # pragma: no cover - compiled
    """Grow the set at ``out[target:target+rows]``, closed but for new runs in row ``r0``,
    to every cell of ``s[region:region+rows]`` (a set of stones holding it) that it connects
    to. Each row of the set is a union of whole runs of the region's row; a worklist of rows
    (one bit a row) holds the rows next to a row that grew: each is grown by what its two
    neighbours reach, and when it gains a cell its own neighbours join the list. A row
    joins the list only when a neighbour gains, so the loop ends within 2 + 2 * cells rounds."""
    todo = ((1 << r0) << 1 | (1 << r0) >> 1) & ((1 << rows) - 1)
    for _ in range(3 * rows * 32):
        if todo == 0:
            return
        r = lowest_bit(todo)
        todo &= todo - 1
        x = 0
        if r > 0:
            above = out[target + r - 1]
            x |= above | (above >> 1)
        if r < rows - 1:
            below = out[target + r + 1]
            x |= below | (below << 1)
        m = s[region + r]
        x &= m & ~out[target + r]
        if x == 0:
            continue
        out[target + r] = row_fill(x | out[target + r], m)
        todo |= ((1 << r) << 1 | (1 << r) >> 1) & ((1 << rows) - 1)


@helper
def touches(s: State, base: int, rows: int, r: int, b: int) -> bool:  # pragma: no cover - compiled
    """Whether the cell ``b`` (a one-bit word) of row ``r`` has a neighbour in the set at
    ``s[base:base+rows]``."""
    if s[base + r] & ((b << 1) | (b >> 1)):
        return True
    if r > 0 and s[base + r - 1] & (b | (b << 1)):
        return True
    return r < rows - 1 and (s[base + r + 1] & (b | (b >> 1))) != 0


@helper
def swap_legal(params: Params, s: State) -> bool:  # pragma: no cover - compiled
    """The pie rule applies: it is in force, white is to move and the board holds black's
    first stone alone."""
    if params[P_SWAP] == 0 or s[S_TO_MOVE] != 1 or s[S_STATUS] != ONGOING:
        return False
    rows = params[P_ROWS]
    n = 0
    for r in range(rows):
        n += popcount(s[S_BOARDS + r]) + popcount(s[S_BOARDS + 3 * rows + r])
    return n == 1


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
    rows, cols, mask = params[P_ROWS], params[P_COLS], params[P_MASK]
    white = S_BOARDS + 3 * rows
    n = 0
    for r in range(rows):
        empty = mask & ~(s[S_BOARDS + r] | s[white + r])
        for _ in range(cols):
            if empty == 0:
                break
            out[n] = r * cols + lowest_bit(empty)
            n += 1
            empty &= empty - 1
    if swap_legal(params, s):
        out[n] = rows * cols
        n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    rows, cols = params[P_ROWS], params[P_COLS]
    if s[S_STATUS] != ONGOING or a < 0 or a > rows * cols:
        return False
    if a == rows * cols:
        return swap_legal(params, s)
    r = a // cols
    return not ((s[S_BOARDS + r] | s[S_BOARDS + 3 * rows + r]) >> (a - r * cols)) & 1


@helper
def place(params: Params, child: State, p: int, r: int, c: int) -> bool:  # pragma: no cover - compiled
    """Put a stone of ``p`` on ``(r, c)`` in ``child`` and keep its edge sets closed; True
    when the stone joins both of ``p``'s edges."""
    rows, cols = params[P_ROWS], params[P_COLS]
    b = 1 << c
    stones, edge_a, edge_b = block(params, p, STONES), block(params, p, EDGE_A), block(params, p, EDGE_B)
    child[stones + r] |= b
    first, last = (r, rows - 1) if p == 0 else (c, cols - 1)
    a = first == 0 or touches(child, edge_a, rows, r, b)
    z = first == last or touches(child, edge_b, rows, r, b)
    if a:
        child[edge_a + r] = row_fill(child[edge_a + r] | b, child[stones + r])
        fill(child, stones, child, edge_a, rows, r)
    if z:
        child[edge_b + r] = row_fill(child[edge_b + r] | b, child[stones + r])
        fill(child, stones, child, edge_b, rows, r)
    return a and z


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(s.shape[0]):
        child[i] = s[i]
    rows, cols = params[P_ROWS], params[P_COLS]
    p = s[S_TO_MOVE]
    child[S_TO_MOVE] = 1 - p
    if a == rows * cols:  # the pie rule: black's stone at (r, c) becomes white's at (c, r)
        for i in range(S_BOARDS, S_BOARDS + 3 * rows):
            child[i] = 0
        for r in range(rows):
            if s[S_BOARDS + r] != 0:
                place(params, child, 1, lowest_bit(s[S_BOARDS + r]), r)
        return
    r = a // cols
    if place(params, child, p, r, a - r * cols):
        child[S_STATUS] = P0_WINS + p


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the stones and the player to move (the edge sets follow from the
    stones): each row word folded in by a multiply and a xor-shift."""
    rows = params[P_ROWS]
    h = _SEED * (s[S_TO_MOVE] + 1)
    for p in range(2):
        base = S_BOARDS + 3 * p * rows
        for r in range(rows):
            h = (h ^ s[base + r]) * _MIX
            h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(rows, columns, 4): own stones, the opponent's, ones when the observer is to move,
    ones when the observer is black (joins top and bottom)."""
    rows, cols = params[P_ROWS], params[P_COLS]
    own = S_BOARDS + 3 * player_ * rows
    other = S_BOARDS + 3 * (1 - player_) * rows
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    black = 1 if player_ == 0 else 0
    for r in range(rows):
        for c in range(cols):
            k = 4 * (r * cols + c)
            out[k] = (s[own + r] >> c) & 1
            out[k + 1] = (s[other + r] >> c) & 1
            out[k + 2] = mover
            out[k + 3] = black
