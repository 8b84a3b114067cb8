"""Studies I: specs, the study folder, resume, executors (threads and Dask), slices, status."""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.study import execute, store
from canasta_sim.study.spec import load_spec

B3F = """
[study]
name = "b3f"
seed = 3
deals = 3000
shard_size = 1000

[[arms]]
name = "classic"
rules = "classic"
policies = "greedy"

[[arms]]
name = "b3f"
rules = "classic(black_three_freezes=true)"
policies = "greedy"
"""


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()


def _spec_file(tmp_path, text=B3F, name="spec.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _rows(folder, kind="data"):
    """Every row of a study as one table sorted by arm, rotation and unit."""
    table = store.open_study(folder).to_table(kind)
    unit = "game" if "game" in table.schema.names else "deal"
    keys = [("arm", "ascending"), ("rotation", "ascending"), (unit, "ascending")]
    if kind == "deals":
        keys.append(("deal_in_game", "ascending"))
    table = table.sort_by(keys)
    return table.replace_schema_metadata(None)


def _part_files(folder):
    return sorted(os.path.relpath(p, folder)
                  for p in glob.glob(os.path.join(folder, "*", "arm=*", "*")))


# --------------------------------------------------------------------------------------------
# Spec
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edit, fragments", [
    (lambda s: s.replace('seed = 3', 'seed = 3\ncolour = "red"'), ["unknown key 'colour'",
                                                                   "[study]"]),
    (lambda s: s.replace('deals = 3000', 'deals = -5'), ["deals=-5"]),
    (lambda s: s.replace('deals = 3000', 'deals = 3000\ngames = 10'), ["exactly one of deals"]),
    (lambda s: s.replace('name = "b3f"\nrules', 'name = "classic"\nrules'),
     ["'classic' is used twice"]),
    (lambda s: s.replace('black_three_freezes=true', 'black_three_freeze=true'),
     ["black_three_freeze", "did you mean black_three_freezes"]),
    (lambda s: s.replace('policies = "greedy"', 'policies = "grumpy"', 1), ["grumpy"]),
    (lambda s: s.replace('shard_size = 1000', 'shard_size = 0'), ["shard_size=0"]),
    (lambda s: s.replace('name = "b3f"\nseed', 'name = "b 3"\nseed'), ["'b 3'", "accepted"]),
    (lambda s: s + '\n[sprt]\nmetric = "nope"\nh0 = 0\nh1 = 1\n', ["metric='nope'"]),
    (lambda s: s.replace('seed = 3', 'seed = 3\ndesign = "swiss"'), ["design='swiss'"]),
    (lambda s: s.replace('policies = "greedy"\n\n[[arms]]',
                         'policies = "greedy"\nsweep = "rules.hand_size=15:11"\n\n[[arms]]'),
     ["hand_size=15:11", "malformed"]),
    (lambda s: s + "[[arms]\n", ["not valid TOML"]),
    (lambda s: s.replace('name = "b3f"\nrules', 'name = "Classic"\nrules'),
     ["'Classic' is the same as 'classic' but for case"]),
    (lambda s: s + '\n[sprt]\nmetric = "s2_score"\nh0 = 0\nh1 = 1\n', ["metric='s2_score'"]),
    (lambda s: s.replace('policies = "greedy"\n\n[[arms]]',
                         'policies = "greedy"\nswept = {x = 1979-05-27}\n\n[[arms]]'),
     ["swept="]),
])
def test_bad_spec_is_one_line_and_writes_nothing(tmp_path, edit, fragments):
    spec = _spec_file(tmp_path, edit(B3F))
    out = tmp_path / "out"
    result = _runner().invoke(cli, ["study", "run", spec, "--out", str(out)])
    assert result.exit_code == 2, (result.output, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("canasta-sim: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists()


def test_missing_spec_file_and_non_study_folder(tmp_path):
    result = _runner().invoke(cli, ["study", "run", str(tmp_path / "nope.toml"), "--out",
                                    str(tmp_path / "o")])
    assert result.exit_code == 2 and "does not exist" in result.stderr
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    result = _runner().invoke(cli, ["study", "run", _spec_file(tmp_path), "--out", str(busy)])
    assert result.exit_code == 2 and "holds no study" in result.stderr
    assert sorted(os.listdir(busy)) == ["notes.txt"]


def test_rule_knob_sweeps_expand_into_arms():
    spec = load_spec("""
[study]
deals = 10
[[arms]]
name = "base"
[[arms]]
name = "v"
rules = "classic(black_three_freezes=true)"
sweep = ["rules.hand_size=11:15:2", "rules.upcard_red3_freezes=true,false"]
""")
    names = [a.name for a in spec.arms]
    assert names[0] == "base"
    assert len(names) == 1 + 3 * 2
    assert "v.hand_size-13.upcard_red3_freezes-false" in names
    arm = spec.arm("v.hand_size-13.upcard_red3_freezes-false")
    rules = arm.rule_set()
    assert rules.hand_size == 13 and rules.upcard_red3_freezes is False
    assert rules.black_three_freezes is True
    assert dict(arm.swept) == {"rules.hand_size": 13, "rules.upcard_red3_freezes": False}
    assert {a.rule_set().hand_size for a in spec.arms[1:]} == {11, 13, 15}


def test_policy_sweeps_expand_into_arms_and_keep_other_seats():
    spec = load_spec("""
[study]
deals = 10
[[arms]]
name = "c"
policies = "careful(danger=2),greedy,careful(danger=2),greedy"
sweep = "careful.freeze_at=4,8"
""")
    assert [a.name for a in spec.arms] == ["c.careful.freeze_at-4", "c.careful.freeze_at-8"]
    assert spec.arms[1].policies == ("careful(danger=2,freeze_at=8)", "greedy",
                                     "careful(danger=2,freeze_at=8)", "greedy")


def test_frozen_spec_loads_back_to_the_same_hash():
    spec = load_spec(B3F.replace('policies = "greedy"\n\n[[arms]]',
                                 'policies = "greedy"\nsweep = "rules.hand_size=11:12"'
                                 '\n\n[[arms]]'))
    again = load_spec(spec.to_toml())
    assert again.spec_hash() == spec.spec_hash()
    assert [a.swept for a in again.arms] == [a.swept for a in spec.arms]


# --------------------------------------------------------------------------------------------
# Running, identity across executors and shard sizes
# --------------------------------------------------------------------------------------------

def test_study_folder_layout_and_rows_match_simulate(tmp_path):
    from canasta_sim import simulate

    out = tmp_path / "b3f"
    execute.run(_spec_file(tmp_path), out, report=False)
    assert _part_files(out) == sorted(
        f"data/arm={arm}/part-{first}-1000.parquet" for arm in ("classic", "b3f")
        for first in (0, 1000, 2000))
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["spec_hash"] == load_spec(str(out / "study.toml")).spec_hash()
    assert {s["state"] for s in manifest["shards"]} == {"done"}
    assert all(s["rows"] == 1000 for s in manifest["shards"])
    rows = _rows(out).filter(pa.compute.equal(_rows(out)["arm"], "b3f"))
    direct = simulate(3000, seed=3, rules="classic(black_three_freezes=true)")
    for name in ("deal", "s0_score", "s1_score", "turns", "dealer"):
        assert rows[name].to_pylist() == direct[name].to_pylist()
    meta = pq.read_schema(out / "data" / "arm=b3f" / "part-0-1000.parquet").metadata
    assert meta[b"canasta_sim.study.arm"] == b"b3f"
    assert meta[b"canasta_sim.rules"] == b"classic(black_three_freezes=true)"
    con = store.open_study(out).duckdb()
    assert con.execute("select count(*) from data where arm = 'classic'").fetchone()[0] == 3000


def test_shard_size_never_changes_the_rows(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    execute.run(_spec_file(tmp_path), a, report=False)
    execute.run(_spec_file(tmp_path, B3F.replace("shard_size = 1000", "shard_size = 700"),
                           "s2.toml"), b, report=False, threads=1)
    assert _rows(a).equals(_rows(b))


def test_games_study_rows_and_shard_sizes(tmp_path):
    text = B3F.replace("deals = 3000", "games = 60").replace("shard_size = 1000",
                                                              "shard_size = 25")
    a, b = tmp_path / "a", tmp_path / "b"
    execute.run(_spec_file(tmp_path, text), a, report=False)
    execute.run(_spec_file(tmp_path, text.replace("shard_size = 25", "shard_size = 60"),
                           "s2.toml"), b, report=False)
    assert _rows(a).equals(_rows(b))
    assert _rows(a, "deals").equals(_rows(b, "deals"))
    assert "data/arm=b3f/part-50-10.parquet" in _part_files(a)
    assert "deals/arm=b3f/part-50-10.parquet" in _part_files(a)


def test_threads_and_dask_write_identical_files(tmp_path):
    pytest.importorskip("distributed")
    text = B3F.replace('policies = "greedy"', 'policies = "careful,greedy,careful,greedy"', 1)
    a, b = tmp_path / "threads", tmp_path / "dask"
    execute.run(_spec_file(tmp_path, text), a, report=False)
    execute.run(_spec_file(tmp_path, text), b, executor="dask", workers=2, report=False)
    assert _part_files(a) == _part_files(b)
    for rel in _part_files(a):
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    manifest = json.loads((b / "_manifest.json").read_text())
    assert manifest["runs"][-1]["executor"] == "dask"


def test_an_existing_dask_cluster_by_its_address(tmp_path):
    distributed = pytest.importorskip("distributed")
    a, b = tmp_path / "threads", tmp_path / "cluster"
    execute.run(_spec_file(tmp_path), a, report=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        execute.run(_spec_file(tmp_path), b, executor="dask",
                    scheduler=cluster.scheduler_address, report=False)
    for rel in _part_files(a):
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_duplicate_design_swaps_the_sides(tmp_path):
    text = """
[study]
seed = 5
games = 40
design = "duplicate"
[[arms]]
name = "ec"
policies = "expert,careful,expert,careful"
"""
    out = tmp_path / "dup"
    execute.run(_spec_file(tmp_path, text), out, report=False)
    rows = _rows(out)
    zero = rows.filter(pa.compute.equal(rows["rotation"], 0))
    one = rows.filter(pa.compute.equal(rows["rotation"], 1))
    assert zero.num_rows == one.num_rows == 20
    assert set(zero["policy_0"].to_pylist()) == {"expert"}
    assert set(zero["policy_1"].to_pylist()) == {"careful"}
    assert set(one["policy_0"].to_pylist()) == {"careful"}
    assert set(one["policy_1"].to_pylist()) == {"expert"}
    # the same game seeds: the same first dealer in both rotations
    assert zero["first_dealer"].to_pylist() == one["first_dealer"].to_pylist()


def test_three_sides_duplicate_match_has_a_fair_share_not_an_elo(tmp_path):
    from canasta_sim.study.spec import parse_spec

    text = """
[study]
games = 90
design = "duplicate"
[[arms]]
name = "self"
rules = "three-player"
policies = "greedy"
"""
    out = tmp_path / "three"
    execute.run(_spec_file(tmp_path, text), out)
    match = json.loads((out / "summary.json").read_text())["matches"][0]
    assert match["fair_share"] == pytest.approx(1 / 3) and match["elo"] is None
    assert match["win_rate"]["estimate"] == pytest.approx(1 / 3, abs=0.2)
    data = load_spec(text).to_dict()
    data["sprt"] = {"metric": "win_rate", "h0": 0.33, "h1": 0.4}
    with pytest.raises(BadInput, match="metric='win_rate'"):
        parse_spec(data)


def test_three_sides_duplicate_plays_every_rotation(tmp_path):
    text = """
[study]
deals = 90
design = "duplicate"
[[arms]]
name = "three"
rules = "three-player"
policies = "expert,greedy,random"
"""
    out = tmp_path / "dup3"
    execute.run(_spec_file(tmp_path, text), out, report=False)
    rows = _rows(out)
    seats = {r: tuple(rows.filter(pa.compute.equal(rows["rotation"], r))[f"policy_{s}"][0]
                      .as_py() for s in range(3)) for r in range(3)}
    assert seats == {0: ("expert", "greedy", "random"), 1: ("greedy", "random", "expert"),
                     2: ("random", "expert", "greedy")}


# --------------------------------------------------------------------------------------------
# Resume, refusals, slices, status
# --------------------------------------------------------------------------------------------

def test_rerun_is_resume_and_half_written_shards_are_replayed(tmp_path):
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    spec = _spec_file(tmp_path)
    execute.run(spec, whole, report=False)
    execute.run(spec, resumed, report=False)
    victim = resumed / "data" / "arm=b3f" / "part-1000-1000.parquet"
    victim.write_bytes(victim.read_bytes()[:500])          # a truncated file
    (resumed / "data" / "arm=classic" / "part-2000-1000.parquet").unlink()
    from canasta_sim.study.store import _host

    dead = resumed / "data" / "arm=classic" / f".part-0-1000.parquet.~{_host()}~999999999~ab.tmp"
    dead.write_bytes(b"junk of a killed run")                # this machine, no such process
    live = resumed / "data" / "arm=b3f" / ".part-0-1000.parquet.~elsewhere~1~cd.tmp"
    live.write_bytes(b"a slice still writing on another machine")
    (resumed / "_manifest.json").unlink()
    status = execute.status(resumed)
    assert status["missing_units"] == 2000 and not status["complete"]
    execute.run(spec, resumed, report=False)
    assert _part_files(resumed) == _part_files(whole)
    for rel in _part_files(whole):
        assert (whole / rel).read_bytes() == (resumed / rel).read_bytes(), rel
    assert execute.status(resumed)["complete"]
    assert not dead.exists() and live.exists()


def test_shards_of_other_kernels_or_another_key_are_not_taken(tmp_path):
    out = tmp_path / "s"
    spec = _spec_file(tmp_path)
    execute.run(spec, out, report=False)
    a = out / "data" / "arm=classic" / "part-0-1000.parquet"
    b = out / "data" / "arm=b3f" / "part-0-1000.parquet"
    b.write_bytes(a.read_bytes())                        # another arm's file in b's place
    assert execute.status(out)["missing_units"] == 1000
    execute.run(spec, out, report=False)                 # played again
    assert pq.read_schema(b).metadata[b"canasta_sim.study.arm"] == b"b3f"
    table = pq.read_table(a)
    meta = dict(table.schema.metadata)
    meta[b"canasta_sim.kernels_hash"] = b"0123456789ab"
    pq.write_table(table.replace_schema_metadata(meta), a)
    with pytest.raises(BadInput, match="played with other kernels"):
        execute.run(spec, out, report=False)
    from canasta_sim.study import summary

    with pytest.raises(BadInput, match="played with other kernels"):
        summary.report(out)


def test_report_needs_a_complete_range(tmp_path):
    from canasta_sim.study import summary

    out = tmp_path / "g"
    text = B3F.replace("deals = 3000", "games = 40").replace("shard_size = 1000",
                                                              "shard_size = 20")
    execute.run(_spec_file(tmp_path, text), out, shard="2/4", report=False)  # b3f, range 0
    with pytest.raises(BadInput, match="no complete range"):
        summary.report(out)
    assert not (out / "summary.json").exists()


def test_other_spec_or_kernels_are_refused(tmp_path):
    out = tmp_path / "s"
    execute.run(_spec_file(tmp_path), out, report=False)
    before = _part_files(out)
    other = _spec_file(tmp_path, B3F.replace("seed = 3", "seed = 4"), "other.toml")
    result = _runner().invoke(cli, ["study", "run", other, "--out", str(out)])
    assert result.exit_code == 2 and "holds another study" in result.stderr
    manifest = json.loads((out / "_manifest.json").read_text())
    manifest["kernels_hash"] = "0123456789ab"
    (out / "_manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(BadInput, match="other kernels"):
        execute.run(_spec_file(tmp_path), out, report=False)
    assert _part_files(out) == before


def test_slices_then_collect(tmp_path):
    whole, sliced = tmp_path / "whole", tmp_path / "sliced"
    spec = _spec_file(tmp_path)
    execute.run(spec, whole, report=False)
    execute.run(spec, sliced, shard="1/2", report=False)
    assert len(_part_files(sliced)) == 3                  # shards 0, 2, 4 of six
    assert not (sliced / "_manifest.json").exists() or json.loads(
        (sliced / "_manifest.json").read_text())["shards"] == []
    execute.run(spec, sliced, shard="2/2", report=False)
    assert len(_part_files(sliced)) == 6
    execute.run(spec, sliced, report=False)              # collects, plays nothing
    manifest = json.loads((sliced / "_manifest.json").read_text())
    assert {s["state"] for s in manifest["shards"]} == {"done"}
    for rel in _part_files(whole):
        assert (whole / rel).read_bytes() == (sliced / rel).read_bytes()
    with pytest.raises(BadInput, match="--shard"):
        execute.run(spec, sliced, shard="3/2")


def test_status_command(tmp_path):
    out = tmp_path / "s"
    spec = _spec_file(tmp_path)
    execute.run(spec, out, shard="1/3", report=False)
    result = _runner().invoke(cli, ["study", "status", str(out)])
    assert result.exit_code == 0, result.output
    assert "classic: 1/3 shards" in result.output and "b3f: 1/3 shards" in result.output
    assert "missing: 4,000 deals" in result.output
    execute.run(spec, out, report=False)
    result = _runner().invoke(cli, ["study", "status", str(out), "--json"])
    assert json.loads(result.output)["complete"] is True


def _study_process(spec, out):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "canasta_sim", "study", "run", spec,
                             "--out", str(out), "--no-report", "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _wait_for_shards(out, count, proc, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if len(glob.glob(os.path.join(out, "data", "arm=*", "part-*"))) >= count:
            return
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode())
        time.sleep(0.05)
    raise AssertionError("no shard appeared in time")


@pytest.mark.parametrize("how", ["kill9", "sigterm", "sighup"])
def test_killed_run_resumes_to_identical_data(tmp_path, how):
    text = B3F.replace("deals = 3000", "deals = 40000").replace("shard_size = 1000",
                                                                "shard_size = 2000")
    spec = _spec_file(tmp_path, text)
    out = tmp_path / "killed"
    proc = _study_process(spec, out)
    _wait_for_shards(str(out), 2, proc)
    proc.send_signal({"kill9": signal.SIGKILL, "sigterm": signal.SIGTERM,
                      "sighup": signal.SIGHUP}[how])
    proc.wait(timeout=60)
    stderr = proc.stderr.read().decode()
    if how != "kill9":
        assert proc.returncode == 130, stderr
        assert stderr.strip().splitlines()[-1] == "canasta-sim: error: interrupted"
        assert not glob.glob(os.path.join(out, "*", "arm=*", ".*")), "temp files left"
    done = len(_part_files(out))
    assert 0 < done < 40, done
    execute.run(spec, out, report=False)
    whole = tmp_path / "whole"
    execute.run(spec, whole, report=False)
    assert _part_files(out) == _part_files(whole)
    for rel in _part_files(whole):
        assert (whole / rel).read_bytes() == (out / rel).read_bytes(), rel


# --------------------------------------------------------------------------------------------
# Extras, compare's inputs
# --------------------------------------------------------------------------------------------

def test_importing_the_package_loads_no_study_library():
    code = ("import sys, canasta_sim, canasta_sim.cli, canasta_sim.study, canasta_sim.study.spec;"
            "print([m for m in ('scipy', 'matplotlib', 'distributed', 'duckdb', 'dask') "
            "if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_a_missing_extra_is_named_in_one_line(tmp_path, monkeypatch):
    out = tmp_path / "s"
    execute.run(_spec_file(tmp_path), out, report=False)
    monkeypatch.setitem(sys.modules, "scipy", None)
    from canasta_sim.study import summary

    with pytest.raises(BadInput, match=r"pip install 'canasta-sim\[study\]'"):
        summary.report(out)
    assert not (out / "summary.json").exists()
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(BadInput, match=r"canasta-sim\[dask\]"):
        execute.run(_spec_file(tmp_path), tmp_path / "d", executor="dask", report=False)
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("args, fragment", [
    (["--rules", "classic", "--rules", "two-player", "--policies", "greedy", "--policies",
      "random"], "several of one of them"),
    (["--deals", "10", "--games", "10"], "--deals and --games"),
    (["--rules", "classic", "--rules", "nope"], "unknown rule set 'nope'"),
    (["--policies", "expert", "--policies", "careful", "--sprt", "win_rate:0.5"],
     "--sprt 'win_rate:0.5' is malformed"),
    (["--policies", "expert", "--policies", "careful", "--policies", "greedy", "--games", "10",
      "--sprt", "win_rate:0.5,0.53"], "exactly one arm"),
    (["--policies", "expert", "--policies", "careful", "--executor", "spark"],
     "--executor 'spark'"),
    (["--policies", "expert", "--policies", "careful", "--workers", "2"],
     "--scheduler and --workers need --executor dask"),
])
def test_compare_bad_input(tmp_path, args, fragment):
    out = tmp_path / "c"
    result = _runner().invoke(cli, ["compare", *args, "--out", str(out)])
    assert result.exit_code == 2, (result.output, result.stderr, result.exception)
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_compare_builds_a_tournament_of_pairs():
    from canasta_sim.study.cli import compare_spec
    from canasta_sim.study.spec import parse_spec

    spec = parse_spec(compare_spec((), ("expert", "careful", "greedy"), None, 100, 1, None,
                                   None, "results/t"))
    assert spec.design == "duplicate" and spec.games
    assert [a.name for a in spec.arms] == ["expert-vs-careful", "expert-vs-greedy",
                                           "careful-vs-greedy"]
    assert spec.arms[2].policies == ("careful", "greedy", "careful", "greedy")
    assert spec.arms[0].lineups() == ["expert", "careful"]


def test_a_missing_report_extra_is_caught_before_playing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(BadInput, match=r"needs matplotlib.*--no-report"):
        execute.run(_spec_file(tmp_path), tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_public_names_of_the_study_package(tmp_path):
    import canasta_sim.study as study

    out = tmp_path / "missing" / "parents" / "s"     # made like mkdir -p
    opened = study.run(_spec_file(tmp_path, B3F.replace("deals = 3000", "deals = 1000")), out)
    assert [a.name for a in opened.arms] == ["classic", "b3f"]
    paths = study.make_report(out)
    assert str(out / "summary.json") in paths
    assert callable(study.make_report) and study.status(out)["complete"]
    assert study.load_spec(str(out / "study.toml")).spec_hash() == opened.spec.spec_hash()


def test_games_in_a_duplicate_spec_count_games_played_and_the_frozen_form_names_seeds():
    from canasta_sim.study.cli import compare_spec
    from canasta_sim.study.spec import parse_spec

    spec = parse_spec(compare_spec((), ("expert", "careful"), None, 4000, 1, None, None,
                                   "results/t"))
    assert spec.units == 2000 and spec.played() == 4000
    frozen = spec.to_toml()
    assert "games = 4000\nseeds = 2000\n" in frozen
    assert load_spec(frozen).spec_hash() == spec.spec_hash()
    three = load_spec('[study]\ngames = 90\ndesign = "duplicate"\n[[arms]]\nname = "t"\n'
                      'rules = "three-player"\npolicies = "greedy"\n')
    assert three.units == 30 and three.played() == 90


@pytest.mark.parametrize("study, fragment", [
    ('games = 41\ndesign = "duplicate"', "accepted: a multiple of 2, e.g. games = 40 or "
                                         "games = 42"),
    ('games = 40\nseeds = 21\ndesign = "duplicate"', "accepted: seeds = 20"),
    ('deals = 40\nseeds = 40', "seeds only with design"),
])
def test_a_duplicate_count_that_does_not_split_into_seeds_is_refused(study, fragment):
    with pytest.raises(BadInput, match=re.escape(fragment)):
        load_spec(f'[study]\n{study}\n[[arms]]\nname = "a"\npolicies = "greedy"\n')


def test_a_study_frozen_when_duplicate_games_counted_seeds_is_refused_with_what_to_do(
        tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    (old / "study.toml").write_text('[study]\nname = "old"\ngames = 20\ndesign = "duplicate"'
                                    '\n[[arms]]\nname = "a"\npolicies = "greedy"\n')
    with pytest.raises(BadInput, match=r"counted seeds \(20 seeds, 40 games\).*games = 40"):
        load_spec(str(old / "study.toml"), frozen=True)
