"""One entry kernel, :func:`rollout_probe_nb`, that reaches a decision of a Modern American
deal and determinizes or rolls it out from Python (kernels/play/american/rollout.py): what the
tests check the rollouts by, and a way in for a Python caller that values one decision."""
import numpy as np

from ...game.layout import MAX_SIDES
from ...game.slots import ST_DEALER, ST_TURNS
from ...game.state import keep_alive_nb
from ...game.american.state import mac_record_nb
from ...game.american.steps import GOES_ON
from ...jit import entry, kernel
from .deals import start_mac_deal_nb
from ..search import AT, R_STATS
from .rollout import DEC_OUT, DEC_TAKE, determinize_nb, expert_tables_nb, out_options_nb
from .rollout import rollouts_nb
from .turn import DEAL_OVER, MAX_TURNS, draw_part_nb, legal_discards_nb, melds_part_nb
from .turn import open_turn_nb, play_turn_nb, take_open_nb

PROBE_REACH = 0          # play deal ``deal`` with expert to ``decision`` in turn ``turn``
PROBE_DETERMINIZE = 1    # W, A2 <- determinization ``d0`` of seat's decision with ``key``
PROBE_ROLLOUTS = 2       # values <- rollouts_nb of cands


@kernel
def advance_to_decision_nb(mac, S, A, buf, pol, params, seat, decision):
    """Play ``seat``'s turn by ``pol`` up to ``decision``'s point (rollout.py's docstring);
    returns how many choices there are (the legal discards, left in ``ws[WS_ORDER]``; 2 for a
    take that is open; the going-out candidates, left in ``ws[R_STATS, AT:]``), 0 if the
    point has no choice or is not reached."""
    if open_turn_nb(mac, S, A, buf, pol, params, seat) == DEAL_OVER:
        return 0
    if decision == DEC_TAKE:
        return 2 if take_open_nb(mac, S, seat) else 0
    if draw_part_nb(mac, S, A, buf, pol, params, seat, -1) == DEAL_OVER:
        return 0
    if decision == DEC_OUT:
        return out_options_nb(mac, S, A, buf, pol, params, seat, S.ws[R_STATS, AT:AT + 3])
    if melds_part_nb(mac, S, A, buf, pol, params, seat, False) != GOES_ON:
        return 0
    return legal_discards_nb(mac, S, A, seat)


@kernel
def reach_decision_nb(mac, S, A, buf, seed, deal, turn, decision, scores_before):
    """Deal ``deal`` of ``seed`` (``scores_before``: the sides' scores, A24) and play it with
    expert at every seat to ``decision`` of the deal's turn number ``turn`` (1 = the first).
    Returns (the seat, its choices: see :func:`advance_to_decision_nb`), or (-1, 0) if the
    deal ends first."""
    pol, params = expert_tables_nb(S.ws)
    if not start_mac_deal_nb(mac, S, A, buf, pol, params, seed, deal, -1, scores_before):
        return -1, 0
    seat = (S.st[ST_DEALER] + 1) % mac.num_players
    while S.st[ST_TURNS] < turn - 1:
        if play_turn_nb(mac, S, A, buf, pol, params, seat) == DEAL_OVER:
            return -1, 0
        seat = (seat + 1) % mac.num_players
    return seat, advance_to_decision_nb(mac, S, A, buf, pol, params, seat, decision)


@kernel
def expert_rollouts_nb(mac, S, A, buf, seat, decision, cands, key, d0, values):
    """The search player's rollouts of ``cands`` (:func:`.rollout.rollouts_nb`: ``expert``
    at its defaults at every seat, to the deal's end).  The tables are views of ``S.ws``
    made in this kernel, never handed to the entry (which would count references to them)."""
    pol, params = expert_tables_nb(S.ws)
    rollouts_nb(mac, S, A, buf, pol, params, seat, decision, cands, cands.shape[0], key, d0,
                values, np.int64(MAX_TURNS))


@entry
def rollout_probe_nb(task, mac, seed, deal, turn, seat, decision, S, A, W, A2, cands, key,
                     d0, values):
    """Run ``task`` (``PROBE_*``) on the states ``S``, ``A`` (and ``W``, ``A2`` for a
    determinization) from ``state.new_state`` and ``state.new_mac_state``; returns (seat,
    choices) for PROBE_REACH, else (0, 0).  ``mac``: ``RuleSet.to_american_kernel()``."""
    record = mac_record_nb(mac)
    buf = np.zeros(1, np.int32)
    out = (0, 0)
    if task == PROBE_REACH:
        out = reach_decision_nb(record[0], S, A, buf, seed, deal, turn, decision,
                                np.zeros(MAX_SIDES, np.int64))
    elif task == PROBE_DETERMINIZE:
        determinize_nb(record[0], S, A, W, A2, seat, key, d0)
    else:
        expert_rollouts_nb(record[0], S, A, buf, seat, decision, cands, key, d0, values)
    keep_alive_nb(record)
    return out
