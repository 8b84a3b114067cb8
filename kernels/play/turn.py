"""The turn (R10-R17, R31-R50): its phases in order, each asking the seat's player
(kernels/players/switch.py) and carrying out the answer with the moves of the rules
(kernels/game/moves.py); and :func:`play_turns_nb`, the one turn loop every deal, game and
search rollout goes through.
"""

from ..game.cutthroat import form_by_take_nb, forms_partnership_nb
from ..game.layout import (
    EV_ASK,
)
from ..game.moves import (
    CONTINUE,
    DEAL_OVER,
    begin_turn_nb,
    draw_from_stock_nb,
    end_turn_nb,
    execute_go_out_nb,
    finish_discard_nb,
    first_turn_nb,
    go_out_nb,
    join_pile_nb,
    lay_cards_nb,
    partner_of_nb,
    restore_turn_nb,
    save_turn_nb,
    stock_ends_deal_nb,
    trace_take_nb,
)
from ..game.options import (
    DEC_ANSWER,
    DEC_ASK,
    OPT_ASK,
    OPT_GO_OUT,
    OPT_NO,
    OPT_NO_ASK,
    OPT_STOP,
    OPT_YES,
    add_opt_nb,
    can_go_out_if_yes_nb,
    short_of_minimum_nb,
    take_count_nb,
    take_plan_open_nb,
)
from ..game.plans import has_partner_nb
from ..game.rules_nb import Ask
from ..game.scoring import cards_conserved_nb
from ..game.slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    SIDE_PILE_TAKES,
    ST_CHECK_FAILS,
    ST_CHECK_ON,
    ST_DECK_N,
    ST_NSEATS,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TURN_ASK,
    ST_TURN_COUNT,
    ST_TURN_LAST_RED3,
    ST_TURN_NEEDS_MIN,
    ST_TURN_PRE_RANKS,
    ST_TURN_TAKE,
    ST_TURN_TAKE_CANASTAS,
    ST_TURNS,
    WM_TAKEN,
    WS_ORDER,
)
from ..game.state import canasta_ranks_nb, cards_value_nb, hand_size_nb, side_of_nb
from ..game.trace_events import ev_simple_nb
from ..jit import kernel, one_step, turn_step
from ..players.switch import (
    choose_discard_nb,
    choose_meld_step_nb,
    choose_take_nb,
    considers_asking_nb,
    pick_option_nb,
)

MAX_TURNS = 4000           # a safety net only: every deal ends far sooner
# play_turns_nb: a ``turns`` below zero plays a part of ``seat``'s turn (kernels/play/search.py)
DRAW_ONLY = -1             # its first-turn step and draw phase
MELD_ONLY = -2             # its meld phase
FROM_MELD = -3             # its meld and discard phases, then the deal to its end
# the phases of a turn (R11), for turn_phases_nb
DRAW = 0
MELD = 1
DISCARD = 2


@turn_step
def draw_phase_nb(rules, S, buf, seat, table):
    """R12/R49: draw or take the pile.  Returns CONTINUE, or DEAL_OVER when the stock is gone
    and the player does not take the pile (or his hand is emptied by the take).  A take whose
    initial meld cannot be completed after all (R35) is not made: the player draws instead."""
    hands = S.hands
    melds = S.melds
    st = S.st
    sidev = S.sidev
    stock_gone = st[ST_STOCK_POS] >= st[ST_DECK_N]
    begin_turn_nb(st, S.seatv, sidev, melds, seat, 1)
    k, d, j = choose_take_nb(rules, S, buf, seat, table, stock_gone)
    if k >= 0:
        st[ST_TURNS] += 1
        if take_pile_nb(rules, S, buf, seat, k, d, j, table):
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


@one_step
def take_pile_nb(rules, S, buf, seat, k, d, j, table):
    """R33-R36: take the pile with k naturals, d deuces and j jokers from the hand beside the
    top card; the player then lays further take melds from the hand where they are offered
    (options.take_plan_open_nb): an unmelded side until its minimum is met (R35), or it stops
    short and must go out concealed this turn (R30; the meld phase sees ST_TURN_NEEDS_MIN
    still set).  Returns False (nothing changed) only if no legal step was left, which the
    exact completion checks rule out."""
    st = S.st
    if st[ST_TURN_NEEDS_MIN] == 1:
        save_turn_nb(S, seat)            # only the planned take of an initial meld is undone
    taken = S.wm[WM_TAKEN]                                # hand cards of the take melds
    order = S.ws[WS_ORDER]
    top = lay_take_top_nb(rules, S, buf, seat, k, d, j, taken, order)
    n_order = 1
    if take_plan_open_nb(rules, st):
        n_order = plan_take_melds_nb(rules, S, buf, seat, table, top, taken, order)
        if n_order < 0:
            if st[ST_TURN_NEEDS_MIN] == 1:
                restore_turn_nb(S, seat)                          # a safety net: never hit
            st[ST_CHECK_FAILS] += 1
            return False
    close_take_nb(rules, S, buf, seat, top, taken, order, n_order)
    return True


@one_step
def lay_take_top_nb(rules, S, buf, seat, k, d, j, taken, order):
    """R33, R28: a take's first meld, the pile's top card with k naturals, d deuces and j
    jokers from the hand; starts the take's record (``taken``: the hand cards per rank,
    ``order``: the ranks in the order laid) and its count towards an unmet minimum.  Returns
    the top card.  The engine's take (:func:`take_pile_nb`) and the analysis' replay of a
    traced take (kernels/play/analysis.py) both lay a take with it."""
    melds = S.melds
    st = S.st
    side = side_of_nb(st, seat)
    top = S.pile[st[ST_PILE_N] - 1]
    taken[:, :] = 0
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
    return top


@one_step
def lay_take_meld_nb(rules, S, buf, seat, top, r, nat, de, jo, taken, order, n_order):
    """R35: a further take meld from the hand (``nat`` naturals, ``de`` deuces, ``jo`` jokers
    on the meld of rank ``r``), counted towards an unmet minimum (R28) and recorded in the
    take's ``taken`` and ``order``; returns the ranks now in ``order``."""
    st = S.st
    lay_cards_nb(rules, S, buf, seat, r, nat, de, jo, False)
    if st[ST_TURN_NEEDS_MIN] == 1:
        st[ST_TURN_COUNT] += cards_value_nb(rules, r, nat, de, jo)             # R28, R35
    if taken[r, M_NAT] + taken[r, M_DEUCE] + taken[r, M_JOKER] == 0 and r != top:
        order[n_order] = r
        n_order += 1
    taken[r, M_NAT] += nat
    taken[r, M_DEUCE] += de
    taken[r, M_JOKER] += jo
    return n_order


@one_step
def close_take_nb(rules, S, buf, seat, top, taken, order, n_order):
    """R29, R36: after a take's melds, the minimum met or not, the take's new canastas
    (2.11), the take in the trace, the rest of the pile into the hand and the side's pile
    takes counted."""
    st = S.st
    side = side_of_nb(st, seat)
    if st[ST_TURN_NEEDS_MIN] == 1 and not short_of_minimum_nb(st):
        st[ST_TURN_NEEDS_MIN] = 0                                 # R29
    st[ST_TURN_TAKE_CANASTAS] |= canasta_ranks_nb(S.melds, side) & ~st[ST_TURN_PRE_RANKS]  # 2.11
    trace_take_nb(S, buf, seat, top, taken, order, n_order)
    if forms_partnership_nb(rules, st):
        form_by_take_nb(rules, S, buf, seat)          # C5: the first take; sides renumbered
    join_pile_nb(S, buf, seat)                                         # R36
    S.sidev[side_of_nb(st, seat), SIDE_PILE_TAKES] += 1                # the side as it stands


@kernel
def plan_take_melds_nb(rules, S, buf, seat, table, top, taken, order):
    """R35: further take melds from the hand, each step chosen by the seat's policy, while
    they are offered (options.take_plan_open_nb) and until it stops.  Records the cards in
    ``taken`` and the new ranks in ``order``; returns the number of take melds, -1 if no
    legal step was left (a safety net)."""
    st = S.st
    n_order = 1
    while take_plan_open_nb(rules, st):
        kind, r, nat, de, jo = choose_meld_step_nb(rules, S, buf, seat, table, True, False)
        if kind < 0:
            return -1
        if kind == OPT_STOP:
            break
        n_order = lay_take_meld_nb(rules, S, buf, seat, top, r, nat, de, jo, taken, order,
                                   n_order)
    return n_order


@turn_step
def ask_phase_nb(rules, S, buf, seat, table):
    """R42: in a draw turn, before melding, a player able to go out may ask his partner.
    Returns True when it found that no going-out plan is open even after a "yes": then none
    is open without asking either (plans.going_out_open_nb is the only rule of the plan search
    that reads the answer), which spares the first meld-option list of the turn its search."""
    hands = S.hands
    melds = S.melds
    st = S.st
    seatv = S.seatv
    ws = S.ws
    if st[ST_TURN_TAKE] == 1 or rules.ask_permission == Ask.NEVER or not has_partner_nb(st, seat):
        return False
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        return False                              # R47: no meld, so no going out to ask about
    if not considers_asking_nb(rules, st, table.pol, seat):
        return False
    if not can_go_out_if_yes_nb(rules, st, seatv, hands[seat], melds, seat, table.plan, ws):
        return True                               # R42: he may ask only if a "yes" lets him out
    n = add_opt_nb(table.opts, 0, OPT_ASK, 0, 0, 0, 0)
    n = add_opt_nb(table.opts, n, OPT_NO_ASK, 0, 0, 0, 0)
    if table.opts[pick_option_nb(rules, S, buf, seat, table, DEC_ASK, n), 0] != OPT_ASK:
        return False
    partner = partner_of_nb(st, seat)
    n = add_opt_nb(table.opts, 0, OPT_YES, 0, 0, 0, 0)
    n = add_opt_nb(table.opts, n, OPT_NO, 0, 0, 0, 0)
    yes = table.opts[pick_option_nb(rules, S, buf, partner, table, DEC_ANSWER, n), 0] == OPT_YES
    st[ST_TURN_ASK] = 1 if yes else 0
    ev_simple_nb(st, buf, EV_ASK, seat, 1 if yes else 0, 0)
    return False


@turn_step
def meld_phase_nb(rules, S, buf, seat, table):
    """R15-R30, R39-R44: meld steps chosen by the seat's policy until it stops or goes out.
    Every offered step keeps a legal end of the turn reachable (options.step_legal_nb), so an
    initial meld, once started, can always be completed."""
    st = S.st
    no_plans = ask_phase_nb(rules, S, buf, seat, table)
    while True:                                       # after a "yes" only going out ends it
        kind, r, nat, de, jo = choose_meld_step_nb(rules, S, buf, seat, table, False, no_plans)
        if kind < 0:                # a safety net: exact reachability rules dead ends out,
            st[ST_CHECK_FAILS] += 1   # and the soak tests count this flag
            return CONTINUE
        if kind == OPT_STOP:
            return CONTINUE
        if kind == OPT_GO_OUT:
            return execute_go_out_nb(rules, S, buf, seat, table.plan, r)
        no_plans = False                              # the hand has changed
        if meld_step_nb(rules, S, buf, seat, r, nat, de, jo) == 0:
            return go_out_nb(rules, S, buf, seat)                      # T31


@one_step
def meld_step_nb(rules, S, buf, seat, r, nat, de, jo):
    """One meld step from the seat's hand (R15, R18-R22): ``nat`` naturals, ``de`` deuces and
    ``jo`` jokers on its side's meld of rank ``r``, counted towards an unmet initial minimum
    in a draw turn (R28).  Returns the cards left in the hand (0: the seat goes out, T31)."""
    st = S.st
    if st[ST_TURN_NEEDS_MIN] == 1 and st[ST_TURN_TAKE] == 0:
        st[ST_TURN_COUNT] += cards_value_nb(rules, r, nat, de, jo)              # R28
    lay_cards_nb(rules, S, buf, seat, r, nat, de, jo, True)
    return hand_size_nb(S.hands, seat)


@turn_step
def discard_phase_nb(rules, S, buf, seat, table):
    """R17: discard one card; an emptied hand is going out (R39)."""
    card = choose_discard_nb(rules, S, buf, seat, table)
    return finish_discard_nb(rules, S, buf, seat, card)


@turn_step
def play_turn_nb(rules, S, buf, seat, table):
    """One whole turn of ``seat`` (R11): draw phase, meld phase, discard phase."""
    return turn_phases_nb(rules, S, buf, seat, table, DRAW, DISCARD)


@turn_step
def turn_phases_nb(rules, S, buf, seat, table, first, last):
    """Phases ``first`` to ``last`` of ``seat``'s turn (R11): DRAW (with the first-turn step),
    MELD, DISCARD.  Returns DEAL_OVER, or CONTINUE (also when it stops before the discard
    for a caller that goes on with the turn)."""
    if first == DRAW:
        first_turn_nb(rules, S, buf, seat)
        if draw_phase_nb(rules, S, buf, seat, table) == DEAL_OVER:
            return DEAL_OVER
        if last == DRAW:
            return CONTINUE
    if melding_nb(rules, S, buf, seat, table) == DEAL_OVER:
        return DEAL_OVER
    if last == MELD:
        return CONTINUE
    return discard_phase_nb(rules, S, buf, seat, table)


@turn_step
def melding_nb(rules, S, buf, seat, table):
    """Between the draw and the discard: the meld phase, unless a red three drawn as the last
    stock card ends the deal (R47).  Returns DEAL_OVER or CONTINUE."""
    melds = S.melds
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        end_turn_nb(rules, st, seatv, sidev, melds, seat)
        return stock_ends_deal_nb(rules, S, seat)                      # R47
    if meld_phase_nb(rules, S, buf, seat, table) == DEAL_OVER:
        return DEAL_OVER
    if st[ST_TURN_LAST_RED3] == 1:
        end_turn_nb(rules, st, seatv, sidev, melds, seat)
        return stock_ends_deal_nb(rules, S, seat)                      # R47 (BRIT reading)
    return CONTINUE


@kernel
def play_turns_nb(rules, S, buf, seat, table, turns):
    """Play up to ``turns`` turns clockwise from ``seat`` (fewer if the deal ends); returns
    the seat whose turn comes next, or -1 once the deal is over.  For the search player
    (kernels/play/search.py) ``turns`` may name a part of ``seat``'s turn: DRAW_ONLY or MELD_ONLY
    play that phase and return ``seat`` (or -1); FROM_MELD plays the turn on from its meld
    phase, then the deal to its end.  The turn's code is compiled once here, at one call
    site, and shared by every kernel that plays turns (whole deals, the search player,
    kernels/play/midgame.py), with no call per turn."""
    st = S.st
    n = st[ST_NSEATS]
    part = turns == DRAW_ONLY or turns == MELD_ONLY
    first = DRAW if turns == DRAW_ONLY or turns >= 0 else MELD
    last = first if part else DISCARD
    count = 1 if part else (MAX_TURNS if turns == FROM_MELD else turns)
    for _ in range(count):
        over = turn_phases_nb(rules, S, buf, seat, table, first, last) == DEAL_OVER
        if part:
            return -1 if over else seat
        first = DRAW
        if st[ST_CHECK_ON] == 1 and not cards_conserved_nb(rules, S):
            st[ST_CHECK_FAILS] += 1
        if over:
            return -1
        seat = seat + 1 if seat + 1 < n else 0        # clockwise (R10), without a division
    return seat
