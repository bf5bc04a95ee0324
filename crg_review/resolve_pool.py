"""A full build's resolution, shared between this process and a helper process.

Resolving a file is a pure function of the index's facts (see :mod:`resolve`), so the files can be
shared out. Other processes cannot see the rows of the build's open transaction, so the helper gets
a private in-memory copy of the index taken inside it (:meth:`Store.copy_to`), resolves the second part
of the files into that copy and hands the edge rows back; this process resolves the first part into
the index, then inserts the helper's rows after its own: the rows, ids included, are those one pass
writes. Both resolve the inheritance edges (every file's, needed by every look-up through a class).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING

from .resolve import Resolver
from .store import open_copy

if TYPE_CHECKING:
    from .store import Store

__all__ = ["resolve_everything"]

log = logging.getLogger(__name__)

_EDGE_COLUMNS = "src_id, dst_id, kind, file_id, dst_file_id, line, resolution, confidence, candidates"
_UNRESOLVED_COLUMNS = "file_id, ref_id, reason"
#: rows per hand-over (the helper's rows never all sit in this process at once)
_BATCH = 20_000
#: share of the references the helper resolves (it starts later: it reads the copy and preloads it;
#: this process then inserts the helper's rows as well as its own)
HELPER_SHARE = 0.5


def resolve_everything(store: Store, resolver: Resolver, file_ids: list[int], *, helpers: int = 0) -> None:
    """A full build's resolution of ``file_ids`` (every file, in order): inheritance edges, then the
    rest, shared with a helper process when ``helpers`` > 0 (alone if no copy of the index can be made)."""
    if helpers <= 0 or len(file_ids) < 2:
        _resolve_alone(resolver, file_ids)
        return
    with tempfile.TemporaryDirectory(prefix="crg-review-") as tmp:
        copy = Path(tmp) / "copy.db"
        # taken before this process preloads anything: serializing holds the database twice in memory
        if not store.copy_to(copy):
            _resolve_alone(resolver, file_ids)
            return
        own, theirs = _split(store.conn, file_ids, HELPER_SHARE)
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        ctx = multiprocessing.get_context("forkserver" if hasattr(os, "fork") else "spawn")
        # one helper process: it runs its tasks in the order they are given
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            done = pool.submit(_helper_resolve, str(copy), file_ids, theirs)
            _resolve_alone(resolver, file_ids, own)
            done.result()
            for table, columns in (("edges", _EDGE_COLUMNS), ("unresolved", _UNRESOLVED_COLUMNS)):
                insert = f"INSERT INTO {table}({columns}) VALUES ({','.join('?' * (columns.count(',') + 1))})"
                for rows in _batches(pool, table, columns):
                    store.conn.executemany(insert, rows)


def _resolve_alone(resolver: Resolver, file_ids: list[int], part: list[int] | None = None) -> None:
    """Inheritance edges of every file, then the other edges of ``part`` (default: every file)."""
    resolver.preload()
    resolver.resolve_bases(file_ids)
    resolver.preload_bases()
    resolver.resolve_files(file_ids if part is None else part)


def _split(conn: sqlite3.Connection, file_ids: list[int], share: float) -> tuple[list[int], list[int]]:
    """The files in order, cut where the second part holds ``share`` of their references."""
    counts = dict(conn.execute("SELECT file_id, count(*) FROM refs GROUP BY file_id").fetchall())
    weights = [counts.get(fid, 0) + 1 for fid in file_ids]
    goal = sum(weights) * (1 - share)
    total = 0
    for i, w in enumerate(weights):
        total += w
        if total >= goal:
            return file_ids[: i + 1], file_ids[i + 1 :]
    return file_ids, []


def _batches(pool: Executor, table: str, columns: str) -> Iterator[list[tuple[object, ...]]]:
    after = 0
    while True:
        rows, after = pool.submit(_rows, table, columns, after).result()
        if not rows:
            return
        yield rows


# --- in the helper process ----------------------------------------------------------------------

#: the helper's copy of the index, and per table the last rowid that was there before it resolved
_helper: tuple[sqlite3.Connection, dict[str, int]] | None = None


def _helper_resolve(path: str, file_ids: list[int], part: list[int]) -> int:
    """Open the copy at ``path`` (then delete it), resolve ``part`` into it; its rows wait for :func:`_rows`."""
    global _helper
    conn = open_copy(Path(path))
    os.unlink(path)  # read: its bytes need not stay in the page cache until the build ends
    resolver = Resolver(conn)
    resolver.preload()
    resolver.resolve_bases(file_ids)
    resolver.preload_bases()
    marks = {t: int(conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {t}").fetchone()[0]) for t in ("edges", "unresolved")}
    resolver.resolve_files(part)
    _helper = (conn, marks)
    return len(part)


def _rows(table: str, columns: str, after: int) -> tuple[list[tuple[object, ...]], int]:
    """The helper's new rows of ``table`` after rowid ``after`` (one batch, in order), and the last rowid."""
    assert _helper is not None
    conn, marks = _helper
    cursor = conn.cursor()
    cursor.row_factory = None
    start = max(after, marks[table])
    rows = cursor.execute(
        f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?", (start, _BATCH)
    ).fetchall()
    if not rows:
        return [], start
    return [tuple(r[1:]) for r in rows], int(rows[-1][0])
