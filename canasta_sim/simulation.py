"""The Python entry point :func:`simulate` (``canasta_sim.simulate``): deals or games, or a
sweep of them, played into ``pyarrow`` tables.

It sits above the runner (canasta_sim.runner: one plan, chunks on worker threads) and the
sweeps (canasta_sim.sweep: one plan per swept value, on common deals through
canasta_sim.arms); a run without a sweep is a sweep of one point.
"""
from __future__ import annotations

from canasta_sim import runner
from canasta_sim.errors import BadInput
from canasta_sim.sweep import iter_sweep_tables, prepare_sweep


def simulate(deals=None, seed=0, rules="classic", policies="greedy", scores_before=None,
             chunk_size=None, progress=False, first_deal=0, threads=None, games=None,
             first_game=0, sweep=None):
    """Play deals (or whole games) and return the results as ``pyarrow`` tables.

    ``simulate(deals=N)`` returns one table, one row per deal; ``simulate(games=N)``
    plays N games to ``game_target`` (R58-R60) and returns (games table, per-deal table).
    ``rules``: a preset name, canonical string, .toml path or RuleSet;
    ``policies``: one policy name for every seat, one per side or one per seat, comma-separated;
    ``scores_before``: each side's cumulative score before each deal (deals only; default
    zeros), which sets the initial-meld minimum (R27).  Numbering starts at ``first_deal``
    or ``first_game``.  ``threads`` (default: every core) and ``chunk_size`` never change
    the result.  ``sweep``: one or a list of ``policy.param=start:stop:step`` texts
    (canasta_sim.sweep); the same deals are played for every value, and each swept
    parameter gets a column.  Raises :class:`BadInput` before playing anything if an input
    is wrong.
    """
    import pyarrow as pa

    points = prepare_sweep(sweep, deals, seed, rules, policies, scores_before, first_deal,
                           games, first_game)
    plan = points[0][0]
    rows = len(points) * (plan.deals if plan.games is None else plan.games)
    if rows > runner.MAX_TABLE_ROWS:
        raise BadInput(f"simulate() would hold {rows} rows in memory: accepted: at most "
                       f"{runner.MAX_TABLE_ROWS}; for more, run 'canasta-sim simulate' (it "
                       "streams to Parquet) or split the run with first_deal / first_game")
    threads = runner.check_threads(threads)
    if chunk_size is not None:
        runner.check_chunk_size(chunk_size, games is not None)
    parts = list(iter_sweep_tables(points, chunk_size, progress, threads))
    if points[0][0].games is None:
        return parts[0] if len(parts) == 1 else pa.concat_tables(parts)
    return tuple(pa.concat_tables(tables) for tables in zip(*parts))
