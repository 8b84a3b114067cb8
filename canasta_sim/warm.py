"""Compile (or load from the on-disk cache) the entry kernels ahead of use.

Each ``warm_*`` function makes one entry kernel ready and returns the seconds it took;
:func:`warm` makes all of them ready and says for each whether it was compiled or loaded.
"""
from __future__ import annotations

import time
from typing import NamedTuple


class Ready(NamedTuple):
    """How an entry kernel became ready: ``how`` is 'compiled' or 'loaded', in ``seconds``."""

    seconds: float
    how: str


def _misses(dispatchers) -> int:
    """How many signatures the dispatchers have compiled (not loaded) in this process."""
    return sum(sum(d.stats.cache_misses.values()) for d in dispatchers)


def warm_play_deals() -> float:
    """Make ``play_deals_nb`` ready (compile it or load it from the cache); returns seconds."""
    import numpy as np

    from canasta_sim.kernels.game import layout
    from canasta_sim.kernels.play.tasks import play_deals_nb
    from canasta_sim.runner import prepare

    plan = prepare(1)
    start = time.perf_counter()
    out = np.zeros((1, layout.NCOLS), np.int64)
    play_deals_nb(plan.rules_nb, 0, 0, out, plan.policy_ids, plan.params, plan.scores_before, 0)
    return time.perf_counter() - start


def warm_trace_deal() -> float:
    """Make ``trace_deal_nb`` ready (compile it or load it from the cache); returns seconds."""
    import numpy as np

    from canasta_sim.kernels.game import layout
    from canasta_sim.kernels.play.tasks import trace_deal_nb
    from canasta_sim.runner import prepare

    plan = prepare(1)
    start = time.perf_counter()
    trace_deal_nb(plan.rules_nb, 0, 0, -1, plan.policy_ids, plan.params, plan.scores_before,
                  np.zeros(layout.NCOLS, np.int64), np.zeros(1 << 12, np.int32), 0)
    return time.perf_counter() - start


def warm_deal_only() -> float:
    """Make ``deal_only_nb`` (the benchmarks' floor) ready; returns seconds."""
    from canasta_sim.kernels.play.deals import deal_only_nb
    from canasta_sim.runner import prepare

    plan = prepare(1)
    start = time.perf_counter()
    deal_only_nb(plan.rules_nb, 0, 0, 1, plan.scores_before)
    return time.perf_counter() - start


def warm_play_games() -> float:
    """Make ``play_games_nb`` ready (what ``simulate --games`` needs); returns seconds."""
    from canasta_sim.runner import play_game_range, prepare

    plan = prepare(games=1)
    start = time.perf_counter()
    play_game_range(plan, 0, 1)
    return time.perf_counter() - start


def warm_games() -> float:
    """Make ``play_games_nb`` and the traced deal of a game ready; returns seconds."""
    from canasta_sim.runner import prepare
    from canasta_sim.trace import run_traced

    plan = prepare(games=1)
    start = time.perf_counter()
    warm_play_games()
    run_traced(plan, 0, dealer=0)
    return time.perf_counter() - start


def warm_midgame() -> float:
    """Make kernels/play/midgame.py's entry ready (``check-policy``, the information tests);
    returns seconds."""
    import numpy as np

    from canasta_sim.kernels.game import state
    from canasta_sim.kernels.play.midgame import play_turn_traced_nb, play_until_nb
    from canasta_sim.runner import policy_table, prepare

    plan = prepare(1)
    start = time.perf_counter()
    S = state.new_state()
    table = policy_table(plan)
    seat = play_until_nb(plan.rules_nb, 0, 0, table, plan.params, plan.scores_before, 2, S)
    play_turn_traced_nb(plan.rules_nb, S, max(seat, 0), table, plan.params,
                        np.zeros(1 << 12, np.int32))
    return time.perf_counter() - start


def warm_analysis() -> float:
    """Make kernels/play/analysis.py's entry ready (``analyze``): a traced deal replayed and
    one decision rolled out; returns seconds."""
    from canasta_sim.analysis.position import DealScript
    from canasta_sim.analysis.rollout import Scale, rollout_setup, value_options
    from canasta_sim.kernels.play import analysis as k
    from canasta_sim.trace import trace_events

    start = time.perf_counter()
    script = DealScript(next(iter(trace_events("classic", 0, 0, 1, "expert"))))
    d = next(d for d in script.decisions if d.kind == "discard")
    S, _ = script.state(d.at)
    value_options(script, S, d.seat, d.seat, k.A_DISCARD, [int(S.hands[d.seat].argmax())],
                  ["x"], "x", 1, rollout_setup(script.rules, "expert", 2, 0, 1),
                  Scale("points"), 0, script.scores_before)
    return time.perf_counter() - start


def warm_american() -> float:
    """Make the Modern American entry kernel ready (deals, a traced deal, games of the family,
    kernels/play/american/tasks.py); returns seconds."""
    from canasta_sim.runner import play_game_range, prepare
    from canasta_sim.trace import run_traced

    plan = prepare(games=1, rules="modern-american")
    start = time.perf_counter()
    play_game_range(plan, 0, 1)
    run_traced(plan, 0, dealer=0)
    return time.perf_counter() - start


def warm() -> dict:
    """Make every entry kernel ready; returns a :class:`Ready` per task (the tasks that play
    turns share one entry kernel, kernels/play/tasks.py, which the first of them compiles)."""
    from canasta_sim.kernels.play import analysis, deals, tasks
    from canasta_sim.kernels.play.american import tasks as mac_tasks

    steps = (("play_deals_nb", warm_play_deals, (tasks.run_task_nb,)),
             ("trace_deal_nb", warm_trace_deal, (tasks.run_task_nb,)),
             ("deal_only_nb", warm_deal_only, (deals.deal_only_nb,)),
             ("play_games_nb", warm_games, (tasks.run_task_nb,)),
             ("midgame", warm_midgame, (tasks.run_task_nb,)),
             ("analysis_task_nb", warm_analysis, (analysis.analysis_task_nb,)),
             ("run_mac_task_nb", warm_american, (mac_tasks.run_mac_task_nb,)))
    ready = {}
    for name, step, dispatchers in steps:
        before = _misses(dispatchers)
        seconds = step()
        ready[name] = Ready(seconds, "compiled" if _misses(dispatchers) > before else "loaded")
    return ready
