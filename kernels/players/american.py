"""Who decides in a Modern American deal: the switch from a seat's policy id to the player, and
the family's simplest players, ``random`` and ``greedy``; the club players (careful, rush,
builder, expert) are in :mod:`.american_club` (docs/american.md, "Players").

Every decision of the family's turn (kernels/play/american/turn.py) comes through one of the
functions below, each given the legal choices the rules made (kernels/game/american/steps.py):

* :func:`keeps_three_nb`: keep one three for the Straight (A10), where the rules allow it;
* :func:`lays_special_nb`: lay a special hand the seat holds (A52);
* :func:`takes_pile_nb`: take the pile where A29-A30 allow it (a side that has not melded must
  open in the same turn, A26, which the turn tries);
* :func:`tries_opening_nb`: try the side's initial meld in a drawing turn (A24-A28);
* :func:`pick_step_nb`: a meld step from the list, or stop (-1);
* :func:`pick_discard_nb`: the discard among the legal ones.

``random`` is uniform over the legal choices of each decision, from its seat's own policy
stream, so that every legal play has a chance (the soaks play it).  One exception keeps it
useful: while a tentative opening does not yet stand it does not stop while steps remain
(stopping then would only put the opening back).  ``greedy`` melds all it can: it takes the
pile whenever it may, opens whenever it can, lays every natural step, puts wild cards only
where they complete a canasta or an opening needs them, never starts a sevens, ace or wild
meld it cannot complete soon, lays a special hand at once, and discards the card it needs
least (a dead rank's card first, then a single of low value).
"""
from ..game.american.initial import opening_within_nb
from ..game.american.melds import (
    CANASTA,
    WILD_ROW,
    first_split_nb,
    is_dead_nb,
    mac_card_value_nb,
    placement_ok_nb,
    row_room_nb,
    size_limit_nb,
    wilds_on_nb,
)
from ..game.american.pile import stock_left_nb
from ..game.american.state import X_PRE_ONLY, X_TURN_ANSWER, X_TURN_FRESH, X_TURN_OPENING
from ..game.american.steps import (
    ILLEGAL,
    UNKNOWN_KIND,
    is_out_step_nb,
    placements_nb,
    step_kind_nb,
)
from ..game.cards import ACE, BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3, SEVEN
from ..game.rng import STREAM_POLICY, rand_below_nb
from ..game.rules_nb import Ask
from ..game.slots import M_NAT, M_SIZE, SIDE_MINIMUM
from ..game.state import row_total_nb
from ..jit import kernel, turn_step
from .american_club import (
    NOT_WORTH,
    beats_nb,
    beats_score_nb,
    best_step_nb,
    club_discard_nb,
    club_keeps_three_nb,
    club_step_nb,
    club_takes_pile_nb,
    club_tries_opening_nb,
    club_step_score_nb,
    club_unwanted_rows_nb,
)
from .club import P_ENDGAME_STOCK
from .ids import POLICY_EXPERT, POLICY_GREEDY, POLICY_RANDOM


@kernel
def is_random_nb(pol, seat):
    """The seat plays ``random``."""
    return pol[seat] == POLICY_RANDOM


@kernel
def is_club_nb(pol, seat):
    """The seat plays one of the club players (careful, rush, builder, expert)."""
    return pol[seat] > POLICY_GREEDY


@kernel
def plays_by_scores_nb(pol, seat):
    """The seat plays ``greedy`` or a club player: its choices are scores, drawn from nothing
    at random."""
    return POLICY_GREEDY <= pol[seat] <= POLICY_EXPERT


@turn_step
def coin_nb(S, seat):
    """A fair coin from the seat's policy stream."""
    return rand_below_nb(S.rng, STREAM_POLICY + seat, 2) == 1


@kernel
def straight_kinds_nb(hand):
    """How many of the Straight's 14 kinds (A, 2-K, a joker) the hand holds (A51)."""
    n = 0
    for k in range(NKINDS):
        if k != BLACK3 and hand[k] > 0:
            n += 1
    if hand[BLACK3] > 0 and hand[RED3] == 0:
        n += 1
    return n


@turn_step
def keeps_three_nb(pol, S, seat):
    """A10: keep one three (1) or lay them all (0).  ``greedy`` keeps one when the hand is
    within three cards of the Straight."""
    if is_random_nb(pol, seat):
        return 1 if coin_nb(S, seat) else 0
    if is_club_nb(pol, seat):
        return club_keeps_three_nb(straight_kinds_nb(S.hands[seat]))
    return 1 if straight_kinds_nb(S.hands[seat]) >= 11 else 0


@turn_step
def lays_special_nb(pol, S, seat):
    """A52: lay the special hand held.  ``random`` tosses a coin; ``greedy`` always lays it."""
    if is_random_nb(pol, seat):
        return coin_nb(S, seat)
    return True


@turn_step
def asks_partner_nb(pol, params, mac, S, A, seat, n, required):
    """A41: ask the partner before going out (the seat could go out by one of its ``n``
    listed steps).  ``random`` tosses a coin.  The others ask only where asking is required,
    and then only when the step they would make goes out."""
    if is_random_nb(pol, seat):
        return coin_nb(S, seat)
    if not required:
        return False
    i = pick_step_nb(pol, params, mac, S, A, seat, n, False)
    return i >= 0 and is_out_step_nb(mac, S, A, seat, i)


@turn_step
def answers_yes_nb(pol, params, mac, S, partner):
    """A41: the partner's binding answer.  ``random`` tosses a coin; ``greedy`` and the club
    players answer yes (they cannot tell what their partner's hand would score)."""
    if is_random_nb(pol, partner):
        return coin_nb(S, partner)
    return True


@turn_step
def takes_pile_nb(pol, params, mac, S, seat):
    """A14: take the pile (where the rules allow) rather than draw.  ``greedy`` always does."""
    if is_random_nb(pol, seat):
        return coin_nb(S, seat)
    if is_club_nb(pol, seat):
        return club_takes_pile_nb(mac, S, seat, params[seat], pol[seat])
    return True


@turn_step
def tries_opening_nb(pol, params, mac, S, seat):
    """A24-A28: try the side's initial meld this turn.  ``greedy`` and the club players try
    whenever the steps they would make could open (:func:`unwanted_rows_nb`; their choices
    draw nothing at random, so a try that cannot stand is skipped: it would be put back
    whole)."""
    if is_random_nb(pol, seat):
        return rand_below_nb(S.rng, STREAM_POLICY + seat, 4) != 0
    side = seat % 2
    if plays_by_scores_nb(pol, seat) and not opening_within_nb(
            mac, S.melds, side, S.hands[seat], -1, S.sidev[side, SIDE_MINIMUM],
            unwanted_rows_nb(pol, params, mac, S, seat)):
        return False
    if is_club_nb(pol, seat):
        return club_tries_opening_nb(S, seat, pol[seat])
    return True


@turn_step
def unwanted_rows_nb(pol, params, mac, S, seat):
    """The bitmask of the rows on which ``greedy`` or a club player would make no step now
    (it scores every placement there NOT_WORTH: a sevens or aces meld it would not start, a
    wild meld it would not start or not complete), so that they need not be listed."""
    if is_club_nb(pol, seat):
        return club_unwanted_rows_nb(S, seat, params[seat])
    melds = S.melds
    side = seat % 2
    hand = S.hands[seat]
    mask = 0
    for row in (SEVEN, ACE):
        if melds[side, M_SIZE, row] == 0 and hand[row] < 5:
            mask |= 1 << row                           # greedy_step_score_nb: A46
    size = melds[side, M_SIZE, WILD_ROW]
    wild = hand[DEUCE] + hand[JOKER]
    if size == 0 and wild < 6 or size > 0 and size + wild < CANASTA:
        mask |= 1 << WILD_ROW
    return mask


@turn_step
def picks_from_placements_nb(pol, mac, seat):
    """Whether the seat's player finds its meld step by the scored walk
    (:func:`scored_step_nb`, which scores placements without listing them and checks a
    step's legality only when it would be the best), with the list of every placement
    (``steps.placements_nb``) as its fallback, rather than being given the legal steps:
    ``greedy`` and the club players, which pick the same step either way for less work.
    Not where asking is required: the question (A41) needs the legal list; not for any
    other player (a search seat is given the legal steps)."""
    return plays_by_scores_nb(pol, seat) and mac.ask_permission != Ask.REQUIRED


@turn_step
def pick_step_nb(pol, params, mac, S, A, seat, n, pending):
    """The index of the meld step to make among the ``n`` listed in ``A.steps``, or -1 to
    stop.  ``pending``: a tentative opening does not stand yet (stopping puts it back)."""
    if n == 0:
        return -1
    if is_random_nb(pol, seat):
        if pending:
            return rand_below_nb(S.rng, STREAM_POLICY + seat, n)
        i = rand_below_nb(S.rng, STREAM_POLICY + seat, n + 1)
        return i if i < n else -1
    if is_club_nb(pol, seat):
        return club_step_nb(mac, S, A, seat, n, pending, params[seat])
    return greedy_step_nb(mac, S, A, seat, n, pending)


@turn_step
def greedy_step_score_nb(S, seat, row, nat, wild, pending, held):
    """``greedy``'s value of a step of ``nat`` natural and ``wild`` wild cards on ``row``
    (``held``: cards in the seat's hand): natural cards laid, a canasta completed, going out;
    wild cards cost unless they complete a canasta or an opening needs them; a sevens, ace
    or wild meld started short of completion is never made."""
    side = seat % 2
    melds = S.melds
    size = melds[side, M_SIZE, row]
    after = size + nat + wild
    if size == 0 and (row == SEVEN or row == ACE) and nat < 5:
        return NOT_WORTH                       # A46: an incomplete one costs 2,500
    if row == WILD_ROW and (size == 0 and wild < 6 or size > 0 and after < CANASTA):
        return NOT_WORTH                       # A46: an incomplete wild meld costs 2,000
    score = 10.0 * nat
    if after >= CANASTA:
        score += 200.0 if wild == 0 and melds[side, 1, row] + melds[side, 2, row] == 0 \
            else 100.0
    elif wild > 0:
        score -= 15.0 * wild if not pending else -1.0 * wild
    if held - nat - wild <= 1:
        score += 1000.0                         # going out (or the talon's last card)
    return score


@kernel
def greedy_step_nb(mac, S, A, seat, n, pending):
    """``greedy``'s step: the best by :func:`greedy_step_score_nb`; stop when none is worth
    making (unless an opening is pending, when it takes the best there is).  A call, not
    inlined, as :func:`.american_club.club_step_nb` (seldom reached: :func:`scored_step_nb`)."""
    held = row_total_nb(S.hands[seat])
    best = -1
    for i in range(n):
        A.scores[i] = greedy_step_score_nb(S, seat, A.steps[i, 0], A.steps[i, 1],
                                           A.steps[i, 2] + A.steps[i, 3], pending, held)
        if beats_nb(A.scores, i, best, pending):
            best = i
    return best_step_nb(mac, S, A, seat, n, pending, best)


@turn_step
def step_score_nb(pol, params, mac, S, seat, row, nat, wild, pending, held, endgame):
    """The value ``greedy`` or a club player gives a step of ``nat`` natural and ``wild`` wild
    cards on ``row`` (:func:`greedy_step_score_nb`, :func:`.american_club.club_step_score_nb`)."""
    if is_club_nb(pol, seat):
        return club_step_score_nb(mac, S, seat, row, nat, wild, pending, params[seat], held,
                                  endgame)
    return greedy_step_score_nb(S, seat, row, nat, wild, pending, held)


@turn_step
def scored_step_nb(pol, params, mac, S, A, seat, pending):
    """``greedy``'s or a club player's meld step found without listing every placement:
    written to ``A.steps[0]``; returns (0, how the step leaves the turn, found by its legality
    check: ``steps.step_kind_nb``), or (-1, UNKNOWN_KIND) to stop, or (the index
    :func:`pick_step_nb` picks from the list, UNKNOWN_KIND).  The same step :func:`pick_step_nb`
    picks from the list of :func:`.steps.placements_nb`: a step's score and its legality read
    its row, natural cards and number of wild cards only, so the first of equals in that list
    is a row's first placement of that many wild cards (:func:`.melds.first_split_nb`), and
    only (naturals, wild cards) need scoring.  When the best is not legal the list is made and
    :func:`pick_step_nb` strikes it out and looks further (seldom)."""
    x = A.x
    side = seat % 2
    melds = S.melds
    hand = A.pre if x[X_PRE_ONLY] else S.hands[seat]      # as placements_nb (A26)
    opening_turn = x[X_TURN_OPENING] == 1
    limit = size_limit_nb(mac, True)                    # as placements_nb: a step may go out
    skip = unwanted_rows_nb(pol, params, mac, S, seat)
    held = row_total_nb(S.hands[seat])
    endgame = stock_left_nb(S.st) <= params[seat, P_ENDGAME_STOCK]
    jokers = hand[JOKER]
    best_row = -1
    best_nat = 0
    best_wild = 0
    best_score = 0.0
    for row in range(WILD_ROW, ACE + 1):
        if FIRST_NATURAL > row > WILD_ROW or (skip >> row) & 1 == 1:
            continue
        most_nat, most_deuces, most_wild, fresh, no_wild = row_room_nb(
            mac, melds, side, hand, x[X_TURN_FRESH], opening_turn, row)
        if most_nat < 0:
            continue
        size = melds[side, M_SIZE, row]
        naturals = melds[side, M_NAT, row]
        on = wilds_on_nb(melds, side, row)
        for nat in range(most_nat + 1):
            for wild in range(min(most_wild, most_deuces + jokers) + 1):
                if not placement_ok_nb(mac, size, naturals, on, row, nat, wild, limit, fresh,
                                       opening_turn, no_wild):
                    continue
                score = step_score_nb(pol, params, mac, S, seat, row, nat, wild, pending,
                                      held, endgame)
                if beats_score_nb(score, best_score, best_row >= 0, pending):
                    best_row = row
                    best_nat = nat
                    best_wild = wild
                    best_score = score
    if best_row < 0:
        return -1, UNKNOWN_KIND
    deuces, add_jokers = first_split_nb(best_wild, jokers)
    A.steps[0, 0] = best_row
    A.steps[0, 1] = best_nat
    A.steps[0, 2] = deuces
    A.steps[0, 3] = add_jokers
    kind = step_kind_nb(mac, S, A, seat, best_row, best_nat, deuces, add_jokers,
                        x[X_TURN_ANSWER] != 0)
    if kind != ILLEGAL:
        return 0, kind
    n = placements_nb(mac, S, A, seat, skip)
    return pick_step_nb(pol, params, mac, S, A, seat, n, pending), UNKNOWN_KIND


@turn_step
def pick_discard_nb(pol, params, mac, S, A, seat, legal, n):
    """The kind to discard among the ``n`` legal kinds in ``legal``."""
    if n == 1:
        return legal[0]
    if is_random_nb(pol, seat):
        return legal[rand_below_nb(S.rng, STREAM_POLICY + seat, n)]
    if is_club_nb(pol, seat):
        return club_discard_nb(mac, S, seat, legal, n, params[seat], A.chances)
    return greedy_discard_nb(mac, S, seat, legal, n)


@turn_step
def greedy_discard_nb(mac, S, seat, legal, n):
    """``greedy``'s discard: a card of a dead rank first (nobody can take the pile on it,
    A22, A30), else the kind it holds fewest of, the lowest card value among them; wild cards
    and threes last."""
    side = seat % 2
    hand = S.hands[seat]
    best = legal[0]
    best_key = 1e18
    for j in range(n):
        k = legal[j]
        key = 100.0 * hand[k] + mac_card_value_nb(mac, k)
        if k >= FIRST_NATURAL and is_dead_nb(mac, S.melds, side, k):
            key -= 10000.0
        elif k == DEUCE or k == JOKER:
            key += 10000.0
        elif k >= FIRST_NATURAL and S.melds[side, M_NAT, k] > 0:
            key += 300.0                         # it could go on the side's meld later
        if key < best_key:
            best = k
            best_key = key
    return best
