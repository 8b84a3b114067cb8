"""Example study summaries (docs/study-summary.md) for the report tests.

Each function returns a fresh dict shaped exactly like ``summary.json``: a crn deal
study with three arms, a crn game study sweeping ``rules.hand_size``, a duplicate game
tournament of three policies, a crn deal study whose SPRT stopped early, and the
tournament again as a deal study.  The numbers
are made up but of realistic size (classic Canasta deal scores of several hundred points,
about 40 turns a deal, games of 5000 points lasting about 6 deals).
"""
from __future__ import annotations

import math

import numpy as np

SCHEMA = "canasta-sim.study-summary/1"
VERSIONS = {"canasta_sim": "0.1.0", "python": "3.11.7", "numba": "0.68.1", "numpy": "2.4.6",
            "pyarrow": "26.0.1", "scipy": "1.17.1"}
Z = 1.959963984540054

# metric -> (classic mean, per-unit standard deviation, kind); kind "share" is a 0..1 share
DEAL_METRICS = {
    "score_diff": (38.0, 1150.0, "points"),
    "s0_score": (812.0, 820.0, "points"),
    "s1_score": (774.0, 810.0, "points"),
    "turns": (41.3, 11.0, "count"),
    "went_out": (0.994, None, "share"),
    "concealed": (0.021, None, "share"),
    "stock_left": (31.8, 14.0, "count"),
    "s0_melds": (402.0, 210.0, "points"),
    "s0_natural": (0.72, 0.8, "count"),
    "s0_mixed": (0.95, 0.9, "count"),
    "s0_canasta_bonus": (645.0, 520.0, "points"),
    "s0_red3_points": (96.0, 190.0, "points"),
    "s0_out_bonus": (52.0, 55.0, "points"),
    "s0_hand": (-61.0, 70.0, "points"),
    "s0_pile_takes": (3.1, 1.8, "count"),
}


def _est(estimate, half, n, method, se=True):
    """An estimate object with a symmetric interval of half-width ``half``."""
    return {"estimate": float(estimate), "ci_low": float(estimate - half),
            "ci_high": float(estimate + half), "n": int(n), "method": method,
            "se": float(half / Z) if se else None}


def _share_est(p, n):
    """A Wilson estimate object of a share ``p`` out of ``n`` units."""
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return {"estimate": float(p), "ci_low": float(centre - half),
            "ci_high": float(centre + half), "n": int(n), "method": "wilson", "se": None}


def _p_value(estimate, se):
    """Two-sided normal p-value."""
    if se <= 0:
        return None
    return float(math.erfc(abs(estimate / se) / math.sqrt(2)))


def _holm(effects):
    """Fill holm_p / holm_ci_* per metric across the non-baseline arms (Holm step-down)."""
    by_metric = {}
    for effect in effects:
        by_metric.setdefault(effect["metric"], []).append(effect)
    for group in by_metric.values():
        m = len(group)
        ordered = sorted(group, key=lambda e: e["p_value"])
        running = 0.0
        for rank, effect in enumerate(ordered):
            factor = m - rank
            running = max(running, min(1.0, effect["p_value"] * factor))
            effect["holm_p"] = running
            if effect["se"] is not None and m > 1:
                from scipy.stats import norm
                z = norm.ppf(1 - 0.025 / factor)
                effect["holm_ci_low"] = effect["estimate"] - z * effect["se"]
                effect["holm_ci_high"] = effect["estimate"] + z * effect["se"]
            else:
                effect["holm_ci_low"] = effect["ci_low"]
                effect["holm_ci_high"] = effect["ci_high"]


def _means_effects(arms, shifts, n, unit_game=False, metrics=DEAL_METRICS, rho=0.8):
    """means, effects and medians for ``arms`` (baseline first); shifts[arm][metric] = delta."""
    means, effects, medians = [], [], []
    base = arms[0]
    ratio = "ratio-delta" if unit_game else "mean-normal"
    paired = "paired-ratio-delta" if unit_game else "paired-normal"
    for arm in arms:
        for metric, (mean, sd, kind) in metrics.items():
            value = mean + shifts.get(arm, {}).get(metric, 0.0)
            if kind == "share":
                value = min(max(value, 0.0), 1.0)
                means.append({"metric": metric, "arm": arm, **_share_est(value, n)})
            else:
                method = "mean-normal" if metric in GAME_LEVEL else ratio
                means.append({"metric": metric, "arm": arm,
                              **_est(value, Z * sd / math.sqrt(n), n, method)})
                if metric in ("s0_score", "turns", "score_diff", "deals_per_game"):
                    med = round(value - 0.04 * sd) if metric != "turns" else round(value - 1)
                    medians.append({"metric": metric, "arm": arm,
                                    **_est(med, max(1.0, 0.03 * sd), n, "order-statistic",
                                           se=False)})
            if arm == base:
                continue
            delta = value - mean
            if kind == "share":
                sd_pair = math.sqrt(2 * mean * (1 - mean) * (1 - rho)) + 1e-4
            else:
                sd_pair = sd * math.sqrt(2 * (1 - rho))
            se = sd_pair / math.sqrt(n)
            method = "paired-normal" if metric in GAME_LEVEL else paired
            effect = {"metric": metric, "arm": arm, "baseline": base,
                      **_est(delta, Z * se, n, method), "p_value": _p_value(delta, se),
                      "correlation": rho, "variance_reduction": 1.0 / (1.0 - rho)}
            if kind == "share":
                effect["variance_reduction"] = 1.0 / (1.0 - rho * 0.9)
            effect["correlation"] = rho if kind != "share" else round(rho * 0.9, 3)
            if abs(mean) > 1e-9:
                rel = delta / mean
                effect["relative"] = _est(rel, abs(Z * se / mean), n, "bootstrap-bca",
                                          se=False)
            else:
                effect["relative"] = None
            effects.append(effect)
    if len(arms) > 2:
        _holm(effects)
    else:
        for effect in effects:
            effect["holm_p"] = effect["p_value"]
            effect["holm_ci_low"] = effect["ci_low"]
            effect["holm_ci_high"] = effect["ci_high"]
    return means, effects, medians


GAME_LEVEL = ("win_rate", "deals_per_game", "final_margin", "lead_changes", "comeback",
              "first_player_won_game")
GAME_METRICS = {
    "win_rate": (0.512, None, "share"),
    "deals_per_game": (6.4, 1.9, "count"),
    "final_margin": (1510.0, 1200.0, "points"),
    "lead_changes": (1.62, 1.3, "count"),
    "comeback": (0.41, None, "share"),
    "score_diff": (41.0, 1150.0, "points"),
    "first_player_advantage": (28.0, 1100.0, "points"),
    "s0_score": (806.0, 820.0, "points"),
    "turns": (41.0, 11.0, "count"),
    "went_out": (0.994, None, "share"),
    "concealed": (0.02, None, "share"),
    "s0_pile_takes": (3.1, 1.8, "count"),
}


def _histogram(centre, spread, low, high, n, rng, integer=True):
    """A {"values", "counts"} histogram of a roughly normal integer variable."""
    values = np.arange(low, high + 1)
    weights = np.exp(-0.5 * ((values - centre) / spread) ** 2)
    weights = weights / weights.sum()
    counts = rng.multinomial(n, weights)
    return {"values": [int(v) for v in values], "counts": [int(c) for c in counts]}


def _deal_balance(arm, fpa, turns_mean, out_share, n):
    """A balance object of a deal study (game fields null)."""
    return {
        "arm": arm,
        "first_player_advantage": _est(fpa, 9.5, n, "mean-normal"),
        "first_player_deal_share": _share_est(0.52 + fpa / 2000, n),
        "first_player_game_win_rate": None,
        "turns": {"mean": turns_mean, "p10": round(turns_mean - 14), "p50": round(turns_mean),
                  "p90": round(turns_mean + 15)},
        "deals_per_game": None,
        "end_reasons": {"out": out_share, "stock": round(1 - out_share, 6)},
        "lead_changes_per_game": None,
        "comeback_share": None,
        "leader_wins": None,
        "final_margin": None,
        "draws": None,
        "cut": None,
    }


def _study(name, design, unit, units, arms, baseline, command, seed=7, stopped=False,
           played=None):
    """The ``study`` object."""
    return {
        "name": name, "design": design, "unit": unit, "seed": seed,
        "deals": units if unit == "deal" else None,
        "games": units if unit == "game" else None,
        "baseline": baseline,
        "spec_hash": "9f2c4e1a7b3d5f60",
        "kernels_hash": "a41be07c93d2",
        "versions": dict(VERSIONS),
        "created": "2026-12-01T08:30:12Z",
        "command": command,
        "units_planned": units,
        "units_played": played if played is not None else {arm: units for arm in arms},
        "stopped_early": stopped,
    }


def _arm(name, rules, policies="expert,expert,expert,expert", sweep=None, lineups=None,
         units=0, rows=None):
    """An ``arms[]`` object."""
    return {"name": name, "rules": rules, "policies": policies, "sweep": sweep or {},
            "lineups": lineups or ["expert", "expert"], "units": units,
            "rows": rows if rows is not None else units}


def crn_deal_study() -> dict:
    """crn deal study: classic against two rule variants, 15 metrics, 200,000 deals."""
    n = 200_000
    rng = np.random.default_rng(1)
    names = ["classic", "b3f", "draw1"]
    arms = [
        _arm("classic", "classic", units=n),
        _arm("b3f", "classic(black_three_freezes=true)", units=n),
        _arm("draw1", "classic(draw_count=1)", units=n),
    ]
    shifts = {
        "b3f": {"score_diff": -12.3, "s0_score": -21.4, "s1_score": -9.1, "turns": 1.9,
                "went_out": -0.003, "stock_left": -2.1, "s0_pile_takes": -0.41,
                "s0_canasta_bonus": -18.0, "s0_melds": -6.2},
        "draw1": {"score_diff": 0.6, "s0_score": -143.0, "s1_score": -141.0, "turns": 7.8,
                  "went_out": -0.019, "concealed": 0.004, "stock_left": -1.2,
                  "s0_natural": -0.18, "s0_mixed": -0.21, "s0_canasta_bonus": -120.0,
                  "s0_pile_takes": 0.35, "s0_hand": -4.0},
    }
    means, effects, medians = _means_effects(names, shifts, n)
    balance = [
        _deal_balance("classic", 27.4, 41.3, 0.994, n),
        _deal_balance("b3f", 21.0, 43.2, 0.991, n),
        _deal_balance("draw1", 30.2, 49.1, 0.975, n),
    ]
    distributions = {
        "classic": {"turns": _histogram(41, 11, 8, 95, n, rng)},
        "b3f": {"turns": _histogram(43, 12, 8, 95, n, rng)},
        "draw1": {"turns": _histogram(49, 13, 8, 110, n, rng)},
    }
    return {
        "schema": SCHEMA,
        "study": _study("rule-variants", "crn", "deal", n, names, "classic",
                        "canasta-sim study run results/studies/rule-variants"),
        "arms": arms, "means": means, "effects": effects, "medians": medians,
        "matches": [], "balance": balance, "distributions": distributions, "sweeps": [],
        "sprt": None,
        "notes": ["Holm adjustment used: 2 arms are compared with the baseline on 15 "
                  "metrics; holm_p and holm_ci_* are adjusted per metric across arms."],
    }


def crn_game_sweep() -> dict:
    """crn game study sweeping rules.hand_size over 11..15 (5 arms), 20,000 games each."""
    n = 20_000
    rng = np.random.default_rng(2)
    sizes = [11, 12, 13, 14, 15]
    names = [f"hand_size={k}" for k in sizes]
    arms = [_arm(name, "classic" if k == 11 else f"classic(hand_size={k})",
                 sweep={"rules.hand_size": k}, units=n, rows=int(n * (6.4 - 0.3 * i)))
            for i, (name, k) in enumerate(zip(names, sizes))]
    shifts = {}
    for i, name in enumerate(names[1:], start=1):
        shifts[name] = {"score_diff": 3.0 * i - 0.8 * i * i, "s0_score": 55.0 * i,
                        "turns": -2.2 * i, "went_out": 0.0008 * i,
                        "concealed": 0.006 * i, "s0_pile_takes": -0.2 * i,
                        "win_rate": 0.002 * i, "deals_per_game": -0.31 * i,
                        "final_margin": 40.0 * i, "lead_changes": -0.05 * i,
                        "comeback": -0.01 * i, "first_player_advantage": 2.5 * i}
    means, effects, medians = _means_effects(names, shifts, n, unit_game=True,
                                             metrics=GAME_METRICS, rho=0.55)
    balance = []
    distributions = {}
    for i, name in enumerate(names):
        dpg = 6.4 - 0.31 * i
        balance.append({
            "arm": name,
            "first_player_advantage": _est(28.0 + 2.5 * i, 6.1, n, "ratio-delta"),
            "first_player_deal_share": _share_est(0.532 + 0.002 * i, int(n * dpg)),
            "first_player_game_win_rate": _share_est(0.507 + 0.001 * i, n),
            "turns": {"mean": 41.0 - 2.2 * i, "p10": 27 - 2 * i, "p50": 41 - 2 * i,
                      "p90": 56 - 2 * i},
            "deals_per_game": {"mean": dpg, "p10": 4, "p50": round(dpg), "p90": 9},
            "end_reasons": {"out": 0.994 + 0.0008 * i, "stock": 0.006 - 0.0008 * i},
            "lead_changes_per_game": _est(1.62 - 0.05 * i, 0.03, n, "mean-normal"),
            "comeback_share": _share_est(0.41 - 0.01 * i, int(n * 0.98)),
            "leader_wins": [{"k": k, **_share_est(min(0.97, 0.60 + 0.08 * k + 0.006 * i),
                                                  int(n * (1.0 - 0.03 * k)))}
                            for k in range(1, 5)],
            "final_margin": {"mean": 1510.0 + 40 * i, "p50": 1320.0 + 35 * i},
            "draws": 3 - (i % 2),
            "cut": i // 2,
        })
        distributions[name] = {
            "turns": _histogram(41 - 2.2 * i, 11, 6, 100, int(n * dpg), rng),
            "deals_per_game": _histogram(dpg, 1.9, 2, 16, n, rng),
        }
    return {
        "schema": SCHEMA,
        "study": _study("hand-size-sweep", "crn", "game", n, names, "hand_size=11",
                        "canasta-sim study run results/studies/hand-size-sweep", seed=11),
        "arms": arms, "means": means, "effects": effects, "medians": medians,
        "matches": [], "balance": balance, "distributions": distributions,
        "sweeps": [{"parameter": "rules.hand_size", "arms": names, "values": sizes}],
        "sprt": None,
        "notes": ["Holm adjustment used: 4 arms are compared with hand_size=11; holm_p and "
                  "holm_ci_* are adjusted per metric across arms.",
                  "3 games were cut off at the 60-deal limit and count as unfinished."],
    }


def _elo(p):
    """Elo difference of a win rate."""
    return -400.0 * math.log10(1.0 / p - 1.0)


def duplicate_tournament() -> dict:
    """duplicate game tournament of expert, careful and greedy (3 arms), 4,000 game seeds."""
    n = 4000
    rng = np.random.default_rng(3)
    pairs = [("expert", "careful", 0.721, 151.3), ("expert", "greedy", 0.661, 104.8),
             ("careful", "greedy", 0.552, 36.2)]
    arms, matches, balance, distributions = [], [], [], {}
    names = []
    for a, b, wr, ppd in pairs:
        name = f"{a}-vs-{b}"
        names.append(name)
        arms.append(_arm(name, "classic", policies=f"{a},{b},{a},{b}", lineups=[a, b],
                         units=n, rows=int(n * 2 * 6.3)))
        half = 0.0128
        low, high = wr - half, wr + half
        probs = [(1 - wr) ** 2 - 0.02, 0.02, 2 * wr * (1 - wr), 0.02, wr * wr - 0.02]
        counts = rng.multinomial(n, probs)
        matches.append({
            "arm": name, "a": a, "b": b,
            "points_per_deal": _est(ppd, 11.8, n, "paired-normal"),
            "win_rate": {"estimate": wr, "ci_low": low, "ci_high": high, "n": n,
                         "method": "pentanomial", "se": half / Z},
            "elo": {"estimate": _elo(wr), "ci_low": _elo(low), "ci_high": _elo(high),
                    "n": n, "method": "elo-from-pentanomial", "se": None},
            "pentanomial": [int(c) for c in counts],
            "los": 1.0 if wr > 0.6 else 0.99999,
            "trinomial_variance_ratio": 1.37,
        })
        balance.append({
            "arm": name,
            "first_player_advantage": _est(26.0, 7.0, n, "ratio-delta"),
            "first_player_deal_share": _share_est(0.53, n * 12),
            "first_player_game_win_rate": _share_est(0.506, 2 * n),
            "turns": {"mean": 40.6, "p10": 27, "p50": 40, "p90": 55},
            "deals_per_game": {"mean": 6.3, "p10": 4, "p50": 6, "p90": 9},
            "end_reasons": {"out": 0.998, "stock": 0.002},
            "lead_changes_per_game": _est(1.31, 0.04, 2 * n, "mean-normal"),
            "comeback_share": _share_est(0.33, 2 * n),
            "leader_wins": [{"k": k, **_share_est(0.64 + 0.07 * k, 2 * n)}
                            for k in range(1, 5)],
            "final_margin": {"mean": 1720.0, "p50": 1540.0},
            "draws": 0,
            "cut": 0,
        })
        distributions[name] = {"turns": _histogram(40.6, 11, 6, 100, n * 12, rng),
                               "deals_per_game": _histogram(6.3, 1.8, 2, 16, 2 * n, rng)}
    return {
        "schema": SCHEMA,
        "study": _study("policy-tournament", "duplicate", "game", n, names,
                        "expert-vs-careful",
                        "canasta-sim study run results/studies/policy-tournament", seed=1),
        "arms": arms, "means": [], "effects": [], "medians": [], "matches": matches,
        "balance": balance, "distributions": distributions, "sweeps": [], "sprt": None,
        "notes": ["Each game seed is played twice, with the lineups swapping sides; win rates "
                  "and their intervals come from the game pairs (pentanomial)."],
    }


def sprt_early_stop() -> dict:
    """crn deal study of one variant with an SPRT on score_diff that stopped early for H1."""
    planned = 400_000
    n = 60_000
    metrics = {k: DEAL_METRICS[k] for k in ("score_diff", "s0_score", "s1_score", "turns",
                                            "went_out", "s0_pile_takes")}
    names = ["classic", "pile8"]
    arms = [_arm("classic", "classic", units=n),
            _arm("pile8", "classic(one_card_pile_restriction=true)", units=n)]
    shifts = {"pile8": {"score_diff": 21.7, "s0_score": 14.2, "s1_score": -7.5,
                        "turns": 0.8, "s0_pile_takes": -0.12}}
    means, effects, medians = _means_effects(names, shifts, n, metrics=metrics)
    primary = next(e for e in effects if e["metric"] == "score_diff")
    sprt = {
        "metric": "score_diff", "h0": 0.0, "h1": 10.0, "alpha": 0.05, "beta": 0.05,
        "llr": 3.12, "lower": -2.944, "upper": 2.944, "decision": "H1", "waves": 3,
        "units": n,
        "estimate": {k: primary[k] for k in ("estimate", "ci_low", "ci_high", "n", "method",
                                              "se")},
        "stopped_early": True,
        "note": "The test stopped at the upper bound after 3 of 20 waves; an estimate after "
                "an early stop is biased away from the bound that was crossed (here: "
                "probably too large).",
    }
    sprt["estimate"]["method"] = "sprt-normal"
    rng = np.random.default_rng(4)
    return {
        "schema": SCHEMA,
        "study": _study("pile8-sprt", "crn", "deal", planned, names, "classic",
                        "canasta-sim study run results/studies/pile8-sprt --sprt", seed=3,
                        stopped=True, played={"classic": n, "pile8": n}),
        "arms": arms, "means": means, "effects": effects, "medians": medians,
        "matches": [],
        "balance": [_deal_balance("classic", 27.4, 41.3, 0.994, n),
                    _deal_balance("pile8", 25.9, 42.1, 0.993, n)],
        "distributions": {"classic": {"turns": _histogram(41, 11, 8, 95, n, rng)},
                          "pile8": {"turns": _histogram(42, 11, 8, 95, n, rng)}},
        "sweeps": [],
        "sprt": sprt,
        "notes": ["The SPRT stopped early (H1 after 3 waves): 60,000 of 400,000 planned deals "
                  "were played; the estimates are biased away from the crossed bound."],
    }


def duplicate_deal_tournament() -> dict:
    """The tournament of :func:`duplicate_tournament` as a deal study: no game fields."""
    summary = duplicate_tournament()
    study = summary["study"]
    study.update(name="policy-deals", unit="deal", deals=50_000, games=None,
                 units_planned=50_000,
                 units_played={arm["name"]: 50_000 for arm in summary["arms"]},
                 command="canasta-sim study run results/studies/policy-deals")
    for arm in summary["arms"]:
        arm["units"] = 50_000
        arm["rows"] = 100_000
    for match in summary["matches"]:
        match.update(win_rate=None, elo=None, pentanomial=None, los=None,
                     trinomial_variance_ratio=None)
        match["points_per_deal"]["n"] = 50_000
    for block in summary["balance"]:
        for key in ("first_player_game_win_rate", "deals_per_game", "lead_changes_per_game",
                    "comeback_share", "leader_wins", "final_margin", "draws", "cut"):
            block[key] = None
    for dist in summary["distributions"].values():
        del dist["deals_per_game"]
    summary["notes"] = ["Each deal seed is played twice, with the lineups swapping sides."]
    return summary


ALL = {"crn-deal": crn_deal_study, "game-sweep": crn_game_sweep,
       "duplicate": duplicate_tournament, "sprt": sprt_early_stop,
       "duplicate-deal": duplicate_deal_tournament}
