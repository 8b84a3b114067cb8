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
  the blueprint would not ask and the question is open;
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
from ...players.ids import POLICY_SEARCH
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
)
from .rollout import (
    DEC_DISCARD,
    DEC_OUT,
    DEC_TAKE,
    OUT_OWN,
    TAKE_DRAW,
    TAKE_PILE,
    melds_by_choice_nb,
    out_options_nb,
    rollouts_nb,
)
from .turn import DEAL_OVER, discard_phase_nb, draw_part_nb, legal_discards_nb, open_turn_nb
from .turn import play_turn_nb, take_open_nb
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
    for d in range(dets):
        rollouts_nb(mac, S, A, buf, seat, decision, cands, nc, key, d, values)
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
    nc = out_options_nb(mac, S, A, buf, seat, cands)
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
def seat_turn_nb(mac, S, A, buf, pol, params, pol_b, params_b, seat):
    """A turn of a deal: a search seat's (:func:`search_turn_nb`, its parameters from
    ``params``) or, for every other seat, its player's in the blueprint table ``pol_b``,
    ``params_b`` (``pol`` with each search seat playing expert)."""
    if pol[seat] == POLICY_SEARCH:
        return search_turn_nb(mac, S, A, buf, seat, params[seat], pol_b, params_b)
    return play_turn_nb(mac, S, A, buf, pol_b, params_b, seat)
