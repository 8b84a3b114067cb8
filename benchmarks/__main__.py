"""Deals per second of the kernels, one core, after compilation.

    python -m benchmarks [--deals N] [--repeat R] [--warmup W] [--policies greedy,random]
                         [--rules classic] [--check] [--csv results/bench/deals.csv]

For each case it times ``--repeat`` runs of ``--deals`` deals (after ``--warmup``
runs) and reports the median deals per second and the spread.  The cases are the
floor (shuffle, deal and upcard only, no play) and full deals with each policy at
every seat.  Compilation is timed separately (a first call that loads the on-disk
cache, or compiles when the cache is cold) and never counted in a rate.  ``--check``
replays a sample of the benchmarked deals through their traces and verifies card
conservation (kernel check after every turn) and the score identity.
"""
from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np


def _parse(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=200_000, help="deals per timed run")
    p.add_argument("--repeat", type=int, default=5, help="timed runs per case (median)")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs per case first")
    p.add_argument("--policies", default="greedy,random", help="policies to time, comma-separated")
    p.add_argument("--rules", default="classic", help="rule set (preset or canonical string)")
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument("--check", action="store_true", help="verify a sample of the deals")
    p.add_argument("--csv", default="results/bench/deals.csv", help="CSV output ('' for none)")
    return p.parse_args(argv)


def _timed(fn, repeat, warmup):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main(argv=None) -> int:
    """Run the benchmark cases and print a table."""
    args = _parse(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from canasta_sim.kernels import layout

    import canasta_sim  # noqa: F401  (sets the numba cache folder)
    from canasta_sim.runner import prepare

    start = time.perf_counter()
    from canasta_sim.kernels.engine import deal_only_nb, play_deals_nb
    plan = prepare(1, args.seed, args.rules, "greedy")
    out1 = np.zeros((1, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, 0, 0, out1, plan.policy_ids, plan.params, plan.scores_before, 0)
    deal_only_nb(plan.rules_nb, 0, 0, 1, plan.scores_before)
    first_call = time.perf_counter() - start

    rows = []
    n = args.deals
    floor = _timed(lambda: deal_only_nb(plan.rules_nb, args.seed, 0, n, plan.scores_before),
                   args.repeat, args.warmup)
    rows.append(("floor (shuffle+deal)", n, floor))
    for policy in args.policies.split(","):
        p = prepare(n, args.seed, args.rules, policy)
        out = np.zeros((n, layout.NCOLS), np.int64)
        times = _timed(lambda: play_deals_nb(p.rules_nb, p.seed, 0, out, p.policy_ids,
                                             p.params, p.scores_before, 0),
                       args.repeat, args.warmup)
        rows.append((policy, n, times))
        if args.check:
            _check(p, min(n, 2000))

    floor_rate = n / statistics.median(floor)
    print(f"rules {plan.rules.canonical()}  seed {args.seed}  deals/run {n}  "
          f"runs {args.repeat} (+{args.warmup} warm-up)  one thread")
    print(f"first call (cache load or compile): {first_call:.2f} s")
    print(f"{'case':24} {'median deals/s':>15} {'min':>12} {'max':>12} {'x floor':>8}")
    records = []
    for name, count, times in rows:
        rates = sorted(count / t for t in times)
        med = statistics.median(rates)
        print(f"{name:24} {med:15,.0f} {rates[0]:12,.0f} {rates[-1]:12,.0f} "
              f"{floor_rate / med:8.1f}")
        records.append({"case": name, "deals": count, "runs": len(times),
                        "median_deals_per_s": round(med), "min": round(rates[0]),
                        "max": round(rates[-1]), "cost_vs_floor": round(floor_rate / med, 2),
                        "rules": plan.rules.canonical(), "seed": args.seed,
                        "first_call_s": round(first_call, 3)})
    if args.csv:
        path = Path(args.csv)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(records[0]))
            writer.writeheader()
            writer.writerows(records)
        print(f"written {path}")
    return 0


def _check(plan, sample):
    """Card conservation after every turn and the score identity on a sample of deals."""
    from canasta_sim.kernels import layout
    from canasta_sim.kernels.engine import play_deals_nb

    out = np.zeros((sample, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, plan.seed, 0, out, plan.policy_ids, plan.params,
                  plan.scores_before, 1)
    assert out[:, layout.COL_CHECK_FAILS].sum() == 0, "card conservation failed"
    for k in range(plan.rules.num_sides):
        b = layout.SIDE_BASE + layout.SIDE_STRIDE * k
        parts = (out[:, b + layout.S_MELDS] + out[:, b + layout.S_CANASTA_BONUS]
                 + out[:, b + layout.S_RED3_POINTS] + out[:, b + layout.S_OUT_BONUS]
                 + out[:, b + layout.S_HAND])
        assert np.array_equal(parts, out[:, b + layout.S_SCORE]), "score identity failed"
    print(f"check: {sample} deals of {','.join(plan.names)}: conservation and score identity ok",
          file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
