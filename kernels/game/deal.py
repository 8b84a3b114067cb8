"""Dealing a deal: deck, shuffle, deal, dealt red threes, upcard (R2, R5-R10)."""
from ..jit import kernel
from .cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, RED3
from .layout import EV_RED3, EV_START, EV_UPCARD, RED3_FROM_DEAL
from .rng import (
    GOLDEN,
    STREAM_DEALER,
    STREAM_DECK,
    below_nb,
    mix64_nb,
    rand_below_nb,
    seed_streams_nb,
)
from .rules_nb import Red3Timing
from .slots import (
    SEAT_MINIMUM,
    SEAT_RED3,
    SEAT_RED3_DEALT,
    SIDE_MINIMUM,
    SIDE_RED3,
    SIDE_RED3_DEALT,
    SIDE_SCORE_BEFORE,
    ST_CHECK_ON,
    ST_DEALER,
    ST_DECK_N,
    ST_FREEZERS,
    ST_LONE,
    ST_NSEATS,
    ST_NSIDES,
    ST_PART_SIDE,
    ST_PILE_N,
    ST_SIDE_OF,
    ST_STOCK_POS,
    ST_TRACE_ON,
    ST_UPCARDS,
)
from .state import freezes_pile_nb, in_cover_set_nb, initial_minimum_nb, side_of_nb
from .trace_events import ev_begin_nb, ev_push_nb


@kernel
def build_deck_nb(rules, deck):
    """R2: the unshuffled deck (num_packs packs of 52 plus num_jokers jokers); returns its size.
    The order depends only on the deck knobs, so rule sets with the same deck shuffle alike."""
    n = 0
    for _ in range(rules.num_packs):
        for kind in range(FIRST_NATURAL, ACE + 1):
            for _s in range(4):
                deck[n] = kind
                n += 1
        for _s in range(4):
            deck[n] = DEUCE
            n += 1
        for _s in range(2):
            deck[n] = RED3
            n += 1
        for _s in range(2):
            deck[n] = BLACK3
            n += 1
    for _ in range(rules.num_jokers):
        deck[n] = JOKER
        n += 1
    return n


@kernel
def shuffle_nb(deck, n, rng):
    """R6: a uniform Fisher-Yates shuffle of deck[:n] from the deal's deck stream.  The
    stream's state is stepped in a local and stored once at the end: the draws are those of
    ``rng.rand_below_nb`` on the stream, one per card, without a store and reload of the
    state between them."""
    state = rng[STREAM_DECK]
    for i in range(n - 1, 0, -1):
        state = state + GOLDEN                         # rng.next_u64_nb, in a register
        j = below_nb(mix64_nb(state), i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    rng[STREAM_DECK] = state


@kernel
def reset_state_nb(S):
    """Zero every array of a state tuple for a new deal."""
    hands = S.hands
    melds = S.melds
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    hands[:, :] = 0
    melds[:, :, :] = 0
    pile[:] = 0
    trace_on = st[ST_TRACE_ON]
    check_on = st[ST_CHECK_ON]
    st[:] = 0
    st[ST_TRACE_ON] = trace_on
    st[ST_CHECK_ON] = check_on
    seatv[:, :] = 0
    sidev[:, :] = 0


@kernel
def draw_card_nb(deck, st):
    """Pop the top stock card (-1 if the stock is empty)."""
    pos = st[ST_STOCK_POS]
    if pos >= st[ST_DECK_N]:
        return -1
    st[ST_STOCK_POS] = pos + 1
    return deck[pos]


@kernel
def deal_nb(rules, S, buf, seed, deal, dealer, scores_before):
    """Shuffle and deal deal ``deal`` (R5-R9) and turn the upcard (R7, R8).
    ``dealer`` < 0 draws the dealer from the deal's dealer stream."""
    deck = S.deck
    st = S.st
    rng = S.rng
    reset_state_nb(S)
    seed_streams_nb(rng, seed, deal)
    n = rules.num_players
    init_sides_nb(rules, st)
    size = build_deck_nb(rules, deck)
    st[ST_DECK_N] = size
    shuffle_nb(deck, size, rng)
    if dealer < 0:
        dealer = rand_below_nb(rng, STREAM_DEALER, n)                 # R5
    deal_from_deck_nb(rules, S, buf, dealer, scores_before)


@kernel
def init_sides_nb(rules, st):
    """The deal's seats and sides as they stand at the deal: sides alternate round the table
    (R1), and no lone hand or partnership has formed yet (C1).  Shared by :func:`deal_nb`
    and the analysis' replay of a traced deck."""
    n = rules.num_players
    st[ST_NSEATS] = n
    st[ST_NSIDES] = rules.num_sides
    st[ST_LONE] = -1                                                  # C1: no lone hand yet
    st[ST_PART_SIDE] = -1
    for s in range(n):
        st[ST_SIDE_OF + s] = s % rules.num_sides                      # R1: sides alternate


@kernel
def deal_from_deck_nb(rules, S, buf, dealer, scores_before):
    """Deal the deck ``S.deck`` as it lies (R6), record the sides' scores and minimums, lay
    the dealt red threes (R9) and turn the upcard (R7, R8): the part of a deal after the
    shuffle, shared by :func:`deal_nb` and the analysis' replay of a traced deck."""
    hands = S.hands
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    n = rules.num_players
    st[ST_DEALER] = dealer
    dealt = deal_hands_nb(S, dealer, n, rules.hand_size)
    st[ST_STOCK_POS] = dealt
    for k in range(rules.num_sides):
        sidev[k, SIDE_SCORE_BEFORE] = scores_before[k]
        sidev[k, SIDE_MINIMUM] = initial_minimum_nb(rules, scores_before[k])   # R27
    trace_start_nb(rules, S, buf, dealer, dealt)
    for s in range(n):
        side = side_of_nb(st, s)
        seatv[s, SEAT_MINIMUM] = sidev[side, SIDE_MINIMUM]           # R27; C9 own score
        sidev[side, SIDE_RED3_DEALT] += hands[s, RED3]
        seatv[s, SEAT_RED3_DEALT] = hands[s, RED3]                    # C4
    if rules.red3_replacement_timing == Red3Timing.AFTER_DEAL:
        for i in range(n):                                            # R9
            seat = (dealer + 1 + i) % n
            place_red3s_nb(S, buf, seat, RED3_FROM_DEAL)
    turn_upcard_nb(rules, S, buf)


@kernel
def deal_hands_nb(S, dealer, n, hand_size):
    """R6 (A5): deal ``hand_size`` cards to each of ``n`` seats from the top of ``S.deck``, one
    card at a time from the dealer's left; returns the number of cards dealt."""
    hands = S.hands
    deck = S.deck
    dealt = n * hand_size
    seat = dealer + 1 if dealer + 1 < n else 0
    for j in range(dealt):                       # one card at a time, from the dealer's left
        hands[seat, deck[j]] += 1
        seat = seat + 1 if seat + 1 < n else 0
    return dealt


@kernel
def trace_start_nb(rules, S, buf, dealer, dealt):
    """The trace's start event: every hand as dealt, then the stock (top first)."""
    deck = S.deck
    st = S.st
    n = rules.num_players
    pos = ev_begin_nb(st, buf, EV_START, dealer, 0, 0)
    if pos < 0:
        return
    for seat in range(n):
        for j in range(dealt):
            if (dealer + 1 + j) % n == seat:
                ev_push_nb(st, buf, pos, deck[j])
    for j in range(dealt, st[ST_DECK_N]):
        ev_push_nb(st, buf, pos, deck[j])


@kernel
def place_red3s_nb(S, buf, seat, source):
    """R9/R13: put every red three of ``seat``'s hand on its side's table, each replaced by
    the top stock card.  Returns True if a replacement was due from an empty stock (R47)."""
    hands = S.hands
    deck = S.deck
    st = S.st
    sidev = S.sidev
    side = side_of_nb(st, seat)
    empty = False
    while hands[seat, RED3] > 0:
        hands[seat, RED3] -= 1
        sidev[side, SIDE_RED3] += 1
        S.seatv[seat, SEAT_RED3] += 1                                 # C4: the seat's own
        card = draw_card_nb(deck, st)
        if card >= 0:
            hands[seat, card] += 1
        else:
            empty = True
        ev_begin_nb(st, buf, EV_RED3, seat, source, card)
    return empty


@kernel
def turn_upcard_nb(rules, S, buf):
    """R7: turn stock cards onto the pile until the top is out of the cover set; R8 freezing."""
    deck = S.deck
    pile = S.pile
    st = S.st
    pos = ev_begin_nb(st, buf, EV_UPCARD, -1, 0, 0)
    while True:
        card = draw_card_nb(deck, st)
        if card < 0:
            break
        pile[st[ST_PILE_N]] = card
        st[ST_PILE_N] += 1
        st[ST_UPCARDS] += 1
        if freezes_pile_nb(rules, card):
            st[ST_FREEZERS] += 1
        ev_push_nb(st, buf, pos, card)
        if not in_cover_set_nb(rules, card):
            break
