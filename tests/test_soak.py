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


def check_rows(plan, out):
    """Facts every row must satisfy under any rule set; returns the end reasons."""
    r = plan.rules
    sides, seats = r.num_sides, r.num_players
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
    assert set(np.unique(concealed)) <= {0, 1}
    assert ((out[:, layout.COL_DEALER] >= 0) & (out[:, layout.COL_DEALER] < seats)).all()  # R5
    assert (out[:, layout.COL_UPCARDS] >= 1).all()                       # R7
    assert (out[:, layout.COL_STOCK_LEFT][end == layout.END_STOCK] == 0).all()   # R45
    assert (out[:, layout.COL_STOCK_LEFT] <= stock_after_deal).all()     # R6
    red3_total = sum(col(out, k, layout.S_RED3) for k in range(sides))
    assert (red3_total <= 2 * r.num_packs).all()                          # R3
    red3_table = np.array([red3_points_nb(plan.rules_nb, n) for n in range(2 * r.num_packs + 1)])
    for k in range(sides):
        score = col(out, k, layout.S_SCORE)
        melds = col(out, k, layout.S_MELDS)
        bonus = col(out, k, layout.S_CANASTA_BONUS)
        red3 = col(out, k, layout.S_RED3_POINTS)
        out_bonus = col(out, k, layout.S_OUT_BONUS)
        hand = col(out, k, layout.S_HAND)
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
