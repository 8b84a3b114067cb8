"""What a Modern American move does to the state, and the trace line it writes: threes laid
(A9-A11, A43), the draw (A13), a meld step (A15), the pile take (A29-A31), a tentative opening
put back (A25, A26), the discard (A35-A39), going out, the talon (A32-A34) and the turn card
(A7).  Which move is made is the players' choice; whether it is legal is :mod:`.steps`'s and
the rule pieces'.

Trace events (kernels/game/layout.py ``EV_*``; canasta_sim/trace.py writes them as the lines of
docs/american.md): ``EV_THREE`` (a = from: THREE_FROM_*, b = replacement or -1; cards = the
three), ``EV_TALON`` (a = size; cards), ``EV_TURN_CARD`` (a = stock left), ``EV_SPECIAL``
(a = code, b = points; cards = the hand), ``EV_DISCARD`` (b = 1 when the pile was empty).
"""
from ...jit import kernel
from ..cards import BLACK3, DEUCE, JOKER, RED3
from ..layout import (
    END_OUT,
    EV_DISCARD,
    EV_DRAW,
    EV_MELD,
    EV_OUT,
    EV_TAKE,
    EV_TALON,
    EV_THREE,
    EV_TURN_CARD,
)
from ..slots import (
    M_COLS,
    M_NAT,
    M_SIZE,
    ST_DECK_N,
    ST_END_REASON,
    ST_OUT_SEAT,
    ST_PILE_N,
    ST_STOCK_POS,
)
from ..trace_events import ev_begin_nb, ev_push_cards_nb, ev_push_nb, ev_simple_nb
from .melds import place_nb
from .pile import (
    set_aside_start_nb,
    stock_left_nb,
    take_talon_nb,
    talon_size_nb,
    turn_card_drawn_nb,
)
from .rules_nb import TalonSource
from .state import (
    MAX_LOG,
    X_NLOG,
    X_PRE_ONLY,
    X_SIDE_TALON,
    X_TALONS_TAKEN,
    X_TENTATIVE,
    X_THREES_DEALT,
    X_TURN_CARD,
    X_TURN_FRESH,
)
from .threes import BLACK, RED

THREE_FROM_DEAL = 0
THREE_FROM_STOCK = 1
THREE_FROM_KEPT = 2
THREE_SOURCES = ("deal", "stock", "kept")
LAID = 0            # lay_threes_nb: every three due was laid
STOCK_OUT = 1       # A43: a three met an empty stock; the deal ends at once


@kernel
def note_turn_card_nb(S, A, buf, seat):
    """A7: the first time the stock holds 8 cards or fewer, write ``turn_card``."""
    left = stock_left_nb(S.st)
    if A.x[X_TURN_CARD] == 0 and turn_card_drawn_nb(left):
        A.x[X_TURN_CARD] = 1
        ev_simple_nb(S.st, buf, EV_TURN_CARD, seat, left, 0)


@kernel
def lay_one_three_nb(S, A, buf, seat, keep, source):
    """Lay one three of ``seat``'s hand (a red one, unless a red one is kept, A10 reading 15)
    and replace it from the stock (A9).  Returns STOCK_OUT if the stock is empty: the three
    stays in the hand (A43) and its line has no replacement."""
    hand = S.hands[seat]
    st = S.st
    colour = RED3
    if hand[RED3] == 0 or (keep > 0 and hand[RED3] == 1 and hand[BLACK3] > 0):
        colour = BLACK3
    if st[ST_STOCK_POS] >= st[ST_DECK_N]:                               # A43
        pos = ev_begin_nb(st, buf, EV_THREE, seat, source, -1)
        ev_push_nb(st, buf, pos, colour)
        return STOCK_OUT
    side = seat % 2
    hand[colour] -= 1
    A.threes[side, RED if colour == RED3 else BLACK] += 1               # A9, A47
    if source == THREE_FROM_DEAL:
        A.x[X_THREES_DEALT + side] += 1
    card = S.deck[st[ST_STOCK_POS]]
    st[ST_STOCK_POS] += 1
    hand[card] += 1
    pos = ev_begin_nb(st, buf, EV_THREE, seat, source, card)
    ev_push_nb(st, buf, pos, colour)
    note_turn_card_nb(S, A, buf, seat)
    return LAID


@kernel
def lay_threes_nb(S, A, buf, seat, keep, first_n, first_source, kept):
    """A9, A10: lay threes of ``seat``'s hand until ``keep`` (0 or 1) are left.  The first
    ``first_n`` laid come from the deal or a talon (with ``first_source``: THREE_FROM_DEAL on
    a seat's first turn under ``first_turn``, else FROM_STOCK); replacements that are threes
    come from the stock; a three ``kept`` from an earlier turn is laid last.  Returns LAID or
    STOCK_OUT (A43)."""
    hand = S.hands[seat]
    laid = 0
    drawn = 0
    while hand[RED3] + hand[BLACK3] > keep:
        if laid < first_n:
            source = first_source
        elif drawn > 0:
            source = THREE_FROM_STOCK
            drawn -= 1
        elif kept > 0:
            source = THREE_FROM_KEPT
            kept = 0
        else:
            source = THREE_FROM_STOCK
        before = hand[RED3] + hand[BLACK3]
        if lay_one_three_nb(S, A, buf, seat, keep, source) == STOCK_OUT:
            return STOCK_OUT
        laid += 1
        drawn += hand[RED3] + hand[BLACK3] - before + 1                 # a three replaced it
    return LAID


@kernel
def draw_card_nb(S, A, buf, seat):
    """A13: draw the top stock card into ``seat``'s hand, with its line.  Returns the kind."""
    st = S.st
    card = S.deck[st[ST_STOCK_POS]]
    st[ST_STOCK_POS] += 1
    S.hands[seat, card] += 1
    pos = ev_begin_nb(st, buf, EV_DRAW, seat, 0, 0)
    ev_push_nb(st, buf, pos, card)
    note_turn_card_nb(S, A, buf, seat)
    return card


@kernel
def apply_step_nb(S, A, buf, seat, row, nat, deuces, jokers):
    """A15: put the step's cards from ``seat``'s hand on its side's meld of ``row``.  Cards on
    a meld started this turn count for the opening (``laid``, A25); a tentative step is
    logged for the trace instead of written (A26: its line waits until the opening stands)."""
    side = seat % 2
    hand = S.hands[seat]
    x = A.x
    if S.melds[side, M_SIZE, row] == 0:
        x[X_TURN_FRESH] |= 1 << row
    if (x[X_TURN_FRESH] >> row) & 1:
        A.laid[M_NAT, row] += nat
        A.laid[1, row] += deuces
        A.laid[2, row] += jokers
        A.laid[M_SIZE, row] += nat + deuces + jokers
    place_nb(S.melds, side, row, nat, deuces, jokers)
    if nat > 0:
        hand[row] -= nat
    hand[DEUCE] -= deuces
    hand[JOKER] -= jokers
    if x[X_PRE_ONLY]:
        A.pre[row] -= nat
        A.pre[DEUCE] -= deuces
        A.pre[JOKER] -= jokers
    if x[X_TENTATIVE]:
        k = x[X_NLOG]
        if k < MAX_LOG:
            A.log[k, 0] = row
            A.log[k, 1] = nat
            A.log[k, 2] = deuces
            A.log[k, 3] = jokers
            x[X_NLOG] = k + 1
        return
    pos = ev_begin_nb(S.st, buf, EV_MELD, seat, row, 0)
    ev_push_cards_nb(S.st, buf, pos, row, nat, deuces, jokers)


@kernel
def copy_nb(dst, src):
    """Copy a row into another of the same length (no allocation)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@kernel
def begin_tentative_nb(S, A, seat, pre_only):
    """Start a tentative opening (A25, A26): remember the hand and the side's melds, so that
    :func:`undo_tentative_nb` can put them back if the opening does not stand."""
    side = seat % 2
    copy_nb(A.save_hand, S.hands[seat])
    for c in range(M_COLS):
        copy_nb(A.save_melds[c], S.melds[side, c])
    A.x[X_TENTATIVE] = 1
    A.x[X_PRE_ONLY] = pre_only
    A.x[X_NLOG] = 0


@kernel
def undo_tentative_nb(S, A, seat):
    """Put back the hand and melds of a tentative opening that did not stand."""
    side = seat % 2
    copy_nb(S.hands[seat], A.save_hand)
    for c in range(M_COLS):
        copy_nb(S.melds[side, c], A.save_melds[c])
    A.laid[:, :] = 0
    A.x[X_TURN_FRESH] = 0
    A.x[X_TENTATIVE] = 0
    A.x[X_PRE_ONLY] = 0
    A.x[X_NLOG] = 0


@kernel
def write_logged_melds_nb(S, A, buf, seat):
    """The ``meld`` lines of an opening that stands, one per logged step."""
    for k in range(A.x[X_NLOG]):
        pos = ev_begin_nb(S.st, buf, EV_MELD, seat, A.log[k, 0], 0)
        ev_push_cards_nb(S.st, buf, pos, A.log[k, 0], A.log[k, 1], A.log[k, 2], A.log[k, 3])


@kernel
def begin_take_nb(S, A, seat):
    """A29-A31: take the pile for ``seat``: the natural pair and the top card become (or join)
    the side's meld of the top card's rank, the rest of the pile joins the hand.  The pile's
    cards stay in ``S.pile`` until :func:`finish_take_nb` empties it (a tentative take of a
    side that has not melded may be put back, A26).  Returns the top card's rank."""
    st = S.st
    top = S.pile[st[ST_PILE_N] - 1]
    hand = S.hands[seat]
    copy_nb(A.pre, hand)
    A.pre[top] -= 2                                     # A26: the cards held before the take
    if S.melds[seat % 2, M_SIZE, top] == 0:
        A.x[X_TURN_FRESH] |= 1 << top
        A.laid[M_NAT, top] += 2                         # A25b: the pair is a hand card
        A.laid[M_SIZE, top] += 2
    hand[top] -= 2
    place_nb(S.melds, seat % 2, top, 3, 0, 0)           # A29: pair + top card
    for i in range(st[ST_PILE_N] - 1):
        hand[S.pile[i]] += 1                            # A31: the rest joins the hand
    return top


@kernel
def finish_take_nb(S, A, buf, seat, top):
    """Write the ``take`` line (the pile, the take meld, then the logged opening melds, A26)
    and empty the pile (A31)."""
    st = S.st
    n = st[ST_PILE_N]
    pos = ev_begin_nb(st, buf, EV_TAKE, seat, n, 1 + A.x[X_NLOG])
    for i in range(n):
        ev_push_nb(st, buf, pos, S.pile[i])
    ev_push_nb(st, buf, pos, top)
    ev_push_nb(st, buf, pos, 3)
    for _ in range(3):
        ev_push_nb(st, buf, pos, top)
    for k in range(A.x[X_NLOG]):
        row = A.log[k, 0]
        ev_push_nb(st, buf, pos, row)
        ev_push_nb(st, buf, pos, A.log[k, 1] + A.log[k, 2] + A.log[k, 3])
        ev_push_cards_nb(st, buf, pos, row, A.log[k, 1], A.log[k, 2], A.log[k, 3])
    st[ST_PILE_N] = 0
    A.x[X_NLOG] = 0


@kernel
def discard_nb(S, A, buf, seat, kind):
    """A18: put ``kind`` from ``seat``'s hand on the pile, with its line (b: the pile was
    empty, what A36 asks)."""
    st = S.st
    empty = 1 if st[ST_PILE_N] == 0 else 0
    S.hands[seat, kind] -= 1
    S.pile[st[ST_PILE_N]] = kind
    st[ST_PILE_N] += 1
    ev_simple_nb(st, buf, EV_DISCARD, seat, kind, empty)


@kernel
def go_out_nb(S, A, buf, seat, kind):
    """A39: the going-out discard of the last card; the deal ends at once."""
    discard_nb(S, A, buf, seat, kind)
    st = S.st
    st[ST_OUT_SEAT] = seat
    st[ST_END_REASON] = END_OUT
    ev_simple_nb(st, buf, EV_OUT, seat, 0, 0)


@kernel
def give_talon_nb(mac, S, A, buf, seat, which):
    """A33, A34: ``seat`` takes talon ``which`` into its hand after its discard, with its line
    (the cards are private to the seat: a public view shows the size only)."""
    st = S.st
    side = seat % 2
    if mac.mac_talon_source == TalonSource.SET_ASIDE:
        start = set_aside_start_nb(mac, which)
        end = start + talon_size_nb(mac, which)
    else:
        start = st[ST_STOCK_POS]
        end = min(start + talon_size_nb(mac, which), st[ST_DECK_N])
    pos = ev_begin_nb(st, buf, EV_TALON, seat, end - start, 0)
    for i in range(start, end):
        ev_push_nb(st, buf, pos, S.deck[i])
    n = take_talon_nb(mac, S.hands[seat], S.deck, st, which)
    A.x[X_TALONS_TAKEN] |= 1 << which
    A.x[X_SIDE_TALON + side] = n
    note_turn_card_nb(S, A, buf, seat)
