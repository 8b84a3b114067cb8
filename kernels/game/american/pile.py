"""Modern American's discard pile (A29-A31) and talons (A7, A32-A34).

The pile is always frozen: it is taken only with a natural pair of the top card's rank, melded
with it at once.  Talons are the bonus cards a side's opener receives after his discard.
"""
from ...jit import kernel
from ..cards import ACE, FIRST_NATURAL
from ..slots import M_SIZE, ST_DECK_N, ST_STOCK_POS
from .melds import is_dead_nb
from .rules_nb import TalonSource

TURN_CARD_STOCK = 8     # A7: the turn card has been drawn once the stock holds 8 or fewer
TALON_NONE = 0
TALON_FIRST = 1         # the talon of the first side to open (4 cards)
TALON_SECOND = 2        # the talon of a side that opens after the other (3 cards)


@kernel
def can_take_nb(mac, melds, side, hand, top, pile_n):
    """A29, A30: whether a player of ``side`` holding ``hand`` may take a pile of ``pile_n``
    cards whose top card is ``top``: a natural pair of its rank in the hand, the rank live for
    the side, and room for three more cards on the side's meld of it.  (A side that has not
    melded must also open in the same turn, A26: :func:`initial.opening_ok_nb`.)"""
    if pile_n <= 0 or top < FIRST_NATURAL or top > ACE:                 # A30: empty, wild
        return False
    if is_dead_nb(mac, melds, side, top):                               # A30, A22
        return False
    if hand[top] < 2:                                                   # A29
        return False
    return melds[side, M_SIZE, top] + 3 <= mac.mac_max_meld_size       # A30


@kernel
def stock_left_nb(st):
    """Cards left in the stock."""
    return st[ST_DECK_N] - st[ST_STOCK_POS]


@kernel
def turn_card_drawn_nb(stock_left):
    """A7: the turn card has been drawn once the stock holds 8 cards or fewer."""
    return stock_left <= TURN_CARD_STOCK


@kernel
def talon_earned_nb(stock_after_draw, took_pile, other_side_melded, side_had_talon):
    """A32: which talon the player who just made his side's initial meld earns: none if he took
    the pile, the turn card had been drawn or his side already had one; else the first
    talon if the other side has not melded, the second if it has."""
    if took_pile or side_had_talon or turn_card_drawn_nb(stock_after_draw):
        return TALON_NONE
    return TALON_SECOND if other_side_melded else TALON_FIRST


@kernel
def talon_size_nb(mac, which):
    """A32: the number of cards of talon ``which``."""
    if which == TALON_FIRST:
        return mac.talon_first
    if which == TALON_SECOND:
        return mac.talon_second
    return 0


@kernel
def set_aside_start_nb(mac, which):
    """A5: where set-aside talon ``which`` lies in the deck (after the dealt cards: first the
    first talon, then the second)."""
    dealt = mac.num_players * mac.hand_size
    return dealt if which == TALON_FIRST else dealt + mac.talon_first


@kernel
def take_talon_nb(mac, hand, deck, st, which):
    """A33, A34: put talon ``which`` into ``hand``: the top stock cards (``stock``, as many as
    are left), or the set-aside cards (``set_aside``).  Returns the number of cards taken."""
    size = talon_size_nb(mac, which)
    if mac.mac_talon_source == TalonSource.SET_ASIDE:
        start = set_aside_start_nb(mac, which)
        for i in range(size):
            hand[deck[start + i]] += 1
        return size
    n = 0
    while n < size and st[ST_STOCK_POS] < st[ST_DECK_N]:                # A34
        hand[deck[st[ST_STOCK_POS]]] += 1
        st[ST_STOCK_POS] += 1
        n += 1
    return n
