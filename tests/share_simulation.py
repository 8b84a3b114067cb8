"""Simulations that validate the intervals of shares and the SPRT of 0/1 metrics
(canasta_sim/stats.py), on synthetic units drawn directly (no game is played).

tests/test_share_intervals.py and tests/test_sprt_bernoulli.py run them small and seeded;
``python benchmarks/share_validation.py`` runs them at full size and prints the figures that
docs/statistics.md quotes.

Paired 0/1 units are drawn as a 2x2 table of counts (both arms, arm only, baseline only,
neither) from cell probabilities: :func:`paired_cells` shares a part of the rarer arm's
events with the other arm, as on common deals a stock-out in one arm often comes with a
stock-out in the other.  Rates of 1 - p (went_out near 100%) give the same intervals
mirrored, so rare events cover both ends.
"""
from __future__ import annotations

import math

import numpy as np

from canasta_sim import stats

RARE_RATES = (0.0005, 0.001, 0.005, 0.01)
"""Base rates of the rare events validated: 0.05% to 1%."""


def paired_cells(base: float, arm: float, shared: float) -> np.ndarray:
    """Cell probabilities (both, arm only, base only, neither): a share ``shared`` of the
    rarer arm's events also happens in the other arm."""
    both = shared * min(base, arm)
    return np.array([both, arm - both, base - both, 1 - arm - base + both])


def wald(estimate, se, level=0.95):
    """The old normal interval (None, None without a positive se: the blank interval)."""
    if se is None or not se > 0:
        return None, None
    return stats.normal_interval(estimate, se, level)


def one_arm_coverage(rate: float, n: int, level=0.95) -> dict:
    """Exact coverage of :func:`stats.share_interval` (and of the old normal interval, a
    blank counting as a miss) over every count of events 0..n, weighted by its binomial
    probability; ``outside``: the probability that the old interval leaves [0, 1]."""
    from scipy.stats import binom

    counts = np.arange(n + 1)
    pmf = binom.pmf(counts, n, rate)
    new = old = outside = 0.0
    for k, weight in zip(counts, pmf):
        low, high = stats.share_interval(int(k), n, level)
        assert 0 <= low <= high <= 1 and high > 0 and low < 1
        new += weight * (low <= rate <= high)
        p = k / n
        w_low, w_high = wald(p, math.sqrt(p * (1 - p) / (n - 1)) if 0 < p < 1 else None, level)
        if w_low is not None:
            old += weight * (w_low <= rate <= w_high)
            outside += weight * (w_low < 0 or w_high > 1)
    return {"coverage": float(new), "wald": float(old), "wald_outside": float(outside)}


def paired_coverage(rng, cells, n: int, reps: int, level=0.95) -> dict:
    """Simulated coverage of :func:`stats.paired_share_interval` on ``reps`` tables of ``n``
    paired units, with the misses below and above, and the old paired-normal interval's
    coverage (a blank counting as a miss) and its share of blanks."""
    true = float(cells[1] - cells[2])
    tables = rng.multinomial(n, cells, size=reps)
    seen = {}
    hit = below = above = old = blank = 0
    for table in map(tuple, tables.tolist()):
        if table not in seen:
            seen[table] = stats.paired_share_interval(*table, level=level)
        low, high = seen[table]
        assert -1 <= low <= high <= 1
        hit += low <= true <= high
        below += high < true
        above += low > true
        both, a_only, b_only, _ = table
        d = (a_only - b_only) / n
        spread = (a_only + b_only) / n - d * d
        w_low, w_high = wald(d, math.sqrt(spread / (n - 1)) if spread > 0 else None, level)
        if w_low is None:
            blank += 1
        else:
            old += w_low <= true <= w_high
    return {"coverage": hit / reps, "below": below / reps, "above": above / reps,
            "wald": old / reps, "wald_blank": blank / reps}


def clustered_coverage(rng, rate: float, games: int, reps: int, lift=1.0, level=0.95) -> dict:
    """Coverage of the shares of a game study's per-deal 0/1 metric (a ratio over deals,
    games as clusters): each game has 1 + Poisson(4) deals and its own event rate (a gamma
    with shape 2 around ``rate``), the arm's rate is ``lift`` times the baseline's on the
    same game.  Returns the coverage of the baseline's share (PairedSums.share_b) and of
    the effect (share_effect_interval), against the rates over all deals."""
    mean_deals = 5.0
    true_b, true_a = rate, min(1.0, rate * lift)
    hit_b = hit_e = 0
    for _ in range(reps):
        deals = 1 + rng.poisson(mean_deals - 1, games)
        game_rate = rate * rng.gamma(2.0, 0.5, games)
        y_b = rng.binomial(deals, np.minimum(game_rate, 1))
        y_a = rng.binomial(deals, np.minimum(game_rate * lift, 1))
        sums = stats.PairedSums(True)
        sums.add(y_a, deals, y_b, deals)
        b = sums.share_b(level)
        low, high = sums.share_effect_interval(level)
        assert 0 <= b.ci_low <= b.ci_high <= 1 and -1 <= low <= high <= 1
        hit_b += b.ci_low <= true_b <= b.ci_high
        hit_e += low <= true_a - true_b <= high
    return {"share": hit_b / reps, "effect": hit_e / reps}


def sprt_runs(rng, cells, h0: float, h1: float, reps: int, wave: int, max_units: int,
              method="gsprt", alpha=0.05, beta=0.05) -> dict:
    """Sequential tests of the paired effect arm - base (h0 against h1) on 0/1 units drawn
    ``wave`` at a time from ``cells``, looking after every wave, up to ``max_units``.

    ``method`` ``gsprt``: Sprt.update_counts on the counts of the differences -1, 0, 1 (the
    study's test of a share); ``normal``: Sprt.update with the mean and variance of the
    differences, skipped while the variance is 0 (the study's test before, for comparison).
    Returns the shares of H1, H0 and undecided and the median units at the stop."""
    decisions, units = [], []
    for _ in range(reps):
        test = stats.Sprt(h0, h1, alpha, beta)
        counts = np.zeros(4, dtype=np.int64)
        n = 0
        while n < max_units:
            counts += rng.multinomial(wave, cells)
            n += wave
            both, a_only, b_only, neither = counts.tolist()
            if method == "gsprt":
                test.update_counts([-1.0, 0.0, 1.0], [b_only, both + neither, a_only])
            else:
                mean = (a_only - b_only) / n
                spread = (a_only + b_only) / n - mean * mean
                if spread > 0:
                    test.update(n, mean, spread * n / (n - 1))
            if test.decision != "undecided":
                break
        decisions.append(test.decision)
        units.append(n)
    decisions = np.array(decisions)
    return {"H1": float(np.mean(decisions == "H1")), "H0": float(np.mean(decisions == "H0")),
            "undecided": float(np.mean(decisions == "undecided")),
            "median_units": float(np.median(units))}
