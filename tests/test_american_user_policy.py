"""A user's own policy plays Modern American (issue 30, docs/own-policy.md "Modern American"):
it plays legally (the family's audit finds nothing in its traces), the view's values are right
in a hand-built position and hold no hidden card, errors name the policy and the decision,
runs repeat, the commands take it, and the example beats ``random``."""
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from canasta_sim import policy_api as api
from canasta_sim.audit_american import audit_american_deal
from canasta_sim.cli import cli
from canasta_sim.kernels.game import layout, slots
from canasta_sim.kernels.game.american.state import (
    X_ASKED,
    X_SIDE_TALON,
    mac_record_nb,
    new_mac_state,
)
from canasta_sim.kernels.game.american.threes import BLACK, RED
from canasta_sim.kernels.game.cards import ACE, DEUCE, JOKER, KING, NKINDS, QUEEN, SEVEN
from canasta_sim.kernels.game.state import new_state
from canasta_sim.rules import parse_rules
from canasta_sim.runner import play_range, prepare
from canasta_sim.user_policy import PolicyError

HERE = Path(__file__).resolve().parent
FILE = HERE / "american_user_policies.py"
EXAMPLE = f"{HERE.parent / 'examples' / 'american_pile_hungry.py'}:american_pile_hungry"
MAC = "modern-american"


def spec(name: str) -> str:
    return f"{FILE}:{name}"


def rows(plan, first=0, n=None):
    out = np.zeros((plan.deals if n is None else n, layout.NCOLS), np.int64)
    play_range(plan, first, out)
    return out


def traced_deals(policies, deals="0:60", rules=MAC):
    """The deals of ``canasta-sim replay`` as lists of events."""
    result = CliRunner().invoke(cli, ["replay", "--rules", rules, "--deals", deals,
                                      "--policies", policies, "--seed", "5"])
    assert result.exit_code == 0, result.output
    out, deal = [], None
    for line in result.output.splitlines():
        event = json.loads(line)
        if event["ev"] == "start":
            deal = []
            out.append(deal)
        deal.append(event)
    return out


# --- playing legally -------------------------------------------------------------------------

@pytest.mark.parametrize("policies, rules", [
    (f"{EXAMPLE},random", MAC),
    (f"random,{EXAMPLE}", "modern-american(ask_permission=required)"),
    (f"{EXAMPLE},greedy", "modern-american(mac_talon_source=set_aside,"
                          "mac_threes_timing=after_deal)"),
])
def test_a_user_policy_plays_legally_by_the_family_s_audit(policies, rules):
    deals = traced_deals(policies, "0:80", rules)
    assert len(deals) == 80
    problems = [p for events in deals for p in audit_american_deal(events, parse_rules(rules))]
    assert problems == []
    kinds = {e["ev"] for events in deals for e in events}
    assert {"take", "meld", "discard", "three"} <= kinds


def test_every_option_agrees_with_the_view_at_every_decision():
    """american_view_echo answers out of range when an option or the view is wrong."""
    plan = prepare(150, 2, "modern-american(ask_permission=optional)",
                   f"{spec('american_view_echo')},random")
    out = rows(plan)
    assert out[:, layout.COL_CHECK_FAILS].sum() == 0


def test_the_example_beats_random_clearly():
    result = CliRunner().invoke(cli, ["strength", "--rules", MAC, "--policies",
                                      f"{EXAMPLE},random", "--games", "20", "--csv", ""])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("| ") and "random |" in x)
    wins = int(line.split("|")[4])
    assert wins >= 18, line
    assert "american_pile_hungry > random: holds" in result.output


def test_runs_repeat_and_threads_do_not_change_rows():
    plan = prepare(40, 9, MAC, f"{EXAMPLE},random")
    first = rows(plan)
    assert np.array_equal(first, rows(plan))
    halves = np.concatenate([rows(plan, 0, 15), rows(plan, 15, 25)])
    assert np.array_equal(first, halves)


def test_the_family_s_rules_record_fits_the_wrapper_s_rules_array():
    """The generated wrapper hands the policy NRULES ints (canasta_sim/user_policy.py): the
    family's record must not be longer, or its last knobs would be out of reach."""
    assert api.NMAC_RULES <= api.NRULES
    assert api.MR_GOING_OUT_BONUS != api.MR_TALON_FIRST
    record = parse_rules(MAC).to_american_kernel()
    assert record[api.MR_TALON_FIRST] == 4 and record[api.MR_TALON_SECOND] == 3


# --- the view --------------------------------------------------------------------------------

def _position():
    """A hand-built position: side 0 has a clean canasta of kings, a dirty one of queens and
    a wild canasta, side 1 a sevens and a clean aces canasta; threes, a talon, a pile."""
    rules = parse_rules(MAC)
    S, A = new_state(), new_mac_state()
    st = S.st
    st[slots.ST_NSEATS] = 4
    st[slots.ST_NSIDES] = 2
    st[slots.ST_DEALER] = 3
    st[slots.ST_DECK_N] = 108
    st[slots.ST_STOCK_POS] = 101                                   # 7 left: turn card drawn
    pile = [5, 6, 9]
    S.pile[:3] = pile
    st[slots.ST_PILE_N] = 3

    def meld(side, row, nat, deuces, jokers):
        S.melds[side, slots.M_NAT, row] = nat
        S.melds[side, slots.M_DEUCE, row] = deuces
        S.melds[side, slots.M_JOKER, row] = jokers
        S.melds[side, slots.M_SIZE, row] = nat + deuces + jokers

    meld(0, KING, 7, 0, 0)
    meld(0, QUEEN, 5, 2, 0)
    meld(0, JOKER, 0, 3, 4)                                        # the wild meld
    meld(1, SEVEN, 7, 0, 0)
    meld(1, ACE, 7, 0, 0)
    meld(1, 8, 3, 0, 0)
    S.hands[0, [4, 8, DEUCE]] = [2, 1, 1]
    S.hands[1, [9, 10, 11]] = [3, 3, 3]
    S.hands[2, 12] = 5
    S.hands[3, 5] = 2
    S.sidev[0, slots.SIDE_MELDED] = 1
    S.sidev[1, slots.SIDE_MELDED] = 1
    S.sidev[0, slots.SIDE_MINIMUM] = 90
    S.sidev[1, slots.SIDE_MINIMUM] = 50
    A.threes[0, RED] = 2
    A.threes[1, BLACK] = 1
    A.x[X_SIDE_TALON + 0] = 4
    A.x[X_ASKED + 2] = 1
    return rules, S, A


def _view(rules, S, A, seat):
    from canasta_sim.kernels.players.american_user import fill_mac_view_nb

    view = np.zeros(api.VIEW_LEN, np.int64)
    record = mac_record_nb(rules.to_american_kernel())
    fill_mac_view_nb(record[0], S, A, seat, view)
    return view


def test_the_view_shows_what_the_family_adds_in_a_known_position():
    rules, S, A = _position()
    view = _view(rules, S, A, 0)
    assert api.family(view) == api.FAMILY_AMERICAN
    assert api.my_side(view) == 0 and api.next_seat(view) == 1
    assert api.threes(view, 0, api.THREE_RED) == 2 and api.threes(view, 1, api.THREE_BLACK) == 1
    assert api.threes(view, 0, api.THREE_BLACK) == 0
    assert api.side_value(view, 0, api.SV_RED3) == 2
    assert api.talon(view, 0) == 4 and api.talon(view, 1) == 0
    assert api.talon_sizes(view) == (4, 3)
    assert api.turn_card_drawn(view) and api.stock_size(view) == 7
    assert api.pile_size(view) == 3 and api.pile_top(view) == 9 and api.pile_frozen(view)
    assert [view[api.V_PILE + i] for i in range(3)] == [5, 6, 9]
    kinds = [[api.canastas_of_kind(view, side, k) for k in
              (api.CK_CLEAN, api.CK_DIRTY, api.CK_ACES, api.CK_SEVENS, api.CK_WILD)]
             for side in (0, 1)]
    assert kinds == [[1, 1, 0, 0, 1], [0, 0, 1, 1, 0]]
    assert api.canastas(view, 0) == 3 and api.canastas(view, 1) == 2
    # A22 (scope both): a canasta's rank is dead for both sides, 8 (three cards) is not
    for rank in (KING, QUEEN, SEVEN, ACE, api.WILD_MELD):
        assert api.is_dead(view, 0, rank) and api.is_dead(view, 1, rank)
    assert not api.is_dead(view, 0, 8) and not api.is_dead(view, 1, 4)
    assert api.meld(view, 0, api.WILD_MELD) == (0, 3, 4)
    assert api.has_melded(view, 0) and api.opening_minimum(view, 0) == 90
    assert api.opening_minimum(view, 1) == 50
    assert [api.hand_size(view, s) for s in range(4)] == [4, 9, 5, 2]
    assert api.hand_count(view, 4) == 2 and api.hand_count(view, 9) == 0
    assert view[api.V_ASKED + 2] == 1 and view[api.V_ASKED + 0] == 0
    assert view[api.V_TURN_ASKED] == 0 and view[api.V_TURN_PENDING] == 0
    # unseen: 8 kings less 7 melded; deuces 8 less 5 melded and 1 held; jokers 4 less 4;
    # red threes 4 less 2 laid; black threes 4 less 1; nines 8 less the one in the pile
    assert api.unseen_count(view, KING) == 1 and api.unseen_count(view, DEUCE) == 2
    assert api.unseen_count(view, JOKER) == 0
    assert api.unseen_count(view, api.RED3) == 2 and api.unseen_count(view, api.BLACK3) == 3
    assert api.unseen_count(view, 9) == 7 and api.unseen_count(view, 4) == 6


def test_the_view_holds_no_hidden_card():
    """Other hands (same sizes) and the stock's order change nothing in the seat's view."""
    rules, S, A = _position()
    before = _view(rules, S, A, 0)
    S.hands[1, :] = 0
    S.hands[1, [4, 5, 6]] = [3, 3, 3]
    S.hands[2, 12] = 0
    S.hands[2, 13] = 5
    S.deck[:108] = np.arange(108) % NKINDS
    assert np.array_equal(before, _view(rules, S, A, 0))
    assert not np.array_equal(before, _view(rules, S, A, 1))       # another seat's own hand


def test_the_information_check_passes_and_can_fail(monkeypatch):
    from canasta_sim import fairness

    plan = prepare(10, 1, MAC, f"{EXAMPLE},random")
    check = fairness.information_check(plan, positions=40, seed=3)
    assert check.ok, check.detail
    real = fairness.rearrange_hidden

    def leaky(S, seat, rng, *fixed):                 # also swaps the seat's own hand
        moved = real(S, seat, rng, *fixed)
        other = (seat + 1) % 4
        S.hands[[seat, other]] = S.hands[[other, seat]]
        return moved

    monkeypatch.setattr(fairness, "rearrange_hidden", leaky)
    assert not fairness.information_check(plan, positions=40, seed=3).ok


# --- errors and commands ---------------------------------------------------------------------

def test_an_out_of_range_answer_names_the_policy_the_decision_and_the_deal():
    with pytest.raises(PolicyError) as info:
        rows(prepare(20, 1, MAC, spec("discards_out_of_range")))
    text = str(info.value)
    assert "discards_out_of_range returned" in text and "at a discard decision with" in text
    assert "(deal 0, seat" in text and "accepted: an option index 0.." in text


def test_a_raise_is_reported_with_its_decision():
    with pytest.raises(PolicyError, match="raised an exception at a meld decision"):
        rows(prepare(20, 1, MAC, spec("raises_at_meld")))


def test_a_plain_python_policy_sees_the_family_s_decisions():
    import sys

    plan = prepare(5, 1, MAC, f"{spec('recorded')},random")
    module = next(m for name, m in sys.modules.items()
                  if name.startswith("canasta_user_american_user_policies_"))
    RECORD = module.RECORD
    RECORD.clear()
    rows(plan)
    decisions = {d for d, _, _ in RECORD}
    assert {api.DEC_DRAW, api.DEC_MELD, api.DEC_DISCARD} <= decisions
    assert all(view[api.V_FAMILY] == api.FAMILY_AMERICAN for _, _, view in RECORD)
    melds = [o for d, o, _ in RECORD if d == api.DEC_MELD]
    assert melds and all(api.OPT_STOP not in o[:-1, 0] for o in melds)   # STOP comes last


def test_check_policy_passes_the_example_on_the_family():
    result = CliRunner().invoke(cli, ["check-policy", EXAMPLE, "--rules", MAC, "--deals", "60",
                                      "--positions", "40", "--traced", "30"])
    assert result.exit_code == 0, result.output
    assert "all checks passed" in result.output and "audit_american" in result.output


def test_compare_takes_a_user_policy_on_the_family(tmp_path):
    result = CliRunner().invoke(cli, ["compare", "--rules", MAC, "--policies", f"{EXAMPLE}",
                                      "--policies", "random", "--deals", "40", "--out",
                                      str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
