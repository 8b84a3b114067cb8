"""The surface as documented (issue 27, points 8-11): one policy per side, help texts that
say what the code does, arm names that fit, names never cut, a clean sweep's Elo as a bound,
study status after a stopped first run, the bench's load warning, and compare or a sweep
refusing what makes no sense."""
import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canasta_sim import policies as policy_registry
from canasta_sim.cli import POLICIES_HELP, cli
from canasta_sim.errors import BadInput
from canasta_sim.policies import parse_policies

REPO = Path(__file__).resolve().parents[1]


def _runner():
    """A CliRunner keeping stderr apart from stdout."""
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()                  # click >= 8.2 keeps stderr apart


# --- point 8: one policy per side ------------------------------------------------------------

def test_one_policy_per_side_fills_every_seat_of_the_side():
    names, _, _ = parse_policies("expert,careful(freeze_at=12)", 4, 2)
    assert names == ("expert", "careful(freeze_at=12)", "expert", "careful(freeze_at=12)")
    names, _, _ = parse_policies("expert,greedy,random", 6, 3)  # six-player-3x2
    assert names == ("expert", "greedy", "random") * 2
    assert parse_policies("expert,greedy", 2, 2)[0] == ("expert", "greedy")


@pytest.mark.parametrize("text, players, sides, per_side", [
    ("expert,greedy,random", 4, 2, True), ("expert,greedy", 3, 3, False),
    ("greedy,greedy,greedy,greedy,greedy", 6, 2, True)])
def test_a_count_that_is_neither_one_per_side_nor_per_seat_is_refused(text, players, sides,
                                                                       per_side):
    with pytest.raises(BadInput, match=rf"accepted: one policy for every seat.* or {players} ") \
            as error:
        parse_policies(text, players, sides)
    assert (f"one per side ({sides})" in str(error.value)) == per_side


def test_simulate_with_one_policy_per_side_is_the_same_run_as_per_seat(tmp_path):
    per_side = tmp_path / "side.parquet"
    per_seat = tmp_path / "seat.parquet"
    for path, policies in ((per_side, "examples/pile_hungry.py:pile_hungry,greedy"),
                           (per_seat, "examples/pile_hungry.py:pile_hungry,greedy,"
                                      "examples/pile_hungry.py:pile_hungry,greedy")):
        result = _runner().invoke(cli, ["simulate", "--deals", "30", "--seed", "3",
                                        "--policies", policies.replace("examples/",
                                                                       f"{REPO}/examples/"),
                                        "--out", str(path)])
        assert result.exit_code == 0, result.output + result.stderr
    side, seat = pq.read_table(per_side), pq.read_table(per_seat)
    assert side.equals(seat)
    assert side.schema.metadata == seat.schema.metadata or \
        {k: v for k, v in side.schema.metadata.items() if b"created" not in k} == \
        {k: v for k, v in seat.schema.metadata.items() if b"created" not in k}


def test_a_sweep_refuses_a_parameter_the_policies_already_set(tmp_path):
    out = tmp_path / "s.parquet"
    result = _runner().invoke(cli, ["simulate", "--deals", "10", "--policies",
                                    "careful(freeze_at=12),greedy", "--sweep",
                                    "careful.freeze_at=4:8:4", "--out", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert "sweep 'careful.freeze_at' sets freeze_at, which the policies already set " \
           "('careful(freeze_at=12)')" in result.stderr
    ok = _runner().invoke(cli, ["simulate", "--deals", "10", "--policies",
                                "careful(danger=2),greedy", "--sweep",
                                "careful.freeze_at=4:8:4", "--out", str(out)])
    assert ok.exit_code == 0, ok.stderr
    assert pq.read_table(out).column("careful__freeze_at").to_pylist() == [4] * 10 + [8] * 10


# --- point 10: help that says what the code does ---------------------------------------------

def _help(*path):
    result = CliRunner().invoke(cli, [*path, "--help"], terminal_width=1000)
    assert result.exit_code == 0, path
    return " ".join(result.output.split())


def test_policies_help_names_every_policy_and_per_side():
    for name in policy_registry.REGISTRY:
        assert re.search(rf"\b{name}\b", POLICIES_HELP), name
    assert "one per side" in _help("simulate")


def test_simulate_help_names_the_sweep_column_as_written():
    text = _help("simulate")
    assert "careful__freeze_at" in text and "column careful.freeze_at" not in text


@pytest.mark.parametrize("path", [["study"], ["study", "run"], ["study", "status"],
                                  ["study", "report"], ["compare"], ["simulate"], ["tune"],
                                  ["check-policy"], ["strength"], ["bench"]])
def test_every_file_a_help_text_cites_exists(path):
    for cited in re.findall(r"\b(?:examples|docs)/[\w./-]+\.(?:toml|py|md)", _help(*path)):
        assert (REPO / cited).exists(), (path, cited)


# --- point 11: compare ------------------------------------------------------------------------

TUNED = ("expert(danger=2.84,endgame_stock=19,freeze_at=25,go_out_margin=1263,"
         "min_pile_take=4)")


def test_compare_names_long_arms_within_the_limit():
    from canasta_sim.study.cli import compare_spec
    from canasta_sim.study.spec import parse_spec

    data = compare_spec((), (TUNED, "expert", TUNED.replace("25", "24")), None, 40, 1,
                        None, None, "results/x")
    names = [arm["name"] for arm in data["arms"]]
    assert all(len(n) <= 80 for n in names) and len(set(names)) == 3, names
    assert names[1].startswith("expert.danger-2.84.endgame") and "-vs-expert.danger" in names[1]
    assert re.fullmatch(r"expert\.danger-2\.84\.[\w.-]+\.[0-9a-f]{8}-vs-expert", names[0])
    assert re.fullmatch(r"expert-vs-expert\.danger-2\.84\.endgame_stock-19\.freeze_at-24"
                        r"[\w.-]*\.[0-9a-f]{8}", names[2]), names[2]
    parse_spec(data)  # the spec compare would run is accepted
    short = compare_spec((), ("expert", "careful"), None, 40, 1, None, None, "results/x")
    assert short["arms"][0]["name"] == "expert-vs-careful"  # the spec compare would run is accepted


@pytest.mark.parametrize("args, said", [
    (["--policies", "expert"], "compare has nothing to compare"),
    ([], "compare has nothing to compare"),
    (["--policies", "expert", "--policies", "expert"], "--policies 'expert' is the same as"),
    (["--rules", "classic", "--rules", "classic(black_three_freezes=false)"],
     "is the same as --rules 'classic'"),
    (["--policies", "careful(freeze_at=8)", "--policies", "careful"],
     "is the same as --policies 'careful(freeze_at=8)'"),
    (["--policies", "expert,greedy", "--policies", "careful"],
     "--policies 'expert,greedy' names 2 policies: accepted: one policy per --policies")])
def test_compare_with_nothing_to_compare_says_so(tmp_path, args, said):
    out = tmp_path / "c"
    result = _runner().invoke(cli, ["compare", *args, "--games", "4", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert said in result.stderr and "accepted: " in result.stderr
    assert not out.exists()


# --- point 11: study status after a stopped first run ----------------------------------------

def test_study_status_estimates_the_time_left_from_the_shards_done(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('[study]\nname = "s"\nseed = 1\ndeals = 100\nshard_size = 50\n\n'
                    '[[arms]]\nname = "a"\nrules = "classic"\n\n'
                    '[[arms]]\nname = "b"\nrules = "classic(black_three_freezes=true)"\n')
    out = tmp_path / "run"
    done = _runner().invoke(cli, ["study", "run", str(spec), "--out", str(out), "--no-report"])
    assert done.exit_code == 0, done.stderr
    manifest_path = out / "_manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["runs"] = []   # a first run stopped before its end records no run
    manifest_path.write_text(json.dumps(manifest))
    for path in (out / "data" / "arm=b").glob("part-50-50.*"):
        path.unlink()       # and one shard still to play
    status = _runner().invoke(cli, ["study", "status", str(out)])
    assert status.exit_code == 0, status.stderr
    assert "missing: 50 deals; time left: about" in status.output, status.output
    assert "unknown" not in status.output


# --- point 11: a clean sweep's Elo -------------------------------------------------------------

@pytest.mark.parametrize("pairs", [10, 1000])
def test_a_clean_sweep_prints_a_one_sided_bound(pairs):
    from canasta_sim import strength
    from canasta_sim.stats import ELO_BOUND, MatchStats, elo_from_score
    from canasta_sim.study.text import estimate_text

    lost = MatchStats(pentanomial=[pairs, 0, 0, 0, 0]).elo()
    won = MatchStats(pentanomial=[0, 0, 0, 0, pairs]).elo()
    p = 1 - 0.05 ** (1 / pairs)  # (1 - p)^pairs = 5%
    assert lost.method == won.method == ELO_BOUND
    assert lost.ci_high == pytest.approx(elo_from_score(p)) and lost.ci_low is None
    assert won.ci_low == pytest.approx(-elo_from_score(p)) and won.ci_high is None
    text = estimate_text(lost.to_dict(), "elo", True)
    assert re.fullmatch(r"< -[\d,]+ \(one-sided 95% bound\)", text), text
    assert estimate_text(won.to_dict(), "elo", True).startswith("> +")
    match = strength.Match("a", "b", 2 * pairs, 0, 2 * pairs, 0, 0, 0, 0.5, 0.5, 0.0, 0.0,
                           (pairs, 0, 0, 0, 0), (2 * pairs, 0, 0))
    assert strength.format_elo(match) == text
    mixed = MatchStats(pentanomial=[1, 0, 3, 0, 2]).elo()
    assert mixed.method != ELO_BOUND and "bound" not in estimate_text(mixed.to_dict(), "elo")


# --- point 11: the bench under load ------------------------------------------------------------

def test_bench_says_the_load_and_warns_when_the_machine_is_busy(monkeypatch):
    from canasta_sim.benchmarks import suite

    monkeypatch.setattr(suite.os, "getloadavg", lambda: (0.1, 0.2, 0.3))
    assert suite.load_lines(2) == [
        "load average 0.10 0.20 0.30 (1, 5, 15 min) before the bench, on 2 cores"]
    monkeypatch.setattr(suite.os, "getloadavg", lambda: (3.5, 2.0, 1.0))
    lines = suite.load_lines(2)
    assert len(lines) == 2 and lines[1].startswith("warning: the machine is busy (load average "
                                                   "3.50")


def test_bench_warns_of_an_impossible_ratio():
    from canasta_sim.benchmarks.suite import Result, impossible_ratios

    one = Result("play", "greedy", 1, "kernel", 100, (100.0,), "deals/s")
    fine = Result("play", "greedy", 2, "kernel", 100, (199.0,), "deals/s")
    odd = Result("play", "greedy", 2, "end-to-end", 100, (250.0,), "deals/s")
    odd_one = Result("play", "greedy", 1, "end-to-end", 100, (100.0,), "deals/s")
    assert impossible_ratios([one, fine]) == []
    (line,) = impossible_ratios([one, fine, odd_one, odd])
    assert "2 threads ran 2.50 times as fast as one" in line


def test_a_tournament_with_a_clean_sweep_rates_on_points_per_deal():
    """A bound has no standard error: the joint ladder falls back to points per deal rather
    than dropping the ladder."""
    from canasta_sim.stats import MatchStats
    from canasta_sim.study.answer import rating_ladder

    truth = {"a": 100.0, "b": 20.0, "c": -120.0}
    matches = [{"a": x, "b": y,
                "elo": {"estimate": truth[x] - truth[y], "ci_low": None, "ci_high": None,
                        "se": 5.0 + i},
                "points_per_deal": {"estimate": (truth[x] - truth[y]) / 10, "se": 1.0}}
               for i, (x, y) in enumerate((("a", "b"), ("a", "c"), ("b", "c")))]
    assert rating_ladder(matches)["scale"] == "elo"
    matches[1]["elo"] = MatchStats(pentanomial=[0, 0, 0, 0, 50]).elo().to_dict()
    ladder = rating_ladder(matches)
    assert ladder["scale"] == "points per deal"
    assert {r["policy"]: round(r["rating"], 6) for r in ladder["ratings"]} == \
        {"a": 10.0, "b": 2.0, "c": -12.0}
