"""The luck of a Modern American deal (docs/analysis.md, "Modern American"; luck in
canasta_sim/analysis/deal.py): the value of drawing before a draw and the value just after it
agree on average, and the summary's luck adds up."""
import json

import numpy as np
from test_american_analysis import _deals, _settings, _trace_file
from test_analysis import _cli

from canasta_sim.analysis import deal as D
from canasta_sim.analysis.families import deal_script


def _draw_gaps(seed, deals, rollouts, draws_per_deal):
    """After - before of the first draws of every seat of ``deals`` deals of expert."""
    settings = _settings(n=rollouts, seed=1, threads=2)
    gaps = []
    for deal_no, events in enumerate(_deals(seed=seed, n=deals)):
        script = deal_script(events)
        for seat in range(script.seats):
            draws = [(d, out) for d, out in D.mac_draws(script, seat) if d.played == "draw"]
            for d, out in draws[:draws_per_deal]:
                side = seat % 2
                before = D.mac_value_of_drawing(script, d, settings, deal_no, side, [])
                after = D.mac_value_after_draw(script, d, out, settings, deal_no, side)
                gaps.append(after - before)
    return np.array(gaps)


def test_values_before_and_after_a_family_draw_agree_on_average():
    """Luck is the value after a draw less the value of drawing: over many draws it averages
    zero (as classic's, test_analysis.py), within four standard errors and 20 points."""
    gaps = _draw_gaps(seed=11, deals=10, rollouts=120, draws_per_deal=2)
    assert len(gaps) >= 60
    se = gaps.std(ddof=1) / np.sqrt(len(gaps))
    assert abs(gaps.mean()) < 4 * se + 20


def test_every_take_decision_of_a_seat_is_paired_with_its_turn():
    """Each take decision of a seat comes with the going-out point of the same turn, or with
    none only where the deal ended within that draw (the last take of the deal)."""
    events = _deals(seed=7)[0]
    script = deal_script(events)
    for seat in range(script.seats):
        pairs = D.mac_draws(script, seat)
        assert pairs
        for d, out in pairs:
            assert out is None or (out.turn == d.turn and out.seat == seat and out.at > d.at)
        ended = [d for d, out in pairs if out is None]
        last_turn = max(d.turn for d in script.decisions if d.kind == "take")
        assert all(d.turn == last_turn for d in ended)


def analysed(tmp_path, name, *args) -> dict:
    """``analyze`` of deal 0 of seed 7 (expert) with ``args`` into ``tmp_path / name``: its
    summary."""
    trace = _trace_file(tmp_path, _deals(seed=7)[0])
    result = _cli(["analyze", str(trace), *args, "--out", str(tmp_path / name)])
    assert result.exit_code == 0, result.stderr
    return json.loads((tmp_path / name / "summary.json").read_text())


def test_the_summary_holds_each_seats_luck_and_it_adds_up(tmp_path):
    luck = analysed(tmp_path, "an", "--seats", "0,1", "--rollouts", "48")["luck"][0]
    assert [x["seat"] for x in luck] == [0, 1]
    for x in luck:
        assert x["draws"]
        assert abs(x["luck"] - x["deal_luck"] - sum(d["luck"] for d in x["draws"])) < 1e-6
        assert abs(x["adjusted"] - (x["result"] - x["luck"])) < 1e-9
    # the two sides' results are opposite in points (each side's score less the other's)
    assert abs(luck[0]["result"] + luck[1]["result"]) < 1e-9
    none = analysed(tmp_path, "none", "--seats", "0", "--rollouts", "32", "--no-luck")
    assert none["luck"] == [[]]


def test_a_seats_deal_value_is_its_value_of_drawing_at_its_first_turn():
    """The deal's luck and the first draw's luck meet at the same value (they telescope)."""
    events = _deals(seed=7)[0]
    script = deal_script(events)
    settings = D.for_the_deal(script, _settings(n=40, seed=3, threads=1))
    dealt, draws = D.mac_luck_values(script, 1, settings, [], 0, 1)
    first = D.mac_draws(script, 1)[0][0]
    assert dealt == D.mac_value_of_drawing(script, first, settings, 0, 1, [])
