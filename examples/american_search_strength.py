"""Modern American: how many points per deal a player gains over another, on paired seeds
(docs/search.md, "Modern American").

Each deal seed is played twice, the player at side 0 and then at side 1, the other player at
the other side (a duplicate pair: both sides see the same cards).  A pair's value is the
player's side's deal score less the other side's, averaged over the two seatings; the script
prints the mean over the pairs with its standard error and 95% interval.

    python examples/american_search_strength.py --deals 4000 --seed 5 \\
        --player search --against expert
"""
import argparse
import math

import canasta_sim


def margins(rules, player, against, deals, seed, threads):
    """Per deal seed: the player's side's score less the other side's, both seatings
    averaged."""
    first = canasta_sim.simulate(deals=deals, seed=seed, rules=rules,
                                 policies=f"{player},{against}", threads=threads).to_pandas()
    second = canasta_sim.simulate(deals=deals, seed=seed, rules=rules,
                                  policies=f"{against},{player}", threads=threads).to_pandas()
    return ((first.s0_score - first.s1_score) + (second.s1_score - second.s0_score)) / 2


def main():
    """Parse the options, play the pairs, print the result."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="modern-american")
    ap.add_argument("--player", default="search")
    ap.add_argument("--against", default="expert")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    m = margins(a.rules, a.player, a.against, a.deals, a.seed, a.threads)
    mean, se = m.mean(), m.std(ddof=1) / math.sqrt(len(m))
    print(f"{a.player} vs {a.against}, {a.rules}, {len(m)} deal pairs, seed {a.seed}: "
          f"{mean:+.1f} points per deal (standard error {se:.1f}; 95% interval "
          f"{mean - 1.96 * se:+.1f} to {mean + 1.96 * se:+.1f}); pairs where it gained "
          f"{(m > 0).mean():.1%}, lost {(m < 0).mean():.1%}")


if __name__ == "__main__":
    main()
