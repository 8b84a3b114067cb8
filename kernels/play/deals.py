"""Whole deals, and whole games to the target score (R5, R58-R60) built on them.

A game starts at cumulative score 0 for every side with a random dealer (R5); the deal
then passes one seat clockwise each deal.  Each deal's initial-meld minimum comes from
the side's cumulative score (R27), which grows by the deal score (R58).  After a deal in
which some side has reached ``game_target`` the side with the higher total wins (R59);
an exact tie at the top plays another deal or ends in a draw by ``tie_policy`` (R60).
"""
import numpy as np

from ..game.deal import deal_nb
from ..game.layout import (
    COL_DEALER,
    D_CUM_BEFORE,
    D_DEAL_IN_GAME,
    D_GAME,
    END_STOCK,
    EV_END,
    G_DEALS,
    G_ENDED,
    G_FINAL,
    G_FIRST_DEALER,
    G_WINNER,
    GAME_CUT,
    GAME_DRAW,
    GAME_STRIDE,
    GAME_TARGET,
    MAX_GAME_DEALS,
    MAX_SIDES,
    S_SCORE,
    SIDE_BASE,
    SIDE_STRIDE,
)
from ..game.rules_nb import Tie
from ..game.scoring import score_deal_nb
from ..game.slots import ST_CHECK_FAILS, ST_DEALER, ST_END_REASON, ST_NSEATS, ST_UPCARDS
from ..game.state import new_state_nb, rules_record_nb
from ..game.trace_events import ev_simple_nb
from ..jit import entry, kernel, level
from ..players.user import user_failed_nb
from .search import play_table_turns_nb
from .turn import MAX_TURNS

GAME_ON = -1                                      # game_over_nb: the game goes on


@kernel
def deal_for_play_nb(rules, S, buf, seed, deal, dealer, scores_before):
    """Deal ``deal`` into ``S``; returns the seat that plays first, the dealer's left (R10)."""
    deal_nb(rules, S, buf, seed, deal, dealer, scores_before)
    return (S.st[ST_DEALER] + 1) % S.st[ST_NSEATS]


@level
def play_deal_nb(rules, S, buf, seed, deal, dealer, table, scores_before, row):
    """Deal, play turns clockwise from the dealer's left (R10) until the deal ends, score."""
    st = S.st
    seat = deal_for_play_nb(rules, S, buf, seed, deal, dealer, scores_before)
    if play_table_turns_nb(rules, S, buf, seat, table,
                           np.int64(MAX_TURNS)) >= 0:      # int64: see play_turns_nb
        # the safety net, never reached in practice: the deal did not end in MAX_TURNS turns
        st[ST_END_REASON] = END_STOCK
        st[ST_CHECK_FAILS] += 1
    ev_simple_nb(st, buf, EV_END, -1, st[ST_END_REASON], 0)
    score_deal_nb(rules, S, row)


@kernel
def game_over_nb(rules, cum):
    """After a deal: (how the game ended or GAME_ON, winning side or -1).  R59: the game ends
    once a side has reached the target, won by the higher total; R60: an exact tie at the top
    plays another deal (tie_policy=extra_deal) or ends in a draw (tie_policy=draw)."""
    top = cum[0]
    for side in range(1, rules.num_sides):
        top = max(top, cum[side])
    if top < rules.game_target:
        return GAME_ON, -1
    leaders = 0
    winner = -1
    for side in range(rules.num_sides):
        if cum[side] == top:
            leaders += 1
            winner = side
    if leaders == 1:
        return GAME_TARGET, winner
    if rules.tie_policy == Tie.DRAW:
        return GAME_DRAW, -1
    return GAME_ON, -1


@kernel
def open_game_deal_nb(extras, k, game, cum):
    """Deal ``k`` of game ``game`` begins: its extras row says the game, the deal's place in
    it and every side's cumulative score before it (R58)."""
    extras[k, D_GAME] = game
    extras[k, D_DEAL_IN_GAME] = k
    for side in range(MAX_SIDES):
        extras[k, D_CUM_BEFORE + side] = cum[side]


@kernel
def close_game_deal_nb(row, k, num_sides, num_players, cum, game_row):
    """Deal ``k`` of a game has been played into ``row``: its scores join the cumulative
    scores (R58) and the next dealer is returned (R5: the deal passes clockwise)."""
    if k == 0:
        game_row[G_FIRST_DEALER] = row[COL_DEALER]
    for side in range(num_sides):
        cum[side] += row[SIDE_BASE + SIDE_STRIDE * side + S_SCORE]          # R58
    return (row[COL_DEALER] + 1) % num_players                              # R5


@kernel
def close_game_nb(game_row, deals, ended, winner, cum):
    """The game's own row once its last deal is played (``GAME_CUT`` if it never ended)."""
    game_row[G_DEALS] = deals
    game_row[G_WINNER] = winner
    game_row[G_ENDED] = GAME_CUT if ended == GAME_ON else ended
    for side in range(MAX_SIDES):
        game_row[G_FINAL + side] = cum[side]


@level
def play_game_nb(rules, S, buf, seed, game, table, cum, game_row, rows, extras):
    """Play game ``game`` to its end; one result row and one extras row per deal.
    ``rows`` and ``extras`` must hold MAX_GAME_DEALS rows; ``cum`` is scratch for the
    cumulative scores.  Returns the number of deals played."""
    cum[:] = 0
    dealer = -1                                   # R5: the first dealer at random
    ended = GAME_ON
    winner = -1
    k = 0
    while ended == GAME_ON and k < MAX_GAME_DEALS:
        open_game_deal_nb(extras, k, game, cum)
        play_deal_nb(rules, S, buf, seed, game * GAME_STRIDE + k, dealer, table, cum, rows[k])
        dealer = close_game_deal_nb(rows[k], k, rules.num_sides, rules.num_players, cum,
                                    game_row)
        k += 1
        if user_failed_nb(table.pol, game * GAME_STRIDE + k - 1):
            break                           # the Python face raises (kernels/players/user.py)
        ended, winner = game_over_nb(rules, cum)
    close_game_nb(game_row, k, ended, winner, cum)
    return k


@entry
def deal_only_nb(rules, seed, first_deal, n, scores_before):
    """Shuffle, deal and turn the upcard for n deals without playing them: the floor the
    benchmarks compare a full deal with.  Returns a checksum so the work is not optimised away."""
    S = new_state_nb()
    buf = np.zeros(1, np.int32)
    total = 0
    record = rules_record_nb(rules)
    for i in range(n):
        deal_nb(record[0], S, buf, seed, first_deal + i, -1, scores_before)
        total += S.st[ST_UPCARDS] + S.deck[0]
    return total
