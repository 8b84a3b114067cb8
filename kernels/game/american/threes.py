"""Modern American's threes (A9-A11, A43): every three is laid face up in front of its owner and
replaced from the stock, except one a player may keep for the Straight while his side has not
melded.  A side's threes are counted by colour in ``threes[side, colour]`` (0 red, 1 black),
what A47 scores."""
from ...jit import kernel
from ..cards import BLACK3, RED3
from ..slots import ST_DECK_N, ST_STOCK_POS
from .rules_nb import Specials

RED = 0
BLACK = 1
THREES_LAID = 0         # every three due was laid and replaced
THREES_STOCK_OUT = 1    # A43: a three needed a replacement from an empty stock: the deal ends


@kernel
def threes_in_nb(hand):
    """Threes of both colours in ``hand``."""
    return hand[RED3] + hand[BLACK3]


@kernel
def lay_threes_nb(hand, deck, st, threes, side, keep):
    """A9, A10, A43: lay every three of ``hand`` but ``keep`` (0 or 1) in front of ``side``, each
    replaced by the top stock card; a replacement three is laid and replaced too.  A three
    that would need a replacement from an empty stock stays in the hand and the deal ends
    (returns THREES_STOCK_OUT; else THREES_LAID)."""
    while threes_in_nb(hand) > keep:
        if st[ST_STOCK_POS] >= st[ST_DECK_N]:                           # A43
            return THREES_STOCK_OUT
        if hand[RED3] > 0 and (hand[RED3] > 1 or hand[BLACK3] == 0 or keep == 0):
            hand[RED3] -= 1                                             # A9; a kept three is
            threes[side, RED] += 1                                      # red if one is held
        else:
            hand[BLACK3] -= 1
            threes[side, BLACK] += 1
        hand[deck[st[ST_STOCK_POS]]] += 1
        st[ST_STOCK_POS] += 1
    return THREES_LAID


@kernel
def may_keep_three_nb(mac, side_melded):
    """A10: a player may keep one three while his side has not melded, with a set of special
    hands that has the Straight (``cla`` and ``pagat``; not ``none``)."""
    return (not side_melded) and mac.mac_special_hands != Specials.NONE


@kernel
def draw_nb(hand, deck, st, threes, side, keep):
    """A13, A9, A43: draw the top stock card into ``hand``; a three drawn is laid and replaced
    at once (keeping at most ``keep``).  Returns the card drawn (-1 if the stock is empty)
    and whether the deal ends (a three met an empty stock, A43)."""
    if st[ST_STOCK_POS] >= st[ST_DECK_N]:
        return -1, False
    card = deck[st[ST_STOCK_POS]]
    st[ST_STOCK_POS] += 1
    hand[card] += 1
    return card, lay_threes_nb(hand, deck, st, threes, side, keep) == THREES_STOCK_OUT
