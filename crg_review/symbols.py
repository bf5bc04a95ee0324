"""The index's symbols as the resolver reads them: by id, by name, by parent, each file's module symbol; asked one
query at a time in an update, or all loaded at once for a full build (:meth:`SymbolTable.preload`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from .model import CLASS_KINDS, MODULE_QUALNAME
from .modulemap import ModuleMap

__all__ = ["SYM_COLUMNS", "Sym", "SymbolTable", "is_overload", "name_fits", "sym_from_row"]


@dataclass(frozen=True)
class Sym:
    """The columns of a symbol the resolver needs."""

    id: int
    file_id: int
    parent_id: int | None
    kind: str
    name: str
    qualname: str
    decorators: tuple[str, ...]
    params: tuple[str, ...]
    is_test: bool


#: the columns of a :class:`Sym`; the parser's test marks only (store.mark_inherited_tests adds others once edges are
#: resolved: not seen here, so that an incremental update resolves as a full build does)
SYM_COLUMNS = "id, file_id, parent_id, kind, name, qualname, decorators, params, is_test = 1"


def sym_from_row(row: sqlite3.Row | tuple[object, ...]) -> Sym:
    """A symbol from a row of :data:`SYM_COLUMNS`."""
    return Sym(
        int(row[0]),  # type: ignore[arg-type]
        int(row[1]),  # type: ignore[arg-type]
        row[2],  # type: ignore[arg-type]
        str(row[3]),
        str(row[4]),
        str(row[5]),
        tuple(json.loads(str(row[6]))),
        tuple(json.loads(str(row[7]))),
        bool(row[8]),
    )


def name_fits(name: str, pattern: str) -> bool:
    """Whether a member's name fits what a look-up by prefix builds: ``pattern`` the prefix (``visit_``), or the prefix
    and the literal tail after what the program fills in (``xpath_*_function``)."""
    head, _, tail = pattern.partition("*")
    return name.startswith(head) and name.endswith(tail) and len(name) >= len(head) + len(tail)


class SymbolTable:
    """Symbols by id, name and parent, cached per instance (the resolver's: one per update)."""

    def __init__(self, conn: sqlite3.Connection, modules: ModuleMap) -> None:
        self.conn = conn
        self.modules = modules
        self.preloaded = False  # every symbol is loaded: what is not cached does not exist
        self._by_name: dict[str, list[Sym]] = {}
        self._by_id: dict[int, Sym] = {}
        self._children: dict[int, list[Sym]] = {}
        self._module_sym: dict[int, Sym] = {}
        self._child_maps: dict[int, dict[str, Sym]] = {}

    def preload(self) -> None:
        """Load every symbol at once (a full build resolves everything; one query beats thousands)."""
        self._by_name.clear()
        for row in self.conn.execute(f"SELECT {SYM_COLUMNS} FROM symbols ORDER BY id"):
            s = sym_from_row(row)
            self._by_id[s.id] = s
            self._by_name.setdefault(s.name, []).append(s)
            if s.parent_id is not None:
                self._children.setdefault(s.parent_id, []).append(s)
            if s.kind == "module":
                self._module_sym[s.file_id] = s
        for name, syms in self._by_name.items():
            self._by_name[name] = self.ordered(syms)
        self.preloaded = True

    def ordered(self, syms: list[Sym]) -> list[Sym]:
        """Symbols in an order that does not depend on ids (which differ between full and incremental)."""
        return sorted(syms, key=lambda s: (self.modules.file(s.file_id)[0], s.qualname))

    def named(self, name: str) -> list[Sym]:
        """The symbols named ``name``, in :meth:`ordered` order."""
        if name not in self._by_name:
            if self.preloaded:
                return []
            rows = self.conn.execute(f"SELECT {SYM_COLUMNS} FROM symbols WHERE name=?", (name,))
            self._by_name[name] = self.ordered([sym_from_row(r) for r in rows])
            for s in self._by_name[name]:
                self._by_id.setdefault(s.id, s)
        return self._by_name[name]

    def defined_in(self, s: Sym) -> Sym:
        """The scope whose body defines ``s``: its parent, or its file's module."""
        return self.sym(s.parent_id) if s.parent_id is not None else self.module_symbol(s.file_id)

    def sym(self, sid: int) -> Sym:
        """The symbol of id ``sid``."""
        if sid not in self._by_id:
            row = self.conn.execute(f"SELECT {SYM_COLUMNS} FROM symbols WHERE id=?", (sid,)).fetchone()
            self._by_id[sid] = sym_from_row(row)
        return self._by_id[sid]

    def children(self, sid: int) -> list[Sym]:
        """The symbols whose parent is ``sid``, in id order."""
        if sid not in self._children:
            if self.preloaded:
                return []
            rows = self.conn.execute(f"SELECT {SYM_COLUMNS} FROM symbols WHERE parent_id=? ORDER BY id", (sid,))
            self._children[sid] = [sym_from_row(r) for r in rows]
        return self._children[sid]

    def module_symbol(self, file_id: int) -> Sym:
        """The module symbol of a file: the scope of its top-level code."""
        if file_id not in self._module_sym:
            row = self.conn.execute(
                f"SELECT {SYM_COLUMNS} FROM symbols WHERE file_id=? AND qualname=?", (file_id, MODULE_QUALNAME)
            ).fetchone()
            self._module_sym[file_id] = sym_from_row(row)
        return self._module_sym[file_id]

    def top_level(self, file_id: int, name: str) -> list[Sym]:
        """The symbols named ``name`` at the top level of a file."""
        return [s for s in self.named(name) if s.file_id == file_id and s.parent_id == self.module_symbol(file_id).id]

    def named_like(self, pattern: str) -> list[Sym]:
        """The symbols whose name fits a look-up by prefix (``visit_``, ``xpath_*_function``: :func:`name_fits`), in no
        set order."""
        if self.preloaded:
            return [s for name, group in self._by_name.items() if name_fits(name, pattern) for s in group]
        head, _, tail = pattern.partition("*")
        rows = self.conn.execute(f"SELECT {SYM_COLUMNS} FROM symbols WHERE name GLOB ?", (f"{head}*{tail}",))
        return [sym_from_row(r) for r in rows]

    def child_map(self, sid: int) -> dict[str, Sym]:
        """Children of a symbol by name (the first definition of a name wins, as in a look-up; but not a
        ``typing.overload`` stub, which never runs, over the definition that does: pqdict's `minpq`)."""
        m = self._child_maps.get(sid)
        if m is None:
            m = {}
            for child in self.children(sid):
                if child.kind not in ("module", "test"):  # `it("run")` is not a definition of `run`
                    known = m.get(child.name)
                    if known is None or (is_overload(known) and not is_overload(child)):
                        m[child.name] = child
            self._child_maps[sid] = m
        return m

    def enclosing_class(self, scope: Sym) -> Sym | None:
        """The class ``scope`` is, or is nested in (None outside any class)."""
        s: Sym | None = scope
        while s is not None:
            if s.kind in CLASS_KINDS:
                return s
            s = self.sym(s.parent_id) if s.parent_id is not None else None
        return None


def is_overload(sym: Sym) -> bool:
    """Whether a definition is a ``@typing.overload`` stub (a signature for type checkers, never run)."""
    return any(d.rpartition(".")[2] == "overload" for d in sym.decorators)
