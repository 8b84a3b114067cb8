"""The ``canasta-sim study ...`` and ``canasta-sim compare`` commands.

Every user mistake is a :class:`~canasta_sim.errors.BadInput`, which the main command
group prints as one line with exit status 2, before anything is written.
"""
from __future__ import annotations

import json
import os
import sys
import time

import click

from canasta_sim.errors import BadInput

EXECUTOR_HELP = ("Where the shards are played: 'threads' (this process, every core; the "
                 "default) or 'dask' (a LocalCluster of worker processes on this machine, or "
                 "the cluster of --scheduler). Never changes the results.")


def _executor_options(command):
    """The options shared by 'study run' and 'compare'."""
    options = [
        click.option("--executor", "-e", default="threads", show_default=True,
                     help=EXECUTOR_HELP),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="Address of a running Dask scheduler ('dask scheduler' prints it); "
                          "implies --executor dask."),
        click.option("--workers", type=int, default=None,
                     help="Worker processes of the LocalCluster that --executor dask starts "
                          "(default: every core)."),
        click.option("--threads", "-t", type=int, default=None,
                     help="Threads of --executor threads (default: every core)."),
        click.option("--quiet", "-q", is_flag=True,
                     help="No progress bar (it is also off when stderr is not a terminal)."),
        click.option("--no-report", is_flag=True,
                     help="Do not write summary.json and the report at the end."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _progress(quiet) -> bool:
    """Whether to show the progress bar."""
    return not quiet and sys.stderr.isatty()


def _ready_kernels(show: bool) -> None:
    """Load or compile the kernels before the bar starts (said on stderr when shown; a
    compile is said with its seconds in any case)."""
    from canasta_sim import _cache
    from canasta_sim.warm import warm

    if show:
        click.echo("canasta-sim: loading the kernels (the first run on a machine compiles "
                   f"them, {_cache.COMPILE_TIME})...", err=True)
    warm()
    _cache.say_compiled()


@click.group()
def study():
    """Studies: several arms (rule sets, policies, parameters) on the same deals.

    A study is a folder: the frozen spec (study.toml), a manifest and a Parquet
    dataset of shards (data/arm=NAME/part-FIRST-COUNT.parquet). Running the same
    command again resumes it. The spec format: docs/studies.md.

    \b
    Examples:
      canasta-sim study run examples/b3f.toml --out results/b3f
      canasta-sim study status results/b3f
      canasta-sim study report results/b3f
    """


@study.command("run")
@click.argument("spec_path", metavar="SPEC.toml")
@click.option("--out", "-o", required=True, metavar="DIR",
              help="The study folder: new, or the folder of this very study to resume.")
@click.option("--shard", default=None, metavar="I/N",
              help="Play only every N-th shard starting with the I-th (1 <= I <= N), with no "
                   "manifest and no report: for Slurm arrays or GNU parallel; a later run "
                   "without --shard collects them and writes the report.")
@click.option("--sprt", default=None, metavar="METRIC:H0,H1",
              help="Stop early by a sequential test (adds an [sprt] table to the spec).")
@_executor_options
def study_run(spec_path, out, shard, sprt, executor, scheduler, workers, threads, quiet,
              no_report):
    """Play the study of SPEC.toml into the folder --out (or resume it there).

    Finished shards are kept, missing or half-written ones are played; a folder made
    from another spec or other kernels is refused. Ctrl-C, SIGTERM or SIGHUP stop it
    cleanly (exit 130; the shards done so far are kept).

    \b
    Examples:
      canasta-sim study run examples/b3f.toml --out results/b3f
      canasta-sim study run examples/b3f.toml --out results/b3f --executor dask --workers 2
      canasta-sim study run examples/b3f.toml --out results/b3f --scheduler tcp://10.0.0.5:8786
      canasta-sim study run examples/b3f.toml --out results/b3f --shard 3/8
    """
    from canasta_sim.study.spec import load_spec_file

    spec = load_spec_file(spec_path)      # a path, whatever it holds (a newline too)
    if sprt is not None:
        spec = _with_sprt(spec, sprt)
    if scheduler:
        executor = "dask"
    _run_and_say(spec, out, executor, scheduler, workers, threads, quiet, no_report, shard)


def _with_sprt(spec, text):
    """The spec with an [sprt] table from --sprt METRIC:H0,H1."""
    from canasta_sim.study.spec import parse_spec, parse_sprt_option

    data = spec.to_dict()
    data["sprt"] = parse_sprt_option(text)
    return parse_spec(data)


def _run_and_say(spec, out, executor, scheduler, workers, threads, quiet, no_report,
                 shard=None):
    """Run a study and print what was done and where the report is."""
    from canasta_sim import runner
    from canasta_sim.study import execute, store

    store.check_out_dir(out)
    execute.check_executor(executor, scheduler, workers)
    execute.parse_slice(shard)
    if executor == "threads":
        runner.check_threads(threads)
    from canasta_sim import _cache

    progress = _progress(quiet)
    start, compiled = time.perf_counter(), _cache.compile_seconds()
    _ready_kernels(progress)
    ready = time.perf_counter() - start
    if not no_report and shard is None:
        execute.check_study_extra()  # before playing, so a long run never fails at its report
    playing = time.perf_counter()
    study = execute.run(spec, out, executor=executor, threads=threads, scheduler=scheduler,
                        workers=workers, shard=shard, progress=progress, report=False)
    playing = time.perf_counter() - playing
    _say_replay_check(study.run_info.get("replay_check") or {})
    info = execute.status(out)
    if shard is not None:
        click.echo(f"slice {shard} of {out}: done; {info['missing_units']} "
                   f"{info['unit']}s of the study are still missing")
        return study
    if not info["complete"]:
        click.echo(f"{out}: {info['missing_units']} {info['unit']}s still missing")
        return study
    if not no_report:
        from canasta_sim.study.report import main_table
        from canasta_sim.study.summary import load_summary
        from canasta_sim.study.summary import report as write_report

        click.echo("canasta-sim: writing the report (summary.json, report.md, report.html, "
                   "plots)...", err=True)
        writing = time.perf_counter()
        write_report(study)
        click.echo(main_table(load_summary(out)))
        writing = time.perf_counter() - writing
        click.echo(f"report: {os.path.join(out, 'report.html')} (and report.md, summary.json); "
                   + _times(time.perf_counter() - start, ready,
                            _cache.compile_seconds() - compiled, playing, writing))
    return study


def _times(total: float, ready: float, compiled: float, playing: float,
           writing: float) -> str:
    """Where a run's seconds went, for its closing line: '2.1 min in all: 97 s compiling the
    kernels, 28.0 s playing, 3.1 s writing the report'; without a compile, the seconds of
    loading them from the cache (``ready``) instead."""
    from canasta_sim import _cache

    parts = [_cache.seconds_compiling(compiled) if compiled > 0 else
             f"{ready:.1f} s loading the kernels"]
    parts += [f"{playing:.1f} s playing", f"{writing:.1f} s writing the report"]
    return f"{_duration(total)} in all: " + ", ".join(parts)


@study.command("status")
@click.argument("folder", metavar="DIR")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
def study_status(folder, as_json):
    """Say what is done and missing in a study folder and how long the rest should take."""
    from canasta_sim.study import execute

    info = execute.status(folder)
    if as_json:
        click.echo(json.dumps(info, indent=1))
        return
    click.echo(f"study {info['name']} in {info['root']} (spec {info['spec_hash']})")
    for arm in info["arms"]:
        rot = arm["rotations"]
        seeds = (f" ({arm['units_done']:,}/{arm['units']:,} seeds x {rot} rotations)"
                 if rot > 1 else "")
        click.echo(f"  {arm['arm']}: {arm['shards_done']}/{arm['shards']} shards, "
                   f"{arm['units_done'] * rot:,}/{arm['units'] * rot:,} {info['unit']}s"
                   f"{seeds}")
    _say_integrity(info)
    sprt = info.get("sprt")
    if sprt and sprt.get("decision") in ("H0", "H1"):
        click.echo(f"stopped by the sequential test: {sprt['decision']} accepted after "
                   f"{sprt['waves']} waves (LLR {sprt['llr']:.2f})")
    if info["complete"]:
        click.echo("complete")
    else:
        eta = info["eta_seconds"]
        left = f"about {_duration(eta)}" if eta is not None else "unknown (no shard timed yet)"
        click.echo(f"missing: {info['missing_units']:,} {info['unit']}s; time left: {left}")


def _say_integrity(info, err=False) -> None:
    """The damaged shards by name, and how many carry no checksum (written before them)."""
    from canasta_sim.study.report import visible

    for line in info.get("damaged") or []:
        click.echo(f"damaged: {visible(line)}; 'study run' plays it again", err=err)
    if info.get("unverified"):
        click.echo(f"no checksum recorded: {info['unverified']} shards (written before "
                   "canasta-sim recorded checksums); 'study run' verifies them by playing "
                   "them again", err=err)


def _say_replay_check(found) -> None:
    """How the shards written before checksums compared with their replay (stderr)."""
    differed = found.get("differed") or []
    if found.get("same") or differed:
        click.echo(f"canasta-sim: {found.get('same', 0) + len(differed)} shards written "
                   f"before checksums were played again: {found.get('same', 0)} matched"
                   + (f", {len(differed)} differed (they were damaged): "
                      + ", ".join(differed) if differed else ""), err=True)


def _duration(seconds: float) -> str:
    """Seconds as '42 s', '3.5 min' or '2.1 h'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


@study.command("report")
@click.argument("folder", metavar="DIR")
def study_report(folder):
    """Write DIR/summary.json, DIR/report.md, DIR/report.html and DIR/plots/ from the shards
    on disk (the complete ranges of every arm), and print the main table."""
    from canasta_sim.study.report import main_table
    from canasta_sim.study.summary import load_summary, report

    paths = report(folder)
    summary = load_summary(folder)
    click.echo(main_table(summary))
    _say_integrity({"damaged": summary["study"].get("damaged_shards"),
                    "unverified": summary["study"].get("unverified_shards")}, err=True)
    click.echo(f"written: {', '.join(paths[:3])} and {len(paths) - 3} more")


# --------------------------------------------------------------------------------------------
# compare: the one-line study
# --------------------------------------------------------------------------------------------

@click.command()
@click.option("--rules", "-r", multiple=True,
              help="A rule set per arm (repeat the option); one --rules applies to every arm.")
@click.option("--policies", "-p", multiple=True,
              help="Policies per arm (repeat); with several, each pair plays head to head in "
                   "a duplicate design; one --policies applies to every arm.")
@click.option("--deals", "-n", type=int, default=None,
              help="Deals played per arm (default 100000); a duplicate design plays them as "
                   "deal pairs (each seed both ways round), so N/2 seeds with two sides.")
@click.option("--games", "-g", type=int, default=None,
              help="Games played per arm instead of deals; a duplicate design plays them as "
                   "game pairs (each seed both ways round): --games 4000 is 2,000 pairs.")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Master seed.")
@click.option("--design", type=click.Choice(["crn", "duplicate"]), default=None,
              help="crn for rule arms, duplicate for policy arms (the defaults).")
@click.option("--shard-size", type=int, default=None,
              help="Deals (games) per shard (default 65536 deals, 2048 games).")
@click.option("--sprt", default=None, metavar="METRIC:H0,H1",
              help="Stop as soon as a sequential test decides, e.g. score_diff:0,10 or "
                   "win_rate:0.50,0.53 (with --alpha, --beta).")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="SPRT: the chance of accepting H1 when H0 holds.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="SPRT: the chance of accepting H0 when H1 holds.")
@click.option("--wave-size", type=int, default=None, metavar="N",
              help="SPRT: deals (games) between two looks at the test (default 200 deals, "
                   "20 games); smaller looks more often, so a large effect stops sooner.")
@click.option("--out", "-o", required=True, metavar="DIR", help="The study folder.")
@_executor_options
def compare(rules, policies, deals, games, seed, design, shard_size, sprt, alpha, beta,
            wave_size, out, executor, scheduler, workers, threads, quiet, no_report):
    """The one-line study: compare rule sets (or policies) on the same deals.

    Several --rules make rule arms (the first is the baseline; crn design: every arm
    plays the same deals). Several --policies make a policy tournament: every pair of
    policies plays head to head, each deal or game also with the sides swapped
    (duplicate design). Writes the spec to DIR/study.toml, runs it as a study
    (resumable, any executor) and prints the main table.

    \b
    Examples:
      canasta-sim compare --rules classic --rules 'classic(black_three_freezes=true)' \\
          --deals 100000 --seed 1 --out results/b3f
      canasta-sim compare --policies expert --policies careful --games 4000 \\
          --out results/expert-careful
      canasta-sim compare --policies expert --policies careful --games 20000 \\
          --sprt win_rate:0.50,0.53 --out results/expert-careful-sprt
    """
    from canasta_sim.study.spec import parse_spec, parse_sprt_option

    data = compare_spec(rules, policies, deals, games, seed, design, shard_size, out)
    if sprt is not None:
        data["sprt"] = parse_sprt_option(sprt, alpha, beta, wave_size=wave_size)
    elif wave_size is not None:
        raise BadInput(f"--wave-size {wave_size} is given without --sprt: accepted: "
                       "--wave-size with --sprt METRIC:H0,H1")
    spec = parse_spec(data)
    if scheduler:
        executor = "dask"
    _run_and_say(spec, out, executor, scheduler, workers, threads, quiet, no_report)


def compare_spec(rules, policies, deals, games, seed, design, shard_size, out) -> dict:
    """The spec data of a ``compare`` command line."""
    rules = list(rules) or ["classic"]
    policies = list(policies) or ["greedy"]
    if len(rules) > 1 and len(policies) > 1:
        raise BadInput(f"{len(rules)} --rules and {len(policies)} --policies are given: "
                       "accepted: several of one of them and at most one of the other")
    if deals is not None and games is not None:
        raise BadInput("--deals and --games are both given: accepted: one of them")
    study = {"name": _study_name(out), "seed": seed}
    key = "games" if games is not None else "deals"
    count = games if games is not None else deals if deals is not None else 100000
    if shard_size is not None:
        study["shard_size"] = shard_size
    study["design"] = design or ("duplicate" if len(policies) > 1 else "crn")
    # --games N (--deals N) plays N games (deals) per arm in every design, as the spec's
    # games (deals) count them: a duplicate design plays N / sides seeds, each once per
    # rotation of the sides (checked here so that the error names the option)
    if study["design"] == "duplicate":
        _check_whole_seeds(count, key, rules[0])
    study[key] = count
    _check_something_to_compare(rules, policies)
    if len(policies) > 1:
        arms = _policy_arms(policies, rules[0], study["design"])
    else:
        arms = [{"name": _arm_name(r, i), "rules": r, "policies": policies[0]}
                for i, r in enumerate(rules)]
    _unique_names(arms)
    return {"study": study, "arms": arms}


def _check_something_to_compare(rules, policies) -> None:
    """BadInput unless the command line names two or more different rule sets or policies
    (one arm, or the same one twice, has nothing to compare)."""
    from canasta_sim.policies import parse_policies
    from canasta_sim.rules import parse_rules

    accepted = ("accepted: two or more different rule sets (--rules A --rules B) or policies "
                "(--policies A --policies B)")
    if len(rules) < 2 and len(policies) < 2:
        raise BadInput(f"compare has nothing to compare (one rule set, {rules[0]!r}, and one "
                       f"policy, {policies[0]!r}): {accepted}")
    if len(rules) > 1:
        option, texts = "--rules", rules
        same = [parse_rules(r).canonical() for r in rules]
    else:
        rule_set = parse_rules(rules[0])
        option, texts = "--policies", policies
        same = [_playing(parse_policies(p, rule_set.num_players, rule_set.num_sides))
                for p in policies]
    for i, key in enumerate(same):
        if key in same[:i]:
            first = texts[same.index(key)]
            raise BadInput(f"{option} {texts[i]!r} is the same as {option} {first!r}: there is "
                           f"nothing to compare between them: {accepted}")


def _check_whole_seeds(count, key, rules) -> None:
    """BadInput unless ``count`` games (deals) per arm split into seeds played once per
    rotation of the sides (two sides: game pairs), as a duplicate design plays them."""
    from canasta_sim.rules import parse_rules

    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise BadInput(f"--{key} {count!r} is not accepted: accepted: a whole number >= 1")
    sides = parse_rules(rules).num_sides
    if count % sides:
        low = max(sides, count - count % sides)
        pairs = "pairs" if sides == 2 else f"groups of {sides}"
        raise BadInput(f"--{key} {count} cannot be split into {key[:-1]} {pairs}: a duplicate "
                       f"design plays every seed once per rotation of the {sides} sides: "
                       f"accepted: a multiple of {sides}, e.g. --{key} {low} or "
                       f"--{key} {low + sides}")


def _playing(parsed) -> tuple:
    """What parse_policies' (names, ids, params) play: each seat's policy (a user policy by
    its name) and parameter values, so careful(freeze_at=8) is careful (8 is its default)."""
    names, ids, params = parsed
    return tuple((name.split("(")[0], int(ids[seat]), tuple(params[seat].tolist()))
                 for seat, name in enumerate(names))


def _policy_arms(policies, rules, design) -> list:
    """Duplicate: one arm per pair of policies (A on side 0); crn: one arm per policy."""
    import itertools

    from canasta_sim.policies import split_top_level
    from canasta_sim.rules import parse_rules
    from canasta_sim.strength import seats_for

    if design == "crn":
        return [{"name": _arm_name(p, i), "rules": rules, "policies": p}
                for i, p in enumerate(policies)]
    rule_set = parse_rules(rules)
    for text in policies:
        if len(split_top_level(text)) > 1:
            raise BadInput(f"--policies {text!r} names {len(split_top_level(text))} policies: "
                           "accepted: one policy per --policies in a match (it plays every "
                           "seat of its side), e.g. --policies expert --policies careful")
    arms = []
    for a, b in itertools.combinations(policies, 2):
        seats = seats_for(a, b, rule_set.num_players, rule_set.num_sides)  # b: other sides
        arms.append({"name": _match_name(a, b), "rules": rules, "policies": seats})
    return arms


def _match_name(a: str, b: str) -> str:
    """``A-vs-B`` within ARM_NAME_LIMIT: when too long, each side is cut (with its digest)
    to its share, so both policies still show: expert.danger-2.84.e.1a2b3c4d-vs-expert."""
    name_a, name_b = _arm_name(a, 0), _arm_name(b, 1)
    room = ARM_NAME_LIMIT - len("-vs-")
    if len(name_a) + len(name_b) > room:
        share_b = min(len(name_b), room // 2)
        name_a = _fit_name(name_a, a, room - share_b)
        name_b = _fit_name(name_b, b, room - len(name_a))
    return f"{name_a}-vs-{name_b}"


def _arm_name(text: str, index: int) -> str:
    """An arm name from a rule set or policy text: classic(a=1,b=x) -> classic.a-1.b-x; a
    user policy goes by its function's name: my_policy.py:mine(p=2) -> mine.p-2."""
    import re

    from canasta_sim.user_policy import looks_like_file

    name = text.strip()
    if looks_like_file(name):
        name = name.split(":", 1)[1].split("@", 1)[0] + (
            name[name.index("("):] if "(" in name else "")
    name = name.replace("(", ".").replace(")", "").replace(",", ".").replace("=", "-")
    name = re.sub(r"[^A-Za-z0-9_.+-]", "_", name).strip("._-")
    return _fit_name(name, text) if name else f"arm{index}"


ARM_NAME_LIMIT = 80  # characters of an arm name (canasta_sim.study.spec.ARM_NAME)


def _fit_name(name: str, text: str, limit: int = ARM_NAME_LIMIT) -> str:
    """``name`` as it is when it fits in ``limit`` characters, else cut with a short digest
    of ``text`` (what it was made from) appended, so that two long texts that share their
    start still get two names: expert.danger-2.84.endgame_stock-19.1a2b3c4d."""
    import hashlib

    if len(name) <= limit:
        return name
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return name[:limit - len(digest) - 1].rstrip("._-") + "." + digest


def _study_name(out) -> str:
    """A study name from the output folder's name."""
    return _arm_name(os.path.basename(os.path.normpath(out)) or "study", 0) or "study"


def _unique_names(arms) -> None:
    """Make arm names unique by numbering repeats (the same text given twice)."""
    seen = {}
    for arm in arms:
        base = arm["name"]
        if base in seen:
            seen[base] += 1
            arm["name"] = f"{base}.{seen[base]}"
        else:
            seen[base] = 1


@study.command("bench")
@click.option("--deals", "-n", type=click.IntRange(1), default=1_000_000, show_default=True,
              help="Deals per arm.")
@click.option("--arms", type=click.IntRange(1, 6), default=4, show_default=True,
              help="Rule-set arms (greedy at every seat).")
@click.option("--repeat", type=click.IntRange(1), default=3, show_default=True,
              help="Timed runs of each command; medians are reported.")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="Master seed.")
@click.option("--memory", is_flag=True,
              help="Also measure the peak RSS of study run at --deals and ten times as many.")
@click.option("--csv", "csv_path", default=os.path.join("results", "bench", "study.csv"),
              show_default=True, help="CSV file for the results ('' for none).")
def study_bench(deals, arms, repeat, seed, memory, csv_path):
    """Time 'study run' against 'simulate' of as many deals, and 'study report'.

    Whole processes as a user runs them, interleaved run by run; prints medians with
    min and max and the ratio study/simulate paired by run.

    \b
    Examples:
      canasta-sim study bench
      canasta-sim study bench --deals 200000 --repeat 5 --memory
    """
    from canasta_sim import results
    from canasta_sim.benchmarks import study as bench

    if csv_path:
        os.makedirs(os.path.dirname(csv_path) or ".", exist_ok=True)
        results.check_writable(csv_path)
    lines = bench.run(deals, arms, repeat, seed, memory, say=click.echo)
    if csv_path:
        click.echo(f"written {bench.write_csv(lines, csv_path, deals, arms)}")
