"""The knob table (kernels/game/knobs.py): a knob is declared once, in one row, and the rule set,
its validation, the kernels' RulesNb, ``canasta-sim rules show`` and docs/knobs.md are made
from the rows; adding a knob is one row (plus the rule code and its tests)."""
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
from canasta_sim.kernels.game import knobs, rules_nb
from canasta_sim.kernels.game.knobs import KNOB_TABLE
from click.testing import CliRunner

from canasta_sim import rules
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput

REPO = Path(__file__).resolve().parents[1]
ROWS = {row.name: row for row in KNOB_TABLE}


def _show_lines(rule_set="classic"):
    """``rules show`` output as knob name -> line."""
    result = CliRunner().invoke(cli, ["rules", "show", rule_set])
    assert result.exit_code == 0, result.output
    return {line[2:].split()[0]: line for line in result.output.splitlines()[1:-1]}


def _docs_lines():
    """The rows of the knob table in docs/knobs.md as knob name -> cells."""
    text = (REPO / "docs" / "knobs.md").read_text()
    block = re.search(r"<!-- knobs:begin[^\n]*-->\n(.*?)<!-- knobs:end -->", text, re.DOTALL)
    cells = [[c.strip() for c in line.strip("|").split("|")]
             for line in block.group(1).splitlines()[2:]]
    return {c[0].strip("`"): c[1:] for c in cells}


def test_rows_are_well_formed():
    assert len(ROWS) == len(KNOB_TABLE)
    fields = [field for row in KNOB_TABLE for field in row.kernel_fields]
    assert len(set(fields)) == len(fields)
    enums = [row.enum for row in KNOB_TABLE if row.enum]
    assert len(set(enums)) == len(enums)
    for row in KNOB_TABLE:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", row.name), row.name
        assert row.type in (knobs.BOOL, knobs.INT, knobs.INT_OR_NONE, knobs.ENUM,
                            knobs.MELD_TABLE, knobs.INT_LIST), row.name
        assert row.meaning and row.sources and "\n" not in row.meaning + row.sources, row.name
        assert all(re.fullmatch(r"R\d{1,2}|C\d{1,2}a?|A\d{1,2}", r) for r in row.rule_ids), row.name
        assert not re.search(r"\bR\d", row.meaning), f"{row.name}: rule IDs go in rule_ids"
        if row.type == knobs.ENUM:
            assert row.values and len(set(row.values)) == len(row.values), row.name
            assert row.default in row.values, row.name
            assert all(v.upper().isidentifier() for v in row.values) or not row.enum, row.name
        else:
            assert not row.enum, row.name
        if row.supported is not None:
            assert row.default in row.supported, row.name


def test_rule_set_fields_are_the_rows_in_order():
    fields = dataclasses.fields(rules.RuleSet)
    assert [f.name for f in fields] == [row.name for row in KNOB_TABLE] + ["preset"]
    assert [f.default for f in fields[:-1]] == [row.default for row in KNOB_TABLE]
    assert list(rules.KNOBS) == list(rules.KNOB_DOCS) == [row.name for row in KNOB_TABLE]


def test_rules_nb_fields_are_the_rows_kernel_fields_in_order():
    assert rules_nb.RulesNb._fields == tuple(field for row in KNOB_TABLE
                                             for field in row.kernel_fields)
    # the kernels' cache pickles these types by reference: they must be found under their names
    for cls in [rules_nb.RulesNb] + [type(getattr(rules_nb, r.enum)) for r in KNOB_TABLE
                                     if r.enum]:
        assert cls.__module__ == rules_nb.__name__
        assert getattr(rules_nb, cls.__qualname__) is cls


@pytest.mark.parametrize("name", list(ROWS))
def test_each_row_makes_every_piece(name):
    row = ROWS[name]
    kind = rules.KNOBS[name]
    classic = rules.preset_rules("classic")
    default = kind.format(row.default)
    assert getattr(classic, name) == row.default == getattr(rules.RuleSet, name)
    meaning = row.meaning + (f" ({', '.join(row.rule_ids)})" if row.rule_ids else "")
    assert rules.KNOB_DOCS[name] == (meaning, row.sources)

    # its range, as validation accepts and refuses it and as docs/knobs.md lists it
    values = rules.knob_values(kind)
    if row.type == knobs.BOOL:
        assert values == "true, false"
        accepted, refused = [True, False, "true", "FALSE"], ["yes", 1]
    elif row.type == knobs.ENUM:
        assert values == ", ".join(row.values)
        accepted, refused = list(row.values), ["no-such-value"]
    elif row.type == knobs.MELD_TABLE:
        assert values == f"1..{row.hi} rows bound:minimum"
        accepted = [row.default, ((None, 0),) + tuple((i, i) for i in range(row.hi - 1))]
        refused = [(), ((None, 0),) + tuple((i, i) for i in range(row.hi))]
    elif row.type == knobs.INT_LIST:
        assert values == f"{row.length} numbers a;b;..., each {row.lo}..{row.hi}"
        assert len(row.default) == row.length
        accepted = [row.default, ";".join([str(row.hi)] * row.length), (row.lo,) * row.length]
        refused = [(row.lo,) * (row.length + 1), ";".join(["x"] * row.length),
                   (row.hi + 1,) * row.length, str(row.lo)]
    elif row.values:
        assert values == ", ".join(map(str, row.values))
        accepted = list(row.values)
        refused = [v for v in range(min(row.values) - 1, max(row.values) + 2)
                   if v not in row.values]
    else:
        none = "none or " if row.type == knobs.INT_OR_NONE else ""
        assert values == f"{none}a whole number in {row.lo}..{row.hi}"
        accepted = [row.lo, row.hi, str(row.hi)] + ([None, "none"] if none else [])
        refused = [row.lo - 1, row.hi + 1, "x"]
    for value in accepted:
        kind.check(name, value)
    for value in refused:
        with pytest.raises(BadInput, match=rf"^{name}.*accepted"):
            kind.check(name, value)

    # the kernels' fields
    if row.kernel is None:
        assert getattr(classic.to_kernel(), name) == kind.to_int(row.default)
    if row.enum:
        codes = getattr(rules_nb, row.enum)
        assert codes._fields == tuple(v.upper() for v in row.values)
        assert tuple(codes) == tuple(range(len(row.values)))
        for code, value in enumerate(row.values):
            assert kind.to_int(value) == code

    # rules show and docs/knobs.md
    assert _show_lines()[name].split() == [name, default, *meaning.split()]
    assert _docs_lines()[name] == [values, f"`{default}`", meaning, row.sources]


ADDED = '''
import dataclasses
from canasta_sim.kernels.game import knobs
knobs.KNOB_TABLE += (
    knobs.Knob("test_speed", knobs.ENUM, "slow", meaning="how fast the test plays",
               rule_ids=("R12",), sources="slow (TEST); fast", values=("slow", "fast"),
               enum="Speed"),
    knobs.Knob("test_bonus", knobs.INT, 25, meaning="points for the test", rule_ids=(),
               sources="25 (TEST)", **knobs.POINTS),
)
from click.testing import CliRunner
from canasta_sim import rules
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.kernels.game import rules_nb

r = rules.parse_rules("seed-a(test_speed=FAST,test_bonus=-7)")
assert (r.test_speed, r.test_bonus) == ("fast", -7), r
assert r.canonical() == "seed-a(test_bonus=-7,test_speed=fast)", r.canonical()
assert rules.parse_rules(r.canonical()) == r
assert rules.RuleSet().test_speed == "slow" and rules.RuleSet().test_bonus == 25
assert rules.preset_rules("classic").canonical() == "classic"
assert [f.name for f in dataclasses.fields(rules.RuleSet)][-3:] == [
    "test_speed", "test_bonus", "preset"]
k = r.to_kernel()
assert k.test_speed == rules_nb.Speed.FAST == 1 and k.test_bonus == -7, k
assert rules_nb.RulesNb._fields[-2:] == ("test_speed", "test_bonus")
for text, message in [
        ("classic(test_speed=medium)", "test_speed='medium' is not accepted: accepted values "
                                       "are slow, fast"),
        ("classic(test_bonus=2000000)", "test_bonus=2000000 is out of range: accepted: a whole "
                                        "number in -1000000..1000000")]:
    try:
        rules.parse_rules(text)
        raise AssertionError(text)
    except BadInput as exc:
        assert str(exc) == message, exc
out = CliRunner().invoke(cli, ["rules", "show", "classic(test_speed=fast)"]).output
assert "* test_speed" in out and "fast" in out and "how fast the test plays (R12)" in out, out
assert "  test_bonus" in out and "points for the test" in out, out
md = rules.knobs_markdown()
assert "| `test_speed` | slow, fast | `slow` | how fast the test plays (R12) | slow (TEST); fast |" in md
assert "| `test_bonus` | a whole number in -1000000..1000000 | `25` | points for the test | 25 (TEST) |" in md
print("one row made every piece")
'''


def test_adding_a_knob_is_one_row():
    """Two rows added to the table (before anything reads it) give two knobs everywhere."""
    done = subprocess.run([sys.executable, "-c", ADDED], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "one row made every piece"
