"""Touched symbols: the hunks of a diff mapped to the innermost definitions of both sides.

A change in a class body outside its methods touches the class, one at module level the module; symbols
only on the new side are ``added``, only on the old side ``removed`` (the old blob is parsed in memory),
and a touched symbol whose signature differs is ``signature``.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .graph import Graph
from .graphnodes import Node
from .languages import language_for_path
from .model import MODULE_QUALNAME, Symbol
from .review import ChangedSymbol

if TYPE_CHECKING:
    from .gitio import Diff, FileChange, Repo
    from .indexer import Source

__all__ = [
    "CONFIG_FILES",
    "Removed",
    "Touched",
    "source_for",
    "touched_symbols",
]


#: files whose change affects every test (at the repository root)
CONFIG_FILES = ("conftest.py", "pyproject.toml", "setup.cfg", "tox.ini", "pytest.ini")


@dataclass
class Removed:
    """A symbol of the old side that the head side no longer has."""

    path: str  # old path
    symbol: Symbol
    parent: Symbol | None
    language: str
    renamed_to: str | None = None


@dataclass
class Touched:
    """What the hunks of a diff touch."""

    changed: list[ChangedSymbol] = field(default_factory=list)
    start_ids: dict[int, ChangedSymbol] = field(default_factory=dict)  # head symbol id → change
    removed: list[Removed] = field(default_factory=list)
    removed_modules: list[tuple[str, str | None]] = field(default_factory=list)  # (old path, new path or None)
    changed_paths: set[str] = field(default_factory=set)  # head paths of changed source files
    other_paths: set[str] = field(default_factory=set)  # head paths of changed files of no language (test data?)
    select_all: str | None = None
    files: dict[str, int] = field(default_factory=dict)


def source_for(diff: Diff) -> Source:
    """The index snapshot that is the head side of ``diff``."""
    from .indexer import Source

    if diff.head_commit is not None:
        return Source("commit", diff.head_commit)
    return Source("staged") if diff.spec.kind == "staged" else Source("worktree")


def _excluded(path: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, p) for p in patterns)


def _innermost(symbols: Sequence[Any], line: int) -> Any:
    """The innermost symbol whose span contains ``line`` (the module symbol when none does)."""
    best = None
    for s in symbols:
        if s.start_line <= line <= s.end_line and (
            best is None or (s.end_line - s.start_line) <= (best.end_line - best.start_line)
        ):
            best = s
    return best


def _lines(hunk_start: int, count: int) -> range:
    # a side with no lines (a pure insertion or deletion) touches nothing on that side: the other side's
    # lines say what changed
    return range(hunk_start, hunk_start + count)


def _blank(text_lines: Sequence[bytes], line: int) -> bool:
    if not 1 <= line <= len(text_lines):
        return True
    s = text_lines[line - 1].strip()
    return not s or s.startswith((b"#", b"//"))


def _norm_sig(sig: str) -> str:
    return " ".join(sig.split())


def touched_symbols(repo: Repo, graph: Graph, diff: Diff, excludes: Sequence[str]) -> Touched:
    """Map the diff's hunks to symbols of both sides; symbols added, removed and with new signatures."""
    from .parse import parse

    out = Touched()
    counts = {"changed": 0, "source": 0, "binary": 0, "submodule": 0, "mode_only": 0, "skipped": 0}
    for change in diff.changes:
        counts["changed"] += 1
        path = change.path
        if "/" not in path and path in CONFIG_FILES and out.select_all is None:
            out.select_all = f"{path} changed: it configures every test"
        if any(m == 0o160000 for m in (change.old_mode, change.new_mode)):
            counts["submodule"] += 1
            continue
        if change.binary:
            counts["binary"] += 1
            continue
        if change.status in ("modified", "typechange") and not change.hunks and change.old_oid == change.new_oid:
            counts["mode_only"] += 1
            continue
        old_lang = language_for_path(change.old_path) if change.old_path else None
        new_lang = language_for_path(change.new_path) if change.new_path else None
        if old_lang is None and new_lang is None:
            if change.new_path:  # a doctest text file, or data a conftest collects tests from, runs itself
                out.other_paths.add(change.new_path)
            continue
        if _excluded(path, excludes):
            counts["skipped"] += 1
            continue
        counts["source"] += 1
        _file_changes(repo, graph, change, old_lang, new_lang, out, parse)
    out.files = counts
    return out


def _file_changes(
    repo: Repo, graph: Graph, change: FileChange, old_lang: str | None, new_lang: str | None, out: Touched, parse: Any
) -> None:
    old_symbols: list[Symbol] = []
    old_lines: list[bytes] = []
    is_symlink = any(m == 0o120000 for m in (change.old_mode, change.new_mode))
    if change.old_oid and change.old_path and old_lang and change.status != "added" and not is_symlink:
        data = repo.read_blob(change.old_oid)
        if b"\0" not in data[:8192]:
            old_symbols = parse(data, change.old_path, old_lang).symbols
            old_lines = data.splitlines()
    new_nodes: list[Node] = []
    new_lines: list[bytes] = []
    if change.new_path and new_lang and change.status != "deleted" and not is_symlink:
        new_nodes = graph.file_nodes(change.new_path)
        if new_nodes and change.new_oid:
            new_lines = repo.read_blob(change.new_oid).splitlines()
    if change.new_path and new_nodes:
        out.changed_paths.add(change.new_path)
    old_by_q = {s.qualname: s for s in old_symbols}
    new_by_q = {n.qualname: n for n in new_nodes}
    whole_file = change.status in ("added", "deleted") or (change.status != "deleted" and not old_symbols and new_nodes)
    if change.status in ("deleted", "renamed") and change.old_path and old_lang == "python":
        out.removed_modules.append((change.old_path, change.new_path if change.status == "renamed" else None))

    touched_old: set[str] = set()
    touched_new: set[str] = set()
    if not whole_file:
        for h in change.hunks:
            if old_symbols:
                for line in _lines(h.old_start, h.old_lines):
                    s = _innermost(old_symbols, line)
                    if s is not None and not (s.kind == "module" and _blank(old_lines, line)):
                        touched_old.add(s.qualname)
            if new_nodes:
                for line in _lines(h.new_start, h.new_lines):
                    n = _innermost(new_nodes, line)
                    if n is not None and not (n.kind == "module" and _blank(new_lines, line)):
                        touched_new.add(n.qualname)

    def changed_symbol(q: str, change_kind: str, path: str, s: Any, old: Symbol | None = None) -> ChangedSymbol:
        return ChangedSymbol(
            file=path,
            qualname=q,
            name=s.name,
            kind=s.kind,
            start_line=s.start_line,
            end_line=s.end_line,
            change=change_kind,
            old_signature=old.signature if old is not None else "",
            new_signature=s.signature if change_kind != "removed" else "",
        )

    removed_q = [q for q in old_by_q if q not in new_by_q and q != MODULE_QUALNAME]
    added_q = [q for q in new_by_q if q not in old_by_q and q != MODULE_QUALNAME]
    entries: list[tuple[int, ChangedSymbol, int | None]] = []
    removed_here: list[Removed] = []
    for q in removed_q:
        s = old_by_q[q]
        parent = old_by_q.get(s.parent) if s.parent else None
        if parent is not None and parent.qualname in removed_q:
            continue  # the enclosing definition is removed too: report that one
        assert change.old_path is not None
        entries.append((s.start_line, changed_symbol(q, "removed", change.old_path, s), None))
        removed_here.append(Removed(change.old_path, s, parent, old_lang or ""))
    for q in added_q:
        n = new_by_q[q]
        parent_node = graph.nodes([n.parent_id]).get(n.parent_id) if n.parent_id is not None else None
        if parent_node is not None and parent_node.qualname in added_q:
            continue
        entries.append((n.start_line, changed_symbol(q, "added", n.path, n), n.id))
    for q in sorted((touched_old | touched_new) - set(removed_q) - set(added_q)):
        n = new_by_q.get(q)
        old = old_by_q.get(q)
        if n is None:
            continue
        if n.kind == "module" and whole_file:
            continue
        kind = "modified"
        if (
            old is not None
            and n.kind != "module"
            and (_norm_sig(old.signature) != _norm_sig(n.signature) or tuple(old.params) != n.params)
        ):
            kind = "signature"
        entries.append((n.start_line, changed_symbol(q, kind, n.path, n, old), n.id))
    if whole_file and not entries and new_nodes:  # a script without definitions: the module itself
        n = new_by_q[MODULE_QUALNAME]
        entries.append(
            (1, changed_symbol(MODULE_QUALNAME, "added" if change.status == "added" else "modified", n.path, n), n.id)
        )
    _name_renames(removed_here, [new_by_q[q] for q in added_q])
    out.removed.extend(removed_here)
    for _, cs, sid in sorted(entries, key=lambda e: (e[1].file, e[0], e[1].qualname)):
        out.changed.append(cs)
        if sid is not None:
            out.start_ids[sid] = cs


def _name_renames(removed: list[Removed], added: list[Node]) -> None:
    """A removed symbol with exactly one added symbol of the same kind under the same parent: a rename."""
    for r in removed:
        parent = r.symbol.parent or MODULE_QUALNAME
        same = [
            a for a in added if a.kind == r.symbol.kind and (a.qualname.rpartition(".")[0] or MODULE_QUALNAME) == parent
        ]
        if len(same) == 1:
            r.renamed_to = same[0].qualname
