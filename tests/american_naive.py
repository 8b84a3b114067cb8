"""Slow, plainly written Python versions of Modern American's meld and discard rules, written
from the rules text (docs/american.md, A19-A23, A25c, A35-A39) without the kernels' code, so
that tests/test_american_naive.py can compare the two on every small position.

A meld is a dict ``{"nat": n, "deuce": d, "joker": j}``; ranks are the tokens "4".."A" and
"wild" for the wild meld."""

NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def size(meld):
    """Cards on a meld."""
    return meld["nat"] + meld["deuce"] + meld["joker"]


def wilds(meld):
    """Wild cards on a meld."""
    return meld["deuce"] + meld["joker"]


def dead(tables, side, rank, scope="both"):
    """A22: a canasta (7+ cards) of the rank on either side (``own``: on the side's own)."""
    sides = [side] if scope == "own" else list(tables)
    return any(size(tables[s].get(rank, _EMPTY)) >= 7 for s in sides)


_EMPTY = {"nat": 0, "deuce": 0, "joker": 0}


def may_place(tables, side, rank, add, *, laid_this_turn, opening_turn, going_out,
              rule_of_five=True, max_wilds=2, oversize=False, scope="both"):
    """Whether the cards ``add`` (a meld dict) may go onto ``side``'s meld of ``rank``."""
    before = tables[side].get(rank, _EMPTY)
    after = {k: before[k] + add[k] for k in before}
    placed_wild = wilds(add) > 0
    if size(add) == 0:
        return False
    if dead(tables, side, rank, scope):                     # nothing goes onto a dead rank
        return False
    if size(after) < 3:                                     # a meld has three cards at least
        return False
    if size(after) > 7 and not (going_out and oversize):   # never more than seven
        return False
    if rank == "wild":                                      # wild cards only, in any mix
        return add["nat"] == 0
    if after["nat"] < 2 or wilds(after) > max_wilds:        # two naturals, at most two wilds
        return False
    if opening_turn and size(after) >= 7 and wilds(after) > 0:
        return False                                        # no dirty canasta when opening
    if not placed_wild:
        return True
    if rank == "7":                                         # sevens stay clean
        return False
    wild_meld = tables[side].get("wild", _EMPTY)
    if 0 < size(wild_meld) < 7:                             # the wild meld comes first
        return False
    new_opening_meld = opening_turn and laid_this_turn
    if rank == "A" and wilds(before) == 0 and not new_opening_meld:
        return False                                        # a clean ace meld stays clean
    if rule_of_five and not new_opening_meld and after["nat"] < 5:
        return False
    return True


def swad(tables, side, card, scope="both"):
    """A36: seven, wild, ace or a dead rank."""
    return card in ("7", "2", "JK", "A") or (card in NATURAL_RANKS and
                                             dead(tables, side, card, scope))


def may_discard(tables, side, hand, card, *, pile_empty, going_out):
    """A35-A39: may a card of ``card`` be discarded from ``hand`` (a list of tokens)?"""
    if card not in hand or card in ("3r", "3b"):
        return False
    if going_out:
        return True
    if card in ("2", "JK"):
        return all(c in ("2", "JK") for c in hand)
    if not pile_empty or not swad(tables, side, card):
        return True
    return not any(c in NATURAL_RANKS and not swad(tables, side, c) for c in hand)


# ---- a whole turn: legal steps, discards, the take, the opening, special hands, talons --------
# (tests/test_american_moves_complete.py).  ``rules`` is a canasta_sim RuleSet: only its knob
# values are read.  Hands are collections.Counter of tokens; tables {side: {rank: meld}}.

WILD_TOKENS = ("2", "JK")
THREE_TOKENS = ("3r", "3b")
CANASTA = 7
VALUES = {"JK": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5}


def card_value(rules, card):
    """A3: a card's value; a three left in a hand counts ``black3_card_value``."""
    return rules.black3_card_value if card in THREE_TOKENS else VALUES[card]


def place(rules, tables, side, rank, add, *, laid_this_turn, opening_turn, going_out):
    """``may_place`` with the rule set's knobs."""
    return may_place(tables, side, rank, add, laid_this_turn=laid_this_turn,
                     opening_turn=opening_turn, going_out=going_out,
                     rule_of_five=rules.mac_rule_of_five,
                     max_wilds=rules.mac_max_wilds_per_meld,
                     oversize=rules.mac_allow_oversize_when_going_out,
                     scope=rules.mac_dead_rank_scope)


def with_step(tables, side, rank, add):
    """The tables after ``add`` goes onto ``side``'s meld of ``rank`` (a copy)."""
    out = {s: {r: dict(m) for r, m in t.items()} for s, t in tables.items()}
    meld = out[side].setdefault(rank, dict(_EMPTY))
    for k in add:
        meld[k] += add[k]
    return out


def cards_of(rank, add):
    """The tokens of a step: its natural cards, then its 2s and jokers."""
    return ([rank] * add["nat"] if rank != "wild" else []) + ["2"] * add["deuce"] + \
        ["JK"] * add["joker"]


def discards(rules, tables, side, hand, pile_empty):
    """A35-A38: the kinds the player may discard to end his turn (not going out)."""
    held = list(hand.elements())
    return {c for c in hand if hand[c] > 0 and
            may_discard_scoped(rules, tables, side, held, c, pile_empty=pile_empty,
                               going_out=False)}


def may_discard_scoped(rules, tables, side, hand, card, *, pile_empty, going_out):
    """``may_discard`` with the rule set's dead-rank scope (A22, A36)."""
    scope = rules.mac_dead_rank_scope
    if card not in hand or card in THREE_TOKENS:
        return False
    if going_out:
        return True
    if card in WILD_TOKENS:
        return all(c in WILD_TOKENS for c in hand)
    if not pile_empty or not swad(tables, side, card, scope):
        return True
    return not any(c in NATURAL_RANKS and not swad(tables, side, c, scope) for c in hand)


def holds_non_swad(rules, tables, side, hand):
    """A16: a natural card that is no SWAD card."""
    return any(n > 0 and c in NATURAL_RANKS and not swad(tables, side, c,
                                                         rules.mac_dead_rank_scope)
               for c, n in hand.items())


def canastas(tables, side):
    """A40, A49: the side's melds of seven cards or more."""
    return sum(1 for m in tables[side].values() if size(m) >= CANASTA)


def may_go_out(rules, tables, side):
    """A40: enough canastas, no incomplete clean ace meld, sevens meld or wild meld."""
    if canastas(tables, side) < rules.canastas_to_go_out:
        return False
    for rank, meld in tables[side].items():
        if not 0 < size(meld) < CANASTA:
            continue
        if rank in ("7", "wild") or (rank == "A" and wilds(meld) == 0):
            return False
    return True


class Turn:
    """A player's meld phase as the rules see it.

    ``opening_turn``: his side has not melded and he makes its initial meld this turn (or
    made it by this turn's take); ``fresh``: ranks whose meld was started this turn;
    ``pile_empty``: this turn's discard goes onto an empty pile (A31, A36); ``talon``: the
    turn earns a talon (A32: an opening without a take, 9+ stock cards after the draw, the
    side has had none, the talon has cards); ``pre``: after a take by a side that had not
    melded, the cards held before the take that the opening may still use (A26), else None."""

    def __init__(self, rules, side, hand, tables, *, pile_empty, opening_turn=False,
                 fresh=(), talon=False, pre=None):
        self.rules, self.side, self.hand, self.tables = rules, side, hand, tables
        self.pile_empty, self.opening_turn = pile_empty, opening_turn
        self.fresh, self.talon, self.pre = set(fresh), talon, pre


def end_after(turn, rank, add):
    """How a step leaves the turn (:func:`end_kind` of the hand and melds after it)."""
    tables = with_step(turn.tables, turn.side, rank, add)
    hand = turn.hand.copy()
    hand.subtract(cards_of(rank, add))
    return end_kind(turn, tables, +hand, size(tables[turn.side][rank]) > CANASTA)


def end_kind(turn, tables, hand, oversize=False):
    """How the turn may end with ``hand`` and ``tables`` after the player's melds: "on" (A16:
    two cards or more, one a legal discard, and on an empty pile a non-SWAD card kept if
    ``turn.hand``, before the melds, held one), "out" (A39, A40: one card, not a three, and the side
    may go out; not before the opening of a take stands), "talon" (A17: one card, a legal
    discard, in an opening turn that earns a talon), or None.  ``oversize``: a meld passed
    seven cards (only going out, reading 3)."""
    r, side = turn.rules, turn.side
    left = sum(hand.values())
    had = turn.pile_empty and holds_non_swad(r, turn.tables, side, turn.hand)
    keeps = not had or holds_non_swad(r, tables, side, hand)
    legal = discards(r, tables, side, hand, turn.pile_empty)
    if left >= 2:
        return "on" if legal and keeps and not oversize else None
    if left != 1 or any(c in THREE_TOKENS for c in hand):
        return None
    if turn.pre is None and may_go_out(r, tables, side):
        return "out"
    if turn.talon and legal and keeps and not oversize:
        return "talon"
    return None


def legal_steps(turn):
    """Every step (rank, naturals, 2s, jokers) that A19-A23 and A25c allow from the hand (from
    ``pre`` after a take of an unmelded side) and that leaves a legal end of turn."""
    source = turn.pre if turn.pre is not None else turn.hand
    out = set()
    for rank in NATURAL_RANKS + ("wild",):
        laid = rank in turn.fresh or size(turn.tables[turn.side].get(rank, _EMPTY)) == 0
        most = 0 if rank == "wild" else source[rank]
        for nat in range(most + 1):
            for deuce in range(source["2"] + 1):
                for joker in range(source["JK"] + 1):
                    add = {"nat": nat, "deuce": deuce, "joker": joker}
                    going_out = turn.rules.mac_allow_oversize_when_going_out
                    if place(turn.rules, turn.tables, turn.side, rank, add,
                             laid_this_turn=laid, opening_turn=turn.opening_turn,
                             going_out=going_out) and end_after(turn, rank, add):
                        out.add((rank, nat, deuce, joker))
    return out


def can_take(rules, tables, side, hand, pile, melded):
    """A29-A31 and A16: the pile is not empty, its top is a natural card of a live rank, the
    hand holds a natural pair of it, the side's meld of it has room for three more cards; and
    after the take meld the player holds two cards with a legal discard onto the now empty
    pile, or (his side having melded) one card, not a three, with which he goes out."""
    if not pile:
        return False
    top = pile[-1]
    if top not in NATURAL_RANKS or dead(tables, side, top, rules.mac_dead_rank_scope):
        return False
    if hand[top] < 2 or size(tables[side].get(top, _EMPTY)) + 3 > CANASTA:
        return False
    after = hand.copy()
    after[top] -= 2
    after.update(pile[:-1])
    after = +after
    t = with_step(tables, side, top, {"nat": 3, "deuce": 0, "joker": 0})
    left = sum(after.values())
    if left >= 2:
        return bool(discards(rules, t, side, after, True))
    return left == 1 and melded and not any(c in THREE_TOKENS for c in after) and \
        may_go_out(rules, t, side)


def opening_ok(rules, tables, side, laid, take_rank, minimum):
    """A24-A28: the side's melds after its opening turn (``tables``), ``laid`` the hand cards
    it put on new melds that turn ({rank: meld}, the take pair included, the top card not),
    ``take_rank`` the rank of a take (None), make a legal initial meld."""
    own = tables[side]
    for rank in NATURAL_RANKS:                               # A25c: no dirty canasta
        if size(own.get(rank, _EMPTY)) >= CANASTA and wilds(own[rank]) > 0:
            return False
    whole = {r: m for r, m in laid.items() if r != take_rank and size(m) == size(own[r])}
    if rules.mac_splash and any(size(m) >= CANASTA and (r == "wild" or wilds(m) == 0)
                                for r, m in whole.items()):
        return True                                          # A28: the Splash
    triple = any(r != "wild" and m["nat"] >= 3 and wilds(m) == 0 and
                 not _dead_elsewhere(rules, tables, side, r) for r, m in whole.items())
    if rules.mac_initial_meld_needs == "clean_or_wild" and size(laid.get("wild", _EMPTY)) >= 3:
        triple = True                                        # A25a (PAG)
    if not triple:
        return False
    count = 0
    for rank, meld in laid.items():                          # A25b
        if rank != "wild":
            count += meld["nat"] * card_value(rules, rank)
        count += meld["deuce"] * VALUES["2"] + meld["joker"] * VALUES["JK"]
    if take_rank is not None:
        if not rules.mac_take_pair_counts:
            count -= 2 * card_value(rules, take_rank)
        if rules.top_card_counts_for_minimum:
            count += card_value(rules, take_rank)
    return count >= minimum


def _dead_elsewhere(rules, tables, side, rank):
    """A22 for the clean triple: a canasta of ``rank`` other than the side's own meld of it."""
    sides = [side] if rules.mac_dead_rank_scope == "own" else list(tables)
    return any(size(tables[s].get(rank, _EMPTY)) >= CANASTA for s in sides if s != side)


def talon_earned(stock_after_draw, took, other_melded, side_had_talon):
    """A7, A32: "first" (4 cards), "second" (3) or None."""
    if took or side_had_talon or stock_after_draw <= 8:
        return None
    return "second" if other_melded else "first"


# ---- special hands (A51, reading 10) ----------------------------------------------------------

CLA_VALUES = {"pairs": 2500, "wild_pairs": 2000, "miami_pairs": 2500, "zip_code": 2500,
              "straight": 3000, "garbage": 3000, "blast_off": 3000, "triples": 3500,
              "quads": 3500, "dream_plus_4": 8500, "dream_plus_5": 8500}
PAGAT_VALUES = {"straight": 3000, "pairs": 2500, "wild_pairs": 2000, "garbage": 2000}


def special_hands(hand, which):
    """A51: the names of every special hand of the set ``which`` (cla, pagat, none) that the
    14 cards of ``hand`` (a Counter) make.  Groups are of different ranks: every natural card
    of a rank is in one group; the wild cards form at most one group, of any mix, except that
    a group of two wild cards is 2-2 or joker-joker (reading 10); a three only in the
    Straight."""
    if which == "none" or sum(hand.values()) != 14:
        return set()
    names = set()
    if all(hand[r] == 1 for r in NATURAL_RANKS + ("2", "JK")) and \
            hand["3r"] + hand["3b"] == 1:
        names.add("straight")
    if hand["3r"] + hand["3b"]:
        return names
    groups = sorted(n for r, n in hand.items() if r in NATURAL_RANKS and n > 0)
    n_wild = hand["2"] + hand["JK"]
    pure_pair = (hand["2"], hand["JK"]) in ((2, 0), (0, 2))
    pairs_with = hand["A"] == 2 and hand["7"] == 2

    def shape(sizes, wild_may_be_one):
        """The natural groups are ``sizes`` exactly, or (wild groups allowed) all but one of
        them, the wild cards making the other."""
        if n_wild == 0:
            return groups == sorted(sizes)
        if not wild_may_be_one or n_wild not in sizes or (n_wild == 2 and not pure_pair):
            return False
        rest = list(sizes)
        rest.remove(n_wild)
        return groups == sorted(rest)

    if n_wild == 0 and groups == [2] * 7:
        names.add("pairs")
    wild_pair = hand["2"] == 2 and hand["JK"] == 0 if which == "pagat" else pure_pair
    if wild_pair and pairs_with and groups == [2] * 6:
        names.add("wild_pairs")
    if hand["2"] == 2 and hand["JK"] == 2 and pairs_with and groups == [2] * 5:
        names.add("miami_pairs")
    if shape([2, 2, 3, 3, 4], True):
        names.add("zip_code")
    if n_wild == 0 and groups == [3, 3, 4, 4]:
        names.add("garbage")
    if shape([2, 3, 4, 5], True):
        names.add("blast_off")
    if pure_pair and groups == [3, 3, 3, 3]:
        names.add("triples")
    if pure_pair and groups == [4, 4, 4]:
        names.add("quads")
    if n_wild == 4 and groups == [5, 5]:
        names.add("dream_plus_4")
    if n_wild == 5 and groups == [4, 5]:
        names.add("dream_plus_5")
    values = PAGAT_VALUES if which == "pagat" else CLA_VALUES
    return {n for n in names if n in values}


def special_value(hand, which):
    """A51: the value of the best special hand ``hand`` makes (0 if none)."""
    values = PAGAT_VALUES if which == "pagat" else CLA_VALUES
    return max((values[n] for n in special_hands(hand, which)), default=0)


def opening_sets(rules, turn, take_rank=None):
    """A15, A19-A23: every set of melds a side that has not melded could lay in its opening
    turn from ``turn.pre`` (after a take) or ``turn.hand``: for each rank at most one meld
    (with a take, cards added to the take meld), each legal as laid in that turn.  The
    melds are laid natural ranks first, then the wild meld (A23: a wild meld does not take
    back the wild cards of a meld laid before it).  Yields {rank: cards from the hand}."""
    source = turn.pre if turn.pre is not None else turn.hand
    ranks = [r for r in NATURAL_RANKS if source[r] >= 2 or r == take_rank]
    ranks.append("wild")
    chosen = {}

    def rec(i, deuces, jokers):
        if i == len(ranks):
            yield dict(chosen)
            return
        yield from rec(i + 1, deuces, jokers)
        rank = ranks[i]
        for nat in range((0 if rank == "wild" else source[rank]) + 1):
            for d in range(deuces + 1):
                for j in range(jokers + 1):
                    add = {"nat": nat, "deuce": d, "joker": j}
                    if size(add) and place(rules, turn.tables, turn.side, rank, add,
                                           laid_this_turn=True, opening_turn=True,
                                           going_out=False):
                        chosen[rank] = add
                        yield from rec(i + 1, deuces - d, jokers - j)
                        del chosen[rank]

    yield from rec(0, source["2"], source["JK"])


def after_set(turn, melds):
    """The tables and the hand after the set of melds ``melds`` ({rank: cards added})."""
    tables = turn.tables
    hand = turn.hand.copy()
    for rank, add in melds.items():
        tables = with_step(tables, turn.side, rank, add)
        hand.subtract(cards_of(rank, add))
    return tables, +hand


def turn_ends(turn):
    """Every end of the meld phase the rules allow from ``turn``: the side's melds after any
    sequence of placements A19-A23 allow (each judged when it is made, on the melds of that
    moment), kept when the hand and melds they leave are a legal end (:func:`end_kind`).
    Returns {side's melds as sorted tuples: end kind}."""
    side = turn.side
    out = {}
    seen = set()
    stack = [(turn.tables, turn.hand, frozenset(turn.fresh))]
    while stack:
        tables, hand, fresh = stack.pop()
        for rank in NATURAL_RANKS + ("wild",):
            laid = rank in fresh or size(tables[side].get(rank, _EMPTY)) == 0
            for nat in range((0 if rank == "wild" else hand[rank]) + 1):
                for deuce in range(hand["2"] + 1):
                    for joker in range(hand["JK"] + 1):
                        add = {"nat": nat, "deuce": deuce, "joker": joker}
                        if not place(turn.rules, tables, side, rank, add, laid_this_turn=laid,
                                     opening_turn=turn.opening_turn, going_out=False):
                            continue
                        after = with_step(tables, side, rank, add)
                        left = hand.copy()
                        left.subtract(cards_of(rank, add))
                        key = tuple(sorted((r, m["nat"], m["deuce"], m["joker"])
                                           for r, m in after[side].items() if size(m)))
                        if key in seen:
                            continue
                        seen.add(key)
                        kind = end_kind(turn, after, +left)
                        if kind:
                            out[key] = kind
                        stack.append((after, +left, fresh | {rank}))
    return out
