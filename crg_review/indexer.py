"""Full and incremental index updates: which files to parse, in which order, in one transaction.

A snapshot (a commit's tree, the staged index or the working tree) lists paths with their git blob ids.
Only files whose blob id differs from the stored one are parsed; then every file whose resolution may
have changed is re-resolved (:func:`affected.affected_files`). The whole update is one transaction:
a crash leaves the previous index, and a concurrent indexer waits for the write lock.

The index remembers the snapshot it holds (meta ``snapshot``: a git tree plus the paths that differ
from it). An incremental update asks git only for the paths that differ between that snapshot and the
new one, so an update after a small change never lists every path of the repository; without a usable
remembered snapshot (an older index, other settings, a garbage-collected tree) every path is compared.
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import languages
from .affected import affected_files, file_ids, hierarchy_dependents, inherit_pairs
from .errors import GitError
from .languages import hooks_for, language_for_path, python
from .model import ParseResult
from .resolve import Resolver
from .store import EDGE_INDEXES, Store

if TYPE_CHECKING:
    from .gitio import Entry, Repo, Snapshot, SnapshotKind

__all__ = ["Source", "UpdateReport", "parse_blob", "source_label", "update_index"]

log = logging.getLogger(__name__)

#: below this many files a full build parses in-process (starting workers costs more than it saves)
PARALLEL_THRESHOLD = 200
#: at most this many files are parsed ahead while git checks the work tree (:func:`_parse_ahead`)
PARSE_AHEAD = 16
#: the modules whose code decides what the index holds (with every file of ``languages/``)
_BUILDER_MODULES = (
    "affected.py", "facts.py", "hierarchy.py", "indexer.py", "model.py", "modulemap.py", "parse.py", "resolve.py",
    "resolve_pool.py", "store.py", "symbols.py", "typetext.py",
)


@functools.cache
def builder_id() -> str:
    """A digest of the code that turns files into the graph (queries, parsers, resolver, store): an index
    that other code built holds other facts and edges, so it is rebuilt rather than updated."""
    here = Path(__file__).parent
    files = sorted([*(here / "languages").glob("*.py"), *(here / "languages").glob("*.scm")])
    digest = hashlib.sha256()
    for path in [*(here / name for name in _BUILDER_MODULES), *files]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Source:
    """What to index: ``worktree``, ``staged``, or a commit (``rev``)."""

    kind: SnapshotKind  # worktree | staged | commit
    rev: str | None = None


@dataclass
class UpdateReport:
    """What an update did (for messages, stats and benchmarks)."""

    indexed: str = ""
    parsed: int = 0
    deleted: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    resolved_files: int = 0
    full: bool = False
    seconds: float = 0.0
    unchanged: bool = False
    timings: dict[str, float] = field(default_factory=dict)
    #: paths compared with the index: only those git found different from the remembered snapshot,
    #: or None when every path of the snapshot was compared (a full build, or nothing remembered)
    compared: int | None = None
    #: files parsed while git was still taking the snapshot (see ``_parse_ahead``), among ``parsed``
    parsed_ahead: int = 0


def source_label(repo: Repo, source: Source) -> str:
    """The ``indexed`` value stored in meta: a commit id, ``staged`` or ``worktree``."""
    if source.kind == "commit":
        return repo.resolve(source.rev or "HEAD")
    return source.kind


def _excluded(path: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, p) for p in patterns)


def _wanted(entries: Iterable[tuple[str, Entry | None]], patterns: tuple[str, ...]) -> dict[str, Entry]:
    """The entries the index keeps a row for (parsed or counted as skipped), by stored path."""
    wanted: dict[str, Entry] = {}
    for path, e in entries:
        if e is None:
            continue
        language = language_for_path(path)
        if (language is None and not (e.is_symlink or e.is_submodule)) or _excluded(path, patterns):
            continue
        wanted[_storable(path)] = e
    return wanted


def skip_reason(entry: Entry, language: str | None, data: bytes | None, size_limit: int) -> str | None:
    """Why a file is not parsed (counted in stats), or None to parse it."""
    if entry.is_submodule:
        return "submodule"
    if entry.is_symlink:
        return "symlink"
    if data is None:
        return "unreadable"
    if len(data) > size_limit:
        return "too-large"
    if b"\0" in data[:8192]:
        return "binary"
    if language is None:
        return "no-language"
    return None


def parse_blob(path: str, language: str, data: bytes) -> ParseResult:
    """Parse one file's bytes (runs in worker processes for full builds)."""
    from .parse import parse

    return parse(data, path, language)


def _parse_job(job: tuple[str, str, bytes]) -> ParseResult:
    return parse_blob(*job)


def update_index(
    store: Store,
    repo: Repo,
    source: Source,
    *,
    full: bool = False,
    size_limit: int = 1024 * 1024,
    excludes: Iterable[str] = (),
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> UpdateReport:
    """Bring the index to ``source``. ``full`` rebuilds from scratch; otherwise only changed blobs are parsed."""
    started = time.perf_counter()
    report = UpdateReport(full=full)
    label = source_label(repo, source)
    patterns = tuple(excludes)
    # which paths are indexed also depends on the extensions this version knows
    settings = json.dumps([size_limit, sorted(patterns), sorted(languages._EXTENSIONS.items())])
    builder = builder_id()
    if not full and store.get_meta("builder") != builder and store.has_files():
        log.warning("the index was built by another version of crg-review: rebuilding it")
        full = report.full = True
    if not full and source.kind == "commit" and store.get_meta("indexed") == label and store.get_meta("settings") == settings:
        # a commit never changes: indexed with the same settings, there is nothing to compare
        report.indexed, report.unchanged = label, True
        report.seconds = time.perf_counter() - started
        return report
    from .gitio import Snapshot  # the caller has a Repo: pygit2 is loaded already

    # which Python files are test modules: pytest's python_files of the tree the index holds, until the new
    # snapshot's settings are read (a change of them reparses every file: each file's test marks follow them)
    held_test_files = python.patterns_from_meta(store.get_meta("python_files"))
    python.set_test_file_patterns(held_test_files)
    ahead = {} if full or source.kind == "commit" else _parse_ahead(store, repo, settings, patterns, size_limit)
    report.timings["parse_ahead"] = time.perf_counter() - started
    snapshot = repo.snapshot(source.kind, source.rev)
    test_files = python.narrow_test_file_patterns(_python_files(repo, snapshot))
    if test_files != held_test_files and not full and store.has_files():
        log.info("pytest's python_files are now %s: reparsing every file", list(test_files or ()) or "the default")
        full = report.full = True
        ahead = {}
    python.set_test_file_patterns(test_files)
    if full and not store.conn.in_transaction and store.has_files():
        store.make_vacuumable()  # the rebuild then gives back the old rows' pages before its copy for the helper
    with store.atomic() as conn:
        previous = None
        if not full and store.get_meta("settings") == settings:
            previous = Snapshot.from_json(store.get_meta("snapshot"))
        store.set_meta("settings", settings)
        store.set_meta("builder", builder)
        store.set_meta("python_files", json.dumps(list(test_files) if test_files else None))
        store.set_meta("snapshot", snapshot.to_json())
        candidates = None if previous is None else repo.changed_paths(previous, snapshot)
        if candidates is None:
            if full:
                store.clear()
            stored = store.file_oids()
            wanted = _wanted(((e.path, e) for e in repo.entries(snapshot)), patterns)
        else:
            wanted = _wanted(candidates.items(), patterns)
            stored = store.file_oids([_storable(p) for p in candidates])
        deleted = sorted(p for p in stored if p not in wanted)
        changed = sorted(p for p, e in wanted.items() if stored.get(p) != e.oid)
        if candidates is None and not full:
            changed = sorted(set(changed) | _limit_changed(conn, wanted, size_limit))
        report.indexed = label
        report.compared = None if candidates is None else len(candidates)
        log.debug("update: %s paths compared, %d changed, %d deleted", report.compared, len(changed), len(deleted))
        if not deleted and not changed and not full:
            store.set_meta("indexed", label)
            report.unchanged = True
            report.seconds = time.perf_counter() - started
            return report
        names: set[str] = set()
        dependents: set[int] = set()
        changed_ids: set[int] = set()
        # inheritance edges of the files about to change vanish with them: remember them first
        old_bases = inherit_pairs(conn, file_ids(conn, deleted + changed)) if not full else set()

        def forget(path: str) -> None:
            delta = store.remove_file(path)
            if delta is not None:
                names.update(delta.names)
                dependents.update(delta.dependents)

        for path in deleted:
            forget(path)
        report.deleted = len(deleted)

        jobs: list[tuple[str, str, bytes]] = []
        meta: dict[str, Entry] = {}
        for path in changed:
            e = wanted[path]
            language = language_for_path(path)
            data = None if (e.is_submodule or e.is_symlink) else _read(repo, e)
            reason = skip_reason(e, language, data, size_limit)
            if reason is not None:
                forget(path)
                store.add_skipped(path, e.oid, len(data or b""), reason, language)
                report.skipped[reason] = report.skipped.get(reason, 0) + 1
                continue
            assert language is not None and data is not None
            jobs.append((path, language, data))
            meta[path] = e
        mark = time.perf_counter()
        report.timings["snapshot"] = mark - started
        fresh = _parse_all([j for j in jobs if (j[0], meta[j[0]].oid) not in ahead], progress, workers)
        with store.bulk_load() if len(jobs) >= PARALLEL_THRESHOLD else nullcontext():
            for path, language, data in jobs:
                key = (path, meta[path].oid)
                parsed = ahead[key] if key in ahead else next(fresh)
                report.parsed_ahead += key in ahead
                module = hooks_for(language).module_name(path) if language == "python" else path
                if full:
                    store.add_file(path, meta[path].oid, len(data), module, parsed)
                    continue
                delta = store.replace_file(path, meta[path].oid, len(data), module, parsed)
                names.update(delta.names)
                dependents.update(delta.dependents)
                changed_ids.add(delta.file_id)
        report.parsed = len(jobs)
        report.timings["parse_and_store"] = time.perf_counter() - mark
        mark = time.perf_counter()

        resolver = Resolver(conn)
        if full:
            targets = {r[0] for r in conn.execute("SELECT id FROM files WHERE status NOT LIKE 'skipped:%'")}
        else:
            targets = affected_files(conn, changed_ids, names, dependents)
            old_bases |= inherit_pairs(conn, targets - changed_ids)
            _clear_edges(conn, targets)
            resolver.resolve_bases(sorted(targets))
            extra = hierarchy_dependents(conn, old_bases, inherit_pairs(conn, targets)) - targets
            if extra:
                _clear_edges(conn, extra)
                resolver.resolve_bases(sorted(extra))
                targets |= extra
            # the same resolver goes on: resolve_bases resets every cache derived from inherit edges, and
            # the others (paths, names, imports) hold, so a second one would only rebuild them
        ordered = sorted(targets)
        if full:
            n_workers = workers if workers is not None else min(os.cpu_count() or 1, 8)
            helpers = 1 if n_workers > 1 and len(ordered) >= PARALLEL_THRESHOLD else 0
            from .resolve_pool import resolve_everything  # full builds only: kept out of the hook's start-up

            with store.bulk_load(EDGE_INDEXES), store.lookup_index("bases_symbol", "bases", "symbol_id"):
                resolve_everything(store, resolver, ordered, helpers=helpers)
        else:
            resolver.resolve_files(ordered)
        # a class of a test file deriving from a TestCase subclass of another file is a test class too
        store.mark_inherited_tests(None if full else ordered, python.TEST_BASES)
        report.resolved_files = len(ordered)
        report.timings["resolve"] = time.perf_counter() - mark
        store.set_meta("indexed", label)
        store.set_meta("updated_at", str(int(time.time())))
    report.seconds = time.perf_counter() - started
    log.info("update phases: %s", ", ".join(f"{k} {v:.2f}s" for k, v in report.timings.items()))
    return report


def _parse_ahead(
    store: Store, repo: Repo, settings: str, patterns: tuple[str, ...], size_limit: int
) -> dict[tuple[str, str], ParseResult]:
    """Parse, before the staged or work-tree snapshot is asked for (git may still be comparing the work
    tree in the background, see :meth:`Repo.prefetch`), the files whose blob in HEAD is not the one this
    index holds: after a commit, most likely this update's work. Keyed by (path, blob id): a parse is
    used only when the new snapshot has that very blob. Nothing when many files differ (a full build's
    work)."""
    from .gitio import Snapshot

    if store.get_meta("settings") != settings or repo.head_commit() is None:
        return {}
    previous = Snapshot.from_json(store.get_meta("snapshot"))
    head = repo.snapshot("commit", "HEAD")
    if previous is None or previous.tree == head.tree:
        return {}
    differ = repo.changed_paths(previous, head)
    if differ is None:
        return {}
    wanted = _wanted(differ.items(), patterns)
    stored = store.file_oids(wanted)
    todo = [(path, e) for path, e in wanted.items() if e.is_file and stored.get(path) != e.oid]
    if len(todo) > PARSE_AHEAD:
        return {}
    ahead: dict[tuple[str, str], ParseResult] = {}
    for path, e in todo:
        language = language_for_path(path)
        try:
            data = repo.read_blob(e.oid)
        except (KeyError, OSError, ValueError, GitError):  # said, if it matters, when the update reads it
            continue
        if language is not None and skip_reason(e, language, data, size_limit) is None:
            ahead[(path, e.oid)] = parse_blob(path, language, data)
    return ahead


def _storable(path: str) -> str:
    """The path as stored: git paths are bytes, and a non-UTF-8 name arrives with surrogate escapes,
    which SQLite cannot encode; such a name is stored with its odd bytes as ``\\xNN``."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return path


def _limit_changed(conn: sqlite3.Connection, wanted: dict[str, Entry], size_limit: int) -> set[str]:
    """Unchanged files the size limit now judges differently (it is a setting: it can change between runs)."""
    rows = conn.execute("SELECT path, size, status FROM files")
    return {p for p, size, status in rows if p in wanted and (status == "skipped:too-large") != (size > size_limit)}


def _clear_edges(conn: sqlite3.Connection, file_ids: set[int]) -> None:
    ids = sorted(file_ids)
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        ph = ",".join("?" * len(chunk))
        conn.execute(f"DELETE FROM edges WHERE file_id IN ({ph})", chunk)
        conn.execute(f"DELETE FROM unresolved WHERE file_id IN ({ph})", chunk)


def _python_files(repo: Repo, snapshot: Snapshot) -> tuple[str, ...] | None:
    """pytest's ``python_files`` in the settings files at the root of ``snapshot`` (None: none set)."""
    from .pytest_settings import python_files_setting

    def read(name: str) -> bytes | None:
        try:
            return repo.read_path(snapshot, name)
        except (GitError, KeyError, OSError, ValueError):
            return None

    return python_files_setting(read)


def _read(repo: Repo, entry: Entry) -> bytes | None:
    try:
        return repo.read_blob(entry.oid)
    except (KeyError, OSError, ValueError, GitError) as exc:
        log.warning("cannot read %s: %s", entry.path, exc)
        return None


def _parse_all(
    jobs: list[tuple[str, str, bytes]],
    progress: Callable[[int, int], None] | None,
    workers: int | None,
) -> Iterator[ParseResult]:
    """Parse results in job order, streamed (a full build never holds every parse in memory)."""
    total = len(jobs)
    n_workers = workers if workers is not None else min(os.cpu_count() or 1, 8)
    if total < PARALLEL_THRESHOLD or n_workers <= 1:
        results: Iterable[ParseResult] = map(_parse_job, jobs)
        for i, result in enumerate(results, 1):
            yield result
            if progress is not None:
                progress(i, total)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor  # only full builds need it: kept out of start-up

    ctx = multiprocessing.get_context("forkserver" if hasattr(os, "fork") else "spawn")
    # the workers mark test files as this process does (pytest's python_files of the tree being parsed)
    initargs = (python.test_file_patterns(),)
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=ctx, initializer=python.set_test_file_patterns, initargs=initargs) as pool:
        for i, result in enumerate(pool.map(_parse_job, jobs, chunksize=8), 1):
            yield result
            if progress is not None:
                progress(i, total)
