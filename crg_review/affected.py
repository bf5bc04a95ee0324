"""Which files an incremental update re-resolves: the changed files and every file whose resolution may differ
after them (it mentions a name whose meaning may have changed, it sits below a class whose bases changed, ...).

Resolving a file is a pure function of the whole index's facts (:mod:`crg_review.resolve`), so re-resolving a
superset of the files whose answer changed makes the incremental index equal a full rebuild; a subset would not.
Each rule here mirrors a look-up of the resolver, named in its docstring.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from .model import CLASS_KINDS, decorator_name
from .resolve import ABC_MIXINS, MAX_CANDIDATES, ORDERING_METHODS
from .store import path_names

__all__ = ["affected_files", "file_ids", "hierarchy_dependents", "inherit_pairs"]


def affected_files(conn: sqlite3.Connection, changed_ids: set[int], names: set[str], dependents: set[int]) -> set[int]:
    """Files whose resolution may differ after the changed files were stored: the changed files, files
    whose edges pointed at symbols that are gone, and files that mention a name whose meaning may have
    changed (including subclasses' names when a class gained or lost a member).

    A superset is fine (more work); a subset would make the incremental index differ from a full one.
    """
    decorated = {n[1:] for n in names if n.startswith("@")}  # store.decorator_marks
    stated = {n[1:] for n in names if n.startswith("^")}  # store: classes whose facts changed (Resolver._facts_of)
    names = {n for n in names if not n.startswith(("@", "^"))}
    if "__eq__" in names:  # `a != b` runs __eq__ where a's class has no __ne__
        names.add("__ne__")
    if "total_ordering" in names:  # a class gaining or losing it: its comparisons run other methods
        names.update(ORDERING_METHODS)
    if "__missing__" in names:  # `x[k]` runs __missing__ where x's class has no __getitem__ (Resolver._instance_member)
        names.add("__getitem__")
    # `x.update(d)` runs the __setitem__ of a class deriving from MutableMapping without an update (Resolver._abc_mixin)
    names.update(mixin for mixins in ABC_MIXINS.values() for mixin, target in mixins.items() if target in names)
    if "__getattr__" in names or "__setattr__" in names or "__getattribute__" in names:
        # a class gaining or losing one changes `x.name` for any name it lacks (every store, for __setattr__, of its
        # instances and of its bases' own methods): every file
        return {r[0] for r in conn.execute("SELECT id FROM files")}
    if changed_ids:
        classes = _with_subclasses(conn, _classes_named(conn, changed_ids, names))
        if classes:
            ids = ",".join(str(i) for i in sorted(classes))
            names.update(r[0] for r in conn.execute(f"SELECT name FROM symbols WHERE id IN ({ids})"))
    names |= _decorated_by(conn, names)
    # a name looked up by prefix (`getattr(self, "visit_" + ...)`, a reference named `visit_*`) may be it, or by a
    # prefix and a tail (`"xpath_{}_function".format(...)`, a reference named `xpath_*_function`)
    tailed = _tailed_lookups(conn, names)
    names.update(f"{n[:k]}*" for n in list(names) for k in range(1, len(n)))
    names |= tailed
    existing = {r[0] for r in conn.execute("SELECT id FROM files")}
    affected = (set(changed_ids) | set(dependents) | _subclass_files(conn, changed_ids, stated)) & existing
    affected |= _relative_package_importers(conn, names)
    done: set[str] = set()
    wildcard_files: set[int] = set()
    alias_files: set[int] = set()
    module_aliases: set[tuple[str, str]] = set()
    return_files: set[int] = set()
    returning: set[tuple[str, str]] = set()
    while True:
        name_list = sorted(n for n in names - done if n)
        if not name_list:
            decorated |= _decorators_used(conn, affected)
            return affected | _decorator_files(conn, decorated | {n for n in names if n.isidentifier()})
        done.update(name_list)
        for i in range(0, len(name_list), 500):
            chunk = name_list[i : i + 500]
            ph = ",".join("?" * len(chunk))
            for table, column in (
                ("refs", "name"),
                ("imports", "name"),
                ("imports", "module_tail"),
                ("imports", "alias"),
                ("bases", "name"),
            ):
                affected.update(
                    r[0] for r in conn.execute(f"SELECT DISTINCT file_id FROM {table} WHERE {column} IN ({ph})", chunk)
                )
        # a file that re-exports with `import *` passes the change on to the files importing from it
        ids = ",".join(str(i) for i in sorted(affected - wildcard_files))
        fresh = {r[0]: r[1] for r in conn.execute(
            f"SELECT DISTINCT i.file_id, f.path FROM imports i JOIN files f ON f.id=i.file_id "
            f"WHERE i.name='*' AND i.file_id IN ({ids or 'NULL'})"
        )}
        wildcard_files.update(fresh)
        for path in fresh.values():
            names.update(path_names(path))
        # facts of the affected files whose text names something whose meaning may have changed: `OMD =
        # OrderedMultiDict` (`json = JSONBackend()`) at the top of a file, so the files importing OMD are affected too
        # (Resolver._module_alias, Resolver._imported_instances); what a function returns through another function's
        # result (`color = color4.parse_color(x); return color`), so the files using it are (Resolver._returned_classes)
        for scanned, facts, named, condition in (
            (alias_files, module_aliases, "r.name", "s.kind='module'"),
            (return_files, returning, "s.name", "r.name='return' AND s.kind IN ('function', 'method')"),
        ):
            ids = ",".join(str(i) for i in sorted(affected - scanned))
            scanned |= affected
            facts.update(
                (r[0], r[1])
                for r in conn.execute(
                    f"SELECT {named}, r.receiver FROM refs r JOIN symbols s ON s.id=r.scope_id"
                    f" WHERE r.file_id IN ({ids or 'NULL'}) AND r.kind IN ('alias', 'assign') AND {condition}"
                )
            )
            names.update(n for n, text in facts if done & {text.split(".")[0], text.rpartition(".")[2]})


def _subclass_files(conn: sqlite3.Connection, changed_ids: set[int], classes: set[str]) -> set[int]:
    """The files of the subclasses, at any depth, of the classes of ``changed_ids`` named ``classes``: what
    ``self.x`` holds there may be stated in those classes (Resolver._facts_of)."""
    if not classes or not changed_ids:
        return set()
    ids = ",".join(str(i) for i in sorted(_with_subclasses(conn, _classes_named(conn, changed_ids, classes))))
    return {r[0] for r in conn.execute(f"SELECT DISTINCT file_id FROM symbols WHERE id IN ({ids or 'NULL'})")}


def _classes_named(conn: sqlite3.Connection, file_ids: set[int], names: set[str]) -> set[int]:
    """The classes of ``file_ids`` whose name is in ``names``."""
    idl = ",".join(str(i) for i in sorted(file_ids))
    rows = conn.execute(
        f"SELECT id, name FROM symbols WHERE file_id IN ({idl}) AND kind IN ({','.join('?' * len(CLASS_KINDS))})",
        sorted(CLASS_KINDS),
    )
    return {r[0] for r in rows if r[1] in names}


def _with_subclasses(conn: sqlite3.Connection, classes: set[int]) -> set[int]:
    """``classes`` and their subclasses at any depth, by the inherit edges."""
    found = set(classes)
    frontier = set(classes)
    while frontier:
        ids = ",".join(str(i) for i in sorted(frontier))
        below = {r[0] for r in conn.execute(f"SELECT src_id FROM edges WHERE kind='inherit' AND dst_id IN ({ids})")}
        frontier = below - found
        found |= below
    return found


def _tailed_lookups(conn: sqlite3.Connection, names: set[str]) -> set[str]:
    """The names of the look-ups by a prefix and a tail (``xpath_*_function``) whose prefix one of ``names`` starts with
    (a look-up whose tail no member has finds those of its prefix: Resolver._prefixed_members), through the index on
    reference names: a range per prefix of a name (``xpath_*`` up to ``xpath_+``)."""
    prefixes = sorted({n[:k] for n in names if n.isidentifier() for k in range(1, len(n))})
    found: set[str] = set()
    for i in range(0, len(prefixes), 500):
        chunk = prefixes[i : i + 500]
        rows = conn.execute(
            f"WITH prefix(p) AS (VALUES {','.join(['(?)'] * len(chunk))}) SELECT DISTINCT r.name FROM prefix"
            " JOIN refs r ON r.name > prefix.p || '*' AND r.name < prefix.p || '+'",
            chunk,
        )
        found.update(r[0] for r in rows)
    return found


def _decorated_by(conn: sqlite3.Connection, names: set[str]) -> set[str]:
    """The names of the functions whose outermost decorator's name starts or ends with a name in ``names``
    (``@indent``, ``@mod.indent``): what a call of one returns is what that decorator's wrapper returns
    (Resolver._wrapper_classes), which may have changed with it, or with what its file binds the name to."""
    out: set[str] = set()
    if not names:
        return out
    for name, text in conn.execute(
        "SELECT name, decorators FROM symbols WHERE decorators != '[]' AND kind IN ('function', 'method')"
    ):
        # the first decorator's text up to its arguments (decoded only when it holds an escape: a non-ASCII name)
        dotted = str(text)[2:].partition("(")[0].partition('"')[0]
        dotted = (json.loads(text)[0].partition("(")[0] if "\\" in dotted else dotted).strip()
        if dotted.partition(".")[0] in names or dotted.rpartition(".")[2] in names:
            out.add(str(name))
    return out


def _decorators_used(conn: sqlite3.Connection, file_ids: set[int]) -> set[str]:
    """The names of the decorators of the functions of ``file_ids``: re-resolved, such a file may find another
    definition for one (`from pkg.sub import d0` once pkg.sub re-exports d0), whose wrapper then calls its function."""
    ids = ",".join(str(i) for i in sorted(file_ids))
    rows = conn.execute(
        f"SELECT decorators FROM symbols WHERE file_id IN ({ids or 'NULL'}) AND decorators != '[]'"
        " AND kind IN ('function', 'method')"
    )
    return {decorator_name(d) for (text,) in rows for d in json.loads(text)}


def _decorator_files(conn: sqlite3.Connection, names: set[str]) -> set[int]:
    """Files defining a function named in ``names`` that has functions nested in it or adds to a collection: a
    decorator whose wrapper may call the functions of other files it decorates, or that keeps them in a table the
    file calls items of, which that file's resolution looks up there (Resolver._decorated_elsewhere): which those
    are changes with the files that name the decorator."""
    out: set[int] = set()
    found = sorted(names)
    for i in range(0, len(found), 500):
        chunk = found[i : i + 500]
        out.update(
            r[0]
            for r in conn.execute(
                f"SELECT DISTINCT s.file_id FROM symbols s WHERE s.name IN ({','.join('?' * len(chunk))})"
                " AND s.kind IN ('function', 'method') AND (EXISTS (SELECT 1 FROM symbols c WHERE c.parent_id=s.id"
                " AND c.kind IN ('function', 'method')) OR EXISTS (SELECT 1 FROM refs r WHERE r.file_id=s.file_id"
                " AND r.scope_id=s.id AND r.kind='item'))",
                chunk,
            )
        )
    return out


def _relative_package_importers(conn: sqlite3.Connection, names: set[str]) -> set[int]:
    """Files with ``from . import x`` (``from .. import x``) of a package whose name is in ``names``: such an
    import names its package by position, not by text, so a package module that appears or goes (its
    path's names are in ``names``) changes what it resolves to."""
    out: set[int] = set()
    if "__init__" not in names:  # no package module appeared or went (a file's path names are in names then)
        return out
    for fid, path, level in conn.execute(
        "SELECT DISTINCT i.file_id, f.path, i.level FROM imports i JOIN files f ON f.id=i.file_id"
        " WHERE i.level > 0 AND i.module_tail = ''"
    ):
        folders = path.split("/")[:-1]
        package = folders[: len(folders) - (int(level) - 1)] if int(level) - 1 <= len(folders) else []
        if (package[-1] if package else "__init__") in names:
            out.add(int(fid))
    return out


def inherit_pairs(conn: sqlite3.Connection, file_ids: Iterable[int]) -> set[tuple[str, str, str, str]]:
    """Inherit edges from classes of the given files, by (path, qualname) so that ids do not matter."""
    ids = sorted(file_ids)
    out: set[tuple[str, str, str, str]] = set()
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        out.update(
            conn.execute(
                "SELECT sf.path, s.qualname, df.path, d.qualname FROM edges e JOIN symbols s ON s.id=e.src_id "
                "JOIN symbols d ON d.id=e.dst_id JOIN files sf ON sf.id=s.file_id JOIN files df ON df.id=d.file_id "
                f"WHERE e.kind='inherit' AND e.file_id IN ({','.join('?' * len(chunk))})",
                chunk,
            ).fetchall()
        )
    return out


def hierarchy_dependents(
    conn: sqlite3.Connection, before: set[tuple[str, str, str, str]], after: set[tuple[str, str, str, str]]
) -> set[int]:
    """After bases were re-resolved: files whose member look-ups may walk through a class whose bases
    changed (or that lives in a changed file), i.e. the files of its subclasses and every file with an
    edge into those."""
    # both ends: a subclass's look-ups walk new bases, and a base's dispatch reaches new subclasses
    changed = before ^ after
    roots = {(p, q) for p, q, _, _ in changed} | {(p, q) for _, _, p, q in changed}
    if not roots:
        return set()
    return file_ids(conn, sorted(_dependent_paths(conn, file_ids(conn, sorted({p for p, _ in roots})))))


def file_ids(conn: sqlite3.Connection, paths: list[str]) -> set[int]:
    """Ids of the stored files at ``paths`` (those that exist)."""
    out: set[int] = set()
    for i in range(0, len(paths), 500):
        chunk = paths[i : i + 500]
        out.update(r[0] for r in conn.execute(f"SELECT id FROM files WHERE path IN ({','.join('?' * len(chunk))})", chunk))
    return out


def _dependent_paths(conn: sqlite3.Connection, ids: set[int]) -> set[str]:
    """Files below the given files in the class hierarchy (transitively), and every file with an edge
    into those or into the given files; plus the names of the classes involved are covered by callers."""
    q = conn.execute
    class_files = set(ids)
    frontier = set(ids)
    while frontier:
        idl = ",".join(str(i) for i in frontier)
        sub = {r[0] for r in q(f"SELECT DISTINCT file_id FROM edges WHERE kind='inherit' AND dst_file_id IN ({idl})")}
        frontier = sub - class_files
        class_files |= sub
    out = set(class_files)
    if class_files:
        idl = ",".join(str(i) for i in class_files)
        out.update(r[0] for r in q(f"SELECT DISTINCT file_id FROM edges WHERE dst_file_id IN ({idl})"))
        # a method name of more than MAX_CANDIDATES definitions is matched only while they are in few hierarchies
        # (Resolver._few_families): a call of one on an unknown receiver has no edge to follow when it was not
        names = [
            r[0]
            for r in q(
                "SELECT s.name FROM symbols s WHERE s.kind='method' AND s.name IN "
                f"(SELECT name FROM symbols WHERE file_id IN ({idl}) AND kind='method') "
                "GROUP BY s.name HAVING COUNT(*) > ?",
                (MAX_CANDIDATES,),
            )
        ]
        for i in range(0, len(names), 500):
            chunk = names[i : i + 500]
            out.update(
                r[0]
                for r in q(
                    f"SELECT DISTINCT file_id FROM refs WHERE name IN ({','.join('?' * len(chunk))}) AND receiver != ''",
                    chunk,
                )
            )
    if not out:
        return set()
    idl = ",".join(str(i) for i in out)
    return {r[0] for r in q(f"SELECT path FROM files WHERE id IN ({idl})")}
