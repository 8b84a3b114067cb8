"""The viewer page: one self-contained HTML file (no server, no network) that steps through
traced deals event by event (docs/analysis.md).

Each step shows the table after the event -- every hand open or one seat's view (the other
hands as their sizes), the pile and whether it is frozen and why (R32), each side's melds
with canastas marked (R23), red threes and the scores -- and, with an analysis, the
decision made in the position shown (played by the next event): its options with values,
95% intervals, losses and marks, and buttons to the previous and next marked decision.  The
page's data are the snapshots made here from the trace (canasta_sim.trace's readable view);
its script (viewer.html) only draws them.
"""
from __future__ import annotations

import html
import json
from collections import Counter
from pathlib import Path

from canasta_sim.trace import _ORDER, _view_for, canasta_kind


def _cards(counter) -> list:
    return sorted(Counter(counter).elements(), key=lambda t: -_ORDER[t])


def snapshots(events) -> list:
    """One snapshot per event of a deal: the event's text and the table after it."""
    view = _view_for(events[0])
    steps = [_snapshot(view, "deal: " + _start_text(events[0]), events[0])]
    for ev in events[1:]:
        text = view.apply(ev).split("\n")[0].strip()
        steps.append(_snapshot(view, text, ev))
    return steps


def _start_text(start) -> str:
    return (f"deal {start.get('deal')} (rules {start.get('rules')}), dealer seat "
            f"{start.get('dealer')}, scores before {start.get('scores_before')}")


def _snapshot(view, text, ev) -> dict:
    melds = []
    for k in range(len(view.sides)):
        melds.append([{"rank": r, "cards": list(c), "canasta": canasta_kind(c)}
                      for r, c in sorted(view.melds[k].items(), key=lambda kv: -_ORDER[kv[0]])])
    return {"text": text, "ev": ev.get("ev"), "seat": ev.get("seat"),
            "hands": [_cards(+h) for h in view.hands], "pile": list(view.pile),
            "pile_state": view.pile_state(), "stock": len(view.stock), "melds": melds,
            "red3": list(view.red3), **_threes(view),
            "score": ev.get("sides") if ev.get("ev") == "score" else None}


def _threes(view) -> dict:
    """The threes laid per side, by colour, in a Modern American deal (its view keeps them)."""
    if not hasattr(view, "threes"):
        return {}
    return {"threes": [f"{t['3r']} red, {t['3b']} black" for t in view.threes]}


def page_data(scripts_events, analyses=None) -> dict:
    """The page's data: per deal its start facts, snapshots and analysis lines by event."""
    deals = []
    for i, events in enumerate(scripts_events):
        lines = (analyses[i]["lines"] if analyses else [])
        by_event = {}
        for ln in lines:                  # shown at the position the decision is made in
            by_event.setdefault(str(ln["event"] - 1), []).append(ln)
        start = events[0]
        deals.append({"deal": start.get("deal"), "sides": start["sides"],
                      "scores_before": start.get("scores_before"),
                      "seats": start["seats"], "steps": snapshots(events),
                      "decisions": by_event,
                      "luck": analyses[i]["luck"] if analyses else []})
    return {"deals": deals}


def write_viewer(out, scripts, done, settings) -> Path:
    """Write ``out/index.html`` for the analysed deals."""
    data = page_data([s.events for s in scripts], done)
    data["unit"] = settings.scale.unit
    path = Path(out) / "index.html"
    write_page(path, data, "canasta-sim analysis")
    return path


def write_replay_page(path, event_lists) -> Path:
    """Write the viewer of traced deals without an analysis (``replay --html``)."""
    data = page_data([list(events) for events in event_lists])
    data["unit"] = "points"
    return write_page(path, data, "canasta-sim replay")


def page_template() -> str:
    """The page's HTML, style and script (viewer.html beside this module)."""
    from importlib.resources import files

    return files("canasta_sim.analysis").joinpath("viewer.html").read_text(encoding="utf-8")


def write_page(path, data, title) -> Path:
    """Write the self-contained page with ``data`` embedded."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    text = page_template().replace("__TITLE__", html.escape(title)).replace("__DATA__", payload)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
