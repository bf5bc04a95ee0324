"""A full build's resolution shared with a helper process writes the rows one pass writes, ids included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from crg_review.gitio import Repo
from crg_review.indexer import Source, update_index
from crg_review.resolve import Resolver
from crg_review.resolve_pool import _split, resolve_everything
from crg_review.store import Store, open_copy

from .helpers import commit, make_repo, python_package, write

HIERARCHY = (
    "from pkg.d0.m1 import C1\n\n\n"
    "class Base(C1):\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return 1\n\n\n"
    "class Child(Base):\n    def step(self):\n        return super().step() + undefined_name()\n"
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    repo = make_repo(tmp_path / "repo")
    python_package(repo, 60)
    write(repo, "pkg/tree.py", HIERARCHY)
    write(repo, "pkg/use.py", "from pkg.tree import Child\n\n\ndef go(c: Child):\n    return c.run()\n")
    commit(repo)
    store = Store.open(tmp_path / "index.db")
    update_index(store, Repo(repo), Source("worktree"), full=True, workers=1)
    yield store
    store.close()


def rows(store: Store) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    edges = [tuple(r) for r in store.conn.execute("SELECT * FROM edges ORDER BY id")]
    unresolved = [tuple(r) for r in store.conn.execute("SELECT rowid, * FROM unresolved ORDER BY rowid")]
    return edges, unresolved


def re_resolve(store: Store, helpers: int) -> None:
    with store.atomic() as conn:
        conn.execute("DELETE FROM edges")
        conn.execute("DELETE FROM unresolved")
        ids = [r[0] for r in conn.execute("SELECT id FROM files WHERE status NOT LIKE 'skipped:%' ORDER BY id")]
        resolve_everything(store, Resolver(conn), ids, helpers=helpers)


def test_shared_resolution_writes_the_rows_of_one_pass(store: Store) -> None:
    alone = rows(store)
    assert any(e[3] == "inherit" for e in alone[0]) and alone[1]  # the fixture has both kinds of rows
    re_resolve(store, helpers=1)
    assert rows(store) == alone
    re_resolve(store, helpers=0)
    assert rows(store) == alone


def test_the_helper_has_files_to_resolve(store: Store) -> None:
    ids = [r[0] for r in store.conn.execute("SELECT id FROM files ORDER BY id")]
    own, theirs = _split(store.conn, ids, 0.5)
    assert own and theirs and own + theirs == ids


def test_a_copy_holds_the_rows_of_the_open_transaction(store: Store, tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt), store.atomic() as conn:
        conn.execute("UPDATE files SET module='changed' WHERE id=(SELECT min(id) FROM files)")
        assert store.copy_to(tmp_path / "copy.db")
        raise KeyboardInterrupt  # rolled back: only the copy saw the change
    copy = open_copy(tmp_path / "copy.db")
    assert copy.execute("SELECT count(*) FROM files WHERE module='changed'").fetchone()[0] == 1
    assert store.conn.execute("SELECT count(*) FROM files WHERE module='changed'").fetchone()[0] == 0
    count = "SELECT count(*) FROM edges"
    assert copy.execute(count).fetchone()[0] == store.conn.execute(count).fetchone()[0] > 0


def test_a_lookup_index_goes_after_its_pass_and_one_of_the_schema_stays(store: Store) -> None:
    def indexes() -> set[str]:
        return {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}

    with store.atomic():
        with store.lookup_index("bases_symbol", "bases", "symbol_id"):
            assert "bases_symbol" in indexes()
        assert "bases_symbol" not in indexes()
        with store.lookup_index("bases_file", "bases", "symbol_id"):  # the schema's own index of that name
            pass
        assert "bases_file" in indexes()
