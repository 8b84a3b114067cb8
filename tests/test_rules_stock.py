"""The end of the stock: RULES.md R13, R45-R50, worked examples T36-T37."""
from canasta_sim.kernels.game import options, slots
from rules_helpers import (
    CANASTA,
    CONTINUE,
    DEAL_OVER,
    draw,
    hand_size,
    pile_of,
    random_turns,
    red3_of,
    side0,
    stock_left,
)
from rules_replay import by_rule, replayed, replayed_stock_ends


def test_R13_red_three_drawn_is_placed_and_replaced_at_once():
    p = side0().hand(0, "K Q 9").stock("3h 3d 8 6")
    assert p.play_turn(0) == CONTINUE
    assert red3_of(p, 0) == 2                                            # R13 repeatedly
    assert p.hand_of(0)["3r"] == 0 and stock_left(p) == 1                # replaced by 3d, 8
    assert hand_size(p, 0) == 3                                          # drew 8, discarded one


def test_R45_stock_outlasts_almost_every_deal():
    """Greedy deals end by going out; the stock (64 cards after the deal) rarely runs out."""
    violations, facts = replayed("classic", "greedy")
    assert by_rule(violations, "R6", "R45") == []
    assert facts["end_out"] >= 0.9 * facts["deals"]                     # R45


def test_R46_last_card_not_a_red_three_turn_completes():
    p = side0().hand(0, "K Q 9").stock("8")
    assert p.play_turn(0) == CONTINUE                                    # R46
    assert stock_left(p) == 0 and hand_size(p, 0) == 3 and len(pile_of(p)) == 1


# ---- T36: the last stock card is a red three (R47, R48) ------------------------------------------

def test_T36_last_card_red_three_ends_the_deal():
    p = side0(**CANASTA).hand(0, "5 5 5 K").stock("3h")
    assert p.play_turn(0) == DEAL_OVER                                   # R47
    assert red3_of(p, 0) == 1                                            # it scores
    assert p.hand_of(0) == {"5": 3, "K": 1} and pile_of(p) == []         # no meld, no discard
    assert p.st[slots.ST_END_REASON] == 1                                # END_STOCK (R48)
    s = p.score()
    assert s[0]["out_bonus"] == 0 and s[1]["out_bonus"] == 0             # R50
    assert s[0]["red3_points"] == 100


def test_T36_last_card_red_three_may_meld_knob():
    rules = "classic(last_card_red3_may_meld=true)"
    p = side0(rules, **CANASTA).hand(0, "5 5 5 K").stock("3h")
    draw(p, 0)
    opts = p.meld_options(0)
    assert ("new", "5", "3N") in opts                                    # BRIT: may meld
    assert all(o[0] != "out" for o in opts)                              # but never go out
    p = side0(**CANASTA).hand(0, "5 5 5 K").stock("3h")
    draw(p, 0)
    assert p.meld_options(0) == [("stop",)]                              # R47 default
    for result, q in random_turns(lambda: side0(rules, **CANASTA).hand(0, "5 5 5 K")
                                  .stock("3h")):
        assert result == DEAL_OVER and pile_of(q) == []                  # R47: no discard
        assert q.st[slots.ST_END_REASON] == 1
        assert q.score()[0]["out_bonus"] == 0                            # R50


# ---- T37: play after the stock is gone (R49) ---------------------------------------------------------

def test_T37_forced_take_after_the_stock():
    p = side0(**{"J": "J J J"}).hand(0, "5 6 7").pile("8 J").stock("")
    assert options.forced_take_due_nb(p.nb, p.S, 0)                      # R49 must take
    assert p.take_options(0) == [(0, 0, 0)]
    assert p.play_turn(0) == CONTINUE
    assert p.meld_of(0, "J") == (4, 0, 0) and len(pile_of(p)) == 1


def test_T37_frozen_pile_is_not_forced_and_no_take_ends_the_deal():
    p = side0(**{"J": "J J J"}).hand(0, "5 6 7").pile("2 8 J").stock("")
    assert not options.forced_take_due_nb(p.nb, p.S, 0)                  # R49 frozen: optional
    assert p.take_options(0) == []
    assert p.play_turn(0) == DEAL_OVER                                   # R49 the deal ends
    assert p.st[slots.ST_END_REASON] == 1
    assert all(s["out_bonus"] == 0 for s in p.score())                   # R50


def test_R49_forced_take_exceptions():
    # no meld of the top card's rank: not forced
    p = side0().hand(0, "J J 7").pile("8 J").stock("")
    assert not options.forced_take_due_nb(p.nb, p.S, 0)                  # R49
    assert p.take_options(0)                                             # but allowed
    # R37: one card in hand, one card in the pile
    p = side0(**{"J": "J J J"}).hand(0, "5").pile("J").stock("")
    assert not options.forced_take_due_nb(p.nb, p.S, 0)                  # R49 + R37
    # knob off: never forced
    p = side0("classic(empty_stock_forced_take=false)", **{"J": "J J J"}).hand(0, "5 6 7")
    p.pile("8 J").stock("")
    assert not options.forced_take_due_nb(p.nb, p.S, 0)                  # knob


def test_R49_no_draw_from_an_empty_stock():
    p = side0().hand(0, "K Q 9").pile("8 6").stock("")
    assert p.take_options(0) == []
    assert p.play_turn(0) == DEAL_OVER                                   # R49
    assert hand_size(p, 0) == 3


# ---- R45-R50 in real deals that ran out of stock ----------------------------------------------------

def test_R45_to_R50_in_real_stock_ends():
    """Replay of the random deals (of 10,000) that ran out of stock: the deal ended only with
    an empty stock (R45), the last-card turn was completed (R46), a last-card red three ended
    it with no meld or discard (R47, R48), forced takes were made and nothing was drawn from
    an empty stock (R49), no going-out bonus (R50)."""
    violations, facts = replayed_stock_ends("classic", "random", 11, 10000, 300)
    assert by_rule(violations) == []                                     # every rule
    assert facts["deals"] >= 100 and facts["end_stock"] == facts["deals"]
    assert facts["r47"] > 0                                              # R47 happened
    assert facts["r49_takes"] > 0                                        # R49 play happened
    assert facts["drew_last_card"] > 0                                   # R46 happened


def test_R47_brit_knob_in_real_stock_ends():
    rules = "classic(last_card_red3_may_meld=true)"
    violations, facts = replayed_stock_ends(rules, "random", 11, 10000, 300)
    assert by_rule(violations, "R45", "R46", "R47", "R49", "R50") == []  # R47 knob
    assert facts["r47"] > 0


def test_T37_declining_an_optional_take_ends_the_deal():
    """Stock empty, pile 8 | K unfrozen, no meld of kings: taking with K-K is allowed but not
    forced; a player who declines ends the deal at once (R49), one who takes plays on."""
    def build():
        return side0().hand(0, "K K 9 7").pile("8 K").stock("")
    results = random_turns(build)
    declined = [p for r, p in results if r == DEAL_OVER]
    took = [p for r, p in results if r == CONTINUE]
    assert declined and took                                             # R38, R49
    for p in declined:
        assert p.st[slots.ST_END_REASON] == 1 and pile_of(p) == ["8", "K"]   # R49 ends at once
    for p in took:
        assert p.meld_of(0, "K") == (3, 0, 0)


def test_R49_forced_take_is_never_declined():
    def build():
        return side0(**{"J": "J J J"}).hand(0, "5 6 7").pile("8 J").stock("")
    for r, p in random_turns(build):
        assert r == CONTINUE and p.meld_of(0, "J")[0] == 4               # R49 must take
