"""Replay the engine's own Modern American traces with the analysis' replay and count the
deals whose replayed trace differs from the trace (docs/analysis.md, "Modern American").

    python examples/american_replay_check.py [--deals 400] [--seed 3]

Each of five rule variants is played by three tables (random, greedy, the four club
players); every deal is replayed with the family's moves (canasta_sim/analysis/american.py)
and its trace compared line by line with the engine's.
"""
from __future__ import annotations

import argparse
import json

from canasta_sim.analysis.families import deal_script
from canasta_sim.errors import BadInput
from canasta_sim.trace import trace_events

RULES = ("modern-american", "modern-american-pagat",
         "modern-american(mac_talon_source=set_aside,mac_threes_timing=after_deal)",
         "modern-american(ask_permission=required)",
         "modern-american(mac_rule_of_five=false,mac_dead_rank_scope=own,"
         "mac_max_wilds_per_meld=3,mac_allow_oversize_when_going_out=true)")
TABLES = ("random", "greedy", "careful,rush,builder,expert")


def differing(rules, policies, deals, seed) -> int:
    """How many of the deals ``0 .. deals - 1`` replay to another trace."""
    bad = 0
    for events in trace_events(rules, seed, 0, deals, policies):
        try:
            deal_script(json.loads(json.dumps(events))).check()
        except BadInput as exc:
            print(f"  {exc}")
            bad += 1
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    total = bad = 0
    for rules in RULES:
        for policies in TABLES:
            found = differing(rules, policies, args.deals, args.seed)
            print(f"{rules} / {policies}: {args.deals} deals, {found} differ")
            total += args.deals
            bad += found
    print(f"deals={total} differ={bad}")


if __name__ == "__main__":
    main()
