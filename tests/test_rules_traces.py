"""Every rule the trace replay checks, on real deals of many rule variants, and proof that
the replay itself notices broken rules (each check is made to fail once on a doctored
trace).  See ``tests/rules_replay.py`` for the checks and their rule tags."""
import copy

import pytest
from rules_replay import DealReplay, replayed, traced

from canasta_sim.rules import parse_rules

VARIANTS = [
    ("classic", None),
    ("classic", (1600, 3100)),
    ("classic", (-100, 2990)),
    ("seed-a", None),
    ("seed-b", None),
    ("classic(upcard_cover_set=wild_red3)", None),
    ("classic(black_three_freezes=true)", None),
    ("classic(upcard_red3_freezes=false)", None),
    ("classic(unmelded_pile_access=forbidden)", None),
    ("classic(unfrozen_take_natural_plus_wild=false,unfrozen_take_by_layoff=false)", None),
    ("classic(one_card_pile_restriction=false)", None),
    ("classic(ask_permission=required)", None),
    ("classic(ask_permission=never)", None),
    ("classic(wild_ratio_rule=lt)", None),
    ("classic(max_wilds_per_meld=none,min_naturals_per_meld=3)", None),
    ("classic(concealed_exempt_from_min_count=false,concealed_allows_pile_take=false)", None),
    ("classic(top_card_counts_for_minimum=false)", None),
    ("classic(canastas_to_go_out=2)", None),
]


@pytest.mark.parametrize("policies", ["random", "greedy"])
@pytest.mark.parametrize("rules,scores", VARIANTS, ids=[f"{r}-{s}" for r, s in VARIANTS])
def test_real_deals_follow_every_replayed_rule(rules, scores, policies):
    """R1-R57 as far as a trace shows them: no violation in 120 deals of each variant."""
    violations, facts = replayed(rules, policies, 7, 0, 120, scores)
    assert violations == []
    assert facts["deals"] == 120 and facts["score_sides"] == 240


def test_replay_saw_every_kind_of_event():
    """The replayed deals exercise what the checks are about (so the checks are not empty)."""
    facts = {}
    for policies in ("random", "greedy"):
        for key, value in replayed("classic", policies)[1].items():
            facts[key] = facts.get(key, 0) + value
    for key in ("red3_deal", "red3_stock", "red3_pile", "takes", "frozen_takes",
                "unfrozen_takes", "black3_melds", "out_without_discard", "asks",
                "wild_discards", "initial_melds", "end_out"):
        assert facts.get(key, 0) > 0, key
    concealed = sum(replayed(r, p, 7, 0, 120, s)[1]["concealed_outs"]
                    for r, s in VARIANTS for p in ("random", "greedy"))
    assert concealed > 0


# ---- the replay notices doctored traces ------------------------------------------------------------

def a_deal(pred=lambda ev: True, policies="random"):
    for events in traced("classic", policies):
        if pred(events):
            return copy.deepcopy(list(events))
    raise LookupError("no such deal")


def violations_of(events, rules="classic"):
    return {v.rule for v in DealReplay(events, parse_rules(rules)).run().violations}


def test_replay_accepts_an_untouched_deal():
    assert violations_of(a_deal()) == set()


def test_replay_catches_a_wrong_first_player():
    ev = a_deal()
    ev[0]["dealer"] = (ev[0]["dealer"] + 1) % 4
    assert "R10" in violations_of(ev)                                    # R10


def test_replay_catches_an_uncovered_wild_upcard():
    ev = a_deal(lambda e: len(next(x for x in e if x["ev"] == "upcard")["cards"]) > 1)
    up = next(x for x in ev if x["ev"] == "upcard")
    up["cards"] = up["cards"][:1]
    assert "R7" in violations_of(ev)                                     # R7


def test_replay_catches_a_kept_red_three():
    ev = a_deal(lambda e: any(x["ev"] == "red3" and x["from"] == "deal" for x in e))
    i = next(i for i, x in enumerate(ev) if x["ev"] == "red3")
    del ev[i]
    assert "R9" in violations_of(ev)                                     # R9


def test_replay_catches_a_wrong_draw():
    ev = a_deal()
    d = next(x for x in ev if x["ev"] == "draw")
    d["cards"] = ["JK", "JK"]
    assert "R12" in violations_of(ev)                                    # R12


def test_replay_catches_a_frozen_take_without_a_pair():
    def frozen_pair_take(e):
        return any(x["ev"] == "take" and x["melds"][0]["cards"].count(x["pile"][-1]) >= 3
                   and any(c in ("2", "JK", "3r") for c in x["pile"]) for x in e)
    ev = a_deal(frozen_pair_take)
    take = next(x for x in ev if x["ev"] == "take" and any(c in ("2", "JK", "3r")
                                                           for c in x["pile"])
                and x["melds"][0]["cards"].count(x["pile"][-1]) >= 3)
    cards = take["melds"][0]["cards"]
    cards.remove(take["pile"][-1])
    cards.append("JK")
    assert "R33" in violations_of(ev)                                    # R33


def test_replay_catches_a_fourth_wild_card():
    ev = a_deal(lambda e: any(x["ev"] == "meld" and x["rank"] != "3b" for x in e))
    m = next(x for x in ev if x["ev"] == "meld" and x["rank"] != "3b")
    m["cards"] = m["cards"] + ["JK", "JK", "2", "2"]
    assert {"R18", "R19", "R15"} & violations_of(ev)                     # R18/R19


def test_replay_catches_a_wrong_concealed_flag():
    ev = a_deal(lambda e: any(x["ev"] == "out" for x in e))
    out = next(x for x in ev if x["ev"] == "out")
    out["concealed"] = not out["concealed"]
    assert "R44" in violations_of(ev)                                    # R44


def test_replay_catches_a_wrong_score():
    ev = a_deal()
    ev[-1]["sides"][0]["total"] += 5
    ev[-1]["sides"][1]["hand"] -= 5
    assert {"R56", "R55"} <= violations_of(ev)                           # R55, R56


def test_replay_catches_an_out_without_enough_canastas():
    """A classic deal that went out with one canasta, judged under canastas_to_go_out=2."""
    def one_canasta_out(e):
        return any(x["ev"] == "out" for x in e) and max(
            s["natural"] + s["mixed"] for s in e[-1]["sides"]) == 1
    ev = a_deal(one_canasta_out)
    assert "R40" in violations_of(ev, "classic(canastas_to_go_out=2)")   # R40
