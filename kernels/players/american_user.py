"""A user's own policy in a Modern American deal: every decision of the family's turn
(kernels/play/american/turn.py) comes through the functions below, which ask a
``POLICY_USER`` seat through the interface of classic (kernels/players/user.py:
``decide(decision, opts, n, view, params, rules, rand)``) and every other seat's built-in
player (kernels/players/american.py) as before.

What the user's function receives here (docs/own-policy.md, "Modern American"):

* ``opts[:n]`` -- the legal choices the rules made (kernels/game/american/steps.py) as option
  rows: ``OPT_NEW``, ``OPT_ADD_CARDS`` or ``OPT_MELD_OUT`` for a meld step (rank, naturals,
  2s, jokers; rank JOKER is the wild meld), ``OPT_STOP``; ``OPT_TAKE`` or ``OPT_DRAW``
  (``OPT_DECLINE`` once the stock is gone); ``OPT_DISCARD``; ``OPT_ASK``/``OPT_NO_ASK``;
  ``OPT_YES``/``OPT_NO``; ``OPT_KEEP_THREE``/``OPT_LAY_THREES`` (A10);
  ``OPT_SPECIAL``/``OPT_NO_SPECIAL`` (A52);
* ``view`` -- :func:`fill_mac_view_nb`: classic's layout where a value means the same, and
  the family's own values (``V_FAMILY`` = ``FAMILY_AMERICAN``, threes by colour, talons, the
  turn card, dead ranks, canastas by kind, the opening's state);
* ``rules`` -- the family's rule record (``MacRulesNb`` field order).

Trying the opening is not asked: a user seat always may, and declines it by stopping at its
first step (an opening that does not stand is put back whole, A25).  The pile is offered
only when the take can stand: for a side that has not melded, only when an opening with it
is in reach (A26); if the melds then laid do not make one, the take is not made and the seat
draws.
"""
from ..game.american.initial import opening_ok_nb, opening_possible_nb
from ..game.american.melds import WILD_ROW, is_dead_nb
from ..game.american.pile import stock_left_nb, talon_size_nb, turn_card_drawn_nb
from ..game.american.special import special_hand_nb
from ..game.american.state import (
    X_ASKED,
    X_PRE_ONLY,
    X_SIDE_TAKES,
    X_SIDE_TALON,
    X_TENTATIVE,
    X_TURN_ANSWER,
    X_TURN_DREW,
    X_TURN_OPENING,
    X_TURN_TAKE_ROW,
    X_TURN_TALON,
    X_TURN_TOOK,
)
from ..game.american.steps import is_out_step_nb
from ..game.american.threes import BLACK, RED
from ..game.cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from ..game.options import (
    DEC_ANSWER,
    DEC_ASK,
    DEC_DISCARD,
    DEC_DRAW,
    DEC_KEEP_THREE,
    DEC_MELD,
    DEC_SPECIAL,
    MAX_OPTS,
    OPT_ADD_CARDS,
    OPT_ASK,
    OPT_DECLINE,
    OPT_DISCARD,
    OPT_DRAW,
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
from ..game.slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    SEAT_MINIMUM,
    SIDE_MELDED,
    SIDE_MINIMUM,
    SIDE_SCORE_BEFORE,
    ST_DEALER,
    ST_NSEATS,
    ST_PILE_N,
    ST_TURNS,
    WS_HAND,
    WS_UNSEEN,
    WS_USER_VIEW,
)
from ..game.state import row_total_nb
from ..jit import kernel, turn_step
from .american_kinds import canasta_kind_nb
from . import american as builtin
from .club import count_unseen_nb
from .ids import POLICY_USER
from .user import (
    FAMILY_AMERICAN,
    N_CANASTA_KINDS,
    SIDE_STRIDE,
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
    V_HAND,
    V_HAND_SIZES,
    V_LAST_DISCARD,
    V_LONE,
    V_MELDS,
    V_NSEATS,
    V_NSIDES,
    V_PILE,
    V_PILE_FREEZERS,
    V_PILE_N,
    V_SEAT,
    V_SEAT_MINIMUM,
    V_SEAT_SIDE,
    V_SIDE,
    V_SIDES,
    V_STOCK,
    V_TALON,
    V_TALON_SIZES,
    V_THREES,
    V_TURN_ASKED,
    V_TURN_CARD,
    V_TURN_DREW,
    V_TURN_OPENING,
    V_TURN_PENDING,
    V_TURN_PRE_ONLY,
    V_TURN_TALON,
    V_TURN_TOOK_PILE,
    V_TURNS,
    V_UNSEEN,
    call_checked_nb,
    put_option_nb,
)

SIDES = 2                 # A1


@kernel
def is_user_nb(pol, seat):
    """The seat plays a user's own policy."""
    return pol[seat] == POLICY_USER


# --- the view --------------------------------------------------------------------------------

@turn_step
def mac_unseen_nb(mac, S, A, seat, unseen):
    """Cards of each kind ``seat`` has not seen (in other hands, the stock or an unused
    talon): classic's count (its hand, the natural melds, the pile), less the wild meld and
    the threes laid (A9)."""
    count_unseen_nb(mac, S.hands, S.melds, S.pile, S.st, S.seatv, seat, unseen)
    unseen[RED3] = 2 * mac.num_packs - S.hands[seat, RED3]
    for side in range(SIDES):
        unseen[DEUCE] -= S.melds[side, M_DEUCE, WILD_ROW]
        unseen[JOKER] -= S.melds[side, M_JOKER, WILD_ROW]
        unseen[RED3] -= A.threes[side, RED]
        unseen[BLACK3] -= A.threes[side, BLACK]
    for kind in range(NKINDS):
        unseen[kind] = max(unseen[kind], 0)


@turn_step
def opening_pending_nb(mac, S, A, seat):
    """A25: a tentative opening is being laid and what is laid so far does not stand."""
    side = seat % 2
    return A.x[X_TENTATIVE] == 1 and not opening_ok_nb(
        mac, S.melds, side, A.laid, A.x[X_TURN_TAKE_ROW], S.sidev[side, SIDE_MINIMUM])


@turn_step
def fill_side_nb(mac, S, A, side, view):
    """The view's values of ``side``: its public values, melds, threes, talon, dead ranks and
    canastas by kind."""
    base = V_SIDES + side * SIDE_STRIDE
    view[base + SV_RED3] = A.threes[side, RED]
    view[base + SV_MELDED] = S.sidev[side, SIDE_MELDED]
    view[base + SV_MINIMUM] = S.sidev[side, SIDE_MINIMUM]
    view[base + SV_SCORE_BEFORE] = S.sidev[side, SIDE_SCORE_BEFORE]
    view[base + SV_PILE_TAKES] = A.x[X_SIDE_TAKES + side]
    view[V_THREES + side * 2 + RED] = A.threes[side, RED]
    view[V_THREES + side * 2 + BLACK] = A.threes[side, BLACK]
    view[V_TALON + side] = A.x[X_SIDE_TALON + side]
    for r in range(NKINDS):
        at = V_MELDS + (side * NKINDS + r) * 3
        view[at] = S.melds[side, M_NAT, r]
        view[at + 1] = S.melds[side, M_DEUCE, r]
        view[at + 2] = S.melds[side, M_JOKER, r]
        if r == WILD_ROW or r >= FIRST_NATURAL:
            view[V_DEAD + side * NKINDS + r] = 1 if is_dead_nb(mac, S.melds, side, r) else 0
            kind = canasta_kind_nb(S.melds, side, r)
            if kind >= 0:
                view[V_CANASTA_KINDS + side * N_CANASTA_KINDS + kind] += 1


@turn_step
def fill_mac_view_nb(mac, S, A, seat, view):
    """Write what ``seat`` may see in a Modern American deal (docs/american.md, "What each
    seat may know") into ``view`` (the ``V_*`` layout of kernels/players/user.py)."""
    st = S.st
    view[:] = 0
    view[V_FAMILY] = FAMILY_AMERICAN
    view[V_SEAT] = seat
    view[V_SIDE] = seat % 2
    view[V_NSEATS] = st[ST_NSEATS]
    view[V_NSIDES] = SIDES
    view[V_DEALER] = st[ST_DEALER]
    view[V_TURNS] = st[ST_TURNS]
    view[V_STOCK] = stock_left_nb(st)
    view[V_PILE_N] = st[ST_PILE_N]
    view[V_PILE_FREEZERS] = 1                                  # A29: always frozen
    view[V_LONE] = -1
    for kind in range(NKINDS):
        view[V_HAND + kind] = S.hands[seat, kind]
    for s in range(st[ST_NSEATS]):
        view[V_HAND_SIZES + s] = row_total_nb(S.hands[s])
        view[V_LAST_DISCARD + s] = -1                          # not kept in this family
        view[V_SEAT_SIDE + s] = s % 2
        view[V_SEAT_MINIMUM + s] = S.seatv[s, SEAT_MINIMUM]
        view[V_ASKED + s] = A.x[X_ASKED + s]
    for side in range(SIDES):
        fill_side_nb(mac, S, A, side, view)
    view[V_TALON_SIZES] = mac.talon_first
    view[V_TALON_SIZES + 1] = mac.talon_second
    view[V_TURN_CARD] = 1 if turn_card_drawn_nb(stock_left_nb(st)) else 0      # A7
    view[V_TURN_TOOK_PILE] = A.x[X_TURN_TOOK]
    view[V_TURN_ASKED] = A.x[X_TURN_ANSWER]
    view[V_TURN_OPENING] = A.x[X_TURN_OPENING]
    view[V_TURN_PENDING] = 1 if opening_pending_nb(mac, S, A, seat) else 0
    view[V_TURN_TALON] = talon_size_nb(mac, A.x[X_TURN_TALON])
    view[V_TURN_PRE_ONLY] = A.x[X_PRE_ONLY]
    view[V_TURN_DREW] = A.x[X_TURN_DREW]
    unseen = S.ws[WS_UNSEEN]
    mac_unseen_nb(mac, S, A, seat, unseen)
    for kind in range(NKINDS):
        view[V_UNSEEN + kind] = unseen[kind]
    for i in range(st[ST_PILE_N]):
        view[V_PILE + i] = S.pile[i]


# --- asking the seat -------------------------------------------------------------------------

@kernel
def ask_nb(pol, params, mac, S, A, seat, decision, n):
    """The index ``seat``'s function picks among the ``n`` options already written into the
    scratch rows (0 without asking when there is one).  A call, not inlined: a user seat's
    decisions are few and each asks its function, while the turn has about ten places that
    may ask; inlined, each copied the whole view into the turn's code (compile time)."""
    if n < 2:
        return 0
    view = S.ws[WS_USER_VIEW]
    fill_mac_view_nb(mac, S, A, seat, view)
    return call_checked_nb(mac, S.rng, S.ws, seat, pol, params[seat], decision, n, view)


@turn_step
def ask_two_nb(pol, params, mac, S, A, seat, decision, first, second, a, b):
    """Whether ``seat`` picks option ``first`` (columns ``a``, ``b``) over ``second``."""
    put_option_nb(S.ws, 0, first, a, b, 0, 0)
    put_option_nb(S.ws, 1, second, 0, 0, 0, 0)
    return ask_nb(pol, params, mac, S, A, seat, decision, 2) == 0


# --- the decisions of the turn (kernels/play/american/turn.py) --------------------------------

@turn_step
def keeps_three_nb(pol, params, mac, S, A, seat):
    """A10: keep one three (1) or lay them all (0)."""
    if is_user_nb(pol, seat):
        return 1 if ask_two_nb(pol, params, mac, S, A, seat, DEC_KEEP_THREE, OPT_KEEP_THREE,
                               OPT_LAY_THREES, 0, 0) else 0
    return builtin.keeps_three_nb(pol, S, seat)


@turn_step
def lays_special_nb(pol, params, mac, S, A, seat):
    """A52: lay the special hand held (the option shows its code and points, A51)."""
    if is_user_nb(pol, seat):
        code, points = special_hand_nb(mac, S.hands[seat], A.sizes)
        return ask_two_nb(pol, params, mac, S, A, seat, DEC_SPECIAL, OPT_SPECIAL,
                          OPT_NO_SPECIAL, code, points)
    return builtin.lays_special_nb(pol, S, seat)


@turn_step
def asks_partner_nb(pol, params, mac, S, A, seat, n, required):
    """A41: ask the partner before going out."""
    if is_user_nb(pol, seat):
        return ask_two_nb(pol, params, mac, S, A, seat, DEC_ASK, OPT_ASK, OPT_NO_ASK, 0, 0)
    return builtin.asks_partner_nb(pol, params, mac, S, A, seat, n, required)


@turn_step
def answers_yes_nb(pol, params, mac, S, A, partner):
    """A41: the partner's binding answer."""
    if is_user_nb(pol, partner):
        return ask_two_nb(pol, params, mac, S, A, partner, DEC_ANSWER, OPT_YES, OPT_NO, 0, 0)
    return builtin.answers_yes_nb(pol, params, mac, S, partner)


@turn_step
def take_can_stand_nb(mac, S, seat):
    """A26: a side that has melded may always take where A29-A30 allow; one that has not,
    only when an opening from the cards held before the take (less the pair) is in reach."""
    side = seat % 2
    if S.sidev[side, SIDE_MELDED] == 1:
        return True
    top = S.pile[S.st[ST_PILE_N] - 1]
    before = S.ws[WS_HAND]
    for k in range(NKINDS):
        before[k] = S.hands[seat, k]
    before[top] -= 2
    return opening_possible_nb(mac, S.melds, side, before, top, S.sidev[side, SIDE_MINIMUM])


@turn_step
def takes_pile_nb(pol, params, mac, S, A, seat):
    """A14: take the pile (where the rules allow) rather than draw (or, with the stock gone,
    end the deal, A44)."""
    if not is_user_nb(pol, seat):
        return builtin.takes_pile_nb(pol, params, mac, S, seat)
    if not take_can_stand_nb(mac, S, seat):
        return False
    other = OPT_DRAW if stock_left_nb(S.st) > 0 else OPT_DECLINE
    put_option_nb(S.ws, 0, OPT_TAKE, 2, 0, 0, S.st[ST_PILE_N])                  # A29
    put_option_nb(S.ws, 1, other, 0, 0, 0, 0)
    return ask_nb(pol, params, mac, S, A, seat, DEC_DRAW, 2) == 0


@turn_step
def tries_opening_nb(pol, params, mac, S, seat):
    """A24-A28: try the side's initial meld this turn (a user seat always may: it declines by
    stopping, module docstring)."""
    if is_user_nb(pol, seat):
        return True
    return builtin.tries_opening_nb(pol, params, mac, S, seat)


@turn_step
def step_option_nb(mac, S, A, seat, i):
    """The option kind of listed meld step ``i``: OPT_MELD_OUT if it goes out (A39), else
    OPT_NEW for a new meld, OPT_ADD_CARDS onto the side's meld."""
    if is_out_step_nb(mac, S, A, seat, i):
        return OPT_MELD_OUT
    return OPT_NEW if S.melds[seat % 2, M_SIZE, A.steps[i, 0]] == 0 else OPT_ADD_CARDS


@turn_step
def pick_step_nb(pol, params, mac, S, A, seat, n, pending):
    """The index of the meld step to make among the ``n`` listed in ``A.steps``, or -1 to
    stop.  A user seat may stop unless its partner's yes binds it to go out (A41)."""
    if n == 0 or not is_user_nb(pol, seat):
        return builtin.pick_step_nb(pol, params, mac, S, A, seat, n, pending)
    steps = min(n, MAX_OPTS - 1)
    for i in range(steps):
        put_option_nb(S.ws, i, step_option_nb(mac, S, A, seat, i), A.steps[i, 0],
                      A.steps[i, 1], A.steps[i, 2], A.steps[i, 3])
    total = steps
    if A.x[X_TURN_ANSWER] != 1:
        put_option_nb(S.ws, steps, OPT_STOP, 0, 0, 0, 0)
        total += 1
    i = ask_nb(pol, params, mac, S, A, seat, DEC_MELD, total)
    return -1 if i >= steps else i


@turn_step
def pick_discard_nb(pol, params, mac, S, A, seat, legal, n):
    """The kind to discard among the ``n`` legal kinds in ``legal``."""
    if n == 1 or not is_user_nb(pol, seat):
        return builtin.pick_discard_nb(pol, params, mac, S, A, seat, legal, n)
    for j in range(n):
        put_option_nb(S.ws, j, OPT_DISCARD, legal[j], 0, 0, 0)
    return legal[ask_nb(pol, params, mac, S, A, seat, DEC_DISCARD, n)]

