"""Nim.

Piles of objects; a move takes 1..n objects from one pile. Normal play by default (the
player who takes the last object wins); ``misere=True`` for the other convention
(OpenSpiel's default). Perfect play: the player to move loses exactly when the XOR of the
piles (the nim-sum) is 0; in misere play the same holds unless every pile has at most one
object, in which case the mover loses exactly when the number of piles of one is odd.

Actions, with ``m = max(piles)`` (default piles (1, 3, 5, 7), so m = 7)::

    action = pile * m + (taken - 1)

    pile 0:  0   1   2  ...  m-1      take 1, 2, 3, ..., m from pile 0
    pile 1:  m  m+1 m+2 ... 2m-1      take 1, 2, 3, ..., m from pile 1
    ...

Readable names: ``p2x3`` = take 3 from pile 2 (piles counted from 0). State vector:
``[player_to_move, pile_0, ..., pile_k-1]``. Observation (k, m, 2): plane 0 has row i
filled with pile i's objects (cell j is 1 when pile i holds more than j), plane 1 is all
ones when the observer is to move.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zerosum.games.base import (
    APPLY, DRAW, HEURISTIC, KEY, LEGAL, OBSERVE, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER,
    STATUS, Game, Heuristic, IllegalActionError, Kernels, State, VariantError, kernel,
)

# params: [misere, num_piles, max_take]


@kernel(PLAYER)
def _player(params, s):
    return s[0]


@kernel(STATUS)
def _status(params, s):
    for i in range(params[1]):
        if s[1 + i] > 0:
            return ONGOING
    # Game over: in normal play the player who just moved (not the mover) took the last one.
    mover_wins = params[0] == 1
    winner = s[0] if mover_wins else 1 - s[0]
    return P0_WINS if winner == 0 else P1_WINS


@kernel(LEGAL)
def _legal(params, s, out):
    m = params[2]
    n = 0
    for i in range(params[1]):
        for t in range(s[1 + i]):
            out[n] = i * m + t
            n += 1
    return n


@kernel(APPLY)
def _apply(params, s, a, child):
    m = params[2]
    for i in range(s.shape[0]):
        child[i] = s[i]
    child[1 + a // m] -= a % m + 1
    child[0] = 1 - s[0]


@kernel(KEY)
def _key(params, s):
    h = s[0]
    for i in range(params[1]):
        h = h * 1000003 + s[1 + i]
    return h


@kernel(OBSERVE)
def _observe(params, s, player, out):
    m = params[2]
    mover = 1 if s[0] == player else 0
    for i in range(params[1]):
        for j in range(m):
            k = 2 * (i * m + j)
            out[k] = 1 if s[1 + i] > j else 0
            out[k + 1] = mover


@kernel(HEURISTIC)
def nim_sum(params, s, player):
    """Exact value from the nim-sum: +1 if the side to move (from player's view) wins, else -1."""
    x = 0
    big = 0
    ones = 0
    for i in range(params[1]):
        p = s[1 + i]
        x ^= p
        if p > 1:
            big += 1
        elif p == 1:
            ones += 1
    if params[0] == 1 and big == 0:
        mover_wins = ones % 2 == 0
    else:
        mover_wins = x != 0
    v = 1.0 if mover_wins else -1.0
    return v if s[0] == player else -v


@kernel(ORDER)
def _order(params, s, moves, n, scores):
    # Moves that reach nim-sum 0 first (normal-play rule; a hint only).
    m = params[2]
    x = 0
    for i in range(params[1]):
        x ^= s[1 + i]
    for k in range(n):
        a = moves[k]
        i = a // m
        rest = s[1 + i] - (a % m + 1)
        scores[k] = 1.0 if (x ^ s[1 + i] ^ rest) == 0 else 0.0


KERNELS = Kernels(legal=_legal, apply=_apply, status=_status, player=_player, key=_key,
                  observe=_observe, order=_order)


class Nim(Game):
    """Nim with any piles; ``misere`` selects the convention."""

    def __init__(self, piles: Sequence[int] = (1, 3, 5, 7), misere: bool = False) -> None:
        if isinstance(piles, (str, bytes)) or not isinstance(piles, Sequence):
            raise VariantError(f"piles={piles!r} is not allowed: a sequence of 1 to 16 ints, each 1..1000")
        piles = tuple(piles)
        if not 1 <= len(piles) <= 16 or not all(
            isinstance(p, (int, np.integer)) and not isinstance(p, bool) and 1 <= p <= 1000 for p in piles
        ):
            raise VariantError(f"piles={piles!r} is not allowed: a sequence of 1 to 16 ints, each 1..1000")
        if not isinstance(misere, (bool, np.bool_)):
            raise VariantError(f"misere={misere!r} is not allowed: True or False")
        k, m = len(piles), max(piles)
        super().__init__(
            name="nim", kernels=KERNELS, params=np.array([int(misere), k, m], np.int64),
            initial=np.array([0, *piles], np.int64), num_actions=k * m, max_moves=k * m,
            max_game_length=sum(piles), observation_shape=(k, m, 2),
            variant={"piles": piles, "misere": bool(misere)},
            heuristics={"nim_sum": Heuristic("nim_sum", nim_sum, "exact: +1/-1 from the nim-sum")},
            default_heuristic="nim_sum",
        )
        self.piles = piles
        self._m = m

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``p2x3``: take 3 objects from pile 2."""
        return f"p{action // self._m}x{action % self._m + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``p2x3`` (take 3 from pile 2), ``2 3`` or a bare action index."""
        t = text.strip().lower().replace("x", " ").replace("p", " ").split()
        try:
            nums = [int(x) for x in t]
        except ValueError:
            nums = []
        if len(nums) == 1 and 0 <= nums[0] < self.num_actions:
            return nums[0]
        if len(nums) == 2 and 0 <= nums[0] < len(self.piles) and 1 <= nums[1] <= self._m:
            return nums[0] * self._m + nums[1] - 1
        raise IllegalActionError(
            f"cannot read move {text!r}: write 'p<pile>x<count>' such as 'p2x3' "
            f"(piles 0-{len(self.piles) - 1}, count 1-{self._m})"
        )

    def render(self, state: State) -> str:
        """One line per pile, with the player to move."""
        rows = [f"pile {i}: {'|' * int(p):<{self._m}} ({int(p)})" for i, p in enumerate(state[1:])]
        return "\n".join(rows + [f"to move: player {int(state[0])}"])
