"""A kit game whose move lists grow, declared with a ``max_moves`` that may be too small: the
deliberately wrong game of tests/games/test_max_moves_guard.py.

At ply ``k`` the player to move has ``2k + 1`` legal actions (0 .. 2k, at most 32); the game
is a draw after ``LENGTH`` plies. The ``max_moves`` variant is what the game declares: its
default, ``2 * (LENGTH - 1) + 1``, is right; ``max_moves=4`` is wrong from ply 2 on, where
5 moves are listed, so a search from the start meets the overflow below its root. The
``forcing`` kernel lists the same moves (for the quiescence search's path). State
``[ply]``; observation (1, LENGTH + 1): the ply one-hot.
"""

from __future__ import annotations

from typing import Any

from zerosum.games.kit import (
    APPLY, DRAW, FORCING, KEY, LEGAL, OBSERVE, ONGOING, PLAYER, STATUS, Game, Kernels, Layout, State, Variant,
    kernel,
)

LENGTH = 12
ACTIONS = 32


@kernel(LEGAL)
def legal(params, s, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    if s[0] >= LENGTH:
        return 0
    n = min(2 * s[0] + 1, ACTIONS)
    for i in range(n):
        out[i] = i
    return n


@kernel(APPLY)
def apply(params, s, a, child):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    child[0] = s[0] + 1


@kernel(STATUS)
def status(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return DRAW if s[0] >= LENGTH else ONGOING


@kernel(PLAYER)
def player(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return s[0] % 2


@kernel(KEY)
def key(params, s):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return s[0] * 0x9E3779B97F4A7C15


@kernel(OBSERVE)
def observe(params, s, p, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = 0
    out[min(s[0], LENGTH)] = 1


@kernel(FORCING)
def forcing(params, s, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    return legal(params, s, out)


KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe, forcing=forcing)


class Growing(Game):
    """The growing game above, with the ``max_moves`` it declares as a variant."""

    name = "growing_test"
    kernels = KERNELS
    variants = (Variant("max_moves", int, 2 * (LENGTH - 1) + 1, "the max_moves the game declares",
                        range=(1, ACTIONS)),)
    quiescence = False  # the forcing kernel is there for one test, not for every search

    def layout(self, v: dict[str, Any]) -> Layout:
        return Layout(params=[0], initial=[0], num_actions=ACTIONS, max_moves=v["max_moves"],
                      max_game_length=LENGTH, observation_shape=(1, LENGTH + 1))

    def action_to_string(self, action: int, state: State | None = None) -> str:
        return str(int(action))

    def string_to_action(self, text: str, state: State | None = None) -> int:
        return int(text)

    def render(self, state: State) -> str:
        return f"ply {int(state[0])}"

    def position(self, ply: int) -> State:  # type: ignore[override]
        return self.initial_state() * 0 + int(ply)
