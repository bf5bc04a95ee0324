"""What the parser stated about a file's scopes, as the resolver reads it from the store: the type and alias facts of
its variables, what its functions return, the tables its module fills, the instances its assignments construct, the
attributes its classes set on self. Read once per file and cached; interpreting them (which class a variable holds)
is the resolver's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection

from .model import FACT_KINDS, PARAMETER_CALL_KINDS, RETURN_FACT, parameter_callers, stored_method
from .symbols import Sym, SymbolTable

__all__ = ["LOOKUP_FACT", "Fact", "FileFacts"]

#: a type fact: (kind, text), kind ``assign``, ``alias`` or ``element`` (see :meth:`FileFacts.variables`)
Fact = tuple[str, str]
#: the pseudo-variable whose facts are a scope's look-ups by prefix (``getattr(self, f"visit_{...}")``)
LOOKUP_FACT = "getattr()"


class FileFacts:
    """The stored facts of the index's files, cached per instance (the resolver's: one per update); what only a
    file's own resolution asks is forgotten once it is resolved (:meth:`forget`)."""

    def __init__(self, conn: sqlite3.Connection, symbols: SymbolTable) -> None:
        self.conn = conn
        self.symbols = symbols
        self._facts: dict[int, dict[tuple[int, str], list[Fact]]] = {}
        self._return_facts: dict[int, dict[int, list[Fact]]] = {}  # file → :meth:`returned`
        self._stored_facts: dict[int, dict[int, list[tuple[str, str]]]] = {}  # file → :meth:`stored_methods`
        self._tables: dict[int, dict[str, list[str]]] = {}  # file → :meth:`module_tables`
        self._constructed_vars: dict[int, frozenset[tuple[int, str, str]]] = {}  # :meth:`constructions`
        self._alias_names: dict[int, dict[tuple[int, str], list[str]]] = {}  # file → (scope, aliased text) → names
        self._param_callers: dict[int, frozenset[int]] = {}  # file → its functions that call a parameter
        self._set_on_self: dict[int, dict[int, set[str]]] = {}  # file → class → :meth:`self_attributes`
        self._by_variable: dict[int, dict[str, list[int]]] = {}  # file → variable → :meth:`stating` scopes

    def forget(self, file_id: int) -> None:
        """Drop what only the file's own scopes ask (its variables' facts, constructions, aliases, tables): it is
        resolved, and a big build keeps its memory flat."""
        self._facts.pop(file_id, None)
        self._by_variable.pop(file_id, None)
        self._constructed_vars.pop(file_id, None)
        self._alias_names.pop(file_id, None)
        self._tables.pop(file_id, None)

    def variables(self, file_id: int) -> dict[tuple[int, str], list[Fact]]:
        """Local type and alias facts of a file: (scope id, variable) → (kind, text) pairs, kind ``assign``
        (a type: an annotation or the callee of ``x = f()``), ``alias`` (``x = y``), ``element``
        (``for x in y``), ``item`` (``xs.append(v)``, ``xs = [Cls(...)]``, ``{k: f}``: a value xs holds, a
        variable or a call) or ``lookup`` (``f = table[k]``, ``f = table.get(k)``: the collection f takes an item of);
        and under the pseudo-variable :data:`LOOKUP_FACT`, ``getattr`` (``receiver.prefix*``
        of a look-up by prefix whose result the scope does not call)."""
        if file_id not in self._facts:
            out: dict[tuple[int, str], list[Fact]] = {}
            for scope_id, kind, name, receiver in self.conn.execute(
                f"SELECT scope_id, kind, name, receiver FROM refs WHERE file_id=? AND kind IN ({','.join('?' * len(FACT_KINDS))})"
                " ORDER BY id",
                (file_id, *FACT_KINDS),
            ):
                if kind == "getattr":  # a member looked up by prefix and not called here: it may be returned
                    out.setdefault((scope_id, LOOKUP_FACT), []).append((kind, f"{receiver}.{name}"))
                    continue
                # `T = TypeVar("T", bound="Cls")`: the bound may be a forward reference
                text = receiver.strip("'\"") if kind == "alias" else receiver
                out.setdefault((scope_id, name), []).append((kind, text))
            self._facts[file_id] = out
        return self._facts[file_id]

    def stating(self, file_id: int, var: str) -> list[tuple[int, list[Fact]]]:
        """The scopes of the file with facts about a variable of that name, each with them (:meth:`variables`,
        indexed by name once a file)."""
        facts = self.variables(file_id)
        index = self._by_variable.get(file_id)
        if index is None:
            index = self._by_variable[file_id] = {}
            for scope_id, name in facts:
                index.setdefault(name, []).append(scope_id)
        return [(scope_id, facts[(scope_id, var)]) for scope_id in index.get(var, ())]

    def returned(self, file_id: int) -> dict[int, list[Fact]]:
        """A file's facts of what its functions return (function id → (kind, text)), the only facts of a file
        that another file's resolution reads: when they change, the store names the function to the files
        that may depend on them (store._returns_changed)."""
        found = self._return_facts.get(file_id)
        if found is None:
            found = self._return_facts[file_id] = {}
            for scope_id, kind, text in self.conn.execute(
                "SELECT scope_id, kind, receiver FROM refs WHERE file_id=? AND name=? AND kind IN ('assign', 'alias')"
                " ORDER BY id",
                (file_id, RETURN_FACT),
            ):
                found.setdefault(int(scope_id), []).append((str(kind), str(text)))
        return found

    def stored_methods(self, cls: Sym, container: str) -> list[Sym]:
        """The methods of its own that a class stores in the table ``container`` on self in its methods
        (``self.handlers.update((("type", self.generate_type),))``), read for a base class of another file that calls
        the table's items: when those facts change, the store names the table's attribute (store._stored_methods)."""
        facts = self._stored_facts.get(cls.file_id)
        if facts is None:
            facts = self._stored_facts[cls.file_id] = {}
            for scope_id, variable, value in self.conn.execute(
                "SELECT scope_id, name, receiver FROM refs WHERE file_id=? AND kind='item' AND name LIKE 'self.%'"
                " AND receiver LIKE 'self.%' ORDER BY id",
                (cls.file_id,),
            ):
                facts.setdefault(int(scope_id), []).append((str(variable), str(value)))
        own = self.symbols.child_map(cls.id)
        out: list[Sym] = []
        for m in self.symbols.children(cls.id):
            for variable, value in facts.get(m.id, []):
                found = own.get(value.partition(".")[2]) if variable == container and stored_method(variable, value) else None
                if found is not None and found.kind in ("function", "method") and found not in out:
                    out.append(found)
        return out

    def module_tables(self, fid: int) -> dict[str, list[str]]:
        """The names each variable of the module holds at import time (``holds``: ``T = {k: f, ...}``, ``T =
        [f, g]``), by variable."""
        if fid not in self._tables:
            out: dict[str, list[str]] = {}
            for name, receiver in self.conn.execute(
                "SELECT name, receiver FROM refs WHERE file_id=? AND kind='holds' AND receiver != '' ORDER BY id", (fid,)
            ):
                out.setdefault(receiver, []).append(name)
            self._tables[fid] = out
        return self._tables[fid]

    def constructions(self, fid: int) -> frozenset[tuple[int, str, str]]:
        """(scope, variable, callee) of the file's ``var = callee(...)``: an assignment fact with a call of that name
        on its line."""
        found = self._constructed_vars.get(fid)
        if found is None:
            # two scans of the file's references (a self-join on the line went over every reference per assignment)
            calls = {
                (scope, line, f"{receiver}.{name}" if receiver else name)
                for scope, line, name, receiver in self.conn.execute(
                    "SELECT scope_id, line, name, receiver FROM refs WHERE file_id = ? AND kind = 'call'", (fid,)
                )
            }
            found = frozenset(
                (scope, var, callee)
                for scope, line, var, callee in self.conn.execute(
                    "SELECT scope_id, line, name, receiver FROM refs WHERE file_id = ? AND kind = 'assign'", (fid,)
                )
                if (scope, line, callee) in calls
            )
            self._constructed_vars[fid] = found
        return found

    def aliases_of(self, fid: int, scope_id: int, text: str) -> list[str]:
        """The variables of a scope that are aliases of ``text`` (``conv = self._type_conversions``)."""
        found = self._alias_names.get(fid)
        if found is None:
            found = self._alias_names[fid] = {}
            for (scope, var), facts in self.variables(fid).items():
                for kind, value in facts:
                    if kind == "alias":
                        found.setdefault((scope, value), []).append(var)
        return found.get((scope_id, text), [])

    def parameter_callers(self, fid: int, rows: list[tuple[int, int, str, str, str, int]] | None = None) -> frozenset[int]:
        """The functions of a stored file that call a parameter, or an item of one (model.calls_a_parameter): ``f(...)``
        or ``map(f, xs)`` of a parameter ``f``, ``methods[name](*args)``, ``for rule in rules: rule()``. ``rows``: the
        file's references (id, scope, kind, name, receiver, line) when the caller has read them already."""
        found = self._param_callers.get(fid)
        if found is None:
            if rows is None:
                rows = self.conn.execute(
                    "SELECT id, scope_id, kind, name, receiver, line FROM refs WHERE file_id=?"
                    f" AND kind IN ({','.join('?' * len(PARAMETER_CALL_KINDS))})",
                    (fid, *PARAMETER_CALL_KINDS),
                ).fetchall()
            found = frozenset(parameter_callers(lambda s: self.symbols.sym(s).params, (r[1:5] for r in rows)))
            self._param_callers[fid] = found
        return found

    def self_attributes(self, fid: int, cls: Sym) -> Collection[str]:
        """The names a class of the file ``fid`` sets on its instances, ``self.x = v`` in any of its methods (read
        from this file only: a base class elsewhere is not asked, so an edit there never changes this answer)."""
        by_class = self._set_on_self.get(fid)
        if by_class is None:  # one query a file, for all its classes
            by_class = self._set_on_self[fid] = {}
            for scope_id, name in self.conn.execute(
                "SELECT scope_id, name FROM refs WHERE file_id = ? AND kind = 'store' AND receiver = 'self'", (fid,)
            ):
                owner = self.symbols.enclosing_class(self.symbols.sym(scope_id))
                if owner is not None:
                    by_class.setdefault(owner.id, set()).add(name)
        return by_class.get(cls.id) or frozenset()
