"""Data that cannot rot: shard checksums, names that round-trip, readers that read only the
study, no links out of the folder, report files as one unit (issue 27, "Data")."""
import errno
import glob
import hashlib
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import study_fixtures
from test_study import B3F, _runner

from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.study import execute, store
from canasta_sim.study import report as report_module
from canasta_sim.study import summary as summary_module

SPEC = (B3F.replace('name = "b3f"\nseed', 'name = "rot"\nseed')
        .replace("deals = 3000", "deals = 400").replace("shard_size = 1000", "shard_size = 200"))
VICTIM = os.path.join("data", "arm=b3f", "part-200-200.parquet")


def _spec(tmp_path, text=SPEC):
    path = tmp_path / "spec.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _files(folder):
    return {os.path.relpath(p, folder): open(p, "rb").read()
            for p in sorted(glob.glob(os.path.join(glob.escape(str(folder)), "*", "arm=*",
                                                   "*.parquet")))}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A finished study (no report) and its shard files' bytes."""
    root = tmp_path_factory.mktemp("played")
    out = root / "study"
    execute.run(_spec(root), out, report=False)
    return out, _files(out)


def _copy(played, tmp_path, name="s"):
    import shutil

    out = tmp_path / name
    shutil.copytree(played[0], out)
    return out


def _flip_one_value(path, column="s0_score"):
    """Flip one bit inside a data page of ``column`` where pyarrow, reading without page
    checksums, still reads the file and exactly one value changes (the bug of issue 27).
    Returns the position flipped."""
    good = pq.read_table(path).column(column).to_pylist()
    meta = pq.ParquetFile(path).metadata.row_group(0)
    chunk = next(meta.column(i) for i in range(meta.num_columns)
                 if meta.column(i).path_in_schema == column)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    original = open(path, "rb").read()
    for position in range(start + 40, start + chunk.total_compressed_size):
        damaged = bytearray(original)
        damaged[position] ^= 0x04
        with open(path, "wb") as handle:
            handle.write(damaged)
        try:
            values = pq.read_table(path).column(column).to_pylist()
        except Exception:  # noqa: BLE001 - this flip is found by pyarrow itself
            continue
        if sum(a != b for a, b in zip(values, good)) == 1:
            return position
    raise AssertionError("no silent one-value flip found")


# --------------------------------------------------------------------------------------------
# 1. A flipped bit inside a shard
# --------------------------------------------------------------------------------------------

def test_the_manifest_records_every_shards_sha256(played):
    out, files = played
    manifest = json.loads((out / "_manifest.json").read_text())
    recorded = {os.path.join("data", f"arm={r['arm']}", f"part-{r['first']}-{r['count']}"
                             ".parquet"): r["sha256"]["data"] for r in manifest["shards"]}
    assert recorded == {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
    for data in files.values():
        pq.read_table(pa.BufferReader(data), page_checksum_verification=True)


def test_a_flipped_byte_is_named_by_status_and_report_and_replayed_identical(played,
                                                                              tmp_path):
    out = _copy(played, tmp_path)
    original = played[1][VICTIM]
    _flip_one_value(str(out / VICTIM))
    info = execute.status(out)
    assert not info["complete"] and info["missing_units"] == 200
    assert len(info["damaged"]) == 1 and info["damaged"][0].startswith(VICTIM + ": its sha256")
    result = _runner().invoke(cli, ["study", "status", str(out)])
    assert result.exit_code == 0 and f"damaged: {VICTIM}" in result.output, result.output
    assert "complete" not in result.output.splitlines()[-1]

    summary_module.report(out)
    summary = summary_module.load_summary(out)
    assert summary["study"]["damaged_shards"] == info["damaged"]
    assert summary["study"]["units_played"] == 200          # the damaged range is left out
    assert any(VICTIM in note for note in summary["notes"])
    assert VICTIM in (out / "report.md").read_text(encoding="utf-8")

    execute.run(_spec(tmp_path), out, report=False)         # resume replays it
    assert (out / VICTIM).read_bytes() == original
    assert _files(out) == played[1]
    info = execute.status(out)
    assert info["complete"] and info["damaged"] == []


def test_a_shard_with_no_recorded_checksum_is_checked_by_its_page_checksums(played,
                                                                            tmp_path):
    """A --shard slice writes no manifest: its shards are checked page by page."""
    out = _copy(played, tmp_path)
    (out / "_manifest.json").unlink()
    _flip_one_value(str(out / VICTIM))
    info = execute.status(out)
    assert [line.split(": ", 1)[1] for line in info["damaged"]] == [
        "a page checksum does not match its page"]
    execute.run(_spec(tmp_path), out, report=False)
    assert _files(out) == played[1]
    manifest = json.loads((out / "_manifest.json").read_text())
    assert all(r["state"] == "done" and "sha256" in r for r in manifest["shards"])


def _as_before_checksums(out):
    """Make a study look like one written before checksums: no page checksums, no marker,
    no sha256 in the manifest."""
    for path in glob.glob(os.path.join(glob.escape(str(out)), "*", "arm=*", "*.parquet")):
        table = pq.read_table(path)
        meta = {k: v for k, v in table.schema.metadata.items()
                if k != b"canasta_sim.study.page_checksums"}
        pq.write_table(table.replace_schema_metadata(meta), path, compression="zstd")
    manifest = json.loads((out / "_manifest.json").read_text())
    for record in manifest["shards"]:
        record.pop("sha256")
    (out / "_manifest.json").write_text(json.dumps(manifest))


def test_a_study_written_before_checksums_is_verified_by_replay(played, tmp_path):
    out = _copy(played, tmp_path)
    _as_before_checksums(out)
    _flip_one_value(str(out / VICTIM))                      # found by nothing but a replay
    info = execute.status(out)
    assert info["complete"] and info["unverified"] == 4 and info["damaged"] == []
    result = _runner().invoke(cli, ["study", "status", str(out)])
    assert "no checksum recorded: 4 shards" in result.output
    summary_module.report(out)
    notes = summary_module.load_summary(out)["notes"]
    assert any("written before canasta-sim recorded checksums" in n for n in notes)

    result = _runner().invoke(cli, ["study", "run", _spec(tmp_path), "--out", str(out),
                                    "--no-report", "-q"])
    assert result.exit_code == 0, (result.output, result.stderr)
    assert f"3 matched, 1 differed (they were damaged): {VICTIM}" in result.stderr
    assert _files(out) == played[1]
    info = execute.status(out)
    assert info["complete"] and info["unverified"] == 0


# --------------------------------------------------------------------------------------------
# 2. Names that break a study for good
# --------------------------------------------------------------------------------------------

POLICY = """
def first(decision, opts, n, view, params, rules, rand):
    return 0
"""


def test_a_policy_file_named_with_an_emoji_round_trips(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p\U0001F600.py").write_text(POLICY, encoding="utf-8")
    text = (SPEC.replace("deals = 400", "deals = 4").replace("shard_size = 200", "")
            .replace('policies = "greedy"\n\n[[arms]]',
                     'policies = "p\U0001F600.py:first"\n\n[[arms]]'))
    out = tmp_path / "emoji"
    execute.run(_spec(tmp_path, text), out, report=False)
    study = store.open_study(out)
    assert "p\U0001F600.py:first@" in study.spec.arms[0].policies[0]
    assert execute.status(out)["complete"]


def test_an_out_folder_with_a_newline_or_brackets_round_trips(played, tmp_path):
    for name in ("new\nline", "x[study]y"):
        out = tmp_path / name
        execute.run(_spec(tmp_path), out, report=False)
        assert execute.status(out)["complete"], name
        assert _files(out) == played[1]
    summary_module.report(tmp_path / "new\nline")
    md = (tmp_path / "new\nline" / "report.md").read_text(encoding="utf-8")
    assert "$'" in md and "new\\x0aline" in md


def test_text_that_cannot_be_frozen_is_refused_at_once(tmp_path):
    from canasta_sim.study.spec import check_round_trip, load_spec

    spec = load_spec(SPEC)
    arms = (spec.arms[0]._replace(policies=("x\udcff.py:first@01234567",) * 4),)
    with pytest.raises(BadInput, match="is not Unicode text"):
        check_round_trip(spec._replace(arms=arms + spec.arms[1:]))
    name = os.fsdecode(b"p\xff.py")
    (tmp_path / name).write_text(POLICY, encoding="utf-8")
    text = SPEC.replace('policies = "greedy"\n\n[[arms]]',
                        f'policies = "{tmp_path}/p\\udcff.py:first"\n\n[[arms]]')
    assert "\\udcff" in text
    out = tmp_path / "never"
    with pytest.raises(BadInput):
        execute.run(_spec(tmp_path, text), out, report=False)
    assert not out.exists()


def test_a_spec_over_4_mib_is_refused_not_cut(tmp_path):
    text = SPEC + "# " + "x" * (1 << 22) + "\n[[arms]]\nname = \"late\"\n"
    path = _spec(tmp_path, text)
    result = _runner().invoke(cli, ["study", "run", path, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, (result.output, result.stderr)
    assert "at most 4,194,304 bytes" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------------------------
# 3. Readers, links, report text, SPRT bounds, report files as one unit
# --------------------------------------------------------------------------------------------

def test_duckdb_reads_a_folder_name_as_a_name_not_a_glob(played, tmp_path):
    pytest.importorskip("duckdb")
    _copy(played, tmp_path, "s1")
    other = tmp_path / "s[1]"
    execute.run(_spec(tmp_path, SPEC.replace("seed = 3", "seed = 4")), other, report=False)
    mine = store.open_study(other)
    seeds = mine.duckdb().execute("select distinct seed from data").fetchall()
    assert sorted(s for (s,) in seeds) == sorted(set(mine.to_table(columns=["seed"])
                                                     .column("seed").to_pylist()))
    theirs = store.open_study(tmp_path / "s1").to_table(columns=["seed"]).column("seed")
    assert not set(s for (s,) in seeds) & set(theirs.to_pylist())
    count = mine.duckdb().execute("select count(*) from data").fetchall()[0][0]
    assert count == 800


def test_readers_take_only_the_arms_and_shards_of_the_spec(played, tmp_path):
    out = _copy(played, tmp_path)
    stray = out / "data" / "arm=stranger"
    stray.mkdir()
    (stray / "part-0-200.parquet").write_bytes(played[1][VICTIM])
    (out / "data" / "arm=b3f" / "part-0-200 (copy).parquet").write_bytes(played[1][VICTIM])
    study = store.open_study(out)
    table = study.to_table(columns=["arm", "deal"])
    assert sorted(set(table.column("arm").to_pylist())) == ["b3f", "classic"]
    assert table.num_rows == 800
    assert study.duckdb().execute("select count(*) from data").fetchall()[0][0] == 800


@pytest.mark.parametrize("link", ["plots", "data", os.path.join("data", "arm=b3f")])
def test_a_symlinked_inner_folder_is_refused(played, tmp_path, link):
    out = _copy(played, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "forest.png").write_bytes(b"not yours")
    target = out / link
    if target.exists():
        import shutil

        shutil.copytree(target, elsewhere, dirs_exist_ok=True)
        shutil.rmtree(target)
    os.symlink(elsewhere, target)
    with pytest.raises(BadInput, match="is a symbolic link"):
        summary_module.report(out)
    with pytest.raises(BadInput, match="is a symbolic link"):
        execute.run(_spec(tmp_path), out, report=False)
    assert (elsewhere / "forest.png").read_bytes() == b"not yours"
    result = _runner().invoke(cli, ["study", "status", str(out)])
    assert result.exit_code == 2 and "symbolic link" in result.stderr


def test_report_md_shows_names_as_written_not_as_html_or_control_bytes():
    summary = study_fixtures.crn_deal_study()
    summary["arms"][1]["policies"] = "<script>alert(1)</script>\x1b[31mred\x07.py:f"
    summary["arms"][1]["rules"] = "classic\u202etxt.exe"
    summary["study"]["command"] = "canasta-sim study run '/a\nb/<img src=x>' --out NEW"
    summary["notes"].append("<!-- hidden --> note")
    md = report_module.render_markdown(summary, {})
    import re

    prose = re.sub(r"`+[^`]*`+", "", re.sub(r"(?ms)^```.*?^```", "", md))  # code is text
    assert "<script" not in prose and "<img" not in prose and "<!--" not in prose
    assert "\x1b" not in md and "\x07" not in md and "\u202e" not in md
    assert "&lt;script>" in md and "\\x1b[31mred\\x07" in md and "\\u202e" in md
    assert "/a\\nb/" in md
    page = report_module.render_html(summary, {})
    assert "\x1b" not in page and "\u202e" not in page and "<script" not in page
    assert "\\x1b[31mred" in page


def test_a_duplicate_win_rate_hypothesis_outside_0_1_is_refused(tmp_path):
    for sprt in ("win_rate:0.5,1.2", "win_rate:0,0.5", "win_rate:50,53"):
        result = _runner().invoke(cli, ["compare", "--policies", "expert", "--policies",
                                        "careful", "--games", "40", "--sprt", sprt,
                                        "--out", str(tmp_path / "o")])
        assert result.exit_code == 2, (sprt, result.output)
        assert "strictly between 0 and 1" in result.stderr
        assert not (tmp_path / "o").exists()


def _write(summary, folder):
    text = json.dumps(summary).encode()
    return report_module.write_report(summary, folder, {"summary.json": text})


def _set(folder):
    """Every file of the report set, by relative path."""
    names = ["summary.json", "report.md", "report.html"] + [
        os.path.join("plots", n) for n in sorted(os.listdir(folder / "plots"))]
    return {n: (folder / n).read_bytes() for n in names}


def _full_disk_at(monkeypatch, name):
    """Staging the report file ``name`` fails as on a full disk."""
    from canasta_sim.study import publish

    real = publish._write_file

    def full(path, data):
        if path.endswith(name):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(publish, "_write_file", full)


def test_a_full_disk_while_writing_the_report_leaves_the_old_set(tmp_path, monkeypatch):
    old = study_fixtures.sprt_early_stop()
    _write(old, tmp_path)
    before = _set(tmp_path)
    new = study_fixtures.crn_deal_study()
    _full_disk_at(monkeypatch, "report.html")
    with pytest.raises(BadInput, match="no space left"):
        _write(new, tmp_path)
    assert _set(tmp_path) == before
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".publish")]


def test_a_crash_between_two_moves_is_finished_by_the_next_reader(tmp_path, monkeypatch):
    old = study_fixtures.sprt_early_stop()
    _write(old, tmp_path)
    new = study_fixtures.crn_deal_study()
    new["study"]["name"] = "the-new-one"
    real = os.replace

    def crash(source, target):
        if str(target).endswith("report.html"):
            raise KeyboardInterrupt         # killed after the plots and report.md moved
        return real(source, target)

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        _write(new, tmp_path)
    monkeypatch.setattr(os, "replace", real)
    assert b"the-new-one" in (tmp_path / "report.md").read_bytes()
    assert b"the-new-one" not in (tmp_path / "report.html").read_bytes()   # mixed, for now
    loaded = summary_module.load_summary(tmp_path)                         # finishes it
    assert loaded["study"]["name"] == "the-new-one"
    assert b"the-new-one" in (tmp_path / "report.html").read_bytes()
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".publish")]
    from canasta_sim.study.plots import make_plots

    assert set(os.listdir(tmp_path / "plots")) == {f"{n}.png" for n in make_plots(new)}


def test_plots_of_the_old_report_that_the_new_one_lacks_are_removed(tmp_path):
    from canasta_sim.study.plots import make_plots

    _write(study_fixtures.crn_game_sweep(), tmp_path)
    new = study_fixtures.sprt_early_stop()
    _write(new, tmp_path)
    assert set(os.listdir(tmp_path / "plots")) == {f"{n}.png" for n in make_plots(new)}


def test_a_real_report_is_one_unit(played, tmp_path, monkeypatch):
    out = _copy(played, tmp_path)
    summary_module.report(out)
    before = _set(out)
    _full_disk_at(monkeypatch, "summary.json")
    (out / VICTIM).unlink()                           # the new report would differ
    with pytest.raises(BadInput, match="no space left"):
        summary_module.report(out)
    assert _set(out) == before
