"""Issue 30: Modern American's move generation offers every legal play and only legal plays,
checked against a brute-force enumeration written from the rules (tests/american_naive.py),
as classic's is (tests/test_moves_complete.py).

1. **Every decision of real deals.**  Deals of ``random`` and ``greedy`` under several knob
   sets are traced and replayed here card by card; at every decision the kernels' answer is
   compared with the reference's, as sets: the meld steps (``steps.legal_steps_nb`` with the
   turn's slots set as the turn sets them) at the start of every meld phase and after every
   step (tentative openings, and the steps of a take's opening from the cards held before it,
   included); the legal discards at the same moments; whether the pile may be taken
   (``may_take_nb`` and ``turn.take_leaves_turn_nb``) before every draw or take; every talon
   (A32-A34) against the rule.  Random positions built directly (melds near canastas, wild
   melds, dead ranks, hands of one to eight cards, talon and take turns) reach the corners
   deals seldom reach: going out, the talon exception, the oversize knob.
2. **Openings.**  For small hands of a side that has not melded, every set of melds it could
   lay in one turn (every combination of placements) is enumerated; the reference keeps those
   that are legal initial meld turns (A19-A28, and a legal end of the turn).  Each must be
   reachable by kernel-legal steps in the tentative mode, and ``initial.opening_ok_nb`` must
   agree with the reference on every candidate set, legal or not.  The same for a take by a
   side that has not melded (A26: the opening from the cards held before the take).
3. **Special hands** (A51): ``special.special_hand_nb`` against the reference's recogniser on
   random 14-card hands and on hands built for each special hand, for cla, pagat and none.
4. **Talons**: ``pile.talon_earned_nb`` and ``take_talon_nb`` against A7, A32-A34.
"""
from __future__ import annotations

import itertools
from collections import Counter

import american_naive as N
import numpy as np
import pytest
from canasta_sim.kernels.game.american import initial as I
from canasta_sim.kernels.game.american import pile as P
from canasta_sim.kernels.game.american import special as SP
from canasta_sim.kernels.game.american import steps as ST
from canasta_sim.kernels.game.american.melds import WILD_ROW
from canasta_sim.kernels.game.american.state import (
    X_PRE_ONLY,
    X_TURN_FRESH,
    X_TURN_OPENING,
    X_TURN_TALON,
    X_TURN_TOOK,
    new_mac_state,
)
from canasta_sim.kernels.game.cards import MELD_KINDS, NKINDS, TOKEN_TO_KIND, TOKENS
from canasta_sim.kernels.game.slots import (
    M_COLS,
    M_DEUCE,
    M_JOKER,
    M_NAT,
    M_SIZE,
    SIDE_MELDED,
    ST_DECK_N,
    ST_PILE_N,
    ST_STOCK_POS,
)
from canasta_sim.kernels.game.state import new_state
from canasta_sim.kernels.play.american.turn import take_leaves_turn_nb

from canasta_sim.rules import parse_rules
from canasta_sim.trace import trace_events

RANKS = N.NATURAL_RANKS + ("wild",)


def row_of(rank):
    """The meld-table row of a rank token ("wild": the wild meld's row)."""
    return WILD_ROW if rank == "wild" else TOKEN_TO_KIND[rank]


def rank_of(row):
    """The rank token of a meld-table row."""
    return "wild" if row == WILD_ROW else TOKENS[row]


def step_of(rank, cards):
    """A step as (rank, naturals, 2s, jokers) from the cards of a trace's meld."""
    return (rank, sum(c not in N.WILD_TOKENS for c in cards), cards.count("2"),
            cards.count("JK"))


class Pos:
    """One decision's position: the acting seat, its hand, both sides' melds, the pile, which
    sides have melded, and the turn's facts (the fields of :class:`american_naive.Turn`)."""

    def __init__(self, seat, hand, tables, pile, melded, *, opening=False, fresh=(),
                 took=False, talon=False, pre=None):
        self.seat, self.hand, self.tables, self.pile = seat, +Counter(hand), tables, list(pile)
        self.melded, self.opening, self.fresh = list(melded), opening, set(fresh)
        self.took, self.talon = took, talon
        self.pre = None if pre is None else +Counter(pre)

    @property
    def side(self):
        return self.seat % 2

    def turn(self, rules):
        """The reference's view of this meld phase."""
        return N.Turn(rules, self.side, self.hand, self.tables,
                      pile_empty=not self.pile or self.took, opening_turn=self.opening,
                      fresh=self.fresh, talon=self.talon, pre=self.pre)

    def __repr__(self):
        hand = " ".join(sorted(self.hand.elements()))
        return (f"Pos(seat={self.seat}, hand='{hand}', tables={self.tables}, pile={self.pile},"
                f" melded={self.melded}, opening={self.opening}, fresh={self.fresh}, "
                f"took={self.took}, talon={self.talon}, pre={self.pre})")


class Kernels:
    """The kernels' answers for a :class:`Pos` of one rule set (one state, refilled)."""

    def __init__(self, rules_text):
        self.rules = parse_rules(rules_text)
        self.mac = self.rules.to_american_kernel()
        self.S = new_state()
        self.A = new_mac_state()

    def load(self, p):
        """Write ``p`` into the kernels' state, the turn's slots as the turn sets them."""
        S, A = self.S, self.A
        S.hands[:] = 0
        for token, n in p.hand.items():
            S.hands[p.seat, TOKEN_TO_KIND[token]] += n
        S.melds[:] = 0
        for side, table in p.tables.items():
            for rank, m in table.items():
                row = row_of(rank)
                S.melds[side, M_NAT, row] = m["nat"]
                S.melds[side, M_DEUCE, row] = m["deuce"]
                S.melds[side, M_JOKER, row] = m["joker"]
                S.melds[side, M_SIZE, row] = N.size(m)
        for i, token in enumerate(p.pile):
            S.pile[i] = TOKEN_TO_KIND[token]
        S.st[ST_PILE_N] = len(p.pile)
        S.sidev[:, SIDE_MELDED] = 0
        for side in (0, 1):
            S.sidev[side, SIDE_MELDED] = int(p.melded[side])
        A.x[:] = 0
        A.x[X_TURN_OPENING] = int(p.opening)
        A.x[X_TURN_FRESH] = sum(1 << row_of(r) for r in p.fresh)
        A.x[X_TURN_TOOK] = int(p.took)
        A.x[X_TURN_TALON] = P.TALON_FIRST if p.talon else P.TALON_NONE
        A.x[X_PRE_ONLY] = int(p.pre is not None)
        A.pre[:] = 0
        for token, n in (p.pre or {}).items():
            A.pre[TOKEN_TO_KIND[token]] += n

    def steps(self, p):
        """``legal_steps_nb``: the meld steps, as (rank, naturals, 2s, jokers)."""
        self.load(p)
        n = ST.legal_steps_nb(self.mac, self.S, self.A, p.seat, True)
        return {(rank_of(int(r)), int(a), int(d), int(j)) for r, a, d, j in self.A.steps[:n]}

    def discards(self, p):
        """``legal_discard_nb`` for every kind held."""
        self.load(p)
        return {TOKENS[k] for k in range(NKINDS) if self.S.hands[p.seat, k] > 0 and
                ST.legal_discard_nb(self.mac, self.S, self.A, p.seat, k)}

    def may_take(self, p):
        """What the turn asks before offering a take: ``may_take_nb`` and
        ``take_leaves_turn_nb``."""
        self.load(p)
        return bool(ST.may_take_nb(self.mac, self.S, p.seat)) and \
            bool(take_leaves_turn_nb(self.mac, self.S, p.seat))


def compare(kern, p, log):
    """Compare the steps and discards of meld-phase position ``p``; mismatches go to ``log``."""
    rules = kern.rules
    want = N.legal_steps(p.turn(rules))
    got = kern.steps(p)
    if want != got:
        log.append(("steps", p, "missing", want - got, "extra", got - want))
    want = N.discards(rules, p.tables, p.side, p.hand, not p.pile or p.took)
    got = kern.discards(p)
    if want != got:
        log.append(("discards", p, "want", want, "got", got))
    return len(want)


def compare_take(kern, p, log):
    """Compare whether the pile may be taken at the start of ``p``'s turn."""
    want = N.can_take(kern.rules, p.tables, p.side, p.hand, p.pile, p.melded[p.side])
    got = kern.may_take(p)
    if want != got:
        log.append(("take", p, "want", want, "got", got))
    return want


# ---- 1. every decision of real deals ----------------------------------------------------------

class Replay:
    """A deal's trace replayed card by card (docs/american.md, the trace lines), yielding the
    positions of its decisions."""

    def __init__(self, events):
        start = events[0]
        self.events = events
        self.hands = [Counter(h) for h in start["hands"]]
        self.stock = list(start["stock"])
        self.aside = start.get("talons")
        self.tables = {0: {}, 1: {}}
        self.pile = []
        self.melded = [False, False]
        self.had_talon = [False, False]
        self.talons = []            # (side, "first" or "second", cards)

    def lay(self, seat, rank, cards, pre=None):
        """A meld step of ``seat`` (hand cards onto its side's meld of ``rank``)."""
        rank = "wild" if rank == "JK" else rank
        meld = self.tables[seat % 2].setdefault(rank, {"nat": 0, "deuce": 0, "joker": 0})
        for c in cards:
            meld["deuce" if c == "2" else "joker" if c == "JK" else "nat"] += 1
            self.hands[seat][c] -= 1
            if pre is not None:
                pre[c] -= 1
        return rank

    def pos(self, seat, **turn):
        """The position of ``seat`` now."""
        copy = {s: {r: dict(m) for r, m in t.items()} for s, t in self.tables.items()}
        return Pos(seat, self.hands[seat], copy, self.pile, self.melded, **turn)

    def positions(self, rules):
        """Yield ("take", pos) before every draw or take, ("meld", pos) at the start of every
        meld phase and after every step, ("step", pos, step) before every step played,
        ("discard", pos, card) before every discard that does not go out, ("opening", pos,
        laid, take rank) when an opening stands; check every talon against A32-A34 on the
        way, and that a player keeps a card after his discard unless a talon follows."""
        turn = {}
        earned = (None, 0)
        evs = self.events
        for i, ev in enumerate(evs):
            kind = ev["ev"]
            if kind in ("start", "turn_card", "score", "end", "special", "out"):
                continue
            s = ev["seat"]
            side = s % 2
            if kind == "three":
                self.hands[s][ev["card"]] -= 1
                if ev["replacement"] is not None:
                    assert self.stock.pop(0) == ev["replacement"]
                    self.hands[s][ev["replacement"]] += 1
            if kind in ("draw", "take"):
                yield "take", self.pos(s)
                turn = {}
            if kind == "draw":
                for c in ev["cards"]:
                    assert self.stock.pop(0) == c
                    self.hands[s][c] += 1
                turn = {"opening": not self.melded[side], "fresh": set(), "took": False,
                        "talon": False, "drew": True, "laid": {}}
            if turn.get("drew") and evs[i + 1]["ev"] != "three":
                del turn["drew"]                    # the draw's threes are laid: A32's stock
                if turn["opening"]:
                    which = N.talon_earned(len(self.stock), False, self.melded[1 - side],
                                           self.had_talon[side])
                    earned = (which, self._size(rules, which))
                    turn["talon"] = earned[1] > 0
                yield "meld", self.pos(s, **self._public(turn))
            elif kind == "take":
                yield from self._take(s, ev, turn)
            elif kind == "meld":
                rank = "wild" if ev["rank"] == "JK" else ev["rank"]
                yield "step", self.pos(s, **self._public(turn)), step_of(rank, ev["cards"])
                self._laid(turn, side, rank, ev["cards"])
                self.lay(s, rank, ev["cards"])
                yield "meld", self.pos(s, **self._public(turn))
            elif kind == "discard":
                if turn["opening"] and not turn["took"] and turn["laid"]:
                    yield "opening", self.pos(s), turn["laid"], None
                    self.melded[side] = True
                talon = turn["talon"] and self.melded[side]
                if evs[i + 1]["ev"] != "out":
                    yield "discard", self.pos(s, **self._public(turn)), ev["card"]
                    if talon:
                        assert evs[i + 1]["ev"] == "talon", evs[i + 1]      # A32, A33
                self.hands[s][ev["card"]] -= 1
                self.pile.append(ev["card"])
                assert sum(self.hands[s].values()) > 0 or talon or \
                    evs[i + 1]["ev"] == "out"                               # A16, A17
            elif kind == "talon":
                self._talon(rules, s, ev, turn, earned)

    def _take(self, s, ev, turn):
        """A29-A31, A26: the take meld, the rest of the pile into the hand; a side that had
        not melded lays its opening from the cards held before the take."""
        side = s % 2
        assert ev["pile"] == self.pile
        top = self.pile[-1]
        opening = not self.melded[side]
        pre = self.hands[s].copy()
        pre[top] -= 2
        turn.clear()
        turn.update(opening=opening, fresh=set(), took=True, talon=False, laid={})
        self._laid(turn, side, top, [top, top])                  # the pair (A25b)
        self.hands[s][top] -= 2
        self.tables[side].setdefault(top, {"nat": 0, "deuce": 0, "joker": 0})["nat"] += 3
        self.hands[s].update(self.pile[:-1])
        first, *rest = ev["melds"]
        assert first["rank"] == top and first["cards"] == [top] * 3
        if opening:
            public = self._public(turn)
            yield "meld", self.pos(s, pre=pre, **public)
            for meld in rest:
                rank = "wild" if meld["rank"] == "JK" else meld["rank"]
                yield "step", self.pos(s, pre=pre, **public), step_of(rank, meld["cards"])
                self._laid(turn, side, rank, meld["cards"])
                self.lay(s, rank, meld["cards"], pre)
                public = self._public(turn)
                yield "meld", self.pos(s, pre=pre, **public)
            yield "opening", self.pos(s), turn["laid"], top
            self.melded[side] = True
        self.pile = []
        yield "meld", self.pos(s, **self._public(turn))

    def _laid(self, turn, side, rank, cards):
        """A25b: hand cards put on a meld started this turn count for the opening."""
        if N.size(self.tables[side].get(rank, N._EMPTY)) == 0:
            turn["fresh"].add(rank)
        if rank in turn["fresh"]:
            meld = turn["laid"].setdefault(rank, dict(N._EMPTY))
            for c in cards:
                meld["deuce" if c == "2" else "joker" if c == "JK" else "nat"] += 1

    @staticmethod
    def _public(turn):
        """The turn's facts a :class:`Pos` takes."""
        return {k: turn[k] for k in ("opening", "fresh", "took", "talon")}

    def _talon(self, rules, s, ev, turn, earned):
        """A32-A34: a talon only after an opening turn without a take, of the earned size, the
        top stock cards or the set-aside pile."""
        side = s % 2
        which, size = earned
        assert turn["opening"] and not turn["took"] and which is not None, ev
        assert not self.had_talon[side]
        if rules.mac_talon_source == "set_aside":
            assert ev["cards"] == self.aside[0 if which == "first" else 1]
        else:
            assert ev["size"] == min(size, len(self.stock))
            assert ev["cards"] == self.stock[:ev["size"]]
            del self.stock[:ev["size"]]
        self.hands[s].update(ev["cards"])
        self.had_talon[side] = True
        self.talons.append((side, which, ev["size"]))

    @staticmethod
    def _size(rules, which):
        """A32: the cards of talon ``which``."""
        if which is None:
            return 0
        return rules.mac_talon_sizes[0 if which == "first" else 1]


DEAL_SETS = (
    ("modern-american", "greedy", 60),
    ("modern-american", "random", 30),
    ("modern-american-pagat", "greedy", 30),
    ("modern-american-pagat", "random", 15),
    ("modern-american(mac_rule_of_five=false,mac_max_wilds_per_meld=3)", "greedy", 20),
    ("modern-american(mac_allow_oversize_when_going_out=true)", "greedy", 20),
    ("modern-american(mac_dead_rank_scope=own,canastas_to_go_out=1)", "greedy", 20),
    ("modern-american(mac_talon_source=set_aside,mac_talon_sizes=5;0)", "greedy", 20),
    ("modern-american(mac_talon_sizes=2;1,mac_special_hands=none)", "random", 15),
    ("modern-american(mac_threes_timing=after_deal,mac_special_hands=none)", "greedy", 20),
)


@pytest.mark.parametrize("rules_text,policy,deals", DEAL_SETS)
def test_every_decision_of_real_deals(rules_text, policy, deals):
    """Steps, discards and takes at every decision of traced deals, talons on the way."""
    kern = Kernels(rules_text)
    log = []
    counts = Counter()
    for events in trace_events(rules_text, 30, 0, deals, policy):
        replay = Replay(events)
        for kind, p, *card in replay.positions(kern.rules):
            counts[kind] += 1
            if kind == "take":
                counts["takeable"] += compare_take(kern, p, log)
            elif kind == "meld":
                counts["discards"] += compare(kern, p, log)
                counts["opening"] += p.opening
            elif kind == "step":
                assert card[0] in N.legal_steps(p.turn(kern.rules)), (p, card)
            elif kind == "opening":
                laid, top = card
                assert N.opening_ok(kern.rules, p.tables, p.side, laid, top,
                                    minimum(kern.rules, events[0]["scores_before"][p.side]))
            else:
                assert card[0] in kern.discards(p)
        counts["talons"] += len(replay.talons)
    assert not log, (len(log), log[:3])
    assert counts["meld"] > 20 * deals and counts["takeable"] > 0 and counts["opening"] > 0
    assert counts["step"] > deals and counts["opening"] > 0


def minimum(rules, score):
    """A24: the initial meld's minimum for a side whose cumulative score is ``score``."""
    need = 0
    for low, value in rules.initial_meld_table:
        if low is None or score >= low:
            need = value
    return need


# ---- 1b. random positions for the corners ------------------------------------------------------

KNOB_SETS = (
    "modern-american",
    "modern-american-pagat",
    "modern-american(mac_rule_of_five=false,mac_max_wilds_per_meld=3)",
    "modern-american(mac_allow_oversize_when_going_out=true)",
    "modern-american(mac_dead_rank_scope=own,canastas_to_go_out=1)",
)
HAND_KINDS = ("JK", "2", "3r", "3b") + N.NATURAL_RANKS


def random_meld(rng, rank, rules):
    """A meld of ``rank`` of 3-7 cards within A19-A23's composition limits."""
    total = int(rng.choice([3, 4, 5, 6, 7, 7, 7]))
    if rank == "wild":
        d = int(rng.integers(0, min(total, 8) + 1))
        return {"nat": 0, "deuce": min(d, 8), "joker": min(total - min(d, 8), 4)}
    most = 0 if rank == "7" else min(rules.mac_max_wilds_per_meld, total - 2)
    w = int(rng.integers(0, most + 1)) if rng.random() < 0.4 else 0
    j = int(rng.integers(0, w + 1))
    return {"nat": total - w, "deuce": w - j, "joker": j}


def random_tables(rng, rules, side_ranks):
    """Both sides' melds: ``side_ranks[s]`` random ranks each."""
    tables = {0: {}, 1: {}}
    for s in (0, 1):
        for rank in rng.choice(RANKS, side_ranks[s], replace=False):
            tables[s][str(rank)] = random_meld(rng, str(rank), rules)
    return tables


def random_hand(rng, n, favour=()):
    """``n`` cards, half of them (on average) of the ranks in ``favour``."""
    hand = Counter()
    for _ in range(n):
        if favour and rng.random() < 0.5:
            hand[str(rng.choice(list(favour)))] += 1
        else:
            hand[str(rng.choice(HAND_KINDS))] += 1
    return hand


def random_position(rng, rules):
    """A position of seat 0 in one of the turn's situations: a melded side (after a draw or a
    take), an opening by a draw (talon or not), a take's opening from the cards held before
    it, or the meld phase after that opening stood."""
    mode = str(rng.choice(["melded", "melded", "opening", "take_pre", "take_after"]))
    opening = mode != "melded"
    tables = random_tables(rng, rules, (0 if mode == "opening" and rng.random() < 0.3
                                        else int(rng.integers(1, 5)), int(rng.integers(0, 5))))
    favour = [r for r in tables[0] if r != "wild"] + ["2", "JK"]
    hand = random_hand(rng, int(rng.integers(1, 9)), favour)
    pile = [str(c) for c in rng.choice(N.NATURAL_RANKS + ("2",), int(rng.integers(0, 4)))]
    pairs = [c for c, n in hand.items() if n >= 2 and c in N.NATURAL_RANKS]
    if pairs and rng.random() < 0.6:
        pile.append(str(rng.choice(pairs)))                     # a top card it may take
    took = mode.startswith("take") or (mode == "melded" and rng.random() < 0.3)
    if took:
        pile = [] if mode != "take_pre" else pile + [str(rng.choice(N.NATURAL_RANKS))]
    fresh = set(tables[0]) if opening else {r for r in tables[0] if rng.random() < 0.3}
    pre = None
    if mode == "take_pre":
        pre = Counter({c: int(rng.integers(0, n + 1)) for c, n in hand.items()})
    talon = mode == "opening" and rng.random() < 0.5
    return Pos(0, hand, tables, pile, [bool(tables[0]) and not opening or mode == "take_after",
                                       bool(tables[1])],
               opening=opening, fresh=fresh, took=took, talon=talon, pre=pre)


@pytest.mark.parametrize("rules_text", KNOB_SETS)
def test_random_positions(rules_text):
    """Steps, discards and takes on random positions: small hands near canastas, going out,
    the talon exception, empty piles, dead ranks, wild melds."""
    kern = Kernels(rules_text)
    rng = np.random.default_rng(301)
    log = []
    kinds = Counter()
    for _ in range(2000):
        p = random_position(rng, kern.rules)
        compare(kern, p, log)
        turn = p.turn(kern.rules)
        for step in N.legal_steps(turn):
            rank, *add = step
            kinds[N.end_after(turn, rank, dict(zip(("nat", "deuce", "joker"), add)))] += 1
        if not p.took:
            kinds["take"] += compare_take(kern, p, log)
    assert not log, (len(log), log[:3])
    assert min(kinds[k] for k in ("on", "out", "talon", "take")) > 10, kinds


# ---- 2. openings: every legal one can be played, only legal ones stand --------------------------

OPENING_KINDS = ("JK", "2", "A", "K", "Q", "J", "9", "8", "7", "5", "4")


def table_key(table):
    """A side's melds as a hashable value."""
    return tuple(sorted((r, m["nat"], m["deuce"], m["joker"]) for r, m in table.items()
                        if N.size(m)))


def stepped(p, rank, nat, deuce, joker):
    """The position after one meld step of ``p``'s player."""
    add = {"nat": nat, "deuce": deuce, "joker": joker}
    cards = N.cards_of(rank, add)
    hand = p.hand.copy()
    hand.subtract(cards)
    pre = None
    if p.pre is not None:
        pre = p.pre.copy()
        pre.subtract(cards)
    fresh = p.fresh | {rank}
    return Pos(p.seat, hand, N.with_step(p.tables, p.side, rank, add), p.pile, p.melded,
               opening=p.opening, fresh=fresh, took=p.took, talon=p.talon, pre=pre)


def reachable(kern, start):
    """Every position the kernels' legal steps reach from ``start`` (one step or more), by
    the side's melds; a step that leaves one card ends the meld phase."""
    seen = {}
    stack = [start]
    while stack:
        p = stack.pop()
        for step in kern.steps(p):
            q = stepped(p, *step)
            key = table_key(q.tables[q.side])
            if key not in seen:
                seen[key] = q
                if sum(q.hand.values()) >= 2:
                    stack.append(q)
    return seen


def kernel_opening_ok(kern, tables, side, laid, take_rank, minimum):
    """``initial.opening_ok_nb`` for melds ``tables`` and the hand cards ``laid``."""
    melds = np.zeros((2, M_COLS, MELD_KINDS), np.int64)
    for s, table in tables.items():
        for rank, m in table.items():
            melds[s, M_NAT, row_of(rank)] = m["nat"]
            melds[s, M_DEUCE, row_of(rank)] = m["deuce"]
            melds[s, M_JOKER, row_of(rank)] = m["joker"]
            melds[s, M_SIZE, row_of(rank)] = N.size(m)
    put = np.zeros((M_COLS, MELD_KINDS), np.int64)
    for rank, m in laid.items():
        put[M_NAT, row_of(rank)] = m["nat"]
        put[M_DEUCE, row_of(rank)] = m["deuce"]
        put[M_JOKER, row_of(rank)] = m["joker"]
        put[M_SIZE, row_of(rank)] = N.size(m)
    row = -1 if take_rank is None else row_of(take_rank)
    return bool(I.opening_ok_nb(kern.mac, melds, side, put, row, minimum))


def check_opening(kern, start, minimum, take_rank, log):
    """Every candidate set of melds of the opening at ``start``: the reference's verdict (a
    legal end of turn and A24-A28) against what the kernels reach and ``opening_ok_nb``.
    Returns the number of legal openings."""
    rules = kern.rules
    turn = start.turn(rules)
    reached = reachable(kern, start)
    legal_ends = set()
    openings = 0
    for melds in N.opening_sets(rules, turn, take_rank):
        tables, hand = N.after_set(turn, melds)
        laid = {r: dict(m) for r, m in melds.items()}
        if take_rank is not None:
            laid.setdefault(take_rank, dict(N._EMPTY))["nat"] += 2      # the take pair
        want = N.opening_ok(rules, tables, start.side, laid, take_rank, minimum)
        got = kernel_opening_ok(kern, tables, start.side, laid, take_rank, minimum)
        if want != got:
            log.append(("opening_ok", start, melds, "want", want, "got", got))
        key = table_key(tables[start.side])
        if melds and N.end_kind(turn, tables, hand):
            legal_ends.add(key)
            openings += want
            if want and key not in reached:
                log.append(("unreachable opening", start, melds))
    if set(reached) != legal_ends:
        log.append(("reached", start, "missing", legal_ends - set(reached), "extra",
                    set(reached) - legal_ends))
    return openings


def opening_hand(rng, n):
    """``n`` cards of five kinds, rich in high cards and wild cards (at most the deck's
    8 of a natural kind or of 2s and 4 jokers)."""
    kinds = [str(k) for k in rng.choice(OPENING_KINDS, 5, replace=False)]
    hand = Counter()
    while sum(hand.values()) < n:
        k = kinds[int(rng.integers(0, 5))]
        if hand[k] < (4 if k == "JK" else 8):
            hand[k] += 1
    return hand


OPENING_RULES = (
    "modern-american",
    "modern-american-pagat",
    "modern-american(mac_rule_of_five=false,mac_max_wilds_per_meld=3,mac_dead_rank_scope=own)",
    "modern-american(mac_splash=true,top_card_counts_for_minimum=true,mac_talon_sizes=0;3)",
)


@pytest.mark.parametrize("rules_text", OPENING_RULES)
def test_openings_by_a_draw(rules_text):
    """A24-A28 and A16, A17: openings from hands of 8-11 cards, the other side's melds (dead
    ranks) random, the pile empty or not, a talon earned or not."""
    kern = Kernels(rules_text)
    rng = np.random.default_rng(302)
    log = []
    legal = 0
    for _ in range(60):
        tables = {0: {}, 1: random_tables(rng, kern.rules, (0, int(rng.integers(0, 4))))[1]}
        pile = [] if rng.random() < 0.4 else ["9"]
        p = Pos(0, opening_hand(rng, int(rng.integers(9, 14))), tables, pile,
                [False, bool(tables[1])], opening=True, talon=rng.random() < 0.5)
        legal += check_opening(kern, p, int(rng.choice([125, 155, 180])), None, log)
    assert not log, (len(log), log[:3])
    assert legal > 50


@pytest.mark.parametrize("rules_text", OPENING_RULES)
def test_openings_with_a_take(rules_text):
    """A26: a side that has not melded takes the pile only with its opening laid from the
    cards held before the take; the take is offered (``may_take_nb``,
    ``take_leaves_turn_nb``, then an opening the kernels' steps reach that stands) exactly
    when the reference finds a legal opening."""
    kern = Kernels(rules_text)
    rng = np.random.default_rng(303)
    log = []
    takes = 0
    for _ in range(60):
        hand = opening_hand(rng, int(rng.integers(9, 14)))
        top = str(rng.choice([c for c in hand if c in N.NATURAL_RANKS] or ["K"]))
        hand[top] = max(hand[top], 2)
        tables = {0: {}, 1: random_tables(rng, kern.rules, (0, int(rng.integers(0, 3))))[1]}
        pile = [str(c) for c in rng.choice(HAND_KINDS[4:], int(rng.integers(0, 4)))] + [top]
        before = Pos(0, hand, tables, pile, [False, bool(tables[1])])
        minimum = int(rng.choice([125, 155, 180]))
        if not N.can_take(kern.rules, tables, 0, hand, pile, False):
            if kern.may_take(before):
                log.append(("take", before, "want", False, "got", True))
            continue
        pre = hand.copy()
        pre[top] -= 2
        after = hand.copy()
        after[top] -= 2
        after.update(pile[:-1])
        start = Pos(0, after, N.with_step(tables, 0, top, {"nat": 3, "deuce": 0, "joker": 0}),
                    pile, [False, bool(tables[1])], opening=True, fresh={top}, took=True,
                    pre=pre)
        found = check_opening(kern, start, minimum, top, log)
        stands = any(kernel_opening_ok(kern, q.tables, 0, laid_of(q, top), top, minimum)
                     for q in reachable(kern, start).values())
        if (found > 0) != (kern.may_take(before) and stands):
            log.append(("take with opening", before, "want", found > 0, "got", stands))
        takes += found > 0
    assert not log, (len(log), log[:3])
    assert takes > 5


def laid_of(p, take_rank):
    """The hand cards on the side's new melds of an opening with a take (the pair included,
    the top card not)."""
    laid = {r: dict(m) for r, m in p.tables[p.side].items()}
    laid[take_rank]["nat"] -= 1
    return laid


# ---- 3. special hands --------------------------------------------------------------------------

SPECIAL_EXAMPLES = {
    "pairs": "4 4 5 5 6 6 8 8 9 9 K K Q Q",
    "wild_pairs": "A A 7 7 2 2 4 4 5 5 9 9 K K",
    "miami_pairs": "A A 7 7 2 2 JK JK 4 4 5 5 9 9",
    "zip_code": "8 8 JK JK Q Q Q K K K 4 4 4 4",
    "straight": "A 2 3r 4 5 6 7 8 9 10 J Q K JK",
    "garbage": "8 8 8 8 Q Q Q Q 5 5 5 K K K",
    "blast_off": "4 4 4 4 4 K K K K Q Q Q JK JK",
    "triples": "4 4 4 5 5 5 9 9 9 K K K JK JK",
    "quads": "4 4 4 4 5 5 5 5 9 9 9 9 2 2",
    "dream_plus_4": "4 4 4 4 4 K K K K K JK JK JK JK",
    "dream_plus_5": "4 4 4 4 4 K K K K 2 2 2 JK JK",
}


def kernel_special(kern, hand):
    """``special_hand_nb``: (name, points)."""
    row = np.zeros(NKINDS, np.int64)
    for token, n in hand.items():
        row[TOKEN_TO_KIND[token]] += n
    code, points = SP.special_hand_nb(kern.mac, row, np.zeros(9, np.int64))
    return SP.NAMES[code], int(points)


def special_hands_to_check(rng):
    """The examples, each with its groups moved to other ranks and its wild cards mixed
    otherwise; and random 14-card hands of few kinds (many of them special or nearly)."""
    hands = []
    for text in SPECIAL_EXAMPLES.values():
        hands.append(Counter(text.split()))
    for _ in range(3000):
        base = Counter(SPECIAL_EXAMPLES[str(rng.choice(list(SPECIAL_EXAMPLES)))].split())
        ranks = list(N.NATURAL_RANKS)
        rng.shuffle(ranks)
        mapping = dict(zip(N.NATURAL_RANKS, ranks))
        hand = Counter({mapping.get(c, c): n for c, n in base.items()})
        if rng.random() < 0.5:                          # another mix of the wild cards
            wild = hand.pop("2", 0) + hand.pop("JK", 0)
            jokers = int(rng.integers(max(0, wild - 8), min(wild, 4) + 1))
            hand.update({"JK": jokers, "2": wild - jokers})
        if rng.random() < 0.3:                          # one card swapped
            hand[str(rng.choice(list(+hand)))] -= 1
            hand[str(rng.choice(HAND_KINDS))] += 1
        hands.append(+hand)
    for _ in range(3000):
        kinds = [str(k) for k in rng.choice(HAND_KINDS, int(rng.integers(3, 8)), replace=False)]
        if sum(DECK[k] for k in kinds) < 14:
            continue
        hand = Counter()
        while sum(hand.values()) < 14:
            k = kinds[int(rng.integers(0, len(kinds)))]
            hand[k] += hand[k] < DECK[k]
        hands.append(hand)
    return [h for h in hands if all(n <= DECK[k] for k, n in h.items())]


DECK = Counter({k: 8 for k in N.NATURAL_RANKS + ("2",)}, JK=4, **{"3r": 4, "3b": 4})
"""A2: the cards of each kind in the two packs and four jokers."""


@pytest.mark.parametrize("which", ("cla", "pagat", "none"))
def test_special_hands(which):
    """A51, reading 10: the kernels' best special hand and its value against the
    reference's recogniser."""
    kern = Kernels(f"modern-american(mac_special_hands={which})")
    rng = np.random.default_rng(304)
    log = []
    found = Counter()
    for hand in special_hands_to_check(rng):
        names = N.special_hands(hand, which)
        value = N.special_value(hand, which)
        name, points = kernel_special(kern, hand)
        if points != value or (value and name not in names):
            log.append((" ".join(sorted(hand.elements())), "want", names, value,
                        "got", name, points))
        found[name] += 1
    assert not log, (len(log), log[:5])
    if which == "none":
        assert set(found) == {"none"}
    else:
        values = N.PAGAT_VALUES if which == "pagat" else N.CLA_VALUES
        assert set(found) == set(values) | {"none"}


MIXED_PAIRS = ("8 8 2 JK Q Q Q K K K 4 4 4 4",             # Zip Code's shape
               "4 4 4 4 4 K K K K Q Q Q 2 JK")             # Blast Off's shape


def test_a_wild_pair_is_never_one_2_and_one_joker():
    """A51, reading 10: a group of two wild cards is 2-2 or joker-joker."""
    kern = Kernels("modern-american")
    for text in MIXED_PAIRS:
        hand = Counter(text.split())
        assert N.special_value(hand, "cla") == 0
        assert kernel_special(kern, hand) == ("none", 0), text


def test_special_examples_are_what_they_say():
    """The reference recognises each example as its hand (under cla)."""
    for name, text in SPECIAL_EXAMPLES.items():
        assert name in N.special_hands(Counter(text.split()), "cla"), name


# ---- 4. talons ---------------------------------------------------------------------------------

def test_talon_earned():
    """A7, A32: every combination of the stock after the draw, a take, the other side melded
    and a talon the side already had."""
    for stock, took, other, had in itertools.product(range(0, 60), (0, 1), (0, 1), (0, 1)):
        want = N.talon_earned(stock, took, other, had)
        got = P.talon_earned_nb(stock, took, other, had)
        assert got == {None: P.TALON_NONE, "first": P.TALON_FIRST,
                       "second": P.TALON_SECOND}[want], (stock, took, other, had)


@pytest.mark.parametrize("sizes", ("4;3", "5;0", "2;1", "13;13"))
@pytest.mark.parametrize("source", ("stock", "set_aside"))
def test_take_talon(sizes, source):
    """A5, A33, A34: the talon's cards: the top stock cards, as many as the size asks and the
    stock holds (taken even below the turn card), or the set-aside pile of that size, which
    lies after the 52 dealt cards, the first talon's pile before the second's."""
    kern = Kernels(f"modern-american(mac_talon_sizes={sizes},mac_talon_source={source})")
    first, second = (int(v) for v in sizes.split(";"))
    deck = np.array([4 + (i % 11) for i in range(108)], np.int64)
    for which, size in ((P.TALON_FIRST, first), (P.TALON_SECOND, second)):
        assert P.talon_size_nb(kern.mac, which) == size
        for left in (0, 1, 3, 8, 9, 30):
            st = np.zeros(64, np.int64)
            dealt = 52 + (first + second if source == "set_aside" else 0)
            st[ST_DECK_N] = dealt + left
            st[ST_STOCK_POS] = dealt
            hand = np.zeros(NKINDS, np.int64)
            n = P.take_talon_nb(kern.mac, hand, deck, st, which)
            if source == "stock":
                want = list(deck[dealt:dealt + min(size, left)])
                assert st[ST_STOCK_POS] == dealt + len(want)
            else:
                start = 52 if which == P.TALON_FIRST else 52 + first
                want = list(deck[start:start + size])
                assert st[ST_STOCK_POS] == dealt                  # the stock is untouched
            assert n == len(want) and sorted(np.repeat(np.arange(NKINDS), hand)) == \
                sorted(want), (which, left)


# ---- 1c. whole meld phases: every legal end is reached by legal steps ------------------------

@pytest.mark.parametrize("rules_text", ("modern-american",
                                        "modern-american(mac_rule_of_five=false,"
                                        "canastas_to_go_out=1)"))
def test_every_legal_end_of_a_meld_phase_is_reached(rules_text):
    """A16's check made after every step does not lose a turn: from random positions of a
    side that has melded, the melds left by every sequence of placements the rules allow
    that ends the phase legally (A16, A17, A39) are exactly those the kernels' legal steps
    reach, each step leaving a legal end."""
    kern = Kernels(rules_text)
    rng = np.random.default_rng(305)
    log = []
    ends = Counter()
    for _ in range(400):
        p = random_position(rng, kern.rules)
        if p.opening:
            continue
        want = N.turn_ends(p.turn(kern.rules))
        got = {key for key, q in reachable(kern, p).items()}
        if set(want) != got:
            log.append((p, "missing", set(want) - got, "extra", got - set(want)))
        ends.update(want.values())
    assert not log, (len(log), log[:3])
    assert ends["on"] > 100 and ends["out"] > 5, ends
