"""The Modern American equity table (docs/analysis.md, "Modern American"; equity.py): from
the family's games to 8,500 with its minimums by score (A24), a Dream Hand winning at once
(A53, A54); a chance that grows with the score, the same pair seen from both sides, close to
the games it is checked against; ``analyze --equity`` values a family deal in win chance."""
import json

import numpy as np
import pytest
from test_american_analysis import _deals
from test_american_luck import analysed
from test_analysis import _cli

from canasta_sim.analysis import equity as E
from canasta_sim.kernels.game import layout
from canasta_sim.rules import parse_rules


@pytest.fixture(scope="module")
def family_table():
    return E.build_table("modern-american", "expert", games=60, step=1000, seed=1, threads=2)


def test_the_family_table_is_a_chance_that_grows_with_the_score(family_table):
    table = family_table
    assert table["rules"].startswith("modern-american") and table["target"] == 8500
    assert table["scores"][0] == E.LOW and table["scores"][-1] == 8000
    win = np.array(table["win"])
    assert np.allclose(win + win.T, 1.0, atol=1e-6)             # the two views agree
    assert np.all(np.diff(win, axis=0) >= -1e-9)                # more points, more chance
    assert np.all(np.diff(win, axis=1) <= 1e-9)                 # the other's points, less
    assert np.all(np.array(table["ci_low"]) <= win + 1e-9)
    assert np.all(win <= np.array(table["ci_high"]) + 1e-9)
    by_dealer = np.array(table["win_dealer"])
    assert np.allclose(by_dealer[0] + by_dealer[1].T, 1.0, atol=1e-6)
    loaded = E.EquityTable(table["scores"], win, table["target"], by_dealer)
    assert loaded.win_array(0, 0) == pytest.approx(0.5)
    assert loaded.win_array(8600, 8000) == 1.0 and loaded.win_array(8000, 8600) == 0.0
    assert loaded.win_array(7000, 1000) > 0.8 > 0.2 > loaded.win_array(1000, 7000)


def test_the_family_minimums_set_the_deal_score_groups():
    """A24: 125 below 3,000 (negatives too), 155 from 3,000, 180 from 5,000."""
    meld_table = list(parse_rules("modern-american").initial_meld_table)
    levels = [E.minimum_level(meld_table, s) for s in (-800, 0, 2995, 3000, 4995, 5000, 8000)]
    assert levels == [0, 0, 0, 1, 1, 2, 2]
    assert [meld_table[lv][1] for lv in (0, 1, 2)] == [125, 155, 180]


def test_a_dream_hand_wins_the_game_whatever_the_scores():
    deals = np.zeros((2, layout.NCOLS), np.int64)
    deals[1, layout.COL_MAC_GAME_OVER] = 1
    deals[1, layout.COL_MAC_SPECIAL_SEAT] = 3                   # side 1's Dream Hand
    score = np.array([[400, -200], [300, 8500]])
    out = E.dream_hands_win(score, deals, 8500)
    assert out[0].tolist() == [400, -200] and out[1, 0] == 300
    table = E.EquityTable([E.LOW, 0.0], [[0.5, 0.3], [0.7, 0.5]], 8500)
    assert table.win_array(E.LOW + out[1, 1], 8000 + out[1, 0]) == 1.0


def test_the_family_table_is_close_to_the_games_it_is_checked_against(family_table):
    """Other games (seed 2): at the start of each deal the table's chance for side 0 against
    whether side 0 won; on average close, and a side the table favours wins more often."""
    table = E.EquityTable(family_table["scores"], family_table["win"],
                          family_table["target"], family_table["win_dealer"])
    predicted, observed = E.check_against_games(table, "modern-american", games=60, seed=2,
                                                threads=2)
    assert len(predicted) == len(observed) > 200
    assert np.all((predicted >= 0) & (predicted <= 1))
    assert abs(predicted.mean() - observed.mean()) < 0.1
    assert observed[predicted > 0.6].mean() > observed[predicted < 0.4].mean() + 0.2
    rows = E.calibration_rows(predicted, observed)
    assert sum(r[2] for r in rows) == len(predicted)


def test_analyze_a_family_deal_with_an_equity_table(tmp_path, family_table):
    eq = E.write_table(family_table, tmp_path / "eq.json")[0]
    summary = analysed(tmp_path, "an", "--seats", "1", "--rollouts", "40", "--equity", str(eq))
    values = [o["value"] for x in (tmp_path / "an" / "analysis.jsonl").read_text().splitlines()
              for o in json.loads(x)["options"] if o["value"] is not None]
    assert values and all(0.0 <= v <= 1.0 for v in values)
    assert summary["unit"] == "win"
    luck = summary["luck"][0][0]
    assert 0.0 <= luck["result"] <= 1.0 and -1.0 <= luck["luck"] <= 1.0


def test_analyze_a_family_position_file_with_an_equity_table(tmp_path, family_table):
    from canasta_sim.analysis.families import deal_script, position_of

    eq = E.write_table(family_table, tmp_path / "eq.json")[0]
    script = deal_script(_deals(seed=7)[0])
    decision = [d for d in script.decisions if d.kind == "discard"][5]
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(position_of(script, decision)))
    result = _cli(["analyze", str(position), "--rollouts", "40", "--equity", str(eq),
                   "--out", str(tmp_path / "p")])
    assert result.exit_code == 0, result.stderr
    (line,) = [json.loads(x) for x in (tmp_path / "p" / "analysis.jsonl").read_text()
               .splitlines()]
    assert line["decision"] == "discard" and len(line["options"]) > 1
    assert all(0.0 <= o["value"] <= 1.0 for o in line["options"])
