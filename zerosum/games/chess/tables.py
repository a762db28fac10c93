"""Chess's constant tables, built once at import: attack sets, rays, lines, Zobrist keys.

Squares are numbered as python-chess and PettingZoo number them: ``square = 8*rank + file``
(a1 = 0, h1 = 7, a8 = 56, h8 = 63); a bitboard has bit ``square`` set for each square in
the set, so the board uses bit 63 (h8), the sign bit of an int64 (see the kit's ``shr``).

Directions are numbered in PettingZoo's ``chess_v6`` order (``get_queen_dir``: x from -1
to 1, then y from -1 to 1, (0, 0) left out), which is also the order of the queen-move
planes of the action encoding::

    0 (-1,-1) SW   1 (-1, 0) W   2 (-1, 1) NW   3 ( 0,-1) S
    4 ( 0, 1) N    5 ( 1,-1) SE  6 ( 1, 0) E    7 ( 1, 1) NE        (file step, rank step)

Knight jumps in the order of ``get_knight_dir`` (x from -2 to 2, y from -2 to 2,
|x| + |y| = 3)::

    0 (-2,-1)  1 (-2, 1)  2 (-1,-2)  3 (-1, 2)  4 (1,-2)  5 (1, 2)  6 (2,-1)  7 (2, 1)
"""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import i64

DIR_FILE = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
"""File step of each direction."""
DIR_RANK = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
"""Rank step of each direction."""
DIR_POSITIVE = np.array([d_r * 8 + d_f > 0 for d_f, d_r in zip(DIR_FILE, DIR_RANK)], dtype=np.bool_)
"""Whether a direction goes to higher squares (its first blocker is then the lowest bit)."""
ROOK_DIRS = np.array([1, 3, 4, 6], dtype=np.int64)
"""The four orthogonal directions (W, S, N, E)."""
BISHOP_DIRS = np.array([0, 2, 5, 7], dtype=np.int64)
"""The four diagonal directions (SW, NW, SE, NE)."""
MIRROR_DIR = np.array([2, 1, 0, 4, 3, 7, 6, 5], dtype=np.int64)
"""The direction with its rank step negated: black's view of a direction is this one on the board."""
KNIGHT_FILE = np.array([-2, -2, -1, -1, 1, 1, 2, 2], dtype=np.int64)
"""File step of each knight jump."""
KNIGHT_RANK = np.array([-1, 1, -2, 2, -2, 2, -1, 1], dtype=np.int64)
"""Rank step of each knight jump."""


def _planes() -> np.ndarray:
    """(file step, rank step, under-promotion) of each of the 73 planes, as the mover sees them."""
    out = np.full((3, 73), -1, dtype=np.int64)
    for plane in range(73):
        if plane < 56:  # queen moves: (distance - 1) * 8 + direction
            m = plane // 8 + 1
            out[0, plane], out[1, plane] = DIR_FILE[plane % 8] * m, DIR_RANK[plane % 8] * m
        elif plane < 64:  # knight jumps
            out[0, plane], out[1, plane] = KNIGHT_FILE[plane - 56], KNIGHT_RANK[plane - 56]
        else:  # under-promotions: 3 * (file step + 1) + piece
            out[0, plane], out[1, plane], out[2, plane] = (plane - 64) // 3 - 1, 1, (plane - 64) % 3 + 1
    return out


PLANE_FILE, PLANE_RANK, PLANE_PROMOTION = _planes()
"""Per plane of the action encoding (``action % 73``): the move's file step and rank step as
the mover sees them (a black move's rank step is negated on the board), and the piece an
under-promotion makes (1 knight, 2 bishop, 3 rook; -1 for the other planes: a pawn that
reaches the last rank by a queen-move plane becomes a queen)."""


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _bits(squares: list[int]) -> int:
    out = 0
    for s in squares:
        out |= 1 << int(s)
    return i64(out)


def _build() -> dict[str, np.ndarray]:
    ray = np.zeros((8, 64), dtype=np.int64)
    knight = np.zeros(64, dtype=np.int64)
    king = np.zeros(64, dtype=np.int64)
    pawn = np.zeros((2, 64), dtype=np.int64)   # squares a pawn of that colour on the square attacks
    between = np.zeros((64, 64), dtype=np.int64)
    line = np.zeros((64, 64), dtype=np.int64)
    knight_to = np.full((8, 64), -1, dtype=np.int64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        for d in range(8):
            squares = []
            ff, rr = f + DIR_FILE[d], r + DIR_RANK[d]
            while _on(ff, rr):
                squares.append(8 * rr + ff)
                ff, rr = ff + DIR_FILE[d], rr + DIR_RANK[d]
            ray[d, sq] = _bits(squares)
            for i, t in enumerate(squares):
                between[sq, t] = _bits(squares[:i])
            back = []
            ff, rr = f - DIR_FILE[d], r - DIR_RANK[d]
            while _on(ff, rr):
                back.append(8 * rr + ff)
                ff, rr = ff - DIR_FILE[d], rr - DIR_RANK[d]
            for t in squares:
                line[sq, t] = _bits([sq, *squares, *back])
        knight[sq] = _bits([8 * (r + dr) + f + df for df, dr in zip(KNIGHT_FILE, KNIGHT_RANK) if _on(f + df, r + dr)])
        for k in range(8):
            if _on(f + KNIGHT_FILE[k], r + KNIGHT_RANK[k]):
                knight_to[k, sq] = 8 * (r + KNIGHT_RANK[k]) + f + KNIGHT_FILE[k]
        king[sq] = _bits([8 * (r + DIR_RANK[d]) + f + DIR_FILE[d] for d in range(8)
                          if _on(f + DIR_FILE[d], r + DIR_RANK[d])])
        for c, dr in ((0, 1), (1, -1)):
            pawn[c, sq] = _bits([8 * (r + dr) + f + df for df in (-1, 1) if _on(f + df, r + dr)])
    return {"ray": ray, "knight": knight, "king": king, "pawn": pawn, "between": between, "line": line,
            "knight_to": knight_to}


_T = _build()
RAY = _T["ray"]
"""``RAY[d, sq]``: the squares from ``sq`` (excluded) to the edge in direction ``d``."""
KNIGHT = _T["knight"]
"""``KNIGHT[sq]``: the squares a knight on ``sq`` attacks."""
KING = _T["king"]
"""``KING[sq]``: the squares a king on ``sq`` attacks."""
PAWN_ATTACKS = _T["pawn"]
"""``PAWN_ATTACKS[colour, sq]``: the squares a pawn of ``colour`` (0 white) on ``sq`` attacks."""
BETWEEN = _T["between"]
"""``BETWEEN[a, b]``: the squares strictly between two aligned squares (0 when not aligned)."""
LINE = _T["line"]
"""``LINE[a, b]``: the whole line (edge to edge) through two aligned squares (0 when not aligned)."""
KNIGHT_TO = _T["knight_to"]
"""``KNIGHT_TO[k, sq]``: where knight jump ``k`` from ``sq`` lands (-1 off the board)."""

RANK_1 = i64(0xFF)
"""The first rank."""
RANK_8 = i64(0xFF << 56)
"""The eighth rank."""
DARK_SQUARES = i64(0xAA55AA55AA55AA55)
"""The dark squares (a1 is dark)."""

_rng = np.random.default_rng(20261128)
ZOBRIST = _rng.integers(-(1 << 63), (1 << 63) - 1, size=(12, 64), dtype=np.int64, endpoint=True)
"""``ZOBRIST[6*colour + type, sq]``: the key of a piece (type 0 pawn .. 5 king) on a square."""
ZOBRIST_CASTLING = _rng.integers(-(1 << 63), (1 << 63) - 1, size=16, dtype=np.int64, endpoint=True)
"""The key of each set of castling rights (4 bits)."""
ZOBRIST_CASTLING[0] = 0
ZOBRIST_EP = _rng.integers(-(1 << 63), (1 << 63) - 1, size=8, dtype=np.int64, endpoint=True)
"""The key of an en-passant capture being legal, by the file of its target square."""
ZOBRIST_BLACK = int(_rng.integers(-(1 << 63), (1 << 63) - 1, dtype=np.int64, endpoint=True))
"""The key of black being to move."""

# Piece-square tables for the evaluation (knowledge.py): white's view, a1 first, in
# centipawns (the "simplified evaluation function" of Tomasz Michniewski, chessprogramming wiki).
_PST_TEXT = {
    0: """ 0  0  0  0  0  0  0  0
          50 50 50 50 50 50 50 50
          10 10 20 30 30 20 10 10
           5  5 10 25 25 10  5  5
           0  0  0 20 20  0  0  0
           5 -5-10  0  0-10 -5  5
           5 10 10-20-20 10 10  5
           0  0  0  0  0  0  0  0""",
    1: """-50-40-30-30-30-30-40-50
          -40-20  0  0  0  0-20-40
          -30  0 10 15 15 10  0-30
          -30  5 15 20 20 15  5-30
          -30  0 15 20 20 15  0-30
          -30  5 10 15 15 10  5-30
          -40-20  0  5  5  0-20-40
          -50-40-30-30-30-30-40-50""",
    2: """-20-10-10-10-10-10-10-20
          -10  0  0  0  0  0  0-10
          -10  0  5 10 10  5  0-10
          -10  5  5 10 10  5  5-10
          -10  0 10 10 10 10  0-10
          -10 10 10 10 10 10 10-10
          -10  5  0  0  0  0  5-10
          -20-10-10-10-10-10-10-20""",
    3: """ 0  0  0  0  0  0  0  0
           5 10 10 10 10 10 10  5
          -5  0  0  0  0  0  0 -5
          -5  0  0  0  0  0  0 -5
          -5  0  0  0  0  0  0 -5
          -5  0  0  0  0  0  0 -5
          -5  0  0  0  0  0  0 -5
           0  0  0  5  5  0  0  0""",
    4: """-20-10-10 -5 -5-10-10-20
          -10  0  0  0  0  0  0-10
          -10  0  5  5  5  5  0-10
           -5  0  5  5  5  5  0 -5
            0  0  5  5  5  5  0 -5
          -10  5  5  5  5  5  0-10
          -10  0  5  0  0  0  0-10
          -20-10-10 -5 -5-10-10-20""",
    5: """-30-40-40-50-50-40-40-30
          -30-40-40-50-50-40-40-30
          -30-40-40-50-50-40-40-30
          -30-40-40-50-50-40-40-30
          -20-30-30-40-40-30-30-20
          -10-20-20-20-20-20-20-10
           20 20  0  0  0  0 20 20
           20 30 10  0  0 10 30 20""",
}


def _pst() -> np.ndarray:
    out = np.zeros((6, 64), dtype=np.float64)
    for t, text in _PST_TEXT.items():
        nums = [int(x) for x in text.replace("-", " -").split()]
        assert len(nums) == 64, (t, len(nums))
        for i, v in enumerate(nums):
            rank = 7 - i // 8  # the text's first row is rank 8
            out[t, 8 * rank + i % 8] = v
    return out


PST = _pst()
"""``PST[type, sq]``: the piece-square bonus of a white piece (centipawns); black's is mirrored."""
PIECE_VALUE = np.array([100.0, 320.0, 330.0, 500.0, 900.0, 0.0])
"""Material values (centipawns) of pawn, knight, bishop, rook, queen, king."""


def _steps() -> np.ndarray:
    out = np.full((8, 64, 7), -1, dtype=np.int64)
    for d in range(8):
        for sq in range(64):
            f, r = sq % 8, sq // 8
            for m in range(7):
                ff, rr = f + (m + 1) * DIR_FILE[d], r + (m + 1) * DIR_RANK[d]
                if _on(ff, rr):
                    out[d, sq, m] = 8 * rr + ff
    return out


STEP_TO = _steps()
"""``STEP_TO[d, sq, m]``: the square ``m + 1`` steps from ``sq`` in direction ``d`` (-1 off the board)."""
ROOK_RAYS = np.array([RAY[1, s] | RAY[3, s] | RAY[4, s] | RAY[6, s] for s in range(64)], dtype=np.int64)
"""``ROOK_RAYS[sq]``: the squares a rook on ``sq`` sees on an empty board."""
BISHOP_RAYS = np.array([RAY[0, s] | RAY[2, s] | RAY[5, s] | RAY[7, s] for s in range(64)], dtype=np.int64)
"""``BISHOP_RAYS[sq]``: the squares a bishop on ``sq`` sees on an empty board."""
CASTLE_KEEP = np.full(64, 15, dtype=np.int64)
"""``CASTLE_KEEP[sq]``: the castling rights that survive a move from or to ``sq`` (bits: 1 white
king side, 2 white queen side, 4 black king side, 8 black queen side)."""
for _sq, _lost in ((0, 2), (4, 3), (7, 1), (56, 8), (60, 12), (63, 4)):
    CASTLE_KEEP[_sq] = 15 & ~_lost
KNIGHT_MIRROR = np.array([1, 0, 3, 2, 5, 4, 7, 6], dtype=np.int64)
"""The knight jump with its rank step negated (black's view of a jump is this one on the board)."""
