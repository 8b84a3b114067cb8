"""A deal stopped between two turns, for checks that replay one turn from the same position.

:func:`play_until_nb` deals a deal and plays its first turns into a state the caller owns
(``state.new_state()``), exactly as ``engine.play_deal_nb`` would; the caller may copy or
change that state (``canasta_sim.fairness`` rearranges the cards hidden from a seat) and
:func:`play_turn_traced_nb` then plays one turn from it with the trace and the decision
log on.  Playing on from a stopped deal gives the same turns as playing it whole.
"""
import numpy as np

from .actions import MAX_OPTS
from .cards import MELD_KINDS
from .jit import entry
from .layout import MAX_SIDES
from .plans import MAX_PLANS
from .search import play_table_turns_nb
from .setup import deal_nb
from .state import (
    ST_DEALER,
    ST_NSEATS,
    ST_TRACE_ON,
    ST_TRACE_OVERFLOW,
    ST_TRACE_POS,
    rules_record_nb,
)
from .user import user_failed_nb


@entry
def midgame_nb(rules, seed, deal, pol, params, scores_before, turns, S, seat, buf):
    """Both steps of this module in one entry kernel, so that the turn's code is compiled
    into one entry rather than two: with ``seat`` < 0 :func:`play_until_nb` (``buf`` unused),
    else :func:`play_turn_traced_nb` (``seed``, ``deal``, ``scores_before`` and ``turns``
    unused)."""
    opts = np.zeros((MAX_OPTS, 5), np.int64)
    plan = np.zeros((MAX_PLANS, MELD_KINDS, 3), np.int64)
    record = rules_record_nb(rules)
    if seat < 0:
        S[4][ST_TRACE_ON] = 0
        deal_nb(record[0], S, buf, seed, deal, -1, scores_before)
        seat = (S[4][ST_DEALER] + 1) % S[4][ST_NSEATS]
        seat = play_table_turns_nb(record[0], S, buf, seat, pol, params, opts, plan, turns)
        return -1 if user_failed_nb(pol, deal) else seat
    S[4][ST_TRACE_ON] = 2
    S[4][ST_TRACE_POS] = 0
    S[4][ST_TRACE_OVERFLOW] = 0
    play_table_turns_nb(record[0], S, buf, seat, pol, params, opts, plan, np.int64(1))
    user_failed_nb(pol, -1)
    S[4][ST_TRACE_ON] = 0
    return -1 if S[4][ST_TRACE_OVERFLOW] == 1 else S[4][ST_TRACE_POS]


def play_until_nb(rules, seed, deal, pol, params, scores_before, turns, S):
    """Deal ``deal`` of ``seed`` into ``S`` and play its first ``turns`` turns; returns the
    seat whose turn comes next, or -1 if the deal ended first."""
    return midgame_nb(rules, seed, deal, pol, params, scores_before, turns, S, -1,
                      np.zeros(1, np.int32))


def play_turn_traced_nb(rules, S, seat, pol, params, buf):
    """Play ``seat``'s turn from ``S`` with the trace and the decision log on (into ``buf``);
    returns the number of ints written, or -1 if ``buf`` was too small."""
    return midgame_nb(rules, 0, 0, pol, params, np.zeros(MAX_SIDES, np.int64), 0, S, seat,
                      buf)
