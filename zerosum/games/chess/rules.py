"""Chess's rules as kernels: the game's end (mate, stalemate, the draw rules), legality of
one action, applying an action with its history, the observation.

The state layout is in :mod:`zerosum.games.chess.board`, move generation in
:mod:`zerosum.games.chess.movegen`.

params: ``[draws]``: 0 ``claim`` (PettingZoo's ``chess_v6``: the game ends as soon as
python-chess's ``can_claim_draw()`` holds: threefold repetition that has occurred or that
a move could make, fifty moves that have passed or that a move could complete), 1
``arise`` (OpenSpiel's ``chess``: the third occurrence of a position, the hundredth
halfmove; insufficient material and repetition are checked before mate).
"""

from __future__ import annotations

import numpy as np
from numba import types

from zerosum.games.chess.board import (
    ARISE, BISHOP, FRAME, GEN_ALL, GEN_ANY, HISTORY, KING_T, KNIGHT_T, MAX_MOVES, NUM_ACTIONS, OBS_PLANES, PAWN, RING,
    ROOK, S_CASTLE, S_DUPS, S_EP, S_FRAMES, S_HALF, S_HIST, S_KEY, S_REP, S_RING, S_STM, STATE_SIZE, bishop_attacks,
    in_check, insufficient, rook_attacks, type_at, zobrist,
)
from zerosum.games.chess.movegen import generate, make
from zerosum.games.chess.tables import (
    BETWEEN, DIR_FILE, DIR_RANK, KING, KNIGHT, PAWN_ATTACKS, PLANE_FILE, PLANE_RANK,
)
from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array,
    Params, bit, helper, kernel, lowest_bit, popcount, shr,
)

_STATE = types.int64[::1]
_MAKE = types.void(_STATE, types.int64, _STATE)
_OF_STATE = types.int64(_STATE)


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
    df = PLANE_FILE[plane]
    dr = PLANE_RANK[plane] if us == 0 else -PLANE_RANK[plane]
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
    df = PLANE_FILE[plane]
    dr = PLANE_RANK[plane]
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
    if generate(s, s, GEN_ANY) == 0:  # GEN_ANY writes nothing: the state serves as the unused buffer
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
    for cell in range(64):  # the planes that are all ones or all zeros, cell by cell (the same for every square)
        at = cell * OBS_PLANES
        for p in range(4):
            out[at + p] = (rights >> p) & 1
        out[at + 4] = player_
        out[at + 6] = 1
    clock = s[S_HALF] // 2
    if clock < 64:
        put(out, clock, 5, player_, 1)
    frames = s[S_FRAMES]
    if frames >= 1:
        put_frame(out, s[:8], frame_info(s), 0, player_)
    for i in range(1, frames):
        at = S_HIST + (i - 1) * FRAME
        put_frame(out, s[at: at + 8], s[at + 8], i, player_)
