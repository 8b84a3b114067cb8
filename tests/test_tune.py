"""canasta-sim tune (issue 13, point 2): SPSA and CMA-ES on synthetic noisy objectives with a
known optimum (no engine), the command end to end on a few games (files, reproducibility,
refusal to overwrite), bad input (one line, exit 2, nothing played or written), and the
verification on seeds no iteration played."""
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canasta_sim import tune
from canasta_sim.cli import cli
from canasta_sim.errors import BadInput


def _runner():
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()                  # click >= 8.2 keeps stderr apart


def _space(lo, hi, integer, start):
    return tune.Space("expert", {}, tuple(f"p{i}" for i in range(len(lo))),
                      np.array(lo, float), np.array(hi, float), np.array(integer, bool),
                      np.array(start, float))


class Quadratic:
    """f(theta) = 0.6 - sum(((theta - opt) / span)^2) plus noise: a part common to the points
    of one call (the luck of the shared cards) and a smaller part of each point's own."""

    def __init__(self, space, optimum, common=0.05, own=0.01, seed=0):
        self.space, self.optimum = space, np.asarray(optimum, float)
        self.common, self.own = common, own
        self.rng = np.random.default_rng(seed)
        self.calls = []

    def true(self, theta):
        span = self.space.hi - self.space.lo
        return 0.6 - float(np.sum(((np.asarray(theta) - self.optimum) / span) ** 2))

    def __call__(self, points, iteration):
        self.calls.append((iteration, [p.copy() for p in points]))
        shared = self.rng.normal(0, self.common)
        return [self.true(p) + shared + self.rng.normal(0, self.own) for p in points]


# --------------------------------------------------------------------------------------------
# SPSA and CMA-ES without the engine
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_spsa_converges_on_a_noisy_quadratic(seed):
    space = _space([4, 0, -500], [40, 12, 2000], [True, False, True], [16, 4, 300])
    optimum = [28, 7.5, 1200]
    f = Quadratic(space, optimum, seed=seed)
    x = tune.spsa(space, f, 300, tune.SpsaGains(a=0.5, c=0.1, A=30),
                  np.random.default_rng(seed))
    found = space.played(x)
    assert np.all(np.abs(space.unit(found) - space.unit(optimum)) < 0.06), found
    assert f.true(found) > f.true(space.start) + 0.1
    assert found[0] == int(found[0]) and found[2] == int(found[2])


def test_spsa_stays_in_the_box_plays_whole_numbers_and_perturbs_them():
    space = _space([0, 0], [4, 1], [True, False], [2, 0.5])
    f = Quadratic(space, [9, -3], common=0.01, own=0.01)   # optimum outside the box
    steps = []
    x = tune.spsa(space, f, 200, tune.SpsaGains(c=0.05, A=20), np.random.default_rng(3),
                  on_step=steps.append)
    assert np.allclose(space.played(x), [4, 0])
    for _, (plus, minus) in f.calls:
        for p in (plus, minus):
            assert 0 <= p[0] <= 4 and p[0] == round(p[0]) and 0 <= p[1] <= 1
        assert plus[0] != minus[0]      # c * 4 = 0.2 < half a unit: widened to half a unit
    assert [s.iteration for s in steps] == list(range(200))
    assert all(s.kinds == ("plus", "minus") for s in steps)


def test_spsa_is_reproducible_and_scale_divides_the_difference():
    space = _space([0, 0], [10, 10], [False, False], [5, 5])
    runs = []
    for scale in (1.0, 1.0, 4000.0):
        f = Quadratic(space, [8, 2], seed=5)
        runs.append(tune.spsa(space, lambda p, k: [4000 * v for v in f(p, k)], 20,
                              tune.SpsaGains(a=0.5 / 4000 if scale == 1.0 else 0.5),
                              np.random.default_rng(7), scale=scale))
    assert np.array_equal(runs[0], runs[1])
    assert np.allclose(runs[0], runs[2])


def test_cmaes_converges_on_a_noisy_quadratic():
    pytest.importorskip("cma")
    space = _space([4, 0, -500], [40, 12, 2000], [True, False, True], [16, 4, 300])
    f = Quadratic(space, [28, 7.5, 1200], seed=4)
    x = tune.cmaes(space, f, 60, sigma=0.2, popsize=8, seed=4)
    found = space.played(x)
    assert np.all(np.abs(space.unit(found) - space.unit([28, 7.5, 1200])) < 0.08), found
    assert all(len(points) == 8 for _, points in f.calls)


def test_space_rounds_to_its_grid_and_names_the_policy():
    space = tune.parse_space("expert(wild_hold=2)", "freeze_at,danger=0:20")
    assert space.names == ("freeze_at", "danger") and space.fixed == {"wild_hold": 2.0}
    assert list(space.start) == [16, 4] and list(space.lo) == [4, 0] and list(space.hi) == [40, 20]
    theta = space.played(space.unit([17.4999, 3.14159]))
    assert list(theta) == [17, 3.14]
    assert space.policy_text(theta) == "expert(danger=3.14,freeze_at=17,wild_hold=2)"
    assert space.values(theta) == {"freeze_at": 17, "danger": 3.14}
    assert isinstance(space.values(theta)["freeze_at"], int)


# --------------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------------

@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if any game would be played."""
    def forbidden(*args, **kwargs):
        raise AssertionError("a game was played before the input was checked")
    monkeypatch.setattr(tune, "play_duplicate", forbidden)
    monkeypatch.setattr("canasta_sim.runner.play_game_range", forbidden)


BAD = [
    (["nobody", "--params", "danger"], ["'nobody'", "accepted policies"]),
    (["greedy", "--params", "danger"], ["'greedy' has no parameters to tune", "expert"]),
    (["expert", "--params", "colour"], ["no parameter 'colour'", "freeze_at"]),
    (["expert", "--params", "danger,danger"], ["'danger' is given twice"]),
    (["expert", "--params", ""], ["names no parameter"]),
    (["expert", "--params", "danger=8:2"], ["is empty", "LO < HI"]),
    (["expert", "--params", "danger=2"], ["not LO:HI"]),
    (["expert", "--params", "danger=0:x"], ["'x' is not a finite number"]),
    (["expert", "--params", "freeze_at=20:30"], ["start freeze_at=16", "outside the box"]),
    (["expert", "--params", "freeze_at=4.5:30"], ["freeze_at=4.5 is not a whole number"]),
    (["expert", "--params", "danger=0:2000"], ["danger=2000 is out of range"]),
    (["expert", "--params", "danger", "--games", "1"], ["--games 1", "even number"]),
    (["expert", "--params", "danger", "--games", "0"], ["--games 0"]),
    (["expert", "--params", "danger", "--games", "7"], ["--games 7"]),
    (["expert", "--params", "danger", "--iterations", "0"], ["--iterations 0"]),
    (["expert", "--params", "danger", "--against", "nobody"], ["'nobody'"]),
    (["expert", "--params", "danger", "--against", "expert,careful"], ["more than one"]),
    (["expert", "--params", "danger", "--rules", "three-player"],
     ["--games 200", "a multiple of 3", "3 rotations"]),
    (["expert", "--params", "danger", "--rules", "cutthroat", "--games", "4"],
     ["--games 4", "a multiple of 3"]),
    (["expert", "--params", "danger", "--rules", "cutthroat", "--games", "6",
      "--verify-games", "200"], ["--verify-games 200", "0 (no verification) or a multiple of 3"]),
    (["expert", "--params", "danger", "--seed", "-1"], ["seed=-1"]),
    (["expert", "--params", "danger", "--c", "0.9"], ["--c 0.9"]),
    (["expert", "--params", "danger", "--a", "0"], ["--a 0.0"]),
    (["expert", "--params", "danger", "--stability", "-1"], ["--stability -1"]),
    (["expert", "--params", "danger", "--verify-games", "3"], ["--verify-games 3"]),
    (["expert", "--params", "danger", "--verify-sprt", "0.5"], ["--verify-sprt '0.5'"]),
    (["expert", "--params", "danger", "--verify-sprt", "0.5,0.5"], ["different"]),
    (["expert", "--params", "danger", "--verify-sprt", "0.5,0.53", "--verify-games", "0"],
     ["--verify-games 0"]),
    (["expert", "--params", "danger", "--alpha", "0.7"], ["--alpha 0.7"]),
    (["expert", "--params", "danger", "--method", "cmaes"], ["at least two parameters"]),
    (["expert", "--params", "danger,freeze_at", "--method", "cmaes", "--popsize", "1"],
     ["--popsize 1"]),
    (["expert", "--params", "danger", "--method", "nelder"], ["'nelder'", "spsa"]),
    (["expert", "--params", "danger", "--objective", "elo"], ["'elo'", "win"]),
    (["expert", "--params", "danger", "--threads", "0"], ["threads"]),
    (["expert"], ["--params"]),
]


@pytest.mark.parametrize("args,fragments", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_exit_2_and_nothing_written(args, fragments, tmp_path, no_games):
    out = tmp_path / "t"
    result = _runner().invoke(cli, ["tune", *args, "--out", str(out)])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("canasta-sim: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists()


def test_out_is_refused_if_it_holds_a_tuning_or_is_a_file(tmp_path, no_games):
    (tmp_path / "done").mkdir()
    (tmp_path / "done" / "best.json").write_text("{}")
    (tmp_path / "file").write_text("x")
    for folder, fragment in (("done", "already holds a tuning (best.json)"),
                             ("file", "is a file")):
        result = _runner().invoke(cli, ["tune", "expert", "--params", "danger", "--out",
                                        str(tmp_path / folder)])
        assert result.exit_code == 2 and fragment in result.stderr, result.stderr
    assert (tmp_path / "done" / "best.json").read_text() == "{}"


def test_cmaes_without_the_package_says_how_to_install_it(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_cma(name, *args, **kwargs):
        if name == "cma":
            raise ModuleNotFoundError("No module named 'cma'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cma)
    with pytest.raises(BadInput, match=r"canasta-sim\[tune\]"):
        tune.prepare("expert", "danger,freeze_at", method="cmaes")


# --------------------------------------------------------------------------------------------
# the command end to end
# --------------------------------------------------------------------------------------------

SMALL = ["expert", "--params", "freeze_at,danger=0:8", "--against", "careful", "--games", "4",
         "--iterations", "3", "--seed", "5", "--verify-games", "8", "--quiet"]


def _tune(args, out):
    result = _runner().invoke(cli, ["tune", *args, "--out", str(out)])
    assert result.exit_code == 0, (result.output, result.stderr, result.exception)
    return result


def test_tune_writes_its_files_and_repeats_itself_exactly(tmp_path):
    first = _tune(SMALL, tmp_path / "a")
    _tune(SMALL, tmp_path / "b")
    for name in ("trajectory.csv", "trajectory.parquet", "best.json"):
        assert (tmp_path / "a" / name).is_file()
    assert (tmp_path / "a" / "trajectory.csv").read_text() == \
        (tmp_path / "b" / "trajectory.csv").read_text()
    a = pq.read_table(tmp_path / "a" / "trajectory.parquet")
    b = pq.read_table(tmp_path / "b" / "trajectory.parquet")
    assert a.equals(b)
    rows = a.to_pandas()
    assert list(rows.kind) == ["plus", "minus"] * 3 + ["result"]
    assert list(rows.iteration) == [0, 0, 1, 1, 2, 2, 3]
    assert list(rows.first_game[:6]) == [0, 0, 2, 2, 4, 4]
    assert rows.objective[:6].between(0, 1).all()
    meta = a.schema.metadata
    assert meta[b"canasta_sim.rules"] == b"classic"
    assert json.loads(meta[b"canasta_sim.tune"])["against"] == "careful"

    best = json.loads((tmp_path / "a" / "best.json").read_text())
    again = json.loads((tmp_path / "b" / "best.json").read_text())
    assert best["tuned"] == again["tuned"] and best["verification"] == again["verification"]
    assert best["tuned"].startswith("expert(") and best["start"] == "expert"
    assert set(best["params"]) == {"freeze_at", "danger"}
    assert best["settings"]["rules"] == "classic" and best["settings"]["seed"] == 5
    assert best["made"]["kernels_hash"] and best["made"]["numba_version"]
    assert best["command"].startswith("canasta-sim tune expert --params freeze_at=4:40,")
    assert f"tuned: {best['tuned']}" in first.stdout
    assert "verification:" in first.stdout


def test_the_command_in_best_json_repeats_the_run(tmp_path):
    import shlex

    _tune(SMALL, tmp_path / "a")
    best = json.loads((tmp_path / "a" / "best.json").read_text())
    args = shlex.split(best["command"])[2:]
    _tune([*args, "--quiet"], tmp_path / "b")
    assert (tmp_path / "a" / "trajectory.csv").read_text() == \
        (tmp_path / "b" / "trajectory.csv").read_text()


def test_another_seed_another_trajectory_and_force_replaces(tmp_path):
    _tune(SMALL, tmp_path / "a")
    before = (tmp_path / "a" / "trajectory.csv").read_text()
    refused = _runner().invoke(cli, ["tune", *SMALL, "--out", str(tmp_path / "a")])
    assert refused.exit_code == 2 and "--force" in refused.stderr
    other = list(SMALL)
    other[other.index("--seed") + 1] = "6"
    _tune([*other, "--force"], tmp_path / "a")
    assert (tmp_path / "a" / "trajectory.csv").read_text() != before


def test_progress_lines_say_each_iteration(tmp_path):
    result = _tune([a for a in SMALL if a != "--quiet"], tmp_path / "a")
    lines = [ln for ln in result.stdout.splitlines() if ln.startswith("iteration ")]
    assert len(lines) == 3 and lines[0].startswith("iteration 1/3: plus ")


def test_cmaes_end_to_end(tmp_path):
    pytest.importorskip("cma")
    args = ["expert", "--params", "freeze_at,danger=0:8", "--games", "2", "--iterations", "2",
            "--method", "cmaes", "--popsize", "3", "--verify-games", "0", "--quiet"]
    _tune(args, tmp_path / "a")
    _tune(args, tmp_path / "b")
    rows = pq.read_table(tmp_path / "a" / "trajectory.parquet").to_pandas()
    assert list(rows.kind) == ["candidate"] * 6 + ["result"]
    assert rows.sigma[:6].notna().all()
    assert (tmp_path / "a" / "trajectory.csv").read_text() == \
        (tmp_path / "b" / "trajectory.csv").read_text()
    best = json.loads((tmp_path / "a" / "best.json").read_text())
    assert best["verification"] == {"skipped": "not asked for (--verify-games 0)"}
    assert best["made"]["cma_version"]


# --------------------------------------------------------------------------------------------
# the verification
# --------------------------------------------------------------------------------------------

def test_verification_plays_only_fresh_seeds_and_iterations_share_theirs(monkeypatch):
    calls = []
    real = tune.play_duplicate

    def spy(policy, against, rules, seed, first_game, pairs, *args, **kwargs):
        calls.append((policy, against, first_game, pairs))
        return real(policy, against, rules, seed, first_game, pairs, *args, **kwargs)

    monkeypatch.setattr(tune, "play_duplicate", spy)
    settings = tune.prepare("expert", "freeze_at,danger", against="careful", games=6,
                            iterations=4, seed=3, verify_games=10)
    outcome = tune.run(settings, None)
    tuning = [c for c in calls if c[1] == "careful"]
    checking = [c for c in calls if c[1] == "expert"]
    assert len(tuning) == 8 and checking
    used = {g for _, _, first, n in tuning for g in range(first, first + n)}
    fresh = {g for _, _, first, n in checking for g in range(first, first + n)}
    assert used == set(range(12)) and fresh == set(range(12, 17))
    assert used.isdisjoint(fresh)
    for k in range(4):
        plus, minus = tuning[2 * k], tuning[2 * k + 1]
        assert plus[2:] == minus[2:] == (3 * k, 3)       # same seeds within an iteration
    assert all(c[0] == outcome.tuned for c in checking)
    assert outcome.best["game_indices"] == {"tuning": [0, 12], "verification": [12, 17]}
    assert outcome.verification.stats.pairs == 5


def test_verification_statistics_and_an_early_sprt_stop():
    from canasta_sim.rules import parse_rules
    from canasta_sim.stats import MatchStats, Sprt

    rules = parse_rules("classic")
    v = tune.verify("expert", "careful", rules, 9, 1000, 400, wave_games=40,
                    sprt=Sprt(0.5, 0.6))
    assert v.sprt["decision"] == "H1" and v.games < 400 and v.games % 40 == 0
    whole = tune.play_duplicate("expert", "careful", rules, 9, 1000, v.games // 2)
    assert np.array_equal(v.stats.pentanomial, whole.stats.pentanomial)
    summary = v.to_dict()
    assert summary["win_rate"] == MatchStats(whole.stats.pentanomial,
                                             whole.stats.trinomial).win_rate().to_dict()
    assert summary["game_indices"] == [1000, 1000 + v.games // 2]
    assert summary["significant"] and summary["elo"]["estimate"] > 0


def test_no_verification_when_nothing_changed(monkeypatch):
    monkeypatch.setattr(tune, "spsa", lambda space, *a, **k: space.unit(space.start))
    settings = tune.prepare("expert", "danger", games=2, iterations=1, verify_games=4)
    outcome = tune.run(settings, None)
    assert outcome.verification is None and "equal the starting" in outcome.verify_note
    assert outcome.best["verification"] == {"skipped": outcome.verify_note}


def test_score_objective_and_a_sequential_verification_from_the_command(tmp_path):
    args = ["expert", "--params", "danger", "--against", "careful", "--games", "4",
            "--iterations", "2", "--objective", "score", "--verify-games", "40",
            "--verify-sprt", "0.45,0.55", "--quiet"]
    result = _tune(args, tmp_path / "a")
    rows = pq.read_table(tmp_path / "a" / "trajectory.parquet").to_pandas()
    points = rows[rows.kind != "result"]
    assert (points.objective == points.mean_margin).all()
    best = json.loads((tmp_path / "a" / "best.json").read_text())
    assert best["settings"]["objective"] == "score"
    assert best["settings"]["spsa"]["scale"] == tune.SCORE_SCALE
    sprt = best["verification"]["sprt"]
    assert sprt["h0"] == 0.45 and sprt["h1"] == 0.55 and sprt["decision"] in ("H0", "H1",
                                                                                "undecided")
    assert best["verification"]["games"] <= 40 and best["verification"]["games"] % 4 == 0
    assert "SPRT H0 0.45 vs H1 0.55" in result.stdout


# --------------------------------------------------------------------------------------------
# three sides: one side of the tuned policy against two of the opponent, every rotation
# --------------------------------------------------------------------------------------------

def _rotation_margins(a, b, rules, seed, first, seeds):
    """A's final score less the mean of the two others', per (rotation, seed), each rotation
    played on its own with the plain API."""
    import canasta_sim
    from canasta_sim.arms import rotated

    margins = np.zeros((3, seeds))
    for rotation in range(3):
        lineup = rotated([a, b, b], rotation)
        games, _ = canasta_sim.simulate(games=seeds, seed=seed, rules=rules,
                                        first_game=first, policies=",".join(lineup))
        g = games.to_pandas()
        finals = np.stack([g[f"s{k}_final"] for k in range(3)], axis=1).astype(float)
        own = finals[:, lineup.index(a)]
        margins[rotation] = own - (finals.sum(axis=1) - own) / 2
    return margins


def test_a_point_at_three_sides_is_the_strength_match_and_its_margin():
    from canasta_sim.rules import parse_rules
    from canasta_sim.strength import play_rotation_match

    rules = parse_rules("cutthroat")
    win = tune.play_duplicate("careful", "greedy", rules, 4, 5, 2)
    score = tune.play_duplicate("careful", "greedy", rules, 4, 5, 2, objective="score")
    margins = _rotation_margins("careful", "greedy", "cutthroat", 4, 5, 2)
    per_seed = margins.mean(axis=0)
    assert win.pairs == score.pairs == 2 and win.objective == win.win_rate
    assert score.objective == pytest.approx(per_seed.mean()) == pytest.approx(score.margin)
    assert score.se == pytest.approx(per_seed.std(ddof=1) / np.sqrt(2))
    assert win.stats.fair_share == pytest.approx(1 / 3) and win.stats.games == 6
    match = play_rotation_match("careful", "greedy", 6, 4, rules)
    first = tune.play_duplicate("careful", "greedy", rules, 4, 0, 2)
    assert first.stats.win_rate() == match.share      # seeds 0..1: the strength match


def test_the_verification_at_three_sides_adds_its_waves_up_to_the_whole():
    from canasta_sim.rules import parse_rules
    from canasta_sim.stats import Sprt

    rules = parse_rules("three-player")
    v = tune.verify("careful", "greedy", rules, 4, 10, 9, wave_games=3)
    whole = tune.play_duplicate("careful", "greedy", rules, 4, 10, 3)
    assert v.games == 9 and v.seeds == 3 and v.stats.seeds == 3
    got, want = v.stats.win_rate(), whole.stats.win_rate()
    assert got.estimate == pytest.approx(want.estimate) and got.se == pytest.approx(want.se)
    assert v.margin == pytest.approx(whole.margin)
    summary = v.to_dict()
    assert summary["elo"] is None and summary["fair_share"] == pytest.approx(1 / 3)
    assert summary["game_indices"] == [10, 13] and summary["seeds"] == 3
    stopped = tune.verify("careful", "random", rules, 4, 0, 300, wave_games=3,
                          sprt=Sprt(1 / 3, 0.6))
    assert stopped.sprt["decision"] == "H1" and stopped.games < 300 and stopped.games % 3 == 0


def test_tune_at_three_sides_from_the_command(tmp_path):
    args = ["careful", "--params", "min_pile_take", "--against", "greedy", "--rules",
            "cutthroat", "--games", "6", "--iterations", "2", "--verify-games", "12",
            "--objective", "score", "--quiet"]
    result = _tune(args, tmp_path / "a")
    assert ("for mean final margin against the mean of the other 2 sides against greedy; "
            "rules cutthroat") in result.stdout
    rows = pq.read_table(tmp_path / "a" / "trajectory.parquet").to_pandas()
    assert list(rows.first_game[:4]) == [0, 0, 2, 2] and list(rows.pairs[:4]) == [2] * 4
    points = rows[rows.kind != "result"]
    assert (points.objective == points.mean_margin).all()
    best = json.loads((tmp_path / "a" / "best.json").read_text())
    assert best["settings"]["rules"] == "cutthroat"
    assert best["games_played"]["tuning"] == 2 * 2 * 6
    v = best["verification"]
    assert best["tuned"] != "careful" and "skipped" not in v
    assert v["fair_share"] == pytest.approx(1 / 3) and v["elo"] is None
    assert v["game_indices"] == [4, 8] and v["games"] == 12
    assert "against the fair share 33.3%" in result.stdout
    assert best["command"].split("--rules ")[1].startswith("cutthroat ")
