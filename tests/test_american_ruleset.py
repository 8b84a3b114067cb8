"""Modern American Canasta as a rule set (docs/american.md): the ``family`` knob, the family's
knobs and their one-line refusals, the presets, the family's kernel record, and the refusal of
the commands that do not play the family yet (check-policy, the analysis)."""
import pytest
from canasta_sim.kernels.game.american.rules_nb import (
    LIST_FIELDS,
    MacNeeds,
    MacRulesNb,
    Specials,
    TalonSource,
)
from canasta_sim.kernels.game.knobs import (
    AMERICAN_FIXED,
    AMERICAN_KNOBS,
    AMERICAN_NOT_APPLICABLE,
)
from click.testing import CliRunner

from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.rules import (
    KNOBS,
    PLAYABLE_PRESETS,
    PRESETS,
    parse_rules,
    preset_rules,
    refuse_unplayable,
)

AMERICAN_PRESETS = ("modern-american", "modern-american-pagat")


def test_presets_hold_the_family_values():
    """A3, A5, A24, A42, A54: the classic knobs with Modern American values."""
    r = preset_rules("modern-american")
    assert r.family == "modern_american" and r.american
    assert (r.num_players, r.team_layout, r.hand_size, r.draw_count) == (4, "2x2", 13, 1)
    assert (r.canastas_to_go_out, r.game_target) == (2, 8500)                   # A40, A54
    assert r.initial_meld_table == ((None, 125), (3000, 155), (5000, 180))     # A24
    assert not r.top_card_counts_for_minimum                                     # A25
    assert (r.going_out_bonus, r.concealed_going_out_bonus) == (100, 100)        # A42
    assert r.mac_talon_sizes == (4, 3) and r.mac_three_scores == (100, 300, 500, 1000)
    assert r.mac_canasta_bonuses == (500, 300, 2500, 2500, 2000, 2500, 3000)   # A45
    assert r.mac_incomplete_penalties == (2500, 2500, 2000)                     # A46
    p = preset_rules("modern-american-pagat")
    assert p.differences() == {}
    assert (p.mac_initial_meld_needs, p.mac_take_pair_counts, p.mac_splash,
            p.mac_special_hands, p.mac_wild_meld_penalty_four_jokers) == \
        ("clean_or_wild", False, True, "pagat", 2500)                          # DA2-DA6


def test_presets_round_trip_and_are_not_playable():
    for name in AMERICAN_PRESETS:
        assert name in PRESETS and name not in PLAYABLE_PRESETS
        r = parse_rules(name)
        assert r.canonical() == name and parse_rules(r.canonical()) == r
    assert set(PLAYABLE_PRESETS) == set(PRESETS) - set(AMERICAN_PRESETS)


def test_list_knobs_parse_and_write_with_semicolons():
    r = parse_rules("modern-american(mac_talon_sizes=5;2,mac_three_scores=0;0;0;0)")
    assert r.mac_talon_sizes == (5, 2) and r.mac_three_scores == (0, 0, 0, 0)
    assert r.canonical() == "modern-american(mac_talon_sizes=5;2,mac_three_scores=0;0;0;0)"
    assert parse_rules(r.canonical()) == r


@pytest.mark.parametrize("text, message", [
    ("modern-american(mac_talon_sizes=5)",
     "mac_talon_sizes=5 is not 2 numbers: accepted: 2 whole numbers in 0..13 joined by ';', "
     "e.g. 4;3"),
    ("modern-american(mac_talon_sizes=4;14)",
     "mac_talon_sizes=4;14 holds 14: accepted: 2 whole numbers in 0..13"),
    ("modern-american(mac_three_scores=1;2;x;4)", "mac_three_scores='x' is not a whole number"),
    ("modern-american(mac_max_meld_size=8)",
     "mac_max_meld_size=8 is out of range: accepted: 7"),
    ("modern-american(mac_special_hands=all)",
     "mac_special_hands='all' is not accepted: accepted values are cla, pagat, none"),
    ("classic(mac_splash=true)",
     "mac_splash=true needs family=modern_american (family is classic): accepted with it is "
     "mac_splash=false"),
    ("classic(mac_talon_sizes=4;4)", "mac_talon_sizes=4;4 needs family=modern_american"),
    ("modern-american(draw_count=2)",
     "draw_count=2 is not played with family=modern_american: accepted is draw_count=1"),
    ("modern-american(unfrozen_take_by_layoff=true)",
     "unfrozen_take_by_layoff=true is not played with family=modern_american"),
    ("modern-american(red3_bonus_each=50)",
     "red3_bonus_each=50 does not apply with family=modern_american: accepted is its classic "
     "value red3_bonus_each=100"),
    ("modern-american(max_wilds_per_meld=2)",
     "max_wilds_per_meld=2 does not apply with family=modern_american"),
    ("classic(family=american)",
     "family='american' is not accepted: accepted values are classic, modern_american"),
])
def test_bad_family_knobs_are_one_line_refusals(text, message):
    with pytest.raises(BadInput) as err:
        parse_rules(text)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_every_fixed_and_inapplicable_knob_is_refused():
    """docs/american.md: the classic knobs the family fixes or does not read."""
    base = preset_rules("modern-american")
    for name in list(AMERICAN_FIXED) + list(AMERICAN_NOT_APPLICABLE):
        kind = KNOBS[name]
        other = _another_value(kind, getattr(base, name))
        with pytest.raises(BadInput, match=f"^{name}="):
            parse_rules(f"modern-american({name}={kind.format(other)})")


def _another_value(kind, value):
    """A valid value of the knob other than ``value``."""
    from canasta_sim.rules import BoolKnob, EnumKnob, IntKnob, OptionalIntKnob
    if isinstance(kind, BoolKnob):
        return not value
    if isinstance(kind, EnumKnob):
        return next(v for v in kind.names if v != value)
    if isinstance(kind, IntKnob) and kind.choices:
        return next(v for v in kind.choices if v != value)
    if isinstance(kind, OptionalIntKnob):
        return kind.lo if value is not None else kind.hi
    return value + 1 if value < kind.hi else value - 1


def test_free_classic_knobs_may_change():
    r = parse_rules("modern-american(hand_size=11,game_target=5000,canastas_to_go_out=1,"
                    "top_card_counts_for_minimum=true,black3_card_value=100)")
    assert (r.hand_size, r.game_target, r.canastas_to_go_out) == (11, 5000, 1)


def test_family_record():
    k = parse_rules("modern-american-pagat(mac_talon_source=set_aside,"
                    "mac_canasta_bonuses=1;2;3;4;5;6;7)").to_american_kernel()
    assert isinstance(k, MacRulesNb) and all(type(v) is int for v in k)
    assert k.mac_initial_meld_needs == MacNeeds.CLEAN_OR_WILD
    assert k.mac_special_hands == Specials.PAGAT
    assert k.mac_talon_source == TalonSource.SET_ASIDE
    assert [getattr(k, f) for f in LIST_FIELDS["mac_canasta_bonuses"]] == [1, 2, 3, 4, 5, 6, 7]
    assert (k.talon_first, k.talon_second, k.meld_rows, k.meld_min1, k.meld_lo2) == \
        (4, 3, 3, 155, 5000)
    assert set(AMERICAN_KNOBS) - set(LIST_FIELDS) <= set(MacRulesNb._fields)
    with pytest.raises(BadInput, match="family=classic has no Modern American record"):
        preset_rules("classic").to_american_kernel()


def test_the_classic_kernels_refuse_the_family():
    """The classic kernel record refuses the family; commands not built for it refuse it in
    one line naming the commands that play it."""
    for name in AMERICAN_PRESETS:
        with pytest.raises(BadInput, match="family=modern_american is not supported yet"):
            preset_rules(name).to_kernel()
    refuse_unplayable("classic", "check-policy")
    refuse_unplayable("no-such-rules", "check-policy")   # left to the command's own parsing
    for command in ("simulate", "replay", "bench", "compare", "strength", "tune",
                    "check-policy"):
        refuse_unplayable("modern-american", command)
    with pytest.raises(BadInput, match="does not play in 'position' yet: accepted: a "
                                       "classic rule set; Modern American plays in simulate, "
                                       "replay, audit, bench, compare, study, strength, tune, "
                                       "check-policy"):
        refuse_unplayable("modern-american(mac_splash=true)", "position")


def test_rules_show_lists_the_family():
    result = CliRunner().invoke(cli, ["rules", "show", "modern-american"])
    assert result.exit_code == 0
    assert "mac_rule_of_five" in result.output and "modern_american" in result.output


def test_knobs_of_the_turn_reach_the_record():
    """A9, A41: knobs that only the family's turn will read (not built yet) reach the record."""
    k = parse_rules("modern-american(mac_threes_timing=after_deal,mac_ask_limit=once_per_side)")\
        .to_american_kernel()
    assert (k.mac_threes_timing, k.mac_ask_limit) == (1, 1)
