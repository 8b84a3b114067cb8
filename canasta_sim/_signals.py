"""Signals that stop a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP.

The handler records the signal before raising KeyboardInterrupt, so a signal whose
KeyboardInterrupt was swallowed somewhere (inside numba while kernels compile, say) still
stops the run at the next :func:`check`: before results are moved into place and after
the kernels are ready.

A Python signal handler runs only when the main thread runs Python code, and a jitted
kernel (with a user's policy looping forever inside it, say) may never give it back.  So
the console command also starts a watcher (:func:`watch`): a daemon thread woken by the
C-level signal handler through :func:`signal.set_wakeup_fd`, whatever the main thread is
doing.  If the process is still alive :data:`GRACE_SECONDS` after the first stop signal,
the watcher removes the temporary files registered with :func:`track`, says
``interrupted`` once and ends the process with status 130.  A run that stops in time
takes its ordinary way out (its own clean-up, the same message and status).
"""
from __future__ import annotations

import os
import threading

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
GRACE_SECONDS = 1.0          # time the ordinary way out has before the watcher ends the run
INTERRUPTED = "canasta-sim: error: interrupted"
STOPPED_STATUS = 130
_received = []
_temporaries = {}            # path -> count of registrations: removed by a forced stop
_state = {"watching": False, "said": False}
_lock = threading.Lock()


def interrupt(signum, frame):
    """A signal handler: remember the signal, then stop the run the way Ctrl-C does.  Once
    the watcher is on, only the first signal raises, so a second Ctrl-C cannot break the
    clean-up of the first."""
    first = not _received
    _received.append(signum)
    if first or not _state["watching"]:
        raise KeyboardInterrupt(f"signal {signum}")


def install():
    """Handle SIGINT, SIGTERM and SIGHUP with :func:`interrupt` (main thread only; a signal
    the platform lacks is skipped)."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return
    _received.clear()
    for name in STOP_SIGNALS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), interrupt)


def watch(grace: float = GRACE_SECONDS) -> bool:
    """Start the watcher thread (once per process, main thread only); False if it cannot.

    Only for a process that ends with its command (the console script): a forced stop
    ends the whole process."""
    import signal
    import socket

    if _state["watching"] or threading.current_thread() is not threading.main_thread():
        return _state["watching"]
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):
        reader.close()
        writer.close()
        return False
    _state["watching"] = True
    _state["sockets"] = (reader, writer)        # kept open for the life of the process
    threading.Thread(target=_watcher, args=(reader, grace), daemon=True,
                     name="canasta-sim-stop").start()
    return True


def _watcher(reader, grace: float) -> None:
    """Wait for a stop signal's byte, give the run ``grace`` seconds, then end it."""
    import time

    while not reader.recv(64):
        pass
    time.sleep(grace)
    force_stop()


def force_stop() -> None:
    """Remove the registered temporary files, say ``interrupted`` (once) and end the
    process with status 130 at once."""
    with _lock:
        paths = list(_temporaries)
    for path in paths:
        try:
            os.remove(path)
        except OSError:
            pass
    say_interrupted(raw=True)
    os._exit(STOPPED_STATUS)


def say_interrupted(raw: bool = False) -> None:
    """Write ``canasta-sim: error: interrupted`` on stderr, once per stop; ``raw``: straight
    to file descriptor 2 (the watcher: sys.stderr's lock may be held by a stuck thread)."""
    import sys

    with _lock:
        if _state["said"]:
            return
        _state["said"] = True
    if not raw:
        try:
            sys.stderr.write(INTERRUPTED + "\n")
            sys.stderr.flush()
            return
        except (OSError, ValueError, AttributeError):
            pass
    try:
        os.write(2, (INTERRUPTED + "\n").encode())
    except OSError:
        pass


def track(path) -> None:
    """Register a temporary file a forced stop must remove."""
    with _lock:
        _temporaries[os.fspath(path)] = _temporaries.get(os.fspath(path), 0) + 1


def untrack(path) -> None:
    """Forget a temporary file (moved into place or removed)."""
    with _lock:
        key = os.fspath(path)
        count = _temporaries.pop(key, 0) - 1
        if count > 0:
            _temporaries[key] = count


def reset():
    """Forget the signals received (the end of a command run in-process; a process with the
    watcher ends with its command, so there it is said once for good)."""
    _received.clear()
    if not _state["watching"]:
        _state["said"] = False


def stopping() -> bool:
    """True once a stop signal has arrived (cheap: for loops that call user code)."""
    return bool(_received)


def check():
    """KeyboardInterrupt if a stop signal arrived since :func:`install` (even one whose
    first KeyboardInterrupt was lost)."""
    if _received:
        raise KeyboardInterrupt(f"signal {_received[0]}")
