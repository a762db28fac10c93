"""Connect Four's search knowledge: window counts, Allis's odd/even threats, centre first.

Both heuristics read the windows (every line of ``x_in_row`` cells) that the rules'
params hold, and score one side minus the other by absolute player, so
``h(s, 0) == -h(s, 1)`` for every position.

* ``windows``: every window free of the opponent's discs scores 1, 3, 9, ... for 1, 2,
  3, ... own discs (3^(k-1)); the opponent's windows count against.
* ``threats``: a *threat* is an empty cell that completes a line. Following Allis (1988),
  the first player's threats on odd rows (1, 3, 5 counted from 1 at the bottom) and the
  second player's on even rows are the ones that zugzwang lets each side cash in at the
  end of the game, so they weigh most (12 against 4); a threat above an opponent's threat
  in the same column is dead (the lower one comes first) and does not count. The window
  score is added. The default: against ``windows``, alpha-beta at equal depth, 200 games
  from 100 two-ply random openings in both seats, it scored 90-69 (41 draws) at depth 2,
  98-90 at 3, 111-61 at 4, 116-66 at 5 and 119-58 at 6.

The forcing moves (what the quiescence search follows past the horizon) are the
immediate threats and blocks: a move that wins, that takes the cell where the opponent
would win, or after which the mover could win with the next disc.

Every value is clipped to +-HEURISTIC_LIMIT (it only comes into play on boards far larger
than the standard one).
"""

from __future__ import annotations

import numpy as np

from zerosum.games.connect_four.rules import (
    P_BOARD, P_BOTTOM, P_COLS, P_H, P_ODD, P_ROWS, P_WINDOW0, P_WINDOWS, P_X, S_P0, S_P1, has_line, legal,
)
from zerosum.games.kit import (
    FORCING, HEURISTIC, HEURISTIC_LIMIT, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, popcount,
)

_WEIGHT = np.array([0.0] + [3.0 ** (k - 1) for k in range(1, 10)])  # by discs in an open window
_GOOD_THREAT, _OTHER_THREAT = 12.0, 4.0  # a live threat on its owner's good rows, on the others


@helper
def _clip(v: float) -> float:  # pragma: no cover - compiled
    return min(max(v, -HEURISTIC_LIMIT), HEURISTIC_LIMIT)


@helper
def _scan(params: Params, p0: int, p1: int) -> tuple[float, int, int]:  # pragma: no cover - compiled
    """One pass over the windows: the window score of player 0 minus player 1's (open
    windows weighted by discs), and the threat cells of each (empty cells that complete a
    line)."""
    need = params[P_X] - 1
    score = 0.0
    t0 = 0
    t1 = 0
    for i in range(params[P_WINDOWS]):
        w = params[P_WINDOW0 + i]
        a = popcount(p0 & w)
        b = popcount(p1 & w)
        if b == 0 and a != 0:
            score += _WEIGHT[a]
            if a == need:
                t0 |= w & ~p0
        elif a == 0 and b != 0:
            score -= _WEIGHT[b]
            if b == need:
                t1 |= w & ~p1
    return score, t0, t1


@helper
def _above(params: Params, t: int) -> int:  # pragma: no cover - compiled
    """Every cell above a cell of ``t`` in the same column."""
    board = params[P_BOARD]
    up = (t << 1) & board
    out = 0
    for _ in range(params[P_ROWS]):
        out |= up
        up = (up << 1) & board  # the guard bit is not on the board: no carry into the next column
    return out


@helper
def _threat_score(params: Params, own: int, other: int, good: int) -> float:  # pragma: no cover - compiled
    alive = own & ~_above(params, other)
    return _GOOD_THREAT * popcount(alive & good) + _OTHER_THREAT * popcount(alive & ~good)


@kernel(HEURISTIC)
def windows(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Open windows weighted 1, 3, 9, ... by own discs, own minus the opponent's."""
    v = _scan(params, s[S_P0], s[S_P1])[0]
    return _clip(v if player == 0 else -v)


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Live threats (odd rows for player 0, even rows for player 1 weigh most) plus the
    window score, own minus the opponent's."""
    v, t0, t1 = _scan(params, s[S_P0], s[S_P1])
    odd = params[P_ODD]
    v += _threat_score(params, t0, t1, odd) - _threat_score(params, t1, t0, params[P_BOARD] & ~odd)
    return _clip(v if player == 0 else -v)


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Centre first: columns nearer the middle score higher."""
    last = params[P_COLS] - 1
    for i in range(n):
        scores[i] = -float(abs(2 * moves[i] - last))


@helper
def _wins_next(params: Params, mine: int, occupied: int) -> bool:  # pragma: no cover - compiled
    """Whether ``mine`` completes a line with one more disc in some column's lowest empty cell."""
    playable = (occupied + params[P_BOTTOM]) & params[P_BOARD]
    while playable != 0:
        cell = playable & -playable
        playable ^= cell
        if has_line(mine | cell, params[P_H], params[P_X]):
            return True
    return False


@kernel(FORCING)
def forcing(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """Immediate threats and blocks: moves that win, that block the opponent's winning
    cell, or that leave the mover a winning cell for the next disc."""
    n = legal(params, s, out)
    occupied = s[S_P0] | s[S_P1]
    p = popcount(occupied) & 1
    mine = s[p]
    theirs = s[1 - p]
    h = params[P_H]
    m = 0
    for i in range(n):
        c = out[i]
        column = ((1 << params[P_ROWS]) - 1) << (c * h)
        disc = (occupied + (1 << (c * h))) & column
        if (has_line(mine | disc, h, params[P_X]) or has_line(theirs | disc, h, params[P_X])
                or _wins_next(params, mine | disc, occupied | disc)):
            out[m] = c
            m += 1
    return m


HEURISTICS = {
    "windows": Heuristic("windows", windows, "open windows weighted 1/3/9 by discs, own minus opponent's",
                         symmetric=True),
    "threats": Heuristic("threats", threats, "live threats, odd/even rows by player (Allis), plus window counts",
                         symmetric=True),
}
