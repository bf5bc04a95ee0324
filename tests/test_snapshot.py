"""The remembered snapshot: an incremental update compares only the paths git reports as different
from the snapshot the index holds (meta ``snapshot``), and still ends where a full rebuild ends,
whatever moved the snapshot: commits, staging, work-tree edits and deletions, branch switches, history
rewritten to an unrelated tree, a rewritten index file, an index written by an older version."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crg_review.errors import GitError
from crg_review.gitio import Entry, Repo, Snapshot
from crg_review.indexer import Source, UpdateReport, update_index
from crg_review.store import Store

from .helpers import commit, full_index_dump, git, git_run, make_repo, write

WORKTREE = Source("worktree")
STAGED = Source("staged")
HEAD = Source("commit", "HEAD")

UTIL = "def helper(x):\n    return x\n"
APP = "from pkg.util import helper\n\n\ndef main():\n    return helper(1)\n"
MODELS = "class Model:\n    def save(self):\n        return 1\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/util.py", UTIL)
    write(repo, "pkg/app.py", APP)
    write(repo, "pkg/models.py", MODELS)
    write(repo, "README.md", "# readme\n")
    commit(repo, "initial")
    return repo


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store.open(tmp_path / "inc.db")
    yield store
    store.close()


def update(store: Store, repo: Path, source: Source = WORKTREE, **kwargs: Any) -> UpdateReport:
    return update_index(store, Repo(repo), source, **kwargs)


def full_dump(repo: Path, db: Path, source: Source = WORKTREE, **kwargs: Any) -> dict[str, Any]:
    """The dump of a from-scratch full index of ``source`` in the new database ``db``."""
    dump: dict[str, Any] = full_index_dump(repo, db, source, **kwargs)
    return dump


def check(store: Store, repo: Path, tmp_path: Path, source: Source = WORKTREE, **kwargs: Any) -> UpdateReport:
    """Update incrementally, and assert the index equals a full rebuild of the same snapshot."""
    report = update(store, repo, source, **kwargs)
    assert store.dump() == full_dump(repo, tmp_path / "full.db", source, **kwargs)
    return report


def file_paths(store: Store) -> set[str]:
    return {r[0] for r in store.conn.execute("SELECT path FROM files")}


# --- the snapshot itself --------------------------------------------------------------------------


def test_snapshot_json_round_trip_and_refusals() -> None:
    snapshot = Snapshot("a" * 40, {"x.py": Entry("x.py", "b" * 40, 0o100644), "gone.py": None})
    assert Snapshot.from_json(snapshot.to_json()) == snapshot
    assert Snapshot.from_json(Snapshot(None, {}).to_json()) == Snapshot(None, {})
    for text in (None, "", "not json", "[]", '{"format": 0, "tree": null, "overlay": {}}', '{"format": 1}',
                 '{"format": 1, "tree": 3, "overlay": {}}', '{"format": 1, "tree": null, "overlay": {"a": [1]}}'):
        assert Snapshot.from_json(text) is None, text


def test_a_snapshot_lists_what_the_old_listings_list(repo: Path) -> None:
    write(repo, "pkg/util.py", UTIL + "# staged\n")
    write(repo, "pkg/new.py", "x = 1\n")
    git(repo, "add", "pkg/util.py", "pkg/new.py")
    git(repo, "rm", "-q", "--cached", "pkg/models.py")
    write(repo, "pkg/app.py", APP + "# unstaged\n")
    (repo / "README.md").unlink()
    opened = Repo(repo)
    staged = opened.snapshot("staged")
    assert opened.entries(staged) == opened.snapshot_index()
    assert set(staged.overlay) == {"pkg/util.py", "pkg/new.py", "pkg/models.py"}
    worktree = opened.snapshot("worktree")
    entries = {e.path: e for e in opened.entries(worktree)}
    assert sorted(entries) == ["pkg/__init__.py", "pkg/app.py", "pkg/new.py", "pkg/util.py"]
    assert opened.read_blob(entries["pkg/app.py"].oid) == (APP + "# unstaged\n").encode()
    assert opened.snapshot("commit") == Snapshot(git(repo, "rev-parse", "HEAD^{tree}").strip(), {})


def test_changed_paths_between_snapshots(repo: Path) -> None:
    opened = Repo(repo)
    before = opened.snapshot("worktree")
    assert before.overlay == {}
    assert opened.changed_paths(before, before) == {}
    write(repo, "pkg/util.py", UTIL + "# edited\n")
    write(repo, "pkg/more.py", "y = 2\n")
    commit(repo, "edit")
    (repo / "pkg/models.py").unlink()
    after = opened.snapshot("worktree")
    changed = opened.changed_paths(before, after)
    assert changed is not None
    assert sorted(changed) == ["pkg/models.py", "pkg/more.py", "pkg/util.py"]
    assert changed["pkg/models.py"] is None
    assert opened.read_blob(changed["pkg/more.py"].oid) == b"y = 2\n"  # type: ignore[union-attr]
    # back again: the paths of the old overlay are compared too
    git(repo, "checkout", "-q", "--", "pkg/models.py")
    again = opened.snapshot("worktree")
    assert opened.changed_paths(after, again) == {"pkg/models.py": Entry("pkg/models.py", blob(repo, "pkg/models.py"), 0o100644)}
    # a tree that is not in the repository: no answer, compare everything
    assert opened.changed_paths(Snapshot("0" * 40, {}), again) is None
    assert opened.changed_paths(Snapshot("not a tree id", {}), again) is None


def rows(entries: list[Entry]) -> list[tuple[str, str, int]]:
    return [(e.path, e.oid, e.mode) for e in entries]


def git_listing(repo: Path, kind: str) -> list[tuple[str, str, int]]:
    """What git itself lists for a snapshot of ``kind`` (regular files only: worktree oids are hashed)."""
    if kind == "commit":
        lines = git(repo, "ls-tree", "-r", "HEAD").splitlines()
        return sorted((path, meta.split()[2], int(meta.split()[0], 8)) for meta, path in (x.split("\t") for x in lines))
    staged = sorted(
        (path, meta.split()[1], int(meta.split()[0], 8))
        for meta, path in (x.split("\t") for x in git(repo, "ls-files", "-s").splitlines())
    )
    if kind == "staged":
        return staged
    present = [row for row in staged if (repo / row[0]).exists()]
    if not present:
        return []
    oids = git(repo, "hash-object", "--", *(row[0] for row in present)).split()
    return [(path, oid, mode) for (path, _, mode), oid in zip(present, oids)]


def blob(repo: Path, path: str) -> str:
    return git(repo, "rev-parse", f"HEAD:{path}").strip()


def test_a_prefetched_snapshot_is_the_snapshot(repo: Path) -> None:
    write(repo, "pkg/util.py", UTIL + "# staged\n")
    git(repo, "add", "pkg/util.py")
    write(repo, "pkg/app.py", APP + "# unstaged\n")
    (repo / "pkg/models.py").unlink()
    for kind in ("worktree", "staged"):
        opened = Repo(repo)
        opened.prefetch(kind)  # type: ignore[arg-type]
        opened.prefetch(kind)  # type: ignore[arg-type]  # once is enough
        taken = opened.snapshot(kind)  # type: ignore[arg-type]
        assert taken == Repo(repo).snapshot(kind)  # type: ignore[arg-type]
        app = {e.path: opened.read_blob(e.oid) for e in opened.entries(taken)}["pkg/app.py"]
        assert app.endswith(b"# unstaged\n") == (kind == "worktree")  # hashed in the thread, readable here
    opened = Repo(repo)
    opened.prefetch("commit")  # nothing to take ahead
    assert opened.snapshot("commit") == Snapshot(git(repo, "rev-parse", "HEAD^{tree}").strip(), {})


def test_a_prefetch_that_read_an_index_replaced_since_is_not_used(repo: Path) -> None:
    write(repo, "pkg/util.py", UTIL + "# edited\n")
    opened = Repo(repo)
    opened.prefetch("worktree")
    opened._prefetch._thread.join()  # type: ignore[union-attr]  # it compared the work tree with the old index
    git(repo, "add", "pkg/util.py")  # a new index file...
    write(repo, "pkg/util.py", UTIL)  # ...and the work tree back to HEAD
    taken = opened.snapshot("worktree")
    assert taken == Repo(repo).snapshot("worktree")
    assert taken.overlay["pkg/util.py"] == Entry("pkg/util.py", blob(repo, "pkg/util.py"), 0o100644)


def test_a_prefetch_in_a_linked_work_tree_sees_that_work_tree(repo: Path, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "feature")
    write(linked, "pkg/util.py", UTIL + "# only in the linked work tree\n")
    opened = Repo(linked / "pkg")
    opened.prefetch("worktree")
    taken = opened.snapshot("worktree")
    assert taken == Repo(linked).snapshot("worktree") != Repo(repo).snapshot("worktree")
    assert set(taken.overlay) == {"pkg/util.py"}
    assert opened.read_blob(taken.overlay["pkg/util.py"].oid).endswith(b"linked work tree\n")  # type: ignore[union-attr]


def test_a_prefetch_that_fails_fails_where_the_snapshot_is_asked_for(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "pkg/util.py", "def helper(x):\n    return 2\n")
    commit(repo, "other")
    git(repo, "checkout", "-q", "main")
    write(repo, "pkg/util.py", "def helper(x):\n    return 3\n")
    commit(repo, "main")
    assert git_run(repo, "merge", "-q", "other").returncode != 0
    opened = Repo(repo)
    opened.prefetch("worktree")
    with pytest.raises(GitError, match="unresolved merge conflicts in pkg/util.py"):
        opened.snapshot("worktree")


# --- incremental updates that compare only what changed ----------------------------------------------


def test_after_a_commit_only_the_committed_paths_are_compared(repo: Path, store: Store, tmp_path: Path) -> None:
    first = update(store, repo)
    assert first.compared is None  # nothing remembered yet
    write(repo, "pkg/util.py", UTIL + "\n\ndef added():\n    return helper(2)\n")
    commit(repo, "edit util")
    report = check(store, repo, tmp_path)
    assert (report.compared, report.parsed) == (1, 1)
    again = update(store, repo)
    assert (again.compared, again.unchanged) == (0, True)


def test_a_committed_file_is_parsed_ahead_and_the_parse_used_only_for_that_blob(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    update(store, repo)
    write(repo, "pkg/util.py", UTIL + "\n\ndef committed():\n    return 1\n")
    commit(repo, "edit util")
    report = check(store, repo, tmp_path)
    assert (report.parsed, report.parsed_ahead) == (1, 1)
    # committed, then edited again: the parse of the committed blob is not what the work tree holds
    write(repo, "pkg/app.py", APP + "\n\ndef committed():\n    return 1\n")
    commit(repo, "edit app")
    write(repo, "pkg/app.py", APP + "\n\ndef edited_after():\n    return 1\n")
    report = check(store, repo, tmp_path)
    assert (report.parsed, report.parsed_ahead) == (1, 0)
    assert "edited_after" in {q for _, q, *_ in store.dump()["symbols"]}
    # committed, then removed from the index: the staged snapshot has no such file
    write(repo, "pkg/models.py", MODELS + "\n\nclass Other:\n    pass\n")
    commit(repo, "edit models")
    git(repo, "rm", "-q", "--cached", "pkg/models.py")
    report = check(store, repo, tmp_path, STAGED)
    assert report.parsed_ahead == 0 and "pkg/models.py" not in file_paths(store)


def test_staged_unstaged_and_deleted_files(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    write(repo, "pkg/util.py", UTIL + "\n\ndef unstaged():\n    return 1\n")
    write(repo, "pkg/staged.py", "from pkg.util import helper\n\n\ndef staged():\n    return helper(3)\n")
    git(repo, "add", "pkg/staged.py")
    (repo / "pkg/models.py").unlink()
    report = check(store, repo, tmp_path)
    assert report.compared == 3
    assert "pkg/models.py" not in file_paths(store)
    # the staged tree: the new file, the old util.py, models.py still there
    report = check(store, repo, tmp_path, STAGED)
    assert report.compared == 3
    assert "pkg/models.py" in file_paths(store)
    git(repo, "rm", "-q", "--cached", "pkg/models.py")
    check(store, repo, tmp_path, STAGED)
    check(store, repo, tmp_path)
    commit(repo, "commit the staged part", stage_all=False)
    report = check(store, repo, tmp_path)
    assert report.unchanged
    check(store, repo, tmp_path, HEAD)
    check(store, repo, tmp_path)


def test_an_edit_undone_in_the_worktree_or_unstaged_is_seen(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    write(repo, "pkg/util.py", UTIL + "# edited\n")
    assert check(store, repo, tmp_path).parsed == 1
    git(repo, "checkout", "-q", "--", "pkg/util.py")  # nothing differs from HEAD now: git reports nothing
    report = check(store, repo, tmp_path)
    assert (report.compared, report.parsed) == (1, 1)
    write(repo, "pkg/app.py", APP + "# staged\n")
    git(repo, "add", "pkg/app.py")
    assert check(store, repo, tmp_path, STAGED).parsed == 1
    git(repo, "reset", "-q")
    assert check(store, repo, tmp_path, STAGED).parsed == 1
    assert check(store, repo, tmp_path).parsed == 1  # the work tree still has the edit


def test_a_rewritten_index_file_and_touched_files_change_nothing(repo: Path, store: Store) -> None:
    update(store, repo)
    for path in ("pkg/util.py", "pkg/app.py"):
        os.utime(repo / path, (1_000_000_000, 1_000_000_000))
    git(repo, "read-tree", "HEAD")  # a new index file, every stat field stale
    report = update(store, repo)
    assert (report.compared, report.unchanged) == (0, True)
    git(repo, "update-index", "--refresh")
    assert update(store, repo).unchanged


def test_a_branch_switch(repo: Path, store: Store, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "pkg/util.py", UTIL + "\n\ndef other():\n    return 2\n")
    (repo / "pkg/models.py").unlink()
    write(repo, "pkg/extra.py", "from pkg.util import other\n\n\ndef use():\n    return other()\n")
    commit(repo, "other")
    git(repo, "checkout", "-q", "main")
    update(store, repo)
    git(repo, "checkout", "-q", "other")
    report = check(store, repo, tmp_path)
    assert report.compared == 3
    git(repo, "checkout", "-q", "main")
    assert check(store, repo, tmp_path).compared == 3


def test_history_rewritten_to_an_unrelated_tree(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    write(repo, "pkg/util.py", UTIL + "# uncommitted\n")
    update(store, repo)
    git(repo, "checkout", "-q", "--orphan", "unrelated")
    git(repo, "rm", "-q", "-rf", ".")
    write(repo, "lib/core.py", "class Core:\n    def run(self):\n        return helper()\n\n\ndef helper():\n    return 1\n")
    write(repo, "lib/__init__.py", "from lib.core import Core\n")
    unrelated = commit(repo, "unrelated")
    git(repo, "checkout", "-q", "-f", "main")
    update(store, repo)
    git(repo, "reset", "-q", "--hard", unrelated)  # as a rebase onto another root would leave it
    report = check(store, repo, tmp_path)
    assert file_paths(store) == {"lib/core.py", "lib/__init__.py"}
    assert report.compared is not None


def test_a_file_replaced_by_a_directory_of_the_same_name(repo: Path, store: Store, tmp_path: Path) -> None:
    write(repo, "mod.py/inner.py", "def inner():\n    return 1\n")  # a directory named like a module
    commit(repo, "directory")
    update(store, repo)
    git(repo, "rm", "-q", "-r", "mod.py")
    write(repo, "mod.py", "def outer():\n    return 2\n")
    git(repo, "add", "mod.py")
    check(store, repo, tmp_path)
    git(repo, "reset", "-q", "--hard")
    assert check(store, repo, tmp_path).compared == 2
    assert "mod.py/inner.py" in file_paths(store)


def test_a_file_that_becomes_a_symlink(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    (repo / "pkg/models.py").unlink()
    os.symlink("util.py", repo / "pkg/models.py")
    check(store, repo, tmp_path)
    git(repo, "checkout", "-q", "--", "pkg/models.py")
    check(store, repo, tmp_path)


def test_commits_staged_and_worktree_in_turn(repo: Path, store: Store, tmp_path: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "pkg/util.py", UTIL + "\n\ndef second():\n    return 2\n")
    commit(repo, "second")
    write(repo, "pkg/app.py", APP + "\n\ndef staged():\n    return 3\n")
    git(repo, "add", "pkg/app.py")
    write(repo, "pkg/models.py", MODELS + "\n\nclass Worktree(Model):\n    pass\n")
    for source in (Source("commit", first), WORKTREE, HEAD, STAGED, Source("commit", first), STAGED, WORKTREE):
        report = check(store, repo, tmp_path, source)
        assert report.compared is not None or report.indexed == first


def test_an_index_without_a_usable_snapshot_compares_every_path(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    for remembered in ('{"format": 0, "tree": null, "overlay": {}}', "garbage", None):
        with store.atomic():
            if remembered is None:  # an index written before snapshots were remembered
                store.conn.execute("DELETE FROM meta WHERE key='snapshot'")
            else:
                store.set_meta("snapshot", remembered)
        write(repo, "pkg/util.py", UTIL + f"# {remembered}\n")
        commit(repo, "edit")
        report = check(store, repo, tmp_path)
        assert (report.compared, report.parsed) == (None, 1)
        write(repo, "pkg/app.py", APP + f"# {remembered}\n")
        commit(repo, "edit")
        assert check(store, repo, tmp_path).compared == 1  # remembered again


def test_a_garbage_collected_tree_compares_every_path(repo: Path, store: Store, tmp_path: Path) -> None:
    git(repo, "checkout", "-q", "-b", "doomed")
    write(repo, "pkg/doomed.py", "def doomed():\n    return 0\n")
    commit(repo, "doomed")
    update(store, repo, HEAD)
    git(repo, "checkout", "-q", "main")
    git(repo, "branch", "-q", "-D", "doomed")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")
    report = check(store, repo, tmp_path)
    assert report.compared is None
    assert "pkg/doomed.py" not in file_paths(store)


def test_a_pruned_subtree_of_the_remembered_tree_compares_every_path(
    repo: Path, store: Store, tmp_path: Path
) -> None:
    git(repo, "checkout", "-q", "-b", "doomed")
    write(repo, "doomed/only.py", "def only():\n    return 0\n")
    commit(repo, "doomed")
    update(store, repo, HEAD)
    subtree = git(repo, "rev-parse", "HEAD:doomed").strip()
    git(repo, "checkout", "-q", "main")
    (repo / ".git" / "objects" / subtree[:2] / subtree[2:]).unlink()  # loose: the root tree stays
    report = check(store, repo, tmp_path)
    assert report.compared is None
    assert "doomed/only.py" not in file_paths(store)


def test_other_settings_compare_every_path(repo: Path, store: Store, tmp_path: Path) -> None:
    update(store, repo)
    report = check(store, repo, tmp_path, size_limit=40)
    assert report.compared is None
    assert check(store, repo, tmp_path, size_limit=40).compared == 0
    report = check(store, repo, tmp_path, size_limit=40, excludes=("pkg/app.py",))
    assert report.compared is None


def test_before_the_first_commit(tmp_path: Path, store: Store) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/util.py", UTIL)
    write(repo, "pkg/app.py", APP)
    git(repo, "add", "-A")
    check(store, repo, tmp_path, STAGED)
    write(repo, "pkg/util.py", UTIL + "\n\ndef more():\n    return 1\n")
    check(store, repo, tmp_path)
    report = check(store, repo, tmp_path, STAGED)
    assert report.compared == 2  # every staged path differs from the empty tree
    commit(repo, "first")
    report = check(store, repo, tmp_path)
    assert report.compared is not None and report.parsed == 1


# --- random histories ------------------------------------------------------------------------------

PATHS = ("a.py", "pkg/__init__.py", "pkg/b.py", "pkg/c.py", "pkg/sub/d.py")
BODIES = (
    "from pkg.b import g\n\n\ndef f():\n    return g()\n",
    "def g():\n    return 1\n\n\nclass K:\n    def m(self):\n        return g()\n",
    "from pkg.c import K\n\n\nclass L(K):\n    def m(self):\n        return 2\n",
    "class K:\n    def m(self):\n        return 3\n",
    "",
)
KINDS = st.sampled_from(["worktree", "worktree", "staged", "commit"])
OPS = st.tuples(
    st.sampled_from(["write", "write", "write", "delete", "add", "commit", "commit-all", "commit-all", "reset", "discard",
                     "discard", "branch", "branch", "back", "check"]),
    st.sampled_from(PATHS),
    st.sampled_from(BODIES),
)
EXAMPLES = int(os.environ.get("CRG_HYPOTHESIS_EXAMPLES", "200")) // 4


def apply(repo: Path, op: str, arg: str, body: str, commits: list[str]) -> None:
    if op == "write":
        write(repo, arg, body)
    elif op == "delete":
        (repo / arg).unlink(missing_ok=True)
    elif op == "add":
        git(repo, "add", "-A")
    elif op in ("commit", "commit-all"):
        if op == "commit-all":
            git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", "step")
        commits.append(git(repo, "rev-parse", "HEAD").strip())
    elif op == "reset" and commits:
        git(repo, "reset", "-q")
    elif op == "discard":
        git(repo, "checkout-index", "-a", "-f")  # the work tree back to the index
    elif op == "branch" and commits:  # to one of the earlier commits, dropping what is not committed
        git(repo, "checkout", "-q", "-f", "-B", f"b{len(commits)}", commits[PATHS.index(arg) % len(commits)])
    elif op == "back" and commits:
        git(repo, "reset", "-q", "--hard", commits[-1])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(st.tuples(OPS, KINDS), min_size=1, max_size=16), last=KINDS, first_commit=st.booleans())
def test_random_histories_end_like_a_full_rebuild(
    tmp_path_factory: Any, steps: list[tuple[tuple[str, str, str], str]], last: str, first_commit: bool
) -> None:
    """Each step changes the repository, then updates the index incrementally to a snapshot of some kind;
    a wrong update stays wrong until its path changes again, so comparing at checks and at the end finds it."""
    base = tmp_path_factory.mktemp("snap")
    repo = make_repo(base / "repo")
    commits: list[str] = []
    store = Store.open(base / "inc.db")

    def source_of(kind: str) -> Source:
        if kind == "commit":
            return HEAD if commits else WORKTREE
        return Source(kind)  # type: ignore[arg-type]

    try:
        if first_commit:
            for path, body in zip(PATHS, BODIES):
                write(repo, path, body)
            git(repo, "add", "-A")
            apply(repo, "commit", "", "", commits)
        update_index(store, Repo(repo), WORKTREE)
        for (op, arg, body), kind in [*steps, (("check", "", ""), last)]:
            apply(repo, op, arg, body, commits)
            source = source_of(kind)
            update_index(store, Repo(repo), source)
            if op == "check":
                assert store.dump() == full_dump(repo, base / "full.db", source)
                opened = Repo(repo)
                kind = source.kind
                assert rows(opened.entries(opened.snapshot(kind, source.rev))) == git_listing(repo, kind)
    finally:
        store.close()
        shutil.rmtree(base, ignore_errors=True)
