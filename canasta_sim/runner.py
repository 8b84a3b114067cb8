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
from typing import Callable, Iterator, NamedTuple, Optional

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game import layout
from canasta_sim.policies import SEARCH_PARAMS, parse_one, parse_policies
from canasta_sim.rules import RuleSet, parse_rules

MAX_SEED = 2 ** 63 - 1
MAX_DEALS = 2 ** 62           # deal indices stay below this (the games' deal streams too)
MAX_RUN_DEALS = 10 ** 12      # deals in one run (about 80 days on two cores)
MAX_RUN_GAMES = 10 ** 11      # games in one run
MAX_TABLE_ROWS = 20_000_000   # rows simulate() builds in memory (about 10 GB)
SCORE_BOUND = 10 ** 9          # |cumulative score| accepted in scores_before
DEFAULT_CHUNK = 65536         # deals per chunk: one Parquet row group
DEFAULT_GAME_CHUNK = 4096     # games per chunk in a games run
CHUNK_MEMORY = 1 << 30        # bytes of raw rows one chunk may take (two are in flight)
DEALS_PER_GAME_GUESS = 12     # room for deal rows per game asked of the games kernel
MAX_GAMES = MAX_DEALS // layout.GAME_STRIDE
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
    games: Optional[int] = None  # a games run: how many games (deals is then 0)
    first_game: int = 0
    users: tuple = ()           # per seat: the user policy (canasta_sim.user_policy) or None

    @property
    def ncols(self) -> int:
        """How wide a deal's result row is for this rule set (layout.row_ncols)."""
        return layout.row_ncols(self.rules.american)

    def new_rows(self, n: int, fill: int = 0) -> np.ndarray:
        """``n`` result rows (int64, n x :attr:`ncols`), every value ``fill``."""
        return np.full((n, self.ncols), fill, dtype=np.int64)


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------

def _is_int(value) -> bool:
    """True for Python and numpy integers, never for booleans."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_deals(deals, name="deals") -> int:
    """A number of deals as an int in 0..MAX_RUN_DEALS (a first deal: 0..MAX_DEALS-1),
    or BadInput."""
    limit = MAX_DEALS - 1 if name.startswith("first") else MAX_RUN_DEALS
    if not _is_int(deals) or not 0 <= deals <= limit:
        raise BadInput(f"{name}={deals!r} is not accepted: accepted: a whole number in "
                       f"0..{limit}, e.g. 10000")
    return int(deals)


def check_range(first, count, unit="deal"):
    """BadInput unless ``first + count`` stays within the indices the seeds cover."""
    limit = MAX_DEALS if unit == "deal" else MAX_GAMES
    if first + count > limit:
        raise BadInput(f"first_{unit}={first} with {count} {unit}s ends after {unit} {limit}: "
                       f"accepted: first_{unit} + {unit}s <= {limit}")


def check_seed(seed) -> int:
    """The master seed as an int in 0..2**63-1, or BadInput."""
    if isinstance(seed, str) and re.fullmatch(r"\s*\d+\s*", seed):
        seed = int(seed)
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise BadInput(f"seed={seed!r} is not accepted: accepted: a whole number in "
                       f"0..{MAX_SEED}")
    return int(seed)


def max_chunk_size(games: bool = False) -> int:
    """The largest chunk: the one whose raw rows fill CHUNK_MEMORY (a deal's row, or a
    game's row with room for DEALS_PER_GAME_GUESS deal rows and their extras)."""
    per_unit = layout.NCOLS if not games else \
        layout.G_NCOLS + DEALS_PER_GAME_GUESS * (layout.NCOLS + layout.D_NCOLS)
    return CHUNK_MEMORY // (8 * per_unit)


def check_chunk_size(chunk_size, games: bool = False) -> int:
    """The chunk size (deals, or games, per Parquet row group) as an int in
    1..:func:`max_chunk_size`, or BadInput."""
    most = max_chunk_size(games)
    if not _is_int(chunk_size) or not 1 <= chunk_size <= most:
        unit = "games" if games else "deals"
        raise BadInput(f"chunk_size={chunk_size!r} is not accepted: accepted: a whole number "
                       f"of {unit} in 1..{most} (a chunk's rows stay within "
                       f"{CHUNK_MEMORY >> 30} GiB), e.g. "
                       f"{DEFAULT_GAME_CHUNK if games else DEFAULT_CHUNK}")
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


def parse_deal_range(text, what="deal range") -> tuple:
    """``"A:B"`` -> (A, B): deals (or games) A..B-1, like a Python slice; ``"A"`` alone
    means ``A:A+1``.  BadInput unless A and B are whole numbers with 0 <= A < B.
    """
    unit, limit = ("game", MAX_GAMES) if what.startswith("game") else ("deal", MAX_DEALS)
    accepted = (f"accepted: A:B with whole numbers 0 <= A < B ({unit}s A to B-1, like a "
                f"Python slice), e.g. 0:10, or A alone for one {unit}")
    match = re.fullmatch(r"\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?", str(text))
    if match is None:
        raise BadInput(f"{what} {str(text)!r} is malformed: {accepted}")
    first = int(match.group(1))
    end = int(match.group(2)) if match.group(2) is not None else first + 1
    if first < 0:
        raise BadInput(f"{what} {text!r} starts below 0: {accepted}")
    if end < first:
        raise BadInput(f"{what} {text!r} ends before it starts: {accepted}")
    if end == first:
        raise BadInput(f"{what} {text!r} is empty: {accepted}")
    if end > limit:
        raise BadInput(f"{what} {text!r} ends after {unit} {limit}: {accepted}")
    return first, end


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------

def prepare(deals=None, seed=0, rules="classic", policies="greedy", scores_before=None,
            first_deal=0, games=None, first_game=0) -> Plan:
    """Validate every input and return a :class:`Plan`; raises BadInput, never runs a deal.

    Give ``deals`` (independent deals) or ``games`` (whole games, R58-R60), not both.
    """
    from canasta_sim.results import provenance

    deals, games = _deals_or_games(deals, games, scores_before, first_deal, first_game)
    first_deal = check_deals(first_deal, name="first_deal")
    first_game = check_games(first_game, name="first_game")
    if games is None:
        check_range(first_deal, deals, "deal")
    else:
        check_range(first_game, games, "game")
    seed = check_seed(seed)
    rules = parse_rules(rules)
    rules_nb = rules.play_record()
    names, ids, params = parse_policies(policies, rules.num_players, rules.num_sides)
    if rules.american:
        check_american_policies(names)
    users = prepare_users(names)
    scores = parse_scores(scores_before, rules.num_sides)
    metadata = provenance(rules, seed, names, scores[:rules.num_sides].tolist(),
                          games=games is not None, users=users)
    if games is None:
        metadata[b"canasta_sim.first_deal"] = str(first_deal).encode()
        metadata[b"canasta_sim.deals"] = str(deals).encode()
    else:
        metadata[b"canasta_sim.first_game"] = str(first_game).encode()
        metadata[b"canasta_sim.games"] = str(games).encode()
    return Plan(deals, first_deal, seed, rules, rules_nb, names, ids, params, scores, metadata,
                games, first_game, users)


AMERICAN_POLICIES = ("random", "greedy", "careful", "rush", "builder", "expert", "search")
"""The built-in players that play Modern American (kernels/players/american.py; search:
kernels/play/american/search.py); a user's own policy plays it too
(kernels/players/american_user.py)."""


def check_american_policies(names) -> None:
    """BadInput naming the first policy that cannot play Modern American, or a search with
    ``rollouts`` other than 1 (the family plays each determinization once)."""
    from canasta_sim.user_policy import user_of

    for name in names:
        base = name.split("(")[0].strip()
        if base not in AMERICAN_POLICIES and user_of(name) is None:     # parameters allowed
            raise BadInput(f"policy {name!r} does not play family=modern_american yet: "
                           f"accepted: {', '.join(AMERICAN_POLICIES)} or your own "
                           "(file.py:function) (docs/american.md)")
        if base == "search":
            _, _, values = parse_one(name)
            if values[list(SEARCH_PARAMS).index("rollouts")] != 1:
                raise BadInput(f"policy {name!r}: rollouts is not accepted with "
                               "family=modern_american: accepted: rollouts=1 (each "
                               "determinization is played once, docs/search.md)")


def prepare_users(names) -> tuple:
    """The user policy of each seat (None for built-in ones), each compiled now, so that a
    policy that does not compile fails before any deal is played or file written."""
    from canasta_sim.user_policy import address, users_of

    users = users_of(names)
    for user in users:
        if user is not None:
            address(user)
    return users if any(u is not None for u in users) else ()


def policy_table(plan: Plan) -> np.ndarray:
    """The policy table of one kernel call: the plan's ids, and the addresses of its user
    policies in this process (kernels/players/user.py)."""
    from canasta_sim.user_policy import policy_table as table

    return table(plan.policy_ids, plan.users)


def check_policy_table(plan: Plan, table: np.ndarray) -> None:
    """PolicyError if a user policy broke the interface during the call that used ``table``."""
    if plan.users:
        from canasta_sim.user_policy import raise_if_failed
        raise_if_failed(table, plan.users, plan.names)


def _deals_or_games(deals, games, scores_before, first_deal, first_game):
    """(deals, games) checked: exactly one is given; games start from zero scores."""
    if games is None:
        if first_game:
            raise BadInput(f"first_game={first_game!r} is given without games: accepted: "
                           "first_deal to start a deals run at another deal")
        return check_deals(deals if deals is not None else 0), None
    if deals is not None:
        raise BadInput(f"deals={deals!r} and games={games!r} are both given: accepted: "
                       "deals for independent deals or games for whole games, not both")
    if scores_before is not None:
        raise BadInput(f"scores_before={_show(scores_before)} is given with games: accepted: "
                       "no starting scores, every game starts at 0 (R58)")
    if first_deal:
        raise BadInput(f"first_deal={first_deal!r} is given with games: accepted: "
                       "first_game to start at another game")
    return 0, check_games(games)


def check_games(games, name="games") -> int:
    """A number of games as an int in 0..MAX_RUN_GAMES (a first game: 0..MAX_GAMES-1),
    or BadInput."""
    limit = MAX_GAMES - 1 if name.startswith("first") else MAX_RUN_GAMES
    if not _is_int(games) or not 0 <= games <= limit:
        raise BadInput(f"{name}={games!r} is not accepted: accepted: a whole number in "
                       f"0..{limit}, e.g. 1000")
    return int(games)


def _engine():
    """The jitted entry kernel (imported late: importing numba is slow)."""
    from canasta_sim.kernels.play.tasks import play_deals_nb

    return play_deals_nb


def play_range(plan: Plan, first: int, out: np.ndarray, table=None) -> None:
    """Play deals first..first+len(out)-1 into the rows of ``out`` (n x ``plan.ncols`` int64).

    This is the unit of work: any range of deals, on any thread or machine, fills
    exactly the rows a single run gives those deals.  The kernel releases the GIL.
    ``table``: the policy table to use (:func:`policy_table`; a watcher reads its counts).
    """
    if out.shape[1] < plan.ncols:
        raise ValueError(f"result rows are {out.shape[1]} wide; this rule set's are "
                         f"{plan.ncols} (Plan.new_rows)")
    if out.shape[0]:
        table = policy_table(plan) if table is None else table
        if plan.rules.american:
            from canasta_sim.kernels.play.american.tasks import play_mac_deals

            play_mac_deals(plan.rules_nb, plan.seed, first, out, table, plan.params,
                           plan.scores_before)
        else:
            _engine()(plan.rules_nb, plan.seed, first, out, table, plan.params,
                      plan.scores_before, 0)
        check_policy_table(plan, table)


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
    """A chunk of work under way: its first deal (or game), the pieces' futures, and how
    the pieces' results become the chunk's result."""

    first: int
    count: int
    futures: list
    combine: Callable

    def wait(self):
        """The chunk's result once every piece is done (re-raises a piece's error)."""
        return self.combine([future.result() for future in self.futures])


class WorkPool:
    """Worker threads playing chunks; a chunk is split into pieces, one per task.

    A row depends only on the plan and its deal (or game) number, so the thread count
    and the piece sizes never change a result.  The kernels release the GIL, and a
    chunk is started before the previous one is consumed, so turning rows into Arrow
    and writing Parquet overlaps with play.
    """

    PIECES_PER_THREAD = 4   # several pieces per thread even out deals of unequal length
    MIN_PIECE = 256         # smaller pieces cost more in scheduling than they balance

    def __init__(self, threads: int):
        """Start ``threads`` worker threads."""
        from concurrent.futures import ThreadPoolExecutor

        self.threads = threads
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="canasta-sim")

    def pieces(self, n: int, min_piece: int = MIN_PIECE) -> list:
        """How a chunk of n deals (or games) is split among the threads."""
        parts = min(self.threads * self.PIECES_PER_THREAD, max(1, n // min_piece))
        return split_range(n, max(parts, self.threads))

    def start_deals(self, plan: Plan, first: int, n: int, out=None) -> _Chunk:
        """Begin playing deals first..first+n-1; the chunk's result is their rows (in
        ``out``, n x ``plan.ncols`` int64, if given: the benchmarks touch it before the clock)."""
        if out is None:
            out = plan.new_rows(n)
        futures = [self._pool.submit(play_range, plan, first + a, out[a:b])
                   for a, b in self.pieces(n)]
        return _Chunk(first, n, futures, lambda _: out)

    def start_games(self, plan: Plan, first: int, n: int) -> _Chunk:
        """Begin playing games first..first+n-1; the chunk's result is their GameRows."""
        futures = [self._pool.submit(play_game_range, plan, first + a, b - a)
                   for a, b in self.pieces(n, min_piece=16)]
        return _Chunk(first, n, futures, GameRows.concat)

    def close(self, wait=None) -> None:
        """Cancel pieces not yet started and wait for the running ones, except after a
        stop signal (or with ``wait=False``): a kernel that never returns (a user policy
        looping forever) must not hold the stop up."""
        from canasta_sim import _signals

        if wait is None:
            wait = not _signals.stopping()
        self._pool.shutdown(wait=wait, cancel_futures=True)

    def __enter__(self):
        """Use as a context manager: the threads end with the block."""
        return self

    def __exit__(self, kind, value, traceback):
        """Close the pool, without waiting when the block was interrupted."""
        self.close(wait=False if kind is not None and issubclass(kind, KeyboardInterrupt)
                   else None)


def chunk_bounds(first: int, count: int, chunk_size: int) -> Iterator:
    """(first, n) of each chunk of ``count`` deals or games from ``first``, lazily; one empty
    chunk when count is 0."""
    end = first + count
    if count == 0:
        yield (first, 0)
    for start in range(first, end, chunk_size):
        yield (start, min(chunk_size, end - start))


def iter_chunks(plan: Plan, chunk_size=None, threads=None, progress=False) -> Iterator:
    """Yield each chunk's result in order: deal rows, or GameRows for a games plan.

    The progress bar (stderr, when ``progress``) shows deals or games done, the rate and
    the time left.
    """
    from tqdm import tqdm

    games = plan.games is not None
    chunk_size = check_chunk_size(chunk_size if chunk_size is not None
                                  else DEFAULT_GAME_CHUNK if games else DEFAULT_CHUNK, games)
    threads = check_threads(threads)
    first, count = (plan.first_game, plan.games) if games else (plan.first_deal, plan.deals)
    chunks = chunk_bounds(first, count, chunk_size)
    with WorkPool(threads) as pool, \
            tqdm(total=count, unit=" games" if games else " deals", file=sys.stderr,
                 disable=not progress, dynamic_ncols=True, unit_scale=True,
                 smoothing=0.1) as bar:
        start = pool.start_games if games else pool.start_deals
        pending = start(plan, *next(chunks))
        while pending is not None:
            following = next(chunks, None)
            following = start(plan, *following) if following is not None else None
            result = pending.wait()
            bar.update(pending.count)
            yield pending.first, result
            pending = following


def iter_tables(plan: Plan, chunk_size=None, progress=False, threads=None) -> Iterator:
    """Yield one Arrow table per chunk (at least one, empty when there is nothing to play).

    For a games plan each item is a pair (games table, per-deal table).
    """
    for first, rows in iter_chunks(plan, chunk_size, threads, progress):
        yield rows_tables(plan, first, rows)


def rows_tables(plan: Plan, first: int, rows):
    """The Arrow table of deal rows from deal ``first`` on, or for a games plan the pair
    (games table, per-deal table) of GameRows from game ``first`` on."""
    from canasta_sim import results

    if plan.games is None:
        return results.results_table(rows, first, plan.seed, plan.rules, plan.names,
                                     metadata=plan.metadata)
    return (results.games_table(rows.games, first, plan.seed, plan.rules, plan.names,
                                plan.metadata),
            results.game_deals_table(rows.deals, rows.extras, plan.seed, plan.rules,
                                     plan.names, plan.metadata))


# --------------------------------------------------------------------------------------------
# Games (R58-R60)
# --------------------------------------------------------------------------------------------

class GameRows(NamedTuple):
    """Raw rows of some games: one per game, and one per deal with its extras."""

    games: np.ndarray       # games x G_NCOLS
    deals: np.ndarray       # deals x NCOLS
    extras: np.ndarray      # deals x D_NCOLS

    @staticmethod
    def concat(parts) -> "GameRows":
        """The rows of consecutive pieces, in order (no pieces: no rows)."""
        if not parts:
            return GameRows(np.zeros((0, layout.G_NCOLS), np.int64),
                            np.zeros((0, layout.NCOLS), np.int64),
                            np.zeros((0, layout.D_NCOLS), np.int64))
        return GameRows(*(np.concatenate(arrays) for arrays in zip(*parts)))


def play_game_range(plan: Plan, first_game: int, n: int) -> GameRows:
    """Play games first_game..first_game+n-1 whole; the unit of work of a games run."""
    from canasta_sim.kernels.play.tasks import play_games_nb

    games = np.zeros((n, layout.G_NCOLS), dtype=np.int64)
    deal_parts, extra_parts = [], []
    done = 0
    while done < n or not deal_parts:
        room = layout.MAX_GAME_DEALS + DEALS_PER_GAME_GUESS * (n - done)
        rows = plan.new_rows(room)
        extras = np.zeros((room, layout.D_NCOLS), dtype=np.int64)
        table = policy_table(plan)
        if plan.rules.american:
            from canasta_sim.kernels.play.american.tasks import play_mac_games

            played, used = play_mac_games(plan.rules_nb, plan.seed, first_game + done,
                                          games[done:], rows, extras, table, plan.params)
        else:
            played, used = play_games_nb(plan.rules_nb, plan.seed, first_game + done,
                                         games[done:], rows, extras, table, plan.params, 0)
        check_policy_table(plan, table)
        deal_parts.append(rows[:used])
        extra_parts.append(extras[:used])
        done += played
    return GameRows(games, np.concatenate(deal_parts), np.concatenate(extra_parts))
