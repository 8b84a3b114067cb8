"""What the study plots show (issue 26, point 4) and what a run says while it waits (point 5).

The plots are checked by their figures (axes, titles, scales, tick labels), not by pixels;
the lines by capturing stderr of the functions that print them, with no kernel compiled.
"""
import importlib
import io
import json
import re
import sys
import time
import types

import pytest
import study_fixtures

from canasta_sim import _cache
from canasta_sim.study import plots

report = importlib.import_module("canasta_sim.study.report")


def _summary(name):
    """A fixture summary as it comes back from summary.json."""
    return json.loads(json.dumps(study_fixtures.ALL[name](), allow_nan=False))


def _rows_top_down(ax):
    """The y tick labels of an axis from the top down."""
    ticks = sorted(zip(ax.get_yticks(), ax.get_yticklabels()), key=lambda t: -t[0])
    return [label.get_text() for _, label in ticks]


def _titles(fig):
    """The left titles of a figure's visible axes (colorbars have none)."""
    return [ax.get_title(loc="left") for ax in fig.axes if ax.get_visible()]


# --- the lead panel ----------------------------------------------------------------------------

def test_lead_is_one_panel_of_relative_effects_of_the_lead_metrics():
    summary = _summary("crn-deal")
    lead = plots.lead_metrics(summary)
    assert 1 <= len(lead) <= plots.LEAD_LIMIT
    assert "score_diff" not in lead  # a difference near 0 has no relative effect
    figures = plots.make_figures(summary)
    fig = figures["lead"]
    (ax,) = fig.axes
    assert _rows_top_down(ax) == lead  # the first lead metric on top
    assert "relative effect" in ax.get_xlabel() and "%" in ax.get_xlabel()
    # every arm of every lead metric is one marker with an error bar
    arms = {e["arm"] for e in summary["effects"]}
    assert len(ax.containers) == len(lead) * len(arms)


def test_lead_ranks_by_relative_effect_and_reads_the_answer():
    summary = _summary("crn-deal")
    means = plots._baseline_means(summary)

    def biggest(metric):
        return max(abs(plots.relative_effect(summary, e, means)[0])
                   for e in summary["effects"] if e["metric"] == metric)

    lead = plots.lead_metrics(summary, limit=10)
    significant = [m for m in lead if any(
        (lambda r: r[1] > 0 or r[2] < 0)(plots.relative_effect(summary, e, means))
        for e in summary["effects"] if e["metric"] == m)]
    assert lead[:len(significant)] == significant  # clear effects first ...
    assert [biggest(m) for m in significant] == sorted(map(biggest, significant),
                                                       reverse=True)  # ... largest first
    # the answer's lead effects (study/answer.py) lead the panel, in the answer's order; a
    # side difference in the answer (no relative effect) is left out of the panel
    summary["answer"] = {"lead": [{"metric": "turns"}, {"metric": "score_diff"},
                                  {"metric": "went_out"}, {"metric": "turns"}]}
    assert plots.lead_metrics(summary) == ["turns", "went_out"]
    ax = plots.make_figures(summary)["lead"].axes[0]
    assert _rows_top_down(ax) == ["turns", "went_out"]
    chosen = plots.make_figures(summary, lead=["s0_score"])["lead"].axes[0]
    assert _rows_top_down(chosen) == ["s0_score"]


def test_relative_effect_without_a_bootstrap_divides_by_the_baseline_mean():
    summary = _summary("crn-deal")
    effect = next(e for e in summary["effects"] if e["metric"] == "stock_left")
    effect["relative"] = None
    base = next(m["estimate"] for m in summary["means"]
                if m["metric"] == "stock_left" and m["arm"] == effect["baseline"])
    est, low, high = plots.relative_effect(summary, effect)
    assert est == pytest.approx(effect["estimate"] / base)
    assert (low, high) == pytest.approx((effect["ci_low"] / base, effect["ci_high"] / base))


# --- the forest grid, folded, without panels zero by construction ------------------------------

def test_forest_has_no_panel_for_a_metric_zero_by_construction():
    summary = _summary("crn-deal")
    for effect in summary["effects"]:
        if effect["metric"] == "score_diff":  # e.g. a side difference of a symmetric match
            effect.update(estimate=0.0, ci_low=0.0, ci_high=0.0, relative=None)
    assert plots.zero_by_construction(summary, "score_diff")
    assert not plots.zero_by_construction(summary, "turns")
    titles = _titles(plots.make_figures(summary)["forest"])
    assert not any(t.startswith("score_diff") for t in titles)
    assert any(t.startswith("turns") for t in titles)
    assert "score_diff" not in plots.lead_metrics(summary, limit=99)


def test_one_arm_equal_to_the_baseline_keeps_the_panels_of_the_others():
    summary = _summary("crn-deal")
    for effect in summary["effects"]:
        if effect["arm"] == "draw1":
            effect.update(estimate=0.0, ci_low=None, ci_high=None, relative=None)
    assert not plots.zero_by_construction(summary, "turns")
    assert any(t.startswith("turns") for t in _titles(plots.make_figures(summary)["forest"]))


def test_the_report_leads_with_the_panel_and_folds_the_grid(tmp_path):
    summary = _summary("crn-deal")
    report.write_report(summary, tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    lead, forest = page.index('id="plot-lead"'), page.index('id="plot-forest"')
    folded = page.rindex("<details>", 0, forest)
    assert lead < folded < forest and "show the forest plot" in page[folded:forest]
    assert page.rfind("</details>", 0, forest) < folded  # the forest sits inside it
    assert md.index("![lead]") < md.index("![forest]")
    assert "Relative effects of the lead metrics" in md


# --- sweeps ------------------------------------------------------------------------------------

@pytest.mark.parametrize("values, axis", [
    ([11, 12, 13, 14, 15], "linear"),
    ([0.5, 1.0, 1.5], "linear"),
    ([1, 2, 4, 8, 16], "log"),
    ([10, 100, 1000], "log"),
    ([1, 2, 3, 50], "categorical"),
    ([0, 1, 10, 100], "categorical"),  # uneven, and 0 has no logarithm
    ([False, True], "categorical"),
    (["a", "b"], "categorical"),
    ([3, 7], "linear"),
])
def test_sweep_axis(values, axis):
    assert plots.sweep_axis(values) == axis


def _swept(values, baseline_in_sweep=True):
    """The game sweep fixture with the swept values replaced (and the baseline outside the
    sweep when asked)."""
    summary = _summary("game-sweep")
    summary["sweeps"][0]["values"] = values
    if not baseline_in_sweep:
        summary["sweeps"][0]["arms"] = summary["sweeps"][0]["arms"][1:]
        summary["sweeps"][0]["values"] = values[1:]
    return summary


def test_a_sweep_with_uneven_values_is_drawn_on_a_log_or_categorical_axis():
    log = plots.make_figures(_swept([1, 2, 4, 8, 16]))["sweep-rules.hand_size"]
    for ax in log.axes:
        assert ax.get_xscale() == "log"
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "4", "8", "16"]
    floats = plots.make_figures(_swept([2.0, 4.0, 8.0, 16.0, 32.0]))["sweep-rules.hand_size"]
    assert [t.get_text() for t in floats.axes[0].get_xticklabels()] == \
        ["2", "4", "8", "16", "32"]
    uneven = plots.make_figures(_swept([11, 12, 13, 14, 40]))["sweep-rules.hand_size"]
    for ax in uneven.axes:
        assert ax.get_xscale() == "linear"
        assert list(ax.get_xticks()) == [0, 1, 2, 3, 4]  # equally spaced categories
        assert [t.get_text() for t in ax.get_xticklabels()] == ["11", "12", "13", "14", "40"]
    even = plots.make_figures(_summary("game-sweep"))["sweep-rules.hand_size"]
    assert list(even.axes[0].get_xticks()) == [11, 12, 13, 14, 15]


def test_the_sweep_marks_the_baseline_as_its_caption_says():
    summary = _summary("game-sweep")
    fig = plots.make_figures(summary)["sweep-rules.hand_size"]
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert "baseline (hand_size=11)" in labels
    caption = report._caption("sweep-rules.hand_size", summary)
    assert "hollow marker is the baseline, hand_size=11" in caption
    outside = _swept([11, 12, 13, 14, 15], baseline_in_sweep=False)
    fig = plots.make_figures(outside)["sweep-rules.hand_size"]
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert "no change (hand_size=11, the baseline)" in labels
    assert not any(label.startswith("baseline") for label in labels)
    caption = report._caption("sweep-rules.hand_size", outside)
    assert "dashed line at zero is the baseline, hand_size=11" in caption
    assert "logarithmic" in report._caption("sweep-rules.hand_size", _swept([1, 2, 4, 8, 16]))
    assert "not to scale" in report._caption("sweep-rules.hand_size",
                                             _swept([1, 2, 3, 4, 50]))


# --- wide tables -------------------------------------------------------------------------------

def test_a_table_of_many_arms_is_split_and_long_names_can_wrap():
    summary = _summary("game-sweep")
    first = summary["arms"][0]["name"]
    means = [r for r in summary["means"] if r["arm"] == first]
    balance = next(b for b in summary["balance"] if b["arm"] == first)
    names = [f"b3f.hand_size-{k}.upcard_red3_freezes-true" for k in range(11, 26)]  # 15 arms
    summary["arms"] = [dict(summary["arms"][0], name=n) for n in names]
    summary["means"] = [dict(r, arm=n) for n in names for r in means]
    summary["balance"] = [dict(balance, arm=n) for n in names]
    for key in ("means", "balance"):
        blocks = (report._wide_blocks(summary, key, "intro") if key == "means"
                  else report._balance_blocks(summary))
        tables = [b for b in blocks if b[0] == "table"]
        assert len(tables) == 3, key
        shown = [h for t in tables for h in t[1] if h in names]
        assert shown == names  # every arm once, in order
        for table in tables:
            assert len([h for h in table[1] if h in names]) <= report.ARMS_PER_TABLE
            assert all(len(row) == len(table[1]) for row in table[2] if row is not None)
    tables = [b for b in report._wide_blocks(summary, "means", "") if b[0] == "table"]
    assert "method" not in tables[0][1] and tables[-1][1][-2:] == ["n", "method"]
    page = report.render_html(summary, {})
    assert "b3f.<wbr>hand_<wbr>size-<wbr>11.<wbr>" in page
    assert re.search(r"td\.r \{ white-space: nowrap; \}", page)


# --- lines while a run waits -------------------------------------------------------------------

@pytest.fixture
def fresh_state(monkeypatch):
    """The cache's state of a process that has compiled nothing yet."""
    state = dict(_cache.STATE, noted=False, started=None, seconds=0.0, said=False,
                 ticker=None, reason="")
    monkeypatch.setattr(_cache, "STATE", state)
    return state


def test_a_compile_ends_with_a_line_giving_its_seconds(fresh_state, monkeypatch, capsys):
    clock = iter([100.0, 197.4, 197.4, 197.4])
    monkeypatch.setattr(_cache, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    _cache.note_compiling()
    _cache.note_compiling()  # a callee: the same compile
    assert capsys.readouterr().err == _cache.COMPILE_NOTE + "\n"
    assert _cache.say_compiled() == pytest.approx(97.4)
    assert capsys.readouterr().err == "canasta-sim: compiled the kernels in 97.4 s\n"
    assert _cache.say_compiled() == pytest.approx(97.4)
    assert capsys.readouterr().err == ""  # said once
    assert _cache.compile_words() == "97 s compiling the kernels"
    assert _cache.compile_words(97.4) == ""  # nothing compiled since


def test_no_compile_no_line(fresh_state, capsys):
    assert _cache.say_compiled() == 0.0
    assert capsys.readouterr().err == "" and _cache.compile_words() == ""


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self):
        return True


def test_on_a_terminal_the_compile_line_counts_the_seconds(fresh_state, monkeypatch):
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(_cache, "TICK_SECONDS", 0.01)
    _cache.note_compiling()
    time.sleep(0.2)
    _cache.note_compiled()
    text = err.getvalue()
    first, rest = text.split("\n", 1)
    assert first == _cache.COMPILE_NOTE  # as in a log
    ticks = rest.split("\r")[1:]
    assert len(ticks) >= 3 and ticks[1].startswith("canasta-sim: compiling... ")
    assert all(len(t) < 80 for t in ticks)  # never wraps on a terminal 80 columns wide
    assert re.fullmatch(r"canasta-sim: compiled the kernels in \d+\.\d s\033\[K\n", ticks[-1])
    assert _cache.compile_seconds() >= 0.2
    time.sleep(0.05)
    assert err.getvalue() == text  # the ticker has stopped
    assert _cache.say_compiled() >= 0.2 and err.getvalue() == text  # said once


def test_the_closing_line_of_a_run_counts_the_compile(fresh_state, monkeypatch):
    from canasta_sim import cli
    from canasta_sim.study import cli as study_cli

    assert cli._counting_compile("10 deals -> x.parquet", 0.0) == "10 deals -> x.parquet"
    monkeypatch.setitem(_cache.STATE, "seconds", 97.0)
    assert cli._counting_compile("10 deals -> x.parquet", 0.0) == \
        "10 deals -> x.parquet (after 97 s compiling the kernels)"
    assert study_cli._times(130.0, 97.2, 97.0, 30.0, 3.0) == \
        "2.2 min in all: 97 s compiling the kernels, 30.0 s playing, 3.0 s writing the report"
    assert study_cli._times(37.0, 4.0, 0.0, 30.0, 3.0) == \
        "37 s in all: 4.0 s loading the kernels, 30.0 s playing, 3.0 s writing the report"


def test_a_study_run_says_it_writes_the_report_and_where_the_time_went(tmp_path):
    """Point 5, end to end: the line while the report is written (stderr) and the closing
    line with the seconds of each part (with the compile when this process compiled the
    kernels here)."""
    from click.testing import CliRunner

    from canasta_sim.cli import cli

    try:
        runner = CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        runner = CliRunner()
    out = tmp_path / "two"
    result = runner.invoke(cli, ["compare", "--rules", "classic", "--rules",
                                 "classic(black_three_freezes=true)", "--deals", "200",
                                 "--out", str(out), "--quiet"])
    assert result.exit_code == 0, (result.output, result.stderr, result.exception)
    assert "canasta-sim: writing the report (summary.json, report.md, report.html, " \
        "plots)..." in result.stderr
    closing = result.stdout.strip().splitlines()[-1]
    assert closing.startswith(f"report: {out / 'report.html'} (and report.md, summary.json); ")
    assert re.search(r"in all: (\d+ s compiling|[\d.]+ s loading) the kernels, [\d.]+ s "
                     r"playing, [\d.]+ s writing the report$", closing), closing
    assert (out / "report.html").exists() and (out / "plots" / "lead.png").exists()
