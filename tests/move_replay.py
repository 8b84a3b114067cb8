"""Rebuild a :class:`naive.Position` at every decision of a traced deal and compare the
engine's options with the brute-force enumerator of ``canasta_sim/referee/naive.py`` (issue 11).

The input is ``canasta_sim.trace.decision_trace``: the TRACE.md events of a deal and its
decision log, one dict per decision with ``events_before`` (the events fully written before
the decision), ``seat``, ``decision``, ``options`` (canonical tuples, docs/moves.md) and
``chosen``.  The replay keeps its own hands, stock, pile and melds from the events only.  A
take event is written after its take melds, so at a ``take_plan`` decision the take in
progress is rebuilt from the draw decision's chosen ``("take", k, d, j)`` and the chosen
``take_plan`` steps.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import naive
from naive import NATURALS, VALUES, Position


class Mismatch(NamedTuple):
    deal: int
    index: int          # decision number in the deal
    decision: str
    seat: int
    missing: tuple      # in naive, not offered by the engine
    extra: tuple        # offered by the engine, not legal by naive
    note: str
    position: str       # Position.describe()
    options: tuple      # the engine's options
    rules: str

    def text(self) -> str:
        return (f"deal {self.deal} ({self.rules}) decision #{self.index} {self.decision} "
                f"seat {self.seat}: {self.note}\n"
                f"  missing (naive has, engine lacks): {list(self.missing)}\n"
                f"  extra (engine has, naive rejects): {list(self.extra)}\n"
                f"  engine options: {list(self.options)}\n"
                + "\n".join("  " + line for line in self.position.splitlines()))


def _tup(opt):
    """A decision-log option as a hashable canonical tuple."""
    if isinstance(opt, (list, tuple)):
        return tuple(_tup(x) for x in opt)
    return opt


class DealState:
    """Hands, stock, pile, melds of one deal, from its events."""

    def __init__(self, events, knobs: dict):
        start = events[0]
        assert start["ev"] == "start", start
        self.events = events
        self.knobs = knobs
        self.deal = start["deal"]
        self.rules = start["rules"]
        self.sides = start["sides"]
        self.nsides = len(self.sides)
        self.hands = [Counter(h) for h in start["hands"]]
        self.stock = list(start["stock"])
        self.pile: list = []
        self.melds = [dict() for _ in range(self.nsides)]
        table = knobs["initial_meld_table"]
        self.minimum = [naive.initial_minimum(s, table) for s in start["scores_before"]]
        self.seat_melded: set = set()
        self.pos = 1                        # next event to apply
        self.turn = None                    # the turn in progress (dict) or None

    def side(self, seat):
        return seat % self.nsides

    def apply_to(self, n):
        """Apply events up to (not including) event ``n``."""
        while self.pos < n:
            self.apply(self.events[self.pos])
            self.pos += 1

    def _new_turn(self, seat, took):
        side = self.side(seat)
        self.turn = {"seat": seat, "took": took, "top": None, "take_melds": {}, "placed": {},
                     "count": 0, "asked": None, "last_red3": False,
                     "start_ranks": frozenset(r for r, c in self.melds[side].items() if c),
                     "melded_before": seat in self.seat_melded, "placed_any": False}

    def apply(self, e):
        kind = e["ev"]
        if kind == "red3":
            seat = e["seat"]
            if e["from"] != "pile":
                self.hands[seat]["3r"] -= 1
                if self.stock:
                    self.hands[seat][self.stock.pop(0)] += 1
                elif self.turn is not None and self.turn["seat"] == seat:
                    self.turn["last_red3"] = True                     # R47
        elif kind == "upcard":
            for c in e["cards"]:
                assert self.stock[0] == c, (self.stock[:3], e)
                self.pile.append(self.stock.pop(0))
        elif kind == "draw":
            seat = e["seat"]
            self._new_turn(seat, False)
            for c in e["cards"]:
                assert self.stock[0] == c
                self.hands[seat][self.stock.pop(0)] += 1
        elif kind == "take":
            seat = e["seat"]
            self._new_turn(seat, True)
            t = self.turn
            side = self.side(seat)
            assert e["pile"] == self.pile, (e["pile"], self.pile)
            top = self.pile[-1]
            t["top"] = top
            t["count"] = VALUES[top] if self.knobs["top_card_counts_for_minimum"] else 0
            for i, m in enumerate(e["melds"]):
                cards = list(m["cards"])
                from_hand = list(cards)
                if i == 0:
                    from_hand.remove(top)
                self._place(seat, m["rank"], from_hand, take=True)
                self.melds[side].setdefault(m["rank"], []).extend(
                    [top] if i == 0 else [])
            t["placed_any"] = True
            for c in self.pile[:-1]:
                if c != "3r":
                    self.hands[seat][c] += 1                         # R36
            self.pile = []
        elif kind == "meld":
            self._place(e["seat"], e["rank"], list(e["cards"]), take=False)
        elif kind == "ask":
            self.turn["asked"] = bool(e["answer"])
        elif kind == "discard":
            seat = e["seat"]
            self.hands[seat][e["card"]] -= 1
            self.pile.append(e["card"])
            self._end_turn()
        elif kind in ("out", "end", "score"):
            self._end_turn()

    def _place(self, seat, rank, cards, take):
        t = self.turn
        side = self.side(seat)
        for c in cards:
            self.hands[seat][c] -= 1
            assert self.hands[seat][c] >= 0, (seat, c, cards)
        self.melds[side].setdefault(rank, []).extend(cards)
        t["placed"].setdefault(rank, Counter()).update(cards)
        if take:
            t["take_melds"].setdefault(rank, Counter()).update(cards)
        unmelded = not any(r in NATURALS for r in t["start_ranks"])
        if unmelded and (take or not t["took"]):
            t["count"] += naive.cards_value(cards, self.knobs["black3_card_value"])  # R28
        t["placed_any"] = True

    def _end_turn(self):
        t = self.turn
        if t is not None and t["placed_any"]:
            self.seat_melded.add(t["seat"])                           # R44 (i)
        self.turn = None

    def position(self, seat, pending_take=None, take_steps=()):
        """The Position of ``seat`` now.  ``pending_take``: the chosen ("take", k, d, j) whose
        event is not written yet, ``take_steps``: the chosen take_plan steps since."""
        side = self.side(seat)
        t = self.turn
        if t is None or t["seat"] != seat:
            # a draw decision: the turn has not begun
            start = frozenset(r for r, c in self.melds[side].items() if c)
            return Position(
                hand=+Counter(self.hands[seat]), melds=[{r: list(c) for r, c in m.items()}
                                                        for m in self.melds],
                side=side, pile=list(self.pile), stock=len(self.stock), knobs=self.knobs,
                minimum=self.minimum[side], start_ranks=start,
                seat_melded_before=seat in self.seat_melded,
                has_partner=len(self.sides[side]) > 1)
        hand = +Counter(self.hands[seat])
        melds = [{r: list(c) for r, c in m.items()} for m in self.melds]
        pile = list(self.pile)
        return Position(
            hand=hand, melds=melds, side=side, pile=pile, stock=len(self.stock),
            knobs=self.knobs, minimum=self.minimum[side], took=t["took"], take_top=t["top"],
            take_melds={r: Counter(c) for r, c in t["take_melds"].items()},
            placed={r: Counter(c) for r, c in t["placed"].items()}, count=t["count"],
            asked=t["asked"], last_red3=t["last_red3"], seat_melded_before=t["melded_before"],
            start_ranks=t["start_ranks"], has_partner=len(self.sides[side]) > 1)


def take_in_progress(state: DealState, seat, take, steps) -> Position:
    """The Position at a take_plan decision: the pile still on the table, the first take meld
    ("take", k, d, j) and the chosen take_plan steps already placed from the hand."""
    pos = state.position(seat)                     # as at the draw decision
    ctx_side = pos.side
    _, k, d, j = take
    top = pos.pile[-1]
    own = pos.melds[ctx_side]
    unmelded = not any(r in NATURALS for r in pos.start_ranks)
    count = VALUES[top] if state.knobs["top_card_counts_for_minimum"] else 0
    placed: dict = {}

    def put(rank, cards):
        nonlocal count
        for c in cards:
            pos.hand[c] -= 1
            assert pos.hand[c] >= 0, (rank, cards, pos.hand)
        own.setdefault(rank, []).extend(cards)
        placed.setdefault(rank, Counter()).update(cards)
        count += naive.cards_value(cards)

    own.setdefault(top, []).append(top)
    put(top, [top] * k + ["2"] * d + ["JK"] * j)
    for step in steps:
        if step[0] == "new":
            _, rank, n, dd, jj = step
            put(rank, [rank] * n + ["2"] * dd + ["JK"] * jj)
        elif step[0] == "add":
            put(step[1], [step[2]])
    pos.hand = +pos.hand
    pos.took = True
    pos.take_top = top
    pos.placed = placed
    pos.take_melds = {r: Counter(c) for r, c in placed.items()}
    pos.count = count if unmelded else 0
    return pos


def _take_event_cards(take, steps, top):
    """{rank: Counter of cards} a take event must show for the chosen take and steps."""
    _, k, d, j = take
    want = {top: Counter([top] * (1 + k) + ["2"] * d + ["JK"] * j)}
    for step in steps:
        if step[0] == "new":
            _, rank, n, dd, jj = step
            want.setdefault(rank, Counter()).update([rank] * n + ["2"] * dd + ["JK"] * jj)
        else:
            want.setdefault(step[1], Counter()).update([step[2]])
    return want


def deal_positions(events, decisions, knobs, problems=None):
    """Yield (index, decision dict, Position, context) for every decision of one deal;
    context: ``ask_seen`` (an ask decision came earlier in the same turn), ``next`` (the next
    decision's kind), and for a draw decision that takes, ``after_take`` (the Position just
    after the first take meld).  At the end, yields (None, None, Position, context) for the
    seat whose turn would come after a deal ended by the stock (R49), with ``stock_end``.
    ``problems`` collects (decision index, text) where the events do not do what the chosen
    option says (an engine bug; the replay follows the events)."""
    problems = [] if problems is None else problems
    take_index = None
    state = DealState(events, knobs)
    pending = None
    steps: list = []
    asked_turn = None                  # (turn seat, events position) of the last ask decision
    turn_key = None
    for i, dec in enumerate(decisions):
        if pending is not None and dec["decision"] != "take_plan":
            # the take event is among the events before this decision: check it
            take_at = [n for n in range(state.pos, dec["events_before"])
                       if events[n]["ev"] == "take"]
            if not take_at:
                problems.append((take_index, f"chose {pending} but the events show no take: "
                                 f"{events[state.pos:dec['events_before']]}"))
            else:
                e = events[take_at[0]]
                got = {}
                for m in e["melds"]:
                    got.setdefault(m["rank"], Counter()).update(m["cards"])
                want = _take_event_cards(pending, steps, e["pile"][-1])
                if got != want:
                    problems.append((take_index, f"take event {e['melds']} does not fit the "
                                     f"chosen {pending} + {steps}"))
            pending, steps = None, []
        state.apply_to(dec["events_before"])
        seat = dec["seat"]
        kind = dec["decision"]
        options = [_tup(o) for o in dec["options"]]
        chosen = options[dec["chosen"]] if options else None
        if kind == "answer":
            t = state.turn
            asker = t["seat"] if t else seat
            yield i, dec, state.position(asker), {"ask_seen": True}
            continue
        nxt = decisions[i + 1]["decision"] if i + 1 < len(decisions) else None
        if kind == "draw":
            pending, steps = None, []
            pos = state.position(seat)
            ctx = {"ask_seen": False, "next": nxt}
            if chosen and chosen[0] == "take":
                pending = chosen
                take_index = i
                ctx["after_take"] = take_in_progress(state, seat, pending, [])
            turn_key = (seat, i)
            yield i, dec, pos, ctx
            continue
        if kind == "take_plan":
            assert pending is not None, f"take_plan without a pending take (decision {i})"
            pos = take_in_progress(state, seat, pending, steps)
            if chosen and chosen[0] in ("new", "add"):
                steps.append(chosen)
            yield i, dec, pos, {"ask_seen": False}
            continue
        pos = state.position(seat)
        if kind == "ask":
            asked_turn = turn_key
        yield i, dec, pos, {"ask_seen": asked_turn == turn_key, "next": nxt}
    state.apply_to(len(events))
    end = [e for e in events if e["ev"] == "end"]
    if end and end[0]["reason"] == "stock":
        last_turn = [e for e in events if e["ev"] in ("draw", "take")]
        red3_end = state.stock == [] and any(
            e["ev"] == "red3" and e["from"] == "stock" and e["replacement"] is None
            for e in events[events.index(last_turn[-1]):]) if last_turn else False
        if not red3_end and last_turn:
            nseats = len(events[0]["hands"])
            seat = (last_turn[-1]["seat"] + 1) % nseats
            last = decisions[-1] if decisions else None
            if not (last and last["decision"] == "draw" and last["seat"] == seat):
                yield None, None, state.position(seat), {"stock_end": True, "seat": seat}


def compare_decision(pos: Position, kind: str, options) -> tuple:
    """(missing, extra, note) between the engine's ``options`` and naive at one decision."""
    engine = [_tup(o) for o in options]
    want = naive.legal_options(pos, kind)
    notes = []
    if kind == "meld":
        eng = naive.option_classes(pos, engine)
        outs = [o for o in engine if o[0] == "out"]
        keys = [naive.plan_class(pos, o[2], o[1]) for o in outs]
        legal_keys = [k for k in keys if k is not None]
        if len(set(legal_keys)) != len(legal_keys):
            dup = [k for k in set(legal_keys) if legal_keys.count(k) > 1]
            notes.append(f"engine lists a plan class twice: {dup}")
        want = naive.option_classes(pos, want)
    else:
        eng = set(engine)
    if len(set(engine)) != len(engine):
        notes.append("engine lists an option twice")
    missing = tuple(sorted(want - eng, key=repr))
    extra = tuple(sorted(eng - want, key=repr))
    return missing, extra, "; ".join(notes)


def check_deal(events, decisions, knobs, facts=None, seed=None) -> list:
    """Every Mismatch between the engine's options and naive in one deal; ``facts`` (a
    Counter) counts the situations seen, to show what the comparison covered."""
    out = []
    deal = events[0]["deal"]
    rules = f"{events[0]['rules']}, scores_before {events[0]['scores_before']}" + (
        f", seed {seed}" if seed is not None else "")
    facts = Counter() if facts is None else facts
    problems = []
    for i, dec, pos, ctx in deal_positions(events, decisions, knobs, problems):
        if dec is not None:
            _count_facts(facts, pos, dec)
        if dec is None:
            # R49: the deal ended by the stock without a draw decision for this seat
            opts = naive.legal_options(pos, "draw") - {("decline",)}
            if opts:
                out.append(Mismatch(deal, -1, "draw", ctx["seat"], tuple(sorted(opts)), (),
                                    "the deal ended by the stock (R49) but this seat could "
                                    "take the pile", pos.describe(), (), rules))
            continue
        kind = dec["decision"]
        missing, extra, note = compare_decision(pos, kind, dec["options"])
        if missing or extra or note:
            out.append(Mismatch(deal, i, kind, dec["seat"], missing, extra,
                                note or "options differ",
                                pos.describe(), tuple(_tup(o) for o in dec["options"]), rules))
        if "after_take" in ctx and ctx["next"] != "take_plan":
            plan = naive.legal_options(ctx["after_take"], "take_plan")
            if plan != {("stop",)}:
                out.append(Mismatch(deal, i, "take_plan", dec["seat"],
                                    tuple(sorted(plan - {("stop",)}, key=repr)), (),
                                    "no take_plan decision after this take, but naive lists "
                                    + ("these take melds" if plan else "no stop (take illegal)")
                                    + ("" if naive.take_minimum_reachable(ctx["after_take"])
                                       else " (the minimum is out of reach of take melds)"),
                                    ctx["after_take"].describe(), (), rules))
        if kind == "meld" and not ctx["ask_seen"] and not pos.took and pos.asked is None \
                and not any(sum(c.values()) for c in pos.placed.values()):
            ask = naive.legal_options(pos, "ask")
            if ask:
                out.append(Mismatch(deal, i, "ask", dec["seat"], tuple(sorted(ask)), (),
                                    "no ask decision before this meld phase, but asking is "
                                    "legal (R42, 2.11)", pos.describe(), (), rules))
    for i, text in problems:
        dec = decisions[i]
        out.append(Mismatch(deal, i, dec["decision"], dec["seat"], (), (),
                            "the events do not carry out the chosen option: " + text, "",
                            tuple(_tup(o) for o in dec["options"]), rules))
    return out


def _count_facts(facts, pos, dec):
    kind = dec["decision"]
    opts = [_tup(o) for o in dec["options"]]
    unmelded = not any(r in NATURALS for r in pos.start_ranks)
    if pos.last_red3:
        facts["last_red3_" + kind] += 1
    if kind == "draw":
        facts["draw_takes_offered"] += any(o[0] == "take" for o in opts)
        if pos.stock == 0:
            facts["draw_stock_empty"] += 1
            facts["draw_forced"] += ("decline",) not in opts
    if kind == "meld":
        plans = [o for o in opts if o[0] == "out"]
        facts["meld_with_plans"] += bool(plans)
        facts["plans_offered"] += len(plans)
        facts["plans_black3"] += sum(1 for o in plans if any(p[0] == "3b" for p in o[2]))
        facts["plans_no_discard"] += sum(1 for o in plans if o[1] is None)
        if pos.took:
            facts["meld_in_take_turn"] += 1
        if unmelded and not pos.took:
            facts["meld_unmelded_draw_turn"] += 1
        if pos.asked is not None:
            facts["meld_after_" + ("yes" if pos.asked else "no")] += 1
        for o in plans:
            key = naive.plan_class(pos, o[2], o[1])
            if key is not None and key[2]:
                facts["plans_concealed"] += 1
    if kind == "take_plan":
        facts["take_plan_unmelded"] += unmelded


def rules_knobs(rules: str) -> dict:
    """The knob dict of a rule-set string (canasta_sim.rules), as naive.Position takes it."""
    from canasta_sim.rules import parse_rules

    return parse_rules(rules).knobs()


def check_deals(rules="classic", seed=0, deals=range(10), policies="random", scores=None):
    """(mismatches, counts) over several deals of ``decision_trace``."""
    from canasta_sim.trace import decision_trace

    knobs = rules_knobs(rules)
    mismatches = []
    counts = Counter()
    facts = Counter()
    for deal in deals:
        events, decisions = decision_trace(rules=rules, seed=seed, deal=deal, policies=policies,
                                           scores=scores)
        counts["deals"] += 1
        counts["decisions"] += len(decisions)
        for dec in decisions:
            counts[dec["decision"]] += 1
        mismatches.extend(check_deal(events, decisions, knobs, facts, seed))
    counts.update({"fact:" + k: v for k, v in facts.items()})
    return mismatches, counts
