"""A compiled kernel's source run as plain Python, the helpers it calls included.

A kernel's ``py_func`` is its source as Python, but the ``@helper`` functions it calls are
still numba dispatchers: called from Python, numba compiles each one as a function of its
own, for each set of argument types, which takes seconds a helper (a heuristic with a
dozen helpers, the first time in a process with an empty cache, 5-12 s). :func:`as_python`
gives the kernel with every numba-compiled function it reaches (helpers, other kernels,
through any module) replaced by that function's own source as Python, so nothing compiles.

Python's integers are unbounded where numba's int64 wraps around: code that relies on the
wrap-around (a hash multiplied past 2**63) can give another value as plain Python. Callers
that compare with the compiled kernel therefore fall back to :func:`mixed`, the kernel's
``py_func`` with compiled helpers, before calling a difference a finding.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from numba.core.dispatcher import Dispatcher

__all__ = ["as_python", "mixed"]


def as_python(fn: Any) -> Callable[..., Any]:
    """``fn`` (a numba-compiled function) as plain Python, every numba-compiled function it
    calls through a module's globals as plain Python too, transitively. Each function gets
    a copy of its module's globals as they are now; nothing is changed in place. A function
    that is not compiled by numba is returned as it is.

    The same function object comes back while no global of those modules was rebound (a
    search given it as a Python heuristic compiles its bridge once, not at every call)."""
    hit = _MADE.get(id(fn))
    if hit is not None and hit[0] is fn and all(_unchanged(g, seen) for g, seen in hit[2]):
        return hit[1]
    modules: dict[int, _Module] = {}
    plain: Callable[..., Any] = _plain(fn, {}, modules)
    _MADE[id(fn)] = (fn, plain, [(m.source, m.seen) for m in modules.values()])
    return plain


_MADE: dict[int, tuple[Any, Callable[..., Any], list[tuple[dict[str, Any], dict[str, Any]]]]] = {}
"""id(fn) -> (fn, its plain version, each module's globals with the names they held then)."""


def _unchanged(module_globals: dict[str, Any], seen: dict[str, Any]) -> bool:
    return len(module_globals) == len(seen) and all(module_globals.get(k, _MISSING) is v for k, v in seen.items())


_MISSING = object()


def mixed(fn: Any) -> Callable[..., Any]:
    """``fn``'s source as Python calling the compiled versions of its helpers (its
    ``py_func``), or ``fn`` itself when it is not compiled by numba."""
    return getattr(fn, "py_func", fn)  # type: ignore[no-any-return]  # a numba attribute


@dataclass
class _Module:
    """A module's globals as copied for its plain functions."""

    source: dict[str, Any]
    """The module's own globals."""
    seen: dict[str, Any]
    """What they held when copied (a rebound name makes the copy stale)."""
    namespace: dict[str, Any]
    """The copy the plain functions run in: each numba-compiled function replaced by its plain version."""


def _plain(fn: Any, functions: dict[int, Callable[..., Any]], modules: dict[int, _Module]) -> Any:
    if not isinstance(fn, Dispatcher):
        return fn
    py = fn.py_func
    done = functions.get(id(py))
    if done is not None:
        return done
    module = modules.get(id(py.__globals__))
    if module is None:  # one copy a module, shared by its functions; filled after it is registered (cycles)
        seen = dict(py.__globals__)
        module = modules[id(py.__globals__)] = _Module(py.__globals__, seen, dict(seen))
        for name, value in seen.items():
            if isinstance(value, Dispatcher):
                module.namespace[name] = _plain(value, functions, modules)
        done = functions.get(id(py))  # made while its module's names were filled in
        if done is not None:
            return done
    plain = types.FunctionType(py.__code__, module.namespace, py.__name__, py.__defaults__, py.__closure__)
    plain.__kwdefaults__ = py.__kwdefaults__
    plain.__qualname__ = py.__qualname__
    plain.__doc__ = py.__doc__
    plain.__module__ = py.__module__
    functions[id(py)] = plain
    return plain
