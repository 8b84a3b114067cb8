"""Modern American's rows, hashed: every policy on the family's rule sets (a reference for
speed work, docs/performance.md).

    python -m benchmarks.american_identity --write   # record the current kernels' hashes
    python -m benchmarks.american_identity           # compare (exit 1 naming each change)

Each case plays 3,000 deals from seed 5 on one thread (the rows of
``canasta-sim simulate --rules R --policies P --deals 3000 --seed 5``) and hashes the rows
as a pandas frame; the hashes live in ``benchmarks/american_identity.json``.  A change that
only makes the family faster must leave every hash as it was.
"""
import argparse
import hashlib
import json
import sys
from pathlib import Path

HASHES = Path(__file__).with_name("american_identity.json")
POLICIES = ("random", "greedy", "careful", "rush", "builder", "expert")
RULES = (
    "modern-american",
    "modern-american-pagat",
    "modern-american(ask_permission=required,mac_talon_source=set_aside,mac_rule_of_five=false,"
    "mac_allow_oversize_when_going_out=true,mac_threes_timing=after_deal,"
    "mac_dead_rank_scope=own)",
)
DEALS = 3000
SEED = 5


def rows_hash(rules, policy):
    """sha256 of the rows of one case, as pandas reads them (no metadata, no timing)."""
    import pandas as pd

    import canasta_sim

    frame = canasta_sim.simulate(deals=DEALS, seed=SEED, rules=rules, policies=policy,
                                 threads=1).to_pandas()
    frame = frame.drop(columns=[c for c in frame.columns if "time" in c or "elapsed" in c])
    digest = pd.util.hash_pandas_object(frame, index=True).values.tobytes()
    return hashlib.sha256(digest + ",".join(frame.columns).encode()).hexdigest()


def all_hashes():
    """Every case's hash, keyed ``rules | policy``."""
    out = {}
    for rules in RULES:
        for policy in POLICIES:
            out[f"{rules} | {policy}"] = rows_hash(rules, policy)
            print(f"{policy:8s} {rules}", flush=True)
    return out


def main(argv=None):
    """Write or check the hashes; exit 1 when a case differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the current hashes")
    args = parser.parse_args(argv)
    got = all_hashes()
    if args.write:
        HASHES.write_text(json.dumps(got, indent=1) + "\n")
        print(f"wrote {len(got)} hashes to {HASHES}")
        return 0
    want = json.loads(HASHES.read_text())
    bad = [case for case in want if got.get(case) != want[case]]
    for case in bad:
        print(f"DIFFERS: {case}")
    print(f"{len(want) - len(bad)} of {len(want)} cases identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
