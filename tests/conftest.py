"""Test session set-up: compile (or load from the on-disk cache) the kernels once, up front.

The first session on a machine compiles the jitted kernels (about a minute on two
cores); later sessions load them from the cache folder set by
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
    the repository (the external referee or spec) is missing."""
    skipped = terminalreporter.stats.get("skipped", [])
    external = [r for r in skipped if "external" in str(getattr(r, "longrepr", ""))]
    if external:
        reason = str(external[0].longrepr[-1]) if isinstance(external[0].longrepr, tuple) \
            else str(external[0].longrepr)
        terminalreporter.write_line(
            f"{len(external)} tests skipped: {reason.removeprefix('Skipped: ')}")
