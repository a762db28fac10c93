"""Clobber's search knowledge: mobility, counted by the pieces that can move.

Mobility is the classic evaluation term of Clobber programs (on the Computer Olympiad's
Clobber tournament, see Willemson and Winands, "MILA wins Clobber tournament", ICGA Journal
2005). In Clobber every move is a white piece next to a black one, and the same pair is a
move for both players (either piece may take the other), so the plain count of legal moves
is always equal for the two sides and says nothing. Here mobility is counted by the
*pieces* that can still move instead: a piece with no opponent's piece next to it is dead
(it can neither move nor be taken unless an opponent's piece comes next to it), while one
with several neighbours to take keeps options the opponent must spend moves to remove.

Every heuristic scores white's side (player 0) minus black's and negates it for black,
so ``h(s, 0) == -h(s, 1)``:

* ``mobility`` (the default): 10 a piece that can move (has an opponent's piece next to
  it), plus 1 a move it has beyond its first (the options a piece keeps).
* ``movable``: 1 a piece that can move, the bare count.

Measured (the Clobber class's comment on its default opponent has the figures), neither
count helps alpha-beta: a search with a constant evaluation beats it at the same depth, and
MCTS is the default opponent.

The ordering hint tries first the captures that take an opponent's piece with the most
moves of its own, and that leave the moving piece with moves afterwards.
"""

from __future__ import annotations

from zerosum.games.clobber.rules import NUM_DIRECTIONS, S_BLACK, S_TO_MOVE, S_WHITE, movers, target
from zerosum.games.kit import (
    HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, bit, helper, kernel, popcount,
)

PIECE, OPTION = 10.0, 1.0


@helper
def _side(params: Params, mine: int, theirs: int, options: float) -> float:  # pragma: no cover - compiled
    """PIECE a movable piece of ``mine``, and ``options`` a move beyond each piece's first."""
    north, east, south, west = movers(params, mine, theirs)
    pieces = popcount(north | east | south | west)
    moves = popcount(north) + popcount(east) + popcount(south) + popcount(west)
    return PIECE * pieces + options * (moves - pieces)


@kernel(HEURISTIC)
def mobility(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Movable pieces (10 each) and their extra moves (1 each), own minus the opponent's."""
    v = _side(params, s[S_WHITE], s[S_BLACK], OPTION) - _side(params, s[S_BLACK], s[S_WHITE], OPTION)
    return v if player == 0 else -v


@kernel(HEURISTIC)
def movable(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Pieces that can move, own minus the opponent's."""
    v = (_side(params, s[S_WHITE], s[S_BLACK], 0.0) - _side(params, s[S_BLACK], s[S_WHITE], 0.0)) / PIECE
    return v if player == 0 else -v


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Take the opponent's pieces with the most moves of their own first (2 a move), then
    land where more of the opponent's pieces are still next to the moving piece (1 each)."""
    p = s[S_TO_MOVE]
    mine = s[p]
    theirs = s[1 - p]
    for i in range(n):
        to = target(params, moves[i])
        victim = 0
        after = 0
        for d in range(NUM_DIRECTIONS):
            sq = target(params, to * NUM_DIRECTIONS + d)
            if sq >= 0:
                if (mine & bit(sq)) != 0:
                    victim += 1  # the victim could take this piece of mine (the mover included)
                if (theirs & bit(sq)) != 0:
                    after += 1  # the moved piece can take this one next
        scores[i] = 2.0 * victim + after


HEURISTICS = {
    "mobility": Heuristic("mobility", mobility, "movable pieces (10 each) and their extra moves, own minus opponent's",
                          symmetric=True),
    "movable": Heuristic("movable", movable, "pieces that can move, own minus the opponent's", symmetric=True),
}
