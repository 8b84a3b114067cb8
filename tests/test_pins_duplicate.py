"""Pins: which side holds which lineup in a three-side duplicate study (canasta_sim/study:
spec.Arm.rotated, execute.arm_plans, metrics.lineup_side; docs/studies.md "Designs").

docs/studies.md: with three sides every seed is played once per rotation; in rotation r
seat s plays the policy written for seat (s + r) mod seats; lineup a is side 0 as written.
RULES.md 2.11: in three sides of two, side k holds seats k and k + 3.  So in rotation r
side k holds the lineup written for side (k + r) mod 3, and lineup a (side 0 as written)
sits at side (-r) mod 3; the scores before a deal stay with the sides.

tests/test_study.py::test_three_sides_duplicate_plays_every_rotation checks the seats of
three solo players (one seat per side); here the sides have two seats each, six different
policies make every seat visible, and the metrics' idea of where lineup a sits is checked
against what was played.
"""
import numpy as np
import pyarrow.compute as pc
import pytest

from canasta_sim.policies import parse_one
from canasta_sim.study import execute, store
from canasta_sim.study.metrics import lineup_side
from canasta_sim.study.spec import load_spec

POLICIES = ("expert", "careful", "greedy", "rush", "builder", "random")   # seats 0..5
SPEC = f"""
[study]
name = "dup3x2"
seed = 5
deals = 9
design = "duplicate"
scores = [100, 2000, 3500]
[[arms]]
name = "six"
rules = "six-player-3x2"
policies = "{','.join(POLICIES)}"
"""

LINEUPS = [("expert", "rush"), ("careful", "builder"), ("greedy", "random")]   # sides 0, 1, 2
# rotation -> the policy of each seat 0..5
SEATS = {
    0: ("expert", "careful", "greedy", "rush", "builder", "random"),
    1: ("careful", "greedy", "rush", "builder", "random", "expert"),
    2: ("greedy", "rush", "builder", "random", "expert", "careful"),
}
# rotation -> which lineup (index into LINEUPS) each side 0, 1, 2 holds
HOLDS = {0: (0, 1, 2), 1: (1, 2, 0), 2: (2, 0, 1)}


@pytest.fixture(scope="module")
def spec():
    return load_spec(SPEC)


def test_three_rotations_and_the_lineups_as_written(spec):
    arm = spec.arm("six")
    assert spec.rotations(arm) == 3
    assert arm.lineups() == ["expert,rush", "careful,builder", "greedy,random"]


@pytest.mark.parametrize("rotation", [0, 1, 2])
def test_each_seat_and_side_per_rotation(spec, rotation):
    arm = spec.arm("six")
    seats = arm.rotated(rotation)
    assert seats == SEATS[rotation]
    for side in range(3):
        held = {seats[side], seats[side + 3]}                  # side k: seats k, k + 3
        assert held == set(LINEUPS[HOLDS[rotation][side]])
        assert HOLDS[rotation][side] == (side + rotation) % 3
    # lineup a (side 0 as written) sits where the metrics look for it
    assert HOLDS[rotation][int(lineup_side(rotation, 3))] == 0
    assert int(lineup_side(rotation, 3)) == (0, 2, 1)[rotation]


def test_runner_plans_seat_the_rotated_policies_and_keep_the_scores_with_the_sides(spec):
    plans = execute.arm_plans(spec, "six").plans
    assert len(plans) == 3
    for rotation, plan in enumerate(plans):
        ids = [parse_one(name)[1] for name in SEATS[rotation]]
        assert list(plan.policy_ids[:6]) == ids
        assert tuple(plan.names[:6]) == SEATS[rotation]
        assert list(plan.scores_before[:3]) == [100, 2000, 3500]     # not rotated


def test_played_rows_put_lineup_a_where_the_metrics_read_it(spec, tmp_path):
    """A real (tiny) study: every row's seat policies are those of its rotation, and the
    side holding lineup a in each row (the side whose seats play expert and rush) is
    metrics.lineup_side(rotation)."""
    out = tmp_path / "dup3x2"
    execute.run(spec, out, report=False)
    rows = store.open_study(out).to_table("data")
    assert sorted(set(rows["rotation"].to_pylist())) == [0, 1, 2]
    for rotation in range(3):
        part = rows.filter(pc.equal(rows["rotation"], rotation))
        assert part.num_rows == 3
        for seat in range(6):
            assert set(part[f"policy_{seat}"].to_pylist()) == {SEATS[rotation][seat]}
        side_of_a = [k for k in range(3) if {part[f"policy_{k}"][0].as_py(),
                                               part[f"policy_{k + 3}"][0].as_py()}
                     == set(LINEUPS[0])]
        assert side_of_a == [int(lineup_side(np.int64(rotation), 3))]
