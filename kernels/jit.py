"""How the kernels are compiled: three decorators, so the choice is made in one place.

``kernel`` marks every jitted helper: compiled lazily on first use, cached on disk, and
compiled without numba's reference counting (``_nrt=False``).  Helpers never allocate; the
arrays they receive are owned by an entry kernel that outlives the call, so counting
references on every call and every row view (an atomic add and subtract per array) only
costs time: with it, about a third of a deal's time went to those atomics.  A helper that
needs scratch space takes a row of the state's ``ws`` array instead of allocating.

``turn_step`` marks the few small helpers that take the whole state tuple ``S`` and run
every turn (the turn and its phases, the policy switches, the take's book-keeping).  Numba
passes a tuple of arrays as one machine argument per array field, about 90 words for ``S``,
pushed onto the stack at every call; these helpers are therefore inlined into their caller
(numba's ``inline='always'``), so that a deal's turns make no such call in the common case.
``one_step`` marks a few more helpers inlined for the same reason: each has a single caller
or a body of a few lines (adding an option to a list), runs at every meld step or decision
and costs less than passing its arguments (so inlining it adds no code and no compile time).
``level`` marks the levels between an entry kernel and the shared turn kernel
``engine.play_turns_nb``: a whole deal, a game, the search player's table turn and its
searched decisions.  Numba links the code of every function a compiled function calls into
it, then optimizes and emits the whole again, so each called level above the turn repeats
the optimization and emission of the turn's code; inlined into the kernel above it, a level
adds only its own few lines.  Every other helper stays a call.

``entry`` marks the few kernels called from Python: they allocate the state and keep NRT.
``_nrt`` is a numba target option (not in numba's public docs; numba's own test-suite uses
it); numba is pinned to a version range in pyproject.toml.

Every dispatcher compiles for the plain types of the arguments it is called with from other
kernels (:func:`_plain_calls`): numba would otherwise compile a function once per literal
value of each argument (``f(x, 0)``, ``f(x, True)``, ``f(x, OPT_NEW)`` are three versions),
and every version compiles its own callees again with the literal passed on.

Every kernel is cached on disk by ``canasta_sim._cache.disk_cache`` (one folder per version
of the kernel sources, the same for every install path) rather than by numba's
``cache=True``, whose entries depend on where the package is installed.
"""
from numba import njit, types

from canasta_sim._cache import disk_cache


def _plain_calls(dispatcher):
    """Make calls from jitted code compile and pick ``dispatcher``'s version for the
    non-literal types of their arguments (a literal ``0`` is an int64, ``True`` a bool);
    returns the dispatcher."""
    typed_call = dispatcher.get_call_template

    def get_call_template(args, kws):
        """numba's call template, for the arguments' plain types."""
        return typed_call(tuple(types.unliteral(a) for a in args),
                          {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _cached(**options):
    """A decorator: ``njit(**options)`` with canasta-sim's on-disk cache, compiled for plain
    argument types only (:func:`_plain_calls`)."""
    def decorate(func):
        return disk_cache(_plain_calls(njit(**options)(func)))
    return decorate


kernel = _cached(_nrt=False)
turn_step = _cached(_nrt=False, inline="always")
one_step = _cached(_nrt=False, inline="always")
level = _cached(_nrt=False, inline="always")
entry = _cached(nogil=True)
