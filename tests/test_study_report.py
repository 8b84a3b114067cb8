"""The study report (canasta_sim.study.report / .plots) rendered from example summaries.

Each example of tests/study_fixtures.py is written once per session (plots are the slow
part, about a second each); the tests then read the files.
"""
import base64
import copy
import importlib
import json
import os
import re
import subprocess
import sys

import pytest
import study_fixtures

from canasta_sim.study.plots import make_plots

# canasta_sim.study has a lazy *function* named report (summary.report); take the module
report = importlib.import_module("canasta_sim.study.report")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
EXPECTED_PLOTS = {
    "crn-deal": {"lead", "forest", "duration"},
    "game-sweep": {"lead", "forest", "sweep-rules.hand_size", "duration", "leader-wins"},
    "duplicate": {"matrix", "duration", "leader-wins"},
    "sprt": {"lead", "forest", "duration"},
    "duplicate-deal": {"matrix", "duration"},
}
NULL_WORDS = re.compile(r"\b(None|nan|NaN|null|inf)\b")
DATA_URI = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


def _summary(name):
    """A fixture summary as it comes back from summary.json."""
    return json.loads(json.dumps(study_fixtures.ALL[name](), allow_nan=False))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """name -> (summary, folder, paths written) for every example, rendered once."""
    out = {}
    for name in study_fixtures.ALL:
        summary = _summary(name)
        folder = tmp_path_factory.mktemp(name)
        out[name] = (summary, folder, report.write_report(summary, folder))
    return out


def _read(folder):
    """(report.md text, report.html text)."""
    return ((folder / "report.md").read_text(encoding="utf-8"),
            (folder / "report.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_every_file_is_written_and_returned(written, name):
    summary, folder, paths = written[name]
    expected = {str(folder / "report.md"), str(folder / "report.html")}
    expected |= {str(folder / "plots" / f"{p}.png") for p in EXPECTED_PLOTS[name]}
    assert {os.fspath(p) for p in paths} == expected
    for path in paths:
        assert os.path.getsize(path) > 0


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_plots_that_apply_exist_and_are_pngs(written, name):
    _, folder, _ = written[name]
    found = {p[:-4] for p in os.listdir(folder / "plots")}
    assert found == EXPECTED_PLOTS[name]
    for plot in found:
        data = (folder / "plots" / f"{plot}.png").read_bytes()
        assert data.startswith(PNG_MAGIC)
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert 400 <= width <= 1400 and 200 <= height <= 2000, (plot, width, height)


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_no_temporary_or_stray_files(written, name):
    _, folder, paths = written[name]
    every = {os.path.join(root, f) for root, _, files in os.walk(folder) for f in files}
    assert every == {os.fspath(p) for p in paths}
    assert not [f for f in every if os.path.basename(f).startswith(".") or f.endswith(".tmp")]


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_html_is_self_contained(written, name):
    _, folder, _ = written[name]
    _, page = _read(folder)
    assert not re.search(r"(src|href)\s*=\s*[\"']?\s*(https?:)?//", page, re.I)
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page.lower() and "<link" not in page.lower()
    assert "@import" not in page and "url(" not in page
    sources = re.findall(r'<img[^>]*\ssrc="([^"]*)"', page)
    assert len(sources) == len(EXPECTED_PLOTS[name])
    embedded = set()
    for src in sources:
        assert src.startswith("data:image/png;base64,")
        embedded.add(base64.b64decode(src.split(",", 1)[1]))
    on_disk = {(folder / "plots" / f"{p}.png").read_bytes() for p in EXPECTED_PLOTS[name]}
    assert embedded == on_disk


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_markdown_links_every_plot_with_a_caption(written, name):
    _, folder, _ = written[name]
    md, page = _read(folder)
    for plot in EXPECTED_PLOTS[name]:
        assert f"![{plot}](plots/{plot}.png)" in md
        assert f'id="plot-{plot}"' in page
    assert md.count("95%") >= 3
    assert page.count("<figcaption>") == len(EXPECTED_PLOTS[name])


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_nulls_never_show(written, name):
    _, folder, _ = written[name]
    for text in _read(folder):
        assert not NULL_WORDS.search(DATA_URI.sub("", text))


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_provenance_appears(written, name):
    summary, folder, _ = written[name]
    study = summary["study"]
    for text in _read(folder):
        text = text.replace("<wbr>", "")      # a long name may wrap in HTML; it reads the same
        for value in (study["command"], study["spec_hash"], study["kernels_hash"],
                      study["created"], study["versions"]["numba"], str(study["seed"])):
            assert value in text
        for arm in summary["arms"]:
            assert arm["name"] in text and arm["rules"] in text and arm["policies"] in text


def _order(text, *needles):
    """True when every needle occurs, in this order."""
    positions = [text.find(n) for n in needles]
    return -1 not in positions and positions == sorted(positions)


def test_sections_come_in_order(written):
    md, _ = _read(written["crn-deal"][1])
    # what a reader looks for first; the long tables after; provenance last
    assert _order(md, "# Study rule-variants", "arm b3f changes",
                  "## Effects against the baseline", "## Plots", "![forest]", "## Balance",
                  "## Every metric against the baseline", "## Means per arm",
                  "## Medians per arm", "## Notes", "## Provenance", "canasta-sim study run")
    md, _ = _read(written["duplicate"][1])
    assert _order(md, "# Study policy-tournament", "## Duplicate matches", "## Plots",
                  "## Balance", "## Notes", "## Provenance")
    assert "## Effects against the baseline" not in md
    md, page = _read(written["sprt"][1])
    assert _order(md, "## Sequential test", "## Effects", "## Plots", "## Balance", "## Notes")
    assert "<details><summary>" in page


def test_crn_key_numbers_and_holm(written):
    summary, folder, _ = written["crn-deal"]
    md, page = _read(folder)
    for text in (md, page):
        # b3f on score_diff: -12.3 points with its interval, in the answer and the table
        # the answer leads with the rule effects, largest relative change first
        assert "Against classic, with expert at every seat, arm b3f changes" in text
        assert "turns per deal by +4.6% (+1.90 turns, 95% CI +1.87 to +1.93)" in text
        assert "-15.5 to -9.1" in text
        assert "Holm adjustment was used" in text and "Holm p" in text
        assert "Holm 95% CI" in text
        assert "arm draw1 changes turns per deal by +18.9%" in text
        assert "<0.001" in text.replace("&lt;", "<")
        assert "200,000" in text
        assert "99.40%" in text  # classic went_out, a share as a percentage
        assert "27 / 41 / 56" in text  # turns p10 / p50 / p90
    # game-only balance rows are skipped in a deal study
    for words in ("leader after deal", "deals per game", "lead changes", "drawn games"):
        assert words not in md


def test_one_comparison_needs_no_holm(written):
    md, page = _read(written["sprt"][1])
    for text in (md, page):
        assert "no Holm adjustment was needed" in text
        assert "Holm p" not in text


def test_sweep_and_game_balance(written):
    summary, folder, _ = written["game-sweep"]
    md, page = _read(folder)
    for text in (md, page):
        assert "Over rules.hand_size = 11, 12, 13, 14, 15" in text
        assert "the best value is 11" in text and "at the edge of the grid" in text
        assert "leader after deal 4 wins" in text and "92.0%" in text
        assert "lead changes per game" in text and "cut-off games" in text
        assert "rules.hand_size=15" in text
        assert "1,510.0" in text  # final margin
    assert "Sweep over rules.hand_size" in md


def test_duplicate_matches(written):
    summary, folder, _ = written["duplicate"]
    md, page = _read(folder)
    for text in (md, page):
        assert "Rating ladder of 3 policies (Elo, one joint fit of 3 matches" in text
        assert "72.1%" in text and "+165" in text and "+151.3" in text
        assert ">99.9%" in text.replace("&gt;", ">")  # LOS
        counts = summary["matches"][0]["pentanomial"]
        assert " / ".join(f"{c:,}" for c in counts) in text
        assert "Effects against the baseline" not in text
    assert "Tournament matrix" in md


def test_duplicate_deal_study(written):
    md, page = _read(written["duplicate-deal"][1])
    for text in (md, page):
        assert ("Rating ladder of 3 policies (points per deal, one joint fit of 3 "
                "matches") in text
        assert "+151.3" in text and "+139.5" in text
        assert "win rate" not in text.split("## Plots")[0].split("Duplicate matches")[1]
        assert "Elo" not in text
    assert "row policy's points per deal" in md


def test_sprt_box(written):
    md, page = _read(written["sprt"][1])
    for text in (md, page):
        assert "+3.12" in text and "-2.94" in text and "+2.94" in text
        assert "H1 accepted" in text and "biased away from the bound" in text
        assert "stopped early" in text
        assert "400,000 planned" in text
    assert '<div class="box">' in page
    assert "> - **log-likelihood ratio**" in md


@pytest.mark.parametrize("name", sorted(study_fixtures.ALL))
def test_main_table_fits_a_terminal(name):
    summary = _summary(name)
    table = report.main_table(summary)
    assert max(len(line) for line in table.splitlines()) <= 100
    assert not NULL_WORDS.search(table)
    if summary["matches"]:
        assert "+151.3 [+139.5, +163.1]" in table
        if summary["study"]["unit"] == "game":
            assert "72.1% [70.8, 73.4]" in table and "+165 [+154, +176]" in table
    else:
        first = next(e for e in summary["effects"] if e["metric"] == "score_diff")
        assert first["arm"] in table and "score_diff" in table


def test_main_table_keeps_long_names_whole():
    """Names are never cut (issue 27: 'shed_high-vs-gr…'); the numbers stay in their
    columns."""
    summary = _summary("duplicate")
    for match in summary["matches"]:
        match["arm"] = "tournament-" + "x" * 80
        match["a"] = "expert,expert-with-a-very-long-parameter-list(danger=4,freeze_at=16)"
    table = report.main_table(summary)
    assert "tournament-" + "x" * 80 in table and "…" not in table
    assert "expert,expert-with-a-very-long-parameter-list(danger=4,freeze_at=16)" in table
    assert "72.1% [70.8, 73.4]" in table


def _nulled():
    """The crn example with many optional fields null, missing or NaN."""
    summary = _summary("crn-deal")
    summary["study"]["seed"] = None
    summary["study"]["kernels_hash"] = None
    summary["study"]["versions"]["pyarrow"] = None
    summary["effects"][0]["p_value"] = None
    summary["effects"][0]["relative"] = None
    summary["effects"][1]["correlation"] = float("nan")
    summary["effects"][1]["variance_reduction"] = None
    summary["effects"][2]["ci_low"] = None
    summary["effects"][3]["holm_p"] = None
    summary["means"][0]["ci_high"] = None
    summary["means"][1]["estimate"] = None
    summary["medians"] = None
    summary["balance"][0]["turns"] = None
    summary["balance"][1]["end_reasons"] = None
    summary["balance"][2]["first_player_advantage"] = {"estimate": None, "ci_low": None,
                                                       "ci_high": None, "n": 0,
                                                       "method": "mean-normal", "se": None}
    summary["distributions"]["b3f"] = None
    del summary["sweeps"]
    summary["notes"] = None
    return summary


def test_nulls_and_missing_fields_are_skipped(tmp_path):
    summary = _nulled()
    paths = report.write_report(summary, tmp_path)
    assert (tmp_path / "plots" / "forest.png").exists()
    md, page = _read(tmp_path)
    for text in (md, page, report.main_table(summary)):
        assert not NULL_WORDS.search(DATA_URI.sub("", text))
    assert "## Medians" not in md and "Holm adjustment used: 2 arms" not in md
    assert "How the 95% intervals were computed" in md  # the methods still are explained
    assert len(paths) == 5 and (tmp_path / "plots" / "lead.png").exists()


def test_a_summary_with_almost_nothing():
    summary = {"schema": study_fixtures.SCHEMA, "study": {"name": "empty", "design": "crn",
                                                         "unit": "deal"},
               "arms": [], "means": [], "effects": [], "medians": [], "matches": [],
               "balance": [], "distributions": {}, "sweeps": [], "sprt": None, "notes": []}
    assert make_plots(summary) == {}
    md = report.render_markdown(summary, {})
    page = report.render_html(summary, {})
    assert md.startswith("# Study empty")
    assert "<h1>Study empty" in page
    for text in (md, page, report.main_table(summary)):
        assert not NULL_WORDS.search(text)


def test_a_failing_plot_leaves_nothing_half_written(tmp_path, monkeypatch):
    summary = _summary("sprt")
    real_replace = os.replace

    def failing_replace(src, dst):
        if str(dst).endswith(".png"):
            raise OSError("disk full")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        report.write_report(summary, tmp_path)
    left = [f for _, _, files in os.walk(tmp_path) for f in files]
    assert left == []


def test_rewriting_replaces_the_files(tmp_path):
    summary = _summary("sprt")
    first = report.write_report(summary, tmp_path)
    summary["study"]["name"] = "renamed"
    second = report.write_report(summary, tmp_path)
    assert first == second
    assert (tmp_path / "report.md").read_text(encoding="utf-8").startswith("# Study renamed")
    assert not [f for _, _, files in os.walk(tmp_path) for f in files if f.endswith(".tmp")]


def test_formatting_for_people():
    assert report._fmt_p(0.0004) == "<0.001"
    assert report._fmt_p(0.0031) == "0.003"
    assert report._fmt_p(0.4712) == "0.47"
    assert report._fmt(-12.345, "points", diff=True) == "-12.3"
    assert report._fmt(-0.0001, "points", diff=True) == "0.0"
    assert report._fmt(0.9941, "share") == "99.4%"
    assert report._fmt(-0.012, "share", diff=True) == "-1.2 pp"
    assert report._fmt(1510.0, "points") == "1,510.0"
    assert report._fmt(float("nan"), "points") == ""
    assert report._fmt(None, "points") == ""
    assert report.metric_kind("went_out") == "share"
    assert report.metric_kind("s1_red3_points") == "points"
    assert report.metric_kind("s0_pile_takes") == "count"


def test_copying_the_summary_is_not_needed():
    summary = _summary("game-sweep")
    before = copy.deepcopy(summary)
    report.render_markdown(summary, {})
    report.main_table(summary)
    make_plots(summary)
    assert summary == before


def test_importing_the_report_does_not_import_matplotlib():
    code = ("import sys, canasta_sim.study.report, canasta_sim.study.plots; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_arm_identical_to_the_baseline_and_summary_extras():
    summary = _summary("crn-deal")
    summary["study"]["units_played"] = 200_000          # a plain count is accepted too
    summary["study"]["shard_size"] = 65536              # extra keys are ignored
    summary["study"]["key_metrics"] = ["s0_score", "turns"]
    for effect in summary["effects"]:
        if effect["arm"] == "draw1":
            effect.update(estimate=0.0, ci_low=None, ci_high=None, se=None, p_value=None,
                          holm_p=None, holm_ci_low=None, holm_ci_high=None, relative=None,
                          correlation=1.0, variance_reduction=None)
    md = report.render_markdown(summary, {})
    assert "arm draw1 gives exactly the same results on every paired deal" in md
    assert "200,000 deals per arm" in md
    table = report.main_table(summary)
    assert "identical" in table
    lines = table.splitlines()
    below = lines[next(i for i, line in enumerate(lines) if line.startswith("arm ")) + 2:]
    metrics = {line.split()[1] for line in below if line.strip()}
    assert metrics == {"s0_score", "turns"}
    for text in (md, report.render_html(summary, {}), table):
        assert not NULL_WORDS.search(text)


def test_plots_for_a_boolean_sweep_and_a_three_sided_match():
    summary = _summary("crn-deal")
    summary["sweeps"] = [{"parameter": "rules.black_three_freezes", "arms": ["draw1", "b3f"],
                          "values": [False, True]}]
    plots = make_plots(summary)
    assert plots["sweep-rules.black_three_freezes"].startswith(PNG_MAGIC)
    tournament = _summary("duplicate")
    for arm, match in zip(tournament["arms"], tournament["matches"]):
        arm["lineups"] = [match["a"], match["b"], "greedy"]
        match["b"] = f"{match['b']} + greedy"
    assert "matrix" not in make_plots(tournament)


def test_policy_labels_are_short_enough_for_an_axis():
    """A user policy's full name (path, function, source hash) is shown as file:function, and
    long names are cut, so a matrix of policies keeps room for its cells."""
    from canasta_sim.study.plots import policy_label

    assert policy_label("/home/u/work/my_bots.py:pile_hungry@e1892f11aa") == \
        "my_bots.py:pile_hungry"
    assert policy_label(r"C:\bots\b.py:f@12") == "b.py:f"
    assert policy_label("greedy") == "greedy"
    long = policy_label("careful(freeze_at=4,danger=2.5,want_canastas=3)")
    assert len(long) == 28 and long.endswith("…")


def test_a_duplicate_win_rate_test_reads_as_a_rate_in_the_sprt_box():
    """A duplicate match's sequential test is on lineup a's own win rate: its hypotheses and
    the estimate at the stop read 50.0% and 55.0%, never +50.0 pp; a crn test on a share
    is a difference and reads in percentage points."""
    summary = study_fixtures.duplicate_tournament()
    summary["sprt"] = {"metric": "win_rate", "h0": 0.5, "h1": 0.55, "alpha": 0.05,
                       "beta": 0.05, "llr": 3.1, "lower": -2.94, "upper": 2.94,
                       "decision": "H1", "units": 400, "stopped_early": True,
                       "estimate": {"estimate": 0.718, "ci_low": 0.68, "ci_high": 0.75}}
    box = str(report._sprt_blocks(summary))
    assert "H0: 50.0%, H1: 55.0%" in box and "71.8%" in box and " pp" not in box
    crn = study_fixtures.sprt_early_stop()
    crn["sprt"] = {**crn["sprt"], "metric": "went_out", "h0": 0.0, "h1": 0.05}
    assert "H1: +5.0 pp" in str(report._sprt_blocks(crn))
