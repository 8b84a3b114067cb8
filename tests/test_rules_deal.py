"""Equipment, seating and the deal: RULES.md R1-R13, checked on real deals.

300 ``random`` and 300 ``greedy`` deals are traced (TRACE.md) and replayed by
``tests/rules_replay.py``; each test asserts the structural facts of its rule on every deal.
The dealing order itself (R6, R9) is checked against the shuffled deck of ``deal_nb``.
"""
from collections import Counter

import naive
import pytest
from canasta_sim.kernels.game import slots
from canasta_sim.kernels.game.cards import TOKENS
from canasta_sim.kernels.game.deal import deal_nb
from rules_replay import by_rule, replayed, traced
from scenario import Position

from canasta_sim.runner import prepare

POLICIES = ("random", "greedy")


def all_deals():
    for policies in POLICIES:
        yield from traced("classic", policies)


def turns(events):
    """(seat, first event, events) of every turn."""
    out = []
    for i, e in enumerate(events):
        if e["ev"] in ("draw", "take"):
            out.append([e["seat"], e, []])
        elif out and e["ev"] not in ("end", "score"):
            out[-1][2].append(e)
    return out


def test_R1_sides_are_opposite_seats():
    for events in all_deals():
        start = events[0]
        assert start["seats"] == 4 and start["sides"] == [[0, 2], [1, 3]]   # R1
    # a red three laid by seat 2 counts for side 0, seat 3 for side 1
    p = Position().hand(2, "3h K").hand(3, "3d 3h Q").stock("9 9 9 9")
    from canasta_sim.kernels.game.deal import place_red3s_nb
    for seat in (2, 3):
        place_red3s_nb(p.S, p.buf, seat, 0)
    assert p.S.sidev[0, slots.SIDE_RED3] == 1 and p.S.sidev[1, slots.SIDE_RED3] == 2   # R1


def test_R2_R3_the_deck():
    for events in all_deals():
        start = events[0]
        cards = Counter(start["stock"])
        for hand in start["hands"]:
            cards.update(hand)
        assert cards == naive.full_deck()                                # R2: 108 cards
        assert sum(cards[c] for c in naive.NATURALS) == 88               # R3
        assert cards["2"] + cards["JK"] == 12 and cards["3r"] == cards["3b"] == 4


def test_R2_cards_are_conserved_in_real_deals():
    for policies in POLICIES:
        assert by_rule(replayed("classic", policies)[0], "R2") == []     # R2 at the end


def test_R5_dealer_is_random():
    dealers = Counter(events[0]["dealer"] for events in traced("classic", "greedy"))
    assert set(dealers) == {0, 1, 2, 3}                                  # R5
    assert min(dealers.values()) > 300 / 4 * 0.6                         # roughly uniform
    # R5's rotation from deal to deal: test_rules_game.test_R5_R58_R59_whole_games_row_by_row


def test_R6_eleven_cards_each_and_64_in_the_stock():
    for events in all_deals():
        start = events[0]
        assert [len(h) for h in start["hands"]] == [11] * 4              # R6
        assert len(start["stock"]) == 64                                 # R6


@pytest.mark.parametrize("deal", range(40))
def test_R6_R7_R9_dealing_order_from_the_shuffled_deck(deal):
    """Cards go one at a time clockwise from the dealer's left (R6); dealt red threes are
    replaced in seat order from the dealer's left, repeatedly (R9); then the upcard is
    turned, covering the cover set (R7)."""
    plan = prepare(1, 21, "classic", "greedy")
    p = Position()
    deal_nb(plan.rules_nb, p.S, p.buf, 21, deal, -1, plan.scores_before)
    deck = [TOKENS[int(k)] for k in p.S.deck[:108]]
    dealer = int(p.st[slots.ST_DEALER])
    hands = [Counter() for _ in range(4)]
    for j in range(44):
        hands[(dealer + 1 + j) % 4][deck[j]] += 1                        # R6
    pos = 44
    red3 = [0, 0]
    for i in range(4):                                                   # R9
        seat = (dealer + 1 + i) % 4
        while hands[seat]["3r"]:
            hands[seat]["3r"] -= 1
            red3[seat % 2] += 1
            hands[seat][deck[pos]] += 1
            pos += 1
    pile = [deck[pos]]
    pos += 1
    while pile[-1] in ("JK", "2", "3r", "3b"):                           # R7
        pile.append(deck[pos])
        pos += 1
    for seat in range(4):
        assert p.hand_of(seat) == +hands[seat]
        assert sum(hands[seat].values()) == 11                           # R9: still 11
    assert [int(p.S.sidev[k, slots.SIDE_RED3]) for k in (0, 1)] == red3
    n = int(p.st[slots.ST_PILE_N])
    assert [TOKENS[int(k)] for k in p.S.pile[:n]] == pile                  # R7
    assert int(p.st[slots.ST_STOCK_POS]) == pos


def test_R6_shuffle_is_roughly_uniform():
    """Every kind reaches every seat at about its share of the deck (R6)."""
    per_seat = [Counter() for _ in range(4)]
    n = 0
    for events in all_deals():
        n += 1
        for seat, hand in enumerate(events[0]["hands"]):
            per_seat[seat].update(hand)
    deck = naive.full_deck()
    for seat in range(4):
        for tok in ("JK", "2", "A", "3r"):
            expected = n * 11 * deck[tok] / 108
            assert abs(per_seat[seat][tok] - expected) < 5 * expected ** 0.5 + 5   # R6


def test_R7_upcard_covering_in_real_deals():
    for rules in ("classic", "classic(upcard_cover_set=wild_red3)"):
        cover = {"JK", "2", "3r", "3b"} if rules == "classic" else {"JK", "2", "3r"}
        black3_tops = 0
        for events in traced(rules, "greedy"):
            up = next(e for e in events if e["ev"] == "upcard")["cards"]
            assert all(c in cover for c in up[:-1])                      # R7 covered
            assert up[-1] not in cover                                   # R7 top
            black3_tops += up[-1] == "3b"
        assert (black3_tops > 0) == (rules != "classic")                 # wild_red3 keeps 3b
        assert by_rule(replayed(rules, "greedy")[0], "R7") == []


def test_R8_upcard_freeze_in_real_deals():
    """Replay: the first takes of deals whose upcards include a wild card or a red three
    were made with a natural pair (R8 -> R33); the replay checks this on every take."""
    for policies in POLICIES:
        violations, facts = replayed("classic", policies)
        assert by_rule(violations, "R33", "R34") == []                   # R8
    frozen_starts = 0
    for events in all_deals():
        up = next(e for e in events if e["ev"] == "upcard")["cards"]
        frozen_starts += any(c in ("JK", "2", "3r") for c in up)
    assert frozen_starts > 20


def test_R9_dealt_red_threes_in_seat_order():
    placed = 0
    for events in all_deals():
        start = events[0]
        dealer = start["dealer"]
        i = 1
        order = []
        while events[i]["ev"] != "upcard":
            e = events[i]
            assert e["ev"] == "red3" and e["from"] == "deal"             # R9 before play
            order.append((e["seat"] - dealer - 1) % 4)
            i += 1
        assert order == sorted(order)                                    # R9 dealer's left first
        dealt = sum(h.count("3r") for h in start["hands"])
        replaced_by_red = sum(1 for e in events[1:i] if e["replacement"] == "3r")
        assert len(order) == dealt + replaced_by_red                     # R9 every one, again
        placed += len(order)
    assert placed > 200
    for policies in POLICIES:
        assert by_rule(replayed("classic", policies)[0], "R9") == []     # R9 none kept


def test_R10_first_player_is_left_of_the_dealer_then_clockwise():
    for events in all_deals():
        dealer = events[0]["dealer"]
        seats = [t[0] for t in turns(events)]
        assert seats[0] == (dealer + 1) % 4                              # R10
        assert all(b == (a + 1) % 4 for a, b in zip(seats, seats[1:]))   # R10 clockwise


def test_R11_phases_in_order():
    """Every turn: draw or take, then red threes, asks and melds, then one discard or the
    out event, in that order (R11); every event of a turn is the turn's seat's."""
    phase = {"red3": 0, "ask": 1, "meld": 2, "discard": 3, "out": 4}
    for events in all_deals():
        for seat, first, rest in turns(events):
            ranks = [phase[e["ev"]] for e in rest]
            assert ranks == sorted(ranks)                                # R11
            assert all(e["seat"] == seat for e in rest)
            assert sum(e["ev"] == "discard" for e in rest) <= 1          # R17


def test_R12_draw_one_card_from_the_top():
    for policies in POLICIES:
        assert by_rule(replayed("classic", policies)[0], "R12", "R49") == []   # R12
    for events in all_deals():
        for seat, first, rest in turns(events):
            if first["ev"] == "draw":
                assert len(first["cards"]) == 1                          # R12 draw_count 1


def test_R13_red_three_never_in_hand_at_a_turn_start():
    stock_red3 = 0
    for events in all_deals():
        for seat, first, rest in turns(events):
            if first["ev"] == "draw" and first["cards"] == ["3r"]:
                assert rest[0]["ev"] == "red3" and rest[0]["from"] == "stock"   # R13 at once
                stock_red3 += 1
    assert stock_red3 > 50
    for policies in POLICIES:
        assert by_rule(replayed("classic", policies)[0], "R13") == []    # R13


def test_R9_first_turn_replacement_timing_knob():
    """RULES.md 3.1: with red3_replacement_timing=first_turn a player lays (and replaces) his
    dealt red threes at his first turn, so the information is revealed then, not after the
    deal; no red three is laid before the upcard."""
    deals = traced("classic(red3_replacement_timing=first_turn)", "greedy", 11, 0, 20)
    dealt = 0
    for events in deals:
        i = next(i for i, e in enumerate(events) if e["ev"] == "upcard")
        assert not any(e["ev"] == "red3" for e in events[:i])            # R9 knob
        dealt += sum(h.count("3r") for h in events[0]["hands"])
    assert dealt > 0
