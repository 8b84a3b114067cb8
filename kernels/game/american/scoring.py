"""Scoring a Modern American deal for one side (A42, A45-A50, A53): the items of the
trace's ``score`` record, signed by the canasta-count rule (A49).

``out`` receives the items at the indices ``I_*`` below, ``I_TOTAL`` their sum."""
from ...jit import kernel
from ..cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3, SEVEN
from ..slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    ST_DECK_N,
    ST_NSEATS,
    ST_PILE_N,
    ST_STOCK_POS,
    WS_CHECK_HAVE,
)
from ..state import melds_consistent_nb
from .melds import CANASTA, SIDES, WILD_ROW, canastas_nb, mac_card_value_nb, wilds_on_nb
from .pile import TALON_FIRST, TALON_SECOND, set_aside_start_nb, talon_size_nb
from .rules_nb import TalonSource
from .threes import BLACK, RED

I_CANASTAS = 0        # completed canastas (a count, not points)
I_CANASTA_BONUS = 1   # A45
I_OUT = 2             # A42
I_MELDS = 3           # card values of melded cards, signed by A49
I_THREES = 4          # A47, signed by A49
I_INCOMPLETE = 5      # A46 (<= 0)
I_HAND = 6            # A48 card values (<= 0)
I_HAND_PENALTY = 7    # A48 three aces or three sevens (<= 0)
I_SPECIAL = 8         # A53
I_TOTAL = 9
N_ITEMS = 10


@kernel
def canasta_bonus_nb(mac, melds, side, row):
    """A45: the bonus of ``side``'s meld of ``row`` if it is a canasta, else 0."""
    if melds[side, M_SIZE, row] < CANASTA:
        return 0
    if row == WILD_ROW:
        if melds[side, M_DEUCE, row] >= CANASTA:
            return mac.bonus_deuces
        if melds[side, M_JOKER, row] == 4:
            return mac.bonus_four_jokers
        return mac.bonus_wild
    if wilds_on_nb(melds, side, row) > 0:
        return mac.bonus_dirty
    if row == ACE:
        return mac.bonus_aces
    if row == SEVEN:
        return mac.bonus_sevens
    return mac.bonus_clean


@kernel
def incomplete_penalty_nb(mac, melds, side, row):
    """A46: the penalty (a positive number) of ``side``'s meld of ``row`` if it is an incomplete
    clean ace meld, sevens meld or wild meld, else 0."""
    size = melds[side, M_SIZE, row]
    if size <= 0 or size >= CANASTA:
        return 0
    if row == WILD_ROW:
        if melds[side, M_JOKER, row] == 4:
            return mac.mac_wild_meld_penalty_four_jokers
        return mac.penalty_wild
    if row == SEVEN:
        return mac.penalty_sevens
    if row == ACE and wilds_on_nb(melds, side, row) == 0:
        return mac.penalty_aces
    return 0


@kernel
def three_points_nb(mac, count):
    """A47: points of ``count`` threes of one colour."""
    if count <= 0:
        return 0
    if count == 1:
        return mac.three_score1
    if count == 2:
        return mac.three_score2
    if count == 3:
        return mac.three_score3
    return mac.three_score4


@kernel
def melded_value_nb(mac, melds, side):
    """Card values of every card on ``side``'s melds."""
    total = 0
    for row in range(FIRST_NATURAL, ACE + 1):
        total += melds[side, M_NAT, row] * mac_card_value_nb(mac, row)
    for row in range(WILD_ROW, ACE + 1):
        total += melds[side, M_DEUCE, row] * mac_card_value_nb(mac, DEUCE)
        total += melds[side, M_JOKER, row] * mac_card_value_nb(mac, JOKER)
    return total


@kernel
def hand_items_nb(mac, hand):
    """A48: (card values, the extra penalty) of one player's hand, both positive."""
    value = 0
    for k in range(NKINDS):
        value += hand[k] * mac_card_value_nb(mac, k)
    extra = 0
    if hand[ACE] >= 3:
        extra += mac.mac_hand_triple_penalty
    if hand[SEVEN] >= 3:
        extra += mac.mac_hand_triple_penalty
    return value, extra


@kernel
def score_side_nb(mac, melds, side, threes, hands, seat_a, seat_b, went_out, out):
    """A42, A45-A49: fill ``out`` (N_ITEMS) with ``side``'s deal score; its players are
    ``seat_a`` and ``seat_b`` of ``hands``; ``went_out``: one of them went out.  Returns
    the total."""
    c = canastas_nb(melds, side)
    bonus = 0
    incomplete = 0
    for row in range(WILD_ROW, ACE + 1):
        bonus += canasta_bonus_nb(mac, melds, side, row)
        incomplete += incomplete_penalty_nb(mac, melds, side, row)
    threes_points = three_points_nb(mac, threes[side, RED]) + \
        three_points_nb(mac, threes[side, BLACK])
    hand_a, extra_a = hand_items_nb(mac, hands[seat_a])
    hand_b, extra_b = hand_items_nb(mac, hands[seat_b])
    sign = 1 if c >= 1 else -1                                          # A49
    out[I_CANASTAS] = c
    out[I_CANASTA_BONUS] = bonus if c >= 1 else 0
    out[I_OUT] = mac.going_out_bonus if (went_out and c >= 1) else 0   # A42
    out[I_MELDS] = sign * melded_value_nb(mac, melds, side)
    out[I_THREES] = threes_points if c >= 2 else (0 if c == 1 else -threes_points)
    out[I_INCOMPLETE] = -incomplete                                     # A46
    out[I_HAND] = -(hand_a + hand_b)                                    # A48
    out[I_HAND_PENALTY] = -(extra_a + extra_b)
    out[I_SPECIAL] = 0
    total = 0
    for i in range(I_CANASTA_BONUS, I_TOTAL):
        total += out[i]
    out[I_TOTAL] = total
    return total


@kernel
def score_special_nb(points, out):
    """A53: a side that laid a special hand scores its value and nothing else."""
    for i in range(N_ITEMS):
        out[i] = 0
    out[I_SPECIAL] = points
    out[I_TOTAL] = points
    return points


@kernel
def count_cards_nb(mac, S, threes, talons_taken, have):
    """Add to ``have`` (per kind) every card of the deal: hands, melds (the wild meld too),
    threes laid, the pile, the stock, and set-aside talons not yet taken (``talons_taken``:
    bit TALON_FIRST and bit TALON_SECOND, A5, A33)."""
    st = S.st
    for s in range(st[ST_NSEATS]):
        for k in range(NKINDS):
            have[k] += S.hands[s, k]
    for side in range(SIDES):
        have[RED3] += threes[side, RED]
        have[BLACK3] += threes[side, BLACK]
        for row in range(WILD_ROW, ACE + 1):
            have[row] += S.melds[side, M_NAT, row]
            have[DEUCE] += S.melds[side, M_DEUCE, row]
            have[JOKER] += S.melds[side, M_JOKER, row]
    for i in range(st[ST_PILE_N]):
        have[S.pile[i]] += 1
    for i in range(st[ST_STOCK_POS], st[ST_DECK_N]):
        have[S.deck[i]] += 1
    if mac.mac_talon_source == TalonSource.SET_ASIDE:
        for which in (TALON_FIRST, TALON_SECOND):
            if not talons_taken & (1 << which):
                start = set_aside_start_nb(mac, which)
                for i in range(talon_size_nb(mac, which)):
                    have[S.deck[start + i]] += 1


@kernel
def mac_cards_conserved_nb(mac, S, threes, talons_taken):
    """A2: the deal's cards are exactly the 108 of the deck, each once (and every meld's size
    column agrees with its cards): what the family's soaks will check after every turn."""
    have = S.ws[WS_CHECK_HAVE]
    have[:] = 0
    count_cards_nb(mac, S, threes, talons_taken, have)
    for k in range(NKINDS):
        want = 4 * mac.num_packs if k >= FIRST_NATURAL or k == DEUCE else 2 * mac.num_packs
        if k == JOKER:
            want = mac.num_jokers
        if have[k] != want:
            return False
    return melds_consistent_nb(S.melds)
