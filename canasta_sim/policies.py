"""Policies: which scripted player sits in each seat.

A policy spec is one name for every seat (``greedy``) or one name per seat,
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
from canasta_sim.kernels import layout


class PolicySpec(NamedTuple):
    """A registered policy: its kernel id and its parameters (name -> default), in slot order."""

    policy_id: int
    params: dict


# The club players' parameters, in kernel slot order (kernels/club.py P_*): what each means
# is in the README's policy table and at the top of kernels/club.py.
CLUB_PARAMS = ("freeze_at", "min_pile_take", "go_out_margin", "wild_hold", "want_canastas",
               "endgame_stock", "answer_max_hand", "danger")


def _club(policy_id, **defaults) -> PolicySpec:
    """A club player with every parameter of CLUB_PARAMS, in slot order."""
    assert set(defaults) == set(CLUB_PARAMS)
    return PolicySpec(policy_id, {name: float(defaults[name]) for name in CLUB_PARAMS})


REGISTRY = {
    "random": PolicySpec(layout.POLICY_RANDOM, {}),
    "greedy": PolicySpec(layout.POLICY_GREEDY, {}),
    "careful": _club(layout.POLICY_CAREFUL, freeze_at=8, min_pile_take=4, go_out_margin=0,
                     wild_hold=1, want_canastas=2, endgame_stock=0, answer_max_hand=0,
                     danger=1),
    "rush": _club(layout.POLICY_RUSH, freeze_at=99, min_pile_take=1, go_out_margin=0,
                  wild_hold=0, want_canastas=0, endgame_stock=0, answer_max_hand=0, danger=0),
    "builder": _club(layout.POLICY_BUILDER, freeze_at=12, min_pile_take=3, go_out_margin=500,
                     wild_hold=0, want_canastas=3, endgame_stock=0, answer_max_hand=0,
                     danger=1),
    "expert": _club(layout.POLICY_EXPERT, freeze_at=16, min_pile_take=6, go_out_margin=300,
                    wild_hold=1, want_canastas=2, endgame_stock=8, answer_max_hand=30,
                    danger=4),
}
assert set(REGISTRY) == set(layout.POLICY_NAMES)
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
    """``name`` or ``name(p=v,...)`` -> (canonical name, policy id, parameter values list)."""
    match = _ONE.match(text)
    if match is None or match.group(1).lower() not in REGISTRY:
        raise BadInput(f"unknown policy {text.strip()!r}: accepted policies are "
                       f"{', '.join(REGISTRY)}")
    name = match.group(1).lower()
    spec = REGISTRY[name]
    values = dict(spec.params)
    given = _parse_params(name, spec, match.group(2) or "")
    values.update(given)
    return policy_text(name, given), spec.policy_id, [values[k] for k in spec.params]


def format_number(value: float) -> str:
    """A parameter value as short text that reads back exactly: 8, 0.5, 1000003."""
    return f"{value:.17g}" if float(f"{value:.15g}") != value else f"{value:.15g}"


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
        try:
            given[key] = float(value)
        except ValueError:
            given[key] = math.nan
        if not math.isfinite(given[key]):
            raise BadInput(f"policy {name!r} parameter {key}={value.strip()!r} is not a "
                           "finite number: accepted: a number such as 0.5") from None
    return given


def parse_policies(text, num_players: int):
    """Policies for every seat -> (names, ids int64[MAX_SEATS], params float64[MAX_SEATS, NPARAMS]).

    ``text`` is one policy for every seat or ``num_players`` comma-separated
    policies (a sequence of names is accepted too).  Unused seats get id -1.
    """
    if isinstance(text, (list, tuple)):
        parts = [str(p) for p in text]
    elif isinstance(text, str):
        parts = split_top_level(text)
    else:
        raise BadInput(f"policies={text!r} is not text: accepted: one of "
                       f"{', '.join(REGISTRY)} or {num_players} comma-separated names")
    if len(parts) == 1:
        parts = parts * num_players
    if len(parts) != num_players:
        raise BadInput(f"{len(parts)} policies given ({','.join(p.strip() for p in parts)}) "
                       f"but the rule set has {num_players} seats: accepted: one policy for "
                       f"every seat or {num_players} comma-separated policies")
    ids = np.full(layout.MAX_SEATS, -1, dtype=np.int64)
    params = np.zeros((layout.MAX_SEATS, layout.NPARAMS), dtype=np.float64)
    names = []
    for seat, part in enumerate(parts):
        name, policy_id, values = parse_one(part)
        names.append(name)
        ids[seat] = policy_id
        params[seat, :len(values)] = values
    return tuple(names), ids, params
