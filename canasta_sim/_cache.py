"""Where and how the compiled kernels are kept on disk (docs/install.md, "The kernel cache").

Each jitted kernel gets its own numba cache object (:class:`KernelCache`), set on its
dispatcher by ``canasta_sim.kernels.jit``; nothing here changes numba's settings for the
rest of the process (``NUMBA_CACHE_DIR`` and numba's own locators are left alone, so a
user's own ``cache=True`` functions are cached where numba would put them anyway).

* The folder is ``<root>/numba-<hash>``: ``<root>`` is ``$CANASTA_SIM_CACHE_DIR`` if set,
  else ``$XDG_CACHE_HOME/canasta-sim`` or ``~/.cache/canasta-sim``; ``<hash>`` is a sha256
  over every ``*.py`` file under ``kernels/``, sub-folders included, by relative path.
  numba's own cache checks only the source file of the entry function, so an edited helper
  in another file would reuse stale machine code; the hash gives a fresh folder instead.
* The entries do not depend on where the package is installed (numba's default names the
  folder after the source path and stamps entries with the file's mtime), so
  ``pip install .`` and ``pip install -e .`` of the same sources share one compilation.
* Every data file carries a sha256 of its contents; a corrupt or truncated entry is
  removed and the kernel compiled again.  A cache that cannot be written is skipped.
* If the folder cannot be created or written, the kernels compile in every process and
  nothing is written anywhere (never beside the sources).
* The first kernel that must be compiled prints one line on stderr saying so; on a terminal
  a short line under it counts the seconds while the compile runs and ends as the line of
  the compile's end.  :func:`compile_seconds` is how long this process has spent compiling,
  and :func:`say_compiled` prints the line that ends a compile with its time elsewhere (the
  commands call it once the kernels are ready, and their closing line counts the compile).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ENV = "CANASTA_SIM_CACHE_DIR"
COMPILE_TIME = ("about 1.5 minutes, and 1.5 more the first time a Modern American rule set "
                "is played; longer on a busy machine")
"""How long a cold compile of every kernel takes: the one place this figure is kept (the
measurement and its command: docs/performance.md, "Cold compile"; every message and help text
that gives it uses this)."""
COMPILE_NOTE = ("canasta-sim: compiling the kernels (once per machine and version of the "
                f"kernel sources; {COMPILE_TIME})...")
_FOLDER_NAME = re.compile(r"numba-[0-9a-f]{12}")

TICK_SECONDS = 1.0  # how often the compile line on a terminal counts on

# What this process has done with the cache: the folder in use (False = not resolved yet,
# None = unusable), why it is unusable, whether the compile line was printed, when the
# compile under way began (a perf_counter, None when none is), the seconds of the compiles
# that ended, whether the end of them was said, and the ticker of the compile line.
STATE = {"folder": False, "reason": "", "noted": False, "damaged": 0, "started": None,
         "seconds": 0.0, "said": False, "ticker": None}


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
    """Short sha256 over the relative paths and contents of every ``*.py`` file in ``folder``
    and its sub-folders (``game/``, ``players/``, ``play/``), in path order, so that an edit
    anywhere in the kernels gives a new hash."""
    digest = hashlib.sha256()
    if folder is not None:
        folder = Path(folder)
        files = sorted(folder.rglob("*.py"), key=lambda p: p.relative_to(folder).as_posix())
        for path in files:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:length]


def current_kernels_hash() -> str:
    """The hash of the installed kernel sources (the numba cache key, and the provenance
    every result file, study shard, strength table and tuning carries)."""
    return kernels_hash(kernels_dir())


def user_cache_dir():
    """``$XDG_CACHE_HOME`` if set and non-empty, else ``~/.cache``."""
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base) if base else Path.home() / ".cache"


def cache_root():
    """The folder holding every version's cache: ``$CANASTA_SIM_CACHE_DIR`` or
    ``<user cache>/canasta-sim``."""
    base = os.environ.get(ENV)
    return Path(base).expanduser() if base else user_cache_dir() / "canasta-sim"


def numba_cache_dir():
    """``<cache root>/numba-<hash of kernels/**/*.py>``: the folder of these kernel sources."""
    return cache_root() / f"numba-{current_kernels_hash()}"


def _usable(folder: Path):
    """'' if ``folder`` can be created and written, else the reason it cannot."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        return exc.strerror or str(exc)
    return ""


def active_folder():
    """The cache folder this process uses, or None when it is unusable (resolved once)."""
    if STATE["folder"] is False:
        folder = numba_cache_dir()
        reason = _usable(folder)
        STATE["folder"] = None if reason else folder
        STATE["reason"] = reason and f"cannot use the cache folder {str(folder)!r}: {reason}"
    return STATE["folder"]


def _say(line: str):
    """One line on stderr, flushed at once (also when stderr is not a terminal)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):  # stderr closed or missing
        pass


def _on_terminal() -> bool:
    """Whether stderr is a terminal (where a line can be rewritten in place)."""
    try:
        return sys.stderr.isatty()
    except (OSError, ValueError, AttributeError):
        return False


class _Ticker:
    """On a terminal, a short line under the compile line counting the seconds since the
    compile began (``canasta-sim: compiling... 37 s``), rewritten every ``TICK_SECONDS`` from
    a daemon thread (numba compiles in the calling thread); short so that it never wraps,
    which would make ``\\r`` print a new line at every tick on a narrow terminal."""

    def __init__(self, started: float):
        """Start counting from ``started`` (a perf_counter)."""
        self.started = started
        self.stop_event = threading.Event()
        self._write("canasta-sim: compiling... 0 s")
        self.thread = threading.Thread(target=self._run, name="canasta-sim-compile-line",
                                       daemon=True)
        self.thread.start()

    @staticmethod
    def _write(text: str, end: str = ""):
        """Rewrite the line as ``text``."""
        try:
            sys.stderr.write("\r" + text + "\033[K" + end)
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass

    def _run(self):
        """Count on until stopped."""
        while not self.stop_event.wait(TICK_SECONDS):
            self._write(f"canasta-sim: compiling... {time.perf_counter() - self.started:.0f} s")

    def stop(self, seconds: float):
        """Stop counting and replace the line by the line of the compile's end."""
        self.stop_event.set()
        self.thread.join()
        self._write(_compiled_line(seconds), "\n")


def _compiled_line(seconds: float) -> str:
    """The line that ends a compile."""
    return f"canasta-sim: compiled the kernels in {seconds:.1f} s"


def note_compiling():
    """A kernel is about to be compiled: start the clock of the compile (if it is not
    running) and print the compile line once per process, with the cache problem if there
    is one (on a terminal the line then counts the seconds until :func:`note_compiled`)."""
    if STATE["started"] is None:
        STATE["started"] = time.perf_counter()
        STATE["said"] = False
    if STATE["noted"]:
        return
    STATE["noted"] = True
    if STATE["reason"]:
        _say(f"canasta-sim: warning: {STATE['reason']}; the kernels are compiled again in "
             f"every run: set {ENV} to a writable folder (docs/install.md)")
    _say(COMPILE_NOTE)
    if _on_terminal():
        STATE["ticker"] = _Ticker(STATE["started"])


def note_compiled():
    """An entry kernel has been compiled (and stored): stop the clock of the compile; on a
    terminal the counting line becomes the line of the compile's end.  Kernels compiled only
    to be linked into their callers do not count: their entry kernel's compile goes on."""
    if STATE["started"] is not None:
        STATE["seconds"] += time.perf_counter() - STATE["started"]
        STATE["started"] = None
    ticker, STATE["ticker"] = STATE["ticker"], None
    if ticker is not None:
        ticker.stop(STATE["seconds"])
        STATE["said"] = True


def compile_seconds() -> float:
    """The seconds this process has spent compiling kernels (0.0 when it loaded them all
    from the cache), the compile under way included."""
    running = STATE["started"]
    return STATE["seconds"] + (time.perf_counter() - running if running is not None else 0.0)


def compile_words(before: float = 0.0) -> str:
    """'97 s compiling the kernels' for the closing line of a run that began when
    :func:`compile_seconds` was ``before``; '' when it compiled nothing."""
    return seconds_compiling(compile_seconds() - before)


def seconds_compiling(seconds: float) -> str:
    """'97 s compiling the kernels' ('0.2 s ...' under ten seconds; '' for none)."""
    if seconds <= 0:
        return ""
    return f"{seconds:.0f} s compiling the kernels" if seconds >= 10 else \
        f"{seconds:.1f} s compiling the kernels"


def say_compiled():
    """Print ``canasta-sim: compiled the kernels in 97 s`` once after a compile (nothing when
    every kernel came from the cache, or when it was said already); returns the seconds."""
    note_compiled()
    seconds = compile_seconds()
    if seconds > 0 and not STATE["said"]:
        STATE["said"] = True
        _say(_compiled_line(seconds))
    return seconds


def disk_cache(dispatcher):
    """Give a numba dispatcher canasta-sim's on-disk cache (or none if the folder is unusable);
    returns the dispatcher."""
    from canasta_sim._numba_cache import KernelCache, NoCache

    folder = active_folder()
    if folder:
        dispatcher._cache = KernelCache(dispatcher.py_func, folder, note_compiling,
                                        _note_damaged, note_compiled)
    else:
        dispatcher._cache = NoCache(note_compiling, note_compiled)
    return dispatcher


def _note_damaged():
    """Count a damaged cache entry that was removed (shown by ``canasta-sim cache``)."""
    STATE["damaged"] += 1


# --------------------------------------------------------------------------------------------
# cache info / cache clear
# --------------------------------------------------------------------------------------------

def cache_folders() -> list:
    """Every ``numba-<hash>`` folder under the cache root: (path, files, bytes), by name."""
    root = cache_root()
    found = []
    if not root.is_dir():
        return found
    for entry in sorted(root.iterdir()):
        if entry.is_symlink() or not entry.is_dir() or not _FOLDER_NAME.fullmatch(entry.name):
            continue
        files = [f for f in entry.iterdir() if f.is_file()]
        found.append((entry, len(files), sum(f.stat().st_size for f in files)))
    return found


def clear_cache() -> list:
    """Remove every ``numba-<hash>`` folder under the cache root; returns the paths removed."""
    removed = []
    for folder, _, _ in cache_folders():
        shutil.rmtree(folder)
        removed.append(folder)
    return removed
