"""The records a game declares and derives: its :class:`Layout` (what ``Game.layout`` returns
from a variant) and its frozen :class:`GameSpec`; and the action check every game's
methods share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.games.kit.errors import IllegalActionError


@dataclass(frozen=True)
class Layout:
    """What a game's ``layout`` derives from its variant: the params vector the kernels read,
    the starting state and the sizes. ``variant`` may normalise the variant in force (e.g. a
    default that depends on another variant)."""

    params: Sequence[int] | np.ndarray
    """The parameter vector the kernels read."""
    initial: Sequence[int] | np.ndarray
    """The starting state."""
    num_actions: int
    """How many actions there are."""
    max_moves: int
    """The most legal moves any position has."""
    max_game_length: int
    """The most plies a game can last."""
    observation_shape: tuple[int, ...]
    """The shape of an observation."""
    variant: Mapping[str, Any] | None = None
    """The variant in force when ``layout`` normalises it (None: as given)."""


@dataclass(frozen=True)
class GameSpec:
    """The frozen description of one game under one variant."""

    name: str
    """The game's registered name."""
    num_actions: int
    """How many actions there are."""
    max_moves: int
    """The most legal moves any position has."""
    state_size: int
    """The length of a state vector."""
    observation_shape: tuple[int, ...]
    """The shape of an observation."""
    max_game_length: int
    """The most plies a game can last."""
    variant: tuple[tuple[str, Any], ...]
    """The variant in force, as sorted (name, value) pairs."""


def check_action(action: Any, num_actions: int) -> int:
    """``action`` as an int in [0, num_actions); IllegalActionError naming what is allowed.

    What a ``Discrete(num_actions)`` space contains is accepted, as PettingZoo's envs accept it: a
    Python int, a numpy integer, or a 0-d integer array (a policy's ``argmax``, an action pipe's
    element). Bools, floats, strings and arrays of another shape are refused."""
    if action.__class__ is not int:  # a plain int is the common case: one comparison
        if isinstance(action, np.ndarray):
            if action.ndim != 0 or action.dtype.kind not in "iu":
                raise IllegalActionError(
                    f"an action is an int in [0, {num_actions}) or a 0-d integer array; got {action!r} "
                    f"(shape {action.shape}, dtype {action.dtype})")
        elif isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"an action is an int in [0, {num_actions}); got {action!r} of type {type(action).__name__}")
    a = int(action)
    if not 0 <= a < num_actions:
        raise IllegalActionError(f"action {a} is out of range: actions are ints in [0, {num_actions})")
    return a
