"""Check a deal from its trace alone: card conservation and the score identity.

:func:`audit_deal` replays TRACE.md events card by card.  Every card an event moves
must be where the event says it comes from (the top of the stock, the seat's hand,
the pile), no card appears or vanishes, and the final score agrees with the cards:

* card conservation: hands + stock + pile + melds + red threes = the deck (R2) at the end,
  and no count ever goes below zero;
* the score identity (R56): ``total = melds + canastas + red3 + out + hand``, where
  ``melds`` are the card points on the side's table (R54) and ``hand`` is minus the card
  points left in the side's hands (R55).

It is independent of the kernels (it never calls them) and much shallower than the
referee in ``../shared/referee``: it checks bookkeeping, not the legality of a play.
The benchmarks' ``--check`` runs it on a sample of the deals they time.
"""
from __future__ import annotations

from collections import Counter

from canasta_sim.trace import _View

_FIXED_POINTS = {"JK": 50, "2": 20, "3r": 0, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10,
                 "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 20}


def card_points(token: str, rules) -> int:
    """R4: the card value of one card (a black three's value is a knob)."""
    return rules.black3_card_value if token == "3b" else _FIXED_POINTS[token]


class _Audit(_View):
    """The trace view, checking each event's source before it moves the cards."""

    def __init__(self, start: dict):
        super().__init__(start)
        self.problems: list = []

    def check(self, ev: dict) -> None:
        """Record a problem if ``ev`` moves cards that are not where it says."""
        kind = ev["ev"]
        if kind in ("upcard", "draw") and self.stock[:len(ev["cards"])] != ev["cards"]:
            self.problems.append(f"{kind} {ev['cards']} is not the top of the stock")
        if kind == "red3" and ev["replacement"] is not None and (
                not self.stock or self.stock[0] != ev["replacement"]):
            self.problems.append(f"red3 replacement {ev['replacement']} is not the stock top")
        if kind == "take" and ev["pile"] != self.pile:
            self.problems.append(f"take of {ev['pile']} but the pile is {self.pile}")

    def apply(self, ev: dict) -> str:
        """Check ``ev``, move its cards, then check that no hand went below zero."""
        self.check(ev)
        line = super().apply(ev)
        seat = ev.get("seat")
        if seat is not None and any(n < 0 for n in self.hands[seat].values()):
            self.problems.append(f"seat {seat} played cards it did not hold at {ev['ev']}")
        return line

    def cards_on_hand(self) -> Counter:
        """Every card anywhere: hands, stock, pile, melds and red threes."""
        total = Counter()
        for hand in self.hands:
            total.update(+hand)
        total.update(self.stock)
        total.update(self.pile)
        for melds in self.melds:
            for cards in melds.values():
                total.update(cards)
        total["3r"] += sum(self.red3)
        return total


def expected_deck(rules) -> Counter:
    """The deck of R2 for ``rules``: 4 cards of each rank per pack, the jokers."""
    packs = rules.num_packs
    deck = Counter({t: 4 * packs for t in _FIXED_POINTS if t not in ("JK", "3r")})
    deck["3r"] = 2 * packs
    deck["3b"] = 2 * packs
    deck["JK"] = rules.num_jokers
    return deck


def audit_deal(events: list, rules) -> list:
    """Problems found in one deal's events (start .. score); an empty list means all agree."""
    audit = _Audit(events[0])
    for ev in events[1:]:
        audit.apply(ev)
    if audit.cards_on_hand() != expected_deck(rules):
        audit.problems.append("the cards at the end are not the deck (R2): "
                              f"{dict(audit.cards_on_hand() - expected_deck(rules))} extra, "
                              f"{dict(expected_deck(rules) - audit.cards_on_hand())} missing")
    audit.problems.extend(_score_problems(audit, events[-1], rules))
    return audit.problems


def _score_problems(audit: _Audit, score: dict, rules) -> list:
    """R54-R56 per side: table points, hand points and the total against the cards."""
    problems = []
    for k, (seats, side) in enumerate(zip(audit.sides, score["sides"])):
        table = sum(card_points(t, rules) for cards in audit.melds[k].values() for t in cards)
        hand = -sum(card_points(t, rules) * n for s in seats for t, n in audit.hands[s].items())
        items = side["melds"] + side["canastas"] + side["red3"] + side["out"] + side["hand"]
        if side["melds"] != table:
            problems.append(f"side {k}: melds {side['melds']} but the table holds {table} (R54)")
        if side["hand"] != hand:
            problems.append(f"side {k}: hand {side['hand']} but the hands hold {hand} (R55)")
        if side["total"] != items:
            problems.append(f"side {k}: total {side['total']} is not the sum {items} (R56)")
    return problems
