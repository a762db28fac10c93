"""Lines of Action's search knowledge: concentration, connectedness and mobility.

The evaluation terms of the strong LOA programs (Winands, van den Herik and Uiterwijk,
"An evaluation function for Lines of Action", Advances in Computer Games 10, 2003; MIA's
evaluator): a side wins by gathering its pieces into one group, so what matters is how
close together they are (*concentration*), how many of them already touch
(*connectedness*) and how freely they move (*mobility*, captures counted higher: a capture
both moves a piece and removes an opponent's, and quiet moves along an edge count less).

* concentration: the sum of the pieces' king distances to their centre of mass, less
  the least that sum can be for that many pieces (0 for a block: 8 pieces at distance 1
  around one, the next 16 at 2), divided by the pieces less one: 0 when perfectly
  gathered, larger when spread. The score is ``-concentration``.
* connectedness: the touching pairs of own pieces (sides and corners) per piece.
* mobility: legal moves, a capture 2 and a quiet move to the edge 1/2 (MIA's weights in
  spirit), per side (the opponent's as if it were to move).

Every heuristic scores black's side (player 0) minus white's and negates it for white, so
``h(s, 0) == -h(s, 1)``:

* ``combined`` (the default): 10 x concentration + 4 x connectedness + 0.5 x mobility,
  own minus the opponent's, with 0.5 for the side to move.
* ``concentration``, ``connectedness``, ``mobility``: each term alone.

The ordering hint tries captures first, then moves towards the mover's centre of mass.
"""

from __future__ import annotations

from zerosum.games.kit import (
    HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, bit, helper, i64, kernel, lowest_bit, popcount, shr,
)
from zerosum.games.lines_of_action.rules import NUM_DIRECTIONS, S_TO_MOVE, SIZE, SQUARES, reach

W_CONCENTRATION, W_CONNECTED, W_MOBILITY, TEMPO = 10.0, 4.0, 0.5, 0.5
_NOT_A = i64(0xFEFEFEFEFEFEFEFE)  # every square but column a
_NOT_H = i64(0x7F7F7F7F7F7F7F7F)  # every square but column h
_EDGE = i64(0xFF818181818181FF)  # the border squares: rows 1 and 8, columns a and h


@helper
def least_spread(n: int) -> int:  # pragma: no cover - compiled
    """The least sum of king distances to a centre that ``n`` pieces can have."""
    if n <= 1:
        return 0
    if n <= 9:
        return n - 1
    return 8 + 2 * (n - 9)


@helper
def concentration(pieces: int) -> float:  # pragma: no cover - compiled
    """How spread ``pieces`` are: the sum of king distances to their centre of mass (rounded
    to a square) less the least possible, per piece beyond the first; 0 for one group."""
    n = popcount(pieces)
    if n <= 1:
        return 0.0
    rows = 0
    cols = 0
    todo = pieces
    while todo != 0:
        sq = lowest_bit(todo)
        todo &= todo - 1
        rows += sq // SIZE
        cols += sq % SIZE
    cr = (2 * rows + n) // (2 * n)  # the centre of mass, rounded to the nearest square
    cc = (2 * cols + n) // (2 * n)
    total = 0
    todo = pieces
    while todo != 0:
        sq = lowest_bit(todo)
        todo &= todo - 1
        total += max(abs(sq // SIZE - cr), abs(sq % SIZE - cc))
    return (total - least_spread(n)) / (n - 1)


@helper
def touching_pairs(x: int) -> int:  # pragma: no cover - compiled
    """Pairs of squares of ``x`` a king's step apart."""
    return (popcount(x & shr(x, 8)) + popcount(x & shr(x, 1) & _NOT_H) + popcount(x & shr(x, 9) & _NOT_H)
            + popcount(x & shr(x, 7) & _NOT_A))


@helper
def connectedness(pieces: int) -> float:  # pragma: no cover - compiled
    """Touching pairs of ``pieces`` per piece."""
    n = popcount(pieces)
    return touching_pairs(pieces) / n if n > 0 else 0.0


@helper
def mobility_of(params: Params, mine: int, theirs: int) -> float:  # pragma: no cover - compiled
    """The moves of ``mine``: 2 a capture, 1/2 a quiet move onto the edge, 1 any other."""
    v = 0.0
    todo = mine
    while todo != 0:
        sq = lowest_bit(todo)
        todo &= todo - 1
        for d in range(NUM_DIRECTIONS):
            to = reach(params, mine, theirs, sq, d)
            if to >= 0:
                if (theirs & bit(to)) != 0:
                    v += 2.0
                elif (_EDGE & bit(to)) != 0:
                    v += 0.5
                else:
                    v += 1.0
    return v


@helper
def signed(s: State, player: int, v: float) -> float:  # pragma: no cover - compiled
    """``v`` (black's minus white's) from ``player``'s side, with the tempo of the side to move."""
    v += TEMPO if s[S_TO_MOVE] == 0 else -TEMPO
    return v if player == 0 else -v


@kernel(HEURISTIC)
def combined(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 concentration + 4 connectedness + 1/2 mobility, own minus the opponent's."""
    b, w = s[0], s[1]
    v = (W_CONCENTRATION * (concentration(w) - concentration(b)) + W_CONNECTED * (connectedness(b) - connectedness(w))
         + W_MOBILITY * (mobility_of(params, b, w) - mobility_of(params, w, b)))
    return signed(s, player, v)


@kernel(HEURISTIC)
def concentrated(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Concentration alone: the opponent's spread minus one's own."""
    return signed(s, player, W_CONCENTRATION * (concentration(s[1]) - concentration(s[0])))


@kernel(HEURISTIC)
def connected(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Connectedness alone: touching pairs per piece, own minus the opponent's."""
    return signed(s, player, W_CONNECTED * (connectedness(s[0]) - connectedness(s[1])))


@kernel(HEURISTIC)
def mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Mobility alone: weighted moves, own minus the opponent's."""
    return signed(s, player, W_MOBILITY * (mobility_of(params, s[0], s[1]) - mobility_of(params, s[1], s[0])))


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Captures first (8), then moves that end nearer the mover's centre of mass than they
    started (1 a square nearer)."""
    p = s[S_TO_MOVE]
    mine = s[p]
    count = popcount(mine)
    rows = 0
    cols = 0
    todo = mine
    while todo != 0:
        sq = lowest_bit(todo)
        todo &= todo - 1
        rows += sq // SIZE
        cols += sq % SIZE
    cr = rows // max(count, 1)
    cc = cols // max(count, 1)
    for i in range(n):
        a = moves[i]
        sq = a // (2 * SQUARES)
        to = (a // 2) % SQUARES
        before = max(abs(sq // SIZE - cr), abs(sq % SIZE - cc))
        after = max(abs(to // SIZE - cr), abs(to % SIZE - cc))
        scores[i] = 8.0 * (a % 2) + (before - after)


HEURISTICS = {
    "combined": Heuristic("combined", combined, "concentration, connectedness and mobility (Winands), own minus "
                          "opponent's", symmetric=True),
    "concentration": Heuristic("concentration", concentrated, "how gathered the pieces are around their centre of "
                               "mass, own minus opponent's", symmetric=True),
    "connectedness": Heuristic("connectedness", connected, "touching pairs of own pieces per piece, own minus "
                               "opponent's", symmetric=True),
    "mobility": Heuristic("mobility", mobility, "legal moves, captures 2 and edge moves 1/2, own minus opponent's",
                          symmetric=True),
}
