"""Statistics of studies, strength and tuning: estimates and intervals from streaming sums
(pure numpy/scipy).

This module sits below the study layer: canasta_sim.study.summary, canasta_sim.strength and
canasta_sim.tune all use it, and it imports nothing of the package.

Every estimate is an :class:`Estimate` whose ``method`` is one of the strings of the
*Methods* table of ``docs/study-summary.md``; ``docs/statistics.md`` explains each method,
its assumptions and how ``tests/test_study_stats.py`` validated it by simulation.

The units (deals, games, deal seeds, game pairs) are assumed independent and identically
distributed across seeds; a baseline is paired with an arm by playing the same seed.
Sums are kept shifted by a reference ratio taken from the first unit seen, so 10^7 units of
values around 10^6 keep their variance to many digits.  Nothing here raises on an empty
sum, a single unit or a zero variance: a value that cannot be computed is ``None``.

Public names: :data:`Z95`, :class:`Estimate`, :class:`Effect`, :class:`PairedSums`,
:func:`normal_interval`, :func:`holm`, :func:`holm_intervals`, :func:`proportion`,
:func:`wilson`, :func:`quantile`, :func:`histogram_summary`, :class:`MatchStats`,
:func:`elo_from_score`, :func:`sprt_bounds`, :func:`sprt_llr`, :func:`sprt_decision`,
:class:`Sprt`.  scipy is imported only by the functions that need it.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile, norm.ppf(0.975)."""

# A variance below this share of the sum of squares it was computed from is rounding noise.
_ZERO_VARIANCE = 1e-13
# relative(): the fewest blocks a bootstrap rests on, and the number it aims for.
MIN_BLOCKS = 20
TARGET_BLOCKS = 50


def _clean(x):
    """A Python float, or None for None, NaN and infinities."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _z(level: float) -> float:
    """The two-sided normal quantile of confidence ``level``."""
    if level == 0.95:
        return Z95
    from scipy.stats import norm

    return float(norm.ppf(0.5 + level / 2))


class Estimate(NamedTuple):
    """A point estimate, its two-sided interval, the number of units and the method."""

    estimate: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    method: str
    se: float | None = None

    def to_dict(self) -> dict:
        """The fields as a JSON-ready dict (NaN and infinities become None)."""
        return {"estimate": _clean(self.estimate), "ci_low": _clean(self.ci_low),
                "ci_high": _clean(self.ci_high), "n": int(self.n), "method": self.method,
                "se": _clean(self.se)}


class Effect(NamedTuple):
    """A paired comparison, arm (a) minus baseline (b), with its significance."""

    estimate: Estimate
    p_value: float | None
    correlation: float | None
    variance_reduction: float | None

    def to_dict(self) -> dict:
        """The estimate's fields plus p_value, correlation and variance_reduction (flat)."""
        out = self.estimate.to_dict()
        out.update(p_value=_clean(self.p_value), correlation=_clean(self.correlation),
                   variance_reduction=_clean(self.variance_reduction))
        return out


def normal_interval(estimate, se, level=0.95) -> tuple:
    """``estimate ± z·se`` at confidence ``level``; (None, None) if either is missing."""
    estimate, se = _clean(estimate), _clean(se)
    if estimate is None or se is None:
        return None, None
    half = _z(level) * se
    return estimate - half, estimate + half


def _p_normal(estimate, se):
    """Two-sided normal p-value of ``estimate == 0``; None without a positive se."""
    if estimate is None or se is None or not se > 0:
        return None
    return math.erfc(abs(estimate) / se / math.sqrt(2))


# --------------------------------------------------------------------------------------------
# PairedSums
# --------------------------------------------------------------------------------------------

# Sums kept for each unit's (y_a, n_a, y_b, n_b); y is stored shifted: y - ref * n.
_FIRST = ("ya", "na", "yb", "nb")
_SECOND = ("ya_ya", "ya_na", "na_na", "yb_yb", "yb_nb", "nb_nb",
           "ya_yb", "ya_nb", "na_yb", "na_nb")


class PairedSums:
    """Streaming sums over units; each unit i has a numerator y and a denominator n for arm a,
    and optionally the same for a baseline b paired with it (the same deal seed / game seed).

    For deal-level metrics n is 1 (the estimate is a plain mean: methods ``mean-normal`` /
    ``paired-normal``).  For per-deal metrics in game studies, a unit is a game, y the sum of
    the metric over the game's deals and n the number of deals (ratio estimator:
    ``ratio-delta`` / ``paired-ratio-delta``, the delta method with games as clusters).  The
    ratio methods are named as soon as any ``n_a``/``n_b`` is passed to :meth:`add`.

    Numerators are kept shifted by a reference ratio (the first unit's y/n), which makes the
    sums of squares accurate however large the values are.  Besides the totals it keeps the
    sums of every ``block`` consecutive units (for :meth:`relative`) and, while there are
    at most ``TARGET_BLOCKS * block`` units, the units themselves (so small studies can
    bootstrap over smaller blocks).
    """

    def __init__(self, paired: bool, block: int = 1024):
        """Empty sums; ``paired`` says whether a baseline comes with every unit."""
        if block < 1:
            raise ValueError(f"block={block!r}: accepted: a positive integer")
        self.paired = bool(paired)
        self.block = int(block)
        self.ratio = False
        self.ref_a = self.ref_b = None
        self._units = 0
        self._s = dict.fromkeys(_FIRST + _SECOND, 0.0)
        self._blocks = []            # closed blocks: arrays (k, 4) of sums of ya, na, yb, nb
        self._partial = np.zeros(4)  # sums of the open block
        self._partial_units = 0
        self._raw = []               # the units themselves while there are few: (k, 4)
        self._raw_units = 0

    @property
    def units(self) -> int:
        """The number of units added."""
        return self._units

    # adding ---------------------------------------------------------------------------------

    def add(self, y_a, n_a=None, y_b=None, n_b=None) -> None:
        """Add a chunk of units (1-d arrays, one entry per unit, in order; n None = ones)."""
        y_a = np.asarray(y_a, dtype=np.float64).ravel()
        k = y_a.shape[0]
        if self.paired and y_b is None:
            raise ValueError("paired sums need y_b with every chunk")
        if not self.paired and (y_b is not None or n_b is not None):
            raise ValueError("unpaired sums take no y_b/n_b")
        if n_a is not None or n_b is not None:
            self.ratio = True
        n_a = np.ones(k) if n_a is None else np.asarray(n_a, dtype=np.float64).ravel()
        if self.paired:
            y_b = np.asarray(y_b, dtype=np.float64).ravel()
            n_b = np.ones(k) if n_b is None else np.asarray(n_b, dtype=np.float64).ravel()
        else:
            y_b, n_b = np.zeros(k), np.zeros(k)
        if not (n_a.shape[0] == y_b.shape[0] == n_b.shape[0] == k):
            raise ValueError("y_a, n_a, y_b, n_b must have one entry per unit")
        if k == 0:
            return
        if self.ref_a is None:
            self.ref_a = float(y_a[0] / n_a[0]) if n_a[0] != 0 else 0.0
            self.ref_b = (float(y_b[0] / n_b[0]) if self.paired and n_b[0] != 0 else 0.0)
        ya = y_a - self.ref_a * n_a
        yb = y_b - self.ref_b * n_b
        cols = {"ya": ya, "na": n_a, "yb": yb, "nb": n_b}
        s = self._s
        for key in _FIRST:
            s[key] += float(cols[key].sum())
        for key in _SECOND:
            left, right = key.split("_", 1)
            s[key] += float(np.dot(cols[left], cols[right]))
        self._units += k
        self._add_blocks(np.column_stack((ya, n_a, yb, n_b)))

    def _add_blocks(self, rows) -> None:
        """Fold units (rows of ya, na, yb, nb) into the block sums and the kept units."""
        if self._raw is not None:
            if self._raw_units + rows.shape[0] <= TARGET_BLOCKS * self.block:
                self._raw.append(rows)
                self._raw_units += rows.shape[0]
            else:
                self._raw, self._raw_units = None, None
        start = 0
        if self._partial_units:
            take = min(self.block - self._partial_units, rows.shape[0])
            self._partial += rows[:take].sum(axis=0)
            self._partial_units += take
            start = take
            if self._partial_units == self.block:
                self._blocks.append(self._partial[None, :].copy())
                self._partial, self._partial_units = np.zeros(4), 0
        rest = rows[start:]
        whole = rest.shape[0] // self.block
        if whole:
            self._blocks.append(rest[:whole * self.block].reshape(whole, self.block, 4)
                                .sum(axis=1))
        tail = rest[whole * self.block:]
        if tail.shape[0]:
            self._partial = self._partial + tail.sum(axis=0)
            self._partial_units += tail.shape[0]

    def _rebase(self, ref_a, ref_b) -> None:
        """Re-express the shifted sums against new reference ratios."""
        if self.ref_a is None:
            self.ref_a, self.ref_b = ref_a, ref_b
            return
        da, db = self.ref_a - ref_a, self.ref_b - ref_b
        if da == 0 and db == 0:
            return
        s = self._s
        # y_new = y_old + d * n, for a and b.
        s["ya_ya"] += 2 * da * s["ya_na"] + da * da * s["na_na"]
        s["yb_yb"] += 2 * db * s["yb_nb"] + db * db * s["nb_nb"]
        s["ya_yb"] += da * s["na_yb"] + db * s["ya_nb"] + da * db * s["na_nb"]
        s["ya_na"] += da * s["na_na"]
        s["yb_nb"] += db * s["nb_nb"]
        s["ya_nb"] += da * s["na_nb"]
        s["na_yb"] += db * s["na_nb"]
        s["ya"] += da * s["na"]
        s["yb"] += db * s["nb"]
        shift = np.array([da, 0.0, db, 0.0])
        self._blocks = [b + b[:, [1, 1, 3, 3]] * shift for b in self._blocks]
        self._partial = self._partial + self._partial[[1, 1, 3, 3]] * shift
        if self._raw:
            self._raw = [r + r[:, [1, 1, 3, 3]] * shift for r in self._raw]
        self.ref_a, self.ref_b = ref_a, ref_b

    def merge(self, other: "PairedSums") -> None:
        """Add another's units after this one's (as if they had been added in order).

        Totals, means and intervals equal those of sequential adding (to rounding); the
        bootstrap blocks too when this one's units are a multiple of ``block`` (an open
        block of this one is otherwise closed short)."""
        if other.paired != self.paired:
            raise ValueError("cannot merge paired and unpaired sums")
        if other._units == 0:
            return
        other = other.copy()
        if self.ref_a is None:
            self.ref_a, self.ref_b = other.ref_a, other.ref_b
        other._rebase(self.ref_a, self.ref_b)
        self.ratio = self.ratio or other.ratio
        for key in self._s:
            self._s[key] += other._s[key]
        if self._partial_units:
            self._blocks.append(self._partial[None, :].copy())
        self._blocks.extend(other._blocks)
        self._partial, self._partial_units = other._partial.copy(), other._partial_units
        if (self._raw is not None and other._raw is not None
                and self._raw_units + other._raw_units <= TARGET_BLOCKS * self.block):
            self._raw = self._raw + other._raw
            self._raw_units += other._raw_units
        else:
            self._raw, self._raw_units = None, None
        self._units += other._units

    def copy(self) -> "PairedSums":
        """An independent copy."""
        new = PairedSums(self.paired, self.block)
        new.ratio, new.ref_a, new.ref_b = self.ratio, self.ref_a, self.ref_b
        new._units, new._s = self._units, dict(self._s)
        new._blocks = [b.copy() for b in self._blocks]
        new._partial, new._partial_units = self._partial.copy(), self._partial_units
        new._raw = None if self._raw is None else [r.copy() for r in self._raw]
        new._raw_units = self._raw_units
        return new

    # estimates ------------------------------------------------------------------------------

    def _side(self, side):
        """(ratio, sum of squared linearised units z = y - R n, sum of n, sum of squares)."""
        s = self._s
        y, n = s["y" + side], s["n" + side]
        yy, yn, nn = s[f"y{side}_y{side}"], s[f"y{side}_n{side}"], s[f"n{side}_n{side}"]
        if n == 0:
            return None, None, n, yy
        r = y / n
        zz = yy - 2 * r * yn + r * r * nn
        if zz <= _ZERO_VARIANCE * max(yy, r * r * nn):
            zz = 0.0
        return r, zz, n, yy

    def _mean(self, side, level):
        """The mean (ratio) of one arm with its interval."""
        method = "ratio-delta" if self.ratio else "mean-normal"
        m = self._units
        r, zz, n, _ = self._side(side)
        if m == 0 or r is None:
            return Estimate(None, None, None, m, method)
        ref = self.ref_a if side == "a" else self.ref_b
        estimate = ref + r
        se = None
        if m > 1 and zz > 0:
            se = math.sqrt(m / (m - 1) * zz) / n
        low, high = normal_interval(estimate, se, level)
        return Estimate(estimate, low, high, m, method, se)

    def mean_a(self, level=0.95) -> Estimate:
        """Arm a's mean per unit (or per denominator: the ratio of the totals)."""
        return self._mean("a", level)

    def mean_b(self, level=0.95) -> Estimate:
        """The baseline's mean (paired sums only; empty otherwise)."""
        if not self.paired:
            return Estimate(None, None, None, 0, "ratio-delta" if self.ratio else "mean-normal")
        return self._mean("b", level)

    def effect(self, level=0.95) -> Effect:
        """Arm a minus baseline b, from the paired (linearised) units."""
        method = "paired-ratio-delta" if self.ratio else "paired-normal"
        m = self._units
        empty = Effect(Estimate(None, None, None, m, method), None, None, None)
        if not self.paired or m == 0:
            return empty
        ra, zza, na, _ = self._side("a")
        rb, zzb, nb, _ = self._side("b")
        if ra is None or rb is None:
            return empty
        estimate = (self.ref_a + ra) - (self.ref_b + rb)
        s = self._s
        zab = s["ya_yb"] - rb * s["ya_nb"] - ra * s["na_yb"] + ra * rb * s["na_nb"]
        # Linearised units u_i = z_a,i / mean(n_a) - z_b,i / mean(n_b); var(D) = s_u^2 / m.
        ma, mb = na / m, nb / m
        va, vb = zza / ma ** 2, zzb / mb ** 2
        cab = zab / (ma * mb)
        vd = va + vb - 2 * cab
        if vd <= _ZERO_VARIANCE * (va + vb):
            vd = 0.0
        correlation = cab / math.sqrt(va * vb) if va > 0 and vb > 0 else None
        if correlation is not None:
            correlation = max(-1.0, min(1.0, correlation))
        reduction = (va + vb) / vd if vd > 0 else None
        se = math.sqrt(vd / (m - 1) / m) if m > 1 and vd > 0 else None
        low, high = normal_interval(estimate, se, level)
        return Effect(Estimate(estimate, low, high, m, method, se), _p_normal(estimate, se),
                      correlation, reduction)

    def _resampling_blocks(self):
        """Sums (k, 4) of the blocks the bootstrap resamples, or None if too few units.

        Blocks of ``block`` units when there are at least TARGET_BLOCKS of them; otherwise
        the units kept are regrouped into blocks of max(1, units // TARGET_BLOCKS) units (at
        least TARGET_BLOCKS blocks once there are that many units).  None below MIN_BLOCKS."""
        closed = sum(b.shape[0] for b in self._blocks)
        if closed >= TARGET_BLOCKS or self._raw is None:
            parts = list(self._blocks)
            if self._partial_units:
                parts.append(self._partial[None, :])
            blocks = np.concatenate(parts) if parts else np.zeros((0, 4))
        else:
            rows = np.concatenate(self._raw) if self._raw else np.zeros((0, 4))
            size = max(1, rows.shape[0] // TARGET_BLOCKS)
            whole = rows.shape[0] // size
            blocks = rows[:whole * size].reshape(whole, size, 4).sum(axis=1)
            if rows.shape[0] > whole * size:
                blocks = np.vstack([blocks, rows[whole * size:].sum(axis=0)])
        return blocks if blocks.shape[0] >= MIN_BLOCKS else None

    def relative(self, level=0.95, resamples=2000, seed=0) -> Estimate | None:
        """mean_a / mean_b - 1 with a BCa bootstrap interval over blocks of consecutive units.

        None when unpaired, when the baseline mean is 0, or when fewer than MIN_BLOCKS (20)
        blocks can be formed (see :meth:`_resampling_blocks`); the interval is None when the
        bootstrap cannot give one (e.g. all blocks alike).  ``n`` is the number of units."""
        if not self.paired or self._units == 0:
            return None
        mean_a, mean_b = self.mean_a().estimate, self.mean_b().estimate
        if mean_a is None or mean_b is None or mean_b == 0:
            return None
        blocks = self._resampling_blocks()
        if blocks is None:
            return None
        ref_a, ref_b = self.ref_a, self.ref_b

        def statistic(ya, na, yb, nb, axis=-1):
            a = ref_a + ya.sum(axis=axis) / na.sum(axis=axis)
            b = ref_b + yb.sum(axis=axis) / nb.sum(axis=axis)
            with np.errstate(divide="ignore", invalid="ignore"):
                return a / b - 1

        estimate = mean_a / mean_b - 1
        low = high = se = None
        import warnings

        from scipy.stats import bootstrap
        k = blocks.shape[0]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = bootstrap(tuple(blocks.T), statistic, paired=True, vectorized=True,
                                n_resamples=resamples, confidence_level=level,
                                method="BCa", batch=max(1, 4_000_000 // (4 * k)),
                                rng=np.random.default_rng(seed))
            low, high = _clean(res.confidence_interval.low), _clean(res.confidence_interval.high)
            se = _clean(res.standard_error)
        except (ValueError, FloatingPointError, ZeroDivisionError):
            pass
        if low is None or high is None:
            low = high = None
        return Estimate(estimate, low, high, self._units, "bootstrap-bca", se)


# --------------------------------------------------------------------------------------------
# Holm
# --------------------------------------------------------------------------------------------

def holm(p_values) -> list:
    """Holm step-down adjusted p-values (monotone in the order of the raw ones, capped at 1).

    The j-th smallest of m p-values becomes max over k <= j of min(1, (m - k + 1) p_(k)).
    None entries stay None and do not count in m."""
    known = [(p, i) for i, p in enumerate(p_values) if _clean(p) is not None]
    m = len(known)
    out = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(sorted(known)):
        running = max(running, min(1.0, (m - rank) * float(p)))
        out[i] = running
    return out


def holm_intervals(effects: list, level=0.95) -> list:
    """Holm-adjusted intervals: per Effect, (ci_low, ci_high, holm_p).

    With m effects that have a p-value, sorted by p-value, Holm's step-down test at
    alpha = 1 - level tests the j-th smallest at alpha / (m - j + 1) and stops at the first
    that fails, say the J-th.  The j-th gets the normal interval at confidence
    1 - alpha / (m - min(j, J) + 1): up to the stop, its own Holm level; from the stop on,
    the level of the step that failed.  Hence:

    - an interval excludes 0 exactly when Holm rejects that effect (holm_p <= alpha);
    - the family-wise error of those rejections is <= alpha (any dependence);
    - each interval covers its effect with probability >= its own level >= 1 - alpha;
    - the intervals are NOT simultaneous 1 - alpha intervals: all m cover together with
      probability >= 1 - alpha only for the Bonferroni level 1 - alpha / m, which is the
      level of the first interval (and of all of them when nothing is rejected, J = 1).

    Effects without a p-value (zero variance, too few units) get (None, None, None)."""
    alpha = 1 - level
    p = [e.p_value for e in effects]
    adjusted = holm(p)
    order = sorted((float(pi), i) for i, pi in enumerate(p) if _clean(pi) is not None)
    m = len(order)
    stop = m  # 0-based index of the first step that fails (m: none fails)
    for rank, (pi, _) in enumerate(order):
        if pi > alpha / (m - rank):
            stop = rank
            break
    out = [(None, None, None)] * len(effects)
    for rank, (_, i) in enumerate(order):
        step = min(rank, stop)
        e = effects[i].estimate
        low, high = normal_interval(e.estimate, e.se, 1 - alpha / (m - step))
        out[i] = (low, high, adjusted[i])
    return out


# --------------------------------------------------------------------------------------------
# shares and quantiles
# --------------------------------------------------------------------------------------------

def wilson(rate: float, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion ``rate`` observed in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(rate * (1 - rate), 0.0) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def proportion(successes, n, level=0.95) -> Estimate:
    """The share ``successes / n`` with its Wilson score interval (method ``wilson``)."""
    n = int(n)
    if n <= 0:
        return Estimate(None, None, None, 0, "wilson")
    rate = float(successes) / n
    low, high = wilson(rate, n, _z(level))
    se = math.sqrt(rate * (1 - rate) / n) if 0 < rate < 1 else None
    return Estimate(rate, low, high, n, "wilson", se)


def _order_statistic(cumulative, values, k):
    """The k-th smallest (1-based) of a histogram with cumulative counts."""
    return float(values[int(np.searchsorted(cumulative, k, side="left"))])


def _histogram(values, counts):
    """Checked float values and int64 counts, zero counts dropped."""
    values = np.asarray(values, dtype=np.float64).ravel()
    counts = np.asarray(counts).ravel()
    if values.shape != counts.shape:
        raise ValueError("values and counts must have the same length")
    if np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise ValueError("counts must be non-negative integers")
    if np.any(np.diff(values) <= 0):
        raise ValueError("values must be sorted ascending and distinct")
    counts = counts.astype(np.int64)
    keep = counts > 0
    return values[keep], counts[keep]


def quantile(values, counts, q, level=0.95) -> Estimate:
    """The q-quantile of a histogram and its exact distribution-free interval.

    The estimate is the sample quantile x_(ceil(qN)) (the smallest value whose cumulative
    share reaches q; the lower median for even N).  The interval is [x_(l), x_(u)] with
    l the largest and u the smallest order such that P(B <= l-1) <= a/2 and
    P(B >= u) <= a/2, B ~ Binomial(N, q), a = 1 - level: it covers the population
    q-quantile with probability >= level for any distribution, ties included.  An end is
    None when N is too small for it (no such order exists).  Method ``order-statistic``."""
    values, counts = _histogram(values, counts)
    total = int(counts.sum())
    if total == 0:
        return Estimate(None, None, None, 0, "order-statistic")
    if not 0 <= q <= 1:
        raise ValueError(f"q={q!r}: accepted: a number between 0 and 1")
    from scipy.stats import binom

    cumulative = np.cumsum(counts)
    estimate = _order_statistic(cumulative, values, max(1, math.ceil(q * total)))
    half = (1 - level) / 2
    k = int(binom.ppf(half, total, q))                 # smallest k: P(B <= k) >= half
    low_order = k + 1 if binom.cdf(k, total, q) <= half else k
    k = int(binom.isf(half, total, q))                  # about the smallest k: P(B > k) <= half
    while k > 0 and binom.sf(k - 1, total, q) <= half:
        k -= 1
    while binom.sf(k, total, q) > half:
        k += 1
    high_order = k + 1
    low = _order_statistic(cumulative, values, low_order) if low_order >= 1 else None
    high = _order_statistic(cumulative, values, high_order) if high_order <= total else None
    return Estimate(estimate, low, high, total, "order-statistic")


def histogram_summary(values, counts) -> dict:
    """``{"mean", "p10", "p50", "p90"}`` of a histogram (sample quantiles as in
    :func:`quantile`); all None when it is empty."""
    values, counts = _histogram(values, counts)
    total = int(counts.sum())
    if total == 0:
        return {"mean": None, "p10": None, "p50": None, "p90": None}
    cumulative = np.cumsum(counts)
    out = {"mean": float(np.dot(values, counts) / total)}
    for name, q in (("p10", 0.1), ("p50", 0.5), ("p90", 0.9)):
        out[name] = _order_statistic(cumulative, values, max(1, math.ceil(q * total)))
    return out


# --------------------------------------------------------------------------------------------
# duplicate matches: pentanomial and Elo
# --------------------------------------------------------------------------------------------

PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
"""a's score share of a game pair with total 0, 0.5, 1, 1.5, 2."""


def elo_from_score(p) -> float | None:
    """The logistic Elo difference of a score share p: -400 log10(1/p - 1); None outside (0, 1)."""
    p = _clean(p)
    if p is None or not 0 < p < 1:
        return None
    return -400 * math.log10(1 / p - 1)


class MatchStats:
    """A duplicate head-to-head of lineup a against lineup b on two sides.

    Each game seed is played twice, once with a on side 0 and once with the sides swapped: a
    game pair.  The pairs are the independent units; the two games of a pair share the cards
    and so are correlated, which the pentanomial counts (pairs by a's total 0, 0.5, 1, 1.5,
    2) capture and independent-game (trinomial) statistics miss."""

    def __init__(self, pentanomial=None, trinomial=None):
        """From counts: pentanomial (5) pairs by a's total, trinomial (3) games lost, drawn,
        won by a."""
        self.pentanomial = np.zeros(5, np.int64) if pentanomial is None else \
            np.asarray(pentanomial, dtype=np.int64).copy()
        self.trinomial = np.zeros(3, np.int64) if trinomial is None else \
            np.asarray(trinomial, dtype=np.int64).copy()
        if self.pentanomial.shape != (5,) or self.trinomial.shape != (3,):
            raise ValueError("pentanomial needs 5 counts and trinomial 3")

    @classmethod
    def from_games(cls, a_first, a_second) -> "MatchStats":
        """From a's results (1 win, 0.5 draw, 0 loss) in game seed i played with a on side 0
        (``a_first[i]``) and with the sides swapped (``a_second[i]``)."""
        first = np.asarray(a_first, dtype=np.float64).ravel()
        second = np.asarray(a_second, dtype=np.float64).ravel()
        if first.shape != second.shape:
            raise ValueError("a_first and a_second must have the same length")
        both = np.concatenate([first, second])
        if not np.all(np.isin(both, (0.0, 0.5, 1.0))):
            raise ValueError("results must be 0 (loss), 0.5 (draw) or 1 (win)")
        halves = np.rint(2 * (first + second)).astype(np.int64)
        return cls(np.bincount(halves, minlength=5),
                   np.bincount(np.rint(2 * both).astype(np.int64), minlength=3))

    def merge(self, other) -> None:
        """Add another match's counts (more game pairs of the same two lineups)."""
        self.pentanomial += other.pentanomial
        self.trinomial += other.trinomial

    @property
    def pairs(self) -> int:
        """The number of game pairs."""
        return int(self.pentanomial.sum())

    def _moments(self):
        """(mean pair score share, variance of one pair's share) or (None, None)."""
        n = self.pairs
        if n == 0:
            return None, None
        mean = float(np.dot(self.pentanomial, PAIR_SCORES) / n)
        var = float(np.dot(self.pentanomial, (PAIR_SCORES - mean) ** 2) / n)
        return mean, var

    def win_rate(self, level=0.95) -> Estimate:
        """a's score share (a draw counts half) from the game pairs (method ``pentanomial``).

        The estimate is the mean pair total / 2; its variance is that of the pentanomial
        distribution of pair totals divided by the number of pairs; normal interval, clipped
        to [0, 1].  When every pair has the same total (zero variance) the se is None and
        the interval is Wilson's over the pairs, which is conservative for any score in
        [0, 1] (its variance is at most p(1 - p))."""
        n = self.pairs
        mean, var = self._moments()
        if mean is None:
            return Estimate(None, None, None, 0, "pentanomial")
        if var <= 0 or n < 2:
            low, high = wilson(mean, n, _z(level))
            return Estimate(mean, low, high, n, "pentanomial")
        se = math.sqrt(var / n)
        low, high = normal_interval(mean, se, level)
        return Estimate(mean, max(0.0, low), min(1.0, high), n, "pentanomial", se)

    def elo(self, level=0.95) -> Estimate:
        """The logistic Elo difference of a over b (method ``elo-from-pentanomial``).

        The estimate and the interval's ends are :func:`elo_from_score` of the win rate and
        of its interval's ends, each clamped first into [1/(4N), 1 - 1/(4N)] for N pairs
        (half a game of the 2N): a clean sweep gives a finite Elo.  se by the delta method."""
        rate = self.win_rate(level)
        n = rate.n
        if rate.estimate is None:
            return Estimate(None, None, None, 0, "elo-from-pentanomial")
        eps = 1 / (4 * n)

        def elo(p):
            return None if p is None else elo_from_score(min(max(p, eps), 1 - eps))

        p = min(max(rate.estimate, eps), 1 - eps)
        se = None if rate.se is None else rate.se * 400 / (math.log(10) * p * (1 - p))
        return Estimate(elo(rate.estimate), elo(rate.ci_low), elo(rate.ci_high), n,
                        "elo-from-pentanomial", se)

    def los(self) -> float | None:
        """Likelihood of superiority, P(a stronger than b) = Phi((rate - 1/2) / se)."""
        mean, var = self._moments()
        if mean is None:
            return None
        if var <= 0:
            return 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
        se = math.sqrt(var / self.pairs)
        return 0.5 * math.erfc(-(mean - 0.5) / se / math.sqrt(2))

    def trinomial_variance_ratio(self) -> float | None:
        """The win rate's variance treating the 2N games as independent over its variance
        from the N pairs; > 1 when pairing cancels the luck of the cards."""
        mean, var = self._moments()
        games = int(self.trinomial.sum())
        if mean is None or var <= 0 or games == 0:
            return None
        scores = np.array([0.0, 0.5, 1.0])
        g_mean = float(np.dot(self.trinomial, scores) / games)
        g_var = float(np.dot(self.trinomial, (scores - g_mean) ** 2) / games)
        return (g_var / games) / (var / self.pairs)


# --------------------------------------------------------------------------------------------
# SPRT
# --------------------------------------------------------------------------------------------

def sprt_bounds(alpha, beta) -> tuple:
    """Wald's bounds (lower, upper) = (log(beta / (1 - alpha)), log((1 - beta) / alpha))."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(n, mean, variance, mu0, mu1) -> float:
    """Log-likelihood ratio of mean mu1 against mu0 after n i.i.d. units.

    Normal approximation with the variance estimated from the units (fishtest's
    "normalized" GSPRT): n (mu1 - mu0) (2 mean - mu0 - mu1) / (2 variance), exact for normal
    units of known variance.  0 when n or the variance is not positive."""
    if n is None or mean is None or variance is None or n <= 0 or not variance > 0:
        return 0.0
    return n * (mu1 - mu0) * (2 * mean - mu0 - mu1) / (2 * variance)


def sprt_decision(llr, lower, upper) -> str:
    """'H1' at or above the upper bound, 'H0' at or below the lower one, else 'undecided'."""
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "undecided"


class Sprt:
    """A sequential test of mean mu0 (H0) against mu1 (H1), checked after each wave.

    :meth:`update` takes the cumulative count, mean and variance of the units; the first
    decision reached is kept (later waves do not change it)."""

    def __init__(self, mu0, mu1, alpha=0.05, beta=0.05):
        """Bounds from alpha (P(H1 accepted | H0)) and beta (P(H0 accepted | H1))."""
        if mu0 == mu1:
            raise ValueError("mu0 and mu1 must differ")
        self.mu0, self.mu1, self.alpha, self.beta = mu0, mu1, alpha, beta
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self.llr = 0.0
        self.decision = "undecided"
        self.waves = 0

    def update(self, n, mean, variance) -> str:
        """The decision after a wave (cumulative n, mean and variance of the units)."""
        self.waves += 1
        if self.decision != "undecided":
            return self.decision
        self.llr = sprt_llr(n, mean, variance, self.mu0, self.mu1)
        self.decision = sprt_decision(self.llr, self.lower, self.upper)
        return self.decision
