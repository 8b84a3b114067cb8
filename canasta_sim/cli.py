"""The ``canasta-sim`` command line: ``simulate`` deals to Parquet, ``replay`` deals as traces.

Every user mistake ends in one line ``canasta-sim: error: <message>`` on stderr
and exit status 2, before any deal is played and without leaving a file.
"""
from __future__ import annotations

import contextlib
import os
import sys
import time

import click

from canasta_sim import __version__
from canasta_sim._cache import COMPILE_TIME
from canasta_sim.errors import BadInput

PROG = "canasta-sim"
USAGE_ERROR = 2
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2

RULES_HELP = ("Rule set: a preset (classic, two-player, three-player, six-player, "
              "six-player-3x2, cutthroat, cutthroat-pagat, cutthroat-11, seed-a, seed-b; "
              "'canasta-sim rules list'), a canonical string such as "
              "'classic(black_three_freezes=true,hand_size=13)', or a .toml file with "
              "preset = \"...\" and knob = value lines (knobs: docs/knobs.md).")


def _playable_rules(ctx, param, value):
    """``--rules`` of a command that plays: refuse a rule family that cannot play yet before the
    command prints anything (docs/american.md); returns the text unchanged."""
    from canasta_sim.rules import refuse_unplayable

    refuse_unplayable(value, ctx.command.name if ctx.command else "")
    return value


POLICIES_HELP = ("Policy of every seat: one name for all seats ('greedy'), one per side "
                 "('expert,greedy': side 0 plays expert, side 1 greedy) or one per seat, "
                 "comma-separated ('expert,careful,expert,careful'); a name may set "
                 "parameters: 'careful(freeze_at=8,wild_hold=2)'. Accepted: random, greedy, "
                 "careful, rush, builder, expert, search (parameters: canasta-sim policies, "
                 "docs/policies.md), or your own as file.py:function "
                 "(docs/own-policy.md).")
SCORES_HELP = ("Each side's cumulative score before the deal, comma-separated, one per side "
               "(sets the initial-meld minimum, R27), e.g. '1500,-20'. Default: all 0.")
DEFAULT_OUT = os.path.join("results", "run.parquet")
SEED_HELP = "Master seed, 0..2**63-1; deal i of seed S is always the same deal, e.g. 42."


def _fail(message: str, code: int = USAGE_ERROR):
    """Print one error line on stderr and exit."""
    first_line = str(message).strip().splitlines()[0] if str(message).strip() else "error"
    click.echo(f"{PROG}: error: {first_line}", err=True)
    sys.exit(code)


class _Group(click.Group):
    """A click group whose errors are one line ``canasta-sim: error: ...`` with exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):
        """Run the command line; turn BadInput and usage errors into one-line errors."""
        _stop_on_signals()
        if sys.stdout is None:
            _fail(_CLOSED_STDOUT)
        try:
            rv = super().main(args, prog_name or PROG, complete_var, standalone_mode=False,
                              **extra)
        except _NO_ARGS_IS_HELP as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except BadInput as exc:
            _fail(str(exc))
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            _fail(exc.format_message().strip().splitlines()[0] + hint)
        except (click.exceptions.Abort, KeyboardInterrupt):
            _interrupted()
        except click.ClickException as exc:
            _fail(exc.format_message(), exc.exit_code)
        except BrokenPipeError:
            _quiet_broken_pipe()
        except OSError as exc:
            if _signals_received():
                _interrupted()
            _silence_stdout()
            _fail(_os_error_line(exc))
        except Exception:
            if _signals_received():  # a library turned the interrupt into another error
                _interrupted()
            raise
        finally:
            _reset_signals()
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx):
        """Run the command; a reader that closed stdout early (``| head -1``) ends it with
        status 0 (click alone would exit 1)."""
        with _quiet_on_broken_pipe():
            return super().invoke(ctx)

    def make_context(self, info_name, args, parent=None, **extra):
        """Parse the arguments (``--help`` prints here), quiet on a closed pipe as well."""
        with _quiet_on_broken_pipe():
            return super().make_context(info_name, args, parent, **extra)


@contextlib.contextmanager
def _quiet_on_broken_pipe():
    """Inside this block an EPIPE (the reader of stdout is gone) ends the run quietly with
    status 0; every other exception goes on."""
    import errno

    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
            _quiet_broken_pipe()
        raise


def _stop_on_signals():
    """Ctrl-C, SIGTERM and SIGHUP stop a run: temporary files are removed, exit 130.

    The signal is also remembered (canasta_sim._signals), so one that arrives while the
    kernels load or compile is never lost.
    """
    from canasta_sim import _signals

    _signals.install()


_CLOSED_STDOUT = ("standard output is closed: accepted: an open stdout, e.g. "
                  "'> traces.jsonl' or '| less'")


def _interrupted():
    """Say ``interrupted`` (once per process) and exit with status 130."""
    from canasta_sim import _signals

    _signals.say_interrupted()
    sys.exit(_signals.STOPPED_STATUS)


def _reset_signals():
    """Forget the signals of this command (the next in-process command starts clean)."""
    from canasta_sim import _signals

    _signals.reset()


def _signals_received() -> bool:
    """True if Ctrl-C, SIGTERM or SIGHUP arrived during this command."""
    from canasta_sim import _signals

    try:
        _signals.check()
    except KeyboardInterrupt:
        return True
    return False


def _os_error_line(exc: OSError) -> str:
    """One line for an operating-system error (a full disk, a closed stdout, ...)."""
    import errno

    what = exc.strerror or str(exc).strip().split("\n")[0] or type(exc).__name__
    if not exc.filename and _raised_writing_stdout(exc):
        return (f"cannot write to standard output: {what}: accepted: a stdout that takes "
                "the output (a file on a disk with room, a pipe, a terminal)")
    if not exc.filename:
        return f"{type(exc).__name__}: {what}"
    if exc.errno == errno.ENOSPC:
        fix = "accepted: a folder on a disk with room for the output"
    else:
        fix = "accepted: a writable file or folder (see docs/errors.md)"
    return f"cannot write {exc.filename!r}: {what}: {fix}"


def _raised_writing_stdout(exc: BaseException) -> bool:
    """Whether ``exc`` was raised while printing (inside click.echo or a write to stdout)."""
    import traceback

    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.name == "echo" and f"click{os.sep}" in frame.filename:
            return True
        if frame.name == "_write_lines" and frame.filename == __file__:
            return True
    return False


def _silence_stdout():
    """Point stdout at /dev/null, so the flush at exit cannot fail again after an error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _quiet_broken_pipe():
    """A reader closed stdout (``| head``): stop quietly."""
    _silence_stdout()
    sys.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name=PROG,
                      message="%(prog)s %(version)s")
def cli():
    """Simulate Canasta deals fast and reproducibly (rules: docs/rules.md).

    \b
    Examples:
      canasta-sim simulate --deals 100000 --seed 1 --out results/run.parquet
      canasta-sim simulate --rules two-player --policies greedy,random
      canasta-sim replay --seed 1 --deals 0:2 --pretty
    """


# --------------------------------------------------------------------------------------------
# simulate
# --------------------------------------------------------------------------------------------

@cli.command(no_args_is_help=False)
@click.option("--deals", "-n", type=int, default=None,
              help="Number of independent deals to play, >= 0, e.g. --deals 100000 "
                   "(default 10000 unless --games is given).")
@click.option("--games", "-g", type=int, default=None,
              help="Play whole games to the target score instead (R58-R60), e.g. --games "
                   "1000: writes one row per game to --out and one row per deal beside it "
                   "(results/g.parquet -> results/g.deals.parquet).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help=SEED_HELP)
@click.option("--rules", "-r", default="classic", show_default=True, help=RULES_HELP,
              callback=_playable_rules)
@click.option("--policies", "-p", default="greedy", show_default=True, help=POLICIES_HELP)
@click.option("--scores", default=None, metavar="S0,S1,...", help=SCORES_HELP)
@click.option("--out", "-o", default=DEFAULT_OUT, show_default=True,
              help="Parquet file to write, its name ending in .parquet; replaced atomically. "
                   "Its folder must exist, except the default folder results/, which is "
                   "created. E.g. --out results/classic.parquet.")
@click.option("--threads", "-t", type=int, default=None,
              help="Threads playing deals (default: every core of the machine); never "
                   "changes the results, e.g. --threads 1.")
@click.option("--chunk-size", "--batch-size", "chunk_size", type=int, default=None,
              help="Deals (or games) per chunk, written as one Parquet row group; changes "
                   "memory use and progress steps, never the results (default 65536 deals "
                   "or 4096 games), e.g. --chunk-size 8192.")
@click.option("--first-deal", type=int, default=0, show_default=True,
              help="Index of the first deal: --first-deal 1000000 --deals 1000000 plays deals "
                   "1000000..1999999, the same rows a single longer run gives them, so a "
                   "study can be split into parts.")
@click.option("--first-game", type=int, default=0, show_default=True,
              help="Index of the first game of a --games run (as --first-deal for deals).")
@click.option("--sweep", multiple=True, metavar="POLICY.PARAM=A:B:STEP",
              help="Play the same deals once per value of a policy parameter, e.g. --sweep "
                   "careful.freeze_at=4:16:2 (4, 6, ..., 16; or a list =4,8,12); each seat "
                   "playing that policy gets the value, and the result gets a column "
                   "careful__freeze_at (a parameter --policies sets is refused). Repeat "
                   "--sweep for every combination of several.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar (it is also off when stderr is not a terminal).")
def simulate(deals, games, seed, rules, policies, scores, out, threads, chunk_size, first_deal,
             first_game, sweep, quiet):
    """Play --deals deals (one row each) or --games games (one row per game, and the
    deals beside it) and write them to Parquet, the rows streamed chunk by chunk.

    Prints one summary line: deals (games), file, speed, mean deal score per side
    and the share of deals ended by going out (games won per side).

    \b
    Examples:
      canasta-sim simulate --deals 100000 --seed 7
      canasta-sim simulate --rules 'classic(black_three_freezes=true)' -o results/b3.parquet
      canasta-sim simulate --rules six-player --policies greedy,random,greedy,random,greedy,random
      canasta-sim simulate --scores 1500,3000 --deals 5000
      canasta-sim simulate --games 2000 --rules six-player --out results/g6.parquet
      canasta-sim simulate --policies 'expert,careful(freeze_at=12),expert,careful(freeze_at=12)'
      canasta-sim simulate --games 1000 --policies careful,greedy,careful,greedy \\
          --sweep careful.freeze_at=4:16:4 --out results/freeze.parquet
    """
    from canasta_sim import results, runner
    from canasta_sim import sweep as sweep_plans

    if deals is None and games is None:
        deals = 10000
    paths = [out] if games is None else [out, results.deals_path(out)]
    if out != DEFAULT_OUT:
        for path in paths:
            results.check_writable(path, suffix=".parquet")
    if chunk_size is not None:
        runner.check_chunk_size(chunk_size, games is not None)
    threads = runner.check_threads(threads)
    points = sweep_plans.prepare_sweep(sweep, deals, seed, rules, policies, scores,
                                  first_deal=first_deal, games=games, first_game=first_game)
    plan = points[0][0]
    if out == DEFAULT_OUT:
        _make_default_folder(os.path.dirname(DEFAULT_OUT))
        for path in paths:
            results.check_writable(path, suffix=".parquet")
    progress = not quiet and sys.stderr.isatty()
    compiled = _compiled_so_far()
    _ready_kernels(games is not None)
    start = time.perf_counter()
    tables = sweep_plans.iter_sweep_tables(points, chunk_size, progress, threads)
    if games is None:
        summary = _Summary(plan.rules.num_sides)
        results.write_parquet(summary.watch(tables), out)
        click.echo(_counting_compile(summary.line(plan.deals * len(points), out,
                                                  time.perf_counter() - start), compiled))
    else:
        summary = _GameSummary(plan.rules.num_sides)
        results.write_parquets(summary.watch(tables), paths)
        click.echo(_counting_compile(summary.line(paths, time.perf_counter() - start),
                                     compiled))


def _compiled_so_far() -> float:
    """The seconds this process has spent compiling kernels until now."""
    from canasta_sim import _cache

    return _cache.compile_seconds()


def _counting_compile(line: str, before: float) -> str:
    """A run's closing line, with the seconds it spent compiling the kernels when it
    compiled them (``before``: :func:`_compiled_so_far` when it began); the speed in the
    line is the simulation's own."""
    from canasta_sim import _cache

    words = _cache.compile_words(before)
    return f"{line} (after {words})" if words else line


def _make_default_folder(folder):
    """Create the default output folder (results/) if missing, or say how to fix it."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create the default output folder {folder!r}: {exc.strerror}; "
                       "accepted: run from a writable folder or give --out PATH.parquet") from None


def _ready_kernels(games=False):
    """Load (or, the first time on a machine, compile) the kernels a run needs, in the main
    thread and before the clock starts, so the speed in the summary is the simulation's own
    and Ctrl-C during a compile stops the run.  The compile line on stderr comes from the
    cache (canasta_sim._cache), and so does the line with its seconds once it is done."""
    from canasta_sim import _cache, _signals
    from canasta_sim.warm import warm_play_deals, warm_play_games

    (warm_play_games if games else warm_play_deals)()
    _signals.check()
    _cache.say_compiled()


def _value_counts(column) -> dict:
    """How often each value occurs in an Arrow column.  (Comparing the column with a Python
    value, or turning it into numpy, would make pyarrow import pandas, about a third of a
    second of a run that never needs it.)"""
    import pyarrow.compute as pc

    counts = pc.value_counts(column)
    return dict(zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist()))


class _Summary:
    """Running totals for the one-line summary, gathered while batches stream by."""

    def __init__(self, num_sides):
        """Start with zero deals for ``num_sides`` sides."""
        self.num_sides = num_sides
        self.score_sums = [0] * num_sides
        self.out_count = 0
        self.rows = 0

    def watch(self, tables):
        """Yield ``tables`` unchanged, adding each to the totals."""
        import pyarrow.compute as pc

        for table in tables:
            self.rows += table.num_rows
            if table.num_rows:
                for side in range(self.num_sides):
                    self.score_sums[side] += pc.sum(table[f"s{side}_score"]).as_py()
                reasons = pc.cast(table["end_reason"], "string")
                self.out_count += _value_counts(reasons).get("out", 0)
            yield table

    def line(self, deals, path, seconds):
        """``N deals -> path in T s (R deals/s); mean score ...; ended by going out P%``."""
        rows = max(self.rows, 1)
        means = ", ".join(f"s{k} {total / rows:.1f}" for k, total in enumerate(self.score_sums))
        rate = deals / seconds if seconds > 0 else float("inf")
        return (f"{deals} deals -> {path} in {seconds:.2f} s ({rate:,.0f} deals/s); "
                f"mean score per side: {means}; ended by going out: "
                f"{100 * self.out_count / rows:.1f}%")


class _GameSummary:
    """Running totals of a games run for its one-line summary."""

    def __init__(self, num_sides):
        """Start with zero games for ``num_sides`` sides."""
        self.num_sides = num_sides
        self.wins = [0] * num_sides
        self.games = 0
        self.deals = 0

    def watch(self, pairs):
        """Yield the (games, deals) table pairs unchanged, adding each to the totals."""
        for games, deals in pairs:
            self.games += games.num_rows
            self.deals += deals.num_rows
            winners = _value_counts(games["winner"])
            for side in range(self.num_sides):
                self.wins[side] += winners.get(side, 0)
            yield games, deals

    def line(self, paths, seconds):
        """``N games (D deals) -> paths in T s; wins per side ...; draws ...``."""
        games = max(self.games, 1)
        wins = ", ".join(f"s{k} {100 * w / games:.1f}%" for k, w in enumerate(self.wins))
        others = self.games - sum(self.wins)
        return (f"{self.games} games ({self.deals} deals, {self.deals / games:.1f} per game) -> "
                f"{' and '.join(paths)} in {seconds:.2f} s; games won: {wins}; "
                f"drawn or cut off: {others}")


# --------------------------------------------------------------------------------------------
# replay
# --------------------------------------------------------------------------------------------

@cli.command()
@click.option("--seed", "-s", type=int, default=0, show_default=True, help=SEED_HELP)
@click.option("--deals", "-d", "deal_range", default=None, metavar="A:B",
              help="Deals to replay, A:B meaning deals A to B-1 like a Python slice: "
                   "--deals 5:8 replays deals 5, 6 and 7; --deals 5 replays deal 5 alone.")
@click.option("--games", "-g", "game_range", default=None, metavar="A:B",
              help="Replay every deal of games A..B-1 of a --games run instead (same A:B "
                   "form); each start line carries its game.")
@click.option("--rules", "-r", default="classic", show_default=True, help=RULES_HELP,
              callback=_playable_rules)
@click.option("--policies", "-p", default="greedy", show_default=True, help=POLICIES_HELP)
@click.option("--scores", default=None, metavar="S0,S1,...", help=SCORES_HELP)
@click.option("--pretty", is_flag=True,
              help="Readable text instead of JSON Lines.")
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Write the deals to FILE as a viewer page (one HTML file, no server; "
                   "docs/analysis.md) instead of printing them.")
def replay(seed, deal_range, game_range, rules, policies, scores, pretty, html_path):
    """Print deals A..B-1 (or the deals of games A..B-1) move by move as a trace.

    JSON Lines by default, one event per line (the format: docs/trace.md); --pretty for
    readable text. Check traces with 'canasta-sim audit'.

    A trace shows every card that moved: the deal, red threes, draws, takes, melds,
    discards and the score. Deal i here is exactly row deal == i of a 'simulate' run
    with the same --seed, --rules, --policies and --scores; with --games, deal k of
    game g is row (game g, deal k) of 'simulate --games'.

    \b
    Examples:
      canasta-sim replay --seed 7 --deals 0:3
      canasta-sim replay --seed 7 --deals 12 --pretty
      canasta-sim replay --seed 7 --deals 0:100 --rules two-player > traces.jsonl
      canasta-sim replay --seed 7 --games 3 --pretty
    """
    from canasta_sim import runner

    if (deal_range is None) == (game_range is None):
        raise BadInput("give --deals A:B or --games A:B (one of them): accepted: e.g. "
                       "--deals 0:10 or --games 3")
    if game_range is not None:
        if scores is not None:
            raise BadInput(f"--scores {scores} is given with --games: accepted: no starting "
                           "scores, every game starts at 0 (R58)")
        first, end = runner.parse_deal_range(game_range, what="game range")
        plan = runner.prepare(seed=seed, rules=rules, policies=policies, games=end - first,
                              first_game=first)
    else:
        first, end = runner.parse_deal_range(deal_range)
        plan = runner.prepare(end - first, seed, rules, policies, scores, first_deal=first)
    from canasta_sim import trace

    names = ",".join(plan.names)
    if game_range is not None:
        events = trace.game_trace_events(plan.rules, plan.seed, first, end, names)
    else:
        scores_before = tuple(plan.scores_before[:plan.rules.num_sides].tolist())
        events = trace.trace_events(plan.rules, plan.seed, first, end, names, scores_before)
    if html_path is not None:
        from canasta_sim.analysis.viewer import write_replay_page

        click.echo(f"viewer -> {write_replay_page(html_path, events)}", err=True)
        return
    lines = trace.pretty_event_lines(events) if pretty else trace.event_lines(events)
    _write_lines(lines)


def _write_lines(lines):
    """Write text lines to stdout: a reader that stops early (``| head -1``) ends the run
    quietly with status 0; a closed or full stdout is a one-line error (exit 2)."""
    import errno

    if sys.stdout is None:
        raise BadInput(_CLOSED_STDOUT)
    write = sys.stdout.write
    try:
        for line in lines:
            write(line)
            write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_broken_pipe()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _quiet_broken_pipe()
        _silence_stdout()
        reason = exc.strerror or str(exc)
        raise BadInput(f"cannot write to standard output: {reason}: accepted: a stdout that "
                       "takes the output (a file on a disk with room, a pipe, a terminal)"
                       ) from None


# --------------------------------------------------------------------------------------------
# audit
# --------------------------------------------------------------------------------------------

@cli.command()
@click.argument("traces", nargs=-1, required=True, metavar="TRACE.jsonl...")
def audit(traces):
    """Check traces without trusting the engine: card by card and score by score.

    Reads JSON Lines traces (docs/trace.md; '-' for stdin), replays every deal with
    canasta-sim's own checker (canasta_sim/audit.py, which never calls the kernels)
    and prints one line per problem: cards that come from where they are not, cards
    that appear or vanish (R2), melds and hands against the score (R54-R56) and the
    canasta counts (R23); then 'deals=N problems=P'. Modern American deals are replayed
    against every rule of the family (A1-A54, canasta_sim/audit_american), each problem
    named by its rule. Exit status 0 if there are no problems, 1 if there are, 2 for a
    file that cannot be read.

    \b
    Examples:
      canasta-sim replay --seed 7 --deals 0:1000 > traces.jsonl
      canasta-sim audit traces.jsonl
      canasta-sim replay --seed 7 --deals 0:10 | canasta-sim audit -
    """
    from canasta_sim.audit import audit_stream, read_deals

    deals = problems = 0
    for name in traces:
        for number, problem in audit_stream(_counted(read_deals(_read_lines(name), name))):
            problems += 1
            click.echo(f"{name}: deal={number} {problem}")
        deals += _counted.last
    click.echo(f"deals={deals} problems={problems}")
    sys.exit(1 if problems else 0)


def _counted(items):
    """Yield ``items``, leaving their number in ``_counted.last``."""
    _counted.last = 0
    for item in items:
        _counted.last += 1
        yield item


_counted.last = 0


def _read_lines(name):
    """The lines of a text file, or of stdin for '-'; BadInput for one that cannot be read."""
    import stat

    if name == "-":
        yield from sys.stdin
        return
    try:
        mode = os.stat(name).st_mode
    except OSError as exc:
        raise BadInput(f"cannot read trace {name!r}: {exc.strerror}: accepted: an existing "
                       "JSON Lines file or '-' for stdin") from None
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):  # a device never ends
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file (a device?)"
        raise BadInput(f"cannot read trace {name!r}: it is {kind}: accepted: a JSON "
                       "Lines file, a pipe, or '-' for stdin")
    try:
        with open(name, encoding="utf-8") as handle:
            yield from handle
    except UnicodeDecodeError as exc:
        raise BadInput(f"trace {name!r} is not UTF-8 text (byte {exc.start}): accepted: a JSON "
                       "Lines file (docs/trace.md)") from None
    except OSError as exc:
        raise BadInput(f"cannot read trace {name!r}: {exc.strerror}") from None


# --------------------------------------------------------------------------------------------
# rules
# --------------------------------------------------------------------------------------------

@cli.group(cls=click.Group)
def rules():
    """List the rule-set presets, or show every knob of a rule set."""


@rules.command("list")
def rules_list():
    """Print each preset with a one-line description."""
    from canasta_sim.rules import PRESETS

    width = max(len(name) for name in PRESETS)
    for name, preset in PRESETS.items():
        click.echo(f"{name:{width}}  {preset.description}")


@rules.command("show")
@click.argument("rule_set", metavar="NAME|STRING|FILE", default="classic")
def rules_show(rule_set):
    """Print every knob of a rule set with its value and what it means; '*' marks values
    that differ from classic. Every knob's accepted values and sources: docs/knobs.md.

    \b
    Examples:
      canasta-sim rules show six-player
      canasta-sim rules show 'classic(wild_ratio_rule=le,hand_size=13)'
      canasta-sim rules show my-rules.toml
    """
    from canasta_sim.rules import KNOB_DOCS, KNOBS, parse_rules, preset_rules

    chosen = parse_rules(rule_set)
    classic = preset_rules("classic")
    click.echo(f"rule set: {chosen.canonical()}")
    width = max(len(name) for name in KNOBS)
    values = {name: knob.format(getattr(chosen, name)) for name, knob in KNOBS.items()}
    value_width = min(max(len(v) for v in values.values()), 30)
    for name in KNOBS:
        mark = "*" if getattr(chosen, name) != getattr(classic, name) else " "
        click.echo(f"{mark} {name:{width}}  {values[name]:{value_width}}  "
                   f"{KNOB_DOCS[name].meaning}")
    click.echo("(* differs from classic; every knob's values and sources: docs/knobs.md)")


# --------------------------------------------------------------------------------------------
# policies
# --------------------------------------------------------------------------------------------

@cli.command("policies")
def policies_cmd():
    """List the policies with their parameters, defaults and accepted ranges.

    Set parameters per seat: --policies 'expert,careful(freeze_at=12),expert,careful'.
    How each policy plays: docs/policies.md.
    """
    from canasta_sim.policies import describe

    for line in describe():
        click.echo(line)


@cli.command("check-policy")
@click.argument("policy")
@click.option("--against", "-a", default=None, metavar="POLICY",
              help="Seat this policy on the other side(s), the checked one on side 0 "
                   "(default: the checked policy at every seat).")
@click.option("--rules", "-r", default="classic", show_default=True, help=RULES_HELP,
              callback=_playable_rules)
@click.option("--deals", "-n", type=click.IntRange(1, 1_000_000), default=300,
              show_default=True, help="Deals played by the interface and repeat checks.")
@click.option("--positions", type=click.IntRange(1, 100_000), default=200, show_default=True,
              help="Turns replayed by the information check.")
@click.option("--traced", type=click.IntRange(1, 100_000), default=100, show_default=True,
              help="Deals traced and replayed against the rules (at most --deals).")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help=SEED_HELP)
@click.option("--decision-limit", type=float, default=10.0, show_default=True,
              metavar="SECONDS",
              help="Fail the interface check when one decision takes longer than this.")
def check_policy(policy, against, rules, deals, positions, traced, seed, decision_limit):
    """Check that POLICY keeps to the interface and plays fair; exit 1 if a check fails.

    POLICY is any policy text, usually your own: my_policy.py:mine or
    my_policy.py:mine(greed=2) (docs/own-policy.md). Four checks on real deals:

    \b
    interface    every answer is a legal option index, nothing raises and
                 no decision takes longer than --decision-limit (a compiled
                 policy that raised is played again as plain Python to show
                 the exception)
    repeatable   the same deals played again give the same rows
    information  turns replayed with the cards hidden from the seat
                 rearranged: its play must not change (docs/rules.md: what a seat may know)
    rules        traces replayed by canasta-sim's own referee, and audited
                 for card conservation and the score identity

    \b
    Examples:
      canasta-sim check-policy my_policy.py:mine
      canasta-sim check-policy 'my_policy.py:mine(greed=2)' --against expert
      canasta-sim check-policy my_policy.py:mine --rules seed-b --deals 1000
    """
    from canasta_sim import fairness
    from canasta_sim import policies as policy_registry
    from canasta_sim.rules import parse_rules

    fairness.check_decision_limit(decision_limit)
    rule_set = parse_rules(rules)
    seats = policy
    if against is not None:
        seats = ",".join(policy if s % rule_set.num_sides == 0 else against
                         for s in range(rule_set.num_players))
    policy_registry.parse_policies(seats, rule_set.num_players)
    _ready_kernels()
    click.echo(f"check-policy {policy} on {rule_set.canonical()}, seed {seed}")
    checks, rate = fairness.check_policy(seats, rule_set, deals, seed, positions, traced,
                                         decision_limit)
    for check in checks:
        click.echo(f"  {check.name:<12} {'ok    ' if check.ok else 'FAILED'} {check.detail}")
    if rate:
        click.echo(f"  speed        {rate:,.0f} deals/s on one thread (every seat's policy "
                   "included, compile excluded)")
    failed = [c.name for c in checks if not c.ok]
    click.echo("all checks passed" if not failed else f"failed: {', '.join(failed)}")
    if failed:
        raise SystemExit(1)


# --------------------------------------------------------------------------------------------
# strength
# --------------------------------------------------------------------------------------------

@cli.command()
@click.option("--policies", "-p", default="expert,careful,greedy,random", show_default=True,
              help="Policies to compare, strongest expected first, comma-separated; every "
                   "pair plays, e.g. 'builder,careful(freeze_at=12)'.")
@click.option("--games", "-g", type=click.IntRange(1), default=2000, show_default=True,
              help="Games per match of two policies, played as game pairs (each game seed "
                   "once with each policy on side 0): --games 4000 is 2,000 game pairs. At "
                   "three sides a multiple of 3: each seed in the 3 rotations.")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help=SEED_HELP)
@click.option("--rules", "-r", default="classic", show_default=True, help=RULES_HELP,
              callback=_playable_rules)
@click.option("--threads", "-t", type=int, default=None,
              help="Threads playing games (default: every core); never changes the results.")
@click.option("--csv", "csv_path", default=os.path.join("results", "strength", "strength.csv"),
              show_default=True, help="CSV file for the results ('' for none).")
def strength(policies, games, seed, rules, threads, csv_path):
    """Play every pair of policies head to head in full games; print a Markdown table.

    Both seats of a side play the same policy; each match of two policies plays
    --games games, half with each policy on side 0, on the same game seeds, so each
    game seed is a game pair (--games 4000: 2,000 game pairs). The table gives win
    rates (a draw counts half) with 95% confidence intervals from the game pairs
    (pentanomial), the share of deals ended by going out and by the stock, each
    policy's mean deal score and the Elo difference. A line then says whether each
    policy beat the next one significantly; with three policies or more, a last line
    gives one joint Elo ladder fitted to every match, with 95% intervals.

    At three sides (three-player, cutthroat) A plays one side against two sides of B,
    each game seed in the 3 rotations (--games a multiple of 3): the table gives A's win
    share (fair share 33.3%) and points per deal against the B sides' mean, with 95%
    intervals, and no Elo (docs/strength.md says why).

    \b
    Examples:
      canasta-sim strength
      canasta-sim strength --policies builder,expert --games 10000 --seed 7
      canasta-sim strength --rules cutthroat --policies expert,careful --games 1500
    """
    from canasta_sim import policies as policy_registry
    from canasta_sim import results, runner
    from canasta_sim import strength as strength_mod
    from canasta_sim.rules import parse_rules

    names = [p.strip() for p in policy_registry.split_top_level(policies)]
    if len(names) < 2:
        raise BadInput(f"policies={policies!r} names fewer than two policies: accepted: two "
                       "or more comma-separated policies, e.g. expert,careful")
    rule_set = parse_rules(rules)
    num_players = rule_set.num_players
    strength_mod.check_games(games, rule_set)
    canonical = [policy_registry.parse_policies(name, num_players)[0][0] for name in names]
    if rule_set.american:
        runner.check_american_policies(canonical)
    runner.check_seed(seed)
    threads = runner.check_threads(threads)
    if csv_path:
        os.makedirs(os.path.dirname(csv_path) or ".", exist_ok=True)
        results.check_writable(csv_path, suffix=".csv")
    _ready_kernels(games=True)
    click.echo(f"rules {rule_set.canonical()}, seed {seed}, "
               f"{strength_mod.games_words(games, rule_set.num_sides)}")
    click.echo(strength_mod.header(rule_set.num_sides))
    matches = strength_mod.play_all(names, games, seed, rules, threads, say=click.echo)
    holds = strength_mod.ordering_holds(matches, names)
    click.echo(f"ordering {' > '.join(names)}: "
               f"{'holds, every step significant' if holds else 'does NOT hold significantly'}")
    ladder = strength_mod.ladder_line(matches)
    if ladder:
        click.echo(ladder)
    if csv_path:
        strength_mod.write_csv(matches, csv_path, seed, parse_rules(rules).canonical())
        click.echo(f"written {csv_path}")


# --------------------------------------------------------------------------------------------
# tune
# --------------------------------------------------------------------------------------------

@cli.command(context_settings={"max_content_width": 100})
@click.argument("policy", metavar="POLICY")
@click.option("--params", "-P", required=True, metavar="NAME[=LO:HI],...",
              help="The parameters to tune, comma-separated, each optionally with the box "
                   "searched: 'freeze_at,danger=0:8,go_out_margin'. Default boxes: "
                   "freeze_at 4:40, min_pile_take 1:16, go_out_margin -500:2000, wild_hold "
                   "0:4, want_canastas 0:5, endgame_stock 0:30, answer_max_hand 0:150, "
                   "danger 0:12. The start (POLICY's value) must lie in its box.")
@click.option("--against", "-a", "against", default=None, metavar="POLICY",
              help="The opponent, every seat of the other side(s) (default: POLICY as "
                   "given, i.e. the starting parameters), e.g. --against builder.")
@click.option("--games", "-g", type=int, default=200, show_default=True,
              help="Games per measured point: an even number, games/2 game seeds each "
                   "played both ways round (three sides: a multiple of 3, each seed in the 3 "
                   "rotations). SPSA measures 2 points per iteration, CMA-ES --popsize.")
@click.option("--iterations", "-n", type=int, default=30, show_default=True,
              help="SPSA iterations or CMA-ES generations; each plays new game seeds.")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Master seed of every game (and of SPSA's signs, CMA-ES's samples): the "
                   "same command gives the same trajectory.")
@click.option("--rules", "-r", default="classic", show_default=True, help=RULES_HELP,
              callback=_playable_rules)
@click.option("--method", "-m", type=click.Choice(["spsa", "cmaes"]), default="spsa",
              show_default=True,
              help="SPSA (built in) or CMA-ES (the cma package: pip install "
                   "'canasta-sim[tune]').")
@click.option("--objective", type=click.Choice(["win", "score"]), default="win",
              show_default=True,
              help="What is maximised: the win rate (a draw counts half) or the mean "
                   "final-score margin per game.")
@click.option("--a", "gain_a", type=float, default=0.5, show_default=True,
              help="SPSA step gain: a_k = a/(k+1+A)^0.602, in fractions of each box per "
                   "unit of win rate (per 4000 points of margin).")
@click.option("--c", "gain_c", type=float, default=0.1, show_default=True,
              help="SPSA perturbation: c_k = c/(k+1)^0.101, a fraction of each box (at "
                   "least half a unit for whole numbers), at most 0.5.")
@click.option("--stability", "gain_A", type=float, default=None,
              help="SPSA's stability constant A (default: a tenth of --iterations).")
@click.option("--sigma", type=float, default=0.2, show_default=True,
              help="CMA-ES initial step size, a fraction of each box, in (0, 1].")
@click.option("--popsize", type=int, default=None,
              help="CMA-ES candidates per generation (default 4 + 3 ln d).")
@click.option("--verify-games", type=int, default=2000, show_default=True,
              help="Games of the final check, tuned against start on fresh seeds (0: none).")
@click.option("--verify-sprt", default=None, metavar="H0,H1",
              help="Stop the check early by a sequential test of the tuned win rate, e.g. "
                   "0.50,0.53 (then --verify-games is the most it plays, in waves of a "
                   "tenth).")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="SPRT: chance of accepting H1 when H0 holds.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="SPRT: chance of accepting H0 when H1 holds.")
@click.option("--out", "-o", default=None, metavar="DIR",
              help="Folder for trajectory.csv, trajectory.parquet and best.json (default "
                   "results/tune-POLICY); refused if it already holds a tuning, unless "
                   "--force.")
@click.option("--force", is_flag=True, help="Replace the tuning files in --out.")
@click.option("--threads", "-t", type=int, default=None,
              help="Threads playing games (default: every core); never changes the results.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar and no line per iteration (the bar is also off when "
                   "stderr is not a terminal).")
def tune(policy, params, against, games, iterations, seed, rules, method, objective, gain_a,
         gain_c, gain_A, sigma, popsize, verify_games, verify_sprt, alpha, beta, out, force,
         threads, quiet):
    """Tune POLICY's numeric parameters in paired games, then check the result.

    Each measured point is a duplicate match of POLICY(theta) against --against:
    --games/2 game seeds, each played once each way round. All points of an
    iteration share their seeds (so SPSA's theta+ and theta- differ by their
    parameters, not by their cards); each iteration gets new seeds. SPSA
    perturbs every parameter at once by +-c_k of its box, measures both sides and
    steps along the difference; CMA-ES ranks a population. Then the tuned
    parameters play the starting ones head to head on fresh seeds (game indices
    no iteration used): the win rate with its 95% interval from the game pairs,
    the Elo difference and, with --verify-sprt, a sequential test.

    At three sides (three-player, cutthroat) POLICY(theta) plays one side against
    two sides of --against, each seed in the 3 rotations (--games a multiple of 3);
    the objective is its win share (fair share 33.3%) or its final margin against
    the other sides' mean, and the verification has no Elo.

    Writes DIR/trajectory.csv and .parquet (one row per measured point, rewritten
    after every iteration) and DIR/best.json (tuned parameters, policy string,
    settings, verification, versions, the command to repeat it). How it works and
    what the numbers mean: docs/tuning.md.

    \b
    Examples:
      canasta-sim tune expert --params freeze_at,danger --games 200 --iterations 30
      canasta-sim tune careful --params freeze_at=4:24,danger --against expert
      canasta-sim tune expert --params danger,go_out_margin,endgame_stock \\
          --method cmaes --iterations 10 --verify-games 4000 --verify-sprt 0.50,0.53
    """
    from canasta_sim import tune as tuning

    settings = tuning.prepare(policy, params, against, games, iterations, seed, rules, method,
                              objective, gain_a, gain_c, gain_A, sigma, popsize, verify_games,
                              verify_sprt, alpha, beta, threads)
    folder = tuning.check_out(out or os.path.join("results", f"tune-{settings.space.policy}"),
                              force)
    s = settings
    click.echo(f"tuning {s.start}: {', '.join(s.space.names)} by {s.method} for "
               f"{s.objective_words()} against {s.against}; rules {s.rules.canonical()}, "
               f"seed {s.seed}, {s.iterations} "
               f"iterations x {s.points_per_iteration} points x {s.games} games "
               f"(+ {s.verify_games} to verify) -> {folder}")
    _ready_kernels(games=True)
    say = None if quiet else click.echo
    outcome = tuning.run(settings, folder, say=say, progress=not quiet and sys.stderr.isatty())
    click.echo(f"tuned: {outcome.tuned}")
    for line in tuning.verification_lines(outcome):
        click.echo(line)
    click.echo(f"written {os.path.join(folder, tuning.TRAJECTORY_CSV)}, "
               f"{tuning.TRAJECTORY_PARQUET}, {tuning.BEST_JSON}")


# --------------------------------------------------------------------------------------------
# warm, bench
# --------------------------------------------------------------------------------------------

@cli.command(help=f"""Compile every kernel now (or load it from the on-disk cache) and say
    which it did.

    The first run on a machine compiles the kernels, {COMPILE_TIME}
    (docs/performance.md); the machine code is cached per version of the kernel sources
    (the same for every install of them), so later processes load it in about a second.
    Run this once after installing, e.g. in a container build or before a batch of jobs.
    The cache: 'canasta-sim cache info', docs/install.md.""")
def warm():
    """Compile every kernel now (or load it from the on-disk cache) and say which it did."""
    from canasta_sim import _cache, _signals
    from canasta_sim.warm import warm as warm_all

    for name, ready in warm_all().items():
        verb = "compiled" if ready.how == "compiled" else "loaded from the cache"
        click.echo(f"{name}: {verb} in {ready.seconds:.1f} s")
    _signals.check()
    folder = _cache.active_folder()
    click.echo(f"cache: {folder}" if folder else f"cache: none ({_cache.STATE['reason']})")


@cli.group(cls=click.Group)
def cache():
    """Show or remove the compiled kernels kept on disk (docs/install.md)."""


@cache.command("info")
def cache_info():
    """Print the cache folder of this version and every cached version with its size.

    The folder is $CANASTA_SIM_CACHE_DIR if set, else $XDG_CACHE_HOME/canasta-sim or
    ~/.cache/canasta-sim; one numba-<hash> folder per version of the kernel sources.
    """
    from canasta_sim import _cache

    current = _cache.numba_cache_dir()
    click.echo(f"cache root: {_cache.cache_root()}")
    click.echo(f"this version: {current}"
               + ("" if current.is_dir() else " (not compiled yet)"))
    folders = _cache.cache_folders()
    for folder, files, size in folders:
        mark = "*" if folder == current else " "
        click.echo(f"{mark} {folder.name}  {files} files  {size / 1e6:.1f} MB")
    if not folders:
        click.echo("no cached kernels")


@cache.command("clear")
def cache_clear():
    """Remove every cached version of the kernels (the next run compiles them again)."""
    from canasta_sim import _cache

    removed = _cache.clear_cache()
    for folder in removed:
        click.echo(f"removed {folder}")
    if not removed:
        click.echo(f"nothing to remove under {_cache.cache_root()}")


@cli.command()
@click.option("--deals", "-n", type=click.IntRange(1), default=200_000, show_default=True,
              help="Deals per timed run.")
@click.option("--repeat", type=click.IntRange(1), default=5, show_default=True,
              help="Timed runs per case; the table shows their median, min and max.")
@click.option("--warmup", type=click.IntRange(0), default=1, show_default=True,
              help="Untimed runs per case before the timed ones.")
@click.option("--policies", "-p", default="random,greedy,careful,rush,builder,expert",
              show_default=True, help="Policies to time, each at every seat, comma-separated.")
@click.option("--rules", "-r", default="classic", show_default=True, help=RULES_HELP,
              callback=_playable_rules)
@click.option("--seed", "-s", type=int, default=20261129, show_default=True, help=SEED_HELP)
@click.option("--threads", "-t", type=click.IntRange(1, 1024), default=None,
              help="The 'all threads' count (default: every core).")
@click.option("--check", is_flag=True,
              help="Audit a sample of the benchmarked deals through their traces (card "
                   "conservation, score identity).")
@click.option("--sample", type=click.IntRange(1), default=500, show_default=True,
              help="Deals per policy audited by --check.")
@click.option("--cold/--no-cold", default=True, show_default=True,
              help=f"Time a cold compile of every kernel ({COMPILE_TIME}, in a fresh "
                   "process).")
@click.option("--target/--no-target", default=True, show_default=True,
              help="Time 'canasta-sim simulate --deals 1000000' as a user runs it.")
@click.option("--csv", "csv_path", default=os.path.join("results", "bench", "bench.csv"),
              show_default=True, help="CSV file for the results ('' for none).")
def bench(deals, repeat, warmup, policies, rules, seed, threads, check, sample, cold, target,
          csv_path):
    """Measure deals per second and compile time; print a table and write a CSV.

    Cases: the floor (shuffle and deal, no play) and full deals with each policy,
    each on one thread and on all threads, kernel-only and end-to-end (Parquet
    written); compile time cold and cached; the 1,000,000-deal simulate run.
    Rates are medians of --repeat runs. Also: python -m benchmarks.

    \b
    Examples:
      canasta-sim bench
      canasta-sim bench --deals 1000000 --repeat 5 --check
      canasta-sim bench --policies greedy --no-cold --no-target --deals 50000
      canasta-sim bench --rules modern-american --policies random,greedy --no-cold --no-target

    With a Modern American rule set each policy's rate is timed beside classic's on the same
    seeds ('play classic' lines; docs/american.md).
    """
    from canasta_sim import policies as policy_registry
    from canasta_sim import results
    from canasta_sim.benchmarks import suite
    from canasta_sim.rules import parse_rules

    names = tuple(policy_registry.split_top_level(policies))
    rule_set = parse_rules(rules)
    for name in names:
        policy_registry.parse_policies(name, rule_set.num_players)
    if rule_set.american:
        from canasta_sim.runner import check_american_policies

        check_american_policies(names)
    if csv_path:
        os.makedirs(os.path.dirname(csv_path) or ".", exist_ok=True)
        results.check_writable(csv_path, suffix=".csv")
    opts = suite.Options(deals=deals, repeat=repeat, warmup=warmup, policies=names,
                         rules=rules, seed=seed, threads=threads or 0, check=check,
                         sample=sample, cold=cold, target=target, csv=csv_path)
    found = suite.run_suite(opts, say=click.echo)
    if csv_path:
        click.echo(f"written {suite.write_csv(found, opts)}")


# --------------------------------------------------------------------------------------------
# studies (canasta_sim/study/cli.py)
# --------------------------------------------------------------------------------------------

def _add_study_commands():
    """Register ``study`` and ``compare``."""
    from canasta_sim.study.cli import compare, study

    cli.add_command(study)
    cli.add_command(compare)


_add_study_commands()


def _add_analysis_commands():
    """Register ``analyze`` and ``equity-table`` (canasta_sim/analysis/cli.py)."""
    from canasta_sim.analysis.cli import analyze, equity_table

    cli.add_command(analyze)
    cli.add_command(equity_table)


_add_analysis_commands()


def main(argv=None):
    """Console-script entry point: ``canasta-sim ...``.

    A run stopped by a signal leaves at once with status 130 once its files are cleaned up
    (``os._exit``): the interpreter's shutdown (joining worker threads still inside a
    kernel, atexit hooks) could otherwise meet the stop again and end in a traceback or in
    a different status.  A watcher (canasta_sim._signals.watch) ends the process if the
    run has not stopped one second after the first stop signal (a kernel that never returns
    to Python, say).
    """
    from canasta_sim import _signals

    _signals.watch()
    try:
        cli.main(args=argv, prog_name=PROG)
    except KeyboardInterrupt:  # a stop signal just outside the command's own handlers
        _signals.say_interrupted()
        _exit_now(130)
    except SystemExit as exc:
        if exc.code == 130:
            _exit_now(130)
        raise


def _exit_now(code: int):
    """Ignore further stop signals, flush stdout and stderr, and end the process now."""
    import signal

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()
