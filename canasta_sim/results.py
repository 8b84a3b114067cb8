"""Results as Arrow tables and Parquet files, each carrying how it was made (STYLE.md 9).

One row per deal.  The kernels fill an int64 array laid out by
``canasta_sim.kernels.layout``; :func:`results_table` names its columns.  Every integer
column is int64 (pandas arithmetic on it does not wrap; Parquet's encodings keep the
files as small as narrow types would), every flag a bool; :func:`to_pandas` keeps the
null columns of missing sides and seats as integers.  :func:`write_parquet` writes atomically: a file either appears whole or
not at all.
"""
from __future__ import annotations

import datetime as _dt
import os
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from canasta_sim.errors import BadInput
from canasta_sim.kernels import layout

META_PREFIX = "canasta_sim."
END_REASONS = ("out", "stock")  # indexed by layout.END_OUT / layout.END_STOCK

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


def _constant_dictionary(value: str, n: int) -> pa.DictionaryArray:
    """A dictionary-encoded string column holding ``value`` n times."""
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([value]))


def _end_reason(codes: np.ndarray) -> pa.DictionaryArray:
    """The end-reason codes as a dictionary column over ('out', 'stock')."""
    return pa.DictionaryArray.from_arrays(pa.array(codes, type=pa.int8()),
                                          pa.array(list(END_REASONS)))


def _narrow(values: np.ndarray, arrow_type: pa.DataType) -> pa.Array:
    """An int64 column as ``arrow_type`` (bool: nonzero)."""
    if arrow_type == pa.bool_():
        return pa.array(values != 0)
    return pa.array(values, type=arrow_type)  # safe cast: overflow raises


def provenance(rules, seed: int, names, scores_before=None, created=None,
               games: bool = False) -> dict:
    """Schema metadata (bytes -> bytes) saying how a table was made."""
    import json
    import platform
    from importlib.metadata import version

    from canasta_sim import __version__
    from canasta_sim._cache import kernels_dir, kernels_hash

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
        "canasta_sim.kernels_hash": kernels_hash(kernels_dir()),
        "python.version": platform.python_version(),
        "numba.version": version("numba"),
        "numpy.version": np.__version__,
        "pyarrow.version": pa.__version__,
        "canasta_sim.created": created,
    }
    return {k.encode(): v.encode() for k, v in meta.items()}


def _policy_column(names, seat: int, n: int) -> pa.Array:
    """Seat ``seat``'s policy name n times, or nulls for a seat the rule set does not have."""
    if seat < len(names):
        return _constant_dictionary(names[seat], n)
    return pa.DictionaryArray.from_arrays(pa.nulls(n, pa.int8()), pa.array([], pa.string()))


def _side_columns(out: np.ndarray, num_sides: int) -> dict:
    """Every ``s{k}_{field}`` column for sides 0..MAX_SIDES-1; null for missing sides."""
    n = out.shape[0]
    columns = {}
    for side in range(layout.MAX_SIDES):
        for field in layout.SIDE_FIELDS:
            arrow_type = SIDE_TYPES[field]
            columns[f"s{side}_{field}"] = (
                _narrow(out[:, side_column(side, field)], arrow_type) if side < num_sides
                else pa.nulls(n, arrow_type))
    return columns


def _how_columns(seed, rules, names, n: int) -> dict:
    """``seed``, ``rules`` and ``policy_0``..``policy_5``: how each row was made."""
    columns = {"seed": pa.array(np.full(n, seed, dtype=np.int64)),
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
    columns = {"deal": pa.array(np.arange(first_deal, first_deal + n, dtype=np.int64))}
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
    columns = {"game": pa.array(extras[:, layout.D_GAME].astype(np.int64)),
               "deal_in_game": pa.array(extras[:, layout.D_DEAL_IN_GAME].astype(np.int64))}
    columns.update(_how_columns(seed, rules, names, n))
    for side in range(layout.MAX_SIDES):
        columns[f"s{side}_cum_before"] = (
            pa.array(extras[:, layout.D_CUM_BEFORE + side].astype(np.int64))
            if side < rules.num_sides else pa.nulls(n, INT))
    columns.update(_deal_columns(out, rules))
    return pa.table(columns).replace_schema_metadata(metadata)


def games_table(games_out, first_game, seed, rules, names, metadata):
    """One row per game: ``game``, ``winner`` (side, -1 for a draw or a cut-off game),
    ``ended`` (target, draw, cut), ``deals`` played, ``first_dealer`` and each side's
    final cumulative score ``s{k}_final``."""
    n = games_out.shape[0]
    columns = {"game": pa.array(np.arange(first_game, first_game + n, dtype=np.int64))}
    columns.update(_how_columns(seed, rules, names, n))
    columns["winner"] = pa.array(games_out[:, layout.G_WINNER].astype(np.int64))
    columns["ended"] = pa.DictionaryArray.from_arrays(
        pa.array(games_out[:, layout.G_ENDED], type=pa.int8()),
        pa.array(list(layout.GAME_ENDINGS)))
    columns["deals"] = pa.array(games_out[:, layout.G_DEALS].astype(np.int64))
    columns["first_dealer"] = pa.array(games_out[:, layout.G_FIRST_DEALER].astype(np.int64))
    for side in range(layout.MAX_SIDES):
        columns[f"s{side}_final"] = (
            pa.array(games_out[:, layout.G_FINAL + side].astype(np.int64))
            if side < rules.num_sides else pa.nulls(n, INT))
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
    return table.to_pandas(types_mapper=pandas_types)


# --------------------------------------------------------------------------------------------
# Parquet
# --------------------------------------------------------------------------------------------

def check_writable(path) -> str:
    """BadInput unless a file can be created at ``path``; call before a long run. Returns path."""
    path = os.fspath(path)
    if not path.strip() or path.endswith(os.sep):
        raise BadInput(f"cannot write {path!r}: accepted: a file path such as "
                       "results/run.parquet")
    parent = os.path.dirname(os.path.abspath(path))
    shown = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise BadInput(f"cannot write {path!r}: it is a directory; accepted: a file path "
                       "such as results/run.parquet")
    if not os.path.exists(parent):
        raise BadInput(f"cannot write {path!r}: directory {shown!r} does not exist")
    if not os.path.isdir(parent):
        raise BadInput(f"cannot write {path!r}: {shown!r} is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write {path!r}: directory {shown!r} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise BadInput(f"cannot write {path!r}: the file exists and is not writable")
    return path


def write_parquet(table_or_batches, path) -> str:
    """Write a table, or an iterable of tables / record batches of one schema, to ``path``.

    zstd-compressed; each table of a stream becomes (at least) one row group.  Written
    to a temporary file in the same directory and moved into place with ``os.replace``,
    so no partial file is left on any error or KeyboardInterrupt.  Returns the path.
    """
    if isinstance(table_or_batches, pa.Table):
        table_or_batches = [table_or_batches]
    return write_parquets(((part,) for part in table_or_batches), [path])[0]


def write_parquets(parts, paths) -> list:
    """Write a stream of tuples of tables, one table per path, to the Parquet ``paths``.

    Every file is written to a temporary file first; only when the whole stream is
    written are they moved into place, the last path first, so the first file (a games
    table) never appears without the others.  If a move fails, the files already moved
    are removed: an error leaves none of the new files behind (a file they replaced is
    gone, as with any failed overwrite).
    """
    paths = [check_writable(p) for p in paths]
    temps = [_temp_beside(p) for p in paths]
    writers = [None] * len(paths)
    try:
        for part in parts:
            for k, table in enumerate(part):
                if isinstance(table, pa.RecordBatch):
                    table = pa.Table.from_batches([table])
                if writers[k] is None:
                    writers[k] = pq.ParquetWriter(temps[k], table.schema, compression="zstd")
                writers[k].write_table(table)
        if any(w is None for w in writers):
            raise BadInput("nothing to write: the result stream was empty")
        for w in writers:
            w.close()
        _move_all(temps, paths)
    except BaseException:
        for w in writers:
            _close_quietly(w)
        for tmp in temps:
            _remove_quietly(tmp)
        raise
    return paths


def _move_all(temps, paths):
    """Move each temporary file onto its path, the last first; on an error remove those
    already moved and re-raise."""
    moved = []
    try:
        for tmp, path in reversed(list(zip(temps, paths))):
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
            os.replace(tmp, path)
            moved.append(path)
    except BaseException:
        for path in moved:
            _remove_quietly(path)
        raise


def write_text(text: str, path) -> str:
    """Write ``text`` to ``path`` atomically (a temporary file, then ``os.replace``)."""
    path = check_writable(path)
    tmp = _temp_beside(path)
    try:
        with open(tmp, "w", newline="") as handle:
            handle.write(text)
        _move_all([tmp], [path])
    except BaseException:
        _remove_quietly(tmp)
        raise
    return path


def _temp_beside(path) -> str:
    """A new empty temporary file in the directory of ``path``."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.",
                               suffix=".tmp")
    os.close(fd)
    return tmp


def _close_quietly(writer):
    """Close a ParquetWriter (if any), ignoring errors."""
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
