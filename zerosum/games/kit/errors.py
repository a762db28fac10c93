"""The errors zerosum raises on purpose: one base class, each a ValueError where a value was wrong."""

from __future__ import annotations


class ZerosumError(Exception):
    """Base class of every error zerosum raises on purpose."""


class IllegalActionError(ZerosumError, ValueError):
    """An action that is not legal in the position (or not an action at all)."""


class GameOverError(ZerosumError, ValueError):
    """A move was asked of a finished game."""


class VariantError(ZerosumError, ValueError):
    """An unknown rule variant, or a variant value outside what is allowed."""


class PositionError(ZerosumError, ValueError):
    """A position given to ``game.position(...)`` that cannot arise or cannot be read."""


class KernelError(ZerosumError, TypeError, ValueError):
    """A game declaration with a missing kernel or a kernel of the wrong signature."""


class GameLengthError(ZerosumError, RuntimeError):
    """A game went on past its declared ``max_game_length``: rules that never end a game
    (an arithmetic ``>>`` on a board that uses bit 63 is a usual cause), or a bound that
    is too small. Raised by the env's step, ``Game.random_playouts`` and MCTS."""
