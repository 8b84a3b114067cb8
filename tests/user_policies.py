"""User policies the tests play (canasta_sim.policy_api): loaded as tests/user_policies.py:NAME.

``same_as_random`` answers exactly as the built-in ``random`` does (the same draw of the
seat's stream, Lemire's multiply-shift on its top 32 bits), so its rows must equal
``random``'s bit for bit: the seam passes the very options and the very stream.
"""
import numpy as np
from numba import njit

from canasta_sim import policy_api as api


@njit
def same_as_random(decision, opts, n, view, params, rules, rand):
    """The built-in ``random`` policy's choice, from ``rand``."""
    x = np.uint64(rand) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


def same_as_random_python(decision, opts, n, view, params, rules, rand):
    """``same_as_random`` in plain Python (the ctypes path)."""
    x = (rand & 0xFFFFFFFFFFFFFFFF) >> 32
    return (x * n) >> 32


@api.policy(params={"greed": 1.0, "spare": 0.0})
@njit
def with_params(decision, opts, n, view, params, rules, rand):
    """Option 0, or the last option when greed >= 2 (so a parameter changes play)."""
    return n - 1 if params[0] >= 2.0 else 0


@njit
def view_echo(decision, opts, n, view, params, rules, rand):
    """Checks the view's own bookkeeping while playing: returns n (out of range, an error)
    if the hand in the view disagrees with the hand sizes, or the option copy is not what
    the decision says."""
    size = 0
    for kind in range(api.NKINDS):
        size += api.hand_count(view, kind)
    if size != api.hand_size(view, view[api.V_SEAT]):
        return n
    if rules[api.R_NUM_PLAYERS] != view[api.V_NSEATS]:
        return n
    if decision == api.DEC_DISCARD:
        for i in range(n):
            if opts[i, 0] != api.OPT_DISCARD or api.hand_count(view, opts[i, 1]) < 1:
                return n
    opts[0, 0] = 99                          # writing into the copy changes nothing
    return 0


@njit
def out_of_range(decision, opts, n, view, params, rules, rand):
    """Answers n at a discard decision: one past the last option."""
    return n if decision == api.DEC_DISCARD else 0


@njit
def returns_float(decision, opts, n, view, params, rules, rand):
    """Returns a float: refused before any deal is played."""
    return 0.5


@njit
def does_not_compile(decision, opts, n, view, params, rules, rand):
    """Uses a name numba cannot type."""
    return undefined_name + 1  # noqa: F821


@njit
def raises_at_discard(decision, opts, n, view, params, rules, rand):
    """Raises at the first discard decision."""
    if decision == api.DEC_DISCARD:
        raise ValueError("no discard today")
    return 0


def python_raises(decision, opts, n, view, params, rules, rand):
    """Divides by zero at a discard decision (plain Python)."""
    if decision == api.DEC_DISCARD:
        return 1 // 0
    return 0


def python_returns_text(decision, opts, n, view, params, rules, rand):
    """Returns text (plain Python)."""
    return "first"


NOT_A_FUNCTION = 3


@njit
def reads_past_the_options(decision, opts, n, view, params, rules, rand):
    """Reads far outside the options array at a discard decision: bounds checking turns it
    into an IndexError the engine reports, never a read of memory it does not own."""
    if decision == api.DEC_DISCARD:
        return opts[n + 100000, 0] * 0
    return 0


@njit
def loops_forever(decision, opts, n, view, params, rules, rand):
    """Never returns (a compiled loop: Python's signal handlers never run inside it)."""
    i = 0
    while i >= 0:
        i = (i + 1) % 1000
    return 0


def loops_forever_python(decision, opts, n, view, params, rules, rand):
    """Never returns (plain Python)."""
    while True:
        pass


def too_few_arguments(decision, opts, n):
    """The wrong signature: three arguments instead of seven."""
    return 0


@njit
def too_few_arguments_jit(decision, opts, n):
    """The wrong signature, compiled."""
    return 0


def calls_sys_exit(decision, opts, n, view, params, rules, rand):
    """Calls sys.exit(3): a user exception like any other."""
    import sys
    sys.exit(3)


def raises_keyboard_interrupt(decision, opts, n, view, params, rules, rand):
    """Raises KeyboardInterrupt without any signal: a user exception like any other."""
    raise KeyboardInterrupt


@njit
def _last_option(n):
    """A numba helper called from plain Python (compiled at its first call, mid-run)."""
    return n - 1


def python_calls_numba_helper(decision, opts, n, view, params, rules, rand):
    """Plain Python calling a numba helper that is compiled at its first call, inside a run."""
    return _last_option(n)


@njit
def allocates(decision, opts, n, view, params, rules, rand):
    """Allocates an array the size of the rules record at every decision (a freed record
    would be overwritten by it)."""
    scratch = np.full(64, 7, np.int64)
    return scratch[0] % n


@njit
def seven_mod_n(decision, opts, n, view, params, rules, rand):
    """``allocates``'s answer without the allocation."""
    return 7 % n
