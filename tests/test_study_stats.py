"""canasta_sim.stats: every interval checked by simulation, plus the streaming sums.

Coverage tests draw many replications of a study at once with numpy (exact distributions of
the sums where possible) and count how often the 95% interval holds the true value.  With
R replications the binomial error of a coverage of 0.95 is sqrt(0.95 * 0.05 / R), 0.005 for
R = 2000: the bands [0.93, 0.97] are four of those.  The seeds are fixed, so the figures
are reproducible; docs/statistics.md quotes them.
"""
import json
import math

import numpy as np
import pytest
from scipy.stats import binom, norm, poisson

from canasta_sim import stats
from canasta_sim.stats import (
    Z95,
    Effect,
    Estimate,
    MatchStats,
    PairedSums,
    Sprt,
    elo_from_score,
    histogram_summary,
    holm,
    holm_intervals,
    normal_interval,
    proportion,
    quantile,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
    wilson,
)

REPS = 2000
BAND = (0.93, 0.97)


def covers(estimate: Estimate, truth: float) -> bool:
    """Whether the interval holds the true value."""
    return estimate.ci_low is not None and estimate.ci_low <= truth <= estimate.ci_high


def coverage(estimates, truth) -> float:
    """Share of intervals that hold the true value."""
    return float(np.mean([covers(e, truth) for e in estimates]))


# --------------------------------------------------------------------------------------------
# means and ratios
# --------------------------------------------------------------------------------------------

def test_mean_normal_coverage():
    """Turn-like integer units (Poisson 30 + a skewed part), 200 units per study."""
    rng = np.random.default_rng(11)
    units = rng.poisson(30, (REPS, 200)) + rng.exponential(5, (REPS, 200))
    estimates = []
    for row in units:
        s = PairedSums(paired=False)
        s.add(row)
        estimates.append(s.mean_a())
    assert estimates[0].method == "mean-normal" and estimates[0].n == 200
    cover = coverage(estimates, 35.0)
    assert BAND[0] <= cover <= BAND[1], cover


def test_ratio_delta_coverage_with_clusters_of_random_size():
    """Games of 1 + Poisson(4) deals, a game effect shared by its deals, and deal values that
    grow with the game's length (so the per-deal mean differs from the mean of game means)."""
    rng = np.random.default_rng(12)
    games = 300
    deals = 1 + rng.poisson(4, (REPS, games))
    luck = rng.normal(0, 20, (REPS, games))
    # sum over the game's deals of 100 + 10 (deals - 5) + luck + N(0, 30): exact in law.
    totals = deals * (100 + 10 * (deals - 5) + luck) + np.sqrt(deals) * rng.normal(0, 30, deals.shape)
    truth = 100 + 10 * (29 - 25) / 5          # E[n (n - 5)] / E[n] with E n = 5, E n^2 = 29
    estimates = []
    for y, n in zip(totals, deals):
        s = PairedSums(paired=False)
        s.add(y, n)
        estimates.append(s.mean_a())
    assert estimates[0].method == "ratio-delta"
    cover = coverage(estimates, truth)
    assert BAND[0] <= cover <= BAND[1], cover
    # the naive mean of per-game means is biased here: the ratio is what is estimated
    assert abs(np.mean([e.estimate for e in estimates]) - truth) < 0.2


def test_paired_normal_coverage_with_correlated_pairs():
    rng = np.random.default_rng(13)
    m, rho = 400, 0.8
    common = rng.normal(0, 1, (REPS, m))
    a = 50 + 10 * (math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.normal(0, 1, (REPS, m)))
    b = 48 + 6 * (math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.normal(0, 1, (REPS, m)))
    effects = []
    for ya, yb in zip(a, b):
        s = PairedSums(paired=True)
        s.add(ya, y_b=yb)
        effects.append(s.effect())
    assert effects[0].estimate.method == "paired-normal"
    cover = coverage([e.estimate for e in effects], 2.0)
    assert BAND[0] <= cover <= BAND[1], cover
    assert abs(np.mean([e.correlation for e in effects]) - rho) < 0.01


def test_paired_ratio_delta_coverage():
    """Both arms play the same game seeds: game lengths differ by arm but are correlated,
    and a shared luck moves both arms' deal values."""
    rng = np.random.default_rng(14)
    games = 300
    shape = (REPS, games)
    n_a = 1 + rng.poisson(4, shape)
    n_b = np.maximum(1, n_a + rng.integers(-1, 2, shape))
    luck = rng.normal(0, 25, shape)
    y_a = n_a * (120 + 10 * (n_a - 5) + luck) + np.sqrt(n_a) * rng.normal(0, 30, shape)
    y_b = n_b * (110 + 0.9 * luck) + np.sqrt(n_b) * rng.normal(0, 30, shape)
    truth = (120 + 10 * 4 / 5) - 110
    effects = []
    for row in zip(y_a, n_a, y_b, n_b):
        s = PairedSums(paired=True)
        s.add(*row)
        effects.append(s.effect())
    assert effects[0].estimate.method == "paired-ratio-delta"
    cover = coverage([e.estimate for e in effects], truth)
    assert BAND[0] <= cover <= BAND[1], cover
    assert np.mean([e.variance_reduction for e in effects]) > 2


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.9])
def test_variance_reduction_and_correlation(rho):
    rng = np.random.default_rng(15)
    m = 40_000
    common = rng.normal(0, 1, m)
    a = 3 + math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.normal(0, 1, m)
    b = 1 + math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.normal(0, 1, m)
    s = PairedSums(paired=True)
    s.add(a, y_b=b)
    e = s.effect()
    assert e.correlation == pytest.approx(rho, abs=0.015)
    assert e.variance_reduction == pytest.approx(1 / (1 - rho), rel=0.05)
    # the definition: (var a + var b) / var(a - b) of the units
    direct = (a.var(ddof=1) + b.var(ddof=1)) / (a - b).var(ddof=1)
    assert e.variance_reduction == pytest.approx(direct, rel=1e-9)
    assert e.estimate.se == pytest.approx((a - b).std(ddof=1) / math.sqrt(m), rel=1e-9)


def naive_ratio_effect(y_a, n_a, y_b, n_b):
    """Slow, obvious delta method: the linearised units written out."""
    m = len(y_a)
    r_a, r_b = y_a.sum() / n_a.sum(), y_b.sum() / n_b.sum()
    u = (y_a - r_a * n_a) / n_a.mean() - (y_b - r_b * n_b) / n_b.mean()
    return r_a - r_b, u.std(ddof=1) / math.sqrt(m)


def test_paired_ratio_matches_the_naive_linearisation():
    rng = np.random.default_rng(16)
    n_a, n_b = 1 + rng.poisson(3, 500), 1 + rng.poisson(5, 500)
    y_a, y_b = n_a * rng.normal(7, 2, 500), n_b * rng.normal(5, 1, 500) + n_a
    s = PairedSums(paired=True)
    s.add(y_a, n_a, y_b, n_b)
    estimate, se = naive_ratio_effect(y_a, n_a, y_b, n_b)
    e = s.effect().estimate
    assert e.estimate == pytest.approx(estimate, rel=1e-12)
    assert e.se == pytest.approx(se, rel=1e-9)
    assert s.mean_b().estimate == pytest.approx(y_b.sum() / n_b.sum(), rel=1e-12)


# --------------------------------------------------------------------------------------------
# streaming
# --------------------------------------------------------------------------------------------

def sample_pairs(rng, m):
    """Paired ratio units."""
    n_a, n_b = 1 + rng.poisson(4, m), 1 + rng.poisson(4, m)
    return (n_a * rng.normal(1000, 50, m), n_a.astype(float),
            n_b * rng.normal(990, 50, m), n_b.astype(float))


def summary(s: PairedSums):
    """Every number the sums give, for comparisons."""
    e = s.effect()
    return [*s.mean_a(), *s.mean_b(), *e.estimate, e.p_value, e.correlation,
            e.variance_reduction]


def assert_same(x, y):
    """Equal to rounding (strings and ints exactly)."""
    for u, v in zip(x, y, strict=True):
        if isinstance(u, float):
            assert u == pytest.approx(v, rel=1e-10, abs=1e-300), (x, y)
        else:
            assert u == v


def test_chunks_equal_all_at_once_and_merge_equals_sequential():
    rng = np.random.default_rng(17)
    cols = sample_pairs(rng, 50_000)
    whole = PairedSums(paired=True, block=100)
    whole.add(*cols)
    chunked = PairedSums(paired=True, block=100)
    for start in range(0, 50_000, 6_553):       # chunks not aligned with the blocks
        chunked.add(*(c[start:start + 6_553] for c in cols))
    assert chunked.units == whole.units == 50_000
    assert_same(summary(chunked), summary(whole))
    # merge of shards (each with its own reference) == sequential
    shards = []
    for start in range(0, 50_000, 10_000):
        shard = PairedSums(paired=True, block=100)
        shard.add(*(c[start:start + 10_000] for c in cols))
        shards.append(shard)
    merged = PairedSums(paired=True, block=100)
    for shard in shards:
        merged.merge(shard)
    assert merged.units == 50_000
    assert_same(summary(merged), summary(whole))
    # shards of whole blocks: the bootstrap sees the very same blocks
    assert_same(merged.relative(resamples=300), whole.relative(resamples=300))
    assert_same(chunked.relative(resamples=300), whole.relative(resamples=300))


def test_merge_of_small_shards_keeps_the_units_for_small_blocks():
    rng = np.random.default_rng(18)
    cols = sample_pairs(rng, 600)
    whole = PairedSums(paired=True)
    whole.add(*cols)
    merged = PairedSums(paired=True)
    for start in range(0, 600, 150):
        part = PairedSums(paired=True)
        part.add(*(c[start:start + 150] for c in cols))
        merged.merge(part)
    assert_same(summary(merged), summary(whole))
    assert_same(merged.relative(resamples=300), whole.relative(resamples=300))


def test_large_offset_accuracy():
    """10^7 units around 10^6 (and games of 1-9 deals around 10^6 per deal), in chunks
    of 65,536: a naive sum of squares would lose the variance entirely."""
    rng = np.random.default_rng(19)
    m = 10_000_000
    noise = rng.normal(0, 1, m)
    values = 1e6 + noise
    s = PairedSums(paired=False)
    for start in range(0, m, 65_536):
        s.add(values[start:start + 65_536])
    exact = values - 1e6                        # exact (Sterbenz): values within a factor 2 of 1e6
    e = s.mean_a()
    assert e.estimate == pytest.approx(1e6 + exact.mean(), rel=1e-15, abs=1e-9)
    assert e.se == pytest.approx(exact.std(ddof=1) / math.sqrt(m), rel=1e-6)
    # naive float sums for contrast: the shift is what makes the difference
    naive_var = (np.sum(values ** 2) - np.sum(values) ** 2 / m) / (m - 1)
    assert abs(naive_var - exact.var(ddof=1)) > 1e-6 * exact.var(ddof=1)
    del values, noise, exact
    k = 1_000_000
    n = 1 + rng.integers(0, 9, k).astype(float)
    y = n * 1e6 + np.sqrt(n) * rng.normal(0, 1, k)
    ratio = PairedSums(paired=True)
    for start in range(0, k, 65_536):
        sl = slice(start, start + 65_536)
        ratio.add(y[sl], n[sl], y[sl] + 0.5 * n[sl], n[sl])
    z = (y - 1e6 * n) - (y - 1e6 * n).sum() / n.sum() * n
    se = math.sqrt(k / (k - 1) * np.dot(z, z)) / n.sum()
    assert ratio.mean_a().se == pytest.approx(se, rel=1e-6)
    assert ratio.effect().estimate.estimate == pytest.approx(-0.5, abs=1e-9)
    assert ratio.effect().estimate.se is None          # b - a is exactly constant


def test_empty_single_and_constant_sums_never_raise_or_give_nan():
    empty = PairedSums(paired=True)
    single = PairedSums(paired=True)
    single.add([3.0], y_b=[2.0])
    constant = PairedSums(paired=True)
    constant.add(np.full(100, 7.0), y_b=np.full(100, 7.0))
    zero_b = PairedSums(paired=True)
    zero_b.add(np.arange(100.0), y_b=np.zeros(100))
    for s in (empty, single, constant, zero_b):
        for e in (s.mean_a(), s.mean_b(), s.effect()):
            json.dumps(e.to_dict(), allow_nan=False)
        rel = s.relative(resamples=200)
        if rel is not None:
            json.dumps(rel.to_dict(), allow_nan=False)
    assert empty.mean_a() == Estimate(None, None, None, 0, "mean-normal")
    assert single.mean_a().estimate == 3.0 and single.mean_a().ci_low is None
    assert single.effect().estimate.estimate == 1.0 and single.effect().p_value is None
    e = constant.effect()
    assert e.estimate.estimate == 0.0 and e.p_value is None and e.variance_reduction is None
    assert constant.mean_a().se is None and constant.mean_a().estimate == 7.0
    assert zero_b.relative() is None                   # baseline mean 0
    assert single.relative() is None                   # fewer than 20 blocks
    assert PairedSums(paired=False).effect().estimate.estimate is None
    assert Estimate(float("nan"), float("inf"), 1.0, 3, "wilson").to_dict() == {
        "estimate": None, "ci_low": None, "ci_high": 1.0, "n": 3, "method": "wilson",
        "se": None}
    flat = Effect(Estimate(1.0, 0.5, 1.5, 9, "paired-normal", 0.25), 0.01, 0.5, 2.0).to_dict()
    assert flat["p_value"] == 0.01 and flat["variance_reduction"] == 2.0 and flat["se"] == 0.25


def test_normal_interval():
    assert normal_interval(1.0, 0.5) == (1.0 - Z95 * 0.5, 1.0 + Z95 * 0.5)
    low, high = normal_interval(0.0, 1.0, level=0.99)
    assert high == pytest.approx(norm.ppf(0.995))
    assert normal_interval(None, 1.0) == (None, None)
    assert normal_interval(1.0, float("nan")) == (None, None)


# --------------------------------------------------------------------------------------------
# relative effect (bootstrap)
# --------------------------------------------------------------------------------------------

def test_bootstrap_relative_coverage():
    """300 studies of 2,000 paired units in blocks of 20 (100 blocks), 1,000 resamples."""
    rng = np.random.default_rng(20)
    reps, m = 300, 2000
    common = rng.gamma(4, 10, (reps, m))
    a = 1.1 * common + rng.normal(0, 10, (reps, m))
    b = common + rng.normal(0, 10, (reps, m))
    truth = 0.1
    estimates = []
    for ya, yb in zip(a, b):
        s = PairedSums(paired=True, block=20)
        s.add(ya, y_b=yb)
        estimates.append(s.relative(resamples=1000, seed=1))
    assert estimates[0].method == "bootstrap-bca" and estimates[0].n == m
    cover = coverage(estimates, truth)
    assert 0.90 <= cover <= 0.99, cover


def test_bootstrap_blocks_rule():
    rng = np.random.default_rng(21)
    s = PairedSums(paired=True)                       # block 1024, 3,000 units: 50 blocks of 60
    s.add(rng.normal(10, 1, 3000), y_b=rng.normal(5, 1, 3000))
    assert s._resampling_blocks().shape[0] == 50
    few = PairedSums(paired=True)
    few.add(rng.normal(10, 1, 30), y_b=rng.normal(5, 1, 30))
    assert few._resampling_blocks().shape[0] == 30    # 20..49 units: one unit per block
    assert few.relative(resamples=200) is not None
    tiny = PairedSums(paired=True)
    tiny.add(rng.normal(10, 1, 19), y_b=rng.normal(5, 1, 19))
    assert tiny.relative() is None
    big = PairedSums(paired=True, block=10)
    big.add(rng.normal(10, 1, 1005), y_b=rng.normal(5, 1, 1005))
    blocks = big._resampling_blocks()
    assert blocks.shape[0] == 101                     # 100 whole blocks + the open one
    assert blocks[:, 1].sum() == 1005


# --------------------------------------------------------------------------------------------
# Holm
# --------------------------------------------------------------------------------------------

def test_holm_known_examples():
    assert holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    assert holm([0.5, 0.6]) == [1.0, 1.0]             # capped, and monotone
    assert holm([0.03]) == [0.03]
    assert holm([]) == []
    assert holm([0.01, None, 0.02]) == pytest.approx([0.02, None, 0.02])
    assert holm([0.001, 0.01, 0.011, 0.04]) == pytest.approx([0.004, 0.03, 0.03, 0.04])


def effect_with(estimate, se):
    """An Effect of a normal estimate."""
    p = math.erfc(abs(estimate) / se / math.sqrt(2))
    return Effect(Estimate(estimate, *normal_interval(estimate, se), 100, "paired-normal", se),
                  p, None, None)


def test_holm_interval_excludes_zero_exactly_when_holm_rejects():
    rng = np.random.default_rng(22)
    checked = disagree_plain = 0
    for _ in range(400):
        m = int(rng.integers(2, 6))
        effects = [effect_with(rng.normal(0, 3), 1.0) for _ in range(m)]
        for e, (low, high, holm_p) in zip(effects, holm_intervals(effects)):
            assert (low > 0 or high < 0) == (holm_p < 0.05)
            assert low <= e.estimate.estimate <= high
            assert holm_p >= e.p_value
            checked += 1
            disagree_plain += (e.p_value < 0.05) != (holm_p < 0.05)
    assert checked > 1000 and disagree_plain > 50      # the adjustment does something
    # p = 0.03 and 0.04: Holm rejects neither, so neither interval may exclude 0
    effects = [effect_with(norm.isf(0.015), 1.0), effect_with(-norm.isf(0.02), 1.0)]
    for low, high, holm_p in holm_intervals(effects):
        assert low < 0 < high and holm_p == pytest.approx(0.06)
    assert holm_intervals([Effect(Estimate(0.0, None, None, 5, "paired-normal"), None, None,
                                  None)]) == [(None, None, None)]


def test_holm_family_wise_error_under_the_global_null():
    """Five arms against one baseline, no true effect: three share noise with the baseline
    (correlated effects), two are independent; 2,000 studies of 300 units."""
    rng = np.random.default_rng(23)
    m = 300
    any_holm = any_plain = 0
    for _ in range(REPS):
        base = rng.normal(0, 1, m)
        shared = rng.normal(0, 1, m)
        arms = [0.7 * shared + 0.7 * rng.normal(0, 1, m) for _ in range(3)]
        arms += [rng.normal(0, 1, m) + 0.5 * base for _ in range(2)]
        effects = []
        for arm in arms:
            s = PairedSums(paired=True)
            s.add(arm, y_b=base)
            effects.append(s.effect())
        adjusted = holm([e.p_value for e in effects])
        any_holm += min(adjusted) <= 0.05
        any_plain += min(e.p_value for e in effects) <= 0.05
    fwer, plain = any_holm / REPS, any_plain / REPS
    assert fwer <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / REPS), fwer
    assert plain > 0.12, plain                         # unadjusted: well above alpha


# --------------------------------------------------------------------------------------------
# shares and quantiles
# --------------------------------------------------------------------------------------------

def test_wilson_coverage_and_values():
    rng = np.random.default_rng(24)
    for p, n in ((0.3, 60), (0.05, 200)):
        hits = rng.binomial(n, p, REPS)
        estimates = [proportion(h, n) for h in hits]
        assert estimates[0].method == "wilson"
        cover = coverage(estimates, p)
        assert 0.925 <= cover <= 0.975, (p, n, cover)
    low, high = wilson(0.5, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0.0, 10)[0] == 0.0 and wilson(1.0, 10)[1] == pytest.approx(1.0)
    assert proportion(0, 0).estimate is None


def naive_order_interval(total, q, level):
    """Brute force over all (l, u): the largest l and smallest u whose tails are <= a/2."""
    half = (1 - level) / 2
    pmf = binom.pmf(np.arange(total + 1), total, q)
    low = max([k for k in range(1, total + 1) if pmf[:k].sum() <= half + 1e-12], default=0)
    high = min([u for u in range(1, total + 1) if pmf[u:].sum() <= half + 1e-12],
               default=total + 1)
    return low, high


@pytest.mark.parametrize("total,q", [(9, 0.5), (30, 0.5), (101, 0.5), (200, 0.1), (57, 0.9),
                                     (5, 0.5)])
def test_order_statistic_orders_match_brute_force(total, q):
    values = np.arange(1.0, total + 1)               # one unit per value: order k is value k
    e = quantile(values, np.ones(total, int), q)
    low, high = naive_order_interval(total, q, 0.95)
    assert e.ci_low == (low if low >= 1 else None)
    assert e.ci_high == (high if high <= total else None)
    assert e.estimate == max(1, math.ceil(q * total))


def histograms(samples, top):
    """Count vectors (reps, top + 1) of integer samples, one row per study."""
    rows = np.repeat(np.arange(samples.shape[0]), samples.shape[1])
    out = np.zeros((samples.shape[0], top + 1), np.int64)
    np.add.at(out, (rows, np.minimum(samples.ravel(), top)), 1)
    return out


@pytest.mark.parametrize("q", [0.5, 0.9])
def test_order_statistic_coverage_on_discrete_and_continuous_data(q):
    rng = np.random.default_rng(25)
    samples = rng.poisson(30, (REPS, 151))
    truth = poisson.ppf(q, 30)
    counts = histograms(samples, 100)
    values = np.arange(101)
    estimates = [quantile(values, c, q) for c in counts]
    assert estimates[0].method == "order-statistic"
    cover = coverage(estimates, truth)
    assert cover >= 0.94, cover
    # continuous data: the coverage is exactly P(l <= B < u), B ~ Binomial(151, q)
    # (0.966 for the median, 0.971 for q = 0.9), so the orders are not too wide either
    cont = rng.exponential(1.0, (REPS, 151))
    estimates = []
    for row in np.sort(cont, axis=1):
        estimates.append(quantile(row, np.ones(151, int), q))
    cover = coverage(estimates, -math.log(1 - q))
    orders = quantile(np.arange(1.0, 152), np.ones(151, int), q)
    exact = binom.cdf(orders.ci_high - 1, 151, q) - binom.cdf(orders.ci_low - 1, 151, q)
    assert exact >= 0.95
    assert abs(cover - exact) <= 0.015, (cover, exact)


def test_histogram_summary():
    values, counts = [1, 2, 3, 10], [1, 4, 4, 1]
    s = histogram_summary(values, counts)
    assert s == {"mean": pytest.approx(3.1), "p10": 1.0, "p50": 2.0, "p90": 3.0}
    assert histogram_summary([], []) == {"mean": None, "p10": None, "p50": None, "p90": None}
    e = quantile(values, counts, 0.5)
    assert e.estimate == 2.0 and e.ci_low == 2.0 and e.ci_high == 3.0 and e.n == 10  # orders 2, 9


# --------------------------------------------------------------------------------------------
# duplicate matches
# --------------------------------------------------------------------------------------------

def duplicate_games(rng, reps, pairs, theta, luck, draw):
    """a's results in both games of each seed: a latent edge theta, the cards' luck (+L for
    the side that holds them: a in the first game, b in the second), a draw zone."""
    cards = rng.normal(0, luck, (reps, pairs))

    def result(edge):
        u = edge + rng.normal(0, 1, edge.shape)
        return np.where(u > draw, 1.0, np.where(u < -draw, 0.0, 0.5))

    first, second = result(theta + cards), result(theta - cards)
    s = math.sqrt(1 + luck ** 2)
    win, loss = norm.cdf((theta - draw) / s), norm.cdf((-theta - draw) / s)
    return first, second, 0.5 + 0.5 * (win - loss)


def test_pentanomial_win_rate_coverage_and_elo_consistency():
    rng = np.random.default_rng(26)
    first, second, truth = duplicate_games(rng, REPS, 200, theta=0.15, luck=1.5, draw=0.1)
    matches = [MatchStats.from_games(f, s) for f, s in zip(first, second)]
    rates = [m.win_rate() for m in matches]
    assert rates[0].method == "pentanomial" and rates[0].n == 200
    cover = coverage(rates, truth)
    assert BAND[0] <= cover <= BAND[1], cover
    # independent-games (Wilson over 2N games) intervals ignore the pairing: far too wide
    wide = [proportion(m.trinomial[2] + 0.5 * m.trinomial[1], 400) for m in matches]
    assert coverage(wide, truth) > 0.99
    ratios = [m.trinomial_variance_ratio() for m in matches]
    assert np.median(ratios) > 1.5
    # Elo: the endpoints of the win-rate interval, transformed
    true_elo = elo_from_score(truth)
    elos = [m.elo() for m in matches]
    assert elos[0].method == "elo-from-pentanomial"
    for rate, elo in zip(rates[:200], elos[:200]):
        assert elo.ci_low == pytest.approx(elo_from_score(rate.ci_low))
        assert elo.ci_high == pytest.approx(elo_from_score(rate.ci_high))
        assert elo.ci_low <= elo.estimate <= elo.ci_high
    assert coverage(elos, true_elo) == cover
    los = np.array([m.los() for m in matches])
    assert np.mean(los > 0.5) > 0.9 and np.all((0 <= los) & (los <= 1))


def test_pentanomial_without_luck_is_like_independent_games():
    rng = np.random.default_rng(27)
    first, second, truth = duplicate_games(rng, REPS, 200, theta=0.0, luck=0.0, draw=0.1)
    matches = [MatchStats.from_games(f, s) for f, s in zip(first, second)]
    cover = coverage([m.win_rate() for m in matches], truth)
    assert BAND[0] <= cover <= BAND[1], cover
    assert np.median([m.trinomial_variance_ratio() for m in matches]) == pytest.approx(1, abs=0.1)


def test_match_counts_merge_and_edge_cases():
    m = MatchStats.from_games([1, 1, 0.5, 0, 1], [0, 1, 0.5, 0, 0.5])
    assert m.pentanomial.tolist() == [1, 0, 2, 1, 1]
    assert m.trinomial.tolist() == [3, 3, 4]
    other = MatchStats.from_games([1], [1])
    m.merge(other)
    assert m.pentanomial.tolist() == [1, 0, 2, 1, 2] and m.pairs == 6
    assert m.win_rate().estimate == pytest.approx((0 + 2 * 0.5 + 0.75 + 2 * 1) / 6)
    sweep = MatchStats.from_games(np.ones(30), np.ones(30))
    rate = sweep.win_rate()
    assert rate.estimate == 1.0 and rate.se is None and rate.ci_low == pytest.approx(
        wilson(1.0, 30)[0])
    elo = sweep.elo()   # a clean sweep: a one-sided bound, 1 - p = 0.05 ** (1 / 30)
    assert elo.method == "elo-one-sided-bound" and elo.ci_high is None
    assert elo.estimate == elo.ci_low == pytest.approx(-elo_from_score(1 - 0.05 ** (1 / 30)))
    assert sweep.los() == 1.0 and sweep.trinomial_variance_ratio() is None
    empty = MatchStats()
    assert empty.win_rate().estimate is None and empty.elo().estimate is None
    assert empty.los() is None
    json.dumps(sweep.elo().to_dict(), allow_nan=False)
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_from_score(1.0) is None and elo_from_score(0) is None
    with pytest.raises(ValueError):
        MatchStats.from_games([1, 0.3], [1, 0])


# --------------------------------------------------------------------------------------------
# SPRT
# --------------------------------------------------------------------------------------------

def test_sprt_formulas():
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(-lower)
    rng = np.random.default_rng(28)
    x = rng.normal(0.3, 2.0, 1000)
    exact = np.sum(norm.logpdf(x, 0.5, 2.0) - norm.logpdf(x, 0.0, 2.0))
    assert sprt_llr(1000, x.mean(), 4.0, 0.0, 0.5) == pytest.approx(exact, rel=1e-9)
    assert sprt_llr(0, 0.0, 1.0, 0, 1) == 0.0 and sprt_llr(10, 1.0, 0.0, 0, 1) == 0.0
    assert sprt_decision(3.0, lower, upper) == "H1"
    assert sprt_decision(-3.0, lower, upper) == "H0"
    assert sprt_decision(0.0, lower, upper) == "undecided"
    test = Sprt(0.0, 0.5)
    assert test.update(1000, 0.5, 1.0) == "H1" and test.llr > test.upper
    assert test.update(2000, 0.0, 1.0) == "H1"        # the first decision is kept


def run_sprts(rng, runs, mu, mu0, mu1, wave, bernoulli, max_waves=200):
    """Sequential tests in waves: each wave's sum and sum of squares drawn exactly."""
    n = np.zeros(runs)
    total = np.zeros(runs)
    squares = np.zeros(runs)                       # sum of squared deviations (Chan)
    tests = [Sprt(mu0, mu1) for _ in range(runs)]
    active = np.arange(runs)
    for _ in range(max_waves):
        k = active.shape[0]
        if k == 0:
            break
        if bernoulli:
            wave_sum = rng.binomial(wave, mu, k).astype(float)
            wave_ss = wave_sum - wave_sum ** 2 / wave
        else:
            wave_sum = rng.normal(wave * mu, math.sqrt(wave), k)
            wave_ss = rng.chisquare(wave - 1, k)
        old_n, old_mean = n[active], total[active] / np.maximum(n[active], 1)
        delta = wave_sum / wave - old_mean
        squares[active] += wave_ss + delta ** 2 * old_n * wave / (old_n + wave)
        n[active] += wave
        total[active] += wave_sum
        still = []
        for i in active:
            if tests[i].update(n[i], total[i] / n[i], squares[i] / (n[i] - 1)) == "undecided":
                still.append(i)
        active = np.array(still, dtype=int)
    return np.array([t.decision for t in tests]), np.array([t.waves for t in tests])


@pytest.mark.parametrize("bernoulli,mu0,mu1", [(False, 0.0, 0.02), (True, 0.5, 0.52)])
def test_sprt_error_rates_in_waves(bernoulli, mu0, mu1):
    rng = np.random.default_rng(29 + bernoulli)
    runs = 1500
    tol = 3 * math.sqrt(0.05 * 0.95 / runs)
    under_h0, waves0 = run_sprts(rng, runs, mu0, mu0, mu1, 500, bernoulli)
    under_h1, waves1 = run_sprts(rng, runs, mu1, mu0, mu1, 500, bernoulli)
    assert np.mean(under_h0 == "H1") <= 0.05 + tol, np.mean(under_h0 == "H1")
    assert np.mean(under_h1 == "H0") <= 0.05 + tol, np.mean(under_h1 == "H0")
    assert np.mean(under_h0 == "H0") > 0.9 and np.mean(under_h1 == "H1") > 0.9
    assert np.mean(under_h0 == "undecided") < 0.02 and np.mean(under_h1 == "undecided") < 0.02
    assert waves0.max() <= 200 and np.median(waves0) < 100
    # it is a sequential test: under the midpoint it neither always stops at once nor
    # takes sides
    mid, _ = run_sprts(rng, 300, (mu0 + mu1) / 2, mu0, mu1, 500, bernoulli)
    assert 0.25 < np.mean(mid == "H1") < 0.75


def test_module_exports_documented():
    for name in ("Estimate", "Effect", "PairedSums", "MatchStats", "Sprt", "normal_interval",
                 "holm", "holm_intervals", "proportion", "wilson", "quantile",
                 "histogram_summary", "elo_from_score", "sprt_bounds", "sprt_llr",
                 "sprt_decision"):
        assert getattr(stats, name).__doc__, name
