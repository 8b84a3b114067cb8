"""A short study: does freezing the pile early help `careful` against `greedy`?

One study (canasta_sim.study) with an arm per value of careful's ``freeze_at``, every arm on
the same deals (common random numbers); it prints careful's mean score margin per deal and,
against "never freeze", the paired effect with its 95% confidence interval, read from the
study's summary.json. The study folder also holds report.html with the plots.

    python examples/study.py                  # 20,000 deals per value, a minute or two
    python examples/study.py --deals 2000     # quicker, wider intervals
    python examples/study.py --out results/freeze   # keep the study folder there (resumable)

The seats: careful at 0 and 2 (side 0), greedy at 1 and 3 (side 1).
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile

import canasta_sim.study

VALUES = (4, 8, 12, 16)
NEVER = 999               # a pile never holds that many cards: never freeze


def spec(deals: int, seed: int) -> dict:
    """The study: the baseline never freezes; one swept arm per value of freeze_at."""
    return {
        "study": {"name": "freeze", "seed": seed, "deals": deals},
        "arms": [
            {"name": "never", "policies": f"careful(freeze_at={NEVER}),greedy"
                                          f",careful(freeze_at={NEVER}),greedy"},
            {"name": "freeze", "policies": "careful,greedy,careful,greedy",
             "sweep": "careful.freeze_at=" + ",".join(str(v) for v in VALUES)},
        ],
    }


def main(argv=None):
    """Run the study and print one line per value of freeze_at."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="study folder to keep (default: temporary)")
    args = parser.parse_args(argv)

    out = args.out or os.path.join(tempfile.mkdtemp(prefix="canasta-freeze-"), "freeze")
    canasta_sim.study.run(spec(args.deals, args.seed), out)
    with open(os.path.join(out, "summary.json")) as handle:
        summary = json.load(handle)
    means = {(m["metric"], m["arm"]): m for m in summary["means"]}
    effects = {(e["metric"], e["arm"]): e for e in summary["effects"]}
    print(f"{args.deals} deals per value, seed {args.seed}: careful (side 0) vs greedy")
    print("freeze_at  mean margin  vs never (paired, 95% CI)")
    for arm in summary["arms"]:
        name = arm["name"]
        margin = means[("score_diff", name)]["estimate"]
        label = "never" if name == "never" else f'{arm["sweep"]["careful.freeze_at"]:g}'
        effect = effects.get(("score_diff", name))
        versus = (f"{effect['estimate']:+8.1f} [{effect['ci_low']:+.1f}, {effect['ci_high']:+.1f}]"
                  if effect else "   (baseline)")
        print(f"{label:>9}  {margin:11.1f}  {versus}")
    print(f"report: {os.path.join(out, 'report.html')}")


if __name__ == "__main__":
    main()
