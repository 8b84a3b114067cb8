"""The options of one decision valued by rollouts, with 95% intervals (docs/analysis.md).

Every option is played on the same determinizations (common random numbers): rollout ``d``
of a decision deals the cards hidden from the deciding seat again from a key made of the
seed, the deal and the decision, and reorders the stock with it, whatever the option, the
batch or the thread (kernels/play/analysis.py).  An option's value is the mean over its
rollouts of the deciding side's result (:class:`Scale`: deal points ahead of the best other
side, or the chance of winning the game from the scores after the deal); its difference to
the best option is the mean of the paired differences, so the noise the options share
cancels.  The rollouts run in batches; after each batch from the second on, an option whose
paired difference to the best is more than ``STOP_Z`` standard errors below zero is stopped
(clearly worse).  Intervals are normal: mean +- 1.96 standard errors.
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game.layout import MAX_SIDES
from canasta_sim.kernels.game.state import copy_state
from canasta_sim.kernels.play import analysis as k

Z95 = 1.959964
STOP_Z = 3.29          # two-sided 99.9%: an option is stopped only when clearly worse
MIN_BATCH = 32
ROLLOUT_POLICIES = ("careful", "rush", "builder", "expert")
MASK64 = (1 << 64) - 1


def mix64(z: int) -> int:
    """splitmix64's finalizer on a Python int (the kernels' ``rng.mix64_nb``)."""
    z = (z + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def decision_key(seed: int, *parts: int) -> int:
    """The key of a decision's rollouts: from the seed and the numbers that name it."""
    z = mix64(seed & MASK64)
    for p in parts:
        z = mix64(z ^ (p & MASK64))
    return z


class Rollouts(NamedTuple):
    """How rollouts are played: the policy at every seat (its table and parameters), the
    rollouts per decision, the seed, the threads, and the truncation (turns played after
    the decision's turn, 0 for none)."""
    policy: str
    pol: np.ndarray
    params: np.ndarray
    n: int
    seed: int
    threads: int
    truncate: int = 0


def rollout_setup(rules, policy="expert", n=1000, seed=0, threads=None, truncate=0) -> Rollouts:
    """Check the rollout settings and build the policy table: ``policy`` (a club player,
    whose take and going-out choices can be set) at every seat; ``truncate`` > 0 stops each
    rollout that many turns after the decision's turn."""
    from canasta_sim.runner import available_cores, policy_table, prepare

    if not isinstance(n, int) or isinstance(n, bool) or n < 2:
        raise BadInput(f"rollouts {n!r}: accepted: an integer of at least 2")
    name = str(policy).split("(")[0].strip()
    if name not in ROLLOUT_POLICIES:
        raise BadInput(f"rollout policy {policy!r}: accepted: {', '.join(ROLLOUT_POLICIES)} "
                       "(with parameters, e.g. expert(want_canastas=2))")
    plan = prepare(1, 0, rules, policy)
    threads = available_cores() if threads is None else int(threads)
    if threads < 1:
        raise BadInput(f"threads {threads}: accepted: 1 or more")
    if not isinstance(truncate, int) or isinstance(truncate, bool) or truncate < 0:
        raise BadInput(f"truncate {truncate!r}: accepted: 0 (none) or a number of turns")
    return Rollouts(policy, policy_table(plan), plan.params.copy(), n, int(seed), threads,
                    truncate)


def play_rollouts(script, S, view, seat, decision, cands, key, first, count, ro: Rollouts):
    """Rollouts ``first`` .. ``first + count - 1`` of every candidate: int64[count, len(cands),
    MAX_SIDES + 1] (each side's deal score, then 1 if the candidate was played as such),
    split over ``ro.threads`` threads, each on its own copy of the state."""
    cands = np.asarray(cands, np.int64)
    out = np.zeros((count, len(cands), MAX_SIDES + 1), np.int64)
    parts = max(1, min(ro.threads, count // 8 or 1))
    bounds = [count * i // parts for i in range(parts + 1)]

    american = getattr(script, "american", False)
    batch = script.rollout_batch if american else classic_batch

    def run(i):
        lo, hi = bounds[i], bounds[i + 1]
        args = () if american else (script,)
        return batch(*args, S, view, seat, decision, cands, key, first + lo, out[lo:hi],
                     ro) == hi - lo

    if parts == 1:
        ok = run(0)
    else:
        with ThreadPoolExecutor(parts) as pool:
            ok = all(pool.map(run, range(parts)))
    if not ok:
        raise BadInput("the cards hidden from the seat could not be dealt again: the "
                       "position is not one a deal can reach")
    return out


def classic_batch(script, S, view, seat, decision, cands, key, first, values,
                  ro: Rollouts) -> int:
    """Rollouts ``first`` .. ``first + len(values) - 1`` of a classic decision on a copy of
    ``S`` (kernels/play/analysis.py); returns the determinizations done."""
    from .position import call

    done, _ = call(1, script.rules_nb, copy_state(S), np.zeros(1, np.int32), None, 0, None, 0, 0,
                   None, pol=ro.pol.copy(), params=ro.params.copy(), view=view, seat=seat,
                   decision=decision, cands=cands, key=key, first=first, values=values,
                   turns=ro.truncate if ro.truncate > 0 else None)
    return done


class Scale(NamedTuple):
    """What a rollout is worth to a side: ``points`` (its deal score less the best other
    side's) or ``win`` (the chance of winning the game from the scores after the deal, by
    an equity table, :mod:`canasta_sim.analysis.equity`, read for the side that deals the
    next deal, ``dealer``, when known)."""
    unit: str
    table: object = None
    dealer: int = -1

    def values(self, scores, side, before, nsides) -> np.ndarray:
        """The side's value of each rollout from the ``nsides`` sides' deal scores
        ``scores[..., k]`` (cumulative scores ``before`` the deal)."""
        scores = np.asarray(scores, np.float64)
        others = [x for x in range(nsides) if x != side]
        if self.unit == "points":
            return scores[..., side] - np.max(scores[..., others], axis=-1)
        other = others[0]
        deals = None if self.dealer < 0 else int(self.dealer != side)
        return self.table.win_array(before[side] + scores[..., side],
                                    before[other] + scores[..., other], deals)


def summarize(x: np.ndarray, counts, names, played) -> list:
    """The options' values and losses from the rollout values ``x[d, c]`` (the first
    ``counts[c]`` rows of option ``c``): mean and 95% interval of each, and of its paired
    difference to the best option."""
    means = [float(np.mean(x[:counts[c], c])) for c in range(len(names))]
    full = max(counts)
    best = max((c for c in range(len(names)) if counts[c] == full), key=lambda c: means[c])
    options = []
    for c, name in enumerate(names):
        m, half = mean_ci(x[:counts[c], c])
        if c == best:
            loss, lo, hi = 0.0, 0.0, 0.0
        else:
            diff = x[:counts[c], best] - x[:counts[c], c]
            loss, dhalf = mean_ci(diff)
            lo, hi = loss - dhalf, loss + dhalf
        options.append({"option": name, "value": m, "ci_low": m - half, "ci_high": m + half,
                        "loss": loss, "loss_low": lo, "loss_high": hi,
                        "rollouts": int(counts[c]), "stopped": bool(counts[c] < full),
                        "best": c == best, "played": name == played})
    return options


def mean_ci(x) -> tuple:
    """Mean and the half-width of its 95% normal interval."""
    x = np.asarray(x, np.float64)
    n = len(x)
    if n < 2:
        return float(np.mean(x)) if n else 0.0, math.inf
    return float(np.mean(x)), Z95 * float(np.std(x, ddof=1)) / math.sqrt(n)


def value_options(script, S, view, seat, decision, cands, names, played, key, ro: Rollouts,
                  scale: Scale, side: int, before, batch=None, stop_early=True) -> list:
    """Value the candidates ``cands`` (named ``names``) of ``seat``'s ``decision`` in ``S``
    as ``view`` knows it: :func:`summarize` of ``ro.n`` rollouts each, the clearly worse
    stopped early (module docstring).  A candidate the policy could not play as such (a
    take it would not make) is dropped."""
    n = ro.n
    batch = batch or max(MIN_BATCH, n // 8)
    active = list(range(len(cands)))
    counts = [0] * len(cands)
    x = np.zeros((n, len(cands)))
    done = 0
    while done < n and active:
        count = min(batch, n - done)
        raw = play_rollouts(script, S, view, seat, decision, [cands[c] for c in active], key,
                            done, count, ro)
        for j, c in enumerate(active):
            if not raw[:, j, MAX_SIDES].all():
                counts[c] = -1                                 # not playable as such
                continue
            x[done:done + count, c] = scale.values(raw[:, j, :MAX_SIDES], side, before,
                                                    script.rules.num_sides)
            counts[c] = done + count
        active = [c for c in active if counts[c] >= 0]
        done += count
        if stop_early and done >= 2 * batch and len(active) > 1:
            active = _still_close(x[:done], active)
    keep = [c for c in range(len(cands)) if counts[c] > 0]
    return summarize(x[:, keep], [counts[c] for c in keep], [names[c] for c in keep], played)


def _still_close(x, active) -> list:
    """The active options not clearly worse than the best of them: the paired difference to
    the best is kept unless its mean is above ``STOP_Z`` standard errors (and above 0)."""
    best = max(active, key=lambda c: x[:, c].mean())
    keep = []
    for c in active:
        diff = x[:, best] - x[:, c]
        se = float(np.std(diff, ddof=1)) / math.sqrt(len(diff))
        if c == best or not (diff.mean() > 0 and diff.mean() > STOP_Z * se):
            keep.append(c)
    return keep


def option_label(decision: int, cand: int) -> str:
    """The name of a candidate in the analysis (a card token, draw/take, now/ask/hold,
    yes/no, a meld step or stop)."""
    from canasta_sim.kernels.game.cards import TOKENS
    from canasta_sim.kernels.game.slots import OUT_ASK, OUT_HOLD, OUT_NOW

    if decision == k.A_DISCARD:
        return TOKENS[cand]
    if decision == k.A_TAKE:
        return "take" if cand == k.TAKE else "draw"
    if decision == k.A_OUT:
        return {OUT_NOW: "now", OUT_ASK: "ask", OUT_HOLD: "hold"}.get(cand, "own")
    if decision == k.A_ANSWER:
        return "yes" if cand else "no"
    if decision == k.A_MELD:
        from .position import meld_label

        return meld_label(cand)
    return "play on"
