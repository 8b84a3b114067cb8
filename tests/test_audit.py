"""``canasta-sim audit``: the project's own trace checker, from a fresh clone (issue 12,
point 2).  It accepts the engine's traces of every preset and policy, and it can fail: a
tampered card, score or canasta count is reported with exit status 1."""
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from canasta_sim.cli import cli
from canasta_sim.trace import trace_events, trace_lines

CASES = [("classic", "random"), ("classic", "greedy"), ("classic", "careful,expert,builder,rush"),
         ("two-player", "rush,expert"), ("three-player", "greedy,random,careful"),
         ("six-player", "expert,builder,careful,rush,expert,greedy"),
         ("six-player-3x2", "random"), ("seed-a", "expert"), ("seed-b", "builder"),
         ("cutthroat", "careful,expert,builder"), ("cutthroat-pagat", "expert,greedy,rush"),
         ("cutthroat(cutthroat_same_rank_melds=merge)", "careful,builder,random"),
         ("cutthroat(cutthroat_partner_share=half)", "random"),
         ("modern-american", "random"), ("modern-american", "greedy"),
         ("modern-american-pagat", "expert,builder,careful,rush"),
         ("modern-american(mac_talon_source=set_aside,mac_threes_timing=after_deal)",
          "random,greedy,expert,random"),
         ("modern-american(ask_permission=required,mac_ask_limit=once_per_side)",
          "rush,builder,random,expert")]


@pytest.mark.parametrize("rules, policies", CASES)
def test_audit_accepts_the_engines_traces(tmp_path, rules, policies):
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(trace_lines(rules, 5, 0, 150, policies)) + "\n")
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.strip().splitlines()[-1] == "deals=150 problems=0"


def _tampered(change):
    events = next(trace_events("classic", 2, 0, 1, "builder"))
    change(events)
    return "\n".join(json.dumps(e) for e in events) + "\n"


def _first(events, kind):
    return next(e for e in events if e["ev"] == kind)


@pytest.mark.parametrize("change, fragment", [
    (lambda ev: ev[-1]["sides"][0].update(total=ev[-1]["sides"][0]["total"] + 5), "(R56)"),
    (lambda ev: ev[-1]["sides"][1].update(melds=ev[-1]["sides"][1]["melds"] + 5), "(R54)"),
    (lambda ev: ev[-1]["sides"][0].update(natural=ev[-1]["sides"][0]["natural"] + 1), "(R23)"),
    (lambda ev: _first(ev, "draw").update(cards=["JK"]), "is not the top of the stock"),
    (lambda ev: _first(ev, "discard").update(card="A"), ""),
    (lambda ev: ev.pop(), "incomplete deal"),
])
def test_audit_reports_a_tampered_trace(tmp_path, change, fragment):
    path = tmp_path / "t.jsonl"
    path.write_text(_tampered(change))
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code == 1, result.output
    assert fragment in result.output
    assert "problems=0" not in result.output


def test_audit_reads_stdin_and_rejects_unreadable_input(tmp_path):
    lines = "\n".join(trace_lines("classic", 1, 0, 3, "greedy")) + "\n"
    done = subprocess.run([sys.executable, "-m", "canasta_sim", "audit", "-"], input=lines,
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "deals=3 problems=0"
    for content, fragment in [(b"not json\n", "line 1 is not JSON"),
                              (b'{"ev":"draw"}\n', "before any start line"),
                              (b"\xff\xfe\n", "not UTF-8")]:
        (tmp_path / "bad.jsonl").write_bytes(content)
        result = subprocess.run([sys.executable, "-m", "canasta_sim", "audit",
                                 str(tmp_path / "bad.jsonl")], capture_output=True, text=True)
        assert result.returncode == 2 and fragment in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    missing = subprocess.run([sys.executable, "-m", "canasta_sim", "audit",
                              str(tmp_path / "none.jsonl")], capture_output=True, text=True)
    assert missing.returncode == 2 and "No such file" in missing.stderr
