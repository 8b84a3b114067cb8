"""Result tables, atomic Parquet writing and the numba cache folder."""
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from canasta_sim.kernels.game import layout

from canasta_sim import _cache, simulation
from canasta_sim.errors import BadInput
from canasta_sim.results import check_writable, results_table, side_column, write_parquet
from canasta_sim.rules import parse_rules


def _fake_out(n, num_sides):
    out = np.zeros((n, layout.NCOLS), dtype=np.int64)
    out[:, layout.COL_DEALER] = np.arange(n) % 4
    out[:, layout.COL_END_REASON] = np.arange(n) % 2
    out[:, layout.COL_OUT_SEAT] = -1
    out[:, layout.COL_TURNS] = 40
    for side in range(num_sides):
        out[:, side_column(side, "score")] = 100 * (side + 1)
        out[:, side_column(side, "melded")] = 1
    return out


def test_results_table_columns_and_types():
    rules = parse_rules("six-player-3x2")
    names = ("greedy", "random") * 3
    table = results_table(_fake_out(5, 3), 10, 7, rules, names, scores_before=[0, 5, 10])
    head = ["deal", "seed", "rules"] + [f"policy_{s}" for s in range(6)] + [
        "dealer", "end_reason", "out_seat", "concealed", "turns", "stock_left",
        "upcards_turned"]
    sides = [f"s{k}_{f}" for k in range(3) for f in layout.SIDE_FIELDS]
    cutthroat = ["lone_seat", "formed_by"] + [f"s{k}_role" for k in range(3)]
    american = ["special_hand", "special_seat"] + [
        f"s{k}_{f}" for k in range(2) for f in layout.MAC_SIDE_FIELDS]
    assert table.column_names == head + sides + cutthroat + american
    assert table["lone_seat"].null_count == 5                   # not a cutthroat rule set
    assert table["s1_talon"].null_count == 5                    # not Modern American
    assert table["deal"].to_pylist() == [10, 11, 12, 13, 14]
    assert table["end_reason"].to_pylist() == ["out", "stock", "out", "stock", "out"]
    assert pa.types.is_dictionary(table["rules"].type)
    assert table["rules"][0].as_py() == "six-player-3x2"
    assert table["policy_1"][0].as_py() == "random"
    assert table["s2_score"].type == pa.int64() and table["s2_score"][0].as_py() == 300
    assert table["s0_melded"].type == pa.bool_()
    assert table["dealer"].type == pa.int64() and table["turns"].type == pa.int64()
    integers = [f.name for f in table.schema if pa.types.is_integer(f.type)]
    assert all(table.schema.field(c).type == pa.int64() for c in integers)
    meta = table.schema.metadata
    for key in ("canasta_sim.rules", "canasta_sim.seed", "canasta_sim.policies",
                "canasta_sim.scores_before", "canasta_sim.version", "numba.version",
                "numpy.version", "pyarrow.version", "canasta_sim.created"):
        assert key.encode() in meta
    assert meta[b"canasta_sim.scores_before"] == b"0,5,10"
    assert meta[b"canasta_sim.seed"] == b"7"


def test_results_table_has_one_schema_with_nulls_for_missing_sides_and_seats():
    two = results_table(_fake_out(2, 2), 0, 0, parse_rules("two-player"), ("greedy",) * 2)
    six = results_table(_fake_out(2, 3), 0, 0, parse_rules("six-player-3x2"), ("greedy",) * 6)
    assert two.schema.remove_metadata() == six.schema.remove_metadata()
    assert two["policy_2"].null_count == 2 and two["s2_score"].null_count == 2
    assert two["policy_1"].to_pylist() == ["greedy"] * 2 and two["s1_score"].null_count == 0


def test_write_parquet_round_trip(tmp_path):
    table = results_table(_fake_out(4, 2), 0, 1, parse_rules("classic"), ("greedy",) * 4)
    path = write_parquet(table, tmp_path / "a.parquet")
    back = pq.read_table(path)
    assert back.equals(table)
    assert back.schema.metadata[b"canasta_sim.rules"] == b"classic"
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "ZSTD"


def test_write_parquet_streams_batches(tmp_path):
    rules = parse_rules("classic")
    parts = [results_table(_fake_out(3, 2), 3 * i, 1, rules, ("greedy",) * 4) for i in range(3)]
    path = write_parquet(iter(parts), tmp_path / "s.parquet")
    assert pq.read_table(path)["deal"].to_pylist() == list(range(9))


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_write_parquet_leaves_nothing_on_error(tmp_path, error):
    rules = parse_rules("classic")

    def parts():
        yield results_table(_fake_out(3, 2), 0, 1, rules, ("greedy",) * 4)
        raise error("stop")

    target = tmp_path / "x.parquet"
    with pytest.raises(error):
        write_parquet(parts(), target)
    assert os.listdir(tmp_path) == []


def test_write_parquet_keeps_old_file_on_error(tmp_path):
    target = tmp_path / "x.parquet"
    target.write_bytes(b"old")

    def parts():
        raise RuntimeError("boom")
        yield

    with pytest.raises(RuntimeError):
        write_parquet(parts(), target)
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["x.parquet"]


def test_check_writable(tmp_path):
    assert check_writable(tmp_path / "ok.parquet") == str(tmp_path / "ok.parquet")
    with pytest.raises(BadInput, match="directory .*missing.* does not exist"):
        check_writable(tmp_path / "missing" / "x.parquet")
    (tmp_path / "file").write_text("")
    with pytest.raises(BadInput, match="is not a directory"):
        check_writable(tmp_path / "file" / "x.parquet")
    with pytest.raises(BadInput, match="is a directory"):
        check_writable(tmp_path)


def test_cache_dir_follows_kernel_sources(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("y = 2\n")
    first = _cache.kernels_hash(tmp_path)
    assert first == _cache.kernels_hash(tmp_path) and len(first) == 12
    (tmp_path / "b.py").write_text("y = 3\n")
    assert _cache.kernels_hash(tmp_path) != first
    monkeypatch.delenv(_cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = _cache.numba_cache_dir()
    assert folder.parent == tmp_path / "cache" / "canasta-sim"
    assert folder.name == "numba-" + _cache.kernels_hash(_cache.kernels_dir())
    monkeypatch.setenv(_cache.ENV, str(tmp_path / "mine"))
    assert _cache.numba_cache_dir().parent == tmp_path / "mine"


# --- with the engine (needs kernels/play/turn.py) ---------------------------------------------

def test_chunk_size_never_changes_results():
    a = simulation.simulate(30, seed=5, chunk_size=7)
    b = simulation.simulate(30, seed=5, chunk_size=64)
    assert a.to_pydict() == b.to_pydict()
    c = simulation.simulate(10, seed=5, first_deal=20)
    assert c.to_pydict() == a.slice(20).to_pydict()


def test_simulate_zero_deals_has_schema():
    table = simulation.simulate(0)
    assert table.num_rows == 0 and "s1_score" in table.column_names


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 65])
def test_arrays_from_buffers_equal_pa_array(n):
    """results._array and _strings build what pa.array builds (bools packed LSB first, odd
    lengths included), without importing pandas."""
    from canasta_sim.results import _array, _strings

    rng = np.random.default_rng(n)
    ints = rng.integers(-5, 5, n)
    strided = np.stack([ints, ints]).T[:, 1]                  # a column of a 2-D array
    for values in (ints, strided, ints.astype(np.int8), ints > 0):
        assert _array(values).equals(pa.array(values))
    words = [f"w{i}" * (i % 3) for i in range(n)]
    assert _strings(words).equals(pa.array(words, pa.string()))


def test_simulate_writes_its_tables_without_pandas(tmp_path):
    """A deals run and a games run never import pandas (a third of a second a process)."""
    import subprocess
    import sys

    code = ("import sys; from canasta_sim.cli import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('pandas' in sys.modules)")
    for run in (["--deals", "300"], ["--games", "3"]):
        out = tmp_path / f"{run[0][2:]}.parquet"
        proc = subprocess.run([sys.executable, "-c", code, "simulate", *run, "--out", str(out),
                               "--quiet"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == "False"
        assert out.exists()
