"""The command line: bad input gives one error line and exit 2, before any deal is played."""
import json
import os
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest
from canasta_sim.kernels.game import layout
from canasta_sim.kernels.players import ids as policy_ids
from click.testing import CliRunner

from canasta_sim import runner, simulation
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.policies import parse_policies


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()                  # click >= 8.2 keeps stderr apart


@pytest.fixture
def no_engine(monkeypatch):
    """Fail the test if any deal would be played."""
    def forbidden():
        raise AssertionError("a deal was played before the input was checked")
    monkeypatch.setattr(runner, "_engine", forbidden)


def _invoke(args, tmp_path):
    result = _runner().invoke(cli, args, catch_exceptions=True)
    return result


def _assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("canasta-sim: error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in lines[0]


SIMULATE_ERRORS = [
    (["--deals", "-5"], ["deals=-5", "0..1000000000000"]),
    (["--deals", "many"], ["'many'", "--deals"]),
    (["--seed", "-1"], ["seed=-1"]),
    (["--seed", str(2 ** 63)], [f"seed={2 ** 63}"]),
    (["--rules", "foo"], ["'foo'", "classic, two-player"]),
    (["--rules", "classic(colour=red)"], ["'colour'"]),
    (["--rules", "classic(hand_size=40)"], ["hand_size=40"]),
    (["--rules", "classic(wild_canasta_bonus=2000)"], ["not supported yet"]),
    (["--rules", "missing.toml"], ["'missing.toml'"]),
    (["--policies", "smart"], ["'smart'", "random, greedy"]),
    (["--policies", "greedy,random,greedy"], ["3 policies", "4 seats", "one per side (2)",
                                               "4 comma-separated"]),
    (["--rules", "six-player", "--policies", "greedy,random,greedy,random"], ["6 seats"]),
    (["--rules", "three-player", "--policies", "greedy,random"], ["3 seats"]),
    (["--policies", "greedy(depth=2)"], ["'depth'"]),
    (["--scores", "0,0,0"], ["'0,0,0'", "2 sides"]),
    (["--scores", "zero,0"], ["'zero,0'"]),
    (["--batch-size", "0"], ["chunk_size=0"]),
    (["--chunk-size", "-5"], ["chunk_size=-5"]),
    (["--chunk-size", "50000000"], ["chunk_size=50000000", f"1..{runner.max_chunk_size()}",
                                    "GiB"]),
    (["--games", "10", "--chunk-size", str(runner.max_chunk_size(True) + 1)],
     [f"1..{runner.max_chunk_size(True)}", "games"]),
    (["--rules", "classic(hand_size=25)"], ["hand_size=25", "1..24"]),
    (["--threads", "0"], ["threads=0", "1..1024"]),
    (["--first-deal", "-3"], ["first_deal=-3"]),
    (["--bogus"], ["--bogus"]),
]


@pytest.mark.parametrize("args, fragments", SIMULATE_ERRORS)
def test_simulate_bad_input(tmp_path, no_engine, args, fragments):
    out = tmp_path / "run.parquet"
    result = _invoke(["simulate", "--quiet", "--out", str(out), *args], tmp_path)
    _assert_one_line_error(result, *fragments)
    assert not out.exists()
    assert os.listdir(tmp_path) == []


def test_unwritable_out_is_caught_first(tmp_path, no_engine):
    target = tmp_path / "nodir" / "run.parquet"
    result = _invoke(["simulate", "--quiet", "--out", str(target)], tmp_path)
    _assert_one_line_error(result, "does not exist", "nodir")
    assert not target.parent.exists()


def test_empty_out_path(tmp_path, no_engine):
    result = _invoke(["simulate", "--quiet", "--out", ""], tmp_path)
    _assert_one_line_error(result, "cannot write ''")


def test_first_deal_gives_the_rows_of_a_longer_run(tmp_path):
    import pyarrow.parquet as pq
    whole, part = tmp_path / "whole.parquet", tmp_path / "part.parquet"
    assert _invoke(["simulate", "-q", "--deals", "60", "--out", str(whole)],
                   tmp_path).exit_code == 0
    assert _invoke(["simulate", "-q", "--deals", "20", "--first-deal", "40", "--out",
                    str(part)], tmp_path).exit_code == 0
    assert pq.read_table(part).equals(pq.read_table(whole).slice(40, 20))


def test_out_is_a_directory(tmp_path, no_engine):
    result = _invoke(["simulate", "--quiet", "--out", str(tmp_path)], tmp_path)
    _assert_one_line_error(result, "directory")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_directory(tmp_path, no_engine):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = _invoke(["simulate", "--quiet", "--out", str(folder / "x.parquet")], tmp_path)
        _assert_one_line_error(result, "not writable")
    finally:
        folder.chmod(0o700)


REPLAY_ERRORS = [
    (["--deals", "5:2"], ["'5:2'", "ends before it starts"]),
    (["--deals", "-1:3"], ["'-1:3'", "below 0"]),
    (["--deals", "4:4"], ["'4:4'", "empty"]),
    (["--deals", "a:b"], ["'a:b'", "malformed"]),
    (["--deals", "1:2:3"], ["'1:2:3'"]),
    ([], ["--deals"]),
    (["--deals", "0:1", "--rules", "nope"], ["'nope'"]),
    (["--deals", "0:1", "--policies", "greedy,greedy,greedy"], ["3 policies"]),
    (["--deals", "0:1", "--scores", "1"], ["'1'"]),
    (["--deals", "0:1", "--seed", "-3"], ["seed=-3"]),
]


@pytest.mark.parametrize("args, fragments", REPLAY_ERRORS)
def test_replay_bad_input(tmp_path, monkeypatch, args, fragments):
    import canasta_sim

    monkeypatch.setitem(sys.modules, "canasta_sim.trace", None)  # importing it would fail
    monkeypatch.delattr(canasta_sim, "trace", raising=False)
    result = _invoke(["replay", *args], tmp_path)
    _assert_one_line_error(result, *fragments)


def test_unknown_command(tmp_path):
    _assert_one_line_error(_invoke(["shuffle"], tmp_path), "'shuffle'")


def test_version_and_help(tmp_path):
    from canasta_sim import __version__

    result = _invoke(["--version"], tmp_path)
    assert result.exit_code == 0 and __version__ in result.stdout
    for command in ([], ["simulate"], ["replay"]):
        result = _invoke([*command, "--help"], tmp_path)
        assert result.exit_code == 0
        assert "Example" in result.stdout
    assert "--deals 5:8" in _invoke(["replay", "--help"], tmp_path).stdout


def test_real_process_prints_no_traceback(tmp_path):
    out = tmp_path / "x.parquet"
    proc = subprocess.run([sys.executable, "-m", "canasta_sim.cli", "simulate", "--deals",
                           "-1", "--out", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("canasta-sim: error: deals=-1 is not accepted: accepted: "
                                   "a whole number in 0..1000000000000, e.g. 10000")
    assert proc.stdout == "" and not out.exists()


# --- helpers behind the options --------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [("0:9", (0, 9)), ("5", (5, 6)), (" 3 : 4 ", (3, 4)),
                                            ("7:8", (7, 8))])
def test_parse_deal_range(text, expected):
    assert runner.parse_deal_range(text) == expected


@pytest.mark.parametrize("text", ["", ":", "3:", ":4", "-1:2", "4:3", "4:4", "1.5:2", "a:b",
                                  "1:2:3", "-1"])
def test_parse_deal_range_rejects(text):
    with pytest.raises(BadInput) as info:
        runner.parse_deal_range(text)
    assert repr(text) in str(info.value)


def test_parse_policies():
    names, ids, params = parse_policies("greedy,random,greedy", 3)
    assert names == ("greedy", "random", "greedy")
    assert ids.dtype == np.int64 and ids.shape == (layout.MAX_SEATS,)
    assert ids.tolist() == [policy_ids.POLICY_GREEDY, policy_ids.POLICY_RANDOM, policy_ids.POLICY_GREEDY,
                            -1, -1, -1]
    assert params.shape == (layout.MAX_SEATS, layout.NPARAMS) and params.dtype == np.float64
    names, ids, _ = parse_policies(" Random ", 4)
    assert names == ("random",) * 4 and ids[4] == -1


@pytest.mark.parametrize("text, n, fragment", [
    ("smart", 4, "'smart'"), ("greedy,,greedy", 3, "''"), ("greedy,greedy", 4, "4 seats"),
    ("greedy(x=1)", 4, "'x'"), ("greedy(", 4, "'greedy('"), (3, 4, "3"),
])
def test_parse_policies_rejects(text, n, fragment):
    with pytest.raises(BadInput) as info:
        parse_policies(text, n)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_runner_validates_before_playing(no_engine):
    for kwargs in ({"deals": -1}, {"deals": 1.5}, {"deals": True}, {"deals": 1, "seed": -1},
                   {"deals": 1, "rules": "foo"}, {"deals": 1, "policies": "x"},
                   {"deals": 1, "scores_before": [1, 2, 3]},
                   {"deals": 1, "scores_before": [True, 0]},
                   {"deals": 1, "chunk_size": 0}, {"deals": 1, "threads": 0},
                   {"deals": 1, "threads": 2.5}):
        with pytest.raises(BadInput):
            simulation.simulate(**kwargs)


def test_scores_before_array():
    arr = runner.parse_scores([1500, -20], 2)
    assert arr.dtype == np.int64 and arr.tolist() == [1500, -20, 0]
    assert runner.parse_scores("1,2,3", 3).tolist() == [1, 2, 3]
    assert runner.parse_scores(None, 2).tolist() == [0, 0, 0]


# --- with the engine (these need kernels/play/turn.py and canasta_sim/trace.py) ----------------

def test_simulate_writes_parquet(tmp_path):
    out = tmp_path / "run.parquet"
    result = _invoke(["simulate", "--deals", "25", "--seed", "3", "--quiet", "--chunk-size",
                      "10", "--out", str(out)], tmp_path)
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert result.stdout.count("\n") == 1 and "25 deals" in result.stdout
    table = pq.read_table(out)
    assert table.num_rows == 25
    assert table["deal"].to_pylist() == list(range(25))
    meta = table.schema.metadata
    assert meta[b"canasta_sim.rules"] == b"classic" and meta[b"canasta_sim.seed"] == b"3"
    assert [f for f in os.listdir(tmp_path)] == ["run.parquet"]


def test_replay_prints_json_lines(tmp_path):
    result = _invoke(["replay", "--seed", "3", "--deals", "0:2"], tmp_path)
    assert result.exit_code == 0, (result.stderr, result.exception)
    events = [json.loads(line) for line in result.stdout.splitlines()]
    starts = [e for e in events if e["ev"] == "start"]
    assert [e["deal"] for e in starts] == [0, 1]
    assert starts[0]["rules"] == "classic"
