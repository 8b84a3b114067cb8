"""Playing a study: shards on worker threads or a Dask cluster, resumable, with a progress bar.

A shard is a pure function of (spec, arm, range): :func:`shard_tables` plays every
rotation of units first..first+count-1 of one arm and returns its tables, the same on
any machine, thread count or executor.  :func:`run` plays the shards of a study that
are not on disk yet, range after range (every arm's shard of a range before the next
range, so an interrupted study always holds complete pairs), and records each in the
manifest.  Running it again on the same folder *is* resume.

Executors:

* ``threads`` (the default): shards one after another, each split over the worker
  threads (the kernels release the GIL) while the previous shard is written;
* ``dask``: one task per shard on a ``dask.distributed`` cluster, a LocalCluster of
  worker processes on this machine or an existing scheduler; each task plays its shard
  on one core and writes it atomically; the coordinator keeps the manifest.
"""
from __future__ import annotations

import os
import sys
import time
from typing import NamedTuple, Optional

from canasta_sim._cache import current_kernels_hash
from canasta_sim.arms import plan_arms, start_arms, with_rotation
from canasta_sim.errors import BadInput
from canasta_sim.study import store
from canasta_sim.study.spec import Spec, check_round_trip, load_spec
from canasta_sim.study.store import ShardKey, StudyDir, all_shards, versions

EXECUTORS = ("threads", "dask")
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
              "MKL_NUM_THREADS": "1"}


# --------------------------------------------------------------------------------------------
# One shard: a pure function of (spec, arm, range)
# --------------------------------------------------------------------------------------------

class ArmPlans(NamedTuple):
    """The runner plans of one arm, one per rotation of the sides."""

    arm: str
    plans: tuple


def arm_plans(spec: Spec, arm_name: str) -> ArmPlans:
    """Validated runner plans for every rotation of ``arm_name`` (BadInput on bad input)."""
    arm = spec.arm(arm_name)
    lineups = [",".join(arm.rotated(rotation)) for rotation in range(spec.rotations(arm))]
    if spec.games:
        plans = plan_arms(lineups, arm.rules, seed=spec.seed, games=spec.units)
    else:
        plans = plan_arms(lineups, arm.rules, deals=spec.units, seed=spec.seed,
                          scores_before=spec.scores)
    return ArmPlans(arm_name, plans)


def start_shard(plans: ArmPlans, key: ShardKey, pool=None) -> list:
    """Start playing every rotation of a shard; returns one waiter per rotation.

    With a runner WorkPool the rotations are split over its threads; without one they are
    played here, on this thread, and the waiters hold the finished rows.
    """
    return start_arms(plans.plans, key.first, key.count, pool)


def shard_tables(spec: Spec, plans: ArmPlans, key: ShardKey, waiters) -> dict:
    """The shard's Arrow tables {kind: table}, every rotation stacked, with a ``rotation``
    column and the shard's key in the schema metadata."""
    import pyarrow as pa

    from canasta_sim.runner import rows_tables

    parts = {kind: [] for kind in StudyDir("").kinds(spec.games)}
    for rotation, (plan, wait) in enumerate(zip(plans.plans, waiters)):
        tables = rows_tables(plan, key.first, wait())
        for kind, table in zip(parts, tables if spec.games else (tables,)):
            parts[kind].append(with_rotation(table, rotation))
    meta = store.shard_metadata(spec, key, len(plans.plans), plans.plans[0].metadata)
    return {kind: pa.concat_tables(tables, promote_options="permissive")
            .replace_schema_metadata(meta) for kind, tables in parts.items()}


def play_shard(spec: Spec, key: ShardKey, root, plans: Optional[ArmPlans] = None) -> dict:
    """Play one shard here, on one thread, write it atomically and return its record."""
    start = time.perf_counter()
    plans = plans or arm_plans(spec, key.arm)
    tables = shard_tables(spec, plans, key, start_shard(plans, key))
    digests = store.write_shard(StudyDir(root), key, tables)
    return _record(key, tables, time.perf_counter() - start, digests)


def _record(key, tables, seconds, digests) -> dict:
    """The manifest record of a shard just written, with the sha256 of its files."""
    deals = tables.get("deals")
    return store.shard_record(key, "done", tables["data"].num_rows,
                              deals.num_rows if deals is not None else None, seconds,
                              digests)


_WARM = {"done": False}


def dask_task(spec_toml: str, arm: str, first: int, count: int, root: str,
              kernels_hash: str, user_sources=()) -> dict:
    """The task a Dask worker runs: check that its kernels are the coordinator's, warm them
    once per process, play one shard.  ``user_sources`` are the coordinator's user policy
    files (canasta_sim.user_policy), so the worker needs no copy of them."""
    import socket

    from canasta_sim.user_policy import receive_sources

    mine = current_kernels_hash()
    if mine != kernels_hash:
        raise BadInput(f"the Dask worker on {socket.gethostname()} has other kernels (hash "
                       f"{mine}, the study's {kernels_hash}): accepted: the same canasta-sim "
                       "version on every worker")
    receive_sources(user_sources)
    spec = load_spec(spec_toml)
    if not _WARM["done"]:
        from canasta_sim.warm import warm

        warm()
        _WARM["done"] = True
    return play_shard(spec, ShardKey(arm, first, count), root)


# --------------------------------------------------------------------------------------------
# Planning: what is done, what is missing
# --------------------------------------------------------------------------------------------

def parse_slice(text) -> Optional[tuple]:
    """``i/n`` (1 <= i <= n) -> (i, n); None for None."""
    import re

    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", str(text))
    if match is None or not 1 <= int(match.group(1)) <= int(match.group(2)) <= 100000:
        raise BadInput(f"--shard {text!r} is not accepted: accepted: i/n with 1 <= i <= n, "
                       "e.g. 3/8 plays every 8th shard starting with the 3rd")
    return int(match.group(1)), int(match.group(2))


def in_slice(index: int, part: Optional[tuple]) -> bool:
    """Whether shard number ``index`` (in :func:`all_shards` order) belongs to ``part``."""
    return part is None or index % part[1] == part[0] - 1


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------

class Progress:
    """A tqdm bar over every deal (game) of every arm and rotation; off when not wanted."""

    def __init__(self, spec: Spec, show: bool, done_units: int, total_units: int):
        """Start the bar at ``done_units`` of ``total_units``."""
        from tqdm import tqdm

        self.bar = tqdm(total=total_units, initial=done_units, unit=f" {spec.unit}s",
                        file=sys.stderr, disable=not show, dynamic_ncols=True,
                        unit_scale=True, smoothing=0.1, desc=spec.name)

    def add(self, units: int) -> None:
        """Count ``units`` more as done."""
        self.bar.update(units)

    def sprt(self, tracker) -> None:
        """Show the sequential test's running LLR and its bounds after the counts."""
        self.bar.set_postfix_str(tracker.progress(), refresh=True)

    def close(self) -> None:
        """End the bar."""
        self.bar.close()


class Runner:
    """One run of a study over its folder: resume state, manifest, waves and executors."""

    def __init__(self, spec: Spec, root, part=None):
        """Check the folder against the spec and find the shards already done (nothing is
        written yet)."""
        self.spec = spec
        self.folder = StudyDir(root)
        self.part = part
        self.kernels_hash = current_kernels_hash()
        store.check_same_study(self.folder, spec, self.kernels_hash)
        manifest = store.read_manifest(self.folder)
        if manifest is None or manifest.get("spec_hash") != spec.spec_hash():
            manifest = store.new_manifest(spec, self.kernels_hash, versions())
        self.manifest = manifest
        check = store.verify(self.folder, spec, self.kernels_hash, manifest)
        self.done = check.done
        self.damaged = check.damaged          # replayed, named until then
        self.unverified = check.unverified    # written before checksums: replayed
        self.recorded = check.recorded
        self.replay_check = {"same": 0, "differed": []}
        self.seconds = {(r["arm"], r["first"]): r.get("seconds")
                        for r in manifest.get("shards", []) if r.get("state") == "done"}
        self.rotations = {arm.name: spec.rotations(arm) for arm in spec.arms}

    def _open_folder(self) -> None:
        """Make the layout, write the frozen spec, clear stale temporary files (called once
        the executor is up, so a failing executor leaves nothing behind)."""
        store.create_layout(self.folder, self.spec)
        store.remove_temp_files(self.folder)

    # --- manifest ----------------------------------------------------------------------------
    def save_manifest(self) -> None:
        """Write the manifest from what is on disk (never while running a slice)."""
        if self.part is not None:
            return
        shards = []
        for key in all_shards(self.spec):
            record = self.done.get(key)
            if key in self.damaged:          # keep the checksum it should have
                shards.append(dict(store.shard_record(key, "damaged",
                                                      sha256=self.recorded.get(key)),
                                   reason=self.damaged[key].reason))
            elif record is None:
                shards.append(store.shard_record(
                    key, "unverified" if key in self.unverified else "missing"))
            else:
                record = dict(record)
                seconds = self.seconds.get((key.arm, key.first))
                if seconds is not None:
                    record["seconds"] = seconds
                shards.append(record)
        self.manifest["shards"] = shards
        store.write_manifest(self.folder, self.manifest)

    def mark_done(self, key: ShardKey, record: dict) -> None:
        """Record a finished shard."""
        self.done[key] = record
        self.damaged.pop(key, None)
        self.unverified.pop(key, None)
        self.seconds[(key.arm, key.first)] = record.get("seconds")
        self.save_manifest()

    # --- what to play --------------------------------------------------------------------------
    def units_of(self, key: ShardKey) -> int:
        """Units (deals or games, every rotation) a shard plays."""
        return key.count * self.rotations[key.arm]

    def todo(self) -> list:
        """The missing shards of this run's slice, range after range."""
        return [key for index, key in enumerate(all_shards(self.spec))
                if key not in self.done and in_slice(index, self.part)]

    def waves(self, todo: list) -> list:
        """The shards to play grouped in waves: one wave of everything, or SPRT waves of
        ``wave`` ranges each (the test then looks every ``wave_size`` units inside them)."""
        if self.spec.sprt is None:
            return [todo] if todo else []
        per_wave = self.spec.sprt.wave
        ranges = [first for first, _ in self.spec.ranges()]
        group = {first: i // per_wave for i, first in enumerate(ranges)}
        waves = {}
        for key in todo:
            waves.setdefault(group[key.first], []).append(key)
        return [waves[k] for k in sorted(waves)]

    # --- playing -------------------------------------------------------------------------------
    def run(self, executor="threads", threads=None, scheduler=None, workers=None,
            progress=False) -> dict:
        """Play every missing shard (or stop early on an SPRT decision); returns run info."""
        from canasta_sim.study.summary import SprtTracker

        mine = [k for i, k in enumerate(all_shards(self.spec)) if in_slice(i, self.part)]
        total = sum(self.units_of(k) for k in mine)
        done_units = sum(self.units_of(k) for k in mine if k in self.done)
        bar = None
        started, played, stamp = time.perf_counter(), 0, store.now()
        new_folder = not os.path.isdir(self.folder.root) or not os.listdir(self.folder.root)
        try:
            play = self._play_threads if executor == "threads" else self._play_dask
            with _executor_context(executor, threads, scheduler, workers) as context:
                self._open_folder()
                tracker = SprtTracker(self.spec, self.folder) if self.spec.sprt else None
                todo = self.todo()
                if tracker is not None:
                    todo = tracker.catch_up(self.done, todo)
                self.save_manifest()
                bar = Progress(self.spec, progress, done_units, total)
                if tracker is not None:
                    bar.sprt(tracker)
                for wave in self.waves(todo):
                    played += play(wave, context, bar)
                    if tracker is not None:
                        decision = tracker.update(self.done)
                        bar.sprt(tracker)
                        if decision != "undecided":
                            break
        except BaseException:
            if new_folder and not self.done:   # nothing played: the rerun starts afresh
                store.remove_new_study(self.folder)
            raise
        finally:
            if bar is not None:
                bar.close()
            if os.path.isdir(self.folder.root):
                store.remove_temp_files(self.folder)
        seconds = time.perf_counter() - started
        if tracker is not None:
            self.manifest["sprt"] = tracker.state()
        if played and self.part is None:
            self.manifest.setdefault("runs", []).append(
                {"executor": executor, "started": stamp, "units": played,
                 "seconds": round(seconds, 3), "kernels_hash": self.kernels_hash,
                 "versions": versions(), **self._replay_entry()})
        self.save_manifest()
        return {"played_units": played, "seconds": seconds,
                "missing": len(self.todo()), "sprt": self.manifest.get("sprt"),
                "replay_check": self.replay_check}

    def _replay_entry(self) -> dict:
        """The run's comparison of shards written before checksums with their replay."""
        found = self.replay_check
        return {"replay_check": found} if found["same"] or found["differed"] else {}

    def _compare_with_old(self, key: ShardKey, tables: dict) -> None:
        """Before a shard written before checksums is replaced: do its rows equal the
        replay's?  Counted in ``replay_check`` (a difference means it was damaged)."""
        import pyarrow.parquet as pq

        for kind, table in tables.items():
            path = self.folder.shard_path(key, kind)
            try:
                old = pq.read_table(path).replace_schema_metadata(None)
                same = old.equals(table.replace_schema_metadata(None))
            except Exception:  # noqa: BLE001 - unreadable: it differs
                same = False
            if not same:
                self.replay_check["differed"].append(os.path.relpath(path, self.folder.root))
                return
        self.replay_check["same"] += 1

    def _play_threads(self, keys, pool, bar) -> int:
        """Play shards one after another, each split over the pool's threads, the next one
        started before the previous one is written."""
        plans = {}
        played = 0

        def begin(key):
            if key.arm not in plans:
                plans[key.arm] = arm_plans(self.spec, key.arm)
            return key, time.perf_counter(), start_shard(plans[key.arm], key, pool)

        pending = begin(keys[0]) if keys else None
        for index in range(len(keys)):
            following = begin(keys[index + 1]) if index + 1 < len(keys) else None
            key, started, waiters = pending
            tables = shard_tables(self.spec, plans[key.arm], key, waiters)
            if key in self.unverified:
                self._compare_with_old(key, tables)
            digests = store.write_shard(self.folder, key, tables)
            self.mark_done(key, _record(key, tables, time.perf_counter() - started, digests))
            bar.add(self.units_of(key))
            played += self.units_of(key)
            pending = following
        return played

    def _play_dask(self, keys, client, bar) -> int:
        """Submit one task per shard; record each as it finishes."""
        from distributed import as_completed

        from canasta_sim.user_policy import sent_sources

        spec_toml = self.spec.to_toml()
        root = os.path.abspath(self.folder.root)
        sources = sent_sources()
        futures = {client.submit(dask_task, spec_toml, k.arm, k.first, k.count, root,
                                 self.kernels_hash, sources,
                                 key=f"canasta-shard-{self.spec.spec_hash()}-{k.arm}-{k.first}",
                                 pure=False): k for k in keys}
        played = 0
        try:
            for future in as_completed(futures):
                key = futures[future]
                record = future.result()
                if store.shard_is_done(self.folder, self.spec, key, self.rotations[key.arm],
                                       self.kernels_hash, record.get("sha256")) is None:
                    raise BadInput(f"a Dask worker wrote shard {key.arm} {key.first} but its "
                                   f"file is not in {root!r} here: accepted: the study folder "
                                   "on a file system every worker shares, at the same path")
                self.mark_done(key, record)
                bar.add(self.units_of(key))
                played += self.units_of(key)
        except BaseException as exc:
            if _scheduler_lost(client, exc):
                raise BadInput(f"the Dask scheduler {client.scheduler.address} went away "
                               f"({_first_line(exc)}); the {len(self.done)} shards finished "
                               "are kept: accepted: a running scheduler; the same command "
                               "again resumes the study") from None
            client.cancel(list(futures))
            raise
        return played


def _scheduler_lost(client, exc) -> bool:
    """Whether ``exc`` comes from a lost connection to the scheduler, not from a task."""
    import asyncio
    import concurrent.futures

    if isinstance(exc, (BadInput, KeyboardInterrupt)):
        return False
    lost = (OSError, TimeoutError, asyncio.TimeoutError, concurrent.futures.CancelledError,
            asyncio.CancelledError)
    return isinstance(exc, lost) or getattr(client, "status", "running") != "running"


def _first_line(exc) -> str:
    """``Type: first line of the message`` of an exception."""
    text = str(exc).strip().split("\n")[0][:160]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _executor_context:
    """The threads' WorkPool, or a Dask client (and the LocalCluster it started)."""

    def __init__(self, executor, threads, scheduler, workers):
        """Remember how to start the executor."""
        self.executor, self.threads = executor, threads
        self.scheduler, self.workers = scheduler, workers
        self._close = []

    def __enter__(self):
        """Start the pool or connect to (or start) the cluster (its log kept off stderr:
        errors that matter come back through the tasks, or as one line)."""
        if self.executor == "threads":
            from canasta_sim import runner

            pool = runner.WorkPool(runner.check_threads(self.threads))
            self._close.append(pool.close)
            return pool
        return self._dask_client()

    def _dask_client(self):
        """A client of the scheduler given, or of a new LocalCluster of worker processes."""
        Client, LocalCluster = _import_distributed()
        self._close.append(_quiet_dask_logs())
        if self.scheduler:
            try:
                client = Client(self.scheduler, timeout=30)
            except (OSError, TimeoutError, ValueError) as exc:
                raise BadInput(f"--scheduler {self.scheduler!r}: cannot connect "
                               f"({str(exc).splitlines()[0][:120]}): accepted: the address a "
                               "running 'dask scheduler' prints, e.g. tcp://10.0.0.5:8786") \
                    from None
            self._close.append(client.close)
            return client
        import logging

        from canasta_sim import runner

        n = self.workers or runner.available_cores()
        os.environ.update({k: os.environ.get(k, v) for k, v in WORKER_ENV.items()})
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=None, env=dict(WORKER_ENV),
                               silence_logs=logging.CRITICAL)
        client = Client(cluster)
        self._close += [cluster.close, client.close]
        return client

    def __exit__(self, *exc):
        """Close what was started, last first."""
        for close in reversed(self._close):
            try:
                close()
            except Exception:  # noqa: BLE001 - closing must not hide the real error
                pass


def _quiet_dask_logs():
    """Raise the level of dask.distributed's loggers to CRITICAL (its warnings at a cluster's
    close, its tracebacks when a scheduler goes away); returns the function that puts the
    levels back."""
    import logging

    names = [name for name in list(logging.root.manager.loggerDict)
             if name.split(".")[0] in ("distributed", "tornado", "asyncio")]
    loggers = [logging.getLogger(name) for name in {"distributed", *names}]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)

    def restore():
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
    return restore


def _import_distributed():
    """(Client, LocalCluster) of dask.distributed, or BadInput naming the extra."""
    try:
        from distributed import Client, LocalCluster
    except (ModuleNotFoundError, ImportError):
        raise BadInput("--executor dask needs dask.distributed: accepted: pip install "
                       "'canasta-sim[dask]'") from None
    return Client, LocalCluster


def check_executor(executor, scheduler, workers):
    """BadInput for an unknown executor or options that do not fit it."""
    if executor not in EXECUTORS:
        raise BadInput(f"--executor {executor!r} is not accepted: accepted executors are "
                       f"{', '.join(EXECUTORS)}")
    if executor != "dask" and (scheduler or workers):
        raise BadInput("--scheduler and --workers need --executor dask: accepted: "
                       "--executor dask --scheduler tcp://HOST:PORT")
    if executor == "dask":
        _import_distributed()
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= 1024):
        raise BadInput(f"--workers {workers!r} is not accepted: accepted: 1..1024")
    if scheduler and not str(scheduler).startswith(("tcp://", "tls://", "inproc://", "ws://")):
        raise BadInput(f"--scheduler {scheduler!r} is not accepted: accepted: an address "
                       "such as tcp://127.0.0.1:8786")


def run(spec_or_path, out, executor="threads", threads=None, scheduler=None, workers=None,
        shard=None, progress=False, report=True):
    """Play a study into folder ``out`` (resuming what is there) and return it opened.

    ``spec_or_path``: a spec file, TOML text, a dict or a :class:`Spec`.  ``executor``:
    ``threads`` (``threads`` of them, default every core) or ``dask`` (``scheduler``
    address, or a LocalCluster of ``workers`` processes).  ``shard="i/n"`` plays only
    every n-th shard from the i-th, without a manifest or report, for job arrays.  With
    ``report`` the summary and report are written when every shard is done.
    """
    spec = load_spec(spec_or_path)
    check_round_trip(spec)      # the frozen spec loads back before anything is written
    store.check_out_dir(out)
    check_executor(executor, scheduler, workers)
    part = parse_slice(shard)
    if part is not None and spec.sprt is not None:
        raise BadInput("--shard with a sequential test (--sprt) is not accepted: the waves "
                       "need one coordinator; accepted: run the study without --shard")
    if executor == "threads":
        from canasta_sim import runner

        runner.check_threads(threads)
    for arm in spec.arms:
        arm_plans(spec, arm.name)  # every input checked before anything is written
    if (report and part is None) or spec.sprt is not None:
        check_study_extra()
    runner_ = Runner(spec, out, part)
    info = runner_.run(executor, threads, scheduler, workers, progress)
    study = store.open_study(out)
    study.run_info = info
    if report and part is None and (info["missing"] == 0 or _decided(info)):
        from canasta_sim.study.summary import report as write_report

        write_report(study)
    return study


def check_study_extra() -> None:
    """BadInput naming the ``study`` extra unless scipy and matplotlib can be imported
    (checked before a study plays, so a long run never fails at its report)."""
    import importlib.util

    for name in ("scipy", "matplotlib"):
        try:
            found = sys.modules.get(name, False) is not None and \
                importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise BadInput(f"the study report needs {name}: accepted: pip install "
                           "'canasta-sim[study]', or --no-report")


def _decided(info) -> bool:
    """Whether an SPRT stopped the study."""
    sprt = info.get("sprt") or {}
    return sprt.get("decision") in ("H0", "H1")


def _rate(manifest: dict, spec) -> float | None:
    """Units played per second: the last finished run's, or (a run stopped before it
    ended records no run) the shards' own timed units over their seconds; None if no
    shard was timed."""
    runs = manifest.get("runs") or []
    if runs and runs[-1].get("seconds"):
        return runs[-1]["units"] / runs[-1]["seconds"]
    rotations = {arm.name: spec.rotations(arm) for arm in spec.arms}
    timed = [r for r in manifest.get("shards") or []
             if r.get("state") == "done" and r.get("seconds") and r.get("arm") in rotations]
    seconds = sum(r["seconds"] for r in timed)
    if not seconds:
        return None
    return sum(r["count"] * rotations[r["arm"]] for r in timed) / seconds


def status(root) -> dict:
    """What is done and missing in a study folder, and how long the rest should take."""
    study = store.open_study(root)
    spec = study.spec
    check = store.verify(study.folder, spec, current_kernels_hash(), study.manifest)
    done = check.usable()
    per_arm = []
    missing_units = 0
    for arm in spec.arms:
        keys = [k for k in all_shards(spec) if k.arm == arm.name]
        finished = [k for k in keys if k in done]
        rotations = spec.rotations(arm)
        units_done = sum(k.count for k in finished)
        missing_units += (spec.units - units_done) * rotations
        per_arm.append({"arm": arm.name, "shards_done": len(finished), "shards": len(keys),
                        "units_done": units_done, "units": spec.units,
                        "rotations": rotations})
    rate = _rate(study.manifest, spec)
    sprt = study.manifest.get("sprt")
    decided = bool(sprt and sprt.get("decision") in ("H0", "H1"))
    return {"root": study.folder.root, "name": spec.name, "unit": spec.unit,
            "spec_hash": spec.spec_hash(), "arms": per_arm,
            "missing_units": 0 if decided else missing_units,
            "eta_seconds": (missing_units / rate) if rate and not decided else None,
            "rate": rate, "sprt": sprt,
            "damaged": store.damage_lines(study.folder, check),
            "unverified": len(check.unverified),
            "complete": (decided or missing_units == 0) and not check.damaged}
