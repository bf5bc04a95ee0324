"""The code graph as the impact walks read it: :class:`Graph`, a read-only, cached view of the index for the walks of
:mod:`walk` and :mod:`suite` (its records, :class:`~graphnodes.Node` and :class:`~graphnodes.EdgeIn`, are
:mod:`graphnodes`'). A walk asks about a whole level of nodes at once, so each kind of fact costs one query per level.

The Graph answers for the nodes, the edges into them, the definitions of the same name and the class hierarchy, and
owns the parts that answer the walks' questions about Python's dynamic calls and about tests, each with its own caches:

- ``graph.readers`` (:class:`~readers.ModuleReaders`): who imports a file, who reads the tables and instances a module
  body keeps;
- ``graph.receivers`` (:class:`~receivers.ReceiverGuesses`): which scopes use a method's class, and the callers that
  makes likely (``x.m()`` on an unknown ``x``, pickling and copying);
- ``graph.dispatch`` (:class:`~dispatch.ImplicitCallers`): the callers Python supplies (constructors, special methods,
  framework hooks, protocols, enclosing functions, metaclasses);
- ``graph.collection`` (:class:`~collection.CollectedTests`): the tests of files and classes, and how pytest collects
  them (doctests, conftest collectors, tests imported again).

No walk logic lives here.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import Any

from .collection import CollectedTests, SnapshotFiles
from .dispatch import INERT_BASES, ImplicitCallers
from .graphnodes import FUNCTION_KINDS, NODE_SQL, EdgeIn, Node, as_node, chunks, in_list
from .model import CLASS_KINDS
from .readers import ModuleReaders
from .receivers import ReceiverGuesses

__all__ = ["Graph"]

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
        self._metaclasses: dict[int, bool] = {}  # class → whether it derives from `type`
        self._modules: dict[int, int | None] = {}
        #: the parts, each with the caches of its own questions (the nodes, edges and hierarchy are this graph's)
        self.readers = ModuleReaders(self)
        self.receivers = ReceiverGuesses(self, self.readers)
        self.dispatch = ImplicitCallers(self)
        self.collection = CollectedTests(self)

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
        stubs, conditional definitions): the resolver binds calls to one only (the first that is no stub)."""
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

    def classes_called_on(self, scope: int, lines: Iterable[int]) -> dict[int, set[int]]:
        """The classes ``scope`` calls (constructs) on each of ``lines`` that has any."""
        kinds = sorted(CLASS_KINDS)
        at = sorted(set(lines))
        made: dict[int, set[int]] = {}
        for line, cls in self.conn.execute(
            "SELECT e.line, e.dst_id FROM edges e JOIN symbols s ON s.id = e.dst_id WHERE e.src_id = ?"
            f" AND e.line IN ({in_list(at)}) AND e.kind = 'call' AND s.kind IN ({in_list(kinds)})",
            (scope, *at, *kinds),
        ):
            made.setdefault(line, set()).add(cls)
        return made

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

    def is_metaclass(self, class_id: int) -> bool:
        """Whether a class derives from ``type``, itself or through its bases in the repository."""
        found = self._metaclasses.get(class_id)
        if found is None:
            ids = [class_id, *self.transitive(class_id, "bases")]
            row = self.conn.execute(f"SELECT 1 FROM bases WHERE symbol_id IN ({in_list(ids)}) AND name='type'", ids).fetchone()
            found = self._metaclasses[class_id] = row is not None
        return found

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
