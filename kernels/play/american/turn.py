"""The Modern American turn (A8-A18, A26, A43, A44, A52) and its deal: threes, then the draw
or the take, then the meld steps, then the discard and the talon; each choice asked of the
seat's player (kernels/players/american.py) among the legal ones
(kernels/game/american/steps.py) and carried out by the family's moves
(kernels/game/american/moves.py).

**The opening as a tentative sequence.** A side's initial meld is judged as a whole (A25): the
clean triple, the count and the canasta rule are properties of every meld laid in that turn.
So a player whose side has not melded lays his steps tentatively; when he stops,
:func:`.initial.opening_ok_nb` decides, and an opening that does not stand is put back whole
(nothing reaches the table or the trace).  A take by such a side is the same: the take meld,
then steps from the cards held before the take (A26), then the verdict; if it fails the
player draws instead.  Every legal opening is a sequence of legal steps, so every one can be
played.
"""
from ...game.american.discard import (
    has_legal_discard_nb,
    legal_discard_kinds_nb,
    may_go_out_nb,
)
from ...game.american.initial import opening_lost_nb, opening_ok_nb, opening_possible_nb
from ...game.american.melds import place_nb
from ...game.american.moves import (
    LAID,
    THREE_FROM_DEAL,
    THREE_FROM_STOCK,
    apply_step_nb,
    begin_take_nb,
    begin_tentative_nb,
    discard_nb,
    draw_card_nb,
    finish_take_nb,
    give_talon_nb,
    go_out_nb,
    lay_threes_nb,
    undo_tentative_nb,
    write_logged_melds_nb,
)
from ...game.american.pile import (
    TALON_NONE,
    stock_left_nb,
    talon_earned_nb,
    talon_size_nb,
)
from ...game.american.rules_nb import ThreesTiming
from ...game.american.scoring import (
    I_TOTAL,
    mac_cards_conserved_nb,
    score_side_nb,
    score_special_nb,
)
from ...game.american.special import NONE, special_hand_nb
from ...game.american.state import (
    X_ASKED,
    X_KEPT,
    X_NLOG,
    X_PRE_ONLY,
    X_SEAT_TAKES,
    X_SIDE_TAKES,
    X_SIDE_TALON,
    X_SPECIAL_CODE,
    X_SPECIAL_POINTS,
    X_SPECIAL_SEAT,
    X_TALONS_TAKEN,
    X_TENTATIVE,
    X_TURN_ANSWER,
    X_TURN_DREW,
    X_TURN_FRESH,
    X_TURN_OPENING,
    X_TURN_STOCK,
    X_TURN_TAKE_ROW,
    X_TURN_TALON,
    X_TURN_TOOK,
)
from ...game.american.steps import (
    GOES_ON,
    GOES_OUT,
    TALON_LAST,
    UNKNOWN_KIND,
    is_out_step_nb,
    keep_out_steps_nb,
    legal_steps_nb,
    may_ask_nb,
    may_take_nb,
    pile_empty_at_discard_nb,
    placements_nb,
    step_kind_nb,
)
from ...game.american.threes import may_keep_three_nb, threes_in_nb
from ...game.cards import BLACK3, NKINDS, RED3
from ...game.layout import END_SPECIAL, END_STOCK, EV_ASK, EV_SPECIAL
from ...game.rules_nb import Ask
from ...game.slots import (
    SEAT_HAD_TURN,
    SIDE_MELDED,
    SIDE_MINIMUM,
    ST_CHECK_FAILS,
    ST_CHECK_ON,
    ST_END_REASON,
    ST_OUT_SEAT,
    ST_PILE_N,
    ST_TURNS,
    WS_HAND,
    WS_ORDER,
)
from ...game.state import row_total_nb
from ...game.trace_events import ev_begin_nb, ev_push_nb, ev_simple_nb
from ...jit import kernel, turn_step
from ...players.american_user import (
    answers_yes_nb,
    asks_partner_nb,
    keeps_three_nb,
    lays_special_nb,
    pick_discard_nb,
    pick_step_nb,
    takes_pile_nb,
    tries_opening_nb,
)
from ...players.american import (
    picks_from_placements_nb,
    plays_by_scores_nb,
    scored_step_nb,
    unwanted_rows_nb,
)

MAX_TURNS = 4000        # a safety net only: every deal ends far sooner
CONTINUE = 0
DEAL_OVER = 1
# X_TURN_ANSWER below -1: a searched question (kernels/play/american/rollout.py), set before
# the meld steps; the seat asks at its first chance (A41), whatever its player would do
ASK_CHOSEN = -2         # ... and its partner answers as its player would
ASK_CHOSEN_NO = -3      # ... and the answer is no
ASK_CHOSEN_YES = -4     # ... and the answer is yes
ASK_OWN_NO = -5         # the player asks or not as it would; if it asks, the answer is no
SCORED = 0              # step_source_nb: how a player finds its meld step
PLACEMENTS = 1
LEGAL = 2


@turn_step
def begin_turn_nb(A):
    """Clear the turn's slots."""
    x = A.x
    x[X_TURN_OPENING] = 0
    x[X_TURN_FRESH] = 0
    x[X_TURN_TOOK] = 0
    x[X_TURN_TAKE_ROW] = -1
    x[X_TURN_DREW] = 0
    x[X_TURN_STOCK] = 0
    x[X_TURN_TALON] = TALON_NONE
    x[X_TURN_ANSWER] = -1
    x[X_NLOG] = 0
    x[X_TENTATIVE] = 0
    x[X_PRE_ONLY] = 0
    A.laid[:, :] = 0


@turn_step
def melded_nb(S, seat):
    """The seat's side has melded (A26, A27)."""
    return S.sidev[seat % 2, SIDE_MELDED] == 1


@turn_step
def keep_choice_nb(mac, S, A, pol, params, seat):
    """How many threes (0 or 1) the seat keeps in hand (A10: only while its side has not
    melded, with a set of special hands that has the Straight; its player decides)."""
    if not may_keep_three_nb(mac, melded_nb(S, seat)):
        return 0
    if A.x[X_KEPT + seat] == 1:
        return 1
    if threes_in_nb(S.hands[seat]) == 0:
        return 0
    return keeps_three_nb(pol, params, mac, S, A, seat)


@turn_step
def start_threes_nb(mac, S, A, buf, pol, params, seat):
    """A9, A10 at the start of a turn: lay the threes in hand (dealt ones on the seat's first
    turn under ``first_turn``, a talon's, a kept one once the side has melded).  Returns LAID
    or STOCK_OUT (A43)."""
    first_turn = S.seatv[seat, SEAT_HAD_TURN] == 0
    S.seatv[seat, SEAT_HAD_TURN] = 1
    hand = S.hands[seat]
    kept = A.x[X_KEPT + seat]
    if threes_in_nb(hand) == 0:
        return LAID
    source = THREE_FROM_DEAL if first_turn and \
        mac.mac_threes_timing == ThreesTiming.FIRST_TURN else THREE_FROM_STOCK
    keep = keep_choice_nb(mac, S, A, pol, params, seat)
    result = lay_threes_nb(S, A, buf, seat, keep, threes_in_nb(hand) - kept, source, kept)
    A.x[X_KEPT + seat] = threes_in_nb(hand) if result == LAID else 0
    return result


@turn_step
def deal_threes_nb(mac, S, A, buf, pol, params, dealer):
    """A9 with ``after_deal``: every player lays his dealt threes, seat by seat from the
    dealer's left, before the first turn."""
    n = mac.num_players
    for i in range(n):
        seat = (dealer + 1 + i) % n
        hand = S.hands[seat]
        keep = keep_choice_nb(mac, S, A, pol, params, seat)
        if lay_threes_nb(S, A, buf, seat, keep, threes_in_nb(hand), THREE_FROM_DEAL,
                         0) != LAID:
            return False
        A.x[X_KEPT + seat] = threes_in_nb(hand)
    return True


@turn_step
def take_leaves_turn_nb(mac, S, seat):
    """A16, A39: a take must leave the player a turn to finish: two cards or more after the
    take meld with a legal discard among them, or (his side having melded) one card that is
    not a three, with which he goes out at once (A40 judged after the take meld)."""
    st = S.st
    side = seat % 2
    top = S.pile[st[ST_PILE_N] - 1]
    after = S.ws[WS_HAND]
    for k in range(NKINDS):
        after[k] = S.hands[seat, k]
    after[top] -= 2
    for i in range(st[ST_PILE_N] - 1):
        after[S.pile[i]] += 1
    left = row_total_nb(after)
    place_nb(S.melds, side, top, 3, 0, 0)
    if left >= 2:
        ok = has_legal_discard_nb(mac, S.melds, side, after, True)
    else:
        ok = left == 1 and melded_nb(S, seat) and threes_in_nb(after) == 0 and \
            may_go_out_nb(mac, S.melds, side)
    place_nb(S.melds, side, top, -3, 0, 0)
    return ok


@turn_step
def opening_stands_nb(mac, S, A, seat):
    """A25-A28: the melds laid tentatively this turn make a legal initial meld."""
    side = seat % 2
    return opening_ok_nb(mac, S.melds, side, A.laid, A.x[X_TURN_TAKE_ROW],
                         S.sidev[side, SIDE_MINIMUM])


@turn_step
def step_source_nb(pol, mac, seat, answer):
    """How the seat's player finds its next meld step, by its policy and the turn's
    ``X_TURN_ANSWER`` (``answer``): ``SCORED``, ``greedy`` and the club players while no
    question is open or searched (-1, or 0 after a "no"): their scored walk
    (``players.american.scored_step_nb``); ``PLACEMENTS``, the same players after a yes
    (A41): every placement listed, and the yes binds them to a going-out step; ``LEGAL``,
    every other player, a searched question (``ASK_CHOSEN*``) or asking required: the legal
    steps, after the question of A41 where the seat may ask."""
    if not picks_from_placements_nb(pol, mac, seat) or answer < -1:
        return LEGAL
    return PLACEMENTS if answer == 1 else SCORED


@turn_step
def step_loop_nb(mac, S, A, buf, pol, params, seat):
    """Meld steps until the player stops or a step ends the turn (GOES_OUT, TALON_LAST);
    returns how the phase ended (GOES_ON when he stopped).  A step's kind is the one its
    legality check found (the scored walk's), else :func:`.steps.step_kind_nb`'s, going out
    allowed unless the turn's answer forbids it (A41).  A tentative opening that can no
    longer stand stops (:func:`opening_lost_after_nb`)."""
    while True:
        source = step_source_nb(pol, mac, seat, A.x[X_TURN_ANSWER])
        kind = UNKNOWN_KIND
        if source == SCORED:
            pending = A.x[X_TENTATIVE] == 1 and not opening_stands_nb(mac, S, A, seat)
            i, kind = scored_step_nb(pol, params, mac, S, A, seat, pending)
        else:
            i = listed_step_nb(mac, S, A, buf, pol, params, seat, source)
        if i < 0:
            return GOES_ON
        row = A.steps[i, 0]
        nat = A.steps[i, 1]
        deuces = A.steps[i, 2]
        jokers = A.steps[i, 3]
        if kind == UNKNOWN_KIND:                  # A41: no going out after a "no"
            kind = step_kind_nb(mac, S, A, seat, row, nat, deuces, jokers,
                                A.x[X_TURN_ANSWER] != 0)
        apply_step_nb(S, A, buf, seat, row, nat, deuces, jokers)
        if kind != GOES_ON:
            return kind
        if deuces + jokers > 0 and opening_lost_after_nb(mac, S, A, pol, seat):
            return GOES_ON


@turn_step
def opening_lost_after_nb(mac, S, A, pol, seat):
    """After a meld step with wild cards (the only kind that can dirty the last clean triple):
    whether the seat, playing ``greedy`` or a club player, should stop a tentative opening
    that can no longer stand (:func:`.initial.opening_lost_nb`): its further steps would
    only be put back with it.  Those players draw nothing at random and keep no state, so
    stopping early leaves every row as it was; any other player plays its try out."""
    if A.x[X_TENTATIVE] == 0 or not plays_by_scores_nb(pol, seat):
        return False
    hand = A.pre if A.x[X_PRE_ONLY] else S.hands[seat]
    return opening_lost_nb(mac, S.melds, seat % 2, A.laid, A.x[X_TURN_TAKE_ROW], hand)


@turn_step
def listed_step_nb(mac, S, A, buf, pol, params, seat, source):
    """The step the seat's player picks from a list (``source``, :func:`step_source_nb`:
    ``PLACEMENTS``, every placement; ``LEGAL``, the legal steps, after the question of A41
    where it may ask): its index in ``A.steps``, or -1 to stop."""
    if source == PLACEMENTS:
        n = placements_nb(mac, S, A, seat, unwanted_rows_nb(pol, params, mac, S, seat))
    else:                                            # the legal list: a question (A41)
        n = legal_steps_nb(mac, S, A, seat, A.x[X_TURN_ANSWER] != 0)
        if A.x[X_TURN_ANSWER] < 0 and A.x[X_TENTATIVE] == 0:
            n = ask_partner_nb(mac, S, A, buf, pol, params, seat, n)
    pending = A.x[X_TENTATIVE] == 1 and not opening_stands_nb(mac, S, A, seat)
    bound = A.x[X_TURN_ANSWER] == 1                # A41: a yes binds him to go out
    i = pick_step_nb(pol, params, mac, S, A, seat, n, pending or bound)
    if i < 0 and bound and n > 0:
        i = 0
    return i


@turn_step
def ask_partner_nb(mac, S, A, buf, pol, params, seat, n):
    """A41: when the seat could go out by one of its ``n`` steps, it may ask its partner first
    (must, with ``ask_permission=required``, while its asks last: a player who may ask and
    does not, may not go out that turn); the answer binds for the turn: yes leaves only the
    going-out steps and the player must take one, no removes them.  A searched question
    (``ASK_CHOSEN*`` in ``X_TURN_ANSWER``) is asked here whatever the player would do.
    Returns the steps left."""
    if row_total_nb(S.hands[seat]) > 10 or not may_ask_nb(mac, A, seat):
        return n
    return question_nb(mac, S, A, buf, pol, params, seat, n)


@kernel
def question_nb(mac, S, A, buf, pol, params, seat, n):
    """:func:`ask_partner_nb` once the seat may ask (A41).  A call, not inlined: it is reached
    at most once a turn, late in a deal, and holds a whole decision of each player (compile
    time)."""
    outs = 0
    for i in range(n):
        outs += 1 if is_out_step_nb(mac, S, A, seat, i) else 0
    if outs == 0:
        return n
    chosen = A.x[X_TURN_ANSWER]
    required = mac.ask_permission == Ask.REQUIRED
    if (chosen == -1 or chosen == ASK_OWN_NO) and \
            not asks_partner_nb(pol, params, mac, S, A, seat, n, required):
        if not required:
            return n
        A.x[X_TURN_ANSWER] = 0                  # did not ask: may not go out this turn
        return legal_steps_nb(mac, S, A, seat, False)
    answer = answer_of_nb(pol, params, mac, S, A, seat, chosen)
    A.x[X_ASKED + seat] = 1
    A.x[X_TURN_ANSWER] = answer
    ev_simple_nb(S.st, buf, EV_ASK, seat, answer, 0)
    if answer == 1:
        return keep_out_steps_nb(mac, S, A, seat, n)                     # A41: binding
    return legal_steps_nb(mac, S, A, seat, False)


@turn_step
def answer_of_nb(pol, params, mac, S, A, seat, chosen):
    """A41: the answer (1 yes, 0 no) to ``seat``'s question: a searched one's (``chosen``:
    ``ASK_CHOSEN_NO``, ``ASK_CHOSEN_YES``, ``ASK_OWN_NO``), else its partner's player's."""
    if chosen == ASK_CHOSEN_YES:
        return 1
    if chosen == ASK_CHOSEN_NO or chosen == ASK_OWN_NO:
        return 0
    return 1 if answers_yes_nb(pol, params, mac, S, A, (seat + 2) % 4) else 0


@turn_step
def settle_opening_nb(mac, S, A, buf, seat):
    """End a tentative opening: if it stands the side has melded (A26, A27) and its lines are
    written; else everything goes back.  Returns whether it stood."""
    if opening_stands_nb(mac, S, A, seat):
        S.sidev[seat % 2, SIDE_MELDED] = 1
        A.x[X_TENTATIVE] = 0
        A.x[X_PRE_ONLY] = 0
        return True
    undo_tentative_nb(S, A, seat)
    A.x[X_TURN_OPENING] = 0
    A.x[X_TURN_TALON] = TALON_NONE
    return False


@turn_step
def take_opening_possible_nb(mac, S, seat):
    """Whether an opening could stand with a take of the pile (A26: from the cards held
    before the take, less the pair): :func:`.initial.opening_possible_nb`."""
    side = seat % 2
    top = S.pile[S.st[ST_PILE_N] - 1]
    hand = S.hands[seat]
    hand[top] -= 2
    ok = opening_possible_nb(mac, S.melds, side, hand, top, S.sidev[side, SIDE_MINIMUM])
    hand[top] += 2
    return ok


@kernel
def take_with_opening_nb(mac, S, A, buf, pol, params, seat):
    """A26: a side that has not melded takes the pile only with its whole opening laid from
    the cards held before the take.  Tries it; returns whether the take stands (else nothing
    happened and the player draws).  A call, not inlined: a take by a side that has not
    melded is rare (about once a deal), and inlined it copied the whole meld phase into the
    draw (compile time)."""
    x = A.x
    x[X_TURN_OPENING] = 1
    x[X_TURN_TOOK] = 1
    x[X_TURN_TALON] = TALON_NONE                        # A32: no talon after a take
    begin_tentative_nb(S, A, seat, 1)
    top = begin_take_nb(S, A, seat)
    x[X_TURN_TAKE_ROW] = top
    step_loop_nb(mac, S, A, buf, pol, params, seat)
    if settle_opening_nb(mac, S, A, buf, seat):
        finish_take_nb(S, A, buf, seat, top)
        return True
    x[X_TURN_TOOK] = 0
    x[X_TURN_TAKE_ROW] = -1
    return False


@turn_step
def count_take_nb(A, seat):
    """Book a pile take."""
    A.x[X_SEAT_TAKES + seat] += 1
    A.x[X_SIDE_TAKES + seat % 2] += 1


@turn_step
def take_open_nb(mac, S, seat):
    """Whether the seat may take the pile now and still finish its turn (A16, A29, A30, A39;
    a side that has not melded must also open, A26, which the take then tries)."""
    return may_take_nb(mac, S, seat) and take_leaves_turn_nb(mac, S, seat)


@turn_step
def draw_phase_nb(mac, S, A, buf, pol, params, seat, take):
    """A12-A14, A43, A44: take the pile (where allowed and wanted) or draw.  ``take``: -1 the
    player decides, 1 take where allowed, 0 draw (a searched choice, kernels/play/american/
    rollout.py).  Returns CONTINUE, or DEAL_OVER when the stock is gone and the player does
    not take (A44) or a three meets an empty stock (A43)."""
    st = S.st
    x = A.x
    if take != 0 and take_open_nb(mac, S, seat) and \
            (take == 1 or takes_pile_nb(pol, params, mac, S, A, seat)):
        if melded_nb(S, seat):
            x[X_TURN_TOOK] = 1
            top = begin_take_nb(S, A, seat)
            x[X_TURN_TAKE_ROW] = top
            finish_take_nb(S, A, buf, seat, top)
            count_take_nb(A, seat)
            return CONTINUE
        if take_opening_possible_nb(mac, S, seat) and \
                take_with_opening_nb(mac, S, A, buf, pol, params, seat):
            count_take_nb(A, seat)
            return CONTINUE
    if stock_left_nb(st) == 0:
        st[ST_END_REASON] = END_STOCK                                    # A44
        return DEAL_OVER
    card = draw_card_nb(S, A, buf, seat)
    x[X_TURN_DREW] = 1
    if card == RED3 or card == BLACK3:                                   # a three drawn: A9
        keep = keep_choice_nb(mac, S, A, pol, params, seat)
        if lay_threes_nb(S, A, buf, seat, keep, 1, THREE_FROM_STOCK, 0) != LAID:
            st[ST_END_REASON] = END_STOCK                                # A43
            return DEAL_OVER
        A.x[X_KEPT + seat] = threes_in_nb(S.hands[seat])
    x[X_TURN_STOCK] = stock_left_nb(st)
    return CONTINUE


@turn_step
def special_phase_nb(mac, S, A, buf, pol, params, seat):
    """A52, A53: a player whose side has not melded, who drew this turn and holds 14 cards
    that make a special hand, may lay it; the deal ends.  Returns whether he did."""
    hand = S.hands[seat]
    if melded_nb(S, seat) or A.x[X_TURN_DREW] == 0 or row_total_nb(hand) != 14:
        return False
    code, points = special_hand_nb(mac, hand, A.sizes)
    if code == NONE or not lays_special_nb(pol, params, mac, S, A, seat):
        return False
    pos = ev_begin_nb(S.st, buf, EV_SPECIAL, seat, code, points)
    for k in range(NKINDS):
        for _ in range(hand[k]):
            ev_push_nb(S.st, buf, pos, k)
    A.x[X_SPECIAL_SEAT] = seat
    A.x[X_SPECIAL_CODE] = code
    A.x[X_SPECIAL_POINTS] = points
    S.st[ST_END_REASON] = END_SPECIAL
    return True


@turn_step
def close_melds_nb(mac, S, A, buf, seat, kind):
    """The end of the meld steps that ended as ``kind``: a tentative opening settled (its
    lines written if it stands, else put back: GOES_ON), as :func:`meld_phase_nb` ends them.
    Returns GOES_ON or GOES_OUT (TALON_LAST reads GOES_ON)."""
    if A.x[X_TENTATIVE] == 1:
        if not settle_opening_nb(mac, S, A, buf, seat):
            return GOES_ON
        write_logged_melds_nb(S, A, buf, seat)
    return GOES_ON if kind == TALON_LAST else kind


@turn_step
def begin_opening_nb(mac, S, A, seat):
    """A25, A32: the meld steps of a drawing turn whose side has not melded start its
    tentative opening and fix the talon it would earn."""
    side = seat % 2
    x = A.x
    x[X_TURN_OPENING] = 1
    x[X_TURN_TALON] = talon_earned_nb(x[X_TURN_STOCK], False,
                                      S.sidev[1 - side, SIDE_MELDED] == 1,
                                      x[X_SIDE_TALON + side] > 0)      # A32
    if talon_size_nb(mac, x[X_TURN_TALON]) == 0:
        x[X_TURN_TALON] = TALON_NONE                    # a talon of no cards is none (A17)
    begin_tentative_nb(S, A, seat, 0)


@turn_step
def meld_phase_nb(mac, S, A, buf, pol, params, seat):
    """A15-A17, A24-A28: the meld steps; a side that has not melded opens tentatively (module
    docstring).  Returns GOES_ON, GOES_OUT or TALON_LAST."""
    side = seat % 2
    opening = not melded_nb(S, seat)
    if opening:
        if not tries_opening_nb(pol, params, mac, S, seat):
            return GOES_ON
        if not plays_by_scores_nb(pol, seat) and not opening_possible_nb(
                mac, S.melds, side, S.hands[seat], -1, S.sidev[side, SIDE_MINIMUM]):
            return GOES_ON          # (greedy's and the club players' try checked more above)
        begin_opening_nb(mac, S, A, seat)
    kind = step_loop_nb(mac, S, A, buf, pol, params, seat)     # one place: it is inlined
    if not opening:
        return kind
    if settle_opening_nb(mac, S, A, buf, seat):
        write_logged_melds_nb(S, A, buf, seat)
        return kind
    return GOES_ON


@turn_step
def legal_discards_nb(mac, S, A, seat):
    """A35-A38: the kinds ``seat`` may discard to end its turn, into ``S.ws[WS_ORDER]``;
    returns how many."""
    return legal_discard_kinds_nb(mac, S.melds, seat % 2, S.hands[seat],
                                  pile_empty_at_discard_nb(S, A), S.ws[WS_ORDER])


@turn_step
def discard_phase_nb(mac, S, A, buf, pol, params, seat, kind, card):
    """A18, A33, A39: go out with the last card, or discard a legal card (``card`` >= 0: that
    one, a searched choice; else the player's); after the discard that ends an opening turn
    that earned it, the talon (A33).  Returns CONTINUE or DEAL_OVER."""
    hand = S.hands[seat]
    if kind == GOES_OUT:
        for k in range(NKINDS):
            if hand[k] > 0:
                go_out_nb(S, A, buf, seat, k)                            # A39
                return DEAL_OVER
    n = legal_discards_nb(mac, S, A, seat)
    if n == 0:                      # the safety net, never reached in a checked soak
        S.st[ST_CHECK_FAILS] += 1
        S.st[ST_END_REASON] = END_STOCK
        return DEAL_OVER
    if card < 0:
        card = pick_discard_nb(pol, params, mac, S, A, seat, S.ws[WS_ORDER], n)
    discard_nb(S, A, buf, seat, card)
    if A.x[X_TURN_TALON] != TALON_NONE and A.x[X_TURN_OPENING] == 1:
        give_talon_nb(mac, S, A, buf, seat, A.x[X_TURN_TALON])          # A33
    return CONTINUE


@turn_step
def open_turn_nb(mac, S, A, buf, pol, params, seat):
    """The start of ``seat``'s turn (A12): the turn's slots cleared, its threes laid (A9,
    A10).  Returns CONTINUE or DEAL_OVER (A43)."""
    begin_turn_nb(A)
    S.st[ST_TURNS] += 1
    if start_threes_nb(mac, S, A, buf, pol, params, seat) != LAID:
        S.st[ST_END_REASON] = END_STOCK                                  # A43
        return DEAL_OVER
    return CONTINUE


@turn_step
def draw_part_nb(mac, S, A, buf, pol, params, seat, take):
    """The take or the draw (``take`` as :func:`draw_phase_nb`), then a special hand (A52).
    Returns CONTINUE or DEAL_OVER."""
    if draw_phase_nb(mac, S, A, buf, pol, params, seat, take) == DEAL_OVER:
        return DEAL_OVER
    if special_phase_nb(mac, S, A, buf, pol, params, seat):
        return DEAL_OVER
    return CONTINUE


@turn_step
def melds_part_nb(mac, S, A, buf, pol, params, seat, hold):
    """After the draw: the meld steps; returns GOES_OUT (a take that left one card, A39, or an
    out step) or GOES_ON.  ``hold``: the seat may not go out this turn (a searched choice; the
    turn then reads as after a partner's "no", A41)."""
    if A.x[X_TURN_TOOK] == 1 and row_total_nb(S.hands[seat]) == 1:
        return GOES_OUT                                                  # A39, a take
    if hold:
        A.x[X_TURN_ANSWER] = 0
    kind = meld_phase_nb(mac, S, A, buf, pol, params, seat)
    return GOES_ON if kind == TALON_LAST else kind


@turn_step
def play_turn_nb(mac, S, A, buf, pol, params, seat):
    """One turn of ``seat`` (A12); returns CONTINUE or DEAL_OVER."""
    if open_turn_nb(mac, S, A, buf, pol, params, seat) == DEAL_OVER:
        return DEAL_OVER
    if draw_part_nb(mac, S, A, buf, pol, params, seat, -1) == DEAL_OVER:
        return DEAL_OVER
    kind = melds_part_nb(mac, S, A, buf, pol, params, seat, False)
    return discard_phase_nb(mac, S, A, buf, pol, params, seat, kind, -1)


@turn_step
def turn_checked_nb(mac, S, A, over, turns):
    """After a turn of a deal: the cards counted (A2) when the check is on, and the safety net
    (a deal of ``turns`` turns is over).  Returns whether the deal is over."""
    st = S.st
    if st[ST_CHECK_ON] == 1 and not mac_cards_conserved_nb(mac, S, A.threes,
                                                           A.x[X_TALONS_TAKEN]):
        st[ST_CHECK_FAILS] += 1
    if turns >= MAX_TURNS and not over:
        st[ST_CHECK_FAILS] += 1          # the safety net: the deal did not end
        st[ST_END_REASON] = END_STOCK
        return True
    return over


@kernel
def side_total_nb(mac, S, A, side):
    """The ended deal's score of ``side`` (A45-A53), its items into ``A.items[side]``."""
    items = A.items[side]
    special_seat = A.x[X_SPECIAL_SEAT]
    out_seat = S.st[ST_OUT_SEAT]
    if special_seat >= 0 and special_seat % 2 == side:
        score_special_nb(A.x[X_SPECIAL_POINTS], items)                  # A53
    else:
        score_side_nb(mac, S.melds, side, A.threes, S.hands, side, side + 2,
                      out_seat >= 0 and out_seat % 2 == side, items)
    return items[I_TOTAL]


@kernel
def play_to_end_nb(mac, S, A, buf, pol, params, seat, limit):
    """Play the deal from ``seat``'s turn, every seat by its policy in ``pol`` (none of them
    ``search``: the rollouts of kernels/play/american/rollout.py): to its end, or ``limit``
    turns (MAX_TURNS: to its end).  Returns whether the deal ended."""
    over = False
    turns = 0
    while not over and turns < limit:
        over = play_turn_nb(mac, S, A, buf, pol, params, seat) == DEAL_OVER
        seat = seat + 1 if seat + 1 < mac.num_players else 0
        turns += 1
        over = turn_checked_nb(mac, S, A, over, turns)
    return over
