"""Slow, plainly written Python versions of Modern American's meld and discard rules, written
from the rules text (docs/american.md, A19-A23, A25c, A35-A39) without the kernels' code, so
that tests/test_american_naive.py can compare the two on every small position.

A meld is a dict ``{"nat": n, "deuce": d, "joker": j}``; ranks are the tokens "4".."A" and
"wild" for the wild meld."""

NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def size(meld):
    """Cards on a meld."""
    return meld["nat"] + meld["deuce"] + meld["joker"]


def wilds(meld):
    """Wild cards on a meld."""
    return meld["deuce"] + meld["joker"]


def dead(tables, side, rank, scope="both"):
    """A22: a canasta (7+ cards) of the rank on either side (``own``: on the side's own)."""
    sides = [side] if scope == "own" else list(tables)
    return any(size(tables[s].get(rank, _EMPTY)) >= 7 for s in sides)


_EMPTY = {"nat": 0, "deuce": 0, "joker": 0}


def may_place(tables, side, rank, add, *, laid_this_turn, opening_turn, going_out,
              rule_of_five=True, max_wilds=2, oversize=False, scope="both"):
    """Whether the cards ``add`` (a meld dict) may go onto ``side``'s meld of ``rank``."""
    before = tables[side].get(rank, _EMPTY)
    after = {k: before[k] + add[k] for k in before}
    placed_wild = wilds(add) > 0
    if size(add) == 0:
        return False
    if dead(tables, side, rank, scope):                     # nothing goes onto a dead rank
        return False
    if size(after) < 3:                                     # a meld has three cards at least
        return False
    if size(after) > 7 and not (going_out and oversize):   # never more than seven
        return False
    if rank == "wild":                                      # wild cards only, in any mix
        return add["nat"] == 0
    if after["nat"] < 2 or wilds(after) > max_wilds:        # two naturals, at most two wilds
        return False
    if opening_turn and size(after) >= 7 and wilds(after) > 0:
        return False                                        # no dirty canasta when opening
    if not placed_wild:
        return True
    if rank == "7":                                         # sevens stay clean
        return False
    wild_meld = tables[side].get("wild", _EMPTY)
    if 0 < size(wild_meld) < 7:                             # the wild meld comes first
        return False
    new_opening_meld = opening_turn and laid_this_turn
    if rank == "A" and wilds(before) == 0 and not new_opening_meld:
        return False                                        # a clean ace meld stays clean
    if rule_of_five and not new_opening_meld and after["nat"] < 5:
        return False
    return True


def swad(tables, side, card, scope="both"):
    """A36: seven, wild, ace or a dead rank."""
    return card in ("7", "2", "JK", "A") or (card in NATURAL_RANKS and
                                             dead(tables, side, card, scope))


def may_discard(tables, side, hand, card, *, pile_empty, going_out):
    """A35-A39: may a card of ``card`` be discarded from ``hand`` (a list of tokens)?"""
    if card not in hand or card in ("3r", "3b"):
        return False
    if going_out:
        return True
    if card in ("2", "JK"):
        return all(c in ("2", "JK") for c in hand)
    if not pile_empty or not swad(tables, side, card):
        return True
    return not any(c in NATURAL_RANKS and not swad(tables, side, c) for c in hand)
