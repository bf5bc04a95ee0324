"""Who reads what a module body keeps: the importers of a file (importing any name of a module runs its body), and
the scopes that read the module-level tables and instances its statements store a function or an object in, through
imports, aliases and re-exports; and what those statements do at a line (make a test, keep a value). A part of
:class:`~graph.Graph`, which owns it as ``graph.readers``; it reads the file references it asks about once per file.
"""

from __future__ import annotations

import posixpath
import re
import sqlite3
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .graphnodes import CONSTRUCTORS, EdgeIn, Node, chunks, in_list
from .store import escape_like

if TYPE_CHECKING:
    from .graph import Graph

__all__ = ["ModuleReaders"]

#: lines a `setattr(...)` call's arguments may span (a made test function given on a line of its own)
_SETATTR_SPAN = 3
#: calls on a module-level table that hand out none of its values (`FORMATS.keys()`) or store into it
#: (`FILTERS.update({...})`, as python.STORING_METHODS): a module body making them calls nothing it holds
_TABLE_KEEPING = frozenset(
    ("keys", "__len__", "__contains__", "__bool__", "update", "append", "extend", "insert", "add", "setdefault", "__setitem__")
)


class ModuleReaders:
    """The readers of a module's tables and instances and the importers of its file, cached per file (see the module
    docstring)."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.conn: sqlite3.Connection = graph.conn
        self._file_refs: dict[int, list[tuple[int, str, str, str, int]]] = {}
        self._importers: dict[int, list[tuple[int, int]]] = {}  # file → (src, line) of imports from other files
        self._refs_roots: dict[int, dict[str, list[tuple[int, str, str, str, int]]]] = {}
        self._rooted: dict[tuple[int, str], list[tuple[int, str, str, str, int]]] = {}  # :meth:`_refs_rooted`
        self._bindings: dict[int, frozenset[str]] = {}
        self._table_readers: dict[tuple[int, int, int, float], list[EdgeIn] | None] = {}

    def file_importers(self, module: Node) -> list[EdgeIn]:
        """Import edges into any symbol of the module's file, as edges into the module: importing any name
        of a module runs its body. A package's ``__init__.py`` runs before any of its modules, so importing
        anything below the package runs it too."""
        package = _package_dir(module)
        if package is None:
            self.prefetch_file_importers([module])
            rows: Iterable[tuple[int, int]] = self._importers[module.file_id]
        else:
            # the files first (CROSS JOIN keeps that order), then their import edges: left to itself, SQLite
            # reads every edge into those files (edges_dst_file), ten times the work for a top package
            rows = self.conn.execute(
                "SELECT DISTINCT e.src_id, e.line FROM files f CROSS JOIN edges e INDEXED BY edges_import"
                " ON e.dst_file_id=f.id"
                " WHERE (f.path LIKE ? ESCAPE '\\') AND e.kind='import' AND e.file_id != ? ORDER BY e.src_id, e.line",
                (escape_like(package) + "%", module.file_id),
            )
        return [EdgeIn(src, module.id, "import", 1.0, "import-time", line) for src, line in rows]

    def prefetch_file_importers(self, modules: Iterable[Node]) -> None:
        """Load the import edges into the files of many modules (not packages: :meth:`file_importers`) at once."""
        want = sorted({m.file_id for m in modules if m.file_id not in self._importers and _package_dir(m) is None})
        for f in want:
            self._importers[f] = []
        for chunk in chunks(want):
            for f, src, line in self.conn.execute(
                "SELECT DISTINCT dst_file_id, src_id, line FROM edges"
                f" WHERE dst_file_id IN ({in_list(chunk)}) AND kind='import' AND file_id != dst_file_id"
                " ORDER BY dst_file_id, src_id, line",
                chunk,
            ):
                self._importers[f].append((src, line))

    def table_readers(self, module: Node, fn: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        """For a function the module body names (``edge``) without calling it: the scopes that read the
        module-level variables the naming statements store it in (``FORMATS = {"pipe": Format(line=fn)}``;
        ``FORMATS.get(name)`` in a function of the module, or of a module importing ``FORMATS``, also under an
        alias or through a re-export), as edges into ``fn``. None when some statement does something else
        with it (``register(fn)``, ``obj.attr = fn``, a module body reading the table): what runs it is not
        known, and the caller takes the module's importers; likewise when the module names ``fn`` under
        another name (an import alias) or names something else that leads to it (its class, for a special
        method run on the class's instances: who makes them is not who reads the table)."""
        key = (module.id, fn.id, 0, edge.confidence)
        if key not in self._table_readers:
            self._table_readers[key] = self._find_table_readers(module, fn, edge)
        return self._table_readers[key]

    def _find_table_readers(self, module: Node, fn: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        holds = [
            r
            for r in self._refs_of(module.file_id)
            if r[0] == module.id and r[1] == "holds" and r[2].rpartition(".")[2] == fn.name
        ]
        if not holds or any(not r[3] for r in holds):
            return None
        return self._readers_of(module, fn, [r[3] for r in holds], edge.confidence)

    def instance_readers(self, module: Node, method: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        """For a method Python runs on instances later (``__call__``, a framework hook:
        dispatch.ImplicitCallers.constructed_via gives the construction as its caller) and an instance the module body
        makes: the readers of the variable the module stores it in (``validate_email = EmailValidator()``: whoever
        calls or passes on ``validate_email``), as edges into the method; None when the statement stores it in no
        variable."""
        key = (module.id, method.id, edge.line, edge.confidence)  # one instance per construction
        if key not in self._table_readers:
            self._table_readers[key] = self._find_instance_readers(module, method, edge)
        return self._table_readers[key]

    def _find_instance_readers(self, module: Node, method: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        if method.kind != "method" or method.parent_id is None or method.name in CONSTRUCTORS:
            return None
        classes = {method.parent_id, *self.graph.transitive(method.parent_id, "subclasses")}
        made = self.stored_instances(module, edge.line, {n.name for n in self.graph.nodes(classes).values()})
        if not made or any("." in name or "[" in name for name in made):
            return None
        return self._readers_of(module, method, made, edge.confidence)

    def stored_instances(self, module: Node, line: int, class_names: set[str]) -> list[str]:
        """The module-level variables the module body assigns, at ``line``, a call of a class named in
        ``class_names`` (``validate_email = EmailValidator()``; ``x.y`` or ``T[k]`` targets as written)."""
        return [
            r[2]
            for r in self._refs_of(module.file_id)
            if r[0] == module.id and r[1] == "assign" and r[4] == line and r[3].rpartition(".")[2] in class_names
        ]

    def _readers_of(self, module: Node, fn: Node, variables: list[str], confidence: float) -> list[EdgeIn] | None:
        """The scopes reading module-level ``variables`` of ``module`` (see :meth:`table_readers`) as edges into
        ``fn``; None when the module body itself uses one of them, or when a scope no import explains reads
        one by its name as an attribute."""
        todo = deque((module.file_id, module.id, v) for v in variables)
        seen: set[tuple[int, str]] = set()
        readers: dict[int, int] = {}  # scope → line of its first read
        guessed: dict[int, int] = {}  # the same for reads by attribute name only
        asked: set[str] = set()
        modules: set[int] = set()  # the modules whose bodies were looked at
        while todo:
            fid, mid, variable = todo.popleft()
            if (fid, variable) in seen:
                continue
            seen.add((fid, variable))
            reads = [r for r in self._refs_rooted(fid, _root(variable)) if _reads_variable(variable, r)]
            at_import = [r for r in reads if r[0] == mid]
            stored_lines = {r[4] for r in at_import if r[1] in ("holds", "assign", "alias")}
            for scope, kind, name, receiver, line in at_import:
                if kind == "holds":  # `ALL = [FORMATS, ...]`: another variable holds what this one does
                    if not receiver:
                        return None
                    todo.append((fid, mid, receiver))
                elif kind in ("assign", "alias") and receiver:  # `DEFAULTS = FORMATS.copy()`, `DEFAULTS = FORMATS`
                    if "." in name:
                        return None
                    todo.append((fid, mid, name))
                elif kind == "call" and (_table_access(variable, receiver, name) in _TABLE_KEEPING or line in stored_lines):
                    continue  # `sorted(FORMATS.keys())`, `FILTERS.update(...)`, `DEFAULTS = FORMATS.copy()`
                elif kind not in ("ref", "attr", "type"):  # the module body uses the table: it may call fn
                    return None
            for r in reads:
                if r[0] != mid and r[0] != fn.id:
                    readers.setdefault(r[0], r[4])
            if "." in variable:
                continue  # `mod.FORMATS` in an importer: no name other modules import
            for scope, importer, line, imported in self._importers_of(fid, self.graph.node(mid).name, variable):
                importer_module = self.graph.module_symbol(importer)
                if scope != importer_module:  # an import inside a function: that function reads it
                    readers.setdefault(scope, line)
                elif importer_module is not None:
                    todo.append((importer, importer_module, imported))
            modules.add(mid)
            if variable not in asked:
                asked.add(variable)
                guessed.update(self._attribute_readers(variable, fn.id))
        if any(scope not in readers and scope not in modules for scope in guessed):
            # the name is read as an attribute of an object of unknown type where no import explains it: a
            # module object got by its dotted name (`getattr(urlconf_module, "urlpatterns")`, django's URL
            # resolver), or a namesake. Those readers hand the table on (`reverse()` reads urlpatterns too):
            # followed, they took django's set_cookie from 312 tests to 6,614; the module's importers stay
            return None
        return [EdgeIn(scope, fn.id, "ref", confidence, "stored", line) for scope, line in sorted(readers.items())]

    def _attribute_readers(self, variable: str, exclude: int) -> dict[int, int]:
        """Scopes reading ``obj.variable`` (or calling it), with a line, where ``obj`` is not a dotted name an
        import of the file binds (``uuid.UUID`` is another module's; an import of this one is followed as such)."""
        out: dict[int, int] = {}
        for scope, line, receiver, file_id in self.conn.execute(
            "SELECT scope_id, line, receiver, file_id FROM refs"
            " WHERE name=? AND receiver != '' AND kind IN ('ref','attr','call')",
            (variable,),
        ):
            bound = all(p.isidentifier() for p in receiver.split(".")) and (
                receiver.partition(".")[0] in self._import_bindings(file_id)
            )
            # (`self.V` is an instance's or a class's own: h2's H2ConnectionStateMachine reads its class's `_transitions`,
            # no module's table of that name)
            if scope != exclude and not bound and receiver not in ("self", "cls"):  # `importlib.import_module(conf).V`
                out.setdefault(scope, line)
        return out

    def _import_bindings(self, file_id: int) -> frozenset[str]:
        """The names a file's imports bind (in any scope)."""
        if file_id not in self._bindings:
            self._bindings[file_id] = frozenset(
                r[1] or (r[0] if r[0] and r[0] != "*" else r[2].partition(".")[0])
                for r in self.conn.execute("SELECT name, alias, module FROM imports WHERE file_id=?", (file_id,))
            )
        return self._bindings[file_id]

    def refs_by_root(self, file_id: int) -> dict[str, list[tuple[int, str, str, str, int]]]:
        """A file's references (:meth:`_refs_of`) by the name :func:`_reads_variable` looks at first: a
        table's readers are found among the few that start with its name, not all of a big module's."""
        found = self._refs_roots.get(file_id)
        if found is None:
            found = self._refs_roots[file_id] = {}
            for r in self._refs_of(file_id):
                _scope, kind, name, receiver, _line = r
                text = receiver if kind in ("assign", "alias") or (kind != "holds" and receiver) else name
                found.setdefault(_root(text), []).append(r)
        return found

    def _refs_rooted(self, file_id: int, root: str) -> list[tuple[int, str, str, str, int]]:
        """``_refs_by_root(file_id).get(root, [])``, without loading the file's other references: the importers of
        a table are a thousand files for a django module, whose references are read for one name each."""
        by_root = self._refs_roots.get(file_id)
        if by_root is not None:
            return by_root.get(root, [])
        found = self._rooted.get((file_id, root))
        if found is None:
            # the text :meth:`refs_by_root` takes the root of, compared with the root and the character after it
            text = "CASE WHEN kind IN ('assign', 'alias') OR (kind != 'holds' AND receiver != '') THEN receiver ELSE name END"
            found = self._rooted[(file_id, root)] = [
                (r[0], r[1], r[2], r[3], r[4])
                for r in self.conn.execute(
                    f"SELECT scope_id, kind, name, receiver, line FROM refs WHERE file_id=? AND substr({text}, 1, ?) = ?"
                    f" AND (length({text}) = ? OR substr({text}, ?, 1) IN ('.', '[', '(')) ORDER BY id",
                    (file_id, len(root), root, len(root), len(root) + 1),
                )
            ]
        return found

    def _refs_of(self, file_id: int) -> list[tuple[int, str, str, str, int]]:
        """(scope, kind, name, receiver, line) of a file's references."""
        if file_id not in self._file_refs:
            self._file_refs[file_id] = [
                (r[0], r[1], r[2], r[3], r[4])
                for r in self.conn.execute(
                    "SELECT scope_id, kind, name, receiver, line FROM refs WHERE file_id=? ORDER BY id", (file_id,)
                )
            ]
        return self._file_refs[file_id]

    def makes_tests_at(self, module: Node, line: int) -> bool:
        """Whether the module body makes what it computes at ``line`` a test: an attribute a ``setattr`` call sets
        (starting up to a few lines above: its arguments may span lines) or a variable named like a test."""
        return any(
            r[0] == module.id
            and (
                (r[1] == "call" and r[2] == "setattr" and line - _SETATTR_SPAN <= r[4] <= line)
                or (r[1] in ("assign", "alias") and r[4] == line and r[2].startswith("test"))
            )
            for r in self._refs_of(module.file_id)
        )

    def kept_readers(self, module: Node, fn: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        """For a call ``edge`` of the module body whose result only holds ``fn`` (walk_tests' "held"): the scopes that
        read the module-level variables the body keeps it in (``_default_decoder = HjsonDecoder(...)``, read by
        ``loads``), as edges into ``fn``; None when it keeps it in none, or when they are not all known
        (:meth:`_readers_of`): the module's importers then stand for its users."""
        variables = [
            r[2]
            for r in self._refs_of(module.file_id)
            if r[0] == module.id and r[4] == edge.line and r[1] in ("assign", "alias") and r[2].isidentifier()
        ]
        return self._readers_of(module, fn, variables, edge.confidence) if variables else None

    def _importers_of(self, file_id: int, module_name: str, variable: str) -> list[tuple[int, int, int, str]]:
        """Imports of a module-level ``variable`` of a file: (scope, file, line, the name or dotted expression the
        importer reads it by: ``V``, ``ALIAS``, ``mod.V``). An import is the module's when an import edge of its
        line goes into the file, or when it names the module's last component: the resolver sends a re-exported
        name (``from .defaults import DEFAULT_FILTERS``) to where it is defined, not through the module."""
        stem = module_name.rpartition(".")[2]  # a module symbol's name is its dotted module name
        path = self.conn.execute("SELECT path FROM files WHERE id=?", (file_id,)).fetchone()
        package = path is not None and posixpath.basename(path[0]) == "__init__.py"
        lines = {
            (r[0], r[1])  # plain tuples: the store's connection makes sqlite3.Row objects
            for r in self.conn.execute(
                "SELECT DISTINCT file_id, line FROM edges WHERE dst_file_id=? AND kind='import' AND file_id != ?",
                (file_id, file_id),
            )
        }
        rows = self.conn.execute(
            "SELECT scope_id, file_id, line, module, module_tail, name, alias FROM imports"
            " WHERE (name IN (?, ?, '*') OR (name IS NULL AND (module_tail=? OR module=? OR module LIKE ? ESCAPE '\\')))"
            " AND file_id != ?",
            (variable, stem, stem, stem, escape_like(stem) + ".%", file_id),
        ).fetchall()
        out: list[tuple[int, int, int, str]] = []
        for scope, importer, line, module, tail, name, alias in rows:
            top = package and name is None and module.partition(".")[0] == stem
            if (importer, line) not in lines and tail != stem and not top and not (name == stem and not module.strip(".")):
                continue
            if name == variable and (tail == stem or (importer, line) in lines):  # `from mod import V [as A]`
                out.append((scope, importer, line, alias or variable))
            elif name == "*" and tail == stem:
                out.append((scope, importer, line, variable))
            elif name is None and tail == stem:  # `import pkg.mod [as m]`
                out.append((scope, importer, line, f"{alias or module}.{variable}"))
            elif name is None and not alias and package and module.partition(".")[0] == stem:
                out.append((scope, importer, line, f"{stem}.{variable}"))  # `import pkg.sub` binds pkg too
            elif name == stem and name != variable:  # `from pkg import mod [as m]`
                out.append((scope, importer, line, f"{alias or name}.{variable}"))
        return out


def _reads_variable(variable: str, ref: tuple[int, str, str, str, int]) -> bool:
    """Whether a reference (scope, kind, name, receiver, line) reads ``variable`` (``V`` or ``mod.V``): ``V``,
    ``V.get(k)``, ``V[k]``, ``x = V``, ``mod.V``; a ``holds`` reference stores it (``ALL = [V]``)."""
    _scope, kind, name, receiver, _line = ref
    if kind == "assign" or kind == "alias":
        return _starts_with(receiver, variable)
    if kind == "holds":  # the receiver is where the value goes
        return _starts_with(name, variable)
    if not receiver:
        return _starts_with(name, variable)
    return _starts_with(receiver, variable) or f"{receiver}.{name}" == variable


def _root(text: str) -> str:
    """The name an access starts with: ``V`` for ``V``, ``V.get(k)``, ``V[k]``; ``mod`` for ``mod.V``. Whatever
    :func:`_reads_variable` finds for a variable starts with the variable's own root."""
    return _ROOT_END.split(text, maxsplit=1)[0]


_ROOT_END = re.compile(r"[.\[(]")


def _table_access(variable: str, receiver: str, name: str) -> str:
    """The member of ``variable`` a call reference uses first: ``keys`` for ``V.keys()`` (receiver ``V``, name
    ``keys``) and for ``sorted(V.keys())`` (receiver ``V.keys()``, name ``__iter__``)."""
    if receiver == variable:
        return name
    rest = receiver[len(variable) :]
    return re.split(r"[.\[(]", rest[1:], maxsplit=1)[0] if rest.startswith(".") else ""


def _starts_with(text: str, variable: str) -> bool:
    """``text`` is ``variable`` or an access through it (``V.x``, ``V[k]``, ``V(...)``)."""
    return text.startswith(variable) and (len(text) == len(variable) or text[len(variable)] in ".[(")


def _package_dir(module: Node) -> str | None:
    """``a/b/`` for the module ``a/b/__init__.py`` (Python); None for any other module."""
    if module.language != "python" or posixpath.basename(module.path) != "__init__.py":
        return None
    parent = posixpath.dirname(module.path)
    return parent + "/" if parent else None
