"""Modern American in the commands built on the runner (docs/american.md, "Playing it"):
``compare`` and ``study run/report``, ``strength``, ``tune`` and ``simulate --sweep``, with
greedy against random on a few hundred deals or a few dozen games: each runs, finds greedy
ahead, gives the same numbers twice, and refuses a player the family does not have in one
line."""
import json
import re

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canasta_sim import strength, tune
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.rules import AMERICAN_COMMANDS, parse_rules
from canasta_sim.study import store
from canasta_sim.study.spec import parse_spec

MAC = "modern-american"
# every player plays the family now (your own too); what it refuses is a search that plays a
# determinization more than once
REFUSED = "search(rollouts=2)"
REFUSAL = "rollouts is not accepted with family=modern_american: accepted: rollouts=1"


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()


def _invoke(args):
    result = _runner().invoke(cli, args, catch_exceptions=False)
    return result


def _one_line_refusal(result, fragment):
    """Exit status 2, one line on stderr holding ``fragment``, nothing on stdout."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], lines
    assert result.stdout == ""


def _summary(folder):
    with open(folder / "summary.json") as handle:
        return json.load(handle)


def _table(folder, kind="data"):
    """The study's rows of ``kind``, sorted by arm, rotation and unit."""
    table = store.open_study(str(folder)).to_table(kind)
    unit = "game" if "game" in table.schema.names else "deal"
    keys = [("arm", "ascending"), ("rotation", "ascending"), (unit, "ascending")]
    if kind == "deals":
        keys.append(("deal_in_game", "ascending"))
    return table.sort_by(keys)


def test_the_commands_are_listed():
    for command in ("compare", "study", "strength", "tune"):
        assert command in AMERICAN_COMMANDS


def test_play_record_is_each_familys_own():
    classic, american = parse_rules("classic"), parse_rules(MAC)
    assert classic.play_record() == classic.to_kernel()
    assert american.play_record() == american.to_american_kernel()
    unplayable = parse_rules("classic(wild_canasta_bonus=2000)")    # parses, does not play
    with pytest.raises(BadInput, match="wild_canasta_bonus"):
        unplayable.play_record()


# --------------------------------------------------------------------------------------------
# compare and study
# --------------------------------------------------------------------------------------------

def test_compare_policies_finds_greedy_ahead_and_repeats_itself(tmp_path):
    """A duplicate deal study: greedy against random, each deal seed both ways round."""
    rows = []
    for name in ("a", "b"):
        out = tmp_path / name
        result = _invoke(["compare", "--rules", MAC, "--policies", "greedy", "--policies",
                          "random", "--deals", "300", "--seed", "5", "--out", str(out), "-q",
                          "--no-report"])
        assert result.exit_code == 0, result.stderr
        rows.append(_table(out))
    assert rows[0].equals(rows[1])
    data = rows[0].to_pandas()
    assert len(data) == 300 and set(data.rotation) == {0, 1}
    assert (data.special_hand.notna()).all() and data.s0_canastas.notna().all()
    # side 0 plays greedy in rotation 0, random in rotation 1: greedy scores more either way
    assert data[data.rotation == 0].s0_score.mean() > data[data.rotation == 0].s1_score.mean()
    assert data[data.rotation == 1].s1_score.mean() > data[data.rotation == 1].s0_score.mean()
    report = _invoke(["study", "report", str(tmp_path / "a")])
    assert report.exit_code == 0, report.stderr
    assert "greedy beats random" in report.stdout
    (row,) = _summary(tmp_path / "a")["matches"]
    assert row["a"] == "greedy" and row["points_per_deal"]["ci_low"] > 0


def test_compare_games_gives_greedy_the_win_rate(tmp_path):
    out = tmp_path / "g"
    result = _invoke(["compare", "--rules", MAC, "--policies", "greedy", "--policies",
                      "random", "--games", "30", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.stderr
    (row,) = _summary(out)["matches"]
    assert row["win_rate"]["estimate"] > 0.7 and row["win_rate"]["ci_low"] > 0.5
    balance = _summary(out)["balance"][0]["end_reasons"]
    assert balance["out"] + balance["stock"] + balance.get("special", 0) == pytest.approx(1)
    games = _table(out, "deals").to_pandas()
    special = (games.end_reason.astype(str) == "special").mean()
    assert balance.get("special", 0) == pytest.approx(special)


def test_rule_arms_of_both_families_play_the_same_seeds(tmp_path):
    """A crn study of classic against Modern American: each arm's rows are what simulate gives
    those deals in its family; the family's own columns are null in the classic arm."""
    out = tmp_path / "mixed"
    result = _invoke(["compare", "--rules", "classic", "--rules", MAC, "--deals", "200",
                      "--seed", "2", "--out", str(out), "-q", "--no-report"])
    assert result.exit_code == 0, result.stderr
    data = _table(out).to_pandas()
    classic, american = (data[data.arm.astype(str) == arm] for arm in ("classic", MAC))
    assert classic.special_hand.isna().all() and classic.s0_canastas.isna().all()
    assert american.special_hand.notna().all()
    assert np.array_equal(classic.sort_values("deal").dealer.to_numpy(),
                          american.sort_values("deal").dealer.to_numpy())   # one seed, one deal
    simulated = tmp_path / "mac.parquet"
    assert _invoke(["simulate", "--rules", MAC, "--deals", "200", "--seed", "2", "-q",
                    "--out", str(simulated)]).exit_code == 0
    alone = pq.read_table(simulated).to_pandas()
    for column in ("s0_score", "s1_score", "turns", "s0_canastas", "dealer"):
        assert np.array_equal(american[column].to_numpy(), alone[column].to_numpy()), column


SPEC = """
[study]
name = "talons"
seed = 4
games = 12
shard_size = 6

[[arms]]
name = "mac"
rules = "modern-american"
policies = "greedy,random"
sweep = "rules.mac_talon_source=stock,set_aside"
"""


def test_study_run_sweeps_a_family_knob(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    out = tmp_path / "s"
    result = _invoke(["study", "run", str(spec), "--out", str(out), "-q", "--no-report"])
    assert result.exit_code == 0, result.stderr
    games = _table(out).to_pandas()
    assert sorted(set(games.arm.astype(str))) == ["mac.mac_talon_source-set_aside",
                                                  "mac.mac_talon_source-stock"]
    assert (games.winner == 0).mean() > 0.7          # greedy sits on side 0
    result = _invoke(["study", "report", str(out)])
    assert result.exit_code == 0, result.stderr


def test_a_spec_with_a_player_the_family_refuses_is_refused():
    with pytest.raises(BadInput, match=re.escape(REFUSAL)):
        parse_spec({"study": {"name": "x", "deals": 10},
                    "arms": [{"name": "a", "rules": MAC, "policies": REFUSED}]})


def test_compare_refuses_a_player_the_family_refuses(tmp_path):
    out = tmp_path / "c"
    result = _invoke(["compare", "--rules", MAC, "--policies", REFUSED, "--policies",
                      "greedy", "--deals", "10", "--out", str(out)])
    _one_line_refusal(result, REFUSAL)
    assert not out.exists()


# --------------------------------------------------------------------------------------------
# strength, tune, sweeps
# --------------------------------------------------------------------------------------------

def test_strength_ranks_greedy_above_random(tmp_path):
    csv = tmp_path / "s.csv"
    result = _invoke(["strength", "--rules", MAC, "--policies", "greedy,random", "--games",
                      "30", "--csv", str(csv)])
    assert result.exit_code == 0, result.stderr
    assert "ordering greedy > random: holds" in result.stdout
    assert "rules modern-american" in result.stdout and csv.exists()
    first = strength.play_match("greedy", "random", 20, 3, MAC)
    assert first == strength.play_match("greedy", "random", 20, 3, MAC)
    assert first.a_wins > first.b_wins


def test_strength_refuses_a_player_the_family_refuses(tmp_path):
    csv = tmp_path / "s.csv"
    result = _invoke(["strength", "--rules", MAC, "--policies", f"greedy,{REFUSED}", "--games",
                      "2", "--csv", str(csv)])
    _one_line_refusal(result, REFUSAL)
    assert not csv.exists()


def test_tune_measures_the_family_in_paired_games():
    """The family has no player with parameters yet: tune's measure (a duplicate match) is
    tested with greedy against random."""
    rules = parse_rules(MAC)
    first = tune.play_duplicate("greedy", "random", rules, 6, 0, 15)
    again = tune.play_duplicate("greedy", "random", rules, 6, 0, 15)
    assert first.objective == again.objective and first.margin == again.margin
    assert first.win_rate > 0.7 and first.margin > 0 and first.pairs == 15


@pytest.mark.parametrize("args, fragment", [
    (["search", "--params", "candidates"], "policy 'search' cannot be tuned"),
    (["greedy", "--params", "freeze_at"], "policy 'greedy' has no parameters to tune"),
    (["careful", "--params", "wild_hold", "--against", REFUSED], REFUSAL),
])
def test_tune_refuses_what_the_family_cannot_tune(args, fragment, tmp_path):
    out = tmp_path / "t"
    result = _invoke(["tune", *args, "--rules", MAC, "--out", str(out)])
    _one_line_refusal(result, fragment)
    assert not out.exists()


@pytest.mark.parametrize("policies, sweep, fragment", [
    ("greedy", "greedy.freeze_at=4,8", "policy 'greedy' has no parameter 'freeze_at'"),
    ("search", "search.rollouts=1,2", "rollouts is not accepted with family=modern_american"),
])
def test_sweeps_refuse_what_the_family_cannot_play(policies, sweep, fragment, tmp_path):
    out = tmp_path / "w.parquet"
    result = _invoke(["simulate", "--rules", MAC, "--policies", policies, "--sweep", sweep,
                      "--deals", "10", "--out", str(out)])
    _one_line_refusal(result, fragment)
    assert not out.exists()
