"""Nine Men's Morris.

Points are numbered as OpenSpiel numbers them (row by row from the top, left to right)
and named with the usual coordinates of the board diagram (files a-g, ranks 1-7)::

    7   0 ------------ 1 ------------ 2
        |              |              |
    6   |    3 ------- 4 ------- 5    |
        |    |         |         |    |
    5   |    |    6 -- 7 -- 8    |    |
        |    |    |         |    |    |
    4   9 -- 10 - 11        12 - 13 - 14
        |    |    |         |    |    |
    3   |    |    15 - 16 - 17   |    |
        |    |         |         |    |
    2   |    18 ------ 19 ------ 20   |
        |              |              |
    1   21 ----------- 22 ----------- 23
        a    b    c    d    e    f    g

So point 0 is a7, 1 d7, 2 g7, 3 b6, ... 9 a4, ... 14 g4, ... 21 a1, 22 d1, 23 g1.

Lines join adjacent points; the 16 mills are the 8 rows of three (a7-d7-g7, b6-d6-f6,
c5-d5-e5, a4-b4-c4, e4-f4-g4, c3-d3-e3, b2-d2-f2, a1-d1-g1) and the 8 columns of three
(a7-a4-a1, b6-b4-b2, c5-c4-c3, d7-d6-d5, d3-d2-d1, e5-e4-e3, f6-f4-f2, g7-g4-g1).

**Rules (defaults).** Player 0 (X, white) moves first. Each player has 9 men. Placing
phase: while a player has men in hand, a turn places one on an empty point. Moving phase:
a man moves along a line to an adjacent empty point. Flying: a player down to 3 men moves
a man to any empty point. Closing a mill (the placed or moved man completes three of its
own in a row) gives the same player a removal turn (``current_player`` stays the same
and ``removal_due`` is set): they remove one of the opponent's men; closing two mills at
once still removes one. Men in a mill are protected unless every opponent man on the
board is in a mill. A player reduced to 2 men, or with no legal move on their turn, loses.

**Turns and the draw.** A *turn* is one player's placement or move together with the
removal it earns, if any: the turn counter goes up by one each time the player to move
changes, exactly as OpenSpiel's ``num_turns``. When the counter reaches ``max_turns``
(default 200) the game is drawn, unless the player to move has no legal move (they lose)
or a player is down to 2 men (they lose), the same order of checks as OpenSpiel. So a game
lasts at most ``max_turns`` turns and ``max_turns + 14`` plies (each removal is an extra
ply; at most 13 removals happen in a game, OpenSpiel allows 14). There is no repetition
rule: positions may repeat and the turn cap ends every game.

**Actions (600, OpenSpiel's encoding).** ``0..23``: the point to place a man on, or,
when a removal is due, the point of the opponent's man to remove. ``24 + from*24 + to``:
move (or fly) the man on ``from`` to ``to``. Readable names: ``d7`` (place), ``x d7``
(remove, when the state is given), ``a7-d7`` (move).

**Variants** (keyword arguments; :class:`VariantError` for anything else):

- ``protect_mills=True``: men in a mill can be removed only when all the opponent's men
  are in mills. ``False`` (the Morris study's rule): any opponent man can be removed.
- ``flying=True``: a player with 3 men flies. ``False``: such a player still moves only
  to adjacent points (and may be blockaded).
- ``no_return=False``. ``True`` (the Morris study's rule): a man may not move (or fly)
  straight back to the point it just left, on its owner's next turn. The state records,
  per player, the point that player's last-moved man left and the point it went to; the
  record is replaced by that player's next move and cleared when the man is removed.
  When the return is a player's only move, they have no legal move and lose. The rule
  forbids the shortest repetitions (shuttling a man out of a mill and back); the turn
  counter is unaffected.
- ``max_turns=200``: the draw cap above, 1..100000. ``protect_mills`` and ``flying`` leave
  the counter alone, and no variant adds a repetition rule. The counter is part of the
  state, of the key and (as a fraction of the cap) of the observation.

**State** (``int64[13]``): ``[men_0, men_1, to_move, removal_due, hand_0, hand_1, turns,
left_0, went_to_0, left_1, went_to_1, status, num_legal]``; ``men_p`` are bitboards (bit
i = point i), ``hand_p`` the men still to place, ``left_p``/``went_to_p`` the no-return
record (-1 when none). The last two slots are functions of the others, computed once by
``apply`` (and ``position``): ``status`` the outcome code, so that ``status`` and
``is_terminal`` cost nothing, and ``num_legal`` the number of legal actions (0 once the
game is over), so that ``legal_actions`` allocates its result at the right size. The key
is an exact packing of the board, mover, removal flag and hands, mixed (splitmix64) with
the turn counter and the no-return record.

**Observation** ``(7, 7, 17)`` int8 on the 7x7 grid of the diagram (point ``a7`` is cell
(0, 0), ``g1`` cell (6, 6); the 25 cells that are not points stay 0 in the point planes),
from the observer's side: 0 own men, 1 opponent's men, 2 all ones when the observer is to
move, 3 all ones when the player to move must remove a man, 4-6 the observer's phase
(placing, moving, flying: one plane all ones), 7-9 the opponent's phase, 10 the observer's
men in hand and 11 the opponent's (k men in hand: ones in the first k cells in row-major
order), 12 the turn counter as a fraction of the cap (ones in the first
``49 * turns // max_turns`` cells), 13-14 the observer's no-return record (the point its
last-moved man left, the point that man stands on), 15-16 the opponent's.

**Heuristics** (by name, from the player's point of view; a removal due counts as done):
``men`` (men on the board and in hand, own minus the opponent's), ``men_mills`` (10 per
man + 1 per closed mill), ``men_mobility`` (10 per man + 1 per move to an adjacent empty
point), ``threats`` (10 per man + 3 per open two-in-a-row: two men and an empty third
point on a mill line). The ordering hint puts mill-closing moves first (2), then moves onto
the empty point of an opponent's two-in-a-row (1); removals of a man from an opponent's
open two come first. ``NineMensMorris.position(x=[...], o=[...], ...)`` builds a state from
point names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import carray, njit, types

from zerosum.games.base import (
    APPLY, DRAW, HEURISTIC, KEY, LEGAL, OBSERVE, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER,
    NATIVE_APPLY, NATIVE_LEGAL, STATUS, Action, Game, Heuristic, IllegalActionError, Kernels, Player, State,
    ZerosumError, check_variant, hot_calls, kernel, lowest_bit, native_kernel, popcount,
)


def helper(fn: Any) -> Any:
    """Compile a helper that kernels inline (no call, no reference counting of the arrays)."""
    return njit(inline="always", cache=True)(fn)


# ---- geometry, computed once at import ------------------------------------------------
NUM_POINTS = 24
NUM_MEN = 9
NUM_ACTIONS = NUM_POINTS + NUM_POINTS * NUM_POINTS  # 600
MOVE_BASE = NUM_POINTS
MAX_MOVES = 64  # flying: 3 men x at most 18 empty points = 54
POINT_NAMES = ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
               "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1")
POINT_INDEX = {name: i for i, name in enumerate(POINT_NAMES)}
#: (row, col) of each point on the 7x7 grid, row 0 = rank 7 at the top.
POINT_RC = np.array([(7 - int(n[1]), "abcdefg".index(n[0])) for n in POINT_NAMES], dtype=np.int64)
POINT_CELL = POINT_RC[:, 0] * 7 + POINT_RC[:, 1]


def _mill(*names: str) -> int:
    return sum(1 << POINT_INDEX[n] for n in names)


MILL_POINTS = (
    ("a7", "d7", "g7"), ("b6", "d6", "f6"), ("c5", "d5", "e5"), ("a4", "b4", "c4"),
    ("e4", "f4", "g4"), ("c3", "d3", "e3"), ("b2", "d2", "f2"), ("a1", "d1", "g1"),
    ("a7", "a4", "a1"), ("b6", "b4", "b2"), ("c5", "c4", "c3"), ("d7", "d6", "d5"),
    ("d3", "d2", "d1"), ("e5", "e4", "e3"), ("f6", "f4", "f2"), ("g7", "g4", "g1"),
)
MILLS = np.array([_mill(*m) for m in MILL_POINTS], dtype=np.int64)
#: The two mills through each point (every point lies on exactly one row and one column).
MILLS_OF = np.array([[m for m in MILLS if (m >> p) & 1] for p in range(NUM_POINTS)], dtype=np.int64)
#: Adjacency bitboards: consecutive points of a mill line are joined, and nothing else is.
ADJ = np.zeros(NUM_POINTS, dtype=np.int64)
for _m in MILL_POINTS:
    for _u, _v in ((_m[0], _m[1]), (_m[1], _m[2])):
        ADJ[POINT_INDEX[_u]] |= 1 << POINT_INDEX[_v]
        ADJ[POINT_INDEX[_v]] |= 1 << POINT_INDEX[_u]
FULL = (1 << NUM_POINTS) - 1

# ---- params and state layout -----------------------------------------------------------
P_PROTECT, P_FLYING, P_NO_RETURN, P_MAX_TURNS = 0, 1, 2, 3
S_MEN, S_TO_MOVE, S_REMOVAL, S_HAND, S_TURNS, S_LEFT, S_WENT, S_STATUS, S_COUNT = 0, 2, 3, 4, 6, 7, 8, 11, 12
STATE_SIZE = 13
PLACING, MOVING, FLYING = 0, 1, 2
NUM_PLANES = 17

# splitmix64 multipliers written as signed int64 (numba would make the unsigned ones float).
_MIX1 = 0xBF58476D1CE4E5B9 - (1 << 64)
_MIX2 = 0x94D049BB133111EB - (1 << 64)
_GOLDEN = 0x9E3779B97F4A7C15 - (1 << 64)


@helper
def _mix(z):  # pragma: no cover - compiled
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@helper
def phase(params, s, p):  # pragma: no cover - compiled
    """PLACING, MOVING or FLYING for player p."""
    if s[S_HAND + p] > 0:
        return PLACING
    if params[P_FLYING] != 0 and popcount(s[S_MEN + p]) <= 3:
        return FLYING
    return MOVING


@helper
def closes_mill(board, q):  # pragma: no cover - compiled
    """1 when the man on q is in a mill of ``board``."""
    m0 = MILLS_OF[q, 0]
    m1 = MILLS_OF[q, 1]
    return 1 if (board & m0) == m0 or (board & m1) == m1 else 0


@helper
def in_mills(board):  # pragma: no cover - compiled
    """Bitboard of the men of ``board`` that stand in a mill."""
    r = 0
    for m in MILLS:
        if board & m == m:
            r |= m
    return r


@helper
def removable(params, s):  # pragma: no cover - compiled
    """Bitboard of the opponent's men the player to move may remove."""
    opp = s[S_MEN + 1 - s[S_TO_MOVE]]
    if params[P_PROTECT] == 0:
        return opp
    free = opp & ~in_mills(opp)
    return free if free != 0 else opp


@helper
def destinations(p, ph, empty, went, left):  # pragma: no cover - compiled
    """Bitboard of the points the mover's man on p may move (or fly) to in phase ph;
    ``went`` and ``left`` are the mover's no-return record (read once by the caller)."""
    t = empty if ph == FLYING else ADJ[p] & empty
    if p == went:
        t &= ~(1 << left)
    return t


@helper
def count_actions(params, s):  # pragma: no cover - compiled
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
def men(params, s, p):  # pragma: no cover - compiled
    """Men of player p on the board and in hand."""
    return popcount(s[S_MEN + p]) + s[S_HAND + p]


@kernel(PLAYER)
def _player(params, s):  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def _status(params, s):  # pragma: no cover - compiled
    return s[S_STATUS]


@helper
def settle(params, s):  # pragma: no cover - compiled
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
def write_points(bits, base, out, n):  # pragma: no cover - compiled
    """Append base + i for every set bit i of ``bits``, ascending, never past the end of
    ``out``; the new count (which counts the actions that did not fit, too)."""
    cap = out.shape[0]
    while bits != 0:
        if n < cap:
            out[n] = base + lowest_bit(bits)
        bits &= bits - 1
        n += 1
    return n


@helper
def legal_into(params, s, out):  # pragma: no cover - compiled
    """The legal kernel's body: writes the legal actions, ascending; their number."""
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


@helper
def is_legal(params, s, a):  # pragma: no cover - compiled
    """True when action a is one that legal_into lists (read from the same bitboards)."""
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


@helper
def apply_into(params, s, a, child):  # pragma: no cover - compiled
    """The apply kernel's body: writes the successor of s after action a into child."""
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


@kernel(LEGAL)
def _legal(params, s, out):  # pragma: no cover - compiled
    return legal_into(params, s, out)


@kernel(APPLY)
def _apply(params, s, a, child):  # pragma: no cover - compiled
    apply_into(params, s, a, child)


@kernel(KEY)
def _key(params, s):  # pragma: no cover - compiled
    lo = (s[0] | (s[1] << 24) | (s[S_TO_MOVE] << 48) | (s[S_REMOVAL] << 49)
          | (s[S_HAND] << 50) | (s[S_HAND + 1] << 54))
    hi = (s[S_TURNS] | ((s[S_LEFT] + 1) << 20) | ((s[S_WENT] + 1) << 25)
          | ((s[S_LEFT + 2] + 1) << 30) | ((s[S_WENT + 2] + 1) << 35))
    return _mix(lo) ^ _mix(hi + _GOLDEN)


@kernel(OBSERVE)
def _observe(params, s, player, out):  # pragma: no cover - compiled
    c = NUM_PLANES
    opp = 1 - player
    mine = s[S_MEN + player]
    theirs = s[S_MEN + opp]
    for p in range(NUM_POINTS):
        cell = POINT_CELL[p]
        out[cell * c] = (mine >> p) & 1
        out[cell * c + 1] = (theirs >> p) & 1
    to_move = 1 if s[S_TO_MOVE] == player else 0
    removal = 1 if s[S_REMOVAL] != 0 else 0
    ph_me = 4 + phase(params, s, player)
    ph_opp = 7 + phase(params, s, opp)
    hand_me = s[S_HAND + player]
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
        who = player if i == 0 else opp
        left = s[S_LEFT + 2 * who]
        went = s[S_WENT + 2 * who]
        if left >= 0:
            out[POINT_CELL[left] * c + 13 + 2 * i] = 1
            out[POINT_CELL[went] * c + 14 + 2 * i] = 1


# ---- heuristics (from the player's point of view) ----------------------------------------
@helper
def _material(params, s, player):  # pragma: no cover - compiled
    """Men difference; a removal due counts as the opponent's man already gone."""
    v = float(men(params, s, player) - men(params, s, 1 - player))
    if s[S_REMOVAL] != 0:
        v += 1.0 if s[S_TO_MOVE] == player else -1.0
    return v


@helper
def _mills_of(board, other):  # pragma: no cover - compiled
    """Closed mills of board."""
    n = 0
    for m in MILLS:
        if board & m == m:
            n += 1
    return n


@helper
def _open_twos(board, other):  # pragma: no cover - compiled
    """Mill lines holding two of board's men and an empty third point."""
    n = 0
    for m in MILLS:
        if other & m == 0 and popcount(board & m) == 2:
            n += 1
    return n


@helper
def _mobility(board, other):  # pragma: no cover - compiled
    """(man, adjacent empty point) pairs: the moves of the moving phase."""
    empty = FULL & ~(board | other)
    n = 0
    for p in range(NUM_POINTS):
        if (board >> p) & 1:
            n += popcount(ADJ[p] & empty)
    return n


@kernel(HEURISTIC)
def men_count(params, s, player):  # pragma: no cover - compiled
    """Men (on the board and in hand) minus the opponent's; a removal due counts as done."""
    return _material(params, s, player)


@kernel(HEURISTIC)
def men_mills(params, s, player):  # pragma: no cover - compiled
    """10 per man of difference, plus 1 per closed mill of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + float(_mills_of(a, b) - _mills_of(b, a))


@kernel(HEURISTIC)
def men_mobility(params, s, player):  # pragma: no cover - compiled
    """10 per man of difference, plus 1 per adjacent move of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + float(_mobility(a, b) - _mobility(b, a))


@kernel(HEURISTIC)
def threats(params, s, player):  # pragma: no cover - compiled
    """10 per man of difference, plus 3 per open two-in-a-row of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + 3.0 * float(_open_twos(a, b) - _open_twos(b, a))


@kernel(ORDER)
def _order(params, s, moves, n, scores):  # pragma: no cover - compiled
    # Mill-closing moves 2, mill-blocking moves +1; removals: men in an open two first.
    me = s[S_TO_MOVE]
    own = s[S_MEN + me]
    opp = s[S_MEN + 1 - me]
    empty = FULL & ~(own | opp)
    for i in range(n):
        a = moves[i]
        score = 0.0
        if s[S_REMOVAL] != 0:
            for j in range(2):
                m = MILLS_OF[a, j]
                if popcount(opp & m) == 2 and (m & empty) != 0:
                    score = 1.0
        else:
            if a < MOVE_BASE:
                q = a
                board = own | (1 << q)
            else:
                q = (a - MOVE_BASE) % NUM_POINTS
                board = own ^ ((1 << ((a - MOVE_BASE) // NUM_POINTS)) | (1 << q))
            if closes_mill(board, q):
                score += 2.0
            for j in range(2):
                other = MILLS_OF[q, j] & ~(1 << q)
                if opp & other == other:
                    score += 1.0
                    break
        scores[i] = score


KERNELS = Kernels(legal=_legal, apply=_apply, status=_status, player=_player, key=_key,
                  observe=_observe, order=_order)

HEURISTICS = {
    "men": Heuristic("men", men_count, "men on the board and in hand, own minus the opponent's"),
    "men_mills": Heuristic("men_mills", men_mills, "10 x men difference + closed mills difference"),
    "men_mobility": Heuristic("men_mobility", men_mobility, "10 x men difference + adjacent-move difference"),
    "threats": Heuristic("threats", threats, "10 x men difference + 3 x open two-in-a-row difference"),
}

# ---- entry points for the Python API ------------------------------------------------------
# One compiled call per protocol call, on the same rule bodies as the kernels above. They
# take the state in any layout (the caller checks only dtype and ndimension; the length is
# checked here), the variant packed into one int, and as few arrays as possible: numba
# spends ~30 ns unboxing each array argument, and these calls run once per move.
_ANY_STATE = types.Array(types.int64, 1, "A")


def pack_rules(params: np.ndarray) -> int:
    """The variant as one int, as the Python entry points take it."""
    protect, flying, no_return, max_turns = (int(v) for v in params)
    return protect | flying << 1 | no_return << 2 | max_turns << 3


@helper
def unpack_rules(rules):  # pragma: no cover - compiled
    """The params vector as a tuple (the rule bodies index either)."""
    return (rules & 1, (rules >> 1) & 1, (rules >> 2) & 1, rules >> 3)


@njit(types.int64(_ANY_STATE, types.int64[::1], types.int64), cache=True)
def api_legal(state, out, rules):  # pragma: no cover - compiled
    """Write the legal actions into out; their number (-1 for a state of the wrong length)."""
    if state.shape[0] != STATE_SIZE:
        return -1
    return legal_into(unpack_rules(rules), state, out)


@njit(types.boolean(_ANY_STATE, types.int64, types.int64[::1], types.int64), cache=True)
def api_apply(state, action, child, rules):  # pragma: no cover - compiled
    """Write the successor into child (False for a state of the wrong length)."""
    if state.shape[0] != STATE_SIZE:
        return False
    apply_into(unpack_rules(rules), state, action, child)
    return True


@njit(types.boolean(_ANY_STATE, types.int64, types.int64[::1], types.int64), cache=True)
def api_apply_checked(state, action, child, rules):  # pragma: no cover - compiled
    """Write the successor into child if the action is legal; False otherwise."""
    if state.shape[0] != STATE_SIZE:
        return False
    params = unpack_rules(rules)
    if not is_legal(params, state, action):
        return False
    apply_into(params, state, action, child)
    return True


@native_kernel(NATIVE_LEGAL)
def native_legal(sp, outp, rules):  # pragma: no cover - compiled
    """api_legal as a cfunc for zerosum.games._native (the state's length is checked there)."""
    return legal_into(unpack_rules(rules), carray(sp, STATE_SIZE), carray(outp, MAX_MOVES))


@native_kernel(NATIVE_APPLY)
def native_apply(sp, action, cp, rules):  # pragma: no cover - compiled
    """api_apply as a cfunc."""
    apply_into(unpack_rules(rules), carray(sp, STATE_SIZE), action, carray(cp, STATE_SIZE))
    return 1


@native_kernel(NATIVE_APPLY)
def native_apply_checked(sp, action, cp, rules):  # pragma: no cover - compiled
    """api_apply_checked as a cfunc: 0 for an illegal action."""
    params = unpack_rules(rules)
    s = carray(sp, STATE_SIZE)
    if not is_legal(params, s, action):
        return 0
    apply_into(params, s, action, carray(cp, STATE_SIZE))
    return 1


_MOVE_RE = re.compile(r"^([a-g][1-7])\s*[-x>\s]?\s*([a-g][1-7])$")
_REMOVE_RE = re.compile(r"^(?:x|remove|take)\s*([a-g][1-7])$")
_FORMS = ("write a point to place on such as 'd7', 'x d7' to remove the opponent's man on d7, "
          "'a7-d7' to move, or an action index 0-599")


class PositionError(ZerosumError, ValueError):
    """A position description that cannot occur (unknown point, too many men, ...)."""


def _bool_variant(name: str, value: Any) -> bool:
    check_variant(name, value, "True or False", isinstance(value, (bool, np.bool_)))
    return bool(value)


class NineMensMorris(Game):
    """Nine Men's Morris with the rule variants of the literature (see the module docstring)."""

    def __init__(self, protect_mills: bool = True, flying: bool = True, no_return: bool = False,
                 max_turns: int = 200) -> None:
        protect = _bool_variant("protect_mills", protect_mills)
        fly = _bool_variant("flying", flying)
        no_ret = _bool_variant("no_return", no_return)
        check_variant("max_turns", max_turns, "an int from 1 to 100000",
                      isinstance(max_turns, (int, np.integer)) and not isinstance(max_turns, (bool, np.bool_))
                      and 1 <= max_turns <= 100_000)
        max_turns = int(max_turns)
        initial = np.array([0, 0, 0, 0, NUM_MEN, NUM_MEN, 0, -1, -1, -1, -1, ONGOING, NUM_POINTS], dtype=np.int64)
        super().__init__(
            name="nine_mens_morris", kernels=KERNELS,
            params=np.array([int(protect), int(fly), int(no_ret), max_turns], np.int64),
            initial=initial, num_actions=NUM_ACTIONS, max_moves=MAX_MOVES,
            max_game_length=max_turns + 14, observation_shape=(7, 7, NUM_PLANES),
            variant={"protect_mills": protect, "flying": fly, "no_return": no_ret, "max_turns": max_turns},
            heuristics=dict(HEURISTICS), default_heuristic="men_mills",
        )
        self._calls = hot_calls((native_legal, native_apply, native_apply_checked),
                                (api_legal, api_apply, api_apply_checked),
                                STATE_SIZE, MAX_MOVES, NUM_ACTIONS, pack_rules(self.params))

    # ---- the protocol's hot calls: one compiled call each, or none -------------------------
    # self._calls answers for a 1-D int64 state (and an int action); anything else, and an
    # illegal action, takes the generic path of Game, which converts the state or raises
    # the error that says what is wrong.
    def legal_actions(self, state: State) -> np.ndarray:
        """The legal actions, ascending (empty in a finished game)."""
        out = self._calls.legal(state)
        return out if out is not None else Game.legal_actions(self, state)

    def apply(self, state: State, action: Action) -> State:
        """The position after ``action``; raises IllegalActionError for an illegal one."""
        child = self._calls.apply(state, action)
        return child if child is not None else Game.apply(self, state, action)

    def apply_unchecked(self, state: State, action: Action) -> State:
        """``apply`` without validation, for callers that took the action from legal_actions."""
        child = self._calls.apply_unchecked(state, action)
        return child if child is not None else Game.apply_unchecked(self, state, action)

    def is_terminal(self, state: State) -> bool:
        """True when the game is over (read from the state's status slot)."""
        try:
            return state.item(S_STATUS) != ONGOING
        except (AttributeError, IndexError):
            return Game.is_terminal(self, state)

    def current_player(self, state: State) -> Player:
        """The player to move (0 or 1)."""
        try:
            return state.item(S_TO_MOVE)
        except (AttributeError, IndexError):
            return Game.current_player(self, state)

    # ---- readable state -------------------------------------------------------------
    def position(self, x: Sequence[str] = (), o: Sequence[str] = (), to_move: int = 0,
                 in_hand: tuple[int, int] = (0, 0), removal_due: bool = False, turns: int = 0,
                 no_return: Mapping[int, tuple[str, str]] | None = None) -> State:
        """A state built from point names: ``x`` and ``o`` the men of players 0 and 1.

        ``no_return`` maps a player to (point left, point the man went to), as recorded by
        the ``no_return`` variant. Raises PositionError for an impossible description.
        """
        s = np.array([0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, ONGOING, 0], dtype=np.int64)
        for pl, names in ((0, x), (1, o)):
            for n in names:
                if n not in POINT_INDEX:
                    raise PositionError(f"unknown point {n!r}: points are {', '.join(POINT_NAMES)}")
                if (int(s[0] | s[1]) >> POINT_INDEX[n]) & 1:
                    raise PositionError(f"point {n} is given twice")
                s[pl] |= 1 << POINT_INDEX[n]
        if to_move not in (0, 1):
            raise PositionError(f"to_move={to_move!r}: 0 or 1")
        for pl in (0, 1):
            if not 0 <= in_hand[pl] <= NUM_MEN or int(s[pl]).bit_count() + in_hand[pl] > NUM_MEN:
                raise PositionError(f"player {pl} has more than {NUM_MEN} men or a bad in_hand={in_hand}")
        if not 0 <= turns <= self.variant["max_turns"]:
            raise PositionError(f"turns={turns!r}: 0..max_turns")
        s[S_TO_MOVE], s[S_REMOVAL], s[S_TURNS] = to_move, int(bool(removal_due)), turns
        s[S_HAND], s[S_HAND + 1] = in_hand
        for pl, (left, went) in (no_return or {}).items():
            if left not in POINT_INDEX or went not in POINT_INDEX:
                raise PositionError(f"no_return={no_return!r}: points are {', '.join(POINT_NAMES)}")
            s[S_LEFT + 2 * pl], s[S_WENT + 2 * pl] = POINT_INDEX[left], POINT_INDEX[went]
        settle(self.params, s)
        return s

    def removal_due(self, state: State) -> bool:
        """True when the player to move must remove one of the opponent's men."""
        return bool(state[S_REMOVAL])

    def men_in_hand(self, state: State) -> tuple[int, int]:
        """Men still to place, for players 0 and 1."""
        return int(state[S_HAND]), int(state[S_HAND + 1])

    def men_on_board(self, state: State) -> tuple[int, int]:
        """Men on the board, for players 0 and 1."""
        return int(state[0]).bit_count(), int(state[1]).bit_count()

    def turns(self, state: State) -> int:
        """Completed turns (the counter compared with max_turns)."""
        return int(state[S_TURNS])

    def phase(self, state: State, player: int) -> str:
        """'placing', 'moving' or 'flying' for ``player``."""
        return ("placing", "moving", "flying")[int(phase(self.params, state, player))]

    def board(self, state: State) -> dict[str, int]:
        """Occupied points by name: ``{"d7": 0, ...}`` (the owning player)."""
        return {POINT_NAMES[p]: pl for pl in (0, 1) for p in range(NUM_POINTS) if (int(state[pl]) >> p) & 1}

    # ---- text -----------------------------------------------------------------------
    def action_to_string(self, action: Action, state: State | None = None) -> str:
        """``d7`` (place or remove), ``x d7`` (remove, when ``state`` says a removal is due), ``a7-d7``."""
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise IllegalActionError(f"action {a} is out of range: actions are ints in [0, {NUM_ACTIONS})")
        if a < MOVE_BASE:
            if state is not None and state[S_REMOVAL]:
                return f"x {POINT_NAMES[a]}"
            return POINT_NAMES[a]
        p, q = divmod(a - MOVE_BASE, NUM_POINTS)
        return f"{POINT_NAMES[p]}-{POINT_NAMES[q]}"

    def string_to_action(self, text: str, state: State | None = None) -> Action:
        """Parse ``d7``, ``x d7``, ``a7-d7`` or an action index; with ``state``, a removal
        must be written ``x d7`` or ``d7`` and a placement must not be written ``x d7``."""
        t = " ".join(str(text).strip().lower().split())
        if t.isdigit() and int(t) < NUM_ACTIONS:
            return int(t)
        if t in POINT_INDEX:
            return POINT_INDEX[t]
        m = _REMOVE_RE.match(t)
        if m:
            if state is not None and not state[S_REMOVAL]:
                raise IllegalActionError(f"cannot read move {text!r}: no removal is due here; {_FORMS}")
            return POINT_INDEX[m.group(1)]
        m = _MOVE_RE.match(t)
        if m:
            return MOVE_BASE + POINT_INDEX[m.group(1)] * NUM_POINTS + POINT_INDEX[m.group(2)]
        raise IllegalActionError(f"cannot read move {text!r}: {_FORMS} (points a7, d7, g7, b6, ... see the diagram)")

    def render(self, state: State) -> str:
        """The board with coordinates (X player 0, O player 1) and the counters."""
        grid = [[" "] * 13 for _ in range(13)]
        for p in range(NUM_POINTS):
            r, c = 2 * POINT_RC[p, 0], 2 * POINT_RC[p, 1]
            grid[r][c] = "X" if (int(state[0]) >> p) & 1 else "O" if (int(state[1]) >> p) & 1 else "."
            for q in range(NUM_POINTS):
                if (int(ADJ[p]) >> q) & 1 and q > p:
                    r2, c2 = 2 * POINT_RC[q, 0], 2 * POINT_RC[q, 1]
                    if r2 == r:
                        for x in range(c + 1, c2):
                            grid[r][x] = "-"
                    else:
                        for y in range(r + 1, r2):
                            grid[y][c] = "|"
        lines = [f"{7 - i // 2}  " + "".join(row) if i % 2 == 0 else "   " + "".join(row)
                 for i, row in enumerate(grid)]
        lines.append("   a b c d e f g")
        mover = int(state[S_TO_MOVE])
        status = self.outcome(state)
        if status.name == "ONGOING":
            what = "must remove a man" if state[S_REMOVAL] else self.phase(state, mover)
            lines.append(f"to move: {'XO'[mover]} (player {mover}), {what}")
        else:
            lines.append(f"game over: {status.name}")
        lines.append(f"in hand: X {int(state[S_HAND])}, O {int(state[S_HAND + 1])}; "
                     f"turn {int(state[S_TURNS])} of {self.variant['max_turns']}")
        return "\n".join(lines)
