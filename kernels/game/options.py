"""Legal choices of a turn, and the moves that carry them out (docs/moves.md).

Every decision of a turn is a list of options built here from the seat's own
hand and public information only (RULES.md 0.1); a policy picks one by index
and the engine applies it.  Options are rows of ``opts`` (int64[MAX_OPTS, 5]):
``[kind, a, b, c, d]`` with ``kind`` one of the ``OPT_*`` codes.

An option is offered if and only if the rules allow it and a legal end of the turn is
still reachable after it (:func:`turn_completable_nb`).  Meld-phase choices are atomic
steps (a new meld of the smallest legal size, one card added to a meld), so that
``random`` can be uniform over them and every meld event of a trace is legal on its own;
going out is one option per scoring state, listed by ``kernels/game/plans.py``.
"""
import numpy as np

from ..jit import kernel, one_step
from .bits import lowest_bit_nb
from .cards import DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from .cutthroat import canastas_needed_nb, meld_owner_code_nb
from .layout import EV_MELD
from .plans import (
    PLAN_META,
    concealment_open_nb,
    go_out_after_whole_take_nb,
    go_out_plans_nb,
)
from .reach import reachable_count_nb
from .slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    SIDE_MELDED,
    ST_FREEZERS,
    ST_PILE_N,
    ST_TURN_ADDED_PRE,
    ST_TURN_ASK,
    ST_TURN_COUNT,
    ST_TURN_LAST_RED3,
    ST_TURN_MELDED,
    ST_TURN_MIN,
    ST_TURN_NEEDS_MIN,
    ST_TURN_NEW_RANKS,
    ST_TURN_PRE_RANKS,
    ST_TURN_TAKE,
)
from .state import (
    canastas_nb,
    card_value_nb,
    cards_value_nb,
    hand_size_nb,
    meld_ok_nb,
    meld_size_nb,
    melded_ranks_nb,
    pile_rest_nb,
    row_total_nb,
    side_of_nb,
)
from .trace_events import ev_begin_nb, ev_push_cards_nb

MAX_OPTS = 1280    # the most pile takes there can be: 13 x 13 x 7 (three packs, no wild limit)

OPT_STOP = 0        # end the meld phase (or the take melds)
OPT_NEW = 1         # a: rank, b: naturals, c: deuces, d: jokers of a new meld from the hand
OPT_ADD = 2         # a: rank, b: card kind added to the side's meld of that rank
OPT_GO_OUT = 3      # a: index of a going-out plan (kernels/game/plans.py), b: its discard or -1,
                    # d: its score for the side
OPT_DRAW = 4        # draw from the stock (R12 a)
OPT_TAKE = 5        # take the pile: a naturals, b deuces, c jokers from the hand join the top card
OPT_DISCARD = 6     # a: card kind
OPT_ASK = 7         # ask partner "may I go out?" (R42)
OPT_NO_ASK = 8
OPT_DECLINE = 9     # do not take the pile after the stock is gone: the deal ends (R49)
OPT_YES = 10        # answers to a partner's question
OPT_NO = 11
# Modern American (kernels/players/american_user.py, docs/own-policy.md)
OPT_ADD_CARDS = 12  # a: rank (JOKER: the wild meld), b: naturals, c: deuces, d: jokers onto the
                    # side's meld of that rank
OPT_MELD_OUT = 13   # a meld step (columns of OPT_ADD_CARDS) that goes out (A39)
OPT_KEEP_THREE = 14  # keep one three in hand for the Straight (A10)
OPT_LAY_THREES = 15
OPT_SPECIAL = 16    # lay the special hand: a: its code (special.NAMES), b: its points (A52)
OPT_NO_SPECIAL = 17

# decision kinds a policy is asked about
DEC_DRAW = 0
DEC_MELD = 1
DEC_DISCARD = 2
DEC_ASK = 3
DEC_ANSWER = 4
DEC_TAKE_PLAN = 5   # take melds from the hand before the rest of the pile joins it (R35)
DEC_KEEP_THREE = 6  # Modern American: keep a three (A10)
DEC_SPECIAL = 7     # Modern American: lay a special hand (A52)


@one_step
def add_opt_nb(opts, n, kind, a, b, c, d):
    """Append one option row; returns the new count (silently full at MAX_OPTS)."""
    if n >= opts.shape[0]:
        return n
    opts[n, 0] = kind
    opts[n, 1] = a
    opts[n, 2] = b
    opts[n, 3] = c
    opts[n, 4] = d
    return n + 1


# ---- can the turn still end legally? (R16, R26-R30, R39-R42, R47) ---------------------------

@kernel
def short_of_minimum_nb(st):
    """R26, R27: the turn still has to reach the side's initial-meld minimum."""
    return st[ST_TURN_NEEDS_MIN] == 1 and st[ST_TURN_COUNT] < st[ST_TURN_MIN]


@kernel
def must_go_out_nb(st):
    """The meld phase may only end by going out: after a "yes" (R42), and after a pile take
    that only a concealed going-out makes legal (R30; the take left the minimum unmet)."""
    return st[ST_TURN_ASK] == 1 or (st[ST_TURN_TAKE] == 1 and st[ST_TURN_NEEDS_MIN] == 1)


@kernel
def can_go_out_nb(rules, st, seatv, hand_row, melds, seat, plans, ws):
    """Is there a going-out plan now (kernels/game/plans.py), counting its cards toward an unmet
    minimum only in a draw turn (R28, R35)?"""
    return go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, st[ST_TURN_TAKE] == 0, True,
                           True, plans, ws) > 0


@kernel
def can_go_out_if_yes_nb(rules, st, seatv, hand_row, melds, seat, plans, ws):
    """:func:`can_go_out_nb` as if the partner had answered "yes" (R42): whether asking could
    lead to going out.  The turn's answer record is left as it was."""
    asked = st[ST_TURN_ASK]
    st[ST_TURN_ASK] = 1
    able = can_go_out_nb(rules, st, seatv, hand_row, melds, seat, plans, ws)
    st[ST_TURN_ASK] = asked
    return able


@kernel
def turn_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws):
    """Can the turn, from here, still end legally?  ``planning``: the take melds are being
    laid and the rest of the pile has yet to join the hand (R35, R36)."""
    h = row_total_nb(hand_row)
    if planning:
        return take_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, h, plans, ws)
    if not must_go_out_nb(st):
        keep = 1 if st[ST_TURN_LAST_RED3] == 1 else 2       # R16; R47: no discard follows
        if h >= keep:
            if not short_of_minimum_nb(st):
                return True
            side = side_of_nb(st, seat)
            if st[ST_TURN_COUNT] + reachable_count_nb(rules, hand_row, melds, side, keep, ws) \
                    >= st[ST_TURN_MIN]:
                return True
    return can_go_out_nb(rules, st, seatv, hand_row, melds, seat, plans, ws)


@kernel
def take_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, h, plans, ws):
    """:func:`turn_completable_nb` while take melds are laid.  A side short of its minimum
    reaches it with more take melds and keeps two cards once the pile has joined (R16), or
    melds its whole hand as take melds and goes out, or is exempt by going out concealed
    (R30).  Otherwise the turn ends legally unless the take leaves fewer than two cards."""
    rest = pile_rest_nb(st, pile)
    if not short_of_minimum_nb(st):
        return after_join_can_end_nb(rules, st, seatv, hand_row, melds, pile, seat, h, rest,
                                     plans, ws)
    side = side_of_nb(st, seat)
    keep = max(0, 2 - rest)
    if st[ST_TURN_COUNT] + reachable_count_nb(rules, hand_row, melds, side, keep, ws) \
            >= st[ST_TURN_MIN]:
        return True
    if rest <= 1 and go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, True, rest == 0,
                                     True, plans, ws) > 0:
        return True               # the whole hand (less a discard) as take melds, then out
    if rest == 1 and go_out_after_whole_take_nb(rules, st, seatv, hand_row, melds, seat,
                                                joining_card_nb(st, pile), plans, ws):
        return True               # ... and the card that joins completes a canasta
    return concealed_out_after_join_nb(rules, st, seatv, hand_row, melds, pile, seat, plans, ws)


@kernel
def joining_card_nb(st, pile):
    """The first card under the pile's top card that will join the hand (not a red three,
    R14), or -1."""
    for i in range(st[ST_PILE_N] - 1):
        if pile[i] != RED3:
            return pile[i]
    return -1


@kernel
def concealed_out_after_join_nb(rules, st, seatv, hand_row, melds, pile, seat, plans, ws):
    """R30 through a pile take: once the rest of the pile has joined the hand, can the
    player go out concealed, exempt from the minimum his take melds did not reach?"""
    if rules.concealed_exempt_from_min_count == 0:
        return False
    if not concealment_open_nb(rules, st, seatv, seat, False) and \
            not concealment_open_nb(rules, st, seatv, seat, True):
        return False
    add_pile_rest_nb(st, pile, hand_row, 1)
    ok = go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, False, True, True, plans,
                         ws) > 0
    add_pile_rest_nb(st, pile, hand_row, -1)
    return ok


@kernel
def after_join_can_end_nb(rules, st, seatv, hand_row, melds, pile, seat, h, rest, plans, ws):
    """Once the rest of the pile has joined the hand (minimum met): two cards or more end the
    turn with a discard (R16); an empty hand has gone out with the take (T27, R40); one card
    must go out."""
    if h + rest >= 2:
        return True
    if h + rest == 0:
        side = side_of_nb(st, seat)
        return canastas_nb(melds, side) >= canastas_needed_nb(rules, st, side)    # R40, C11
    add_pile_rest_nb(st, pile, hand_row, 1)
    ok = go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, False, True, True, plans,
                         ws) > 0
    add_pile_rest_nb(st, pile, hand_row, -1)
    return ok


# ---- meld steps (R15, R18-R30) --------------------------------------------------------------

@kernel
def step_cards_nb(kind, a, b, c, d):
    """The (naturals, deuces, jokers) that an OPT_NEW / OPT_ADD row places."""
    if kind == OPT_NEW:
        return b, c, d
    if b == DEUCE:
        return 0, 1, 0
    if b == JOKER:
        return 0, 0, 1
    return 1, 0, 0


@kernel
def move_to_meld_nb(hand_row, melds, side, rank, naturals, deuces, jokers, from_pile, sign):
    """Tentatively move cards from a hand row onto the side's meld of ``rank`` (``sign`` 1)
    or back (-1); ``from_pile`` more natural cards (the pile's top card) join the meld from
    elsewhere."""
    hand_row[rank] -= sign * naturals
    hand_row[DEUCE] -= sign * deuces
    hand_row[JOKER] -= sign * jokers
    melds[side, M_NAT, rank] += sign * (naturals + from_pile)
    melds[side, M_DEUCE, rank] += sign * deuces
    melds[side, M_JOKER, rank] += sign * jokers
    melds[side, M_SIZE, rank] += sign * (naturals + from_pile + deuces + jokers)


@one_step
def step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, rank, nat, deuce, joker,
                  planning, plans, ws):
    """Is a meld step (new meld or additions, from the hand) legal: R18-R21 for the meld,
    and a legal end of the turn still reachable after it (:func:`turn_completable_nb`)?
    In the meld phase a step that would empty the hand is going out, which the going-out
    plans list, so it is not a step."""
    return held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, rank, nat, deuce,
                              joker, planning, plans, ws, row_total_nb(hand_row))


@one_step
def held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, rank, nat, deuce, joker,
                       planning, plans, ws, held):
    """:func:`step_legal_nb` for a hand of ``held`` cards, for callers that check many steps
    of one hand (the hand is the same after each check: its tentative moves are undone)."""
    side = side_of_nb(st, seat)
    if not meld_ok_nb(rules, melds[side, M_NAT, rank] + nat,
                      melds[side, M_DEUCE, rank] + melds[side, M_JOKER, rank] + deuce + joker):
        return False                                           # R18, R19
    left = held - nat - deuce - joker
    if planning:
        if not short_of_minimum_nb(st) and left + pile_rest_nb(st, pile) >= 2:
            return True                                        # the common take
    else:
        if left == 0:
            return False
        if not short_of_minimum_nb(st) and not must_go_out_nb(st) and \
                left >= (1 if st[ST_TURN_LAST_RED3] == 1 else 2):
            return True                                        # the common case
    return step_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, rank, nat, deuce,
                               joker, planning, plans, ws)


@kernel
def step_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, rank, nat, deuce,
                        joker, planning, plans, ws):
    """Make the step tentatively (cards, the R28 count, the R44 book-keeping), ask
    :func:`turn_completable_nb`, and take it back."""
    side = side_of_nb(st, seat)
    count = st[ST_TURN_COUNT]
    new_ranks = st[ST_TURN_NEW_RANKS]
    added_pre = st[ST_TURN_ADDED_PRE]
    note_step_nb(rules, st, melds, side, rank, nat, deuce, joker, planning)
    move_to_meld_nb(hand_row, melds, side, rank, nat, deuce, joker, 0, 1)
    ok = turn_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws)
    move_to_meld_nb(hand_row, melds, side, rank, nat, deuce, joker, 0, -1)
    st[ST_TURN_COUNT] = count
    st[ST_TURN_NEW_RANKS] = new_ranks
    st[ST_TURN_ADDED_PRE] = added_pre
    return ok


@kernel
def note_step_nb(rules, st, melds, side, rank, nat, deuce, joker, planning):
    """The turn's record of a step about to be made: the R28 count while the minimum is unmet
    (cards from the hand in a draw turn, take melds in a take turn, R35) and which melds
    are new or the partner's (R44)."""
    if st[ST_TURN_NEEDS_MIN] == 1 and (planning or st[ST_TURN_TAKE] == 0):
        st[ST_TURN_COUNT] += cards_value_nb(rules, rank, nat, deuce, joker)
    note_meld_rank_nb(st, melds, side, rank)


@kernel
def note_meld_rank_nb(st, melds, side, rank):
    """R44 book-keeping of cards about to go on the side's meld of ``rank``: a meld the turn
    creates (``ST_TURN_NEW_RANKS``), or one from before the turn (``ST_TURN_ADDED_PRE``)."""
    bit = np.int64(1) << rank
    if meld_size_nb(melds, side, rank) == 0:
        st[ST_TURN_NEW_RANKS] |= bit
    elif st[ST_TURN_PRE_RANKS] & bit:
        st[ST_TURN_ADDED_PRE] = 1


@one_step
def next_meld_shape_nb(rules, hand_row, rank, nat, de):
    """The make-up (naturals, deuces, jokers) after (``nat``, ``de``, ...) of a new meld of
    ``rank`` of the smallest legal size (three cards, at least ``min_naturals_per_meld``
    natural, R18) that the hand holds the cards for: most naturals first, deuces before
    jokers; ``nat`` -1 asks for the first, and (-1, 0, 0) comes after the last.  (Whether
    the meld is legal beyond that is step_legal_nb's question.)"""
    size = max(3, rules.min_naturals_per_meld)
    if nat < 0:
        nat = min(size, hand_row[rank])
        de = min(size - nat, hand_row[DEUCE])
    else:
        de -= 1
    while nat >= max(rules.min_naturals_per_meld, 1):
        while de >= 0:
            if size - nat - de <= hand_row[JOKER]:
                return nat, de, size - nat - de
            de -= 1
        nat -= 1
        de = min(size - nat, hand_row[DEUCE])
    return -1, 0, 0


@one_step
def meld_options_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, no_plans, opts,
                    plans, ws):
    """Legal meld-phase options (docs/moves.md): the going-out plans (not while laying take
    melds, nor when the caller knows there is none: ``no_plans``), new melds of the smallest
    legal size, single cards added to the side's melds, and stopping."""
    side = side_of_nb(st, seat)
    n = 0
    last_red3 = st[ST_TURN_LAST_RED3] == 1
    if last_red3 and rules.last_card_red3_may_meld == 0:
        return add_opt_nb(opts, n, OPT_STOP, 0, 0, 0, 0)        # R47
    if not planning and not no_plans:
        n_plans = go_out_plans_nb(rules, st, seatv, hand_row, melds, seat,
                                  st[ST_TURN_TAKE] == 0, True, False, plans, ws)
        for p in range(n_plans):
            n = add_opt_nb(opts, n, OPT_GO_OUT, p, plans[p, PLAN_META, 0], 0,
                           plans[p, PLAN_META, 2])
    held = row_total_nb(hand_row)
    melded_ranks = melded_ranks_nb(melds, side)
    ranks = 0
    for r in range(FIRST_NATURAL, NKINDS):         # without branches: the hand is unpredictable
        ranks |= np.int64(hand_row[r] > 0) << r
    while ranks != 0:                               # the held ranks, lowest first
        r = lowest_bit_nb(ranks)
        ranks &= ranks - 1
        if (melded_ranks >> r) & 1 == 0:
            nat, de, jo = next_meld_shape_nb(rules, hand_row, r, -1, 0)
            while nat >= 0:
                if held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, nat, de,
                                      jo, planning, plans, ws, held):
                    n = add_opt_nb(opts, n, OPT_NEW, r, nat, de, jo)
                nat, de, jo = next_meld_shape_nb(rules, hand_row, r, nat, de)
        elif held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, 1, 0, 0,
                                planning, plans, ws, held):
            n = add_opt_nb(opts, n, OPT_ADD, r, r, 0, 0)
    ranks = melded_ranks if hand_row[DEUCE] + hand_row[JOKER] > 0 else 0
    while ranks != 0:                               # wild cards onto the melds, lowest first
        r = lowest_bit_nb(ranks)
        ranks &= ranks - 1
        if hand_row[DEUCE] > 0 and held_step_legal_nb(
                rules, st, seatv, hand_row, melds, pile, seat, r, 0, 1, 0, planning, plans, ws,
                held):
            n = add_opt_nb(opts, n, OPT_ADD, r, DEUCE, 0, 0)
        if hand_row[JOKER] > 0 and held_step_legal_nb(
                rules, st, seatv, hand_row, melds, pile, seat, r, 0, 0, 1, planning, plans, ws,
                held):
            n = add_opt_nb(opts, n, OPT_ADD, r, JOKER, 0, 0)
    if stop_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws) \
            if planning else meld_stop_legal_nb(st, held):
        n = add_opt_nb(opts, n, OPT_STOP, 0, 0, 0, 0)
    return n


@kernel
def stop_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws):
    """May the player end his meld phase (``planning``: his take melds) now?
    (R16, R26-R30, R35, R42, R47; docs/moves.md)"""
    h = row_total_nb(hand_row)
    if planning:
        if short_of_minimum_nb(st):              # R30: stop short, then go out concealed
            return concealed_out_after_join_nb(rules, st, seatv, hand_row, melds, pile, seat,
                                               plans, ws)
        return after_join_can_end_nb(rules, st, seatv, hand_row, melds, pile, seat, h,
                                     pile_rest_nb(st, pile), plans, ws)
    return meld_stop_legal_nb(st, h)


@one_step
def meld_stop_legal_nb(st, h):
    """:func:`stop_legal_nb` in the meld phase, for a hand of ``h`` cards: it needs none of
    the arrays the checks of take melds read, so the meld steps of greedy and the club
    players ask it directly."""
    if must_go_out_nb(st):
        return False
    if short_of_minimum_nb(st) and st[ST_TURN_MELDED] == 1:
        return False                 # a started initial meld must reach the minimum (R26)
    if st[ST_TURN_LAST_RED3] == 1:
        return h >= 1                # R47: no discard follows
    return h >= 2                    # one card: going out by discarding it is a plan


# ---- placing cards on melds (R15, R18-R22) --------------------------------------------------

@one_step
def place_cards_nb(rules, st, hands, melds, sidev, buf, seat, rank, nat, deuce, joker, trace):
    """Move cards from ``seat``'s hand onto its side's meld of ``rank`` (created if absent)
    and keep the turn's R44 book-keeping; writes a ``meld`` event when ``trace``."""
    side = side_of_nb(st, seat)
    note_meld_rank_nb(st, melds, side, rank)
    hands[seat, rank] -= nat
    hands[seat, DEUCE] -= deuce
    hands[seat, JOKER] -= joker
    melds[side, M_NAT, rank] += nat
    melds[side, M_DEUCE, rank] += deuce
    melds[side, M_JOKER, rank] += joker
    melds[side, M_SIZE, rank] += nat + deuce + joker
    st[ST_TURN_MELDED] = 1
    if rank >= FIRST_NATURAL:
        sidev[side, SIDE_MELDED] = 1              # R26 (red threes never count, R24)
    if trace:
        pos = ev_begin_nb(st, buf, EV_MELD, seat, rank,
                          meld_owner_code_nb(st, melds, side, rank))          # C7
        ev_push_cards_nb(st, buf, pos, rank, nat, deuce, joker)


# ---- the draw phase: taking the pile (R31-R38) ----------------------------------------------

@kernel
def take_context_nb(rules, st, sidev, hand_row, melds, pile, seat):
    """Whether the pile may be taken at all now (R31, R35/D7, R37), and if so the facts every
    take needs: (allowed, top card, frozen for the side, unmelded, the fewest naturals of
    the top card's rank the take needs from the hand)."""
    side = side_of_nb(st, seat)
    pile_n = st[ST_PILE_N]
    if pile_n == 0:
        return False, 0, False, False, 0
    top = pile[pile_n - 1]
    if top < FIRST_NATURAL:
        return False, 0, False, False, 0                     # R31
    unmelded = sidev[side, SIDE_MELDED] == 0
    if unmelded and rules.unmelded_pile_access == 1:
        return False, 0, False, False, 0                     # D7 forbidden
    frozen = st[ST_FREEZERS] > 0 or unmelded                 # R32
    min_k = take_min_naturals_nb(rules, frozen, meld_size_nb(melds, side, top) > 0)
    if hand_row[top] < min_k:
        return False, 0, False, False, 0                     # R33, R34: too few naturals
    if rules.one_card_pile_restriction == 1 and pile_n == 1 and row_total_nb(hand_row) == 1:
        return False, 0, False, False, 0                     # R37
    return True, top, frozen, unmelded, min_k


@kernel
def take_min_naturals_nb(rules, frozen, existing):
    """The fewest natural cards of the top card's rank a take needs from the hand: two for a
    frozen pile (R33); else none for a lay-off, one beside a wild card, two otherwise (R34)."""
    if frozen:
        return 2
    if existing and rules.unfrozen_take_by_layoff == 1:
        return 0
    if rules.unfrozen_take_natural_plus_wild == 1:
        return 1
    return 2


@kernel
def take_method_ok_nb(rules, frozen, existing, k, d, j):
    """R33/R34: does a take meld of the top card with k naturals, d deuces and j jokers from
    the hand use an allowed method (natural pair; natural and wild; lay-off)?"""
    if frozen:
        return k >= 2                                        # R33
    return (k >= 2 or (k >= 1 and d + j >= 1 and rules.unfrozen_take_natural_plus_wild == 1)
            or (existing and rules.unfrozen_take_by_layoff == 1))   # R34


@kernel
def take_options_nb(rules, st, seatv, sidev, hand_row, melds, pile, seat, opts, n, plans, ws):
    """Append the legal ways to take the pile: (naturals, deuces, jokers) from the hand that
    join the top card in the first take meld (R31-R35, R37, R16)."""
    ok, top, frozen, unmelded, min_k = take_context_nb(rules, st, sidev, hand_row, melds, pile,
                                                       seat)
    if not ok:
        return n
    existing = meld_size_nb(melds, side_of_nb(st, seat), top) > 0
    for k in range(min_k, hand_row[top] + 1):
        for d in range(hand_row[DEUCE] + 1):
            for j in range(hand_row[JOKER] + 1):
                if take_method_ok_nb(rules, frozen, existing, k, d, j) and take_legal_nb(
                        rules, st, seatv, hand_row, melds, pile, seat, top, k, d, j, plans, ws):
                    n = add_opt_nb(opts, n, OPT_TAKE, k, d, j, st[ST_PILE_N])
    return n


@one_step
def take_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, top, k, d, j, plans, ws):
    """R18/R19 for the first take meld, and a legal end of the turn reachable after it
    (R16, R35, R30: :func:`turn_completable_nb` with the take melds still being laid)."""
    side = side_of_nb(st, seat)
    if not meld_ok_nb(rules, melds[side, M_NAT, top] + 1 + k,
                      melds[side, M_DEUCE, top] + melds[side, M_JOKER, top] + d + j):
        return False
    if st[ST_TURN_NEEDS_MIN] == 0 and \
            row_total_nb(hand_row) - k - d - j + pile_rest_nb(st, pile) >= 2:
        return True                 # the common take: melded side, two cards after the join
    count = st[ST_TURN_COUNT]
    new_ranks = st[ST_TURN_NEW_RANKS]
    added_pre = st[ST_TURN_ADDED_PRE]
    note_take_nb(rules, st, melds, side, top, k, d, j)
    move_to_meld_nb(hand_row, melds, side, top, k, d, j, 1, 1)
    ok = turn_completable_nb(rules, st, seatv, hand_row, melds, pile, seat, True, plans, ws)
    move_to_meld_nb(hand_row, melds, side, top, k, d, j, 1, -1)
    st[ST_TURN_COUNT] = count
    st[ST_TURN_NEW_RANKS] = new_ranks
    st[ST_TURN_ADDED_PRE] = added_pre
    return ok


@kernel
def note_take_nb(rules, st, melds, side, top, k, d, j):
    """The turn's record of the first take meld about to be laid (before the top card joins
    the meld): its R28 count for an unmelded side, and R44's new or partner's meld."""
    if st[ST_TURN_NEEDS_MIN] == 1:
        st[ST_TURN_COUNT] = take_count_nb(rules, top, k, d, j)
    note_meld_rank_nb(st, melds, side, top)


@kernel
def take_count_nb(rules, top, k, d, j):
    """R28: what a take meld counts toward the minimum: the top card (knob
    top_card_counts_for_minimum) and the hand cards."""
    count = cards_value_nb(rules, top, k, d, j)
    if rules.top_card_counts_for_minimum == 1:
        count += card_value_nb(rules, top)
    return count


@kernel
def add_pile_rest_nb(st, pile, hand_row, sign):
    """Add (sign 1) or take back (sign -1) the cards under the pile's top card, red threes
    excepted (R14, R36), to a hand row: the hand as it will be after a take."""
    for i in range(st[ST_PILE_N] - 1):
        if pile[i] != RED3:
            hand_row[pile[i]] += sign


@kernel
def take_plan_open_nb(rules, st):
    """Are take melds offered after the first (docs/moves.md)?  While an unmelded side is
    short of its minimum, and whenever ``concealed_canasta_bonus`` can reward a canasta
    laid as a take meld; otherwise melding the same cards once the pile has joined the
    hand is the same move."""
    return short_of_minimum_nb(st) or rules.concealed_canasta_bonus != 0


@one_step
def discard_options_nb(hand_row, opts):
    """One option per kind of card in the hand (R17: any card may be discarded)."""
    n = 0
    for k in range(NKINDS):
        if discardable_nb(hand_row, k):
            n = add_opt_nb(opts, n, OPT_DISCARD, k, 0, 0, 0)
    return n


@one_step
def discardable_nb(hand_row, kind):
    """R17: the hand holds a card of ``kind`` to discard (red threes never stay in a hand).
    The discards chosen without the option list (kernels/players: random.py, greedy.py,
    club.py) walk the kinds with this same test, in the same order, so they pick what the
    list offers; no branches."""
    return (hand_row[kind] > 0) & (kind != RED3)


@one_step
def discardable_kinds_nb(hand_row):
    """Bitmask of the kinds :func:`discardable_nb` allows, built without branches: the
    discards chosen from the hand walk its set bits in kind order."""
    kinds = 0
    for k in range(NKINDS):
        kinds |= np.int64(discardable_nb(hand_row, k)) << k
    return kinds


@kernel
def forced_take_due_nb(rules, S, seat):
    """R49 as read in RULES.md 2.11: after the stock is gone the player must take an unfrozen
    pile whose natural top card his side has a meld of (layoff allowed, R37 and R16 permitting)."""
    hands = S.hands
    melds = S.melds
    pile = S.pile
    st = S.st
    sidev = S.sidev
    if rules.empty_stock_forced_take == 0 or rules.unfrozen_take_by_layoff == 0:
        return False
    n = st[ST_PILE_N]
    side = side_of_nb(st, seat)
    if n == 0 or st[ST_FREEZERS] > 0 or sidev[side, SIDE_MELDED] == 0:
        return False
    top = pile[n - 1]
    if top < FIRST_NATURAL or meld_size_nb(melds, side, top) == 0:
        return False
    h = hand_size_nb(hands, seat)
    if rules.one_card_pile_restriction == 1 and h == 1 and n == 1:
        return False
    after = h + pile_rest_nb(st, pile)
    if after <= 1:
        have = canastas_nb(melds, side)
        if meld_size_nb(melds, side, top) == 6:
            have += 1
        return have >= canastas_needed_nb(rules, st, side)              # R40, C11
    return True


@kernel
def pile_top_takeable_nb(st, hands, melds, pile, seat):
    """False when no take of the pile can be legal (options.take_context_nb): an empty pile,
    a top card that is not a natural (R31), or one of a rank the seat neither holds nor
    has a meld of (R33, R34)."""
    n = st[ST_PILE_N]
    if n == 0:
        return False
    top = pile[n - 1]
    if top < FIRST_NATURAL:
        return False
    return hands[seat, top] > 0 or meld_size_nb(melds, side_of_nb(st, seat), top) > 0
