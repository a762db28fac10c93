"""Breakthrough's search knowledge: material, advancement and safety, captures and runs first.

Every heuristic scores player 0's side minus player 1's and negates it for player 1, so
``h(s, 0) == -h(s, 1)`` for every position. What they count, per side (a piece's
*progress* is the number of rows it stands from its home row, 0 .. rows - 2):

* ``material``: 100 a piece.
* ``advance``: material, plus ``2 * progress**2`` a piece (a piece near the goal is worth
  more than one at home, growing faster the closer it gets: the piece-square idea of
  Lorentz and Horey, "Programming Breakthrough", CG 2013), plus 10 a piece still on the
  home row (the last line of defence those programs keep).
* ``safety``: ``advance``, plus what decides Breakthrough's tactics:

  - a piece attacked by more of the opponent's pieces than it is defended by its own
    (counted up to two each) loses ``30 + 2 * progress**2``;
  - a *runner*, a piece with no opponent piece in the cone ahead of it that could meet it
    (a piece ``j`` rows ahead within ``j`` columns), gains ``60 + 6 * progress**2``;
  - the side to move with a piece one row before its goal wins next move (every such piece
    can step or capture onto the goal row), and the side not to move with such a piece that
    the mover cannot capture, or with two of them, wins unless the mover wins first: these
    score +-5,000.

The ordering hint puts winning moves first, then captures (of the most advanced pieces
first), then moves by how far they advance. The forcing moves, which the quiescence
search follows past the horizon, are the captures and the moves onto the opponent's last
two rows.
"""

from __future__ import annotations

from zerosum.games.breakthrough.rules import (
    P_BOARD, P_BOTTOM, P_COLS, P_NOT_FIRST, P_NOT_LAST, P_ROW0, P_ROWS, P_TOP, S_P0, S_P1, S_TO_MOVE, legal, target,
)
from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel,
    popcount, shr,
)

PIECE, ADVANCE, HOME = 100.0, 2.0, 10.0
HANGING, HANGING_ADVANCE = 30.0, 2.0
RUNNER, RUNNER_ADVANCE = 60.0, 6.0
DECIDED = 5000.0


@helper
def _clip(v: float) -> float:  # pragma: no cover - compiled
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@helper
def _forward(params: Params, b: int, p: int, k: int) -> int:  # pragma: no cover - compiled
    """The squares ``k`` rows ahead of ``b`` for player ``p``, same columns (0 <= k < 64)."""
    if p == 0:
        return (b << k) & params[P_BOARD]
    return shr(b, k)


@helper
def _attacks(params: Params, b: int, p: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """The squares player ``p``'s pieces ``b`` attack (diagonally one row ahead): through
    the left neighbour's column, through the right's."""
    cols = params[P_COLS]
    left = b & params[P_NOT_FIRST]
    right = b & params[P_NOT_LAST]
    if p == 0:
        return (left << (cols - 1)) & params[P_BOARD], (right << (cols + 1)) & params[P_BOARD]
    return shr(left, cols + 1), shr(right, cols - 1)


@helper
def _widen(params: Params, b: int) -> int:  # pragma: no cover - compiled
    """``b`` with each square's left and right neighbours in its row."""
    return b | shr(b & params[P_NOT_FIRST], 1) | ((b & params[P_NOT_LAST]) << 1)


@helper
def _runners(params: Params, mine: int, theirs: int, p: int) -> int:  # pragma: no cover - compiled
    """The pieces of ``mine`` with no piece of ``theirs`` in the cone ahead (``j`` rows
    ahead, at most ``j`` columns away)."""
    cols = params[P_COLS]
    cone = 0
    f = theirs
    for _ in range(params[P_ROWS]):
        f = _widen(params, _forward(params, f, 1 - p, cols))  # one row further towards p's side
        cone |= f
        if f == 0:
            break
    return mine & ~cone


@helper
def _weighted(params: Params, b: int, p: int) -> float:  # pragma: no cover - compiled
    """Sum of progress**2 over the pieces ``b`` of player ``p``."""
    rows = params[P_ROWS]
    total = 0
    for r in range(rows):
        n = popcount(b & params[P_ROW0 + r])
        if n != 0:
            k = r if p == 0 else rows - 1 - r
            total += n * k * k
    return float(total)


@helper
def _side(params: Params, mine: int, theirs: int, p: int, safety: bool) -> float:  # pragma: no cover - compiled
    """One side's score: material and advancement, and with ``safety`` the hanging pieces
    and the runners."""
    home = params[P_TOP] if p == 0 else params[P_BOTTOM]
    v = PIECE * popcount(mine) + ADVANCE * _weighted(params, mine, p) + HOME * popcount(mine & home)
    if safety:
        a1, a2 = _attacks(params, theirs, 1 - p)
        d1, d2 = _attacks(params, mine, p)
        hanging = mine & (((a1 | a2) & ~(d1 | d2)) | (a1 & a2 & ~(d1 & d2)))
        v -= HANGING * popcount(hanging) + HANGING_ADVANCE * _weighted(params, hanging, p)
        run = _runners(params, mine, theirs, p)
        v += RUNNER * popcount(run) + RUNNER_ADVANCE * _weighted(params, run, p)
    return v


@helper
def _decided(params: Params, s: State) -> float:  # pragma: no cover - compiled
    """+-DECIDED for player 0 when a piece one row before its goal decides the game (see the
    module docstring), 0 otherwise."""
    rows = params[P_ROWS]
    p = s[S_TO_MOVE]
    before = (params[P_ROW0 + rows - 2], params[P_ROW0 + 1])  # the row before each player's goal
    sign = 1.0 if p == 0 else -1.0
    if (s[p] & before[p]) != 0:
        return sign * DECIDED
    threats = s[1 - p] & before[1 - p]
    if threats != 0:
        a1, a2 = _attacks(params, s[p], p)
        if (threats & (threats - 1)) != 0 or (threats & (a1 | a2)) == 0:
            return -sign * DECIDED
    return 0.0


@helper
def _value(params: Params, s: State, player: int, safety: bool) -> float:  # pragma: no cover - compiled
    v = _side(params, s[S_P0], s[S_P1], 0, safety) - _side(params, s[S_P1], s[S_P0], 1, safety)
    if safety:
        v += _decided(params, s)
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def material(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """100 a piece, own minus the opponent's."""
    v = PIECE * (popcount(s[S_P0]) - popcount(s[S_P1]))
    return v if player == 0 else -v


@kernel(HEURISTIC)
def advance(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Material, progress squared and the home row, own minus the opponent's."""
    return _value(params, s, player, False)


@kernel(HEURISTIC)
def safety(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """``advance`` plus hanging pieces, runners and decided races, own minus the opponent's."""
    return _value(params, s, player, True)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """Winning moves, then captures (the most advanced victim first), then by advance."""
    rows, cols = params[P_ROWS], params[P_COLS]
    p = s[S_TO_MOVE]
    for i in range(n):
        a = moves[i]
        to = target(params, a)
        row = to // cols
        k = row if p == 0 else rows - 1 - row  # the mover's progress after the move
        score = float(k)
        if k == rows - 1:
            score += 1000.0
        elif (a & 1) == 1:
            score += 100.0 + (rows - 1 - k)  # the victim's own progress
        scores[i] = score


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """Captures and moves onto the opponent's last two rows, ascending."""
    n = legal(params, s, out)
    if n == 0:
        return 0
    rows, cols = params[P_ROWS], params[P_COLS]
    p = s[S_TO_MOVE]
    m = 0
    for i in range(n):
        a = out[i]
        row = target(params, a) // cols
        k = row if p == 0 else rows - 1 - row
        if (a & 1) == 1 or k >= rows - 2:
            out[m] = a
            m += 1
    return m


HEURISTICS = {
    "material": Heuristic("material", material, "100 a piece, own minus the opponent's", symmetric=True),
    "advance": Heuristic("advance", advance, "material + 2 * progress squared + the home row, own minus opponent's",
                         symmetric=True),
    "safety": Heuristic("safety", safety, "advance + hanging pieces, runners and races decided one row from the goal",
                        symmetric=True),
}
