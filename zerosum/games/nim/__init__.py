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
from typing import Any

import numpy as np

from zerosum.games.kit import (
    Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
)
from zerosum.games.nim import knowledge, rules

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)


class Nim(Game):
    """Nim with any piles; ``misere`` selects the convention."""

    name = "nim"
    kernels = KERNELS
    variants = (
        Variant("piles", "ints", (1, 3, 5, 7), "the starting piles", range=(1, 1000), length=(1, 16)),
        Variant("misere", bool, False, "misère play: the player who takes the last object loses"),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "nim_sum"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """``k`` piles, ``m`` the largest: k*m actions; a game lasts at most sum(piles) moves."""
        piles = variant["piles"]
        k, m = len(piles), max(piles)
        return Layout(params=[int(variant["misere"]), k, m], initial=[0, *piles], num_actions=k * m,
                      max_moves=k * m, max_game_length=sum(piles), observation_shape=(k, m, 2))

    @property
    def piles(self) -> tuple[int, ...]:
        """The starting piles."""
        return self.variant["piles"]  # type: ignore[no-any-return]

    @property
    def _m(self) -> int:
        return max(self.piles)

    def position(self, piles: Sequence[int], to_move: int = 0) -> State:
        """A state with these piles (one count per pile, each from 0 to the largest starting
        pile) and ``to_move`` to move; PositionError otherwise."""
        p = tuple(piles)
        if len(p) != len(self.piles) or not all(isinstance(x, (int, np.integer)) and 0 <= x <= self._m for x in p):
            raise PositionError(f"piles={piles!r}: {len(self.piles)} ints, each 0..{self._m} (the largest pile)")
        if to_move not in (0, 1):
            raise PositionError(f"to_move={to_move!r}: 0 or 1")
        return np.array([to_move, *p], dtype=np.int64)

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``p2x3``: take 3 objects from pile 2."""
        a = check_action(action, self.num_actions)
        return f"p{a // self._m}x{a % self._m + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``p2x3`` (take 3 from pile 2), ``2 3`` or a bare action index."""
        t = str(text).strip().lower().replace("x", " ").replace("p", " ").split()
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
        s = self._plain(state)
        rows = [f"pile {i}: {'|' * int(p):<{self._m}} ({int(p)})" for i, p in enumerate(s[1:])]
        return "\n".join([*rows, f"to move: player {int(s[0])}"])
