"""The study benchmark behind ``canasta-sim study bench``.

It measures, as a user runs them (whole processes, process start and kernel load
included, on every core):

* ``study run`` of a study of ``arms`` rule-set arms x ``deals`` greedy deals each,
  against ``simulate`` playing the same number of deals in one run, interleaved run by
  run, and the ratio of the two wall-clock times (the issue-9 target: at most 1.3);
* ``study report`` of that study (the issue-10 target: at most 20 s for 4 x 1,000,000);
* with ``memory``: the peak RSS of ``study run`` at ``deals`` and at ten times as many
  (flat memory: the larger within 20% of the smaller).

Medians of ``repeat`` runs with their min and max; written to a CSV with provenance.
"""
from __future__ import annotations

import csv
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple

ARMS = ("classic", "classic(black_three_freezes=true)", "classic(hand_size=13)",
        "classic(upcard_red3_freezes=false)", "classic(natural_canasta_bonus=600)",
        "classic(going_out_bonus=200)")


class Line(NamedTuple):
    """One measured figure."""

    case: str
    values: tuple
    unit: str

    @property
    def median(self) -> float:
        """The median of the values."""
        return statistics.median(self.values)


def spec_text(arms: int, deals: int, seed: int) -> str:
    """A study of ``arms`` rule-set arms (greedy at every seat) of ``deals`` deals each."""
    lines = ["[study]", 'name = "bench"', f"seed = {seed}", f"deals = {deals}", ""]
    for index, rules in enumerate(ARMS[:arms]):
        lines += ["[[arms]]", f'name = "arm{index}"', f'rules = "{rules}"',
                  'policies = "greedy"', ""]
    return "\n".join(lines)


def _command(*args) -> list:
    """``canasta-sim ARGS`` run with this interpreter."""
    return [sys.executable, "-m", "canasta_sim", *args]


def _timed(cmd) -> float:
    """Wall seconds of one run of a command; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.decode()[-300:]}")
    return seconds


def _peak_rss(cmd) -> float:
    """Peak RSS (MB) of one run of ``cmd``, from the kernel's accounting of the child
    (``ru_maxrss`` of a fresh child-reaping process, so earlier children do not count)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
             "stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True,
                          check=True)
    return int(done.stdout.strip()) / 1024


def run(deals=1_000_000, arms=4, repeat=3, seed=1, memory=False, say=print) -> list:
    """Measure; returns the lines (also said one by one)."""
    folder = tempfile.mkdtemp(prefix="canasta-study-bench-")
    try:
        spec = os.path.join(folder, "bench.toml")
        with open(spec, "w") as handle:
            handle.write(spec_text(arms, deals, seed))
        subprocess.run(_command("warm"), stdout=subprocess.DEVNULL, check=True)
        study_s, simulate_s, report_s, ratios = [], [], [], []
        for k in range(repeat):
            out = os.path.join(folder, f"study{k}")
            seconds = _timed(_command("study", "run", spec, "--out", out, "--quiet",
                                         "--no-report"))
            study_s.append(seconds)
            sim = _timed(_command("simulate", "--deals", str(arms * deals), "--seed",
                                     str(seed), "--quiet", "--out",
                                     os.path.join(folder, "sim.parquet")))
            simulate_s.append(sim)
            ratios.append(seconds / sim)
            report_s.append(_timed(_command("study", "report", out)))
            say(f"run {k + 1}/{repeat}: study {seconds:.1f} s, simulate {sim:.1f} s, "
                f"ratio {seconds / sim:.2f}, report {report_s[-1]:.1f} s")
            if k + 1 < repeat:
                shutil.rmtree(out)
        lines = [Line(f"study run {arms} x {deals:,} greedy deals", tuple(study_s), "s"),
                 Line(f"simulate {arms * deals:,} greedy deals", tuple(simulate_s), "s"),
                 Line("study run / simulate (paired by run)", tuple(ratios), "ratio"),
                 Line(f"study report {arms} x {deals:,}", tuple(report_s), "s")]
        if memory:
            lines += _memory_lines(folder, arms, deals, seed)
        for line in lines:
            say(format_line(line))
        return lines
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _memory_lines(folder, arms, deals, seed) -> list:
    """Peak RSS of study run at ``deals`` and ten times as many deals per arm."""
    lines = []
    for scale in (1, 10):
        spec = os.path.join(folder, f"mem{scale}.toml")
        with open(spec, "w") as handle:
            handle.write(spec_text(1, deals * scale, seed))
        out = os.path.join(folder, f"mem{scale}")
        peak = _peak_rss(_command("study", "run", spec, "--out", out, "--quiet",
                                  "--no-report"))
        lines.append(Line(f"peak RSS of study run, 1 arm x {deals * scale:,} deals",
                          (peak,), "MB"))
        shutil.rmtree(out, ignore_errors=True)
    return lines


def format_line(line: Line) -> str:
    """``case: median (min-max) unit``."""
    return (f"{line.case}: {line.median:.2f} {line.unit} (min {min(line.values):.2f}, "
            f"max {max(line.values):.2f}, {len(line.values)} runs)")


def write_csv(lines: list, path: str, deals: int, arms: int) -> str:
    """The lines with provenance, written atomically."""
    from canasta_sim import __version__
    from canasta_sim._cache import kernels_dir, kernels_hash
    from canasta_sim.results import write_text

    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(["case", "median", "min", "max", "runs", "unit", "deals_per_arm", "arms",
                     "cores", "version", "kernels_hash", "date"])
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for line in lines:
        writer.writerow([line.case, round(line.median, 3), round(min(line.values), 3),
                         round(max(line.values), 3), len(line.values), line.unit, deals, arms,
                         os.cpu_count(), __version__, kernels_hash(kernels_dir()), stamp])
    return write_text(text.getvalue(), path)
