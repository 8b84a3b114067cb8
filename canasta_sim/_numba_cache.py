"""numba cache classes for the kernels (see :mod:`canasta_sim._cache` for the why).

Built on ``numba.core.caching`` (numba is pinned to a version range in pyproject.toml).
Imported only with the kernels, so ``import canasta_sim`` does not import numba.  What a
cache reports (a kernel about to compile, a damaged entry removed) goes to the callbacks
that :func:`canasta_sim._cache.disk_cache` hands it, so this module imports nothing of the
package.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys

from numba.core import caching as _nc

_MAGIC = b"canasta-sim cache 1\0"


class DamagedEntry(Exception):
    """A cache data file whose checksum or header does not match its contents."""


class _Locator(_nc._CacheLocator):
    """A fixed folder, stamped by the kernels hash instead of file times and paths."""

    def __init__(self, py_func, folder):
        """Locate ``py_func``'s entries in ``folder``."""
        self._folder = str(folder)
        self._lineno = py_func.__code__.co_firstlineno

    def ensure_cache_path(self):
        """Create the folder (private to the user) if it is missing."""
        os.makedirs(self._folder, mode=0o700, exist_ok=True)

    def get_cache_path(self):
        """The folder of this version of the kernel sources."""
        return self._folder

    def get_source_stamp(self):
        """The kernels hash: the same for every install of the same sources."""
        return os.path.basename(self._folder)

    def get_disambiguator(self):
        """The function's first line, telling apart functions of the same name."""
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):  # pragma: no cover - built directly
        """Not used: :class:`_Impl` builds the locator itself."""
        return None


class _Impl(_nc.CompileResultCacheImpl):
    """numba's compile-result serialisation with :class:`_Locator` as the only locator."""

    def __init__(self, py_func, folder):
        """File names ``<module>.<function>-<line>.py<ver>``, independent of the install path."""
        self._lineno = py_func.__code__.co_firstlineno
        self._locator = _Locator(py_func, folder)
        module = py_func.__module__.rsplit(".", 1)[-1]
        fullname = f"{module}.{getattr(py_func, '__qualname__', py_func.__name__)}"
        self._filename_base = self.get_filename_base(fullname, getattr(sys, "abiflags", ""))


class _CheckedFile(_nc.IndexDataCacheFile):
    """numba's index and data files, each data file prefixed by a sha256 of its payload."""

    def _save_data(self, name, data):
        """Write header, checksum and payload through numba's atomic temporary file."""
        payload = self._dump(data)
        with self._open_for_write(self._data_path(name)) as handle:
            handle.write(_MAGIC + hashlib.sha256(payload).digest() + payload)

    def _load_data(self, name):
        """The entry, or DamagedEntry when header or checksum do not match."""
        with open(self._data_path(name), "rb") as handle:
            blob = handle.read()
        head, digest, payload = blob[:len(_MAGIC)], blob[len(_MAGIC):len(_MAGIC) + 32], \
            blob[len(_MAGIC) + 32:]
        if head != _MAGIC or hashlib.sha256(payload).digest() != digest:
            raise DamagedEntry(self._data_path(name))
        return pickle.loads(payload)

    def remove_all(self):
        """Delete the index and every data file of this function (a damaged entry)."""
        folder = self._cache_path
        prefix = self._index_name[:-len(".nbi")]
        for name in os.listdir(folder):
            if name == self._index_name or (name.startswith(prefix + ".")
                                            and name.endswith(".nbc")):
                try:
                    os.remove(os.path.join(folder, name))
                except OSError:
                    pass


class KernelCache(_nc.FunctionCache):
    """The cache of one kernel: entries in ``folder``; damaged entries removed and the
    kernel compiled again; a failed save only means the next process compiles too."""

    def __init__(self, py_func, folder, on_compile, on_damaged, on_compiled=None):
        """Set up the cache of ``py_func`` in ``folder``; ``on_compile()`` is called before
        numba compiles the kernel, ``on_damaged()`` when a damaged entry was removed,
        ``on_compiled()`` when the machine code of a compiled kernel is there to be stored."""
        self._on_compile, self._on_damaged = on_compile, on_damaged
        self._on_compiled = on_compiled or (lambda: None)
        self._name = repr(py_func)
        self._py_func = py_func
        self._impl = _Impl(py_func, folder)
        self._cache_path = self._impl.locator.get_cache_path()
        self._cache_file = _CheckedFile(cache_path=self._cache_path,
                                        filename_base=self._impl.filename_base,
                                        source_stamp=self._impl.locator.get_source_stamp())
        self.enable()

    def load_overload(self, sig, target_context):
        """The cached machine code for ``sig``, or None (then numba compiles it)."""
        try:
            result = super().load_overload(sig, target_context)
        except Exception:  # noqa: BLE001 - a damaged entry of any kind: unpickling, rebuild
            self._cache_file.remove_all()
            self._on_damaged()
            result = None
        if result is None:
            self._on_compile()
        return result

    def save_overload(self, sig, data):
        """Store the machine code; a damaged index is replaced, a full disk is ignored.  A kernel
        compiled as IR for its jitted callers only (kernels/jit.py) has no machine code and
        is not stored: the entry kernels that call it are."""
        if getattr(data.library, "for_linking_only", False):
            return
        try:
            super().save_overload(sig, data)
        except OSError:
            pass
        except Exception:  # noqa: BLE001 - the existing index could not be read
            self._cache_file.remove_all()
            try:
                super().save_overload(sig, data)
            except Exception:  # noqa: BLE001 - caching is an optimisation only
                pass
        finally:
            self._on_compiled()


class NoCache(_nc.NullCache):
    """No cache at all (the folder is unusable): compile, and say so once."""

    def __init__(self, on_compile, on_compiled=None):
        """``on_compile()`` is called before numba compiles the kernel, ``on_compiled()``
        when the machine code of a compiled kernel is there (and not stored)."""
        self._on_compile = on_compile
        self._on_compiled = on_compiled or (lambda: None)

    def load_overload(self, sig, target_context):
        """Nothing is cached: note the compile and let numba compile."""
        self._on_compile()
        return None

    def save_overload(self, sig, data):
        """Store nothing; an entry kernel's compile has ended."""
        if not getattr(data.library, "for_linking_only", False):
            self._on_compiled()
