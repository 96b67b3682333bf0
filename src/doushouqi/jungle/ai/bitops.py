"""Bit tricks on 63-square bitboards held in a signed int64.

63 squares fit below the sign bit, so every bitboard is a non-negative int64. Staying in int64
(rather than uint64) matters in numba: mixing uint64 with int64 promotes to float64.

The two LLVM intrinsics compile to single POPCNT / TZCNT instructions on x86-64. A third,
:func:`prefetch`, is not a bit trick but lives with them: it asks the processor to start
loading a cache line that the caller will read soon (the transposition table's buckets).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.core.typing.templates import Signature

__all__ = ["lowest_square", "popcount", "prefetch", "square_bit"]

#: What an intrinsic's definition returns: the signature it compiles for the argument types, and
#: the code generator ``(context, builder, signature, args)``; None rejects them.
_Definition: TypeAlias = tuple[Signature, Callable[[Any, Any, Signature, Sequence[Any]], Any]]


def _integer_intrinsic(
    definition: Callable[[object, types.Type], _Definition | None],
) -> Callable[[int], int]:
    """numba's ``@intrinsic`` (run once, at import), typed as compiled code calls the result: the
    definition's parameters but the typing context (here one integer), returning the same type."""
    return cast("Callable[[int], int]", intrinsic(definition))


@_integer_intrinsic
def _ctpop(typingctx: object, value: types.Type) -> _Definition | None:
    if not isinstance(value, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Signature, args: Sequence[Any]) -> Any:
        return builder.ctpop(args[0])

    return value(value), codegen


@_integer_intrinsic
def _cttz(typingctx: object, value: types.Type) -> _Definition | None:
    if not isinstance(value, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Signature, args: Sequence[Any]) -> Any:
        # The flag says a zero input is undefined, which lets LLVM emit a bare TZCNT/BSF.
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return value(value), codegen


def _prefetch_intrinsic(
    typingctx: object, array: types.Type, offset: types.Type
) -> tuple[Signature, Callable[[Any, Any, Signature, Sequence[Any]], Any]] | None:
    if not isinstance(array, types.Array) or not isinstance(offset, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Signature, args: Sequence[Any]) -> Any:
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        byte = ir.IntType(8)
        address = builder.gep(builder.bitcast(data, byte.as_pointer()), [args[1]])
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32]),
            "llvm.prefetch.p0",
        )  # fmt: skip
        # A read (0), to be kept in every cache level (3), of data (1): PREFETCHT0.
        builder.call(function, [address, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, offset), codegen


#: ``prefetch(array, byte_offset)``: start loading the cache line that holds that byte of the
#: array's data (a hint: no effect on any value, and no fault for an address out of range).
prefetch = cast("Callable[[Any, int], None]", intrinsic(_prefetch_intrinsic))


@njit(cache=True)
def popcount(bitboard: int) -> int:
    """Number of squares in a bitboard."""
    return _ctpop(bitboard)


@njit(cache=True)
def lowest_square(bitboard: int) -> int:
    """Index of the lowest set square; the bitboard must not be empty."""
    return _cttz(bitboard)


@njit(cache=True)
def square_bit(square: int) -> int:
    """The bitboard holding only ``square`` (0..62; 63 is the off-board 'captured' square)."""
    return 1 << square
