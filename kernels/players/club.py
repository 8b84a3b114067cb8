"""The club players: ``careful``, ``rush``, ``builder`` and ``expert`` (STYLE.md 4).

They share one engine of judgement, switched by the policy id and tuned by named
parameters (``canasta_sim/policies.py`` lists them with their defaults; slot ``P_*``).
A discard, ask or answer scores every legal option the engine lists and takes the best;
the meld phase walks the legal steps in the player's order of preference and takes the
first (:func:`club_meld_step_nb`), laying all the natural cards of a rank in one step;
the pile is taken as ``greedy`` takes it, within ``min_pile_take`` (:func:`club_take_nb`).

What a club player may read (RULES.md 0.1): its own hand row, every meld, the pile
(squared, but remembered), red threes, the size of every hand and of the stock, the
last card each seat discarded and the cards each seat is known to hold because it
took them with the pile (``SEAT_KNOWN``, kept up to date by the engine as those
cards are melded or discarded).  It never reads another hand or the stock.

``careful`` -- a solid club player.
    Discards safe cards: a black three first (the next player cannot take the pile),
    unless a wild card should freeze the pile (below); otherwise the card with the lowest
    cost, where the cost of a card is its use to careful (a pair or triple it holds, a
    rank its side has melded) plus ``danger`` times the chance that the next player takes
    the pile with it times a weight growing with the pile's size.  That chance is 1 for a
    rank the opponents have melded while the pile is open to them (feeding), low for the
    rank the next player discarded last, and a fixed guess otherwise; so careful breaks a
    pair rather than feed a pile of nine or more cards, and feeds a smaller pile rather
    than break a pair.  Freezes the pile with a wild card (a deuce first) once it holds
    ``freeze_at`` cards and is not frozen yet.  Keeps pairs (they take the pile) and
    ``wild_hold`` wild cards in hand; lays natural melds; spends its other wild cards on
    new melds of a pair and a wild card and to complete canastas.  Takes the pile
    whenever it can, but spends wild cards on a take only for a pile of at least
    ``min_pile_take`` cards.  Goes out once its side has ``want_canastas`` canastas, or
    when the stock is nearly gone or an opponent is down to three cards; until then it
    never melds down to a single card.
``rush`` -- goes out as early as the rules allow: melds everything at once,
    wild cards included, to reach the canastas going out needs, and goes out at the
    first chance.
``builder`` -- plays for canastas and points: melds everything, puts spare wild cards
    on melds of four to six cards, and delays going out while its side is ahead (by
    ``go_out_margin`` points of table and score), until the stock runs low or an
    opponent threatens to go out.
``expert`` -- ``careful`` plus card counting, partner cooperation and end-of-stock
    play.  It counts every card it has seen (melds, the pile, its hand, cards known in
    other hands) and judges the chance that the next opponent holds a pair of a rank
    from the cards still unseen.  Like ``builder`` it puts spare wild cards on melds of
    four or more, and it goes out at once while its side does not lead by
    ``go_out_margin``.  It asks its partner before going out when it has fewer canastas
    than it wants, and answers a partner's question by the score: yes when its own hand
    holds at most ``answer_max_hand`` points, its side is behind (a lead below 0) or the
    stock is down to ``endgame_stock``; no otherwise.  With ``endgame_stock`` cards or
    fewer in the stock it melds all it can, goes out at the first chance and sheds its
    high cards.
"""
import numpy as np

from ..game.bits import highest_bit_nb, lowest_bit_nb
from ..game.cards import BLACK3, DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from ..game.cutthroat import forms_partnership_nb, second_meld_canastas_nb, side_canastas_nb
from ..game.options import (
    DEC_ASK,
    DEC_DISCARD,
    OPT_ADD,
    OPT_ASK,
    OPT_GO_OUT,
    OPT_NEW,
    OPT_STOP,
    OPT_YES,
    discardable_kinds_nb,
    meld_stop_legal_nb,
    must_go_out_nb,
    step_legal_nb,
    stop_legal_nb,
)
from ..game.plans import best_plan_nb, go_out_plans_nb, survey_rules_out_nb
from ..game.rules_nb import Ask
from ..game.slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    OUT_ASK,
    OUT_HOLD,
    OUT_NOW,
    OUT_OWN,
    SEAT_KNOWN,
    SEAT_LAST_DISCARD,
    SIDE_MELDED,
    SIDE_SCORE_BEFORE,
    ST_DECK_N,
    ST_FREEZERS,
    ST_LONE,
    ST_NSEATS,
    ST_NSIDES,
    ST_PART_SIDE,
    ST_PILE_N,
    ST_STOCK_POS,
    ST_TURN_LAST_RED3,
    ST_TURN_OUT_CHOICE,
    ST_TURN_TAKE,
    WS_UNSEEN,
)
from ..game.state import (
    card_value_nb,
    meld_size_nb,
    pile_rest_nb,
    row_total_nb,
    side_of_nb,
)
from ..jit import kernel, one_step
from .greedy import (
    greedy_forced_step_nb,
    greedy_pair_meld_nb,
    greedy_ranks_nb,
    greedy_take_nb,
    greedy_wild_add_nb,
)
from .ids import POLICY_BUILDER, POLICY_CAREFUL, POLICY_EXPERT, POLICY_RUSH

# parameter slots (canasta_sim/policies.py names them per policy)
P_FREEZE_AT = 0          # pile size at which a wild discard freezes the pile
P_MIN_PILE_TAKE = 1      # smallest pile worth spending wild cards on to take
P_GO_OUT_MARGIN = 2      # builder: lead (points) above which it delays going out
P_WILD_HOLD = 3          # wild cards kept in hand rather than melded
P_WANT_CANASTAS = 4      # canastas the side wants before going out
P_ENDGAME_STOCK = 5      # stock size from which end-of-stock play starts
P_ANSWER_MAX_HAND = 6    # expert: largest own hand (points) that still answers yes
P_DANGER = 7             # weight of the chance the next opponent takes the pile

THREATENING_HAND = 3     # an opponent with this few cards may go out next turn
LONE_PILE_FACTOR = 5.0   # cutthroat: the first take (the lone hand) needs this x min_pile_take
MEMO = 32                # club_discard_nb: the pair chances by (known, unseen) from here ...
MEMO_U = 16              # ... in the WS_UNSEEN row, unseen counts 0 .. MEMO_U - 1

# the discard cost (discard_cost_nb; the card with the lowest cost is discarded)
BLACK3_COST = -100.0     # a black three stops the next player (R31): discard it first
WILD_COST = 400.0        # a wild card is worth keeping (plus its card value)
FREEZE_DEUCE = 600.0     # taken off a wild card's cost when it should freeze the pile (R32)
FREEZE_JOKER = 560.0     # ... a little less for a joker, so a deuce freezes first
PAIR_COST = 80.0         # per card of a pair or triple held (pairs take the pile)
MELDED_COST = 60.0       # a rank the side has melded can be laid later
FEED_BASE = 40.0         # what a pile handed to the next player costs: base ...
FEED_PER_CARD = 15.0     # ... plus this per pile card, times danger and the chance
ENDGAME_SHED = 3.0       # expert near the end of the stock sheds points this much faster
LAST_DISCARD_PAIR = 0.05  # chance of a pair of the rank a player just discarded
GUESS_PAIR = 0.3          # careful's guess of a pair of any other rank ...
GUESS_PAIR_ONE_KNOWN = 0.6  # ... and of one when it is known to hold one card of it


@one_step
def club_decide_nb(rules, S, seat, policy, params, decision, opts, n):
    """Index of the option a club player picks among ``opts[:n]`` (n >= 1) for a discard,
    an ask or an answer (takes: :func:`club_take_nb`; meld steps: :func:`club_meld_step_nb`)."""
    if n == 1:
        return 0
    hands = S.hands
    melds = S.melds
    pile = S.pile
    st = S.st
    seatv = S.seatv
    sidev = S.sidev
    ws = S.ws
    if decision == DEC_DISCARD:
        return club_discard_nb(rules, hands, melds, pile, st, seatv, sidev, ws[WS_UNSEEN],
                               seat, policy, params, opts, n)
    if decision == DEC_ASK:                   # the same answer whatever the option: once
        kind, agree = OPT_ASK, asks_partner_nb(rules, S, seat, policy, params)
    else:
        kind, agree = OPT_YES, answers_yes_nb(rules, S, seat, policy, params)
    for i in range(n):
        if (opts[i, 0] == kind) == agree:
            return i                          # the first option that says what it wants
    return 0


@one_step
def club_discard_nb(rules, hands, melds, pile, st, seatv, sidev, unseen, seat, policy, params,
                    opts, n):
    """Index of the discard option of the lowest :func:`discard_cost_nb` among
    ``opts[:n]`` (the first of equal costs): for a list of options in any order (the search
    player's, a logged decision).  The engine's own discards use
    :func:`club_discard_card_nb`, the same choice without the list."""
    if n == 1:
        return 0
    side, opp, opp_side, freeze, layoff, pool, unknown_hand, shed, feed, memo = \
        discard_facts_nb(rules, hands, melds, pile, st, seatv, sidev, unseen, seat, policy,
                         params)
    best = 0
    best_score = -1e18
    for i in range(n):
        score = discard_score_nb(rules, hands, melds, seatv, unseen, seat, policy, params,
                                 side, opp, opp_side, freeze, layoff, pool, unknown_hand, shed,
                                 feed, memo, opts[i, 1])
        if score > best_score:
            best = i
            best_score = score
    return best


@one_step
def club_discard_card_nb(rules, hands, melds, pile, st, seatv, sidev, unseen, seat, policy,
                         params):
    """The card :func:`club_discard_nb` picks from the list of
    ``options.discard_options_nb`` (every kind in the hand but red threes, in kind order),
    found from the hand without building the list."""
    hand_row = hands[seat]
    kinds = discardable_kinds_nb(hand_row)
    if kinds & (kinds - 1) == 0:              # one kind (or none)
        return lowest_bit_nb(kinds) if kinds != 0 else -1
    side, opp, opp_side, freeze, layoff, pool, unknown_hand, shed, feed, memo = \
        discard_facts_nb(rules, hands, melds, pile, st, seatv, sidev, unseen, seat, policy,
                         params)
    best = -1
    best_score = -1e18
    while kinds != 0:                         # the kinds held, in kind order
        k = lowest_bit_nb(kinds)
        kinds &= kinds - 1
        score = discard_score_nb(rules, hands, melds, seatv, unseen, seat, policy, params,
                                 side, opp, opp_side, freeze, layoff, pool, unknown_hand, shed,
                                 feed, memo, k)
        if score > best_score:
            best = k
            best_score = score
    return best


@one_step
def discard_facts_nb(rules, hands, melds, pile, st, seatv, sidev, unseen, seat, policy, params):
    """What is the same for every discard option, found once per decision: the seat's side,
    the next seat (an opponent: sides sit alternately) and its side, whether a wild card
    should freeze the pile, whether the pile is open to the next seat for a layoff, for
    ``expert`` the unseen cards (:func:`count_unseen_nb`, into ``unseen``, their total
    ``pool``; -1 for the others) and the next seat's hand cards nobody knows, the shedding
    factor, the weight of feeding the pile, and the memo of pair chances
    (:func:`pair_chance_memo_nb`: a float view of ``unseen``, cleared for ``expert``), made
    once here rather than for every option."""
    side = side_of_nb(st, seat)
    pile_n = st[ST_PILE_N]
    freeze = pile_n >= params[P_FREEZE_AT] and st[ST_FREEZERS] == 0 and policy != POLICY_RUSH
    opp = next_seat_nb(st, seat)
    opp_side = side_of_nb(st, opp)
    open_ = not (st[ST_FREEZERS] > 0 or sidev[opp_side, SIDE_MELDED] == 0)
    layoff = open_ and rules.unfrozen_take_by_layoff == 1
    friendly = opp_side == side          # cutthroat: the next seat is the partner (C5)
    pool = -1
    unknown_hand = 0
    memo = unseen[MEMO:MEMO + 2 * MEMO_U].view(np.float64)
    if policy == POLICY_EXPERT:
        memo[:] = -1.0
        pool = count_unseen_nb(rules, hands, melds, pile, st, seatv, seat, unseen)
        unknown_hand = row_total_nb(hands[opp])
        for k in range(NKINDS):
            unknown_hand -= seatv[opp, SEAT_KNOWN + k]
    shed = ENDGAME_SHED if expert_endgame_nb(st, policy, params) else 1.0
    feed = 0.0 if friendly else FEED_BASE + FEED_PER_CARD * pile_n    # a partner may take it
    return side, opp, opp_side, freeze, layoff, pool, unknown_hand, shed, feed, memo


@one_step
def discard_score_nb(rules, hands, melds, seatv, unseen, seat, policy, params, side, opp,
                     opp_side, freeze, layoff, pool, unknown_hand, shed, feed, memo, kind):
    """Minus :func:`discard_cost_nb` of discarding one card of ``kind``, with the facts of
    :func:`discard_facts_nb`: the chance that the next seat takes the pile with it is 1 for
    a layoff, else its chance of holding a pair (:func:`pair_chance_memo_nb`)."""
    chance = 0.0
    if kind >= FIRST_NATURAL and policy != POLICY_RUSH:
        if layoff and meld_size_nb(melds, opp_side, kind) > 0:
            chance = 1.0                    # R34 (c): it lays the card off (feeding)
        else:
            chance = pair_chance_memo_nb(seatv[opp, SEAT_KNOWN + kind],
                                         seatv[opp, SEAT_LAST_DISCARD] == kind + 1,
                                         unseen[kind] if pool >= 0 else 0, pool,
                                         unknown_hand, memo)
    return -discard_cost_nb(rules, hands[seat], melds, side, policy, freeze, kind,
                            params[P_DANGER] * chance * feed, shed)


# ---- public facts ---------------------------------------------------------------------------

@kernel
def stock_left_nb(st):
    """Cards left in the stock (public)."""
    return st[ST_DECK_N] - st[ST_STOCK_POS]


@kernel
def expert_endgame_nb(st, policy, params):
    """Whether ``expert`` plays the end of the stock: ``endgame_stock`` cards or fewer left."""
    return policy == POLICY_EXPERT and stock_left_nb(st) <= params[P_ENDGAME_STOCK]


@kernel
def next_seat_nb(st, seat):
    """The seat that plays next (clockwise), who may take this seat's discard; sides sit
    alternately (R1), so it is always an opponent.  (No division for a seat of the table.)"""
    following = seat + 1
    if following == st[ST_NSEATS]:
        return 0
    if 0 <= following < st[ST_NSEATS]:
        return following
    return following % st[ST_NSEATS]


@kernel
def min_opponent_hand_nb(hands, st, seat):
    """The fewest cards any opponent holds (hand sizes and sides are public)."""
    side = side_of_nb(st, seat)
    fewest = 1000
    for s in range(st[ST_NSEATS]):
        if side_of_nb(st, s) != side:
            fewest = min(fewest, row_total_nb(hands[s]))
    return fewest


@one_step
def lead_nb(melds, st, sidev, seat):
    """This side's cumulative score plus table points (300 a canasta, 10 a melded card),
    minus the best other side's; one pass over each side's ranks."""
    side = side_of_nb(st, seat)
    mine = 0
    best_other = -10 ** 9
    for k in range(st[ST_NSIDES]):
        value = sidev[k, SIDE_SCORE_BEFORE]
        for r in range(FIRST_NATURAL, NKINDS):
            size = meld_size_nb(melds, k, r)
            value += 10 * size + 300 * (size >= 7)                       # R23: a canasta
        if k == side:
            mine = value
        else:
            best_other = max(best_other, value)
    return mine - best_other


@one_step
def count_unseen_nb(rules, hands, melds, pile, st, seatv, seat, unseen):
    """Fill ``unseen[kind]`` with the cards of each kind this seat has not seen: the deck's
    count less its own hand, every meld, the pile and the cards other seats are known to
    hold.  Returns their total (red threes never count: they are always laid out)."""
    for kind in range(NKINDS):
        unseen[kind] = 4 * rules.num_packs - hands[seat, kind]
    unseen[JOKER] = rules.num_jokers - hands[seat, JOKER]
    unseen[BLACK3] = 2 * rules.num_packs - hands[seat, BLACK3]          # R2: two per pack
    unseen[RED3] = 0
    wilds_melded = 0                 # deuces and jokers on melds, summed apart (the same
    jokers_melded = 0                # integers, without a store to unseen per meld)
    rows = st[ST_NSIDES] + (1 if st[ST_PART_SIDE] >= 0 else 0)   # C7: second melds too
    for k in range(rows):
        for r in range(FIRST_NATURAL, NKINDS):
            unseen[r] -= melds[k, M_NAT, r]
            wilds_melded += melds[k, M_DEUCE, r]
            jokers_melded += melds[k, M_JOKER, r]
        unseen[BLACK3] -= melds[k, M_NAT, BLACK3]
    unseen[DEUCE] -= wilds_melded
    unseen[JOKER] -= jokers_melded
    for i in range(st[ST_PILE_N]):
        unseen[pile[i]] -= 1
    for s in range(st[ST_NSEATS]):
        if s != seat:
            for kind in range(NKINDS):
                unseen[kind] -= seatv[s, SEAT_KNOWN + kind]
    pool = 0
    for kind in range(NKINDS):
        unseen[kind] = max(unseen[kind], 0)
        if kind != RED3:
            pool += unseen[kind]
    return pool


@one_step
def pair_chance_memo_nb(known, last_discarded, u, pool, unknown_hand, memo):
    """:func:`pair_chance_nb`, each hypergeometric chance worked out once per decision: the
    same for every rank with as many unseen cards and as many known in the next hand
    (``memo``: -1 where not yet worked out)."""
    if known >= 2 or last_discarded or pool < 0 or u >= MEMO_U:
        return pair_chance_nb(known, last_discarded, u, pool, unknown_hand)
    c = (1 - known) * MEMO_U + u
    if memo[c] < 0.0:
        memo[c] = hypergeometric_pair_nb(known, u, pool, unknown_hand)
    return memo[c]


@kernel
def pair_chance_nb(known, last_discarded, u, pool, unknown_hand):
    """The chance that the next seat holds two or more natural cards of a rank: ``known`` of
    them are known to be in its hand, ``last_discarded`` if it discarded that rank last.
    With no count (``pool`` < 0) a fixed guess; with one, the hypergeometric chance that its
    ``unknown_hand`` cards not known to anyone hold the missing ones among the ``pool``
    unseen cards, ``u`` of them of this rank."""
    if known >= 2:
        return 1.0
    if last_discarded:
        return LAST_DISCARD_PAIR
    if pool < 0:
        return GUESS_PAIR if known == 0 else GUESS_PAIR_ONE_KNOWN
    return hypergeometric_pair_nb(known, u, pool, unknown_hand)


@kernel
def hypergeometric_pair_nb(known, u, pool, unknown_hand):
    """:func:`pair_chance_nb` from the count: the chance that ``unknown_hand`` cards drawn
    from the ``pool`` unseen ones hold the ``2 - known`` missing cards among the ``u``."""
    need = 2 - known
    if unknown_hand <= 0 or pool <= 0 or u < need:
        return 0.0
    draws = min(unknown_hand, pool)
    p0 = 1.0                                   # P(none of its unknown cards is this kind)
    for i in range(draws):
        p0 *= max(pool - u - i, 0) / (pool - i)
    if need == 1:
        return 1.0 - p0
    p1 = draws * u / pool                      # P(exactly one)
    for i in range(draws - 1):
        p1 *= max(pool - u - i, 0) / (pool - 1 - i)
    return max(0.0, 1.0 - p0 - p1)


# ---- the decisions ----------------------------------------------------------------------

@kernel
def wilds_in_hand_nb(hand_row):
    """Wild cards in a hand."""
    return hand_row[DEUCE] + hand_row[JOKER]


@one_step
def discard_cost_nb(rules, hand_row, melds, side, policy, freeze, kind, danger_cost, shed):
    """What discarding one card of ``kind`` costs (the cheapest is discarded): its use to
    this seat, plus ``danger_cost`` (``danger`` times the chance that the next opponent
    takes the pile with it times the pile's weight), less its card value (times ``shed``).
    ``freeze``: a wild card should freeze the pile now."""
    if kind == BLACK3:
        return BLACK3_COST                      # R31: stops the next player
    if kind == DEUCE or kind == JOKER:
        cost = WILD_COST + card_value_nb(rules, kind)
        if freeze:
            cost -= FREEZE_DEUCE if kind == DEUCE else FREEZE_JOKER     # R32: freeze it
        return cost
    held = hand_row[kind]
    cost = 0.0
    if held >= 2:
        cost += PAIR_COST * min(held, 3)        # pairs take the pile; triples meld
    if meld_size_nb(melds, side, kind) > 0:
        cost += MELDED_COST
    if policy == POLICY_RUSH:
        return cost - card_value_nb(rules, kind)
    cost += danger_cost
    cost -= card_value_nb(rules, kind) * shed                 # shed points
    return cost


@one_step
def club_take_nb(rules, st, seatv, sidev, hand_row, melds, pile, seat, params, plan, ws,
                 forced):
    """The club player's pile take: ``greedy``'s choice (the most naturals from the hand,
    then the fewest wild cards), refused when it spends wild cards on a pile of fewer than
    ``min_pile_take`` cards, unless the take is ``forced`` (R49).  In cutthroat the first take
    of a deal makes the taker the lone hand against two (C5), which pays only for a big pile:
    the club players make it only for a pile of ``LONE_PILE_FACTOR`` x ``min_pile_take`` cards
    or more (:func:`take_needs_nb`, docs/cutthroat.md).  Returns (naturals, deuces, jokers), or
    (-1, 0, 0) to draw (or decline)."""
    k, d, j = greedy_take_nb(rules, st, seatv, sidev, hand_row, melds, pile, seat, plan, ws)
    if k >= 0 and not forced and st[ST_PILE_N] < take_needs_nb(rules, st, params, d + j > 0):
        return -1, 0, 0
    return k, d, j


@kernel
def take_needs_nb(rules, st, params, spends_wilds):
    """The smallest pile a club player takes: ``min_pile_take`` cards when the take spends
    wild cards, none otherwise; in cutthroat a take that makes it the lone hand (C5) needs
    ``LONE_PILE_FACTOR`` times as many (docs/cutthroat.md, measured there)."""
    need = params[P_MIN_PILE_TAKE] if spends_wilds else 0.0
    if forms_partnership_nb(rules, st):
        need = max(need, LONE_PILE_FACTOR * params[P_MIN_PILE_TAKE])
    return need


@one_step
def go_out_wanted_nb(rules, hands, st, sidev, melds, seat, policy, params, canastas):
    """Whether the player wants to go out now that it can (``canastas``: its side's).
    The reasons are pure facts, tried cheapest first: ``careful`` and ``expert`` want out
    once the side has ``want_canastas`` canastas, whatever the rest says.  The search player's
    choice for the turn (``ST_TURN_OUT_CHOICE``: OUT_NOW, OUT_HOLD) overrides them all."""
    choice = st[ST_TURN_OUT_CHOICE]
    if choice == OUT_NOW or choice == OUT_HOLD:
        return choice == OUT_NOW
    if policy == POLICY_RUSH:
        return True
    if policy != POLICY_BUILDER and canastas >= params[P_WANT_CANASTAS] and \
            not leads_as_partner_nb(st, seat, policy):
        return True
    if stock_left_nb(st) <= max(params[P_ENDGAME_STOCK], 2.0 * rules.draw_count):
        return True                                                   # late
    if min_opponent_hand_nb(hands, st, seat) <= THREATENING_HAND:
        return True                                                   # threatened
    if policy == POLICY_BUILDER:
        return lead_nb(melds, st, sidev, seat) < params[P_GO_OUT_MARGIN]
    return policy == POLICY_EXPERT and lead_nb(melds, st, sidev, seat) < params[P_GO_OUT_MARGIN]


@kernel
def leads_as_partner_nb(st, seat, policy):
    """Cutthroat (C5, C13): ``expert`` as a partner weighs going out by the lead, as
    ``builder`` does, even with the canastas it wants: two partners meld onto one table and
    each scores its total, so while they lead by ``go_out_margin`` the deal is worth
    playing on.  Measured (docs/cutthroat.md): +16 points a deal against a lone ``greedy``,
    +9 against a lone ``rush``, no change against a lone ``careful`` or ``expert``."""
    return policy == POLICY_EXPERT and st[ST_LONE] >= 0 and st[ST_LONE] != seat


@kernel
def asks_partner_nb(rules, S, seat, policy, params):
    """Whether to ask the partner for permission to go out (R42): with asking required,
    when it wants to go out (``expert`` always asks); otherwise only ``expert``, when it does
    not want to go out on its own (:func:`never_asks_nb`); or as the search player chose for
    the turn (``ST_TURN_OUT_CHOICE``)."""
    hands = S.hands
    melds = S.melds
    st = S.st
    sidev = S.sidev
    if st[ST_TURN_OUT_CHOICE] != OUT_OWN:
        return st[ST_TURN_OUT_CHOICE] == OUT_ASK
    wanted = go_out_wanted_nb(rules, hands, st, sidev, melds, seat, policy, params,
                              side_canastas_nb(st, melds, side_of_nb(st, seat)))
    if rules.ask_permission == Ask.REQUIRED:
        asking = wanted or policy == POLICY_EXPERT
    else:
        asking = policy == POLICY_EXPERT and not wanted
    return asking


@kernel
def never_asks_nb(rules, policy):
    """``careful``, ``rush`` and ``builder`` never ask their partner unless asking is
    required (:func:`asks_partner_nb`), so their ask decision need not be offered."""
    return rules.ask_permission != Ask.REQUIRED and policy != POLICY_EXPERT and \
        is_club_nb(policy)


@kernel
def answers_yes_nb(rules, S, seat, policy, params):
    """The answer to the partner's question: every club player says yes, except that
    ``expert`` says no while its own hand holds more than ``answer_max_hand`` points, its
    side leads (by 0 or more) and the stock is above ``endgame_stock``."""
    hands = S.hands
    melds = S.melds
    st = S.st
    sidev = S.sidev
    yes = True
    if policy == POLICY_EXPERT:
        points = 0
        for k in range(NKINDS):
            points += hands[seat, k] * card_value_nb(rules, k)
        late = stock_left_nb(st) <= params[P_ENDGAME_STOCK]
        yes = points <= params[P_ANSWER_MAX_HAND] or lead_nb(melds, st, sidev, seat) < 0 or late
    return yes


@one_step
def club_meld_step_nb(rules, hands, melds, pile, st, seatv, sidev, ws, seat, policy, params,
                      planning, plans):
    """The club player's next meld step, found by walking the legal steps in its order of
    preference and taking the first: go out (if :func:`go_out_wanted_nb`, or if the turn must
    end by going out), with the plan of the highest score for its side (kernels/game/plans.py);
    a new meld of all the naturals of a rank held three or more times (highest rank first);
    all the naturals of a rank its side has melded; a wild card that completes a canasta;
    with a spare wild card, a new meld of a pair and a wild card, or (not ``careful``) a
    wild card on the largest meld of four to six cards; stop.  A player that does not want
    to go out takes no step that would leave it a single card (its discard would go out).
    When stopping is illegal (a started initial meld, R26; R16) it takes any legal step as
    ``greedy`` does, going out last.
    Returns (kind, rank or plan, naturals, deuces, jokers); kind -1 when no step is legal."""
    hand_row = hands[seat]
    side = side_of_nb(st, seat)
    if st[ST_TURN_LAST_RED3] == 1 and rules.last_card_red3_may_meld == 0:
        return OPT_STOP, 0, 0, 0, 0                                          # R47
    h = row_total_nb(hand_row)
    extra = pile_rest_nb(st, pile) if planning else 0
    # one pass over the ranks (as greedy's): which ranks each part of the walk can use
    canastas, new3, adds, sixes, pairs, stray, stray_kind, reach = greedy_ranks_nb(
        rules, hand_row, melds, side)
    second = second_meld_canastas_nb(st, side)      # C11: a partnership's second melds count
    canastas += second
    reach += second
    spare = spare_wilds_nb(hand_row, st, policy, params)
    out_open = not planning and not survey_rules_out_nb(rules, stray, reach)
    wanted = wish_matters_nb(policy, out_open, new3 | adds | sixes, pairs, spare) and \
        go_out_wanted_nb(rules, hands, st, sidev, melds, seat, policy, params, canastas)
    keep = 0 if wanted else 2 - extra      # not wanting out: keep two cards, so no meld step
    can_out = False                        # leaves a last card to discard (going out)
    if out_open:
        if wanted or must_go_out_nb(st):
            out = club_best_plan_nb(rules, st, seatv, hand_row, melds, seat, plans, ws)
            if out >= 0:
                return OPT_GO_OUT, out, 0, 0, 0
        else:                              # out only when nothing else is legal: a plan?
            can_out = go_out_plans_nb(rules, st, seatv, hand_row, melds, seat,
                                      st[ST_TURN_TAKE] == 0, True, True, plans, ws) > 0
    for new in range(2):              # new melds of naturals, then naturals onto the melds
        ranks = new3 if new == 0 else adds
        while ranks != 0:                         # its ranks, highest first
            r = highest_bit_nb(ranks)
            ranks ^= np.int64(1) << r
            for k in range(min(hand_row[r], h - keep), 2 if new == 0 else 0, -1):
                if step_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, r, k, 0, 0,
                                 planning, plans, ws):
                    return (OPT_NEW if new == 0 else OPT_ADD), r, k, 0, 0
    if h - 1 >= keep and sixes != 0:
        r, de = greedy_wild_add_nb(rules, st, seatv, hand_row, melds, pile, seat, planning,
                                   plans, ws, sixes, h)
        if r >= 0:
            return OPT_ADD, r, 0, de, 1 - de                                 # R23
    if spare >= 1 and h - 3 >= keep and pairs != 0:
        r, de = greedy_pair_meld_nb(rules, st, seatv, hand_row, melds, pile, seat, planning,
                                    plans, ws, pairs, h)
        if r >= 0:
            return OPT_NEW, r, 2, de, 1 - de
    if spare >= 1 and h - 1 >= keep and policy != POLICY_CAREFUL:
        r, de = wild_on_growing_meld_nb(rules, st, seatv, hand_row, melds, pile, seat,
                                        planning, plans, ws)
        if r >= 0:
            return OPT_ADD, r, 0, de, 1 - de
    if stop_legal_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans, ws) \
            if planning else meld_stop_legal_nb(st, h):
        return OPT_STOP, 0, 0, 0, 0
    if can_out:
        return OPT_GO_OUT, club_best_plan_nb(rules, st, seatv, hand_row, melds, seat, plans,
                                             ws), 0, 0, 0
    return greedy_forced_step_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans,
                                 ws)


@one_step
def wish_matters_nb(policy, out_open, melds_open, pairs, spare):
    """Whether :func:`club_meld_step_nb` can use the going-out wish: going out is open, or
    the survey leaves a step that keeps cards back (naturals to meld, a six-card meld, a
    pair with a spare wild card, or a spare wild card for a growing meld).  Otherwise only
    stopping (or a forced step) is left, and neither depends on the wish."""
    return out_open or melds_open != 0 or (spare >= 1 and (pairs != 0 or
                                                            policy != POLICY_CAREFUL))


@kernel
def club_best_plan_nb(rules, st, seatv, hand_row, melds, seat, plans, ws):
    """List the going-out plans (kernels/game/plans.py) and return the index of the one of the
    highest score for the side, or -1 if there is none."""
    n_out = go_out_plans_nb(rules, st, seatv, hand_row, melds, seat, st[ST_TURN_TAKE] == 0,
                            True, False, plans, ws)
    return best_plan_nb(plans, n_out)


@one_step
def spare_wilds_nb(hand_row, st, policy, params):
    """Wild cards the player may spend beyond the ``wild_hold`` it keeps (``rush`` and
    ``expert`` at the end of the stock keep none)."""
    if policy == POLICY_RUSH or expert_endgame_nb(st, policy, params):
        return wilds_in_hand_nb(hand_row)
    return wilds_in_hand_nb(hand_row) - params[P_WILD_HOLD]


@kernel
def wild_on_growing_meld_nb(rules, st, seatv, hand_row, melds, pile, seat, planning, plans,
                            ws):
    """A legal single wild card (a deuce before a joker) on the side's largest meld of four
    to six cards.  Returns (rank, 1 for a deuce / 0 for a joker), or (-1, 0)."""
    side = side_of_nb(st, seat)
    for de in range(1, -1, -1):
        if hand_row[DEUCE if de == 1 else JOKER] == 0:
            continue
        for size in range(6, 3, -1):
            for r in range(FIRST_NATURAL, NKINDS):
                if meld_size_nb(melds, side, r) == size and step_legal_nb(
                        rules, st, seatv, hand_row, melds, pile, seat, r, 0, de, 1 - de,
                        planning, plans, ws):
                    return r, de
    return -1, 0


@kernel
def is_club_nb(policy):
    """Whether ``policy`` is one of the club players of this module."""
    return policy == POLICY_CAREFUL or policy == POLICY_RUSH or policy == POLICY_BUILDER \
        or policy == POLICY_EXPERT

