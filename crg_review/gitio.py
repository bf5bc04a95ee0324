"""Git access, and the only module that imports pygit2: revisions, snapshots, diffs and blobs.

Diffs come in four kinds (:class:`DiffSpec`): ``A..B`` (tree vs tree), ``A...B`` (merge base vs B),
staged (HEAD vs index) and worktree (HEAD vs working tree including the index, like ``git diff HEAD``).
Renames are found at 50% similarity; hunks carry no context lines. Every problem a user can fix is a
:class:`~crg_review.errors.GitError` whose one-line message says what to do next.

A :class:`Snapshot` (a commit's tree, the staged index or the working tree) is held as a tree of the
object database plus the few paths where it differs from that tree, so that two snapshots are compared
without listing every path: libgit2 compares the index and the work tree in C, equal subtrees are
skipped, and only the paths that differ become Python objects.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import pygit2
from pygit2.enums import DeltaStatus, DiffFind, DiffFlag, DiffOption

from crg_review.errors import GitError

__all__ = ["SHALLOW_FIX", "Diff", "DiffSpec", "Entry", "FileChange", "Hunk", "Repo", "Snapshot", "SnapshotKind"]

log = logging.getLogger(__name__)

#: what to do when history is missing from a shallow clone (CI checkouts are shallow by default)
SHALLOW_FIX = "fetch more history (actions/checkout with fetch-depth: 0, or git fetch --deepen=N)"

_TYPE_MASK = 0o170000
_FILE = 0o100000
_SYMLINK = 0o120000
_SUBMODULE = 0o160000
_TREE = 0o040000
_RENAME_THRESHOLD = 50
# without INCLUDE_TYPECHANGE a file that becomes a symlink is a deletion plus an addition
_DIFF_FLAGS = DiffOption.INCLUDE_TYPECHANGE

Status = Literal["added", "deleted", "modified", "renamed", "copied", "typechange"]
DiffKind = Literal["range", "merge_base", "staged", "worktree"]
SnapshotKind = Literal["commit", "staged", "worktree"]

_STATUS: dict[int, Status] = {
    DeltaStatus.ADDED: "added",
    DeltaStatus.DELETED: "deleted",
    DeltaStatus.MODIFIED: "modified",
    DeltaStatus.RENAMED: "renamed",
    DeltaStatus.COPIED: "copied",
    DeltaStatus.TYPECHANGE: "typechange",
}
_ANCESTRY = re.compile(r"(?P<start>.+?)(?P<steps>(?:[~^]\d*)+)")
_STEP = re.compile(r"([~^])(\d*)")
_SCP_URL = re.compile(r"(?:[^@/:]+@)?(?P<host>[^@/:]{2,}):(?P<path>.+)")  # git@host:owner/repo.git


@dataclass(frozen=True)
class Entry:
    """One path of a snapshot: ``oid`` is the blob id of its content (a submodule: the commit id)."""

    path: str  # repo-relative, '/' separators
    oid: str
    mode: int  # 0o100644, 0o100755, 0o120000 symlink, 0o160000 submodule

    @property
    def is_symlink(self) -> bool:
        """A symbolic link: its blob is the link target text."""
        return self.mode == _SYMLINK

    @property
    def is_submodule(self) -> bool:
        """A submodule (gitlink): ``oid`` is a commit of another repository, with no blob."""
        return self.mode == _SUBMODULE

    @property
    def is_file(self) -> bool:
        """A regular file, executable or not."""
        return self.mode & _TYPE_MASK == _FILE


@dataclass(frozen=True)
class Snapshot:
    """Every path of a commit, the staged index or the working tree: the tree ``tree`` (None: the
    empty tree) with ``overlay`` applied, where a path maps to its entry, or to None when it is absent."""

    tree: str | None
    overlay: Mapping[str, Entry | None]

    #: the version of :meth:`to_json`; text of another version is not read back
    FORMAT = 1

    def to_json(self) -> str:
        """A compact text form (the index keeps the snapshot it was built from in its meta table)."""
        overlay = {path: None if e is None else [e.oid, e.mode] for path, e in self.overlay.items()}
        return json.dumps({"format": self.FORMAT, "tree": self.tree, "overlay": overlay}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> Snapshot | None:
        """The snapshot :meth:`to_json` wrote, or None for no text, another format or damaged text."""
        if not text:
            return None
        try:
            data = json.loads(text)
            if data["format"] != cls.FORMAT:
                return None
            tree = data["tree"]
            overlay = {
                path: None if value is None else Entry(path, str(value[0]), int(value[1]))
                for path, value in data["overlay"].items()
            }
        except (ValueError, TypeError, KeyError, IndexError):
            return None
        if tree is not None and not isinstance(tree, str):
            return None
        return cls(tree, overlay)


@dataclass(frozen=True)
class DiffSpec:
    """What to compare; ``base``/``head`` are revision texts, None meaning HEAD.

    For staged and worktree a None ``base`` is HEAD, or the empty tree before the first commit.
    """

    kind: DiffKind
    base: str | None = None
    head: str | None = None

    @classmethod
    def parse(cls, text: str | None, *, staged: bool = False) -> DiffSpec:
        """``A..B`` range, ``A...B`` merge base, a single ``A`` is ``A..HEAD`` (committed changes only,
        unlike ``git diff A``), an empty side is HEAD; None is the worktree, or staged with ``staged``."""
        if text is None:
            return cls("staged" if staged else "worktree")
        text = text.strip()
        if not text:
            raise GitError("empty revision: pass A..B, A...B or a single revision")
        if staged:
            if ".." in text:
                raise GitError(f"a staged diff compares the index with one revision, not '{text}': pass one revision")
            return cls("staged", base=text)
        separators: tuple[tuple[str, DiffKind], ...] = (("...", "merge_base"), ("..", "range"))
        for separator, kind in separators:
            if separator in text:
                base, _, head = text.partition(separator)
                return cls(kind, base=base or "HEAD", head=head or "HEAD")
        return cls("range", base=text, head="HEAD")


@dataclass(frozen=True)
class Hunk:
    """A changed region as in the ``@@ -old_start,old_lines +new_start,new_lines @@`` header (1-based)."""

    old_start: int
    old_lines: int
    new_start: int
    new_lines: int


@dataclass(frozen=True)
class FileChange:
    """One changed path. A mode-only change or a submodule pointer change is ``modified`` with no hunks."""

    status: Status
    old_path: str | None
    new_path: str | None
    old_oid: str | None
    new_oid: str | None
    old_mode: int | None
    new_mode: int | None
    binary: bool
    similarity: int | None  # renames and copies only
    hunks: tuple[Hunk, ...]

    @property
    def path(self) -> str:
        """The path after the change, or before it for a deletion."""
        path = self.new_path or self.old_path
        assert path is not None, "a change has at least one side"
        return path


@dataclass(frozen=True)
class Diff:
    """The changes of ``spec``; ``base_commit`` None means the empty tree (no commit yet)."""

    spec: DiffSpec
    base_commit: str | None
    head_commit: str | None  # None for staged and worktree
    head_label: str  # the head commit id, "staged" or "worktree"
    changes: tuple[FileChange, ...]


class Repo:
    """A git work tree: its revisions, snapshots of its files, diffs and blob contents."""

    root: Path
    common_dir: Path

    def __init__(self, path: str | os.PathLike[str] = ".") -> None:
        """Open the repository containing ``path``, searching upwards like git does."""
        start = os.fspath(path)
        found = pygit2.discover_repository(start)
        if found is None:
            raise GitError(f"not a git repository: {start} (run inside a git work tree or pass --repo)")
        try:
            self._repo = pygit2.Repository(found)
        except pygit2.GitError as exc:
            raise GitError(f"cannot open the git repository at {found}: {exc} (check it with git status)") from None
        if self._repo.is_bare or self._repo.workdir is None:
            raise GitError(f"bare repository: {start} has no work tree (run inside a git work tree or pass --repo)")
        self.root = Path(self._repo.workdir).resolve()
        self.common_dir = _common_dir(Path(self._repo.path))
        self._found = found
        # blob id -> path for work-tree contents that are not in the object database
        self._worktree_blobs: dict[str, str] = {}
        self._prefetch: _Prefetch | None = None

    def head_commit(self) -> str | None:
        """The commit HEAD points at, None before the first commit."""
        if self._repo.head_is_unborn:
            return None
        return str(self._repo.head.target)

    def resolve(self, rev: str) -> str:
        """The id of the commit ``rev`` names (branch, tag, id, ``HEAD~2``, ...)."""
        return str(self._commit(rev).id)

    def merge_base(self, a: str, b: str) -> str:
        """The best common ancestor of two revisions, as ``git merge-base a b``."""
        base: pygit2.Oid | None = self._repo.merge_base(self._commit(a).id, self._commit(b).id)
        if base is None:
            if self.is_shallow():
                raise GitError(f"the merge base of '{a}' and '{b}' is not in this shallow clone: {SHALLOW_FIX}")
            raise GitError(f"'{a}' and '{b}' have no common history: compare them directly with {a}..{b}")
        return str(base)

    def is_shallow(self) -> bool:
        """True for a shallow clone, whose history stops early."""
        return bool(self._repo.is_shallow)

    def prefetch(self, kind: SnapshotKind) -> None:
        """For a work-tree snapshot: start comparing the work tree with the index in a background thread,
        for the next :meth:`snapshot` to pick up. libgit2 stats every tracked file without holding the
        GIL, so the caller can meanwhile import, open its index and read what it remembered. (A staged
        or commit snapshot reads no work tree: nothing to start.)"""
        if kind == "worktree" and self._prefetch is None:
            self._prefetch = _Prefetch(self._found)

    def snapshot(self, kind: SnapshotKind, rev: str | None = None) -> Snapshot:
        """The commit ``rev`` (default HEAD), the staged index or the working tree, as HEAD's tree (a
        commit's own tree) plus what differs from it; deleted and untracked work-tree files are absent.

        Only the differences are built in Python: libgit2 compares HEAD with the index, and each file's
        stat with the index (reading only the files whose stat differs); that second comparison is the
        one :meth:`prefetch` started, when it did and read the same index."""
        if kind == "commit":
            return Snapshot(str(self._commit(rev or "HEAD").tree_id), {})
        index = self._index()
        head = self._head()
        overlay: dict[str, Entry | None] = {}
        if head is None:  # no commit yet: every staged path differs from the empty tree
            overlay.update((e.path, Entry(e.path, str(e.id), int(e.mode))) for e in index)
        else:
            # Index.diff_to_tree is HEAD -> index like Tree.diff_to_index, but through cffi, without the GIL
            for delta in index.diff_to_tree(head.tree, flags=_DIFF_FLAGS).deltas:
                if delta.status == DeltaStatus.DELETED:
                    overlay[delta.old_file.path] = None
                else:
                    file = delta.new_file
                    overlay[file.path] = Entry(file.path, str(file.id), int(file.mode))
        if kind == "worktree":
            prefetch, self._prefetch = self._prefetch, None
            # the thread compared the work tree with the index it read: used only if that is the index read
            # here (git replaces the index file, never rewrites it, so an unchanged identity is the same index)
            taken = None if prefetch is None else prefetch.result(self._index_identity())
            if taken is None:
                workdir = self._workdir_changes(index)
            else:
                workdir, blobs = taken
                self._worktree_blobs.update(blobs)
            overlay.update(workdir)
            log.debug("worktree snapshot: %d paths differ from the index", len(workdir))
        return Snapshot(None if head is None else str(head.tree_id), overlay)

    def entries(self, snapshot: Snapshot) -> list[Entry]:
        """Every path of ``snapshot`` (files, symlinks, submodules), sorted by path."""
        listed: dict[str, Entry] = {}
        if snapshot.tree is not None:
            flat = pygit2.Index()  # in memory: flattens the tree in C, never touches .git/index
            flat.read_tree(self._tree(snapshot.tree))
            listed = {e.path: Entry(e.path, str(e.id), int(e.mode)) for e in flat}
        for path, entry in snapshot.overlay.items():
            if entry is None:
                listed.pop(path, None)
            else:
                listed[path] = entry
        return _sorted(listed.values())

    def changed_paths(self, old: Snapshot, new: Snapshot) -> dict[str, Entry | None] | None:
        """Every path whose entry may differ between two snapshots, with its entry in ``new`` (None:
        absent there); a path left out has the same entry in both. None when ``old``'s tree is no
        longer in the object database (garbage-collected): only a full comparison can tell then."""
        new_tree = None if new.tree is None else self._tree(new.tree)
        found: dict[str, Entry | None] = {}
        try:
            old_tree = None if old.tree is None else self._tree(old.tree)
            if old.tree != new.tree:
                _tree_changes(old_tree, new_tree, "", found)
        except (GitError, KeyError, pygit2.GitError):  # pruned, or a subtree of it
            return None
        for path in old.overlay.keys() - new.overlay.keys() - found.keys():
            found[path] = _tree_entry(new_tree, path)
        found.update(new.overlay)
        return found

    def snapshot_commit(self, rev: str) -> list[Entry]:
        """Every file, symlink and submodule of the commit ``rev``, sorted by path."""
        return self.entries(self.snapshot("commit", rev))

    def snapshot_index(self) -> list[Entry]:
        """Every staged path with its staged content, sorted by path."""
        return _sorted(Entry(e.path, str(e.id), int(e.mode)) for e in self._index())

    def snapshot_worktree(self) -> list[Entry]:
        """Every tracked path as it is in the working tree now, sorted; deleted files are left out."""
        return self.entries(self.snapshot("worktree"))

    def find_paths(self, snapshot: Snapshot, match: Callable[[str], bool], under: Sequence[str] = ("",)) -> list[str]:
        """The files of ``snapshot`` below the folders ``under`` (``""``: the root) whose file name ``match``
        accepts, sorted. Only those folders' trees are read (django's whole tree: 8 ms)."""
        tree = None if snapshot.tree is None else self._tree(snapshot.tree)
        found: set[str] = set()
        for folder in dict.fromkeys(f.strip("/") for f in under):
            sub: object = tree
            if folder and tree is not None:
                try:
                    sub = tree[folder]
                except KeyError:
                    sub = None
            if isinstance(sub, pygit2.Tree):
                _find(sub, folder + "/" if folder else "", match, found)
        for path, entry in snapshot.overlay.items():
            inside = any(not f.strip("/") or path.startswith(f.strip("/") + "/") for f in under)
            if entry is None or not entry.is_file or not inside or not match(path.rpartition("/")[2]):
                found.discard(path)
            else:
                found.add(path)
        return sorted(found)

    def read_path(self, snapshot: Snapshot, path: str) -> bytes | None:
        """The content of the file ``path`` in ``snapshot``; None when it has none there, or when it is a
        work-tree change this process has not seen (its content is not in the object database)."""
        if path in snapshot.overlay:
            entry = snapshot.overlay[path]
        else:
            entry = _tree_entry(None if snapshot.tree is None else self._tree(snapshot.tree), path)
        if entry is None or not entry.is_file:
            return None
        try:
            return self.read_blob(entry.oid)
        except GitError:
            return None

    def read_blob(self, oid: str) -> bytes:
        """The content of a blob, or of a work-tree file a snapshot or diff of the worktree has seen."""
        content = self._content(oid)
        return content if isinstance(content, bytes) else content.data

    def remote_web_url(self) -> str | None:
        """The web address of the 'origin' remote (``git@github.com:o/r.git`` -> ``https://github.com/o/r``)."""
        try:
            url = self._repo.remotes["origin"].url
        except (KeyError, pygit2.GitError):
            return None
        return _web_url(url) if url else None

    def diff(self, spec: DiffSpec) -> Diff:
        """The changes ``spec`` describes, with renames found and hunks without context lines."""
        if spec.kind in ("range", "merge_base"):
            base_rev, head_rev = spec.base or "HEAD", spec.head or "HEAD"
            head = self._commit(head_rev)
            base = self._commit(self.merge_base(base_rev, head_rev) if spec.kind == "merge_base" else base_rev)
            native = base.tree.diff_to_tree(head.tree, flags=_DIFF_FLAGS)
            head_commit: str | None = str(head.id)
        else:
            index = self._index()
            start = self._commit(spec.base) if spec.base else self._head()
            head_commit = None
            if start is None:  # no commit yet: everything is added
                snapshot = self.snapshot_index() if spec.kind == "staged" else self.snapshot_worktree()
                added = tuple(self._change("added", None, entry) for entry in snapshot)
                return Diff(spec, None, None, spec.kind, added)
            base = start
            native = base.tree.diff_to_index(index, flags=_DIFF_FLAGS)
            if spec.kind == "worktree":
                # git diff HEAD: (HEAD -> index) merged with (index -> work tree)
                native.merge(index.diff_to_workdir(flags=_DIFF_FLAGS))
        native.find_similar(DiffFind.FIND_RENAMES, rename_threshold=_RENAME_THRESHOLD)
        changes = [self._delta_change(delta, spec.kind == "worktree") for delta in native.deltas]
        found = tuple(change for change in changes if change is not None)
        log.debug("diff %s: %d changed paths", spec, len(found))
        return Diff(spec, str(base.id), head_commit, head_commit or spec.kind, found)

    # -- revisions

    def _tree(self, oid: str) -> pygit2.Tree:
        """The tree ``oid`` of the object database (a snapshot's base)."""
        try:
            found = self._repo.get(oid)
        except ValueError:
            found = None
        if not isinstance(found, pygit2.Tree):
            raise GitError(f"tree {oid} is not in the repository: rebuild the index (crg-review index --full)")
        return found

    def _head(self) -> pygit2.Commit | None:
        return None if self._repo.head_is_unborn else self._repo.head.peel(pygit2.Commit)

    def _commit(self, rev: str) -> pygit2.Commit:
        try:
            found = self._repo.revparse_single(rev)
        except pygit2.AmbiguousError:
            raise GitError(f"ambiguous revision '{rev}': use a longer commit id or a full ref name") from None
        except KeyError:
            raise GitError(self._unknown(rev)) from None
        except (ValueError, pygit2.GitError):
            raise GitError(f"invalid revision '{rev}': use a branch, tag, commit id or HEAD~N") from None
        try:
            return found.peel(pygit2.Commit)
        except (ValueError, pygit2.GitError):
            raise GitError(f"'{rev}' is not a commit: use a branch, tag or commit id") from None

    def _unknown(self, rev: str) -> str:
        """The message for a revision that does not resolve, naming the likely fix."""
        if self.is_shallow():
            return f"commit '{rev}' is not in this shallow clone: {SHALLOW_FIX}"
        root = self._parentless(rev)
        if root is not None:
            return f"unknown revision '{rev}': commit {root} has no parent (pick a base inside the history)"
        if self._repo.head_is_unborn:
            return f"unknown revision '{rev}': there are no commits yet (commit first, or review staged changes)"
        return f"unknown revision '{rev}' (check the name, or fetch it from the remote)"

    def _parentless(self, rev: str) -> str | None:
        """For ``X~N`` / ``X^N`` going past a root commit: that commit's short id."""
        match = _ANCESTRY.fullmatch(rev)
        if match is None:
            return None
        try:
            commit = self._repo.revparse_single(match["start"]).peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError):
            return None
        for op, number in _STEP.findall(match["steps"]):
            n = int(number) if number else 1
            hops, nth = (n, 1) if op == "~" else (min(n, 1), n)
            for _ in range(hops):
                if len(commit.parent_ids) < nth:
                    return commit.short_id
                commit = commit.parents[nth - 1]
        return None

    # -- index and work tree

    def _index(self) -> pygit2.Index:
        """The index as git left it on disk; a merge in conflict cannot be reviewed.

        Inside a git hook, ``GIT_INDEX_FILE`` names the index being committed (``git commit -a`` and
        ``git commit PATH`` stage into a temporary one): that is the one to review."""
        index: pygit2.Index = self._repo.index
        path = self._index_file()
        if path != Path(self._repo.path) / "index":
            index = pygit2.Index(str(path))
            index._repo = self._repo  # type: ignore[assignment]  # as Repository.index does: diffs need it
        index.read(False)
        if index.conflicts is not None:
            paths = sorted({next(e for e in sides if e is not None).path for sides in index.conflicts})
            named = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
            raise GitError(f"unresolved merge conflicts in {named}: resolve them (git add) and run again")
        return index

    def _workdir_changes(self, index: pygit2.Index) -> dict[str, Entry | None]:
        """The tracked paths whose work-tree file differs from ``index`` (None: deleted), hashed as git would."""
        changes: dict[str, Entry | None] = {}
        for delta in index.diff_to_workdir(flags=_DIFF_FLAGS).deltas:
            path = delta.old_file.path
            if delta.status == DeltaStatus.DELETED:
                changes[path] = None
            elif delta.status in (DeltaStatus.MODIFIED, DeltaStatus.TYPECHANGE):
                changes[path] = Entry(path, self._worktree_oid(delta.new_file), int(delta.new_file.mode))
        return changes

    def _index_file(self) -> Path:
        """The index file :meth:`_index` reads."""
        alternate = os.environ.get("GIT_INDEX_FILE")
        if alternate:
            path = Path(alternate) if os.path.isabs(alternate) else self.root / alternate
            if path.is_file():
                return path
        return Path(self._repo.path) / "index"

    def _index_identity(self) -> tuple[int, int, int, int] | None:
        """What tells one version of the index file from another (None: there is none yet)."""
        try:
            st = os.stat(self._index_file())
        except OSError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns

    def _worktree_oid(self, file: pygit2.DiffFile) -> str:
        """The blob id of a work-tree file a diff saw; hashed here when libgit2 did not need to."""
        if file.mode == _SUBMODULE:
            return str(file.id)  # the commit checked out in the submodule
        if not file.flags & DiffFlag.VALID_ID:
            return self._read_worktree(file.path)[0]
        self._worktree_blobs[str(file.id)] = file.path
        return str(file.id)

    def _read_worktree(self, path: str) -> tuple[str, bytes]:
        """(blob id, content) of a work-tree path as git would store it: a symlink's target text,
        clean filters (e.g. CRLF) applied."""
        full = self.root / path
        try:
            if stat.S_ISLNK(os.lstat(full).st_mode):
                data = os.fsencode(os.readlink(full))
            else:
                data = full.read_bytes()
                filters = self._repo.load_filter_list(path)
                if filters is not None:
                    data = filters.apply_to_buffer(data)
        except OSError as exc:
            raise GitError(f"cannot read {path}: {exc.strerror} (check the file and run again)") from None
        oid = str(pygit2.hash(data))
        self._worktree_blobs[oid] = path
        return oid, data

    def _content(self, oid: str) -> pygit2.Blob | bytes:
        """A blob from the object database, else the work-tree file it was hashed from."""
        try:
            found = self._repo.get(oid)
        except ValueError:
            raise GitError(f"invalid blob id '{oid}': pass a hexadecimal object id") from None
        if isinstance(found, pygit2.Blob):
            return found
        path = self._worktree_blobs.get(oid)
        if found is None and path is not None:
            now, data = self._read_worktree(path)
            if now == oid:
                return data
            raise GitError(f"{path} changed while crg-review was reading it: run again")
        if found is not None:
            raise GitError(f"object {oid} is a {found.type_str}, not a blob: pass a blob id")
        raise GitError(f"blob {oid} is not in the repository: fetch the missing history (git fetch) and run again")

    # -- changes

    def _delta_change(self, delta: pygit2.DiffDelta, worktree: bool) -> FileChange | None:
        status = _STATUS.get(delta.status)
        if status is None:  # unmodified: a submodule with only a dirty work tree
            return None
        old = new = None
        if status != "added":
            old = Entry(delta.old_file.path, str(delta.old_file.id), int(delta.old_file.mode))
        if status != "deleted":
            file = delta.new_file
            oid = self._worktree_oid(file) if worktree and not self._stored(file) else str(file.id)
            new = Entry(file.path, oid, int(file.mode))
        if old == new:
            return None
        similarity = delta.similarity if status in ("renamed", "copied") else None
        return self._change(status, old, new, similarity)

    def _stored(self, file: pygit2.DiffFile) -> bool:
        """Whether a diff side's content is in the object database (staged, committed)."""
        return bool(file.flags & DiffFlag.VALID_ID) and file.id in self._repo

    def _change(
        self, status: Status, old: Entry | None, new: Entry | None, similarity: int | None = None
    ) -> FileChange:
        binary, hunks = False, tuple[Hunk, ...]()
        if not any(side is not None and side.is_submodule for side in (old, new)):
            binary, hunks = self._hunks(old, new)
        return FileChange(
            status=status,
            old_path=old.path if old else None,
            new_path=new.path if new else None,
            old_oid=old.oid if old else None,
            new_oid=new.oid if new else None,
            old_mode=old.mode if old else None,
            new_mode=new.mode if new else None,
            binary=binary,
            similarity=similarity,
            hunks=hunks,
        )

    def _hunks(self, old: Entry | None, new: Entry | None) -> tuple[bool, tuple[Hunk, ...]]:
        """(binary, hunks) between two sides, without context lines; .gitattributes apply to stored blobs."""
        # per file rather than from the whole diff: merging diffs drops libgit2's context_lines option
        patch = pygit2.Patch.create_from(
            self._content(old.oid) if old else None,
            self._content(new.oid) if new else None,
            old_as_path=old.path if old else new.path if new else "",
            new_as_path=new.path if new else old.path if old else "",
            context_lines=0,
            interhunk_lines=0,
        )
        if patch.delta.is_binary:
            return True, ()
        return False, tuple(Hunk(h.old_start, h.old_lines, h.new_start, h.new_lines) for h in patch.hunks)


class _Prefetch:
    """The work tree compared with the index in a thread, by a second handle on the repository (libgit2
    objects are not shared between threads); not a daemon, so the interpreter waits for it before it
    shuts libgit2 down."""

    def __init__(self, found: str) -> None:
        self._outcome: tuple[tuple[int, int, int, int] | None, dict[str, Entry | None], dict[str, str]] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(found,), name="crg-review work-tree snapshot")
        self._thread.start()

    def _run(self, found: str) -> None:
        try:
            twin = Repo(found)
            identity = twin._index_identity()  # before reading: a later change of the file shows
            changes = twin._workdir_changes(twin._index())
            self._outcome = identity, changes, twin._worktree_blobs
        except BaseException as exc:  # noqa: BLE001 (raised again in the thread that asks for the result)
            self._error = exc

    def result(
        self, identity: tuple[int, int, int, int] | None
    ) -> tuple[dict[str, Entry | None], dict[str, str]] | None:
        """(the work-tree changes, the blobs hashed for them) once the thread is done, if it compared
        with the index of that ``identity``; None when it read another one."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._outcome is not None
        seen, changes, blobs = self._outcome
        return (changes, blobs) if seen == identity else None


def _tree_changes(old: pygit2.Tree | None, new: pygit2.Tree | None, prefix: str, out: dict[str, Entry | None]) -> None:
    """Add to ``out`` every path whose entry differs between two trees (None: the empty tree), with its
    entry in ``new`` (None: absent). Subtrees with the same id are skipped: libgit2's tree-to-tree diff
    reads every tree of both sides (20 ms on django for a one-file commit; this walk: 0.5 ms)."""
    before = {str(e.name): e for e in old} if old is not None else {}
    after = {str(e.name): e for e in new} if new is not None else {}
    for name in before.keys() | after.keys():
        a, b = before.get(name), after.get(name)
        if a is not None and b is not None and a.id == b.id and a.filemode == b.filemode:
            continue
        path = prefix + name
        a_tree = a if isinstance(a, pygit2.Tree) else None
        b_tree = b if isinstance(b, pygit2.Tree) else None
        if a_tree is not None or b_tree is not None:
            _tree_changes(a_tree, b_tree, path + "/", out)
        if b is not None and b_tree is None:
            out[path] = Entry(path, str(b.id), int(b.filemode))
        elif a is not None and a_tree is None:
            out[path] = None


def _find(tree: pygit2.Tree, prefix: str, match: Callable[[str], bool], out: set[str]) -> None:
    for entry in tree:
        if isinstance(entry, pygit2.Tree):
            _find(entry, f"{prefix}{entry.name}/", match, out)
        elif int(entry.filemode) & _TYPE_MASK == _FILE and match(str(entry.name)):
            out.add(prefix + str(entry.name))


def _tree_entry(tree: pygit2.Tree | None, path: str) -> Entry | None:
    """The entry of a file, symlink or submodule at ``path`` in ``tree``, None when there is none."""
    if tree is None:
        return None
    try:
        found = tree[path]
    except KeyError:
        return None
    mode = int(found.filemode)
    return None if mode == _TREE else Entry(path, str(found.id), mode)


def _sorted(entries: Iterable[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda entry: entry.path)


def _common_dir(git_dir: Path) -> Path:
    """``git rev-parse --git-common-dir``: a linked work tree's git dir names the shared one in ``commondir``."""
    try:
        shared = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return git_dir.resolve()
    return (git_dir / shared).resolve()


def _web_url(url: str) -> str | None:
    """An https address for a remote URL (scp-like, ssh://, git://, http(s)://), None for local paths."""
    if "://" in url:
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http", "ssh", "git", "git+ssh", "ssh+git") or not parts.hostname:
            return None
        scheme = "http" if parts.scheme == "http" else "https"
        host = parts.hostname  # without user, password and (for ssh) port
        if parts.scheme in ("http", "https") and parts.port is not None:
            host = f"{host}:{parts.port}"
        path = parts.path
    else:
        match = _SCP_URL.fullmatch(url)
        if match is None:
            return None
        scheme, host, path = "https", match["host"].lower(), match["path"]
    path = path.strip("/").removesuffix(".git").rstrip("/")
    return f"{scheme}://{host}/{path}" if path else None
