"""The interface a user's own policy is written against (docs/own-policy.md).

A policy is a function ::

    @policy(params={"greed": 1.0})          # optional: named parameters and their defaults
    @njit                                  # numba-compiled (leave it out for plain Python)
    def mine(decision, opts, n, view, params, rules, rand):
        ...
        return i                           # the index of one of opts[:n]

played with ``--policies my_policy.py:mine`` (or ``my_policy.py:mine(greed=2)``) anywhere a
built-in name works.  The arguments:

``decision``
    what is being decided: ``DEC_DRAW`` (stock or a pile take), ``DEC_TAKE_PLAN`` (melds
    from the hand with the pile's top card, before the rest joins the hand, R35),
    ``DEC_MELD`` (the next meld step, or going out, or stopping), ``DEC_ASK`` (ask the
    partner "may I go out?"), ``DEC_ANSWER`` (answer the partner), ``DEC_DISCARD``.
``opts[:n]``
    the legal options, one row of five ints each: ``opts[i, 0]`` is the kind (``OPT_*``),
    the other four depend on it (:data:`OPTION_FIELDS`).  Only legal options are listed,
    and each keeps a legal end of the turn reachable; ``n >= 2`` (with one option the
    engine does not ask).  It is a copy: writing into it changes nothing.
``view``
    int64[VIEW_LEN]: what the seat may see (docs/rules.md: what a seat may know), at the
    ``V_*`` offsets below, or through the helper functions of this module.  Never another
    hand, never the stock.
``params``
    float64[NPARAMS]: the seat's parameter values, in the order declared with
    :func:`policy` (unused slots are 0).
``rules``
    int64[NRULES]: the rule set's knobs, ``rules[R_<KNOB>]`` (docs/knobs.md); in a Modern
    American deal the family's record, ``rules[MR_<FIELD>]``.

The same function plays both rule families: :func:`family` says which one a decision comes
from; Modern American adds the decisions ``DEC_KEEP_THREE`` and ``DEC_SPECIAL``, the option
kinds ``OPT_ADD_CARDS``, ``OPT_MELD_OUT``, ``OPT_KEEP_THREE``/``OPT_LAY_THREES`` and
``OPT_SPECIAL``/``OPT_NO_SPECIAL``, and the view's values read by :func:`threes`,
:func:`talon`, :func:`turn_card_drawn`, :func:`is_dead`, :func:`canastas_of_kind`,
:func:`opening_pending` (docs/own-policy.md, "Modern American").
``rand``
    64 random bits (an int64) from the seat's own random stream, new at every call: use
    :func:`uniform` and :func:`below` for reproducible randomness.  Do not use
    ``np.random``: its state is not part of the deal, so runs would not repeat.

A policy keeps no memory between calls: everything it may use is in its arguments.  The
engine checks every answer; an index outside ``0..n-1``, a result that is not a whole
number, or an exception stops the run with an error naming the policy and the decision.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.cards import (  # noqa: F401  (re-exported)
    ACE,
    BLACK3,
    DEUCE,
    EIGHT,
    FIRST_NATURAL,
    FIVE,
    FOUR,
    JACK,
    JOKER,
    KING,
    NINE,
    NKINDS,
    QUEEN,
    RED3,
    SEVEN,
    SIX,
    TEN,
    TOKENS,
)
from canasta_sim.kernels.game.layout import MAX_SEATS, MAX_SIDES, NPARAMS  # noqa: F401
from canasta_sim.kernels.game.american.rules_nb import MacRulesNb
from canasta_sim.kernels.game.american.special import NAMES as SPECIAL_NAMES  # noqa: F401
from canasta_sim.kernels.game.options import (  # noqa: F401  (re-exported)
    DEC_ANSWER,
    DEC_ASK,
    DEC_DISCARD,
    DEC_DRAW,
    DEC_KEEP_THREE,
    DEC_MELD,
    DEC_SPECIAL,
    DEC_TAKE_PLAN,
    MAX_OPTS,
    OPT_ADD,
    OPT_ADD_CARDS,
    OPT_ASK,
    OPT_DECLINE,
    OPT_DISCARD,
    OPT_DRAW,
    OPT_GO_OUT,
    OPT_KEEP_THREE,
    OPT_LAY_THREES,
    OPT_MELD_OUT,
    OPT_NEW,
    OPT_NO,
    OPT_NO_ASK,
    OPT_NO_SPECIAL,
    OPT_SPECIAL,
    OPT_STOP,
    OPT_TAKE,
    OPT_YES,
)
from canasta_sim.kernels.game.rules_nb import RulesNb
from canasta_sim.kernels.players import user as _user
from canasta_sim.kernels.players.user import (  # noqa: F401  (re-exported)
    CK_ACES,
    CK_CLEAN,
    CK_DIRTY,
    CK_SEVENS,
    CK_WILD,
    FAMILY_AMERICAN,
    FAMILY_CLASSIC,
    N_CANASTA_KINDS,
    SIDE_STRIDE,
    SV_CONCEALED_CANASTAS,
    SV_MELDED,
    SV_MINIMUM,
    SV_PILE_TAKES,
    SV_RED3,
    SV_SCORE_BEFORE,
    V_ASKED,
    V_CANASTA_KINDS,
    V_DEAD,
    V_DEALER,
    V_FAMILY,
    V_FORMED_BY,
    V_HAND,
    V_HAND_SIZES,
    V_KNOWN,
    V_LAST_DISCARD,
    V_LONE,
    V_MELDED_BEFORE,
    V_MELDS,
    V_NSEATS,
    V_NSIDES,
    V_PILE,
    V_PILE_FREEZERS,
    V_PILE_N,
    V_SEAT,
    V_SEAT_MINIMUM,
    V_SEAT_RED3,
    V_SEAT_SIDE,
    V_SIDE,
    V_SIDES,
    V_STOCK,
    V_TAKE_FORMS,
    V_TALON,
    V_TALON_SIZES,
    V_THREES,
    V_TURN_ASKED,
    V_TURN_CARD,
    V_TURN_COUNT,
    V_TURN_DREW,
    V_TURN_LAST_RED3,
    V_TURN_MELDED,
    V_TURN_MIN,
    V_TURN_NEEDS_MIN,
    V_TURN_OPENING,
    V_TURN_PENDING,
    V_TURN_PRE_ONLY,
    V_TURN_TALON,
    V_TURN_TOOK_PILE,
    V_TURNS,
    V_UNSEEN,
    VIEW_LEN,
    THREE_BLACK,
    THREE_RED,
)

RAISED = _user.RAISED
NRULES = len(RulesNb._fields)
RULE_INDEX = {name: i for i, name in enumerate(RulesNb._fields)}
for _name, _i in RULE_INDEX.items():          # R_NUM_PACKS, R_GOING_OUT_BONUS, ...
    globals()["R_" + _name.upper()] = _i
del _name, _i
NMAC_RULES = len(MacRulesNb._fields)
MAC_RULE_INDEX = {name: i for i, name in enumerate(MacRulesNb._fields)}
for _name, _i in MAC_RULE_INDEX.items():      # MR_GOING_OUT_BONUS, MR_TALON_FIRST, ...
    globals()["MR_" + _name.upper()] = _i     # Modern American's rules record (docs/own-policy.md)
del _name, _i
WILD_MELD = JOKER
"""Modern American: the meld row of a side's wild meld (``meld(view, side, WILD_MELD)``)."""

DECISIONS = {DEC_DRAW: "draw", DEC_MELD: "meld", DEC_DISCARD: "discard", DEC_ASK: "ask",
             DEC_ANSWER: "answer", DEC_TAKE_PLAN: "take-meld", DEC_KEEP_THREE: "keep-three",
             DEC_SPECIAL: "special-hand"}
"""A name for each decision kind, as error messages and docs use them."""

OPTION_FIELDS = {
    OPT_DRAW: "draw from the stock",
    OPT_DECLINE: "decline the pile once the stock is gone: the deal ends (R49)",
    OPT_TAKE: "take the pile: [1] naturals, [2] deuces, [3] jokers from the hand join the top "
              "card",
    OPT_NEW: "a new meld from the hand: [1] rank, [2] naturals, [3] deuces, [4] jokers",
    OPT_ADD: "add one card to the side's meld: [1] rank, [2] the card's kind",
    OPT_GO_OUT: "go out now: [1] plan number, [2] the discard's kind or -1, [4] the deal score "
                "the side's table reaches (melds, canastas, going-out bonus)",
    OPT_STOP: "stop melding (end the meld phase or the take melds)",
    OPT_DISCARD: "discard: [1] the card's kind",
    OPT_ASK: "ask the partner for permission to go out (R42)",
    OPT_NO_ASK: "do not ask",
    OPT_YES: "answer yes",
    OPT_NO: "answer no",
    OPT_ADD_CARDS: "Modern American: cards onto the side's meld: [1] rank (JOKER: the wild "
                   "meld), [2] naturals, [3] deuces, [4] jokers",
    OPT_MELD_OUT: "Modern American: a meld step that goes out (A39), columns as OPT_ADD_CARDS; "
                  "the card left is the going-out discard",
    OPT_KEEP_THREE: "Modern American: keep one three in hand for the Straight (A10)",
    OPT_LAY_THREES: "Modern American: lay every three",
    OPT_SPECIAL: "Modern American: lay the special hand: [1] its code (SPECIAL_NAMES), "
                 "[2] its points (A51-A53)",
    OPT_NO_SPECIAL: "Modern American: do not lay it",
}
"""What the columns of each option kind hold (``opts[i, 1..4]``)."""


def policy(params=None):
    """Declare a policy's parameters and their defaults: ``@policy(params={"greed": 1.0})``
    above the function (and above ``@njit``).  Up to NPARAMS parameters; the values arrive
    in ``params`` in this order, and ``file.py:name(greed=2)`` sets them."""
    params = dict(params or {})
    if len(params) > NPARAMS:
        raise BadInput(f"policy declares {len(params)} parameters: accepted: at most {NPARAMS}")
    for key, value in params.items():
        if not (isinstance(key, str) and key.isidentifier()):
            raise BadInput(f"policy parameter name {key!r} is not accepted: accepted: a "
                           "Python identifier such as greed")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value):
            raise BadInput(f"policy parameter {key}={value!r} is not accepted: accepted: a "
                           "finite number as its default")

    def declare(func):
        func.canasta_params = {k: float(v) for k, v in params.items()}
        return func
    return declare


# --- reading the view ------------------------------------------------------------------------

@njit
def hand_count(view, kind):
    """Cards of ``kind`` in the seat's own hand."""
    return view[V_HAND + kind]


@njit
def hand_size(view, seat):
    """Cards in ``seat``'s hand (public)."""
    return view[V_HAND_SIZES + seat]


@njit
def my_side(view):
    """The deciding seat's side."""
    return view[V_SIDE]


@njit
def next_seat(view):
    """The seat that plays after the deciding seat (clockwise)."""
    return (view[V_SEAT] + 1) % view[V_NSEATS]


@njit
def meld(view, side, rank):
    """(naturals, deuces, jokers) of ``side``'s meld of ``rank`` (rank BLACK3: the black-three
    meld made when going out, R25)."""
    at = V_MELDS + (side * NKINDS + rank) * 3
    return view[at], view[at + 1], view[at + 2]


@njit
def meld_size(view, side, rank):
    """Cards in ``side``'s meld of ``rank`` (0 if it has none)."""
    at = V_MELDS + (side * NKINDS + rank) * 3
    return view[at] + view[at + 1] + view[at + 2]


@njit
def canastas(view, side):
    """How many canastas (melds of seven or more cards, R23, A19) ``side`` has (in Modern
    American the wild meld, row WILD_MELD, counts too)."""
    count = 0
    for rank in range(NKINDS):
        if meld_size(view, side, rank) >= 7:
            count += 1
    return count


@njit
def side_value(view, side, field):
    """One per-side public value: ``field`` is SV_RED3, SV_MELDED, SV_MINIMUM,
    SV_SCORE_BEFORE, SV_PILE_TAKES or SV_CONCEALED_CANASTAS."""
    return view[V_SIDES + side * SIDE_STRIDE + field]


@njit
def side_of(view, seat):
    """The side ``seat`` plays on now: ``seat % sides``, but in cutthroat the two partners
    share one from the first pile take on (docs/cutthroat.md)."""
    return view[V_SEAT_SIDE + seat]


@njit
def lone_hand(view):
    """Cutthroat: the lone hand's seat once the partnership has formed, else -1."""
    return view[V_LONE]


@njit
def take_forms_partnership(view):
    """Cutthroat: whether taking the pile now makes this seat the lone hand against the
    other two (the first take of the deal; the game's main decision)."""
    return view[V_TAKE_FORMS] == 1


@njit
def seat_red3(view, seat):
    """Red threes laid in front of ``seat`` (in cutthroat they stay its own)."""
    return view[V_SEAT_RED3 + seat]


@njit
def seat_minimum(view, seat):
    """``seat``'s own initial-meld minimum this deal (in cutthroat from its own score)."""
    return view[V_SEAT_MINIMUM + seat]


@njit
def pile_size(view):
    """Cards in the discard pile."""
    return view[V_PILE_N]


@njit
def pile_top(view):
    """The kind of the pile's top card, or -1 if the pile is empty."""
    n = view[V_PILE_N]
    return view[V_PILE + n - 1] if n > 0 else -1


@njit
def pile_frozen(view):
    """Whether the pile is frozen for everyone (a wild card or red three in it, R32); a side
    that has not melded finds it frozen too (R33), see side_value(view, side, SV_MELDED)."""
    return view[V_PILE_FREEZERS] > 0


@njit
def known_count(view, seat, kind):
    """Cards of ``kind`` that ``seat`` is known to hold (taken with the pile, not played since)."""
    return view[V_KNOWN + seat * NKINDS + kind]


@njit
def unseen_count(view, kind):
    """Cards of ``kind`` the seat has not seen: in other hands or in the stock."""
    return view[V_UNSEEN + kind]


@njit
def stock_size(view):
    """Cards left in the stock."""
    return view[V_STOCK]


# --- the rule family, and what Modern American adds --------------------------------------------

@njit
def family(view):
    """The rule family of the deal: FAMILY_CLASSIC or FAMILY_AMERICAN (``rules`` is then the
    family's record, read at the ``MR_*`` indices)."""
    return view[V_FAMILY]


@njit
def threes(view, side, colour):
    """Modern American: threes ``side`` has laid, of ``colour`` THREE_RED or THREE_BLACK (A9)."""
    return view[V_THREES + side * 2 + colour]


@njit
def talon(view, side):
    """Modern American: cards of the talon ``side`` received, 0 if none yet (A32)."""
    return view[V_TALON + side]


@njit
def talon_sizes(view):
    """Modern American: the sizes of the first and the second talon (A32)."""
    return view[V_TALON_SIZES], view[V_TALON_SIZES + 1]


@njit
def turn_card_drawn(view):
    """Modern American: whether the turn card has been drawn (8 stock cards or fewer, A7):
    no talon is earned after it."""
    return view[V_TURN_CARD] == 1


@njit
def is_dead(view, side, rank):
    """Modern American: whether ``rank`` (a natural rank, or WILD_MELD) is dead for ``side``:
    no meld, take or discard on an empty pile of it (A22, A30, A36)."""
    return view[V_DEAD + side * NKINDS + rank] == 1


@njit
def canastas_of_kind(view, side, kind):
    """Modern American: ``side``'s canastas of ``kind`` CK_CLEAN, CK_DIRTY, CK_ACES,
    CK_SEVENS or CK_WILD (A45)."""
    return view[V_CANASTA_KINDS + side * N_CANASTA_KINDS + kind]


@njit
def has_melded(view, side):
    """Whether ``side`` has made its initial meld (R26, A26)."""
    return view[V_SIDES + side * SIDE_STRIDE + SV_MELDED] == 1


@njit
def opening_minimum(view, side):
    """The points ``side``'s initial meld must reach this deal (R27, A24)."""
    return view[V_SIDES + side * SIDE_STRIDE + SV_MINIMUM]


@njit
def opening_pending(view):
    """Modern American: the opening laid so far this turn does not stand yet; stopping now
    puts it back whole (A25) (after a take: the take is not made and the seat draws)."""
    return view[V_TURN_PENDING] == 1


# --- randomness ------------------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit
def uniform(rand, k):
    """The ``k``-th uniform number in [0, 1) made from one call's ``rand`` (k = 0, 1, ...):
    as many as a decision needs, the same ones whenever the deal is played again
    (splitmix64 of ``rand`` and ``k``)."""
    z = np.uint64(rand) + np.uint64(k + 1) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def below(rand, k, n):
    """The ``k``-th uniform whole number in 0..n-1 made from ``rand`` (n >= 1)."""
    return min(np.int64(uniform(rand, k) * n), n - 1)
