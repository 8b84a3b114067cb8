"""A user's own policy: find it, load it, compile it and give the engine its address.

``--policies my_policy.py:mine`` (``file.py:function``, optionally with parameters,
``my_policy.py:mine(greed=2)``), or the name of an entry point in the group
``canasta_sim.policies`` (a package's ``[project.entry-points."canasta_sim.policies"]``
table, ``name = "module:function"``), names a function written against
:mod:`canasta_sim.policy_api`.  How it reaches the engine (kernels/players/user.py):

* A numba function (``@njit``) is compiled into a C-callable wrapper (a numba ``cfunc``)
  whose address goes into the policy table of every kernel call; the engine itself is not
  compiled again.  The wrapper is generated into the kernel cache folder under a name that
  holds the sha256 of the user's file, and numba caches it there, so a file is compiled
  once per machine and version of its contents (the first time: a few seconds).
* A plain Python function runs through a ctypes callback: the same interface, no numba
  needed, about 10 microseconds per decision on top of the function's own time
  (docs/own-policy.md has the measured figures).  It is meant for prototyping.

The canonical text of a user policy is ``label@digest``: the file as given and the
function, then the first 8 hex digits of the sha256 of the file.  A run's outputs carry
it, so they say which version of the file played; a study resumed after the file changed
refuses to mix the two.  A :class:`UserPolicy` holds the file's text, so another process
(a thread pool, a Dask worker) rebuilds the very same policy without the file.
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import math
import re
import sys
import threading
import traceback
from pathlib import Path
from typing import NamedTuple, Optional

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.numbers import format_number

ENTRY_POINT_GROUP = "canasta_sim.policies"
SPEC = re.compile(r"^\s*(?P<file>[^:()@]+?\.py)\s*:\s*(?P<func>[A-Za-z_][A-Za-z0-9_]*)"
                  r"(?:@(?P<digest>[0-9a-f]{8}))?\s*(?:\((?P<body>.*)\))?\s*$", re.DOTALL)
NAMED = re.compile(r"^\s*(?P<func>[A-Za-z_][A-Za-z0-9_.-]*)(?:@(?P<digest>[0-9a-f]{8}))?"
                   r"\s*(?:\((?P<body>.*)\))?\s*$", re.DOTALL)
DIGEST_LEN = 8


class PolicyError(BadInput):
    """A user policy that cannot be loaded or that broke the interface while playing;
    ``info`` says where it broke (kind, deal, seat, decision, user) when it did."""

    def __init__(self, message: str, info: Optional[dict] = None):
        super().__init__(message)
        self.info = info or {}


class UserPolicy(NamedTuple):
    """One user policy, with everything another process needs to rebuild it."""

    label: str          # "my_policy.py:mine" (the file as given) or an entry point's name
    func: str           # the function's name in its module
    path: str           # the file it was read from (absolute)
    source: str         # the file's text
    digest: str         # first DIGEST_LEN hex digits of the sha256 of ``source``
    params: tuple       # ((name, default), ...) declared with policy_api.policy
    python: bool        # a plain-Python function (the ctypes path)

    @property
    def canonical(self) -> str:
        """``label@digest``: the policy's name in outputs."""
        return f"{self.label}@{self.digest}"


_LOCK = threading.RLock()
_PARSED: dict = {}        # canonical label@digest -> UserPolicy, filled by parse_user
_SOURCES: dict = {}       # digest -> {path: text} of files sent by another process
_LOADED: dict = {}        # (digest, func) -> the user's function object
_ENTRIES: dict = {}       # (digest, func, python) -> (address, object keeping it alive)
_FAILURES: dict = {}      # digest -> (message) of the last Python-path failure
_ARRAYS: dict = {}        # (address, shape, dtype) -> numpy view, for the ctypes path


# --------------------------------------------------------------------------------------------
# Parsing a policy text
# --------------------------------------------------------------------------------------------

def looks_like_file(text: str) -> bool:
    """Whether ``text`` names a policy in a Python file (``something.py:function``)."""
    return SPEC.match(text) is not None


def parse_user(text: str, builtin: bool = False):
    """``file.py:func(p=v,...)`` or an entry point's name -> (canonical text, parameter
    values list, UserPolicy), or None when ``text`` is neither.  Raises PolicyError for a
    file or function that cannot be used."""
    match = SPEC.match(text)
    if match is not None:
        user = load_file(match.group("file").strip(), match.group("func"),
                         match.group("digest"))
    else:
        match = NAMED.match(text)
        if builtin or match is None:
            return None
        user = load_entry_point(match.group("func"))
        if user is None:
            return None
    digest = match.group("digest")
    if digest is not None and digest != user.digest:
        raise PolicyError(f"policy {user.label}@{digest} was written by another version of "
                          f"{user.path}: accepted: the file as it was (@{digest}) or the "
                          f"current one, {user.canonical}")
    given = _parse_params(user, match.group("body") or "")
    values = dict(user.params)
    values.update(given)
    canonical = user.canonical
    _PARSED[canonical] = user
    if given:
        canonical += "(" + ",".join(f"{k}={format_number(given[k])}" for k in sorted(given)) + ")"
    return canonical, [values[k] for k, _ in user.params], user


def user_of(name: str) -> Optional[UserPolicy]:
    """The UserPolicy behind a canonical policy name that :func:`parse_user` returned in this
    process, or None for a built-in policy."""
    return _PARSED.get(name.split("(", 1)[0].strip())


def users_of(names) -> tuple:
    """:func:`user_of` for every seat's canonical name."""
    return tuple(user_of(name) for name in names)


def _parse_params(user: UserPolicy, body: str) -> dict:
    """``p=v,...`` -> {name: float}; PolicyError for unknown names or non-finite values."""
    declared = dict(user.params)
    accepted = ", ".join(declared) if declared else "none (declare them with policy_api.policy)"
    given = {}
    for item in body.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in declared:
            raise PolicyError(f"policy {user.label} has no parameter "
                              f"{(key if eq else item.strip())!r}: accepted parameters are "
                              f"{accepted}")
        if key in given:
            raise PolicyError(f"policy {user.label} parameter {key!r} is given twice: "
                              "accepted is each parameter once")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise PolicyError(f"policy {user.label} parameter {key}={value.strip()!r} is not "
                              "a finite number: accepted: a number such as 2.5")
        given[key] = number
    return given


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------

def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:DIGEST_LEN]


def load_file(file: str, func: str, digest: Optional[str] = None) -> UserPolicy:
    """Read and import ``file`` and find ``func`` in it; PolicyError if either is unusable.
    With ``digest``, a file of that digest sent by another process (:func:`receive_sources`)
    is used when the file here is missing or has changed."""
    label = f"{file}:{func}"
    path = Path(file).expanduser()
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        if digest in _SOURCES:
            return _make(label, func, *_sent(digest, path))
        reason = getattr(exc, "strerror", None) or str(exc)
        raise PolicyError(f"policy file {file!r} cannot be read ({reason}): accepted: a "
                          "readable Python file, as in my_policy.py:mine") from None
    if digest is not None and digest != _digest(source) and digest in _SOURCES:
        return _make(label, func, *_sent(digest, path))
    return _make(label, func, str(path.resolve()), source)


def _sent(digest: str, path: Path) -> tuple:
    """(path, text) of a sent file of ``digest``: the one sent for ``path`` if there is one."""
    files = _SOURCES[digest]
    where = str(path.expanduser().resolve())
    return (where, files[where]) if where in files else sorted(files.items())[0]


def sent_sources() -> list:
    """(path, text) of every user file parsed in this process: what a Dask coordinator sends
    with each task, so a worker plays the very same versions without the files."""
    return sorted({(u.path, u.source) for u in _PARSED.values()})


def receive_sources(sources) -> None:
    """Make the (path, text) files of another process available by digest."""
    for path, source in sources or ():
        _SOURCES.setdefault(_digest(source), {})[path] = source


def load_entry_point(name: str) -> Optional[UserPolicy]:
    """The policy registered as entry point ``name`` of ENTRY_POINT_GROUP, or None."""
    from importlib.metadata import entry_points

    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        return None
    module_name, _, func = found[0].value.partition(":")
    spec = importlib.util.find_spec(module_name.strip())
    if spec is None or not spec.origin or not func:
        raise PolicyError(f"policy entry point {name!r} = {found[0].value!r} cannot be "
                          "loaded: accepted: \"module:function\" of an installed module")
    source = Path(spec.origin).read_text(encoding="utf-8")
    return _make(name, func.strip(), spec.origin, source)


def _make(label: str, func: str, path: str, source: str) -> UserPolicy:
    """Import the module, check the function and build the UserPolicy."""
    digest = _digest(source)
    fn = _function(label, func, path, source, digest)
    _check_signature(label, path, fn)
    declared = getattr(fn, "canasta_params", None) or getattr(
        getattr(fn, "py_func", None), "canasta_params", None) or {}
    return UserPolicy(label, func, path, source, digest, tuple(declared.items()),
                      not _is_numba(fn))


ARGUMENTS = ("decision", "opts", "n", "view", "params", "rules", "rand")


def _check_signature(label: str, path: str, fn) -> None:
    """PolicyError unless ``fn`` (or the Python function a numba one compiles) can be
    called with the interface's seven positional arguments."""
    import inspect

    python = getattr(fn, "py_func", fn)
    try:
        signature = inspect.signature(python)
    except (TypeError, ValueError):  # a builtin or a C function: found out when called
        return
    try:
        signature.bind(*ARGUMENTS)
    except TypeError:
        raise PolicyError(f"policy {label} in {Path(path).name} takes {python.__name__}"
                          f"{signature}: accepted: a function of the seven arguments "
                          f"({', '.join(ARGUMENTS)}), as in docs/own-policy.md") from None


def _is_numba(fn) -> bool:
    """Whether ``fn`` is a numba-compiled function (a CPU dispatcher)."""
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    return isinstance(fn, Dispatcher)


def _function(label: str, func: str, path: str, source: str, digest: str):
    """The user's function object, importing its module once per process (by digest)."""
    with _LOCK:
        if (digest, func) in _LOADED:
            return _LOADED[(digest, func)]
        module = _import(label, path, source, digest)
        fn = getattr(module, func, None)
        if fn is None or not callable(fn):
            names = sorted(n for n, v in vars(module).items()
                           if callable(v) and not n.startswith("_") and
                           getattr(v, "__module__", None) == module.__name__)
            raise PolicyError(f"policy {label}: {Path(path).name} has no function {func!r}: "
                              f"accepted: one of its functions ({', '.join(names) or 'none'})")
        _LOADED[(digest, func)] = fn
        return fn


def _import(label: str, path: str, source: str, digest: str):
    """Import the user's module from ``path`` (or, when that file no longer holds
    ``source``, from a copy of ``source`` in the cache folder) under a unique name."""
    file = Path(path)
    try:
        same = file.read_text(encoding="utf-8") == source
    except (OSError, UnicodeDecodeError):
        same = False
    if not same:
        file = _cache_folder() / f"{_stem(path)}_{digest}.py"
        if not file.is_file():
            _write_new(file, source)
    name = f"canasta_user_{_stem(path)}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # noqa: BLE001 - the user's module raised while importing
        del sys.modules[name]
        if isinstance(exc, KeyboardInterrupt) and _stop_signalled():
            raise
        raise PolicyError(f"policy {label}: importing {file.name} raised "
                          f"{_one_line(exc)}{_where(exc, file)}: accepted: a module that "
                          "imports cleanly") from None
    return module


def _stem(path: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", Path(path).stem) or "policy"


def _cache_folder() -> Path:
    """Where generated wrappers and copies of user files go: beside the compiled kernels."""
    from canasta_sim import _cache

    folder = _cache.active_folder()
    if folder is None:
        import tempfile
        folder = Path(tempfile.gettempdir()) / "canasta-sim-user"
    folder = Path(folder) / "user"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _write_new(file: Path, text: str) -> None:
    """Write ``text`` to ``file`` atomically (another process may write the same file)."""
    tmp = file.with_name(f".{file.name}.{threading.get_ident()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(file)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _where(exc: BaseException, file) -> str:
    """`` (file line N)`` for the innermost frame of ``exc`` in the user's file, if any."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if Path(f.filename).name == Path(str(file)).name]
    return f" ({Path(frames[-1].filename).name} line {frames[-1].lineno})" if frames else ""


# --------------------------------------------------------------------------------------------
# Compiling: the address the engine calls
# --------------------------------------------------------------------------------------------

def address(user: UserPolicy) -> int:
    """The address of ``user``'s C-callable entry in this process (compiled or loaded from
    the cache on first use)."""
    key = (user.digest, user.func, user.python)
    with _LOCK:
        if key not in _ENTRIES:
            fn = _function(user.label, user.func, user.path, user.source, user.digest)
            if user.python and _is_numba(fn):
                fn = fn.py_func                    # check-policy's plain-Python replay
            _ENTRIES[key] = _python_entry(user, fn) if user.python else _numba_entry(user, fn)
        return _ENTRIES[key][0]


def _arg_types():
    """The numba types the wrapper passes to a compiled policy."""
    from numba import types
    return (types.int64, types.Array(types.int64, 2, "C"), types.int64,
            types.Array(types.int64, 1, "C"), types.Array(types.float64, 1, "C"),
            types.Array(types.int64, 1, "C"), types.int64)


def check_compiles(user: UserPolicy, fn) -> None:
    """Compile the user's function for the interface's argument types; PolicyError if it
    does not compile or does not return a whole number."""
    from numba import types
    from numba.core.errors import NumbaError

    try:
        fn.compile(_arg_types())
    except NumbaError as exc:
        first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
        raise PolicyError(f"policy {user.label} does not compile with numba ({first[:200]}): "
                          "accepted: a function of (decision, opts, n, view, params, rules, "
                          f"rand); canasta-sim check-policy {user.label} prints numba's "
                          "whole message") from None
    result = fn.overloads[_arg_types()].signature.return_type
    if not isinstance(result, types.Integer) or isinstance(result, types.Boolean):
        raise PolicyError(f"policy {user.label} returns {result}: accepted: a whole number "
                          "(the index of an option), on every path")


WRAPPER = '''"""Generated by canasta-sim for {canonical}: the C-callable entry the engine calls
(canasta_sim/user_policy.py).  Do not edit; it is rebuilt when missing."""
from numba import carray, cfunc, njit

from canasta_sim.policy_api import MAX_OPTS, NPARAMS, NRULES, RAISED, VIEW_LEN
from canasta_sim.user_policy import C_SIGNATURE, loaded_function

_decide = loaded_function({digest!r}, {func!r})


@njit(cache=True)
def _checked(decision, opts, n, view, params, rules, rand):
    try:
        return _decide(decision, opts, n, view, params, rules, rand)
    except Exception:
        return RAISED


@cfunc(C_SIGNATURE, cache=True)
def entry(decision, opts, n, view, params, rules, rand):
    return _checked(decision, carray(opts, (MAX_OPTS, 5)), n, carray(view, (VIEW_LEN,)),
                    carray(params, (NPARAMS,)), carray(rules, (NRULES,)), rand)
'''


def _c_signature():
    from numba import types
    i64p = types.CPointer(types.int64)
    return types.int64(types.int64, i64p, types.int64, i64p, types.CPointer(types.float64),
                       i64p, types.int64)


def loaded_function(digest: str, func: str):
    """The user function already loaded in this process, compiled again with numba's bounds
    checking (for the generated wrapper): an index outside an array raises IndexError, which
    the wrapper reports, instead of reading or writing memory it does not own."""
    key = (digest, func, "boundscheck")
    if key not in _LOADED:
        from numba import njit
        _LOADED[key] = njit(boundscheck=True)(_LOADED[(digest, func)].py_func)
    return _LOADED[key]


def _numba_entry(user: UserPolicy, fn):
    """Compile (or load from numba's cache) the wrapper of a numba policy; (address, cfunc).
    The user's function is checked first (numba's own messages are long), unless a cached
    wrapper shows that this version of it was checked and compiled before."""
    from canasta_sim._cache import kernels_dir, kernels_hash

    tag = f"{_stem(user.path)}_{user.digest}_{user.func}_{kernels_hash(kernels_dir(), 8)}"
    file = _cache_folder() / f"wrap_{tag}.py"
    if not any((file.parent / "__pycache__").glob(f"{file.stem}.entry-*.nbi")):
        check_compiles(user, loaded_function(user.digest, user.func))
    text = WRAPPER.format(canonical=user.canonical, digest=user.digest, func=user.func)
    if not file.is_file() or file.read_text(encoding="utf-8") != text:
        _write_new(file, text)
    name = f"canasta_user_wrap_{tag}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module.entry.address, module.entry


def _array(pointer, shape, ctype):
    """A numpy view of ``shape`` at ``pointer`` (memoised: the engine's scratch rows stay put)."""
    addr = ctypes.cast(pointer, ctypes.c_void_p).value
    key = (addr, shape, ctype)
    view = _ARRAYS.get(key)
    if view is None:
        if len(_ARRAYS) > 256:
            _ARRAYS.clear()
        view = np.ctypeslib.as_array(ctypes.cast(addr, ctypes.POINTER(ctype)), shape)
        _ARRAYS[key] = view
    return view


def _python_entry(user: UserPolicy, fn):
    """A ctypes callback calling a plain-Python policy; (address, callback)."""
    from canasta_sim import _signals
    from canasta_sim.policy_api import MAX_OPTS, NPARAMS, NRULES, RAISED, VIEW_LEN

    proto = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                             ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                             ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int64),
                             ctypes.c_int64)
    i64, f64 = ctypes.c_int64, ctypes.c_double

    def call(decision, opts, n, view, params, rules, rand):
        if _signals.stopping():           # the run is stopping: no more user code
            _FAILURES[user.digest] = KeyboardInterrupt()
            return RAISED
        try:
            answer = fn(decision, _array(opts, (MAX_OPTS, 5), i64), n,
                        _array(view, (VIEW_LEN,), i64), _array(params, (NPARAMS,), f64),
                        _array(rules, (NRULES,), i64), rand)
        except BaseException as exc:  # noqa: BLE001 - reported by the Python face
            _FAILURES[user.digest] = exc
            return RAISED
        if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, (int, np.integer)):
            _FAILURES[user.digest] = _NotAnIndex(f"returned {answer!r}, not a whole number,")
            return RAISED
        return int(answer)

    callback = proto(call)
    return ctypes.cast(callback, ctypes.c_void_p).value, callback


# --------------------------------------------------------------------------------------------
# The policy table and its errors
# --------------------------------------------------------------------------------------------

def policy_table(ids: np.ndarray, users) -> np.ndarray:
    """The policy table one kernel call receives (kernels/players/user.py): the ids, the address of
    each user seat's entry, and an empty error record."""
    from canasta_sim.kernels.players import user as k

    table = np.zeros(k.POLICY_TABLE, np.int64)
    table[:len(ids)] = ids
    for seat, user in enumerate(users or ()):
        if user is not None:
            table[k.ADDRESS + seat] = address(user)
    return table


def raise_if_failed(table: np.ndarray, users, names) -> None:
    """PolicyError naming the policy, the decision and the deal if a user policy broke the
    interface during the call that used ``table``; a KeyboardInterrupt inside a plain-Python
    policy is raised again as such."""
    from canasta_sim.kernels.players import user as k
    from canasta_sim.policy_api import DECISIONS

    code = int(table[k.ERR_CODE])
    if code == 0:
        return
    seat = int(table[k.ERR_SEAT])
    user = users[seat]
    n = int(table[k.ERR_OPTIONS])
    where = (f"at a {DECISIONS.get(int(table[k.ERR_DECISION]), '?')} decision with {n} "
             f"options (deal {int(table[k.ERR_DEAL])}, seat {seat})")
    label = user.label if user is not None else names[seat]
    info = {"kind": "range" if code == k.ERR_OUT_OF_RANGE else "raised", "seat": seat,
            "deal": int(table[k.ERR_DEAL]), "decision": int(table[k.ERR_DECISION]),
            "user": user}
    if code == k.ERR_OUT_OF_RANGE:
        raise PolicyError(f"policy {label} returned {int(table[k.ERR_VALUE])} {where}: "
                          f"accepted: an option index 0..{n - 1}", info)
    failure = _FAILURES.pop(user.digest, None) if user is not None and user.python else None
    if isinstance(failure, KeyboardInterrupt) and _stop_signalled():
        raise KeyboardInterrupt
    if isinstance(failure, _NotAnIndex):
        raise PolicyError(f"policy {label} {failure} {where}: accepted: a whole number, the "
                          "index of an option", info)
    if failure is not None:
        raise PolicyError(f"policy {label} raised {_one_line(failure)}"
                          f"{_where(failure, user.path)} {where}: accepted: a policy that "
                          "returns an option index without raising", info)
    raise PolicyError(f"policy {label} raised an exception {where}: accepted: a policy that "
                      f"returns an option index; canasta-sim check-policy {label} plays it "
                      "as plain Python and shows the exception", info)


def _stop_signalled() -> bool:
    """Whether a stop signal (Ctrl-C, SIGTERM, SIGHUP) arrived: a KeyboardInterrupt the
    user's own code raised without one is the user's exception, like any other."""
    from canasta_sim import _signals

    return _signals.stopping()


class _NotAnIndex(TypeError):
    """A plain-Python policy's answer that is not a whole number."""


def __getattr__(name):
    """``C_SIGNATURE`` is built on first use (it imports numba)."""
    if name == "C_SIGNATURE":
        return _c_signature()
    raise AttributeError(name)
