"""Cumulative scores and the end of the game: RULES.md R5, R58-R60, worked examples T45-T46.

The game loop lives in ``kernels/play/deals.py``: cumulative scores (R58), the deal passing
clockwise (R5), the game end (R59) and ties (R60).  Its end-of-game decision is checked
against the reference ``naive.game_result``, and whole games are checked row by row.
"""
import naive
import numpy as np
import pytest
from canasta_sim.kernels.game import layout, state
from canasta_sim.kernels.play.deals import GAME_ON, game_over_nb
from canasta_sim.kernels.play.tasks import play_deals_nb
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_replay import traced

from canasta_sim.rules import parse_rules
from canasta_sim.runner import prepare
from canasta_sim.simulation import simulate

CLASSIC = parse_rules("classic").to_kernel()


@pytest.mark.parametrize("finish,minimum", [(1495, 50), (1500, 90), (-5, 15), (2995, 90),
                                            (3000, 120), (-1000, 15), (0, 50)])
def test_T46_bracket_is_read_at_the_start_of_each_deal(finish, minimum):
    assert state.initial_minimum_nb(CLASSIC, finish) == minimum          # R27, R58
    assert naive.initial_minimum(finish) == minimum


def test_T46_next_deal_starts_from_the_cumulative_score():
    """A deal played with scores_before = (1495, 1500) shows them in its trace and uses
    50 and 90 as the minimums (checked through the first melds by the trace replay)."""
    from rules_replay import by_rule, replayed
    deals = traced("classic", "greedy", 3, 0, 40, (1495, 1500))
    assert all(d[0]["scores_before"] == [1495, 1500] for d in deals)     # R58
    violations, facts = replayed("classic", "greedy", 3, 0, 40, (1495, 1500))
    assert by_rule(violations, "R26", "R35") == []                       # R27 per side
    assert facts["initial_melds_min_90"] > 0


def test_R58_negative_cumulative_score_needs_15():
    for score in (-5, -230, -10_000):
        assert state.initial_minimum_nb(CLASSIC, score) == 15            # R58 -> R27
    from rules_replay import by_rule, replayed
    violations, facts = replayed("classic", "greedy", 3, 0, 40, (-230, -5))
    assert by_rule(violations, "R26", "R35") == []
    assert facts["initial_melds_min_15"] > 0                             # R58: played with 15


def test_R58_deal_scores_can_be_negative_in_real_deals():
    plan = prepare(2000, 4, "classic", "random", [-230, 100])
    out = np.zeros((2000, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, plan.seed, 0, out, plan.policy_ids, plan.params,
                  plan.scores_before, 1)
    scores = out[:, [layout.SIDE_BASE + layout.SIDE_STRIDE * k + layout.S_SCORE for k in (0, 1)]]
    assert (scores < 0).any()                                            # R58
    assert (out[:, layout.COL_CHECK_FAILS] == 0).all()


def test_R59_every_deal_is_played_to_its_end():
    """R59 (first sentence): a deal once begun always ends, by going out or by the stock.
    The game end itself is tested on whole games below."""
    for policies in ("random", "greedy"):
        for events in traced("classic", policies):
            assert events[-2]["ev"] == "end" and events[-1]["ev"] == "score"   # R59
            assert events[-2]["reason"] in ("out", "stock")


def test_R59_R60_game_knobs_have_the_spec_defaults():
    r = parse_rules("classic")
    assert r.game_target == 5000 and r.tie_policy == "extra_deal"        # R59, R60
    assert parse_rules("classic(tie_policy=draw)").tie_policy == "draw"
    assert parse_rules("six-player").game_target == 10000
    assert parse_rules("six-player-3x2").game_target == 7500


def _game_over(rules, totals):
    """The engine's end-of-game decision in naive.game_result's terms."""
    cum = np.zeros(layout.MAX_SIDES, np.int64)
    cum[:len(totals)] = totals
    ended, winner = game_over_nb(parse_rules(rules).to_kernel(), cum)
    if ended == GAME_ON:
        return "tie" if max(totals) >= parse_rules(rules).game_target else None
    return "draw" if ended == layout.GAME_DRAW else winner


def test_T45_game_end():
    """T45: the game ends after the deal in which a side reaches 5,000 (exactly 5,000 is
    enough: ">= game_target"); the higher total wins, even if the other side crossed; a tie at
    the top plays another deal by default (R59, R60)."""
    x, y = 4990 + 15, 4800 + 150
    assert (x, y) == (5005, 4950)
    for totals, expected in (([x, y], 0), ([5005, 5100], 1), ([5005, 5005], "tie"),
                             ([4995, 4950], None),
                             ([5000, 4950], 0), ([4995, 5000], 1),        # R59: exactly 5,000
                             ([5000, 5000], "tie"), ([4995, 4995], None)):
        assert naive.game_result(totals) == expected, totals
        assert _game_over("classic", totals) == expected, totals         # R59, R60
    assert naive.game_result([5005, 5005], tie_policy="draw") == "draw"
    assert _game_over("classic(tie_policy=draw)", [5005, 5005]) == "draw"   # R60
    assert _game_over("classic(tie_policy=draw)", [5000, 5000]) == "draw"   # R60 at exactly 5,000
    assert _game_over("classic(game_target=7500)", [7500, 7495]) == 0       # R59 for any target
    assert _game_over("classic(game_target=7500)", [7495, 7000]) is None
    # both sides need 120 next deal if play went on
    assert state.initial_minimum_nb(CLASSIC, x) == state.initial_minimum_nb(CLASSIC, y) == 120


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3000, 12000), min_size=2, max_size=3),
       st.sampled_from(["extra_deal", "draw"]), st.sampled_from([5000, 7500, 100]))
def test_R59_R60_game_end_matches_the_reference(totals, tie_policy, target):
    preset = "classic" if len(totals) == 2 else "six-player-3x2"
    rules = f"{preset}(game_target={target},tie_policy={tie_policy})"
    if target == parse_rules(preset).game_target:
        rules = f"{preset}(tie_policy={tie_policy})" if tie_policy == "draw" else preset
    assert _game_over(rules, totals) == naive.game_result(totals, target, tie_policy)


@pytest.mark.parametrize("rules,policies", [("classic", "greedy"), ("classic", "random"),
                                            ("three-player", "greedy"),
                                            ("six-player-3x2", "random")])
def test_R5_R58_R59_whole_games_row_by_row(rules, policies):
    games, deals = simulate(games=60, seed=12, rules=rules, policies=policies)
    parsed = parse_rules(rules)
    g, d = games.to_pandas(), deals.to_pandas()
    sides = range(parsed.num_sides)
    for game, rows in d.groupby("game"):
        row = g[g.game == game].iloc[0]
        assert list(rows.deal_in_game) == list(range(len(rows))) and row.deals == len(rows)
        dealers = [(row.first_dealer + k) % parsed.num_players for k in range(len(rows))]
        assert list(rows.dealer) == dealers                              # R5
        for k in sides:
            cum = rows[f"s{k}_cum_before"].to_numpy()
            score = rows[f"s{k}_score"].to_numpy()
            assert cum[0] == 0 and (cum[1:] == (cum + score)[:-1]).all()  # R58
            assert row[f"s{k}_final"] == cum[-1] + score[-1]
        finals = [row[f"s{k}_final"] for k in sides]
        before_last = [rows[f"s{k}_cum_before"].iloc[-1] for k in sides]
        assert max(before_last) < parsed.game_target or len(rows) == 1 or \
            before_last.count(max(before_last)) > 1                     # R59: not over earlier
        assert max(finals) >= parsed.game_target                         # R59
        assert row.ended == "target" and row.winner == int(np.argmax(finals))


def test_R60_a_tie_is_a_draw_or_plays_on():
    """With a target of 1 almost every game ends after one deal; ties at the top happen when
    both sides score the same.  extra_deal plays on, draw stops with winner -1."""
    for tie_policy in ("extra_deal", "draw"):
        games, deals = simulate(games=3000, seed=2, policies="random",
                                rules=f"classic(game_target=1,tie_policy={tie_policy})")
        g = games.to_pandas()
        tied = g[g.s0_final == g.s1_final]
        if tie_policy == "draw":
            assert len(tied) > 0 and (tied.ended == "draw").all() and (tied.winner == -1).all()
        else:
            assert (g.ended == "target").all() and len(tied) == 0        # R60: played on
            assert (g.deals > 1).any()


def test_a_game_that_never_ends_is_cut_off():
    games, deals = simulate(games=1, seed=1, rules="classic(game_target=10000000)")
    row = games.to_pylist()[0]
    assert row["ended"] == "cut" and row["winner"] == -1
    assert row["deals"] == layout.MAX_GAME_DEALS == deals.num_rows
