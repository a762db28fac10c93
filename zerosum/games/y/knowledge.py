"""Y's search knowledge: connection distances from the literature, centre first.

A player wins Y by a chain touching the three sides, so its *potential* is the least, over
the empty cells ``x``, of ``d(x, side 1) + d(x, side 2) + d(x, side 3) - 2``: the cells it
still has to fill for a chain that branches at ``x`` (a Steiner tree through ``x``, as in
Hex programs' Y evaluations; ``x`` is counted once). The distances are Hex's, on the graph
where a player's own stones cost nothing and the opponent's are walls
(:func:`zerosum.games.hex.knowledge.side_distances`, shared with Hex and Havannah). A
position scores, for a player, the opponent's potential minus its own, so
``h(s, 0) == -h(s, 1)``.

* ``distance``: ``d`` is the shortest-path distance.
* ``two_distance``: Queenbee's two-distance (van Rijswijck, 2000): a cell is one more than
  its *second*-best neighbour, because the opponent to move blocks the best one; ties are
  broken by the number of cells on which a potential is reached.

Values are ``SCALE * (opponent's potential - own)`` (+ the tie-break), clipped to
+-HEURISTIC_LIMIT. A player that no chain can join to a side has potential ``3 * cells``.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.hex.knowledge import EMPTY, OPPONENT, OWN, side_distances
from zerosum.games.kit import HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, \
    helper, kernel
from zerosum.games.y.rules import P_NEIGHBOURS, P_SIZE, S_BOARDS

SCALE = 100.0
"""Weight of one cell of potential (the tie-break counts 1 a cell)."""


@helper
def potential(params: Params, s: State, p: int, need: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """Player ``p``'s potential (see the module docstring) with ``need`` = 1 (shortest path)
    or 2 (two-distance), and the number of empty cells on which it is reached."""
    size = params[P_SIZE]
    n = size * size
    own = S_BOARDS + p * size
    opp = S_BOARDS + (1 - p) * size
    colour = np.full(n, OPPONENT, np.int64)  # the cut-off corner is a wall
    sides = np.zeros(n, np.int64)
    for y in range(size):
        for x in range(size - y):
            c = y * size + x
            colour[c] = OWN if (s[own + y] >> x) & 1 else OPPONENT if (s[opp + y] >> x) & 1 else EMPTY
            sides[c] = (1 if x == 0 else 0) | (2 if y == 0 else 0) | (4 if x + y == size - 1 else 0)
    dist = np.empty(3 * n, np.int64)
    side_distances(params, P_NEIGHBOURS, colour, sides, n, 3, need, dist)
    best = 3 * n
    ways = 0
    for c in range(n):
        if colour[c] == EMPTY:
            total = min(dist[c] + dist[n + c] + dist[2 * n + c] - 2, 3 * n)
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
    """Shortest three-sided connection (own stones free), the opponent's minus the player's."""
    v = SCALE * (potential(params, s, 1, 1)[0] - potential(params, s, 0, 1)[0])
    return clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def two_distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Three-sided two-distance potential, the opponent's minus the player's, the number of
    cells reaching it as the tie-break."""
    p0, m0 = potential(params, s, 0, 2)
    p1, m1 = potential(params, s, 1, 2)
    v = SCALE * (p1 - p0) + (m0 - m1)
    return clip(v if player == 0 else -v)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Cells next to stones first (2 a stone), then the centre of the triangle (hex distance
    from it)."""
    size = params[P_SIZE]
    mid = (size - 1) / 3.0
    for i in range(n):
        a = moves[i]
        y = a // size
        dx = a - y * size - mid
        dy = y - mid
        score = -max(abs(dx), abs(dy), abs(dx + dy))
        for k in range(6):
            z = params[P_NEIGHBOURS + 6 * a + k]
            if z < 0:
                continue
            r = z // size
            if ((s[S_BOARDS + r] | s[S_BOARDS + size + r]) >> (z - r * size)) & 1:
                score += 2.0
        scores[i] = score


HEURISTICS = {
    "distance": Heuristic("distance", distance, "shortest three-sided connection, opponent's minus own",
                          symmetric=True),
    "two_distance": Heuristic("two_distance", two_distance,
                              "three-sided two-distance potential, opponent's minus own, mobility tie-break",
                              symmetric=True),
}
