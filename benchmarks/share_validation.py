"""Full-size validation of the share intervals and of the SPRT of 0/1 metrics, the figures
quoted in docs/statistics.md (the tests run the same simulations small).

    python benchmarks/share_validation.py [--reps 20000] [--sprt-reps 4000] [--seed 2026]

Prints, at 300 units and base rates 0.05% to 1%: the exact coverage of the one-arm share
interval (and of the old normal one), the simulated coverage of the paired difference (and
of the old paired-normal one), the coverage of a clustered (game-study) share, and the
SPRT's error rates with the GSPRT and with the old normal approximation.  Synthetic units,
drawn directly: nothing is played, so it runs in minutes on one core.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from share_simulation import (  # noqa: E402
    RARE_RATES,
    clustered_coverage,
    one_arm_coverage,
    paired_cells,
    paired_coverage,
    sprt_runs,
)

PAIRED = ((0.0005, 0.0005, 0.5), (0.001, 0.002, 0.5), (0.005, 0.005, 0.8),
          (0.01, 0.005, 0.5), (0.01, 0.02, 0.3), (0.01, 0.01, 0.0))
SPRT = ((0.0005, 0.002), (0.001, 0.004), (0.005, 0.005), (0.01, 0.01))   # (base rate, h1)


def main(argv=None) -> int:
    """Run every validation and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20000)
    parser.add_argument("--sprt-reps", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--units", type=int, default=300)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    n = args.units
    started = time.perf_counter()
    print(f"# one arm, {n} units, exact over every count (old: normal, blank at 0 events)")
    for rate in RARE_RATES + (0.05, 0.3):
        got = one_arm_coverage(rate, n)
        print(f"rate {rate:.4%}: coverage {got['coverage']:.4f}; old {got['wald']:.4f}, "
              f"old outside [0, 1] {got['wald_outside']:.4f}")
    print(f"\n# paired difference, {n} paired units, {args.reps} tables each")
    for base, arm, shared in PAIRED:
        got = paired_coverage(rng, paired_cells(base, arm, shared), n, args.reps)
        print(f"base {base:.2%} arm {arm:.2%} shared {shared}: coverage {got['coverage']:.4f} "
              f"(misses below {got['below']:.4f}, above {got['above']:.4f}); old "
              f"{got['wald']:.4f}, old blank {got['wald_blank']:.4f}")
    print(f"\n# game study, per-deal share, {n} games of ~5 deals, {args.reps // 10} studies")
    for rate, lift in ((0.005, 1.0), (0.01, 1.5), (0.05, 1.2)):
        got = clustered_coverage(rng, rate, n, args.reps // 10, lift)
        print(f"rate {rate:.2%} lift {lift}: share {got['share']:.4f}, "
              f"effect {got['effect']:.4f}")
    print(f"\n# SPRT of the paired effect, H0 0 against H1, alpha = beta = 0.05, a look every "
          f"100 units, at most 40,000; {args.sprt_reps} tests each")
    for base, h1 in SPRT:
        cells0 = paired_cells(base, base, 0.5)
        cells1 = paired_cells(base, base + h1, 0.5)
        for method in ("gsprt", "normal"):
            under0 = sprt_runs(rng, cells0, 0.0, h1, args.sprt_reps, 100, 40000, method)
            under1 = sprt_runs(rng, cells1, 0.0, h1, args.sprt_reps, 100, 40000, method)
            print(f"base {base:.2%} h1 {h1:+.2%} {method}: H1 under H0 {under0['H1']:.4f} "
                  f"(undecided {under0['undecided']:.4f}, median {under0['median_units']:.0f}"
                  f" units); H0 under H1 {under1['H0']:.4f} (undecided "
                  f"{under1['undecided']:.4f}, median {under1['median_units']:.0f} units)")
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
