"""Tuning a policy's numeric parameters on paired games (``canasta-sim tune``).

The problem.  A club player (``careful``, ``rush``, ``builder``, ``expert``) has numeric
parameters (canasta_sim.policies.PARAMS).  Tuning looks for values theta of some of them
that maximise an objective f(theta): the win rate (a draw counting half) of POLICY(theta)
against an opponent, or its mean final-score margin, in full games.  f is only ever
measured with noise, on a finite number of games.

Paired games.  Every measurement is a duplicate match: ``games / 2`` game seeds, each played
twice, once with POLICY(theta) on side 0 and once with the sides swapped, so each seed is a
game pair and neither the cards nor the seat favour a side (the pentanomial statistics of
canasta_sim.stats.MatchStats).  All points measured in one iteration are played on
the *same* game seeds (common random numbers): theta+ and theta- of SPSA, the candidates of
one CMA-ES generation.  Their difference then carries far less luck of the cards than two
independent measurements would.  Each iteration gets new seeds: iteration k plays game
indices ``k * pairs .. (k + 1) * pairs - 1`` of the master seed, so a run is reproducible
from ``--seed`` alone, and the verification afterwards plays the indices that follow, which
no iteration touched.

The search space.  Each tuned parameter has a box [lo, hi] (:data:`SEARCH_RANGES`, or the
user's ``name=lo:hi``) inside its accepted range.  The optimisers work in unit coordinates
x in [0, 1]^d, theta = lo + x (hi - lo), so one step size serves parameters of any scale.
The values actually played are rounded: whole-number parameters to integers, the others to
a grid of a thousandth of the box (:meth:`Space.played`).

SPSA (Spall 1992, 1998).  At iteration k, with gains a_k = a / (k + 1 + A)^0.602 and
c_k = c / (k + 1)^0.101, every coordinate is perturbed by ±c_k at once (a random sign per
coordinate): theta+ = x + c_k delta and theta- = x - c_k delta are played on the same seeds,
and the gradient estimate is g_i = (f(theta+) - f(theta-)) / (theta+_i - theta-_i), taken
between the values really played (for a whole-number parameter the perturbation is at least
half a unit, so the two rounded values always differ).  Then x <- clip(x + a_k g, 0, 1).  A
coordinate at the edge of its box is perturbed around the nearest point from which both
perturbed values fit in the box.  The result is the last iterate.

CMA-ES (Hansen), through the ``cma`` package (the ``tune`` extra).  Each generation asks for
``popsize`` candidates in [0, 1]^d, plays them all on the same seeds and ranks them; the
result is the final mean of the search distribution (not the best single measurement, which
the noise biases upwards).

The verification.  Finally the tuned parameters play the starting ones head to head on fresh
seeds (:func:`verify`): a duplicate match whose pentanomial win rate, 95% interval, Elo and
likelihood of superiority are those of MatchStats, optionally stopped early by a sequential
probability ratio test (stats.Sprt) checked after each wave.  docs/tuning.md explains the
numbers and their caveats.

Three sides (three-player, cutthroat).  POLICY(theta) plays one side against two sides of the
opponent, each game seed once in every rotation of the sides (canasta_sim.arms.play_rotations,
the design ``compare`` and ``strength`` play), so ``games`` is a multiple of 3 and a point
measures games / 3 seeds.  The win objective is the tuned side's win share (fair share 1/3, a
draw counting half), the score objective its final score less the mean of the two other sides'
final scores, per game; both with a standard error over the seeds, each seed's value the
mean over its rotations.  The verification reports the win share against the fair 1/3 and no
Elo (canasta_sim.strength says why); ``--verify-sprt`` bounds are win shares, e.g. 0.333,0.36.
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple, Optional, Sequence

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.numbers import format_number
from canasta_sim.policies import (
    PARAMS,
    REGISTRY,
    parse_one,
    policy_text,
    split_top_level,
)
from canasta_sim.stats import MatchStats

METHODS = ("spsa", "cmaes")
OBJECTIVES = ("win", "score")

SEARCH_RANGES = {
    "freeze_at": (4, 40),
    "min_pile_take": (1, 16),
    "go_out_margin": (-500, 2000),
    "wild_hold": (0, 4),
    "want_canastas": (0, 5),
    "endgame_stock": (0, 30),
    "answer_max_hand": (0, 150),
    "danger": (0, 12),
}
"""The box searched for each parameter unless ``--params name=lo:hi`` says otherwise: the
values a game makes sensible (a pile of 40 cards, a lead of 2000 points), each inside the
parameter's accepted range."""
assert set(SEARCH_RANGES) == set(PARAMS)
assert all(PARAMS[k].lo <= lo < hi <= PARAMS[k].hi for k, (lo, hi) in SEARCH_RANGES.items())

SCORE_SCALE = 4000.0
"""The score objective (mean final margin per game, points) enters the SPSA update divided
by this, so the default gains suit both objectives: in classic games between the club
players a margin of about 40 points per game goes with one point of win rate (expert
against careful: +883 points and 72.8%; against builder: +593 and 65.0%)."""

ALPHA, GAMMA = 0.602, 0.101
"""SPSA's gain exponents (Spall 1998, the values recommended for finite runs)."""


# --------------------------------------------------------------------------------------------
# The search space
# --------------------------------------------------------------------------------------------

class Space(NamedTuple):
    """The tuned parameters of one policy: names, boxes, kinds and starting values."""

    policy: str              # the policy's canonical name, e.g. 'expert'
    fixed: dict              # parameters set in the policy text but not tuned: name -> value
    names: tuple             # the tuned parameters, in the order given
    lo: np.ndarray           # the box, float64[d]
    hi: np.ndarray
    integer: np.ndarray      # bool[d]: whole-number parameter
    start: np.ndarray        # the starting values (raw), float64[d]

    @property
    def dim(self) -> int:
        """The number of tuned parameters."""
        return len(self.names)

    def raw(self, x) -> np.ndarray:
        """Unit coordinates -> parameter values (not rounded)."""
        return self.lo + np.asarray(x, dtype=np.float64) * (self.hi - self.lo)

    def unit(self, theta) -> np.ndarray:
        """Parameter values -> unit coordinates."""
        return (np.asarray(theta, dtype=np.float64) - self.lo) / (self.hi - self.lo)

    def resolution(self) -> np.ndarray:
        """The grid the values are played on: 1 for whole numbers, else a power of ten near
        a thousandth of the box (0.01 for a box of 12)."""
        fine = 10.0 ** np.floor(np.log10((self.hi - self.lo) / 1000.0))
        return np.where(self.integer, 1.0, fine)

    def played(self, x) -> np.ndarray:
        """The parameter values played for unit coordinates x: clipped to the box and
        rounded to :meth:`resolution` (half up)."""
        step = self.resolution()
        theta = np.clip(self.raw(np.clip(x, 0.0, 1.0)), self.lo, self.hi)
        rounded = np.floor(theta / step + 0.5) * step
        return np.clip(np.round(rounded, 10), self.lo, self.hi)

    def values(self, theta) -> dict:
        """name -> value (int for whole-number parameters) of played values ``theta``."""
        return {name: (int(round(v)) if whole else float(v))
                for name, v, whole in zip(self.names, theta, self.integer)}

    def policy_text(self, theta) -> str:
        """The policy text that plays ``theta`` (and the fixed parameters), canonical:
        ``expert(danger=3.5,freeze_at=18)``."""
        given = dict(self.fixed)
        given.update({name: float(v) for name, v in zip(self.names, theta)})
        return policy_text(self.policy, given)

    def describe(self, theta) -> str:
        """``freeze_at=18 danger=3.5`` for a progress line."""
        return " ".join(f"{name}={format_number(float(v))}" for name, v in zip(self.names, theta))


def _number(text: str, what: str) -> float:
    """A finite number or BadInput naming ``what``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise BadInput(f"{what} {text.strip()!r} is not a finite number: accepted: e.g. "
                       "freeze_at=8:24")
    return value


def parse_space(policy: str, params: str) -> Space:
    """The search space of ``--params`` for ``policy`` (a policy text such as 'expert' or
    'expert(wild_hold=2)'), or BadInput.

    ``params`` is a comma-separated list of parameter names of that policy, each optionally
    with its box: ``freeze_at,danger=0:8``.  The start is the policy's value of each (its
    default, or the value set in the policy text); it must lie in the box.  A user's policy
    (``file.py:function``) is tuned the same way; its parameters have no built-in search
    range, so each needs its box."""
    from canasta_sim.user_policy import user_of

    canonical, _, _ = parse_one(policy)
    name = canonical.partition("(")[0]
    if name == "search":
        raise BadInput("policy 'search' cannot be tuned: accepted: a club player (careful, "
                       "rush, builder, expert) or your own policy; search's blueprint is "
                       "expert (docs/search.md)")
    user = user_of(name)
    defaults = dict(user.params) if user is not None else dict(REGISTRY[name].params)
    tunable = list(defaults)
    if not tunable and user is not None:
        raise BadInput(f"policy {user.label} has no parameters to tune: accepted: a policy "
                       "that declares parameters with policy_api.policy(params=...)")
    if not tunable:
        with_params = ", ".join(k for k, s in REGISTRY.items() if s.params)
        raise BadInput(f"policy {name!r} has no parameters to tune: accepted: a policy with "
                       f"parameters ({with_params})")
    given = _given_params(canonical)
    start_values = dict(defaults)
    start_values.update(given)
    items = [item.strip() for item in str(params).split(",")]
    if not any(items):
        raise BadInput(f"--params {params!r} names no parameter: accepted: comma-separated "
                       f"parameters of {name!r} ({', '.join(tunable)}), e.g. freeze_at,danger")
    names, lo, hi, integer, start = [], [], [], [], []
    for item in items:
        if not item:
            raise BadInput(f"--params {params!r} has an empty item: accepted: comma-separated "
                           f"parameters of {name!r}, e.g. freeze_at,danger=0:8")
        key, eq, box = item.partition("=")
        key = key.strip() if user is not None else key.strip().lower()
        if key not in defaults:
            raise BadInput(f"--params: policy {name!r} has no parameter {key!r}: accepted: "
                           f"{', '.join(tunable)}")
        if key in names:
            raise BadInput(f"--params: parameter {key!r} is given twice: accepted: each "
                           "parameter once")
        example = _example_box(key, start_values[key], user is not None)
        if eq:
            low_text, colon, high_text = box.partition(":")
            if not colon:
                raise BadInput(f"--params: box {item!r} is not LO:HI: accepted: e.g. "
                               f"{example}")
            low = _number(low_text, f"--params: {key} lower end")
            high = _number(high_text, f"--params: {key} upper end")
            if not low < high:
                raise BadInput(f"--params: box {item!r} is empty: accepted: LO < HI, e.g. "
                               f"{example}")
            for end in (low, high):
                if user is None:
                    PARAMS[key].check(name, key, end)
        elif user is not None:
            raise BadInput(f"--params: {key} of {user.label} has no search range: accepted: "
                           f"its box given as LO:HI, e.g. {example}")
        else:
            low, high = SEARCH_RANGES[key]
        value = start_values[key]
        if not low <= value <= high:
            raise BadInput(f"--params: the start {key}={format_number(value)} of {name!r} is "
                           f"outside the box {format_number(low)}:{format_number(high)}: "
                           f"accepted: a box holding it, e.g. {key}="
                           f"{format_number(min(low, value))}:{format_number(max(high, value))}")
        names.append(key)
        lo.append(float(low))
        hi.append(float(high))
        integer.append(user is None and PARAMS[key].integer)
        start.append(float(value))
    fixed = {k: v for k, v in given.items() if k not in names}
    return Space(name, fixed, tuple(names), np.array(lo), np.array(hi),
                 np.array(integer, dtype=bool), np.array(start))


def _example_box(key: str, start: float, user: bool) -> str:
    """An example box for a parameter, as ``--params`` takes it: the built-in search range,
    or for a user policy's parameter one around its start."""
    if not user:
        low, high = SEARCH_RANGES[key]
    else:
        low, high = (0.0, 2 * start) if start > 0 else (start - 1.0, start + 1.0)
    return f"{key}={format_number(low)}:{format_number(high)}"


def _given_params(canonical: str) -> dict:
    """The parameters set explicitly in a canonical policy text (as parse_one returns it):
    'expert(danger=2)' -> {'danger': 2.0}."""
    if "(" not in canonical:
        return {}
    body = canonical[canonical.index("(") + 1:canonical.rindex(")")]
    given = {}
    for item in split_top_level(body):
        key, _, value = item.partition("=")
        given[key] = float(value)
    return given


# --------------------------------------------------------------------------------------------
# SPSA
# --------------------------------------------------------------------------------------------

class SpsaGains(NamedTuple):
    """SPSA's gain sequences a_k = a / (k + 1 + A)^alpha and c_k = c / (k + 1)^gamma, in unit
    coordinates (a fraction of each box) per unit of objective."""

    a: float = 0.5
    c: float = 0.1
    A: float = 0.0
    alpha: float = ALPHA
    gamma: float = GAMMA

    def a_k(self, k: int) -> float:
        """The step gain of iteration k (from 0)."""
        return self.a / (k + 1 + self.A) ** self.alpha

    def c_k(self, k: int) -> float:
        """The perturbation size of iteration k (from 0)."""
        return self.c / (k + 1) ** self.gamma


class Step(NamedTuple):
    """One iteration of an optimiser, as the trajectory records it."""

    iteration: int
    theta: np.ndarray        # the iterate (SPSA) or the distribution mean (CMA-ES), unit
    kinds: tuple             # what each point is: 'plus'/'minus' or 'candidate'
    points: list             # the parameter values played, one float64[d] per point
    values: np.ndarray       # the objective measured at each point (same seeds)
    next_theta: np.ndarray   # the iterate after the update, unit
    info: dict               # a_k, c_k (SPSA); sigma (CMA-ES)


Evaluate = Callable[[list, int], Sequence[float]]
"""``evaluate(points, iteration)``: the objective at each point (parameter values as
played), all measured on the seeds of ``iteration``; larger is better."""


def spsa(space: Space, evaluate: Evaluate, iterations: int, gains: SpsaGains,
         rng: np.random.Generator, on_step: Optional[Callable[[Step], None]] = None,
         scale: float = 1.0) -> np.ndarray:
    """Maximise by SPSA from ``space.start``; returns the last iterate (unit coordinates).

    ``scale`` divides the measured difference before the update (SCORE_SCALE for margins)."""
    x = np.clip(space.unit(space.start), 0.0, 1.0)
    span = space.hi - space.lo
    least = np.where(space.integer, 0.5 / span, 0.0)  # half a unit of a whole number
    for k in range(iterations):
        a_k, c_k = gains.a_k(k), gains.c_k(k)
        h = np.minimum(np.maximum(c_k, least), 0.5)
        delta = rng.choice(np.array([-1.0, 1.0]), size=space.dim)
        centre = np.clip(x, h, 1.0 - h)
        plus, minus = space.played(centre + h * delta), space.played(centre - h * delta)
        values = np.asarray(evaluate([plus, minus], k), dtype=np.float64)
        diff = space.unit(plus) - space.unit(minus)
        moved = (diff != 0) & bool(np.all(np.isfinite(values)))  # no estimate: no step
        g = np.where(moved, (values[0] - values[1]) / scale / np.where(moved, diff, 1.0), 0.0)
        new = np.clip(x + a_k * g, 0.0, 1.0)
        if on_step is not None:
            on_step(Step(k, x, ("plus", "minus"), [plus, minus], values, new,
                         {"a_k": a_k, "c_k": c_k}))
        x = new
    return x


# --------------------------------------------------------------------------------------------
# CMA-ES
# --------------------------------------------------------------------------------------------

def cma_module():
    """The ``cma`` package, or BadInput saying how to install it."""
    try:
        import cma
    except ModuleNotFoundError:
        raise BadInput("--method cmaes needs the cma package, which is not installed: "
                       "accepted: pip install 'canasta-sim[tune]' (or --method spsa)") from None
    return cma


def default_popsize(dim: int) -> int:
    """CMA-ES's default population, 4 + floor(3 ln d)."""
    return 4 + int(3 * math.log(dim))


def cmaes(space: Space, evaluate: Evaluate, iterations: int, sigma: float, popsize: int,
          seed: int, on_step: Optional[Callable[[Step], None]] = None) -> np.ndarray:
    """Maximise by CMA-ES from ``space.start``; returns the final mean (unit coordinates).

    ``sigma`` is the initial step size in unit coordinates, ``popsize`` the candidates per
    generation (all played on the same seeds).  Runs all ``iterations`` generations (the
    library's stopping rules assume exact values, not noisy ones)."""
    import warnings

    cma = cma_module()
    x0 = np.clip(space.unit(space.start), 0.0, 1.0)
    options = {"bounds": [0.0, 1.0], "popsize": int(popsize), "verbose": -9,
               "seed": int(seed % (2 ** 31 - 2)) + 1, "maxiter": iterations + 1}
    if space.dim == 1:
        raise BadInput("--method cmaes needs at least two parameters (CMA-ES works in two "
                       "or more dimensions): accepted: --method spsa for one parameter")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        es = cma.CMAEvolutionStrategy(list(x0), float(sigma), options)
        for k in range(iterations):
            theta = np.clip(np.asarray(es.result.xfavorite, dtype=np.float64), 0.0, 1.0)
            asked = es.ask()
            points = [space.played(np.asarray(c)) for c in asked]
            values = np.asarray(evaluate(points, k), dtype=np.float64)
            worst = np.nanmin(values) if np.isfinite(values).any() else 0.0
            es.tell(asked, list(-np.where(np.isfinite(values), values, worst)))
            new = np.clip(np.asarray(es.result.xfavorite, dtype=np.float64), 0.0, 1.0)
            if on_step is not None:
                on_step(Step(k, theta, ("candidate",) * len(points), points, values, new,
                             {"sigma": float(es.sigma)}))
    return np.clip(np.asarray(es.result.xfavorite, dtype=np.float64), 0.0, 1.0)


# --------------------------------------------------------------------------------------------
# Paired games
# --------------------------------------------------------------------------------------------

class Measured(NamedTuple):
    """One point measured in a duplicate match against the opponent."""

    objective: float | None  # win rate (share) or mean margin per game (points)
    se: float | None         # its standard error from the game pairs (seeds)
    win_rate: float | None
    margin: float | None     # mean final-score margin per game (three sides: against the
                             # mean of the two other sides)
    pairs: int               # game pairs (both games ended); three sides: game seeds
    stats: object            # MatchStats of the pairs; three sides: arms.RotationStats


def play_duplicate(policy: str, against: str, rules, seed: int, first_game: int, pairs: int,
                   threads=None, objective: str = "win") -> Measured:
    """``policy`` (both seats of one side) against ``against`` on game seeds first_game ..
    first_game + pairs - 1, each played with the sides both ways round (at three sides: in
    every rotation, :func:`play_rotations_point`)."""
    from canasta_sim.arms import pair_counts, plan_arms, play_arms, seats_for, side_results
    from canasta_sim.runner import rows_tables

    if rules.num_sides > 2:
        return play_rotations_point(policy, against, rules, seed, first_game, pairs, threads,
                                    objective)

    lineups = [seats_for(policy, against, rules.num_players, rules.num_sides),
               seats_for(against, policy, rules.num_players, rules.num_sides)]
    plans = plan_arms(lineups, rules, seed=seed, games=pairs, first_game=first_game)
    results, margins = [], []
    for a_side, (plan, rows) in enumerate(zip(plans, play_arms(plans, first_game, pairs,
                                                                threads))):
        table, _ = rows_tables(plan, first_game, rows)
        result, margin = side_results(table, a_side, first_game, pairs)
        results.append(result)
        margins.append(margin)
    stats = pair_counts(results[0], results[1])
    rate = stats.win_rate()
    keep = ~(np.isnan(margins[0]) | np.isnan(margins[1]))
    pair_margin = (margins[0][keep] + margins[1][keep]) / 2
    n = int(keep.sum())
    margin = float(pair_margin.mean()) if n else None
    margin_se = float(pair_margin.std(ddof=1) / math.sqrt(n)) if n > 1 else None
    if objective == "win":
        value, se = rate.estimate, rate.se
    else:
        value, se = margin, margin_se
    return Measured(value, se, rate.estimate, margin, stats.pairs, stats)


def play_rotations_point(policy: str, against: str, rules, seed: int, first_game: int,
                         seeds: int, threads=None, objective: str = "win") -> Measured:
    """Three sides: ``policy`` on one side against ``against`` on the two others, on game
    seeds first_game .. first_game + seeds - 1, each in every rotation of the sides.  The
    win objective is the win share over the seeds; the score objective the final margin
    against the mean of the other sides, each seed's value its mean over the rotations."""
    from canasta_sim.arms import play_rotations
    from canasta_sim.stats import PairedSums

    played = play_rotations(policy, against, rules, seed, first_game, seeds, threads)
    stats = played.stats()
    rate = stats.win_rate()
    per_seed = played.margins().mean(axis=0)
    margins = PairedSums(False)
    margins.add(per_seed[~np.isnan(per_seed)])
    margin = margins.mean_a()
    if objective == "win":
        value, se = rate.estimate, rate.se
    else:
        value, se = margin.estimate, margin.se
    return Measured(value, se, rate.estimate, margin.estimate, stats.seeds, stats)


class GameObjective:
    """The objective of a tuning: duplicate matches of the tuned policy against the opponent,
    ``pairs`` game seeds per point, iteration k on game indices k * pairs .. (k+1) * pairs - 1.

    Calling it with (points, k) plays every point on the seeds of iteration k and returns
    the objective of each; :attr:`last` keeps the :class:`Measured` of the last call."""

    def __init__(self, space: Space, against: str, rules, seed: int, pairs: int,
                 objective: str = "win", threads=None, on_point=None):
        """Set up; nothing is played yet."""
        self.space, self.against, self.rules = space, against, rules
        self.seed, self.pairs, self.objective, self.threads = seed, pairs, objective, threads
        self.on_point = on_point
        self.last: list = []
        self.blocks: list = []   # (first game, pairs) of every call, in order

    def first_game(self, iteration: int) -> int:
        """The first game index of an iteration's seeds."""
        return iteration * self.pairs

    def __call__(self, points, iteration: int) -> list:
        """The objective at each point, all on the seeds of ``iteration``."""
        first = self.first_game(iteration)
        self.blocks.append((first, self.pairs))
        self.last = []
        for theta in points:
            m = play_duplicate(self.space.policy_text(theta), self.against, self.rules,
                               self.seed, first, self.pairs, self.threads, self.objective)
            self.last.append(m)
            if self.on_point is not None:
                self.on_point(self.rules.num_sides * self.pairs)
        return [math.nan if m.objective is None else m.objective for m in self.last]


# --------------------------------------------------------------------------------------------
# Verification
# --------------------------------------------------------------------------------------------

class Verification(NamedTuple):
    """The tuned parameters against the starting ones, head to head on fresh seeds."""

    tuned: str
    start: str
    first_game: int
    games: int               # games played (2 per pair; 3 per seed at three sides)
    stats: object            # MatchStats: tuned is lineup a; three sides: arms.RotationStats
    sprt: dict | None        # the sequential test's state, if one ran
    margin: float | None     # tuned's mean final margin per game

    @property
    def seeds(self) -> int:
        """The game seeds played (pairs at two sides)."""
        return self.games // (2 if isinstance(self.stats, MatchStats) else self.stats.sides)

    def to_dict(self) -> dict:
        """JSON-ready: counts, win rate, Elo, LOS, the test (three sides: the win share and
        its fair share, no Elo)."""
        if not isinstance(self.stats, MatchStats):
            return self._rotations_dict()
        rate, elo = self.stats.win_rate(), self.stats.elo()
        return {"tuned": self.tuned, "start": self.start,
                "game_indices": [self.first_game, self.first_game + self.games // 2],
                "games": self.games, "pairs": self.stats.pairs,
                "pentanomial": [int(c) for c in self.stats.pentanomial],
                "trinomial": [int(c) for c in self.stats.trinomial],
                "win_rate": rate.to_dict(), "elo": elo.to_dict(), "los": self.stats.los(),
                "mean_margin": self.margin, "sprt": self.sprt,
                "significant": significant(self.stats)}

    def _rotations_dict(self) -> dict:
        """to_dict at three sides: seeds, the win share against its fair share."""
        return {"tuned": self.tuned, "start": self.start,
                "game_indices": [self.first_game, self.first_game + self.seeds],
                "games": self.games, "seeds": self.stats.seeds, "sides": self.stats.sides,
                "win_rate": self.stats.win_rate().to_dict(),
                "fair_share": self.stats.fair_share, "elo": None,
                "mean_margin": self.margin, "sprt": self.sprt,
                "significant": significant(self.stats)}


def significant(stats) -> bool:
    """Whether the 95% interval of the win rate excludes 50% (three sides: the fair share
    1/3, arms.RotationStats.significant)."""
    if not isinstance(stats, MatchStats):
        return stats.significant()
    rate = stats.win_rate()
    return rate.ci_low is not None and (rate.ci_low > 0.5 or rate.ci_high < 0.5)


def verify(tuned: str, start: str, rules, seed: int, first_game: int, games: int,
           threads=None, sprt=None, wave_games: int | None = None, on_wave=None
           ) -> Verification:
    """``tuned`` against ``start`` in up to ``games`` games (games / 2 pairs; games / 3
    seeds at three sides) from game index ``first_game`` on, in waves; with ``sprt`` (a
    stats.Sprt of the tuned side's pair share, or seed share) it stops at the first wave
    after which the test decides."""
    from canasta_sim.arms import RotationStats

    sides = rules.num_sides
    pairs_total = games // sides
    per_wave = max(1, (wave_games or games) // sides)
    stats = MatchStats() if sides == 2 else RotationStats(sides)
    played, margin_sum, margin_units = 0, 0.0, 0
    while played < pairs_total:
        count = min(per_wave, pairs_total - played)
        m = play_duplicate(tuned, start, rules, seed, first_game + played, count, threads)
        stats.merge(m.stats)
        if m.margin is not None:
            margin_sum += m.margin * m.pairs
            margin_units += m.pairs
        played += count
        if sprt is not None:
            rate = stats.win_rate()
            if rate.se is not None and rate.se > 0:
                sprt.update(rate.n, rate.estimate, rate.se ** 2 * rate.n)
        if on_wave is not None:
            on_wave(sides * count, stats)
        if sprt is not None and sprt.decision != "undecided":
            break
    state = None
    if sprt is not None:
        state = {"h0": sprt.mu0, "h1": sprt.mu1, "alpha": sprt.alpha, "beta": sprt.beta,
                 "llr": sprt.llr, "lower": sprt.lower, "upper": sprt.upper,
                 "decision": sprt.decision, "waves": sprt.waves}
    margin = margin_sum / margin_units if margin_units else None
    return Verification(tuned, start, first_game, sides * played, stats, state, margin)


# --------------------------------------------------------------------------------------------
# A tuning run: settings, trajectory, files
# --------------------------------------------------------------------------------------------

TRAJECTORY_CSV, TRAJECTORY_PARQUET, BEST_JSON = "trajectory.csv", "trajectory.parquet", \
    "best.json"
OUTPUTS = (TRAJECTORY_CSV, TRAJECTORY_PARQUET, BEST_JSON)
MAX_ITERATIONS = 100_000


class Settings(NamedTuple):
    """A checked tuning run: everything it needs, nothing played yet."""

    space: Space
    start: str               # the starting policy text (canonical)
    against: str             # the opponent's policy text (canonical)
    rules: object            # RuleSet
    games: int               # games per evaluated point (2 per pair)
    iterations: int
    seed: int
    method: str
    objective: str
    gains: SpsaGains
    sigma: float
    popsize: int
    verify_games: int
    verify_sprt: tuple | None   # (h0, h1) of the tuned side's pair share
    alpha: float
    beta: float
    threads: int | None

    @property
    def pairs(self) -> int:
        """Game pairs per evaluated point (three sides: game seeds, each in 3 rotations)."""
        return self.games // self.rules.num_sides

    @property
    def points_per_iteration(self) -> int:
        """Points measured per iteration: 2 (SPSA) or the population (CMA-ES)."""
        return 2 if self.method == "spsa" else self.popsize

    @property
    def verify_first_game(self) -> int:
        """The first game index of the verification: just after every tuning seed."""
        return self.iterations * self.pairs

    def objective_words(self) -> str:
        """The objective in words, e.g. 'win rate', or at three sides 'win share (fair share
        33.3%, one side against two)'."""
        sides = self.rules.num_sides
        if sides == 2:
            return "win rate" if self.objective == "win" else "mean final margin"
        if self.objective == "win":
            return (f"win share (fair share {100 / sides:.1f}%, one side against "
                    f"{sides - 1})")
        return f"mean final margin against the mean of the other {sides - 1} sides"

    def tuning_games(self) -> int:
        """Games the iterations play."""
        return self.iterations * self.points_per_iteration * self.games

    def command(self) -> str:
        """The command line that repeats this run."""
        import shlex

        boxes = ",".join(f"{n}={format_number(lo)}:{format_number(hi)}"
                         for n, lo, hi in zip(self.space.names, self.space.lo, self.space.hi))
        parts = ["canasta-sim", "tune", self.start, "--params", boxes, "--against",
                 self.against, "--games", str(self.games), "--iterations",
                 str(self.iterations), "--seed", str(self.seed), "--rules",
                 self.rules.canonical(), "--method", self.method, "--objective",
                 self.objective]
        if self.method == "spsa":
            parts += ["--a", format_number(self.gains.a), "--c", format_number(self.gains.c),
                      "--stability", format_number(self.gains.A)]
        else:
            parts += ["--sigma", format_number(self.sigma), "--popsize", str(self.popsize)]
        parts += ["--verify-games", str(self.verify_games)]
        if self.verify_sprt is not None:
            parts += ["--verify-sprt", f"{format_number(self.verify_sprt[0])},"
                      f"{format_number(self.verify_sprt[1])}", "--alpha",
                      format_number(self.alpha), "--beta", format_number(self.beta)]
        return " ".join(shlex.quote(p) for p in parts)


def _positive(value, option: str, high=None, example="0.5") -> float:
    """A finite number > 0 (and <= high), or BadInput."""
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0
            and (high is None or value <= high)):
        span = f"in (0, {format_number(high)}]" if high is not None else "> 0"
        raise BadInput(f"{option} {value!r} is not accepted: accepted: a number {span}, "
                       f"e.g. {example}")
    return float(value)


def parse_sprt_bounds(text: str) -> tuple:
    """``H0,H1`` (win rates of the tuned side, e.g. 0.50,0.53) -> (h0, h1), or BadInput."""
    parts = str(text).split(",")
    try:
        h0, h1 = (float(p) for p in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        h0 = h1 = math.nan
    if not (0 < h0 < 1 and 0 < h1 < 1 and h0 != h1):
        raise BadInput(f"--verify-sprt {text!r} is not accepted: accepted: H0,H1, two "
                       "different win rates of the tuned parameters strictly between 0 and "
                       "1, e.g. 0.50,0.53")
    return h0, h1


def prepare(policy: str, params: str, against=None, games: int = 200, iterations: int = 30,
            seed: int = 1, rules="classic", method: str = "spsa", objective: str = "win",
            a=None, c: float = 0.1, stability=None, sigma: float = 0.2, popsize=None,
            verify_games: int = 2000, verify_sprt=None, alpha: float = 0.05,
            beta: float = 0.05, threads=None) -> Settings:
    """Check every input of a tuning run; BadInput for the first mistake, before any game.

    ``against`` defaults to the starting policy itself; ``a`` to 0.5 (per unit of win rate;
    the score objective is divided by SCORE_SCALE first); ``stability`` (SPSA's A) to a
    tenth of the iterations; ``popsize`` to CMA-ES's default."""
    from canasta_sim.arms import whole_seed_games
    from canasta_sim.policies import parse_policies
    from canasta_sim.rules import parse_rules
    from canasta_sim.runner import MAX_GAMES, _is_int, check_seed, check_threads

    if method not in METHODS:
        raise BadInput(f"--method {method!r} is not accepted: accepted: {', '.join(METHODS)}")
    if objective not in OBJECTIVES:
        raise BadInput(f"--objective {objective!r} is not accepted: accepted: "
                       f"{', '.join(OBJECTIVES)}")
    r = parse_rules(rules)
    sides = r.num_sides
    space = parse_space(policy, params)
    start = parse_one(policy)[0]
    against = start if against is None else against
    if len(split_top_level(against)) != 1:
        raise BadInput(f"--against {against!r} names more than one policy: accepted: one "
                       "policy that plays every seat of the other sides, e.g. expert")
    parse_policies(against, r.num_players)
    against = parse_one(against)[0]
    if r.american:
        from canasta_sim.runner import check_american_policies

        check_american_policies([start, against])
    games = whole_seed_games(games, "--games", sides)
    if not _is_int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
        raise BadInput(f"--iterations {iterations!r} is not accepted: accepted: a whole "
                       f"number in 1..{MAX_ITERATIONS}, e.g. 30")
    seed = check_seed(seed)
    a = 0.5 if a is None else a
    gains = SpsaGains(_positive(a, "--a", example="0.5"),
                      _positive(c, "--c", 0.5, example="0.1"),
                      float(iterations) / 10 if stability is None else stability)
    if not (isinstance(gains.A, (int, float)) and math.isfinite(gains.A) and gains.A >= 0):
        raise BadInput(f"--stability {stability!r} is not accepted: accepted: a number >= 0 "
                       "(SPSA's A, about a tenth of the iterations), e.g. 3")
    sigma = _positive(sigma, "--sigma", 1.0, example="0.2")
    if method == "cmaes":
        if space.dim == 1:
            raise BadInput("--method cmaes needs at least two parameters in --params: "
                           "accepted: --method spsa for one parameter")
        cma_module()
    if popsize is None:
        popsize = default_popsize(max(space.dim, 2))
    if not _is_int(popsize) or not 2 <= popsize <= 1000:
        raise BadInput(f"--popsize {popsize!r} is not accepted: accepted: a whole number in "
                       "2..1000, e.g. 6")
    verify_games = whole_seed_games(verify_games, "--verify-games", sides, zero=True)
    bounds = None
    if verify_sprt is not None:
        bounds = parse_sprt_bounds(verify_sprt)
        if verify_games == 0:
            raise BadInput(f"--verify-sprt {verify_sprt} is given with --verify-games 0: "
                           "accepted: a number of verification games (the most the test may "
                           "play), e.g. --verify-games 20000")
    for value, option in ((alpha, "--alpha"), (beta, "--beta")):
        if not (isinstance(value, (int, float)) and 0 < value < 0.5):
            raise BadInput(f"{option} {value!r} is not accepted: accepted: a probability in "
                           "(0, 0.5), e.g. 0.05")
    threads = None if threads is None else check_threads(threads)
    total = iterations * (games // sides) + verify_games // sides
    if total > MAX_GAMES:
        raise BadInput(f"the run needs game indices up to {total}: accepted: --iterations x "
                       f"--games / {sides} + --verify-games / {sides} <= {MAX_GAMES}")
    return Settings(space, start, against, r, games, iterations, seed, method, objective,
                    gains, sigma, int(popsize), verify_games, bounds, float(alpha),
                    float(beta), threads)


def check_out(folder: str, force: bool) -> str:
    """The output folder, checked: new, empty of tuning files, or ``force``; BadInput
    otherwise.  Nothing is created here."""
    import os

    from canasta_sim.results import check_writable

    folder = os.fspath(folder)
    if not folder.strip():
        raise BadInput("--out '' is not accepted: accepted: a folder, e.g. results/tune-expert")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise BadInput(f"--out {folder!r} is a file: accepted: a folder (new, or one that "
                       "holds no tuning yet)")
    if os.path.isdir(folder):
        present = [name for name in OUTPUTS if os.path.exists(os.path.join(folder, name))]
        if present and not force:
            raise BadInput(f"--out {folder!r} already holds a tuning ({', '.join(present)}): "
                           "accepted: a new folder, or --force to replace it")
        for name in OUTPUTS:
            check_writable(os.path.join(folder, name))
    else:
        parent = os.path.dirname(os.path.abspath(folder))
        while not os.path.exists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK):
            raise BadInput(f"cannot create --out {folder!r}: {parent!r} is not a writable "
                           "folder: accepted: a folder path under a writable folder")
    return folder


class Trajectory:
    """The rows of the trajectory file: one per point measured, and a last row 'result'."""

    def __init__(self, settings: Settings):
        """No rows yet."""
        self.settings = settings
        self.rows: list = []

    def add(self, step: Step, measured: list, first_game: int) -> None:
        """The rows of one iteration."""
        s = self.settings
        space = s.space
        iterate = space.raw(step.theta)
        for index, (kind, theta, value) in enumerate(zip(step.kinds, step.points,
                                                         step.values)):
            m = measured[index] if index < len(measured) else None
            row = {"iteration": step.iteration, "point": index, "kind": kind,
                   "first_game": first_game, "pairs": s.pairs}
            row.update({name: v for name, v in space.values(theta).items()})
            row.update({"objective": _finite(value), "se": _finite(m.se if m else None),
                        "win_rate": _finite(m.win_rate if m else None),
                        "mean_margin": _finite(m.margin if m else None)})
            row.update({f"iterate_{name}": float(v) for name, v in zip(space.names, iterate)})
            row.update({"a_k": _finite(step.info.get("a_k")),
                        "c_k": _finite(step.info.get("c_k")),
                        "sigma": _finite(step.info.get("sigma"))})
            self.rows.append(row)

    def add_result(self, x) -> None:
        """The last row: the tuned values (iteration = the number of iterations)."""
        s = self.settings
        space = s.space
        row = {"iteration": s.iterations, "point": 0, "kind": "result",
               "first_game": None, "pairs": None}
        row.update(space.values(space.played(x)))
        row.update({"objective": None, "se": None, "win_rate": None, "mean_margin": None})
        row.update({f"iterate_{n}": float(v) for n, v in zip(space.names, space.raw(x))})
        row.update({"a_k": None, "c_k": None, "sigma": None})
        self.rows.append(row)

    def table(self):
        """The rows as a pyarrow Table with the run's provenance in its metadata."""
        import json

        import pyarrow as pa

        from canasta_sim.results import provenance

        s = self.settings
        space = s.space
        columns = {}
        names = list(self.rows[0]) if self.rows else []
        for name in names:
            values = [row[name] for row in self.rows]
            if name == "kind":
                kind = pa.string()
            elif name in ("iteration", "point", "first_game", "pairs") or (
                    name in space.names and space.integer[space.names.index(name)]):
                kind = pa.int64()
            else:
                kind = pa.float64()
            columns[name] = pa.array(values, kind)
        table = pa.table(columns)
        meta = provenance(s.rules, s.seed, (s.start, s.against), games=True)
        meta[b"canasta_sim.tune"] = json.dumps(settings_dict(s), sort_keys=True).encode()
        return table.replace_schema_metadata(meta)

    def write(self, folder: str) -> None:
        """Write trajectory.csv and trajectory.parquet (each atomically)."""
        import io
        import os

        import pyarrow.csv as pcsv

        from canasta_sim.results import write_parquet, write_text

        table = self.table()
        buffer = io.BytesIO()
        pcsv.write_csv(table, buffer)
        write_text(buffer.getvalue().decode(), os.path.join(folder, TRAJECTORY_CSV))
        write_parquet(table, os.path.join(folder, TRAJECTORY_PARQUET))


def _finite(value):
    """A float, or None for None, NaN and infinities."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def settings_dict(s: Settings) -> dict:
    """The settings as JSON-ready data (best.json's 'settings')."""
    space = s.space
    return {"policy": space.policy, "start": s.start, "against": s.against,
            "rules": s.rules.canonical(), "seed": s.seed, "method": s.method,
            "objective": s.objective, "games_per_point": s.games, "pairs_per_point": s.pairs,
            "iterations": s.iterations, "points_per_iteration": s.points_per_iteration,
            "params": list(space.names),
            "boxes": {n: [_num(lo, w), _num(hi, w)] for n, lo, hi, w in
                      zip(space.names, space.lo, space.hi, space.integer)},
            "start_params": space.values(space.start),
            "fixed_params": {k: _num(v, k in PARAMS and PARAMS[k].integer)
                             for k, v in space.fixed.items()},
            "spsa": ({"a": s.gains.a, "c": s.gains.c, "A": s.gains.A, "alpha": s.gains.alpha,
                      "gamma": s.gains.gamma,
                      "scale": SCORE_SCALE if s.objective == "score" else 1.0}
                     if s.method == "spsa" else None),
            "cmaes": ({"sigma": s.sigma, "popsize": s.popsize}
                      if s.method == "cmaes" else None),
            "verify_games": s.verify_games,
            "verify_sprt": (None if s.verify_sprt is None else
                            {"h0": s.verify_sprt[0], "h1": s.verify_sprt[1],
                             "alpha": s.alpha, "beta": s.beta})}


def _num(value, integer: bool):
    """int for a whole-number parameter, else float."""
    return int(round(value)) if integer else float(value)


def versions(method: str) -> dict:
    """The versions that made a result (best.json's 'made')."""
    import datetime
    import platform
    from importlib.metadata import version

    from canasta_sim import __version__
    from canasta_sim._cache import current_kernels_hash

    made = {"canasta_sim_version": __version__, "kernels_hash": current_kernels_hash(),
            "numba_version": version("numba"), "numpy_version": np.__version__,
            "python_version": platform.python_version(),
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds")}
    if method == "cmaes":
        made["cma_version"] = version("cma")
    return made


class Outcome(NamedTuple):
    """What a tuning run found."""

    tuned: str                         # the tuned policy text
    values: dict                       # name -> tuned value
    verification: Verification | None  # None when not played
    verify_note: str | None            # why not, if not played
    best: dict                         # the content of best.json


def run(settings: Settings, folder: str | None, say=None, progress: bool = False) -> Outcome:
    """Tune, write the trajectory after every iteration and best.json at the end (when
    ``folder`` is given), then verify; ``say`` gets one line per iteration and per
    verification wave."""
    import json
    import os

    from canasta_sim import _signals
    from canasta_sim.results import write_text

    s = settings
    space = s.space
    bar = _bar(s, progress)
    if say is not None and progress:
        say = _beside_bar(say)
    objective = GameObjective(space, s.against, s.rules, s.seed, s.pairs, s.objective,
                              s.threads, on_point=bar.update)
    trajectory = Trajectory(s)
    if folder is not None:
        os.makedirs(folder, exist_ok=True)

    def on_step(step: Step) -> None:
        _signals.check()
        trajectory.add(step, objective.last, objective.first_game(step.iteration))
        if folder is not None:
            trajectory.write(folder)
        if say is not None:
            say(_step_line(s, step, objective.last))

    try:
        if s.method == "spsa":
            rng = np.random.default_rng([s.seed, 0x5B5A])
            x = spsa(space, objective, s.iterations, s.gains, rng, on_step,
                     scale=SCORE_SCALE if s.objective == "score" else 1.0)
        else:
            x = cmaes(space, objective, s.iterations, s.sigma, s.popsize, s.seed, on_step)
        theta = space.played(x)
        tuned = space.policy_text(theta)
        trajectory.add_result(x)
        if folder is not None:
            trajectory.write(folder)
        verification, note = None, None
        if s.verify_games == 0:
            note = "not asked for (--verify-games 0)"
        elif np.array_equal(theta, space.start):
            note = "the tuned parameters equal the starting ones"
        else:
            sprt = None
            if s.verify_sprt is not None:
                from canasta_sim.stats import Sprt

                sprt = Sprt(s.verify_sprt[0], s.verify_sprt[1], s.alpha, s.beta)
            sides = s.rules.num_sides     # a tenth per wave: progress, SPRT checks
            wave = max(sides, sides * (s.verify_games // (10 * sides)))

            def on_wave(games, stats):
                bar.update(games)
                _signals.check()
                if say is not None and sprt is not None:
                    say(_wave_line(stats, sprt))

            verification = verify(tuned, s.start, s.rules, s.seed, s.verify_first_game,
                                  s.verify_games, s.threads, sprt, wave, on_wave)
    finally:
        bar.close()
    best = {"tuned": tuned, "params": space.values(theta),
            "iterate": {n: float(v) for n, v in zip(space.names, space.raw(x))},
            "start": s.start, "start_params": space.values(space.start),
            "settings": settings_dict(s),
            "game_indices": {"tuning": [0, s.verify_first_game],
                             "verification": ([s.verify_first_game, s.verify_first_game
                                               + verification.seeds]
                                              if verification else None)},
            "games_played": {"tuning": s.tuning_games(),
                             "verification": verification.games if verification else 0},
            "verification": verification.to_dict() if verification else {"skipped": note},
            "command": s.command(), "made": versions(s.method)}
    if folder is not None:
        _signals.check()
        write_text(json.dumps(best, indent=2) + "\n", os.path.join(folder, BEST_JSON))
    return Outcome(tuned, space.values(theta), verification, note, best)


class _NoBar:
    """A progress bar that shows nothing."""

    def update(self, n=1):
        """Nothing."""

    def close(self):
        """Nothing."""


def _bar(s: Settings, progress: bool):
    """A tqdm bar over every game the run may play (stderr), or a silent one."""
    if not progress:
        return _NoBar()
    import sys

    from tqdm import tqdm

    return tqdm(total=s.tuning_games() + s.verify_games, unit="game", file=sys.stderr,
                dynamic_ncols=True, smoothing=0.1, desc="tune")


def _beside_bar(say):
    """``say`` that clears the progress bar for its line and draws it again after."""
    import sys

    from tqdm import tqdm

    def write(line):
        with tqdm.external_write_mode(file=sys.stdout):
            say(line)
    return write


def _step_line(s: Settings, step: Step, measured: list) -> str:
    """One progress line per iteration."""
    space = s.space
    unit = "" if s.objective == "win" else " pts"

    def show(v):
        if v is None or not math.isfinite(v):
            return "n/a"
        return f"{100 * v:.1f}%" if s.objective == "win" else f"{v:+.0f}{unit}"

    if s.method == "spsa":
        values = " vs ".join(f"{k} {show(v)}" for k, v in zip(step.kinds, step.values))
    else:
        best = int(np.nanargmax(step.values)) if np.isfinite(step.values).any() else 0
        values = (f"best {show(step.values[best])}, mean {show(float(np.nanmean(step.values)))}"
                  f", sigma {step.info['sigma']:.3f}")
    return (f"iteration {step.iteration + 1}/{s.iterations}: {values} -> "
            f"{space.describe(space.played(step.next_theta))}")


def _wave_line(stats, sprt) -> str:
    """One line per verification wave of a sequential test."""
    rate = stats.win_rate()
    shown = "n/a" if rate.estimate is None else f"{100 * rate.estimate:.1f}%"
    games = 2 * stats.pairs if isinstance(stats, MatchStats) else stats.games
    return (f"verification: {games} games, tuned win rate {shown}, "
            f"LLR {sprt.llr:+.2f} in ({sprt.lower:.2f}, {sprt.upper:.2f}): {sprt.decision}")


def verification_lines(outcome: Outcome) -> list:
    """The verification's result as lines for the terminal."""
    from canasta_sim.stats import elo_text

    v = outcome.verification
    if v is None:
        return [f"verification: skipped, {outcome.verify_note}"]
    if not isinstance(v.stats, MatchStats):
        return _rotation_lines(v)
    rate, elo = v.stats.win_rate(), v.stats.elo()
    lines = [f"verification: {v.tuned} against {v.start}, {v.games} games ({v.stats.pairs} "
             f"game pairs) on fresh seeds (game indices {v.first_game}.."
             f"{v.first_game + v.games // 2 - 1})"]
    if rate.estimate is None:
        lines.append("  no game pair ended: no estimate")
        return lines
    interval = ("" if rate.ci_low is None else
                f" (95% CI {100 * rate.ci_low:.1f}-{100 * rate.ci_high:.1f})")
    mark = "significant" if significant(v.stats) else "not significant (the interval holds 50%)"
    lines.append(f"  tuned win rate {100 * rate.estimate:.1f}%{interval}: {mark}")
    if elo_text(elo) is not None:
        lines.append(f"  Elo tuned - start {elo_text(elo)}")
    elif elo.estimate is not None and elo.ci_low is not None:
        lines.append(f"  Elo tuned - start {elo.estimate + 0.0:+.1f} ({elo.ci_low:+.1f}, "
                     f"{elo.ci_high:+.1f}); likelihood of superiority "
                     f"{100 * v.stats.los():.1f}%")
    lines.append("  pentanomial (pairs by tuned's total 0, 0.5, 1, 1.5, 2): "
                 + " ".join(str(int(c)) for c in v.stats.pentanomial))
    if v.margin is not None:
        lines.append(f"  tuned mean final margin {v.margin:+.1f} points per game")
    return lines + _sprt_lines(v)


def _rotation_lines(v: Verification) -> list:
    """The verification's lines at three sides: the win share against the fair share."""
    rate, fair = v.stats.win_rate(), v.stats.fair_share
    lines = [f"verification: {v.tuned} (one side) against {v.start} (the other "
             f"{v.stats.sides - 1}), {v.games} games ({v.stats.seeds} game seeds, each in the "
             f"{v.stats.sides} rotations) on fresh seeds (game indices {v.first_game}.."
             f"{v.first_game + v.seeds - 1})"]
    if rate.estimate is None:
        return lines + ["  no game seed played: no estimate"]
    interval = ("" if rate.ci_low is None else
                f" (95% CI {100 * rate.ci_low:.1f}-{100 * rate.ci_high:.1f})")
    mark = ("significant" if significant(v.stats) else
            f"not significant (the interval holds {100 * fair:.1f}%)")
    lines.append(f"  tuned win share {100 * rate.estimate:.1f}%{interval} against the fair "
                 f"share {100 * fair:.1f}%: {mark}; no Elo at {v.stats.sides} sides")
    if v.margin is not None:
        lines.append(f"  tuned mean final margin {v.margin:+.1f} points per game against the "
                     "mean of the other sides")
    return lines + _sprt_lines(v)


def _sprt_lines(v: Verification) -> list:
    """The sequential test's line, if one ran."""
    lines = []
    if v.sprt is not None:
        lines.append(f"  SPRT H0 {v.sprt['h0']} vs H1 {v.sprt['h1']} (alpha {v.sprt['alpha']}, "
                     f"beta {v.sprt['beta']}): {v.sprt['decision']}, LLR {v.sprt['llr']:+.2f} "
                     f"after {v.sprt['waves']} waves"
                     + (" (after an early stop the win rate leans towards the hypothesis "
                        "accepted)" if v.sprt["decision"] != "undecided" else ""))
    return lines
