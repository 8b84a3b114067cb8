"""What an analysis costs (docs/analysis.md, "Speed"): wall time to value one discard with 4
candidates x 1,000 rollouts, and to analyse every decision of one seat in a whole deal at the
defaults (1,000 rollouts, expert, luck included), on every core.

    python -m canasta_sim.benchmarks.analysis_cost [DEALS] [--threads N]

Targets (issue 29): at most 1 s and 1 minute on two cores.  Deals are expert's own
(``trace_events(classic, seed 7)``); each figure is the median over DEALS deals, after a
warm-up that loads the kernels.  Never timed in a test.
"""
from __future__ import annotations

import statistics
import sys
import time

import numpy as np


def discard_seconds(script, rollouts, threads) -> float | None:
    """Wall seconds to value a discard of 4 candidates (the first with at least 4 kinds in
    hand) by ``rollouts`` rollouts each, without early stopping; None if there is none."""
    from canasta_sim.kernels.play import analysis as k

    from canasta_sim.analysis.rollout import Scale, rollout_setup, value_options

    ro = rollout_setup(script.rules, "expert", rollouts, 0, threads)
    for d in script.decisions:
        if d.kind != "discard":
            continue
        S, _ = script.state(d.at)
        kinds = [int(x) for x in np.flatnonzero(S.hands[d.seat])]
        if len(kinds) < 4:
            continue
        start = time.perf_counter()
        value_options(script, S, d.seat, d.seat, k.A_DISCARD, kinds[:4], kinds[:4], -1, 1,
                      ro, Scale("points"), d.seat % 2, script.scores_before, stop_early=False)
        return time.perf_counter() - start
    return None


def deal_seconds(script, threads) -> tuple[float, int]:
    """Wall seconds to analyse seat 0's decisions of the deal at the defaults, and how
    many lines it wrote."""
    from canasta_sim.analysis import deal as D
    from canasta_sim.analysis.rollout import Scale, rollout_setup

    settings = D.Settings(rollout_setup(script.rules, "expert", 1000, 0, threads),
                          Scale("points"), D.DEFAULT_MARKS["points"])
    start = time.perf_counter()
    done = D.analyse_deal(script, settings, [0])
    return time.perf_counter() - start, len(done["lines"])


def main(argv=None):
    """Print the two figures (median over the deals) and the machine's thread count."""
    import json

    from canasta_sim.analysis.position import DealScript
    from canasta_sim.runner import available_cores
    from canasta_sim.trace import trace_events

    argv = list(sys.argv[1:] if argv is None else argv)
    threads = available_cores()
    if "--threads" in argv:
        i = argv.index("--threads")
        threads = int(argv[i + 1])
        del argv[i:i + 2]
    deals = int(argv[0]) if argv else 3
    scripts = [DealScript(json.loads(json.dumps(ev)))
               for ev in trace_events("classic", 7, 0, deals, "expert")]
    discard_seconds(scripts[0], 20, threads)                      # warm-up
    one = [s for s in (discard_seconds(x, 1000, threads) for x in scripts) if s is not None]
    whole = [deal_seconds(x, threads) for x in scripts]
    print(f"threads {threads}")
    print(f"discard, 4 candidates x 1000 rollouts: median {statistics.median(one):.2f} s "
          f"over {len(one)} positions (target <= 1 s on two cores)")
    print(f"whole deal, seat 0, defaults: median {statistics.median(w for w, _ in whole):.1f} s "
          f"over {len(whole)} deals, {statistics.median(n for _, n in whole):.0f} decisions "
          "each (target <= 60 s on two cores)")


if __name__ == "__main__":
    main()
