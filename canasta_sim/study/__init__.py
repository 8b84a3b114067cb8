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
from canasta_sim._lazy import lazy_names

__all__ = ["run", "open", "load_spec", "make_report", "status"]

_LAZY = {
    "run": ("canasta_sim.study.execute", "run"),
    "open": ("canasta_sim.study.store", "open_study"),
    "status": ("canasta_sim.study.execute", "status"),
    "load_spec": ("canasta_sim.study.spec", "load_spec"),
    "make_report": ("canasta_sim.study.summary", "report"),
}


__getattr__, __dir__ = lazy_names("canasta_sim.study", globals(), _LAZY)
