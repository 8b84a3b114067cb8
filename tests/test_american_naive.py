"""Modern American's meld limits and discards (kernels/game/american/) against the slow
reference tests/american_naive.py, written from the rules text: every small position."""
import itertools

import american_naive as N
import numpy as np
from canasta_sim.kernels.game.american import discard as D
from canasta_sim.kernels.game.american import melds as M
from canasta_sim.kernels.game.cards import MELD_KINDS, NKINDS, TOKEN_TO_KIND, TOKENS
from canasta_sim.kernels.game.slots import M_COLS

from canasta_sim.rules import parse_rules

MAC = parse_rules("modern-american").to_american_kernel()
LOOSE = parse_rules("modern-american(mac_rule_of_five=false,mac_allow_oversize_when_going_out="
                    "true,mac_max_wilds_per_meld=3)").to_american_kernel()
RANKS = ("4", "7", "A", "wild")
MELDS = [(n, d, j) for n in range(8) for d in range(3) for j in range(3) if n + d + j <= 7]


def _row(rank):
    return M.WILD_ROW if rank == "wild" else TOKEN_TO_KIND[rank]


def _position(rank, before, wild_meld, dead_other):
    """The kernels' meld table and the reference's dicts for one position of side 0."""
    t = np.zeros((2, M_COLS, MELD_KINDS), np.int64)
    tables = {0: {}, 1: {}}
    if rank != "wild" and wild_meld:
        M.place_nb(t, 0, M.WILD_ROW, 0, wild_meld, 0)
        tables[0]["wild"] = {"nat": 0, "deuce": wild_meld, "joker": 0}
    if dead_other:
        M.place_nb(t, 1, _row(rank), 0 if rank == "wild" else 7, 7 if rank == "wild" else 0, 0)
        tables[1][rank] = {"nat": 0 if rank == "wild" else 7,
                           "deuce": 7 if rank == "wild" else 0, "joker": 0}
    n, d, j = before
    if n + d + j:
        M.place_nb(t, 0, _row(rank), n, d, j)
        tables[0][rank] = {"nat": n, "deuce": d, "joker": j}
    return t, tables


def test_may_place_agrees_with_the_reference_everywhere():
    """A19-A23, A25c: every meld of up to 7 cards, every addition of up to 3 naturals and 2
    of each wild, every turn context, with a wild meld or a dead rank about."""
    checked = 0
    for rank, before, wild_meld, dead_other in itertools.product(RANKS, MELDS, (0, 3), (0, 1)):
        if rank == "wild" and before[0]:
            continue
        t, tables = _position(rank, before, wild_meld, dead_other)
        for add in itertools.product(range(4), range(3), range(3)):
            for fresh, opening, out in itertools.product((0, 1), repeat=3):
                for mac, kw in ((MAC, {}), (LOOSE, {"rule_of_five": False, "oversize": True,
                                                    "max_wilds": 3})):
                    want = N.may_place(tables, 0, rank, dict(zip(("nat", "deuce", "joker"),
                                                                 add)),
                                       laid_this_turn=fresh, opening_turn=opening,
                                       going_out=out, **kw)
                    got = M.can_place_nb(mac, t, 0, _row(rank), *add, fresh, opening, out)
                    assert bool(got) == want, (rank, before, wild_meld, dead_other, add,
                                               fresh, opening, out, kw)
                    checked += 1
    assert checked > 100_000


def test_discards_agree_with_the_reference_everywhere():
    """A35-A39: every hand of up to 3 cards from a small set, empty pile or not, going out
    or not, with a dead rank or not."""
    cards = ("JK", "2", "3r", "3b", "4", "7", "9", "A")
    for dead in (False, True):
        t = np.zeros((2, M_COLS, MELD_KINDS), np.int64)
        tables = {0: {}, 1: {}}
        if dead:
            M.place_nb(t, 1, TOKEN_TO_KIND["9"], 7, 0, 0)
            tables[1]["9"] = {"nat": 7, "deuce": 0, "joker": 0}
        for n in range(1, 4):
            for hand in itertools.combinations_with_replacement(cards, n):
                row = np.zeros(NKINDS, np.int64)
                for c in hand:
                    row[TOKEN_TO_KIND[c]] += 1
                for k, empty, out in itertools.product(range(NKINDS), (0, 1), (0, 1)):
                    want = N.may_discard(tables, 0, list(hand), TOKENS[k], pile_empty=empty,
                                         going_out=out)
                    got = D.discard_ok_nb(MAC, t, 0, row, k, empty, out)
                    assert bool(got) == want, (hand, TOKENS[k], empty, out, dead)


def _random_position(rng):
    """A random hand of 6-14 cards and random melds of both sides (kernels and reference)."""
    hand = np.zeros(NKINDS, np.int64)
    for k in rng.choice([0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], rng.integers(6, 15)):
        hand[k] += 1
    t = np.zeros((2, M_COLS, MELD_KINDS), np.int64)
    tables = {0: {}, 1: {}}
    for side in (0, 1):
        for rank in rng.choice(("4", "7", "9", "K", "A", "wild"), rng.integers(0, 4),
                               replace=False):
            n = 0 if rank == "wild" else int(rng.integers(2, 8))
            d = int(rng.integers(3 if rank == "wild" else 0, 4)) if n < 7 else 0
            d = min(d, 7 - n, 2 if rank != "wild" else 7)
            if n + d < 3:
                continue
            M.place_nb(t, side, _row(rank), n, d, 0)
            tables[side][rank] = {"nat": n, "deuce": d, "joker": 0}
    return hand, t, tables


def test_meld_steps_are_every_legal_placement():
    """Move generation: :func:`melds.meld_steps_nb` lists exactly the placements the reference
    allows, by brute force over every count of every rank the hand could place."""
    rng = np.random.default_rng(30)
    out = np.zeros((4096, 4), np.int64)
    seen = 0
    for _ in range(300):
        hand, t, tables = _random_position(rng)
        fresh_rows = int(rng.integers(0, 1 << 15))
        opening, going_out = bool(rng.integers(2)), bool(rng.integers(2))
        n = M.meld_steps_nb(MAC, t, 0, hand, fresh_rows, opening, going_out, out)
        got = {tuple(int(v) for v in out[i]) for i in range(n)}
        want = set()
        for rank in RANKS + ("5", "6", "8", "9", "10", "J", "Q", "K"):
            row = _row(rank)
            exists = size_of(tables, rank) > 0
            fresh = (not exists) or bool((fresh_rows >> row) & 1)
            most = 0 if rank == "wild" else hand[row]
            for add in itertools.product(range(most + 1), range(hand[1] + 1), range(hand[0] + 1)):
                if N.may_place(tables, 0, rank, dict(zip(("nat", "deuce", "joker"), add)),
                               laid_this_turn=fresh, opening_turn=opening, going_out=going_out):
                    want.add((row, *add))
        assert got == want, (hand, tables, fresh_rows, opening, going_out)
        seen += len(want)
    assert seen > 500                   # the positions offer many placements, wild ones too


def size_of(tables, rank):
    """Cards on side 0's meld of ``rank`` in the reference's tables."""
    meld = tables[0].get(rank)
    return 0 if meld is None else N.size(meld)
