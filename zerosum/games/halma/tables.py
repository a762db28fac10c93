"""Halma's geometry, built once at import for every board size: squares and parity classes,
neighbour and jump tables, the camps, the bit masks and the Zobrist keys.

Every table is indexed first by ``z``, the size's index in :data:`SIZES` (``params[P_Z]``
inside the kernels), and sized for the largest board, so one compiled kernel serves all
three sizes. A square is ``N*row + col``; its parity class ``k = 2*(row % 2) + (col % 2)``
and its bit ``8*(row // 2) + col // 2`` in that class's 8x8 bitboard.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import i64, i64_array

Square = int
SIZES = (8, 10, 16)
"""The board sizes Halma supports (``size`` variant)."""
CAMP_ROWS = {16: (5, 5, 4, 3, 2), 10: (5, 4, 3, 2, 1), 8: (4, 3, 2, 1)}
"""The width of each row of player 0's home camp, counted from its corner."""
DEFAULT_MAX_TURNS = {16: 600, 10: 300, 8: 200}
MAX_SQUARES = 256
MAX_CAMP = 19
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""The 8 directions (row, col), in ascending order of the square they lead to."""

NOT_J0 = i64(0xFEFEFEFEFEFEFEFE)  # every class column but the first
NOT_J7 = i64(0x7F7F7F7F7F7F7F7F)  # every class column but the last
LOW = i64_array([(1 << (64 - s)) - 1 for s in range(64)])
"""``LOW[s]``: the bits a logical right shift by ``s`` keeps."""


def camp_squares(n: int) -> list[tuple[int, int]]:
    """Player 0's home camp (top-left corner) on an n x n board as (row, col) pairs."""
    return [(r, c) for r, width in enumerate(CAMP_ROWS[n]) for c in range(width)]


def homes(n: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Both home camps as sets of (row, col): player 0's top-left, player 1's bottom-right."""
    camp = camp_squares(n)
    return set(camp), {(n - 1 - r, n - 1 - c) for r, c in camp}


def _over() -> np.ndarray:
    """For class k and direction d: the class of the square jumped over and the shift
    (di, dj) that brings its bit onto the jumping piece's bit."""
    over = np.zeros((4, 8, 3), np.int64)
    for k in range(4):
        pr, pc = k >> 1, k & 1
        for d, (dr, dc) in enumerate(DIRECTIONS):
            qr, qc = (pr + dr) & 1, (pc + dc) & 1
            over[k, d] = (2 * qr + qc, -((pr + dr - qr) // 2), -((pc + dc - qc) // 2))
    return over


def _geometry() -> dict[str, np.ndarray]:
    nz = len(SIZES)
    t = {
        "sq_class": np.zeros((nz, MAX_SQUARES), np.int64), "sq_bit": np.zeros((nz, MAX_SQUARES), np.int64),
        "class_sq": np.full((nz, 4, 64), -1, np.int64), "board": np.zeros((nz, 4), np.int64),
        "home": np.zeros((nz, 2, 4), np.int64), "in_target": np.zeros((nz, 2, MAX_SQUARES), np.int64),
        "half": np.zeros((nz, 2, 4), np.int64), "neigh": np.full((nz, MAX_SQUARES, 8), -1, np.int64),
        "camp_size": np.zeros(nz, np.int64),
    }
    for z, n in enumerate(SIZES):
        home = homes(n)
        t["camp_size"][z] = len(home[0])
        for r in range(n):
            for c in range(n):
                sq, k, b = r * n + c, 2 * (r & 1) + (c & 1), 8 * (r >> 1) + (c >> 1)
                t["sq_class"][z, sq], t["sq_bit"][z, sq] = k, b
                t["class_sq"][z, k, b] = sq
                t["board"][z, k] |= i64(1 << b)
                for p in range(2):
                    if (r, c) in home[p]:
                        t["home"][z, p, k] |= i64(1 << b)
                    if (r, c) in home[1 - p]:
                        t["in_target"][z, p, sq] = 1
                    if (r + c > n - 1) if p == 0 else (r + c < n - 1):  # past the midline, towards the target
                        t["half"][z, p, k] |= i64(1 << b)
                for d, (dr, dc) in enumerate(DIRECTIONS):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        t["neigh"][z, sq, d] = (r + dr) * n + c + dc
    return t


_G = _geometry()
SQ_CLASS, SQ_BIT, CLASS_SQ = _G["sq_class"], _G["sq_bit"], _G["class_sq"]
"""Square -> its class and bit; (class, bit) -> square (-1 off the board)."""
BOARD, HOME, HALF = _G["board"], _G["home"], _G["half"]
"""Bitboards by (size, [player,] class): the board, each home camp, each player's far half."""
TARGET = HOME[:, ::-1, :].copy()
"""Bitboards of each player's target camp (the other player's home), by (size, player, class)."""
IN_TARGET, NEIGH, CAMP_SIZE = _G["in_target"], _G["neigh"], _G["camp_size"]
"""1 where a square is in a player's target camp; the 8 neighbours (-1 off the board); pieces a side."""
OVER = _over()
SPREAD = np.array([sum(1 << (2 * j) for j in range(8) if v >> j & 1) for v in range(256)], np.int64)
"""``SPREAD[v]``: the 8 bits of v spread to the even bits (one class row -> board columns)."""
ZOBRIST = np.random.default_rng(0x4A1A).integers(-(1 << 63), (1 << 63) - 1, size=(2, MAX_SQUARES), dtype=np.int64)
"""A random 64-bit key for each (player, square); a state's hash is the XOR over its pieces."""
TURN_KEY = i64(0x9E3779B97F4A7C15)
"""Mixed into the key with the move counter (the draw cap makes it part of the position)."""
del _G
