"""Issue 12, points 7-9: output files, rule files and stdout at the edges.  Each bad input
ends in one line ``canasta-sim: error: ...`` naming the value and what is accepted, exit
status 2, and nothing left on disk."""
import errno
import os
import signal
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canasta_sim import results
from canasta_sim.cli import cli

CLI = [sys.executable, "-m", "canasta_sim"]


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()                  # click >= 8.2 keeps stderr apart


def _one_line_error(result, *fragments):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("canasta-sim: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("pipe.parquet")
    os.mkfifo("rules.toml")
    os.mkdir("dir.parquet")
    os.symlink("/dev/zero", "zero.parquet")
    (tmp_path / "latin1.toml").write_bytes(b"hand_size = 12\n# caf\xe9\n")
    return tmp_path


BAD_OUTPUTS = [
    (["--out", "x.csv"], ["'x.csv'", "ending in .parquet"]),
    (["--out", "pipe.parquet"], ["'pipe.parquet'", "a FIFO", "regular file"]),
    (["--out", "dir.parquet"], ["'dir.parquet'", "a directory"]),
    (["--out", "zero.parquet"], ["'zero.parquet'", "a device"]),
    (["--out", "/dev/null"], ["'/dev/null'"]),
    (["--out", "a" * 250 + ".parquet"], ["too long", "at most"]),
    (["--out", "a" * 300 + ".parquet"], ["too long", "at most"]),
    (["--out", "missing/x.parquet"], ["'missing'", "mkdir -p missing"]),
    (["--games", "3", "--out", "g.csv"], ["'g.csv'", ".parquet"]),
    (["--rules", "rules.toml"], ["'rules.toml'", "not a regular file"]),
    (["--rules", "latin1.toml"], ["'latin1.toml'", "not UTF-8", "UTF-8 .toml"]),
]


@pytest.mark.parametrize("args, fragments", BAD_OUTPUTS)
def test_bad_output_or_rule_file_is_refused_before_anything_runs(folder, args, fragments):
    before = sorted(os.listdir(folder))
    result = _runner().invoke(cli, ["simulate", "--deals", "3", *args])
    _one_line_error(result, *fragments)
    assert sorted(os.listdir(folder)) == before


def test_csv_outputs_must_end_in_csv(folder):
    result = _runner().invoke(cli, ["strength", "--games", "2", "--csv", "table.parquet"])
    _one_line_error(result, "'table.parquet'", "ending in .csv")


def test_default_output_folder_is_created(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _runner().invoke(cli, ["simulate", "--deals", "3", "--quiet"])
    assert result.exit_code == 0, result.output
    assert pq.read_table(tmp_path / "results" / "run.parquet").num_rows == 3
    bad = _runner().invoke(cli, ["simulate", "--deals", "-3"])
    assert bad.exit_code == 2


def test_default_output_folder_that_cannot_be_made(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").write_text("a file where the folder should be")
    result = _runner().invoke(cli, ["simulate", "--deals", "3"])
    _one_line_error(result, "'results'", "--out PATH.parquet")


def test_full_disk_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    """ENOSPC while writing (simulated: the machine's disks are not full)."""
    def full(self, table, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    out = tmp_path / "x.parquet"
    result = _runner().invoke(cli, ["simulate", "--deals", "3", "--out", str(out)])
    _one_line_error(result, str(out), "no space left", "room for the file")
    assert os.listdir(tmp_path) == []


@pytest.fixture
def small_disk(tmp_path):
    """A 200 kB tmpfs (needs the right to mount, e.g. root in a container; else skipped)."""
    folder = tmp_path / "small"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip()[:80]}): the "
                    "full-disk case is covered by test_full_disk_is_one_line_and_leaves_nothing")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_really_full_disk(small_disk):
    out = small_disk / "x.parquet"
    done = subprocess.run(CLI + ["simulate", "--deals", "20000", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"canasta-sim: error: cannot write {str(out)!r}: no space left on the device; "
        "accepted: an output folder on a disk with room for the file (nothing was written)"]
    assert os.listdir(small_disk) == []


def test_temporary_file_is_written_through_its_descriptor(tmp_path, monkeypatch):
    """The temporary file is never reopened by name: ParquetWriter gets a file object."""
    seen = []
    original = pq.ParquetWriter.__init__

    def spy(self, where, *args, **kwargs):
        assert not isinstance(where, (str, os.PathLike)), where
        seen.append(os.fstat(where.fileno()).st_ino)
        original(self, where, *args, **kwargs)
    monkeypatch.setattr(pq.ParquetWriter, "__init__", spy)
    path = results.write_parquet(__import__("canasta_sim").simulate(2), tmp_path / "x.parquet")
    assert seen == [os.stat(path).st_ino]     # the very file written is the one moved in
    assert pq.read_table(path).num_rows == 2


def test_kill_9_leftovers_are_removed_by_the_next_run(tmp_path):
    out = tmp_path / "x.parquet"
    proc = subprocess.Popen(CLI + ["simulate", "--deals", "3000000", "--out", str(out),
                                   "--threads", "1"], stderr=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL)
    temps = []
    for _ in range(1200):                      # the temporary file appears after kernel load
        temps = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
        if temps or proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert temps and os.path.exists(tmp_path / temps[0]) and not out.exists()
    done = subprocess.run(CLI + ["simulate", "--deals", "5", "--out", str(out), "--quiet"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert os.listdir(tmp_path) == ["x.parquet"]


def test_a_live_runs_temporary_file_is_kept(tmp_path):
    live = tmp_path / f".x.parquet.{os.getppid()}.abcdefgh.tmp"
    live.write_text("")
    results.write_parquet(__import__("canasta_sim").simulate(1), tmp_path / "x.parquet")
    assert live.exists()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signal_during_a_run_leaves_nothing(tmp_path, signum):
    out = tmp_path / "x.parquet"
    proc = subprocess.Popen(CLI + ["simulate", "--deals", "3000000", "--out", str(out),
                                   "--threads", "1"], stderr=subprocess.PIPE, text=True,
                            stdout=subprocess.DEVNULL)
    for _ in range(1200):
        if any(n.endswith(".tmp") for n in os.listdir(tmp_path)) or proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.send_signal(signum)
    err = proc.communicate(timeout=600)[1]
    assert proc.returncode == 130, err[-3000:]
    assert err.strip().splitlines()[-1] == "canasta-sim: error: interrupted"
    assert "Traceback" not in err and os.listdir(tmp_path) == []


def test_replay_into_head_exits_0():
    done = subprocess.run(" ".join(CLI) + " replay --deals 0:200 | head -1", shell=True,
                          capture_output=True, text=True, executable="/bin/bash")
    assert done.stdout.startswith('{"ev":"start"') and done.stderr == ""
    status = subprocess.run(["bash", "-c", " ".join(CLI) + " replay --deals 0:200 --pretty "
                             "| head -1; exit ${PIPESTATUS[0]}"], capture_output=True, text=True)
    assert status.returncode == 0, status.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_replay_into_a_full_stdout():
    with open("/dev/full", "w") as full:
        done = subprocess.run(CLI + ["replay", "--deals", "0:50"], stdout=full,
                              stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "canasta-sim: error: cannot write to standard output: No space left on device: "
        "accepted: a stdout that takes the output (a file on a disk with room, a pipe, a "
        "terminal)"]


def test_replay_into_a_closed_stdout():
    done = subprocess.run(["bash", "-c", " ".join(CLI) + " replay --deals 0:5 >&-"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "canasta-sim: error: standard output is closed: accepted: an open stdout, e.g. "
        "'> traces.jsonl' or '| less'"]


def test_a_swallowed_interrupt_still_stops_the_run(tmp_path, monkeypatch):
    """Point 7: a Ctrl-C whose KeyboardInterrupt is lost inside a library while the kernels
    load (as numba sometimes does) still stops the run before anything is written."""
    from canasta_sim import _signals, warm

    monkeypatch.setattr(_signals, "_received", [])     # never leak into later tests
    real = warm.warm_play_deals

    def swallowing():
        try:
            _signals.interrupt(signal.SIGINT, None)
        except BaseException:  # noqa: BLE001 - what the library did
            pass
        return real()
    monkeypatch.setattr(warm, "warm_play_deals", swallowing)
    out = tmp_path / "x.parquet"
    result = _runner().invoke(cli, ["simulate", "--deals", "5", "--out", str(out)])
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines()[-1] == "canasta-sim: error: interrupted"
    assert os.listdir(tmp_path) == []


def test_an_interrupt_turned_into_another_error_is_still_an_interrupt(tmp_path, monkeypatch):
    from canasta_sim import _signals, warm

    monkeypatch.setattr(_signals, "_received", [])
    def converting():
        try:
            _signals.interrupt(signal.SIGTERM, None)
        except KeyboardInterrupt as exc:
            raise RuntimeError("compilation failed") from exc
    monkeypatch.setattr(warm, "warm_play_deals", converting)
    result = _runner().invoke(cli, ["simulate", "--deals", "5", "--out",
                                    str(tmp_path / "x.parquet")])
    assert result.exit_code == 130 and "Traceback" not in result.stderr
    assert os.listdir(tmp_path) == []
    assert _signals._received == []                    # reset at the end of the command


@pytest.mark.parametrize("args", [["policies"], ["rules", "show"], ["rules", "list"],
                                  ["replay", "--deals", "0:3", "--pretty"], ["--help"]])
def test_a_reader_gone_before_the_first_line_means_status_0(args):
    """The reader of stdout is gone before anything is written: every command ends quietly
    with status 0 (click alone exits 1)."""
    proc = subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0 and err == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_every_command_into_a_full_or_closed_stdout():
    with open("/dev/full", "w") as full:
        done = subprocess.run(CLI + ["policies"], stdout=full, stderr=subprocess.PIPE,
                              text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("canasta-sim: error: cannot write to standard output: No "
                                  "space left on device")
    closed = subprocess.run(["bash", "-c", " ".join(CLI) + " policies >&-"],
                            capture_output=True, text=True)
    assert closed.returncode == 2 and "standard output is closed" in closed.stderr
