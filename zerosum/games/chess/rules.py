"""Chess's rules as kernels over an int64 state vector.

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

import numpy as np
from numba import types

from zerosum.games.chess.tables import (
    BETWEEN, BISHOP_RAYS, CASTLE_KEEP, DARK_SQUARES, DIR_FILE, DIR_POSITIVE, DIR_RANK, KING, KNIGHT, KNIGHT_FILE,
    KNIGHT_MIRROR, KNIGHT_RANK, KNIGHT_TO, LINE, MIRROR_DIR, PAWN_ATTACKS, RANK_1, RANK_8, RAY, ROOK_RAYS, STEP_TO,
    ZOBRIST, ZOBRIST_BLACK, ZOBRIST_CASTLING, ZOBRIST_EP,
)
from zerosum.games.chess.bits import highest_bit
from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array,
    Params, bit, helper, kernel, lowest_bit, popcount, shr,
)

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

_STATE = types.int64[::1]
_GEN = types.int64(_STATE, _STATE, types.int64)
_MAKE = types.void(_STATE, types.int64, _STATE)
_OF_STATE = types.int64(_STATE)
_ALL = -1


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
def emit(out: I64Array, n: int, mode: int, action: int) -> int:  # pragma: no cover - compiled
    if mode < GEN_COUNT:
        out[n] = action
    return n + 1


@kernel(_GEN)
def generate(s: I64Array, out: I64Array, mode: int) -> int:  # pragma: no cover - compiled
    """The legal moves of the side to move, ignoring whether the game is over: by ``mode``,
    written ascending into ``out`` (GEN_ALL; GEN_CAPTURES: captures and promotions only),
    counted (GEN_COUNT), or 1 at the first found (GEN_ANY). Returns how many."""
    us = s[S_STM]
    them = 1 - us
    own = s[us]
    opp = s[them]
    occ = own | opp
    kbb = own & s[7]
    ksq = lowest_bit(kbb)
    checkers = attackers(s, ksq, occ, them)
    nchk = popcount(checkers)
    if nchk == 0:
        evade = _ALL
    elif nchk == 1:
        evade = checkers | BETWEEN[ksq, lowest_bit(checkers)]
    else:
        evade = 0
    if mode == GEN_CAPTURES:
        evade &= opp | RANK_1 | RANK_8  # promotions stay: the pawn masks below keep them
    pinned = 0
    snipers = ((ROOK_RAYS[ksq] & (s[5] | s[6])) | (BISHOP_RAYS[ksq] & (s[4] | s[6]))) & opp
    for _ in range(popcount(snipers)):
        b = BETWEEN[ksq, lowest_bit(snipers)] & occ
        if b != 0 and (b & (b - 1)) == 0 and (b & own) != 0:
            pinned |= b
        snipers &= snipers - 1
    ep = s[S_EP]
    last_rank = RANK_8 if us == 0 else RANK_1
    forward = 8 if us == 0 else -8
    n = 0
    if mode >= GEN_COUNT:
        # no order needed: whole target sets, counted; the king last (GEN_ANY seldom gets there)
        if nchk < 2:
            pieces = own & ~kbb & ~s[2]
            for _ in range(popcount(pieces)):
                sq = lowest_bit(pieces)
                pieces &= pieces - 1
                allowed = evade & ~own
                if (shr(pinned, sq) & 1) != 0:
                    allowed &= LINE[ksq, sq]
                t = type_at(s, sq)
                if t == KNIGHT_T:
                    tg = KNIGHT[sq]
                elif t == BISHOP:
                    tg = bishop_attacks(sq, occ)
                elif t == ROOK:
                    tg = rook_attacks(sq, occ)
                else:
                    tg = bishop_attacks(sq, occ) | rook_attacks(sq, occ)
                n += popcount(tg & allowed)
                if mode == GEN_ANY and n > 0:
                    return 1
            pawns = own & s[2]
            for _ in range(popcount(pawns)):
                sq = lowest_bit(pawns)
                pawns &= pawns - 1
                allowed = evade
                if (shr(pinned, sq) & 1) != 0:
                    allowed &= LINE[ksq, sq]
                tg = PAWN_ATTACKS[us, sq] & opp
                one = sq + forward
                if (shr(occ, one) & 1) == 0:
                    tg |= bit(one)
                    rank = sq >> 3
                    if (rank == 1 and us == 0) or (rank == 6 and us == 1):
                        two = one + forward
                        if (shr(occ, two) & 1) == 0:
                            tg |= bit(two)
                tg &= allowed
                k = popcount(tg)
                if (tg & last_rank) != 0:
                    k *= 4
                n += k
                if ep >= 0 and (PAWN_ATTACKS[us, sq] & bit(ep)) != 0 and ep_capture_ok(s, sq, ep, us, ksq):
                    n += 1
                if mode == GEN_ANY and n > 0:
                    return 1
        attacked = attack_map(s, them, occ ^ kbb)
        n += popcount(KING[ksq] & ~own & ~attacked)
        if nchk == 0:
            rights = s[S_CASTLE] >> (2 * us)
            base = 56 * us
            if (rights & 1) != 0 and (occ & (0x60 << base)) == 0 and (attacked & (0x60 << base)) == 0:
                n += 1
            if (rights & 2) != 0 and (occ & (0x0E << base)) == 0 and (attacked & (0x0C << base)) == 0:
                n += 1
        if mode == GEN_ANY and n > 0:
            return 1
        return n
    attacked = attack_map(s, them, occ ^ kbb)
    # written in action order: from-squares by (file*8 + rank seen by the mover), then planes
    view = own if us == 0 else flip_vertical(own)
    order = transpose(view)
    for _ in range(popcount(order)):
        fidx = lowest_bit(order)
        order &= order - 1
        file = fidx >> 3
        rank = fidx & 7
        if us == 1:
            rank = 7 - rank
        sq = 8 * rank + file
        base = fidx * 73
        t = type_at(s, sq)
        if t == KING_T:
            tg = KING[sq] & ~own & ~attacked
            if mode == GEN_CAPTURES:
                tg &= opp
            for c in range(8):
                d = c if us == 0 else MIRROR_DIR[c]
                to = STEP_TO[d, sq, 0]
                if to >= 0 and (shr(tg, to) & 1) != 0:
                    n = emit(out, n, mode, base + c)
            if nchk == 0 and mode == GEN_ALL:
                rights = s[S_CASTLE] >> (2 * us)
                b56 = 56 * us
                if (rights & 2) != 0 and (occ & (0x0E << b56)) == 0 and (attacked & (0x0C << b56)) == 0:
                    n = emit(out, n, mode, base + 9)
                if (rights & 1) != 0 and (occ & (0x60 << b56)) == 0 and (attacked & (0x60 << b56)) == 0:
                    n = emit(out, n, mode, base + 14)
            continue
        if nchk >= 2:
            continue
        allowed = evade
        if (shr(pinned, sq) & 1) != 0:
            allowed &= LINE[ksq, sq]
        if t == PAWN:
            one = sq + forward
            two = -1
            caps = PAWN_ATTACKS[us, sq]
            ep_ok = ep >= 0 and (caps & bit(ep)) != 0 and ep_capture_ok(s, sq, ep, us, ksq)
            tg = caps & opp & allowed
            if ep_ok:
                tg |= bit(ep)
            push = 0
            if (shr(occ, one) & 1) == 0:
                push = bit(one)
                if (sq >> 3) == (1 if us == 0 else 6) and (shr(occ, one + forward) & 1) == 0:
                    two = one + forward
                    push |= bit(two)
            push &= allowed
            if mode == GEN_CAPTURES:
                push &= last_rank
            has_left = (sq & 7) > 0
            has_right = (sq & 7) < 7
            if has_left and (shr(tg, one - 1) & 1) != 0:
                n = emit(out, n, mode, base + 2)
            if (shr(push, one) & 1) != 0:
                n = emit(out, n, mode, base + 4)
            if has_right and (shr(tg, one + 1) & 1) != 0:
                n = emit(out, n, mode, base + 7)
            if two >= 0 and (shr(push, two) & 1) != 0:
                n = emit(out, n, mode, base + 12)
            if ((tg | push) & last_rank) != 0:
                for dx in range(3):
                    if dx == 1:
                        ok = (shr(push, one) & 1) != 0
                    elif dx == 0:
                        ok = has_left and (shr(tg, one - 1) & 1) != 0
                    else:
                        ok = has_right and (shr(tg, one + 1) & 1) != 0
                    if ok:
                        for k in range(3):
                            n = emit(out, n, mode, base + 64 + 3 * dx + k)
            continue
        allowed &= ~own
        if mode == GEN_CAPTURES:
            allowed &= opp
        if t == KNIGHT_T:
            tg = KNIGHT[sq] & allowed
            for k in range(8):
                kk = k if us == 0 else KNIGHT_MIRROR[k]
                to = KNIGHT_TO[kk, sq]
                if to >= 0 and (shr(tg, to) & 1) != 0:
                    n = emit(out, n, mode, base + 56 + k)
            continue
        if t == BISHOP:
            tg = bishop_attacks(sq, occ) & allowed
        elif t == ROOK:
            tg = rook_attacks(sq, occ) & allowed
        else:
            tg = (bishop_attacks(sq, occ) | rook_attacks(sq, occ)) & allowed
        for m in range(7):
            if tg == 0:
                break
            for c in range(8):
                d = c if us == 0 else MIRROR_DIR[c]
                to = STEP_TO[d, sq, m]
                if to >= 0 and (shr(tg, to) & 1) != 0:
                    n = emit(out, n, mode, base + 8 * m + c)
                    tg &= ~bit(to)
    return n


@kernel(_MAKE)
def make(s: I64Array, a: int, child: I64Array) -> None:  # pragma: no cover - compiled
    """Write the position part (slots 0..12) after legal action ``a`` into ``child``."""
    for i in range(POSITION_SIZE + 2):
        child[i] = s[i]
    us = s[S_STM]
    them = 1 - us
    fidx = a // 73
    plane = a % 73
    file = fidx >> 3
    rank = fidx & 7
    if us == 1:
        rank = 7 - rank
    frm = 8 * rank + file
    promo = -1
    if plane < 56:
        m = plane // 8 + 1
        c = plane % 8
        df = DIR_FILE[c] * m
        dr = DIR_RANK[c] * m
    elif plane < 64:
        df = KNIGHT_FILE[plane - 56]
        dr = KNIGHT_RANK[plane - 56]
    else:
        u = plane - 64
        df = u // 3 - 1
        dr = 1
        promo = u % 3 + 1
    if us == 1:
        dr = -dr
    to = frm + 8 * dr + df
    fb = bit(frm)
    tb = bit(to)
    t = type_at(s, frm)
    captured = -1
    if (s[them] & tb) != 0:
        captured = type_at(s, to)
        child[them] ^= tb
        child[2 + captured] ^= tb
    child[us] ^= fb | tb
    child[2 + t] ^= fb
    if t == PAWN:
        if promo < 0 and (tb & (RANK_1 | RANK_8)) != 0:
            promo = QUEEN
        if to == s[S_EP] and df != 0 and captured < 0:
            cap = to - 8 if us == 0 else to + 8
            child[them] ^= bit(cap)
            child[2] ^= bit(cap)
    child[2 + (promo if promo >= 0 else t)] |= tb
    if t == KING_T and (df == 2 or df == -2):
        if df == 2:
            rook_move = bit(frm + 3) | bit(frm + 1)
        else:
            rook_move = bit(frm - 4) | bit(frm - 1)
        child[us] ^= rook_move
        child[5] ^= rook_move
    child[S_CASTLE] = s[S_CASTLE] & CASTLE_KEEP[frm] & CASTLE_KEEP[to]
    child[S_EP] = -1
    if t == PAWN and (dr == 2 or dr == -2):
        child[S_EP] = frm + 8 if us == 0 else frm - 8
    child[S_HALF] = 0 if t == PAWN or captured >= 0 else s[S_HALF] + 1
    child[S_FULL] = s[S_FULL] + us
    child[S_STM] = them


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


@helper
def zeroing(s: I64Array, a: int) -> bool:  # pragma: no cover - compiled
    """Whether legal action ``a`` is a pawn move or a capture (it resets the halfmove clock)."""
    us = s[S_STM]
    fidx = a // 73
    rank = fidx & 7
    if us == 1:
        rank = 7 - rank
    frm = 8 * rank + (fidx >> 3)
    if (shr(s[2], frm) & 1) != 0:
        return True
    plane = a % 73
    if plane < 56:
        m = plane // 8 + 1
        df = DIR_FILE[plane % 8] * m
        dr = DIR_RANK[plane % 8] * m
    else:
        df = KNIGHT_FILE[plane - 56]
        dr = KNIGHT_RANK[plane - 56]
    if us == 1:
        dr = -dr
    return (shr(s[1 - us], frm + 8 * dr + df) & 1) != 0


@kernel(_OF_STATE)
def claimable(s: I64Array) -> int:  # pragma: no cover - compiled
    """1 when python-chess's ``can_claim_draw()`` holds for a position with legal moves
    (threefold repetition or fifty moves, reached or reachable by one move)."""
    if s[S_REP] >= 3 or s[S_HALF] >= 100:
        return 1
    fifty = s[S_HALF] == 99
    threefold = ((s[S_DUPS] >> (1 - s[S_STM])) & 1) != 0
    if not fifty and not threefold:
        return 0
    moves = np.empty(MAX_MOVES, np.int64)
    child = np.empty(STATE_SIZE, np.int64)
    scratch = np.empty(MAX_MOVES, np.int64)
    n = generate(s, moves, GEN_ALL)
    h = s[S_HALF]
    for i in range(n):
        if zeroing(s, moves[i]):
            continue
        make(s, moves[i], child)
        if fifty and generate(child, scratch, GEN_ANY) > 0:
            return 1
        if threefold:
            k = zobrist(child)
            seen = 0
            j = min(h, RING - 1) - 1
            for _ in range(RING):
                if j < 0:
                    break
                if s[S_RING + j] == k:
                    seen += 1
                j -= 2
            if seen >= 2:
                return 1
    return 0


@helper
def drawn_with_moves(params: Params, s: I64Array) -> bool:  # pragma: no cover - compiled
    """Whether a position whose mover has a legal move is drawn (material, repetition, fifty moves)."""
    if insufficient(s):
        return True
    if params[0] == ARISE:
        return s[S_REP] >= 3 or s[S_HALF] >= 100
    return claimable(s) != 0


@helper
def safe_after(s: I64Array, us: int, ksq: int, occ: int, removed: int) -> bool:  # pragma: no cover - compiled
    """Whether ``ksq`` is attacked by none of the opponent's pieces (those in ``removed`` taken
    off) with the occupancy ``occ``."""
    opp = s[1 - us] & ~removed
    if (KNIGHT[ksq] & opp & s[3]) != 0 or (PAWN_ATTACKS[us, ksq] & opp & s[2]) != 0 or (KING[ksq] & opp & s[7]) != 0:
        return False
    if (rook_attacks(ksq, occ) & opp & (s[5] | s[6])) != 0:
        return False
    return (bishop_attacks(ksq, occ) & opp & (s[4] | s[6])) == 0


@helper
def move_ok(s: I64Array, a: int) -> bool:  # pragma: no cover - compiled
    """Whether action ``a`` is a legal move of the side to move (the draw rules aside)."""
    us = s[S_STM]
    own = s[us]
    opp = s[1 - us]
    occ = own | opp
    fidx = a // 73
    plane = a % 73
    file = fidx >> 3
    rank = fidx & 7
    if plane < 56:
        m = plane // 8 + 1
        df = DIR_FILE[plane % 8] * m
        dr = DIR_RANK[plane % 8] * m
    elif plane < 64:
        df = KNIGHT_FILE[plane - 56]
        dr = KNIGHT_RANK[plane - 56]
    else:
        df = (plane - 64) // 3 - 1
        dr = 1
    tf = file + df
    tr = rank + dr
    if tf < 0 or tf > 7 or tr < 0 or tr > 7:
        return False
    frm = 8 * (rank if us == 0 else 7 - rank) + file
    to = 8 * (tr if us == 0 else 7 - tr) + tf
    if (shr(own, frm) & 1) == 0 or (shr(own, to) & 1) != 0:
        return False
    t = type_at(s, frm)
    ksq = lowest_bit(own & s[7])
    removed = bit(to) & opp
    new_occ = (occ & ~bit(frm)) | bit(to)
    if t == PAWN:
        if plane >= 64 and tr != 7:
            return False
        if df == 0:
            if (shr(occ, to) & 1) != 0:
                return False
            if dr == 2:
                if rank != 1 or (shr(occ, to - (8 if us == 0 else -8)) & 1) != 0:
                    return False
            elif dr != 1:
                return False
        else:
            if dr != 1 or (df != 1 and df != -1):
                return False
            if removed == 0:
                if to != s[S_EP]:
                    return False
                cap = to - 8 if us == 0 else to + 8
                removed = bit(cap)
                new_occ ^= bit(cap)
    elif plane >= 64:
        return False
    elif t == KNIGHT_T:
        if plane < 56:
            return False
    elif t == KING_T:
        if plane >= 8:
            if (plane != 9 and plane != 14) or not safe_after(s, us, ksq, occ, 0):
                return False
            rights = s[S_CASTLE] >> (2 * us)
            b56 = 56 * us
            side = 1 if plane == 14 else 2
            empty = (0x60 if plane == 14 else 0x0E) << b56
            if (rights & side) == 0 or (occ & empty) != 0:
                return False
            return safe_after(s, us, frm + (1 if plane == 14 else -1), occ, 0) and safe_after(s, us, to, occ, 0)
        ksq = to
    else:
        if plane >= 56:
            return False
        diagonal = DIR_FILE[plane % 8] != 0 and DIR_RANK[plane % 8] != 0
        if (t == BISHOP and not diagonal) or (t == ROOK and diagonal) or (BETWEEN[frm, to] & occ) != 0:
            return False
    return safe_after(s, us, ksq, new_occ, removed)


@kernel(IS_LEGAL)
def is_legal(params: Params, s: I64Array, a: int) -> bool:  # pragma: no cover - compiled
    if a < 0 or a >= NUM_ACTIONS or not move_ok(s, a):
        return False
    return not drawn_with_moves(params, s)


@kernel(STATUS)
def status(params: Params, s: I64Array) -> int:  # pragma: no cover - compiled
    if params[0] == ARISE and (insufficient(s) or s[S_REP] >= 3):
        return DRAW
    scratch = np.empty(MAX_MOVES, np.int64)
    if generate(s, scratch, GEN_ANY) == 0:
        if in_check(s):
            return P1_WINS if s[S_STM] == 0 else P0_WINS
        return DRAW
    return DRAW if drawn_with_moves(params, s) else ONGOING


@kernel(LEGAL)
def legal(params: Params, s: I64Array, out: I64Array) -> int:  # pragma: no cover - compiled
    if params[0] == ARISE and (insufficient(s) or s[S_REP] >= 3):
        return 0
    n = generate(s, out, GEN_ALL)
    if n == 0 or drawn_with_moves(params, s):
        return 0
    return n


@kernel(PLAYER)
def player(params: Params, s: I64Array) -> int:  # pragma: no cover - compiled
    return s[S_STM]


@kernel(KEY)
def key(params: Params, s: I64Array) -> int:  # pragma: no cover - compiled
    return s[S_KEY]


@helper
def frame_info(s: I64Array) -> int:  # pragma: no cover - compiled
    return (s[S_EP] + 1) | ((1 if s[S_REP] >= 2 else 0) << 8)


@kernel(_MAKE)
def record(s: I64Array, unused: int, child: I64Array) -> None:  # pragma: no cover - compiled
    """Fill the history slots of ``child`` (whose position slots are set) from its parent ``s``:
    the key, the repetition count, the ring, the observation frames."""
    for i in range(HISTORY - 1, 0, -1):
        for j in range(FRAME):
            child[S_HIST + i * FRAME + j] = s[S_HIST + (i - 1) * FRAME + j]
    shown = s[S_FRAMES] > 0
    for j in range(8):
        child[S_HIST + j] = s[j] if shown else 0
    child[S_HIST + 8] = frame_info(s) if shown else 0
    child[S_FRAMES] = min(s[S_FRAMES] + 1, HISTORY + 1)
    k = zobrist(child)
    child[S_KEY] = k
    h = child[S_HALF]
    if h == 0:
        for j in range(RING):
            child[S_RING + j] = 0
        child[S_RING] = k
        child[S_REP] = 1
        child[S_DUPS] = 0
        return
    for j in range(RING):
        child[S_RING + j] = s[S_RING + j]
    idx = min(h, RING - 1)
    child[S_RING + idx] = k
    rep = 0
    j = idx
    for _ in range(RING):
        if j < 0:
            break
        if child[S_RING + j] == k:
            rep += 1
        j -= 2
    child[S_REP] = rep
    child[S_DUPS] = s[S_DUPS] | ((1 if rep >= 2 else 0) << child[S_STM])


@kernel(APPLY)
def apply(params: Params, s: I64Array, a: int, child: I64Array) -> None:  # pragma: no cover - compiled
    make(s, a, child)
    record(s, 0, child)


@helper
def put(out: I8Array, sq: int, plane: int, player_: int, value: int) -> None:  # pragma: no cover - compiled
    """Set ``plane`` at square ``sq`` as the observation of ``player_`` draws it (row 0 the
    far rank: rank 8 for white, rank 1 for black)."""
    row = 7 - (sq >> 3) if player_ == 0 else sq >> 3
    out[(8 * row + (sq & 7)) * OBS_PLANES + plane] = value


@helper
def put_frame(out: I8Array, boards: I64Array, info: int, frame: int, player_: int) -> None:  # pragma: no cover
    """One board frame (13 planes from 7 + 13*frame): the observer's pieces by type, the
    opponent's, all ones when the position had occurred before; a pawn that has just made
    a double step drawn on its first rank (PettingZoo's LeelaChessZero-style en passant)."""
    base = 7 + 13 * frame
    ep = (info & 255) - 1
    moved = -1
    shown = -1
    if ep > 0:
        if ep < 32:
            moved, shown = ep + 8, ep & 7            # a white pawn from rank 2 to rank 4
        else:
            moved, shown = ep - 8, 56 + (ep & 7)     # a black pawn from rank 7 to rank 5
    for c in range(2):
        side = c if player_ == 0 else 1 - c          # the observer's pieces first
        for t in range(6):
            b = boards[c] & boards[2 + t]
            if t == PAWN and moved >= 0 and (shr(b, moved) & 1) != 0:
                b = (b & ~bit(moved)) | bit(shown)
            for _ in range(popcount(b)):
                put(out, lowest_bit(b), base + 6 * side + t, player_, 1)
                b &= b - 1
    if (info >> 8) & 1:
        for sq in range(64):
            put(out, sq, base + 12, player_, 1)


@kernel(OBSERVE)
def observe(params: Params, s: I64Array, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = 0
    rights = s[S_CASTLE]
    if player_ == 1:
        rights = ((rights >> 2) & 3) | ((rights & 3) << 2)
    for sq in range(64):
        for p in range(4):
            if (rights >> p) & 1:
                put(out, sq, p, player_, 1)
        put(out, sq, 4, player_, player_)
        put(out, sq, 6, player_, 1)
    clock = s[S_HALF] // 2
    if clock < 64:
        put(out, clock, 5, player_, 1)
    frames = s[S_FRAMES]
    if frames >= 1:
        put_frame(out, s[:8], frame_info(s), 0, player_)
    for i in range(1, frames):
        at = S_HIST + (i - 1) * FRAME
        put_frame(out, s[at: at + 8], s[at + 8], i, player_)
