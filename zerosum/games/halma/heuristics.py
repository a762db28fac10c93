"""Halma's search knowledge: the study's heuristics, their tables and the ordering hint.

Every heuristic is own minus opponent's (or opponent's cost minus own), so each is
antisymmetric: ``h(s, 0) == -h(s, 1)`` for every position. Distances to the far corner
are ``u + v``, the rows plus the columns still to go (a diagonal step counts 2); on 8x8
and 10x10 the camps are exactly the squares with the smallest ``u + v``. The phased
strategy built from these is in :mod:`.strategies`.
"""

from __future__ import annotations

import numpy as np
from numba import types

from zerosum.games.halma.rules import (
    P_SIZE, P_Z, TURN, jumps, over, over_masks, pick, shift,
)
from zerosum.games.halma.tables import (
    BOARD, CAMP_SIZE, CLASS_SQ, DIRECTIONS, IN_TARGET, MAX_CAMP, MAX_SQUARES, NEIGH, SIZES, SQ_BIT, SQ_CLASS,
    TARGET, camp_squares, homes,
)
from zerosum.games.kit import (
    HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, lowest_bit, popcount,
)

DIAGONAL_PENALTY = 0.1
FILL_OUTSIDE = 8.0
ENTRY_WEIGHT = 2.0
TEMPO_WEIGHT = 0.75
JUMP_WEIGHT = 1.0
FORWARD = np.array(DIRECTIONS, dtype=np.int64)
GAIN = types.float64(types.int64, HEURISTIC.args[1], types.int64)
"""Signature of ``best_gain``: (size index, state, player) -> the gain of p's best move."""


# ---- tables, built once at import -----------------------------------------------------------
def _tables() -> dict[str, np.ndarray]:
    """Per (size, player, square): far-corner distance, diagonal march, camp-filling orders,
    centre distance, and the target squares nearest in king moves."""
    nz = len(SIZES)
    t = {name: np.zeros((nz, 2, MAX_SQUARES), np.float64) for name in ("dist", "diag", "fill", "fill_alt")}
    t["centre"] = np.zeros((nz, MAX_SQUARES), np.float64)
    t["nearest"] = np.zeros((nz, 2, MAX_SQUARES, MAX_CAMP), np.int64)
    t["nearest_d"] = np.zeros((nz, 2, MAX_SQUARES, MAX_CAMP), np.int64)
    for z, n in enumerate(SIZES):
        camp, home = camp_squares(n), homes(n)
        cap = 2 * (n - 1) - max(a + b for a, b in camp)  # where the target camp starts
        for r in range(n):
            for c in range(n):
                sq = r * n + c
                for p in range(2):
                    # in the target corner's own coordinates (u, v): rows and columns still to go
                    u, v = (n - 1 - r, n - 1 - c) if p == 0 else (r, c)
                    dist = u + v
                    to_camp = min(max(abs(u - a), abs(v - b)) for a, b in camp)
                    outside = FILL_OUTSIDE + to_camp + 0.1 * dist
                    fr, fc = (r, c) if p == 0 else (n - 1 - r, n - 1 - c)  # from the home corner
                    in_camp = (u, v) in home[0]
                    t["dist"][z, p, sq] = dist
                    t["diag"][z, p, sq] = min(fr + fc, cap) - DIAGONAL_PENALTY * (fr - fc) ** 2
                    t["fill"][z, p, sq] = dist if in_camp else outside
                    t["fill_alt"][z, p, sq] = (u // 2) + 3 * (u & 1) + 0.1 * v if in_camp else outside
                    near = sorted((max(abs(r - a), abs(c - b)), a * n + b) for a, b in home[1 - p])
                    t["nearest"][z, p, sq, : len(near)] = [q for _, q in near]
                    t["nearest_d"][z, p, sq, : len(near)] = [d for d, _ in near]
                t["centre"][z, sq] = float(np.hypot(r - (n - 1) / 2, c - (n - 1) / 2))
    return t


def _by_class(tab: np.ndarray) -> np.ndarray:
    """A table by (size, player, class, bit), so heuristics iterate bitboards without a lookup."""
    out = np.zeros((len(SIZES), 2, 4, 64), np.float64)
    for z in range(len(SIZES)):
        for k in range(4):
            for b in range(64):
                sq = CLASS_SQ[z, k, b]
                if sq >= 0:
                    out[z, :, k, b] = tab[z, :, sq] if tab.ndim == 3 else tab[z, sq]
    return out


_T = _tables()
DIST, DIAG, FILL, FILL_ALT, CENTRE = _T["dist"], _T["diag"], _T["fill"], _T["fill_alt"], _T["centre"]
NEAREST, NEAREST_D = _T["nearest"], _T["nearest_d"]
DIST_C, DIAG_C, FILL_C, FILL_ALT_C = _by_class(DIST), _by_class(DIAG), _by_class(FILL), _by_class(FILL_ALT)
CENTRE_C = _by_class(CENTRE)
del _T


# ---- helpers --------------------------------------------------------------------------------
@helper
def table_sum(tab: F64Array, z: int, s: State, p: int) -> float:  # pragma: no cover - compiled
    """Sum of tab[z, p, class, bit] over the pieces of player p."""
    total = 0.0
    for k in range(4):
        w = s[4 * p + k]
        while w != 0:
            total += tab[z, p, k, lowest_bit(w)]
            w &= w - 1
    return total


@helper
def entry(z: int, s: State, p: int, sq: int) -> int:  # pragma: no cover - compiled
    """King moves from sq to the nearest target square that p does not hold yet (free, or
    held by the opponent, who has to leave it to win: counting it keeps the opponent's
    moves out of p's score, so nobody gains by staying at home)."""
    for i in range(CAMP_SIZE[z]):
        t = NEAREST[z, p, sq, i]
        if (s[4 * p + SQ_CLASS[z, t]] >> SQ_BIT[z, t]) & 1 == 0:
            return NEAREST_D[z, p, sq, i]
    return 0


@helper
def distances(z: int, s: State, p: int, corner_weight: float, entry_weight: float) -> float:  # pragma: no cover
    """Sum over p's pieces of corner_weight * (distance to the far corner) + entry_weight *
    (king moves to the nearest target square p does not hold yet, for pieces outside the camp)."""
    total = 0.0
    for k in range(4):
        w = s[4 * p + k]
        while w != 0:
            b = lowest_bit(w)
            w &= w - 1
            total += corner_weight * DIST_C[z, p, k, b]
            sq = CLASS_SQ[z, k, b]
            if IN_TARGET[z, p, sq] == 0:
                total += entry_weight * entry(z, s, p, sq)
    return total


@helper
def cost(z: int, s: State, p: int, sq: int) -> float:  # pragma: no cover - compiled
    """One piece's share of ``distance``."""
    c = DIST[z, p, sq]
    if IN_TARGET[z, p, sq] == 0:
        c += ENTRY_WEIGHT * entry(z, s, p, sq)
    return c


@kernel(GAIN)
def best_gain(z: int, s: State, p: int) -> float:  # pragma: no cover - compiled
    """What p's best next move gains in ``distance``: for each piece, its destination
    nearest the far corner, scored with the full cost (0 when nothing gains).

    A compiled function that ``distance`` calls rather than inlines: a whole move
    generation, it would double the size of the heuristic for no measured gain."""
    o0, o1, o2, o3 = s[0] | s[4], s[1] | s[5], s[2] | s[6], s[3] | s[7]
    m0, m1 = over_masks(o0, o1, o2, o3, 0), over_masks(o0, o1, o2, o3, 1)
    m2, m3 = over_masks(o0, o1, o2, o3, 2), over_masks(o0, o1, o2, o3, 3)
    best = 0.0
    for k in range(4):
        w = s[4 * p + k]
        while w != 0:
            b = lowest_bit(w)
            w &= w - 1
            sq = CLASS_SQ[z, k, b]
            stay = IN_TARGET[z, p, sq] == 1
            empty = BOARD[z, k] & ~pick(o0, o1, o2, o3, k)
            if stay:
                empty &= TARGET[z, p, k]
            if k == 0:
                reach = jumps(b, empty, m0)
            elif k == 1:
                reach = jumps(b, empty, m1)
            elif k == 2:
                reach = jumps(b, empty, m2)
            else:
                reach = jumps(b, empty, m3)
            # the destination nearest the far corner, then its full cost
            to = -1
            near = DIST[z, p, sq]
            while reach != 0:
                t = CLASS_SQ[z, k, lowest_bit(reach)]
                reach &= reach - 1
                if DIST[z, p, t] < near:
                    near = DIST[z, p, t]
                    to = t
            for d in range(8):
                t = NEIGH[z, sq, d]
                if t >= 0 and DIST[z, p, t] < near and (not stay or IN_TARGET[z, p, t] == 1) \
                        and (pick(o0, o1, o2, o3, SQ_CLASS[z, t]) >> SQ_BIT[z, t]) & 1 == 0:
                    near = DIST[z, p, t]
                    to = t
            if to >= 0:
                g = cost(z, s, p, sq) - cost(z, s, p, to)
                if g > best:
                    best = g
    return best


@helper
def forward_jumps(z: int, s: State, p: int) -> int:  # pragma: no cover - compiled
    """Single jumps of p's pieces that move them towards the target."""
    o0, o1, o2, o3 = s[0] | s[4], s[1] | s[5], s[2] | s[6], s[3] | s[7]
    sign = 1 if p == 0 else -1  # forward: right, down, down-right for player 0
    count = 0
    for k in range(4):
        own = s[4 * p + k]
        if own == 0:
            continue
        empty = BOARD[z, k] & ~pick(o0, o1, o2, o3, k)
        for d in range(8):
            if FORWARD[d, 0] + FORWARD[d, 1] <= 0:
                continue
            dr, dc = FORWARD[d, 0] * sign, FORWARD[d, 1] * sign
            land = shift(empty, -dr, -dc)  # origins whose landing square is empty
            count += popcount(own & over(o0, o1, o2, o3, k, d if p == 0 else 7 - d) & land)
    return count


# ---- the heuristics -------------------------------------------------------------------------
@kernel(HEURISTIC)
def corner(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """The study's plain distance: sum of distances to the target camp's far corner,
    opponent's minus own. Alpha-beta at depth 2 with it stalls near the camp (see distance)."""
    z = params[P_Z]
    return table_sum(DIST_C, z, s, 1 - player) - table_sum(DIST_C, z, s, player)


@kernel(HEURISTIC)
def distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
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
    z = params[P_Z]
    v = distances(z, s, 1 - player, 1.0, ENTRY_WEIGHT) - distances(z, s, player, 1.0, ENTRY_WEIGHT)
    mover = s[TURN] & 1
    g = best_gain(z, s, mover)
    return v + TEMPO_WEIGHT * g if mover == player else v - TEMPO_WEIGHT * g


@kernel(HEURISTIC)
def distance_free(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """King moves of each piece outside the camp to the nearest free target square (free
    for the player: empty or still held by the opponent), plus a tenth of the far-corner
    distance so that pieces in the camp move deeper; opponent's minus own."""
    z = params[P_Z]
    return distances(z, s, 1 - player, 0.1, 1.0) - distances(z, s, player, 0.1, 1.0)


@kernel(HEURISTIC)
def centre(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Opening: rush the centre; the pieces' distance to the board's centre, opponent's minus own."""
    z = params[P_Z]
    return table_sum(CENTRE_C, z, s, 1 - player) - table_sum(CENTRE_C, z, s, player)


@kernel(HEURISTIC)
def diagonal(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Middle game: progress along the main diagonal, capped where the target camp starts,
    minus a penalty of 0.1 * (row - col)**2 for straying from the diagonal; own minus opponent's."""
    z = params[P_Z]
    return table_sum(DIAG_C, z, s, player) - table_sum(DIAG_C, z, s, 1 - player)


@kernel(HEURISTIC)
def careful(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Careful placement: distance, plus own forward jump chances, minus the opponent's."""
    z = params[P_Z]
    dist = table_sum(DIST_C, z, s, 1 - player) - table_sum(DIST_C, z, s, player)
    return dist + JUMP_WEIGHT * (forward_jumps(z, s, player) - forward_jumps(z, s, 1 - player))


@kernel(HEURISTIC)
def fill(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Endgame: fill the target camp from its far corner outwards (weight 0 at the corner,
    growing outwards; squares outside the camp weigh more than any inside); opponent's minus own."""
    z = params[P_Z]
    return table_sum(FILL_C, z, s, 1 - player) - table_sum(FILL_C, z, s, player)


@kernel(HEURISTIC)
def fill_alternate(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Endgame: fill every second row of the camp first (rows 0, 2, 4 from the far edge,
    then 1, 3) so that late pieces can jump into the gaps; opponent's minus own."""
    z = params[P_Z]
    return table_sum(FILL_ALT_C, z, s, 1 - player) - table_sum(FILL_ALT_C, z, s, player)


# ---- move ordering --------------------------------------------------------------------------
@kernel(ORDER)
def forward_first(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """Forward progress first: how much nearer the far corner of its target the piece ends."""
    z = params[P_Z]
    nn = params[P_SIZE] * params[P_SIZE]
    p = s[TURN] & 1
    for i in range(n):
        f = moves[i] // nn
        t = moves[i] - f * nn
        scores[i] = DIST[z, p, f] - DIST[z, p, t]


def _h(fn: object, doc: str) -> Heuristic:
    return Heuristic(fn.__name__, fn, doc, symmetric=True)  # type: ignore[arg-type, attr-defined]


HEURISTICS = {h.name: h for h in (
    _h(distance, "far-corner distances + camp-entry distances + the mover's best next move"),
    _h(corner, "the study's plain sum of distances to the target camp's far corner"),
    _h(distance_free, "king-move distances to the nearest free target square"),
    _h(centre, "opening: distances to the centre of the board (a gravity point)"),
    _h(diagonal, "march along the main diagonal; no gain for entering the camp early"),
    _h(careful, "distance plus own forward jump chances minus the opponent's"),
    _h(fill, "endgame: fill the target camp from the far corner outwards"),
    _h(fill_alternate, "endgame: fill every second row of the camp first"),
)}
"""The heuristics by name (the phased strategy joins them in the game's own table)."""
