"""RULES.md 0.1: a policy decides from public information and its own hand only.

Each test builds a random mid-deal position, lets seat 0 play a whole turn, then
rearranges every card hidden from seat 0 (the other hands, keeping their sizes,
and the stock below the cards seat 0 will draw) and plays the same turn again.
Seat 0's play must not change.
"""
import numpy as np
import pytest
from canasta_sim.kernels.game import slots
from scenario import random_position

FIXED_STOCK = 6          # stock cards seat 0 may draw (with red-three replacements)


def rearrange_hidden(pos, hands, stock, seed, known=None):
    """Shuffle the cards seat 0 cannot see: seats 1-3's hands (same sizes) and the stock
    below its first FIXED_STOCK cards.  ``known[seat]`` lists cards of a seat that are
    public (taken with the pile): they stay in that hand."""
    known = known or {}
    rng = np.random.default_rng(seed + 1_000_003)
    others = range(1, len(hands))
    hidden = {seat: list(hands[seat]) for seat in others}
    for seat, cards in known.items():
        for card in cards:
            hidden[seat].remove(card)
    pool = [c for seat in others for c in hidden[seat]] + stock[FIXED_STOCK:]
    rng.shuffle(pool)
    pos.S.hands[1:len(hands), :] = 0
    i = 0
    for seat in others:
        for card in known.get(seat, []):
            pos.S.hands[seat, card] += 1
        for _ in range(len(hidden[seat])):
            pos.S.hands[seat, pool[i]] += 1
            i += 1
    pos.S.deck[FIXED_STOCK:len(stock)] = pool[i:]
    assert i + len(stock) - FIXED_STOCK == len(pool)


def seat0_view(pos):
    """Everything seat 0's turn decided: its hand, the melds, the pile, the turn record."""
    hands = pos.S.hands
    melds = pos.S.melds
    pile = pos.S.pile
    st = pos.S.st
    sidev = pos.S.sidev
    return (hands[0].copy(), melds.copy(), pile[:st[slots.ST_PILE_N]].copy(),
            sidev.copy(), st[slots.ST_TURN_SEAT:slots.ST_TURN_DISCARDED + 1].copy())


POLICIES = ["random", "greedy", "careful", "rush", "builder", "expert",
            "careful(freeze_at=2,min_pile_take=1,wild_hold=0,danger=3)",
            "builder(go_out_margin=-1000,want_canastas=1)",
            "expert(endgame_stock=60,answer_max_hand=0,want_canastas=5)"]


def with_public_history(pos, hands, seed):
    """Give the position a public history: each seat's last discard, and up to two cards of
    each other seat's hand known to all because it took them with the pile.  Returns the
    known cards by seat."""
    rng = np.random.default_rng(seed + 7)
    known = {}
    for seat in range(len(hands)):
        pos.S.seatv[seat, slots.SEAT_LAST_DISCARD] = int(rng.integers(0, 16))
        if seat > 0:
            known[seat] = list(rng.permutation(hands[seat])[:int(rng.integers(0, 3))])
            for card in known[seat]:
                pos.S.seatv[seat, slots.SEAT_KNOWN + card] += 1
    return known


def hidden_cards_never_matter(policy, seeds, play=None, rules="classic"):
    """Play seat 0's turn of ``seeds`` random positions twice, the second time with every
    card hidden from it rearranged; its play must be the same.  ``play(pos)`` plays the turn
    (default: ``pos.play_turn(0)``).  Returns how many rearrangements moved a card."""
    changed = 0
    for seed in range(seeds):
        pos, hands, stock = random_position(seed, policy, rules)
        pos2, _, _ = random_position(seed, policy, rules)
        known = with_public_history(pos, hands, seed)
        with_public_history(pos2, hands, seed)
        rearrange_hidden(pos2, hands, stock, seed, known)
        changed += not np.array_equal(pos.S.deck, pos2.S.deck)
        for p in (pos, pos2):
            if play is None:
                p.play_turn(0)
            else:
                play(p)
        for a, b in zip(seat0_view(pos), seat0_view(pos2)):
            np.testing.assert_array_equal(a, b, err_msg=f"seed {seed}: seat 0 played "
                                          "differently when hidden cards moved")
    return changed


@pytest.mark.parametrize("policy", POLICIES)
def test_turn_does_not_depend_on_hidden_cards(policy):
    """Every policy and parameter set: a seat's turn sees only what RULES.md 0.1 allows."""
    assert hidden_cards_never_matter(policy, 150) > 100   # the rearrangement moved cards


@pytest.mark.parametrize("policy", POLICIES[:6])
def test_cutthroat_turn_does_not_depend_on_hidden_cards(policy):
    """Cutthroat (docs/cutthroat.md): roles and sides are public, hands are not, also
    between partners; before and after the partnership forms."""
    assert hidden_cards_never_matter(policy, 120, rules="cutthroat") > 80
