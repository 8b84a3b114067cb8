"""Whole Modern American deals and games (A4-A8, A45-A54): deal, lay dealt threes under
``after_deal``, play turns clockwise from the dealer's left until the deal ends, score it
into a result row; and games to ``game_target`` (8,500), which a Dream Hand ends at once.
"""
from ...game.american.deal import deal_american_nb
from ...game.american.melds import SIDES, WILD_ROW
from ...game.american.pile import stock_left_nb
from ...game.american.rules_nb import ThreesTiming
from ...game.american.scoring import (
    I_CANASTA_BONUS,
    I_CANASTAS,
    I_HAND,
    I_HAND_PENALTY,
    I_INCOMPLETE,
    I_MELDS,
    I_OUT,
    I_SPECIAL,
    I_THREES,
)
from ...game.american.special import wins_game_nb
from ...game.american.state import (
    X_SIDE_TAKES,
    X_SIDE_TALON,
    X_SPECIAL_CODE,
    X_SPECIAL_SEAT,
    X_THREES_DEALT,
)
from ...game.american.threes import BLACK, RED
from ...game.cards import ACE, FIRST_NATURAL
from ...game.deal import trace_start_nb
from ...game.layout import (
    COL_CHECK_FAILS,
    COL_CONCEALED,
    COL_DEALER,
    COL_END_REASON,
    COL_FORMED_BY,
    COL_LONE_SEAT,
    COL_MAC_GAME_OVER,
    COL_MAC_SPECIAL,
    COL_MAC_SPECIAL_SEAT,
    COL_OUT_SEAT,
    COL_STOCK_LEFT,
    COL_TRACE_OVERFLOW,
    COL_TURNS,
    COL_UPCARDS,
    END_STOCK,
    EV_END,
    GAME_STRIDE,
    GAME_TARGET,
    MAC_SIDE_BASE,
    MAC_SIDE_STRIDE,
    MAX_GAME_DEALS,
    S_CANASTA_BONUS,
    S_HAND,
    S_MELDED,
    S_MELDS,
    S_MIXED,
    S_NATURAL,
    S_OUT_BONUS,
    S_PILE_TAKES,
    S_RED3,
    S_RED3_DEALT,
    S_RED3_POINTS,
    S_SCORE,
    SIDE_BASE,
    SIDE_STRIDE,
)
from ...game.slots import (
    SIDE_MELDED,
    ST_CHECK_FAILS,
    ST_DEALER,
    ST_END_REASON,
    ST_OUT_SEAT,
    ST_TRACE_OVERFLOW,
    ST_TURNS,
)
from ...game.trace_events import ev_simple_nb
from ...jit import kernel
from ..deals import (
    GAME_ON,
    close_game_deal_nb,
    close_game_nb,
    game_over_nb,
    open_game_deal_nb,
)
from ...players.american_kinds import canasta_kind_nb
from ...players.user import copy_user_slots_nb
from ..search import fill_tables_nb, has_search_nb, tables_nb
from .search import seat_turn_nb
from .turn import DEAL_OVER, deal_threes_nb, side_total_nb, turn_checked_nb

# the family's own result columns, per side (layout.MAC_SIDE_FIELDS order)
F_CANASTAS = 0
F_CLEAN = 1
F_DIRTY = 2
F_ACES = 3
F_SEVENS = 4
F_WILD = 5
F_INCOMPLETE = 6
F_HAND_PENALTY = 7
F_RED = 8
F_BLACK = 9
F_DEALT = 10
F_TALON = 11
F_SPECIAL = 12


@kernel
def play_mac_deal_nb(mac, S, A, buf, pol, params, seed, deal, dealer, scores_before, row):
    """Deal ``deal``, play it to its end and score it into ``row`` (module docstring)."""
    st = S.st
    over = not start_mac_deal_nb(mac, S, A, buf, pol, params, seed, deal, dealer,
                                 scores_before)
    pol_b, params_b = turn_tables_nb(S, pol, params)
    seat = (st[ST_DEALER] + 1) % mac.num_players                         # A8
    turns = 0
    while not over:
        over = seat_turn_nb(mac, S, A, buf, pol, params, pol_b, params_b, seat) == DEAL_OVER
        user_slots_back_nb(S, pol, pol_b)
        seat = seat + 1 if seat + 1 < mac.num_players else 0
        turns += 1
        over = turn_checked_nb(mac, S, A, over, turns)
    ev_simple_nb(st, buf, EV_END, -1, st[ST_END_REASON], 0)
    score_mac_deal_nb(mac, S, A, row)


@kernel
def start_mac_deal_nb(mac, S, A, buf, pol, params, seed, deal, dealer, scores_before):
    """Deal ``deal`` (A4-A7), fill the deal's blueprint table in ``S.ws`` (``pol`` with each
    search seat playing expert, classic ``search.tables_nb``) and, with ``after_deal``, lay
    the dealt threes (A9).  Returns False if that already ended the deal (A43)."""
    st = S.st
    A.x[:] = 0
    A.threes[:, :] = 0
    A.x[X_SPECIAL_SEAT] = -1
    deal_american_nb(mac, S, seed, deal, dealer, scores_before)
    st[ST_OUT_SEAT] = -1
    trace_start_nb(mac, S, buf, st[ST_DEALER], mac.num_players * mac.hand_size)
    fill_tables_nb(S.ws, pol, params, st, False)
    pol_b, params_b = turn_tables_nb(S, pol, params)
    if mac.mac_threes_timing == ThreesTiming.AFTER_DEAL:
        over = not deal_threes_nb(mac, S, A, buf, pol_b, params_b, st[ST_DEALER])
        user_slots_back_nb(S, pol, pol_b)
        if over:
            st[ST_END_REASON] = END_STOCK
            return False
    return True


@kernel
def turn_tables_nb(S, pol, params):
    """The policy table and parameters the seats' turns are played with: ``pol`` and
    ``params`` themselves, so that a user policy's calls and failures land in the caller's
    table (kernels/players/user.py), or, with a search seat at the table, the blueprint copy
    in ``S.ws`` in which it plays expert (:func:`start_mac_deal_nb` fills it)."""
    if has_search_nb(pol, S.st):
        return tables_nb(S.ws, pol, False)
    return pol, params


@kernel
def user_slots_back_nb(S, pol, pol_b):
    """With a search seat at the table a user seat plays from the blueprint copy: its calls
    and its failure go back to the caller's table after every turn, so a broken interface is
    never lost (the watcher sees them a turn late)."""
    if has_search_nb(pol, S.st):
        copy_user_slots_nb(pol, pol_b)


@kernel
def canasta_kinds_nb(melds, side, out):
    """Count ``side``'s canastas by kind into the family columns ``out`` (A45): clean (K-4),
    dirty, clean aces, sevens, wild (``F_CLEAN`` + the kind of :func:`.kinds.canasta_kind_nb`)."""
    for r in range(WILD_ROW, ACE + 1):
        if FIRST_NATURAL > r > WILD_ROW:
            continue
        kind = canasta_kind_nb(melds, side, r)
        if kind >= 0:
            out[F_CLEAN + kind] += 1


@kernel
def score_mac_deal_nb(mac, S, A, row):
    """A45-A53: each side's items into the shared columns and the family's own."""
    st = S.st
    row[:] = 0
    row[COL_DEALER] = st[ST_DEALER]
    row[COL_END_REASON] = st[ST_END_REASON]
    row[COL_OUT_SEAT] = st[ST_OUT_SEAT]
    row[COL_CONCEALED] = 0                                              # A42: none
    row[COL_TURNS] = st[ST_TURNS]
    row[COL_STOCK_LEFT] = stock_left_nb(st)
    row[COL_UPCARDS] = 0                                                # A6: none
    row[COL_TRACE_OVERFLOW] = st[ST_TRACE_OVERFLOW]
    row[COL_CHECK_FAILS] = st[ST_CHECK_FAILS]
    row[COL_LONE_SEAT] = -1
    row[COL_FORMED_BY] = 0
    special_seat = A.x[X_SPECIAL_SEAT]
    row[COL_MAC_SPECIAL] = A.x[X_SPECIAL_CODE]
    row[COL_MAC_SPECIAL_SEAT] = special_seat
    row[COL_MAC_GAME_OVER] = 1 if wins_game_nb(A.x[X_SPECIAL_CODE]) else 0
    for side in range(SIDES):
        items = A.items[side]
        base = SIDE_BASE + SIDE_STRIDE * side
        row[base + S_SCORE] = side_total_nb(mac, S, A, side)
        row[base + S_MELDS] = items[I_MELDS]
        row[base + S_CANASTA_BONUS] = items[I_CANASTA_BONUS]
        row[base + S_RED3] = A.threes[side, RED]
        row[base + S_RED3_DEALT] = A.x[X_THREES_DEALT + side]
        row[base + S_RED3_POINTS] = items[I_THREES]
        row[base + S_OUT_BONUS] = items[I_OUT]
        row[base + S_HAND] = items[I_HAND]
        row[base + S_MELDED] = S.sidev[side, SIDE_MELDED]
        row[base + S_PILE_TAKES] = A.x[X_SIDE_TAKES + side]
        fam = row[MAC_SIDE_BASE + MAC_SIDE_STRIDE * side:
                  MAC_SIDE_BASE + MAC_SIDE_STRIDE * (side + 1)]
        canasta_kinds_nb(S.melds, side, fam)
        row[base + S_NATURAL] = fam[F_CLEAN] + fam[F_ACES] + fam[F_SEVENS]
        row[base + S_MIXED] = fam[F_DIRTY]
        fam[F_CANASTAS] = items[I_CANASTAS]
        fam[F_INCOMPLETE] = items[I_INCOMPLETE]
        fam[F_HAND_PENALTY] = items[I_HAND_PENALTY]
        fam[F_RED] = A.threes[side, RED]
        fam[F_BLACK] = A.threes[side, BLACK]
        fam[F_DEALT] = A.x[X_THREES_DEALT + side]
        fam[F_TALON] = A.x[X_SIDE_TALON + side]
        fam[F_SPECIAL] = items[I_SPECIAL]


@kernel
def play_mac_game_nb(mac, S, A, buf, pol, params, seed, game, cum, game_row, rows, extras):
    """Play game ``game`` to its end (A54; a Dream Hand ends it at once, A53): one result row
    and one extras row per deal.  Returns the number of deals played."""
    cum[:] = 0
    dealer = -1                                               # A4: the first dealer at random
    ended = GAME_ON
    winner = -1
    k = 0
    while ended == GAME_ON and k < MAX_GAME_DEALS:
        row = rows[k]
        open_game_deal_nb(extras, k, game, cum)
        play_mac_deal_nb(mac, S, A, buf, pol, params, seed, game * GAME_STRIDE + k, dealer,
                         cum, row)
        dealer = close_game_deal_nb(row, k, SIDES, mac.num_players, cum, game_row)  # A4, A50
        k += 1
        if row[COL_MAC_GAME_OVER] == 1:                                  # A53: a Dream Hand
            ended = GAME_TARGET
            winner = row[COL_MAC_SPECIAL_SEAT] % 2
        else:
            ended, winner = game_over_nb(mac, cum)                      # A54
    close_game_nb(game_row, k, ended, winner, cum)
    return k

