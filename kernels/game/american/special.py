"""Modern American's special hands (A51-A53): fourteen cards laid at once by a player whose
side has not melded, in a turn in which he drew from the stock.

A hand is a count vector; its natural cards form groups of one rank each (every card of a rank
in one group, groups of different ranks), and where a hand allows it its wild cards form one
wild group (reading 10).  :func:`special_hand_nb` names the best special hand a hand is."""
from ...jit import kernel
from ..cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, KING, RED3, SEVEN
from ..state import row_total_nb
from .rules_nb import Specials

SPECIAL_SIZE = 14       # A52
NONE = 0
PAIRS = 1
WILD_PAIRS = 2
MIAMI_PAIRS = 3
ZIP_CODE = 4
STRAIGHT = 5
GARBAGE = 6
BLAST_OFF = 7
TRIPLES = 8
QUADS = 9
DREAM_PLUS_4 = 10
DREAM_PLUS_5 = 11
NAMES = ("none", "pairs", "wild_pairs", "miami_pairs", "zip_code", "straight", "garbage",
         "blast_off", "triples", "quads", "dream_plus_4", "dream_plus_5")
"""The trace names of the special hands, by code."""
CLA_POINTS = (0, 2500, 2000, 2500, 2500, 3000, 3000, 3000, 3500, 3500, 8500, 8500)   # A51
PAGAT_POINTS = (0, 2500, 2000, 0, 0, 3000, 2000, 0, 0, 0, 0, 0)                       # A51


@kernel
def group_sizes_nb(hand, sizes):
    """Count the natural groups of ``hand`` by size: ``sizes[n]`` groups of n cards (n < 9)."""
    for n in range(sizes.shape[0]):
        sizes[n] = 0
    for r in range(FIRST_NATURAL, ACE + 1):
        if hand[r] > 0:
            sizes[hand[r]] += 1


@kernel
def groups_are_nb(sizes, g2, g3, g4, g5):
    """Whether the natural groups are exactly ``g2`` pairs, ``g3`` triples, ``g4`` quads and
    ``g5`` groups of five."""
    return sizes[1] == 0 and sizes[2] == g2 and sizes[3] == g3 and sizes[4] == g4 and \
        sizes[5] == g5 and sizes[6] == 0 and sizes[7] == 0 and sizes[8] == 0


@kernel
def wild_pair_nb(hand):
    """A51: the hand's wild cards are one wild pair, 2-2 or joker-joker."""
    return (hand[DEUCE] == 2 and hand[JOKER] == 0) or (hand[DEUCE] == 0 and hand[JOKER] == 2)


@kernel
def is_straight_nb(hand):
    """A51: one each of A, 2, 3, 4 ... K and a joker."""
    if hand[ACE] != 1 or hand[DEUCE] != 1 or hand[JOKER] != 1 or hand[RED3] + hand[BLACK3] != 1:
        return False
    for r in range(FIRST_NATURAL, KING + 1):
        if hand[r] != 1:
            return False
    return True


@kernel
def grouped_nb(sizes, wilds, pure_pair, g2, g3, g4, g5):
    """Groups of 2, 3, 4 and 5 cards (``g*`` of each), one of which may be the wild group of
    ``wilds`` cards (wild groups allowed: Zip Code, Blast Off); a wild group of two is a wild
    pair, 2-2 or joker-joker (``pure_pair``, A51, reading 10)."""
    if wilds == 0:
        return groups_are_nb(sizes, g2, g3, g4, g5)
    return (wilds == 2 and pure_pair and g2 > 0 and groups_are_nb(sizes, g2 - 1, g3, g4, g5)) or \
        (wilds == 3 and g3 > 0 and groups_are_nb(sizes, g2, g3 - 1, g4, g5)) or \
        (wilds == 4 and g4 > 0 and groups_are_nb(sizes, g2, g3, g4 - 1, g5)) or \
        (wilds == 5 and g5 > 0 and groups_are_nb(sizes, g2, g3, g4, g5 - 1))


@kernel
def hand_fits_nb(hand, sizes, code, pagat):
    """Whether ``hand`` (14 cards, its natural groups counted in ``sizes``) is special hand
    ``code`` (A51; ``pagat``: pagat's Wild Pairs, whose wild pair is 2-2)."""
    threes = hand[RED3] + hand[BLACK3]
    if code == STRAIGHT:
        return is_straight_nb(hand)
    if threes > 0:
        return False
    wilds = hand[DEUCE] + hand[JOKER]
    if code == PAIRS or code == GARBAGE:
        return wilds == 0 and (groups_are_nb(sizes, 7, 0, 0, 0) if code == PAIRS
                               else groups_are_nb(sizes, 0, 2, 2, 0))
    if code == WILD_PAIRS:
        ok = hand[DEUCE] == 2 and hand[JOKER] == 0 if pagat else wild_pair_nb(hand)
        return ok and hand[ACE] == 2 and hand[SEVEN] == 2 and groups_are_nb(sizes, 6, 0, 0, 0)
    if code == MIAMI_PAIRS:
        return hand[DEUCE] == 2 and hand[JOKER] == 2 and hand[ACE] == 2 and \
            hand[SEVEN] == 2 and groups_are_nb(sizes, 5, 0, 0, 0)
    if code == ZIP_CODE:
        return grouped_nb(sizes, wilds, wild_pair_nb(hand), 2, 2, 1, 0)
    if code == BLAST_OFF:
        return grouped_nb(sizes, wilds, wild_pair_nb(hand), 1, 1, 1, 1)
    if code == TRIPLES or code == QUADS:
        return wild_pair_nb(hand) and (groups_are_nb(sizes, 0, 4, 0, 0) if code == TRIPLES
                                       else groups_are_nb(sizes, 0, 0, 3, 0))
    if code == DREAM_PLUS_4:
        return wilds == 4 and groups_are_nb(sizes, 0, 0, 0, 2)
    if code == DREAM_PLUS_5:
        return wilds == 5 and groups_are_nb(sizes, 0, 0, 1, 1)
    return False


@kernel
def special_points_nb(mac, code):
    """A51: the value of special hand ``code`` in the rule set's set (0 if not in it)."""
    if mac.mac_special_hands == Specials.CLA:
        return CLA_POINTS[code]
    if mac.mac_special_hands == Specials.PAGAT:
        return PAGAT_POINTS[code]
    return 0


@kernel
def special_hand_nb(mac, hand, sizes):
    """A51, A52: (code, points) of the most valuable special hand of the rule set's set that
    the 14 cards of ``hand`` make, or (NONE, 0); ``sizes`` (int64[9]) is scratch."""
    if row_total_nb(hand) != SPECIAL_SIZE:
        return NONE, 0
    group_sizes_nb(hand, sizes)
    if sizes[1] > 0 or hand[RED3] + hand[BLACK3] > 0:
        value = special_points_nb(mac, STRAIGHT)      # A51: every other special hand is
        if value > 0 and is_straight_nb(hand):        # groups of two or more, no three
            return STRAIGHT, value
        return NONE, 0
    pagat = mac.mac_special_hands == Specials.PAGAT
    best = NONE
    points = 0
    for code in range(1, DREAM_PLUS_5 + 1):
        value = special_points_nb(mac, code)
        if value > points and hand_fits_nb(hand, sizes, code, pagat):
            best = code
            points = value
    return best, points


@kernel
def wins_game_nb(code):
    """A53: a Dream Hand ends the game, won by its side."""
    return code == DREAM_PLUS_4 or code == DREAM_PLUS_5
