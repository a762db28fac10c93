"""The kernel toolkit every game's rules use: one way to compile, one set of bit helpers.

* ``@kernel(SIGNATURE)`` compiles a rules kernel eagerly with its fixed signature and
  caches it on disk (see :mod:`zerosum.games.kit.kernels` for the signatures).
* ``@helper`` compiles a function that kernels inline (no call, no reference counting of
  array arguments): geometry tests, bit tricks, shared rule bodies.
* ``popcount(x)`` and ``lowest_bit(x)``: one machine instruction each inside kernels, and
  plain Python functions outside them (a kernel's ``py_func`` then runs as Python).
* ``i64(x)``: an unsigned 64-bit constant (a hash multiplier, a mask) as the signed int64
  numba computes with; numba would turn an int >= 2**63 into a float.

numba keys its disk cache of a function by that function's file alone. Kernels and helpers
compiled here are keyed by more: their file and the source of every module it imports,
transitively (tables, helpers and constants from other files, the kit), so an edit to a
table in ``tables.py`` recompiles the kernels in ``rules.py`` that read it.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core import caching
from numba.core.caching import _CacheLocator
from numba.extending import intrinsic, overload


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


def kernel(signature: Any) -> Callable[[Callable[..., Any]], Any]:
    """Compile a rules kernel eagerly with a fixed signature and cache it on disk.

    The kernels keep the GIL: a call from Python lasts ~0.1 us, and releasing and retaking
    the GIL would add a third to that. The compiled search calls them without the Python
    wrapper, so the flag does not matter there.
    """
    compile_ = njit(signature, cache=True)
    return lambda fn: compile_(_tracked(fn))


def helper(fn: Callable[..., Any]) -> Any:
    """Compile a helper that kernels inline (lazily typed, cached on disk)."""
    return njit(inline="always", cache=True)(_tracked(fn))


def i64(x: int) -> int:
    """``x`` (0 <= x < 2**64) as the signed 64-bit int with the same bits."""
    if not 0 <= x < 1 << 64:
        raise ValueError(f"i64 takes an int in [0, 2**64); got {x!r}")
    return x - (1 << 64) if x >= 1 << 63 else x


def i64_array(values: Any) -> np.ndarray:
    """An int64 array of unsigned 64-bit values (each taken through :func:`i64`)."""
    return np.array([i64(int(v)) for v in values], dtype=np.int64)


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


__all__ = ["helper", "i64", "i64_array", "kernel", "lowest_bit", "popcount"]
