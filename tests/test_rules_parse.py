"""Rule sets: presets, canonical strings, TOML files, validation and the kernel tuple."""
import dataclasses

import pytest
from canasta_sim.kernels.game import rules_nb
from canasta_sim.kernels.game.knobs import AMERICAN_KNOBS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from canasta_sim.errors import BadInput
from canasta_sim.rules import (
    KNOBS,
    PLAYABLE_PRESETS,
    PRESETS,
    BoolKnob,
    EnumKnob,
    IntKnob,
    IntListKnob,
    MeldTableKnob,
    OptionalIntKnob,
    RuleSet,
    parse_rules,
    preset_rules,
)

CLASSIC_TABLE = "-inf:15;0:50;1500:90;3000:120"


# --- presets and canonical strings ---------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_round_trips(name):
    rules = parse_rules(name)
    assert rules.preset == name
    assert rules.canonical() == name
    assert parse_rules(rules.canonical()) == rules


def test_classic_defaults_match_rules_md():
    r = parse_rules("classic")
    assert (r.num_players, r.team_layout, r.num_packs, r.num_jokers) == (4, "2x2", 2, 4)
    assert (r.hand_size, r.draw_count, r.canastas_to_go_out, r.game_target) == (11, 1, 1, 5000)
    assert r.initial_meld_table == ((None, 15), (0, 50), (1500, 90), (3000, 120))
    assert r.max_wilds_per_meld == 3 and r.wild_canasta_bonus is None
    assert r.wild_ratio_rule == "none" and r.black_three_freezes is False
    assert r.concealed_going_out_bonus == 200 and r.concealed_canasta_bonus == 0
    assert r == RuleSet()


def test_player_count_presets():
    two = parse_rules("two-player")
    assert (two.num_players, two.hand_size, two.draw_count, two.canastas_to_go_out) == (2, 15, 2, 2)
    assert two.sides() == [[0], [1]]
    three = parse_rules("three-player")
    assert (three.num_players, three.hand_size, three.num_sides) == (3, 13, 3)
    six = parse_rules("six-player")
    assert (six.num_packs, six.num_jokers, six.hand_size, six.game_target) == (3, 6, 13, 10000)
    assert six.initial_meld_table[-1] == (7500, 150)
    assert six.sides() == [[0, 2, 4], [1, 3, 5]]
    six3 = parse_rules("six-player-3x2")
    assert (six3.num_sides, six3.game_target) == (3, 7500)
    assert six3.sides() == [[0, 3], [1, 4], [2, 5]]
    assert parse_rules("classic").sides() == [[0, 2], [1, 3]]


def test_seed_presets():
    assert parse_rules("seed-a").differences() == {}
    a = parse_rules("seed-a")
    assert (a.black_three_freezes, a.concealed_exempt_from_min_count, a.wild_ratio_rule) == \
        (True, False, "half")
    b = parse_rules("seed-b")
    assert (b.wild_ratio_rule, b.upcard_red3_freezes, b.concealed_canasta_bonus) == \
        ("le", False, 100)


def test_canonical_lists_only_differences_sorted():
    r = RuleSet.from_preset("classic", hand_size=13, black_three_freezes=True,
                            max_wilds_per_meld=None)
    assert r.canonical() == \
        "classic(black_three_freezes=true,hand_size=13,max_wilds_per_meld=none)"
    assert parse_rules(r.canonical()) == r


def test_meld_table_is_written_with_minus_inf():
    r = RuleSet.from_preset("classic", initial_meld_table=CLASSIC_TABLE + ";7000:150")
    assert r.canonical() == f"classic(initial_meld_table={CLASSIC_TABLE};7000:150)"
    assert parse_rules(r.canonical()) == r
    six = parse_rules("six-player(initial_meld_table=" + CLASSIC_TABLE + ")")
    assert six.canonical() == "six-player(initial_meld_table=" + CLASSIC_TABLE + ")"


def test_spacing_and_case_are_forgiven():
    assert parse_rules("  Classic ( black_three_freezes = TRUE ) ") == \
        RuleSet(black_three_freezes=True)
    assert parse_rules("classic()") == parse_rules("classic")


def test_override_back_to_preset_value_disappears():
    assert parse_rules("two-player(hand_size=15)").canonical() == "two-player"


# --- random knob combinations --------------------------------------------------------------

def _value_strategy(knob):
    if isinstance(knob, BoolKnob):
        return st.booleans()
    if isinstance(knob, EnumKnob):
        return st.sampled_from(knob.names)
    if isinstance(knob, IntKnob):
        return st.sampled_from(knob.choices) if knob.choices else st.integers(knob.lo, knob.hi)
    if isinstance(knob, OptionalIntKnob):
        return st.none() | st.integers(knob.lo, knob.hi)
    if isinstance(knob, IntListKnob):
        return st.tuples(*[st.integers(knob.lo, knob.hi)] * knob.length)
    assert isinstance(knob, MeldTableKnob)
    rows = st.lists(st.tuples(st.integers(-5000, 20000), st.integers(0, 300)),
                    max_size=knob.max_rows - 1, unique_by=lambda row: row[0])
    return st.builds(lambda first, rest: ((None, first),) + tuple(sorted(rest)),
                     st.integers(0, 300), rows)


@st.composite
def rule_sets(draw):
    preset = draw(st.sampled_from(list(PRESETS)))
    names = draw(st.lists(st.sampled_from(list(KNOBS)), unique=True, max_size=8))
    overrides = {name: draw(_value_strategy(KNOBS[name])) for name in names}
    try:
        return RuleSet.from_preset(preset, **overrides)
    except BadInput:
        from hypothesis import reject
        reject()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rule_sets())
def test_random_rule_sets_round_trip(rules):
    text = rules.canonical()
    assert parse_rules(text) == rules
    assert "\n" not in text and " " not in text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rules=rule_sets())
def test_random_rule_sets_round_trip_through_toml(tmp_path_factory, rules):
    path = tmp_path_factory.mktemp("toml") / "rules.toml"
    lines = [f'preset = "{rules.preset}"']
    for name, value in rules.knobs().items():
        text = KNOBS[name].format(value)
        if isinstance(value, bool):
            lines.append(f"{name} = {text}")
        elif isinstance(value, int):
            lines.append(f"{name} = {value}")
        else:
            lines.append(f'{name} = "{text}"')
    path.write_text("\n".join(lines) + "\n")
    assert parse_rules(str(path)) == rules


# --- TOML files ----------------------------------------------------------------------------

def test_toml_file(tmp_path):
    path = tmp_path / "b3.toml"
    path.write_text('preset = "two-player"\nblack_three_freezes = true\n'
                    'initial_meld_table = [[-inf, 15], [0, 50], [2000, 100]]\n'
                    'max_wilds_per_meld = "none"\n')
    r = parse_rules(str(path))
    assert r.preset == "two-player" and r.black_three_freezes is True
    assert r.initial_meld_table == ((None, 15), (0, 50), (2000, 100))
    assert r.max_wilds_per_meld is None
    assert parse_rules(r.canonical()) == r


def test_toml_without_preset_is_classic(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text("hand_size = 12\n")
    assert parse_rules(str(path)) == RuleSet(hand_size=12)


@pytest.mark.parametrize("content, fragment", [
    ("hand_size = 12.0\n", "hand_size=12.0"),
    ("black_three_freezes = 1\n", "black_three_freezes=1"),
    ("colour = 3\n", "'colour'"),
    ("preset = 3\n", "preset=3"),
    ('preset = "vienna"\n', "'vienna'"),
    ("hand_size = \n", "not valid TOML"),
])
def test_bad_toml(tmp_path, content, fragment):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(BadInput) as info:
        parse_rules(str(path))
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


# --- every invalid-input class ---------------------------------------------------------------

@pytest.mark.parametrize("text, fragments", [
    ("foo", ["'foo'", "classic, two-player", ".toml"]),
    ("samba", ["'samba'", "accepted presets"]),
    ("foo(hand_size=3)", ["'foo'"]),
    ("classic(", ["'classic('"]),
    ("", ["unknown rule set ''"]),
    ("classic(colour=red)", ["'colour'", "accepted knobs"]),
    ("classic(black_three_freeze=true)", ["did you mean black_three_freezes"]),
    ("classic(hand_size)", ["'hand_size'", "knob=value"]),
    ("classic(hand_size=1,hand_size=2)", ["'hand_size'", "twice"]),
    ("classic(,)", ["empty knob"]),
    ("classic(preset=two-player)", ["'preset'"]),
    # wrong type
    ("classic(hand_size=abc)", ["hand_size='abc'", "whole number"]),
    ("classic(hand_size=11.5)", ["hand_size='11.5'"]),
    ("classic(black_three_freezes=yes)", ["black_three_freezes='yes'", "true, false"]),
    ("classic(wild_ratio_rule=most)", ["wild_ratio_rule='most'", "none, le, lt, half"]),
    ("classic(max_wilds_per_meld=lots)", ["max_wilds_per_meld='lots'", "none or"]),
    ("classic(initial_meld_table=50)", ["initial_meld_table='50'", "-inf:15"]),
    # out of range
    ("classic(num_players=5)", ["num_players=5", "2, 3, 4, 6"]),
    ("classic(draw_count=3)", ["draw_count=3", "1, 2"]),
    ("classic(canastas_to_go_out=0)", ["canastas_to_go_out=0"]),
    ("classic(game_target=0)", ["game_target=0"]),
    ("classic(max_wilds_per_meld=-1)", ["max_wilds_per_meld=-1"]),
    ("classic(hand_size=0)", ["hand_size=0"]),
    ("classic(initial_meld_table=0:50)", ["initial_meld_table=0:50", "-inf"]),
    ("classic(initial_meld_table=-inf:15;-inf:20)", ["-inf"]),
    ("classic(initial_meld_table=-inf:15;3000:90;1500:50)", ["do not increase"]),
    ("classic(initial_meld_table=-inf:15;0:1;1:2;2:3;3:4;4:5;5:6)", ["7 rows"]),
    ("classic(initial_meld_table=-inf:-15)", ["minimum=-15"]),
    # impossible combinations
    ("classic(num_players=6)", ["num_players=6", "team_layout=2x2"]),
    ("two-player(team_layout=2x2)", ["num_players=2", "team_layout=2x2"]),
    ("classic(num_packs=3)", ["num_packs=3", "num_jokers=4"]),
    ("classic(num_jokers=6)", ["num_jokers=6"]),
    ("classic(hand_size=27)", ["hand_size=27", "leaves 0 of", "108", "1..24"]),
    ("classic(hand_size=25)", ["hand_size=25", "leaves 8 of", "108", "1..24", "at least 10"]),
    ("two-player(hand_size=50)", ["hand_size=50", "leaves 8 of", "1..49"]),
    ("three-player(hand_size=33)", ["hand_size=33", "leaves 9 of", "1..32"]),
    ("six-player(hand_size=26)", ["hand_size=26", "leaves 6 of", "162", "1..25"]),
])
def test_bad_rules_name_the_value(text, fragments):
    with pytest.raises(BadInput) as info:
        parse_rules(text)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


def test_largest_hand_leaves_ten_cards_in_the_stock():
    """RULES.md 3.1: hand_size is at most what leaves 10 cards in the stock after the deal,
    so red-three replacements and the upcard never empty it (four players: 24)."""
    for text, most in [("classic", 24), ("two-player", 49), ("three-player", 32),
                       ("six-player", 25), ("six-player-3x2", 25)]:
        rules = parse_rules(f"{text}(hand_size={most})")
        assert rules.deck_size - rules.num_players * rules.hand_size >= 10
        with pytest.raises(BadInput, match=f"1..{most} "):
            parse_rules(f"{text}(hand_size={most + 1})")


def test_missing_toml_file():
    with pytest.raises(BadInput, match="'nowhere/rules.toml' does not exist"):
        parse_rules("nowhere/rules.toml")


def test_non_text_rules():
    with pytest.raises(BadInput, match="unknown rule set 5"):
        parse_rules(5)


def test_constructor_validates():
    with pytest.raises(BadInput, match="hand_size"):
        RuleSet(hand_size="many")
    with pytest.raises(BadInput, match="preset"):
        RuleSet(preset="nope")
    with pytest.raises(BadInput, match="num_players=3"):
        dataclasses.replace(RuleSet(), num_players=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        RuleSet().hand_size = 3


# --- the kernel tuple ----------------------------------------------------------------------

@pytest.mark.parametrize("name", list(PLAYABLE_PRESETS))
def test_to_kernel_is_plain_ints(name):
    rules = preset_rules(name)
    k = rules.to_kernel()
    assert isinstance(k, rules_nb.RulesNb)
    assert all(type(v) is int for v in k)
    assert k.num_sides == rules.num_sides
    assert k.meld_rows == len(rules.initial_meld_table)
    assert k.meld_lo0 == rules_nb.NEG_INF


def test_every_knob_reaches_the_kernel():
    derived = {"num_sides", "meld_rows", "cutthroat"} | {
        f"meld_{w}{i}" for w in ("lo", "min") for i in range(rules_nb.MELD_TABLE_ROWS)}
    not_in_kernel = {"team_layout", "initial_meld_table", "wild_canasta_bonus",
                     "family"} | set(AMERICAN_KNOBS)
    assert set(rules_nb.RulesNb._fields) - derived == set(KNOBS) - not_in_kernel


def test_to_kernel_codes():
    k = parse_rules("classic(wild_ratio_rule=half,ask_permission=required,"
                    "max_wilds_per_meld=none,black_three_freezes=true,"
                    "upcard_cover_set=wild_red3,tie_policy=draw)").to_kernel()
    assert k.wild_ratio_rule == rules_nb.WildRatio.HALF
    assert k.ask_permission == rules_nb.Ask.REQUIRED
    assert k.upcard_cover_set == rules_nb.CoverSet.WILD_RED3
    assert k.tie_policy == rules_nb.Tie.DRAW
    assert k.max_wilds_per_meld == rules_nb.NO_LIMIT
    assert k.black_three_freezes == 1


def test_to_kernel_meld_table_padding():
    k = parse_rules("six-player").to_kernel()
    assert k.meld_rows == 5
    assert (k.meld_lo1, k.meld_lo4, k.meld_min0, k.meld_min4) == (0, 7500, 15, 150)
    assert k.meld_lo5 > 10 ** 15  # padding rows are never reached


def test_num_sides_by_layout():
    assert [preset_rules(n).to_kernel().num_sides for n in
            ("classic", "two-player", "three-player", "six-player", "six-player-3x2")] == \
        [2, 2, 3, 2, 3]


def test_unsupported_knobs_rejected_for_the_kernel():
    with pytest.raises(BadInput, match="wild_canasta_bonus=2000 is not supported yet"):
        parse_rules("classic(wild_canasta_bonus=2000)").to_kernel()
    with pytest.raises(BadInput, match="family=modern_american is not supported yet"):
        parse_rules("modern-american").to_kernel()


def test_cutthroat_reaches_the_kernel_as_a_flag():
    """team_layout=cutthroat3 is read by the kernel as ``cutthroat`` (C1-C17): three sides
    at the deal, and 0 for every other layout."""
    cut = parse_rules("three-player(team_layout=cutthroat3)").to_kernel()
    assert (cut.cutthroat, cut.num_sides) == (1, 3)
    assert preset_rules("cutthroat").to_kernel().cutthroat == 1
    assert preset_rules("three-player").to_kernel().cutthroat == 0
