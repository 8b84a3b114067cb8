"""The Python API and the command line answer bad input the same way: one BadInput line
naming the value and what is accepted, never a raw TypeError, FileNotFoundError or
ArrowInvalid (issue 27, point 7); errors name their real cause (point 5)."""
import errno

import pytest
from click.testing import CliRunner

import canasta_sim
from canasta_sim import study
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput

SPEC = {"study": {"name": "tiny", "seed": 1, "deals": 40, "shard_size": 20},
        "arms": [{"name": "a", "rules": "classic", "policies": "random"}]}

CALLS = {
    "simulate(10, sweep=3)": lambda: canasta_sim.simulate(10, sweep=3),
    "to_pandas(None)": lambda: canasta_sim.to_pandas(None),
    "to_pandas('x')": lambda: canasta_sim.to_pandas("x"),
    "RuleSet(nosuch=1)": lambda: canasta_sim.RuleSet(nosuch=1),
    "RuleSet(4)": lambda: canasta_sim.RuleSet(4),
    "study.open(None)": lambda: study.open(None),
    "study.open(3)": lambda: study.open(3),
    "study.status(None)": lambda: study.status(None),
    "study.make_report(None)": lambda: study.make_report(None),
    "study.run(spec, None)": lambda: study.run(SPEC, None),
    "study.run(spec, 3)": lambda: study.run(SPEC, 3),
    "simulate(deals='10')": lambda: canasta_sim.simulate(deals="10"),
    "simulate(10, rules=None)": lambda: canasta_sim.simulate(10, rules=None),
    "simulate(10, policies=3)": lambda: canasta_sim.simulate(10, policies=3),
    "simulate(10, chunk_size=10**9)": lambda: canasta_sim.simulate(10, chunk_size=10 ** 9),
    "parse_rules(None)": lambda: canasta_sim.parse_rules(None),
    "study.open('/nonexistent')": lambda: study.open("/nonexistent"),
    "study.load_spec(3)": lambda: study.load_spec(3),
    "study.run(spec, out, executor=None)": lambda: study.run(SPEC, "/nonexistent/x",
                                                             executor=None),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_bad_arguments_raise_one_line_bad_input(name):
    with pytest.raises(BadInput) as info:
        CALLS[name]()
    text = str(info.value)
    assert "\n" not in text and "accepted" in text, text


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    root = tmp_path_factory.mktemp("study") / "tiny"
    return study.run(SPEC, root, threads=1, report=False)


@pytest.mark.parametrize("call, fragment", [
    (lambda s: s.dataset("nosuch"), "kind 'nosuch'"),
    (lambda s: s.dataset(3), "kind 3"),
    (lambda s: s.to_table(kind="deals"), "kind 'deals'"),
    (lambda s: s.to_table(columns=["nosuch"]), "columns: 'nosuch'"),
    (lambda s: s.to_table(columns="deal"), "columns: 'deal'"),
    (lambda s: s.to_table(filter="x"), "filter 'x'"),
    (lambda s: s.to_pandas(columns=["nosuch"]), "columns: 'nosuch'"),
])
def test_a_study_s_readers_refuse_bad_arguments(tiny_study, call, fragment):
    with pytest.raises(BadInput) as info:
        call(tiny_study)
    assert fragment in str(info.value) and "accepted" in str(info.value)
    assert tiny_study.to_table(columns=["deal"]).num_rows == 40     # good ones still work


def test_a_damaged_shard_is_named(tiny_study, tmp_path):
    """A shard whose pages cannot be read is named, with what to do (the report leaves a
    shard whose checksum does not match out before reading it: test_data_integrity)."""
    import shutil

    from canasta_sim.study.summary import RangeReader

    root = tmp_path / "copy"
    shutil.copytree(tiny_study.folder.root, root)
    shard = next((root / "data" / "arm=a").glob("part-0-*.parquet"))
    data = bytearray(shard.read_bytes())
    data[100:1500] = b"Z" * 1400                    # the pages; the footer stays readable
    shard.write_bytes(bytes(data))
    count = int(shard.stem.split("-")[-1])
    with pytest.raises(BadInput) as info:       # the reader, whatever the manifest says
        RangeReader(study.open(root)).read("a", 0, count, "data")
    assert f"shard '{shard}' cannot be read" in str(info.value)
    assert "run the study again" in str(info.value)


def test_an_os_error_without_a_file_name_names_its_cause(monkeypatch):
    """Only an error raised while printing is about standard output."""
    def reset(_text):
        raise ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")
    monkeypatch.setattr("canasta_sim.rules.parse_rules", reset)
    result = CliRunner().invoke(cli, ["rules", "show", "classic"])
    assert result.exit_code == 2
    assert result.output.strip() == ("canasta-sim: error: ConnectionResetError: Connection "
                                     "reset by peer")


def test_a_lost_scheduler_is_told_from_a_task_error():
    import concurrent.futures

    from canasta_sim.study.execute import _scheduler_lost

    class Running:
        status = "running"

    class Closed:
        status = "closed"

    assert _scheduler_lost(Running(), OSError("Stream is closed"))
    assert _scheduler_lost(Running(), concurrent.futures.CancelledError("lost"))
    assert _scheduler_lost(Closed(), RuntimeError("anything"))
    assert not _scheduler_lost(Running(), RuntimeError("a task's own error"))
    assert not _scheduler_lost(Closed(), BadInput("a task's bad input"))
    assert not _scheduler_lost(Closed(), KeyboardInterrupt())


def test_audit_refuses_a_device_at_once():
    result = CliRunner().invoke(cli, ["audit", "/dev/zero"])
    assert result.exit_code == 2
    assert "'/dev/zero': it is not a regular file" in result.output


def test_a_failed_compare_leaves_nothing_that_blocks_the_rerun(tmp_path):

    out = tmp_path / "cmp"
    broken = f"{__file__.rsplit('/', 1)[0]}/user_policies.py:python_raises"
    result = CliRunner().invoke(cli, ["compare", "--policies", broken, "--policies", "greedy",
                                      "--deals", "40", "--out", str(out), "-q", "--no-report"])
    assert result.exit_code == 2 and "python_raises raised" in result.output
    assert not out.exists()
    result = CliRunner().invoke(cli, ["compare", "--policies", "random", "--policies",
                                      "greedy", "--deals", "40", "--out", str(out), "-q",
                                      "--no-report"])
    assert result.exit_code == 0, result.output
