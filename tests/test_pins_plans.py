"""Pins before the kernels move: the going-out plans of a hand that can go out concealed or
not (kernels/game/plans.py; docs/moves.md "Going-out plans"; RULES.md R39-R44, R51-R54, 2.11).

Concealment is part of a plan's scoring state (docs/moves.md), and RULES.md 2.11 makes
every legal way of going out an option: when the concealed way and the other way score
differently, both must be in the list the policy chooses from, each with its own score.
Every expected score below is worked out from R4 (card values), R51 (canastas), R53
(going out 100, concealed 200) and R54 (meld points): a plan's score is the cards it
melds, the side's canasta bonuses after it and the going-out bonus.
"""
from canasta_sim.kernels.game import options, slots
from rules_helpers import DEAL_OVER, go_out
from scenario import Position


def partner_queens(hand):
    """Side 0's only meld is the partner's Q-Q-Q (seat 2 melded earlier); seat 0 never
    melded and holds ``hand`` after drawing."""
    p = Position().meld(0, "Q", "Q Q Q").melded_before(2).hand(0, hand)
    return p.begin(0)


def plan_set(p, seat=0):
    """The offered plans as (discard, concealed, score, placed) for set comparison."""
    return {(o["discard"], o["concealed"], o["score"], tuple(sorted(o["placed"].items())))
            for o in p.go_out_plans(seat)}


def offered_out_scores(p, seat=0):
    """The scores carried by the OPT_GO_OUT rows of the meld decision (what a policy sees)."""
    n = len(p.meld_options(seat))
    return sorted(int(p.opts[i, 4]) for i in range(n) if p.opts[i, 0] == options.OPT_GO_OUT)


def test_discarding_the_odd_queen_is_concealed_laying_it_on_the_partners_meld_is_not():
    """Hand 5x7 Q.  Discard the Q: seven 5s, the player's own natural canasta, nothing on
    the partner's meld -> concealed (R44): 35 + 500 + 200 = 735.  Lay the Q on the
    partner's queens and go out without a discard -> R44 (iii) fails: 35 + 10 + 500 + 100 =
    645.  Discarding a 5 leaves six 5s, no canasta (R40): not a plan."""
    p = partner_queens("5 5 5 5 5 5 5 Q")
    assert plan_set(p) == {
        ("Q", True, 735, (("5", (7, 0, 0)),)),
        (None, False, 645, (("5", (7, 0, 0)), ("Q", (1, 0, 0)))),
    }
    assert offered_out_scores(p) == [645, 735]
    # each plan, carried out, scores as listed (the partner's Q-Q-Q adds its 30, R54)
    q = partner_queens("5 5 5 5 5 5 5 Q")
    assert go_out(q, 0, discard="Q") == DEAL_OVER
    assert q.st[slots.ST_CONCEALED] == 1
    s = q.score()[0]
    assert (s["out_bonus"], s["natural"], s["score"]) == (200, 1, 735 + 30)
    q = partner_queens("5 5 5 5 5 5 5 Q")
    assert go_out(q, 0, discard=None) == DEAL_OVER
    assert q.st[slots.ST_CONCEALED] == 0
    s = q.score()[0]
    assert (s["out_bonus"], s["natural"], s["score"]) == (100, 1, 645 + 30)


def test_same_canastas_concealed_or_not_are_two_plans():
    """Hand 5x7 2 2 K: the K cannot be melded (one king, no meld of kings), so it is the
    discard; the two deuces go on the fives or on the partner's queens.  Cards melded:
    35 + 40 = 75.
      both on the fives: a mixed canasta of his own, partner untouched -> concealed:
          75 + 300 + 200 = 575;
      one on each: the same mixed canasta, but a card on the partner's meld -> not
          concealed: 75 + 300 + 100 = 475;
      both on the queens: the fives stay natural, not concealed: 75 + 500 + 100 = 675.
    The first two leave the same canastas and differ only by concealment and score: both
    are offered (docs/moves.md: concealment is part of the scoring state; 2.11)."""
    p = partner_queens("5 5 5 5 5 5 5 2 2 K")
    assert plan_set(p) == {
        ("K", True, 575, (("5", (7, 2, 0)),)),
        ("K", False, 475, (("5", (7, 1, 0)), ("Q", (0, 1, 0)))),
        ("K", False, 675, (("5", (7, 0, 0)), ("Q", (0, 2, 0)))),
    }
    assert offered_out_scores(p) == [475, 575, 675]
    # the concealed one, carried out: R44 holds and the bonus is 200, not 300 (R53)
    q = partner_queens("5 5 5 5 5 5 5 2 2 K")
    assert go_out(q, 0, discard="K", melds={"5": 9}) == DEAL_OVER
    assert q.st[slots.ST_CONCEALED] == 1
    s = q.score()[0]
    assert (s["out_bonus"], s["mixed"], s["score"]) == (200, 1, 575 + 30)
    q = partner_queens("5 5 5 5 5 5 5 2 2 K")
    assert go_out(q, 0, discard="K", melds={"5": 8, "Q": 1}) == DEAL_OVER
    assert q.st[slots.ST_CONCEALED] == 0
    s = q.score()[0]
    assert (s["out_bonus"], s["mixed"], s["score"]) == (100, 1, 475 + 30)


def test_a_seat_that_melded_before_gets_only_the_plans_that_are_not_concealed():
    """Control for the two tests above: the same hands after seat 0 melded earlier in the
    deal (R44 i) -- the concealed plans are gone, the other ones stay with their scores."""
    p = partner_queens("5 5 5 5 5 5 5 Q").melded_before(0).begin(0)
    assert plan_set(p) == {
        ("Q", False, 635, (("5", (7, 0, 0)),)),
        (None, False, 645, (("5", (7, 0, 0)), ("Q", (1, 0, 0)))),
    }
    p = partner_queens("5 5 5 5 5 5 5 2 2 K").melded_before(0).begin(0)
    assert plan_set(p) == {
        ("K", False, 475, (("5", (7, 2, 0)),)),
        ("K", False, 675, (("5", (7, 0, 0)), ("Q", (0, 2, 0)))),
    }
