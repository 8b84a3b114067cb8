"""The kernels' outputs, hashed: every policy, every preset, knob and parameter variants,
starting scores, whole games and decision-logged traces (a reference for speed work).

A change that only makes the kernels faster must leave every row and every trace bit for
bit as it was.  ``python tests/identity_outputs.py --write`` records the outputs of the
current kernels in ``tests/data/identity_outputs.json`` (sha256 of the int64 result rows,
of game rows and of trace buffers) and a few full traces in
``tests/data/identity_traces.jsonl``; ``--check`` compares (exit 1 on a difference, naming
each case).  ``--long`` adds 20,000 deals of every policy on every preset (checked here,
not by the test-suite).  tests/test_identity_outputs.py checks the short cases.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"
HASHES = DATA / "identity_outputs.json"
TRACES = DATA / "identity_traces.jsonl"

POLICIES = ("random", "greedy", "careful", "rush", "builder", "expert")
PRESETS = ("classic", "two-player", "three-player", "six-player", "six-player-3x2", "seed-a",
           "seed-b")
MIXED = ("expert", "greedy", "careful", "random", "builder", "rush")
KNOBS = (
    "classic(ask_permission=required)",
    "classic(ask_permission=never)",
    "classic(unmelded_pile_access=forbidden,top_card_counts_for_minimum=false)",
    "classic(last_card_red3_may_meld=true,empty_stock_forced_take=false)",
    "classic(red3_positive_requires=canasta,concealed_allows_final_discard=false)",
    "classic(one_card_pile_restriction=false,unfrozen_take_by_layoff=false,"
    "unfrozen_take_natural_plus_wild=false)",
    "classic(black3_card_value=100,max_wilds_per_meld=none)",
    "classic(red3_replacement_timing=first_turn,upcard_cover_set=wild_red3)",
    "classic(min_naturals_per_meld=1)",
    "classic(min_naturals_per_meld=3,wild_ratio_rule=half)",
    "classic(wild_ratio_rule=lt,canastas_to_go_out=2)",
    "classic(concealed_canasta_bonus=100,concealed_allows_pile_take=false)",
    "classic(draw_count=2,hand_size=13)",
    "classic(black_three_freezes=true,black_three_going_out_meld=false)",
    "classic(concealed_exempt_from_min_count=false)",
)
PARAMS = (
    "expert(danger=3,endgame_stock=20)",
    "careful(freeze_at=5,wild_hold=0,want_canastas=2)",
    "builder(go_out_margin=-1000,wild_hold=2)",
    "rush(min_pile_take=0)",
    "expert(answer_max_hand=0,go_out_margin=100000)",
)
SCORES = ((1600, 3100), (-500, 4990), (3000, 0))
SEED = 20261201
DEALS = 600                 # per short case
KNOB_DEALS = 250
GAMES = 6
TRACED = 2                  # decision-logged traces per policy and preset
LONG_DEALS = 20_000


def digest(*arrays) -> str:
    """sha256 of the arrays' bytes (as int64), with their shapes."""
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=np.int64)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:32]


def mixed_for(preset: str) -> str:
    """One policy per seat, every policy once where the table has room."""
    from canasta_sim.rules import parse_rules

    n = parse_rules(preset).num_players
    return ",".join(MIXED[i % len(MIXED)] for i in range(n))


def play(rules, policies, deals, seed=SEED, scores=None):
    """Result rows (int64, deals x layout.CLASSIC_NCOLS) of one plain run."""
    from canasta_sim.runner import play_range, prepare

    plan = prepare(deals, seed, rules, policies, scores)
    out = plan.new_rows(deals)
    play_range(plan, 0, out)
    return classic_columns(out)


def classic_columns(rows):
    """The result columns every layout fills (layout.CLASSIC_NCOLS): the cutthroat columns
    after them (lone_seat, formed_by) came later and are -1 and 0 elsewhere, which
    tests/test_rules_cutthroat.py checks."""
    from canasta_sim.kernels.game import layout

    return rows[..., :layout.CLASSIC_NCOLS]


def games(rules, policies, n=GAMES, seed=SEED):
    """Game, deal and extras rows of games 0..n-1."""
    from canasta_sim.runner import play_game_range, prepare

    plan = prepare(seed=seed, rules=rules, policies=policies, games=n)
    g = play_game_range(plan, 0, n)
    return g.games, classic_columns(g.deals), g.extras


def traces(rules, policies, deals=TRACED, seed=SEED):
    """Decision-logged trace buffers and rows of deals 0..deals-1."""
    from canasta_sim.runner import prepare
    from canasta_sim.trace import run_traced

    plan = prepare(deals, seed, rules, policies)
    out = []
    for d in range(deals):
        buf, row = run_traced(plan, d, decisions=True)
        out += [buf, classic_columns(row)]
    return out


def cases(long: bool = False):
    """(key, thunk giving the arrays to hash) for every case."""
    for preset in PRESETS:
        for pol in POLICIES + (mixed_for(preset),):
            yield f"deals/{preset}/{pol}", lambda p=preset, q=pol: [play(p, q, DEALS)]
            yield f"trace/{preset}/{pol}", lambda p=preset, q=pol: traces(p, q)
    for rules in KNOBS:
        for pol in POLICIES:
            yield f"knob/{rules}/{pol}", lambda p=rules, q=pol: [play(p, q, KNOB_DEALS)]
        yield f"trace/{rules}/mixed", lambda p=rules: traces(p, mixed_for("classic"), 1)
    for pol in PARAMS:
        for preset in ("classic", "two-player"):
            yield f"params/{preset}/{pol}", lambda p=preset, q=pol: [play(p, q, KNOB_DEALS)]
    for scores in SCORES:
        for pol in POLICIES:
            yield f"scores/{scores}/{pol}", \
                lambda s=scores, q=pol: [play("classic", q, KNOB_DEALS, scores=list(s))]
    for preset in ("classic", "two-player", "six-player", "seed-b"):
        for pol in POLICIES + (mixed_for(preset),):
            yield f"games/{preset}/{pol}", lambda p=preset, q=pol: list(games(p, q))
    if long:
        for preset in PRESETS:
            for pol in POLICIES:
                yield f"long/{preset}/{pol}", \
                    lambda p=preset, q=pol: [play(p, q, LONG_DEALS, seed=SEED + 1)]


FULL_TRACES = (("classic", "expert", 0), ("classic", "greedy", 1),
               ("six-player", "careful,builder,rush,expert,random,greedy", 0),
               ("two-player", "random", 0))


def full_traces() -> list:
    """JSON lines of a few whole traces (readable when a hash differs)."""
    from canasta_sim.trace import trace_lines

    lines = []
    for rules, pol, deal in FULL_TRACES:
        lines.append(json.dumps({"case": [rules, pol, deal]}))
        lines += list(trace_lines(rules, SEED, deal, deal + 1, pol))
    return lines


def compute(long: bool = False, only=None) -> dict:
    """Every case's hash."""
    return {key: digest(*thunk()) for key, thunk in cases(long)
            if only is None or key in only}


def compare(want: dict, have: dict) -> list:
    """The keys whose hashes differ (or are missing from ``have``)."""
    return [k for k in want if have.get(k) != want[k]]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="record the references")
    ap.add_argument("--check", action="store_true", help="compare with the references")
    ap.add_argument("--long", action="store_true", help="also the 20,000-deal cases")
    args = ap.parse_args(argv)
    have = compute(args.long)
    lines = full_traces()
    if args.write:
        DATA.mkdir(exist_ok=True)
        old = json.loads(HASHES.read_text()) if HASHES.exists() else {}
        if not args.long:
            have.update({k: v for k, v in old.items() if k.startswith("long/")})
        HASHES.write_text(json.dumps(have, indent=1, sort_keys=True) + "\n")
        TRACES.write_text("\n".join(lines) + "\n")
        print(f"wrote {len(have)} hashes and {len(lines)} trace lines")
        return 0
    want = json.loads(HASHES.read_text())
    if not args.long:
        want = {k: v for k, v in want.items() if not k.startswith("long/")}
    bad = compare(want, have)
    if TRACES.read_text() != "\n".join(lines) + "\n":
        bad.append("full traces")
    for k in bad:
        print("DIFFERS:", k)
    print(f"{len(want) - len(bad)} of {len(want)} cases identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
