"""Issue 11: the engine offers exactly the legal options at every decision (docs/moves.md).

``canasta_sim/referee/naive.py`` enumerates the options of a position by brute force from RULES.md; the
first part of this file checks it on hand-made positions (the RULES.md worked examples and
the issue's examples), the second compares it with the engine's decision log at every
decision of random deals across presets, knob values and initial-meld minimums: nothing
missing, nothing extra.

The sweep here fits the CI budget (30 deals per configuration, about a minute with the
kernels cached; ``CANASTA_MOVES_CI_DEALS`` changes it).  A larger one runs with
``CANASTA_MOVES_DEALS=<deals per configuration>`` (or ``CANASTA_MOVES_SLOW=1`` for 200 per
configuration; deals 1000.. of seed 7, so it does not repeat the CI deals).  A failure prints
a summary by kind and, for one mismatch of each kind, the rule set, scores, seed, deal,
decision number and the position (``tests/move_replay.py``).
"""
from __future__ import annotations

import os
from collections import Counter

import naive
import pytest
from naive import Position, legal_options, option_classes, plan_class, tokens


def H(text) -> Counter:
    return Counter(tokens(text))


def melds(**by_rank) -> dict:
    """melds(K="K K K 2") -> {"K": [...]}; rank 10 is written T."""
    return {("10" if r == "T" else r): tokens(c) for r, c in by_rank.items()}


def pos(hand, own=None, **kw) -> Position:
    own = own or {}
    kw.setdefault("start_ranks", frozenset(r for r, c in own.items() if c))
    return Position(hand=H(hand), melds=[dict(own), {}], **kw)


def key(discard, canastas, concealed, made=0) -> tuple:
    """A plan class key (naive.plan_class) from the canastas it leaves, {(rank, kind)}."""
    naturals = sum(1 for _, kind in canastas if kind == "natural")
    return (discard, naturals, len(canastas) - naturals, concealed, made)


def outs(p) -> set:
    """The plan classes of the meld decision."""
    return {o[1] for o in option_classes(p, legal_options(p, "meld")) if o[0] == "out"}


def steps(p, decision="meld") -> set:
    return {o for o in legal_options(p, decision) if o[0] in ("new", "add")}


# ---- the issue's examples -----------------------------------------------------------------------

def test_issue_mn1_completion_with_a_deuce_and_a_joker():
    """min_naturals_per_meld=1, side needs 90: after 7-7-7 (15), A-2-JK (90) completes it."""
    p = pos("2 3b 4 8 9 A JK K Q", melds(**{"7": "7 7 7"}), start_ranks=frozenset(),
            minimum=90, knobs={"min_naturals_per_meld": 1}, placed={"7": H("7 7 7")}, count=15)
    assert ("new", "A", 1, 1, 1) in legal_options(p, "meld")
    start = pos("2 3b 4 7 7 7 8 9 A JK K Q", minimum=90, knobs={"min_naturals_per_meld": 1})
    assert ("new", "7", 3, 0, 0) in legal_options(start, "meld")


def test_issue_eight_fives_three_black_threes_and_a_deuce():
    """Unmelded side: the deuce on the fives (mixed) and the deuce discarded (natural) are two
    plans, both concealed (black threes melded, R25)."""
    p = pos("5 5 5 5 5 5 5 5 3b 3b 3b 2", minimum=50)
    classes = outs(p)
    assert key(None, {("5", "mixed")}, True) in classes
    assert key("2", {("5", "natural")}, True) in classes
    assert ("out", None, (("3b", 3, 0, 0), ("5", 8, 1, 0))) in legal_options(p, "meld")


def test_issue_partner_aces_seven_fives_four_aces_and_a_deuce_after_yes():
    """After a "yes" the plan discarding the deuce makes two natural canastas (the 1210 plan)."""
    p = pos("5 5 5 5 5 5 5 A A A A 2", melds(A="A A A"), asked=True)
    classes = outs(p)
    assert key("2", {("5", "natural"), ("A", "natural")}, False) in classes
    assert ("stop",) not in legal_options(p, "meld")                    # R42: must go out
    # no discard: the deuce makes the fives or the aces mixed (one class: one of each); a five
    # or an ace discarded: that rank short of seven or mixed; the deuce discarded: both natural
    assert len(classes) == 6


def test_issue_seed_a_pile_take_reaching_120_with_take_melds():
    knobs = {"black_three_freezes": True, "concealed_exempt_from_min_count": False,
             "wild_ratio_rule": "half", "concealed_allows_pile_take": False}
    p = pos("K K Q Q Q Q Q Q Q 2 5", minimum=120, pile=["K"], knobs=knobs)
    assert ("take", 2, 0, 0) in legal_options(p, "draw")
    # the take in progress: K-K-K (30) laid, short of 120: take melds are listed
    t = pos("Q Q Q Q Q Q Q 2 5", melds(K="K K K"), start_ranks=frozenset(), minimum=120,
            pile=["K"], knobs=knobs, took=True, take_top="K", count=30,
            placed={"K": H("K K")}, take_melds={"K": H("K K")})
    opts = legal_options(t, "take_plan")
    assert ("new", "Q", 3, 0, 0) in opts
    assert ("stop",) not in opts                                         # 30 < 120


def test_issue_last_card_red3_may_meld_leaving_one_card():
    knobs = {"last_card_red3_may_meld": True}
    p = pos("4 4 4 5 5 5 6 6 6 6 K", minimum=50, last_red3=True, stock=0, knobs=knobs)
    assert {("new", "4", 3, 0, 0), ("new", "5", 3, 0, 0), ("new", "6", 3, 0, 0)} <= steps(p)
    after = pos("6 K", melds(**{"4": "4 4 4", "5": "5 5 5", "6": "6 6 6"}),
                start_ranks=frozenset(), minimum=50, last_red3=True, stock=0, knobs=knobs,
                placed={"4": H("4 4 4"), "5": H("5 5 5"), "6": H("6 6 6")}, count=45)
    assert legal_options(after, "meld") == {("add", "6", "6")}          # 45 < 50: no stop
    last = pos("K", melds(**{"4": "4 4 4", "5": "5 5 5", "6": "6 6 6 6"}),
               start_ranks=frozenset(), minimum=50, last_red3=True, stock=0, knobs=knobs,
               placed={"4": H("4 4 4"), "5": H("5 5 5"), "6": H("6 6 6 6")}, count=50)
    assert legal_options(last, "meld") == {("stop",)}                   # no discard follows
    assert legal_options(pos("4 4 4 K", last_red3=True, stock=0), "meld") == set()   # R47


# ---- RULES.md worked examples --------------------------------------------------------------------

def test_t16_minimum_90():
    bad = pos("6 6 6 K K K 2 9 4 Q", minimum=90)
    assert steps(bad) == set() and legal_options(bad, "meld") == {("stop",)}
    good = pos("6 6 6 A A A 2 9 4 Q", minimum=90)
    assert ("new", "6", 3, 0, 0) in steps(good) and ("new", "A", 3, 0, 0) in steps(good)
    assert ("new", "6", 3, 0, 0) in steps(pos("6 6 6 K K K 2 9 4 Q", minimum=50))


def test_t17_buried_cards_do_not_count():
    for minimum, legal in ((50, True), (90, False)):
        p = pos("K K Q Q 2 5 7", melds(), minimum=minimum, pile=["9", "K", "Q", "8", "K"])
        assert (("take", 2, 0, 0) in legal_options(p, "draw")) is legal


def test_t18_wild_cards_join_the_natural_pair():
    p = pos("A A JK JK 6 9", minimum=120, pile=["5", "A"])
    takes = {o for o in legal_options(p, "draw") if o[0] == "take"}
    assert ("take", 2, 0, 2) in takes
    assert ("take", 2, 0, 0) in takes             # the jokers follow as take-meld adds (2.11)
    assert not {o for o in legal_options(pos("A JK JK 6 9", minimum=120, pile=["5", "A"]),
                                         "draw") if o[0] == "take"}


def test_t19_concealed_exemption():
    hand = "5 5 5 5 5 5 5 4 4 4 4 K"
    assert key("K", {("5", "natural")}, True) in outs(pos(hand, minimum=90))
    assert outs(pos(hand, minimum=90, knobs={"concealed_exempt_from_min_count": False})) == set()


def test_t20_joker_makes_the_count():
    p = pos("4 4 JK K K K 9", minimum=50, pile=["7", "4"])
    takes = {o for o in legal_options(p, "draw") if o[0] == "take"}
    assert {("take", 2, 0, 0), ("take", 2, 0, 1)} <= takes


def test_t22_t23_unfrozen_and_frozen():
    own = melds(K="K K K")
    assert ("take", 1, 0, 1) in legal_options(pos("8 JK 5 6", own, pile=["9", "8"]), "draw")
    assert not [o for o in legal_options(pos("8 JK 5 6", own, pile=["2", "9", "8"]), "draw")
                if o[0] == "take"]
    own8 = melds(**{"8": "8 8 8"})
    assert ("take", 0, 0, 0) in legal_options(pos("5 6 9", own8, pile=["9", "8"]), "draw")
    assert not [o for o in legal_options(pos("5 6 9", own8, pile=["2", "8"]), "draw")
                if o[0] == "take"]
    assert ("take", 2, 0, 0) in legal_options(pos("8 8 6 9", own8, pile=["2", "8"]), "draw")


def test_t24_black_three_on_top():
    assert legal_options(pos("3b 3b 5 6", melds(K="K K K"), pile=["9", "3b"]), "draw") == {
        ("draw",)}


def test_t26_one_card_rule():
    own = melds(**{"9": "9 9 9"})
    assert legal_options(pos("5", own, pile=["9"]), "draw") == {("draw",)}
    assert ("take", 0, 0, 0) in legal_options(pos("5", own, pile=["4", "9"]), "draw")


def test_t27_take_that_goes_out():
    p = pos("K K", melds(K="K K K K K K"), pile=["K"])
    assert {("take", 0, 0, 0), ("take", 1, 0, 0), ("take", 2, 0, 0)} <= legal_options(p, "draw")
    q = pos("K K", melds(Q="Q Q Q"), pile=["K"])
    assert legal_options(q, "draw") == {("draw",)}


def test_t31_t32_t33_t34_going_out():
    assert outs(pos("9 9", melds(**{"9": "9 9 9 9 9"}))) == {
        key(None, {("9", "natural")}, False)}
    assert legal_options(pos("Q 6", melds(**{"9": "9 9 9 9 9"})), "meld") == {("stop",)}
    canasta = melds(**{"9": "9 9 9 9 9 9 9"})
    assert legal_options(pos("3b 3b", canasta), "meld") == {("stop",)}
    assert ("out", None, (("3b", 3, 0, 0),)) in legal_options(pos("3b 3b 3b", canasta), "meld")
    assert outs(pos("3b 3b 2", canasta)) == set()


def test_t35_ask_and_answer():
    canasta = melds(**{"9": "9 9 9 9 9 9 9"})
    p = pos("5 5 5 K", canasta)
    assert legal_options(p, "ask") == {("ask",), ("no_ask",)}
    assert legal_options(pos("5 5 6 K", canasta), "ask") == set()
    assert legal_options(p, "answer") == {("yes",), ("no",)}
    no = pos("5 5 5 K", canasta, asked=False)
    assert outs(no) == set() and ("stop",) in legal_options(no, "meld")
    yes = pos("5 5 5 K", canasta, asked=True)
    assert ("stop",) not in legal_options(yes, "meld") and outs(yes)
    required = pos("5 5 5 K", canasta, knobs={"ask_permission": "required"})
    assert outs(required) == set()
    assert legal_options(pos("5 5 5 K", canasta, has_partner=False), "ask") == set()


def test_t37_forced_take_after_the_stock():
    own = melds(J="J J J")
    forced = legal_options(pos("5 6 9", own, pile=["4", "J"], stock=0), "draw")
    assert ("decline",) not in forced and ("take", 0, 0, 0) in forced
    frozen = legal_options(pos("5 6 9", own, pile=["2", "J"], stock=0), "draw")
    assert frozen == {("decline",)}


def test_discard_options():
    assert legal_options(pos("5 5 2 3b"), "discard") == {
        ("discard", "5"), ("discard", "2"), ("discard", "3b")}


def test_plan_class_rejects_illegal_plans():
    p = pos("9 9 2 K", melds(**{"9": "9 9 9 9 9"}))
    assert plan_class(p, (("9", 2, 1, 0),), "K") == key("K", {("9", "mixed")}, False)
    assert plan_class(p, (("9", 2, 0, 0),), "K") is None             # the deuce is not placed
    assert plan_class(p, (("9", 2, 1, 0), ("K", 1, 0, 0)), None) is None     # one king: R18


def test_concealed_flag_r44():
    hand = "5 5 5 5 5 5 5 K"
    assert key("K", {("5", "natural")}, True) in outs(pos(hand, melds(Q="Q Q Q")))
    assert key("K", {("5", "natural")}, False) in outs(pos(hand, melds(Q="Q Q Q"),
                                                            seat_melded_before=True))
    knobs = {"concealed_allows_final_discard": False}
    assert key("K", {("5", "natural")}, False) in outs(pos(hand, melds(Q="Q Q Q"), knobs=knobs))
    # (iii): a card on the partner's meld
    both = outs(pos("5 5 5 5 5 5 5 Q", melds(Q="Q Q Q")))
    assert both == {key(None, {("5", "natural")}, False),
                    key("Q", {("5", "natural")}, True)}
    # a take turn: the first take meld on the partner's meld of the top rank touches it
    took = pos("5 5 5 5 5 5 5 K", melds(Q="Q Q Q Q"), start_ranks=frozenset({"Q"}), took=True,
               take_top="Q", placed={"Q": Counter()})
    assert outs(took) == {key("K", {("5", "natural")}, False)}
    own = pos("5 5 5 5 5 5 5 K", melds(Q="Q Q Q"), start_ranks=frozenset(), took=True,
              take_top="Q", placed={"Q": H("Q Q")}, count=30, minimum=15)
    assert outs(own) == {key("K", {("5", "natural")}, True)}
    no_take = dict(own.__dict__, knobs={"concealed_allows_pile_take": False})
    assert outs(Position(**no_take)) == {key("K", {("5", "natural")}, False)}


def test_unmelded_going_out_needs_concealed_or_count():
    hand = "5 5 5 5 5 5 5 4 4 4 4 K"           # 55 by card values, needs 90 (T19)
    assert outs(pos(hand, minimum=90)) == {key("K", {("5", "natural")}, True)}
    no_discard = {"concealed_allows_final_discard": False}
    assert outs(pos(hand, minimum=90, knobs=no_discard)) == set()
    assert outs(pos(hand, minimum=50, knobs=no_discard)) == {
        key("K", {("5", "natural")}, False)}


def test_black_threes_r25_r41():
    canasta = melds(**{"9": "9 9 9 9 9 9 9"})
    assert outs(pos("3b 3b 5 5 5", canasta)) == set()                   # two black threes
    assert outs(pos("3b 5 5 5", canasta)) == {key("3b", {("9", "natural")}, False)}
    four = outs(pos("3b 3b 3b 3b", canasta))
    assert four == {key(None, {("9", "natural")}, False),
                    key("3b", {("9", "natural")}, False)}
    assert outs(pos("3b 3b 3b 3b 3b", canasta)) == {key("3b", {("9", "natural")}, False)}
    assert outs(pos("3b 3b 3b", canasta, knobs={"black_three_going_out_meld": False})) == set()


def test_meld_shapes_follow_the_knobs():
    assert steps(pos("5 5 5 5 2 JK 9 9")) == {
        ("new", "5", 3, 0, 0), ("new", "5", 2, 1, 0), ("new", "5", 2, 0, 1),
        ("new", "9", 2, 1, 0), ("new", "9", 2, 0, 1)}
    assert steps(pos("5 5 5 5 2 JK 9 9", knobs={"min_naturals_per_meld": 4})) == {
        ("new", "5", 4, 0, 0)}
    assert ("new", "5", 1, 1, 1) in steps(pos("5 5 5 5 2 JK 9 9",
                                               knobs={"min_naturals_per_meld": 1}))
    assert ("add", "9", "JK") not in steps(pos("2 JK 4", melds(**{"9": "9 9 2"}),
                                               knobs={"wild_ratio_rule": "half"}))
    assert ("add", "9", "JK") in steps(pos("2 JK 4", melds(**{"9": "9 9 2"})))
    assert ("add", "9", "JK") not in steps(pos("2 JK 4", melds(**{"9": "9 9 2"}),
                                               knobs={"max_wilds_per_meld": 1}))


def test_ask_required_and_never():
    canasta = melds(**{"9": "9 9 9 9 9 9 9"})
    assert legal_options(pos("5 5 5 K", canasta, knobs={"ask_permission": "never"}),
                         "ask") == set()
    req = {"ask_permission": "required"}
    assert outs(pos("5 5 5 K", canasta, knobs=req, asked=True))
    assert outs(pos("5 5 5 K", canasta, knobs=req, has_partner=False))    # solo: no one to ask
    # a take turn needs no question (2.11)
    took = pos("5 5 5 K", canasta, knobs=req, took=True, take_top="9", placed={"9": Counter()})
    assert outs(took)


def test_take_plan_stop_by_a_concealed_going_out():
    """Short of 120 after K-K-K, but the pile completes a concealed going-out (R30): stop is
    legal, the meld phase then offers only what leads to that."""
    t = pos("Q Q 7", melds(K="K K K"), start_ranks=frozenset(), minimum=120,
            pile=["Q", "Q", "Q", "Q", "Q", "K"], took=True, take_top="K", count=30,
            placed={"K": H("K K")}, take_melds={"K": H("K K")})
    assert ("stop",) in legal_options(t, "take_plan")
    seed_a = dict(t.__dict__, knobs={"concealed_exempt_from_min_count": False})
    assert legal_options(Position(**seed_a), "take_plan") == set()
    joined = pos("Q Q Q Q Q Q Q 7", melds(K="K K K"), start_ranks=frozenset(), minimum=120,
                 took=True, take_top="K", count=30, placed={"K": H("K K")})
    opts = legal_options(joined, "meld")
    assert ("stop",) not in opts and ("new", "Q", 3, 0, 0) in opts
    assert outs(joined) == {key("7", {("Q", "natural")}, True)}


def test_forced_take_r37_and_knob():
    own = melds(J="J J J")
    assert ("decline",) in legal_options(pos("5", own, pile=["J"], stock=0), "draw")   # R37
    off = legal_options(pos("5 6 9", own, pile=["4", "J"], stock=0,
                            knobs={"empty_stock_forced_take": False}), "draw")
    assert ("decline",) in off and ("take", 0, 0, 0) in off


# ---- engine against naive at every decision ---------------------------------------------------

CONFIGS = [
    ("classic", None),
    ("classic", (1600, -100)),
    ("classic", (3000, 3500)),
    ("two-player", None),
    ("two-player", (1600, 3000)),
    ("three-player", (0, 1600, 3000)),
    ("six-player", (3000, 7500)),
    ("six-player-3x2", (-100, 1600, 3000)),
    ("seed-a", (3000, 1600)),
    ("seed-b", (1600, 0)),
    ("classic(min_naturals_per_meld=1)", (1600, 3000)),
    ("classic(min_naturals_per_meld=4)", None),
    ("classic(max_wilds_per_meld=none)", (3000, 0)),
    ("classic(max_wilds_per_meld=1)", None),
    ("classic(wild_ratio_rule=le)", (1600, 0)),
    ("classic(wild_ratio_rule=lt)", None),
    ("classic(wild_ratio_rule=half)", (3000, 0)),
    ("classic(last_card_red3_may_meld=true)", None),
    ("classic(ask_permission=required)", None),
    ("classic(ask_permission=never)", None),
    ("classic(concealed_allows_pile_take=false,concealed_exempt_from_min_count=false)",
     (3000, 1600)),
    ("classic(concealed_allows_final_discard=false)", (1600, 0)),
    ("classic(unfrozen_take_by_layoff=false)", None),
    ("classic(unmelded_pile_access=forbidden)", (1600, 0)),
    ("classic(black_three_going_out_meld=false)", None),
    # further knobs the enumerator reads
    ("two-player(ask_permission=required)", (3000, 0)),
    ("classic(top_card_counts_for_minimum=false)", (1600, 3000)),
    ("classic(unfrozen_take_natural_plus_wild=false,one_card_pile_restriction=false)", None),
    ("classic(empty_stock_forced_take=false)", None),
    ("classic(black_three_freezes=true,upcard_red3_freezes=false)", (-100, 0)),
]

CI_DEALS = int(os.environ.get("CANASTA_MOVES_CI_DEALS", "30"))


def _scores(rules, scores):
    if scores is None:
        return None
    from canasta_sim.rules import parse_rules

    n = parse_rules(rules).num_sides
    return list(scores[:n]) + [0] * (n - len(scores))


def _run(rules, scores, deals, seed=0):
    import move_replay

    mismatches, counts = move_replay.check_deals(rules, seed, deals, "random",
                                                 _scores(rules, scores))
    return mismatches, counts


def _report(mismatches, limit=5):
    """A summary by kind, then the first mismatches in full (deal, decision, position)."""
    kinds = Counter((m.decision, tuple(sorted({o[0] for o in m.missing})),
                     tuple(sorted({o[0] for o in m.extra})), m.note[:60]) for m in mismatches)
    head = [f"{len(mismatches)} mismatches; by (decision, missing kinds, extra kinds, note):"]
    head += [f"  {n:5d}  {k}" for k, n in kinds.most_common()]
    shown, seen = [], set()
    for m in mismatches:                              # one example of each kind first
        k = (m.decision, tuple(sorted({o[0] for o in m.missing})),
             tuple(sorted({o[0] for o in m.extra})), m.note[:60])
        if k not in seen:
            seen.add(k)
            shown.append(m)
    shown += [m for m in mismatches if m not in shown][:max(0, limit - len(shown))]
    return "\n".join(head) + "\n\n" + "\n\n".join(m.text() for m in shown)


@pytest.mark.parametrize("rules,scores", CONFIGS, ids=[f"{r}-{s}" for r, s in CONFIGS])
def test_engine_options_equal_naive(rules, scores):
    """Every decision of a few random deals: the engine's options == naive's (plan classes)."""
    mismatches, counts = _run(rules, scores, range(CI_DEALS))
    assert counts["decisions"] > 0
    assert not mismatches, _report(mismatches)


SLOW_DEALS = int(os.environ.get("CANASTA_MOVES_DEALS", "0"))


@pytest.mark.skipif(not (SLOW_DEALS or os.environ.get("CANASTA_MOVES_SLOW")),
                    reason="large sweep: set CANASTA_MOVES_DEALS=<deals per configuration>")
@pytest.mark.parametrize("rules,scores", CONFIGS, ids=[f"{r}-{s}" for r, s in CONFIGS])
def test_engine_options_equal_naive_sweep(rules, scores):
    deals = SLOW_DEALS or 200
    mismatches, counts = _run(rules, scores, range(1000, 1000 + deals), seed=7)
    assert not mismatches, _report(mismatches)


def test_plan_classes_equal_raw_plans_on_random_positions():
    """naive's class search (_plans) gives exactly the classes of every raw plan."""
    import random

    rng = random.Random(5)
    deck = [k for k in naive.KINDS for _ in range(4)]
    checked = 0
    for trial in range(600):
        hand = Counter(rng.sample(deck, rng.randint(1, 10)))
        own = {}
        for r in rng.sample(naive.NATURALS, rng.randint(0, 3)):
            n = rng.randint(2, 7)
            own[r] = [r] * n + ["2"] * rng.randint(0, 1)
        knobs = {"min_naturals_per_meld": rng.choice((1, 2, 2, 3)),
                 "wild_ratio_rule": rng.choice(("none", "le", "half")),
                 "max_wilds_per_meld": rng.choice((None, 3, 1)),
                 "canastas_to_go_out": rng.choice((1, 1, 2))}
        start = frozenset(own) if rng.random() < 0.8 else frozenset()
        p = Position(hand=hand, melds=[own, {}], knobs=knobs, start_ranks=start,
                     minimum=rng.choice((15, 50, 90)), asked=rng.choice((None, True)),
                     took=rng.random() < 0.2, count=rng.choice((0, 50)))
        want = naive.raw_plan_classes(p)
        got = {o[1] for o in option_classes(p, legal_options(p, "meld")) if o[0] == "out"}
        assert got == want, (p.describe(), got ^ want)
        checked += bool(want)
    assert checked > 20, checked
