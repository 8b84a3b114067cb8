"""Parallel, chunked, streamed runs give exactly the rows of a plain run (issue 3).

No timing is asserted here: speed lives in ``canasta-sim bench``.
"""
import csv
import io
import os

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import canasta_sim
from canasta_sim import results, runner, simulation
from canasta_sim.audit import audit_deal
from canasta_sim.cli import cli
from canasta_sim.trace import trace_events

POLICIES = ["greedy", "random", "random,greedy,greedy,random"]


def _content(table):
    """A table's rows and schema without its creation time."""
    meta = dict(table.schema.metadata)
    meta.pop(b"canasta_sim.created")
    return table.to_pydict(), meta


@pytest.mark.parametrize("policies", POLICIES)
def test_thread_counts_give_identical_results(policies):
    one = canasta_sim.simulate(2000, seed=21, policies=policies, threads=1, chunk_size=700)
    two = canasta_sim.simulate(2000, seed=21, policies=policies, threads=2, chunk_size=700)
    assert _content(one) == _content(two)


@pytest.mark.parametrize("rules", ["classic", "two-player", "six-player-3x2"])
def test_chunk_sizes_give_identical_results(rules):
    whole = canasta_sim.simulate(400, seed=4, rules=rules, policies="random", threads=2,
                                 chunk_size=65536)
    for chunk in (1, 7):
        part = canasta_sim.simulate(400, seed=4, rules=rules, policies="random", threads=2,
                                    chunk_size=chunk)
        assert _content(part) == _content(whole)


def test_split_range_covers_every_deal_once():
    for n in (0, 1, 7, 256, 1000):
        for parts in (1, 2, 3, 8, 2000):
            pieces = runner.split_range(n, parts)
            assert [i for a, b in pieces for i in range(a, b)] == list(range(n))
            assert len(pieces) <= max(parts, 1)


def test_chunks_become_parquet_row_groups(tmp_path):
    plan = runner.prepare(1000, seed=3)
    path = tmp_path / "run.parquet"
    results.write_parquet(runner.iter_tables(plan, 300, False, 2), path)
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups == 4
    assert [meta.row_group(i).num_rows for i in range(4)] == [300, 300, 300, 100]
    assert _content(pq.read_table(path)) == _content(simulation.simulate(1000, seed=3))


def test_progress_bar_changes_nothing(monkeypatch):
    plain = canasta_sim.simulate(500, seed=8, chunk_size=100)
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    shown = canasta_sim.simulate(500, seed=8, chunk_size=100, progress=True)
    assert "deals" in stderr.getvalue()
    assert _content(shown) == _content(plain)


def test_interrupted_run_leaves_no_file_and_a_rerun_is_whole(tmp_path):
    """Ctrl-C in the middle of a streamed run (the progress bar is torn down with it)."""
    plan = runner.prepare(600, seed=9)
    path = tmp_path / "run.parquet"

    def interrupted(tables):
        for k, table in enumerate(tables):
            if k == 2:
                raise KeyboardInterrupt
            yield table

    with pytest.raises(KeyboardInterrupt):
        results.write_parquet(interrupted(runner.iter_tables(plan, 100, True, 2)), path)
    assert os.listdir(tmp_path) == []
    results.write_parquet(runner.iter_tables(plan, 100, False, 2), path)
    assert _content(pq.read_table(path)) == _content(simulation.simulate(600, seed=9))


def test_cli_quiet_and_threads_change_nothing(tmp_path):
    paths = []
    for extra in (["--quiet", "--threads", "1"], ["--threads", "2", "--chunk-size", "33"]):
        path = tmp_path / f"run{len(paths)}.parquet"
        result = CliRunner().invoke(cli, ["simulate", "--deals", "120", "--seed", "5",
                                          "--out", str(path), *extra])
        assert result.exit_code == 0, result.output
        paths.append(path)
    assert _content(pq.read_table(paths[0])) == _content(pq.read_table(paths[1]))


def test_warm_command_reports_every_kernel():
    result = CliRunner().invoke(cli, ["warm"])
    assert result.exit_code == 0, result.output
    for name in ("play_deals_nb:", "trace_deal_nb:", "deal_only_nb:", "play_games_nb:", "cache:"):
        assert name in result.output


def test_bench_writes_every_case(tmp_path):
    path = tmp_path / "bench.csv"
    # files bench once used as scratch names beside its CSV: a user's files must survive
    mine = [tmp_path / f".bench-{os.getpid()}.parquet", tmp_path / "target.parquet"]
    for sentinel in mine:
        sentinel.write_bytes(b"mine")
    result = CliRunner().invoke(cli, ["bench", "--deals", "300", "--repeat", "1", "--warmup",
                                      "0", "--threads", "2", "--no-cold", "--no-target",
                                      "--check", "--sample", "5", "--csv", str(path)])
    assert result.exit_code == 0, result.output
    assert all(sentinel.read_bytes() == b"mine" for sentinel in mine)
    assert sorted(os.listdir(tmp_path)) == sorted([p.name for p in mine] + ["bench.csv"])
    rows = list(csv.DictReader(path.open()))
    cases = {(r["case"], r["policy"], r["threads"], r["mode"]) for r in rows}
    for policy in ("random", "greedy"):
        for threads in ("1", "2"):
            assert ("play", policy, threads, "kernel") in cases
            assert ("play", policy, threads, "end-to-end") in cases
    assert ("floor", "-", "2", "kernel") in cases
    assert any(r["case"].startswith("compile cached") for r in rows)
    assert all(float(r["median"]) > 0 for r in rows)
    assert "card conservation and score identity hold" in result.output


def test_bench_rejects_bad_policy_before_running(tmp_path):
    result = CliRunner().invoke(cli, ["bench", "--policies", "smart", "--csv",
                                      str(tmp_path / "b.csv")])
    assert result.exit_code == 2 and "'smart'" in result.output
    assert not (tmp_path / "b.csv").exists()


@pytest.mark.parametrize("rules", ["classic", "two-player", "six-player"])
def test_audit_finds_every_trace_whole(rules):
    parsed = canasta_sim.rules.parse_rules(rules)
    for events in trace_events(rules, seed=2, first=0, last=40, policies="random"):
        assert audit_deal(events, parsed) == []


def test_audit_catches_a_tampered_trace():
    parsed = canasta_sim.rules.parse_rules("classic")
    events = next(trace_events("classic", seed=1, first=0, last=1))
    events[-1]["sides"][1]["total"] += 5
    assert any("R56" in p for p in audit_deal(events, parsed))
    events = next(trace_events("classic", seed=1, first=0, last=1))
    discard = next(e for e in events if e["ev"] == "discard")
    discard["card"] = "JK" if discard["card"] != "JK" else "A"
    assert audit_deal(events, parsed)


def test_one_compilation_serves_every_rule_set_and_policy():
    """Rule sets and policies are arguments: every variant, deals and games alike, runs on one
    machine-code version of the one entry kernel (kernels/play/tasks.py; checked in a fresh
    process, so no other test adds signatures)."""
    import subprocess
    import sys

    code = """
import canasta_sim
from canasta_sim.kernels.play.tasks import run_task_nb
for rules in ['classic', 'two-player', 'three-player', 'six-player', 'six-player-3x2',
              'seed-a(black3_card_value=100)']:
    for policies in ['greedy', 'random']:
        canasta_sim.simulate(30, rules=rules, policies=policies, threads=2, chunk_size=7)
        canasta_sim.simulate(games=2, rules=rules, policies=policies, threads=2)
print(len(run_task_nb.signatures))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["1"]
