"""Check a deal from its trace alone: card conservation and the score identity.

:func:`audit_deal` replays docs/trace.md events card by card.  Every card an event moves
must be where the event says it comes from (the top of the stock, the seat's hand,
the pile), no card appears or vanishes, and the final score agrees with the cards:

* card conservation: hands + stock + pile + melds + red threes = the deck (R2) at the end,
  and no count ever goes below zero;
* the score identity (R56): ``total = melds + canastas + red3 + out + hand``, where
  ``melds`` are the card points on the side's table (R54) and ``hand`` is minus the card
  points left in the side's hands (R55).

* the canasta counts (R23): each side's ``natural`` and ``mixed`` equal its melds of seven
  or more cards without and with wild cards.
* cutthroat (docs/cutthroat.md): melds lie in front of their seat (the ``owner`` field of
  docs/trace.md decides between a partnership's two melds of one rank); the score's sides are as
  they stand at the end, each over the melds and hands of its seats; each seat's ``total``
  is its ``share`` plus its own red-three item, a side's ``red3`` the sum of its seats' items,
  and a partner's share the side's total without red threes (halved to a multiple of 5 under
  ``cutthroat_partner_share=half``) (C12-C14).

It is independent of the kernels (it never calls them): a trace written by anyone can be
checked with ``canasta-sim audit TRACE.jsonl`` (docs/trace.md, "Checking a trace").  It
checks bookkeeping, not the legality of each play against every rule.  The benchmarks'
``--check`` runs it on a sample of the deals they time.
"""
from __future__ import annotations

import json
from collections import Counter

from canasta_sim.errors import BadInput
from canasta_sim.trace import _View, canasta_kind

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
    for k, side in enumerate(score["sides"]):
        seats = side.get("seats", audit.sides[k] if k < len(audit.sides) else [])
        rows = sorted({audit.side_of[s] for s in seats})             # cutthroat: per seat
        melds = [cards for row in rows for cards in audit.melds[row].values()]
        table = sum(card_points(t, rules) for cards in melds for t in cards)
        hand = -sum(card_points(t, rules) * n for s in seats for t, n in audit.hands[s].items())
        items = side["melds"] + side["canastas"] + side["red3"] + side["out"] + side["hand"]
        if side["melds"] != table:
            problems.append(f"side {k}: melds {side['melds']} but the table holds {table} (R54)")
        if side["hand"] != hand:
            problems.append(f"side {k}: hand {side['hand']} but the hands hold {hand} (R55)")
        if side["total"] != items:
            problems.append(f"side {k}: total {side['total']} is not the sum {items} (R56)")
        kinds = Counter(canasta_kind(cards) for cards in melds)
        for kind in ("natural", "mixed"):
            if side[kind] != kinds[f"{kind} canasta"]:
                problems.append(f"side {k}: {kind} {side[kind]} but the table holds "
                                f"{kinds[f'{kind} canasta']} {kind} canastas (R23)")
    return problems + _seat_problems(score, rules)


def _seat_problems(score: dict, rules) -> list:
    """Cutthroat (C12-C14): each seat's total is its share plus its own red-three item; a
    side's red threes are its seats' items summed; a share is the side's total without red
    threes (a partner's halved to a multiple of 5 under ``half``)."""
    problems = []
    for side in score["sides"] if "seats" in score else ():
        seats = side.get("seats", [])
        red3 = sum(score["seats"][s]["red3"] for s in seats)
        if side["red3"] != red3:
            problems.append(f"side {seats}: red3 {side['red3']} is not its seats' {red3} (C12)")
        whole = side["total"] - side["red3"]
        for s in seats:
            seat = score["seats"][s]
            share = 5 * (whole // 10) if seat["role"] == "partner" and \
                rules.cutthroat_partner_share == "half" else whole
            if seat["share"] != share or seat["total"] != seat["share"] + seat["red3"]:
                problems.append(f"seat {s}: share {seat['share']}, total {seat['total']} but "
                                f"its side gives {share} + red3 {seat['red3']} (C13)")
    return problems


def read_deals(lines, name="-"):
    """The deals of a JSON Lines trace: lists of events, each from its start line on.

    BadInput for a line that is not a JSON object with ``ev``, or events before the first
    ``start``; names the file and the line."""
    deal = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            raise BadInput(f"{name} line {number} is not JSON: accepted: a trace in JSON "
                           "Lines, one event object per line (docs/trace.md)") from None
        if not isinstance(event, dict) or "ev" not in event:
            raise BadInput(f"{name} line {number} is not an event object with 'ev': accepted: "
                           "a trace in JSON Lines (docs/trace.md)")
        if event["ev"] == "start":
            if deal is not None:
                yield deal
            deal = [event]
        elif deal is None:
            raise BadInput(f"{name} line {number} comes before any start line: accepted: a "
                           "trace whose every deal begins with a start event (docs/trace.md)")
        else:
            deal.append(event)
    if deal is not None:
        yield deal


def _audit_family(events: list, rules, previous) -> list:
    """The family's checker: Modern American deals are replayed against A1-A54
    (canasta_sim/audit_american; ``previous``, the deal before in the stream, for a game's
    scores and dealers), classic and cutthroat deals by :func:`audit_deal`."""
    if rules.family == "modern_american":
        from canasta_sim.audit_american import audit_american_deal, game_problems

        return game_problems(previous, events, rules) + audit_american_deal(events, rules)
    return audit_deal(events, rules)


def audit_stream(deals):
    """Audit every deal, yielding a (deal number, problem) pair per problem found.  A deal
    that does not end with ``score`` is reported as incomplete."""
    from canasta_sim.rules import parse_rules

    previous = None
    for events in deals:
        number = events[0].get("deal")
        try:
            rules = parse_rules(events[0].get("rules", "classic"))
        except BadInput as exc:
            yield number, f"rule set: {exc}"
            continue
        if events[-1]["ev"] != "score":
            yield number, "incomplete deal: it does not end with a score line"
            continue
        try:
            problems = _audit_family(events, rules, previous)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            problems = [f"malformed event: {type(exc).__name__}: {exc}"]
        previous = events
        for problem in problems:
            yield number, problem
