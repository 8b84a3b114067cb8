"""Modern American's initial meld (A24-A28): the minimum, what counts toward it, the clean
triple, no dirty canasta in the opening turn, and the Splash.

The opening turn's melds are described by ``laid``, an int64[M_COLS, MELD_KINDS] table of the
cards the player put on new melds this turn (the take pair included in its row, the top card
of a taken pile not), and ``take_row``, the rank of a pile take in this turn (-1 if none).
"""
from ...jit import kernel
from ..cards import ACE, DEUCE, FIRST_NATURAL, JOKER
from ..slots import M_DEUCE, M_JOKER, M_NAT, M_SIZE
from ..state import initial_minimum_nb
from .melds import CANASTA, WILD_ROW, is_dead_nb, mac_card_value_nb, wilds_on_nb
from .rules_nb import MacNeeds


@kernel
def mac_minimum_nb(mac, score):
    """A24: the minimum of a side whose cumulative score is ``score`` (125, 155, 180; a
    negative score is below 3,000)."""
    return initial_minimum_nb(mac, score)


@kernel
def opening_count_nb(mac, laid, take_row):
    """A25b: the count of an opening: card values of the hand cards in ``laid``, less the take
    pair unless ``mac_take_pair_counts``; the top card counts only with
    ``top_card_counts_for_minimum``.  Bonuses and threes never count."""
    count = 0
    for row in range(laid.shape[1]):
        count += laid[M_NAT, row] * mac_card_value_nb(mac, row)
        count += laid[M_DEUCE, row] * mac_card_value_nb(mac, DEUCE)
        count += laid[M_JOKER, row] * mac_card_value_nb(mac, JOKER)
    if take_row >= 0:
        if not mac.mac_take_pair_counts:
            count -= 2 * mac_card_value_nb(mac, take_row)                 # A25b, DA3
        if mac.top_card_counts_for_minimum:
            count += mac_card_value_nb(mac, take_row)
    return count


@kernel
def has_clean_triple_nb(mac, melds, side, laid, take_row):
    """A25a: a meld laid this turn from at least 3 natural hand cards of one live rank with no
    wild card on it, not the take meld (reading 8); with ``clean_or_wild`` a wild meld of 3
    or more laid this turn stands in for it."""
    for row in range(FIRST_NATURAL, ACE + 1):
        if row == take_row or laid[M_NAT, row] < 3 or wilds_on_nb(melds, side, row) > 0:
            continue
        if melds[side, M_SIZE, row] == laid[M_SIZE, row] and (
                melds[side, M_SIZE, row] >= CANASTA or not is_dead_nb(mac, melds, side, row)):
            return True
    return mac.mac_initial_meld_needs == MacNeeds.CLEAN_OR_WILD and laid[M_SIZE, WILD_ROW] >= 3


@kernel
def dirty_canasta_nb(melds, side):
    """A25c: ``side`` holds a dirty canasta (a natural rank with a wild card, 7 cards)."""
    for row in range(FIRST_NATURAL, ACE + 1):
        if melds[side, M_SIZE, row] >= CANASTA and wilds_on_nb(melds, side, row) > 0:
            return True
    return False


@kernel
def is_splash_nb(mac, melds, side, laid, take_row):
    """A28: with ``mac_splash``, a complete clean canasta or wild canasta laid wholly from the
    hand this turn (reading 14)."""
    if not mac.mac_splash:
        return False
    for row in range(laid.shape[1]):
        if row == take_row or laid[M_SIZE, row] < CANASTA:
            continue
        if laid[M_SIZE, row] != melds[side, M_SIZE, row]:
            continue
        if row == WILD_ROW or wilds_on_nb(melds, side, row) == 0:
            return True
    return False


@kernel
def opening_ok_nb(mac, melds, side, laid, take_row, minimum):
    """A25-A28: whether the melds the side laid this turn (``melds`` after them, ``laid`` the
    hand cards on new melds) make a legal initial meld against ``minimum``."""
    if dirty_canasta_nb(melds, side):                                     # A25c
        return False
    if is_splash_nb(mac, melds, side, laid, take_row):                   # A28
        return True
    if not has_clean_triple_nb(mac, melds, side, laid, take_row):        # A25a
        return False
    return opening_count_nb(mac, laid, take_row) >= minimum              # A25b


@kernel
def opening_lost_nb(mac, melds, side, laid, take_row, hand):
    """Whether no further steps from ``hand`` (the cards the opening's steps come from) can
    make the side's tentative opening stand, whatever they are: a dirty canasta is laid
    (A25c), or no clean triple is laid (A25a) and none can be, since every rank held three
    times or more already has a meld (a wild card on it, or the take's, reading 8) or is dead
    (A22).  Never with ``mac_splash`` or ``clean_or_wild`` (a Splash or a wild meld could
    still make it: not worked out, so never called lost)."""
    if mac.mac_splash or mac.mac_initial_meld_needs == MacNeeds.CLEAN_OR_WILD:
        return False
    if dirty_canasta_nb(melds, side):                                     # A25c
        return True
    if has_clean_triple_nb(mac, melds, side, laid, take_row):            # A25a
        return False
    for row in range(FIRST_NATURAL, ACE + 1):
        if hand[row] >= 3 and row != take_row and melds[side, M_SIZE, row] == 0 and \
                not is_dead_nb(mac, melds, side, row):
            return False                        # a new clean triple can still be laid
    return True


@kernel
def opening_possible_nb(mac, melds, side, hand, take_row, minimum):
    """A necessary condition for an initial meld from ``hand`` (the cards held before a take
    when ``take_row`` >= 0): a clean triple can be laid (A25a) and every card that could go
    on a meld counts at least ``minimum`` (A25b), or a Splash is in reach (A28).  False means
    no sequence of steps can make an opening stand, so the turn does not try one."""
    return opening_within_nb(mac, melds, side, hand, take_row, minimum, 0)


@kernel
def opening_within_nb(mac, melds, side, hand, take_row, minimum, shunned):
    """:func:`opening_possible_nb` for a player who never melds the natural rows of bitmask
    ``shunned`` in this opening (a player's own rule: greedy starts no sevens or aces meld
    short of five): those cards are left out of the condition."""
    wild = hand[DEUCE] + hand[JOKER]
    if mac.mac_splash and wild >= CANASTA:
        return True
    triple = mac.mac_initial_meld_needs == MacNeeds.CLEAN_OR_WILD and wild >= 3
    count = wild * 20 + hand[JOKER] * 30
    pairs = 0                         # ranks held twice: each needs a wild card to meld (A19)
    for row in range(ACE, FIRST_NATURAL - 1, -1):
        held = hand[row]
        if held == 0 or (shunned >> row) & 1 == 1 or is_dead_nb(mac, melds, side, row):
            continue
        if mac.mac_splash and held >= CANASTA:
            return True
        if held >= 3 and row != take_row:
            triple = True
        if row == take_row or held >= 3:
            count += held * mac_card_value_nb(mac, row)
        elif held == 2:
            pairs += 1
            if pairs <= wild:         # the higher ranks first: card values fall with rank
                count += 2 * mac_card_value_nb(mac, row)
    if take_row >= 0:
        count += 3 * mac_card_value_nb(mac, take_row)           # the take meld, at most
    return triple and count >= minimum
