"""Dealing a Modern American deal (A2, A4-A7): the classic deck and shuffle, 13 cards to each
player one at a time from the dealer's left, no upcard, and with ``set_aside`` the two talons
laid apart after the dealt cards.  Dealt threes stay in the hands: A9 lays them in each
owner's first turn (``first_turn``) or all at once (``after_deal``), :mod:`.threes`."""
from ...jit import kernel
from ..deal import build_deck_nb, deal_hands_nb, init_sides_nb, reset_state_nb, shuffle_nb
from ..rng import STREAM_DEALER, rand_below_nb, seed_streams_nb
from ..slots import (
    SEAT_MINIMUM,
    SIDE_MINIMUM,
    SIDE_SCORE_BEFORE,
    ST_DEALER,
    ST_DECK_N,
    ST_STOCK_POS,
)
from .initial import mac_minimum_nb
from .melds import SIDES
from .rules_nb import TalonSource


@kernel
def deal_american_nb(mac, S, seed, deal, dealer, scores_before):
    """Shuffle and deal deal ``deal`` (A2, A4-A6): ``dealer`` < 0 draws the dealer from the
    deal's dealer stream, as classic does, so a seed shuffles both families alike."""
    st = S.st
    reset_state_nb(S)
    seed_streams_nb(S.rng, seed, deal)
    n = mac.num_players
    init_sides_nb(mac, st)                                              # A1
    size = build_deck_nb(mac, S.deck)                                   # A2
    st[ST_DECK_N] = size
    shuffle_nb(S.deck, size, S.rng)
    if dealer < 0:
        dealer = rand_below_nb(S.rng, STREAM_DEALER, n)                 # A4
    deal_cards_nb(mac, S, dealer, scores_before)


@kernel
def deal_cards_nb(mac, S, dealer, scores_before):
    """Deal the deck as it lies (A5), set the talons apart with ``set_aside`` (A5), and record
    the sides' scores and minimums (A24).  No upcard (A6): the pile stays empty."""
    st = S.st
    n = mac.num_players
    st[ST_DEALER] = dealer
    dealt = deal_hands_nb(S, dealer, n, mac.hand_size)   # A5: as classic's R6
    if mac.mac_talon_source == TalonSource.SET_ASIDE:
        dealt += mac.talon_first + mac.talon_second                      # A5: 4 + 3 aside
    st[ST_STOCK_POS] = dealt
    for k in range(SIDES):
        S.sidev[k, SIDE_SCORE_BEFORE] = scores_before[k]
        S.sidev[k, SIDE_MINIMUM] = mac_minimum_nb(mac, scores_before[k])  # A24
    for s in range(n):
        S.seatv[s, SEAT_MINIMUM] = S.sidev[s % SIDES, SIDE_MINIMUM]
