"""The initial meld: how much more can this turn still count? (R26-R28, R16)

A turn that has begun an initial meld, or a pile take of a side that has not melded,
may only take steps after which its minimum is still reachable.  These two functions
answer that exactly: the largest R28 count the hand can still add by new melds and
additions, with and without keeping cards back for the discard.
"""
import numpy as np

from ..jit import kernel
from .bits import lowest_bit_nb
from .cards import DEUCE, FIRST_NATURAL, JOKER, NKINDS
from .slots import M_NAT, WS_PAIR_NEED, WS_PAIR_VALUE
from .state import card_value_nb, meld_size_nb, row_total_nb, wild_capacity_nb


@kernel
def max_extra_count_nb(rules, hand_row, melds, side, ws):
    """The largest R28 count the hand could still add this turn by new melds and additions
    to the side's melds, ignoring R16.  Every natural that can be melded goes down; a rank
    held twice (or once, with ``min_naturals_per_meld=1``) becomes a meld only with one (two)
    wild cards; the wild cards left go wherever there is room, jokers first.  Which pairs and
    singles to complete is chosen exactly (the best few of each size for every split of the
    wild cards).  Returns (count, cards that configuration places, the fewest among the
    best)."""
    total = 0
    cards = 0
    room = 0
    pairs = ws[WS_PAIR_VALUE]            # values of completable pairs, then of singles
    singles = ws[WS_PAIR_NEED]
    n_pairs = 0
    n_singles = 0
    mn = rules.min_naturals_per_meld
    melded = 0                     # the ranks of each case, in one pass without branches
    opens = 0
    twos = 0
    ones = 0
    for r in range(FIRST_NATURAL, NKINDS):
        h = hand_row[r]
        size = meld_size_nb(melds, side, r)
        melded |= np.int64(size > 0) << r
        opens |= np.int64((size == 0) & (h >= 3) & (h >= mn)) << r
        twos |= np.int64((size == 0) & (h == 2)) << r
        ones |= np.int64((size == 0) & (h == 1)) << r
    while melded != 0:             # every natural held of a melded rank goes on its meld
        r = lowest_bit_nb(melded)
        melded &= melded - 1
        h = hand_row[r]
        total += h * card_value_nb(rules, r)
        cards += h
        room += wild_capacity_nb(rules, melds[side, M_NAT, r] + h) \
            - (meld_size_nb(melds, side, r) - melds[side, M_NAT, r])
    while opens != 0:              # a rank held three or more times is a new meld (R18)
        r = lowest_bit_nb(opens)
        opens &= opens - 1
        h = hand_row[r]
        total += h * card_value_nb(rules, r)
        cards += h
        room += wild_capacity_nb(rules, h)
    if mn <= 2 and wild_capacity_nb(rules, 2) >= 1:     # pairs a wild card completes
        while twos != 0:
            r = lowest_bit_nb(twos)
            twos &= twos - 1
            n_pairs = insert_desc_nb(pairs, n_pairs, 2 * card_value_nb(rules, r))
    if mn <= 1 and wild_capacity_nb(rules, 1) >= 2:     # singles two wild cards complete
        while ones != 0:
            r = lowest_bit_nb(ones)
            ones &= ones - 1
            n_singles = insert_desc_nb(singles, n_singles, card_value_nb(rules, r))
    wilds = hand_row[JOKER] + hand_row[DEUCE]
    gain_pair = wild_capacity_nb(rules, 2) - 1        # room a completed pair adds
    gain_single = wild_capacity_nb(rules, 1) - 2
    best = -1
    best_cards = 0
    single_value = 0
    for t1 in range(n_singles + 1):
        if t1 > 0:
            single_value += singles[t1 - 1]
        pair_value = 0
        for t2 in range(n_pairs + 1):
            if t2 > 0:
                pair_value += pairs[t2 - 1]
            used = 2 * t1 + t2
            if used > wilds:
                break
            placed = min(wilds, used + max(room + t1 * gain_single + t2 * gain_pair, 0))
            jokers = min(hand_row[JOKER], placed)
            count = total + single_value + pair_value + jokers * card_value_nb(rules, JOKER) \
                + (placed - jokers) * card_value_nb(rules, DEUCE)
            placed_cards = cards + t1 + 2 * t2 + placed
            if count > best or (count == best and placed_cards < best_cards):
                best = count
                best_cards = placed_cards
    return best, best_cards


@kernel
def insert_desc_nb(values, n, v):
    """Insert ``v`` into the descending list ``values[:n]``; returns n + 1."""
    i = n
    while i > 0 and values[i - 1] < v:
        values[i] = values[i - 1]
        i -= 1
    values[i] = v
    return n + 1


@kernel
def reachable_count_nb(rules, hand_row, melds, side, keep, ws):
    """The largest R28 count the hand can still add this turn while keeping at least ``keep``
    cards (R16), exactly: if the best configuration of :func:`max_extra_count_nb` leaves too
    few cards, the best over every choice of ``keep`` (at most 2) cards held back."""
    h = row_total_nb(hand_row)
    if h <= keep:
        return 0
    best, cards = max_extra_count_nb(rules, hand_row, melds, side, ws)
    if h - cards >= keep:
        return best
    best = 0
    for k1 in range(NKINDS):
        if hand_row[k1] == 0:
            continue
        hand_row[k1] -= 1
        if keep == 1:
            best = max(best, max_extra_count_nb(rules, hand_row, melds, side, ws)[0])
        else:
            for k2 in range(k1, NKINDS):
                if hand_row[k2] > 0:
                    hand_row[k2] -= 1
                    best = max(best, max_extra_count_nb(rules, hand_row, melds, side, ws)[0])
                    hand_row[k2] += 1
        hand_row[k1] += 1
    return best
