"""The errors zerosum raises on purpose: one base class, each a ValueError where a value was wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_E = TypeVar("_E", bound="ZerosumError")
_ARGS: Any = BaseException.__dict__["args"]  # the C field str(), repr() and pickle read


class ZerosumError(Exception):
    """Base class of every error zerosum raises on purpose.

    :meth:`deferred` makes one whose message is written only when it is read: an illegal
    move's message lists the legal ones by name, which costs tens of microseconds, and code
    that tries moves and catches the error (a conformance check, an agent probing a move)
    never reads it. Read or not, the message is the same text, and so are ``str``, ``repr``,
    ``args`` and a pickled copy.
    """

    _write: Callable[[], str] | None = None

    @classmethod
    def deferred(cls: type[_E], write: Callable[[], str]) -> _E:
        """An error whose message ``write()`` returns, called at most once, when first read
        (``write`` must not depend on anything the caller may change later: give it copies)."""
        error = cls()
        error._write = write
        return error

    def _written(self) -> None:
        if self._write is not None:
            write, self._write = self._write, None
            self.args = (write(),)

    @property
    def args(self) -> tuple[Any, ...]:
        """The error's arguments, as Python's ``Exception.args`` (a deferred message is written first)."""
        self._written()
        args: tuple[Any, ...] = _ARGS.__get__(self)
        return args

    @args.setter
    def args(self, value: tuple[Any, ...]) -> None:
        _ARGS.__set__(self, value)

    def __str__(self) -> str:
        self._written()
        return super().__str__()

    def __repr__(self) -> str:
        self._written()
        return super().__repr__()

    def __reduce__(self) -> Any:
        self._written()
        return super().__reduce__()


class IllegalActionError(ZerosumError, ValueError):
    """An action that is not legal in the position (or not an action at all)."""


class GameOverError(ZerosumError, ValueError):
    """A move was asked of a finished game."""


class VariantError(ZerosumError, ValueError):
    """An unknown rule variant, or a variant value outside what is allowed."""


class UnknownGameError(ZerosumError, ValueError):
    """A game name that is not registered in this process: a misspelt name, or a user's game
    whose module was not imported (``zerosum --import MODULE``)."""


class PositionError(ZerosumError, ValueError):
    """A position given to ``game.position(...)`` that cannot arise or cannot be read."""


class KernelError(ZerosumError, TypeError, ValueError):
    """A game declaration with a missing kernel or a kernel of the wrong signature."""


class GameLengthError(ZerosumError, RuntimeError):
    """A game went on past its declared ``max_game_length``: rules that never end a game
    (an arithmetic ``>>`` on a board that uses bit 63 is a usual cause), or a bound that
    is too small. Raised by the env's step, ``Game.random_playouts`` and MCTS."""


class MoveCountError(ZerosumError, RuntimeError):
    """A game's moves kernel (``legal``, ``distinct`` or ``forcing``) listed more moves than
    the game's declared ``max_moves``: the bound is too small. Raised by every caller of the
    kernels (the Game API, the searches, the environments) instead of using a short list;
    the buffers have room for it (see :mod:`zerosum.games.kit.movebuf`), so nothing is
    overwritten first."""
