"""Modern American's discards (A16, A17, A35-A39) and the conditions of going out (A40).

A **SWAD** card is a Seven, a Wild card, an Ace or a card of a Dead rank: none of them may be
discarded onto an empty pile, unless the player holds nothing else (A36, A37)."""
from ...jit import kernel
from ..cards import ACE, BLACK3, FIRST_NATURAL, NKINDS, RED3, SEVEN
from ..slots import M_SIZE
from ..state import row_total_nb
from .melds import CANASTA, WILD_ROW, canastas_nb, is_dead_nb, is_wild_nb, wilds_on_nb


@kernel
def is_swad_nb(mac, melds, side, kind):
    """A36: a seven, a wild card, an ace, or a card of a rank dead for ``side``."""
    if is_wild_nb(kind) or kind == SEVEN or kind == ACE:
        return True
    return kind >= FIRST_NATURAL and is_dead_nb(mac, melds, side, kind)


@kernel
def holds_non_swad_nb(mac, melds, side, hand):
    """Whether ``hand`` holds a natural card that is no SWAD card (A16, A36)."""
    for k in range(FIRST_NATURAL, NKINDS):
        if hand[k] > 0 and not is_swad_nb(mac, melds, side, k):
            return True
    return False


@kernel
def all_wild_nb(hand):
    """A37b: every card of a non-empty ``hand`` is wild."""
    n = row_total_nb(hand)
    return n > 0 and hand[0] + hand[1] == n


@kernel
def discard_ok_nb(mac, melds, side, hand, kind, pile_empty, going_out):
    """A35-A39: may a player of ``side`` holding ``hand`` discard a card of ``kind``?  Going out
    (his last card), anything but a three (A39, reading 13)."""
    if hand[kind] <= 0 or kind == RED3 or kind == BLACK3:               # A35, A11
        return False
    if going_out:                                                       # A39
        return True
    if is_wild_nb(kind):                                                # A37
        return all_wild_nb(hand)
    if not pile_empty:                                                  # A38
        return True
    if not is_swad_nb(mac, melds, side, kind):                          # A36
        return True
    return not holds_non_swad_nb(mac, melds, side, hand)                # A36 fallback


@kernel
def legal_discard_kinds_nb(mac, melds, side, hand, pile_empty, out):
    """A35-A38: the kinds a player of ``side`` holding ``hand`` may discard to end his turn
    (not going out), written to ``out`` in kind order; returns how many.  What
    :func:`discard_ok_nb` says of each kind, with what it reads of the whole hand (all wild,
    a non-SWAD card held) read once."""
    all_wild = all_wild_nb(hand)
    non_swad = pile_empty and holds_non_swad_nb(mac, melds, side, hand)
    n = 0
    for k in range(NKINDS):
        if hand[k] <= 0 or k == RED3 or k == BLACK3:                    # A35, A11
            continue
        if is_wild_nb(k):
            ok = all_wild                                               # A37
        else:
            ok = not (non_swad and is_swad_nb(mac, melds, side, k))     # A36, A38
        if ok:
            out[n] = k
            n += 1
    return n


@kernel
def has_legal_discard_nb(mac, melds, side, hand, pile_empty):
    """Whether some card of ``hand`` is a legal discard (not going out): any natural card, on
    any pile (A38; on an empty one a SWAD card only when nothing else is held, which A36
    then allows), or a wild card when every card is wild (A37b): what :func:`discard_ok_nb`
    says of the kinds held, without asking it kind by kind."""
    for k in range(FIRST_NATURAL, NKINDS):
        if hand[k] > 0:
            return True
    return all_wild_nb(hand)


@kernel
def keeps_discard_nb(mac, melds, side, hand_after, pile_empty, had_non_swad, talon_exception):
    """A16, A17: may a meld leave the player with ``hand_after``?  He must hold a legal discard
    and a card to keep (two cards; one under the talon exception of A17), and on an empty
    pile he may not meld away his last non-SWAD card if he held one (A16)."""
    need = 1 if talon_exception else 2
    if row_total_nb(hand_after) < need:
        return False
    if not has_legal_discard_nb(mac, melds, side, hand_after, pile_empty):
        return False
    if pile_empty and had_non_swad:
        return holds_non_swad_nb(mac, melds, side, hand_after)
    return True


@kernel
def blocks_going_out_nb(melds, side):
    """A40: ``side`` has an incomplete clean ace meld, sevens meld or wild meld."""
    if 0 < melds[side, M_SIZE, WILD_ROW] < CANASTA:
        return True
    if 0 < melds[side, M_SIZE, SEVEN] < CANASTA:
        return True
    return 0 < melds[side, M_SIZE, ACE] < CANASTA and wilds_on_nb(melds, side, ACE) == 0


@kernel
def may_go_out_nb(mac, melds, side):
    """A40: ``side`` has ``canastas_to_go_out`` canastas and nothing that blocks going out."""
    return canastas_nb(melds, side) >= mac.canastas_to_go_out and \
        not blocks_going_out_nb(melds, side)
