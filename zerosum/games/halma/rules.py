"""Halma's rules as kernels, on the parity-class bitboards of :mod:`.tables`.

params: ``[P_Z, P_SIZE, P_MAX_TURNS]`` = the size's index in SIZES, the board's side N and
the draw cap. State: ``[x0, x1, x2, x3, o0, o1, o2, o3, turn, zobrist]`` (player p's class
k bitboard in slot ``4*p + k``). Action ``from * N*N + to``; ``PASS`` (0) when nothing
else is legal. The bit helpers here serve the heuristics too (a jump flood fill is the
same whether it generates moves or scores them).
"""

from __future__ import annotations

import numpy as np

from zerosum.games.halma.tables import (
    BOARD, CLASS_SQ, IN_TARGET, LOW, NEIGH, NOT_J0, NOT_J7, OVER, SPREAD, SQ_BIT, SQ_CLASS, TARGET, TURN_KEY,
    ZOBRIST,
)
from zerosum.games.kit import (
    APPLY, DRAW, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State,
    helper, kernel, lowest_bit,
)

P_Z, P_SIZE, P_MAX_TURNS = 0, 1, 2
STATE_SIZE = 10
"""The length of a Halma state vector."""
TURN, HASH = 8, 9
PASS = 0
"""The pass action (a player with no move passes)."""


# ---- bit helpers ----------------------------------------------------------------------------
@helper
def srl(x: int, s: int) -> int:  # pragma: no cover - compiled
    """Logical right shift of an int64."""
    return (x >> s) & LOW[s]


@helper
def shift(x: int, di: int, dj: int) -> int:  # pragma: no cover - compiled
    """Move every bit of an 8x8 class board by (di, dj); bits leaving the board vanish."""
    s = 8 * di + dj
    if s > 0:
        x = x << s
    elif s < 0:
        x = srl(x, -s)
    if dj == 1:
        x &= NOT_J0
    elif dj == -1:
        x &= NOT_J7
    return x


@helper
def pick(a: int, b: int, c: int, d: int, k: int) -> int:  # pragma: no cover - compiled
    """The k-th of four values (a class's bitboard among four)."""
    if k == 0:
        return a
    if k == 1:
        return b
    if k == 2:
        return c
    return d


@helper
def over(o0: int, o1: int, o2: int, o3: int, k: int, d: int) -> int:  # pragma: no cover - compiled
    """Bits of class k from which a jump in direction d has a piece to jump over."""
    return shift(pick(o0, o1, o2, o3, OVER[k, d, 0]), OVER[k, d, 1], OVER[k, d, 2])


@helper
def over_masks(o0: int, o1: int, o2: int, o3: int, k: int) -> tuple[int, ...]:  # pragma: no cover - compiled
    """The 8 ``over`` masks of class k, one per direction."""
    return (over(o0, o1, o2, o3, k, 0), over(o0, o1, o2, o3, k, 1), over(o0, o1, o2, o3, k, 2),
            over(o0, o1, o2, o3, k, 3), over(o0, o1, o2, o3, k, 4), over(o0, o1, o2, o3, k, 5),
            over(o0, o1, o2, o3, k, 6), over(o0, o1, o2, o3, k, 7))


@helper
def jump_step(f: int, m: tuple[int, ...]) -> int:  # pragma: no cover - compiled
    """Every square one jump away from the squares f (same class), given the over masks m."""
    return ((srl(f & m[0], 9) & NOT_J7) | srl(f & m[1], 8) | (srl(f & m[2], 7) & NOT_J0)
            | (srl(f & m[3], 1) & NOT_J7) | (((f & m[4]) << 1) & NOT_J0)
            | (((f & m[5]) << 7) & NOT_J7) | ((f & m[6]) << 8) | (((f & m[7]) << 9) & NOT_J0))


@helper
def jumps(bit: int, empty: int, m: tuple[int, ...]) -> np.int64:  # pragma: no cover - compiled
    """Destinations of every jump chain from ``bit`` (flood fill over the empty squares)."""
    frontier = np.int64(1) << bit
    seen = frontier
    reach = np.int64(0)
    while frontier != 0:
        frontier = jump_step(frontier, m) & empty & ~seen
        seen |= frontier
        reach |= frontier
    return reach


# ---- the rules kernels ----------------------------------------------------------------------
@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[TURN] & 1


@helper
def has_won(params: Params, s: State, p: int) -> bool:  # pragma: no cover - compiled
    """Every target square of p occupied, at least one by p's own pieces."""
    z = params[P_Z]
    own = np.int64(0)
    for k in range(4):
        t = TARGET[z, p, k]
        if (s[k] | s[4 + k]) & t != t:
            return False
        own |= s[4 * p + k] & t
    return own != 0


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    last = 1 - (s[TURN] & 1)  # the player who just moved is checked first
    if has_won(params, s, last):
        return P0_WINS if last == 0 else P1_WINS
    if has_won(params, s, 1 - last):
        return P0_WINS if last == 1 else P1_WINS
    if s[TURN] >= params[P_MAX_TURNS]:
        return DRAW
    return ONGOING


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if status(params, s) != ONGOING:
        return 0
    z, size = params[P_Z], params[P_SIZE]
    nn = size * size
    p = s[TURN] & 1
    base = 4 * p
    o0, o1, o2, o3 = s[0] | s[4], s[1] | s[5], s[2] | s[6], s[3] | s[7]
    m0, m1 = over_masks(o0, o1, o2, o3, 0), over_masks(o0, o1, o2, o3, 1)
    m2, m3 = over_masks(o0, o1, o2, o3, 2), over_masks(o0, o1, o2, o3, 3)
    n = 0
    for r in range(size):  # own pieces in ascending square order, row by row
        pr = r & 1
        sh = 8 * (r >> 1)
        row = SPREAD[srl(s[base + 2 * pr], sh) & 0xFF] | (SPREAD[srl(s[base + 2 * pr + 1], sh) & 0xFF] << 1)
        while row != 0:
            c = lowest_bit(row)
            row &= row - 1
            sq = r * size + c
            k = 2 * pr + (c & 1)
            stay = IN_TARGET[z, p, sq] == 1  # a piece in its target camp never leaves it
            empty = BOARD[z, k] & ~pick(o0, o1, o2, o3, k)
            if stay:
                empty &= TARGET[z, p, k]
            if k == 0:
                reach = jumps(SQ_BIT[z, sq], empty, m0)
            elif k == 1:
                reach = jumps(SQ_BIT[z, sq], empty, m1)
            elif k == 2:
                reach = jumps(SQ_BIT[z, sq], empty, m2)
            else:
                reach = jumps(SQ_BIT[z, sq], empty, m3)
            # merge the steps (other classes, ascending by table order) with the jumps
            first = sq * nn
            d = 0
            while True:
                step = nn
                while d < 8:
                    t = NEIGH[z, sq, d]
                    if t >= 0 and (not stay or IN_TARGET[z, p, t] == 1):
                        kt = SQ_CLASS[z, t]
                        if (pick(o0, o1, o2, o3, kt) >> SQ_BIT[z, t]) & 1 == 0:
                            step = t
                            break
                    d += 1
                jump = CLASS_SQ[z, k, lowest_bit(reach)] if reach != 0 else nn
                if step < jump:
                    out[n] = first + step
                    d += 1
                elif jump < nn:
                    out[n] = first + jump
                    reach &= reach - 1
                else:
                    break
                n += 1
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(STATE_SIZE):
        child[i] = s[i]
    child[TURN] = s[TURN] + 1
    z = params[P_Z]
    nn = params[P_SIZE] * params[P_SIZE]
    f = a // nn
    t = a - f * nn
    if f != t:
        p = s[TURN] & 1
        child[4 * p + SQ_CLASS[z, f]] &= ~(np.int64(1) << SQ_BIT[z, f])
        child[4 * p + SQ_CLASS[z, t]] |= np.int64(1) << SQ_BIT[z, t]
        child[HASH] = s[HASH] ^ ZOBRIST[p, f] ^ ZOBRIST[p, t]


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[HASH] ^ (s[TURN] * TURN_KEY)


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    z, size = params[P_Z], params[P_SIZE]
    nn = size * size
    mover = 1 if (s[TURN] & 1) == player_ else 0
    turn = s[TURN]
    for sq in range(nn):
        i = sq if player_ == 0 else nn - 1 - sq  # the observer's view: player 1 sees it turned
        o = 6 * i
        k, b = SQ_CLASS[z, sq], SQ_BIT[z, sq]
        out[o] = (s[4 * player_ + k] >> b) & 1
        out[o + 1] = (s[4 * (1 - player_) + k] >> b) & 1
        out[o + 2] = IN_TARGET[z, player_, sq]
        out[o + 3] = IN_TARGET[z, 1 - player_, sq]
        out[o + 4] = mover
        if i < 63:
            out[o + 5] = (turn >> i) & 1
