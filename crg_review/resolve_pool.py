"""A full build's resolution, shared between this process and a helper process.

Resolving a file is a pure function of the index's facts (see :mod:`resolve`), so the files can be
shared out. Other processes cannot see the rows of the build's open transaction, so the helper gets
a private in-memory copy of the index taken inside it (:meth:`Store.copy_to`), resolves the second part
of the files into that copy and hands the edge rows back, a batch per hundred files; this process
resolves the first part into the index, then inserts the helper's batches after its own rows (while
the helper goes on): the rows, ids included, are those one pass writes. Both resolve the inheritance
edges (every file's: every look-up through a class needs them).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import IndexBuildError
from .resolve import Resolver
from .store import open_copy

if TYPE_CHECKING:
    import multiprocessing
    import multiprocessing.process

    from .store import Store

__all__ = ["resolve_everything"]

log = logging.getLogger(__name__)

_EDGE_COLUMNS = "src_id, dst_id, kind, file_id, dst_file_id, line, resolution, confidence, candidates"
_UNRESOLVED_COLUMNS = "file_id, ref_id, reason"
#: files the helper resolves between two hand-overs of rows
_CHUNK_FILES = 100
#: share of the references the helper resolves (this process also stores the helper's rows; django,
#: 2 cores: 0.4-0.55 measured alike within the noise of a shared machine)
HELPER_SHARE = 0.45


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
        import multiprocessing  # only full builds need it: kept out of start-up

        ctx = multiprocessing.get_context("forkserver" if hasattr(os, "fork") else "spawn")
        rows: multiprocessing.Queue[_Batch | str | None] = ctx.Queue()
        # every start method's context has Process (typeshed knows it only on the concrete ones)
        helper = ctx.Process(target=_helper, args=(str(copy), file_ids, theirs, rows), daemon=True)  # type: ignore[attr-defined]
        helper.start()
        try:
            started = time.perf_counter()
            _resolve_alone(resolver, file_ids, own)
            own_seconds = time.perf_counter() - started
            # the helper's rows go in after this process's, batch by batch as it resolves them
            while (batch := _next(rows, helper)) is not None:
                store.conn.executemany(f"INSERT INTO edges({_EDGE_COLUMNS}) VALUES ({_marks(_EDGE_COLUMNS)})", batch[0])
                store.conn.executemany(
                    f"INSERT INTO unresolved({_UNRESOLVED_COLUMNS}) VALUES ({_marks(_UNRESOLVED_COLUMNS)})", batch[1]
                )
            log.debug(
                "resolution: %d files here in %.2fs, %d in the helper, its last rows stored %.2fs later",
                len(own), own_seconds, len(theirs), time.perf_counter() - started - own_seconds,
            )
            helper.join()
        finally:
            if helper.is_alive():
                helper.terminate()
                helper.join()


_Batch = tuple[list[tuple[object, ...]], list[tuple[object, ...]]]


def _marks(columns: str) -> str:
    return ",".join("?" * (columns.count(",") + 1))


def _next(rows: multiprocessing.Queue[_Batch | str | None], helper: multiprocessing.process.BaseProcess) -> _Batch | None:
    """The helper's next batch of (edge rows, unresolved rows), None when it is done."""
    import queue

    while True:
        try:
            item = rows.get(timeout=1.0)
        except queue.Empty:
            if not helper.is_alive():
                raise IndexBuildError(
                    f"the resolution helper process ended unexpectedly (exit code {helper.exitcode}): index again"
                ) from None
            continue
        if isinstance(item, str):
            raise IndexBuildError(f"the resolution helper process failed: {item}")
        return item


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


# --- in the helper process ----------------------------------------------------------------------

def _helper(path: str, file_ids: list[int], part: list[int], rows: multiprocessing.Queue[_Batch | str | None]) -> None:
    """Open the copy at ``path`` (then delete it), resolve ``part`` into it and put the rows it writes
    on ``rows``, a batch per group of files, then None (or, if anything fails, what failed)."""
    try:
        conn = open_copy(Path(path))
        os.unlink(path)  # read: its bytes need not stay in the page cache until the build ends
        resolver = Resolver(conn)
        resolver.preload()
        resolver.resolve_bases(file_ids)
        resolver.preload_bases()
        cursor = conn.cursor()
        cursor.row_factory = None
        marks = {t: int(conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {t}").fetchone()[0]) for t in ("edges", "unresolved")}
        for i in range(0, len(part), _CHUNK_FILES):
            resolver.resolve_files(part[i : i + _CHUNK_FILES])
            batch = []
            for table, columns in (("edges", _EDGE_COLUMNS), ("unresolved", _UNRESOLVED_COLUMNS)):
                found = cursor.execute(f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid", (marks[table],)).fetchall()
                if found:
                    marks[table] = int(found[-1][0])
                batch.append([r[1:] for r in found])
            rows.put((batch[0], batch[1]))
        rows.put(None)
    except BaseException as exc:
        rows.put(f"{type(exc).__name__}: {exc}")
        raise
