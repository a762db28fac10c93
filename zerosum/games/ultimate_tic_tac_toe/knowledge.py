"""Ultimate tic-tac-toe's search knowledge: won small boards and line threats.

The evaluations that ultimate tic-tac-toe programs use are built from the same few
features, at two scales: small boards won, weighted by their place in the big board
(the centre lies on four lines, a corner on three, an edge on two), and *threats*, lines
with two of a player's marks and the third still open, in the big board (two won boards)
and in each small board still in play (two marks). Every heuristic scores player 0's
side minus player 1's and negates it for player 1, so ``h(s, 0) == -h(s, 1)``:

* ``boards``: 100 a won small board.
* ``threats`` (the default): a won small board 100 + 10 a line through its place; a big-
  board threat (two won boards in a line whose third board is still open) 150; a small-
  board threat (two marks in a line of an unfinished board, the third cell empty) 10; a
  mark in the centre cell of an unfinished board 3.

A line is *open* for a player while it holds no board won by the opponent and no drawn
(full, unwon) board, which counts for nobody.

The ordering hint tries first the cells that win a small board, then those that block
the opponent's threat, then the centre and the corners, and last the cells that send the
opponent to a finished board (a free choice) or to a board where it has a threat.
"""

from __future__ import annotations

from zerosum.games.kit import (
    HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, helper, kernel, popcount,
)
from zerosum.games.ultimate_tic_tac_toe.rules import FREE, LINES, S_FINISHED, S_FORCED, S_TO_MOVE, S_WON, marks

WON, PLACE, BIG_THREAT, SMALL_THREAT, CENTRE = 100.0, 10.0, 150.0, 10.0, 3.0
_LINES_THROUGH = (3, 2, 3, 2, 4, 2, 3, 2, 3)
"""How many lines of a 3x3 board pass through each square."""


@helper
def twos(mine: int, blocked: int) -> int:  # pragma: no cover - compiled
    """Lines holding exactly two of ``mine`` (9-bit masks) and nothing of ``blocked`` in the third square."""
    n = 0
    for line in LINES:
        if popcount(mine & line) == 2 and (blocked & line) == 0:
            n += 1
    return n


@helper
def _side(s: State, p: int) -> float:  # pragma: no cover - compiled
    """Player ``p``'s score: won boards by place, big- and small-board threats, centres."""
    won = s[S_WON + p]
    finished = s[S_FINISHED]
    lost = s[S_WON + 1 - p] | (finished & ~won)  # boards p can no longer count: the opponent's and the drawn
    v = 0.0
    for b in range(9):
        if (won >> b) & 1:
            v += WON + PLACE * _LINES_THROUGH[b]
        elif not (finished >> b) & 1:
            mine = marks(s, b, p)
            v += SMALL_THREAT * twos(mine, marks(s, b, 1 - p))
            v += CENTRE * ((mine >> 4) & 1)
    return v + BIG_THREAT * twos(won, lost)


@kernel(HEURISTIC)
def boards(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """100 a won small board, own minus the opponent's."""
    v = WON * (popcount(s[S_WON]) - popcount(s[S_WON + 1]))
    return v if player == 0 else -v


@kernel(HEURISTIC)
def threats(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Won boards by place, big- and small-board threats and centre cells, own minus the opponent's."""
    v = _side(s, 0) - _side(s, 1)
    return v if player == 0 else -v


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Board-winning cells, blocks, centre and corners first; cells that give the opponent a
    free choice or a board where it has a threat last. A board choice: the boards where the
    mover has the most threats first."""
    p = s[S_TO_MOVE]
    f = s[S_FORCED]
    for i in range(n):
        a = moves[i]
        if f == FREE:
            scores[i] = float(twos(marks(s, a, p), marks(s, a, 1 - p)) - twos(marks(s, a, 1 - p), marks(s, a, p)))
            continue
        mine, theirs = marks(s, f, p), marks(s, f, 1 - p)
        bit = 1 << a
        score = float(_LINES_THROUGH[a])
        for line in LINES:
            if (line & bit) != 0:
                if popcount(mine & line) == 2:
                    score += 100.0  # completes a line: wins the board
                elif popcount(theirs & line) == 2:
                    score += 50.0  # blocks the opponent's line
        if a != f and ((s[S_FINISHED] >> a) & 1) != 0:
            score -= 30.0  # the opponent will choose its board
        elif twos(marks(s, a, 1 - p), marks(s, a, p) | (bit if a == f else 0)) > 0:
            score -= 20.0  # sends the opponent to a board where it threatens to win
        scores[i] = score


HEURISTICS = {
    "boards": Heuristic("boards", boards, "won small boards, own minus the opponent's", symmetric=True),
    "threats": Heuristic("threats", threats,
                         "won boards by place, big- and small-board threats, centres; own minus opponent's",
                         symmetric=True),
}
