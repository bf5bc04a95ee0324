"""The class hierarchy of the index as the resolver walks it: a class's in-repo bases and subclasses (the inherit
edges), its ancestors in a simple method resolution order, the member a name finds there, and the overrides a call
can dispatch to in its subclasses.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Callable

from .symbols import Sym, SymbolTable

__all__ = ["ClassHierarchy"]

#: look-ups of subclasses answered one query at a time before every inherit edge is loaded at once: an update asks a
#: few (a table load is 15-40 ms on django), a full build thousands (modulemap's look-ups of paths by suffix alike)
_ONE_BY_ONE = 64


class ClassHierarchy:
    """Bases, subclasses, members and overrides of the index's classes, cached per instance (the resolver's: one per
    update) until :meth:`clear` (inherit edges were written)."""

    def __init__(self, conn: sqlite3.Connection, symbols: SymbolTable) -> None:
        self.conn = conn
        self.symbols = symbols
        self._bases: dict[int, list[int]] = {}
        self._bases_complete = False  # _bases holds every inherit edge (preload_bases)
        self._subclasses: dict[int, list[int]] | None = None
        self._subclasses_all = False  # _subclasses holds every inherit edge (else: the classes asked about)
        self._subclass_queries = 0
        self._members: dict[tuple[int, str, bool], Sym | None] = {}
        self._mro: dict[int, list[int]] = {}
        self._below: dict[int, list[int]] = {}
        self._dispatch: dict[tuple[int, str, bool], list[Sym]] = {}

    def clear(self) -> None:
        """Forget what was computed from the inherit edges (some were written); :meth:`preload_bases` stays in force."""
        self._bases.clear()
        self._subclasses = None
        for cache in (self._mro, self._members, self._below, self._dispatch):
            cache.clear()

    def expect_bases(self, class_id: int) -> None:
        """Until :meth:`clear`, a class whose inherit edges are being written has no bases (not those the index may
        still hold)."""
        self._bases.setdefault(class_id, [])

    def preload_bases(self) -> None:
        """Read every inheritance edge at once (a full build, after the resolver wrote them: Resolver.resolve_bases)."""
        self._bases = {}
        for src, dst in self.conn.execute(
            "SELECT src_id, dst_id FROM edges WHERE kind='inherit' ORDER BY src_id, line, rowid"
        ):
            self._bases.setdefault(src, []).append(dst)
        self._bases_complete = True

    def bases_of(self, class_id: int) -> list[int]:
        """Resolved in-repo bases of a class, in declaration order (inherit edges, written in the order of the bases:
        `class DataFrame(Padding, Frame)` looks in Padding first)."""
        if self._bases_complete:
            return self._bases.get(class_id, [])
        if class_id not in self._bases:
            self._bases[class_id] = [
                r[0]
                for r in self.conn.execute(
                    "SELECT dst_id FROM edges WHERE src_id=? AND kind='inherit' ORDER BY line, rowid",
                    (class_id,),
                )
            ]
        return self._bases[class_id]

    def subclasses_of(self, class_id: int) -> list[int]:
        """Direct in-repo subclasses, by path and qualname: one query per class for the first
        :data:`_ONE_BY_ONE` classes, then every inherit edge at once."""
        if self._subclasses is None:  # (reset by clear)
            self._subclasses, self._subclasses_all, self._subclass_queries = {}, False, 0
        found = self._subclasses.get(class_id)
        if found is not None:
            return found
        if self._subclasses_all:
            return []
        if self._subclass_queries < _ONE_BY_ONE and not self.symbols.preloaded:
            self._subclass_queries += 1
            found = self._subclasses[class_id] = [
                r[0]
                for r in self.conn.execute(
                    "SELECT e.src_id FROM edges e JOIN symbols s ON s.id=e.src_id JOIN files f ON f.id=s.file_id "
                    "WHERE e.dst_id=? AND e.kind='inherit' ORDER BY f.path, s.qualname",
                    (class_id,),
                )
            ]
            return found
        self._subclasses, self._subclasses_all = {}, True
        for src, dst in self.conn.execute(
            "SELECT e.src_id, e.dst_id FROM edges e JOIN symbols s ON s.id=e.src_id JOIN files f ON f.id=s.file_id "
            "WHERE e.kind='inherit' ORDER BY f.path, s.qualname"
        ):
            self._subclasses.setdefault(dst, []).append(src)
        return self._subclasses.get(class_id, [])

    def member(self, class_id: int, name: str, *, skip_self: bool = False) -> Sym | None:
        """Look ``name`` up in a class and its in-repo bases (breadth-first, declaration order)."""
        key = (class_id, name, skip_self)
        if key in self._members:
            return self._members[key]
        found: Sym | None = None
        for n, cid in enumerate(self.linearized(class_id)):
            if n == 0 and skip_self:
                continue
            found = self.symbols.child_map(cid).get(name)
            if found is not None:
                break
        self._members[key] = found
        return found

    def linearized(self, class_id: int) -> list[int]:
        """A class and its in-repo ancestors, breadth-first in declaration order (a simple MRO)."""
        order = self._mro.get(class_id)
        if order is None:
            order = self._mro[class_id] = _breadth_first([class_id], self.bases_of)
        return order

    def overrides(self, class_id: int, name: str) -> list[Sym]:
        """What ``name`` can dispatch to on instances of subclasses (transitively) of a class: their
        own definitions and those of mixins that come first in their bases."""
        key = (class_id, name, True)
        cached = self._dispatch.get(key)
        if cached is not None:
            return cached
        here = self.member(class_id, name)
        out: list[Sym] = []
        definers = {s.parent_id for s in self.symbols.named(name) if s.parent_id is not None}
        if definers <= {here.parent_id if here is not None else None}:
            self._dispatch[key] = out  # no other class defines the name: nothing to walk
            return out
        for cid in self.descendants(class_id):
            found = self.member(cid, name)
            if found is not None and found != here and found not in out:
                out.append(found)
        self._dispatch[key] = out
        return out

    def descendants(self, class_id: int) -> list[int]:
        """A class's in-repo subclasses at any depth, breadth-first."""
        order = self._below.get(class_id)
        if order is None:
            order = self._below[class_id] = _breadth_first(self.subclasses_of(class_id), self.subclasses_of)
        return order


def _breadth_first(start: list[int], step: Callable[[int], list[int]]) -> list[int]:
    """The classes reached from ``start`` by ``step`` (bases or subclasses), ``start`` first, breadth-first, each once."""
    order: list[int] = []
    seen: set[int] = set()
    queue = deque(start)
    while queue:
        cid = queue.popleft()
        if cid not in seen:
            seen.add(cid)
            order.append(cid)
            queue.extend(step(cid))
    return order
