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
pushed onto the stack at every call; these helpers are therefore inlined into their caller,
so that a deal's turns make no such call in the common case.  ``one_step`` marks a few more
helpers inlined for the same reason: each has a single caller or a body of a few lines
(adding an option to a list), runs at every meld step or decision and costs less than
passing its arguments.  ``level`` marks the levels between an entry kernel and the shared
turn kernel ``turn.play_turns_nb`` (a whole deal, a game, the search player's table turn
and its searched decisions), inlined so that no call is made per level.  Every other helper
stays a call unless LLVM's own heuristics inline it.

How they are compiled, for a short cold compile (README, "Compile time"):

* **Inlined by LLVM, not by numba.**  numba's ``inline='always'`` copies a callee's numba IR
  into every call site and types the result again; the turn kernel, built that way, took
  77 s of numba front end alone.  Here every helper is typed and lowered once, as its own
  function, and marked LLVM ``alwaysinline`` (:func:`_linking_module`); LLVM inlines it
  when it optimizes the entry kernel, which gives the same machine code structure.
* **Helpers are compiled as IR only.**  numba finalizes every compiled function's library:
  it links in the code of all its callees, optimizes the whole at -O3 and emits machine
  code for it.  A deep call tree therefore optimizes and emits the turn's code once per
  level above it.  A helper compiled for a jitted caller (:func:`_plain_calls` knows) is
  finalized as IR only (:func:`_finalize_for_linking`); only the entry kernels, called from
  Python, are optimized and emitted, each once.  A helper called from Python (the tests do)
  is compiled again as machine code at its first such call (:class:`_CompiledForJit`), and
  that version is cached on disk.  This took the cold compile of every entry from 292 s to
  126 s of CPU, with the same rows (tests/identity_outputs.py).

``entry`` marks the few kernels called from Python: they allocate the state and keep NRT.
``_nrt`` is a numba target option (not in numba's public docs; numba's own test-suite uses
it), and the two compile steps above replace numba internals (``CPUContext.get_executable``,
``CPUCodeLibrary._get_module_for_linking``, a dispatcher's ``add_overload``); numba is
pinned to a version range in pyproject.toml, and the test suite exercises both paths.

Every dispatcher compiles for the plain types of the arguments it is called with from other
kernels (:func:`_plain_calls`): numba would otherwise compile a function once per literal
value of each argument (``f(x, 0)``, ``f(x, True)``, ``f(x, OPT_NEW)`` are three versions),
and every version compiles its own callees again with the literal passed on.

Every kernel is cached on disk by ``canasta_sim._cache.disk_cache`` (one folder per version
of the kernel sources, the same for every install path) rather than by numba's
``cache=True``, whose entries depend on where the package is installed.
"""
from numba import njit, types
from numba.core.codegen import CPUCodeLibrary
from numba.core.cpu import CPUContext

from canasta_sim._cache import disk_cache

_ALWAYS_INLINE = set()      # LLVM names of the compiled versions of inlined helpers
_COMPILING = []             # the dispatchers being compiled for a jitted caller, innermost last


def _linking_module(self, _original=CPUCodeLibrary._get_module_for_linking):
    """numba's module for linking a library into its callers, with LLVM's ``alwaysinline``
    on the functions of :data:`_ALWAYS_INLINE`, so that the caller's optimization inlines
    them."""
    module = _original(self)
    for function in module.functions:
        if function.name in _ALWAYS_INLINE and not function.is_declaration and \
                b"alwaysinline" not in b" ".join(function.attributes):
            function.add_function_attribute("alwaysinline")
    return module


def _finalize_for_linking(library):
    """Finalize ``library`` as IR only: link its callees' modules in, without optimizing the
    whole or emitting machine code (its callers do both, once, for everything they link)."""
    seen = set()
    for callee in library._linking_libraries:
        if callee not in seen:
            seen.add(callee)
            library._reload_init.update(callee._reload_init)
            library._final_module.link_in(callee._get_module_for_linking(), preserve=True)
    library._finalized = True
    library.for_linking_only = True


class _CompiledForJit:
    """The entry point of a kernel compiled as IR for its jitted callers: a call from Python
    compiles the kernel again as machine code (:func:`_python_version`) and runs that."""

    def __init__(self, dispatcher, args):
        self.dispatcher = dispatcher
        self.args = args

    def __call__(self, *values):
        return _python_version(self.dispatcher, self.args)(*values)


def _python_version(dispatcher, args):
    """Compile ``dispatcher`` for ``args`` as machine code callable from Python, make it the
    version Python calls use, and return its entry point."""
    cres = dispatcher._cache.load_overload(args, dispatcher.targetctx)
    if cres is None:
        _COMPILING.append(None)
        try:
            cres = dispatcher._compiler.compile(args, None)
        finally:
            _COMPILING.pop()
        dispatcher._cache.save_overload(args, cres)
    dispatcher._insert([a._code for a in args], cres.entry_point, cres.objectmode)
    return cres.entry_point


def _get_executable(self, library, fndesc, env, _original=CPUContext.get_executable):
    """numba's entry point of a compiled function; for a kernel compiled for a jitted caller,
    the library is finalized as IR only and the entry point is a :class:`_CompiledForJit`."""
    dispatcher = _COMPILING[-1] if _COMPILING else None
    if dispatcher is None or dispatcher.py_func.__qualname__ != fndesc.qualname or \
            dispatcher.py_func.__module__ != fndesc.modname:
        return _original(self, library, fndesc, env)
    _finalize_for_linking(library)
    return _CompiledForJit(dispatcher, tuple(fndesc.argtypes))


def _internals_present():
    """Whether this numba and llvmlite have the internals that the two compile steps above
    replace; without them the kernels compile as numba alone would (inlined by numba,
    every library finalized), slower to compile but the same code."""
    from llvmlite.binding import ValueRef

    return hasattr(CPUCodeLibrary, "_get_module_for_linking") and \
        hasattr(CPUContext, "get_executable") and hasattr(ValueRef, "add_function_attribute")


FAST_COMPILE = _internals_present()
if FAST_COMPILE:
    CPUCodeLibrary._get_module_for_linking = _linking_module
    CPUContext.get_executable = _get_executable


def _inline_in_llvm(dispatcher):
    """Have every compiled version of ``dispatcher`` inlined into its callers by LLVM;
    returns the dispatcher."""
    add_overload = dispatcher.add_overload

    def add_and_mark(cres):
        """numba's add_overload, recording the version's LLVM name first."""
        _ALWAYS_INLINE.add(cres.fndesc.llvm_func_name)
        _ALWAYS_INLINE.add(cres.fndesc.mangled_name)
        return add_overload(cres)

    dispatcher.add_overload = add_and_mark
    return dispatcher


def _collect_less_while_compiling(dispatcher):
    """Make ``dispatcher``'s compiles run with Python's cyclic garbage collector collecting
    a hundred times less often (numba's compiler makes millions of short-lived objects, and
    the collector's passes over them took about a tenth of a cold compile); the thresholds
    are put back as they were when the compile ends; returns the dispatcher."""
    import gc

    compile_ = dispatcher.compile

    def compile_collecting_less(sig):
        """numba's compile, with the collector's first threshold raised."""
        thresholds = gc.get_threshold()
        gc.set_threshold(thresholds[0] * 100, *thresholds[1:])
        try:
            return compile_(sig)
        finally:
            gc.set_threshold(*thresholds)

    dispatcher.compile = compile_collecting_less
    return dispatcher


def _plain_calls(dispatcher):
    """Make calls from jitted code compile and pick ``dispatcher``'s version for the
    non-literal types of their arguments (a literal ``0`` is an int64, ``True`` a bool);
    returns the dispatcher."""
    typed_call = dispatcher.get_call_template
    add_overload = dispatcher.add_overload

    def get_call_template(args, kws):
        """numba's call template, for the arguments' plain types."""
        _COMPILING.append(dispatcher)
        try:
            return typed_call(tuple(types.unliteral(a) for a in args),
                              {k: types.unliteral(v) for k, v in kws.items()})
        finally:
            _COMPILING.pop()

    def add_for_jit(cres):
        """numba's add_overload; a version compiled as IR only is kept for jitted callers
        but not offered to Python calls, which compile their own (:class:`_CompiledForJit`)."""
        if isinstance(cres.entry_point, _CompiledForJit):
            dispatcher.overloads[tuple(cres.signature.args)] = cres
        else:
            add_overload(cres)

    dispatcher.get_call_template = get_call_template
    dispatcher.add_overload = add_for_jit
    return dispatcher


def _cached(inline=False, **options):
    """A decorator: ``njit(**options)`` with canasta-sim's on-disk cache, compiled for plain
    argument types only (:func:`_plain_calls`), inlined into its callers if ``inline``
    (by LLVM, or by numba without :data:`FAST_COMPILE`)."""
    if inline and not FAST_COMPILE:
        options["inline"] = "always"

    def decorate(func):
        dispatcher = _plain_calls(njit(**options)(func))
        return disk_cache(_inline_in_llvm(dispatcher) if inline and FAST_COMPILE
                          else dispatcher)
    return decorate


kernel = _cached(_nrt=False)
turn_step = _cached(True, _nrt=False)
one_step = _cached(True, _nrt=False)
level = _cached(True, _nrt=False)
_cached_entry = _cached(nogil=True)


def entry(func):
    """The decorator of entry kernels: see the module docstring."""
    return _collect_less_while_compiling(_cached_entry(func))
