"""Go's search knowledge: an area estimate for alpha-beta and a move-ordering hint.

``area``: the score Tromp-Taylor would give if the game ended now, with the empty points
shared out by distance first (a Voronoi split, the simplest of the influence functions
after Zobrist 1969 and Bouzy 2003): both colours' stones grow one step at a time through
the empty points for up to ``REACH`` steps; a point reached first by one colour only is
that colour's, a point both reach on the same step is nobody's, and so is a point
neither reaches. Stones plus points, minus komi (and black's handicap), from ``player``'s
side: within +-(board points + 500), inside the kit's limit.
"""

from __future__ import annotations

from zerosum.games.go.rules import S_BLACK, S_PASSED, S_WHITE, empty_word, neighbours, next_to
from zerosum.games.go.scratch import words
from zerosum.games.go.tables import K_MAX, P_ACTION_TO_BIT, P_HANDICAP, P_K, P_KOMI2, P_N
from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, kernel, popcount

REACH = 4
"""Steps the stones' influence travels through empty points."""


@kernel(HEURISTIC)
def area(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Stones plus the empty points nearer to one colour (up to REACH steps), minus komi."""
    kk = params[P_K]
    zone = words()     # [0, K): black's zone, [K_MAX, K_MAX + K): white's
    grow = words()
    free = words()     # empty points nobody has reached yet
    for k in range(kk):
        zone[k] = s[S_BLACK + k]
        zone[K_MAX + k] = s[S_WHITE + k]
        free[k] = empty_word(params, s, k)
    for _ in range(REACH):
        for k in range(kk):
            grow[k] = neighbours(params, zone, 0, k) & free[k]
            grow[K_MAX + k] = neighbours(params, zone, K_MAX, k) & free[k]
        moved = 0
        for k in range(kk):
            both = grow[k] & grow[K_MAX + k]
            zone[k] |= grow[k] & ~both
            zone[K_MAX + k] |= grow[K_MAX + k] & ~both
            free[k] &= ~(grow[k] | grow[K_MAX + k])
            moved |= grow[k] | grow[K_MAX + k]
        if moved == 0:
            break
    delta = 0
    for k in range(kk):
        delta += popcount(zone[k]) - popcount(zone[K_MAX + k])
    handicap = params[P_HANDICAP] if params[P_HANDICAP] >= 2 else 0
    value = delta - handicap - params[P_KOMI2] / 2.0
    return value if player == 0 else -value


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """Points next to stones first (contact moves: captures, ataris, extensions), the
    pass last unless the opponent has just passed."""
    size = params[P_N]
    for i in range(n):
        a = moves[i]
        if a == size * size:
            scores[i] = 10.0 if s[S_PASSED] else -10.0
            continue
        near = 0.0
        for d in range(4):
            nb = next_to(params, a, d)
            if nb >= 0:
                wb = params[P_ACTION_TO_BIT + nb]
                k, b = wb >> 6, wb & 63
                near += ((s[S_BLACK + k] | s[S_WHITE + k]) >> b) & 1
        scores[i] = near


HEURISTICS = {"area": Heuristic("area", area, "stones plus the empty points nearer to one colour, minus komi",
                                symmetric=True)}
