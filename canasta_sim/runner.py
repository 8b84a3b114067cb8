"""Run many deals: validate every input, then play chunk after chunk on worker threads.

Deal ``i`` of master seed ``S`` is the same deal whatever the chunk size, the thread
count or the first deal of a run, because the kernel seeds each deal from ``(S, i)``
(STYLE.md pattern 5).  A range of deals is the unit of work (:func:`play_range`):
threads here, and later machines of a cluster, each play ranges and get the same rows.
Everything a user can get wrong is checked in :func:`prepare`, before any deal is played.
"""
from __future__ import annotations

import os
import re
import sys
from typing import Iterator, NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels import layout
from canasta_sim.policies import parse_policies
from canasta_sim.rules import RuleSet, parse_rules

MAX_SEED = 2 ** 63 - 1
MAX_DEALS = 2 ** 62
SCORE_BOUND = 10 ** 9          # |cumulative score| accepted in scores_before
DEFAULT_CHUNK = 65536         # deals per chunk: one Parquet row group
MAX_THREADS = 1024


class Plan(NamedTuple):
    """A validated run: everything the kernel needs, ready to go."""

    deals: int
    first_deal: int
    seed: int
    rules: RuleSet
    rules_nb: tuple
    names: tuple
    policy_ids: np.ndarray      # int64[MAX_SEATS], -1 for unused seats
    params: np.ndarray          # float64[MAX_SEATS, NPARAMS]
    scores_before: np.ndarray   # int64[MAX_SIDES]
    metadata: dict


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------

def _is_int(value) -> bool:
    """True for Python and numpy integers, never for booleans."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_deals(deals, name="deals") -> int:
    """The number of deals as an int >= 0, or BadInput."""
    if not _is_int(deals) or not 0 <= deals <= MAX_DEALS:
        raise BadInput(f"{name}={deals!r} is not accepted: accepted: a whole number >= 0, "
                       "e.g. 10000")
    return int(deals)


def check_seed(seed) -> int:
    """The master seed as an int in 0..2**63-1, or BadInput."""
    if isinstance(seed, str) and re.fullmatch(r"\s*\d+\s*", seed):
        seed = int(seed)
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise BadInput(f"seed={seed!r} is not accepted: accepted: a whole number in "
                       f"0..{MAX_SEED}")
    return int(seed)


def check_chunk_size(chunk_size) -> int:
    """The chunk size (deals per Parquet row group) as an int >= 1, or BadInput."""
    if not _is_int(chunk_size) or chunk_size < 1:
        raise BadInput(f"chunk_size={chunk_size!r} is not accepted: accepted: a whole number "
                       ">= 1, e.g. 65536")
    return int(chunk_size)


def parse_scores(scores_before, num_sides: int) -> np.ndarray:
    """Each side's cumulative score before the deal -> int64[MAX_SIDES] (zeros if None).

    Accepts a sequence of ints, one per side, or text like ``"1500,-20"``.
    """
    result = np.zeros(layout.MAX_SIDES, dtype=np.int64)
    if scores_before is None:
        return result
    accepted = (f"accepted: {num_sides} whole numbers, one per side, e.g. "
                f"{','.join(['0'] * num_sides)}")
    if isinstance(scores_before, str):
        values = [_parse_score(part, scores_before, accepted)
                  for part in scores_before.split(",")]
    else:
        try:
            values = list(scores_before)
        except TypeError:
            raise BadInput(f"scores_before={scores_before!r} is not a list: {accepted}") from None
    if len(values) != num_sides or not all(_is_int(v) for v in values):
        raise BadInput(f"scores_before={_show(scores_before)} does not fit a rule set with "
                       f"{num_sides} sides: {accepted}")
    if any(abs(int(v)) > SCORE_BOUND for v in values):
        raise BadInput(f"scores_before={_show(scores_before)} is out of range: accepted: "
                       f"scores in -{SCORE_BOUND}..{SCORE_BOUND}")
    result[:num_sides] = [int(v) for v in values]
    return result


def _show(scores_before) -> str:
    """Scores as the user wrote them, for a message."""
    if isinstance(scores_before, str):
        return repr(scores_before)
    return ",".join(str(v) for v in scores_before)


def _parse_score(part, whole, accepted):
    """One score from text, or BadInput naming the whole text."""
    try:
        return int(part.strip(), 10)
    except ValueError:
        raise BadInput(f"scores_before={whole!r} is not a list of whole numbers: "
                       f"{accepted}") from None


def parse_deal_range(text) -> tuple:
    """``"A:B"`` -> (A, B): deals A..B-1, like a Python slice; ``"A"`` alone means ``A:A+1``.

    BadInput unless A and B are whole numbers with 0 <= A < B.
    """
    accepted = ("accepted: A:B with whole numbers 0 <= A < B (deals A to B-1, like a Python "
                "slice), e.g. 0:10, or A alone for one deal")
    match = re.fullmatch(r"\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?", str(text))
    if match is None:
        raise BadInput(f"deal range {str(text)!r} is malformed: {accepted}")
    first = int(match.group(1))
    end = int(match.group(2)) if match.group(2) is not None else first + 1
    if first < 0:
        raise BadInput(f"deal range {text!r} starts below 0: {accepted}")
    if end < first:
        raise BadInput(f"deal range {text!r} ends before it starts: {accepted}")
    if end == first:
        raise BadInput(f"deal range {text!r} is empty: {accepted}")
    if end > MAX_DEALS:
        raise BadInput(f"deal range {text!r} ends after deal {MAX_DEALS}: {accepted}")
    return first, end


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------

def prepare(deals, seed=0, rules="classic", policies="greedy", scores_before=None,
            first_deal=0) -> Plan:
    """Validate every input and return a :class:`Plan`; raises BadInput, never runs a deal."""
    from canasta_sim.results import provenance

    deals = check_deals(deals)
    first_deal = check_deals(first_deal, name="first_deal")
    seed = check_seed(seed)
    rules = parse_rules(rules)
    rules_nb = rules.to_kernel()
    names, ids, params = parse_policies(policies, rules.num_players)
    scores = parse_scores(scores_before, rules.num_sides)
    metadata = provenance(rules, seed, names, scores[:rules.num_sides].tolist())
    return Plan(deals, first_deal, seed, rules, rules_nb, names, ids, params, scores, metadata)


def _engine():
    """The jitted entry kernel (imported late: importing numba is slow)."""
    from canasta_sim.kernels.engine import play_deals_nb

    return play_deals_nb


def play_range(plan: Plan, first: int, out: np.ndarray) -> None:
    """Play deals first..first+len(out)-1 into the rows of ``out`` (n x NCOLS int64).

    This is the unit of work: any range of deals, on any thread or machine, fills
    exactly the rows a single run gives those deals.  The kernel releases the GIL.
    """
    if out.shape[0]:
        _engine()(plan.rules_nb, plan.seed, first, out, plan.policy_ids, plan.params,
                  plan.scores_before, 0)


def available_cores() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def check_threads(threads) -> int:
    """The thread count: None means every available core; else a whole number 1..MAX_THREADS."""
    if threads is None:
        return available_cores()
    if not _is_int(threads) or not 1 <= threads <= MAX_THREADS:
        raise BadInput(f"threads={threads!r} is not accepted: accepted: a whole number in "
                       f"1..{MAX_THREADS}, e.g. {available_cores()} (this machine's cores)")
    return int(threads)


def split_range(n: int, parts: int) -> list:
    """0..n as at most ``parts`` contiguous (start, stop) pieces of nearly equal size."""
    parts = max(1, min(parts, n))
    bounds = [n * k // parts for k in range(parts + 1)]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


class _Chunk(NamedTuple):
    """A chunk of deals being played: its first deal, its rows and the pieces' futures."""

    first: int
    out: np.ndarray
    futures: list

    def wait(self) -> np.ndarray:
        """The chunk's rows once every piece is played (re-raises a piece's error)."""
        for future in self.futures:
            future.result()
        return self.out


class DealPool:
    """Worker threads playing chunks of deals; a chunk is split into pieces, one per task.

    Deal i's row depends only on (plan, i), so the thread count and the piece sizes
    never change a result.  A chunk is started before the previous one is consumed,
    so turning rows into Arrow and writing Parquet overlaps with play.
    """

    PIECES_PER_THREAD = 4   # several pieces per thread even out deals of unequal length
    MIN_PIECE = 256         # smaller pieces cost more in scheduling than they balance

    def __init__(self, plan: Plan, threads: int):
        """Start ``threads`` worker threads for ``plan``."""
        from concurrent.futures import ThreadPoolExecutor

        self.plan = plan
        self.threads = threads
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="canasta-sim")

    def start(self, first: int, n: int) -> _Chunk:
        """Begin playing deals first..first+n-1; returns the chunk to wait on."""
        out = np.zeros((n, layout.NCOLS), dtype=np.int64)
        parts = min(self.threads * self.PIECES_PER_THREAD, max(1, n // self.MIN_PIECE))
        futures = [self._pool.submit(play_range, self.plan, first + a, out[a:b])
                   for a, b in split_range(n, max(parts, self.threads))]
        return _Chunk(first, out, futures)

    def close(self) -> None:
        """Cancel pieces not yet started and wait for the running ones."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self):
        """Use as a context manager: the threads end with the block."""
        return self

    def __exit__(self, *exc):
        """Close the pool."""
        self.close()


def chunk_bounds(plan: Plan, chunk_size: int) -> list:
    """The (first deal, count) of each chunk of a plan; one empty chunk when it has no deals."""
    end = plan.first_deal + plan.deals
    starts = range(plan.first_deal, end, chunk_size)
    return [(s, min(chunk_size, end - s)) for s in starts] or [(plan.first_deal, 0)]


def iter_raw(plan: Plan, chunk_size=DEFAULT_CHUNK, threads=None, progress=False) -> Iterator:
    """Yield (first deal, rows) per chunk, in deal order, played on ``threads`` threads.

    The progress bar (stderr, when ``progress``) shows deals done, deals/s and time left.
    """
    from tqdm import tqdm

    chunk_size = check_chunk_size(chunk_size)
    threads = check_threads(threads)
    chunks = chunk_bounds(plan, chunk_size)
    with DealPool(plan, threads) as pool, \
            tqdm(total=plan.deals, unit=" deals", file=sys.stderr, disable=not progress,
                 dynamic_ncols=True, unit_scale=True, smoothing=0.1) as bar:
        pending = pool.start(*chunks[0])
        for k in range(len(chunks)):
            following = pool.start(*chunks[k + 1]) if k + 1 < len(chunks) else None
            rows = pending.wait()
            bar.update(rows.shape[0])
            yield pending.first, rows
            pending = following


def iter_tables(plan: Plan, chunk_size=DEFAULT_CHUNK, progress=False, threads=None) -> Iterator:
    """Yield one Arrow table per chunk (at least one, empty when there are no deals)."""
    from canasta_sim.results import results_table

    for first, rows in iter_raw(plan, chunk_size, threads, progress):
        yield results_table(rows, first, plan.seed, plan.rules, plan.names,
                            metadata=plan.metadata)


def simulate(deals, seed=0, rules="classic", policies="greedy", scores_before=None,
             chunk_size=DEFAULT_CHUNK, progress=False, first_deal=0, threads=None):
    """Play ``deals`` deals and return a ``pyarrow.Table`` with one row per deal.

    ``rules``: a preset name, canonical string, .toml path or RuleSet;
    ``policies``: one policy name for every seat or one per seat, comma-separated;
    ``scores_before``: each side's cumulative score before the deal (default zeros),
    which sets the initial-meld minimum (R27).  Deal numbers start at ``first_deal``.
    ``threads`` (default: every core) and ``chunk_size`` never change the result.
    Raises :class:`BadInput` before playing anything if an input is wrong.
    """
    import pyarrow as pa

    chunk_size = check_chunk_size(chunk_size)
    threads = check_threads(threads)
    plan = prepare(deals, seed, rules, policies, scores_before, first_deal)
    tables = list(iter_tables(plan, chunk_size, progress, threads))
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)
