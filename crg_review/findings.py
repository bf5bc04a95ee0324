"""Findings: the deterministic rules of :data:`RULES` (removed symbols still used, incompatible calls, untested code)."""

from __future__ import annotations

import posixpath
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .graph import Graph
from .graphnodes import FUNCTION_KINDS, Node
from .model import CLASS_KINDS
from .review import Finding
from .touched import Removed

__all__ = [
    "RULES",
    "SEVERITY_RANK",
    "Reference",
    "fail_reached",
    "incompatible_calls",
    "is_public",
    "is_registered",
    "make_finding",
    "removed_module_imports",
    "removed_references",
]


#: rule id → (name, severity, description)
RULES: dict[str, tuple[str, str, str]] = {
    "CRG001": (
        "removed-symbol-still-referenced",
        "error",
        "A symbol or module removed or renamed by the change is still imported or called.",
    ),
    "CRG002": (
        "incompatible-call",
        "error",
        "A call passes a number or names of arguments the changed signature does not accept.",
    ),
    "CRG003": (
        "changed-function-untested",
        "warning",
        "A changed function is reached by no test (through the graph, fixtures or naming conventions).",
    ),
    "CRG004": (
        "new-public-function-unused",
        "warning",
        "A new public function has no caller and no test.",
    ),
}

SEVERITY_RANK = {"note": 0, "warning": 1, "error": 2}
_PLAIN_DECORATORS = frozenset(("staticmethod", "classmethod", "property", "abstractmethod", "abc.abstractmethod"))


def make_finding(rule: str, file: str, line: int, message: str) -> Finding:
    return Finding(rule=rule, severity=RULES[rule][1], file=file, line=line, message=message)


def _stem(path: str) -> str:
    """``pkg/core.py`` → ``pkg/core``; ``pkg/__init__.py`` → ``pkg``."""
    stem = path.rsplit(".", 1)[0]
    return stem[: -len("/__init__")] if stem.endswith("/__init__") else ("" if stem == "__init__" else stem)


def _import_stem(importer: str, module: str, level: int) -> str:
    """The path stem a Python import names, relative imports resolved against the importer."""
    rel = module.replace(".", "/")
    if not level:
        return rel
    base = posixpath.dirname(importer)
    for _ in range(level - 1):
        base = posixpath.dirname(base)
    return posixpath.join(base, rel) if rel else base


def _stem_matches(file_stem: str, import_stem: str) -> bool:
    return bool(import_stem) and (file_stem == import_stem or file_stem.endswith("/" + import_stem))


@dataclass
class Reference:
    file: str
    line: int
    scope_id: int
    kind: str  # import | call | ref


def removed_references(graph: Graph, removed: Removed, head_paths: set[str]) -> list[Reference]:
    """Places in the head index that still import or use a removed symbol (Python imports, bare names
    in its own file, ``module.name`` through an import of its module, ``self.name``/``Class.name`` for
    methods) and resolve to nothing else of that name."""
    conn = graph.conn
    s = removed.symbol
    name = s.name
    file_stem = _stem(removed.path)
    out: list[Reference] = []
    is_method = removed.parent is not None and removed.parent.kind in CLASS_KINDS
    top_level = removed.parent is None
    if not (top_level or is_method):
        return []
    importing: set[int] = set()  # files that import the name from the removed symbol's module
    if top_level and removed.language == "python":
        for fid, path, scope, module, level, line in conn.execute(
            "SELECT i.file_id, f.path, i.scope_id, i.module, i.level, i.line FROM imports i JOIN files f ON f.id=i.file_id"
            " WHERE i.name=?",
            (name,),
        ):
            if _stem_matches(file_stem, _import_stem(path, module, level)) and not _import_resolves(
                conn, fid, line, name
            ):
                out.append(Reference(path, line, scope, "import"))
                importing.add(fid)
    module_names = _module_bindings(conn, removed) if top_level and removed.language == "python" else {}
    rows = conn.execute(
        "SELECT r.id, r.file_id, f.path, r.scope_id, r.receiver, r.line, r.kind FROM refs r JOIN files f ON f.id=r.file_id"
        " WHERE r.name=? AND r.kind IN ('call','ref','attr','decorator','type')",
        (name,),
    ).fetchall()
    parent_name = removed.parent.name if removed.parent is not None else ""
    # classes (by the scope's enclosing definition) whose methods now store an instance attribute of the name: there
    # `self.facts.variables(...)` reads the attribute, not the removed method `facts`
    stored = _attribute_stores(graph, name) if is_method else set()
    for rid, fid, path, scope, receiver, line, kind in rows:
        if top_level:
            same_file = receiver == "" and (path == removed.path or fid in importing)
            via_module = receiver != "" and receiver in module_names.get(fid, ())
            if not (same_file or via_module):
                continue
        else:
            own_file = path == removed.path
            if receiver in ("self", "cls") or receiver.startswith("super"):
                if not own_file and not _in_subclass_file(conn, fid, parent_name):
                    continue
                if receiver == "self" and stored and _enclosing_class(graph, scope) in stored:
                    continue
            elif receiver != parent_name:
                continue
        if _ref_resolves(conn, rid, scope, name):
            continue
        out.append(Reference(path, line, scope, "call" if kind in ("call", "decorator") else "ref"))
    seen: set[tuple[str, int]] = set()
    unique = []
    for r in sorted(out, key=lambda r: (r.file, r.line)):
        if (r.file, r.line) not in seen:
            seen.add((r.file, r.line))
            unique.append(r)
    return unique


def _attribute_stores(graph: Graph, name: str) -> set[int]:
    """The classes whose methods assign ``self.<name>`` (the enclosing class of each storing scope)."""
    rows = graph.conn.execute("SELECT DISTINCT scope_id FROM refs WHERE kind='store' AND receiver='self' AND name=?", (name,))
    return {c for c in (_enclosing_class(graph, r[0]) for r in rows) if c is not None}


def _enclosing_class(graph: Graph, scope: int) -> int | None:
    """The class a method (or a function nested in one) belongs to; None outside classes."""
    node = graph.nodes([scope]).get(scope)
    while node is not None and node.kind not in CLASS_KINDS:
        parent = node.parent_id
        node = graph.nodes([parent]).get(parent) if parent is not None else None
    return node.id if node is not None else None


def _import_resolves(conn: sqlite3.Connection, fid: int, line: int, name: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM edges e JOIN symbols d ON d.id=e.dst_id WHERE e.file_id=? AND e.kind='import' AND e.line=?"
            " AND d.name=? LIMIT 1",
            (fid, line, name),
        ).fetchone()
        is not None
    )


def _ref_resolves(conn: sqlite3.Connection, rid: int, scope: int, name: str) -> bool:
    """Whether a reference still means some definition of ``name`` (other than by a bare name match)."""
    if conn.execute("SELECT 1 FROM unresolved WHERE ref_id=? LIMIT 1", (rid,)).fetchone() is not None:
        return False
    return (
        conn.execute(
            "SELECT 1 FROM edges e JOIN symbols d ON d.id=e.dst_id WHERE e.src_id=? AND d.name=?"
            " AND e.resolution NOT IN ('name-match', 'receiver-name') LIMIT 1",
            (scope, name),
        ).fetchone()
        is not None
    )


def _in_subclass_file(conn: sqlite3.Connection, fid: int, class_name: str) -> bool:
    return (
        conn.execute("SELECT 1 FROM bases WHERE file_id=? AND name=? LIMIT 1", (fid, class_name)).fetchone() is not None
    )


def _module_bindings(conn: sqlite3.Connection, removed: Removed) -> dict[int, set[str]]:
    """file id → receiver texts that name the removed symbol's module there (``core``, ``pkg.core``, alias)."""
    file_stem = _stem(removed.path)
    tail = posixpath.basename(file_stem)
    out: dict[int, set[str]] = {}
    for fid, path, module, name, alias, level in conn.execute(
        "SELECT i.file_id, f.path, i.module, i.name, i.alias, i.level FROM imports i JOIN files f ON f.id=i.file_id"
        " WHERE (i.name IS NULL AND (i.module_tail=? OR i.module=?)) OR i.name=?",
        (tail, tail, tail),
    ):
        if name is None and _stem_matches(file_stem, _import_stem(path, module, level)):
            out.setdefault(fid, set()).add(alias or module)
        elif name == tail and _stem_matches(
            file_stem, _import_stem(path, f"{module}.{name}" if module else name, level)
        ):
            out.setdefault(fid, set()).add(alias or name)
    return out


def removed_module_imports(graph: Graph, old_path: str, new_path: str | None, head_paths: set[str]) -> list[Finding]:
    """Imports of a deleted or renamed Python module that nothing in the head provides any more."""
    stem = _stem(old_path)
    if any(_stem(p) == stem for p in head_paths if p.endswith((".py", ".pyi"))):
        return []
    old_module = stem.replace("/", ".")
    where = f"renamed to {new_path}" if new_path else "deleted"
    tail = posixpath.basename(stem)
    out = []
    for path, module, name, level, line in graph.conn.execute(
        "SELECT f.path, i.module, i.name, i.level, i.line FROM imports i JOIN files f ON f.id=i.file_id"
        " WHERE i.module_tail=? OR i.name=?",
        (tail, tail),
    ):
        direct = _stem_matches(stem, _import_stem(path, module, level))
        submodule = name == tail and _stem_matches(
            stem, _import_stem(path, f"{module}.{name}" if module else name, level)
        )
        if direct or submodule:
            out.append(make_finding("CRG001", path, line, f"imports module {old_module}, which this change {where}"))
    return out


def _arity_problem(params: tuple[str, ...], arity: int | None, keywords: Sequence[str], bound: int) -> str | None:
    """Why a call with ``arity`` positional arguments and ``keywords`` cannot bind to ``params``
    (after dropping ``bound`` leading parameters: self/cls), or None."""
    ps = list(params[bound:])
    positional: list[str] = []  # names that accept positional arguments
    posonly: set[str] = set()
    kwonly: list[str] = []
    star = kwstar = False
    seen_star = False
    for p in ps:
        if p == "/":
            posonly.update(x.rstrip("=") for x in positional)
            continue
        if p == "*":
            seen_star = True
            continue
        if p.startswith("**"):
            kwstar = True
            continue
        if p.startswith("*"):
            star = seen_star = True
            continue
        (kwonly if seen_star else positional).append(p)
    kws = [k for k in keywords if k != "**"]
    splat_kw = "**" in keywords
    names_pos = [p.rstrip("=") for p in positional]
    if arity is not None and arity > len(positional) and not star:
        return f"passes {arity} positional argument(s), the new signature takes {len(positional)}"
    keyword_ok = {n for n in names_pos if n not in posonly} | {p.rstrip("=") for p in kwonly}
    for k in kws:
        if k not in keyword_ok and not kwstar:
            return f"passes keyword '{k}', which the new signature does not accept"
        if arity is not None and k in names_pos[:arity]:
            return f"passes '{k}' both by position and by keyword"
    if arity is None or splat_kw:
        return None
    for i, p in enumerate(positional):
        n = p.rstrip("=")
        if not p.endswith("=") and i >= arity and n not in kws:
            return f"does not pass required argument '{n}'"
    for p in kwonly:
        if not p.endswith("=") and p not in kws:
            return f"does not pass required keyword argument '{p}'"
    return None


def _bound_params(graph: Graph, target: Node, via_constructor: bool) -> int:
    if target.kind != "method":
        return 0
    plain = {d.split("(", 1)[0] for d in target.decorators}
    if "staticmethod" in plain:
        return 0
    return 1 if target.params and not target.params[0].startswith("*") else 0


def incompatible_calls(graph: Graph, target: Node, changed_ids: set[int]) -> list[Finding]:
    """Call sites of a function whose signature changed that no longer bind to its parameters (Python)."""
    if target.language != "python" or target.kind not in FUNCTION_KINDS:
        return []
    callers_in = [
        e
        for e in graph.incoming([target.id])[target.id]
        if e.kind == "call" and e.resolution not in ("name-match", "receiver-name", "dispatch", "receiver-guess")
    ]
    out: list[Finding] = []
    for e in callers_in:
        via_ctor = e.resolution == "constructor"
        rows = graph.conn.execute(
            "SELECT r.line, r.arity, r.keywords, r.receiver, r.name, f.path FROM refs r JOIN files f ON f.id=r.file_id"
            " WHERE r.scope_id=? AND r.kind='call' AND r.name=? ORDER BY r.line",
            (e.src, _called_name(graph, target, via_ctor)),
        ).fetchall()
        for line, arity, keywords, receiver, _name, path in rows:
            bound = _bound_params(graph, target, via_ctor)
            if target.kind == "method" and not via_ctor:
                # Class.method(obj, ...) passes self explicitly
                parent = graph.nodes([target.parent_id]).get(target.parent_id) if target.parent_id else None
                if (
                    parent is not None
                    and receiver == parent.name
                    and "classmethod" not in {d.split("(", 1)[0] for d in target.decorators}
                ):
                    bound = 0
            problem = _arity_problem(target.params, arity, [k for k in keywords.split(",") if k], bound)
            if problem:
                out.append(
                    make_finding(
                        "CRG002",
                        path,
                        line,
                        f"call of {target.qualname} {problem} ({target.signature})",
                    )
                )
    return out


def _called_name(graph: Graph, target: Node, via_ctor: bool) -> str:
    if via_ctor and target.parent_id is not None:
        return graph.node(target.parent_id).name
    return target.name


def is_public(node: Node) -> bool:
    parts = node.qualname.split(".")
    return not any(p.startswith("_") for p in parts)


def is_registered(node: Node) -> bool:
    """Decorated by something other than staticmethod/classmethod/property: a framework calls it."""
    return any(d.split("(", 1)[0] not in _PLAIN_DECORATORS for d in node.decorators)


def fail_reached(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether findings reach the ``--fail-on`` level (error | warning | never)."""
    if fail_on == "never":
        return False
    level = SEVERITY_RANK[fail_on]
    return any(SEVERITY_RANK.get(f.severity, 0) >= level for f in findings)
