"""Pentago's search knowledge: the heuristics ``open_lines``, ``runs`` and ``centre``, and
the ordering hint (wins, blocks, threes, then the centre).

The open-line count reads the stones of all 32 lines at once: bit-sliced adders over the
four directions packed into one 64-bit word (:data:`~zerosum.games.pentago.tables.PACKED_START`),
then popcounts. Each heuristic is own minus opponent's, so h(s, 0) == -h(s, 1).
"""

from __future__ import annotations

from zerosum.games.kit import HEURISTIC, ORDER, Heuristic, helper, kernel, popcount
from zerosum.games.pentago.tables import (
    A_PACK, A_START, CELL_WEIGHT, D_PACK, D_START, H_START, INNER_RING, PACKED_START, QUADRANT_CENTRES, RUN_STARTS,
    RUN_VALUE, S_TO_MOVE, V_PACK, V_START,
)


@helper
def packed_cell(x, i):  # pragma: no cover - compiled
    """Bit i of every one of the 32 lines (the cell i steps from its start), packed."""
    return ((x >> i) & H_START) | (((x >> (6 * i)) & V_START) << V_PACK) \
        | (((x >> (7 * i)) & D_START) << D_PACK) | (((x >> (5 * i)) & A_START) << A_PACK)


@helper
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


@helper
def open_line_score(me, op):  # pragma: no cover - compiled
    """Sum over lines free of op of 1, 3, 9, 27, 81 for 1..5 of me's stones."""
    free, c0, c1, c2 = line_counts(me, op)
    n1 = popcount(free & c0 & ~c1 & ~c2)
    n2 = popcount(free & c1 & ~c0)
    n3 = popcount(free & c1 & c0)
    n4 = popcount(free & c2 & ~c0)
    n5 = popcount(free & c2 & c0)
    return float(n1 + 3 * n2 + 9 * n3 + 27 * n4 + 81 * n5)


@helper
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


@helper
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
def order(params, s, moves, n, scores):  # pragma: no cover - compiled
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


HEURISTICS = {
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
