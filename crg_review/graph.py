"""The code graph as the impact walks read it: :class:`Graph` (its records, :class:`~graphnodes.Node` and
:class:`~graphnodes.EdgeIn`, are :mod:`graphnodes`').

:class:`Graph` is a read-only, cached view of the index (symbols, edges, references, tests) for the walks
of :mod:`walk` and :mod:`suite`: a walk asks about a whole level of nodes at once, so each kind of fact
costs one query per level. It answers the questions the walks ask about Python's dynamic calls too
(who reads a table, which classes a scope makes, which fixtures a test takes). No walk logic lives here.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import sqlite3
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol

from .dispatch import INERT_BASES, ImplicitCallers
from .graphnodes import (
    FUNCTION_KINDS,
    IDENTIFIER,
    NODE_SQL,
    EdgeIn,
    Node,
    as_node,
    chunks,
    first_name,
    in_list,
    is_conftest,
)
from .languages.python import TEST_BASES
from .model import CLASS_KINDS
from .readers import ModuleReaders
from .receivers import ReceiverGuesses

if TYPE_CHECKING:
    from .pytest_settings import DoctestSettings

__all__ = [
    "COLLECT_HOOK",
    "PYTEST_CLASS_PREFIX",
    "PYTEST_FUNCTION_PREFIX",
    "Graph",
    "SnapshotFiles",
]


#: folders that hold a project's packages rather than name one (``src/jaraco/text``: the namespace is ``jaraco``)
_SOURCE_ROOTS = frozenset(("src", "lib", "python"))


class SnapshotFiles(Protocol):
    """The files of the indexed snapshot, parsed or not (a :class:`~crg_review.workspace.Workspace`)."""

    def find_tracked(self, match: Callable[[str], bool], under: Sequence[str] = ("",)) -> list[str]: ...

    def read_tracked(self, path: str) -> bytes | None: ...



#: pytest's default ``python_classes``: a class bound to such a name in a test module is collected there
PYTEST_CLASS_PREFIX = "Test"
#: pytest's default ``python_functions``: a test function bound to such a name in a test module is collected there
PYTEST_FUNCTION_PREFIX = "test"
#: the pytest hook that collects tests from files that are not Python, and its collector classes' bases
COLLECT_HOOK = "pytest_collect_file"
_COLLECTOR_BASES = ("Item", "File", "Collector", "Module")
#: the file name patterns a Sybil collector is given (``pattern="*.rst"``, ``patterns=["*.md", "*.py"]``)
_SYBIL_PATTERN = re.compile(r"\bpatterns?\s*=\s*(\[[^\]]*\]|\"[^\"]*\"|'[^']*')")
_QUOTED = re.compile(r"[\"']([^\"']+)[\"']")
#: the functions of the standard library's doctest module that run the examples of a module given to them
_DOCTEST_RUNNERS = ("DocTestSuite", "run_docstring_examples", "testmod")


_EDGE_COLUMNS = "src_id, dst_id, kind, confidence, resolution, line, candidates"
# rows become records without a Python call per row (NamedTuple._make is one): a review makes tens of thousands
_edge: Callable[[Sequence[Any]], EdgeIn] = partial(tuple.__new__, EdgeIn)
_DST = itemgetter(1)  # EdgeIn.dst


class Graph:
    """Read-only, cached queries over the index's symbols and edges.

    A walk asks about a whole level at once (:meth:`prefetch`), so that each kind of fact costs one query per
    level rather than one per node; the per-node methods answer from the caches and load what is missing.
    """

    def __init__(self, conn: sqlite3.Connection, files: SnapshotFiles | None = None) -> None:
        self.conn = conn
        #: the files of the indexed snapshot that are not parsed (data files a conftest collects, doctest text
        #: files, pytest's settings); None: not known (every question about them answers "none")
        self.files = files
        self._doctest: DoctestSettings | None = None
        self._packages: frozenset[str] | None = None  # folders holding an __init__.py
        self._collected: dict[int, tuple[tuple[str, str], ...]] = {}  # conftest → its hook's (literal, how) name tests
        self._collector_classes: dict[int, frozenset[int]] = {}  # conftest file → its Item and File classes
        self._nodes: dict[int, Node] = {}
        self._absent: set[int] = set()
        self._incoming: dict[int, list[EdgeIn]] = {}
        self._bases: dict[int, list[int]] = {}
        self._subclasses: dict[int, list[int]] = {}
        self._children: dict[int, list[Node]] = {}
        self._methods: dict[int, dict[str, list[Node]]] = {}  # class → method name → methods
        self._names_above: dict[int, frozenset[str]] = {}  # class → method names of its bases
        self._aliases: dict[int, dict[str, list[int]]] = {}
        self._closure: dict[tuple[int, str], list[int]] = {}
        self._outside_bases: dict[int, bool] = {}  # class → whether it names a base the index does not have
        self._written: dict[int, tuple[str, ...]] = {}  # class → :meth:`written_bases`
        self._examples: list[tuple[Node, set[str]]] | None = None  # :meth:`docstring_examples`
        self._metaclasses: dict[int, bool] = {}  # class → whether it derives from `type`
        self._modules: dict[int, int | None] = {}
        self._test_imports: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
        self._file_tests: dict[str, list[Node]] = {}  # path → its runnable tests
        #: the parts, each with the caches of its own questions (the nodes, edges and hierarchy are this graph's)
        self.readers = ModuleReaders(self)
        self.receivers = ReceiverGuesses(self, self.readers)
        self.dispatch = ImplicitCallers(self)

    # nodes and edges

    def nodes(self, ids: Iterable[int]) -> dict[int, Node]:
        """Nodes by id (missing ids are left out)."""
        ids = list(ids)
        cache = self._nodes
        want = {i for i in ids if i not in cache} - self._absent
        if want:
            self._load_nodes(want)
        return {i: cache[i] for i in ids if i in cache}

    def _load_nodes(self, want: set[int]) -> None:
        cache = self._nodes
        for chunk in chunks(sorted(want)):
            for n in map(as_node, self.conn.execute(f"{NODE_SQL} WHERE s.id IN ({in_list(chunk)})", chunk)):
                cache[n.id] = n
        self._absent.update(i for i in want if i not in cache)

    def node(self, sid: int) -> Node:
        return self.nodes([sid])[sid]

    def file_nodes(self, path: str) -> list[Node]:
        """Every symbol of a file, in source order."""
        rows = self.conn.execute(f"{NODE_SQL} WHERE f.path = ? ORDER BY s.start_line, s.id", (path,)).fetchall()
        out = [as_node(r) for r in rows]
        for n in out:
            self._nodes.setdefault(n.id, n)
        return out

    def incoming(self, ids: Iterable[int]) -> dict[int, list[EdgeIn]]:
        """Edges into each of ``ids`` (``src → id``), self-loops left out."""
        ids = list(ids)
        cache = self._incoming
        want = sorted({i for i in ids if i not in cache})
        if want:
            for i in want:
                cache[i] = []
            for chunk in chunks(want):
                # the index on dst_id yields (dst_id, id) in order: no sort, and one list per destination
                rows = self.conn.execute(
                    f"SELECT {_EDGE_COLUMNS} FROM edges WHERE dst_id IN ({in_list(chunk)}) AND src_id != dst_id"
                    " ORDER BY dst_id, id",
                    chunk,
                )
                for dst, edges in groupby(map(_edge, rows), _DST):
                    cache[dst] = list(edges)
        return {i: cache[i] for i in ids}

    def loaded_incoming(self, sid: int) -> list[EdgeIn] | None:
        """The edges into ``sid`` if :meth:`incoming` loaded them already, else None (nothing is read)."""
        return self._incoming.get(sid)

    # definitions of the same name

    def aliases(self, node: Node) -> list[int]:
        """Other definitions of the same qualname in the same file (``f``, ``f#2``: ``typing.overload``
        stubs, conditional definitions): the resolver binds calls to the first one only."""
        if node.kind not in FUNCTION_KINDS:
            return []
        groups = self._aliases.get(node.file_id)
        if groups is None:
            self._load_aliases([node.file_id])
            groups = self._aliases[node.file_id]
        if not groups:
            return []
        group = groups.get(node.qualname.split("#", 1)[0], [])
        return [i for i in group if i != node.id]

    def _load_aliases(self, file_ids: Iterable[int]) -> None:
        want = sorted({f for f in file_ids if f not in self._aliases})
        for f in want:
            self._aliases[f] = {}
        bases: set[str] = set()
        for chunk in chunks(want):
            for sid, fid, qualname in self.conn.execute(
                f"SELECT id, file_id, qualname FROM symbols WHERE file_id IN ({in_list(chunk)}) AND instr(qualname, '#') > 0"
                " ORDER BY file_id, qualname, id",
                chunk,
            ):
                base = qualname.split("#", 1)[0]
                self._aliases[fid].setdefault(base, []).append(sid)
                bases.add(base)
        with_groups = [f for f in want if self._aliases[f]]
        if not with_groups:
            return
        names = sorted(bases)
        for chunk in chunks(with_groups):
            for sid, fid, qualname in self.conn.execute(
                f"SELECT id, file_id, qualname FROM symbols WHERE file_id IN ({in_list(chunk)})"
                f" AND qualname IN ({in_list(names)})",
                [*chunk, *names],
            ):
                group = self._aliases[fid].get(qualname)
                if group is not None:
                    group.insert(0, sid)

    def callers_of(self, node: Node, incoming: dict[int, list[EdgeIn]]) -> list[EdgeIn]:
        """Edges into ``node`` and into its aliases (as edges into ``node``)."""
        edges = list(incoming.get(node.id, ()))
        others = self.aliases(node)
        if others:
            # a property's setter stands for its getter's readers (who sets it mostly reads it too), but not for a
            # scope that reads every property by a name made elsewhere (`getattr(self, option)`: a guess)
            setter = any(d.endswith((".setter", ".deleter")) for d in node.decorators)
            for e in (e for edges_in in self.incoming(others).values() for e in edges_in):
                if e.src != node.id and not (setter and e.resolution == "getattr"):
                    edges.append(e._replace(dst=node.id))
        return edges

    # classes

    def bases(self, class_id: int) -> list[int]:
        """In-repo base classes (direct)."""
        if class_id not in self._bases:
            self.load_inherit([class_id], "bases")
        return self._bases[class_id]

    def subclasses(self, class_id: int) -> list[int]:
        """In-repo direct subclasses."""
        if class_id not in self._subclasses:
            self.load_inherit([class_id], "subclasses")
        return self._subclasses[class_id]

    def load_inherit(self, ids: Iterable[int], which: str) -> None:
        cache = self._bases if which == "bases" else self._subclasses
        want = sorted({i for i in ids if i not in cache})
        if not want:
            return
        for i in want:
            cache[i] = []
        sql = (
            "SELECT src_id, dst_id FROM edges WHERE src_id IN ({}) AND kind='inherit' ORDER BY line, id"
            if which == "bases"
            else "SELECT dst_id, src_id FROM edges WHERE dst_id IN ({}) AND kind='inherit' ORDER BY src_id"
        )
        for chunk in chunks(want):
            for key, value in self.conn.execute(sql.format(in_list(chunk)), chunk):
                cache[key].append(value)

    def classes_called_at(self, scope: int, line: int) -> set[int]:
        """The classes ``scope`` calls (constructs) at ``line``."""
        kinds = sorted(CLASS_KINDS)
        return {
            r[0]
            for r in self.conn.execute(
                "SELECT e.dst_id FROM edges e JOIN symbols s ON s.id = e.dst_id WHERE e.src_id = ? AND e.line = ?"
                f" AND e.kind = 'call' AND s.kind IN ({in_list(kinds)})",
                (scope, line, *kinds),
            )
        }

    def descendants(self, class_id: int) -> list[int]:
        """In-repo subclasses at any depth, nearest first."""
        return self.transitive(class_id, "subclasses")

    def family(self, classes: Iterable[int]) -> set[int]:
        """The classes an instance of one of ``classes`` may also be an instance of, or be seen as: each class, its
        in-repo bases and its subclasses."""
        out: set[int] = set()
        for c in classes:
            out.add(c)
            out.update(self.transitive(c, "bases"))
            out.update(self.transitive(c, "subclasses"))
        return out

    def transitive(self, start: int, which: str) -> list[int]:
        """Transitive bases or subclasses, nearest first."""
        key = (start, which)
        found = self._closure.get(key)
        if found is None:
            cache = self._bases if which == "bases" else self._subclasses
            # a walk level has usually loaded the hierarchy already (prefetch): load only what is missing
            if start not in cache:
                self.prefetch_closure([start], which)
            seen: dict[int, None] = {}  # ordered: nearest first
            queue = deque(cache[start])
            while queue:
                c = queue.popleft()
                if c in seen or c == start:
                    continue
                seen[c] = None
                step = cache.get(c)
                if step is None:
                    self.prefetch_closure([c], which)
                    step = cache[c]
                queue.extend(step)
            found = self._closure[key] = list(seen)
        return found

    def subclasses_first(self, start: int, limit: int) -> list[int]:
        """``transitive(start, "subclasses")[:limit]`` without walking the whole tree below a class that
        hundreds of classes extend: the same breadth-first order, expanding a class only when the classes
        already known do not make ``limit`` (a level of expansions is one query)."""
        if (start, "subclasses") in self._closure:
            return self._closure[(start, "subclasses")][:limit]
        seen: dict[int, None] = {}
        queue = deque(self.subclasses(start))
        pending: list[int] = []  # found, not expanded yet: their subclasses come after everything queued
        while len(seen) < limit:
            if not queue:
                if not pending:
                    break
                self.load_inherit(pending, "subclasses")
                for c in pending:
                    queue.extend(self._subclasses[c])
                pending = []
                continue
            c = queue.popleft()
            if c in seen or c == start:
                continue
            seen[c] = None
            pending.append(c)
        return list(seen)

    def prefetch_closure(self, starts: Iterable[int], which: str) -> None:
        """Load the transitive bases or subclasses of ``starts``: one query per level of the hierarchy."""
        cache = self._bases if which == "bases" else self._subclasses
        seen: set[int] = set()
        frontier = {s for s in starts if (s, which) not in self._closure}  # a known closure is loaded already
        while frontier:
            self.load_inherit(frontier, which)
            seen |= frontier
            frontier = {c for f in frontier for c in cache[f]} - seen

    def children(self, sid: int) -> list[Node]:
        """Definitions directly inside a symbol."""
        if sid not in self._children:
            self.load_children([sid])
        return self._children[sid]

    def children_loaded(self, sid: int) -> bool:
        """Whether :meth:`children` answers ``sid`` without a query."""
        return sid in self._children

    def load_children(self, ids: Iterable[int]) -> None:
        want = sorted({i for i in ids if i not in self._children})
        for i in want:
            self._children[i] = []
        for chunk in chunks(want):
            for n in map(
                as_node,
                self.conn.execute(
                    f"{NODE_SQL} WHERE s.parent_id IN ({in_list(chunk)}) ORDER BY s.start_line, s.id", chunk
                ),
            ):
                self._children[n.parent_id].append(n)  # type: ignore[index]
                self._nodes.setdefault(n.id, n)

    def _methods_of(self, class_ids: Sequence[int]) -> list[dict[str, list[Node]]]:
        """For each class, its methods by name (source order)."""
        missing = [c for c in class_ids if c not in self._methods]
        if missing:
            self.load_children(missing)
            for c in missing:
                by_name: dict[str, list[Node]] = {}
                for m in self._children[c]:
                    if m.kind == "method":
                        by_name.setdefault(m.name, []).append(m)
                self._methods[c] = by_name
        return [self._methods[c] for c in class_ids]

    def base_methods(self, method: Node) -> list[Node]:
        """Same-name methods of the (transitive) base classes: calls to them may dispatch to ``method``."""
        if method.kind != "method" or method.parent_id is None or method.name.startswith("__"):
            return []
        names = self._names_above.get(method.parent_id)
        if names is None:  # the method names of every base class, to answer most methods without a loop
            above = self._methods_of(self.transitive(method.parent_id, "bases"))
            names = self._names_above[method.parent_id] = frozenset(n for by_name in above for n in by_name)
        if method.name not in names:
            return []
        out: list[Node] = []
        for by_name in self._methods_of(self.transitive(method.parent_id, "bases")):
            out.extend(by_name.get(method.name, ()))
        return out

    def overriding_methods(self, method: Node) -> list[Node]:
        """Same-name methods of the (transitive) subclasses."""
        if method.kind != "method" or method.parent_id is None or method.name.startswith("__"):
            return []
        classes = self.transitive(method.parent_id, "subclasses")
        if not classes:
            return []
        out: list[Node] = []
        for by_name in self._methods_of(classes):
            out.extend(by_name.get(method.name, ()))
        return out

    # what scopes use: the receiver guess

    def makers(self, node: Node) -> list[Node]:
        """The functions a function is nested in, innermost first."""
        out: list[Node] = []
        while node.kind in FUNCTION_KINDS and node.parent_id is not None:
            parent = self.nodes([node.parent_id]).get(node.parent_id)
            if parent is None or parent.kind not in FUNCTION_KINDS:
                break
            out.append(parent)
            node = parent
        return out

    def runs_on_import(self, node: Node) -> bool:
        """Whether the body of a class runs when its module is imported: no function encloses it (a class a
        test function defines runs with that test only)."""
        while node.parent_id is not None:
            parent = self.nodes([node.parent_id]).get(node.parent_id)
            if parent is None or parent.kind in FUNCTION_KINDS:
                return False
            node = parent
        return True

    # modules

    def module_symbol(self, file_id: int) -> int | None:
        """The module symbol of a file."""
        if file_id not in self._modules:
            row = self.conn.execute(
                "SELECT id FROM symbols WHERE file_id=? AND kind='module' ORDER BY id LIMIT 1", (file_id,)
            ).fetchone()
            self._modules[file_id] = row[0] if row else None
        return self._modules[file_id]

    def has_files_under(self, testpath: str) -> bool:
        """Whether the index holds a file below a pytest ``testpaths`` entry (a folder, or a glob pattern of them)."""
        from .pytest_settings import under_testpath

        if not any(c in testpath for c in "*?["):  # a folder (or a file): one look-up by prefix, no scan of every path
            prefix = testpath + "/"
            row = self.conn.execute(
                "SELECT 1 FROM files WHERE path = ? OR substr(path, 1, ?) = ? LIMIT 1", (testpath, len(prefix), prefix)
            ).fetchone()
            return row is not None
        return any(under_testpath(r[0], testpath) for r in self.conn.execute("SELECT path FROM files"))

    def has_outside_base(self, class_id: int) -> bool:
        """Whether a class names more bases (inert ones left out) than the index resolved in the repository."""
        found = self._outside_bases.get(class_id)
        if found is None:
            named = sum(1 for name in self.written_bases(class_id) if name not in INERT_BASES)
            found = self._outside_bases[class_id] = named > len(self.bases(class_id))
        return found

    def load_written_bases(self, classes: Sequence[int]) -> None:
        """Load what :meth:`has_outside_base` asks about many classes (their in-repo and written bases) in a few
        queries: a django model base has thousands of subclasses, two queries each one by one."""
        todo = sorted({c for c in classes if c not in self._outside_bases})
        if not todo:
            return
        self.load_inherit(todo, "bases")
        nodes = self.nodes(c for c in todo if c not in self._written)
        written: dict[int, list[str]] = {c: [] for c in nodes}
        for chunk in chunks(sorted({n.file_id for n in nodes.values()})):
            for sid, fid, name in self.conn.execute(
                f"SELECT symbol_id, file_id, name FROM bases WHERE file_id IN ({in_list(chunk)}) ORDER BY file_id, id", chunk
            ):
                if sid in written and nodes[sid].file_id == fid:
                    written[sid].append(name)
        for c, names in written.items():
            self._written[c] = tuple(names)

    def written_bases(self, class_id: int) -> tuple[str, ...]:
        """The last names of a class's bases as written, in the repository or not (``datetime.tzinfo`` -> tzinfo)."""
        found = self._written.get(class_id)
        if found is None:
            node = self.nodes([class_id]).get(class_id)
            rows = (
                self.conn.execute("SELECT name FROM bases WHERE file_id=? AND symbol_id=?", (node.file_id, class_id))
                if node is not None
                else ()
            )
            found = self._written[class_id] = tuple(name for (name,) in rows)
        return found

    # tests

    def collected_files(self, node: Node) -> list[str]:
        """The files that are not Python whose tests a conftest's ``pytest_collect_file`` hook collects, when
        ``node`` is that hook or a method of a collector class of the same conftest (a subclass of pytest's
        ``Item`` or ``File``, which run those tests): tracked files below the conftest whose name passes the
        hook's literal name tests (:func:`_collected_name`)."""
        if node.language != "python" or not is_conftest(node.path) or node.kind == "module":
            return []
        tests = self._hook_tests(node.file_id)
        if not tests:
            return []
        classes = self._collector_classes.get(node.file_id)
        if classes is None:
            rows = self.conn.execute("SELECT symbol_id, name FROM bases WHERE file_id=?", (node.file_id,))
            classes = self._collector_classes[node.file_id] = frozenset(
                int(r[0]) for r in rows if str(r[1]).endswith(_COLLECTOR_BASES)
            )
        if node.qualname != COLLECT_HOOK and node.parent_id not in classes:
            return []
        return (
            self.files.find_tracked(partial(_collected_name, tests), [posixpath.dirname(node.path)])
            if self.files is not None
            else []
        )

    def collects_tests(self, path: str) -> bool:
        """Whether pytest collects tests from ``path``, a file that is not Python: a doctest text file of the
        settings (below ``testpaths``), or a file whose name a ``pytest_collect_file`` hook of a conftest.py
        in its folder or above compares paths with."""
        name = posixpath.basename(path)
        if name.endswith(".py"):
            return False
        settings = self.doctest_settings()
        if (
            settings is not None
            and settings.configured
            and any(fnmatch.fnmatchcase(name, g) for g in settings.globs)
            and settings.collects_from(path)
        ):
            return True
        folders = path.split("/")[:-1]
        conftests = ["/".join([*folders[:i], "conftest.py"]) for i in range(len(folders) + 1)]
        rows = self.conn.execute(f"SELECT id FROM files WHERE path IN ({in_list(conftests)})", conftests)
        return any(_collected_name(self._hook_tests(fid), name) for (fid,) in rows)

    def _hook_tests(self, file_id: int) -> tuple[tuple[str, str], ...]:
        """The (literal, how) file name tests of the ``pytest_collect_file`` hook of a conftest (none: no hook)."""
        tests = self._collected.get(file_id)
        if tests is None:
            rows = self.conn.execute("SELECT DISTINCT name, receiver FROM refs WHERE file_id=? AND kind='collects'", (file_id,))
            tests = self._collected[file_id] = tuple(sorted((r[0], r[1]) for r in rows))
        return tests

    def guarded_names(self, file_ids: Iterable[int]) -> set[tuple[int, str]]:
        """(file id, name) of the definitions the files make in a module-level block, and (file id, ``Class.name``) of
        those a class body makes in one (the parser's ``guarded`` references, whose scope is the definition itself:
        impact.name_guarded_tests)."""
        out: set[tuple[int, str]] = set()
        for chunk in chunks(sorted(file_ids)):
            out.update(
                (int(r[0]), str(r[1]) if "." not in str(r[2]) else first_name(str(r[2])))
                for r in self.conn.execute(
                    "SELECT r.file_id, r.name, s.qualname FROM refs r JOIN symbols s ON s.id = r.scope_id"
                    f" WHERE r.kind = 'guarded' AND r.file_id IN ({in_list(chunk)})",
                    chunk,
                )
            )
        return out

    def sybil_patterns(self) -> list[tuple[str, str]]:
        """(folder, file name pattern) of each conftest.py that makes the examples of text files tests with Sybil
        (``Sybil(..., pattern="*.rst")`` or ``patterns=[...]``): the files of that name below its folder."""
        if self.files is None:
            return []
        rows = self.conn.execute(
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.kind = 'call' AND r.name = 'Sybil' AND f.path LIKE '%conftest.py' ORDER BY f.path"
        ).fetchall()
        out: list[tuple[str, str]] = []
        for (path,) in rows:
            if posixpath.basename(path) != "conftest.py":
                continue
            text = (self.files.read_tracked(path) or b"").decode("utf-8", "replace")
            for given in _SYBIL_PATTERN.findall(text):
                out.extend((posixpath.dirname(path), p) for p in _QUOTED.findall(given))
        return out

    def doctest_runners(self) -> dict[str, set[int]]:
        """Test files that run doctests themselves (``doctest.testmod(module)``, ``doctest.DocTestSuite(module)``: a
        parametrized test hides which module): each with the files of the repository it imports or names (formencode's
        tests/test_doctests.py imports the modules whose examples it runs; icalendar's names them as dotted strings).
        The call must be in a test, the module body, or a function the file's code calls or names outside its
        ``__main__`` block (genshi's ``def suite(): ... DocTestSuite(...)`` serves ``unittest.main(defaultTest="suite")``
        there, which pytest never runs)."""
        rows = self.conn.execute(
            f"SELECT DISTINCT r.file_id, f.path FROM refs r JOIN files f ON f.id = r.file_id"
            f" JOIN symbols s ON s.id = r.scope_id WHERE r.kind = 'call' AND r.name IN ({in_list(_DOCTEST_RUNNERS)})"
            " AND f.is_test = 1 AND f.language = 'python'"
            " AND (r.receiver = 'doctest' OR (r.receiver = '' AND EXISTS (SELECT 1 FROM imports i"
            " WHERE i.file_id = r.file_id AND i.module = 'doctest' AND i.name = r.name)))"
            " AND (s.is_test = 1 OR s.kind = 'module' OR EXISTS (SELECT 1 FROM edges e JOIN symbols c ON c.id = e.src_id"
            " WHERE e.dst_id = s.id AND e.src_id != s.id AND e.file_id = r.file_id AND c.qualname != '__main__'))",
            list(_DOCTEST_RUNNERS),
        ).fetchall()
        out: dict[str, set[int]] = {}
        for file_id, path in rows:
            out[path] = {
                r[0]
                for r in self.conn.execute(
                    "SELECT DISTINCT e.dst_file_id FROM edges e JOIN files f ON f.id = e.dst_file_id"
                    " WHERE e.file_id = ? AND e.dst_file_id != ? AND e.kind IN ('import', 'ref') AND f.is_test = 0",
                    (file_id, file_id),
                )
            }
        return out

    def doctest_settings(self) -> DoctestSettings | None:
        """The repository's pytest doctest settings (None when its files cannot be read)."""
        if self.files is None:
            return None
        if self._doctest is None:
            from .pytest_settings import doctest_settings

            self._doctest = doctest_settings(self.files.read_tracked)
        return self._doctest

    def import_name(self, path: str, namespace: bool = False) -> str | None:
        """The module name pytest imports a Python file of a package under: its path from the topmost folder
        of the package (``src/pkg/mod.py`` → ``pkg.mod`` when ``src/`` is no package). None for a file in a
        folder that is no package: pytest names it by its import mode (``tool`` or ``scripts.tool``).
        ``namespace`` (pytest's ``consider_namespace_packages``): the folders above the package that are none count
        as namespace packages up to the root or a ``src`` folder (``jaraco/text/__init__.py`` → ``jaraco.text``:
        pytest takes the first name above that Python can import, most often the one from there)."""
        if self._packages is None:
            rows = self.conn.execute("SELECT path FROM files WHERE path LIKE '%__init__.py'")  # (_: any character)
            self._packages = frozenset(posixpath.dirname(r[0]) for r in rows if r[0].endswith("/__init__.py"))
        folders = path.split("/")[:-1]
        if folders and "/".join(folders) not in self._packages:
            return None
        top = len(folders)
        while top > 0 and "/".join(folders[:top]) in self._packages:
            top -= 1
        if namespace:
            while top > 0 and folders[top - 1] not in _SOURCE_ROOTS and folders[top - 1].isidentifier():
                top -= 1
        stem = posixpath.basename(path).removesuffix(".py")
        return ".".join(folders[top:] + ([] if stem == "__init__" else [stem]))

    def with_examples(self, ids: Iterable[int]) -> list[Node]:
        """The Python definitions among ``ids`` whose docstring holds doctest examples (``>>>``)."""
        ids = sorted(set(ids))
        found: list[int] = []
        for chunk in chunks(ids):
            found.extend(
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM symbols WHERE id IN ({in_list(chunk)}) AND instr(docstring, '>>>') > 0", list(chunk)
                )
            )
        nodes = self.nodes(found)
        return [nodes[i] for i in found if i in nodes and nodes[i].language == "python"]

    def docstring_examples(self) -> list[tuple[Node, set[str]]]:
        """Every Python definition whose docstring holds doctest examples, with the identifiers of its examples
        (what follows the first ``>>>``: the index keeps a docstring on one line)."""
        if self._examples is None:
            rows = self.conn.execute(
                "SELECT s.id, s.docstring FROM symbols s JOIN files f ON f.id = s.file_id"
                " WHERE f.language = 'python' AND instr(s.docstring, '>>>') > 0"
            ).fetchall()
            nodes = self.nodes(r[0] for r in rows)
            self._examples = [
                (nodes[sid], set(IDENTIFIER.findall(text.partition(">>>")[2]))) for sid, text in rows if sid in nodes
            ]
        return self._examples

    def tests_in_files(self, paths: Iterable[str]) -> list[Node]:
        """Runnable tests of the given files (by path, then line)."""
        wanted = sorted(set(paths))
        self.prefetch_tests_in_files(wanted)
        return [t for p in wanted for t in self._file_tests[p]]

    def prefetch_tests_in_files(self, paths: Iterable[str]) -> None:
        """Load the runnable tests of many files at once (a walk level reaches hundreds of test modules)."""
        want = sorted({p for p in paths if p not in self._file_tests})
        for p in want:
            self._file_tests[p] = []
        for chunk in chunks(want):
            rows = self.conn.execute(
                f"{NODE_SQL} WHERE f.path IN ({in_list(chunk)}) AND s.is_test != 0 ORDER BY f.path, s.start_line", chunk
            ).fetchall()
            for n in map(as_node, rows):
                if n.runnable_test:
                    self._file_tests[n.path].append(n)

    def tests_under(self, node: Node) -> list[Node]:
        """The runnable tests a test class (or test node) stands for, nested classes included."""
        if node.runnable_test:
            return [node]
        out: list[Node] = []
        for child in self.children(node.id):
            if child.runnable_test:
                out.append(child)
            elif child.kind in CLASS_KINDS and child.is_test:
                out.extend(self.tests_under(child))
        return out

    def inherited_tests(self, method: Node) -> list[tuple[Node, str]]:
        """(test class, qualname) for a ``test*`` method, of a test class or of a mixin that is none: the test
        subclasses that inherit this very definition (none of them, nor a nearer base, overrides it) run it
        as their own test."""
        if method.kind != "method" or method.parent_id is None or not method.name.startswith("test"):
            return []
        subclasses = self.transitive(method.parent_id, "subclasses")
        if not subclasses:
            return []
        classes = self.nodes(subclasses)
        self.load_children(subclasses)
        out: list[tuple[Node, str]] = []
        for cid in subclasses:
            cls = classes.get(cid)
            if cls is None or not cls.is_test or any(c.name == method.name for c in self._children[cid]):
                continue
            owner = next(
                (b for b in self.transitive(cid, "bases") if any(c.name == method.name for c in self.children(b))),
                None,
            )
            if owner == method.parent_id:  # no nearer base defines the name
                out.append((cls, f"{cls.qualname}.{method.name}"))
        return out

    def in_made_test_class(self, method: Node) -> bool:
        """Whether ``method`` belongs to a module-level class of a test module named ``*Test`` or ``*Tests`` (a ``Test*``
        one is a test class already) that the index does not know as a test class because it or an in-repo base
        derives from a class it cannot see (``Fixtures = repeated_test.WithTestClass(Tests)``)."""
        if method.parent_id is None or not method.in_test_file:
            return False
        cls = self.nodes([method.parent_id]).get(method.parent_id)
        if cls is None or cls.kind not in CLASS_KINDS or cls.is_test or cls.parent_id != self.module_symbol(cls.file_id):
            return False
        if not cls.name.endswith(("Test", "Tests")):
            return False
        return any(self.has_outside_base(c) for c in (cls.id, *self.transitive(cls.id, "bases")))

    def base_tests(self, test_class: Node) -> list[tuple[Node, str]]:
        """(method, qualname under ``test_class``) for the ``test*`` methods a test class inherits from its
        in-repo bases, mixins that are no test class included (unittest and pytest collect inherited
        methods); the nearest definition of a name wins and the class's own methods are not listed."""
        if test_class.kind not in CLASS_KINDS or not test_class.is_test:
            return []
        bases = self.transitive(test_class.id, "bases")
        if not bases:
            return []
        self.load_children([test_class.id, *bases])
        seen = {c.name for c in self._children[test_class.id]}
        out: list[tuple[Node, str]] = []
        for base in bases:
            for m in self._children[base]:
                if m.name not in seen and m.kind == "method" and m.name.startswith("test"):
                    out.append((m, f"{test_class.qualname}.{m.name}"))
                seen.add(m.name)
        return out

    def remade_test_classes(self, classes: Iterable[Node]) -> set[int]:
        """The test classes of ``classes`` that a metaclass of the repository makes, named by ``metaclass=`` or
        reached through a class decorator of the repository that calls one (python-multipart's
        ``@parametrize_class`` calls its ``ParametrizingMetaclass``, which replaces each ``@parametrize``'d
        ``test_http`` by a ``test_http__<case>`` per case): the names of their tests are the metaclass's."""
        # what each header names: its decorators, then the line of `class`, where `metaclass=` is (one query)
        headers = {c.id: (c.start_line, c.start_line + len(c.decorators)) for c in classes}
        named: dict[int, set[int]] = {cid: set() for cid in headers}
        for chunk in chunks(sorted(headers)):
            for src, dst, line in self.conn.execute(
                f"SELECT src_id, dst_id, line FROM edges WHERE src_id IN ({in_list(chunk)}) AND kind IN ('call','ref')", chunk
            ):
                if headers[src][0] <= line <= headers[src][1]:
                    named[src].add(dst)
        targets = self.nodes({d for ds in named.values() for d in ds})
        # and what the class decorators among them call (`parametrize_class` calls the metaclass)
        calls: dict[int, set[int]] = {t.id: set() for t in targets.values() if t.kind in FUNCTION_KINDS}
        for chunk in chunks(sorted(calls)):
            for src, dst in self.conn.execute(
                f"SELECT src_id, dst_id FROM edges WHERE src_id IN ({in_list(chunk)}) AND kind='call'", chunk
            ):
                calls[src].add(dst)
        reached = [*targets.values(), *self.nodes({d for ds in calls.values() for d in ds}).values()]
        metaclasses = {n.id for n in reached if n.kind in CLASS_KINDS and self.is_metaclass(n.id)}
        return {cid for cid, ds in named.items() if any(m in metaclasses for d in ds for m in (d, *calls.get(d, ())))}

    def decorated_here(self, fn: Node) -> bool:
        """Whether a decorator of ``fn`` is a function of the repository (a call on its decorator lines resolves)."""
        row = self.conn.execute(
            "SELECT 1 FROM edges WHERE src_id=? AND kind='call' AND line >= ? AND line < ?",
            (fn.id, fn.start_line, fn.start_line + len(fn.decorators)),
        ).fetchone()
        return row is not None

    def is_metaclass(self, class_id: int) -> bool:
        """Whether a class derives from ``type``, itself or through its bases in the repository."""
        found = self._metaclasses.get(class_id)
        if found is None:
            ids = [class_id, *self.transitive(class_id, "bases")]
            row = self.conn.execute(f"SELECT 1 FROM bases WHERE symbol_id IN ({in_list(ids)}) AND name='type'", ids).fetchone()
            found = self._metaclasses[class_id] = row is not None
        return found

    def test_imports(self, path: str, name: str) -> list[tuple[str, int, str]]:
        """(path, file id, bound name) of the test modules that import the test class or function ``name`` of
        ``path`` at module level under a name pytest collects (``Test*``, any for a TestCase; ``test*``): it runs
        there again."""
        key = (path, name)
        if key not in self._test_imports:
            self.prefetch_test_imports([key])
        return self._test_imports[key]

    def prefetch_test_imports(self, keys: Iterable[tuple[str, str]]) -> None:
        """Answer :meth:`test_imports` for many (path, name) at once: the tests in one query per 400, then their
        importers in one query per 500 tests."""
        want = sorted({k for k in keys if k not in self._test_imports})
        if not want:
            return
        tests: dict[int, tuple[str, str]] = {}
        prefixes: dict[int, str] = {}  # the names pytest collects it under, as a prefix ("": a TestCase, any)
        for chunk in chunks(want, 400):
            # CROSS JOIN keeps the keys the outer loop: each one is two index look-ups
            for sid, path, qualname, kind, is_test, signature in self.conn.execute(
                f"WITH k(path, qualname) AS (VALUES {','.join(['(?,?)'] * len(chunk))})"
                " SELECT c.id, k.path, k.qualname, c.kind, c.is_test, c.signature FROM k CROSS JOIN files cf"
                " CROSS JOIN symbols c WHERE cf.path=k.path AND c.file_id=cf.id AND c.qualname=k.qualname",
                [x for k in chunk for x in k],
            ):
                tests[sid] = (path, qualname)
                if kind != "class":
                    prefixes[sid] = PYTEST_FUNCTION_PREFIX
                else:
                    prefixes[sid] = "" if _unittest_class(qualname, int(is_test), str(signature)) else PYTEST_CLASS_PREFIX
        found: dict[tuple[str, str], set[tuple[int, str, str, str | None]]] = {k: set() for k in want}
        for chunk in chunks(sorted(tests)):
            for sid, fid, ipath, name, alias in self.conn.execute(
                "SELECT DISTINCT c.id, f.id, f.path, i.name, i.alias FROM symbols c"
                " JOIN edges e ON e.dst_id=c.id AND e.kind='import' JOIN symbols m ON m.id=e.src_id"
                " JOIN files f ON f.id=e.file_id JOIN imports i ON i.file_id=f.id AND i.line=e.line AND i.name=c.name"
                f" WHERE c.id IN ({in_list(chunk)}) AND m.kind='module' AND f.is_test=1 AND f.id != c.file_id",
                chunk,
            ):
                # DISTINCT per test, as asked one by one; `from test_temp_db import TempSqliteDictTest`, a TestCase, is
                # collected again whatever its name (sqlitedict's test_core.py), a test function as test*
                if (alias or name).startswith(prefixes[sid]):
                    found[tests[sid]].add((fid, ipath, name, alias))
        for k, rows in found.items():
            self._test_imports[k] = sorted((ipath, fid, alias or name) for fid, ipath, name, alias in rows)

    # a level of a walk at once

    def prefetch_receiver_checks(self, checks: dict[int, set[int]]) -> None:
        """Answer, in a few queries, what :meth:`~receivers.ReceiverGuesses.uses_class_of` will be asked for
        ``{method id: scopes}`` (:meth:`~receivers.ReceiverGuesses.prefetch_receiver_checks`)."""
        self.receivers.prefetch_receiver_checks(checks)

    def prefetch(self, nodes: Iterable[Node], *, subclasses_of_tests: bool = False) -> None:
        """Load what the per-node questions of a walk level ask about ``nodes``: aliases of functions, the
        base classes of methods and their methods (dispatch); with ``subclasses_of_tests``, the test classes
        that inherit test methods."""
        files: set[int] = set()
        classes: set[int] = set()
        test_classes: set[int] = set()
        for n in nodes:
            if n.kind in FUNCTION_KINDS:
                if n.file_id not in self._aliases:
                    files.add(n.file_id)
                if n.kind == "method" and n.parent_id is not None:
                    if not n.name.startswith("__"):
                        classes.add(n.parent_id)
                    if subclasses_of_tests and n.is_test:
                        test_classes.add(n.parent_id)
        if files:
            self._load_aliases(files)
        todo = [c for c in classes if (c, "bases") not in self._closure]
        if todo:
            self.prefetch_closure(todo, "bases")
            ancestors = {a for c in todo for a in self.transitive(c, "bases")}
            self._methods_of(sorted(ancestors))
        todo = [c for c in test_classes if (c, "subclasses") not in self._closure]
        if todo:
            self.prefetch_closure(todo, "subclasses")
            below = sorted({s for c in todo for s in self.transitive(c, "subclasses")})
            self.nodes(below)
            self.load_children(below)


def _unittest_class(qualname: str, is_test: int, signature: str) -> bool:
    """Whether a test class is a unittest TestCase subclass (which pytest collects whatever its name): marked through
    an in-repo base (``is_test`` 2), named otherwise than ``Test*``, or naming a TestCase base itself."""
    if is_test == 2 or (is_test == 1 and not qualname.startswith(PYTEST_CLASS_PREFIX)):
        return True
    bases = signature.partition("(")[2].rpartition(")")[0]
    return any(b.strip().rpartition(".")[2] in TEST_BASES for b in bases.split(","))


def _collected_name(tests: tuple[tuple[str, str], ...], name: str) -> bool:
    """Whether a file name passes the name tests of a ``pytest_collect_file`` hook: every prefix it asks for, and
    one of its suffixes, names and globs (a hook naming none is not understood: nothing passes). pytest stops
    with "not found" on a file given by path that no collector takes, so a guess must not be too wide."""
    if name.endswith(".py"):
        return False
    prefixes = [literal for literal, how in tests if how == "prefix"]
    stem = name.partition(".")[0]
    if not all(name.startswith(p) or stem.startswith(p) for p in prefixes):
        return False
    return any(
        (how == "suffix" and name.endswith(literal))
        or (how == "name" and name == literal)
        or (how == "glob" and fnmatch.fnmatchcase(name, literal))
        for literal, how in tests
    )
