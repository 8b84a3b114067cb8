"""Deal traces in the JSON Lines format of docs/trace.md, and a readable view of them.

The kernel records every deal it plays into an integer event buffer
(``kernels/game/trace_events.py``) when tracing is on; this module only decodes that
buffer.  It never replays the rules itself, so a trace shows what the engine
really did, and row ``deal == i`` of ``simulate`` describes the same deal.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Iterator

import numpy as np

from canasta_sim.kernels.game import layout, options
from canasta_sim.kernels.game.cards import MELD_KINDS, TOKENS
from canasta_sim.runner import Plan, check_policy_table, policy_table, prepare

BUFFER_INTS = 1 << 16


def _tokens(values) -> list:
    return [TOKENS[int(v)] for v in values]


def run_traced(plan: Plan, deal: int, dealer: int = -1, decisions: bool = False):
    """Play one deal with tracing on; returns (event int buffer, result row).

    ``deal`` is the deal number of the random streams; ``dealer`` -1 draws the dealer
    at random as ``simulate`` does, a seat number sets it (a deal of a game).
    ``decisions`` also logs every listed decision (see :func:`decision_trace`).
    """
    from canasta_sim.kernels.play.tasks import trace_deal_nb

    size = BUFFER_INTS
    if plan.rules.american:
        from canasta_sim.trace_american import run_traced_american

        return run_traced_american(plan, deal, dealer, size)
    while True:
        buf = np.zeros(size, np.int32)
        row = plan.new_rows(1)[0]
        table = policy_table(plan)
        used = trace_deal_nb(plan.rules_nb, plan.seed, deal, dealer, table, plan.params,
                             plan.scores_before, row, buf, int(decisions))
        check_policy_table(plan, table)
        if row[layout.COL_TRACE_OVERFLOW] == 0:
            return buf[:used], row
        size *= 4


def decode_events(buf, plan: Plan, deal: int, row, game=None) -> list:
    """The docs/trace.md events (dicts) of one traced deal, start to score."""
    from canasta_sim import trace_american

    rules = plan.rules
    events = []
    pos = 0
    while pos < len(buf):
        code, seat, a, b, n = (int(x) for x in buf[pos:pos + layout.EV_HEADER])
        cards = buf[pos + layout.EV_HEADER:pos + layout.EV_HEADER + n]
        pos += layout.EV_HEADER + n
        if code == layout.EV_DECISION:
            continue
        if rules.american:
            events.append(trace_american.event(code, seat, a, b, cards, plan, deal, game,
                                               _take_event))
        else:
            events.append(_event(code, seat, a, b, cards, plan, deal, game))
    events.append(trace_american.score_event(row) if rules.american
                  else score_event(row, rules.num_sides, rules))
    return events


DECISIONS = ("draw", "meld", "discard", "ask", "answer", "take_plan")   # options.DEC_* order
_PLAN_INTS = 3 * MELD_KINDS


def decode_decisions(buf) -> list:
    """The decision log of a deal traced with ``decisions``: one dict per listed decision,
    ``{"events_before", "seat", "decision", "options", "chosen"}`` (see decision_trace)."""
    out = []
    pos = 0
    events = 0
    while pos < len(buf):
        code, seat, a, b, n = (int(x) for x in buf[pos:pos + layout.EV_HEADER])
        cards = [int(x) for x in buf[pos + layout.EV_HEADER:pos + layout.EV_HEADER + n]]
        pos += layout.EV_HEADER + n
        if code != layout.EV_DECISION:
            events += 1
            continue
        listed = []
        i = 0
        while i < len(cards):
            row = cards[i:i + 5]
            i += 5
            plan = None
            if row[0] == options.OPT_GO_OUT:
                plan = cards[i:i + _PLAN_INTS]
                i += _PLAN_INTS
            listed.append(option_tuple(row, plan))
        out.append({"events_before": events, "seat": seat, "decision": DECISIONS[a],
                    "options": listed, "chosen": b})
    return out


def option_tuple(row, plan=None) -> tuple:
    """One option of the engine's list (``options.OPT_*`` row) in the canonical form of
    docs/moves.md: ("take", k, d, j), ("new", rank, n, d, j), ("out", discard, placements)..."""
    kind, a, b, c = (int(x) for x in row[:4])
    if kind == options.OPT_DRAW:
        return ("draw",)
    if kind == options.OPT_DECLINE:
        return ("decline",)
    if kind == options.OPT_TAKE:
        return ("take", a, b, c)
    if kind == options.OPT_STOP:
        return ("stop",)
    if kind == options.OPT_NEW:
        return ("new", TOKENS[a], b, c, int(row[4]))
    if kind == options.OPT_ADD:
        return ("add", TOKENS[a], TOKENS[b])
    if kind == options.OPT_GO_OUT:
        placements = []
        for r in _PLACEMENT_ORDER:
            n, d, j = plan[3 * r:3 * r + 3]
            if n + d + j:
                placements.append((TOKENS[r], n, d, j))
        return ("out", TOKENS[b] if b >= 0 else None, tuple(placements))
    if kind == options.OPT_DISCARD:
        return ("discard", TOKENS[a])
    names = {options.OPT_ASK: "ask", options.OPT_NO_ASK: "no_ask", options.OPT_YES: "yes",
             options.OPT_NO: "no"}
    return (names[kind],)


_PLACEMENT_ORDER = tuple(range(3, len(TOKENS)))         # "3b", "4" .. "A"


def decision_trace(rules="classic", seed=0, deal=0, policies="random", scores=None):
    """Play one deal with every listed decision logged: returns ``(events, decisions)``,
    the docs/trace.md events of the deal and one dict per decision the engine listed
    options for: ``events_before`` (events written before it), ``seat``, ``decision``
    (draw, take_plan, meld, discard, ask, answer), ``options`` (docs/moves.md tuples) and
    ``chosen`` (the index the seat's policy picked).  Decisions that ``greedy`` and the
    club players make without a list (their meld steps and takes) are not logged."""
    plan = prepare(1, seed, rules, policies, scores, deal)
    buf, row = run_traced(plan, deal, decisions=True)
    return decode_events(buf, plan, deal, row), decode_decisions(buf)


def _event(code, seat, a, b, cards, plan, deal, game) -> dict:
    """One decoded event."""
    if code == layout.EV_START:
        return _start_event(seat, cards, plan, deal, game)
    if code == layout.EV_UPCARD:
        return {"ev": "upcard", "cards": _tokens(cards)}
    if code == layout.EV_RED3:
        return {"ev": "red3", "seat": seat, "from": layout.RED3_SOURCES[a],
                "replacement": TOKENS[b] if b >= 0 else None}
    if code == layout.EV_DRAW:
        return {"ev": "draw", "seat": seat, "cards": _tokens(cards)}
    if code == layout.EV_TAKE:
        return _take_event(seat, a, b, cards)
    if code == layout.EV_MELD:
        return _with_owner({"ev": "meld", "seat": seat, "rank": TOKENS[a],
                            "cards": _tokens(cards)}, b)
    if code == layout.EV_PARTNERSHIP:
        return _partnership_event(seat, a, cards, plan.rules)
    if code == layout.EV_ASK:
        return {"ev": "ask", "seat": seat, "answer": bool(a)}
    if code == layout.EV_DISCARD:
        return {"ev": "discard", "seat": seat, "card": TOKENS[a]}
    if code == layout.EV_OUT:
        return {"ev": "out", "seat": seat, "concealed": bool(a)}
    if code == layout.EV_END:
        return {"ev": "end", "reason": "out" if a == layout.END_OUT else "stock"}
    raise ValueError(f"unknown trace event code {code}")


def _start_event(dealer, cards, plan, deal, game) -> dict:
    rules = plan.rules
    n, size = rules.num_players, rules.hand_size
    hands = [_tokens(cards[s * size:(s + 1) * size]) for s in range(n)]
    return {"ev": "start", "deal": int(deal), "game": game, "rules": rules.canonical(),
            "seats": n, "sides": rules.sides(), "dealer": dealer,
            "scores_before": [int(x) for x in plan.scores_before[:rules.num_sides]],
            "hands": hands, "stock": _tokens(cards[n * size:])}


def _with_owner(event: dict, code: int) -> dict:
    """Add the ``owner`` field (cutthroat: whose of two melds of the rank gets the cards)."""
    if code > 0:
        event["owner"] = code - 1
    return event


def _partnership_event(lone, formed_by, merged, rules) -> dict:
    """The ``partnership`` line (cutthroat, C5-C7): the lone hand, the partners, the cause and
    under ``merge`` the ranks whose two melds became one."""
    event = {"ev": "partnership", "lone": lone,
             "partners": [s for s in range(3) if s != lone],
             "by": "take" if formed_by == layout.FORMED_TAKE else "out"}
    if rules.cutthroat_same_rank_melds == "merge":
        event["merged"] = _tokens(merged)
    return event


def _take_event(seat, pile_n, n_melds, cards) -> dict:
    pile = _tokens(cards[:pile_n])
    melds = []
    i = pile_n
    for _ in range(n_melds):
        code, count = int(cards[i]), int(cards[i + 1])
        rank, owner = code % layout.OWNER_STRIDE, code // layout.OWNER_STRIDE
        melds.append(_with_owner({"rank": TOKENS[rank],
                                  "cards": _tokens(cards[i + 2:i + 2 + count])}, owner))
        i += 2 + count
    return {"ev": "take", "seat": seat, "pile": pile, "melds": melds}


def cutthroat_groups(row) -> list:
    """The sides as they stand at the end of a cutthroat deal, in the order of their lowest
    seat: ``[[0], [1, 2]]`` for lone hand 0, three one-seat sides without a partnership."""
    lone = int(row[layout.COL_LONE_SEAT])
    if lone < 0:
        return [[0], [1], [2]]
    partners = [s for s in range(3) if s != lone]
    return sorted([[lone], partners])


def seat_role(row, seat: int) -> str:
    """``lone``, ``partner`` or ``solo`` (no partnership formed) for a cutthroat deal."""
    lone = int(row[layout.COL_LONE_SEAT])
    return "solo" if lone < 0 else "lone" if seat == lone else "partner"


def _cutthroat_score_event(row) -> dict:
    """The cutthroat score line: a side object per side as it stands (its items from any of
    its seats' columns, its red threes the sum of the seats' own items) and a seat object per
    seat (docs/trace.md)."""
    def field(seat, name):
        return int(row[layout.SIDE_BASE + layout.SIDE_STRIDE * seat
                       + layout.SIDE_FIELDS.index(name)])
    sides = []
    for group in cutthroat_groups(row):
        s = group[0]
        red3 = sum(field(k, "red3_points") for k in group)
        item = {"melds": field(s, "melds"), "natural": field(s, "natural"),
                "mixed": field(s, "mixed"), "canastas": field(s, "canasta_bonus"),
                "red3": red3, "out": field(s, "out_bonus"), "hand": field(s, "hand")}
        item["total"] = item["melds"] + item["canastas"] + red3 + item["out"] + item["hand"]
        item["seats"] = group
        sides.append(item)
    seats = [{"role": seat_role(row, k), "red3": field(k, "red3_points"),
              "share": field(k, "score") - field(k, "red3_points"), "total": field(k, "score")}
             for k in range(3)]
    return {"ev": "score", "sides": sides, "seats": seats}


def score_event(row, num_sides: int, rules=None) -> dict:
    """The score line of docs/trace.md, from the kernel's result row."""
    if rules is not None and rules.cutthroat:
        return _cutthroat_score_event(row)
    sides = []
    for k in range(num_sides):
        base = layout.SIDE_BASE + layout.SIDE_STRIDE * k
        item = {name: int(row[base + i]) for i, name in enumerate(layout.SIDE_FIELDS)}
        sides.append({"melds": item["melds"], "natural": item["natural"],
                      "mixed": item["mixed"], "canastas": item["canasta_bonus"],
                      "red3": item["red3_points"], "out": item["out_bonus"],
                      "hand": item["hand"], "total": item["score"]})
    return {"ev": "score", "sides": sides}


def trace_events(rules="classic", seed=0, first=0, last=1, policies="greedy",
                 scores_before=None) -> Iterator[list]:
    """The event lists of deals first..last-1."""
    plan = prepare(max(last - first, 0), seed, rules, policies, scores_before, first)
    for deal in range(first, last):
        buf, row = run_traced(plan, deal)
        yield decode_events(buf, plan, deal, row)


def game_trace_events(rules="classic", seed=0, first=0, last=1,
                      policies="greedy") -> Iterator[list]:
    """The event lists of every deal of games first..last-1 (``game`` set in each start).

    Each game is played once to learn its dealers and cumulative scores, then each of
    its deals is traced with them; deal k of game g is the row (game g, deal k) of a
    games run.
    """
    from canasta_sim.runner import play_game_range

    plan = prepare(seed=seed, rules=rules, policies=policies, games=max(last - first, 0),
                   first_game=first)
    for game in range(first, last):
        rows = play_game_range(plan, game, 1)
        for k in range(rows.deals.shape[0]):
            deal_plan = plan._replace(
                scores_before=rows.extras[k, layout.D_CUM_BEFORE:].astype(np.int64))
            buf, row = run_traced(deal_plan, game * layout.GAME_STRIDE + k,
                                  int(rows.deals[k, layout.COL_DEALER]))
            yield decode_events(buf, deal_plan, k, row, game=game)


def event_lines(event_lists) -> Iterator[str]:
    """JSON Lines (docs/trace.md), one event per string, from lists of events."""
    for events in event_lists:
        for ev in events:
            yield json.dumps(ev, separators=(",", ":"))


def trace_lines(rules="classic", seed=0, first=0, last=1, policies="greedy",
                scores_before=None) -> Iterator[str]:
    """JSON Lines (docs/trace.md) of deals first..last-1, one event per string."""
    return event_lines(trace_events(rules, seed, first, last, policies, scores_before))


# ---- the readable view ----------------------------------------------------------------------

_ORDER = {t: i for i, t in enumerate(TOKENS)}


def _fmt_cards(counter: Counter) -> str:
    cards = sorted(counter.elements(), key=lambda t: -_ORDER[t])
    return " ".join(cards) if cards else "-"


WILD_TOKENS = ("JK", "2")


def canasta_kind(cards) -> str:
    """'natural canasta' or 'mixed canasta' for a meld of 7 or more cards (R23), else ''."""
    if len(cards) < 7:
        return ""
    return "mixed canasta" if any(c in WILD_TOKENS for c in cards) else "natural canasta"


def partnerships(sides) -> str:
    """``side 0 = seats 0 and 2, side 1 = seats 1 and 3`` (or each seat alone)."""
    def seats(group):
        return f"seat {group[0]}" if len(group) == 1 else \
            "seats " + ", ".join(str(s) for s in group[:-1]) + f" and {group[-1]}"
    return ", ".join(f"side {k} = {seats(g)}" for k, g in enumerate(sides))


class _View:
    """Hands, pile, melds and red threes, replayed from the trace events for display."""

    def __init__(self, start: dict):
        from canasta_sim.rules import parse_rules

        self.sides = start["sides"]
        self.side_of = {s: k for k, seats in enumerate(self.sides) for s in seats}
        self.hands = [Counter(h) for h in start["hands"]]
        self.stock = list(start["stock"])
        self.pile = []
        self.melds = [dict() for _ in self.sides]
        self.red3 = [0] * len(self.sides)
        self.melded = [False] * len(self.sides)
        self.partner = {}                        # cutthroat: each partner's partner (C5)
        rules = parse_rules(start["rules"])
        self.freezers = {"JK": "a joker", "2": "a deuce"}   # R32 (R8 for the upcard)
        if rules.upcard_red3_freezes:
            self.freezers["3r"] = "a red three"
        if rules.black_three_freezes:
            self.freezers["3b"] = "a black three"

    def pile_state(self) -> str:
        """``pile N, frozen (a deuce in it)`` / ``pile N, open`` plus the sides for which it
        is frozen because they have not melded yet (R32)."""
        if not self.pile:
            return "pile empty"
        reason = next((self.freezers[c] for c in self.pile if c in self.freezers), None)
        if reason is not None:
            return f"pile {len(self.pile)}, frozen ({reason} in it)"
        unmelded = [str(k) for k, done in enumerate(self.melded) if not done]
        if not unmelded:
            return f"pile {len(self.pile)}, open"
        who = ("side " if len(unmelded) == 1 else "sides ") + " and ".join(unmelded)
        return f"pile {len(self.pile)}, open; frozen for {who} (not melded yet)"

    def apply(self, ev: dict) -> str:
        """Apply one event to the view and return its line of text."""
        kind = ev["ev"]
        seat = ev.get("seat")
        if kind == "upcard":
            self.stock = self.stock[len(ev["cards"]):]
            self.pile.extend(ev["cards"])
            return (f"upcard: {' '.join(ev['cards'])}  (pile top {self.pile[-1]})   "
                    f"[{self.pile_state()}]")
        if kind == "red3":
            self.hands[seat]["3r"] -= 1
            self.red3[self.side_of[seat]] += 1
            if ev["replacement"] is not None:
                self.stock.pop(0)
                self.hands[seat][ev["replacement"]] += 1
            repl = ev["replacement"] or "nothing"
            return f"  seat {seat} lays a red three ({ev['from']}), replaced by {repl}"
        if kind == "draw":
            self.stock = self.stock[len(ev["cards"]):]
            self.hands[seat].update(ev["cards"])
            return f"seat {seat} draws {' '.join(ev['cards'])}   [stock {len(self.stock)}]"
        if kind == "take":
            return self._take(seat, ev)
        if kind == "partnership":
            return self._partnership(ev)
        if kind == "meld":
            self.hands[seat].subtract(ev["cards"])
            became = self._add(seat, ev["rank"], ev["cards"], ev.get("owner"))
            return f"  seat {seat} melds {ev['rank']}: {' '.join(ev['cards'])}{became}"
        if kind == "ask":
            return f"  seat {seat} asks to go out: {'yes' if ev['answer'] else 'no'}"
        if kind == "discard":
            self.hands[seat][ev["card"]] -= 1
            self.pile.append(ev["card"])
            return (f"  seat {seat} discards {ev['card']}   hand: "
                    f"{_fmt_cards(+self.hands[seat])}   [{self.pile_state()}]")
        if kind == "out":
            how = "concealed" if ev["concealed"] else "not concealed"
            return f"  seat {seat} goes out ({how})"
        if kind == "end":
            return f"end: {ev['reason']}\n" + self.table()
        if kind == "score":
            lines = [f"side {k} {s.get('seats', self.sides[k])}: " + ", ".join(
                f"{key} {val}" for key, val in s.items() if key != "seats")
                for k, s in enumerate(ev["sides"])]
            lines += [f"seat {k} ({s['role']}): red threes {s['red3']}, share {s['share']}, "
                      f"total {s['total']}" for k, s in enumerate(ev.get("seats", []))]
            return "\n".join(lines)
        return json.dumps(ev)

    def _partnership(self, ev) -> str:
        """Cutthroat (C5, C6): name the lone hand and the partners from now on."""
        a, b = ev["partners"]
        self.partner = {a: b, b: a}
        low, high = sorted((a, b))
        for rank in ev.get("merged", []):          # C7 merge: one meld, the lower partner's
            moved = self.melds[self.side_of[high]].pop(rank, [])
            self.melds[self.side_of[low]].setdefault(rank, []).extend(moved)
        why = "took the pile first" if ev["by"] == "take" else "went out before any take"
        merged = f"; merged melds: {' '.join(ev['merged'])}" if ev.get("merged") else ""
        return (f"  seat {ev['lone']} is the LONE HAND ({why}); seats {a} and {b} play as "
                f"partners from now on{merged}")

    def _take(self, seat, ev) -> str:
        top = ev["pile"][-1]
        state = self.pile_state()
        became = []
        for i, meld in enumerate(ev["melds"]):
            from_hand = list(meld["cards"])
            if i == 0:
                from_hand.remove(top)
            self.hands[seat].subtract(from_hand)
            became.append(self._add(seat, meld["rank"], meld["cards"], meld.get("owner")))
        for card in ev["pile"][:-1]:
            self.hands[seat][card] += 1
        self.pile = []
        melds = "; ".join(f"{m['rank']}: {' '.join(m['cards'])}{b}"
                          for m, b in zip(ev["melds"], became))
        return (f"seat {seat} TAKES the pile of {len(ev['pile'])} ({top} on top; was "
                f"{state.split(', ', 1)[1] if ', ' in state else state}) with {melds}")

    def _add(self, seat, rank, cards, owner=None) -> str:
        """Lay ``cards`` on the side's meld of ``rank``; returns ``  -> natural canasta``
        (or mixed) when the meld is a canasta after it, else ''.  In cutthroat melds lie in
        front of their seat: ``owner``'s if given, else the seat's own, else its partner's."""
        side = self.side_of[seat]
        mate = self.partner.get(seat)
        if owner is not None and owner in (seat, mate) and rank in self.melds[owner]:
            side = self.side_of[owner]
        elif mate is not None and rank not in self.melds[side] \
                and rank in self.melds[self.side_of[mate]]:
            side = self.side_of[mate]
        self.melded[side] = True
        meld = self.melds[side].setdefault(rank, [])
        meld.extend(cards)
        kind = canasta_kind(meld)
        return f"  -> {len(meld)} cards: {kind}" if kind else ""

    def table(self) -> str:
        """Each side's red threes and melds, and every hand, as lines of text."""
        lines = []
        for k, seats in enumerate(self.sides):
            melds = "  ".join(
                f"[{' '.join(c)}]" + (f" {canasta_kind(c)}" if canasta_kind(c) else "")
                for _, c in sorted(self.melds[k].items(), key=lambda kv: -_ORDER[kv[0]]))
            lines.append(f"side {k}: red threes {self.red3[k]}  melds {melds or '-'}")
            for s in seats:
                lines.append(f"  seat {s} holds {_fmt_cards(+self.hands[s])}")
        return "\n".join(lines)


def pretty_lines(rules="classic", seed=0, first=0, last=1, policies="greedy",
                 scores_before=None) -> Iterator[str]:
    """A readable, turn-by-turn view of deals first..last-1 (hands, pile, melds)."""
    return pretty_event_lines(trace_events(rules, seed, first, last, policies, scores_before))


def _view_for(start: dict):
    """The readable view of a deal: Modern American's for that family, else classic's."""
    from canasta_sim.rules import parse_rules

    if parse_rules(start["rules"]).american:
        from canasta_sim.trace_american import american_view

        return american_view(start, _View)
    return _View(start)


def pretty_event_lines(event_lists) -> Iterator[str]:
    """A readable, turn-by-turn view of lists of events (hands, pile, melds)."""
    for events in event_lists:
        start = events[0]
        view = _view_for(start)
        game = f"game {start['game']}  " if start.get("game") is not None else ""
        yield (f"=== {game}deal {start['deal']}  rules {start['rules']}  dealer "
               f"{start['dealer']}  scores before {start['scores_before']}")
        yield f"partnerships: {partnerships(start['sides'])}"
        for s, hand in enumerate(view.hands):
            yield f"seat {s} dealt {_fmt_cards(hand)}"
        for ev in events[1:]:
            yield view.apply(ev)
        yield ""
