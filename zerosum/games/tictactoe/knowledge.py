"""Tic-tac-toe's search knowledge: the line heuristic and a centre-corner-edge ordering."""

from __future__ import annotations

import numpy as np

from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, kernel, popcount
from zerosum.games.tictactoe.rules import LINES

# Centre first, then corners, then edges: the classic static order.
_CELL_ORDER_SCORE = np.array([2.0, 1.0, 2.0, 1.0, 3.0, 1.0, 2.0, 1.0, 2.0])


@kernel(HEURISTIC)
def lines(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Open lines: for each line free of the opponent, 1, 3 or 9 for 1, 2 or 3 own marks."""
    me = s[player]
    opp = s[1 - player]
    score = 0.0
    for m in LINES:
        a = me & m
        b = opp & m
        if b == 0 and a != 0:
            score += 3.0 ** (popcount(a) - 1)
        elif a == 0 and b != 0:
            score -= 3.0 ** (popcount(b) - 1)
    return score


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    for i in range(n):
        scores[i] = _CELL_ORDER_SCORE[moves[i]]


HEURISTICS = {"lines": Heuristic("lines", lines, "open lines weighted 1/3/9 by marks", symmetric=True)}
