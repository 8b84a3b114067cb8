"""Parameter sweeps: play the same deals (or games) once per value of a policy parameter.

``--sweep "careful.freeze_at=4:16:2"`` plays every seat whose policy is ``careful``
with ``freeze_at`` = 4, 6, ..., 16 (the stop value is included when the steps reach it),
each time on the very same deal seeds (common random numbers), and writes one result
with a column ``careful__freeze_at`` holding the value of each row (int64 for a
whole-number parameter, float64 for ``danger``).  Several sweeps
give every combination of their values.  Values may also be listed: ``=4,8,12``.
"""
from __future__ import annotations

import itertools
import math
import re
from typing import Iterator, NamedTuple

from canasta_sim import runner
from canasta_sim.arms import plan_arms
from canasta_sim.errors import BadInput
from canasta_sim.policies import (
    PARAMS,
    REGISTRY,
    SEARCH_PARAMS,
    param_info,
    parse_one,
    policy_text,
    seat_policies,
    split_top_level,
)

MAX_VALUES = 1000   # values of one swept parameter
MAX_POINTS = 1000   # combinations of every swept parameter
_SWEEP = re.compile(r"^\s*([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\s*=\s*(.+?)\s*$")
ACCEPTED = ("accepted: policy.parameter=start:stop:step (stop included) or "
            "policy.parameter=v1,v2,..., e.g. careful.freeze_at=4:16:2")


class Sweep(NamedTuple):
    """One swept parameter: the policy it belongs to, its name and its values."""

    policy: str
    param: str
    values: tuple
    user: bool = False      # a parameter of a user's policy, named by its function's name

    @property
    def name(self) -> str:
        """The sweep as written: ``policy.param``."""
        return f"{self.policy}.{self.param}"

    @property
    def column(self) -> str:
        """The result column holding this parameter's value: ``policy__param`` (no dot, so
        ``df.careful__freeze_at`` and SQL work without quoting)."""
        return f"{self.policy}__{self.param}"

    @property
    def integer(self) -> bool:
        """True if the parameter takes whole numbers (its column is then int64); a user
        policy's parameters are numbers (float64)."""
        return not self.user and param_info(self.policy, self.param).integer


def parse_sweep(text: str) -> Sweep:
    """``policy.param=start:stop:step`` or ``policy.param=v1,v2`` -> :class:`Sweep`."""
    match = _SWEEP.match(str(text))
    if match is None:
        raise BadInput(f"sweep {text!r} is malformed: {ACCEPTED}")
    policy, param, body = match.group(1).lower(), match.group(2).lower(), match.group(3)
    if policy not in REGISTRY:             # a user policy's parameter: checked by sweep_points
        return Sweep(match.group(1), match.group(2), _values(text, body), True)
    params = REGISTRY[policy].params
    if param not in params:
        accepted = ", ".join(params) or "none"
        raise BadInput(f"sweep {text!r}: policy {policy!r} has no parameter {param!r}: "
                       f"accepted parameters are {accepted}")
    values = _values(text, body)
    for value in values:
        try:
            param_info(policy, param).check(policy, param, value)
        except BadInput as exc:
            raise BadInput(f"sweep {text!r}: {exc}") from None
    return Sweep(policy, param, values)


def _values(text, body) -> tuple:
    """The values of a range ``a:b:step`` (b included when reached) or a list ``v1,v2``."""
    numbers = _numbers(text, body.split(":") if ":" in body else body.split(","))
    if ":" not in body:
        if len(set(numbers)) != len(numbers):
            raise BadInput(f"sweep {text!r} repeats a value: {ACCEPTED}")
        return numbers
    if len(numbers) not in (2, 3):
        raise BadInput(f"sweep {text!r} is malformed: {ACCEPTED}")
    start, stop = numbers[0], numbers[1]
    step = numbers[2] if len(numbers) == 3 else 1.0
    if step <= 0 or stop < start or (stop - start) / step >= MAX_VALUES:
        raise BadInput(f"sweep {text!r}: the range is empty, reversed or longer than "
                       f"{MAX_VALUES} values: {ACCEPTED}")
    count = int((stop - start) / step + 1e-9) + 1
    return tuple(round(start + i * step, 10) for i in range(count))


def _numbers(text, parts) -> tuple:
    """Finite floats from texts, or BadInput naming the sweep."""
    try:
        numbers = tuple(float(p) for p in parts)
    except ValueError:
        numbers = (math.nan,)
    if not all(math.isfinite(x) for x in numbers):
        raise BadInput(f"sweep {text!r} has a value that is not a finite number: {ACCEPTED}")
    return numbers


def parse_sweeps(texts) -> list:
    """Every sweep of a list (or one text); BadInput if a parameter is swept twice."""
    if isinstance(texts, str):
        texts = [texts]
    if texts is not None and not isinstance(texts, (list, tuple)):
        raise BadInput(f"sweep={texts!r} is not accepted: accepted: a text such as "
                       "'careful.freeze_at=4:16:2' or a list of them")
    sweeps = [parse_sweep(t) for t in texts or ()]
    columns = [s.name for s in sweeps]
    twice = [c for i, c in enumerate(columns) if c in columns[:i]]
    if twice:
        raise BadInput(f"sweep of {twice[0]!r} is given twice: accepted: each parameter once")
    points = math.prod(len(s.values) for s in sweeps)
    if points > MAX_POINTS:
        sizes = " x ".join(str(len(s.values)) for s in sweeps)
        raise BadInput(f"sweeps {' '.join(texts)!r} make {points} combinations ({sizes}): "
                       f"accepted: at most {MAX_POINTS} combinations; split the study into "
                       "several runs")
    return sweeps


def sweep_points(policies, num_players: int, sweeps: list, num_sides: int | None = None) -> list:
    """One (policies text, {column: value}) per combination of swept values.

    Every seat playing a swept policy gets the value; the seat's other parameters stay as
    given.  BadInput if no seat plays a swept policy.
    """
    seats = split_top_level(policies) if isinstance(policies, str) else list(policies)
    seats = seat_policies(seats, num_players, num_sides)
    names = [parse_one(seat)[0].split("(")[0] for seat in seats]
    keys = [_sweep_key(name) for name in names]
    for sweep in sweeps:
        if sweep.user and sweep.policy not in keys:
            raise BadInput(f"sweep {sweep.name!r}: unknown policy {sweep.policy!r}: accepted "
                           f"policies are {', '.join(REGISTRY)}, or a user policy at some seat "
                           "named by its function")
        if sweep.policy not in keys:
            raise BadInput(f"sweep {sweep.name!r}: no seat plays {sweep.policy!r} (policies "
                           f"{','.join(names)}): accepted: a policy that sits at some seat "
                           "(a user policy by its function's name)")
        if sweep.user:
            _check_user_param(sweep, names[keys.index(sweep.policy)])
        _check_not_given(sweep, seats, keys)
    points = []
    for combo in itertools.product(*(s.values for s in sweeps)):
        chosen = {s.column: v for s, v in zip(sweeps, combo)}
        texts = [_with_params(seat, name, key, sweeps, combo)
                 for seat, name, key in zip(seats, names, keys)]
        points.append((",".join(texts), chosen))
    return points


def _sweep_key(name: str) -> str:
    """The name a sweep uses for a seat's policy: a built-in's name, or a user policy's
    function name."""
    from canasta_sim.user_policy import user_of

    user = user_of(name)
    return user.func if user is not None else name


def _check_user_param(sweep: Sweep, name: str) -> None:
    """BadInput unless the user policy ``name`` declares the swept parameter."""
    from canasta_sim.user_policy import user_of

    declared = [k for k, _ in user_of(name).params]
    if sweep.param not in declared:
        raise BadInput(f"sweep {sweep.name!r}: policy {user_of(name).label} has no parameter "
                       f"{sweep.param!r}: accepted parameters are "
                       f"{', '.join(declared) or 'none'}")


def _check_not_given(sweep: Sweep, seats, keys) -> None:
    """BadInput if a seat's policy text already sets the swept parameter (the sweep would
    silently replace it)."""
    for seat, key in zip(seats, keys):
        if key == sweep.policy and sweep.param in dict(_given_params(seat)):
            raise BadInput(f"sweep {sweep.name!r} sets {sweep.param}, which the policies "
                           f"already set ({seat.strip()!r}): accepted: a parameter either "
                           "set in the policies or swept, not both")


def _with_params(seat_text, name, key, sweeps, combo) -> str:
    """A seat's policy text with the swept values of its policy set."""
    given = dict(_given_params(seat_text))
    for sweep, value in zip(sweeps, combo):
        if sweep.policy == key:
            given[sweep.param] = value
    return policy_text(name, given)


def _given_params(seat_text):
    """The (name, value) parameters written in a seat's policy text."""
    body = seat_text[seat_text.index("(") + 1:seat_text.rindex(")")] if "(" in seat_text else ""
    for item in body.split(","):
        if "=" in item:
            key, _, value = item.partition("=")
            key = key.strip()
            known = key.lower() in PARAMS or key.lower() in SEARCH_PARAMS
            yield (key.lower() if known else key), float(value)


# --------------------------------------------------------------------------------------------
# Planning and playing the points of a sweep (arms on common deals, canasta_sim.arms)
# --------------------------------------------------------------------------------------------

def prepare_sweep(sweeps, deals=None, seed=0, rules="classic", policies="greedy",
                  scores_before=None, first_deal=0, games=None, first_game=0) -> list:
    """One (Plan, {column: value}) per combination of the swept values (canasta_sim.sweep),
    every plan on the same deal seeds; all inputs checked before anything runs."""
    base = runner.prepare(deals, seed, rules, policies, scores_before, first_deal, games,
                          first_game)
    sweeps = parse_sweeps(sweeps)
    if not sweeps:
        return [(base, {})]
    metadata = dict(base.metadata)
    metadata[b"canasta_sim.sweep"] = ";".join(
        f"{s.name}={','.join(f'{v:g}' for v in s.values)}" for s in sweeps).encode()
    metadata[b"canasta_sim.sweep_columns"] = ",".join(s.column for s in sweeps).encode()
    integer = {s.column: s.integer for s in sweeps}
    combos = sweep_points(policies, base.rules.num_players, sweeps, base.rules.num_sides)
    plans = plan_arms([text for text, _ in combos], base.rules, deals=deals, seed=seed,
                      scores_before=scores_before, first_deal=first_deal, games=games,
                      first_game=first_game)
    points = []
    for plan, (_, values) in zip(plans, combos):
        typed = {column: int(v) if integer[column] else float(v)
                 for column, v in values.items()}
        points.append((plan._replace(metadata=metadata), typed))
    total = len(points) * (base.deals if base.games is None else base.games)
    limit = runner.MAX_RUN_DEALS if base.games is None else runner.MAX_RUN_GAMES
    if total > limit:
        unit = "deals" if base.games is None else "games"
        raise BadInput(f"the sweep plays {len(points)} x {total // len(points)} = {total} "
                       f"{unit}: accepted: at most {limit} {unit} in one run")
    return points


def _with_sweep_columns(table, values: dict):
    """``table`` with one column per swept parameter holding its value: int64 for a
    whole-number parameter, float64 otherwise."""
    import pyarrow as pa

    for column, value in values.items():
        kind = pa.int64() if isinstance(value, int) else pa.float64()
        table = table.append_column(column, pa.array([value] * table.num_rows, kind))
    return table


def iter_sweep_tables(points, chunk_size=None, progress=False, threads=None) -> Iterator:
    """Like :func:`canasta_sim.runner.iter_tables` for every point of a sweep in turn, each
    table (or pair of tables, for games) with the swept values as columns."""
    for plan, values in points:
        for part in runner.iter_tables(plan, chunk_size, progress, threads):
            if isinstance(part, tuple):
                yield tuple(_with_sweep_columns(t, values) for t in part)
            else:
                yield _with_sweep_columns(part, values)
