"""Chess's board: the state layout, attack sets, the position key, insufficient material.

State (``STATE_SIZE`` int64 slots)::

    0 white pieces   1 black pieces                          (bitboards, bit = 8*rank + file)
    2 pawns  3 knights  4 bishops  5 rooks  6 queens  7 kings (both colours)
    8 side to move (0 white, 1 black)
    9 castling rights (1 white O-O, 2 white O-O-O, 4 black O-O, 8 black O-O-O), kept
      "clean": a right is dropped as soon as its king or rook moves or the rook is taken
   10 en-passant square after any double pawn push, -1 otherwise (python-chess's
      ``ep_square``; the key and the FEN count it only when a legal capture exists)
   11 halfmove clock (plies since the last capture or pawn move)
   12 fullmove number
   13 the position key (Zobrist: pieces, side to move, castling rights, the file of a
      legal en-passant capture): what the ``key`` kernel returns and repetition compares
   14 how many times this position has occurred since the last capture or pawn move (1..)
   15 bit c set when a position with colour c to move has occurred twice in that span
   16 how many of the observation's 8 board frames are filled (PettingZoo's history:
      0 at the start, one more after every move, at most 8)
   17 .. 79  the 7 previous positions, newest first, 9 slots each: the 8 boards and
      ``(ep + 1) | repeated << 8`` (for the observation's history planes)
   80 .. 180 the ring of position keys by halfmove clock (slot 80 + clock), for threefold
      repetition: the key of every position since the last capture or pawn move

Only slots 0-10 (with the en-passant square counted when a capture is legal) are the
position: the key covers them and nothing else, so a transposition table shares one
entry between move orders; the rest is history the draw rules and the observation read.

params: ``[draws]``: 0 ``claim`` (PettingZoo's ``chess_v6``: the game ends as soon as
python-chess's ``can_claim_draw()`` holds: threefold repetition that has occurred or that
a move could make, fifty moves that have passed or that a move could complete), 1
``arise`` (OpenSpiel's ``chess``: the third occurrence of a position, the hundredth
halfmove; insufficient material and repetition are checked before mate).

Actions: PettingZoo's ``chess_v6`` encoding, ``(file*8 + rank)*73 + plane`` with the
from-square seen by the mover (black's ranks mirrored, ``rank -> 7 - rank``); planes 0-55
queen moves ``(distance - 1)*8 + direction`` (see :mod:`zerosum.games.chess.tables`),
56-63 knight jumps, 64-72 under-promotions ``3*(file step + 1) + (0 knight, 1 bishop,
2 rook)``; a pawn reaching the last rank by a queen-move plane promotes to a queen.
"""


from __future__ import annotations

from numba import types

from zerosum.games.chess.bits import highest_bit
from zerosum.games.chess.tables import (
    BISHOP_RAYS, DARK_SQUARES, DIR_POSITIVE, KING, KNIGHT, PAWN_ATTACKS, RAY, ROOK_RAYS, ZOBRIST, ZOBRIST_BLACK,
    ZOBRIST_CASTLING, ZOBRIST_EP,
)
from zerosum.games.kit import I64Array, bit, helper, kernel, lowest_bit, popcount, shr

PAWN, KNIGHT_T, BISHOP, ROOK, QUEEN, KING_T = 0, 1, 2, 3, 4, 5
"""Piece types (slot ``2 + type`` holds that type's bitboard)."""
S_STM, S_CASTLE, S_EP, S_HALF, S_FULL, S_KEY, S_REP, S_DUPS, S_FRAMES = 8, 9, 10, 11, 12, 13, 14, 15, 16
"""State slots (see the module docstring)."""
S_HIST = 17
"""The first slot of the previous positions (7 frames of ``FRAME`` slots)."""
FRAME = 9
"""Slots per stored previous position: 8 boards and the info word."""
HISTORY = 7
"""Previous positions stored (the observation shows 8 boards: the current one and these)."""
S_RING = S_HIST + HISTORY * FRAME
"""The first slot of the ring of keys by halfmove clock."""
RING = 101
"""Ring slots: clocks 0..100 (the game is over at 100)."""
STATE_SIZE = S_RING + RING
"""The length of a state vector."""
POSITION_SIZE = 11
"""Slots 0..10: the position proper (boards, side, castling, en passant)."""
NUM_ACTIONS = 64 * 73
"""PettingZoo's 8x8x73 actions."""
MAX_MOVES = 218
"""The most legal moves of any chess position."""
OBS_PLANES = 111
"""Observation planes (PettingZoo's chess_v6)."""
CLAIM, ARISE = 0, 1
"""The ``draws`` param: PettingZoo's claim rule, OpenSpiel's rule."""
GEN_ALL, GEN_CAPTURES, GEN_COUNT, GEN_ANY = 0, 1, 2, 3
"""Modes of :func:`generate`: write every legal action ascending, write the captures and
promotions ascending (the modes below GEN_COUNT write), count them, stop at the first."""

_OF_STATE = types.int64(types.int64[::1])



@helper
def ray_attacks(sq: int, occ: int, d: int) -> int:  # pragma: no cover - compiled
    """The squares a slider on ``sq`` reaches in direction ``d``, up to and with the first piece."""
    a = RAY[d, sq]
    b = a & occ
    if b != 0:
        f = lowest_bit(b) if DIR_POSITIVE[d] else highest_bit(b)
        a ^= RAY[d, f]
    return a


@helper
def rook_attacks(sq: int, occ: int) -> int:  # pragma: no cover - compiled
    """The squares a rook on ``sq`` attacks."""
    return ray_attacks(sq, occ, 1) | ray_attacks(sq, occ, 3) | ray_attacks(sq, occ, 4) | ray_attacks(sq, occ, 6)


@helper
def bishop_attacks(sq: int, occ: int) -> int:  # pragma: no cover - compiled
    """The squares a bishop on ``sq`` attacks."""
    return ray_attacks(sq, occ, 0) | ray_attacks(sq, occ, 2) | ray_attacks(sq, occ, 5) | ray_attacks(sq, occ, 7)


@helper
def attackers(s: I64Array, sq: int, occ: int, by: int) -> int:  # pragma: no cover - compiled
    """The pieces of colour ``by`` that attack ``sq`` with the given occupancy."""
    bb = s[by]
    out = KNIGHT[sq] & s[3] & bb
    out |= KING[sq] & s[7] & bb
    out |= PAWN_ATTACKS[1 - by, sq] & s[2] & bb
    diag = (s[4] | s[6]) & bb
    if BISHOP_RAYS[sq] & diag:
        out |= bishop_attacks(sq, occ) & diag
    orth = (s[5] | s[6]) & bb
    if ROOK_RAYS[sq] & orth:
        out |= rook_attacks(sq, occ) & orth
    return out


@helper
def pawn_attack_set(pawns: int, colour: int) -> int:  # pragma: no cover - compiled
    """Every square the pawns of ``colour`` attack."""
    not_a = pawns & ~0x0101010101010101
    not_h = pawns & 0x7F7F7F7F7F7F7F7F
    if colour == 0:
        return (not_a << 7) | (not_h << 9)
    return shr(not_a, 9) | shr(not_h, 7)


@helper
def attack_map(s: I64Array, by: int, occ: int) -> int:  # pragma: no cover - compiled
    """Every square the pieces of colour ``by`` attack, with the given occupancy."""
    bb = s[by]
    out = pawn_attack_set(bb & s[2], by)
    kn = bb & s[3]
    for _ in range(popcount(kn)):
        out |= KNIGHT[lowest_bit(kn)]
        kn &= kn - 1
    out |= KING[lowest_bit(bb & s[7])]
    diag = bb & (s[4] | s[6])
    for _ in range(popcount(diag)):
        out |= bishop_attacks(lowest_bit(diag), occ)
        diag &= diag - 1
    orth = bb & (s[5] | s[6])
    for _ in range(popcount(orth)):
        out |= rook_attacks(lowest_bit(orth), occ)
        orth &= orth - 1
    return out


@helper
def flip_vertical(x: int) -> int:  # pragma: no cover - compiled
    """The board upside down (rank r to rank 7 - r)."""
    k1 = 0x00FF00FF00FF00FF
    k2 = 0x0000FFFF0000FFFF
    x = (shr(x, 8) & k1) | ((x & k1) << 8)
    x = (shr(x, 16) & k2) | ((x & k2) << 16)
    return shr(x, 32) | (x << 32)


@helper
def transpose(x: int) -> int:  # pragma: no cover - compiled
    """The board mirrored on the a1-h8 diagonal: bit 8*rank + file goes to 8*file + rank."""
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28))
    x ^= t ^ shr(t, 28)
    t = 0x3333000033330000 & (x ^ (x << 14))
    x ^= t ^ shr(t, 14)
    t = 0x5500550055005500 & (x ^ (x << 7))
    x ^= t ^ shr(t, 7)
    return x


@helper
def type_at(s: I64Array, sq: int) -> int:  # pragma: no cover - compiled
    """The type of the piece on ``sq`` (-1 for an empty square)."""
    for t in range(6):
        if (shr(s[2 + t], sq) & 1) != 0:
            return t
    return -1


@helper
def ep_capture_ok(s: I64Array, frm: int, ep: int, us: int, ksq: int) -> bool:  # pragma: no cover - compiled
    """Whether the pawn on ``frm`` may take en passant on ``ep`` without leaving its king attacked."""
    them = 1 - us
    cap = ep - 8 if us == 0 else ep + 8
    occ = ((s[0] | s[1]) ^ bit(frm) ^ bit(cap)) | bit(ep)
    opp = s[them] & ~bit(cap)
    if rook_attacks(ksq, occ) & opp & (s[5] | s[6]):
        return False
    if bishop_attacks(ksq, occ) & opp & (s[4] | s[6]):
        return False
    if KNIGHT[ksq] & opp & s[3]:
        return False
    return (PAWN_ATTACKS[us, ksq] & opp & s[2]) == 0


@kernel(_OF_STATE)
def legal_ep_square(s: I64Array) -> int:  # pragma: no cover - compiled
    """The en-passant square when the side to move has a legal en-passant capture, else -1."""
    ep = s[S_EP]
    if ep < 0:
        return -1
    us = s[S_STM]
    pawns = PAWN_ATTACKS[1 - us, ep] & s[us] & s[2]
    ksq = lowest_bit(s[us] & s[7])
    for _ in range(popcount(pawns)):
        if ep_capture_ok(s, lowest_bit(pawns), ep, us, ksq):
            return ep
        pawns &= pawns - 1
    return -1


@kernel(_OF_STATE)
def zobrist(s: I64Array) -> int:  # pragma: no cover - compiled
    """The position key: pieces, side to move, castling rights, a legal en-passant file."""
    h = ZOBRIST_CASTLING[s[S_CASTLE]]
    if s[S_STM] == 1:
        h ^= ZOBRIST_BLACK
    for c in range(2):
        for t in range(6):
            b = s[c] & s[2 + t]
            for _ in range(popcount(b)):
                h ^= ZOBRIST[6 * c + t, lowest_bit(b)]
                b &= b - 1
    ep = legal_ep_square(s)
    if ep >= 0:
        h ^= ZOBRIST_EP[ep & 7]
    return h


@helper
def insufficient_side(s: I64Array, c: int) -> bool:  # pragma: no cover - compiled
    """python-chess's ``has_insufficient_material(c)``."""
    mine = s[c]
    if (mine & (s[2] | s[5] | s[6])) != 0:
        return False
    if (mine & s[3]) != 0:
        return popcount(mine) <= 2 and (s[1 - c] & ~s[7] & ~s[6]) == 0
    if (mine & s[4]) != 0:
        same = (s[4] & DARK_SQUARES) == 0 or (s[4] & ~DARK_SQUARES) == 0
        return same and s[2] == 0 and s[3] == 0
    return True


@kernel(_OF_STATE)
def insufficient(s: I64Array) -> int:  # pragma: no cover - compiled
    """1 when neither side can mate (python-chess's ``is_insufficient_material``)."""
    return 1 if insufficient_side(s, 0) and insufficient_side(s, 1) else 0


@kernel(_OF_STATE)
def in_check(s: I64Array) -> int:  # pragma: no cover - compiled
    """1 when the side to move is in check."""
    us = s[S_STM]
    return 1 if attackers(s, lowest_bit(s[us] & s[7]), s[0] | s[1], 1 - us) != 0 else 0
