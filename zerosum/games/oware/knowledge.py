"""Oware's search knowledge: the store difference and the seeds in play, and captures first.

* ``store_difference``: own score minus the opponent's, the evaluation of the Awari
  programs that solved and nearly solved the game (Romein and Bal, *Solving Awari with
  parallel retrograde analysis*, IEEE Computer 2003; van der Goot's and Lincke's engines
  before them use it as their base).
* ``seeds_in_play``: the store difference plus a quarter of the difference of the seeds
  in each row: seeds in one's row are moves in hand (mobility, the means to feed and
  not be starved) and are one's own when the game ends by a repetition or by a player
  who cannot move; the opponent can still capture them, so they count a quarter.

Both are ``SCALE`` a seed, and ``h(s, 0) == -h(s, 1)``.
"""

from __future__ import annotations

from zerosum.games.kit import HEURISTIC, ORDER, F64Array, Heuristic, I64Array, Params, State, kernel
from zerosum.games.oware.rules import P_HOUSES, S_HOUSES, S_SCORE, S_TO_MOVE, row_seeds

SCALE = 100.0
"""The value of one captured seed."""


@kernel(HEURISTIC)
def store_difference(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """SCALE times (own score - opponent's score)."""
    return SCALE * float(s[S_SCORE + player] - s[S_SCORE + 1 - player])


@kernel(HEURISTIC)
def seeds_in_play(params: Params, s: State, player: int) -> float:  # pragma: no cover - compiled
    """SCALE times (the score difference + a quarter of the difference of the seeds in each row)."""
    houses = params[P_HOUSES]
    rows = row_seeds(s, houses, player) - row_seeds(s, houses, 1 - player)
    return SCALE * (float(s[S_SCORE + player] - s[S_SCORE + 1 - player]) + 0.25 * float(rows))


@kernel(ORDER)
def order(params: Params, s: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover - compiled
    """A move whose last seed makes 2 or 3 in the opponent's row first (a capture, unless a
    grand slam), by the seeds it takes there; a hint only. The k-th seed sown from a house
    lands k + (k - 1) // (2H - 1) houses further on (the emptied house is skipped)."""
    houses = params[P_HOUSES]
    ring = 2 * houses
    p = s[S_TO_MOVE]
    for k in range(n):
        house = p * houses + moves[k]
        seeds = s[S_HOUSES + house]
        score = 0.0
        if seeds > 0 and ring > 1:
            offset = (seeds - 1) % (ring - 1) + 1          # the last house, from the one sown
            last = (house + offset) % ring
            after = s[S_HOUSES + last] + (seeds - offset) // (ring - 1) + 1
            if last // houses != p and 2 <= after <= 3:
                score = float(after)
        scores[k] = score


HEURISTICS = {
    "store_difference": Heuristic("store_difference", store_difference, "own score minus the opponent's",
                                  symmetric=True),
    "seeds_in_play": Heuristic("seeds_in_play", seeds_in_play,
                               "the score difference plus a quarter of the difference of the seeds in each row",
                               symmetric=True),
}
