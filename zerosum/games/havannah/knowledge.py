"""Havannah's search knowledge: connection distances to the edges and corners, centre first.

A player wins Havannah by a fork (a chain touching three edges), a bridge (two corners) or a
ring. The heuristics measure the first two with Hex's connection distances
(:func:`zerosum.games.hex.knowledge.side_distances`, shared with Hex and Y: own stones cost
nothing, a chain is one node, the opponent's stones are walls), each of the six edges and
six corners a side. For an empty cell ``x`` a fork through ``x`` needs the three smallest of
its six edge distances, summed, minus 2 cells (``x`` counted once) and a bridge the two
smallest corner distances minus 1; a player's *potential* is the least of these over the
empty cells, the cells it still has to fill for its nearest fork or bridge (rings are left
to the search). A position scores, for a player, the opponent's potential minus its own,
so ``h(s, 0) == -h(s, 1)``.

* ``distance``: shortest-path distances.
* ``two_distance``: Queenbee's two-distance (van Rijswijck, 2000): a cell is one more than
  its *second*-best neighbour, because the opponent to move blocks the best one; ties are
  broken by the number of cells on which a potential is reached.

Values are ``SCALE * (opponent's potential - own)`` (+ the tie-break), clipped to
+-HEURISTIC_LIMIT. A player with no fork or bridge left has potential ``3 * cells``.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.havannah.rules import P_BASE, P_CORNERS, P_DIAM, S_BOARDS, neighbours_at
from zerosum.games.hex.knowledge import EMPTY, OPPONENT, OWN, side_distances
from zerosum.games.kit import HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, \
    helper, kernel

SCALE = 100.0
"""Weight of one cell of potential (the tie-break counts 1 a cell)."""


@helper
def smallest(dist: I64Array, n: int, first: int, c: int, k: int) -> int:  # pragma: no cover - compiled
    """The sum of the ``k`` smallest of the six distances ``dist[(first + j) * n + c]``."""
    v = np.empty(6, np.int64)
    for j in range(6):
        v[j] = dist[(first + j) * n + c]
    v.sort()
    total = 0
    for j in range(k):
        total += v[j]
    return total


@helper
def potential(params: Params, s: State, p: int, need: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """Player ``p``'s potential (see the module docstring) with ``need`` = 1 (shortest path)
    or 2 (two-distance), and the number of empty cells on which it is reached."""
    b, d = params[P_BASE], params[P_DIAM]
    n = d * d
    m, e = b - 1, 2 * b - 2
    own = S_BOARDS + p * d
    opp = S_BOARDS + (1 - p) * d
    colour = np.full(n, OPPONENT, np.int64)  # the square's cut-off corners are walls
    sides = np.zeros(n, np.int64)
    for y in range(d):
        for x in range(max(0, y - m), min(d, y + b)):
            c = y * d + x
            bit = d - 1 - x
            colour[c] = OWN if (s[own + y] >> bit) & 1 else OPPONENT if (s[opp + y] >> bit) & 1 else EMPTY
            edge = -1
            if y == 0 and x != 0 and x != m:
                edge = 0
            elif x - y == m and x != m and x != e:
                edge = 1
            elif x == e and y != m and y != e:
                edge = 2
            elif y == e and x != e and x != m:
                edge = 3
            elif y - x == m and x != m and x != 0:
                edge = 4
            elif x == 0 and y != m and y != 0:
                edge = 5
            if edge >= 0:
                sides[c] = 1 << edge
    for k in range(6):
        sides[params[P_CORNERS + k]] = 1 << (6 + k)
    dist = np.empty(12 * n, np.int64)
    side_distances(params, neighbours_at(params), colour, sides, n, 12, need, dist)
    best = 3 * n
    ways = 0
    for c in range(n):
        if colour[c] == EMPTY:
            total = min(smallest(dist, n, 0, c, 3) - 2, smallest(dist, n, 6, c, 2) - 1, 3 * n)
            if total < best:
                best = total
                ways = 1
            elif total == best:
                ways += 1
    return best, ways


@helper
def clip(v: float) -> float:  # pragma: no cover - compiled
    """``v`` within +-HEURISTIC_LIMIT."""
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@kernel(HEURISTIC)
def distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Nearest fork or bridge by shortest paths (own stones free), the opponent's minus the
    player's."""
    v = SCALE * (potential(params, s, 1, 1)[0] - potential(params, s, 0, 1)[0])
    return clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def two_distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Nearest fork or bridge by two-distance, the opponent's minus the player's, the number
    of cells reaching it as the tie-break."""
    p0, m0 = potential(params, s, 0, 2)
    p1, m1 = potential(params, s, 1, 2)
    v = SCALE * (p1 - p0) + (m0 - m1)
    return clip(v if player == 0 else -v)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Cells next to stones first (2 a stone), then the centre (hex distance from it)."""
    b, d = params[P_BASE], params[P_DIAM]
    nb = neighbours_at(params)
    for i in range(n):
        a = moves[i]
        y = a // d
        dx = a - y * d - (b - 1)
        dy = y - (b - 1)
        score = -max(abs(dx), abs(dy), abs(dx - dy))
        for k in range(6):
            z = params[nb + 6 * a + k]
            if z < 0:
                continue
            r = z // d
            if ((s[S_BOARDS + r] | s[S_BOARDS + d + r]) >> (d - 1 - (z - r * d))) & 1:
                score += 2.0
        scores[i] = score


HEURISTICS = {
    "distance": Heuristic("distance", distance, "nearest fork or bridge by shortest paths, opponent's minus own",
                          symmetric=True),
    "two_distance": Heuristic("two_distance", two_distance,
                              "nearest fork or bridge by two-distance, opponent's minus own, mobility tie-break",
                              symmetric=True),
}
