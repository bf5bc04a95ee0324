"""The callers Python supplies where no call in the code names the method: the uses of a class stand for its
constructors and for the special methods Python runs on its instances; a framework's base class calls the hooks a
subclass overrides; a call of a name on objects of unknown type may run any of the methods of that name (a protocol);
a function runs the functions nested in it; a metaclass runs when a class naming it is made. A part of
:class:`~graph.Graph`, which owns it as ``graph.dispatch``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from .graphnodes import CONSTRUCTORS, FUNCTION_KINDS, EdgeIn, Node, chunks, in_list, is_special
from .model import CLASS_KINDS, param_name
from .receivers import COPY_METHODS, RECEIVER_GUESS_MAX_CLASSES

if TYPE_CHECKING:
    from .graph import Graph

__all__ = ["INERT_BASES", "PROTOCOL_MAX_SITES", "ImplicitCallers"]

#: a method's name called on objects of unknown type at at most this many places that the resolver left
#: ambiguous (more classes define it than it matches): those places are listed among its callers
PROTOCOL_MAX_SITES = 30
#: the calls ``x.<name>()`` (bound as ``?``) that the resolver left ambiguous: more classes define the name
#: than it matches
_AMBIGUOUS_CALLS = (
    "FROM refs r JOIN unresolved u ON u.file_id = r.file_id AND u.ref_id = r.id"
    " WHERE r.name = ? AND r.kind = 'call' AND r.receiver != '' AND u.reason = 'ambiguous'"
)
#: special methods that run where an instance is used, not where it is made: a call of the class makes one
#: for later (``take = curry(_take)`` then ``take(2, xs)`` elsewhere; a descriptor made in a class body runs on
#: every attribute access; an iterable made to be handed on: bleach's ``LinkifyFilter(source=...)`` given to a
#: serializer that loops over its argument), so the scopes that call the class stand for its unknown users
_RUN_LATER = frozenset(("__call__", "__get__", "__set__", "__delete__", "__set_name__", "__iter__"))
#: bases that call no method of their subclasses by name (a class deriving only from these has no framework
#: calling into it)
INERT_BASES = frozenset(
    ("object", "Generic", "Protocol", "ABC", "Exception", "BaseException", "NamedTuple", "TypedDict", "Enum")
)
#: methods a well-known class of the standard library calls on the instances of its subclasses, from code the index
#: does not have (C `datetime` calls a tzinfo's `fromutc` for `dt.astimezone(tz)` and `datetime.now(tz)`): the uses of
#: such a subclass stand for their callers as well, even where the repository calls them too (pytz's DstTzInfo)
_OUTSIDE_PROTOCOLS = {
    "tzinfo": frozenset(("utcoffset", "dst", "tzname", "fromutc")),
    "JSONEncoder": frozenset(("default",)),
    "Thread": frozenset(("run",)),
    "Handler": frozenset(("emit", "format", "filter", "handle", "flush")),
    "StreamHandler": frozenset(("emit", "format", "filter", "handle", "flush")),
    # logging calls a formatter's (structlog's `ProcessorFormatter(logging.Formatter)`) and a filter's methods
    "Formatter": frozenset(("format", "formatTime", "formatException", "formatStack", "formatMessage", "usesTime")),
    "Filter": frozenset(("filter",)),
    "NodeVisitor": frozenset(("generic_visit",)),
    "NodeTransformer": frozenset(("generic_visit",)),
    # requests calls a mounted transport adapter's (requests-mock's `Adapter(BaseAdapter).send`, after `session.mount`)
    "BaseAdapter": frozenset(("send", "close")),
    "HTTPAdapter": frozenset(("send", "close", "build_response", "get_connection", "cert_verify", "add_headers")),
    # html.parser's `feed()` calls a parser subclass's handlers
    "HTMLParser": frozenset(
        (
            "handle_starttag", "handle_endtag", "handle_startendtag", "handle_data", "handle_comment",
            "handle_entityref", "handle_charref", "handle_decl", "handle_pi", "unknown_decl",
        )
    ),
    # socketserver and http.server call a request handler's
    "BaseRequestHandler": frozenset(("setup", "handle", "finish")),
    "StreamRequestHandler": frozenset(("setup", "handle", "finish")),
    "BaseHTTPRequestHandler": frozenset(("do_GET", "do_POST", "do_PUT", "do_DELETE", "do_HEAD", "do_PATCH", "log_message")),
}
_OUTSIDE_PROTOCOL_NAMES = frozenset(n for names in _OUTSIDE_PROTOCOLS.values() for n in names)
#: methods the import system calls on any object in ``sys.meta_path`` or ``sys.path_hooks`` (a duck-typed protocol:
#: no base says so), for every import after it is put there (bottle's `_ImportRedirect.find_spec`)
_IMPORT_HOOKS = frozenset(("find_spec", "find_module", "load_module", "create_module", "exec_module"))


class ImplicitCallers:
    """The callers no call in the code names (see the module docstring), as edges into the method."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.conn: sqlite3.Connection = graph.conn
        self._defines: dict[str, dict[int, bool]] = {}  # name → class → :meth:`_defining` (children not loaded)
        self._protocols: dict[str, bool] = {}  # method name → :meth:`_dispatched_by_name`
        self._parameter_calls: list[tuple[int, int]] | None = None  # :meth:`callable_callers`' sites
        self._value_namers: dict[str, frozenset[int]] = {}  # name → scopes naming it as a value

    def constructed_via(self, method: Node, within: Collection[int] | None = None) -> list[EdgeIn]:
        """For ``__init__``/``__new__``: the calls of and references to its class and to the subclasses
        that inherit it, as edges into the method (``signer_class = Signer`` then ``self.signer_class()``
        constructs it too). For Python's other special methods, the references to the class as a value
        (``Cache = LRUCache`` in a test class, ``Environment(undefined=DebugUndefined)``): Python runs them on
        the instances (``getattr(obj, name)`` → ``__getattr__``, ``if obj:``, ``obj[k]``, ``x in obj``), and
        instances made from a class passed around are of a type the resolver cannot see where they are used
        (a direct ``Cls(...)`` types its variable: those uses resolve as calls). ``within``: only of those classes."""
        # (an alias is one too: `frozendict.__or__ = frozendict_or` set on the class after it, `__radd__ = __add__`)
        if method.kind not in ("method", "alias") or method.parent_id is None:
            return []
        if method.name in COPY_METHODS and method.language == "python":
            return []  # pickle and copy run them, not the object's other users (:meth:`~receivers.ReceiverGuesses.copied_by`)
        special = method.name not in CONSTRUCTORS
        hook = special and not is_special(method.name) and self.framework_hook(method)
        if special and not hook and not (is_special(method.name) and method.language == "python"):
            return []
        frontier = [method.parent_id]  # load the hierarchy a level at a time: the walk below asks class by class
        seen = set(frontier)
        overriding: set[int] = set()  # the subclasses met that define the name again (their own constructor)
        while frontier:
            self.graph.load_inherit(frontier, "subclasses")
            subs = [s for f in frontier for s in self.graph.subclasses(f) if s not in seen]
            seen.update(subs)
            again = self._defining(subs, method.name)
            overriding |= again
            frontier = [s for s in subs if s not in again]
        classes = [method.parent_id]
        taken = set(classes)  # a model base of django's tests has thousands of subclasses
        todo = [method.parent_id]
        while todo:
            for sub in self.graph.subclasses(todo.pop()):
                if sub not in taken and sub not in overriding:
                    classes.append(sub)
                    taken.add(sub)
                    todo.append(sub)
        if within is not None:
            classes = [c for c in classes if c in within]
        # a subclass naming its base in its class statement is no use of an instance
        skip = {method.parent_id, *(self.graph.transitive(method.parent_id, "subclasses") if special else ())}
        # an instance made to be called or to sit in a class runs these far from where it is made
        calls = not special or hook or (method.name in _RUN_LATER and method.language == "python")
        out: list[EdgeIn] = []
        for cls, edges in self.graph.incoming(classes).items():
            # (a class given to a function that calls it, resolve's "passed": made there for whoever gives it, whose
            # reference is among these edges; the function's other callers give other classes)
            found = [
                e
                for e in edges
                if (e.kind == "ref" or (e.kind == "call" and calls)) and e.src not in skip and e.resolution != "passed"
            ]
            if special and found:
                # a value, not an annotation (`-> Cls` types what it returns: those uses resolve as calls)
                name = self.graph.nodes([cls])[cls].name
                found = [e for e in found if e.kind == "call" or self._names_as_value(e.src, name)]
            out.extend(e._replace(dst=method.id) for e in found)
        return out

    def _defining(self, classes: Sequence[int], name: str) -> set[int]:
        """The classes of ``classes`` that define ``name`` themselves (a child of that name): from their children where
        loaded, else one query per 500 classes that loads no children (hundreds of subclasses of a django model base
        or field, for one constructor)."""
        known = self._defines.setdefault(name, {})
        want = sorted({c for c in classes if c not in known and not self.graph.children_loaded(c)})
        for c in want:
            known[c] = False
        for chunk in chunks(want):
            for (parent,) in self.conn.execute(
                f"SELECT DISTINCT parent_id FROM symbols WHERE parent_id IN ({in_list(chunk)}) AND name = ?", [*chunk, name]
            ):
                known[parent] = True
        return {
            c
            for c in classes
            if (known[c] if c in known else any(child.name == name for child in self.graph.children(c)))
        }

    def framework_hook(self, method: Node) -> bool:
        """Whether only code that dispatches on the object can call ``method``: a Python method that nothing
        in the repository calls (but by a name made at run time), names or overrides, of a class deriving (itself or through its in-repo
        bases) from a class the index does not have (``TextWrapper._wrap_chunks``, ``Thread.run``,
        ``JSONEncoder.default``: that base's own methods call it on the instances), or whose name the
        repository calls on objects of unknown type among too many classes to guess (:meth:`_dispatched_by_name`).
        The calls of and references to the class stand for its callers (:meth:`constructed_via`)."""
        if method.kind != "method" or method.parent_id is None or method.language != "python":
            return False
        if method.runnable_test:  # the test runner calls it: a test is where a walk ends, not a hook
            return False
        if method.name in _OUTSIDE_PROTOCOL_NAMES and self._outside_protocol(method):
            return True
        if method.name in _IMPORT_HOOKS:  # the uses of its class, where an instance goes into sys.meta_path, stand for it
            return True
        overrides = bool(self.graph.base_methods(method))
        if not overrides and self._extends_outside_method(method):
            return True
        incoming = self.graph.incoming([method.id])[method.id]
        # a look-up by a name made at run time (`getattr(self, "visit_" + name)`) dispatches as the outside base may:
        # beniget's `DefUseChains.visit_ClassDef`, which `gast.NodeVisitor.visit` runs too
        dispatched = all(e.resolution == "getattr" for e in incoming)
        # (or a mixin's, the outside base joining it in a subclass: parsel's `class HTMLTranslator(TranslatorMixin,
        # cssselect.HTMLTranslator)`, whose `xpath_element` cssselect's methods call)
        if dispatched and not overrides:
            hierarchy = [
                method.parent_id,
                *self.graph.transitive(method.parent_id, "bases"),
                *self.graph.transitive(method.parent_id, "subclasses"),
            ]
            self.graph.load_written_bases(hierarchy)
            if any(self.graph.has_outside_base(c) for c in hierarchy):
                return True
        # a protocol method may also be reached from a base's `self.m()` (dispatch), and override the base's own
        # (an abstract one): those are some of its callers, not the call by name on objects of unknown type
        return all(e.resolution == "dispatch" for e in incoming) and self._dispatched_by_name(method.name)

    def _extends_outside_method(self, method: Node) -> bool:
        """Whether ``method`` calls ``super().<its name>(...)`` (or ``Base.<its name>(self, ...)`` of a base its class
        names) in a class deriving from a class the index does not have: an override of that base's method, which the
        base's other methods call on the instances (flask's ``FlaskClient.open``, run by werkzeug's ``Client.get`` in
        every ``client.get(...)`` of the tests; pyquery's ``XPathExpr.join``, which calls ``XPathExprOrig.join(self,
        ...)`` and which cssselect's translator calls)."""
        assert method.parent_id is not None
        # the classes first (cached per class): few derive from an outside class, and the reference is one query
        if not any(self.graph.has_outside_base(c) for c in (method.parent_id, *self.graph.transitive(method.parent_id, "bases"))):
            return False
        written = [b for b in self.graph.written_bases(method.parent_id) if b not in INERT_BASES]
        found = self.conn.execute(
            "SELECT 1 FROM refs WHERE file_id=? AND scope_id=? AND kind='call' AND name=?"
            f" AND (receiver LIKE 'super%' OR receiver IN ({','.join('?' * len(written))})) LIMIT 1",
            (method.file_id, method.id, method.name, *written),
        ).fetchone()
        return found is not None

    def _outside_protocol(self, method: Node) -> bool:
        """Whether the class of ``method`` or one of its in-repo bases derives from a class of :data:`_OUTSIDE_PROTOCOLS`
        (by the base's last name as written) that calls methods of this name."""
        assert method.parent_id is not None
        return any(
            method.name in _OUTSIDE_PROTOCOLS.get(name, ())
            for cid in (method.parent_id, *self.graph.transitive(method.parent_id, "bases"))
            for name in self.graph.written_bases(cid)
        )

    def _dispatched_by_name(self, name: str) -> bool:
        """Whether the repository calls a method of this name on objects of unknown type with too many
        definitions to guess from (``spec.glomit(target, scope)`` with thirty classes defining ``glomit``): a
        protocol of its own, whose implementations run for the objects made from their classes."""
        found = self._protocols.get(name)
        if found is None:
            found = self._protocols[name] = (
                self.conn.execute(
                    f"SELECT 1 {_AMBIGUOUS_CALLS} LIMIT 1", (name,)
                ).fetchone()
                is not None
            )
        return found

    def _protocol_sites(self, name: str) -> list[tuple[int, int]]:
        """The (scope, line) of the calls ``x.<name>()`` that the resolver left ambiguous, one per scope, as
        many as PROTOCOL_MAX_SITES + 1 scopes (a row limit keeps a common name cheap: the walk asks for a
        changed method only)."""
        sites: dict[int, int] = {}
        for scope, line in self.conn.execute(
            f"SELECT r.scope_id, r.line {_AMBIGUOUS_CALLS} LIMIT ?", (name, 20 * PROTOCOL_MAX_SITES)
        ):
            sites.setdefault(int(scope), int(line))
            if len(sites) > PROTOCOL_MAX_SITES:
                break
        return sorted(sites.items())

    def protocol_callers(self, method: Node) -> list[EdgeIn]:
        """The scopes that call the method's name on objects of unknown type where more classes define it than
        the resolver matches (:meth:`_dispatched_by_name`): each may run this implementation (``_glom`` calls
        ``spec.glomit()``), with the confidence of a name match among that many. None when more than
        PROTOCOL_MAX_SITES scopes do: a name that common says nothing of who calls which."""
        if method.kind != "method" or is_special(method.name):
            return []
        sites = self._protocol_sites(method.name)
        if not sites or len(sites) > PROTOCOL_MAX_SITES:
            return []
        (defined,) = self.conn.execute(
            "SELECT count(*) FROM symbols WHERE name = ? AND kind = 'method'", (method.name,)
        ).fetchone()
        return _protocol_edges(method, sites, int(defined))

    def family_protocol_callers(self, method: Node) -> list[EdgeIn]:
        """For a special method Python runs for an operator or a builtin (``__eq__`` for ``==`` and ``in``,
        ``__lt__`` for ``<`` and sorting, ``__repr__`` for ``repr()``): the methods of its class hierarchy (every
        class below its topmost in-repo bases) that use it on objects of unknown type. In a recursive structure
        (an expression tree whose nodes compare their arguments) the operands are likely of the hierarchy. None
        when more than PROTOCOL_MAX_SITES methods do, or the hierarchy is larger than a receiver guess takes;
        the confidence of a name match among the hierarchy's definitions of the method."""
        if (
            method.kind != "method"
            or method.parent_id is None
            or method.language != "python"
            or not is_special(method.name)
            or method.name in COPY_METHODS
        ):
            return []
        tops = [c for c in [method.parent_id, *self.graph.transitive(method.parent_id, "bases")] if not self.graph.bases(c)]
        classes = set(tops)
        for top in tops:
            classes.update(self.graph.transitive(top, "subclasses"))
        if len(classes) > RECEIVER_GUESS_MAX_CLASSES:
            return []
        self.graph.load_children(classes)
        members = [c for cls in classes for c in self.graph.children(cls) if c.kind in FUNCTION_KINDS]
        scopes = sorted(m.id for m in members if m.id != method.id)
        sites: dict[int, int] = {}
        for chunk in chunks(scopes):
            for scope, line in self.conn.execute(
                f"SELECT scope_id, min(line) FROM refs WHERE scope_id IN ({in_list(chunk)}) AND name = ?"
                " AND kind IN ('call', 'hashkey') GROUP BY scope_id",
                [*chunk, method.name],
            ):
                sites[scope] = line
        if not sites or len(sites) > PROTOCOL_MAX_SITES:
            return []
        return _protocol_edges(method, sorted(sites.items()), sum(1 for m in members if m.name == method.name))

    def callable_callers(self, method: Node) -> list[EdgeIn]:
        """For a Python class's ``__call__``: the scopes outside the tests that call one of their parameters, or a
        parameter of a function they are nested in, where the resolver found nothing it holds (voluptuous's
        ``def _compile_scalar(schema): ... def validate_callable(path, data): return schema(data)`` runs every
        validator object a schema is made of). Each may run this one, with the confidence of a name match among the
        project's ``__call__`` methods; none when more than PROTOCOL_MAX_SITES scopes do (callbacks everywhere)."""
        if method.kind != "method" or method.name != "__call__" or method.language != "python":
            return []
        if self._parameter_calls is None:
            self._parameter_calls = self._find_parameter_calls()
        sites = self._parameter_calls
        if not sites or len(sites) > PROTOCOL_MAX_SITES:
            return []
        (defined,) = self.conn.execute(
            "SELECT count(*) FROM symbols WHERE name = '__call__' AND kind = 'method'"
        ).fetchone()
        return _protocol_edges(method, sites, int(defined))

    def _find_parameter_calls(self) -> list[tuple[int, int]]:
        """The (scope, line) of :meth:`callable_callers`, one per scope, as many as PROTOCOL_MAX_SITES + 1."""
        # a superset from the database (the name in the scope's or its parent's parameter list, no edge out of that
        # line): the parameter lists are checked below, with the functions further out
        rows = self.conn.execute(
            "SELECT r.scope_id, r.line, r.name FROM refs r JOIN files f ON f.id = r.file_id"
            " JOIN symbols s ON s.id = r.scope_id LEFT JOIN symbols p ON p.id = s.parent_id"
            " WHERE r.kind = 'call' AND r.receiver = '' AND f.language = 'python' AND f.is_test = 0"
            " AND s.kind IN ('function', 'method')"
            " AND (instr(s.params, r.name) > 0 OR (p.kind IN ('function', 'method') AND instr(p.params, r.name) > 0))"
            " AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.src_id = r.scope_id AND e.line = r.line AND e.kind = 'call')"
        )  # read lazily, a batch at a time: past PROTOCOL_MAX_SITES scopes the answer is "too many", whichever they are
        sites: dict[int, int] = {}
        while len(sites) <= PROTOCOL_MAX_SITES and (batch := rows.fetchmany(500)):
            nodes = self.graph.nodes(r[0] for r in batch)
            for scope_id, line, name in batch:
                node = nodes.get(scope_id)
                if node is None or node.in_test_file:
                    continue
                if any(name == param_name(p) for n in [node, *self.graph.makers(node)] for p in n.params):
                    sites[scope_id] = min(line, sites.get(scope_id, line))
                    if len(sites) > PROTOCOL_MAX_SITES:
                        break
        return sorted(sites.items())

    def closure_maker(self, fn: Node) -> list[EdgeIn]:
        """For a function defined in a function: the enclosing function, as a caller. It runs the inner one,
        returns it (a decorator's wrapper, a factory's closure: whoever called the maker calls what it got)
        or hands it on (a callback): in each case the maker's callers are where the inner function runs.
        A Python class defined in a function: its body runs when the function does."""
        nested_class = fn.kind in CLASS_KINDS and fn.language == "python"
        if (fn.kind not in FUNCTION_KINDS and not nested_class) or fn.parent_id is None:
            return []
        maker = self.graph.nodes([fn.parent_id]).get(fn.parent_id)
        if maker is None or maker.kind not in FUNCTION_KINDS:
            return []
        return [EdgeIn(maker.id, fn.id, "call", 1.0, "closure", fn.start_line)]

    def classes_made(self, method: Node, made: Sequence[EdgeIn]) -> list[EdgeIn]:
        """For a method a metaclass of the repository runs when it makes a class (any but ``__call__``, which runs
        when the class is called: wtforms' ``FormMeta.__setattr__``): the scopes whose code makes a class naming the
        metaclass in its header (``made``: the uses of the metaclass, :meth:`constructed_via`) or deriving from one,
        each defined where it runs on import (a module body) or when its function runs."""
        if not made or method.name == "__call__" or not is_special(method.name) or method.parent_id is None:
            return []
        if not self.graph.is_metaclass(method.parent_id):
            return []
        named = self.graph.nodes(e.src for e in made if e.kind == "ref")
        headers = [c for c, n in named.items() if n.kind in CLASS_KINDS]
        # (one query for the classes, one for where they are defined: a base form has a class per test)
        classes = self.graph.nodes(dict.fromkeys([*headers, *(s for c in headers for s in self.graph.transitive(c, "subclasses"))]))
        scopes = self.graph.nodes(c.parent_id for c in classes.values() if c.parent_id is not None)
        out: list[EdgeIn] = []
        for cls in classes.values():
            where = scopes.get(cls.parent_id) if cls.parent_id is not None else None
            if where is not None:
                how = "import-time" if where.kind == "module" else "metaclass"
                out.append(EdgeIn(where.id, method.id, "call", 1.0, how, cls.start_line))
        return out

    def _names_as_value(self, scope: int, name: str) -> bool:
        """Whether ``scope`` names ``name`` as a value (assigned, passed, returned, or spelt in a dotted string: a
        logging configuration's ``"()": "colorlog.ColoredFormatter"``), not only in annotations."""
        namers = self._value_namers.get(name)
        if namers is None:  # one query per class name: a walk asks about every scope that uses the class
            rows = self.conn.execute(
                "SELECT DISTINCT scope_id FROM refs WHERE name=? AND kind IN ('ref', 'dotted')", (name,)
            )
            namers = self._value_namers[name] = frozenset(r[0] for r in rows)
        return scope in namers


def _protocol_edges(method: Node, sites: list[tuple[int, int]], defined: int) -> list[EdgeIn]:
    """Edges into ``method`` from the (scope, line) ``sites`` that call its name on objects of unknown type, with the
    confidence of a name match among the ``defined`` methods of that name (its own call sites left out)."""
    confidence = round(0.5 / max(defined, 1), 3)
    return [EdgeIn(scope, method.id, "call", confidence, "protocol", line) for scope, line in sites if scope != method.id]
