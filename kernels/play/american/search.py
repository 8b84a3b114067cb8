"""The search player of Modern American, ``search``: the family's ``expert`` blueprint,
improved at chosen decisions by rollouts on determinized copies of the deal (docs/search.md,
"Modern American"); the rollouts are kernels/play/american/rollout.py's.

A search seat plays its turn as expert does (the blueprint: ``expert`` with its default
parameters, in the table ``pol_b``, ``params_b``), but at three decisions, each searched when
its bit is in the ``decisions`` parameter:

* **take or draw** (``SEARCH_TAKE``, 4): when the seat may take the pile (A29-A31), taking it
  and drawing, the blueprint's choice first;
* **going out or asking** (``SEARCH_OUT``, 8): after the draw, the blueprint's own play and
  each other choice ``rollout.out_options_nb`` lists: holding on (no going out this turn)
  when the blueprint would go out, and asking the partner at the first chance (A41) when
  the blueprint would not ask and the question is open; and, in its partner's turn, its
  answer when that partner will ask it (yes, the blueprint's, or no: :func:`asked_turn_nb`);
* **the discard** (``SEARCH_DISCARD``, 1): the blueprint's best ``candidates`` discards, in
  the order of its own choice (its best, then its best of the rest ...).

Bit 2 (classic's freezing discard) has no use here: the pile is always frozen (A29).  Each
candidate is played on the same ``determinizations`` deals of the hidden cards (common random
numbers), drawn from a key made of the seat's own policy stream (which the family's expert
never advances), the turn count and the decision (classic ``search.decision_key_nb``), so the
rows are the same for any thread count.  A rollout's value is the seat's side's deal score
less the other side's; the best candidate is played if its mean gain over the blueprint's
choice beats ``threshold`` points and ``confidence`` standard errors of the paired gains
(classic ``search.choose_nb``); else the blueprint's.  ``rollouts`` (classic's playouts per
determinization) must be 1 here: every determinization is played once.
"""
import numpy as np

from ...game.cards import NKINDS
from ...jit import kernel, level
from ...players.american import pick_discard_nb, takes_pile_nb
from ...game.american.state import X_ASKED, X_TURN_ANSWER
from ...game.american.steps import may_ask_nb
from ...players.ids import POLICY_SEARCH, POLICY_USER
from ..search import (
    AT,
    MAX_CANDIDATES,
    Q_CANDIDATES,
    Q_DECISIONS,
    Q_DETERMINIZATIONS,
    R_ROW,
    R_STATS,
    SEARCH_DISCARD,
    SEARCH_OUT,
    SEARCH_TAKE,
    SQ,
    add_gain_nb,
    choose_nb,
    decision_key_nb,
    scratch_state_nb,
)
from .rollout import (
    ANSWER_NO,
    ANSWER_YES,
    DEC_ANSWER,
    DEC_DISCARD,
    DEC_OUT,
    DEC_TAKE,
    OUT_OWN,
    TAKE_DRAW,
    TAKE_PILE,
    copy_deal_nb,
    expert_tables_nb,
    melds_by_choice_nb,
    out_options_nb,
    rollouts_nb,
    scratch_mac_nb,
)
from .turn import ASK_OWN_NO, DEAL_OVER, MAX_TURNS, discard_phase_nb, draw_part_nb
from .turn import legal_discards_nb, melds_part_nb, open_turn_nb, play_turn_nb, take_open_nb
from ...game.american.steps import GOES_ON
from ...game.slots import WS_ORDER

VAL_AT = 128            # row R_ROW of ws from here: one determinization's values
LEGAL_AT = AT + 16      # row R_STATS of ws from here: the discards not yet candidates


@kernel
def margin_nb(scores, seat):
    """The seat's side's deal score less the other side's."""
    side = seat % 2
    return scores[side] - scores[1 - side]


@level
def search_choice_nb(mac, S, A, buf, seat, q, decision, cands, nc):
    """Roll out the candidates ``cands[:nc]`` of ``seat``'s ``decision`` (the blueprint's
    choice first) on ``determinizations`` determinizations and return the index of the one to
    play (classic ``search.choose_nb``: 0 unless another is worth playing)."""
    ws = S.ws
    stats = ws[R_STATS, 0:2 * SQ].view(np.float64)
    stats[:] = 0.0
    values = ws[R_ROW, VAL_AT:VAL_AT + 2 * MAX_CANDIDATES].reshape((1, MAX_CANDIDATES, 2))
    key = decision_key_nb(S.rng, S.st, seat, decision)
    dets = int(q[Q_DETERMINIZATIONS])
    pol, params = expert_tables_nb(ws)
    for d in range(dets):
        rollouts_nb(mac, S, A, buf, pol, params, seat, decision, cands, nc, key, d, values,
                    np.int64(MAX_TURNS))
        base = margin_nb(values[0, 0], seat)
        for c in range(nc):
            add_gain_nb(stats, c, margin_nb(values[0, c], seat) - base)
    return choose_nb(stats, nc, dets, q)


@level
def search_take_nb(mac, S, A, buf, seat, q, pol_b, params_b):
    """The take-or-draw search: ``TAKE_PILE`` or ``TAKE_DRAW`` for the turn, or -1 (the
    blueprint decides: the pile may not be taken)."""
    if not take_open_nb(mac, S, seat):
        return -1
    cands = S.ws[R_STATS, AT:AT + 2]
    own = TAKE_PILE if takes_pile_nb(pol_b, params_b, mac, S, seat) else TAKE_DRAW
    cands[0] = own
    cands[1] = TAKE_DRAW if own == TAKE_PILE else TAKE_PILE
    return cands[search_choice_nb(mac, S, A, buf, seat, q, DEC_TAKE, cands, 2)]


@level
def search_out_nb(mac, S, A, buf, seat, q):
    """The going-out search: the ``DEC_OUT`` candidate the seat plays (``OUT_OWN`` where
    there is no choice)."""
    cands = S.ws[R_STATS, AT:AT + 3]
    pol, params = expert_tables_nb(S.ws)
    nc = out_options_nb(mac, S, A, buf, pol, params, seat, cands)
    if nc == 0:
        return OUT_OWN
    return cands[search_choice_nb(mac, S, A, buf, seat, q, DEC_OUT, cands, nc)]


@kernel
def discard_candidates_nb(mac, S, A, seat, q, pol_b, params_b, legal, m, cands):
    """The discards searched, into ``cands``: the blueprint's choice among ``legal[:m]``, then
    its choice among the rest, up to ``candidates``; returns how many."""
    want = min(int(q[Q_CANDIDATES]), MAX_CANDIDATES - 1)
    nc = 0
    while nc < want and m >= 1:
        card = pick_discard_nb(pol_b, params_b, mac, S, A, seat, legal, m)
        cands[nc] = card
        nc += 1
        for i in range(m):                       # the chosen card out of the list
            if legal[i] == card:
                legal[i] = legal[m - 1]
                break
        m -= 1
    return nc


@level
def search_discard_nb(mac, S, A, buf, seat, q, pol_b, params_b):
    """The discard search: the card to discard."""
    ws = S.ws
    m = legal_discards_nb(mac, S, A, seat)
    legal = ws[R_STATS, LEGAL_AT:LEGAL_AT + NKINDS]
    for i in range(m):
        legal[i] = ws[WS_ORDER, i]
    cands = ws[R_STATS, AT:AT + MAX_CANDIDATES]
    nc = discard_candidates_nb(mac, S, A, seat, q, pol_b, params_b, legal, m, cands)
    if nc < 2:
        return cands[0]
    return cands[search_choice_nb(mac, S, A, buf, seat, q, DEC_DISCARD, cands, nc)]


@level
def search_turn_nb(mac, S, A, buf, seat, q, pol_b, params_b):
    """A search seat's turn (A12), as ``turn.play_turn_nb`` with the blueprint's table and
    the searched decisions (``q``: the seat's parameters).  Returns CONTINUE or DEAL_OVER."""
    if open_turn_nb(mac, S, A, buf, pol_b, params_b, seat) == DEAL_OVER:
        return DEAL_OVER
    mask = int(q[Q_DECISIONS])
    take = -1
    if mask & SEARCH_TAKE:
        take = search_take_nb(mac, S, A, buf, seat, q, pol_b, params_b)
    if draw_part_nb(mac, S, A, buf, pol_b, params_b, seat, take) == DEAL_OVER:
        return DEAL_OVER
    out = OUT_OWN
    if mask & SEARCH_OUT:
        out = search_out_nb(mac, S, A, buf, seat, q)
    kind = melds_by_choice_nb(mac, S, A, buf, pol_b, params_b, seat, DEC_OUT, out)
    card = -1
    if kind == GOES_ON and mask & SEARCH_DISCARD:
        card = search_discard_nb(mac, S, A, buf, seat, q, pol_b, params_b)
    return discard_phase_nb(mac, S, A, buf, pol_b, params_b, seat, kind, card)


@level
def partner_asks_nb(mac, S, A, buf, pol_b, params_b, seat):
    """Whether ``seat`` will ask its partner in the meld steps of its turn under way (A41),
    played by its player on a plain copy (its answer, expert's yes, changes nothing before
    the question; the question itself is public when the partner answers)."""
    ws = S.ws
    W = scratch_state_nb(ws)
    A2 = scratch_mac_nb(ws, A)
    copy_deal_nb(S, A, W, A2)
    melds_part_nb(mac, W, A2, buf, pol_b, params_b, seat, False)
    return A2.x[X_ASKED + seat] > A.x[X_ASKED + seat]


@level
def search_answer_nb(mac, S, A, buf, seat, partner, q, pol_b, params_b):
    """The answer search of a search seat ``partner`` whose partner ``seat`` will ask it this
    turn: ``ANSWER_YES`` (expert's, the blueprint's) or ``ANSWER_NO``, rolled out from the
    asker's turn after its draw (``rollout.DEC_ANSWER`` from the partner's view); -1 when
    no question comes."""
    if not partner_asks_nb(mac, S, A, buf, pol_b, params_b, seat):
        return -1
    cands = S.ws[R_STATS, AT:AT + 2]
    cands[0] = ANSWER_YES
    cands[1] = ANSWER_NO
    return cands[search_choice_nb(mac, S, A, buf, partner, q, DEC_ANSWER, cands, 2)]


@level
def asked_turn_nb(mac, S, A, buf, pol_b, params_b, seat, partner, q):
    """The turn of a seat whose partner is a search seat that searches going out (bit 8): as
    ``turn.play_turn_nb``, but where the seat will ask its partner the answer is searched
    (:func:`search_answer_nb`); a searched no is handed to the turn as ``turn.ASK_OWN_NO``
    (the seat still asks or not as its player would)."""
    if open_turn_nb(mac, S, A, buf, pol_b, params_b, seat) == DEAL_OVER:
        return DEAL_OVER
    if draw_part_nb(mac, S, A, buf, pol_b, params_b, seat, -1) == DEAL_OVER:
        return DEAL_OVER
    if search_answer_nb(mac, S, A, buf, seat, partner, q, pol_b, params_b) == ANSWER_NO:
        A.x[X_TURN_ANSWER] = ASK_OWN_NO
    kind = melds_part_nb(mac, S, A, buf, pol_b, params_b, seat, False)
    return discard_phase_nb(mac, S, A, buf, pol_b, params_b, seat, kind, -1)


@level
def seat_turn_nb(mac, S, A, buf, pol, params, pol_b, params_b, seat):
    """A turn of a deal: a search seat's (:func:`search_turn_nb`, its parameters from
    ``params``); a turn whose seat may ask a search seat that searches going out
    (:func:`asked_turn_nb`; not a user's seat, whose player is asked once only); or, for
    every other seat, its player's in the blueprint table ``pol_b``, ``params_b`` (``pol``
    with each search seat playing expert)."""
    if pol[seat] == POLICY_SEARCH:
        return search_turn_nb(mac, S, A, buf, seat, params[seat], pol_b, params_b)
    partner = (seat + 2) % 4
    if mac.num_players == 4 and pol[partner] == POLICY_SEARCH and \
            int(params[partner][Q_DECISIONS]) & SEARCH_OUT and pol[seat] != POLICY_USER and \
            may_ask_nb(mac, A, seat):
        return asked_turn_nb(mac, S, A, buf, pol_b, params_b, seat, partner, params[partner])
    return play_turn_nb(mac, S, A, buf, pol_b, params_b, seat)
