"""Cards of Modern American Canasta as trace tokens: the deck, card values, SWAD cards and the
special hands, written from the rules (A2, A3, A36, A51), never from the kernels."""
from __future__ import annotations

from collections import Counter

NATURALS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""The natural ranks (A2.4 terms)."""
WILDS = ("2", "JK")
THREES = ("3r", "3b")
WILD_RANK = "JK"
"""The rank token of a side's wild meld (docs/american.md, reading 4)."""
CANASTA = 7
"""A19: a canasta is a meld of seven cards."""
_VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
           "7": 5, "6": 5, "5": 5, "4": 5}


def card_value(token: str, rules) -> int:
    """A3: a card's value; a three (left in a hand) counts ``black3_card_value`` (reading 9)."""
    return rules.black3_card_value if token in THREES else _VALUES[token]


def deck(rules) -> Counter:
    """A2: two packs and four jokers (as the rule set's deck knobs say)."""
    cards = Counter({t: 4 * rules.num_packs for t in NATURALS + ("2",)})
    cards["3r"] = cards["3b"] = 2 * rules.num_packs
    cards["JK"] = rules.num_jokers
    return cards


def is_wild(token: str) -> bool:
    """A wild card: a 2 or a joker."""
    return token in WILDS


def is_natural(token: str) -> bool:
    """A natural card: 4 .. A."""
    return token in NATURALS


# ---- special hands (A51) ---------------------------------------------------------------------

CLA_POINTS = {"pairs": 2500, "wild_pairs": 2000, "miami_pairs": 2500, "zip_code": 2500,
              "straight": 3000, "garbage": 3000, "blast_off": 3000, "triples": 3500,
              "quads": 3500, "dream_plus_4": 8500, "dream_plus_5": 8500}
PAGAT_POINTS = {"straight": 3000, "pairs": 2500, "wild_pairs": 2000, "garbage": 2000}
DREAM_HANDS = ("dream_plus_4", "dream_plus_5")
SPECIAL_SIZE = 14
"""A52: a special hand is fourteen cards."""

_GROUPS = {  # natural group sizes; whether one of them may be a wild group instead
    "pairs": ((2,) * 7, False), "zip_code": ((2, 2, 3, 3, 4), True),
    "garbage": ((3, 3, 4, 4), False), "blast_off": ((2, 3, 4, 5), True),
}


def special_points(rules) -> dict:
    """A51: the special hands of the rule set's ``mac_special_hands`` and their values."""
    return {"cla": CLA_POINTS, "pagat": PAGAT_POINTS}.get(rules.mac_special_hands, {})


def _natural_groups(hand: Counter) -> list:
    """The sizes of the hand's natural groups: every card of a rank in one group (reading 10)."""
    return sorted(hand[r] for r in NATURALS if hand[r] > 0)


def _wild_pair(hand: Counter, pagat: bool) -> bool:
    """A51: the hand's wild cards are one wild pair, 2-2 or joker-joker (pagat: 2-2 only)."""
    return (hand["2"], hand["JK"]) == (2, 0) or (not pagat and (hand["2"], hand["JK"]) == (0, 2))


def _grouped(hand: Counter, sizes: tuple, wild_group: bool) -> bool:
    """Natural groups of exactly ``sizes``, or with ``wild_group`` one of them made of the
    hand's wild cards (at most one wild group, any mix of 2s and jokers, except that a wild
    group of two is a wild pair, 2-2 or joker-joker: reading 10)."""
    wilds = hand["2"] + hand["JK"]
    groups = _natural_groups(hand)
    if wilds == 0:
        return groups == sorted(sizes)
    if not wild_group or wilds not in sizes or (wilds == 2 and not _wild_pair(hand, False)):
        return False
    rest = list(sizes)
    rest.remove(wilds)
    return groups == sorted(rest)


def fits_special(name: str, hand: Counter, pagat: bool = False) -> bool:
    """A51: whether the 14 cards of ``hand`` are the special hand ``name``."""
    hand = +hand
    if sum(hand.values()) != SPECIAL_SIZE:
        return False
    if name == "straight":
        return all(hand[r] == 1 for r in NATURALS + WILDS) and hand["3r"] + hand["3b"] == 1
    if hand["3r"] + hand["3b"] > 0:
        return False
    if name in _GROUPS:
        return _grouped(hand, *_GROUPS[name])
    groups = _natural_groups(hand)
    if name == "wild_pairs":
        return _wild_pair(hand, pagat) and hand["A"] == 2 and hand["7"] == 2 and groups == [2] * 6
    if name == "miami_pairs":
        return (hand["2"], hand["JK"], hand["A"], hand["7"]) == (2, 2, 2, 2) and groups == [2] * 5
    if name in ("triples", "quads"):
        return _wild_pair(hand, False) and groups == ([3] * 4 if name == "triples" else [4] * 3)
    wilds = hand["2"] + hand["JK"]
    if name == "dream_plus_4":
        return wilds == 4 and groups == [5, 5]
    if name == "dream_plus_5":
        return wilds == 5 and groups == [4, 5]
    return False


def best_special(hand: Counter, rules) -> tuple:
    """(name, points) of the highest-valued special hand of the rule set that ``hand`` is
    (reading 10), or (None, 0)."""
    pagat = rules.mac_special_hands == "pagat"
    best = (None, 0)
    for name, points in special_points(rules).items():
        if points > best[1] and fits_special(name, hand, pagat):
            best = (name, points)
    return best
