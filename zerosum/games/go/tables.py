"""Go's static geometry, built once at import: the bitboard layout of each board size, the
Zobrist keys, OpenSpiel's handicap points, and the params vector a variant gives the kernels.

**Bitboards.** A board of ``N`` x ``N`` points is stored row by row, each row ``W = N + 1``
bits wide (column ``N`` is a guard bit that is never set, so a stone shifted one column
east or west off the board lands on a guard and is masked away), ``RPW = 63 // W`` whole
rows to an ``int64`` word (so no word uses its sign bit), in ``K = ceil(N / RPW)`` words:
5x5 takes 1 word, 9x9 2 (rows 1-6, 7-9), 13x13 4 and 19x19 7. The point in row ``r`` and
column ``c`` (both from 0; row 0 is row 1 of the board, at the bottom) is bit
``(r % RPW) * W + c`` of word ``r // RPW``. A neighbour step is a shift by 1 (east, west)
or by ``W`` (north, south), with the row that crosses a word boundary moved over.
"""

from __future__ import annotations

import numpy as np

MIN_SIZE, MAX_SIZE = 5, 19
K_MAX = 7
"""Words per colour on the largest board (19 rows, 3 rows a word)."""
POINTS_MAX = MAX_SIZE * MAX_SIZE

# params slots (see params())
P_N, P_W, P_RPW, P_K, P_KOMI2, P_HANDICAP, P_MAX_LENGTH, P_TOP_SHIFT, P_ROW0 = range(9)
P_MASK = 9                        # K_MAX words: the board's points in each word
P_BIT_TO_ACTION = P_MASK + K_MAX  # K_MAX * 64 entries: word * 64 + bit -> action (-1 off the board)
P_ACTION_TO_BIT = P_BIT_TO_ACTION + K_MAX * 64  # N*N entries: action -> word * 64 + bit
P_SIZE = P_ACTION_TO_BIT + POINTS_MAX


def _zobrist() -> np.ndarray:
    """Random 64-bit keys: ``ZOBRIST[colour, 19 * row + col]`` (colour 0 black, 1 white),
    the same for every board size; a fixed seed, so keys are stable across runs."""
    rng = np.random.default_rng(20_260_148)
    return rng.integers(-(1 << 63), (1 << 63) - 1, size=(2, POINTS_MAX), dtype=np.int64, endpoint=True)


ZOBRIST = _zobrist()
"""Zobrist keys of the stones, indexed ``[colour, 19 * row + col]``."""
HISTORY_SALT = -7_046_029_254_386_353_131
"""0x9E3779B97F4A7C15 as an int64: mixed into a board key as it enters the history key."""


def layout(n: int) -> tuple[int, int, int]:
    """``(W, RPW, K)`` of an ``n`` x ``n`` board: row width in bits, rows a word, words."""
    w = n + 1
    rpw = min(63 // w, n)
    return w, rpw, -(-n // rpw)


def point_bit(n: int, row: int, col: int) -> tuple[int, int]:
    """The (word, bit) of a point of an ``n`` x ``n`` board."""
    w, rpw, _ = layout(n)
    return row // rpw, (row % rpw) * w + col


def handicap_points(n: int, handicap: int) -> list[tuple[int, int]]:
    """OpenSpiel's handicap stones, as (row, col) from 0: d4, q16, d16, q4, d10, q10, k4,
    k16 and k10 in that order, the first ``handicap`` of them (k10, the centre, in the
    last place for an odd number from 5); none for 0 or 1. They are 19x19 points, so
    they fit on boards of 16 and more."""
    if handicap < 2:
        return []
    order = [(3, 3), (15, 15), (15, 3), (3, 15), (9, 3), (9, 15), (3, 9), (15, 9), (9, 9)]
    points = order[:handicap]
    if handicap >= 5 and handicap % 2 == 1:
        points[-1] = (9, 9)
    return points


def params(n: int, komi2: int, handicap: int, max_length: int) -> list[int]:
    """The params vector of a variant (komi given doubled, an int)."""
    w, rpw, k = layout(n)
    p = [0] * P_SIZE
    p[P_N], p[P_W], p[P_RPW], p[P_K] = n, w, rpw, k
    p[P_KOMI2], p[P_HANDICAP], p[P_MAX_LENGTH] = komi2, handicap, max_length
    p[P_TOP_SHIFT] = (rpw - 1) * w
    p[P_ROW0] = (1 << n) - 1
    for i in range(K_MAX * 64):
        p[P_BIT_TO_ACTION + i] = -1
    for row in range(n):
        for col in range(n):
            word, b = point_bit(n, row, col)
            p[P_MASK + word] |= 1 << b
            p[P_BIT_TO_ACTION + word * 64 + b] = row * n + col
            p[P_ACTION_TO_BIT + row * n + col] = word * 64 + b
    return p
