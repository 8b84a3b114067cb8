"""The SPRT of a 0/1 metric (canasta_sim/stats.py: gsprt_llr, Sprt.update_counts; the study's
[sprt] wave_size): the GSPRT's log-likelihood ratio against its definition, its error rates
at rare base rates on synthetic paired units, an early stop for a large effect, and the
spec option.  Full-size figures: benchmarks/share_validation.py, docs/statistics.md."""
import math

import numpy as np
import pytest
from share_simulation import paired_cells, sprt_runs

from canasta_sim.errors import BadInput
from canasta_sim.stats import PAIR_SCORES, Sprt, gsprt_llr, sprt_bounds


def test_two_values_give_the_bernoulli_llr():
    for k, n, p0, p1 in ((7, 300, 0.01, 0.03), (0, 300, 0.001, 0.005), (300, 300, 0.5, 0.9),
                         (40, 1000, 0.05, 0.03)):
        exact = k * math.log(p1 / p0) + (n - k) * math.log((1 - p1) / (1 - p0))
        # a value never seen counts 1e-3 (fishtest's regularisation): a tiny difference
        assert gsprt_llr([0, 1], [n - k, k], p0, p1) == pytest.approx(exact, rel=2e-3, abs=0.02)
    assert gsprt_llr([0, 1], [293, 7], 0.01, 0.03) == pytest.approx(
        7 * math.log(3) + 293 * math.log(0.97 / 0.99), rel=1e-12)


def test_llr_is_the_profile_likelihood_ratio():
    """Against a brute-force maximum of the multinomial likelihood under each mean."""
    from scipy.optimize import minimize

    values = np.array([-1.0, 0.0, 1.0])
    counts = np.array([4.0, 280.0, 11.0])

    def best(mean):
        # p(-1) = t, p(1) = t + mean, p(0) = 1 - 2t - mean
        def neg(t):
            p = np.array([t[0], 1 - 2 * t[0] - mean, t[0] + mean])
            return -np.sum(counts * np.log(np.maximum(p, 1e-300)))
        res = minimize(neg, [0.01], bounds=[(max(0, -mean) + 1e-12, (1 - mean) / 2 - 1e-12)],
                       method="L-BFGS-B", options={"ftol": 1e-15, "gtol": 1e-12})
        return -res.fun

    assert gsprt_llr(values, counts, 0.0, 0.02) == pytest.approx(best(0.02) - best(0.0),
                                                                 rel=1e-5)
    with pytest.raises(ValueError):
        gsprt_llr(values, counts, 0.0, 1.0)                # not inside the values' range
    assert gsprt_llr(values, [0, 0, 0], 0.0, 0.1) == 0.0


def test_sprt_update_counts_keeps_its_first_decision():
    test = Sprt(0.0, 0.01)
    assert test.method == "sprt-normal"
    assert test.update_counts([-1, 0, 1], [0, 300, 0]) == "H0"      # 0.99^300: LLR -3.0
    assert test.method == "gsprt" and test.llr < test.lower
    assert test.update_counts([-1, 0, 1], [0, 300, 300]) == "H0" and test.waves == 2
    assert Sprt(0.5, 0.53).update_counts(PAIR_SCORES, [10, 50, 100, 60, 12]) == "undecided"


@pytest.mark.parametrize("base, h1, wave, max_units", [(0.01, 0.01, 100, 20000),
                                                       (0.001, 0.004, 100, 20000)])
def test_type_one_error_on_a_rare_0_1_metric(base, h1, wave, max_units):
    """Under H0 (no effect, base rate 1% or 0.1%, half the events shared by the two arms),
    the GSPRT accepts H1 at most about alpha = 5% (500 tests; a look every 100 units)."""
    rng = np.random.default_rng(int(base * 1e4) + wave)
    reps = 500
    got = sprt_runs(rng, paired_cells(base, base, 0.5), 0.0, h1, reps, wave, max_units)
    assert got["H1"] <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / reps), got
    assert got["undecided"] < 0.05, got


def test_a_large_effect_stops_early():
    """Stock-outs at 0.5% in the baseline and 5% in the arm, tested 0 against 2 points:
    looking every 100 deals, the test accepts H1 within a few hundred deals."""
    rng = np.random.default_rng(41)
    got = sprt_runs(rng, paired_cells(0.005, 0.05, 0.5), 0.0, 0.02, 300, 100, 20000)
    assert got["H1"] >= 0.95 and got["median_units"] <= 600, got


def test_bounds_are_walds():
    assert sprt_bounds(0.05, 0.05) == pytest.approx((math.log(0.05 / 0.95),
                                                     math.log(0.95 / 0.05)))


SPEC = """
[study]
seed = 1
deals = 100000
[[arms]]
name = "classic"
[[arms]]
name = "b3f"
rules = "classic(black_three_freezes=true)"
[sprt]
metric = "went_out"
h0 = 0
h1 = 0.01
"""


def test_wave_size_option_default_validation_and_shards():
    from canasta_sim.study.spec import (
        DEFAULT_DEAL_SHARD,
        DEFAULT_SPRT_WAVE_DEALS,
        SPRT_SHARD_WAVES,
        load_spec,
    )

    spec = load_spec(SPEC)
    assert spec.sprt.wave_size == DEFAULT_SPRT_WAVE_DEALS == 200
    assert spec.shard_size == SPRT_SHARD_WAVES * 200 < DEFAULT_DEAL_SHARD
    again = load_spec(spec.to_dict())
    assert again == spec and again.spec_hash() == spec.spec_hash()
    assert load_spec(SPEC + "wave_size = 50\n").sprt.wave_size == 50
    given = load_spec(SPEC.replace("deals = 100000", "deals = 100000\nshard_size = 5000"))
    assert given.shard_size == 5000
    games = load_spec(SPEC.replace("deals = 100000", "games = 1000")
                      .replace("went_out", "win_rate").replace("0.01", "0.05"))
    assert games.sprt.wave_size == 20
    for bad in ("wave_size = 0", "wave_size = 2.5", "wave_size = true", "wave_size = -3"):
        with pytest.raises(BadInput, match="wave_size"):
            load_spec(SPEC + bad + "\n")
    with pytest.raises(BadInput, match="strictly between -1 and 1"):
        load_spec(SPEC.replace("h1 = 0.01", "h1 = 1"))


STUDY = (SPEC.replace("seed = 1\ndeals = 100000", "seed = 3\ndeals = 3000\nshard_size = SHARD")
         .replace("h1 = 0.01", "h1 = 0.3") + "wave_size = 250\n")


def test_a_study_tests_a_share_with_the_gsprt_every_wave_size_deals(tmp_path):
    """A study's SPRT on went_out: the GSPRT, a look every 250 deals inside the shards, the
    same stop whatever the shard size, a share interval in the summary, the LLR and its
    bounds on the progress line."""
    import json

    from canasta_sim.study import execute
    from canasta_sim.study.summary import SprtTracker

    states = []
    for shard in (1000, 700):
        path = tmp_path / f"s{shard}.toml"
        path.write_text(STUDY.replace("SHARD", str(shard)))
        out = tmp_path / f"s{shard}"
        execute.run(str(path), out, report=True)
        state = json.loads((out / "_manifest.json").read_text())["sprt"]
        states.append(state)
        assert state["method"] == "gsprt" and state["wave_size"] == 250
        assert state["decision"] == "H0" and state["llr"] <= state["lower"]
        assert state["units"] % 250 == 0 and state["waves"] == state["units"] // 250
        summary = json.loads((out / "summary.json").read_text())
        assert summary["sprt"]["method"] == "gsprt" and "note_no_spread" not in summary["sprt"]
        for row in summary["means"] + summary["effects"]:
            if row["metric"] == "went_out":
                assert row["method"] in ("wilson", "clopper-pearson", "newcombe-paired",
                                         "newcombe-paired-exact")
                assert row["ci_low"] is not None and row["ci_high"] is not None
                assert -1 <= row["ci_low"] <= row["estimate"] <= row["ci_high"] <= 1
    assert {k: v for k, v in states[0].items()} == states[1]
    tracker = SprtTracker(execute.load_spec(str(tmp_path / "s1000.toml")), None)
    assert tracker.progress() == "LLR +0.00 in (-2.94, 2.94), 0 deals: undecided"


def test_compare_wave_size_reaches_the_spec_and_needs_sprt(tmp_path, monkeypatch):
    """``compare --sprt ... --wave-size N`` puts N in the spec's [sprt] table; without it the
    design's default (20 games); --wave-size without --sprt is refused in one line, exit 2."""
    from click.testing import CliRunner

    from canasta_sim.cli import cli
    from canasta_sim.study import cli as study_cli

    seen = []
    monkeypatch.setattr(study_cli, "_run_and_say", lambda spec, *a, **k: seen.append(spec))
    base = ["compare", "--policies", "expert", "--policies", "careful", "--games", "20"]
    for extra, want in ((["--wave-size", "6"], 6), ([], 20)):
        result = CliRunner().invoke(cli, base + ["--sprt", "win_rate:0.50,0.53", *extra,
                                                 "--out", str(tmp_path / f"c{want}")])
        assert result.exit_code == 0, result.output
        assert seen[-1].sprt.wave_size == want
    result = CliRunner().invoke(cli, base + ["--wave-size", "6", "--out", str(tmp_path / "d")])
    assert result.exit_code == 2 and "--wave-size 6" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "d").exists()


def test_a_per_deal_share_in_a_game_study_says_it_used_the_normal_test(tmp_path):
    """went_out over games is a ratio (events over deals per game): sprt-normal, and the
    summary and the report's test box say so."""
    import json

    from canasta_sim.study import execute

    path = tmp_path / "g.toml"
    path.write_text(SPEC.replace("deals = 100000", "games = 40\nshard_size = 20")
                    + "wave_size = 20\n")
    out = tmp_path / "g"
    execute.run(str(path), out, report=True)
    sprt = json.loads((out / "summary.json").read_text())["sprt"]
    assert sprt["method"] == "sprt-normal"
    assert "per-deal share" in sprt["note_method"] and "deal study" in sprt["note_method"]
    assert "test such an event in a deal study" in (out / "report.md").read_text()
