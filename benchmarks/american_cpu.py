"""Modern American's rate beside classic's, per policy, in CPU time (docs/american.md, Speed).

    python -m benchmarks.american_cpu 10000 random greedy careful rush builder expert

For each policy and family: one warm-up run of 200 deals, then three runs of N deals on one
thread (seeds 0, 1, 2); prints the median rate in deals per CPU second of the process, which
other work on the machine disturbs less than wall-clock time does.
"""
import sys
import time

import canasta_sim


def main(n, policies):
    """Time each policy in both families; print one line each."""
    for pol in policies:
        for rules in ("modern-american", "classic"):
            canasta_sim.simulate(deals=200, seed=9, rules=rules, policies=pol, threads=1)
            best = []
            for rep in range(3):
                t = time.process_time()
                canasta_sim.simulate(deals=n, seed=rep, rules=rules, policies=pol, threads=1)
                best.append(n / (time.process_time() - t))
            best.sort()
            runs = ", ".join(f"{b:.0f}" for b in best)
            print(f"{pol:8s} {rules:16s} cpu-rate median {best[1]:8.0f} deals/cpu-s  "
                  f"(runs {runs})", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10000,
         sys.argv[2:] or ["random", "greedy", "careful", "rush", "builder", "expert"])
