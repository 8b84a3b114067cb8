"""Name the source line (or the function) of every jitted sample of a ``perf`` profile.

    mkdir /tmp/objs
    export NUMBA_DEBUGINFO=1 NUMBA_BOUNDSCHECK=0 NUMBA_EXTEND_VARIABLE_LIFETIMES=0
    export CANASTA_SIM_CACHE_DIR=/tmp/cache-lines                     # a cache of its own
    python -m benchmarks.perfmap careful 2000 modern-american         # compile once
    perf record -F 4000 -o /tmp/perf.data \\
        python -m benchmarks.perfmap careful 200000 modern-american --objects /tmp/objs
    python -m benchmarks.perflines /tmp/perf.data /tmp/objs            # by source line
    python -m benchmarks.perflines /tmp/perf.data /tmp/objs --by function --top 30

``benchmarks.perfmap --objects`` keeps the object code of every kernel it loads from the cache
and where each symbol landed (so the kernels must be compiled by an earlier run); a sample's
offset into its symbol is then an address in that object code, and ``addr2line`` names its
source line and the chain of functions inlined there (the innermost first).  The line tables
exist only in a build with ``NUMBA_DEBUGINFO=1``; perfmap takes back the ``noinline`` numba
then puts on every function, so the profile is the real build's (docs/performance.md, "Where
the time goes").  Never run in a test; the parsing is.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict

_CHECKOUT = re.compile(r".*?/(?=(?:kernels|canasta_sim|numba)/)")


def read_index(path):
    """``{symbol: (object number, address in the object, address in the process)}`` from a
    ``perfmap --objects`` index."""
    index = {}
    with open(path) as handle:
        for line in handle:
            number, at_object, at_process, name = line.rstrip("\n").split("\t")
            index[name] = (int(number), int(at_object, 16), int(at_process, 16))
    return index


def parse_addr2line(lines):
    """``{address: [(function, "file:line"), ...]}`` from ``addr2line -a -i -f`` output: each
    address line ("0x...") followed by (function, location) pairs, innermost first."""
    frames = {}
    current = None
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            current = int(lines[i], 16)
            frames[current] = []
            i += 1
            continue
        location = lines[i + 1] if i + 1 < len(lines) else "??:0"
        frames[current].append((lines[i], location))
        i += 2
    return frames


def short_function(name):
    """A numba symbol's plain function name: the last of the length-prefixed names after
    ``_ZN`` (``_ZN11canasta_sim7kernels...14pair_chance_nbB4v163...`` -> ``pair_chance_nb``)."""
    if not name.startswith("_ZN"):
        return name[:40]
    parts = []
    i = 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        parts.append(name[j:j + int(name[i:j])])
        i = j + int(name[i:j])
    return parts[-1] if parts else name[:40]


def short_location(location):
    """A source location from the checkout (``kernels/...:123``), without a discriminator."""
    return _CHECKOUT.sub("", location).split(" ")[0]


def samples(perf_data):
    """``[(address, symbol)]`` of every sample of ``perf_data`` (``perf script``)."""
    out = subprocess.run(["perf", "script", "-i", perf_data, "-F", "ip,sym"],
                         capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            found.append((int(parts[0], 16), parts[1]))
    return found


def resolve(objects, offsets):
    """The inlined frames of each ``(object number, address)`` (``addr2line``)."""
    by_object = defaultdict(set)
    for number, address in offsets:
        by_object[number].add(address)
    frames = {}
    for number, addresses in by_object.items():
        out = subprocess.run(["addr2line", "-e", f"{objects}/{number}.o", "-a", "-i", "-f"],
                             input="\n".join(hex(a) for a in sorted(addresses)),
                             capture_output=True, text=True, check=True).stdout
        for address, chain in parse_addr2line(out.splitlines()).items():
            frames[(number, address)] = chain
    return frames


def object_address(index, address, symbol):
    """(object number, address in that object) of a sample at ``address`` in ``symbol``."""
    number, at_object, at_process = index[symbol]
    return number, at_object + address - at_process


def tally(found, index, frames, by):
    """Samples counted by source line (``by="line"``) or innermost function; samples outside
    the jitted code by their symbol, marked ``[other]``."""
    counts = Counter()
    for address, symbol in found:
        if symbol not in index:
            counts["[other] " + symbol[:60]] += 1
            continue
        chain = frames.get(object_address(index, address, symbol)) or [("?", "?")]
        function, location = chain[0]
        counts[short_function(function) if by == "function" else short_location(location)] += 1
    return counts


def main(argv=None) -> int:
    """``PERF_DATA OBJECTS [--by line|function] [--top N]``: print the top shares."""
    args = list(sys.argv[1:] if argv is None else argv)
    by, top = "line", 40
    if "--by" in args:
        at = args.index("--by")
        by = args[at + 1] if at + 1 < len(args) else ""
        del args[at:at + 2]
    if "--top" in args:
        at = args.index("--top")
        top = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 2 or by not in ("line", "function"):
        print(__doc__)
        return 2
    perf_data, objects = args
    index = read_index(f"{objects}/index.tsv")
    found = samples(perf_data)
    offsets = {object_address(index, a, s) for a, s in found if s in index}
    counts = tally(found, index, resolve(objects, offsets), by)
    print(f"{len(found)} samples")
    for key, n in counts.most_common(top):
        print(f"{100 * n / max(len(found), 1):6.2f}%  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
