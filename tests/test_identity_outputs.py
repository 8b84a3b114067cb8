"""Speed work keeps play identical: every policy, preset, knob variant, game and
decision-logged trace hashes as recorded in tests/data (tests/identity_outputs.py)."""
import json

import pytest
from identity_outputs import HASHES, TRACES, cases, digest, full_traces

WANT = json.loads(HASHES.read_text())
KEYS = [key for key, _ in cases()]


@pytest.mark.parametrize("group", sorted({k.split("/")[0] for k in KEYS}))
def test_outputs_are_as_recorded(group):
    """Every case of the group hashes as recorded (the reference's commit: its git log)."""
    differ = [key for key, thunk in cases() if key.split("/")[0] == group
              and digest(*thunk()) != WANT[key]]
    assert differ == []


def test_full_traces_are_as_recorded():
    assert "\n".join(full_traces()) + "\n" == TRACES.read_text()


def test_every_case_has_a_reference():
    assert set(KEYS) <= set(WANT)
