"""The kernel signatures, the status codes and the Kernels record a game declares.

A game's rules are written once, as numba kernels over a small ``int64`` state vector;
the Game API, the PettingZoo environments and the compiled search all call them, so each
game has one source of truth for its rules. The signatures are fixed::

    legal(params, state, out) -> n          writes the n legal actions, ascending, into out
    apply(params, state, action, child)     writes the successor of state into child
    status(params, state) -> Status code    ONGOING, P0_WINS, P1_WINS or DRAW
    player(params, state) -> 0 or 1         who is to move (never assume alternation)
    key(params, state) -> int64             hash of the position for transposition tables
    observe(params, state, player, out)     observation planes, flattened, into int8 out

and optional::

    order(params, state, moves, n, scores)  the game's own move-ordering hint (higher first)
    is_legal(params, state, action) -> bool whether action is legal (faster than legal + scan)
    forcing(params, state, out) -> n        writes the n forcing legal actions, ascending, into out
                                            (the moves a quiescence search follows past the horizon)
    distinct(params, state, out) -> n       writes legal actions, ascending, that reach every child
                                            the legal ones reach, for a game where moves can give the
                                            same child (alpha-beta generates these below its root)
    heuristic(params, state, player)        float64, from player's point of view

``params`` is an ``int64`` vector that encodes the rule variant in force (the game's
``layout`` builds it). :class:`Kernels` checks each kernel's signature when the game is
declared and names the one that is wrong.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types

from zerosum.games.kit.errors import KernelError
from zerosum.games.kit.toolkit import compile_on_first_use, kernel

Action = int
"""An action: an int in [0, num_actions)."""
Player = int
"""A player: 0 (moves first) or 1."""
I64Array = npt.NDArray[np.int64]
"""An int64 vector: a move list, a table; what the kernels' int64[::1] arguments are."""
F64Array = npt.NDArray[np.float64]
"""A float64 numpy array (heuristic weights, move scores)."""
I8Array = npt.NDArray[np.int8]
"""An int8 numpy array (observations)."""
Params = I64Array
"""A game's params vector (read-only): the rule variant in force, as the kernels read it."""
State = I64Array
"""A position: a 1-D int64 vector, treated as immutable by every public function."""

_PARAMS = types.Array(types.int64, 1, "C", readonly=True)  # kernels only read the variant
_STATE = types.int64[::1]
_MOVES = types.int64[::1]

LEGAL = types.int64(_PARAMS, _STATE, _MOVES)
"""numba signature of ``legal(params, state, moves) -> n``: writes the legal actions into ``moves``."""
APPLY = types.void(_PARAMS, _STATE, types.int64, _STATE)
"""numba signature of ``apply(params, state, action, out)``: writes the next state into ``out``."""
STATUS = types.int64(_PARAMS, _STATE)
"""numba signature of ``status(params, state) -> int``: ONGOING, P0_WINS, P1_WINS or DRAW."""
PLAYER = types.int64(_PARAMS, _STATE)
"""numba signature of ``player(params, state) -> int``: who moves."""
KEY = types.int64(_PARAMS, _STATE)
"""numba signature of ``key(params, state) -> int``: a 64-bit hash of the position."""
OBSERVE = types.void(_PARAMS, _STATE, types.int64, types.int8[::1])
"""numba signature of ``observe(params, state, player, out)``: writes the observation planes."""
ORDER = types.void(_PARAMS, _STATE, _MOVES, types.int64, types.float64[::1])
"""numba signature of ``order(params, state, moves, n, scores)``: the move-ordering hint."""
IS_LEGAL = types.boolean(_PARAMS, _STATE, types.int64)
"""numba signature of ``is_legal(params, state, action) -> bool``."""
FORCING = types.int64(_PARAMS, _STATE, _MOVES)
"""numba signature of ``forcing(params, state, moves) -> n``: the forcing moves (quiescence search)."""
HEURISTIC = types.float64(_PARAMS, _STATE, types.int64)
"""numba signature of a compiled heuristic ``h(params, state, player) -> float``."""
compile_on_first_use(ORDER, FORCING, HEURISTIC)  # the search's knowledge: an env never calls it

ONGOING = 0
"""Status codes returned by the ``status`` kernel (plain ints inside compiled code)."""
P0_WINS = 1
"""``status`` of a game player 0 won."""
P1_WINS = 2
"""``status`` of a game player 1 won."""
DRAW = 3
"""``status`` of a drawn game."""


class Outcome(enum.IntEnum):
    """Result of a position, as returned by ``Game.outcome``."""

    ONGOING = ONGOING
    """The game is not over."""
    P0_WINS = P0_WINS
    """Player 0 won."""
    P1_WINS = P1_WINS
    """Player 1 won."""
    DRAW = DRAW
    """The game ended in a draw."""

    @property
    def winner(self) -> Player | None:
        """The winning player, or None for a draw or an unfinished game."""
        return {Outcome.P0_WINS: 0, Outcome.P1_WINS: 1}.get(self)


@kernel(ORDER)
def no_order_hint(params: Params, state: State, moves: I64Array, n: int, scores: F64Array) -> None:  # pragma: no cover
    """The ordering hint of a game that has none: every move scores 0."""
    for i in range(n):
        scores[i] = 0.0


@kernel(FORCING)
def no_forcing(params, state, out):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The forcing moves of a game that supplies none: there are none (no quiescence search)."""
    return 0


ARGUMENTS = {
    "legal": ("params", "state", "out"), "apply": ("params", "state", "action", "child"),
    "status": ("params", "state"), "player": ("params", "state"), "key": ("params", "state"),
    "observe": ("params", "state", "player", "out"), "order": ("params", "state", "moves", "n", "scores"),
    "is_legal": ("params", "state", "action"), "heuristic": ("params", "state", "player"),
    "forcing": ("params", "state", "out"), "distinct": ("params", "state", "out"),
}


def signature_text(signature: Any, kind: str = "") -> str:
    """A kernel signature as a person reads it, e.g.
    ``int64(params: readonly array(int64, 1d, C), state: array(int64, 1d, C), out: ...)``."""
    names = ARGUMENTS.get(kind, ())
    args = [f"{names[i]}: {a}" if i < len(names) else str(a) for i, a in enumerate(signature.args)]
    return f"{signature.return_type}({', '.join(args)})"


def has_signature(fn: Any, signature: Any) -> bool:
    """True when ``fn`` is a numba dispatcher compiled for exactly ``signature``, or a
    kernel declared with it that compiles on first use (:func:`~zerosum.games.kit.toolkit.kernel`)."""
    return signature in getattr(fn, "nopython_signatures", ()) or getattr(fn, "declared_signature", None) == signature


@dataclass(frozen=True)
class Kernels:
    """The compiled rules of one game; each field is checked against its signature.

    Declare it once as a module-level name (``KERNELS = Kernels(...)``) of the module that
    defines the ``legal`` kernel or of a package above it: docs/new-game.md puts it in the
    game package's ``__init__.py``. The compiled search and the hot calls import it from there.
    """

    legal: Any = None
    """``legal(params, state, moves) -> n``: the legal actions, written into ``moves``."""
    apply: Any = None
    """``apply(params, state, action, out)``: the state after ``action``, written into ``out``."""
    status: Any = None
    """``status(params, state)``: ONGOING, P0_WINS, P1_WINS or DRAW."""
    player: Any = None
    """``player(params, state)``: the player to move."""
    key: Any = None
    """``key(params, state)``: a 64-bit hash of the position (transposition tables)."""
    observe: Any = None
    """``observe(params, state, player, out)``: the observation planes from ``player``'s side."""
    order: Any = no_order_hint
    """Optional move-ordering hint for the search (default: none)."""
    is_legal: Any = None
    """``is_legal(params, state, action)``: whether one action is legal, without generating all."""
    forcing: Any = no_forcing
    """Optional forcing moves for the quiescence search (default: none)."""
    distinct: Any = None
    """Optional: the legal actions with each child position listed once (Pentago's rotations)."""

    @property
    def has_forcing(self) -> bool:
        """Whether the game supplies forcing moves (what a quiescence search needs)."""
        return self.forcing is not no_forcing

    def __post_init__(self) -> None:
        for f in fields(self):
            fn = getattr(self, f.name)
            sig = SIGNATURES[f.name]
            const = "LEGAL" if f.name == "distinct" else f.name.upper()  # the signature's name in the kit
            if fn is None and f.name in ("is_legal", "distinct"):
                continue
            if fn is None:
                raise KernelError(f"the {f.name!r} kernel is missing: write one compiled with "
                                  f"@kernel({const}), signature {signature_text(sig, f.name)}")
            if not has_signature(fn, sig):
                got = getattr(fn, "nopython_signatures", None)
                what = (f"compiled for {', '.join(signature_text(g, f.name) for g in got)}" if got else
                        f"{type(fn).__name__} {getattr(fn, '__name__', fn)!r}, not a kernel")
                raise KernelError(f"the {f.name!r} kernel must be compiled with @kernel({const}), "
                                  f"signature {signature_text(sig, f.name)}; got {what}")


SIGNATURES = {"legal": LEGAL, "apply": APPLY, "status": STATUS, "player": PLAYER, "key": KEY,
              "observe": OBSERVE, "order": ORDER, "is_legal": IS_LEGAL,
              "forcing": FORCING, "distinct": LEGAL}


@njit(types.boolean(_MOVES, types.int64, types.int64), cache=True)
def contains(moves: I64Array, n: int, action: int) -> bool:  # pragma: no cover - compiled
    """True when ``action`` is among ``moves[:n]``."""
    for i in range(n):  # noqa: SIM110 - numba compiles no generator expressions
        if moves[i] == action:
            return True
    return False
