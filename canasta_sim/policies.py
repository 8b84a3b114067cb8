"""Policies: which scripted player sits in each seat.

A policy spec is one name for every seat (``greedy``), one name per side
(``expert,greedy``: side 0 plays expert, side 1 greedy) or one name per seat,
comma-separated (``greedy,random,greedy,random``).  A name may later take
parameters, ``name(param=value,...)``; each policy declares its parameters and
their defaults in :data:`REGISTRY`.  The kernels receive an id per seat and a
float array of parameters per seat (STYLE.md pattern 4).
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game import layout
from canasta_sim.kernels.players import ids
from canasta_sim.numbers import format_number


class PolicySpec(NamedTuple):
    """A registered policy: its kernel id and its parameters (name -> default), in slot order."""

    policy_id: int
    params: dict


class Param(NamedTuple):
    """A policy parameter: whole number or not, its accepted range and what it means.

    The one source of the meanings and ranges printed by ``canasta-sim policies`` and
    documented in docs/policies.md (a test keeps the two in step).
    """

    integer: bool
    lo: float
    hi: float
    meaning: str

    def accepted(self) -> str:
        """Text naming the accepted values."""
        kind = "a whole number" if self.integer else "a number"
        return f"{kind} in {format_number(self.lo)}..{format_number(self.hi)}"

    def check(self, policy: str, name: str, value: float) -> float:
        """The value, or BadInput naming it and the accepted range."""
        if self.integer and not float(value).is_integer():
            raise BadInput(f"policy {policy!r} parameter {name}={format_number(value)} is not "
                           f"a whole number: accepted: {self.accepted()}")
        if not self.lo <= value <= self.hi:
            raise BadInput(f"policy {policy!r} parameter {name}={format_number(value)} is out "
                           f"of range: accepted: {self.accepted()}")
        return float(value)


# The club players' parameters, in kernel slot order (kernels/players/club.py P_*); how each policy
# uses them is written at the top of kernels/players/club.py.
PARAMS = {
    "freeze_at": Param(True, 0, 1000, "pile size from which a wild-card discard freezes the "
                       "pile (a size no pile reaches, e.g. 999, means never)"),
    "min_pile_take": Param(True, 0, 1000, "smallest pile worth spending wild cards on to "
                           "take it"),
    "go_out_margin": Param(True, -10_000_000, 10_000_000, "lead (points) from which builder "
                           "and expert delay going out"),
    "wild_hold": Param(True, 0, 24, "wild cards kept in hand rather than melded"),
    "want_canastas": Param(True, 0, 100, "canastas the side wants before going out (builder "
                           "goes by its lead instead)"),
    "endgame_stock": Param(True, 0, 1000, "stock size from which end-of-stock play starts"),
    "answer_max_hand": Param(True, 0, 100_000, "largest own hand (points) with which expert "
                             "answers yes to a partner's question"),
    "danger": Param(False, 0, 1000, "weight of the chance that a discard hands the pile to "
                    "the next opponent"),
}
CLUB_PARAMS = tuple(PARAMS)

# The search player's parameters, in kernel slot order (kernels/play/search.py Q_*); its blueprint
# is expert with expert's defaults (docs/search.md).
SEARCH_PARAMS = {
    "determinizations": Param(True, 1, 1000, "search: rollouts of each candidate, each on "
                              "its own random deal of the cards hidden from the seat"),
    "candidates": Param(True, 1, 7, "search: the blueprint's best discards searched"),
    "threshold": Param(False, 0, 1e9, "search: points per deal a candidate must gain over "
                       "the blueprint's choice to be played (a huge value plays expert)"),
    "decisions": Param(True, 0, 15, "search: decisions searched, a sum of 1 (the discard), "
                       "2 (freezing the pile with a wild card), 4 (taking the pile with "
                       "wild cards, or drawing) and 8 (going out now, asking the partner, "
                       "or holding on)"),
    "confidence": Param(False, 0, 100, "search: standard errors by which a candidate's mean "
                        "gain over the blueprint's choice (paired over the determinizations) "
                        "must exceed zero to be played"),
    "rollouts": Param(True, 1, 100, "search: playouts of each candidate on each "
                      "determinization, each with the stock (the deal's future) shuffled "
                      "again; a candidate's gain on a determinization is their mean"),
}


def param_info(policy: str, key: str) -> Param:
    """The :class:`Param` of parameter ``key`` of built-in policy ``policy``."""
    return SEARCH_PARAMS[key] if policy == "search" else PARAMS[key]


def _club(policy_id, **defaults) -> PolicySpec:
    """A club player with every parameter of CLUB_PARAMS, in slot order."""
    assert set(defaults) == set(CLUB_PARAMS)
    assert all(PARAMS[k].lo <= v <= PARAMS[k].hi for k, v in defaults.items())
    return PolicySpec(policy_id, {name: float(defaults[name]) for name in CLUB_PARAMS})


REGISTRY = {
    "random": PolicySpec(ids.POLICY_RANDOM, {}),
    "greedy": PolicySpec(ids.POLICY_GREEDY, {}),
    "careful": _club(ids.POLICY_CAREFUL, freeze_at=8, min_pile_take=4, go_out_margin=0,
                     wild_hold=1, want_canastas=2, endgame_stock=0, answer_max_hand=0,
                     danger=1),
    "rush": _club(ids.POLICY_RUSH, freeze_at=99, min_pile_take=1, go_out_margin=0,
                  wild_hold=0, want_canastas=0, endgame_stock=0, answer_max_hand=0, danger=0),
    "builder": _club(ids.POLICY_BUILDER, freeze_at=12, min_pile_take=3, go_out_margin=500,
                     wild_hold=0, want_canastas=3, endgame_stock=0, answer_max_hand=0,
                     danger=1),
    "expert": _club(ids.POLICY_EXPERT, freeze_at=16, min_pile_take=6, go_out_margin=300,
                    wild_hold=1, want_canastas=2, endgame_stock=8, answer_max_hand=30,
                    danger=4),
    "search": PolicySpec(ids.POLICY_SEARCH, {"determinizations": 16.0, "candidates": 2.0,
                                                "threshold": 40.0, "decisions": 13.0,
                                                "confidence": 1.0, "rollouts": 1.0}),
}
assert set(REGISTRY) == set(ids.POLICY_NAMES) | {"search"}
assert all(len(spec.params) <= layout.NPARAMS for spec in REGISTRY.values())

_ONE = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)


def split_top_level(text: str) -> list:
    """Split on commas that are not inside parentheses."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += (char == "(") - (char == ")")
        current.append(char)
    parts.append("".join(current))
    return parts


def parse_one(text: str):
    """``name`` or ``name(p=v,...)`` -> (canonical name, policy id, parameter values list).

    A user's policy (``file.py:function``, or an entry point's name, canasta_sim.user_policy)
    gets the id ``POLICY_USER`` and its canonical name ``label@digest``."""
    from canasta_sim.user_policy import parse_user

    match = _ONE.match(text)
    builtin = match is not None and match.group(1).lower() in REGISTRY
    user = parse_user(text, builtin=builtin)
    if user is not None:
        canonical, values, _ = user
        return canonical, ids.POLICY_USER, values
    if not builtin:
        raise BadInput(f"unknown policy {text.strip()!r}: accepted policies are "
                       f"{', '.join(REGISTRY)}, or your own as file.py:function "
                       "(docs/own-policy.md)")
    name = match.group(1).lower()
    spec = REGISTRY[name]
    values = dict(spec.params)
    given = _parse_params(name, spec, match.group(2) or "")
    values.update(given)
    return policy_text(name, given), spec.policy_id, [values[k] for k in spec.params]


def policy_text(name: str, given: dict) -> str:
    """The canonical text of a policy with the parameters set explicitly:
    ``careful(danger=2,freeze_at=12)`` (sorted by name)."""
    if not given:
        return name
    return name + "(" + ",".join(f"{k}={format_number(given[k])}" for k in sorted(given)) + ")"


def _parse_params(name, spec, body):
    """``p=v,...`` -> dict of float values, BadInput for unknown or malformed parameters."""
    accepted = ", ".join(spec.params) if spec.params else "none"
    given = {}
    for item in body.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or key not in spec.params:
            bad = key if eq else item.strip()
            raise BadInput(f"policy {name!r} has no parameter {bad!r}: accepted parameters "
                           f"are {accepted}")
        if key in given:
            raise BadInput(f"policy {name!r} parameter {key!r} is given twice: accepted is "
                           "each parameter once")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise BadInput(f"policy {name!r} parameter {key}={value.strip()!r} is not a "
                           f"finite number: accepted: {param_info(name, key).accepted()}"
                           ) from None
        given[key] = param_info(name, key).check(name, key, number)
    return given


def describe() -> list:
    """Lines describing every policy and its parameters with their defaults and ranges
    (``canasta-sim policies``; docs/policies.md holds the same lines)."""
    lines = []
    for name, spec in REGISTRY.items():
        if not spec.params:
            lines.append(f"{name}: no parameters")
            continue
        defaults = ", ".join(f"{k}={format_number(v)}" for k, v in spec.params.items())
        lines.append(f"{name}: {defaults}")
    lines.append("")
    lines.append("parameters (every club player has all of them; a policy ignores those its "
                 "strategy does not use):")
    for key, param in PARAMS.items():
        lines.append(f"  {key}: {param.meaning}; {param.accepted()}")
    lines.append("")
    lines.append("parameters of search (its blueprint is expert with expert's defaults, "
                 "docs/search.md):")
    for key, param in SEARCH_PARAMS.items():
        lines.append(f"  {key}: {param.meaning}; {param.accepted()}")
    return lines


def seat_policies(parts, num_players: int, num_sides: int | None = None) -> list:
    """The policy text of every seat from one policy (every seat), one per side (seat s
    plays policy s % num_sides: ``expert,greedy`` at four seats and two sides is
    ``expert,greedy,expert,greedy``) or one per seat; BadInput for any other count."""
    parts = [str(p) for p in parts]
    if len(parts) == 1:
        return parts * num_players
    if num_sides and len(parts) == num_sides < num_players:
        return [parts[seat % num_sides] for seat in range(num_players)]
    if len(parts) != num_players:
        per_side = f", one per side ({num_sides})" if num_sides and num_sides < num_players \
            else ""
        raise BadInput(f"{len(parts)} policies given ({','.join(p.strip() for p in parts)}) "
                       f"but the rule set has {num_players} seats: accepted: one policy for "
                       f"every seat{per_side} or {num_players} comma-separated policies")
    return parts


def parse_policies(text, num_players: int, num_sides: int | None = None):
    """Policies for every seat -> (names, ids int64[MAX_SEATS], params float64[MAX_SEATS, NPARAMS]).

    ``text`` is one policy for every seat, ``num_sides`` comma-separated policies (one per
    side, :func:`seat_policies`) or ``num_players`` of them (a sequence of names is accepted
    too).  Unused seats get id -1.
    """
    if isinstance(text, (list, tuple)):
        parts = [str(p) for p in text]
    elif isinstance(text, str):
        parts = split_top_level(text)
    else:
        raise BadInput(f"policies={text!r} is not text: accepted: one of "
                       f"{', '.join(REGISTRY)} or {num_players} comma-separated names")
    parts = seat_policies(parts, num_players, num_sides)
    ids = np.full(layout.MAX_SEATS, -1, dtype=np.int64)
    params = np.zeros((layout.MAX_SEATS, layout.NPARAMS), dtype=np.float64)
    names = []
    for seat, part in enumerate(parts):
        name, policy_id, values = parse_one(part)
        names.append(name)
        ids[seat] = policy_id
        params[seat, :len(values)] = values
    return tuple(names), ids, params
