"""What the search player costs (docs/search.md, "Cost"): CPU time per deal on one thread for
expert and for search seats, and how often a going-out decision arises.

    python -m canasta_sim.benchmarks.search_cost [DEALS]
    python -m canasta_sim.benchmarks.search_cost families [DEALS]

Prints one line per table (deals/s and ms per deal by ``time.process_time`` of
``simulate(..., threads=1)``), then the going-out decisions per deal counted on expert's own
deals: a turn counts when, after its draw, the seat could go out (the search's
``tasks.out_choice_entry_nb`` lists candidates there).  ``families``: search's rate beside
expert's in classic and in Modern American (two search seats against two expert, as the
family's strength example plays; docs/search.md, "Modern American"), the median of three
runs each.  Never timed in a test.
"""
from __future__ import annotations

import sys
import time

import numpy as np

TABLES = ("expert", "search(decisions=5),expert,search(decisions=5),expert",
          "search,expert,search,expert", "search")


FAMILY_TABLES = ("expert", "search,expert")


def deals_per_second(policies: str, deals: int, seed: int = 9, rules: str = "classic") -> float:
    """Deals per CPU second of ``simulate`` on one thread, after a warm-up."""
    from canasta_sim import simulate

    simulate(4, seed=seed, rules=rules, policies=policies, threads=1)
    start = time.process_time()
    simulate(deals, seed=seed, rules=rules, policies=policies, threads=1)
    return deals / (time.process_time() - start)


def family_rates(deals: int) -> None:
    """Print, per family and table of FAMILY_TABLES, the median of three rates (seeds 9, 10,
    11; expert on 100 times as many deals) and search's slowdown against expert."""
    for rules in ("classic", "modern-american"):
        rates = {}
        for policies in FAMILY_TABLES:
            n = 100 * deals if policies == "expert" else deals
            runs = sorted(deals_per_second(policies, n, seed, rules) for seed in (9, 10, 11))
            rates[policies] = runs[1]
            print(f"{rules:16s} {policies:14s} median {runs[1]:10,.1f} deals/cpu-s, "
                  f"{1000 / runs[1]:.3f} ms per deal (runs "
                  f"{', '.join(f'{r:,.1f}' for r in runs)})", flush=True)
        print(f"{rules:16s} search,expert is {rates['expert'] / rates['search,expert']:,.0f} "
              f"times slower than expert", flush=True)


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
    """Print the cost table and the going-out decision count (or, with ``families``, the
    rates of both families)."""
    if argv and argv[0] == "families":
        family_rates(int(argv[1]) if len(argv) > 1 else 100)
        return
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
