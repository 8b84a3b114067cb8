"""Stopping a run: the first Ctrl-C or SIGTERM ends any run within a second or two, its
temporary files removed and one line said, even while a user's policy loops forever inside
a kernel (compiled or plain Python); check-policy fails a decision that takes too long.

Every test starts the command line in its own process (a signal, or a policy that never
returns, must not reach the test runner)."""
import os
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
POLICIES = os.path.join(HERE, "user_policies.py")
CLI = [sys.executable, "-m", "canasta_sim"]
INTERRUPTED = "canasta-sim: error: interrupted"
STOP_WITHIN = 5.0          # seconds from the signal to the end of the process (a second or two)


def _start(args, cwd):
    return subprocess.Popen(CLI + args, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(condition, proc, seconds=240.0):
    """Wait until ``condition()`` holds (the run is under way); fail if the process ends."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run never got under way"
        time.sleep(0.1)


def _stop(proc, signum):
    """Send ``signum``; (seconds until the process ended, stdout, stderr)."""
    start = time.monotonic()
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"still running 60 s after {signum!r}: {err}")
    return time.monotonic() - start, out, err


def _temporaries(folder):
    return [name for name in os.listdir(folder) if name.endswith(".tmp")]


@pytest.mark.parametrize("policy, signum", [
    ("loops_forever", signal.SIGINT),
    ("loops_forever_python", signal.SIGTERM),
])
def test_simulate_stops_while_a_policy_loops(tmp_path, policy, signum):
    out = tmp_path / "run.parquet"
    proc = _start(["simulate", "-q", "--deals", "40", "--threads", "2", "--policies",
                   f"{POLICIES}:{policy}", "--out", str(out)], tmp_path)
    _wait_for(lambda: _temporaries(tmp_path), proc)      # the Parquet file is being written
    time.sleep(1.5)                                       # and the policy is looping
    seconds, _, err = _stop(proc, signum)
    assert proc.returncode == 130, err
    assert seconds < STOP_WITHIN, seconds
    assert err.strip().splitlines() == [INTERRUPTED]
    assert os.listdir(tmp_path) == []                      # no file, no temporary file


@pytest.mark.parametrize("policy, signum", [
    ("loops_forever", signal.SIGTERM),
    ("loops_forever_python", signal.SIGINT),
])
def test_check_policy_stops_while_a_policy_loops(tmp_path, policy, signum):
    started = tmp_path / "started"
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {' '.join(CLI)} check-policy {POLICIES}:{policy} "
                       f"| (read line; touch {started}; cat)"],
        cwd=tmp_path, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_for(started.exists, proc)                        # the checks have begun
    time.sleep(1.5)
    start = time.monotonic()
    os.killpg(proc.pid, signum)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("check-policy ignored the signal")
    assert time.monotonic() - start < STOP_WITHIN
    assert INTERRUPTED in err and "Traceback" not in err, err


def test_check_policy_fails_a_decision_over_the_limit(tmp_path):
    done = subprocess.run(CLI + ["check-policy", f"{POLICIES}:loops_forever",
                                 "--decision-limit", "1"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert done.returncode == 1, done.stderr
    assert "interface    FAILED" in done.stdout
    assert "has not answered a" in done.stdout and "within 1 s" in done.stdout
    assert "--decision-limit" in done.stdout
    assert done.stderr == ""


def test_decision_limit_is_checked(tmp_path):
    done = subprocess.run(CLI + ["check-policy", "greedy", "--decision-limit", "0"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "canasta-sim: error: decision limit 0.0 is not accepted: accepted: seconds in "
        "(0, 86400], e.g. 10"]


WATCHED = """
import sys, time
from numba import njit
from canasta_sim import _signals

@njit(nogil=True)
def forever():
    i = 0
    while i >= 0:
        i = (i + 1) % 1000
    return i

forever.compile(())
_signals.install()
_signals.watch()
temporary = sys.argv[1]
open(temporary, "w").close()
_signals.track(temporary)
print("ready", flush=True)
forever()      # the main thread never runs Python again: only the watcher can stop it
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_the_watcher_ends_a_main_thread_stuck_in_a_kernel(tmp_path, signum):
    temporary = tmp_path / ".out.parquet.1.x.tmp"
    proc = subprocess.Popen([sys.executable, "-c", WATCHED, str(temporary)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "ready\n", proc.communicate()
    time.sleep(0.3)
    seconds, _, err = _stop(proc, signum)
    assert proc.returncode == 130
    assert 0.9 < seconds < STOP_WITHIN, seconds             # after the one-second grace
    assert err.strip().splitlines() == [INTERRUPTED]
    assert not temporary.exists()
