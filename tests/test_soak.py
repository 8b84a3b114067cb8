"""Random-play soak: many whole deals through the entry kernel ``play_deals_nb`` with the
card-conservation check on (``check=1``: the kernel verifies after every turn that hands,
melds, pile, stock and red-three areas hold exactly the deck, R2), then sanity facts on
every result row."""
import numpy as np
import pytest
from canasta_sim.kernels.game import layout
from canasta_sim.kernels.game.state import red3_points_nb
from canasta_sim.kernels.play.tasks import play_deals_nb

from canasta_sim.rules import PLAYABLE_PRESETS
from canasta_sim.runner import prepare


def play(rules, policies, deals, seed, scores=None):
    plan = prepare(deals, seed, rules, policies, scores)
    out = np.zeros((deals, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, plan.seed, 0, out, plan.policy_ids, plan.params,
                  plan.scores_before, 1)
    return plan, out


def col(out, side, field):
    return out[:, layout.SIDE_BASE + layout.SIDE_STRIDE * side + field]


def score_items(out, k):
    """Side (or, in cutthroat, seat) ``k``'s score and its items (R56): score, melds,
    canasta bonuses, red threes, going-out bonus, hand."""
    return tuple(col(out, k, f) for f in (layout.S_SCORE, layout.S_MELDS,
                                          layout.S_CANASTA_BONUS, layout.S_RED3_POINTS,
                                          layout.S_OUT_BONUS, layout.S_HAND))


def check_rows(plan, out):
    """Facts every row must satisfy under any rule set; returns the end reasons."""
    if plan.rules.team_layout == "cutthroat3":
        return check_cutthroat_rows(plan, out)
    r = plan.rules
    sides = r.num_sides
    end = check_common_rows(plan, out)
    out_seat = out[:, layout.COL_OUT_SEAT]
    concealed = out[:, layout.COL_CONCEALED]
    red3_total = sum(col(out, k, layout.S_RED3) for k in range(sides))
    assert (red3_total <= 2 * r.num_packs).all()                          # R3
    red3_table = np.array([red3_points_nb(plan.rules_nb, n) for n in range(2 * r.num_packs + 1)])
    for k in range(sides):
        score, melds, bonus, red3, out_bonus, hand = score_items(out, k)
        assert (score == melds + bonus + red3 + out_bonus + hand).all()   # R56 identity
        for items in (score, melds, bonus, red3, out_bonus, hand):
            assert (items % 5 == 0).all()                                 # R4
        assert (hand <= 0).all() and (melds >= 0).all()                  # R54, R55
        natural, mixed = col(out, k, layout.S_NATURAL), col(out, k, layout.S_MIXED)
        if r.concealed_canasta_bonus == 0:
            assert (bonus == natural * r.natural_canasta_bonus
                    + mixed * r.mixed_canasta_bonus).all()               # R51
        went_out = (end == layout.END_OUT) & (out_seat % sides == k)
        want_out = np.where(went_out, np.where(concealed == 1, r.concealed_going_out_bonus,
                                               r.going_out_bonus), 0)
        assert (out_bonus == want_out).all()                              # R43, R50, R53
        assert (natural + mixed >= went_out * r.canastas_to_go_out).all()  # R40
        n_red3 = col(out, k, layout.S_RED3)
        unsigned = red3_table[n_red3]
        melded = col(out, k, layout.S_MELDED) == 1
        assert (red3 == np.where(melded, unsigned, -unsigned)).all()      # R52, R57
        assert (melded | (melds == 0)).all()                              # R24, R26
        assert (col(out, k, layout.S_RED3_DEALT) <= n_red3).all()        # R9
    return end


def check_common_rows(plan, out):
    """The facts of a row that do not depend on who is on which side; returns the end
    reasons."""
    r = plan.rules
    seats = r.num_players
    stock_after_deal = r.deck_size - seats * r.hand_size
    assert (out[:, layout.COL_CHECK_FAILS] == 0).all()                   # R2 every turn
    assert (out[:, layout.COL_TRACE_OVERFLOW] == 0).all()
    end = out[:, layout.COL_END_REASON]
    assert set(np.unique(end)) <= {layout.END_OUT, layout.END_STOCK}      # R59
    out_seat = out[:, layout.COL_OUT_SEAT]
    assert ((out_seat == -1) == (end == layout.END_STOCK)).all()          # R39, R47, R49
    assert ((out_seat >= -1) & (out_seat < seats)).all()
    concealed = out[:, layout.COL_CONCEALED]
    assert (concealed[end == layout.END_STOCK] == 0).all()               # concealed only out
    assert ((out[:, layout.COL_DEALER] >= 0) & (out[:, layout.COL_DEALER] < seats)).all()  # R5
    assert (out[:, layout.COL_UPCARDS] >= 1).all()                       # R7
    assert (out[:, layout.COL_STOCK_LEFT] <= stock_after_deal).all()     # R6
    assert set(np.unique(concealed)) <= {0, 1}
    assert (out[:, layout.COL_STOCK_LEFT][end == layout.END_STOCK] == 0).all()   # R45
    return end


def check_cutthroat_rows(plan, out):
    """Facts every cutthroat row must satisfy (C1-C17): column group k is seat k's; the lone
    hand and formation columns agree with the end; partners show the partnership's items and
    each scores its total T (C13) plus his own red threes (C4, C12)."""
    r = plan.rules
    end = check_common_rows(plan, out)
    out_seat = out[:, layout.COL_OUT_SEAT]
    concealed = out[:, layout.COL_CONCEALED]
    lone = out[:, layout.COL_LONE_SEAT]
    formed = out[:, layout.COL_FORMED_BY]
    assert ((lone >= -1) & (lone < 3)).all()
    assert ((lone == -1) == (formed == layout.FORMED_NONE)).all()         # C5, C6, C14
    by_out = formed == layout.FORMED_OUT
    assert (lone[by_out] == out_seat[by_out]).all()                       # C6
    assert ((end == layout.END_OUT) | (formed != layout.FORMED_OUT)).all()
    red3_total = sum(col(out, k, layout.S_RED3) for k in range(3))
    assert (red3_total <= 2 * r.num_packs).all()                          # R3
    red3_table = np.array([red3_points_nb(plan.rules_nb, n) for n in range(2 * r.num_packs + 1)])
    items = (layout.S_MELDS, layout.S_NATURAL, layout.S_MIXED, layout.S_CANASTA_BONUS,
             layout.S_OUT_BONUS, layout.S_HAND, layout.S_MELDED)
    for k in range(3):
        partner = (lone >= 0) & (lone != k)
        mate = np.where(partner, 3 - k - lone, k)           # the other partner (else the seat)
        for item in items:                                  # C7, C13: one side, one set of items
            mine, theirs = col(out, k, item), out[np.arange(len(out)), layout.SIDE_BASE
                                                 + layout.SIDE_STRIDE * mate + item]
            assert (mine[partner] == theirs[partner]).all()
        score, melds, bonus, red3, out_bonus, hand = score_items(out, k)
        whole = melds + bonus + out_bonus + hand
        share = whole
        if r.cutthroat_partner_share == "half":
            share = np.where(partner, 5 * (whole // 10), whole)          # C13 half
        assert (score == share + red3).all()                              # C13, R56 identity
        for it in (score, melds, bonus, red3, out_bonus, hand):
            assert (it % 5 == 0).all()                                    # R4
        assert (hand <= 0).all() and (melds >= 0).all()                  # R54, R55
        went_out = (end == layout.END_OUT) & ((out_seat == k) | (partner & (out_seat == mate)))
        want_out = np.where(went_out, np.where(concealed == 1, r.concealed_going_out_bonus,
                                               r.going_out_bonus), 0)
        assert (out_bonus == want_out).all()                              # R43, C11
        natural, mixed = col(out, k, layout.S_NATURAL), col(out, k, layout.S_MIXED)
        assert (natural + mixed >= went_out * r.canastas_to_go_out).all()  # C11
        n_red3 = col(out, k, layout.S_RED3)
        melded = col(out, k, layout.S_MELDED) == 1
        assert (red3 == np.where(melded, red3_table[n_red3], -red3_table[n_red3])).all()  # C12
        assert (melded | (melds == 0)).all()                              # R24, R26
        assert (col(out, k, layout.S_RED3_DEALT) <= n_red3).all()        # R9, C4
    return end


@pytest.mark.parametrize("policies", ["random", "greedy"])
def test_soak_10000_deals(policies):
    plan, out = play("classic", policies, 10_000, 2024)
    end = check_rows(plan, out)
    assert (end == layout.END_OUT).mean() > 0.9                           # R45
    if policies == "random":
        assert (end == layout.END_STOCK).sum() > 50                       # R47/R49 exercised
        assert (out[:, layout.COL_CONCEALED] == 1).sum() > 0             # R44 exercised
    scores = np.concatenate([col(out, k, layout.S_SCORE) for k in range(2)])
    assert (scores < 0).any()                                             # R58


@pytest.mark.parametrize("rules,scores", [
    ("seed-a", None), ("seed-b", None), ("classic(upcard_cover_set=wild_red3)", None),
    ("classic(last_card_red3_may_meld=true)", None), ("classic", [1600, 3100]),
    ("classic", [-500, 4990]), ("classic(canastas_to_go_out=2)", None),
])
@pytest.mark.parametrize("policies", ["random", "greedy", "random,greedy,greedy,random"])
def test_soak_variants(rules, scores, policies):
    plan, out = play(rules, policies, 1500, 7, scores)
    check_rows(plan, out)


@pytest.mark.parametrize("preset", list(PLAYABLE_PRESETS))
@pytest.mark.parametrize("policies", ["random", "greedy", "careful", "rush", "builder", "expert"])
def test_soak_every_preset(preset, policies):
    """Every preset: card conservation after every turn and the score identity on every row."""
    plan, out = play(preset, policies, 1500, 31)
    end = check_rows(plan, out)
    assert (end == layout.END_OUT).any()


@pytest.mark.parametrize("rules", [
    "cutthroat(cutthroat_partner_share=half)", "cutthroat(cutthroat_same_rank_melds=merge)",
    "cutthroat(cutthroat_stock_end=classic_r49)", "cutthroat(draw2_last_red3=one_card_draw)",
    "cutthroat-pagat(cutthroat_partner_share=half,cutthroat_same_rank_melds=merge)",
])
@pytest.mark.parametrize("policies", ["random", "greedy", "random,greedy,careful"])
def test_soak_cutthroat_knobs(rules, policies):
    """Every cutthroat knob value: card conservation every turn and the per-seat identities."""
    plan, out = play(rules, policies, 1500, 11)
    end = check_rows(plan, out)
    assert (out[:, layout.COL_LONE_SEAT] >= 0).any() and (end == layout.END_OUT).any()
