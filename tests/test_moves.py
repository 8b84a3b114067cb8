"""Every legal move offered (docs/moves.md): positions where an option used to be missing.

Each test builds a real position (tests/scenario.py) and asks the engine for its options,
or plays the turn through the engine's own turn loop.
"""
import pytest
from canasta_sim.kernels.game import moves, plans, slots
from canasta_sim.kernels.game.cards import TOKEN_TO_KIND
from canasta_sim.kernels.game.rng import seed_streams_nb
from rules_helpers import DEAL_OVER, apply_step, go_out, hand_size, side_melds, take
from scenario import Position

K = TOKEN_TO_KIND


def new_step(rank, n, d=0, j=0):
    """The OPT_NEW row of a new meld from the hand."""
    return [1, K[rank], n, d, j]


# ---- min_naturals_per_meld 1 and 4 (R18, R27) -----------------------------------------------

def test_one_natural_and_two_wild_cards_complete_an_initial_meld():
    """mn=1, needs 90: after 7-7-7 (15) the completion A-2-JK (90 with 7-7-7: 15+20+20+50)
    is a legal step, and the turn can still reach the minimum."""
    p = Position("classic(min_naturals_per_meld=1)", scores=(1600, 0))
    p.hand(0, "2 3b 4 7 7 7 8 9 A JK K Q").begin(0)
    assert ("new", "7", "3N") in p.meld_options(0)
    apply_step(p, 0, new_step("7", 3))
    p.st[slots.ST_TURN_MELDED] = 1
    options = p.meld_options(0)
    assert ("new", "A", "1N+2+JK") in options                         # R18 with mn=1
    assert ("stop",) not in options                                   # R26: 15 < 90


def test_four_naturals_make_a_new_meld_when_the_knob_asks_for_four():
    """mn=4: a new meld is four naturals (R18); three of a rank are not a meld."""
    p = Position("classic(min_naturals_per_meld=4)", scores=(0, 0))
    p.hand(0, "5 5 5 5 K K K K 9 9 9 Q").begin(0)
    options = p.meld_options(0)
    assert ("new", "5", "4N") in options and ("new", "K", "4N") in options
    assert not any(o[0] == "new" and o[1] == "9" for o in options)     # 3 nines: no meld


def test_min_naturals_zero_is_refused():
    from canasta_sim.errors import BadInput
    from canasta_sim.rules import parse_rules
    with pytest.raises(BadInput, match="min_naturals_per_meld"):
        parse_rules("classic(min_naturals_per_meld=0)")


# ---- going-out plans are choices (R39, RULES.md 2.11) ---------------------------------------

def test_a_canasta_may_stay_natural_by_discarding_the_deuce():
    """An unmelded side: eight 5s and three black threes, a deuce drawn.  Putting the deuce on
    the fives (mixed) and discarding it (natural, +200 more) are both plans."""
    p = Position(scores=(0, 0)).hand(0, "5 5 5 5 5 5 5 5 3b 3b 3b 2").begin(0)
    options = p.go_out_plans(0)
    by_discard = {(o["discard"], o["placed"].get("5")) for o in options}
    assert (None, (8, 1, 0)) in by_discard                           # deuce on the fives
    assert ("2", (8, 0, 0)) in by_discard                            # natural canasta kept
    assert all(o["concealed"] for o in options)                      # R44
    best = max(options, key=lambda o: o["score"])
    assert best["discard"] == "2"                                    # greedy's choice
    assert go_out(p, 0) == DEAL_OVER
    s = p.score()[0]
    assert s["natural"] == 1 and s["mixed"] == 0 and s["out_bonus"] == 200
    assert s["score"] == 500 + 200 + 40 + 15                         # R51, R53, R54


def test_after_a_yes_every_plan_is_offered():
    """The partner holds A-A-A; the player holds seven 5s and four aces, draws a deuce, asks
    and hears yes.  Discarding the deuce keeps both canastas natural."""
    p = Position(scores=(0, 0)).meld(0, "A", "A A A").hand(0, "5 5 5 5 5 5 5 A A A A 2")
    p.begin(0)
    p.st[slots.ST_TURN_ASK] = 1                                      # "yes" (R42)
    options = p.meld_options(0)
    assert ("stop",) not in options                                  # a yes binds
    plan_list = p.go_out_plans(0)
    scores = {o["discard"]: o["score"] for o in plan_list if o["discard"] in (None, "2")}
    natural_both = [o for o in plan_list if o["discard"] == "2"]
    assert natural_both and natural_both[0]["placed"]["5"] == (7, 0, 0)
    assert natural_both[0]["placed"]["A"] == (4, 0, 0)
    assert scores["2"] == 35 + 80 + 500 + 500 + 100                  # 1215: both natural
    assert max(o["score"] for o in plan_list) == scores["2"]
    assert any(o["score"] < scores["2"] for o in plan_list)           # the deuce on a meld


def test_plans_are_one_per_scoring_state():
    """Spare wild cards on melds that stay short of seven are not separate options."""
    p = Position(scores=(0, 0)).meld(0, "K", "K K K K K K K").meld(0, "9", "9 9 9")
    p.meld(0, "8", "8 8 8").hand(0, "2 6").melded_before(0).begin(0)
    options = p.go_out_plans(0)
    keys = {(o["discard"], tuple(sorted(o["placed"].items()))) for o in options}
    assert len(keys) == len(options)
    # discard the 6: the deuce on the K canasta (mixed) or on a short meld (K stays natural)
    sixes = [o for o in options if o["discard"] == "6"]
    assert len(sixes) == 2


# ---- take melds (R35, RULES.md 2.11, concealed_canasta_bonus) -------------------------------

def test_source_b_canasta_laid_as_a_take_meld_earns_the_bonus():
    """seed-b: a melded side takes the pile with 9-9; seven queens laid from the hand as a
    take meld are a canasta when the pile is taken (+100)."""
    p = Position("seed-b", scores=(0, 0)).meld(0, "4", "4 4 4").melded_before(0)
    p.hand(0, "9 9 Q Q Q Q Q Q Q 6 7").pile("5 8 9")
    assert take(p, 0, 2)
    assert p.meld_of(0, "Q") == (7, 0, 0)                            # greedy lays them first
    moves.end_turn_nb(p.nb, p.st, p.S.seatv, p.S.sidev, p.S.melds, 0)
    assert p.S.sidev[0, slots.SIDE_CONCEALED_CANASTAS] == 1
    assert p.score()[0]["canasta_bonus"] == 500 + 100


def test_take_melds_are_not_offered_twice_without_the_bonus():
    p = Position("classic", scores=(0, 0)).meld(0, "4", "4 4 4").melded_before(0)
    p.hand(0, "9 9 Q Q Q Q Q Q Q 6 7").pile("5 8 9")
    assert take(p, 0, 2)
    assert p.meld_of(0, "Q") == (0, 0, 0)                            # not before the join


def test_seed_a_take_that_reaches_the_minimum_only_by_going_out():
    """seed-a reading (no R30 exemption, no concealed take): needs 120, pile K, hand
    K K Q Q Q Q Q Q Q 2 5: K-K-K (30) + seven queens and the deuce (90) as take melds = 120,
    then the 5 is discarded and the player goes out."""
    rules = "classic(concealed_exempt_from_min_count=false,concealed_allows_pile_take=false)"
    p = Position(rules, scores=(3000, 0)).hand(0, "K K Q Q Q Q Q Q Q 2 5").pile("K")
    assert (2, 0, 0) in p.take_options(0)
    p = Position("seed-a", scores=(3000, 0)).hand(0, "K K Q Q Q Q Q Q Q 2 5").pile("K")
    assert (2, 0, 0) in p.take_options(0)


# ---- last_card_red3_may_meld (R47, RULES.md 2.11) -------------------------------------------

def test_last_card_red_three_may_meld_keeping_one_card():
    p = Position("classic(last_card_red3_may_meld=true)", scores=(0, 0))
    p.hand(0, "4 4 4 5 5 5 6 6 6 6 K").begin(0)
    p.st[slots.ST_TURN_LAST_RED3] = 1
    options = p.meld_options(0)
    assert ("new", "6", "3N") in options and ("stop",) in options
    for rank, n in (("4", 3), ("5", 3), ("6", 3)):
        apply_step(p, 0, new_step(rank, n))
        p.st[slots.ST_TURN_MELDED] = 1
    apply_step(p, 0, [2, K["6"], K["6"], 0, 0])
    assert hand_size(p, 0) == 1 and ("stop",) in p.meld_options(0)   # no discard follows
    assert not any(o[0] == "out" for o in p.meld_options(0))          # no canasta


def test_last_card_red_three_may_go_out_by_melding_everything():
    p = Position("classic(last_card_red3_may_meld=true)", scores=(0, 0))
    p.meld(0, "9", "9 9 9 9 9").melded_before(0).hand(0, "9 9 4 4 4").begin(0)
    p.st[slots.ST_TURN_LAST_RED3] = 1
    options = p.go_out_plans(0)
    assert options and all(o["discard"] is None for o in options)     # never a discard


# ---- R44 (i) and R30 through a pile take, from real earlier turns --------------------------

def _greedy(p):
    return p.policies("greedy", "greedy", "greedy", "greedy")


def test_a_pile_take_counts_as_melding_earlier_in_the_deal():
    """R44 (i): a seat whose only earlier meld was a pile take cannot go out concealed."""
    p = _greedy(Position(scores=(0, 0))).meld(0, "4", "4 4 4")
    p.hand(0, "8 8 K Q J 6 5 7 9 10 A").pile("5 8").stock("7 7 7 7")
    assert p.play_turn(0) == moves.CONTINUE
    assert p.meld_of(0, "8") == (3, 0, 0)                            # the take meld
    assert p.S.seatv[0, slots.SEAT_MELDED_BEFORE] == 1
    p.hand(0, "9 9 9 9 9 9 9 K").begin(0)                            # a later turn
    options = p.go_out_plans(0)
    assert options and not any(o["concealed"] for o in options)


def test_a_take_meld_is_the_players_own_canasta_for_r30():
    """R30 through a take: an unmelded side needing 120 takes K with six kings (a canasta,
    70 < 120); once the pile has joined, 8-8-8 and a discard go out concealed, exempt."""
    p = _greedy(Position(scores=(3000, 0))).hand(0, "K K K K K K 8 8 8").pile("4 K")
    assert (6, 0, 0) in p.take_options(0)
    seed_streams_nb(p.S.rng, 1, 1)
    assert p.play_turn(0) == DEAL_OVER
    assert p.st[slots.ST_CONCEALED] == 1 and hand_size(p, 0) == 0     # R44, R30
    assert side_melds(p, 0)["K"] == (7, 0, 0)
    assert p.score()[0]["out_bonus"] == 200


def test_r30_take_then_must_go_out():
    """After that take the meld phase offers only what leads to going out."""
    p = Position(scores=(3000, 0)).hand(0, "K K K K K K 8 8 8").pile("4 K")
    assert take(p, 0, 6)
    assert p.st[slots.ST_TURN_NEEDS_MIN] == 1                        # minimum unmet (R30)
    options = p.meld_options(0)
    assert ("stop",) not in options and any(o[0] == "out" for o in options)
    assert all(o["concealed"] for o in p.go_out_plans(0))


def test_plan_table_slot_for_checks_is_separate():
    assert plans.SCRATCH_PLAN == plans.MAX_PLANS - 1


def test_take_melds_of_the_whole_hand_then_the_joining_card_completes_a_canasta():
    """No R30 exemption, needs 90, pile 9 under a K: K-K-K (30) and six nines (60) as take
    melds reach 90 with the whole hand; the 9 that then joins the hand makes seven nines, a
    canasta, and the player goes out without a discard.  With a 5 under the K he cannot."""
    rules = "classic(concealed_exempt_from_min_count=false)"
    p = Position(rules, scores=(1600, 0)).hand(0, "K K 9 9 9 9 9 9").pile("9 K")
    assert (2, 0, 0) in p.take_options(0)
    q = Position(rules, scores=(1600, 0)).hand(0, "K K 9 9 9 9 9 9").pile("5 K")
    assert (2, 0, 0) not in q.take_options(0)
