"""Intervals of 0..1 shares (canasta_sim/stats.py): Wilson for one arm, Clopper-Pearson with
few events, Newcombe's hybrid score interval for paired differences, effective sample sizes
for shares whose units are not 0/1.  Never outside the possible range, never blank for zero
events, and covering near 95% at rare base rates (0.05% to 1%, 300 units): see
docs/statistics.md, whose full-size figures come from benchmarks/share_validation.py."""
import math

import numpy as np
import pytest
from share_simulation import (
    RARE_RATES,
    clustered_coverage,
    one_arm_coverage,
    paired_cells,
    paired_coverage,
)

from canasta_sim import stats
from canasta_sim.stats import (
    FEW_EVENTS,
    PairedSums,
    clopper_pearson,
    holm_intervals,
    paired_share_difference,
    paired_share_interval,
    share,
    share_interval,
    wilson,
)


def test_clopper_pearson_against_its_definition():
    """The ends are where the binomial tail probabilities equal 2.5%."""
    from scipy.stats import binom

    for k, n in ((0, 300), (1, 300), (3, 300), (9, 40), (300, 300)):
        low, high = clopper_pearson(k, n)
        if k > 0:
            assert binom.sf(k - 1, n, low) == pytest.approx(0.025, rel=1e-6)
        else:
            assert low == 0.0
        if k < n:
            assert binom.cdf(k, n, high) == pytest.approx(0.025, rel=1e-6)
        else:
            assert high == 1.0
    assert clopper_pearson(0, 300)[1] == pytest.approx(1 - 0.025 ** (1 / 300))


def test_the_rule_for_few_events():
    """Fewer than FEW_EVENTS events or non-events: exact; otherwise Wilson."""
    assert FEW_EVENTS == 10
    assert share(9, 300).method == "clopper-pearson" and share(291, 300).method == \
        "clopper-pearson"
    assert share(10, 300).method == "wilson" and share(290, 300).method == "wilson"
    assert share_interval(9, 300) == clopper_pearson(9, 300)
    assert share_interval(10, 300) == pytest.approx(wilson(10 / 300, 300))


def test_zero_events_never_blank_and_never_outside():
    none, every = share(0, 300), share(300, 300)
    assert (none.estimate, none.ci_low) == (0.0, 0.0) and 0 < none.ci_high < 0.013
    assert (every.estimate, every.ci_high) == (1.0, 1.0) and 0.987 < every.ci_low < 1
    effect = paired_share_difference(0, 0, 0, 300)
    e = effect.estimate
    assert e.estimate == 0 and e.ci_low < 0 < e.ci_high and effect.p_value == 1.0
    assert e.ci_high == pytest.approx(clopper_pearson(0, 300)[1])
    every = paired_share_difference(300, 0, 0, 0)
    assert every.estimate.ci_low < 0 < every.estimate.ci_high
    for table in ((0, 0, 300, 0), (0, 300, 0, 0), (150, 150, 0, 0), (0, 1, 0, 0)):
        low, high = paired_share_interval(*table)
        assert -1 <= low <= high <= 1


def newcombe_naive(a, b, c, d, z=1.959963984540054):
    """Newcombe's (1998) method 10 written out from the paper (Wilson margins)."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n

    def wil(x):
        p = x / n
        centre = 2 * n * p + z * z
        half = z * math.sqrt(z * z + 4 * n * p * (1 - p))
        return (centre - half) / (2 * (n + z * z)), (centre + half) / (2 * (n + z * z))

    l1, u1 = wil(a + b)
    l2, u2 = wil(a + c)
    product = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0)
    phi = corrected / math.sqrt(product) if product else 0.0
    theta = p1 - p2
    return (theta - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2),
            theta + math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))


@pytest.mark.parametrize("table", [(12, 9, 2, 21), (40, 30, 20, 210), (100, 15, 25, 60),
                                   (30, 20, 20, 30)])
def test_paired_difference_is_newcombe_method_10(table):
    effect = paired_share_difference(*table)
    assert effect.estimate.method == "newcombe-paired"
    assert (effect.estimate.ci_low, effect.estimate.ci_high) == \
        pytest.approx(newcombe_naive(*table), rel=1e-9)
    a, b, c, d = table
    assert effect.estimate.estimate == pytest.approx((b - c) / sum(table))


def test_p_value_inverts_the_interval():
    rng = np.random.default_rng(5)
    for _ in range(200):
        table = tuple(int(x) for x in rng.multinomial(300, [0.01, 0.02, 0.01, 0.96]))
        effect = paired_share_difference(*table)
        excludes = effect.estimate.ci_low > 0 or effect.estimate.ci_high < 0
        assert (effect.p_value <= 0.05) == excludes or abs(effect.p_value - 0.05) < 1e-6


@pytest.mark.parametrize("rate", RARE_RATES + (0.05, 0.3))
def test_one_arm_coverage_at_rare_rates_is_exact_and_near_nominal(rate):
    """Coverage over every count of events (exact, no simulation) at 300 units; the old
    normal interval's coverage, with zero events blank, is far below."""
    got = one_arm_coverage(rate, 300)
    assert got["coverage"] >= 0.94, got
    if rate <= 0.01:
        assert got["wald"] < 0.90, got
    mirrored = one_arm_coverage(1 - rate, 300)          # went_out near 100%
    assert mirrored["coverage"] == pytest.approx(got["coverage"], abs=1e-9)


@pytest.mark.parametrize("base, arm, shared", [
    (0.0005, 0.0005, 0.5), (0.001, 0.002, 0.5), (0.005, 0.005, 0.8), (0.01, 0.005, 0.5),
    (0.01, 0.02, 0.3), (0.01, 0.01, 0.0)])
def test_paired_coverage_at_rare_rates(base, arm, shared):
    """Simulated coverage of the paired interval (1,500 tables of 300 paired units), never
    lopsided; figures in docs/statistics.md."""
    rng = np.random.default_rng(int(base * 1e5) + int(arm * 1e4) + int(shared * 10))
    got = paired_coverage(rng, paired_cells(base, arm, shared), 300, 1500)
    assert got["coverage"] >= 0.935, got
    assert got["below"] <= 0.04 and got["above"] <= 0.04, got


def test_old_paired_normal_interval_failed_where_the_new_one_holds():
    rng = np.random.default_rng(11)
    got = paired_coverage(rng, paired_cells(0.005, 0.005, 0.5), 300, 1500)
    assert got["wald"] < 0.9 and got["wald_blank"] > 0.05 and got["coverage"] > 0.94, got


def test_clustered_share_coverage():
    """A game study's per-deal 0/1 share (ratio over deals, games as clusters, a game's own
    rate): baseline share and paired effect, 300 games of about 5 deals, 1% events."""
    rng = np.random.default_rng(21)
    got = clustered_coverage(rng, 0.01, 300, 300, lift=1.5)
    assert got["share"] >= 0.92 and got["effect"] >= 0.92, got


def test_paired_sums_know_0_1_units_and_give_share_rows():
    rng = np.random.default_rng(3)
    a = (rng.random(600) < 0.995).astype(float)
    b = (rng.random(600) < 0.99).astype(float)
    sums = PairedSums(True)
    sums.add(a[:250], None, b[:250])
    rest = PairedSums(True)
    rest.add(a[250:], None, b[250:])
    sums.merge(rest)
    assert sums.binary
    both = int(np.sum(a * b))
    assert sums.binary_table() == (both, int(a.sum()) - both, int(b.sum()) - both,
                                   600 - int(a.sum()) - int(b.sum()) + both)
    assert sums.share_a().estimate == pytest.approx(a.mean())
    assert sums.share_a().method == "clopper-pearson"     # fewer than 10 non-events
    effect = sums.share_effect()
    assert effect.estimate.estimate == pytest.approx(a.mean() - b.mean())
    assert effect.estimate.se == pytest.approx(sums.effect().estimate.se)
    assert effect.correlation == pytest.approx(sums.effect().correlation)
    halves = PairedSums(True)
    halves.add([0.5, 1, 0], None, [1, 1, 0])
    assert not halves.binary and halves.share_a().method.endswith("-effective")
    ratio = PairedSums(False)
    ratio.add([0, 1, 0], [3, 4, 5])
    assert not ratio.binary and ratio.binary_table() is None
    low, high = ratio.share_a()[1:3]
    assert 0 <= low < high <= 1


def test_all_zero_share_sums_give_an_interval():
    """The bug: 300 deals without a stock-out, 'went_out' 100.0% with a blank interval."""
    sums = PairedSums(True)
    sums.add(np.ones(300), None, np.ones(300))
    assert sums.mean_a().se is None                     # the normal interval is blank
    share_a = sums.share_a()
    assert share_a.estimate == 1.0 and share_a.ci_low < 1 and share_a.ci_high == 1.0
    e = sums.share_effect().estimate
    assert e.ci_low < 0 < e.ci_high


def test_holm_intervals_of_shares_use_the_share_interval():
    """With share intervals given, a Holm interval excludes 0 exactly when Holm rejects."""
    rng = np.random.default_rng(8)
    for _ in range(30):
        tables = [tuple(int(x) for x in rng.multinomial(400, [0.01, p, 0.01, 0.98 - p]))
                  for p in rng.uniform(0.005, 0.04, 4)]
        effects = [paired_share_difference(*t) for t in tables]
        funcs = [lambda lv, t=t: paired_share_interval(*t, level=lv) for t in tables]
        for (low, high, p), e in zip(holm_intervals(effects, intervals=funcs), effects):
            assert -1 <= low <= high <= 1
            if abs(p - 0.05) > 1e-6:
                assert (p <= 0.05) == (low > 0 or high < 0)


def test_module_exports_of_shares_documented():
    for name in ("share", "share_interval", "clopper_pearson", "effective_share",
                 "paired_share_difference", "paired_share_interval", "mover_difference",
                 "newcombe_phi", "few_events", "gsprt_llr"):
        assert getattr(stats, name).__doc__, name
