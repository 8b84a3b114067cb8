"""The project's own audit of Modern American traces (canasta_sim/audit_american, issue 30):
hand-built legal deals give no problem, and every rule the audit checks is broken once in a
hand-built deal and caught, named by its rule ID.  Scores follow the worked examples
A-T19..A-T23 of the family's rules (docs/american.md)."""
from collections import Counter

import pytest
from american_trace import SIDES, Deal, cards, rules_of

from canasta_sim.audit_american import audit_american_deal
from canasta_sim.audit_american.cards import best_special, fits_special
from canasta_sim.audit_american.score import side_score
from canasta_sim.rules import parse_rules

PLAIN = "4 4 5 5 6 6 8 8 9 9 10 10 Q"
PLAIN3 = "4 5 6 7 7 8 9 10 Q Q J 2 JK"
OPEN_ACES = "A A A A A A K K K K K K 9"   # seat 0: 180 from the hand, a talon, out next turn
FILL = "4 4 6 6 8 8 9 9 10 10 7 7 A"      # no J, Q, K, 5: room for those in seat 0's hand
ACES_KINGS = [("A", "A A A A A A"), ("K", "K K K K K K")]


def quick_out(rules="modern-american", ask=True, go_out=True, talon=4, score=True):
    """Seat 0 opens with six aces and six kings (talon of 4), everyone passes, seat 0
    completes both canastas, melds J-J-J and goes out with its 8."""
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], stock="8 A K J J Q Q Q J", rules=rules)
    d.play(0, ACES_KINGS, "9", talon=talon)
    d.passes((1, 2, 3), "Q")
    d.draw(0)
    if ask is not None:
        d.ask(0, ask)
    d.meld(0, "A", "A")
    d.meld(0, "K", "K")
    d.meld(0, "J", "J J J")
    if go_out:
        d.go_out(0, "8")
        if score:
            d.score()
    return d


def played_out(d, seat):
    """Finish ``d`` with plain turns from ``seat`` and return its problems."""
    d.play_out(seat)
    return d.audit()


def first(d, kind, **match):
    """The first line of ``kind`` whose fields include ``match``."""
    return next(e for e in d.events if e["ev"] == kind and all(e.get(k) == v
                                                               for k, v in match.items()))


# ---- legal deals ---------------------------------------------------------------------------

def test_a_legal_deal_going_out_has_no_problem():
    d = quick_out()
    assert d.audit() == []
    assert d.events[-1]["sides"][0]["total"] == 3000 + 100 + 240 - 100      # A45, A42, A49
    assert d.events[-1]["sides"][1]["total"] == -255


@pytest.mark.parametrize("rules", ["modern-american", "modern-american-pagat",
                                   "modern-american(mac_threes_timing=after_deal)",
                                   "modern-american(mac_special_hands=none)"])
def test_a_legal_deal_to_the_end_of_the_stock_has_no_problem(rules):
    d = Deal(["3r 3b 4 4 5 5 6 6 8 8 9 9 10", "3r 4 5 6 7 7 8 9 10 Q Q J 2",
              "K K K Q Q Q J J J 10 10 10 9", "3b 4 5 6 7 7 8 9 10 Q Q J JK"],
             rules=rules, dealer=0)
    if "after_deal" in rules:
        for seat, three in ((0, "3r"), (0, "3b"), (1, "3r"), (3, "3b")):
            d.lay(seat, three, "deal")
    assert played_out(d, 1) == []
    assert d.events[-2] == {"ev": "end", "reason": "stock"}
    assert any(e["ev"] == "turn_card" for e in d.events)


def test_a_deal_ending_at_an_empty_stock_with_no_take_is_legal():
    order = ("3r", "3b", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "7", "A", "2", "JK")
    d = Deal(["4 4 5 5 6 6 8 8 9 9 10 10 J"] * 2 + ["4 4 5 5 6 6 8 8 9 9 10 10 Q"] * 2,
             order=order)
    assert played_out(d, 0) == []                                                 # A44
    assert d.events[-3]["ev"] == "discard"


def test_a_take_opening_is_legal_and_earns_no_talon():
    d = take_opening()
    assert played_out(d, 1) == []


def take_opening(rules="modern-american", melds=None, talon=False):
    """A-T09: seat 3 discards a K; seat 0 takes with K-K and lays A-A-A and Q-Q-Q-2 from
    the hand (60 + 50 + the pair 20 = 130)."""
    d = Deal(["K K A A A Q Q Q 2 9 8 6 5", PLAIN, PLAIN, "K 4 5 6 7 7 8 9 10 Q J J 2"],
             stock="4", rules=rules, dealer=2)
    d.draw(3)
    d.discard(3, "K")
    d.take(0, *(melds or [("K", "K K K"), ("A", "A A A"), ("Q", "Q Q Q 2")]))
    d.discard(0, "9")
    if talon:
        d.talon(0, 4)
    return d


# ---- card movement and conservation (A2, A13, A9, A15, A29, A33) ---------------------------

@pytest.mark.parametrize("change, rule", [
    (lambda d: first(d, "draw").update(cards=["JK"]), "A13"),
    (lambda d: first(d, "meld").update(cards=["A"] * 7), "A15"),
    (lambda d: first(d, "talon").update(cards=["A", "K", "J", "Q"]), "A33"),
    (lambda d: d.events[0]["hands"][1].__setitem__(0, "K"), "A2"),
    (lambda d: d.events[0]["stock"].pop(), "A2"),
])
def test_a_card_from_the_wrong_place_is_caught(change, rule):
    d = quick_out()
    change(d)
    assert rule in rules_of(d.audit())


def test_a_take_of_another_pile_and_a_wrong_replacement_are_caught():
    d = take_opening()
    first(d, "take")["pile"] = ["K", "K"]
    assert "A29" in rules_of(played_out(d, 1))
    d = Deal(["3r " + PLAIN[2:], PLAIN, PLAIN, PLAIN3])
    d.three(0, "3r")["replacement"] = "JK"
    d.draw(0)
    assert "A9" in rules_of(d.audit())


# ---- turn order and phases (A8, A12) -------------------------------------------------------

def test_turn_order_and_phase_order_are_checked():
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], dealer=3)
    d.draw(1)                                                 # seat 0 plays first (A8)
    assert "A8" in rules_of(d.audit())
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3])
    d.meld(0, "A", "A A A A A A")                             # a meld before the draw
    assert "A12" in rules_of(d.audit())
    d = quick_out()
    d.events.insert(7, d.events.pop(9))                       # seat 2 draws in seat 1's turn
    assert "A8" in rules_of(d.audit())


# ---- threes (A9, A10, A43) -----------------------------------------------------------------

def test_a_dealt_three_must_be_laid_before_the_draw():
    d = Deal(["3r 3b 3b 4 5 5 6 6 8 8 9 9 10", PLAIN, PLAIN, PLAIN3])
    d.three(0, "3r")
    d.draw(0)                                                 # keeps two threes
    assert "A10" in rules_of(d.audit())
    d = Deal(["3r 4 4 5 5 6 6 8 8 9 9 10 J", PLAIN, PLAIN, PLAIN3],
             rules="modern-american(mac_special_hands=none)")
    d.draw(0)                                                 # no Straight: no kept three
    assert "A9" in rules_of(d.audit())
    d = Deal(["3r 4 4 5 5 6 6 8 8 9 9 10 J", PLAIN, PLAIN, PLAIN3])
    d.draw(0)                                                 # one three kept (A10): legal
    d.discard(0, "J")
    assert rules_of(d.audit()) == {"A4b"}                     # only: no score yet


def test_threes_are_laid_in_their_owners_turn_only():
    d = Deal([PLAIN, "3r " + PLAIN[2:], PLAIN, PLAIN3])
    d.three(1, "3r")                                          # in seat 0's turn
    assert "A9" in rules_of(d.audit())
    d = Deal([PLAIN, "3r 3b" + PLAIN[3:], PLAIN, PLAIN3],
             rules="modern-american(mac_threes_timing=after_deal)")
    d.draw(0)                                                 # seat 1 still holds two
    assert "A10" in rules_of(d.audit())


def test_a_three_kept_at_the_deal_is_laid_when_the_partner_has_opened():
    rules = "modern-american(mac_threes_timing=after_deal)"
    d = Deal(["3r 3b 4 4 5 5 6 6 8 8 9 9 10", PLAIN, OPEN_ACES, PLAIN3], rules=rules,
             stock="4 8 A K J J 5", dealer=0)
    d.lay(0, "3b", "deal")                                     # seat 0 keeps its 3r (A10)
    d.passes((1,), "Q")
    d.play(2, ACES_KINGS, "9", talon=4)                       # seat 2 opens
    d.passes((3,), "Q")
    d.lay(0, "3r", "kept")                                     # laid before its first draw
    assert played_out(d, 0) == []
    d.events[0]["rules"] = "modern-american"
    d.rules = parse_rules("modern-american")
    assert "A10" in rules_of(d.audit())                        # first_turn: laid as dealt


def test_a_kept_three_is_laid_once_the_side_has_melded():
    d = Deal([OPEN_ACES, PLAIN, "3r " + PLAIN[2:], PLAIN3], stock="8 A K J J Q Q")
    d.play(0, ACES_KINGS, "9", talon=4)
    d.draw(1)
    d.discard(1, "Q")
    d.draw(2)                                                 # its side has melded
    assert "A10" in rules_of(d.audit())


def test_a_drawn_three_is_laid_at_once():
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], stock="3r",
             rules="modern-american(mac_special_hands=none)")
    d.draw(0)
    d.discard(0, "9")
    assert "A9" in rules_of(d.audit())
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], stock="3r 8")
    d.draw(0)
    d.meld(0, "A", "A A A A A A")
    d.three(0, "3r", "stock")                                 # after a meld: too late
    assert "A9" in rules_of(d.audit())


def test_a_three_meeting_an_empty_stock_ends_the_deal():
    d = Deal([PLAIN, PLAIN, PLAIN, PLAIN3])
    d.play_out(0)
    assert d.audit() == []
    assert d.events[-3]["replacement"] is None                # A43: the three stays in hand
    end = d.events.index({"ev": "end", "reason": "stock"})
    d.events.insert(end, {"ev": "discard", "seat": d.events[end - 1]["seat"], "card": "4",
                          "empty_pile": False})
    assert "A43" in rules_of(d.audit())
    d = Deal([PLAIN, PLAIN, PLAIN, PLAIN3], stock="3r")
    d.draw(0)
    d.events.append({"ev": "three", "seat": 0, "card": "3r", "from": "stock",
                     "replacement": None})                    # the stock is not empty
    assert "A9" in rules_of(d.audit())


# ---- melds (A11, A19-A23) ------------------------------------------------------------------

def opening_turn(hand, draw, melds, discard, rules="modern-american", scores=(0, 0),
                 talon=4):
    """Seat 0 draws ``draw`` and lays ``melds`` (rank, cards) as its opening, then discards
    (and takes its talon)."""
    d = Deal([hand, PLAIN, PLAIN, PLAIN3], stock=draw, rules=rules, scores=scores)
    d.draw(0)
    for rank, text in melds:
        d.meld(0, rank, text)
    d.discard(0, discard)
    if talon:
        d.talon(0, talon)
    return d


@pytest.mark.parametrize("hand, draw, melds, rule", [
    ("K K 2 A A A Q Q 6 8 9 5 4", "J", [("A", "A A A"), ("K", "K K 2"), ("Q", "Q Q")], "A19"),
    ("K K K K K K 2 JK A A A 9 6", "8", [("A", "A A A"), ("K", "K K K K K K 2 JK")], "A19"),
    ("K 2 JK A A A Q Q Q 9 6 5 4", "8", [("A", "A A A"), ("Q", "Q Q Q"), ("K", "K 2 JK")],
     "A19"),
    ("K K K 2 2 JK A A A 9 6 5 4", "8", [("A", "A A A"), ("K", "K K K 2 2 JK")], "A19"),
    ("7 7 7 2 A A A Q Q Q 9 6 5", "8", [("A", "A A A"), ("Q", "Q Q Q"), ("7", "7 7 7 2")],
     "A21"),
    ("K K Q A A A J J J 9 6 5 4", "8", [("A", "A A A"), ("J", "J J J"), ("K", "K K Q")],
     "A19"),
    ("3r 3r 3b A A A Q Q Q 9 6 5 4", "8", [("A", "A A A"), ("Q", "Q Q Q"), ("3r", "3r 3r 3b")],
     "A11"),
    ("2 2 JK K K 2 A A A 9 6 5 4", "8", [("A", "A A A"), ("JK", "2 2 JK"), ("K", "K K 2")],
     "A23"),
    ("2 2 Q A A A K K K 9 6 5 4", "8", [("A", "A A A"), ("K", "K K K"), ("JK", "2 2 Q")],
     "A23"),
])
def test_an_illegal_meld_is_caught(hand, draw, melds, rule):
    assert rule in rules_of(opening_turn(hand, draw, melds, "9").audit())


def test_a_legal_opening_with_dirty_melds_and_a_wild_meld():
    d = opening_turn("K K 2 JK A A A JK Q Q Q 2 9", "8",
                     [("K", "K K 2 JK"), ("A", "A A A JK"), ("Q", "Q Q Q")], "9")
    assert played_out(d, 1) == []
    d = opening_turn("2 2 JK A A A K K K 9 6 5 4", "8",
                     [("A", "A A A"), ("K", "K K K"), ("JK", "2 2 JK")], "9")
    assert played_out(d, 1) == []                                               # A-T05


def test_the_max_wilds_knob_is_honoured():
    hand, melds = "K K K 2 2 A A A 9 6 5 4 Q", [("A", "A A A"), ("K", "K K K 2 2")]
    assert played_out(opening_turn(hand, "8", melds, "9"), 1) == []
    d = opening_turn(hand, "8", melds, "9",
                     rules="modern-american(mac_max_wilds_per_meld=1)")
    assert "A19" in rules_of(played_out(d, 1))


def later_turn(rules="modern-american", melds=(), hand2="Q Q 2 9 9 2 5 5 6 6 8 8 10",
               stock="8 A K J J Q Q Q"):
    """After seat 0's opening (six aces, six kings), seats 1 passes and seat 2 lays
    ``melds`` in its first turn (not the opening turn)."""
    d = Deal([OPEN_ACES, PLAIN, hand2, PLAIN3], stock=stock, rules=rules)
    d.play(0, ACES_KINGS, "9", talon=4)
    d.draw(1)
    d.discard(1, "Q")
    d.draw(2)
    for rank, text in melds:
        d.meld(2, rank, text)
    return d


def test_the_rule_of_five():
    d = later_turn(melds=[("Q", "Q Q 2")])                                      # A-T01
    assert "A20" in rules_of(d.audit())
    d = later_turn("modern-american(mac_rule_of_five=false)", melds=[("Q", "Q Q 2")])
    d.discard(2, "10")
    assert played_out(d, 3) == []
    d = later_turn(melds=[("A", "2")])                 # five aces but clean aces: A21 (A-T04)
    assert "A21" in rules_of(d.audit()) and "A20" not in rules_of(d.audit())


def test_rule_of_five_counts_naturals_laid_in_the_same_step():
    hand2 = "6 6 6 6 6 2 2 5 5 8 8 10 4"
    d = later_turn(melds=[("6", "6 6 6 6"), ("6", "2")], hand2=hand2)          # A-T02
    assert "A20" in rules_of(d.audit())
    d = later_turn(melds=[("6", "6 6 6 6"), ("6", "6 2")], hand2=hand2)       # reading 16
    d.discard(2, "10")
    assert played_out(d, 3) == []


def test_a_dead_rank_is_dead_for_both_sides_or_only_its_own():
    def deal(rules):
        d = Deal(["2 2 2 2 JK JK JK A A A 9 6 5", "2 2 JK K K K Q Q Q J J J 9", PLAIN,
                  "4 5 6 8 8 9 9 10 10 Q J 10 4"], stock="4 8 8 8 8 6", rules=rules)
        d.draw(0)
        d.meld(0, "JK", "2 2 2 2 JK JK JK")           # a wild canasta: the wild rank is dead
        d.meld(0, "A", "A A A")
        d.discard(0, "9")
        d.talon(0, 4)
        d.draw(1)
        for rank, text in (("K", "K K K"), ("Q", "Q Q Q"), ("J", "J J J"), ("JK", "2 2 JK")):
            d.meld(1, rank, text)
        d.discard(1, "9")
        d.talon(1, 3)
        return d
    assert "A22" in rules_of(deal("modern-american").audit())                  # A-T06
    assert played_out(deal("modern-american(mac_dead_rank_scope=own)"), 2) == []


def test_melds_over_seven_cards():
    d = later_turn(melds=[("K", "K K")], stock="8 A 4 J J Q Q Q",
                   hand2="K K 9 9 5 5 6 6 8 8 10 10 4")
    assert "A19" in rules_of(d.audit())                        # the K meld is closed at 7


# ---- the initial meld (A24-A28) ------------------------------------------------------------

def test_the_opening_minimum_and_clean_triple_follow_the_worked_examples():
    hand = "A A A K K K 2 Q Q JK 9 6 5"
    short = [("A", "A A A"), ("K", "K K K 2")]                                 # 110 (A-T08)
    assert "A25" in rules_of(opening_turn(hand, "4", short, "9").audit())
    full = short + [("Q", "Q Q JK")]                                           # 180
    assert played_out(opening_turn(hand, "4", full, "9"), 1) == []
    hand = "K K 2 Q Q JK J J 2 9 6 5 4"
    dirty = [("K", "K K 2"), ("Q", "Q Q JK"), ("J", "J J 2")]                  # no clean triple
    d = opening_turn(hand, "8", dirty, "9")
    assert any("clean triple" in p for p in d.audit())


@pytest.mark.parametrize("score, legal", [(-500, True), (2995, True), (3000, False),
                                          (4995, False), (5000, False)])
def test_the_minimum_follows_the_cumulative_score(score, legal):
    melds = [("A", "A A A"), ("K", "K K K K"), ("Q", "Q Q Q")]                 # 130 (A-T07)
    d = opening_turn("A A A K K K K Q Q Q 9 6 5", "4", melds, "9", scores=(score, 0))
    assert ("A25" not in rules_of(d.audit())) == legal


def test_a_wild_meld_may_stand_in_for_the_clean_triple_under_clean_or_wild():
    hand, melds = "K K 2 2 JK JK A 9 6 5 4 8 8", [("K", "K K 2"), ("JK", "2 JK JK")]
    assert "A25" in rules_of(opening_turn(hand, "Q", melds, "9").audit())
    d = opening_turn(hand, "Q", melds, "9",
                     rules="modern-american(mac_initial_meld_needs=clean_or_wild)")
    assert played_out(d, 1) == []


def test_no_dirty_canasta_in_the_opening_turn():
    dirty = [("A", "A A A"), ("J", "J J J J J 2 JK")]                          # A-T10
    d = opening_turn("J J J J J 2 JK A A A 9 6 5", "4", dirty, "9")
    assert "A25" in rules_of(d.audit())
    clean = [("A", "A A A"), ("J", "J J J J J J J")]
    assert played_out(opening_turn("J J J J J J J A A A 9 6 5", "4", clean, "9"), 1) == []


def test_the_splash():
    hand, melds = "K K K K K K K 9 6 5 4 4 5", [("K", "K K K K K K K")]          # 70 alone
    assert "A25" in rules_of(opening_turn(hand, "8", melds, "9").audit())
    d = opening_turn(hand, "8", melds, "9", rules="modern-american(mac_splash=true)")
    assert played_out(d, 1) == []


def test_the_take_pair_counts_knob():
    assert "A26" in rules_of(played_out(
        take_opening("modern-american(mac_take_pair_counts=false)"), 1))      # A-T09: 110


# ---- the pile (A26, A29, A30) --------------------------------------------------------------

def test_a_take_needs_the_whole_opening_and_a_natural_pair():
    d = take_opening(melds=[("K", "K K K")])
    assert "A26" in rules_of(d.audit())
    d = take_opening(melds=[("K", "K 2 K"), ("A", "A A A"), ("Q", "Q Q Q")])   # A-T15
    assert "A29" in rules_of(d.audit())


def pile_on_nines(nines):
    """Seat 0 opens with ``nines`` nines, A-A-A and Q-Q-Q; seat 1 discards a 9 and seat 2
    takes it with 9-9 (A-T14)."""
    d = Deal([" ".join(["9"] * nines) + " A A A Q Q Q" + " 6 5 4"[:2 * (6 - nines) + 2],
              "9 4 5 5 6 6 8 8 10 10 J J Q", "9 9 5 5 6 6 8 8 10 10 J J 4",
              "4 5 6 7 7 8 10 10 Q Q J 2 JK"],
             stock="4 K K K K 8")
    d.play(0, [("9", " ".join(["9"] * nines)), ("A", "A A A"), ("Q", "Q Q Q")], "6", talon=4)
    d.passes((1,), "9")
    d.take(2, ("9", "9 9 9"))
    d.discard(2, "5")
    return d


def test_a_take_onto_a_meld_of_five_is_caught():
    assert "A30" in rules_of(pile_on_nines(5).audit())
    assert played_out(pile_on_nines(4), 3) == []


def test_a_take_of_an_empty_pile_or_a_wild_top_is_caught():
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3])
    d.take(0, ("A", "A A A"))                                  # the builder's pile is empty
    assert "A30" in rules_of(d.audit())


# ---- discards (A16, A17, A35-A38) ----------------------------------------------------------

def test_discards_onto_an_empty_pile():
    melds = [("A", "A A A"), ("K", "K K K K"), ("Q", "Q Q Q")]
    d = opening_turn("A A A K K K K Q Q Q 7 9 5", "4", melds, "7")            # A-T16
    assert "A36" in rules_of(d.audit())
    d = opening_turn("A A A K K K K Q Q Q 2 9 5", "4", melds, "2")
    assert "A37" in rules_of(d.audit())
    d = opening_turn("A A A K K K K Q Q Q 7 9 5", "4", melds, "9")
    first(d, "discard")["empty_pile"] = False
    assert "A36" in rules_of(d.audit())


def test_a_three_is_never_discarded():
    d = Deal(["3r 4 4 5 5 6 6 8 8 9 9 10 J", PLAIN, PLAIN, PLAIN3])
    d.draw(0)
    d.discard(0, "3r")
    assert "A35" in rules_of(d.audit())


def test_keeping_a_card_and_the_talon_exception():
    # A-T13: thirteen cards melded, the fourteenth discarded, the talon becomes the hand
    melds = [("A", "A A A"), ("K", "K K K K"), ("Q", "Q Q Q"), ("9", "9 9 9")]
    d = opening_turn("A A A K K K K Q Q Q 9 9 9", "5", melds, "5")
    assert played_out(d, 1) == []
    d = opening_turn("A A A K K K K Q Q Q 9 9 9", "5", melds, "5", talon=0,
                     rules="modern-american(mac_talon_sizes=0;0)")
    assert rules_of(d.audit()) == {"A16", "A4b"}               # no talon: a card must stay


def test_a_meld_may_not_leave_only_swad_cards_on_an_empty_pile():
    melds = [("A", "A A A"), ("K", "K K K"), ("Q", "Q Q Q"), ("J", "J J J")]
    d = opening_turn("A A A K K K Q Q Q J J J 7", "7", melds, "7")            # A-T16
    assert "A16" in rules_of(d.audit())
    d = opening_turn("A A A K K K Q Q Q J J J 7", "9", melds, "9")
    assert played_out(d, 1) == []


# ---- going out (A39-A42) -------------------------------------------------------------------

def one_canasta_out(rules):
    """Seat 0 opens (talon A J J J), then completes its aces, lays four jacks and goes out
    with one canasta."""
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], stock="8 A J J J Q Q Q J", rules=rules)
    d.play(0, ACES_KINGS, "9", talon=4)
    d.passes((1, 2, 3), "Q")
    d.draw(0)
    d.meld(0, "A", "A")
    d.meld(0, "J", "J J J J")
    d.go_out(0, "8")
    d.score()
    return d


def test_going_out_needs_the_canastas():
    assert "A40" in rules_of(one_canasta_out("modern-american").audit())
    assert one_canasta_out("modern-american(canastas_to_go_out=1)").audit() == []


def test_an_incomplete_clean_ace_meld_blocks_going_out():
    d = Deal(["K K K K K K Q Q Q Q A A 9", FILL, FILL, FILL], stock="A K Q Q 8 5 5 5 Q")
    d.draw(0)
    d.meld(0, "K", "K K K K K K")
    d.meld(0, "Q", "Q Q Q Q")
    d.meld(0, "A", "A A A")
    d.discard(0, "9")                                          # A17: no card kept
    d.talon(0, 4)
    d.passes((1, 2, 3), "5")
    d.draw(0)
    d.meld(0, "K", "K")
    d.meld(0, "Q", "Q Q Q")
    d.go_out(0, "8")                                           # A-T17
    d.score()
    assert "A40" in rules_of(d.audit())


def move_after(d, line, anchor):
    """Move ``line`` to just after ``anchor``."""
    d.events.remove(line)
    d.events.insert(d.events.index(anchor) + 1, line)


@pytest.mark.parametrize("change, rule", [
    (lambda d: first(d, "ask").update(answer=False), "A41"),
    (lambda d: d.events.insert(d.events.index(first(d, "ask")), dict(first(d, "ask"))), "A41"),
    (lambda d: move_after(d, first(d, "ask"), first(d, "discard", seat=0, card="8")), "A12"),
    (lambda d: first(d, "out").update(concealed=True), "A42"),
    (lambda d: d.events.remove(first(d, "out")), "A39"),
])
def test_asking_and_going_out_are_checked(change, rule):
    d = quick_out()
    change(d)
    assert rule in rules_of(d.audit())


def test_ask_limits():
    d = quick_out(ask=None)
    d.events.insert(2, {"ev": "ask", "seat": 0, "answer": False})    # turn 1: asks, no
    d.events.insert(d.events.index(first(d, "meld", rank="J")) - 2,
                    {"ev": "ask", "seat": 0, "answer": True})
    assert "A41" in rules_of(d.audit())                                # once per player
    d = quick_out(ask=None)
    d.events.insert(2, {"ev": "ask", "seat": 0, "answer": True})      # yes, but no going out
    assert "A41" in rules_of(d.audit())


def test_oversize_melds_only_when_going_out():
    rules = "modern-american(mac_allow_oversize_when_going_out=true,mac_talon_sizes=5;3)"

    def deal(going_out):
        d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], stock="8 A K K 8 4 Q Q Q 8", rules=rules)
        d.draw(0)
        d.meld(0, "A", "A A A A A A")
        d.meld(0, "K", "K K K K K K")
        d.discard(0, "9")
        d.talon(0, 5)                                          # A K K 8 4
        for seat in (1, 2, 3):
            d.draw(seat)
            d.discard(seat, "Q")
        d.draw(0)                                              # 8
        d.meld(0, "A", "A")
        d.meld(0, "K", "K K")                                  # eight kings (reading 3)
        if going_out:
            d.meld(0, "8", "8 8 8")
            d.go_out(0, "4")
            d.score()
        else:
            d.discard(0, "4")
        return d
    assert deal(True).audit() == []
    assert "A19" in rules_of(deal(False).audit())
    d = deal(True)
    d.events[0]["rules"] = "modern-american(mac_talon_sizes=5;3)"
    d.rules = parse_rules(d.events[0]["rules"])
    assert "A19" in rules_of(d.audit())


# ---- talons and the turn card (A7, A32-A34) ------------------------------------------------

@pytest.mark.parametrize("talon, rule", [(0, "A33"), (3, "A32")])
def test_a_missing_or_wrong_talon_is_caught(talon, rule):
    assert rule in rules_of(quick_out(talon=talon).audit())


def test_no_talon_after_a_take():
    assert "A32" in rules_of(take_opening(talon=True).audit())


def test_the_second_side_earns_the_smaller_talon():
    d = Deal([OPEN_ACES, "J J J J 2 Q Q Q Q JK 6 6 6", PLAIN, PLAIN3], stock="8 4 4 5 5 9")
    d.play(0, ACES_KINGS, "9", talon=4)
    d.draw(1)
    for rank, text in (("J", "J J J J 2"), ("Q", "Q Q Q Q JK"), ("6", "6 6 6")):
        d.meld(1, rank, text)
    d.discard(1, "9")
    d.talon(1, 3)
    assert played_out(d, 2) == []
    first(d, "talon", seat=1).update(size=4)
    assert "A32" in rules_of(d.audit())


def test_talon_sizes_and_set_aside_talons():
    d = quick_out("modern-american(mac_talon_sizes=5;3)", talon=4)
    assert "A32" in rules_of(d.audit())
    rules = "modern-american(mac_talon_source=set_aside)"
    d = Deal([OPEN_ACES, PLAIN, PLAIN, PLAIN3], stock="8 Q Q Q J", rules=rules,
             talons=["A K J J", "4 5 6"])
    d.play(0, ACES_KINGS, "9", talon=4)
    assert played_out(d, 1) == []
    first(d, "talon").update(cards=d.events[0]["stock"][1:5])
    assert "A33" in rules_of(d.audit())
    d.events[0].pop("talons")
    assert "A5" in rules_of(d.audit())


def late_opening(talon):
    """Plain turns until the stock is short; then seat 0 opens after the turn card."""
    order = ("4", "5", "6", "8", "9", "10", "J", "Q", "K", "7", "A", "3r", "3b", "2", "JK")
    d = Deal(["A A A A A A K K K 4 5 6 9", PLAIN, PLAIN, PLAIN3], order=order)
    seat = 0
    while not (seat == 0 and len(d.stock) <= 9):
        d.pass_turn(seat)
        seat = (seat + 1) % 4
    d.draw(0)
    d.note_turn_card(0)
    d.meld(0, "A", "A A A A A A")
    d.meld(0, "K", "K K K")
    d.discard(0, next(c for c in ("4", "5", "6", "8", "9", "10", "J", "Q") if d.hands[0][c]))
    if talon:
        d.talon(0, 4)
    return d


def test_no_talon_after_the_turn_card():
    assert played_out(late_opening(False), 1) == []                          # A-T12
    assert "A32" in rules_of(late_opening(True).audit())


def test_the_turn_card_line():
    d = late_opening(False)
    d.play_out(1)
    d.events.remove(first(d, "turn_card"))
    assert "A7" in rules_of(d.audit())
    d = late_opening(False)
    d.play_out(1)
    first(d, "turn_card")["stock"] += 1
    assert "A7" in rules_of(d.audit())


# ---- the end of the stock (A43, A44) -------------------------------------------------------

def test_the_deal_ends_only_when_the_stock_says_so():
    d = quick_out(go_out=False)
    d.add(ev="end", reason="stock")
    assert "A44" in rules_of(d.audit())


# ---- special hands (A51-A53) ---------------------------------------------------------------

GARBAGE = "J J J J Q Q Q Q 5 5 5 K K"                                            # + K


def special(name, points, rules="modern-american", hand=GARBAGE, draw="K", **kw):
    """Seat 0 draws ``draw`` and lays its 14 cards as ``name``."""
    d = Deal([hand, FILL, FILL, FILL], stock=draw, rules=rules)
    d.draw(0)
    d.special_hand(0, name, points, **kw)
    d.score()
    return d


def test_a_special_hand_scores_alone():
    d = special("garbage", 3000)                                                 # A-T23
    assert d.audit() == []
    assert d.events[-1]["sides"][0] == {**dict.fromkeys(d.events[-1]["sides"][0], 0),
                                        "special": 3000, "total": 3000}
    assert special("garbage", 2000, "modern-american-pagat").audit() == []


@pytest.mark.parametrize("name, points, rules, rule", [
    ("garbage", 2000, "modern-american", "A51"),
    ("garbage", 3000, "modern-american(mac_special_hands=none)", "A51"),
    ("pairs", 2500, "modern-american", "A51"),
    ("zip_code", 2500, "modern-american-pagat", "A51"),
])
def test_a_wrong_special_hand_is_caught(name, points, rules, rule):
    assert rule in rules_of(special(name, points, rules).audit())


def test_the_straight_with_a_kept_three_and_the_dream_hands():
    straight = "A 2 3r 4 5 6 7 8 9 10 J Q K"                                    # A-T24
    assert special("straight", 3000, hand=straight, draw="JK").audit() == []
    dream = "J J J J J K K K K K JK JK JK"
    assert special("dream_plus_4", 8500, hand=dream, draw="JK", game_over=True).audit() == []
    assert "A53" in rules_of(special("dream_plus_4", 8500, hand=dream, draw="JK").audit())


def test_a_special_hand_needs_an_unmelded_side_and_a_draw():
    d = Deal([GARBAGE, FILL, "A A A A A 9 9 9 2 2 JK JK 10", FILL], stock="8 4 4 6 6 4 K",
             dealer=1)
    d.play(2, [("A", "A A A A A"), ("9", "9 9 9")], "10", talon=4)
    d.passes((3,), "4")
    d.draw(0)
    d.special_hand(0, "garbage", 3000)
    assert "A52" in rules_of(d.audit())


@pytest.mark.parametrize("name, hand, pagat", [
    ("pairs", "4 4 5 5 6 6 8 8 9 9 10 10 J J", False),
    ("wild_pairs", "A A 7 7 JK JK 5 5 6 6 8 8 9 9", False),
    ("miami_pairs", "A A 7 7 2 2 JK JK 6 6 8 8 9 9", False),
    ("zip_code", "8 8 JK JK 5 5 5 Q Q Q K K K K", False),                      # CLA example
    ("blast_off", "4 4 4 4 4 K K K K 2 2 JK 9 9", False),
    ("triples", "4 4 4 5 5 5 6 6 6 8 8 8 2 2", False),
    ("quads", "4 4 4 4 5 5 5 5 6 6 6 6 JK JK", False),
    ("dream_plus_5", "4 4 4 4 4 K K K K 2 2 2 JK JK", False),                   # CLA example
    ("wild_pairs", "A A 7 7 2 2 5 5 6 6 8 8 9 9", True),
])
def test_each_special_hand_is_recognised(name, hand, pagat):
    assert fits_special(name, Counter(cards(hand)), pagat)


@pytest.mark.parametrize("name, hand, pagat", [
    ("wild_pairs", "A A 7 7 2 JK 5 5 6 6 8 8 9 9", False),                     # 2-JK: no pair
    ("wild_pairs", "A A 7 7 JK JK 5 5 6 6 8 8 9 9", True),                      # pagat: 2-2
    ("pairs", "4 4 4 4 6 6 8 8 9 9 10 10 J J", False),                          # one rank twice
    ("garbage", "8 8 8 8 Q Q Q 2 5 5 5 K K K", False),
])
def test_a_near_special_hand_is_not_one(name, hand, pagat):
    assert not fits_special(name, Counter(cards(hand)), pagat)


def test_the_best_special_hand_is_the_highest():
    rules = parse_rules("modern-american")
    assert best_special(Counter(cards(GARBAGE + " K")), rules) == ("garbage", 3000)
    assert best_special(Counter(cards(PLAIN + " J")), rules) == (None, 0)


# ---- scores (A45-A49, A53; worked examples A-T19..A-T23) -----------------------------------

def score(rules="modern-american", melds=None, red=0, black=0, hands=(), out=False):
    """side_score over ``melds`` {rank: "cards"}, threes and hands ("cards" per seat)."""
    table = {r: cards(c) for r, c in (melds or {}).items()}
    return side_score(table, Counter({"3r": red, "3b": black}),
                      [Counter(cards(h)) for h in hands], out, parse_rules(rules))


TWO_CANASTAS = {"K": "K K K K K K K", "Q": "Q Q Q Q Q Q Q"}


def test_threes_follow_a_t19():
    assert score(melds=TWO_CANASTAS, red=2, black=3)["threes"] == 800
    assert score(melds={"K": "K K K K K K K"}, red=2, black=3)["threes"] == 0
    assert score(melds={"K": "K K K"}, red=2, black=3)["threes"] == -800
    assert score(melds=TWO_CANASTAS, red=4, black=1)["threes"] == 1100
    knob = "modern-american(mac_three_scores=50;150;250;400)"
    assert score(knob, melds=TWO_CANASTAS, red=2, black=3)["threes"] == 400


def test_a_full_deal_follows_a_t20():
    x = score(melds={"K": "K K K K K K K", "9": "9 9 9 9 9 2 JK", "7": "7 7 7 7 7 7 7",
                     "Q": "Q Q Q"}, red=2, black=1, hands=["", "5 6"], out=True)
    assert (x["canasta_bonus"], x["melds"], x["threes"], x["total"]) == (3300, 255, 400, 4045)
    y = score(melds={"J": "J J J J J J 2", "A": "A A A A", "8": "8 8 8"}, red=1,
              hands=["A A A 4", "JK 2"])
    assert (y["incomplete"], y["hand"], y["hand_penalty"], y["total"]) == \
        (-2500, -135, -1500, -3645)


def test_no_canasta_follows_a_t21_and_stacked_penalties_a_t22():
    assert score(melds={"9": "9 9 9", "6": "6 6 6 6"}, black=2, hands=["8 K"])["total"] == -370
    assert score(melds={"9": "9 9 9", "6": "6 6 6 6", "JK": "2 2 JK"}, black=2,
                 hands=["8 K"])["total"] == -2460
    s = score(melds={"7": "7 7 7 7"}, hands=["7 7 7"])
    assert (s["incomplete"], s["hand_penalty"], s["hand"]) == (-2500, -1500, -15)


def test_the_other_side_of_a_special_hand_follows_a_t23():
    y = score(melds={"10": "10 10 10 10 10 10 2", "5": "5 5 5"}, red=1,
              hands=["9 9", "K Q J"])
    assert y["total"] == 345


def test_canasta_bonus_and_penalty_knobs():
    wild = {"JK": "2 2 2 2 2 2 2"}
    assert score(melds=wild)["canasta_bonus"] == 3000
    assert score(melds={"JK": "2 2 2 JK JK JK JK"})["canasta_bonus"] == 2500
    assert score(melds={"JK": "2 2 2 2 2 JK JK"})["canasta_bonus"] == 2000
    knob = "modern-american(mac_canasta_bonuses=400;200;2000;1500;1000;1200;1300)"
    assert score(knob, melds=wild)["canasta_bonus"] == 1300
    assert score(knob, melds=TWO_CANASTAS)["canasta_bonus"] == 800
    knob = "modern-american(mac_incomplete_penalties=100;200;300)"
    assert score(knob, melds={"A": "A A A", "7": "7 7 7", "JK": "2 2 2"})["incomplete"] == -600
    assert score(melds={"JK": "JK JK JK JK"})["incomplete"] == -2000
    knob = "modern-american(mac_wild_meld_penalty_four_jokers=2500)"
    assert score(knob, melds={"JK": "JK JK JK JK"})["incomplete"] == -2500
    assert score(melds={"A": "A A A 2"})["incomplete"] == 0                      # A-T04


@pytest.mark.parametrize("field, rule", [("total", "A49"), ("canasta_bonus", "A45"),
                                         ("threes", "A47"), ("hand", "A48"),
                                         ("melds", "A49"), ("out", "A42")])
def test_a_wrong_score_item_is_caught(field, rule):
    d = quick_out()
    d.events[-1]["sides"][0][field] += 5
    assert rule in rules_of(d.audit())


def test_a_missing_score_field_is_caught():
    d = quick_out()
    del d.events[-1]["sides"][1]["special"]
    assert "A4b" in rules_of(d.audit())


# ---- the command ---------------------------------------------------------------------------

def test_canasta_sim_audit_replays_modern_american_traces(tmp_path):
    import json

    from click.testing import CliRunner

    from canasta_sim.cli import cli

    good, bad = quick_out(), quick_out()
    bad.events[-1]["sides"][0]["total"] += 5
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in good.events + bad.events))
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code == 1
    assert "deal=0 A49: line" in result.output
    assert result.output.strip().splitlines()[-1] == "deals=2 problems=1"
    assert audit_american_deal(good.events, parse_rules("modern-american")) == []
    assert SIDES == [[0, 2], [1, 3]]


# ---- more knobs: asking, the top card, hand penalties, the bonus for going out ---------------

def test_ask_knobs():
    d = quick_out(rules="modern-american(mac_ask_limit=once_per_side)")
    d.events.insert(d.events.index(first(d, "draw", seat=2)) + 1,
                    {"ev": "ask", "seat": 2, "answer": False})    # the partner asked first
    assert "A41" in rules_of(d.audit())
    d = quick_out()
    d.events.insert(d.events.index(first(d, "draw", seat=2)) + 1,
                    {"ev": "ask", "seat": 2, "answer": False})
    assert d.audit() == []                                        # once per player
    assert "A41" in rules_of(quick_out("modern-american(ask_permission=never)").audit())
    assert "A41" in rules_of(quick_out("modern-american(ask_permission=required)",
                                       ask=None).audit())
    d = quick_out("modern-american(ask_permission=required)", ask=None)
    d.events.insert(2, {"ev": "ask", "seat": 0, "answer": False})    # its question is spent
    assert d.audit() == []
    d = quick_out(ask=None)                         # asking right before the going-out step
    d.events.insert(d.events.index(first(d, "meld", rank="J")),
                    {"ev": "ask", "seat": 0, "answer": True})
    assert d.audit() == []


def ace_take(rules):
    """Seat 3 discards an ace onto a 9; seat 0 takes with A-A and opens with K-K-K,
    Q-Q-Q-2 and J-J-J from the hand (110; the pair 40, the top card 20)."""
    d = Deal(["A A K K K Q Q Q 2 J J J 5", PLAIN, PLAIN, "A 5 6 7 7 8 9 10 4 4 J 2 JK"],
             stock="4 8", rules=rules, dealer=1)
    d.passes((2,), "9")
    d.passes((3,), "A")
    d.take(0, ("A", "A A A"), ("K", "K K K"), ("Q", "Q Q Q 2"), ("J", "J J J"))
    d.discard(0, "9")
    return d


@pytest.mark.parametrize("knobs, legal", [
    ("", True), ("mac_take_pair_counts=false", False),
    ("mac_take_pair_counts=false,top_card_counts_for_minimum=true", True)])
def test_the_take_pair_and_the_top_card_toward_the_minimum(knobs, legal):
    problems = played_out(ace_take(f"modern-american({knobs})" if knobs else "modern-american"),
                          1)
    assert (problems == []) if legal else (rules_of(problems) == {"A26"})


def test_hand_knobs():
    assert score(hands=["A A A 7 7 7"])["hand_penalty"] == -3000
    knob = "modern-american(mac_hand_triple_penalty=1000)"
    assert score(knob, hands=["A A A", "7 7 7 7"])["hand_penalty"] == -2000
    assert score(hands=["3r 3b"])["hand"] == -10                                 # reading 9
    assert score("modern-american(black3_card_value=20)", hands=["3r"])["hand"] == -20
    assert score("modern-american(going_out_bonus=200)", melds=TWO_CANASTAS,
                 out=True)["out"] == 200


# ---- robustness: a damaged trace is reported, never a crash --------------------------------

def damaged(events, rng):
    """A copy of ``events`` with one random damage: a line dropped, two lines swapped, a card
    or a seat changed."""
    import copy

    events = copy.deepcopy(events)
    k = rng.randrange(1, len(events) - 1)
    how = rng.choice(("drop", "swap", "card", "seat"))
    if how == "drop":
        how = "drop " + events.pop(k)["ev"]
    elif how == "swap":
        events[k], events[k + 1] = events[k + 1], events[k]
    elif how == "seat":
        if "seat" not in events[k]:
            return "none", events
        events[k]["seat"] = (events[k]["seat"] + rng.randrange(1, 4)) % 4
    else:
        for key in ("cards", "card", "replacement"):
            if isinstance(events[k].get(key), list) and events[k][key]:
                events[k][key][0] = rng.choice(["JK", "2", "3r", "7", "A", "K"])
            elif isinstance(events[k].get(key), str):
                events[k][key] = rng.choice(["JK", "2", "3b", "7", "A", "K"])
    return how, events


def test_damaged_traces_are_reported_and_never_crash():
    import random

    rng = random.Random(30)
    nines, played = pile_on_nines(4), Deal(["3r 3b 4 4 5 5 6 6 8 8 9 9 10", PLAIN, PLAIN, PLAIN3])
    nines.play_out(3)
    played.play_out(0)
    rules = parse_rules("modern-american")
    for d in (quick_out(), nines, special("garbage", 3000), played):
        assert d.audit() == []
        for _ in range(150):
            how, events = damaged(d.events, rng)
            problems = audit_american_deal(events, rules)
            if how == "seat" or how.startswith("drop") and how != "drop ask":
                assert problems, (how, events)


# ---- a game's deals (A4, A50, A54) ---------------------------------------------------------

def game_of_two(scores, dealer=0, deal0_scores=(0, 0)):
    """Deal 0 (quick_out, dealer 3) and deal 1 of game 5 with ``scores`` before it."""
    first_deal = quick_out()
    first_deal.events[0].update(game=5, scores_before=list(deal0_scores))
    second = Deal([PLAIN, PLAIN, PLAIN, PLAIN3], dealer=dealer, scores=scores)
    second.play_out((dealer + 1) % 4)
    second.events[0].update(game=5, deal=1)
    return [first_deal.events, second.events]


def stream_problems(deals):
    from canasta_sim.audit import audit_stream

    return [problem for _, problem in audit_stream(deals)]


def test_a_games_deals_follow_one_another():
    assert stream_problems(game_of_two((3240, -255))) == []
    assert rules_of(stream_problems(game_of_two((3240, -250)))) == {"A50"}
    assert rules_of(stream_problems(game_of_two((3240, -255), dealer=2))) == {"A4"}
    over = game_of_two((8540, -255), deal0_scores=(5300, 0))
    assert rules_of(stream_problems(over)) == {"A54"}
    deals = game_of_two((3240, -255))
    deals[1][0]["game"] = 6                                    # another game: not compared
    deals[1][0]["scores_before"] = [0, 0]
    assert stream_problems(deals) == []
