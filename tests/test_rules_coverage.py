"""Meta-test: every rule R1..R60 of RULES.md is cited by a test, and every worked example
T01..T46 has a test named after it (``def test_T17_...``).

A citation is the rule ID as a whole word in a test file (in a test name, a docstring or a
``# R33`` comment on an assertion line); helper modules (naive.py, rules_replay.py, ...) do
not count.
"""
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
RULES_MD = TESTS.parents[1] / "shared" / "RULES.md"


def _test_files():
    return [p for p in sorted(TESTS.glob("test_*.py")) if p.name != Path(__file__).name]


def cited(pattern):
    found = set()
    for path in _test_files():
        found.update(int(m) for m in re.findall(pattern, path.read_text()))
    return found


def test_every_rule_is_cited():
    missing = sorted(set(range(1, 61)) - cited(r"\bR(\d{1,2})\b"))
    assert missing == [], f"rules not cited by any test: {['R%d' % r for r in missing]}"


def test_every_worked_example_has_a_test():
    missing = sorted(set(range(1, 47)) - cited(r"def test_T(\d\d)_"))
    assert missing == [], f"examples without a test: {['T%02d' % t for t in missing]}"


def test_spec_still_has_60_rules_and_46_examples():
    """If RULES.md grows, this test says which IDs the suite must start to cover."""
    if not RULES_MD.exists():                       # the spec lives beside the repository
        pytest.skip(f"external spec not found ({RULES_MD}): docs/rules.md is checked by "
                    "tests/test_docs.py instead")
    text = RULES_MD.read_text()
    rules = {int(m) for m in re.findall(r"\*\*R(\d+)\b", text)}
    examples = {int(m) for m in re.findall(r"\*\*T(\d+)\b", text)}
    assert rules == set(range(1, 61))
    assert examples == set(range(1, 47))


def test_every_knob_is_switched_by_a_test():
    """Every knob of RULES.md 3.1 is set by some test (``knob=value`` in a rule string or a
    keyword), so switching it is checked against what RULES.md says."""
    from canasta_sim.rules import KNOBS

    text = "".join(path.read_text() for path in _test_files())
    missing = [k for k in KNOBS if not re.search(rf"\b{k}\s*=|\"{k}\"\s*:", text)]
    assert missing == [], f"knobs no test switches: {missing}"
