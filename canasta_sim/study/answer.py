"""The answer of a study: the question it asks, answered first, in words and as data.

:func:`build_answer` reads a summary dict (docs/study-summary.md) and returns its ``answer``
object; :func:`first_line` writes that object as the report's first paragraph.  Which
question a study asks follows from its shape:

* ``rule-arms`` (crn, two or more arms): the effects that matter for a rule change
  (catalogue.RULE_EFFECTS: all sides' points per deal, turns, pile takes, the going-out
  share, the first-player edge), ranked by relative size, naming the policies that played;
  score_diff joins them only when an arm treats the sides differently (a lineup that is not
  the same policy on every side);
* ``one-arm``: the balance figures (first-player and first-side edge per deal and per game,
  decisiveness, duration);
* ``sweep``: the best swept value, whether it is separable from the next best and whether it
  sits at the edge of the grid;
* ``match`` (duplicate, one arm): result, wins / losses / draws, pentanomial counts, Elo,
  LOS, with no baseline beside it;
* ``tournament`` (duplicate, three policies or more): one joint rating ladder (Elo, or points
  per deal in a deal study) fitted to every match at once, with 95% intervals.

Only the summary dict is read, so a report can rebuild the answer of an older summary.
"""
from __future__ import annotations

import math

from canasta_sim.study import catalogue
from canasta_sim.study.text import ci_text, est_ok, fmt, ok, point_text

MAX_LEAD = 3
"""Lead effects named per arm (two per arm when several arms are compared)."""


def _rows(summary, key) -> list:
    """summary[key] as a list of dicts."""
    rows = summary.get(key)
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def _study(summary) -> dict:
    study = summary.get("study")
    return study if isinstance(study, dict) else {}


def _estimate(obj) -> dict | None:
    """The estimate fields of an estimate object (or None)."""
    if not est_ok(obj):
        return None
    return {k: obj.get(k) for k in ("estimate", "ci_low", "ci_high", "n", "method", "se")}


def _excludes_zero(obj, centre=0.0) -> bool:
    """Whether the 95% interval of ``obj`` excludes ``centre``."""
    return (isinstance(obj, dict) and ok(obj.get("ci_low")) and ok(obj.get("ci_high"))
            and (obj["ci_low"] > centre or obj["ci_high"] < centre))


# --------------------------------------------------------------------------------------------
# Who played
# --------------------------------------------------------------------------------------------

def _policies(summary) -> list:
    """The policies that played, in order of first appearance."""
    seen = []
    for arm in _rows(summary, "arms"):
        for name in str(arm.get("policies") or "").split(","):
            if name and name not in seen:
                seen.append(name)
    return seen


def _rules(summary) -> list:
    """The rule sets that played, in order of first appearance."""
    seen = []
    for arm in _rows(summary, "arms"):
        if arm.get("rules") and arm["rules"] not in seen:
            seen.append(arm["rules"])
    return seen


def _sides_differ(summary) -> bool:
    """Whether some arm treats the sides differently (its sides' lineups are not alike)."""
    for arm in _rows(summary, "arms"):
        lineups = arm.get("lineups")
        if isinstance(lineups, list) and len(set(map(str, lineups))) > 1:
            return True
    return False


def _players_words(summary) -> str:
    """'greedy at every seat' or 'expert,careful,expert,careful' (per seat, per arm)."""
    texts = []
    for arm in _rows(summary, "arms"):
        text = str(arm.get("policies") or "")
        if text and text not in texts:
            texts.append(text)
    words = []
    for text in texts:
        names = text.split(",")
        words.append(f"{names[0]} at every seat" if len(set(names)) == 1 else text)
    return "; ".join(words)


def _num_sides(summary) -> int:
    """Sides of the baseline arm (2 when unknown)."""
    for arm in _rows(summary, "arms"):
        lineups = arm.get("lineups")
        if isinstance(lineups, list) and lineups:
            return len(lineups)
    return 2


def size_words(summary) -> str:
    """How much was played, games (or deals) counted as games: '200,000 deals per arm',
    '8,000 games per match (4,000 game pairs)'."""
    study = _study(summary)
    unit = study.get("unit") or "unit"
    played = study.get("units_played")
    if isinstance(played, dict) and played:
        values = [v for v in played.values() if ok(v)]
        played = min(values) if values else None
    if not ok(played):
        played = study.get("units_planned")
    if not ok(played):
        return ""
    rotations = study.get("rotations")
    if not ok(rotations):
        rotations = _num_sides(summary) if study.get("design") == "duplicate" else 1
    rotations = int(rotations)
    if study.get("design") == "duplicate":
        total = int(played) * rotations
        text = f"{total:,} {unit}s per match"
        if rotations == 2:
            text += f" ({int(played):,} {unit} pairs, each {unit} seed played both ways)"
        else:
            text += f" ({int(played):,} {unit} seeds, each in {rotations} rotations)"
    else:
        text = f"{int(played):,} {unit}s per arm"
    planned = study.get("units_planned")
    if study.get("stopped_early") is True and ok(planned):
        total = int(planned) * (rotations if study.get("design") == "duplicate" else 1)
        text += f", stopped early by the sequential test ({total:,} planned)"
    return text


# --------------------------------------------------------------------------------------------
# Rule arms
# --------------------------------------------------------------------------------------------

def _means(summary) -> dict:
    """(metric, arm) -> mean object."""
    return {(r.get("metric"), r.get("arm")): r for r in _rows(summary, "means")}


def _relative_size(effect, means, baseline, sides) -> tuple:
    """(size, relative text) of an effect: |relative change| against the baseline's mean;
    a points metric whose baseline is near 0 (score_diff, first-player edge) is measured
    against one side's points per deal."""
    rel = effect.get("relative")
    if est_ok(rel):
        return abs(rel["estimate"]), rel["estimate"]
    metric = effect["metric"]
    base = means.get((metric, baseline))
    if est_ok(base) and _excludes_zero(base) and metric not in (
            "score_diff", "first_player_advantage"):
        return abs(effect["estimate"] / base["estimate"]), effect["estimate"] / base["estimate"]
    if catalogue.metric_kind(metric) == "points":
        total = means.get(("total_score", baseline))
        if est_ok(total) and total["estimate"] != 0:
            per_side = abs(total["estimate"]) / max(sides, 1)
            return abs(effect["estimate"]) / per_side, None
    return 0.0, None


def _lead_effects(summary, arm, limit) -> list:
    """The lead effects of one arm against the baseline, largest relative size first;
    effects whose interval excludes 0 come before those that do not."""
    study = _study(summary)
    baseline = study.get("baseline")
    candidates = list(catalogue.RULE_EFFECTS)
    if _sides_differ(summary):
        candidates.insert(0, "score_diff")
    effects = {e.get("metric"): e for e in _rows(summary, "effects")
               if e.get("arm") == arm and est_ok(e)}
    if not any(m in effects for m in candidates):      # an older summary: its key metrics
        candidates = [m for m in catalogue.KEY_METRICS if m in effects]
    means = _means(summary)
    sides = _num_sides(summary)
    ranked = []
    for order, metric in enumerate(candidates):
        e = effects.get(metric)
        if e is None:
            continue
        size, relative = _relative_size({**e, "metric": metric}, means, baseline, sides)
        clear = _excludes_zero(e)
        ranked.append((not clear, -size, order, metric, e, relative))
    ranked.sort(key=lambda r: r[:3])
    lead = []
    for not_clear, _, _, metric, e, relative in ranked[:limit]:
        why = ("the largest relative change whose 95% interval excludes 0"
               if not not_clear else "no change of this metric is distinguishable from 0")
        if metric == "score_diff":
            why = "the arms treat the sides differently; " + why
        lead.append({"metric": metric, "arm": arm, "baseline": baseline,
                     **_estimate(e), "relative": relative,
                     "relative_ci": _relative_ci(e), "distinguishable": not not_clear,
                     "why": why})
    return lead


def _relative_ci(effect):
    """[low, high] of the relative change, when the summary has it."""
    rel = effect.get("relative")
    if isinstance(rel, dict) and ok(rel.get("ci_low")) and ok(rel.get("ci_high")):
        return [rel["ci_low"], rel["ci_high"]]
    return None


def _effect_words(lead) -> str:
    """'pile takes per deal by -74.1% (-1.20 takes, 95% CI -1.22 to -1.18)'."""
    metric = lead["metric"]
    kind = catalogue.metric_kind(metric)
    label = catalogue.metric_label(metric)
    change = point_text(lead, kind, True) + ("" if kind == "share" else
                                             _unit_suffix(metric, always=True))
    ci = ci_text(lead, kind, True, unit=True)
    if ok(lead.get("relative")):
        head = f"{label} by {fmt(lead['relative'], 'share', True, unit=False)}%"
        inside = f"{change}, 95% CI {ci}" if ci else change
    else:
        head = f"{label} by {change}"
        inside = f"95% CI {ci}" if ci else ""
    text = head + (f" ({inside})" if inside else "")
    if not lead.get("distinguishable"):
        text += ", not distinguishable from no change"
    return text


def _unit_suffix(metric, always=False) -> str:
    """' points', ' turns', ' takes' or '' (none for a share, nor, unless ``always``, when
    the metric's words already name the unit: 'turns per deal')."""
    unit = catalogue.metric_unit(metric)
    if not unit or unit == "%" or (not always
                                   and f"{unit} per" in catalogue.metric_label(metric)):
        return ""
    return f" {unit}"


def _rule_arms(summary) -> dict:
    """The answer of a crn study with two or more arms."""
    study = _study(summary)
    baseline = study.get("baseline")
    arms = [a.get("name") for a in _rows(summary, "arms") if a.get("name") != baseline]
    limit = MAX_LEAD if len(arms) == 1 else 2
    lead = []
    for arm in arms:
        lead += _lead_effects(summary, arm, limit)
    rules = _rules(summary)
    policies = _policies(summary)
    kind = "rule-arms" if len(rules) > 1 or len(policies) <= 1 else "policy-arms"
    by_arm = {}
    for item in lead:
        by_arm.setdefault(item["arm"], []).append(item)
    clauses = []
    for arm in arms:
        items = by_arm.get(arm)
        if not items:
            clauses.append(f"arm {arm} has no effect estimate")
            continue
        if all(_identical(e) for e in _rows(summary, "effects") if e.get("arm") == arm):
            clauses.append(f"arm {arm} gives exactly the same results on every paired "
                           f"{study.get('unit') or 'unit'}")
            continue
        words = [_effect_words(item) for item in items]
        joined = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        clauses.append(f"arm {arm} changes {joined}")
    players = _players_words(summary)
    against = f"Against {baseline}" if baseline else "Against the baseline"
    sentence = f"{against}, with {players}, " if players else f"{against}, "
    sentence += "; ".join(clauses) + "."
    size = size_words(summary)
    if size:
        sentence += f" Every arm played the same {study.get('unit') or 'unit'}s: {size}."
    return {"kind": kind, "lead": lead, "sentence": sentence}


def _identical(effect) -> bool:
    """An effect of exactly 0 with no interval: the arm matched the baseline unit by unit."""
    return (est_ok(effect) and effect["estimate"] == 0 and not ok(effect.get("ci_low"))
            and not ok(effect.get("se")))


# --------------------------------------------------------------------------------------------
# One arm: balance
# --------------------------------------------------------------------------------------------

def _one_arm(summary) -> dict:
    """The balance answer of a study with one arm."""
    study = _study(summary)
    arm = (_rows(summary, "arms") or [{}])[0].get("name")
    balance = next((b for b in _rows(summary, "balance") if b.get("arm") == arm),
                   (_rows(summary, "balance") or [{}])[0])
    means = _means(summary)
    games = study.get("unit") == "game"
    lead = []

    def add(metric, obj, why):
        if est_ok(obj):
            lead.append({"metric": metric, "arm": arm, **_estimate(obj), "why": why})

    add("first_player_advantage", balance.get("first_player_advantage"),
        "the first player's edge per deal: the balance question of one arm")
    add("first_player_wins_deal", balance.get("first_player_deal_share"),
        "how often the first player's side wins a deal")
    if games:
        add("first_player_won_game", balance.get("first_player_game_win_rate"),
            "the first player's edge per game")
        add("win_rate", means.get(("win_rate", arm)), "the first side's edge per game")
    else:
        add("score_diff", means.get(("score_diff", arm)),
            "the first side's edge per deal (side 0 minus side 1)")
    add("went_out", means.get(("went_out", arm)),
        "decisiveness: the share of deals ended by going out")
    add("turns", means.get(("turns", arm)), "duration: turns per deal")
    if games:
        add("deals_per_game", means.get(("deals_per_game", arm)),
            "duration: deals per game")
    words = []
    for item in lead:
        metric = item["metric"]
        kind = catalogue.metric_kind(metric)
        diff = metric in ("first_player_advantage", "score_diff")
        ci = ci_text(item, kind, diff, unit=True)
        value = point_text(item, kind, diff) + ("" if kind == "share" else
                                                _unit_suffix(metric))
        text = f"{catalogue.metric_label(metric)} {value}" + (f" (95% CI {ci})" if ci else "")
        words.append(text)
    players = _players_words(summary)
    rules = ", ".join(_rules(summary))
    sentence = f"Balance of {rules or 'the rules'}"
    sentence += f" with {players}" if players else ""
    size = size_words(summary)
    sentence += f" ({size})" if size else ""
    sentence += ": " + "; ".join(words) + "." if words else ": no estimates yet."
    return {"kind": "one-arm", "lead": lead, "sentence": sentence}


# --------------------------------------------------------------------------------------------
# Sweeps
# --------------------------------------------------------------------------------------------

def _sweep(summary, sweep) -> dict:
    """The best value of one swept parameter, its separation and the edge warning."""
    study = _study(summary)
    games = study.get("unit") == "game"
    arms, values = sweep.get("arms") or [], sweep.get("values") or []
    means = _means(summary)
    if _sides_differ(summary):
        metric = "win_rate" if games else "score_diff"
        objective = (f"the highest {catalogue.metric_label(metric)} (the sides play "
                     "different lineups, side 0's result is the objective)")
        score = lambda m: m["estimate"]                                   # noqa: E731
    else:
        metric = "first_player_advantage"
        objective = ("the smallest first-player edge in absolute value (every side plays "
                     "the same lineup: the fairest value is the best)")
        score = lambda m: -abs(m["estimate"])                             # noqa: E731
    found = [(score(means[(metric, a)]), v, a, means[(metric, a)])
             for a, v in zip(arms, values) if est_ok(means.get((metric, a)))]
    if not found:
        return {}
    ranked = sorted(found, key=lambda f: -f[0])
    best = ranked[0]
    runner = ranked[1] if len(ranked) > 1 else None
    separable = None
    if runner is not None:
        b, r = best[3], runner[3]
        if all(ok(x.get(k)) for x in (b, r) for k in ("ci_low", "ci_high")):
            separable = b["ci_high"] < r["ci_low"] or r["ci_high"] < b["ci_low"]
    position = values.index(best[1])
    at_edge = len(values) > 2 and position in (0, len(values) - 1)
    parameter = sweep.get("parameter")
    kind = catalogue.metric_kind(metric)
    diff = metric in ("first_player_advantage", "score_diff")

    def est(m):
        ci = ci_text(m, kind, diff, unit=True)
        return (point_text(m, kind, diff) + ("" if kind == "share" else _unit_suffix(metric))
                + (f" (95% CI {ci})" if ci else ""))

    sentence = (f"Over {parameter} = {', '.join(map(str, values))}"
                + (f", with {_players_words(summary)}" if _players_words(summary) else "")
                + f", the best value is {best[1]}: {catalogue.metric_label(metric)} "
                f"{est(best[3])}")
    if runner is not None:
        sentence += ("; it is separable from the next best, "
                     if separable else "; it is not separable from the next best, ")
        sentence += f"{runner[1]}: {est(runner[3])}"
        sentence += (", the 95% intervals do not overlap" if separable
                     else ", the 95% intervals overlap")
    sentence += "."
    if at_edge:
        sentence += (f" Warning: {best[1]} is at the edge of the grid; the best value may "
                     f"lie beyond it, so extend the sweep past {best[1]}.")
    return {"parameter": parameter, "metric": metric, "objective": objective,
            "best": {"value": best[1], "arm": best[2], **_estimate(best[3])},
            "next_best": ({"value": runner[1], "arm": runner[2], **_estimate(runner[3])}
                          if runner else None),
            "separable": separable, "at_edge": at_edge, "sentence": sentence}


def _sweeps(summary) -> dict:
    """The answer of a sweep study: each swept parameter's best value."""
    found = [s for s in (_sweep(summary, sw) for sw in _rows(summary, "sweeps")) if s]
    if not found:
        return {}
    size = size_words(summary)
    sentence = " ".join(s["sentence"] for s in found)
    if size:
        sentence += f" Every value played the same {_study(summary).get('unit')}s: {size}."
    lead = [{"metric": s["metric"], "arm": s["best"]["arm"],
             **{k: s["best"].get(k) for k in ("estimate", "ci_low", "ci_high", "n", "method",
                                              "se")},
             "why": f"the best value of {s['parameter']} by {s['objective']}"} for s in found]
    return {"kind": "sweep", "lead": lead, "sweeps": found, "sentence": sentence}


# --------------------------------------------------------------------------------------------
# Duplicate matches and tournaments
# --------------------------------------------------------------------------------------------

def _verb(match) -> str:
    """beats / loses to / is not distinguishable from."""
    wr, ppd = match.get("win_rate"), match.get("points_per_deal")
    ref, centre = (wr, 0.5) if est_ok(wr) else (ppd, 0.0)
    if not est_ok(ref) or not _excludes_zero(ref, centre):
        return "is not distinguishable from"
    return "beats" if ref["ci_low"] > centre else "loses to"


def match_words(match, summary) -> str:
    """One match in words: result, W/L/D, pentanomial counts, Elo, LOS."""
    a, b = match.get("a") or "a", match.get("b") or "b"
    bits = []
    wr, elo, ppd = match.get("win_rate"), match.get("elo"), match.get("points_per_deal")
    if est_ok(wr):
        ci = ci_text(wr, "share", False, unit=True)
        bits.append(f"win rate {point_text(wr, 'share')}" + (f" (95% CI {ci})" if ci else ""))
    wld = match.get("wld")
    if isinstance(wld, dict) and all(ok(wld.get(k)) for k in ("wins", "losses", "draws")):
        bits.append(f"W/L/D {int(wld['wins']):,} / {int(wld['losses']):,} / "
                    f"{int(wld['draws']):,} games")
    counts = match.get("pentanomial")
    if isinstance(counts, list) and len(counts) == 5:
        bits.append("game pairs by a's total 0 / ½ / 1 / 1½ / 2: "
                    + " / ".join(f"{int(c):,}" for c in counts))
    if est_ok(elo):
        ci = ci_text(elo, "elo", True, unit=True)
        bits.append(f"Elo {point_text(elo, 'elo', True)}" + (f" (95% CI {ci})" if ci else ""))
    if ok(match.get("los")):
        los = match["los"]
        shown = ">99.9%" if los > 0.999 else "<0.1%" if los < 0.001 else f"{100 * los:.1f}%"
        bits.append(f"LOS {shown}")
    if est_ok(ppd):
        ci = ci_text(ppd, "points", True, unit=True)
        bits.append(f"{point_text(ppd, 'points', True)} points per deal"
                    + (f" (95% CI {ci})" if ci else ""))
    return f"{a} {_verb(match)} {b}" + (": " + "; ".join(bits) if bits else "")


def _match(summary) -> dict:
    """The answer of a duplicate study of one match."""
    match = _rows(summary, "matches")[0]
    size = size_words(summary)
    rules = ", ".join(_rules(summary))
    sentence = match_words(match, summary) + "."
    sentence += f" Played under {rules}" if rules else ""
    sentence += f", {size}." if size else "."
    lead_metric = "win_rate" if est_ok(match.get("win_rate")) else "points_per_deal"
    lead = [{"metric": lead_metric, "arm": match.get("arm"),
             **_estimate(match.get(lead_metric)),
             "why": "a head-to-head match is answered by a's result against b"}] \
        if est_ok(match.get(lead_metric)) else []
    return {"kind": "match", "lead": lead, "match": {
        k: match.get(k) for k in ("arm", "a", "b", "win_rate", "elo", "los", "pentanomial",
                                  "wld", "points_per_deal")}, "sentence": sentence}


def rating_ladder(matches) -> dict | None:
    """One joint rating per policy fitted to every pairwise match at once.

    Each match gives a difference d (Elo of a over b, or a's points per deal) with its
    standard error s; the ratings r minimise sum((r_a - r_b - d)^2 / s^2) with sum(r) = 0
    (weighted least squares).  Their covariance is the pseudo-inverse of the weighted
    Laplacian, so each rating has a normal 95% interval (stats.normal_interval).  None with
    fewer than three policies or a match without a standard error."""
    import numpy as np

    from canasta_sim.stats import ELO_BOUND, Z95, normal_interval

    scale = "elo" if all(est_ok(m.get("elo")) and m["elo"].get("method") != ELO_BOUND
                         for m in matches) else "points per deal"  # a sweep's Elo: a bound
    key = "elo" if scale == "elo" else "points_per_deal"
    names = []
    for m in matches:
        for name in (m.get("a"), m.get("b")):
            if name and name not in names:
                names.append(name)
    if len(names) < 3:
        return None
    rows, weights, diffs = [], [], []
    for m in matches:
        est = m.get(key)
        if not est_ok(est) or m.get("a") not in names or m.get("b") not in names:
            return None
        se = est.get("se")
        if not ok(se) and ok(est.get("ci_low")) and ok(est.get("ci_high")):
            se = (est["ci_high"] - est["ci_low"]) / (2 * Z95)
        if not ok(se) or se <= 0:
            return None
        row = np.zeros(len(names))
        row[names.index(m["a"])], row[names.index(m["b"])] = 1.0, -1.0
        rows.append(row)
        weights.append(1.0 / se ** 2)
        diffs.append(est["estimate"])
    x, w, d = np.array(rows), np.array(weights), np.array(diffs)
    laplacian = x.T @ (w[:, None] * x)
    cov = np.linalg.pinv(laplacian)
    ratings = cov @ (x.T @ (w * d))
    ladder = []
    for i, name in enumerate(names):
        se = math.sqrt(max(cov[i, i], 0.0))
        low, high = normal_interval(float(ratings[i]), se)
        ladder.append({"policy": name, "rating": float(ratings[i]), "ci_low": low,
                       "ci_high": high, "se": se})
    ladder.sort(key=lambda r: -r["rating"])
    return {"scale": scale, "method": "weighted-least-squares", "ratings": ladder,
            "centre": "the ratings add up to 0"}


def _tournament(summary) -> dict:
    """The answer of a duplicate study of three policies or more."""
    matches = _rows(summary, "matches")
    ladder = rating_ladder(matches)
    size = size_words(summary)
    if ladder is not None:
        unit = "Elo" if ladder["scale"] == "elo" else "points per deal"
        kind = "elo" if ladder["scale"] == "elo" else "points"
        steps = []
        for r in ladder["ratings"]:
            ci = ci_text(r | {"estimate": r["rating"]}, kind, True, unit=True)
            steps.append(f"{r['policy']} {fmt(r['rating'], kind, True)}"
                         + (f" ({ci})" if ci else ""))
        sentence = (f"Rating ladder of {len(ladder['ratings'])} policies ({unit}, one joint "
                    f"fit of {len(matches)} matches, 95% CI): " + ", ".join(steps) + ".")
    else:
        sentence = "No joint rating: a match has no interval."
    sentence += (f" The matrix of the {len(matches)} matches (each policy against each, "
                 "with its 95% interval) follows.")
    if size:
        sentence += f" {size[0].upper()}{size[1:]}."
    lead = [{"metric": "rating", "arm": None, "policy": r["policy"], "estimate": r["rating"],
             "ci_low": r["ci_low"], "ci_high": r["ci_high"], "se": r["se"],
             "method": ladder["method"],
             "why": "the joint rating ladder ranks the policies of a tournament"}
            for r in ladder["ratings"]] if ladder else []
    return {"kind": "tournament", "lead": lead, "ladder": ladder,
            "matrix": [{k: m.get(k) for k in ("a", "b", "win_rate", "elo", "points_per_deal")}
                       for m in matches], "sentence": sentence}


# --------------------------------------------------------------------------------------------
# The answer
# --------------------------------------------------------------------------------------------

def study_kind(summary) -> str:
    """match, tournament, sweep, one-arm or rule-arms (docs/study-summary.md)."""
    study = _study(summary)
    matches = _rows(summary, "matches")
    if study.get("design") == "duplicate" or matches:
        policies = {n for m in matches for n in (m.get("a"), m.get("b")) if n}
        return "tournament" if len(matches) > 1 and len(policies) > 2 else "match"
    if _rows(summary, "sweeps"):
        return "sweep"
    if len(_rows(summary, "arms")) <= 1:
        return "one-arm"
    return "rule-arms"


def build_answer(summary) -> dict:
    """The ``answer`` object of a summary: kind, question, lead effects (metric, estimate,
    95% interval, why it leads), who played and the first line in words."""
    kind = study_kind(summary)
    if kind == "match" and _rows(summary, "matches"):
        answer = _match(summary)
    elif kind == "tournament":
        answer = _tournament(summary)
    elif kind == "sweep":
        answer = _sweeps(summary) or _rule_arms(summary)
    elif kind == "one-arm":
        answer = _one_arm(summary)
    else:
        answer = _rule_arms(summary)
    answer["question"] = QUESTIONS[answer["kind"]]
    answer["policies"] = _policies(summary)
    answer["rules"] = _rules(summary)
    sprt = summary.get("sprt")
    if isinstance(sprt, dict) and sprt.get("decision"):
        answer["sprt_decision"] = sprt.get("decision")
    return answer


QUESTIONS = {
    "rule-arms": "What does the rule change do to the game?",
    "policy-arms": "What do the policies change on the same deals?",
    "one-arm": "How balanced and how long is the game?",
    "sweep": "Which value of the swept parameter is best?",
    "match": "Which lineup is stronger, and by how much?",
    "tournament": "How do the policies rank?",
}


def first_line(summary) -> str:
    """The report's first paragraph: the stored answer's sentence, or one built now."""
    answer = summary.get("answer")
    if not (isinstance(answer, dict) and isinstance(answer.get("sentence"), str)):
        answer = build_answer(summary)
    return answer["sentence"]
