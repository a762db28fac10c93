"""Nine Men's Morris's rules as kernels, with the inline helpers they share.

params: ``[protect_mills, flying, no_return, max_turns]`` (the ``P_*`` slots); state: the
13 ``S_*`` slots of :mod:`~zerosum.games.nine_mens_morris.tables`. ``apply`` fills the
two derived slots (status, number of legal actions) through :func:`settle`, so
``status`` is one read and ``legal`` knows when the game is over.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I64Array, I8Array, Params,
    State, helper, i64, kernel, lowest_bit, popcount,
)
from zerosum.games.nine_mens_morris.tables import (
    ADJ, FLYING, FULL, MILLS, MILLS_OF, MOVE_BASE, MOVING, NUM_ACTIONS, NUM_PLANES, NUM_POINTS, P_FLYING,
    P_MAX_TURNS, P_NO_RETURN, P_PROTECT, PLACING, POINT_CELL, S_COUNT, S_HAND, S_LEFT, S_MEN, S_REMOVAL, S_STATUS,
    S_TO_MOVE, S_TURNS, S_WENT, STATE_SIZE,
)

# splitmix64 multipliers, as the signed int64 numba computes with.
_MIX1 = i64(0xBF58476D1CE4E5B9)
_MIX2 = i64(0x94D049BB133111EB)
_GOLDEN = i64(0x9E3779B97F4A7C15)


@helper
def _mix(z: int) -> int:  # pragma: no cover - compiled
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@helper
def phase(params: Params, s: State, p: int) -> int:  # pragma: no cover - compiled
    """PLACING, MOVING or FLYING for player p."""
    if s[S_HAND + p] > 0:
        return PLACING
    if params[P_FLYING] != 0 and popcount(s[S_MEN + p]) <= 3:
        return FLYING
    return MOVING


@helper
def closes_mill(board: int, q: int) -> int:  # pragma: no cover - compiled
    """1 when the man on q is in a mill of ``board``."""
    m0 = MILLS_OF[q, 0]
    m1 = MILLS_OF[q, 1]
    return 1 if (board & m0) == m0 or (board & m1) == m1 else 0


@helper
def in_mills(board: int) -> int:  # pragma: no cover - compiled
    """Bitboard of the men of ``board`` that stand in a mill."""
    r = 0
    for m in MILLS:
        if board & m == m:
            r |= m
    return r


@helper
def removable(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """Bitboard of the opponent's men the player to move may remove."""
    opp = s[S_MEN + 1 - s[S_TO_MOVE]]
    if params[P_PROTECT] == 0:
        return opp
    free = opp & ~in_mills(opp)
    return free if free != 0 else opp


@helper
def destinations(p: int, ph: int, empty: int, went: int, left: int) -> int:  # pragma: no cover - compiled
    """Bitboard of the points the mover's man on p may move (or fly) to in phase ph;
    ``went`` and ``left`` are the mover's no-return record (read once by the caller)."""
    t = empty if ph == FLYING else ADJ[p] & empty
    if p == went:
        t &= ~(1 << left)
    return t


@helper
def count_actions(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The number of legal actions of the player to move, ignoring whether the game is over."""
    me = s[S_TO_MOVE]
    own = s[S_MEN + me] & FULL
    empty = FULL & ~(own | s[S_MEN + 1 - me])
    if s[S_REMOVAL] != 0:
        return popcount(removable(params, s))
    ph = phase(params, s, me)
    if ph == PLACING:
        return popcount(empty)
    went = s[S_WENT + 2 * me]
    left = s[S_LEFT + 2 * me]
    n = 0
    while own != 0:
        p = lowest_bit(own)
        own &= own - 1
        n += popcount(destinations(p, ph, empty, went, left))
    return n


@helper
def men(params: Params, s: State, p: int) -> int:  # pragma: no cover - compiled
    """Men of player p on the board and in hand."""
    return popcount(s[S_MEN + p]) + s[S_HAND + p]


@helper
def settle(params: Params, s: State) -> None:  # pragma: no cover - compiled
    """Fill the derived slots of a position: the status and the number of legal actions."""
    # OpenSpiel's order: no legal move loses, then 2 men loses, then the turn cap draws.
    n = count_actions(params, s)
    if n == 0:
        status = P1_WINS if s[S_TO_MOVE] == 0 else P0_WINS
    elif men(params, s, 0) <= 2:
        status = P1_WINS
    elif men(params, s, 1) <= 2:
        status = P0_WINS
    elif s[S_TURNS] >= params[P_MAX_TURNS]:
        status = DRAW
    else:
        status = ONGOING
    s[S_STATUS] = status
    s[S_COUNT] = n if status == ONGOING else 0


@helper
def write_points(bits: int, base: int, out: I64Array, n: int) -> int:  # pragma: no cover - compiled
    """Append base + i for every set bit i of ``bits``, ascending, never past the end of
    ``out``; the new count (which counts the actions that did not fit, too)."""
    cap = out.shape[0]
    while bits != 0:
        if n < cap:
            out[n] = base + lowest_bit(bits)
        bits &= bits - 1
        n += 1
    return n


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
    me = s[S_TO_MOVE]
    own = s[S_MEN + me] & FULL
    empty = FULL & ~(own | s[S_MEN + 1 - me])
    if s[S_REMOVAL] != 0:
        return write_points(removable(params, s), 0, out, 0)
    ph = phase(params, s, me)
    if ph == PLACING:
        return write_points(empty, 0, out, 0)
    went = s[S_WENT + 2 * me]
    left = s[S_LEFT + 2 * me]
    n = 0
    while own != 0:
        p = lowest_bit(own)
        own &= own - 1
        n = write_points(destinations(p, ph, empty, went, left), MOVE_BASE + p * NUM_POINTS, out, n)
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """True when action a is one that ``legal`` lists (read from the same bitboards)."""
    if s[S_STATUS] != ONGOING or a < 0 or a >= NUM_ACTIONS:
        return False
    me = s[S_TO_MOVE]
    own = s[S_MEN + me] & FULL
    empty = FULL & ~(own | s[S_MEN + 1 - me])
    if s[S_REMOVAL] != 0:
        return a < MOVE_BASE and (removable(params, s) >> a) & 1 != 0
    ph = phase(params, s, me)
    if ph == PLACING:
        return a < MOVE_BASE and (empty >> a) & 1 != 0
    if a < MOVE_BASE:
        return False
    p = (a - MOVE_BASE) // NUM_POINTS
    q = (a - MOVE_BASE) % NUM_POINTS
    went = s[S_WENT + 2 * me]
    left = s[S_LEFT + 2 * me]
    return (own >> p) & 1 != 0 and (destinations(p, ph, empty, went, left) >> q) & 1 != 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(STATE_SIZE):
        child[i] = s[i]
    me = s[S_TO_MOVE]
    opp = 1 - me
    if s[S_REMOVAL] != 0:
        child[S_MEN + opp] = s[S_MEN + opp] & ~(1 << a)
        if s[S_WENT + 2 * opp] == a:
            child[S_LEFT + 2 * opp] = -1
            child[S_WENT + 2 * opp] = -1
        child[S_REMOVAL] = 0
        child[S_TO_MOVE] = opp
        child[S_TURNS] = s[S_TURNS] + 1
        settle(params, child)
        return
    if a < MOVE_BASE:
        q = a
        child[S_MEN + me] = s[S_MEN + me] | (1 << q)
        child[S_HAND + me] = s[S_HAND + me] - 1
    else:
        p = (a - MOVE_BASE) // NUM_POINTS
        q = (a - MOVE_BASE) % NUM_POINTS
        child[S_MEN + me] = s[S_MEN + me] ^ ((1 << p) | (1 << q))
        if params[P_NO_RETURN] != 0:
            child[S_LEFT + 2 * me] = p
            child[S_WENT + 2 * me] = q
    if closes_mill(child[S_MEN + me], q):
        child[S_REMOVAL] = 1
    else:
        child[S_TO_MOVE] = opp
        child[S_TURNS] = s[S_TURNS] + 1
    settle(params, child)


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    lo = (s[0] | (s[1] << 24) | (s[S_TO_MOVE] << 48) | (s[S_REMOVAL] << 49)
          | (s[S_HAND] << 50) | (s[S_HAND + 1] << 54))
    hi = (s[S_TURNS] | ((s[S_LEFT] + 1) << 20) | ((s[S_WENT] + 1) << 25)
          | ((s[S_LEFT + 2] + 1) << 30) | ((s[S_WENT + 2] + 1) << 35))
    return _mix(lo) ^ _mix(hi + _GOLDEN)


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    c = NUM_PLANES
    opp = 1 - player_
    mine = s[S_MEN + player_]
    theirs = s[S_MEN + opp]
    for p in range(NUM_POINTS):
        cell = POINT_CELL[p]
        out[cell * c] = (mine >> p) & 1
        out[cell * c + 1] = (theirs >> p) & 1
    to_move = 1 if s[S_TO_MOVE] == player_ else 0
    removal = 1 if s[S_REMOVAL] != 0 else 0
    ph_me = 4 + phase(params, s, player_)
    ph_opp = 7 + phase(params, s, opp)
    hand_me = s[S_HAND + player_]
    hand_opp = s[S_HAND + opp]
    turn_cells = (49 * min(s[S_TURNS], params[P_MAX_TURNS])) // params[P_MAX_TURNS]
    for cell in range(49):
        k = cell * c
        out[k + 2] = to_move
        out[k + 3] = removal
        out[k + ph_me] = 1
        out[k + ph_opp] = 1
        out[k + 10] = 1 if cell < hand_me else 0
        out[k + 11] = 1 if cell < hand_opp else 0
        out[k + 12] = 1 if cell < turn_cells else 0
    for i in range(2):
        who = player_ if i == 0 else opp
        left = s[S_LEFT + 2 * who]
        went = s[S_WENT + 2 * who]
        if left >= 0:
            out[POINT_CELL[left] * c + 13 + 2 * i] = 1
            out[POINT_CELL[went] * c + 14 + 2 * i] = 1
