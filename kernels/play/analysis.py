"""Analysis of a played deal (docs/analysis.md): a deal replayed from its trace into a deal
state, and the options of one decision valued by rollouts.

**The replay.** A trace (docs/trace.md) says every card that moved, so the deal can be
played again with the engine's own moves instead of its players: :func:`deal_given_nb`
deals the trace's cards in the trace's order (the shuffle is the trace's, R5-R9, R7), and
:func:`script_nb` carries out a script of moves, one row ``(op, seat, a, b, c, d)`` per
move of the trace (``OP_*``), stopping wherever the caller wants a decision's state.  The
red threes and the upcard are not in the script: the moves place them as the engine does,
and the replay's own trace, compared with the trace read, checks the whole
(canasta_sim/analysis/position.py).

**The rollouts.** :func:`rollouts_nb` values the candidates of one decision in a state
(``A_*``: a discard, the take or the draw, the going-out choice, the partner's answer, or
no choice at all) as the search player does (kernels/play/search.py, whose scratch state,
resampler and keys it uses): for each determinization ``d`` the cards hidden from the
viewing seat are dealt again (:func:`search.determinize_nb`, the stock in uniform order),
each candidate is played on
that same deal and stock order (common random numbers), and the deal is played to its end
by the rollout policy at every seat.  It writes every side's deal score per determinization
and candidate; the statistics are the caller's.  Determinization ``d`` depends only on the
key and ``d``, so any split of the determinizations over threads gives the same values.
"""
import numpy as np

from ..game.cards import MELD_KINDS
from ..game.deal import deal_from_deck_nb, init_sides_nb, reset_state_nb
from ..game.layout import (
    END_STOCK,
    EV_ASK,
    EV_END,
    MAX_SIDES,
    S_SCORE,
    SIDE_BASE,
    SIDE_STRIDE,
)
from ..game.moves import (
    DEAL_OVER,
    begin_turn_nb,
    draw_from_stock_nb,
    end_turn_nb,
    finish_discard_nb,
    first_turn_nb,
    go_out_nb,
)
from ..game.options import (
    MAX_OPTS,
    OPT_GO_OUT,
    OPT_STOP,
    meld_options_nb,
    step_cards_nb,
    step_legal_nb,
)
from ..game.plans import MAX_PLANS
from ..game.rng import seed_streams_nb
from ..game.scoring import score_deal_nb
from ..game.slots import (
    OUT_HOLD,
    OUT_NO_ASK,
    OUT_NOW,
    ST_DECK_N,
    ST_END_REASON,
    ST_NSEATS,
    ST_NSIDES,
    ST_TRACE_ON,
    ST_TRACE_POS,
    ST_TURN_ASK,
    ST_TURN_LAST_RED3,
    ST_TURN_OUT_CHOICE,
    ST_TURN_TAKE,
    ST_TURNS,
    WM_TAKEN,
    WS_ORDER,
)
from ..game.state import (
    hand_size_nb,
    rules_record_nb,
)
from ..game.trace_events import ev_simple_nb
from ..jit import entry, kernel, level
from ..players.club import P_MIN_PILE_TAKE, club_meld_step_nb
from ..players.switch import Table
from .search import (
    determinize_nb,
    may_ask_nb,
    out_open_nb,
    scratch_state_nb,
)
from .turn import (
    FROM_MELD,
    MAX_TURNS,
    MELD_ONLY,
    close_take_nb,
    discard_phase_nb,
    lay_take_meld_nb,
    lay_take_top_nb,
    meld_step_nb,
    play_turns_nb,
)

# the moves of a script: rows (op, seat, a, b, c, d)
OP_BEGIN = 0       # the seat's turn begins: its first-turn step (R9) and the turn record (R11)
OP_DRAW = 1        # it draws from the stock (R12, R13)
OP_TAKE = 2        # it takes the pile: a, b, c = naturals, deuces, jokers beside the top card
OP_TAKE_MELD = 3   # a further take meld of that take (R35): a = rank, b, c, d = nat, deu, jok
OP_MELD = 4        # a meld step from the hand: a = rank, b, c, d = naturals, deuces, jokers
OP_ASK = 5         # it asked its partner, a = the answer (R42)
OP_DISCARD = 6     # it discards a = the card (R17); an emptied hand goes out (R39)
OP_OUT = 7         # its hand is empty without a discard: it goes out (R39)
OP_END = 8         # the deal ends: a = END_OUT / END_STOCK; b = 1 if the seat's turn is open
SCRIPT_COLS = 6

# the decisions valued by rollouts, and what a candidate is
A_DISCARD = 0      # a discard: the card
A_TAKE = 1         # at the start of the turn: 0 draw, 1 take the pile
A_OUT = 2          # after the draw: the going-out choice for the meld phase (OUT_*)
A_ANSWER = 3       # the partner's answer to the seat's question: 0 no, 1 yes (R42)
A_PLAY_ON = 4      # no choice: the deal played on from the seat's turn
A_MELD = 5         # a meld step of the meld phase: meld_code_nb(...) of the step, or MELD_STOP
MELD_STOP = -1     # the meld candidate "stop melding": on to the discard (R16, R17)
NO_STEP = -2       # task 3: the policy's own next step is none (it goes out, or none is legal)
CODE_BASE = 64     # a meld step's code packs rank, naturals, deuces, jokers in base 64
DRAW = 0
TAKE = 1
TAKE_ALWAYS = 0.0  # the club players' min_pile_take that makes them take any legal take
VALID = MAX_SIDES  # values[d, c, VALID]: 1 if the rollout played the candidate
NOT_ENDED = -1     # ST_END_REASON while a rollout's deal goes on (a deal's end sets it)


# ---- the replay -----------------------------------------------------------------------------

@kernel
def deal_given_nb(rules, S, buf, deck, size, dealer, scores_before):
    """Deal the cards ``deck[:size]`` in that order, as ``game.deal.deal_nb`` deals a shuffled
    deck (R6: one card at a time from the dealer's left), then the dealt red threes (R9) and
    the upcard (R7, R8)."""
    st = S.st
    reset_state_nb(S)
    seed_streams_nb(S.rng, 0, 0)
    init_sides_nb(rules, st)                                  # R1, C1: as deal_nb
    for i in range(size):
        S.deck[i] = deck[i]
    st[ST_DECK_N] = size
    deal_from_deck_nb(rules, S, buf, dealer, scores_before)   # R6-R9, as deal_nb


@kernel
def script_take_nb(rules, S, buf, seat, moves, i, stop):
    """R33-R36: the take of ``moves[i]`` and its further take melds (the ``OP_TAKE_MELD``
    rows after it, before ``stop``), laid as ``turn.take_pile_nb`` lays a take its player
    chose (the same functions); returns the index of the next move."""
    taken = S.wm[WM_TAKEN]
    order = S.ws[WS_ORDER]
    S.st[ST_TURNS] += 1
    top = lay_take_top_nb(rules, S, buf, seat, moves[i, 2], moves[i, 3], moves[i, 4], taken,
                          order)
    n_order = 1
    i += 1
    while i < stop and moves[i, 0] == OP_TAKE_MELD:                    # R35
        n_order = lay_take_meld_nb(rules, S, buf, seat, top, moves[i, 2], moves[i, 3],
                                   moves[i, 4], moves[i, 5], taken, order, n_order)
        i += 1
    close_take_nb(rules, S, buf, seat, top, taken, order, n_order)
    if hand_size_nb(S.hands, seat) == 0:
        go_out_nb(rules, S, buf, seat)                                 # R39 (T27)
    return i


@kernel
def script_nb(rules, S, buf, moves, stop):
    """Carry out ``moves[:stop]`` (``OP_*`` rows) in ``S``, a deal from :func:`deal_given_nb`,
    with the engine's moves (kernels/game/moves.py); returns the number of rows done (a
    take counts with its take melds)."""
    st = S.st
    i = 0
    while i < stop:
        op, seat = moves[i, 0], moves[i, 1]
        if op == OP_BEGIN:
            first_turn_nb(rules, S, buf, seat)                         # R9 (first_turn)
            begin_turn_nb(st, S.seatv, S.sidev, S.melds, seat, 1)   # R11, as draw_phase_nb
        elif op == OP_DRAW:
            st[ST_TURN_TAKE] = 0
            st[ST_TURNS] += 1
            draw_from_stock_nb(rules, S, buf, seat)                    # R12, R13
        elif op == OP_TAKE:
            i = script_take_nb(rules, S, buf, seat, moves, i, stop)
            continue
        elif op == OP_MELD:
            meld_step_nb(rules, S, buf, seat, moves[i, 2], moves[i, 3], moves[i, 4],
                         moves[i, 5])                                   # R15, R28
        elif op == OP_ASK:
            st[ST_TURN_ASK] = moves[i, 2]                              # R42
            ev_simple_nb(st, buf, EV_ASK, seat, moves[i, 2], 0)
        elif op == OP_DISCARD:
            finish_discard_nb(rules, S, buf, seat, moves[i, 2])        # R17, R39
        elif op == OP_OUT:
            go_out_nb(rules, S, buf, seat)                             # R39
        elif op == OP_END:
            if moves[i, 2] == END_STOCK:
                if moves[i, 3] == 1:
                    end_turn_nb(rules, st, S.seatv, S.sidev, S.melds, seat)   # R47
                st[ST_END_REASON] = END_STOCK                          # R47, R49
            ev_simple_nb(st, buf, EV_END, -1, st[ST_END_REASON], 0)
        i += 1
    return i


# ---- the rollouts ---------------------------------------------------------------------------

@level
def play_out_nb(rules, W, buf, seat, table, turns):
    """Play the deal in ``W`` from ``seat``'s turn: to its end, or ``turns`` turns."""
    play_turns_nb(rules, W, buf, seat, table, np.int64(turns))


@level
def finish_turn_nb(rules, W, buf, seat, table, turns):
    """Play ``seat``'s turn on from its meld phase, then the deal: to its end
    (``turns`` = MAX_TURNS, the engine's own FROM_MELD), or ``turns`` turns after it."""
    if turns >= MAX_TURNS:
        play_turns_nb(rules, W, buf, seat, table, np.int64(FROM_MELD))
        return
    if play_turns_nb(rules, W, buf, seat, table, np.int64(MELD_ONLY)) < 0:
        return
    if discard_phase_nb(rules, W, buf, seat, table) != DEAL_OVER:      # R17
        play_out_nb(rules, W, buf, (seat + 1) % W.st[ST_NSEATS], table, turns)


@level
def play_draw_nb(rules, W, buf, seat, table, turns):
    """The draw at the start of ``seat``'s turn (R12), as ``turn.draw_phase_nb`` makes it,
    then the rest of the turn and of the deal."""
    st = W.st
    first_turn_nb(rules, W, buf, seat)
    begin_turn_nb(st, W.seatv, W.sidev, W.melds, seat, 1)
    st[ST_TURN_TAKE] = 0
    st[ST_TURNS] += 1
    draw_from_stock_nb(rules, W, buf, seat)
    finish_turn_nb(rules, W, buf, seat, table, turns)


@level
def play_take_nb(rules, W, buf, seat, table, turns):
    """The take at the start of ``seat``'s turn, as its (club) player takes a pile it will
    take, then the deal; returns False if it did not take after all."""
    st = W.st
    keep = table.params[seat, P_MIN_PILE_TAKE]
    table.params[seat, P_MIN_PILE_TAKE] = TAKE_ALWAYS
    after = play_turns_nb(rules, W, buf, seat, table, np.int64(1))
    table.params[seat, P_MIN_PILE_TAKE] = keep
    took = st[ST_TURN_TAKE] == 1
    if after >= 0:
        play_out_nb(rules, W, buf, after, table, turns)
    return took


@kernel
def meld_code_nb(r, nat, de, jo):
    """The candidate code of the meld step (rank ``r``, naturals, deuces, jokers)."""
    return r + CODE_BASE * (nat + CODE_BASE * (de + CODE_BASE * jo))


@level
def play_meld_nb(rules, W, buf, seat, cand, table, turns):
    """Meld candidate ``cand`` of ``seat`` (a step's code, or MELD_STOP) played in ``W``, then
    the turn by the policy (no question to the partner: R42 asks before the first meld) and
    the deal on; returns False if the step is not legal here."""
    st = W.st
    st[ST_TURN_OUT_CHOICE] = OUT_NO_ASK
    if cand == MELD_STOP:
        if st[ST_TURN_LAST_RED3] == 1:                                  # R47: no discard
            end_turn_nb(rules, st, W.seatv, W.sidev, W.melds, seat)
            st[ST_END_REASON] = END_STOCK
        elif discard_phase_nb(rules, W, buf, seat, table) != DEAL_OVER:         # R17
            play_out_nb(rules, W, buf, (seat + 1) % st[ST_NSEATS], table, turns)
        return True
    r = cand % CODE_BASE
    nat = cand // CODE_BASE % CODE_BASE
    de = cand // (CODE_BASE * CODE_BASE) % CODE_BASE
    jo = cand // (CODE_BASE * CODE_BASE * CODE_BASE)
    if not step_legal_nb(rules, st, W.seatv, W.hands[seat], W.melds, W.pile, seat, r, nat, de,
                         jo, False, table.plan, W.ws):
        return False
    if meld_step_nb(rules, W, buf, seat, r, nat, de, jo) == 0:
        go_out_nb(rules, W, buf, seat)                                 # T31
    else:
        finish_turn_nb(rules, W, buf, seat, table, turns)
    return True


@kernel
def meld_candidates_nb(rules, S, seat, table, out):
    """The meld steps the engine lists for ``seat`` in ``S`` (options.meld_options_nb, going
    out left to the going-out decision): their codes into ``out`` (MELD_STOP for stopping);
    returns their number and the code of the step the policy of ``table`` would take
    (NO_STEP if it would go out or has none)."""
    opts = table.opts
    n = meld_options_nb(rules, S.st, S.seatv, S.hands[seat], S.melds, S.pile, seat, False, True,
                        opts, table.plan, S.ws)
    for i in range(n):
        if opts[i, 0] == OPT_STOP:
            out[i] = MELD_STOP
        else:
            nat, de, jo = step_cards_nb(opts[i, 0], opts[i, 1], opts[i, 2], opts[i, 3],
                                        opts[i, 4])
            out[i] = meld_code_nb(opts[i, 1], nat, de, jo)
    S.st[ST_TURN_OUT_CHOICE] = OUT_NO_ASK
    kind, r, nat, de, jo = club_meld_step_nb(rules, S.hands, S.melds, S.pile, S.st, S.seatv,
                                             S.sidev, S.ws, seat, table.pol[seat],
                                             table.params[seat], False, table.plan)
    if kind == OPT_STOP:
        return n, MELD_STOP
    if kind < 0 or kind == OPT_GO_OUT:
        return n, NO_STEP
    return n, meld_code_nb(r, nat, de, jo)


@level
def play_candidate_nb(rules, W, buf, seat, decision, cand, table, turns):
    """Play candidate ``cand`` of ``seat``'s ``decision`` (``A_*``) in ``W`` and the deal on
    (to its end, or ``turns`` turns after the decision's turn); returns False if the
    candidate could not be played as such."""
    st = W.st
    if decision == A_DISCARD:
        if finish_discard_nb(rules, W, buf, seat, cand) != DEAL_OVER:
            play_out_nb(rules, W, buf, (seat + 1) % st[ST_NSEATS], table, turns)
    elif decision == A_TAKE:
        if cand == TAKE:
            return play_take_nb(rules, W, buf, seat, table, turns)
        play_draw_nb(rules, W, buf, seat, table, turns)
    elif decision == A_OUT:
        st[ST_TURN_OUT_CHOICE] = cand                   # obeyed by the club players
        finish_turn_nb(rules, W, buf, seat, table, turns)
    elif decision == A_MELD:
        return play_meld_nb(rules, W, buf, seat, cand, table, turns)
    elif decision == A_ANSWER:
        st[ST_TURN_ASK] = cand                                         # R42: it binds
        st[ST_TURN_OUT_CHOICE] = OUT_NOW if cand == 1 else OUT_HOLD    # no second question
        finish_turn_nb(rules, W, buf, seat, table, turns)
    else:
        play_out_nb(rules, W, buf, seat, table, turns + 1)
    return True


@kernel
def record_scores_nb(rules, W, row, out):
    """Score the ended deal in ``W`` (R51-R57) and write every side's deal score to ``out``."""
    score_deal_nb(rules, W, row)
    for k in range(MAX_SIDES):
        out[k] = row[SIDE_BASE + SIDE_STRIDE * k + S_SCORE] if k < W.st[ST_NSIDES] else 0


@level
def rollouts_task_nb(rules, S, buf, view, seat, decision, cands, key, first, values, table,
                     row, turns):
    """Determinizations ``first`` .. ``first + len(values) - 1`` of the state ``S`` as
    ``view`` may know it, each candidate ``cands[c]`` of ``seat``'s ``decision`` played on
    each: ``values[d, c, :MAX_SIDES]`` every side's deal score, ``values[d, c, VALID]`` 1 if
    the rollout played the candidate.  With ``turns`` < MAX_TURNS each rollout stops that
    many turns after the decision's turn and the deal is scored as it stands, as if the
    stock had run out (no going-out bonus).  Returns the determinizations done."""
    W = scratch_state_nb(S.ws)
    for d in range(values.shape[0]):
        for c in range(cands.shape[0]):
            if not determinize_nb(rules, S, W, view, key, first + d):
                return d
            W.st[ST_END_REASON] = NOT_ENDED
            ok = play_candidate_nb(rules, W, buf, seat, decision, cands[c], table, turns)
            if W.st[ST_END_REASON] == NOT_ENDED:
                W.st[ST_END_REASON] = END_STOCK                        # truncated
            record_scores_nb(rules, W, row, values[d, c])
            values[d, c, VALID] = 1 if ok else 0
    return values.shape[0]


@entry
def analysis_task_nb(task, rules, S, buf, moves, stop, deck, size, dealer, scores_before, pol,
                     params, view, seat, decision, cands, key, first, values, row, turns):
    """The analysis' one entry kernel.  ``task`` 0: deal ``deck[:size]`` (dealer, scores
    before) into ``S`` and carry out ``moves[:stop]`` (trace into ``buf`` if ``S``'s trace is
    on), and score the deal as it stands into ``row``; returns the rows done and the trace's
    length.  ``task`` 1: the rollouts of
    :func:`rollouts_task_nb` (``pol``, ``params``: the rollouts' policy table; ``turns``: the
    truncation); returns the
    determinizations done and 0.  ``task`` 2: whether ``seat`` could go out in this turn's
    meld phase (search.out_open_nb) and whether it may ask its partner (R42).  ``task`` 3:
    the meld candidates of ``seat`` into ``cands`` (:func:`meld_candidates_nb`)."""
    record = rules_record_nb(rules)
    r = record[0]
    if task == 0:
        deal_given_nb(r, S, buf, deck, size, dealer, scores_before)
        done = script_nb(r, S, buf, moves, stop)
        score_deal_nb(r, S, row)
        return done, S.st[ST_TRACE_POS]
    opts = np.zeros((MAX_OPTS, 5), np.int64)
    plan = np.zeros((MAX_PLANS, MELD_KINDS, 3), np.int64)
    table = Table(pol, params, opts, plan)
    if task == 2:
        return int(out_open_nb(r, S, seat, plan)), int(may_ask_nb(r, S.st))
    if task == 3:
        return meld_candidates_nb(r, S, seat, table, cands)
    S.st[ST_TRACE_ON] = 0
    return rollouts_task_nb(r, S, buf, view, seat, decision, cands, key, first, values,
                            table, row, turns), 0
