"""Set up a deal position from card strings and ask the jitted kernels about it.

Tests write hands and melds the way RULES.md does (``"K K 2 JK"``); this module
builds the packed state (``kernels/game/state.py``) around them and calls the same
kernel functions the engine uses, so a scenario test checks the real code.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
from canasta_sim.kernels.game import moves, options, plans, scoring, slots, state
from canasta_sim.kernels.game.cards import NKINDS, RED3, TOKEN_TO_KIND, TOKENS
from canasta_sim.kernels.game.layout import (
    MAX_SEATS,
    NCOLS,
    NPARAMS,
    SIDE_BASE,
    SIDE_FIELDS,
    SIDE_STRIDE,
)
from canasta_sim.kernels.game.rng import seed_streams_nb
from canasta_sim.kernels.play import turn
from canasta_sim.kernels.players import switch

from canasta_sim.rules import parse_rules

ALIASES = {"Jk": "JK", "jk": "JK", "3s": "3b", "3c": "3b", "3h": "3r", "3d": "3r"}


def kinds(text: str) -> list:
    """``"9 9 2 Jk 3s"`` -> kernel card kinds (suits of threes as in RULES.md allowed)."""
    out = []
    for tok in text.replace(",", " ").split():
        tok = ALIASES.get(tok, tok)
        out.append(TOKEN_TO_KIND[tok])
    return out


def counts(text: str) -> np.ndarray:
    """Card string -> count vector int64[NKINDS]."""
    vec = np.zeros(NKINDS, np.int64)
    for k in kinds(text):
        vec[k] += 1
    return vec


class Position:
    """A mid-deal position: hands, melds, pile, stock and the turn about to be played.

    Cards not placed anywhere are not needed: the kernels never count the deck.
    """

    def __init__(self, rules="classic", scores=(0, 0, 0)):
        self.rules = parse_rules(rules)
        self.nb = self.rules.to_kernel()
        self.S = state.new_state()
        st = self.S.st
        sidev = self.S.sidev
        st[slots.ST_NSEATS] = self.rules.num_players
        st[slots.ST_NSIDES] = self.rules.num_sides
        for k in range(self.rules.num_sides):
            sidev[k, slots.SIDE_SCORE_BEFORE] = scores[k]
            sidev[k, slots.SIDE_MINIMUM] = engine_min(self.nb, scores[k])
        st[slots.ST_LONE] = -1
        st[slots.ST_PART_SIDE] = -1
        for s in range(self.rules.num_players):
            side = s % self.rules.num_sides
            st[slots.ST_SIDE_OF + s] = side                     # as deal.deal_nb does
            self.S.seatv[s, slots.SEAT_MINIMUM] = sidev[side, slots.SIDE_MINIMUM]
        self.opts = np.zeros((options.MAX_OPTS, 5), np.int64)
        self.plan = np.zeros((plans.MAX_PLANS, 16, 3), np.int64)   # the plans table
        self.buf = np.zeros(1, np.int32)
        self.pol = np.full(MAX_SEATS, 1, np.int64)
        self.params = np.zeros((MAX_SEATS, NPARAMS))
        self.stock(" ".join(["4"] * 20))

    @property
    def table(self):
        """The seats' players and the decision scratch as the kernels take them."""
        return switch.Table(self.pol, self.params, self.opts, self.plan)

    # --- building the position ---------------------------------------------------------------
    def hand(self, seat: int, text: str) -> "Position":
        self.S.hands[seat, :] = counts(text)
        return self

    def meld(self, side: int, rank: str, text: str) -> "Position":
        """Put a meld on the table for ``side`` (cards as a string, wild cards included)."""
        rank_kind = TOKEN_TO_KIND[ALIASES.get(rank, rank)]
        for k in kinds(text):
            col = slots.M_DEUCE if k == 1 else slots.M_JOKER if k == 0 else slots.M_NAT
            self.S.melds[side, col, rank_kind] += 1
            self.S.melds[side, slots.M_SIZE, rank_kind] += 1
        if rank_kind >= 4:
            self.S.sidev[side, slots.SIDE_MELDED] = 1
        return self

    def pile(self, text: str) -> "Position":
        """The discard pile, bottom first."""
        cards = kinds(text)
        st = self.S.st
        self.S.pile[:len(cards)] = cards
        st[slots.ST_PILE_N] = len(cards)
        st[slots.ST_FREEZERS] = sum(1 for c in cards if state.freezes_pile_nb(self.nb, c))
        return self

    def stock(self, text: str) -> "Position":
        """The stock, top card first."""
        cards = kinds(text)
        st = self.S.st
        self.S.deck[:len(cards)] = cards
        st[slots.ST_STOCK_POS] = 0
        st[slots.ST_DECK_N] = len(cards)
        return self

    def red3(self, side: int, n: int) -> "Position":
        self.S.sidev[side, slots.SIDE_RED3] = n
        return self

    def seat_red3(self, seat: int, n: int) -> "Position":
        """Red threes laid in front of ``seat`` (its own, C4), counted for its side too."""
        self.S.seatv[seat, slots.SEAT_RED3] += n
        self.S.sidev[int(self.st[slots.ST_SIDE_OF + seat]), slots.SIDE_RED3] += n
        return self

    def minimum(self, seat: int, minimum: int) -> "Position":
        """Set ``seat``'s own initial-meld minimum (as its score would, R27, C9)."""
        self.S.seatv[seat, slots.SEAT_MINIMUM] = minimum
        return self

    def melded_before(self, seat: int) -> "Position":
        self.S.seatv[seat, slots.SEAT_MELDED_BEFORE] = 1
        return self

    def policies(self, *names) -> "Position":
        """The policy of each seat in turn, with parameters: ``"careful(freeze_at=4)"``."""
        from canasta_sim.policies import parse_one

        for seat, text in enumerate(names):
            _, policy_id, values = parse_one(text)
            self.pol[seat] = policy_id
            self.params[seat, :] = 0
            self.params[seat, :len(values)] = values
        return self

    # --- turns -------------------------------------------------------------------------------
    def begin(self, seat: int, take: bool = False) -> "Position":
        """Start ``seat``'s turn (as after its draw when ``take`` is False)."""
        melds = self.S.melds
        st = self.S.st
        sidev = self.S.sidev
        moves.begin_turn_nb(st, self.S.seatv, sidev, melds, seat, 1 if take else 0)
        return self

    def take_options(self, seat: int) -> list:
        """The legal pile takes as (naturals, deuces, jokers) from the hand."""
        hands = self.S.hands
        melds = self.S.melds
        pile = self.S.pile
        st = self.S.st
        seatv = self.S.seatv
        sidev = self.S.sidev
        ws = self.S.ws
        self.begin(seat, take=True)
        n = options.take_options_nb(self.nb, st, seatv, sidev, hands[seat], melds, pile, seat,
                                    self.opts, 0, self.plan, ws)
        return [tuple(int(x) for x in self.opts[i, 1:4]) for i in range(n)]

    def can_take(self, seat: int) -> bool:
        return bool(self.take_options(seat))

    def meld_options(self, seat: int, planning: bool = False) -> list:
        """Legal meld-phase options as readable tuples: ('new', rank, '3N'|'2N+2'|'2N+JK'|...),
        ('add', rank, card), ('out', discard or None), ('stop',)."""
        hands = self.S.hands
        melds = self.S.melds
        pile = self.S.pile
        st = self.S.st
        seatv = self.S.seatv
        ws = self.S.ws
        n = options.meld_options_nb(self.nb, st, seatv, hands[seat], melds, pile, seat, planning,
                                    False, self.opts, self.plan, ws)
        return [describe(self.opts[i]) for i in range(n)]

    def go_out_plans(self, seat: int) -> list:
        """Every going-out plan open now (kernels/game/plans.py), as dicts: discard (token or
        None), melds ({rank: cards placed}), placed ({rank: (naturals, deuces, jokers)}),
        concealed, score, index."""
        hands = self.S.hands
        melds = self.S.melds
        st = self.S.st
        seatv = self.S.seatv
        ws = self.S.ws
        n = plans.go_out_plans_nb(self.nb, st, seatv, hands[seat], melds, seat,
                                  st[slots.ST_TURN_TAKE] == 0, True, False, self.plan, ws)
        out = []
        for p in range(n):
            placed = {}
            for r in range(3, NKINDS):
                nat, de, jo = (int(x) for x in self.plan[p, r])
                if nat + de + jo:
                    placed[TOKENS[r]] = (nat, de, jo)
            d = int(self.plan[p, plans.PLAN_META, 0])
            out.append({"discard": TOKENS[d] if d >= 0 else None, "placed": placed,
                        "melds": {r: sum(v) for r, v in placed.items()},
                        "concealed": bool(self.plan[p, plans.PLAN_META, 1]),
                        "score": int(self.plan[p, plans.PLAN_META, 2]), "index": p})
        return out

    def go_out_plan(self, seat: int):
        """(discard token or None, {rank: cards}) of the plan of the highest score (the one
        greedy and the club players choose) if the seat can go out now, else None."""
        options = self.go_out_plans(seat)
        if not options:
            return None
        best = max(options, key=lambda p: (p["score"], -p["index"]))
        return best["discard"], best["melds"]

    def play_turn(self, seat: int) -> int:
        """Play one whole turn with the seats' policies; returns moves.CONTINUE/DEAL_OVER."""
        return turn.play_turn_nb(self.nb, self.S, self.buf, seat, self.table)

    def score(self) -> list:
        """Score the deal as it stands: one dict of SIDE_FIELDS per side."""
        row = np.zeros(NCOLS, np.int64)
        scoring.score_deal_nb(self.nb, self.S, row)
        return [{f: int(row[SIDE_BASE + SIDE_STRIDE * k + i]) for i, f in enumerate(SIDE_FIELDS)}
                for k in range(self.rules.num_sides)]

    def set_out(self, seat: int, concealed: bool = False) -> "Position":
        st = self.S.st
        st[slots.ST_END_REASON] = 0
        st[slots.ST_OUT_SEAT] = seat
        st[slots.ST_CONCEALED] = int(concealed)
        return self

    def set_stock_end(self) -> "Position":
        self.S.st[slots.ST_END_REASON] = 1
        return self

    # --- reading the position ----------------------------------------------------------------
    def hand_of(self, seat: int) -> Counter:
        return Counter({TOKENS[k]: int(v) for k, v in enumerate(self.S.hands[seat]) if v})

    def meld_of(self, side: int, rank: str) -> tuple:
        """(naturals, deuces, jokers) of a side's meld."""
        return tuple(int(x) for x in self.S.melds[side, :slots.M_SIZE, TOKEN_TO_KIND[rank]])

    @property
    def st(self):
        return self.S.st


def engine_min(nb, score) -> int:
    return int(state.initial_minimum_nb(nb, score))


def describe(opt) -> tuple:
    kind, a, b = int(opt[0]), int(opt[1]), int(opt[2])
    if kind == options.OPT_NEW:
        n, d, j = b, int(opt[3]), int(opt[4])
        return ("new", TOKENS[a], f"{n}N" + "+2" * d + "+JK" * j)
    if kind == options.OPT_ADD:
        return ("add", TOKENS[a], TOKENS[b])
    if kind == options.OPT_GO_OUT:
        return ("out", TOKENS[b] if b >= 0 else None)
    if kind == options.OPT_STOP:
        return ("stop",)
    return (kind, a, b)


def deck_cards(rng):
    deck = []
    for kind in range(NKINDS):
        if kind == RED3:
            continue              # red threes would be laid out at once; keep positions simple
        deck += [kind] * (4 if kind == 0 else 8 if kind != 3 else 4)
    deck = np.array(deck)
    rng.shuffle(deck)
    return list(deck)


def random_position(seed: int, policy: str, rules: str = "classic"):
    """A random mid-deal position (no red threes): hands of 2-13 cards, a few natural melds per
    side, a pile; returns (position, the hands as lists of kinds, the stock list).  With a
    cutthroat rule set every other seed has formed the partnership (lone hand seed % 3)."""
    rng = np.random.default_rng(seed)
    cards = deck_cards(rng)
    pos = Position(rules).policies(*[policy] * parse_rules(rules).num_players)
    n = pos.rules.num_players
    sizes = rng.integers(2, 14, size=n)
    hands = []
    for seat in range(n):
        hands.append([cards.pop() for _ in range(int(sizes[seat]))])
    # melds: a few legal melds per side from natural triples
    for side in range(pos.rules.num_sides):
        for _ in range(int(rng.integers(0, 4))):
            rank = int(rng.integers(4, 15))
            if pos.S.melds[side, :, rank].sum() or cards.count(rank) < 3:
                continue
            for _ in range(3 + int(rng.integers(0, 4))):
                if rank in cards:
                    cards.remove(rank)
                    pos.S.melds[side, slots.M_NAT, rank] += 1
                    pos.S.melds[side, slots.M_SIZE, rank] += 1
            pos.S.sidev[side, slots.SIDE_MELDED] = 1
    pile = [cards.pop() for _ in range(int(rng.integers(0, 12)))]
    for seat, hand in enumerate(hands):
        for k in hand:
            pos.S.hands[seat, k] += 1
    n = len(pile)
    pos.S.pile[:n] = pile
    pos.st[slots.ST_PILE_N] = n
    pos.st[slots.ST_FREEZERS] = sum(1 for c in pile if state.freezes_pile_nb(pos.nb, c))
    pos.S.deck[:len(cards)] = cards
    pos.st[slots.ST_STOCK_POS] = 0
    pos.st[slots.ST_DECK_N] = len(cards)
    seed_streams_nb(pos.S.rng, seed, 0)
    if pos.rules.cutthroat and seed % 2 == 1:
        from canasta_sim.kernels.game import cutthroat
        cutthroat.form_by_take_nb(pos.nb, pos.S, pos.buf, seed % 3)          # C5
    return pos, hands, cards


