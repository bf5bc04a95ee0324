"""SQLite only here: schema, migrations, the ``atomic()`` write context, FTS5 and vectors.

One file holds the whole graph. Writes go through :meth:`Store.atomic`; a crash leaves the previous
committed state (WAL). A schema version this code does not know means a clean rebuild, never a crash.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from .errors import IndexBuildError, LockedError
from .model import (
    CLASS_KINDS,
    FACT_KINDS,
    FUNCTION_KINDS,
    MODULE_QUALNAME,
    PARAMETER_CALL_KINDS,
    RETURN_FACT,
    ParseResult,
    Symbol,
    decorator_name,
    fixture_given_name,
    parameter_callers,
    stored_method,
)

__all__ = ["SCHEMA_VERSION", "Store", "fts_quote", "name_tokens"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 5

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    language TEXT,
    oid TEXT NOT NULL,
    size INTEGER NOT NULL,
    status TEXT NOT NULL,           -- ok | partial (syntax errors) | skipped:<reason>
    module TEXT,                    -- the module name imports use (Python dotted, else the path)
    is_test INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    parent_id INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    qualname TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    signature TEXT NOT NULL DEFAULT '',
    docstring TEXT NOT NULL DEFAULT '',
    is_test INTEGER NOT NULL DEFAULT 0,
    decorators TEXT NOT NULL DEFAULT '[]',
    params TEXT NOT NULL DEFAULT '[]'
);
CREATE UNIQUE INDEX symbols_file_qualname ON symbols(file_id, qualname);
CREATE INDEX symbols_name ON symbols(name);
CREATE INDEX symbols_parent ON symbols(parent_id);
CREATE TABLE refs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    scope_id INTEGER NOT NULL,      -- a symbol of the same file (rows go and come with their file)
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    receiver TEXT NOT NULL,
    line INTEGER NOT NULL,
    arity INTEGER,
    keywords TEXT NOT NULL DEFAULT ''
);
CREATE INDEX refs_file ON refs(file_id);
CREATE INDEX refs_name ON refs(name);
CREATE TABLE imports (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    scope_id INTEGER NOT NULL,      -- a symbol of the same file
    module TEXT NOT NULL,
    module_tail TEXT NOT NULL,      -- last component of module, for reverse look-ups
    name TEXT,
    alias TEXT,
    level INTEGER NOT NULL,
    line INTEGER NOT NULL
);
CREATE INDEX imports_file ON imports(file_id);
CREATE INDEX imports_tail ON imports(module_tail);
CREATE INDEX imports_name ON imports(name);
CREATE TABLE bases (
    id INTEGER PRIMARY KEY,
    symbol_id INTEGER NOT NULL,     -- a class of the same file
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    text TEXT NOT NULL,
    name TEXT NOT NULL,             -- last identifier of text
    line INTEGER NOT NULL
);
CREATE INDEX bases_file ON bases(file_id);
CREATE INDEX bases_name ON bases(name);
CREATE TABLE edges (
    id INTEGER PRIMARY KEY,
    src_id INTEGER NOT NULL REFERENCES symbols(id) ON DELETE CASCADE,
    dst_id INTEGER NOT NULL REFERENCES symbols(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,             -- call | ref | import | inherit | fixture
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,   -- file of src (where the reference is)
    dst_file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    resolution TEXT NOT NULL,       -- how it was resolved (local, import, self, name-match, ...)
    confidence REAL NOT NULL,
    candidates INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX edges_src ON edges(src_id);
CREATE INDEX edges_dst ON edges(dst_id);
CREATE INDEX edges_file ON edges(file_id);
CREATE INDEX edges_dst_file ON edges(dst_file_id);
CREATE INDEX edges_inherit ON edges(dst_id, src_id) WHERE kind='inherit';
CREATE INDEX edges_import ON edges(dst_file_id, src_id, line) WHERE kind='import';
CREATE TABLE unresolved (
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    ref_id INTEGER NOT NULL,        -- a reference of the same file
    reason TEXT NOT NULL            -- external | builtin | ambiguous | unknown
);
CREATE INDEX unresolved_file ON unresolved(file_id);
CREATE TABLE vectors (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
);
CREATE VIRTUAL TABLE symbols_fts USING fts5(
    name, qualname, signature, docstring,
    content='', tokenize="unicode61 tokenchars '_'"
);
"""

#: the columns of a symbol row besides id, file_id and qualname, in :meth:`Store._symbol_fields` order
_SYMBOL_FIELDS = (
    "parent_id",
    "kind",
    "name",
    "start_line",
    "end_line",
    "signature",
    "docstring",
    "is_test",
    "decorators",
    "params",
)
#: indexes that only reads use (deleting a file's rows needs the *_file ones and symbols_parent)
_BULK_INDEXES = ("refs_name", "imports_name", "imports_tail", "bases_name", "symbols_name")
#: edge indexes a full resolution does not read (it preloads the inheritance edges)
EDGE_INDEXES = ("edges_src", "edges_dst", "edges_file", "edges_dst_file", "edges_import")

# Migrations: version N → N+1, applied in order inside one transaction each.
_MIGRATIONS: dict[int, str] = {
    # the class hierarchy is read whole (subclasses, a full build's bases): a scan of one edge in thirty
    # instead of every edge (django: 8,700 of 298,000; 40 ms → 13 ms per read)
    2: "CREATE INDEX IF NOT EXISTS edges_inherit ON edges(dst_id, src_id) WHERE kind='inherit';",
    # who imports a file, asked for every module a change runs in on import (django: 2,000 modules for a
    # change in django/core/validators.py): one import edge in twenty instead of every edge into the file
    3: "CREATE INDEX IF NOT EXISTS edges_import ON edges(dst_file_id, src_id, line) WHERE kind='import';",
    # none from 4: version 5's parser records what module-level statements store in which variable and
    # who reads those variables (`holds`, `reads`); an index without them is rebuilt, not migrated
}

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def name_tokens(identifier: str) -> str:
    """``getUserName`` → ``getUserName get user name``: the whole identifier and its words."""
    words: list[str] = []
    for part in re.split(r"[^0-9A-Za-z]+", identifier):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    whole = identifier.lower()
    return " ".join([whole, *[w for w in words if w != whole]])


def fts_quote(term: str) -> str:
    """Quote user text as one FTS5 string (never interpreted as query syntax)."""
    return '"' + term.replace('"', '""') + '"'


def probe_fts5() -> bool:
    """Whether this SQLite build offers FTS5."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, content='')")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()


#: SQLite's page cache per connection (negative: KiB)
CACHE_KIB = -65536


class Store:
    """The index database. Open with :meth:`open`; write inside :meth:`atomic`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.has_fts = False

    # --- opening, locking, schema ----------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, *, timeout: float = 30.0) -> Store:
        """Open (creating if needed) the index at ``path``; an unknown schema is rebuilt empty."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            if conn.execute("PRAGMA page_count").fetchone()[0] == 0:
                # a new file: a full rebuild can then give back the old rows' pages (:meth:`release_free_pages`).
                # Never set on an existing one: that takes the write lock, which a reader must not wait for
                conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA temp_store=MEMORY")
            conn.execute(f"PRAGMA cache_size={CACHE_KIB}")
        except sqlite3.DatabaseError as exc:
            raise IndexBuildError(
                f"cannot open index {path}: {exc} (delete it, or choose another path with --db)"
            ) from exc
        store = cls(conn, path)
        store._ensure_schema()
        store.has_fts = store.get_meta("fts") == "1"
        return store

    def close(self) -> None:
        self.conn.close()

    def _version(self) -> int | None:
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.OperationalError:
            return None
        except sqlite3.DatabaseError as exc:
            raise IndexBuildError(f"index {self.path} is not a crg-review database ({exc}): delete it") from exc
        return int(row[0]) if row else None

    def _ensure_schema(self) -> None:
        if self._version() == SCHEMA_VERSION:
            return
        # Decided again under the write lock: another process may have created or migrated the index since.
        # Foreign keys off (only possible outside a transaction): an old schema's tables drop in any order.
        self.conn.execute("PRAGMA foreign_keys=OFF")
        try:
            with self.atomic():
                self._upgrade(self._version())
        finally:
            self.conn.execute("PRAGMA foreign_keys=ON")

    def _upgrade(self, version: int | None) -> None:
        if version == SCHEMA_VERSION:
            return
        if (
            version is not None
            and version < SCHEMA_VERSION
            and all(v in _MIGRATIONS for v in range(version, SCHEMA_VERSION))
        ):
            for v in range(version, SCHEMA_VERSION):
                with self.atomic():
                    for statement in _split_sql(_MIGRATIONS[v]):
                        self.conn.execute(statement)
                    self.set_meta("schema_version", str(v + 1))
            return
        if version is None and self._tables():
            raise IndexBuildError(
                f"{self.path} is not a crg-review index (it holds other tables): choose another path with --db"
            )
        if version is not None:
            log.warning("index schema %s is not %s: rebuilding the index from scratch", version, SCHEMA_VERSION)
        self._create()

    def _tables(self) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
                "AND name NOT LIKE 'symbols_fts_%'"
            )
        ]

    def _create(self) -> None:
        with self.atomic():
            for t in self._tables():
                self.conn.execute(f"DROP TABLE IF EXISTS {quote_ident(t)}")
            fts = "0"
            for statement in _split_sql(_SCHEMA):
                if "USING fts5" in statement:
                    if not probe_fts5():
                        log.warning("this SQLite has no FTS5: search falls back to keyword matching")
                        continue
                    fts = "1"
                self.conn.execute(statement)
            self.set_meta("schema_version", str(SCHEMA_VERSION))
            self.set_meta("fts", fts)
            self.release_free_pages()

    @contextmanager
    def atomic(self) -> Iterator[sqlite3.Connection]:
        """One transaction (a savepoint when nested); rollback on any exception."""
        if self.conn.in_transaction:
            name = f"sp{id(self)}"
            self.conn.execute(f"SAVEPOINT {name}")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute(f"ROLLBACK TO {name}")
                self.conn.execute(f"RELEASE {name}")
                raise
            self.conn.execute(f"RELEASE {name}")
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise LockedError(
                    f"the index {self.path} is locked by another crg-review process: wait for it and retry"
                ) from exc
            raise
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    @contextmanager
    def bulk_load(self, indexes: tuple[str, ...] | None = None) -> Iterator[None]:
        """Inside a transaction: drop the look-up indexes while many rows go in, rebuild them after
        (one sort instead of a B-tree insert per row). Indexes the writes themselves use stay."""
        names = indexes or _BULK_INDEXES
        statements = [
            r[0]
            for r in self.conn.execute(
                "SELECT sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL AND name IN "
                f"({','.join('?' * len(names))})",
                names,
            )
        ]
        for name in names:
            self.conn.execute(f"DROP INDEX IF EXISTS {quote_ident(name)}")
        try:
            yield
        finally:
            for sql in statements:
                self.conn.execute(sql)

    @contextmanager
    def lookup_index(self, name: str, table: str, columns: str) -> Iterator[None]:
        """Inside a transaction: an index that only one pass of reads needs (created, then dropped; one
        the schema already has stays)."""
        if self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='index' AND name=?", (name,)).fetchone():
            yield
            return
        self.conn.execute(f"CREATE INDEX {quote_ident(name)} ON {quote_ident(table)}({columns})")
        try:
            yield
        finally:
            self.conn.execute(f"DROP INDEX IF EXISTS {quote_ident(name)}")

    def copy_to(self, path: Path) -> bool:
        """Write the whole database as this connection sees it, uncommitted rows included (other
        processes cannot see them), to ``path`` for :func:`open_copy`; False when this SQLite cannot."""
        serialize = getattr(self.conn, "serialize", None)
        if serialize is None:
            return False
        try:
            data = serialize()
        except sqlite3.Error as exc:  # a build without SQLITE_ENABLE_DESERIALIZE
            log.debug("cannot serialize the index: %s", exc)
            return False
        path.write_bytes(data)
        return True

    # --- meta ------------------------------------------------------------------------------------

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # --- files -----------------------------------------------------------------------------------

    def file_oids(self, paths: Iterable[str] | None = None) -> dict[str, str]:
        """path → blob id of every indexed (or counted-as-skipped) file, or of those among ``paths``."""
        if paths is None:
            return {r[0]: r[1] for r in self.conn.execute("SELECT path, oid FROM files")}
        wanted = sorted(set(paths))
        found: dict[str, str] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            rows = self.conn.execute(f"SELECT path, oid FROM files WHERE path IN ({','.join('?' * len(chunk))})", chunk)
            found.update((r[0], r[1]) for r in rows)
        return found

    def clear(self) -> None:
        """Forget every file (a full rebuild), keeping the schema and the vectors."""
        leaves = ("edges", "unresolved", "refs", "imports", "bases")
        # No row points into these tables: their indexes go while the rows go and are made again on the
        # empty tables (django: 1.1 s of deletes become 0.45 s). symbols_parent stays: the foreign key
        # check of every deleted symbol looks up its children through it.
        doomed = tuple(
            r[0]
            for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL AND "
                f"(tbl_name IN ({','.join('?' * len(leaves))}) OR name='symbols_name')",
                leaves,
            )
        )
        with self.bulk_load(doomed):
            for table in leaves:
                self.conn.execute(f"DELETE FROM {table}")
            self.conn.execute("UPDATE symbols SET parent_id=NULL")
            self.conn.execute("DELETE FROM symbols")
        self.conn.execute("DELETE FROM files")
        if self.has_fts:
            self.conn.execute("INSERT INTO symbols_fts(symbols_fts) VALUES ('delete-all')")
        self.release_free_pages()

    def release_free_pages(self) -> None:
        """Inside a transaction: cut the pages no row uses off the file (an index made incremental-vacuum only).
        A full build copies the database for its helper process (:meth:`copy_to`); the old rows' pages
        would be copied too (django: 80 MiB more in both processes)."""
        if self.conn.execute("PRAGMA auto_vacuum").fetchone()[0] != 2:
            return
        # each step of the pragma frees one page, and sqlite3 steps a statement with no columns once
        while self.conn.execute("PRAGMA freelist_count").fetchone()[0]:
            self.conn.execute("PRAGMA incremental_vacuum(1000000)")

    def make_vacuumable(self) -> None:
        """Outside a transaction: turn an index made before incremental vacuum into one (a VACUUM, once;
        django: 0.6 s), so that a full rebuild gives back the old rows' pages."""
        if self.conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2:
            return
        log.info("making the index incremental-vacuum (once)")
        # the copy VACUUM makes goes to a temporary file through a small cache, not to this process's memory
        self.conn.execute("PRAGMA temp_store=FILE")
        self.conn.execute("PRAGMA cache_size=-4096")
        try:
            self.conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            self.conn.execute("VACUUM")
        finally:
            self.conn.execute("PRAGMA temp_store=MEMORY")
            self.conn.execute(f"PRAGMA cache_size={CACHE_KIB}")

    def delete_file(self, path: str) -> None:
        row = self.conn.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        if row is None:
            return
        fid = row[0]
        self._fts_delete(fid)
        # children first so that parent_id cascades do not fight the file cascade
        self.conn.execute("DELETE FROM edges WHERE file_id=? OR dst_file_id=?", (fid, fid))
        self.conn.execute("DELETE FROM unresolved WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM refs WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM imports WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM bases WHERE file_id=?", (fid,))
        self.conn.execute("UPDATE symbols SET parent_id=NULL WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM symbols WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM files WHERE id=?", (fid,))

    def _fts_delete(self, file_id: int) -> None:
        if not self.has_fts:
            return
        # contentless FTS5 forgets a row only when given the values it indexed
        rows = self.conn.execute(
            "SELECT id, name, qualname, signature, docstring FROM symbols WHERE file_id=?", (file_id,)
        ).fetchall()
        self.conn.executemany(
            "INSERT INTO symbols_fts(symbols_fts, rowid, name, qualname, signature, docstring)"
            " VALUES ('delete', ?, ?, ?, ?, ?)",
            [(r[0], name_tokens(r[1]), r[2], r[3], r[4]) for r in rows],
        )

    def add_skipped(self, path: str, oid: str, size: int, reason: str, language: str | None = None) -> None:
        self.delete_file(path)
        self.conn.execute(
            "INSERT INTO files(path, language, oid, size, status) VALUES (?, ?, ?, ?, ?)",
            (path, language, oid, size, f"skipped:{reason}"),
        )

    def add_file(self, path: str, oid: str, size: int, module: str, parsed: ParseResult) -> int:
        """Store a file's parse from scratch (new symbol ids)."""
        self.delete_file(path)
        module_symbol = parsed.symbols[0]
        cur = self.conn.execute(
            "INSERT INTO files(path, language, oid, size, status, module, is_test) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (path, parsed.language, oid, size, "partial" if parsed.has_errors else "ok", module, module_symbol.is_test),
        )
        fid = int(cur.lastrowid or 0)
        ids = self._new_ids([s.qualname for s in parsed.symbols])
        self._insert_symbols(fid, parsed.symbols, ids, ids)
        self._insert_facts(fid, parsed, ids)
        return fid

    def replace_file(self, path: str, oid: str, size: int, module: str, parsed: ParseResult) -> FileDelta:
        """Store a new parse of an indexed file, keeping the ids of symbols whose qualname survives, so
        that edges into them stay valid. Says what changed for other files' resolution."""
        row = self.conn.execute("SELECT id, status FROM files WHERE path=?", (path,)).fetchone()
        if row is None or str(row[1]).startswith("skipped:"):
            fid = self.add_file(path, oid, size, module, parsed)
            decorators = _decorator_names(d for s in parsed.symbols for d in s.decorators)
            return FileDelta(fid, self.names_of(fid) | path_names(path) | self._package_names(path) | decorators, set(), True)
        fid = int(row[0])
        old = {
            r[1]: r
            for r in self.conn.execute(
                # the parser's test mark (mark_inherited_tests sets 2 for others, once edges are resolved)
                "SELECT s.id, s.qualname, s.kind, s.name, p.qualname, s.decorators, s.params, s.signature, s.is_test = 1,"
                " s.docstring FROM symbols s LEFT JOIN symbols p ON p.id=s.parent_id WHERE s.file_id=?",
                (fid,),
            )
        }
        new = {s.qualname: s for s in parsed.symbols}
        removed = [q for q in old if q not in new]
        added = [q for q in new if q not in old]

        def facts(s: Symbol) -> tuple[object, ...]:
            return (
                s.kind,
                s.name,
                s.parent if s.parent is not None else (None if s.qualname == MODULE_QUALNAME else MODULE_QUALNAME),
                json.dumps(list(s.decorators)) if s.decorators else "[]",
                json.dumps(list(s.params)) if s.params else "[]",
                s.signature,
                int(s.is_test),
            )

        changed = [q for q in new if q in old and tuple(old[q][2:9]) != facts(new[q])]
        names = {old[q][3] for q in removed} | {new[q].name for q in added} | {new[q].name for q in changed}
        # the last names of the bases a class kept in this file gained or lost: a parameter annotated with an outside
        # base may hold an instance of it (resolve.Resolver._outside_base_overrides). A class that came or went brings
        # or takes its methods, whose names are above; naming its bases too would re-resolve every file that says
        # `Exception` or `Model` whenever a class deriving from one is added
        for q in changed:
            if old[q][2] in CLASS_KINDS:
                before = {r[0] for r in self.conn.execute("SELECT name FROM bases WHERE symbol_id=?", (int(old[q][0]),))}
                names.update(before ^ {base_name(b.text) for b in parsed.bases if b.symbol == q})
        members_moved = bool(removed or added)
        removed_ids = [int(old[q][0]) for q in removed]
        dependents = self._files_with_edges_into(removed_ids) - {fid}
        old_imports = set(self._import_rows(fid))
        # a module-level `OMD = OrderedMultiDict` or `json = JSONBackend()` is a name other files import
        # (resolve.Resolver._module_alias, Resolver._imported_instances)
        old_aliases = set(self._module_aliases(fid))
        new_aliases = {
            (r.name, r.receiver) for r in parsed.references if r.kind in ("alias", "assign") and r.scope == MODULE_QUALNAME
        }
        names.update(n for n, _ in old_aliases ^ new_aliases)
        # what this file binds by import can change what other files reach through it (re-exports)
        import_changes = old_imports ^ set(_import_rows_of(parsed))
        for module_, name, alias, level, _scope in import_changes:
            names.update(x for x in (name, alias, module_tail(module_)) if x)
        if import_changes:  # `from here import *` elsewhere now offers something else
            names.update(path_names(path))
        # the wrapper a decorator of another file returns calls the functions it decorates here: that file's edges
        # change with which functions here name it, and how (affected.affected_files)
        rebound = bool(import_changes or old_aliases ^ new_aliases)
        gone, came = set(removed) | set(changed), set(added) | set(changed)
        names.update(_decorator_names(d for q in old if rebound or q in gone for d in json.loads(old[q][5] or "[]")))
        names.update(_decorator_names(d for q in new if rebound or q in came for d in new[q].decorators))
        if members_moved:  # a class gained or lost a member: look-ups through it and its subclasses change
            names.update(str(r[3]) for r in old.values() if r[2] in CLASS_KINDS)
            names.update(s.name for s in parsed.symbols if s.kind in CLASS_KINDS)
        # other files read what a function here returns (resolve.Resolver._returned_classes): its name and those of
        # the functions around it (a decorator whose wrapper it is) when that changed or may mean something else now
        functions = {q for q, r in old.items() if r[2] in FUNCTION_KINDS} | {
            s.qualname for s in parsed.symbols if s.kind in FUNCTION_KINDS
        }
        returns = _returns_changed(self._return_facts(fid), _return_facts_of(parsed), names)
        names.update(_enclosing_names(returns | gone | came, functions))
        # a function that starts or stops calling a parameter: the files giving it functions resolve those calls
        # (resolve: "passed" from another file)
        names.update(q.rpartition(".")[2] for q in self._parameter_callers(fid) ^ _parameter_callers_of(parsed))
        # and the methods a class here stores in a table on self, which its base's file may call (the table's name)
        stored_now = _stored_methods_of(parsed)
        stored = self._stored_methods(fid) ^ stored_now
        stored |= {f for f in stored_now if f[2].partition(".")[2] in names}
        names.update(variable.partition(".")[2] for _scope, variable, _value in stored)
        # what `self.x` holds in a subclass of another file may be stated in a class here (resolve.Resolver._facts_of):
        # its subclasses' files are re-resolved when the facts of its body and methods, its methods' signatures or
        # this file's imports change
        old_facts, new_facts = self._class_facts(fid), _class_facts_of(parsed)
        for q in old_facts.keys() | new_facts.keys():
            if rebound or old_facts.get(q) != new_facts.get(q):
                names.add("^" + q.rpartition(".")[2])
        # what a `__getattr__` forwards to (`return getattr(self.proxy_target, attr)`, resolve.Resolver._delegated): as
        # when one comes or goes, every file is re-resolved (affected.affected_files)
        if self._hook_refs(fid) != _hook_refs_of(parsed):
            names.add("__getattr__")
        # a class body's `text = property(_get, _set)`: other files' `obj.text` runs the accessor it names
        # (resolve.Resolver._descriptor_of), which a change of the body's statements, or of what they name, changes
        old_bodies, new_bodies = self._class_statements(fid), _class_statements_of(parsed)
        for q in old_bodies.keys() | new_bodies.keys():
            if members_moved or old_bodies.get(q) != new_bodies.get(q):
                for body in (old_bodies.get(q, ()), new_bodies.get(q, ())):
                    names.update(name for kind, name, text in body if kind == "assign" and text == "property")
        # FTS rows are rewritten only where what they index changed: a body edit leaves them (and the pages
        # of the index's segments, which every rewrite adds to and merges) alone
        fts_stale = [q for q in old if q not in new or (old[q][3], old[q][7], old[q][9]) != (new[q].name, new[q].signature, new[q].docstring)]
        if self.has_fts:
            self.conn.executemany(
                "INSERT INTO symbols_fts(symbols_fts, rowid, name, qualname, signature, docstring)"
                " VALUES ('delete', ?, ?, ?, ?, ?)",
                [(r[0], name_tokens(r[3]), r[1], r[7], r[9]) for r in (old[q] for q in fts_stale)],
            )
        for table in ("edges", "unresolved", "refs", "imports", "bases"):
            self.conn.execute(f"DELETE FROM {table} WHERE file_id=?", (fid,))
        if removed_ids:
            marks = ",".join("?" * len(removed_ids))
            self.conn.execute(f"UPDATE symbols SET parent_id=NULL WHERE id IN ({marks})", removed_ids)
            self.conn.execute(f"DELETE FROM symbols WHERE id IN ({marks})", removed_ids)
        ids = {q: int(old[q][0]) for q in new if q in old}
        fresh = self._new_ids(added)
        ids.update(fresh)
        self._insert_symbols(fid, [new[q] for q in added], ids, fresh)
        self.conn.executemany(
            f"UPDATE symbols SET {', '.join(c + '=?' for c in _SYMBOL_FIELDS)} WHERE id=?",
            [(*self._symbol_fields(s, ids), ids[s.qualname]) for s in parsed.symbols if s.qualname in old],
        )
        if self.has_fts:
            self.conn.executemany(
                "INSERT INTO symbols_fts(rowid, name, qualname, signature, docstring) VALUES (?,?,?,?,?)",
                [(ids[q], name_tokens(new[q].name), q, new[q].signature, new[q].docstring) for q in fts_stale if q in new],
            )
        self._insert_facts(fid, parsed, ids)
        self.conn.execute(
            "UPDATE files SET language=?, oid=?, size=?, status=?, module=?, is_test=? WHERE id=?",
            (
                parsed.language,
                oid,
                size,
                "partial" if parsed.has_errors else "ok",
                module,
                parsed.symbols[0].is_test,
                fid,
            ),
        )
        return FileDelta(fid, names, dependents, False)

    def _package_names(self, path: str) -> set[str]:
        """For a package's ``__init__.py`` coming or going: the names its directory's modules are imported by, as
        top-level names (modulemap.ModuleMap._python_absolute ranks a module inside a package last)."""
        directory, _, name = path.rpartition("/")
        if name not in ("__init__.py", "__init__.pyi"):
            return set()
        prefix = escape_like(directory + "/") if directory else ""
        rows = self.conn.execute("SELECT path FROM files WHERE path LIKE ? ESCAPE '\\'", (prefix + "%",))
        return {r[0][len(directory) + 1 if directory else 0 :].split("/")[0].split(".")[0] for r in rows}

    def remove_file(self, path: str) -> FileDelta | None:
        """Delete a file, first saying what depended on it."""
        row = self.conn.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        if row is None:
            return None
        fid = int(row[0])
        names = self.names_of(fid) | path_names(path) | self._package_names(path)
        decorators = [
            d
            for (text,) in self.conn.execute("SELECT decorators FROM symbols WHERE file_id=? AND decorators != '[]'", (fid,))
            for d in json.loads(text)
        ]
        names |= _decorator_names(decorators)
        dependents = {
            int(r[0]) for r in self.conn.execute("SELECT DISTINCT file_id FROM edges WHERE dst_file_id=?", (fid,))
        } - {fid}
        self.delete_file(path)
        return FileDelta(fid, names, dependents, False)

    def names_of(self, fid: int) -> set[str]:
        """Every name a file defines or binds by import (what other files may resolve through it)."""
        q = self.conn.execute
        names = {r[0] for r in q("SELECT DISTINCT name FROM symbols WHERE file_id=?", (fid,))}
        for module_, name, alias, _level, _scope in self._import_rows(fid):
            names.update(x for x in (name, alias, module_tail(module_)) if x)
        names.update(n for n, _ in self._module_aliases(fid))
        return names

    def _return_facts(self, fid: int) -> dict[str, set[tuple[str, str]]]:
        """A stored file's facts of what its functions return: scope qualname → {(kind, text)}."""
        out: dict[str, set[tuple[str, str]]] = {}
        for qualname, kind, text in self.conn.execute(
            "SELECT s.qualname, r.kind, r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id"
            " WHERE r.file_id=? AND r.name=? AND r.kind IN ('assign', 'alias')",
            (fid, RETURN_FACT),
        ):
            out.setdefault(str(qualname), set()).add((str(kind), str(text)))
        return out

    def _parameter_callers(self, fid: int) -> set[str]:
        """A stored file's functions (qualnames) that call a parameter (model.calls_a_parameter)."""
        params = {
            str(q): json.loads(p)
            for q, p in self.conn.execute(
                "SELECT qualname, params FROM symbols WHERE file_id=? AND kind IN ('function','method')", (fid,)
            )
        }
        refs = self.conn.execute(
            "SELECT s.qualname, r.kind, r.name, r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id"
            f" WHERE r.file_id=? AND r.kind IN ({','.join('?' * len(PARAMETER_CALL_KINDS))})",
            (fid, *PARAMETER_CALL_KINDS),
        )
        return parameter_callers(params.get, ((str(q), str(k), str(n), str(r)) for q, k, n, r in refs))

    def _hook_refs(self, fid: int) -> set[tuple[str, str, str, str, int]]:
        """A stored file's references in its ``__getattr__`` methods that say what it forwards to (:func:`_forwarding`):
        (method qualname, kind, name, receiver, line from the method's first)."""
        return {
            (str(q), str(kind), str(name), str(receiver), int(line) - int(start))
            for q, kind, name, receiver, line, start in self.conn.execute(
                "SELECT s.qualname, r.kind, r.name, r.receiver, r.line, s.start_line FROM refs r"
                " JOIN symbols s ON s.id=r.scope_id WHERE r.file_id=? AND s.name='__getattr__'",
                (fid,),
            )
            if _forwarding(str(kind), str(name), str(receiver))
        }

    def _class_facts(self, fid: int) -> dict[str, frozenset[tuple[str, ...]]]:
        """A stored file's classes: qualname → what ``self.x`` holds may be read from (:func:`_self_facts`)."""
        kinds = ",".join("?" * len(CLASS_KINDS))
        classes = [str(r[0]) for r in self.conn.execute(
            f"SELECT qualname FROM symbols WHERE file_id=? AND kind IN ({kinds})", (fid, *CLASS_KINDS)
        )]
        facts = self.conn.execute(
            "SELECT CASE WHEN s.kind IN (" + kinds + ") THEN s.qualname ELSE c.qualname END, s.qualname, r.kind, r.name,"
            " r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id LEFT JOIN symbols c ON c.id=s.parent_id"
            f" WHERE r.file_id=? AND r.kind IN ({','.join('?' * len(FACT_KINDS))})"
            f" AND (s.kind IN ({kinds}) OR c.kind IN ({kinds}))",
            (*CLASS_KINDS, fid, *FACT_KINDS, *CLASS_KINDS, *CLASS_KINDS),
        )
        signatures = self.conn.execute(
            "SELECT c.qualname, s.qualname, s.signature FROM symbols s JOIN symbols c ON c.id=s.parent_id"
            f" WHERE s.file_id=? AND c.kind IN ({kinds})",
            (fid, *CLASS_KINDS),
        )
        return _self_facts(classes, [tuple(map(str, r)) for r in facts], [tuple(map(str, r)) for r in signatures])

    def _class_statements(self, fid: int) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """A stored file's class bodies that make a ``property(...)``: class qualname → the body's assignments,
        aliases and names given, (kind, name, text) in order."""
        out: dict[str, list[tuple[str, str, str]]] = {}
        for q, kind, name, text in self.conn.execute(
            "SELECT s.qualname, r.kind, r.name, r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id"
            f" WHERE r.file_id=? AND s.kind IN ({','.join('?' * len(CLASS_KINDS))})"
            " AND r.kind IN ('assign', 'alias', 'ref') ORDER BY r.line, r.id",
            (fid, *CLASS_KINDS),
        ):
            out.setdefault(str(q), []).append((str(kind), str(name), str(text)))
        return {q: tuple(body) for q, body in out.items() if ("assign", "property") in {(k, t) for k, _n, t in body}}

    def _stored_methods(self, fid: int) -> set[tuple[str, str, str]]:
        """A stored file's facts of methods stored in tables on self: (scope qualname, ``self.table``, ``self.method``)."""
        return {
            (str(q), str(variable), str(value))
            for q, variable, value in self.conn.execute(
                "SELECT s.qualname, r.name, r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id"
                " WHERE r.file_id=? AND r.kind='item' AND r.name LIKE 'self.%' AND r.receiver LIKE 'self.%'",
                (fid,),
            )
            if stored_method(str(variable), str(value))
        }

    def _module_aliases(self, fid: int) -> list[tuple[str, str]]:
        """(name, text) of a file's module-level ``name = other`` and ``name = Maker(...)`` facts."""
        return [
            (r[0], r[1])
            for r in self.conn.execute(
                "SELECT r.name, r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id"
                " WHERE r.file_id=? AND r.kind IN ('alias', 'assign') AND s.kind='module'",
                (fid,),
            )
        ]

    def _import_rows(self, fid: int) -> list[tuple[str, str | None, str | None, int, str]]:
        return [
            (r[0], r[1], r[2], r[3], r[4])
            for r in self.conn.execute(
                "SELECT i.module, i.name, i.alias, i.level, s.qualname FROM imports i JOIN symbols s ON s.id=i.scope_id"
                " WHERE i.file_id=?",
                (fid,),
            )
        ]

    def _files_with_edges_into(self, symbol_ids: list[int]) -> set[int]:
        out: set[int] = set()
        for i in range(0, len(symbol_ids), 500):
            chunk = symbol_ids[i : i + 500]
            out.update(
                int(r[0])
                for r in self.conn.execute(
                    f"SELECT DISTINCT file_id FROM edges WHERE dst_id IN ({','.join('?' * len(chunk))})", chunk
                )
            )
        return out

    def _new_ids(self, qualnames: list[str]) -> dict[str, int]:
        first = int(self.conn.execute("SELECT coalesce(max(id), 0) + 1 FROM symbols").fetchone()[0])
        return {q: first + n for n, q in enumerate(qualnames)}

    @classmethod
    def _symbol_fields(cls, s: Symbol, ids: dict[str, int]) -> tuple[object, ...]:
        """The values of :data:`_SYMBOL_FIELDS` for ``s`` (what a re-parse may change about a kept symbol)."""
        return (
            cls._parent_id(s, ids),
            s.kind,
            s.name,
            s.start_line,
            s.end_line,
            s.signature,
            s.docstring,
            s.is_test,
            json.dumps(list(s.decorators)) if s.decorators else "[]",
            json.dumps(list(s.params)) if s.params else "[]",
        )

    @staticmethod
    def _parent_id(s: Symbol, ids: dict[str, int]) -> int | None:
        if s.parent:
            return ids.get(s.parent)
        return None if s.qualname == MODULE_QUALNAME else ids.get(MODULE_QUALNAME)

    def _insert_symbols(self, fid: int, symbols: list[Symbol], ids: dict[str, int], fresh: dict[str, int]) -> None:
        """Insert ``symbols`` (ids from ``ids``, parents looked up there too; FTS rows for them)."""
        self.conn.executemany(
            f"INSERT INTO symbols(id, file_id, qualname, {', '.join(_SYMBOL_FIELDS)})"
            f" VALUES (?,?,?,{','.join('?' * len(_SYMBOL_FIELDS))})",
            [(ids[s.qualname], fid, s.qualname, *self._symbol_fields(s, ids)) for s in symbols],
        )
        if self.has_fts:
            self.conn.executemany(
                "INSERT INTO symbols_fts(rowid, name, qualname, signature, docstring) VALUES (?,?,?,?,?)",
                [(ids[s.qualname], name_tokens(s.name), s.qualname, s.signature, s.docstring) for s in symbols],
            )

    def _insert_facts(self, fid: int, parsed: ParseResult, ids: dict[str, int]) -> None:
        top = ids[MODULE_QUALNAME]
        self.conn.executemany(
            "INSERT INTO refs(file_id, scope_id, kind, name, receiver, line, arity, keywords) VALUES (?,?,?,?,?,?,?,?)",
            [
                (fid, ids.get(r.scope, top), r.kind, r.name, r.receiver, r.line, r.arity, ",".join(r.keywords))
                for r in parsed.references
            ],
        )
        self.conn.executemany(
            "INSERT INTO imports(file_id, scope_id, module, module_tail, name, alias, level, line)"
            " VALUES (?,?,?,?,?,?,?,?)",
            [
                (fid, ids.get(i.scope, top), i.module, module_tail(i.module), i.name, i.alias, i.level, i.line)
                for i in parsed.imports
            ],
        )
        self.conn.executemany(
            "INSERT INTO bases(symbol_id, file_id, text, name, line) VALUES (?,?,?,?,?)",
            [(ids[b.symbol], fid, b.text, base_name(b.text), b.line) for b in parsed.bases if b.symbol in ids],
        )

    def mark_inherited_tests(self, files: Iterable[int] | None, test_bases: Iterable[str]) -> None:
        """unittest runs a TestCase subclass whatever its name, and so does pytest: a class of a Python test file
        whose in-repo ancestors include one deriving from a ``test_bases`` name (a base in a helper module:
        jsonpickle's ``class BackendBase(SkippableTest)``) is a test class, its ``test*`` methods tests. The
        parser sees one file; this marks them (``is_test = 2``) once inherit edges are resolved. ``files``: the
        files just resolved (None: all), whose classes and every class below them are looked at again."""
        q = self.conn.execute
        # the classes the parser did not mark of Python test files (not conftest.py), and of files where it marked a
        # TestCase subclass (parsedatetime's tests/TestLocaleBase.py: `class test(unittest.TestCase)`, then
        # `class TestDayOffsets(test)`, which inherits test's tests)
        candidate_sql = (
            "SELECT s.id FROM symbols s JOIN files f ON f.id=s.file_id WHERE s.kind='class' AND s.is_test=0"
            " AND f.language='python' AND f.path NOT LIKE '%conftest.py' AND (f.is_test=1 OR EXISTS"
            " (SELECT 1 FROM symbols t WHERE t.file_id=f.id AND t.kind='class' AND t.is_test=1))"
        )
        candidates: set[int] = set()
        if files is None:
            q("UPDATE symbols SET is_test=0 WHERE is_test=2")
            candidates.update(r[0] for r in q(candidate_sql))
        else:
            scope: set[int] = set()
            for chunk in _chunked(sorted(set(files))):
                scope.update(r[0] for r in q(f"SELECT id FROM symbols WHERE kind='class' AND file_id IN ({chunk})"))
            frontier = set(scope)
            while frontier:
                below: set[int] = set()
                for chunk in _chunked(sorted(frontier)):
                    below.update(r[0] for r in q(f"SELECT src_id FROM edges WHERE kind='inherit' AND dst_id IN ({chunk})"))
                frontier = below - scope
                scope |= frontier
            for chunk in _chunked(sorted(scope)):
                q(f"UPDATE symbols SET is_test=0 WHERE id IN ({chunk}) AND is_test=2")
                q(f"UPDATE symbols SET is_test=0 WHERE parent_id IN ({chunk}) AND is_test=2")
                candidates.update(r[0] for r in q(f"{candidate_sql} AND s.id IN ({chunk})"))
        if not candidates:
            return
        names = sorted(set(test_bases))
        roots = {r[0] for r in q(f"SELECT symbol_id FROM bases WHERE name IN ({','.join('?' * len(names))})", names)}
        derived: set[int] = set()
        for chunk in _chunked(sorted(candidates)):
            derived.update(
                r[0]
                for r in q(
                    "WITH RECURSIVE up(cls, anc) AS ("
                    f" SELECT src_id, dst_id FROM edges WHERE kind='inherit' AND src_id IN ({chunk})"
                    " UNION SELECT up.cls, e.dst_id FROM up JOIN edges e ON e.src_id=up.anc AND e.kind='inherit')"
                    " SELECT cls, anc FROM up"
                )
                if r[1] in roots
            )
        for chunk in _chunked(sorted(derived)):
            q(f"UPDATE symbols SET is_test=2 WHERE id IN ({chunk})")
            q(f"UPDATE symbols SET is_test=2 WHERE parent_id IN ({chunk}) AND kind='method' AND name GLOB 'test*' AND is_test=0")

    # --- whole-index reads -----------------------------------------------------------------------

    def has_files(self) -> bool:
        """Whether the index holds any file row (parsed or counted as skipped)."""
        return self.conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None

    def file_count(self) -> int:
        """How many files the index holds (parsed ones: the skipped are counted in :meth:`stats`)."""
        return int(self.conn.execute("SELECT count(*) FROM files WHERE status NOT LIKE 'skipped:%'").fetchone()[0])

    def has_vectors(self) -> bool:
        """Whether any symbol was ever embedded (``crg-review search`` ran here): then the commands that
        update the index keep the vectors current too."""
        return self.conn.execute("SELECT 1 FROM vectors LIMIT 1").fetchone() is not None

    def stats(self) -> dict[str, Any]:
        """Counts that describe the index (deterministic key order)."""
        q = self.conn.execute
        by_language: dict[str, dict[str, int]] = {}
        for language, n in q(
            "SELECT language, count(*) FROM files WHERE status NOT LIKE 'skipped:%' GROUP BY language ORDER BY language"
        ):
            by_language[language] = {"files": n, "symbols": 0}
        for language, n in q(
            "SELECT f.language, count(*) FROM symbols s JOIN files f ON f.id=s.file_id GROUP BY f.language"
        ):
            by_language.setdefault(language, {"files": 0, "symbols": 0})["symbols"] = n
        skipped = {
            status.split(":", 1)[1]: n
            for status, n in q(
                "SELECT status, count(*) FROM files WHERE status LIKE 'skipped:%' GROUP BY status ORDER BY status"
            )
        }
        wal = Path(str(self.path) + "-wal")
        db_bytes = self.path.stat().st_size if self.path.exists() else 0
        return {
            "files": q("SELECT count(*) FROM files WHERE status NOT LIKE 'skipped:%'").fetchone()[0],
            "files_with_syntax_errors": q("SELECT count(*) FROM files WHERE status='partial'").fetchone()[0],
            "skipped": skipped,
            "symbols": q("SELECT count(*) FROM symbols").fetchone()[0],
            "edges": q("SELECT count(*) FROM edges").fetchone()[0],
            "by_kind": dict(q("SELECT kind, count(*) FROM symbols GROUP BY kind ORDER BY kind").fetchall()),
            "by_language": dict(sorted(by_language.items())),
            "edges_by_kind": dict(q("SELECT kind, count(*) FROM edges GROUP BY kind ORDER BY kind").fetchall()),
            "resolution": dict(
                q("SELECT resolution, count(*) FROM edges GROUP BY resolution ORDER BY resolution").fetchall()
            ),
            "unresolved": q("SELECT count(*) FROM unresolved").fetchone()[0],
            "unresolved_by_reason": dict(
                q("SELECT reason, count(*) FROM unresolved GROUP BY reason ORDER BY reason").fetchall()
            ),
            "tests": q("SELECT count(*) FROM symbols WHERE is_test!=0 AND kind!='class'").fetchone()[0],
            "vectors": q("SELECT count(*) FROM vectors").fetchone()[0],
            "fts": self.has_fts,
            "schema_version": SCHEMA_VERSION,
            "indexed": self.get_meta("indexed"),
            "db_path": str(self.path),
            "db_bytes": db_bytes + (wal.stat().st_size if wal.exists() else 0),
        }

    def dump(self) -> dict[str, Any]:
        """A canonical, id-free dump of the graph (equal for equal indexes, however they were built)."""
        q = self.conn.execute
        files = [list(r) for r in q("SELECT path, language, oid, status FROM files ORDER BY path")]
        symbols = [
            list(r)
            for r in q(
                "SELECT f.path, s.qualname, s.kind, s.start_line, s.end_line, s.signature, s.is_test "
                "FROM symbols s JOIN files f ON f.id=s.file_id ORDER BY f.path, s.qualname"
            )
        ]
        edges = [
            list(r)
            for r in q(
                "SELECT sf.path, s.qualname, df.path, d.qualname, e.kind, e.resolution, round(e.confidence, 3), "
                "e.candidates, e.line FROM edges e JOIN symbols s ON s.id=e.src_id JOIN symbols d ON d.id=e.dst_id "
                "JOIN files sf ON sf.id=s.file_id JOIN files df ON df.id=d.file_id"
            )
        ]
        edges.sort()
        unresolved = [
            list(r)
            for r in q(
                "SELECT f.path, r.name, r.receiver, r.line, u.reason FROM unresolved u JOIN refs r ON r.id=u.ref_id "
                "JOIN files f ON f.id=u.file_id"
            )
        ]
        unresolved.sort()
        return {"files": files, "symbols": symbols, "edges": edges, "unresolved": unresolved}


class FileDelta(NamedTuple):
    """What storing one file changed, for the files that resolve through it."""

    file_id: int
    names: set[str]  # names whose meaning may differ now (defined, removed, re-bound by import)
    dependents: set[int]  # files with edges into symbols that are gone
    new: bool


def _decorator_names(decorators: Iterable[str]) -> set[str]:
    """What a file's decorators name for other files: their :func:`decorator_marks`, and the name a fixture's
    decorator gives it (`@pytest.fixture(name="app")`: taken by parameters of that name)."""
    texts = list(decorators)
    return decorator_marks(texts) | {n for d in texts if (n := fixture_given_name(d))}


def decorator_marks(decorators: Iterable[str]) -> set[str]:
    """``@name`` for each decorator's name: in a :class:`FileDelta`'s names, the decorators its functions use."""
    return {"@" + decorator_name(d) for d in decorators}


def escape_like(text: str) -> str:
    """``text`` for a LIKE pattern with ``ESCAPE '\\'``: its ``%``, ``_`` and backslashes match themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _hook_refs_of(parsed: ParseResult) -> set[tuple[str, str, str, str, int]]:
    """What :meth:`Store._hook_refs` reads back once ``parsed`` is stored."""
    starts = {s.qualname: s.start_line for s in parsed.symbols if s.name == "__getattr__"}
    return {
        (r.scope, r.kind, r.name, r.receiver, r.line - starts[r.scope])
        for r in parsed.references
        if r.scope in starts and _forwarding(r.kind, r.name, r.receiver)
    }


def _forwarding(kind: str, name: str, receiver: str) -> bool:
    """Whether a reference of a ``__getattr__`` may say what it forwards to (resolve.Resolver._delegated): its
    ``getattr(...)`` calls, the ``self.x`` it names, and what it returns."""
    return (kind == "call" and name == "getattr" and not receiver) or (kind == "ref" and receiver == "self") or (
        kind in ("assign", "alias") and name == RETURN_FACT
    )


def _class_facts_of(parsed: ParseResult) -> dict[str, frozenset[tuple[str, ...]]]:
    """What :meth:`Store._class_facts` reads back once ``parsed`` is stored."""
    kinds = {s.qualname: s.kind for s in parsed.symbols}
    parents = {s.qualname: s.parent for s in parsed.symbols}

    def owner(scope: str) -> str | None:
        if kinds.get(scope) in CLASS_KINDS:
            return scope
        parent = parents.get(scope)
        return parent if parent is not None and kinds.get(parent) in CLASS_KINDS else None

    facts = [(q, r.scope, r.kind, r.name, r.receiver) for r in parsed.references if r.kind in FACT_KINDS and (q := owner(r.scope))]
    signatures = [(s.parent, s.qualname, s.signature) for s in parsed.symbols if s.parent and kinds.get(s.parent) in CLASS_KINDS]
    return _self_facts([q for q, kind in kinds.items() if kind in CLASS_KINDS], facts, signatures)


def _self_facts(
    classes: Sequence[str], facts: Sequence[tuple[str, ...]], signatures: Sequence[tuple[str, ...]]
) -> dict[str, frozenset[tuple[str, ...]]]:
    """Per class, what ``self.x`` holds is read from (resolve.Resolver._types_of): the facts of its body, those of
    ``self.x`` and ``cls.x`` in its methods, those of the variables a method gives them (``self.x = x``), and its
    methods' signatures (a parameter's annotation). ``facts``: (class, scope, kind, name, text) rows."""
    out: dict[str, set[tuple[str, ...]]] = {q: set() for q in classes}
    given = {(scope, text) for q, scope, _kind, name, text in facts if name.startswith(("self.", "cls."))}
    for q, scope, kind, name, text in facts:
        if scope == q or name.startswith(("self.", "cls.")) or (scope, name) in given:
            out[q].add((scope, kind, name, text))
    for q, scope, signature in signatures:
        out[q].add((scope, signature))
    return {q: frozenset(found) for q, found in out.items()}


def _class_statements_of(parsed: ParseResult) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """What :meth:`Store._class_statements` reads back once ``parsed`` is stored."""
    classes = {s.qualname for s in parsed.symbols if s.kind in CLASS_KINDS}
    out: dict[str, list[tuple[str, str, str]]] = {}
    for r in sorted(
        (r for r in parsed.references if r.scope in classes and r.kind in ("assign", "alias", "ref")), key=lambda r: r.line
    ):
        out.setdefault(r.scope, []).append((r.kind, r.name, r.receiver))
    return {q: tuple(body) for q, body in out.items() if ("assign", "property") in {(k, t) for k, _n, t in body}}


def _stored_methods_of(parsed: ParseResult) -> set[tuple[str, str, str]]:
    """What :meth:`Store._stored_methods` reads back once ``parsed`` is stored."""
    return {(r.scope, r.name, r.receiver) for r in parsed.references if r.kind == "item" and stored_method(r.name, r.receiver)}


def _return_facts_of(parsed: ParseResult) -> dict[str, set[tuple[str, str]]]:
    """What :meth:`Store._return_facts` reads back once ``parsed`` is stored."""
    out: dict[str, set[tuple[str, str]]] = {}
    for r in parsed.references:
        if r.name == RETURN_FACT and r.kind in ("assign", "alias"):
            out.setdefault(r.scope, set()).add((r.kind, r.receiver))
    return out


def _parameter_callers_of(parsed: ParseResult) -> set[str]:
    """What :meth:`Store._parameter_callers` reads back once ``parsed`` is stored."""
    params = {s.qualname: s.params for s in parsed.symbols if s.kind in FUNCTION_KINDS}
    return parameter_callers(params.get, ((r.scope, r.kind, r.name, r.receiver) for r in parsed.references))


def _returns_changed(old: dict[str, set[tuple[str, str]]], new: dict[str, set[tuple[str, str]]], names: set[str]) -> set[str]:
    """The functions (qualnames) whose return facts changed, or name something in ``names`` (whose meaning may
    have changed)."""
    scopes = {q for q in old.keys() | new.keys() if old.get(q) != new.get(q)}
    scopes.update(q for q, facts in new.items() if any(text.partition(".")[0] in names for _, text in facts))
    return scopes


def _enclosing_names(qualnames: Iterable[str], functions: set[str]) -> set[str]:
    """The names of the functions among ``qualnames`` and of the functions they are nested in (``indent.wrapper``:
    ``wrapper`` and ``indent``, whose callers' files read what the wrapper returns)."""
    out: set[str] = set()
    for q in qualnames:
        parts = q.split(".")
        out.update(parts[i - 1] for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in functions)
    return out


def path_names(path: str) -> set[str]:
    """Names a file's path contributes to imports: ``pkg/sub/mod.py`` → {mod, sub, pkg}."""
    parts = path.split("/")
    return {parts[-1].split(".")[0], *parts[:-1]}


def _import_rows_of(parsed: ParseResult) -> list[tuple[str, str | None, str | None, int, str]]:
    return [(i.module, i.name, i.alias, i.level, i.scope) for i in parsed.imports]


def module_tail(module: str) -> str:
    """Last component of an import path: ``a.b.c`` → ``c``, ``./x/index.js`` → ``index``, ``a::b`` → ``b``."""
    tail = re.split(r"[./:\\]+", module.strip("./:\\"))[-1] if module.strip("./:\\") else ""
    return tail.rsplit(".", 1)[0] if "." in tail else tail


def base_name(text: str) -> str:
    """The last identifier of a base expression: ``abc.ABC`` → ``ABC``, ``Generic[T]`` → ``Generic``."""
    head = re.split(r"[\[<(]", text, maxsplit=1)[0]
    parts = [p for p in re.split(r"\.|::", head) if p.strip()]
    return parts[-1].strip() if parts else text


def quote_ident(name: str) -> str:
    """Quote an SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _split_sql(script: str) -> list[str]:
    out = []
    for raw in script.split(";\n"):
        lines = [ln for ln in raw.splitlines() if ln.strip() and not ln.strip().startswith("--")]
        if lines:
            out.append("\n".join(lines))
    return out


def open_copy(path: Path) -> sqlite3.Connection:
    """An in-memory, private copy of an index written by :meth:`Store.copy_to` (to read and scribble on)."""
    data = bytearray(path.read_bytes())
    # the header's file format bytes say WAL; a database in memory has no WAL: rollback journal
    data[18] = data[19] = 1
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.deserialize(data)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys=OFF")
    return conn


def default_db_path(common_dir: Path) -> Path:
    """``<git common dir>/crg-review/index.db``, unless ``CRG_REVIEW_DB`` says otherwise."""
    env = os.environ.get("CRG_REVIEW_DB")
    return Path(env) if env else common_dir / "crg-review" / "index.db"


def _chunked(ids: list[int], size: int = 500) -> Iterator[str]:
    """Integer ids as comma-separated lists for ``IN (...)``, ``size`` at a time."""
    for i in range(0, len(ids), size):
        yield ",".join(str(x) for x in ids[i : i + size])
