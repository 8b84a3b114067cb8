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
``one_step`` marks a few more helpers inlined for the same reason: each has a single caller,
runs at every meld step or decision and costs less than passing its arguments (so inlining
it adds no code and no compile time).  Every other helper stays a call.

``entry`` marks the few kernels called from Python: they allocate the state and keep NRT.
``_nrt`` is a numba target option (not in numba's public docs; numba's own test-suite uses
it); numba is pinned to a version range in pyproject.toml.

Every kernel is cached on disk by ``canasta_sim._cache.disk_cache`` (one folder per version
of the kernel sources, the same for every install path) rather than by numba's
``cache=True``, whose entries depend on where the package is installed.
"""
from numba import njit

from canasta_sim._cache import disk_cache


def _cached(**options):
    """A decorator: ``njit(**options)`` with canasta-sim's on-disk cache."""
    def decorate(func):
        return disk_cache(njit(**options)(func))
    return decorate


kernel = _cached(_nrt=False)
turn_step = _cached(_nrt=False, inline="always")
one_step = _cached(_nrt=False, inline="always")
entry = _cached(nogil=True)
