"""Three-player Cutthroat (docs/cutthroat.md): rules C1-C17 and the worked examples C-T01..C-T17,
plus the draw of two with a red three among the last stock cards (``draw2_last_red3``, C3a)."""
import numpy as np
import pytest
from canasta_sim.kernels.game import cutthroat, layout, moves, options, plans, slots, state
from canasta_sim.kernels.game.cards import TOKEN_TO_KIND
from canasta_sim.kernels.play import deals
from canasta_sim.kernels.players import switch
from rules_helpers import CONTINUE, DEAL_OVER, draw, hand_size, take
from scenario import Position

from canasta_sim.errors import BadInput
from canasta_sim.rules import parse_rules

CT = "cutthroat"


def form(p, lone):
    """Form the partnership around ``lone`` as his first pile take does (C5)."""
    cutthroat.form_by_take_nb(p.nb, p.S, p.buf, lone)
    return p


def side_of(p, seat):
    return int(state.side_of_nb(p.st, seat))


def scores(p):
    """Each seat's deal score (side k's columns are seat k's in cutthroat)."""
    return [s["score"] for s in p.score()]


def meld_rank(p, row, rank):
    return tuple(int(x) for x in p.S.melds[row, :slots.M_SIZE, TOKEN_TO_KIND[rank]])


# ---- rule sets ------------------------------------------------------------------------------

def test_presets_and_knobs():
    r = parse_rules("cutthroat")
    assert (r.num_players, r.num_sides, r.hand_size, r.draw_count, r.canastas_to_go_out,
            r.game_target) == (3, 3, 13, 2, 2, 7500)
    assert r.cutthroat and r.to_kernel().cutthroat == 1
    pagat = parse_rules("cutthroat-pagat")
    assert (pagat.canastas_to_go_out, pagat.cutthroat_stock_end, pagat.draw2_last_red3) == \
        (1, "classic_r49", "one_card_draw")
    assert parse_rules("cutthroat-11").hand_size == 11
    assert parse_rules("two-player(draw2_last_red3=one_card_draw)").draw2_last_red3 == \
        "one_card_draw"


@pytest.mark.parametrize("text", ["classic(cutthroat_partner_share=half)",
                                  "three-player(cutthroat_stock_end=classic_r49)",
                                  "cutthroat(num_players=4)",
                                  "cutthroat(cutthroat_same_rank_melds=glue)"])
def test_bad_cutthroat_rule_strings_are_refused(text):
    with pytest.raises(BadInput):
        parse_rules(text)


# ---- C1, C5, C6: sides and formation --------------------------------------------------------

def test_C1_every_deal_starts_with_three_one_seat_sides():
    p = Position(CT)
    assert [side_of(p, s) for s in range(3)] == [0, 1, 2]
    assert p.st[slots.ST_LONE] == -1
    assert not any(plans.has_partner_nb(p.st, s) for s in range(3))     # C15: nobody to ask


def test_CT01_first_take_forms_the_partnership_and_later_takes_change_nothing():
    p = Position(CT).hand(1, "K K 7 7 7 5 5 5 9").pile("4 K")
    p.meld(1, "Q", "Q Q Q")                                  # seat 1 has melded: no minimum
    p.S.sidev[1, slots.SIDE_MELDED] = 1
    assert take(p, 1, 2)
    assert p.st[slots.ST_LONE] == 1 and p.st[slots.ST_FORMED_BY] == layout.FORMED_TAKE
    assert side_of(p, 0) == side_of(p, 2) != side_of(p, 1)                # C5
    assert plans.has_partner_nb(p.st, 0) and plans.has_partner_nb(p.st, 2)
    assert not plans.has_partner_nb(p.st, 1)                           # C15: the lone hand
    assert moves.partner_of_nb(p.st, 0) == 2 and moves.partner_of_nb(p.st, 2) == 0   # C15
    p.meld(side_of(p, 0), "5", "5 5 5")
    p.hand(0, "8 8 9 9").pile("4 8")
    assert take(p, 0, 2)
    assert p.st[slots.ST_LONE] == 1                                            # unchanged


@pytest.mark.parametrize("lone", [0, 1, 2])
def test_C5_sides_are_renumbered_in_the_order_of_their_lowest_seat(lone):
    p = Position(CT)
    for seat in range(3):
        p.meld(seat, "5", "5 5 5" if seat != lone else "5 5 5 5")
    form(p, lone)
    partners = [s for s in range(3) if s != lone]
    assert side_of(p, partners[0]) == side_of(p, partners[1]) == (1 if lone == 0 else 0)
    assert side_of(p, lone) == (0 if lone == 0 else 1)
    assert meld_rank(p, side_of(p, lone), "5") == (4, 0, 0)              # his own melds
    assert p.st[slots.ST_NSIDES] == 2


def test_CT10_going_out_before_any_take_makes_the_lone_hand():
    p = Position(CT).hand(2, "J J J J J J J 6 6 6 6 6 6 6 9")
    p.begin(2)
    from rules_helpers import go_out
    assert go_out(p, 2, discard="9") == DEAL_OVER
    assert p.st[slots.ST_LONE] == 2 and p.st[slots.ST_FORMED_BY] == layout.FORMED_OUT  # C6
    assert p.st[slots.ST_CONCEALED] == 1                          # R44, exempt from R27 (R30)


def test_CT10_scores_of_a_partnership_formed_by_going_out():
    p = Position(CT)
    p.meld(2, "J", "J J J J J J J").meld(2, "6", "6 6 6 6 6 6 6")
    p.meld(0, "K", "K K K JK").hand(0, "Q Q 5 3b")
    p.meld(1, "8", "8 8 8").hand(1, "A A 7").seat_red3(1, 1)
    p.set_out(2, concealed=True)
    cutthroat.form_by_out_nb(p.nb, p.S, p.buf, 2)
    assert scores(p) == [35, 135, 1305]


# ---- C9, C10: minimums and the frozen pile per player ----------------------------------------

def test_CT02_each_player_has_his_own_minimum():
    p = Position(CT, scores=(1400, 0, 3100))
    form(p, 1)
    p.begin(0)
    assert p.st[slots.ST_TURN_MIN] == 50 and p.st[slots.ST_TURN_NEEDS_MIN] == 1
    p.begin(2)
    assert p.st[slots.ST_TURN_MIN] == 120
    p.meld(side_of(p, 0), "Q", "Q Q Q").meld(side_of(p, 0), "K", "K K K")
    p.begin(2)
    assert p.st[slots.ST_TURN_NEEDS_MIN] == 0                  # C9: the partnership melded
    low = Position(CT, scores=(-200, 0, 0))
    low.begin(0)
    assert low.st[slots.ST_TURN_MIN] == 15


def test_CT03_the_first_take_needs_the_takers_own_minimum():
    p = Position(CT).hand(0, "K K Q Q Q 9 8").pile("4 K")
    assert p.can_take(0)
    assert take(p, 0, 2)
    assert p.st[slots.ST_LONE] == 0
    q = Position(CT).hand(0, "K K Q Q 5").pile("4 K")
    assert not q.can_take(0)


def test_CT05_frozen_for_an_unmelded_side_is_the_partnerships():
    p = Position(CT, scores=(0, 0, 3100)).meld(0, "5", "5 5 5")   # seat 0 melded before
    form(p, 1)
    p.hand(2, "8 JK 4 9").pile("4 8")
    assert p.can_take(2)                                       # R34 (b): the side has melded
    q = Position(CT, scores=(0, 0, 3100))
    form(q, 1)
    q.hand(2, "8 JK 4 9").pile("4 8")
    assert not q.can_take(2)                                   # frozen for the partnership
    q.hand(2, "8 8 4 9").pile("4 8")
    assert not q.can_take(2)                                   # 30 < his own 120


# ---- C7, C8: the partners' melds --------------------------------------------------------------

def ct04(rules=CT, nine2="9 9 JK"):
    p = Position(rules).meld(0, "9", "9 9 9 2").meld(2, "9", nine2).meld(2, "Q", "Q Q Q")
    return form(p, 1)


def test_CT04_separate_same_rank_melds_stay_two():
    p = ct04()
    assert meld_rank(p, 0, "9") == (3, 1, 0) and meld_rank(p, slots.DUP_ROW, "9") == (2, 0, 1)
    assert meld_rank(p, 0, "Q") == (3, 0, 0)                  # seat 2's Q meld is the side's
    p.hand(0, "9 4 5").begin(0)
    opts = p.meld_options(0)
    assert any(o[0] == "add" and o[1] == "9" for o in opts)
    assert not any(o[0] == "new" and o[1] == "9" for o in opts)        # C8: no third
    assert cutthroat.meld_owner_code_nb(p.st, p.S.melds, 0, TOKEN_TO_KIND["9"]) == 1  # seat 0


def test_CT04_merge_joins_where_legal_and_keeps_separate_where_not():
    p = ct04("cutthroat(cutthroat_same_rank_melds=merge)")
    assert meld_rank(p, 0, "9") == (5, 1, 1) and meld_rank(p, slots.DUP_ROW, "9") == (0, 0, 0)
    q = ct04("cutthroat(cutthroat_same_rank_melds=merge)", nine2="9 9 2 2 JK")
    assert meld_rank(q, 0, "9") == (3, 1, 0) and meld_rank(q, slots.DUP_ROW, "9") == (2, 2, 1)


def test_C6_C7_merge_also_applies_when_a_going_out_forms_the_partnership():
    p = Position("cutthroat(cutthroat_same_rank_melds=merge)")
    p.meld(1, "7", "7 7 7 JK").meld(2, "7", "7 7 7").meld(0, "Q", "Q Q Q")
    p.set_out(0)
    cutthroat.form_by_out_nb(p.nb, p.S, p.buf, 0)
    assert meld_rank(p, 1, "7") == (6, 0, 1) and meld_rank(p, 2, "7") == (0, 0, 0)
    assert p.score()[1]["mixed"] == 1 == p.score()[2]["mixed"]          # one canasta now


def test_C11_a_second_meld_canasta_counts_for_going_out():
    p = Position(CT).meld(0, "9", "9 9 9 9 9 9 9").meld(2, "9", "9 9 9 9 9 2 2")
    form(p, 1)
    assert p.st[slots.ST_DUP_CANASTAS] == 1
    p.hand(0, "K K K 5").begin(0)
    assert p.go_out_plans(0)                                  # two canastas: out is open
    q = Position(CT).meld(0, "9", "9 9 9 9 9 9 9")
    form(q, 1)
    q.hand(0, "K K K 5").begin(0)
    assert q.go_out_plans(0) == []                            # CT13: one canasta is not enough


def test_CT13_two_canastas_to_go_out_one_under_pagat():
    for rules, open_ in ((CT, False), ("cutthroat-pagat", True)):
        p = Position(rules).meld(0, "9", "9 9 9 9 9 9 9")
        form(p, 1)
        p.hand(0, "K K K 5").begin(0)
        assert bool(p.go_out_plans(0)) == open_


# ---- C12-C14: scoring -------------------------------------------------------------------------

def ct06(rules=CT):
    p = Position(rules)
    p.meld(0, "8", "8 8 8 8 8 2 2").meld(0, "K", "K K K").meld(2, "6", "6 6 6 6")
    p.meld(1, "Q", "Q Q Q Q Q Q Q").meld(1, "5", "5 5 5 5 5 5 JK").meld(1, "A", "A A A")
    form(p, 1)
    p.seat_red3(1, 1).seat_red3(0, 2)
    p.hand(0, "9 4").hand(2, "JK 7 7")
    return p.set_out(1)


def test_CT06_lone_hand_goes_out():
    assert scores(ct06()) == [565, 1210, 365]


def test_CT07_half_share():
    assert scores(ct06("cutthroat(cutthroat_partner_share=half)")) == [380, 1210, 180]


def test_CT08_partnership_never_melded():
    p = Position(CT).meld(1, "Q", "Q Q Q Q Q Q Q")
    form(p, 1)
    p.seat_red3(0, 2).hand(0, "K K 5").seat_red3(2, 1).hand(2, "A 2 9").set_out(1)
    assert scores(p)[0] == -275 and scores(p)[2] == -175
    half = -75 // 10 * 5
    assert half == -40                                        # 5 x floor(T / 10)


def test_CT09_a_partners_red_threes_count_plus_on_the_others_meld():
    p = Position(CT).meld(1, "Q", "Q Q Q Q Q Q Q").meld(2, "8", "8 8 8")
    form(p, 1)
    p.seat_red3(0, 2).hand(0, "K K 5").seat_red3(2, 1).hand(2, "A 2 9").set_out(1)
    assert scores(p)[0] == 155 and scores(p)[2] == 55


def test_CT11_stock_runs_out_without_a_take_everyone_scores_alone():
    p = Position(CT)
    p.meld(0, "7", "7 7 7").seat_red3(0, 1).hand(0, "K")
    p.seat_red3(1, 1).hand(1, "Q Q JK")
    p.meld(2, "A", "A A A 2").hand(2, "4 4")
    p.set_stock_end()
    assert scores(p) == [105, -170, 70]


def test_CT14_all_four_red_threes_belong_to_one_player():
    p = Position(CT).meld(0, "7", "7 7 7")
    form(p, 1)
    p.seat_red3(0, 4).set_stock_end()
    out = p.score()
    assert out[0]["red3_points"] == 800 and out[2]["red3_points"] == 0
    q = Position(CT).meld(0, "7", "7 7 7")
    form(q, 1)
    q.seat_red3(0, 2).seat_red3(2, 2).set_stock_end()
    assert [q.score()[s]["red3_points"] for s in (0, 2)] == [200, 200]


def test_CT17_game_end_and_ties():
    nb = parse_rules(CT).to_kernel()
    assert deals.game_over_nb(nb, np.array([7965, 8410, 7865])) == (layout.GAME_TARGET, 1)
    assert deals.game_over_nb(nb, np.array([7700, 7650, 7700]))[0] == deals.GAME_ON
    drawn = parse_rules("cutthroat(tie_policy=draw)").to_kernel()
    assert deals.game_over_nb(drawn, np.array([7700, 7650, 7700]))[0] == layout.GAME_DRAW


# ---- C3, C3a, C16: drawing two and the end of the stock ------------------------------------

def test_CT15_draw_two_with_a_red_three():
    p = Position(CT).hand(1, "4 4 5 5 6 6 7 7 8 8 9 9 K").stock("3h 9 5 6")
    draw(p, 1)
    assert hand_size(p, 1) == 15 and p.S.seatv[1, slots.SEAT_RED3] == 1


@pytest.mark.parametrize("rules,stock,ends", [
    (CT, "3h 9", True),
    ("cutthroat(draw2_last_red3=one_card_draw)", "3h 9", False),
    ("cutthroat(draw2_last_red3=one_card_draw)", "9 3h", False),
    ("cutthroat(draw2_last_red3=one_card_draw)", "3h 3d", True),
    ("cutthroat(draw2_last_red3=one_card_draw)", "3h", True),
    ("cutthroat(draw2_last_red3=one_card_draw)", "9 3h 3d", False),
    ("two-player(draw2_last_red3=one_card_draw)", "3h 9", False),
    ("classic(draw2_last_red3=one_card_draw)", "3h", True),
])
def test_CT16_a_red_three_among_the_last_stock_cards(rules, stock, ends):
    p = Position(rules).hand(0, "4 4 5 6 7 K")
    p.stock(stock)
    draw(p, 0)
    assert bool(p.st[slots.ST_TURN_LAST_RED3]) == ends


def test_CT16_one_card_draw_goes_on_to_the_discard_then_the_deal_ends():
    p = Position("cutthroat(draw2_last_red3=one_card_draw)").hand(0, "4 4 5 6 7 K")
    p.stock("3h 9")
    assert p.play_turn(0) == DEAL_OVER                                        # C16
    assert p.st[slots.ST_END_REASON] == layout.END_STOCK
    assert p.st[slots.ST_PILE_N] == 1                                         # he discarded


def test_CT11_CT12_the_deal_ends_after_the_last_drawers_discard():
    p = Position(CT).hand(0, "4 4 5 6 7 K").stock("9 8")
    assert p.play_turn(0) == DEAL_OVER and p.st[slots.ST_PILE_N] == 1
    q = Position("cutthroat-pagat").hand(0, "4 4 5 6 7 K").stock("9 8")
    assert q.play_turn(0) == CONTINUE                                         # R49 goes on


def test_CT12_classic_r49_forces_the_partners_take():
    p = Position("cutthroat-pagat").meld(1, "J", "J J J")
    form(p, 0)
    p.stock("").hand(2, "4 5 9").pile("6 J")
    assert options.forced_take_due_nb(p.nb, p.S, 2)


# ---- results ----------------------------------------------------------------------------------

def test_classic_rows_carry_no_lone_hand():
    from canasta_sim.runner import play_range, prepare
    for rules in ("classic", "cutthroat"):
        plan = prepare(60, 3, rules, "greedy")
        out = np.zeros((60, layout.NCOLS), np.int64)
        play_range(plan, 0, out)
        lone, by = out[:, layout.COL_LONE_SEAT], out[:, layout.COL_FORMED_BY]
        assert (out[:, layout.COL_CHECK_FAILS] == 0).all()
        if rules == "classic":
            assert (lone == -1).all() and (by == 0).all()
        else:
            assert ((lone >= 0) == (by > 0)).all() and (by > 0).mean() > 0.5


# ---- what the players see and do (docs/cutthroat.md) ------------------------------------------

def test_the_view_shows_roles_sides_and_the_forming_take():
    from canasta_sim.kernels.players import user
    p = Position(CT).seat_red3(2, 1)
    view = np.zeros(user.VIEW_LEN, np.int64)

    def fill(seat):
        user.fill_view_nb(p.nb, p.S.hands, p.S.melds, p.S.pile, p.st, p.S.seatv, p.S.sidev,
                          p.S.ws[slots.WS_UNSEEN], seat, view)
        return view
    fill(0)
    assert view[user.V_LONE] == -1 and view[user.V_TAKE_FORMS] == 1             # C0.1
    assert list(view[user.V_SEAT_SIDE:user.V_SEAT_SIDE + 3]) == [0, 1, 2]
    assert view[user.V_SEAT_RED3 + 2] == 1 and view[user.V_SEAT_MINIMUM + 0] == 50
    form(p, 1)
    fill(0)
    assert view[user.V_LONE] == 1 and view[user.V_TAKE_FORMS] == 0
    assert view[user.V_FORMED_BY] == layout.FORMED_TAKE
    assert view[user.V_SEAT_SIDE + 0] == view[user.V_SEAT_SIDE + 2] != view[user.V_SEAT_SIDE + 1]


@pytest.mark.parametrize("pile_cards,takes", [(6, False), (22, True)])
def test_careful_makes_the_first_take_only_for_a_big_pile(pile_cards, takes):
    """The first take makes the taker the lone hand (C5): careful takes it only for a pile of
    5 x min_pile_take (20) cards or more; greedy takes whatever it can."""
    pile = " ".join(["4", "5", "6", "7", "9", "10"] * 4)
    pile = " ".join(pile.split()[:pile_cards - 1] + ["K"])
    for policy, expect in (("careful", takes), ("greedy", True)):
        p = Position(CT).policies(policy, policy, policy).hand(0, "K K Q Q Q J 8")
        p.pile(pile).stock("4 5 6 7")
        p.play_turn(0)
        assert (p.st[slots.ST_LONE] == 0) == expect, policy


def test_the_balance_example_reads_a_games_run():
    """examples/cutthroat_balance.py (docs/cutthroat.md, Balance) on a small run."""
    import importlib.util
    from pathlib import Path

    import canasta_sim
    path = Path(__file__).resolve().parents[1] / "examples" / "cutthroat_balance.py"
    spec = importlib.util.spec_from_file_location("cutthroat_balance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    games, deals_table = canasta_sim.simulate(games=20, seed=3, rules=CT, policies="careful")
    out = module.balance(canasta_sim.to_pandas(games), canasta_sim.to_pandas(deals_table))
    assert out["games"] == 20 and out["deals"] == len(deals_table)
    assert abs(out["formed_take"] + out["formed_going_out"] + out["formed_none"] - 1) < 1e-9
    assert 0 <= out["lone_wins_deal"] <= 1


@pytest.mark.parametrize("policy", ["greedy", "careful", "rush", "builder", "expert"])
def test_C11_players_count_a_second_meld_canasta_when_they_go_out(policy):
    """The players' own survey of the hand (greedy_ranks_nb) counts the partnership's second
    melds' canastas as the rules do (C11): with one canasta on the main melds and one among
    the second melds, a partner holding one card that fits goes out.  (Before, the survey
    saw one canasta, ruled going out out and left the club players no legal step.)"""
    p = Position(CT).meld(1, "K", "K K K K K 2 2").meld(1, "5", "5 5 5")
    p.meld(1, "Q", "Q Q 2").meld(2, "Q", "Q Q Q Q Q 2 2")
    form(p, 0)
    assert p.st[slots.ST_DUP_CANASTAS] == 1
    p.hand(1, "5").policies(policy, policy, policy).begin(1)
    kind = switch.choose_meld_step_nb(p.nb, p.S, p.buf, 1, p.table, False, False)[0]
    assert kind == options.OPT_GO_OUT


@pytest.mark.parametrize("policy,lone,goes_out", [
    ("expert", 0, False),     # a partner with a lead of go_out_margin or more plays on
    ("expert", 1, True),      # the lone hand goes out once it has its canastas
    ("careful", 0, True),     # careful goes out as soon as it has them, in any role
])
def test_expert_partner_with_the_lead_plays_on(policy, lone, goes_out):
    """C13: two partners meld onto one table and each scores its total, so ``expert`` as a
    partner weighs going out by the lead (``go_out_margin``, 300) even with the canastas it
    wants (club.leads_as_partner_nb); as the lone hand it goes out as in classic."""
    p = Position(CT)
    p.meld(1, "K", "K K K K K K K").meld(1, "Q", "Q Q Q Q Q Q Q").meld(0, "6", "6 6 6")
    form(p, lone)
    seat = 1                                 # a partner (lone 0) or the lone hand (lone 1)
    others = [s for s in range(3) if s != seat]
    p.hand(seat, "5 5 5 9").hand(others[0], "4 4 7 7 8 8 J J").hand(others[1], "4 7 8 J A A A 9")
    p.policies(policy, policy, policy).begin(seat)
    assert p.go_out_plans(seat)
    kind = switch.choose_meld_step_nb(p.nb, p.S, p.buf, seat, p.table, False, False)[0]
    assert (kind == options.OPT_GO_OUT) == goes_out
