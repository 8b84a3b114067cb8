"""Going-out plans: every way to empty the hand now, one per scoring state (docs/moves.md).

A plan puts every card of the hand on the side's melds except at most one final discard
(R39).  The naturals go to their ranks and black threes to the R25 meld, so the choice is
the discard and where the wild cards go.  Two plans that leave the same scoring state (the
discard; how many natural and how many mixed canastas the side then has; concealed or not;
under source B, how many canastas the player made this turn) are one option: the deal ends
at once, and these fix every item of its score and every column of its result row.

``plans`` is int64[MAX_PLANS, MELD_KINDS, 3].  Row ``r`` of a plan holds the (naturals,
deuces, jokers) it puts on the meld of kind ``r`` (``BLACK3`` .. ``ACE``); the kinds that
are never melded hold the plan's facts: ``PLAN_META`` (discard or -1, concealed, score for
the side: the cards melded, canasta bonuses, going-out bonus) and ``PLAN_KEY`` (natural
canastas, mixed canastas, source B's concealed canastas made this turn).  Listing fills
plans 0, 1, ...; a check that only needs to know whether a plan exists writes to
``SCRATCH_PLAN`` so that it never overwrites a list a policy is choosing from.
"""
import numpy as np

from ..jit import kernel, one_step
from .bits import bit_count_nb, lowest_bit_nb
from .cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from .cutthroat import canastas_needed_nb
from .rules_nb import Ask
from .slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    SEAT_MELDED_BEFORE,
    ST_CHECK_FAILS,
    ST_LONE,
    ST_NSEATS,
    ST_NSIDES,
    ST_TURN_ADDED_PRE,
    ST_TURN_ASK,
    ST_TURN_COUNT,
    ST_TURN_LAST_RED3,
    ST_TURN_MIN,
    ST_TURN_NEEDS_MIN,
    ST_TURN_NEW_RANKS,
    ST_TURN_PRE_RANKS,
    ST_TURN_SEAT,
    ST_TURN_TAKE,
    WS_HAND,
    WS_PLAN_DFS,
    WS_PLAN_MELDS,
    WS_PLAN_OPTS,
)
from .state import card_value_nb, meld_size_nb, side_of_nb, wild_capacity_nb

MAX_PLANS = 1024                 # a hand of fifty cards after a big take can have hundreds
SCRATCH_PLAN = MAX_PLANS - 1     # existence checks write here, lists use 0 .. MAX_PLANS - 2
PLAN_META = 15                   # (discard or -1, 1 if concealed, score for the side)
PLAN_KEY = JOKER                 # (natural canastas, mixed canastas, concealed canastas made)

# categories of one meld at the end of a plan
CAT_SHORT = 0                    # fewer than seven cards
CAT_NATURAL = 1                  # a natural canasta (R23)
CAT_MIXED = 2                    # a mixed canasta
CAT_SIX = 3                      # exactly six cards, and the card that joins next completes it

# WS_PLAN_MELDS columns (one meld per index m): what the search needs of it
PM_RANK = 0
PM_SIZE = 16                     # cards after the plan's naturals, before its wild cards
PM_OWN_NEW = 32                  # the meld is the player's own of this turn (R44 iv)
PM_NOPT = 48                     # how many choices the meld has
PM_SUF_LO = 64                   # fewest wild cards the melds m.. need
PM_SUF_HI = 80                   # most wild cards the melds m.. can take
PM_ROOM = 96
# WS_PLAN_OPTS: choice o of meld m at column 4 * (4 * m + o) + field
PO_LO = 0
PO_HI = 1
PO_CAT = 2
PO_TOUCH = 3                     # puts a card on a meld from before the turn (R44 iii)
MAX_CHOICES = 4
# WS_PLAN_DFS columns
PD_CHOICE = 0
PD_LO = 16
PD_HI = 32
PD_JOINING = 48                  # 1 + kind of the one card still to join the hand, or 0
PD_NEED = 49                     # canastas the side needs on its main melds (R40, C11)


@kernel
def has_partner_nb(st, seat):
    """True when ``seat``'s side has more than one seat (R42 needs a partner): in cutthroat3
    only a partner's, after formation (C15)."""
    return st[ST_NSEATS] > st[ST_NSIDES] and seat != st[ST_LONE]


@kernel
def going_out_open_nb(rules, st):
    """R42, R47: may the player go out at all now (whatever his canastas)?  Not after a "no";
    with ``ask_permission=required`` in a draw turn only after a "yes"; after a last-card red
    three only when ``last_card_red3_may_meld`` is on (and then with no discard)."""
    if st[ST_TURN_ASK] == 0:
        return False
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        return False
    if (rules.ask_permission == Ask.REQUIRED and has_partner_nb(st, st[ST_TURN_SEAT])
            and st[ST_TURN_TAKE] == 0 and st[ST_TURN_ASK] != 1):
        return False
    return True


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
def stray_black_threes_nb(rules, b3):
    """How many of ``b3`` black threes in the hand no going-out meld can take (R25, D10)."""
    if b3 > 0 and not (rules.black_three_going_out_meld == 1 and 3 <= b3 <= 4):
        # one meld of 3-4 black threes (R25); with five (three packs) one is discarded
        meldable = 4 if rules.black_three_going_out_meld == 1 and b3 > 4 else 0
        return b3 - meldable
    return 0


@one_step
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


@one_step
def survey_rules_out_nb(rules, stray, reach):
    """Does the survey of the hand alone rule going out out?"""
    if stray > 1:
        return True                      # only one card can leave by the final discard
    return reach < rules.canastas_to_go_out   # R40: no plan completes the canastas needed


@one_step
def wilds_fall_short_nb(rules, hand_row, melds, side, free_discard):
    """Can the hand's wild cards not fill its new melds, whatever the final discard?  A new
    meld of ``h`` naturals needs ``3 - h`` wild cards (R18), a plan lays every wild card of
    the hand and gives each new meld at least what it needs (:func:`meld_choices_nb`), so
    without enough wild cards no plan exists.  Ranks held fewer than
    ``min_naturals_per_meld`` times are the survey's unmeldable cards, not new melds.  A
    discard never lowers the need, except a single natural of a rank that may open a meld
    alone (``min_naturals_per_meld`` 1): that takes its need of two away, when the discard
    is ``free_discard`` (no unmeldable card must go instead).  Without branches: the hand is
    data a branch predictor cannot guess."""
    need = 0
    singles = 0
    for r in range(FIRST_NATURAL, NKINDS):
        h = hand_row[r]
        opens = (h > 0) & (h >= rules.min_naturals_per_meld) & (meld_size_nb(melds, side, r) == 0)
        need += max(0, 3 - h) * opens
        singles += opens & (h == 1)
    relief = 2 if free_discard and singles > 0 else 0
    return need - relief > hand_row[DEUCE] + hand_row[JOKER]


@kernel
def discard_candidate_nb(i):
    """The i-th final discard tried: none (-1), a black three, the naturals from the cheapest
    up, then a deuce and a joker (the order of the list, and of ties for ``greedy``)."""
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
def go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, count_cards, discard_ok,
                    first_only, plans, ws):
    """List the going-out plans open to ``seat`` now (R39-R44, R25, R27-R30): one per
    scoring state, in ``plans[0..n-1]``; returns n.  ``first_only``: stop at the first
    and write it to ``SCRATCH_PLAN`` (an existence check).  ``count_cards``: the plan's
    cards count toward an unmet initial minimum (a draw turn, or take melds laid from the
    whole hand); ``discard_ok`` = False allows only plans without a final discard."""
    side = side_of_nb(st, seat)
    if not going_out_open_nb(rules, st):
        return 0
    if st[ST_TURN_LAST_RED3] == 1:
        discard_ok = False                           # R47: no discard follows
    stray, stray_kind = unmeldable_cards_nb(rules, hand_row, melds, side)
    need = canastas_needed_nb(rules, st, side)                        # R40, C11
    reach = canastas_within_reach_nb(hand_row, melds, side) if stray <= 1 else 0
    reach += rules.canastas_to_go_out - need
    if survey_rules_out_nb(rules, stray, reach) or (stray > 0 and not discard_ok):
        return 0
    if wilds_fall_short_nb(rules, hand_row, melds, side, stray == 0 and discard_ok):
        return 0
    hv = ws[WS_HAND]
    for k in range(NKINDS):
        hv[k] = hand_row[k]
    ws[WS_PLAN_DFS, PD_JOINING] = 0
    ws[WS_PLAN_DFS, PD_NEED] = need
    n = 0
    for i in range(NKINDS):
        d = discard_candidate_nb(i)
        if d >= 0 and (not discard_ok or hv[d] == 0 or (stray == 1 and d != stray_kind)):
            continue
        if d < 0 and stray == 1:
            continue
        if d >= 0:
            hv[d] -= 1
        n = plans_for_discard_nb(rules, st, seatv, hv, melds, side, seat, d, count_cards,
                                 first_only, plans, n, ws)
        if d >= 0:
            hv[d] += 1
        if first_only and n > 0:
            return n
    return n


@kernel
def go_out_after_whole_take_nb(rules, st, seatv, hand_row, melds, seat, joining, plans, ws):
    """R35 with one card under the top card: can the whole hand go down as take melds (their
    count reaching the minimum) so that, once the card ``joining`` has joined the hand, the
    player goes out by melding it, the card completing a canasta left at six (R40)?
    (Discarding it instead is a plan of the hand with no discard.)"""
    if st[ST_TURN_ASK] == 0:
        return False
    side = side_of_nb(st, seat)
    hv = ws[WS_HAND]
    for k in range(NKINDS):
        hv[k] = hand_row[k]
    b3 = hv[BLACK3]
    if b3 > 0 or hv[RED3] > 0:
        return False                  # black threes can go down only in the going-out plan
    ws[WS_PLAN_DFS, PD_JOINING] = joining + 1
    ws[WS_PLAN_DFS, PD_NEED] = canastas_needed_nb(rules, st, side)   # R40, C11
    value = 0
    for k in range(FIRST_NATURAL, NKINDS):
        value += hv[k] * card_value_nb(rules, k)
    value += hv[DEUCE] * card_value_nb(rules, DEUCE) + hv[JOKER] * card_value_nb(rules, JOKER)
    ok = False
    if st[ST_TURN_COUNT] + value >= st[ST_TURN_MIN]:
        n_melds, concealable = plan_melds_nb(rules, st, hv, melds, side, False, ws)
        if n_melds > 0:
            ok = walk_plan_choices_nb(rules, st, hv, n_melds, False, True, -1, value, True,
                                      plans, 0, ws) > 0
    ws[WS_PLAN_DFS, PD_JOINING] = 0
    return ok


@kernel
def plans_for_discard_nb(rules, st, seatv, hv, melds, side, seat, discard, count_cards,
                         first_only, plans, n, ws):
    """Append the plans that meld all of ``hv`` (the hand less ``discard``); returns the new
    number of plans.  Each meld of the side gets a few choices (stay short of a canasta,
    natural canasta, mixed canasta; touched or not when concealment depends on it), each
    with a range of wild cards; a depth-first walk over the choices keeps the combinations
    whose ranges can hold exactly the hand's wild cards."""
    b3 = hv[BLACK3]
    if hv[RED3] > 0 or (b3 > 0 and not (rules.black_three_going_out_meld == 1 and 3 <= b3 <= 4)):
        return n                                                      # R24, R25
    value = hv[BLACK3] * card_value_nb(rules, BLACK3)
    for k in range(FIRST_NATURAL, NKINDS):
        value += hv[k] * card_value_nb(rules, k)
    value += hv[DEUCE] * card_value_nb(rules, DEUCE) + hv[JOKER] * card_value_nb(rules, JOKER)
    count_ok = st[ST_TURN_NEEDS_MIN] == 0 or \
        st[ST_TURN_COUNT] + (value if count_cards else 0) >= st[ST_TURN_MIN]      # R27, R28
    open_ = concealment_open_nb(rules, st, seatv, seat, discard >= 0)
    exempt = rules.concealed_exempt_from_min_count == 1
    if not count_ok and not (exempt and open_):
        return n                                                      # R30 cannot help
    n_melds, concealable = plan_melds_nb(rules, st, hv, melds, side, open_, ws)
    if n_melds < 0 or (not count_ok and not concealable):
        return n
    return walk_plan_choices_nb(rules, st, hv, n_melds, concealable, count_ok, discard, value,
                                first_only, plans, n, ws)


@kernel
def plan_melds_nb(rules, st, hv, melds, side, open_, ws):
    """Fill the search rows with the side's melds after the plan's naturals and the choices
    of each.  Returns (number of melds, concealable), -1 melds if the hand cannot be melded
    (a new meld short of naturals or of wild cards, R18)."""
    pm = ws[WS_PLAN_MELDS]
    po = ws[WS_PLAN_OPTS]
    pre = st[ST_TURN_PRE_RANKS]
    new_ranks = st[ST_TURN_NEW_RANKS]
    wilds = hv[JOKER] + hv[DEUCE]
    held = 0
    present = 0                          # the ranks held or melded: the plan's melds
    for r in range(FIRST_NATURAL, NKINDS):        # without branches: the hand is data
        held |= np.int64(hv[r] > 0) << r
        present |= np.int64((hv[r] > 0) | (meld_size_nb(melds, side, r) > 0)) << r
    concealable = open_ and held & pre == 0      # no natural may go on a partner's meld
    m = 0
    while present != 0:                           # those ranks, lowest first
        r = lowest_bit_nb(present)
        present &= present - 1
        h = hv[r]
        size0 = meld_size_nb(melds, side, r)
        nat = melds[side, M_NAT, r] + h
        have_w = melds[side, M_DEUCE, r] + melds[side, M_JOKER, r]
        room = wild_capacity_nb(rules, nat) - have_w
        need = 0
        if size0 == 0:                                               # a new meld (R18)
            if h < rules.min_naturals_per_meld:
                return -1, False
            need = max(0, 3 - h)
            if need > room or need > wilds:
                return -1, False
        pm[PM_RANK + m] = r
        pm[PM_SIZE + m] = size0 + h
        pm[PM_ROOM + m] = room
        pm[PM_OWN_NEW + m] = 1 if size0 == 0 or (new_ranks >> r) & 1 == 1 else 0
        split = concealable and (pre >> r) & 1 == 1                  # untouched or touched
        pm[PM_NOPT + m] = meld_choices_nb(po, m, size0 + h, have_w, room, need, split, r,
                                          ws[WS_PLAN_DFS, PD_JOINING] - 1)
        if pm[PM_NOPT + m] == 0:
            return -1, False
        m += 1
    lo = 0
    hi = 0
    for i in range(m - 1, -1, -1):                                    # suffix bounds
        best_lo = 1 << 30
        best_hi = 0
        for o in range(pm[PM_NOPT + i]):
            best_lo = min(best_lo, po[4 * (MAX_CHOICES * i + o) + PO_LO])
            best_hi = max(best_hi, po[4 * (MAX_CHOICES * i + o) + PO_HI])
        lo += best_lo
        hi += best_hi
        pm[PM_SUF_LO + i] = lo
        pm[PM_SUF_HI + i] = hi
    pm[PM_SUF_LO + m] = 0
    pm[PM_SUF_HI + m] = 0
    return m, concealable


@one_step
def meld_choices_nb(po, m, size, have_w, room, need, split, rank, joining):
    """The choices of meld m (``size`` cards once the plan's naturals are on it): the wild
    cards it may take to stay short of a canasta, to be a natural canasta, to be a mixed
    one (R19, R23).  ``split``: a meld from before the turn, where taking no card keeps the
    going-out concealable (R44 iii), so "untouched" is a choice of its own.  ``joining``
    (a card kind, or -1): the card that will join the hand next may complete a meld left
    at exactly six cards."""
    n = 0
    if size + need <= 6:
        n = add_choice_nb(po, m, n, need, min(room, 6 - size), CAT_SHORT, split)
        six = 6 - size
        fits = joining == rank or ((joining == DEUCE or joining == JOKER) and room > six)
        if joining >= 0 and fits and need <= six <= room:
            n = add_choice_nb(po, m, n, six, six, CAT_SIX, split)
    if size >= 7 and have_w == 0 and need == 0:
        n = add_choice_nb(po, m, n, 0, 0, CAT_NATURAL, split)
    lo = max(need, 7 - size, 1 if have_w == 0 else 0)
    if lo <= room:
        n = add_choice_nb(po, m, n, lo, room, CAT_MIXED, split)
    return n


@one_step
def add_choice_nb(po, m, n, lo, hi, cat, split):
    """Append choice n of meld m; with ``split`` a range from 0 becomes an untouched
    choice (no wild card) and a touched one (at least one).  Returns the new count."""
    if lo > hi:
        return n
    if split and lo == 0:
        n = put_choice_nb(po, m, n, 0, 0, cat, 0)
        if hi >= 1:
            n = put_choice_nb(po, m, n, 1, hi, cat, 1)
        return n
    return put_choice_nb(po, m, n, lo, hi, cat, 1 if split else 0)


@one_step
def put_choice_nb(po, m, n, lo, hi, cat, touch):
    """Write one choice (see :func:`add_choice_nb`)."""
    if n >= MAX_CHOICES:
        return n
    base = 4 * (MAX_CHOICES * m + n)
    po[base + PO_LO] = lo
    po[base + PO_HI] = hi
    po[base + PO_CAT] = cat
    po[base + PO_TOUCH] = touch
    return n + 1


@kernel
def walk_plan_choices_nb(rules, st, hv, n_melds, concealable, count_ok, discard, value,
                         first_only, plans, n, ws):
    """Depth-first over the melds' choices, pruned by the wild cards the rest can take;
    every complete combination that holds exactly the hand's wild cards is a plan."""
    pm = ws[WS_PLAN_MELDS]
    po = ws[WS_PLAN_OPTS]
    dfs = ws[WS_PLAN_DFS]
    wilds = hv[JOKER] + hv[DEUCE]
    if n_melds == 0:
        return n
    first_of_discard = n
    m = 0
    dfs[PD_CHOICE] = -1
    while m >= 0:
        dfs[PD_CHOICE + m] += 1
        o = dfs[PD_CHOICE + m]
        if o >= pm[PM_NOPT + m]:
            m -= 1
            continue
        base = 4 * (MAX_CHOICES * m + o)
        lo = po[base + PO_LO] + (dfs[PD_LO + m - 1] if m > 0 else 0)
        hi = po[base + PO_HI] + (dfs[PD_HI + m - 1] if m > 0 else 0)
        if lo + pm[PM_SUF_LO + m + 1] > wilds or hi + pm[PM_SUF_HI + m + 1] < wilds:
            continue
        dfs[PD_LO + m] = lo
        dfs[PD_HI + m] = hi
        if m < n_melds - 1:
            m += 1
            dfs[PD_CHOICE + m] = -1
            continue
        n = record_plan_nb(rules, st, hv, n_melds, concealable, count_ok, discard, value,
                           first_of_discard, first_only, plans, n, ws)
        if first_only and n > 0:
            return n
    return n


@kernel
def record_plan_nb(rules, st, hv, n_melds, concealable, count_ok, discard, value,
                   first_of_discard, first_only, plans, n, ws):
    """The combination of choices now in the walk: check R40, R44 and R30, skip a scoring
    state already listed, and write its representative plan.  Returns the new count."""
    pm = ws[WS_PLAN_MELDS]
    po = ws[WS_PLAN_OPTS]
    dfs = ws[WS_PLAN_DFS]
    nat_mask = np.int64(0)
    mixed_mask = np.int64(0)
    own_mask = np.int64(0)
    touched = False
    for m in range(n_melds):
        base = 4 * (MAX_CHOICES * m + dfs[PD_CHOICE + m])
        bit = np.int64(1) << pm[PM_RANK + m]
        cat = po[base + PO_CAT]
        if cat == CAT_NATURAL:
            nat_mask |= bit
        elif cat == CAT_MIXED:
            mixed_mask |= bit
        if po[base + PO_TOUCH] == 1:
            touched = True
        if (cat == CAT_NATURAL or cat == CAT_MIXED) and pm[PM_OWN_NEW + m] == 1:
            own_mask |= bit
    naturals = bit_count_nb(nat_mask)
    mixed = bit_count_nb(mixed_mask)
    completed = 0
    if ws[WS_PLAN_DFS, PD_JOINING] > 0:                   # see go_out_after_whole_take_nb
        for m in range(n_melds):
            if po[4 * (MAX_CHOICES * m + dfs[PD_CHOICE + m]) + PO_CAT] == CAT_SIX:
                completed = 1
    if naturals + mixed + completed < ws[WS_PLAN_DFS, PD_NEED]:
        return n                                                          # R40
    concealed = concealable and not touched and own_mask != 0            # R44
    if not count_ok and not concealed:
        return n                                                          # R27, R30
    made = 0                                  # source B's concealed canastas of a draw turn
    if rules.concealed_canasta_bonus != 0 and st[ST_TURN_TAKE] == 0:
        made = bit_count_nb(own_mask)
    p = SCRATCH_PLAN if first_only else n
    if not first_only:
        for q in range(first_of_discard, n):
            if plans[q, PLAN_KEY, 0] == naturals and plans[q, PLAN_KEY, 1] == mixed \
                    and plans[q, PLAN_KEY, 2] == made \
                    and plans[q, PLAN_META, 1] == (1 if concealed else 0):
                return n                                                  # listed already
        if n >= SCRATCH_PLAN:
            st[ST_CHECK_FAILS] += 1                                       # list full
            return n
    write_plan_nb(hv, n_melds, plans[p], ws)
    plans[p, PLAN_KEY, 0] = naturals
    plans[p, PLAN_KEY, 1] = mixed
    plans[p, PLAN_KEY, 2] = made
    plans[p, PLAN_META, 0] = discard
    plans[p, PLAN_META, 1] = 1 if concealed else 0
    plans[p, PLAN_META, 2] = value + naturals * rules.natural_canasta_bonus \
        + mixed * rules.mixed_canasta_bonus + made * rules.concealed_canasta_bonus \
        + (rules.concealed_going_out_bonus if concealed else rules.going_out_bonus)
    return n + 1


@kernel
def write_plan_nb(hv, n_melds, plan, ws):
    """The representative plan of the walk's combination: each meld its fewest wild cards,
    the rest on the lowest ranks that can take them; jokers before deuces."""
    pm = ws[WS_PLAN_MELDS]
    po = ws[WS_PLAN_OPTS]
    dfs = ws[WS_PLAN_DFS]
    plan[:, :] = 0
    plan[BLACK3, M_NAT] = hv[BLACK3]
    spare = hv[JOKER] + hv[DEUCE] - dfs[PD_LO + n_melds - 1]
    jokers = hv[JOKER]
    for m in range(n_melds):
        base = 4 * (MAX_CHOICES * m + dfs[PD_CHOICE + m])
        w = po[base + PO_LO]
        extra = min(spare, po[base + PO_HI] - w)
        w += extra
        spare -= extra
        r = pm[PM_RANK + m]
        j = min(w, jokers)
        jokers -= j
        plan[r, M_NAT] = hv[r]
        plan[r, M_JOKER] = j
        plan[r, M_DEUCE] = w - j


@kernel
def best_plan_nb(plans, n):
    """Index of the first plan of the highest score among ``plans[0..n-1]`` (-1 if none)."""
    best = -1
    for p in range(n):
        if best < 0 or plans[p, PLAN_META, 2] > plans[best, PLAN_META, 2]:
            best = p
    return best
