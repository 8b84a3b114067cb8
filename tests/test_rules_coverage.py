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
# The spec is not part of the repository: it sits beside the checkout (../shared/RULES.md seen
# from the repository root) on the machine the project is developed on.
RULES_MD = TESTS.parents[1] / "shared" / "RULES.md"
RULE_IDS = set(range(1, 61))                        # R1..R60
EXAMPLE_IDS = set(range(1, 47))                     # T01..T46


def spec_text(path=None):
    """The text of RULES.md, or a skip (never a pass) saying where it was looked for."""
    path = RULES_MD if path is None else path
    if not path.is_file():
        pytest.skip(f"external spec not found ({path}): the check that RULES.md still has "
                    "R1-R60 and T01-T46 is skipped; docs/rules.md is checked by "
                    "tests/test_docs.py instead")
    return path.read_text()


def _test_files():
    return [p for p in sorted(TESTS.glob("test_*.py")) if p.name != Path(__file__).name]


def cited(pattern):
    found = set()
    for path in _test_files():
        found.update(int(m) for m in re.findall(pattern, path.read_text()))
    return found


def test_every_rule_is_cited():
    missing = sorted(RULE_IDS - cited(r"\bR(\d{1,2})\b"))
    assert missing == [], f"rules not cited by any test: {['R%d' % r for r in missing]}"


def test_every_worked_example_has_a_test():
    missing = sorted(EXAMPLE_IDS - cited(r"def test_T(\d\d)_"))
    assert missing == [], f"examples without a test: {['T%02d' % t for t in missing]}"


def spec_ids(text):
    """(rule IDs, worked-example IDs) defined in RULES.md text (``**R33 ...``, ``**T17**``)."""
    rules = {int(m) for m in re.findall(r"\*\*R(\d+)\b", text)}
    examples = {int(m) for m in re.findall(r"\*\*T(\d+)\b", text)}
    return rules, examples


def test_spec_still_has_60_rules_and_46_examples():
    """If RULES.md grows, this test says which IDs the suite must start to cover (the two
    tests above cover RULE_IDS and EXAMPLE_IDS).  Without RULES.md it is skipped."""
    rules, examples = spec_ids(spec_text())
    assert rules == RULE_IDS, f"RULES.md rules differ: {sorted(rules ^ RULE_IDS)}"
    assert examples == EXAMPLE_IDS, f"RULES.md examples differ: {sorted(examples ^ EXAMPLE_IDS)}"


def test_a_missing_spec_skips_and_a_changed_spec_fails(tmp_path):
    """The spec check never passes silently: no RULES.md is a skip naming the path looked at;
    a RULES.md with other IDs (or none at all) is a failure."""
    missing = tmp_path / "shared" / "RULES.md"
    with pytest.raises(pytest.skip.Exception, match="external spec not found") as skipped:
        spec_text(missing)
    assert str(missing) in str(skipped.value)
    with pytest.raises(pytest.skip.Exception):
        spec_text(tmp_path)                                         # a folder is not the spec
    grown = tmp_path / "grown.md"
    grown.write_text("".join(f"- **R{r} Rule.**\n" for r in range(1, 62))
                     + "".join(f"- **T{t:02d}** example\n" for t in EXAMPLE_IDS))
    assert spec_ids(spec_text(grown)) == (RULE_IDS | {61}, EXAMPLE_IDS)
    assert spec_ids("") == (set(), set())


def test_every_knob_is_switched_by_a_test():
    """Every knob of RULES.md 3.1 is set by some test (``knob=value`` in a rule string or a
    keyword), so switching it is checked against what RULES.md says."""
    from canasta_sim.rules import KNOBS

    text = "".join(path.read_text() for path in _test_files())
    missing = [k for k in KNOBS if not re.search(rf"\b{k}\s*=|\"{k}\"\s*:", text)]
    assert missing == [], f"knobs no test switches: {missing}"
