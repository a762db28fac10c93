"""Nine Men's Morris's search knowledge: four heuristics and the ordering hint.

Every heuristic is from ``player``'s point of view and counts a removal due as done; each
is antisymmetric (h(s, 0) == -h(s, 1) for every position).
"""

from __future__ import annotations

from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, popcount
from zerosum.games.nine_mens_morris.rules import closes_mill, men
from zerosum.games.nine_mens_morris.tables import (
    ADJ, FULL, MILLS, MILLS_OF, MOVE_BASE, NUM_POINTS, S_MEN, S_REMOVAL, S_TO_MOVE,
)


@helper
def _material(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Men difference; a removal due counts as the opponent's man already gone."""
    v = float(men(params, s, player) - men(params, s, 1 - player))
    if s[S_REMOVAL] != 0:
        v += 1.0 if s[S_TO_MOVE] == player else -1.0
    return v


@helper
def _mills_of(board: int, other: int) -> int:  # pragma: no cover - compiled
    """Closed mills of board."""
    n = 0
    for m in MILLS:
        if board & m == m:
            n += 1
    return n


@helper
def _open_twos(board: int, other: int) -> int:  # pragma: no cover - compiled
    """Mill lines holding two of board's men and an empty third point."""
    n = 0
    for m in MILLS:
        if other & m == 0 and popcount(board & m) == 2:
            n += 1
    return n


@helper
def _mobility(board: int, other: int) -> int:  # pragma: no cover - compiled
    """(man, adjacent empty point) pairs: the moves of the moving phase."""
    empty = FULL & ~(board | other)
    n = 0
    for p in range(NUM_POINTS):
        if (board >> p) & 1:
            n += popcount(ADJ[p] & empty)
    return n


@kernel(HEURISTIC)
def men_count(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Men (on the board and in hand) minus the opponent's; a removal due counts as done."""
    return _material(params, s, player)


@kernel(HEURISTIC)
def men_mills(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 per man of difference, plus 1 per closed mill of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + float(_mills_of(a, b) - _mills_of(b, a))


@kernel(HEURISTIC)
def men_mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 per man of difference, plus 1 per adjacent move of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + float(_mobility(a, b) - _mobility(b, a))


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """10 per man of difference, plus 3 per open two-in-a-row of difference."""
    a = s[S_MEN + player]
    b = s[S_MEN + 1 - player]
    return 10.0 * _material(params, s, player) + 3.0 * float(_open_twos(a, b) - _open_twos(b, a))


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Mill-closing moves 2, mill-blocking moves +1; removals: men in an open two first."""
    me = s[S_TO_MOVE]
    own = s[S_MEN + me]
    opp = s[S_MEN + 1 - me]
    empty = FULL & ~(own | opp)
    for i in range(n):
        a = moves[i]
        score = 0.0
        if s[S_REMOVAL] != 0:
            for j in range(2):
                m = MILLS_OF[a, j]
                if popcount(opp & m) == 2 and (m & empty) != 0:
                    score = 1.0
        else:
            if a < MOVE_BASE:
                q = a
                board = own | (1 << q)
            else:
                q = (a - MOVE_BASE) % NUM_POINTS
                board = own ^ ((1 << ((a - MOVE_BASE) // NUM_POINTS)) | (1 << q))
            if closes_mill(board, q):
                score += 2.0
            for j in range(2):
                other = MILLS_OF[q, j] & ~(1 << q)
                if opp & other == other:
                    score += 1.0
                    break
        scores[i] = score


HEURISTICS = {
    "men": Heuristic("men", men_count, "men on the board and in hand, own minus the opponent's", symmetric=True),
    "men_mills": Heuristic("men_mills", men_mills, "10 x men difference + closed mills difference", symmetric=True),
    "men_mobility": Heuristic("men_mobility", men_mobility, "10 x men difference + adjacent-move difference",
                              symmetric=True),
    "threats": Heuristic("threats", threats, "10 x men difference + 3 x open two-in-a-row difference",
                         symmetric=True),
}
