"""Replay docs/trace.md event lists of real deals and check them against the rules
(docs/rules.md), rule by rule.

The replay keeps its own hands, stock, pile, melds and red-three areas, built only from the
events (it never looks at the engine's state), and records every disagreement with the rules
as a :class:`Violation` tagged with the rule ID.  Scores are recomputed with the slow
reference scorer of :mod:`canasta_sim.referee.naive`, plus source B's concealed-canasta
bonus counted from the events alone (docs/rules.md, concealed canasta bonus; see
:meth:`DealReplay.concealed_canastas_made`); every score field is compared exactly.  Tests
then assert, rule by rule, that no violation with their tag was found, so a broken rule
fails the test that cites it.

Only four-player partnership rule sets with ``draw_count=1`` and
``red3_replacement_timing=after_deal`` are replayed.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from canasta_sim.referee import naive
from canasta_sim.referee.naive import NATURALS, WILDS

COVER_ANY3 = {"JK", "2", "3r", "3b"}
COVER_RED3 = {"JK", "2", "3r"}


def supports(rules) -> bool:
    """Whether the replay covers ``rules`` (a RuleSet): four-player partnerships,
    ``draw_count=1``, red threes replaced after the deal."""
    return (rules.num_players == 4 and rules.num_sides == 2 and rules.draw_count == 1
            and rules.red3_replacement_timing == "after_deal")


class Violation(NamedTuple):
    rule: str
    deal: int
    msg: str


def _sub(hand: Counter, cards) -> bool:
    """Remove ``cards`` from ``hand``; False (and nothing removed) if it does not hold them."""
    need = Counter(cards)
    if any(hand[c] < n for c, n in need.items()):
        return False
    hand.subtract(need)
    return True


class DealReplay:
    """Replays one deal's events; ``violations`` and ``facts`` hold the findings."""

    def __init__(self, events, rules):
        self.ev = events
        self.r = rules
        self.violations: list = []
        self.facts = Counter()
        start = events[0]
        self.deal = start["deal"]

    # --- helpers ---------------------------------------------------------------------------------
    def bad(self, rule, msg):
        self.violations.append(Violation(rule, self.deal, msg))

    def side(self, seat):
        return seat % self.nsides

    def melded(self, side):
        return any(r in NATURALS and len(c) for r, c in self.melds[side].items())

    def canastas(self, side):
        return sum(1 for r, c in self.melds[side].items() if r in NATURALS and len(c) >= 7)

    def freezes(self, card):
        if card in WILDS:
            return True
        if card == "3r":
            return self.r.upcard_red3_freezes
        if card == "3b":
            return self.r.black_three_freezes
        return False

    def pile_frozen_for_all(self):
        return any(self.freezes(c) for c in self.pile)                   # R8, R32

    def meld_legal(self, cards):
        return naive.meld_ok(cards, self.r.wild_ratio_rule, self.r.min_naturals_per_meld,
                             self.r.max_wilds_per_meld)

    def forced_take_due(self, seat):
        """R49 as read for source B (docs/rules.md)."""
        r = self.r
        if not (r.empty_stock_forced_take and r.unfrozen_take_by_layoff):
            return False
        side = self.side(seat)
        if not self.pile or self.pile_frozen_for_all() or not self.melded(side):
            return False
        top = self.pile[-1]
        if top not in NATURALS or not self.melds[side].get(top):
            return False
        h = sum(self.hands[seat].values())
        if r.one_card_pile_restriction and h == 1 and len(self.pile) == 1:
            return False
        after = h + len(self.pile) - 1 - self.pile[:-1].count("3r")
        if after <= 1:
            have = self.canastas(side) + (1 if len(self.melds[side][top]) == 6 else 0)
            return have >= r.canastas_to_go_out
        return True

    # --- the replay ------------------------------------------------------------------------------
    def run(self):
        ev = self.ev
        r = self.r
        start = ev[0]
        if start["ev"] != "start":
            self.bad("TRACE", "first event is not start")
            return self
        self.n = start["seats"]
        self.nsides = len(start["sides"])
        if start["sides"] != [[s for s in range(self.n) if s % self.nsides == k]
                              for k in range(self.nsides)] or start["sides"] != [[0, 2], [1, 3]]:
            self.bad("R1", f"sides {start['sides']}")
        self.dealer = start["dealer"]
        if not 0 <= self.dealer < self.n:
            self.bad("R5", f"dealer {self.dealer}")
        self.hands = [Counter(h) for h in start["hands"]]
        for s, h in enumerate(start["hands"]):
            if len(h) != r.hand_size:
                self.bad("R6", f"seat {s} dealt {len(h)} cards")
        self.stock = list(start["stock"])
        if len(self.stock) != 108 - self.n * r.hand_size:
            self.bad("R6", f"stock of {len(self.stock)} after the deal")
        deck = Counter(self.stock)
        for h in start["hands"]:
            deck.update(h)
        if deck != naive.full_deck():
            self.bad("R2", f"deck {dict(deck)}")
        if sum(deck[c] for c in NATURALS) != 88 or deck["2"] + deck["JK"] != 12 \
                or deck["3r"] != 4 or deck["3b"] != 4:
            self.bad("R3", "card classes")
        self.pile = []
        self.melds = [dict() for _ in range(self.nsides)]
        self.red3 = [0] * self.nsides
        self.concealed = [0] * self.nsides           # concealed canastas (2.11) per side
        self.minimum = [naive.initial_minimum(s, r.initial_meld_table)
                        for s in start["scores_before"]]
        self.seat_melded = set()
        i = 1
        # -- deal: dealt red threes (R9) and the upcard (R7, R8)
        order_pos = -1
        upcard_seen = False
        while i < len(ev) and ev[i]["ev"] in ("red3", "upcard"):
            e = ev[i]
            if e["ev"] == "upcard":
                if upcard_seen:
                    self.bad("R7", "two upcard events")
                upcard_seen = True
                self.upcard(e["cards"])
            else:
                if e["from"] != "deal":
                    self.bad("R9", f"red3 from {e['from']} before the first turn")
                pos = (e["seat"] - self.dealer - 1) % self.n
                if pos < order_pos:
                    self.bad("R9", f"dealt red threes out of seat order: seat {e['seat']}")
                order_pos = pos
                self.place_red3(e, "R9")
                self.facts["red3_deal"] += 1
            i += 1
        if not upcard_seen:
            self.bad("R7", "no upcard")
        for s in range(self.n):
            if self.hands[s]["3r"]:
                self.bad("R9", f"seat {s} keeps a red three after the deal")
        # -- turns
        expected = (self.dealer + 1) % self.n
        self.last_turn_end = None
        first = True
        while i < len(ev) and ev[i]["ev"] in ("draw", "take"):
            seat = ev[i]["seat"]
            if seat != expected:
                self.bad("R10", f"turn of seat {seat}, expected {expected}"
                         + (" (first turn)" if first else ""))
            first = False
            j = i + 1
            while j < len(ev) and ev[j]["ev"] not in ("draw", "take", "end"):
                j += 1
            self.turn(ev[i:j])
            self.facts["turns"] += 1
            i = j
            expected = (seat + 1) % self.n
            if self.last_turn_end in ("out", "last_red3", "emptied"):
                break
        # -- end and score
        if i >= len(ev) or ev[i]["ev"] != "end":
            self.bad("R59", f"deal does not end with an end event: {ev[i:i + 2]}")
            return self
        reason = ev[i]["reason"]
        self.facts["end_" + reason] += 1
        if reason == "out":
            if self.last_turn_end != "out":
                self.bad("R39", "end out without an out event")
        else:
            if self.stock:
                self.bad("R45", f"deal ended by the stock with {len(self.stock)} cards left")
            if self.last_turn_end == "last_red3":
                self.facts["r47"] += 1
            else:
                self.facts["r49_end"] += 1
                if self.forced_take_due(expected):
                    self.bad("R49", f"seat {expected} declined a forced take of {self.pile}")
        if self.last_turn_end == "out" and reason != "out":
            self.bad("R39", "out without end out")
        if i + 1 >= len(ev) or ev[i + 1]["ev"] != "score":
            self.bad("R56", "no score event")
            return self
        self.check_score(ev[i + 1]["sides"], reason)
        return self

    def upcard(self, cards):
        cover = COVER_ANY3 if self.r.upcard_cover_set == "wild_any3" else COVER_RED3
        if cards != self.stock[:len(cards)]:
            self.bad("R7", f"upcards {cards} are not the top of the stock {self.stock[:5]}")
        del self.stock[:len(cards)]
        for c in cards[:-1]:
            if c not in cover:
                self.bad("R7", f"upcard {c} was covered")
        if cards and cards[-1] in cover and self.stock:
            self.bad("R7", f"upcard {cards[-1]} left on top")
        self.pile = list(cards)
        self.facts["upcards"] += len(cards)

    def place_red3(self, e, rule):
        seat = e["seat"]
        if self.hands[seat]["3r"] <= 0:
            self.bad(rule, f"seat {seat} places a red three it does not hold")
        else:
            self.hands[seat]["3r"] -= 1
        self.red3[self.side(seat)] += 1
        if e["from"] == "pile":
            if e["replacement"] is not None:
                self.bad("R14", "red three from the pile replaced")
            return
        if self.stock:
            if e["replacement"] != self.stock[0]:
                self.bad(rule, f"replacement {e['replacement']} is not the top stock card "
                               f"{self.stock[0]}")
            self.hands[seat][self.stock.pop(0)] += 1
        elif e["replacement"] is not None:
            self.bad(rule, "replacement from an empty stock")

    # --- one turn --------------------------------------------------------------------------------
    def turn(self, tev):
        r = self.r
        first = tev[0]
        seat = first["seat"]
        side = self.side(seat)
        hand = self.hands[seat]
        for s in range(self.n):
            if self.hands[s]["3r"]:
                self.bad("R13", f"seat {s} holds a red three at a turn start")
        unmelded = not self.melded(side)
        pre_ranks = {rk for rk, c in self.melds[side].items() if len(c)}
        minimum = self.minimum[side]
        stock_empty = not self.stock
        k = 1
        last_red3 = False
        take = first["ev"] == "take"
        drew_last = False
        count = 0
        take_count = None
        touched = []
        melded_this_turn = False
        if stock_empty:
            self.facts["r49_turns"] += 1
        # draw phase (R12-R14, R31-R37)
        if not take:
            if stock_empty:
                self.bad("R49", "draw from an empty stock")
            want = self.stock[:r.draw_count]
            if first["cards"] != want:
                self.bad("R12", f"drew {first['cards']}, stock top {want}")
            if len(first["cards"]) != min(r.draw_count, len(self.stock)):
                self.bad("R12", f"drew {len(first['cards'])} cards")
            # R38: a take that was certainly legal (layoff on an unfrozen pile) was declined
            if self.takeable_by_layoff(seat):
                self.facts["declined_legal_take"] += 1
            del self.stock[:len(first["cards"])]
            hand.update(first["cards"])
            drew_last = not self.stock
            while k < len(tev) and tev[k]["ev"] == "red3":
                e = tev[k]
                if e["from"] != "stock" or e["seat"] != seat:
                    self.bad("R13", f"unexpected red3 event {e}")
                if not self.stock and e["replacement"] is None:
                    last_red3 = True
                self.place_red3(e, "R13")
                self.facts["red3_stock"] += 1
                k += 1
            if hand["3r"]:
                self.bad("R13", "a drawn red three stays in hand")
            if last_red3:
                self.facts["last_red3"] += 1
            elif drew_last:
                self.facts["drew_last_card"] += 1
        else:
            self.facts["takes"] += 1
            if stock_empty:
                self.facts["r49_takes"] += 1
            if stock_empty and self.forced_take_due(seat):
                self.facts["r49_forced_takes"] += 1
            if first["pile"] != self.pile:
                self.bad("R36", f"taken pile {first['pile']} != replayed pile {self.pile}")
            pile = list(self.pile)
            if not pile:
                self.bad("R31", "took an empty pile")
                return
            top = pile[-1]
            if top not in NATURALS:
                self.bad("R31", f"took the pile with {top} on top")
            if r.one_card_pile_restriction and sum(hand.values()) == 1 and len(pile) == 1:
                self.bad("R37", "one card in hand took a one-card pile")
            if unmelded and r.unmelded_pile_access == "forbidden":
                self.bad("R32", "unmelded side took the pile under unmelded_pile_access=forbidden")
            frozen = self.pile_frozen_for_all() or unmelded                    # R32
            melds = first["melds"]
            if not melds or melds[0]["rank"] != top or top not in melds[0]["cards"]:
                self.bad("R33", f"first take meld {melds[:1]} does not hold the top card {top}")
                return
            from_hand = list(melds[0]["cards"])
            from_hand.remove(top)
            nat = from_hand.count(top)
            wild = sum(1 for c in from_hand if c in WILDS)
            if nat + wild != len(from_hand):
                self.bad("R18", f"take meld {melds[0]}")
            if frozen:
                if nat < 2:
                    self.bad("R33", f"frozen pile taken with {from_hand} (top {top})")
                    self.facts["frozen_take_without_pair"] += 1
                self.facts["frozen_takes"] += 1
            else:
                ok = nat >= 2 or (nat >= 1 and wild >= 1 and r.unfrozen_take_natural_plus_wild) \
                    or (bool(self.melds[side].get(top)) and r.unfrozen_take_by_layoff)
                if not ok:
                    self.bad("R34", f"unfrozen pile taken with {from_hand} (top {top})")
                self.facts["unfrozen_takes"] += 1
            take_count = 0
            for m_i, m in enumerate(melds):
                cards = list(m["cards"])
                hand_part = from_hand if m_i == 0 else cards
                if not _sub(hand, hand_part):
                    self.bad("R33" if m_i == 0 else "R35",
                             f"take meld {m} uses cards not in hand {dict(+hand)}")
                rank = m["rank"]
                if rank not in NATURALS:
                    self.bad("R18", f"take meld of rank {rank}")
                self.melds[side].setdefault(rank, []).extend(cards)
                if not self.meld_legal(self.melds[side][rank]):
                    self.bad("R19", f"meld {rank} {self.melds[side][rank]} after the take")
                touched.append(rank)
                take_count += naive.cards_value(hand_part)
            if r.top_card_counts_for_minimum:
                take_count += naive.card_value(top)
            melded_this_turn = True
            self.concealed_canastas_made(side, [m["rank"] for m in melds], pre_ranks, "take")
            reds = pile[:-1].count("3r")
            for c in pile[:-1]:
                if c != "3r":
                    hand[c] += 1                                                # R36
            self.pile = []
            got = 0
            while k < len(tev) and tev[k]["ev"] == "red3":
                if tev[k]["from"] != "pile":
                    self.bad("R14", f"red3 from {tev[k]['from']} after a take")
                self.hands[seat]["3r"] += 1          # it came from the pile, then goes down
                self.place_red3(tev[k], "R14")
                got += 1
                k += 1
            if got != reds:
                self.bad("R14", f"{reds} red threes in the taken pile, {got} placed")
            self.facts["red3_pile"] += got
        # meld and discard phases (R15-R30, R39-R44)
        asked = None
        discarded = False
        went_out = None
        b3 = False
        rest = tev[k:]
        for idx, e in enumerate(rest):
            kind = e["ev"]
            if e.get("seat", seat) != seat:
                self.bad("R11", f"event of seat {e.get('seat')} inside seat {seat}'s turn")
            if discarded and kind != "out":
                self.bad("R17", f"{kind} after the discard")
            if went_out is not None:
                self.bad("R39", f"{kind} after going out")
            if kind == "ask":
                self.facts["asks"] += 1
                if take or melded_this_turn or asked is not None:
                    self.bad("R42", "asked after a take, a meld or a first question")
                asked = e["answer"]
            elif kind == "meld":
                if last_red3 and not r.last_card_red3_may_meld:
                    self.bad("R47", "melded after drawing a red three as the last card")
                cards = list(e["cards"])
                rank = e["rank"]
                if not _sub(hand, cards):
                    self.bad("R15", f"melded {cards} not in hand {dict(+hand)}")
                if rank == "3r" or "3r" in cards:
                    self.bad("R24", f"red three melded {e}")
                if rank == "3b":
                    b3 = True
                    self.facts["black3_melds"] += 1
                    if self.melds[side].get("3b") or not naive.black_three_meld_ok(cards) \
                            or not r.black_three_going_out_meld:
                        self.bad("R25", f"black-three meld {cards}")
                    self.melds[side].setdefault("3b", []).extend(cards)
                else:
                    if rank not in NATURALS or any(c != rank and c not in WILDS for c in cards):
                        self.bad("R18", f"meld event {e}")
                    self.melds[side].setdefault(rank, []).extend(cards)
                    if not self.meld_legal(self.melds[side][rank]):
                        self.bad("R19" if len(self.melds[side][rank]) > len(cards) else "R18",
                                 f"meld {rank} {self.melds[side][rank]}")
                touched.append(rank)
                melded_this_turn = True
                if unmelded and not take:
                    count += naive.cards_value(cards)
                if sum(hand.values()) == 0 and not (idx + 1 < len(rest)
                                                    and rest[idx + 1]["ev"] == "out"):
                    self.bad("R16", "hand emptied by melding without going out")
            elif kind == "discard":
                if last_red3:
                    self.bad("R47", "discarded after drawing a red three as the last card")
                if not _sub(hand, [e["card"]]):
                    self.bad("R17", f"discarded {e['card']} not in hand")
                if e["card"] == "3r":
                    self.bad("R13", "discarded a red three")
                self.pile.append(e["card"])
                discarded = True
                self.facts["discards"] += 1
                if e["card"] in WILDS:
                    self.facts["wild_discards"] += 1
            elif kind == "out":
                went_out = e["concealed"]
            elif kind == "red3":
                self.bad("R13", f"red3 event in the meld phase {e}")
            else:
                self.bad("R11", f"unexpected event {kind}")
        if melded_this_turn:
            self.facts["meld_turns"] += 1
        if not take:
            self.concealed_canastas_made(side, touched, pre_ranks, "hand")
        h_left = sum(hand.values())
        # how the turn ended
        if went_out is not None:
            self.last_turn_end = "out"
            self.facts["outs"] += 1
            if h_left:
                self.bad("R39", f"out with {h_left} cards in hand")
            if self.canastas(side) < r.canastas_to_go_out:
                self.bad("R40", f"out with {self.canastas(side)} canastas")
            if asked is False:
                self.bad("R42", "went out after the partner said no")
            if not discarded:
                self.facts["out_without_discard"] += 1
            if take and h_left == 0 and len(rest) == 1:
                self.facts["out_by_take"] += 1
            new_ranks = [rk for rk in touched if rk not in pre_ranks]
            concealed = (seat not in self.seat_melded
                         and all(rk not in pre_ranks for rk in touched)
                         and (not discarded or r.concealed_allows_final_discard)
                         and (not take or r.concealed_allows_pile_take)
                         and any(rk in NATURALS and len(self.melds[side][rk]) >= 7
                                 for rk in new_ranks))                           # R44
            if concealed != went_out:
                self.bad("R44", f"out concealed={went_out}, rules say {concealed}")
            if went_out:
                self.facts["concealed_outs"] += 1
        else:
            if b3:
                self.bad("R25", "black threes melded without going out")
            if asked is True:
                self.bad("R42", "partner said yes but the player did not go out")
            if last_red3:
                self.last_turn_end = "last_red3"
                if discarded:
                    self.bad("R47", "discard after the last-card red three")
            elif not discarded:
                if h_left == 0:
                    self.bad("R39", "hand emptied without an out event")
                    self.last_turn_end = "emptied"
                else:
                    self.bad("R17", "turn ended without a discard")
            else:
                if h_left == 0:
                    self.bad("R16", "hand emptied by the discard without going out")
        if drew_last and not last_red3 and not (discarded or went_out is not None):
            self.bad("R46", "the player who drew the last card did not finish his turn")
        # initial meld (R26-R30, R35)
        if unmelded and self.melded(side):
            exempt = went_out and r.concealed_exempt_from_min_count
            self.facts["initial_melds"] += 1
            got = take_count if take else count
            if got < minimum and not exempt:
                self.bad("R35" if take else "R26",
                         f"initial meld count {got} < minimum {minimum} (take={take})")
            if minimum != 50:
                self.facts["initial_melds_min_%d" % minimum] += 1
            if got < minimum and exempt:
                self.facts["exempt_initial_melds"] += 1
        if melded_this_turn:
            self.seat_melded.add(seat)

    def concealed_canastas_made(self, side, ranks, pre_ranks, how):
        """Source B's concealed canasta: a canasta created and completed in one
        turn from cards of the hand (a turn that began with a draw: every meld it started that
        is a canasta at its end), or a take meld that is already a canasta when the pile is
        taken (called before the rest of the pile joins the hand; melds made after that use
        the pile's cards and do not count).  A meld the side had before the turn never counts."""
        made = {rk for rk in ranks if rk in NATURALS and rk not in pre_ranks
                and len(self.melds[side][rk]) >= 7}
        self.concealed[side] += len(made)
        self.facts["concealed_canastas_" + how] += len(made)

    def takeable_by_layoff(self, seat):
        """R34(c) with R16/R37: a take that is certainly legal (used to see that takes are
        optional, R38)."""
        side = self.side(seat)
        if not self.pile or self.pile_frozen_for_all() or not self.melded(side):
            return False
        top = self.pile[-1]
        if top not in NATURALS or not self.melds[side].get(top) \
                or not self.r.unfrozen_take_by_layoff:
            return False
        h = sum(self.hands[seat].values())
        if h + len(self.pile) - 1 - self.pile[:-1].count("3r") < 2:
            return False
        return self.meld_legal(self.melds[side][top] + [top])

    # --- score (R51-R57) -------------------------------------------------------------------------
    def check_score(self, sides, reason):
        r = self.r
        total = Counter(self.stock) + Counter(self.pile)
        for h in self.hands:
            total += +h
        for k in range(self.nsides):
            for cards in self.melds[k].values():
                total.update(cards)
            total["3r"] += self.red3[k]
        if total != naive.full_deck():
            self.bad("R2", f"cards at the end {dict(total)}")
        out_side = None
        concealed = False
        for e in self.ev:
            if e["ev"] == "out":
                out_side = self.side(e["seat"])
                concealed = e["concealed"]
        if reason == "stock" and out_side is not None:
            self.bad("R50", "stock end with an out event")
        for k in range(self.nsides):
            want = naive.score_side(
                self.melds[k], self.red3[k],
                [list((+self.hands[s]).elements()) for s in range(self.n) if self.side(s) == k],
                went_out=out_side == k, concealed=concealed,
                natural_bonus=r.natural_canasta_bonus, mixed_bonus=r.mixed_canasta_bonus,
                out_bonus=r.going_out_bonus, concealed_out_bonus=r.concealed_going_out_bonus,
                red3_each=r.red3_bonus_each, red3_all_four=r.red3_all_four_total,
                red3_negative_if_unmelded=r.red3_negative_if_unmelded,
                red3_requires=r.red3_positive_requires, black3_value=r.black3_card_value)
            concealed_bonus = self.concealed[k] * r.concealed_canasta_bonus      # 2.11
            want["canastas"] += concealed_bonus
            want["total"] += concealed_bonus
            got = sides[k]
            tags = {"melds": "R54", "natural": "R23", "mixed": "R23", "canastas": "R51",
                    "red3": "R52", "out": "R53", "hand": "R55", "total": "R56"}
            for field, rule in tags.items():
                if got[field] != want[field]:
                    if field == "red3" and want["red3"] < 0:
                        rule = "R57"
                    extra = (f" (with {self.concealed[k]} concealed canastas)"
                             if field in ("canastas", "total") and self.concealed[k] else "")
                    self.bad(rule, f"side {k} {field} {got[field]}, naive {want[field]}{extra}")
            if reason == "stock" and got["out"] != 0:
                self.bad("R50", f"side {k} out bonus {got['out']} at a stock end")
            if got["total"] % 5:
                self.bad("R4", f"side {k} total {got['total']} not a multiple of 5")
            self.facts["score_sides"] += 1
            if self.concealed[k]:
                self.facts["sides_with_concealed_canastas"] += 1
            if got["total"] < 0:
                self.facts["negative_scores"] += 1
        if any(self.concealed):
            self.facts["deals_with_concealed_canastas"] += 1


def replay_deals(deals, rules):
    """Replay many deals; returns (violations, facts)."""
    violations = []
    facts = Counter()
    for events in deals:
        rp = DealReplay(events, rules).run()
        violations.extend(rp.violations)
        facts.update(rp.facts)
        facts["deals"] += 1
    return violations, facts
