"""Halma for two players on 16x16 (default), 10x10 or 8x8.

Rules. Each player starts with its pieces filling its home camp in one corner; player 0
(X) starts top-left and moves first, player 1 (O) starts bottom-right. A move is either
a step to one of the 8 neighbouring empty squares, or a chain of one or more jumps, each
over an adjacent piece of either colour onto the empty square straight beyond it (8
directions); the chain may stop at any point, jumped pieces stay, a step and a jump never
mix, and no square is visited twice in one chain. A piece that starts its move in its
target camp (the opponent's home) never leaves it: every square of its chain, and its
destination, lie in the camp. A player wins when every square of its target camp is
occupied and at least one of them by its own pieces (this defeats "spoiling": parking
pieces at home to block). The game is a draw after ``max_turns`` moves of either player.
A player with no legal move at all (possible only in contrived positions) passes.

Camps (rows counted from the corner)::

    size 16: 19 pieces, rows 5 5 4 3 2      size 10: 15 pieces, rows 5 4 3 2 1
    size  8: 10 pieces, rows 4 3 2 1

    a b c d e f ...                          (size 16, player 0's home camp)
  1 X X X X X . .
  2 X X X X X . .
  3 X X X X . . .
  4 X X X . . . .
  5 X X . . . . .

Squares and actions. ``square = N*row + col`` (row 0 at the top, named 1; columns a, b,
c, ...). A move is one piece from its square to its destination, whatever the chain that
took it there (two chains reaching the same square are the same move)::

    action = from_square * N*N + to_square          num_actions = (N*N)**2

              to:   a1    b1   ...  p16
    from  a1  :      0     1   ...   255            (size 16: N*N = 256)
          b1  :    256   257   ...   511
          ...
          p16 : 65280 65281  ...  65535

Readable names are ``from-to``: ``c3-e5``. The pass (only legal when nothing else is)
is action 0 (``a1-a1``, which no real move can be), named ``pass``.

State vector (int64, 10 slots)::

    [x0, x1, x2, x3, o0, o1, o2, o3, turn, zobrist]

Pieces are stored by parity class: class ``k = 2*(row % 2) + (col % 2)`` holds the
squares whose coordinates have that parity, as an 8x8 bitboard over ``(row // 2, col //
2)`` (bit ``8*(row//2) + col//2``). A jump moves a piece by two squares, so it never
leaves its class: the squares reachable by jump chains are a flood fill in one 64-bit
word, with the "a piece to jump over" masks shifted in from the neighbouring classes.
``turn`` counts the moves played (player ``turn % 2`` is to move); ``zobrist`` is the XOR
of the pieces' Zobrist keys, kept up to date by ``apply``.

Observation (N, N, 6), from the observer's side: the board is turned 180 degrees for
player 1, so every observer starts top-left and moves towards the bottom-right corner.
Planes: 0 the observer's pieces, 1 the opponent's, 2 the observer's target camp, 3 the
observer's home camp, 4 all ones when the observer is to move, 5 the move counter in
binary (cell ``i`` in row-major order holds bit ``i`` of ``turn``).

Default ``max_turns`` (moves of either player): 600 on 16x16, 300 on 10x10, 200 on 8x8.
Finished games need far fewer: depth-2 alpha-beta self-play with the ``distance``
heuristic takes 196 moves on average on 16x16 (at most 235 in 100 seeded games; depth 3
about 175), 95 on 10x10 and 60 on 8x8 (bench/halma.py). The cap is about three times that, so that it ends only
games that have stopped making progress (random play, or engines that shuffle, like
the study's), and keeps the length of a random playout bounded.

Heuristics and strategies (the Halma study's, by name; every value is own minus
opponent's, so each one is antisymmetric; ``distance`` is the default):

==================  ===================================================================
``distance``        distances to the target camp's far corner, plus camp-entry distances
                    and the mover's best next move (see its docstring: both additions
                    are what makes depth-2 self-play finish its games)
``corner``          the study's plain sum of distances to the target camp's far corner
``distance_free``   king-move distances to the nearest free target square
``centre``          opening: rush the centre (distance to a gravity point)
``diagonal``        middle game: march along the main diagonal, penalty growing with the
                    distance from it, no gain for entering the target camp early
``careful``         far-corner distance, plus own forward jump chances, minus the opponent's
``fill``            endgame: fill the target camp from the far corner outwards
``fill_alternate``  endgame: fill every second row of the camp first
``phased``          the study's three-phase strategy: centre, then diagonal, then fill
==================  ===================================================================

Distances to the far corner are ``u + v``, the rows plus the columns still to go (a
diagonal step counts 2); on 8x8 and 10x10 the camps are exactly the squares with the
smallest ``u + v``. The move-ordering hint (``forward_first``) puts the moves that bring a
piece nearest the far corner first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros

from zerosum.games.base import (
    APPLY, DRAW, HEURISTIC, KEY, LEGAL, OBSERVE, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER,
    STATUS, Game, Heuristic, IllegalActionError, Kernels, State, VariantError, kernel,
)

Square = int
SWITCH = types.int64(types.int64[::1], types.int64[::1], types.int64)
"""Signature of a strategy's switch check: (params, state, player) -> 1 to switch, else 0."""

SIZES = (8, 10, 16)
CAMP_ROWS = {16: (5, 5, 4, 3, 2), 10: (5, 4, 3, 2, 1), 8: (4, 3, 2, 1)}
DEFAULT_MAX_TURNS = {16: 600, 10: 300, 8: 200}
STATE_SIZE = 10
TURN, HASH = 8, 9
PASS = 0
# The 8 directions, in ascending order of the square they lead to.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_MAX_SQ = 256


def _i64(x: int) -> np.int64:
    """A 64-bit pattern as a signed int64 (numba would type a large Python int as uint64)."""
    x &= (1 << 64) - 1
    return np.int64(x - (1 << 64) if x >= 1 << 63 else x)


NOT_J0 = _i64(~0x0101010101010101)  # every sublattice column but the first
NOT_J7 = _i64(~0x8080808080808080)  # every sublattice column but the last
_LOW = np.array([_i64((1 << (64 - s)) - 1) if s else _i64(-1) for s in range(64)], dtype=np.int64)


# ---- tables, built once at import ---------------------------------------------------------
def _camp(n: int) -> list[tuple[int, int]]:
    """Player 0's home camp (top-left corner) as (row, col) pairs."""
    return [(r, c) for r, width in enumerate(CAMP_ROWS[n]) for c in range(width)]


def _build() -> dict[str, np.ndarray]:
    nz = len(SIZES)
    t = {
        "sq_class": np.zeros((nz, _MAX_SQ), np.int64), "sq_bit": np.zeros((nz, _MAX_SQ), np.int64),
        "class_sq": np.full((nz, 4, 64), -1, np.int64), "board": np.zeros((nz, 4), np.int64),
        "home": np.zeros((nz, 2, 4), np.int64), "in_target": np.zeros((nz, 2, _MAX_SQ), np.int64),
        "neigh": np.full((nz, _MAX_SQ, 8), -1, np.int64), "spread": np.zeros(256, np.int64),
        "dist": np.zeros((nz, 2, _MAX_SQ), np.float64), "cheb_to_camp": np.zeros((nz, 2, _MAX_SQ), np.float64),
        "centre": np.zeros((nz, _MAX_SQ), np.float64), "diag": np.zeros((nz, 2, _MAX_SQ), np.float64),
        "fill": np.zeros((nz, 2, _MAX_SQ), np.float64), "fill_alt": np.zeros((nz, 2, _MAX_SQ), np.float64),
        "row": np.zeros((nz, _MAX_SQ), np.int64), "col": np.zeros((nz, _MAX_SQ), np.int64),
        "over": np.zeros((4, 8, 3), np.int64), "camp_size": np.zeros(nz, np.int64),
        "half": np.zeros((nz, 2, 4), np.int64),
        "nearest": np.zeros((nz, 2, _MAX_SQ, 19), np.int64), "nearest_d": np.zeros((nz, 2, _MAX_SQ, 19), np.int64),
    }
    for v in range(256):
        t["spread"][v] = sum(1 << (2 * j) for j in range(8) if v >> j & 1)
    # Jump over-square masks: for class k and direction d, the class k2 of the square jumped
    # over and the shift (di, dj) that brings its bit onto the jumping piece's bit.
    for k in range(4):
        pr, pc = k >> 1, k & 1
        for d, (dr, dc) in enumerate(DIRECTIONS):
            qr, qc = (pr + dr) & 1, (pc + dc) & 1
            t["over"][k, d] = (2 * qr + qc, -((pr + dr - qr) // 2), -((pc + dc - qc) // 2))
    for z, n in enumerate(SIZES):
        camp = _camp(n)
        t["camp_size"][z] = len(camp)
        homes = [set(camp), {(n - 1 - r, n - 1 - c) for r, c in camp}]
        for r in range(n):
            for c in range(n):
                sq, k, b = r * n + c, 2 * (r & 1) + (c & 1), 8 * (r >> 1) + (c >> 1)
                t["sq_class"][z, sq], t["sq_bit"][z, sq] = k, b
                t["class_sq"][z, k, b] = sq
                t["row"][z, sq], t["col"][z, sq] = r, c
                t["board"][z, k] |= _i64(1 << b)
                for p in range(2):
                    if (r, c) in homes[p]:
                        t["home"][z, p, k] |= _i64(1 << b)
                    if (r, c) in homes[1 - p]:
                        t["in_target"][z, p, sq] = 1
                    # "past the midline": in the half of the board nearer the target
                    if (r + c > n - 1) if p == 0 else (r + c < n - 1):
                        t["half"][z, p, k] |= _i64(1 << b)
                for d, (dr, dc) in enumerate(DIRECTIONS):
                    if 0 <= r + dr < n and 0 <= c + dc < n:
                        t["neigh"][z, sq, d] = (r + dr) * n + c + dc
                # Heuristic tables, for player 0 (target: bottom-right corner) in the
                # corner's own coordinates (u, v) = distance in rows and columns.
                for p in range(2):
                    u, v = (n - 1 - r, n - 1 - c) if p == 0 else (r, c)
                    t["dist"][z, p, sq] = u + v  # rows plus columns still to go
                    t["cheb_to_camp"][z, p, sq] = min(max(abs(u - a), abs(v - b2)) for a, b2 in camp)
                    fr, fc = (r, c) if p == 0 else (n - 1 - r, n - 1 - c)  # from the home corner
                    cap = 2 * (n - 1) - max(a + b2 for a, b2 in camp)  # where the target camp starts
                    t["diag"][z, p, sq] = min(fr + fc, cap) - DIAGONAL_PENALTY * (fr - fc) ** 2
                    in_camp = (u, v) in set(camp)
                    t["fill"][z, p, sq] = t["dist"][z, p, sq] if in_camp else (
                        FILL_OUTSIDE + t["cheb_to_camp"][z, p, sq] + 0.1 * t["dist"][z, p, sq])
                    alt = (u // 2) + 3 * (u & 1) + 0.1 * v  # rows 0, 2, 4 first, then 1, 3
                    t["fill_alt"][z, p, sq] = alt if in_camp else (
                        FILL_OUTSIDE + t["cheb_to_camp"][z, p, sq] + 0.1 * t["dist"][z, p, sq])
                t["centre"][z, sq] = float(np.hypot(r - (n - 1) / 2, c - (n - 1) / 2))
                for p in range(2):  # the target squares, nearest (in king moves) first
                    near = sorted((max(abs(r - a), abs(c - b2)), a * n + b2) for a, b2 in homes[1 - p])
                    t["nearest"][z, p, sq, : len(near)] = [q for _, q in near]
                    t["nearest_d"][z, p, sq, : len(near)] = [d for d, _ in near]
    return t


DIAGONAL_PENALTY = 0.1
FILL_OUTSIDE = 8.0


_T = _build()
SQ_CLASS, SQ_BIT, CLASS_SQ, BOARD = _T["sq_class"], _T["sq_bit"], _T["class_sq"], _T["board"]
HOME, IN_TARGET, NEIGH, SPREAD, OVER = _T["home"], _T["in_target"], _T["neigh"], _T["spread"], _T["over"]
ROW, COL, HALF = _T["row"], _T["col"], _T["half"]
NEAREST, NEAREST_D, CAMP_SIZE = _T["nearest"], _T["nearest_d"], _T["camp_size"]
DIST, CHEB_TO_CAMP, CENTRE, DIAG, FILL, FILL_ALT = (
    _T["dist"], _T["cheb_to_camp"], _T["centre"], _T["diag"], _T["fill"], _T["fill_alt"])
# Tables by (size, player, class, bit), so heuristics iterate bitboards without a lookup.
TARGET = HOME[:, ::-1, :].copy()


def _by_class(tab: np.ndarray) -> np.ndarray:
    out = np.zeros((len(SIZES), 2, 4, 64), np.float64)
    for z in range(len(SIZES)):
        for k in range(4):
            for b in range(64):
                sq = CLASS_SQ[z, k, b]
                if sq >= 0:
                    out[z, :, k, b] = tab[z, :, sq] if tab.ndim == 3 else tab[z, sq]
    return out


DIST_C, DIAG_C, FILL_C, FILL_ALT_C = _by_class(DIST), _by_class(DIAG), _by_class(FILL), _by_class(FILL_ALT)
CENTRE_C = _by_class(CENTRE)
_rng = np.random.default_rng(0x4A1A)
ZOBRIST = _rng.integers(-(1 << 63), (1 << 63) - 1, size=(2, _MAX_SQ), dtype=np.int64)
TURN_KEY = _i64(0x9E3779B97F4A7C15)
del _T, _rng


# ---- bit helpers --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _srl(x, s):
    """Logical right shift of an int64."""
    return (x >> s) & _LOW[s]


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 >> 56) & 0xFF


@njit(cache=True, inline="always")
def _shift(x, di, dj):
    """Move every bit of an 8x8 sublattice board by (di, dj); bits leaving the board vanish."""
    s = 8 * di + dj
    if s > 0:
        x = x << s
    elif s < 0:
        x = _srl(x, -s)
    if dj == 1:
        x &= NOT_J0
    elif dj == -1:
        x &= NOT_J7
    return x


@njit(cache=True, inline="always")
def _pick(a, b, c, d, k):
    if k == 0:
        return a
    if k == 1:
        return b
    if k == 2:
        return c
    return d


@njit(cache=True, inline="always")
def _over(o0, o1, o2, o3, k, d):
    """Bits of class k from which a jump in direction d has a piece to jump over."""
    return _shift(_pick(o0, o1, o2, o3, OVER[k, d, 0]), OVER[k, d, 1], OVER[k, d, 2])


@njit(cache=True, inline="always")
def _over_masks(o0, o1, o2, o3, k):
    return (_over(o0, o1, o2, o3, k, 0), _over(o0, o1, o2, o3, k, 1), _over(o0, o1, o2, o3, k, 2),
            _over(o0, o1, o2, o3, k, 3), _over(o0, o1, o2, o3, k, 4), _over(o0, o1, o2, o3, k, 5),
            _over(o0, o1, o2, o3, k, 6), _over(o0, o1, o2, o3, k, 7))


@njit(cache=True, inline="always")
def _jump_step(f, m):
    """Every square one jump away from the squares f (same class), given the over masks m."""
    return ((_srl(f & m[0], 9) & NOT_J7) | _srl(f & m[1], 8) | (_srl(f & m[2], 7) & NOT_J0)
            | (_srl(f & m[3], 1) & NOT_J7) | (((f & m[4]) << 1) & NOT_J0)
            | (((f & m[5]) << 7) & NOT_J7) | ((f & m[6]) << 8) | (((f & m[7]) << 9) & NOT_J0))


@njit(cache=True, inline="always")
def _jumps(bit, empty, m):
    """Destinations of every jump chain from ``bit`` (flood fill over the empty squares)."""
    frontier = np.int64(1) << bit
    seen = frontier
    reach = np.int64(0)
    while frontier != 0:
        frontier = _jump_step(frontier, m) & empty & ~seen
        seen |= frontier
        reach |= frontier
    return reach


# ---- the rules kernels ----------------------------------------------------------------------
@kernel(PLAYER)
def _player(params, s):
    return s[TURN] & 1


@njit(cache=True, inline="always")
def _has_won(params, s, p):
    z = params[0]
    own = np.int64(0)
    for k in range(4):
        t = TARGET[z, p, k]
        if (s[k] | s[4 + k]) & t != t:
            return False
        own |= s[4 * p + k] & t
    return own != 0


@kernel(STATUS)
def _status(params, s):
    last = 1 - (s[TURN] & 1)  # the player who just moved is checked first
    if _has_won(params, s, last):
        return P0_WINS if last == 0 else P1_WINS
    if _has_won(params, s, 1 - last):
        return P0_WINS if last == 1 else P1_WINS
    if s[TURN] >= params[2]:
        return DRAW
    return ONGOING


@kernel(LEGAL)
def _legal(params, s, out):
    if _status(params, s) != ONGOING:
        return 0
    z, size = params[0], params[1]
    nn = size * size
    p = s[TURN] & 1
    base = 4 * p
    o0, o1, o2, o3 = s[0] | s[4], s[1] | s[5], s[2] | s[6], s[3] | s[7]
    m0, m1 = _over_masks(o0, o1, o2, o3, 0), _over_masks(o0, o1, o2, o3, 1)
    m2, m3 = _over_masks(o0, o1, o2, o3, 2), _over_masks(o0, o1, o2, o3, 3)
    n = 0
    for r in range(size):  # own pieces in ascending square order, row by row
        pr = r & 1
        sh = 8 * (r >> 1)
        row = SPREAD[_srl(s[base + 2 * pr], sh) & 0xFF] | (SPREAD[_srl(s[base + 2 * pr + 1], sh) & 0xFF] << 1)
        while row != 0:
            c = trailing_zeros(row)
            row &= row - 1
            sq = r * size + c
            k = 2 * pr + (c & 1)
            stay = IN_TARGET[z, p, sq] == 1  # a piece in its target camp never leaves it
            empty = BOARD[z, k] & ~_pick(o0, o1, o2, o3, k)
            if stay:
                empty &= TARGET[z, p, k]
            if k == 0:
                reach = _jumps(SQ_BIT[z, sq], empty, m0)
            elif k == 1:
                reach = _jumps(SQ_BIT[z, sq], empty, m1)
            elif k == 2:
                reach = _jumps(SQ_BIT[z, sq], empty, m2)
            else:
                reach = _jumps(SQ_BIT[z, sq], empty, m3)
            # merge the steps (other classes, ascending by table order) with the jumps
            first = sq * nn
            d = 0
            while True:
                step = nn
                while d < 8:
                    t = NEIGH[z, sq, d]
                    if t >= 0 and (not stay or IN_TARGET[z, p, t] == 1):
                        kt = SQ_CLASS[z, t]
                        if (_pick(o0, o1, o2, o3, kt) >> SQ_BIT[z, t]) & 1 == 0:
                            step = t
                            break
                    d += 1
                jump = CLASS_SQ[z, k, trailing_zeros(reach)] if reach != 0 else nn
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
def _apply(params, s, a, child):
    for i in range(STATE_SIZE):
        child[i] = s[i]
    child[TURN] = s[TURN] + 1
    z = params[0]
    nn = params[1] * params[1]
    f = a // nn
    t = a - f * nn
    if f != t:
        p = s[TURN] & 1
        child[4 * p + SQ_CLASS[z, f]] &= ~(np.int64(1) << SQ_BIT[z, f])
        child[4 * p + SQ_CLASS[z, t]] |= np.int64(1) << SQ_BIT[z, t]
        child[HASH] = s[HASH] ^ ZOBRIST[p, f] ^ ZOBRIST[p, t]


@kernel(KEY)
def _key(params, s):
    return s[HASH] ^ (s[TURN] * TURN_KEY)


@kernel(OBSERVE)
def _observe(params, s, player, out):
    z, size = params[0], params[1]
    nn = size * size
    mover = 1 if (s[TURN] & 1) == player else 0
    turn = s[TURN]
    for sq in range(nn):
        i = sq if player == 0 else nn - 1 - sq  # the observer's view: player 1 sees it turned
        o = 6 * i
        k, b = SQ_CLASS[z, sq], SQ_BIT[z, sq]
        out[o] = (s[4 * player + k] >> b) & 1
        out[o + 1] = (s[4 * (1 - player) + k] >> b) & 1
        out[o + 2] = IN_TARGET[z, player, sq]
        out[o + 3] = IN_TARGET[z, 1 - player, sq]
        out[o + 4] = mover
        if i < 63:
            out[o + 5] = (turn >> i) & 1


# ---- heuristics -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _table_sum(tab, z, s, p):
    """Sum of tab[z, p, class, bit] over the pieces of player p."""
    total = 0.0
    for k in range(4):
        w = s[4 * p + k]
        while w != 0:
            total += tab[z, p, k, trailing_zeros(w)]
            w &= w - 1
    return total


@njit(cache=True, inline="always")
def _entry(z, s, p, sq):
    """King moves from sq to the nearest target square that p does not hold yet (free, or
    held by the opponent, who has to leave it to win: counting it keeps the opponent's
    moves out of p's score, so nobody gains by staying at home)."""
    for i in range(CAMP_SIZE[z]):
        t = NEAREST[z, p, sq, i]
        if (s[4 * p + SQ_CLASS[z, t]] >> SQ_BIT[z, t]) & 1 == 0:
            return NEAREST_D[z, p, sq, i]
    return 0


@njit(cache=True, inline="always")
def _distance(z, s, p, corner, entry):
    """Sum over p's pieces of corner * (distance to the far corner) + entry * (king moves
    to the nearest target square p does not hold yet, for pieces outside the camp)."""
    total = 0.0
    for k in range(4):
        w = s[4 * p + k]
        while w != 0:
            b = trailing_zeros(w)
            w &= w - 1
            total += corner * DIST_C[z, p, k, b]
            sq = CLASS_SQ[z, k, b]
            if IN_TARGET[z, p, sq] == 0:
                total += entry * _entry(z, s, p, sq)
    return total


ENTRY_WEIGHT = 2.0
TEMPO_WEIGHT = 0.75


@njit(cache=True, inline="always")
def _cost(z, s, p, sq):
    """One piece's share of ``distance``."""
    c = DIST[z, p, sq]
    if IN_TARGET[z, p, sq] == 0:
        c += ENTRY_WEIGHT * _entry(z, s, p, sq)
    return c


@njit(cache=True)
def _best_gain(z, size, s, p):
    """What p's best next move gains in ``distance``: for each piece, its destination
    nearest the far corner, scored with the full cost (0 when nothing gains)."""
    o0, o1, o2, o3 = s[0] | s[4], s[1] | s[5], s[2] | s[6], s[3] | s[7]
    m0, m1 = _over_masks(o0, o1, o2, o3, 0), _over_masks(o0, o1, o2, o3, 1)
    m2, m3 = _over_masks(o0, o1, o2, o3, 2), _over_masks(o0, o1, o2, o3, 3)
    best = 0.0
    for k in range(4):
        w = s[4 * p + k]
        while w != 0:
            b = trailing_zeros(w)
            w &= w - 1
            sq = CLASS_SQ[z, k, b]
            stay = IN_TARGET[z, p, sq] == 1
            empty = BOARD[z, k] & ~_pick(o0, o1, o2, o3, k)
            if stay:
                empty &= TARGET[z, p, k]
            if k == 0:
                reach = _jumps(b, empty, m0)
            elif k == 1:
                reach = _jumps(b, empty, m1)
            elif k == 2:
                reach = _jumps(b, empty, m2)
            else:
                reach = _jumps(b, empty, m3)
            # the destination nearest the far corner, then its full cost
            to = -1
            near = DIST[z, p, sq]
            while reach != 0:
                t = CLASS_SQ[z, k, trailing_zeros(reach)]
                reach &= reach - 1
                if DIST[z, p, t] < near:
                    near = DIST[z, p, t]
                    to = t
            for d in range(8):
                t = NEIGH[z, sq, d]
                if t >= 0 and DIST[z, p, t] < near and (not stay or IN_TARGET[z, p, t] == 1):
                    if (_pick(o0, o1, o2, o3, SQ_CLASS[z, t]) >> SQ_BIT[z, t]) & 1 == 0:
                        near = DIST[z, p, t]
                        to = t
            if to >= 0:
                g = _cost(z, s, p, sq) - _cost(z, s, p, to)
                if g > best:
                    best = g
    return best


@kernel(HEURISTIC)
def corner(params, s, player):
    """The study's plain distance: sum of distances to the target camp's far corner,
    opponent's minus own. Alpha-beta at depth 2 with it stalls near the camp (see distance)."""
    z = params[0]
    return _table_sum(DIST_C, z, s, 1 - player) - _table_sum(DIST_C, z, s, player)


@kernel(HEURISTIC)
def distance(params, s, player):
    """Sum of distances to the target camp's far corner, opponent's minus own, made to
    finish games at depth 2 by two terms (each fixes a way the plain sum stalls):

    - entry: each piece still outside the camp also counts ENTRY_WEIGHT (2) times its king
      moves to the nearest target square it does not hold yet. The far-corner distance
      alone has local minima next to the camp: a piece beside the last hole that must
      step sideways (no nearer the corner) to reach it never does.
    - tempo: the side to move is credited with TEMPO_WEIGHT (3/4) of the gain of its best
      next move. At an even depth the leaves' mover never gets to move inside the search,
      so each side saw only the jumps its advance would give the opponent, and both
      shuffled pieces in their camps for ever (mutual blocking; depth-3 search does not
      stall). With full credit a side instead jumps out and back to keep a big jump
      "in hand"; 3/4 left the fewest stalled games (2% of 300 seeded games, against 3%
      for 1/2 and for full credit, and about a third without the term).
    """
    z = params[0]
    v = _distance(z, s, 1 - player, 1.0, ENTRY_WEIGHT) - _distance(z, s, player, 1.0, ENTRY_WEIGHT)
    mover = s[TURN] & 1
    g = _best_gain(z, params[1], s, mover)
    return v + TEMPO_WEIGHT * g if mover == player else v - TEMPO_WEIGHT * g


@kernel(HEURISTIC)
def distance_free(params, s, player):
    """King moves of each piece outside the camp to the nearest free target square (free
    for the player: empty or still held by the opponent), plus a tenth of the far-corner
    distance so that pieces in the camp move deeper; opponent's minus own."""
    z = params[0]
    return _distance(z, s, 1 - player, 0.1, 1.0) - _distance(z, s, player, 0.1, 1.0)


@kernel(HEURISTIC)
def centre(params, s, player):
    """Opening: rush the centre; the pieces' distance to the board's centre, opponent's minus own."""
    z = params[0]
    return _table_sum(CENTRE_C, z, s, 1 - player) - _table_sum(CENTRE_C, z, s, player)


@kernel(HEURISTIC)
def diagonal(params, s, player):
    """Middle game: progress along the main diagonal, capped where the target camp starts,
    minus a penalty of 0.1 * (row - col)**2 for straying from the diagonal; own minus opponent's."""
    z = params[0]
    return _table_sum(DIAG_C, z, s, player) - _table_sum(DIAG_C, z, s, 1 - player)


@njit(cache=True, inline="always")
def _forward_jumps(z, s, p):
    """Single jumps of p's pieces that move them towards the target."""
    o0, o1, o2, o3 = s[0] | s[4], s[1] | s[5], s[2] | s[6], s[3] | s[7]
    sign = 1 if p == 0 else -1  # forward: right, down, down-right for player 0
    count = 0
    for k in range(4):
        own = s[4 * p + k]
        if own == 0:
            continue
        empty = BOARD[z, k] & ~_pick(o0, o1, o2, o3, k)
        for d in range(8):
            if FORWARD[d, 0] + FORWARD[d, 1] <= 0:
                continue
            dr, dc = FORWARD[d, 0] * sign, FORWARD[d, 1] * sign
            land = _shift(empty, -dr, -dc)  # origins whose landing square is empty
            count += _popcount(own & _over(o0, o1, o2, o3, k, d if p == 0 else 7 - d) & land)
    return count


JUMP_WEIGHT = 1.0
FORWARD = np.array(DIRECTIONS, dtype=np.int64)


@kernel(HEURISTIC)
def careful(params, s, player):
    """Careful placement: distance, plus own forward jump chances, minus the opponent's."""
    z = params[0]
    dist = _table_sum(DIST_C, z, s, 1 - player) - _table_sum(DIST_C, z, s, player)
    return dist + JUMP_WEIGHT * (_forward_jumps(z, s, player) - _forward_jumps(z, s, 1 - player))


@kernel(HEURISTIC)
def fill(params, s, player):
    """Endgame: fill the target camp from its far corner outwards (weight 0 at the corner,
    growing outwards; squares outside the camp weigh more than any inside); opponent's minus own."""
    z = params[0]
    return _table_sum(FILL_C, z, s, 1 - player) - _table_sum(FILL_C, z, s, player)


@kernel(HEURISTIC)
def fill_alternate(params, s, player):
    """Endgame: fill every second row of the camp first (rows 0, 2, 4 from the far edge,
    then 1, 3) so that late pieces can jump into the gaps; opponent's minus own."""
    z = params[0]
    return _table_sum(FILL_ALT_C, z, s, 1 - player) - _table_sum(FILL_ALT_C, z, s, player)


# ---- the phase-switching strategy -----------------------------------------------------------
@kernel(SWITCH)
def left_home(params, s, player):
    """Switch check of the opening: no own piece is left in the home camp."""
    z = params[0]
    for k in range(4):
        if s[4 * player + k] & HOME[z, player, k] != 0:
            return 0
    return 1


@kernel(SWITCH)
def past_midline(params, s, player):
    """Switch check of the middle game: every own piece is past the board's midline."""
    z = params[0]
    for k in range(4):
        if s[4 * player + k] & ~HALF[z, player, k] != 0:
            return 0
    return 1


@kernel(SWITCH)
def never(params, s, player):
    """Switch check of the last phase: it never ends."""
    return 0


PHASE_BONUS = 1000.0


@njit(cache=True, inline="always")
def _phase(params, s, player):
    if past_midline(params, s, player):
        return 2
    if left_home(params, s, player):
        return 1
    return 0


@njit(cache=True, inline="always")
def _phase_score(z, s, p, phase):
    """p's own score under its phase's strategy (higher is better), plus the phase bonus."""
    if phase == 0:
        own = -_table_sum(CENTRE_C, z, s, p)
    elif phase == 1:
        own = _table_sum(DIAG_C, z, s, p)
    else:
        own = -_table_sum(FILL_C, z, s, p)
    return PHASE_BONUS * phase + own


@kernel(HEURISTIC)
def phased(params, s, player):
    """The study's three phases: ``centre`` until no own piece is left at home, then
    ``diagonal`` until every own piece is past the midline, then ``fill``.

    Each side is scored by the strategy of its own phase, which is a function of the
    position (no memory), so this is an ordinary heuristic: own score minus the
    opponent's. Each phase reached is worth PHASE_BONUS, so that leaves in different
    phases compare fairly (a later phase is always better)."""
    z = params[0]
    return (_phase_score(z, s, player, _phase(params, s, player))
            - _phase_score(z, s, 1 - player, _phase(params, s, 1 - player)))


# ---- move ordering --------------------------------------------------------------------------
@kernel(ORDER)
def forward_first(params, s, moves, n, scores):
    """Forward progress first: how much nearer the far corner of its target the piece ends."""
    z = params[0]
    nn = params[1] * params[1]
    p = s[TURN] & 1
    for i in range(n):
        f = moves[i] // nn
        t = moves[i] - f * nn
        scores[i] = DIST[z, p, f] - DIST[z, p, t]


KERNELS = Kernels(legal=_legal, apply=_apply, status=_status, player=_player, key=_key,
                  observe=_observe, order=forward_first)


@dataclass(frozen=True)
class Strategy:
    """One of the study's strategies: evaluate a position, check whether to switch to the
    next strategy, and order the children for alpha-beta. Each part is a compiled kernel:
    ``evaluate`` has the HEURISTIC signature, ``switch(params, state, player) -> 0/1``,
    ``order`` the ORDER signature."""

    name: str
    evaluate: Any
    switch: Any
    order: Any = forward_first


STRATEGIES = {
    "centre": Strategy("centre", centre, left_home),
    "diagonal": Strategy("diagonal", diagonal, past_midline),
    "fill": Strategy("fill", fill, never),
}
PHASES = ("centre", "diagonal", "fill")

_HEURISTICS = {
    "distance": (distance, "far-corner distances + camp-entry distances + the mover's best next move"),
    "corner": (corner, "the study's plain sum of distances to the target camp's far corner"),
    "distance_free": (distance_free, "king-move distances to the nearest free target square"),
    "centre": (centre, "opening: distances to the centre of the board (a gravity point)"),
    "diagonal": (diagonal, "march along the main diagonal; no gain for entering the camp early"),
    "careful": (careful, "distance plus own forward jump chances minus the opponent's"),
    "fill": (fill, "endgame: fill the target camp from the far corner outwards"),
    "fill_alternate": (fill_alternate, "endgame: fill every second row of the camp first"),
    "phased": (phased, "centre, then diagonal, then fill, switching by phase of the game"),
}

_COLS = "abcdefghijklmnop"


class Halma(Game):
    """Two-player Halma; ``size`` 16 (default), 10 or 8; ``max_turns`` counts moves of both players."""

    def __init__(self, size: int = 16, max_turns: int | None = None) -> None:
        if isinstance(size, bool) or size not in SIZES:
            raise VariantError(f"size={size!r} is not allowed: one of {SIZES}")
        if max_turns is None:
            max_turns = DEFAULT_MAX_TURNS[size]
        if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 1:
            raise VariantError(f"max_turns={max_turns!r} is not allowed: a positive int (moves of both players)")
        z = SIZES.index(size)
        self.size = size
        self.pieces = int(len(_camp(size)))
        nn = size * size
        initial = np.zeros(STATE_SIZE, np.int64)
        initial[0:4] = HOME[z, 0]
        initial[4:8] = HOME[z, 1]
        initial[HASH] = _zobrist(size, initial)
        super().__init__(
            name="halma", kernels=KERNELS, params=np.array([z, size, int(max_turns)], np.int64),
            initial=initial, num_actions=nn * nn,
            max_moves=_max_moves(size, self.pieces), max_game_length=int(max_turns),
            observation_shape=(size, size, 6), variant={"size": size, "max_turns": int(max_turns)},
            heuristics={name: Heuristic(name, fn, doc) for name, (fn, doc) in _HEURISTICS.items()},
            default_heuristic="distance",
        )

    # ---- squares ----------------------------------------------------------------------------
    def square_name(self, sq: Square) -> str:
        """``c3`` style: column letter, row number (row 1 at the top)."""
        return f"{_COLS[sq % self.size]}{sq // self.size + 1}"

    def parse_square(self, text: str) -> Square:
        """The inverse of square_name; raises IllegalActionError for a square off the board."""
        t = text.strip().lower()
        if len(t) >= 2 and t[0] in _COLS[: self.size] and t[1:].isdigit() and 1 <= int(t[1:]) <= self.size:
            return (int(t[1:]) - 1) * self.size + _COLS.index(t[0])
        raise IllegalActionError(
            f"cannot read square {text!r}: columns a-{_COLS[self.size - 1]}, rows 1-{self.size} (e.g. 'c3')")

    def camp(self, player: int) -> list[Square]:
        """The squares of ``player``'s home camp, ascending (its target is the other camp)."""
        z = SIZES.index(self.size)
        return [sq for sq in range(self.size ** 2) if IN_TARGET[z, 1 - player, sq]]

    def pieces_of(self, state: State, player: int) -> list[Square]:
        """The squares of ``player``'s pieces, ascending."""
        z = SIZES.index(self.size)
        return [sq for sq in range(self.size ** 2)
                if state[4 * player + SQ_CLASS[z, sq]] >> SQ_BIT[z, sq] & 1]

    def board(self, state: State) -> np.ndarray:
        """An (N, N) int array: -1 empty, 0 or 1 the player whose piece stands there."""
        cells = np.full(self.size ** 2, -1, np.int64)
        for p in (0, 1):
            cells[self.pieces_of(state, p)] = p
        return cells.reshape(self.size, self.size)

    def position(self, x: Iterable[Square | str], o: Iterable[Square | str], turn: int = 0) -> State:
        """A state with player 0's pieces on ``x`` and player 1's on ``o`` (squares or names),
        ``turn`` moves played (player ``turn % 2`` to move). For scripted tests and puzzles."""
        squares = [[self.parse_square(q) if isinstance(q, str) else int(q) for q in side] for side in (x, o)]
        nn = self.size ** 2
        for p, side in enumerate(squares):
            if len(side) > self.pieces:
                raise VariantError(f"player {p} has {len(side)} pieces; at most {self.pieces} are allowed")
            if any(not 0 <= q < nn for q in side):
                raise VariantError(f"squares are in [0, {nn}); got {side}")
        if len(set(squares[0]) | set(squares[1])) != len(squares[0]) + len(squares[1]):
            raise VariantError("two pieces on one square")
        if isinstance(turn, bool) or not 0 <= turn:
            raise VariantError(f"turn={turn!r}: a non-negative int is required")
        z = SIZES.index(self.size)
        s = np.zeros(STATE_SIZE, np.int64)
        for p, side in enumerate(squares):
            for q in side:
                s[4 * p + SQ_CLASS[z, q]] |= np.int64(1) << SQ_BIT[z, q]
        s[TURN] = turn
        s[HASH] = _zobrist(self.size, s)
        return s

    # ---- text ---------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """``c3-e5``: the piece's square and its destination; ``pass`` for action 0."""
        nn = self.size ** 2
        f, t = divmod(int(action), nn)
        if f == t:
            return "pass"
        return f"{self.square_name(f)}-{self.square_name(t)}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``c3-e5`` (also ``c3e5``, ``c3 e5``), ``pass`` or a bare action index.

        With ``state``, the move must also be legal there."""
        t = text.strip().lower()
        nn = self.size ** 2
        forms = (f"write 'from-to' such as 'c3-e5' (columns a-{_COLS[self.size - 1]}, rows 1-{self.size}), "
                 f"'pass', or an action index in [0, {nn * nn})")
        if t == "pass":
            a = PASS
        elif t.isdigit():
            a = int(t)
            if a >= nn * nn:
                raise IllegalActionError(f"cannot read move {text!r}: {forms}")
        else:
            parts = t.replace("-", " ").replace(">", " ").split()
            if len(parts) == 1:  # c3e5: split before the second letter
                j = next((i for i in range(1, len(t)) if t[i].isalpha()), 0)
                parts = [t[:j], t[j:]] if j else parts
            try:
                if len(parts) != 2:
                    raise IllegalActionError(forms)
                f, to = self.parse_square(parts[0]), self.parse_square(parts[1])
            except IllegalActionError:
                raise IllegalActionError(f"cannot read move {text!r}: {forms}") from None
            if f == to:
                raise IllegalActionError(f"cannot read move {text!r}: a move ends on another square; {forms}")
            a = f * nn + to
        if state is not None and a not in set(self.legal_actions(state).tolist()):
            raise IllegalActionError(
                f"move {text!r} is not legal here; legal: {self._describe_actions(self.legal_actions(state))}")
        return a

    def render(self, state: State) -> str:
        """The board with coordinates: X player 0, O player 1, ':' an empty camp square."""
        cells = self.board(state)
        z = SIZES.index(self.size)
        lines = ["    " + " ".join(_COLS[: self.size])]
        for r in range(self.size):
            row = []
            for c in range(self.size):
                sq = r * self.size + c
                v = cells[r, c]
                camp = IN_TARGET[z, 0, sq] or IN_TARGET[z, 1, sq]
                row.append("X" if v == 0 else "O" if v == 1 else ":" if camp else ".")
            lines.append(f"{r + 1:>3} " + " ".join(row))
        turn = int(state[TURN])
        lines.append(f"move {turn}, {'X' if turn % 2 == 0 else 'O'} to play")
        return "\n".join(lines)


def _max_moves(size: int, pieces: int) -> int:
    """A true bound on the number of legal moves: each piece has at most 8 steps and one
    jump destination per other square of its parity class, and at most one destination
    per square not holding its own pieces."""
    class_squares = ((size + 1) // 2) ** 2
    return min(pieces * (8 + class_squares - 1), pieces * (size * size - pieces))


def _zobrist(size: int, s: np.ndarray) -> int:
    z = SIZES.index(size)
    h = 0
    for sq in range(size * size):
        for p in (0, 1):
            if s[4 * p + SQ_CLASS[z, sq]] >> SQ_BIT[z, sq] & 1:
                h ^= int(ZOBRIST[p, sq])
    return np.int64(h)
