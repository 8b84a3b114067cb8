"""The audit's rule checks (canasta_sim/audit_american, plain Python from the rules) against
the engine's rule pieces (kernels/game/american) on random positions: meld steps (A19-A23,
A25c), openings (A24-A28) and special hands (A51).  The audit never calls the kernels; this
test only says that the two, written apart, read the rules alike, so that a trace the
engine plays and the audit refuses points at the turn loop rather than at a rule piece."""
import random
from collections import Counter

import numpy as np
import pytest
from canasta_sim.kernels.game.american import initial as I
from canasta_sim.kernels.game.american import melds as M
from canasta_sim.kernels.game.american import special as SP
from canasta_sim.kernels.game.cards import MELD_KINDS, NKINDS, TOKEN_TO_KIND
from canasta_sim.kernels.game.slots import M_COLS, M_DEUCE, M_JOKER, M_NAT, M_SIZE

from canasta_sim.audit_american.cards import NATURALS, best_special, deck
from canasta_sim.audit_american.replay import Replay, Turn
from canasta_sim.rules import parse_rules

RANKS = NATURALS + ("JK",)
START = {"hands": [[]] * 4, "stock": [], "seats": 4, "sides": [[0, 2], [1, 3]], "dealer": 3}


def random_meld(rng, rank, sizes=(3, 4, 5, 6, 7), wilds=(0, 0, 0, 1, 2)):
    """A meld of ``rank``: wild cards only for the wild meld, else at least 2 naturals."""
    size = rng.choice(sizes)
    if rank == "JK":
        return [rng.choice(["2", "JK"]) for _ in range(size)]
    w = min(rng.choice(wilds), size - 2)
    return [rank] * (size - w) + [rng.choice(["2", "JK"]) for _ in range(w)]


def put(table, side, rank, cards):
    """Count ``cards`` into the kernel's meld table."""
    row = TOKEN_TO_KIND[rank]
    for c in cards:
        table[side, M_DEUCE if c == "2" else M_JOKER if c == "JK" else M_NAT, row] += 1
        table[side, M_SIZE, row] += 1


@pytest.mark.parametrize("name", ["modern-american", "modern-american(mac_rule_of_five=false)",
                                  "modern-american(mac_dead_rank_scope=own,"
                                  "mac_max_wilds_per_meld=3)"])
def test_meld_steps_agree_with_the_engines_pieces(name):
    rng, rules = random.Random(2), parse_rules(name)
    mac = rules.to_american_kernel()
    for _ in range(3000):
        replay, table = Replay(START, rules), np.zeros((2, M_COLS, MELD_KINDS), np.int64)
        replay.problems = []
        for side in (0, 1):
            for rank in rng.sample(RANKS, rng.randrange(0, 5)):
                replay.melds[side][rank] = random_meld(rng, rank)
                put(table, side, rank, replay.melds[side][rank])
        side, rank, opening = rng.randrange(2), rng.choice(RANKS), rng.random() < 0.3
        fresh = rank not in replay.melds[side] or rng.random() < 0.3
        replay.turn = Turn(0, opening)
        if fresh:
            replay.turn.fresh.add(rank)
        naturals, deuces, jokers = (0 if rank == "JK" else rng.randrange(4), rng.randrange(3),
                                    rng.randrange(2))
        if naturals + deuces + jokers == 0:
            continue
        replay.check_meld(side, rank, [rank] * naturals + ["2"] * deuces + ["JK"] * jokers)
        engine = M.can_place_nb(mac, table, side, TOKEN_TO_KIND[rank], naturals, deuces,
                                jokers, fresh, opening, False)
        assert (not replay.problems) == bool(engine), (replay.melds, side, rank, naturals,
                                                       deuces, jokers, opening, fresh)


@pytest.mark.parametrize("name", ["modern-american", "modern-american-pagat",
                                  "modern-american(mac_take_pair_counts=false,"
                                  "top_card_counts_for_minimum=true)"])
def test_openings_agree_with_the_engines_pieces(name):
    rng, rules = random.Random(3), parse_rules(name)
    mac = rules.to_american_kernel()
    for _ in range(3000):
        score = rng.choice([-500, 0, 2990, 3000, 5000])
        replay = Replay({**START, "scores_before": [score, score]}, rules)
        table = np.zeros((2, M_COLS, MELD_KINDS), np.int64)
        laid = np.zeros((1, M_COLS, MELD_KINDS), np.int64)
        side = rng.randrange(2)
        for rank in rng.sample(RANKS, rng.randrange(0, 3)):          # dead ranks, maybe
            replay.melds[1 - side][rank] = random_meld(rng, rank, (3, 7), (0,))
            put(table, 1 - side, rank, replay.melds[1 - side][rank])
        replay.turn = turn = Turn(0, True)
        ranks = rng.sample(RANKS, rng.randrange(1, 5))
        if rng.random() < 0.3 and ranks[0] != "JK":
            turn.take_rank = ranks[0]
        for rank in ranks:
            cards = [rank] * 3 if rank == turn.take_rank else \
                random_meld(rng, rank, (3, 3, 4, 5, 6, 7), (0, 0, 1, 2))
            replay.melds[side][rank] = cards
            put(table, side, rank, cards)
            turn.laid[rank] = cards[1:] if rank == turn.take_rank else cards
            put(laid, 0, rank, turn.laid[rank])
        row = TOKEN_TO_KIND[turn.take_rank] if turn.take_rank else -1
        engine = I.opening_ok_nb(mac, table, side, laid[0], row, replay.minimum(side))
        assert replay.opening_ok(side)[0] == bool(engine), (replay.melds, turn.take_rank, score)


@pytest.mark.parametrize("name", ["modern-american", "modern-american-pagat"])
def test_special_hands_agree_with_the_engines_pieces(name):
    rng, rules = random.Random(1), parse_rules(name)
    mac = rules.to_american_kernel()
    shapes = [[2] * 7, [2] * 6, [2] * 5, [2, 2, 3, 3, 4], [3, 3, 4, 4], [2, 3, 4, 5],
              [3, 3, 3, 3], [4, 4, 4], [5, 5], [4, 5], [2, 2, 2, 4, 4]]
    for _ in range(4000):
        hand, shape = Counter(), rng.choice(shapes)
        for rank, n in zip(rng.sample(NATURALS + ("W",), len(shape)), shape):
            for _ in range(n):
                hand[rng.choice(["2", "JK"]) if rank == "W" else rank] += 1
        pool = list((deck(rules) - hand).elements())
        hand.update(rng.sample(pool, 14 - sum(hand.values())))
        if rng.random() < 0.2:
            hand = Counter(NATURALS + ("2", "JK", rng.choice(["3r", "3b", "4", "2"])))
        if hand["JK"] > 4:
            continue
        vec = np.zeros(NKINDS, np.int64)
        for token, n in hand.items():
            vec[TOKEN_TO_KIND[token]] += n
        code, points = SP.special_hand_nb(mac, vec, np.zeros(9, np.int64))
        assert best_special(hand, rules) == (SP.NAMES[code] if code else None, points), hand
