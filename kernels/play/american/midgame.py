"""A Modern American deal stopped at a turn and one turn played from there, for
``canasta-sim check-policy --rules modern-american`` (canasta_sim/fairness.py: the
information check plays a seat's turn twice, once with the cards hidden from it
rearranged).  Compiled only when that check runs."""
import numpy as np

from ...game.american.state import mac_record_nb
from ...game.slots import ST_DEALER, ST_TRACE_ON, ST_TRACE_OVERFLOW, ST_TRACE_POS
from ...game.state import keep_alive_nb
from ...jit import entry, kernel
from ...players.user import user_failed_nb
from .deals import start_mac_deal_nb
from .turn import DEAL_OVER, play_turn_nb


@kernel
def mac_until_nb(mac, S, A, buf, pol, params, seed, deal, scores_before, turns):
    """:func:`mac_play_until_nb` with the knobs as a record (``buf``: no trace is kept)."""
    if not start_mac_deal_nb(mac, S, A, buf, pol, params, seed, deal, -1, scores_before):
        return -1
    seat = (S.st[ST_DEALER] + 1) % mac.num_players                         # A8
    for _ in range(turns):
        if play_turn_nb(mac, S, A, buf, pol, params, seat) == DEAL_OVER:
            return -1
        if user_failed_nb(pol, deal):
            return -1
        seat = (seat + 1) % mac.num_players
    return seat


@entry
def mac_play_until_nb(mac, seed, deal, pol, params, scores_before, turns, S, A):
    """Deal ``deal`` of ``seed`` into ``S`` and ``A`` and play its first ``turns`` turns;
    returns the seat whose turn comes next, or -1 if the deal ended first."""
    record = mac_record_nb(mac)
    seat = mac_until_nb(record[0], S, A, np.zeros(1, np.int32), pol, params, seed, deal,
                        scores_before, turns)
    keep_alive_nb(record)
    return seat


@kernel
def mac_turn_nb(mac, S, A, seat, pol, params, buf):
    """:func:`mac_play_turn_traced_nb` with the knobs as a record."""
    st = S.st
    st[ST_TRACE_ON] = 1
    st[ST_TRACE_POS] = 0
    st[ST_TRACE_OVERFLOW] = 0
    play_turn_nb(mac, S, A, buf, pol, params, seat)
    user_failed_nb(pol, -1)
    return -1 if st[ST_TRACE_OVERFLOW] else st[ST_TRACE_POS]


@entry
def mac_play_turn_traced_nb(mac, S, A, seat, pol, params, buf):
    """Play ``seat``'s turn from ``S`` and ``A`` traced into ``buf``; returns the number of
    ints written, or -1 if ``buf`` was too small."""
    record = mac_record_nb(mac)
    used = mac_turn_nb(record[0], S, A, seat, pol, params, buf)
    keep_alive_nb(record)
    return used
