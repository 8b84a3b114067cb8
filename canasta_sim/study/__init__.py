"""Studies: several arms (rule sets, policies, parameters) played on the same deals.

A study is a folder: the frozen spec (``study.toml``), a manifest (``_manifest.json``)
and a Hive-partitioned Parquet dataset (``data/arm=<name>/part-<first>-<count>.parquet``),
one file per shard, a shard being a pure function of (spec, arm, range).  Running a
study again on the same folder resumes it.  The statistics and the report read the
shards one range at a time, so memory stays flat however large the study grows.

Public names: :func:`run`, :func:`open`, :func:`status`, :func:`load_spec` and
:func:`make_report` (the module ``canasta_sim.study.report`` renders the report files).
Heavy modules load only when these are first used.
"""

__all__ = ["run", "open", "load_spec", "make_report", "status"]

_LAZY = {
    "run": ("canasta_sim.study.execute", "run"),
    "open": ("canasta_sim.study.store", "open_study"),
    "status": ("canasta_sim.study.execute", "status"),
    "load_spec": ("canasta_sim.study.spec", "load_spec"),
    "make_report": ("canasta_sim.study.summary", "report"),
}


def __getattr__(name):
    """Import the public names on first use."""
    if name not in _LAZY:
        raise AttributeError(f"module 'canasta_sim.study' has no attribute {name!r}")
    import importlib

    module_name, attr = _LAZY[name]
    value = getattr(importlib.import_module(module_name), attr)
    globals()[name] = value
    return value


def __dir__():
    """Module attributes including the lazily imported public names."""
    return sorted(set(globals()) | set(_LAZY))
