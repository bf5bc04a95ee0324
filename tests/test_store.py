"""The SQLite store: transactions, schema version and migrations, damaged or foreign files, FTS5.

Every test works on a real index file; the command-line tests run ``python -m crg_review`` so that
exit codes and the messages a user sees (stderr, one line) are the real ones.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from crg_review import store as store_module
from crg_review.errors import IndexBuildError
from crg_review.gitio import Repo
from crg_review.indexer import Source, update_index
from crg_review.store import SCHEMA_VERSION, Store, fts_quote, name_tokens

from .helpers import commit, crg, make_repo, python_package, write

CODE = "def getUserName(user):\n    return helper(user)\n\n\ndef helper(u):\n    return u\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "app/users.py", CODE)
    write(repo, "app/__init__.py", "")
    commit(repo)
    return repo


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "index.db"


def indexed(repo: Path, db: Path) -> dict[str, object]:
    """Index ``repo``'s worktree into ``db`` through the CLI and return the dump."""
    run = crg("index", "--repo", str(repo), "--db", str(db))
    assert run.code == 0, run
    return crg("dump", "--repo", str(repo), "--db", str(db)).json()  # type: ignore[no-any-return]


def set_schema_version(db: Path, version: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE meta SET value=? WHERE key='schema_version'", (version,))
    conn.close()


def one_line_error(err: str) -> str:
    """stderr of an expected failure: exactly one line, no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("crg-review: error: "), err
    return lines[0]


# --- opening, transactions ------------------------------------------------------------------------


def test_open_creates_a_wal_database_with_the_schema_version(db: Path) -> None:
    store = Store.open(db)
    try:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"meta", "files", "symbols", "refs", "imports", "bases", "edges", "unresolved", "vectors"} <= tables
        indexes = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert {"edges_src", "edges_dst"} <= indexes  # both edge directions
    finally:
        store.close()


def test_atomic_rolls_back_everything_on_an_exception(db: Path) -> None:
    store = Store.open(db)
    try:
        with pytest.raises(RuntimeError), store.atomic():
            store.set_meta("a", "1")
            raise RuntimeError("boom")
        assert store.get_meta("a") is None
        assert not store.conn.in_transaction
    finally:
        store.close()


def test_nested_atomic_rolls_back_only_the_inner_savepoint(db: Path) -> None:
    store = Store.open(db)
    try:
        with store.atomic():
            store.set_meta("outer", "1")
            with pytest.raises(RuntimeError), store.atomic():
                store.set_meta("inner", "1")
                raise RuntimeError("boom")
            assert store.conn.in_transaction
        assert store.get_meta("outer") == "1"
        assert store.get_meta("inner") is None
    finally:
        store.close()


def test_a_write_is_invisible_to_other_connections_until_commit(db: Path) -> None:
    store = Store.open(db)
    other = sqlite3.connect(db)
    try:
        with store.atomic():
            store.set_meta("seen", "yes")
            assert other.execute("SELECT count(*) FROM meta WHERE key='seen'").fetchone()[0] == 0
        assert other.execute("SELECT count(*) FROM meta WHERE key='seen'").fetchone()[0] == 1
    finally:
        other.close()
        store.close()


def _pages(conn: sqlite3.Connection) -> tuple[int, int]:
    return conn.execute("PRAGMA page_count").fetchone()[0], conn.execute("PRAGMA freelist_count").fetchone()[0]


def test_clearing_gives_back_the_old_rows_pages_and_a_rollback_keeps_them(tmp_path: Path, db: Path) -> None:
    # a full build copies the database for its helper process: the old rows' pages must not go with it
    repo = make_repo(tmp_path / "big")
    python_package(repo, 60)
    commit(repo)
    before = indexed(repo, db)
    store = Store.open(db)
    try:
        assert store.conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
        full, _ = _pages(store.conn)
        with pytest.raises(RuntimeError), store.atomic():
            store.clear()
            pages, free = _pages(store.conn)
            assert free == 0 and pages < full, (pages, free, full)
            raise RuntimeError("killed")
        assert _pages(store.conn)[0] == full
    finally:
        store.close()
    assert crg("dump", "--repo", str(repo), "--db", str(db)).json() == before


def test_a_full_rebuild_makes_an_older_index_incremental_vacuum(repo: Path, db: Path) -> None:
    before = indexed(repo, db)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA auto_vacuum=NONE")
    conn.execute("VACUUM")  # as indexes made before incremental vacuum are
    assert conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 0
    conn.close()
    assert crg("index", "--full", "--repo", str(repo), "--db", str(db)).code == 0
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
    finally:
        conn.close()
    assert crg("dump", "--repo", str(repo), "--db", str(db)).json() == before


# --- schema versions and migrations ---------------------------------------------------------------


@pytest.mark.parametrize("version", [str(SCHEMA_VERSION + 1), "999", "0"])
def test_an_unknown_schema_version_is_rebuilt_cleanly_with_a_message(repo: Path, db: Path, version: str) -> None:
    before = indexed(repo, db)
    assert before["files"]
    set_schema_version(db, version)

    stats = crg("stats", "--format", "json", "--repo", str(repo), "--db", str(db))
    assert stats.code == 0, stats
    assert "Traceback" not in stats.err
    assert f"index schema {version} is not {SCHEMA_VERSION}: rebuilding" in stats.err
    assert stats.json()["files"] == 0
    assert stats.json()["schema_version"] == SCHEMA_VERSION

    # the next index run fills it again, equal to what it was
    assert indexed(repo, db) == before


def next_version_migrates_with(monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    """Pretend the code is one schema version ahead, reached from today's by ``script``."""
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(store_module, "_MIGRATIONS", {SCHEMA_VERSION: script})


def test_a_migration_upgrades_in_place_keeping_the_data(
    repo: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = indexed(repo, db)
    next_version_migrates_with(
        monkeypatch,
        "ALTER TABLE files ADD COLUMN note TEXT NOT NULL DEFAULT '';\nCREATE INDEX files_note ON files(note)",
    )
    store = Store.open(db)
    try:
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION + 1)
        assert "note" in {r[1] for r in store.conn.execute("PRAGMA table_info(files)")}
        assert store.dump() == before  # migrated, not rebuilt
    finally:
        store.close()


def test_a_failing_migration_leaves_the_old_index_untouched(
    repo: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = indexed(repo, db)
    next_version_migrates_with(
        monkeypatch, "ALTER TABLE files ADD COLUMN note TEXT;\nALTER TABLE no_such_table ADD COLUMN x TEXT"
    )
    with pytest.raises(sqlite3.OperationalError):
        Store.open(db)
    monkeypatch.undo()
    store = Store.open(db)
    try:
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert "note" not in {r[1] for r in store.conn.execute("PRAGMA table_info(files)")}
        assert store.dump() == before
    finally:
        store.close()


def test_the_schema_decision_is_taken_again_under_the_write_lock(
    repo: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes opening a new index at once: the second read "no schema yet" before the first
    created it and indexed. It must not wipe the index the first one just wrote."""
    before = indexed(repo, db)
    real_version = Store._version
    calls = []

    def stale_first_read(self: Store) -> int | None:
        calls.append(1)
        return None if len(calls) == 1 else real_version(self)

    monkeypatch.setattr(Store, "_version", stale_first_read)
    store = Store.open(db)
    try:
        assert store.dump() == before
    finally:
        store.close()


# --- files that are not (our) index -------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"this is not a database\n" * 100, bytes(range(256)) * 64, b"SQLite format 3\x00" + b"\xff" * 4000],
    ids=["text", "binary", "bad-header"],
)
@pytest.mark.parametrize("command", ["index", "stats"])
def test_a_corrupt_file_at_the_db_path_is_a_clear_error(
    repo: Path, db: Path, content: bytes, command: str
) -> None:
    db.write_bytes(content)
    run = crg(command, "--repo", str(repo), "--db", str(db))
    assert run.code == 1, run
    line = one_line_error(run.err)
    assert str(db) in line
    assert "index --full" not in line  # a rebuild cannot open it either: the advice must be to delete it
    assert "delete" in line
    assert db.read_bytes() == content  # never overwritten


def test_a_directory_at_the_db_path_is_a_clear_error(repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "adir"
    target.mkdir()
    run = crg("index", "--repo", str(repo), "--db", str(target))
    assert run.code == 1, run
    assert str(target) in one_line_error(run.err)


def test_another_applications_sqlite_database_is_refused_not_wiped(repo: Path, db: Path) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
        conn.execute("INSERT INTO invoices(amount) VALUES (42.5)")
    conn.close()

    for command in ("stats", "index"):
        run = crg(command, "--repo", str(repo), "--db", str(db))
        assert run.code == 1, run
        line = one_line_error(run.err)
        assert "not a crg-review" in line and str(db) in line

    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT amount FROM invoices").fetchall() == [(42.5,)]
        assert "meta" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()


def test_store_open_raises_index_build_error_for_a_foreign_database(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(IndexBuildError, match="not a crg-review index"):
        Store.open(db)


def test_an_empty_file_at_the_db_path_becomes_an_index(repo: Path, db: Path) -> None:
    db.write_bytes(b"")  # what `touch` leaves: SQLite treats it as an empty database
    assert indexed(repo, db)["files"]


# --- FTS5 ---------------------------------------------------------------------------------------


def test_name_tokens_split_snake_and_camel_case_and_keep_the_whole_identifier() -> None:
    assert name_tokens("getUserName") == "getusername get user name"
    assert name_tokens("parse_HTTPResponse2") == "parse_httpresponse2 parse http response 2"
    assert name_tokens("x") == "x"


def fts_names(store: Store, query: str) -> set[str]:
    rows = store.conn.execute(
        "SELECT s.qualname FROM symbols_fts JOIN symbols s ON s.id=symbols_fts.rowid WHERE symbols_fts MATCH ?",
        (query,),
    )
    return {r[0] for r in rows}


def test_fts_finds_words_of_identifiers_and_forgets_deleted_files(repo: Path, db: Path) -> None:
    store = Store.open(db)
    try:
        assert store.has_fts
        update_index(store, Repo(repo), Source("worktree"))
        assert fts_names(store, fts_quote("user")) == {"getUserName"}
        assert fts_names(store, fts_quote("getusername")) == {"getUserName"}
        assert fts_names(store, fts_quote("helper")) == {"helper"}
        # user text is quoted: FTS syntax in it is not interpreted (and does not raise)
        assert fts_names(store, fts_quote('helper" OR "user')) == set()
        assert fts_names(store, fts_quote("NEAR(")) == set()

        (repo / "app/users.py").unlink()
        commit(repo, "delete users")
        update_index(store, Repo(repo), Source("worktree"))
        assert fts_names(store, fts_quote("user")) == set()
        assert fts_names(store, fts_quote("helper")) == set()
    finally:
        store.close()


def test_fts_follows_an_edit_of_a_file(repo: Path, db: Path) -> None:
    store = Store.open(db)
    try:
        update_index(store, Repo(repo), Source("worktree"))
        write(repo, "app/users.py", CODE.replace("getUserName", "fetchAccount"))
        commit(repo, "rename")
        update_index(store, Repo(repo), Source("worktree"))
        assert fts_names(store, fts_quote("name")) == set()  # the words of the old name are gone
        assert fts_names(store, fts_quote("account")) == {"fetchAccount"}
    finally:
        store.close()


def test_fts_rows_are_rewritten_only_where_their_text_changed(repo: Path, db: Path) -> None:
    store = Store.open(db)
    try:
        update_index(store, Repo(repo), Source("worktree"))
        fts_pages = "SELECT count(*) FROM symbols_fts_data"
        before = store.conn.execute(fts_pages).fetchone()[0]
        body = CODE.replace("return u\n", "u = u or None\n    return u\n")
        write(repo, "app/users.py", body)
        commit(repo, "a body edit")
        update_index(store, Repo(repo), Source("worktree"))
        assert store.conn.execute(fts_pages).fetchone()[0] == before  # nothing it indexes changed: no new segment
        assert fts_names(store, fts_quote("helper")) == {"helper"}
        write(repo, "app/users.py", body.replace("def helper(u):\n", 'def helper(u):\n    """Trim whitespace."""\n'))
        commit(repo, "a docstring")
        update_index(store, Repo(repo), Source("worktree"))
        assert fts_names(store, fts_quote("whitespace")) == {"helper"}
        assert fts_names(store, fts_quote("user")) == {"getUserName"}
        write(repo, "app/users.py", body)
        commit(repo, "no docstring")
        update_index(store, Repo(repo), Source("worktree"))
        assert fts_names(store, fts_quote("whitespace")) == set()
        assert fts_names(store, fts_quote("helper")) == {"helper"}
    finally:
        store.close()
