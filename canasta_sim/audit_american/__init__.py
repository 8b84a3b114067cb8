"""The project's own audit of Modern American Canasta traces (docs/american.md, "Checking a
trace"): a replay of the JSON lines in plain Python, written from the rules A1-A54 and never
calling the kernels, that names every illegal act and every wrong score item by its rule."""
from __future__ import annotations

from .replay import Replay

__all__ = ["audit_american_deal"]


def audit_american_deal(events: list, rules) -> list:
    """Problems found in one Modern American deal (its events, start .. score), one line each
    beginning with the rule it breaks; an empty list means the deal is legal and scored right."""
    replay = Replay(events[0], rules)
    for ev in events[1:]:
        try:
            replay.apply(ev)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            replay.report("A4b", f"malformed line {ev}: {type(exc).__name__}: {exc}")
    if replay.phase == "after":
        replay.close_turn()                   # the last discard is judged as any other
    if replay.phase != "scored":
        replay.report("A4b", "the deal has no score line after its end line")
    return [f"{rule}: {text}" for rule, text in replay.problems]
