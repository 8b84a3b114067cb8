"""The club players of Modern American (careful, rush, builder, expert): one engine of
judgement for the family's strategy, each player a set of parameters (canasta_sim/policies.py;
docs/american.md, "Players").

What the family's strategy turns on, and how the engine weighs it:

* **The pile is always frozen** (A29): it is taken only with a natural pair of the top card.
  A discard is dangerous when the next opponent may hold a pair of its rank: the chance is
  computed from the cards of that rank the seat has not seen (its hand, every meld, the pile,
  A0.1) and the opponent's hand size (hypergeometric), weighted by the pile's size and
  ``danger``.  A card of a dead rank (A22) can never be taken: the safest discard there is.
* **Sevens and aces** (A21, A46): an incomplete meld of them costs 2,500 at the end, three in
  a hand cost 1,500 (A48).  A club player starts such a meld only with five natural cards, or
  four early in the deal with enough of the rank unseen to complete it; it takes the pile
  onto a new sevens or ace meld only with two more of the rank in hand, or when the pile
  holds ``BIG_PILE`` (25) cards or more: so many cards are worth the risk.
* **Wild cards** (A19-A20, A23): a dirty canasta is worth 300, a clean one 500 (K-4).  Wild
  cards go onto a meld only to complete a canasta the side needs (to reach
  ``canastas_to_go_out``, in the end game, or when the rank's natural cards left unseen
  cannot complete it), or where an opening needs them; ``wild_hold`` more are kept in hand.
  A wild meld (2,000 or more, but -2,000 incomplete) is started only with five wild cards.
* **Going out** (A39-A42): with the canastas it needs, a player goes out once its side holds
  ``want_canastas`` canastas, or the stock is down to ``endgame_stock``, or the other side
  could go out first; with a lead of ``go_out_margin`` or more it holds on while the stock is
  long (builder, expert).
* **The end game** (stock at or below ``endgame_stock``): meld all it can, to leave little in
  hand.
* **Special hands** (A51-A53): ``expert`` chases one while its hand holds ten natural cards or
  more in groups of two or more and the stock is long: it does not open (after which no
  special hand may be laid) and takes only a pile of ten cards or more.  Every club player
  keeps a three when the hand is within three cards of the Straight.
* **Taking the pile** (A29-A31): whenever it holds ``min_pile_take`` cards or more, or the
  take completes a canasta.

``freeze_at`` and ``answer_max_hand`` have no use in this family (the pile is always frozen;
A41's question is asked only where ``ask_permission=required``, and then whenever the step
the player would make goes out; a partner asked answers yes: players/american.py).
"""
from ..game.american.melds import CANASTA, WILD_ROW, canastas_nb, is_dead_nb, mac_card_value_nb
from ..game.american.pile import stock_left_nb
from ..game.american.state import X_TURN_ANSWER
from ..game.american.steps import is_legal_step_nb
from ..game.cards import ACE, DEUCE, FIRST_NATURAL, JOKER, NKINDS, SEVEN
from ..game.slots import M_DEUCE, M_JOKER, M_NAT, M_SIZE, SIDE_MELDED, ST_PILE_N, WS_UNSEEN
from ..game.state import row_total_nb
from ..jit import kernel, turn_step
from .club import (
    P_DANGER,
    P_ENDGAME_STOCK,
    P_GO_OUT_MARGIN,
    P_MIN_PILE_TAKE,
    P_WANT_CANASTAS,
    P_WILD_HOLD,
)
from .ids import POLICY_EXPERT

NOT_WORTH = -1e9
RANK_CARDS = 8          # natural cards of a rank in two packs (A2)
BIG_PILE = 25           # a pile worth a new sevens or ace meld without more of the rank in
                        # hand: +27 Elo for expert over never; 10 was worse, 20 to 30 alike
                        # (docs/american.md, Strength)
DANGER_SCALE = 1.0      # points of keep value per unit of danger x chance x pile size; larger
                        # weights (10) made every danger > 0 lose (docs/american.md, Strength)


@turn_step
def off_table_nb(S, seat, kind):
    """Natural cards of ``kind`` neither in the seat's hand nor on a meld (the pile not yet
    counted): what :func:`unseen_nb` and :func:`unseen_kinds_nb` start from."""
    return RANK_CARDS - S.hands[seat, kind] - S.melds[0, M_NAT, kind] - S.melds[1, M_NAT, kind]


@turn_step
def unseen_nb(S, seat, kind):
    """Natural cards of ``kind`` the seat has not seen: not in its hand, on a meld, or in the
    pile (every card of the pile was seen, A0.1)."""
    n = off_table_nb(S, seat, kind)
    for i in range(S.st[ST_PILE_N]):
        if S.pile[i] == kind:
            n -= 1
    return max(n, 0)


@turn_step
def unseen_kinds_nb(S, seat, out):
    """:func:`unseen_nb` of every natural kind into ``out`` (less than 0 where it is 0), the
    pile read once."""
    for k in range(FIRST_NATURAL, NKINDS):
        out[k] = off_table_nb(S, seat, k)
    for i in range(S.st[ST_PILE_N]):
        if S.pile[i] >= FIRST_NATURAL:
            out[S.pile[i]] -= 1


@turn_step
def unknown_cards_nb(S, seat):
    """Cards the seat cannot see: the other hands and the stock."""
    n = stock_left_nb(S.st)
    for s in range(4):
        if s != seat:
            for k in range(NKINDS):
                n += S.hands[s, k]
    return n


@kernel
def pair_chance_nb(unseen, hand, unknown):
    """The chance that a hand of ``hand`` cards drawn from ``unknown`` cards holds two or more
    of ``unseen`` given ones (hypergeometric)."""
    if unseen < 2 or hand < 2 or unknown <= 0:
        return 0.0
    p0 = 1.0
    for i in range(hand):
        if unknown - i <= 0:
            return 0.0
        p0 *= max(unknown - unseen - i, 0) / (unknown - i)
    p1 = 0.0
    if unknown - unseen - hand + 1 > 0:
        p1 = p0 * hand * unseen / (unknown - unseen - hand + 1)
    return max(0.0, 1.0 - p0 - p1)


@turn_step
def pair_chance_of_nb(chances, unseen, hand, unknown):
    """:func:`pair_chance_nb`, looked up in the state's table ``chances`` (``A.chances``) and
    worked out only the first time (the same value, the same float, as every time)."""
    if hand >= chances.shape[1] or unknown >= chances.shape[2]:
        return pair_chance_nb(unseen, hand, unknown)
    chance = chances[unseen, hand, unknown]
    if chance < 0.0:
        chance = pair_chance_nb(unseen, hand, unknown)
        chances[unseen, hand, unknown] = chance
    return chance


@turn_step
def lead_nb(S, side):
    """A rough lead of ``side`` on the table: 500 a canasta and the card values melded."""
    lead = 0
    for s in range(2):
        sign = 1 if s == side else -1
        lead += sign * 500 * canastas_nb(S.melds, s)
        for r in range(FIRST_NATURAL, ACE + 1):
            lead += sign * 10 * S.melds[s, M_NAT, r]
    return lead


@turn_step
def wants_out_nb(mac, S, seat, par, canastas_after):
    """Whether the seat goes out now that it may (module docstring, "Going out")."""
    side = seat % 2
    stock = stock_left_nb(S.st)
    if stock <= par[P_ENDGAME_STOCK]:
        return True
    if canastas_nb(S.melds, 1 - side) >= mac.canastas_to_go_out:
        return True                                # the other side could go out first
    if canastas_after < par[P_WANT_CANASTAS]:
        return False
    margin = par[P_GO_OUT_MARGIN]
    return not (margin > 0 and lead_nb(S, side) >= margin and stock > 20)


@kernel
def club_keeps_three_nb(straight_kinds):
    """A10: keep a three within three cards of the Straight (14 kinds)."""
    return 1 if straight_kinds >= 11 else 0


@turn_step
def club_takes_pile_nb(mac, S, seat, par, policy):
    """A14: take the pile when it holds ``min_pile_take`` cards or the take completes a
    canasta; onto a new sevens or ace meld (A46: an incomplete one costs) only with two more
    of the rank in hand, or a pile of ``BIG_PILE`` cards or more; an unmelded ``expert``
    chasing a special hand takes only a pile of ten or more."""
    side = seat % 2
    n = S.st[ST_PILE_N]
    if S.sidev[side, SIDE_MELDED] == 0 and chases_special_nb(S, seat, policy) and n < 10:
        return False
    top = S.pile[n - 1]
    size = S.melds[side, M_SIZE, top]
    if (top == SEVEN or top == ACE) and size == 0 and S.hands[seat, top] < 4 and \
            n < BIG_PILE:
        return False                           # A46: a new meld it may not complete
    return n >= par[P_MIN_PILE_TAKE] or size + 3 >= CANASTA


@kernel
def grouped_cards_nb(hand):
    """Natural cards in groups of two or more of a rank (up to four a rank): how near the hand
    is to the special hands built of groups (A51: Pairs, Zip Code, Garbage, Blast Off...)."""
    n = 0
    for k in range(FIRST_NATURAL, NKINDS):
        if hand[k] >= 2:
            n += min(hand[k], 4)
    return n


@turn_step
def chases_special_nb(S, seat, policy):
    """``expert`` keeps a hand of ten grouped cards or more for a special hand (A51, A52) while
    the stock is long, rather than open (after which no special hand may be laid)."""
    return policy == POLICY_EXPERT and grouped_cards_nb(S.hands[seat]) >= 10 and \
        stock_left_nb(S.st) >= 15


@turn_step
def club_tries_opening_nb(S, seat, policy):
    """A24-A28: open when it can, unless chasing a special hand."""
    return not chases_special_nb(S, seat, policy)


@turn_step
def start_ok_nb(S, seat, row, nat, wild):
    """Whether a club player starts a meld of ``row`` with this step (sevens, aces and the wild
    meld only when it can be completed, module docstring)."""
    if row == WILD_ROW:
        return wild >= 5
    if row != SEVEN and row != ACE:
        return True
    return nat >= 5 or (nat == 4 and unseen_nb(S, seat, row) >= 3 and
                        stock_left_nb(S.st) >= 25)


@turn_step
def club_unwanted_rows_nb(S, seat, par):
    """The bitmask of the rows where :func:`club_step_score_nb` scores every placement from
    the seat's hand NOT_WORTH: a sevens or aces meld :func:`start_ok_nb` would not start with
    all of them, a wild meld it would not start, or (before the end game) not complete."""
    side = seat % 2
    hand = S.hands[seat]
    mask = 0
    for row in (SEVEN, ACE):
        if S.melds[side, M_SIZE, row] == 0 and not start_ok_nb(S, seat, row, hand[row], 0):
            mask |= 1 << row
    size = S.melds[side, M_SIZE, WILD_ROW]
    wild = hand[DEUCE] + hand[JOKER]
    endgame = stock_left_nb(S.st) <= par[P_ENDGAME_STOCK]
    if size == 0 and wild < 5 or size > 0 and size + wild < CANASTA and not endgame:
        mask |= 1 << WILD_ROW
    return mask


@turn_step
def wild_use_ok_nb(mac, S, seat, row, nat, wild, pending, endgame):
    """Whether wild cards on a natural meld are worth it: completing a canasta the side needs,
    or where naturals cannot complete it, or an opening that needs them."""
    if pending:
        return True
    side = seat % 2
    after = S.melds[side, M_SIZE, row] + nat + wild
    if after < CANASTA:
        return False
    if endgame or canastas_nb(S.melds, side) < mac.canastas_to_go_out:
        return True
    missing = CANASTA - S.melds[side, M_NAT, row] - nat
    return unseen_nb(S, seat, row) < missing


@turn_step
def club_step_score_nb(mac, S, seat, row, nat, wild, pending, par, held, endgame):
    """A club player's value of a meld step of ``nat`` natural and ``wild`` wild cards on
    ``row`` (module docstring); ``held``: cards in the seat's hand; ``endgame``: the stock is
    down to ``endgame_stock``."""
    side = seat % 2
    hand = S.hands[seat]
    size = S.melds[side, M_SIZE, row]
    if size == 0 and not start_ok_nb(S, seat, row, nat, wild):
        return NOT_WORTH
    if row == WILD_ROW and size > 0 and size + wild < CANASTA and not endgame:
        return NOT_WORTH
    if wild > 0 and row != WILD_ROW and not wild_use_ok_nb(mac, S, seat, row, nat, wild,
                                                          pending, endgame):
        return NOT_WORTH
    held_wild = hand[DEUCE] + hand[JOKER] - wild
    left = held - nat - wild
    after = size + nat + wild
    if left <= 1:
        clean_new = 1 if after >= CANASTA else 0
        if wants_out_nb(mac, S, seat, par, canastas_nb(S.melds, side) + clean_new):
            return 5000.0
        return NOT_WORTH
    score = 10.0 * nat + (20.0 * (nat + wild) if endgame else 0.0)
    if after >= CANASTA:
        clean = wild == 0 and S.melds[side, M_DEUCE, row] + S.melds[side, M_JOKER, row] == 0
        score += 400.0 if clean else 200.0
    if wild > 0 and held_wild < par[P_WILD_HOLD] and not pending and after < CANASTA:
        score -= 50.0
    if (row == SEVEN or row == ACE) and hand[row] >= 3 and hand[row] - nat < 3:
        score += 100.0                                   # A48: no three of them in hand
    return score


@kernel
def club_step_nb(mac, S, A, seat, n, pending, par):
    """The best step by :func:`club_step_score_nb` (:func:`best_step_nb`), from a list.  A
    call, not inlined: the turn's scored walk (``american.scored_step_nb``) finds the club
    players' steps; a list is scored only where that walk's best is not legal or a
    question is asked (A41), seldom, and the turn has several such places."""
    held = row_total_nb(S.hands[seat])
    endgame = stock_left_nb(S.st) <= par[P_ENDGAME_STOCK]
    best = -1
    for i in range(n):
        A.scores[i] = club_step_score_nb(mac, S, seat, A.steps[i, 0], A.steps[i, 1],
                                         A.steps[i, 2] + A.steps[i, 3], pending, par, held,
                                         endgame)
        if beats_nb(A.scores, i, best, pending):
            best = i
    return best_step_nb(mac, S, A, seat, n, pending, best)


@kernel
def beats_nb(scores, i, best, pending):
    """Whether step ``i`` beats the best so far (index ``best``, -1 none): it scores above it
    (above 0 when there is none, unless an opening is pending) and is not NOT_WORTH."""
    return beats_score_nb(scores[i], scores[best] if best >= 0 else 0.0, best >= 0, pending)


@kernel
def beats_score_nb(score, best_score, found, pending):
    """Whether a step scored ``score`` beats the best so far (``best_score``, when ``found``):
    :func:`beats_nb` on scores."""
    if score <= NOT_WORTH:
        return False
    if not found:
        return pending or score > 0.0
    return score > best_score


@turn_step
def best_step_nb(mac, S, A, seat, n, pending, best):
    """The index of the best of ``n`` steps scored in ``A.scores``, the first of equals, or -1
    when none scores above 0 (with an opening pending, the best there is; a step scored
    NOT_WORTH is never made); ``best``: that index, found by :func:`beats_nb` while scoring.
    The list may hold placements that are not legal (the turn's fast path,
    :func:`..game.american.steps.placements_nb`): the best is checked, and if it is not legal
    it is struck out and the next best checked, which picks what the list of legal steps
    alone would (``A.scores`` is spent).  Going out is legal unless the turn's answer
    forbids it (A41's "no", or a searched hold: kernels/play/american/rollout.py)."""
    out_allowed = A.x[X_TURN_ANSWER] != 0
    while best >= 0 and not is_legal_step_nb(mac, S, A, seat, best, out_allowed):
        A.scores[best] = NOT_WORTH
        best = -1
        for i in range(n):
            if beats_nb(A.scores, i, best, pending):
                best = i
    return best


@turn_step
def keep_value_nb(mac, S, seat, kind):
    """What a card is worth keeping: pairs take the pile (A29), three make a meld, a card of
    the side's live meld can be added; a dead rank is worth nothing (A22)."""
    side = seat % 2
    if is_dead_nb(mac, S.melds, side, kind):
        return -1000.0
    count = S.hands[seat, kind]
    value = 10.0 if count == 1 else (60.0 if count == 2 else 100.0)
    if S.melds[side, M_NAT, kind] > 0:
        value += 40.0
    if (kind == SEVEN or kind == ACE) and count >= 3:
        value -= 150.0                                   # A48: three in hand cost 1,500
    return value + mac_card_value_nb(mac, kind) / 10.0


@turn_step
def club_discard_nb(mac, S, seat, legal, n, par, chances):
    """The legal discard with the least keep value plus danger: the chance the next opponent
    holds a natural pair of its rank (:func:`pair_chance_of_nb`, from the state's table
    ``chances``), times the pile it would take, times ``danger`` (``DANGER_SCALE`` points a
    unit; with ``danger`` 0 no chance is computed)."""
    nxt = (seat + 1) % 4
    danger = par[P_DANGER] * DANGER_SCALE
    opp_hand = 0
    unknown = 0
    unseen = S.ws[WS_UNSEEN]
    if danger != 0.0:
        for k in range(NKINDS):
            opp_hand += S.hands[nxt, k]
        unknown = unknown_cards_nb(S, seat)
        unseen_kinds_nb(S, seat, unseen)
    pile = S.st[ST_PILE_N] + 1
    best = legal[0]
    best_key = 1e18
    for j in range(n):
        k = legal[j]
        key = keep_value_nb(mac, S, seat, k)
        if k == DEUCE or k == JOKER:
            key += 10000.0
        elif danger != 0.0 and not is_dead_nb(mac, S.melds, nxt % 2, k):
            chance = pair_chance_of_nb(chances, max(unseen[k], 0), opp_hand, unknown)
            key += danger * chance * pile
        if key < best_key:
            best = k
            best_key = key
    return best
