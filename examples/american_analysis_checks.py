"""Modern American analysis, checked over many deals (docs/analysis.md, "Modern American").

``luck``: over the draws of expert's deals, the value just after a draw less the value of
drawing just before it (canasta_sim/analysis/deal.py: mac_value_after_draw,
mac_value_of_drawing); luck is their difference, so it should average zero.  Prints the mean
with its standard error and 95% interval.

``equity``: an equity table (``canasta-sim equity-table --rules modern-american``) set
against other games: at the start of every deal the table's chance that side 0 wins the game
against whether it won, in tenths of the prediction.

    python examples/american_analysis_checks.py luck --deals 100 --seed 11 --rollouts 300
    python examples/american_analysis_checks.py equity --table mac-equity.json --games 1000 --seed 2
"""
import argparse
import math

import numpy as np

from canasta_sim.analysis import deal as D
from canasta_sim.analysis import rollout as R
from canasta_sim.analysis.equity import calibration_rows, check_against_games, load_table
from canasta_sim.analysis.families import deal_script
from canasta_sim.trace import trace_events


def deals_of(rules, seed, n):
    """The events of deals 0..n-1 of expert at every seat, one list per deal."""
    return list(trace_events(rules, seed, 0, n, "expert"))


def luck_gaps(rules, seed, deals, rollouts, per_seat, threads):
    """After - before of the first ``per_seat`` draws of every seat of every deal."""
    ro = R.rollout_setup(rules, "expert", rollouts, 1, threads)
    settings = D.Settings(ro, R.Scale("points"), D.DEFAULT_MARKS["points"], True)
    gaps = []
    for deal_no, events in enumerate(deals_of(rules, seed, deals)):
        script = deal_script(events)
        for seat in range(script.seats):
            draws = [(d, out) for d, out in D.mac_draws(script, seat) if d.played == "draw"]
            for d, out in draws[:per_seat]:
                before = D.mac_value_of_drawing(script, d, settings, deal_no, seat % 2, [])
                after = D.mac_value_after_draw(script, d, out, settings, deal_no, seat % 2)
                gaps.append(after - before)
    return np.array(gaps)


def luck(a):
    """Print the mean gap with its standard error."""
    gaps = luck_gaps(a.rules, a.seed, a.deals, a.rollouts, a.per_seat, a.threads)
    mean, se = gaps.mean(), gaps.std(ddof=1) / math.sqrt(len(gaps))
    print(f"{len(gaps)} draws of {a.deals} deals (seed {a.seed}, first {a.per_seat} per seat, "
          f"{a.rollouts} rollouts each): after - before = {mean:+.1f} points (standard error "
          f"{se:.1f}; 95% interval {mean - 1.96 * se:+.1f} to {mean + 1.96 * se:+.1f}); "
          f"spread of one draw's luck {gaps.std(ddof=1):.0f}")


def equity(a):
    """Print the table's predictions against the games' outcomes."""
    table = load_table(a.table)
    predicted, observed = check_against_games(table, a.rules, "expert", a.games, a.seed,
                                              a.threads)
    print(f"{len(predicted)} deals of {a.games} games (seed {a.seed}): mean predicted "
          f"{predicted.mean():.3f}, observed {observed.mean():.3f}")
    print("| predicted | deals | mean predicted | observed |")
    print("|---|---|---|---|")
    for lo, hi, n, mean_p, mean_o in calibration_rows(predicted, observed):
        print(f"| {lo:.1f}-{hi:.1f} | {n:,} | {mean_p:.3f} | {mean_o:.3f} |")


def main():
    """Parse the command and run it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("check", choices=("luck", "equity"))
    ap.add_argument("--rules", default="modern-american")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--rollouts", type=int, default=300)
    ap.add_argument("--per-seat", type=int, default=3)
    ap.add_argument("--table", default="mac-equity.json")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    (luck if a.check == "luck" else equity)(a)


if __name__ == "__main__":
    main()
