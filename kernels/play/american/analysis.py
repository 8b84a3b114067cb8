"""Analysis of a played Modern American deal (docs/analysis.md, "Modern American"): the deal
replayed from its trace into the family's deal state (``S`` and its :class:`MacState` ``A``).

**The replay.** A trace (docs/american.md, "Traces") says every card that moved, so the deal
can be played again with the family's own moves (kernels/game/american/moves.py) instead of
its players: :func:`mac_deal_given_nb` deals the trace's cards in the trace's order (A5: the
hands, the set-aside talons, the stock), and :func:`mac_script_nb` carries out a script of
moves, one row ``(op, seat, a, b, c, d)`` per move of the trace (``OP_*``), stopping wherever
the caller wants a decision's state.  What the trace does not say is the moves' own work: a
three's replacement, the talon after an opening's discard, the turn card, a tentative
opening's melds written once it stands, the score.  The replay's own trace, compared with
the trace read, checks the whole (canasta_sim/analysis/american.py).

The opening is replayed as the turn plays it (kernels/play/american/turn.py): the melds of a
side that has not melded are laid tentatively from the first of them and the opening is
settled at the next move that is not a meld (:func:`.turn.settle_opening_nb`); a take by such
a side lays its take melds tentatively after the take meld, as ``take_with_opening_nb`` does.
An opening that would not stand stops the replay (the trace is not the engine's).

**The options and their values.** At a decision of the replayed deal, :func:`options_nb`
lists the candidates as the family's rollouts encode them (kernels/play/american/rollout.py,
``DEC_*``): the draw and, where it is open, the take; the rollout policy's own play after
the draw, holding on when that play goes out, asking the partner at the first chance where
the question is open (:func:`.rollout.out_options_nb`); every legal meld step that does
not go out and stopping, before each meld step of a turn that did not go out and at its end
(:func:`.rollout.meld_options_nb`); the partner's answer, no or yes, at a question of the
trace (played by the asker's turn from the question on, the
determinizations from the partner's view); every legal discard.  The rollouts are that
module's (:func:`.rollout.rollouts_nb`: the hidden cards dealt again, each candidate played
on the same deals, the deal played to its end, or cut off ``turns`` turns after the
decision's turn, by the rollout policy given); the statistics are the caller's
(canasta_sim/analysis/rollout.py).
"""
from ...game.american.moves import (
    LAID,
    apply_step_nb,
    begin_take_nb,
    begin_tentative_nb,
    discard_nb,
    draw_card_nb,
    finish_take_nb,
    give_talon_nb,
    go_out_nb,
    lay_one_three_nb,
    write_logged_melds_nb,
)
from ...game.american.pile import (
    TALON_NONE,
    stock_left_nb,
)
from ...game.american.deal import deal_cards_nb
from ...game.american.state import (
    mac_record_nb,
    X_ASKED,
    X_KEPT,
    X_SPECIAL_SEAT,
    X_TENTATIVE,
    X_TURN_ANSWER,
    X_TURN_DREW,
    X_TURN_OPENING,
    X_TURN_STOCK,
    X_TURN_TAKE_ROW,
    X_TURN_TALON,
    X_TURN_TOOK,
)
from ...game.american.threes import threes_in_nb
from ...game.cards import BLACK3, RED3
from ...game.deal import init_sides_nb, reset_state_nb, trace_start_nb
from ...game.layout import END_STOCK, EV_ASK, EV_END
from ...game.rng import seed_streams_nb
from ...game.slots import (
    SEAT_HAD_TURN,
    ST_DECK_N,
    ST_DEALER,
    ST_END_REASON,
    ST_OUT_SEAT,
    ST_TRACE_ON,
    ST_TRACE_POS,
    ST_TURNS,
    WS_ORDER,
)
from ...game.state import keep_alive_nb
from ...game.trace_events import ev_simple_nb
from ...jit import entry, kernel
from .deals import score_mac_deal_nb
from .rollout import (
    ANSWER_NO,
    ANSWER_YES,
    DEC_ANSWER,
    DEC_MELD,
    DEC_OUT,
    DEC_TAKE,
    TAKE_DRAW,
    TAKE_PILE,
    meld_options_nb,
    out_options_nb,
    rollouts_nb,
)
from .turn import (
    begin_opening_nb,
    begin_turn_nb,
    count_take_nb,
    legal_discards_nb,
    melded_nb,
    settle_opening_nb,
    special_phase_nb,
    take_open_nb,
    take_opening_possible_nb,
)

# the moves of a script: rows (op, seat, a, b, c, d)
OP_BEGIN = 0       # the seat's turn begins (A8, A12): the turn's slots cleared
OP_DRAW = 1        # it draws the top stock card (A13)
OP_TAKE = 2        # it takes the pile (A29-A31); a side that has not melded opens tentatively
OP_TAKE_MELD = 3   # a melds of that take's opening (A26): a = row, b, c, d = nat, 2s, jokers
OP_MELD = 4        # a meld step from the hand (A15): a = row, b, c, d = naturals, 2s, jokers
OP_ASK = 5         # it asked its partner, a = the answer (A41)
OP_DISCARD = 6     # it discards a = the card (A18); b = 1: it goes out with it (A39)
OP_END = 7         # the deal ends: a = END_OUT / END_STOCK / END_SPECIAL (A43, A44, A52)
OP_THREE = 8       # it lays a three (A9): a = RED3 / BLACK3, b = THREE_FROM_* (the trace's)
OP_SPECIAL = 9     # it lays its special hand (A52)
SCRIPT_COLS = 6
REPLAY_FAILED = -1  # mac_script_nb: a move the family's rules refuse here


@kernel
def mac_deal_given_nb(mac, S, A, buf, deck, size, dealer, scores_before):
    """Deal ``deck[:size]`` as it lies (the hands, the set-aside talons, the stock), as
    ``deal.deal_american_nb`` deals a shuffled deck (A5), and write the start line."""
    st = S.st
    reset_state_nb(S)
    seed_streams_nb(S.rng, 0, 0)
    A.x[:] = 0
    A.threes[:, :] = 0
    A.x[X_SPECIAL_SEAT] = -1
    init_sides_nb(mac, st)                                              # A1
    for i in range(size):
        S.deck[i] = deck[i]
    st[ST_DECK_N] = size
    deal_cards_nb(mac, S, dealer, scores_before)                        # A5, A24
    st[ST_OUT_SEAT] = -1
    trace_start_nb(mac, S, buf, st[ST_DEALER], mac.num_players * mac.hand_size)


@kernel
def lay_three_as_nb(mac, S, A, buf, seat, colour, source):
    """A9, A10: lay the three of ``colour`` (the trace's) and replace it; returns LAID or
    STOCK_OUT (A43).  The move picks a red three unless one is kept, so a black one laid
    beside a red one is the kept-red case (reading 15)."""
    hand = S.hands[seat]
    keep = 1 if colour == BLACK3 and hand[RED3] > 0 else 0
    result = lay_one_three_nb(S, A, buf, seat, keep, source)
    A.x[X_KEPT + seat] = threes_in_nb(hand) if result == LAID else 0
    if A.x[X_TURN_DREW] == 1:
        A.x[X_TURN_STOCK] = stock_left_nb(S.st)
    if result != LAID:
        S.st[ST_END_REASON] = END_STOCK                                 # A43
    return result


@kernel
def draw_as_nb(S, A, buf, seat):
    """A13: the draw, with the turn's book-keeping as ``turn.draw_phase_nb`` keeps it."""
    card = draw_card_nb(S, A, buf, seat)
    A.x[X_TURN_DREW] = 1
    if card == RED3 or card == BLACK3:
        A.x[X_KEPT + seat] = threes_in_nb(S.hands[seat])
    A.x[X_TURN_STOCK] = stock_left_nb(S.st)


@kernel
def settle_nb(mac, S, A, buf, seat):
    """End a tentative opening (A25-A28) before the next move that is not a meld: its lines
    are written if it stands; returns False if it does not (the trace is not the engine's)."""
    if A.x[X_TENTATIVE] == 0:
        return True
    if not settle_opening_nb(mac, S, A, buf, seat):
        return False
    write_logged_melds_nb(S, A, buf, seat)
    return True


@kernel
def take_as_nb(mac, S, A, buf, seat, moves, i, stop):
    """A26, A29-A31: the take of ``moves[i]`` and the opening melds of its ``OP_TAKE_MELD``
    rows, as ``turn.draw_phase_nb`` and ``take_with_opening_nb`` lay them; returns the index
    of the next move, or REPLAY_FAILED if the opening does not stand."""
    x = A.x
    opening = not melded_nb(S, seat)
    x[X_TURN_TOOK] = 1
    if opening:
        x[X_TURN_OPENING] = 1
        x[X_TURN_TALON] = TALON_NONE                                    # A32: no talon
        begin_tentative_nb(S, A, seat, 1)
    top = begin_take_nb(S, A, seat)
    x[X_TURN_TAKE_ROW] = top
    i += 1
    while i < stop and moves[i, 0] == OP_TAKE_MELD:
        apply_step_nb(S, A, buf, seat, moves[i, 2], moves[i, 3], moves[i, 4], moves[i, 5])
        i += 1
    if opening and not settle_opening_nb(mac, S, A, buf, seat):
        return REPLAY_FAILED
    finish_take_nb(S, A, buf, seat, top)
    count_take_nb(A, seat)
    return i


@kernel
def discard_as_nb(mac, S, A, buf, seat, card, out):
    """A18, A33, A39: the discard of ``card`` (going out with it when ``out``), then the
    talon an opening turn earned, as ``turn.discard_phase_nb`` plays them."""
    if out == 1:
        go_out_nb(S, A, buf, seat, card)                                # A39
        return
    discard_nb(S, A, buf, seat, card)
    if A.x[X_TURN_TALON] != TALON_NONE and A.x[X_TURN_OPENING] == 1:
        give_talon_nb(mac, S, A, buf, seat, A.x[X_TURN_TALON])          # A33


@kernel
def mac_script_nb(mac, S, A, buf, pol, params, moves, stop):
    """Carry out ``moves[:stop]`` (``OP_*`` rows) in a deal from :func:`mac_deal_given_nb` with
    the family's moves; returns the number of rows done (a take counts with its take melds),
    or REPLAY_FAILED at a move the rules refuse.  ``pol``: a policy table whose every seat
    lays a special hand it holds (greedy), for ``OP_SPECIAL``."""
    st = S.st
    i = 0
    while i < stop:
        op, seat = moves[i, 0], moves[i, 1]
        if op != OP_MELD and not settle_nb(mac, S, A, buf, seat):
            return REPLAY_FAILED
        if op == OP_BEGIN:
            begin_turn_nb(A)
            st[ST_TURNS] += 1
            S.seatv[seat, SEAT_HAD_TURN] = 1
        elif op == OP_THREE:
            lay_three_as_nb(mac, S, A, buf, seat, moves[i, 2], moves[i, 3])
        elif op == OP_DRAW:
            draw_as_nb(S, A, buf, seat)
        elif op == OP_TAKE:
            i = take_as_nb(mac, S, A, buf, seat, moves, i, stop)
            if i == REPLAY_FAILED:
                return REPLAY_FAILED
            continue
        elif op == OP_MELD:
            if not melded_nb(S, seat) and A.x[X_TENTATIVE] == 0:
                begin_opening_nb(mac, S, A, seat)
            apply_step_nb(S, A, buf, seat, moves[i, 2], moves[i, 3], moves[i, 4],
                          moves[i, 5])                                  # A15
        elif op == OP_ASK:
            A.x[X_ASKED + seat] = 1
            A.x[X_TURN_ANSWER] = moves[i, 2]                            # A41
            ev_simple_nb(st, buf, EV_ASK, seat, moves[i, 2], 0)
        elif op == OP_DISCARD:
            discard_as_nb(mac, S, A, buf, seat, moves[i, 2], moves[i, 3])
        elif op == OP_SPECIAL:
            if not special_phase_nb(mac, S, A, buf, pol, params, seat):
                return REPLAY_FAILED                                    # A52
        elif op == OP_END:
            st[ST_END_REASON] = moves[i, 2]
            ev_simple_nb(st, buf, EV_END, -1, moves[i, 2], 0)
        i += 1
    if stop > 0 and (stop >= moves.shape[0] or moves[stop, 0] != OP_MELD) and \
            not settle_nb(mac, S, A, buf, moves[stop - 1, 1]):
        return REPLAY_FAILED                  # the state at a decision after the melds
    return i


# ---- the options and the rollouts -----------------------------------------------------------

@kernel
def take_options_nb(mac, S, seat, cands):
    """The candidates at ``seat``'s take point (rollout.DEC_TAKE): the draw (with no stock,
    not taking ends the deal, A44), and the take where it is open (A29, A30) and, for a side
    that has not melded, an opening with it is possible (A26)."""
    cands[0] = TAKE_DRAW
    n = 1
    if take_open_nb(mac, S, seat) and (melded_nb(S, seat) or
                                       take_opening_possible_nb(mac, S, seat)):
        cands[n] = TAKE_PILE
        n += 1
    return n


@kernel
def options_nb(mac, S, A, buf, pol, params, seat, decision, cands):
    """The candidates of ``seat``'s ``decision`` (rollout.DEC_*) in the replayed state, into
    ``cands``; returns their number (0: no decision here, a going-out choice with nothing to
    choose: :func:`.rollout.out_options_nb`) and, for a meld decision, the own step's code of
    the rollout policy ``pol`` (:func:`.rollout.meld_options_nb`; else 0).  An answer's are
    no and yes (A41)."""
    if decision == DEC_TAKE:
        return take_options_nb(mac, S, seat, cands), 0
    if decision == DEC_OUT:
        return out_options_nb(mac, S, A, buf, pol, params, seat, cands), 0
    if decision == DEC_MELD:
        return meld_options_nb(mac, S, A, pol, params, seat, cands)
    if decision == DEC_ANSWER:
        cands[0] = ANSWER_NO
        cands[1] = ANSWER_YES
        return 2, 0
    n = legal_discards_nb(mac, S, A, seat)
    for i in range(n):
        cands[i] = S.ws[WS_ORDER, i]
    return n, 0


# ---- the entry ------------------------------------------------------------------------------

TASK_REPLAY = 0     # deal and carry out moves[:stop], score the deal as it stands into row
TASK_OPTIONS = 1    # in the state given: the candidates of ``decision`` into cands
TASK_ROLLOUTS = 2   # in the state given: values of cands by rollouts (rollout.rollouts_nb)


@kernel
def mac_analysis_nb(task, mac, S, A, buf, moves, stop, deck, size, dealer, scores_before,
                    pol, params, row, seat, decision, cands, key, first, values, turns):
    """:func:`mac_analysis_task_nb` with the knobs as a record."""
    if task == TASK_ROLLOUTS:
        S.st[ST_TRACE_ON] = 0
        rollouts_nb(mac, S, A, buf, pol, params, seat, decision, cands, cands.shape[0], key,
                    first, values, turns)
        return values.shape[0], 0
    if task == TASK_OPTIONS:
        return options_nb(mac, S, A, buf, pol, params, seat, decision, cands)
    mac_deal_given_nb(mac, S, A, buf, deck, size, dealer, scores_before)
    done = mac_script_nb(mac, S, A, buf, pol, params, moves, stop)
    score_mac_deal_nb(mac, S, A, row)
    return done, S.st[ST_TRACE_POS]


@entry
def mac_analysis_task_nb(task, mac, S, A, buf, moves, stop, deck, size, dealer, scores_before,
                         pol, params, row, seat, decision, cands, key, first, values, turns):
    """The family's analysis entry kernel (compiled when a Modern American deal is first
    analysed).  ``task`` TASK_REPLAY: deal ``deck[:size]`` into ``S``/``A`` and carry out
    ``moves[:stop]`` (traced into ``buf`` if ``S``'s trace is on), score the deal as it stands
    into ``row``; returns the rows done (REPLAY_FAILED: a move refused) and the trace's
    length (``pol``: a table whose every seat lays a special hand, greedy).  TASK_OPTIONS:
    in ``S``/``A`` as given, the candidates of ``seat``'s ``decision`` into ``cands`` (``pol``,
    ``params``: the rollout policy, whose own play is among them); returns their number.
    TASK_ROLLOUTS: in ``S``/``A`` as given, determinizations ``first`` .. ``first +
    len(values) - 1`` of ``key``, each candidate played on each by the rollout policy
    ``pol``, ``params`` at every seat, to the deal's end or ``turns`` turns after the
    decision's turn (``values[d, c, side]``); returns the determinizations done."""
    record = mac_record_nb(mac)
    done, used = mac_analysis_nb(task, record[0], S, A, buf, moves, stop, deck, size, dealer,
                                 scores_before, pol, params, row, seat, decision, cands, key,
                                 first, values, turns)
    keep_alive_nb(record)
    return done, used
