"""What a Modern American deal keeps beside classic's deal state ``S``: a second named tuple
of small arrays, :class:`MacState`, whose scalar slots are declared once below as the deal
state's are (kernels/game/slots.py).

* ``x``        int64[NX]              scalars (``X_*`` below)
* ``threes``   int64[2, 2]            threes laid by each side, by colour (A9, A47)
* ``laid``     int64[M_COLS, MELD_KINDS]  hand cards the player put on new melds this turn
  (what the initial meld counts, A25; :mod:`.initial`)
* ``steps``    int64[MAX_STEPS, 4]    the legal meld steps of the moment (row, naturals, 2s,
  jokers), written by :mod:`.steps`
* ``log``      int64[MAX_LOG, 4]      the steps of a tentative opening (A25, A26), for the
  trace once it stands
* ``save_melds`` int64[M_COLS, MELD_KINDS] and ``save_hand`` int64[NKINDS]: the side's melds
  and the hand before a tentative opening, to put back if it does not stand
* ``pre``      int64[NKINDS]          cards held before a take (A26: the opening's melds come
  from them)
* ``items``    int64[2, N_ITEMS]      the deal's score items per side (:mod:`.scoring`)
* ``sizes``    int64[9]               scratch of :func:`.special.special_hand_nb`
* ``scores``   float64[MAX_STEPS]     scratch: a player's score of each option
* ``chances``  float64[CHANCE_UNSEEN, CHANCE_HAND, CHANCE_UNKNOWN]  the club players' pair
  chances (``players/american_club.py``, :func:`pair_chance_nb` by unseen cards, hand size
  and unknown cards), each worked out once per state and remembered (-1: not yet); a pure
  function's table, so a rollout's scratch state shares it
"""
from typing import NamedTuple

import numpy as np

from ...jit import entry
from ..cards import MELD_KINDS, NKINDS
from ..slots import M_COLS, Slot, declare
from .rules_nb import MacRulesNb
from .scoring import N_ITEMS

MAX_STEPS = 4096        # more than the placements one step can have (12 rows x 9 x 5 x 5)
MAX_LOG = 64            # steps of one opening: never more than the cards in a hand
CHANCE_UNSEEN = 9       # chances: 0..8 unseen natural cards of a rank (two packs, A2)
CHANCE_HAND = 48        # ... hands of up to 47 cards (a larger one is worked out each time)
CHANCE_UNKNOWN = 112    # ... up to 111 unknown cards (108 in the packs)

X_SLOTS = declare(globals(), None, (
    Slot("X_TALONS_TAKEN", 1, "bit TALON_FIRST / TALON_SECOND: the talon was taken", "mask",
         "A5, A33"),
    Slot("X_SIDE_TALON", 2, "+ side: size of the talon the side received, 0 none", "0..13",
         "A32"),
    Slot("X_THREES_DEALT", 2, "+ side: threes laid from the dealt hands", "0..8", "A9"),
    Slot("X_TURN_CARD", 1, "the turn card has been drawn (written once)", "0/1", "A7"),
    Slot("X_SPECIAL_SEAT", 1, "the seat that laid a special hand, -1 none", "-1..3", "A52"),
    Slot("X_SPECIAL_CODE", 1, "its special hand (special.NAMES)", "0..11", "A51"),
    Slot("X_SPECIAL_POINTS", 1, "its value", "0..", "A53"),
    Slot("X_ASKED", 4, "+ seat: the seat asked its partner this deal", "0/1", "A41"),
    Slot("X_TURN_OPENING", 1, "this turn is the side's opening turn (A20a, A25c)", "0/1",
         "A20, A25"),
    Slot("X_TURN_FRESH", 1, "bitmask of the rows whose meld this turn started", "mask",
         "A20, A21"),
    Slot("X_TURN_TOOK", 1, "the turn began with a pile take", "0/1", "A31, A32"),
    Slot("X_TURN_TAKE_ROW", 1, "the rank of this turn's take, -1 none", "-1..14", "A25"),
    Slot("X_TURN_DREW", 1, "the player drew from the stock this turn", "0/1", "A52"),
    Slot("X_TURN_STOCK", 1, "stock cards left after the draw (and its threes)", "0..", "A32"),
    Slot("X_TURN_TALON", 1, "the talon this turn earns (pile.TALON_*)", "0..2", "A32, A17"),
    Slot("X_TURN_ANSWER", 1, "the partner's answer this turn: -1 not asked, 0 no, 1 yes",
         "-1..1", "A41"),
    Slot("X_NLOG", 1, "steps in ``log``", "0..MAX_LOG", "A26"),
    Slot("X_TENTATIVE", 1, "steps are tentative (an opening not yet standing)", "0/1", "A25"),
    Slot("X_PRE_ONLY", 1, "steps may use only the cards held before the take", "0/1", "A26"),
    Slot("X_SEAT_TAKES", 4, "+ seat: pile takes", "0..", "A29"),
    Slot("X_KEPT", 4, "+ seat: a three the seat keeps in hand for the Straight", "0/1", "A10"),
    Slot("X_SIDE_TAKES", 2, "+ side: pile takes", "0..", "A29"),
))
NX = sum(slot.width for slot in X_SLOTS)


class MacState(NamedTuple):
    """A Modern American deal's own arrays (module docstring), beside ``S``."""
    x: np.ndarray
    threes: np.ndarray
    laid: np.ndarray
    steps: np.ndarray
    log: np.ndarray
    save_melds: np.ndarray
    save_hand: np.ndarray
    pre: np.ndarray
    items: np.ndarray
    sizes: np.ndarray
    scores: np.ndarray
    chances: np.ndarray


def new_mac_state():
    """Allocate one zeroed :class:`MacState`."""
    return MacState(np.zeros(NX, np.int64),
                    np.zeros((2, 2), np.int64),
                    np.zeros((M_COLS, MELD_KINDS), np.int64),
                    np.zeros((MAX_STEPS, 4), np.int64),
                    np.zeros((MAX_LOG, 4), np.int64),
                    np.zeros((M_COLS, MELD_KINDS), np.int64),
                    np.zeros(NKINDS, np.int64),
                    np.zeros(NKINDS, np.int64),
                    np.zeros((2, N_ITEMS), np.int64),
                    np.zeros(9, np.int64),
                    np.zeros(MAX_STEPS, np.float64),
                    np.full((CHANCE_UNSEEN, CHANCE_HAND, CHANCE_UNKNOWN), -1.0))


new_mac_state_nb = entry(new_mac_state)


MAC_DTYPE = np.dtype([(name, np.int64) for name in MacRulesNb._fields])
"""The family's knobs as one numpy record (as ``state.RULES_DTYPE`` is classic's): a helper
taking ``record[0]`` receives one pointer, not the 60 ints of a :class:`MacRulesNb`."""


@entry
def mac_record_nb(mac):
    """Copy a :class:`MacRulesNb` into a one-element record array of ``MAC_DTYPE`` (the caller
    keeps it alive while the record is read: ``state.keep_alive_nb``)."""
    raw = np.empty(len(mac), np.int64)
    for i in range(len(mac)):
        raw[i] = mac[i]
    return raw.view(MAC_DTYPE)
