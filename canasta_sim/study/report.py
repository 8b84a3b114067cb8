"""A study's report: ``report.md``, a self-contained ``report.html`` and ``plots/*.png``.

Everything is rendered from the summary dict alone (``summary.json``, schema in
docs/study-summary.md).  Both documents are built from one list of sections (headings,
paragraphs, tables, key-value lists, boxes and figures), so the Markdown and the HTML say
the same things in the same order: the answer in words, provenance and the command that
reproduces the study, the effects, the means and medians per arm, the duplicate matches,
the balance metrics, the sequential test, the notes and the plots.

Numbers are written for people: points to one decimal, shares as percentages (their
differences in percentage points, ``pp``), p-values as ``0.003`` or ``<0.001``.  A field
that is missing or null is left out; the documents never show ``None`` or ``nan``.
"""
from __future__ import annotations

import base64
import html
import math
import re

from canasta_sim.study.catalogue import metric_kind, metric_label, metric_unit
from canasta_sim.study.text import ci_text as _ci
from canasta_sim.study.text import est_ok as _est_ok
from canasta_sim.study.text import estimate_text
from canasta_sim.study.text import fmt as _fmt
from canasta_sim.study.text import in_order as _in_order
from canasta_sim.study.text import ok as _ok
from canasta_sim.study.text import point_text as _point
from canasta_sim.study.text import row_decimals as _row_decimals
from canasta_sim.study.text import rows as _rows

__all__ = ["write_report", "main_table", "render_markdown", "render_html", "metric_kind",
           "metric_label", "metric_unit", "estimate_text"]

# The metrics the main table and the answer lead with, in this order, unless the summary
# names its own (study.key_metrics).
KEY_METRICS = ("score_diff", "s0_score", "turns", "went_out", "deals_per_game")
KEY_METRICS_GAME = ("win_rate", "score_diff", "deals_per_game", "turns", "went_out")

# the methods of docs/study-summary.md in words
METHOD_WORDS = {
    "mean-normal": "mean of independent units, normal interval from the sample variance",
    "ratio-delta": "total over games / deals over games, delta-method interval with games as "
                   "clusters",
    "paired-normal": "mean of the paired differences, normal interval",
    "paired-ratio-delta": "paired difference of two ratio estimates, delta method over paired "
                          "clusters",
    "wilson": "a share, Wilson score interval",
    "clopper-pearson": "a share with fewer than 10 events or non-events, exact Clopper-Pearson "
                       "interval",
    "wilson-effective": "a share of units that are not 0/1, Wilson interval at the effective "
                        "sample size",
    "clopper-pearson-effective": "a share of units that are not 0/1 with few events, exact "
                                 "interval at the effective sample size",
    "newcombe-paired": "difference of paired 0/1 shares, Newcombe's hybrid score interval",
    "newcombe-paired-exact": "difference of paired 0/1 shares, Newcombe's interval with exact "
                             "margins (few events)",
    "mover-paired": "difference of paired shares, the two shares' intervals combined with "
                    "their correlation (MOVER)",
    "pentanomial": "win rate from the distribution of game-pair totals",
    "elo-from-pentanomial": "Elo difference, the win-rate interval's endpoints transformed",
    "elo-from-win-rate": "Elo difference, the win-rate interval's endpoints transformed",
    "order-statistic": "median with the exact distribution-free interval from binomial order "
                       "statistics",
    "bootstrap-bca": "BCa bootstrap over blocks of consecutive units",
    "sprt-normal": "the sequential test's normal approximation of the paired units",
    "gsprt": "the sequential test's generalised likelihood ratio of the counts of unit values",
}
ARMS_PER_TABLE = 6  # arm columns in one table (more are split into several tables)
_PLOT_ORDER = ("matrix", "sweep-", "lead", "forest", "duration", "leader-wins")
# plots folded away under a summary line ("details"), with the words of that line
_FOLDED_PLOTS = {"forest": "every metric in its own unit: show the forest plot"}
_MISSING = "–"


# --- numbers -----------------------------------------------------------------------------------

def _int(x) -> str:
    """An integer count with thousands separators."""
    return f"{int(round(x)):,}" if _ok(x) else ""


def _fmt_p(p) -> str:
    """A p-value: <0.001, three decimals below 0.1, else two."""
    if not _ok(p):
        return ""
    if p < 0.001:
        return "<0.001"
    if p < 0.1:
        return f"{p:.3f}"
    return f"{min(p, 1.0):.2f}"


def _fmt_share_extreme(x) -> str:
    """A probability near 0 or 1 (LOS): >99.9% / <0.1% / 1 decimal %."""
    if not _ok(x):
        return ""
    if x > 0.999:
        return ">99.9%"
    if x < 0.001:
        return "<0.1%"
    return f"{100 * x:.1f}%"


def _words_est(obj, kind, diff=False) -> str:
    """'est (95% CI lo to hi)' for sentences."""
    if not _est_ok(obj):
        return ""
    ci = _ci(obj, kind, diff, unit=True)
    text = _point(obj, kind, diff)
    return f"{text} (95% CI {ci})" if ci else text


# --- metrics -----------------------------------------------------------------------------------

def _unit_words(kind) -> str:
    """The unit of a difference in words ('points', 'percentage points', '')."""
    return {"points": " points", "share": ""}.get(kind, "")


def _study(summary) -> dict:
    """summary['study'] or {}."""
    study = summary.get("study")
    return study if isinstance(study, dict) else {}


def _arm_names(summary):
    """Arm names in spec order (falling back to the arms named by means/effects/balance)."""
    names = [a.get("name") for a in _rows(summary, "arms") if a.get("name")]
    if names:
        return names
    return _in_order(r.get("arm") for k in ("means", "effects", "balance", "matches")
                     for r in _rows(summary, k) if r.get("arm"))


def _holm_used(summary) -> bool:
    """True when two or more arms are compared with the baseline."""
    arms = _in_order(e.get("arm") for e in _rows(summary, "effects"))
    return len(arms) >= 2


def _key_metrics(summary, available, limit=4):
    """The key metrics among ``available`` (study.key_metrics or KEY_METRICS order)."""
    named = _study(summary).get("key_metrics")
    if isinstance(named, list) and any(m in available for m in named):
        order = [m for m in named if isinstance(m, str)]
    else:
        order = KEY_METRICS_GAME if _study(summary).get("unit") == "game" else KEY_METRICS
    chosen = [m for m in order if m in available]
    for pair in (("score_diff", "s0_score"), ("score_diff", "s1_score"),
                 ("score_diff", "first_player_advantage")):
        if pair[0] in chosen and pair[1] in chosen and len(chosen) > limit:
            chosen.remove(pair[1])
    if not chosen:
        chosen = list(available)
    return chosen[:limit]


def _rotations(summary) -> int:
    """How many times each seed is played: the sides of a duplicate design, else 1."""
    study = _study(summary)
    if study.get("design") != "duplicate":
        return 1
    if _ok(study.get("rotations")):
        return int(study["rotations"])
    lineups = [a.get("lineups") for a in _rows(summary, "arms")
               if isinstance(a.get("lineups"), list)]
    return len(lineups[0]) if lineups else 2


def _count_words(summary, seeds, per="") -> str:
    """``seeds`` units as games (or deals) played: '4,000 games' for a crn study; in a
    duplicate design '8,000 games (4,000 game pairs)', pairs named as pairs."""
    unit = _unit_name(summary, False)
    rotations = _rotations(summary)
    if rotations == 1:
        return f"{_int(seeds)} {unit}s{per}"
    seeds_word = f"{unit} pairs" if rotations == 2 else f"{unit} seeds x {rotations} rotations"
    return f"{_int(seeds * rotations)} {unit}s{per} ({_int(seeds)} {seeds_word})"


def _unit_name(summary, plural=True) -> str:
    """'deals' or 'games' (the study's unit)."""
    unit = _study(summary).get("unit") or "unit"
    return unit + ("s" if plural else "")


# --- the answer --------------------------------------------------------------------------------

def _answer(summary) -> str:
    """The first paragraph: the answer to the study's question (canasta_sim.study.answer;
    the summary's stored ``answer``, or one built from the summary), then the sequential
    test in words."""
    from canasta_sim.study.answer import first_line

    parts = [first_line(summary)]
    sprt = summary.get("sprt")
    if isinstance(sprt, dict):
        parts.append(_sprt_sentence(summary, sprt))
    return " ".join(p for p in parts if p)


def _identical(effect) -> bool:
    """An effect of exactly 0 with no interval: the arm matched the baseline unit by unit."""
    return (_est_ok(effect) and effect["estimate"] == 0 and not _ok(effect.get("ci_low"))
            and not _ok(effect.get("se")))


def _sprt_tests_a_difference(summary, sprt) -> bool:
    """False when the test is on lineup a's own rate (a duplicate match's win rate), which is
    written as a rate (50.0%), not as a difference (+50.0 pp)."""
    return not (_study(summary).get("design") == "duplicate" and sprt.get("metric") == "win_rate")


def _sprt_sentence(summary, sprt) -> str:
    """The sequential test in words."""
    metric = sprt.get("metric") or "the tested metric"
    kind = metric_kind(metric) if sprt.get("metric") else "points"
    decision = sprt.get("decision")
    diff = _sprt_tests_a_difference(summary, sprt)
    what = {"H1": "accepted H1", "H0": "accepted H0"}.get(decision, "was still undecided")
    hyp = ""
    if _ok(sprt.get("h0")) and _ok(sprt.get("h1")):
        hyp = f" (H0: {_fmt(sprt['h0'], kind, diff)}, H1: {_fmt(sprt['h1'], kind, diff)})"
    after = []
    if _ok(sprt.get("waves")):
        after.append(f"{_int(sprt['waves'])} wave{'' if sprt['waves'] == 1 else 's'}")
    if _ok(sprt.get("units")):
        after.append(_count_words(summary, sprt["units"]))
    text = f"The sequential test on {metric}{hyp} {what}"
    if after:
        text += " after " + " and ".join(after)
    if _est_ok(sprt.get("estimate")):
        text += f", with an estimate of {_words_est(sprt['estimate'], kind, diff)} at the stop"
    text += "."
    if sprt.get("stopped_early"):
        text += " It stopped early, so that estimate is biased away from the crossed bound."
    return text


# --- the document model ------------------------------------------------------------------------
# A section is (title, blocks); a block is one of
#   ("p", text) | ("code", text) | ("list", [text]) | ("kv", [(key, value, mono)])
#   ("table", headers, rows, aligns)  aligns: "l" or "r" per column; a cell is text or
#                                     (text, second line) for an estimate and its interval
#   ("box", title, [blocks]) | ("figure", name, caption)

def _cell(obj, kind, diff=False, decimals=None):
    """A table cell of an estimate object: (estimate, '[lo, hi]') or ''."""
    if not _est_ok(obj):
        return ""
    ci = _ci(obj, kind, diff, sep=", ", decimals=decimals)
    return (_point(obj, kind, diff, decimals), f"[{ci}]" if ci else "")


def _provenance(summary):
    """Blocks: the study's provenance, its arms and the command that reproduces it."""
    study = _study(summary)
    unit = _unit_name(summary)
    kv = []

    def add(key, value, mono=False):
        if value not in (None, "", [], {}) and not (isinstance(value, float)
                                                    and not math.isfinite(value)):
            kv.append((key, str(value), mono))

    design = study.get("design")
    add("design", {"crn": "crn (common random numbers: every arm plays the same deals)",
                   "duplicate": "duplicate (every seed in every rotation of the sides)"}
        .get(design, design))
    add("unit", study.get("unit"))
    add("seed", study.get("seed") if _ok(study.get("seed")) else None)
    duplicate = design == "duplicate"
    per = " per match" if duplicate else " per arm"
    seeds = None
    for key in ("deals", "games"):
        if _ok(study.get(key)):   # played per arm; a summary before 'seeds' counted seeds
            seeds = study.get("seeds") if _ok(study.get("seeds")) else study[key]
            add(f"{key}{per}", _count_words(summary, seeds))
    if not duplicate:
        add("baseline", study.get("baseline"))
    if _ok(study.get("units_planned")) and study["units_planned"] != seeds:
        add(f"{unit} planned{per}", _count_words(summary, study["units_planned"]))
    played = study.get("units_played")
    if isinstance(played, dict) and played:
        shown = [(k, v) for k, v in played.items() if _ok(v)]
        if shown and len({v for _, v in shown}) == 1:
            add(f"{unit} played", _count_words(summary, shown[0][1], per))
        elif shown:
            add(f"{unit} played", "; ".join(f"{k} {_count_words(summary, v)}"
                                            for k, v in shown))
    elif _ok(played):
        add(f"{unit} played", _count_words(summary, played, per))
    if study.get("stopped_early") is True:
        add("stopped early", "yes")
    add("spec hash", study.get("spec_hash"), True)
    add("kernels hash", study.get("kernels_hash"), True)
    versions = study.get("versions")
    if isinstance(versions, dict):
        add("versions", ", ".join(f"{k} {v}" for k, v in versions.items()
                                  if v not in (None, "")))
    add("created", study.get("created"))
    add("schema", summary.get("schema"), True)
    blocks = [("kv", kv)] if kv else []
    arms = _rows(summary, "arms")
    if arms:
        sweep_cols = any(a.get("sweep") for a in arms)
        lineup_cols = any(a.get("lineups") for a in arms)
        headers = ["arm", "rules", "policies (per seat)"]
        aligns = ["n", "l", "l"]
        if lineup_cols:
            headers.append("lineups (per side)")
            aligns.append("l")
        if sweep_cols:
            headers.append("sweep")
            aligns.append("l")
        headers += [unit, "rows"]
        aligns += ["r", "r"]
        rows = []
        for a in arms:
            row = [a.get("name") or "", a.get("rules") or "", a.get("policies") or ""]
            if lineup_cols:
                lineups = a.get("lineups") or []
                row.append(" vs ".join(str(x) for x in lineups))
            if sweep_cols:
                sweep = a.get("sweep") or {}
                row.append(", ".join(f"{k}={v}" for k, v in sweep.items()))
            row += [_int(a.get("units")), _int(a.get("rows"))]
            rows.append(row)
        blocks.append(("table", headers, rows, aligns))
    if study.get("command"):
        blocks.append(("p", "Reproduce the study from its folder with:"))
        blocks.append(("code", str(study["command"])))
    return blocks


def _effects_blocks(summary, only=None):
    """Blocks: the effects table (of the metrics ``only``, default all) and the sentence
    about Holm adjustment."""
    effects = [e for e in _rows(summary, "effects") if _est_ok(e)
               and (only is None or e.get("metric") in only)]
    if not effects:
        return []
    holm = _holm_used(summary)
    arms = _in_order(e.get("arm") for e in effects)
    baseline = effects[0].get("baseline") or _study(summary).get("baseline") or "the baseline"
    if holm:
        words = (f"{len(arms)} arms are compared with {baseline}, so Holm adjustment was used: "
                 "the Holm CI and Holm p columns are adjusted for the multiple comparisons "
                 "(use them to judge significance); CI and p are the unadjusted values.")
    else:
        words = (f"One arm is compared with {baseline}, so no Holm adjustment was needed: the "
                 "intervals and p-values are unadjusted.")
    intro = ""
    if _study(summary).get("design") == "duplicate":
        intro = ("In a duplicate design each arm is a match; these rows compare a match's "
                 "results (side 0 as written) with the baseline match on the same seeds. ")
    intro += ("Each row is the difference arm minus baseline from the paired units; share "
             "differences are in percentage points (pp). Relative is arm / baseline - 1. "
             "Variance reduction is how many times fewer units the pairing needs than "
             "independent samples. ")
    has_rel = any(_est_ok(e.get("relative")) for e in effects)
    headers = ["metric", "arm", "estimate", "95% CI"]
    aligns = ["n", "n", "r", "r"]
    if holm:
        headers.append("Holm 95% CI")
        aligns.append("r")
    if has_rel:
        headers.append("relative")
        aligns.append("r")
    ns = _in_order(e.get("n") for e in effects)
    same_n = len(ns) == 1 and _ok(ns[0])
    if same_n:
        intro += f"Every row rests on n = {_int(ns[0])} paired {_unit_name(summary)}. "
    else:
        headers.append("n")
        aligns.append("r")
    headers.append("p")
    aligns.append("r")
    if holm:
        headers.append("Holm p")
        aligns.append("r")
    headers += ["correlation", "var. reduction", "method"]
    aligns += ["r", "r", "n"]
    metrics = _in_order(e.get("metric") for e in effects)
    rows = []
    for metric in metrics:
        kind = metric_kind(metric)
        group = [e for e in effects if e.get("metric") == metric]
        d = _row_decimals(group, kind)
        rel_d = _row_decimals([e.get("relative") for e in group], "share")
        for e in group:
            row = [metric, e.get("arm") or "", _point(e, kind, True, d),
                   _ci(e, kind, True, decimals=d)]
            if holm:
                row.append(_ci(e, kind, True, "holm_ci_low", "holm_ci_high", decimals=d))
            if has_rel:
                rel = e.get("relative")
                cell = _cell(rel, "share", True, rel_d)
                row.append(" ".join(c for c in cell if c).replace(" pp", "%") if cell else "")
            if not same_n:
                row.append(_int(e.get("n")))
            row.append(_fmt_p(e.get("p_value")))
            if holm:
                row.append(_fmt_p(e.get("holm_p")))
            vr = e.get("variance_reduction")
            row += [_fmt(e.get("correlation"), "ratio"), f"{vr:.1f}x" if _ok(vr) else "",
                    e.get("method") or ""]
            rows.append(row)
    return [("p", intro + words), ("table", headers, rows, aligns)]


def _arm_tables(headers, rows, aligns, left, right, per=None):
    """Table blocks of a table with one column per arm, split so that each holds at most
    ``per`` arms (default ``ARMS_PER_TABLE``): the ``left`` columns start every table and
    the ``right`` columns (per metric, not per arm) end the last one.  Keeps a sweep's many
    arms within a page 1280 px wide instead of a table that scrolls sideways."""
    per = per or ARMS_PER_TABLE
    middle = len(headers) - left - right
    if middle <= per:
        return [("table", headers, rows, aligns)]
    blocks = []
    for first in range(left, left + middle, per):
        last = min(first + per, left + middle)
        keep = list(range(left)) + list(range(first, last))
        if last == left + middle:
            keep += list(range(left + middle, len(headers)))
        blocks.append(("table", [headers[i] for i in keep],
                       [None if row is None else [row[i] for i in keep] for row in rows],
                       [aligns[i] for i in keep]))
    return blocks


def _wide_blocks(summary, key, intro):
    """Blocks: a metric x arm table of the estimate objects in summary[key]."""
    items = [r for r in _rows(summary, key) if _est_ok(r)]
    if not items:
        return []
    arms = [a for a in _arm_names(summary) if any(r.get("arm") == a for r in items)]
    arms += [a for a in _in_order(r.get("arm") for r in items) if a not in arms]
    table = {(r.get("metric"), r.get("arm")): r for r in items}
    metrics = _in_order(r.get("metric") for r in items)
    rows = []
    for metric in metrics:
        kind = metric_kind(metric)
        methods = _in_order(table[(metric, a)].get("method") for a in arms
                            if (metric, a) in table and table[(metric, a)].get("method"))
        ns = _in_order(table[(metric, a)].get("n") for a in arms if (metric, a) in table)
        n_text = _int(ns[0]) if len(ns) == 1 else ""
        d = _row_decimals([table.get((metric, a)) for a in arms], kind)
        rows.append([metric] + [_cell(table.get((metric, a)), kind, decimals=d) for a in arms]
                    + [n_text, ", ".join(methods)])
    headers = ["metric"] + arms + ["n", "method"]
    aligns = ["n"] + ["r"] * len(arms) + ["r", "n"]
    return [("p", intro)] + _arm_tables(headers, rows, aligns, 1, 2)


def _matches_blocks(summary):
    """Blocks: the duplicate matches."""
    matches = _rows(summary, "matches")
    if not matches:
        return []
    games = any(_est_ok(m.get("win_rate")) for m in matches)
    penta = any(isinstance(m.get("pentanomial"), list) and m["pentanomial"] for m in matches)
    los = any(_ok(m.get("los")) for m in matches)
    tri = any(_ok(m.get("trinomial_variance_ratio")) for m in matches)
    headers = ["arm", "a", "b", "points per deal"]
    aligns = ["n", "n", "n", "r"]
    if games:
        headers += ["win rate", "Elo"]
        aligns += ["r", "r"]
    if penta:
        headers.append("pentanomial 0 / ½ / 1 / 1½ / 2")
        aligns.append("r")
    if los:
        headers.append("LOS")
        aligns.append("r")
    if tri:
        headers.append("trinomial / pentanomial variance")
        aligns.append("r")
    headers.append("n")
    aligns.append("r")
    rows = []
    for m in matches:
        row = [m.get("arm") or "", m.get("a") or "", m.get("b") or "",
               _cell(m.get("points_per_deal"), "points", True)]
        if games:
            row += [_cell(m.get("win_rate"), "share"), _cell(m.get("elo"), "elo", True)]
        if penta:
            counts = m.get("pentanomial")
            row.append(" / ".join(_int(c) for c in counts) if isinstance(counts, list) else "")
        if los:
            row.append(_fmt_share_extreme(m.get("los")))
        if tri:
            ratio = m.get("trinomial_variance_ratio")
            row.append(f"{ratio:.2f}" if _ok(ratio) else "")
        ns = [(m.get(k) or {}).get("n") for k in ("win_rate", "points_per_deal")
              if isinstance(m.get(k), dict)]
        row.append(_int(next((x for x in ns if _ok(x)), None)))
        rows.append(row)
    unit = "game pairs" if games else "deal seeds"
    intro = ("Lineup a (side 0 as written in the spec) against lineup b. Points per deal is "
             "a's deal score minus b's, averaged over the rotations of each seed. ")
    if games:
        intro += ("The win rate counts a draw as half and comes from the game pairs "
                  "(pentanomial); Elo transforms the win rate and its interval endpoints; "
                  "the pentanomial counts are game pairs by a's total over the pair; LOS is "
                  "the likelihood that a is stronger than b. ")
    intro += f"n counts {unit}; intervals are 95%."
    return [("p", intro), ("table", headers, rows, aligns)]


def _balance_blocks(summary):
    """Blocks: the balance metrics, one column per arm."""
    balance = _rows(summary, "balance")
    if not balance:
        return []
    arms = [b.get("arm") or "" for b in balance]
    specs = []  # (label, function of a balance object -> cell)

    def est(key, kind, diff=False):
        return lambda b: _cell(b.get(key), kind, diff)

    def quant(key):
        def cell(b):
            q = b.get(key)
            if not isinstance(q, dict) or not all(_ok(q.get(k)) for k in ("p10", "p50", "p90")):
                return ""
            mean = f"mean {_fmt(q['mean'], 'count')}" if _ok(q.get("mean")) else ""
            return (f"{_fmt(q['p10'], 'ratio').rstrip('0').rstrip('.')} / "
                    f"{_fmt(q['p50'], 'ratio').rstrip('0').rstrip('.')} / "
                    f"{_fmt(q['p90'], 'ratio').rstrip('0').rstrip('.')}", mean)
        return cell

    def reason(key):
        return lambda b: (_fmt((b.get("end_reasons") or {}).get(key), "share")
                          if isinstance(b.get("end_reasons"), dict) else "")

    def leader(k):
        def cell(b):
            for row in b.get("leader_wins") or []:
                if isinstance(row, dict) and row.get("k") == k:
                    return _cell(row, "share")
            return ""
        return cell

    def margin(b):
        q = b.get("final_margin")
        if not isinstance(q, dict) or not (_ok(q.get("mean")) or _ok(q.get("p50"))):
            return ""
        median = f"median {_fmt(q['p50'], 'points')}" if _ok(q.get("p50")) else ""
        if _ok(q.get("mean")):
            return (f"{_fmt(q['mean'], 'points')}", median)
        return (median, "")

    def count(key):
        return lambda b: _int(b.get(key))

    specs += [
        ("first-player advantage (points per deal)", est("first_player_advantage", "points",
                                                          True)),
        ("first player's side wins the deal", est("first_player_deal_share", "share")),
        ("first player's side wins the game", est("first_player_game_win_rate", "share")),
        ("turns per deal p10 / p50 / p90", quant("turns")),
        ("deals per game p10 / p50 / p90", quant("deals_per_game")),
        ("deals ended by going out", reason("out")),
        ("deals ended by the stock", reason("stock")),
        ("deals ended by a special hand", reason("special")),
        ("lead changes per game", est("lead_changes_per_game", "count")),
        ("comeback share (decided games)", est("comeback_share", "share")),
    ]
    specs += [(f"leader after deal {k} wins", leader(k)) for k in range(1, 5)]
    specs += [("final margin, mean (points)", margin), ("drawn games", count("draws")),
              ("cut-off games", count("cut"))]
    rows = []
    for label, fn in specs:
        cells = [fn(b) for b in balance]
        if any(c not in ("", None) and c != ("", "") for c in cells):
            rows.append([label] + cells)
    if not rows:
        return []
    games = any(isinstance(b.get("leader_wins"), list) and b["leader_wins"] for b in balance)
    intro = ("How fair and how long the play is under each arm. The first player is the seat "
             "left of the dealer; the first-player advantage is that side's deal score minus "
             "the mean of the other sides. Intervals are 95% (the methods are listed under "
             "Notes).")
    if games:
        intro += (" 'Leader after deal k wins' counts the games that lasted more than k deals "
                  "and had a strict leader then.")
    headers = ["metric"] + arms
    return [("p", intro)] + _arm_tables(headers, rows, ["n"] + ["r"] * len(arms), 1, 0)


def _sprt_blocks(summary):
    """Blocks: the SPRT box."""
    sprt = summary.get("sprt")
    if not isinstance(sprt, dict):
        return []
    metric = sprt.get("metric")
    kind = metric_kind(metric) if metric else "points"
    kv = []

    def add(key, value):
        if value not in (None, ""):
            kv.append((key, value, False))

    diff = _sprt_tests_a_difference(summary, sprt)
    add("metric", metric)
    if _ok(sprt.get("h0")) and _ok(sprt.get("h1")):
        add("hypotheses", f"H0: {_fmt(sprt['h0'], kind, diff)}, H1: "
                          f"{_fmt(sprt['h1'], kind, diff)}{_unit_words(kind)}")
    if _ok(sprt.get("alpha")) or _ok(sprt.get("beta")):
        add("error rates", ", ".join(t for t in (
            f"alpha {sprt['alpha']:g}" if _ok(sprt.get("alpha")) else "",
            f"beta {sprt['beta']:g}" if _ok(sprt.get("beta")) else "") if t))
    if _ok(sprt.get("llr")):
        bounds = ""
        if _ok(sprt.get("lower")) and _ok(sprt.get("upper")):
            bounds = (f" (bounds {_fmt(sprt['lower'], 'llr', True)} and "
                      f"{_fmt(sprt['upper'], 'llr', True)})")
        add("log-likelihood ratio", f"{_fmt(sprt['llr'], 'llr', True)}{bounds}")
    decision = sprt.get("decision")
    add("decision", {"H1": "H1 accepted", "H0": "H0 accepted",
                     "undecided": "undecided"}.get(decision, decision))
    if _ok(sprt.get("waves")):
        add("waves", _int(sprt["waves"]))
    if _ok(sprt.get("units")):
        add(_unit_name(summary), _int(sprt["units"]))
    if _est_ok(sprt.get("estimate")):
        add("estimate at the stop", _words_est(sprt["estimate"], kind, diff))
    if isinstance(sprt.get("stopped_early"), bool):
        add("stopped early", "yes" if sprt["stopped_early"] else "no")
    inner = [("kv", kv)]
    inner += [("p", str(sprt[key])) for key in ("note_method", "note_no_spread")
              if sprt.get(key)]
    note = sprt.get("note")
    if note:
        inner.append(("p", str(note)))
    elif sprt.get("stopped_early"):
        inner.append(("p", "An estimate after an early stop is biased away from the bound "
                           "that was crossed."))
    return [("box", "", inner)]


def _methods_of(objs) -> str:
    """'method (words); ...' for the methods of some estimate objects ('' when none)."""
    methods = _in_order(o.get("method") for o in objs if _est_ok(o) and o.get("method"))
    return "; ".join(f"{m} ({METHOD_WORDS[m]})" if m in METHOD_WORDS else m for m in methods)


def _all_estimates(summary):
    """Every estimate object of the summary (for the methods glossary)."""
    found = []
    for key in ("effects", "means", "medians"):
        found += _rows(summary, key)
        if key == "effects":
            found += [e.get("relative") for e in _rows(summary, key)
                      if isinstance(e.get("relative"), dict)]
    for m in _rows(summary, "matches"):
        found += [m.get(k) for k in ("points_per_deal", "win_rate", "elo")
                  if isinstance(m.get(k), dict)]
    for b in _rows(summary, "balance"):
        found += [v for v in b.values() if isinstance(v, dict)]
        found += [r for r in (b.get("leader_wins") or []) if isinstance(r, dict)]
    sprt = summary.get("sprt")
    if isinstance(sprt, dict) and isinstance(sprt.get("estimate"), dict):
        found.append(sprt["estimate"])
    return [f for f in found if isinstance(f, dict)]


def _caption(name, summary) -> str:
    """What a plot shows and how its intervals were computed."""
    holm = _holm_used(summary)
    effect_methods = _methods_of(_rows(summary, "effects"))
    if name == "lead":
        from canasta_sim.study.plots import lead_metrics

        adj = " (unadjusted)" if holm else ""
        bootstrap = any(_est_ok(e.get("relative")) for e in _rows(summary, "effects"))
        how = ("block-bootstrap intervals of the ratio where the effects table has a "
               "relative column, else the effect's interval divided by the baseline mean"
               if bootstrap else "the effect's interval divided by the baseline mean")
        return ("Relative effects of the lead metrics (" + ", ".join(lead_metrics(summary))
                + f"): arm / baseline - 1 in percent with its 95% interval{adj} ({how}); "
                "the dashed line marks no change, and a filled marker means the interval "
                "excludes zero. The forest plot below has every metric in its own unit.")
    if name == "forest":
        adj = " (unadjusted; see the Holm columns of the table)" if holm else ""
        return ("Forest plot: every effect (arm minus baseline) with its 95% confidence "
                f"interval{adj}, one panel per metric in the metric's own unit (shares in "
                "percentage points); the dashed line marks no change, and a filled marker "
                "means the interval excludes zero. Metrics on which no arm can differ from "
                "the baseline (every effect exactly 0) have no panel."
                + (f" Intervals: {effect_methods}." if effect_methods else ""))
    if name.startswith("sweep-"):
        return _sweep_caption(name, summary, effect_methods)
    if name == "duration":
        games = _study(summary).get("unit") == "game"
        extra = " and deals per game (right)" if games else ""
        share = "the share of deals (games) at each value" if games else \
            "the share of deals at each value"
        return ("Duration: the distribution of turns per deal" + extra + " for each arm, as "
                f"{share}; from the study's histograms.")
    if name == "leader-wins":
        rows = [r for b in _rows(summary, "balance") for r in (b.get("leader_wins") or [])
                if isinstance(r, dict)]
        methods = _methods_of(rows)
        return ("P(the strict leader after deal k wins the game) for k = 1..4, per arm, over "
                "the games that lasted more than k deals and had a strict leader then; error "
                "bars are 95% confidence intervals" + (f" ({methods})." if methods else "."))
    if name == "matrix":
        games = any(_est_ok(m.get("win_rate")) for m in _rows(summary, "matches"))
        if games:
            return ("Tournament matrix: each cell is the win rate of the row policy against "
                    "the column policy (a draw counts half) with its 95% interval from the "
                    "game pairs (pentanomial); * marks an interval that excludes 50%.")
        return ("Tournament matrix: each cell is the row policy's points per deal against "
                "the column policy with its 95% interval over deal seeds; * marks an interval "
                "that excludes zero.")
    return name


def _sweep_caption(name, summary, effect_methods) -> str:
    """What a sweep plot shows: its axis and where the baseline is."""
    from canasta_sim.study.plots import sweep_axis

    param = name[len("sweep-"):]
    sweep = next((w for w in _rows(summary, "sweeps")
                  if str(w.get("parameter") or "value").replace("/", "_") == param), {})
    values = sweep.get("values") or []
    baseline = _study(summary).get("baseline") or "the baseline"
    axis = {"log": " The x axis is logarithmic (the values are evenly spaced on a log "
                   "scale).",
            "categorical": " The values are equally spaced in ascending order, not to "
                           "scale."}.get(sweep_axis(values) if values else "linear", "")
    if baseline in (sweep.get("arms") or []):
        where = f"the hollow marker is the baseline, {baseline}, at its own value"
    else:
        where = (f"the dashed line at zero is the baseline, {baseline}, which is not one of "
                 "the swept values")
    return (f"Sweep over {param}: the effect of each swept value against the baseline on "
            f"the key metrics, with the unadjusted 95% confidence interval as a band; {where}."
            + axis + (f" Intervals: {effect_methods}." if effect_methods else ""))


def _plot_names(names):
    """Plot names in report order."""
    def rank(name):
        for i, prefix in enumerate(_PLOT_ORDER):
            if name == prefix or (prefix.endswith("-") and name.startswith(prefix)):
                return i
        return len(_PLOT_ORDER)
    return sorted(names, key=lambda n: (rank(n), n))


def _key_effect_metrics(summary) -> list:
    """The metrics of the key effects table (crn designs): study.key_metrics or KEY_METRICS."""
    available = _in_order(e.get("metric") for e in _rows(summary, "effects"))
    return _key_metrics(summary, available, limit=8)


def _sections(summary, plots):
    """The report as (title, blocks) sections; ``plots`` are the names of the plots.

    What a reader looks for comes first (the answer, the test, the matches, the key
    effects, the plots, the balance); the long tables of every metric are folded away
    ("details" blocks: <details> in HTML, a sub-heading in Markdown), provenance last.
    """
    duplicate = _study(summary).get("design") == "duplicate"
    sections = [(None, [("p", _answer(summary))])]
    sprt = _sprt_blocks(summary)
    if sprt:
        sections.append(("Sequential test (SPRT)", sprt))
    matches = _matches_blocks(summary)
    if matches:
        sections.append(("Duplicate matches", matches))
    if not duplicate:
        key = _effects_blocks(summary, _key_effect_metrics(summary))
        if key:
            sections.append(("Effects against the baseline", key))
    if plots:
        figures = []
        for name in _plot_names(plots):
            figure = ("figure", name, _caption(name, summary))
            folded = name in _FOLDED_PLOTS and "lead" in plots  # below what leads
            figures.append(("details", _FOLDED_PLOTS[name], [figure]) if folded else figure)
        sections.append(("Plots", figures))
    balance = _balance_blocks(summary)
    if balance:
        sections.append(("Balance", balance))
    every = _effects_blocks(summary)
    if every:
        title = ("Every metric against the baseline match" if duplicate
                 else "Every metric against the baseline")
        sections.append((title, [("details", f"{len(_rows(summary, 'effects'))} effects: "
                                  "show the table", every)]))
    means = _wide_blocks(summary, "means", "Each arm's mean of every metric with its 95% "
                         "confidence interval in brackets; the method column says how it was "
                         "computed (see Notes).")
    if means:
        sections.append(("Means per arm", [("details", "every metric: show the table",
                                            means)]))
    medians = _wide_blocks(summary, "medians", "Medians with exact distribution-free 95% "
                           "intervals from binomial order statistics.")
    if medians:
        sections.append(("Medians per arm", medians))
    notes = [str(n) for n in (summary.get("notes") or []) if n not in (None, "")]
    methods = _in_order(o.get("method") for o in _all_estimates(summary)
                        if _est_ok(o) and o.get("method"))
    blocks = [("list", notes)] if notes else []
    if methods:
        blocks.append(("p", "How the 95% intervals were computed:"))
        blocks.append(("list", [f"{m}: {METHOD_WORDS[m]}" if m in METHOD_WORDS else m
                                for m in methods]))
    if blocks:
        sections.append(("Notes", blocks))
    sections.append(("Provenance", _provenance(summary)))
    return sections


def _title(summary) -> str:
    """The report's title."""
    study = _study(summary)
    name = study.get("name") or "study"
    design, unit = study.get("design"), study.get("unit")
    detail = ", ".join(x for x in (f"{design} design" if design else "",
                                   f"{unit} study" if unit else "") if x)
    return f"Study {name}" + (f" ({detail})" if detail else "")


# --- Markdown ----------------------------------------------------------------------------------

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")


def visible(text) -> str:
    """``text`` with control characters (C0, DEL, C1, bidirectional overrides) written as
    escapes (\\x1b, \\n, \\u202e): a file name shown in a report or a terminal cannot move
    the cursor, ring, reorder the line or start a new Markdown block."""
    def escape(match):
        char = match.group()
        if char == "\n":
            return "\\n"
        return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"

    return _CONTROL.sub(escape, str(text))


def _md_text(text) -> str:
    """Text of the summary (names, rules, policies, notes) for Markdown prose: control
    characters :func:`visible`, and a ``<`` that could open raw HTML (a tag or comment)
    written as ``&lt;``, so a name shows as written instead of becoming markup."""
    return _TAG_START.sub("&lt;", visible(text))


def _md_code_span(text) -> str:
    """``text`` as an inline code span, fenced by more backticks than it holds."""
    text = visible(text)
    run = max((len(r) for r in re.findall("`+", text)), default=0)
    fence = "`" * (run + 1)
    pad = " " if run else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _md_escape(text) -> str:
    """Text safe inside a Markdown table cell."""
    return _md_text(text).replace("|", "\\|")


def _md_cell(cell) -> str:
    """A cell in Markdown: an estimate with its interval on one line."""
    if isinstance(cell, tuple):
        main, second = cell
        if not second:
            return _md_escape(main)
        joined = f"{main} {second}" if second.startswith("[") else f"{main} ({second})"
        return _md_escape(joined)
    return _md_escape(cell)


def _md_blocks(blocks, plot_files, out, quote=""):
    """Append the Markdown lines of ``blocks`` to ``out``."""
    for block in blocks:
        kind = block[0]
        if kind == "p":
            out += [quote + _md_text(block[1]), quote]
        elif kind == "code":
            code = visible(block[1])
            fence = "`" * max(3, 1 + max((len(r) for r in re.findall("`+", code)), default=0))
            out += [quote + fence + "bash", quote + code, quote + fence, quote]
        elif kind == "list":
            out += [quote + f"- {_md_text(item)}" for item in block[1]] + [quote]
        elif kind == "kv":
            for key, value, mono in block[1]:
                shown = _md_code_span(value) if mono else _md_text(value)
                out.append(quote + f"- **{_md_text(key)}**: {shown}")
            out.append(quote)
        elif kind == "table":
            _, headers, rows, aligns = block
            out.append(quote + "| " + " | ".join(_md_escape(h) for h in headers) + " |")
            out.append(quote + "|" + "|".join("---:" if a == "r" else "---" for a in aligns)
                       + "|")
            for row in rows:
                out.append(quote + "| " + " | ".join(_md_cell(c) for c in row) + " |")
            out.append(quote)
        elif kind == "box":
            if block[1]:
                out += [quote + f"> **{_md_text(block[1])}**", quote + ">"]
            _md_blocks(block[2], plot_files, out, quote + "> ")
        elif kind == "details":
            _md_blocks(block[2], plot_files, out, quote)
        elif kind == "figure":
            name, caption = block[1], block[2]
            path = plot_files.get(name)
            if path:
                out += [quote + f"![{name}]({path})", quote, quote + f"*{_md_text(caption)}*",
                        quote]


def render_markdown(summary: dict, plot_files: dict) -> str:
    """The report in Markdown; ``plot_files`` maps plot name -> path relative to the report."""
    plot_files = dict(plot_files or {})
    out = [f"# {_md_text(_title(summary))}", ""]
    for title, blocks in _sections(summary, list(plot_files)):
        if title:
            out += [f"## {_md_text(title)}", ""]
        _md_blocks(blocks, plot_files, out)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(line.rstrip() for line in out) + "\n"


# --- HTML --------------------------------------------------------------------------------------

_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1f2328; background: #fff; margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 26px; margin: 8px 0 12px; }
h2 { font-size: 19px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
p.answer { font-size: 16px; background: #f6f8fa; border-left: 4px solid #0969da;
           padding: 10px 14px; margin: 0 0 8px; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
                   font-size: 13px; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 12px;
      white-space: pre-wrap; word-break: break-all; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 18px; margin: 0 0 12px; }
dl.kv dt { color: #57606a; }
dl.kv dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; margin: 6px 0 14px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 9px; border-bottom: 1px solid #e5e8eb; vertical-align: top; }
th { background: #f6f8fa; text-align: left; font-weight: 600; border-bottom: 2px solid #d0d7de; }
th.r, td.r { text-align: right; }
td.r { white-space: nowrap; }
td.n { min-width: 6em; }
td.l { overflow-wrap: anywhere; }
tr.group td { border-top: 1px solid #afb8c1; }
td .ci { display: block; color: #57606a; font-size: 12px; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
.box { border: 1px solid #d4a72c; background: #fff8c5; border-radius: 6px; padding: 6px 16px;
       margin: 8px 0; }
.box h3 { margin: 6px 0; font-size: 16px; }
ul.notes li { margin: 3px 0; }
nav.toc { font-size: 13px; color: #57606a; margin: 4px 0 0; }
nav.toc a { color: #0969da; text-decoration: none; }
figure { margin: 18px 0 28px; }
figure img { max-width: 100%; height: auto; border: 1px solid #e5e8eb; }
figcaption { color: #57606a; font-size: 13px; max-width: 900px; margin-top: 4px; }
details > summary { cursor: pointer; color: #0969da; margin: 4px 0 8px; }
"""


def _h(text) -> str:
    """HTML-escaped text, control characters written as escapes (:func:`visible`)."""
    return html.escape(visible(text), quote=True)


_BREAK_AFTER = re.compile(r"([._=,/+(-])(?=[^\s])")


def _breakable(text) -> str:
    """HTML-escaped text with a line-break opportunity (<wbr>) after each . _ - = , / + (
    of a long name (arm names of sweeps, metric names, policies), so a narrow column wraps
    it there rather than widening the table past the page."""
    text = str(text)
    if len(text) <= 14:
        return _h(text)
    return "<wbr>".join(_h(part) for part in _BREAK_AFTER.sub("\\1\0", text).split("\0"))


def _html_cell(cell, align) -> str:
    """A <td>: an estimate and its interval on two lines; a name may wrap at its dots."""
    cls = f' class="{align}"' if align in ("r", "n", "l") else ""
    if isinstance(cell, tuple):
        main, ci = cell
        inner = _h(main) + (f'<span class="ci">{_h(ci)}</span>' if ci else "")
        return f"<td{cls}>{inner}</td>"
    return f"<td{cls}>{_breakable(cell) if align == 'n' else _h(cell)}</td>"


def _html_blocks(blocks, plot_pngs, out):
    """Append the HTML of ``blocks`` to ``out``."""
    for block in blocks:
        kind = block[0]
        if kind == "p":
            out.append(f"<p>{_h(block[1])}</p>")
        elif kind == "code":
            out.append(f"<pre><code>{_h(block[1])}</code></pre>")
        elif kind == "list":
            out.append('<ul class="notes">' + "".join(f"<li>{_h(i)}</li>" for i in block[1])
                       + "</ul>")
        elif kind == "kv":
            items = []
            for key, value, mono in block[1]:
                shown = f'<span class="mono">{_h(value)}</span>' if mono else _h(value)
                items.append(f"<dt>{_h(key)}</dt><dd>{shown}</dd>")
            out.append('<dl class="kv">' + "".join(items) + "</dl>")
        elif kind == "table":
            _, headers, rows, aligns = block
            head = "".join(f'<th class="{"r" if a == "r" else "l"}">{_breakable(h)}</th>'
                           for h, a in zip(headers, aligns))
            body = []
            previous = None
            for row in rows:
                group = ' class="group"' if previous is not None and row[0] != previous \
                    and headers[:2] == ["metric", "arm"] else ""
                previous = row[0]
                body.append(f"<tr{group}>" + "".join(_html_cell(c, a)
                                                     for c, a in zip(row, aligns)) + "</tr>")
            out.append(f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>'
                       + "".join(body) + "</tbody></table></div>")
        elif kind == "box":
            out.append('<div class="box">' + (f"<h3>{_h(block[1])}</h3>" if block[1] else ""))
            _html_blocks(block[2], plot_pngs, out)
            out.append("</div>")
        elif kind == "details":
            out.append(f"<details><summary>{_h(block[1])}</summary>")
            _html_blocks(block[2], plot_pngs, out)
            out.append("</details>")
        elif kind == "figure":
            name, caption = block[1], block[2]
            png = plot_pngs.get(name)
            if png:
                data = base64.b64encode(png).decode("ascii")
                out.append(f'<figure id="plot-{_h(name)}"><img alt="{_h(name)}" '
                           f'src="data:image/png;base64,{data}">'
                           f"<figcaption>{_h(caption)}</figcaption></figure>")


def _slug(title) -> str:
    """An HTML id for a section title."""
    return re.sub(r"[^a-z0-9]+", "-", str(title).lower()).strip("-") or "section"


def render_html(summary: dict, plot_pngs: dict) -> str:
    """The report as one self-contained HTML page (inline CSS, PNGs as data URIs, no script)."""
    plot_pngs = dict(plot_pngs or {})
    title = _title(summary)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_h(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           "<main>", f"<h1>{_h(title)}</h1>"]
    sections = _sections(summary, list(plot_pngs))
    links = [f'<a href="#{_slug(t)}">{_h(t)}</a>' for t, _ in sections if t]
    for index, (section_title, blocks) in enumerate(sections):
        if section_title:
            out.append(f'<h2 id="{_slug(section_title)}">{_h(section_title)}</h2>')
        if index == 0:
            out.append(f'<p class="answer">{_h(blocks[0][1])}</p>')
            _html_blocks(blocks[1:], plot_pngs, out)
            if links:
                out.append('<nav class="toc">' + " · ".join(links) + "</nav>")
        else:
            _html_blocks(blocks, plot_pngs, out)
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


# --- the terminal table ------------------------------------------------------------------------

def _text_table(headers, rows, aligns) -> list:
    """Lines of a plain-text table.  No cell is ever cut: a name is what the user types
    to mean an arm or a policy, so a long one makes the table wider rather than lose its
    end (the numbers keep their columns)."""
    cells = [None if row is None else [str(c) for c in row] for row in rows]
    filled = [r for r in cells if r is not None]
    widths = [max([len(h)] + [len(r[i]) for r in filled]) for i, h in enumerate(headers)]

    def fit(text, w, align):
        return text.rjust(w) if align == "r" else text.ljust(w)

    lines = ["  ".join(fit(h, w, a) for h, w, a in zip(headers, widths, aligns)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        if row is None:  # a blank line between groups
            lines.append("")
            continue
        lines.append("  ".join(fit(c, w, a) for c, w, a in zip(row, widths, aligns)).rstrip())
    return lines


def main_table(summary: dict) -> str:
    """The main results as plain text for a terminal (100 columns, wider only when a name
    is longer: names are never cut).

    crn: per arm against the baseline, the key metrics with estimate and 95% CI (and the
    Holm-adjusted p when two or more arms are compared); duplicate: per match the points
    per deal, the win rate and Elo with their intervals.
    """
    study = _study(summary)
    head = _title(summary)
    planned = study.get("units_planned")
    duplicate = study.get("design") == "duplicate"
    if _ok(planned):
        head += ", " + _count_words(summary, planned, " planned per match" if duplicate
                                    else " planned per arm")
    if study.get("baseline") and _rows(summary, "effects") and not duplicate:
        head += f", baseline {study['baseline']}"
    from canasta_sim.study.answer import first_line

    # the answer first (wrapped), then the title and the table
    lines = [_wrap(first_line(summary), 100), "", _wrap(head, 100)]
    matches = _rows(summary, "matches")
    effects = [] if matches else [e for e in _rows(summary, "effects") if _est_ok(e)]
    if matches:
        games = any(_est_ok(m.get("win_rate")) for m in matches)
        # the arm column only when its name says more than "<a>-vs-<b>"
        named = any(m.get("arm") != f"{m.get('a')}-vs-{m.get('b')}" for m in matches)
        headers = (["arm"] if named else []) + ["a", "b", "points per deal"]
        aligns = (["l"] if named else []) + ["l", "l", "r"]
        if games:
            headers += ["win rate", "Elo"]
            aligns += ["r", "r"]
        rows = []
        for m in matches:
            row = ([m.get("arm") or ""] if named else []) + [
                m.get("a") or "", m.get("b") or "",
                estimate_text(m.get("points_per_deal"), "points", True)]
            if games:
                row += [estimate_text(m.get("win_rate"), "share"),
                        estimate_text(m.get("elo"), "elo", True)]
            rows.append(row)
        lines += _text_table(headers, rows, aligns)
        lines.append("a against b; 95% intervals in brackets"
                     + (" (win rate and Elo from game pairs)" if games else ""))
    if effects:
        holm = _holm_used(summary)
        headers = ["arm", "metric", "estimate", "95% CI", "p"]
        aligns = ["l", "l", "r", "r", "r"]
        if holm:
            headers.append("Holm p")
            aligns.append("r")
        rows = []
        for arm in _in_order(e.get("arm") for e in effects):
            if rows:
                rows.append(None)
            mine = {e.get("metric"): e for e in effects if e.get("arm") == arm}
            for metric in _key_metrics(summary, list(mine)):
                e = mine[metric]
                kind = metric_kind(metric)
                row = [arm, metric, _point(e, kind, True),
                       "identical" if _identical(e) else _ci(e, kind, True),
                       _fmt_p(e.get("p_value"))]
                if holm:
                    row.append(_fmt_p(e.get("holm_p")))
                rows.append(row)
        if matches:
            lines.append("")
        lines += _text_table(headers, rows, aligns)
    if not matches and not effects:
        means = [r for r in _rows(summary, "means") if _est_ok(r)]
        rows = []
        for arm in _in_order(r.get("arm") for r in means):
            mine = {r.get("metric"): r for r in means if r.get("arm") == arm}
            for metric in _key_metrics(summary, list(mine)):
                kind = metric_kind(metric)
                rows.append([arm, metric, _point(mine[metric], kind),
                             _ci(mine[metric], kind)])
        if rows:
            lines += _text_table(["arm", "metric", "mean", "95% CI"], rows,
                                 ["l", "l", "r", "r"])
        else:
            lines.append("no estimates")
    sprt = summary.get("sprt")
    if isinstance(sprt, dict):
        lines.append("")
        lines.append(_wrap(_sprt_sentence(summary, sprt), 100))
    return "\n".join(lines)


def _wrap(text, width) -> str:
    """``text`` wrapped at ``width`` columns."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


# --- files -------------------------------------------------------------------------------------

def write_report(summary: dict, folder, extra=None) -> list:
    """Write ``folder/report.md``, ``folder/report.html`` and ``folder/plots/*.png`` (and
    ``extra`` {name: bytes}, moved into place last) as one unit
    (canasta_sim.study.publish): after a failure the folder holds the old files or the new
    ones, never a mix.  Returns the paths of the report written (plots first)."""
    from canasta_sim.study.publish import publish

    files = report_files(summary)
    count = len(files)
    files.update(extra or {})
    return publish(folder, files)[:count]


def report_files(summary: dict) -> dict:
    """{path relative to the study folder: bytes} of the report: plots, report.md,
    report.html."""
    from canasta_sim.study.plots import make_plots

    pngs = make_plots(summary)
    files = {f"plots/{name}.png": data for name, data in pngs.items()}
    plot_files = {name: f"plots/{name}.png" for name in pngs}
    files["report.md"] = render_markdown(summary, plot_files).encode()
    files["report.html"] = render_html(summary, pngs).encode()
    return files
