"""Pins before the kernels move: the red-three table of the three-pack (six-player) presets.

RULES.md 3.2 (6p) and 2.11 "Six-player red threes": 100 each up to four, then 1000 for five
and 1200 for six; ``red3_all_four_total`` applies to two-pack decks only.  R52 scores them
plus for a side that has melded, R57 minus for a side that has not.  Positions are scored by
the engine's ``score_deal_nb`` (``Position.score``), as in tests/test_rules_scoring.py.
"""
import pytest
from canasta_sim.kernels.game import state
from scenario import Position

from canasta_sim.rules import parse_rules

SIX_PLAYER_RED3 = {0: 0, 1: 100, 2: 200, 3: 300, 4: 400, 5: 1000, 6: 1200}   # RULES.md 2.11


@pytest.mark.parametrize("preset", ["six-player", "six-player-3x2"])
def test_the_presets_use_three_packs(preset):
    r = parse_rules(preset)
    assert (r.num_packs, r.num_jokers, r.red3_bonus_each) == (3, 6, 100)      # RULES.md 3.2


@pytest.mark.parametrize("preset", ["six-player", "six-player-3x2"])
@pytest.mark.parametrize("count", range(7))
def test_red3_points_by_count(preset, count):
    nb = parse_rules(preset).to_kernel()
    assert state.red3_points_nb(nb, count) == SIX_PLAYER_RED3[count]


@pytest.mark.parametrize("count", range(7))
def test_six_player_two_sides_deal_score(count):
    """six-player (two sides of three): side 0 melded K-K-K (30) and holds ``count`` red
    threes, side 1 never melded and holds the other 6 - count (three packs hold six)."""
    p = Position("six-player").meld(0, "K", "K K K").red3(0, count).red3(1, 6 - count)
    s = p.set_stock_end().score()
    assert s[0]["red3_points"] == SIX_PLAYER_RED3[count]                      # R52
    assert s[0]["score"] == SIX_PLAYER_RED3[count] + 30                       # R54, R56
    assert s[1]["red3_points"] == -SIX_PLAYER_RED3[6 - count]                 # R57
    assert s[1]["score"] == -SIX_PLAYER_RED3[6 - count]


@pytest.mark.parametrize("count", range(7))
def test_six_player_three_sides_deal_score(count):
    """six-player-3x2 (three sides of two): side 1 melded 8-8-8 (30) and holds ``count``
    red threes, side 2 never melded and holds the rest, side 0 melded and holds none."""
    p = Position("six-player-3x2").meld(0, "5", "5 5 5").meld(1, "8", "8 8 8")
    s = p.red3(1, count).red3(2, 6 - count).set_stock_end().score()
    assert [side["red3_points"] for side in s] == \
        [0, SIX_PLAYER_RED3[count], -SIX_PLAYER_RED3[6 - count]]              # R52, R57
    assert [side["score"] for side in s] == \
        [15, SIX_PLAYER_RED3[count] + 30, -SIX_PLAYER_RED3[6 - count]]


def test_all_four_total_is_for_two_pack_decks_only():
    """RULES.md 2.11: red3_all_four_total applies to two-pack decks; with three packs four
    red threes are still 4 x 100 (and five 1000), whatever the knob says."""
    nb = parse_rules("six-player(red3_all_four_total=1000)").to_kernel()
    assert [state.red3_points_nb(nb, n) for n in range(7)] == \
        [SIX_PLAYER_RED3[n] for n in range(7)]
