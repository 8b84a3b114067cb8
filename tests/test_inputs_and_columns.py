"""Issue 12, points 9-11: sizes refused at once, policy parameters checked, and output
columns a pandas user can do arithmetic on."""
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import canasta_sim
from canasta_sim import runner
from canasta_sim.errors import BadInput
from canasta_sim.policies import REGISTRY, param_info, parse_one

# --- point 9: sizes ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, fragment", [
    ({"deals": 10 ** 15}, r"deals=1000000000000000 is not accepted: accepted: a whole number "
                          r"in 0\.\.1000000000000"),
    ({"deals": 10, "first_deal": 2 ** 62 - 5}, r"ends after deal 4611686018427387904"),
    ({"deals": 10, "first_deal": 2 ** 63}, r"first_deal=9223372036854775808 is not accepted"),
    ({"games": 10 ** 12}, r"games=1000000000000 is not accepted: accepted: a whole number in "
                          r"0\.\.100000000000"),
    ({"deals": 10 ** 9}, r"would hold 1000000000 rows in memory: accepted: at most 20000000"),
    ({"deals": 10 ** 10, "policies": "careful,greedy,careful,greedy",
      "sweep": "careful.freeze_at=1:1000"}, r"1000 x 10000000000 = 10000000000000 deals"),
])
def test_huge_runs_are_refused_at_once(kwargs, fragment):
    with pytest.raises(BadInput, match=fragment):
        canasta_sim.simulate(**kwargs)


def test_chunks_are_planned_lazily():
    """A long run never lists its chunks up front (10**12 deals would need gigabytes)."""
    chunks = runner.chunk_bounds(0, 10 ** 12, 65536)
    assert next(chunks) == (0, 65536) and next(chunks) == (65536, 65536)
    assert list(runner.chunk_bounds(5, 0, 10)) == [(5, 0)]
    assert list(runner.chunk_bounds(0, 25, 10)) == [(0, 10), (10, 10), (20, 5)]


# --- point 10: policy parameters -----------------------------------------------------------

@pytest.mark.parametrize("text, fragment", [
    ("careful(freeze_at=4.5)", r"freeze_at=4\.5 is not a whole number: accepted: a whole "
                               r"number in 0\.\.1000"),
    ("careful(freeze_at=4,freeze_at=5)", r"'freeze_at' is given twice: accepted is each "
                                         r"parameter once"),
    ("expert(wild_hold=25)", r"wild_hold=25 is out of range: accepted: a whole number in 0\.\.24"),
    ("expert(danger=-0.5)", r"danger=-0\.5 is out of range: accepted: a number in 0\.\.1000"),
    ("builder(want_canastas=1e9)", r"want_canastas=1000000000 is out of range"),
])
def test_bad_policy_parameters(text, fragment):
    with pytest.raises(BadInput, match=fragment):
        parse_one(text)


def test_every_default_is_in_its_range_and_whole_where_it_must_be():
    for policy, spec in REGISTRY.items():
        for name, value in spec.params.items():
            param = param_info(policy, name)
            assert param.lo <= value <= param.hi
            assert not param.integer or float(value).is_integer()
    assert parse_one("careful(danger=2.5,freeze_at=12)")[0] == "careful(danger=2.5,freeze_at=12)"


# --- point 11: columns --------------------------------------------------------------------------

def test_arithmetic_on_columns_does_not_wrap():
    """``100 * df.s0_natural`` once wrapped (int8): every integer column is int64 now.  (The
    third side's, cutthroat's and Modern American's columns are null here, as in every classic
    two-side table.)"""
    from canasta_sim.kernels.game import layout

    american = {"special_hand", "special_seat"} | {
        f"s{k}_{f}" for k in range(2) for f in layout.MAC_SIDE_FIELDS}
    df = canasta_sim.simulate(300, seed=3, policies="builder").to_pandas()
    assert df.s0_natural.max() >= 2
    assert (100 * df.s0_natural).max() == 100 * int(df.s0_natural.max())
    assert (df.s0_score * 10 ** 12).min() == int(df.s0_score.min()) * 10 ** 12
    assert all(str(t) in ("int64", "bool", "category") for c, t in df.dtypes.items()
               if not c.startswith(("s2_", "policy_", "lone_seat", "formed_by"))
               and not c.endswith("_role") and c not in american)


def test_to_pandas_keeps_null_columns_integer():
    table = canasta_sim.simulate(5, seed=1)
    plain = table.to_pandas()
    assert plain.s2_score.dtype == "float64" or plain.s2_score.dtype == object  # pandas default
    df = canasta_sim.to_pandas(table)
    assert df.s2_score.dtype == pd.Int64Dtype() and df.s2_score.isna().all()
    assert df.s0_score.dtype == pd.Int64Dtype() and df.s0_melded.dtype == pd.BooleanDtype()
    assert list(df.s0_score) == table["s0_score"].to_pylist()


def test_metadata_records_the_range():
    deals = canasta_sim.simulate(4, seed=2, first_deal=100)
    assert deals.schema.metadata[b"canasta_sim.first_deal"] == b"100"
    assert deals.schema.metadata[b"canasta_sim.deals"] == b"4"
    games, per_deal = canasta_sim.simulate(games=3, seed=2, first_game=7)
    for table in (games, per_deal):
        assert table.schema.metadata[b"canasta_sim.first_game"] == b"7"
        assert table.schema.metadata[b"canasta_sim.games"] == b"3"


def test_games_per_deal_table_names_the_in_game_index():
    games, deals = canasta_sim.simulate(games=2, seed=4)
    assert "deal" not in deals.column_names
    assert deals.column_names[:2] == ["game", "deal_in_game"]
    assert deals["deal_in_game"].type == pa.int64()
    first = deals.filter(pc.equal(deals["game"], 0))["deal_in_game"].to_pylist()
    assert first == list(range(len(first)))


# --- result rows sized per family ---------------------------------------------------------------

def test_rows_are_as_wide_as_the_family_needs_and_the_schema_is_one():
    """Classic and cutthroat rows stop after the cutthroat columns; Modern American's carry
    the family's own; every table has the same columns, the family's null elsewhere."""
    from canasta_sim.kernels.game import layout

    classic = runner.prepare(40, 3, "classic", "greedy")
    american = runner.prepare(40, 3, "modern-american", "greedy")
    assert classic.new_rows(2).shape == (2, layout.COL_FORMED_BY + 1)
    assert american.new_rows(2).shape == (2, layout.NCOLS)
    with pytest.raises(ValueError, match=f"rows are 47 wide; this rule set's are {layout.NCOLS}"):
        runner.play_range(american, 0, classic.new_rows(1))
    tables = [canasta_sim.simulate(deals=40, seed=3, rules=r, policies="greedy")
              for r in ("classic", "modern-american")]
    assert tables[0].schema.names == tables[1].schema.names
    assert tables[0]["s0_talon"].null_count == 40 and tables[1]["s0_talon"].null_count == 0
