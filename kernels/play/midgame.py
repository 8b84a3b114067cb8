"""A deal stopped between two turns, for checks that replay one turn from the same position.

:func:`play_until_nb` deals a deal and plays its first turns into a state the caller owns
(``state.new_state()``), exactly as ``deals.play_deal_nb`` would; the caller may copy or
change that state (``canasta_sim.fairness`` rearranges the cards hidden from a seat) and
:func:`play_turn_traced_nb` then plays one turn from it with the trace and the decision
log on.  Playing on from a stopped deal gives the same turns as playing it whole.
"""
from .tasks import TASK_TURN, TASK_UNTIL, run


def play_until_nb(rules, seed, deal, pol, params, scores_before, turns, S):
    """Deal ``deal`` of ``seed`` into ``S`` and play its first ``turns`` turns; returns the
    seat whose turn comes next, or -1 if the deal ended first."""
    return run(TASK_UNTIL, rules, pol, params, seed=seed, first=deal,
               scores_before=scores_before, S=S, turns=turns)[0]


def play_turn_traced_nb(rules, S, seat, pol, params, buf):
    """Play ``seat``'s turn from ``S`` with the trace and the decision log on (into ``buf``);
    returns the number of ints written, or -1 if ``buf`` was too small."""
    return run(TASK_TURN, rules, pol, params, S=S, seat=seat, buf=buf)[0]
