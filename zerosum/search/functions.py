"""Handing heuristics to the compiled search as first-class functions.

The compiled searches (specialised per game by :mod:`zerosum.search.compiled`) take the
heuristic as a numba first-class function of a fixed signature, so one cached
compilation serves every heuristic. This module turns a compiled heuristic into such a
function value once (numba would otherwise redo that work on every call, ~25 us), and
wraps plain Python heuristics so they run inside the same compiled search (through an
object-mode call, ~1 us each), with identical results for identical values.

How to write a heuristic
------------------------
A heuristic scores a position from ``player``'s point of view (larger is better for
``player``) and must stay within +-10,000 (wins score 1,000,000 - ply)::

    from zerosum.games.kit import HEURISTIC, kernel

    @kernel(HEURISTIC)                          # compiled: full speed
    def corners(params, state, player):
        ...                                     # state is the game's int64 vector

    def corners_py(params, state, player):     # plain Python: works, slower
        return float(...)

Pass either as ``heuristic=`` to a search or agent, or wrap it in
``zerosum.games.Heuristic(name, fn)``. Each game module documents its state vector.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit, objmode
from numba.core import types
from numba.core.types.function_type import WrapperAddressProtocol
from numba.core.typing.typeof import typeof_impl
from numba.experimental.function_type import _get_wrapper_address

from zerosum.games.kit import HEURISTIC, Game, Heuristic, Params, State

HeuristicArg = str | Heuristic | Callable[..., float] | None
"""What a search takes as its heuristic: a built-in's name, a Heuristic, a Python callable
``fn(params, state, player) -> float``, or None for the game's default."""


class FunctionRef(WrapperAddressProtocol):
    """A compiled function's address with its signature, resolved once."""

    def __init__(self, dispatcher: Any, signature: Any) -> None:
        self._address: int = _get_wrapper_address(dispatcher, signature)  # type: ignore[no-untyped-call]  # numba's
        self._signature = signature
        self.dispatcher = dispatcher
        self.numba_type = types.FunctionType(signature)

    def __wrapper_address__(self) -> int:
        return self._address

    def signature(self) -> Any:
        return self._signature


@typeof_impl.register(FunctionRef)
def _typeof_ref(val: FunctionRef, c: Any) -> Any:
    # numba would rebuild the FunctionType on every call (~25 us); the type never changes.
    return val.numba_type


_REFS: dict[tuple[int, Any], FunctionRef] = {}
_PY_HEURISTICS: dict[int, tuple[Callable[..., float], Any]] = {}


def ref(dispatcher: Any, signature: Any) -> FunctionRef:
    """The (cached) first-class function value of a compiled kernel."""
    k = (id(dispatcher), signature)
    r = _REFS.get(k)
    if r is None or r.dispatcher is not dispatcher:
        r = _REFS[k] = FunctionRef(dispatcher, signature)
    return r


def _wrap_python(fn: Callable[..., float]) -> Any:
    """Compile a bridge that calls a Python heuristic from compiled code."""

    @njit(HEURISTIC)
    def bridge(params: Params, state: State, player: int) -> float:  # pragma: no cover - compiled
        with objmode(v="float64"):
            v = float(fn(params, state, player))
        return v

    return bridge


def resolve_heuristic(game: Game, heuristic: HeuristicArg) -> Heuristic:
    """A Heuristic from a name (the game's built-ins), a Heuristic, or a callable."""
    if heuristic is None or isinstance(heuristic, str):
        return game.heuristic(heuristic)
    if isinstance(heuristic, Heuristic):
        return heuristic
    if callable(heuristic):
        return Heuristic(getattr(heuristic, "__name__", "custom"), heuristic)
    raise TypeError(f"heuristic must be a name, a Heuristic or a callable; got {heuristic!r}")


def heuristic_ref(h: Heuristic) -> FunctionRef:
    """The heuristic as a function value for compiled search (bridged if plain Python)."""
    if h.compiled:
        return ref(h.fn, HEURISTIC)
    entry = _PY_HEURISTICS.get(id(h.fn))
    if entry is None or entry[0] is not h.fn:
        entry = _PY_HEURISTICS[id(h.fn)] = (h.fn, _wrap_python(h.fn))
    return ref(entry[1], HEURISTIC)
