"""Othello's search knowledge: mobility, corners, stability, and a square-class ordering hint.

The classic evaluation terms of the Othello literature (Rosenbloom's IAGO, 1982; Buro's
Logistello papers; the survey of Sannidhanam and Annamalai), each scored one side minus the
other by absolute player, so ``h(s, 0) == -h(s, 1)`` for every position:

* ``mobility``: the number of legal placements of each side, own minus the opponent's
  (the mover's are stored in the state; the other side's are generated).
* ``corners``: a corner can never be turned over and anchors its edges, so each one held
  scores 25; while a corner is empty, a disc on its X-square (the diagonal neighbour)
  costs 8 and one on a C-square (the edge neighbours) 4, since they give the corner away.
* ``stability``: discs that can never be turned over again, counted by a fixed point:
  a disc is stable when on each of the four lines through it (row, column, two
  diagonals) its line is full, or one of its two neighbours on that line is off the
  board or an own stable disc. From the corners outwards this finds the edge anchors and
  the wedges behind them (a lower bound on the true stable set).
* ``classic`` (the default): 4 x mobility + corners + 4 x stability.

The ordering hint tries corners first, then edges, the other squares, C-squares, and
X-squares last.
"""

from __future__ import annotations

from zerosum.games.kit import (
    HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, popcount,
)
from zerosum.games.othello.rules import (
    DIR_STRIDE, P_CORNERS, P_CSQ, P_DIRS, P_EDGES, P_REGIONS, P_SIZE, P_XSQ, S_MOVES, S_TO_MOVE, placements,
    step,
)

W_CORNER, W_XSQ, W_CSQ = 25.0, 8.0, 4.0
W_MOBILITY, W_STABILITY = 4.0, 4.0
DEFAULT = "classic"


@helper
def _clip(v: float) -> float:  # pragma: no cover - compiled
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@helper
def _moves_of(params: Params, s: State, p: int) -> int:  # pragma: no cover - compiled
    """How many placements player ``p`` has (the stored ones for the mover)."""
    if s[S_TO_MOVE] == p:
        return popcount(s[S_MOVES]) + popcount(s[S_MOVES + 1])
    mlo, mhi = placements(params, s[2 * p], s[2 * p + 1], s[2 - 2 * p], s[3 - 2 * p])
    return popcount(mlo) + popcount(mhi)


@helper
def _mobility(params: Params, s: State) -> float:  # pragma: no cover - compiled
    """Player 0's placements minus player 1's."""
    return float(_moves_of(params, s, 0) - _moves_of(params, s, 1))


@helper
def _owner(s: State, sq: int) -> int:  # pragma: no cover - compiled
    """+1 when player 0 has a disc on ``sq``, -1 for player 1, 0 when it is empty."""
    w = sq >> 6
    b = sq & 63
    return ((s[w] >> b) & 1) - ((s[2 + w] >> b) & 1)


@helper
def _corners(params: Params, s: State) -> float:  # pragma: no cover - compiled
    """Corners held, and X- and C-squares next to empty corners, player 0 minus player 1."""
    v = 0.0
    for i in range(4):
        base = P_REGIONS + 4 * i
        c = _owner(s, params[base])
        if c != 0:
            v += W_CORNER * c
        else:
            v -= W_XSQ * _owner(s, params[base + 1])
            v -= W_CSQ * (_owner(s, params[base + 2]) + _owner(s, params[base + 3]))
    return v


@helper
def _full_lines(params: Params, flo: int, fhi: int, k: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The occupied squares from which every square in direction ``k`` up to the edge is
    occupied too (``flo, fhi``: the occupied squares)."""
    base = P_DIRS + DIR_STRIDE * k
    rlo = flo & ~params[base + 3]  # occupied, with no neighbour in direction k
    rhi = fhi & ~params[base + 4]
    back = k ^ 1  # the opposite direction: moves a square of the set onto its k-neighbour's place
    for _ in range(params[P_SIZE] - 1):
        ylo, yhi = step(params, back, rlo, rhi)
        rlo |= ylo & flo
        rhi |= yhi & fhi
    return rlo, rhi


@helper
def _stable_count(params: Params, olo: int, ohi: int, full: tuple[int, ...]) -> int:  # pragma: no cover - compiled
    """How many of the discs ``o`` are stable (see the module docstring); ``full`` holds, per
    axis, the squares whose whole line on that axis is occupied (lo, hi pairs)."""
    slo = 0
    shi = 0
    for _ in range(params[P_SIZE] * params[P_SIZE]):
        nlo = olo
        nhi = ohi
        for axis in range(4):
            k = 2 * axis
            a = P_DIRS + DIR_STRIDE * k
            b = a + DIR_STRIDE
            # the neighbour in direction k is off the board or stable: move the stable set back from it
            ulo, uhi = step(params, k + 1, slo, shi)
            vlo, vhi = step(params, k, slo, shi)
            nlo &= full[2 * axis] | ~params[a + 3] | ~params[b + 3] | ulo | vlo
            nhi &= full[2 * axis + 1] | ~params[a + 4] | ~params[b + 4] | uhi | vhi
        if nlo == slo and nhi == shi:
            break
        slo = nlo
        shi = nhi
    return popcount(slo) + popcount(shi)


@helper
def _stability(params: Params, s: State) -> float:  # pragma: no cover - compiled
    """Player 0's stable discs minus player 1's."""
    flo = s[0] | s[2]
    fhi = s[1] | s[3]
    a0lo, a0hi = _full_lines(params, flo, fhi, 0)
    b0lo, b0hi = _full_lines(params, flo, fhi, 1)
    a1lo, a1hi = _full_lines(params, flo, fhi, 2)
    b1lo, b1hi = _full_lines(params, flo, fhi, 3)
    a2lo, a2hi = _full_lines(params, flo, fhi, 4)
    b2lo, b2hi = _full_lines(params, flo, fhi, 5)
    a3lo, a3hi = _full_lines(params, flo, fhi, 6)
    b3lo, b3hi = _full_lines(params, flo, fhi, 7)
    full = (a0lo & b0lo, a0hi & b0hi, a1lo & b1lo, a1hi & b1hi, a2lo & b2lo, a2hi & b2hi, a3lo & b3lo, a3hi & b3hi)
    return float(_stable_count(params, s[0], s[1], full) - _stable_count(params, s[2], s[3], full))


@kernel(HEURISTIC)
def mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Legal placements, own minus the opponent's."""
    v = _mobility(params, s)
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def corners(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Corners held (25 each); X-squares (8) and C-squares (4) next to an empty corner count
    against their owner; own minus the opponent's."""
    v = _corners(params, s)
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def stability(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Discs that can never be turned over, own minus the opponent's."""
    v = _stability(params, s)
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def classic(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """4 x mobility + corners + 4 x stability."""
    v = W_MOBILITY * _mobility(params, s) + _corners(params, s) + W_STABILITY * _stability(params, s)
    return _clip(v if player == 0 else -v)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Corners first, then edges, other squares, C-squares, X-squares last (pass: 0)."""
    squares = params[P_SIZE] * params[P_SIZE]
    for i in range(n):
        a = moves[i]
        if a >= squares:
            scores[i] = 0.0
            continue
        w = 1 if a >= 64 else 0
        b = a & 63
        if (params[P_CORNERS + w] >> b) & 1:
            scores[i] = 4.0
        elif (params[P_XSQ + w] >> b) & 1:
            scores[i] = -2.0
        elif (params[P_CSQ + w] >> b) & 1:
            scores[i] = -1.0
        elif (params[P_EDGES + w] >> b) & 1:
            scores[i] = 1.0
        else:
            scores[i] = 0.0


HEURISTICS = {
    "mobility": Heuristic("mobility", mobility, "legal placements, own minus the opponent's", symmetric=True),
    "corners": Heuristic("corners", corners, "corners held; X- and C-squares next to empty corners count against",
                         symmetric=True),
    "stability": Heuristic("stability", stability, "discs that can never be turned over, own minus opponent's",
                           symmetric=True),
    "classic": Heuristic("classic", classic, "4 x mobility + corners + 4 x stability", symmetric=True),
}
