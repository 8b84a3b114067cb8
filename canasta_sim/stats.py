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
:class:`Sprt`; for 0..1 shares :data:`FEW_EVENTS`, :func:`share`, :func:`share_interval`,
:func:`clopper_pearson`, :func:`effective_share`, :func:`paired_share_difference`,
:func:`mover_difference`, :func:`newcombe_phi` and for the SPRT of 0/1 metrics
:func:`gsprt_llr`.  scipy is imported only by the functions that need it.
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


def _all_binary(values) -> bool:
    """Whether every value is exactly 0 or 1."""
    values = np.asarray(values, dtype=np.float64)
    return bool(np.all((values == 0) | (values == 1)))


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
        self.binary = True           # every unit 0 or 1 in both arms, no denominators

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
        self.binary = self.binary and n_a is None and n_b is None and _all_binary(y_a) and \
            (y_b is None or _all_binary(y_b))
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
        self.binary = self.binary and other.binary
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
        new.binary = self.binary
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

    # shares: 0..1 metrics -------------------------------------------------------------------

    def _total(self, side) -> float:
        """One arm's sum of (unshifted) numerators."""
        ref = (self.ref_a if side == "a" else self.ref_b) or 0.0
        return self._s["y" + side] + ref * self._s["n" + side]

    def binary_table(self):
        """(both, a only, b only, neither): the paired 0/1 units with the event in both arms,
        in arm a only, in the baseline only, in neither; None unless the sums are paired and
        every unit was 0 or 1 (no denominators)."""
        if not (self.paired and self.binary) or self._units == 0:
            return None
        s = self._s
        both = (s["ya_yb"] + self.ref_b * s["ya_nb"] + self.ref_a * s["na_yb"]
                + self.ref_a * self.ref_b * s["na_nb"])
        both = int(round(both))
        a, b = int(round(self._total("a"))), int(round(self._total("b")))
        return both, a - both, b - both, self._units - a - b + both

    def _share(self, side, level):
        """One arm's share with an interval inside [0, 1] (see :meth:`share_a`)."""
        mean = self._mean(side, level)
        if mean.estimate is None:
            return mean
        if self.binary:
            return share(int(round(self._total(side))), self._units, level)
        return effective_share(mean, self._s["n" + side] if self.ratio else None, level)

    def share_a(self, level=0.95) -> Estimate:
        """Arm a's share of a 0..1 metric with an interval that stays inside [0, 1].

        0/1 units: :func:`share` (Wilson, or Clopper-Pearson with fewer than FEW_EVENTS
        events or non-events).  Other units (a draw counting half, a duplicate seed's mean
        over rotations, a ratio over a game's deals): :func:`effective_share`."""
        return self._share("a", level)

    def share_b(self, level=0.95) -> Estimate:
        """The baseline's share (paired sums only; empty otherwise), as :meth:`share_a`."""
        if not self.paired:
            return Estimate(None, None, None, 0, "wilson")
        return self._share("b", level)

    def share_effect(self, level=0.95) -> Effect:
        """Arm a's share minus the baseline's, with a paired interval inside [-1, 1].

        0/1 units: :func:`paired_share_difference` (Newcombe's hybrid score interval for
        paired proportions, exact marginals where few events).  Other units: the MOVER
        combination (:func:`mover_difference`) of the two arms' :meth:`share_a`-style
        intervals with the correlation of the paired units.  The p-value is the interval
        inverted (the largest 1 - level at which it holds 0), so the interval excludes 0
        exactly when p <= 1 - level."""
        table = self.binary_table()
        if table is not None:
            return paired_share_difference(*table, level=level)
        effect = self.effect(level)
        interval = self._share_difference()
        if interval is None or effect.estimate.estimate is None:
            return effect
        estimate = effect.estimate.estimate
        low, high = interval(level)
        return Effect(Estimate(estimate, low, high, self._units, "mover-paired",
                               effect.estimate.se), _p_by_inversion(interval, estimate),
                      effect.correlation, effect.variance_reduction)

    def _share_difference(self):
        """The function level -> (low, high) of :meth:`share_effect`'s interval (the sums'
        parts computed once), or None without paired units."""
        if not self.paired or self._units == 0:
            return None
        table = self.binary_table()
        if table is not None:
            return lambda level: paired_share_interval(*table, level=level)
        mean_a, mean_b = self._mean("a", 0.95), self._mean("b", 0.95)
        if mean_a.estimate is None or mean_b.estimate is None:
            return None
        r = self.effect().correlation or 0.0
        trials_a = self._s["na"] if self.ratio else None
        trials_b = self._s["nb"] if self.ratio else None

        def interval(level):
            a = effective_share(mean_a, trials_a, level)
            b = effective_share(mean_b, trials_b, level)
            return mover_difference(a.estimate, (a.ci_low, a.ci_high), b.estimate,
                                    (b.ci_low, b.ci_high), r)

        return interval

    def share_effect_interval(self, level=0.95) -> tuple:
        """(low, high) of :meth:`share_effect` at confidence ``level`` (for Holm's levels)."""
        interval = self._share_difference()
        return (None, None) if interval is None else interval(level)

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


def holm_intervals(effects: list, level=0.95, intervals=None) -> list:
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

    Effects without a p-value (zero variance, too few units) get (None, None, None).
    ``intervals``: per effect, None (the normal interval) or a function of the confidence
    level giving (low, high), for effects whose p-value inverts that interval (shares)."""
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
        held = 1 - alpha / (m - step)
        own = intervals[i] if intervals is not None else None
        low, high = own(held) if own is not None else normal_interval(e.estimate, e.se, held)
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


FEW_EVENTS = 10
"""Fewer events (or non-events) than this in n trials: the exact Clopper-Pearson interval."""


def clopper_pearson(successes, n, level=0.95) -> tuple:
    """The exact (Clopper-Pearson) interval of a proportion: beta quantiles, 0 and 1 at the
    ends.  ``successes`` and ``n`` may be fractional (an effective sample size)."""
    if not n > 0:
        return 0.0, 1.0
    from scipy.special import betaincinv  # the beta quantile, without scipy.stats' cost

    half = (1 - level) / 2
    x = min(max(float(successes), 0.0), float(n))
    low = 0.0 if x <= 0 else float(betaincinv(x, n - x + 1, half))
    high = 1.0 if x >= n else float(betaincinv(x + 1, n - x, 1 - half))
    return low, high


def few_events(successes, n) -> bool:
    """Whether fewer than FEW_EVENTS events or non-events were seen: the exact interval."""
    return min(successes, n - successes) < FEW_EVENTS


def share_interval(successes, n, level=0.95) -> tuple:
    """(low, high) of a proportion: Wilson's score interval, or Clopper-Pearson's exact one
    when :func:`few_events`.  Both stay inside [0, 1]; 0 events give [0, high > 0]."""
    if not n > 0:
        return 0.0, 1.0
    if few_events(successes, n):
        return clopper_pearson(successes, n, level)
    return wilson(successes / n, n, _z(level))


def share(successes, n, level=0.95) -> Estimate:
    """The share ``successes / n`` of 0/1 units: method ``wilson``, or ``clopper-pearson``
    with fewer than FEW_EVENTS events or non-events (where Wilson's coverage dips: at 1 event
    in 300 trials its lower end, 0.0006, misses every rate below it)."""
    n = int(n)
    if n <= 0:
        return Estimate(None, None, None, 0, "wilson")
    rate = float(successes) / n
    low, high = share_interval(successes, n, level)
    se = math.sqrt(rate * (1 - rate) / n) if 0 < rate < 1 else None
    return Estimate(rate, low, high, n, "clopper-pearson" if few_events(successes, n)
                    else "wilson", se)


def effective_share(mean: Estimate, trials=None, level=0.95) -> Estimate:
    """A share whose units are not 0/1 (a draw counting half, a mean over rotations, a ratio
    over a game's deals), from its normal estimate: :func:`share_interval` at the effective
    sample size n* = p (1 - p) / se^2 (Korn and Graubard 1998), at most ``trials`` (the
    deals of a ratio); n* = the units when se is 0 or missing (no event, or all alike).
    Methods ``wilson-effective`` and ``clopper-pearson-effective``."""
    p, m = mean.estimate, mean.n
    if p is None or m <= 0:
        return Estimate(None, None, None, m, "wilson-effective")
    p = min(max(p, 0.0), 1.0)
    size = float(m)
    if mean.se is not None and mean.se > 0 and 0 < p < 1:
        size = p * (1 - p) / mean.se ** 2
        if trials is not None:
            size = min(size, float(trials))
    low, high = share_interval(p * size, size, level)
    method = "clopper-pearson-effective" if few_events(p * size, size) else "wilson-effective"
    return Estimate(p, low, high, m, method, mean.se)


def mover_difference(p_a, ci_a, p_b, ci_b, correlation=0.0) -> tuple:
    """(low, high) of p_a - p_b from each one's interval (MOVER: Zou and Donner 2008; with
    Wilson intervals and Newcombe's phi it is Newcombe's method 10), clipped to [-1, 1]."""
    (l_a, u_a), (l_b, u_b) = ci_a, ci_b
    d, r = p_a - p_b, correlation
    low = d - math.sqrt(max(0.0, (p_a - l_a) ** 2 - 2 * r * (p_a - l_a) * (u_b - p_b)
                            + (u_b - p_b) ** 2))
    high = d + math.sqrt(max(0.0, (u_a - p_a) ** 2 - 2 * r * (u_a - p_a) * (p_b - l_b)
                             + (p_b - l_b) ** 2))
    return max(-1.0, low), min(1.0, high)


def newcombe_phi(both, a_only, b_only, neither) -> float:
    """Newcombe's (1998) correlation of a paired 2x2 table for method 10: (ad - bc) / sqrt of
    the margins' product, with ad - bc lowered by n/2 (to 0 at most) when positive, and 0 when
    a margin is empty."""
    n = both + a_only + b_only + neither
    margins = float(both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    if margins <= 0:
        return 0.0
    cross = float(both) * neither - float(a_only) * b_only
    cross = max(cross - n / 2, 0.0) if cross > 0 else cross
    return cross / math.sqrt(margins)


def _p_by_inversion(interval, estimate, tol=1e-9) -> float | None:
    """The two-sided p-value of 0 from a family of intervals (``interval(level)`` -> (low,
    high), nested in the level): the largest alpha whose 1 - alpha interval holds 0.  1 for
    an estimate of 0."""
    if estimate is None:
        return None
    if estimate == 0:
        return 1.0

    def excludes(alpha):
        low, high = interval(1 - alpha)
        return low > 0 or high < 0

    lo, hi = 1e-15, 1 - 1e-9
    if excludes(lo):
        return lo
    if not excludes(hi):
        return 1.0
    for _ in range(60):                      # bisection on log(alpha)
        mid = math.sqrt(lo * hi)
        if excludes(mid):
            hi = mid
        else:
            lo = mid
        if hi - lo <= tol * hi:
            break
    return hi


def paired_share_interval(both, a_only, b_only, neither, level=0.95) -> tuple:
    """(low, high) of :func:`paired_share_difference` at confidence ``level``."""
    n = both + a_only + b_only + neither
    if n <= 0:
        return None, None
    phi = newcombe_phi(both, a_only, b_only, neither)
    return mover_difference((both + a_only) / n, share_interval(both + a_only, n, level),
                            (both + b_only) / n, share_interval(both + b_only, n, level), phi)


def paired_share_difference(both, a_only, b_only, neither, level=0.95) -> Effect:
    """Arm a's share minus the baseline's from paired 0/1 units (the 2x2 table of counts).

    The interval is Newcombe's hybrid score interval for a difference of paired proportions
    (Newcombe 1998, Stat Med 17:2635-2650, method 10): Wilson intervals of the two marginal
    shares combined with his phi (:func:`newcombe_phi`, :func:`mover_difference`); a margin
    with fewer than FEW_EVENTS events or non-events takes the Clopper-Pearson interval
    instead (method ``newcombe-paired-exact``, else ``newcombe-paired``).  It stays inside
    [-1, 1] and is never blank: no event at all gives an interval around 0 as wide as the
    exact ends allow.  The p-value inverts the interval (:func:`_p_by_inversion`)."""
    n = both + a_only + b_only + neither
    exact = few_events(both + a_only, n) or few_events(both + b_only, n)
    method = "newcombe-paired-exact" if exact else "newcombe-paired"
    if n <= 0:
        return Effect(Estimate(None, None, None, 0, method), None, None, None)
    p_a, p_b = (both + a_only) / n, (both + b_only) / n

    def interval(lv):
        return paired_share_interval(both, a_only, b_only, neither, lv)

    estimate = (a_only - b_only) / n
    low, high = interval(level)
    spread = (a_only + b_only) / n - estimate ** 2       # variance of one unit's difference
    se = math.sqrt(spread / (n - 1)) if n > 1 and spread > 0 else None
    va, vb = p_a * (1 - p_a), p_b * (1 - p_b)
    correlation = ((both / n - p_a * p_b) / math.sqrt(va * vb)) if va > 0 and vb > 0 else None
    reduction = (va + vb) / spread if spread > 0 else None
    return Effect(Estimate(estimate, low, high, n, method, se),
                  _p_by_inversion(interval, estimate), correlation, reduction)


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


ELO_BOUND = "elo-one-sided-bound"
"""The method of an Elo "estimate" that is a one-sided bound (:func:`elo_sweep_bound`)."""


def elo_sweep_bound(pairs: int, won: bool, level=0.95) -> Estimate:
    """The one-sided ``level`` bound on the Elo difference after a clean sweep of ``pairs``
    game pairs (method ELO_BOUND): lost them all, Elo < the bound (``ci_high``); won them
    all, Elo > it (``ci_low``).  A pair's score lies in [0, 1], so if a's true share were p
    the chance of ``pairs`` zero scores is at most (1 - p)^pairs; the bound is the Elo of
    the p where that chance is 1 - level (a win of every pair mirrors it).  The
    ``estimate`` field holds the bound too, for readers that need a number."""
    p = 1 - (1 - level) ** (1 / pairs)
    bound = -elo_from_score(p) if won else elo_from_score(p)
    low, high = (bound, None) if won else (None, bound)
    return Estimate(bound, low, high, pairs, ELO_BOUND)


def elo_text(estimate, level=0.95) -> str | None:
    """'< -1,234 (one-sided 95% bound)' for a clean sweep's bound (an :class:`Estimate` or
    its dict), None for any other estimate."""
    get = estimate.get if isinstance(estimate, dict) else lambda k: getattr(estimate, k)
    if get("method") != ELO_BOUND or get("estimate") is None:
        return None
    sign = ">" if get("ci_low") is not None else "<"
    return f"{sign} {get('estimate'):+,.0f} (one-sided {100 * level:.0f}% bound)"


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
        (half a game of the 2N).  se by the delta method.  A clean sweep (every pair lost,
        or every pair won) has no finite estimate: it gives :func:`elo_sweep_bound`."""
        rate = self.win_rate(level)
        n = rate.n
        if rate.estimate is None:
            return Estimate(None, None, None, 0, "elo-from-pentanomial")
        if rate.estimate in (0.0, 1.0):
            return elo_sweep_bound(n, won=rate.estimate == 1.0, level=level)
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


GSPRT_EPSILON = 1e-3
"""The count given to a possible value never seen (fishtest's regularisation)."""


def _mle_with_mean(values, pdf, mean) -> list:
    """The distribution on ``values`` closest to ``pdf`` (maximum likelihood) whose mean is
    ``mean``: p_i = pdf_i / (1 + x (v_i - mean)), x the root of f(x) = sum p_i (v_i - mean) = 0
    (fishtest's MLE_expected, Van den Bergh's Proposition 1.1).  f falls from +inf to -inf
    between its poles -1/max(v - mean) and -1/min(v - mean): Newton's steps, kept inside
    the bracket by bisection (pure Python: a handful of values).  ``mean`` must lie strictly
    between the smallest and largest value."""
    shifted = [v - mean for v in values]
    high, low = max(shifted), min(shifted)
    if not (low < 0 < high):
        raise ValueError(f"mean {mean!r} is not strictly inside the values' range")
    left, right = -1 / high, -1 / low
    x = 0.0
    for _ in range(400):
        f = slope = 0.0
        for p, v in zip(pdf, shifted):
            t = v / (1 + x * v)
            f += p * t
            slope -= p * t * t
        if f > 0:
            left = x
        else:
            right = x
        step = x - f / slope if slope < 0 else 0.5 * (left + right)
        if not left < step < right:
            step = 0.5 * (left + right)
        if step == x or right - left <= 4e-16 * max(1.0, abs(x)):
            break
        x = step
    out = [p / (1 + x * v) for p, v in zip(pdf, shifted)]
    total = sum(out)
    return [p / total for p in out]


def gsprt_llr(values, counts, mu0, mu1) -> float:
    """The generalised SPRT's log-likelihood ratio of mean mu1 against mu0 for units taking
    finitely many ``values`` (seen ``counts`` times), as fishtest computes it for game pairs.

    Under each hypothesis the distribution of a unit is the maximum-likelihood one with that
    mean (:func:`_mle_with_mean`) and LLR = N sum_i pdf_i log(p1_i / p0_i), pdf the observed
    shares.  For two values this is exactly the Bernoulli LLR,
    k log(p1/p0) + (N - k) log((1 - p1)/(1 - p0)); for the paired difference of two 0/1
    metrics (values -1, 0, 1) it profiles out the rate of discordant pairs.  ``values``
    should list every value a unit can take: one never seen counts GSPRT_EPSILON, so a rare
    event not seen yet still has a likelihood.  0 without units."""
    values = np.asarray(values, dtype=np.float64).ravel()
    counts = np.asarray(counts, dtype=np.float64).ravel()
    if values.shape != counts.shape:
        raise ValueError("values and counts must have the same length")
    total = float(counts.sum())
    if total <= 0:
        return 0.0
    regular = np.maximum(counts, GSPRT_EPSILON)
    pdf = (regular / regular.sum()).tolist()
    values = values.tolist()
    p0 = _mle_with_mean(values, pdf, mu0)
    p1 = _mle_with_mean(values, pdf, mu1)
    return float(total * sum(p * math.log(b / a) for p, a, b in zip(pdf, p0, p1)))


class Sprt:
    """A sequential test of mean mu0 (H0) against mu1 (H1), checked after each wave.

    :meth:`update` takes the cumulative count, mean and variance of the units (normal
    approximation, method ``sprt-normal``); :meth:`update_counts` the cumulative counts of
    units that take finitely many values, such as 0/1 events (the GSPRT, method ``gsprt``).
    The first decision reached is kept (later waves do not change it)."""

    def __init__(self, mu0, mu1, alpha=0.05, beta=0.05):
        """Bounds from alpha (P(H1 accepted | H0)) and beta (P(H0 accepted | H1))."""
        if mu0 == mu1:
            raise ValueError("mu0 and mu1 must differ")
        self.mu0, self.mu1, self.alpha, self.beta = mu0, mu1, alpha, beta
        self.lower, self.upper = sprt_bounds(alpha, beta)
        self.llr = 0.0
        self.decision = "undecided"
        self.waves = 0
        self.method = "sprt-normal"

    def update(self, n, mean, variance) -> str:
        """The decision after a wave (cumulative n, mean and variance of the units)."""
        self.waves += 1
        if self.decision != "undecided":
            return self.decision
        self.llr = sprt_llr(n, mean, variance, self.mu0, self.mu1)
        self.decision = sprt_decision(self.llr, self.lower, self.upper)
        return self.decision

    def update_counts(self, values, counts) -> str:
        """The decision after a wave from the cumulative counts of each possible unit value
        (:func:`gsprt_llr`); sets ``method`` to ``gsprt``."""
        self.waves += 1
        self.method = "gsprt"
        if self.decision != "undecided":
            return self.decision
        self.llr = gsprt_llr(values, counts, self.mu0, self.mu1)
        self.decision = sprt_decision(self.llr, self.lower, self.upper)
        return self.decision
