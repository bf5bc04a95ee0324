"""The incremental updater on real repositories: what it parses, purges and skips, and that it ends
where a full rebuild of the same snapshot ends (compared by canonical dump)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from crg_review.gitio import Repo
from crg_review.indexer import Source, UpdateReport, builder_id, update_index
from crg_review.store import Store
from crg_review.workspace import open_workspace

from .helpers import commit, full_index_dump, git, make_repo, write

WORKTREE = Source("worktree")
STAGED = Source("staged")

UTIL = "def helper(x):\n    return x\n\n\ndef unused():\n    return 0\n"
APP = "from pkg.util import helper\n\n\ndef main():\n    return helper(1)\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/util.py", UTIL)
    write(repo, "pkg/app.py", APP)
    write(repo, "pkg/models.py", "class Model:\n    def save(self):\n        return 1\n")
    commit(repo, "initial")
    return repo


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store.open(tmp_path / "inc.db")
    yield store
    store.close()


def update(store: Store, repo: Path, source: Source = WORKTREE, **kwargs: Any) -> UpdateReport:
    return update_index(store, Repo(repo), source, **kwargs)


def full_dump(repo: Path, tmp_path: Path, source: Source = WORKTREE, **kwargs: Any) -> dict[str, Any]:
    """The dump of a from-scratch full index of ``source`` in a new database."""
    dump: dict[str, Any] = full_index_dump(repo, tmp_path / "full.db", source, **kwargs)
    return dump


def paths(store: Store) -> dict[str, str]:
    """path → status of every file row."""
    return dict(store.conn.execute("SELECT path, status FROM files ORDER BY path").fetchall())


def qualnames(store: Store, path: str) -> set[str]:
    rows = store.conn.execute(
        "SELECT s.qualname FROM symbols s JOIN files f ON f.id=s.file_id WHERE f.path=?", (path,)
    )
    return {r[0] for r in rows}


def call_edges(store: Store) -> set[tuple[str, str, str, str]]:
    return {(e[0], e[1], e[2], e[3]) for e in store.dump()["edges"] if e[4] == "call"}


# --- only what changed ------------------------------------------------------------------------------


def test_first_update_parses_everything_then_nothing(repo: Path, store: Store) -> None:
    first = update(store, repo)
    assert (first.parsed, first.deleted, first.unchanged) == (4, 0, False)
    again = update(store, repo)
    assert (again.parsed, again.deleted, again.unchanged) == (0, 0, True)


def test_only_changed_blobs_are_parsed(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    write(repo, "pkg/util.py", UTIL + "\n\ndef added():\n    return helper(2)\n")
    commit(repo, "edit util")
    report = update(store, repo)
    assert (report.parsed, report.deleted) == (1, 0)
    assert "added" in qualnames(store, "pkg/util.py")
    assert store.dump() == full_dump(repo, tmp_path)


def test_a_commit_that_changes_no_indexed_blob_parses_nothing(repo: Path, store: Store) -> None:
    update(store, repo)
    write(repo, "README.md", "# not code\n")
    git(repo, "mv", "pkg/models.py", "pkg/models2.py")
    git(repo, "mv", "pkg/models2.py", "pkg/models.py")
    commit(repo, "docs only")
    assert update(store, repo).parsed == 0


def test_deleted_files_are_purged_with_their_symbols_and_edges(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    assert ("pkg/app.py", "main", "pkg/util.py", "helper") in call_edges(store)
    (repo / "pkg/util.py").unlink()
    commit(repo, "delete util")
    report = update(store, repo)
    assert (report.parsed, report.deleted) == (0, 1)
    assert "pkg/util.py" not in paths(store)
    assert qualnames(store, "pkg/util.py") == set()
    assert not any("pkg/util.py" in (e[0], e[2]) for e in store.dump()["edges"])
    # the call in app.py lost its target: it is an unresolved reference now, as in a full build
    assert any(u[0] == "pkg/app.py" and u[1] == "helper" for u in store.dump()["unresolved"])
    assert store.dump() == full_dump(repo, tmp_path)


def test_a_renamed_file_is_reparsed_under_its_new_path_and_callers_follow(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    update(store, repo)
    git(repo, "mv", "pkg/util.py", "pkg/tools.py")
    write(repo, "pkg/app.py", APP.replace("pkg.util", "pkg.tools"))
    commit(repo, "rename util to tools")
    report = update(store, repo)
    assert (report.parsed, report.deleted) == (2, 1)
    assert "pkg/util.py" not in paths(store)
    assert qualnames(store, "pkg/tools.py") == {"<module>", "helper", "unused"}
    assert ("pkg/app.py", "main", "pkg/tools.py", "helper") in call_edges(store)
    assert store.dump() == full_dump(repo, tmp_path)


def test_a_callee_moving_to_another_file_re_resolves_the_unchanged_caller(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    update(store, repo)
    # helper moves from util to models; util re-exports it, app.py is not touched
    write(repo, "pkg/util.py", "from pkg.models import helper\n\n\ndef unused():\n    return 0\n")
    write(repo, "pkg/models.py", "def helper(x):\n    return x\n")
    commit(repo, "move helper")
    report = update(store, repo)
    assert report.parsed == 2
    assert store.dump() == full_dump(repo, tmp_path)
    assert ("pkg/app.py", "main", "pkg/models.py", "helper") in call_edges(store)


def test_full_equals_incremental_after_a_sequence_of_commits(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    steps = [
        {"pkg/extra.py": "from pkg.models import Model\n\n\ndef make():\n    return Model().save()\n"},
        {"pkg/models.py": "class Base:\n    def save(self):\n        return 0\n\n\nclass Model(Base):\n    pass\n"},
        {"pkg/util.py": None},
        {"pkg/util.py": UTIL, "pkg/extra.py": None},
    ]
    for step in steps:
        for path, content in step.items():
            if content is None:
                (repo / path).unlink()
            else:
                write(repo, path, content)
        commit(repo, "step")
        update(store, repo)
        assert store.dump() == full_dump(repo, tmp_path)
    inc = store.dump()
    schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    before = [tuple(r) for r in store.conn.execute(schema)]
    update(store, repo, full=True)
    assert store.dump() == inc
    # a rebuild over the index drops some indexes while it empties the tables: all are back
    assert [tuple(r) for r in store.conn.execute(schema)] == before


# --- what is indexed: commit, staged, worktree ------------------------------------------------------


def test_subclasses_of_another_files_testcase_are_marked_and_unmarked_as_it_changes(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    write(repo, "tests/helper.py", "import unittest\n\n\nclass Base(unittest.TestCase):\n    pass\n")
    write(
        repo,
        "tests/test_more.py",
        "from helper import Base\n\n\nclass Mid(Base):\n    def test_a(self):\n        pass\n\n    def check(self):\n"
        "        pass\n\n\nclass Leaf(Mid):\n    def test_b(self):\n        pass\n",
    )
    write(repo, "src/more.py", "from tests.helper import Base\n\n\nclass NotCollected(Base):\n    def test_c(self):\n        pass\n")
    write(repo, "tests/make.py", "from test_more import Mid\n\n\ndef make():\n    return Mid()\n")
    commit(repo, "tests")
    update(store, repo)

    def marked() -> set[str]:
        rows = store.conn.execute("SELECT s.qualname FROM symbols s WHERE s.is_test != 0 AND s.kind != 'module'")
        return {r[0] for r in rows}

    assert marked() == {"Base", "Mid", "Mid.test_a", "Leaf", "Leaf.test_b"}  # src/ is no test file
    assert store.dump() == full_dump(repo, tmp_path)
    # a body edit re-resolves the file alone: its marked classes are no change of theirs (tests/make.py names Mid)
    write(repo, "tests/test_more.py", (repo / "tests/test_more.py").read_text().replace("pass", "return None", 1))
    commit(repo, "body")
    assert update(store, repo).resolved_files == 1
    assert marked() == {"Base", "Mid", "Mid.test_a", "Leaf", "Leaf.test_b"}
    write(repo, "tests/helper.py", "class Base:\n    pass\n")  # no TestCase any more: test_more.py is not re-parsed
    commit(repo, "plain base")
    update(store, repo)
    assert marked() == set()
    assert store.dump() == full_dump(repo, tmp_path)


def test_subclasses_of_a_testcase_in_a_file_of_no_test_name_are_marked_too(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    # parsedatetime's tests/TestLocaleBase.py (run with python_files=Test*.py): `class test(unittest.TestCase)`
    # whose subclass TestDayOffsets runs test's tests as its own
    base = "import unittest\n\n\nclass test(unittest.TestCase):\n    def testTimes(self):\n        pass\n\n\n"
    write(repo, "tests/TestLocaleBase.py", base + "class TestDayOffsets(test):\n    def test_day(self):\n        pass\n")
    commit(repo, "tests")
    update(store, repo)

    def marked() -> set[str]:
        rows = store.conn.execute("SELECT s.qualname FROM symbols s WHERE s.is_test != 0 AND s.kind != 'module'")
        return {r[0] for r in rows}

    assert marked() == {"test", "test.testTimes", "TestDayOffsets", "TestDayOffsets.test_day"}
    assert store.dump() == full_dump(repo, tmp_path)
    write(repo, "tests/TestLocaleBase.py", (repo / "tests/TestLocaleBase.py").read_text().replace("(unittest.TestCase)", ""))
    commit(repo, "plain base")
    update(store, repo)
    assert marked() == set()
    assert store.dump() == full_dump(repo, tmp_path)


def test_test_modules_are_those_pytests_python_files_names(repo: Path, store: Store, tmp_path: Path) -> None:
    # `python_files = check_*.py` in pytest.ini: tests/check_math.py is a test module too (and tests/test_old.py
    # still one: pytest runs a test file it is given whatever its name); a change of the setting reparses every file
    # (each file's marks follow it), as a full build of the tree does
    write(repo, "tests/check_math.py", "def test_add():\n    assert True\n")
    write(repo, "tests/test_old.py", "def test_old():\n    assert True\n")
    write(repo, "pytest.ini", "[pytest]\npython_files = check_*.py\n")
    commit(repo, "checks")
    update(store, repo)

    def tests() -> set[str]:
        rows = store.conn.execute("SELECT s.qualname FROM symbols s WHERE s.is_test != 0 AND s.kind = 'function'")
        return {r[0] for r in rows}

    def test_files() -> set[str]:
        return {r[0] for r in store.conn.execute("SELECT path FROM files WHERE is_test = 1")}

    assert tests() == {"test_add", "test_old"}
    assert store.dump() == full_dump(repo, tmp_path)
    write(repo, "pytest.ini", "[pytest]\naddopts = -q\n")  # back to pytest's default names
    commit(repo, "default names")
    report = update(store, repo)
    assert report.full and tests() == {"test_old"}
    assert store.dump() == full_dump(repo, tmp_path)
    assert update(store, repo).unchanged  # the same settings: nothing to do
    # boolean.py's `python_files = *.py` (pytest looks for tests in every module) tells no test code from the rest
    write(repo, "pytest.ini", "[pytest]\npython_files = *.py\n")
    commit(repo, "every module")
    report = update(store, repo)
    assert not report.full and test_files() == {"tests/test_old.py"}


def test_parse_workers_mark_test_modules_by_the_python_files_in_force() -> None:
    from crg_review.indexer import PARALLEL_THRESHOLD, _parse_all
    from crg_review.languages import python

    jobs = [(f"pkg/m{i}.py", "python", b"def test_x():\n    pass\n") for i in range(PARALLEL_THRESHOLD)]
    jobs.append(("tests/check_math.py", "python", b"def test_add():\n    pass\n"))
    python.set_test_file_patterns(["check_*.py"])
    try:
        results = list(_parse_all(jobs, None, 2))
    finally:
        python.set_test_file_patterns(None)
    marked = [r.symbols[-1].is_test for r in results]
    assert marked == [False] * PARALLEL_THRESHOLD + [True]


def test_a_commits_tree_is_indexed_whatever_the_worktree_holds(repo: Path, store: Store, tmp_path: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "pkg/util.py", UTIL + "\n\ndef later():\n    return 1\n")
    second = commit(repo, "later")
    write(repo, "pkg/util.py", UTIL + "\n\ndef uncommitted():\n    return 1\n")

    report = update(store, repo, Source("commit", first))
    assert report.indexed == first and store.get_meta("indexed") == first
    assert "later" not in qualnames(store, "pkg/util.py")
    assert store.dump() == full_dump(repo, tmp_path, Source("commit", first))

    report = update(store, repo, Source("commit", "HEAD"))
    assert report.indexed == second and store.get_meta("indexed") == second
    assert (report.parsed, report.deleted) == (1, 0)
    assert "later" in qualnames(store, "pkg/util.py")
    assert "uncommitted" not in qualnames(store, "pkg/util.py")
    assert store.dump() == full_dump(repo, tmp_path, Source("commit", "main"))


def test_staged_sees_the_index_and_worktree_sees_unstaged_edits(repo: Path, store: Store, tmp_path: Path) -> None:
    write(repo, "pkg/util.py", UTIL + "\n\ndef staged_fn():\n    return 1\n")
    git(repo, "add", "pkg/util.py")
    write(repo, "pkg/util.py", UTIL + "\n\ndef staged_fn():\n    return 1\n\n\ndef unstaged_fn():\n    return 2\n")
    write(repo, "pkg/new_staged.py", "def brand_new():\n    return 3\n")
    git(repo, "add", "pkg/new_staged.py")

    update(store, repo, STAGED)
    assert store.get_meta("indexed") == "staged"
    assert {"staged_fn"} <= qualnames(store, "pkg/util.py")
    assert "unstaged_fn" not in qualnames(store, "pkg/util.py")
    assert "brand_new" in qualnames(store, "pkg/new_staged.py")
    assert store.dump() == full_dump(repo, tmp_path, STAGED)

    report = update(store, repo, WORKTREE)
    assert store.get_meta("indexed") == "worktree"
    assert report.parsed == 1
    assert {"staged_fn", "unstaged_fn"} <= qualnames(store, "pkg/util.py")
    assert store.dump() == full_dump(repo, tmp_path, WORKTREE)


def test_a_tracked_file_deleted_in_the_worktree_is_purged_from_the_worktree_index(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    update(store, repo)
    (repo / "pkg/models.py").unlink()  # not staged
    report = update(store, repo)
    assert report.deleted == 1 and "pkg/models.py" not in paths(store)
    assert store.dump() == full_dump(repo, tmp_path)
    update(store, repo, STAGED)  # still in the index
    assert "pkg/models.py" in paths(store)


# --- what is not indexed ------------------------------------------------------------------------


def test_untracked_and_gitignored_files_are_not_indexed(repo: Path, store: Store) -> None:
    write(repo, ".gitignore", "build/\n*.gen.py\n")
    commit(repo, "ignore")
    write(repo, "build/out.py", "def built():\n    pass\n")
    write(repo, "pkg/schema.gen.py", "def generated():\n    pass\n")
    write(repo, "pkg/scratch.py", "def scratch():\n    pass\n")  # untracked, not ignored
    update(store, repo)
    assert set(paths(store)) == {"pkg/__init__.py", "pkg/util.py", "pkg/app.py", "pkg/models.py"}


@pytest.mark.parametrize(
    "vendored",
    ["vendor/lib.py", "pkg/vendor/lib.py", "node_modules/left-pad/index.js", "web/node_modules/x/y.js",
     "third_party/z.py", "static/app.min.js"],
)
def test_vendored_paths_are_skipped(repo: Path, tmp_path: Path, vendored: str) -> None:
    write(repo, vendored, "function f() { return 1 }\n" if vendored.endswith(".js") else "def f():\n    pass\n")
    commit(repo, "vendor")
    ws = open_workspace(str(repo), str(tmp_path / "ws.db"))  # the default excludes come with the config
    try:
        ws.update(WORKTREE)
        assert set(paths(ws.store)) == {"pkg/__init__.py", "pkg/util.py", "pkg/app.py", "pkg/models.py"}
    finally:
        ws.close()


def test_config_exclude_in_pyproject_skips_paths_and_unexcluding_brings_them_back(
    repo: Path, tmp_path: Path
) -> None:
    write(repo, "pkg/generated/api.py", "def api():\n    pass\n")
    write(repo, "pyproject.toml", '[tool.crg-review]\nexclude = ["pkg/generated/*", "*/models.py"]\n')
    commit(repo, "exclude")
    db = str(tmp_path / "ws.db")
    ws = open_workspace(str(repo), db)
    try:
        ws.update(WORKTREE)
        assert set(paths(ws.store)) == {"pkg/__init__.py", "pkg/util.py", "pkg/app.py"}
    finally:
        ws.close()

    write(repo, "pyproject.toml", '[tool.crg-review]\nexclude = ["pkg/generated/*"]\n')
    commit(repo, "exclude less")
    ws = open_workspace(str(repo), db)
    try:
        report = ws.update(WORKTREE)
        assert report.parsed == 1  # models.py comes back; nothing else is reparsed
        assert set(paths(ws.store)) == {"pkg/__init__.py", "pkg/util.py", "pkg/app.py", "pkg/models.py"}
    finally:
        ws.close()


def test_a_size_limit_change_re_evaluates_files_whose_blob_did_not_change(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    write(repo, "pkg/big.py", "def big():\n    return 1\n" + "# padding\n" * 200)
    commit(repo, "big")
    report = update(store, repo, size_limit=1000)
    assert report.skipped == {"too-large": 1}
    assert paths(store)["pkg/big.py"] == "skipped:too-large"

    report = update(store, repo)  # default limit, 1 MiB: big.py is small enough now
    assert paths(store)["pkg/big.py"] == "ok"
    assert "big" in qualnames(store, "pkg/big.py")
    assert store.dump() == full_dump(repo, tmp_path)

    report = update(store, repo, size_limit=50)  # and smaller again: now util.py and app.py are too large
    assert store.dump() == full_dump(repo, tmp_path, size_limit=50)
    assert paths(store)["pkg/util.py"] == "skipped:too-large"


def test_an_index_of_schema_4_is_rebuilt_and_then_equals_a_full_index(
    repo: Path, store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    update(store, repo)
    with store.atomic():  # what version 4 lacks: the module-level holds/reads records of the parser
        store.conn.execute("DELETE FROM refs WHERE kind IN ('holds', 'reads')")
        store.set_meta("schema_version", "4")
    store.close()
    with caplog.at_level(logging.WARNING):
        reopened = Store.open(tmp_path / "inc.db")
    try:
        assert "index schema 4 is not 5: rebuilding the index from scratch" in caplog.text
        assert reopened.get_meta("schema_version") == "5"
        update(reopened, repo)
        assert reopened.dump() == full_dump(repo, tmp_path)
    finally:
        reopened.close()


def test_an_index_built_by_other_code_is_rebuilt_with_a_message(
    repo: Path, store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    update(store, repo)
    assert store.get_meta("builder") == builder_id()
    with store.atomic():  # what an older parser left: facts this one no longer writes, none it writes now
        store.conn.execute("DELETE FROM refs WHERE kind='call'")
        store.set_meta("builder", "0123456789abcdef")
    with caplog.at_level(logging.WARNING):
        report = update(store, repo)
    assert "built by another version of crg-review: rebuilding it" in caplog.text
    assert report.full and report.parsed == 4
    assert store.get_meta("builder") == builder_id()
    assert store.dump() == full_dump(repo, tmp_path)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert update(store, repo).unchanged
    assert "rebuilding" not in caplog.text
