"""The answer of a study (canasta_sim.study.answer): the first line answers the study's
question and summary.json records it as data; --games N plays N games everywhere.

Most tests read the example summaries of tests/study_fixtures.py (no simulation); the last
ones play tiny studies through ``compare`` and check what the texts say against what was
played.
"""
import json

import numpy as np
import pyarrow as pa
import pytest
import study_fixtures
from click.testing import CliRunner

from canasta_sim.errors import BadInput
from canasta_sim.study import catalogue, report
from canasta_sim.study.answer import build_answer, first_line, rating_ladder, size_words


def _summary(name):
    """A fixture summary as it comes back from summary.json."""
    return json.loads(json.dumps(study_fixtures.ALL[name](), allow_nan=False))


def _effect(metric, arm, estimate, half, relative=None, baseline="classic"):
    """An effect row with a 95% interval (and a relative change)."""
    row = {"metric": metric, "arm": arm, "baseline": baseline, "estimate": estimate,
           "ci_low": estimate - half, "ci_high": estimate + half, "n": 200_000,
           "method": "paired-normal", "se": half / 1.96, "p_value": 0.001,
           "relative": None}
    if relative is not None:
        row["relative"] = {"estimate": relative, "ci_low": relative - 0.01,
                           "ci_high": relative + 0.01, "n": 200_000, "method": "bootstrap-bca"}
    return row


def _rule_change():
    """b3f against classic, greedy at every seat: pile takes -74%, points -16%, and a
    score_diff effect inside the noise (the issue's example)."""
    summary = _summary("crn-deal")
    summary["arms"] = [a for a in summary["arms"] if a["name"] != "draw1"]
    for arm in summary["arms"]:
        arm["policies"] = "greedy,greedy,greedy,greedy"
        arm["lineups"] = ["greedy", "greedy"]
    summary["effects"] = [
        _effect("score_diff", "b3f", 0.6, 3.0),
        _effect("total_score", "b3f", -150.0, 5.0, relative=-0.16),
        _effect("total_pile_takes", "b3f", -1.2, 0.02, relative=-0.74),
        _effect("turns", "b3f", 1.9, 0.03, relative=0.046),
        _effect("went_out", "b3f", -0.003, 0.0005, relative=-0.003),
        _effect("first_player_advantage", "b3f", 1.0, 3.0),
    ]
    summary["means"] += [{"metric": "total_score", "arm": "classic", "estimate": 940.0,
                          "ci_low": 935.0, "ci_high": 945.0, "n": 200_000,
                          "method": "mean-normal"}]
    return summary


# --------------------------------------------------------------------------------------------
# The catalogue and the metrics
# --------------------------------------------------------------------------------------------

def test_total_score_and_pile_takes_are_catalogued():
    for name in ("total_score", "total_pile_takes"):
        assert name in catalogue.CATALOGUE
        assert name in catalogue.deal_metric_names(2)
        assert name in catalogue.RULE_EFFECTS
    assert catalogue.metric_kind("total_score") == "points"
    assert catalogue.metric_label("total_score") == "all sides' points per deal together"


def test_total_score_is_every_sides_points_added_up():
    from canasta_sim.kernels.game import layout

    from canasta_sim.study.metrics import deal_columns

    rng = np.random.default_rng(1)
    rows, sides = 50, 3
    columns = {name: rng.integers(0, 40, rows) for name in catalogue.DEAL_SCALARS}
    for name in catalogue.side_metrics(sides):
        columns[name] = rng.integers(-500, 3000, rows)
    columns["end_reason"] = ["out"] * rows
    columns["dealer"] = rng.integers(0, 6, rows)
    table = pa.table(columns)
    values = deal_columns(table, sides, 6)
    scores = sum(columns[f"s{k}_score"] for k in range(sides))
    takes = sum(columns[f"s{k}_pile_takes"] for k in range(sides))
    assert np.array_equal(values["total_score"], scores.astype(np.float64))
    assert np.array_equal(values["total_pile_takes"], takes.astype(np.float64))
    assert "pile_takes" in layout.SIDE_FIELDS


# --------------------------------------------------------------------------------------------
# The lead of each kind of study
# --------------------------------------------------------------------------------------------

def test_rule_arms_lead_with_the_largest_relative_change_and_name_the_policies():
    summary = _rule_change()
    answer = build_answer(summary)
    assert answer["kind"] == "rule-arms"
    assert [e["metric"] for e in answer["lead"]] == ["total_pile_takes", "total_score",
                                                     "turns"]
    lead = answer["lead"][0]
    assert lead["estimate"] == -1.2 and lead["ci_low"] < lead["ci_high"] < 0
    assert lead["relative"] == -0.74 and "largest relative change" in lead["why"]
    assert answer["policies"] == ["greedy"]
    line = first_line(summary)
    assert line.startswith("Against classic, with greedy at every seat, arm b3f changes pile "
                           "takes per deal (all sides) by -74.0%")
    assert "all sides' points per deal together by -16.0%" in line
    assert "deal-score difference" not in line            # symmetric arms: score_diff waits


def test_score_diff_leads_only_when_the_arms_treat_the_sides_differently():
    summary = _rule_change()
    assert "score_diff" not in [e["metric"] for e in build_answer(summary)["lead"]]
    for arm in summary["arms"]:
        arm["policies"] = "expert,greedy,expert,greedy"
        arm["lineups"] = ["expert", "greedy"]
    for e in summary["effects"]:
        if e["metric"] == "score_diff":
            e.update(estimate=40.0, ci_low=35.0, ci_high=45.0)
    lead = build_answer(summary)["lead"]
    assert "score_diff" in [e["metric"] for e in lead]
    assert "treat the sides differently" in next(e for e in lead
                                                 if e["metric"] == "score_diff")["why"]


def test_one_arm_leads_with_the_balance_figures():
    summary = _summary("crn-deal")
    summary["arms"] = summary["arms"][:1]
    summary["effects"] = []
    summary["means"] = [m for m in summary["means"] if m["arm"] == "classic"]
    summary["balance"] = summary["balance"][:1]
    answer = build_answer(summary)
    assert answer["kind"] == "one-arm"
    metrics = [e["metric"] for e in answer["lead"]]
    assert metrics[:2] == ["first_player_advantage", "first_player_wins_deal"]
    assert "turns" in metrics and "went_out" in metrics
    line = first_line(summary)
    assert line.startswith("Balance of classic with expert at every seat (200,000 deals per "
                           "arm): the first player's advantage in deal score +")


def test_a_sweep_names_its_best_value_and_warns_at_the_edge():
    summary = _summary("game-sweep")
    answer = build_answer(summary)
    assert answer["kind"] == "sweep"
    sweep = answer["sweeps"][0]
    values = summary["sweeps"][0]["values"]
    means = {m["arm"]: m["estimate"] for m in summary["means"]
             if m["metric"] == "first_player_advantage"}
    best_arm = min(summary["sweeps"][0]["arms"], key=lambda a: abs(means[a]))
    assert sweep["best"]["arm"] == best_arm
    assert sweep["at_edge"] == (sweep["best"]["value"] in (values[0], values[-1]))
    assert isinstance(sweep["separable"], bool)
    line = first_line(summary)
    assert f"the best value is {sweep['best']['value']}" in line
    assert ("is not separable from the next best" in line) == (not sweep["separable"])
    assert ("at the edge of the grid" in line) == sweep["at_edge"]
    # the best value in the middle: no warning
    arms = summary["sweeps"][0]["arms"]
    for m in summary["means"]:
        if m["metric"] == "first_player_advantage":
            shift = 0.0 if m["arm"] == arms[2] else 50.0
            m.update(estimate=shift, ci_low=shift - 5, ci_high=shift + 5)
    sweep = build_answer(summary)["sweeps"][0]
    assert sweep["best"]["arm"] == arms[2] and not sweep["at_edge"] and sweep["separable"]
    assert "edge of the grid" not in first_line(summary)


def test_a_match_gives_result_wld_pentanomial_elo_and_los_without_a_baseline():
    summary = _summary("duplicate")
    summary["arms"], summary["matches"] = summary["arms"][:1], summary["matches"][:1]
    summary["study"]["baseline"] = None
    summary["matches"][0]["wld"] = {"wins": 5400, "losses": 2500, "draws": 100}
    answer = build_answer(summary)
    assert answer["kind"] == "match"
    assert answer["lead"][0]["metric"] == "win_rate"
    assert answer["lead"][0]["estimate"] == pytest.approx(0.721)
    line = first_line(summary)
    assert line.startswith("expert beats careful: win rate 72.1% (95% CI")
    for words in ("W/L/D 5,400 / 2,500 / 100 games", "game pairs by a's total",
                  "Elo +165", "LOS >99.9%", "8,000 games per match (4,000 game pairs"):
        assert words in line
    for words in ("baseline", "side 0", "Against"):
        assert words not in line
    table = report.main_table(summary)
    assert "baseline" not in table and "8,000 games planned per match" in table


def test_a_tournament_gives_one_joint_rating_ladder():
    summary = _summary("duplicate")
    answer = build_answer(summary)
    assert answer["kind"] == "tournament"
    ladder = answer["ladder"]
    assert ladder["scale"] == "elo"
    assert [r["policy"] for r in ladder["ratings"]] == ["expert", "careful", "greedy"]
    assert sum(r["rating"] for r in ladder["ratings"]) == pytest.approx(0, abs=1e-9)
    for r in ladder["ratings"]:
        assert r["ci_low"] < r["rating"] < r["ci_high"]
    assert [e["policy"] for e in answer["lead"]] == ["expert", "careful", "greedy"]
    assert len(answer["matrix"]) == 3
    assert first_line(summary).startswith("Rating ladder of 3 policies (Elo, one joint fit "
                                          "of 3 matches, 95% CI): expert +")


def test_the_ladder_recovers_consistent_differences_exactly():
    truth = {"a": 100.0, "b": 20.0, "c": -120.0}
    matches = [{"a": x, "b": y, "elo": {"estimate": truth[x] - truth[y], "ci_low": None,
                                        "ci_high": None, "se": 5.0 + i}}
               for i, (x, y) in enumerate((("a", "b"), ("a", "c"), ("b", "c")))]
    ladder = rating_ladder(matches)
    got = {r["policy"]: r["rating"] for r in ladder["ratings"]}
    for name, value in truth.items():
        assert got[name] == pytest.approx(value)
    assert rating_ladder(matches[:1]) is None                 # two policies: no ladder


def test_every_fixture_has_an_answer_with_a_lead_and_its_question():
    for name in study_fixtures.ALL:
        answer = build_answer(_summary(name))
        assert answer["lead"], name
        assert answer["question"].endswith("?")
        for lead in answer["lead"]:
            assert lead["why"] and "estimate" in lead


# --------------------------------------------------------------------------------------------
# --games N plays N games, and every text says so
# --------------------------------------------------------------------------------------------

def test_compare_games_means_games_per_arm_in_every_design():
    from canasta_sim.study.cli import compare_spec
    from canasta_sim.study.spec import parse_spec

    crn = parse_spec(compare_spec(("classic", "two-player"), (), None, 4000, 1, None, None,
                                  "r/c"))
    assert crn.units == 4000 and crn.rotations(crn.arms[0]) == 1
    dup = parse_spec(compare_spec((), ("expert", "careful"), None, 4000, 1, None, None, "r/d"))
    assert dup.units * dup.rotations(dup.arms[0]) == 4000      # 2,000 game pairs
    deals = parse_spec(compare_spec((), ("expert", "careful"), 1000, None, 1, None, None, "x"))
    assert deals.units == 500
    three = parse_spec(compare_spec(("three-player",), ("expert", "careful"), None, 300, 1,
                                    None, None, "r/t"))
    assert three.units * three.rotations(three.arms[0]) == 300
    with pytest.raises(BadInput, match="--games 4001 cannot be split into game pairs"):
        compare_spec((), ("expert", "careful"), None, 4001, 1, None, None, "r/d")


def test_texts_count_games_and_name_pairs():
    summary = _summary("duplicate")
    assert size_words(summary).startswith("8,000 games per match (4,000 game pairs")
    summary["study"]["design"] = "crn"
    assert size_words(summary) == "4,000 games per arm"


def test_strength_says_games_and_pairs():
    from canasta_sim.strength import games_words

    assert games_words(4000) == ("4000 games per match (2000 game pairs, each game seed "
                                 "played both ways round)")
    assert games_words(5).endswith("2 game pairs, each game seed played both ways round, "
                                   "and 1 game without its pair)")


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()


def test_compare_games_plays_that_many_games_and_says_so(tmp_path):
    from canasta_sim.cli import cli
    from canasta_sim.study import store

    out = tmp_path / "m"
    result = _runner().invoke(cli, ["compare", "--policies", "greedy", "--policies", "random",
                                    "--games", "8", "--shard-size", "4", "--quiet",
                                    "--out", str(out)])
    assert result.exit_code == 0, (result.output, result.exception)
    games = store.open_study(out).to_table("data")
    assert games.num_rows == 8                          # 8 games: 4 game pairs
    summary = json.loads((out / "summary.json").read_text())
    assert summary["study"]["games"] == 8 and summary["study"]["rotations"] == 2
    assert summary["study"]["seeds"] == 4 and summary["study"]["units_planned"] == 4
    assert summary["study"]["baseline"] is None and summary["effects"] == []
    assert not any(m["metric"] in ("win_rate", "score_diff") for m in summary["means"])
    answer = summary["answer"]
    assert answer["kind"] == "match" and answer["policies"] == ["greedy", "random"]
    assert answer["match"]["wld"]["wins"] + answer["match"]["wld"]["losses"] \
        + answer["match"]["wld"]["draws"] == 8
    assert "8 games per match (4 game pairs" in answer["sentence"]
    first = result.stdout.splitlines()[0]          # the answer opens standard output
    assert first.startswith("greedy ")
    md = (out / "report.md").read_text()
    assert "8 games (4 game pairs)" in md and "8 games per match" in md


def test_compare_rule_arms_answer_with_total_score_and_policies(tmp_path):
    from canasta_sim.cli import cli

    out = tmp_path / "r"
    result = _runner().invoke(cli, ["compare", "--rules", "classic", "--rules",
                                    "classic(black_three_freezes=true)", "--policies",
                                    "greedy", "--deals", "400", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, (result.output, result.exception)
    summary = json.loads((out / "summary.json").read_text())
    answer = summary["answer"]
    assert answer["kind"] == "rule-arms" and answer["policies"] == ["greedy"]
    assert answer["rules"] == ["classic", "classic(black_three_freezes=true)"]
    lead = [e["metric"] for e in answer["lead"]]
    assert lead and set(lead) <= set(catalogue.RULE_EFFECTS)
    assert any(e["metric"] == "total_score" for e in summary["effects"])
    assert result.stdout.startswith("Against classic, with greedy at every seat, arm ")
    assert "400 deals per arm" in answer["sentence"]


def test_the_sequential_test_counts_games_and_a_win_rate_is_no_difference():
    summary = _summary("duplicate")
    summary["arms"], summary["matches"] = summary["arms"][:1], summary["matches"][:1]
    summary["sprt"] = {"metric": "win_rate", "h0": 0.5, "h1": 0.53, "decision": "H1",
                       "waves": 1, "units": 4000, "stopped_early": False,
                       "estimate": dict(summary["matches"][0]["win_rate"])}
    text = report._sprt_sentence(summary, summary["sprt"])
    assert "(H0: 50.0%, H1: 53.0%)" in text
    assert "after 1 wave and 8,000 games (4,000 game pairs)" in text
    assert "estimate of 72.1%" in text and " pp" not in text
    assert text in report.render_markdown(summary, {}).split("\n")[2]
