"""The benchmark suite behind ``canasta-sim bench`` and ``python -m benchmarks``.

In one run it measures, for one rule set:

* deals per second of the floor (shuffle, deal, red threes and upcard, no play) and of full
  deals with each policy at every seat, on one thread and on all threads, kernel-only
  (rows kept in memory) and end-to-end (Arrow tables and a zstd Parquet file written,
  exactly the path ``canasta-sim simulate`` takes);
* compile time: cold (a fresh process with an empty numba cache) and cached (a fresh
  process, from interpreter start to its first deal played);
* the issue-3 target run ``canasta-sim simulate --deals 1000000`` as a user types it
  (wall clock and Parquet size).

Each rate is the median of ``repeat`` timed runs after ``warmup`` untimed ones; the
spread (min, max) is reported beside it because machines are noisy.  ``check``
replays a sample of the benchmarked deals through their traces and audits card
conservation and the score identity (:mod:`canasta_sim.audit`).
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

FIELDS = ("case", "policy", "threads", "mode", "deals", "runs", "median", "min", "max",
          "unit", "x_floor", "rules", "seed", "cores", "version", "kernels_hash", "date")


class Options(NamedTuple):
    """What one benchmark run measures."""

    deals: int = 200_000
    repeat: int = 5
    warmup: int = 1
    policies: tuple = ("random", "greedy", "careful", "rush", "builder", "expert")
    rules: str = "classic"
    seed: int = 20261129
    threads: int = 0            # 0: every available core
    check: bool = False
    sample: int = 500
    cold: bool = True
    target: bool = True
    target_deals: int = 1_000_000
    csv: str = "results/bench/bench.csv"


class Result(NamedTuple):
    """One measured line: a rate in deals/s, or seconds, or megabytes."""

    case: str
    policy: str
    threads: int
    mode: str
    deals: int
    values: tuple
    unit: str

    @property
    def median(self) -> float:
        """The median of the measured values."""
        return statistics.median(self.values)


def _timed(fn, repeat: int, warmup: int) -> list:
    """Seconds of ``repeat`` calls of ``fn`` after ``warmup`` untimed calls."""
    for _ in range(warmup):
        fn()
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        seconds.append(time.perf_counter() - start)
    return seconds


def _rates(deals: int, seconds: list) -> tuple:
    """Deals per second of each run."""
    return tuple(deals / s for s in seconds)


# --------------------------------------------------------------------------------------------
# What is timed
# --------------------------------------------------------------------------------------------

def floor_run(plan, threads: int):
    """A callable dealing ``plan.deals`` deals without playing them, on ``threads`` threads."""
    from concurrent.futures import ThreadPoolExecutor

    from canasta_sim.kernels.play.deals import deal_only_nb

    from canasta_sim.runner import split_range

    pieces = split_range(plan.deals, threads * 4)

    def deal_piece(piece):
        a, b = piece
        return deal_only_nb(plan.rules_nb, plan.seed, a, b - a, plan.scores_before)

    def run():
        with ThreadPoolExecutor(threads) as pool:
            return sum(pool.map(deal_piece, pieces))

    return run


def kernel_run(plan, threads: int, keep=None):
    """A callable playing ``plan.deals`` deals into memory on ``threads`` threads; the rows
    of its last call are kept in ``keep["rows"]`` (for ``--check``).  The rows are written
    into one array allocated and touched before any timing, so that the first-touch page
    faults of a fresh array are not counted as play."""
    from canasta_sim.runner import WorkPool

    out = plan.new_rows(plan.deals, fill=1)

    def run():
        with WorkPool(threads) as pool:
            rows = pool.start_deals(plan, plan.first_deal, plan.deals, out).wait()
        if keep is not None:
            keep["rows"] = rows
        return rows

    return run


def end_to_end_run(plan, threads: int, path: str):
    """A callable playing ``plan.deals`` deals and writing them to the Parquet file ``path``."""
    from canasta_sim import results, runner

    def run():
        results.write_parquet(runner.iter_tables(plan, None, False, threads), path)

    return run


def _python(code: str, env=None) -> float:
    """Wall-clock seconds of a fresh ``python -c code`` process (raises if it fails)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


_FIRST_DEAL = "import canasta_sim; canasta_sim.simulate(1, threads=1)"
_WARM = "from canasta_sim.warm import warm; warm()"


def compile_cold() -> float:
    """Seconds for a fresh process to compile every kernel with an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="canasta-sim-cold-") as folder:
        return _python(_WARM, env={**os.environ, "CANASTA_SIM_CACHE_DIR": folder})


def first_deal_cached() -> float:
    """Seconds from starting a fresh process to its first deal played, with a warm cache."""
    return _python(_FIRST_DEAL)


def cli_target(deals: int, folder: Path) -> tuple:
    """(wall seconds, Parquet MB) of ``canasta-sim simulate --deals N --out ...`` as typed."""
    path = folder / "target.parquet"
    command = [sys.executable, "-m", "canasta_sim", "simulate", "--deals", str(deals),
               "--out", str(path), "--quiet"]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    megabytes = path.stat().st_size / 1e6
    path.unlink()
    return seconds, megabytes


# --------------------------------------------------------------------------------------------
# The suite
# --------------------------------------------------------------------------------------------

def run_suite(opts: Options, say=print) -> list:
    """Measure every case of ``opts``; returns the :class:`Result` lines in order.

    Scratch Parquet files go to a private temporary folder, removed at the end; the suite
    never touches a file it did not create.
    """
    with tempfile.TemporaryDirectory(prefix="canasta-sim-bench-") as scratch:
        return _run_suite(opts, say, Path(scratch))


def _run_suite(opts: Options, say, folder: Path) -> list:
    """:func:`run_suite` with its scratch files in ``folder``."""
    from canasta_sim.rules import parse_rules
    from canasta_sim.runner import available_cores, prepare
    from canasta_sim.warm import warm

    for line in load_lines(available_cores()):
        say(line)
    warm()
    all_threads = opts.threads or available_cores()
    thread_counts = (1,) if all_threads == 1 else (1, all_threads)
    out: list = []

    def add(result):
        out.append(result)
        say(format_line(result, out))

    say(header())
    american = parse_rules(opts.rules).american
    # the floor deals the deck, the same shuffle for every family (docs/american.md)
    floor_plan = prepare(opts.deals, opts.seed, "classic" if american else opts.rules, "greedy")
    for threads in thread_counts:
        seconds = _timed(floor_run(floor_plan, threads), opts.repeat, opts.warmup)
        add(Result("floor", "-", threads, "kernel", opts.deals, _rates(opts.deals, seconds),
                   "deals/s"))
    for policy in opts.policies:
        plan = prepare(opts.deals, opts.seed, opts.rules, policy)
        timed_rows: dict = {}
        for threads in thread_counts:
            seconds = _timed(kernel_run(plan, threads, timed_rows), opts.repeat, opts.warmup)
            add(Result("play", policy, threads, "kernel", opts.deals,
                       _rates(opts.deals, seconds), "deals/s"))
            if american:                       # the family's rate beside classic's
                classic = prepare(opts.deals, opts.seed, "classic", policy)
                seconds = _timed(kernel_run(classic, threads), opts.repeat, opts.warmup)
                add(Result("play classic", policy, threads, "kernel", opts.deals,
                           _rates(opts.deals, seconds), "deals/s"))
        path = str(folder / f"end-to-end-{len(out)}.parquet")
        for threads in thread_counts:
            seconds = _timed(end_to_end_run(plan, threads, path), opts.repeat, opts.warmup)
            add(Result("play", policy, threads, "end-to-end", opts.deals,
                       _rates(opts.deals, seconds), "deals/s"))
        Path(path).unlink(missing_ok=True)
        if opts.check and not american:
            say(check_sample(plan, opts.sample, timed_rows["rows"]))
        elif opts.check:
            say("check: Modern American rows are checked by the soaks and 'canasta-sim "
                "audit' (tests/test_american_play.py), not by the bench")
    add(Result("compile cached: process start to first deal", "-", 1, "process", 1,
               tuple(first_deal_cached() for _ in range(max(opts.repeat, 1))), "s"))
    if opts.cold:
        add(Result("compile cold: every kernel, empty cache", "-", 1, "process", 0,
                   (compile_cold(),), "s"))
    if opts.target:
        seconds, megabytes = cli_target(opts.target_deals, folder)
        add(Result("canasta-sim simulate (wall clock)", "greedy", all_threads, "cli",
                   opts.target_deals, (seconds,), "s"))
        add(Result("canasta-sim simulate (Parquet size)", "greedy", all_threads, "cli",
                   opts.target_deals, (megabytes,), "MB"))
    for line in impossible_ratios(out):
        say(line)
    return out


BUSY = 0.5
"""A 1-minute load average above this many cores, before the bench starts, is other work
sharing the machine: the bench warns that its rates and ratios are not to be trusted."""


def load_lines(cores: int) -> list:
    """The machine's load average, and a warning when it is busy (``BUSY``)."""
    try:
        one, five, fifteen = os.getloadavg()
    except (OSError, AttributeError):
        return ["load average: unknown on this system"]
    lines = [f"load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) before the "
             f"bench, on {cores} cores"]
    if one > BUSY:
        lines.append(f"warning: the machine is busy (load average {one:.2f} before the bench "
                     "started): other work shares the cores, so the rates below are low and "
                     "the ratios between them unreliable; measure on an idle machine")
    return lines


def impossible_ratios(results: list) -> list:
    """A warning for every case that ran more than T times as fast on T threads as on one
    (give or take 5%): a sign the machine's load changed during the bench."""
    one = {(r.case, r.policy, r.mode): r.median for r in results
           if r.threads == 1 and r.unit == "deals/s"}
    lines = []
    for r in results:
        base = one.get((r.case, r.policy, r.mode))
        if r.threads > 1 and r.unit == "deals/s" and base and r.median > 1.05 * r.threads * base:
            lines.append(f"warning: {r.case} {r.policy} {r.mode}: {r.threads} threads ran "
                         f"{r.median / base:.2f} times as fast as one, which {r.threads} cores "
                         "cannot do: the machine's load changed during the bench")
    return lines


def check_sample(plan, sample: int, rows) -> str:
    """The first ``sample`` benchmarked deals, traced again: each trace must give the very
    row the timed run wrote, and pass the audit (card conservation, score identity).
    Raises AssertionError naming the first deal that fails."""
    from canasta_sim.audit import audit_deal
    from canasta_sim.trace import decode_events, run_traced

    count = min(sample, plan.deals)
    for i in range(count):
        deal = plan.first_deal + i
        buf, row = run_traced(plan, deal)
        if not (row == rows[i]).all():
            raise AssertionError(f"deal {deal} of {','.join(plan.names)}: its trace does not "
                                 "give the row the timed run wrote")
        problems = audit_deal(decode_events(buf, plan, deal, row), plan.rules)
        if problems:
            raise AssertionError(f"deal {deal} of {','.join(plan.names)}: {problems[0]}")
    return (f"check: {count} benchmarked deals of {plan.names[0]}: traces give the timed rows; "
            "card conservation and score identity hold")


# --------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------

def header() -> str:
    """The table's header line."""
    return (f"{'case':46} {'policy':8} {'thr':>3} {'mode':10} {'median':>12} {'min':>12} "
            f"{'max':>12} {'unit':8} {'x floor':>7}")


def _floor_rate(results: list, threads: int):
    """The floor's median rate on ``threads`` threads among ``results``, if measured."""
    for r in results:
        if r.case == "floor" and r.threads == threads:
            return r.median
    return None


def x_floor(result: Result, results: list):
    """How many bare deals (the floor on as many threads) the time of one deal of
    ``result`` would deal; None for results that are not rates."""
    floor = _floor_rate(results, result.threads)
    if result.unit != "deals/s" or floor is None or result.median <= 0:
        return None
    return floor / result.median


def format_line(result: Result, results: list) -> str:
    """One table line."""
    ratio = x_floor(result, results)
    fmt = "{:12,.0f}" if result.unit == "deals/s" else "{:12.2f}"
    return (f"{result.case:46} {result.policy:8} {result.threads:3d} {result.mode:10} "
            f"{fmt.format(result.median)} {fmt.format(min(result.values))} "
            f"{fmt.format(max(result.values))} {result.unit:8} "
            f"{'' if ratio is None else f'{ratio:7.1f}'}")


def write_csv(results: list, opts: Options) -> Path:
    """Write every result line with how it was made to ``opts.csv``; returns the path."""
    from canasta_sim import __version__
    from canasta_sim._cache import kernels_dir, kernels_hash
    from canasta_sim.results import write_text
    from canasta_sim.rules import parse_rules
    from canasta_sim.runner import available_cores

    common = {"rules": parse_rules(opts.rules).canonical(), "seed": opts.seed,
              "cores": available_cores(), "version": __version__,
              "kernels_hash": kernels_hash(kernels_dir()),
              "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
    path = Path(opts.csv)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = io.StringIO()
    writer = csv.DictWriter(handle, fieldnames=FIELDS)
    writer.writeheader()
    for r in results:
        ratio = x_floor(r, results)
        writer.writerow({"case": r.case, "policy": r.policy, "threads": r.threads,
                         "mode": r.mode, "deals": r.deals, "runs": len(r.values),
                         "median": round(r.median, 3), "min": round(min(r.values), 3),
                         "max": round(max(r.values), 3), "unit": r.unit,
                         "x_floor": "" if ratio is None else round(ratio, 2), **common})
    write_text(handle.getvalue(), path)
    return path
