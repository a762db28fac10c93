"""The Game API's hot calls, built by the kit for every game from its kernels.

``hot_calls(game)`` returns an object with ``legal(state)``, ``apply(state, action)``,
``apply_unchecked(state, action)``, ``status(state)``, ``terminal(state)``,
``player(state)`` and ``returns(state)``; each answers in one compiled call for a
contiguous 1-D int64 state of the game's length (and an int action in range), and returns
None for anything else, or for an illegal action: the Game's generic path then converts
the input or raises the error that says what is wrong. Given a ``fallback`` (the Game),
the C module's calls answer those cases themselves, through the fallback's generic
methods, and the Game binds them as its own ``legal_actions``, ``apply``, ... (one C call
from a user's loop, no Python frame between).

Two implementations with the same answers:

* :mod:`zerosum.games._native` (a small C module with no rules in it) calling numba
  cfuncs compiled from the game's own kernels by the hot template
  (:mod:`zerosum.games.kit._hot_template`, specialised per game): ~0.1 us a call. This is
  what puts a Python loop over the Game API level with OpenSpiel's C++ through pyspiel.
  Until a game's own copy is compiled, the template's copy for every game serves it (the
  kernels called by address: :mod:`zerosum.games.kit.tiers`), so a new game's first use
  does not wait for a compile.
* numba's entry points of the kernels themselves, where the C module was not built (no C
  compiler) or ``ZEROSUM_NATIVE=0``: ~0.3 us more a call (numba unboxes each array).
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from zerosum.games.kit import generic
from zerosum.games.kit.kernels import I64Array, Kernels, Params, contains
from zerosum.games.kit.movebuf import moves_buffer
from zerosum.games.kit.specialize import specialize
from zerosum.games.kit.tiers import use_generic

_native: ModuleType | None
try:
    from zerosum.games import _native
except ImportError:  # pragma: no cover - installed without a C compiler
    _native = None

HOT_TEMPLATE = Path(__file__).with_name("_hot_template.py")
_INT64 = np.dtype(np.int64)
_NP_INT64 = np.int64
_ONE_D = (8,)  # the strides of a contiguous 1-D int64 array
_empty = np.empty


def native_available() -> bool:
    """True when the hot calls go through zerosum.games._native (built and not switched off)."""
    return _native is not None and os.environ.get("ZEROSUM_NATIVE", "1") != "0"


def compiled_rules(kernels: Kernels) -> ModuleType:
    """The hot template specialised for a game's kernels (cfuncs and random playouts)."""
    return specialize(HOT_TEMPLATE, kernels)


def entry_point(dispatcher: Any) -> Any:
    """The machine code of a one-signature kernel, callable without numba's per-call type
    dispatch (~0.3 us saved a call). Only for arguments already of the signature's types:
    contiguous 1-D int64 arrays; anything else must go through the dispatcher."""
    try:
        return dispatcher.overloads[dispatcher.signatures[0]].entry_point
    except (AttributeError, IndexError, KeyError):  # pragma: no cover - other numba versions
        return dispatcher


class HotCalls(Protocol):
    """What ``hot_calls`` returns: ``_native.Calls`` or :class:`EntryPointCalls`. Each call
    answers for a contiguous 1-D int64 state of the game's length, else None."""

    def legal(self, state: Any) -> I64Array | None: ...
    def apply(self, state: Any, action: Any) -> I64Array | None: ...
    def apply_unchecked(self, state: Any, action: Any) -> I64Array | None: ...
    def status(self, state: Any) -> int | None: ...
    def terminal(self, state: Any) -> bool | None: ...
    def player(self, state: Any) -> int | None: ...
    def returns(self, state: Any) -> tuple[float, float] | None: ...


RETURNS = ((0.0, 0.0), (1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
"""``returns`` by status code (ONGOING, P0_WINS, P1_WINS, DRAW)."""


class EntryPointCalls:
    """The interface of ``_native.Calls`` over the kernels' numba entry points."""

    def __init__(self, kernels: Kernels, params: Params, state_size: int, max_moves: int,
                 num_actions: int) -> None:
        self._legal, self._apply = entry_point(kernels.legal), entry_point(kernels.apply)
        self._status, self._player = entry_point(kernels.status), entry_point(kernels.player)
        self._is_legal = entry_point(kernels.is_legal) if kernels.is_legal is not None else None
        self._contains = entry_point(contains)
        self._params, self._size, self._max_moves, self._num_actions = params, state_size, max_moves, num_actions
        self._capacity = max(max_moves, num_actions)  # room for a kernel listing too many (kit.movebuf)
        self._moves = moves_buffer(max_moves, num_actions)

    def _plain(self, state: Any) -> bool:
        try:
            return state.dtype is _INT64 and state.strides == _ONE_D and state.shape[0] == self._size
        except (AttributeError, IndexError):
            return False

    def legal(self, state: Any) -> I64Array | None:
        """The legal actions as a new array, or None (also for more than max_moves: the Game's
        generic path raises the error)."""
        if not self._plain(state):
            return None
        out = _empty(self._capacity, _INT64)
        n = self._legal(self._params, state, out)
        return out[:n] if n <= self._max_moves else None

    def _call(self, checked: bool, state: Any, action: Any) -> I64Array | None:
        cls = action.__class__
        if (cls is not int and cls is not _NP_INT64) or not 0 <= action < self._num_actions or not self._plain(state):
            return None
        if checked:
            if self._is_legal is not None:
                if not self._is_legal(self._params, state, action):
                    return None
            elif not self._contains(self._moves, self._legal(self._params, state, self._moves), action):
                return None
        child = _empty(self._size, _INT64)
        self._apply(self._params, state, action, child)
        return child

    def apply(self, state: Any, action: Any) -> I64Array | None:
        """The successor as a new array, or None (for an illegal action too)."""
        return self._call(True, state, action)

    def apply_unchecked(self, state: Any, action: Any) -> I64Array | None:
        """The successor as a new array, or None; the action's legality is not checked."""
        return self._call(False, state, action)

    def status(self, state: Any) -> int | None:
        """The status code, or None."""
        return int(self._status(self._params, state)) if self._plain(state) else None

    def terminal(self, state: Any) -> bool | None:
        """True when the game is over, or None."""
        return self._status(self._params, state) != 0 if self._plain(state) else None

    def player(self, state: Any) -> int | None:
        """The player to move, or None."""
        return int(self._player(self._params, state)) if self._plain(state) else None

    def returns(self, state: Any) -> tuple[float, float] | None:
        """+1/-1/0 for players 0 and 1, or None."""
        return RETURNS[self._status(self._params, state)] if self._plain(state) else None


def hot_calls(kernels: Kernels, params: Params, state_size: int, max_moves: int, num_actions: int,
              fallback: Any = None, initial: I64Array | None = None) -> HotCalls:
    """One game's hot calls: through the C module when it is available (answering through
    ``fallback``'s generic methods where it cannot itself, if one is given, and copying
    ``initial`` for ``initial_state()``), else entry points."""
    if _native is not None and native_available():
        what = f"{getattr(fallback, 'name', 'the game')}'s fast calls"
        if use_generic(HOT_TEMPLATE, kernels, what):  # the copy for every game, the rules by address
            m = specialize(HOT_TEMPLATE, generic.HOT_KERNELS)
            params = generic.generic_params(kernels, params, roles=generic.RULE_ROLES)
        else:
            m = compiled_rules(kernels)
        calls: HotCalls = _native.Calls(
            m.native_legal.address, m.native_apply.address, m.native_checked.address, m.native_status.address,
            m.native_player.address, params, state_size, max_moves, num_actions, fallback, initial,
            max(max_moves, num_actions))  # each moves buffer's room (kit.movebuf)
        return calls
    return EntryPointCalls(kernels, params, state_size, max_moves, num_actions)
