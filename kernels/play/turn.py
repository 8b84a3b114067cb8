"""Playing deals: the turn loop (R10-R17, R31-R50), scoring (R51-R57) and the entry kernels.

A whole deal (kernels/play/deals.py's ``play_deal_nb``, traced or not: the very same code, so a
trace is what the engine did) deals, then plays turns through :func:`play_turns_nb` (by way
of the search player's ``search.play_table_turns_nb``); :func:`deal_only_nb` is the
benchmarks' floor.
"""
import numpy as np

from ..game.options import (
    DEC_ANSWER,
    DEC_ASK,
    DEC_DISCARD,
    DEC_DRAW,
    DEC_MELD,
    DEC_TAKE_PLAN,
    OPT_ASK,
    OPT_DECLINE,
    OPT_DRAW,
    OPT_GO_OUT,
    OPT_NO,
    OPT_NO_ASK,
    OPT_STOP,
    OPT_TAKE,
    OPT_YES,
    add_opt_nb,
    can_go_out_if_yes_nb,
    canastas_nb,
    discard_options_nb,
    meld_options_nb,
    place_cards_nb,
    short_of_minimum_nb,
    step_cards_nb,
    take_count_nb,
    take_options_nb,
    take_plan_open_nb,
)
from ..game.bits import bit_count_nb
from ..game.cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, MELD_KINDS, NKINDS, RED3
from ..players.club import (
    club_decide_nb,
    club_discard_card_nb,
    club_discard_nb,
    club_meld_step_nb,
    club_take_nb,
    is_club_nb,
    never_asks_nb,
)
from ..jit import entry, kernel, one_step, turn_step
from ..game.layout import (
    COL_CHECK_FAILS,
    COL_CONCEALED,
    COL_DEALER,
    COL_END_REASON,
    COL_OUT_SEAT,
    COL_STOCK_LEFT,
    COL_TRACE_OVERFLOW,
    COL_TURNS,
    COL_UPCARDS,
    END_OUT,
    END_STOCK,
    EV_ASK,
    EV_DECISION,
    EV_DISCARD,
    EV_DRAW,
    EV_OUT,
    EV_RED3,
    EV_TAKE,
    POLICY_GREEDY,
    POLICY_RANDOM,
    POLICY_USER,
    RED3_FROM_DEAL,
    RED3_FROM_PILE,
    RED3_FROM_STOCK,
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
from ..game.plans import PLAN_META, concealment_open_nb, has_partner_nb
from ..players.greedy import (
    decide_nb,
    greedy_discard_nb,
    greedy_meld_step_nb,
    greedy_take_nb,
    random_discard_nb,
)
from ..game.rng import STREAM_POLICY
from ..game.rules_nb import Ask, Red3Requires, Red3Timing
from ..game.deal import deal_nb, draw_card_nb, place_red3s_nb
from ..game.state import (
    M_COLS,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    OUT_OWN,
    SEAT_HAD_TURN,
    SEAT_KNOWN,
    SEAT_LAST_DISCARD,
    SEAT_MELDED_BEFORE,
    SIDE_CONCEALED_CANASTAS,
    SIDE_MELDED,
    SIDE_MINIMUM,
    SIDE_PILE_TAKES,
    SIDE_RED3,
    SIDE_RED3_DEALT,
    ST_CHECK_FAILS,
    ST_CHECK_ON,
    ST_CONCEALED,
    ST_DEALER,
    ST_DECK_N,
    ST_END_REASON,
    ST_FREEZERS,
    ST_NSEATS,
    ST_NSIDES,
    ST_OUT_SEAT,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TRACE_ON,
    ST_TRACE_OVERFLOW,
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
    ST_TURNS,
    ST_UPCARDS,
    WM_SAVE,
    WM_TAKEN,
    WS_CHECK_HAVE,
    WS_CHECK_WANT,
    WS_ORDER,
    WS_SAVE_HAND,
    WS_SAVE_ST,
    WS_SCORES,
    WS_UNSEEN,
    canasta_ranks_nb,
    card_value_nb,
    cards_value_nb,
    freezes_pile_nb,
    hand_size_nb,
    meld_size_nb,
    melds_consistent_nb,
    new_state_nb,
    pile_rest_nb,
    red3_points_nb,
    rules_record_nb,
    side_of_nb,
)
from ..game.trace_events import ev_begin_nb, ev_push_nb, ev_simple_nb
from ..players.user import user_decide_nb

CONTINUE = 0
SAVE_KNOWN = 2 * NKINDS    # WS_SAVE_HAND columns from here: the seat's known cards
DEAL_OVER = 1
MAX_TURNS = 4000           # a safety net only: every deal ends far sooner
# play_turns_nb: a ``turns`` below zero plays a part of ``seat``'s turn (kernels/play/search.py)
DRAW_ONLY = -1             # its first-turn step and draw phase
MELD_ONLY = -2             # its meld phase
FROM_MELD = -3             # its meld and discard phases, then the deal to its end
# the phases of a turn (R11), for turn_phases_nb
DRAW = 0
MELD = 1
DISCARD = 2


# ---- turn book-keeping ----------------------------------------------------------------------

@turn_step
def begin_turn_nb(st, sidev, melds, seat, take):
    """Reset the turn record for ``seat`` (R11) before its draw phase."""
    side = side_of_nb(st, seat)
    st[ST_TURN_SEAT] = seat
    st[ST_TURN_TAKE] = take
    st[ST_TURN_ASK] = -1
    st[ST_TURN_COUNT] = 0
    st[ST_TURN_NEEDS_MIN] = 1 if sidev[side, SIDE_MELDED] == 0 else 0    # R26
    st[ST_TURN_MIN] = sidev[side, SIDE_MINIMUM]
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
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    concealed = is_concealed_nb(rules, st, seatv, melds, seat)
    st[ST_OUT_SEAT] = seat
    st[ST_CONCEALED] = 1 if concealed else 0
    st[ST_END_REASON] = END_OUT
    ev_simple_nb(st, buf, EV_OUT, seat, 1 if concealed else 0, 0)
    end_turn_nb(rules, st, seatv, sidev, melds, seat)
    return DEAL_OVER


@kernel
def stock_ends_deal_nb(rules, S, seat):
    """R47/R49: the deal ends because of the stock."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    st[ST_END_REASON] = END_STOCK
    return DEAL_OVER


# ---- draw phase -----------------------------------------------------------------------------

@turn_step
def draw_from_stock_nb(rules, S, buf, seat):
    """R12(a), R13: draw ``draw_count`` cards (what is left if fewer) and place red threes."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    pos = ev_begin_nb(st, buf, EV_DRAW, seat, 0, 0)
    for _ in range(rules.draw_count):
        card = draw_card_nb(deck, st)
        if card < 0:
            break
        hands[seat, card] += 1
        ev_push_nb(st, buf, pos, card)
    if hands[seat, RED3] > 0 and place_red3s_nb(S, buf, seat, RED3_FROM_STOCK):
        st[ST_TURN_LAST_RED3] = 1                                      # R47, R48


@kernel
def forced_take_due_nb(rules, S, seat):
    """R49 as read in RULES.md 2.11: after the stock is gone the player must take an unfrozen
    pile whose natural top card his side has a meld of (layoff allowed, R37 and R16 permitting)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if rules.empty_stock_forced_take == 0 or rules.unfrozen_take_by_layoff == 0:
        return False
    n = st[ST_PILE_N]
    side = side_of_nb(st, seat)
    if n == 0 or st[ST_FREEZERS] > 0 or sidev[side, SIDE_MELDED] == 0:
        return False
    top = pile[n - 1]
    if top < FIRST_NATURAL or meld_size_nb(melds, side, top) == 0:
        return False
    h = hand_size_nb(hands, seat)
    if rules.one_card_pile_restriction == 1 and h == 1 and n == 1:
        return False
    after = h + pile_rest_nb(st, pile)
    if after <= 1:
        have = canastas_nb(melds, side)
        if meld_size_nb(melds, side, top) == 6:
            have += 1
        return have >= rules.canastas_to_go_out
    return True


@turn_step
def choose_take_nb(rules, S, buf, seat, pol, params, opts, plan, stock_gone):
    """The seat's policy decides between the stock (or, once it is gone, declining) and the
    legal pile takes.  Returns the take as (naturals, deuces, jokers), or (-1, 0, 0)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if (pol[seat] == POLICY_GREEDY or is_club_nb(pol[seat])) and \
            not pile_top_takeable_nb(st, hands, melds, pile, seat):
        return -1, 0, 0                       # (what greedy_take_nb answers, without a call)
    if pol[seat] == POLICY_GREEDY:
        return greedy_take_nb(rules, st, seatv, sidev, hands[seat], melds, pile, seat, plan, ws)
    if is_club_nb(pol[seat]):
        return club_take_nb(rules, st, seatv, sidev, hands[seat], melds, pile, seat,
                            params[seat], plan, ws,
                            stock_gone and forced_take_due_nb(rules, S, seat))
    n = 0
    if not stock_gone:
        n = add_opt_nb(opts, n, OPT_DRAW, 0, 0, 0, 0)
    elif not forced_take_due_nb(rules, S, seat):
        n = add_opt_nb(opts, n, OPT_DECLINE, 0, 0, 0, 0)            # R49: may decline
    n = take_options_nb(rules, st, seatv, sidev, hands[seat], melds, pile, seat, opts, n, plan,
                        ws)
    if n == 0:
        return -1, 0, 0
    i = policy_decides_nb(rules, S, buf, seat, pol, params, DEC_DRAW, opts, n, plan)
    if opts[i, 0] != OPT_TAKE:
        return -1, 0, 0
    return opts[i, 1], opts[i, 2], opts[i, 3]


@kernel
def pile_top_takeable_nb(st, hands, melds, pile, seat):
    """False when no take of the pile can be legal (actions.take_context_nb): an empty pile,
    a top card that is not a natural (R31), or one of a rank the seat neither holds nor
    has a meld of (R33, R34)."""
    n = st[ST_PILE_N]
    if n == 0:
        return False
    top = pile[n - 1]
    if top < FIRST_NATURAL:
        return False
    return hands[seat, top] > 0 or meld_size_nb(melds, side_of_nb(st, seat), top) > 0


@turn_step
def draw_phase_nb(rules, S, buf, seat, pol, params, opts, plan):
    """R12/R49: draw or take the pile.  Returns CONTINUE, or DEAL_OVER when the stock is gone
    and the player does not take the pile (or his hand is emptied by the take).  A take whose
    initial meld cannot be completed after all (R35) is not made: the player draws instead."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    stock_gone = st[ST_STOCK_POS] >= st[ST_DECK_N]
    begin_turn_nb(st, sidev, melds, seat, 1)
    k, d, j = choose_take_nb(rules, S, buf, seat, pol, params, opts, plan, stock_gone)
    if k >= 0:
        st[ST_TURNS] += 1
        if take_pile_nb(rules, S, buf, seat, k, d, j, pol, params, opts, plan):
            if hand_size_nb(hands, seat) == 0:
                return go_out_nb(rules, S, buf, seat)                  # R39 (T27)
            return CONTINUE        # (an unmet minimum: the meld phase must go out, R30)
        st[ST_TURNS] -= 1
    if stock_gone:
        return stock_ends_deal_nb(rules, S, seat)                      # R49: no take
    st[ST_TURN_TAKE] = 0
    st[ST_TURNS] += 1
    draw_from_stock_nb(rules, S, buf, seat)
    return CONTINUE


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
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
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


@one_step
def take_pile_nb(rules, S, buf, seat, k, d, j, pol, params, opts, plan):
    """R33-R36: take the pile with k naturals, d deuces and j jokers from the hand beside the
    top card; the player then lays further take melds from the hand where they are offered
    (actions.take_plan_open_nb): an unmelded side until its minimum is met (R35), or it stops
    short and must go out concealed this turn (R30; the meld phase sees ST_TURN_NEEDS_MIN
    still set).  Returns False (nothing changed) only if no legal step was left, which the
    exact completion checks rule out."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    side = side_of_nb(st, seat)
    n_pile = st[ST_PILE_N]
    top = pile[n_pile - 1]
    if st[ST_TURN_NEEDS_MIN] == 1:
        save_turn_nb(S, seat)            # only the planned take of an initial meld is undone
    taken = wm[WM_TAKEN]                                  # hand cards of the take melds
    taken[:, :] = 0
    order = ws[WS_ORDER]
    n_order = 1
    order[0] = top
    count = take_count_nb(rules, top, k, d, j)                        # R28
    lay_cards_nb(rules, S, buf, seat, top, k, d, j, False)
    melds[side, M_NAT, top] += 1                                       # the top card
    melds[side, M_SIZE, top] += 1
    taken[top, M_NAT] = k
    taken[top, M_DEUCE] = d
    taken[top, M_JOKER] = j
    if st[ST_TURN_NEEDS_MIN] == 1:
        st[ST_TURN_COUNT] = count
    if take_plan_open_nb(rules, st):
        n_order = plan_take_melds_nb(rules, S, buf, seat, pol, params, opts, plan, top, taken,
                                     order)
        if n_order < 0:
            if st[ST_TURN_NEEDS_MIN] == 1:
                restore_turn_nb(S, seat)                          # a safety net: never hit
            st[ST_CHECK_FAILS] += 1
            return False
    if st[ST_TURN_NEEDS_MIN] == 1 and not short_of_minimum_nb(st):
        st[ST_TURN_NEEDS_MIN] = 0                                 # R29
    st[ST_TURN_TAKE_CANASTAS] |= canasta_ranks_nb(melds, side) & ~st[ST_TURN_PRE_RANKS]  # 2.11
    trace_take_nb(S, buf, seat, top, taken, order, n_order)
    join_pile_nb(S, buf, seat)
    sidev[side, SIDE_PILE_TAKES] += 1
    return True


@kernel
def plan_take_melds_nb(rules, S, buf, seat, pol, params, opts, plan, top, taken, order):
    """R35: further take melds from the hand, each step chosen by the seat's policy, while
    they are offered (actions.take_plan_open_nb) and until it stops.  Records the cards in
    ``taken`` and the new ranks in ``order``; returns the number of take melds, -1 if no
    legal step was left (a safety net)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    n_order = 1
    while take_plan_open_nb(rules, st):
        kind, r, nat, de, jo = choose_meld_step_nb(rules, S, buf, seat, pol, params, opts, plan,
                                                   True, False)
        if kind < 0:
            return -1
        if kind == OPT_STOP:
            break
        lay_cards_nb(rules, S, buf, seat, r, nat, de, jo, False)
        if st[ST_TURN_NEEDS_MIN] == 1:
            st[ST_TURN_COUNT] += cards_value_nb(rules, r, nat, de, jo)         # R28, R35
        if taken[r, M_NAT] + taken[r, M_DEUCE] + taken[r, M_JOKER] == 0 and r != top:
            order[n_order] = r
            n_order += 1
        taken[r, M_NAT] += nat
        taken[r, M_DEUCE] += de
        taken[r, M_JOKER] += jo
    return n_order


@turn_step
def trace_take_nb(S, buf, seat, top, taken, order, n_order):
    """The take event: the pile (bottom first), then each take meld as rank, count, cards."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    n_pile = st[ST_PILE_N]
    pos = ev_begin_nb(st, buf, EV_TAKE, seat, n_pile, n_order)
    if pos < 0:
        return
    for i in range(n_pile):
        ev_push_nb(st, buf, pos, pile[i])
    for m in range(n_order):
        r = order[m]
        size = taken[r, M_NAT] + taken[r, M_DEUCE] + taken[r, M_JOKER]
        ev_push_nb(st, buf, pos, r)
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
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
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
        ev_simple_nb(st, buf, EV_RED3, seat, RED3_FROM_PILE, -1)


# ---- meld and discard phases ----------------------------------------------------------------

@kernel
def partner_of_nb(st, seat):
    """The partner asked for permission: the next seat of the same side clockwise."""
    return (seat + st[ST_NSIDES]) % st[ST_NSEATS]


@turn_step
def ask_phase_nb(rules, S, buf, seat, pol, params, opts, plan):
    """R42: in a draw turn, before melding, a player able to go out may ask his partner.
    Returns True when it found that no going-out plan is open even after a "yes": then none
    is open without asking either (plans.going_out_open_nb is the only rule of the plan search
    that reads the answer), which spares the first meld-option list of the turn its search."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if st[ST_TURN_TAKE] == 1 or rules.ask_permission == Ask.NEVER or not has_partner_nb(st):
        return False
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        return False                              # R47: no meld, so no going out to ask about
    if pol[seat] == POLICY_GREEDY and rules.ask_permission != Ask.REQUIRED:
        return False                              # greedy asks only when it must (policies.py)
    if never_asks_nb(rules, pol[seat]) and st[ST_TRACE_ON] != 2:
        return False                   # nor do careful, rush, builder (a decision log lists it)
    if not can_go_out_if_yes_nb(rules, st, seatv, hands[seat], melds, seat, plan, ws):
        return True                               # R42: he may ask only if a "yes" lets him out
    n = add_opt_nb(opts, 0, OPT_ASK, 0, 0, 0, 0)
    n = add_opt_nb(opts, n, OPT_NO_ASK, 0, 0, 0, 0)
    if opts[policy_decides_nb(rules, S, buf, seat, pol, params, DEC_ASK, opts, n, plan),
            0] != OPT_ASK:
        return False
    partner = partner_of_nb(st, seat)
    n = add_opt_nb(opts, 0, OPT_YES, 0, 0, 0, 0)
    n = add_opt_nb(opts, n, OPT_NO, 0, 0, 0, 0)
    yes = opts[policy_decides_nb(rules, S, buf, partner, pol, params, DEC_ANSWER, opts, n, plan),
               0] == OPT_YES
    st[ST_TURN_ASK] = 1 if yes else 0
    ev_simple_nb(st, buf, EV_ASK, seat, 1 if yes else 0, 0)
    return False


@turn_step
def policy_decides_nb(rules, S, buf, seat, pol, params, decision, opts, n, plan):
    """Index of the option ``seat``'s policy picks among ``opts[:n]``: the club players of
    kernels/players/club.py, a user's policy (kernels/players/user.py), or random and greedy
    (kernels/players/greedy.py).  With decision logging on
    (``ST_TRACE_ON`` = 2) the list and the answer go into the trace buffer."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if is_club_nb(pol[seat]) and decision == DEC_DISCARD:
        i = club_discard_nb(rules, hands, melds, pile, st, seatv, sidev, ws[WS_UNSEEN], seat,
                            pol[seat], params[seat], opts, n)
    elif is_club_nb(pol[seat]):
        i = club_decide_nb(rules, S, seat, pol[seat], params[seat], decision, opts, n)
    elif pol[seat] == POLICY_USER:
        i = 0 if n == 1 else user_decide_nb(rules, hands, melds, pile, st, seatv, sidev, rng, ws,
                                            seat, pol, params[seat], decision, opts, n)
    else:
        i = decide_nb(rules, pol[seat], params[seat], decision, opts, n, hands[seat], melds,
                      side_of_nb(st, seat), rng, STREAM_POLICY + seat, ws[WS_SCORES])
    if st[ST_TRACE_ON] == 2:
        log_decision_nb(st, buf, seat, decision, i, opts, n, plan)
    return i


@kernel
def log_decision_nb(st, buf, seat, decision, chosen, opts, n, plan):
    """A decision event (never written to TRACE.md lines): the options, each as its five
    ints, a going-out option followed by its plan (``plan`` is the plans table,
    kernels/game/plans.py: naturals, deuces, jokers per meld kind)."""
    pos = ev_begin_nb(st, buf, EV_DECISION, seat, decision, chosen)
    for i in range(n):
        for c in range(5):
            ev_push_nb(st, buf, pos, opts[i, c])
        if opts[i, 0] == OPT_GO_OUT:
            for r in range(MELD_KINDS):
                for c in range(3):
                    ev_push_nb(st, buf, pos, plan[opts[i, 1], r, c])


@kernel
def forget_known_nb(seatv, seat, kind, count):
    """Cards a seat played are no longer known to be in its hand (public knowledge)."""
    seatv[seat, SEAT_KNOWN + kind] = max(seatv[seat, SEAT_KNOWN + kind] - count, 0)


@turn_step
def lay_cards_nb(rules, S, buf, seat, rank, nat, deuce, joker, trace):
    """Put cards from the seat's hand on its side's meld (actions.place_cards_nb) and keep
    the public record of the cards it is known to hold."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    place_cards_nb(rules, st, hands, melds, sidev, buf, seat, rank, nat, deuce, joker, trace)
    forget_known_nb(seatv, seat, rank, nat)
    forget_known_nb(seatv, seat, DEUCE, deuce)
    forget_known_nb(seatv, seat, JOKER, joker)


@kernel
def execute_go_out_nb(rules, S, buf, seat, plans, p):
    """Lay going-out plan ``p`` (kernels/game/plans.py) meld by meld, then discard (if it has a
    discard) and go out (R39-R44)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
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
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
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
def choose_meld_step_nb(rules, S, buf, seat, pol, params, opts, plan, planning, no_plans):
    """The seat's policy picks its next meld step: (kind, rank, naturals, deuces, jokers),
    kind -1 when no step is legal.  ``greedy`` and the club players walk the legal steps in
    their order of preference; ``random`` picks from the full list of
    :func:`meld_options_nb`."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if pol[seat] == POLICY_GREEDY:
        return greedy_meld_step_nb(rules, st, seatv, hands[seat], melds, pile, seat, planning,
                                   plan, ws)
    if is_club_nb(pol[seat]):
        return club_meld_step_nb(rules, hands, melds, pile, st, seatv, sidev, ws, seat, pol[seat],
                                 params[seat], planning, plan)
    n = meld_options_nb(rules, st, seatv, hands[seat], melds, pile, seat, planning, no_plans,
                        opts, plan, ws)
    if n == 0:
        return -1, 0, 0, 0, 0
    decision = DEC_TAKE_PLAN if planning else DEC_MELD
    i = policy_decides_nb(rules, S, buf, seat, pol, params, decision, opts, n, plan)
    kind = opts[i, 0]
    if kind == OPT_GO_OUT or kind == OPT_STOP:
        return kind, opts[i, 1], 0, 0, 0
    nat, de, jo = step_cards_nb(kind, opts[i, 1], opts[i, 2], opts[i, 3], opts[i, 4])
    return kind, opts[i, 1], nat, de, jo


@turn_step
def meld_phase_nb(rules, S, buf, seat, pol, params, opts, plan):
    """R15-R30, R39-R44: meld steps chosen by the seat's policy until it stops or goes out.
    Every offered step keeps a legal end of the turn reachable (actions.step_legal_nb), so an
    initial meld, once started, can always be completed."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    no_plans = ask_phase_nb(rules, S, buf, seat, pol, params, opts, plan)
    while True:                                       # after a "yes" only going out ends it
        kind, r, nat, de, jo = choose_meld_step_nb(rules, S, buf, seat, pol, params, opts, plan,
                                                   False, no_plans)
        if kind < 0:                # a safety net: exact reachability rules dead ends out,
            st[ST_CHECK_FAILS] += 1   # and the soak tests count this flag
            return CONTINUE
        if kind == OPT_STOP:
            return CONTINUE
        if kind == OPT_GO_OUT:
            return execute_go_out_nb(rules, S, buf, seat, plan, r)
        if st[ST_TURN_NEEDS_MIN] == 1 and st[ST_TURN_TAKE] == 0:
            st[ST_TURN_COUNT] += cards_value_nb(rules, r, nat, de, jo)          # R28
        lay_cards_nb(rules, S, buf, seat, r, nat, de, jo, True)
        no_plans = False                              # the hand has changed
        if hand_size_nb(hands, seat) == 0:
            return go_out_nb(rules, S, buf, seat)                      # T31


@turn_step
def discard_phase_nb(rules, S, buf, seat, pol, params, opts, plan):
    """R17: discard one card; an emptied hand is going out (R39)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if pol[seat] == POLICY_GREEDY:
        card = greedy_discard_nb(rules, hands[seat], melds, side_of_nb(st, seat))
    elif is_club_nb(pol[seat]) and st[ST_TRACE_ON] != 2:    # (a logged decision lists them)
        card = club_discard_card_nb(rules, hands, melds, pile, st, seatv, sidev, ws[WS_UNSEEN],
                                    seat, pol[seat], params[seat])
    elif pol[seat] == POLICY_RANDOM and st[ST_TRACE_ON] != 2:
        card = random_discard_nb(hands[seat], rng, STREAM_POLICY + seat)
    else:
        n = discard_options_nb(hands[seat], opts)
        card = opts[policy_decides_nb(rules, S, buf, seat, pol, params, DEC_DISCARD, opts, n,
                                      plan), 1]
    return finish_discard_nb(rules, S, buf, seat, card)


@turn_step
def finish_discard_nb(rules, S, buf, seat, card):
    """R17, R39: the turn's discard of ``card``, then going out if the hand is empty, else the
    end of the turn.  Returns DEAL_OVER or CONTINUE."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    discard_card_nb(rules, S, buf, seat, card)
    if hand_size_nb(hands, seat) == 0:
        return go_out_nb(rules, S, buf, seat)
    end_turn_nb(rules, st, seatv, sidev, melds, seat)
    return CONTINUE


@turn_step
def play_turn_nb(rules, S, buf, seat, pol, params, opts, plan):
    """One whole turn of ``seat`` (R11): draw phase, meld phase, discard phase."""
    return turn_phases_nb(rules, S, buf, seat, pol, params, opts, plan, DRAW, DISCARD)


@turn_step
def turn_phases_nb(rules, S, buf, seat, pol, params, opts, plan, first, last):
    """Phases ``first`` to ``last`` of ``seat``'s turn (R11): DRAW (with the first-turn step),
    MELD, DISCARD.  Returns DEAL_OVER, or CONTINUE (also when it stops before the discard
    for a caller that goes on with the turn)."""
    if first == DRAW:
        first_turn_nb(rules, S, buf, seat)
        if draw_phase_nb(rules, S, buf, seat, pol, params, opts, plan) == DEAL_OVER:
            return DEAL_OVER
        if last == DRAW:
            return CONTINUE
    if melding_nb(rules, S, buf, seat, pol, params, opts, plan) == DEAL_OVER:
        return DEAL_OVER
    if last == MELD:
        return CONTINUE
    return discard_phase_nb(rules, S, buf, seat, pol, params, opts, plan)


@turn_step
def first_turn_nb(rules, S, buf, seat):
    """Mark the seat's first turn; with red-three replacement at the first turn, its red
    threes go to the table now (R9, knob timing)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if seatv[seat, SEAT_HAD_TURN] == 0:
        seatv[seat, SEAT_HAD_TURN] = 1
        if rules.red3_replacement_timing == Red3Timing.FIRST_TURN:
            place_red3s_nb(S, buf, seat, RED3_FROM_DEAL)              # R9, knob timing


@turn_step
def melding_nb(rules, S, buf, seat, pol, params, opts, plan):
    """Between the draw and the discard: the meld phase, unless a red three drawn as the last
    stock card ends the deal (R47).  Returns DEAL_OVER or CONTINUE."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        end_turn_nb(rules, st, seatv, sidev, melds, seat)
        return stock_ends_deal_nb(rules, S, seat)                      # R47
    if meld_phase_nb(rules, S, buf, seat, pol, params, opts, plan) == DEAL_OVER:
        return DEAL_OVER
    if st[ST_TURN_LAST_RED3] == 1:
        end_turn_nb(rules, st, seatv, sidev, melds, seat)
        return stock_ends_deal_nb(rules, S, seat)                      # R47 (BRIT reading)
    return CONTINUE


# ---- scoring (R51-R57) ----------------------------------------------------------------------

@kernel
def score_deal_nb(rules, S, row):
    """Fill the result row: deal facts and every side's score items (R51-R57)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
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
    for side in range(st[ST_NSIDES]):
        score_side_nb(rules, S, side, row[SIDE_BASE + SIDE_STRIDE * side:
                                          SIDE_BASE + SIDE_STRIDE * (side + 1)])


@kernel
def score_side_nb(rules, S, side, out):
    """One side's items: melds (R54), canastas (R51), red threes (R52, R57), going out (R53),
    hands (R55) and their sum (R56)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
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


# ---- whole deals ----------------------------------------------------------------------------

@kernel
def play_turns_nb(rules, S, buf, seat, pol, params, opts, plan, turns):
    """Play up to ``turns`` turns clockwise from ``seat`` (fewer if the deal ends); returns
    the seat whose turn comes next, or -1 once the deal is over.  For the search player
    (kernels/play/search.py) ``turns`` may name a part of ``seat``'s turn: DRAW_ONLY or MELD_ONLY
    play that phase and return ``seat`` (or -1); FROM_MELD plays the turn on from its meld
    phase, then the deal to its end.  The turn's code is compiled once here, at one call
    site, and shared by every kernel that plays turns (whole deals, the search player,
    kernels/play/midgame.py), with no call per turn."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    n = st[ST_NSEATS]
    part = turns == DRAW_ONLY or turns == MELD_ONLY
    first = DRAW if turns == DRAW_ONLY or turns >= 0 else MELD
    last = first if part else DISCARD
    count = 1 if part else (MAX_TURNS if turns == FROM_MELD else turns)
    for _ in range(count):
        over = turn_phases_nb(rules, S, buf, seat, pol, params, opts, plan, first,
                              last) == DEAL_OVER
        if part:
            return -1 if over else seat
        first = DRAW
        if st[ST_CHECK_ON] == 1 and not cards_conserved_nb(rules, S):
            st[ST_CHECK_FAILS] += 1
        if over:
            return -1
        seat = seat + 1 if seat + 1 < n else 0        # clockwise (R10), without a division
    return seat


@kernel
def cards_conserved_nb(rules, S):
    """R2: hands, melds, pile, stock and red-three areas hold exactly the deck (and every
    meld's size column agrees with its cards)."""
    hands, melds, deck, pile, st, seatv, sidev, rng, ws, wm = S
    have = ws[WS_CHECK_HAVE]
    have[:] = 0
    for s in range(st[ST_NSEATS]):
        for k in range(NKINDS):
            have[k] += hands[s, k]
    for side in range(st[ST_NSIDES]):
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


@entry
def deal_only_nb(rules, seed, first_deal, n, scores_before):
    """Shuffle, deal and turn the upcard for n deals without playing them: the floor the
    benchmarks compare a full deal with.  Returns a checksum so the work is not optimised away."""
    S = new_state_nb()
    buf = np.zeros(1, np.int32)
    total = 0
    record = rules_record_nb(rules)
    for i in range(n):
        deal_nb(record[0], S, buf, seed, first_deal + i, -1, scores_before)
        total += S[4][ST_UPCARDS] + S[2][0]
    return total
