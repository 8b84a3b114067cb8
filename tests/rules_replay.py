"""Test helpers around the rules replay (canasta_sim.referee.replay): traced deals of real
runs, cached for the whole test session, and the violations found in them."""
from __future__ import annotations

import functools

from canasta_sim.referee.replay import (  # noqa: F401  (re-exported for the tests)
    COVER_ANY3,
    COVER_RED3,
    DealReplay,
    Violation,
    replay_deals,
)


@functools.lru_cache(maxsize=None)
def traced(rules="classic", policies="random", seed=11, first=0, last=300, scores=None):
    """The decoded events of deals first..last-1 (cached for the whole test session)."""
    from canasta_sim.trace import trace_events
    return tuple(trace_events(rules, seed, first, last, policies,
                              list(scores) if scores else None))


@functools.lru_cache(maxsize=None)
def replayed(rules="classic", policies="random", seed=11, first=0, last=300, scores=None):
    """(violations, facts) of the replayed deals."""
    from canasta_sim.rules import parse_rules
    deals = traced(rules, policies, seed, first, last, scores)
    return replay_deals(deals, parse_rules(rules))


def by_rule(violations, *rules):
    """The violations tagged with any of ``rules`` (all of them if none given)."""
    if not rules:
        return list(violations)
    return [v for v in violations if v.rule in rules]


@functools.lru_cache(maxsize=None)
def stock_end_deals(rules="classic", policies="random", seed=11, scan=10000, limit=300):
    """Deal numbers among 0..scan-1 that ended with the stock (END_STOCK), from a fast
    results run, at most ``limit`` of them."""
    import numpy as np
    from canasta_sim.kernels.game import layout
    from canasta_sim.kernels.play.tasks import play_deals_nb

    from canasta_sim.runner import prepare
    plan = prepare(scan, seed, rules, policies)
    out = np.zeros((scan, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, plan.seed, 0, out, plan.policy_ids, plan.params,
                  plan.scores_before, 0)
    return tuple(int(d) for d in np.nonzero(out[:, layout.COL_END_REASON] == layout.END_STOCK)[0]
                 [:limit])


@functools.lru_cache(maxsize=None)
def concealed_canasta_candidates(rules="seed-b", policies="random", seed=7, scan=4000):
    """Deal numbers among 0..scan-1 worth replaying for source B's concealed-canasta bonus
    (RULES.md 2.11), from a fast results run: a side's canasta bonus is not 500/300 per canasta
    (the engine awarded a concealed-canasta bonus, or got the canasta bonus wrong), or the deal
    ended by a concealed going-out (whose canasta is usually laid from the hand in one turn).
    Such deals are a few in a thousand; the replay then judges each of them from its events."""
    import numpy as np
    from canasta_sim.kernels.game import layout
    from canasta_sim.kernels.play.tasks import play_deals_nb

    from canasta_sim.runner import prepare
    plan = prepare(scan, seed, rules, policies)
    r = plan.rules_nb
    out = np.zeros((scan, layout.NCOLS), np.int64)
    play_deals_nb(r, plan.seed, 0, out, plan.policy_ids, plan.params, plan.scores_before, 0)
    pick = out[:, layout.COL_CONCEALED] == 1
    for k in range(r.num_sides):
        col = layout.SIDE_BASE + layout.SIDE_STRIDE * k
        plain = out[:, col + layout.S_NATURAL] * r.natural_canasta_bonus \
            + out[:, col + layout.S_MIXED] * r.mixed_canasta_bonus
        pick |= out[:, col + layout.S_CANASTA_BONUS] != plain
    return tuple(int(d) for d in np.nonzero(pick)[0])


@functools.lru_cache(maxsize=None)
def replayed_listed(rules, policies, seed, deals):
    """(violations, facts) of the replayed deals numbered ``deals`` (a tuple)."""
    from canasta_sim.rules import parse_rules
    from canasta_sim.trace import trace_events
    events = [next(iter(trace_events(rules, seed, d, d + 1, policies))) for d in deals]
    return replay_deals(events, parse_rules(rules))


@functools.lru_cache(maxsize=None)
def replayed_stock_ends(rules="classic", policies="random", seed=11, scan=10000, limit=300):
    """(violations, facts) of the replayed deals of :func:`stock_end_deals`."""
    from canasta_sim.rules import parse_rules
    from canasta_sim.trace import trace_events
    deals = [next(iter(trace_events(rules, seed, d, d + 1, policies)))
             for d in stock_end_deals(rules, policies, seed, scan, limit)]
    return replay_deals(deals, parse_rules(rules))
