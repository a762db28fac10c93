"""Pentago.

A 6x6 board made of four 3x3 quadrants. A move places a stone of the mover's colour on
an empty cell and then turns one quadrant 90 degrees, clockwise or anticlockwise. Five
in a row (row, column or diagonal: 32 lines in all) wins.

Board, cells and quadrants (cell = 6*row + col, row 1 at the top)::

         a  b  c    d  e  f
      1  0  1  2 |  3  4  5
      2  6  7  8 |  9 10 11        q0 top-left     q1 top-right
      3 12 13 14 | 15 16 17
        ---------+---------
      4 18 19 20 | 21 22 23        q3 bottom-left  q2 bottom-right
      5 24 25 26 | 27 28 29
      6 30 31 32 | 33 34 35

Actions (OpenSpiel's encoding, so the two can be compared move for move)::

    action = cell*8 + quadrant*2 + direction      (288 actions)
    quadrant: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
    direction: 0 anticlockwise, 1 clockwise

Readable names: ``c4 q2 cw`` = a stone on c4 (cell 20), then quadrant 2 clockwise
(action 165); ``ccw`` (or ``acw``) for anticlockwise. ``string_to_action`` also reads a
bare index (``"165"``), the compact ``c4q2cw`` and OpenSpiel's own names (``c4x``, the
eighth letter from ``s``: s..z = the 8 quadrant/direction pairs in action order).

Rule variants (``params = [win_before_rotation]``):

* ``win_before_rotation=True`` (default; the published rules and the solved game): a
  placement that makes five wins at once and no quadrant is turned. The 8 actions of
  that cell are then the same move; all 8 stay legal (OpenSpiel's action space), and a
  search sees 8 identical children. After a rotation, five for both sides is a draw and
  five for one side wins for that side, even when it is the opponent of the mover.
* ``win_before_rotation=False``: OpenSpiel's rule: always turn, then look for fives
  (same outcomes after the turn as above).

A full board with no five is a draw, so a game lasts at most 36 moves.

State vector (int64, length 4): ``[stones of player 0, stones of player 1, status,
player to move]``; the stone sets are bitboards with bit ``cell``; status is the
``Outcome`` code of the position, stored by ``apply`` so that the search reads it in one
load. Observation (6, 6, 3): the observer's stones, the opponent's, and a plane of ones
when the observer is to move.

Speed notes: a quadrant turn is one table lookup per bitboard (the quadrant's 9 bits
gathered into an index, the rotated bits read back in place); five in a row is four
shift-and chains, one per direction, over the whole board at once; the open-line
heuristic counts the stones of all 32 lines at once with bit-sliced adders over the
four directions packed into one 64-bit word, and popcounts.
"""

from __future__ import annotations

import re

import numpy as np
from numba import carray, njit, types

from zerosum.games.base import (
    APPLY, DRAW, HEURISTIC, KEY, LEGAL, NATIVE_APPLY, NATIVE_LEGAL, OBSERVE, ONGOING, ORDER, P0_WINS, PLAYER,
    STATUS, Game, GameOverError, Heuristic, IllegalActionError, Kernels, Outcome, State, _check_action_type,
    check_variant, hot_calls, kernel, lowest_bit, native_kernel, popcount,
)

Bitboard = int
SIZE = 6
CELLS = 36
NUM_ACTIONS = CELLS * 8
FULL = (1 << CELLS) - 1

# state slots
S_P0, S_P1, S_STATUS, S_TO_MOVE = 0, 1, 2, 3
STATE_SIZE = 4

QUADRANT_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
QUADRANT_ORIGIN = np.array([0, 3, 21, 18], dtype=np.int64)  # top-left cell of each quadrant


# ---- static geometry (computed once at import) ------------------------------------------
def _bit(r: int, c: int) -> int:
    return 1 << (SIZE * r + c)


def _quadrant_cells(q: int) -> list[int]:
    o = int(QUADRANT_ORIGIN[q])
    return [o + SIZE * r + c for r in range(3) for c in range(3)]


def _turn(r: int, c: int, direction: int) -> tuple[int, int]:
    """Where local cell (r, c) of a 3x3 quadrant goes: 1 clockwise, 0 anticlockwise."""
    return (c, 2 - r) if direction == 1 else (2 - c, r)


QUADRANT_MASK = np.array([sum(1 << x for x in _quadrant_cells(q)) for q in range(4)], dtype=np.int64)
QUADRANT_KEEP = np.array([FULL & ~int(m) for m in QUADRANT_MASK], dtype=np.int64)


def _rotation_table() -> np.ndarray:
    """ROTATED[q*2 + direction, pattern]: the board bits of quadrant q after turning, where
    pattern is the quadrant's 9 cells gathered row by row (bit 3*r + c = local cell (r, c))."""
    table = np.zeros((8, 512), dtype=np.int64)
    for q in range(4):
        o = int(QUADRANT_ORIGIN[q])
        for d in range(2):
            for pat in range(512):
                out = 0
                for r in range(3):
                    for c in range(3):
                        if (pat >> (3 * r + c)) & 1:
                            r2, c2 = _turn(r, c, d)
                            out |= 1 << (o + SIZE * r2 + c2)
                table[2 * q + d, pat] = out
    return table


ROTATED = _rotation_table()


def _lines() -> np.ndarray:
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    out.append(sum(_bit(rr, cc) for rr, cc in cells))
    return np.array(out, dtype=np.int64)


LINES = _lines()  # the 32 five-in-a-row lines as masks
assert len(LINES) == 32

# The four directions as bit strides, with the cells where a line of five may start.
H_STEP, V_STEP, D_STEP, A_STEP = 1, 6, 7, 5  # right, down, down-right, down-left
H_START = sum(_bit(r, c) for r in range(6) for c in (0, 1))
V_START = sum(_bit(r, c) for r in (0, 1) for c in range(6))
D_START = sum(_bit(r, c) for r in (0, 1) for c in (0, 1))
A_START = sum(_bit(r, c) for r in (0, 1) for c in (4, 5))
# The 32 line starts packed in one word without overlap: H at bits 0-31, V shifted to
# 32-43, D to 44-51, A to 54-61.
V_PACK, D_PACK, A_PACK = 32, 44, 50
PACKED_START = H_START | (V_START << V_PACK) | (D_START << D_PACK) | (A_START << A_PACK)
assert bin(PACKED_START).count("1") == 32 and PACKED_START < (1 << 62)


def _run_starts(step_r: int, step_c: int, k: int) -> int:
    """Cells where a run of k stones in this direction fits on one row, column or long diagonal."""
    m = 0
    for r in range(SIZE):
        for c in range(SIZE):
            cells = [(r + i * step_r, c + i * step_c) for i in range(k)]
            if not all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                continue
            if step_r and step_c == 1 and abs(c - r) > 1:  # main or near-main diagonals only
                continue
            if step_r and step_c == -1 and not 4 <= r + c <= 6:
                continue
            m |= _bit(r, c)
    return m


# RUN_STARTS[k, direction]: start cells of runs of length k (rows, columns, long diagonals).
RUN_STARTS = np.array([[_run_starts(dr, dc, k) if k else 0 for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))]
                       for k in range(7)], dtype=np.int64)
RUN_VALUE = np.array([0.0, 1.0, 2.0, 4.0, 7.0, 13.0, 11.0])  # the Pentago study's mapping
OPEN_LINE_WEIGHT = np.array([0.0, 1.0, 3.0, 9.0, 27.0, 81.0])
QUADRANT_CENTRES = sum(_bit(r, c) for r in (1, 4) for c in (1, 4))
INNER_RING = sum(_bit(r, c) for r in range(1, 5) for c in range(1, 5)) & ~QUADRANT_CENTRES
CELL_WEIGHT = np.array([2.0 * ((QUADRANT_CENTRES >> c) & 1) + ((INNER_RING >> c) & 1) for c in range(CELLS)])
# Base-3 value of each 6-cell row pattern (an exact key: 3**36 < 2**63).
TERNARY6 = np.array([sum(3 ** i for i in range(6) if (x >> i) & 1) for x in range(64)], dtype=np.int64)


@njit(types.boolean(types.int64), cache=True, inline="always")
def has_five(b):  # pragma: no cover - compiled
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


@njit(types.int64(types.int64, types.int64), cache=True, inline="always")
def rotate(b, r):  # pragma: no cover - compiled
    """Bitboard b with quadrant r // 2 turned (r & 1: 1 clockwise, 0 anticlockwise)."""
    q = r >> 1
    x = b >> QUADRANT_ORIGIN[q]
    pat = (x & 7) | ((x >> 3) & 0x38) | ((x >> 6) & 0x1C0)
    return (b & QUADRANT_KEEP[q]) | ROTATED[r, pat]


@njit(types.int64(types.int64, types.int64), cache=True, inline="always")
def packed_cell(x, i):  # pragma: no cover - compiled
    """Bit i of every one of the 32 lines (the cell i steps from its start), packed."""
    return ((x >> i) & H_START) | (((x >> (6 * i)) & V_START) << V_PACK) \
        | (((x >> (7 * i)) & D_START) << D_PACK) | (((x >> (5 * i)) & A_START) << A_PACK)


@njit(types.UniTuple(types.int64, 4)(types.int64, types.int64), cache=True, inline="always")
def line_counts(me, op):  # pragma: no cover - compiled
    """Per line (packed starts): lines free of op, and me's stone count in 3 bit slices."""
    m0 = packed_cell(me, 0)
    m1 = packed_cell(me, 1)
    m2 = packed_cell(me, 2)
    m3 = packed_cell(me, 3)
    m4 = packed_cell(me, 4)
    blocked = packed_cell(op, 0) | packed_cell(op, 1) | packed_cell(op, 2) | packed_cell(op, 3) \
        | packed_cell(op, 4)
    free = PACKED_START & ~blocked
    # two full adders, then the carries added: count = c0 + 2*c1 + 4*c2
    s1 = m0 ^ m1 ^ m2
    k1 = (m0 & m1) | (m2 & (m0 ^ m1))
    c0 = s1 ^ m3 ^ m4
    k2 = (s1 & m3) | (m4 & (s1 ^ m3))
    return free, c0, k1 ^ k2, k1 & k2


@njit(types.float64(types.int64, types.int64), cache=True, inline="always")
def open_line_score(me, op):  # pragma: no cover - compiled
    """Sum over lines free of op of 1, 3, 9, 27, 81 for 1..5 of me's stones."""
    free, c0, c1, c2 = line_counts(me, op)
    n1 = popcount(free & c0 & ~c1 & ~c2)
    n2 = popcount(free & c1 & ~c0)
    n3 = popcount(free & c1 & c0)
    n4 = popcount(free & c2 & ~c0)
    n5 = popcount(free & c2 & c0)
    return float(n1 + 3 * n2 + 9 * n3 + 27 * n4 + 81 * n5)


@njit(types.int64(types.int64), cache=True, inline="always")
def longest_run(b):  # pragma: no cover - compiled
    """Longest run of b's stones on a row, column, main or near-main diagonal (0..6)."""
    if b == 0:
        return 0
    best = 1
    th = b
    tv = b
    td = b
    ta = b
    for k in range(2, 7):
        th &= b >> (k - 1)
        tv &= b >> (6 * (k - 1))
        td &= b >> (7 * (k - 1))
        ta &= b >> (5 * (k - 1))
        if ((th & RUN_STARTS[k, 0]) | (tv & RUN_STARTS[k, 1]) | (td & RUN_STARTS[k, 2])
                | (ta & RUN_STARTS[k, 3])) == 0:
            break
        best = k
    return best


@njit(types.int64(types.int64), cache=True, inline="always")
def spread(starts):  # pragma: no cover - compiled
    """The cells covered by the lines whose packed start bits are set."""
    h = starts & H_START
    v = (starts >> V_PACK) & V_START
    d = (starts >> D_PACK) & D_START
    a = (starts >> A_PACK) & A_START
    cover = 0
    for i in range(5):
        cover |= (h << i) | (v << (6 * i)) | (d << (7 * i)) | (a << (5 * i))
    return cover


# ---- kernels ------------------------------------------------------------------------------
@kernel(PLAYER)
def _player(params, s):  # pragma: no cover - compiled
    return s[3]


@kernel(STATUS)
def _status(params, s):  # pragma: no cover - compiled
    return s[2]


@njit(types.int64(types.int64[::1], types.int64[::1]), cache=True, inline="always")
def legal_into(s, out):  # pragma: no cover - compiled
    """The legal kernel without params (the rule variant does not change legality)."""
    if s[2] != ONGOING:
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
def _legal(params, s, out):  # pragma: no cover - compiled
    return legal_into(s, out)


@njit(types.void(types.int64, types.int64[::1], types.int64, types.int64[::1]), cache=True, inline="always")
def apply_into(win_before_rotation, s, a, child):  # pragma: no cover - compiled
    """The apply kernel with the variant as a scalar."""
    p = s[3]
    me = s[p] | (1 << (a >> 3))
    op = s[1 - p]
    child[3] = 1 - p
    if win_before_rotation != 0 and has_five(me):  # win before rotation: no quadrant is turned
        child[p] = me
        child[1 - p] = op
        child[2] = P0_WINS + p
        return
    r = a & 7
    me = rotate(me, r)
    op = rotate(op, r)
    child[p] = me
    child[1 - p] = op
    w_me = has_five(me)
    w_op = has_five(op)
    if w_me and w_op:
        child[2] = DRAW
    elif w_me:
        child[2] = P0_WINS + p
    elif w_op:
        child[2] = P0_WINS + 1 - p
    elif (me | op) == FULL:
        child[2] = DRAW
    else:
        child[2] = ONGOING


@kernel(APPLY)
def _apply(params, s, a, child):  # pragma: no cover - compiled
    apply_into(params[0], s, a, child)


@kernel(KEY)
def _key(params, s):  # pragma: no cover - compiled
    """Exact: the board read as a base-3 number (the status and mover follow from it)."""
    b0 = s[0]
    b1 = s[1]
    k = 0
    for r in range(5, -1, -1):
        k = k * 729 + TERNARY6[(b0 >> (6 * r)) & 63] + 2 * TERNARY6[(b1 >> (6 * r)) & 63]
    return k


@kernel(OBSERVE)
def _observe(params, s, player, out):  # pragma: no cover - compiled
    me = s[player]
    op = s[1 - player]
    mover = 1 if s[3] == player and s[2] == ONGOING else 0
    for c in range(CELLS):
        out[3 * c] = (me >> c) & 1
        out[3 * c + 1] = (op >> c) & 1
        out[3 * c + 2] = mover


@kernel(HEURISTIC)
def open_lines(params, s, player):  # pragma: no cover - compiled
    """Open-line potential: over lines still winnable, 1/3/9/27 for 1-4 own stones, own minus opponent's."""
    me = s[player]
    op = s[1 - player]
    return open_line_score(me, op) - open_line_score(op, me)


@kernel(HEURISTIC)
def runs(params, s, player):  # pragma: no cover - compiled
    """The Pentago study's run heuristic: longest run mapped 1,2,4,7,13,11; own minus opponent's."""
    return RUN_VALUE[longest_run(s[player])] - RUN_VALUE[longest_run(s[1 - player])]


@kernel(HEURISTIC)
def centre(params, s, player):  # pragma: no cover - compiled
    """Centre control: 3 per stone on a quadrant centre (they never move), 1 on the inner ring."""
    me = s[player]
    op = s[1 - player]
    return float(3 * (popcount(me & QUADRANT_CENTRES) - popcount(op & QUADRANT_CENTRES))
                 + popcount(me & INNER_RING) - popcount(op & INNER_RING))


@kernel(ORDER)
def _order(params, s, moves, n, scores):  # pragma: no cover - compiled
    """Cells first by the lines through them: the mover's fours (a win), the opponent's
    fours (a block), the mover's threes, the opponent's threes; then quadrant centres,
    the inner ring, and cells on the mover's twos. The 8 turns of a cell tie (the
    search's killers and TT move order them)."""
    p = s[3]
    me = s[p]
    op = s[1 - p]
    free, c0, c1, c2 = line_counts(me, op)
    my4 = spread(free & c2 & ~c0)
    my3 = spread(free & c1 & c0)
    my2 = spread(free & c1 & ~c0)
    free, c0, c1, c2 = line_counts(op, me)
    op4 = spread(free & c2 & ~c0)
    op3 = spread(free & c1 & c0)
    last = -1
    v = 0.0
    for i in range(n):
        c = moves[i] >> 3
        if c != last:
            last = c
            v = (10.0 * (8 * ((my4 >> c) & 1) + 4 * ((op4 >> c) & 1) + 2 * ((my3 >> c) & 1) + ((op3 >> c) & 1))
                 + CELL_WEIGHT[c] + 0.5 * ((my2 >> c) & 1))
        scores[i] = v


@njit(types.int64[::1](types.int64[::1], types.int64[::1], types.int64, types.int64), cache=True, nogil=True)
def random_playouts(params, state, games, seed):  # pragma: no cover - compiled
    """Play ``games`` uniformly random games from ``state`` in compiled code (MCTS-style rollouts).

    Returns ``[moves played in all, P0 wins, P1 wins, draws]``.
    """
    np.random.seed(seed)
    totals = np.zeros(4, np.int64)
    moves = np.empty(NUM_ACTIONS, np.int64)
    a_state = np.empty(STATE_SIZE, np.int64)
    b_state = np.empty(STATE_SIZE, np.int64)
    for _ in range(games):
        for i in range(STATE_SIZE):
            a_state[i] = state[i]
        while a_state[2] == ONGOING:
            n = _legal(params, a_state, moves)
            _apply(params, a_state, moves[np.random.randint(n)], b_state)
            a_state, b_state = b_state, a_state
            totals[0] += 1
        totals[a_state[2]] += 1
    return totals


# The Game API's hot calls (see base.hot_calls): cfuncs for zerosum.games._native, and
# numba entry points where that module is missing. Both take a contiguous int64 vector,
# the variant as an int, and check the state's length (-1 / 0 for a wrong one).
_STATE = types.int64[::1]


@njit(types.int64(_STATE, types.int64[::1], types.int64), cache=True)
def api_legal(state, out, win_before_rotation):  # pragma: no cover - compiled
    if state.shape[0] != STATE_SIZE:
        return -1
    return legal_into(state, out)


@njit(types.boolean(_STATE, types.int64), cache=True, inline="always")
def can_place(state, action):  # pragma: no cover - compiled
    """True when action is legal: the game is on and the action's cell is empty."""
    return (0 <= action < NUM_ACTIONS and state[2] == ONGOING
            and ((state[0] | state[1]) >> (action >> 3)) & 1 == 0)


@njit(types.int64(_STATE, types.int64, types.int64[::1], types.int64), cache=True)
def api_apply_checked(state, action, child, win_before_rotation):  # pragma: no cover - compiled
    """Write the successor into child and return 1, or return 0 if the action is not legal."""
    if state.shape[0] != STATE_SIZE or not can_place(state, action):
        return 0
    apply_into(win_before_rotation, state, action, child)
    return 1


@njit(types.int64(_STATE, types.int64, types.int64[::1], types.int64), cache=True)
def api_apply(state, action, child, win_before_rotation):  # pragma: no cover - compiled
    """Write the successor into child and return 1 (the action is not checked)."""
    if state.shape[0] != STATE_SIZE:
        return 0
    apply_into(win_before_rotation, state, action, child)
    return 1


@native_kernel(NATIVE_LEGAL)
def native_legal(sp, outp, win_before_rotation):  # pragma: no cover - compiled
    return legal_into(carray(sp, STATE_SIZE), carray(outp, NUM_ACTIONS))


@native_kernel(NATIVE_APPLY)
def native_apply(sp, action, cp, win_before_rotation):  # pragma: no cover - compiled
    apply_into(win_before_rotation, carray(sp, STATE_SIZE), action, carray(cp, STATE_SIZE))
    return 1


@native_kernel(NATIVE_APPLY)
def native_apply_checked(sp, action, cp, win_before_rotation):  # pragma: no cover - compiled
    s = carray(sp, STATE_SIZE)
    if not can_place(s, action):
        return 0
    apply_into(win_before_rotation, s, action, carray(cp, STATE_SIZE))
    return 1


KERNELS = Kernels(legal=_legal, apply=_apply, status=_status, player=_player, key=_key,
                  observe=_observe, order=_order)
HEURISTICS = {
    "open_lines": Heuristic("open_lines", open_lines,
                            "lines still winnable weighted 1/3/9/27 by own stones, own minus opponent's"),
    "runs": Heuristic("runs", runs,
                      "the Pentago study: longest run mapped 1,2,4,7,13,11, own minus opponent's (-13..13)"),
    "centre": Heuristic("centre", centre,
                        "3 per stone on a quadrant centre, 1 on the inner ring, own minus opponent's"),
}


# ---- names ---------------------------------------------------------------------------------
_COLS = "abcdef"
_DIRECTIONS = {"cw": 1, "clockwise": 1, "ccw": 0, "acw": 0, "anticlockwise": 0,
               "counterclockwise": 0, "anti-clockwise": 0, "counter-clockwise": 0}
_LONG = re.compile(r"^([a-f])([1-6])[\s,;/-]*q?([0-3])[\s,;/-]*([a-z-]+)$")
_OPENSPIEL = re.compile(r"^([a-f])([1-6])([s-z])$")
_CELL = re.compile(r"^([a-f])([1-6])$")
_FORMS = ("'c4 q2 cw' (cell a1-f6, quadrant q0 top-left, q1 top-right, q2 bottom-right, "
          "q3 bottom-left, then cw or ccw), 'c4q2ccw', OpenSpiel's 'c4x', an index 0-287, "
          "or a bare cell 'c4' for a placement that wins before any rotation")


def cell_name(cell: int) -> str:
    """``a1`` .. ``f6`` (column letter, row number from the top)."""
    return f"{_COLS[cell % SIZE]}{cell // SIZE + 1}"


class Pentago(Game):
    """Pentago on the 6x6 board of four turning quadrants (see the module docstring)."""

    def __init__(self, win_before_rotation: bool = True) -> None:
        check_variant("win_before_rotation", win_before_rotation, "True or False",
                      isinstance(win_before_rotation, (bool, np.bool_)))
        initial = np.zeros(STATE_SIZE, np.int64)
        super().__init__(
            name="pentago", kernels=KERNELS, params=np.array([int(win_before_rotation)], np.int64),
            initial=initial, num_actions=NUM_ACTIONS, max_moves=NUM_ACTIONS, max_game_length=CELLS,
            observation_shape=(SIZE, SIZE, 3), variant={"win_before_rotation": bool(win_before_rotation)},
            heuristics=dict(HEURISTICS), default_heuristic="open_lines",
        )
        self._calls = hot_calls((native_legal, native_apply, native_apply_checked),
                                (api_legal, api_apply, api_apply_checked),
                                STATE_SIZE, NUM_ACTIONS, NUM_ACTIONS, int(win_before_rotation))

    # ---- the protocol's hot calls, each one compiled call (same kernels as the search) ------
    # self._calls answers for a 1-D int64 state and an int action; anything else, and an
    # illegal action, takes the slow path, which converts the state or raises the error
    # that says what is wrong.
    def legal_actions(self, state: State) -> np.ndarray:
        """The legal actions, ascending (empty in a finished game)."""
        out = self._calls.legal(state)
        return out if out is not None else Game.legal_actions(self, state)

    def apply(self, state: State, action: int) -> State:
        """The position after ``action``; raises IllegalActionError for an illegal one.

        Legal means: the game is on and the action's cell is empty (exactly what the
        ``legal`` kernel lists), so the check needs no list of legal actions.
        """
        child = self._calls.apply(state, action)
        if child is not None:
            return child
        a = _check_action_type(action, NUM_ACTIONS)
        plain = self._plain(state)
        child = self._calls.apply(plain, a)
        if child is not None:
            return child
        if plain[S_STATUS] != ONGOING:
            raise GameOverError(f"the game is over ({self.outcome(plain).name}); no action is legal")
        raise IllegalActionError(
            f"action {a} ({self.action_to_string(a)}) is not legal here: {cell_name(a >> 3)} is "
            f"occupied; legal: {self._describe_actions(self.legal_actions(plain))}")

    def apply_unchecked(self, state: State, action: int) -> State:
        """``apply`` without validation, for callers that took the action from legal_actions."""
        child = self._calls.apply_unchecked(state, action)
        return child if child is not None else Game.apply_unchecked(self, state, action)

    def is_terminal(self, state: State) -> bool:
        """True when the game is over (the status is stored in the state)."""
        try:
            return state.item(S_STATUS) != ONGOING
        except (AttributeError, IndexError):
            return Game.is_terminal(self, state)

    def current_player(self, state: State) -> int:
        """The player to move (0 or 1)."""
        try:
            return state.item(S_TO_MOVE)
        except (AttributeError, IndexError):
            return Game.current_player(self, state)

    # ---- states ----------------------------------------------------------------------------
    def from_board(self, rows: list[str] | str, to_move: int | None = None) -> State:
        """A position from six rows of ``X`` (player 0), ``O`` (player 1) and ``.``.

        The player to move defaults to the one the stone count implies (player 0 when
        the counts are equal); the status is computed as if the last move was a turn.
        """
        if isinstance(rows, str):
            rows = [r for r in rows.split("\n") if r.strip()]
        text = "".join(ch for row in rows for ch in row if ch in "XO.xo")
        if len(text) != CELLS:
            raise ValueError(f"a board is 36 cells of X, O or '.'; got {len(text)} cells")
        b = [0, 0]
        for c, ch in enumerate(text.upper()):
            if ch != ".":
                b["XO".index(ch)] |= 1 << c
        n0, n1 = bin(b[0]).count("1"), bin(b[1]).count("1")
        if to_move is None:
            to_move = 0 if n0 == n1 else 1
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1; got {to_move!r}")
        w0, w1 = bool(has_five(b[0])), bool(has_five(b[1]))
        if w0 and w1:
            status = DRAW
        elif w0 or w1:
            status = P0_WINS if w0 else P0_WINS + 1
        elif b[0] | b[1] == FULL:
            status = DRAW
        else:
            status = ONGOING
        return np.array([b[0], b[1], status, to_move], dtype=np.int64)

    def random_playouts(self, state: State, games: int, seed: int = 0) -> dict[str, int]:
        """Random games from ``state`` in compiled code: moves played and the results."""
        t = random_playouts(self.params, np.ascontiguousarray(state, np.int64), int(games), int(seed))
        return {"moves": int(t[0]), "p0_wins": int(t[1]), "p1_wins": int(t[2]), "draws": int(t[3])}

    # ---- text ------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """``c4 q2 cw`` style: cell, quadrant, cw (clockwise) or ccw (anticlockwise)."""
        a = int(action)
        if not 0 <= a < NUM_ACTIONS:
            raise IllegalActionError(f"action {a} is out of range: actions are ints in [0, {NUM_ACTIONS})")
        return f"{cell_name(a >> 3)} q{(a >> 1) & 3} {'cw' if a & 1 else 'ccw'}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``c4 q2 cw`` and the other forms named in the module docstring.

        A bare cell (``c4``) is accepted only with a ``state`` in which placing there
        wins before any rotation; it names the first of that cell's 8 equal actions.
        """
        t = " ".join(str(text).strip().lower().split())
        if t.isdigit():
            a = int(t)
            if a < NUM_ACTIONS:
                return a
            raise IllegalActionError(f"action {a} is out of range: actions are ints in [0, {NUM_ACTIONS})")
        m = _LONG.match(t)
        if m and m.group(4) in _DIRECTIONS:
            cell = _COLS.index(m.group(1)) + SIZE * (int(m.group(2)) - 1)
            return 8 * cell + 2 * int(m.group(3)) + _DIRECTIONS[m.group(4)]
        m = _OPENSPIEL.match(t)
        if m:
            cell = _COLS.index(m.group(1)) + SIZE * (int(m.group(2)) - 1)
            return 8 * cell + ord(m.group(3)) - ord("s")
        m = _CELL.match(t)
        if m and state is not None:
            cell = _COLS.index(m.group(1)) + SIZE * (int(m.group(2)) - 1)
            p = int(state[S_TO_MOVE])
            occupied = (int(state[0]) | int(state[1])) >> cell & 1
            if (self.variant["win_before_rotation"] and not occupied and state[S_STATUS] == ONGOING
                    and has_five(int(state[p]) | (1 << cell))):
                return 8 * cell
            raise IllegalActionError(
                f"{text!r} names a cell without a rotation, which is only a move when placing there "
                f"wins at once (win_before_rotation=True); write e.g. '{t} q0 cw'")
        raise IllegalActionError(f"cannot read move {text!r}: write {_FORMS}")

    def render(self, state: State) -> str:
        """The board with coordinates and quadrant borders; X is player 0, O player 1."""
        marks = ["X" if (int(state[0]) >> c) & 1 else "O" if (int(state[1]) >> c) & 1 else "."
                 for c in range(CELLS)]
        lines = ["    a b c   d e f"]
        for r in range(SIZE):
            row = marks[SIZE * r:SIZE * r + SIZE]
            lines.append(f" {r + 1}  {' '.join(row[:3])} | {' '.join(row[3:])}")
            if r == 2:
                lines.append("    ------+------")
        outcome = Outcome(int(state[S_STATUS]))
        if outcome == Outcome.ONGOING:
            lines.append(f"{'XO'[int(state[S_TO_MOVE])]} to move  (q0 q1 / q3 q2)")
        elif outcome == Outcome.DRAW:
            lines.append("draw")
        else:
            lines.append(f"{'XO'[outcome.winner]} wins")
        return "\n".join(lines)
