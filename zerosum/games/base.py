"""The Game protocol and the compiled-kernel convention every game follows.

A game's rules are written once, as numba kernels over a small ``int64`` state vector.
The Python API below, the PettingZoo environments and the compiled search all call the
same kernels, so there is one source of truth for each game's rules.

Kernel signatures (all compiled with ``@kernel(SIGNATURE)``, cached on disk)::

    legal(params, state, out) -> n          writes the n legal actions, ascending, into out
    apply(params, state, action, child)     writes the successor of state into child
    status(params, state) -> Status code    ONGOING, P0_WINS, P1_WINS or DRAW
    player(params, state) -> 0 or 1         who is to move (never assume alternation)
    key(params, state) -> int64             hash of the position for transposition tables
    observe(params, state, player, out)     observation planes, flattened, into int8 out
    heuristic(params, state, player)        float64, from player's point of view
    order(params, state, moves, n, scores)  the game's own move-ordering hint (higher first)

``params`` is an ``int64`` vector that encodes the rule variant in force. Because every
kernel of a kind has the same signature, the search is compiled once for all games and
takes the kernels as first-class functions.
"""

from __future__ import annotations

import enum
import inspect
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from llvmlite import ir
from numba import cfunc, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

Action = int
Player = int
State = np.ndarray  # 1-D int64, treated as immutable by every public function

# ---- kernel signatures --------------------------------------------------------------
_PARAMS = types.int64[::1]
_STATE = types.int64[::1]
_MOVES = types.int64[::1]

LEGAL = types.int64(_PARAMS, _STATE, _MOVES)
APPLY = types.void(_PARAMS, _STATE, types.int64, _STATE)
STATUS = types.int64(_PARAMS, _STATE)
PLAYER = types.int64(_PARAMS, _STATE)
KEY = types.int64(_PARAMS, _STATE)
OBSERVE = types.void(_PARAMS, _STATE, types.int64, types.int8[::1])
HEURISTIC = types.float64(_PARAMS, _STATE, types.int64)
ORDER = types.void(_PARAMS, _STATE, _MOVES, types.int64, types.float64[::1])


def kernel(signature: Any) -> Callable[[Callable[..., Any]], Any]:
    """Compile a rules kernel eagerly with a fixed signature and cache it on disk.

    The kernels keep the GIL: a call from Python lasts ~0.1 us, and releasing and retaking
    the GIL would add a third to that. The compiled search calls them without the Python
    wrapper, so the flag does not matter there.
    """
    return njit(signature, cache=True)


# ---- bit helpers for the kernels (each one machine instruction) ---------------------
@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (one popcnt instruction)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[0], signature.args[0], types.int64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), [ir.IntType(64)]), "llvm.ctpop.i64")
        return builder.call(fn, [v])

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a nonzero int64 (one tzcnt instruction)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[0], signature.args[0], types.int64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)]), "llvm.cttz.i64")
        return builder.call(fn, [v, ir.Constant(ir.IntType(1), 1)])

    return sig, codegen


# Status codes returned by the ``status`` kernel (plain ints inside compiled code).
ONGOING = 0
P0_WINS = 1
P1_WINS = 2
DRAW = 3


class Outcome(enum.IntEnum):
    """Result of a position, as returned by :meth:`Game.outcome`."""

    ONGOING = ONGOING
    P0_WINS = P0_WINS
    P1_WINS = P1_WINS
    DRAW = DRAW

    @property
    def winner(self) -> Player | None:
        """The winning player, or None for a draw or an unfinished game."""
        return {Outcome.P0_WINS: 0, Outcome.P1_WINS: 1}.get(self)


# ---- errors -------------------------------------------------------------------------
class ZerosumError(Exception):
    """Base class of every error zerosum raises on purpose."""


class IllegalActionError(ZerosumError, ValueError):
    """An action that is not legal in the position (or not an action at all)."""


class GameOverError(ZerosumError, ValueError):
    """A move was asked of a finished game."""


class VariantError(ZerosumError, ValueError):
    """An unknown rule variant, or a variant value outside what is allowed."""


@kernel(types.boolean(_MOVES, types.int64, types.int64))
def _contains(moves, n, action):  # pragma: no cover - compiled
    for i in range(n):
        if moves[i] == action:
            return True
    return False


def entry_point(dispatcher: Any) -> Any:
    """The machine code of a one-signature kernel, callable without numba's per-call type
    dispatch (~0.3 us saved a call). Only for arguments already of the signature's types:
    contiguous 1-D int64 arrays; anything else must go through the dispatcher."""
    try:
        return dispatcher.overloads[dispatcher.signatures[0]].entry_point
    except (AttributeError, IndexError, KeyError):  # pragma: no cover - other numba versions
        return dispatcher


_INT64 = np.dtype(np.int64)
_NP_INT64 = np.int64
_ONE_D = (8,)  # the strides of a contiguous 1-D int64 array
_empty = np.empty


def _is_plain(state: Any) -> bool:
    """True for a contiguous 1-D int64 array (what the entry points may be given)."""
    return isinstance(state, np.ndarray) and state.dtype is _INT64 and state.ndim == 1 and state.strides == _ONE_D


# ---- the Game API's hot calls ---------------------------------------------------------
# A game's legal/apply/checked-apply bodies, compiled a second time as numba cfuncs (C
# function pointers, cached on disk) and called from the C module zerosum.games._native,
# which skips numba's per-call unboxing of array arguments (~0.3 us a call; the Nine Men's
# Morris Game API is as fast as OpenSpiel's C++ only with it). The rules stay in the one
# numba body both the search and these calls use. Where the module was not built (no C
# compiler) or ZEROSUM_NATIVE=0, the same bodies are called through numba's entry points.
try:
    from zerosum.games import _native
except ImportError:  # pragma: no cover - installed without a C compiler
    _native = None

_PTR = types.CPointer(types.int64)
NATIVE_LEGAL = types.int64(_PTR, _PTR, types.int64)  # (state, out, rules) -> count
NATIVE_APPLY = types.int64(_PTR, types.int64, _PTR, types.int64)  # (state, action, child, rules) -> done


def native_kernel(signature: Any) -> Callable[[Callable[..., Any]], Any]:
    """Compile a hot-call body as a cfunc of NATIVE_LEGAL or NATIVE_APPLY (cached on disk)."""
    return cfunc(signature, cache=True)


def native_available() -> bool:
    """True when the hot calls go through zerosum.games._native (built and not switched off)."""
    return _native is not None and os.environ.get("ZEROSUM_NATIVE", "1") != "0"


class EntryPointCalls:
    """The interface of ``_native.Calls`` over numba entry points: ``legal(state)``,
    ``apply(state, action)`` and ``apply_unchecked(state, action)`` return a new array, or
    None where the input is not what the fast path takes (a 1-D int64 state of the game's
    length, an int action in range) or the action is illegal: the generic path answers then.

    ``legal``, ``apply`` and ``checked`` are dispatchers of the signatures (state, out, rules)
    -> count, (state, action, child, rules) -> done, taking a contiguous int64 vector (an
    entry point does not check what it is given: the checks here must hold) and returning
    -1 / 0 for a state of the wrong length.
    """

    def __init__(self, legal: Any, apply: Any, checked: Any, state_size: int, max_moves: int, num_actions: int,
                 rules: int) -> None:
        self._legal, self._apply, self._checked = entry_point(legal), entry_point(apply), entry_point(checked)
        self._size, self._max_moves, self._num_actions, self._rules = state_size, max_moves, num_actions, rules

    def legal(self, state: Any) -> np.ndarray | None:
        """The legal actions as a new array, or None."""
        try:
            if state.dtype is _INT64 and state.strides == _ONE_D:
                out = _empty(self._max_moves, _INT64)
                n = self._legal(state, out, self._rules)
                if 0 <= n <= self._max_moves:
                    return out[:n]
        except (AttributeError, TypeError, ValueError):
            pass
        return None

    def _call(self, fn: Any, state: Any, action: Any) -> np.ndarray | None:
        cls = action.__class__
        if (cls is not int and cls is not _NP_INT64) or not 0 <= action < self._num_actions:
            return None
        try:
            if state.dtype is _INT64 and state.strides == _ONE_D:
                child = _empty(self._size, _INT64)
                if fn(state, action, child, self._rules) > 0:
                    return child
        except (AttributeError, TypeError, ValueError, OverflowError):
            pass
        return None

    def apply(self, state: Any, action: Any) -> np.ndarray | None:
        """The successor as a new array, or None (for an illegal action too)."""
        return self._call(self._checked, state, action)

    def apply_unchecked(self, state: Any, action: Any) -> np.ndarray | None:
        """The successor as a new array, or None; the action's legality is not checked."""
        return self._call(self._apply, state, action)


def hot_calls(native: tuple[Any, Any, Any], compiled: tuple[Any, Any, Any], state_size: int, max_moves: int,
              num_actions: int, rules: int) -> Any:
    """One game's hot calls: ``native`` (cfuncs: legal, apply, checked apply) through the C
    module when it is available, else ``compiled`` (the dispatchers EntryPointCalls takes)."""
    if native_available():
        legal, apply, checked = native
        return _native.Calls(legal.address, apply.address, checked.address, state_size, max_moves, num_actions,
                             rules)
    return EntryPointCalls(*compiled, state_size, max_moves, num_actions, rules)


@kernel(ORDER)
def no_order_hint(params, state, moves, n, scores):  # pragma: no cover - compiled
    """The ordering hint of a game that has none: every move scores 0."""
    for i in range(n):
        scores[i] = 0.0


@dataclass(frozen=True)
class Heuristic:
    """A named evaluation function.

    ``fn`` is either a compiled kernel of signature :data:`HEURISTIC` (full speed inside
    the compiled search) or any Python callable ``fn(params, state, player) -> float``
    (the search then runs its slower pure-Python path, with identical results).
    """

    name: str
    fn: Callable[[np.ndarray, np.ndarray, int], float]
    doc: str = ""

    @property
    def compiled(self) -> bool:
        """True when the function is a numba kernel with the HEURISTIC signature."""
        return HEURISTIC in getattr(self.fn, "nopython_signatures", ())


@kernel(HEURISTIC)
def zero(params, state, player):  # pragma: no cover - compiled
    """Every unfinished position is worth 0: search then sees only wins, losses and draws."""
    return 0.0


ZERO = Heuristic("zero", zero, "no knowledge: every unfinished position is worth 0")
"""The game-independent heuristic every game offers under the name ``zero``."""


@dataclass(frozen=True)
class Kernels:
    """The compiled rules of one game (see the module docstring for the signatures)."""

    legal: Any
    apply: Any
    status: Any
    player: Any
    key: Any
    observe: Any
    order: Any = no_order_hint


def _check_action_type(action: Any, num_actions: int) -> int:
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(
            f"an action is an int in [0, {num_actions}); got {action!r} of type {type(action).__name__}"
        )
    a = int(action)
    if not 0 <= a < num_actions:
        raise IllegalActionError(f"action {a} is out of range: actions are ints in [0, {num_actions})")
    return a


@dataclass(eq=False)
class Game:
    """One game under one rule variant: the protocol used by envs, search, agents and evaluation.

    Subclasses set up the kernels and parameters and add the text rendering and the
    readable action names. Every method is pure: states are never modified in place.
    """

    name: str
    kernels: Kernels
    params: np.ndarray
    initial: np.ndarray
    num_actions: int
    max_moves: int
    max_game_length: int
    observation_shape: tuple[int, ...]
    variant: Mapping[str, Any]
    heuristics: dict[str, Heuristic] = field(default_factory=dict)
    default_heuristic: str = ""

    def __post_init__(self) -> None:
        self.variant = MappingProxyType(dict(self.variant))
        self.params = np.ascontiguousarray(self.params, dtype=np.int64)
        self.initial = np.ascontiguousarray(self.initial, dtype=np.int64)
        self.initial.flags.writeable = False
        self._obs_size = int(np.prod(self.observation_shape))
        self._size = int(self.initial.shape[0])
        k = self.kernels
        self._legal, self._apply, self._status = entry_point(k.legal), entry_point(k.apply), entry_point(k.status)
        self._player = entry_point(k.player)
        self._contains = entry_point(_contains)
        self._names_take_state = "state" in inspect.signature(self.action_to_string).parameters

    def _plain(self, state: Any) -> np.ndarray:
        """The state as a contiguous int64 vector of this game's length (a copy only when it
        is not one already); ValueError for anything that cannot be one."""
        if _is_plain(state) and state.shape[0] == self._size:
            return state
        arr = np.ascontiguousarray(state, dtype=np.int64)
        if arr.ndim != 1 or arr.shape[0] != self._size:
            raise ValueError(f"a {self.name} state is an int64 vector of length {self._size}; got shape {arr.shape}")
        return arr

    # ---- the protocol ---------------------------------------------------------------
    # The hot calls test inline what _plain tests (a call would cost ~50 ns more), so that
    # a state from apply goes straight to the kernels' machine code; anything else goes
    # through _plain, which converts it or raises.
    def initial_state(self) -> State:
        """The starting position."""
        return self.initial.copy()

    def current_player(self, state: State) -> Player:
        """The player to move (0 or 1)."""
        try:
            plain = state.dtype is _INT64 and state.strides == _ONE_D and len(state) == self._size
        except AttributeError:
            plain = False
        return int(self._player(self.params, state if plain else self._plain(state)))

    def legal_actions(self, state: State) -> np.ndarray:
        """The legal actions, ascending (empty in a finished game)."""
        try:
            plain = state.dtype is _INT64 and state.strides == _ONE_D and len(state) == self._size
        except AttributeError:
            plain = False
        if not plain:
            state = self._plain(state)
        out = _empty(self.max_moves, _INT64)
        return out[: self._legal(self.params, state, out)]

    def legal_mask(self, state: State) -> np.ndarray:
        """An int8 vector of length num_actions with 1 at every legal action."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_actions(state)] = 1
        return mask

    def apply(self, state: State, action: Action) -> State:
        """The position after ``action``; raises IllegalActionError for an illegal one."""
        cls = action.__class__
        a = action if (cls is int or cls is _NP_INT64) and 0 <= action < self.num_actions \
            else _check_action_type(action, self.num_actions)
        try:
            plain = state.dtype is _INT64 and state.strides == _ONE_D and len(state) == self._size
        except AttributeError:
            plain = False
        if not plain:
            state = self._plain(state)
        out = _empty(self.max_moves, _INT64)
        n = self._legal(self.params, state, out)
        if not self._contains(out, n, a):
            if self._status(self.params, state) != ONGOING:
                raise GameOverError(f"the game is over ({self.outcome(state).name}); no action is legal")
            raise IllegalActionError(
                f"action {a} ({self.action_name(a, state)}) is not legal here; legal: "
                f"{self._describe_actions(out[:n], state)}"
            )
        child = _empty(self._size, _INT64)
        self._apply(self.params, state, a, child)
        return child

    def apply_unchecked(self, state: State, action: Action) -> State:
        """``apply`` without validation, for callers that took the action from legal_actions."""
        try:
            plain = state.dtype is _INT64 and state.strides == _ONE_D and len(state) == self._size
        except AttributeError:
            plain = False
        if not plain:
            state = self._plain(state)
        child = _empty(self._size, _INT64)
        self._apply(self.params, state, action, child)
        return child

    def outcome(self, state: State) -> Outcome:
        """ONGOING, P0_WINS, P1_WINS or DRAW."""
        return Outcome(int(self._status(self.params, self._plain(state))))

    def is_terminal(self, state: State) -> bool:
        """True when the game is over."""
        try:
            plain = state.dtype is _INT64 and state.strides == _ONE_D and len(state) == self._size
        except AttributeError:
            plain = False
        return self._status(self.params, state if plain else self._plain(state)) != ONGOING

    def returns(self, state: State) -> tuple[float, float]:
        """+1/-1/0 for players 0 and 1 (0, 0 while the game goes on or for a draw)."""
        status = self._status(self.params, self._plain(state))
        if status == P0_WINS:
            return (1.0, -1.0)
        if status == P1_WINS:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def observation(self, state: State, player: Player) -> np.ndarray:
        """Observation planes (int8, shape observation_shape) from ``player``'s side."""
        out = np.zeros(self._obs_size, dtype=np.int8)
        self.kernels.observe(self.params, state, player, out)
        return out.reshape(self.observation_shape)

    def state_key(self, state: State) -> int:
        """A 64-bit hash of the position (equal positions, equal keys)."""
        return int(self.kernels.key(self.params, state))

    def heuristic(self, name: str | None = None) -> Heuristic:
        """A built-in heuristic by name (the game's default when name is None).

        ``zero`` (no knowledge: search sees only wins, losses and draws) serves every game.
        """
        key = name or self.default_heuristic
        found = self.heuristics.get(key)
        if found is not None:
            return found
        if key == ZERO.name:
            return ZERO
        raise ValueError(
            f"unknown heuristic {key!r} for {self.name}; available: {sorted({*self.heuristics, ZERO.name})}"
        )

    # ---- text -----------------------------------------------------------------------
    def render(self, state: State) -> str:
        """The position as text (the same drawing serves ansi rendering and the CLI)."""
        raise NotImplementedError

    def action_to_string(self, action: Action, state: State | None = None) -> str:
        """A readable name for an action (the inverse of string_to_action).

        ``state`` is the position the action is played in, for games whose names depend on
        it (a Nine Men's Morris point action is a placement or a removal).
        """
        raise NotImplementedError

    def action_name(self, action: Action, state: State | None = None) -> str:
        """``action_to_string``, passing the state along to games that use it."""
        if self._names_take_state:
            return self.action_to_string(action, state)
        return self.action_to_string(action)

    def string_to_action(self, text: str, state: State | None = None) -> Action:
        """Parse a readable move; raises IllegalActionError naming the accepted forms."""
        raise NotImplementedError

    def _describe_actions(self, actions: np.ndarray, state: State | None = None, limit: int = 24) -> str:
        names = [self.action_name(int(a), state) for a in actions[:limit]]
        more = f" ... ({len(actions)} in all)" if len(actions) > limit else ""
        return ", ".join(names) + more

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.variant.items())
        return f"{type(self).__name__}({args})"


def check_variant(name: str, value: Any, allowed: str, ok: bool) -> None:
    """Raise VariantError naming the variant, the value and what is allowed, unless ok."""
    if not ok:
        raise VariantError(f"{name}={value!r} is not allowed: {allowed}")
