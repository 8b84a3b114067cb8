"""The replay of one Modern American deal's trace, event by event, checking every act against
the rules (A1-A54) and every card against where the line says it comes from.

Written from the rules and the family's readings (docs/american.md), never from the kernels:
the table is plain Python (hands as Counters, melds as lists of tokens), so what it accepts is
what the rules allow, whatever the engine does.  :class:`Replay` collects (rule, message)
pairs; :func:`canasta_sim.audit_american.audit_american_deal` formats them."""
from __future__ import annotations

from collections import Counter

from .cards import (
    CANASTA,
    DREAM_HANDS,
    NATURALS,
    SPECIAL_SIZE,
    THREES,
    WILD_RANK,
    best_special,
    card_value,
    deck,
    fits_special,
    is_natural,
    is_wild,
    special_points,
)
from .score import score_problems, side_score, special_score

TURN_CARD_STOCK = 8
"""A7: the turn card has been drawn once the stock holds 8 cards or fewer."""
SIDES = [[0, 2], [1, 3]]
"""A1: partners sit opposite."""


class Turn:
    """What the current turn has done so far (A12: threes, draw or take, melds, discard)."""

    def __init__(self, seat: int, opening: bool):
        self.seat = seat
        self.opening = opening      # the side had not melded at the turn's start (A20a, A25)
        self.action = None          # "draw" or "take" (A13, A14)
        self.take_rank = None       # the rank of a pile take (A25b, reading 8)
        self.laid = {}              # rank -> hand cards on new melds this turn (A25b)
        self.fresh = set()          # ranks of melds started this turn (A20a)
        self.opened = False         # the opening's conditions were met (A25-A28)
        self.why_not = ""           # why they were not, so far
        self.ask = None             # the partner's answer (A41)
        self.three_ok = False       # the previous line was this seat's draw or three (A9)
        self.threes_checked = False
        self.swad = ""              # an A16 breach, pending until we know he does not go out
        self.oversize = ""          # an A19 breach, pending until we know he goes out
        self.talon = None           # (which, size) earned (A32)
        self.talon_given = False
        self.discard = None         # (card, hand before, pile was empty) to be judged


class Replay:
    """One deal's table, replayed from its ``start`` line; :meth:`apply` each later line."""

    def __init__(self, start: dict, rules):
        self.rules = rules
        self.problems = []
        self.line = 1
        self.kind = "start"
        self.hands = [Counter(h) for h in start.get("hands", [])]
        self.stock = list(start.get("stock", []))
        self.talons = [list(t) for t in start.get("talons") or []]
        self.pile = []
        self.melds = [{}, {}]
        self.threes = [Counter(), Counter()]
        self.melded = [False, False]
        self.talon_had = [False, False]
        self.asked = Counter()
        self.turn_card = False
        self.turn_card_late = False
        self.started = [False] * 4
        self.any_action = False
        self.three_end = False
        self.went_out = None
        self.special = None
        self.special_cards = Counter()
        self.scores_before = start.get("scores_before", [0, 0])
        self.phase = "start"
        dealer = start.get("dealer", 0)
        self.seat = (dealer + 1) % 4 if isinstance(dealer, int) else 0          # A8
        self.turn = Turn(self.seat, True)
        self._check_start(start)

    # ---- helpers ------------------------------------------------------------------------------
    def report(self, rule: str, text: str) -> None:
        """Record one problem at the current line."""
        self.problems.append((rule, f"line {self.line} {self.kind}: {text}"))

    @staticmethod
    def side_of(seat: int) -> int:
        """A1: the side of a seat."""
        return seat % 2

    def dead(self, rank: str, side: int) -> bool:
        """A22: a canasta of ``rank`` exists (on either side, or on ``side``'s own under
        ``mac_dead_rank_scope=own``, reading 11)."""
        sides = (side,) if self.rules.mac_dead_rank_scope == "own" else (0, 1)
        return any(len(self.melds[s].get(rank, ())) >= CANASTA for s in sides)

    def swad(self, card: str, side: int) -> bool:
        """A36: a seven, a wild card, an ace or a card of a dead rank."""
        return is_wild(card) or card in ("7", "A") or (is_natural(card) and self.dead(card, side))

    def holds_non_swad(self, hand: Counter, side: int) -> bool:
        """A16, A36: ``hand`` holds a natural card that is no SWAD card."""
        return any(n > 0 and not self.swad(r, side) for r, n in hand.items() if is_natural(r))

    def keep_allowed(self, side: int) -> int:
        """A10: threes a player may keep: one while his side has not melded, with a set of
        special hands that has the Straight."""
        return int(not self.melded[side] and "straight" in special_points(self.rules))

    def minimum(self, side: int) -> int:
        """A24: the opening minimum by the side's cumulative score before the deal."""
        score, need = self.scores_before[side], 0
        for bound, value in self.rules.initial_meld_table:
            if bound is None or score >= bound:
                need = value
        return need

    def remove(self, seat: int, cards, what: str, rule: str) -> None:
        """Take ``cards`` out of the seat's hand; report the cards it does not hold."""
        hand = self.hands[seat]
        missing = Counter(cards) - hand
        if missing:
            self.report(rule, f"seat {seat} {what} {sorted(missing.elements())} it does not hold "
                              f"(hand {sorted(hand.elements())})")
        hand.subtract(cards)
        for card in missing:
            hand[card] = 0

    def in_turn(self, seat, phases: tuple) -> bool:
        """A8, A12: the line's seat is the one whose turn it is, in one of ``phases``."""
        ok = True
        if seat != self.seat:
            self.report("A8", f"seat {seat} acts in seat {self.seat}'s turn")
            ok = False
        if self.phase not in phases:
            self.report("A12", f"{self.kind} comes in phase {self.phase!r} (allowed: "
                               f"{', '.join(phases)})")
            ok = False
        return ok

    # ---- the start line ----------------------------------------------------------------------
    def _check_start(self, start: dict) -> None:
        """A1, A2, A5, A33: seats, sides, the deal's sizes and the deck."""
        rules = self.rules
        if start.get("seats") != 4 or start.get("sides") != SIDES:
            self.report("A1", f"seats {start.get('seats')}, sides {start.get('sides')}: accepted "
                              f"4 seats, sides {SIDES}")
        if len(self.hands) != 4 or any(sum(h.values()) != rules.hand_size for h in self.hands):
            self.report("A5", f"hands of {[sum(h.values()) for h in self.hands]} cards, not 4 "
                              f"of {rules.hand_size}")
        sizes = list(rules.mac_talon_sizes) if rules.mac_talon_source == "set_aside" else []
        if [len(t) for t in self.talons] != sizes:
            self.report("A5", f"set-aside talons of {[len(t) for t in self.talons]} cards under "
                              f"mac_talon_source={rules.mac_talon_source}; expected {sizes}")
        if self.cards() != deck(rules):
            self.report("A2", f"the deal is not the deck: {self.deck_difference()}")

    def cards(self) -> Counter:
        """Every card of the deal: hands, stock, talons, pile, melds, threes, a special hand."""
        total = Counter()
        for hand in self.hands:
            total.update(+hand)
        for cards in [self.stock, self.pile] + self.talons:
            total.update(cards)
        for melds in self.melds:
            for cards in melds.values():
                total.update(cards)
        for threes in self.threes:
            total.update(threes)
        total.update(self.special_cards)
        return total

    def deck_difference(self) -> str:
        """``{...} extra, {...} missing`` against the deck."""
        have, want = self.cards(), deck(self.rules)
        return f"{dict(have - want)} extra, {dict(want - have)} missing"

    # ---- one line ----------------------------------------------------------------------------
    def apply(self, ev: dict) -> None:
        """Check one trace line and move its cards."""
        self.line += 1
        self.kind = kind = ev.get("ev")
        if self.three_end and kind != "end":
            self.report("A43", "the deal goes on after a three met an empty stock")
            self.three_end = False
        if self.phase == "after" and kind in ("three", "draw", "take", "end"):
            self.close_turn()
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            self.report("A6" if kind == "upcard" else "A4b",
                        "there is no upcard in this family" if kind == "upcard"
                        else f"unknown event {kind!r}")
            return
        handler(ev)

    # ---- threes (A9, A10, A43) ---------------------------------------------------------------
    def check_threes(self, seat: int) -> None:
        """A9, A10: the seat holds no three but one it may keep."""
        held = sum(self.hands[seat][t] for t in THREES)
        side = self.side_of(seat)
        allowed = self.keep_allowed(side)
        if held > allowed:
            kept = allowed or (self.melded[side] and "straight" in special_points(self.rules))
            self.report("A10" if kept else "A9",
                        f"seat {seat} holds {held} three(s) at its {self.kind}; it may keep "
                        f"{allowed} (A9: laid at once, A10: one kept while unmelded)")

    def settle_draw(self, seat: int) -> None:
        """A9: a three drawn is laid at once: checked at the first line after the draw's threes."""
        if not self.turn.threes_checked:
            self.turn.threes_checked = True
            self.check_threes(seat)
        self.turn.three_ok = False

    def on_three(self, ev: dict) -> None:
        """A9, A10, A43: a three laid and replaced from the stock top."""
        seat, card, source = ev.get("seat"), ev.get("card"), ev.get("from")
        pre_play = self.rules.mac_threes_timing == "after_deal" and not self.any_action
        if not pre_play:
            if seat != self.seat:
                self.report("A9", f"seat {seat} lays a three in seat {self.seat}'s turn")
            elif self.phase == "main" and not self.turn.three_ok:
                self.report("A9", f"seat {seat} lays a three after its draw's threes (a three "
                                  "is laid before the draw, or at once when drawn)")
            elif self.phase not in ("start", "main"):
                self.report("A12", f"a three in phase {self.phase!r}")
        if card not in THREES:
            self.report("A9", f"{card!r} is not a three")
            return
        if source not in ("deal", "stock", "kept"):
            self.report("A4b", f"three from {source!r}: accepted deal, stock, kept")
        elif source == "deal" and self.started[seat]:
            self.report("A9", f"seat {seat} lays a dealt three after its first turn began")
        elif source == "kept" and not self.started[seat] and \
                self.rules.mac_threes_timing == "first_turn":
            self.report("A10", f"seat {seat} lays a 'kept' three before its first turn (its "
                               "dealt threes are laid then)")
        self.remove(seat, [card], "lays the three", "A9")
        if ev.get("replacement") is None:
            if self.stock:
                self.report("A9", f"no replacement although the stock holds {len(self.stock)}")
            self.hands[seat][card] += 1                  # A43: it stays in the hand
            self.three_end = True
            return
        if not self.stock or self.stock[0] != ev["replacement"]:
            self.report("A9", f"replacement {ev['replacement']} is not the stock top "
                              f"{self.stock[0] if self.stock else '(empty)'}")
        if self.stock:
            self.stock.pop(0)
        self.threes[self.side_of(seat)][card] += 1
        self.hands[seat][ev["replacement"]] += 1
        self.turn.three_ok = self.phase == "main"

    # ---- draw and take (A13, A14, A29-A31, A26, A44) ----------------------------------------
    def begin_action(self, seat: int, action: str) -> None:
        """A9, A10: threes settled before the draw or take (every seat's under ``after_deal``
        at the deal's first action); the turn's main phase begins."""
        if self.rules.mac_threes_timing == "after_deal" and not self.any_action:
            for other in range(4):
                if other != seat:
                    self.check_threes(other)
        self.check_threes(seat)
        self.any_action = self.started[seat] = True
        self.turn.action = action
        self.phase = "main"

    def on_draw(self, ev: dict) -> None:
        """A13, A44: one card from the top of a stock that is not empty."""
        seat, cards = ev.get("seat"), list(ev.get("cards", []))
        self.in_turn(seat, ("start",))
        self.begin_action(seat, "draw")
        if len(cards) != 1:
            self.report("A13", f"draws {len(cards)} cards, not 1")
        for card in cards:
            if not self.stock:
                self.report("A44", "draws from an empty stock")
                break
            if self.stock[0] != card:
                self.report("A13", f"draw {card} is not the stock top {self.stock[0]}")
            self.stock.pop(0)
            self.hands[seat][card] += 1
        self.turn.three_ok = True

    def on_take(self, ev: dict) -> None:
        """A14, A26, A29-A31: the pile taken with a natural pair of its top card."""
        seat = ev.get("seat")
        self.in_turn(seat, ("start",))
        self.begin_action(seat, "take")
        self.turn.threes_checked = True
        side = self.side_of(seat)
        if ev.get("pile") != self.pile:
            self.report("A29", f"take of {ev.get('pile')} but the pile is {self.pile}")
        if not self.pile:
            self.report("A30", "takes an empty pile")
            return
        top = self.pile[-1]
        if not is_natural(top):
            self.report("A30", f"takes a pile whose top card is {top}")
        elif self.dead(top, side):
            self.report("A30", f"takes a pile whose top card {top} is of a dead rank (A22)")
        if len(self.melds[side].get(top, ())) + 3 > self.rules.mac_max_meld_size:
            self.report("A30", f"takes on {top} with a meld of "
                               f"{len(self.melds[side][top])}: three more would pass "
                               f"{self.rules.mac_max_meld_size}")
        melds = ev.get("melds") or []
        first = melds[0] if melds else {"rank": None, "cards": []}
        if first.get("rank") != top or sorted(first.get("cards", [])) != [top] * 3:
            self.report("A29", f"the take meld {first} is not a natural pair of {top} with the "
                               "top card")
        self.turn.take_rank = top
        cards = list(first.get("cards", []))
        if top in cards:
            cards.remove(top)
        self.place(seat, top, [top] + cards, cards, "takes with")
        if len(melds) > 1 and not self.turn.opening:
            self.report("A26", "a melded side's take line lists melds from the hand")
        for meld in melds[1:]:
            self.place(seat, meld.get("rank"), meld.get("cards", []), meld.get("cards", []),
                       "melds")
        if self.turn.opening and not self.turn.opened:
            self.report("A26", f"takes the pile without the whole initial meld from the hand: "
                               f"{self.turn.why_not}")
        self.hands[seat].update(self.pile[:-1])                                # A31
        self.pile = []

    # ---- melds (A15, A19-A23, A25, A16) ------------------------------------------------------
    def on_meld(self, ev: dict) -> None:
        """A15: cards from the hand onto the side's meld of a rank (new if it has none)."""
        seat = ev.get("seat")
        self.in_turn(seat, ("main",))
        self.settle_draw(seat)
        cards = list(ev.get("cards", []))
        side = self.side_of(seat)
        had = self.holds_non_swad(self.hands[seat], side)
        self.place(seat, ev.get("rank"), cards, cards, "melds")
        if not self.pile and not self.turn.swad and had and \
                not self.holds_non_swad(self.hands[seat], side):
            self.turn.swad = (f"seat {seat} melds {ev.get('rank')} on an empty pile and keeps "
                              "no card but SWAD cards, though it held one before")

    def place(self, seat: int, rank, cards: list, from_hand: list, what: str) -> None:
        """A19-A23, A25c: put ``cards`` (``from_hand`` of them from the hand) on the side's
        meld of ``rank``; then see whether an opening turn now makes the initial meld."""
        side, turn = self.side_of(seat), self.turn
        self.remove(seat, from_hand, what, "A15")
        self.check_meld(side, rank, cards)
        if rank not in self.melds[side]:
            turn.fresh.add(rank)
        self.melds[side].setdefault(rank, []).extend(cards)
        if turn.opening:
            turn.laid.setdefault(rank, []).extend(from_hand)
            self.melded[side] = True
            if not turn.opened:
                turn.opened, turn.why_not = self.opening_ok(side)

    def check_meld(self, side: int, rank, cards: list) -> None:
        """A11, A19-A23, A25c: may these cards join the side's meld of ``rank``?"""
        rules, turn = self.rules, self.turn
        old = self.melds[side].get(rank, [])
        new = old + list(cards)
        added_wild = sum(is_wild(c) for c in cards)
        if rank == WILD_RANK:
            if any(not is_wild(c) for c in cards):
                self.report("A23", f"the wild meld takes {cards}: wild cards only")
        elif rank not in NATURALS:
            self.report("A11", f"a meld of rank {rank!r}: threes are never melded")
            return
        elif any(not is_wild(c) and c != rank for c in cards):
            self.report("A19", f"cards {cards} on the meld of {rank}")
        if self.dead(rank, side):
            self.report("A22", f"the rank {rank} is dead: no meld of it is started or added to")
        limit = rules.mac_max_meld_size
        if len(new) < 3:
            self.report("A19", f"a meld of {len(new)} cards ({rank}): at least 3")
        elif len(new) > limit and len(old) < limit:
            why = f"the meld of {rank} reaches {len(new)} cards, more than {limit}"
            if rules.mac_allow_oversize_when_going_out:
                turn.oversize = turn.oversize or why
            else:
                self.report("A19", why)
        elif len(old) >= limit:
            self.report("A19", f"the meld of {rank} is closed at {len(old)} cards")
        if rank == WILD_RANK:
            return
        naturals = sum(not is_wild(c) for c in new)
        wilds = len(new) - naturals
        if naturals < 2 or wilds > rules.mac_max_wilds_per_meld:
            self.report("A19", f"the meld of {rank} would hold {naturals} naturals and {wilds} "
                               f"wild cards (at least 2; at most {rules.mac_max_wilds_per_meld})")
        if turn.opening and len(new) >= CANASTA and wilds:
            self.report("A25", f"a dirty canasta of {rank} completed in the opening turn (A25c)")
        if added_wild:
            self.check_wild_added(side, rank, naturals, wilds, added_wild)

    def check_wild_added(self, side: int, rank: str, naturals: int, wilds: int,
                         added: int) -> None:
        """A20, A21, A23: wild cards joining a natural meld."""
        fresh = self.turn.opening and (rank in self.turn.fresh or rank not in self.melds[side])
        wild_meld = len(self.melds[side].get(WILD_RANK, ()))
        if rank == "7":
            self.report("A21", "a wild card on the sevens")
        if 0 < wild_meld < CANASTA:
            self.report("A23", f"a wild card on the meld of {rank} while the side's wild meld "
                               f"has {wild_meld} cards")
        if rank == "A" and wilds == added and not fresh:
            self.report("A21", "a wild card on a clean ace meld not laid in the opening turn")
        elif self.rules.mac_rule_of_five and not fresh and naturals < 5:
            self.report("A20", f"a wild card on the meld of {rank} with {naturals} naturals "
                               "after the opening turn (rule of five)")

    # ---- the initial meld (A24-A28) ----------------------------------------------------------
    def opening_ok(self, side: int) -> tuple:
        """A25-A28: (whether the melds laid this turn make a legal initial meld, why not)."""
        rules, turn, melds = self.rules, self.turn, self.melds[side]
        if any(r != WILD_RANK and len(c) >= CANASTA and any(map(is_wild, c))
               for r, c in melds.items()):
            return False, "a dirty canasta in the opening turn (A25c)"
        laid = {r: c for r, c in turn.laid.items() if r != turn.take_rank}
        whole = {r: c for r, c in laid.items() if len(c) == len(melds.get(r, ()))}
        if rules.mac_splash and any(len(c) >= CANASTA and (r == WILD_RANK or not any(map(
                is_wild, c))) for r, c in whole.items()):
            return True, ""                                                     # A28
        triple = any(r != WILD_RANK and len(c) >= 3 and not any(map(is_wild, c)) and
                     (len(c) >= CANASTA or not self.dead(r, side)) for r, c in whole.items())
        if rules.mac_initial_meld_needs == "clean_or_wild":
            triple = triple or len(laid.get(WILD_RANK, ())) >= 3
        if not triple:
            return False, "no clean triple laid from the hand (A25a)"
        count = sum(card_value(t, rules) for cards in turn.laid.values() for t in cards)
        if turn.take_rank is not None:
            value = card_value(turn.take_rank, rules)
            if not rules.mac_take_pair_counts:
                count -= 2 * value
            if rules.top_card_counts_for_minimum:
                count += value
        need = self.minimum(side)
        if count < need:
            return False, f"the opening counts {count}, the minimum is {need} (A24, A25b)"
        return True, ""

    # ---- asking, discarding, going out (A16, A17, A35-A41) -----------------------------------
    def ask_key(self, seat: int):
        """A41: whose question it is: the seat's, or its side's (``mac_ask_limit``)."""
        return seat if self.rules.mac_ask_limit == "once_per_player" else self.side_of(seat)

    def on_ask(self, ev: dict) -> None:
        """A41: ask the partner once (per player or per side), at any point of the turn
        before its discard (docs/american.md: the engine asks before the going-out step);
        the answer binds."""
        seat = ev.get("seat")
        self.in_turn(seat, ("main",))
        self.settle_draw(seat)
        key = self.ask_key(seat)
        if self.rules.ask_permission == "never":
            self.report("A41", "asks permission under ask_permission=never")
        if self.asked[key]:
            self.report("A41", f"seat {seat} asks again ({self.rules.mac_ask_limit})")
        self.asked[key] += 1
        self.turn.ask = bool(ev.get("answer"))

    def on_discard(self, ev: dict) -> None:
        """A18: the card goes on the pile; judged when the next line says whether he goes out."""
        seat, card = ev.get("seat"), ev.get("card")
        self.in_turn(seat, ("main",))
        self.settle_draw(seat)
        turn = self.turn
        side = self.side_of(turn.seat)
        empty = not self.pile
        if ev.get("empty_pile") != empty:
            self.report("A36", f"empty_pile {ev.get('empty_pile')} but the pile holds "
                               f"{len(self.pile)} cards")
        if turn.opening and turn.action == "draw" and self.melded[side]:
            if not turn.opened:
                self.report("A25", f"the initial meld is not legal: {turn.why_not}")
            if len(self.stock) > TURN_CARD_STOCK and not self.talon_had[side]:   # A32
                which = 1 if self.melded[1 - side] else 0
                size = self.rules.mac_talon_sizes[which]
                turn.talon = (which, size) if size > 0 else None
        turn.discard = (card, +self.hands[seat], empty)
        self.remove(seat, [card], "discards", "A18")
        self.pile.append(card)
        self.phase = "after"

    def judge_discard(self, going_out: bool) -> None:
        """A16, A17, A35-A41: the turn's discard, now that we know whether he went out."""
        turn = self.turn
        if turn.discard is None:
            return
        card, before, empty = turn.discard
        turn.discard = None
        seat, side = turn.seat, self.side_of(turn.seat)
        if card in THREES:
            self.report("A35", f"seat {seat} discards a three")
        if going_out:
            self.judge_out(seat, side)
            return
        for rule, text in (("A19", turn.oversize), ("A16", turn.swad)):
            if text:
                self.report(rule, text)
        if turn.ask:
            self.report("A41", f"seat {seat} does not go out after its partner said yes")
        need = 1 if turn.talon else 2                                            # A16, A17
        if sum(before.values()) < need:
            self.report("A16", f"seat {seat} discards holding {sum(before.values())} card(s); "
                               f"it must keep one after discarding"
                               + (" (A39: or go out)" if need == 2 else ""))
        if is_wild(card):
            if any(not is_wild(c) for c in before.elements()):
                self.report("A37", f"seat {seat} discards {card} holding other cards than wild")
        elif card not in THREES and empty and self.swad(card, side) and \
                self.holds_non_swad(before, side):
            self.report("A36", f"seat {seat} discards the SWAD card {card} on an empty pile "
                               "holding another card")

    def judge_out(self, seat: int, side: int) -> None:
        """A39-A41: going out needs the canastas and no blocking incomplete meld."""
        rules, turn, melds = self.rules, self.turn, self.melds[side]
        canastas = sum(len(c) >= CANASTA for c in melds.values())
        if canastas < rules.canastas_to_go_out:
            self.report("A40", f"seat {seat} goes out with {canastas} canasta(s); "
                               f"{rules.canastas_to_go_out} needed")
        blocking = [r for r, c in melds.items() if len(c) < CANASTA and (
            r in (WILD_RANK, "7") or (r == "A" and not any(map(is_wild, c))))]
        if blocking:
            self.report("A40", f"seat {seat} goes out with incomplete {blocking} melds")
        if turn.ask is False:
            self.report("A41", f"seat {seat} goes out after its partner said no")
        if rules.ask_permission == "required" and turn.action == "draw" and \
                turn.ask is None and not self.asked[self.ask_key(seat)]:     # as R42
            self.report("A41", f"seat {seat} goes out in a turn that began with a draw "
                               "without asking, its question not spent (ask_permission=required)")

    def on_out(self, ev: dict) -> None:
        """A39, A42: the seat emptied its hand by a discard; no concealed going out."""
        seat = ev.get("seat")
        self.in_turn(seat, ("after",))
        if self.turn.discard is None or sum(self.hands[seat].values()):
            self.report("A39", f"seat {seat} goes out holding {sorted(+self.hands[seat])} or "
                               "without a discard")
        if ev.get("concealed") is not False:
            self.report("A42", "concealed must be false: there is no concealed going out")
        self.judge_discard(True)
        self.went_out = self.side_of(seat)
        self.phase = "out"

    # ---- talons and the turn card (A7, A32-A34) ----------------------------------------------
    def on_talon(self, ev: dict) -> None:
        """A32-A34: the talon earned by the opening turn, right after its discard."""
        seat, cards = ev.get("seat"), list(ev.get("cards", []))
        self.in_turn(seat, ("after",))
        self.judge_discard(False)
        turn, side = self.turn, self.side_of(seat)
        if turn.talon is None or turn.talon_given:
            self.report("A32", f"seat {seat} takes a talon it did not earn (earned only by the "
                               "opening turn of a draw, before the turn card, once per side)")
            which = 1 if self.melded[1 - side] else 0
        else:
            which = turn.talon[0]
            if ev.get("size") != turn.talon[1]:
                self.report("A32", f"talon of size {ev.get('size')}, earned {turn.talon[1]}")
        size = self.rules.mac_talon_sizes[which]
        if self.rules.mac_talon_source == "set_aside":
            source = self.talons[which] if which < len(self.talons) else []
            if cards != source:
                self.report("A33", f"talon {cards} is not the set-aside pile {source}")
            source.clear()
        else:
            if cards != self.stock[:size]:
                self.report("A33", f"talon {cards} is not the top {size} stock cards "
                                   f"{self.stock[:size]} (A34: fewer if the stock is shorter)")
            del self.stock[:size]
        if len(cards) != ev.get("size"):
            self.report("A33", f"talon of size {ev.get('size')} lists {len(cards)} cards")
        self.hands[seat].update(cards)
        self.talon_had[side] = turn.talon_given = True

    def on_turn_card(self, ev: dict) -> None:
        """A7: written once, when a draw or a talon leaves 8 stock cards or fewer."""
        if self.turn_card:
            self.report("A7", "a second turn_card line")
        elif ev.get("stock") != len(self.stock) or len(self.stock) > TURN_CARD_STOCK:
            self.report("A7", f"turn_card with stock {ev.get('stock')} but the stock holds "
                              f"{len(self.stock)}")
        if ev.get("seat") != self.seat:
            self.report("A7", f"turn_card names seat {ev.get('seat')}, the turn is "
                              f"seat {self.seat}'s")
        self.turn_card = True

    def close_turn(self) -> None:
        """A33, A7, A8: the discarded turn is over: its talon given, the turn card announced;
        the next seat clockwise begins."""
        self.judge_discard(False)
        turn = self.turn
        if turn.talon is not None and not turn.talon_given:
            self.report("A33", f"seat {turn.seat} earned a talon of {turn.talon[1]} and did not "
                               "receive it")
        if len(self.stock) <= TURN_CARD_STOCK and not self.turn_card and not self.turn_card_late:
            self.report("A7", "the stock holds 8 cards or fewer and no turn_card line came")
            self.turn_card_late = True
        self.seat = (turn.seat + 1) % 4
        self.turn = Turn(self.seat, not self.melded[self.side_of(self.seat)])
        self.phase = "start"

    # ---- special hands (A51-A53) -------------------------------------------------------------
    def on_special(self, ev: dict) -> None:
        """A51-A53: fourteen cards laid at once by an unmelded side's player who drew."""
        seat, name = ev.get("seat"), ev.get("name")
        self.in_turn(seat, ("main",))
        self.settle_draw(seat)
        side, hand = self.side_of(seat), +self.hands[seat]
        if self.turn.action != "draw" or self.melded[side]:
            self.report("A52", f"seat {seat} lays a special hand without drawing this turn or "
                               "with its side melded")
        if sum(hand.values()) != SPECIAL_SIZE or Counter(ev.get("cards", [])) != hand:
            self.report("A52", f"special cards {ev.get('cards')} are not the seat's 14 cards "
                               f"{sorted(hand.elements())}")
        points = special_points(self.rules)
        if name not in points:
            self.report("A51", f"{name!r} is no special hand of mac_special_hands="
                               f"{self.rules.mac_special_hands}")
        elif not fits_special(name, hand, self.rules.mac_special_hands == "pagat"):
            self.report("A51", f"{sorted(hand.elements())} is not {name}")
        elif ev.get("points") != points[name]:
            self.report("A51", f"{name} scores {points[name]}, not {ev.get('points')}")
        best = best_special(hand, self.rules)
        if name in points and best[1] > points[name]:
            self.report("A51", f"the hand is {best[0]} ({best[1]}), higher than {name}")
        if bool(ev.get("game_over")) != (name in DREAM_HANDS):
            self.report("A53", f"game_over {ev.get('game_over')} for {name}")
        self.special_cards.update(hand)
        self.hands[seat] = Counter()
        self.special = (side, points.get(name, 0))
        self.phase = "special"

    # ---- the end and the score (A43, A44, A45-A53, A2) ---------------------------------------
    def on_end(self, ev: dict) -> None:
        """A39, A43, A44, A52: the deal ends for the reason the line gives."""
        reason = ev.get("reason")
        if reason == "out" and self.phase != "out":
            self.report("A39", "end out without an out line")
        elif reason == "special" and self.phase != "special":
            self.report("A52", "end special without a special line")
        elif reason == "stock" and not self.three_end and not (
                self.phase == "start" and not self.stock):
            self.report("A44", f"end stock in phase {self.phase!r} with {len(self.stock)} stock "
                               "cards (A43: a three meets an empty stock; A44: a player at an "
                               "empty stock who does not take)")
        elif reason not in ("out", "special", "stock"):
            self.report("A4b", f"end reason {reason!r}")
        self.three_end = False
        self.phase = "ended"

    def on_score(self, ev: dict) -> None:
        """A2 at the end; A42, A45-A49, A53: the score against the replayed table."""
        if self.phase != "ended":
            self.report("A12", "a score line before the end line")
        if self.cards() != deck(self.rules):
            self.report("A2", f"the cards at the end are not the deck: {self.deck_difference()}")
        expected = []
        for side, seats in enumerate(SIDES):
            if self.special is not None and self.special[0] == side:
                expected.append(special_score(self.special[1]))
            else:
                expected.append(side_score(self.melds[side], self.threes[side],
                                           [+self.hands[s] for s in seats],
                                           self.went_out == side, self.rules))
        for rule, text in score_problems(ev.get("sides", []), expected):
            self.report(rule, text)
        self.phase = "scored"
