"""Compile (or load from the on-disk cache) every entry kernel ahead of use."""
from __future__ import annotations

import time


def warm() -> dict:
    """Run each entry kernel once on a tiny input; returns seconds per kernel."""
    import numpy as np

    from canasta_sim.kernels import layout
    from canasta_sim.kernels.engine import play_deals_nb, trace_deal_nb
    from canasta_sim.runner import prepare

    plan = prepare(1)
    timings = {}
    start = time.perf_counter()
    out = np.zeros((1, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, 0, 0, out, plan.policy_ids, plan.params, plan.scores_before, 0)
    timings["play_deals_nb"] = time.perf_counter() - start
    start = time.perf_counter()
    trace_deal_nb(plan.rules_nb, 0, 0, plan.policy_ids, plan.params, plan.scores_before,
                  np.zeros(layout.NCOLS, np.int64), np.zeros(1 << 12, np.int32))
    timings["trace_deal_nb"] = time.perf_counter() - start
    return timings
