"""The knob table: every rule knob of docs/knobs.md declared once, as plain data.

One row per knob: its name, type and range (or its named values), the classic default, what it
means (one line), the rule IDs of docs/rules.md it changes and which sources use which values.
Everything else is made from these rows:

* ``rules_nb`` (the kernels): the fields of ``RulesNb``, the NamedTuple of ints every kernel
  takes, and for an enumerated knob the constant its codes are read from (``Ask.REQUIRED``);
* ``canasta_sim.rules`` (the Python face): the fields and defaults of ``RuleSet``, the check of
  each value with its one-line error, canonical strings, ``canasta-sim rules show`` and the
  knob table of docs/knobs.md.

Adding a knob is one row here, the rule code that reads ``rules.<name>`` and its tests.  This
module holds no numba code and imports nothing of the Python face, so both sides can read it.
"""
from dataclasses import dataclass

SCORE_LIMIT = 1_000_000      # bound on every point knob, so scores fit the int32 result columns
NO_LIMIT = 1 << 30           # kernel int of ``none`` for an int-or-none knob (no limit)
MELD_TABLE_ROWS = 6          # initial_meld_table holds at most this many rows
CLASSIC_MELD_TABLE = ((None, 15), (0, 50), (1500, 90), (3000, 120))  # (lower bound, minimum)

# Knob types.  The value a RuleSet holds, and the int the kernels get for it:
BOOL = "bool"                # True / False; 1 / 0
INT = "int"                  # an int in lo..hi, or one of ``values``; the int itself
INT_OR_NONE = "int_or_none"  # None or an int in lo..hi; None is NO_LIMIT
ENUM = "enum"                # one of ``values``; its position in ``values``
MELD_TABLE = "meld_table"    # lo..hi rows (lower bound or None for -inf, minimum); see below
INT_LIST = "int_list"        # ``length`` ints, each in lo..hi, written ``a;b;c``; family knobs

POINTS = {"lo": -SCORE_LIMIT, "hi": SCORE_LIMIT}   # the range of a point knob


@dataclass(frozen=True)
class Knob:
    """One rule knob: a row of :data:`KNOB_TABLE`.

    ``name`` is the knob's name everywhere (RuleSet field, RulesNb field, canonical strings).
    ``type`` is one of BOOL, INT, INT_OR_NONE, ENUM, MELD_TABLE; ``default`` is its classic
    value as a RuleSet holds it; ``meaning`` one line without the rule IDs, which are
    ``rule_ids`` (docs/rules.md); ``sources`` which rule books use which values (source tags:
    docs/rules.md, Sources).  The range: ``lo``..``hi`` for INT and INT_OR_NONE (the row count
    for MELD_TABLE), or ``values``: the accepted ints of an INT knob that takes only some, or the
    names of an ENUM knob in code order.  ``enum`` names the constant of an ENUM knob's codes in
    the kernels (``Ask`` gives ``Ask.OPTIONAL``, ``Ask.NEVER``, ...: each value's name in capitals).
    ``supported`` lists the values the engine can play when that is not every accepted value.
    ``kernel`` lists the knob's RulesNb fields when they are not one int named as the knob.
    ``length`` is the number of ints of an INT_LIST knob.
    """

    name: str
    type: str
    default: object
    meaning: str
    rule_ids: tuple
    sources: str
    lo: int = 0
    hi: int = 0
    values: tuple = ()
    enum: str = ""
    supported: tuple | None = None
    kernel: tuple | None = None
    length: int = 0

    @property
    def kernel_fields(self) -> tuple:
        """The names of the knob's fields in RulesNb, in order (none: the kernels never see it)."""
        return (self.name,) if self.kernel is None else self.kernel


# initial_meld_table reaches the kernels as its row count and two columns padded to
# MELD_TABLE_ROWS: the lower bounds and the minimums (R27).
MELD_TABLE_FIELDS = (("meld_rows",) + tuple(f"meld_lo{row}" for row in range(MELD_TABLE_ROWS))
                     + tuple(f"meld_min{row}" for row in range(MELD_TABLE_ROWS)))

KNOB_TABLE = (
    Knob("num_players", INT, 4,
         meaning="number of players at the table", rule_ids=(),
         sources="4 in every classic source; 2 and 3 in two- and three-hand games (BIC, WIKI, "
                 "RG); 6 (RG)",
         values=(2, 3, 4, 6)),
    Knob("team_layout", ENUM, "2x2",
         meaning="how the players form sides: 2x2 partnerships, solo players, two sides of three "
                 "(2x3) or three sides of two (3x2)", rule_ids=(),
         sources="2x2 classic; solo for 2 and 3 players; 2x3 and 3x2 for six (RG); cutthroat3, "
                 "three players whose sides form mid-deal (BIC, RG; docs/cutthroat.md)",
         values=("2x2", "solo", "2x3", "3x2", "cutthroat3"),
         kernel=("num_sides", "cutthroat")),
    Knob("num_packs", INT, 2,
         meaning="52-card packs in the deck", rule_ids=(),
         sources="2 classic; 3 for six players (RG)",
         values=(2, 3)),
    Knob("num_jokers", INT, 4,
         meaning="jokers in the deck", rule_ids=(),
         sources="4 classic; 6 for six players (RG)",
         values=(4, 6)),
    Knob("hand_size", INT, 11,
         meaning="cards dealt to each player", rule_ids=("R6",),
         sources="11 classic; 15 for two players (BIC, WIKI, PAG); 13 for three (RG, WIKI) and "
                 "six (RG)",
         lo=1, hi=80),
    Knob("draw_count", INT, 1,
         meaning="cards drawn from the stock in a draw; one is discarded", rule_ids=("R12",),
         sources="1 classic; 2 for two players (BIC, WIKI)",
         values=(1, 2)),
    Knob("canastas_to_go_out", INT, 1,
         meaning="canastas a side needs before one of its players may go out",
         rule_ids=("R40",),
         sources="1 classic; 2 for two players (BIC) and six (RG)",
         values=(1, 2)),
    Knob("game_target", INT, 5000,
         meaning="cumulative score that ends the game after a deal", rule_ids=("R59",),
         sources="5000 classic; 10000 for six in two sides, 7500 in three sides (RG)",
         lo=1, hi=10 * SCORE_LIMIT),
    Knob("initial_meld_table", MELD_TABLE, CLASSIC_MELD_TABLE,
         meaning="minimum count of a side's first meld by its cumulative score: rows "
                 "lower-bound:minimum", rule_ids=("R27",),
         sources="-inf:15;0:50;1500:90;3000:120 in every classic source; six players to 10000 "
                 "add 7500:150 (RG)",
         lo=1, hi=MELD_TABLE_ROWS, kernel=MELD_TABLE_FIELDS),
    Knob("min_naturals_per_meld", INT, 2,
         meaning="natural cards every meld must hold", rule_ids=("R18",),
         sources="2 in every source",
         lo=1, hi=7),
    Knob("max_wilds_per_meld", INT_OR_NONE, 3,
         meaning="most wild cards in one meld, or none for no limit", rule_ids=("R18",),
         sources="3 (FREY49, PAG, BIC, sources A and B)",
         lo=0, hi=18),
    Knob("wild_ratio_rule", ENUM, "none",
         meaning="extra limit on wild cards against naturals in a meld: none, le (wilds <= "
                 "naturals), lt (fewer wilds than naturals), half (naturals >= 2 x wilds)",
         rule_ids=("R18",),
         sources="none (FREY49, PAG); le source B; lt PEN; half source A's literal wording",
         values=("none", "le", "lt", "half"), enum="WildRatio"),
    Knob("upcard_cover_set", ENUM, "wild_any3",
         meaning="upcards covered by the next stock card: wild_any3 (wild cards and any three) "
                 "or wild_red3 (wild cards and red threes)", rule_ids=("R7",),
         sources="wild_any3 (sources A and B, BIC); wild_red3 (PAG, WIKI)",
         values=("wild_any3", "wild_red3"), enum="CoverSet"),
    Knob("upcard_red3_freezes", BOOL, True,
         meaning="a red three turned as an upcard freezes the pile", rule_ids=("R8", "R32"),
         sources="true (PAG, source A); false (source B)"),
    Knob("black_three_freezes", BOOL, False,
         meaning="a black three on the pile freezes it like a wild card", rule_ids=("R32",),
         sources="false (PAG, SE); true (source A, BIC)"),
    Knob("unmelded_pile_access", ENUM, "natural_pair_with_min_count",
         meaning="how a side that has not melded may take the pile: with a natural pair and "
                 "the minimum count, or not at all", rule_ids=("R35",),
         sources="natural_pair_with_min_count (PAG, BIC); forbidden (source A's first "
                 "statement)",
         values=("natural_pair_with_min_count", "forbidden"), enum="UnmeldedAccess"),
    Knob("top_card_counts_for_minimum", BOOL, True,
         meaning="the top card of a taken pile counts towards the initial-meld minimum",
         rule_ids=("R28",),
         sources="true (PAG, source A); false in Modern American"),
    Knob("unfrozen_take_natural_plus_wild", BOOL, True,
         meaning="an open pile may be taken with one natural card and one wild card",
         rule_ids=("R34",),
         sources="true (source A, PAG, BIC); some house rules say false"),
    Knob("unfrozen_take_by_layoff", BOOL, True,
         meaning="an open pile may be taken by adding its top card to a meld the side has",
         rule_ids=("R34",),
         sources="true (source A, PAG, BIC)"),
    Knob("one_card_pile_restriction", BOOL, True,
         meaning="a player holding one card may not take a pile of one card", rule_ids=("R37",),
         sources="true (source A, BRIT, BIC)"),
    Knob("red3_bonus_each", INT, 100,
         meaning="points per red three", rule_ids=("R52",),
         sources="100 in every source",
         **POINTS),
    Knob("red3_all_four_total", INT, 800,
         meaning="points for all four red threes of a two-pack deck", rule_ids=("R52",),
         sources="800 in every source",
         **POINTS),
    Knob("red3_negative_if_unmelded", BOOL, True,
         meaning="a side that never melded scores its red threes minus", rule_ids=("R57",),
         sources="true (PAG, BRIT, source A)"),
    Knob("red3_positive_requires", ENUM, "any_meld",
         meaning="what a side needs for its red threes to count plus: any_meld or a canasta",
         rule_ids=("R52", "R57"),
         sources="any_meld classic; canasta in the Viennese style (cited by PAG)",
         values=("any_meld", "canasta"), enum="Red3Requires"),
    Knob("natural_canasta_bonus", INT, 500,
         meaning="points per natural canasta", rule_ids=("R51",),
         sources="500 in every source",
         **POINTS),
    Knob("mixed_canasta_bonus", INT, 300,
         meaning="points per mixed canasta", rule_ids=("R51",),
         sources="300 in every source",
         **POINTS),
    Knob("going_out_bonus", INT, 100,
         meaning="points for going out", rule_ids=("R53",),
         sources="100 (PAG, BRIT, source A)",
         **POINTS),
    Knob("concealed_going_out_bonus", INT, 200,
         meaning="points for going out concealed, instead of the going-out bonus",
         rule_ids=("R53",),
         sources="200 (PAG, BRIT, source A)",
         **POINTS),
    Knob("concealed_canasta_bonus", INT, 0,
         meaning="extra points per canasta made and completed in one turn from the hand",
         rule_ids=(),
         sources="0 classic; 100 source B",
         **POINTS),
    Knob("concealed_exempt_from_min_count", BOOL, True,
         meaning="a player going out concealed need not reach the initial-meld minimum",
         rule_ids=("R30",),
         sources="true (PAG, SE); false (source A)"),
    Knob("concealed_allows_pile_take", BOOL, True,
         meaning="a concealed going-out may begin with a pile take", rule_ids=("R44",),
         sources="true (PAG; source B's concealed canasta may use the top card)"),
    Knob("concealed_allows_final_discard", BOOL, True,
         meaning="a concealed going-out may end with a discard", rule_ids=("R44",),
         sources="true (BRIT: with or without a discard)"),
    Knob("ask_permission", ENUM, "optional",
         meaning="asking the partner before going out: optional, never or required",
         rule_ids=("R42",),
         sources="optional (BRIT, BIC, PAG)",
         values=("optional", "never", "required"), enum="Ask"),
    Knob("last_card_red3_may_meld", BOOL, False,
         meaning="a player whose last stock card is a red three may still meld (never discard)",
         rule_ids=("R47",),
         sources="false (PAG, SE, BIC); true (BRIT)"),
    Knob("empty_stock_forced_take", BOOL, True,
         meaning="once the stock is gone a player must take an open pile whose top card fits a "
                 "meld of his side", rule_ids=("R49",),
         sources="true (PAG, BIC, BRIT)"),
    Knob("black_three_going_out_meld", BOOL, True,
         meaning="a player going out may meld three or four black threes", rule_ids=("R25",),
         sources="true (BRIT, sources A and B)"),
    Knob("black3_card_value", INT, 5,
         meaning="card value of a black three", rule_ids=("R4", "R54", "R55"),
         sources="5 classic; some house games charge 100 for one left in hand",
         **POINTS),
    Knob("wild_canasta_bonus", INT_OR_NONE, None,
         meaning="bonus for a canasta of wild cards; none means no such canasta; other values "
                 "are not supported", rule_ids=("R18",),
         sources="none classic; 2000 and more in South American and Modern American variants",
         lo=0, hi=SCORE_LIMIT, supported=(None,), kernel=()),
    Knob("tie_policy", ENUM, "extra_deal",
         meaning="an exact tie at or above the target: play another deal or call a draw",
         rule_ids=("R60",),
         sources="extra_deal (the engine's reading: the sources are silent); draw",
         values=("extra_deal", "draw"), enum="Tie"),
    Knob("red3_replacement_timing", ENUM, "after_deal",
         meaning="when dealt red threes are laid and replaced: right after the deal or in each "
                 "player's first turn", rule_ids=("R9",),
         sources="after_deal classic; first_turn changes only when the cards are seen, never "
                 "the odds",
         values=("after_deal", "first_turn"), enum="Red3Timing"),
    Knob("draw2_last_red3", ENUM, "r47",
         meaning="a red three among the last stock cards of a draw of two: r47 ends the deal; "
                 "one_card_draw lays it unreplaced and the other card is the draw",
         rule_ids=("R47", "C3a"),
         sources="r47 (the engine's reading of R47); one_card_draw (PAG's two-player rule)",
         values=("r47", "one_card_draw"), enum="LastRed3"),
    Knob("cutthroat_stock_end", ENUM, "after_last_discard",
         meaning="cutthroat3 only: the deal ends after the turn of the player who drew the last "
                 "stock card, or play goes on after the stock as in classic",
         rule_ids=("C16",),
         sources="after_last_discard (BIC, RG); classic_r49 (LR, PAG second-hand)",
         values=("after_last_discard", "classic_r49"), enum="StockEnd"),
    Knob("cutthroat_same_rank_melds", ENUM, "separate",
         meaning="cutthroat3 only: two partners' melds of one rank at formation stay separate, "
                 "or merge where the result is a legal meld",
         rule_ids=("C7",),
         sources="separate (no source; PAG-based implementer); merge",
         values=("separate", "merge"), enum="SameRank"),
    Knob("cutthroat_partner_share", ENUM, "full",
         meaning="cutthroat3 only: each partner scores the whole partnership total, or half of "
                 "it rounded down to a multiple of 5",
         rule_ids=("C13",),
         sources="full (BIC, RG, LR); half (house rules)",
         values=("full", "half"), enum="Share"),
)
CUTTHROAT_KNOBS = ("cutthroat_stock_end", "cutthroat_same_rank_melds", "cutthroat_partner_share")

# Modern American Canasta (docs/american.md): the ``family`` knob and the family's own knobs.
# Classic's kernels never see them (``kernel=()``): the family's pieces read them from their own
# record, kernels/game/american/rules_nb.py.  ``family`` is supported for play only as classic
# until the family plays whole deals, so RuleSet.to_kernel() refuses modern_american.
_MAC = "modern_american only: "
AMERICAN_TABLE = (
    Knob("family", ENUM, "classic",
         meaning="the rule family: classic Canasta, or Modern American Canasta (docs/american.md)",
         rule_ids=(),
         sources="classic (every classic source); modern_american (the league's rules, pagat)",
         values=("classic", "modern_american"), enum="Family", supported=("classic",),
         kernel=()),
    Knob("mac_initial_meld_needs", ENUM, "clean_triple",
         meaning=_MAC + "what a side's initial meld must include: a clean triple, or a clean "
                 "triple or a wild meld", rule_ids=("A25",),
         sources="clean_triple (the league); clean_or_wild (pagat)",
         values=("clean_triple", "clean_or_wild"), enum="MacNeeds", kernel=()),
    Knob("mac_take_pair_counts", BOOL, True,
         meaning=_MAC + "the natural pair of an opening pile take counts toward the minimum",
         rule_ids=("A25",),
         sources="true (the league: only the top card does not count); false (pagat)",
         kernel=()),
    Knob("mac_splash", BOOL, False,
         meaning=_MAC + "a complete canasta laid from the hand may open without the minimum",
         rule_ids=("A28",), sources="false (the league is silent); true (pagat)", kernel=()),
    Knob("mac_rule_of_five", BOOL, True,
         meaning=_MAC + "after the opening turn a wild card joins only a meld of 5 naturals",
         rule_ids=("A20",),
         sources="true (the league, teaching sites, pagat); false (older groups, pagat)",
         kernel=()),
    Knob("mac_max_wilds_per_meld", INT, 2,
         meaning=_MAC + "most wild cards in a meld of a natural rank", rule_ids=("A19",),
         sources="2 (the league)", lo=0, hi=7, kernel=()),
    Knob("mac_max_meld_size", INT, 7,
         meaning=_MAC + "most cards in a meld; a meld of this size is a closed canasta",
         rule_ids=("A19",), sources="7 (the league, pagat); other sizes are not supported (A22)",
         values=(7,), kernel=()),
    Knob("mac_allow_oversize_when_going_out", BOOL, False,
         meaning=_MAC + "a player going out may pass the largest meld size",
         rule_ids=("A19", "A39"), sources="false (the league, pagat); true (a house value)",
         kernel=()),
    Knob("mac_dead_rank_scope", ENUM, "both",
         meaning=_MAC + "a rank with a completed canasta is dead for both sides, or only for "
                 "the side that completed it", rule_ids=("A22",),
         sources="both (the league, pagat); own (a study value, no rule book)",
         values=("both", "own"), enum="DeadScope", kernel=()),
    Knob("mac_talon_source", ENUM, "stock",
         meaning=_MAC + "talons come from the top of the stock, or are set aside at the deal",
         rule_ids=("A5", "A33"),
         sources="stock (pagat, app and club rules); set_aside (program rule tables)",
         values=("stock", "set_aside"), enum="TalonSource", kernel=()),
    Knob("mac_talon_sizes", INT_LIST, (4, 3),
         meaning=_MAC + "talon size when the other side has not melded; when it has",
         rule_ids=("A32",), sources="4;3 (the league, pagat, app and club rules)",
         lo=0, hi=13, length=2, kernel=()),
    Knob("mac_threes_timing", ENUM, "first_turn",
         meaning=_MAC + "dealt threes are laid in each owner's first turn, or all after the deal",
         rule_ids=("A9",),
         sources="first_turn (teaching sites); after_deal changes only when they are seen",
         values=("first_turn", "after_deal"), enum="ThreesTiming", kernel=()),
    Knob("mac_three_scores", INT_LIST, (100, 300, 500, 1000),
         meaning=_MAC + "points for 1, 2, 3, 4 threes of one colour", rule_ids=("A47",),
         sources="100;300;500;1000 (the league, pagat)",
         length=4, kernel=(), **POINTS),
    Knob("mac_canasta_bonuses", INT_LIST, (500, 300, 2500, 2500, 2000, 2500, 3000),
         meaning=_MAC + "canasta bonuses: clean, dirty, clean aces, sevens, wild, wild with "
                 "four jokers, seven 2s", rule_ids=("A45",),
         sources="500;300;2500;2500;2000;2500;3000 (the league, pagat)",
         length=7, kernel=(), **POINTS),
    Knob("mac_incomplete_penalties", INT_LIST, (2500, 2500, 2000),
         meaning=_MAC + "penalties for an incomplete clean ace, sevens and wild meld",
         rule_ids=("A46",), sources="2500;2500;2000 (the league)",
         length=3, kernel=(), **POINTS),
    Knob("mac_wild_meld_penalty_four_jokers", INT, 2000,
         meaning=_MAC + "penalty for an incomplete wild meld holding all four jokers",
         rule_ids=("A46",), sources="2000 (the league); 2500 (pagat)", kernel=(), **POINTS),
    Knob("mac_hand_triple_penalty", INT, 1500,
         meaning=_MAC + "penalty per player holding three or more aces, and per player holding "
                 "three or more sevens, at the end", rule_ids=("A48",),
         sources="1500 (the league, pagat)", kernel=(), **POINTS),
    Knob("mac_special_hands", ENUM, "cla",
         meaning=_MAC + "which special hands a player may lay: the league's eleven, pagat's "
                 "four, or none", rule_ids=("A51",),
         sources="cla (the league); pagat (pagat); none",
         values=("cla", "pagat", "none"), enum="Specials", kernel=()),
    Knob("mac_ask_limit", ENUM, "once_per_player",
         meaning=_MAC + "asking the partner to go out: once per deal per player, or per side",
         rule_ids=("A41",), sources="once_per_player (pagat's wording); once_per_side",
         values=("once_per_player", "once_per_side"), enum="AskLimit", kernel=()),
)
KNOB_TABLE = KNOB_TABLE + AMERICAN_TABLE
AMERICAN_KNOBS = tuple(row.name for row in AMERICAN_TABLE[1:])
"""The family's own knobs (not ``family``): refused with family=classic."""

# Classic knobs with the one value Modern American plays (refused with another value), and the
# classic knobs that do not apply to it (refused unless at their classic value); docs/american.md.
AMERICAN_FIXED = {"num_players": 4, "team_layout": "2x2", "num_packs": 2, "num_jokers": 4,
                  "draw_count": 1, "min_naturals_per_meld": 2,
                  "unfrozen_take_natural_plus_wild": False, "unfrozen_take_by_layoff": False,
                  "empty_stock_forced_take": False, "concealed_canasta_bonus": 0,
                  "black_three_going_out_meld": False}
AMERICAN_NOT_APPLICABLE = ("upcard_cover_set", "upcard_red3_freezes", "black_three_freezes",
                           "unmelded_pile_access", "one_card_pile_restriction",
                           "red3_bonus_each", "red3_all_four_total",
                           "red3_negative_if_unmelded", "red3_positive_requires",
                           "concealed_exempt_from_min_count", "concealed_allows_pile_take",
                           "concealed_allows_final_discard", "last_card_red3_may_meld",
                           "wild_ratio_rule", "wild_canasta_bonus", "red3_replacement_timing",
                           "draw2_last_red3", "max_wilds_per_meld", "natural_canasta_bonus",
                           "mixed_canasta_bonus")
AMERICAN_MELD_TABLE = ((None, 125), (3000, 155), (5000, 180))   # A24
