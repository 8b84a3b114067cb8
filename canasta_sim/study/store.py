"""The study folder: frozen spec, manifest and the shards' Parquet files.

Layout of a study folder ``DIR``::

    DIR/study.toml                                   the frozen spec (sweeps expanded)
    DIR/_manifest.json                               spec hash, kernels hash, versions, shards
    DIR/data/arm=<name>/part-<first>-<count>.parquet deals (deal studies) or games
    DIR/deals/arm=<name>/part-<first>-<count>.parquet the deals of those games (game studies)
    DIR/summary.json, report.md, report.html, plots/ the answer (canasta_sim.study.summary)

A shard file is named by its key (arm, first unit, count) and holds every rotation of
those units; it is written to a hidden temporary file beside it and moved into place,
so a file with a shard's name is always whole.  In a game study the deals file is moved
into place first: the games file is the mark that the shard is done.  The files are the
truth; the manifest records what was found and how long shards took.
"""
from __future__ import annotations

import datetime as _dt
import glob
import json
import os
import re
import tempfile
import time as _time
from typing import NamedTuple, Optional

from canasta_sim.errors import BadInput

MANIFEST = "_manifest.json"
FROZEN = "study.toml"
MANIFEST_SCHEMA = "canasta-sim.study-manifest/1"
PAGE_CHECKSUMS = "crc32"    # schema metadata of a shard whose pages carry checksums
META = "canasta_sim.study."
_PART = re.compile(r"^part-(\d+)-(\d+)\.parquet$")


class ShardKey(NamedTuple):
    """What a shard holds: units first..first+count-1 of one arm, every rotation."""

    arm: str
    first: int
    count: int

    def file_name(self) -> str:
        """``part-<first>-<count>.parquet``."""
        return f"part-{self.first}-{self.count}.parquet"


def now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def folder_path(root) -> str:
    """``root`` as a path text; BadInput unless it is a str or path object."""
    if isinstance(root, bytes) or not isinstance(root, (str, os.PathLike)):
        raise BadInput(f"study folder {root!r} is not accepted: accepted: a folder path such "
                       "as 'results/b3f'")
    return os.fspath(root)


class StudyDir:
    """Paths inside one study folder."""

    def __init__(self, root):
        """``root``: the study folder (need not exist yet)."""
        self.root = folder_path(root)

    @property
    def manifest(self) -> str:
        """Path of ``_manifest.json``."""
        return os.path.join(self.root, MANIFEST)

    @property
    def frozen(self) -> str:
        """Path of the frozen spec ``study.toml``."""
        return os.path.join(self.root, FROZEN)

    def dataset_dir(self, kind: str = "data") -> str:
        """``DIR/data`` (deals or games) or ``DIR/deals`` (the deals of a game study)."""
        return os.path.join(self.root, kind)

    def arm_dir(self, arm: str, kind: str = "data") -> str:
        """``DIR/<kind>/arm=<name>``."""
        return os.path.join(self.root, kind, f"arm={arm}")

    def shard_path(self, key: ShardKey, kind: str = "data") -> str:
        """The file of a shard."""
        return os.path.join(self.arm_dir(key.arm, kind), key.file_name())

    def kinds(self, games: bool) -> tuple:
        """The datasets a shard writes: ('data',) or ('data', 'deals') for game studies."""
        return ("data", "deals") if games else ("data",)


# --------------------------------------------------------------------------------------------
# Opening and checking a folder
# --------------------------------------------------------------------------------------------

def check_out_dir(root) -> str:
    """BadInput unless ``root`` is (or can become) a study folder; returns it."""
    root = folder_path(root)
    if not root.strip():
        raise BadInput("--out '' is not accepted: accepted: a folder such as results/b3f")
    if os.path.exists(root) and not os.path.isdir(root):
        raise BadInput(f"--out {root!r} is a file: accepted: a folder (new, or a study folder "
                       "to resume)")
    target = os.path.abspath(root)
    while not os.path.exists(target):          # missing folders are made, like mkdir -p
        target = os.path.dirname(target)
    if not os.path.isdir(target):
        raise BadInput(f"--out {root!r}: {target!r} is a file: accepted: a folder path")
    if not os.access(target, os.W_OK | os.X_OK):
        raise BadInput(f"--out {root!r}: {target!r} is not writable")
    if os.path.isdir(root) and os.listdir(root) and not os.path.exists(
            os.path.join(root, FROZEN)):
        raise BadInput(f"--out {root!r} is a folder that holds no study (no {FROZEN}): "
                       "accepted: a new or empty folder, or a study folder to resume")
    return root


def check_same_study(folder: StudyDir, spec, kernels_hash: str) -> None:
    """BadInput if the folder was made from another spec or other kernels."""
    if not os.path.exists(folder.frozen):
        return
    from canasta_sim.study.spec import load_spec_file

    try:
        frozen = load_spec_file(folder.frozen, frozen=True)
    except BadInput as exc:
        raise BadInput(f"{folder.frozen!r} cannot be read ({exc}): accepted: a new --out "
                       "folder") from None
    if frozen.spec_hash() != spec.spec_hash():
        raise BadInput(f"{folder.root!r} holds another study (spec hash {frozen.spec_hash()}, "
                       f"this spec {spec.spec_hash()}): accepted: the same spec to resume, or "
                       "a new --out folder")
    manifest = read_manifest(folder)
    made_with = (manifest or {}).get("kernels_hash")
    if made_with and made_with != kernels_hash:
        raise BadInput(f"{folder.root!r} was played with other kernels (hash {made_with}, "
                       f"installed {kernels_hash}): accepted: the canasta-sim version that "
                       "made it, or a new --out folder")


INNER = ("data", "deals", "plots")
"""The folders inside a study folder that a run, a report or a reader goes into."""


def check_inside(folder: StudyDir, *paths) -> None:
    """BadInput if a folder a study writes or reads inside its folder (data, deals, plots,
    the arm= folders, or ``paths``) is a symbolic link: through it a report or a run would
    write, or a reader read, outside the study.  The study folder itself may be a link."""
    places = [os.path.join(folder.root, name) for name in INNER] + list(paths)
    for kind in INNER[:2]:
        places += glob.glob(os.path.join(glob.escape(folder.root), kind, "arm=*"))
    for place in places:
        if os.path.islink(place):
            raise BadInput(f"{place!r} is a symbolic link (to {os.readlink(place)!r}): "
                           "accepted: a study folder whose data, deals, plots and arm= "
                           "folders are real folders inside it")


def create_layout(folder: StudyDir, spec) -> None:
    """Make the folders and write the frozen spec (atomically, if not there yet)."""
    from canasta_sim.results import write_text

    os.makedirs(folder.root, exist_ok=True)
    check_inside(folder)
    for kind in folder.kinds(spec.games):
        for arm in spec.arms:
            os.makedirs(folder.arm_dir(arm.name, kind), exist_ok=True)
    if not os.path.exists(folder.frozen):
        write_text(spec.to_toml(), folder.frozen)


def remove_new_study(folder: StudyDir) -> None:
    """Remove the folder of a study that failed before any shard was written (its frozen
    spec, manifest and empty arm folders), so a corrected command can use it again; a
    folder that holds anything else (a shard, a user's file) is left as it is."""
    import shutil

    root = folder.root
    for where, _dirs, files in os.walk(root):
        if any(where != root or name not in (FROZEN, MANIFEST) for name in files
               if not _TEMP.match(name)):
            return
    shutil.rmtree(root, ignore_errors=True)


STALE_SECONDS = 6 * 3600     # a temporary file this old is stale whoever wrote it
_TEMP = re.compile(r"^\..+\.~(?P<host>[^~/]+)~(?P<pid>\d+)~[A-Za-z0-9_]+\.tmp$")
OUTPUTS = (FROZEN, MANIFEST, "summary.json", "report.md", "report.html")


def _host() -> str:
    """This machine's name as it appears in temporary file names."""
    import socket

    return re.sub(r"[^A-Za-z0-9_.-]", "_", socket.gethostname() or "host")


def temp_prefix(path) -> str:
    """``.<name>.~<host>~<pid>~``: a temporary file says who writes it, so a run (or a slice
    on another machine) never removes the file of a writer still alive."""
    return f".{os.path.basename(os.fspath(path))}.~{_host()}~{os.getpid()}~"


def _stale(path, match) -> bool:
    """A temporary file whose writer is gone: this host and a dead pid, or old."""
    from canasta_sim.results import _alive

    try:
        age = _time.time() - os.path.getmtime(path)
    except OSError:
        return False
    if age > STALE_SECONDS:
        return True
    return match.group("host") == _host() and not _alive(int(match.group("pid")))


def remove_temp_files(folder: StudyDir) -> int:
    """Delete the temporary files that killed runs left (their writer is gone); files of
    live writers, here or on other machines, stay.  Returns how many were removed."""
    from canasta_sim.results import remove_stale_temps

    removed = 0
    places = glob.glob(os.path.join(glob.escape(folder.root), "*", "arm=*")) + [
        os.path.join(folder.root, "plots")]
    for directory in places:
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            match = _TEMP.match(name)
            path = os.path.join(directory, name)
            if match is not None and _stale(path, match):
                try:
                    os.remove(path)
                    removed += 1
                except OSError:
                    pass
    for name in OUTPUTS:
        removed += len(remove_stale_temps(os.path.join(folder.root, name)))
    return removed


# --------------------------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------------------------

def read_manifest(folder: StudyDir) -> Optional[dict]:
    """The manifest as a dict, or None if missing or unreadable (it is rebuilt from files)."""
    try:
        with open(folder.manifest, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_manifest(folder: StudyDir, data: dict) -> None:
    """Write the manifest atomically."""
    from canasta_sim.results import write_text

    data = dict(data, updated=now())
    write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", folder.manifest)


def new_manifest(spec, kernels_hash: str, versions: dict) -> dict:
    """A manifest for a new study: every shard missing."""
    return {"schema": MANIFEST_SCHEMA, "spec_hash": spec.spec_hash(),
            "kernels_hash": kernels_hash, "versions": versions, "created": now(),
            "study": spec.name, "design": spec.design, "unit": spec.unit,
            "units": spec.units, "shard_size": spec.shard_size,
            "arms": [a.name for a in spec.arms], "shards": [], "runs": [], "sprt": None}


def shard_record(key: ShardKey, state: str, rows=None, deal_rows=None, seconds=None,
                 sha256=None) -> dict:
    """One shard's line in the manifest; ``sha256``: {kind: hex digest of its file}."""
    record = {"arm": key.arm, "first": key.first, "count": key.count, "state": state}
    if rows is not None:
        record["rows"] = rows
    if deal_rows is not None:
        record["deal_rows"] = deal_rows
    if seconds is not None:
        record["seconds"] = round(seconds, 3)
    if sha256:
        record["sha256"] = dict(sha256)
    return record


def recorded_digests(manifest: Optional[dict]) -> dict:
    """{ShardKey: {kind: sha256}} of the shards whose checksums the manifest records."""
    found = {}
    for record in (manifest or {}).get("shards") or []:
        try:
            key = ShardKey(str(record["arm"]), int(record["first"]), int(record["count"]))
        except (KeyError, TypeError, ValueError):
            continue
        digests = record.get("sha256")
        if isinstance(digests, dict) and digests:
            found[key] = {str(k): str(v) for k, v in digests.items()}
    return found


# --------------------------------------------------------------------------------------------
# Shard files
# --------------------------------------------------------------------------------------------

def shard_metadata(spec, key: ShardKey, rotations: int, base: dict) -> dict:
    """Schema metadata of a shard file: the run's provenance plus the shard's key.

    No creation time, so the same shard is the same file on every machine with the
    same versions.
    """
    meta = {k: v for k, v in base.items() if k != b"canasta_sim.created"}
    extra = {"spec_hash": spec.spec_hash(), "study": spec.name, "arm": key.arm,
             "first": str(key.first), "count": str(key.count), "rotations": str(rotations),
             "design": spec.design, "page_checksums": PAGE_CHECKSUMS}
    meta.update({(META + k).encode(): str(v).encode() for k, v in extra.items()})
    return meta


def shard_bytes(table) -> bytes:
    """The Parquet file of a shard's table: zstd, and a CRC32 in every page header, so a
    flipped bit in a data page is found when the page is read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", write_page_checksum=True)
    return sink.getvalue().to_pybytes()


def write_shard(folder: StudyDir, key: ShardKey, tables: dict) -> dict:
    """Write a shard's tables ({kind: table}) atomically, the 'data' file last; returns
    {kind: sha256 of the bytes written} for the manifest."""
    import hashlib

    digests = {}
    order = [k for k in tables if k != "data"] + ["data"]
    for kind in order:
        path = folder.shard_path(key, kind)
        check_inside(folder, os.path.dirname(path))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = shard_bytes(tables[kind])
        digests[kind] = hashlib.sha256(data).hexdigest()
        write_atomically(path, lambda handle, d=data: handle.write(d))
    return digests


def write_atomically(path, write) -> str:
    """Write a file through ``write(handle)`` into a hidden temporary file beside ``path``
    (one descriptor, binary, named by :func:`temp_prefix`) and move it into place; on any
    error nothing is left."""
    from canasta_sim import _signals

    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp", prefix=temp_prefix(path))
    _signals.track(tmp)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    finally:
        _signals.untrack(tmp)
    return path


def file_sha256(path) -> str:
    """The sha256 of a file's bytes, in hex."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class ShardState(NamedTuple):
    """What :func:`shard_state` found: ``state`` is 'done' (whole, its checksum matches the
    manifest's or, not recorded yet, every page checksum), 'unverified' (whole, written
    before shards carried checksums and none recorded), 'damaged' (a checksum does not
    match) or 'missing' (absent, half-written, foreign)."""

    state: str
    record: Optional[dict] = None
    reason: str = ""
    path: str = ""


def shard_is_done(folder: StudyDir, spec, key: ShardKey, rotations: int,
                  kernels_hash: Optional[str] = None, recorded=None) -> Optional[dict]:
    """The shard's record if its files are there, whole, undamaged, of this spec and shard
    key, and (given ``kernels_hash``) played by these kernels; else None."""
    found = shard_state(folder, spec, key, rotations, kernels_hash, recorded)
    return found.record if found.state == "done" else None


def shard_state(folder: StudyDir, spec, key: ShardKey, rotations: int,
                kernels_hash: Optional[str] = None, recorded=None) -> ShardState:
    """Check a shard's files: present, of this spec, key and kernels (BadInput for other
    kernels), the right row count, and their bytes: the sha256 ``recorded`` ({kind: hex},
    from the manifest) or, where none is recorded, every page checksum."""
    rows, digests, verified = {}, {}, True
    for kind in folder.kinds(spec.games):
        path = folder.shard_path(key, kind)
        expected = (recorded or {}).get(kind)
        found = _check_file(path, spec, key, kernels_hash, expected)
        if found.state != "done":
            return found._replace(path=found.path or path)
        rows[kind], digests[kind] = found.record["rows"], found.record["sha256"]
        verified = verified and found.record["verified"]
    if rows["data"] != key.count * rotations:
        if recorded:
            return ShardState("damaged", reason=f"{rows['data']} rows, not "
                              f"{key.count * rotations}", path=folder.shard_path(key))
        return ShardState("missing")
    record = shard_record(key, "done", rows["data"], rows.get("deals"), sha256=digests)
    return ShardState("done" if verified else "unverified", record)


def _check_file(path, spec, key: ShardKey, kernels_hash, expected) -> ShardState:
    """One file of a shard: ShardState with record {rows, sha256, verified}."""
    import pyarrow.parquet as pq

    if not os.path.isfile(path) or os.path.islink(path):
        return ShardState("missing")
    try:
        meta = pq.read_metadata(path)
    except Exception:  # noqa: BLE001 - any unreadable file is replayed
        meta = None
    kv = (meta.metadata or {}) if meta is not None else {}
    made_with = kv.get(b"canasta_sim.kernels_hash", b"").decode(errors="replace")
    if meta is not None and kernels_hash is not None and made_with != kernels_hash:
        raise BadInput(f"{path!r} was played with other kernels (hash {made_with or '?'}, "
                       f"installed {kernels_hash}): accepted: the canasta-sim version "
                       "that made the study, or a new --out folder")
    digest = file_sha256(path)
    if expected is not None and digest != expected:
        return ShardState("damaged", reason="its sha256 differs from the one the manifest "
                          "recorded when it was written", path=path)
    bad = "damaged" if expected is not None else "missing"
    if meta is None:
        return ShardState(bad, reason="it cannot be read", path=path)
    wanted = {"spec_hash": spec.spec_hash(), "arm": key.arm, "first": str(key.first),
              "count": str(key.count)}
    if any(kv.get((META + k).encode(), b"").decode(errors="replace") != v
           for k, v in wanted.items()):
        return ShardState(bad, reason="it holds another shard", path=path)
    verified = expected is not None
    if not verified and kv.get((META + "page_checksums").encode()) == PAGE_CHECKSUMS.encode():
        try:            # no sha256 recorded yet (a --shard slice wrote it): every page
            pq.read_table(path, page_checksum_verification=True)
        except Exception:  # noqa: BLE001 - a page whose checksum does not match
            return ShardState("damaged", reason="a page checksum does not match its page",
                              path=path)
        verified = True
    return ShardState("done", {"rows": meta.num_rows, "sha256": digest, "verified": verified})


def all_shards(spec) -> list:
    """Every shard of the study, range after range, every arm within a range."""
    return [ShardKey(arm.name, first, count) for first, count in spec.ranges()
            for arm in spec.arms]


class Check(NamedTuple):
    """The shards of a study folder as :func:`verify` found them."""

    done: dict          # ShardKey -> record: whole, checksums match
    unverified: dict    # ShardKey -> record: whole, written before checksums, none recorded
    damaged: dict       # ShardKey -> ShardState: a checksum does not match
    recorded: dict      # ShardKey -> {kind: sha256} the manifest holds

    def usable(self) -> dict:
        """The shards a report reads: done and unverified."""
        return {**self.done, **self.unverified}


def verify(folder: StudyDir, spec, kernels_hash=None, manifest=None) -> Check:
    """Check every shard of the study against the checksums the manifest (``manifest``, or
    the folder's) recorded; BadInput if one was played by other kernels than
    ``kernels_hash`` (when given)."""
    check_inside(folder)
    recorded = recorded_digests(read_manifest(folder) if manifest is None else manifest)
    rotations = {arm.name: spec.rotations(arm) for arm in spec.arms}
    found = Check({}, {}, {}, recorded)
    for key in all_shards(spec):
        state = shard_state(folder, spec, key, rotations[key.arm], kernels_hash,
                            recorded.get(key))
        if state.state == "done":
            found.done[key] = state.record
        elif state.state == "unverified":
            found.unverified[key] = state.record
        elif state.state == "damaged":
            found.damaged[key] = state
    return found


def scan(folder: StudyDir, spec, kernels_hash=None) -> dict:
    """{ShardKey: record} of the shards whose files are whole, of this spec and undamaged
    (those written before checksums too); BadInput if one was played by other kernels
    than ``kernels_hash`` (when given)."""
    return verify(folder, spec, kernels_hash).usable()


def damage_lines(folder: StudyDir, check: Check) -> list:
    """One line per damaged shard: its file (relative to the folder) and what is wrong."""
    return [f"{os.path.relpath(state.path, folder.root)}: {state.reason}"
            for state in check.damaged.values()]


def versions() -> dict:
    """Versions of canasta-sim, Python and the libraries a study uses (those installed)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from canasta_sim import __version__

    found = {"canasta_sim": __version__, "python": platform.python_version()}
    for name in ("numba", "numpy", "pyarrow", "pandas", "scipy", "matplotlib", "duckdb",
                 "dask", "distributed"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            pass
    return found


def list_part_files(folder: StudyDir, arm: str, kind: str = "data") -> list:
    """(first, count, path) of the shard files present for ``arm``, by first unit."""
    directory = folder.arm_dir(arm, kind)
    found = []
    if os.path.isdir(directory):
        for name in os.listdir(directory):
            match = _PART.match(name)
            if match:
                found.append((int(match.group(1)), int(match.group(2)),
                              os.path.join(directory, name)))
    return sorted(found)


# --------------------------------------------------------------------------------------------
# Reading a study
# --------------------------------------------------------------------------------------------

class Study:
    """A study folder opened for reading: its spec, arms, manifest and datasets."""

    def __init__(self, root):
        """Open the study in folder ``root`` (BadInput if it holds none)."""
        from canasta_sim.study.spec import load_spec_file

        self.folder = StudyDir(root)
        if not os.path.isfile(self.folder.frozen):
            raise BadInput(f"{self.folder.root!r} is not a study folder (no {FROZEN}): "
                           "accepted: a folder written by 'canasta-sim study run'")
        self.spec = load_spec_file(self.folder.frozen, frozen=True)
        self.manifest = read_manifest(self.folder) or {}
        check_inside(self.folder)

    @property
    def arms(self) -> list:
        """The arms, baseline first."""
        return list(self.spec.arms)

    @property
    def provenance(self) -> dict:
        """Spec hash, kernels hash, versions and times from the manifest."""
        keys = ("spec_hash", "kernels_hash", "versions", "created", "updated", "runs")
        return {k: self.manifest.get(k) for k in keys}

    def files(self, kind: str = "data") -> list:
        """The shard files of this study's spec that are on disk: its arms' folders, its
        ranges' names; other arm folders, other names and links are left out."""
        found = []
        for key in all_shards(self.spec):
            path = self.folder.shard_path(key, kind)
            if os.path.isfile(path) and not os.path.islink(path):
                found.append(path)
        return found

    def dataset(self, kind: str = "data"):
        """The shards as one ``pyarrow.dataset`` with an ``arm`` column from the folders,
        every page's checksum checked as it is read."""
        import pyarrow.dataset as ds

        kinds = self.folder.kinds(self.spec.games)
        if not isinstance(kind, str) or kind not in kinds:
            raise BadInput(f"kind {kind!r} is not accepted: accepted: "
                           f"{' or '.join(repr(k) for k in kinds)} for this study")
        if not os.path.isdir(self.folder.dataset_dir(kind)):
            raise BadInput(f"{self.folder.root!r} has no shards yet: accepted: a study "
                           "folder that 'canasta-sim study run' has played")
        check_inside(self.folder)
        scan = ds.ParquetFragmentScanOptions(page_checksum_verification=True)
        return ds.dataset(self.files(kind), format=ds.ParquetFileFormat(
            default_fragment_scan_options=scan), partitioning="hive",
            partition_base_dir=self.folder.dataset_dir(kind), exclude_invalid_files=False)

    def to_table(self, kind: str = "data", columns=None, filter=None):
        """The rows of every shard as one Arrow table (mind the memory on big studies)."""
        import pyarrow.dataset as ds

        dataset = self.dataset(kind)
        if columns is not None:
            _check_columns(columns, dataset.schema.names)
        if filter is not None and not isinstance(filter, ds.Expression):
            raise BadInput(f"filter {filter!r} is not accepted: accepted: a pyarrow "
                           "expression, e.g. pyarrow.dataset.field('arm') == 'baseline'")
        return dataset.to_table(columns=columns, filter=filter)

    def to_pandas(self, kind: str = "data", columns=None):
        """The rows of every shard as a pandas DataFrame."""
        return self.to_table(kind, columns).to_pandas()

    def duckdb(self):
        """A DuckDB connection with views ``data`` (and ``deals`` for game studies)."""
        try:
            import duckdb
        except ModuleNotFoundError:
            raise BadInput("DuckDB is not installed: accepted: pip install "
                           "'canasta-sim[study]'") from None
        con = duckdb.connect()
        for kind in self.folder.kinds(self.spec.games):
            # the dataset of the spec's files, not a glob: a folder name holding [ ] * ?
            # would be read as a pattern (s[1] reading the study in s1)
            con.register(kind, self.dataset(kind))
        return con


def _check_columns(columns, names) -> None:
    """BadInput unless ``columns`` is a list of names among ``names``."""
    if not isinstance(columns, (list, tuple)):
        wrong = columns
    else:
        wrong = next((c for c in columns if not isinstance(c, str) or c not in names), None)
        if wrong is None:
            return
    raise BadInput(f"columns: {wrong!r} is not accepted: accepted: a list of the study's "
                   f"columns, e.g. {names[:3]}")


def open_study(root) -> Study:
    """Open a study folder: ``canasta_sim.study.open("results/b3f")``."""
    return Study(root)
