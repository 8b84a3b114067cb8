"""Studies II on the engine: intervals cover the true effect, exact effects, SPRT, the report."""
import json
import math

import pytest

pytest.importorskip("scipy")

from canasta_sim import simulate  # noqa: E402
from canasta_sim.stats import PairedSums  # noqa: E402
from canasta_sim.study import execute, metrics  # noqa: E402
from canasta_sim.study.summary import build_summary, report  # noqa: E402

CLASSIC = "classic"
B3F = "classic(black_three_freezes=true)"


def _units(rules, deals, seed, first=0, policies="greedy"):
    table = simulate(deals, seed=seed, rules=rules, policies=policies, first_deal=first)
    return metrics.deal_units(table, deals, 1, 2, 4)


def _effect(arm, base, metric):
    sums = PairedSums(True)
    sums.add(arm[metric].y, None, base[metric].y, None)
    return sums.effect()


def test_paired_intervals_cover_the_true_effect_at_the_nominal_rate():
    """200 small studies (600 deals) of b3f against classic: their 95% intervals of the effect
    on s0_score, score_diff and turns cover the effect of one large run (60,000 deals per arm,
    its own error ten times smaller) about 95% of the time."""
    big_b = _units(CLASSIC, 60000, seed=99)
    big_a = _units(B3F, 60000, seed=99)
    truth = {m: _effect(big_a, big_b, m).estimate.estimate
             for m in ("s0_score", "score_diff", "turns")}
    reps, deals = 200, 600
    base = _units(CLASSIC, reps * deals, seed=7)
    arm = _units(B3F, reps * deals, seed=7)
    covered = {m: 0 for m in truth}
    for r in range(reps):
        part = slice(r * deals, (r + 1) * deals)
        small_a = {m: metrics.Values(arm[m].y[part]) for m in truth}
        small_b = {m: metrics.Values(base[m].y[part]) for m in truth}
        for m, value in truth.items():
            est = _effect(small_a, small_b, m).estimate
            covered[m] += est.ci_low <= value <= est.ci_high
    for m, hits in covered.items():
        assert 0.90 <= hits / reps <= 0.99, (m, hits / reps, truth[m])


def _study(tmp_path, text, name="s"):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    out = tmp_path / name
    execute.run(str(path), out, report=False)
    return out


def test_a_scoring_knob_shows_the_exact_effect_the_rows_imply(tmp_path):
    """natural_canasta_bonus 500 -> 600 changes no play: every deal's s0_score grows by
    exactly 100 per natural canasta of side 0, and turns do not change at all."""
    out = _study(tmp_path, """
[study]
seed = 11
deals = 4000
shard_size = 1500
[[arms]]
name = "classic"
[[arms]]
name = "nat600"
rules = "classic(natural_canasta_bonus=600)"
""")
    from canasta_sim.study.store import open_study

    summary = build_summary(open_study(out))
    effects = {(e["metric"], e["arm"]): e for e in summary["effects"]}
    rows = simulate(4000, seed=11)
    naturals = rows["s0_natural"].to_numpy().astype(float)
    expected = 100 * naturals.mean()
    s0 = effects[("s0_score", "nat600")]
    assert math.isclose(s0["estimate"], expected, rel_tol=1e-12, abs_tol=1e-9)
    se = 100 * naturals.std(ddof=1) / math.sqrt(len(naturals))
    assert math.isclose(s0["se"], se, rel_tol=1e-9)
    assert s0["n"] == 4000 and s0["method"] == "paired-normal"
    assert effects[("s0_canasta_bonus", "nat600")]["estimate"] == pytest.approx(expected)
    turns = effects[("turns", "nat600")]
    assert turns["estimate"] == 0 and turns["correlation"] in (None, 1.0)
    means = {(m["metric"], m["arm"]): m for m in summary["means"]}
    assert means[("s0_score", "classic")]["estimate"] == pytest.approx(
        rows["s0_score"].to_numpy().mean())


def test_summary_matches_a_direct_computation_of_the_rows(tmp_path):
    """The streamed summary (three shards per arm, read range by range) gives the effect and
    its interval that one pass over all rows in memory gives."""
    out = _study(tmp_path, f"""
[study]
seed = 4
deals = 3000
shard_size = 1000
[[arms]]
name = "classic"
[[arms]]
name = "b3f"
rules = "{B3F}"
[[arms]]
name = "h13"
rules = "classic(hand_size=13)"
""".replace('"classic(black', "'classic(black").replace('=true)"', "=true)'"))
    from canasta_sim.study.store import open_study

    summary = build_summary(open_study(out))
    base = _units(CLASSIC, 3000, seed=4)
    arm = _units(B3F, 3000, seed=4)
    direct = _effect(arm, base, "score_diff")
    row = next(e for e in summary["effects"] if e["metric"] == "score_diff" and e["arm"] == "b3f")
    assert row["estimate"] == pytest.approx(direct.estimate.estimate)
    assert row["ci_low"] == pytest.approx(direct.estimate.ci_low)
    assert row["variance_reduction"] == pytest.approx(direct.variance_reduction)
    assert row["holm_p"] >= row["p_value"]                 # two other arms: Holm applies
    assert any("Holm" in note for note in summary["notes"])
    balance = {b["arm"]: b for b in summary["balance"]}
    assert balance["h13"]["turns"]["p50"] > 0
    assert set(balance["classic"]["end_reasons"]) == {"out", "stock"}


def test_game_study_metrics_agree_with_the_games_table(tmp_path):
    out = _study(tmp_path, """
[study]
seed = 2
games = 120
shard_size = 50
[[arms]]
name = "classic"
[[arms]]
name = "t3000"
rules = "classic(game_target=3000)"
""")
    from canasta_sim.study.store import open_study

    summary = build_summary(open_study(out))
    games, deals = simulate(games=120, seed=2, rules="classic(game_target=3000)")
    means = {(m["metric"], m["arm"]): m for m in summary["means"]}
    assert means[("deals_per_game", "t3000")]["estimate"] == pytest.approx(
        games["deals"].to_numpy().mean())
    winner = games["winner"].to_numpy()
    assert means[("win_rate", "t3000")]["estimate"] == pytest.approx((winner == 0).mean())
    assert means[("turns", "t3000")]["estimate"] == pytest.approx(
        deals["turns"].to_numpy().mean())
    assert means[("turns", "t3000")]["method"] == "ratio-delta"
    effect = next(e for e in summary["effects"]
                  if e["metric"] == "deals_per_game" and e["arm"] == "t3000")
    assert effect["estimate"] < 0 and effect["ci_high"] < 0   # a lower target: shorter games
    balance = {b["arm"]: b for b in summary["balance"]}["classic"]
    assert [w["k"] for w in balance["leader_wins"]] == [1, 2, 3, 4]
    assert 0.5 < balance["leader_wins"][3]["estimate"] <= 1
    assert balance["draws"] == 0 and balance["cut"] == 0


def test_sprt_stops_early_when_the_effect_is_clear(tmp_path):
    """A +100-per-natural-canasta arm against classic, tested s0_score:0,20 in waves of one
    shard range: it stops long before the planned deals, accepts H1, and a rerun plays no more."""
    text = """
[study]
seed = 5
deals = 100000
shard_size = 500
[[arms]]
name = "classic"
[[arms]]
name = "nat600"
rules = "classic(natural_canasta_bonus=600)"
[sprt]
metric = "s0_score"
h0 = 0
h1 = 20
"""
    path = tmp_path / "sprt.toml"
    path.write_text(text)
    out = tmp_path / "sprt"
    execute.run(str(path), out, report=True)
    manifest = json.loads((out / "_manifest.json").read_text())
    sprt = manifest["sprt"]
    assert sprt["decision"] == "H1" and sprt["llr"] >= sprt["upper"]
    assert sprt["units"] < 100000
    files = sorted(p.name for p in (out / "data" / "arm=classic").iterdir())
    execute.run(str(path), out, report=False)
    assert sorted(p.name for p in (out / "data" / "arm=classic").iterdir()) == files
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sprt"]["decision"] == "H1" and summary["sprt"]["stopped_early"]
    assert summary["study"]["stopped_early"]
    assert "biased" in summary["sprt"]["note"]
    assert execute.status(out)["complete"]


def test_report_files_and_compare_command(tmp_path):
    from click.testing import CliRunner

    from canasta_sim.cli import cli

    out = tmp_path / "cmp"
    result = CliRunner().invoke(cli, ["compare", "--rules", "classic", "--rules",
                                      "classic(black_three_freezes=true)", "--deals", "2000",
                                      "--seed", "1", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "classic.black_three_freezes-true" in result.output
    for name in ("summary.json", "report.md", "report.html", "study.toml", "_manifest.json"):
        assert (out / name).is_file(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["schema"] == "canasta-sim.study-summary/1"
    assert [a["name"] for a in summary["arms"]] == ["classic",
                                                     "classic.black_three_freezes-true"]
    for effect in summary["effects"]:
        assert {"metric", "arm", "baseline", "estimate", "ci_low", "ci_high", "n",
                "method"} <= set(effect)
    assert "study run" in summary["study"]["command"]
    again = report(out)
    assert str(out / "summary.json") in again
