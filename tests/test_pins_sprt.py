"""Pins: the sequential test's bounds with alpha != beta (canasta_sim/stats.py, the
study spec's [sprt] table, ``compare --alpha/--beta``, ``tune --alpha/--beta``).

Wald: accept H1 once the log-likelihood ratio reaches log((1 - beta) / alpha), accept H0
once it falls to log(beta / (1 - alpha)) (docs/studies.md, docs/statistics.md).  alpha is
P(H1 accepted | H0), beta P(H0 accepted | H1).  tests/test_study_stats.py checks the
bounds with alpha = beta only, where swapping the two changes nothing; here alpha = 0.01 and
beta = 0.20, so a swap moves the bounds (to -4.38 and 1.60 instead of -1.60 and 4.38) and
the LLRs of +3 and -3 below are decided the other way.
"""
import math

import pytest
from click.testing import CliRunner

from canasta_sim.stats import Sprt, sprt_bounds, sprt_decision

ALPHA, BETA = 0.01, 0.20
LOWER = math.log(BETA / (1 - ALPHA))          # -1.5994...
UPPER = math.log((1 - BETA) / ALPHA)          # log 80 = 4.3820...


def test_wald_bounds_with_alpha_not_beta():
    lower, upper = sprt_bounds(ALPHA, BETA)
    assert lower == pytest.approx(LOWER, rel=1e-12) and upper == pytest.approx(UPPER, rel=1e-12)
    assert lower == pytest.approx(-1.5993875765805865) and upper == pytest.approx(4.382026634673881)
    swapped = sprt_bounds(BETA, ALPHA)
    assert swapped[0] == pytest.approx(-UPPER) and swapped[1] == pytest.approx(-LOWER)


@pytest.mark.parametrize("llr, decision", [
    (UPPER, "H1"),                     # at the upper bound: H1 (sprt_decision: "at or above")
    (UPPER - 1e-9, "undecided"),
    (3.0, "undecided"),                # swapped bounds would say H1
    (0.0, "undecided"),
    (-1.5, "undecided"),
    (LOWER, "H0"),                     # at the lower bound: H0
    (LOWER + 1e-9, "undecided"),
    (-3.0, "H0"),                      # swapped bounds would say undecided
    (5.0, "H1"),
])
def test_decision_flips_at_the_right_bound(llr, decision):
    assert sprt_decision(llr, *sprt_bounds(ALPHA, BETA)) == decision


@pytest.mark.parametrize("n, mean, decision", [
    (6, 1.0, "undecided"),             # LLR = n (2 mean - 1) / 2 = 3
    (10, 1.0, "H1"),                   # 5
    (2, -1.0, "H0"),                   # -3
    (1, 0.0, "undecided"),             # -0.5
])
def test_sprt_object_keeps_alpha_and_beta_apart(n, mean, decision):
    """mu0 = 0, mu1 = 1, variance 1: LLR = n (mu1 - mu0)(2 mean - mu0 - mu1) / 2."""
    for test in (Sprt(0.0, 1.0, ALPHA, BETA), Sprt(0.0, 1.0, alpha=ALPHA, beta=BETA)):
        assert (test.alpha, test.beta) == (ALPHA, BETA)
        assert test.lower == pytest.approx(LOWER) and test.upper == pytest.approx(UPPER)
        assert test.update(n, mean, 1.0) == decision
        assert test.llr == pytest.approx(n * (2 * mean - 1) / 2)


SPEC = """
[study]
name = "sprt-bounds"
seed = 1
deals = 1000
[[arms]]
name = "classic"
rules = "classic"
policies = "greedy"
[[arms]]
name = "b3f"
rules = "classic(black_three_freezes=true)"
policies = "greedy"
[sprt]
metric = "score_diff"
h0 = 0
h1 = 10
alpha = 0.01
beta = 0.2
"""


def test_study_spec_and_tracker_keep_alpha_and_beta_apart():
    """The [sprt] table reaches the study's test (summary.SprtTracker) unswapped, and the
    manifest state reports the same bounds."""
    from canasta_sim.study.spec import load_spec
    from canasta_sim.study.summary import SprtTracker

    spec = load_spec(SPEC)
    assert (spec.sprt.alpha, spec.sprt.beta) == (ALPHA, BETA)
    again = load_spec(spec.to_dict())                       # the frozen form keeps them
    assert (again.sprt.alpha, again.sprt.beta) == (ALPHA, BETA)
    tracker = SprtTracker(spec, None)
    assert tracker.test.lower == pytest.approx(LOWER) and tracker.test.upper == pytest.approx(UPPER)
    state = tracker.state()
    assert (state["alpha"], state["beta"]) == (ALPHA, BETA)
    assert state["lower"] == pytest.approx(LOWER) and state["upper"] == pytest.approx(UPPER)


def test_compare_alpha_and_beta_options_reach_the_spec(tmp_path, monkeypatch):
    """``canasta-sim compare ... --sprt M:H0,H1 --alpha A --beta B``: the spec it would run
    carries alpha A and beta B (the run itself is replaced by a recorder)."""
    from canasta_sim.cli import cli
    from canasta_sim.study import cli as study_cli

    seen = []
    monkeypatch.setattr(study_cli, "_run_and_say", lambda spec, *a, **k: seen.append(spec))
    result = CliRunner().invoke(cli, ["compare", "--policies", "expert", "--policies",
                                      "careful", "--games", "20", "--sprt",
                                      "win_rate:0.50,0.53", "--alpha", "0.01", "--beta",
                                      "0.2", "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    (spec,) = seen
    assert (spec.sprt.alpha, spec.sprt.beta) == (ALPHA, BETA)


def test_tune_alpha_and_beta_reach_its_settings():
    """``tune --verify-sprt H0,H1 --alpha A --beta B``: the settings keep A and B apart (the
    verification's Sprt is built from them, canasta_sim/tune.py)."""
    from canasta_sim.tune import prepare

    s = prepare("expert", "danger", games=2, iterations=1, verify_games=20,
                verify_sprt="0.50,0.53", alpha=ALPHA, beta=BETA)
    assert (s.alpha, s.beta) == (ALPHA, BETA)
