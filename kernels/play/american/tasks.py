"""The Modern American entry kernel, :func:`run_mac_task_nb`, and its Python faces.

One entry for the family's tasks (deals, a traced deal, games), compiled only when a Modern
American rule set is first played, so classic's compile and its machine code are untouched.
"""
import numpy as np

from ...game.american.state import mac_record_nb, new_mac_state_nb
from ...game.layout import MAX_GAME_DEALS, MAX_SIDES
from ...game.slots import ST_CHECK_ON, ST_TRACE_ON, ST_TRACE_POS
from ...game.state import keep_alive_nb, new_state_nb
from ...jit import entry, kernel
from ...players.user import user_failed_nb
from .deals import play_mac_deal_nb, play_mac_game_nb

TASK_DEALS = 0        # deals first .. first + len(rows) - 1, a row each; flag: check cards
TASK_TRACE = 1        # deal ``first`` traced into buf, row rows[0]
TASK_GAMES = 2        # games from ``first`` into games_out, per-deal rows and extras


@entry
def run_mac_task_nb(task, mac, seed, first, dealer, pol, params, scores_before, buf, rows,
                    extras, games_out, flag):
    """Run ``task`` (``TASK_*``); returns two ints, as the task's Python face says."""
    record = mac_record_nb(mac)                     # helpers get the knobs as one pointer
    S = new_state_nb()
    A = new_mac_state_nb()
    cum = np.zeros(MAX_SIDES, np.int64)
    first_int, second = mac_task_nb(task, record[0], seed, first, dealer, pol, params,
                                    scores_before, buf, rows, extras, games_out, flag, S, A,
                                    cum)
    keep_alive_nb(record)
    return first_int, second


@kernel
def mac_task_nb(task, mac, seed, first, dealer, pol, params, scores_before, buf, rows, extras,
                games_out, flag, S, A, cum):
    """:func:`run_mac_task_nb` with the knobs as a record and the state allocated."""
    st = S.st
    if task == TASK_DEALS:
        st[ST_CHECK_ON] = flag
        for i in range(rows.shape[0]):
            play_mac_deal_nb(mac, S, A, buf, pol, params, seed, first + i, -1, scores_before,
                             rows[i])
            if user_failed_nb(pol, first + i):
                return i + 1, 0           # the Python face raises (kernels/players/user.py)
        return rows.shape[0], 0
    if task == TASK_TRACE:
        st[ST_TRACE_ON] = 1
        st[ST_CHECK_ON] = flag
        play_mac_deal_nb(mac, S, A, buf, pol, params, seed, first, dealer, scores_before, rows[0])
        user_failed_nb(pol, first)
        return st[ST_TRACE_POS], 0
    st[ST_CHECK_ON] = flag
    used = 0
    for g in range(games_out.shape[0]):
        if used + MAX_GAME_DEALS > rows.shape[0]:
            return g, used
        used += play_mac_game_nb(mac, S, A, buf, pol, params, seed, first + g, cum, games_out[g],
                                 rows[used:], extras[used:])
        if user_failed_nb(pol, -1):
            return g + 1, used
    return games_out.shape[0], used


def _dummy_buf():
    return np.zeros(1, np.int32)


def play_mac_deals(mac, seed, first, rows, pol, params, scores_before, check=0):
    """Play deals first .. first + len(rows) - 1 into ``rows`` (n x NCOLS int64); ``pol`` the
    policy table, ``params`` the seats' parameters (float64[MAX_SEATS, NPARAMS])."""
    empty = np.zeros((0, 1), np.int64)
    run_mac_task_nb(TASK_DEALS, mac, seed, first, -1, pol, params, scores_before, _dummy_buf(),
                    rows, empty, empty, check)


def trace_mac_deal(mac, seed, deal, dealer, pol, params, scores_before, row, buf, check=0):
    """Play deal ``deal`` traced into ``buf``; returns the ints used (``row``'s
    COL_TRACE_OVERFLOW says whether ``buf`` was too small)."""
    empty = np.zeros((0, 1), np.int64)
    used, _ = run_mac_task_nb(TASK_TRACE, mac, seed, deal, dealer, pol, params, scores_before,
                              buf, row.reshape(1, -1), empty, empty, check)
    return used


def play_mac_games(mac, seed, first, games_out, rows, extras, pol, params, check=0):
    """Play games from ``first`` into ``games_out``; returns (games played, deal rows used)
    (fewer games than asked when ``rows`` runs short: call again for the rest)."""
    return run_mac_task_nb(TASK_GAMES, mac, seed, first, -1, pol, params,
                           np.zeros(MAX_SIDES, np.int64), _dummy_buf(), rows, extras, games_out,
                           check)
