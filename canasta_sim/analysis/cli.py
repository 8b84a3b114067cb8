"""The ``canasta-sim analyze`` and ``canasta-sim equity-table`` commands (docs/analysis.md).

Every user mistake is a :class:`~canasta_sim.errors.BadInput`, printed by the main command
group as one line with exit status 2, before anything is written.
"""
from __future__ import annotations

import time

import click

from canasta_sim.errors import BadInput


def parse_seats(text, seats: int) -> list:
    """Seats from ``"0,2"`` (default: every seat)."""
    if text is None:
        return list(range(seats))
    try:
        found = sorted({int(x) for x in str(text).split(",")})
    except ValueError:
        found = []
    if not found or any(s < 0 or s >= seats for s in found):
        raise BadInput(f"--seats {text}: accepted: comma-separated seats 0..{seats - 1}")
    return found


def pick_deals(deals, which):
    """The deals of the trace to analyse: deal ``which`` (its place in the file, from 0) or
    every deal."""
    if which is None:
        return list(enumerate(deals))
    if which < 0 or which >= len(deals):
        raise BadInput(f"--deal {which}: accepted: 0..{len(deals) - 1} (the trace holds "
                       f"{len(deals)} deal{'s' if len(deals) != 1 else ''})")
    return [(which, deals[which])]


@click.command("analyze")
@click.argument("trace_path", metavar="TRACE.jsonl|POSITION.json")
@click.option("--deal", "deal", type=int, default=None,
              help="The deal to analyse: its place in the trace, from 0 (default: every deal).")
@click.option("--event", type=int, default=None,
              help="Analyse only the decision before this line of the deal (the start line "
                   "is 0).")
@click.option("--seats", default=None, metavar="S,...",
              help="Seats whose decisions are analysed (default: every seat).")
@click.option("--rollouts", "-n", type=int, default=1000, show_default=True,
              help="Rollouts per option (clearly worse options stop earlier).")
@click.option("--policy", default="expert", show_default=True,
              help="The policy every seat plays in the rollouts (careful, rush, builder, "
                   "expert, with parameters).")
@click.option("--truncate", type=int, default=0, show_default=True,
              help="Stop each rollout this many turns after the decision's turn and score "
                   "the deal as it stands (0: play every deal to its end).")
@click.option("--equity", "equity_path", default=None, metavar="FILE",
              help="An equity table (canasta-sim equity-table): values become chances of "
                   "winning the game; without it, deal points.")
@click.option("--marks", default=None, metavar="D,B,V",
              help="Loss thresholds of the marks doubtful, bad, very bad (default "
                   "25,50,100 points or 0.01,0.025,0.05 win chance).")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed of the rollouts (the same seed gives the same analysis).")
@click.option("--threads", "-t", type=int, default=None,
              help="Threads (default: every core).")
@click.option("--no-luck", is_flag=True, help="Skip the luck of the deal and of the draws.")
@click.option("--executor", "-e", default="threads", show_default=True,
              help="'threads' (this process) or 'dask' (one task per deal on a Dask "
                   "cluster, for whole matches); never changes the results.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Address of a running Dask scheduler (with --executor dask).")
@click.option("--workers", type=int, default=None,
              help="Worker processes of the LocalCluster --executor dask starts.")
@click.option("--out", "out", required=True, metavar="DIR",
              help="Folder for analysis.jsonl, summary.json and index.html.")
def analyze(trace_path, deal, event, seats, rollouts, policy, truncate, equity_path, marks,
            seed, threads, no_luck, executor, scheduler, workers, out):
    """Value every option of every decision of a traced deal by rollouts.

    The position may also come from a position file (JSON: what the deciding seat sees
    plus the public record, docs/analysis.md); then its one decision is analysed.

    For each decision of the chosen seats (the take or the draw, the going-out choice,
    the partner's answer, the discard) every option is played on from the same deals of
    the cards hidden from the seat, by --policy at every seat; the option played gets its
    loss against the best and a mark. Writes DIR/analysis.jsonl, DIR/summary.json (error
    rates per seat and decision, luck) and DIR/index.html (the viewer).

    \b
    Examples:
      canasta-sim replay --seed 7 --deals 0 --policies expert > deal.jsonl
      canasta-sim analyze deal.jsonl --seats 0 --out analysis/
      canasta-sim analyze deal.jsonl --event 12 --rollouts 4000 --out one/
    """
    from canasta_sim.study.execute import check_executor

    from . import deal as D
    from .equity import load_table
    from .families import deal_script
    from .position import read_trace
    from .rollout import Scale, rollout_setup
    from .viewer import write_viewer

    started = time.perf_counter()
    check_executor(executor, scheduler, workers)
    if is_position(trace_path):
        return analyze_position(trace_path, rollouts, policy, equity_path, marks, seed,
                                threads, out, started, truncate)
    deals = pick_deals(read_trace(trace_path), deal)
    if event is not None and len(deals) != 1:
        raise BadInput(f"--event {event} needs --deal (the trace holds {len(deals)} deals)")
    scripts = [(i, deal_script(evs)) for i, evs in deals]
    for _, script in scripts:
        script.check()
    first = scripts[0][1]
    chosen = parse_seats(seats, first.seats)
    scale = Scale("points") if equity_path is None else Scale("win", load_table(equity_path))
    if scale.unit == "win" and first.rules.num_sides != 2:
        raise BadInput(f"--equity with {first.rules.num_sides} sides: accepted: two sides")
    settings = D.Settings(rollout_setup(first.rules, policy, rollouts, seed, threads,
                                        truncate), scale, D.parse_marks(marks, scale.unit),
                          not no_luck)
    done = D.analyse_deals(scripts, settings, chosen, event, executor, scheduler, workers)
    meta = {"trace": str(trace_path), "deals": [i for i, _ in scripts], "seats": chosen,
            "rules": first.rules.canonical()}
    path = D.write_analysis(out, done, settings, meta)
    write_viewer(out, [s for _, s in scripts], done, settings)
    lines = sum(len(d["lines"]) for d in done)
    marked = sum(1 for d in done for ln in d["lines"] if ln["mark"])
    click.echo(f"{lines} decisions analysed ({marked} marked) -> {path} in "
               f"{time.perf_counter() - started:.1f} s", err=True)


def is_position(path) -> bool:
    """Whether the file is a position file (one JSON object with a hand), not a trace."""
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(1 << 16).lstrip()
    except OSError:
        return False
    return head.startswith("{") and '"hand"' in head and '"ev"' not in head


def analyze_position(path, rollouts, policy, equity_path, marks, seed, threads, out,
                     started, truncate=0):
    """``analyze POSITION.json``: the file's one decision valued into DIR/analysis.jsonl."""
    from . import deal as D
    from .equity import load_table
    from .families import read_position
    from .rollout import Scale, rollout_setup

    script = read_position(path)
    scale = Scale("points") if equity_path is None else Scale("win", load_table(equity_path))
    settings = D.Settings(rollout_setup(script.rules, policy, rollouts, seed, threads,
                                        truncate), scale, D.parse_marks(marks, scale.unit),
                          False)
    line = D.analyse_decision(script, script.decisions[0], settings, 0)
    if line is None:
        raise BadInput(f"{path}: the seat cannot go out in this position: accepted: a "
                       "going-out decision where a going-out plan exists")
    done = [{"lines": [line], "errors": D.error_rates([line]), "luck": []}]
    result = D.write_analysis(out, done, settings, {"position": str(path),
                                                    "rules": script.rules.canonical()})
    click.echo(f"1 decision analysed -> {result} in {time.perf_counter() - started:.1f} s",
               err=True)


@click.command("equity-table")
@click.option("--rules", "-r", default="classic", show_default=True, help="The rule set.")
@click.option("--policies", "-p", default="expert", show_default=True,
              help="The policies that play the games.")
@click.option("--games", "-g", type=int, default=2000, show_default=True,
              help="Games played to measure the deal-score distribution.")
@click.option("--step", type=int, default=250, show_default=True,
              help="Grid step in points.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Seed.")
@click.option("--threads", "-t", type=int, default=None, help="Threads (default: every core).")
@click.option("--out", "out", required=True, metavar="FILE",
              help="The table as JSON; its heatmap is written beside it (FILE with .png).")
def equity_table(rules, policies, games, step, seed, threads, out):
    """The chance that a side wins the game from each pair of cumulative scores.

    Games are played to the target; each deal's scores are kept with the minimums the
    sides met (R27), and the table is solved backwards from the target over that
    distribution of deal scores (Modern American: games to 8,500, its minimums by score,
    A24; a Dream Hand wins the game, A53). Writes FILE (JSON: scores, win, ci_low,
    ci_high) and a heatmap FILE.png.
    """
    from .equity import build_table, write_table

    started = time.perf_counter()
    table = build_table(rules, policies, games, step, seed, threads)
    paths = write_table(table, out)
    click.echo(f"equity table {len(table['scores'])}x{len(table['scores'])} from "
               f"{table['deals']} deals -> {' and '.join(map(str, paths))} in "
               f"{time.perf_counter() - started:.1f} s", err=True)

