"""The kernel cache (issue 12, points 3, 4, 6, 7): one compilation for every install of the
same sources, nothing changed in the process on import, damaged entries compiled again,
an unusable folder never written beside the sources, the compile line on stderr, Ctrl-C
and SIGTERM while kernels compile, and ``cache info`` / ``cache clear``.

Every subprocess here runs a tiny kernel (or is stopped while compiling), except the
install-path test, which loads the session's warm cache from a copy of the package.
"""
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from canasta_sim import _cache
from canasta_sim.cli import cli

REPO = Path(__file__).resolve().parents[1]
MINI = """
from canasta_sim.kernels.jit import entry


@entry
def add_nb(a, b):
    return a + b
"""
RUN_MINI = ("import sys; sys.path.insert(0, sys.argv[1]); import mini; "
            "s = mini.add_nb.stats; "
            "print(mini.add_nb(2, 3), sum(s.cache_misses.values()), sum(s.cache_hits.values()))")


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", _cache.ENV)}
    env.update(extra)
    return env


def _mini(tmp_path, cache_dir):
    """Run the tiny kernel in a fresh process: (result, compiled, loaded, stderr)."""
    (tmp_path / "mini.py").write_text(MINI)
    done = subprocess.run([sys.executable, "-c", RUN_MINI, str(tmp_path)], capture_output=True,
                          text=True, env=_env(CANASTA_SIM_CACHE_DIR=str(cache_dir)), check=True)
    result, misses, hits = done.stdout.split()
    return int(result), int(misses), int(hits), done.stderr


def test_import_changes_no_numba_setting():
    """Point 4: importing canasta_sim (and its kernels) leaves NUMBA_CACHE_DIR and numba's
    cache folder as they were, so a user's own cached functions stay where numba puts them."""
    code = ("import os, canasta_sim, canasta_sim.kernels.play.turn, numba; "
            "print(repr(os.environ.get('NUMBA_CACHE_DIR')), repr(numba.config.CACHE_DIR))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_env(), check=True)
    assert done.stdout.split() == ["None", "''"]


def test_one_compilation_serves_every_install_path(tmp_path):
    """Point 3: a copy of the package at another path (as pip install . and pip install -e .
    give) with fresh file times loads every kernel the session compiled, compiling none."""
    site = tmp_path / "site"
    shutil.copytree(REPO / "canasta_sim", site / "canasta_sim", copy_function=shutil.copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "kernels", site / "canasta_sim" / "kernels", copy_function=shutil.copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import canasta_sim, canasta_sim.warm as w; print(canasta_sim.__file__); "
            "print(' '.join(r.how for r in w.warm().values()))")
    env = _env(PYTHONPATH=str(site))
    if os.environ.get(_cache.ENV):
        env[_cache.ENV] = os.environ[_cache.ENV]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, cwd=tmp_path)
    where, hows = done.stdout.splitlines()
    assert where.startswith(str(site))
    assert hows.split() == ["loaded"] * 7          # warm.warm's seven entries and tasks
    assert _cache.COMPILE_NOTE not in done.stderr
    assert not [p for p in site.rglob("*") if p.suffix in (".nbi", ".nbc")]


def test_compile_line_then_loaded(tmp_path):
    """Point 3: a compile prints its line on stderr (not a terminal here); the next process
    loads the kernel from the cache and prints nothing."""
    cache_dir = tmp_path / "cache"
    assert _mini(tmp_path, cache_dir)[:3] == (5, 1, 0)
    result, misses, hits, err = _mini(tmp_path, cache_dir)
    assert (result, misses, hits, err) == (5, 0, 1, "")
    (tmp_path / "other").mkdir()
    *_, err = _mini(tmp_path / "other", tmp_path / "cache2")
    assert err.strip() == _cache.COMPILE_NOTE


@pytest.mark.parametrize("suffix, size", [(".nbc", 100), (".nbc", 0), (".nbi", 10)])
def test_damaged_entry_is_compiled_again(tmp_path, suffix, size):
    """Point 6: a truncated data or index file is detected, removed and compiled again; the
    run succeeds and the process after it loads the fresh entry."""
    cache_dir = tmp_path / "cache"
    assert _mini(tmp_path, cache_dir)[:3] == (5, 1, 0)
    (entry,) = [p for p in cache_dir.rglob("mini*") if p.suffix == suffix]
    with open(entry, "r+b") as handle:
        handle.truncate(size)
    assert _mini(tmp_path, cache_dir)[:3] == (5, 1, 0)
    assert _mini(tmp_path, cache_dir)[:3] == (5, 0, 1)


def test_flipped_byte_is_caught_by_the_checksum(tmp_path):
    """Point 6: a data file with one byte changed (same size) fails its sha256 and is
    compiled again instead of loading wrong machine code."""
    cache_dir = tmp_path / "cache"
    _mini(tmp_path, cache_dir)
    (entry,) = cache_dir.rglob("mini*.nbc")
    data = bytearray(entry.read_bytes())
    data[-20] ^= 0xFF
    entry.write_bytes(bytes(data))
    assert _mini(tmp_path, cache_dir)[:3] == (5, 1, 0)


def test_unusable_cache_folder_writes_nothing(tmp_path):
    """Point 4: a cache folder that cannot be created gives a warning naming it and how to
    fix it; the kernel still runs and no cache file is written anywhere."""
    (tmp_path / "a-file").write_text("")
    result, misses, hits, err = _mini(tmp_path, tmp_path / "a-file" / "cache")
    assert (result, misses, hits) == (5, 1, 0)
    assert "cannot use the cache folder" in err and _cache.ENV in err
    assert not [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert not [p for p in (REPO / "kernels").rglob("*") if p.suffix in (".nbi", ".nbc")]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_while_kernels_compile_stops_the_run(tmp_path, signum):
    """Point 7: Ctrl-C (or SIGTERM) during the first compile stops the run: exit 130, one
    line, no output file and no temporary file."""
    out = tmp_path / "x.parquet"
    proc = subprocess.Popen([sys.executable, "-m", "canasta_sim", "simulate", "--deals", "5",
                             "--out", str(out)], stderr=subprocess.PIPE, text=True,
                            stdout=subprocess.DEVNULL, cwd=tmp_path,
                            env=_env(CANASTA_SIM_CACHE_DIR=str(tmp_path / "empty-cache")))
    first = proc.stderr.readline()
    assert first.strip() == _cache.COMPILE_NOTE
    proc.send_signal(signum)
    rest = proc.stderr.read()
    assert proc.wait(timeout=600) == 130
    assert rest.strip().splitlines() == ["canasta-sim: error: interrupted"]
    assert sorted(os.listdir(tmp_path)) == ["empty-cache"]


def test_cache_info_and_clear(tmp_path, monkeypatch):
    """Point 3: ``cache info`` lists the version folders; ``cache clear`` removes only them."""
    monkeypatch.setenv(_cache.ENV, str(tmp_path))
    (tmp_path / "numba-0123456789ab").mkdir()
    (tmp_path / "numba-0123456789ab" / "x.nbc").write_bytes(b"x" * 1000)
    (tmp_path / "keep-me").mkdir()
    info = CliRunner().invoke(cli, ["cache", "info"])
    assert info.exit_code == 0
    assert f"cache root: {tmp_path}" in info.output
    assert "numba-0123456789ab  1 files" in info.output
    cleared = CliRunner().invoke(cli, ["cache", "clear"])
    assert cleared.exit_code == 0 and "removed" in cleared.output
    assert os.listdir(tmp_path) == ["keep-me"]
    again = CliRunner().invoke(cli, ["cache", "clear"])
    assert "nothing to remove" in again.output


def test_warm_says_loaded_or_compiled():
    """Point 3: ``warm`` says for each kernel whether it was compiled or loaded and which
    folder the cache is.  The session has warmed the cache (compiling it on a fresh machine),
    so a new process loads every kernel from it."""
    done = subprocess.run([sys.executable, "-m", "canasta_sim", "warm"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    for name in ("play_deals_nb", "trace_deal_nb", "deal_only_nb", "play_games_nb"):
        assert f"{name}: loaded from the cache in" in done.stdout, done.stdout
    assert f"cache: {_cache.active_folder()}" in done.stdout
    again = CliRunner().invoke(cli, ["warm"])     # in this process: ready either way
    assert again.exit_code == 0 and "play_deals_nb: " in again.output


def test_the_cache_key_sees_every_kernel_file(tmp_path):
    """An edit to a kernel in any sub-folder, a file added or a file moved gives a new
    kernels hash, so a cache compiled from other sources is never reused; the same sources
    copied elsewhere give the same hash."""
    from canasta_sim._cache import kernels_dir, kernels_hash

    tree = tmp_path / "kernels"
    shutil.copytree(kernels_dir(), tree, ignore=shutil.ignore_patterns("__pycache__"))
    base = kernels_hash(tree)
    assert base == kernels_hash(kernels_dir())                 # path-independent

    def changed(edit):
        copy = tmp_path / f"copy{len(list(tmp_path.iterdir()))}"
        shutil.copytree(tree, copy)
        edit(copy)
        return kernels_hash(copy)

    def append(rel):
        return lambda root: (root / rel).write_text((root / rel).read_text() + "\n# edit\n")

    seen = {base}
    for rel in ("jit.py", "game/options.py", "players/switch.py", "play/turn.py"):
        seen.add(changed(append(rel)))
    seen.add(changed(lambda root: (root / "game" / "extra.py").write_text("X = 1\n")))
    seen.add(changed(lambda root: (root / "game" / "cards.py").rename(root / "play" / "cards.py")))
    assert len(seen) == 7                                      # every change, a new hash
