"""The deal state, a named tuple of plain integer arrays, and the small rule helpers
every other kernel uses (card values, meld validity, freezing, minimums).

The state ``S`` is a :class:`DealState`, read by field name (``S.hands``, ``S.st``):

* ``hands``  int64[MAX_SEATS, NKINDS]     cards in each hand, by kind
* ``melds``  int64[MAX_SIDES, M_COLS, MELD_KINDS]  each side's meld of each rank:
  naturals, deuces, jokers and their sum, the meld's size (rank BLACK3 = the R25
  black-three meld), a plane per column so that a scan of one column over the ranks
  (most often the sizes) reads consecutive words.  Every kernel that moves cards onto or
  off a meld updates the size with them (options.place_cards_nb, options.move_to_meld_nb,
  turn.take_pile_nb), so that reading a size is one load; ``melds_consistent_nb``
  checks it
* ``deck``   int64[MAX_CARDS]             the shuffled deck; the stock is
  ``deck[st[ST_STOCK_POS]:st[ST_DECK_N]]``, top card first
* ``pile``   int64[MAX_CARDS]             the discard pile, bottom first
* ``st``     int64[NST]                   scalars (``ST_*``)
* ``seatv``  int64[MAX_SEATS, NSEATV]     per-seat scalars (``SEAT_*``)
* ``sidev``  int64[MAX_SIDES, NSIDEV]     per-side scalars (``SIDE_*``)
* ``rng``    uint64[NSTREAMS]             random streams of this deal
* ``ws``     int64[WS_ROWS, WS_COLS]      scratch rows (``WS_*``), so hot loops never allocate
* ``wm``     int64[2, MELD_KINDS, M_COLS]  scratch meld tables (``WM_*``)

Every slot of these arrays (``M_*``, ``ST_*``, ``SEAT_*``, ``SIDE_*``, ``WS_*``, ``WM_*``) is
declared once, with its meaning, values and rules, in the map of kernels/game/slots.py.
"""
from typing import NamedTuple

import numpy as np

from ..jit import entry, kernel, one_step
from .cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, MELD_KINDS, NKINDS, RED3
from .layout import MAX_CARDS, MAX_SEATS, MAX_SIDES
from .rng import NSTREAMS
from .rules_nb import CoverSet, RulesNb, WildRatio
from .slots import (
    M_COLS,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    NSEATV,
    NSIDEV,
    NST,
    ST_PILE_N,
    ST_SIDE_OF,
    WS_COLS,
    WS_ROWS,
)


class DealState(NamedTuple):
    """The deal state (module docstring): ten arrays a kernel reads by name.  Numba passes it
    exactly as a plain tuple of the same arrays (the same machine code), so names cost
    nothing."""
    hands: np.ndarray
    melds: np.ndarray
    deck: np.ndarray
    pile: np.ndarray
    st: np.ndarray
    seatv: np.ndarray
    sidev: np.ndarray
    rng: np.ndarray
    ws: np.ndarray
    wm: np.ndarray


def new_state():
    """Allocate one zeroed :class:`DealState` (see the module docstring)."""
    return DealState(np.zeros((MAX_SEATS, NKINDS), np.int64),
            np.zeros((MAX_SIDES, M_COLS, MELD_KINDS), np.int64),
            np.zeros(MAX_CARDS, np.int64),
            np.zeros(MAX_CARDS, np.int64),
            np.zeros(NST, np.int64),
            np.zeros((MAX_SEATS, NSEATV), np.int64),
            np.zeros((MAX_SIDES, NSIDEV), np.int64),
            np.zeros(NSTREAMS, np.uint64),
            np.zeros((WS_ROWS, WS_COLS), np.int64),
            np.zeros((2, MELD_KINDS, M_COLS), np.int64))


new_state_nb = entry(new_state)


def copy_state(S):
    """A :class:`DealState` holding copies of ``S``'s arrays (for Python callers)."""
    return DealState(*(a.copy() for a in S))

RULES_DTYPE = np.dtype([(name, np.int64) for name in RulesNb._fields])
"""The knobs of :class:`RulesNb` as one numpy record: what entry kernels pass to helpers."""


@entry
def rules_record_nb(rules):
    """Copy a :class:`RulesNb` into a one-element record array of ``RULES_DTYPE``.

    Numba passes a NamedTuple argument as one machine argument per field, so every call of
    a helper that takes ``rules`` pushed 51 ints onto the stack; a record (``array[0]``) is
    passed as one pointer and read with the very same ``rules.knob`` syntax.  The caller
    keeps the returned array alive while the record is in use."""
    raw = np.empty(len(rules), np.int64)
    for i in range(len(rules)):
        raw[i] = rules[i]
    return raw.view(RULES_DTYPE)


@kernel
def keep_alive_nb(array):
    """Nothing but a use of ``array``, placed after the code that reads a record of it.

    numba frees an array after its last use, and a record ``r = record[0]`` points into the
    array without holding it: without a later use the rules would be read from freed memory,
    which any allocation meanwhile (a user policy's ``np.zeros``, a Python policy compiling
    a numba helper) overwrites."""
    return array.shape[0]


@kernel
def card_value_nb(rules, kind):
    """R4: the card value of one card of ``kind`` (black three from the knob)."""
    if kind == JOKER:
        return 50
    if kind == DEUCE:
        return 20
    if kind == RED3:
        return 0
    if kind == BLACK3:
        return rules.black3_card_value
    if kind <= 7:
        return 5
    if kind <= 13:
        return 10
    return 20


@one_step
def row_total_nb(row):
    """Number of cards in a count vector (a hand row)."""
    n = 0
    for k in range(NKINDS):
        n += row[k]
    return n


@one_step
def hand_size_nb(hands, seat):
    """Number of cards in ``seat``'s hand."""
    return row_total_nb(hands[seat])


@kernel
def cards_value_nb(rules, rank, naturals, deuces, jokers):
    """R4/R28: card values of ``naturals`` cards of ``rank`` plus deuces and jokers."""
    return naturals * card_value_nb(rules, rank) + deuces * card_value_nb(rules, DEUCE) \
        + jokers * card_value_nb(rules, JOKER)


@kernel
def pile_rest_nb(st, pile):
    """Cards under the pile's top card that join a taker's hand: all but red threes (R14)."""
    n = 0
    for i in range(st[ST_PILE_N] - 1):
        if pile[i] != RED3:
            n += 1
    return n


@one_step
def side_of_nb(st, seat):
    """Side of a seat, from the seat-to-side map ``ST_SIDE_OF`` (R1, 2.11): sides sit
    alternately at the deal, side k = seats s with s % sides == k (deal.deal_nb fills it);
    in cutthroat3 the two partners share one side from formation on (C5, game/cutthroat.py).
    (``seat`` must be a seat of the table: 0 <= seat < ST_NSEATS.)"""
    return st[ST_SIDE_OF + seat]


@kernel
def wild_capacity_nb(rules, naturals):
    """Most wild cards a meld with ``naturals`` natural cards may hold (R18, R19, D2)."""
    cap = rules.max_wilds_per_meld
    ratio = rules.wild_ratio_rule
    if ratio == WildRatio.LE:
        cap = min(cap, naturals)
    elif ratio == WildRatio.LT:
        cap = min(cap, naturals - 1)
    elif ratio == WildRatio.HALF:
        cap = min(cap, naturals // 2)
    return max(cap, 0)


@kernel
def meld_ok_nb(rules, naturals, wilds):
    """R18/R19: is a meld of one natural rank with these counts legal?"""
    if naturals + wilds < 3 or naturals < rules.min_naturals_per_meld:
        return False
    return wilds <= wild_capacity_nb(rules, naturals)


@one_step
def meld_size_nb(melds, side, rank):
    """Cards in ``side``'s meld of ``rank`` (0 if it has none): its ``M_SIZE`` column."""
    return melds[side, M_SIZE, rank]


@kernel
def melds_consistent_nb(melds):
    """Whether every meld's ``M_SIZE`` is the sum of its naturals, deuces and jokers."""
    for side in range(melds.shape[0]):
        for r in range(melds.shape[2]):
            if melds[side, M_SIZE, r] != \
                    melds[side, M_NAT, r] + melds[side, M_DEUCE, r] + melds[side, M_JOKER, r]:
                return False
    return True


def set_meld_sizes(melds):
    """Python: fill the ``M_SIZE`` column of a melds table from its cards (for a table
    written by hand, as the tests do)."""
    melds[..., M_SIZE, :] = melds[..., M_NAT, :] + melds[..., M_DEUCE, :] + melds[..., M_JOKER, :]
    return melds


@one_step
def melded_ranks_nb(melds, side):
    """Bitmask of the natural ranks ``side`` has a meld of (one pass without branches)."""
    ranks = 0
    for r in range(FIRST_NATURAL, NKINDS):
        ranks |= np.int64(meld_size_nb(melds, side, r) > 0) << r
    return ranks


@one_step
def canasta_ranks_nb(melds, side):
    """Bitmask of the natural ranks whose meld of ``side`` is a canasta (R23: seven cards or
    more), in one pass without branches."""
    ranks = 0
    for r in range(FIRST_NATURAL, NKINDS):
        ranks |= np.int64(meld_size_nb(melds, side, r) >= 7) << r
    return ranks


@kernel
def canastas_nb(melds, side):
    """R23: number of canastas (melds of 7+ cards of a natural rank) of ``side``."""
    n = 0
    for r in range(FIRST_NATURAL, NKINDS):
        if meld_size_nb(melds, side, r) >= 7:
            n += 1
    return n


@kernel
def freezes_pile_nb(rules, kind):
    """R8/R32/D4: does this card freeze the pile for everyone while it lies in it?"""
    if kind == JOKER or kind == DEUCE:
        return True
    if kind == RED3:
        return rules.upcard_red3_freezes == 1
    if kind == BLACK3:
        return rules.black_three_freezes == 1
    return False


@kernel
def in_cover_set_nb(rules, kind):
    """R7: is this upcard covered by the next stock card?"""
    if kind == JOKER or kind == DEUCE or kind == RED3:
        return True
    return kind == BLACK3 and rules.upcard_cover_set == CoverSet.WILD_ANY3


@kernel
def meld_table_row_nb(rules, i):
    """Row i of initial_meld_table as (lower bound, minimum)."""
    if i == 0:
        return rules.meld_lo0, rules.meld_min0
    if i == 1:
        return rules.meld_lo1, rules.meld_min1
    if i == 2:
        return rules.meld_lo2, rules.meld_min2
    if i == 3:
        return rules.meld_lo3, rules.meld_min3
    if i == 4:
        return rules.meld_lo4, rules.meld_min4
    return rules.meld_lo5, rules.meld_min5


@kernel
def initial_minimum_nb(rules, score):
    """R27: the initial-meld minimum of a side whose cumulative score is ``score``."""
    minimum = 0
    for i in range(rules.meld_rows):
        lo, m = meld_table_row_nb(rules, i)
        if score >= lo:
            minimum = m
    return minimum


@kernel
def red3_points_nb(rules, count):
    """R52 (unsigned): 100 each, all four 800; three packs: 100 each to four, then 200 each."""
    if count <= 0:
        return 0
    if rules.num_packs <= 2:
        if count >= 2 * rules.num_packs:
            return rules.red3_all_four_total
        return count * rules.red3_bonus_each
    if count <= 4:
        return count * rules.red3_bonus_each
    return count * 2 * rules.red3_bonus_each
