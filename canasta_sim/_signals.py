"""Signals that stop a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP.

The handler records the signal before raising KeyboardInterrupt, so a signal whose
KeyboardInterrupt was swallowed somewhere (inside numba while kernels compile, say) still
stops the run at the next :func:`check`: before results are moved into place and after
the kernels are ready.
"""
from __future__ import annotations

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
_received = []


def interrupt(signum, frame):
    """A signal handler: remember the signal, then stop the run the way Ctrl-C does."""
    _received.append(signum)
    raise KeyboardInterrupt(f"signal {signum}")


def install():
    """Handle SIGINT, SIGTERM and SIGHUP with :func:`interrupt` (main thread only; a signal
    the platform lacks is skipped)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    _received.clear()
    for name in STOP_SIGNALS:
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), interrupt)


def reset():
    """Forget the signals received (the end of a command run in-process)."""
    _received.clear()


def check():
    """KeyboardInterrupt if a stop signal arrived since :func:`install` (even one whose
    first KeyboardInterrupt was lost)."""
    if _received:
        raise KeyboardInterrupt(f"signal {_received[0]}")
