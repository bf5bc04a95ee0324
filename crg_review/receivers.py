"""The guesses at who calls a method where the resolver could not type the receiver: a scope that builds or names
the method's class or a subclass (itself, through the fixtures it takes, or through its class), or a factory of one,
and calls ``x.<name>()`` on an unknown ``x``, likely calls this method; likewise a scope that pickles or copies while
using the class runs its pickling and copying hooks. A part of :class:`~graph.Graph`, which owns it as
``graph.receivers``; the answers are kept per class family, and a walk level asks them at once
(:meth:`ReceiverGuesses.prefetch_receiver_checks`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from .graphnodes import CONSTRUCTORS, FUNCTION_KINDS, EdgeIn, Node, chunks, in_list, padded
from .model import CLASS_KINDS

if TYPE_CHECKING:
    from .graph import Graph
    from .readers import ModuleReaders

__all__ = [
    "COPY_METHODS",
    "FACTORY_MIN_CONFIDENCE",
    "FAMILY_SCAN_SCOPES",
    "RECEIVER_GUESS_CONFIDENCE",
    "RECEIVER_GUESS_MAX_CLASSES",
    "RECEIVER_GUESS_MAX_REFS",
    "ReceiverGuesses",
]

#: confidence of ``obj.m()`` in a scope that also uses m's class (the receiver's type is unknown)
RECEIVER_GUESS_CONFIDENCE = 0.5
#: calls a scope makes that count for what it uses (and the factory hop behind them)
FACTORY_MIN_CONFIDENCE = 0.5
#: subclasses whose use counts as a use of the method's class in the receiver guess
RECEIVER_GUESS_MAX_CLASSES = 50
#: a method name used at more call sites than this is too common for the receiver guess
RECEIVER_GUESS_MAX_REFS = 2000
#: asked about more scopes than this at once, the family check reads every edge into the family instead
#: (one query, kept for the rest of the review) of the edges out of those scopes
FAMILY_SCAN_SCOPES = 50
#: what pickle and copy call on an object: they run wherever an instance of the class is pickled or copied
COPY_METHODS = frozenset(
    ("__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__getnewargs__", "__getnewargs_ex__")
    + ("__copy__", "__deepcopy__")
)
#: ``pickle.dumps(x)``, ``copy.deepcopy(x)``: the calls that run them, by module and function name
_COPY_MODULES = frozenset(("pickle", "_pickle", "cPickle", "cloudpickle", "dill", "copy"))
_COPY_CALLS = ("dumps", "loads", "dump", "load", "copy", "deepcopy")


class ReceiverGuesses:
    """Which scopes use a method's class, and the callers that makes likely (see the module docstring)."""

    def __init__(self, graph: Graph, readers: ModuleReaders) -> None:
        self.graph = graph
        self.conn: sqlite3.Connection = graph.conn
        self.readers = readers  # the module-level variables that hold instances (:meth:`_held_instance_users`)
        self._guesses: dict[int, list[EdgeIn]] = {}
        self._self_sites: dict[str, list[tuple[int, int]]] | None = None  # name → `self.name` sites of would-be methods
        self._copied: dict[int, list[EdgeIn]] = {}  # pickling hook → the scopes that pickle its class's objects
        self._copy_site_lines: dict[int, int] | None = None  # every scope that pickles or copies → its line
        self._families: dict[int, frozenset[int]] = {}
        self._fixtures: dict[int, list[int]] = {}  # scope → the fixtures it takes
        self._fixture_reach: dict[int, frozenset[int]] = {}
        self._class_scopes: dict[int, frozenset[int]] = {}  # class → :meth:`_class_reach`
        self._below_scopes: dict[int, frozenset[int]] = {}  # class → :meth:`_hierarchy_reach`
        self._family_checked: dict[int, set[int]] = {}  # class → scopes whose own edges were looked at
        self._family_hits: dict[int, set[int]] = {}  # class → those of them with an edge into its family
        self._wired_cache: dict[tuple[int, int], bool] = {}  # (owner, class) → :meth:`_wired`
        self._users: dict[int, set[int]] = {}  # node → :meth:`_confident_users` of it alone
        self._family_complete: set[int] = set()  # classes whose hits hold every scope with such an edge
        self._family_users: dict[int, dict[int, bool]] = {}  # class → scope → the same, fixtures included
        self._class_family: dict[tuple[int, int], bool] = {}

    def receiver_guesses(self, method: Node) -> list[EdgeIn]:
        """Scopes that call ``x.<name>()`` on an unknown receiver and also use the method's class (or a
        subclass, or get one from a fixture): likely callers the resolver could not pin down."""
        if method.id not in self._guesses:
            self._guesses[method.id] = self._receiver_guesses(method)
        return self._guesses[method.id]

    def class_family(self, method: Node) -> frozenset[int]:
        """The method's class, its subclasses and their ``__init__``: what a scope calls or names when it
        makes or names an object that has the method (empty for a function)."""
        if method.kind != "method" or method.parent_id is None:
            return frozenset()
        if method.parent_id not in self._families:
            # a base of hundreds of classes (an ORM model) is used everywhere: its subclasses say little
            classes = [method.parent_id, *self.graph.subclasses_first(method.parent_id, RECEIVER_GUESS_MAX_CLASSES)]
            self.graph.load_children(classes)
            ids = set(classes)
            for cls in classes:
                ids.update(c.id for c in self.graph.children(cls) if c.name == "__init__")
            self._families[method.parent_id] = frozenset(ids)
        return self._families[method.parent_id]

    def _load_fixtures(self, scopes: Iterable[int]) -> None:
        """The fixtures each scope takes (its ``fixture`` edges), fixtures of fixtures included."""
        frontier = {s for s in scopes if s not in self._fixtures}
        while frontier:  # one query per level
            want = sorted(frontier)
            for s in want:
                self._fixtures[s] = []
            for chunk in chunks(want, 900):
                for src, dst in self.conn.execute(
                    f"SELECT src_id, dst_id FROM edges WHERE src_id IN ({in_list(chunk)}) AND kind='fixture'", chunk
                ):
                    self._fixtures[src].append(dst)
            frontier = {f for s in want for f in self._fixtures[s] if f not in self._fixtures}

    def _with_fixtures(self, scope: int) -> frozenset[int]:
        """The scope and every fixture it takes, directly or through other fixtures."""
        found = self._fixture_reach.get(scope)
        if found is None:
            if scope not in self._fixtures:
                self._load_fixtures([scope])
            seen = {scope}
            todo = [scope]
            while todo:  # pytest refuses fixture cycles; stop at one anyway
                for f in self._fixtures[todo.pop()]:
                    if f not in seen:
                        seen.add(f)
                        todo.append(f)
            found = self._fixture_reach[scope] = frozenset(seen)
        return found

    def family_users(self, method: Node, scopes: Iterable[int]) -> set[int]:
        """The scopes that build or name the method's class or a subclass (:meth:`class_family`): an edge
        to one, or a call of a function that calls one that is a class or a constructor (factories: ``bar =
        progressbar(...)`` builds a ProgressBar), from the scope itself or from a fixture it takes (fixtures
        of fixtures too: a test gets its objects from its fixtures)."""
        family = self.class_family(method)
        if not family:
            return set()
        answers = self._family_users.setdefault(method.parent_id, {})  # type: ignore[arg-type]
        scopes = set(scopes)
        new = [s for s in scopes if s not in answers]
        if new:
            self._load_fixtures(new)
            reach = [self._fixture_reach.get(s) or self._with_fixtures(s) for s in new]
            hits = self._family_hits_among(method, set().union(*reach))  # set algebra: thousands of scopes per level
            for s, xs in zip(new, reach):
                answers[s] = not hits.isdisjoint(xs)
        return {s for s in scopes if answers[s]}

    def _family_hits_among(self, method: Node, scopes: set[int]) -> set[int]:
        """The family hits of the method's class known so far, with every one among ``scopes`` (their own edges, no
        fixtures): :meth:`_family_edges_from` for the scopes not looked at yet, or for every scope at once when
        they are many (one pass over the family's edges)."""
        family = self.class_family(method)
        checked = self._family_checked.setdefault(method.parent_id, set())  # type: ignore[arg-type]
        hits = self._family_hits.setdefault(method.parent_id, set())  # type: ignore[arg-type]
        todo = scopes - checked
        if todo and method.parent_id not in self._family_complete:
            if len(todo) > FAMILY_SCAN_SCOPES:
                hits |= self._family_edges_from(family, None)
                self._family_complete.add(method.parent_id)  # type: ignore[arg-type]
            else:
                hits |= self._family_edges_from(family, sorted(todo))
                checked |= todo
        return hits

    def _family_edges_from(self, family: frozenset[int], scopes: Sequence[int] | None) -> set[int]:
        """The scopes (of ``scopes``; None: any) with an edge to a member of ``family``, or a call (confidence
        at least :data:`FACTORY_MIN_CONFIDENCE`) of a function with such a call of a member that is a class
        or a constructor. The database does the filtering: the edges themselves are never loaded."""
        members = sorted(family)
        nodes = self.graph.nodes(members)
        made = [m for m in members if m in nodes and (nodes[m].kind in CLASS_KINDS or nodes[m].name in CONSTRUCTORS)]
        hit: set[int] = set()
        members, made = list(padded(members)), list(padded(made))
        for chunk in [None] if scopes is None else chunks(scopes):
            among = "" if chunk is None else f" AND src_id IN ({in_list(chunk)})"
            hit.update(
                r[0]
                for r in self.conn.execute(
                    f"SELECT DISTINCT src_id FROM edges WHERE dst_id IN ({in_list(members)}){among}",
                    [*members, *(chunk or ())],
                )
            )
            if made:
                hit.update(
                    r[0]
                    for r in self.conn.execute(
                        "SELECT DISTINCT e1.src_id FROM edges e2 JOIN edges e1 ON e1.dst_id = e2.src_id"
                        f" WHERE e2.dst_id IN ({in_list(made)}) AND e2.kind = 'call' AND e2.confidence >= ?"
                        f" AND e1.kind = 'call' AND e1.confidence >= ?{among.replace('src_id', 'e1.src_id')}",
                        [*made, FACTORY_MIN_CONFIDENCE, FACTORY_MIN_CONFIDENCE, *(chunk or ())],
                    )
                )
        return hit

    def uses_class_of(self, scope: int, method: Node) -> bool:
        """Whether ``scope`` (or a fixture it takes, or, for a method, its class) builds or names the
        method's class or a subclass: an ``x.<name>()`` there whose receiver the resolver could not
        type is then likely this method."""
        if not self.class_family(method):
            return False
        known = self._family_users.get(method.parent_id)  # type: ignore[arg-type]
        if known is not None and known.get(scope):
            return True
        if (known is None or scope not in known) and self.family_users(method, [scope]):
            return True
        node = self.graph.nodes([scope]).get(scope)
        if node is None:
            return False
        if node.kind != "method" or node.parent_id is None:
            return self._wired(node.id, method)
        return self._class_uses_family(node.parent_id, method) or self._wired(node.parent_id, method)

    def on_other_instances(self, scope: int, name: str, family: Collection[int]) -> bool:
        """Whether every call ``x.<name>()`` in ``scope`` is on an object the scope makes of a class outside
        ``family``: the receiver made on the call's line (``Cls(...).<name>()``) or a plain variable whose every
        assignment makes one (``x = Cls(...)``), and nothing of the family made or called by name on those lines (an
        edge keeps the first line of its calls only: a class made again further down is found by its name). False
        for any other receiver (a parameter, a factory's result, an attribute). Every call counts, for the same
        reason."""
        calls = self.conn.execute(
            "SELECT receiver, line FROM refs WHERE scope_id = ? AND kind = 'call' AND name = ?", (scope, name)
        ).fetchall()
        plain = sorted({r for r, _ in calls if r.isidentifier()})
        assigned: dict[str, list[int]] = {}
        for var, line in self.conn.execute(
            f"SELECT name, line FROM refs WHERE scope_id = ? AND kind = 'assign' AND name IN ({in_list(plain)})",
            (scope, *plain),
        ):
            assigned.setdefault(var, []).append(line)
        made_lines: list[list[int]] = []
        for receiver, line in calls:
            head, paren, _ = receiver.partition("(")
            if paren and receiver.endswith(")") and all(p.isidentifier() for p in head.split(".")):
                made_lines.append([line])
            elif assigned.get(receiver):
                made_lines.append(assigned[receiver])
            else:
                return False
        lines = sorted({at for group in made_lines for at in group})
        if not lines:
            return False
        made = self.graph.classes_called_on(scope, lines)
        if not all(made.get(at) and made[at].isdisjoint(family) for at in lines):
            return False
        family_names = {n.name for n in self.graph.nodes(family).values()}
        return not any(
            called in family_names
            for (called,) in self.conn.execute(
                f"SELECT name FROM refs WHERE scope_id = ? AND kind = 'call' AND line IN ({in_list(lines)})",
                (scope, *lines),
            )
        )

    def _method_to_be(self, fn: Node, method: Node) -> bool:
        """Whether ``fn`` is a function written to become a method of a class of its own file that has the
        method: its first parameter is ``self`` and its file defines the method's class or a subclass (a test
        maker's ``def test(self): self.check(...)``, attached with ``setattr(SpecTestCase, name, make(...))``)."""
        if fn.kind not in FUNCTION_KINDS or fn.params[:1] != ("self",):
            return False
        classes = self.graph.nodes(self.class_family(method))
        return any(c.file_id == fn.file_id and c.kind in CLASS_KINDS for c in classes.values())

    def _wired(self, owner: int, method: Node) -> bool:
        """Whether a scope outside the tests that builds or names the method's class also uses ``owner`` (a
        class: itself or one of its methods; else a function) through a sure enough edge: a builder that
        puts instances of the one into the other (``stack.enable_grouping(); stack.stmtprocess.append(ReindentFilter())``
        for ``for f in self.stmtprocess: f.process(stmt)`` in ``FilterStack.run``)."""
        key = (owner, method.parent_id or 0)
        found = self._wired_cache.get(key)
        if found is None:
            node = self.graph.nodes([owner]).get(owner)
            members = [owner]
            if node is not None and node.kind in CLASS_KINDS:
                members += [c.id for c in self.graph.children(owner) if c.kind in FUNCTION_KINDS]
            found = False
            # a nested function's receiver may be a parameter of a function around it, which that function's callers
            # fill (`def cached(cache): def decorator(f): def wrapper(*a): cache.setdefault(...)`): the makers stand
            # for it, and the builder may be a caller of a caller (`fifo_cache` makes a FIFOCache and calls `_cache`,
            # whose nested `decorator` calls `cached`)
            hops = 2 if node is not None and self.graph.makers(node) else 1
            for hop in range(hops):
                members += [m.id for n in self.graph.nodes(members).values() for m in self.graph.makers(n)]
                taken = set(members)
                users = self._confident_users(members) - taken
                if self._project_builders(method, users):
                    found = True
                    break
                if hop + 1 < hops:
                    members = sorted(users | taken)
            self._wired_cache[key] = found
        return found

    def _project_builders(self, method: Node, scopes: set[int]) -> list[int]:
        """The scopes of ``scopes`` that build or name the method's class family (:meth:`_family_hits_among`) in code
        of the project: a test that uses both classes is a user, not a builder. A check asks about the few users of
        its members, never about every builder of a family (thousands for a django model field) and what they use."""
        hits = self._family_hits_among(method, scopes)
        return [s for s, n in self.graph.nodes(hits.intersection(scopes)).items() if not n.in_test_file]

    def _confident_users(self, ids: Sequence[int]) -> set[int]:
        """The scopes with an edge of confidence at least FACTORY_MIN_CONFIDENCE into any of ``ids`` (kept per
        node: the same classes and their methods come up for every class family a level checks)."""
        self._load_users(ids)
        return set().union(*(self._users[i] for i in ids))

    def _load_users(self, ids: Iterable[int]) -> None:
        # from the edges the walk loaded already, else the sources alone (half the members a builder check asks
        # about never come up in the walk: a class's methods); a self-loop (left out) would add a node to itself
        missing = sorted({i for i in ids if i not in self._users})
        want = []
        for i in missing:
            edges = self.graph.loaded_incoming(i)
            if edges is None:
                want.append(i)
                self._users[i] = set()
            else:
                self._users[i] = {e.src for e in edges if e.confidence >= FACTORY_MIN_CONFIDENCE}
        for chunk in chunks(want):
            for dst, src in self.conn.execute(
                f"SELECT dst_id, src_id FROM edges WHERE dst_id IN ({in_list(chunk)}) AND src_id != dst_id"
                " AND confidence >= ?",
                [*chunk, FACTORY_MIN_CONFIDENCE],
            ):
                self._users[dst].add(src)

    def _class_uses_family(self, class_id: int, method: Node) -> bool:
        """Whether a class body or one of its own methods builds or names the method's class (``signer =
        Signer`` in the body tells what ``signer.unsign()`` in a method means)."""
        key = (class_id, method.parent_id or 0)
        if key not in self._class_family:
            members = [class_id, *(c.id for c in self.graph.children(class_id) if c.kind in FUNCTION_KINDS)]
            self._class_family[key] = bool(self.family_users(method, members))
        return self._class_family[key]

    def prefetch_receiver_checks(self, checks: dict[int, set[int]]) -> None:
        """Answer, in a few queries, what :meth:`uses_class_of` will be asked for ``{method id: scopes}``."""
        methods = self.graph.nodes(checks)
        self.graph.load_inherit(
            {
                m.parent_id
                for m in methods.values()
                if m.kind == "method" and m.parent_id is not None and m.parent_id not in self._families
            },
            "subclasses",
        )
        scope_nodes = self.graph.nodes({s for ss in checks.values() for s in ss})
        self._load_fixtures(scope_nodes)
        by_family: dict[int, tuple[Node, set[int]]] = {}
        for mid, scopes in checks.items():
            method = methods.get(mid)
            if method is not None and self.class_family(method):
                by_family.setdefault(method.parent_id, (method, set()))[1].update(scopes)  # type: ignore[arg-type]
        for method, scopes in by_family.values():
            users = self.family_users(method, scopes)
            owners = (scope_nodes.get(s) for s in scopes - users)
            self._prefetch_class_family(
                {n.parent_id for n in owners if n is not None and n.kind == "method" and n.parent_id is not None},
                method,
            )

    def _receiver_guesses(self, method: Node) -> list[EdgeIn]:
        if method.kind != "method" or method.parent_id is None or method.name.startswith("__"):
            return []
        # not the calls on an object the resolver knows is a library's (unresolved as external)
        outside = (
            " AND NOT EXISTS (SELECT 1 FROM unresolved u WHERE u.file_id = r.file_id AND u.ref_id = r.id"
            " AND u.reason = 'external')"
        )
        (count,) = self.conn.execute(
            "SELECT count(*) FROM refs r WHERE name=? AND kind IN ('call','attr') AND receiver != ''" + outside,
            (method.name,),
        ).fetchone()
        if count == 0 or count > RECEIVER_GUESS_MAX_REFS:
            return []
        # not the sites the resolver pinned to this very method (h2's `H2StreamStateMachine.recv_alt_svc` named in a
        # module-level table: a reference of the method, no call on an unknown object)
        pinned = {(r[0], r[1]) for r in self.conn.execute("SELECT src_id, line FROM edges WHERE dst_id=?", (method.id,))}
        sites: dict[int, int] = {}
        for scope, line, receiver in self.conn.execute(
            "SELECT scope_id, line, receiver FROM refs r WHERE name=? AND kind IN ('call','attr') AND receiver != ''"
            + outside,
            (method.name,),
        ):
            if receiver not in ("self", "cls") and not receiver.startswith("super") and (scope, line) not in pinned:
                sites.setdefault(scope, line)
        if not sites:
            return []
        users = self.family_users(method, sites)
        return [
            EdgeIn(s, method.id, "call", RECEIVER_GUESS_CONFIDENCE, "receiver-guess", sites[s])
            for s in sorted(users)
            if s != method.id
        ]

    def self_callers(self, method: Node) -> list[EdgeIn]:
        """``self.m()`` in functions written to become methods of a class of their file that has the method
        (:meth:`_method_to_be`: a test maker's ``def test(self): self.check(...)``), at any depth of the walk: the
        resolver leaves them to a name match, and nothing else says whose ``self`` it is."""
        if method.kind != "method" or method.parent_id is None:
            return []
        if self._self_sites is None:
            self._self_sites = {}
            # the few such functions first, then their files' references (no scan of every reference)
            made = self.conn.execute(
                "SELECT id, file_id FROM symbols WHERE kind = 'function' AND params LIKE '[\"self\"%'"
            ).fetchall()
            ids = {sid for sid, _ in made}
            for chunk in chunks(sorted({fid for _, fid in made})):
                for scope, name, line in self.conn.execute(
                    f"SELECT scope_id, name, min(line) FROM refs WHERE file_id IN ({in_list(chunk)})"
                    " AND kind IN ('call','attr') AND receiver = 'self' GROUP BY scope_id, name",
                    chunk,
                ):
                    if scope in ids:
                        self._self_sites.setdefault(name, []).append((scope, line))
        sites = self._self_sites.get(method.name)
        if not sites:
            return []
        fns = self.graph.nodes(s for s, _ in sites)
        return [
            EdgeIn(s, method.id, "call", RECEIVER_GUESS_CONFIDENCE, "receiver-guess", line)
            for s, line in sites
            if s in fns and s != method.id and self._method_to_be(fns[s], method)
        ]

    def copied_by(self, method: Node) -> list[EdgeIn]:
        """For a pickling or copying hook (``__reduce__``, ``__setstate__``, ``__deepcopy__``, ...): the scopes
        that call ``pickle.dumps``/``loads``, ``copy.copy``/``deepcopy`` and use the method's class (or get one
        from a fixture, or have it in their class body): what they pickle is likely one of its instances."""
        if method.kind != "method" or method.name not in COPY_METHODS or method.language != "python":
            return []
        if method.id not in self._copied:
            sites = self._copy_sites()
            users = self._copy_users(method, set(sites))
            self._copied[method.id] = [
                EdgeIn(s, method.id, "call", RECEIVER_GUESS_CONFIDENCE, "copy-protocol", sites[s])
                for s in sorted(users)
            ]
        return self._copied[method.id]

    def _copy_sites(self) -> dict[int, int]:
        """The scopes that call ``pickle.dumps``/``loads``, ``copy.copy``/``deepcopy`` (also as a bare name a file
        imports from such a module: ``from pickle import dumps``), with the line of the first such call; read once."""
        if self._copy_site_lines is None:
            imported = {
                (fid, name)
                for fid, name in self.conn.execute(
                    f"SELECT file_id, coalesce(alias, name) FROM imports WHERE module IN ({in_list(sorted(_COPY_MODULES))})"
                    f" AND name IN ({in_list(_COPY_CALLS)})",
                    [*sorted(_COPY_MODULES), *_COPY_CALLS],
                )
            }
            sites: dict[int, int] = {}
            for scope, line, receiver, name, fid in self.conn.execute(
                "SELECT scope_id, line, receiver, name, file_id FROM refs WHERE kind='call'"
                f" AND name IN ({in_list(_COPY_CALLS)})",
                _COPY_CALLS,
            ):
                module = receiver.rpartition(".")[2]
                if module in _COPY_MODULES or (not receiver and (name in ("copy", "deepcopy") or (fid, name) in imported)):
                    sites.setdefault(scope, line)
            self._copy_site_lines = sites
        return self._copy_site_lines

    def _copy_users(self, method: Node, scopes: set[int]) -> set[int]:
        """The scopes that use the method's class (:meth:`uses_class_of`), or that are methods of a class
        one of whose subclasses names it in its body (a mixin's ``pickle.dumps(self.Cache())`` pickles what
        ``Cache = TTLCache`` in the class mixing it in says). A few queries for all of them: a project that
        copies in hundreds of places (django) asks this for every copy hook a change reaches."""
        if not self.class_family(method):
            return set()
        users = self.family_users(method, scopes)
        users |= self._held_instance_users(method, scopes - users)
        nodes = self.graph.nodes(scopes - users)
        owners = {s: n.parent_id for s, n in nodes.items() if n.kind == "method" and n.parent_id is not None}
        # (:meth:`_class_uses_family` of the class or of a subclass: what their members reach, kept per class)
        below = self._hierarchy_reach(sorted(set(owners.values())))
        hits = self._family_hits_among(method, set().union(*below.values()))
        users.update(s for s, c in owners.items() if not hits.isdisjoint(below[c]))
        return users

    def _hierarchy_reach(self, classes: Sequence[int]) -> dict[int, frozenset[int]]:
        """For each class, :meth:`_class_reach` of itself and of every class below it, in one set (kept per class:
        the copy hooks of a family each ask about the same classes that copy)."""
        missing = [c for c in classes if c not in self._below_scopes]
        for c in missing:
            family = [c, *self.graph.transitive(c, "subclasses")]
            self._below_scopes[c] = frozenset().union(*self._class_reach(family))
        return {c: self._below_scopes[c] for c in classes}

    def _held_instance_users(self, method: Node, scopes: set[int]) -> set[int]:
        """The test code among ``scopes`` that reads a module-level variable of the same name as one a module body
        assigns an instance of the method's class or a subclass (``T = TType()`` in glom, ``pickle.dumps(T.a)`` in a
        test; the constructions are the classes' incoming calls, which the walk has loaded).
        (Library code that copies something and reads such a variable, glom's ``glom()`` with ``scope[T]`` and
        ``copy.copy(err)``, is every test's caller: what it copies is seldom that instance.)"""
        nodes = {s: n for s, n in self.graph.nodes(scopes).items() if n.in_test_file}
        if not nodes:
            return set()
        classes = {c: n for c, n in self.graph.nodes(self.class_family(method)).items() if n.kind in CLASS_KINDS}
        names = {n.name for n in classes.values()}
        incoming = self.graph.incoming(classes)
        makers = self.graph.nodes({e.src for edges in incoming.values() for e in edges})
        held = {
            variable
            for edges in incoming.values()
            for e in edges
            if e.kind == "call" and e.src in makers and makers[e.src].kind == "module"
            for variable in self.readers.stored_instances(makers[e.src], e.line, names)
            if variable.isidentifier()
        }
        if not held:
            return set()
        return {
            s
            for s, n in nodes.items()
            if any(r[0] == s for name in held for r in self.readers.refs_by_root(n.file_id).get(name, ()))
        }

    def _prefetch_class_family(self, classes: Iterable[int], method: Node) -> None:
        """Answer :meth:`_class_uses_family` for many classes at once: :meth:`family_users` of their members, asked
        per class through what the members reach (:meth:`_class_reach`, kept across families: django's copy hooks
        ask this about the same few thousand classes for each of thirty families)."""
        key = method.parent_id or 0
        todo = sorted({c for c in classes if (c, key) not in self._class_family})
        if not todo:
            return
        if not self.class_family(method):
            for c in todo:
                self._class_family[(c, key)] = False
            return
        reach = self._class_reach(todo)
        hits = self._family_hits_among(method, set().union(*reach))
        for c, xs in zip(todo, reach):
            self._class_family[(c, key)] = not hits.isdisjoint(xs)

    def _class_reach(self, classes: Sequence[int]) -> list[frozenset[int]]:
        """For each class, the scopes whose edges say whether it uses a class family (:meth:`family_users` of
        its members): the class, its own functions, and the fixtures they take (fixtures of fixtures too)."""
        missing = [c for c in classes if c not in self._class_scopes]
        if missing:
            self.graph.load_children(missing)
            members = {c: [c, *(m.id for m in self.graph.children(c) if m.kind in FUNCTION_KINDS)] for c in missing}
            self._load_fixtures([i for ids in members.values() for i in ids])
            for c, ids in members.items():
                self._class_scopes[c] = frozenset().union(*(self._with_fixtures(i) for i in ids))
        return [self._class_scopes[c] for c in classes]
