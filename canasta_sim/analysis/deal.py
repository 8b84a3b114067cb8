"""A played deal analysed decision by decision: ``analysis.jsonl`` (docs/analysis.md).

For every decision of the chosen seats (:class:`position.Decision`) the options are valued
by rollouts (:mod:`rollout`) from what the deciding seat may know; the option the trace
played gets its loss against the best, and a mark when the loss is at least a threshold
(doubtful, bad, very bad) and its 95% interval is above zero.  Per seat the luck of the deal
(its value when the cards are dealt less the value before) and of each of its draws (the
value after the draw less the value of drawing) are added up, and its result less its luck
is the luck-adjusted result.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.cards import TOKENS
from canasta_sim.kernels.game.layout import S_SCORE, SIDE_BASE, SIDE_STRIDE
from canasta_sim.kernels.game.options import MAX_OPTS
from canasta_sim.kernels.game.rules_nb import Ask
from canasta_sim.kernels.game.slots import (
    OUT_ASK,
    OUT_HOLD,
    OUT_NOW,
    OUT_OWN,
    ST_DECK_N,
    ST_PILE_N,
    ST_STOCK_POS,
)
from canasta_sim.kernels.play import analysis as k

from .families import deal_script
from .meld_choice import MAX_MELD_OPTIONS, meld_choice  # noqa: F401 (D.MAX_MELD_OPTIONS)
from .position import DealScript, call
from .rollout import Rollouts, Scale, decision_key, option_label, value_options

MARKS = ("doubtful", "bad", "very bad")
DEFAULT_MARKS = {"points": (25.0, 50.0, 100.0), "win": (0.01, 0.025, 0.05)}
KIND_CODE = {"take": k.A_TAKE, "going out": k.A_OUT, "answer": k.A_ANSWER,
             "meld": k.A_MELD, "discard": k.A_DISCARD}


class Settings(NamedTuple):
    """What an analysis needs besides the deal: the rollouts, the scale of values and the
    mark thresholds (in the scale's unit, doubtful <= bad <= very bad)."""
    rollouts: Rollouts
    scale: Scale
    marks: tuple
    luck: bool = True


def parse_marks(text, unit) -> tuple:
    """Mark thresholds from ``"D,B,V"`` (doubtful, bad, very bad), or the defaults."""
    if text is None:
        return DEFAULT_MARKS[unit]
    try:
        values = tuple(float(x) for x in str(text).split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or not 0 < values[0] <= values[1] <= values[2]:
        raise BadInput(f"marks {text!r}: accepted: three increasing positive thresholds "
                       f"D,B,V in {unit} (default {','.join(map(str, DEFAULT_MARKS[unit]))})")
    return values


def mark_of(option, marks) -> str | None:
    """The mark of a played option: the highest threshold its loss reaches, if its interval
    for the loss lies above zero."""
    if option["loss_low"] <= 0:
        return None
    found = None
    for name, threshold in zip(MARKS, marks):
        if option["loss"] >= threshold:
            found = name
    return found


def meld_candidates(script: DealScript, S, decision, ro: Rollouts) -> tuple:
    """The meld candidates of a meld decision: the step the trace played, the one the
    rollout policy would take, stopping (when legal), then the steps the engine lists
    (options.meld_options_nb), at most MAX_MELD_OPTIONS; and whether the played step is
    one the engine or the policy offers."""
    out = np.zeros(MAX_OPTS, np.int64)
    n, own = call(3, script.rules_nb, S, np.zeros(1, np.int32), None, 0, None, 0, 0, None,
                  pol=ro.pol.copy(), params=ro.params.copy(), seat=decision.seat, cands=out)
    return meld_choice([int(c) for c in out[:n]], int(own), decision.code)


def candidates(script: DealScript, S, decision, ro: Rollouts = None) -> tuple:
    """The kernel's decision code and the candidates (codes and names) of a decision in its
    state ``S``; one candidate means the decision is forced, none that it is no decision
    (a going-out choice when the seat cannot go out).  A meld decision needs the rollouts'
    policy ``ro`` (its own next step is one of the candidates)."""
    if getattr(script, "american", False):
        return script.candidates(decision, ro)
    code = KIND_CODE[decision.kind]
    if code == k.A_MELD:
        cands, _ = meld_candidates(script, S, decision, ro)
    elif code == k.A_DISCARD:
        cands = [kind for kind in range(len(TOKENS)) if S.hands[decision.seat, kind] > 0]
    elif code == k.A_TAKE:
        cands = []
        if S.st[ST_STOCK_POS] < S.st[ST_DECK_N]:
            cands.append(k.DRAW)                                       # R49: none left
        if S.st[ST_PILE_N] > 0:
            cands.append(k.TAKE)
    elif code == k.A_OUT:
        can_go_out, may_ask = call(2, script.rules_nb, S, np.zeros(1, np.int32), None, 0,
                                   None, 0, 0, None, seat=decision.seat)
        cands = []
        if can_go_out:
            if not (may_ask and script.rules_nb.ask_permission == Ask.REQUIRED):
                cands.append(OUT_NOW)                                  # R42
            if may_ask:
                cands.append(OUT_ASK)
            cands.append(OUT_HOLD)
    else:
        cands = [0, 1]
    return code, cands, [option_label(code, c) for c in cands]


def side_of(script, seat) -> int:
    """The side of a seat (sides alternate round the table in the fixed layouts)."""
    return seat % script.rules.num_sides


def for_the_deal(script, settings: Settings) -> Settings:
    """The settings with the scale told which side deals the deal after this one (the
    equity table's dealer dimension)."""
    nxt = side_of(script, (script.dealer + 1) % script.seats)
    return settings._replace(scale=settings.scale._replace(dealer=nxt))


def analyse_decision(script: DealScript, decision, settings: Settings, deal_no: int):
    """One line of analysis.jsonl: the decision, its options valued, the loss of the one
    played and its mark; None if it is no decision (a going-out choice when the seat cannot
    go out)."""
    settings = for_the_deal(script, settings)
    S, _ = script.state(decision.at)
    code, cands, names = candidates(script, S, decision, settings.rollouts)
    line = {"deal": deal_no, "event": decision.event, "turn": decision.turn,
            "seat": decision.seat, "decision": decision.kind, "played": decision.played}
    if decision.kind == "answer":
        line["asker"] = decision.actor
    if not cands:
        return None                       # the seat cannot go out: no going-out choice
    if len(cands) == 1:
        line.update(forced=True, options=[{"option": n, "value": None, "ci_low": None,
                                           "ci_high": None, "loss": 0.0, "loss_low": 0.0,
                                           "loss_high": 0.0, "played": True, "best": True}
                                          for n in names[:1]], loss=0.0, mark=None)
        label_options(script, S, decision, line["options"])
        return line
    ro = settings.rollouts
    key = decision_key(ro.seed, deal_no, decision.event, code)
    side = side_of(script, decision.seat)
    options = value_options(script, S, decision.seat, decision.actor, code, cands, names,
                            decision.played, key, ro, settings.scale, side,
                            script.scores_before)
    if len(options) <= 1:
        for o in options:
            o.update(loss=0.0, loss_low=0.0, loss_high=0.0)
    label_options(script, S, decision, options)
    played = next((o for o in options if o["played"]), None)
    line.update(forced=len(options) <= 1, options=options,
                loss=played["loss"] if played else None,
                mark=mark_of(played, settings.marks) if played and len(options) > 1 else None)
    return line


def label_options(script, S, decision, options):
    """Add each option's readable ``label`` where the rule family has them (Modern
    American: the pile of a take, the stock and the turn card of a draw, the talon after a
    discard)."""
    if not hasattr(script, "labels"):
        return
    labels = script.labels(S, decision, [o["option"] for o in options])
    for o in options:
        o["label"] = labels[o["option"]]


def value_of_state(script, S, view, actor, code, cand, key, settings, side) -> float:
    """The value to ``view``'s side of ``S`` played on by the rollout policy (no choice)."""
    options = value_options(script, S, view, actor, code, [cand], ["own"], "own", key,
                            settings.rollouts, settings.scale, side, script.scores_before,
                            stop_early=False)
    return options[0]["value"]


def deal_result(script, side, scale) -> float:
    """What the deal as played was worth to ``side`` on the analysis' scale."""
    script.state(len(script.moves))
    row = script.last_row
    scores = np.array([row[SIDE_BASE + SIDE_STRIDE * x + S_SCORE]
                       for x in range(script.rules.num_sides)])
    return float(scale.values(scores[None, :], side, script.scores_before,
                             script.rules.num_sides)[0])


def prior_value(script, side, scale) -> float:
    """The value of the deal to ``side`` before its cards are seen: 0 points (the sides are
    alike), or the chance of winning the game from the scores before it."""
    if scale.unit == "points":
        return 0.0
    before = script.scores_before
    other = 1 - side
    deals = int(side_of(script, script.dealer) != side)                # this deal's dealer
    return float(scale.table.win_array(before[side], before[other], deals))


def luck_of_seat(script, seat, settings, lines, deal_no) -> dict:
    """The seat's luck: of the deal (its value once dealt, from its view, less the value
    before) and of each of its draws (the value after the draw less the value of drawing),
    and its result less both.  Modern American: :func:`mac_luck_values`."""
    settings = for_the_deal(script, settings)
    side = side_of(script, seat)
    values = mac_luck_values if getattr(script, "american", False) else luck_values
    dealt, draws = values(script, seat, settings, lines, deal_no, side)
    deal_luck = dealt - prior_value(script, side, settings.scale)
    result = deal_result(script, side, settings.scale)
    total = deal_luck + sum(x["luck"] for x in draws)
    return {"seat": seat, "deal_luck": deal_luck, "draws": draws, "result": result,
            "luck": total, "adjusted": result - total}


def luck_values(script, seat, settings, lines, deal_no, side) -> tuple:
    """Classic: the seat's value once the cards are dealt (everyone playing on from the
    start) and, per draw, its luck (the value after the draw less the value of drawing at
    the turn's take decision; a draw whose take decision was not valued is left out)."""
    ro = settings.rollouts
    S, _ = script.state(0)
    first = (script.dealer + 1) % script.seats
    key = decision_key(ro.seed, deal_no, -1, seat)
    dealt = value_of_state(script, S, seat, first, k.A_PLAY_ON, 0, key, settings, side)
    draws = []
    takes = {(ln["turn"]): ln for ln in lines
             if ln["decision"] == "take" and ln["seat"] == seat}
    for d in script.decisions:
        if d.kind != "going out" or d.seat != seat or not _after_draw(script, d):
            continue
        before = _draw_value(takes.get(d.turn))
        if before is None:
            continue
        S, _ = script.state(d.at)
        key = decision_key(ro.seed, deal_no, d.event, 99)
        after = value_of_state(script, S, seat, seat, k.A_OUT, OUT_OWN, key, settings, side)
        draws.append({"turn": d.turn, "event": d.event, "luck": after - before})
    return dealt, draws


def mac_draws(script, seat) -> list:
    """Modern American: the seat's take decisions, each with the going-out decision of the
    same turn (None when the deal ended within the take or the draw: a special hand, A52,
    or a stock that ran out, A43, A44)."""
    outs = {d.turn: d for d in script.decisions if d.kind == "going out" and d.seat == seat}
    return [(d, outs.get(d.turn)) for d in script.decisions
            if d.kind == "take" and d.seat == seat]


def mac_value_of_drawing(script, d, settings, deal_no, side, lines) -> float:
    """Modern American: the seat's value of drawing at its take decision ``d``: the draw
    option's value on the decision's line when it was valued there, else the same rollouts
    (the decision's own key) of the draw alone (kernels/play/american/rollout.py,
    DEC_TAKE)."""
    from canasta_sim.kernels.play.american.rollout import DEC_TAKE, TAKE_DRAW

    line = next((ln for ln in lines if ln["decision"] == "take" and ln["seat"] == d.seat
                 and ln["event"] == d.event), None)
    value = _draw_value(line)
    if value is not None:
        return value
    S, _ = script.state(d.at)
    key = decision_key(settings.rollouts.seed, deal_no, d.event, DEC_TAKE)
    return value_of_state(script, S, d.seat, d.seat, DEC_TAKE, TAKE_DRAW, key, settings, side)


def mac_value_after_draw(script, d, out, settings, deal_no, side) -> float:
    """Modern American: the seat's value just after its draw: at the turn's going-out point
    (DEC_OUT, the rest of the turn played by the rollout policy), or the deal's result when
    the deal ended within the draw."""
    from canasta_sim.kernels.play.american.rollout import DEC_OUT, OUT_OWN

    if out is None:
        return deal_result(script, side, settings.scale)
    S, _ = script.state(out.at)
    key = decision_key(settings.rollouts.seed, deal_no, out.event, 99)
    return value_of_state(script, S, d.seat, d.seat, DEC_OUT, OUT_OWN, key, settings, side)


def mac_luck_values(script, seat, settings, lines, deal_no, side) -> tuple:
    """Modern American (docs/analysis.md, "Modern American"): the family's rollouts value a
    seat's own decision points only, so the deal's value is the seat's value of drawing at
    its first turn (after its threes; everything before it -- the deal and the earlier
    seats' turns -- counts as the luck of the deal), or the deal's result when the seat
    had no turn; each draw's luck is the value just after it less the value of drawing."""
    pairs = mac_draws(script, seat)
    if not pairs:
        return deal_result(script, side, settings.scale), []
    dealt = mac_value_of_drawing(script, pairs[0][0], settings, deal_no, side, lines)
    draws = []
    for d, out in pairs:
        if d.played != "draw":
            continue
        before = mac_value_of_drawing(script, d, settings, deal_no, side, lines)
        after = mac_value_after_draw(script, d, out, settings, deal_no, side)
        draws.append({"turn": d.turn, "event": d.event, "luck": after - before})
    return dealt, draws


def _after_draw(script, d) -> bool:
    """Whether the going-out decision ``d`` follows a draw (not a take)."""
    for ev in reversed(script.events[:d.event]):
        if ev["ev"] in ("draw", "take"):
            return ev["ev"] == "draw"
    return False


def _draw_value(line):
    """The value of drawing at a take decision's line (None if not valued)."""
    if line is None:
        return None
    for o in line["options"]:
        if o["option"] == "draw" and o["value"] is not None:
            return o["value"]
    return None


def error_rates(lines) -> dict:
    """Per seat and decision kind: unforced decisions, marked ones, their rate and the
    summed loss of the options played."""
    table = {}
    for ln in lines:
        if ln.get("forced") or ln.get("loss") is None:
            continue
        row = table.setdefault(str(ln["seat"]), {}).setdefault(
            ln["decision"], {"unforced": 0, "marked": 0, "loss": 0.0})
        row["unforced"] += 1
        row["marked"] += ln["mark"] is not None
        row["loss"] += ln["loss"]
    for kinds in table.values():
        for row in kinds.values():
            row["error_rate"] = row["marked"] / row["unforced"] if row["unforced"] else 0.0
    return table


def chosen_decisions(script, seats, event) -> list:
    """The decisions to analyse: the one before trace line ``event`` of the deal (its
    index, the start line being 0), or every decision of ``seats``."""
    if event is not None:
        found = [d for d in script.decisions if d.event == event]
        if not found:
            events = sorted({d.event for d in script.decisions})
            more = "..." if len(events) > 12 else ""
            raise BadInput(f"--event {event}: no decision comes before that line of the "
                           f"deal: accepted: one of {events[:12]}{more}")
        return found[:1] if len(found) == 1 else found
    return [d for d in script.decisions if d.seat in seats]


def analyse_deal(script: DealScript, settings: Settings, seats, event=None, deal_no=0,
                 progress=None) -> dict:
    """Every chosen decision of one deal valued (``lines``), the error rates and the luck of
    the chosen seats."""
    lines = []
    todo = chosen_decisions(script, seats, event)
    for i, d in enumerate(todo):
        line = analyse_decision(script, d, settings, deal_no)
        if line is not None:
            lines.append(line)
        if progress:
            progress(i + 1, len(todo))
    luck = []
    if settings.luck and event is None:
        luck = [luck_of_seat(script, s, settings, lines, deal_no) for s in seats]
    return {"lines": lines, "errors": error_rates(lines), "luck": luck}


def analyse_task(events, settings: Settings, seats, event, deal_no) -> dict:
    """One deal's analysis as a pure function of its arguments (a task on a Dask worker)."""
    return analyse_deal(deal_script(events), settings, seats, event, deal_no)


def analyse_deals(scripts, settings: Settings, seats, event=None, executor="threads",
                  scheduler=None, workers=None) -> list:
    """:func:`analyse_deal` of every ``(deal number, script)``: here, the rollouts on the
    threads of ``settings``, or one task per deal on a Dask cluster (``executor="dask"``:
    the cluster at ``scheduler``, or a LocalCluster of ``workers`` processes), the
    rollouts of each on one thread.  The results are the same either way (the rollouts
    depend only on the seed, the deal and the decision)."""
    if executor == "threads":
        return [analyse_deal(s, settings, seats, event, i) for i, s in scripts]
    from canasta_sim.study.execute import _executor_context

    one = settings._replace(rollouts=settings.rollouts._replace(threads=1))
    with _executor_context("dask", None, scheduler, workers) as client:
        futures = [client.submit(analyse_task, s.events, one, seats, event, i, pure=False)
                   for i, s in scripts]
        return client.gather(futures)


def write_analysis(folder, deals_done, settings: Settings, meta: dict) -> Path:
    """Write ``analysis.jsonl`` (one line per decision) and ``summary.json`` (error rates,
    luck, settings) into ``folder``; returns the analysis' path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "analysis.jsonl"
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for done in deals_done:
            for ln in done["lines"]:
                f.write(json.dumps(ln, separators=(",", ":")) + "\n")
    tmp.replace(path)
    summary = {**meta, "unit": settings.scale.unit, "marks": dict(zip(MARKS, settings.marks)),
               "rollouts": settings.rollouts.n, "policy": settings.rollouts.policy,
               "truncate": settings.rollouts.truncate,
               "seed": settings.rollouts.seed,
               "errors": [d["errors"] for d in deals_done],
               "luck": [d["luck"] for d in deals_done]}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return path
