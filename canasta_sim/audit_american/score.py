"""Scoring a Modern American deal from the replayed table (A42, A45-A49, A53): the ``score``
line of docs/trace.md's family section, recomputed item by item."""
from __future__ import annotations

from .cards import CANASTA, WILD_RANK, card_value, is_wild

SCORE_FIELDS = ("canastas", "canasta_bonus", "out", "melds", "threes", "incomplete", "hand",
                "hand_penalty", "special", "total")
"""The fields of one side's score object, in the trace's order (A4b)."""
RULE_OF_FIELD = {"canastas": "A49", "canasta_bonus": "A45", "out": "A42", "melds": "A49",
                 "threes": "A47", "incomplete": "A46", "hand": "A48", "hand_penalty": "A48",
                 "special": "A53", "total": "A49"}


def canasta_bonus(rank: str, cards: list, rules) -> int:
    """A45: the bonus of a completed meld (0 for a meld of fewer than 7 cards)."""
    clean, dirty, aces, sevens, wild, four_jokers, deuces = rules.mac_canasta_bonuses
    if len(cards) < CANASTA:
        return 0
    if rank == WILD_RANK:
        if cards.count("2") >= CANASTA:
            return deuces
        return four_jokers if cards.count("JK") == 4 else wild
    if any(is_wild(c) for c in cards):
        return dirty
    return {"A": aces, "7": sevens}.get(rank, clean)


def incomplete_penalty(rank: str, cards: list, rules) -> int:
    """A46: the penalty (positive) of an incomplete clean ace, sevens or wild meld, else 0."""
    aces, sevens, wild = rules.mac_incomplete_penalties
    if len(cards) >= CANASTA:
        return 0
    if rank == WILD_RANK:
        return rules.mac_wild_meld_penalty_four_jokers if cards.count("JK") == 4 else wild
    if rank == "7":
        return sevens
    if rank == "A" and not any(is_wild(c) for c in cards):
        return aces
    return 0


def threes_points(threes: dict, rules) -> int:
    """A47: per colour, the points of 1..4 threes; the item sums red and black."""
    return sum(rules.mac_three_scores[n - 1] for n in threes.values() if n > 0)


def side_score(melds: dict, threes: dict, hands: list, went_out: bool, rules) -> dict:
    """A42, A45-A49: one side's items from its melds (rank -> cards), its threes by colour,
    the hands of its seats (Counters) and whether it went out."""
    c = sum(len(cards) >= CANASTA for cards in melds.values())
    sign = 1 if c >= 1 else -1                                               # A49
    table = sum(card_value(t, rules) for cards in melds.values() for t in cards)
    item = {"canastas": c,
            "canasta_bonus": sum(canasta_bonus(r, cards, rules) for r, cards in melds.items()),
            "out": rules.going_out_bonus if went_out and c >= 1 else 0,         # A42, A49
            "melds": sign * table,
            "threes": (0 if c == 1 else sign) * threes_points(threes, rules),    # A49
            "incomplete": -sum(incomplete_penalty(r, cards, rules) for r, cards in melds.items()),
            "hand": -sum(card_value(t, rules) * n for hand in hands for t, n in hand.items()),
            "hand_penalty": -rules.mac_hand_triple_penalty * sum(               # A48
                (hand["A"] >= 3) + (hand["7"] >= 3) for hand in hands),
            "special": 0}
    item["total"] = sum(v for k, v in item.items() if k != "canastas")
    return item


def special_score(points: int) -> dict:
    """A53: the side of a special hand scores its value and nothing else."""
    item = dict.fromkeys(SCORE_FIELDS, 0)
    item["special"] = item["total"] = points
    return item


def score_problems(reported: list, expected: list) -> list:
    """(rule, message) pairs for every field of the score line that is missing, extra or not
    what the replay gives (A4b: exactly the fields of SCORE_FIELDS)."""
    problems = []
    for k, (got, want) in enumerate(zip(reported, expected)):
        if set(got) != set(SCORE_FIELDS):
            problems.append(("A4b", f"side {k}: score fields {sorted(got)} are not "
                                    f"{list(SCORE_FIELDS)}"))
        for field in SCORE_FIELDS:
            if field in got and got[field] != want[field]:
                problems.append((RULE_OF_FIELD[field], f"side {k}: {field} {got[field]} but "
                                                       f"the table gives {want[field]}"))
    if len(reported) != len(expected):
        problems.append(("A4b", f"score has {len(reported)} sides, not {len(expected)}"))
    return problems

