"""kernels/jit.py: helpers compiled as IR for their jitted callers, machine code for Python."""
from canasta_sim.kernels import jit
from numba import njit


def _twice(x):
    return 2 * x


def _inlined_add(x, y):
    return x + y


# Built by hand, without the disk cache, so that every run compiles them in this process.
twice = jit._plain_calls(njit(_nrt=False)(_twice))
inlined_add = jit._inline_in_llvm(jit._plain_calls(njit(_nrt=False)(_inlined_add)))


def _caller(x):
    return inlined_add(twice(x), 1)


caller = jit._plain_calls(njit(_caller))


def test_the_installed_numba_has_the_fast_compile_internals():
    assert jit.FAST_COMPILE, "numba/llvmlite lack the internals kernels/jit.py replaces"


def test_a_helper_compiled_for_a_jitted_caller_is_ir_only_then_runs_from_python():
    assert caller(3) == 7
    (cres,) = twice.overloads.values()
    assert isinstance(cres.entry_point, jit._CompiledForJit)
    assert cres.library.for_linking_only
    assert twice(5) == 10 and twice(-4) == -8          # compiled again, as machine code
    assert inlined_add(2, 3) == 5
    (added,) = inlined_add.overloads.values()
    assert added.fndesc.llvm_func_name in jit._ALWAYS_INLINE        # LLVM inlines it
    assert cres.fndesc.llvm_func_name not in jit._ALWAYS_INLINE     # a plain call
