"""The discard pile: RULES.md R7, R8, R14, R31-R38, worked examples T22-T30.

``Position.take_options(seat)`` lists the legal takes as (naturals, deuces, jokers) from the
hand that join the top card; an empty list means the pile cannot be taken.
"""
import naive
import pytest
from canasta_sim.kernels.game import deal, slots
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rules_helpers import (
    DEAL_OVER,
    POOL,
    frozen,
    hand_size,
    pile_of,
    random_turns,
    red3_of,
    side0,
    side_melds,
    stock_left,
    take,
    turn_upcard,
)
from rules_replay import by_rule, replayed
from scenario import Position

# ---- T22-T23 ----------------------------------------------------------------------------------------

def test_T22_natural_plus_wild_takes_an_unfrozen_pile_only():
    p = side0().hand(0, "8 Jk 9 7").pile("6 8")
    assert (1, 0, 1) in p.take_options(0)                               # R34(b)
    p = side0().hand(0, "8 Jk 9 7").pile("2 6 8")
    assert frozen(p)                                                    # R32: a 2 inside
    assert p.take_options(0) == []                                      # R33


def test_T23_layoff_take_on_an_unfrozen_pile():
    p = side0(**{"8": "8 8 8"}).hand(0, "9 7 5").pile("6 8")
    assert (0, 0, 0) in p.take_options(0)                               # R34(c)
    p = side0(**{"8": "8 8 8"}).hand(0, "9 7 5").pile("2 6 8")
    assert p.take_options(0) == []                                      # R33 frozen
    p = side0(**{"8": "8 8 8"}).hand(0, "8 8 9 7").pile("2 6 8")
    assert (2, 0, 0) in p.take_options(0)                               # R33 natural pair
    assert take(p, 0, 2)
    assert p.meld_of(0, "8") == (6, 0, 0)                               # R33: the three 8s join


@pytest.mark.parametrize("knob,melds,hand,take", [
    ("unfrozen_take_natural_plus_wild", {"5": "5 5 5"}, "8 Jk 9 7", (1, 0, 1)),
    ("unfrozen_take_by_layoff", {"8": "8 8 8"}, "9 7 5", (0, 0, 0)),
])
def test_R34_take_knobs(knob, melds, hand, take):
    assert take in side0(**melds).hand(0, hand).pile("6 8").take_options(0)     # R34
    p = side0(f"classic({knob}=false)", **melds).hand(0, hand).pile("6 8")
    assert take not in p.take_options(0)                                # R34 knob


# ---- T24-T25: what stops and what freezes ------------------------------------------------------------

def test_T24_black_three_on_top_stops_everyone():
    p = side0(**{"7": "7 7 7"}).pile("6 3s")
    for seat, hand in enumerate(["3s 3c 7 7", "3s 3s 9", "7 7 Jk", "3c 3c 3s"]):
        p.hand(seat, hand)
        assert p.take_options(seat) == []                               # R31


def test_T24_covered_black_three_has_no_effect_by_default():
    p = side0(**{"7": "7 7 7"}).hand(0, "7 Jk 9 5").pile("3s 7")
    assert not frozen(p)                                                # D4 default
    assert (1, 0, 1) in p.take_options(0) and (0, 0, 0) in p.take_options(0)   # R34


def test_T24_black_three_freezes_knob():
    p = side0("classic(black_three_freezes=true)", **{"7": "7 7 7"}).hand(0, "7 Jk 9 5")
    p.pile("3s 7")
    assert frozen(p)                                                    # R32 knob
    assert p.take_options(0) == []                                      # R33
    p.hand(0, "7 7 9 5")
    assert p.take_options(0) == [(2, 0, 0)]                             # R33 natural pair


def test_T25_discarded_deuce_stops_then_freezes():
    p = side0(**{"9": "9 9 9"}).hand(0, "9 9 2 5").pile("6 2")
    assert frozen(p) and p.take_options(0) == []                        # R31, R32
    p = side0().hand(0, "9 Jk 5 6").pile("6 2 9")
    assert p.take_options(0) == []                                      # R33
    p = side0().hand(0, "9 9 5").pile("6 2 9")
    assert p.take_options(0) == [(2, 0, 0)]                             # R33


def test_R17_a_discarded_wild_card_freezes_the_pile():
    p = side0().hand(0, "Jk").stock("2 9 9")
    p.play_turn(0)                                                      # must discard a wild card
    assert pile_of(p)[-1] in ("2", "JK")
    assert frozen(p)                                                    # R17, R32


def test_R31_only_a_natural_top_card_can_be_taken():
    for top in ("2", "JK", "3s"):
        p = side0(**{"9": "9 9 9"}).hand(0, "9 9 2 Jk 3s 3s").pile(f"9 {top}")
        assert p.take_options(0) == []                                  # R31
    p = side0(**{"9": "9 9 9"}).hand(0, "9 9 2 Jk 3s 3s").pile("5 9")
    assert p.take_options(0)


def test_R32_pile_is_frozen_for_an_unmelded_side():
    p = Position().hand(0, "8 Jk 9 7").pile("6 8").meld(1, "K", "K K K")
    assert not frozen(p)
    assert p.take_options(0) == []                                      # R32 unmelded: pair
    p.hand(1, "8 Jk 9 7")
    assert (1, 0, 1) in p.take_options(1)                               # melded side may


def test_R32_unmelded_access_forbidden_knob():
    p = Position("classic(unmelded_pile_access=forbidden)").hand(0, "A A A A 9").pile("6 A")
    assert p.take_options(0) == []                                      # D7 knob
    p = Position().hand(0, "A A A A 9").pile("6 A")
    assert (2, 0, 0) in p.take_options(0)                               # D7 default


# ---- T26-T27: one-card rule and a take that empties the hand -------------------------------------

def test_T26_one_card_rule():
    """T26 with a canasta on the table: without one, R16 alone would already forbid the
    take (it empties the hand), so R37 must be the only rule against it here."""
    melds = {"9": "9 9 9", "K": "K K K K K K K"}
    p = side0(**melds).hand(0, "9").pile("9")
    assert p.take_options(0) == []                                      # R37
    for _, q in random_turns(lambda: side0(**melds).hand(0, "9").pile("9")):
        assert stock_left(q) == 19 and pile_of(q)[:1] == ["9"]          # R37: every turn drew
    p = side0("classic(one_card_pile_restriction=false)", **melds).hand(0, "9").pile("9")
    assert p.take_options(0) != []                  # the same take is legal but for R37
    p = side0(**melds).hand(0, "9").pile("5 9")
    assert (0, 0, 0) in p.take_options(0)                               # two cards: allowed
    p = side0(**{"9": "9 9 9"}).hand(0, "9").pile("5 9")
    assert p.take_options(0) == [(0, 0, 0)]                             # also with no canasta


def test_R37_knob_off():
    p = side0("classic(one_card_pile_restriction=false)",
               **{"9": "9 9 9", "K": "K K K K K K K"}).hand(0, "9").pile("9")
    assert p.take_options(0)                                            # knob off
    p = side0(**{"9": "9 9 9", "K": "K K K K K K K"}).hand(0, "9").pile("9")
    assert p.take_options(0) == []                                      # R37


def test_T27_take_that_completes_a_canasta_goes_out():
    p = side0(**{"K": "K K K K K K"}).hand(0, "K K").pile("K")
    assert (2, 0, 0) in p.take_options(0)                               # R16 ok: canasta made
    outs = 0
    for result, q in random_turns(lambda: side0(**{"K": "K K K K K K"}).hand(0, "K K")
                                  .pile("K")):
        if q.meld_of(0, "K") == (9, 0, 0):
            assert result == 1 and hand_size(q, 0) == 0                 # DEAL_OVER (R39)
            assert q.st[slots.ST_OUT_SEAT] == 0 and q.st[slots.ST_END_REASON] == 0
            assert q.score()[0]["out_bonus"] == 100                     # not concealed (R44 iii)
            outs += 1
    assert outs > 0
    p = side0().hand(0, "K K").pile("K")
    assert p.take_options(0) == []                                      # R16: no canasta


# ---- T28-T30: upcards and red threes -----------------------------------------------------------------

def test_T28_upcard_sequence_and_red_three_in_the_taken_pile():
    p = Position().stock("2 3h 7 9 9")
    assert turn_upcard(p) == ["2", "3r", "7"]                           # R7
    assert frozen(p)                                                    # R8
    p.hand(0, "7 7 K K K 9 5 6")
    assert p.take_options(0) == []                                      # 15 + 30 = 45 < 50
    p.hand(0, "7 7 A A A 9 5 6")
    assert p.take_options(0) == [(2, 0, 0)]                             # 15 + 60 = 75
    before = stock_left(p)
    assert take(p, 0, 2)                    # 7-7-7, then A-A-A is the only way to 50
    assert red3_of(p, 0) == 1                                           # R14: to the table
    assert stock_left(p) == before                                      # R14: no replacement
    assert p.hand_of(0) == {"2": 1, "9": 1, "5": 1, "6": 1}             # R36: 2c into the hand
    assert side_melds(p, 0) == {"7": (3, 0, 0), "A": (3, 0, 0)}
    assert pile_of(p) == [] and not frozen(p)                           # R36: pile emptied


def test_R8_red_three_upcard_freeze_knob():
    p = Position().stock("3h 9 5")
    assert turn_upcard(p) == ["3r", "9"] and frozen(p)                  # R7, R8
    p = Position("classic(upcard_red3_freezes=false)").stock("3h 9 5")
    assert turn_upcard(p) == ["3r", "9"] and not frozen(p)              # R8 knob (source B)


def test_R7_every_cover_card_is_covered():
    p = Position().stock("Jk 2 3s 3h 2 9 5")
    assert turn_upcard(p) == ["JK", "2", "3b", "3r", "2", "9"]          # R7
    p = Position().stock("9 Jk 5")
    assert turn_upcard(p) == ["9"] and not frozen(p)                    # R7, R8


def test_T29_black_three_upcard():
    p = Position().stock("3s 9 5")
    assert turn_upcard(p) == ["3b", "9"] and not frozen(p)              # R7 default, D4
    p = Position("classic(upcard_cover_set=wild_red3)").stock("3s 9 5")
    assert turn_upcard(p) == ["3b"] and not frozen(p)                   # R7 wild_red3
    p.hand(0, "3s 3s 9 9").meld(0, "5", "5 5 5")
    assert p.take_options(0) == []                                      # R31
    for rules in ("classic(black_three_freezes=true)",
                  "classic(upcard_cover_set=wild_red3,black_three_freezes=true)"):
        p = Position(rules).stock("3s 9 5")
        turn_upcard(p)
        assert frozen(p)                                                # D4 knob


def test_T30_dealt_red_threes_are_replaced_repeatedly():
    p = Position().hand(0, "3h 3d K K Q 9 8 7 6 5 4").stock("3h 9 5 8")
    deal.place_red3s_nb(p.S, p.buf, 0, 0)
    assert red3_of(p, 0) == 3                                           # R9
    assert hand_size(p, 0) == 11 and p.hand_of(0)["3r"] == 0            # R9
    assert stock_left(p) == 1                                           # three replacements


# ---- R36, R38 in real deals ----------------------------------------------------------------------------

def test_R36_taken_piles_join_the_hand():
    """Replay: every take took the whole pile as it lay; the rest joined the hand (R36),
    red threes in it went to the table unreplaced (R14)."""
    for policies in ("random", "greedy"):
        violations, facts = replayed("classic", policies)
        assert by_rule(violations, "R36", "R14") == []                  # R36, R14
        assert facts["takes"] > 1000
    assert replayed("classic", "random")[1]["red3_pile"] > 0


def test_R38_taking_is_optional():
    """``random`` players sometimes draw although a take (a layoff on an unfrozen pile) was
    certainly legal: the engine offers drawing beside taking (R38)."""
    violations, facts = replayed("classic", "random")
    assert facts["declined_legal_take"] > 100                           # R38


def test_R31_to_R35_hold_in_real_deals():
    for rules in ("classic", "classic(black_three_freezes=true)",
                  "classic(upcard_cover_set=wild_red3)", "seed-a"):
        for policies in ("random", "greedy"):
            violations, facts = replayed(rules, policies, 5, 0, 200)
            assert by_rule(violations, "R31", "R32", "R33", "R34", "R35", "R37") == []
            assert facts["frozen_takes"] > 0


# ---- the engine against the reference on many random piles -----------------------------------------

@settings(max_examples=800, deadline=None)
@given(hand=st.lists(st.sampled_from(POOL), min_size=1, max_size=7),
       table=st.dictionaries(st.sampled_from(naive.NATURALS),
                             st.tuples(st.integers(2, 8), st.integers(0, 3)), min_size=1,
                             max_size=4),
       below=st.lists(st.sampled_from(POOL + ["3r"]), max_size=4),
       top=st.sampled_from(list(naive.NATURALS) + ["2", "JK", "3b"]),
       ratio=st.sampled_from(["none", "le", "lt", "half"]),
       knobs=st.sampled_from(["", ",unfrozen_take_natural_plus_wild=false",
                              ",unfrozen_take_by_layoff=false",
                              ",one_card_pile_restriction=false"]))
def test_R31_to_R37_take_options_match_reference(hand, table, below, top, ratio, knobs):
    melds = {r: [r] * n + ["2"] * w for r, (n, w) in table.items()
             if naive.meld_counts_ok(n, w, ratio)}
    assume(melds)
    pile = below + [top]
    p = Position(f"classic(wild_ratio_rule={ratio}{knobs})")
    for rank, cards in melds.items():
        p.meld(0, rank, " ".join(cards))
    p.hand(0, " ".join(hand)).pile(" ".join(pile))
    want = naive.take_options(hand, melds, pile, ratio=ratio,
                              natural_plus_wild="natural_plus_wild=false" not in knobs,
                              layoff="layoff=false" not in knobs,
                              one_card_rule="one_card_pile_restriction=false" not in knobs)
    assert set(p.take_options(0)) == want                               # R31-R34, R37, R16


def test_R16_take_leaving_one_card_that_completes_a_canasta():
    """Side 0 has K-K-K and six 9s, no canasta; pile = one K; hand K K 9.  Taking with one K
    (lay-off) or the pair leaves a single 9, which completes the canasta: legal (R16, R40)."""
    p = side0(**{"K": "K K K", "9": "9 9 9 9 9 9"}).hand(0, "K K 9").pile("K")
    assert (2, 0, 0) in p.take_options(0)                               # R16, R33
    assert p.play_turn(0) == DEAL_OVER                                  # goes out
    assert p.hand_of(0) == {} and p.meld_of(0, "9")[0] == 7
