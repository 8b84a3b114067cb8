"""Pins before the kernels move: pile takes around a six-card meld that already holds its
wild-card limit (kernels/game/options.py take options, kernels/game/plans.py; docs/moves.md "take";
RULES.md R16, R18, R19, R33-R36, R39, R40).

docs/moves.md: a take is offered if and only if its first take meld is legal (R18, R19) and
the turn can still end legally after it.  A meld holds at most three wild cards, always
(R19), so a wild card that joins the hand from the pile can never go on a meld that holds
three already; when only that could have finished the turn, the take must not be offered.
``Position.take_options(seat)`` lists the legal takes as (naturals, deuces, jokers) from
the hand that join the top card.
"""
import pytest
from rules_helpers import side0, take
from scenario import Position


def test_no_take_puts_a_fourth_wild_card_on_a_meld():
    """Side 0 has K-K-K-2-2-JK (six cards, three wild cards); pile 5 K (not frozen); hand
    K K 2.  The top K joins the kings with no, one or two kings from the hand (R34 c, a);
    the deuce can never join (a fourth wild card, R19), so no take uses it."""
    p = side0(**{"K": "K K K 2 2 Jk"}).hand(0, "K K 2").pile("5 K")
    assert sorted(p.take_options(0)) == [(0, 0, 0), (1, 0, 0), (2, 0, 0)]


@pytest.mark.parametrize("pile, offered", [
    ("2 K", []),              # the deuce joins: no room on the nines, no canasta to go out
    ("Jk K", []),             # the same with a joker
    ("9 K", [(2, 0, 0)]),     # a nine joins and completes the nines: out without a discard
])
def test_melded_side_wild_card_from_the_pile_cannot_complete_a_full_six_card_meld(pile,
                                                                                   offered):
    """Side 0 has 9-9-9-2-2-JK (six cards, the wild-card limit) and no canasta; hand K K;
    the card under the top K decides.  Taking with K K (the only way: R33 if the pile
    holds a wild card, R34 a otherwise) empties the hand and the card under the top joins
    it (R36).  A deuce or joker cannot go on the nines (R19); put on K-K-K it leaves no
    canasta, and discarding it empties the hand without one (R40): no legal end (R16),
    no take.  A nine makes seven nines, a canasta, and the player goes out (R39)."""
    p = side0(**{"9": "9 9 9 2 2 Jk"}).hand(0, "K K").pile(pile)
    assert p.take_options(0) == offered


@pytest.mark.parametrize("pile", ["2 K", "Jk K"])
def test_melded_side_wild_card_joins_a_six_card_meld_with_room(pile):
    """Control: side 0 has 9-9-9-9-2-2 (six cards, two wild cards): the wild card that
    joins makes it 4N + 3W, a mixed canasta, and the player goes out: the take is offered."""
    p = side0(**{"9": "9 9 9 9 2 2"}).hand(0, "K K").pile(pile)
    assert p.take_options(0) == [(2, 0, 0)]


def test_the_offered_take_really_finishes():
    """The take offered with a nine under the K, carried out: K-K-K is laid, the nine joins
    the hand and the only going-out plan puts it on the nines -- 9-9-9-9-2-2-JK, a mixed
    canasta -- with no discard; not concealed (the canasta is a meld from before the turn,
    R44 iii-iv): 10 + 300 + 100 = 410 (R4, R51, R53)."""
    p = side0(**{"9": "9 9 9 2 2 Jk"}).hand(0, "K K").pile("9 K")
    assert take(p, 0, 2)
    assert p.meld_of(0, "K") == (3, 0, 0) and p.hand_of(0) == {"9": 1}
    assert [(o["discard"], o["concealed"], o["score"], o["placed"])
            for o in p.go_out_plans(0)] == [(None, False, 410, {"9": (1, 0, 0)})]


@pytest.mark.parametrize("rules", ["classic", "classic(concealed_exempt_from_min_count=false)"])
@pytest.mark.parametrize("pile, offered", [
    ("2 K", []),
    ("Jk K", []),
    ("K K", [(2, 0, 0), (2, 1, 0), (2, 2, 0), (2, 3, 0)]),
])
def test_unmelded_whole_hand_take_then_a_wild_card_cannot_complete_the_six_card_meld(
        rules, pile, offered):
    """Side 0 has not melded and needs 90 (score 1600, R27); hand K K 2 2 2; one card under
    the top K.  The pile is frozen for the side (R32): K K from the hand (R33).  The
    minimum is reached only by the whole hand: K-K-K-2-2-2 = 30 + 60 = 90 (R28, R35),
    laid as the first take meld or as the take meld and then more take melds; it is a
    six-card meld with three wild cards and the hand is then empty.  The card under the
    top joins (R36):
      a K goes on the kings: seven cards, a mixed canasta, out without a discard (R39,
          R40) -- every (2, d, 0) is offered;
      a deuce or joker cannot go on the kings (R19); discarding it leaves no canasta
          (R40), and no concealed going-out (R30) exists either: no take is offered.
    Stopping the take melds short of 90 is not allowed (R35), so nothing else can end the
    turn."""
    p = Position(rules, scores=(1600, 0)).hand(0, "K K 2 2 2").pile(pile)
    assert p.take_options(0) == offered
