"""Results as Arrow tables and Parquet files, each carrying how it was made (STYLE.md 9).

One row per deal.  The kernels fill an int64 array laid out by
``canasta_sim.kernels.game.layout``; :func:`results_table` names its columns.  Every integer
column is int64 (pandas arithmetic on it does not wrap; Parquet's encodings keep the
files as small as narrow types would), every flag a bool; :func:`to_pandas` keeps the
null columns of missing sides and seats as integers.  :func:`write_parquet` writes
atomically: a file either appears whole or not at all.
"""
from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import os
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from canasta_sim.errors import BadInput
from canasta_sim.kernels.game import layout

META_PREFIX = "canasta_sim."
END_REASONS = ("out", "stock", "special")  # by layout.END_OUT, END_STOCK, END_SPECIAL

INT = pa.int64()  # the type of every integer column (wide: arithmetic must not wrap)

# (column, layout column, Arrow type) of the deal-level columns taken from the kernel output
DEAL_COLUMNS = (
    ("dealer", layout.COL_DEALER, INT),
    ("end_reason", layout.COL_END_REASON, None),  # dictionary string, see _end_reason
    ("out_seat", layout.COL_OUT_SEAT, INT),
    ("concealed", layout.COL_CONCEALED, pa.bool_()),
    ("turns", layout.COL_TURNS, INT),
    ("stock_left", layout.COL_STOCK_LEFT, INT),
    ("upcards_turned", layout.COL_UPCARDS, INT),
)

# Arrow type of each per-side field of layout.SIDE_FIELDS
SIDE_TYPES = {
    "score": INT, "melds": INT, "natural": INT, "mixed": INT, "canasta_bonus": INT,
    "red3": INT, "red3_dealt": INT, "red3_points": INT, "out_bonus": INT, "hand": INT,
    "melded": pa.bool_(), "pile_takes": INT,
}
assert set(SIDE_TYPES) == set(layout.SIDE_FIELDS)


def side_column(side: int, field: str) -> int:
    """Index in the kernel output row of ``field`` (a name of layout.SIDE_FIELDS) for ``side``."""
    return layout.SIDE_BASE + layout.SIDE_STRIDE * side + getattr(layout, "S_" + field.upper())


def _array(values: np.ndarray) -> pa.Array:
    """A 1-D numpy array of integers or bools as an Arrow array of the same type, from its
    buffer.  ``pa.array`` would do the same but first asks whether ``values`` is a pandas
    object, which imports pandas: about a third of a second of every run that writes a
    table and never needs pandas."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        data = np.packbits(values, bitorder="little")     # Arrow's bools are bits, LSB first
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(data)])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def _strings(values) -> pa.Array:
    """A list of str as an Arrow string array, from its buffers (see :func:`_array`)."""
    data = [v.encode() for v in values]
    offsets = np.zeros(len(data) + 1, np.int32)
    offsets[1:] = np.cumsum([len(d) for d in data])
    return pa.Array.from_buffers(pa.string(), len(data),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])


@functools.lru_cache(maxsize=4)
def _nulls(n: int, arrow_type: pa.DataType) -> pa.Array:
    """An all-null column of n values; one array (immutable) serves every such column of a
    table, where making one per column cost a tenth of a second per 300,000 deals."""
    return pa.nulls(n, arrow_type)


def _constant_dictionary(value: str, n: int) -> pa.DictionaryArray:
    """A dictionary-encoded string column holding ``value`` n times."""
    return pa.DictionaryArray.from_arrays(_array(np.zeros(n, np.int8)), _strings([value]))


def _end_reason(codes: np.ndarray) -> pa.DictionaryArray:
    """The end-reason codes as a dictionary column over ('out', 'stock')."""
    return pa.DictionaryArray.from_arrays(_array(codes.astype(np.int8)),
                                          _strings(END_REASONS))


def _narrow(values: np.ndarray, arrow_type: pa.DataType) -> pa.Array:
    """An int64 column as ``arrow_type``: int64 (every integer column) or bool (nonzero)."""
    if arrow_type == pa.bool_():
        return _array(values != 0)
    if arrow_type != INT:
        raise TypeError(f"integer columns are int64, not {arrow_type}")
    return _array(values.astype(np.int64, copy=False))


def provenance(rules, seed: int, names, scores_before=None, created=None,
               games: bool = False, users=()) -> dict:
    """Schema metadata (bytes -> bytes) saying how a table was made."""
    import json
    import platform
    from importlib.metadata import version

    from canasta_sim import __version__
    from canasta_sim._cache import current_kernels_hash

    num_sides = rules.num_sides
    scores = list(scores_before) if scores_before is not None else [0] * num_sides
    created = created or _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    meta = {
        "canasta_sim.rules": rules.canonical(),
        "canasta_sim.run": "games" if games else "deals",
        "canasta_sim.seed": str(int(seed)),
        "canasta_sim.policies": ",".join(names),
        "canasta_sim.scores_before": ",".join(str(int(s)) for s in scores[:num_sides]),
        "canasta_sim.knobs": json.dumps(rules.knobs(), sort_keys=True, default=str),
        "canasta_sim.version": __version__,
        "canasta_sim.kernels_hash": current_kernels_hash(),
        "python.version": platform.python_version(),
        "numba.version": version("numba"),
        "numpy.version": np.__version__,
        "pyarrow.version": pa.__version__,
        "canasta_sim.created": created,
    }
    if any(u is not None for u in users):
        meta["canasta_sim.user_policies"] = json.dumps(
            {u.canonical: {"function": u.func, "file": u.path,
                           "sha256": hashlib.sha256(u.source.encode()).hexdigest(),
                           "plain_python": u.python}
             for u in users if u is not None}, sort_keys=True)
    return {k.encode(): v.encode() for k, v in meta.items()}


def _policy_column(names, seat: int, n: int) -> pa.Array:
    """Seat ``seat``'s policy name n times, or nulls for a seat the rule set does not have."""
    if seat < len(names):
        return _constant_dictionary(names[seat], n)
    return pa.DictionaryArray.from_arrays(_nulls(n, pa.int8()), _strings([]))


def _side_columns(out: np.ndarray, num_sides: int) -> dict:
    """Every ``s{k}_{field}`` column for sides 0..MAX_SIDES-1; null for missing sides."""
    n = out.shape[0]
    columns = {}
    for side in range(layout.MAX_SIDES):
        for field in layout.SIDE_FIELDS:
            arrow_type = SIDE_TYPES[field]
            columns[f"s{side}_{field}"] = (
                _narrow(out[:, side_column(side, field)], arrow_type) if side < num_sides
                else _nulls(n, arrow_type))
    return columns


def _how_columns(seed, rules, names, n: int) -> dict:
    """``seed``, ``rules`` and ``policy_0``..``policy_5``: how each row was made."""
    columns = {"seed": _array(np.full(n, seed, dtype=np.int64)),
               "rules": _constant_dictionary(rules.canonical(), n)}
    for seat in range(layout.MAX_SEATS):
        columns[f"policy_{seat}"] = _policy_column(names, seat, n)
    return columns


def _deal_columns(out: np.ndarray, rules) -> dict:
    """The per-deal columns of the kernel output: deal facts, then every side's items."""
    columns = {}
    for name, col, arrow_type in DEAL_COLUMNS:
        columns[name] = (_end_reason(out[:, col]) if name == "end_reason"
                         else _narrow(out[:, col], arrow_type))
    columns.update(_side_columns(out, rules.num_sides))
    columns.update(_cutthroat_columns(out, rules.cutthroat))
    columns.update(_american_columns(out, rules.american))
    return columns


def _american_columns(out: np.ndarray, american: bool) -> dict:
    """Modern American's own columns (docs/american.md, "Results"): ``special_hand`` (the
    special hand laid, ``none`` if none), ``special_seat`` (-1: none) and per side
    ``s{k}_{field}`` for every field of layout.MAC_SIDE_FIELDS; null in other families."""
    from canasta_sim.kernels.game.american.special import NAMES

    n = out.shape[0]
    columns = {}
    if american:
        columns["special_hand"] = pa.DictionaryArray.from_arrays(
            _array(out[:, layout.COL_MAC_SPECIAL].astype(np.int8)), _strings(NAMES))
        columns["special_seat"] = _array(out[:, layout.COL_MAC_SPECIAL_SEAT].astype(np.int64))
    else:
        columns["special_hand"] = pa.DictionaryArray.from_arrays(_nulls(n, pa.int8()),
                                                                 _strings(NAMES))
        columns["special_seat"] = _nulls(n, INT)
    for side in range(2):
        for i, field in enumerate(layout.MAC_SIDE_FIELDS):
            col = layout.MAC_SIDE_BASE + layout.MAC_SIDE_STRIDE * side + i
            columns[f"s{side}_{field}"] = (_array(out[:, col].astype(np.int64)) if american
                                           else _nulls(n, INT))
    return columns


ROLES = ("lone", "partner", "solo")


def _cutthroat_columns(out: np.ndarray, cutthroat: bool) -> dict:
    """``lone_seat`` (-1: none), ``formed_by`` (none, take, going_out) and ``s{k}_role``
    (lone, partner, solo) of a cutthroat deal (docs/cutthroat.md); null for other layouts,
    whose ``s{k}_`` columns are sides, not seats."""
    n = out.shape[0]
    if not cutthroat:
        columns = {"lone_seat": _nulls(n, INT),
                   "formed_by": pa.DictionaryArray.from_arrays(_nulls(n, pa.int8()),
                                                               _strings(layout.FORMED_BY))}
        for seat in range(layout.MAX_SIDES):
            columns[f"s{seat}_role"] = pa.DictionaryArray.from_arrays(
                _nulls(n, pa.int8()), _strings(ROLES))
        return columns
    lone = out[:, layout.COL_LONE_SEAT]
    columns = {"lone_seat": _array(lone.astype(np.int64)),
               "formed_by": pa.DictionaryArray.from_arrays(
                   _array(out[:, layout.COL_FORMED_BY].astype(np.int8)),
                   _strings(layout.FORMED_BY))}
    for seat in range(layout.MAX_SIDES):
        role = np.where(lone < 0, 2, np.where(lone == seat, 0, 1)).astype(np.int8)
        columns[f"s{seat}_role"] = pa.DictionaryArray.from_arrays(_array(role),
                                                                  _strings(ROLES))
    return columns


def results_table(out, first_deal, seed, rules, names, scores_before=None, metadata=None):
    """Name and narrow the kernel output ``out`` (n x NCOLS int64) for deals first_deal.. .

    ``rules`` is a RuleSet (or anything :func:`canasta_sim.rules.parse_rules` reads),
    ``names`` the policy name of every seat.  ``metadata`` (from :func:`provenance`)
    is computed if not given.  The schema is the same for every rule set: seats and
    sides the rule set does not have hold nulls.
    """
    from canasta_sim.rules import parse_rules

    rules = parse_rules(rules)
    out = np.asarray(out, dtype=np.int64)
    n = out.shape[0]
    columns = {"deal": _array(np.arange(first_deal, first_deal + n, dtype=np.int64))}
    columns.update(_how_columns(seed, rules, names, n))
    columns.update(_deal_columns(out, rules))
    if metadata is None:
        metadata = provenance(rules, seed, names, scores_before)
    return pa.table(columns).replace_schema_metadata(metadata)


def game_deals_table(out, extras, seed, rules, names, metadata):
    """The per-deal table of a games run: ``game``, ``deal_in_game`` (0, 1, ... within the
    game; a deals run's ``deal`` is a global index instead), ``s{k}_cum_before`` (R58),
    then the columns of :func:`results_table` after ``deal``."""
    n = out.shape[0]
    columns = {"game": _array(extras[:, layout.D_GAME].astype(np.int64)),
               "deal_in_game": _array(extras[:, layout.D_DEAL_IN_GAME].astype(np.int64))}
    columns.update(_how_columns(seed, rules, names, n))
    for side in range(layout.MAX_SIDES):
        columns[f"s{side}_cum_before"] = (
            _array(extras[:, layout.D_CUM_BEFORE + side].astype(np.int64))
            if side < rules.num_sides else _nulls(n, INT))
    columns.update(_deal_columns(out, rules))
    return pa.table(columns).replace_schema_metadata(metadata)


def games_table(games_out, first_game, seed, rules, names, metadata):
    """One row per game: ``game``, ``winner`` (side, -1 for a draw or a cut-off game),
    ``ended`` (target, draw, cut), ``deals`` played, ``first_dealer`` and each side's
    final cumulative score ``s{k}_final``."""
    n = games_out.shape[0]
    columns = {"game": _array(np.arange(first_game, first_game + n, dtype=np.int64))}
    columns.update(_how_columns(seed, rules, names, n))
    columns["winner"] = _array(games_out[:, layout.G_WINNER].astype(np.int64))
    columns["ended"] = pa.DictionaryArray.from_arrays(
        _array(games_out[:, layout.G_ENDED].astype(np.int8)),
        _strings(layout.GAME_ENDINGS))
    columns["deals"] = _array(games_out[:, layout.G_DEALS].astype(np.int64))
    columns["first_dealer"] = _array(games_out[:, layout.G_FIRST_DEALER].astype(np.int64))
    for side in range(layout.MAX_SIDES):
        columns[f"s{side}_final"] = (
            _array(games_out[:, layout.G_FINAL + side].astype(np.int64))
            if side < rules.num_sides else _nulls(n, INT))
    return pa.table(columns).replace_schema_metadata(metadata)


def pandas_types(arrow_type):
    """The pandas dtype for an Arrow type in :func:`to_pandas`: nullable Int64 for integers,
    nullable boolean for flags, None (pyarrow's default) for the rest."""
    import pandas as pd

    if pa.types.is_integer(arrow_type):
        return pd.Int64Dtype()
    if pa.types.is_boolean(arrow_type):
        return pd.BooleanDtype()
    return None


def to_pandas(table):
    """``table.to_pandas()`` with integer columns kept as integers even where they hold
    nulls (the sides and seats a rule set does not have): pandas ``Int64`` and ``boolean``.
    The same as ``table.to_pandas(types_mapper=canasta_sim.results.pandas_types)``."""
    if not isinstance(table, (pa.Table, pa.RecordBatch)):
        raise BadInput(f"to_pandas({type(table).__name__}) is not accepted: accepted: a "
                       "pyarrow Table, as canasta_sim.simulate returns")
    return table.to_pandas(types_mapper=pandas_types)


# --------------------------------------------------------------------------------------------
# Parquet
# --------------------------------------------------------------------------------------------

_TEMP_SUFFIX = ".tmp"
_TEMP_ROOM = 40  # characters a temporary name adds to the file name: ".<name>.<pid>.<random>.tmp"


def check_writable(path, suffix=None) -> str:
    """BadInput unless a regular file can be created at ``path`` (and, if given, its name
    ends in ``suffix``); call before a long run.  Returns the path."""
    import errno
    import stat

    path = os.fspath(path)
    example = f"results/run{suffix or '.parquet'}"
    if not path.strip() or path.endswith(os.sep):
        raise BadInput(f"cannot write {path!r}: accepted: a file path such as {example}")
    if "\0" in path:
        raise BadInput(f"cannot write {path!r}: it holds a NUL character; accepted: a file "
                       f"path such as {example}")
    parent = os.path.dirname(os.path.abspath(path))
    shown = os.path.dirname(path) or "."
    if suffix is not None and not path.lower().endswith(suffix):
        kind = "Parquet" if suffix == ".parquet" else suffix.lstrip(".").upper()
        raise BadInput(f"cannot write {path!r}: the output is {kind}; accepted: a file name "
                       f"ending in {suffix}, e.g. {example}")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise BadInput(f"cannot write {path!r}: the name is too long; accepted: a file "
                           f"name of at most {_name_max(parent) - _TEMP_ROOM} characters") from None
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise BadInput(f"cannot write {path!r}: it is a directory; accepted: a file path "
                       f"such as {example}")
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else "a socket"
                if stat.S_ISSOCK(info.st_mode) else "a device")
        raise BadInput(f"cannot write {path!r}: it is {kind}; accepted: a regular file path "
                       f"such as {example}")
    if not os.path.exists(parent):
        raise BadInput(f"cannot write {path!r}: directory {shown!r} does not exist; accepted: "
                       f"a path in an existing folder (create it: mkdir -p {shown})")
    if not os.path.isdir(parent):
        raise BadInput(f"cannot write {path!r}: {shown!r} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write {path!r}: directory {shown!r} is not writable")
    if info is not None and not os.access(path, os.W_OK):
        raise BadInput(f"cannot write {path!r}: the file exists and is not writable")
    most = _name_max(parent) - _TEMP_ROOM
    if len(os.path.basename(path).encode()) > most:
        raise BadInput(f"cannot write {path!r}: the file name is too long; accepted: a file "
                       f"name of at most {most} bytes")
    if len(os.path.abspath(path).encode()) + _TEMP_ROOM > _path_max(parent):
        raise BadInput(f"cannot write {path!r}: the path is too long; accepted: a path of at "
                       f"most {_path_max(parent) - _TEMP_ROOM} bytes")
    return path


def _name_max(folder) -> int:
    """The longest file name the folder's file system takes (255 if unknown)."""
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _path_max(folder) -> int:
    """The longest path the folder's file system takes (4096 if unknown)."""
    try:
        return os.pathconf(folder, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):
        return 4096


def write_parquet(table_or_batches, path) -> str:
    """Write a table, or an iterable of tables / record batches of one schema, to ``path``.

    zstd-compressed; each table of a stream becomes (at least) one row group.  Written
    through one descriptor to a new temporary file in the same directory, then moved into
    place with ``os.replace``, so no partial file is left on any error, KeyboardInterrupt
    or signal.  Returns the path.
    """
    if isinstance(table_or_batches, pa.Table):
        table_or_batches = [table_or_batches]
    return write_parquets(((part,) for part in table_or_batches), [path])[0]


def write_parquets(parts, paths) -> list:
    """Write a stream of tuples of tables, one table per path, to the Parquet ``paths``.

    Every file is written to a temporary file first (created with O_EXCL in the target
    folder and written through the descriptor that created it); only when the whole
    stream is written are they moved into place, the last path first, so the first file
    (a games table) never appears without the others.  If a move fails, the files
    already moved are removed: an error leaves none of the new files behind (a file they
    replaced is gone, as with any failed overwrite).  A full disk or another write error
    becomes a one-line BadInput naming the file.
    """
    from canasta_sim import _signals

    paths = [check_writable(p) for p in paths]
    for p in paths:
        remove_stale_temps(p)
    temps = []
    writers = [None] * len(paths)
    try:
        for p in paths:
            temps.append(_temp_beside(p))
        for part in parts:
            for k, table in enumerate(part):
                if isinstance(table, pa.RecordBatch):
                    table = pa.Table.from_batches([table])
                if writers[k] is None:
                    writers[k] = pq.ParquetWriter(temps[k][0], table.schema,
                                                  compression="zstd")
                writers[k].write_table(table)
        if any(w is None for w in writers):
            raise BadInput("nothing to write: the result stream was empty")
        for w in writers:
            w.close()
        for handle, _ in temps:
            handle.flush()
            os.fchmod(handle.fileno(), 0o666 & ~_umask())  # mkstemp makes 0600
            handle.close()
        _signals.check()
        _move_all([name for _, name in temps], paths)
    except BaseException as exc:
        for w in writers:
            _close_quietly(w)
        for handle, name in temps:
            _close_quietly(handle)
            _remove_quietly(name)
        if isinstance(exc, OSError):
            raise _write_error(exc, paths) from None
        raise
    finally:
        for _, name in temps:
            _signals.untrack(name)
    return paths


def _write_error(exc: OSError, paths) -> BadInput:
    """A one-line BadInput for an OSError met while writing ``paths``."""
    import errno

    reason = exc.strerror or str(exc).splitlines()[0]
    if exc.errno == errno.ENOSPC or "No space left" in str(exc):
        return BadInput(f"cannot write {paths[0]!r}: no space left on the device; accepted: an "
                        "output folder on a disk with room for the file (nothing was written)")
    return BadInput(f"cannot write {paths[0]!r}: {reason} (nothing was written)")


def _move_all(temps, paths):
    """Move each temporary file onto its path, the last first; on an error remove those
    already moved and re-raise."""
    moved = []
    try:
        for tmp, path in reversed(list(zip(temps, paths))):
            os.replace(tmp, path)
            moved.append(path)
    except BaseException:
        for path in moved:
            _remove_quietly(path)
        raise


def write_text(text: str, path) -> str:
    """Write ``text`` to ``path`` atomically: through one descriptor to a temporary file in
    the same folder, then ``os.replace``."""
    from canasta_sim import _signals

    path = check_writable(path)
    remove_stale_temps(path)
    handle, tmp = _temp_beside(path)
    try:
        handle.write(text.encode())
        handle.flush()
        os.fchmod(handle.fileno(), 0o666 & ~_umask())
        handle.close()
        _move_all([tmp], [path])
    except BaseException as exc:
        _close_quietly(handle)
        _remove_quietly(tmp)
        if isinstance(exc, OSError):
            raise _write_error(exc, [path]) from None
        raise
    finally:
        _signals.untrack(tmp)
    return path


def _temp_prefix(path) -> str:
    """The start of the temporary names for ``path``: ``.<name>.``."""
    return f".{os.path.basename(path)}."


def _temp_beside(path):
    """(binary file object, name) of a new temporary file in the folder of ``path``, named
    ``.<name>.<pid>.<random>.tmp`` and created with O_EXCL (never through a symlink)."""
    from canasta_sim import _signals

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f"{_temp_prefix(path)}{os.getpid()}.",
                               suffix=_TEMP_SUFFIX)
    _signals.track(tmp)
    return os.fdopen(fd, "wb", buffering=1 << 20), tmp


def remove_stale_temps(path) -> list:
    """Remove the temporary files of earlier runs to ``path`` whose process is gone (a
    ``kill -9`` leaves them); returns the names removed.  Files of a live process stay."""
    import re

    directory = os.path.dirname(os.path.abspath(path))
    pattern = re.compile(re.escape(_temp_prefix(path)) + r"(\d+)\.[A-Za-z0-9_]+"
                         + re.escape(_TEMP_SUFFIX))
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        match = pattern.fullmatch(name)
        if match is None or _alive(int(match.group(1))):
            continue
        _remove_quietly(os.path.join(directory, name))
        removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    """True if a process ``pid`` exists (or may: no permission to ask)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _close_quietly(writer):
    """Close a ParquetWriter or file (if any), ignoring errors."""
    if writer is not None:
        try:
            writer.close()
        except Exception:  # noqa: BLE001 - the original error is what matters
            pass


def deals_path(path) -> str:
    """The per-deal file beside a games file: results/g.parquet -> results/g.deals.parquet."""
    root, ext = os.path.splitext(os.fspath(path))
    return f"{root}.deals{ext or '.parquet'}"


def _umask():
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove_quietly(path):
    """Delete a file if it exists, ignoring errors."""
    try:
        os.remove(path)
    except OSError:
        pass
