"""Modern American deal traces: the family's lines of docs/american.md ("Traces") decoded from
the kernel's event buffer, as :mod:`canasta_sim.trace` does for classic.

The family adds ``three`` (replacing ``red3``), ``talon``, ``turn_card`` and ``special`` lines,
``empty_pile`` on every ``discard``, the reason ``special`` on ``end``, the set-aside talons on
``start`` (with ``mac_talon_source=set_aside``) and its own ``score`` items.  There is no
``upcard`` line.
"""
from __future__ import annotations

import numpy as np

from canasta_sim.kernels.game import layout
from canasta_sim.kernels.game.american.moves import THREE_SOURCES
from canasta_sim.kernels.game.american.special import NAMES, wins_game_nb
from canasta_sim.kernels.game.cards import TOKENS

SCORE_ITEMS = ("canastas", "canasta_bonus", "out", "melds", "threes", "incomplete", "hand",
               "hand_penalty", "special", "total")
"""The fields of each side's object in the family's ``score`` line, in order."""
END_NAMES = ("out", "stock", "special")


def run_traced_american(plan, deal: int, dealer: int, size: int):
    """Play one Modern American deal traced; returns (event int buffer, result row)."""
    from canasta_sim.kernels.play.american.tasks import trace_mac_deal
    from canasta_sim.runner import check_policy_table, policy_table

    while True:
        buf = np.zeros(size, np.int32)
        row = plan.new_rows(1)[0]
        table = policy_table(plan)
        used = trace_mac_deal(plan.rules_nb, plan.seed, deal, dealer, table,
                              plan.params, plan.scores_before, row, buf)
        check_policy_table(plan, table)
        if row[layout.COL_TRACE_OVERFLOW] == 0:
            return buf[:used], row
        size *= 4


def _tokens(values) -> list:
    return [TOKENS[int(v)] for v in values]


def start_event(dealer, cards, plan, deal, game) -> dict:
    """The ``start`` line: hands as dealt, the set-aside talons (if any), the stock."""
    rules = plan.rules
    n, size = rules.num_players, rules.hand_size
    hands = [_tokens(cards[s * size:(s + 1) * size]) for s in range(n)]
    event = {"ev": "start", "deal": int(deal), "game": game, "rules": rules.canonical(),
             "seats": n, "sides": rules.sides(), "dealer": dealer,
             "scores_before": [int(x) for x in plan.scores_before[:rules.num_sides]],
             "hands": hands}
    at = n * size
    if rules.mac_talon_source == "set_aside":
        first, second = rules.mac_talon_sizes
        event["talons"] = [_tokens(cards[at:at + first]),
                           _tokens(cards[at + first:at + first + second])]
        at += first + second
    event["stock"] = _tokens(cards[at:])
    return event


def event(code, seat, a, b, cards, plan, deal, game, take_event) -> dict:
    """One decoded line of a Modern American deal (``take_event`` decodes ``take`` as classic's
    does)."""
    if code == layout.EV_START:
        return start_event(seat, cards, plan, deal, game)
    if code == layout.EV_THREE:
        return {"ev": "three", "seat": seat, "card": TOKENS[int(cards[0])],
                "from": THREE_SOURCES[a], "replacement": TOKENS[b] if b >= 0 else None}
    if code == layout.EV_DRAW:
        return {"ev": "draw", "seat": seat, "cards": _tokens(cards)}
    if code == layout.EV_TAKE:
        return take_event(seat, a, b, cards)
    if code == layout.EV_MELD:
        return {"ev": "meld", "seat": seat, "rank": TOKENS[a], "cards": _tokens(cards)}
    if code == layout.EV_ASK:
        return {"ev": "ask", "seat": seat, "answer": bool(a)}
    if code == layout.EV_DISCARD:
        return {"ev": "discard", "seat": seat, "card": TOKENS[a], "empty_pile": bool(b)}
    if code == layout.EV_TALON:
        return {"ev": "talon", "seat": seat, "size": a, "cards": _tokens(cards)}
    if code == layout.EV_TURN_CARD:
        return {"ev": "turn_card", "seat": seat, "stock": a}
    if code == layout.EV_SPECIAL:
        line = {"ev": "special", "seat": seat, "name": NAMES[a], "cards": _tokens(cards),
                "points": b}
        if wins_game_nb(a):
            line["game_over"] = True
        return line
    if code == layout.EV_OUT:
        return {"ev": "out", "seat": seat, "concealed": False}
    if code == layout.EV_END:
        return {"ev": "end", "reason": END_NAMES[a]}
    raise ValueError(f"unknown Modern American trace event code {code}")


def side_items(row, side: int) -> dict:
    """One side's ``score`` object from the result row (A4b)."""
    base = layout.SIDE_BASE + layout.SIDE_STRIDE * side
    fam = layout.MAC_SIDE_BASE + layout.MAC_SIDE_STRIDE * side

    def shared(name):
        return int(row[base + layout.SIDE_FIELDS.index(name)])

    def own(name):
        return int(row[fam + layout.MAC_SIDE_FIELDS.index(name)])
    return {"canastas": own("canastas"), "canasta_bonus": shared("canasta_bonus"),
            "out": shared("out_bonus"), "melds": shared("melds"),
            "threes": shared("red3_points"), "incomplete": own("incomplete"),
            "hand": shared("hand"), "hand_penalty": own("hand_penalty"),
            "special": own("special"), "total": shared("score")}


def score_event(row) -> dict:
    """The family's ``score`` line."""
    return {"ev": "score", "sides": [side_items(row, k) for k in range(2)]}


def american_view(start: dict, base):
    """The readable view of a Modern American deal (``canasta-sim replay --pretty``), built on
    classic's view class ``base`` (passed in, so that this module never imports
    canasta_sim.trace, which imports it)."""

    class AmericanView(base):
        """Classic's view with the family's lines: threes by colour, talons, the turn card,
        special hands; the pile is always frozen (A29)."""

        def __init__(self, start: dict):
            super().__init__(start)
            self.threes = [{"3r": 0, "3b": 0} for _ in self.sides]
            self.talons = [list(t) for t in start.get("talons", [])]

        def pile_state(self) -> str:
            return f"pile {len(self.pile)}, frozen" if self.pile else "pile empty"

        def apply(self, ev: dict) -> str:
            kind = ev["ev"]
            seat = ev.get("seat")
            if kind == "three":
                if ev["replacement"] is None:
                    return (f"  seat {seat} must lay a {ev['card']} but the stock is empty: "
                            "the deal ends (A43)")
                self.hands[seat][ev["card"]] -= 1
                self.threes[self.side_of[seat]][ev["card"]] += 1
                self.stock.pop(0)
                self.hands[seat][ev["replacement"]] += 1
                colour = "red" if ev["card"] == "3r" else "black"
                return (f"  seat {seat} lays a {colour} three ({ev['from']}), replaced by "
                        f"{ev['replacement']}")
            if kind == "talon":
                if self.talons:
                    self.talons.pop(0)
                else:
                    self.stock = self.stock[len(ev["cards"]):]
                self.hands[seat].update(ev["cards"])
                return (f"  seat {seat} takes a talon of {ev['size']}: "
                        f"{' '.join(ev['cards'])}   [stock {len(self.stock)}]")
            if kind == "turn_card":
                return f"  -- the turn card is drawn: {ev['stock']} stock cards left (A7)"
            if kind == "special":
                self.hands[seat].subtract(ev["cards"])
                end = "; it wins the game" if ev.get("game_over") else ""
                return (f"  seat {seat} lays the special hand {ev['name']} "
                        f"({' '.join(ev['cards'])}) for {ev['points']}{end}")
            if kind == "discard" and ev.get("empty_pile"):
                return super().apply(ev) + "  (onto an empty pile)"
            return super().apply(ev)

        def table(self) -> str:
            lines = super().table().split("\n")
            out = []
            for line in lines:
                if line.startswith("side "):
                    k = int(line.split()[1].rstrip(":"))
                    t = self.threes[k]
                    line = line.replace(f"red threes {self.red3[k]}",
                                        f"threes {t['3r']} red, {t['3b']} black")
                out.append(line)
            return "\n".join(out)

    return AmericanView(start)
