"""Who decides: the one switch from a seat's policy id to the player that decides.

Every decision of a turn comes through here, and nowhere else tests a policy id:

* :func:`choose_take_nb`: draw from the stock (or decline, once it is gone) or take the pile;
* :func:`choose_meld_step_nb`: the next meld step, going out, or stop;
* :func:`choose_discard_nb`: the card to discard;
* :func:`considers_asking_nb`: whether the seat's player may want to ask its partner (R42);
* :func:`pick_option_nb`: an index among options the rules listed (a take, a meld step, a
  discard, the ask, the answer), for every player; with decision logging on the list and
  the answer go into the trace buffer (:func:`log_decision_nb`).

A player may have *fast paths*: an answer computed straight from the hand that is exactly
the option it would pick from the full list (tests/test_kernel_identity.py checks each),
without building the list.  A new built-in player is one module in this folder, its id in
kernels/players/ids.py, the registry entry in canasta_sim/policies.py and a branch in
:func:`pick_option_nb`; a fast path adds one branch in the decision it speeds up.
"""

from typing import NamedTuple

import numpy as np

from ..game.cards import MELD_KINDS
from ..game.layout import (
    EV_DECISION,
)
from ..game.options import (
    DEC_DISCARD,
    DEC_DRAW,
    DEC_MELD,
    DEC_TAKE_PLAN,
    OPT_DECLINE,
    OPT_DRAW,
    OPT_GO_OUT,
    OPT_STOP,
    OPT_TAKE,
    add_opt_nb,
    discard_options_nb,
    forced_take_due_nb,
    meld_options_nb,
    pile_top_takeable_nb,
    step_cards_nb,
    take_options_nb,
)
from ..game.rng import STREAM_POLICY
from ..game.rules_nb import Ask
from ..game.slots import ST_TRACE_ON, WS_SCORES, WS_UNSEEN
from ..game.state import side_of_nb
from ..game.trace_events import ev_begin_nb, ev_push_nb
from ..jit import kernel, turn_step
from .club import (
    club_decide_nb,
    club_discard_card_nb,
    club_discard_nb,
    club_meld_step_nb,
    club_take_nb,
    is_club_nb,
    never_asks_nb,
)
from .greedy import greedy_discard_nb, greedy_meld_step_nb, greedy_nb, greedy_take_nb
from .ids import POLICY_GREEDY, POLICY_RANDOM, POLICY_USER
from .random import random_discard_nb, random_pick_nb
from .user import user_decide_nb


class Table(NamedTuple):
    """Who sits at the table and what a decision writes into, as the loops hand them to
    every decision: the seats' policy table (``pol``: ids, and a user policy's record,
    kernels/players/user.py), their parameters (``params``, float64[seats, NPARAMS]), the
    option list (``opts``, int64[MAX_OPTS, 5]) and the going-out plans (``plan``).  Numba
    passes it exactly as the four arrays, so the name costs nothing."""
    pol: np.ndarray
    params: np.ndarray
    opts: np.ndarray
    plan: np.ndarray


@turn_step
def choose_take_nb(rules, S, buf, seat, table, stock_gone):
    """The seat's player decides between the stock (or, once it is gone, declining) and the
    legal pile takes.  Returns the take as (naturals, deuces, jokers), or (-1, 0, 0)."""
    hands, melds, pile, st, ws = S.hands, S.melds, S.pile, S.st, S.ws
    policy = table.pol[seat]
    if (policy == POLICY_GREEDY or is_club_nb(policy)) and \
            not pile_top_takeable_nb(st, hands, melds, pile, seat):
        return -1, 0, 0                       # (what greedy_take_nb answers, without a call)
    if policy == POLICY_GREEDY:
        return greedy_take_nb(rules, st, S.seatv, S.sidev, hands[seat], melds, pile, seat,
                              table.plan, ws)
    if is_club_nb(policy):
        return club_take_nb(rules, st, S.seatv, S.sidev, hands[seat], melds, pile, seat,
                            table.params[seat], table.plan, ws,
                            stock_gone and forced_take_due_nb(rules, S, seat))
    opts = table.opts
    n = 0
    if not stock_gone:
        n = add_opt_nb(opts, n, OPT_DRAW, 0, 0, 0, 0)
    elif not forced_take_due_nb(rules, S, seat):
        n = add_opt_nb(opts, n, OPT_DECLINE, 0, 0, 0, 0)            # R49: may decline
    n = take_options_nb(rules, st, S.seatv, S.sidev, hands[seat], melds, pile, seat, opts, n,
                        table.plan, ws)
    if n == 0:
        return -1, 0, 0
    i = pick_option_nb(rules, S, buf, seat, table, DEC_DRAW, n)
    if opts[i, 0] != OPT_TAKE:
        return -1, 0, 0
    return opts[i, 1], opts[i, 2], opts[i, 3]


@turn_step
def choose_meld_step_nb(rules, S, buf, seat, table, planning, no_plans):
    """The seat's player picks its next meld step: (kind, rank, naturals, deuces, jokers),
    kind -1 when no step is legal.  ``greedy`` and the club players walk the legal steps in
    their order of preference; ``random`` picks from the full list of
    :func:`meld_options_nb`."""
    hands, melds, pile, st, seatv, ws = S.hands, S.melds, S.pile, S.st, S.seatv, S.ws
    policy = table.pol[seat]
    if policy == POLICY_GREEDY:
        return greedy_meld_step_nb(rules, st, seatv, hands[seat], melds, pile, seat, planning,
                                   table.plan, ws)
    if is_club_nb(policy):
        return club_meld_step_nb(rules, hands, melds, pile, st, seatv, S.sidev, ws, seat, policy,
                                 table.params[seat], planning, table.plan)
    opts = table.opts
    n = meld_options_nb(rules, st, seatv, hands[seat], melds, pile, seat, planning, no_plans,
                        opts, table.plan, ws)
    if n == 0:
        return -1, 0, 0, 0, 0
    decision = DEC_TAKE_PLAN if planning else DEC_MELD
    i = pick_option_nb(rules, S, buf, seat, table, decision, n)
    kind = opts[i, 0]
    if kind == OPT_GO_OUT or kind == OPT_STOP:
        return kind, opts[i, 1], 0, 0, 0
    nat, de, jo = step_cards_nb(kind, opts[i, 1], opts[i, 2], opts[i, 3], opts[i, 4])
    return kind, opts[i, 1], nat, de, jo


@turn_step
def pick_option_nb(rules, S, buf, seat, table, decision, n):
    """Index of the option ``seat``'s player picks among ``table.opts[:n]`` (n >= 1): the
    club players (kernels/players/club.py), a user's policy (kernels/players/user.py),
    ``random`` (kernels/players/random.py) or ``greedy`` (kernels/players/greedy.py).  With
    decision logging on (``ST_TRACE_ON`` = 2) the list and the answer go into the trace
    buffer."""
    hands, melds, pile, st, seatv, sidev, rng, ws = \
        S.hands, S.melds, S.pile, S.st, S.seatv, S.sidev, S.rng, S.ws
    policy = table.pol[seat]
    opts = table.opts
    if is_club_nb(policy) and decision == DEC_DISCARD:
        i = club_discard_nb(rules, hands, melds, pile, st, seatv, sidev, ws[WS_UNSEEN], seat,
                            policy, table.params[seat], opts, n)
    elif is_club_nb(policy):
        i = club_decide_nb(rules, S, seat, policy, table.params[seat], decision, opts, n)
    elif policy == POLICY_USER:
        i = 0 if n == 1 else user_decide_nb(rules, hands, melds, pile, st, seatv, sidev, rng, ws,
                                            seat, table.pol, table.params[seat], decision, opts,
                                            n)
    elif n == 1:
        i = 0
    elif policy == POLICY_RANDOM:
        i = random_pick_nb(rng, STREAM_POLICY + seat, n)
    elif policy == POLICY_GREEDY:
        i = greedy_nb(rules, table.params[seat], decision, opts, n, hands[seat], melds,
                      side_of_nb(st, seat), ws[WS_SCORES])
    else:
        i = 0
    if st[ST_TRACE_ON] == 2:
        log_decision_nb(st, buf, seat, decision, i, opts, n, table.plan)
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


@turn_step
def choose_discard_nb(rules, S, buf, seat, table):
    """R17: the card the seat's player discards.  ``greedy``, the club players and ``random``
    answer straight from the hand (the card they would pick from the list), except that a
    logged decision (``ST_TRACE_ON`` = 2) lists the options."""
    hands, st = S.hands, S.st
    policy = table.pol[seat]
    if policy == POLICY_GREEDY:
        return greedy_discard_nb(rules, hands[seat], S.melds, side_of_nb(st, seat))
    if is_club_nb(policy) and st[ST_TRACE_ON] != 2:    # (a logged decision lists them)
        return club_discard_card_nb(rules, hands, S.melds, S.pile, st, S.seatv, S.sidev,
                                    S.ws[WS_UNSEEN], seat, policy, table.params[seat])
    if policy == POLICY_RANDOM and st[ST_TRACE_ON] != 2:
        return random_discard_nb(hands[seat], S.rng, STREAM_POLICY + seat)
    n = discard_options_nb(hands[seat], table.opts)
    return table.opts[pick_option_nb(rules, S, buf, seat, table, DEC_DISCARD, n), 1]


@kernel
def considers_asking_nb(rules, st, pol, seat):
    """False when the seat's player never asks its partner here (R42), so the rules need not
    check whether a "yes" would let it out: ``greedy`` asks only when it must, and careful,
    rush and builder never ask (a logged decision still lists the ask)."""
    if pol[seat] == POLICY_GREEDY and rules.ask_permission != Ask.REQUIRED:
        return False                              # greedy asks only when it must (greedy.py)
    if never_asks_nb(rules, pol[seat]) and st[ST_TRACE_ON] != 2:
        return False                   # nor do careful, rush, builder (a decision log lists it)
    return True
