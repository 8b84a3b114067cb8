"""Modern American's threes (A9-A11, A43): every three is laid face up in front of its owner and
replaced from the stock, except one a player may keep for the Straight while his side has not
melded.  A side's threes are counted by colour in ``threes[side, colour]`` (0 red, 1 black),
what A47 scores.  Laying and replacing them is a move of the turn:
:func:`.moves.lay_threes_nb`."""
from ...jit import kernel
from ..cards import BLACK3, RED3
from .rules_nb import Specials

RED = 0
BLACK = 1


@kernel
def threes_in_nb(hand):
    """Threes of both colours in ``hand``."""
    return hand[RED3] + hand[BLACK3]


@kernel
def may_keep_three_nb(mac, side_melded):
    """A10: a player may keep one three while his side has not melded, with a set of special
    hands that has the Straight (``cla`` and ``pagat``; not ``none``)."""
    return (not side_melded) and mac.mac_special_hands != Specials.NONE

