"""Scoring a deal (R51-R57; cutthroat3 per seat, C12-C14), and the card-conservation check
(R2) the soaks rely on."""

from ..jit import kernel
from .cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from .cutthroat import lower_partner_nb
from .layout import (
    COL_CHECK_FAILS,
    COL_CONCEALED,
    COL_DEALER,
    COL_END_REASON,
    COL_FORMED_BY,
    COL_LONE_SEAT,
    COL_OUT_SEAT,
    COL_STOCK_LEFT,
    COL_TRACE_OVERFLOW,
    COL_TURNS,
    COL_UPCARDS,
    END_OUT,
    FORMED_OUT,
    FORMED_TAKE,
    MAX_SIDES,
    S_CANASTA_BONUS,
    S_HAND,
    S_MELDED,
    S_MELDS,
    S_MIXED,
    S_NATURAL,
    S_OUT_BONUS,
    S_PILE_TAKES,
    S_RED3,
    S_RED3_DEALT,
    S_RED3_POINTS,
    S_SCORE,
    SIDE_BASE,
    SIDE_STRIDE,
)
from .rules_nb import Red3Requires, Share
from .slots import (
    DUP_ROW,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    SEAT_RED3,
    SEAT_RED3_DEALT,
    SIDE_CONCEALED_CANASTAS,
    SIDE_MELDED,
    SIDE_PILE_TAKES,
    SIDE_RED3,
    SIDE_RED3_DEALT,
    ST_CHECK_FAILS,
    ST_CONCEALED,
    ST_DEALER,
    ST_DECK_N,
    ST_END_REASON,
    ST_FORMED_BY,
    ST_LONE,
    ST_NSEATS,
    ST_NSIDES,
    ST_OUT_SEAT,
    ST_PART_SIDE,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TRACE_OVERFLOW,
    ST_TURNS,
    ST_UPCARDS,
    WS_CHECK_HAVE,
    WS_CHECK_WANT,
    WS_SCORES,
)
from .state import (
    card_value_nb,
    cards_value_nb,
    meld_size_nb,
    melds_consistent_nb,
    red3_points_nb,
    side_of_nb,
)


@kernel
def score_deal_nb(rules, S, row):
    """Fill the result row: deal facts and every side's score items (R51-R57)."""
    st = S.st
    row[:] = 0
    row[COL_DEALER] = st[ST_DEALER]
    row[COL_END_REASON] = st[ST_END_REASON]
    row[COL_OUT_SEAT] = st[ST_OUT_SEAT] if st[ST_END_REASON] == END_OUT else -1
    row[COL_CONCEALED] = st[ST_CONCEALED]
    row[COL_TURNS] = st[ST_TURNS]
    row[COL_STOCK_LEFT] = st[ST_DECK_N] - st[ST_STOCK_POS]
    row[COL_UPCARDS] = st[ST_UPCARDS]
    row[COL_TRACE_OVERFLOW] = st[ST_TRACE_OVERFLOW]
    row[COL_CHECK_FAILS] = st[ST_CHECK_FAILS]
    row[COL_LONE_SEAT] = st[ST_LONE]
    row[COL_FORMED_BY] = st[ST_FORMED_BY]
    if rules.cutthroat == 1:
        score_cutthroat_nb(rules, S, row)
        return
    for side in range(st[ST_NSIDES]):
        score_side_nb(rules, S, side, row[SIDE_BASE + SIDE_STRIDE * side:
                                          SIDE_BASE + SIDE_STRIDE * (side + 1)])


@kernel
def score_side_nb(rules, S, side, out):
    """One side's items: melds (R54), canastas (R51), red threes (R52, R57), going out (R53),
    hands (R55) and their sum (R56)."""
    hands = S.hands
    melds = S.melds
    st = S.st
    sidev = S.sidev
    meld_points = melds[side, M_NAT, BLACK3] * card_value_nb(rules, BLACK3)
    natural = 0
    mixed = 0
    for r in range(FIRST_NATURAL, NKINDS):
        meld_points += cards_value_nb(rules, r, melds[side, M_NAT, r], melds[side, M_DEUCE, r],
                                      melds[side, M_JOKER, r])
        if meld_size_nb(melds, side, r) >= 7:                         # R23
            if melds[side, M_DEUCE, r] + melds[side, M_JOKER, r] == 0:
                natural += 1
            else:
                mixed += 1
    bonus = natural * rules.natural_canasta_bonus + mixed * rules.mixed_canasta_bonus \
        + sidev[side, SIDE_CONCEALED_CANASTAS] * rules.concealed_canasta_bonus
    if rules.red3_positive_requires == Red3Requires.CANASTA:
        positive = natural + mixed > 0
    else:
        positive = sidev[side, SIDE_MELDED] == 1
    red3 = red3_points_nb(rules, sidev[side, SIDE_RED3])
    if not positive:
        red3 = -red3 if rules.red3_negative_if_unmelded == 1 else 0  # R57
    out_bonus = 0
    if st[ST_END_REASON] == END_OUT and side_of_nb(st, st[ST_OUT_SEAT]) == side:
        out_bonus = rules.concealed_going_out_bonus if st[ST_CONCEALED] == 1 \
            else rules.going_out_bonus                                # R53
    hand = 0
    for seat in range(st[ST_NSEATS]):
        if side_of_nb(st, seat) == side:
            for k in range(NKINDS):
                hand -= hands[seat, k] * card_value_nb(rules, k)       # R55
    out[S_MELDS] = meld_points
    out[S_NATURAL] = natural
    out[S_MIXED] = mixed
    out[S_CANASTA_BONUS] = bonus
    out[S_RED3] = sidev[side, SIDE_RED3]
    out[S_RED3_DEALT] = sidev[side, SIDE_RED3_DEALT]
    out[S_RED3_POINTS] = red3
    out[S_OUT_BONUS] = out_bonus
    out[S_HAND] = hand
    out[S_MELDED] = sidev[side, SIDE_MELDED]
    out[S_PILE_TAKES] = sidev[side, SIDE_PILE_TAKES]
    out[S_SCORE] = meld_points + bonus + red3 + out_bonus + hand      # R56


@kernel
def row_group_nb(st, r):
    """cutthroat3: the group (a meld row standing for a player or the partnership) whose
    items meld row ``r`` counts for at the end of the deal (C13, C14)."""
    if st[ST_FORMED_BY] == FORMED_TAKE:
        return st[ST_PART_SIDE] if r == DUP_ROW else r     # renumbered at formation
    lone = st[ST_LONE]
    if st[ST_FORMED_BY] == FORMED_OUT and r != lone:
        return lower_partner_nb(lone)                      # C6: rows are still seats
    return r


@kernel
def seat_group_nb(st, seat):
    """cutthroat3: the group of ``seat`` at the end of the deal (see :func:`row_group_nb`)."""
    if st[ST_FORMED_BY] == FORMED_TAKE:
        return side_of_nb(st, seat)
    return row_group_nb(st, seat)


@kernel
def score_cutthroat_nb(rules, S, row):
    """C12-C14: side k's columns are seat k's.  The side items (melds, canastas, going out,
    hands, melded, pile takes) are those of the group the seat ended in, summed over its meld
    rows; the red threes are the seat's own (C4, C12); the score is the group's total less
    red threes (halved for partners under ``half``, C13) plus the seat's red-three item."""
    st = S.st
    seatv = S.seatv
    items = S.ws[WS_SCORES]
    for r in range(MAX_SIDES):
        score_side_nb(rules, S, r, items[SIDE_STRIDE * r: SIDE_STRIDE * (r + 1)])
    for seat in range(3):
        g = seat_group_nb(st, seat)
        out = row[SIDE_BASE + SIDE_STRIDE * seat: SIDE_BASE + SIDE_STRIDE * (seat + 1)]
        for r in range(MAX_SIDES):
            if row_group_nb(st, r) == g:
                base = SIDE_STRIDE * r
                for f in (S_MELDS, S_NATURAL, S_MIXED, S_CANASTA_BONUS, S_OUT_BONUS, S_HAND,
                          S_PILE_TAKES):
                    out[f] += items[base + f]
                out[S_MELDED] = max(out[S_MELDED], items[base + S_MELDED])
        share = out[S_MELDS] + out[S_CANASTA_BONUS] + out[S_OUT_BONUS] + out[S_HAND]
        if st[ST_LONE] >= 0 and seat != st[ST_LONE] and rules.cutthroat_partner_share == Share.HALF:
            share = 5 * (share // 10)                          # C13: T/2 down to a 5
        if rules.red3_positive_requires == Red3Requires.CANASTA:
            positive = out[S_NATURAL] + out[S_MIXED] > 0
        else:
            positive = out[S_MELDED] == 1
        red3 = red3_points_nb(rules, seatv[seat, SEAT_RED3])                  # C12
        if not positive:
            red3 = -red3 if rules.red3_negative_if_unmelded == 1 else 0       # R57
        out[S_RED3] = seatv[seat, SEAT_RED3]
        out[S_RED3_DEALT] = seatv[seat, SEAT_RED3_DEALT]
        out[S_RED3_POINTS] = red3
        out[S_SCORE] = share + red3


@kernel
def cards_conserved_nb(rules, S):
    """R2: hands, melds, pile, stock and red-three areas hold exactly the deck (and every
    meld's size column agrees with its cards)."""
    hands = S.hands
    melds = S.melds
    deck = S.deck
    pile = S.pile
    st = S.st
    sidev = S.sidev
    ws = S.ws
    have = ws[WS_CHECK_HAVE]
    have[:] = 0
    for s in range(st[ST_NSEATS]):
        for k in range(NKINDS):
            have[k] += hands[s, k]
    for side in range(MAX_SIDES):          # every row: a cutthroat3 partnership's second melds
        have[RED3] += sidev[side, SIDE_RED3]
        for r in range(BLACK3, NKINDS):
            have[r] += melds[side, M_NAT, r]
            have[DEUCE] += melds[side, M_DEUCE, r]
            have[JOKER] += melds[side, M_JOKER, r]
    for i in range(st[ST_PILE_N]):
        have[pile[i]] += 1
    for i in range(st[ST_STOCK_POS], st[ST_DECK_N]):
        have[deck[i]] += 1
    want = ws[WS_CHECK_WANT]
    for k in range(NKINDS):
        want[k] = 4 * rules.num_packs if k >= FIRST_NATURAL or k == DEUCE else 2 * rules.num_packs
    want[JOKER] = rules.num_jokers
    for k in range(NKINDS):
        if have[k] != want[k]:
            return False
    return melds_consistent_nb(melds)
