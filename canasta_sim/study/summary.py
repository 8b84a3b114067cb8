"""From the shards of a study to its answer: ``summary.json`` and the report.

The shards are read one range at a time (every arm's shard of that range together, only
the columns the metrics need), turned into per-unit values (canasta_sim.study.metrics)
and added to streaming sums (canasta_sim.stats); nothing holds all rows at once,
so the memory of a report does not grow with the study.  Each arm is compared with the
baseline unit by unit: deal *i* of an arm with deal *i* of the baseline, game *g* with
game *g*, so the effect's interval comes from the paired differences.

:func:`build_summary` gives the summary dict (schema: docs/study-summary.md);
:func:`report` writes ``summary.json``, ``report.md``, ``report.html`` and ``plots/``.
"""
from __future__ import annotations

import json
import math
import os
from collections import Counter

import numpy as np

from canasta_sim._cache import current_kernels_hash
from canasta_sim.errors import BadInput
from canasta_sim.study import catalogue, store
from canasta_sim.study import metrics as M
from canasta_sim.study.answer import build_answer

SCHEMA = "canasta-sim.study-summary/1"
SKIP_COLUMNS = ("rules", "seed") + tuple(f"policy_{k}" for k in range(6))


def _stats():
    """The statistics module (needs scipy: the ``study`` extra)."""
    try:
        import scipy  # noqa: F401
    except ModuleNotFoundError:
        raise BadInput("study statistics need scipy: accepted: pip install "
                       "'canasta-sim[study]'") from None
    from canasta_sim import stats

    return stats


# --------------------------------------------------------------------------------------------
# Reading ranges
# --------------------------------------------------------------------------------------------

class RangeReader:
    """Reads every arm's shard of a range and turns it into per-unit metric values."""

    def __init__(self, study):
        """``study``: an opened :class:`~canasta_sim.study.store.Study`."""
        self.study = study
        self.spec = study.spec
        self.shape = {}
        for arm in self.spec.arms:
            rules = arm.rule_set()
            self.shape[arm.name] = (self.spec.rotations(arm), rules.num_sides,
                                    rules.num_players)

    def complete_ranges(self, done=None) -> list:
        """(first, count) of the ranges whose shards are done for every arm, in order,
        up to the first incomplete range."""
        if done is None:        # shards of other kernels may differ in columns: refused
            done = store.scan(self.study.folder, self.spec, current_kernels_hash())
        names = [a.name for a in self.spec.arms]
        complete = []
        for first, count in self.spec.ranges():
            if not all(store.ShardKey(n, first, count) in done for n in names):
                break
            complete.append((first, count))
        return complete

    def read(self, arm: str, first: int, count: int, kind: str = "data"):
        """The rows of one shard file (without the text columns)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = self.study.folder.shard_path(store.ShardKey(arm, first, count), kind)
        try:
            schema = pq.read_schema(path)
            columns = [n for n in schema.names if n not in SKIP_COLUMNS]
            return pq.read_table(path, columns=columns, page_checksum_verification=True)
        except (OSError, pa.ArrowException) as exc:
            reason = str(exc).strip().split("\n")[0][:160] or type(exc).__name__
            raise BadInput(f"shard {path!r} cannot be read ({reason}): accepted: an intact "
                           "shard; delete the file and run the study again, which plays "
                           "that shard anew") from None

    def units(self, arm: str, first: int, count: int) -> tuple:
        """({metric: Values}, raw tables) of one arm's shard."""
        rotations, sides, players = self.shape[arm]
        data = self.read(arm, first, count)
        if self.spec.games:
            deals = self.read(arm, first, count, "deals")
            return (M.game_units(data, deals, first, count, rotations, sides, players),
                    (data, deals))
        return M.deal_units(data, count, rotations, sides, players), (data, None)


# --------------------------------------------------------------------------------------------
# Accumulating
# --------------------------------------------------------------------------------------------

HISTOGRAMS_DEAL = ("turns",)


class ArmAccumulator:
    """Everything one arm contributes to the summary, range by range."""

    def __init__(self, name: str, baseline: bool, stats, block: int):
        """Empty sums for arm ``name``."""
        self.name = name
        self.is_baseline = baseline
        self.stats = stats
        self.block = block
        self.sums = {}              # metric -> PairedSums (paired with the baseline)
        self.hist = {}              # metric -> Counter of values (every row)
        self.median_hist = {}       # metric -> Counter (rotation 0 rows: independent units)
        self.match = None           # MatchStats (duplicate games, two sides)
        self.lineup = None          # PairedSums of lineup 0's mean result (three sides)
        self.points = None          # PairedSums of lineup 0's points per deal
        self.draws = self.cut = self.units = self.rows = 0

    def add(self, units: dict, base_units: dict, tables, spec, rotations: int) -> None:
        """Add one range of this arm (and the baseline's units of the same range)."""
        stats = self.stats
        for metric, values in units.items():
            if metric.startswith("_") or metric == "points_per_deal":
                continue
            base = base_units.get(metric)
            if base is None and not self.is_baseline:
                continue
            sums = self.sums.get(metric)
            if sums is None:
                sums = self.sums[metric] = stats.PairedSums(not self.is_baseline, self.block)
            if self.is_baseline:
                sums.add(values.y, values.n)
            else:
                sums.add(values.y, values.n, base.y, base.n)
        self._add_duplicate(units, rotations, spec)
        self._add_histograms(tables, spec)
        any_values = next(iter(units.values()))
        self.units += len(any_values.y)

    def _add_duplicate(self, units: dict, rotations: int, spec) -> None:
        """The head-to-head of the arm's lineups (duplicate designs)."""
        if spec.design != "duplicate":
            return
        stats = self.stats
        if "points_per_deal" in units:
            values = units["points_per_deal"]
            if self.points is None:
                self.points = stats.PairedSums(False, self.block)
            self.points.add(values.y, values.n)
        results = units.get(M.LINEUP_BY_ROTATION)
        if results is None:
            return
        if rotations == 2:
            match = stats.MatchStats.from_games(results.y[0], results.y[1])
            if self.match is None:
                self.match = match
            else:
                self.match.merge(match)
        if self.lineup is None:
            self.lineup = stats.PairedSums(False, self.block)
        self.lineup.add(results.y.mean(axis=0))

    def _add_histograms(self, tables, spec) -> None:
        """Counts of values for distributions (all rows) and medians (rotation 0)."""
        data, deals = tables
        deal_rows = deals if spec.games else data
        self.rows += data.num_rows
        rotation = np.asarray(deal_rows.column("rotation").to_numpy(zero_copy_only=False))
        for metric in HISTOGRAMS_DEAL:
            values = _ints(deal_rows, metric)
            _count(self.hist, metric, values)
            if not spec.games:
                _count(self.median_hist, metric, values[rotation == 0])
        if not spec.games:
            d0 = rotation == 0
            _count(self.median_hist, "score_diff",
                   (_ints(data, "s0_score") - _ints(data, "s1_score"))[d0])
            _count(self.median_hist, "s0_score", _ints(data, "s0_score")[d0])
            return
        g_rot = np.asarray(data.column("rotation").to_numpy(zero_copy_only=False))
        finals = np.stack([_ints(data, c) for c in data.schema.names
                           if c.endswith("_final") and data.column(c).null_count == 0], axis=1)
        ordered = np.sort(finals, axis=1)
        margin = ordered[:, -1] - ordered[:, -2]
        for metric, values in (("deals_per_game", _ints(data, "deals")),
                               ("final_margin", margin)):
            _count(self.hist, metric, values)
            _count(self.median_hist, metric, values[g_rot == 0])
        import pyarrow as pa
        import pyarrow.compute as pc

        ended = np.asarray(pc.cast(data.column("ended"), pa.string()).to_numpy(
            zero_copy_only=False)).astype(str)
        self.draws += int((ended == "draw").sum())
        self.cut += int((ended == "cut").sum())


def _ints(table, name) -> np.ndarray:
    """A column as int64."""
    return np.asarray(table.column(name).to_numpy(zero_copy_only=False), dtype=np.int64)


def _count(store_: dict, metric: str, values: np.ndarray) -> None:
    """Add the values' counts to the Counter of ``metric``."""
    uniq, counts = np.unique(values, return_counts=True)
    counter = store_.setdefault(metric, Counter())
    counter.update(dict(zip(uniq.tolist(), counts.tolist())))


def _sorted_hist(counter: Counter) -> tuple:
    """(values, counts) arrays sorted by value."""
    values = np.array(sorted(counter), dtype=np.float64)
    counts = np.array([counter[v] for v in sorted(counter)], dtype=np.int64)
    return values, counts


# --------------------------------------------------------------------------------------------
# The summary
# --------------------------------------------------------------------------------------------

def accumulate(study, ranges=None) -> dict:
    """{arm: ArmAccumulator} over the complete ranges of ``study`` (or the ones given)."""
    stats = _stats()
    reader = RangeReader(study)
    spec = study.spec
    ranges = reader.complete_ranges() if ranges is None else ranges
    block = _block_size(spec, ranges)
    accs = {arm.name: ArmAccumulator(arm.name, arm.name == spec.baseline, stats, block)
            for arm in spec.arms}
    for first, count in ranges:
        base_units, base_tables = reader.units(spec.baseline, first, count)
        accs[spec.baseline].add(base_units, base_units, base_tables, spec,
                                reader.shape[spec.baseline][0])
        for arm in spec.arms[1:]:
            units, tables = reader.units(arm.name, first, count)
            accs[arm.name].add(units, base_units, tables, spec, reader.shape[arm.name][0])
    return accs


def _block_size(spec, ranges) -> int:
    """Units per bootstrap block: about 200 blocks or more, at most 1024 units each."""
    units = sum(count for _, count in ranges)
    return int(max(1, min(1024, units // 200)))


def build_summary(study, command=None) -> dict:
    """The summary dict of a study (docs/study-summary.md), from its complete ranges."""
    stats = _stats()
    spec = study.spec
    reader = RangeReader(study)
    check = store.verify(study.folder, spec, current_kernels_hash(), study.manifest)
    ranges = reader.complete_ranges(check.usable())
    if not ranges:
        raise BadInput(f"{study.folder.root!r} has no complete range yet (the first shard of "
                       "every arm): accepted: a study with its first range played; run "
                       "'canasta-sim study run' on it first")
    accs = accumulate(study, ranges)
    units_played = sum(count for _, count in ranges)
    sprt_state = (study.manifest or {}).get("sprt")
    notes = []
    summary = {
        "schema": SCHEMA,
        "study": _study_block(study, command, units_played, sprt_state),
        "arms": [_arm_block(arm, accs[arm.name]) for arm in spec.arms],
        "means": _means(spec, accs),
        "effects": _effects(spec, accs, stats, notes),
        "medians": _medians(spec, accs, stats),
        "matches": _matches(spec, accs, stats),
        "balance": [_balance(spec, accs[a.name], stats) for a in spec.arms],
        "distributions": _distributions(accs),
        "sweeps": _sweeps(spec),
        "sprt": _sprt_block(spec, sprt_state, accs, stats),
        "notes": notes,
    }
    _general_notes(spec, summary, accs, units_played)
    _integrity(study, check, summary)
    summary = _clean(summary)
    summary["answer"] = _clean(build_answer(summary))
    return summary


def _study_block(study, command, units_played, sprt_state) -> dict:
    """The ``study`` object: how the study was made."""
    spec = study.spec
    root = study.folder.root
    manifest = study.manifest or {}
    return {"name": spec.name, "design": spec.design, "unit": spec.unit, "seed": spec.seed,
            "deals": None if spec.games else spec.played(),     # played per arm
            "games": spec.played() if spec.games else None,
            "seeds": spec.units,             # per arm; each played once per rotation
            "rotations": max(spec.rotations(arm) for arm in spec.arms),
            "baseline": None if spec.design == "duplicate" else spec.baseline,
            "shard_size": spec.shard_size,
            "spec_hash": spec.spec_hash(),
            "kernels_hash": manifest.get("kernels_hash") or current_kernels_hash(),
            "versions": manifest.get("versions") or store.versions(),
            "created": manifest.get("created") or store.now(),
            "command": command or _reproduce_command(root),
            "units_planned": spec.units, "units_played": units_played,   # seeds
            "stopped_early": bool(sprt_state and sprt_state.get("decision") in ("H0", "H1")
                                  and units_played < spec.units),
            "key_metrics": [m for m in catalogue.KEY_METRICS
                            if m in catalogue.metric_names(spec.games)]}


def _integrity(study, check, summary) -> None:
    """Name the damaged shards (left out, with every range after the first of them) and
    count those written before checksums, in the study block and the notes."""
    damaged = store.damage_lines(study.folder, check)
    summary["study"]["damaged_shards"] = damaged
    summary["study"]["unverified_shards"] = len(check.unverified)
    if damaged:
        summary["notes"].append(
            f"{len(damaged)} shard file(s) are damaged and were left out, with every range "
            f"after the first of them: {'; '.join(damaged)}. 'canasta-sim study run' on "
            "this folder plays them again.")
    if check.unverified:
        summary["notes"].append(
            f"{len(check.unverified)} shard(s) were written before canasta-sim recorded "
            "checksums, so a damaged byte in them cannot be found; 'canasta-sim study run' "
            "on this folder verifies them by playing them again.")


def _reproduce_command(root) -> str:
    """The command that plays the study again, from its frozen spec, into a new folder (its
    shards come out byte-identical); running it with --out the same folder resumes."""
    spec = os.path.join(os.path.abspath(root), store.FROZEN)
    return f"canasta-sim study run {shell_quote(spec)} --out NEW_FOLDER"


def shell_quote(text: str) -> str:
    """``text`` as one shell word: shlex's quoting, or, when it holds control characters
    (a newline in a folder name), bash's $'...' with \\xNN escapes, so the command shows
    on one line and cannot move a terminal's cursor."""
    import shlex

    if not any(ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f for c in text):
        return shlex.quote(text)
    body = "".join(f"\\x{ord(c):02x}" if ord(c) < 0x20 or ord(c) == 0x7f
                   else f"\\u{ord(c):04x}" if 0x7f < ord(c) <= 0x9f
                   else "\\" + c if c in "\\'" else c for c in text)
    return f"$'{body}'"


def _arm_block(arm, acc) -> dict:
    """One entry of ``arms``."""
    return {"name": arm.name, "rules": arm.rules, "policies": arm.policies_text(),
            "sweep": dict(arm.swept), "lineups": arm.lineups(), "units": acc.units,
            "rows": acc.rows}


def _metric_order(spec, accs) -> list:
    """The metrics present for the baseline, in the documented order."""
    base = accs[spec.baseline].sums
    return [m for m in catalogue.metric_names(spec.games) if m in base]


def _side_metric(metric) -> bool:
    """A metric of a side as written (side 0's win rate, side 0 minus side 1, s{k}_...):
    in a duplicate design every lineup holds every side, so these say nothing of a match."""
    return metric in ("win_rate", "score_diff") or (
        metric[:1] == "s" and metric[1:2].isdigit())


def _means(spec, accs) -> list:
    """Each arm's mean of every metric (a duplicate design: not those of a side as
    written)."""
    rows = []
    for metric in _metric_order(spec, accs):
        if spec.design == "duplicate" and _side_metric(metric):
            continue
        for arm in spec.arms:
            sums = accs[arm.name].sums.get(metric)
            if sums is None:
                continue
            rows.append({"metric": metric, "arm": arm.name, **arm_mean(metric, sums).to_dict()})
    return rows


def _is_share(metric) -> bool:
    """Whether ``metric`` is a 0..1 share (its intervals must stay in the possible range)."""
    return catalogue.metric_kind(metric) == "share"


def arm_mean(metric, sums):
    """An arm's mean of ``metric``: a share's interval inside [0, 1] (Wilson, exact with few
    events: stats.PairedSums.share_a), otherwise the normal one."""
    return sums.share_a() if _is_share(metric) else sums.mean_a()


def arm_effect(metric, sums):
    """An arm's paired effect on ``metric``: for a share, a paired score interval inside
    [-1, 1] (stats.PairedSums.share_effect), otherwise the normal one."""
    return sums.share_effect() if _is_share(metric) else sums.effect()


def _effects(spec, accs, stats, notes) -> list:
    """Every non-baseline arm against the baseline on every metric, Holm within a metric;
    none in a duplicate design (its arms are matches, answered by ``matches``: one match
    minus another is no question)."""
    if spec.design == "duplicate":
        return []
    others = [a.name for a in spec.arms[1:]]
    rows = []
    for metric in _metric_order(spec, accs):
        found = [(name, arm_effect(metric, accs[name].sums[metric])) for name in others
                 if metric in accs[name].sums]
        if not found:
            continue
        own = ([accs[name].sums[metric].share_effect_interval for name, _ in found]
               if _is_share(metric) else None)
        adjusted = (stats.holm_intervals([e for _, e in found], intervals=own)
                    if len(found) > 1 else None)
        for index, (name, effect) in enumerate(found):
            row = {"metric": metric, "arm": name, "baseline": spec.baseline,
                   **effect.to_dict()}
            if adjusted is not None:
                low, high, holm_p = adjusted[index]
                row.update(holm_ci_low=low, holm_ci_high=high, holm_p=holm_p)
            else:
                row.update(holm_ci_low=row.get("ci_low"), holm_ci_high=row.get("ci_high"),
                           holm_p=row.get("p_value"))
            relative = (accs[name].sums[metric].relative()
                        if _ratio_makes_sense(metric, accs[name].sums[metric]) else None)
            row["relative"] = relative.to_dict() if relative is not None else None
            rows.append(row)
    if len(others) > 1:
        notes.append(f"{len(others)} arms are compared with the baseline: besides each "
                     "95% interval, the Holm-adjusted interval and p-value are given per "
                     "metric (holm_ci_low, holm_ci_high, holm_p); a Holm interval excludes "
                     "0 exactly when Holm's procedure rejects, which keeps the family-wise "
                     "error of those rejections at 5% for each metric.")
    return rows


def _ratio_makes_sense(metric, sums) -> bool:
    """A relative effect (ratio - 1) for key metrics whose baseline mean is clearly not 0."""
    if metric not in catalogue.KEY_METRICS + catalogue.RULE_EFFECTS \
            or metric in ("score_diff", "first_player_advantage"):
        return False
    base = sums.mean_b()
    return base.ci_low is not None and (base.ci_low > 0 or base.ci_high < 0)


def _medians(spec, accs, stats) -> list:
    """Medians with exact order-statistic intervals (rotation-0 rows: independent units)."""
    rows = []
    for arm in spec.arms:
        for metric, counter in accs[arm.name].median_hist.items():
            if spec.design == "duplicate" and _side_metric(metric):
                continue
            values, counts = _sorted_hist(counter)
            if counts.sum() == 0:
                continue
            rows.append({"metric": metric, "arm": arm.name,
                         **stats.quantile(values, counts, 0.5).to_dict()})
    return rows


def _matches(spec, accs, stats) -> list:
    """The head-to-head of each arm's lineups (duplicate designs)."""
    if spec.design != "duplicate":
        return []
    rows = []
    for arm in spec.arms:
        acc = accs[arm.name]
        lineups = arm.lineups()
        row = {"arm": arm.name, "a": lineups[0], "b": " + ".join(lineups[1:]),
               "points_per_deal": acc.points.mean_a().to_dict() if acc.points else None,
               "win_rate": None, "elo": None, "pentanomial": None, "los": None,
               "trinomial_variance_ratio": None, "fair_share": 0.5}
        if acc.match is not None:
            lost, drawn, won = (int(c) for c in acc.match.trinomial)
            row["wld"] = {"wins": won, "losses": lost, "draws": drawn}
            row.update(win_rate=acc.match.win_rate().to_dict(), elo=acc.match.elo().to_dict(),
                       pentanomial=[int(c) for c in acc.match.pentanomial],
                       los=acc.match.los(),
                       trinomial_variance_ratio=acc.match.trinomial_variance_ratio())
        elif acc.lineup is not None:                  # three sides or more: no Elo
            row["win_rate"] = acc.lineup.share_a().to_dict()
            row["fair_share"] = 1 / len(lineups)
        rows.append(row)
    return rows


def _balance(spec, acc, stats) -> dict:
    """Ludii-style balance metrics of one arm."""
    def mean(metric):
        sums = acc.sums.get(metric)
        return arm_mean(metric, sums).to_dict() if sums is not None else None

    turns = acc.hist.get("turns")
    out = mean("went_out")
    block = {"arm": acc.name,
             "first_player_advantage": mean("first_player_advantage"),
             "first_player_deal_share": mean("first_player_wins_deal"),
             "first_player_game_win_rate": mean("first_player_won_game"),
             "turns": stats.histogram_summary(*_sorted_hist(turns)) if turns else None,
             "deals_per_game": None, "end_reasons": None,
             "lead_changes_per_game": mean("lead_changes"), "comeback_share": mean("comeback"),
             "leader_wins": None, "final_margin": None,
             "draws": acc.draws if spec.games else None,
             "cut": acc.cut if spec.games else None}
    if out is not None and out.get("estimate") is not None:
        block["end_reasons"] = _end_reasons(out["estimate"], mean("special_end"))
    if spec.games:
        block["deals_per_game"] = stats.histogram_summary(
            *_sorted_hist(acc.hist["deals_per_game"]))
        margin = stats.histogram_summary(*_sorted_hist(acc.hist["final_margin"]))
        block["final_margin"] = {"mean": margin["mean"], "p50": margin["p50"]}
        block["leader_wins"] = [{"k": k, **mean(f"leader_wins_k{k}")} for k in catalogue.LEADER_K
                                if mean(f"leader_wins_k{k}") is not None]
    return block


def _end_reasons(out: float, special) -> dict:
    """The shares of deals by how they ended: out, stock, and special (Modern American's
    special hands, A52) only when some deal ended so."""
    share = special.get("estimate") if isinstance(special, dict) else None
    if not share:
        return {"out": out, "stock": 1 - out}
    return {"out": out, "stock": 1 - out - share, "special": share}


def _distributions(accs) -> dict:
    """Histograms for the plots."""
    result = {}
    for name, acc in accs.items():
        result[name] = {}
        for metric in ("turns", "deals_per_game"):
            if metric in acc.hist:
                values, counts = _sorted_hist(acc.hist[metric])
                result[name][metric] = {"values": values.astype(int).tolist(),
                                        "counts": counts.tolist()}
    return result


def _sweeps(spec) -> list:
    """Each swept parameter with its arms in value order."""
    found = {}
    for arm in spec.arms:
        for parameter, value in arm.swept:
            found.setdefault(parameter, []).append((value, arm.name))
    rows = []
    for parameter, pairs in found.items():
        pairs.sort(key=lambda p: (isinstance(p[0], str), p[0]))
        rows.append({"parameter": parameter, "arms": [a for _, a in pairs],
                     "values": [v for v, _ in pairs]})
    return rows


def _sprt_block(spec, state, accs, stats):
    """The sequential test's outcome, when the study has one."""
    if spec.sprt is None:
        return None
    state = dict(state or {})
    estimate = sprt_estimate(spec, accs)
    block = {"metric": spec.sprt.metric, "h0": spec.sprt.h0, "h1": spec.sprt.h1,
             "alpha": spec.sprt.alpha, "beta": spec.sprt.beta,
             "llr": state.get("llr"), "lower": state.get("lower"), "upper": state.get("upper"),
             "decision": state.get("decision", "undecided"), "waves": state.get("waves", 0),
             "units": state.get("units", 0), "wave_size": spec.sprt.wave_size,
             "method": state.get("method", "sprt-normal"),
             "estimate": estimate.to_dict() if estimate is not None else None}
    block["stopped_early"] = block["decision"] in ("H0", "H1") and block["units"] < spec.units
    if block["method"] != "gsprt" and (estimate is None or estimate.se is None):
        block["note_no_spread"] = ("The tested quantity has no standard error in these data "
                                   "(every unit gave the same difference), so the test could "
                                   "not weigh the evidence and stayed undecided.")
    if spec.games and _is_share(spec.sprt.metric) and block["method"] != "gsprt":
        block["note_method"] = (
            f"{spec.sprt.metric} is a per-deal share, which a game study measures as a ratio "
            "(events over the deals of each game), so the test used the normal approximation "
            "(sprt-normal), not the GSPRT on 0/1 units; for an event rarer than about 1 deal "
            "in 100 its error rates can exceed alpha and beta (docs/statistics.md): test such "
            "an event in a deal study.")
    every = f"every {spec.sprt.wave_size} {spec.unit}s"
    block["note"] = (f"The test was looked at {every} and stopped once the "
                     "log-likelihood ratio crossed a bound; an estimate at such a stop is "
                     "biased away from the hypothesis that was rejected, and its interval "
                     "does not account for the stopping." if block["stopped_early"] else
                     f"The test was looked at {every}.")
    return block


def _general_notes(spec, summary, accs, units_played) -> None:
    """Caveats a reader must see."""
    notes = summary["notes"]
    decks = {(a.rule_set().num_packs, a.rule_set().num_jokers) for a in spec.arms}
    if len(decks) > 1:
        notes.append("The arms use different decks: they share deal seeds, not cards, so the "
                     "pairing removes less variance.")
    if units_played < spec.units and not summary["study"]["stopped_early"]:
        notes.append(f"The study is incomplete: {units_played} of {spec.units} "
                     f"{spec.unit}s per arm are played; run the same command again to resume.")
    cut = sum(acc.cut for acc in accs.values())
    if cut:
        notes.append(f"{cut} games were cut off unfinished (2,000 deals); they count as "
                     "draws in win rates.")
    if spec.design == "duplicate":
        notes.append("Duplicate design: every seed is played in every rotation of the sides; "
                     "the unit is the seed, and a lineup's result is averaged over its "
                     "rotations.")
    if spec.games:
        notes.append("Per-deal metrics of a game study are totals over games divided by the "
                     "deals played (ratio estimates, intervals by the delta method with games "
                     "as clusters).")


def _clean(value):
    """NaN and infinities -> None, numpy scalars -> Python, recursively."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, np.bool_):
        return bool(value)
    return value


# --------------------------------------------------------------------------------------------
# The sequential test, wave by wave
# --------------------------------------------------------------------------------------------

def sprt_estimate(spec, accs):
    """The Estimate the SPRT tests: the effect (crn) or lineup 0's result (duplicate)."""
    metric = spec.sprt.metric
    if spec.design == "crn":
        other = accs[spec.arms[1].name].sums.get(metric)
        return arm_effect(metric, other).estimate if other is not None else None
    acc = accs[spec.arms[0].name]
    if metric == "win_rate":
        if acc.match is not None:
            return acc.match.win_rate()
        return acc.lineup.mean_a() if acc.lineup is not None else None
    return acc.points.mean_a() if acc.points is not None else None


def _slice(values, part):
    """The units ``part`` (a slice) of a metric's Values."""
    return M.Values(values.y[..., part], None if values.n is None else values.n[part])


class SprtTracker:
    """The SPRT of a study, looking after every ``wave_size`` units (deals or games).

    The runner plays whole shard ranges (``wave`` of them between two checks); the tracker
    reads each complete range in order and looks at the test after units wave_size,
    2 wave_size, ... and after the study's last unit, so where it stops does not depend on
    the shard size.  A share metric (0/1 units, a draw counting half) in a crn design and
    a duplicate win rate use the GSPRT on the counts of each unit value (stats.gsprt_llr,
    method ``gsprt``); other metrics the normal approximation (``sprt-normal``)."""

    def __init__(self, spec, folder):
        """Start with no data."""
        stats = _stats()
        self.stats = stats
        self.spec = spec
        self.folder = folder
        self.test = stats.Sprt(spec.sprt.h0, spec.sprt.h1, spec.sprt.alpha, spec.sprt.beta)
        self.accs = None
        self.added = []
        self.waves = 0
        self.decision = "undecided"
        self.units = 0
        self.estimate = None
        self.counts = Counter()     # unit differences (crn share metrics): value -> units
        self.counted = spec.design == "crn" and _is_share(spec.sprt.metric)

    def _study(self):
        """The study folder opened for reading."""
        return store.open_study(self.folder.root)

    def _ready_ranges(self, done) -> list:
        """The complete ranges not yet added, in order."""
        reader = RangeReader(self._study())
        complete = reader.complete_ranges(done)
        return [r for r in complete[len(self.added):]]

    def _fresh(self):
        """Empty accumulators of the arms the test reads."""
        spec, stats = self.spec, self.stats
        return {arm.name: ArmAccumulator(arm.name, arm.name == spec.baseline, stats, 1024)
                for arm in spec.arms}

    def _add_range(self, reader, first, count) -> str:
        """Add one range, looking at the test at every wave boundary inside it."""
        spec = self.spec
        if self.accs is None:
            self.accs = self._fresh()
        arms = [spec.baseline] + ([spec.arms[1].name] if spec.design == "crn" else [])
        units = {name: reader.units(name, first, count)[0] for name in arms}
        size = spec.sprt.wave_size
        start = 0
        while start < count:
            stop = min(count, (first + start) // size * size + size - first)
            self._add_units(units, slice(start, stop))
            self.units = first + stop
            start = stop
            if self.units % size == 0 or self.units == spec.units:
                if self._look() != "undecided":
                    break
        self.added.append((first, count))
        return self.decision

    def _add_units(self, units, part) -> None:
        """Add the units ``part`` of a range to the test's sums."""
        spec, stats, metric = self.spec, self.stats, self.spec.sprt.metric
        if spec.design == "crn":
            base = _slice(units[spec.baseline][metric], part)
            arm = _slice(units[spec.arms[1].name][metric], part)
            acc = self.accs[spec.arms[1].name]
            if metric not in acc.sums:
                acc.sums[metric] = stats.PairedSums(True, acc.block)
            acc.sums[metric].add(arm.y, arm.n, base.y, base.n)
            if self.counted and arm.n is None and base.n is None:
                diffs, seen = np.unique(np.round(arm.y - base.y, 9), return_counts=True)
                self.counts.update(dict(zip(diffs.tolist(), seen.tolist())))
            elif self.counted:
                self.counted = False             # ratios over deals: the normal test
            return
        mine = units[spec.arms[0].name]
        sliced = {key: _slice(mine[key], part)
                  for key in ("points_per_deal", M.LINEUP_BY_ROTATION) if key in mine}
        self.accs[spec.arms[0].name]._add_duplicate(sliced, spec.rotations(spec.arms[0]), spec)

    def _look(self) -> str:
        """Look at the test with every unit added so far."""
        self.waves += 1
        estimate = sprt_estimate(self.spec, self.accs)
        self.estimate = estimate
        match = self.accs[self.spec.arms[0].name].match
        if self.counted:
            values = sorted(set(self.counts) | {-1.0, 0.0, 1.0})
            self.decision = self.test.update_counts(values, [self.counts[v] for v in values])
        elif self.spec.design == "duplicate" and self.spec.sprt.metric == "win_rate" \
                and match is not None:
            self.decision = self.test.update_counts(self.stats.PAIR_SCORES, match.pentanomial)
        elif estimate is not None and estimate.se is not None and estimate.se > 0:
            n = estimate.n
            self.decision = self.test.update(n, estimate.estimate, estimate.se ** 2 * n)
        return self.decision              # no spread yet: the next look decides

    def _add_ranges(self, done) -> str:
        """Add every newly complete range until the test decides."""
        if self.decision != "undecided":
            return self.decision
        ranges = self._ready_ranges(done)
        if not ranges:
            return self.decision
        reader = RangeReader(self._study())
        for first, count in ranges:
            if self._add_range(reader, first, count) != "undecided":
                break
        return self.decision

    def catch_up(self, done, todo) -> list:
        """Replay the decision over the ranges already on disk; [] if it is decided."""
        return [] if self._add_ranges(done) != "undecided" else todo

    def update(self, done) -> str:
        """Add every newly complete range; the decision so far."""
        return self._add_ranges(done)

    def progress(self) -> str:
        """The running test in a few words, for the progress line."""
        t = self.test
        return (f"LLR {t.llr:+.2f} in ({t.lower:.2f}, {t.upper:.2f}), "
                f"{self.units} {self.spec.unit}s: {self.decision}")

    def state(self) -> dict:
        """The test's state for the manifest."""
        return {"metric": self.spec.sprt.metric, "h0": self.spec.sprt.h0,
                "h1": self.spec.sprt.h1, "alpha": self.spec.sprt.alpha,
                "beta": self.spec.sprt.beta, "llr": self.test.llr, "lower": self.test.lower,
                "upper": self.test.upper, "decision": self.decision, "waves": self.waves,
                "wave_size": self.spec.sprt.wave_size, "method": self.test.method,
                "units": self.units}


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------

def report(study_or_root, command=None) -> list:
    """Write ``summary.json``, ``report.md``, ``report.html`` and ``plots/`` into the study
    folder; returns the paths written."""
    study = study_or_root if isinstance(study_or_root, store.Study) else \
        store.open_study(study_or_root)
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        raise BadInput("the study report needs matplotlib: accepted: pip install "
                       "'canasta-sim[study]'") from None
    from canasta_sim.study.report import write_report

    summary = build_summary(study, command)
    root = study.folder.root
    text = json.dumps(summary, indent=1) + "\n"
    written = write_report(summary, root, {"summary.json": text.encode()})  # one unit
    return [os.path.join(root, "summary.json")] + list(written)


def load_summary(root) -> dict:
    """The ``summary.json`` of a study folder (a report that a dead process left half moved
    into place is finished first: canasta_sim.study.publish)."""
    from canasta_sim.study.publish import recover

    recover(root)
    with open(os.path.join(os.fspath(root), "summary.json"), encoding="utf-8") as handle:
        return json.load(handle)
