"""Slow, obviously-correct reference versions of the rules the kernels implement.

Nothing here imports the engine.  Cards are RULES.md/TRACE.md tokens ("JK", "2", "3r",
"3b", "4" .. "A"); a meld is a list of tokens; a hand is a list of tokens.  The functions
follow the wording of RULES.md line by line so that a reader can check them against the
spec without knowing how the kernels pack their state (STYLE.md: tests/naive.py).
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
    """One side's deal score, item by item, as RULES.md 2.8 reads.

    ``melds``: {rank token: list of cards} (rank "3b" for the R25 meld);
    ``hands``: the partners' hands (lists of tokens); ``went_out``: this side went out.
    Returns the TRACE.md score fields: melds, natural, mixed, canastas, red3, out, hand, total.
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
