"""gitio against real repositories built with the git command line; git itself is the oracle."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from crg_review.errors import GitError
from crg_review.gitio import Diff, DiffSpec, Entry, FileChange, Hunk, Repo

from .helpers import commit, git, make_repo, write

HunkTuple = tuple[int, int, int, int]
_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def blob_id(data: bytes) -> str:
    """The git blob id of ``data``, computed without git."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def git_hunks(repo: Path, *args: str) -> dict[str, tuple[HunkTuple, ...]]:
    """Path -> hunk headers of ``git diff -U0 args`` (the path after the change)."""
    out = git(repo, "diff", "-U0", "-M50%", "--no-color", "--no-ext-diff", *args)
    found: dict[str, tuple[HunkTuple, ...]] = {}
    path = ""
    for line in out.splitlines():
        if line.startswith("diff --git "):
            path = line.split(" b/", 1)[1]
            found[path] = ()
        elif match := _HEADER.match(line):
            old_start, old_lines, new_start, new_lines = match.groups()
            hunk = (int(old_start), int(old_lines or 1), int(new_start), int(new_lines or 1))
            found[path] += (hunk,)
    return found


def hunks_by_path(diff: Diff) -> dict[str, tuple[HunkTuple, ...]]:
    return {c.path: tuple((h.old_start, h.old_lines, h.new_start, h.new_lines) for h in c.hunks) for c in diff.changes}


def by_path(diff: Diff) -> dict[str, FileChange]:
    return {change.path: change for change in diff.changes}


def ls_tree(repo: Path, rev: str) -> list[tuple[str, str, int]]:
    rows = []
    for line in git(repo, "ls-tree", "-r", rev).splitlines():
        meta, path = line.split("\t", 1)
        mode, _type, oid = meta.split()
        rows.append((path, oid, int(mode, 8)))
    return sorted(rows)


def rows(entries: list[Entry]) -> list[tuple[str, str, int]]:
    return [(e.path, e.oid, e.mode) for e in entries]


def add_submodule(repo: Path, source: Path, path: str) -> None:
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source), path)


def fork(repo: Path, branch: str, on_branch: tuple[str, str], on_main: tuple[str, str]) -> str:
    """From main: one commit writing ``on_branch`` (path, text) on a new branch, then one writing ``on_main``
    on main; returns the main commit."""
    git(repo, "checkout", "-q", "-b", branch)
    write(repo, *on_branch)
    commit(repo, branch)
    git(repo, "checkout", "-q", "main")
    write(repo, *on_main)
    return commit(repo, "main")


def lines(n: int, prefix: str = "line") -> str:
    return "".join(f"{prefix} {i}\n" for i in range(1, n + 1))


# -- opening


def test_not_a_git_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(GitError, match=r"not a git repository: .*plain \(run inside a git work tree or pass --repo\)"):
        Repo(plain)


def test_discovers_the_repository_from_a_subdirectory(repo: Path) -> None:
    write(repo, "sub/dir/a.txt", "a\n")
    sha = commit(repo)
    opened = Repo(repo / "sub" / "dir")
    assert opened.root == repo.resolve()
    assert opened.common_dir == (repo / ".git").resolve()
    assert opened.head_commit() == sha
    assert not opened.is_shallow()


def test_linked_worktree_shares_the_common_dir(repo: Path, tmp_path: Path) -> None:
    write(repo, "a.txt", "a\n")
    sha = commit(repo)
    git(repo, "worktree", "add", "-q", "-b", "other", str(tmp_path / "wt"))
    opened = Repo(tmp_path / "wt")
    assert opened.root == (tmp_path / "wt").resolve()
    assert opened.common_dir == (repo / ".git").resolve()
    assert opened.head_commit() == sha


def test_bare_repository_is_refused(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "--bare", "bare.git")
    with pytest.raises(GitError, match="bare repository"):
        Repo(tmp_path / "bare.git")


# -- revisions


def test_resolve_names_and_ids(repo: Path) -> None:
    write(repo, "a.txt", "1\n")
    first = commit(repo, "one")
    write(repo, "a.txt", "2\n")
    second = commit(repo, "two")
    git(repo, "tag", "-a", "v1", "-m", "annotated", first)
    opened = Repo(repo)
    assert opened.resolve("HEAD") == second
    assert opened.resolve("main~1") == first
    assert opened.resolve("v1") == first  # an annotated tag peels to its commit
    assert opened.resolve(first[:10]) == first


@pytest.mark.parametrize(
    ("rev", "message"),
    [
        ("nope", r"unknown revision 'nope' \(check the name"),
        ("HEAD:a.txt", "'HEAD:a.txt' is not a commit"),
        ("@{", r"invalid revision '@\{'"),
    ],
)
def test_resolve_errors(repo: Path, rev: str, message: str) -> None:
    write(repo, "a.txt", "1\n")
    commit(repo)
    with pytest.raises(GitError, match=message):
        Repo(repo).resolve(rev)


def test_root_commit_has_no_parent(repo: Path) -> None:
    write(repo, "a.txt", "1\n")
    root = commit(repo, "root")
    write(repo, "a.txt", "2\n")
    commit(repo, "second")
    opened = Repo(repo)
    with pytest.raises(GitError, match=rf"unknown revision '{root}~1': commit {root[:7]} has no parent"):
        opened.diff(DiffSpec.parse(f"{root}~1..{root}"))
    with pytest.raises(GitError, match=f"commit {root[:7]} has no parent"):
        opened.resolve("HEAD~5")


def test_empty_repository(repo: Path) -> None:
    write(repo, "untracked.txt", "not added\n")
    opened = Repo(repo)
    assert opened.head_commit() is None
    assert opened.snapshot_index() == []
    assert opened.snapshot_worktree() == []
    diff = opened.diff(DiffSpec.parse(None))
    assert (diff.base_commit, diff.head_commit, diff.head_label, diff.changes) == (None, None, "worktree", ())
    with pytest.raises(GitError, match="no commits yet"):
        opened.snapshot_commit("HEAD")


def test_merge_base_and_unrelated_histories(repo: Path) -> None:
    write(repo, "a.txt", "1\n")
    commit(repo)
    fork(repo, "feature", ("f.txt", "f\n"), ("m.txt", "m\n"))
    git(repo, "checkout", "-q", "--orphan", "alone")
    write(repo, "o.txt", "o\n")
    commit(repo)
    opened = Repo(repo)
    assert opened.merge_base("main", "feature") == git(repo, "merge-base", "main", "feature").strip()
    with pytest.raises(GitError, match="'main' and 'alone' have no common history: compare them directly"):
        opened.merge_base("main", "alone")
    with pytest.raises(GitError, match="no common history"):
        opened.diff(DiffSpec.parse("main...alone"))


def test_shallow_clone_names_the_fix(tmp_path: Path) -> None:
    source = make_repo(tmp_path / "source")
    write(source, "a.txt", "1\n")
    first = commit(source)
    fork(source, "feature", ("f.txt", "f\n"), ("a.txt", "2\n"))
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{source}", "clone")
    shallow = Repo(tmp_path / "clone")
    assert shallow.is_shallow()
    assert not Repo(source).is_shallow()
    fix = r"is not in this shallow clone: fetch more history \(actions/checkout with fetch-depth: 0"
    with pytest.raises(GitError, match=f"commit 'HEAD~1' {fix}"):
        shallow.resolve("HEAD~1")
    with pytest.raises(GitError, match=f"commit '{first}' {fix}"):
        shallow.diff(DiffSpec.parse(f"{first}..HEAD"))
    with pytest.raises(GitError, match=f"the merge base of 'origin/main' and 'origin/feature' {fix}"):
        shallow.diff(DiffSpec.parse("origin/main...origin/feature"))


# -- DiffSpec


@pytest.mark.parametrize(
    ("text", "staged", "expected"),
    [
        ("a..b", False, DiffSpec("range", "a", "b")),
        ("a...b", False, DiffSpec("merge_base", "a", "b")),
        ("a", False, DiffSpec("range", "a", "HEAD")),
        ("a..", False, DiffSpec("range", "a", "HEAD")),
        ("..b", False, DiffSpec("range", "HEAD", "b")),
        ("a...", False, DiffSpec("merge_base", "a", "HEAD")),
        ("...b", False, DiffSpec("merge_base", "HEAD", "b")),
        (" origin/main...HEAD ", False, DiffSpec("merge_base", "origin/main", "HEAD")),
        (None, False, DiffSpec("worktree")),
        (None, True, DiffSpec("staged")),
        ("v1", True, DiffSpec("staged", "v1")),
    ],
)
def test_diffspec_parse(text: str | None, staged: bool, expected: DiffSpec) -> None:
    assert DiffSpec.parse(text, staged=staged) == expected


@pytest.mark.parametrize(("text", "staged"), [("", False), ("  ", False), ("a..b", True)])
def test_diffspec_parse_rejects(text: str, staged: bool) -> None:
    with pytest.raises(GitError, match="pass"):
        DiffSpec.parse(text, staged=staged)


# -- snapshots


def test_snapshot_commit_matches_ls_tree(repo: Path, tmp_path: Path) -> None:
    library = make_repo(tmp_path / "library")
    write(library, "lib.txt", "lib\n")
    library_head = commit(library)
    write(repo, "a.py", "print('a')\n")
    write(repo, "dir/deeper/b.txt", "b\n")
    os.chmod(write(repo, "run.sh", "#!/bin/sh\n"), 0o755)
    os.symlink("a.py", repo / "link")
    add_submodule(repo, library, "vendor/library")
    first = commit(repo)
    write(repo, "a.py", "print('changed')\n")
    commit(repo)
    opened = Repo(repo)
    snapshot = opened.snapshot_commit(first)
    assert rows(snapshot) == ls_tree(repo, first)
    assert rows(opened.snapshot_commit("HEAD")) == ls_tree(repo, "HEAD") != rows(snapshot)
    entries = {e.path: e for e in snapshot}
    assert entries["link"].is_symlink
    assert not entries["link"].is_file
    assert entries["vendor/library"] == Entry("vendor/library", library_head, 0o160000)
    assert entries["vendor/library"].is_submodule
    assert not entries["vendor/library"].is_file
    assert entries["run.sh"].mode == 0o100755
    assert entries["run.sh"].is_file
    assert entries["a.py"].is_file
    assert not entries["a.py"].is_symlink
    assert opened.read_blob(entries["link"].oid) == b"a.py"


def test_snapshot_index_matches_ls_files(repo: Path) -> None:
    write(repo, "a.txt", "a\n")
    write(repo, "b.txt", "b\n")
    write(repo, "c.txt", "c\n")
    commit(repo)
    opened = Repo(repo)
    before = opened.snapshot_index()
    write(repo, "a.txt", "staged\n")
    write(repo, "new.txt", "new\n")
    git(repo, "add", "a.txt", "new.txt")
    git(repo, "rm", "-q", "--cached", "b.txt")
    write(repo, "c.txt", "unstaged\n")
    expected = []
    for line in git(repo, "ls-files", "-s").splitlines():
        meta, path = line.split("\t", 1)
        mode, oid, _stage = meta.split()
        expected.append((path, oid, int(mode, 8)))
    after = opened.snapshot_index()  # the same Repo sees what git changed on disk
    assert rows(after) == sorted(expected) != rows(before)
    assert [e.path for e in after] == ["a.txt", "c.txt", "new.txt"]


def test_snapshot_worktree_sees_unstaged_edits_and_deletions(repo: Path) -> None:
    write(repo, "edited.txt", "old\n")
    write(repo, "same_size.txt", "aaaa\n")
    write(repo, "deleted.txt", "gone soon\n")
    write(repo, "kept.txt", "kept\n")
    write(repo, "becomes_link.txt", "file\n")
    os.symlink("kept.txt", repo / "link")
    commit(repo)
    write(repo, "edited.txt", "new content\n")
    write(repo, "same_size.txt", "bbbb\n")  # same size, same second: only hashing can tell
    (repo / "deleted.txt").unlink()
    (repo / "link").unlink()
    os.symlink("a/much/longer/target", repo / "link")
    (repo / "becomes_link.txt").unlink()
    os.symlink("kept.txt", repo / "becomes_link.txt")
    write(repo, "untracked.txt", "ignored by snapshots\n")
    opened = Repo(repo)
    entries = {e.path: e for e in opened.snapshot_worktree()}
    assert sorted(entries) == ["becomes_link.txt", "edited.txt", "kept.txt", "link", "same_size.txt"]
    assert entries["edited.txt"].oid == blob_id(b"new content\n")
    assert entries["same_size.txt"].oid == blob_id(b"bbbb\n")
    assert entries["kept.txt"].oid == blob_id(b"kept\n")
    assert entries["link"] == Entry("link", blob_id(b"a/much/longer/target"), 0o120000)
    assert entries["becomes_link.txt"] == Entry("becomes_link.txt", blob_id(b"kept.txt"), 0o120000)
    # not in the object database: read from the work tree
    assert opened.read_blob(entries["edited.txt"].oid) == b"new content\n"
    assert opened.read_blob(entries["link"].oid) == b"a/much/longer/target"


def test_read_blob_refuses_a_file_changed_since_the_snapshot(repo: Path) -> None:
    write(repo, "a.txt", "a\n")
    commit(repo)
    write(repo, "a.txt", "edited\n")
    opened = Repo(repo)
    (entry,) = opened.snapshot_worktree()
    write(repo, "a.txt", "edited again\n")
    with pytest.raises(GitError, match=r"a\.txt changed while crg-review was reading it: run again"):
        opened.read_blob(entry.oid)


def test_read_blob_errors(repo: Path) -> None:
    write(repo, "a.txt", "a\n")
    sha = commit(repo)
    opened = Repo(repo)
    assert opened.read_blob(blob_id(b"a\n")) == b"a\n"
    with pytest.raises(GitError, match="not in the repository"):
        opened.read_blob(blob_id(b"never stored\n"))
    with pytest.raises(GitError, match="is a commit, not a blob"):
        opened.read_blob(sha)
    with pytest.raises(GitError, match="invalid blob id"):
        opened.read_blob("xyz")


# -- diffs between commits


def test_range_diff_adds_deletes_and_modifies_like_git(repo: Path) -> None:
    write(repo, "edit.txt", lines(20))
    write(repo, "gone.txt", "bye\n")
    base = commit(repo)
    text = lines(20).replace("line 3\n", "line three\n").replace("line 10\nline 11\n", "")
    write(repo, "edit.txt", text.replace("line 18\n", "line 18\ninserted\n"))
    (repo / "gone.txt").unlink()
    write(repo, "new.txt", "hello\nworld\n")
    head = commit(repo)
    diff = Repo(repo).diff(DiffSpec.parse(f"{base}..{head}"))
    assert (diff.base_commit, diff.head_commit, diff.head_label) == (base, head, head)
    changes = by_path(diff)
    assert {path: c.status for path, c in changes.items()} == {
        "edit.txt": "modified",
        "gone.txt": "deleted",
        "new.txt": "added",
    }
    assert hunks_by_path(diff) == git_hunks(repo, base, head)
    assert changes["edit.txt"].hunks == (Hunk(3, 1, 3, 1), Hunk(10, 2, 9, 0), Hunk(18, 0, 17, 1))
    gone = changes["gone.txt"]
    assert (gone.old_path, gone.new_path, gone.new_oid, gone.new_mode) == ("gone.txt", None, None, None)
    assert gone.old_oid == blob_id(b"bye\n")
    assert gone.hunks == (Hunk(1, 1, 0, 0),)
    new = changes["new.txt"]
    assert (new.old_path, new.old_oid, new.old_mode, new.new_mode) == (None, None, None, 0o100644)
    assert new.new_oid == git(repo, "rev-parse", f"{head}:new.txt").strip()
    assert new.hunks == (Hunk(0, 0, 1, 2),)
    assert not new.binary
    assert new.similarity is None


def test_single_revision_is_a_range_to_head(repo: Path) -> None:
    write(repo, "a.txt", "1\n")
    base = commit(repo)
    write(repo, "a.txt", "1\n2\n")
    commit(repo)
    write(repo, "a.txt", "uncommitted\n")
    opened = Repo(repo)
    single = opened.diff(DiffSpec.parse(base))
    assert single.changes == opened.diff(DiffSpec.parse(f"{base}..HEAD")).changes
    assert hunks_by_path(single) == {"a.txt": ((1, 0, 2, 1),)}


def test_renames_carry_similarity(repo: Path) -> None:
    write(repo, "edited_move.txt", lines(20))
    write(repo, "exact_move.txt", lines(5, "exact"))
    write(repo, "rewritten.txt", lines(4, "old"))
    base = commit(repo)
    (repo / "moved").mkdir()
    git(repo, "mv", "edited_move.txt", "moved/edited.txt")
    write(repo, "moved/edited.txt", lines(20).replace("line 7\n", "line seven\n"))
    git(repo, "mv", "exact_move.txt", "exact.txt")
    (repo / "rewritten.txt").unlink()
    write(repo, "rewritten_elsewhere.txt", lines(4, "new"))
    commit(repo)
    changes = by_path(Repo(repo).diff(DiffSpec.parse(f"{base}..HEAD")))
    edited = changes["moved/edited.txt"]
    assert (edited.status, edited.old_path, edited.new_path) == ("renamed", "edited_move.txt", "moved/edited.txt")
    assert edited.similarity is not None
    assert 50 <= edited.similarity < 100
    assert edited.hunks == (Hunk(7, 1, 7, 1),)
    exact = changes["exact.txt"]
    assert (exact.status, exact.similarity, exact.hunks, exact.old_oid) == ("renamed", 100, (), exact.new_oid)
    assert changes["rewritten.txt"].status == "deleted"  # below the 50% threshold
    assert changes["rewritten_elsewhere.txt"].status == "added"


def test_binary_files_have_no_hunks(repo: Path) -> None:
    write(repo, "image.bin", b"\x89PNG\x00\x01\x02")
    write(repo, "text.dat", "looks like text\n")
    write(repo, ".gitattributes", "*.dat binary\n")
    base = commit(repo)
    write(repo, "image.bin", b"\x89PNG\x00\x01\x03\x04")
    write(repo, "text.dat", "still looks like text\n")
    write(repo, "added.bin", b"\x00" * 10)
    commit(repo)
    changes = by_path(Repo(repo).diff(DiffSpec.parse(f"{base}..HEAD")))
    assert {path: (c.status, c.binary, c.hunks) for path, c in changes.items()} == {
        "image.bin": ("modified", True, ()),
        "text.dat": ("modified", True, ()),  # binary by .gitattributes
        "added.bin": ("added", True, ()),
    }


def test_mode_only_change(repo: Path) -> None:
    script = write(repo, "run.sh", "#!/bin/sh\necho hi\n")
    base = commit(repo)
    os.chmod(script, 0o755)
    commit(repo)
    (change,) = Repo(repo).diff(DiffSpec.parse(f"{base}..HEAD")).changes
    assert (change.status, change.old_mode, change.new_mode, change.hunks) == ("modified", 0o100644, 0o100755, ())
    assert change.old_oid == change.new_oid
    assert not change.binary


def test_file_becoming_a_symlink_is_a_typechange(repo: Path) -> None:
    write(repo, "target.txt", "t\n")
    write(repo, "config", "inline config\n")
    base = commit(repo)
    (repo / "config").unlink()
    os.symlink("target.txt", repo / "config")
    commit(repo)
    (change,) = Repo(repo).diff(DiffSpec.parse(f"{base}..HEAD")).changes
    assert (change.status, change.old_mode, change.new_mode) == ("typechange", 0o100644, 0o120000)
    assert change.new_oid == blob_id(b"target.txt")


def test_merge_commit_ranges(repo: Path) -> None:
    write(repo, "shared.txt", "shared\n")
    commit(repo, "base")
    main_before = fork(repo, "feature", ("feature.txt", "feature\n"), ("main.txt", "main\n"))
    opened = Repo(repo)
    # before the merge: A...B shows only the feature's side, A..B also undoes main's change
    assert sorted(by_path(opened.diff(DiffSpec.parse("main...feature")))) == ["feature.txt"]
    two_dot = by_path(opened.diff(DiffSpec.parse("main..feature")))
    assert {p: c.status for p, c in two_dot.items()} == {"feature.txt": "added", "main.txt": "deleted"}
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    merge = git(repo, "rev-parse", "HEAD").strip()
    first_parent = opened.diff(DiffSpec.parse("main~1..main"))
    assert (first_parent.base_commit, first_parent.head_commit) == (main_before, merge)
    assert sorted(by_path(first_parent)) == ["feature.txt"]
    assert sorted(by_path(opened.diff(DiffSpec.parse("feature...main")))) == ["main.txt"]
    assert opened.diff(DiffSpec.parse("feature...main")).base_commit == opened.resolve("feature")


def test_submodule_pointer_change(repo: Path, tmp_path: Path) -> None:
    library = make_repo(tmp_path / "library")
    write(library, "lib.txt", "1\n")
    old_pointer = commit(library)
    write(library, "lib.txt", "2\n")
    new_pointer = commit(library)
    add_submodule(repo, library, "lib")
    base = commit(repo)
    git(repo / "lib", "checkout", "-q", old_pointer)
    git(repo, "add", "lib")
    head = commit(repo)
    opened = Repo(repo)
    (change,) = opened.diff(DiffSpec.parse(f"{base}..{head}")).changes
    assert (change.status, change.path, change.old_mode, change.new_mode) == ("modified", "lib", 0o160000, 0o160000)
    assert (change.old_oid, change.new_oid, change.hunks, change.binary) == (new_pointer, old_pointer, (), False)
    # checked out elsewhere but not staged: the work tree sees the commit the submodule is at
    git(repo / "lib", "checkout", "-q", new_pointer)
    (moved,) = opened.diff(DiffSpec.parse(None)).changes
    assert (moved.path, moved.old_oid, moved.new_oid, moved.hunks) == ("lib", old_pointer, new_pointer, ())
    assert Entry("lib", new_pointer, 0o160000) in opened.snapshot_worktree()
    assert Entry("lib", old_pointer, 0o160000) in opened.snapshot_index()


def test_submodule_with_only_local_edits_is_unchanged(repo: Path, tmp_path: Path) -> None:
    library = make_repo(tmp_path / "library")
    write(library, "lib.txt", "1\n")
    pointer = commit(library)
    add_submodule(repo, library, "lib")
    write(repo, "a.txt", "a\n")
    commit(repo)
    write(repo, "lib/lib.txt", "edited inside the submodule\n")
    write(repo, "lib/untracked.txt", "u\n")
    write(repo, "a.txt", "b\n")
    opened = Repo(repo)
    assert [c.path for c in opened.diff(DiffSpec.parse(None)).changes] == ["a.txt"]
    assert Entry("lib", pointer, 0o160000) in opened.snapshot_worktree()


# -- staged and worktree diffs


def test_unborn_head_with_staged_files(repo: Path) -> None:
    write(repo, "a.txt", "1\n2\n")
    write(repo, "dir/b.txt", "b\n")
    git(repo, "add", "-A")
    write(repo, "a.txt", "1\n2\n3\n")
    write(repo, "untracked.txt", "u\n")
    opened = Repo(repo)
    staged = opened.diff(DiffSpec.parse(None, staged=True))
    assert (staged.base_commit, staged.head_commit, staged.head_label) == (None, None, "staged")
    assert {c.path: (c.status, c.new_oid) for c in staged.changes} == {
        "a.txt": ("added", blob_id(b"1\n2\n")),
        "dir/b.txt": ("added", blob_id(b"b\n")),
    }
    assert hunks_by_path(staged) == {"a.txt": ((0, 0, 1, 2),), "dir/b.txt": ((0, 0, 1, 1),)}
    worktree = opened.diff(DiffSpec.parse(None))
    assert (worktree.base_commit, worktree.head_label) == (None, "worktree")
    a = by_path(worktree)["a.txt"]
    assert (a.status, a.new_oid, a.hunks) == ("added", blob_id(b"1\n2\n3\n"), (Hunk(0, 0, 1, 3),))
    assert sorted(by_path(worktree)) == ["a.txt", "dir/b.txt"]
    assert opened.read_blob(blob_id(b"1\n2\n3\n")) == b"1\n2\n3\n"


def test_staged_diff_leaves_out_unstaged_edits(repo: Path) -> None:
    write(repo, "a.txt", lines(10))
    write(repo, "b.txt", "b\n")
    base = commit(repo)
    write(repo, "a.txt", lines(10).replace("line 2\n", "two\n").replace("line 9\n", "nine\n"))
    git(repo, "add", "a.txt")
    write(repo, "a.txt", "unstaged rewrite\n")
    write(repo, "b.txt", "unstaged\n")
    diff = Repo(repo).diff(DiffSpec.parse(None, staged=True))
    assert (diff.base_commit, diff.head_commit, diff.head_label) == (base, None, "staged")
    assert hunks_by_path(diff) == git_hunks(repo, "--cached") == {"a.txt": ((2, 1, 2, 1), (9, 1, 9, 1))}


def test_staged_diff_against_a_revision(repo: Path) -> None:
    write(repo, "a.txt", "1\n")
    first = commit(repo)
    write(repo, "a.txt", "2\n")
    commit(repo)
    write(repo, "b.txt", "b\n")
    git(repo, "add", "b.txt")
    diff = Repo(repo).diff(DiffSpec.parse(first, staged=True))
    assert diff.base_commit == first
    assert (
        hunks_by_path(diff)
        == git_hunks(repo, "--cached", first)
        == {"a.txt": ((1, 1, 1, 1),), "b.txt": ((0, 0, 1, 1),)}
    )


def test_worktree_diff_is_git_diff_head(repo: Path) -> None:
    for name in ("staged", "unstaged", "both", "unindexed", "removed"):
        write(repo, f"{name}.txt", lines(12, name))
    base = commit(repo)
    write(repo, "staged.txt", lines(12, "staged").replace("staged 4\n", "four\n"))
    git(repo, "add", "staged.txt")
    write(repo, "unstaged.txt", lines(12, "unstaged").replace("unstaged 1\n", "").replace("unstaged 12\n", "x\n"))
    write(repo, "both.txt", lines(12, "both").replace("both 2\n", "two\n"))
    git(repo, "add", "both.txt")
    write(repo, "both.txt", lines(12, "both").replace("both 2\n", "two\n").replace("both 11\n", "eleven\n"))
    git(repo, "rm", "-q", "--cached", "unindexed.txt")  # still on disk: git diff HEAD shows it deleted
    (repo / "removed.txt").unlink()
    write(repo, "intent.txt", "intent to add\n")
    git(repo, "add", "-N", "intent.txt")
    write(repo, "untracked.txt", "not shown\n")
    opened = Repo(repo)
    diff = opened.diff(DiffSpec.parse(None))
    assert (diff.base_commit, diff.head_commit, diff.head_label) == (base, None, "worktree")
    assert hunks_by_path(diff) == git_hunks(repo, "HEAD")
    statuses = {c.path: c.status for c in diff.changes}
    assert statuses == {
        "both.txt": "modified",
        "intent.txt": "added",
        "removed.txt": "deleted",
        "staged.txt": "modified",
        "unindexed.txt": "deleted",
        "unstaged.txt": "modified",
    }
    both = by_path(diff)["both.txt"]
    on_disk = (repo / "both.txt").read_bytes()
    assert both.new_oid == blob_id(on_disk)
    assert opened.read_blob(both.new_oid) == on_disk
    assert by_path(diff)["staged.txt"].new_oid == git(repo, "rev-parse", ":staged.txt").strip()


def test_worktree_diff_finds_renames(repo: Path) -> None:
    write(repo, "old_name.txt", lines(10))
    commit(repo)
    git(repo, "mv", "old_name.txt", "new_name.txt")
    write(repo, "new_name.txt", lines(10).replace("line 5\n", "five\n"))
    (change,) = Repo(repo).diff(DiffSpec.parse(None)).changes
    assert (change.status, change.old_path, change.new_path) == ("renamed", "old_name.txt", "new_name.txt")
    assert change.hunks == (Hunk(5, 1, 5, 1),)
    assert change.similarity is not None
    assert change.similarity >= 50


def test_unresolved_conflicts_are_refused(repo: Path) -> None:
    write(repo, "c.txt", "base\n")
    commit(repo)
    fork(repo, "other", ("c.txt", "other\n"), ("c.txt", "main\n"))
    with pytest.raises(AssertionError, match="CONFLICT"):
        git(repo, "merge", "other")
    opened = Repo(repo)
    message = r"unresolved merge conflicts in c.txt: resolve them \(git add\)"
    with pytest.raises(GitError, match=message):
        opened.snapshot_index()
    with pytest.raises(GitError, match=message):
        opened.diff(DiffSpec.parse(None, staged=True))
    git(repo, "add", "c.txt")
    assert [e.path for e in opened.snapshot_index()] == ["c.txt"]


# -- remote


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("git@github.com:owner/repo.git", "https://github.com/owner/repo"),
        ("git@github.com:owner/repo", "https://github.com/owner/repo"),
        ("https://github.com/owner/repo.git", "https://github.com/owner/repo"),
        ("https://x-access-token:secret@github.com/owner/repo/", "https://github.com/owner/repo"),
        ("ssh://git@github.com:22/owner/repo.git", "https://github.com/owner/repo"),
        ("git://github.com/owner/repo.git", "https://github.com/owner/repo"),
        ("http://git.example.com:8080/group/sub/repo.git", "http://git.example.com:8080/group/sub/repo"),
        ("/srv/git/repo.git", None),
        ("file:///srv/git/repo.git", None),
    ],
)
def test_remote_web_url(repo: Path, url: str, expected: str | None) -> None:
    git(repo, "remote", "add", "origin", url)
    assert Repo(repo).remote_web_url() == expected


def test_remote_web_url_without_origin(repo: Path) -> None:
    git(repo, "remote", "add", "upstream", "git@github.com:owner/repo.git")
    assert Repo(repo).remote_web_url() is None


def test_find_paths_and_read_path_see_the_tree_with_the_snapshot_overlay(repo: Path) -> None:
    for path in ("docs/a.rst", "docs/deep/b.rst", "docs/c.txt", "src/d.rst", "top.rst"):
        write(repo, path, f"{path}\n")
    commit(repo, "docs")
    write(repo, "docs/new.rst", "new\n")  # untracked work-tree files are no part of a snapshot
    git(repo, "add", "docs/new.rst")
    (repo / "docs/a.rst").unlink()
    write(repo, "docs/c.txt", "edited\n")
    r = Repo(repo)
    rst = lambda name: name.endswith(".rst")
    head = r.snapshot("commit")
    assert r.find_paths(head, rst) == ["docs/a.rst", "docs/deep/b.rst", "src/d.rst", "top.rst"]
    assert r.find_paths(head, rst, ["docs", "src/"]) == ["docs/a.rst", "docs/deep/b.rst", "src/d.rst"]
    assert r.find_paths(head, rst, ["missing"]) == []
    work = r.snapshot("worktree")
    assert r.find_paths(work, rst, ["docs"]) == ["docs/deep/b.rst", "docs/new.rst"]
    assert r.read_path(work, "docs/c.txt") == b"edited\n"
    assert r.read_path(head, "docs/c.txt") == b"docs/c.txt\n"
    assert r.read_path(work, "docs/a.rst") is None and r.read_path(head, "docs") is None
