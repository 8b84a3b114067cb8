"""The analysis of a Modern American deal or position (docs/analysis.md, "Modern American";
canasta_sim/analysis/american.py, posfile_american.py, kernels/play/american/analysis.py):
the replay of the family's traces with its own moves, the decisions and their options, the
values by rollouts, position files and the ``analyze`` command."""
import json

import numpy as np
import pytest
from test_analysis import _cli

from canasta_sim.analysis import deal as D
from canasta_sim.analysis import rollout as R
from canasta_sim.analysis.families import deal_script
from canasta_sim.errors import BadInput
from canasta_sim.trace import trace_events

RULE_SETS = ("modern-american", "modern-american-pagat",
             "modern-american(mac_talon_source=set_aside,mac_threes_timing=after_deal)",
             "modern-american(ask_permission=required)",
             "modern-american(mac_rule_of_five=false,mac_dead_rank_scope=own,"
             "mac_max_wilds_per_meld=3,mac_allow_oversize_when_going_out=true)")


def _deals(rules="modern-american", seed=3, n=1, policies="expert", first=0):
    return [json.loads(json.dumps(ev))
            for ev in trace_events(rules, seed, first, first + n, policies)]


def _settings(n=64, seed=1, threads=2, rules="modern-american", policy="expert", truncate=0):
    ro = R.rollout_setup(rules, policy, n, seed, threads, truncate)
    return D.Settings(ro, R.Scale("points"), D.DEFAULT_MARKS["points"], False)


def _trace_file(tmp_path, events):
    path = tmp_path / "deal.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    return path


# ---- the replay -------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("policies", ["random", "greedy", "careful,rush,builder,expert"])
def test_the_family_replays_its_own_traces_line_for_line(rules, policies):
    for events in _deals(rules, 11, 40, policies):
        deal_script(events).check()


def test_whole_games_replay_line_for_line():
    from canasta_sim.trace import game_trace_events

    deals = [json.loads(json.dumps(ev))
             for ev in game_trace_events("modern-american", 4, 0, 2, "expert")]
    assert len(deals) > 4 and any(d[0]["scores_before"] != [0, 0] for d in deals)
    for events in deals:
        deal_script(events).check()


def _damaged(events, kind, change):
    events = json.loads(json.dumps(events))
    for ev in events:
        if ev["ev"] == kind:
            change(ev)
            return events
    raise AssertionError(f"no {kind} line")


@pytest.mark.parametrize("kind, change", [
    ("discard", lambda ev: ev.update(card="K" if ev["card"] != "K" else "Q")),
    ("draw", lambda ev: ev.update(seat=(ev["seat"] + 1) % 4)),
    ("meld", lambda ev: ev.update(cards=ev["cards"][:-1])),
])
def test_a_trace_the_engine_does_not_play_is_refused(kind, change):
    events = next(e for e in _deals(n=6, policies="greedy")
                  if any(ev["ev"] == "meld" for ev in e))
    with pytest.raises(BadInput, match="(differs from the engine's replay|could not be "
                                       "replayed|lines, the engine's replay)"):
        deal_script(_damaged(events, kind, change)).check()


def test_the_decisions_of_a_deal_come_in_its_order():
    events = _deals(n=1)[0]
    script = deal_script(events)
    kinds = {d.kind for d in script.decisions}
    assert {"take", "meld", "discard"} <= kinds and \
        kinds <= {"take", "going out", "meld", "discard"}
    assert [d.at for d in script.decisions] == sorted(d.at for d in script.decisions)
    draws = sum(1 for ev in events if ev["ev"] in ("draw", "take"))
    assert sum(d.kind == "take" for d in script.decisions) == draws
    for d in script.decisions:
        assert events[d.event]["ev"] in ("draw", "take", "meld", "ask", "discard")
        if d.kind == "discard":
            assert events[d.event]["card"] == d.played
        if d.kind == "meld":                    # before a meld line, or stop at a discard
            assert (events[d.event]["ev"], d.played == "stop") in (("meld", False),
                                                                   ("discard", True))


# ---- the options and their values -----------------------------------------------------------

def test_options_are_the_legal_ones_with_the_played_one_among_them():
    for events in _deals(n=3, policies="random", seed=8):
        script = deal_script(events)
        for d in script.decisions:
            code, cands, names = script.candidates(d)
            if d.kind == "going out" and not cands:
                continue                          # expert would not go out: no choice
            assert d.played in names, (d, names)
            if d.kind == "take":
                assert names[0] == "draw" and set(names) <= {"draw", "take"}


def test_analysis_values_every_decision_of_a_deal():
    events = _deals(seed=5, n=1)[0]
    script = deal_script(events)
    done = D.analyse_deal(script, _settings(n=32), [0, 1, 2, 3])
    lines = done["lines"]
    valued = {(ln["event"], ln["decision"]) for ln in lines}
    for d in script.decisions:
        if d.kind != "going out":
            assert (d.event, d.kind) in valued
    for ln in lines:
        assert sum(o["played"] for o in ln["options"]) == 1, ln
        assert all(o["label"] for o in ln["options"])
        if not ln["forced"]:
            assert all(o["value"] is not None and o["rollouts"] >= 32 or o["stopped"]
                       for o in ln["options"])
            assert ln["loss"] is not None and ln["loss"] >= 0


def test_values_repeat_with_the_seed_on_any_number_of_threads():
    events = _deals(seed=6, n=1)[0]
    script = deal_script(events)
    picked = [d for d in script.decisions if d.kind in ("discard", "take")][2:6]
    one = [D.analyse_decision(script, d, _settings(n=40, threads=1), 0) for d in picked]
    two = [D.analyse_decision(script, d, _settings(n=40, threads=2), 0) for d in picked]
    assert one == two
    other = [D.analyse_decision(script, d, _settings(n=40, seed=9), 0) for d in picked]
    assert other != one


@pytest.mark.parametrize("policy, truncate", [("expert", 0), ("careful", 6)])
def test_an_option_listed_twice_gets_the_same_value(policy, truncate):
    script = deal_script(_deals(seed=5)[0])
    d = [d for d in script.decisions if d.kind == "discard"][2]
    pos, _ = script.state(d.at)
    ro = _settings(policy=policy, truncate=truncate).rollouts
    code, cands, _ = script.candidates(d, ro)
    options = R.value_options(script, pos, d.seat, d.seat, code, [cands[0], cands[0]],
                              ["one", "two"], "one", 9, ro, R.Scale("points"), d.seat % 2,
                              script.scores_before)
    a, b = options
    assert a["value"] == b["value"] and a["ci_low"] == b["ci_low"]


def _values(script, decisions, **settings):
    """Each decision's options' values (by name), as ``analyse_decision`` gives them."""
    lines = [D.analyse_decision(script, d, _settings(**settings), 0) for d in decisions]
    return [{o["option"]: o["value"] for o in ln["options"]} for ln in lines if ln]


def test_the_rollout_policy_and_its_parameters_play_the_family_rollouts():
    """``--policy`` for the family: a club player other than expert, or expert with other
    parameters, plays the rollouts (other values where it plays otherwise), the same for a
    seed on one thread and on two (the club players choose by scores: no random stream)."""
    script = deal_script(_deals(seed=6)[0])
    picked = [d for d in script.decisions if d.kind in ("discard", "take")][3:6]
    expert = _values(script, picked, n=16, threads=1)
    careful = _values(script, picked, n=16, threads=1, policy="careful")
    assert careful == _values(script, picked, n=16, threads=2, policy="careful")
    assert careful != expert
    tuned = _values(script, picked, n=16, threads=2, policy="expert(want_canastas=5)")
    assert tuned == _values(script, picked, n=16, threads=1,
                            policy="expert(want_canastas=5)")
    assert tuned != expert
    assert _values(script, picked, n=16, threads=2, policy="expert(want_canastas=2)") == \
        expert                                           # expert's own parameter as given


def _cut_rollout(script, d, cand, turns):
    """One rollout (determinization 0 of key 7) of discard ``cand`` at ``d``, cut off
    ``turns`` turns after the decision's turn: its values, the position at the decision and
    the state it was cut in (the rollout's scratch state, left in ``S.ws``)."""
    from canasta_sim.analysis.american import copy_position, mac_task
    from canasta_sim.kernels.game.layout import MAX_SIDES
    from canasta_sim.kernels.play.american import analysis as mk
    from canasta_sim.kernels.play.american.rollout import DEC_DISCARD

    pos, _ = script.state(d.at)
    S, A = copy_position(pos)
    ro = _settings().rollouts
    values = np.zeros((1, 1, MAX_SIDES + 1), np.int64)
    mac_task(script.rules_nb, mk.TASK_ROLLOUTS, S, A, pol=ro.pol.copy(),
             params=ro.params.copy(), seat=d.seat, decision=DEC_DISCARD,
             cands=np.array([cand], np.int64), key=7, values=values, turns=turns)
    return values[0, 0], pos, _scratch(S.ws)


def _scratch(ws):
    """What the test reads of the rollouts' scratch state in ``ws`` (views, as
    kernels/play/search.py ``scratch_state_nb`` and american/rollout.py ``scratch_mac_nb``
    lay it out): ``st``, ``hands``, ``melds`` and the family's ``threes``."""
    from types import SimpleNamespace

    from canasta_sim.kernels.game.cards import MELD_KINDS, NKINDS
    from canasta_sim.kernels.game.layout import MAX_SEATS, MAX_SIDES
    from canasta_sim.kernels.game.slots import M_COLS, NST
    from canasta_sim.kernels.play import search as ks
    from canasta_sim.kernels.play.american import rollout as kr

    W = SimpleNamespace(
        st=ws[ks.R_ST, :NST],
        hands=ws[ks.R_HANDS, :MAX_SEATS * NKINDS].reshape((MAX_SEATS, NKINDS)),
        melds=ws[ks.R_MELDS, :MAX_SIDES * M_COLS * MELD_KINDS].reshape(
            (MAX_SIDES, M_COLS, MELD_KINDS)))
    return W, SimpleNamespace(threes=ws[ks.R_POOL, kr._THREES:kr._LAID].reshape((2, 2)))


def test_a_truncated_rollout_is_the_deal_cut_off_and_scored_as_a_stock_end():
    """``--truncate T``: the rollout stops T turns after the decision's turn and the deal is
    scored as it stands as if the stock had run out (A44): nobody went out, no going-out
    bonus (A42), threes, penalties and the canasta-count rule as at any end (A46-A49),
    checked against the family's score of the cut state; a cut past the deal's end changes
    nothing."""
    from canasta_sim.kernels.game.american.scoring import I_OUT, N_ITEMS, score_side_nb
    from canasta_sim.kernels.game.american.state import mac_record_nb
    from canasta_sim.kernels.game.layout import END_STOCK
    from canasta_sim.kernels.game.slots import ST_END_REASON, ST_OUT_SEAT, ST_TURNS
    from canasta_sim.kernels.play.american.turn import MAX_TURNS

    script = deal_script(_deals(seed=5)[0])
    d = [d for d in script.decisions if d.kind == "discard"][4]
    cand = script.candidates(d)[1][0]
    mac = mac_record_nb(script.rules_nb)[0]
    full, _, _ = _cut_rollout(script, d, cand, MAX_TURNS)             # no cut: to the end
    assert np.array_equal(full, _cut_rollout(script, d, cand, 10 ** 6)[0])
    for turns in (1, 5):
        values, (S, _), (W, M) = _cut_rollout(script, d, cand, turns)
        assert W.st[ST_TURNS] == S.st[ST_TURNS] + turns           # the decision's turn, then T
        assert W.st[ST_OUT_SEAT] == -1 and W.st[ST_END_REASON] == END_STOCK
        for side in (0, 1):
            items = np.zeros(N_ITEMS, np.int64)
            total = score_side_nb(mac, W.melds, side, M.threes, W.hands, side, side + 2,
                                  False, items)
            assert values[side] == total and items[I_OUT] == 0
        assert not np.array_equal(values[:2], full[:2])


def _position(**changes):
    """Seat 0 of side 0 late in a deal: two clean canastas (K, 9: the 9s are dead), a pile of
    14 cards, the opponents melded (``changes`` replace fields); the stock is what is left."""
    data = {"rules": "modern-american", "seat": 0, "decision": "discard", "dealer": 3,
            "scores_before": [0, 0],
            "hand": ["Q", "Q", "Q", "5", "9", "4"], "hand_sizes": [6, 9, 9, 9],
            "melds": [{"K": ["K"] * 7, "9": ["9"] * 7, "8": ["8", "8", "8"]},
                      {"J": ["J", "J", "J", "2"], "6": ["6", "6", "6"]}],
            "threes": [[1, 0], [0, 1]], "pile": ["4", "7", "10", "A", "Q", "5", "4", "10",
                                                  "A", "7", "J", "4", "10", "8"],
            "talons_taken": [True, True], "talon_received": [4, 3],
            "turn_card": False, "asked": [0, 0, 0, 0], "had_turn": [1, 1, 1, 1],
            "turns": 30, "turn": {"took_pile": False, "opening": False, "talon": 0,
                                  "new_melds": []}}
    data.update(changes)
    seen = sum(data["hand_sizes"]) + len(data["pile"]) + sum(map(sum, data["threes"])) + \
        sum(len(cards) for table in data["melds"] for cards in table.values())
    data.setdefault("stock", 108 - seen)
    return data


def _analyse_position(data, n=300):
    from canasta_sim.analysis.families import position_script

    pos = position_script(json.loads(json.dumps(data)))
    line = D.analyse_decision(pos, pos.decisions[0], _settings(n=n), 0)
    return {o["option"]: o for o in line["options"]}, line


def test_drawing_is_worth_less_than_a_take_that_completes_a_canasta():
    """The pile's top 8 with the seat's pair of 8s completes its side's four 8s to a clean
    canasta (A29, A45) and brings 13 cards; drawing brings one."""
    melds = [{"K": ["K"] * 7, "9": ["9"] * 7, "8": ["8"] * 4},
             {"J": ["J", "J", "J", "2"], "6": ["6", "6", "6"]}]
    data = _position(decision="take", hand=["Q", "Q", "Q", "5", "8", "8"], melds=melds,
                     turn={})
    options, line = _analyse_position(data, n=200)
    assert set(options) == {"draw", "take"}
    assert options["take"]["value"] > options["draw"]["value"]
    assert options["draw"]["loss_low"] > 0
    assert options["take"]["label"] == "take the pile (14 cards, top 8)"


def test_going_out_near_the_end_beats_holding():
    """Three canastas made, eight stock cards left: going out now (meld the queens, discard
    the 5) is worth more than holding on."""
    melds = [{"K": ["K"] * 7, "9": ["9"] * 7, "4": ["4"] * 7, "8": ["8"] * 4},
             {"J": ["J", "J", "J", "2"], "6": ["6", "6", "6"], "10": ["10"] * 6,
              "A": ["A"] * 6, "5": ["5"] * 7, "7": ["7"] * 6}]
    data = _position(decision="going out", hand=["Q", "Q", "Q", "5"], melds=melds,
                     hand_sizes=[4, 11, 11, 11], turn_card=True, turn={},
                     pile=["4", "7", "10", "A"])
    assert data["stock"] <= 8
    options, line = _analyse_position(data, n=200)
    assert set(options) == {"out", "hold", "ask"}            # asking optional, not spent
    assert options["out"]["value"] > options["hold"]["value"]
    assert options["hold"]["loss_low"] > 0


# ---- position files -------------------------------------------------------------------------

def test_a_position_file_gives_the_state_options_and_values_the_trace_gives():
    from canasta_sim.analysis.families import position_of, position_script

    settings = _settings(n=48)
    for events in _deals(seed=5, n=3) + _deals(
            "modern-american(mac_talon_source=set_aside)", seed=5, n=2):
        script = deal_script(events)
        picked = [d for d in script.decisions if d.kind == "discard"][2:5] + \
            [d for d in script.decisions if d.kind == "take"][3:5]
        for d in picked:
            data = json.loads(json.dumps(position_of(script, d)))
            pos = position_script(data)
            (S, A), _ = script.state(d.at)
            (S2, A2), _ = pos.state()
            seat = d.seat
            assert np.array_equal(S.hands[seat], S2.hands[seat])
            assert np.array_equal(S.melds, S2.melds) and np.array_equal(A.threes, A2.threes)
            assert [S.hands[s].sum() for s in range(4)] == [S2.hands[s].sum() for s in range(4)]
            same = pos.decisions[0]._replace(event=d.event, turn=d.turn)   # the same key
            assert script.candidates(d) == pos.candidates(same)
            assert D.analyse_decision(pos, same, settings, 0) == \
                D.analyse_decision(script, d, settings, 0)
            assert script.labels((S, A), d, ["draw", "take"] if d.kind == "take" else
                                 [d.played]) == \
                pos.labels((S2, A2), same, ["draw", "take"] if d.kind == "take" else
                           [d.played])


def test_analyze_reads_a_family_position_file_and_refuses_a_bad_one(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(_position(played="5")))
    result = _cli(["analyze", str(path), "--rollouts", "32", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.stderr
    line = json.loads((tmp_path / "a" / "analysis.jsonl").read_text())
    assert line["decision"] == "discard" and line["played"] == "5"
    assert [o["label"] for o in line["options"]] == ["discard 4", "discard 5", "discard 9",
                                                     "discard Q"]
    for change, words in (({"stock": 31}, "position: stock 31"),
                          ({"hand": ["Q"] * 9, "hand_sizes": [9, 9, 9, 9]}, "more Q"),
                          ({"melds": [{"3r": ["3r"] * 3}, {}]}, "meld rank '3r'")):
        path.write_text(json.dumps(_position(**change)))
        result = _cli(["analyze", str(path), "--out", str(tmp_path / "b")])
        assert result.exit_code == 2 and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


# ---- the command ------------------------------------------------------------------------------

def test_analyze_a_traced_family_deal_writes_lines_and_the_viewer(tmp_path):
    trace = _trace_file(tmp_path, _deals(seed=7)[0])
    out = tmp_path / "an"
    result = _cli(["analyze", str(trace), "--seats", "0,2", "--rollouts", "32", "--out",
                   str(out)])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(x) for x in (out / "analysis.jsonl").read_text().splitlines()]
    assert lines and {ln["seat"] for ln in lines} <= {0, 2}
    assert {ln["decision"] for ln in lines} >= {"take", "discard"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rules"].startswith("modern-american")
    assert [x["seat"] for x in summary["luck"][0]] == [0, 2]
    page = (out / "index.html").read_text()
    assert "take the pile" in page or "draw (stock" in page


def test_analyze_a_family_deal_with_a_club_policy_and_truncation(tmp_path):
    trace = _trace_file(tmp_path, _deals(seed=7)[0])
    out = tmp_path / "an"
    result = _cli(["analyze", str(trace), "--seats", "1", "--rollouts", "8", "--policy",
                   "careful", "--truncate", "10", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["policy"] == "careful" and summary["truncate"] == 10


@pytest.mark.parametrize("args, words", [
    (["--policy", "rushed"], "rollout policy 'rushed': accepted"),
    (["--truncate", "-1"], "truncate -1: accepted"),
    (["--seats", "4"], "--seats 4: accepted"),
])
def test_analyze_refuses_what_the_family_does_not_take_in_one_line(tmp_path, args, words):
    trace = _trace_file(tmp_path, _deals()[0])
    out = tmp_path / "an"
    result = _cli(["analyze", str(trace), *args, "--out", str(out)])
    assert result.exit_code == 2, result.stderr
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_analyze_refuses_a_damaged_family_trace_in_one_line(tmp_path):
    events = _damaged(_deals()[0], "discard", lambda ev: ev.update(card="3r"))
    result = _cli(["analyze", str(_trace_file(tmp_path, events)), "--out",
                   str(tmp_path / "an")])
    assert result.exit_code == 2
    assert "differs from the engine's replay" in result.stderr or "replayed" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_replayed_state_is_the_engines_own_at_each_decision_point():
    """The replay at a take, going-out or discard decision of expert's deal is the state the
    engine's own turn has at that point (kernels/play/american/probe.py), array by array."""
    from canasta_sim.analysis.american import new_position
    from canasta_sim.kernels.game.slots import ST_TRACE_ON, ST_TRACE_POS
    from canasta_sim.kernels.play.american import probe
    from canasta_sim.kernels.play.american.rollout import DEC_DISCARD, DEC_OUT, DEC_TAKE
    from canasta_sim.rules import parse_rules

    codes = {"take": DEC_TAKE, "going out": DEC_OUT, "discard": DEC_DISCARD}
    mac = parse_rules("modern-american").to_american_kernel()
    compared = 0
    for deal in range(3):
        script = deal_script(_deals(seed=13, n=1, first=deal)[0])
        for d in [d for d in script.decisions if d.kind in codes][::3]:
            S, A = new_position()                  # the probe stops only between phases
            W, A2 = new_position()
            seat, _ = probe.rollout_probe_nb(
                probe.PROBE_REACH, mac, 13, deal, d.turn + 1, 0, codes[d.kind], S, A, W, A2,
                np.zeros(1, np.int64), np.uint64(0), 0, np.zeros((0, 1, 2), np.int64))
            assert seat == d.seat, d
            (M, B), _ = script.state(d.at)
            for name in ("hands", "melds", "deck", "pile", "seatv", "sidev"):
                assert np.array_equal(getattr(S, name), getattr(M, name)), (d, name)
            st, st2 = S.st.copy(), M.st.copy()
            st[[ST_TRACE_ON, ST_TRACE_POS]] = st2[[ST_TRACE_ON, ST_TRACE_POS]] = 0
            assert np.array_equal(st, st2), (d, np.flatnonzero(st != st2))
            assert np.array_equal(A.x, B.x), (d, np.flatnonzero(A.x != B.x))
            assert np.array_equal(A.threes, B.threes), d
            compared += 1
    assert compared > 20


# ---- asking the partner and the answer (A41) --------------------------------------------------

ASKING = ("modern-american(ask_permission=required)", "careful,rush,builder,expert")


def _asking_deals(want=2):
    """Deals of the club players under ``ask_permission=required`` that hold a question."""
    rules, pols = ASKING
    found = []
    for deal in range(60):
        events = _deals(rules, 11, 1, pols, first=deal)[0]
        if any(ev["ev"] == "ask" for ev in events):
            found.append(events)
            if len(found) == want:
                return found
    return found


def test_a_question_gives_an_answer_decision_and_its_turn_plays_ask():
    deals = _asking_deals()
    assert deals
    listed = 0
    for events in deals:
        script = deal_script(events)
        asks = [i for i, ev in enumerate(events) if ev["ev"] == "ask"]
        answers = [d for d in script.decisions if d.kind == "answer"]
        assert [d.event for d in answers] == asks
        for d in answers:
            ev = events[d.event]
            assert d.actor == ev["seat"] and d.seat == (ev["seat"] + 2) % 4
            assert d.played == ("yes" if ev["answer"] else "no")
            code, cands, names = script.candidates(d)
            assert names == ["no", "yes"]
            out = [o for o in script.decisions if o.kind == "going out" and o.turn == d.turn]
            assert len(out) == 1 and out[0].played == "ask"
            code, cands, names = script.candidates(out[0])
            listed += "ask" in names and "hold" in names
    assert listed >= 1


def test_the_answer_and_asking_are_valued_and_the_answer_is_played():
    """Every answer line has both answers valued; a no and a yes play differently somewhere
    (a yes binds the asker to go out, a no forbids it)."""
    settings = _settings(n=32, rules=ASKING[0])
    differ = 0
    lines = 0
    for events in _asking_deals():
        script = deal_script(events)
        for d in script.decisions:
            if d.kind not in ("answer", "going out"):
                continue
            line = D.analyse_decision(script, d, settings, 0)
            if line is None:
                continue
            lines += 1
            options = {o["option"]: o for o in line["options"]}
            assert sum(o["played"] for o in line["options"]) == 1, line
            assert all(o["value"] is not None and o["label"] for o in line["options"])
            if d.kind == "answer":
                assert line["asker"] == d.actor and set(options) == {"no", "yes"}
                assert "must go out" in options["yes"]["label"]
                differ += options["no"]["value"] != options["yes"]["value"]
    assert lines >= 2 and differ >= 1


def test_asking_is_an_option_where_expert_would_not_ask():
    """With asking optional expert never asks: where a question is open at the going-out
    point, ``ask`` is listed beside expert's own play, and valued."""
    settings = _settings(n=32)
    seen = 0
    for events in _deals(seed=5, n=4):
        script = deal_script(events)
        for d in script.decisions:
            if d.kind != "going out":
                continue
            code, cands, names = script.candidates(d)
            if "ask" not in names:
                continue
            assert names[0] in ("out", "hold") and len(set(names)) == len(names)
            line = D.analyse_decision(script, d, settings, 0)
            assert {o["option"] for o in line["options"]} == set(names)
            assert all(o["value"] is not None for o in line["options"])
            seen += 1
            if seen == 3:
                return
    assert seen >= 1


def test_an_answer_has_no_position_file():
    from canasta_sim.analysis.families import position_of

    script = deal_script(_asking_deals(1)[0])
    d = next(d for d in script.decisions if d.kind == "answer")
    with pytest.raises(BadInput, match="answer decision"):
        position_of(script, d)


# ---- meld steps -------------------------------------------------------------------------------

@pytest.mark.parametrize("policies", ["expert", "random"])
def test_every_meld_step_played_is_one_the_family_offers(policies):
    """The meld options (kernels/play/american/rollout.py ``meld_options_nb``) hold every step
    the trace played, and stopping where it stopped: the engine's legal steps or the rollout
    policy's own."""
    from canasta_sim.analysis.american import mac_task
    from canasta_sim.kernels.play.american import analysis as mk
    from canasta_sim.kernels.play.american.rollout import DEC_MELD

    checked = 0
    for events in _deals(seed=5, n=2, policies=policies):
        script = deal_script(events)
        for d in script.decisions:
            if d.kind != "meld":
                continue
            (S, A), _ = script.state(d.at)
            cands = np.zeros(A.steps.shape[0] + 1, np.int64)
            ro = _settings().rollouts
            n, own = mac_task(script.rules_nb, mk.TASK_OPTIONS, S, A, pol=ro.pol,
                              params=ro.params, seat=d.seat, decision=DEC_MELD, cands=cands)
            assert d.code in list(cands[:n]) + [own], d
            checked += d.played != "stop"
    assert checked >= 3


def test_meld_steps_and_stopping_are_valued():
    settings = _settings(n=24)
    script = deal_script(_deals(seed=5, n=1)[0])
    melds = [d for d in script.decisions if d.kind == "meld"]
    picked = [d for d in melds if d.played != "stop"][:2] + \
        [d for d in melds if d.played == "stop"][:1]
    assert len(picked) == 3
    differ = 0
    for d in picked:
        line = D.analyse_decision(script, d, settings, 0)
        options = {o["option"]: o for o in line["options"]}
        assert d.played in options and len(options) <= D.MAX_MELD_OPTIONS
        assert sum(o["played"] for o in line["options"]) == 1
        if not line["forced"]:
            assert all(o["value"] is not None or o["stopped"] for o in options.values())
        for name, o in options.items():
            assert o["label"] == ("stop: on to the discard" if name == "stop" else
                                  f"lay {name}")
        differ += len({o["value"] for o in options.values()}) > 1
    assert differ >= 1                                  # the options are played as such
