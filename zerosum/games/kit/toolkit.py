"""The kernel toolkit every game's rules use: one way to compile, one set of bit helpers.

* ``@kernel(SIGNATURE)`` compiles a rules kernel eagerly with its fixed signature and
  caches it on disk (see :mod:`zerosum.games.kit.kernels` for the signatures).
* ``@helper`` compiles a function that kernels inline (no call, no reference counting of
  array arguments): geometry tests, bit tricks, shared rule bodies.
* ``popcount(x)`` and ``lowest_bit(x)``: one machine instruction each inside kernels, and
  plain Python functions outside them (a kernel's ``py_func`` then runs as Python).
* ``i64(x)``: an unsigned 64-bit constant (a hash multiplier, a mask) as the signed int64
  numba computes with; numba would turn an int >= 2**63 into a float. ``i64_array`` does
  the same for a whole state or table (``np.array([1 << 63], np.int64)`` overflows).
* 64-bit boards (an 8x8 board uses bit 63, the sign bit of an int64): ``bit(i)`` is
  ``1 << i`` as an int64 (``bit(63) == TOP_BIT``, a negative number), and ``shr(x, n)``
  is a *logical* right shift. Python's and numba's ``>>`` on an int64 is arithmetic: it
  copies bit 63 into the vacated bits, so ``TOP_BIT >> 1`` has bits 62 *and* 63 set, and
  a loop that shifts a board until it is empty never ends. Both helpers work inside
  kernels (one instruction each) and from Python.

numba keys its disk cache of a function by that function's file alone. Kernels and helpers
compiled here are keyed by more: their file and the source of every module it imports,
transitively (tables, helpers and constants from other files, the kit), so an edit to a
table in ``tables.py`` recompiles the kernels in ``rules.py`` that read it.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core import caching
from numba.core.caching import _CacheLocator
from numba.core.errors import TypingError
from numba.extending import intrinsic, overload

from zerosum.games.kit.cache import guard_numba_cache, notice, warn_once
from zerosum.games.kit.errors import KernelError


_CACHE_IMPL: Any = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)  # renamed in 0.61
_TRACKED: set[Any] = set()  # the code objects of the functions compiled by kernel and helper


@functools.cache
def _imports_digest(module_name: str) -> bytes:
    """A digest of the source of ``module_name`` and every tracked module it imports,
    transitively (:func:`zerosum.games.kit.sources.reachable_sources`); once a process."""
    from zerosum.games.kit.sources import reachable_sources

    digest = hashlib.sha256()
    for name, source in sorted(reachable_sources([module_name]).items()):
        digest.update(name.encode() + b"\0" + source.encode() + b"\0")
    return digest.digest()


class _ImportsLocator(_CacheLocator):
    """numba's cache locator for the kit's kernels and helpers: numba's own choice of
    folder, with a source stamp that also covers the modules the function's file imports."""

    def __init__(self, inner: _CacheLocator, module_name: str) -> None:
        self._inner: Any = inner  # numba's locators are unannotated
        self._module = module_name

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        return cast(str, self._inner.get_cache_path())

    def get_disambiguator(self) -> str:
        return cast(str, self._inner.get_disambiguator())

    def get_source_stamp(self) -> Any:
        return self._inner.get_source_stamp(), _imports_digest(self._module)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _ImportsLocator | None:
        if py_func.__code__ not in _TRACKED or py_func.__module__ not in sys.modules:
            return None
        for other in _CACHE_IMPL._locator_classes:
            inner = None if other is cls else other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, py_func.__module__)
        return None


if _ImportsLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, _ImportsLocator)


def _tracked(fn: Callable[..., Any]) -> Callable[..., Any]:
    _TRACKED.add(fn.__code__)
    return fn


_ON_FIRST_USE: list[Any] = []  # the signatures whose kernels compile on first use (search knowledge)


def compile_on_first_use(*signatures: Any) -> None:
    """Kernels of these signatures compile when first used rather than when their module
    is imported: the search's knowledge (heuristics, ordering hints, forcing moves), which
    an environment or a random game never calls (``zerosum.games.kit.kernels`` names them).
    A signature is told by identity: FORCING equals LEGAL as a numba type, and only the
    first compiles on first use."""
    _ON_FIRST_USE.extend(signatures)


def kernel(signature: Any) -> Callable[[Callable[..., Any]], Any]:
    """Compile a rules kernel with a fixed signature and cache it on disk.

    The rules compile at once, when their module is imported; the search's knowledge (a
    signature given to :func:`compile_on_first_use`) when the search first calls it, so
    that an environment's first use does not wait for heuristics it never calls. Either
    way the dispatcher's ``declared_signature`` is the signature, which the kit checks.

    The kernels keep the GIL: a call from Python lasts ~0.1 us, and releasing and retaking
    the GIL would add a third to that. The compiled search calls them without the Python
    wrapper, so the flag does not matter there.
    """
    def compile_(fn: Callable[..., Any]) -> Any:
        dispatcher = _cached_dispatcher(_tracked(fn))
        dispatcher.declared_signature = signature
        if any(signature is lazy for lazy in _ON_FIRST_USE):
            return dispatcher
        if not _is_cached(dispatcher):
            module = fn.__module__.removesuffix(".rules").removesuffix(".knowledge")
            notice("kernels:" + fn.__module__, f"compiling the kernels of {module}, once (a few seconds on 2 cores)")
        try:
            dispatcher.compile(signature)
        except TypingError as exc:
            hint = untyped_function_hint(fn, exc)
            if hint is None:
                raise
            raise KernelError(hint) from exc
        dispatcher.disable_compile()  # as numba's njit(signature) does: one signature, no other
        return dispatcher

    return compile_


_UNTYPED = re.compile(r"Untyped global name '([^']+)'.*?(?:type|class) '?(function|[^'>]*Dispatcher)")


def untyped_function_hint(fn: Callable[..., Any], exc: Exception) -> str | None:
    """The hint for numba's ``Untyped global name 'f'`` where ``f`` is a plain Python function
    that the kernel ``fn`` (or a helper it inlines) calls: it needs ``@helper``; None for
    another typing error."""
    found = _UNTYPED.search(str(exc).replace("\n", " "))
    if found is None or found.group(2) != "function":
        return None
    name = found.group(1)
    return (f"the kernel {fn.__module__}.{fn.__qualname__} calls {name}(), a plain Python function, which "
            f"compiled code cannot call: decorate {name} with @helper (from zerosum.games.kit import helper), as "
            f"every function a kernel calls must be (numba said: Untyped global name {name!r})")


def _cached_dispatcher(fn: Callable[..., Any]) -> Any:
    """``njit(cache=True)(fn)``, or without a disk cache (one warning) where numba finds no
    folder it can write for it."""
    guard_numba_cache()
    try:
        return njit(cache=True)(fn)
    except RuntimeError as exc:  # numba: "cannot cache function ...: no locator available"
        warn_once("locator:" + fn.__module__, f"{exc}: compiling {fn.__module__} in memory for this process only")
        return njit()(fn)


def _is_cached(dispatcher: Any) -> bool:
    """Whether numba's disk cache holds code for ``dispatcher`` (of its current sources)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - no cache, another numba's layout, an unreadable index: not cached
        return False


def helper(fn: Callable[..., Any]) -> Any:
    """Compile a helper that kernels inline (lazily typed, cached on disk)."""
    guard_numba_cache()
    try:
        return njit(inline="always", cache=True)(_tracked(fn))
    except RuntimeError as exc:  # no folder numba can write: see _cached_dispatcher
        warn_once("locator:" + fn.__module__, f"{exc}: compiling {fn.__module__} in memory for this process only")
        return njit(inline="always")(fn)


def i64(x: int) -> int:
    """``x`` (-2**63 <= x < 2**64) as the signed 64-bit int with the same low 64 bits:
    ``i64(1 << 63) == TOP_BIT``; an int already in int64's range is returned as it is."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or not -(1 << 63) <= x < 1 << 64:
        raise ValueError(f"i64 takes an int in [-2**63, 2**64); got {x!r}")
    x = int(x)
    return x - (1 << 64) if x >= 1 << 63 else x


def i64_array(values: Any) -> np.ndarray:
    """A 1-D int64 array of 64-bit values, each taken through :func:`i64`: a state or a
    table whose bitboards use bit 63 (``i64_array([1 << 63, 5])``), where
    ``np.array(..., dtype=np.int64)`` raises OverflowError."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        return np.ascontiguousarray(values.astype(np.int64).reshape(-1))  # uint64 wraps: the same bits
    return np.array([i64(v) for v in values], dtype=np.int64)


TOP_BIT = -(1 << 63)
"""Bit 63 of an int64 board (``1 << 63`` as int64: the sign bit, so a negative number)."""


def bit(i: int) -> int:
    """``1 << i`` as an int64, for a square ``i`` in [0, 63]: one instruction inside
    kernels; ``bit(63) == TOP_BIT`` (in Python ``1 << 63`` is too big for an int64)."""
    i = int(i)
    if not 0 <= i < 64:
        raise ValueError(f"bit takes a square in [0, 63]; got {i}")
    return i64(1 << i)


def shr(x: int, n: int) -> int:
    """The *logical* right shift of an int64 board ``x`` by ``n`` in [0, 63]: bits move
    down and zeros come in at the top (``shr(TOP_BIT, 63) == 1``). ``x >> n`` is
    arithmetic on an int64 and copies bit 63 down instead. One instruction inside kernels
    (there ``n`` outside [0, 63] gives an undefined result); from Python a ValueError."""
    n = int(n)
    if not 0 <= n < 64:
        raise ValueError(f"shr shifts by 0 to 63 bits; got {n}")
    return i64((int(x) & _MASK64) >> n)


def _bit_intrinsic(name: str, extra_flag: bool) -> Any:
    def typer(typingctx: Any, x: Any) -> Any:
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(x)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            v = context.cast(builder, args[0], signature.args[0], types.int64)
            i64t = ir.IntType(64)
            params = [i64t, ir.IntType(1)] if extra_flag else [i64t]
            fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]  # numba's, unannotated
                builder.module, ir.FunctionType(i64t, params), name)
            call_args = [v, ir.Constant(ir.IntType(1), 1)] if extra_flag else [v]
            return builder.call(fn, call_args)

        return sig, codegen

    return typer


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:
    return _bit_intrinsic("llvm.ctpop.i64", False)(typingctx, x)


@intrinsic
def _cttz(typingctx: Any, x: Any) -> Any:
    return _bit_intrinsic("llvm.cttz.i64", True)(typingctx, x)


_MASK64 = (1 << 64) - 1


def popcount(x: int) -> int:
    """Number of set bits of an int64: one popcnt instruction inside kernels, plain Python
    outside them (so a kernel's ``py_func`` runs as Python, as ``zerosum.testing`` does)."""
    return bin(int(x) & _MASK64).count("1")


def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a nonzero int64: one tzcnt instruction inside
    kernels, plain Python outside them."""
    v = int(x) & _MASK64
    return (v & -v).bit_length() - 1


@intrinsic
def _lshr(typingctx: Any, x: Any, n: Any) -> Any:
    if not isinstance(x, types.Integer) or not isinstance(n, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        v = context.cast(builder, args[0], signature.args[0], types.int64)
        k = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.lshr(v, k)

    return types.int64(x, n), codegen


@intrinsic
def _shl1(typingctx: Any, i: Any) -> Any:
    if not isinstance(i, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        k = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.shl(ir.Constant(ir.IntType(64), 1), k)

    return types.int64(i), codegen


@overload(shr, inline="always")
def _shr_compiled(x, n):  # type: ignore[no-untyped-def]
    if isinstance(x, types.Integer) and isinstance(n, types.Integer):
        return lambda x, n: _lshr(x, n)  # type: ignore[call-arg]  # numba passes typingctx to an intrinsic
    return None


@overload(bit, inline="always")
def _bit_compiled(i):  # type: ignore[no-untyped-def]
    if isinstance(i, types.Integer):
        return lambda i: _shl1(i)  # type: ignore[call-arg]  # numba passes typingctx to an intrinsic
    return None


@overload(popcount, inline="always")
def _popcount_compiled(x):  # type: ignore[no-untyped-def]  # numba compares it with the lambda's signature
    if isinstance(x, types.Integer):
        return lambda x: _ctpop(x)  # type: ignore[call-arg]  # numba passes typingctx to an intrinsic
    return None


@overload(lowest_bit, inline="always")
def _lowest_bit_compiled(x):  # type: ignore[no-untyped-def]
    if isinstance(x, types.Integer):
        return lambda x: _cttz(x)  # type: ignore[call-arg]  # numba passes typingctx to an intrinsic
    return None


__all__ = ["TOP_BIT", "bit", "helper", "i64", "i64_array", "kernel", "lowest_bit", "popcount", "shr"]
