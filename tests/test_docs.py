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
