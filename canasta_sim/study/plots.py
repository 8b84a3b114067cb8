"""The plots of a study report, drawn from the summary dict alone (docs/study-summary.md).

:func:`make_plots` returns PNG bytes by name, only for the plots that apply:

- ``lead``: one panel, the relative effects (arm / baseline - 1, in %) of the lead metrics
  (:func:`lead_metrics`) with their 95% intervals, every arm on the same axis;
- ``forest``: every effect (arm minus baseline) with its 95% interval, one small panel per
  metric in the metric's own unit, the zero line dashed; metrics whose effects are zero by
  construction (every arm exactly 0 with no interval) get no panel;
- ``sweep-<parameter>``: for each swept parameter, the effect on the key metrics against
  the swept value with the interval as a band; uneven numeric values are drawn on a log
  axis (all positive, spanning a factor of 10 or more) or as equally spaced categories
  (:func:`sweep_axis`);
- ``duration``: turns per deal (and deals per game) distributions per arm;
- ``leader-wins``: P(the leader after deal k wins) for k = 1..4 per arm (game studies);
- ``matrix``: for a tournament of single policies (duplicate design), the win rate (or
  points per deal) of each row policy against each column policy.

matplotlib is imported only when :func:`make_plots` runs, with the Agg backend.
"""
from __future__ import annotations

import io
import math

from canasta_sim.study.catalogue import metric_kind, metric_unit
from canasta_sim.study.text import estimate_text
from canasta_sim.study.text import in_order as _in_order
from canasta_sim.study.text import ok as _ok
from canasta_sim.study.text import rows as _rows

__all__ = ["make_plots", "make_figures", "lead_metrics", "zero_by_construction", "sweep_axis"]

DPI = 100
WIDTH = 12.0  # inches: 1200 px, the width of the HTML report's column
_STYLE = {
    "font.size": 10, "axes.titlesize": 10.5, "axes.labelsize": 10, "xtick.labelsize": 9,
    "ytick.labelsize": 9, "legend.fontsize": 9, "axes.spines.top": False,
    "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.25, "grid.linewidth": 0.6,
    "figure.facecolor": "white", "savefig.facecolor": "white",
}


def _est(obj):
    """(estimate, low, high) of an estimate object, or None; missing ends are the estimate."""
    if not isinstance(obj, dict) or not _ok(obj.get("estimate")):
        return None
    est = float(obj["estimate"])
    low = float(obj["ci_low"]) if _ok(obj.get("ci_low")) else est
    high = float(obj["ci_high"]) if _ok(obj.get("ci_high")) else est
    return est, low, high




# --- which metrics lead ------------------------------------------------------------------------

LEAD_LIMIT = 4
# differences between sides: near 0 by symmetry, so a ratio to their mean means nothing
SIDE_DIFFERENCES = ("score_diff", "first_player_advantage", "final_margin")


def _baseline_means(summary) -> dict:
    """metric -> the baseline arm's mean, for the metrics whose mean is clearly not 0 (its
    interval excludes 0, or it has no interval and is not 0)."""
    baseline = (summary.get("study") or {}).get("baseline")
    effects = _rows(summary, "effects")
    if effects and effects[0].get("baseline"):
        baseline = effects[0]["baseline"]
    found = {}
    for row in _rows(summary, "means"):
        if row.get("arm") != baseline or not _est(row):
            continue
        value, low, high = _est(row)
        if value != 0 and (low > 0 or high < 0 or low == high == value):
            found[row.get("metric")] = value
    return found


def relative_effect(summary, effect, base_means=None):
    """(estimate, low, high) of ``effect`` relative to the baseline mean, as fractions
    (0.1 = +10%), or None.  The effect's own ``relative`` object (a bootstrap interval) when
    the summary has one, else the effect and its interval divided by the baseline mean
    (which leaves out the baseline mean's own, much smaller, uncertainty)."""
    if effect.get("metric") in SIDE_DIFFERENCES:
        return None
    rel = _est(effect.get("relative"))
    if rel is not None:
        return rel
    means = _baseline_means(summary) if base_means is None else base_means
    base = means.get(effect.get("metric"))
    est = _est(effect)
    if base is None or est is None:
        return None
    scaled = [v / abs(base) for v in est]
    return scaled[0], min(scaled[1:]), max(scaled[1:])


def _has_relative_effect(summary, metric) -> bool:
    """True when some arm's effect on ``metric`` can be drawn relative to the baseline."""
    means = _baseline_means(summary)
    return any(relative_effect(summary, e, means) is not None
               for e in _rows(summary, "effects") if e.get("metric") == metric)


def zero_by_construction(summary, metric) -> bool:
    """True when every effect on ``metric`` is exactly 0 with no width (the arms cannot
    differ on it, e.g. a side difference summed over both seatings of a symmetric match):
    such a metric gets no forest panel and never leads."""
    found = [_est(e) for e in _rows(summary, "effects") if e.get("metric") == metric]
    found = [e for e in found if e is not None]
    return bool(found) and all(v == 0 for e in found for v in e)


def lead_metrics(summary, limit=LEAD_LIMIT) -> list:
    """The metrics the ``lead`` panel shows, at most ``limit``.

    The metrics of the answer's lead effects (``summary["answer"]["lead"]``, study/answer.py)
    that can be drawn relative to the baseline, when there are any; otherwise the metrics
    with the largest relative effect |effect| / |baseline mean| over the arms, those whose
    interval excludes 0 first.  Only metrics whose baseline mean is clearly not 0 can be
    relative, differences between sides (``score_diff``) never are, and a metric zero by
    construction never leads.
    """
    answer = summary.get("answer")
    lead = answer.get("lead") if isinstance(answer, dict) else None
    named = [e.get("metric") for e in lead if isinstance(e, dict)] if isinstance(lead, list) \
        else []
    named = [m for m in _in_order(named) if isinstance(m, str)
             and _has_relative_effect(summary, m)]
    if named:
        return named[:limit]
    means = _baseline_means(summary)
    best = {}
    for effect in _rows(summary, "effects"):
        metric = effect.get("metric")
        rel = relative_effect(summary, effect, means)
        if rel is None or zero_by_construction(summary, metric):
            continue
        value, low, high = rel
        key = (low > 0 or high < 0, abs(value))
        if metric not in best or key > best[metric]:
            best[metric] = key
    return sorted(best, key=lambda m: best[m], reverse=True)[:limit]


def policy_label(name: str, width: int = 28) -> str:
    """A policy's name short enough for an axis: a user policy
    (``/path/file.py:function@sha``) as ``file.py:function``, anything longer than ``width``
    cut with an ellipsis.  (A full path squeezes a matrix's cells to nothing.)"""
    if ".py:" in name:
        path, _, function = name.partition(".py:")
        name = path.replace("\\", "/").rsplit("/", 1)[-1] + ".py:" + function.split("@")[0]
    return name if len(name) <= width else name[:width - 1] + "…"


def _arm_colors(summary):
    """A fixed colour per arm (spec order), shared by every plot."""
    names = [a.get("name") for a in _rows(summary, "arms") if a.get("name")]
    for key in ("effects", "balance", "matches"):
        names += [r.get("arm") for r in _rows(summary, key) if r.get("arm")]
    names += list((summary.get("distributions") or {}).keys())
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
               "#17becf", "#7f7f7f", "#bcbd22"]
    return {name: palette[i % len(palette)] for i, name in enumerate(_in_order(names))}


def _png(fig) -> bytes:
    """The figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


# --- lead --------------------------------------------------------------------------------------

def _pct(value) -> str:
    """A relative effect (a fraction) as a signed percentage with sensible decimals."""
    size = abs(100 * value)
    decimals = 0 if size >= 100 else (1 if size >= 1 else 2)
    return f"{100 * value:+.{decimals}f}%"


def _lead(summary, Figure, metrics=None):
    """One panel: the relative effect (%) of every arm on each lead metric, with its CI.

    Metrics are rows from the top (the order of ``metrics``), each arm a coloured marker
    within its metric's row, filled when the interval excludes 0; the estimate and interval
    are written at the right when there are at most six arms.
    """
    metrics = lead_metrics(summary) if metrics is None else list(metrics)
    means = _baseline_means(summary)
    effects = [e for e in _rows(summary, "effects") if e.get("metric") in metrics]
    arms = _in_order(e.get("arm") for e in effects)
    table = {(e["metric"], e.get("arm")): relative_effect(summary, e, means) for e in effects}
    metrics = [m for m in metrics if any(table.get((m, a)) for a in arms)]
    if not metrics:
        return None
    from matplotlib.lines import Line2D

    colors = _arm_colors(summary)
    labelled = len(arms) <= 6
    step = 1.0 / (len(arms) + 1)  # arms share a metric's row, one step apart
    rows = len(metrics) * len(arms)
    fig = Figure(figsize=(WIDTH, max(2.6, 1.4 + 0.3 * rows + 0.25 * len(metrics))),
                 layout="constrained")
    ax = fig.subplots()
    ends, centres = [0.0], []
    for index, metric in enumerate(metrics):
        centre = len(metrics) - 1 - index
        centres.append(centre)
        for j, arm in enumerate(arms):
            rel = table.get((metric, arm))
            if rel is None:
                continue
            value, low, high = (100 * v for v in rel)
            y = centre + (len(arms) - 1) / 2 * step - j * step
            color = colors.get(arm, "#333333")
            significant = low > 0 or high < 0
            ax.errorbar([value], [y], xerr=[[value - low], [high - value]], fmt="o",
                        color=color, ecolor=color, elinewidth=2.2, capsize=3.5,
                        markersize=7, markerfacecolor=color if significant else "white",
                        markeredgewidth=1.6)
            ends += [low, high]
            if labelled:
                text = f"{_pct(rel[0])}  [{_pct(rel[1])}, {_pct(rel[2])}]"
                ax.annotate(text, xy=(1.0, y), xycoords=("axes fraction", "data"),
                            xytext=(8, 0), textcoords="offset points", va="center",
                            ha="left", fontsize=9.5, color=color, annotation_clip=False)
        if index:
            ax.axhline(centre + 0.5, color="#d0d7de", linewidth=0.8)
    ax.axvline(0.0, color="#555555", linestyle="--", linewidth=1)
    span = max(ends) - min(ends) or 1.0
    ax.set_xlim(min(ends) - 0.06 * span, max(ends) + 0.06 * span)
    ax.set_ylim(-0.5, len(metrics) - 0.5)
    ax.set_yticks(centres, [m for m in metrics], fontsize=10.5)
    ax.grid(axis="y", visible=False)
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:+.0f}%" if v else "0")
    ax.set_xlabel("relative effect: arm / baseline - 1 (%)")
    baseline = effects[0].get("baseline") or (summary.get("study") or {}).get("baseline")
    title = "Relative effects" + (f" against {baseline}" if baseline else "") + \
        " with 95% CIs (filled marker: the CI excludes 0)"
    if len(arms) > 1:
        handles = [Line2D([], [], color=colors.get(a, "#333333"), marker="o", linewidth=2,
                          label=a) for a in arms]
        legend = fig.legend(handles=handles, loc="outside upper left", frameon=False,
                            ncols=min(len(arms), 4), fontsize=10, alignment="left",
                            title=title)
        legend.get_title().set_fontsize(12)
    else:
        ax.set_title(f"{arms[0]}: " + title[0].lower() + title[1:], loc="left",
                     fontsize=12)
    return fig


# --- forest ------------------------------------------------------------------------------------

def _forest(summary, Figure):
    """Every effect with its CI, one panel per metric (own unit), arms as coloured rows.

    Up to 24 metrics sit in two columns with the estimate and interval written beside each
    row; more go into three columns without the text.  Arms are named in a legend on top.
    """
    effects = [e for e in _rows(summary, "effects") if _est(e) and e.get("metric")
               and not zero_by_construction(summary, e["metric"])]
    if not effects:
        return None
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    metrics = _in_order(e["metric"] for e in effects)
    arms = _in_order(e.get("arm") for e in effects)
    colors = _arm_colors(summary)
    ncols = 1 if len(metrics) <= 3 else (2 if len(metrics) <= 24 else 3)
    labelled = ncols <= 2 and len(arms) <= 6
    nrows = math.ceil(len(metrics) / ncols)
    panel_h = max(0.95, 0.5 + 0.2 * len(arms))
    fig = Figure(figsize=(WIDTH, 0.9 + panel_h * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False)
    table = {(e["metric"], e.get("arm")): e for e in effects}
    baseline = effects[0].get("baseline") or (summary.get("study") or {}).get("baseline")
    for index, metric in enumerate(metrics):
        ax = axes[index // ncols][index % ncols]
        kind = metric_kind(metric)
        factor = 100.0 if kind == "share" else 1.0
        unit = metric_unit(metric, diff=True)
        lows, highs = [0.0], [0.0]
        for row, arm in enumerate(arms):
            est = _est(table.get((metric, arm)))
            if est is None:
                continue
            value, low, high = (factor * v for v in est)
            y = len(arms) - 1 - row
            significant = low > 0 or high < 0
            color = colors.get(arm, "#333333")
            ax.errorbar([value], [y], xerr=[[value - low], [high - value]], fmt="o",
                        color=color, ecolor=color, elinewidth=2, capsize=3, markersize=5.5,
                        markerfacecolor=color if significant else "white", markeredgewidth=1.5)
            lows.append(low)
            highs.append(high)
            if labelled:
                ax.annotate(estimate_text(table[(metric, arm)], kind, diff=True), xy=(1.0, y),
                            xycoords=("axes fraction", "data"), xytext=(6, 0),
                            textcoords="offset points", va="center", ha="left", fontsize=8.5,
                            color=color, annotation_clip=False)
        ax.axvline(0.0, color="#555555", linestyle="--", linewidth=1)
        span = max(highs) - min(lows) or 1.0
        ax.set_xlim(min(lows) - 0.08 * span, max(highs) + 0.08 * span)
        ax.set_ylim(-0.7, len(arms) - 0.3)
        ax.set_yticks([])
        ax.grid(axis="y", visible=False)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5 if ncols <= 2 else 4,
                                               steps=[1, 2, 2.5, 5, 10]))
        ax.tick_params(axis="x", labelsize=8.5)
        ax.set_title(f"{metric}" + (f"  ({unit})" if unit else ""), loc="left",
                     fontweight="bold", fontsize=10)
    for index in range(len(metrics), nrows * ncols):
        axes[index // ncols][index % ncols].set_visible(False)
    handles = [Line2D([], [], color=colors.get(arm, "#333333"), marker="o", linewidth=2,
                      label=arm) for arm in arms]
    against = f" against {baseline}" if baseline else ""
    legend = fig.legend(handles=handles, loc="outside upper left", ncols=min(len(arms), 4),
                        frameon=False, fontsize=10, alignment="left",
                        title=f"Effects{against} with 95% CIs, each metric in its own unit "
                              "(filled marker: the CI excludes 0)")
    legend.get_title().set_fontsize(12)
    return fig


# --- sweeps ------------------------------------------------------------------------------------

def _sweep_metrics(available):
    """The key metrics of a sweep plot among ``available``."""
    first = "score_diff" if "score_diff" in available else (
        "s0_score" if "s0_score" in available else None)
    chosen = [m for m in (first, "turns", "went_out") if m and m in available]
    for extra in ("win_rate", "deals_per_game"):
        if extra in available and len(chosen) < 4:
            chosen.append(extra)
    if not chosen:
        chosen = list(available)[:3]
    return chosen


def _even(xs) -> bool:
    """True when the sorted distinct ``xs`` are (about) evenly spaced: the widest gap is at
    most 1.5 times the narrowest (two or fewer values are even)."""
    xs = sorted(set(xs))
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    return len(gaps) < 2 or max(gaps) <= 1.5 * min(gaps)


def sweep_axis(values) -> str:
    """How a sweep's x axis is drawn: ``linear`` for evenly spaced numbers, ``log`` for
    positive numbers evenly spaced on a log scale (1, 2, 4, 8 or 10, 100, 1000), else
    ``categorical`` (booleans, names, or uneven numbers such as 1, 2, 3, 50: equally spaced
    in ascending order, each labelled with its value)."""
    if not values or not all(_ok(v) for v in values):
        return "categorical"
    numbers = [float(v) for v in values]
    if _even(numbers):
        return "linear"
    if all(v > 0 for v in numbers) and _even([math.log(v) for v in numbers]):
        return "log"
    return "categorical"


def _value_text(value) -> str:
    """A swept value as a tick label (a whole float without its '.0')."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sweep(summary, sweep, Figure):
    """The effect on the key metrics against the swept value, with a CI band; the baseline
    is the hollow marker when it is one of the swept arms, else the dashed zero line."""
    arms, values = sweep.get("arms") or [], sweep.get("values") or []
    if len(arms) != len(values) or len(arms) < 2:
        return None
    effects = [e for e in _rows(summary, "effects") if _est(e)]
    baseline = (summary.get("study") or {}).get("baseline")
    if not effects and baseline not in arms:
        return None
    available = _in_order(e.get("metric") for e in effects if e.get("arm") in arms)
    if not available:
        return None
    metrics = _sweep_metrics(available)
    table = {(e.get("metric"), e.get("arm")): e for e in effects}
    axis = sweep_axis(values)
    if axis == "categorical":
        order = (sorted(range(len(values)), key=lambda i: float(values[i]))
                 if all(_ok(v) for v in values) else list(range(len(values))))
        position = {i: rank for rank, i in enumerate(order)}
        xs = [position[i] for i in range(len(values))]
    else:
        xs = [float(v) for v in values]
    points = sorted(zip(xs, arms, values), key=lambda p: p[0])
    parameter = sweep.get("parameter") or "value"
    fig = Figure(figsize=(WIDTH, 3.8), layout="constrained")
    axes = fig.subplots(1, len(metrics), squeeze=False)[0]
    base_in_sweep = baseline in arms
    for ax, metric in zip(axes, metrics):
        kind = metric_kind(metric)
        factor = 100.0 if kind == "share" else 1.0
        unit = metric_unit(metric, diff=True)
        px, est, low, high = [], [], [], []
        base_x = None
        for x, arm, _ in points:
            if arm == baseline:
                base_x = x
                px.append(x)
                est.append(0.0)
                low.append(0.0)
                high.append(0.0)
                continue
            e = _est(table.get((metric, arm)))
            if e is None:
                continue
            px.append(x)
            est.append(factor * e[0])
            low.append(factor * e[1])
            high.append(factor * e[2])
        zero_label = None if base_in_sweep else f"no change ({baseline}, the baseline)"
        ax.axhline(0.0, color="#555555", linestyle="--", linewidth=1, label=zero_label)
        ax.fill_between(px, low, high, color="#1f77b4", alpha=0.22, linewidth=0,
                        label="95% CI")
        ax.plot(px, est, "o-", color="#1f77b4", linewidth=1.8, markersize=5, label="effect")
        if base_x is not None:
            ax.plot([base_x], [0.0], "o", color="white", markeredgecolor="#1f77b4",
                    markeredgewidth=1.8, markersize=8, zorder=3,
                    label=f"baseline ({baseline})")
        ax.set_title(f"{metric}" + (f"  ({unit})" if unit else ""), loc="left",
                     fontweight="bold")
        if axis == "log":
            ax.set_xscale("log")
            ax.minorticks_off()
        ax.set_xlabel(parameter + {"log": " (log scale)", "categorical": ""}.get(axis, ""))
        ax.set_xticks([p[0] for p in points], [_value_text(p[2]) for p in points])
        if axis == "categorical":
            ax.set_xlim(-0.4, len(values) - 0.6)
            ax.grid(axis="x", visible=False)
    axes[0].set_ylabel(f"effect against {baseline}" if baseline else "effect")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper right", ncols=len(labels), frameon=False)
    fig.suptitle(f"Effect of {parameter} against {baseline}" if baseline else
                 f"Effect of {parameter}", x=0.01, ha="left", fontsize=12)
    return fig


# --- duration ----------------------------------------------------------------------------------

def _duration(summary, Figure):
    """Turns-per-deal (and deals-per-game) distributions per arm, as shares."""
    dists = summary.get("distributions")
    if not isinstance(dists, dict) or not dists:
        return None
    panels = []
    for metric, label in (("turns", "turns per deal"), ("deals_per_game", "deals per game")):
        series = []
        for arm, by_metric in dists.items():
            h = (by_metric or {}).get(metric) if isinstance(by_metric, dict) else None
            if not isinstance(h, dict):
                continue
            values, counts = h.get("values") or [], h.get("counts") or []
            pairs = [(float(v), float(c)) for v, c in zip(values, counts) if _ok(v) and _ok(c)]
            total = sum(c for _, c in pairs)
            if pairs and total > 0:
                series.append((arm, [v for v, _ in pairs], [c / total for _, c in pairs]))
        if series:
            panels.append((label, series))
    if not panels:
        return None
    colors = _arm_colors(summary)
    widths = [2.0, 1.0] if len(panels) == 2 else [1.0]
    fig = Figure(figsize=(WIDTH, 3.8), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False, width_ratios=widths)[0]
    for ax, (label, series) in zip(axes, panels):
        for arm, values, shares in series:
            ax.step(values, [100 * s for s in shares], where="mid", color=colors.get(arm),
                    linewidth=1.6, label=arm)
        ax.set_xlabel(label)
        ax.set_ylabel("share of deals (%)" if label.startswith("turns") else
                      "share of games (%)")
        ax.set_ylim(bottom=0)
        ax.set_title(label, loc="left", fontweight="bold")
    axes[0].legend(frameon=False, ncols=1 if len(panels[0][1]) <= 6 else 2)
    return fig


# --- leader wins -------------------------------------------------------------------------------

def _leader_wins(summary, Figure):
    """P(leader after deal k wins) for k = 1..4 per arm, with CI error bars."""
    series = []
    for b in _rows(summary, "balance"):
        points = []
        for row in b.get("leader_wins") or []:
            if isinstance(row, dict) and _ok(row.get("k")) and _est(row):
                points.append((int(row["k"]), _est(row)))
        if points:
            series.append((b.get("arm") or "", points))
    if not series:
        return None
    colors = _arm_colors(summary)
    fig = Figure(figsize=(WIDTH * 0.75, 4.0), layout="constrained")
    ax = fig.subplots()
    width = 0.7 / len(series)
    ks = sorted({k for _, points in series for k, _ in points})
    for i, (arm, points) in enumerate(series):
        offset = (i - (len(series) - 1) / 2) * width
        xs = [k + offset for k, _ in points]
        est = [100 * e[0] for _, e in points]
        low = [100 * (e[0] - e[1]) for _, e in points]
        high = [100 * (e[2] - e[0]) for _, e in points]
        ax.errorbar(xs, est, yerr=[low, high], fmt="o", color=colors.get(arm), capsize=3,
                    markersize=5, elinewidth=1.5, label=arm)
    ax.set_xticks(ks, [f"after deal {k}" for k in ks])
    ax.set_ylabel("P(leader wins the game) (%)")
    ax.set_title("The strict leader after deal k wins the game (95% CIs)", loc="left",
                 fontweight="bold")
    ax.grid(axis="x", visible=False)
    ax.legend(frameon=False, loc="lower right", ncols=1 if len(series) <= 5 else 2)
    return fig


# --- tournament matrix -------------------------------------------------------------------------

def _single(lineup) -> bool:
    """True for a lineup of one policy (no comma, not several sides joined by ' + ')."""
    return (isinstance(lineup, str) and lineup.strip() != "" and "," not in lineup
            and "+" not in lineup)


def _two_single_lineups(summary, match) -> bool:
    """True when the match's arm has two lineups, each a single policy."""
    arm = next((a for a in _rows(summary, "arms") if a.get("name") == match.get("arm")), None)
    lineups = arm.get("lineups") if arm else None
    if isinstance(lineups, list) and lineups:
        return len(lineups) == 2 and all(_single(x) for x in lineups)
    return _single(match.get("a")) and _single(match.get("b"))


def _matrix(summary, Figure):
    """Win rate (or points per deal) of row policy vs column policy, with CI and marks."""
    if (summary.get("study") or {}).get("design") != "duplicate":
        return None
    matches = [m for m in _rows(summary, "matches")
               if _two_single_lineups(summary, m) and _single(m.get("a"))
               and _single(m.get("b")) and m["a"] != m["b"]]
    games = any(_est(m.get("win_rate")) for m in matches)
    key, centre = ("win_rate", 0.5) if games else ("points_per_deal", 0.0)
    cells = {}
    for m in matches:
        e = _est(m.get(key))
        if e is None:
            continue
        value, low, high = e
        cells[(m["a"], m["b"])] = (value, low, high)
        mirror = 2 * centre
        cells[(m["b"], m["a"])] = (mirror - value, mirror - high, mirror - low)
    policies = _in_order([p for pair in cells for p in pair])
    if len(policies) < 2:
        return None

    def strength(p):
        vals = [v[0] for (a, _), v in cells.items() if a == p]
        return sum(vals) / len(vals) if vals else centre

    policies.sort(key=strength, reverse=True)
    import numpy as np
    from matplotlib import colormaps

    n = len(policies)
    grid = np.full((n, n), np.nan)
    for (a, b), (value, _, _) in cells.items():
        grid[policies.index(a), policies.index(b)] = value
    spread = float(np.nanmax(np.abs(grid - centre))) if np.isfinite(grid).any() else 1.0
    spread = max(spread * 1.15, 0.05 if games else 5.0)
    side = min(1.5 + 1.5 * n, WIDTH)
    fig = Figure(figsize=(side + 2.2, side), layout="constrained")
    ax = fig.subplots()
    cmap = colormaps["RdBu"].with_extremes(bad="#eeeeee")
    image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=centre - spread,
                      vmax=centre + spread)
    for i, a in enumerate(policies):
        for j, b in enumerate(policies):
            if i == j:
                ax.text(j, i, "–", ha="center", va="center", color="#777777", fontsize=12)
                continue
            if (a, b) not in cells:
                continue
            value, low, high = cells[(a, b)]
            mark = "*" if low > centre or high < centre else ""
            if games:
                text = f"{100 * value:.1f}%{mark}\n[{100 * low:.1f}, {100 * high:.1f}]"
            else:
                text = f"{value:+.1f}{mark}\n[{low:+.1f}, {high:+.1f}]"
            dark = abs(value - centre) > 0.6 * spread
            ax.text(j, i, text, ha="center", va="center", fontsize=11,
                    color="white" if dark else "#111111")
    labels = [policy_label(p) for p in policies]
    ax.set_xticks(range(n), labels)
    ax.set_yticks(range(n), labels)
    ax.tick_params(axis="x", top=True, bottom=False, labeltop=True, labelbottom=False)
    ax.set_xlabel("column policy (opponent)")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("row policy")
    ax.grid(False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    label = ("win rate of row against column (%)" if games else
             "row's points per deal minus column's")
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label(label)
    if games:
        bar.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}")
    fig.suptitle(("Win rate of the row policy against the column policy" if games else
                  "Points per deal of the row policy against the column policy")
                 + "\n(95% CI; * = excludes " + ("50%)" if games else "0)"),
                 x=0.01, ha="left", fontsize=12)
    return fig


# --- entry -------------------------------------------------------------------------------------

def make_figures(summary: dict, lead=None) -> dict:
    """matplotlib Figures by plot name, only for the plots that apply to ``summary`` (what
    :func:`make_plots` draws, for tests and for people who want to restyle a plot).

    Names: ``lead``, ``forest``, ``sweep-<parameter>``, ``duration``, ``leader-wins``,
    ``matrix``.  ``lead``: the metrics of the lead panel (default :func:`lead_metrics`).
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    builders = [("lead", lambda: _lead(summary, Figure, lead)),
                ("forest", lambda: _forest(summary, Figure))]
    for sweep in _rows(summary, "sweeps"):
        name = "sweep-" + str(sweep.get("parameter") or "value").replace("/", "_")
        builders.append((name, lambda s=sweep: _sweep(summary, s, Figure)))
    builders += [("matrix", lambda: _matrix(summary, Figure)),
                 ("duration", lambda: _duration(summary, Figure)),
                 ("leader-wins", lambda: _leader_wins(summary, Figure))]
    out = {}
    with matplotlib.rc_context(_STYLE):
        for name, build in builders:
            fig = build()
            if fig is not None:
                out[name] = fig
    return out


def make_plots(summary: dict, lead=None) -> dict:
    """PNG bytes by plot name, only for the plots that apply to ``summary`` (the figures of
    :func:`make_figures`)."""
    import matplotlib

    figures = make_figures(summary, lead)
    with matplotlib.rc_context(_STYLE):
        return {name: _png(fig) for name, fig in figures.items()}
