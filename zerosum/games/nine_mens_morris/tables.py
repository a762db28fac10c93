"""Nine Men's Morris geometry and layouts, computed once at import.

Points, their names and grid cells, the 16 mills, the mills through each point, the
adjacency bitboards; the slots of the params vector (``P_*``) and of the state vector
(``S_*``), and the phase codes. Every table is plain data the kernels read.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import ONGOING

NUM_POINTS = 24
NUM_MEN = 9
NUM_ACTIONS = NUM_POINTS + NUM_POINTS * NUM_POINTS  # 600: 24 point actions + from*24 + to
MOVE_BASE = NUM_POINTS
MAX_MOVES = 64  # flying: 3 men x at most 18 empty points = 54
POINT_NAMES = ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4",
               "e4", "f4", "g4", "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1")
POINT_INDEX = {name: i for i, name in enumerate(POINT_NAMES)}
#: (row, col) of each point on the 7x7 grid, row 0 = rank 7 at the top.
POINT_RC = np.array([(7 - int(n[1]), "abcdefg".index(n[0])) for n in POINT_NAMES], dtype=np.int64)
#: The cell (row * 7 + col) of each point on the 7x7 grid of the observation.
POINT_CELL = POINT_RC[:, 0] * 7 + POINT_RC[:, 1]


def _mill(*names: str) -> int:
    return sum(1 << POINT_INDEX[n] for n in names)


MILL_POINTS = (
    ("a7", "d7", "g7"), ("b6", "d6", "f6"), ("c5", "d5", "e5"), ("a4", "b4", "c4"),
    ("e4", "f4", "g4"), ("c3", "d3", "e3"), ("b2", "d2", "f2"), ("a1", "d1", "g1"),
    ("a7", "a4", "a1"), ("b6", "b4", "b2"), ("c5", "c4", "c3"), ("d7", "d6", "d5"),
    ("d3", "d2", "d1"), ("e5", "e4", "e3"), ("f6", "f4", "f2"), ("g7", "g4", "g1"),
)
#: The 16 mills as bitboards (bit i = point i).
MILLS = np.array([_mill(*m) for m in MILL_POINTS], dtype=np.int64)
#: The two mills through each point (every point lies on exactly one row and one column).
MILLS_OF = np.array([[m for m in MILLS if (m >> p) & 1] for p in range(NUM_POINTS)], dtype=np.int64)


def _adjacency() -> np.ndarray:
    """Consecutive points of a mill line are joined, and nothing else is."""
    adj = np.zeros(NUM_POINTS, dtype=np.int64)
    for m in MILL_POINTS:
        for u, v in ((m[0], m[1]), (m[1], m[2])):
            adj[POINT_INDEX[u]] |= 1 << POINT_INDEX[v]
            adj[POINT_INDEX[v]] |= 1 << POINT_INDEX[u]
    return adj


#: Adjacency bitboards: ADJ[p] has bit q set when p and q are joined by a line.
ADJ = _adjacency()
#: The bitboard of all 24 points.
FULL = (1 << NUM_POINTS) - 1

# ---- params and state layout -----------------------------------------------------------
#: params slots: protect_mills, flying, no_return (0 or 1) and max_turns.
P_PROTECT, P_FLYING, P_NO_RETURN, P_MAX_TURNS = 0, 1, 2, 3
#: state slots (see the package docstring): men bitboards (S_MEN + player), the player to
#: move, the removal flag, men in hand (S_HAND + player), the turn counter, the no-return
#: record (S_LEFT / S_WENT + 2 * player), the status code and the number of legal actions.
S_MEN, S_TO_MOVE, S_REMOVAL, S_HAND, S_TURNS, S_LEFT, S_WENT, S_STATUS, S_COUNT = 0, 2, 3, 4, 6, 7, 8, 11, 12
STATE_SIZE = 13
#: The starting position: empty board, 9 men in hand each, 24 legal placements.
INITIAL = (0, 0, 0, 0, NUM_MEN, NUM_MEN, 0, -1, -1, -1, -1, ONGOING, NUM_POINTS)
#: A player's phase.
PLACING, MOVING, FLYING = 0, 1, 2
PHASE_NAMES = ("placing", "moving", "flying")
NUM_PLANES = 17
