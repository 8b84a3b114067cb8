"""Melds and canastas: RULES.md R18-R25, worked examples T01-T14.

Meld legality is asked of ``state.meld_ok_nb`` (the kernels' R18/R19 test) and of the meld
options the engine offers in a real position (``Position.meld_options``), and both are
compared with the slow reference ``naive.meld_ok``.
"""
import functools

import naive
import pytest
from canasta_sim.kernels.game import state
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rules_helpers import apply_step, outcomes, side_melds
from scenario import Position

from canasta_sim.rules import parse_rules

RATIOS = ("none", "le", "lt", "half")


@functools.lru_cache(maxsize=None)
def nb_rules(ratio="none", min_naturals=2, max_wilds=3):
    mw = "none" if max_wilds is None else max_wilds
    return parse_rules(f"classic(wild_ratio_rule={ratio},min_naturals_per_meld={min_naturals},"
                       f"max_wilds_per_meld={mw})").to_kernel()


def kernel_ok(naturals, wilds, ratio="none"):
    return bool(state.meld_ok_nb(nb_rules(ratio), naturals, wilds))


def melded_position(rules="classic", hand="", **melds):
    """Side 0 has melded (a meld of fives unless given), seat 0 holds ``hand``."""
    p = Position(rules)
    if not melds:
        melds = {"5": "5 5 5"}
    for rank, cards in melds.items():
        p.meld(0, rank, cards)
    p.hand(0, hand)
    p.begin(0)
    return p


def reachable_meld(p, seat, rank):
    """Every (naturals, deuces, jokers) the side's meld of ``rank`` can have at a legal end
    of the turn (None: no meld of that rank)."""
    return {dict(melds).get(rank) for _, melds in outcomes(p, seat)}


# ---- T01-T09: meld legality under every D2 reading ----------------------------------------------

# (example, naturals, wilds, legal under none / le / lt / half)
LEGALITY = [
    ("T01", "9 9 9", 3, 0, (True, True, True, True)),
    ("T02", "5 5 2", 2, 1, (True, True, True, True)),
    ("T03", "5 2 2", 1, 2, (False, False, False, False)),
    ("T04", "9 9 9 2 2 Jk", 3, 3, (True, True, False, False)),
    ("T05", "9 9 2 2 2 Jk", 2, 4, (False, False, False, False)),
    ("T06", "9 9 2 2 Jk", 2, 3, (True, False, False, False)),
    ("T07", "9 9 2 2", 2, 2, (True, True, False, False)),
    ("T08", "9 9 9 9 2 2", 4, 2, (True, True, True, True)),
    ("T09", "2 2 Jk", 0, 3, (False, False, False, False)),
]


@pytest.mark.parametrize("ratio", RATIOS)
@pytest.mark.parametrize("example,cards,naturals,wilds,legal", LEGALITY,
                         ids=[x[0] for x in LEGALITY])
def test_T01_to_T09_meld_legality_table(example, cards, naturals, wilds, legal, ratio):
    """R18 and D2: the kernel's meld test and the reference agree with the worked examples."""
    want = legal[RATIOS.index(ratio)]
    assert naive.meld_ok(cards, ratio) is want                          # R18 (reference)
    assert kernel_ok(naturals, wilds, ratio) is want                    # R18


def test_T01_three_naturals_are_offered_as_a_meld():
    p = melded_position(hand="9 9 9 K Q 7")
    assert ("new", "9", "3N") in p.meld_options(0)                     # R18


def test_T02_two_naturals_and_a_deuce_are_offered():
    p = melded_position(hand="6 6 2 K Q 7")
    assert ("new", "6", "2N+2") in p.meld_options(0)                   # R18


def test_T03_one_natural_with_two_wilds_is_never_offered():
    p = melded_position(hand="6 2 2 K Q 7")
    assert all(o[0] != "new" for o in p.meld_options(0))               # R18 min naturals
    assert reachable_meld(p, 0, "6") == {None}


@pytest.mark.parametrize("ratio,legal", [("none", True), ("le", True), ("lt", False),
                                         ("half", False)])
def test_T04_third_wild_on_three_naturals(ratio, legal):
    """[9,9,9,2,2] plus a joker: 3N+3W is legal by default and under le only."""
    p = melded_position(f"classic(wild_ratio_rule={ratio})", hand="Jk K Q 7 6",
                        **{"9": "9 9 9 2 2", "5": "5 5 5"})
    assert (("add", "9", "JK") in p.meld_options(0)) is legal           # R18, D2


@pytest.mark.parametrize("ratio", RATIOS)
def test_T05_fourth_wild_never_offered(ratio):
    p = melded_position(f"classic(wild_ratio_rule={ratio})", hand="Jk 2 K Q 7 6",
                        **{"9": "9 9 2 2 2", "5": "5 5 5"})
    opts = p.meld_options(0)
    assert ("add", "9", "JK") not in opts and ("add", "9", "2") not in opts   # R18 max 3 wilds


@pytest.mark.parametrize("ratio,legal", [("none", True), ("le", False), ("lt", False),
                                         ("half", False)])
def test_T06_two_naturals_three_wilds_separates_the_readings(ratio, legal):
    p = melded_position(f"classic(wild_ratio_rule={ratio})", hand="Jk K Q 7 6",
                        **{"9": "9 9 2 2", "5": "5 5 5"})
    assert (("add", "9", "JK") in p.meld_options(0)) is legal           # R18, D2


@pytest.mark.parametrize("ratio,legal", [("none", True), ("le", True), ("lt", False),
                                         ("half", False)])
def test_T07_two_naturals_two_wilds(ratio, legal):
    """A turn can end with 9-9-2-2 on the table only where 2N+2W is legal."""
    p = melded_position(f"classic(wild_ratio_rule={ratio})", hand="9 9 2 2 K 6 7 8")
    assert ((2, 2, 0) in reachable_meld(p, 0, "9")) is legal            # R18, D2
    assert (2, 1, 0) in reachable_meld(p, 0, "9")                      # 2N+1W legal everywhere


@pytest.mark.parametrize("ratio", RATIOS)
def test_T08_four_naturals_two_wilds_legal_everywhere(ratio):
    p = melded_position(f"classic(wild_ratio_rule={ratio})", hand="2 K Q 7 6",
                        **{"9": "9 9 9 9 2", "5": "5 5 5"})
    assert ("add", "9", "2") in p.meld_options(0)                      # R18


def test_T09_wild_cards_alone_are_never_a_meld():
    p = melded_position(hand="2 2 Jk K Q 7")
    opts = p.meld_options(0)
    assert all(o[0] != "new" for o in opts)                            # R18
    assert ("out", None) not in opts
    assert not naive.meld_ok("2 2 Jk")


# ---- T10: black and red threes ------------------------------------------------------------------

def test_T10_black_threes_meld_only_when_going_out():
    """[3s,3s,3c] only inside a going-out turn; never as a separate meld step."""
    p = melded_position(hand="3s 3s 3c", **{"9": "9 9 9 9 9 9 9"})
    opts = p.meld_options(0)
    assert ("out", None) in opts                                       # R25
    assert all(o[1] != "3b" for o in opts if o[0] in ("new", "add"))   # R25
    assert p.go_out_plan(0) == (None, {"3b": 3})
    # the same three black threes with two kings that cannot be melded: no black-three meld
    p = melded_position(hand="3s 3s 3c K K", **{"9": "9 9 9 9 9 9 9"})
    assert p.go_out_plan(0) is None                                    # R25
    assert all(o[1] != "3b" for o in p.meld_options(0) if o[0] in ("new", "add"))


def test_T10_black_threes_with_a_wild_or_only_two_are_never_a_meld():
    p = melded_position(hand="3s 3c 2", **{"9": "9 9 9 9 9 9 9"})
    assert p.go_out_plan(0) is None                                    # R25 no wilds
    assert ("out", None) not in p.meld_options(0)
    p = melded_position(hand="3s 3c", **{"9": "9 9 9 9 9 9 9"})
    assert p.go_out_plan(0) is None                                    # R41 two black threes
    assert not naive.black_three_meld_ok("3s 3c") and not naive.black_three_meld_ok("3s 3c 2")


def test_T10_black_three_meld_knob_off():
    p = melded_position("classic(black_three_going_out_meld=false)", hand="3s 3s 3c",
                        **{"9": "9 9 9 9 9 9 9"})
    assert p.go_out_plan(0) is None                                    # R25 / D10 knob


def test_R24_red_threes_are_not_melds():
    """A side whose only table cards are red threes has not melded (it needs the minimum)."""
    p = Position().red3(0, 2).hand(0, "8 8 8 K Q 7")
    p.begin(0)
    assert p.meld_options(0) == [("stop",)]                            # R24: 30 < 50
    assert p.set_stock_end().score()[0]["melded"] == 0                  # R24
    assert p.score()[0]["red3_points"] == -200                         # R24 + R57
    assert not naive.meld_ok("3h 3h 3d")


# ---- T11-T14 --------------------------------------------------------------------------------------

def test_T11_cheapest_meld_is_15():
    cheapest = min(naive.cards_value([r] * 3) for r in naive.NATURALS)
    assert cheapest == 15 == naive.cards_value("4 4 4")                # R4, R18
    nb = parse_rules("classic").to_kernel()
    assert state.initial_minimum_nb(nb, -5) == 15                      # R27
    p = Position(scores=(-100, 0)).hand(0, "4 4 4 K Q 7")
    p.begin(0)
    assert ("new", "4", "3N") in p.meld_options(0)                     # 15 >= 15
    p = Position(scores=(0, 0)).hand(0, "4 4 4 K Q 7")
    p.begin(0)
    assert p.meld_options(0) == [("stop",)]                            # 15 < 50


def test_T12_wild_cap_holds_after_a_meld_is_a_canasta():
    p = melded_position(hand="2 Jk Q 9 8 6", **{"Q": "Q Q Q Q Q 2 Jk"})
    opts = p.meld_options(0)
    assert ("add", "Q", "2") in opts and ("add", "Q", "Q") in opts     # R19
    apply_step(p, 0, p.opts[opts.index(("add", "Q", "2"))])
    assert p.meld_of(0, "Q") == (5, 2, 1)                              # 8 cards, 3 wilds
    opts = p.meld_options(0)
    assert ("add", "Q", "JK") not in opts                              # R19: 4 wilds illegal
    assert ("add", "Q", "Q") in opts                                   # a Q is always legal


def test_T13_natural_then_mixed_canasta():
    p = Position().meld(0, "7", "7 7 7 7 7 7 7").set_stock_end()
    s = p.score()[0]
    assert (s["natural"], s["mixed"]) == (1, 0)                        # R23
    assert s["canasta_bonus"] + s["melds"] == 535                      # R51, R54
    p = Position().meld(0, "7", "7 7 7 7 7 7 7 Jk").set_stock_end()
    s = p.score()[0]
    assert (s["natural"], s["mixed"]) == (0, 1)                        # R23
    assert s["canasta_bonus"] + s["melds"] == 385                      # R22: joker counts 50


def test_R23_adding_a_wild_card_makes_a_natural_canasta_mixed():
    p = melded_position(hand="2 K Q 9", **{"Q": "Q Q Q Q Q Q Q"})
    opts = p.meld_options(0)
    assert ("add", "Q", "2") in opts                                   # R19 no maximum size
    apply_step(p, 0, p.opts[opts.index(("add", "Q", "2"))])
    s = p.set_stock_end().score()[0]
    assert (s["natural"], s["mixed"], s["canasta_bonus"]) == (0, 1, 300)   # R23, R51


def test_R19_no_maximum_size():
    p = melded_position(hand="Q Q K 9", **{"Q": "Q Q Q Q Q Q Q Q Q Q 2 2 Jk"})
    opts = p.meld_options(0)
    assert ("add", "Q", "Q") in opts                                   # R19 grows freely
    assert ("add", "Q", "2") not in opts                               # R19 still <= 3 wilds


def test_T14_one_meld_per_rank_per_side():
    p = Position().meld(0, "K", "K K K").meld(1, "5", "5 5 5")
    p.hand(0, "K K K 9 8 6").begin(0)
    opts = p.meld_options(0)
    assert not any(o[0] == "new" and o[1] == "K" for o in opts)        # R21
    assert ("add", "K", "K") in opts                                   # R21 joins the meld
    assert all(dict(m).get("K", (0,))[0] in (3, 4, 5, 6)
               for _, m in outcomes(p, 0))                             # never a second K meld
    # the opponents may have their own meld of kings
    p.hand(1, "K K K 9 8 6").begin(1)
    assert ("new", "K", "3N") in p.meld_options(1)                     # R21 per side


def test_R20_partners_share_melds_opponents_do_not():
    p = Position().meld(0, "K", "K K K").meld(1, "5", "5 5 5")
    p.hand(2, "K 9 8 6").begin(2)
    assert ("add", "K", "K") in p.meld_options(2)                      # R20 partner adds
    p.hand(1, "K 9 8 6").begin(1)
    assert not any(o[1] == "K" for o in p.meld_options(1) if o[0] == "add")   # R20


def test_R22_wild_cards_keep_their_values_in_melds():
    p = Position().meld(0, "5", "5 5 5 2 Jk").set_stock_end()
    assert p.score()[0]["melds"] == 15 + 20 + 50                       # R22, R4


# ---- the kernels against the reference, on many inputs --------------------------------------------

@settings(max_examples=1500, deadline=None)
@given(naturals=st.integers(0, 12), wilds=st.integers(0, 7), ratio=st.sampled_from(RATIOS),
       min_naturals=st.integers(1, 3), max_wilds=st.sampled_from([None, 0, 1, 2, 3, 4]))
def test_R18_meld_ok_matches_reference(naturals, wilds, ratio, min_naturals, max_wilds):
    nb = nb_rules(ratio, min_naturals, max_wilds)
    want = naive.meld_counts_ok(naturals, wilds, ratio, min_naturals, max_wilds)
    assert bool(state.meld_ok_nb(nb, naturals, wilds)) is want         # R18, R19, D2


CARD_POOL = list(naive.NATURALS) * 2 + ["2", "JK"]


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.sampled_from(CARD_POOL), min_size=6, max_size=12),
       table=st.dictionaries(st.sampled_from(naive.NATURALS),
                             st.tuples(st.integers(2, 8), st.integers(0, 3)), max_size=4),
       ratio=st.sampled_from(RATIOS))
def test_R18_to_R21_offered_steps_match_reference(hand, table, ratio):
    """For a side that has melded and a hand of 6+ cards (so R16 never binds after one step),
    the engine offers exactly the meld steps that the reference calls legal."""
    melds = {}
    for rank, (nat, w) in table.items():
        w = min(w, 3)
        if naive.meld_counts_ok(nat, w, ratio):
            melds[rank] = " ".join([rank] * nat + ["2"] * w)
    melds.setdefault("5", "5 5 5")
    p = Position(f"classic(wild_ratio_rule={ratio})")
    for rank, cards in melds.items():
        p.meld(0, rank, cards)
    p.hand(0, " ".join(hand)).begin(0)
    got = {o for o in p.meld_options(0) if o[0] in ("new", "add")}
    want = set()
    for rank in naive.NATURALS:
        h = hand.count(rank)
        if rank in melds:                                               # R21: join the meld
            nat = naive.tokens(melds[rank]).count(rank)
            w = len(naive.tokens(melds[rank])) - nat
            if h:
                want.add(("add", rank, rank))
            for wild in ("2", "JK"):
                if wild in hand and naive.meld_counts_ok(nat, w + 1, ratio):
                    want.add(("add", rank, wild))
        else:
            if h >= 3 and naive.meld_counts_ok(3, 0, ratio):
                want.add(("new", rank, "3N"))
            if h >= 2 and "2" in hand and naive.meld_counts_ok(2, 1, ratio):
                want.add(("new", rank, "2N+2"))
            if h >= 2 and "JK" in hand and naive.meld_counts_ok(2, 1, ratio):
                want.add(("new", rank, "2N+JK"))
    assert got == want                                                  # R18, R19, R20, R21
    assert side_melds(p, 1) == {}                                       # R20: never the opponents'


@settings(max_examples=500, deadline=None)
@given(hand=st.lists(st.sampled_from(["K", "K", "Q", "Q", "7", "7", "A", "2", "JK", "9"]),
                     min_size=2, max_size=8),
       table=st.dictionaries(st.sampled_from(["K", "Q", "7", "5"]),
                             st.tuples(st.integers(2, 7), st.integers(0, 3)), min_size=1,
                             max_size=3),
       ratio=st.sampled_from(RATIOS))
def test_R15_to_R21_meld_phase_ends_match_reference(hand, table, ratio):
    """A side that has melded: the tables the meld phase can end with (keeping two cards)
    are exactly the brute-force reference's (R16, R18-R21)."""
    from rules_helpers import stop_ends
    melds = {r: [r] * n + ["2"] * w for r, (n, w) in table.items()
             if naive.meld_counts_ok(n, w, ratio)}
    assume(melds)
    p = Position(f"classic(wild_ratio_rule={ratio})")
    for rank, cards in melds.items():
        p.meld(0, rank, " ".join(cards))
    p.hand(0, " ".join(hand)).begin(0)
    assert stop_ends(p, 0) == naive.meld_turn_ends(hand, melds, None, ratio)   # R18-R21
