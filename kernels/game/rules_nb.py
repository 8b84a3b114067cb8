"""The rule set as the kernels see it: a NamedTuple of plain ints.

``canasta_sim.rules.RuleSet`` (a frozen dataclass) turns itself into a
:class:`RulesNb`; every knob of RULES.md section 3.1 is one field.  Because the
tuple is an argument, not a global, one compilation serves every variant.
Enumerated knobs are small ints whose codes are the NamedTuple enums below.
"""
from typing import NamedTuple


class WildRatioT(NamedTuple):
    """Codes of ``wild_ratio_rule`` (D2)."""
    NONE: int = 0
    LE: int = 1        # wilds <= naturals (source B)
    LT: int = 2        # naturals out-number wilds (PEN)
    HALF: int = 3      # naturals >= 2 * wilds (source A, literal)


WildRatio = WildRatioT()
WILD_RATIO_NAMES = ("none", "le", "lt", "half")


class CoverSetT(NamedTuple):
    """Codes of ``upcard_cover_set`` (R7, D5)."""
    WILD_ANY3: int = 0
    WILD_RED3: int = 1


CoverSet = CoverSetT()
COVER_SET_NAMES = ("wild_any3", "wild_red3")


class UnmeldedAccessT(NamedTuple):
    """Codes of ``unmelded_pile_access`` (D7)."""
    NATURAL_PAIR_WITH_MIN_COUNT: int = 0
    FORBIDDEN: int = 1


UnmeldedAccess = UnmeldedAccessT()
UNMELDED_ACCESS_NAMES = ("natural_pair_with_min_count", "forbidden")


class Red3RequiresT(NamedTuple):
    """Codes of ``red3_positive_requires`` (R52, R57)."""
    ANY_MELD: int = 0
    CANASTA: int = 1


Red3Requires = Red3RequiresT()
RED3_REQUIRES_NAMES = ("any_meld", "canasta")


class AskT(NamedTuple):
    """Codes of ``ask_permission`` (R42)."""
    OPTIONAL: int = 0
    NEVER: int = 1
    REQUIRED: int = 2


Ask = AskT()
ASK_NAMES = ("optional", "never", "required")


class TieT(NamedTuple):
    """Codes of ``tie_policy`` (R60)."""
    EXTRA_DEAL: int = 0
    DRAW: int = 1


Tie = TieT()
TIE_NAMES = ("extra_deal", "draw")


class Red3TimingT(NamedTuple):
    """Codes of ``red3_replacement_timing``."""
    AFTER_DEAL: int = 0
    FIRST_TURN: int = 1


Red3Timing = Red3TimingT()
RED3_TIMING_NAMES = ("after_deal", "first_turn")

NO_LIMIT = 1 << 30           # max_wilds_per_meld = none
NEG_INF = -(1 << 62)         # lower bound of the first initial_meld_table row
MELD_TABLE_ROWS = 6          # initial_meld_table holds at most this many rows


class RulesNb(NamedTuple):
    """Every knob of RULES.md 3.1 as an int (booleans 0/1, enums as codes above)."""
    num_players: int
    num_sides: int
    num_packs: int
    num_jokers: int
    hand_size: int
    draw_count: int
    canastas_to_go_out: int
    game_target: int
    meld_rows: int
    meld_lo0: int
    meld_lo1: int
    meld_lo2: int
    meld_lo3: int
    meld_lo4: int
    meld_lo5: int
    meld_min0: int
    meld_min1: int
    meld_min2: int
    meld_min3: int
    meld_min4: int
    meld_min5: int
    min_naturals_per_meld: int
    max_wilds_per_meld: int
    wild_ratio_rule: int
    upcard_cover_set: int
    upcard_red3_freezes: int
    black_three_freezes: int
    unmelded_pile_access: int
    top_card_counts_for_minimum: int
    unfrozen_take_natural_plus_wild: int
    unfrozen_take_by_layoff: int
    one_card_pile_restriction: int
    red3_bonus_each: int
    red3_all_four_total: int
    red3_negative_if_unmelded: int
    red3_positive_requires: int
    natural_canasta_bonus: int
    mixed_canasta_bonus: int
    going_out_bonus: int
    concealed_going_out_bonus: int
    concealed_canasta_bonus: int
    concealed_exempt_from_min_count: int
    concealed_allows_pile_take: int
    concealed_allows_final_discard: int
    ask_permission: int
    last_card_red3_may_meld: int
    empty_stock_forced_take: int
    black_three_going_out_meld: int
    black3_card_value: int
    tie_policy: int
    red3_replacement_timing: int
