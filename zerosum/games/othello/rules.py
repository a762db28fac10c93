"""Othello's rules as kernels over 128-bit bitboards (two int64 words a side).

Square ``row*size + col`` (row 0 the top row, as OpenSpiel draws it) is bit ``square`` of
a 128-bit board held as ``(lo, hi)``: bits 0-63 in ``lo``, 64-127 in ``hi``. A 10x10 board
needs 100 bits; on 8x8 and smaller ``hi`` stays 0. Every board operation works on the pair,
so one set of kernels serves every size.

Move generation is a Kogge-Stone style fill, the whole board at once: for each of the 8
directions, the opponent's discs that lie in a run starting next to one of the mover's
discs, extended one square at a time (at most ``size - 2`` of them), and then the empty
squares one step beyond. A shift that moves a disc one column to the right (left) is
applied to discs not on the last (first) column only, so nothing wraps round a row.

params (built once per variant by :func:`geometry`)::

    [size, board lo/hi, then for each of the 8 directions: shift, source mask lo/hi,
     has-a-neighbour-there lo/hi; then corners, X-squares, C-squares, edges (lo/hi each);
     then for each corner: its square, its X-square and its two C-squares]

state: ``[player 0 lo, hi, player 1 lo, hi, to_move, status, moves lo, hi]``: player 0 is
black and moves first. ``moves`` are the legal placements of the player to move (0 when
that player must pass or the game is over) and ``status`` the outcome; both follow from
the discs and the mover (the state stays canonical) and are stored by ``apply`` so that
``legal`` and ``status`` cost a load.
action: ``square`` (a placement), or ``size*size`` (pass).
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I64Array, I8Array, Params,
    State, bit, helper, i64, kernel, lowest_bit, popcount, shr,
)

S_P0, S_P1, S_TO_MOVE, S_STATUS, S_MOVES = 0, 2, 4, 5, 6  # discs of player p at 2p (lo) and 2p + 1 (hi)
STATE_SIZE = 8
P_SIZE, P_BOARD, P_DIRS = 0, 1, 3
DIR_STRIDE = 5  # per direction: shift, source mask lo/hi, neighbour mask lo/hi
P_CORNERS = P_DIRS + 8 * DIR_STRIDE
P_XSQ, P_CSQ, P_EDGES = P_CORNERS + 2, P_CORNERS + 4, P_CORNERS + 6
P_REGIONS = P_EDGES + 2  # per corner: the corner, its X-square and its two C-squares (4 squares)
PARAMS_SIZE = P_REGIONS + 16
# (row, column) steps; the axes are the pairs (0, 1), (2, 3), (4, 5), (6, 7)
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1))

_M1, _M2, _M3 = i64(0x9E3779B97F4A7C15), i64(0xBF58476D1CE4E5B9), i64(0x94D049BB133111EB)


def mask(squares: list[int] | set[int]) -> tuple[int, int]:
    """A set of squares as the (lo, hi) words of a 128-bit board, each as an int64."""
    b = sum(1 << sq for sq in set(squares))
    return i64(b & ((1 << 64) - 1)), i64(b >> 64)


def geometry(size: int) -> list[int]:
    """The params vector of a ``size`` x ``size`` board (see the module docstring)."""
    cells = [(r, c) for r in range(size) for c in range(size)]
    params = [size, *mask([r * size + c for r, c in cells])]
    for dr, dc in STEPS:
        sources = [r * size + c for r, c in cells if 0 <= c + dc < size]  # a step that stays on its row's board
        has = [r * size + c for r, c in cells if 0 <= r + dr < size and 0 <= c + dc < size]
        params += [dr * size + dc, *mask(sources), *mask(has)]
    last = size - 1
    corners = [(0, 0), (0, last), (last, 0), (last, last)]
    xsq = [(1, 1), (1, last - 1), (last - 1, 1), (last - 1, last - 1)]
    csq = [(0, 1), (1, 0), (0, last - 1), (1, last), (last - 1, 0), (last, 1), (last, last - 1), (last - 1, last)]
    edges = [(r, c) for r, c in cells if r in (0, last) or c in (0, last)]
    for group in (corners, xsq, csq, edges):
        params += mask([r * size + c for r, c in group])
    for i, (r, c) in enumerate(corners):
        params += [r * size + c, xsq[i][0] * size + xsq[i][1],
                   *(rr * size + cc for rr, cc in csq if abs(rr - r) + abs(cc - c) == 1)]
    return params


@helper
def sh(lo: int, hi: int, d: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The 128-bit board ``(lo, hi)`` shifted ``d`` squares up the bit order (``d > 0``)
    or ``-d`` down it (``d < 0``), zeros coming in; ``0 < |d| < 64``."""
    if d > 0:
        return lo << d, (hi << d) | shr(lo, 64 - d)
    return shr(lo, -d) | (hi << (64 + d)), shr(hi, -d)


@helper
def step(params: Params, k: int, lo: int, hi: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """Every square of ``(lo, hi)`` moved one step in direction ``k`` (squares that would
    leave the board through a side are dropped; those past the top or bottom row land
    outside the board mask, which every caller applies)."""
    base = P_DIRS + DIR_STRIDE * k
    return sh(lo & params[base + 1], hi & params[base + 2], params[base])


@helper
def placements(params: Params, olo: int, ohi: int, plo: int, phi: int) -> tuple[int, int]:  # pragma: no cover
    """The empty squares where the owner of ``o`` may place a disc against the discs ``p``."""
    elo = params[P_BOARD] & ~(olo | plo)
    ehi = params[P_BOARD + 1] & ~(ohi | phi)
    run = params[P_SIZE] - 3
    mlo = 0
    mhi = 0
    for k in range(8):
        xlo, xhi = step(params, k, olo, ohi)
        xlo &= plo
        xhi &= phi
        for _ in range(run):
            ylo, yhi = step(params, k, xlo, xhi)
            xlo |= ylo & plo
            xhi |= yhi & phi
        ylo, yhi = step(params, k, xlo, xhi)
        mlo |= ylo & elo
        mhi |= yhi & ehi
    return mlo, mhi


@helper
def flips(params: Params, mlo: int, mhi: int, olo: int, ohi: int, plo: int,  # pragma: no cover - compiled
          phi: int) -> tuple[int, int]:
    """The discs ``p`` that a disc of ``o``'s owner placed on ``m`` turns over: in each
    direction, the run of ``p`` from ``m`` when an ``o`` disc closes it."""
    run = params[P_SIZE] - 3
    flo = 0
    fhi = 0
    for k in range(8):
        xlo, xhi = step(params, k, mlo, mhi)
        xlo &= plo
        xhi &= phi
        for _ in range(run):
            ylo, yhi = step(params, k, xlo, xhi)
            xlo |= ylo & plo
            xhi |= yhi & phi
        ylo, yhi = step(params, k, xlo, xhi)
        if (ylo & olo) != 0 or (yhi & ohi) != 0:
            flo |= xlo
            fhi |= xhi
    return flo, fhi


@helper
def settle(params: Params, s: State, q: int) -> None:  # pragma: no cover - compiled
    """Complete ``s`` (its discs set) as the position with ``q`` to move: ``q``'s placements,
    or none when ``q`` must pass (the other player can place), or the final status when
    neither can."""
    olo, ohi = s[2 * q], s[2 * q + 1]
    plo, phi = s[2 - 2 * q], s[3 - 2 * q]
    mlo, mhi = placements(params, olo, ohi, plo, phi)
    s[S_TO_MOVE] = q
    s[S_MOVES] = mlo
    s[S_MOVES + 1] = mhi
    s[S_STATUS] = ONGOING
    if mlo == 0 and mhi == 0:
        alo, ahi = placements(params, plo, phi, olo, ohi)
        if alo == 0 and ahi == 0:
            n0 = popcount(s[S_P0]) + popcount(s[S_P0 + 1])
            n1 = popcount(s[S_P1]) + popcount(s[S_P1 + 1])
            s[S_STATUS] = P0_WINS if n0 > n1 else P1_WINS if n1 > n0 else DRAW


@kernel(APPLY)
def complete(params: Params, s: State, q: int, child: State) -> None:  # pragma: no cover - compiled
    """``child`` = the discs of ``s`` with player ``q`` to move, completed by :func:`settle`
    (how the Game builds its starting state and positions from discs)."""
    for i in range(4):
        child[i] = s[i]
    settle(params, child, q)


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_STATUS]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if s[S_STATUS] != ONGOING:
        return 0
    lo = s[S_MOVES]
    hi = s[S_MOVES + 1]
    if lo == 0 and hi == 0:
        out[0] = params[P_SIZE] * params[P_SIZE]  # no placement: the one legal action is to pass
        return 1
    n = 0
    for _ in range(64):
        if lo == 0:
            break
        out[n] = lowest_bit(lo)
        lo &= lo - 1
        n += 1
    for _ in range(64):
        if hi == 0:
            break
        out[n] = 64 + lowest_bit(hi)
        hi &= hi - 1
        n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    squares = params[P_SIZE] * params[P_SIZE]
    if s[S_STATUS] != ONGOING or a < 0 or a > squares:
        return False
    lo = s[S_MOVES]
    hi = s[S_MOVES + 1]
    if a == squares:
        return lo == 0 and hi == 0
    return ((lo >> a) & 1) != 0 if a < 64 else ((hi >> (a - 64)) & 1) != 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    p = s[S_TO_MOVE]
    for i in range(4):
        child[i] = s[i]
    if a != params[P_SIZE] * params[P_SIZE]:
        mlo = bit(a) if a < 64 else 0
        mhi = bit(a - 64) if a >= 64 else 0
        olo, ohi = s[2 * p], s[2 * p + 1]
        plo, phi = s[2 - 2 * p], s[3 - 2 * p]
        flo, fhi = flips(params, mlo, mhi, olo, ohi, plo, phi)
        child[2 * p] = olo | flo | mlo
        child[2 * p + 1] = ohi | fhi | mhi
        child[2 - 2 * p] = plo & ~flo
        child[3 - 2 * p] = phi & ~fhi
    settle(params, child, 1 - p)


@helper
def mix(h: int) -> int:  # pragma: no cover - compiled
    """A 64-bit finaliser (splitmix64's)."""
    h = (h ^ shr(h, 30)) * _M2
    h = (h ^ shr(h, 27)) * _M3
    return h ^ shr(h, 31)


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the discs and the mover (the rest of the state follows from them)."""
    h = mix(s[0] + _M1)
    h = mix(h ^ s[1])
    h = mix(h ^ s[2])
    h = mix(h ^ s[3])
    return mix(h ^ (s[S_TO_MOVE] + 1))


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    n = params[P_SIZE] * params[P_SIZE]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for sq in range(n):
        w = sq >> 6
        b = sq & 63
        out[3 * sq] = (s[2 * player_ + w] >> b) & 1
        out[3 * sq + 1] = (s[2 - 2 * player_ + w] >> b) & 1
        out[3 * sq + 2] = mover
