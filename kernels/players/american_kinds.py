"""The kind of a Modern American canasta (A45): clean, dirty, clean aces, sevens or wild, as
the result columns count them and a user policy's view shows them (``user.CK_*``)."""
from ..game.american.melds import CANASTA, WILD_ROW, wilds_on_nb
from ..game.cards import ACE, SEVEN
from ..game.slots import M_SIZE
from ..jit import kernel
from .user import CK_ACES, CK_CLEAN, CK_DIRTY, CK_SEVENS, CK_WILD


@kernel
def canasta_kind_nb(melds, side, row):
    """The kind (``CK_*``) of ``side``'s meld of ``row`` (a natural rank or WILD_ROW) if it is
    a canasta, else -1."""
    if melds[side, M_SIZE, row] < CANASTA:
        return -1
    if row == WILD_ROW:
        return CK_WILD
    if wilds_on_nb(melds, side, row) > 0:
        return CK_DIRTY
    if row == ACE:
        return CK_ACES
    if row == SEVEN:
        return CK_SEVENS
    return CK_CLEAN
