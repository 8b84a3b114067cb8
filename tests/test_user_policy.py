"""A user's own policy (issue 13, point 1): loading, the seam, errors, and check-policy."""
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from canasta_sim.kernels.game import layout
from click.testing import CliRunner

from canasta_sim.cli import cli
from canasta_sim.errors import BadInput
from canasta_sim.runner import play_range, prepare
from canasta_sim.simulation import simulate
from canasta_sim.user_policy import PolicyError, parse_user

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FILE = HERE / "user_policies.py"
EXAMPLE = REPO / "examples" / "pile_hungry.py"


def spec(name: str) -> str:
    return f"{FILE}:{name}"


def rows(plan, first=0, n=None):
    out = np.zeros((plan.deals if n is None else n, layout.NCOLS), np.int64)
    play_range(plan, first, out)
    return out


# --- loading and names -----------------------------------------------------------------------

def test_canonical_name_carries_the_file_digest_and_parameters():
    canonical, values, user = parse_user(spec("with_params") + "(greed=3)")
    assert canonical == f"{FILE}:with_params@{user.digest}(greed=3)"
    assert values == [3.0, 0.0] and user.params == (("greed", 1.0), ("spare", 0.0))
    assert not user.python and len(user.digest) == 8
    assert parse_user("greedy", builtin=True) is None


@pytest.mark.parametrize("text, fragment", [
    (f"{HERE}/no_such_file.py:mine", "cannot be read"),
    (spec("missing_function"), "has no function 'missing_function'"),
    (spec("NOT_A_FUNCTION"), "has no function 'NOT_A_FUNCTION'"),
    (spec("with_params") + "(nope=1)", "has no parameter 'nope': accepted parameters are "
                                       "greed, spare"),
    (spec("with_params") + "(greed=inf)", "is not a finite number"),
    (spec("with_params") + "(greed=1,greed=2)", "is given twice"),
    (spec("same_as_random") + "@00000000", "was written by another version"),
])
def test_bad_user_policy_texts_are_one_line_errors(text, fragment):
    with pytest.raises(BadInput, match=None) as info:
        prepare(10, 1, "classic", text)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_a_policy_that_does_not_compile_or_returns_a_float_is_refused_before_playing():
    with pytest.raises(PolicyError, match="returns float64: accepted: a whole number"):
        prepare(10, 1, "classic", spec("returns_float"))
    with pytest.raises(PolicyError, match="does not compile with numba"):
        prepare(10, 1, "classic", spec("does_not_compile"))


def test_unknown_policy_message_mentions_own_policies():
    with pytest.raises(BadInput, match="or your own as file.py:function"):
        prepare(10, 1, "classic", "grredy")


# --- the seam --------------------------------------------------------------------------------

def test_a_user_policy_answering_like_random_plays_random_s_deals_bit_for_bit():
    """The options, their order and the random stream reach the user function unchanged."""
    for rules in ("classic", "six-player", "seed-b", "two-player"):
        mine = rows(prepare(300, 5, rules, spec("same_as_random")))
        builtin = rows(prepare(300, 5, rules, "random"))
        np.testing.assert_array_equal(mine, builtin, err_msg=rules)


def test_plain_python_path_plays_the_same_deals():
    mine = rows(prepare(40, 5, "classic", spec("same_as_random_python")))
    builtin = rows(prepare(40, 5, "classic", "random"))
    np.testing.assert_array_equal(mine, builtin)
    assert prepare(1, 5, "classic", spec("same_as_random_python")).users[0].python


def test_mixed_seats_games_threads_and_chunks_give_the_same_rows():
    policies = f"expert,{spec('same_as_random')},expert,{spec('same_as_random')}"
    one = simulate(400, 9, "classic", policies, threads=1, chunk_size=400)
    two = simulate(400, 9, "classic", policies, threads=2, chunk_size=37)
    assert one.equals(two)
    meta = one.schema.metadata
    assert b"canasta_sim.user_policies" in meta and b"same_as_random@" in \
        meta[b"canasta_sim.policies"]
    games, deals = simulate(games=20, seed=3, policies=policies)
    assert games.num_rows == 20 and deals.num_rows > 20


def test_parameters_reach_the_policy():
    low = rows(prepare(50, 2, "classic", spec("with_params") + "(greed=1)"))
    high = rows(prepare(50, 2, "classic", spec("with_params") + "(greed=2)"))
    assert not np.array_equal(low, high)
    assert (low[:, layout.COL_CHECK_FAILS] == 0).all()


def test_the_view_agrees_with_itself_and_writing_into_options_changes_nothing():
    out = rows(prepare(200, 4, "classic", spec("view_echo")))      # n returned = an error
    assert out[:, layout.COL_TURNS].min() > 0


def test_cards_are_conserved_with_a_user_policy():
    from canasta_sim.kernels.play.tasks import play_deals_nb
    plan = prepare(300, 8, "classic", f"{EXAMPLE}:pile_hungry")
    out = np.zeros((300, layout.NCOLS), np.int64)
    from canasta_sim.runner import policy_table
    play_deals_nb(plan.rules_nb, plan.seed, 0, out, policy_table(plan), plan.params,
                  plan.scores_before, 1)
    assert (out[:, layout.COL_CHECK_FAILS] == 0).all()


def test_another_process_rebuilds_the_policy_from_the_plan_without_the_file(tmp_path):
    """What a Dask worker does: the plan carries the file's text."""
    copy = tmp_path / "moved_policy.py"
    shutil.copy(FILE, copy)
    plan = prepare(30, 6, "classic", f"{copy}:same_as_random")
    expected = rows(plan)
    blob = tmp_path / "plan.pickle"
    blob.write_bytes(pickle.dumps(plan))
    copy.unlink()
    code = ("import pickle, sys, numpy as np\n"
            "from canasta_sim.runner import play_range\n"
            "from canasta_sim.kernels.game import layout\n"
            f"plan = pickle.loads(open({str(blob)!r}, 'rb').read())\n"
            "out = np.zeros((plan.deals, layout.NCOLS), np.int64)\n"
            "play_range(plan, 0, out)\n"
            "np.save(sys.argv[1], out)\n")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "rows.npy")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "rows.npy"), expected)


# --- interface errors while playing ----------------------------------------------------------

def test_an_out_of_range_answer_names_the_policy_the_decision_and_the_deal():
    with pytest.raises(PolicyError) as info:
        rows(prepare(20, 1, "classic", spec("out_of_range")))
    text = str(info.value)
    assert "out_of_range returned" in text and "at a discard decision with" in text
    assert "(deal 0, seat" in text and "accepted: an option index 0.." in text


def test_a_compiled_policy_that_raises_is_reported():
    with pytest.raises(PolicyError, match="raised an exception at a discard decision"):
        rows(prepare(20, 1, "classic", spec("raises_at_discard")))


def test_an_index_outside_an_array_is_an_error_not_a_crash():
    with pytest.raises(PolicyError, match="raised an exception at a discard decision"):
        rows(prepare(20, 1, "classic", spec("reads_past_the_options")))
    result = CliRunner().invoke(cli, ["check-policy", spec("reads_past_the_options"),
                                      "--deals", "5"])
    assert result.exit_code == 1 and "IndexError" in result.output


def test_a_python_policy_that_raises_shows_the_exception_and_line():
    with pytest.raises(PolicyError) as info:
        rows(prepare(20, 1, "classic", spec("python_raises")))
    assert "raised ZeroDivisionError: integer division or modulo by zero" in str(info.value)
    assert "(user_policies.py line" in str(info.value)
    with pytest.raises(PolicyError, match="returned 'first', not a whole number"):
        rows(prepare(20, 1, "classic", spec("python_returns_text")))


def test_errors_in_traces_and_games_too():
    from canasta_sim.trace import trace_events
    with pytest.raises(PolicyError, match="discard decision"):
        list(trace_events("classic", 1, 0, 2, spec("out_of_range")))
    with pytest.raises(PolicyError, match="discard decision"):
        simulate(games=2, seed=1, policies=spec("out_of_range"))


def test_cli_simulate_with_a_broken_policy_exits_2_and_writes_nothing(tmp_path):
    out = tmp_path / "run.parquet"
    result = CliRunner().invoke(cli, ["simulate", "--deals", "50", "--policies",
                                      spec("out_of_range"), "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "out_of_range returned" in result.output
    assert not out.exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["too_few_arguments", "too_few_arguments_jit"])
def test_a_wrong_signature_is_one_line_naming_the_file_and_the_signature(name):
    with pytest.raises(PolicyError) as info:
        prepare(10, 1, "classic", spec(name))
    text = str(info.value)
    assert f"in user_policies.py takes {name}(decision, opts, n)" in text
    assert "(decision, opts, n, view, params, rules, rand)" in text and "\n" not in text


@pytest.mark.parametrize("name, shown", [("calls_sys_exit", "raised SystemExit: 3"),
                                         ("raises_keyboard_interrupt",
                                          "raised KeyboardInterrupt")])
def test_sys_exit_and_keyboard_interrupt_from_user_code_are_user_exceptions(tmp_path, name,
                                                                            shown):
    result = CliRunner().invoke(cli, ["simulate", "--deals", "10", "--policies", spec(name),
                                      "--out", str(tmp_path / "run.parquet")])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and shown in result.output
    assert "(user_policies.py line" in result.output and "interrupted" not in result.output
    assert not list(tmp_path.iterdir())


def test_a_module_that_exits_while_importing_is_a_one_line_error(tmp_path):
    module = tmp_path / "exits.py"
    module.write_text("import sys\nsys.exit(4)\n")
    with pytest.raises(PolicyError, match=r"importing exits.py raised SystemExit: 4"):
        prepare(10, 1, "classic", f"{module}:mine")


def _run_cli(*args):
    return subprocess.run([sys.executable, "-m", "canasta_sim", *args], capture_output=True,
                          text=True, timeout=600)


def test_a_python_policy_may_call_a_numba_helper_compiled_mid_run(tmp_path):
    """The helper compiles inside the run; the rules record the kernels read was freed
    memory and the compile overwrote it (exit 139, no message)."""
    done = _run_cli("simulate", "-q", "--deals", "30", "--threads", "1", "--policies",
                    spec("python_calls_numba_helper"), "--out", str(tmp_path / "a.parquet"))
    assert done.returncode == 0, (done.returncode, done.stderr)


def test_a_policy_that_allocates_plays_as_one_that_does_not(tmp_path):
    """Allocating at every decision must not change a row (it used to reuse the freed rules
    record, and the deals never ended)."""
    import pyarrow.parquet as pq
    tables = []
    for name in ("allocates", "seven_mod_n"):
        out = tmp_path / f"{name}.parquet"
        done = _run_cli("simulate", "-q", "--deals", "60", "--threads", "2", "--policies",
                        spec(name), "--out", str(out))
        assert done.returncode == 0, done.stderr
        tables.append(pq.read_table(out).drop_columns(["policy_0", "policy_1", "policy_2",
                                                        "policy_3"]))
    assert tables[0].equals(tables[1])


# --- everywhere a built-in name works --------------------------------------------------------

def test_replay_strength_and_sweep_take_a_user_policy(tmp_path):
    mine = f"{EXAMPLE}:pile_hungry"
    result = CliRunner().invoke(cli, ["replay", "--deals", "0:2", "--policies", mine])
    assert result.exit_code == 0, result.output
    assert result.output.count('"ev":"start"') == 2
    result = CliRunner().invoke(cli, ["strength", "--policies", f"{mine},greedy", "--games",
                                      "20", "--csv", ""])
    assert result.exit_code == 0, result.output
    assert "pile_hungry.py:pile_hungry > greedy" in result.output
    table = simulate(60, 1, "classic", f"{mine},expert,{mine},expert", sweep=["expert.danger=1:2:1",
                                                                  "pile_hungry.wild_penalty=0,80"])
    assert table.num_rows == 240
    assert set(table.column("pile_hungry__wild_penalty").to_pylist()) == {0.0, 80.0}
    first = table.filter(table.column("pile_hungry__wild_penalty").to_numpy() == 0.0)
    other = table.filter(table.column("pile_hungry__wild_penalty").to_numpy() == 80.0)
    assert first.column("s0_score").to_pylist() != other.column("s0_score").to_pylist()
    with pytest.raises(BadInput, match="has no parameter 'greed'"):
        simulate(10, 1, "classic", f"{mine},expert,{mine},expert",
                 sweep="pile_hungry.greed=1,2")


def test_study_arms_can_be_user_policies(tmp_path):
    from canasta_sim import study
    mine = f"{EXAMPLE}:pile_hungry"
    path = tmp_path / "study.toml"
    path.write_text(f'[study]\nname = "mine"\nseed = 3\ndeals = 300\nshard_size = 100\n'
                    f'[[arms]]\nname = "greedy"\npolicies = "greedy"\n'
                    f'[[arms]]\nname = "mine"\npolicies = "{mine},greedy,{mine},greedy"\n')
    study.run(str(path), str(tmp_path / "out"), threads=1)
    frozen = (tmp_path / "out" / "study.toml").read_text()
    assert "pile_hungry@" in frozen
    assert len(list((tmp_path / "out" / "data" / "arm=mine").glob("*.parquet"))) == 3


# --- check-policy ----------------------------------------------------------------------------

def test_check_policy_passes_the_example():
    result = CliRunner().invoke(cli, ["check-policy", f"{EXAMPLE}:pile_hungry", "--deals",
                                      "120", "--positions", "60", "--traced", "40"])
    assert result.exit_code == 0, result.output
    for name in ("interface", "repeatable", "information", "rules", "speed"):
        assert name in result.output
    assert "all checks passed" in result.output and "0 violations" in result.output


def test_check_policy_reports_a_raise_with_the_python_exception():
    result = CliRunner().invoke(cli, ["check-policy", spec("raises_at_discard"), "--deals",
                                      "20"])
    assert result.exit_code == 1
    assert "FAILED" in result.output and "again as plain Python" in result.output
    assert "ValueError: no discard today" in result.output


def test_the_information_check_fails_when_the_seat_sees_hidden_cards(monkeypatch):
    """Rearranging also the seat's own hand changes its play: the check must say so."""
    from canasta_sim.kernels.game import slots

    from canasta_sim import fairness

    real = fairness.rearrange_hidden

    def leaky(S, seat, rng, *fixed):
        moved = real(S, seat, rng, *fixed)
        hands = S.hands
        other = (seat + 1) % int(S.st[slots.ST_NSEATS])
        hands[[seat, other]] = hands[[other, seat]]
        return moved

    monkeypatch.setattr(fairness, "rearrange_hidden", leaky)
    plan = prepare(10, 1, "classic", "greedy")
    assert not fairness.information_check(plan, positions=30, seed=2).ok


@pytest.mark.parametrize("policy", ["expert", "random", f"{EXAMPLE}:pile_hungry"])
def test_information_check_passes_built_in_and_user_policies(policy):
    from canasta_sim import fairness
    plan = prepare(10, 1, "classic", policy)
    check = fairness.information_check(plan, positions=80, seed=3)
    assert check.ok, check.detail


def test_tune_takes_a_user_policy_with_boxes():
    from canasta_sim.tune import parse_space
    space = parse_space(f"{EXAMPLE}:pile_hungry(wild_penalty=40)", "wild_penalty=0:100")
    assert space.names == ("wild_penalty",) and space.start.tolist() == [40.0]
    assert not space.integer[0] and "pile_hungry@" in space.policy_text([55.0])
    assert space.policy_text([55.0]).endswith("(wild_penalty=55)")
    with pytest.raises(BadInput, match="has no search range: accepted: its box given as LO:HI"):
        parse_space(f"{EXAMPLE}:pile_hungry", "wild_penalty")
    with pytest.raises(BadInput, match="has no parameters to tune"):
        parse_space(spec("same_as_random"), "x=0:1")


def test_a_registered_entry_point_is_found_by_name(tmp_path, monkeypatch):
    package = tmp_path / "fancy_policies"
    package.mkdir()
    (package / "__init__.py").write_text(FILE.read_text())
    info = tmp_path / "fancy_policies-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fancy-policies\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[canasta_sim.policies]\nfancy = fancy_policies:same_as_random\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plan = prepare(30, 5, "classic", "fancy")
    assert plan.names[0].startswith("fancy@") and plan.users[0].func == "same_as_random"
    np.testing.assert_array_equal(rows(plan), rows(prepare(30, 5, "classic", "random")))
    assert prepare(1, 5, "classic", "greedy").users == ()


def _two_arm_study(tmp_path, policy_file):
    path = tmp_path / "study.toml"
    path.write_text('[study]\nname = "mine"\nseed = 3\ndeals = 200\nshard_size = 100\n'
                    '[[arms]]\nname = "greedy"\npolicies = "greedy"\n'
                    f'[[arms]]\nname = "mine"\npolicies = "{policy_file}:same_as_random"\n')
    return path


def test_dask_writes_the_same_files_and_a_worker_needs_no_copy_of_the_file(tmp_path):
    """A worker gets the user files' text with each task: with the file gone it still plays
    the very same shard."""
    pytest.importorskip("distributed")
    from canasta_sim import study
    from canasta_sim.study import execute
    from canasta_sim.user_policy import sent_sources

    copy = tmp_path / "gone_policy.py"
    shutil.copy(FILE, copy)
    threads, dask = tmp_path / "threads", tmp_path / "dask"
    study.run(str(_two_arm_study(tmp_path, copy)), str(threads), threads=1, report=False)
    study.run(str(_two_arm_study(tmp_path, copy)), str(dask), executor="dask", workers=2,
              report=False)
    shards = sorted(p.relative_to(threads) for p in (threads / "data").rglob("*.parquet"))
    assert len(shards) == 4
    for rel in shards:
        assert (threads / rel).read_bytes() == (dask / rel).read_bytes(), rel
    blob = tmp_path / "task.pickle"
    blob.write_bytes(pickle.dumps(((threads / "study.toml").read_text(),
                                   execute.current_kernels_hash(), sent_sources())))
    copy.unlink()
    worker = tmp_path / "worker"
    code = ("import pickle\nfrom canasta_sim.study import execute\n"
            f"spec, kernels, sources = pickle.loads(open({str(blob)!r}, 'rb').read())\n"
            f"execute.dask_task(spec, 'mine', 100, 100, {str(worker)!r}, kernels, sources)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    rel = [p for p in shards if "arm=mine" in str(p) and "part-100-" in p.name][0]
    assert (worker / rel).read_bytes() == (threads / rel).read_bytes()


def test_compare_names_a_user_policy_arm_by_its_function(tmp_path):
    result = CliRunner().invoke(cli, ["compare", "--policies", f"{EXAMPLE}:pile_hungry",
                                      "--policies", "greedy", "--games", "40", "--out",
                                      str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    assert "pile_hungry-vs-greedy" in (tmp_path / "cmp" / "study.toml").read_text()
