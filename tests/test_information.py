"""RULES.md 0.1: a policy decides from public information and its own hand only.

Each test builds a random mid-deal position, lets seat 0 play a whole turn, then
rearranges every card hidden from seat 0 (the other hands, keeping their sizes,
and the stock below the cards seat 0 will draw) and plays the same turn again.
Seat 0's play must not change.
"""
import numpy as np
import pytest

from canasta_sim.kernels import state
from canasta_sim.kernels.cards import NKINDS, RED3
from canasta_sim.kernels.rng import seed_streams_nb
from scenario import Position

FIXED_STOCK = 6          # stock cards seat 0 may draw (with red-three replacements)


def deck_cards(rng):
    deck = []
    for kind in range(NKINDS):
        if kind == RED3:
            continue              # red threes would be laid out at once; keep positions simple
        deck += [kind] * (4 if kind == 0 else 8 if kind != 3 else 4)
    deck = np.array(deck)
    rng.shuffle(deck)
    return list(deck)


def random_position(seed: int, policy: str):
    """A position with random hands, melds and pile; returns (position, hidden cards layout)."""
    rng = np.random.default_rng(seed)
    cards = deck_cards(rng)
    pos = Position().policies(policy, policy, policy, policy)
    sizes = rng.integers(2, 14, size=4)
    hands = []
    for seat in range(4):
        hands.append([cards.pop() for _ in range(int(sizes[seat]))])
    # melds: a few legal melds per side from natural triples
    for side in range(2):
        for _ in range(int(rng.integers(0, 4))):
            rank = int(rng.integers(4, 15))
            if pos.S[1][side, rank].sum() or cards.count(rank) < 3:
                continue
            for _ in range(3 + int(rng.integers(0, 4))):
                if rank in cards:
                    cards.remove(rank)
                    pos.S[1][side, rank, state.M_NAT] += 1
            pos.S[6][side, state.SIDE_MELDED] = 1
    pile = [cards.pop() for _ in range(int(rng.integers(0, 12)))]
    for seat, hand in enumerate(hands):
        for k in hand:
            pos.S[0][seat, k] += 1
    n = len(pile)
    pos.S[3][:n] = pile
    pos.st[state.ST_PILE_N] = n
    pos.st[state.ST_FREEZERS] = sum(1 for c in pile if state.freezes_pile_nb(pos.nb, c))
    pos.S[2][:len(cards)] = cards
    pos.st[state.ST_STOCK_POS] = 0
    pos.st[state.ST_DECK_N] = len(cards)
    seed_streams_nb(pos.S[7], seed, 0)
    return pos, hands, cards


def rearrange_hidden(pos, hands, stock, seed):
    """Shuffle the cards seat 0 cannot see: seats 1-3's hands (same sizes) and the stock
    below its first FIXED_STOCK cards."""
    rng = np.random.default_rng(seed + 1_000_003)
    pool = [c for h in hands[1:] for c in h] + stock[FIXED_STOCK:]
    rng.shuffle(pool)
    pos.S[0][1:4, :] = 0
    i = 0
    for seat in (1, 2, 3):
        for _ in range(len(hands[seat])):
            pos.S[0][seat, pool[i]] += 1
            i += 1
    pos.S[2][FIXED_STOCK:len(stock)] = pool[i:]
    assert i + len(stock) - FIXED_STOCK == len(pool)


def seat0_view(pos):
    """Everything seat 0's turn decided: its hand, the melds, the pile, the turn record."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = pos.S
    return (hands[0].copy(), melds.copy(), pile[:st[state.ST_PILE_N]].copy(),
            sidev.copy(), st[state.ST_TURN_SEAT:state.ST_TURN_DISCARDED + 1].copy())


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_turn_does_not_depend_on_hidden_cards(policy):
    changed = 0
    for seed in range(150):
        pos, hands, stock = random_position(seed, policy)
        pos2, _, _ = random_position(seed, policy)
        rearrange_hidden(pos2, hands, stock, seed)
        changed += not np.array_equal(pos.S[2], pos2.S[2])
        pos.play_turn(0)
        pos2.play_turn(0)
        for a, b in zip(seat0_view(pos), seat0_view(pos2)):
            np.testing.assert_array_equal(a, b, err_msg=f"seed {seed}: seat 0 played "
                                          "differently when hidden cards moved")
    assert changed > 100            # the rearrangement really changed hidden cards
