"""Profile the jitted kernels with Linux ``perf``: play deals on one thread and write
``/tmp/perf-<pid>.map`` so that ``perf report`` names every jitted function.

    perf record -F 2000 -g -o /tmp/perf.data \\
        python -m canasta_sim.benchmarks.perfmap expert 50000
    perf report -i /tmp/perf.data --no-children --sort sym

The kernels loaded from the on-disk cache are object code that numba links into its JIT
engine; their symbols and sizes are read from that object code (``nm``) and their addresses
from the engine, which is all a perf map needs.  Never timed in a test.

``--objects DIR`` also keeps that object code (``DIR/<n>.o``) and where each symbol landed
(``DIR/index.tsv``), for ``benchmarks.perflines`` to name the source line of every sample.
Line tables need ``NUMBA_DEBUGINFO=1`` (and ``NUMBA_BOUNDSCHECK=0``, which it would turn
on), in a cache folder of its own; numba's ``noinline`` on every function, which that
setting also adds, is taken back here (docs/performance.md, "Where the time goes").
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def _keep_objects():
    """Record the object code of every library numba loads from now on."""
    from numba.core import codegen

    kept = []
    original = codegen.CPUCodeLibrary._set_compiled_object

    def keep(self, value):
        kept.append((self, value))
        return original(self, value)

    codegen.CPUCodeLibrary._set_compiled_object = keep
    return kept


def _keep_inlining():
    """With numba's debug info on (``NUMBA_DEBUGINFO=1``, for line tables), numba marks every
    function it lowers ``noinline``; take that back, so that the profiled machine code has
    the structure of the real build (its helpers inlined as always)."""
    from numba.core import lowering

    original = lowering.BaseLower.pre_lower

    def pre_lower(self):
        original(self)
        self.builder.function.attributes.discard("noinline")

    lowering.BaseLower.pre_lower = pre_lower


def write_perf_map(kept, objects=None) -> int:
    """Write /tmp/perf-<pid>.map for the kept libraries; returns the number of entries.  With
    ``objects`` (a folder), keep each library's object code there and an index of symbols."""
    lines = []
    index = []
    for number, (library, obj) in enumerate(kept):
        if objects is not None:                      # kept for perflines, read by nm here
            handle = open(os.path.join(objects, f"{number}.o"), "wb")
        else:
            handle = tempfile.NamedTemporaryFile(suffix=".o", delete=False)
        with handle:
            handle.write(obj)
        try:
            listing = subprocess.run(["nm", "-S", "--defined-only", handle.name],
                                     capture_output=True, text=True).stdout
        finally:
            if objects is None:
                os.unlink(handle.name)
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) != 4 or parts[2] not in "tTwW":
                continue
            try:
                address = library._codegen._engine._ee.get_function_address(parts[3])
            except Exception:          # a symbol the engine does not export
                continue
            if address:
                lines.append(f"{address:x} {int(parts[1], 16):x} {parts[3]}")
                index.append(f"{number}\t{parts[0]}\t{address:x}\t{parts[3]}")
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as handle:
        handle.write("\n".join(lines) + "\n")
    if objects is not None:
        with open(os.path.join(objects, "index.tsv"), "w") as handle:
            handle.write("\n".join(index) + "\n")
    return len(lines)


def main(argv=None) -> int:
    """``POLICY DEALS [RULES] [--objects DIR]``: play DEALS deals of POLICY at every seat on
    one thread."""
    args = list(sys.argv[1:] if argv is None else argv)
    objects = None
    if "--objects" in args:
        at = args.index("--objects")
        objects = args[at + 1] if at + 1 < len(args) else None
        del args[at:at + 2]
        if objects is None or not os.path.isdir(objects):
            print(f"perfmap: --objects needs an existing folder, got {objects!r}",
                  file=sys.stderr)
            return 2
    if len(args) < 2:
        print(__doc__)
        return 2
    if os.environ.get("NUMBA_DEBUGINFO") == "1":
        _keep_inlining()
    kept = _keep_objects()
    from canasta_sim.runner import play_range, prepare

    policy, deals = args[0], int(args[1])
    rules = args[2] if len(args) > 2 else "classic"
    plan = prepare(deals, 20261129, rules, policy)
    out = plan.new_rows(deals, fill=1)
    play_range(plan, 0, out[:min(deals, 100)])          # load (or compile) the kernels
    entries = write_perf_map(kept, objects)
    start = time.perf_counter()
    play_range(plan, 0, out)
    seconds = time.perf_counter() - start
    print(f"{policy} ({rules}): {deals / seconds:,.0f} deals/s on one thread; "
          f"{entries} jitted symbols mapped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
