"""Slow, obviously-correct reference versions of the rules the kernels implement.

Nothing here imports the engine.  Cards are docs/trace.md tokens ("JK", "2", "3r",
"3b", "4" .. "A"); a meld is a list of tokens; a hand is a list of tokens.  The functions
follow the wording of the rules (docs/rules.md) line by line so that a reader can check them
against the spec without knowing how the kernels pack their state (a naive reference beside
the kernels, as STYLE.md asks; the tests import it as ``naive``).
"""
from __future__ import annotations

from collections import Counter

NATURALS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")      # R3
WILDS = ("JK", "2")                                                      # R3
ALL_TOKENS = ("JK", "2", "3r", "3b") + NATURALS

# R4 card values (red threes have no card value; black three from the knob, default 5)
VALUES = {"JK": 50, "2": 20, "3r": 0, "3b": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10,
          "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 20}

ALIASES = {"Jk": "JK", "jk": "JK", "3s": "3b", "3c": "3b", "3h": "3r", "3d": "3r"}

CLASSIC_MELD_TABLE = ((None, 15), (0, 50), (1500, 90), (3000, 120))     # R27


def tokens(text) -> list:
    """"9 9 2 Jk 3s" -> ["9", "9", "2", "JK", "3b"]; a list is returned unchanged (normalised)."""
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [ALIASES.get(t, t) for t in text]


def card_value(tok, black3_value=5) -> int:
    """R4: the value of one card."""
    if tok == "3b":
        return black3_value
    return VALUES[tok]


def cards_value(cards, black3_value=5) -> int:
    return sum(card_value(t, black3_value) for t in tokens(cards))


def full_deck(packs=2, jokers=4) -> Counter:
    """R2/R3: two 52-card packs plus four jokers, by token (suits do not matter)."""
    deck = Counter()
    for _ in range(packs):
        for rank in NATURALS:
            deck[rank] += 4
        deck["2"] += 4
        deck["3r"] += 2
        deck["3b"] += 2
    deck["JK"] += jokers
    return deck


# ---- melds (R18, R19, D2) ----------------------------------------------------------------------

def meld_counts_ok(naturals: int, wilds: int, ratio="none", min_naturals=2, max_wilds=3) -> bool:
    """R18/R19 with the D2 readings, written out literally:

    * a meld has at least three cards;
    * at least ``min_naturals`` natural cards;
    * at most ``max_wilds`` wild cards (None = no cap);
    * ``le``: never more wild than natural; ``lt``: naturals out-number wilds;
      ``half``: two natural cards for each wild card.
    """
    if naturals + wilds < 3:
        return False
    if naturals < min_naturals:
        return False
    if max_wilds is not None and wilds > max_wilds:
        return False
    if ratio == "le" and not wilds <= naturals:
        return False
    if ratio == "lt" and not naturals > wilds:
        return False
    if ratio == "half" and not naturals >= 2 * wilds:
        return False
    return True


def meld_ok(cards, ratio="none", min_naturals=2, max_wilds=3) -> bool:
    """R18: is this list of cards a legal meld of one natural rank (outside going out)?"""
    cards = tokens(cards)
    ranks = {c for c in cards if c not in WILDS}
    if len(ranks) != 1:
        return False                     # a meld of wild cards only, or two ranks
    rank = ranks.pop()
    if rank not in NATURALS:
        return False                     # threes are not melded (R24, R25)
    naturals = sum(1 for c in cards if c == rank)
    wilds = sum(1 for c in cards if c in WILDS)
    return meld_counts_ok(naturals, wilds, ratio, min_naturals, max_wilds)


def black_three_meld_ok(cards) -> bool:
    """R25/D10: 3 or 4 black threes, no wild card (only when going out)."""
    cards = tokens(cards)
    return 3 <= len(cards) <= 4 and all(c == "3b" for c in cards)


def is_canasta(cards) -> bool:
    """R23: seven or more cards of a natural rank."""
    cards = tokens(cards)
    return len(cards) >= 7 and any(c in NATURALS for c in cards)


def is_natural_canasta(cards) -> bool:
    return is_canasta(cards) and not any(c in WILDS for c in tokens(cards))


# ---- initial meld (R27) ------------------------------------------------------------------------

def initial_minimum(score: int, table=CLASSIC_MELD_TABLE) -> int:
    """R27: the minimum count for a side whose cumulative score is ``score``."""
    minimum = None
    for lower, value in table:
        if lower is None or score >= lower:
            minimum = value
    return minimum


# ---- scoring (R51-R57) -------------------------------------------------------------------------

def red3_points(count: int, each=100, all_four=800) -> int:
    """R52 (unsigned): 100 each, 800 for all four."""
    if count == 0:
        return 0
    return all_four if count == 4 else each * count


def score_side(melds, red3: int, hands, went_out=False, concealed=False, *,
               natural_bonus=500, mixed_bonus=300, out_bonus=100, concealed_out_bonus=200,
               red3_each=100, red3_all_four=800, red3_negative_if_unmelded=True,
               red3_requires="any_meld", black3_value=5) -> dict:
    """One side's deal score, item by item, as the scoring rules (R51-R57) read.

    ``melds``: {rank token: list of cards} (rank "3b" for the R25 meld);
    ``hands``: the partners' hands (lists of tokens); ``went_out``: this side went out.
    Returns the docs/trace.md score fields: melds, natural, mixed, canastas, red3, out, hand, total.
    """
    melds = {rank: tokens(cards) for rank, cards in melds.items() if len(cards)}
    meld_points = sum(cards_value(cards, black3_value) for cards in melds.values())   # R54
    natural = sum(1 for r, c in melds.items() if r in NATURALS and is_natural_canasta(c))
    mixed = sum(1 for r, c in melds.items()
                if r in NATURALS and is_canasta(c) and not is_natural_canasta(c))      # R23
    canastas = natural * natural_bonus + mixed * mixed_bonus                          # R51
    has_melded = any(r in NATURALS for r in melds)                                   # R24, R26
    if red3_requires == "canasta":
        positive = natural + mixed > 0
    else:
        positive = has_melded
    r3 = red3_points(red3, red3_each, red3_all_four)                                  # R52
    if not positive:
        r3 = -r3 if red3_negative_if_unmelded else 0                                  # R57
    out = (concealed_out_bonus if concealed else out_bonus) if went_out else 0        # R53
    hand = -sum(cards_value(h, black3_value) for h in hands)                          # R55
    total = canastas + r3 + out + meld_points + hand                                  # R56
    return {"melds": meld_points, "natural": natural, "mixed": mixed, "canastas": canastas,
            "red3": r3, "out": out, "hand": hand, "total": total}


# ---- game end (R58-R60); the engine has no game loop yet ---------------------------------------

def game_result(totals, target=5000, tie_policy="extra_deal"):
    """R59/R60 after a deal: None while no side has reached ``target``; else the index of the
    winning side, or "tie" (extra_deal: play on) / "draw"."""
    if max(totals) < target:
        return None
    best = max(totals)
    leaders = [k for k, t in enumerate(totals) if t == best]
    if len(leaders) == 1:
        return leaders[0]
    return "tie" if tie_policy == "extra_deal" else "draw"


# ---- going out (R16, R25, R39-R41) -------------------------------------------------------------

def can_go_out(hand, melds, canastas_needed=1, ratio="none", min_naturals=2, max_wilds=3,
               black_three_meld=True, allow_discard=True) -> bool:
    """R39-R41 by brute force: can ``hand`` be emptied now, every card melded (on the side's
    ``melds`` {rank: cards} or in new melds) except at most one final discard, leaving every
    meld legal (R18/R19, R21, R25) and the side with ``canastas_needed`` canastas (R40)?
    The initial-meld minimum is not considered (call it for a side that has melded)."""
    hand = tokens(hand)
    choices = [None] + (sorted(set(hand)) if allow_discard else [])
    for discard in choices:
        rest = list(hand)
        if discard is not None:
            rest.remove(discard)
        if _meld_all(rest, melds, canastas_needed, ratio, min_naturals, max_wilds,
                     black_three_meld):
            return True
    return False


def _meld_all(cards, melds, canastas_needed, ratio, min_naturals, max_wilds, black3):
    count = Counter(cards)
    if count["3r"]:
        return False
    if count["3b"] and not (black3 and 3 <= count["3b"] <= 4):
        return False
    table = {r: tokens(c) for r, c in melds.items() if r in NATURALS and len(c)}
    targets = []                       # (naturals, wilds already there, is new)
    for rank in NATURALS:
        on_table = table.get(rank, [])
        h = count[rank]
        if not on_table and h == 0:
            continue
        if not on_table and h < min_naturals:
            return False
        nat = sum(1 for c in on_table if c == rank) + h
        wild = len(on_table) - sum(1 for c in on_table if c == rank)
        targets.append((nat, wild))
    wilds = count["2"] + count["JK"]

    def place(i, left, canastas):
        if i == len(targets):
            return left == 0 and canastas >= canastas_needed
        nat, wild = targets[i]
        for x in range(left + 1):
            if meld_counts_ok(nat, wild + x, ratio, min_naturals, max_wilds):
                if place(i + 1, left - x, canastas + (nat + wild + x >= 7)):
                    return True
        return False

    return place(0, wilds, 0)


# ---- what a meld phase may leave on the table (R15-R21, R26-R28) -------------------------------

def meld_turn_ends(hand, melds, minimum=None, ratio="none", min_naturals=2, max_wilds=3,
                   keep=2) -> set:
    """Every table a draw turn's meld phase can legally end with while the player keeps at
    least ``keep`` cards (so he can discard one and keep one, R16), by brute force.

    ``melds``: the side's melds {rank: cards} at the start of the turn; ``minimum``: the
    initial-meld minimum if the side has not melded (R26-R28: new melds of the turn must
    count at least that much, card values only), None otherwise.  A table is a frozenset of
    (rank, (naturals, deuces, jokers))."""
    hand = Counter(tokens(hand))
    table = {r: Counter(tokens(c)) for r, c in melds.items() if r in NATURALS and len(c)}
    ranks = [r for r in NATURALS if hand[r] or r in table]
    total = sum(hand.values())
    ends = set()

    def rec(i, placed, deuces, jokers, used, count):
        if i == len(ranks):
            if used and minimum is not None and count < minimum:
                return
            if total - used < keep:
                return
            ends.add(frozenset((r, v) for r, v in placed.items() if sum(v)))
            return
        r = ranks[i]
        have = table.get(r, Counter())
        n0, d0, j0 = have[r], have["2"], have["JK"]
        options = range(hand[r] + 1) if r in table else \
            [0] + list(range(min_naturals, hand[r] + 1))
        for n in options:
            for d in range(deuces + 1):
                for j in range(jokers + 1):
                    if n + d + j == 0:
                        if n0 + d0 + j0:
                            placed[r] = (n0, d0, j0)
                        rec(i + 1, placed, deuces, jokers, used, count)
                        placed.pop(r, None)
                        continue
                    if not meld_counts_ok(n0 + n, d0 + j0 + d + j, ratio, min_naturals,
                                          max_wilds):
                        continue
                    placed[r] = (n0 + n, d0 + d, j0 + j)
                    rec(i + 1, placed, deuces - d, jokers - j, used + n + d + j,
                        count + n * VALUES[r] + 20 * d + 50 * j)
                    del placed[r]

    rec(0, {}, hand["2"], hand["JK"], 0, 0)
    return ends


def take_options(hand, melds, pile, canastas_needed=1, ratio="none", min_naturals=2,
                 max_wilds=3, natural_plus_wild=True, layoff=True, one_card_rule=True,
                 freezers=("2", "JK", "3r")) -> set:
    """R31-R34, R37 and R16 for a side that HAS melded: every (naturals, deuces, jokers) from
    the hand that may join the top card when taking the pile."""
    hand = Counter(tokens(hand))
    pile = tokens(pile)
    out = set()
    if not pile or pile[-1] not in NATURALS:
        return out                                                        # R31
    top = pile[-1]
    size = sum(hand.values())
    if one_card_rule and size == 1 and len(pile) == 1:
        return out                                                        # R37
    frozen = any(c in freezers for c in pile)                             # R32
    table = tokens(melds.get(top, []))
    n0 = table.count(top)
    w0 = len(table) - n0
    canastas = sum(1 for r, c in melds.items() if r in NATURALS and len(tokens(c)) >= 7)
    rest = len(pile) - 1 - pile[:-1].count("3r")
    for k in range(hand[top] + 1):
        for d in range(hand["2"] + 1):
            for j in range(hand["JK"] + 1):
                if frozen and k < 2:
                    continue                                              # R33
                if not frozen and not (k >= 2 or (natural_plus_wild and k >= 1 and d + j >= 1)
                                       or (layoff and table)):
                    continue                                              # R34
                if not meld_counts_ok(n0 + 1 + k, w0 + d + j, ratio, min_naturals, max_wilds):
                    continue                                              # R18, R19
                after = canastas + (len(table) < 7 <= len(table) + 1 + k + d + j)
                left = size - k - d - j + rest
                if left <= 1 and after < canastas_needed and not (
                        left == 1 and _last_card_completes(
                            hand, melds, pile, top, k, d, j, after + 1 >= canastas_needed,
                            ratio, min_naturals, max_wilds)):
                    continue                                              # R16
                out.add((k, d, j))
    return out


def _last_card_completes(hand, melds, pile, top, k, d, j, enough, ratio, min_naturals,
                         max_wilds) -> bool:
    """R16 after a take that leaves one card: it may still be legal if that card completes
    a canasta that gives the side enough canastas to go out (T31 with a take)."""
    if not enough:
        return False
    rest = Counter(hand)
    rest[top] -= k
    rest["2"] -= d
    rest["JK"] -= j
    rest.update(c for c in pile[:-1] if c != "3r")
    (card,) = list((+rest).elements())
    table = {r: tokens(c) for r, c in melds.items() if r in NATURALS and len(tokens(c))}
    table[top] = table.get(top, []) + [top] * (1 + k) + ["2"] * d + ["JK"] * j
    for rank, cards in table.items():
        if len(cards) != 6 or (card in NATURALS and card != rank) or card not in NATURALS \
                and card not in ("2", "JK"):
            continue
        nat = cards.count(rank) + (card == rank)
        if meld_counts_ok(nat, 7 - nat, ratio, min_naturals, max_wilds):
            return True
    return False


# =================================================================================================
# The options of a decision (docs/moves.md), by brute force from the rules
# =================================================================================================
#
# A move is legal iff the rules allow it AND some legal end of the turn is still reachable after
# it: the remaining take melds, the pile joining the hand, further meld steps, then stop and a
# discard, or going out.  The search below works on final tables: every legal final meld can be
# reached by legal steps (lay the smallest legal meld, add the naturals, then the wild cards one
# by one: R19 holds at every moment because caps and ratios only get easier with fewer wild
# cards), so "some legal end is reachable" is "some legal final table exists" with the turn's
# other conditions (R16 keep, R26-R30 count, R40 canastas, R42 answer, R47 no discard).

from dataclasses import dataclass, field  # noqa: E402

RANK_ORDER = ("3b",) + NATURALS                      # placements of a going-out plan, in order
KINDS = ("JK", "2", "3b") + NATURALS                 # the kinds a hand can hold (no red three)
DEFAULT_KNOBS = {
    "canastas_to_go_out": 1, "min_naturals_per_meld": 2, "max_wilds_per_meld": 3,
    "wild_ratio_rule": "none", "concealed_exempt_from_min_count": True,
    "concealed_allows_pile_take": True, "concealed_allows_final_discard": True,
    "ask_permission": "optional", "last_card_red3_may_meld": False,
    "empty_stock_forced_take": True, "black_three_going_out_meld": True,
    "unfrozen_take_natural_plus_wild": True, "unfrozen_take_by_layoff": True,
    "one_card_pile_restriction": True, "unmelded_pile_access": "natural_pair_with_min_count",
    "top_card_counts_for_minimum": True, "concealed_canasta_bonus": 0,
    "upcard_red3_freezes": True, "black_three_freezes": False, "black3_card_value": 5,
}
DECISIONS = ("draw", "take_plan", "meld", "discard", "ask", "answer")


@dataclass
class Position:
    """One decision point, described in the rules' terms (no engine state).

    ``hand``: the deciding seat's cards now (at a ``draw`` decision: before drawing; in a take
    turn's meld phase: with the pile joined).  ``melds``: every side's melds now,
    {rank: list of cards}; this turn's placements (take melds included) are on them.  ``pile``:
    bottom first; at a ``take_plan`` decision the pile being taken (top card included, though it
    already lies in the first take meld); empty once it has joined the hand.
    ``minimum``: the side's R27 minimum (it matters only while ``start_ranks`` is empty).
    The turn so far: ``took`` (the pile was taken this turn), ``take_top`` (its top card),
    ``take_melds`` (hand cards put into take melds, {rank: Counter}), ``placed`` (every hand card
    placed this turn, take melds included, {rank: Counter}), ``count`` (R28 so far: in a take
    turn the top card if it counts plus the take melds' hand cards), ``asked`` (None: not asked,
    True: "yes", False: "no"), ``last_red3`` (the turn followed a last-card red three, R47),
    ``seat_melded_before`` (R44 i), ``start_ranks`` (the side's meld ranks at turn start),
    ``has_partner``."""

    hand: Counter
    melds: list
    side: int = 0
    pile: list = field(default_factory=list)
    stock: int = 20
    knobs: dict = field(default_factory=dict)
    minimum: int = 50
    took: bool = False
    take_top: str | None = None
    take_melds: dict = field(default_factory=dict)
    placed: dict = field(default_factory=dict)
    count: int = 0
    asked: bool | None = None
    last_red3: bool = False
    seat_melded_before: bool = False
    start_ranks: frozenset = frozenset()
    has_partner: bool = True

    def knob(self, name):
        return self.knobs.get(name, DEFAULT_KNOBS[name])

    def describe(self) -> str:
        """A readable multi-line description (for failure messages)."""
        def cards(c):
            return " ".join(sorted(Counter(c).elements(), key=_kind_order)) or "-"

        lines = [f"hand: {cards(self.hand)}   ({sum(self.hand.values())} cards)"]
        for k, melds in enumerate(self.melds):
            body = ", ".join(f"{r}:[{cards(c)}]" for r, c in sorted(
                melds.items(), key=lambda x: _kind_order(x[0])) if len(c))
            lines.append(f"side {k}{' (own)' if k == self.side else ''} melds: {body or '-'}")
        lines.append(f"pile (bottom first): {' '.join(self.pile) or '-'}   stock: {self.stock}")
        start = sorted(self.start_ranks, key=_kind_order)
        lines.append(f"minimum {self.minimum}, start ranks {start}"
                     f", took={self.took} top={self.take_top}, count={self.count}")
        placed = {r: cards(c) for r, c in self.placed.items() if sum(c.values())}
        take = {r: cards(c) for r, c in self.take_melds.items() if sum(c.values())}
        lines.append(f"placed this turn {placed}, take melds {take}")
        lines.append(f"asked={self.asked} last_red3={self.last_red3} "
                     f"seat_melded_before={self.seat_melded_before} has_partner={self.has_partner}")
        diff = {k: v for k, v in self.knobs.items() if DEFAULT_KNOBS.get(k, v) != v}
        lines.append(f"knobs differing from classic: {diff}")
        return "\n".join(lines)


def _kind_order(tok):
    return ALL_TOKENS.index(tok) if tok in ALL_TOKENS else 99


class _Ctx:
    """What stays fixed for the rest of the turn, and the search memos."""

    def __init__(self, pos: Position):
        self.pos = pos
        k = pos.knob
        self.mn = k("min_naturals_per_meld")
        self.maxw = k("max_wilds_per_meld")
        self.ratio = k("wild_ratio_rule")
        self.need = k("canastas_to_go_out")
        self.b3 = k("black_three_going_out_meld")
        self.b3v = k("black3_card_value")
        self.unmelded = not any(r in NATURALS for r in pos.start_ranks)
        self.minimum = pos.minimum
        self.took = pos.took
        self.start = frozenset(r for r in pos.start_ranks if r in NATURALS)
        # the cards that join the hand when the pile is taken (R36, R14): used only by takes
        self.rest = Counter(c for c in tokens(pos.pile)[:-1] if c != "3r")
        self.memo = {}

    def meld_ok(self, n, w):
        return meld_counts_ok(n, w, self.ratio, self.mn, self.maxw)

    def value(self, kind):
        return self.b3v if kind == "3b" else VALUES[kind]


# A search state: (hand, table, count, placed_any, touched_start)
#   hand: tuple of counts in KINDS order; table: tuple of (n, d, j) in NATURALS order;
#   count: R28 so far (only used for a side unmelded at turn start);
#   placed_any: a hand card or the top card was placed this turn;
#   touched_start: something was placed this turn on a meld the side had at turn start (R44 iii).

def _state_of(pos: Position, ctx: _Ctx):
    hand = tuple(pos.hand.get(k, 0) for k in KINDS)
    own = pos.melds[pos.side]
    table = []
    for r in NATURALS:
        c = Counter(tokens(own.get(r, [])))
        table.append((c[r], c["2"], c["JK"]))
    placed_any = pos.took or any(sum(c.values()) for c in pos.placed.values())
    touched = any(sum(c.values()) for r, c in pos.placed.items() if r in ctx.start) or (
        pos.took and pos.take_top in ctx.start)
    return (hand, tuple(table), pos.count, placed_any, touched)


KI = {k: i for i, k in enumerate(KINDS)}
RI = {r: i for i, r in enumerate(NATURALS)}


def _place(ctx, state, rank, n, d, j, counts):
    """The state after putting n naturals of ``rank``, d deuces, j jokers from the hand on the
    side's meld of ``rank`` (created if there is none).  ``counts``: the cards count for R28
    (draw turn or take melds of a side unmelded at turn start)."""
    hand, table, count, _, touched = state
    h = list(hand)
    h[KI[rank]] -= n
    h[KI["2"]] -= d
    h[KI["JK"]] -= j
    t = list(table)
    n0, d0, j0 = t[RI[rank]]
    t[RI[rank]] = (n0 + n, d0 + d, j0 + j)
    if counts and ctx.unmelded:
        count += n * VALUES[rank] + 20 * d + 50 * j
    return (tuple(h), tuple(t), count, True, touched or rank in ctx.start)


def _steps(ctx, state):
    """Every meld step the rules allow from ``state`` (R18-R21): ("new", rank, n, d, j) of the
    smallest legal size and ("add", rank, card); returns (option, (rank, n, d, j))."""
    hand, table = state[0], state[1]
    size = max(3, ctx.mn)
    out = []
    for r in NATURALS:
        n0, d0, j0 = table[RI[r]]
        have = hand[KI[r]]
        if n0 + d0 + j0 == 0:
            for n in range(ctx.mn, min(size, have) + 1):
                w = size - n
                for d in range(min(w, hand[KI["2"]]) + 1):
                    j = w - d
                    if j <= hand[KI["JK"]] and ctx.meld_ok(n, w):
                        out.append((("new", r, n, d, j), (r, n, d, j)))
        else:
            for card in (r, "2", "JK"):
                if hand[KI[card]] == 0:
                    continue
                n, d, j = (card == r), (card == "2"), (card == "JK")
                if ctx.meld_ok(n0 + n, d0 + j0 + d + j):
                    out.append((("add", r, card), (r, int(n), int(d), int(j))))
    return out


def _count_ok(ctx, state):
    """R26-R28, R35: the side has melded, or the turn's count reaches the minimum, or (draw turn)
    nothing has been placed."""
    if not ctx.unmelded:
        return True
    if state[2] >= ctx.minimum:
        return True
    return not ctx.took and not state[3]


def _keep(ctx):
    """R16: cards a player must keep to stop (one to discard, one to keep); one after a
    last-card red three with last_card_red3_may_meld (no discard follows, 2.11)."""
    return 1 if ctx.pos.last_red3 else 2


def _stop_legal(ctx, state):
    """``stop`` as an end of the meld phase: then a discard (or, after a last-card red three,
    the end of the deal)."""
    if ctx.pos.asked is True:
        return False                                                     # R42: must go out
    return _count_ok(ctx, state) and sum(state[0]) >= _keep(ctx)         # R16, R26


def _can_reach_stop(ctx, state):
    """Some further meld steps (possibly none) lead to a state where ``stop`` is legal."""
    if ctx.pos.asked is True:
        return False
    keep = _keep(ctx)
    if sum(state[0]) < keep:
        return False
    if _count_ok(ctx, state):
        return True
    if ctx.took:
        return False                    # the take-turn count cannot grow after the take (R35)
    key = ("reach_stop", state)
    if key not in ctx.memo:
        ctx.memo[key] = _count_search(ctx, state, 0, lambda s: sum(s[0]) >= keep, "keep")
    return ctx.memo[key]


def _count_search(ctx, state, i, accept, tag):
    """Is there a way to place further hand cards on ranks NATURALS[i:] (each meld legal at the
    end, R18/R19) so that the count reaches the minimum and ``accept(state)`` holds?  Placing
    more only lowers the hand, so once the count is met the answer is ``accept`` of that state.
    (``tag`` names ``accept`` for the memo.)"""
    key = ("count", tag, i, state)
    if key not in ctx.memo:
        ctx.memo[key] = _count_search_1(ctx, state, i, accept, tag)
    return ctx.memo[key]


def _count_search_1(ctx, state, i, accept, tag):
    if state[2] >= ctx.minimum:
        return accept(state)
    hand, table = state[0], state[1]
    # bound: every card left in the hand on ranks i.. plus every wild card
    bound = state[2] + sum(hand[KI[r]] * VALUES[r] for r in NATURALS[i:]) \
        + 20 * hand[KI["2"]] + 50 * hand[KI["JK"]]
    if bound < ctx.minimum or i == len(NATURALS):
        return False
    r = NATURALS[i]
    n0, d0, j0 = table[i]
    have = hand[KI[r]]
    choices = []
    for n in range(have, -1, -1):
        if n0 + d0 + j0 == 0 and 0 < n < ctx.mn:
            continue
        for d in range(hand[KI["2"]], -1, -1):
            for j in range(hand[KI["JK"]], -1, -1):
                if n + d + j == 0:
                    continue
                if n0 + d0 + j0 + n == 0:
                    continue                                  # wild cards need a meld (R18)
                if ctx.meld_ok(n0 + n, d0 + j0 + d + j) and n0 + n + d0 + d + j0 + j >= 3:
                    choices.append((n, d, j))
    for n, d, j in choices:
        if _count_search(ctx, _place(ctx, state, r, n, d, j, True), i + 1, accept, tag):
            return True
    return _count_search(ctx, state, i + 1, accept, tag)


def _plan_frames(ctx, state):
    """For every discard (or none) that leaves a hand a plan could meld: (discard, black
    threes to meld, targets, deuces, jokers).  All naturals go to their ranks; ``targets`` are
    the melds the side has at the end as (rank, naturals at the end, wild cards already there,
    naturals added); the wild cards are still to be distributed over them.  Nothing at all if
    the partner said "no" (R42) or with ask_permission=required before a "yes"."""
    pos = ctx.pos
    hand, table = state[0], state[1]
    if pos.asked is False:
        return                                                            # R42 "no"
    if (pos.knob("ask_permission") == "required" and not ctx.took and pos.has_partner
            and pos.asked is not True):
        return                                                            # R42 required
    discards = [None]
    if not pos.last_red3:                                                 # R47 / 2.11
        discards += [k for k in KINDS if hand[KI[k]]]
    for disc in discards:
        h = list(hand)
        if disc is not None:
            h[KI[disc]] -= 1
        b = h[KI["3b"]]
        if b and not (ctx.b3 and 3 <= b <= 4):
            continue                                                      # R25, R41, D10
        targets = []
        ok = True
        for i, r in enumerate(NATURALS):
            n0, d0, j0 = table[i]
            add = h[KI[r]]
            if n0 + d0 + j0 + add == 0:
                continue
            if n0 + d0 + j0 == 0 and add < ctx.mn:
                ok = False                                                # R18
                break
            targets.append((r, n0 + add, d0 + j0, add))
        if not ok:
            continue
        dtot, jtot = h[KI["2"]], h[KI["JK"]]
        if dtot + jtot and not targets:
            continue
        yield disc, b, targets, dtot, jtot


def _as_placements(placed, b):
    return tuple(sorted([(r, a, d, j) for r, a, d, j in placed if a + d + j]
                        + ([("3b", b, 0, 0)] if b else []),
                        key=lambda p: RANK_ORDER.index(p[0])))


def raw_plans(ctx, state):
    """Every legal going-out plan from ``state`` (meld phase), one per raw plan, as
    (discard, placements, key): every discard (or none), every distribution of the wild cards
    over the melds the side has at the end, kept when :func:`_plan_key_if_legal` accepts it
    (R18/R19, R25/D10, R39-R42, R27-R30/R35, R44, R47).  Slow with many wild cards: the
    search uses :func:`_plans`, which a test checks against this."""
    for disc, b, targets, dtot, jtot in _plan_frames(ctx, state):
        def dist(t, dleft, jleft, acc):
            if t == len(targets):
                if dleft == 0 and jleft == 0:
                    yield list(acc)
                return
            r, nat, wild, add = targets[t]
            for d in range(dleft + 1):
                for j in range(jleft + 1):
                    if nat + wild + d + j >= 3 and ctx.meld_ok(nat, wild + d + j):
                        acc.append((r, add, d, j))
                        yield from dist(t + 1, dleft - d, jleft - j, acc)
                        acc.pop()

        for placed in dist(0, dtot, jtot, []):
            placements = _as_placements(placed, b)
            k = _plan_key_if_legal(ctx, state, placements, disc)
            if k is not None:
                yield disc, placements, k


def _plans(ctx, state):
    """One legal going-out plan per class from ``state``, as (discard, placements, key): the
    same classes as :func:`raw_plans`, found by distributing the wild cards meld by meld and
    keeping, for each partial distribution, only what legality and the class depend on (the
    canastas so far, whether a start meld was touched, the R28 count up to what is missing)."""
    key = ("plans", state)
    if key in ctx.memo:
        return ctx.memo[key]
    hand, table, count, _, _ = state
    cap = max(ctx.minimum - count, 0) if ctx.unmelded and not ctx.took else 0
    found = {}
    for disc, b, targets, dtot, jtot in _plan_frames(ctx, state):
        memo = {}
        if cap == 0:
            # the count cannot matter: only the number of wild cards on each meld does
            for placed in _dp_wilds(ctx, targets, dtot + jtot).values():
                placed = _split_wilds(placed, dtot, jtot)
                placements = _as_placements(placed, b)
                k = _plan_key_if_legal(ctx, state, placements, disc)
                if k is not None and k not in found:
                    found[k] = (disc, placements, k)
            continue

        def dp(t, dl, jl):
            """outcome (canastas, touched a start meld, count capped) -> placements."""
            if t == len(targets):
                return {(frozenset(), False, 0): ()} if dl == jl == 0 else {}
            k = (t, dl, jl)
            if k in memo:
                return memo[k]
            r, nat, wild, add = targets[t]
            res = {}
            for d in range(dl + 1):
                for j in range(jl + 1):
                    size = nat + wild + d + j
                    if size < 3 or not ctx.meld_ok(nat, wild + d + j):
                        continue
                    sub = dp(t + 1, dl - d, jl - j)
                    can = (r, "natural" if wild + d + j == 0 else "mixed") if size >= 7 else None
                    touched = r in ctx.start and add + d + j > 0
                    cnt = add * VALUES[r] + 20 * d + 50 * j
                    for (cs, ts, c), pl in sub.items():
                        o = (cs | {can} if can else cs, ts or touched, min(c + cnt, cap))
                        if o not in res:
                            res[o] = ((r, add, d, j),) + pl
            memo[k] = res
            return res

        for placed in dp(0, dtot, jtot).values():
            placements = _as_placements(placed, b)
            k = _plan_key_if_legal(ctx, state, placements, disc)
            if k is not None and k not in found:
                found[k] = (disc, placements, k)
    result = list(found.values())
    ctx.memo[key] = result
    return result


def _dp_wilds(ctx, targets, wilds):
    """outcome (canastas, touched a start meld) -> [(rank, naturals added, wild cards)] over
    every distribution of ``wilds`` wild cards on ``targets`` leaving every meld legal."""
    memo = {}

    def dp(t, wl):
        if t == len(targets):
            return {(frozenset(), False): ()} if wl == 0 else {}
        if (t, wl) in memo:
            return memo[t, wl]
        r, nat, wild, add = targets[t]
        res = {}
        for w in range(wl + 1):
            size = nat + wild + w
            if size < 3 or not ctx.meld_ok(nat, wild + w):
                continue
            can = (r, "natural" if wild + w == 0 else "mixed") if size >= 7 else None
            touched = r in ctx.start and add + w > 0
            for (cs, ts), pl in dp(t + 1, wl - w).items():
                o = (cs | {can} if can else cs, ts or touched)
                if o not in res:
                    res[o] = ((r, add, w),) + pl
        memo[t, wl] = res
        return res

    return dp(0, wilds)


def _split_wilds(placed, deuces, jokers):
    """(rank, naturals, wild cards) -> (rank, naturals, deuces, jokers), jokers first."""
    out = []
    for r, a, w in placed:
        j = min(w, jokers)
        jokers -= j
        out.append((r, a, w - j, j))
        deuces -= w - j
    assert deuces == 0 and jokers == 0
    return out


def _plan_key_if_legal(ctx, state, placements, disc):
    """The class key of a complete plan from ``state``, or None when the plan is illegal.
    Checks the whole plan again from the rules (it is also used on the engine's plans)."""
    pos = ctx.pos
    hand, table, count, _, touched = state
    if pos.asked is False:
        return None                                                       # R42
    if (pos.knob("ask_permission") == "required" and not ctx.took and pos.has_partner
            and pos.asked is not True):
        return None
    if disc is not None and pos.last_red3:
        return None                                                       # R47
    used = Counter()
    if disc is not None:
        used[disc] += 1
    final = {r: list(table[i]) for i, r in enumerate(NATURALS)}
    b3 = 0
    for r, n, d, j in placements:
        if r == "3b":
            if d or j or not ctx.b3 or not 3 <= n <= 4:
                return None                                               # R25, D10
            b3 = n
            used["3b"] += n
            continue
        used[r] += n
        used["2"] += d
        used["JK"] += j
        final[r][0] += n
        final[r][1] += d
        final[r][2] += j
    if any(used[k] != hand[KI[k]] for k in KINDS):
        return None                                                       # R39: whole hand
    canasta = set()
    new_canastas = 0
    for i, r in enumerate(NATURALS):
        n, d, j = final[r]
        if n + d + j == 0:
            continue
        if n + d + j < 3 or not ctx.meld_ok(n, d + j):
            return None                                                   # R18, R19
        if n + d + j >= 7:                                                # R23
            canasta.add((r, "natural" if d + j == 0 else "mixed"))
            if r not in ctx.start:
                new_canastas += 1
    new_canasta = new_canastas > 0
    if len(canasta) < ctx.need:
        return None                                                       # R40
    on_start = touched or any(r in ctx.start and n + d + j for r, n, d, j in placements)
    concealed = (not pos.seat_melded_before                               # R44 (i)
                 and (disc is None or pos.knob("concealed_allows_final_discard"))  # (ii)
                 and not on_start                                         # (iii)
                 and new_canasta                                          # (iv)
                 and (not ctx.took or pos.knob("concealed_allows_pile_take")))
    if ctx.unmelded:
        total = count
        if not ctx.took:                                                  # R28 (R35: take
            total += sum(n * VALUES[r] + 20 * d + 50 * j for r, n, d, j in placements
                         if r != "3b") + b3 * ctx.b3v                     # melds only)
        if total < ctx.minimum and not (
                concealed and pos.knob("concealed_exempt_from_min_count")):
            return None                                                   # R26-R30
    naturals = sum(1 for _, kind in canasta if kind == "natural")
    made = new_canastas if pos.knob("concealed_canasta_bonus") and not ctx.took else 0
    return (disc, naturals, len(canasta) - naturals, concealed, made)      # docs/moves.md


def _viable_meld(ctx, state):
    """Some legal end of the turn is reachable from this meld-phase state."""
    return _can_reach_stop(ctx, state) or bool(_plans(ctx, state))


def _join(ctx, state):
    """The rest of the pile joins the hand (R36; red threes go to the side's area, R14)."""
    h = list(state[0])
    for c, n in ctx.rest.items():
        h[KI[c]] += n
    return (tuple(h),) + state[1:]


def _viable_take(ctx, state):
    """Some legal end is reachable from a take-meld state (pile not yet joined): further take
    melds (R35, 2.11), the pile joining the hand, the meld phase, the end."""
    key = ("take", state)
    if key in ctx.memo:
        return ctx.memo[key]
    if _viable_meld(ctx, _join(ctx, state)):
        result = True
    elif _count_ok(ctx, state):
        # With the count met (or no count), a further take meld is the same as melding the
        # same cards after the pile joined: nothing new is reachable.
        result = False
    else:
        # Only take melds raise the count (R35): try every way to reach it, then the end.
        result = _count_search(ctx, state, 0,
                               lambda s: _viable_meld(ctx, _join(ctx, s)), "joined")
    ctx.memo[key] = result
    return result


def _take_options(ctx, state):
    """("take", k, d, j): every first take meld the rules allow (R31-R35, R37, R18/R19, R32
    freezing) after which a legal end is reachable."""
    pos = ctx.pos
    pile = tokens(pos.pile)
    out = []
    if not pile or pile[-1] not in NATURALS:
        return out                                                        # R31
    top = pile[-1]
    hand, table = state[0], state[1]
    if pos.knob("one_card_pile_restriction") and sum(hand) == 1 and len(pile) == 1:
        return out                                                        # R37
    if ctx.unmelded and pos.knob("unmelded_pile_access") == "forbidden":
        return out                                                        # D7
    freezers = {"2", "JK"}
    if pos.knob("upcard_red3_freezes"):
        freezers.add("3r")
    if pos.knob("black_three_freezes"):
        freezers.add("3b")
    frozen = ctx.unmelded or any(c in freezers for c in pile)             # R32
    n0, d0, j0 = table[RI[top]]
    has_meld = n0 + d0 + j0 > 0
    # the rest of the turn is a take turn
    tctx = _Ctx(Position(**{**pos.__dict__, "took": True, "take_top": top, "asked": None}))
    for k in range(hand[KI[top]] + 1):
        for d in range(hand[KI["2"]] + 1):
            for j in range(hand[KI["JK"]] + 1):
                if frozen:
                    if k < 2:
                        continue                                          # R33
                elif not (k >= 2
                          or (pos.knob("unfrozen_take_natural_plus_wild") and k >= 1
                              and d + j >= 1)
                          or (pos.knob("unfrozen_take_by_layoff") and has_meld)):
                    continue                                              # R34
                n, w = n0 + 1 + k, d0 + j0 + d + j
                if n + w < 3 or not ctx.meld_ok(n, w):
                    continue                                              # R18, R19
                h = list(hand)
                h[KI[top]] -= k
                h[KI["2"]] -= d
                h[KI["JK"]] -= j
                t = list(table)
                t[RI[top]] = (n0 + 1 + k, d0 + d, j0 + j)
                count = 0
                if ctx.unmelded:
                    count = (VALUES[top] if pos.knob("top_card_counts_for_minimum") else 0) \
                        + k * VALUES[top] + 20 * d + 50 * j                 # R28, R35
                after = (tuple(h), tuple(t), count, True, top in ctx.start)
                if _viable_take(tctx, after):
                    out.append(("take", k, d, j))
    return out


# docs/moves.md lists further take melds "while an unmelded side is short of its minimum (they
# are the only way to reach it)".  Read literally (False) that includes a side that can no
# longer reach it and can only go out concealed (R30), where a take meld is the same as melding
# the same cards after the pile joined.  True: list them only while the minimum can still be
# reached by take melds.  (A spec question for the lead; the literal reading is the default.)
TAKE_MELDS_ONLY_WHILE_REACHABLE = False


def _take_steps_listed(ctx, state):
    """docs/moves.md "Take melds": further take melds are listed while an unmelded side is
    short of its minimum, or when concealed_canasta_bonus is not 0."""
    if ctx.pos.knob("concealed_canasta_bonus") != 0:
        return True
    if not (ctx.unmelded and state[2] < ctx.minimum):
        return False
    if TAKE_MELDS_ONLY_WHILE_REACHABLE:
        return _count_search(ctx, state, 0, lambda s: True, "any")
    return True


def legal_options(pos: Position, decision: str) -> set:
    """The options the engine must offer at ``decision`` in ``pos`` (docs/moves.md), as a set
    of canonical tuples; going-out plans as ("out", discard, placements), one legal plan per
    class (compare classes with :func:`plan_class` / :func:`option_classes`)."""
    if decision not in DECISIONS:
        raise ValueError(decision)
    ctx = _Ctx(pos)
    state = _state_of(pos, ctx)
    out = set()
    if decision == "answer":
        return {("yes",), ("no",)}                                       # R42
    if decision == "draw":
        if pos.stock > 0:
            out.add(("draw",))                                           # R12
        takes = _take_options(ctx, state)
        out.update(takes)
        if pos.stock == 0:
            forced = pos.knob("empty_stock_forced_take") and ("take", 0, 0, 0) in takes
            if not forced:
                out.add(("decline",))                                    # R49
        return out
    if decision == "discard":
        if sum(state[0]) >= 2 and not pos.last_red3:                    # R16, R17, R47
            out.update(("discard", k) for k in KINDS if state[0][KI[k]])
        return out
    if decision == "ask":
        if (pos.has_partner and pos.knob("ask_permission") != "never" and not pos.took
                and pos.asked is None and not state[3]):
            yes = Position(**{**pos.__dict__, "asked": True})
            ctx2 = _Ctx(yes)
            if _plans(ctx2, _state_of(yes, ctx2)):                       # 2.11: can go out
                out.update({("ask",), ("no_ask",)})
        return out
    if decision == "take_plan":
        if _viable_meld(ctx, _join(ctx, state)):
            out.add(("stop",))
        if _take_steps_listed(ctx, state):
            for opt, (r, n, d, j) in _steps(ctx, state):
                if _viable_take(ctx, _place(ctx, state, r, n, d, j, counts=True)):
                    out.add(opt)
        return out
    # meld phase
    if pos.last_red3 and not pos.knob("last_card_red3_may_meld"):
        return out                                                       # R47
    for opt, (r, n, d, j) in _steps(ctx, state):
        after = _place(ctx, state, r, n, d, j, counts=not pos.took)
        if sum(after[0]) >= 1 and _viable_meld(ctx, after):
            out.add(opt)
    for disc, placements, _ in _plans(ctx, state):
        out.add(("out", disc, placements))
    if _stop_legal(ctx, state):
        out.add(("stop",))
    return out


def plan_class(pos: Position, placements, discard):
    """The class key (discard, natural canastas, mixed canastas, concealed, source B's
    concealed canastas made this turn) of a going-out plan from ``pos`` (docs/moves.md: the
    items its score and result row depend on), or None if the plan is not legal by the
    rules."""
    ctx = _Ctx(pos)
    state = _state_of(pos, ctx)
    if pos.last_red3 and not pos.knob("last_card_red3_may_meld"):
        return None
    placements = tuple(tuple(p) for p in placements)
    return _plan_key_if_legal(ctx, state, placements, discard)


def option_classes(pos: Position, options) -> set:
    """Options with every ("out", discard, placements) replaced by ("out", class key);
    an illegal plan becomes ("out", "ILLEGAL", discard, placements)."""
    out = set()
    for opt in options:
        if opt[0] == "out":
            key = plan_class(pos, opt[2], opt[1])
            out.add(("out", key) if key is not None else ("out", "ILLEGAL", opt[1], opt[2]))
        else:
            out.add(tuple(opt))
    return out


def raw_plan_classes(pos: Position) -> set:
    """The class keys of every raw plan of a meld decision (slow; checks :func:`_plans`)."""
    ctx = _Ctx(pos)
    if pos.last_red3 and not pos.knob("last_card_red3_may_meld"):
        return set()
    return {k for _, _, k in raw_plans(ctx, _state_of(pos, ctx))}


def take_minimum_reachable(pos: Position) -> bool:
    """At a take_plan decision: can further take melds still bring the count to the minimum
    (R35), whatever happens afterwards?  (Used to describe mismatches.)"""
    ctx = _Ctx(pos)
    state = _state_of(pos, ctx)
    if not ctx.unmelded or state[2] >= ctx.minimum:
        return True
    return _count_search(ctx, state, 0, lambda s: True, "any")
