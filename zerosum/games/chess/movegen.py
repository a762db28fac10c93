"""Chess's legal move generation and move making, on the state of :mod:`zerosum.games.chess.board`.

:func:`generate` writes the legal actions in action order (from-squares by ``file*8 + rank``
as the mover sees them, then planes), or counts them (the last ply of perft, bulk
counting), or stops at the first; it computes checkers and pinned pieces once, so every
move it gives is legal without being made. :func:`make` plays one action on the
position slots.
"""

from __future__ import annotations

from numba import types

from zerosum.games.chess.board import (
    BISHOP, GEN_ALL, GEN_ANY, GEN_CAPTURES, GEN_COUNT, KING_T, KNIGHT_T, PAWN, POSITION_SIZE, QUEEN, ROOK, S_CASTLE,
    S_EP, S_FULL, S_HALF, S_STM, attack_map, attackers, bishop_attacks, ep_capture_ok, flip_vertical, rook_attacks,
    transpose, type_at,
)
from zerosum.games.chess.tables import (
    BETWEEN, BISHOP_RAYS, CASTLE_KEEP, KING, KNIGHT, KNIGHT_MIRROR, KNIGHT_TO, LINE, MIRROR_DIR, PAWN_ATTACKS,
    PLANE_FILE, PLANE_PROMOTION, PLANE_RANK, RANK_1, RANK_8, ROOK_RAYS, STEP_TO,
)
from zerosum.games.kit import I64Array, bit, helper, kernel, lowest_bit, popcount, shr

_STATE = types.int64[::1]
_GEN = types.int64(_STATE, _STATE, types.int64)
_MAKE = types.void(_STATE, types.int64, _STATE)
_ALL = -1


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
    promo = PLANE_PROMOTION[plane]
    df = PLANE_FILE[plane]
    dr = PLANE_RANK[plane] if us == 0 else -PLANE_RANK[plane]
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
