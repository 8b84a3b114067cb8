"""The seam for a user's own policy: what the seat may see, and the call through a pointer.

A user policy (``--policies my_policy.py:NAME``, docs/own-policy.md) is a function

    decide(decision, opts, n, view, params, rules, rand) -> option index

compiled by ``canasta_sim.user_policy`` into a C-callable function (a numba ``cfunc``).  The
engine knows nothing of the user's code: the policy table it receives (``pol``, int64,
``POLICY_TABLE`` long) holds, for each seat, the policy id and, for ``POLICY_USER`` seats,
the address of that function.  :func:`call_user_nb` calls through the address, so one
compilation of the engine serves every user policy, the engine stays in the on-disk cache,
and a user file compiles in seconds (only its own function).  A plain-Python policy is
called the same way, through a ctypes callback.

What the function receives (RULES.md 0.1: public information and the seat's own hand only):

* ``opts[:n]`` -- a *copy* of the legal options (``options.OPT_*`` rows of five ints), so a
  policy that writes into it cannot change the engine's list;
* ``view`` -- int64[VIEW_LEN], filled by :func:`fill_view_nb` at every decision (the ``V_*``
  offsets below); never another hand, never the stock order;
* ``params`` -- the seat's float64[NPARAMS] parameters;
* ``rules`` -- the rule set's knobs, int64, in ``RulesNb`` field order (in a Modern American
  deal, kernels/players/american_user.py, the family's ``MacRulesNb``);
* ``rand`` -- 64 random bits from the seat's own policy stream (rng.STREAM_POLICY + seat),
  drawn once per call, so a randomised policy is reproducible from the seed.

It is called only when there are at least two options (with one, the answer is 0, as for
every built-in policy).  Its answer is checked: an index outside ``0..n-1``, or an exception
(the compiled wrapper returns ``RAISED``), is written into the table's error record
(``ERR_*``) with the seat and the decision, the engine plays option 0 so the deal stays
legal, and the entry kernels stop after that deal; the Python face then raises an error
naming the policy and the decision.  No wrong move is ever played silently.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..game.cards import NKINDS
from ..game.cutthroat import forms_partnership_nb
from ..game.layout import MAX_CARDS, MAX_SEATS, MAX_SIDES
from ..game.rng import STREAM_POLICY, next_u64_nb
from ..game.slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    SEAT_KNOWN,
    SEAT_LAST_DISCARD,
    SEAT_MELDED_BEFORE,
    SEAT_MINIMUM,
    SEAT_RED3,
    SIDE_CONCEALED_CANASTAS,
    SIDE_MELDED,
    SIDE_MINIMUM,
    SIDE_PILE_TAKES,
    SIDE_RED3,
    SIDE_SCORE_BEFORE,
    ST_DEALER,
    ST_DECK_N,
    ST_FORMED_BY,
    ST_FREEZERS,
    ST_LONE,
    ST_NSEATS,
    ST_NSIDES,
    ST_PART_SIDE,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TURN_ASK,
    ST_TURN_COUNT,
    ST_TURN_LAST_RED3,
    ST_TURN_MELDED,
    ST_TURN_MIN,
    ST_TURN_NEEDS_MIN,
    ST_TURN_TAKE,
    ST_TURNS,
    WS_UNSEEN,
    WS_USER_OPTS,
    WS_USER_VIEW,
)
from ..game.state import side_of_nb
from ..jit import kernel
from .club import count_unseen_nb

# --- the policy table (int64[POLICY_TABLE]) --------------------------------------------------
# [0, MAX_SEATS): policy id per seat; [ADDRESS, ADDRESS + MAX_SEATS): a user seat's function
# address; [ERR, ERR + ERR_LEN): the first interface error of the run (ERR_CODE 0 = none).
ADDRESS = MAX_SEATS
ERR = 2 * MAX_SEATS
ERR_CODE = ERR            # ERR_OUT_OF_RANGE or ERR_RAISED
ERR_SEAT = ERR + 1
ERR_DECISION = ERR + 2    # options.DEC_*
ERR_VALUE = ERR + 3       # the index returned (out-of-range errors)
ERR_OPTIONS = ERR + 4     # n, the number of options listed
ERR_DEAL = ERR + 5        # the deal number (set by the entry kernel), -1 until then
ERR_LEN = 6
# [CALLS, CALLS + 4): the decisions asked of user seats in this call and those answered, and
# the seat and decision of the latest, so a watcher on another thread can tell a decision
# that never ends (canasta-sim check-policy's time limit) from a slow run.
CALLS = ERR + ERR_LEN
ANSWERS = CALLS + 1
CALL_SEAT = CALLS + 2
CALL_DECISION = CALLS + 3
POLICY_TABLE = CALLS + 4
ERR_OUT_OF_RANGE = 1
ERR_RAISED = 2
RAISED = -0x4B1D_4B1D_4B1D_4B1D   # what a wrapper returns when the user function raised

# --- the view (int64[VIEW_LEN]) --------------------------------------------------------------
V_SEAT = 0                # the deciding seat
V_SIDE = 1                # its side (seat % sides)
V_NSEATS = 2
V_NSIDES = 3
V_DEALER = 4
V_TURNS = 5               # turns begun so far in this deal
V_STOCK = 6               # cards left in the stock
V_PILE_N = 7              # cards in the discard pile
V_PILE_FREEZERS = 8       # wild cards and red threes in the pile: > 0 = frozen for all (R32)
V_TURN_TOOK_PILE = 9      # 1 if this turn began with a pile take
V_TURN_ASKED = 10         # -1 not asked, 0 answered no, 1 answered yes (R42)
V_TURN_NEEDS_MIN = 11     # 1 while this turn must still reach the side's minimum (R26)
V_TURN_COUNT = 12         # points of the initial meld laid so far this turn (R28)
V_TURN_MIN = 13           # the minimum this turn's initial meld must reach (R27)
V_TURN_LAST_RED3 = 14     # 1 after drawing a red three as the last stock card (R47)
V_TURN_MELDED = 15        # 1 if the seat has placed a card on a meld this turn
V_HAND = 16               # + kind: the seat's own hand
V_HAND_SIZES = V_HAND + NKINDS                 # + seat: cards in each hand
V_LAST_DISCARD = V_HAND_SIZES + MAX_SEATS       # + seat: kind of its last discard, -1 if none
V_MELDED_BEFORE = V_LAST_DISCARD + MAX_SEATS    # + seat: 1 if it melded in an earlier turn
V_KNOWN = V_MELDED_BEFORE + MAX_SEATS           # + seat * NKINDS + kind: cards a seat took
#                                                 with the pile and still holds (public)
V_SIDES = V_KNOWN + MAX_SEATS * NKINDS          # + side * SIDE_STRIDE + SV_*
SV_RED3 = 0               # red threes laid out
SV_MELDED = 1             # 1 if the side has a meld on the table
SV_MINIMUM = 2            # its initial-meld minimum this deal (R27)
SV_SCORE_BEFORE = 3       # its cumulative score before this deal
SV_PILE_TAKES = 4         # pile takes this deal
SV_CONCEALED_CANASTAS = 5  # source B's concealed canastas so far (RULES.md 2.11)
SIDE_STRIDE = 6
V_MELDS = V_SIDES + MAX_SIDES * SIDE_STRIDE    # + (side * NKINDS + rank) * 3 + column:
#                                                 naturals, deuces, jokers of a side's meld
#                                                 (cutthroat after a take: row 2 holds the
#                                                 partnership's second melds of a rank, C7)
V_UNSEEN = V_MELDS + MAX_SIDES * NKINDS * 3    # + kind: cards of a kind the seat has not
#                                                 seen (not in its hand, melds, the pile or
#                                                 known in another hand)
V_PILE = V_UNSEEN + NKINDS                      # + i: the pile, bottom first, V_PILE_N cards
# cutthroat3 (docs/cutthroat.md, public at every moment): the lone hand, how the partnership
# formed, each seat's side now, and the seat's own red threes and initial-meld minimum
V_LONE = V_PILE + MAX_CARDS                     # the lone hand's seat, -1 before formation
V_FORMED_BY = V_LONE + 1                        # layout.FORMED_*: 0 none, 1 take, 2 out
V_TAKE_FORMS = V_FORMED_BY + 1                  # 1 if a pile take now makes the taker the
#                                                 lone hand (cutthroat, before formation)
V_SEAT_SIDE = V_TAKE_FORMS + 1                  # + seat: its side now (the V_SIDES index)
V_SEAT_RED3 = V_SEAT_SIDE + MAX_SEATS           # + seat: red threes laid in front of it
V_SEAT_MINIMUM = V_SEAT_RED3 + MAX_SEATS        # + seat: its own initial-meld minimum
# the rule family, and what Modern American adds (players/american_user.py fills them; 0 in
# classic): docs/own-policy.md, "Modern American"
V_FAMILY = V_SEAT_MINIMUM + MAX_SEATS          # FAMILY_CLASSIC or FAMILY_AMERICAN
V_THREES = V_FAMILY + 1                        # + side * 2 + THREE_RED/THREE_BLACK: threes
#                                                 laid by each side, by colour (A9, A47)
V_TALON = V_THREES + 2 * MAX_SIDES             # + side: cards of the talon it received (A32)
V_TALON_SIZES = V_TALON + MAX_SIDES            # + 0/1: the first and second talon's sizes
V_TURN_CARD = V_TALON_SIZES + 2                # 1 once the turn card has been drawn (A7)
V_DEAD = V_TURN_CARD + 1                       # + side * NKINDS + rank: 1 if the rank (JOKER:
#                                                 the wild meld) is dead for the side (A22)
V_CANASTA_KINDS = V_DEAD + MAX_SIDES * NKINDS   # + side * N_CANASTA_KINDS + CK_*: canastas
#                                                 of each kind (A45)
CK_CLEAN = 0              # natural canastas, 4 to K
CK_DIRTY = 1              # mixed: with wild cards
CK_ACES = 2               # clean aces
CK_SEVENS = 3             # sevens (always clean, A21)
CK_WILD = 4               # the wild canasta
N_CANASTA_KINDS = 5
V_ASKED = V_CANASTA_KINDS + MAX_SIDES * N_CANASTA_KINDS   # + seat: it asked its partner
#                                                          this deal (A41)
V_TURN_OPENING = V_ASKED + MAX_SEATS           # 1 in the side's opening turn (A20, A25)
V_TURN_PENDING = V_TURN_OPENING + 1            # 1 while the opening laid so far does not
#                                                 stand: stopping now puts it back (A25)
V_TURN_TALON = V_TURN_PENDING + 1              # cards of the talon this opening turn earns
V_TURN_PRE_ONLY = V_TURN_TALON + 1             # 1 while melding from the cards held before
#                                                 the take (A26)
V_TURN_DREW = V_TURN_PRE_ONLY + 1              # 1 if the seat drew from the stock this turn
VIEW_LEN = V_TURN_DREW + 1
FAMILY_CLASSIC = 0
FAMILY_AMERICAN = 1
THREE_RED = 0
THREE_BLACK = 1


@intrinsic
def call_user_nb(typingctx, address, decision, opts_row, n, view_row, params, rules, rand):
    """Call the user function at ``address`` as
    ``int64 f(int64 decision, int64 *opts, int64 n, int64 *view, double *params,
    int64 *rules, int64 rand)``; ``opts_row`` and ``view_row`` are the scratch rows holding
    the copies, ``rules`` the rules record (or the ``RulesNb`` tuple, stored for the call)."""
    sig = types.int64(address, decision, opts_row, n, view_row, params, rules, rand)

    def codegen(context, builder, signature, args):
        addr, dec, opts_a, count, view_a, params_a, rules_v, bits = args
        i64 = ir.IntType(64)
        f64p = ir.DoubleType().as_pointer()
        fnty = ir.FunctionType(i64, [i64, i64.as_pointer(), i64, i64.as_pointer(), f64p,
                                     i64.as_pointer(), i64])
        fn = builder.inttoptr(addr, fnty.as_pointer())

        def rules_pointer(value):
            if isinstance(signature.args[6], types.Record):
                return value                          # a record is passed by pointer
            return cgutils.alloca_once_value(builder, value)    # a NamedTuple of ints

        def data(k, value):
            return context.make_array(signature.args[k])(context, builder, value).data

        return builder.call(fn, [
            dec, builder.bitcast(data(2, opts_a), i64.as_pointer()), count,
            builder.bitcast(data(4, view_a), i64.as_pointer()),
            builder.bitcast(data(5, params_a), f64p),
            builder.bitcast(rules_pointer(rules_v), i64.as_pointer()), bits])

    return sig, codegen


@kernel
def fill_view_nb(rules, hands, melds, pile, st, seatv, sidev, unseen, seat, view):
    """Write what ``seat`` may see (RULES.md 0.1) into ``view`` (the ``V_*`` layout)."""
    view[:] = 0
    view[V_SEAT] = seat
    view[V_SIDE] = side_of_nb(st, seat)
    view[V_NSEATS] = st[ST_NSEATS]
    view[V_NSIDES] = st[ST_NSIDES]
    view[V_DEALER] = st[ST_DEALER]
    view[V_TURNS] = st[ST_TURNS]
    view[V_STOCK] = st[ST_DECK_N] - st[ST_STOCK_POS]
    view[V_PILE_N] = st[ST_PILE_N]
    view[V_PILE_FREEZERS] = st[ST_FREEZERS]
    view[V_TURN_TOOK_PILE] = st[ST_TURN_TAKE]
    view[V_TURN_ASKED] = st[ST_TURN_ASK]
    view[V_TURN_NEEDS_MIN] = st[ST_TURN_NEEDS_MIN]
    view[V_TURN_COUNT] = st[ST_TURN_COUNT]
    view[V_TURN_MIN] = st[ST_TURN_MIN]
    view[V_TURN_LAST_RED3] = st[ST_TURN_LAST_RED3]
    view[V_TURN_MELDED] = st[ST_TURN_MELDED]
    for kind in range(NKINDS):
        view[V_HAND + kind] = hands[seat, kind]
    for s in range(st[ST_NSEATS]):
        size = 0
        for kind in range(NKINDS):
            size += hands[s, kind]
            view[V_KNOWN + s * NKINDS + kind] = seatv[s, SEAT_KNOWN + kind]
        view[V_HAND_SIZES + s] = size
        view[V_LAST_DISCARD + s] = seatv[s, SEAT_LAST_DISCARD] - 1
        view[V_MELDED_BEFORE + s] = seatv[s, SEAT_MELDED_BEFORE]
        view[V_SEAT_SIDE + s] = side_of_nb(st, s)
        view[V_SEAT_RED3 + s] = seatv[s, SEAT_RED3]
        view[V_SEAT_MINIMUM + s] = seatv[s, SEAT_MINIMUM]
    view[V_LONE] = st[ST_LONE]
    view[V_FORMED_BY] = st[ST_FORMED_BY]
    view[V_TAKE_FORMS] = 1 if forms_partnership_nb(rules, st) else 0
    rows = st[ST_NSIDES] + (1 if st[ST_PART_SIDE] >= 0 else 0)   # C7: cutthroat's row 2
    for k in range(rows):                                          # holds second melds
        base = V_SIDES + k * SIDE_STRIDE
        view[base + SV_RED3] = sidev[k, SIDE_RED3]
        view[base + SV_MELDED] = sidev[k, SIDE_MELDED]
        view[base + SV_MINIMUM] = sidev[k, SIDE_MINIMUM]
        view[base + SV_SCORE_BEFORE] = sidev[k, SIDE_SCORE_BEFORE]
        view[base + SV_PILE_TAKES] = sidev[k, SIDE_PILE_TAKES]
        view[base + SV_CONCEALED_CANASTAS] = sidev[k, SIDE_CONCEALED_CANASTAS]
        for r in range(NKINDS):
            at = V_MELDS + (k * NKINDS + r) * 3
            view[at] = melds[k, M_NAT, r]
            view[at + 1] = melds[k, M_DEUCE, r]
            view[at + 2] = melds[k, M_JOKER, r]
    count_unseen_nb(rules, hands, melds, pile, st, seatv, seat, unseen)
    for kind in range(NKINDS):
        view[V_UNSEEN + kind] = unseen[kind]
    for i in range(st[ST_PILE_N]):
        view[V_PILE + i] = pile[i]


@kernel
def put_option_nb(ws, i, kind, a, b, c, d):
    """Write option ``i`` (``kind`` and its four columns) into the scratch rows of ``ws`` from
    ``WS_USER_OPTS`` on (row-major: five ints per option run on across the rows)."""
    width = ws.shape[1]
    k = 5 * i
    ws[WS_USER_OPTS + k // width, k % width] = kind
    ws[WS_USER_OPTS + (k + 1) // width, (k + 1) % width] = a
    ws[WS_USER_OPTS + (k + 2) // width, (k + 2) % width] = b
    ws[WS_USER_OPTS + (k + 3) // width, (k + 3) % width] = c
    ws[WS_USER_OPTS + (k + 4) // width, (k + 4) % width] = d


@kernel
def copy_options_nb(opts, n, ws):
    """Copy ``opts[:n]`` row by row into the scratch rows of ``ws`` (:func:`put_option_nb`)."""
    for i in range(n):
        put_option_nb(ws, i, opts[i, 0], opts[i, 1], opts[i, 2], opts[i, 3], opts[i, 4])


@kernel
def record_error_nb(pol, code, seat, decision, value, n):
    """Keep the run's first interface error in the policy table's error record."""
    if pol[ERR_CODE] != 0:
        return
    pol[ERR_CODE] = code
    pol[ERR_SEAT] = seat
    pol[ERR_DECISION] = decision
    pol[ERR_VALUE] = value
    pol[ERR_OPTIONS] = n
    pol[ERR_DEAL] = -1


@kernel
def user_decide_nb(rules, hands, melds, pile, st, seatv, sidev, rng, ws, seat, pol, params,
                   decision, opts, n):
    """The index a ``POLICY_USER`` seat picks among ``opts[:n]`` (n >= 2): fill the view,
    copy the options, call the seat's function, check the answer (module docstring)."""
    view = ws[WS_USER_VIEW]
    fill_view_nb(rules, hands, melds, pile, st, seatv, sidev, ws[WS_UNSEEN], seat, view)
    copy_options_nb(opts, n, ws)
    return call_checked_nb(rules, rng, ws, seat, pol, params, decision, n, view)


@kernel
def call_checked_nb(rules, rng, ws, seat, pol, params, decision, n, view):
    """Call ``seat``'s function with the options already in the scratch rows and ``view``
    filled; check its answer (module docstring): the index, or 0 after an error is recorded."""
    bits = np.int64(next_u64_nb(rng, STREAM_POLICY + seat))
    pol[CALL_SEAT] = seat
    pol[CALL_DECISION] = decision
    pol[CALLS] += 1
    i = call_user_nb(pol[ADDRESS + seat], decision, ws[WS_USER_OPTS], n, view, params,
                     rules, bits)
    pol[ANSWERS] += 1
    if i == RAISED:
        record_error_nb(pol, ERR_RAISED, seat, decision, 0, n)
        return 0
    if i < 0 or i >= n:
        record_error_nb(pol, ERR_OUT_OF_RANGE, seat, decision, i, n)
        return 0
    return i


@kernel
def copy_user_slots_nb(pol, copy):
    """A user seat that played from ``copy`` (a copy of the table ``pol``, as a search's
    blueprint table is): its calls and its failure (the slots from ``ERR`` on) go back to
    ``pol``, the table the Python face reads.  A short table has no such slots."""
    if pol.shape[0] < POLICY_TABLE:
        return
    for i in range(ERR, POLICY_TABLE):
        pol[i] = copy[i]


@kernel
def user_failed_nb(pol, deal):
    """True (and the deal number recorded) once a user policy has broken the interface; the
    entry kernels stop after that deal.  A short table (built-in policies only) never fails."""
    if pol.shape[0] < POLICY_TABLE or pol[ERR_CODE] == 0:
        return False
    if pol[ERR_DEAL] < 0:
        pol[ERR_DEAL] = deal
    return True

