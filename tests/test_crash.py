"""Crash safety and concurrency of the index, with real processes and a real SQLite file.

To stop an indexer *in the middle of its write transaction* deterministically, the indexer process
is the real command line (``crg_review.cli.main``) started through a small driver (``PAUSING``) whose
progress callback (the one the CLI shows as a bar on a terminal, called as each parsed file has been
stored) prints ``PAUSED`` after N files and blocks on stdin. The test then knows the transaction is
open and half written, and either SIGKILLs the process or lets it go on. With ``probe`` the driver
says, as it begins its own write, whether another process holds the write lock (``BLOCKED``) or not
(``FREE``). The driver also makes SQLite's page cache small, so that uncommitted pages spill into
the ``-wal`` file before the pause: the kill then really leaves half a transaction on disk.
No production code has a test hook.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from .helpers import commit, crg, crg_env, fresh_dump, make_repo, python_package

N_FILES = 1500
PAUSE_AFTER = 300

PAUSING = r"""
import signal
import sqlite3
import sys

from crg_review import cli, store

pause_after, lock_timeout, probe, args = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == "1", sys.argv[4:]
real_open, real_atomic = store.Store.open.__func__, store.Store.atomic
opened = []


def open_(cls, path, *, timeout=30.0):
    opened.append(real_open(cls, path, timeout=lock_timeout))
    opened[-1].conn.execute("PRAGMA cache_size=16")  # pages: uncommitted changes spill into the WAL
    return opened[-1]


def progress(done, total):  # called as each parsed file has been stored
    if done == pause_after:
        assert opened[-1].conn.in_transaction
        print("PAUSED", file=sys.stderr, flush=True)
        sys.stdin.readline()  # the test kills us here, or lets us finish


def atomic(self):
    if probe and not self.conn.in_transaction:
        other = sqlite3.connect(self.path, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            print("FREE", file=sys.stderr, flush=True)
            other.execute("ROLLBACK")
        except sqlite3.OperationalError:
            print("BLOCKED", file=sys.stderr, flush=True)  # another process holds the write lock now
        finally:
            other.close()
    return real_atomic(self)


# a shell starts background jobs with SIGINT ignored, which Python then leaves so: the test sends one
signal.signal(signal.SIGINT, signal.default_int_handler)
store.Store.open = classmethod(open_)
store.Store.atomic = atomic
cli._progress_bar = lambda: (progress, lambda: None)
sys.exit(cli.main(args))
"""


class Indexer:
    """A ``crg-review`` process driven by ``PAUSING`` (its own process group, cleaned up by the fixture)."""

    def __init__(self, *args: str, pause_after: int = 0, lock_timeout: float = 30.0, probe: bool = False) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", PAUSING, str(pause_after), str(lock_timeout), "1" if probe else "0", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=crg_env(),
            start_new_session=True,
        )

    def wait_for(self, marker: str) -> None:
        """Block until the process prints ``marker`` on stderr (or fail with what it printed instead)."""
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        if line != marker + "\n":
            self.proc.wait(timeout=60)
            rest = _read(self.proc.stderr) + _read(self.proc.stdout)
            raise AssertionError(f"expected {marker}, got (exit {self.proc.returncode}): {line}{rest}")

    def wait_paused(self) -> None:
        """Block until the process is inside its write transaction, N files written."""
        self.wait_for("PAUSED")

    def resume(self) -> tuple[int, str, str]:
        """Let a paused process finish; its exit code, stdout and stderr."""
        out, err = self.proc.communicate("\n", timeout=300)
        return self.proc.returncode, out, err

    def finish(self) -> tuple[int, str, str]:
        """Wait for a process that does not pause."""
        out, err = self.proc.communicate(timeout=300)
        return self.proc.returncode, out, err

    def kill(self) -> None:
        """SIGKILL the indexer itself (not its helpers), as an OOM killer or a power cut would."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=60)
        assert self.proc.returncode == -signal.SIGKILL

    def cleanup(self) -> None:
        try:  # parse workers of a killed indexer may linger: they are in its process group
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        if self.proc.returncode is None:
            self.proc.wait(timeout=60)


def _read(stream: IO[str] | None) -> str:
    return stream.read() if stream is not None else ""


@pytest.fixture
def indexers() -> Iterator[list[Indexer]]:
    started: list[Indexer] = []
    yield started
    for indexer in started:
        indexer.cleanup()


@pytest.fixture(scope="module")
def big_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1500 small Python modules, committed twice: HEAD~1 (v1) and HEAD (every file changed)."""
    repo = make_repo(tmp_path_factory.mktemp("crash") / "repo")
    python_package(repo, N_FILES)
    commit(repo, "v1")
    python_package(repo, N_FILES, variant="v2")
    commit(repo, "v2")
    return repo


def start(indexers: list[Indexer], *args: str, **kwargs: Any) -> Indexer:
    indexer = Indexer(*args, **kwargs)
    indexers.append(indexer)
    return indexer


def answers(repo: Path, db: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(stats without the file size, dump) as another process reads them now."""
    stats = crg("stats", "--format", "json", "--repo", str(repo), "--db", str(db))
    dump = crg("dump", "--repo", str(repo), "--db", str(db))
    assert stats.code == 0 and dump.code == 0, (stats, dump)
    data = stats.json()
    data.pop("db_bytes")
    return data, dump.json()


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def schema(db: Path) -> list[tuple[str, str]]:
    """Every table and index (a bulk load drops and rebuilds indexes inside its transaction)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()
    finally:
        conn.close()


def wal_bytes(db: Path) -> int:
    wal = Path(str(db) + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def index_v1(repo: Path, db: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Index the first commit; what the index answers then."""
    first = crg("index", "--repo", str(repo), "--db", str(db), "--rev", "HEAD~1")
    assert first.code == 0, first
    return answers(repo, db)


# --- crash safety -----------------------------------------------------------------------------------


@pytest.mark.parametrize("full", [False, True], ids=["incremental", "full"])
def test_sigkill_in_the_middle_of_a_write_keeps_the_previous_index(
    big_repo: Path, tmp_path: Path, indexers: list[Indexer], full: bool
) -> None:
    db = tmp_path / "index.db"
    before = index_v1(big_repo, db)
    assert before[0]["files"] == N_FILES + N_FILES // 50  # modules and their __init__.py
    tables_and_indexes = schema(db)
    wal_before = wal_bytes(db)

    writer = start(
        indexers, "index", "--repo", str(big_repo), "--db", str(db), "--rev", "HEAD", *(["--full"] if full else []),
        pause_after=PAUSE_AFTER,
    )  # fmt: skip
    writer.wait_paused()
    assert wal_bytes(db) > wal_before  # half a transaction is on disk
    assert answers(big_repo, db) == before  # readers see the last commit while the writer is busy

    writer.kill()
    assert answers(big_repo, db) == before  # the previous index still answers, unchanged
    assert integrity(db) == "ok"
    assert schema(db) == tables_and_indexes

    # the next run completes and equals a full rebuild of the same commit
    again = crg("index", "--repo", str(big_repo), "--db", str(db), "--rev", "HEAD")
    assert again.code == 0, again
    assert f"parsed {N_FILES} file(s)" in again.out  # v2 changed every module; nothing was half applied
    after = answers(big_repo, db)
    assert after[1] == fresh_dump(big_repo, tmp_path / "fresh.db", "--rev", "HEAD")
    assert after[0]["indexed"] != before[0]["indexed"]
    assert integrity(db) == "ok"


def test_sigkill_during_the_very_first_index_leaves_an_empty_usable_index(
    big_repo: Path, tmp_path: Path, indexers: list[Indexer]
) -> None:
    db = tmp_path / "index.db"
    writer = start(indexers, "index", "--repo", str(big_repo), "--db", str(db), pause_after=PAUSE_AFTER)
    writer.wait_paused()
    writer.kill()
    stats, dump = answers(big_repo, db)
    assert (stats["files"], stats["indexed"]) == (0, None)
    assert dump == {"files": [], "symbols": [], "edges": [], "unresolved": []}
    again = crg("index", "--repo", str(big_repo), "--db", str(db))
    assert again.code == 0, again
    assert answers(big_repo, db)[1] == fresh_dump(big_repo, tmp_path / "fresh.db")


def test_ctrl_c_in_the_middle_of_a_write_rolls_back_and_exits_130(
    big_repo: Path, tmp_path: Path, indexers: list[Indexer]
) -> None:
    db = tmp_path / "index.db"
    before = index_v1(big_repo, db)

    writer = start(
        indexers, "index", "--repo", str(big_repo), "--db", str(db), "--rev", "HEAD", pause_after=PAUSE_AFTER
    )
    writer.wait_paused()
    os.kill(writer.proc.pid, signal.SIGINT)
    code, out, err = writer.finish()
    assert (code, out, err) == (130, "", "crg-review: interrupted\n")
    assert answers(big_repo, db) == before
    assert integrity(db) == "ok"


# --- concurrency ------------------------------------------------------------------------------------


def test_a_second_indexer_waits_for_the_first_and_both_succeed(
    big_repo: Path, tmp_path: Path, indexers: list[Indexer]
) -> None:
    db = tmp_path / "index.db"
    first = start(indexers, "index", "--repo", str(big_repo), "--db", str(db), "--full", pause_after=PAUSE_AFTER)
    first.wait_paused()  # holds the write lock from here on
    second = start(indexers, "index", "--repo", str(big_repo), "--db", str(db), "--rev", "HEAD~1", probe=True)
    second.wait_for("BLOCKED")  # it found the lock taken when it began its write: it has to wait

    code, out, err = first.resume()
    assert (code, err) == (0, ""), out
    code, out, err = second.finish()
    assert (code, err) == (0, ""), out
    assert "Traceback" not in err

    assert answers(big_repo, db)[1] == fresh_dump(big_repo, tmp_path / "fresh.db", "--rev", "HEAD~1")
    assert integrity(db) == "ok"


def test_an_indexer_that_cannot_get_the_lock_exits_with_one_line(
    big_repo: Path, tmp_path: Path, indexers: list[Indexer]
) -> None:
    db = tmp_path / "index.db"
    holder = start(indexers, "index", "--repo", str(big_repo), "--db", str(db), pause_after=PAUSE_AFTER)
    holder.wait_paused()
    for args in (("index",), ("index", "--full"), ("index", "--staged")):
        loser = start(indexers, *args, "--repo", str(big_repo), "--db", str(db), lock_timeout=0.2)
        code, out, err = loser.finish()
        assert code == 1, (out, err)
        assert out == ""
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith(f"crg-review: error: the index {db} is locked by another crg-review process")
    # a reader is never locked out
    assert answers(big_repo, db)[0]["files"] == 0

    code, out, err = holder.resume()
    assert (code, err) == (0, ""), out
    assert answers(big_repo, db)[1] == fresh_dump(big_repo, tmp_path / "fresh.db")


def test_indexers_started_at_once_on_a_new_index_do_not_corrupt_it(
    big_repo: Path, tmp_path: Path, indexers: list[Indexer]
) -> None:
    db = tmp_path / "new" / "index.db"  # not even the folder exists yet
    runs = [
        start(indexers, "index", "--repo", str(big_repo), "--db", str(db), *args)
        for args in ((), ("--full",), (), ("--rev", "HEAD"))
    ]
    for run in runs:
        code, out, err = run.finish()
        assert "Traceback" not in err and "internal error" not in err, err
        assert code == 0 or (code == 1 and err.count("\n") == 1 and "is locked" in err), (code, out, err)
    assert integrity(db) == "ok"
    # everyone indexed the same tree (the worktree is HEAD): the result is a full build of it
    assert answers(big_repo, db)[1] == fresh_dump(big_repo, tmp_path / "fresh.db", "--rev", "HEAD")
