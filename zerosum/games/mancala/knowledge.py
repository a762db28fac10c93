"""Kalah's search knowledge: the store difference and the seeds in play, and an ordering
that tries extra turns and captures first.

* ``store_difference``: own store minus the opponent's, the evaluation of the Kalah
  solvers (Irving, Donkers and Uiterwijk, *Solving Kalah*, ICGA Journal 2000) and the
  heuristic "H4 - H6" of Divilly, O'Riordan and Hill (*Exploration and analysis of the
  evolution of strategies for Mancala variants*, IEEE CIG 2013).
* ``seeds_in_play``: the store difference plus half the difference of the seeds on each
  side (their "H2": the seeds on a side go to its owner when the game ends, but the
  opponent can still capture or be fed them, so they count half).

Both are ``SCALE`` a seed, and ``h(s, 0) == -h(s, 1)``.
"""

from __future__ import annotations

from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, kernel
from zerosum.games.mancala.rules import P_PITS, S_BOARD, S_TO_MOVE, first_pit, side_seeds, store

SCALE = 100.0
"""The value of one seed in a store."""


@kernel(HEURISTIC)
def store_difference(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """SCALE times (own store - opponent's store)."""
    pits = params[P_PITS]
    return SCALE * float(s[S_BOARD + store(pits, player)] - s[S_BOARD + store(pits, 1 - player)])


@kernel(HEURISTIC)
def seeds_in_play(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """SCALE times (the store difference + half the difference of the seeds on each side)."""
    pits = params[P_PITS]
    stores = s[S_BOARD + store(pits, player)] - s[S_BOARD + store(pits, 1 - player)]
    sides = side_seeds(s, pits, player) - side_seeds(s, pits, 1 - player)
    return SCALE * (float(stores) + 0.5 * float(sides))


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """A move whose last seed lands in the mover's store (it moves again) first, then one
    whose last seed lands in an empty pit of its own (a capture when the opposite pit
    holds seeds), each by the seeds it wins; a hint only."""
    pits = params[P_PITS]
    total = 2 * (pits + 1)
    p = s[S_TO_MOVE]
    home = store(pits, p)
    first = first_pit(pits, p)
    skip = store(pits, 1 - p)
    for k in range(n):
        pit = moves[k]
        seeds = s[S_BOARD + pit]
        last = pit
        for _ in range(seeds):
            last = (last + 1) % total
            if last == skip:
                last += 1
        score = 0.0
        if last == home:
            score = 2.0
        elif seeds < total - 1 and first <= last < first + pits and s[S_BOARD + last] == 0:
            score = 1.0 + 0.01 * float(s[S_BOARD + total - last])
        scores[k] = score


HEURISTICS = {
    "store_difference": Heuristic("store_difference", store_difference, "own store minus the opponent's",
                                  symmetric=True),
    "seeds_in_play": Heuristic("seeds_in_play", seeds_in_play,
                               "the store difference plus half the difference of the seeds on each side",
                               symmetric=True),
}
