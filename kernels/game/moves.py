"""Moves of a turn carried out on the deal state (R11-R17, R36-R50): the turn record, drawing,
laying cards on melds, the rest of the pile joining the hand, discarding, going out.

Nothing here decides anything: the loops in kernels/play/ ask the seat's player
(kernels/players/switch.py) what to do, and call these functions to do it.
"""
import numpy as np

from ..jit import kernel, turn_step
from .bits import bit_count_nb
from .cards import BLACK3, DEUCE, JOKER, MELD_KINDS, NKINDS, RED3
from .cutthroat import form_by_out_nb, forms_partnership_nb, meld_owner_code_nb
from .deal import draw_card_nb, place_red3s_nb
from .layout import (
    END_OUT,
    END_STOCK,
    EV_DISCARD,
    EV_DRAW,
    EV_OUT,
    EV_RED3,
    EV_TAKE,
    OWNER_STRIDE,
    RED3_FROM_DEAL,
    RED3_FROM_PILE,
    RED3_FROM_STOCK,
)
from .options import (
    place_cards_nb,
)
from .plans import PLAN_META, concealment_open_nb
from .rules_nb import LastRed3, Red3Timing, StockEnd
from .slots import (
    M_COLS,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    OUT_OWN,
    SEAT_HAD_TURN,
    SEAT_KNOWN,
    SEAT_LAST_DISCARD,
    SEAT_MELDED_BEFORE,
    SEAT_MINIMUM,
    SEAT_RED3,
    SIDE_CONCEALED_CANASTAS,
    SIDE_MELDED,
    SIDE_RED3,
    ST_CONCEALED,
    ST_DECK_N,
    ST_END_REASON,
    ST_FREEZERS,
    ST_NSEATS,
    ST_OUT_SEAT,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TURN_ADDED_PRE,
    ST_TURN_ASK,
    ST_TURN_COUNT,
    ST_TURN_DISCARDED,
    ST_TURN_LAST_RED3,
    ST_TURN_MELDED,
    ST_TURN_MIN,
    ST_TURN_NEEDS_MIN,
    ST_TURN_NEW_RANKS,
    ST_TURN_OUT_CHOICE,
    ST_TURN_PRE_RANKS,
    ST_TURN_SEAT,
    ST_TURN_TAKE,
    ST_TURN_TAKE_CANASTAS,
    WM_SAVE,
    WS_SAVE_HAND,
    WS_SAVE_ST,
)
from .state import (
    canasta_ranks_nb,
    cards_value_nb,
    freezes_pile_nb,
    hand_size_nb,
    meld_size_nb,
    side_of_nb,
)
from .trace_events import ev_begin_nb, ev_push_nb, ev_simple_nb

CONTINUE = 0
DEAL_OVER = 1
SAVE_KNOWN = 2 * NKINDS    # WS_SAVE_HAND columns from here: the seat's known cards

@turn_step
def begin_turn_nb(st, seatv, sidev, melds, seat, take):
    """Reset the turn record for ``seat`` (R11) before its draw phase."""
    side = side_of_nb(st, seat)
    st[ST_TURN_SEAT] = seat
    st[ST_TURN_TAKE] = take
    st[ST_TURN_ASK] = -1
    st[ST_TURN_COUNT] = 0
    st[ST_TURN_NEEDS_MIN] = 1 if sidev[side, SIDE_MELDED] == 0 else 0    # R26
    st[ST_TURN_MIN] = seatv[seat, SEAT_MINIMUM]               # R27; C9: his own score
    pre = 0
    for r in range(MELD_KINDS):                   # without branches: one pass of the sizes
        pre |= np.int64(meld_size_nb(melds, side, r) > 0) << r
    st[ST_TURN_PRE_RANKS] = pre
    st[ST_TURN_NEW_RANKS] = 0
    st[ST_TURN_ADDED_PRE] = 0
    st[ST_TURN_MELDED] = 0
    st[ST_TURN_LAST_RED3] = 0
    st[ST_TURN_TAKE_CANASTAS] = 0
    st[ST_TURN_DISCARDED] = 0
    st[ST_TURN_OUT_CHOICE] = OUT_OWN


@turn_step
def end_turn_nb(rules, st, seatv, sidev, melds, seat):
    """After the turn: R44 (i) memory, and source B's concealed canastas (2.11)."""
    side = side_of_nb(st, seat)
    if st[ST_TURN_MELDED] == 1:
        seatv[seat, SEAT_MELDED_BEFORE] = 1
    if st[ST_TURN_TAKE] == 1:
        made = st[ST_TURN_TAKE_CANASTAS]
    else:
        made = 0
        new_ranks = st[ST_TURN_NEW_RANKS]
        if new_ranks != 0:                       # most turns start no meld: nothing to scan
            made = canasta_ranks_nb(melds, side) & new_ranks
    sidev[side, SIDE_CONCEALED_CANASTAS] += bit_count_nb(made)


@kernel
def is_concealed_nb(rules, st, seatv, melds, seat):
    """R44: the going-out just made is concealed."""
    side = side_of_nb(st, seat)
    if not concealment_open_nb(rules, st, seatv, seat, st[ST_TURN_DISCARDED] == 1):
        return False
    return canasta_ranks_nb(melds, side) & st[ST_TURN_NEW_RANKS] != 0   # (iv) his own canasta


@kernel
def go_out_nb(rules, S, buf, seat):
    """R39: the seat's hand is empty; record who went out and how (R44)."""
    melds = S.melds
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    concealed = is_concealed_nb(rules, st, seatv, melds, seat)
    st[ST_OUT_SEAT] = seat
    st[ST_CONCEALED] = 1 if concealed else 0
    st[ST_END_REASON] = END_OUT
    ev_simple_nb(st, buf, EV_OUT, seat, 1 if concealed else 0, 0)
    if forms_partnership_nb(rules, st):
        form_by_out_nb(rules, S, buf, seat)                           # C6
    end_turn_nb(rules, st, seatv, sidev, melds, seat)
    return DEAL_OVER


@kernel
def stock_ends_deal_nb(rules, S, seat):
    """R47/R49: the deal ends because of the stock."""
    st = S.st
    st[ST_END_REASON] = END_STOCK
    return DEAL_OVER


@turn_step
def first_turn_nb(rules, S, buf, seat):
    """Mark the seat's first turn; with red-three replacement at the first turn, its red
    threes go to the table now (R9, knob timing)."""
    seatv = S.seatv
    if seatv[seat, SEAT_HAD_TURN] == 0:
        seatv[seat, SEAT_HAD_TURN] = 1
        if rules.red3_replacement_timing == Red3Timing.FIRST_TURN:
            place_red3s_nb(S, buf, seat, RED3_FROM_DEAL)              # R9, knob timing


@turn_step
def draw_from_stock_nb(rules, S, buf, seat):
    """R12(a), R13: draw ``draw_count`` cards (what is left if fewer) and place red threes."""
    hands = S.hands
    deck = S.deck
    st = S.st
    pos = ev_begin_nb(st, buf, EV_DRAW, seat, 0, 0)
    before = hand_size_nb(hands, seat)
    for _ in range(rules.draw_count):
        card = draw_card_nb(deck, st)
        if card < 0:
            break
        hands[seat, card] += 1
        ev_push_nb(st, buf, pos, card)
    if hands[seat, RED3] > 0 and place_red3s_nb(S, buf, seat, RED3_FROM_STOCK):
        # C3a: with one_card_draw a draw that brought any other card (every red three has
        # left the hand, so the hand grew) is that card's draw, and the turn goes on
        if rules.draw2_last_red3 == LastRed3.R47 or hand_size_nb(hands, seat) == before:
            st[ST_TURN_LAST_RED3] = 1                                  # R47, R48


@turn_step
def save_turn_nb(S, seat):
    """Snapshot what a meld phase or a take may change, so that it can be taken back."""
    copy_turn_state_nb(S, seat, True)


@turn_step
def restore_turn_nb(S, seat):
    """Undo everything since :func:`save_turn_nb` (the trace position included)."""
    copy_turn_state_nb(S, seat, False)


@turn_step
def copy_turn_state_nb(S, seat, save):
    """Copy the seat's hand and its public record of known cards, its side's melds and
    melded flag, and st, to (``save``) or from the scratch rows."""
    hands = S.hands
    melds = S.melds
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    ws = S.ws
    wm = S.wm
    side = side_of_nb(st, seat)
    for k in range(NKINDS):
        if save:
            ws[WS_SAVE_HAND, k] = hands[seat, k]
            ws[WS_SAVE_HAND, SAVE_KNOWN + k] = seatv[seat, SEAT_KNOWN + k]
        else:
            hands[seat, k] = ws[WS_SAVE_HAND, k]
            seatv[seat, SEAT_KNOWN + k] = ws[WS_SAVE_HAND, SAVE_KNOWN + k]
    for i in range(st.shape[0]):
        if save:
            ws[WS_SAVE_ST, i] = st[i]
        else:
            st[i] = ws[WS_SAVE_ST, i]
    for c in range(M_COLS):
        for r in range(MELD_KINDS):
            if save:
                wm[WM_SAVE, r, c] = melds[side, c, r]
            else:
                melds[side, c, r] = wm[WM_SAVE, r, c]
    if save:
        ws[WS_SAVE_HAND, NKINDS] = sidev[side, SIDE_MELDED]
    else:
        sidev[side, SIDE_MELDED] = ws[WS_SAVE_HAND, NKINDS]


@turn_step
def trace_take_nb(S, buf, seat, top, taken, order, n_order):
    """The take event: the pile (bottom first), then each take meld as rank, count, cards."""
    pile = S.pile
    st = S.st
    n_pile = st[ST_PILE_N]
    pos = ev_begin_nb(st, buf, EV_TAKE, seat, n_pile, n_order)
    if pos < 0:
        return
    side = side_of_nb(st, seat)
    for i in range(n_pile):
        ev_push_nb(st, buf, pos, pile[i])
    for m in range(n_order):
        r = order[m]
        size = taken[r, M_NAT] + taken[r, M_DEUCE] + taken[r, M_JOKER]
        ev_push_nb(st, buf, pos, r + OWNER_STRIDE * meld_owner_code_nb(st, S.melds, side, r))
        ev_push_nb(st, buf, pos, size + (1 if m == 0 else 0))
        if m == 0:
            ev_push_nb(st, buf, pos, top)
        for _ in range(taken[r, M_NAT]):
            ev_push_nb(st, buf, pos, r)
        for _ in range(taken[r, M_DEUCE]):
            ev_push_nb(st, buf, pos, DEUCE)
        for _ in range(taken[r, M_JOKER]):
            ev_push_nb(st, buf, pos, JOKER)


@turn_step
def join_pile_nb(S, buf, seat):
    """R36: the rest of the pile joins the hand; its red threes go to the table (R14)."""
    hands = S.hands
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    side = side_of_nb(st, seat)
    n_pile = st[ST_PILE_N]
    reds = 0
    for i in range(n_pile - 1):
        if pile[i] == RED3:
            reds += 1
        else:
            hands[seat, pile[i]] += 1
            seatv[seat, SEAT_KNOWN + pile[i]] += 1        # RULES.md 0.1: seen by everyone
    st[ST_PILE_N] = 0
    st[ST_FREEZERS] = 0
    for _ in range(reds):
        sidev[side, SIDE_RED3] += 1
        seatv[seat, SEAT_RED3] += 1                                    # C4: the seat's own
        ev_simple_nb(st, buf, EV_RED3, seat, RED3_FROM_PILE, -1)


@kernel
def partner_of_nb(st, seat):
    """The partner asked for permission: the next seat of the same side clockwise (R42; in
    cutthroat3 the other partner, C15).  ``seat`` itself when it has none."""
    n = st[ST_NSEATS]
    side = side_of_nb(st, seat)
    other = seat
    for i in range(n - 1, 0, -1):              # seat - 1, ..., seat + 1: the first clockwise wins
        s = (seat + i) % n
        if side_of_nb(st, s) == side:
            other = s
    return other


@kernel
def forget_known_nb(seatv, seat, kind, count):
    """Cards a seat played are no longer known to be in its hand (public knowledge)."""
    seatv[seat, SEAT_KNOWN + kind] = max(seatv[seat, SEAT_KNOWN + kind] - count, 0)


@turn_step
def lay_cards_nb(rules, S, buf, seat, rank, nat, deuce, joker, trace):
    """Put cards from the seat's hand on its side's meld (options.place_cards_nb) and keep
    the public record of the cards it is known to hold."""
    hands = S.hands
    melds = S.melds
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    place_cards_nb(rules, st, hands, melds, sidev, buf, seat, rank, nat, deuce, joker, trace)
    forget_known_nb(seatv, seat, rank, nat)
    forget_known_nb(seatv, seat, DEUCE, deuce)
    forget_known_nb(seatv, seat, JOKER, joker)


@kernel
def execute_go_out_nb(rules, S, buf, seat, plans, p):
    """Lay going-out plan ``p`` (kernels/game/plans.py) meld by meld, then discard (if it has a
    discard) and go out (R39-R44)."""
    st = S.st
    plan = plans[p]
    discard = plan[PLAN_META, 0]
    for r in range(BLACK3, NKINDS):
        if plan[r, M_NAT] + plan[r, M_DEUCE] + plan[r, M_JOKER] > 0:
            if st[ST_TURN_NEEDS_MIN] == 1 and st[ST_TURN_TAKE] == 0:
                st[ST_TURN_COUNT] += cards_value_nb(rules, r, plan[r, M_NAT], plan[r, M_DEUCE],
                                                    plan[r, M_JOKER])
            lay_cards_nb(rules, S, buf, seat, r, plan[r, M_NAT],
                           plan[r, M_DEUCE], plan[r, M_JOKER], True)
    if discard >= 0:
        discard_card_nb(rules, S, buf, seat, discard)
    return go_out_nb(rules, S, buf, seat)


@turn_step
def discard_card_nb(rules, S, buf, seat, card):
    """R17: put one card from the hand on the pile (a wild card freezes it, R32)."""
    hands = S.hands
    pile = S.pile
    st = S.st
    seatv = S.seatv
    hands[seat, card] -= 1
    forget_known_nb(seatv, seat, card, 1)
    seatv[seat, SEAT_LAST_DISCARD] = card + 1
    pile[st[ST_PILE_N]] = card
    st[ST_PILE_N] += 1
    if freezes_pile_nb(rules, card):
        st[ST_FREEZERS] += 1
    st[ST_TURN_DISCARDED] = 1
    ev_simple_nb(st, buf, EV_DISCARD, seat, card, 0)


@turn_step
def finish_discard_nb(rules, S, buf, seat, card):
    """R17, R39: the turn's discard of ``card``, then going out if the hand is empty, else the
    end of the turn.  Returns DEAL_OVER or CONTINUE."""
    hands = S.hands
    melds = S.melds
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    discard_card_nb(rules, S, buf, seat, card)
    if hand_size_nb(hands, seat) == 0:
        return go_out_nb(rules, S, buf, seat)
    end_turn_nb(rules, st, seatv, sidev, melds, seat)
    if st[ST_STOCK_POS] >= st[ST_DECK_N] and rules.cutthroat == 1 \
            and rules.cutthroat_stock_end == StockEnd.AFTER_LAST_DISCARD:
        return stock_ends_deal_nb(rules, S, seat)      # C16: after the last drawer's turn
    return CONTINUE
