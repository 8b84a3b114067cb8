"""canasta-sim strength at three sides (issue 28, point 5): one side of A against two sides of
B, each game seed in the three rotations.  The figures are checked against games replayed one
rotation at a time with the plain API (who sat where, who won, the scores), against what
``compare`` reports for the same match, and bad input (a count of games that does not split
into whole seeds) is refused in one line before anything plays."""
import csv

import numpy as np
import pytest
from click.testing import CliRunner

import canasta_sim
from canasta_sim import strength
from canasta_sim.arms import rotated
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.stats import Estimate


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()                  # click >= 8.2 keeps stderr apart


def _by_rotation(a, b, rules, seeds, seed):
    """Each rotation's games and deals played on their own: (games, deals, A's seat)."""
    from canasta_sim.rules import parse_rules

    r = parse_rules(rules)
    seats = [a if seat % r.num_sides == 0 else b for seat in range(r.num_players)]
    for rotation in range(r.num_sides):
        lineup = rotated(seats, rotation)
        games, deals = canasta_sim.simulate(games=seeds, seed=seed, rules=rules,
                                            policies=",".join(lineup))
        yield games.to_pandas(), deals.to_pandas(), lineup.index(a) % r.num_sides


@pytest.mark.parametrize("rules", ["cutthroat", "three-player"])
def test_three_sides_match_counts_the_games_of_every_rotation(rules):
    """6 games: seeds 0 and 1, each with careful in each of the three seats."""
    match = strength.play_match("careful", "greedy", 6, seed=4, rules=rules)
    wins = own = others = 0
    per_seed = np.zeros(2)
    deals = outs = 0
    for games, deal_rows, a in _by_rotation("careful", "greedy", rules, 2, 4):
        won = (games.winner == a).to_numpy()
        wins += int(won.sum())
        per_seed += won / 3
        scores = np.stack([deal_rows[f"s{k}_score"] for k in range(3)], axis=1)
        own += scores[:, a].sum()
        others += (scores.sum(axis=1) - scores[:, a]).sum() / 2
        deals += len(deal_rows)
        outs += int((deal_rows.end_reason == "out").sum())
    assert isinstance(match, strength.RotationMatch) and match.sides == 3
    assert (match.a_wins, match.b_wins, match.draws, match.cut) == (wins, 6 - wins, 0, 0)
    assert match.deals == deals and match.out_share == pytest.approx(outs / deals)
    assert match.a_rate == pytest.approx(per_seed.mean()) == pytest.approx(wins / 6)
    assert match.a_deal_score == pytest.approx(own / deals)
    assert match.b_deal_score == pytest.approx(others / deals)
    assert match.points.estimate == pytest.approx((own - others) / deals)
    assert match.seeds == 2 and match.fair_share == pytest.approx(1 / 3)


@pytest.mark.parametrize("rules", ["cutthroat", "six-player-3x2"])
def test_a_policy_against_itself_has_exactly_the_fair_share(rules):
    """All seats alike: the three rotations of a seed are one game seen from each side, so A
    wins exactly one of them and its margin over the others' mean adds up to 0."""
    match = strength.play_match("careful", "careful", 6, seed=8, rules=rules)
    assert match.a_rate == pytest.approx(1 / 3) and match.a_wins == 2
    assert match.points.estimate == pytest.approx(0, abs=1e-9)
    assert match.a_deal_score == pytest.approx(match.b_deal_score)


def test_three_sides_strength_reports_what_compare_reports(tmp_path):
    import json

    match = strength.play_match("careful", "greedy", 6, seed=1, rules="cutthroat")
    out = tmp_path / "cmp"
    result = _runner().invoke(cli, ["compare", "--rules", "cutthroat", "--policies", "careful",
                                    "--policies", "greedy", "--games", "6", "--seed", "1",
                                    "--out", str(out), "--quiet"])
    assert result.exit_code == 0, (result.output, result.stderr)
    row = json.loads((out / "summary.json").read_text())["matches"][0]
    assert row["fair_share"] == pytest.approx(match.fair_share)
    assert row["win_rate"] == match.share._asdict() | {"n": row["win_rate"]["n"]}
    assert row["win_rate"]["n"] == match.seeds
    assert row["points_per_deal"] == match.points._asdict()


def test_a_six_player_match_of_three_sides_rotates_whole_sides():
    """six-player-3x2: A holds both seats of one side; 3 games, one seed in 3 rotations."""
    match = strength.play_match("careful", "random", 3, seed=2, rules="six-player-3x2")
    wins = sum(int((games.winner == a).sum())
               for games, _, a in _by_rotation("careful", "random", "six-player-3x2", 1, 2))
    assert match.sides == 3 and match.a_wins == wins and match.seeds == 1


def test_policies_with_several_parameters_keep_their_text():
    """A policy text holds commas inside its brackets: each seat still gets the whole text."""
    a = "careful(freeze_at=12,min_pile_take=6)"
    match = strength.play_match(a, "greedy", 3, seed=1, rules="cutthroat")
    wins = sum(int((games.winner == seat).sum())
               for games, _, seat in _by_rotation(a, "greedy", "cutthroat", 1, 1))
    assert match.a == a and match.a_wins == wins


@pytest.mark.parametrize("games", [1, 2, 4, 7])
def test_three_sides_refuse_games_that_are_not_whole_seeds(games, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("a game was played before the input was checked")
    monkeypatch.setattr("canasta_sim.runner.play_game_range", forbidden)
    with pytest.raises(BadInput, match=f"--games {games} is not accepted: .*a multiple of 3"):
        strength.play_match("careful", "greedy", games, rules="cutthroat")


def test_the_command_refuses_them_in_one_line_and_writes_nothing(tmp_path, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("a game was played before the input was checked")
    monkeypatch.setattr("canasta_sim.runner.play_game_range", forbidden)
    path = tmp_path / "s.csv"
    result = _runner().invoke(cli, ["strength", "--rules", "cutthroat", "--policies",
                                    "careful,greedy", "--games", "100", "--csv", str(path)])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("canasta-sim: error: --games 100 "), lines
    assert "--games 99 or --games 102" in lines[0]
    assert not path.exists() and result.stdout == ""


def test_the_command_at_three_sides_prints_the_share_table_and_no_elo(tmp_path):
    path = tmp_path / "s.csv"
    result = _runner().invoke(cli, ["strength", "--rules", "cutthroat", "--policies",
                                    "careful,greedy,random", "--games", "3", "--seed", "2",
                                    "--csv", str(path)])
    assert result.exit_code == 0, (result.output, result.stderr)
    out = result.stdout
    assert "3 games per match (1 game seeds, each played in the 3 rotations" in out
    assert "A win share (95% CI; fair 33.3%)" in out and "Elo A - B" not in out
    assert "| careful | greedy | 3 |" in out and "| greedy | random | 3 |" in out
    assert "no Elo and no rating ladder at three sides" in out
    rows = list(csv.DictReader(path.open()))
    assert [(r["a"], r["b"]) for r in rows] == [("careful", "greedy"), ("careful", "random"),
                                                ("greedy", "random")]
    assert set(strength.CSV_THREE_SIDES) <= set(rows[0]) and "elo" not in rows[0]
    assert all(float(r["fair_share"]) == pytest.approx(1 / 3, abs=1e-4) for r in rows)
    assert rows[0]["rules"] == "cutthroat"


def _synthetic(share, low, high, a="x", b="y"):
    return strength.RotationMatch(a, b, 300, 3, 0, 0, 0, 0, 10, 1.0, 0.0, 0.0, 0.0,
                                  Estimate(share, low, high, 100, "wilson-effective"),
                                  Estimate(12.0, 2.0, 22.0, 100, "ratio-delta"))


def test_three_sides_significance_is_against_the_fair_third():
    above = _synthetic(0.42, 0.36, 0.48)        # below 50%, yet significantly above 1/3
    level = _synthetic(0.36, 0.30, 0.42)
    below = _synthetic(0.25, 0.20, 0.30)
    assert above.significant and not level.significant and below.significant
    assert strength.ordering_holds([above], ["x", "y"])
    assert not strength.ordering_holds([level], ["x", "y"])
    assert not strength.ordering_holds([below], ["x", "y"])
    assert strength.format_row(above) == ("| x | y | 300 | 0 | 0 | 0 | 42.0% (36.0-48.0) | "
                                          "100.0% | 0.0% | 0 | 0 | +12.0 (+2.0, +22.0) |")
    assert "(n.s.)" in strength.format_row(level)
    assert strength.ladder_line([above]) == strength.NO_ELO
