"""Writing the report files of a study as one unit: after any failure the folder holds the
old set or the new set, never new files beside old ones.

:func:`publish` writes every file (``summary.json``, ``report.md``, ``report.html``,
``plots/*.png``) into a hidden *stage* folder inside the study folder
(``.publish.~HOST~PID~xyz.tmp``).  A full disk, a failing plot or Ctrl-C while staging
removes the stage: nothing in place was touched.  When every file is staged, a commit
record (``_commit.json``, moved into the stage atomically) lists them; from then on the
set is new.  Each file is then moved into place (``os.replace``, same file system: no new
space needed), ``summary.json`` last; plots of the old set that the new one lacks are
removed; the stage goes.

If the process dies between two moves, the stage and its commit record stay behind, and
:func:`recover` (run by the next report and by :func:`~canasta_sim.study.summary.load_summary`)
finishes the moves: the folder then holds the new set.  A stage without a commit record
is removed.  Stages of a writer still alive (another process, or this one mid-way) are
left alone.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile

from canasta_sim.errors import BadInput

COMMIT = "_commit.json"
STAGE = re.compile(r"^\.publish\.~(?P<host>[^~/]+)~(?P<pid>\d+)~[A-Za-z0-9_]+\.tmp$")
_ACTIVE = set()         # stages this process is writing or moving right now


def publish(root, files: dict, replace_dirs=("plots",)) -> list:
    """Write ``files`` ({path relative to ``root``: bytes}, moved into place in this order,
    so the last one marks the set as new) into ``root`` as one unit; files in
    ``replace_dirs`` that the set does not hold are removed.  Returns the paths written.
    An OSError while staging is a one-line BadInput, and nothing is changed."""
    from canasta_sim.results import _write_error
    from canasta_sim.study.store import StudyDir, check_inside, temp_prefix

    root = os.fspath(root)
    check_inside(StudyDir(root))
    recover(root)
    try:
        stage = tempfile.mkdtemp(dir=root, prefix=temp_prefix("publish"), suffix=".tmp")
    except OSError as exc:
        raise _write_error(exc, [os.path.join(root, next(iter(files), ""))]) from None
    _ACTIVE.add(stage)
    try:
        _stage(stage, files, replace_dirs)
    except BaseException as exc:
        _ACTIVE.discard(stage)
        shutil.rmtree(stage, ignore_errors=True)
        if isinstance(exc, OSError):
            raise _write_error(exc, [root]) from None
        raise
    try:
        _roll_forward(root, stage, undo=True)
    finally:
        _ACTIVE.discard(stage)
    return [os.path.join(root, rel) for rel in files]


def _stage(stage: str, files: dict, replace_dirs) -> None:
    """Write every file into the stage, then its commit record (atomically)."""
    for rel, data in files.items():
        _write_file(os.path.join(stage, rel), data)
    record = json.dumps({"files": list(files), "replace_dirs": list(replace_dirs)})
    _write_file(os.path.join(stage, COMMIT + ".part"), record.encode())
    os.replace(os.path.join(stage, COMMIT + ".part"), os.path.join(stage, COMMIT))


def _write_file(path: str, data: bytes) -> None:
    """Write ``data`` to a new file ``path`` (its folder made)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "xb") as handle:
        handle.write(data)
        os.fchmod(handle.fileno(), 0o644)


def _roll_forward(root: str, stage: str, undo: bool = False) -> None:
    """Move a committed stage's files into place (those not moved yet), remove what the
    old set had beyond them, remove the stage.  ``undo``: if the very first move fails,
    nothing is in place yet, so the stage is removed and the old set stays."""
    with open(os.path.join(stage, COMMIT), encoding="utf-8") as handle:
        plan = json.load(handle)
    moved = 0
    try:
        for rel in plan["files"]:
            source = os.path.join(stage, rel)
            if not os.path.exists(source):
                continue            # moved by an earlier, interrupted roll-forward
            target = os.path.join(root, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.replace(source, target)
            moved += 1
    except BaseException:
        if undo and moved == 0:
            shutil.rmtree(stage, ignore_errors=True)
        raise
    _remove_leftovers(root, plan)
    shutil.rmtree(stage, ignore_errors=True)


def _remove_leftovers(root: str, plan: dict) -> None:
    """Remove the files of ``replace_dirs`` (not hidden ones) that the new set lacks."""
    keep = {os.path.normpath(rel) for rel in plan["files"]}
    for folder in plan.get("replace_dirs", ()):
        try:
            names = os.listdir(os.path.join(root, folder))
        except OSError:
            continue
        for name in names:
            rel = os.path.normpath(os.path.join(folder, name))
            path = os.path.join(root, rel)
            if rel not in keep and not name.startswith(".") and os.path.isfile(path):
                try:
                    os.remove(path)
                except OSError:
                    pass


def recover(root) -> int:
    """Finish or remove the stages that writers now gone left in ``root``: a committed one
    is rolled forward (the new set goes in place), an uncommitted one removed.  Returns how
    many stages were handled; BadInput if a roll-forward cannot finish."""
    from canasta_sim.study.store import _host, _stale

    root = os.fspath(root)
    try:
        names = os.listdir(root)
    except OSError:
        return 0
    handled = 0
    for name in sorted(names):
        match = STAGE.match(name)
        stage = os.path.join(root, name)
        if match is None or not os.path.isdir(stage) or stage in _ACTIVE:
            continue
        mine = match.group("host") == _host() and int(match.group("pid")) == os.getpid()
        if not mine and not _stale(stage, match):
            continue                # a writer still alive
        if os.path.isfile(os.path.join(stage, COMMIT)):
            try:
                _roll_forward(root, stage)
            except OSError as exc:
                raise BadInput(f"{root!r}: an interrupted report could not be finished "
                               f"({exc.strerror or exc}); accepted: run 'canasta-sim study "
                               "report' on it again") from None
        else:
            shutil.rmtree(stage, ignore_errors=True)
        handled += 1
    return handled
