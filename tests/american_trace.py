"""A small builder of Modern American traces for the audit's tests: a deal from chosen hands
and a chosen stock head (the rest of the deck follows in a fixed order), then lines written
one by one with the cards they move, mirrored so that later lines know the stock and the pile.

The builder checks nothing: it writes what a test asks, legal or not, so a test can build a
broken deal and see the audit catch it."""
from __future__ import annotations

from collections import Counter

from canasta_sim.audit_american import audit_american_deal
from canasta_sim.audit_american.cards import THREES, deck, is_natural
from canasta_sim.audit_american.score import side_score, special_score
from canasta_sim.rules import parse_rules

SIDES = [[0, 2], [1, 3]]
ORDER = ("4", "5", "6", "8", "9", "10", "J", "Q", "K", "7", "A", "2", "JK", "3r", "3b")
"""The order in which the rest of the deck fills the stock: plain cards first."""


def cards(text: str) -> list:
    """``"K K 2 JK"`` -> ``["K", "K", "2", "JK"]``."""
    return text.split()


class Deal:
    """A Modern American deal being written line by line (see the module docstring)."""

    def __init__(self, hands, stock="", rules="modern-american", dealer=3, scores=(0, 0),
                 talons=None, order=ORDER):
        self.rules = parse_rules(rules)
        self.hands = [Counter(cards(h)) for h in hands]
        head = cards(stock)
        self.talons = [cards(t) for t in talons] if talons else []
        dealt = sum(self.hands, Counter()) + Counter(head) + \
            Counter(c for t in self.talons for c in t)
        assert not dealt - deck(self.rules), f"more cards than the deck: {dealt - deck(self.rules)}"
        rest = deck(self.rules) - dealt
        self.stock = head + [c for c in order for _ in range(rest[c])]
        self.pile, self.melds, self.threes = [], [{}, {}], [Counter(), Counter()]
        self.out = self.special = None
        self.seat = (dealer + 1) % 4
        start = {"ev": "start", "deal": 0, "game": None, "rules": rules, "seats": 4,
                 "sides": SIDES, "dealer": dealer, "scores_before": list(scores),
                 "hands": [cards(h) for h in hands], "stock": list(self.stock)}
        if talons:
            start["talons"] = [list(t) for t in self.talons]
        self.events = [start]
        self.turn_card_done = False

    def add(self, **ev) -> dict:
        """Append one line as given."""
        self.events.append(ev)
        return ev

    def three(self, seat, card, source="deal"):
        """A three laid, replaced by the stock top (null on an empty stock)."""
        repl = self.stock.pop(0) if self.stock else None
        self.hands[seat][card] -= 1
        if repl is not None:
            self.threes[seat % 2][card] += 1
            self.hands[seat][repl] += 1
        else:
            self.hands[seat][card] += 1
        return self.add(ev="three", seat=seat, card=card, **{"from": source}, replacement=repl)

    def draw(self, seat):
        """The stock top into the hand; returns the card."""
        card = self.stock.pop(0)
        self.hands[seat][card] += 1
        self.add(ev="draw", seat=seat, cards=[card])
        return card

    def take(self, seat, *melds):
        """The pile taken with melds ``("K", "K K K")``; the first holds the top card."""
        side = seat % 2
        self.add(ev="take", seat=seat, pile=list(self.pile),
                 melds=[{"rank": r, "cards": cards(c)} for r, c in melds])
        top = self.pile.pop() if self.pile else None
        for k, (rank, text) in enumerate(melds):
            hand_cards = cards(text)
            if k == 0 and top in hand_cards:
                hand_cards.remove(top)
            self.hands[seat].subtract(hand_cards)
            self.melds[side].setdefault(rank, []).extend(cards(text))
        self.hands[seat].update(self.pile)
        self.pile = []

    def meld(self, seat, rank, text):
        """Cards from the hand onto the side's meld of ``rank``."""
        self.hands[seat].subtract(cards(text))
        self.melds[seat % 2].setdefault(rank, []).extend(cards(text))
        return self.add(ev="meld", seat=seat, rank=rank, cards=cards(text))

    def play(self, seat, melds=(), discard=None, talon=0):
        """A turn: draw, lay ``melds`` (rank, cards), discard, take a talon of ``talon``."""
        card = self.draw(seat)
        for rank, text in melds:
            self.meld(seat, rank, text)
        if discard:
            self.discard(seat, discard)
        if talon:
            self.talon(seat, talon)
        return card

    def passes(self, seats, card):
        """Each seat draws and discards ``card``."""
        for seat in seats:
            self.draw(seat)
            self.discard(seat, card)

    def ask(self, seat, answer=True):
        """Ask the partner."""
        return self.add(ev="ask", seat=seat, answer=answer)

    def discard(self, seat, card):
        """One card onto the pile (``empty_pile`` as it is)."""
        ev = self.add(ev="discard", seat=seat, card=card, empty_pile=not self.pile)
        self.hands[seat][card] -= 1
        self.pile.append(card)
        return ev

    def talon(self, seat, size):
        """The talon: the top ``size`` stock cards, or the set-aside pile of that size."""
        if self.talons:
            got = next(t for t in self.talons if len(t) == size)
            self.talons.remove(got)
        else:
            got, self.stock = self.stock[:size], self.stock[size:]
        self.hands[seat].update(got)
        return self.add(ev="talon", seat=seat, size=size, cards=list(got))

    def turn_card(self, seat):
        """A7: the stock now holds 8 or fewer."""
        self.turn_card_done = True
        return self.add(ev="turn_card", seat=seat, stock=len(self.stock))

    def special_hand(self, seat, name, points, game_over=False):
        """The seat's 14 cards laid as a special hand; then ``end``."""
        ev = self.add(ev="special", seat=seat, name=name,
                      cards=list((+self.hands[seat]).elements()), points=points)
        if game_over:
            ev["game_over"] = True
        self.special = (seat % 2, points)
        self.hands[seat] = Counter()
        self.add(ev="end", reason="special")

    def go_out(self, seat, card):
        """The going-out discard, ``out`` and ``end``."""
        self.discard(seat, card)
        self.out = seat % 2
        self.add(ev="out", seat=seat, concealed=False)
        self.add(ev="end", reason="out")

    def pass_turn(self, seat):
        """A plain turn: lay threes, draw, lay a drawn three, discard a plain card.  Returns
        False when the deal ended (a three met an empty stock, or no stock to draw)."""
        for three in [t for t in THREES for _ in range(self.hands[seat][t])]:
            if not self.lay(seat, three, "deal"):
                return False
        if not self.stock:
            self.add(ev="end", reason="stock")
            return False
        card = self.draw(seat)
        while card in THREES:
            repl = self.stock[0] if self.stock else None
            if not self.lay(seat, card, "stock"):
                return False
            card = repl
        self.note_turn_card(seat)
        self.discard(seat, self.plain_discard(seat, card))
        return True

    def plain_discard(self, seat, drawn):
        """A legal discard that is no going out: the card drawn if natural, else a natural
        card of the hand (no seven or ace on an empty pile), else a wild card (A37b)."""
        hand = +self.hands[seat]
        if drawn in hand and is_natural(drawn) and (self.pile or drawn not in ("7", "A")):
            return drawn
        plain = [c for c in ORDER if hand[c] and is_natural(c)]
        return next((c for c in plain if self.pile or c not in ("7", "A")),
                    plain[0] if plain else next(iter(hand)))

    def lay(self, seat, card, source) -> bool:
        """A three laid; False (and ``end``) when it met an empty stock."""
        ev = self.three(seat, card, source)
        if ev["replacement"] is None:
            self.add(ev="end", reason="stock")
            return False
        return True

    def note_turn_card(self, seat):
        """The turn_card line once the stock holds 8 or fewer."""
        if not self.turn_card_done and len(self.stock) <= 8:
            self.turn_card(seat)

    def play_out(self, seat):
        """Plain turns from ``seat`` on until the stock ends the deal, then the score."""
        while self.pass_turn(seat):
            seat = (seat + 1) % 4
        self.score()

    def score(self, sides=None):
        """The score line: given, or as the mirrored table gives it."""
        if sides is None:
            sides = [special_score(self.special[1]) if self.special and self.special[0] == k
                     else side_score(self.melds[k], self.threes[k],
                                     [+self.hands[s] for s in seats], self.out == k, self.rules)
                     for k, seats in enumerate(SIDES)]
        return self.add(ev="score", sides=sides)

    def audit(self) -> list:
        """The audit's problems."""
        return audit_american_deal(self.events, self.rules)


def rules_of(problems) -> set:
    """The rule IDs the problems name."""
    return {p.split(":")[0] for p in problems}

