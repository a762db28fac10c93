"""Rules called through function pointers: the kernels of every game behind one compiled code.

A template (:mod:`zerosum.games.kit.specialize`) is normally compiled once per game with
that game's kernels inlined: the fastest code, at the price of a compile per game. This
module is the other tier. :data:`KERNELS` is a ``Kernels`` record like a game's, whose
kernels call the real ones through addresses carried at the head of the params vector,
so a template specialised for it is compiled once, cached, and serves every game, a
user's own included. Its searches run about 1.6-1.8 times slower than an inlined copy
(DESIGN.md, section 10): the tier a process uses while the inlined copy is not compiled.

``generic_params(game)`` is that params vector: a header of :data:`HEADER` int64 slots
(each kernel's two addresses, numba's native entry and its C wrapper, the game's
heuristic's too) followed by the game's own params, which the real kernels receive as a
view. Such a vector goes only to code specialised for :data:`KERNELS`; the searches'
drivers choose the tier and the params together (:mod:`zerosum.search.compiled`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.experimental.function_type import _get_jit_address, _get_wrapper_address
from numba.extending import intrinsic

from zerosum.games.kit.kernels import (
    APPLY, FORCING, HEURISTIC, IS_LEGAL, KEY, LEGAL, OBSERVE, ORDER, PLAYER, STATUS, Kernels, Params, State,
)

ROLES = ("legal", "apply", "status", "player", "key", "observe", "order", "is_legal", "forcing", "distinct",
         "heuristic")
"""The functions whose addresses a generic params vector carries, in slot order."""
SIGNATURES = {"legal": LEGAL, "apply": APPLY, "status": STATUS, "player": PLAYER, "key": KEY, "observe": OBSERVE,
              "order": ORDER, "is_legal": IS_LEGAL, "forcing": FORCING, "distinct": LEGAL, "heuristic": HEURISTIC}
SLOT = {role: 2 * i for i, role in enumerate(ROLES)}
"""role -> the first of its two slots (native entry, C wrapper)."""
HEADER = 2 * len(ROLES)
"""The slots before the game's own params."""
(S_LEGAL, S_APPLY, S_STATUS, S_PLAYER, S_KEY, S_OBSERVE, S_ORDER, S_IS_LEGAL, S_FORCING, S_DISTINCT,
 S_HEURISTIC) = (SLOT[r] for r in ROLES)  # the same, as constants compiled code reads


def _function_from(fn_type: types.FunctionType) -> Any:
    """An intrinsic ``(params, slot) -> fn_type``: the function value whose addresses are
    params[slot] (numba's native entry) and params[slot + 1] (its C wrapper), as numba
    builds one when it unboxes a compiled function passed from Python."""
    @intrinsic
    def function_from(typingctx: Any, params: Any, slot: Any) -> Any:
        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            ary = context.make_array(sig.args[0])(context, builder, args[0])
            jit = builder.load(builder.gep(ary.data, [args[1]]))
            cwrap = builder.load(builder.gep(ary.data, [builder.add(args[1], args[1].type(1))]))
            fn = cgutils.create_struct_proxy(fn_type)(context, builder)  # type: ignore[no-untyped-call]
            voidptr = context.get_value_type(types.voidptr)
            fn.jit_addr = builder.inttoptr(jit, voidptr)
            fn.c_addr = builder.inttoptr(cwrap, voidptr)
            fn.py_addr = voidptr(None)
            return fn._getvalue()
        return fn_type(params, slot), codegen
    return function_from


_legal = _function_from(types.FunctionType(LEGAL))
_apply = _function_from(types.FunctionType(APPLY))
_int_of_state = _function_from(types.FunctionType(STATUS))  # status, player and key share the signature
_observe = _function_from(types.FunctionType(OBSERVE))
_order = _function_from(types.FunctionType(ORDER))
_is_legal = _function_from(types.FunctionType(IS_LEGAL))
_heuristic = _function_from(types.FunctionType(HEURISTIC))


@njit(LEGAL, cache=True)
def legal(params: Params, s: State, out: Any) -> int:  # pragma: no cover - compiled
    """The game's ``legal`` through its address."""
    n: int = _legal(params, S_LEGAL)(params[HEADER:], s, out)
    return n


@njit(APPLY, cache=True)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    """The game's ``apply`` through its address."""
    _apply(params, S_APPLY)(params[HEADER:], s, a, child)


@njit(STATUS, cache=True)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The game's ``status`` through its address."""
    st: int = _int_of_state(params, S_STATUS)(params[HEADER:], s)
    return st


@njit(PLAYER, cache=True)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The game's ``player`` through its address."""
    p: int = _int_of_state(params, S_PLAYER)(params[HEADER:], s)
    return p


@njit(KEY, cache=True)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """The game's ``key`` through its address."""
    k: int = _int_of_state(params, S_KEY)(params[HEADER:], s)
    return k


@njit(OBSERVE, cache=True)
def observe(params: Params, s: State, p: int, out: Any) -> None:  # pragma: no cover - compiled
    """The game's ``observe`` through its address."""
    _observe(params, S_OBSERVE)(params[HEADER:], s, p, out)


@njit(ORDER, cache=True)
def order(params: Params, s: State, moves: Any, n: int, scores: Any) -> None:  # pragma: no cover - compiled
    """The game's ordering hint through its address."""
    _order(params, S_ORDER)(params[HEADER:], s, moves, n, scores)


@njit(IS_LEGAL, cache=True)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """The game's ``is_legal`` through its address (one that says no where the game has none)."""
    ok: bool = _is_legal(params, S_IS_LEGAL)(params[HEADER:], s, a)
    return ok


@njit(FORCING, cache=True)
def forcing(params: Params, s: State, out: Any) -> int:  # pragma: no cover - compiled
    """The game's forcing moves through their address."""
    n: int = _legal(params, S_FORCING)(params[HEADER:], s, out)
    return n


@njit(LEGAL, cache=True)
def distinct(params: Params, s: State, out: Any) -> int:  # pragma: no cover - compiled
    """The game's ``distinct`` moves (its ``legal`` where it has none) through their address."""
    n: int = _legal(params, S_DISTINCT)(params[HEADER:], s, out)
    return n


@njit(HEURISTIC, cache=True)
def heuristic(params: Params, s: State, p: int) -> float:  # pragma: no cover - compiled
    """The heuristic whose address the params carry: what a generic search is given as its
    heuristic, so that the real one receives the game's own params."""
    v: float = _heuristic(params, S_HEURISTIC)(params[HEADER:], s, p)
    return v


@njit(IS_LEGAL, cache=True)
def never_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """The ``is_legal`` of a game that has none: no move is tried before the moves are
    generated (as the inlined search's ``unknown_legality``)."""
    return False


KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe, order=order,
                  is_legal=is_legal, forcing=forcing, distinct=distinct)
"""The generic rules: a template specialised for them serves every game."""
HOT_KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe)
"""The generic rules of the Game API's hot calls: no ``is_legal``, so a checked apply
scans the legal moves (the search's :data:`KERNELS` has one that says no for a game
without its own, so that staged moves are never tried there, as in the inlined search)."""
RULE_ROLES = ("legal", "apply", "status", "player")
"""The roles the hot calls use: the only addresses their params carry (a game's search
knowledge compiles on first use, and the hot calls do not use it)."""


def addresses(fn: Any, signature: Any) -> tuple[int, int]:
    """A compiled function's native entry and C wrapper for ``signature`` (compiled now if
    it compiles on first use)."""
    return int(_get_jit_address(fn, signature)), int(_get_wrapper_address(fn, signature))  # type: ignore[no-untyped-call]


def generic_params(kernels: Kernels, params: Params, heuristic_fn: Any = None,
                   roles: tuple[str, ...] = ROLES) -> Params:
    """The read-only params vector of a game (``kernels``, ``params``) for code specialised
    for :data:`KERNELS` (or :data:`HOT_KERNELS`, with ``roles=RULE_ROLES``), carrying
    ``heuristic_fn`` (a compiled function of signature HEURISTIC) for :func:`heuristic`.
    Only ``roles`` get addresses (the others' slots stay 0: code that calls them must not
    be given this vector)."""
    fns = {role: getattr(kernels, role, None) for role in ROLES[:-1]}
    fns["is_legal"] = fns["is_legal"] or never_legal
    fns["distinct"] = fns["distinct"] or kernels.legal
    fns["heuristic"] = heuristic_fn
    head = np.zeros(HEADER, np.int64)
    for role, fn in fns.items():
        if fn is not None and role in roles:
            head[SLOT[role]:SLOT[role] + 2] = addresses(fn, SIGNATURES[role])
    out = np.concatenate([head, np.asarray(params, np.int64)])
    out.setflags(write=False)
    return out
