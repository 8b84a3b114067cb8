"""Games runs end to end (issue 4): tables, files, replay, common random numbers, CLI."""
import json
import os

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import canasta_sim
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.results import deals_path
from canasta_sim.trace import game_trace_events, trace_events


def _rows(table):
    return table.to_pydict()


def test_games_identical_for_any_threads_and_chunks():
    one = canasta_sim.simulate(games=40, seed=6, policies="random", threads=1)
    two = canasta_sim.simulate(games=40, seed=6, policies="random", threads=2, chunk_size=3)
    assert _rows(one[0]) == _rows(two[0]) and _rows(one[1]) == _rows(two[1])
    part = canasta_sim.simulate(games=10, seed=6, policies="random", first_game=30)
    assert _rows(part[0]) == _rows(one[0].slice(30))
    assert _rows(part[1]) == _rows(one[1].filter(one[1]["game"].to_numpy() >= 30))


@pytest.mark.parametrize("rules", ["classic", "six-player"])
def test_game_traces_agree_with_the_deal_rows(rules):
    games, deals = canasta_sim.simulate(games=2, seed=8, rules=rules, policies="random")
    rows = deals.to_pylist()
    traced = list(game_trace_events(rules, 8, 0, 2, "random"))
    assert len(traced) == len(rows)
    for events, row in zip(traced, rows):
        start, score = events[0], events[-1]
        assert (start["game"], start["deal"], start["dealer"]) == (row["game"], row["deal_in_game"],
                                                                  row["dealer"])
        sides = len(score["sides"])
        assert start["scores_before"] == [row[f"s{k}_cum_before"] for k in range(sides)]
        assert [s["total"] for s in score["sides"]] == [row[f"s{k}_score"] for k in range(sides)]


def test_common_random_numbers_across_rule_sets():
    """Deal i of seed S has the same deck under two rule sets with the same deck; so does
    deal k of game g."""
    for a, b in zip(trace_events("classic", 3, 0, 5, "greedy"),
                    trace_events("seed-a", 3, 0, 5, "random")):
        assert (a[0]["hands"], a[0]["stock"], a[0]["dealer"]) == \
            (b[0]["hands"], b[0]["stock"], b[0]["dealer"])
    a = next(game_trace_events("classic", 3, 0, 1, "greedy"))
    b = next(game_trace_events("classic(black_three_freezes=true)", 3, 0, 1, "random"))
    assert (a[0]["hands"], a[0]["stock"]) == (b[0]["hands"], b[0]["stock"])


@pytest.mark.parametrize("kwargs,fragment", [
    ({"deals": 5, "games": 5}, "both given"),
    ({"games": -1}, "games=-1"),
    ({"games": 3, "scores_before": [10, 0]}, "every game starts at 0"),
    ({"games": 3, "first_deal": 4}, "first_game"),
    ({"games": 3, "first_game": -2}, "first_game=-2"),
])
def test_games_bad_input(kwargs, fragment):
    with pytest.raises(BadInput) as info:
        canasta_sim.simulate(**kwargs)
    assert fragment in str(info.value)


def test_cli_games_writes_both_files(tmp_path):
    out = tmp_path / "g.parquet"
    result = CliRunner().invoke(cli, ["simulate", "--games", "30", "--seed", "4", "--rules",
                                      "two-player", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "30 games" in result.output and "games won" in result.output
    assert sorted(os.listdir(tmp_path)) == ["g.deals.parquet", "g.parquet"]
    games, deals = pq.read_table(out), pq.read_table(deals_path(out))
    assert games.num_rows == 30 and deals.num_rows == sum(games["deals"].to_pylist())
    assert games.schema.metadata[b"canasta_sim.run"] == b"games"
    assert games.schema.metadata[b"canasta_sim.rules"] == b"two-player"
    assert set(deals["game"].to_pylist()) == set(range(30))


def test_cli_games_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "g.parquet"
    for args in (["--games", "-4"], ["--games", "3", "--deals", "3"],
                 ["--games", "3", "--scores", "0,0"]):
        result = CliRunner().invoke(cli, ["simulate", *args, "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert result.output.startswith("canasta-sim: error:") and result.output.count("\n") == 1
    assert os.listdir(tmp_path) == []


def test_cli_replay_games(tmp_path):
    result = CliRunner().invoke(cli, ["replay", "--seed", "4", "--games", "1:3"])
    assert result.exit_code == 0, result.output
    starts = [e for e in map(json.loads, result.output.splitlines()) if e["ev"] == "start"]
    assert {s["game"] for s in starts} == {1, 2} and starts[0]["deal"] == 0
    for args in (["--games", "0:1", "--deals", "0:1"], [], ["--games", "2:1"],
                 ["--games", "0:1", "--scores", "0,0"]):
        result = CliRunner().invoke(cli, ["replay", *args])
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


def test_cli_rules_list_and_show():
    result = CliRunner().invoke(cli, ["rules", "list"])
    assert result.exit_code == 0
    for name in ("classic", "two-player", "three-player", "six-player", "six-player-3x2",
                 "seed-a", "seed-b"):
        assert any(line.startswith(name + " ") for line in result.output.splitlines())
    result = CliRunner().invoke(cli, ["rules", "show", "seed-b(hand_size=13)"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "rule set: seed-b(hand_size=13)"
    marked = {line.split()[1] for line in lines[1:] if line.startswith("*")}
    assert marked == {"hand_size", "wild_ratio_rule", "upcard_red3_freezes",
                      "concealed_canasta_bonus"}
    result = CliRunner().invoke(cli, ["rules", "show", "classic(hand_size=999)"])
    assert result.exit_code == 2 and "hand_size" in result.output


def test_zero_games_give_empty_tables_with_the_schema():
    games, deals = canasta_sim.simulate(games=0)
    assert games.num_rows == 0 and deals.num_rows == 0
    assert "winner" in games.column_names and "s0_cum_before" in deals.column_names


def test_first_game_without_games_is_rejected():
    with pytest.raises(BadInput, match="first_game=5"):
        canasta_sim.simulate(10, first_game=5)
