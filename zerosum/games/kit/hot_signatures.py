"""The C signatures of the hot calls (see :mod:`zerosum.games.kit.hot` and ``_native.c``)."""

from __future__ import annotations

from typing import Any

from numba import types

Ptr = Any
"""A C ``int64*`` argument of a cfunc (numba's ``CPointer(int64)``): no Python type stands for it."""
_PTR = types.CPointer(types.int64)  # type: ignore[no-untyped-call]  # numba's types are unannotated
_N = types.int64
#: legal(state, out, params, state_size, out_size, params_size) -> number of legal actions
NATIVE_LEGAL = types.int64(_PTR, _PTR, _PTR, _N, _N, _N)
#: apply(state, action, child, params, state_size, params_size) -> 1
NATIVE_APPLY = types.int64(_PTR, _N, _PTR, _PTR, _N, _N)
#: checked(state, action, child, params, scratch, state_size, params_size, scratch_size) -> 1, or 0 if illegal
NATIVE_CHECKED = types.int64(_PTR, _N, _PTR, _PTR, _PTR, _N, _N, _N)
#: status / player(state, params, state_size, params_size) -> int
NATIVE_STATUS = types.int64(_PTR, _PTR, _N, _N)
