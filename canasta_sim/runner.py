"""Run many deals: validate every input, allocate, call the jitted kernel batch by batch.

Deal ``i`` of master seed ``S`` is the same deal whatever the batch size or the
first deal of a run, because the kernel seeds each deal from ``(S, i)``
(STYLE.md pattern 5).  Everything a user can get wrong is checked in
:func:`prepare`, before any deal is played.
"""
from __future__ import annotations

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
DEFAULT_BATCH = 65536


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


def check_batch_size(batch_size) -> int:
    """The batch size as an int >= 1, or BadInput."""
    if not _is_int(batch_size) or batch_size < 1:
        raise BadInput(f"batch_size={batch_size!r} is not accepted: accepted: a whole number "
                       ">= 1, e.g. 65536")
    return int(batch_size)


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


def run_batch(plan: Plan, first: int, n: int) -> np.ndarray:
    """Play deals first..first+n-1 and return their raw result rows (n x NCOLS int64)."""
    out = np.zeros((n, layout.NCOLS), dtype=np.int64)
    if n:
        _engine()(plan.rules_nb, plan.seed, first, out, plan.policy_ids, plan.params,
                  plan.scores_before, 0)
    return out


def iter_tables(plan: Plan, batch_size=DEFAULT_BATCH, progress=False) -> Iterator:
    """Yield one Arrow table per batch (at least one, empty when there are no deals)."""
    from tqdm import tqdm

    from canasta_sim.results import results_table

    batch_size = check_batch_size(batch_size)
    end = plan.first_deal + plan.deals
    with tqdm(total=plan.deals, unit=" deals", file=sys.stderr, disable=not progress,
              dynamic_ncols=True, unit_scale=True) as bar:
        first = plan.first_deal
        while True:
            n = min(batch_size, end - first)
            out = run_batch(plan, first, n)
            yield results_table(out, first, plan.seed, plan.rules, plan.names,
                                metadata=plan.metadata)
            bar.update(n)
            first += n
            if first >= end:
                return


def simulate(deals, seed=0, rules="classic", policies="greedy", scores_before=None,
             batch_size=DEFAULT_BATCH, progress=False, first_deal=0):
    """Play ``deals`` deals and return a ``pyarrow.Table`` with one row per deal.

    ``rules``: a preset name, canonical string, .toml path or RuleSet;
    ``policies``: one policy name for every seat or one per seat, comma-separated;
    ``scores_before``: each side's cumulative score before the deal (default zeros),
    which sets the initial-meld minimum (R27).  Deal numbers start at ``first_deal``.
    Raises :class:`BadInput` before playing anything if an input is wrong.
    """
    import pyarrow as pa

    batch_size = check_batch_size(batch_size)
    plan = prepare(deals, seed, rules, policies, scores_before, first_deal)
    tables = list(iter_tables(plan, batch_size, progress))
    return tables[0] if len(tables) == 1 else pa.concat_tables(tables)
