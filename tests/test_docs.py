"""The repository stands on its own (issue 12, points 1, 2 and 5): the docs in docs/ cover
every rule ID the code cites, every knob and every policy parameter, the tables made from
the code are identical to it, and nothing users read points outside the repository."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_sim import policies, rules
from canasta_sim.cli import cli

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"


def _block(path, name):
    text = path.read_text()
    match = re.search(rf"<!-- {name}:begin[^\n]*-->\n(.*?)<!-- {name}:end -->", text, re.DOTALL)
    assert match, f"no {name} block in {path}"
    return match.group(1)


def test_knob_table_is_made_from_the_code():
    assert _block(DOCS / "knobs.md", "knobs") == rules.knobs_markdown()
    assert _block(DOCS / "knobs.md", "presets") == rules.presets_markdown()


def test_policy_list_is_made_from_the_code():
    block = _block(DOCS / "policies.md", "policies")
    assert block == "```\n" + "\n".join(policies.describe()) + "\n```\n"


def test_every_knob_has_a_meaning_and_sources():
    assert set(rules.KNOB_DOCS) == set(rules.KNOBS)
    for name, doc in rules.KNOB_DOCS.items():
        assert doc.meaning and doc.sources and "\n" not in doc.meaning, name


def test_every_rule_id_the_code_cites_is_in_docs_rules():
    code = "".join(p.read_text() for folder in ("kernels", "canasta_sim")
                   for p in sorted((REPO / folder).rglob("*.py")))
    cited = {int(m) for m in re.findall(r"\bR(\d{1,2})\b", code)}
    written = {int(m) for m in re.findall(r"\*\*R(\d{1,2})\b", (DOCS / "rules.md").read_text())}
    assert cited - written == set()
    assert written == set(range(1, 61))


def test_rules_show_prints_each_knobs_meaning():
    result = CliRunner().invoke(cli, ["rules", "show", "seed-a"])
    assert result.exit_code == 0
    for name, doc in rules.KNOB_DOCS.items():
        (line,) = [ln for ln in result.output.splitlines() if ln[2:].startswith(name + " ")]
        assert line.endswith(doc.meaning), line
    assert "docs/knobs.md" in result.output


def test_policies_command_lists_parameters_and_defaults():
    result = CliRunner().invoke(cli, ["policies"])
    assert result.exit_code == 0
    assert result.output.splitlines() == policies.describe()
    assert "expert: freeze_at=16, min_pile_take=6" in result.output
    assert "danger: weight of" in result.output and "a number in 0..1000" in result.output


USER_TEXTS = ["README.md", "CHANGELOG.md", "examples/reading_results.md",
              *[f"docs/{p.name}" for p in sorted(DOCS.glob("*.md"))]]


@pytest.mark.parametrize("name", USER_TEXTS)
def test_user_docs_never_point_outside_the_repository(name):
    text = (REPO / name).read_text()
    assert not re.search(r"\.\./|shared/|RULES\.md|TRACE\.md", text), name
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith("http"):
            assert (REPO / name).parent.joinpath(target).exists(), (name, target)


def _all_help():
    texts = []
    for path in ([], ["simulate"], ["replay"], ["rules"], ["rules", "show"], ["rules", "list"],
                 ["policies"], ["audit"], ["warm"], ["cache"], ["cache", "info"],
                 ["cache", "clear"], ["strength"], ["tune"], ["bench"], ["check-policy"]):
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, path
        texts.append(result.output)
    return "\n".join(texts)


def test_help_texts_and_messages_point_into_the_repository():
    help_text = _all_help()
    assert not re.search(r"RULES\.md|TRACE\.md|\.\./shared", help_text)
    source = "".join(p.read_text() for p in sorted((REPO / "canasta_sim").glob("*.py")))
    assert "../shared" not in source and "RULES.md" not in source and "TRACE.md" not in source
    for doc in set(re.findall(r"docs/[a-z]+\.md", help_text + source)):
        assert (REPO / doc).exists(), doc


def test_readme_documents_audit_and_the_commands():
    readme = (REPO / "README.md").read_text()
    for command in ("canasta-sim audit", "canasta-sim policies", "cache info", "cache clear",
                    "canasta-sim warm", "to_pandas", "deal_in_game", "careful__freeze_at"):
        assert command in readme, command


def test_license_changelog_and_examples_exist():
    assert "MIT License" in (REPO / "LICENSE").read_text()
    changelog = (REPO / "CHANGELOG.md").read_text()
    assert "careful__freeze_at" in changelog and "deal_in_game" in changelog
    for name in ("study.py", "reading_results.md", "reading_results.py"):
        assert (REPO / "examples" / name).exists()


def test_examples_run(tmp_path):
    study = subprocess.run([sys.executable, str(REPO / "examples" / "study.py"), "--deals",
                            "300"], capture_output=True, text=True, cwd=tmp_path)
    assert study.returncode == 0, study.stderr
    assert "freeze_at  mean margin" in study.stdout and "never" in study.stdout
    reading = subprocess.run([sys.executable, str(REPO / "examples" / "reading_results.py")],
                             capture_output=True, text=True, cwd=tmp_path)
    assert reading.returncode == 0, reading.stderr
    assert "s2_score dtype: Int64" in reading.stdout


def test_readme_shows_the_whole_example_policy_and_docs_list_the_view():
    """The README's "Write your own policy" example is examples/pile_hungry.py, whole, and
    docs/own-policy.md names every view offset and option kind of the interface."""
    from canasta_sim import policy_api

    example = (REPO / "examples" / "pile_hungry.py").read_text()
    body = example[example.index("from numba import njit"):]
    readme = (REPO / "README.md").read_text()
    assert "### Write your own policy" in readme and body in readme
    doc = (REPO / "docs" / "own-policy.md").read_text()
    names = [n for n in dir(policy_api) if n.startswith(("V_", "SV_", "OPT_", "DEC_"))]
    missing = [n for n in names if n not in doc and n not in ("V_SIDES", "V_MELDS")]
    assert not missing, missing


# --------------------------------------------------------------------------------------------
# Every command of the README and docs/ runs (issue 27, point 8)
# --------------------------------------------------------------------------------------------
# The ```bash blocks of README.md and docs/*.md hold commands to type (unmarked blocks are
# synopses such as `--deals N` or sample output).  Each command is run in a scratch folder
# (one per page, in the page's order, so `replay ... > traces.jsonl` feeds the `audit` after
# it) with its sizes scaled down, and must exit 0.

SCALED = {"--deals": 40, "--games": 4, "--iterations": 1, "--verify-games": 4, "--repeat": 1,
          "--positions": 20, "--traced": 5, "--workers": 1, "--rollouts": 40}
"""Size options and the value each is cut to (at most: a smaller value is kept)."""
SCALED_BY_COMMAND = {"equity-table": {"--games": 10}}
"""Commands whose size option has a larger least value (equity-table needs 10 games)."""
DEFAULT_SIZES = {"simulate": {"--deals": "40"}, "strength": {"--games": "4"},
                 "check-policy": {"--deals": "40", "--positions": "20", "--traced": "5"},
                 "bench": {"--deals": "40", "--repeat": "1", "--no-target": None},
                 "tune": {"--games": "4", "--iterations": "1", "--verify-games": "4"}}
"""Options added to a command that leaves its size at a default made for real runs (a flag
without a value: None; bench's --target run plays 1,000,000 deals)."""
SKIPPED = {
    "pip install": "installs packages (the test runs in an environment already installed)",
    "python3 -m venv": "makes a virtual environment (.ci/run does, from the README)",
    ". .venv/bin/activate": "activates the virtual environment (as above)",
    "python3 -m pytest": "the test suite itself, of which this test is a part",
    "dask scheduler": "starts a Dask cluster's scheduler, which never returns",
    "dask worker": "starts a Dask cluster's worker, which never returns",
    "--scheduler": "sends the work to a Dask cluster at another machine's address",
}
"""Commands that must not run in a test, by a piece of their text, each with the reason."""
SPEC_SIZES = {"deals": 40, "games": 4}
"""The size keys of a study spec (examples/*.toml) and the value each is cut to."""


def _bash_blocks(text):
    """(line number, body) of every ```bash block of a Markdown text."""
    for match in re.finditer(r"^ *```bash\n(.*?)^ *```", text, re.DOTALL | re.MULTILINE):
        yield text[:match.start()].count("\n") + 1, match.group(1)


def _doc_commands(path):
    """(line, command words) of every command of a page's bash blocks, continuation lines
    joined, comments dropped, `a && b` split into two commands."""
    import shlex

    out = []
    for line_no, body in _bash_blocks(path.read_text()):
        joined = re.sub(r"\\\n\s*", " ", body)
        for offset, line in enumerate(joined.splitlines()):
            tokens = shlex.split(line, comments=True)
            while tokens:
                cut = tokens.index("&&") if "&&" in tokens else len(tokens)
                out.append((line_no + 1 + offset, tokens[:cut]))
                tokens = tokens[cut + 1:]
    return out


def _skip_reason(tokens):
    """Why a command must not run in a test (SKIPPED), or None."""
    text = " ".join(tokens)
    return next((why for piece, why in SKIPPED.items() if piece in text), None)


def _scaled(tokens):
    """A command with its sizes cut down (SCALED, DEFAULT_SIZES); a deal range A:B keeps
    at most 20 deals."""
    out = list(tokens)
    words = [t for t in out if not re.match(r"[A-Z_]+=", t)]  # after a VAR=1 prefix
    command = words[1] if words[:1] == ["canasta-sim"] and len(words) > 1 else None
    sizes = {**SCALED, **SCALED_BY_COMMAND.get(command, {})}
    for i, token in enumerate(out[:-1]):
        if token in sizes:
            value = out[i + 1]
            if ":" in value:
                first, last = (int(v) for v in value.split(":"))
                out[i + 1] = f"{first}:{min(last, first + 20)}"
            elif value.isdigit():
                out[i + 1] = str(_cut(int(value), sizes[token]))
    for option, value in DEFAULT_SIZES.get(command, {}).items():
        if option not in out and not (option == "--deals" and "--games" in out):
            out += [option] if value is None else [option, value]
    return out


def _cut(value: int, cap: int) -> int:
    """``value`` cut to about ``cap``, keeping its divisibility by 2 and 3 (a duplicate
    design needs a multiple of the sides: --games 1500 at three sides becomes 6, not 4)."""
    if value <= cap:
        return value
    step = 1
    for d in (2, 3):
        if value % d == 0:
            step *= d
    return -(-cap // step) * step


def _scratch_folder(tmp_path):
    """A scratch folder with a copy of examples/ (its specs' sizes cut to SPEC_SIZES)."""
    import shutil

    shutil.copytree(REPO / "examples", tmp_path / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for spec in (tmp_path / "examples").glob("*.toml"):
        text = spec.read_text()
        for key, value in SPEC_SIZES.items():
            text = re.sub(rf"(?m)^{key} = \d+", f"{key} = {value}", text)
        spec.write_text(text)
    return tmp_path


def _run_doc_command(tokens, cwd, monkeypatch):
    """Run one (scaled) ``canasta-sim`` command in this process (in ``cwd``, with its
    ``VAR=value`` prefix set and a ``> FILE`` redirection written); returns (exit code, the
    last line of stderr).  In-process, the kernels and the report's libraries load once for
    every command, not once per command."""
    tokens = list(tokens)
    while re.match(r"[A-Z_]+=", tokens[0]):
        name, _, value = tokens.pop(0).partition("=")
        monkeypatch.setenv(name, value)
    redirect = None
    if ">" in tokens:
        redirect = tokens[tokens.index(">") + 1]
        tokens = tokens[:tokens.index(">")]
    if tokens[0] in ("python", "python3"):       # an example script: its own process
        done = subprocess.run([sys.executable, *tokens[1:]], cwd=cwd, capture_output=True,
                              text=True)
        if redirect is not None:
            Path(cwd, redirect).write_text(done.stdout)
        return done.returncode, ((done.stderr or "").strip().splitlines() or [""])[-1]
    assert tokens[0] == "canasta-sim", tokens
    monkeypatch.chdir(cwd)
    result = _runner().invoke(cli, tokens[1:])
    if redirect is not None:
        Path(cwd, redirect).write_text(result.stdout)
    lines = (result.stderr or "").strip().splitlines() or [repr(result.exception)]
    return result.exit_code, lines[-1]


def _runner():
    """A CliRunner keeping stderr apart from stdout."""
    try:
        return CliRunner(mix_stderr=False)  # click 8.1
    except TypeError:
        return CliRunner()                  # click >= 8.2 keeps stderr apart


DOC_PAGES = ["README.md", *[f"docs/{p.name}" for p in sorted(DOCS.glob("*.md"))]]
_RAN = set()  # scaled commands already run (by an earlier page): run once


@pytest.mark.parametrize("page", [p for p in DOC_PAGES if "```bash" in (REPO / p).read_text()])
def test_every_command_of_the_docs_runs(page, tmp_path, monkeypatch):
    """Every command of the page's bash blocks, sizes cut down, exits 0 (or is in SKIPPED
    with its reason).  A command already run word for word by an earlier page, and reading
    no file an earlier command of its page wrote, is not run again."""
    cwd = _scratch_folder(tmp_path)
    failed = []
    for line_no, tokens in _doc_commands(REPO / page):
        if _skip_reason(tokens):
            continue
        scaled = _scaled(tokens)
        key = " ".join(scaled)
        if key in _RAN and ">" not in key and "audit" not in key and "study" not in key:
            continue
        code, tail = _run_doc_command(scaled, cwd, monkeypatch)
        _RAN.add(key)
        if code != 0:
            failed.append(f"{page}:{line_no}: {key} -> {code}: {tail}")
    assert not failed, "\n".join(failed)


def test_the_quick_start_command_runs_as_typed(tmp_path):
    """The README's first command after the install, through the installed console script
    (the page test runs the commands in-process)."""
    import os

    (_, tokens), = [(n, t) for n, t in _doc_commands(REPO / "README.md")
                    if t[:2] == ["canasta-sim", "simulate"] and "--sweep" not in t][:1]
    script = Path(sys.executable).parent / "canasta-sim"
    done = subprocess.run([str(script), *_scaled(tokens)[1:]], cwd=tmp_path,
                          capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "results" / "run.parquet").exists()


def test_doc_commands_are_found_and_skips_are_few():
    """The extraction finds the commands it should, and SKIPPED stays a short list of
    commands that cannot run in a test."""
    commands = {page: _doc_commands(REPO / page) for page in DOC_PAGES}
    readme = [" ".join(t) for _, t in commands["README.md"]]
    assert any(c.startswith("canasta-sim simulate --deals 100000") for c in readme)
    assert any(c.startswith("canasta-sim audit traces.jsonl") for c in readme)
    skipped = [" ".join(t) for cs in commands.values() for _, t in cs if _skip_reason(t)]
    ran = [" ".join(t) for cs in commands.values() for _, t in cs if not _skip_reason(t)]
    assert len(skipped) <= 20 and len(ran) >= 30, (skipped, len(ran))
    assert _scaled("canasta-sim replay --seed 1 --deals 0:1000".split())[-1] == "0:20"
    assert _scaled("canasta-sim strength".split()) == "canasta-sim strength --games 4".split()


def test_ci_runs_the_readme_test_command_and_the_quick_start_makes_a_venv():
    """.ci/run runs the README's test command word for word, and both set-up commands of the
    quick start make and use a virtual environment first (PEP 668 refuses a system-wide pip
    install on Debian and Ubuntu)."""
    blocks = [body.strip() for _, body in _bash_blocks((REPO / "README.md").read_text())]
    install, tests = blocks[0], blocks[1]
    venv = "python3 -m venv .venv && . .venv/bin/activate && python3 -m pip install "
    assert install.startswith(venv) and "canasta-sim simulate" in install
    assert tests.startswith(venv) and tests.endswith("python3 -m pytest -q")
    ci = [line for line in (REPO / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == [tests]
    assert tests in (DOCS / "testing.md").read_text()
    install_doc = next(body for _, body in _bash_blocks((DOCS / "install.md").read_text()))
    assert install_doc.startswith("python3 -m venv .venv")


def test_one_compile_time_figure():
    """How long a cold compile takes is said in one place, _cache.COMPILE_TIME, written in
    docs/performance.md beside its measurement; every message and help text that gives a
    figure uses it, and no other figure is left in the README, the docs or the code."""
    from canasta_sim import _cache

    figure = _cache.COMPILE_TIME
    assert f"**{figure}**" in (DOCS / "performance.md").read_text()
    assert figure in _cache.COMPILE_NOTE
    for path in (["warm"], ["bench"]):
        result = CliRunner().invoke(cli, [*path, "--help"], terminal_width=1000)
        assert figure in " ".join(result.output.split()), path
    texts = [(REPO / "README.md").read_text(), (DOCS / "install.md").read_text(),
             (DOCS / "search.md").read_text(), (REPO / "tests" / "conftest.py").read_text(),
             *(p.read_text() for p in sorted((REPO / "canasta_sim").rglob("*.py")))]
    stale = re.compile(r"1\.5-3 minutes|about 100 s|up to 400|35 s of CPU|about 100\s+seconds"
                       r"|5-10 minutes|about a minute on two")
    assert not [m.group(0) for t in texts for m in stale.finditer(t)]
    assert _cache.COMPILE_NOTE in (DOCS / "install.md").read_text()
