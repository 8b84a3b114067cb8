"""The initial meld: RULES.md R26-R30 and R35, worked examples T15-T21.

"Is there a legal turn that lays these melds?" is answered by exploring every sequence of
meld options the engine offers (``rules_helpers.outcomes``), so the tests do not depend on
what a policy prefers.  Pile takes are made with chosen cards (``rules_helpers.take``);
where a policy still picks further take melds, any legal pick must satisfy the assertion.
"""
import naive
import pytest
from canasta_sim.kernels.game import slots, state
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import go_out, new_meld_ranks, outcomes, side_melds, stop_ends, take
from rules_replay import by_rule, replayed
from scenario import Position

from canasta_sim.rules import parse_rules

CLASSIC = parse_rules("classic").to_kernel()


# ---- T15: the minimum by cumulative score ---------------------------------------------------------

@pytest.mark.parametrize("score,minimum", [(-1000, 15), (-5, 15), (0, 50), (5, 50), (1495, 50),
                                           (1499, 50), (1500, 90), (2995, 90), (3000, 120),
                                           (4995, 120), (8000, 120)])
def test_T15_minimum_by_score(score, minimum):
    assert state.initial_minimum_nb(CLASSIC, score) == minimum          # R27
    assert naive.initial_minimum(score) == minimum
    p = Position(scores=(score, 0))
    assert p.S.sidev[0, slots.SIDE_MINIMUM] == minimum                     # R27 at the deal start


def test_R27_minimum_reaches_the_deal_from_scores_before():
    """A real deal started with cumulative scores uses the bracket of each side (R27)."""
    from canasta_sim.kernels.game.deal import deal_nb

    from canasta_sim.runner import prepare
    plan = prepare(1, 3, "classic", "greedy", [1600, -20])
    p = Position()
    deal_nb(plan.rules_nb, p.S, p.buf, 3, 0, -1, plan.scores_before)
    assert list(p.S.sidev[:2, slots.SIDE_MINIMUM]) == [90, 15]             # R27


# ---- T16: the minimum decides which initial melds are legal ---------------------------------------

@pytest.mark.parametrize("score,hand,legal_ranks", [
    (1400, "6 6 6 K K K 2 9 5", {frozenset({"6", "K"}), frozenset({"K"})}),
    (1400, "6 6 6 A A A 2 9 5", {frozenset({"6", "A"}), frozenset({"A"})}),
    (1600, "6 6 6 K K K 2 9 5", set()),                 # 15 + 50 = 65 < 90
    (1600, "6 6 6 A A A 2 9 5", {frozenset({"6", "A"})}),   # 15 + 80 = 95 >= 90
    (3000, "6 6 6 K K K 2 9 5", set()),
    (3000, "6 6 6 A A A 2 9 5", set()),                 # 95 < 120
])
def test_T16_initial_meld_against_the_minimum(score, hand, legal_ranks):
    p = Position(scores=(score, 0)).hand(0, hand)
    p.begin(0)
    ends = new_meld_ranks(outcomes(p, 0))
    assert ends - {frozenset()} == legal_ranks                          # R26, R27, R28
    assert frozenset() in ends                                          # melding is optional


def test_R28_a_canasta_laid_from_hand_counts_only_its_card_values():
    """Seven fives (35) are a canasta, but the 500 bonus does not count toward 90."""
    p = Position(scores=(1600, 0)).hand(0, "5 5 5 5 5 5 5 K Q 9 8")
    p.begin(0)
    assert new_meld_ranks(outcomes(p, 0)) == {frozenset()}              # R28
    p = Position(scores=(1400, 0)).hand(0, "5 5 5 5 5 5 5 K Q 9 8")
    p.begin(0)
    assert new_meld_ranks(outcomes(p, 0)) == {frozenset()}              # 35 < 50 as well
    p = Position(scores=(-20, 0)).hand(0, "5 5 5 5 5 5 5 K Q 9 8")
    p.begin(0)
    assert frozenset({"5"}) in new_meld_ranks(outcomes(p, 0))           # 35 >= 15


# ---- T17-T18: the initial meld through the pile ----------------------------------------------------

def test_T17_only_the_top_card_counts_buried_cards_join_after():
    p = Position().hand(0, "K K Q Q 2 9").pile("7 K Q 5 K")
    assert (2, 0, 0) in p.take_options(0)                               # R35: 30 + 40 = 70
    assert take(p, 0, 2)                    # K-K-K, then Q-Q-2 is the only way to 50
    assert side_melds(p, 0) == {"K": (3, 0, 0), "Q": (2, 1, 0)}
    assert p.hand_of(0) == {"9": 1, "7": 1, "K": 1, "Q": 1, "5": 1}     # R36 rest joins
    opts = p.meld_options(0)
    assert ("add", "K", "K") in opts and ("add", "Q", "Q") in opts      # buried K, Q may follow
    p = Position(scores=(1600, 0)).hand(0, "K K Q Q 2 9").pile("7 K Q 5 K")
    assert p.take_options(0) == []                                      # R28: 70 < 90


def test_T18_wild_cards_join_the_natural_pair_meld():
    p = Position(scores=(3000, 0)).hand(0, "A A Jk Jk").pile("5 7 A")
    assert (2, 0, 2) in p.take_options(0)                               # R33, R35: 160
    assert take(p, 0, 2, 0, 2)
    assert side_melds(p, 0) == {"A": (3, 0, 2)}                         # R35
    p = Position(scores=(3000, 0)).hand(0, "A Jk Jk 9 6").pile("5 7 A")
    assert p.take_options(0) == []                                      # R32/R33: pair needed


# ---- T19: concealed going out and the minimum -------------------------------------------------------

HAND_T19 = "5 5 5 5 5 5 5 4 4 4 4 K"


def test_T19_concealed_going_out_is_exempt_from_the_minimum():
    p = Position(scores=(1600, 0)).hand(0, HAND_T19)
    p.begin(0)
    # R30: 55 < 90, exempt; the first steps of that going-out are legal too (docs/moves.md)
    assert p.meld_options(0) == [("out", "K"), ("new", "4", "3N"), ("new", "5", "3N"), ("stop",)]
    assert p.go_out_plan(0) == ("K", {"4": 4, "5": 7})
    # played for real: concealed, bonus 200
    p = Position(scores=(1600, 0)).hand(0, HAND_T19)
    p.begin(0)
    assert go_out(p, 0) == 1
    assert p.st[slots.ST_OUT_SEAT] == 0 and p.st[slots.ST_CONCEALED] == 1   # R44
    s = p.score()[0]
    assert s["out_bonus"] == 200 and s["score"] == 500 + 200 + 55       # R30, R53


@pytest.mark.parametrize("rules", ["classic(concealed_exempt_from_min_count=false)", "seed-a"])
def test_T19_source_a_reading_requires_the_minimum(rules):
    p = Position(rules, scores=(1600, 0)).hand(0, HAND_T19)
    p.begin(0)
    assert p.meld_options(0) == [("stop",)]                             # R30 knob off
    assert p.go_out_plan(0) is None


def test_T19_laying_the_canasta_alone_is_illegal():
    p = Position(scores=(1600, 0)).hand(0, HAND_T19)
    p.begin(0)
    assert ("stop", frozenset({("5", (7, 0, 0))})) not in outcomes(p, 0)   # R28


# ---- T20-T21 ---------------------------------------------------------------------------------------

def test_T20_joker_completes_the_count():
    def build():
        return Position().hand(0, "4 4 Jk K K K").pile("9 6 4")
    assert (2, 0, 0) in build().take_options(0)                         # 15 + 30 + 50 reachable
    done = 0
    for s in range(12):                     # whatever take melds the player then chooses
        p = build().policies("random")
        from canasta_sim.kernels.game.rng import seed_streams_nb
        seed_streams_nb(p.S.rng, 5, s)
        if take(p, 0, 2):
            melds = side_melds(p, 0)
            assert sum(m[2] for m in melds.values()) == 1               # R35: the joker is needed
            count = sum(naive.cards_value([r] * n + ["JK"] * j) for r, (n, _, j) in melds.items())
            assert count >= 50                                          # 4-4-4-Jk or + K-K-K
            done += 1
    assert done > 0
    # without the joker: 15 + 30 = 45 < 50
    p = Position().hand(0, "4 4 K K K 9 6").pile("9 6 4")
    assert p.take_options(0) == []                                      # R28, R35


def test_T21_red_three_bonuses_never_count():
    p = Position().red3(0, 3).hand(0, "8 8 8 9 6 5")
    p.begin(0)
    assert p.meld_options(0) == [("stop",)]                             # R28: 30 < 50
    p = Position().red3(0, 3).hand(0, "8 8 8 A A A 6 5")
    p.begin(0)
    assert ("new", "8", "3N") in p.meld_options(0)                      # 30 + 60 >= 50


# ---- R29, R30 note, R26 in real deals -------------------------------------------------------------

def test_R29_once_met_no_minimum_applies():
    p = Position(scores=(3000, 0)).meld(0, "A", "A A A 2 Jk").hand(2, "4 4 4 K Q 7")
    p.begin(2)
    assert ("new", "4", "3N") in p.meld_options(2)                      # R29 partner too
    assert frozenset({"4"}) in new_meld_ranks(outcomes(p, 2), before={"A"})


def test_R30_unmelded_pile_take_still_needs_a_natural_pair():
    """Even a player who could go out concealed needs the natural pair to take (R30 note)."""
    p = Position().hand(0, "K 2 Q Q Q Q Q Q Q").pile("5 K")
    assert all(k >= 2 for k, _, _ in p.take_options(0))                 # R30, R33
    assert p.take_options(0) == []


def test_R26_first_melds_of_real_deals_reach_the_minimum():
    """Replay of real deals with every bracket: an unmelded side's first melds, laid in one
    turn, reach the side's minimum (R26-R28, R35; R30 for concealed going out)."""
    seen = 0
    for scores in [(1600, 3100), (-100, 0), (0, 0)]:
        for policies in ("random", "greedy"):
            violations, facts = replayed("classic", policies, 5, 0, 150, scores)
            assert by_rule(violations, "R26", "R35") == []              # R26, R35
            seen += facts["initial_melds"]
    assert seen > 500


def test_R15_every_offered_meld_step_can_end_legally():
    """Side at 3,000 (needs 120) holds K K K A A Jk after drawing.  The only ways to reach
    120 use all six cards, which would empty the hand without a canasta (R16).  So no initial
    meld is legal this turn, and a step that starts one must not be offered: placed cards can
    never be taken back (R15)."""
    from rules_helpers import apply_step, clone
    p = Position(scores=(3000, 0)).hand(0, "K K K A A Jk")
    p.begin(0)
    assert new_meld_ranks(outcomes(p, 0)) == {frozenset()}
    opts = p.meld_options(0)
    for i, opt in enumerate(opts):
        if opt[0] in ("new", "add"):
            q = clone(p)
            apply_step(q, 0, p.opts[i])
            assert outcomes(q, 0), f"{opt} leads to a dead end"           # R15, R16, R26


def test_R30_concealed_out_through_the_pile_at_minimum_15():
    """Control for the next test: with no real minimum (15) the take and the concealed
    going-out are played (4-4-4 take meld, then the pile's sixes make a canasta)."""
    p = Position(scores=(-100, 0)).hand(0, "4 4 6 6 5 5 5").pile("6 6 6 6 6 4").stock("9 9")
    assert p.take_options(0) == [(2, 0, 0)]
    assert take(p, 0, 2)
    assert go_out(p, 0) == 1
    assert p.st[slots.ST_CONCEALED] == 1                                # R44 with a take
    assert p.score()[0]["out_bonus"] == 200


def test_R30_concealed_out_through_the_pile_is_exempt_from_the_count():
    """Side at 0 (needs 50), unmelded.  Pile 6 6 6 6 6 | 4 (top 4); hand 4 4 6 6 5 5 5 K.
    Taking with the natural pair 4-4 (R33) and melding 4-4-4, seven sixes and 5-5-5, then
    discarding the K, goes out concealed (R44, own canasta).  R30: a concealed going-out need
    not meet the minimum; with a take "the exemption covers only the count".  A player who
    takes that way must then go out (the count of 15 does not allow stopping)."""
    p = Position().hand(0, "4 4 6 6 5 5 5 K").pile("6 6 6 6 6 4")
    assert (2, 0, 0) in p.take_options(0)                               # R30, R33
    assert take(p, 0, 2)
    opts = p.meld_options(0)
    assert ("stop",) not in opts and ("out", "K") in opts               # R26 still binds
    assert go_out(p, 0) == 1
    assert p.st[slots.ST_CONCEALED] == 1 and p.score()[0]["out_bonus"] == 200   # R44, R53
    p = Position("classic(concealed_exempt_from_min_count=false)").hand(0, "4 4 6 6 5 5 5 K")
    assert p.pile("6 6 6 6 6 4").take_options(0) == []                  # R30 knob off: 15 < 50
    p = Position().hand(0, "4 4 6 6 5 5 9 K").pile("6 6 6 6 6 4")
    assert p.take_options(0) == []                                      # no concealed way out


# ---- the engine against the reference on many random hands ----------------------------------------

@settings(max_examples=600, deadline=None)
@given(ranks=st.lists(st.sampled_from(naive.NATURALS), min_size=2, max_size=3, unique=True),
       picks=st.lists(st.integers(0, 99), min_size=5, max_size=10),
       score=st.sampled_from([-100, 0, 1600, 3000]),
       ratio=st.sampled_from(["none", "le", "lt", "half"]))
def test_R26_R28_initial_meld_turns_match_reference(ranks, picks, score, ratio):
    """An unmelded side's draw turn: the tables the engine lets the meld phase end with
    (keeping two cards) are exactly those of the brute-force reference (R16, R18, R26-R28)."""
    pool = ranks * 4 + ["2", "JK", "3b"] + list(naive.NATURALS)
    hand = [pool[i % len(pool)] for i in picks]
    p = Position(f"classic(wild_ratio_rule={ratio})", scores=(score, 0)).hand(0, " ".join(hand))
    p.begin(0)
    want = naive.meld_turn_ends(hand, {}, naive.initial_minimum(score), ratio)
    assert stop_ends(p, 0) == want                                      # R26, R27, R28
