"""Nim's search knowledge: the exact nim-sum evaluation and a move-to-safety ordering."""

from __future__ import annotations

from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, kernel
from zerosum.games.nim.rules import P_MAX_TAKE, P_MISERE, P_PILES


@kernel(HEURISTIC)
def nim_sum(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """Exact value from the nim-sum: +1 if the side to move (from player's view) wins, else -1."""
    x = 0
    big = 0
    ones = 0
    for i in range(params[P_PILES]):
        p = s[1 + i]
        x ^= p
        if p > 1:
            big += 1
        elif p == 1:
            ones += 1
    if params[P_MISERE] == 1 and big == 0:
        mover_wins = ones % 2 == 0
    else:
        mover_wins = x != 0
    v = 1.0 if mover_wins else -1.0
    return v if s[0] == player else -v


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """Moves that reach nim-sum 0 first (the normal-play rule; a hint only)."""
    m = params[P_MAX_TAKE]
    x = 0
    for i in range(params[P_PILES]):
        x ^= s[1 + i]
    for k in range(n):
        a = moves[k]
        i = a // m
        rest = s[1 + i] - (a % m + 1)
        scores[k] = 1.0 if (x ^ s[1 + i] ^ rest) == 0 else 0.0


HEURISTICS = {"nim_sum": Heuristic("nim_sum", nim_sum, "exact: +1/-1 from the nim-sum", symmetric=True)}
