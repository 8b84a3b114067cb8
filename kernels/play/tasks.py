"""One entry kernel, :func:`run_task_nb`, for every task that plays turns.

Each entry kernel called from Python is optimized and emitted as machine code with the
whole turn's code linked in (kernels/jit.py), about 11 s of a cold compile each; the six
tasks below used to be six entry kernels.  They are now one, chosen by ``task``, and the
Python functions at the end of this module (:func:`play_deals_nb`, :func:`trace_deal_nb`,
:func:`play_games_nb`, :func:`out_choice_entry_nb`; kernels/play/midgame.py's two steps) call it
through :func:`run` with the arguments and results those entry kernels had.

Every task gets the same argument types (unused ones are small dummies of the right type),
so the kernel compiles once.  It returns two ints; what they mean depends on the task.
"""
import numpy as np

from ..game.cards import MELD_KINDS
from ..game.layout import MAX_GAME_DEALS, MAX_SIDES, NCOLS
from ..game.options import MAX_OPTS
from ..game.plans import MAX_PLANS
from ..game.slots import (
    ST_CHECK_ON,
    ST_TRACE_ON,
    ST_TRACE_OVERFLOW,
    ST_TRACE_POS,
    ST_TURN_OUT_CHOICE,
)
from ..game.state import keep_alive_nb, new_state, rules_record_nb
from ..jit import entry, level
from ..players.switch import Table
from ..players.user import user_failed_nb
from .deals import deal_for_play_nb, play_deal_nb, play_game_nb
from .search import out_candidates_nb, out_open_nb, play_table_turns_nb
from .turn import DRAW_ONLY, MELD_ONLY, play_turns_nb

TASK_DEALS = 0        # deals first .. first + len(rows) - 1, a row each; flag: check cards
TASK_TRACE = 1        # deal ``first`` traced into buf, row rows[0]; flag: log decisions
TASK_GAMES = 2        # games from ``first`` into games_out, per-deal rows and extras
TASK_UNTIL = 3        # deal ``first`` into S, then its first ``turns`` turns
TASK_TURN = 4         # ``seat``'s turn from S, traced into buf with the decision log
TASK_OUT_CHOICE = 5   # ``seat``'s draw and meld phases with going-out choice ``turns``


@entry
def run_task_nb(task, rules, seed, first, dealer, pol, params, scores_before, S, buf, rows,
                extras, games_out, flag, turns, seat, cands):
    """Run ``task`` (``TASK_*``); returns two ints, as the task's Python face says."""
    opts = np.zeros((MAX_OPTS, 5), np.int64)
    plan = np.zeros((MAX_PLANS, MELD_KINDS, 3), np.int64)
    cum = np.zeros(MAX_SIDES, np.int64)
    record = rules_record_nb(rules)                 # helpers get the knobs as one pointer
    r = record[0]                                   # (kept alive to the end: keep_alive_nb)
    table = Table(pol, params, opts, plan)
    second = 0
    if task == TASK_DEALS:
        first_int = deals_task_nb(r, S, buf, seed, first, table, scores_before, rows, flag)
    elif task == TASK_TRACE:
        first_int = trace_task_nb(r, S, buf, seed, first, dealer, table, scores_before,
                                  rows[0], flag)
    elif task == TASK_GAMES:
        first_int, second = games_task_nb(r, S, buf, seed, first, table, games_out, rows,
                                          extras, flag, cum)
    elif task == TASK_UNTIL:
        first_int = until_task_nb(r, S, buf, seed, first, table, scores_before, turns)
    elif task == TASK_TURN:
        first_int = turn_task_nb(r, S, buf, seat, table)
    else:
        first_int = out_choice_task_nb(r, S, buf, seat, table, turns, cands)
    keep_alive_nb(record)
    return first_int, second



@level
def deals_task_nb(rules, S, buf, seed, first, table, scores_before, rows, check):
    """TASK_DEALS; returns the number of deals played."""
    S.st[ST_CHECK_ON] = check
    for i in range(rows.shape[0]):
        play_deal_nb(rules, S, buf, seed, first + i, -1, table, scores_before, rows[i])
        if user_failed_nb(table.pol, first + i):
            return i + 1                      # the Python face raises (kernels/players/user.py)
    return rows.shape[0]


@level
def trace_task_nb(rules, S, buf, seed, deal, dealer, table, scores_before, row, decisions):
    """TASK_TRACE; returns the number of ints written to ``buf``."""
    S.st[ST_TRACE_ON] = 1 + decisions
    play_deal_nb(rules, S, buf, seed, deal, dealer, table, scores_before, row)
    user_failed_nb(table.pol, deal)
    return S.st[ST_TRACE_POS]


@level
def games_task_nb(rules, S, buf, seed, first, table, games_out, rows, extras, check, cum):
    """TASK_GAMES: games while ``rows`` and ``extras`` have room for a game of
    MAX_GAME_DEALS deals; returns (games played, deal rows used)."""
    S.st[ST_CHECK_ON] = check
    used = 0
    for g in range(games_out.shape[0]):
        if rows.shape[0] - used < MAX_GAME_DEALS:
            return g, used
        used += play_game_nb(rules, S, buf, seed, first + g, table, cum,
                             games_out[g], rows[used:], extras[used:])
        if user_failed_nb(table.pol, -1):
            return g + 1, used
    return games_out.shape[0], used


@level
def until_task_nb(rules, S, buf, seed, deal, table, scores_before, turns):
    """TASK_UNTIL; returns the seat whose turn comes next, or -1 if the deal ended."""
    S.st[ST_TRACE_ON] = 0
    seat = deal_for_play_nb(rules, S, buf, seed, deal, -1, scores_before)
    seat = play_table_turns_nb(rules, S, buf, seat, table, turns)
    return -1 if user_failed_nb(table.pol, deal) else seat


@level
def turn_task_nb(rules, S, buf, seat, table):
    """TASK_TURN; returns the number of ints written, or -1 if ``buf`` was too small."""
    S.st[ST_TRACE_ON] = 2
    S.st[ST_TRACE_POS] = 0
    S.st[ST_TRACE_OVERFLOW] = 0
    play_table_turns_nb(rules, S, buf, seat, table, np.int64(1))
    user_failed_nb(table.pol, -1)
    S.st[ST_TRACE_ON] = 0
    return -1 if S.st[ST_TRACE_OVERFLOW] == 1 else S.st[ST_TRACE_POS]


@level
def out_choice_task_nb(rules, S, buf, seat, table, choice, cands):
    """TASK_OUT_CHOICE; returns the number of choices the search would roll out (0 if the
    seat could not go out), or -1 if the draw ended the deal."""
    S.st[ST_TRACE_ON] = 0
    if play_turns_nb(rules, S, buf, seat, table, np.int64(DRAW_ONLY)) < 0:
        return -1
    nc = 0
    if out_open_nb(rules, S, seat, table.plan):
        nc = out_candidates_nb(rules, S, seat, table.params[seat], cands)
    S.st[ST_TURN_OUT_CHOICE] = choice
    play_turns_nb(rules, S, buf, seat, table, np.int64(MELD_ONLY))
    return nc


def run(task, rules, pol, params, *, seed=0, first=0, dealer=-1, scores_before=None, S=None,
        buf=None, rows=None, extras=None, games_out=None, flag=0, turns=0, seat=0,
        cands=None):
    """Call :func:`run_task_nb` for ``task`` with dummies for what the task does not use
    (a fresh state for ``S``); returns its two ints."""
    no_rows = np.zeros((0, NCOLS), np.int64)
    return run_task_nb(task, rules, seed, first, dealer, pol, params,
                       np.zeros(MAX_SIDES, np.int64) if scores_before is None
                       else scores_before,
                       new_state() if S is None else S,
                       np.zeros(1, np.int32) if buf is None else buf,
                       no_rows if rows is None else rows,
                       no_rows if extras is None else extras,
                       no_rows if games_out is None else games_out, flag, turns, seat,
                       np.zeros(1, np.int64) if cands is None else cands)


# ---- the tasks' Python faces: the arguments and results of the former entry kernels ----

def play_deals_nb(rules, seed, first_deal, out, pol, params, scores_before, check):
    """Play deals first_deal .. first_deal + len(out) - 1, one result row each (no trace).
    ``check`` = 1 verifies card conservation after every turn (row[COL_CHECK_FAILS]).
    (Through :func:`run_task_nb`, shared by every task that plays turns.)"""
    run(TASK_DEALS, rules, pol, params, seed=seed, first=first_deal,
        scores_before=scores_before, rows=out, flag=check)


def trace_deal_nb(rules, seed, deal, dealer, pol, params, scores_before, row, buf, decisions):
    """Play one deal with the trace on; returns the number of ints written to ``buf``
    (row[COL_TRACE_OVERFLOW] = 1 if ``buf`` was too small).  ``dealer`` -1 draws the dealer
    as :func:`play_deals_nb` does; a seat sets it (a deal of a game, kernels/play/deals.py, whose
    ``scores_before`` are the sides' cumulative scores).  ``decisions`` = 1 also logs every
    listed decision (``log_decision_nb``), for the move-generation tests."""
    return run(TASK_TRACE, rules, pol, params, seed=seed, first=deal, dealer=dealer,
               scores_before=scores_before, buf=buf, rows=row.reshape(1, -1),
               flag=decisions)[0]


def play_games_nb(rules, seed, first_game, games_out, rows, extras, pol, params, check):
    """Play games first_game, first_game+1, ... into ``games_out`` rows while ``rows`` /
    ``extras`` (per-deal) still have room for a game of MAX_GAME_DEALS deals.
    Returns (games played, deal rows used); call again for the rest."""
    return run(TASK_GAMES, rules, pol, params, seed=seed, first=first_game,
               games_out=games_out, rows=rows, extras=extras, flag=check)


def out_choice_entry_nb(rules, S, seat, pol, params, choice, cands):
    """For tests: ``seat``'s draw and meld phases in ``S`` (``pol``, ``params``: the tables,
    no search seat), its going-out choice fixed to ``choice`` (``OUT_*``) after the draw.
    ``cands`` gets the choices ``search.search_out_nb`` would roll out there; returns how many
    (0 if the seat could not go out), or -1 if the draw ended the deal."""
    return run(TASK_OUT_CHOICE, rules, pol, params, S=S, seat=seat, turns=choice,
               cands=cands)[0]
