"""Hex's search knowledge: connection distances from the literature, centre first.

Both heuristics measure, for each player, how far it is from joining its two edges on the
graph where its own stones cost nothing (a chain of its stones is one node: the empty cells
next to it are next to one another, and next to the edge it touches) and the opponent's
stones are walls. A player's *potential* is ``min over empty cells x of d(x, first edge)
+ d(x, second edge)`` (lower is better); a position scores, for a player, the opponent's
potential minus its own, so ``h(s, 0) == -h(s, 1)``.

* ``distance``: ``d`` is the shortest-path distance, the empty cells a player still has to
  fill: the simplest connection measure, which Queenbee's two-distance and Hexy's
  electrical resistance (Anshelevich, 2002) refine.
* ``two_distance``: Queenbee's two-distance (van Rijswijck, *Are bees better than
  fruitflies?*, 2000): a cell next to the edge is at 1, any other cell at one more than its
  *second*-best neighbour, because the opponent to move blocks the best one. Ties are
  broken by Queenbee's mobility, the number of cells on which a potential is reached.

The distances come from :func:`side_distances`, which works on any board graph with any
number of sides and serves Y (three sides) and Havannah (six edges and six corners) too.

Values are ``SCALE * (opponent's potential - own)`` (+ the mobility difference for
``two_distance``), clipped to +-HEURISTIC_LIMIT. A side whose edges no chain of two-distance
joins has potential ``2 * (cells + 1)``.
"""

from __future__ import annotations

import numpy as np

from zerosum.games.hex.rules import P_COLS, P_NEIGHBOURS, P_ROWS, S_BOARDS
from zerosum.games.kit import HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, \
    helper, kernel

SCALE = 100.0
"""Weight of one cell of potential (the mobility tie-break counts 1 a cell)."""
EMPTY, OWN, OPPONENT = 0, 1, 2
"""The colours of a cell for :func:`side_distances`: empty, the measured player's, the opponent's."""


@helper
def _on_edge(p: int, edge: int, x: int, rows: int, cols: int) -> bool:  # pragma: no cover - compiled
    """Whether cell ``x`` lies on player ``p``'s first (``edge`` 0) or second edge."""
    if p == 0:
        return x < cols if edge == 0 else x >= (rows - 1) * cols
    c = x % cols
    return c == 0 if edge == 0 else c == cols - 1


@helper
def side_distances(params: Params, nb: int, colour: I64Array, sides: I64Array, n: int, nsides: int, need: int,
                   dist: I64Array) -> None:  # pragma: no cover - compiled
    """Connection distances on any board of ``n`` cells, shared by the connection games (Hex,
    Y, Havannah): ``dist[e * n + x]`` is the distance of empty cell ``x`` from side ``e``
    (``e < nsides``), ``n + 1`` where none joins them.

    ``params[nb + 6 * x + k]`` is the k-th neighbour of cell ``x`` (-1 for none),
    ``colour[x]`` is EMPTY, OWN or OPPONENT (the player measured for is OWN) and bit ``e``
    of ``sides[x]`` says that cell ``x`` lies on side ``e`` (an edge, or a corner cell).
    Own stones cost nothing: a chain is one node, so the empty cells next to it are next to
    one another, and next to every side it touches; the opponent's stones are walls. A side's
    empty cells and the liberties of the chains on it are at 1; any other empty cell is at
    one more than its ``need``-th best neighbour (1: the shortest path; 2: Queenbee's
    two-distance, the opponent blocking the best)."""
    big = n + 1
    # the chains of own stones: their liberties, and which sides they touch
    group = np.full(n, -1, np.int64)
    lib_start = np.empty(n + 1, np.int64)
    touch = np.zeros(n, np.int64)
    libs = np.empty(6 * n, np.int64)
    stack = np.empty(n, np.int64)
    stamp = np.zeros(n, np.int64)
    tick = 0
    groups = 0
    nlibs = 0
    for i in range(n):
        if colour[i] != OWN or group[i] >= 0:
            continue
        g = groups
        groups += 1
        tick += 1
        lib_start[g] = nlibs
        group[i] = g
        stack[0] = i
        top = 1
        while top > 0:
            top -= 1
            y = stack[top]
            touch[g] |= sides[y]
            for k in range(6):
                z = params[nb + 6 * y + k]
                if z < 0:
                    continue
                if colour[z] == OWN and group[z] < 0:
                    group[z] = g
                    stack[top] = z
                    top += 1
                elif colour[z] == EMPTY and stamp[z] != tick:
                    stamp[z] = tick
                    libs[nlibs] = z
                    nlibs += 1
    lib_start[groups] = nlibs
    gstamp = np.zeros(n, np.int64)
    count = np.empty(n, np.int64)
    queue = stack  # reused: the breadth-first queue of each side's pass
    for side in range(nsides):
        d = dist[side * n: (side + 1) * n]
        for x in range(n):
            d[x] = big
            count[x] = 0
        tail = 0
        for x in range(n):  # the side's neighbours: its empty cells and the liberties of chains on it
            if colour[x] == EMPTY and (sides[x] >> side) & 1:
                d[x] = 1
                queue[tail] = x
                tail += 1
        for g in range(groups):
            if (touch[g] >> side) & 1:
                for j in range(lib_start[g], lib_start[g + 1]):
                    x = libs[j]
                    if d[x] == big:
                        d[x] = 1
                        queue[tail] = x
                        tail += 1
        head = 0
        while head < tail:
            y = queue[head]
            head += 1
            tick += 1
            stamp[y] = tick
            for k in range(6):
                z = params[nb + 6 * y + k]
                if z < 0:
                    continue
                if colour[z] == EMPTY:
                    first, last = z, z + 1
                elif colour[z] == OWN and gstamp[group[z]] != tick:
                    gstamp[group[z]] = tick
                    first, last = -1 - group[z], 0  # a chain: its liberties
                else:
                    continue
                if first >= 0:
                    lo, hi, direct = first, last, True
                else:
                    g = -1 - first
                    lo, hi, direct = lib_start[g], lib_start[g + 1], False
                for j in range(lo, hi):
                    x = j if direct else libs[j]
                    if stamp[x] == tick:
                        continue
                    stamp[x] = tick
                    if d[x] == big:
                        count[x] += 1
                        if count[x] >= need:
                            d[x] = d[y] + 1
                            queue[tail] = x
                            tail += 1


@helper
def _potential(params: Params, s: State, p: int, need: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """Player ``p``'s potential (see the module docstring) with ``need`` = 1 (shortest path)
    or 2 (two-distance), and the number of empty cells on which it is reached."""
    rows, cols = params[P_ROWS], params[P_COLS]
    n = rows * cols
    big = n + 1
    own = S_BOARDS + 3 * p * rows
    opp = S_BOARDS + 3 * (1 - p) * rows
    colour = np.empty(n, np.int64)
    sides = np.zeros(n, np.int64)
    for r in range(rows):
        for c in range(cols):
            x = r * cols + c
            colour[x] = OWN if (s[own + r] >> c) & 1 else OPPONENT if (s[opp + r] >> c) & 1 else EMPTY
            for edge in range(2):
                if _on_edge(p, edge, x, rows, cols):
                    sides[x] |= 1 << edge
    dist = np.empty(2 * n, np.int64)
    side_distances(params, P_NEIGHBOURS, colour, sides, n, 2, need, dist)
    best = 2 * big
    ways = 0
    for x in range(n):
        if colour[x] == EMPTY:
            total = dist[x] + dist[n + x]
            if total < best:
                best = total
                ways = 1
            elif total == best:
                ways += 1
    return best, ways


@helper
def _clip(v: float) -> float:  # pragma: no cover - compiled
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@kernel(HEURISTIC)
def distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Shortest connection (own stones free), the opponent's minus the player's."""
    p0 = _potential(params, s, 0, 1)[0]
    p1 = _potential(params, s, 1, 1)[0]
    v = SCALE * (p1 - p0)
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def two_distance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Queenbee's two-distance potential, the opponent's minus the player's, mobility as
    the tie-break."""
    p0, m0 = _potential(params, s, 0, 2)
    p1, m1 = _potential(params, s, 1, 2)
    v = SCALE * (p1 - p0) + (m0 - m1)
    return _clip(v if player == 0 else -v)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Cells next to stones first, then the centre (hex distance from the middle of the
    rhombus); the swap last."""
    rows, cols = params[P_ROWS], params[P_COLS]
    mid_r = (rows - 1) / 2.0
    mid_c = (cols - 1) / 2.0
    for i in range(n):
        a = moves[i]
        if a >= rows * cols:
            scores[i] = -1e6
            continue
        dr = a // cols - mid_r
        dc = a % cols - mid_c
        score = -max(abs(dr), abs(dc), abs(dr + dc))
        for k in range(6):
            z = params[P_NEIGHBOURS + 6 * a + k]
            if z < 0:
                break
            r = z // cols
            if ((s[S_BOARDS + r] | s[S_BOARDS + 3 * rows + r]) >> (z - r * cols)) & 1:
                score += 2.0
        scores[i] = score


HEURISTICS = {
    "distance": Heuristic("distance", distance, "shortest connection with own stones free, opponent's minus own",
                          symmetric=True),
    "two_distance": Heuristic("two_distance", two_distance,
                              "Queenbee's two-distance potential, opponent's minus own, mobility tie-break",
                              symmetric=True),
}
