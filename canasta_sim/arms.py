"""Arms on common deals: several lineups played on the very same deal (or game) seeds.

An *arm* is one validated runner :class:`~canasta_sim.runner.Plan`: a rule set and a policy
per seat, with their parameters.  Arms planned together share the master seed and play the
same range of deal (or game) indices, so deal *i* is the same deal in every arm (common
random numbers, STYLE.md pattern 5).  Sweeps (canasta_sim.sweep), head-to-head strength
(canasta_sim.strength), tuning (canasta_sim.tune) and studies (canasta_sim.study.execute)
all plan and play their arms here:

* :func:`plan_arms`: one plan per seat lineup, every input checked before anything plays;
* :func:`seats_for` and :func:`rotated`: a lineup by side, and the sides rotated (a
  duplicate design plays every seed once per rotation);
* :func:`start_arms` and :func:`play_arms`: every arm on the same range, on a runner
  WorkPool or on this thread;
* :func:`side_results` and :func:`pair_counts`: lineup A's result per game seed and the
  pentanomial statistics of the seeds played both ways round;
* :func:`play_rotations`: A against B over every rotation of three sides (or more), each
  seed's units as a duplicate study computes them (canasta_sim.study.metrics), so
  ``strength`` and ``tune`` at three sides measure what ``compare`` measures.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from canasta_sim import runner
from canasta_sim.rules import parse_rules
from canasta_sim.stats import MatchStats


def seats_for(a: str, b: str, num_players: int, num_sides: int) -> str:
    """Policies of every seat with A on side 0 and B on every other side."""
    return ",".join(a if seat % num_sides == 0 else b for seat in range(num_players))


def rotated(seats: Sequence[str], rotation: int) -> tuple:
    """Seat policies with the sides rotated: seat s plays seat (s + rotation)'s policy, so
    side k plays side (k + rotation)'s lineup and lineup 0 sits on side -rotation."""
    n = len(seats)
    return tuple(seats[(seat + rotation) % n] for seat in range(n))


def plan_arms(lineups: Sequence[str], rules="classic", **common) -> tuple:
    """One validated plan per seat lineup (policies text), all on the same seeds.

    ``common`` are :func:`canasta_sim.runner.prepare`'s other arguments (deals or games,
    seed, scores_before, first_deal, first_game), the same for every arm; the rule set is
    parsed once.  Raises BadInput before anything is played."""
    rules = parse_rules(rules)
    return tuple(runner.prepare(rules=rules, policies=lineup, **common) for lineup in lineups)


def start_arm(plan, first: int, count: int, pool=None):
    """Start playing units first..first+count-1 of one arm; returns a waiter giving its rows
    (deal rows, or GameRows for a games plan).  With a runner WorkPool the range is split
    over its threads; without one it is played here, on this thread."""
    games = plan.games is not None
    if pool is not None:
        start = pool.start_games if games else pool.start_deals
        return start(plan, first, count).wait
    if games:
        rows = runner.play_game_range(plan, first, count)
    else:
        rows = plan.new_rows(count)
        runner.play_range(plan, first, rows)
    return lambda: rows


def start_arms(plans: Sequence, first: int, count: int, pool=None) -> list:
    """Start every arm on the same range; one waiter per arm (see :func:`start_arm`)."""
    return [start_arm(plan, first, count, pool) for plan in plans]


def play_arms(plans: Sequence, first: int, counts, threads=None) -> list:
    """The rows of every arm on units first..first+count-1 (``counts``: one count for every
    arm, or one per arm), played on ``threads`` worker threads (default: every core)."""
    if isinstance(counts, (int, np.integer)):
        counts = [counts] * len(plans)
    with runner.WorkPool(runner.check_threads(threads)) as pool:
        waiters = [start_arm(plan, first, count, pool) for plan, count in zip(plans, counts)]
        return [wait() for wait in waiters]


def with_rotation(table, rotation: int):
    """``table`` with an int8 ``rotation`` column (0: the arm as written) after ``seed``."""
    import pyarrow as pa

    column = pa.array(np.full(table.num_rows, rotation, dtype=np.int8))
    return table.add_column(table.schema.get_field_index("seed") + 1, "rotation", column)


def whole_seed_games(value, option: str, sides: int, zero: bool = False) -> int:
    """A number of games that plays every game seed once per rotation of the sides (an even
    number at two sides, a multiple of 3 at three), or BadInput naming ``option``; with
    ``zero``, 0 too (nothing played)."""
    from canasta_sim.errors import BadInput

    least = 0 if zero else sides
    if not runner._is_int(value) or value < least or value % sides or (value == 0
                                                                       and not zero):
        extra = "0 (no verification) or " if zero else ""
        if sides == 2:
            raise BadInput(f"{option} {value!r} is not accepted: accepted: {extra}an even "
                           "number of games >= 2 (each game seed is played both ways round), "
                           "e.g. 200")
        low = max(sides, value - value % sides) if runner._is_int(value) else sides
        raise BadInput(f"{option} {value!r} is not accepted: accepted: {extra}a multiple of "
                       f"{sides} (at {sides} sides each game seed is played in the {sides} "
                       f"rotations), e.g. {option} {low} or {option} {low + sides}")
    return int(value)


def side_results(games_table, a_side: int, first: int, count: int) -> tuple:
    """(A's result, A's final margin) per game index first .. first + count - 1 of a games
    table with lineup A on ``a_side``: result 1 win, 0.5 draw, 0 loss; both NaN for a game
    cut off unfinished (or missing from the table)."""
    winner = games_table["winner"].to_numpy()
    ended = games_table["ended"].to_pandas().astype(str).to_numpy()
    result = np.where(winner == a_side, 1.0, np.where(ended == "draw", 0.5, 0.0))
    result[ended == "cut"] = np.nan
    finals = (games_table[f"s{a_side}_final"].to_numpy().astype(np.float64)
              - games_table[f"s{1 - a_side}_final"].to_numpy().astype(np.float64))
    finals[ended == "cut"] = np.nan
    where = games_table["game"].to_numpy() - first
    out_result, out_margin = np.full(count, np.nan), np.full(count, np.nan)
    out_result[where], out_margin[where] = result, finals
    return out_result, out_margin


def pair_counts(a_first, a_second) -> MatchStats:
    """The pentanomial statistics of the seeds played both ways round, leaving out pairs
    with a game cut off (NaN)."""
    k = min(len(a_first), len(a_second))
    first, second = np.asarray(a_first[:k]), np.asarray(a_second[:k])
    keep = ~(np.isnan(first) | np.isnan(second))
    return MatchStats.from_games(first[keep], second[keep])


class RotationStats:
    """A's results over game seeds each played in every rotation of three sides (or more):
    the counterpart of MatchStats's game pairs.  A seed is one unit, its value A's mean
    result over its rotations; the win share and its 95% interval are
    :meth:`canasta_sim.stats.PairedSums.share_a` of those units, as a duplicate study
    computes them, and are compared with the fair share 1 / sides."""

    def __init__(self, sides: int):
        """No seed yet."""
        from canasta_sim.stats import PairedSums

        self.sides = int(sides)
        self.sums = PairedSums(False)

    def add(self, results) -> None:
        """Add seeds: A's results per (rotation, seed), a (sides, seeds) array."""
        results = np.asarray(results, dtype=np.float64)
        if results.shape[1]:
            self.sums.add(results.mean(axis=0))

    def merge(self, other: "RotationStats") -> None:
        """Add the seeds of another RotationStats (of as many sides)."""
        self.sums.merge(other.sums)

    @property
    def seeds(self) -> int:
        """Game seeds added."""
        return self.sums.units

    @property
    def games(self) -> int:
        """Games those seeds played (seeds x sides)."""
        return self.seeds * self.sides

    @property
    def fair_share(self) -> float:
        """A's win share when it plays as well as B: 1 / sides."""
        return 1 / self.sides

    def win_rate(self, level=0.95):
        """A's win share (an Estimate: a draw counting half) with its interval."""
        return self.sums.share_a(level)

    def significant(self) -> bool:
        """Whether the 95% interval of the win share excludes the fair share."""
        rate = self.win_rate()
        return rate.ci_low is not None and (rate.ci_low > self.fair_share
                                            or rate.ci_high < self.fair_share)


class Rotations(NamedTuple):
    """Lineup A (one side) against lineup B (every other side) on game seeds first ..
    first + seeds - 1, each seed played once per rotation of the sides."""

    games: object     # the games table, every rotation stacked, with a ``rotation`` column
    deals: object     # the per-deal table of those games, likewise
    units: dict       # per seed: canasta_sim.study.metrics.game_units of the tables
    sides: int
    first: int
    seeds: int

    def results(self) -> np.ndarray:
        """A's result per (rotation, seed): 1 won, 0 lost, 0.5 drawn (or cut off), as a
        duplicate study counts it (canasta_sim.study.metrics)."""
        from canasta_sim.study.metrics import LINEUP_BY_ROTATION

        return self.units[LINEUP_BY_ROTATION].y

    def stats(self) -> RotationStats:
        """A's win share over these seeds (:class:`RotationStats`)."""
        stats = RotationStats(self.sides)
        stats.add(self.results())
        return stats

    def lineup_columns(self, table, suffix: str) -> tuple:
        """(A's value, the mean of the other sides' values) per row of ``table`` (games or
        deals) from its columns s{k}_{suffix}: A sits on side -rotation."""
        from canasta_sim.study.metrics import lineup_side

        values = np.stack([table[f"s{k}_{suffix}"].to_numpy().astype(np.float64)
                           for k in range(self.sides)], axis=1)
        side = lineup_side(table["rotation"].to_numpy().astype(np.int64), self.sides)
        own = values[np.arange(len(values)), side]
        return own, (values.sum(axis=1) - own) / (self.sides - 1)

    def margins(self) -> np.ndarray:
        """A's final score minus the mean of the other sides' final scores, per (rotation,
        seed); NaN for a game cut off unfinished."""
        own, others = self.lineup_columns(self.games, "final")
        margin = own - others
        ended = self.games["ended"].to_pandas().astype(str).to_numpy()
        margin[ended == "cut"] = np.nan
        out = np.full((self.sides, self.seeds), np.nan)
        out[self.games["rotation"].to_numpy(), self.games["game"].to_numpy() - self.first] = \
            margin
        return out


def play_rotations(a: str, b: str, rules, seed: int, first: int, seeds: int,
                   threads=None) -> Rotations:
    """A (every seat of side 0) against B (every other side) on game seeds first .. first +
    seeds - 1, each played in every rotation of the sides: the lineups, plans, tables and
    per-seed units of a study's duplicate design (canasta_sim.study.execute and
    canasta_sim.study.metrics), so the figures are those ``compare`` reports."""
    import pyarrow as pa

    from canasta_sim.study.metrics import game_units

    rules = parse_rules(rules)
    sides = rules.num_sides
    seats = [a if seat % sides == 0 else b for seat in range(rules.num_players)]
    lineups = [",".join(rotated(seats, rotation)) for rotation in range(sides)]
    plans = plan_arms(lineups, rules, seed=seed, games=seeds, first_game=first)
    parts = ([], [])
    for rotation, (plan, rows) in enumerate(zip(plans, play_arms(plans, first, seeds,
                                                                 threads))):
        for part, table in zip(parts, runner.rows_tables(plan, first, rows)):
            part.append(with_rotation(table, rotation))
    games, deals = (pa.concat_tables(part, promote_options="permissive") for part in parts)
    units = game_units(games, deals, first, seeds, sides, sides, rules.num_players)
    return Rotations(games, deals, units, sides, first, seeds)
