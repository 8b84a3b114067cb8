"""Going out: RULES.md R16, R17, R39-R44, worked examples T31-T35."""
import naive
from canasta_sim.kernels.game import slots
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rules_helpers import (
    CANASTA,
    CONTINUE,
    DEAL_OVER,
    POOL,
    go_out,
    hand_size,
    pile_of,
    random_turns,
    side0,
    side_melds,
)
from rules_replay import by_rule, replayed
from scenario import Position

# ---- T31-T34 ---------------------------------------------------------------------------------------

def test_T31_completing_a_canasta_with_the_last_cards_goes_out():
    p = side0(**{"9": "9 9 9 9 9"}).hand(0, "9 9")
    p.begin(0)
    assert ("out", None) in p.meld_options(0)                           # R40 same-turn canasta
    assert p.go_out_plan(0) == (None, {"9": 2})
    assert go_out(p, 0) == DEAL_OVER                                    # R39
    assert p.meld_of(0, "9") == (7, 0, 0) and hand_size(p, 0) == 0
    assert pile_of(p) == []                                             # no discard
    assert p.st[slots.ST_OUT_SEAT] == 0 and p.st[slots.ST_END_REASON] == 0
    # played by a policy from the draw: whenever the hand is emptied the deal is over
    outs = 0
    for result, q in random_turns(lambda: side0(**{"9": "9 9 9 9 9"}).hand(0, "9")
                                  .stock("9 5 5")):
        if hand_size(q, 0) == 0:
            assert result == DEAL_OVER and q.meld_of(0, "9") == (7, 0, 0)   # R39
            outs += 1
        else:
            assert result == CONTINUE and hand_size(q, 0) == 1           # R16
    assert outs > 0


def test_T32_no_canasta_keep_a_card():
    p = side0(**{"9": "9 9 9"}).hand(0, "Q 6")
    p.begin(0)
    assert p.meld_options(0) == [("stop",)] and p.go_out_plan(0) is None   # R40
    p = side0(**{"9": "9 9 9"}).hand(0, "Q").stock("6 5")
    assert p.play_turn(0) == CONTINUE
    assert hand_size(p, 0) == 1 and len(pile_of(p)) == 1                # R16, R17


def test_R16_never_meld_the_hand_empty_without_a_canasta():
    p = side0().hand(0, "5 5 K K K")
    p.begin(0)
    opts = p.meld_options(0)
    assert ("new", "K", "3N") in opts                                   # leaves 5 5
    assert ("add", "5", "5") in opts
    p.hand(0, "K K K")
    p.begin(0)
    assert p.meld_options(0) == [("stop",)]                             # R16: would empty it
    p.hand(0, "K K K Q")
    p.begin(0)
    assert ("new", "K", "3N") not in p.meld_options(0)                  # R16: 1 card, no canasta


def test_T33_two_black_threes_cannot_go_out():
    p = side0(**CANASTA).hand(0, "3s 3c")
    p.begin(0)
    assert p.go_out_plan(0) is None and p.meld_options(0) == [("stop",)]   # R41
    p = side0(**CANASTA).hand(0, "3s").stock("3c 5")
    assert p.play_turn(0) == CONTINUE
    assert p.hand_of(0) == {"3b": 1} and pile_of(p) == ["3b"]           # R41, R17


def test_R41_one_black_three_is_discarded_to_go_out():
    p = side0(**CANASTA).hand(0, "5 5 5 3s")
    p.begin(0)
    assert p.go_out_plan(0) == ("3b", {"5": 3})                         # R41, R39


def test_T34_three_black_threes_are_melded_to_go_out():
    p = side0(**CANASTA).hand(0, "3s 3s 3c")
    p.begin(0)
    assert p.go_out_plan(0) == (None, {"3b": 3})                        # R25, R41
    assert go_out(p, 0) == DEAL_OVER
    assert side_melds(p, 0)["3b"] == (3, 0, 0) and pile_of(p) == []
    s = p.score()[0]
    assert s["melds"] == 70 + 15                                        # R25: 5 each, R54
    p = side0(**CANASTA).hand(0, "3s 3c 2")
    p.begin(0)
    assert p.go_out_plan(0) is None                                     # no wild with threes


# ---- T35: asking permission (R42) --------------------------------------------------------------------

def test_T35_partner_says_no():
    p = side0(**CANASTA).hand(0, "5 5 5 8 8 8 K")
    p.begin(0)
    assert ("out", "K") in p.meld_options(0)
    p.st[slots.ST_TURN_ASK] = 0                                         # asked, answer no
    assert p.go_out_plan(0) is None                                     # R42 binds
    assert all(o[0] != "out" for o in p.meld_options(0))
    assert ("new", "5", "3N") in p.meld_options(0)                      # may still meld
    p.hand(0, "5 5 5 K")
    assert p.meld_options(0) == [("stop",)]                             # R42 + R16: keep a card


def test_T35_partner_says_yes_he_must_go_out():
    """Random players ask and answer at random: after "yes" the turn always ends in going
    out, after "no" never (R42)."""
    answers = set()
    for rules in ("classic", "classic(ask_permission=required)"):
        for result, q in random_turns(lambda: side0(rules, **CANASTA).hand(0, "5 5 5 8 8 8")
                                      .stock("K 4"), seeds=range(24)):
            ask = int(q.st[slots.ST_TURN_ASK])
            answers.add(ask)
            if ask == 1:
                assert result == DEAL_OVER and q.st[slots.ST_OUT_SEAT] == 0   # R42 yes binds
            elif ask == 0:
                assert result == CONTINUE and hand_size(q, 0) > 0        # R42 no binds
    assert {0, 1} <= answers


def test_R42_required_knob_forbids_going_out_without_asking():
    p = side0("classic(ask_permission=required)", **CANASTA).hand(0, "5 5 5 K")
    p.begin(0)
    assert all(o[0] != "out" for o in p.meld_options(0))                # R42 required
    p.st[slots.ST_TURN_ASK] = 1
    assert ("out", "K") in p.meld_options(0)


def test_R42_answers_bind_in_real_deals():
    """Replay: asks happen before any meld of a draw turn; after "yes" the player goes out,
    after "no" he does not (R42)."""
    asks = 0
    for rules in ("classic", "classic(ask_permission=required)"):
        violations, facts = replayed(rules, "random", 5, 0, 200)
        assert by_rule(violations, "R42") == []                          # R42
        asks += facts["asks"]
    assert asks > 100


# ---- R39, R40, R43, R44 --------------------------------------------------------------------------

def test_R40_no_canasta_no_going_out():
    p = side0(**{"9": "9 9 9 9 9"}).hand(0, "5 5 5 K")
    p.begin(0)
    assert p.go_out_plan(0) is None                                     # R40
    p.meld(0, "9", "9")                                                 # 6 cards: still none
    p.begin(0)
    assert p.go_out_plan(0) is None
    p.meld(0, "9", "9")
    p.begin(0)
    assert p.go_out_plan(0) == ("K", {"5": 3})                          # R40: one canasta


def test_R40_two_canastas_knob():
    p = side0("classic(canastas_to_go_out=2)", **CANASTA).hand(0, "5 5 5 K")
    p.begin(0)
    assert p.go_out_plan(0) is None                                     # R40 knob


def test_R43_R44_going_out_not_concealed_after_melding_earlier():
    p = side0(**CANASTA).hand(0, "5 5 5 5 5 5 5 K").melded_before(0)
    p.begin(0)
    assert go_out(p, 0) == DEAL_OVER
    assert p.st[slots.ST_CONCEALED] == 0                                # R44 (i)
    assert p.score()[0]["out_bonus"] == 100                             # R43, R53


def test_R44_adding_to_partners_meld_is_not_concealed():
    p = side0(**{"9": "9 9 9 9 9 9"}).hand(0, "9 5 5 5 8 8 8 K")
    p.begin(0)
    assert go_out(p, 0) == DEAL_OVER
    assert p.meld_of(0, "9")[0] == 7                                    # completed partner's meld
    assert p.st[slots.ST_CONCEALED] == 0                                # R44 (iii)


def test_R44_own_new_melds_must_include_a_canasta():
    p = side0(**CANASTA).hand(0, "5 5 5 8 8 8 K")
    p.begin(0)
    assert go_out(p, 0) == DEAL_OVER
    assert p.st[slots.ST_CONCEALED] == 0                                # R44 (iv)
    p = side0(**CANASTA).hand(0, "5 5 5 5 5 5 5 8 8 8 K")
    p.begin(0)
    assert go_out(p, 0) == DEAL_OVER
    assert p.st[slots.ST_CONCEALED] == 1                                # R44: partner melded
    assert p.score()[0]["out_bonus"] == 200                             # R53


def test_R44_final_discard_knob():
    hand = "5 5 5 5 5 5 5 4 4 4 4 K"
    p = Position().hand(0, hand)
    p.begin(0)
    assert go_out(p, 0) == DEAL_OVER
    assert p.st[slots.ST_CONCEALED] == 1 and pile_of(p) == ["K"]        # R44 (ii) with discard
    p = Position("classic(concealed_allows_final_discard=false)").hand(0, hand)
    p.begin(0)
    assert go_out(p, 0) == DEAL_OVER
    assert p.st[slots.ST_OUT_SEAT] == 0 and p.st[slots.ST_CONCEALED] == 0   # R44 knob


def test_R39_to_R44_hold_in_real_deals():
    """Replay: an out empties the hand (R39), the side has its canastas (R40), the concealed
    flag follows R44, the hand is never emptied otherwise (R16), one discard ends a turn."""
    outs = 0
    for rules in ("classic", "classic(concealed_allows_final_discard=false)", "seed-a",
                  "classic(canastas_to_go_out=2)"):
        for policies in ("random", "greedy"):
            violations, facts = replayed(rules, policies, 5, 0, 150)
            assert by_rule(violations, "R39", "R40", "R44", "R16", "R17", "R11") == []
            outs += facts["outs"]
    assert outs > 800


# ---- the engine against the reference on many random hands ----------------------------------------

@settings(max_examples=800, deadline=None)
@given(hand=st.lists(st.sampled_from(POOL), min_size=1, max_size=9),
       table=st.dictionaries(st.sampled_from(naive.NATURALS),
                             st.tuples(st.integers(2, 8), st.integers(0, 3)), min_size=1,
                             max_size=4),
       ratio=st.sampled_from(["none", "le", "lt", "half"]),
       needed=st.sampled_from([1, 2]))
def test_R39_to_R41_going_out_matches_reference(hand, table, ratio, needed):
    """The engine finds a way to go out exactly when the brute-force reference does, and its
    plan leaves only legal melds and the canastas needed (R18, R25, R39-R41)."""
    melds = {r: [r] * n + ["2"] * w for r, (n, w) in table.items()
             if naive.meld_counts_ok(n, w, ratio)}
    assume(melds and hand.count("3b") <= 4)
    p = Position(f"classic(wild_ratio_rule={ratio},canastas_to_go_out={needed})")
    for rank, cards in melds.items():
        p.meld(0, rank, " ".join(cards))
    p.hand(0, " ".join(hand)).begin(0)
    want = naive.can_go_out(hand, melds, needed, ratio)
    assert (p.go_out_plan(0) is not None) is want                       # R39, R40, R41
    if want:
        assert go_out(p, 0) == DEAL_OVER and hand_size(p, 0) == 0
        after = side_melds(p, 0)
        for rank, (n, d, j) in after.items():
            if rank == "3b":
                assert d + j == 0 and 3 <= n <= 4                        # R25
            else:
                assert naive.meld_counts_ok(n, d + j, ratio)             # R18, R19
        assert sum(1 for r, v in after.items() if r != "3b" and sum(v) >= 7) >= needed   # R40


def test_R44_going_out_plan_keeps_the_concealed_bonus():
    """The partner has six 5s; seat 0 never melded and holds 9x5, 2, 2, K K K, Q.  Both deuces
    on the nines (its own canasta) go out concealed; one on the partner's fives would not."""
    from canasta_sim.kernels.game import slots
    p = Position()
    p.meld(0, "5", "5 5 5 5 5 5").hand(0, "9 9 9 9 9 2 2 K K K Q").melded_before(2)
    p.begin(0)
    discard, plan = p.go_out_plan(0)
    assert plan == {"9": 7, "K": 3} and discard == "Q"                  # R44 (iii)
    assert go_out(p, 0) == DEAL_OVER
    assert p.st[slots.ST_CONCEALED] == 1 and p.score()[0]["out_bonus"] == 200   # R53


def test_R25_five_black_threes_meld_four_and_discard_one():
    """Three packs hold six black threes: with five, four are melded and one discarded."""
    p = side0("six-player", **CANASTA).hand(0, "3s 3s 3s 3c 3c")
    p.S.melds[0, :, 4:] = 0
    p.meld(0, "9", "9 9 9 9 9 9 9").meld(0, "K", "K K K 2 2 2 K")
    p.begin(0)
    assert p.go_out_plan(0) == ("3b", {"3b": 4})                        # R25
