"""Numbers and estimates written for people, shared by the study report and its plots.

Points to one decimal, shares as percentages (their differences in percentage points,
``pp``), counts to two decimals, with more decimals where an interval is narrow; a missing
or non-finite value is written as nothing, never as ``None`` or ``nan``.  The ``kind`` of a
metric (points, share, count) comes from :mod:`canasta_sim.study.catalogue`.
"""
from __future__ import annotations

import math


def ok(x) -> bool:
    """True for a finite int or float (not a bool, not None, not NaN/inf)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def est_ok(obj) -> bool:
    """True for an estimate object whose point estimate is a number."""
    return isinstance(obj, dict) and ok(obj.get("estimate"))


def fmt(x, kind="points", diff=False, decimals=None, unit=True) -> str:
    """A number in its unit: points 1 decimal, count 2 decimals, share as %, elo 0 decimals.

    ``diff`` marks a difference: the sign is always shown and a share difference is written
    in percentage points (pp).  ``decimals`` overrides the kind's default; ``unit=False``
    leaves off the % / pp of a share.
    """
    if not ok(x):
        return ""
    value = 100.0 * x if kind == "share" else float(x)
    if decimals is None:
        decimals = {"points": 1, "count": 2, "share": 1, "elo": 0, "ratio": 2}.get(kind, 2)
    sign = "+" if diff else ""
    text = f"{value:{sign},.{decimals}f}"
    if float(text.replace(",", "")) == 0.0:  # no "-0.0" / "+0.0"
        text = f"{0.0:.{decimals}f}"
    if kind == "share" and unit:
        text += " pp" if diff else "%"
    return text


def decimals_for(obj, kind, low="ci_low", high="ci_high"):
    """Decimals for an estimate object: shares and counts get more when the CI is narrow."""
    if not isinstance(obj, dict):
        return None
    values = [obj.get(k) for k in ("estimate", low, high)]
    if obj.get("method") == "order-statistic" and kind in ("count", "points") \
            and all(ok(v) and float(v).is_integer() for v in values):
        return 0  # a median of whole numbers
    if kind not in ("share", "count"):
        return None
    if not (ok(obj.get(low)) and ok(obj.get(high))):
        return None
    width = (obj[high] - obj[low]) * (100.0 if kind == "share" else 1.0)
    if kind == "share":
        return 1 if width >= 0.5 else (2 if width >= 0.05 else 3)
    return 1 if width >= 0.5 else (2 if width >= 0.02 else 3)


def ci_text(obj, kind, diff=False, low="ci_low", high="ci_high", sep=" to ", unit=False,
            decimals=None) -> str:
    """'lo to hi' of an estimate object ('' when either end is missing); ``unit``: with % / pp."""
    if not isinstance(obj, dict) or not (ok(obj.get(low)) and ok(obj.get(high))):
        return ""
    d = decimals if decimals is not None else decimals_for(obj, kind)
    return (f"{fmt(obj[low], kind, diff, d, unit)}{sep}"
            f"{fmt(obj[high], kind, diff, d, unit)}")


def point_text(obj, kind, diff=False, decimals=None) -> str:
    """The point estimate of an estimate object, with the precision its interval needs; a
    clean sweep's Elo is its one-sided bound ('< -1,234 (one-sided 95% bound)')."""
    if not est_ok(obj):
        return ""
    if kind == "elo" and obj.get("method") == "elo-one-sided-bound":
        from canasta_sim.stats import elo_text

        return elo_text(obj)
    return fmt(obj["estimate"], kind, diff,
               decimals if decimals is not None else decimals_for(obj, kind))


def row_decimals(objs, kind):
    """One precision for several estimate objects shown side by side (the finest needed)."""
    found = [d for d in (decimals_for(o, kind) for o in objs if est_ok(o)) if d is not None]
    return max(found) if found else None


def estimate_text(obj, kind, diff=False) -> str:
    """'est [lo, hi]' of an estimate object ('' when there is no estimate)."""
    if not est_ok(obj):
        return ""
    if kind == "elo" and obj.get("method") == "elo-one-sided-bound":
        return point_text(obj, kind, diff)
    ci = ci_text(obj, kind, diff, sep=", ")
    return f"{point_text(obj, kind, diff)} [{ci}]" if ci else point_text(obj, kind, diff)


def in_order(values):
    """Unique values in first-seen order."""
    seen = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def rows(summary, key):
    """The list summary[key], keeping only dicts (missing or null -> [])."""
    value = summary.get(key)
    return [row for row in value if isinstance(row, dict)] if isinstance(value, list) else []
