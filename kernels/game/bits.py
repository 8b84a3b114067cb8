"""Bit tricks on the rank bitmasks (bit ``r`` stands for card kind ``r``)."""
from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def lowest_bit_nb(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (LLVM's ``cttz``, one instruction):
    walking a bitmask by its set bits visits the ranks in increasing order without a
    branch per rank."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return sig, codegen


@intrinsic
def highest_bit_nb(typingctx, x):
    """Index of the highest set bit of a non-zero int64 (63 less LLVM's ``ctlz``): walks a
    bitmask from its highest rank down."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)
    return sig, codegen


@intrinsic
def bit_count_nb(typingctx, x):
    """Number of set bits of a non-negative int64 (LLVM's ``ctpop``)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen
