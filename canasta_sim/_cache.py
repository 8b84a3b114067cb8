"""Where numba keeps its on-disk cache for this package.

numba's own cache checks only the source file of the entry function, so a kernel
that calls an edited helper in another file would reuse stale machine code.  The
cache folder name therefore carries a hash of every ``kernels/*.py`` file: any
edit to any kernel file gives a fresh folder.
"""
import hashlib
import importlib.util
import os
import sys
from pathlib import Path

_ENV = "NUMBA_CACHE_DIR"


def kernels_dir():
    """The folder holding the ``canasta_sim.kernels`` sources, or None if it cannot be found."""
    try:
        spec = importlib.util.find_spec("canasta_sim.kernels")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    here = Path(__file__).resolve().parent
    for candidate in (here / "kernels", here.parent / "kernels"):
        if (candidate / "__init__.py").is_file():
            return candidate
    return None


def kernels_hash(folder, length=12):
    """Short sha256 over the names and contents of every ``*.py`` file in ``folder``, by name."""
    digest = hashlib.sha256()
    if folder is not None:
        for path in sorted(Path(folder).glob("*.py"), key=lambda p: p.name):
            digest.update(path.name.encode() + b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:length]


def user_cache_dir():
    """``$XDG_CACHE_HOME`` if set and non-empty, else ``~/.cache``."""
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base) if base else Path.home() / ".cache"


def numba_cache_dir():
    """``<user cache>/canasta-sim/numba-<hash of kernels/*.py>``."""
    return user_cache_dir() / "canasta-sim" / f"numba-{kernels_hash(kernels_dir())}"


def configure_numba_cache():
    """Set ``NUMBA_CACHE_DIR`` (unless the user already set it) before numba reads it.

    If numba was imported before this package, its config has already been read,
    so the cache folder is also set on ``numba.core.config`` directly.
    Returns the folder in effect.
    """
    if os.environ.get(_ENV):
        return os.environ[_ENV]
    folder = str(numba_cache_dir())
    os.environ[_ENV] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = folder
    return folder
