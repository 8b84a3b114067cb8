"""The rule record of Modern American Canasta: a NamedTuple of plain ints, made from the knob
table's rows, that the family's pieces take instead of classic's ``RulesNb``.

It holds the classic knobs the family reads (the hand size, the minimum table, the going-out
bonus, the value of a three left in hand, ...) and every family knob (``mac_*``), a list knob
as one field per number.  Enumerated knobs are codes, the position of the value in its row
(``MacNeeds.CLEAN_OR_WILD``), read from the constants ``rules_nb`` makes for every row.
``canasta_sim.rules.RuleSet.to_american_kernel`` fills it.
"""
from typing import NamedTuple

from ..knobs import AMERICAN_TABLE, MELD_TABLE_FIELDS
from ..rules_nb import (  # noqa: F401  (re-exported: the family's enum codes)
    AskLimit,
    DeadScope,
    MacNeeds,
    Specials,
    TalonSource,
    ThreesTiming,
)

CLASSIC_FIELDS = ("num_players", "num_packs", "num_jokers", "hand_size", "canastas_to_go_out",
                  "game_target", "top_card_counts_for_minimum", "going_out_bonus",
                  "concealed_going_out_bonus", "black3_card_value", "ask_permission",
                  "tie_policy")
"""The classic knobs the family reads, besides ``initial_meld_table`` (A3, A24, A42, A54)."""

LIST_FIELDS = {
    "mac_talon_sizes": ("talon_first", "talon_second"),                           # A32
    "mac_three_scores": ("three_score1", "three_score2", "three_score3", "three_score4"),  # A47
    "mac_canasta_bonuses": ("bonus_clean", "bonus_dirty", "bonus_aces", "bonus_sevens",
                            "bonus_wild", "bonus_four_jokers", "bonus_deuces"),   # A45
    "mac_incomplete_penalties": ("penalty_aces", "penalty_sevens", "penalty_wild"),  # A46
}
"""The fields of each list knob, one per number, in the knob's order."""

FAMILY_ROWS = AMERICAN_TABLE[1:]
"""The family's own knob rows, in the record's order."""


def _fields():
    """The record's field names: classic knobs, ``num_sides``, the meld table, then the family's
    knobs."""
    names = list(CLASSIC_FIELDS) + ["num_sides"] + list(MELD_TABLE_FIELDS)
    for row in FAMILY_ROWS:
        names.extend(LIST_FIELDS.get(row.name, (row.name,)))
    return names


MacRulesNb = NamedTuple("MacRulesNb", [(name, int) for name in _fields()])
MacRulesNb.__module__ = __name__
MacRulesNb.__doc__ = """Modern American's knobs as ints (module docstring); booleans 0/1."""
