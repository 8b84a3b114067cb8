"""The legal choices of a Modern American turn, as lists the players pick from: the meld steps
(A15-A23, A25c, with A16's discard kept, A17's talon exception and A39's going out), the
discards (A35-A39), and whether the pile may be taken (A29, A30).

A meld step is one placement of :func:`.melds.meld_steps_nb`: some natural cards of one rank
and some wild cards onto the side's meld of that rank (a new meld if it has none) or wild
cards onto the wild meld.  A step is offered only if, after it, the player can still end his
turn legally:

* he keeps two cards or more, one of them a legal discard, and on an empty pile he keeps a
  non-SWAD card if he held one (A16);
* or he keeps one card that is not a three and his side may go out after the step (A39,
  A40): the step goes out, and the card is his going-out discard;
* or, in the turn of his side's opening that earns a talon, he keeps one card that is a legal
  discard (A17).

A meld that passes seven cards (``mac_allow_oversize_when_going_out``) is offered only as a
going-out step.
"""
from ...jit import kernel, turn_step
from ..cards import BLACK3, FIRST_NATURAL, NKINDS, RED3
from ..rules_nb import Ask
from ..slots import M_SIZE, ST_PILE_N, WS_HAND
from ..state import row_total_nb
from .discard import discard_ok_nb, holds_non_swad_nb, keeps_discard_nb, may_go_out_nb
from .melds import CANASTA, meld_steps_but_nb, place_nb
from .pile import TALON_NONE, can_take_nb
from .rules_nb import AskLimit
from .state import X_ASKED, X_PRE_ONLY, X_TURN_FRESH, X_TURN_OPENING, X_TURN_TALON, X_TURN_TOOK

GOES_ON = 0       # step_kind_nb: the player keeps cards to discard and keep
GOES_OUT = 1      # the step leaves his going-out discard (A39)
TALON_LAST = 2    # the step leaves one card under the talon exception (A17)
ILLEGAL = -1
UNKNOWN_KIND = -2  # a step whose kind is not worked out yet (the turn asks step_kind_nb)


@turn_step
def pile_empty_at_discard_nb(S, A):
    """Whether this turn's discard goes onto an empty pile (A36): the pile is empty, or the
    player took it this turn (A31)."""
    return S.st[ST_PILE_N] == 0 or A.x[X_TURN_TOOK] == 1


@kernel
def naturals_left_nb(hand, row, nat):
    """Natural cards (4 to ace) left in ``hand`` after ``nat`` of ``row`` are melded."""
    n = 0
    for k in range(FIRST_NATURAL, NKINDS):
        n += hand[k]
    return n - (nat if row >= FIRST_NATURAL else 0)


@turn_step
def step_kind_nb(mac, S, A, seat, row, nat, deuces, jokers, out_allowed):
    """How a step leaves ``seat``'s turn (GOES_ON, GOES_OUT, TALON_LAST) or ILLEGAL, by the
    conditions of the module docstring.  ``out_allowed``: the player may go out this turn
    (his partner did not forbid it, A41)."""
    side = seat % 2
    hand = S.hands[seat]
    melds = S.melds
    if not pile_empty_at_discard_nb(S, A) and \
            S.melds[side, M_SIZE, row] + nat + deuces + jokers <= CANASTA and \
            naturals_left_nb(hand, row, nat) >= 1 and \
            row_total_nb(hand) - nat - deuces - jokers >= 2:
        return GOES_ON               # A16, A38: a natural card is a legal discard on a pile
    after = S.ws[WS_HAND]
    for k in range(NKINDS):
        after[k] = hand[k]
    after[row] -= nat
    after[1] -= deuces
    after[0] -= jokers
    left = row_total_nb(after)
    pile_empty = pile_empty_at_discard_nb(S, A)
    had_non_swad = pile_empty and holds_non_swad_nb(mac, melds, side, hand)
    place_nb(melds, side, row, nat, deuces, jokers)
    kind = ILLEGAL
    oversize = melds[side, M_SIZE, row] > CANASTA
    if left >= 2 and not oversize:
        if keeps_discard_nb(mac, melds, side, after, pile_empty, had_non_swad, False):
            kind = GOES_ON                                                    # A16
    elif left == 1 and after[RED3] + after[BLACK3] == 0:
        if out_allowed and may_go_out_nb(mac, melds, side) and A.x[X_PRE_ONLY] == 0:
            kind = GOES_OUT                                                   # A39, A40
        elif A.x[X_TURN_TALON] != TALON_NONE and not oversize and \
                keeps_discard_nb(mac, melds, side, after, pile_empty, had_non_swad, True):
            kind = TALON_LAST                                                 # A17
    place_nb(melds, side, row, -nat, -deuces, -jokers)
    return kind


@turn_step
def placements_nb(mac, S, A, seat, skip_rows):
    """Write every placement :func:`.melds.meld_steps_nb` allows ``seat`` now into ``A.steps``
    (row, naturals, 2s, jokers), legal or not (:func:`is_legal_step_nb` tells), but none on
    the rows of bitmask ``skip_rows``; returns their number.  After a take by a side that has
    not melded, the opening's steps come from the cards held before the take (A26,
    ``X_PRE_ONLY``)."""
    x = A.x
    source = A.pre if x[X_PRE_ONLY] else S.hands[seat]
    oversize = mac.mac_allow_oversize_when_going_out
    return meld_steps_but_nb(mac, S.melds, seat % 2, source, x[X_TURN_FRESH],
                             x[X_TURN_OPENING] == 1, oversize == 1, A.steps, skip_rows)


@turn_step
def is_legal_step_nb(mac, S, A, seat, i, out_allowed):
    """Whether listed step ``i`` leaves ``seat`` a legal end to its turn (module docstring)."""
    return step_kind_nb(mac, S, A, seat, A.steps[i, 0], A.steps[i, 1], A.steps[i, 2],
                        A.steps[i, 3], out_allowed) != ILLEGAL


@turn_step
def legal_steps_nb(mac, S, A, seat, out_allowed):
    """Write ``seat``'s legal meld steps into ``A.steps`` (row, naturals, 2s, jokers): the
    placements of :func:`placements_nb` that :func:`is_legal_step_nb` keeps, in their order;
    returns their number."""
    n = placements_nb(mac, S, A, seat, 0)
    kept = 0
    for i in range(n):
        if is_legal_step_nb(mac, S, A, seat, i, out_allowed):
            for c in range(4):
                A.steps[kept, c] = A.steps[i, c]
            kept += 1
    return kept


@turn_step
def legal_discard_nb(mac, S, A, seat, kind):
    """A35-A38: may ``seat`` discard ``kind`` to end its turn (not going out)?"""
    return discard_ok_nb(mac, S.melds, seat % 2, S.hands[seat], kind,
                         pile_empty_at_discard_nb(S, A), False)


@turn_step
def may_take_nb(mac, S, seat):
    """A29, A30: whether ``seat`` may take the pile (a side that has not melded must also open
    in the same turn, A26: the turn tries that and puts it back if it fails)."""
    st = S.st
    n = st[ST_PILE_N]
    top = S.pile[n - 1] if n > 0 else -1
    return can_take_nb(mac, S.melds, seat % 2, S.hands[seat], top, n)


@turn_step
def is_out_step_nb(mac, S, A, seat, i):
    """Whether listed step ``i`` goes out (A39)."""
    return step_kind_nb(mac, S, A, seat, A.steps[i, 0], A.steps[i, 1], A.steps[i, 2],
                        A.steps[i, 3], True) == GOES_OUT


@turn_step
def keep_out_steps_nb(mac, S, A, seat, n):
    """Keep only the steps of ``A.steps[:n]`` that go out (A39); returns their number."""
    kept = 0
    for i in range(n):
        if is_out_step_nb(mac, S, A, seat, i):
            for c in range(4):
                A.steps[kept, c] = A.steps[i, c]
            kept += 1
    return kept


@turn_step
def may_ask_nb(mac, A, seat):
    """A41: whether ``seat`` may still ask its partner this deal (once per player, or once per
    side with ``mac_ask_limit=once_per_side``), and the rules let anyone ask."""
    if mac.ask_permission == Ask.NEVER or A.x[X_ASKED + seat] == 1:
        return False
    return mac.mac_ask_limit != AskLimit.ONCE_PER_SIDE or A.x[X_ASKED + (seat + 2) % 4] == 0
