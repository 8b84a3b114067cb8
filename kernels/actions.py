"""Legal choices of a turn, and the moves that carry them out.

Every decision of a turn is a list of options built here from the seat's own
hand and public information only (RULES.md 0.1); a policy picks one by index
and the engine applies it.  Options are rows of ``opts`` (int64[MAX_OPTS, 5]):
``[kind, a, b, c, d]`` with ``kind`` one of the ``OPT_*`` codes.

Meld-phase choices are atomic steps (a new meld of three cards, one card added
to a meld), so that ``random`` can be uniform over them and every meld event
of a trace is legal on its own; going out is one macro step built by
:func:`find_go_out_nb`.
"""
import numpy as np

from .cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from .jit import kernel
from .layout import EV_MELD
from .rules_nb import Ask
from .state import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    SEAT_MELDED_BEFORE,
    SIDE_MELDED,
    ST_FREEZERS,
    ST_NSEATS,
    ST_NSIDES,
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
    WS_ADD,
    WS_HAND,
    WS_PAIR_NEED,
    WS_PAIR_VALUE,
    WS_ROOM,
    WS_SIZE,
    canastas_nb,
    card_value_nb,
    cards_value_nb,
    meld_ok_nb,
    meld_size_nb,
    pile_rest_nb,
    row_total_nb,
    side_of_nb,
    wild_capacity_nb,
)
from .trace_buf import ev_begin_nb, ev_push_nb

MAX_OPTS = 256

OPT_STOP = 0        # end the meld phase
OPT_NEW = 1         # a: rank, b: NEW_3N / NEW_2N_DEUCE / NEW_2N_JOKER
OPT_ADD = 2         # a: rank, b: card kind added to the side's meld of that rank
OPT_GO_OUT = 3      # meld the whole hand (b: discard kind or -1), the plan of find_go_out_nb
OPT_DRAW = 4        # draw from the stock (R12 a)
OPT_TAKE = 5        # take the pile: a naturals, b deuces, c jokers from the hand join the top card
OPT_DISCARD = 6     # a: card kind
OPT_ASK = 7         # ask partner "may I go out?" (R42)
OPT_NO_ASK = 8
OPT_DECLINE = 9     # do not take the pile after the stock is gone: the deal ends (R49)
OPT_YES = 10        # answers to a partner's question
OPT_NO = 11

NEW_3N = 0
NEW_2N_DEUCE = 1
NEW_2N_JOKER = 2

# decision kinds a policy is asked about
DEC_DRAW = 0
DEC_MELD = 1
DEC_DISCARD = 2
DEC_ASK = 3
DEC_ANSWER = 4
DEC_TAKE_PLAN = 5   # extra take melds of a side that has not melded (R35)


@kernel
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


# ---- going out: who may, and with which plan (R16, R39-R42, R44) ----------------------------

@kernel
def has_partner_nb(st):
    """True when the seat's side has more than one seat (R42 needs a partner)."""
    return st[ST_NSEATS] > st[ST_NSIDES]


@kernel
def out_allowed_nb(rules, st, canastas_after):
    """May the current player empty his hand now, given his side's canastas then? (R40, R42, R47)"""
    if canastas_after < rules.canastas_to_go_out:
        return False
    if st[ST_TURN_ASK] == 0 or st[ST_TURN_LAST_RED3] == 1:
        return False
    if (rules.ask_permission == Ask.REQUIRED and has_partner_nb(st)
            and st[ST_TURN_TAKE] == 0 and st[ST_TURN_ASK] != 1):
        return False
    return True


@kernel
def can_finish_nb(rules, st, hand_row, melds, side, hand_left, canastas_after):
    """R16: after a move leaving ``hand_left`` cards, can the turn still end legally?

    Two or more cards: discard one, keep one.  One card: discard it and go out, or
    lay it on a six-card meld whose completion gives the canastas to go out.
    None: the player has gone out."""
    if hand_left >= 2:
        return True
    if hand_left == 1 and st[ST_TURN_LAST_RED3] == 1:
        return True                      # R47: no discard follows; keeping the card is fine
    if out_allowed_nb(rules, st, canastas_after):
        return True
    if hand_left == 1 and out_allowed_nb(rules, st, canastas_after + 1):
        for k in range(NKINDS):
            if hand_row[k] > 0:
                if k >= FIRST_NATURAL and meld_size_nb(melds, side, k) == 6:
                    return True
                if k == JOKER or k == DEUCE:
                    for r in range(FIRST_NATURAL, NKINDS):
                        wilds = melds[side, r, M_DEUCE] + melds[side, r, M_JOKER]
                        if meld_size_nb(melds, side, r) == 6 and \
                                wilds + 1 <= wild_capacity_nb(rules, melds[side, r, M_NAT]):
                            return True
    return False


@kernel
def plan_full_meld_nb(rules, hv, melds, side, pre, own_only, plan, ws):
    """Can every card of the hand vector ``hv`` be melded, leaving the side with the canastas
    needed to go out (R18-R25, R40)?  Fills ``plan[rank] = (naturals, deuces, jokers)`` to
    add; returns the number of canastas afterwards, or -1 if impossible.

    ``pre`` is the bitmask of the side's melds from before the turn (the partner's).  With
    ``own_only`` the plan may not touch them and must complete a canasta of its own, so the
    going-out is concealed when the player had not melded before (R44); otherwise spare wild
    cards still go to the turn's own melds first."""
    plan[:, :] = 0
    add = ws[WS_ADD]
    room = ws[WS_ROOM]
    size = ws[WS_SIZE]
    wilds = plan_naturals_nb(rules, hv, melds, side, pre, own_only, plan, ws)
    if wilds < 0:
        return -1
    have = 0
    own = 0
    for r in range(FIRST_NATURAL, NKINDS):
        if size[r] >= 7:
            have += 1
            own += 1 - ((pre >> r) & 1)
    while have < rules.canastas_to_go_out or (own_only and own == 0):   # R40
        best = cheapest_completion_nb(room, size, wilds, pre)
        if best < 0:
            return -1
        d = 7 - size[best]
        add[best] += d
        room[best] -= d
        size[best] += d
        wilds -= d
        have += 1
        own += 1 - ((pre >> best) & 1)
    if place_spare_wilds_nb(melds, side, pre, wilds, add, room, size) > 0:
        return -1
    jokers = hv[JOKER]
    for r in range(FIRST_NATURAL, NKINDS):
        j = min(add[r], jokers)
        plan[r, M_JOKER] = j
        plan[r, M_DEUCE] = add[r] - j
        jokers -= j
    return have


@kernel
def plan_naturals_nb(rules, hv, melds, side, pre, own_only, plan, ws):
    """First part of :func:`plan_full_meld_nb`: every natural and black three of ``hv`` into
    ``plan``, and the wild cards that pairs need; fills the scratch rows of sizes and room
    for wild cards.  Returns the wild cards left, or -1 if the hand cannot be melded."""
    add = ws[WS_ADD]
    room = ws[WS_ROOM]
    size = ws[WS_SIZE]
    for r in range(NKINDS):
        add[r] = 0
        room[r] = 0
        size[r] = 0
    if hv[RED3] > 0:
        return -1
    b3 = hv[BLACK3]
    if b3 > 0:
        if rules.black_three_going_out_meld == 1 and 3 <= b3 <= 4:   # R25, D10
            plan[BLACK3, M_NAT] = b3
        else:
            return -1
    wilds = hv[JOKER] + hv[DEUCE]
    for r in range(FIRST_NATURAL, NKINDS):
        h = hv[r]
        nat = melds[side, r, M_NAT] + h
        have_w = melds[side, r, M_DEUCE] + melds[side, r, M_JOKER]
        size[r] = nat + have_w
        if size[r] == 0:
            continue
        partner_meld = (pre >> r) & 1 == 1
        if own_only and partner_meld:
            if h > 0:
                return -1                     # (iii): would add to the partner's meld
            continue                          # room stays 0: no wild cards there either
        plan[r, M_NAT] = h
        room[r] = wild_capacity_nb(rules, nat) - have_w
        if h > 0 and have_w + melds[side, r, M_NAT] == 0:         # a new meld (R18)
            if h < rules.min_naturals_per_meld:
                return -1
            need = max(0, 3 - h)
            if room[r] < need or wilds < need:
                return -1
            add[r] = need
            wilds -= need
            room[r] -= need
            size[r] += need
    return wilds


@kernel
def cheapest_completion_nb(room, size, wilds, pre):
    """The meld that the fewest wild cards turn into a canasta (R23), the turn's own meld on
    a tie; -1 if none can be completed with the wild cards left."""
    best = -1
    for r in range(FIRST_NATURAL, NKINDS):
        if 0 < size[r] < 7:
            deficit = 7 - size[r]
            if deficit <= room[r] and deficit <= wilds:
                if best < 0 or deficit < 7 - size[best] or (
                        deficit == 7 - size[best] and (pre >> best) & 1 == 1):
                    best = r
    return best


@kernel
def place_spare_wilds_nb(melds, side, pre, wilds, add, room, size):
    """Put the wild cards a going-out plan has left wherever there is room: the turn's own
    melds before the partner's (R44 iii); within each, melds already mixed first and natural
    canastas last.  Returns the wild cards that found no room."""
    for rnd in range(6):
        own_round = rnd < 3
        step = rnd % 3
        for r in range(FIRST_NATURAL, NKINDS):
            if wilds == 0:
                return 0
            if size[r] == 0 or room[r] == 0 or own_round == ((pre >> r) & 1 == 1):
                continue
            mixed = melds[side, r, M_DEUCE] + melds[side, r, M_JOKER] + add[r] > 0
            if (step == 0 and mixed) or (step == 1 and size[r] < 7) or step == 2:
                k = min(room[r], wilds)
                add[r] += k
                room[r] -= k
                size[r] += k
                wilds -= k
    return wilds


@kernel
def plan_value_nb(rules, plan):
    """R4 card values of the cards a plan places (the R28 count of those cards)."""
    v = 0
    for r in range(FIRST_NATURAL, NKINDS):
        v += cards_value_nb(rules, r, plan[r, M_NAT], plan[r, M_DEUCE], plan[r, M_JOKER])
    v += plan[BLACK3, M_NAT] * card_value_nb(rules, BLACK3)
    return v


@kernel
def concealment_open_nb(rules, st, seatv, seat, discarded):
    """R44 (i)-(iii) and the knobs, whatever is melded now: the player melded nothing in an
    earlier turn, added nothing to his partner's melds this turn, and neither a final discard
    nor a pile take rules concealment out."""
    if seatv[seat, SEAT_MELDED_BEFORE] == 1 or st[ST_TURN_ADDED_PRE] == 1:
        return False
    if discarded and rules.concealed_allows_final_discard == 0:
        return False
    return not (st[ST_TURN_TAKE] == 1 and rules.concealed_allows_pile_take == 0)


@kernel
def concealed_after_nb(rules, st, seatv, melds, side, seat, plan, discard):
    """R44: would going out with this plan be concealed?"""
    if not concealment_open_nb(rules, st, seatv, seat, discard >= 0):
        return False
    own_canasta = False
    for r in range(FIRST_NATURAL, NKINDS):
        placed = plan[r, M_NAT] + plan[r, M_DEUCE] + plan[r, M_JOKER]
        bit = np.int64(1) << r
        if placed > 0 and (st[ST_TURN_PRE_RANKS] & bit) != 0:
            return False                    # (iii) adds to a meld of the partner's
        size = meld_size_nb(melds, side, r)
        new = (st[ST_TURN_NEW_RANKS] & bit) != 0 or (placed > 0 and size == 0)
        if new and size + placed >= 7:
            own_canasta = True
    return own_canasta


@kernel
def discard_candidate_nb(i):
    """The i-th final discard tried when going out: none (-1), a black three, the naturals
    from the cheapest up, then a deuce and a joker."""
    if i == 0:
        return -1
    if i == 1:
        return BLACK3
    if i <= 12:
        return FIRST_NATURAL + i - 2
    if i == 13:
        return DEUCE
    return JOKER


@kernel
def unmeldable_cards_nb(rules, hand_row, melds, side):
    """Cards that no meld can take this turn: naturals of ranks the side has not melded held
    fewer than ``min_naturals_per_meld`` times, and black threes that are not a going-out meld
    (R18, R25).  Returns (count, kind of one of them).  The rank loop has no branches: the
    hand is data a branch predictor cannot guess."""
    stray = 0
    kind = -1
    for r in range(FIRST_NATURAL, NKINDS):
        h = hand_row[r]
        lone = (h > 0) & (h < rules.min_naturals_per_meld) & (meld_size_nb(melds, side, r) == 0)
        stray += h * lone
        kind = r if lone else kind
    b3 = stray_black_threes_nb(rules, hand_row[BLACK3])
    if b3 > 0:
        stray += b3
        kind = BLACK3
    return stray, kind


@kernel
def stray_black_threes_nb(rules, b3):
    """How many of ``b3`` black threes in the hand no going-out meld can take (R25, D10)."""
    if b3 > 0 and not (rules.black_three_going_out_meld == 1 and 3 <= b3 <= 4):
        # one meld of 3-4 black threes (R25); with five (three packs) one is discarded
        meldable = 4 if rules.black_three_going_out_meld == 1 and b3 > 4 else 0
        return b3 - meldable
    return 0


@kernel
def go_out_plan_ok_nb(rules, st, seatv, hv, melds, side, seat, discard, own_only, plan, ws):
    """Is melding all of ``hv`` (the hand less the final discard) a legal going-out now:
    the canastas (R40), permission (R42) and the initial minimum unless exempt (R27, R30)?"""
    have = plan_full_meld_nb(rules, hv, melds, side, st[ST_TURN_PRE_RANKS], own_only, plan, ws)
    if have < 0 or not out_allowed_nb(rules, st, have):
        return False
    if st[ST_TURN_NEEDS_MIN] == 0:
        return True
    count = st[ST_TURN_COUNT]
    if st[ST_TURN_TAKE] == 0:
        count += plan_value_nb(rules, plan)           # a take turn counts its take melds only
    if count >= st[ST_TURN_MIN]:
        return True
    return rules.concealed_exempt_from_min_count == 1 and concealed_after_nb(
        rules, st, seatv, melds, side, seat, plan, discard)         # R30


@kernel
def canastas_within_reach_nb(hand_row, melds, side):
    """An upper bound on the side's canastas after melding the whole hand (R23): the ranks
    whose meld, with every natural of that rank and every wild card of the hand added,
    would reach seven cards.  A going-out plan never completes more."""
    wilds = hand_row[JOKER] + hand_row[DEUCE]
    n = 0
    for r in range(FIRST_NATURAL, NKINDS):
        if meld_size_nb(melds, side, r) + hand_row[r] + wilds >= 7:
            n += 1
    return n


@kernel
def find_go_out_nb(rules, st, seatv, hand_row, melds, seat, plan, ws):
    """Find a legal way to go out now (R39-R44).  Returns the discard kind, -1 for going
    out without a discard, or -2 if the player cannot go out; ``plan`` holds the melds."""
    side = side_of_nb(st, seat)
    if st[ST_TURN_LAST_RED3] == 1 or st[ST_TURN_ASK] == 0:
        return -2
    stray, stray_kind = unmeldable_cards_nb(rules, hand_row, melds, side)
    reach = canastas_within_reach_nb(hand_row, melds, side) if stray <= 1 else 0
    if survey_rules_out_nb(rules, stray, reach):
        return -2
    return go_out_from_survey_nb(rules, st, seatv, hand_row, melds, seat, stray, stray_kind,
                                 reach, plan, ws)


@kernel
def survey_rules_out_nb(rules, stray, reach):
    """Does the survey of the hand alone rule going out out?"""
    if stray > 1:
        return True                      # only one card can leave by the final discard
    return reach < rules.canastas_to_go_out   # R40: no plan completes the canastas needed


@kernel
def go_out_from_survey_nb(rules, st, seatv, hand_row, melds, seat, stray, stray_kind, reach,
                          plan, ws):
    """:func:`find_go_out_nb` once the hand has been surveyed: ``stray`` unmeldable cards
    (one of kind ``stray_kind``) and at most ``reach`` canastas after melding it all
    (:func:`canastas_within_reach_nb`, needed only when ``stray`` <= 1)."""
    side = side_of_nb(st, seat)
    if st[ST_TURN_LAST_RED3] == 1 or st[ST_TURN_ASK] == 0:
        return -2                        # R47, R42: a "no" answer binds
    if survey_rules_out_nb(rules, stray, reach):
        return -2
    hv = ws[WS_HAND]
    for k in range(NKINDS):
        hv[k] = hand_row[k]
    could_conceal = seatv[seat, SEAT_MELDED_BEFORE] == 0 and st[ST_TURN_ADDED_PRE] == 0
    for own_only in range(1 if could_conceal else 0, -1, -1):   # a concealed plan first
        for i in range(NKINDS):
            d = discard_candidate_nb(i)      # no discard first, then the cheapest card
            if stray == 1 and d != stray_kind:
                continue
            if d >= 0:
                if hv[d] == 0:
                    continue
                hv[d] -= 1
            ok = go_out_plan_ok_nb(rules, st, seatv, hv, melds, side, seat, d, own_only == 1,
                                   plan, ws)
            if d >= 0:
                hv[d] += 1
            if ok:
                return d
    return -2


# ---- the initial meld: can the minimum still be reached? (R26-R28) --------------------------

@kernel
def max_extra_count_nb(rules, hand_row, melds, side, ws):
    """The largest R28 count the hand could still add this turn by new melds and additions
    to the side's melds, ignoring R16: every natural that can be melded, the pairs that a
    wild card completes (best first) and then as many wild cards, jokers first, as the melds
    have room for.  Returns (count, cards that configuration places)."""
    total = 0
    cards = 0
    room = 0
    pair_value = ws[WS_PAIR_VALUE]
    pair_need = ws[WS_PAIR_NEED]
    for r in range(NKINDS):
        pair_value[r] = 0
        pair_need[r] = 0
    for r in range(FIRST_NATURAL, NKINDS):
        h = hand_row[r]
        v = card_value_nb(rules, r)
        size = meld_size_nb(melds, side, r)
        if size > 0:
            nat = melds[side, r, M_NAT] + h
            total += h * v
            cards += h
            room += wild_capacity_nb(rules, nat) - (size - melds[side, r, M_NAT])
        elif h >= 3 and h >= rules.min_naturals_per_meld:
            total += h * v
            cards += h
            room += wild_capacity_nb(rules, h)
        elif h > 0 and h >= rules.min_naturals_per_meld and wild_capacity_nb(rules, h) >= 3 - h:
            pair_value[r] = h * v
            pair_need[r] = 3 - h
    wilds = hand_row[JOKER] + hand_row[DEUCE]
    used = 0
    while True:                                   # complete the best pairs while wilds last
        best = -1
        for r in range(FIRST_NATURAL, NKINDS):
            if pair_need[r] > 0 and pair_need[r] <= wilds - used:
                if best < 0 or pair_value[r] > pair_value[best]:
                    best = r
        if best < 0:
            break
        used += pair_need[best]
        total += pair_value[best]
        cards += hand_row[best]
        room += wild_capacity_nb(rules, hand_row[best]) - pair_need[best]
        pair_need[best] = 0
    placed = used + min(wilds - used, max(room, 0))
    jokers = min(hand_row[JOKER], placed)
    return total + jokers * 50 + (placed - jokers) * 20, cards + placed


@kernel
def reachable_count_nb(rules, hand_row, melds, side, keep, ws):
    """The largest R28 count the hand can still add this turn while keeping at least ``keep``
    cards (R16), exactly: if the best configuration of :func:`max_extra_count_nb` leaves too
    few cards, the best over every choice of ``keep`` (at most 2) cards held back."""
    h = row_total_nb(hand_row)
    if h <= keep:
        return 0
    best, cards = max_extra_count_nb(rules, hand_row, melds, side, ws)
    if h - cards >= keep:
        return best
    best = 0
    for k1 in range(NKINDS):
        if hand_row[k1] == 0:
            continue
        hand_row[k1] -= 1
        if keep == 1:
            best = max(best, max_extra_count_nb(rules, hand_row, melds, side, ws)[0])
        else:
            for k2 in range(k1, NKINDS):
                if hand_row[k2] > 0:
                    hand_row[k2] -= 1
                    best = max(best, max_extra_count_nb(rules, hand_row, melds, side, ws)[0])
                    hand_row[k2] += 1
        hand_row[k1] += 1
    return best


# ---- placing cards on melds (R15, R18-R22) --------------------------------------------------

@kernel
def place_cards_nb(rules, st, hands, melds, sidev, buf, seat, rank, nat, deuce, joker, trace):
    """Move cards from ``seat``'s hand onto its side's meld of ``rank`` (created if absent)
    and keep the turn's R44 book-keeping; writes a ``meld`` event when ``trace``."""
    side = side_of_nb(st, seat)
    bit = np.int64(1) << rank
    if meld_size_nb(melds, side, rank) == 0:
        st[ST_TURN_NEW_RANKS] |= bit
    elif st[ST_TURN_PRE_RANKS] & bit:
        st[ST_TURN_ADDED_PRE] = 1
    hands[seat, rank] -= nat
    hands[seat, DEUCE] -= deuce
    hands[seat, JOKER] -= joker
    melds[side, rank, M_NAT] += nat
    melds[side, rank, M_DEUCE] += deuce
    melds[side, rank, M_JOKER] += joker
    st[ST_TURN_MELDED] = 1
    if rank >= FIRST_NATURAL:
        sidev[side, SIDE_MELDED] = 1              # R26 (red threes never count, R24)
    if trace:
        pos = ev_begin_nb(st, buf, EV_MELD, seat, rank, 0)
        for _ in range(nat):
            ev_push_nb(st, buf, pos, rank)
        for _ in range(deuce):
            ev_push_nb(st, buf, pos, DEUCE)
        for _ in range(joker):
            ev_push_nb(st, buf, pos, JOKER)


@kernel
def step_cards_nb(kind, rank, b):
    """The (naturals, deuces, jokers) that an OPT_NEW / OPT_ADD step places."""
    if kind == OPT_NEW:
        if b == NEW_3N:
            return 3, 0, 0
        if b == NEW_2N_DEUCE:
            return 2, 1, 0
        return 2, 0, 1
    if b == DEUCE:
        return 0, 1, 0
    if b == JOKER:
        return 0, 0, 1
    return 1, 0, 0


@kernel
def move_to_meld_nb(hand_row, meld, rank, naturals, deuces, jokers, from_pile, sign):
    """Tentatively move cards from a hand row onto one meld row (``sign`` 1) or back (-1);
    ``from_pile`` more natural cards (the pile's top card) join the meld from elsewhere."""
    hand_row[rank] -= sign * naturals
    hand_row[DEUCE] -= sign * deuces
    hand_row[JOKER] -= sign * jokers
    meld[M_NAT] += sign * (naturals + from_pile)
    meld[M_DEUCE] += sign * deuces
    meld[M_JOKER] += sign * jokers


@kernel
def step_legal_nb(rules, st, hand_row, h, melds, side, rank, nat, deuce, joker, extra, canastas,
                  ws):
    """Is a meld step legal beyond R18: R16 (a legal end of turn stays possible) and, for a
    turn still short of its initial minimum, R27 (the minimum stays reachable)?
    ``h`` is the hand size before the step."""
    m = melds[side, rank]
    if not meld_ok_nb(rules, m[M_NAT] + nat, m[M_DEUCE] + m[M_JOKER] + deuce + joker):
        return False                                           # R18, R19
    left = h - nat - deuce - joker + extra
    short = st[ST_TURN_NEEDS_MIN] == 1 and st[ST_TURN_COUNT] < st[ST_TURN_MIN]
    if left >= 2 and not short:
        return True                                            # the common case
    was_canasta = m[M_NAT] + m[M_DEUCE] + m[M_JOKER] >= 7
    move_to_meld_nb(hand_row, m, rank, nat, deuce, joker, 0, 1)
    after = canastas
    if not was_canasta and m[M_NAT] + m[M_DEUCE] + m[M_JOKER] >= 7:
        after += 1
    ok = can_finish_nb(rules, st, hand_row, melds, side, left, after)
    if ok and short:
        count = st[ST_TURN_COUNT] + cards_value_nb(rules, rank, nat, deuce, joker)
        if count < st[ST_TURN_MIN]:
            keep = max(0, 2 - extra)                           # R16 with the minimum (R27)
            ok = count + reachable_count_nb(rules, hand_row, melds, side, keep, ws) \
                >= st[ST_TURN_MIN]
    move_to_meld_nb(hand_row, m, rank, nat, deuce, joker, 0, -1)
    return ok


@kernel
def meld_options_nb(rules, st, seatv, hand_row, melds, seat, extra, planning, opts, plan, ws):
    """Legal meld-phase steps (R15-R30, R39-R44): new three-card melds, single cards added
    to the side's melds, going out (``plan`` gets its melds) and stopping.

    ``planning``: the extra take melds of an unmelded side (R35), made from the hand before
    the rest of the pile (``extra`` cards) joins it; no going out, and stopping only once the
    minimum is reached."""
    side = side_of_nb(st, seat)
    n = 0
    last_red3 = st[ST_TURN_LAST_RED3] == 1
    if last_red3 and rules.last_card_red3_may_meld == 0:
        return add_opt_nb(opts, n, OPT_STOP, 0, 0, 0, 0)        # R47
    canastas = canastas_nb(melds, side)
    h = row_total_nb(hand_row)
    if not planning and not last_red3:
        d = find_go_out_nb(rules, st, seatv, hand_row, melds, seat, plan, ws)
        if d > -2:
            n = add_opt_nb(opts, n, OPT_GO_OUT, 0, d, 0, 0)
    for r in range(FIRST_NATURAL, NKINDS):
        hr = hand_row[r]
        if hr == 0:
            continue
        if meld_size_nb(melds, side, r) == 0:
            if hr >= 3 and step_legal_nb(rules, st, hand_row, h, melds, side, r, 3, 0, 0, extra,
                                         canastas, ws):
                n = add_opt_nb(opts, n, OPT_NEW, r, NEW_3N, 0, 0)
            if hr >= 2 and hand_row[DEUCE] > 0 and step_legal_nb(
                    rules, st, hand_row, h, melds, side, r, 2, 1, 0, extra, canastas, ws):
                n = add_opt_nb(opts, n, OPT_NEW, r, NEW_2N_DEUCE, 0, 0)
            if hr >= 2 and hand_row[JOKER] > 0 and step_legal_nb(
                    rules, st, hand_row, h, melds, side, r, 2, 0, 1, extra, canastas, ws):
                n = add_opt_nb(opts, n, OPT_NEW, r, NEW_2N_JOKER, 0, 0)
        elif step_legal_nb(rules, st, hand_row, h, melds, side, r, 1, 0, 0, extra, canastas, ws):
            n = add_opt_nb(opts, n, OPT_ADD, r, r, 0, 0)
    for r in range(FIRST_NATURAL, NKINDS):
        if meld_size_nb(melds, side, r) == 0:
            continue
        if hand_row[DEUCE] > 0 and step_legal_nb(rules, st, hand_row, h, melds, side, r, 0, 1, 0,
                                                 extra, canastas, ws):
            n = add_opt_nb(opts, n, OPT_ADD, r, DEUCE, 0, 0)
        if hand_row[JOKER] > 0 and step_legal_nb(rules, st, hand_row, h, melds, side, r, 0, 0, 1,
                                                 extra, canastas, ws):
            n = add_opt_nb(opts, n, OPT_ADD, r, JOKER, 0, 0)
    if stop_legal_nb(rules, st, h, canastas, planning, last_red3):
        n = add_opt_nb(opts, n, OPT_STOP, 0, 0, 0, 0)
    return n


@kernel
def stop_legal_nb(rules, st, h, canastas, planning, last_red3):
    """May the player end his meld phase now? (R16, R26-R28, R35)"""
    short = st[ST_TURN_NEEDS_MIN] == 1 and st[ST_TURN_COUNT] < st[ST_TURN_MIN]
    if planning:
        return not short
    if short and st[ST_TURN_MELDED] == 1:
        return False                 # a started initial meld must reach the minimum (R26)
    if last_red3:
        return True
    if h == 1:
        return out_allowed_nb(rules, st, canastas)   # discarding the last card is going out
    return True


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
def take_options_nb(rules, st, seatv, sidev, hand_row, melds, pile, seat, opts, n, plan, ws):
    """Append the legal ways to take the pile: (naturals, deuces, jokers) from the hand that
    join the top card in the first take meld (R31-R35, R37, R16)."""
    ok, top, frozen, unmelded, min_k = take_context_nb(rules, st, sidev, hand_row, melds, pile,
                                                       seat)
    if not ok:
        return n
    side = side_of_nb(st, seat)
    existing = meld_size_nb(melds, side, top) > 0
    rest = pile_rest_nb(st, pile)                            # R14: red threes go to the table
    canastas = canastas_nb(melds, side)
    max_w = min(rules.max_wilds_per_meld, 8)
    for k in range(min_k, hand_row[top] + 1):
        for d in range(min(hand_row[DEUCE], max_w) + 1):
            for j in range(min(hand_row[JOKER], max_w - d) + 1):
                if take_method_ok_nb(rules, frozen, existing, k, d, j) and take_legal_nb(
                        rules, st, seatv, hand_row, melds, pile, seat, top, k, d, j, rest,
                        canastas, unmelded, plan, ws):
                    n = add_opt_nb(opts, n, OPT_TAKE, k, d, j, st[ST_PILE_N])
    return n


@kernel
def take_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, top, k, d, j, rest, canastas,
                  unmelded, plan, ws):
    """R18/R19 for the take meld, R16 after the take, and for an unmelded side R35: the top
    card plus hand cards of the take melds must be able to reach the minimum, unless the
    player can then go out concealed, which exempts him from the count (R30)."""
    side = side_of_nb(st, seat)
    m = melds[side, top]
    if not meld_ok_nb(rules, m[M_NAT] + 1 + k, m[M_DEUCE] + m[M_JOKER] + d + j):
        return False
    was_canasta = m[M_NAT] + m[M_DEUCE] + m[M_JOKER] >= 7
    after = canastas
    if not was_canasta and m[M_NAT] + m[M_DEUCE] + m[M_JOKER] + 1 + k + d + j >= 7:
        after += 1
    h = row_total_nb(hand_row)
    left = h - k - d - j + rest
    if left <= 1 and not out_allowed_nb(rules, st, after):
        if left == 0 or not last_card_completes_after_take_nb(rules, st, hand_row, melds, pile,
                                                              side, top, k, d, j, after):
            return False                                     # R16, R37 note
    if not unmelded:
        return True
    count = take_count_nb(rules, top, k, d, j)
    if count >= st[ST_TURN_MIN]:
        return True
    move_to_meld_nb(hand_row, m, top, k, d, j, 1, 1)
    ok = count + reachable_count_nb(rules, hand_row, melds, side, max(0, 2 - rest), ws) \
        >= st[ST_TURN_MIN]
    if not ok and rules.concealed_exempt_from_min_count == 1:
        ok = concealed_out_after_take_nb(rules, st, seatv, hand_row, melds, pile, seat, top,
                                         count, plan, ws)
    move_to_meld_nb(hand_row, m, top, k, d, j, 1, -1)
    return ok


@kernel
def take_count_nb(rules, top, k, d, j):
    """R28: what a take meld counts toward the minimum: the top card (knob
    top_card_counts_for_minimum) and the hand cards."""
    count = cards_value_nb(rules, top, k, d, j)
    if rules.top_card_counts_for_minimum == 1:
        count += card_value_nb(rules, top)
    return count


@kernel
def concealed_out_after_take_nb(rules, st, seatv, hand_row, melds, pile, seat, top, count, plan,
                                ws):
    """R30 with a pile take: with the take meld already on the table in ``melds`` and
    ``hand_row``, could the player, once the rest of the pile joins his hand, go out
    concealed this turn (and so be exempt from the minimum)?"""
    add_pile_rest_nb(st, pile, hand_row, 1)
    new_ranks = st[ST_TURN_NEW_RANKS]
    turn_count = st[ST_TURN_COUNT]
    st[ST_TURN_NEW_RANKS] = new_ranks | (np.int64(1) << top)
    st[ST_TURN_COUNT] = count
    ok = find_go_out_nb(rules, st, seatv, hand_row, melds, seat, plan, ws) > -2
    st[ST_TURN_NEW_RANKS] = new_ranks
    st[ST_TURN_COUNT] = turn_count
    add_pile_rest_nb(st, pile, hand_row, -1)
    return ok


@kernel
def add_pile_rest_nb(st, pile, hand_row, sign):
    """Add (sign 1) or take back (sign -1) the cards under the pile's top card, red threes
    excepted (R14, R36), to a hand row: the hand as it will be after a take."""
    for i in range(st[ST_PILE_N] - 1):
        if pile[i] != RED3:
            hand_row[pile[i]] += sign


@kernel
def last_card_completes_after_take_nb(rules, st, hand_row, melds, pile, side, top, k, d, j,
                                      canastas_after):
    """R16 for a take that leaves a single card: legal if that card can then complete the
    canasta the side needs to go out (can_finish_nb on the hand after the take)."""
    m = melds[side, top]
    move_to_meld_nb(hand_row, m, top, k, d, j, 1, 1)
    add_pile_rest_nb(st, pile, hand_row, 1)
    ok = can_finish_nb(rules, st, hand_row, melds, side, 1, canastas_after)
    add_pile_rest_nb(st, pile, hand_row, -1)
    move_to_meld_nb(hand_row, m, top, k, d, j, 1, -1)
    return ok


@kernel
def discard_options_nb(hand_row, opts):
    """One option per kind of card in the hand (R17: any card may be discarded)."""
    n = 0
    for k in range(NKINDS):
        if hand_row[k] > 0 and k != RED3:
            n = add_opt_nb(opts, n, OPT_DISCARD, k, 0, 0, 0)
    return n
