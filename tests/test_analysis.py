"""The analysis of a played deal (canasta_sim/analysis, kernels/play/analysis.py,
docs/analysis.md): the replay of a trace with the engine's moves, the options valued by
rollouts and their intervals, the marks, the luck and the ``analyze`` command."""
import json
import re

import numpy as np
import pytest
from canasta_sim.kernels.play import analysis as k
from click.testing import CliRunner

from canasta_sim.analysis import deal as D
from canasta_sim.analysis import rollout as R
from canasta_sim.analysis.position import DealScript, read_trace
from canasta_sim.errors import BadInput
from canasta_sim.trace import trace_events

RULE_SETS = ("classic", "two-player", "three-player", "six-player", "seed-a", "seed-b",
             "classic(red3_replacement_timing=first_turn)")


def _deals(rules="classic", seed=3, n=1, policies="expert"):
    return [json.loads(json.dumps(ev)) for ev in trace_events(rules, seed, 0, n, policies)]


def _settings(n=200, seed=1, threads=2, rules="classic"):
    ro = R.rollout_setup(rules, "expert", n, seed, threads)
    return D.Settings(ro, R.Scale("points"), D.DEFAULT_MARKS["points"])


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("policies", ["random", "expert"])
def test_the_engine_replays_its_own_traces_line_for_line(rules, policies):
    for events in _deals(rules, 5, 6, policies):
        DealScript(events).check()


def test_a_replayed_state_is_the_engines_own_at_a_turn_and_at_a_discard():
    from canasta_sim.kernels.game.state import new_state
    from canasta_sim.kernels.play import midgame, tasks

    from canasta_sim.runner import policy_table, prepare

    script = DealScript(_deals(seed=7)[0])
    plan = prepare(1, 7, "classic", "expert")
    E = new_state()
    seat = midgame.play_until_nb(plan.rules_nb, 7, 0, policy_table(plan), plan.params,
                                 plan.scores_before, 1, E)
    take = next(d for d in script.decisions if d.kind == "take" and d.turn == 1)
    assert take.seat == seat
    discard = next(d for d in script.decisions if d.kind == "discard" and d.turn == 1)
    for stop, then in ((take.at, False), (discard.at, True)):
        if then:
            tasks.out_choice_entry_nb(plan.rules_nb, E, seat, policy_table(plan),
                                      plan.params, 0, np.zeros(8, np.int64))
        M, _ = script.state(stop)
        for name in ("hands", "melds", "deck", "pile", "st", "seatv", "sidev"):
            assert np.array_equal(getattr(E, name), getattr(M, name)), (stop, name)


def test_a_trace_the_engine_cannot_play_is_refused():
    events = _deals()[0]
    for ev in events:
        if ev["ev"] == "discard":
            ev["card"] = "JK" if ev["card"] != "JK" else "4"
            break
    with pytest.raises(BadInput, match="differs from the engine's replay"):
        DealScript(events).check()


def test_an_option_listed_twice_gets_the_same_value():
    script = DealScript(_deals()[0])
    d = next(d for d in script.decisions if d.kind == "discard")
    S, _ = script.state(d.at)
    card = int(np.flatnonzero(S.hands[d.seat])[0])
    ro = _settings().rollouts
    options = R.value_options(script, S, d.seat, d.seat, k.A_DISCARD, [card, card],
                              ["one", "two"], "one", 9, ro, R.Scale("points"), d.seat % 2,
                              script.scores_before)
    a, b = options
    assert a["value"] == b["value"] and a["ci_low"] == b["ci_low"]
    assert a["loss"] == 0.0 and b["loss"] == 0.0


def test_values_repeat_with_the_seed_on_any_number_of_threads():
    script = DealScript(_deals()[0])
    d = next(d for d in script.decisions if d.kind == "discard")
    one = D.analyse_decision(script, d, _settings(threads=1), 0)
    two = D.analyse_decision(script, d, _settings(threads=2), 0)
    other = D.analyse_decision(script, d, _settings(seed=2), 0)
    assert one == two
    assert one != other


def test_a_forced_decision_has_loss_zero():
    script = DealScript(_deals()[0])
    settings = _settings(n=50)
    lines = [D.analyse_decision(script, d, settings, 0) for d in script.decisions
             if d.kind == "take"]
    forced = [ln for ln in lines if ln["forced"]]
    assert forced, "the first turns cannot take a one-card pile"
    for ln in forced:
        assert ln["loss"] == 0.0 and ln["mark"] is None
        assert all(o["loss"] == 0.0 for o in ln["options"])


def test_the_95_percent_intervals_cover_by_simulation():
    """A decision's values from 30 independent seeds of 60 rollouts: their 95% intervals
    hold the value of 4,000 rollouts about 95% of the time (docs/analysis.md)."""
    script = DealScript(_deals()[0])
    d = next(d for d in script.decisions if d.kind == "discard" and d.turn > 4)
    S, _ = script.state(d.at)
    cands = [int(c) for c in np.flatnonzero(S.hands[d.seat])[:2]]

    def run(n, seed):
        ro = R.rollout_setup("classic", "expert", n, seed, 2)
        return R.value_options(script, S, d.seat, d.seat, k.A_DISCARD, cands, ["a", "b"],
                               "a", R.decision_key(seed, 0), ro, R.Scale("points"),
                               d.seat % 2, script.scores_before, stop_early=False)

    truth = run(4000, 999)
    hits = trials = 0
    for seed in range(30):
        for o, t in zip(run(60, seed), truth):
            trials += 1
            hits += o["ci_low"] <= t["value"] <= o["ci_high"]
    assert 0.85 <= hits / trials <= 1.0


def test_values_before_and_after_a_draw_agree_on_average():
    """Luck is value after a draw less value before it: over many draws it averages zero
    (a resampler that put red threes on top of the stock failed this by 165 points)."""
    gaps = []
    for events in _deals(seed=11, n=12):
        script = DealScript(events)
        ro = R.rollout_setup("classic", "expert", 150, 1, 2)
        for d in [d for d in script.decisions if d.kind == "take" and d.played == "draw"][:3]:
            side = d.seat % 2
            before, _ = script.state(d.at)
            after, _ = script.state(d.at + 2)
            va = R.value_options(script, before, d.seat, d.seat, k.A_PLAY_ON, [0], ["x"], "x",
                                 5, ro, R.Scale("points"), side, script.scores_before)
            vb = R.value_options(script, after, d.seat, d.seat, k.A_OUT, [0], ["x"], "x", 5,
                                 ro, R.Scale("points"), side, script.scores_before)
            gaps.append(vb[0]["value"] - va[0]["value"])
    gaps = np.array(gaps)
    assert abs(gaps.mean()) < 4 * gaps.std(ddof=1) / np.sqrt(len(gaps)) + 5


def test_marks_need_the_threshold_and_an_interval_above_zero():
    marks = (25.0, 50.0, 100.0)
    assert D.mark_of({"loss": 60.0, "loss_low": 10.0}, marks) == "bad"
    assert D.mark_of({"loss": 160.0, "loss_low": 1.0}, marks) == "very bad"
    assert D.mark_of({"loss": 60.0, "loss_low": -1.0}, marks) is None
    assert D.mark_of({"loss": 20.0, "loss_low": 5.0}, marks) is None
    with pytest.raises(BadInput, match="three increasing"):
        D.parse_marks("50,20,100", "points")


def test_error_rates_count_unforced_decisions():
    lines = [{"seat": 0, "decision": "discard", "forced": False, "loss": 60.0, "mark": "bad"},
             {"seat": 0, "decision": "discard", "forced": False, "loss": 0.0, "mark": None},
             {"seat": 0, "decision": "discard", "forced": True, "loss": 0.0, "mark": None}]
    row = D.error_rates(lines)["0"]["discard"]
    assert row["unforced"] == 2 and row["marked"] == 1 and row["error_rate"] == 0.5


def _cli(args):
    from canasta_sim.cli import cli

    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, args, catch_exceptions=True)


def test_analyze_writes_a_line_per_decision_with_its_options(tmp_path):
    trace = tmp_path / "deal.jsonl"
    trace.write_text("\n".join(json.dumps(e) for e in _deals()[0]) + "\n")
    out = tmp_path / "an"
    result = _cli(["analyze", str(trace), "--seats", "0", "--rollouts", "64", "--out",
                   str(out)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in (out / "analysis.jsonl").read_text().splitlines()]
    assert lines and {ln["seat"] for ln in lines} == {0}
    for ln in lines:
        assert {"decision", "options", "mark", "loss", "played"} <= set(ln)
        assert sum(o["played"] for o in ln["options"]) <= 1
        for o in ln["options"]:
            assert {"value", "ci_low", "ci_high", "loss", "played"} <= set(o)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["luck"][0][0]["seat"] == 0
    assert (out / "index.html").exists()


@pytest.mark.parametrize("args, words", [
    (["--seats", "7"], "--seats 7: accepted"),
    (["--deal", "3"], "--deal 3: accepted: 0..0"),
    (["--policy", "greedy"], "rollout policy 'greedy'"),
    (["--rollouts", "1"], "rollouts 1: accepted"),
    (["--deal", "0", "--event", "1"], "--event 1: no decision"),
])
def test_analyze_refuses_bad_input_in_one_line(tmp_path, args, words):
    trace = tmp_path / "deal.jsonl"
    trace.write_text("\n".join(json.dumps(e) for e in _deals()[0]) + "\n")
    out = tmp_path / "an"
    result = _cli(["analyze", str(trace), *args, "--out", str(out)])
    assert result.exit_code == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_read_trace_refuses_a_file_that_is_not_a_trace(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"ev":"draw"}\n')
    with pytest.raises(BadInput, match="before any start line"):
        read_trace(bad)


def test_the_equity_table_is_a_chance_that_grows_with_the_score(tmp_path):
    from canasta_sim.analysis.equity import build_table, load_table, write_table

    table = build_table("classic", "expert", games=40, step=500, seed=1, threads=2)
    win = np.array(table["win"])
    assert np.allclose(win + win.T, 1.0, atol=1e-6)             # the two views agree
    assert np.all(np.diff(win, axis=0) >= -1e-9)                # more points, more chance
    assert np.all(np.array(table["ci_low"]) <= win + 1e-9)
    assert np.all(win <= np.array(table["ci_high"]) + 1e-9)
    paths = write_table(table, tmp_path / "eq.json")
    loaded = load_table(paths[0])
    i = table["scores"].index(0)
    assert loaded.win_array(0, 0) == pytest.approx(0.5)
    assert loaded.win_array(5200, 4000) == 1.0 and loaded.win_array(4000, 5200) == 0.0
    assert loaded.win_array(1000, 0) == pytest.approx(win[table["scores"].index(1000), i])
    by_dealer = np.array(table["win_dealer"])
    assert by_dealer.shape == (2,) + win.shape
    assert np.allclose(by_dealer[0] + by_dealer[1].T, 1.0, atol=1e-6)   # one pair, two views
    assert np.allclose(by_dealer.mean(axis=0), win, atol=2e-5)
    for d in (0, 1):
        assert np.all(np.array(table["ci_low_dealer"][d]) <= by_dealer[d] + 1e-9)
        assert np.all(by_dealer[d] <= np.array(table["ci_high_dealer"][d]) + 1e-9)
        assert loaded.win_array(1000, 0, d) == pytest.approx(
            by_dealer[d][table["scores"].index(1000), i])
    old = json.loads(paths[0].read_text())
    del old["win_dealer"]
    paths[0].write_text(json.dumps(old))
    assert load_table(paths[0]).win_array(1000, 0, 0) == loaded.win_array(1000, 0)  # no axis


def test_the_analysis_reads_the_equity_table_for_the_next_dealer():
    from canasta_sim.analysis.equity import EquityTable

    grid = [0.0, 500.0]
    table = EquityTable(grid, [[0.5, 0.4], [0.6, 0.5]], 1000,
                        [[[0.45, 0.35], [0.55, 0.45]], [[0.55, 0.45], [0.65, 0.55]]])
    scale = R.Scale("win", table, dealer=1)
    before = np.zeros(2)
    assert scale.values(np.array([[0, 0]]), 0, before, 2)[0] == pytest.approx(0.55)
    assert scale.values(np.array([[0, 0]]), 1, before, 2)[0] == pytest.approx(0.45)
    assert R.Scale("win", table).values(np.array([[0, 0]]), 0, before, 2)[0] == 0.5


def test_analyze_with_an_equity_table_values_in_win_chance(tmp_path):
    from canasta_sim.analysis.equity import build_table, write_table

    eq = write_table(build_table("classic", "expert", games=20, step=500, seed=2), tmp_path
                     / "eq.json")[0]
    trace = tmp_path / "deal.jsonl"
    trace.write_text("\n".join(json.dumps(e) for e in _deals()[0]) + "\n")
    out = tmp_path / "an"
    result = _cli(["analyze", str(trace), "--seats", "1", "--rollouts", "40", "--equity",
                   str(eq), "--no-luck", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    values = [o["value"] for x in (out / "analysis.jsonl").read_text().splitlines()
              for o in json.loads(x)["options"] if o["value"] is not None]
    assert values and all(0.0 <= v <= 1.0 for v in values)
    assert json.loads((out / "summary.json").read_text())["unit"] == "win"


def _chromium():
    import shutil

    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def _dump_dom(page, fragment):
    """The page's DOM after its script ran, in headless Chromium."""
    import subprocess

    browser = _chromium()
    if browser is None:
        pytest.skip("the viewer's browser test is skipped: no Chromium on PATH "
                    "(chromium, chromium-browser or google-chrome)")
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--virtual-time-budget=3000", "--dump-dom",
                           page.resolve().as_uri() + fragment],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    return done.stdout


def test_the_viewer_steps_to_the_next_marked_decision_in_a_browser(tmp_path):
    from canasta_sim.analysis.viewer import page_data, write_page

    events = _deals()[0]
    discard = next(i for i, ev in enumerate(events) if ev["ev"] == "discard" and i > 6)
    line = {"event": discard, "seat": events[discard]["seat"], "decision": "discard",
            "played": events[discard]["card"], "forced": False, "mark": "bad", "loss": 60.0,
            "options": [{"option": events[discard]["card"], "value": -60.0, "ci_low": -90.0,
                         "ci_high": -30.0, "loss": 60.0, "loss_low": 20.0, "loss_high": 100.0,
                         "played": True, "best": False, "rollouts": 100},
                        {"option": "JK", "value": 0.0, "ci_low": -30.0, "ci_high": 30.0,
                         "loss": 0.0, "loss_low": 0.0, "loss_high": 0.0, "played": False,
                         "best": True, "rollouts": 100}]}
    data = page_data([events], [{"lines": [line], "luck": []}])
    data["unit"] = "points"
    page = write_page(tmp_path / "index.html", data, "test")
    dom = _dump_dom(page, "#mark=next&view=0")
    assert f'data-event="{discard - 1}"' in dom          # the position of the decision
    assert "decision here" in dom and "m-bad" in dom
    hidden = re.compile(r'card back">\d+ cards')
    assert hidden.search(dom)                            # seat 0's view: other hands hidden
    everything = _dump_dom(page, "#view=all")
    assert 'data-event="0"' in everything and not hidden.search(everything)


def test_replay_html_writes_the_viewer_without_an_analysis(tmp_path):
    page = tmp_path / "replay.html"
    result = _cli(["replay", "--seed", "7", "--deals", "0:2", "--policies", "expert",
                   "--html", str(page)])
    assert result.exit_code == 0, result.stderr
    text = page.read_text()
    assert "<script" in text and "http" not in text.split("<script", 1)[1][:200]
    data = json.loads(text.split('type="application/json">', 1)[1].split("</script>", 1)[0])
    assert len(data["deals"]) == 2 and not data["deals"][0]["decisions"]


def test_a_match_analysed_on_dask_is_the_one_analysed_on_threads(tmp_path):
    pytest.importorskip("distributed")
    trace = tmp_path / "deals.jsonl"
    trace.write_text("".join(json.dumps(e) + "\n" for events in _deals(n=2) for e in events))
    outs = []
    for name, extra in (("threads", []), ("dask", ["--executor", "dask", "--workers", "2"])):
        out = tmp_path / name
        result = _cli(["analyze", str(trace), "--seats", "2", "--rollouts", "24", *extra,
                       "--out", str(out)])
        assert result.exit_code == 0, result.stderr
        outs.append((out / "analysis.jsonl").read_text())
    assert outs[0] == outs[1] and outs[0]


def test_a_position_file_gives_the_values_the_trace_gives(tmp_path):
    from canasta_sim.analysis.posfile import PositionScript, position_of

    settings = _settings(n=64)
    for events in _deals(seed=5, n=3):
        script = DealScript(events)
        picked = [d for d in script.decisions if d.kind == "discard"][2:5] + \
            [d for d in script.decisions if d.kind == "take"][3:5]
        for d in picked:
            data = json.loads(json.dumps(position_of(script, d)))
            pos = PositionScript(data)
            a = D.analyse_decision(script, d, settings, 0)
            same = pos.decisions[0]._replace(event=d.event, turn=d.turn)   # the same key
            assert D.analyse_decision(pos, same, settings, 0) == a


def test_analyze_reads_a_position_file_and_refuses_a_bad_one(tmp_path):
    from canasta_sim.analysis.posfile import position_of

    script = DealScript(_deals()[0])
    d = [d for d in script.decisions if d.kind == "discard"][3]
    data = position_of(script, d)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(data))
    result = _cli(["analyze", str(path), "--rollouts", "32", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.stderr
    line = json.loads((tmp_path / "a" / "analysis.jsonl").read_text())
    assert line["decision"] == "discard" and line["played"] == d.played
    data["stock"] += 1
    path.write_text(json.dumps(data))
    result = _cli(["analyze", str(path), "--out", str(tmp_path / "b")])
    assert result.exit_code == 2 and "position: stock" in result.stderr


def test_each_viewer_step_shows_the_table_as_it_was_then():
    from canasta_sim.analysis.viewer import snapshots

    events = _deals()[0]
    steps = snapshots(events)
    first = next(i for i, ev in enumerate(events) if ev["ev"] == "meld")
    side = events[first]["seat"] % 2
    meld = [m for m in steps[first]["melds"][side] if m["rank"] == events[first]["rank"]][0]
    assert meld["cards"] == events[first]["cards"]               # not the meld at the end
    assert len(steps) == len(events) and steps[-1]["score"] == events[-1]["sides"]


def test_truncated_rollouts_stop_early_and_change_nothing_when_off():
    script = DealScript(_deals()[0])
    d = next(d for d in script.decisions if d.kind == "discard" and d.turn > 2)
    S, _ = script.state(d.at)
    cands = [int(c) for c in np.flatnonzero(S.hands[d.seat])[:2]]
    raw = {}
    for t in (0, 2, 10 ** 6):
        ro = R.rollout_setup("classic", "expert", 40, 1, 1, truncate=t)
        raw[t] = R.play_rollouts(script, S, d.seat, d.seat, k.A_DISCARD, cands, 7, 0, 40, ro)
    assert np.array_equal(raw[0], raw[10 ** 6])        # a deal ends long before 10**6 turns
    assert not np.array_equal(raw[0], raw[2])
    take = next(d for d in script.decisions if d.kind == "take" and d.turn > 2)
    S, _ = script.state(take.at)
    draws = {}
    for t in (0, 3000):                  # 3000 < MAX_TURNS: the turn finished phase by phase
        ro = R.rollout_setup("classic", "expert", 40, 1, 1, truncate=t)
        draws[t] = R.play_rollouts(script, S, take.seat, take.seat, k.A_TAKE, [k.DRAW], 7, 0,
                                   40, ro)
    assert np.array_equal(draws[0], draws[3000])
    assert raw[2][:, :, k.VALID].all()
    with pytest.raises(BadInput, match="truncate -1"):
        R.rollout_setup("classic", "expert", 40, 1, 1, truncate=-1)


def test_going_out_and_the_partners_answer_are_valued():
    settings = _settings(n=40)
    kinds = {}
    for events in _deals(seed=3, n=11):
        script = DealScript(events)
        for d in script.decisions:
            if d.kind in ("answer", "going out") and d.kind not in kinds:
                line = D.analyse_decision(script, d, settings, 0)
                if line is not None:
                    kinds[d.kind] = (d, line, script)
    d, line, script = kinds["answer"]
    assert {o["option"] for o in line["options"]} == {"yes", "no"}
    assert line["seat"] == (line["asker"] + 2) % 4 and line["played"] in ("yes", "no")
    d, line, script = kinds["going out"]
    assert {o["option"] for o in line["options"]} <= {"now", "ask", "hold"}
    assert "hold" in {o["option"] for o in line["options"]} and line["played"] in (
        "now", "ask", "hold")


@pytest.mark.parametrize("policies", ["expert", "random"])
def test_every_meld_step_played_is_one_the_engine_or_the_policy_offers(policies):
    """The meld decisions of a turn not gone out: before each meld line and at the discard
    (``stop``); the step the trace played is in the engine's list (options.meld_options_nb)
    or, for expert's own non-atomic steps, the expert rollout policy's own step."""
    ro = _settings().rollouts
    seen = 0
    for events in _deals(seed=4, n=4, policies=policies):
        script = DealScript(events)
        for d in [d for d in script.decisions if d.kind == "meld"]:
            S, _ = script.state(d.at)
            cands, offered = D.meld_candidates(script, S, d, ro)
            assert offered, (d, cands)
            assert cands[0] == d.code and len(cands) <= D.MAX_MELD_OPTIONS
            seen += 1
        outs = {ev.get("seat") for ev in events if ev["ev"] == "out"}
        assert outs or seen
    assert seen > 10


def test_meld_steps_are_valued_with_the_played_one_marked():
    script = DealScript(_deals(seed=7)[0])
    settings = _settings(n=32)
    lines = [D.analyse_decision(script, d, settings, 0) for d in script.decisions
             if d.kind == "meld" and d.seat == 0]
    assert any(ln["played"] == "stop" for ln in lines)
    assert any(ln["played"] != "stop" and not ln["forced"] for ln in lines)
    for ln in lines:
        assert sum(o["played"] for o in ln["options"]) == 1
        if ln["forced"]:
            assert ln["loss"] == 0.0 and ln["mark"] is None and len(ln["options"]) == 1
    assert "meld" in D.error_rates(lines)["0"]


def test_a_forced_meld_step_has_loss_zero():
    """A hand with nothing it may meld can only stop: forced, loss 0, no mark."""
    settings = _settings(n=16)
    for events in _deals(seed=5, n=3):
        script = DealScript(events)
        for d in [d for d in script.decisions if d.kind == "meld"]:
            S, _ = script.state(d.at)
            if len(D.meld_candidates(script, S, d, settings.rollouts)[0]) == 1:
                ln = D.analyse_decision(script, d, settings, 0)
                assert ln["forced"] and ln["loss"] == 0.0 and ln["mark"] is None
                assert [o["option"] for o in ln["options"]] == [d.played]
                return
    pytest.fail("no forced meld step in three deals")
