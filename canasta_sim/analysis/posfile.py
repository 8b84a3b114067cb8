"""A position file: one decision's position as the deciding seat sees it, plus the public
record, in JSON (docs/analysis.md, "A position file").

Only what the seat may know is read: its hand, every hand's size and the cards others are
known to hold (taken with the pile), the melds, red threes, the pile, the stock's size, the
scores, and a few public facts of the deal so far.  The other hands and the stock are filled
with the remaining cards in any order: the rollouts deal them again at random anyway, so the
values do not depend on how they were filled.  :func:`position_of` writes the position file
of a decision of a traced deal; a test checks that the file gives the very values the trace
gives.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.cards import (
    BLACK3,
    DEUCE,
    JOKER,
    MELD_KINDS,
    NKINDS,
    RED3,
    TOKEN_TO_KIND,
    TOKENS,
)
from canasta_sim.kernels.game.layout import MAX_SIDES
from canasta_sim.kernels.game.slots import (
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    OUT_OWN,
    SEAT_HAD_TURN,
    SEAT_KNOWN,
    SEAT_LAST_DISCARD,
    SEAT_MELDED_BEFORE,
    SEAT_MINIMUM,
    SIDE_CONCEALED_CANASTAS,
    SIDE_MELDED,
    SIDE_MINIMUM,
    SIDE_PILE_TAKES,
    SIDE_RED3,
    SIDE_RED3_DEALT,
    SIDE_SCORE_BEFORE,
    ST_DEALER,
    ST_DECK_N,
    ST_FREEZERS,
    ST_LONE,
    ST_NSEATS,
    ST_NSIDES,
    ST_PART_SIDE,
    ST_PILE_N,
    ST_SIDE_OF,
    ST_STOCK_POS,
    ST_TURN_ADDED_PRE,
    ST_TURN_ASK,
    ST_TURN_COUNT,
    ST_TURN_MELDED,
    ST_TURN_MIN,
    ST_TURN_NEEDS_MIN,
    ST_TURN_NEW_RANKS,
    ST_TURN_OUT_CHOICE,
    ST_TURN_PRE_RANKS,
    ST_TURN_SEAT,
    ST_TURN_TAKE,
    ST_TURNS,
    ST_UPCARDS,
)

from .position import Decision

KINDS = ("take", "going out", "discard")
FIELDS = ("rules", "seat", "decision", "dealer", "scores_before", "hand", "hand_sizes",
          "melds", "red3", "pile", "stock", "known", "turn", "played", "public")


def _deck_counts(rules) -> Counter:
    """R2: how many cards of each kind the deck holds (the engine's own deck)."""
    from canasta_sim.kernels.game.deal import build_deck_nb
    from canasta_sim.kernels.game.layout import MAX_CARDS
    from canasta_sim.kernels.game.state import rules_record_nb

    deck = np.zeros(MAX_CARDS, np.int64)
    if rules.american:
        from canasta_sim.kernels.game.american.state import mac_record_nb

        record = mac_record_nb(rules.to_american_kernel())           # A2: the same deck
    else:
        record = rules_record_nb(rules.to_kernel())
    size = build_deck_nb(record[0], deck)
    return Counter({int(k): int(c) for k, c in enumerate(np.bincount(deck[:size]))})


def _kinds(tokens, what) -> list:
    if not isinstance(tokens, list):
        raise BadInput(f"position: {what} must be a list of cards: accepted: e.g. "
                       '["K", "K", "2"]')
    out = []
    for t in tokens:
        if t not in TOKEN_TO_KIND:
            raise BadInput(f"position: unknown card {t!r} in {what}: accepted: "
                           f"{', '.join(TOKENS)}")
        out.append(TOKEN_TO_KIND[t])
    return out


def _check(data, rules, fields=FIELDS, kinds=KINDS, section="A position file"):
    """BadInput for a field that is missing or does not fit the rules (``fields`` and
    ``kinds``: the file's fields and decisions, as docs/analysis.md's ``section`` says)."""
    missing = [f for f in ("rules", "seat", "decision", "dealer", "hand", "hand_sizes",
                           "melds", "pile", "stock") if f not in data]
    if missing:
        raise BadInput(f"position: missing {', '.join(missing)}: accepted: the fields of "
                       f"docs/analysis.md, '{section}'")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise BadInput(f"position: unknown field {unknown[0]!r}: accepted: {', '.join(fields)}")
    n = rules.num_players
    if not isinstance(data["seat"], int) or not 0 <= data["seat"] < n:
        raise BadInput(f"position: seat {data['seat']!r}: accepted: 0..{n - 1}")
    if data["decision"] not in kinds:
        raise BadInput(f"position: decision {data['decision']!r}: accepted: "
                       f"{', '.join(kinds)}")
    if len(data["hand_sizes"]) != n or len(data["melds"]) != rules.num_sides:
        raise BadInput(f"position: hand_sizes needs {n} sizes and melds {rules.num_sides} "
                       "sides' tables (a list of {rank: cards})")
    if data["hand_sizes"][data["seat"]] != len(data["hand"]):
        raise BadInput(f"position: hand_sizes[{data['seat']}] = "
                       f"{data['hand_sizes'][data['seat']]} but the hand holds "
                       f"{len(data['hand'])} cards")


class PositionScript:
    """A position read from a file, with what ``deal.analyse_decision`` reads of a
    :class:`position.DealScript`: the rules, the scores before, the state and one decision."""

    def __init__(self, data: dict):
        from canasta_sim.rules import parse_rules

        if not isinstance(data, dict):
            raise BadInput("position: accepted: a JSON object (docs/analysis.md)")
        self.rules = parse_rules(data.get("rules", "classic"))
        if self.rules.team_layout.startswith("cutthroat"):
            raise BadInput("position: accepted: fixed layouts (no cutthroat)")
        _check(data, self.rules)
        self.rules_nb = self.rules.to_kernel()
        self.data = data
        self.seats = self.rules.num_players
        self.dealer = int(data["dealer"])
        self.scores_before = np.zeros(MAX_SIDES, np.int64)
        for i, s in enumerate(data.get("scores_before", [])[:MAX_SIDES]):
            self.scores_before[i] = int(s)
        self.events = []
        self.S = self._build()
        self.decisions = [Decision(data["decision"], data["seat"], data["seat"], 0, 0,
                                   int(data.get("public", {}).get("turns", 0)),
                                   str(data.get("played", "")))]

    def state(self, stop=0, trace=False):
        """The position's state (a fresh copy each time)."""
        from canasta_sim.kernels.game.state import copy_state

        return copy_state(self.S), None

    def _build(self):
        """The deal state of the position (module docstring)."""
        from canasta_sim.kernels.game.rng import seed_streams_nb
        from canasta_sim.kernels.game.state import (
            freezes_pile_nb,
            initial_minimum_nb,
            new_state,
            rules_record_nb,
        )

        d, rules = self.data, self.rules
        r = rules_record_nb(self.rules_nb)[0]
        S = new_state()
        seed_streams_nb(S.rng, 0, 0)                     # as a replayed deal's (analysis.py)
        n, seat = self.seats, d["seat"]
        left = _deck_counts(rules)
        st, seatv, sidev = S.st, S.seatv, S.sidev
        st[ST_NSEATS], st[ST_NSIDES], st[ST_DEALER] = n, rules.num_sides, self.dealer
        st[ST_LONE], st[ST_PART_SIDE] = -1, -1                    # C1: as game.deal.deal_nb
        for s in range(n):
            st[ST_SIDE_OF + s] = s % rules.num_sides                # R1: sides alternate
        public = d.get("public", {})
        for k in _kinds(d["hand"], "hand"):
            S.hands[seat, k] += 1
            left[k] -= 1
        for s, cards in (d.get("known") or {}).items():
            for k in _kinds(cards, f"known[{s}]"):
                seatv[int(s), SEAT_KNOWN + k] += 1
                S.hands[int(s), k] += 1
                left[k] -= 1
        for side, table in enumerate(d["melds"]):
            for rank, cards in table.items():
                self._meld(S, side, rank, _kinds(cards, f"melds[{side}][{rank}]"), left)
        for k, card in enumerate(_kinds(d["pile"], "pile")):
            S.pile[k] = card
            left[card] -= 1
            st[ST_FREEZERS] += int(freezes_pile_nb(r, card))           # R8, R32
        st[ST_PILE_N] = len(d["pile"])
        for side, count in enumerate(d.get("red3", [0] * rules.num_sides)):
            sidev[side, SIDE_RED3] = count                             # R9, R13, R14
            left[RED3] -= count
        self._deal_rest(S, left, d, public)
        for side in range(rules.num_sides):
            sidev[side, SIDE_SCORE_BEFORE] = self.scores_before[side]
            sidev[side, SIDE_MINIMUM] = initial_minimum_nb(r, self.scores_before[side])  # R27
            sidev[side, SIDE_MELDED] = int(bool(d["melds"][side]))
            sidev[side, SIDE_PILE_TAKES] = public.get("pile_takes", [0] * 3)[side]
            sidev[side, SIDE_RED3_DEALT] = public.get("red3_dealt", [0] * 3)[side]
            sidev[side, SIDE_CONCEALED_CANASTAS] = public.get("concealed_canastas",
                                                              [0] * 3)[side]
        for s in range(n):
            seatv[s, SEAT_MINIMUM] = sidev[s % rules.num_sides, SIDE_MINIMUM]   # R27
            seatv[s, SEAT_HAD_TURN] = public.get("had_turn", [1] * n)[s]
            seatv[s, SEAT_MELDED_BEFORE] = public.get("melded_before", [0] * n)[s]
            last = public.get("last_discard", [None] * n)[s]
            seatv[s, SEAT_LAST_DISCARD] = 0 if last is None else TOKEN_TO_KIND[last] + 1
        st[ST_TURNS] = int(public.get("turns", 0))
        st[ST_UPCARDS] = int(public.get("upcards", 1))
        self._turn(S, d)
        return S

    def _meld(self, S, side, rank, kinds, left):
        """A side's meld of ``rank`` (R18-R25)."""
        if rank not in TOKEN_TO_KIND or TOKEN_TO_KIND[rank] < BLACK3:
            raise BadInput(f"position: meld rank {rank!r}: accepted: 3b, 4 .. A")
        place_meld(S, side, rank, kinds, left)

    def _deal_rest(self, S, left, d, public):
        """The other hands (their unknown cards) and the stock from the cards left; the deck
        is the cards in play, the stock at its end."""
        if any(v < 0 for v in left.values()):
            bad = next(TOKENS[k] for k, v in left.items() if v < 0)
            raise BadInput(f"position: more {bad} than the deck holds (R2)")
        rest = [k for k in sorted(left) for _ in range(left[k]) if k != RED3]
        red3 = left[RED3]
        at = 0
        for s in range(self.seats):
            if s == d["seat"]:
                continue
            want = d["hand_sizes"][s] - int(S.hands[s].sum())
            if want < 0 or at + want > len(rest):
                raise BadInput(f"position: hand_sizes[{s}] = {d['hand_sizes'][s]} does not fit "
                               "the cards left")
            for k in rest[at:at + want]:
                S.hands[s, k] += 1
            at += want
        stock = rest[at:] + [RED3] * red3
        if len(stock) != int(d["stock"]):
            raise BadInput(f"position: stock {d['stock']} but {len(stock)} cards are left "
                           "for it (the deck less the hands, melds, pile and red threes)")
        size = sum(_deck_counts(self.rules).values())
        S.st[ST_DECK_N] = size
        S.st[ST_STOCK_POS] = size - len(stock)
        S.deck[S.st[ST_STOCK_POS]:size] = stock

    def _turn(self, S, d):
        """The turn record of the deciding seat after its draw (R11; a take decision is
        before the turn begins and reads none of it)."""
        st = S.st
        seat = d["seat"]
        side = seat % self.rules.num_sides
        turn = d.get("turn", {})
        new = 0
        for rank in turn.get("new_melds", []):                         # R44: this turn's
            if rank not in TOKEN_TO_KIND:
                raise BadInput(f"position: turn.new_melds holds {rank!r}: accepted: ranks")
            new |= 1 << TOKEN_TO_KIND[rank]
        pre = 0
        for r in range(MELD_KINDS):
            pre |= int(S.melds[side, M_SIZE, r] > 0) << r
        st[ST_TURN_SEAT] = seat
        st[ST_TURN_TAKE] = int(bool(turn.get("took_pile", False)))
        st[ST_TURN_ASK] = -1
        st[ST_TURN_NEEDS_MIN] = int(turn.get("needs_min", not S.sidev[side, SIDE_MELDED]))
        st[ST_TURN_COUNT] = int(turn.get("count", 0))                  # R26-R28
        st[ST_TURN_MIN] = S.seatv[seat, SEAT_MINIMUM]
        st[ST_TURN_PRE_RANKS] = pre & ~new
        st[ST_TURN_NEW_RANKS] = new
        st[ST_TURN_MELDED] = int(bool(turn.get("melded", False)))
        st[ST_TURN_ADDED_PRE] = int(bool(turn.get("added_to_old", False)))
        st[ST_TURN_OUT_CHOICE] = OUT_OWN


def place_meld(S, side, rank, kinds, left):
    """Put the cards ``kinds`` on ``side``'s meld of ``rank`` (its naturals, 2s and jokers),
    taking them from the cards ``left``."""
    r = TOKEN_TO_KIND[rank]
    for k in kinds:
        col = M_JOKER if k == JOKER else (M_DEUCE if k == DEUCE else M_NAT)
        if col == M_NAT and k != r:
            raise BadInput(f"position: a {TOKENS[k]} on the meld of {rank}: accepted: "
                           f"{rank}, 2 or JK")
        S.melds[side, col, r] += 1
        S.melds[side, M_SIZE, r] += 1
        left[k] -= 1


def read_position_data(path) -> dict:
    """A position file's JSON data (its checks are the script's: :mod:`.families`)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot read position {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise BadInput(f"{path} is not JSON ({exc}): accepted: a position file "
                       "(docs/analysis.md)") from None
    return data


def _turn_record(S) -> dict:
    """The turn record of a position after the draw, as the file writes it."""
    st = S.st
    return {"took_pile": bool(st[ST_TURN_TAKE]), "needs_min": bool(st[ST_TURN_NEEDS_MIN]),
            "count": int(st[ST_TURN_COUNT]), "melded": bool(st[ST_TURN_MELDED]),
            "added_to_old": bool(st[ST_TURN_ADDED_PRE]),
            "new_melds": [TOKENS[r] for r in range(BLACK3, NKINDS)
                          if st[ST_TURN_NEW_RANKS] >> r & 1]}


def card_tokens(row) -> list:
    """The cards of a count vector, as tokens."""
    return [TOKENS[k] for k in range(NKINDS) for _ in range(int(row[k]))]


def meld_tables(S, sides, rows) -> list:
    """Per side, ``{rank: cards}`` of its melds of ``rows`` (naturals, then 2s, then jokers)."""
    melds = []
    for side in range(sides):
        table = {}
        for r in rows:
            if S.melds[side, M_SIZE, r]:
                table[TOKENS[r]] = ([TOKENS[r]] * int(S.melds[side, M_NAT, r])
                                    + ["2"] * int(S.melds[side, M_DEUCE, r])
                                    + ["JK"] * int(S.melds[side, M_JOKER, r]))
        melds.append(table)
    return melds


def position_of(script, decision) -> dict:
    """The position file of a decision of a traced classic deal (what the seat sees, and the
    public record the engine keeps); :func:`.families.position_of` takes either family."""
    S, _ = script.state(decision.at)
    seat, n, sides = decision.seat, script.seats, script.rules.num_sides
    cards = card_tokens
    melds = meld_tables(S, sides, range(BLACK3, NKINDS))
    known = {str(s): cards(S.seatv[s, SEAT_KNOWN:SEAT_KNOWN + NKINDS])
             for s in range(n) if s != seat and S.seatv[s, SEAT_KNOWN:].any()}
    return {"rules": script.rules.canonical(), "seat": seat, "decision": decision.kind,
            "played": decision.played, "dealer": script.dealer,
            "scores_before": [int(x) for x in script.scores_before[:sides]],
            "hand": cards(S.hands[seat]), "hand_sizes": [int(S.hands[s].sum()) for s in range(n)],
            "melds": melds, "red3": [int(S.sidev[k, SIDE_RED3]) for k in range(sides)],
            "pile": [TOKENS[int(k)] for k in S.pile[:S.st[ST_PILE_N]]],
            "stock": int(S.st[ST_DECK_N] - S.st[ST_STOCK_POS]), "known": known,
            "turn": _turn_record(S) if decision.kind != "take" else {},
            "public": {"turns": int(S.st[ST_TURNS]), "upcards": int(S.st[ST_UPCARDS]),
                       "had_turn": [int(S.seatv[s, SEAT_HAD_TURN]) for s in range(n)],
                       "melded_before": [int(S.seatv[s, SEAT_MELDED_BEFORE]) for s in range(n)],
                       "last_discard": [TOKENS[int(S.seatv[s, SEAT_LAST_DISCARD]) - 1]
                                        if S.seatv[s, SEAT_LAST_DISCARD] else None
                                        for s in range(n)],
                       "pile_takes": [int(S.sidev[k, SIDE_PILE_TAKES]) for k in range(sides)],
                       "red3_dealt": [int(S.sidev[k, SIDE_RED3_DEALT]) for k in range(sides)],
                       "concealed_canastas": [int(S.sidev[k, SIDE_CONCEALED_CANASTAS])
                                              for k in range(sides)]}}
