"""The ``greedy`` player: a sensible baseline (kernels/players/switch.py calls it).

A policy is asked one decision at a time and answers with the index of one of
the legal options the engine listed (``options.OPT_*`` rows).  It sees only its
own hand row and public information: the melds, the pile, the hand sizes and the
size of the stock (RULES.md 0.1); it is never passed another hand or the stock.

``greedy``
    A sensible baseline.  It takes the pile whenever it legally can (with the
    most natural cards from the hand, the fewest wild cards); lays new melds and
    adds natural cards as soon as the rules allow (the initial minimum included);
    spends a wild card only to complete a canasta or when a started initial meld
    still needs it; goes out as soon as it can (asking its partner only when
    ``ask_permission=required``) and always answers yes; discards the card least
    useful to itself: a black three first, then a single card of a rank its side
    has not melded (highest value first), keeping pairs and wild cards to last.
"""
import numpy as np

from ..game.bits import highest_bit_nb, lowest_bit_nb
from ..game.cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS
from ..game.cutthroat import second_meld_canastas_nb
from ..game.options import (
    DEC_DISCARD,
    OPT_ADD,
    OPT_ASK,
    OPT_GO_OUT,
    OPT_NEW,
    OPT_NO_ASK,
    OPT_STOP,
    OPT_TAKE,
    OPT_YES,
    discardable_nb,
    held_step_legal_nb,
    meld_stop_legal_nb,
    next_meld_shape_nb,
    step_legal_nb,
    stop_legal_nb,
    take_context_nb,
    take_legal_nb,
    take_method_ok_nb,
)
from ..game.plans import (
    best_plan_nb,
    go_out_plans_nb,
    stray_black_threes_nb,
    survey_rules_out_nb,
)
from ..game.rules_nb import Ask
from ..game.slots import ST_TURN_LAST_RED3, ST_TURN_TAKE
from ..game.state import card_value_nb, meld_size_nb, melded_ranks_nb, row_total_nb, side_of_nb
from ..jit import kernel, one_step


@kernel
def best_index_nb(scores, n):
    """Index of the first highest score."""
    best = 0
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return best


@kernel
def greedy_nb(rules, params, decision, opts, n, hand_row, melds, side, scores):
    """The ``greedy`` baseline (module docstring): score every option, take the best."""
    for i in range(n):
        if decision == DEC_DISCARD:
            scores[i] = -greedy_usefulness_nb(rules, opts[i, 1], hand_row, melds, side)
        else:
            scores[i] = greedy_option_score_nb(rules, decision, opts[i], melds, side)
    return best_index_nb(scores, n)


@kernel
def greedy_option_score_nb(rules, decision, opt, melds, side):
    """How much ``greedy`` likes one draw, meld, ask or answer option."""
    kind = opt[0]
    if kind == OPT_TAKE:
        return 1000 + 10 * opt[1] - 3 * (opt[2] + opt[3])
    if kind == OPT_GO_OUT:
        return GO_OUT_SCORE + opt[4]                      # the plan's score (kernels/game/plans.py)
    if kind == OPT_NEW:
        if opt[3] + opt[4] == 0:
            return 600 + card_value_nb(rules, opt[1])
        if opt[3] > 0:
            return 400 + card_value_nb(rules, opt[1])
        return 350 + card_value_nb(rules, opt[1])
    if kind == OPT_ADD:
        if opt[2] >= FIRST_NATURAL:
            return 500
        if meld_size_nb(melds, side, opt[1]) == 6:
            return 450 if opt[2] == DEUCE else 440          # completes a canasta
        return 10 if opt[2] == DEUCE else 5                   # only when stopping is illegal
    if kind == OPT_STOP:
        return 100
    if kind == OPT_ASK:
        return 1 if rules.ask_permission == Ask.REQUIRED else 0
    if kind == OPT_NO_ASK:
        return 0 if rules.ask_permission == Ask.REQUIRED else 1
    if kind == OPT_YES:
        return 1
    return 0                                                   # draw, decline, no


@kernel
def greedy_usefulness_nb(rules, kind, hand_row, melds, side):
    """How useful one card of ``kind`` is to keep (lower = discard first)."""
    if kind == BLACK3:
        return -1000
    if kind == JOKER or kind == DEUCE:
        return 1000 + card_value_nb(rules, kind)
    use = 100 * (hand_row[kind] - 1) - card_value_nb(rules, kind)
    if meld_size_nb(melds, side, kind) > 0:
        use += 300
    return use


NO_USE = 1 << 40                 # above any greedy_usefulness_nb value
GO_OUT_SCORE = 1 << 40           # above any other option: greedy goes out when it can


@one_step
def greedy_discard_nb(rules, hand_row, melds, side):
    """``greedy``'s discard (R17) straight from the hand: the first kind, in kind order, of
    the least usefulness; the card :func:`greedy_nb` picks from the list of
    ``options.discard_options_nb``, without building the list."""
    best = NO_USE << 4
    for k in range(NKINDS):                   # without branches: the hand is unpredictable
        use = greedy_usefulness_nb(rules, k, hand_row, melds, side)
        key = (use << 4) + k                  # (usefulness, kind) in one int (NKINDS <= 16)
        best = min(best, key if discardable_nb(hand_row, k) else NO_USE << 4)
    return best & 15 if best < NO_USE << 4 else -1


@one_step
def greedy_meld_step_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws):
    """``greedy``'s next meld step, found by walking the legal steps in its order of
    preference (the same order :func:`greedy_option_score_nb` gives): go out, with the plan
    of the highest score for its side (kernels/game/plans.py); a new meld of all the naturals of a
    rank held three or more times (highest value first); all the naturals of a rank it has
    melded; a wild card that completes a canasta; a new meld of a pair and a wild card
    (deuce before joker); stop; and, only when stopping is illegal, any other legal step.
    Several cards of one rank go down in one step.

    Returns (kind, rank or plan, naturals, deuces, jokers); kind -1 when no step is legal."""
    side = side_of_nb(st, seat)
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        return OPT_STOP, 0, 0, 0, 0
    h = row_total_nb(hand_row)                # the hand's size, for every check below
    canastas, new3, adds, sixes, pairs, stray, stray_kind, reach = greedy_ranks_nb(
        rules, hand_row, melds, side)
    second = second_meld_canastas_nb(st, side)      # C11: a partnership's second melds count
    canastas += second
    reach += second
    if not planning and not survey_rules_out_nb(rules, stray, reach):
        n = go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, st[ST_TURN_TAKE] == 0,
                            True, False, plans, ws)
        if n > 0:
            return OPT_GO_OUT, best_plan_nb(plans, n), 0, 0, 0
    for new in range(2):              # new melds of naturals, then naturals onto the melds
        ranks = new3 if new == 0 else adds
        while ranks != 0:                         # its ranks, highest first
            r = highest_bit_nb(ranks)
            ranks ^= np.int64(1) << r
            for k in range(hand_row[r], 2 if new == 0 else 0, -1):
                if held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, k, 0,
                                      0, planning, plans, ws, h):
                    return (OPT_NEW if new == 0 else OPT_ADD), r, k, 0, 0
    if sixes != 0:
        r, de = greedy_wild_add_nb(rules, st, seatv, hand_row, melds, pile, seat, planning,
                                   plans, ws, sixes, h)
        if r >= 0:
            return OPT_ADD, r, 0, de, 1 - de
    if pairs != 0:
        r, de = greedy_pair_meld_nb(rules, st, seatv, hand_row, melds, pile, seat, planning,
                                    plans, ws, pairs, h)
        if r >= 0:
            return OPT_NEW, r, 2, de, 1 - de
    if stop_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws) \
            if planning else meld_stop_legal_nb(st, h):
        return OPT_STOP, 0, 0, 0, 0
    return greedy_forced_step_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans,
                                 ws)


@one_step
def greedy_ranks_nb(rules, hand_row, melds, side):
    """One pass over the natural ranks for :func:`greedy_meld_step_nb`: the side's canastas
    (R23); bitmasks of the ranks each part of the walk can use: held three or more times
    and not melded (new melds), held and melded (additions), melds of six cards (a wild card
    completes a canasta), held exactly twice and not melded (pair melds); and the survey of
    the hand that going out needs: its unmeldable cards with the kind of one of them (as
    plans.unmeldable_cards_nb) and the canastas within reach (as
    plans.canastas_within_reach_nb).  Written without branches, so that the walk visits
    only ranks that can matter."""
    canastas = 0
    new3 = 0
    adds = 0
    sixes = 0
    pairs = 0
    stray = 0
    stray_kind = -1
    reach = 0
    wilds = hand_row[JOKER] + hand_row[DEUCE]
    for r in range(FIRST_NATURAL, NKINDS):
        held = hand_row[r]
        size = meld_size_nb(melds, side, r)
        canastas += size >= 7
        new3 |= np.int64((held >= 3) & (size == 0)) << r
        adds |= np.int64((held > 0) & (size > 0)) << r
        sixes |= np.int64(size == 6) << r
        pairs |= np.int64((held == 2) & (size == 0)) << r
        lone = (held > 0) & (held < rules.min_naturals_per_meld) & (size == 0)   # R18
        stray += held * lone
        stray_kind = r if lone else stray_kind
        reach += size + held + wilds >= 7
    b3 = stray_black_threes_nb(rules, hand_row[BLACK3])                        # R25
    if b3 > 0:
        stray += b3
        stray_kind = BLACK3
    return canastas, new3, adds, sixes, pairs, stray, stray_kind, reach


@kernel
def greedy_forced_step_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws):
    """When ``greedy`` may not stop (a started initial meld, R26; one card left, R16; a turn
    that must go out): any wild card that fits, then the new melds of the smallest size
    (every make-up, most naturals first), then single naturals."""
    side = side_of_nb(st, seat)
    r, de = greedy_wild_add_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans,
                               ws, melded_ranks_nb(melds, side), row_total_nb(hand_row))
    if r >= 0:
        return OPT_ADD, r, 0, de, 1 - de
    for r in range(ACE, FIRST_NATURAL - 1, -1):
        if hand_row[r] == 0 or meld_size_nb(melds, side, r) > 0:
            continue
        nat, de, jo = next_meld_shape_nb(rules, hand_row, r, -1, 0)
        while nat >= 0:
            if step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, nat, de, jo,
                             planning, plans, ws):
                return OPT_NEW, r, nat, de, jo
            nat, de, jo = next_meld_shape_nb(rules, hand_row, r, nat, de)
    for r in range(ACE, FIRST_NATURAL - 1, -1):
        if hand_row[r] > 0 and meld_size_nb(melds, side, r) > 0 and step_legal_nb(
                rules, st, seatv, hand_row, melds, pile, seat, r, 1, 0, 0, planning, plans, ws):
            return OPT_ADD, r, 1, 0, 0
    return -1, 0, 0, 0, 0


@one_step
def greedy_wild_add_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws,
                       ranks, held):
    """A legal single wild card (a deuce before a joker) onto one of the side's melds of the
    ranks of the bitmask ``ranks``, the lowest rank first: the six-card melds it turns into
    canastas (``sixes`` of :func:`greedy_ranks_nb`), or every melded rank
    (``state.melded_ranks_nb``); ``held``: the hand's size.  Returns (rank, 1 for a deuce /
    0 for a joker), or (-1, 0)."""
    for de in range(1, -1, -1):
        if hand_row[DEUCE if de == 1 else JOKER] == 0:
            continue
        left = ranks
        while left != 0:                          # its ranks, lowest first
            r = lowest_bit_nb(left)
            left &= left - 1
            if held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, 0, de,
                                  1 - de, planning, plans, ws, held):
                return r, de
    return -1, 0


@one_step
def greedy_pair_meld_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws,
                        pairs, held):
    """A legal new meld of two naturals and a wild card (a deuce before a joker), the highest
    rank first, from the ranks of the bitmask ``pairs`` (held exactly twice and not melded:
    :func:`greedy_ranks_nb`); ``held``: the hand's size.  Returns (rank, 1 for a deuce /
    0 for a joker), or (-1, 0)."""
    for de in range(1, -1, -1):
        if hand_row[DEUCE if de == 1 else JOKER] == 0:
            continue
        left = pairs
        while left != 0:                          # its ranks, highest first
            r = highest_bit_nb(left)
            left ^= np.int64(1) << r
            if held_step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, 2, de,
                                  1 - de, planning, plans, ws, held):
                return r, de
    return -1, 0


@one_step
def greedy_take_nb(rules, st, seatv, sidev, hand_row, melds, pile, seat, plans, ws):
    """``greedy``'s pile take, the legal one it likes best (as :func:`greedy_option_score_nb`
    ranks them): the most naturals from the hand, then the fewest wild cards, deuces before
    jokers.  Returns (naturals, deuces, jokers), or (-1, 0, 0) if the pile cannot be taken."""
    ok, top, frozen, unmelded, min_k = take_context_nb(rules, st, sidev, hand_row, melds, pile,
                                                       seat)
    if not ok:
        return -1, 0, 0
    side = side_of_nb(st, seat)
    existing = meld_size_nb(melds, side, top) > 0
    max_w = min(rules.max_wilds_per_meld, hand_row[DEUCE] + hand_row[JOKER])
    for k in range(hand_row[top], min_k - 1, -1):
        for w in range(max_w + 1):
            for j in range(w + 1):
                d = w - j
                if d > hand_row[DEUCE] or j > hand_row[JOKER]:
                    continue
                if take_method_ok_nb(rules, frozen, existing, k, d, j) and take_legal_nb(
                        rules, st, seatv, hand_row, melds, pile, seat, top, k, d, j, plans, ws):
                    return k, d, j
    return -1, 0, 0
