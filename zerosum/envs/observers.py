"""What an environment shows each agent: the observation space and the planes.

The game computes planes from its state (``game.observation``); an observer decides how an
environment hands them over. :class:`Planes` (every env's default) gives the game's own
planes in a chosen dtype: int8, or bool where the PettingZoo env a policy comes from
declares bool (chess, as ``chess_v6``). An observer that needs the positions before the
current one (PettingZoo ``go_v5``'s eight boards of history, :class:`zerosum.envs.go_v0.GoV5Planes`)
keeps them itself: the environment calls :meth:`Observer.reset` at every reset and
:meth:`Observer.record` after every move, and the rules stay in the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from zerosum.games.kit import Game, Player, State


class Observer:
    """How an environment turns the game's state into an agent's ``observation``.

    The base class gives the game's own planes as int8 (:class:`Planes` chooses the dtype);
    a subclass overrides :meth:`space` and :meth:`observe`, and :meth:`reset` and
    :meth:`record` when it keeps a history. One observer serves one environment."""

    dtype: Any = np.int8
    """The dtype of the observation planes (int8 here)."""

    def space(self, game: Game) -> spaces.Box:
        """The ``observation`` entry's space: a Box of 0s and 1s of the game's observation shape."""
        return spaces.Box(0, 1, shape=game.observation_shape, dtype=self.dtype)

    def reset(self, game: Game, state: State) -> None:
        """A new game starts from ``state``."""

    def record(self, game: Game, state: State, mover: Player) -> None:
        """``mover`` has just moved, and ``state`` is the position after its move."""

    def observe(self, game: Game, state: State, player: Player) -> np.ndarray:
        """``player``'s observation of ``state`` (a new array the caller may keep)."""
        obs = game.observation(state, player)
        return obs if obs.dtype == self.dtype else obs.astype(self.dtype)


class Planes(Observer):
    """The game's own planes as ``dtype`` (int8 by default; ``bool`` as PettingZoo's chess and Go)."""

    def __init__(self, dtype: Any = np.int8) -> None:
        self.dtype = np.dtype(dtype)
        """The dtype of the observation planes: int8 or bool."""
        if self.dtype not in (np.dtype(np.int8), np.dtype(np.bool_)):
            raise ValueError(f"observation planes are int8 or bool; got dtype {self.dtype}")


__all__ = ["Observer", "Planes"]
