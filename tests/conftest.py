"""Test session set-up: compile (or load from the on-disk cache) the kernels once, up front.

The first session on a machine compiles the jitted kernels (``_cache.COMPILE_TIME``,
measured in docs/performance.md); later sessions load them from the cache folder set by
``canasta_sim._cache``.  Tests always run the kernels jitted.
"""
import os
import time

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    """Compile every entry kernel once per session (NUMBA_DISABLE_JIT is not used)."""
    from canasta_sim.warm import warm

    start = time.perf_counter()
    warm()
    elapsed = time.perf_counter() - start
    print(f"\nkernels ready in {elapsed:.1f} s")


def pytest_terminal_summary(terminalreporter):
    """Say plainly, even without ``-rs``, which tests were skipped because something outside
    the repository (the external referee or spec) is missing: one line per reason."""
    from collections import Counter

    reasons = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = str(longrepr[-1]) if isinstance(longrepr, tuple) else str(longrepr)
        if "external" in reason:
            reasons[reason.removeprefix("Skipped: ")] += 1
    for reason, count in reasons.items():
        terminalreporter.write_line(f"{count} tests skipped: {reason}")
