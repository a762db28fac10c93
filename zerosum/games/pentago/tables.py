"""Pentago's static geometry, computed once at import.

Sizes and the slots of the state vector (``S_*``); the quadrants (origins, masks, the
rotation table ``ROTATED``); the 32 lines of five as masks (``LINES``) and as start cells
per direction, packed into one word (``PACKED_START``); the run starts of the ``runs``
heuristic (``RUN_STARTS``) and the weights of the heuristics and the ordering hint. Every
table is plain data the kernels read.
"""

from __future__ import annotations

import numpy as np

SIZE = 6
CELLS = 36
NUM_ACTIONS = CELLS * 8
FULL = (1 << CELLS) - 1

# state slots: [stones of player 0, stones of player 1, status, player to move]
S_P0, S_P1, S_STATUS, S_TO_MOVE = 0, 1, 2, 3
STATE_SIZE = 4
# params slot: the rule variant
P_WIN_BEFORE_ROTATION = 0

QUADRANT_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
QUADRANT_ORIGIN = np.array([0, 3, 21, 18], dtype=np.int64)  # top-left cell of each quadrant


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
assert PACKED_START.bit_count() == 32 and PACKED_START < (1 << 62)


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
