"""A Modern American position file: one decision's position as the deciding seat sees it,
plus the public record, in JSON (docs/analysis.md, "Modern American").

As classic's (:mod:`.posfile`): the other hands, the stock and the set-aside talons not yet
taken are filled with the remaining cards in any order, since the rollouts deal them again.
The family's own fields: ``threes`` (laid per side, red and black), the wild meld under the
rank ``JK``, the talons (``talons_taken``, ``talon_received``), the turn card, the questions
asked (A41), and the turn record of a going-out or discard decision (``turn``: the opening
turn, the talon it earns, a take, the melds started this turn).  :func:`position_of` writes
the file of a decision of a traced deal; a test checks that the file gives the values the
trace gives.
"""
from __future__ import annotations


import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.american.pile import TALON_FIRST, TALON_NONE, TALON_SECOND
from canasta_sim.kernels.game.american.state import (
    X_ASKED,
    X_KEPT,
    X_SIDE_TALON,
    X_SPECIAL_SEAT,
    X_TALONS_TAKEN,
    X_TURN_ANSWER,
    X_TURN_CARD,
    X_TURN_DREW,
    X_TURN_FRESH,
    X_TURN_OPENING,
    X_TURN_STOCK,
    X_TURN_TAKE_ROW,
    X_TURN_TALON,
    X_TURN_TOOK,
)
from canasta_sim.kernels.game.cards import (
    BLACK3,
    FIRST_NATURAL,
    JOKER,
    NKINDS,
    RED3,
    TOKEN_TO_KIND,
    TOKENS,
)
from canasta_sim.kernels.game.layout import MAX_SIDES
from canasta_sim.kernels.game.slots import (
    SEAT_HAD_TURN,
    SEAT_MINIMUM,
    SIDE_MELDED,
    SIDE_MINIMUM,
    SIDE_SCORE_BEFORE,
    ST_DEALER,
    ST_DECK_N,
    ST_NSEATS,
    ST_NSIDES,
    ST_OUT_SEAT,
    ST_PILE_N,
    ST_SIDE_OF,
    ST_STOCK_POS,
    ST_TURNS,
)

from .american import MacDecisions, MacPosition, new_position
from .position import Decision
from .posfile import _check, _deck_counts, _kinds, card_tokens, meld_tables, place_meld

KINDS = ("take", "going out", "discard")
FIELDS = ("rules", "seat", "decision", "dealer", "scores_before", "hand", "hand_sizes",
          "melds", "threes", "pile", "stock", "talons_taken", "talon_received", "turn_card",
          "asked", "had_turn", "turns", "turn", "played")
TALONS = (TALON_FIRST, TALON_SECOND)
SIDES = 2


class MacPositionScript(MacDecisions):
    """A Modern American position read from a file, with what ``deal.analyse_decision``
    reads of a script: the rules, the scores before, the state and one decision."""

    def __init__(self, data: dict, rules):
        _check(data, rules, FIELDS, KINDS, "Modern American")
        self.rules = rules
        self.rules_nb = rules.to_american_kernel()
        self.data = data
        self.seats = rules.num_players
        self.dealer = int(data["dealer"])
        self.scores_before = np.zeros(MAX_SIDES, np.int64)
        for i, s in enumerate(data.get("scores_before", [])[:SIDES]):
            self.scores_before[i] = int(s)
        self.events = []
        self.pos = self._build()
        self.decisions = [Decision(data["decision"], data["seat"], data["seat"], 0, 0,
                                   int(data.get("turns", 0)), str(data.get("played", "")))]

    def state(self, stop=0, trace=False):
        """The position's state (a fresh copy each time)."""
        from .american import copy_position

        return MacPosition(*copy_position(self.pos)), None

    def _build(self):
        """The deal state of the position (module docstring)."""
        from canasta_sim.kernels.game.american.initial import mac_minimum_nb

        d = self.data
        from canasta_sim.kernels.game.rng import seed_streams_nb

        S, A = new_position()
        seed_streams_nb(S.rng, 0, 0)                     # as a replayed deal's (analysis.py)
        st, seatv, sidev = S.st, S.seatv, S.sidev
        n, seat = self.seats, d["seat"]
        st[ST_NSEATS], st[ST_NSIDES], st[ST_DEALER] = n, SIDES, self.dealer
        st[ST_OUT_SEAT] = -1
        for s in range(n):
            st[ST_SIDE_OF + s] = s % SIDES                              # A1
        A.x[X_SPECIAL_SEAT] = -1
        left = _deck_counts(self.rules)
        for k in _kinds(d["hand"], "hand"):
            S.hands[seat, k] += 1
            left[k] -= 1
        A.x[X_KEPT + seat] = S.hands[seat, RED3] + S.hands[seat, BLACK3]  # A10: kept
        for side, table in enumerate(d["melds"]):
            for rank, cards in table.items():
                self._meld(S, side, rank, _kinds(cards, f"melds[{side}][{rank}]"), left)
        for k, card in enumerate(_kinds(d["pile"], "pile")):
            S.pile[k] = card
            left[card] -= 1
        st[ST_PILE_N] = len(d["pile"])
        for side, (red, black) in enumerate(d.get("threes", [[0, 0], [0, 0]])):
            A.threes[side, 0], A.threes[side, 1] = red, black              # A9, A47
            left[RED3] -= red
            left[BLACK3] -= black
        self._talons(A, d)
        deal_hidden(S, A, self.rules, seat, d["hand_sizes"], left, int(d["stock"]))
        for side in range(SIDES):
            sidev[side, SIDE_SCORE_BEFORE] = self.scores_before[side]
            sidev[side, SIDE_MINIMUM] = mac_minimum_nb(self.rules_nb,
                                                       int(self.scores_before[side]))  # A24
            sidev[side, SIDE_MELDED] = int(bool(d["melds"][side]))
        for s in range(n):
            seatv[s, SEAT_MINIMUM] = sidev[s % SIDES, SIDE_MINIMUM]
            seatv[s, SEAT_HAD_TURN] = d.get("had_turn", [1] * n)[s]
            A.x[X_ASKED + s] = d.get("asked", [0] * n)[s]                 # A41
        st[ST_TURNS] = int(d.get("turns", 0))
        A.x[X_TURN_CARD] = int(bool(d.get("turn_card", False)))          # A7
        self._turn(S, A, d)
        return S, A

    def _meld(self, S, side, rank, kinds, left):
        """A side's meld of ``rank``, the wild meld under ``JK`` (A19-A23)."""
        if rank not in TOKEN_TO_KIND or FIRST_NATURAL > TOKEN_TO_KIND[rank] > JOKER:
            raise BadInput(f"position: meld rank {rank!r}: accepted: 4 .. A, or JK (the "
                           "wild meld)")
        place_meld(S, side, rank, kinds, left)

    def _talons(self, A, d):
        """A32, A33: the talons taken and the size each side received."""
        taken = d.get("talons_taken", [False, False])
        for which, was in zip(TALONS, taken):
            A.x[X_TALONS_TAKEN] |= int(bool(was)) << which
        for side, size in enumerate(d.get("talon_received", [0, 0])):
            A.x[X_SIDE_TALON + side] = int(size)

    def _turn(self, S, A, d):
        """The turn record of the deciding seat (a take decision comes before the draw and
        reads only the cleared record)."""
        turn = d.get("turn", {})
        x = A.x
        x[X_TURN_ANSWER] = -1
        x[X_TURN_TAKE_ROW] = -1
        if d["decision"] == "take":
            return
        x[X_TURN_TOOK] = int(bool(turn.get("took_pile", False)))
        x[X_TURN_DREW] = 1 - x[X_TURN_TOOK]
        x[X_TURN_STOCK] = int(d["stock"])
        x[X_TURN_OPENING] = int(bool(turn.get("opening", False)))        # A20, A25
        x[X_TURN_TALON] = {0: TALON_NONE, 1: TALON_FIRST, 2: TALON_SECOND}.get(
            int(turn.get("talon", 0)), TALON_NONE)                        # A32
        for rank in turn.get("new_melds", []):
            if rank not in TOKEN_TO_KIND:
                raise BadInput(f"position: turn.new_melds holds {rank!r}: accepted: ranks")
            x[X_TURN_FRESH] |= 1 << TOKEN_TO_KIND[rank]                   # A20, A21


def hidden_talons(rules, A) -> dict:
    """The set-aside talons still face down and their sizes (A5)."""
    if rules.mac_talon_source != "set_aside":
        return {}
    sizes = dict(zip(TALONS, rules.mac_talon_sizes))
    return {w: sizes[w] for w in TALONS if not A.x[X_TALONS_TAKEN] >> w & 1}


def talon_start(rules, which) -> int:
    """Where set-aside talon ``which`` lies in the deck (A5: after the dealt cards)."""
    from canasta_sim.kernels.game.american.pile import set_aside_start_nb

    return int(set_aside_start_nb(rules.to_american_kernel(), which))


def deal_hidden(S, A, rules, seat, hand_sizes, left, stock):
    """Lay the cards ``left`` (a Counter of kinds) out as the cards hidden from ``seat``:
    the other hands of ``hand_sizes``, the set-aside talons not yet taken, the ``stock``;
    in kind order, threes to the stock first (a hand after its first turn holds none, A9).
    The rollouts deal them again, so the layout only fixes their order."""
    if any(v < 0 for v in left.values()):
        bad = next(TOKENS[k] for k, v in left.items() if v < 0)
        raise BadInput(f"position: more {bad} than the deck holds (A2)")
    rest = [k for k in sorted(left) for _ in range(left[k]) if k not in (RED3, BLACK3)]
    threes = [RED3] * left[RED3] + [BLACK3] * left[BLACK3]
    at = 0
    for s in range(rules.num_players):
        if s == seat:
            continue
        want = hand_sizes[s]
        if at + want > len(rest):
            raise BadInput(f"position: hand_sizes[{s}] = {want} does not fit the cards left")
        for k in rest[at:at + want]:
            S.hands[s, k] += 1
        at += want
    rest = threes + rest[at:]
    hidden = hidden_talons(rules, A)
    if len(rest) - sum(hidden.values()) != stock:
        raise BadInput(f"position: stock {stock} but {len(rest) - sum(hidden.values())} cards "
                       "are left for it (the deck less the hands, melds, pile, threes and "
                       "face-down talons)")
    for which, count in hidden.items():
        start = talon_start(rules, which)
        S.deck[start:start + count] = rest[:count]
        rest = rest[count:]
    size = sum(_deck_counts(rules).values())
    S.st[ST_DECK_N] = size
    S.st[ST_STOCK_POS] = size - len(rest)
    S.deck[S.st[ST_STOCK_POS]:size] = rest


def position_of(script, decision) -> dict:
    """The position file of a decision of a traced Modern American deal (a take, going out
    or a discard: an answer's or a meld step's is not written)."""
    if decision.kind not in KINDS:
        raise BadInput(f"a position file of a {decision.kind} decision: accepted for "
                       f"family=modern_american: {', '.join(KINDS)}")
    (S, A), _ = script.state(decision.at)
    seat, n = decision.seat, script.seats

    cards = card_tokens
    melds = meld_tables(S, SIDES, [JOKER] + list(range(FIRST_NATURAL, NKINDS)))
    x = A.x
    data = {"rules": script.rules.canonical(), "seat": seat, "decision": decision.kind,
            "played": decision.played, "dealer": script.dealer,
            "scores_before": [int(v) for v in script.scores_before[:SIDES]],
            "hand": cards(S.hands[seat]),
            "hand_sizes": [int(S.hands[s].sum()) for s in range(n)],
            "melds": melds, "threes": [[int(A.threes[k, 0]), int(A.threes[k, 1])]
                                       for k in range(SIDES)],
            "pile": [TOKENS[int(k)] for k in S.pile[:S.st[ST_PILE_N]]],
            "stock": int(S.st[ST_DECK_N] - S.st[ST_STOCK_POS]),
            "talons_taken": [bool(x[X_TALONS_TAKEN] >> w & 1) for w in TALONS],
            "talon_received": [int(x[X_SIDE_TALON + k]) for k in range(SIDES)],
            "turn_card": bool(x[X_TURN_CARD]),
            "asked": [int(x[X_ASKED + s]) for s in range(n)],
            "had_turn": [int(S.seatv[s, SEAT_HAD_TURN]) for s in range(n)],
            "turns": int(S.st[ST_TURNS])}
    if decision.kind != "take":
        data["turn"] = {"took_pile": bool(x[X_TURN_TOOK]), "opening": bool(x[X_TURN_OPENING]),
                        "talon": int(x[X_TURN_TALON]),
                        "new_melds": [TOKENS[r] for r in range(NKINDS)
                                      if x[X_TURN_FRESH] >> r & 1]}
    return data
