"""Scratch bitboards on the stack for Go's kernels.

A flood fill needs a few bitboards of up to ``K_MAX`` words. ``np.empty`` inside a kernel
costs a heap allocation (about 0.1 us, more than a whole move of the rules), so the
kernels take their scratch from the stack instead: ``words()`` is an ``int64`` array of
``SCRATCH`` words, reserved once in the entry block of the compiled function it is
inlined into (so a loop does not grow the stack) and gone when that function returns.
Use it only in the function that calls it (or in helpers inlined into it), never return
it. From plain Python (a kernel's ``py_func``) it is a fresh ``np.zeros`` array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload
from numba.np.numpy_support import carray

from zerosum.games.go.tables import K_MAX

SCRATCH = 2 * K_MAX + 2
"""Words in one scratch array: room for two bitboards of the largest board."""


@intrinsic
def _stack_words(typingctx: Any, n: Any) -> Any:
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return cgutils.alloca_once(builder, context.get_value_type(types.int64), size=size)  # type: ignore[no-untyped-call]

    return types.CPointer(types.int64)(n), codegen  # type: ignore[no-untyped-call]


def words() -> np.ndarray:
    """A scratch ``int64`` array of ``SCRATCH`` words (on the stack in compiled code; its
    contents are undefined there: clear what you read)."""
    return np.zeros(SCRATCH, np.int64)


@overload(words, inline="always")
def _words_compiled():  # type: ignore[no-untyped-def]
    return lambda: carray(_stack_words(SCRATCH), SCRATCH)  # type: ignore[call-arg]  # numba passes typingctx
