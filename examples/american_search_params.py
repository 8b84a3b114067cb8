"""Modern American: search's parameters beside its defaults, in points per deal over expert and
in CPU time (docs/search.md, "Modern American").

Every setting plays the same deal seeds twice against expert (the duplicate pairs of
american_search_strength.py: two search seats against two expert seats, then the other way
round), so settings can be compared pair by pair: the script prints, per setting, its gain
over expert per deal with its standard error, its difference from the first setting (the
defaults) on the same pairs with its standard error, and the CPU milliseconds per deal
(``time.process_time`` of the process over both seatings).

    python examples/american_search_params.py --deals 600 --seed 6 \\
        --setting search --setting "search(determinizations=8)"
"""
import argparse
import math
import time

from american_search_strength import margins

DEFAULT_SETTINGS = ("search", "search(determinizations=8)", "search(determinizations=32)",
                    "search(candidates=3)", "search(threshold=0)", "search(confidence=2)")


def measure(rules, setting, deals, seed, threads):
    """(margins per deal pair, CPU ms per deal) of ``setting`` against expert."""
    start = time.process_time()
    m = margins(rules, setting, "expert", deals, seed, threads)
    return m, 1000 * (time.process_time() - start) / (2 * deals)


def mean_se(x) -> tuple:
    """Mean and standard error."""
    return float(x.mean()), float(x.std(ddof=1)) / math.sqrt(len(x))


def main():
    """Play every setting on the same pairs and print one line each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="modern-american")
    ap.add_argument("--setting", action="append", default=None,
                    help="a search policy (repeatable; the first is the reference)")
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    settings = a.setting or list(DEFAULT_SETTINGS)
    reference = None
    for setting in settings:
        m, cost = measure(a.rules, setting, a.deals, a.seed, a.threads)
        gain, se = mean_se(m)
        line = (f"{setting:32s} {len(m)} pairs: {gain:+7.1f} ({se:.1f}) points per deal over "
                f"expert, {cost:6.2f} CPU ms per deal")
        if reference is None:
            reference = m
        else:
            diff, dse = mean_se(m - reference)
            line += f"; against {settings[0]}: {diff:+.1f} ({dse:.1f})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
