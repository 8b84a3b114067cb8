"""Issue 12, point 12: ``replay --pretty`` names the partnerships, marks canastas natural or
mixed, and says whether the pile is frozen and why."""
import re

from canasta_sim.trace import pretty_event_lines, trace_events


def _deals(rules="classic", policies="greedy", first=0, last=20, seed=3):
    events = list(trace_events(rules, seed, first, last, policies))
    return events, [line for text in pretty_event_lines(events) for line in text.split("\n")]


def test_partnerships_are_named_at_the_start():
    _, lines = _deals(last=1)
    assert lines[1] == "partnerships: side 0 = seats 0 and 2, side 1 = seats 1 and 3"
    _, lines = _deals("two-player", last=1)
    assert lines[1] == "partnerships: side 0 = seat 0, side 1 = seat 1"
    _, lines = _deals("six-player-3x2", last=1)
    assert lines[1] == ("partnerships: side 0 = seats 0 and 3, side 1 = seats 1 and 4, "
                        "side 2 = seats 2 and 5")


def test_canastas_in_the_final_table_match_the_score():
    """The closing table marks each meld of 7+ cards natural or mixed (R23); the counts per
    side equal the score line's natural and mixed canastas."""
    events, lines = _deals(policies="builder", last=25)
    tables = [i for i, line in enumerate(lines) if line.startswith("end: ")]
    assert len(tables) == 25
    checked = 0
    for deal, i in zip(events, tables):
        score = deal[-1]["sides"]
        for k, side in enumerate(score):
            (row,) = [line for line in lines[i:i + 12] if line.startswith(f"side {k}: red")]
            assert row.count("natural canasta") == side["natural"], row
            assert row.count("mixed canasta") == side["mixed"], row
            checked += side["natural"] + side["mixed"]
    assert checked > 0


def test_frozen_pile_says_why_and_opens_when_taken():
    _, lines = _deals(policies="careful(freeze_at=2)", last=5)
    wild_discards = [i for i, line in enumerate(lines)
                     if re.search(r"discards (2|JK) ", line)]
    assert wild_discards
    for i in wild_discards:
        assert re.search(r"\[pile \d+, frozen \(a (deuce|joker) in it\)\]", lines[i]), lines[i]
    for i in wild_discards:
        following = lines[i + 1:]
        take = next((line for line in following if "TAKES" in line or "discards" in line), "")
        if "TAKES" in take:
            assert "was frozen (a" in take
    opened = [line for line in lines if "open; frozen for side" in line]
    assert opened and all("(not melded yet)" in line for line in opened)
