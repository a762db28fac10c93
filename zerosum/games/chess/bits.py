"""``highest_bit``: the index of the highest set bit of a nonzero int64 board, one
instruction (lzcnt) inside kernels and plain Python outside them, as the kit's
``lowest_bit`` is. Sliding attacks towards lower squares stop at their highest blocker."""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

_MASK64 = (1 << 64) - 1


def highest_bit(x: int) -> int:
    """Index of the highest set bit of a nonzero int64 (bit 63 for a negative one)."""
    return (int(x) & _MASK64).bit_length() - 1


@intrinsic
def _ctlz(typingctx: Any, x: Any) -> Any:
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        v = context.cast(builder, args[0], signature.args[0], types.int64)
        i64t = ir.IntType(64)
        fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]  # numba's, unannotated
            builder.module, ir.FunctionType(i64t, [i64t, ir.IntType(1)]), "llvm.ctlz.i64")
        return builder.sub(ir.Constant(i64t, 63), builder.call(fn, [v, ir.Constant(ir.IntType(1), 1)]))

    return types.int64(x), codegen


@overload(highest_bit, inline="always")
def _highest_bit_compiled(x):  # type: ignore[no-untyped-def]
    if isinstance(x, types.Integer):
        return lambda x: _ctlz(x)  # type: ignore[call-arg]  # numba passes typingctx to an intrinsic
    return None


__all__ = ["highest_bit"]
