"""Pentago's search knowledge: the heuristics ``threats`` (the default), ``open_lines``,
``runs`` and ``centre``, the ordering hint (wins, blocks, threes, then the centre) and
the forcing moves the quiescence search follows (placements that make a four or five,
or stop the opponent's four, judged after the quadrant turn).

The open-line count reads the stones of all 32 lines at once: bit-sliced adders over the
four directions packed into one 64-bit word (:data:`~zerosum.games.pentago.tables.PACKED_START`),
then popcounts. Each heuristic is own minus opponent's, so h(s, 0) == -h(s, 1).

``threats`` sees what one quadrant turn does, which the study's evaluation ignored (a
human beat it by turning back what it turned): per quadrant and orientation, a table
gives the stones that quadrant puts on every line (bit-sliced, packed as above), so the
lines after each of the 8 turns are the board's counts minus one quadrant's share plus
its turned share. From these: the open lines by stones, the fours a single turn makes,
the threes no turn breaks, the quadrant centres (no turn moves them), whether the side
to move wins with this move and whether the other side has two threats at once. Its
weights come from self-play (experiments/tune_heuristic.py). It is the default because at
equal time it beats ``open_lines``: ``zerosum match --game pentago "alphabeta(time=0.05,
heuristic=threats)" "alphabeta(time=0.05, heuristic=open_lines)" --max-games 200
--workers 2`` gave W/D/L 136/32/32, Elo +200 [95% interval +152, +249].
"""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ONGOING, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel,
    lowest_bit, popcount,
)
from zerosum.games.pentago.rules import has_five, rotate
from zerosum.games.pentago.tables import (
    A_PACK, A_START, CELL_WEIGHT, D_PACK, D_START, FULL, H_START, INNER_RING, P_WIN_BEFORE_ROTATION, PACKED_START,
    QUADRANT_CENTRES, QUADRANT_ORIGIN, ROTATED, RUN_STARTS, RUN_VALUE, S_STATUS, S_TO_MOVE, V_PACK, V_START,
)


@helper
def packed_cell(x: int, i: int) -> int:  # pragma: no cover - compiled
    """Bit i of every one of the 32 lines (the cell i steps from its start), packed."""
    return ((x >> i) & H_START) | (((x >> (6 * i)) & V_START) << V_PACK) \
        | (((x >> (7 * i)) & D_START) << D_PACK) | (((x >> (5 * i)) & A_START) << A_PACK)


@helper
def line_counts(me: int, op: int) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
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


@helper
def open_line_score(me: int, op: int) -> float:  # pragma: no cover - compiled
    """Sum over lines free of op of 1, 3, 9, 27, 81 for 1..5 of me's stones."""
    free, c0, c1, c2 = line_counts(me, op)
    n1 = popcount(free & c0 & ~c1 & ~c2)
    n2 = popcount(free & c1 & ~c0)
    n3 = popcount(free & c1 & c0)
    n4 = popcount(free & c2 & ~c0)
    n5 = popcount(free & c2 & c0)
    return float(n1 + 3 * n2 + 9 * n3 + 27 * n4 + 81 * n5)


@helper
def longest_run(b: int) -> int:  # pragma: no cover - compiled
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


@helper
def spread(starts: int) -> int:  # pragma: no cover - compiled
    """The cells covered by the lines whose packed start bits are set."""
    h = starts & H_START
    v = (starts >> V_PACK) & V_START
    d = (starts >> D_PACK) & D_START
    a = (starts >> A_PACK) & A_START
    cover = 0
    for i in range(5):
        cover |= (h << i) | (v << (6 * i)) | (d << (7 * i)) | (a << (5 * i))
    return cover


@kernel(HEURISTIC)
def open_lines(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Open-line potential: over lines still winnable, 1/3/9/27 for 1-4 own stones, own minus opponent's."""
    me = s[player]
    op = s[1 - player]
    return open_line_score(me, op) - open_line_score(op, me)


@kernel(HEURISTIC)
def runs(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """The Pentago study's run heuristic: longest run mapped 1,2,4,7,13,11; own minus opponent's."""
    return RUN_VALUE[longest_run(s[player])] - RUN_VALUE[longest_run(s[1 - player])]


@kernel(HEURISTIC)
def centre(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Centre control: 3 per stone on a quadrant centre (they never move), 1 on the inner ring."""
    me = s[player]
    op = s[1 - player]
    return float(3 * (popcount(me & QUADRANT_CENTRES) - popcount(op & QUADRANT_CENTRES))
                 + popcount(me & INNER_RING) - popcount(op & INNER_RING))


# ---- threats: what one quadrant turn does to the lines -------------------------------------
def _packed_lines() -> list[tuple[int, list[int]]]:
    """Each of the 32 lines as (its bit in the packed layout of PACKED_START, its 5 cells)."""
    out = []
    for starts, step, shift in ((H_START, 1, 0), (V_START, 6, V_PACK), (D_START, 7, D_PACK), (A_START, 5, A_PACK)):
        out += [(c + shift, [c + k * step for k in range(5)]) for c in range(36) if (starts >> c) & 1]
    return out


def _quadrant_counts() -> np.ndarray:
    """QUAD_LINES[q, pattern, 2 * o + k]: bit k (0 or 1) of the number of stones that quadrant q
    holding ``pattern`` (its 9 cells row by row) puts on each line, packed as PACKED_START,
    with the quadrant as it is (o = 0), turned anticlockwise (1) or clockwise (2). The six
    words of one pattern sit together, so a quadrant's turns cost one cache line."""
    boards = np.zeros((4, 3, 512), np.int64)
    pats = np.arange(512, dtype=np.int64)
    for q in range(4):
        o = int(QUADRANT_ORIGIN[q])
        for i in range(9):
            boards[q, 0] |= ((pats >> i) & 1) << (o + 6 * (i // 3) + i % 3)
        boards[q, 1:] = ROTATED[2 * q:2 * q + 2]
    table = np.zeros((4, 512, 6), np.int64)
    for bit, cells in _packed_lines():
        n = np.sum([(boards >> c) & 1 for c in cells], axis=0)
        for o in range(3):
            table[:, :, 2 * o] |= (n[:, o] & 1) << bit
            table[:, :, 2 * o + 1] |= (n[:, o] >> 1) << bit
    return table


QUAD_LINES = _quadrant_counts()
THREAT_FEATURES = ("open1", "open2", "open3", "open4", "turned_fours", "unbreakable", "centres", "win_now",
                   "defence_lost")
"""The features of ``threats``, each own minus the opponent's except the last two (see threat_features)."""
# The output of ``python experiments/tune_heuristic.py pentago threats --iterations 30 --pairs 16 --nodes 50000
# --workers 2 --a 0.5 --versus open_lines --final-pairs 50`` (seed 0, 21 minutes; SPSA from 1, 3, 9, 27, 9, 5,
# 3, 500, 200). Its final matches, 100 games each at 50,000 nodes a move: tuned vs start 28/50/22, Elo +21
# [-25, +67]; tuned vs open_lines 42/37/21, +74 [+32, +119]; start vs open_lines 48/38/14, +123 [+69, +178].
THREAT_WEIGHTS = np.array([1.0, 3.957, 9.638, 29.897, 8.686, 5.559, 2.189, 539.669, 185.825])
"""The weights of THREAT_FEATURES, tuned by self-play (experiments/tune_heuristic.py; the run is cited above)."""


@helper
def quadrant_pattern(b: int, q: int) -> int:  # pragma: no cover - compiled
    """The 9 bits of quadrant q of bitboard b, row by row."""
    x = b >> QUADRANT_ORIGIN[q]
    return (x & 7) | ((x >> 3) & 0x38) | ((x >> 6) & 0x1C0)


@helper
def add3(a0: int, a1: int, a2: int, b0: int, b1: int) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Per line, a + b, bit-sliced (a of 3 bits, b of 2; every sum here is at most 5)."""
    c = a0 & b0
    s1 = a1 ^ b1 ^ c
    c = (a1 & b1) | (c & (a1 ^ b1))
    return a0 ^ b0, s1, a2 ^ c


@helper
def sub3(a0: int, a1: int, a2: int, b0: int, b1: int) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Per line, a - b, bit-sliced, for b <= a (a of 3 bits, b of 2)."""
    w = ~a0 & b0
    d1 = a1 ^ b1 ^ w
    w = (~a1 & b1) | (~(a1 ^ b1) & w)
    return a0 ^ b0, d1, a2 ^ w


@helper
def threat_features(params: Params, s: State) -> tuple[int, ...]:  # pragma: no cover - compiled
    """The features of ``threats`` from the side to move (X) against the other (Y).

    Line counts come per quadrant from QUAD_LINES, so a turn of quadrant q is the
    board's counts minus q's contribution plus q's turned one: all 8 turns cost 16
    bit-sliced additions per side. Returns, X minus Y: open lines (free of the other
    side) with 1, 2, 3, 4 stones; fours a single turn makes (a line with 4+ stones and
    no enemy stone after the turn that is not an open four now, counted per turn); open
    lines of 3+ stones that no turn breaks; stones on the quadrant centres (no turn moves
    them). Then ``win_now``: X wins with this move (a line is an open four after some
    turn: place its fifth stone, then turn; an open four now stays one when a quadrant
    off its line turns, so either rule variant wins), and ``defence_lost``: X cannot win
    now and Y has two or more lines that one turn leaves open fours.
    """
    x = s[S_TO_MOVE]
    me = s[x]
    op = s[1 - x]
    ia0, ia1, ia2, ia3 = (quadrant_pattern(me, 0), quadrant_pattern(me, 1), quadrant_pattern(me, 2),
                          quadrant_pattern(me, 3))
    ib0, ib1, ib2, ib3 = (quadrant_pattern(op, 0), quadrant_pattern(op, 1), quadrant_pattern(op, 2),
                          quadrant_pattern(op, 3))
    t = QUAD_LINES  # read word by word: a row taken as an array (a view) made each evaluation 1.5x slower
    a0, a1, a2 = add3(t[0, ia0, 0], t[0, ia0, 1], 0, t[1, ia1, 0], t[1, ia1, 1])
    a0, a1, a2 = add3(a0, a1, a2, t[2, ia2, 0], t[2, ia2, 1])
    a0, a1, a2 = add3(a0, a1, a2, t[3, ia3, 0], t[3, ia3, 1])
    b0, b1, b2 = add3(t[0, ib0, 0], t[0, ib0, 1], 0, t[1, ib1, 0], t[1, ib1, 1])
    b0, b1, b2 = add3(b0, b1, b2, t[2, ib2, 0], t[2, ib2, 1])
    b0, b1, b2 = add3(b0, b1, b2, t[3, ib3, 0], t[3, ib3, 1])
    a_free = PACKED_START & ~(b0 | b1 | b2)
    b_free = PACKED_START & ~(a0 | a1 | a2)
    a4 = a_free & a2
    b4 = b_free & b2
    a_keep = a_free & (a2 | (a1 & a0))
    b_keep = b_free & (b2 | (b1 & b0))
    a_made = 0
    b_made = 0
    a_turned = 0
    b_turned = 0
    for q in range(4):
        ia = ia0 if q == 0 else (ia1 if q == 1 else (ia2 if q == 2 else ia3))
        ib = ib0 if q == 0 else (ib1 if q == 1 else (ib2 if q == 2 else ib3))
        c0, c1, c2 = sub3(a0, a1, a2, t[q, ia, 0], t[q, ia, 1])
        d0, d1, d2 = sub3(b0, b1, b2, t[q, ib, 0], t[q, ib, 1])
        for o in range(1, 3):
            e0, e1, e2 = add3(c0, c1, c2, t[q, ia, 2 * o], t[q, ia, 2 * o + 1])
            f0, f1, f2 = add3(d0, d1, d2, t[q, ib, 2 * o], t[q, ib, 2 * o + 1])
            ea = ~(f0 | f1 | f2)
            eb = ~(e0 | e1 | e2)
            made_a = e2 & ea
            made_b = f2 & eb
            a_made |= made_a
            b_made |= made_b
            a_turned += popcount(made_a & ~a4)
            b_turned += popcount(made_b & ~b4)
            a_keep &= (e2 | (e1 & e0)) & ea
            b_keep &= (f2 | (f1 & f0)) & eb
    win_now = 1 if a_made != 0 else 0
    lost = 1 if win_now == 0 and popcount(b_made) >= 2 else 0
    return (popcount(a_free & a0 & ~a1 & ~a2) - popcount(b_free & b0 & ~b1 & ~b2),
            popcount(a_free & a1 & ~a0 & ~a2) - popcount(b_free & b1 & ~b0 & ~b2),
            popcount(a_free & a1 & a0 & ~a2) - popcount(b_free & b1 & b0 & ~b2),
            popcount(a4) - popcount(b4), a_turned - b_turned, popcount(a_keep) - popcount(b_keep),
            popcount(me & QUADRANT_CENTRES) - popcount(op & QUADRANT_CENTRES), win_now, lost)


@helper
def threat_value(params: Params, s: State, player: int, w: F64Array) -> float:  # pragma: no cover - compiled
    """The weighted sum of threat_features with weights w, from player's point of view."""
    f = threat_features(params, s)
    v = (w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3] + w[4] * f[4] + w[5] * f[5] + w[6] * f[6]
         + w[7] * f[7] - w[8] * f[8])
    v = min(max(v, 1.0 - HEURISTIC_LIMIT), HEURISTIC_LIMIT - 1.0)
    return v if player == s[S_TO_MOVE] else -v


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Threat-based and turn-aware: open lines, fours one turn makes, lines no turn breaks,
    centres, and who wins on the move; weights THREAT_WEIGHTS (tuned by self-play)."""
    return threat_value(params, s, player, THREAT_WEIGHTS)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Cells first by the lines through them: the mover's fours (a win), the opponent's
    fours (a block), the mover's threes, the opponent's threes; then quadrant centres,
    the inner ring, and cells on the mover's twos. The 8 turns of a cell tie (the
    search's killers and TT move order them)."""
    p = s[S_TO_MOVE]
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


@helper
def open_fours(me: int, op: int) -> int:  # pragma: no cover - compiled
    """Lines free of op that hold 4 or 5 of me's stones (a four wins with one more stone)."""
    free, _c0, _c1, c2 = line_counts(me, op)
    return popcount(free & c2)


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """The moves that make a five or a new four for the mover, or leave the opponent fewer
    fours, judged after the turn (a turn can complete, make or break a line). Only cells
    on the mover's lines of three or more are tried, every empty cell when the opponent
    has a four."""
    if s[S_STATUS] != ONGOING:
        return 0
    p = s[S_TO_MOVE]
    me = s[p]
    op = s[1 - p]
    free, c0, c1, c2 = line_counts(me, op)
    mine = popcount(free & c2)
    theirs = open_fours(op, me)
    empty = FULL & ~(me | op)
    cells = empty if theirs > 0 else empty & spread(free & (c2 | (c1 & c0)))
    n = 0
    while cells != 0:
        c = lowest_bit(cells)
        cells &= cells - 1
        placed = me | (1 << c)
        if params[P_WIN_BEFORE_ROTATION] != 0 and has_five(placed):
            for r in range(8):
                out[n + r] = 8 * c + r
            n += 8
            continue
        for r in range(8):
            a = rotate(placed, r)
            b = rotate(op, r)
            if has_five(a) or open_fours(a, b) > mine or (theirs > 0 and open_fours(b, a) < theirs):
                out[n] = 8 * c + r
                n += 1
    return n


HEURISTICS = {
    "threats": Heuristic("threats", threats,
                         "open lines, fours one quadrant turn makes, lines no turn breaks, centres and a win on "
                         "the move, weighted by self-play", symmetric=True),
    "open_lines": Heuristic("open_lines", open_lines,
                            "lines still winnable weighted 1/3/9/27 by own stones, own minus opponent's",
                            symmetric=True),
    "runs": Heuristic("runs", runs,
                      "the Pentago study: longest run mapped 1,2,4,7,13,11, own minus opponent's (-13..13)",
                      symmetric=True),
    "centre": Heuristic("centre", centre,
                        "3 per stone on a quadrant centre, 1 on the inner ring, own minus opponent's",
                        symmetric=True),
}
