"""What the search player costs (docs/search.md, "Cost"): CPU time per deal on one thread for
expert and for search seats, and how often a going-out decision arises.

    python -m canasta_sim.benchmarks.search_cost [DEALS]

Prints one line per table (deals/s and ms per deal by ``time.process_time`` of
``simulate(..., threads=1)``), then the going-out decisions per deal counted on expert's own
deals: a turn counts when, after its draw, the seat could go out (the search's
``tasks.out_choice_entry_nb`` lists candidates there).  Never timed in a test.
"""
from __future__ import annotations

import sys
import time

import numpy as np

TABLES = ("expert", "search(decisions=5),expert,search(decisions=5),expert",
          "search,expert,search,expert", "search")


def deals_per_second(policies: str, deals: int, seed: int = 9) -> float:
    """Deals per CPU second of ``simulate`` on one thread, after a warm-up."""
    from canasta_sim import simulate

    simulate(4, seed=seed, policies=policies, threads=1)
    start = time.process_time()
    simulate(deals, seed=seed, policies=policies, threads=1)
    return deals / (time.process_time() - start)


def going_out_decisions(deals: int, seed: int = 9) -> tuple[int, int]:
    """(turns with a going-out choice after the draw, turns) in ``deals`` deals of expert."""
    from canasta_sim.kernels.game import slots, state
    from canasta_sim.kernels.play import search, tasks
    from canasta_sim.kernels.play.midgame import play_until_nb

    from canasta_sim.runner import policy_table, prepare

    plan = prepare(deals, seed, "classic", "expert")
    pol, params = policy_table(plan), plan.params
    cands = np.zeros(search.MAX_CANDIDATES, np.int64)
    opened = turns = 0
    for deal in range(deals):
        for t in range(10 ** 4):
            S = state.new_state()
            seat = play_until_nb(plan.rules_nb, plan.seed, deal, pol, params,
                                 plan.scores_before, t, S)
            if seat < 0:
                break
            turns += 1
            opened += tasks.out_choice_entry_nb(plan.rules_nb, S, seat, pol, params,
                                                 slots.OUT_OWN, cands) > 0
    return opened, turns


def main(argv: list[str]) -> None:
    """Print the cost table and the going-out decision count."""
    deals = int(argv[0]) if argv else 200
    for policies in TABLES:
        n = 100 * deals if policies == "expert" else (deals // 2 if policies == "search"
                                                      else deals)
        rate = deals_per_second(policies, n)
        print(f"{policies}: {rate:,.1f} deals/s, {1000 / rate:.3f} ms per deal", flush=True)
    opened, turns = going_out_decisions(deals)
    print(f"going-out decisions: {opened / deals:.2f} per deal (all seats), "
          f"{opened} of {turns} turns in {deals} deals")


if __name__ == "__main__":
    main(sys.argv[1:])
