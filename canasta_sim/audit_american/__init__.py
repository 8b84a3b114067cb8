"""The project's own audit of Modern American Canasta traces (docs/american.md, "Checking a
trace"): a replay of the JSON lines in plain Python, written from the rules A1-A54 and never
calling the kernels, that names every illegal act and every wrong score item by its rule."""
from __future__ import annotations

from .replay import Replay

__all__ = ["audit_american_deal", "game_problems"]


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


def game_problems(previous, events: list, rules) -> list:
    """A4, A50, A53, A54 across two deals of one game (``previous`` the deal just before in
    the stream, or None): the dealer passes clockwise, ``scores_before`` adds the deal's
    totals, and no deal follows one that ended the game.  Deals of no game, or not next to
    each other, are not compared."""
    if previous is None or previous[-1].get("ev") != "score":
        return []
    before, start = previous[0], events[0]
    if before.get("game") is None or before.get("game") != start.get("game") or \
            start.get("deal") != before.get("deal", -2) + 1:
        return []
    totals = [side.get("total", 0) for side in previous[-1].get("sides", [])]
    after = [a + b for a, b in zip(before.get("scores_before", []), totals)]
    problems = []
    if start.get("scores_before") != after:
        problems.append(f"A50: scores_before {start.get('scores_before')}, but the game "
                        f"stands at {after} after the deal before")
    if start.get("dealer") != (before.get("dealer", 0) + 1) % 4:
        problems.append(f"A4: dealer {start.get('dealer')} after dealer {before.get('dealer')}")
    dream = any(ev.get("ev") == "special" and ev.get("game_over") for ev in previous)
    top = sorted(after, reverse=True)
    tie = len(top) > 1 and top[0] == top[1] and rules.tie_policy == "extra_deal"
    if dream or (top and top[0] >= rules.game_target and not tie):
        problems.append(f"A54: game {start.get('game')} goes on after it ended "
                        f"({'a Dream Hand' if dream else f'scores {after}'})")
    return problems
