"""Pentago's rules as kernels. params: ``[win_before_rotation]``; state: ``[stones of
player 0, stones of player 1, status, player to move]`` (bitboards, bit ``cell``);
action = cell*8 + quadrant*2 + direction.

A quadrant turn is one table lookup per bitboard (the quadrant's 9 bits gathered into an
index, the rotated bits read back in place); five in a row is four shift-and chains, one
per direction, over the whole board at once. ``apply`` stores the status in the state, so
``status`` is one load.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State,
    helper, kernel, lowest_bit, popcount,
)
from zerosum.games.pentago.tables import (
    A_START, CELLS, D_START, FULL, H_START, NUM_ACTIONS, P_WIN_BEFORE_ROTATION, QUADRANT_KEEP, QUADRANT_ORIGIN, ROTATED,
    S_STATUS, S_TO_MOVE, TERNARY6, V_START,
)


@helper
def has_five(b: int) -> bool:  # pragma: no cover - compiled
    """True when bitboard b holds five in a row anywhere (four shift-and chains)."""
    h = b & (b >> 1)
    h &= h >> 2
    h &= (b >> 4) & H_START
    v = b & (b >> 6)
    v &= v >> 12
    v &= (b >> 24) & V_START
    d = b & (b >> 7)
    d &= d >> 14
    d &= (b >> 28) & D_START
    a = b & (b >> 5)
    a &= a >> 10
    a &= (b >> 20) & A_START
    return (h | v | d | a) != 0


@helper
def rotate(b: int, r: int) -> int:  # pragma: no cover - compiled
    """Bitboard b with quadrant r // 2 turned (r & 1: 1 clockwise, 0 anticlockwise)."""
    q = r >> 1
    x = b >> QUADRANT_ORIGIN[q]
    pat = (x & 7) | ((x >> 3) & 0x38) | ((x >> 6) & 0x1C0)
    return (b & QUADRANT_KEEP[q]) | ROTATED[r, pat]


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The player to move (stored in the state)."""
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The outcome code (stored in the state by ``apply``)."""
    return s[S_STATUS]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """Every empty cell with its 8 turns, ascending (the rule variant does not change them)."""
    if s[S_STATUS] != ONGOING:
        return 0
    empty = FULL & ~(s[0] | s[1])
    n = 0
    while empty:
        base = 8 * lowest_bit(empty)
        empty &= empty - 1
        out[n] = base
        out[n + 1] = base + 1
        out[n + 2] = base + 2
        out[n + 3] = base + 3
        out[n + 4] = base + 4
        out[n + 5] = base + 5
        out[n + 6] = base + 6
        out[n + 7] = base + 7
        n += 8
    return n


@kernel(LEGAL)
def distinct(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """Legal actions, ascending, that reach every child the legal ones reach. Turning a
    quadrant that turning leaves as it is gives the board as it was; turning one that
    looks the same both ways gives one board for both turns. Two turns that give the same
    board give, over all the empty cells, the same children, so only the first is listed:
    36 moves on the empty board, 150 of 238 on the positions of a training game. (Two
    turned boards that differ by one stone can still give one child twice; that is rare.)"""
    if s[S_STATUS] != ONGOING:
        return 0
    b0 = s[0]
    b1 = s[1]
    turns = 0
    still = False  # a turn that leaves the board as it is was listed
    for q in range(4):
        x0 = rotate(b0, 2 * q)
        x1 = rotate(b1, 2 * q)
        if x0 == b0 and x1 == b1:
            if not still:
                turns |= 1 << (2 * q)
                still = True
        else:
            turns |= 1 << (2 * q)
            if rotate(b0, 2 * q + 1) != x0 or rotate(b1, 2 * q + 1) != x1:
                turns |= 2 << (2 * q)
    empty = FULL & ~(b0 | b1)
    me = s[s[S_TO_MOVE]]
    if turns != 255 and params[P_WIN_BEFORE_ROTATION] != 0 and popcount(me) >= 4:
        cells = empty  # a placement that wins turns nothing, so a skipped turn's child of another cell may be lost
        while cells:
            if has_five(me | (cells & -cells)):
                return legal(params, s, out)
            cells &= cells - 1
    n = 0
    while empty:
        base = 8 * lowest_bit(empty)
        empty &= empty - 1
        for r in range(8):
            if (turns >> r) & 1:
                out[n] = base + r
                n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """The game is on and the action's cell is empty (exactly what ``legal`` lists)."""
    return 0 <= a < NUM_ACTIONS and s[S_STATUS] == ONGOING and ((s[0] | s[1]) >> (a >> 3)) & 1 == 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    """Place, then (unless the placement wins at once under win_before_rotation) turn, then
    look for fives: both is a draw, one side wins for that side, a full board is a draw."""
    p = s[S_TO_MOVE]
    me = s[p] | (1 << (a >> 3))
    op = s[1 - p]
    child[S_TO_MOVE] = 1 - p
    if params[P_WIN_BEFORE_ROTATION] != 0 and has_five(me):  # win before rotation: no quadrant is turned
        child[p] = me
        child[1 - p] = op
        child[S_STATUS] = P0_WINS + p
        return
    r = a & 7
    me = rotate(me, r)
    op = rotate(op, r)
    child[p] = me
    child[1 - p] = op
    w_me = has_five(me)
    w_op = has_five(op)
    if w_me and w_op:
        child[S_STATUS] = DRAW
    elif w_me:
        child[S_STATUS] = P0_WINS + p
    elif w_op:
        child[S_STATUS] = P0_WINS + 1 - p
    elif (me | op) == FULL:
        child[S_STATUS] = DRAW
    else:
        child[S_STATUS] = ONGOING


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """Exact: the board read as a base-3 number (the status and mover follow from it)."""
    b0 = s[0]
    b1 = s[1]
    k = 0
    for r in range(5, -1, -1):
        k = k * 729 + TERNARY6[(b0 >> (6 * r)) & 63] + 2 * TERNARY6[(b1 >> (6 * r)) & 63]
    return k


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """The observer's stones, the opponent's, and ones when the observer is to move."""
    me = s[player_]
    op = s[1 - player_]
    mover = 1 if s[S_TO_MOVE] == player_ and s[S_STATUS] == ONGOING else 0
    for c in range(CELLS):
        out[3 * c] = (me >> c) & 1
        out[3 * c + 1] = (op >> c) & 1
        out[3 * c + 2] = mover
