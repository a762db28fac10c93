"""A tiny kit game with a forced pass and a bonus turn, for the searches' tests.

The total starts at 0; a move adds 1 (action 0) or 2 (action 1); whoever brings the total
to 8 or more wins. Player 1 facing a total of exactly 3 must pass (action 2, the only legal
move there): the total stays and player 0 moves. A move that makes the total 6 gives the
same player another move (as a Morris mill gives a removal). State ``[total, to_move,
last_mover]``; observation (1, 9, 3): plane 0 the total one-hot, plane 1 ones when the
observer is to move, plane 2 ones when the observer is player 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.games.kit import (
    APPLY, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, Game, Kernels, Layout, State, kernel,
)

TARGET, PASS, BONUS = 8, 2, 6


@kernel(LEGAL)
def legal(params, s, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    if s[0] >= TARGET:
        return 0
    if s[0] == 3 and s[1] == 1:
        out[0] = PASS
        return 1
    out[0] = 0
    out[1] = 1
    return 2


@kernel(APPLY)
def apply(params, s, a, child):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    child[2] = s[1]
    if a == PASS:
        child[0], child[1] = s[0], 1 - s[1]
        return
    child[0] = s[0] + a + 1
    child[1] = s[1] if child[0] == BONUS else 1 - s[1]


@kernel(STATUS)
def status(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    if s[0] < TARGET:
        return ONGOING
    return P0_WINS if s[2] == 0 else P1_WINS


@kernel(PLAYER)
def player(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return s[1]


@kernel(KEY)
def key(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return s[0] * 4 + s[1] * 2 + s[2]


@kernel(OBSERVE)
def observe(params, s, p, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = 0
    out[3 * min(s[0], TARGET)] = 1
    for col in range(TARGET + 1):
        out[3 * col + 1] = 1 if s[1] == p else 0
        out[3 * col + 2] = 1 if p == 1 else 0


KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe)


class Bonus(Game):
    """The bonus-turn game above."""

    name = "bonus_test"
    kernels = KERNELS

    def layout(self, variant: dict[str, Any]) -> Layout:
        """No variants: params unused."""
        return Layout(params=[0], initial=[0, 0, 1], num_actions=3, max_moves=2, max_game_length=TARGET + 1,
                      observation_shape=(1, TARGET + 1, 3))

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``+1``, ``+2`` or ``pass``."""
        return ("+1", "+2", "pass")[int(action)]

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """The inverse of action_to_string."""
        return ("+1", "+2", "pass").index(text)

    def render(self, state: State) -> str:
        """The total and who moves."""
        return f"total {state[0]}, player {state[1]} to move"

    def position(self, total: int, to_move: int) -> State:
        """A state from the total and the player to move."""
        return np.array([total, to_move, 1 - to_move], np.int64)
