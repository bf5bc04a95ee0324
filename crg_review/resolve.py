"""References → symbols: import-aware resolution with a recorded method and confidence per edge.

The resolver reads the parsed facts of the store (symbols, refs, imports, bases) and writes edges for
the files it is asked to resolve. Resolving a file is a pure function of the whole index's facts, so an
incremental update that re-resolves every file whose answer may have changed equals a full rebuild
(:func:`crg_review.affected.affected_files` computes that set). It reads the index through the parts it owns:
where a module lives (:class:`~crg_review.modulemap.ModuleMap`), the symbols
(:class:`~crg_review.symbols.SymbolTable`), the class hierarchy (:class:`~crg_review.hierarchy.ClassHierarchy`) and
the facts stated about each file (:class:`~crg_review.facts.FileFacts`).

Resolution methods (``edges.resolution``): ``local`` (same file scope), ``import`` (an import binding),
``reexport`` (through another module's import), ``module`` (attribute of an imported module),
``self`` / ``super`` / ``class`` (member look-up through in-repo bases), ``dispatch`` (an override in a
subclass that a ``self`` call or a typed receiver can reach), ``constructor`` (``Cls()`` → ``__new__``,
``__init__``), ``property``, ``typed`` (a receiver whose class the file's facts tell: assignments,
annotations, casts, returns, loop items, decorators; see :meth:`facts.FileFacts.variables`), ``package`` (same
package/directory), ``fixture`` (pytest fixture by parameter name), ``returned`` (a function another
returns by name, called: ``make(...)(...)``, ``@wraps(f)``), ``wrapper`` (the nested function a decorator returns,
run by a call of a function of the same file it decorates), ``decorated`` (in such a wrapper, the decorator's
parameter called, or in a descriptor's ``__get__``: each function of the file the decorator decorates), ``held``
(an attribute assigned functions by name, called: ``self.key = key or make_key``), ``table`` (a function taken
from a table of functions the file fills, ``f = FUNCS.get(k); f(x)``: each of the table's), ``generator``
(a generator function whose call a called function of the same file returns: iterating the result runs it), ``key``
(``__hash__``/``__eq__`` of a typed value used as a subscript or searched for with ``in``: a dict or a set runs
them), ``passed`` (a function given by name to a function of the same file that calls one of its parameters, at the
line of that call), ``spawn`` (a command line in the code running a module of the repository, ``[sys.executable, "-m",
"pkg.cli"]``: its ``if __name__ == "__main__":`` block, or a package's ``__main__.py``), ``class-attribute``
(``self.name(...)`` where a class body binds ``name`` to a function or class: ``_match = staticmethod(util.check)``),
``argparse`` (``args.func(args)`` where the file gives ``set_defaults(func=cmd)`` to a parser), ``instances`` (a
method of an item of a table of instances of several classes, ``converter = CONVERTERS[lang]; converter.to_ordinal(n)``:
as sure as the share of the classes whose method it is), ``getattr-hook``
(``x.name`` on a typed receiver whose class lacks ``name`` but has a ``__getattr__``, which Python then calls),
``receiver-name`` (``engine.render()`` on a
receiver of unknown type: the method of that name in the class named after the receiver, ``RenderEngine``, 0.5; 0.3
each when several are), ``name-match`` (only
the name is known; confidence falls with the number of candidates).

Protocol calls the parser adds (``__call__`` for a variable called, ``__iter__`` for a loop, ``__add__``,
``__lt__``, ``__str__``, ... for operators and builtins) resolve like any ``receiver.method()`` call; since
they are references named after the method, a class that gains or loses one re-resolves their files. A
function given by name to a standard one that calls it (``callback`` references: ``map(f, xs)``,
``sorted(xs, key=f)``) is a call of it from the scope that gives it.
"""

from __future__ import annotations

import builtins
import logging
import posixpath
import re
import sqlite3
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from .facts import LOOKUP_FACT, Fact, FileFacts
from .hierarchy import ClassHierarchy
from .model import (
    CLASS_KINDS,
    CLASS_TEST_HOOKS,
    FUNCTION_TEST_HOOKS,
    MAIN_SCOPE,
    MODULE_TEST_HOOKS,
    RETURN_FACT,
    decorator_name,
    fixture_given_name,
    param_name,
)
from .modulemap import ModuleMap
from .store import escape_like
from .symbols import SYM_COLUMNS, Sym, SymbolTable, is_overload, name_fits, sym_from_row
from .typetext import call_chain, class_object_names, element_name, strip_generics, type_head, type_name, type_names

log = logging.getLogger(__name__)

__all__ = [
    "FAMILY_CONFIDENCE", "LOOKUP_KINDS", "MAX_CANDIDATES", "MAX_FAMILIES", "ORDERING_METHODS", "PROTOCOL_METHODS",
    "RETURN_FACT", "Resolver",
]

#: a bare name matching more definitions than this is left unresolved as ``ambiguous`` (unless they are the
#: overrides of a method in at most MAX_FAMILIES class hierarchies)
MAX_CANDIDATES = 16
#: facts that bind a name (a variable), unlike `x[k] = v` or `x.append(v)`, which add to what it holds
_BINDING_FACTS = frozenset({"assign", "alias", "element", "lookup", "unpack"})
MAX_FAMILIES = 3

_PY_BUILTINS = frozenset(dir(builtins))
#: the built-in classes (``int``, ``dict``, ``bytes``, ``ValueError``...): ``int.from_bytes(...)`` is theirs
_PY_BUILTIN_TYPES = frozenset(n for n in _PY_BUILTINS if isinstance(getattr(builtins, n), type))
_CALLABLE_KINDS = ("function", "method", "class", "struct", "interface", "trait", "enum")
#: what a function returns by name that a call of its result runs: a function, or a class it constructs
#: (fastjsonschema's `_get_code_generator_class(schema)(...)` returning `CodeGeneratorDraft07`)
_RETURNED_CALLABLE_KINDS = ("function", "method", "class")
_CLASS_KINDS = CLASS_KINDS
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
#: outside modules whose functions return objects they are given or find (``copy.copy(self)``, ``cast(T, v)``,
#: ``import_module(name)``, ``reduce``): what they return may be the project's own
_PASSTHROUGH_MODULES = frozenset(
    ("copy", "pickle", "typing", "typing_extensions", "weakref", "functools", "operator", "itertools", "importlib",
     "inspect", "builtins", "contextlib", "dataclasses", "types", "sys", "gc", "abc", "attr", "attrs", "six")
)
_PROPERTY_DECORATORS = ("property", "cached_property", "functools.cached_property")
_SAME_PACKAGE_LANGUAGES = frozenset(("go", "java", "csharp", "rust", "c", "cpp", "ruby"))
#: the special methods an operator runs (``a == b``, ``a + b``, ``a += b``, ``k in a``)
_OPERATOR_DUNDERS = frozenset(
    ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__contains__"]
    + [f"__{p}{op}__" for p in ("", "r", "i") for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow")]
    + [f"__{p}{op}__" for p in ("", "r", "i") for op in ("matmul", "lshift", "rshift", "and", "or", "xor")]
)
#: the special methods a statement runs on an operand, looked up by a variable's whole name (:meth:`_unbound`):
#: an operator's, and a loop's or an unpacking's ``__iter__`` (tinycss2's ``(*coordinates, alpha) = color``)
_WHOLE_NAME_DUNDERS = _OPERATOR_DUNDERS | {"__iter__"}
#: Python's own special methods (and those the parser adds for operators and builtins): an object of any
#: class may have them, so their name alone says nothing; a project's own ``x.__html__()`` does
_PROTOCOL_METHODS = frozenset(
    [n for n in dir(object) + dir(int) + dir(list) + dir(dict) + dir(type) if n.startswith("__")]
    + sorted(_OPERATOR_DUNDERS)
    + ["__call__", "__enter__", "__exit__", "__aenter__", "__aexit__", "__iter__", "__next__", "__aiter__"]
    + ["__anext__", "__await__", "__get__", "__set__", "__delete__", "__set_name__", "__getattr__", "__fspath__"]
    + ["__post_init__", "__class_getitem__", "__missing__", "__bytes__", "__complex__", "__length_hint__"]
)
#: the special methods Python itself calls (the impact walk reaches them through their class's users)
PROTOCOL_METHODS = _PROTOCOL_METHODS
#: the most lines a class body's ``x = property(...)`` (or staticmethod) statement is read over for its functions
_STATEMENT_LINES = 8
#: how a name binds a definition itself: in its file, through an import, as a module's attribute
_DEFINITION_BINDINGS = frozenset(("local", "import", "reexport", "module", "package"))
#: confidence of an override reached from a typed receiver when there are at most two (then it falls)
_TYPED_DISPATCH_CONFIDENCE = 0.6
#: references of a member looked up by a literal name prefix (``getattr(self, f"visit_{...}")``; ``getattrcall``
#: when the result is called), named ``<prefix>*``; every member of that prefix may be the one
LOOKUP_KINDS = frozenset(("getattr", "getattrcall"))
#: one of the members of a prefix runs for each name the program builds: each is likely, none is certain
_LOOKUP_CONFIDENCE = 0.5
#: the shortest literal head of a looked-up name (``"visit" + name``) matched against methods of any class
_PREFIX_GUESS_MIN = 3
#: a wrapper calls the one function it was made for: each of those a decorator decorates is likely at most this
_DECORATED_CONFIDENCE = 0.5
#: a function registered with another by a decorator of it (`@cli.command()`): run when that one dispatches to it
_REGISTERED_CONFIDENCE = 0.6
#: an attribute a class lacks, run through its ``__getattr__``: likely, yet an instance attribute set elsewhere
#: (``self.handler = handler``) is found before it
_GETATTR_CONFIDENCE = 0.6
#: ``Cls.from_x(...)`` where ``Cls`` inherits ``from_x`` from a base outside the repository: an alternate constructor by
#: its name, likely making a ``Cls``, though not certainly (it may build another class, or none)
_OUTSIDE_FACTORY_CONFIDENCE = 0.5
#: `@x.setter` and its kin: they add to a property, which no call runs
_ACCESSOR_DECORATORS = frozenset(("setter", "getter", "deleter"))
#: an attribute assigned one function by name (``self.key = key or make_key``): a caller may have passed another
_HELD_CONFIDENCE = 0.9
#: a method of an item of a table of instances (``CONVERTERS[lang].to_ordinal(n)``) when every instance has it
_INSTANCES_CONFIDENCE = 0.9
#: ``x.m()`` on an unknown receiver where every method named m is in one class family (the classes share an in-repo
#: ancestor): a polymorphic call of that family's method (mistletoe's `for token_type in token_types:
#: token_type.start(line)` over a dozen token classes), as likely as the walk needs to follow it; above 0.5 / 2, so
#: a name match of several candidates this sure is one of a family (impact: no built-in type's method then)
FAMILY_CONFIDENCE = 0.3
#: confidence of each of several methods a mixin's ``super().m()`` runs (one per subclass order; as a dispatch)
_COOPERATIVE_CONFIDENCE = 0.7
#: ``x.m()`` on a receiver of unknown type named after the one class that defines m under that name
#: (``engine.render()`` where the candidates of ``render`` include ``RenderEngine.render``)
_RECEIVER_NAME_CONFIDENCE = 0.5
#: ``param.m()`` where ``param`` is annotated with an outside class that classes of the repository derive from: one
#: of their overrides of m may run
_OUTSIDE_DISPATCH_CONFIDENCE = 0.5
#: the words of a name (``HTMLParser`` -> HTML, Parser; ``_EscapeNode`` -> Escape, Node; ``single_tag``, ``singleTag``)
_CAMEL_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
#: a generator a called function returns: its body runs where the result is iterated, which may be a caller of the
#: caller (`return _zip_equal(*args)` passes it on); and one of several runs
_GENERATOR_CONFIDENCE = 0.4
#: a typed value used as a subscript or searched for: its __hash__ and __eq__ run if the container hashes
_KEY_CONFIDENCE = 0.4
#: what calling a Python class runs
_CONSTRUCTORS = ("__new__", "__init__")
#: how sure a command line naming a module is to run its `__main__` block (it may run another copy of the module,
#: an installed one)
_SPAWN_CONFIDENCE = 0.9
#: how sure a dotted path in a string is to name the definition it spells (it may be a message, another copy)
_STRING_CONFIDENCE = 0.8
#: a function given by name to a function of the same file that calls one of its parameters: likely the one called
_PASSED_CONFIDENCE = 0.6
#: how many lines above a function given by name the call it is an argument of may start, and how sure that is
_CALL_SPAN = 12
_PASSED_BELOW_CONFIDENCE = 0.4
_SELF_NAMES = frozenset(("self", "cls", "this", "@"))
#: dotted names in an annotation, and how many of them a decorator's return annotation is searched for
_DOTTED = re.compile(r"[A-Za-z_][\w.]*")
#: an attribute of what a call makes, ``Spec(s).clause``: (callee, attribute)
_MADE_ATTRIBUTE = re.compile(r"([A-Za-z_][\w.]*)\([^()]*\)\.([A-Za-z_]\w*)")
_MAX_ANNOTATION_NAMES = 8


@dataclass(frozen=True)
class Target:
    sym: Sym
    resolution: str
    confidence: float
    candidates: int = 1


def _decorator_call(scope: Sym, name: str, receiver: str) -> bool:
    """Whether a call in ``scope`` is that of one of its decorators with arguments (``@signature("a")``: the
    parser gives it the decorated function's scope, as the call of a bare ``@deco`` is its ``decorator``)."""
    if not scope.decorators:
        return False
    called = f"{receiver}.{name}" if receiver else name
    return any(d.partition("(")[0].strip() == called for d in scope.decorators if "(" in d)


class Resolver:
    """Resolves the references of given files against the whole index. Caches look-ups per instance,
    so use one instance per update (after all files of the update are stored)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.modules = ModuleMap(conn)
        self.symbols = SymbolTable(conn, self.modules)
        self.hierarchy = ClassHierarchy(conn, self.symbols)
        self.file_facts = FileFacts(conn, self.symbols)
        self._file_imports: dict[int, list[sqlite3.Row]] = {}
        self._set_defaults: dict[int, frozenset[str]] = {}  # file → keywords of its `set_defaults(...)` calls
        self._prefix_guessed: dict[tuple[str, str | None, bool], list[Target]] = {}  # :meth:`_prefix_guesses`
        self._base_items: dict[tuple[int, int], list[Sym]] = {}  # :meth:`_base_elements`
        self._binding_maps: dict[int, tuple[dict[tuple[int, str], list[sqlite3.Row]], dict[int, list[sqlite3.Row]]]] = {}
        self._lookups: dict[tuple[int, int, str], list[Target]] = {}
        self._scoped_lookups: dict[tuple[int, int, str], list[Target]] = {}
        self._in_progress: set[tuple[int, int, str]] = set()
        self._candidate_cache: dict[tuple[str, bool], list[Sym]] = {}
        self._anywhere: dict[int, dict[str, sqlite3.Row]] = {}
        self._renamed: dict[str, list[Sym]] | None = None  # :meth:`_renamed_fixtures`
        self._return_cache: dict[tuple[int, int, str], list[Sym]] = {}
        self._module_aliases: dict[int, dict[str, list[str]]] = {}
        self._module_instances: dict[int, dict[str, list[str]]] = {}
        self._signatures: dict[int, str] = {}
        self._aliases: dict[int, Sym | None] = {}  # class-body alias -> what it binds (_aliased)
        self._decorated_cache: dict[int, list[Sym]] = {}
        self._decorated_by_name: dict[str, list[Sym]] | None = None
        self._decorating: dict[int, list[Target]] = {}  # decorator function → :meth:`_decorated_by`
        self._stored_calls: dict[int, list[Sym]] = {}
        self._forwarded: dict[int, list[str]] = {}  # __getattr__ → the attributes of self it forwards to (_delegated)
        self._getattribute: dict[int, list[Target]] = {}  # class → the __getattribute__ a read of self.x runs
        self._properties: dict[str, bool] = {}  # whether a class body makes the attribute a property(...) (_typed_properties)
        self._self_facts: dict[tuple[int, int, str, bool], list[tuple[Sym, Fact]]] = {}  # _facts_of for self.x
        self._iterated: dict[tuple[int, int, str], list[Sym]] = {}  # _iterated_classes asked at depth 0
        self._class_callables: dict[str, bool] = {}
        self._families: dict[str, bool] = {}
        self._one_families: dict[str, bool] = {}
        self._module_families: dict[str, list[Sym]] = {}  # by name: Resolver._module_family
        self._base_name_cache: dict[int, frozenset[str]] = {}
        #: _types_of by (file, scope, variable, depth): a deeper ask may be cut short, so the depth is part of the key
        self._types_cache: dict[tuple[int, int, str, int], list[Sym]] = {}
        self._depth = 0

    # --- cached look-ups -------------------------------------------------------------------------

    def preload(self) -> None:
        """Load every symbol at once (a full build resolves everything; one query beats thousands)."""
        self.symbols.preload()

    def imports_of(self, file_id: int) -> list[sqlite3.Row]:
        if file_id not in self._file_imports:
            self._file_imports[file_id] = self.conn.execute(
                "SELECT id, scope_id, module, name, alias, level, line FROM imports WHERE file_id=? ORDER BY id",
                (file_id,),
            ).fetchall()
        return self._file_imports[file_id]

    def preload_bases(self) -> None:
        """Read every inheritance edge at once (a full build, after :meth:`resolve_bases`)."""
        self.hierarchy.preload_bases()

    def _scope_chain(self, scope: Sym) -> list[Sym]:
        chain: list[Sym] = []
        s: Sym | None = scope
        while s is not None:
            chain.append(s)
            s = self.symbols.sym(s.parent_id) if s.parent_id is not None else None
        return chain

    def _facts_of(self, fid: int, scope: Sym, var: str, *, bases_elsewhere: bool = False) -> list[tuple[Sym, Fact]]:
        """The facts about ``var`` with the scope each was stated in: those of the nearest scope that
        assigns or annotates it; for ``self.x``, those of every method of the enclosing class and the
        class body's ``x: T = ...`` (or else of the nearest in-repo base of the same file that states any;
        ``bases_elsewhere``: of any file, the scope each was stated in tells which: the store names the
        class when they change, store._class_facts); for ``return`` (what a function returns), the scope's own."""
        facts = self.file_facts.variables(fid)
        if not facts and not bases_elsewhere:
            return []
        if var.startswith(("self.", "cls.")):
            cls = self.symbols.enclosing_class(scope)
            if cls is None:
                return []
            attr = var.split(".", 1)[1]
            key = (fid, cls.id, attr, bases_elsewhere)
            cached = self._self_facts.get(key)
            if cached is not None:  # (what a class's attribute holds is asked for every use of it in its methods)
                return list(cached)  # (a copy: callers add to what they get)
            out: list[tuple[Sym, Fact]] = []
            for cid in self.hierarchy.linearized(cls.id) if cls.kind == "class" else [cls.id]:
                owner = self.symbols.sym(cid)
                if owner.file_id != fid and not bases_elsewhere:
                    continue
                stated = facts if owner.file_id == fid else self.file_facts.variables(owner.file_id)
                out = [(m, f) for m in self.symbols.children(cid) for f in stated.get((m.id, "self." + attr), [])]
                out.extend((owner, f) for f in stated.get((cid, attr), []))
                if out:
                    break
            self._self_facts[key] = list(out)
            return out
        if var == RETURN_FACT:
            return [(scope, f) for f in facts.get((scope.id, var), [])]
        added: list[tuple[Sym, Fact]] = []
        for s in self._scope_chain(scope):
            found = facts.get((s.id, var))
            if found and all(kind == "item" for kind, _ in found):
                # `section[entry] = check` in a nested function adds to the name, binds nothing: what it holds is
                # stated further out (`section = self` in the function around it)
                added.extend((s, f) for f in found)
            elif found:
                return added + [(s, f) for f in found]
        return added

    def _property_value(self, fid: int, scope: Sym, var: str) -> list[Sym] | None:
        """For ``self.timer`` where ``timer`` is a property of the enclosing class: the classes its getter
        returns; None for anything else."""
        if not var.startswith(("self.", "cls.")) or var.count(".") != 1 or self._depth > 4:
            return None
        cls = self.symbols.enclosing_class(scope)
        prop = self.hierarchy.member(cls.id, var.partition(".")[2]) if cls is not None else None
        if prop is None or not _is_property(prop):
            return None
        self._depth += 1
        try:
            return self._returns(prop, fid)
        finally:
            self._depth -= 1

    def _property_values(self, fid: int, scope: Sym, var: str, attr: str) -> list[Sym]:
        """For ``req.GET`` where ``req`` holds an instance of a class whose ``GET`` is a property: the classes its
        getter returns (webob's ``del req.GET[k]`` runs the ``__delitem__`` of the GetDict the property makes)."""
        if self._depth > 4:
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            for cls in self._types_of(fid, scope, var):
                prop = self._instance_member(cls.id, attr, fid)
                if prop is not None and _is_property(prop):
                    out.extend(c for c in self._returns(prop, fid) if c not in out)
        finally:
            self._depth -= 1
        return out

    def _types_of(self, fid: int, scope: Sym, var: str) -> list[Sym]:
        """Classes a variable holds, from ``var = Cls(...)``, annotations, ``for var in ...`` and aliases in
        its scope chain."""
        if self._depth > 4:  # what follows would find nothing to add at this depth: ask no facts
            return []
        key = (fid, scope.id, var, self._depth)
        cached = self._types_cache.get(key)
        if cached is None:
            cached = self._types_asked(fid, scope, var)
            if not self._in_progress:  # (an import cycle's guard cuts a look-up short: not kept)
                self._types_cache[key] = cached
        return list(cached)  # (a copy: callers add to what they get)

    def _types_asked(self, fid: int, scope: Sym, var: str) -> list[Sym]:
        found = self._facts_of(fid, scope, var, bases_elsewhere=True)
        if not found and (held := self._property_value(fid, scope, var)) is not None:
            return held
        if not found and self._depth <= 4 and var.isidentifier():
            imported = self._imported_instances(fid, scope, var)
            if imported:
                return imported
        if not found and self._depth <= 4 and var.isidentifier():
            return self._fixture_value(fid, scope, var)
        if not found or self._depth > 4:
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            for where, (kind, text) in found:
                wf = where.file_id  # a base class of another file states it there (_facts_of)
                if kind == "element":
                    out.extend(c for c in self._elements(wf, where, text) if c not in out)
                    continue
                if kind == "lookup":  # an item of a collection: the classes of the instances added to it
                    held = self._held_classes(wf, where, text)
                    if not held and all(p.isidentifier() for p in text.split(".")):
                        # `Unit["YEARS"]`: a member of an enumeration, an instance of it (humanize's `minutes < years`)
                        held = [c for c in self._resolve_type_text(wf, where, text) if self._is_enum(c)]
                    out.extend(c for c in held if c not in out)
                    continue
                if kind in ("item", "unpack"):  # what the collection holds, not what it is; an item of one
                    continue
                if kind == "alias" and "(" in text and not text.endswith(")"):
                    # `clause = Spec(s).clause`: what Spec's methods assign self.clause, not a Spec (an assigned call's
                    # `regex(...).map` stays typed by its first callee: fluent interfaces return their own class)
                    made = _MADE_ATTRIBUTE.fullmatch(text)
                    if made is not None:
                        out.extend(c for c in self._made_attribute(wf, where, made[1], made[2]) if c not in out)
                    continue
                # `writer: File | Field | Base64Decoder | None`: each class of a union (python-multipart)
                for name_text in type_names(text) if kind == "assign" else [type_name(text)]:
                    if not name_text:
                        continue
                    if name_text in ("self", "cls"):  # x = self, x = cls(): an instance of the enclosing class
                        cls = self.symbols.enclosing_class(where)
                        if cls is not None and kind == "assign" and name_text == "self":  # x = self(): what __call__ returns
                            call = self.hierarchy.member(cls.id, "__call__")
                            out.extend(c for c in (self._returns(call, wf) if call is not None else []) if c not in out)
                        elif cls is not None and cls not in out:
                            out.append(cls)
                        continue
                    found_here = self._made_by(wf, where, name_text)  # x = Cls(...), x = make_thing() -> Thing
                    if not found_here and name_text != var and ("." not in name_text or name_text.startswith("self.")):
                        # self.x = x, where the parameter x is annotated; x = self.y
                        found_here = self._types_of(wf, where, name_text)
                    out.extend(c for c in found_here if c not in out)
        finally:
            self._depth -= 1
        return out

    def _made_attribute(self, fid: int, scope: Sym, callee: str, attr: str) -> list[Sym]:
        """Classes of ``callee(...).attr``: of what the methods of the classes the call makes assign ``self.attr``,
        for those classes of this file (another file's facts are not read here)."""
        out: list[Sym] = []
        for cls in self._made_by(fid, scope, callee):
            inside = self._a_method(cls) if cls.file_id == fid else None
            if inside is not None:
                out.extend(c for c in self._types_of(fid, inside, f"self.{attr}") if c not in out)
        return out

    def _a_method(self, cls: Sym) -> Sym | None:
        """A method of the class, to ask what ``self.x`` holds from (:meth:`_facts_of` reads every method's)."""
        return next((m for m in self.symbols.children(cls.id) if m.kind == "method"), None)

    def _imported_instances(self, fid: int, scope: Sym, var: str) -> list[Sym]:
        """For a name imported from a module of the repository that makes it at its top (``from .backend import
        json`` where backend.py says ``json = JSONBackend()``), or that imports it in turn: the classes made there."""
        if self.modules.file(fid)[1] != "python":
            return []
        named, _ = self._bindings(fid)
        for i, enclosing in enumerate(self._scope_chain(scope)):
            if i > 0 and enclosing.params and var in _param_names(enclosing):
                return []
            rows = named.get((enclosing.id, var))
            if not rows:
                continue
            out: list[Sym] = []
            self._depth += 1
            try:
                for imp in rows:
                    imported = imp["name"]
                    if imported is None or imported == "*":
                        continue
                    for f in self.modules.module_files(fid, imp["module"], imp["level"]):
                        if self.export(f, imported):  # a definition, or a re-export of one: no variable
                            continue
                        out.extend(c for c in self._module_instances_of(f, imported) if c not in out)
            finally:
                self._depth -= 1
            return out
        return []

    def _module_instances_of(self, f: int, variable: str) -> list[Sym]:
        """The classes of what a module makes at its top and keeps in ``variable`` (``json = JSONBackend()``), or
        of what it imports under that name in turn."""
        module = self.symbols.module_symbol(f)
        made = self._module_instances.get(f)
        if made is None:  # these rows only (see _module_alias)
            made = self._module_instances[f] = {}
            for name, text in self.conn.execute(
                "SELECT name, receiver FROM refs WHERE file_id=? AND scope_id=? AND kind='assign' ORDER BY id",
                (f, module.id),
            ):
                made.setdefault(name, []).append(text)
        found = [c for text in made.get(variable, []) for c in self._made_by(f, module, text)]
        if not found and self._depth <= 4:
            found = self._imported_instances(f, module, variable)
        return found

    def _fixture_value(self, fid: int, scope: Sym, param: str) -> list[Sym]:
        """For a parameter of a test or of a pytest fixture that names a fixture (``def test_x(pickler):`` where
        ``def pickler(): return Pickler()``): the classes the fixture returns."""
        if param not in _param_names(scope) or not (scope.is_test or any(_is_fixture_decorator(d) for d in scope.decorators)):
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            for t in self._fixture(fid, scope, param, ""):
                out.extend(c for c in self._returns(t.sym, fid) if c not in out)
        finally:
            self._depth -= 1
        return out

    def _class_objects(self, fid: int, scope: Sym, var: str) -> list[Sym]:
        """Classes a variable holds as class objects (calling it constructs one): ``x = Cls``,
        ``x: type[Cls]``, ``self.x = x`` of such an ``x``."""
        found = self._facts_of(fid, scope, var)
        if not found or self._depth > 4:  # (a property's getter returns instances: see _types_of)
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            for where, (kind, text) in found:
                if kind == "assign":  # `cls: type[Field]`, or a union naming it (`Field | type[Field]`: marshmallow)
                    names = class_object_names(text)
                elif kind == "alias":
                    names = [text]
                elif kind == "lookup" and _DOTTED.fullmatch(text):
                    # `ConfigAttribute[bool]("TESTING")` (flask): a generic class subscripted is the class (an
                    # enumeration's `Color["RED"]` is a member, left out below)
                    names = [text]
                else:
                    continue
                for name_text in names:
                    receiver, _, name = name_text.rpartition(".")
                    hits = [
                        t.sym
                        for t in self._resolve_name(fid, where, name, receiver, "type")
                        if t.resolution != "name-match"
                        and t.sym.kind in _CLASS_KINDS
                        and not (kind == "lookup" and self._is_enum(t.sym))
                    ]
                    if kind == "alias" and name_text != var:
                        # (a parameter's default names one class, its annotation may name more: `error: Type[A] |
                        # Type[B] = A`)
                        hits.extend(c for c in self._class_objects(fid, where, name_text) if c not in hits)
                    out.extend(c for c in hits if c not in out)
        finally:
            self._depth -= 1
        return out

    def _attribute_class_objects(self, fid: int, cls: Sym, attr: str) -> list[Target]:
        """What calling an instance attribute that holds class objects runs, for a class of this file whose methods
        assign the attribute one: the classes and their constructors (docopt's ``raise tokens.error(...)`` for
        ``def parse_longer(tokens: Tokens)``, where ``Tokens.__init__`` says ``self.error = error`` of a parameter
        ``error: Type[DocoptExit] | Type[DocoptLanguageError] = DocoptExit``). Another file's facts are not read here."""
        if cls.file_id != fid or cls.kind not in _CLASS_KINDS:
            return []
        inside = self._a_method(cls)
        objects = self._class_objects(fid, inside, f"self.{attr}") if inside is not None else []
        return [Target(c, "typed", 0.9) for c in objects] + [
            t for c in objects for ctor in _CONSTRUCTORS for t in self._typed_dispatch(c, ctor)
        ]

    def _aliased_module_members(self, fid: int, scope: Sym, variable: str, name: str) -> list[Target]:
        """``x.name`` where ``x`` holds an imported module (``self._module = _ipv6``, or ``_ipv4`` elsewhere: netaddr's
        IPAddress): what each such module defines or exports by that name, one of them as sure as one in two."""
        modules: list[Sym] = []
        if self._depth > 4:  # `node = node.parent`: an alias of what the variable held before
            return []
        self._depth += 1
        try:
            for where, (kind, text) in self._facts_of(fid, scope, variable):
                if kind == "alias" and _DOTTED.fullmatch(text) and not text.startswith(("self.", "cls.")):
                    receiver, _, last = text.rpartition(".")
                    for t in self._resolve_name(fid, where, last, receiver, "ref"):
                        if t.sym.kind == "module" and t.resolution != "name-match" and t.sym not in modules:
                            modules.append(t.sym)
        finally:
            self._depth -= 1
        found = [t.sym for m in modules for t in self.export(m.file_id, name)]
        confidence = round(max(0.5, 1 / len(found)), 3) if found else 0
        return [Target(f, "module", confidence, len(found)) for f in dict.fromkeys(found)]

    def _bound_in_class_body(self, fid: int, scope: Sym, var: str) -> bool:
        """Whether every fact of ``self.x`` comes from a class body (``x = Cls``), none from a method."""
        found = self._facts_of(fid, scope, var)
        return bool(found) and all(where.kind in _CLASS_KINDS for where, _ in found)

    def _class_callable(self, name: str, receiver: str) -> bool:
        """Whether some method ``receiver.name`` may call is a classmethod or a staticmethod (called on a class object)."""
        found = self._class_callables.get(name)
        if found is None:
            found = self._class_callables[name] = any(
                d in ("classmethod", "staticmethod") for c in self._candidates(name, receiver) for d in c.decorators
            )
        return found

    def _iterated_classes(self, fid: int, scope: Sym, var: str) -> list[Sym]:
        """The classes a loop variable may hold as class objects: those of a table of the file it iterates (``for cls
        in self.ADAPTER_CLASSES:`` of itemadapter's ``ADAPTER_CLASSES = deque([DictAdapter, ...])``)."""
        if self._depth > 4:
            return []
        key = (fid, scope.id, var)
        if self._depth == 0 and key in self._iterated:  # (a deeper ask may be cut short: not kept)
            return self._iterated[key]
        out: list[Sym] = []
        facts = [  # `for cls in T.values()`; `for key, cls in T.items()`: its second name (as _looked_up_callables)
            (w, t.removesuffix(".values").removesuffix(".items"))
            for w, (k, t) in self._facts_of(fid, scope, var)
            if k == "element"
        ]
        if facts:
            self._depth += 1
            try:
                for where, container in facts:
                    if all(p.isidentifier() for p in container.split(".")):
                        held = self._table_callables(fid, where, container)
                        out.extend(c for c in held if c.kind in _CLASS_KINDS and c not in out)
            finally:
                self._depth -= 1
        if self._depth == 0:
            self._iterated[key] = out
        return out

    def _elements(self, fid: int, scope: Sym, text: str) -> list[Sym]:
        """Classes of the items of the iterable ``text`` (a callee or a variable): the element type of a
        return annotation or an annotation (``Iterator[T]``, ``list[T]``, ...), or of ``__iter__``."""
        if self._depth > 4 or not all(p.isidentifier() for p in text.split(".")):
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            receiver, _, name = text.rpartition(".")
            for t in self._resolve_name(fid, scope, name, receiver, "type"):
                if t.resolution != "name-match" and t.sym.kind in ("function", "method"):
                    out.extend(c for c in self._annotation_classes(t.sym, element=True) if c not in out)
            if not out:
                facts = self._facts_of(fid, scope, text)
                for where, (kind, fact) in facts:
                    if kind == "item":  # what was added to it counts only without an annotation (below)
                        found = []
                    elif kind == "assign" and element_name(fact):
                        found = self._resolve_type_text(fid, where, element_name(fact))
                    elif kind in ("assign", "alias"):
                        found = self._elements(fid, where, fact)
                    else:
                        found = []
                    out.extend(c for c in found if c not in out)
                if not out:  # `xs = []; xs.append(Cls(...))`, `xs = [Cls(...)]`
                    for where, (kind, fact) in facts:
                        # a function's own variable: what else is added to an attribute (`stack.filters.append(...)`
                        # in another file) or to a module's list is not seen here, and a typed item is no name-match
                        if kind == "item" and where.kind in ("function", "method") and "." not in text:
                            out.extend(c for c in self._item_classes(fid, where, fact) if c not in out)
            if not out:
                own = self.symbols.enclosing_class(scope) if text == "self" else None  # `for line in self`
                for cls in [own] if own is not None else self._types_of(fid, scope, text):
                    it = self.hierarchy.member(cls.id, "__iter__")
                    if it is not None:
                        out.extend(c for c in self._annotation_classes(it, element=True) if c not in out)
                    elif cls.file_id == fid:  # `class PatchedFile(list[Hunk])`: a collection base names its items
                        out.extend(c for c in self._base_elements(fid, cls) if c not in out)
        finally:
            self._depth -= 1
        return out

    def _base_elements(self, fid: int, cls: Sym) -> list[Sym]:
        """The classes of the items of a class of the file ``fid`` that derives from a subscripted collection
        (unidiff's ``class Hunk(list[Line])``: ``for line in self`` gets Lines), through its bases of the file."""
        key = (fid, cls.id)
        found = self._base_items.get(key)
        if found is None:
            found = self._base_items[key] = []
            depth, self._depth = self._depth, 0  # (kept: asked from any depth, the answer is the same)
            try:
                for cid in self.hierarchy.linearized(cls.id):
                    for (text,) in self.conn.execute("SELECT text FROM bases WHERE file_id=? AND symbol_id=?", (fid, cid)):
                        name = element_name(str(text))
                        scope = self.symbols.defined_in(self.symbols.sym(cid))
                        found.extend(c for c in (self._resolve_type_text(fid, scope, name) if name else []) if c not in found)
            finally:
                self._depth = depth
        return found

    def _held_classes(self, fid: int, scope: Sym, container: str) -> list[Sym]:
        """Classes of the instances a collection of this file holds (``CONVERTERS = {"en": Num2Word_EN(), ...}``):
        what ``CONVERTERS[lang]`` may be."""
        out: list[Sym] = []
        for where, (kind, text) in self._facts_of(fid, scope, container):
            if kind == "item" and text.endswith(")"):
                out.extend(c for c in self._item_classes(fid, where, text) if c not in out)
        return out

    def _item_classes(self, fid: int, scope: Sym, text: str) -> list[Sym]:
        """Classes of a value added to a collection (an ``item`` fact): of the instance a call makes
        (``Cls(...)``, or what ``make(...)`` returns), or of a variable."""
        callee, paren, _ = text.partition("(")
        if not paren:
            return self._types_of(fid, scope, text)
        if not all(p.isidentifier() for p in callee.split(".")):
            return []
        return self._made_by(fid, scope, callee)

    def _made_by(self, fid: int, scope: Sym, callee: str) -> list[Sym]:
        """Classes of what a call of ``callee`` makes: the class it names (protocols left out), or the classes
        the function it names returns."""
        out: list[Sym] = []
        receiver, _, name = callee.rpartition(".")
        for t in self._resolve_name(fid, scope, name, receiver, "type"):
            if t.resolution == "name-match":
                continue
            if t.sym.kind in _CLASS_KINDS:
                found = [] if self._is_protocol(t.sym) else [t.sym]
            elif t.sym.kind in ("function", "method"):
                found = self._returns(t.sym, fid)
            else:
                found = []
            out.extend(c for c in found if c not in out)
        if not out and not receiver and callee.isidentifier():
            # `adapter = cls(item)` of a loop variable over a table of classes (`for cls in ADAPTER_CLASSES`)
            out = [c for c in self._iterated_classes(fid, scope, callee) if not self._is_protocol(c)]
        if not out and not receiver and callee.isidentifier() and self._depth <= 4 and self._facts_of(fid, scope, callee):
            # `ext = tld_extract(url)` of a variable holding an instance (`tld_extract = TLDExtract()`): what its
            # class's __call__ returns
            self._depth += 1
            try:
                for cls in self._types_of(fid, scope, callee):
                    call = self._instance_member(cls.id, "__call__") if cls.kind == "class" else None
                    out.extend(c for c in (self._returns(call, fid) if call is not None else []) if c not in out)
            finally:
                self._depth -= 1
        if not out and receiver == "self" and "." not in name and self._bound_in_class_body(fid, scope, callee):
            # `self.set_class()` where the class body says `set_class = OrderedSet` and no method sets it (marshmallow's
            # Schema); boolean.py's `self.Symbol = symbol_class or Symbol` in __init__ may hold what a caller gives
            out = [c for c in self._class_objects(fid, scope, callee) if not self._is_protocol(c)]
        if not out and receiver == "cls":
            # a class attribute holding a class object: `cls.STREAMING_DECODER(...)` where the class body says
            # `STREAMING_DECODER = StreamingDecoder` makes a StreamingDecoder (pyasn1's Decoder.__call__). Not for
            # `self.Symbol(...)`: boolean.py's BooleanAlgebra sets it from a parameter, and one item typed among the
            # untyped others of a list (`ast.append(self.Symbol(...))`, then `ast.append(self.NOT)`) narrowed
            # `parsed = ast[2]` to Symbol, where a name match had reached every override of simplify()
            out = [c for c in self._class_objects(fid, scope, callee) if not self._is_protocol(c)]
        return out

    def _resolve_type_text(self, fid: int, scope: Sym, name_text: str) -> list[Sym]:
        """The classes a type's name means (protocols left out: see :meth:`_is_protocol`)."""
        receiver, _, name = name_text.rpartition(".")
        return [
            t.sym
            for t in self._resolve_name(fid, scope, name, receiver, "type")
            if t.sym.kind in _CLASS_KINDS and t.resolution != "name-match" and not self._is_protocol(t.sym)
        ]

    def _is_protocol(self, cls: Sym) -> bool:
        """A ``typing.Protocol``: the classes a value typed by one may hold need not inherit from it, so its
        members say nothing about the method a call runs (a bare name match does better)."""
        return "Protocol" in self._base_names(cls.id)

    def _returns(self, fn: Sym, fid: int) -> list[Sym]:
        """Classes a function returns: those its return annotation names (``def f() -> "Thing"``); without
        one, for a function of the file ``fid`` being resolved, those its ``return`` statements give
        (another file's function bodies are not read: editing one re-resolves only its own file), and for a
        classmethod of another file, its class. For a function with ``@overload`` stubs (a call runs the definition
        that is none: SymbolTable.child_map): those of every definition of its name there (automat's
        ``TypeMachineBuilder.state`` returns a ``TypedState`` for one argument, a ``TypedDataState`` for two)."""
        if fn.parent_id is not None and ("#" in fn.qualname or is_overload(fn)):
            same = [d for d in self.symbols.children(fn.parent_id) if d.name == fn.name]
            if any(is_overload(d) for d in same):
                out: list[Sym] = []
                for d in same:
                    out.extend(c for c in self._returns_of(d, fid) if c not in out)
                return out
        return self._returns_of(fn, fid)

    def _returns_of(self, fn: Sym, fid: int) -> list[Sym]:
        """:meth:`_returns` of one definition."""
        out = self._annotation_classes(fn)
        annotation = self._signature(fn).rpartition(")")[2].strip().removeprefix("->").removesuffix(":").strip()
        if out or self._depth > 4 or (annotation and type_head(annotation) not in _UNTELLING_ANNOTATIONS):
            return out
        if fn.file_id != fid:
            # a classmethod of another file (`URIReference.from_string(...)`) is most often another constructor
            # of its class: one of its instances, as its decorator, a fact of the symbol, tells
            parent = self.symbols.sym(fn.parent_id) if fn.parent_id is not None and "classmethod" in fn.decorators else None
            if parent is not None and parent.kind in _CLASS_KINDS:
                return [parent]
            out = self._returned_classes(fn)
            out.extend(c for c in self._wrapper_classes(fid, fn) if c not in out)
            return out
        out = self._types_of(fid, fn, RETURN_FACT)
        if fn.decorators:  # calling it runs the wrapper its decorator returns: what that returns
            out.extend(c for c in self._wrapper_classes(fid, fn) if c not in out)
        return out

    def _returned_classes(self, fn: Sym) -> list[Sym]:
        """Classes a function of another file makes in its ``return`` statements (``return Indent(...)``), the
        names looked up where it is defined through its definitions and imports only (its variables are
        another file's facts, which are not read)."""
        if self._depth > 4:
            return []
        out: list[Sym] = []
        for made in self._returned_bound(fn, "assign"):
            if made.kind in _CLASS_KINDS and not self._is_protocol(made):
                found = [made]
            elif made.kind in ("function", "method") and made.id != fn.id:
                # `color = color4.parse_color(x); return color` (tinycss2's color5): what that function returns
                self._depth += 1
                try:
                    found = self._returned_classes(made)
                finally:
                    self._depth -= 1
            else:
                found = []
            out.extend(c for c in found if c not in out)
        return out

    def _returned_bound(self, fn: Sym, kind: str, skip: Collection[str] = ()) -> list[Sym]:
        """What the texts of ``fn``'s return facts of ``kind`` (``assign``: a callee; ``alias``: a name) mean where it is
        defined, through definitions and imports only (:meth:`_bound`), ``skip`` and ``self``/``cls`` left out."""
        out: list[Sym] = []
        self._depth += 1
        try:
            for fact_kind, text in self.file_facts.returned(fn.file_id).get(fn.id, []):
                if fact_kind == kind and text not in skip and text.partition(".")[0] not in ("self", "cls"):
                    out.extend(s for s in self._bound(fn.file_id, fn, text) if s not in out)
        finally:
            self._depth -= 1
        return out

    def _bound(self, file_id: int, scope: Sym, dotted: str) -> list[Sym]:
        """What a dotted name means at ``scope`` through definitions and imports only (``Indent``, ``nodes.Name``):
        no variable's facts are read, so it may be asked of another file than the one being resolved."""
        head, *rest = dotted.split(".")
        if not head.isidentifier():
            return []
        out: list[Sym] = []
        for t in self.lookup(file_id, scope, head):
            found: Sym | None = t.sym
            for part in rest:
                found = self._attribute(file_id, found, part) if found is not None else None
            if found is not None and found not in out:
                out.append(found)
        return out

    def _wrapper_classes(self, fid: int, fn: Sym) -> list[Sym]:
        """For a function wrapped by a decorator function (of any file): the classes the
        wrapper returns, which a call of ``fn`` returns (``@indent def l(...)``, where ``indent``'s wrapper
        returns ``Indent(...)``, makes ``with self.l(...)`` run ``Indent.__enter__``)."""
        if not fn.decorators or self._depth > 4:
            return []
        called = "(" in fn.decorators[0]

        def made(d: Sym) -> list[Sym]:
            out: list[Sym] = []
            for w in self._made_wrappers(fid, d, called):
                out.extend(c for c in self._returns(w, fid) if c not in out)
            return out

        return self._through_any_decorator(fid, fn, made)

    def _through_any_decorator(self, fid: int, fn: Sym, found: Callable[[Sym], Iterable[Sym]]) -> list[Sym]:
        """``found(d)`` for each definition ``d`` the outermost decorator of ``fn``, a function of any file, names. For
        a function of another file than ``fid``: through that file's definitions and imports only (which the store
        names it for when they change; affected.affected_files: the functions a changed decorator decorates)."""
        if fn.file_id == fid:
            return self._through_decorator(fid, fn, found)
        named = self._decorator_callee(fn)
        if named is None:
            return []
        scope, receiver, name = named
        out: list[Sym] = []
        self._depth += 1
        try:
            for d in self._bound(fn.file_id, scope, f"{receiver}.{name}" if receiver else name):
                out.extend(c for c in found(d) if c not in out)
        finally:
            self._depth -= 1
        return out

    def _aliased(self, alias: Sym) -> Sym | None:
        """The method (or function of the module) a class-body alias ``__next__ = next`` stands for: a reference of
        the alias is one of it too (the parser makes the alias a member, its signature says what it binds)."""
        if alias.id in self._aliases:
            return self._aliases[alias.id]
        name, _, bound = self._signature(alias).partition(" = ")
        found: Sym | None = None
        if name == alias.name and bound.isidentifier() and alias.parent_id is not None:
            found = self.hierarchy.member(alias.parent_id, bound)
            if found is None or found.kind not in ("method", "function"):
                module = self.symbols.module_symbol(alias.file_id)
                found = next((t.sym for t in self.lookup(alias.file_id, module, bound) if t.sym.kind == "function"), None)
        self._aliases[alias.id] = found
        return found

    def _signature(self, fn: Sym) -> str:
        sig = self._signatures.get(fn.id)
        if sig is None:
            row = self.conn.execute("SELECT signature FROM symbols WHERE id=?", (fn.id,)).fetchone()
            sig = self._signatures[fn.id] = str(row[0]) if row else ""
        return sig

    def _annotation_classes(self, fn: Sym, *, element: bool = False, every: bool = False) -> list[Sym]:
        """Classes a function's return annotation names, each of a union (``element``: the item type of an iterator or
        collection it returns; ``every``: every class named anywhere in it). Cached by depth too: a
        result cut short by the depth limit is not reused at another depth, so the answer never depends
        on which file asked first."""
        key = (fn.id, self._depth, "element" if element else "every" if every else "")
        cached = self._return_cache.get(key)
        if cached is not None:
            return cached
        sig = self._signature(fn)
        annotation = sig.rpartition("->")[2] if "->" in sig.rpartition(")")[2] else ""
        if every:
            names = list(dict.fromkeys(_DOTTED.findall(annotation)))[:_MAX_ANNOTATION_NAMES]
        else:
            # (each class of a union: iniparse's `__getattr__(...) -> Union[object, "Undefined"]`)
            names = [element_name(annotation)] if element else type_names(annotation)
        out: list[Sym] = []
        if self._depth <= 4:
            scope = self.symbols.defined_in(fn)
            self._depth += 1
            try:
                for name_text in names:
                    if not name_text:
                        continue
                    if name_text.rpartition(".")[2] == "Self":
                        cls = self.symbols.enclosing_class(scope)
                        found = [cls] if cls is not None and cls.kind in _CLASS_KINDS else []
                    else:
                        found = self._resolve_type_text(fn.file_id, scope, name_text)
                    out.extend(c for c in found if c not in out)
            finally:
                self._depth -= 1
        self._return_cache[key] = out
        return out

    # --- module resolution -----------------------------------------------------------------------

    def _spawned(self, fid: int, command: str) -> list[tuple[Target, str]]:
        """What a command line running ``command`` (``pkg.cli`` after ``-m``, or a path ``tools/gen.py``) runs, with
        the edge kind: the ``__main__`` scope of that module (a call), and the body of a package's ``__main__.py``
        (which runs as an import does). Paths are matched as written or as a tail of a repository path."""
        if command.endswith(".py"):
            files = [
                r[0]
                for r in self.conn.execute(
                    "SELECT id FROM files WHERE language='python' AND (path=? OR path LIKE ? ESCAPE '\\')",
                    (command, "%/" + escape_like(command)),
                )
            ]
        else:
            files = self.modules.module_files(fid, command, 0) + self.modules.module_files(fid, command + ".__main__", 0)
        out: list[tuple[Target, str]] = []
        for f in sorted(set(files)):
            if self.modules.file(f)[0].rsplit("/", 1)[-1] == "__main__.py":
                # (run as `__main__`, a `__main__.py` with an `if __name__ == "__main__":` block runs that block too)
                out.append((Target(self.symbols.module_symbol(f), "spawn", _SPAWN_CONFIDENCE, len(files)), "import"))
            row = self.conn.execute(
                f"SELECT {SYM_COLUMNS} FROM symbols WHERE file_id=? AND qualname=?",
                (f, MAIN_SCOPE),
            ).fetchone()
            if row is not None:
                out.append((Target(sym_from_row(row), "spawn", _SPAWN_CONFIDENCE, len(files)), "call"))
        return out

    def _dotted(self, fid: int, name: str, module: str) -> list[Target]:
        """What a string ``"module.name"`` names: ``name`` as ``module`` offers it, else the module ``module.name``
        (``"mistune.plugins.footnotes.footnotes"`` in a table of plugins, a settings list of classes)."""
        found = [t for f in self.modules.module_files(fid, module, 0) for t in self.export(f, name)]
        if not found:
            found = [Target(self.symbols.module_symbol(f), "import", 1.0) for f in self.modules.module_files(fid, f"{module}.{name}", 0)]
        return [Target(t.sym, "string", min(t.confidence, _STRING_CONFIDENCE)) for t in found if t.resolution != "name-match"]

    def _package_modules(self, fid: int, package: str) -> list[Target]:
        """The modules right below a package of the repository (``pkg/ext/x.py``, ``pkg/ext/y/__init__.py``), which
        a loader importing ``f"pkg.ext.{name}"`` may import, each as sure as a dotted string (a module added to or
        removed from the package names the package in its path: affected.affected_files takes the loader's file)."""
        out: list[Target] = []
        for init in self.modules.module_files(fid, package, 0):
            init_path = self.modules.file(init)[0]
            if posixpath.basename(init_path) != "__init__.py":
                continue  # a module, no package
            directory = posixpath.dirname(init_path)
            for path, module in sorted(self.modules.path_ids().items()):
                if posixpath.dirname(path) == directory:  # `pkg/ext/x.py`
                    below = path.endswith(".py") and path != init_path
                else:  # `pkg/ext/y/__init__.py`
                    below = posixpath.dirname(posixpath.dirname(path)) == directory and path.endswith("/__init__.py")
                if below and self.modules.file(module)[1] == "python":
                    out.append(Target(self.symbols.module_symbol(module), "string", _STRING_CONFIDENCE))
        return out

    # --- name binding in a file ------------------------------------------------------------------

    def _bindings(self, file_id: int) -> tuple[dict[tuple[int, str], list[sqlite3.Row]], dict[int, list[sqlite3.Row]]]:
        """Import bindings of a file: (scope id, bound name) → import rows, and wildcard imports by scope."""
        cached = self._binding_maps.get(file_id)
        if cached is None:
            python = self.modules.file(file_id)[1] == "python"
            named: dict[tuple[int, str], list[sqlite3.Row]] = {}
            wild: dict[int, list[sqlite3.Row]] = {}
            for imp in self.imports_of(file_id):
                bound = _bound_name(imp["module"], imp["name"], imp["alias"], python)
                if bound is None:
                    wild.setdefault(imp["scope_id"], []).append(imp)
                else:
                    named.setdefault((imp["scope_id"], bound), []).append(imp)
            cached = self._binding_maps[file_id] = (named, wild)
        return cached

    def lookup(self, file_id: int, scope: Sym, name: str) -> list[Target]:
        """What a bare ``name`` means at ``scope`` in file ``file_id`` (Python-style scoping)."""
        key = (file_id, scope.id, name)
        cached = self._lookups.get(key)
        if cached is None:
            cached = self._scoped_lookups.get(key)
        if cached is not None:
            return cached
        if key in self._in_progress:  # import cycles: `from a import x` in b, `from b import x` in a
            return []
        self._in_progress.add(key)
        try:
            result = self._lookup(file_id, scope, name)
        finally:
            self._in_progress.discard(key)
        if scope.kind == "module":
            self._lookups[key] = result  # other files ask modules for their exports again and again
        else:
            self._scoped_lookups[key] = result
        return result

    def _lookup(self, file_id: int, scope: Sym, name: str) -> list[Target]:
        python = self.modules.file(file_id)[1] == "python"
        named, wild = self._bindings(file_id)
        for i, enclosing in enumerate(self._scope_chain(scope)):
            # Python class bodies do not enclose the functions inside them
            if python and enclosing.kind == "class" and i > 0:
                continue
            child = self.symbols.child_map(enclosing.id).get(name)
            if child is not None:
                return [Target(child, "local", 1.0)]
            if python and i > 0 and enclosing.params and name in _param_names(enclosing):
                return []  # an enclosing function's parameter hides the outer definitions of its name
            bindings = named.get((enclosing.id, name), ())
            if bindings:
                # `try: from ._speedups import f` / `except ImportError: from ._native import f`: every
                # binding of the name may be the one in effect
                out: list[Target] = []
                for imp in bindings:
                    out.extend(t for t in self._from_import(file_id, imp) if t not in out)
                return out
            for imp in wild.get(enclosing.id, ()):
                for f in self.modules.module_files(file_id, imp["module"], imp["level"]):
                    found = self.export(f, name)
                    if found:
                        return found
        return []

    def _from_import(self, file_id: int, imp: sqlite3.Row) -> list[Target]:
        """Targets of the name import row ``imp`` binds."""
        module, imported, alias, level = imp["module"], imp["name"], imp["alias"], imp["level"]
        python = self.modules.file(file_id)[1] == "python"
        if imported is None:
            target_module = module if (alias or not python) else module.split(".")[0]
            return [Target(self.symbols.module_symbol(f), "import", 1.0) for f in self.modules.module_files(file_id, target_module, level)]
        if imported == "default":
            return [Target(self.symbols.module_symbol(f), "import", 0.9) for f in self.modules.module_files(file_id, module, level)]
        out: list[Target] = []
        for f in self.modules.module_files(file_id, module, level):
            out.extend(self.export(f, imported))
        if not out and python:
            # `from pkg import submodule`
            sub = (module + "." + imported) if module else imported
            out = [Target(self.symbols.module_symbol(f), "import", 1.0) for f in self.modules.module_files(file_id, sub, level)]
        return out

    def export(self, file_id: int, name: str) -> list[Target]:
        """What module ``file_id`` offers under ``name``: its own definition or a re-exported import."""
        own = self.symbols.child_map(self.symbols.module_symbol(file_id).id).get(name)
        if own is not None:
            return [Target(own, "import", 1.0)]
        if self.imports_of(file_id):
            found = [Target(t.sym, "import", t.confidence) for t in self.lookup(file_id, self.symbols.module_symbol(file_id), name)]
            if found:
                return found
        return self._module_alias(file_id, name)

    def _module_alias(self, file_id: int, name: str) -> list[Target]:
        """``OMD = OrderedMultiDict`` at the top of a module: importing ``OMD`` from it gets that definition
        (:func:`affected.affected_files` re-resolves the importers when what the alias names changes)."""
        module = self.symbols.module_symbol(file_id)
        aliases = self._module_aliases.get(file_id)
        if aliases is None:  # only these rows: all of another file's facts would stay cached for the whole build
            aliases = self._module_aliases[file_id] = {}
            for alias, text in self.conn.execute(
                "SELECT name, receiver FROM refs WHERE file_id=? AND scope_id=? AND kind='alias' ORDER BY id",
                (file_id, module.id),
            ):
                aliases.setdefault(alias, []).append(text.strip("'\""))
        out: list[Target] = []
        for t in self._named_by(file_id, module, name, aliases.get(name, [])):
            if t.sym.kind != "module" and t.sym not in [o.sym for o in out]:
                out.append(Target(t.sym, "reexport", t.confidence))
        return out

    def _named_by(self, fid: int, scope: Sym, name: str, texts: list[str]) -> list[Target]:
        """What the dotted names an assignment to ``name`` gives (``texts``) resolve to in ``scope``, name
        matches left out (as types: a class is itself, not its constructor)."""
        if not texts or self._depth > 4:
            return []
        out: list[Target] = []
        self._depth += 1
        try:
            for text in texts:
                if text == name or not all(p.isidentifier() for p in text.split(".")):
                    continue
                receiver, _, target = text.rpartition(".")
                out.extend(t for t in self._resolve_name(fid, scope, target, receiver, "type") if t.resolution != "name-match")
        finally:
            self._depth -= 1
        return out

    def _class_attribute_functions(self, fid: int, cls: Sym, name: str) -> list[Target]:
        """What ``self.name(...)`` calls where the body of the class (or of the nearest in-repo base stating it)
        binds ``name`` to a function: ``_alias = check``, ``_match = staticmethod(util.check)``; and, as dispatch,
        the functions or classes the bodies of its subclasses bind it to (``_backend_type = BList`` in a subclass:
        ``self._backend_type()`` in the base may make one). Only this file's classes: another file's class body
        is not re-read when it changes."""
        facts = self.file_facts.variables(fid)
        out: list[Target] = []
        for cid in self.hierarchy.linearized(cls.id):
            stated = facts.get((cid, name)) if self.symbols.sym(cid).file_id == fid else None
            if stated:  # a class bound here is typed already: calling self.x constructs it (_resolve_member)
                found = self._bound_in_body(fid, cid, name, stated)
                out = [Target(t, "class-attribute", 0.9) for t in found if t.kind in ("function", "method")]
                break
        for cid in self.hierarchy.descendants(cls.id):
            stated = facts.get((cid, name)) if self.symbols.sym(cid).file_id == fid else None
            for t in self._bound_in_body(fid, cid, name, stated or []):
                if t not in [o.sym for o in out]:
                    out.append(Target(t, "dispatch", 0.7))
        return out

    def _bound_in_body(self, fid: int, cid: int, name: str, stated: list[Fact]) -> list[Sym]:
        """The functions and classes the class body of ``cid`` binds ``name`` to (its facts ``stated``)."""
        texts = [text for kind, text in stated if kind == "alias"]
        if any(kind == "assign" and text in ("staticmethod", "classmethod", "property") for kind, text in stated):
            # the functions given to staticmethod(...) (property(...): getter first) in that statement: from its line
            # to the next assignment of the class body, a few lines at most (cssutils's `mediaText = property(\n
            # _getMediaText,\n _setMediaText, doc=...)`)
            assigned = self.conn.execute(
                "SELECT name, line FROM refs WHERE file_id=? AND scope_id=? AND kind='assign' ORDER BY line", (fid, cid)
            ).fetchall()
            spans = [
                (line, min([line + _STATEMENT_LINES, *(a for _, a in assigned if a > line)]))
                for target, line in assigned
                if target == name
            ]
            texts += [
                f"{r[1]}.{r[0]}" if r[1] else r[0]
                for r in self.conn.execute(
                    "SELECT name, receiver, line FROM refs WHERE file_id=? AND scope_id=? AND kind='ref' ORDER BY line, id",
                    (fid, cid),
                )
                if any(start <= r[2] < end for start, end in spans)
            ]
        out: list[Sym] = []
        for t in self._named_by(fid, self.symbols.sym(cid), name, texts):
            if (t.sym.kind in ("function", "method") or t.sym.kind in _CLASS_KINDS) and t.sym not in out:
                out.append(t.sym)
        return out

    # --- members ---------------------------------------------------------------------------------

    def _constructors(self, sym: Sym) -> list[Sym]:
        """What calling a class runs (its own or inherited ``__new__`` and ``__init__``); nothing for a function."""
        if sym.kind not in _CLASS_KINDS:
            return []
        return [init for init in (self.hierarchy.member(sym.id, ctor) for ctor in _CONSTRUCTORS) if init is not None]

    def _cooperative_next(self, cls: Sym, name: str) -> list[Target]:
        """``super().name(...)`` in a class whose own bases lack ``name`` (a mixin): the method of the class after it
        in the method resolution order of each of its subclasses (hyperframe's ``class DataFrame(Padding, Frame)``:
        Padding's ``super().__init__(...)`` runs Frame's). One for all of them is as sure as a super() call; of several,
        each runs for the instances of some subclasses, as a dispatch to an override does."""
        found: list[Sym] = []
        for sub in self.hierarchy.descendants(cls.id):
            order = self.hierarchy.linearized(sub)
            after = order[order.index(cls.id) + 1 :] if cls.id in order else []
            m = next((d for d in (self.symbols.child_map(cid).get(name) for cid in after) if d is not None), None)
            if m is not None and m not in found:
                found.append(m)
        if len(found) > MAX_CANDIDATES:
            return []
        confidence = 1.0 if len(found) == 1 else _COOPERATIVE_CONFIDENCE
        return [Target(m, "super", confidence, len(found)) for m in found]

    def _closed_over_cls(self, fid: int, scope: Sym) -> Sym | None:
        """For ``cls(...)`` in a function nested in a classmethod (``def _try_load(): return cls(*parts)``): the
        class whose method takes ``cls``, unless a scope on the way binds the name itself or is a class."""
        facts = self.file_facts.variables(fid)
        for s in self._scope_chain(scope):
            if s.kind in _CLASS_KINDS or facts.get((s.id, "cls")):
                return None
            if "cls" in _param_names(s):
                owner = self.symbols.sym(s.parent_id) if s.parent_id is not None else None
                return owner if owner is not None and owner.kind in _CLASS_KINDS else None
        return None

    # --- resolving -------------------------------------------------------------------------------

    def resolve_bases(self, file_ids: Iterable[int]) -> None:
        """Write inherit edges for the classes of the given files (before :meth:`resolve_files`)."""
        rows: list[tuple[object, ...]] = []
        instances: list[tuple[int, Sym, Sym, str, int]] = []  # bases naming no class: (file, class, scope, name, line)
        for fid in file_ids:
            for b in self.conn.execute(
                "SELECT symbol_id, text, line FROM bases WHERE file_id=? ORDER BY id", (fid,)
            ).fetchall():
                cls = self.symbols.sym(b[0])
                scope = self.symbols.defined_in(cls)
                text = strip_generics(b[1])
                receiver, _, name = text.rpartition(".") if "." in text else ("", "", text)
                if "::" in name:
                    receiver, _, name = text.rpartition("::")
                targets = self._resolve_name(fid, scope, name, receiver, "call")
                for t in targets:
                    if t.sym.kind in _CLASS_KINDS and t.sym.id != cls.id:
                        rows.append((cls.id, t.sym.id, "inherit", fid, t.sym.file_id, b[2], t.resolution, t.confidence, t.candidates))
                        self.hierarchy.expect_bases(cls.id)
                if (
                    not any(t.sym.kind in _CLASS_KINDS for t in targets)
                    and not receiver
                    and name.isidentifier()
                    and self.modules.file(fid)[1] == "python"
                ):
                    instances.append((fid, cls, scope, name, int(b[2])))
        self.conn.executemany(_INSERT_EDGE, rows)
        self._clear_hierarchy()
        # `class IFoo(Interface)` where `Interface = InterfaceClass("Interface")`: a base that is an instance of a class
        # of the repository makes that class the new class's metaclass (Python calls `type(base)(name, bases, ns)`): the
        # class statement calls its constructors. Typed once every inherit edge is written.
        rows = []
        for fid, cls, scope, name, line in instances:
            for made in self._types_of(fid, scope, name):
                if made.kind not in _CLASS_KINDS or made.id == cls.id:
                    continue
                for ctor in ("__new__", "__init__"):
                    m = self._instance_member(made.id, ctor)
                    if m is not None:
                        rows.append((cls.id, m.id, "call", fid, m.file_id, line, "instance-base", _HELD_CONFIDENCE, 1))
        self.conn.executemany(_INSERT_EDGE, rows)
        self._clear_hierarchy()

    def _clear_hierarchy(self) -> None:
        """Forget what was computed from the class hierarchy (inherit edges were written)."""
        self.hierarchy.clear()
        caches = (
            self._return_cache, self._families, self._one_families, self._aliases, self._getattribute, self._self_facts,
        )
        for cache in caches:
            cache.clear()

    def resolve_files(self, file_ids: Iterable[int]) -> None:
        """Write call/ref/import/fixture edges and unresolved rows for the given files."""
        for fid in file_ids:
            try:
                self._resolve_file(fid)
            except RecursionError:
                # a rule asking its way through a cycle the depth limits missed: this file's edges are lost, not the
                # index (the same input fails alike in a full build and an update: they stay equal)
                log.warning("%s: a reference nests too deep to resolve: the file's edges are left out", self.modules.file(fid)[0])
            # what only this file's own scopes asked is not asked again: keep memory flat on big builds
            self.file_facts.forget(fid)
            self._scoped_lookups.clear()
            self._types_cache.clear()

    def _resolve_file(self, fid: int) -> None:
        edges: dict[tuple[int, int, str], tuple[object, ...]] = {}
        unresolved: list[tuple[int, int, str]] = []

        def add(src: int, t: Target, kind: str, line: int) -> None:
            if t.sym.kind == "alias" and (aliased := self._aliased(t.sym)) is not None:
                add(src, Target(aliased, "class-attribute", t.confidence, t.candidates), kind, line)
            key = (src, t.sym.id, kind)
            # the first site and reason stand for the edge, unless a later one is surer (a guessed `key` first)
            if key in edges and float(edges[key][7]) >= t.confidence:  # type: ignore[arg-type]
                return
            edges[key] = (src, t.sym.id, kind, fid, t.sym.file_id, line, t.resolution, t.confidence, t.candidates)

        language = self.modules.file(fid)[1]
        for imp in self.imports_of(fid):
            scope = self.symbols.sym(imp["scope_id"])
            name = imp["name"]
            if name == "*":
                for f in self.modules.module_files(fid, imp["module"], imp["level"]):
                    add(scope.id, Target(self.symbols.module_symbol(f), "import", 1.0), "import", imp["line"])
                continue
            hit = self._from_import(fid, imp)
            if language == "python" and name is None and not imp["alias"]:
                hit = [Target(self.symbols.module_symbol(f), "import", 1.0) for f in self.modules.module_files(fid, imp["module"], 0)]
            elif language == "python" and not hit and name is not None:
                # `from mod import VARIABLE`: no definition, but the import runs mod's body
                hit = [Target(self.symbols.module_symbol(f), "import", 1.0) for f in self.modules.module_files(fid, imp["module"], imp["level"])]
            for t in hit:
                add(scope.id, t, "import", imp["line"])

        cursor = self.conn.cursor()
        cursor.row_factory = None  # plain tuples: this is the hottest read of a full build
        rows = cursor.execute(
            "SELECT id, scope_id, kind, name, receiver, line FROM refs WHERE file_id=? ORDER BY id", (fid,)
        ).fetchall()
        stores = {(r[1], r[3], r[5]) for r in rows if r[2] == "store"}  # `self.x = v`: x is written, not read there
        # functions given by name at a line, what is called at that line, and the functions that call a parameter
        passed: list[tuple[int, int, Target]] = []
        called_at: dict[tuple[int, int], list[Sym]] = {}
        calls_parameter = self.file_facts.parameter_callers(fid, rows) if language == "python" else frozenset()
        for ref_id, scope_id, kind, name, receiver, line in rows:
            scope = self.symbols.sym(scope_id)
            if receiver == "self" and kind in ("attr", "call", "ref") and language == "python":
                # `self.x` read in a method runs the instance's class's `__getattribute__`, its own or a subclass's
                # (pyte's `HistoryScreen.__getattribute__` for every read in Screen's methods)
                for t in self._attribute_hooks(scope):
                    add(scope.id, t, "call", line)
            if kind in ("assign", "alias", "element", "item", "lookup", "holds", "reads", "yields", "unpack", "collects", "guarded"):  # facts
                if kind == "assign" and scope.kind in _CLASS_KINDS and language == "python" and self._defined_here(fid, receiver):
                    # `int = _field2method(Int, "int")` in a class body: the class holds the function the call
                    # returns, which `env.int(...)` runs wherever an instance goes (a reference of the class)
                    for t in self._returned_callables_of(fid, scope, name):
                        add(scope.id, Target(t.sym, "class-attribute", min(t.confidence, 0.9)), "ref", line)
                continue
            if kind in LOOKUP_KINDS:  # getattr(self, "visit_" + ...): every member of that prefix
                if name == "*" and kind == "getattr":
                    # any member, not called here (`repr(getattr(self, name))` reads data): only a caller of a
                    # function returning it calls one (_variable_lookups); but reading a property runs its getter
                    # (prettytable's `options[option] = getattr(self, option)` for each of its options)
                    getters = [t.sym for t in self._prefixed_members(fid, scope, "", receiver) if _is_getter(t.sym)]
                    for getter in getters:
                        add(scope.id, Target(getter, "getattr", round(min(_LOOKUP_CONFIDENCE, 1 / len(getters)), 3), len(getters)), "call", line)
                    continue
                for t in self._prefixed_members(fid, scope, name.rstrip("*"), receiver):
                    add(scope.id, t, "call" if kind == "getattrcall" else "ref", line)
                continue
            if kind == "dotted":  # "pkg.mod.name" in a string: that definition, looked up by import (never a guess)
                for t in self._dotted(fid, name, receiver):
                    add(scope.id, t, "ref", line)
                    # and imported when the string is used (`import_module`, a registry's lazy loader: tablib's
                    # `register('ods', 'tablib.formats._ods.ODSFormat')`), which runs the module's body
                    add(scope.id, t, "import", line)
                continue
            if kind == "modprefix":  # `import_module(f"pkg.ext.{name}")`: any module of the package pkg.ext
                for t in self._package_modules(fid, f"{receiver}.{name}" if receiver else name):
                    add(scope.id, t, "import", line)
                continue
            if kind == "spawn":  # a command line running a module: its `if __name__ == "__main__":` block runs
                for t, how in self._spawned(fid, receiver):
                    add(scope.id, t, how, line)
                continue
            if kind == "fixture":
                targets = self._fixture(fid, scope, name, receiver)
                for t in targets:
                    add(scope.id, t, "fixture", line)
                continue
            parameter = name in scope.params
            cls = None
            if language == "python" and not receiver and name == "cls" and kind == "call":
                # (in a function nested in the classmethod too: `def _try_load(parts): return cls(*parts)`)
                cls = self.symbols.enclosing_class(scope) if parameter else self._closed_over_cls(fid, scope)
            if language == "python" and receiver == "" and (parameter or cls is not None) and kind != "decorator":
                if cls is not None:  # cls(...) in a classmethod makes an instance of the class, or of a subclass
                    add(scope.id, Target(cls, "self", 1.0), "call", line)
                    for ctor in _CONSTRUCTORS:
                        init = self.hierarchy.member(cls.id, ctor)
                        if init is not None:
                            add(scope.id, Target(init, "constructor", 1.0), "call", line)
                        for t in self._typed_dispatch(cls, ctor):
                            add(scope.id, t, "call", line)
                continue  # a parameter, not a definition
            targets = self._resolve_name(fid, scope, name, receiver, "call" if kind == "hashkey" else kind)
            # a decorator of `scope` (`@deco`, or `@deco(...)`: a call the parser gives the decorated function's scope)
            decorating = kind == "decorator" or (kind == "call" and _decorator_call(scope, name, receiver))
            if decorating and language == "python" and not receiver:
                # it runs in the scope around the definition: a class body sees its own names (radon's
                # `def dispatch(meth)` in HalsteadVisitor's body, then `@dispatch def visit_BinOp`)
                owner = self.symbols.sym(scope.parent_id) if scope.parent_id is not None else None
                own = self.symbols.child_map(owner.id).get(name) if owner is not None and owner.kind in _CLASS_KINDS else None
                if own is not None and own.id != scope.id and own.kind in ("function", "method"):
                    targets = [Target(own, "local", 1.0)]
            if kind == "hashkey":  # x[key], key in x: x may be a dict or a set (or a list: then nothing runs)
                for t in targets:
                    add(scope.id, Target(t.sym, "key", min(t.confidence, _KEY_CONFIDENCE), t.candidates), "call", line)
                continue
            if kind == "callback":  # map(f, xs), sorted(xs, key=f): the function given runs (never a name-match)
                if not targets and not receiver and language == "python":  # `f = pick_width_fn(); map(f, xs)`
                    targets = self._returned_callables_of(fid, scope, name) + self._looked_up_callables(fid, scope, name)
                elif not targets and receiver and language == "python":
                    # `map(self.Symbol, args)` where `self.Symbol = Symbol_class or Symbol`: what calling the attribute
                    # runs, as for `self.Symbol(x)` (boolean.py)
                    targets = [
                        t for t in self._resolve_name(fid, scope, "__call__", f"{receiver}.{name}", "call")
                        if t.resolution != "name-match"
                    ]
                for t in targets:
                    if t.sym.kind in _CALLABLE_KINDS:
                        add(scope.id, t, "call", line)
                        for ctor in _CONSTRUCTORS if t.sym.kind in _CLASS_KINDS and language == "python" else ():
                            init = self.hierarchy.member(t.sym.id, ctor)
                            if init is not None:
                                add(scope.id, Target(init, "constructor", t.confidence, t.candidates), "call", line)
                continue
            # `@cli.command()` over `def get(...)`: the click group `cli` runs its subcommand `get` (`@sub.group()`,
            # `@process.register(int)` of singledispatch alike): the function named is the way in to it
            if decorating and language == "python":
                for registrar in self._registrars(fid, scope, name, receiver):
                    add(registrar.sym.id, Target(scope, "registered", min(registrar.confidence, _REGISTERED_CONFIDENCE)), "call", line)
            if kind in ("attr", "store"):
                if kind == "store" and receiver == "self" and language == "python":
                    # `self.x = v` runs the class's own `__setattr__` (astutils.Group: `self.__name__ = name` in
                    # __init__ goes through it); a method of the class itself is `self`'s
                    cls = self.symbols.enclosing_class(scope)
                    setattr_ = self.hierarchy.member(cls.id, "__setattr__") if cls is not None else None
                    if setattr_ is not None:
                        add(scope.id, Target(setattr_, "self", 1.0), "call", line)
                    # and a subclass's (or a mixin's it joins): webob's `Request(AdhocAttrMixin, BaseRequest)`, whose
                    # `__setattr__` runs for `self.body = b` in BaseRequest's methods on a Request
                    for o in self.hierarchy.overrides(cls.id, "__setattr__") if cls is not None and cls.kind == "class" else ():
                        if o != setattr_:
                            add(scope.id, Target(o, "dispatch", 0.7), "call", line)
                elif kind == "store" and language == "python":
                    # `style.cssText = v` on a CSSStyleDeclaration: its class's `__setattr__` runs
                    for t in self._typed_setattr(fid, scope, receiver):
                        add(scope.id, t, "call", line)
                if not targets and receiver in ("self", "cls") and language == "python":
                    # count = Counter(...) in the class body: reading self.count runs __get__, writing it __set__
                    method = "__set__" if kind == "store" else "__get__"
                    if kind == "store" or (scope_id, name, line) not in stores:
                        for t in self._class_descriptor(fid, scope, name, method):
                            add(scope.id, t, "call", line)
                elif receiver and all(t.resolution == "name-match" for t in targets) and language == "python":
                    method = "__set__" if kind == "store" else "__get__"
                    if kind == "store" or (scope_id, name, line) not in stores:
                        for t in self._typed_properties(fid, scope, receiver, name, method):
                            add(scope.id, t, "call", line)
                if kind == "store":
                    continue
                for t in targets:
                    if t.resolution == "getattr-hook" or (t.resolution == "receiver-name" and t.sym.name == "__getattr__"):
                        add(scope.id, t, "call", line)  # `Query().name`: reading it runs the class's __getattr__
                    elif _is_property(t.sym):
                        add(scope.id, Target(t.sym, "property" if t.resolution != "name-match" else t.resolution, t.confidence, t.candidates), "call", line)
                    elif t.resolution != "name-match" and t.sym.decorators:
                        # `@instanceproperty def func(self)`: reading `x.func` runs the descriptor's __get__,
                        # which runs the getter
                        for getter in self._descriptor_getters(fid, t.sym):
                            add(scope.id, Target(t.sym, "property", t.confidence), "call", line)
                            add(scope.id, Target(getter, "descriptor", t.confidence), "call", line)
                continue
            if kind in ("ref", "type"):
                if not targets and kind == "ref" and receiver and language == "python" and receiver.isidentifier():
                    # `self.normalize(expr, self.AND)`, `isinstance(x, self.NOT)` where `self.AND = AND_class or AND`:
                    # the class the attribute holds (boolean.py's algebra)
                    targets = [Target(c, "typed", 0.9) for c in self._class_objects(fid, scope, f"{receiver}.{name}")]
                if kind == "ref" and receiver and language == "python" and all(t.resolution == "name-match" for t in targets):
                    # `return rule.cssText` reads the value: a `property(...)`'s getter (a descriptor's __get__) runs
                    if receiver in ("self", "cls"):
                        read = self._class_descriptor(fid, scope, name, "__get__")
                    else:
                        read = self._typed_properties(fid, scope, receiver, name, "__get__")
                    for t in read:
                        add(scope.id, t, "call", line)
                if not targets and kind == "ref" and not receiver and language == "python":
                    # a local collection of functions given by name (or an item of one, a loop's variable): the
                    # function it is given to may call them, as if they were given one by one
                    passed.extend((scope.id, line, t) for t in _table_targets(self._given_callables(fid, scope, name)))
                    # or a function taken from a table of them (`func = REGISTRY.get(cls)`; cheap_repr's
                    # `_try_repr(func, x)`, whose `func(x)` runs the function `@register_repr(cls)` stored)
                    passed.extend((scope.id, line, t) for t in self._looked_up_callables(fid, scope, name))
                for t in targets:
                    if t.sym.kind != "module":
                        add(scope.id, t, "ref", line)
                        # (a property given, `self.current`, is the value its getter returns: no function)
                        if kind == "ref" and t.resolution != "name-match" and _callable_value(t.sym, language):
                            passed.append((scope.id, line, t))
                continue
            if (
                kind == "call"
                and not receiver
                and language == "python"
                and all(t.resolution == "name-match" for t in targets)
                and self._enclosing_param(scope, name)
            ):
                # a parameter of an enclosing function (a closure's) without a default naming a definition: no
                # definition of that name is meant; in the wrapper a decorator returns it is each function the
                # decorator decorates (def deco(f): def wrapper(*a): return f(*a) ... return wrapper)
                targets = self._decorated_functions(fid, scope, name)
                if not targets:
                    unresolved.append((fid, ref_id, "unknown"))
                    continue
            if not targets:
                if not (receiver and name.startswith("__") and name.endswith("__")):
                    # a protocol method on an unknown object (`with x`, `x + y`, `str(x)`): no call was written
                    unresolved.append((fid, ref_id, self._why_unresolved(fid, scope, name, receiver)))
                continue
            # the code that runs the `def` runs the decorator: the function around it (`def outer(): @deco def
            # inner(): ...`), or, on import, the module body or the class body (a decorator that raises breaks
            # every import of the module, as `f = deco(f)` written out does)
            parent = self.symbols.sym(scope.parent_id) if decorating and scope.parent_id is not None else None
            for t in targets:
                add(scope.id, t, "call", line)
                if t.sym.file_id == fid and t.resolution != "name-match":
                    called_at.setdefault((scope.id, line), []).append(t.sym)
                    # `list(platform_tags())` where platform_tags returns `_linux_platforms()`: iterating what the call
                    # returns runs the generator's body, from here
                    for g in self._returned_generators(fid, t.sym):
                        add(scope.id, g, "call", line)
                elif t.resolution != "name-match" and t.sym.kind in ("function", "method"):
                    called_at.setdefault((scope.id, line), []).append(t.sym)  # given a function? (see `passed`)
                if parent is not None and (parent.kind in ("function", "method", "module") or parent.kind in _CLASS_KINDS):
                    add(parent.id, t, "call", line)
                    if kind == "call" and t.resolution != "name-match" and t.sym.kind in ("function", "method"):
                        # `@wraps(func)`: what the call returns is called with the function defined, there
                        # (`return functools.partial(update_wrapper, wrapped=wrapped)` runs update_wrapper)
                        nested = [Target(f, "returned", 0.9) for f in self._returned_functions(fid, t.sym)]
                        for r in nested + self._returned_by_name(fid, t.sym):
                            add(parent.id, r, "call", line)
                # @deco def f(): calling f runs what deco returns (but a wrapper calls the function it wraps)
                if t.sym.decorators and t.resolution not in ("name-match", "decorated") and language == "python":
                    for w in self._wrappers(fid, t.sym):
                        add(scope.id, Target(w, "wrapper", min(t.confidence, 0.9)), "call", line)
                if language == "python":
                    for init in self._constructors(t.sym):
                        add(scope.id, Target(init, "constructor", t.confidence, t.candidates), "call", line)
                    if name == "__iter__" and t.resolution != "name-match" and t.sym.kind == "method" and t.sym.parent_id:
                        # `for n in PreOrderIter(node)`: an iterator's __iter__ gives itself, whose __next__ then
                        # runs for each item (anytree's AbstractIter)
                        step = self.hierarchy.member(t.sym.parent_id, "__next__")
                        if step is not None and step.kind in ("method", "alias"):  # `__next__ = next`
                            add(scope.id, Target(step, "iterator", t.confidence), "call", line)
        # `check(spec, func, _sigs.is_arity)` where `def check(spec, func, builtin_func)` calls `builtin_func(...)`:
        # the function given is called by the function of this file it is given to (an argument at the line of the
        # call, or below the nearest call above it when none is at its line: a call over several lines; which parameter
        # it fills is not told, so any function given there may be the one)
        call_lines: dict[int, list[int]] = {}
        for _, scope_id, kind, _, _, line in rows if passed else ():
            if kind == "call":
                call_lines.setdefault(scope_id, []).append(line)
        for src, line, t in passed:
            lines = call_lines.get(src, [])
            at = line if line in lines else max((n for n in lines if line - _CALL_SPAN <= n < line), default=line)
            # (the nearest call above is a guess: a call nested in the arguments may be nearer)
            confidence = min(t.confidence, _PASSED_CONFIDENCE if at == line else _PASSED_BELOW_CONFIDENCE)
            # a class given (`self.report(messages.UnusedImport, node)` where report calls `messageClass(...)`): the
            # call makes an instance, which runs its constructor (given too: the other callers give other classes)
            given = [Target(s, "passed", confidence) for s in [t.sym, *self._constructors(t.sym)]]
            for callee in called_at.get((src, at), ()):
                if callee.file_id != fid:
                    # given to a function of another file that calls a parameter (asttokens' `util.visit_tree(node,
                    # self._visit_before_children, ...)`, whose loop calls `previsit(...)`): the edge is this file's,
                    # made again whenever that function starts or stops calling one (store: its name changes meaning)
                    # (not from a test: what a test gives a function of the project is no use of the project's own,
                    # and boltons' `remap(..., enter=enter)` with a test's `enter` making an OMD would make remap a user
                    # of OMD for every test of remap)
                    if (
                        language == "python"
                        and callee.id != t.sym.id
                        and not self.symbols.sym(src).is_test
                        and callee.id in self.file_facts.parameter_callers(callee.file_id)
                    ):
                        for g in given:
                            add(callee.id, g, "call", line)
                    continue
                if callee.id in calls_parameter and callee.id != t.sym.id:
                    for g in given:
                        add(callee.id, g, "call", line)
                # `_StatsProperty('mean', _calc_mean)` where __init__ stores `self.func = func` and __get__ calls
                # `self.func(obj)`: the method calling the attribute calls the function given
                for user in self._calls_stored_parameter(fid, callee, rows) if language == "python" else ():
                    if user.id != t.sym.id:
                        for g in given:
                            add(user.id, g, "call", line)
        if language == "python":
            # a decorator making an instance of a class of the file that keeps a parameter and calls it (pybtex's
            # `_builtin(function)` makes `Builtin(function)`, whose `execute` calls `self.f`): the instance holds the
            # function decorated, which that method calls (the arguments of a call are not told: any it decorates)
            for (src, line), callees in called_at.items():
                for callee in callees:
                    users = self._calls_stored_parameter(fid, callee, rows) if callee.kind == "class" else []
                    for user in users:
                        for g in self._decorated_by(fid, self.symbols.sym(src)):
                            if g.sym.id != user.id:
                                add(user.id, g, "call", line)
            # a descriptor class of the file (`@instanceproperty def func(self)`): its __get__ runs the getters made
            # with it, one per read; a decorator class's __call__, the functions it wraps (`@curry def memoize`)
            for getter, made in self._wrapper_class_calls(fid):
                confidence = round(min(_DECORATED_CONFIDENCE, 1 / len(made)), 3)
                for fn, line in made:
                    add(getter.id, Target(fn, "decorated", confidence, len(made)), "call", line)
        self.conn.executemany(_INSERT_EDGE, list(edges.values()))
        self.conn.executemany("INSERT INTO unresolved(file_id, ref_id, reason) VALUES (?,?,?)", unresolved)

    def _why_unresolved(self, fid: int, scope: Sym, name: str, receiver: str) -> str:
        language = self.modules.file(fid)[1]
        head = receiver.split(".")[0].split("(")[0] if receiver else name
        if language == "python" and not receiver and name in _PY_BUILTINS:
            return "builtin"
        if head and head in self._bound_anywhere(fid):
            return "external"
        if receiver and language == "python" and self._receiver_is_external(fid, scope, receiver):
            return "external"  # `cls._REGEX.match(v)` with `_REGEX = re.compile(...)`: the walk guesses no receiver
        candidates = len(self._candidates(name, receiver))
        if candidates > MAX_CANDIDATES:
            return "ambiguous"
        if receiver and candidates == 0:
            return "external"  # a method no repository class defines: a library object's
        return "unknown"

    def _candidates(self, name: str, receiver: str) -> list[Sym]:
        key = (name, bool(receiver))
        found = self._candidate_cache.get(key)
        if found is None:
            kinds = ("method", "function") if receiver else _CALLABLE_KINDS
            found = self._candidate_cache[key] = [s for s in self.symbols.named(name) if s.kind in kinds]
        return found

    def _resolve_name(self, fid: int, scope: Sym, name: str, receiver: str, kind: str) -> list[Target]:
        language = self.modules.file(fid)[1]
        if receiver:
            targets = self._resolve_member(fid, scope, name, receiver, kind)
            if targets and all(t.resolution == "getattr-hook" for t in targets):
                # what the hook forwards to is not known: the methods of that name elsewhere, as for any receiver
                return targets + self._unbound(fid, scope, name, receiver, kind, language)
            if targets is not None:
                return targets
        else:
            found = self.lookup(fid, scope, name)
            if found:
                local = found[0]
                if language == "python" and local.resolution == "local" and local.sym.parent_id == scope.id:
                    # `def parse(): ...` in one branch, `parse = self.parse_primary` in another: either may run
                    found = found + [t for t in self._alias_targets(fid, scope, name, kind, own=True) if t.sym != local.sym]
                    if kind in ("call", "callback") and any(w == scope for w, _ in self._facts_of(fid, scope, name)):
                        # or `func = make_attrgetter(...)` there: the function that call returns
                        found.extend(t for t in self._returned_callables_of(fid, scope, name) if t.sym != local.sym)
                return found
            # `alias = target`: a call of alias calls target (`x = Cls()` then `x()` calls Cls.__call__, a
            # reference of its own); each assignment of the name (`f = a if ... else: f = b`) may be the one in effect
            hits = self._alias_targets(fid, scope, name, kind)
            if hits:
                return hits
            if language != "python":
                cls = self.symbols.enclosing_class(scope)
                if cls is not None:  # implicit this
                    m = self.hierarchy.member(cls.id, name)
                    if m is not None:
                        return [Target(m, "self", 1.0)]
                if language in _SAME_PACKAGE_LANGUAGES:
                    here = posixpath.dirname(self.modules.file(fid)[0])
                    same = [
                        s
                        for s in self.symbols.named(name)
                        if s.kind in _CALLABLE_KINDS
                        and self.modules.file(s.file_id)[1] == language
                        and posixpath.dirname(self.modules.file(s.file_id)[0]) == here
                        and (self.symbols.sym(s.parent_id).kind == "module" if s.parent_id is not None else True)
                    ]
                    if same:
                        return [Target(s, "package", 0.9, len(same)) for s in same]
            if language == "python" and name in _PY_BUILTINS:
                return []
            if language == "python" and kind == "call" and self._assigned(fid, scope, name):
                # `handler = getattr(module, name)` then `handler(x)`: a variable holding what nothing here tells; a
                # function of that name elsewhere is not it
                return []
        return self._unbound(fid, scope, name, receiver, kind, language)

    def _assigned(self, fid: int, scope: Sym, name: str) -> bool:
        """Whether the nearest scope stating anything about ``name`` binds it (an assignment, a loop variable, an
        unpacking): a variable of this module."""
        return any(kind in _BINDING_FACTS for _where, (kind, _text) in self._facts_of(fid, scope, name))

    def _unbound(self, fid: int, scope: Sym, name: str, receiver: str, kind: str, language: str | None) -> list[Target]:
        """A name no binding explains: an ``argparse`` default, or the definitions of that name (``name-match``)."""
        if kind not in ("call", "attr"):
            return []
        if receiver and kind == "call" and language == "python":
            # before the receiver's type: `def process(args: argparse.Namespace)` is typed by an outside module
            defaults = self._argparse_defaults(fid, scope, name)
            if defaults:
                return defaults
            overrides = self._outside_base_overrides(fid, scope, receiver, name)
            if overrides:
                return overrides
        if receiver and self._receiver_is_external(fid, scope, receiver):
            return []
        if name in _PROTOCOL_METHODS:
            # protocol methods of unknown objects: every class has them, a name says nothing; but the object's may
            # for an operator or a loop (`version == other` in `def match(self, version)`: semantic_version's
            # Version.__eq__). Not for `schema(data)` or `repr(version)`: left ambiguous, the walk reaches every class's
            # __call__ or __repr__ from them (dispatch.ImplicitCallers.protocol_callers), where one class by name cut
            # voluptuous's callers
            if receiver and kind == "call" and language == "python" and name in _WHOLE_NAME_DUNDERS:
                methods = [c for c in self.symbols.named(name) if c.kind == "method"]
                return self._named_after_receiver(receiver, methods, whole=True)
            return []
        cands = self._candidates(name, receiver)
        if not receiver and language == "python":
            # a bare name is no method of a class outside the scope: Python has no implicit self (mando's
            # `command, a = self.parse(args); command(*a)` is not `SubProgram.command`)
            cands = [c for c in cands if c.kind != "method"]
        if receiver.startswith("super"):  # a cooperative `super().save()` of a mixin: never the method itself
            cands = [c for c in cands if c.id != scope.id]
        if receiver in _SELF_NAMES and kind == "call" and language == "python" and cands:
            # `validator = attrib()` in the body of attrs' _OptionalValidator: `self.validator(...)` calls what the
            # attribute holds, no method of an unrelated class named so (a subclass may define one: dispatch)
            cls = self.symbols.enclosing_class(scope)
            if cls is not None and self._binds_in_body(cls, name):
                family = set(self.hierarchy.descendants(cls.id))
                cands = [c for c in cands if c.parent_id in family]
        if kind == "attr":
            cands = [c for c in cands if _is_property(c)]
            if not cands and receiver and language == "python":
                # `self.config.min` where nothing tells what `config` holds: the `__getattr__` of a class named after
                # it (radon's `Config`, which serves its values from a dict), as a reading of it runs
                return self._named_after_receiver(receiver, [c for c in self.symbols.named("__getattr__") if c.kind == "method"])
        elif receiver in _SELF_NAMES and name[:1].isupper() and language == "python":
            # `self.AND(self, other)` where the class says `AND = None` and the program sets it later (boolean.py's
            # BooleanAlgebra: `setattr(obj, "AND", AND_class or AND)`): an attribute named like a class holds one
            cands = cands + [c for c in self.symbols.named(name) if c.kind in _CLASS_KINDS and self.modules.file(c.file_id)[1] == language]
        if receiver and kind == "call" and language == "python" and receiver not in _SELF_NAMES and not receiver.startswith("super"):
            plugins = self._module_families.get(name)  # (the candidates of a name with a receiver are the same everywhere)
            if plugins is None:
                plugins = self._module_families[name] = self._module_family(cands)
            if plugins:
                # yamllint's rule modules, kept in a dict and called as `rule.check(...)`: the same function of sibling
                # modules of one package is a protocol of modules, as an override family is of classes
                return [Target(c, "name-match", FAMILY_CONFIDENCE, len(plugins)) for c in plugins]
        if not cands or (len(cands) > MAX_CANDIDATES and not (receiver and kind == "call" and self._few_families(name, cands))):
            # ambiguous, even where the receiver is named after one of the classes: glom's `spec.glomit(target,
            # scope)` with thirty classes defining glomit (one `Spec`) is a protocol of its own, whose implementations
            # the test walk reaches from the calls left ambiguous (dispatch.ImplicitCallers.protocol_callers)
            return []
        named = self._named_after_receiver(receiver, cands) if kind == "call" and language == "python" else []
        confidence = round(0.5 / len(cands), 3)
        if receiver and kind == "call" and 1 < len(cands) <= MAX_CANDIDATES and self._one_family(name, cands):
            confidence = max(confidence, FAMILY_CONFIDENCE)
        chosen = {t.sym.id for t in named if t.confidence > confidence}
        return [t for t in named if t.sym.id in chosen] + [
            Target(c, "name-match", confidence, len(cands)) for c in cands if c.id not in chosen
        ]

    def _module_family(self, cands: list[Sym]) -> list[Sym]:
        """The candidates that are module-level functions of sibling modules of one folder (the largest such group),
        when there are at least :data:`_MODULE_FAMILY_MIN` of them and they are at least three in four of the
        candidates (none otherwise)."""
        by_folder: dict[str, list[Sym]] = {}
        for c in cands:
            if c.kind == "function" and c.parent_id is not None and self.symbols.sym(c.parent_id).kind == "module":
                by_folder.setdefault(posixpath.dirname(self.modules.file(c.file_id)[0]), []).append(c)
        found = max(by_folder.values(), key=len, default=[])
        return found if len(found) >= _MODULE_FAMILY_MIN and 4 * len(found) >= 3 * len(cands) else []

    def _binds_in_body(self, cls: Sym, name: str) -> bool:
        """Whether the body of ``cls`` or of one of its bases assigns ``name`` a value (a field, not a method)."""
        for cid in self.hierarchy.linearized(cls.id):
            stated = self.file_facts.variables(self.symbols.sym(cid).file_id).get((cid, name), [])
            if any(kind in ("assign", "alias") for kind, _text in stated):
                return True
        return False

    def _named_after_receiver(self, receiver: str, cands: list[Sym], *, whole: bool = False) -> list[Target]:
        """``engine.render()`` where nothing tells what ``engine`` holds (a lambda's parameter, pystache's
        ``lambda engine, stack: engine.render(template, stack)``): the candidates that are methods of a class whose
        name ends with the word the receiver's name ends with, its noun (``RenderEngine`` for ``engine``,
        ``self.main_engine`` or ``_engine``; ``Tag`` for ``single_tag`` or ``singleTag``), as sure
        as :data:`_RECEIVER_NAME_CONFIDENCE` for one such class, :data:`FAMILY_CONFIDENCE` for each of several.
        The words of a snake_case or camelCase variable and of a CamelCase class compare (a noun of three letters
        or more). ``whole``, for the special methods an operator or a loop runs: the class whose whole name the
        variable's noun or whole name is (``version`` or ``single_version`` for ``Version``). Not a class the noun ends
        alone: django's ``value == x`` compares a string far more often than a ``ModelChoiceIteratorValue`` (129 calls),
        ``if field:`` a Field, not a ``BoundField`` (tinycss2's ``token == ","`` runs ``LiteralToken.__eq__``, left
        unseen)."""
        if not receiver or not _DOTTED.fullmatch(receiver):
            return []
        last = receiver.rsplit(".", 1)[-1]
        words = _CAMEL_WORDS.findall(last)
        noun = words[-1].lower() if words else ""
        if last in _SELF_NAMES or len(noun) < 3 or not noun.isalpha():
            return []
        named = []
        for c in cands:
            owner = self.symbols.sym(c.parent_id) if c.kind == "method" and c.parent_id is not None else None
            if owner is not None and owner.kind in _CLASS_KINDS:
                owner_words = _CAMEL_WORDS.findall(owner.name)
                if owner_words and owner_words[-1].lower() == noun:  # `engine`, `main_engine`: a RenderEngine
                    named.append(c)
        if whole:  # the class the name's noun is, or its whole name (pyasn1's `singleTag` a Tag, `type_info` a TypeInfo)
            spelled = {noun, last.replace("_", "").lower()}
            named = [c for c in named if c.parent_id is not None and self.symbols.sym(c.parent_id).name.lower() in spelled]
        if not named or len(named) > MAX_CANDIDATES:
            return []
        # several classes so named (`node.render()` over `_EscapeNode`, `_SectionNode`, ...) are a family by name:
        # the call runs one of them
        confidence = _RECEIVER_NAME_CONFIDENCE if len(named) == 1 else FAMILY_CONFIDENCE
        return [Target(c, "receiver-name", confidence, len(named)) for c in named]

    def _outside_base_overrides(self, fid: int, scope: Sym, receiver: str, name: str) -> list[Target]:
        """``parser.parse_args(argv)`` in ``def parse_and_resolve(parser: argparse.ArgumentParser)`` where the
        repository's ``class ArghParser(argparse.ArgumentParser)`` overrides parse_args: a parameter annotated with an
        outside class may hold an instance of a subclass of the repository, whose method of that name runs
        (``dispatch``, :data:`_OUTSIDE_DISPATCH_CONFIDENCE`). A class's bases are compared by their last name
        (the store names those a class gains or loses, so that files naming them are resolved again)."""
        if not receiver.isidentifier() or receiver not in _param_names(scope) or name in _PROTOCOL_METHODS:
            return []
        outside = set()
        for where, (kind, text) in self._facts_of(fid, scope, receiver):
            annotated = type_name(text) if kind == "assign" and where == scope else ""
            if annotated and self._outside_call(fid, where, annotated):
                outside.add(annotated.rpartition(".")[2])
        if not outside:
            return []
        out = []
        for c in self._candidates(name, receiver):
            if c.kind != "method" or c.parent_id is None or self.modules.file(c.file_id)[1] != "python":
                continue
            if any(outside & self._base_names(cid) for cid in self.hierarchy.linearized(c.parent_id)):
                out.append(Target(c, "dispatch", _OUTSIDE_DISPATCH_CONFIDENCE))
        return out

    def _outside_ancestor(self, class_id: int) -> bool:
        """Whether a class or one of its in-repo ancestors names a base the index does not have (``object`` aside)."""
        return any(len(self._base_names(c) - {"object"}) > len(self.hierarchy.bases_of(c)) for c in self.hierarchy.linearized(class_id))

    def _base_names(self, class_id: int) -> frozenset[str]:
        """The last names of a class's bases as written (``typing.Protocol[T]`` -> Protocol), in the repository or not."""
        found = self._base_name_cache.get(class_id)
        if found is None:
            rows = self.conn.execute("SELECT name FROM bases WHERE symbol_id=?", (class_id,))
            found = self._base_name_cache[class_id] = frozenset(r[0] for r in rows)
        return found

    def _argparse_defaults(self, fid: int, scope: Sym, name: str) -> list[Target]:
        """``args.func(args)`` where the file gives ``set_defaults(func=cmd_bump)`` to a parser: the functions
        named on the line of such a call (which keyword each fills is not told, as for ``passed``)."""
        keywords = self._set_defaults.get(fid)
        if keywords is None:  # one query per file: most files have no such call, and most names are in none
            calls = self.conn.execute(
                "SELECT keywords FROM refs WHERE file_id = ? AND kind = 'call' AND name = 'set_defaults'", (fid,)
            )
            keywords = self._set_defaults[fid] = frozenset(k for r in calls for k in str(r[0]).split(","))
        if name not in keywords:
            return []
        rows = self.conn.execute(
            "SELECT DISTINCT c.scope_id, r.name, r.receiver FROM refs c JOIN refs r ON r.file_id = c.file_id"
            " AND r.scope_id = c.scope_id AND r.line = c.line AND r.kind = 'ref'"
            " WHERE c.file_id = ? AND c.kind = 'call' AND c.name = 'set_defaults'"
            " AND (',' || c.keywords || ',') LIKE ? ESCAPE '\\'",
            (fid, f"%,{escape_like(name)},%"),
        ).fetchall()
        out: list[Target] = []
        for scope_id, ref_name, receiver in rows:
            for t in self._resolve_name(fid, self.symbols.sym(scope_id), ref_name, receiver, "type"):
                if t.resolution != "name-match" and t.sym.kind in ("function", "method") and t.sym not in [o.sym for o in out]:
                    out.append(Target(t.sym, "argparse", 0.8, 1))
        return out

    def _alias_targets(self, fid: int, scope: Sym, name: str, kind: str, *, own: bool = False) -> list[Target]:
        """What the names a variable is assigned (``alias`` facts of the nearest scope stating any; ``own``: of
        ``scope`` itself) resolve to, name matches left out."""
        if self._depth >= 4:
            return []
        aliases = [(w, t) for w, (k, t) in self._facts_of(fid, scope, name) if k == "alias" and (not own or w == scope)]
        hits: list[Target] = []
        self._depth += 1
        try:
            for where, text in aliases:
                if text == name:
                    if where == scope or where.parent_id is None or name not in _param_names(where):
                        continue
                    # `def dump_tree(node, iter_node=iter_node): def dump(n): iter_node(n)`: the default is the
                    # outer definition, evaluated where the `def` runs (the enclosing function's own body looks
                    # past its parameters already)
                    where = self.symbols.sym(where.parent_id)
                recv, _, target = text.rpartition(".")
                found = [t for t in self._resolve_name(fid, where, target, recv, kind) if t.resolution != "name-match"]
                if not found and recv and kind == "call":
                    # `write = self.write` then `write(x)`: the function the attribute is assigned, as `self.write(x)`
                    # calls it (astor's code generator: a function nested in __init__ that the instance holds)
                    found = self._held_functions(fid, where, text)
                hits.extend(t for t in found if t.sym not in [h.sym for h in hits])
        finally:
            self._depth -= 1
        return hits

    def _few_families(self, name: str, cands: list[Sym]) -> bool:
        """Whether the candidates of a method name are the overrides in at most :data:`MAX_FAMILIES` class
        hierarchies (``Node.as_const`` and its overrides in dozens of node classes, plus a helper class's
        own): then an unknown receiver of a call of the name is most likely an instance of one of them
        (a name common to unrelated classes, ``get``, ``run``, has many roots)."""
        found = self._families.get(name)
        if found is None:
            owners = {c.parent_id for c in cands}
            found = False
            if all(c.kind == "method" for c in cands) and None not in owners:
                roots = 0
                for owner in owners:
                    assert owner is not None
                    if not any(o in owners for o in self.hierarchy.linearized(owner) if o != owner):
                        roots += 1
                found = roots <= MAX_FAMILIES
            self._families[name] = found
        return found

    def _one_family(self, name: str, cands: list[Sym]) -> bool:
        """Whether the candidates of a method name are all methods of classes with a common in-repo ancestor
        (one of them or a base they share): then a call of the name is a call of that family's method, on one
        of its classes. (A change of bases re-resolves the files with edges into the classes below it:
        :func:`affected.hierarchy_dependents`.)"""
        found = self._one_families.get(name)
        if found is None:
            owners = {c.parent_id for c in cands}
            found = False
            if all(c.kind == "method" for c in cands) and None not in owners:
                shared: set[int] | None = None
                for owner in owners:
                    assert owner is not None
                    ancestors = set(self.hierarchy.linearized(owner))
                    shared = ancestors if shared is None else shared & ancestors
                    if not shared:
                        break
                found = bool(shared)
            self._one_families[name] = found
        return found

    def _receiver_is_external(self, fid: int, scope: Sym, receiver: str) -> bool:
        """``np.array()`` where ``np`` is imported from outside the repository: no name-match."""
        head = receiver.split(".")[0]
        if not head.isidentifier():
            return False
        if (
            receiver in _PY_BUILTIN_TYPES
            and receiver not in _param_names(scope)  # (cssutils' `def _propertyname(self, property, actual)`)
            and not self._enclosing_param(scope, receiver)
            and not self.lookup(fid, scope, receiver)
            and not self._facts_of(fid, scope, receiver)
        ):
            return True  # `int.from_bytes(data, "big")`, `dict.update(self, ...)`: the built-in class's own method
        # `_REGEX = re.compile(...)` then `cls._REGEX.match(v)`, `todo = deque(...)` then `todo.popleft()`: a variable
        # (or an attribute of self) that only ever holds what an outside module's function or class makes
        variable = receiver if head in _SELF_NAMES and receiver.count(".") == 1 else head
        if variable not in _SELF_NAMES and self._holds_outside_object(fid, scope, variable):
            return True
        return self._outside_call(fid, scope, receiver)

    def _holds_outside_object(self, fid: int, scope: Sym, variable: str) -> bool:
        """Whether every assignment of ``variable`` is a call of an outside maker (:meth:`_outside_call`); an
        annotation (``_REGEX: ClassVar[Pattern[str]] = re.compile(...)``) says nothing either way unless it
        names a definition of the repository."""
        made = False
        for where, (kind, text) in self._facts_of(fid, scope, variable):
            if kind != "assign":
                return False
            if "[" in text:  # a subscripted annotation
                if any(self.lookup(fid, where, name) for name in _IDENTIFIER.findall(text)):
                    return False
                continue
            if not self._outside_call(fid, where, text, makes=True):
                return False
            made = True
        return made

    def _missing_hooks(self, cls: Sym) -> list[Target]:
        """``x[k]`` on an instance of a dict subclass without a ``__getitem__`` of its own runs dict's, which calls
        ``__missing__`` for an absent key: that of the class is the instance member (:meth:`_instance_member`), that
        of a subclass a dispatch (munch's ``DefaultFactoryMunch`` for ``Munch.__getattr__``'s ``self[k]``)."""
        if self.hierarchy.member(cls.id, "__getitem__") is not None:
            return []
        own = self.hierarchy.member(cls.id, "__missing__")
        return [Target(o, "dispatch", 0.7) for o in self.hierarchy.overrides(cls.id, "__missing__") if o != own]

    def _outside_call(self, fid: int, scope: Sym, text: str, *, makes: bool = False) -> bool:
        """Whether ``text`` (``np.array``, ``re.compile``, ``deque``) names something an import from outside the
        repository binds. ``makes``: and what calling it returns is that module's own object, not one it was given
        or found (``copy.copy(self)``, ``typing.cast(T, v)``: :data:`_PASSTHROUGH_MODULES`)."""
        head = text.split(".")[0]
        if not head.isidentifier() or head in _SELF_NAMES:
            return False
        imp = self._bound_anywhere(fid).get(head)
        if imp is None or (makes and (imp["module"] or "").lstrip(".").split(".")[0] in _PASSTHROUGH_MODULES):
            return False
        return not self.modules.module_files(fid, imp["module"], imp["level"]) and not self.lookup(fid, scope, head)

    def _bound_anywhere(self, fid: int) -> dict[str, sqlite3.Row]:
        """Names the file's imports bind, in any scope (first import of a name wins)."""
        out = self._anywhere.get(fid)
        if out is None:
            named, _ = self._bindings(fid)
            out = self._anywhere[fid] = {}
            for (_, bound), rows in named.items():
                out.setdefault(bound, rows[0])
        return out

    def _resolve_member(self, fid: int, scope: Sym, name: str, receiver: str, kind: str) -> list[Target] | None:
        """``receiver.name``: None when the receiver's meaning is unknown (fall back to name-match)."""
        language = self.modules.file(fid)[1]
        cls = self.symbols.enclosing_class(scope) if receiver in _SELF_NAMES or receiver.startswith("super(") else None
        if cls is not None and receiver == "cls" and "cls" not in _param_names(scope) and self._facts_of(fid, scope, "cls"):
            cls = None  # `cls = _math_nodes[kind]` in a method: a variable of its own, not the class
        if cls is not None:
            is_super = receiver.startswith("super")
            if name == "__class__" and not is_super:
                return [Target(cls, "self", 1.0)]  # self.__class__(...) makes another instance of the class
            m = self.hierarchy.member(cls.id, name, skip_self=is_super) if is_super else self._instance_member(cls.id, name, fid)
            out: list[Target] = []
            if m is not None:
                out.append(Target(m, "super" if is_super else "self", 1.0))
            elif is_super and language == "python":
                out.extend(self._cooperative_next(cls, name))
            elif not is_super and kind == "call" and language == "python":
                out.extend(self._class_attribute_functions(fid, cls, name))
            if not is_super and kind in ("call", "attr"):
                out.extend(Target(o, "dispatch", 0.7) for o in self.hierarchy.overrides(cls.id, name) if o.id != (m.id if m else -1))
                if not out and language == "python" and name not in self.file_facts.self_attributes(fid, cls):
                    # `self.get_pp(node)` where the class defines no get_pp and never sets it: its __getattr__
                    # answers (astor's SourceGenerator makes `get_*` getters there)
                    out.extend(self._getattr_hook(cls.id, name, call=kind == "call"))
                    out.extend(self._delegated(cls, name, kind))
                if name == "__getitem__" and language == "python":
                    out.extend(self._missing_hooks(cls))
            elif not is_super and kind == "ref" and m is None and language == "python" and name not in self.file_facts.self_attributes(fid, cls):
                out.extend(self._delegated(cls, name, kind))  # `register(self.add_token)`: the delegate's bound method
            if is_super and not out and language == "python" and self._outside_ancestor(cls.id):
                # `super().formatMessage(record)` in a class deriving from `logging.Formatter`: that base's method,
                # nothing of the index (a name match found the method itself)
                return []
            return out if out else None
        chain = call_chain(receiver)
        if chain is not None:
            return self._member_of_call_result(fid, scope, name, *chain) or None
        head, _, rest = receiver.partition(".")
        if not head.isidentifier():
            return None
        bound = self.lookup(fid, scope, head)
        if bound and language == "python" and self._local_name(fid, scope, head):
            bound = []
        if not bound and not rest and name != "__call__":
            # `converter = CONVERTERS[lang]`: one of the table's instances, by a key known when it runs
            held = self._table_classes(fid, scope, receiver)
            if held:
                return self._instance_targets(held, lambda c: [m for m in [self._instance_member(c.id, name)] if m]) or None
        if not bound:
            typed = not rest or head in ("self", "cls")
            classes = self._types_of(fid, scope, receiver) if typed else []
            if not typed and language == "python" and rest.isidentifier():
                # `req.GET.add(k, v)`, `del req.GET[k]`; `cfg.new["option"] = 1` through INIConfig's __getattr__
                classes = self._property_values(fid, scope, head, rest) or self._made_by_getattr(fid, scope, receiver)
            # calling a variable: a class object constructs (`x: type[Cls]`, `x = Cls`), an instance runs
            # its class's __call__
            objects = self._class_objects(fid, scope, receiver) if typed and name == "__call__" else []
            out_typed = [Target(c, "typed", 0.9) for c in objects]
            # a class object in a variable (`exc: type[Error] = Error`) may be a subclass: its constructors may run
            if objects and not all(k == "lookup" for _, (k, _t) in self._facts_of(fid, scope, receiver)):
                # (not `ObjectProxy[int](x)`: a generic class subscripted is that class, whose subclasses' constructors
                # do not run; their guesses were the nearest tests of wrapt's proxies, and hid the others)
                out_typed.extend(t for c in objects for ctor in _CONSTRUCTORS for t in self._typed_dispatch(c, ctor))
            if typed and name == "__call__":  # `f = self.get_visitor(node)` then `f(node)`
                out_typed.extend(self._returned_callables_of(fid, scope, receiver))
                out_typed.extend(self._looked_up_callables(fid, scope, receiver))
                if rest:  # `self.key = key or make_key` then `self.key(...)` (a plain name's aliases: _resolve_name)
                    out_typed.extend(self._held_functions(fid, scope, receiver))
            if typed and not rest and not classes and kind == "call" and language == "python" and self._class_callable(name, receiver):
                # `for cls in ADAPTER_CLASSES: if cls.is_item(item)`: the classmethod of each class object it may hold
                held = self._iterated_classes(fid, scope, receiver)
                out_typed.extend(self._instance_targets(held, lambda c: [m for m in [self.hierarchy.member(c.id, name)] if m]))
            if typed and rest and name in ("__next__", "__iter__"):  # `self._it = self._reader()`, `next(self._it)`
                out_typed.extend(self._held_generators(fid, scope, receiver))
            for cls_sym in classes:
                if cls_sym in objects:
                    continue
                m = self._instance_member(cls_sym.id, name, fid)
                if m is None and name == "__ne__":  # object.__ne__ returns the inverse of __eq__
                    m = self.hierarchy.member(cls_sym.id, "__eq__")
                if m is not None:
                    out_typed.append(Target(m, "typed", 0.9))
                elif language == "python":
                    bound = self._class_attribute_functions(fid, cls_sym, name) if kind == "call" else []
                    out_typed.extend(bound)  # `concat = staticmethod(native_concat)` in its body
                    if not bound and kind == "call":  # `self.error = DocoptExit` in a method: a class object
                        bound = self._attribute_class_objects(fid, cls_sym, name)
                        out_typed.extend(bound)
                    if not bound and kind in ("call", "attr"):
                        out_typed.extend(self._getattr_hook(cls_sym.id, name, call=kind == "call"))
                if kind in ("call", "attr"):
                    overrides = self._typed_dispatch(cls_sym, name)
                    # an instance the scope constructs runs its class's own methods, not a subclass's overrides
                    if overrides and not (
                        not rest and language == "python" and cls_sym.id in self._constructed(fid, scope, receiver)
                    ):
                        out_typed.extend(overrides)
                if name == "__getitem__" and language == "python":
                    out_typed.extend(self._missing_hooks(cls_sym))
            if typed and not out_typed and language == "python":
                out_typed.extend(self._aliased_module_members(fid, scope, receiver, name))
            return out_typed or None
        out = []
        for t in bound:
            target: Sym | None = t.sym
            # walk the rest of a dotted receiver: module attributes, nested classes, submodules
            for part in [p for p in rest.split(".") if p] if rest else []:
                target = self._attribute(fid, target, part) if target is not None else None
            if target is None:
                continue
            if target.kind == "module":
                found = self.export(target.file_id, name)
                if not found and language == "python":
                    sub = self.modules.file(target.file_id)[2]
                    found = [
                        Target(self.symbols.module_symbol(f), "module", 1.0)
                        for f in self.modules.module_files(fid, f"{sub}.{name}", 0)
                    ] if sub else []
                    if not found and kind == "call":
                        # `encoder.encode(s)` where encoder.py says `encode = Encoder()`: the instance's __call__
                        # (pyasn1's codecs)
                        self._depth += 1
                        try:
                            classes = self._module_instances_of(target.file_id, name)
                        finally:
                            self._depth -= 1
                        out.extend(
                            Target(m, "typed", 0.9) for c in classes for m in [self._instance_member(c.id, "__call__")] if m
                        )
                out.extend(Target(x.sym, "module", x.confidence) for x in found)
            elif target.kind in _CLASS_KINDS:
                m = self.hierarchy.member(target.id, name)
                if m is not None:
                    out.append(Target(m, "class", 1.0))
                    inherited = m.parent_id != target.id and "classmethod" in m.decorators
                    if inherited and language == "python" and scope.kind in ("function", "method"):
                        # `ComplexityVisitor.from_code(src)`, a base's classmethod: its `cls(...)` makes a
                        # ComplexityVisitor, whose methods its outside base runs (radon's visitors). Not at a module's
                        # top, where such a call registers the class (jsonpickle's `DatetimeHandler.handles(datetime)`)
                        out.append(Target(target, "class", 1.0))
                elif kind == "type" and self._is_enum(target):
                    out.append(Target(target, "class", 1.0))  # `c = Color.RED`: a member, an instance of the enum
                elif (
                    kind == "call"
                    and language == "python"
                    and name.startswith("from")
                    and scope.kind in ("function", "method")
                    and self._outside_ancestor(target.id)
                ):
                    # `LocalRefResolver.from_schema(schema)`, an alternate constructor the class inherits from a base
                    # outside the repository (jsonschema's RefResolver): its `cls(...)` likely makes this class
                    out.append(Target(target, "class", _OUTSIDE_FACTORY_CONFIDENCE))
            elif target.kind in ("function", "method") and target.decorators and target.file_id == fid:
                # `@click.command() def cli(): ...` then `cli.main()`: the name holds what the decorator
                # returns (only for this file's functions: another file's decorators are not tracked here)
                for cls_sym in self._decorated_types(fid, target):
                    m = self.hierarchy.member(cls_sym.id, name)
                    if m is not None:
                        out.append(Target(m, "typed", 0.9))
                    if kind in ("call", "attr"):
                        out.extend(self._typed_dispatch(cls_sym, name))
        return out if out else None

    def _getattr_hook(self, class_id: int, name: str, *, call: bool = False) -> list[Target]:
        """For a class (or an in-repo base) that lacks ``name``: its ``__getattr__``, which Python calls for an
        attribute the lookup does not find (``db.insert(...)`` on a ``TinyDB`` that forwards to its table); for a
        ``call``, also the methods of its own it returns bound (cssutils's error handler: ``log.error(msg)`` runs the
        ``self.__handle`` its ``__getattr__`` returns)."""
        if name.startswith("__") and name.endswith("__"):
            return []  # Python looks special methods up on the type, never through __getattr__
        hook = self.hierarchy.member(class_id, "__getattr__")
        if hook is None or hook.kind != "method":
            return []
        out = [Target(hook, "getattr-hook", _GETATTR_CONFIDENCE)]
        if call and hook.parent_id is not None:
            # (a change of what __getattr__ returns re-resolves every file: affected.affected_files)
            for kind, text in self.file_facts.variables(hook.file_id).get((hook.id, RETURN_FACT), []):
                receiver, _, attr = text.rpartition(".")
                bound = self.hierarchy.member(hook.parent_id, attr) if kind == "alias" and receiver == "self" else None
                if bound is not None and bound.kind == "method" and bound != hook:
                    out.append(Target(bound, "getattr-hook", _GETATTR_CONFIDENCE))
        return out

    def _delegated(self, cls: Sym, name: str, kind: str) -> list[Target]:
        """``self.name`` where the class lacks ``name`` and its ``__getattr__`` forwards to an attribute, ``return
        getattr(self.proxy_target, attr)``: the member of the classes that attribute holds (oauthlib's OpenID grants
        over their OAuth 2 grant). A read (``attr``) runs a property only. Only on ``self``: what the attribute holds is
        read from the instance's class and its bases, whose files' changes re-resolve this one (store._class_facts)."""
        hook = self.hierarchy.member(cls.id, "__getattr__")
        if hook is None or hook.kind != "method" or hook.parent_id is None or self._depth > 4:
            return []
        if ("assign", "getattr") not in self.file_facts.variables(hook.file_id).get((hook.id, RETURN_FACT), []):
            return []
        forwarded = self._forwarded.get(hook.id)
        if forwarded is None:
            lines = {r[0] for r in self.conn.execute(
                "SELECT line FROM refs WHERE scope_id=? AND kind='call' AND name='getattr' AND receiver=''", (hook.id,)
            )}
            forwarded = self._forwarded[hook.id] = sorted({
                str(r[0]) for r in self.conn.execute(
                    "SELECT name, line FROM refs WHERE scope_id=? AND kind='ref' AND receiver='self'", (hook.id,)
                ) if r[1] in lines
            })
        out: list[Target] = []
        self._depth += 1
        try:
            for attr in forwarded:
                for held in self._types_of(cls.file_id, cls, f"self.{attr}"):
                    m = self._instance_member(held.id, name) if held.kind == "class" else None
                    if m is not None and (kind != "attr" or _is_property(m)) and m not in [t.sym for t in out]:
                        out.append(Target(m, "getattr-hook", 0.9))
        finally:
            self._depth -= 1
        return out

    def _instance_member(self, class_id: int, name: str, fid: int | None = None) -> Sym | None:
        """The member a call of ``name`` on an instance runs: ``a != b`` runs ``__eq__`` where the class (and its
        bases) has no ``__ne__``, as ``object.__ne__`` does; with the file ``fid`` being resolved, ``str(x)`` runs the
        ``__repr__`` of a class of that file that has no ``__str__`` (:meth:`_repr_for_str`)."""
        m = self.hierarchy.member(class_id, name)
        if m is None and name == "__ne__":
            m = self.hierarchy.member(class_id, "__eq__")
        if m is None and name == "__getitem__":  # a dict subclass's `x[k]`: dict.__getitem__ calls __missing__
            m = self.hierarchy.member(class_id, "__missing__")
        if m is None and name == "__str__" and fid is not None:
            m = self._repr_for_str(fid, class_id)
        if m is None and name in ORDERING_METHODS and any(
            d.rpartition(".")[2] == "total_ordering" for c in self.hierarchy.linearized(class_id) for d in self.symbols.sym(c).decorators
        ):
            # `@functools.total_ordering` makes the other comparisons from the one the class defines (attrs'
            # VersionInfo: `vi <= (19, 2)` runs its __lt__)
            m = next((r for r in (self.hierarchy.member(class_id, root) for root in ORDERING_METHODS) if r is not None), None)
        if m is None and name in _MIXIN_NAMES:
            m = self._abc_mixin(class_id, name)
        return m

    def _abc_mixin(self, class_id: int, name: str) -> Sym | None:
        """The method of a class's own that the ``collections.abc`` mixin ``name`` of an outside base runs
        (:data:`ABC_MIXINS`)."""
        for c in self.hierarchy.linearized(class_id):
            inside = {self.symbols.sym(b).name for b in self.hierarchy.bases_of(c)}
            for base in sorted(self._base_names(c) - inside):  # (a base of the repository of such a name is no mixin)
                target = ABC_MIXINS.get(base, {}).get(name)
                if target is not None:
                    return self.hierarchy.member(class_id, target)
        return None

    def _repr_for_str(self, fid: int, class_id: int) -> Sym | None:
        """``str(x)``, ``f"{x}"``, ``"%s" % x`` of an instance whose class has a ``__repr__`` and no ``__str__``:
        ``object.__str__`` calls the ``__repr__`` (an OrderedSet in an error message). Only for a class whose in-repo
        ancestors are of the file being resolved, whose bodies must not bind ``__str__`` (hyperlink's ``__str__ =
        to_text``; another file's class body is not read), and that has no base outside the repository (Exception has
        a ``__str__`` of its own)."""
        mro = self.hierarchy.linearized(class_id)
        facts = self.file_facts.variables(fid)
        if any(self.symbols.sym(c).file_id != fid or (c, "__str__") in facts for c in mro) or self._outside_ancestor(class_id):
            return None
        return self.hierarchy.member(class_id, "__repr__")

    def _returned_callables_of(self, fid: int, scope: Sym, var: str) -> list[Target]:
        """What a variable may hold when it is assigned the result of a function of this file that returns a
        nested function (``f = make(); f()``), a function it names (``return width_fn``), a look-up by prefix
        (``def get_visitor(self, node): return getattr(self, f"visit_{...}", None)``), or, for a name unpacked from
        the result (``strings, padfn = choose(...)``), the functions at its position of a returned tuple."""
        if self._depth > 4:
            return []
        out: list[Target] = []
        self._depth += 1
        try:
            for where, (kind, text) in self._facts_of(fid, scope, var):
                # `strings, padfn = choose(...)`: an `unpack` fact `choose#1`, position 1 of what choose returns
                text, _, position = text.partition("#") if kind == "unpack" else (text, "", "")
                if kind not in ("assign", "unpack") or not all(p.isidentifier() for p in text.split(".")):
                    continue
                receiver, _, name = text.rpartition(".")
                called = self._resolve_name(fid, where, name, receiver, "type")
                if not called and not receiver:
                    # `for lookup_func in checker_lookup_functions: checker = lookup_func(...)`: each function the
                    # collection of the file holds (typeguard's checker look-ups)
                    called = self._looked_up_callables(fid, where, name)
                for t in called:
                    if t.resolution == "name-match" or t.sym.kind not in ("function", "method"):
                        continue
                    if position:
                        made = self._returned_by_name(fid, t.sym, f"{RETURN_FACT}#{position}")
                    else:
                        made = [Target(f, "returned", 0.9) for f in self._returned_functions(fid, t.sym)]
                        made += self._returned_by_name(fid, t.sym) + self._variable_lookups(fid, t.sym, RETURN_FACT)
                    for found in made:
                        if found.sym not in [o.sym for o in out]:
                            out.append(found)
        finally:
            self._depth -= 1
        return out

    def _held_functions(self, fid: int, scope: Sym, var: str) -> list[Target]:
        """The functions an attribute is assigned by name, one of which a call of it runs: ``self.key = key or
        make_key``, ``self.get = _get`` of a function nested in the method, ``self.handler = handler`` of a parameter
        ``handler=return_none`` (what a caller passes is not seen; another file's facts are not read here)."""
        if self._depth > 4:
            return []
        found: list[Sym] = []
        self._depth += 1
        try:
            for where, (kind, text) in self._facts_of(fid, scope, var):
                if kind != "alias" or text == var or not all(p.isidentifier() for p in text.split(".")):
                    continue
                if "." not in text and text in _param_names(where):  # a parameter: the function its default names
                    hits = [t.sym for t in self._held_functions(fid, where, text)]
                else:
                    receiver, _, name = text.rpartition(".")
                    hits = [t.sym for t in self._resolve_name(fid, where, name, receiver, "ref") if t.resolution != "name-match"]
                    if not hits and receiver in ("self", "cls"):  # `= self.default_digest_method`, a class attribute
                        hits = [t.sym for t in self._held_functions(fid, where, text)]
                found.extend(h for h in hits if h.kind in ("function", "method") and h not in found)
        finally:
            self._depth -= 1
        confidence = _HELD_CONFIDENCE if len(found) == 1 else _LOOKUP_CONFIDENCE
        return [Target(f, "held", confidence, len(found)) for f in found]

    def _looked_up_callables(self, fid: int, scope: Sym, var: str) -> list[Target]:
        """What a variable may hold when it takes an item of a table of functions the file fills (``f =
        TABLE.get(k)``, ``f = self.FUNCS[k]``, ``for f in self.FUNCS.values()``, of ``FUNCS = {"iso": from_iso, ...}`` in the class body, or in the
        body of a subclass of the same file that replaces it, or in the methods of such a subclass that add to it;
        ``table[k](...)``, see python.finalize): each function (or class) of the table, one of which runs."""
        if self._depth > 4:
            return []
        found: list[Sym] = []
        self._depth += 1
        try:
            for where, (kind, container) in self._facts_of(fid, scope, var):
                if kind == "element":  # `for func in self.handlers.values()` (`.items()`: its second name)
                    container = container.removesuffix(".values").removesuffix(".items")
                if kind in ("lookup", "element") and all(p.isidentifier() for p in container.split(".")):
                    found.extend(f for f in self._table_callables(fid, where, container) if f not in found)
        finally:
            self._depth -= 1
        return _table_targets(found)

    def _given_callables(self, fid: int, scope: Sym, var: str) -> list[Sym]:
        """The functions a local collection holds when it is given to a call by name (``self._sub(mo, methods)``
        after ``methods = {"plural": self.plural, ...}``), or an item of one is (``self._plequal(a, b, norm) for norm
        in norms`` after ``norms = self.plural_noun, self.plural_verb``): the function given it may call them."""
        if self._depth > 4:
            return []
        found: list[Sym] = []
        self._depth += 1
        try:
            facts = self._facts_of(fid, scope, var)
            tables = {(w.id, text): w for w, (kind, text) in facts if kind == "element"}
            tables.update({(w.id, var): w for w, (kind, _) in facts if kind == "item"})
            for (_, container), where in tables.items():
                found.extend(f for f in self._table_callables(fid, where, container) if f not in found)
        finally:
            self._depth -= 1
        return found

    def _table_callables(self, fid: int, where: Sym, container: str) -> list[Sym]:
        """The functions (and classes) a table of the file holds, stated in ``where`` or above: its items, those of
        a subclass's replacement or additions for a table on self, and those of the table it is made from
        (``self.operators = operators`` of ``operators = DEFAULT_OPERATORS.copy()`` or of a parameter's default
        ``operators=DEFAULT_OPERATORS``, a table of the module: ``DEFAULT_OPERATORS = {ast.Add: safe_add, ...}``)."""
        found: list[Sym] = []
        todo = [(where, container)]
        seen: set[tuple[int, str]] = set()
        while todo and len(seen) < 8:
            where, container = todo.pop()
            if (where.id, container) in seen:
                continue
            seen.add((where.id, container))
            tables = self._facts_of(fid, where, container)
            cls = self.symbols.enclosing_class(where) if container.startswith(("self.", "cls.")) else None
            if cls is not None and cls.kind == "class":  # a subclass of the file may replace the table
                attr = container.partition(".")[2]
                facts = self.file_facts.variables(fid)
                # or a method of the class fills it through a name of its own (`conv = self._type_conversions`, then
                # `conv[group] = int_convert(10)`: parse's Parser)
                for m in self.symbols.children(cls.id):
                    for var in self.file_facts.aliases_of(fid, m.id, container) if m.kind == "method" else ():
                        tables.extend((m, f) for f in facts.get((m.id, var), []) if f[0] == "item")
                for sub in self.hierarchy.descendants(cls.id):
                    if self.symbols.sym(sub).file_id == fid:
                        tables.extend((self.symbols.sym(sub), f) for f in facts.get((sub, attr), []))
                        # or fills it in a method of its own (`self.nodes.update({ast.Dict: self._eval_dict})`)
                        for m in self.symbols.children(sub):
                            tables.extend((m, f) for f in facts.get((m.id, container), []))
                    else:  # a subclass of another file: the methods of its own it stores there
                        found.extend(f for f in self.file_facts.stored_methods(self.symbols.sym(sub), container) if f not in found)
            module = self.symbols.module_symbol(fid)
            if container.isidentifier() and all(at.id == module.id and kind != "item" for at, (kind, _) in tables):
                # a module's table, stated at import time (`ADAPTERS = deque([DictAdapter, ...])`: what it is made of)
                tables += [(module, ("item", value)) for value in self.file_facts.module_tables(fid).get(container, ())]
            if container.isidentifier() and all(at.id == module.id or kind == "item" for at, (kind, _) in tables):
                # a table of the module that the file's functions add to: what they add by name, and for a parameter
                # of a decorator (`@cli.command("diff")` storing the function in `_COMMANDS`, which `main` calls an
                # item of), the functions it decorates, anywhere
                for filler, fact in self._module_table_additions(fid, container):
                    if fact[1] in _param_names(filler):
                        found.extend(t.sym for t in self._decorated_by(fid, filler) if t.sym not in found)
                    elif (filler, fact) not in tables:
                        tables.append((filler, fact))
            for at, (item_kind, text) in tables:
                if item_kind in ("alias", "assign"):  # the table made from another: `= operators`, `= T.copy()`
                    source = text.removesuffix(".copy") if item_kind == "assign" else text
                    made = source != text or item_kind == "alias"
                    if made and source != container and all(p.isidentifier() for p in source.split(".")):
                        todo.append((at, source))
                    continue
                if item_kind == "item" and "(" in text:
                    # an instance made there (`int_convert(10)`): calling the item runs its class's __call__
                    maker, _, _ = text.partition("(")
                    if all(p.isidentifier() for p in maker.split(".")):
                        receiver, _, name = maker.rpartition(".")
                        for t in self._resolve_name(fid, at, name, receiver, "type"):
                            call = self.hierarchy.member(t.sym.id, "__call__") if t.sym.kind in _CLASS_KINDS else None
                            if t.resolution != "name-match" and call is not None and call not in found:
                                found.append(call)
                    continue
                if item_kind != "item" or not all(p.isidentifier() for p in text.split(".")):
                    continue
                iterated = [f[1] for _, f in self._facts_of(fid, at, text) if f[0] == "element"] if text.isidentifier() else []
                if iterated:  # `[cls for cls in FRAME_CLASSES]`, `{cls.type: cls for ...}`: the items of what it iterates
                    todo.extend((at, source) for source in iterated if all(p.isidentifier() for p in source.split(".")))
                    continue
                receiver, _, name = text.rpartition(".")
                for t in self._resolve_name(fid, at, name, receiver, "ref"):
                    if t.resolution != "name-match" and t.sym.kind in _CALLABLE_KINDS and t.sym not in found:
                        found.append(t.sym)
                owner = self.symbols.enclosing_class(at) if receiver in ("self", "cls") else None
                if owner is not None:  # `self.render_quote`, bound: a subclass's override runs for its instances
                    found.extend(o for o in self.hierarchy.overrides(owner.id, name) if o not in found)
                # `handler = getattr(self, f"on_{node}")` then `self.handlers[node] = handler` (asteval)
                for t in self._variable_lookups(fid, at, text):
                    if t.sym not in found:
                        found.append(t.sym)
        return found

    def _module_table_additions(self, fid: int, container: str) -> list[tuple[Sym, Fact]]:
        """What the functions of the file ``fid`` add to the module's ``container`` (``HANDLERS[name] = fn``,
        ``HOOKS.append(fn)``), each with the function, from those that bind no ``container`` of their own."""
        added: list[tuple[Sym, Fact]] = []
        for scope_id, facts in self.file_facts.stating(fid, container):
            if any(kind != "item" for kind, _ in facts):
                continue
            fn = self.symbols.sym(scope_id)
            if fn.kind in ("function", "method") and container not in _param_names(fn):
                added.extend((fn, f) for f in facts)
        return added

    def _variable_lookups(self, fid: int, scope: Sym, var: str) -> list[Target]:
        """The members a variable of ``scope`` holds when it is assigned a look-up by prefix that the scope does
        not call (``x = getattr(self, f"on_{n}")``), or names such a variable; under :data:`RETURN_FACT`, what the
        function returns (``return getattr(...)``, ``return x``; another file's function bodies are not read)."""
        facts = self.file_facts.variables(fid)
        lookups = facts.get((scope.id, LOOKUP_FACT), [])
        if not lookups or not any(
            text == "getattr" if kind == "assign" else ("assign", "getattr") in facts.get((scope.id, text), [])
            for kind, text in facts.get((scope.id, var), [])
        ):
            return []
        out: list[Target] = []
        for _, text in lookups:
            receiver, _, prefix = text.rpartition(".")
            out.extend(t for t in self._prefixed_members(fid, scope, prefix.rstrip("*"), receiver) if t not in out)
        return out

    def _prefixed_members(self, fid: int, scope: Sym, prefix: str, receiver: str) -> list[Target]:
        """The methods ``getattr(receiver, "<prefix>..." )`` may return: those whose name starts with the
        prefix, of the receiver's class (``self``, ``cls`` or a typed variable), its bases and subclasses (for
        an empty prefix, all but the special methods). For a prefix with a tail (``xpath_*_function``, see
        :func:`name_fits`): those whose name fits it, or when none does, those of the prefix alone (the name may be of
        something set at run time, formencode's ``getattr(cls, "_%s__singleton" % cls.__name__)``: what the look-up
        finds is not known)."""
        found = self._members_fitting(fid, scope, prefix, receiver)
        head, tailed, _ = prefix.partition("*")
        return found or (self._members_fitting(fid, scope, head, receiver) if tailed else [])

    def _members_fitting(self, fid: int, scope: Sym, prefix: str, receiver: str) -> list[Target]:
        """The methods of :meth:`_prefixed_members` whose name fits ``prefix``."""
        held = self._table_classes(fid, scope, receiver) if receiver.isidentifier() else []
        if held:  # an item of a table of instances: each class's own members of the prefix, or those it inherits
            return self._instance_targets(held, lambda c: self._prefixed_definitions(c, prefix, scope), _LOOKUP_CONFIDENCE)
        if receiver in ("self", "cls"):
            cls = self.symbols.enclosing_class(scope)
            classes = [cls] if cls is not None else []
        elif receiver.isidentifier() or receiver.startswith(("self.", "cls.")):
            classes = self._types_of(fid, scope, receiver)
        else:
            classes = []
        found: list[Sym] = []
        for cls in classes:
            for cid in [*self.hierarchy.linearized(cls.id), *self.hierarchy.descendants(cls.id)]:
                found.extend(c for c in self.symbols.children(cid) if _prefixed(c, prefix, scope) and c not in found)
        if receiver in ("self", "cls") and classes and len(prefix) >= _PREFIX_GUESS_MIN:
            # and the mixins of the language's project named so (marko's `getattr(self, "render_" + ...)` in
            # Renderer.render runs `GFMRendererMixin.render_table`: an extension's mixins join the renderer class at
            # run time, `type("R", (*mixins, HTMLRenderer), {})`); found by name, as a look-up by prefix is re-resolved
            found.extend(t.sym for t in self._mixin_members(prefix, self.modules.file(fid)[1]) if t.sym not in found)
        if not classes and len(prefix) >= _PREFIX_GUESS_MIN and not self._receiver_is_external(fid, scope, receiver):
            return self._prefix_guesses(prefix, self.modules.file(fid)[1])
        # no prefix (a name made elsewhere): any method may be the one, each a guess among all of them
        confidence = _LOOKUP_CONFIDENCE if prefix else round(min(_LOOKUP_CONFIDENCE, 1 / max(len(found), 1)), 3)
        return [Target(m, "getattr", confidence, len(found)) for m in found]

    def _prefixed_definitions(self, cls: Sym, prefix: str, scope: Sym) -> list[Sym]:
        """The methods an instance of ``cls`` has whose name starts with ``prefix``: the first definition of each
        name along its bases."""
        seen: dict[str, Sym] = {}
        for cid in self.hierarchy.linearized(cls.id):
            for child in self.symbols.children(cid):
                if _prefixed(child, prefix, scope):
                    seen.setdefault(child.name, child)
        return list(seen.values())

    def _table_classes(self, fid: int, scope: Sym, variable: str) -> list[Sym]:
        """For a variable that only ever takes an item of collections of this file (``converter = CONVERTERS[lang]``):
        the classes of the instances they hold, when there are several (:meth:`_held_classes`)."""
        found = self._facts_of(fid, scope, variable)
        if not found or any(kind != "lookup" for _, (kind, _text) in found) or self._depth > 4:
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            for where, (_kind, text) in found:
                out.extend(c for c in self._held_classes(fid, where, text) if c not in out)
        finally:
            self._depth -= 1
        return out if len(out) > 1 else []

    def _instance_targets(
        self, classes: list[Sym], members: Callable[[Sym], list[Sym]], sure: float = _INSTANCES_CONFIDENCE
    ) -> list[Target]:
        """The ``members`` of one instance among those of ``classes`` that a table holds: each as sure (at most ``sure``)
        as the share of the classes it belongs to (a base's method most of them inherit is nearly sure; one class's own,
        not)."""
        counts: dict[Sym, int] = {}
        for cls in classes:
            for m in members(cls):
                counts[m] = counts.get(m, 0) + 1
        return [Target(m, "instances", round(sure * n / len(classes), 3), len(counts)) for m, n in counts.items()]

    def _mixin_members(self, prefix: str, language: str | None) -> list[Target]:
        """The methods named with ``prefix`` of the classes of the project whose name ends with ``Mixin`` (in the
        files of ``language``): a class made to be mixed into others, which a look-up of that prefix on ``self``
        may find in the class it joins."""
        out: list[Target] = []
        for t in self._prefix_guesses(prefix, language, every=True):
            owner = self.symbols.sym(t.sym.parent_id) if t.sym.parent_id is not None else None
            if owner is not None and owner.kind in _CLASS_KINDS and owner.name.endswith("Mixin"):
                out.append(t)
        return out

    def _prefix_guesses(self, prefix: str, language: str | None, every: bool = False) -> list[Target]:
        """For ``getattr(visitor, "visit" + name)`` on an object of unknown class: the methods named with that
        prefix anywhere, each a name-match among them, when they belong to at most :data:`MAX_FAMILIES` class
        hierarchies (a visitor class and its subclasses: mccabe's ``ASTVisitor.dispatch`` on ``self.visitor``); the
        same for every look-up of that prefix, so found once; ``every``: whatever the hierarchies."""
        key = (prefix, language, every)
        if key in self._prefix_guessed:
            return self._prefix_guessed[key]
        syms = self.symbols.named_like(prefix)
        cands = self.symbols.ordered(
            [s for s in syms if s.kind == "method" and s.name != prefix and self.modules.file(s.file_id)[1] == language]
        )
        found: list[Target] = []
        if cands and (every or self._few_families(prefix + "*", cands)):
            found = [Target(c, "name-match", round(0.5 / len(cands), 3), len(cands)) for c in cands]
        self._prefix_guessed[key] = found
        return found

    def _decorator_callee(self, fn: Sym) -> tuple[Sym, str, str] | None:
        """Where ``fn``'s outermost decorator is looked up and what it names: (scope, receiver, name) of
        ``@a.b`` or ``@a.b(...)``; None for anything but a dotted name, or too deep in a chain of questions."""
        callee = fn.decorators[0].partition("(")[0].strip()
        if self._depth > 4 or not callee or not all(p.isidentifier() for p in callee.split(".")):
            return None
        scope = self.symbols.defined_in(fn)
        receiver, _, name = callee.rpartition(".")
        return scope, receiver, name

    def _decorator_targets(self, fid: int, fn: Sym) -> list[Target]:
        """The definitions ``fn``'s outermost decorator names, looked up one level deeper (never a name-match)."""
        found_callee = self._decorator_callee(fn)
        if found_callee is None:
            return []
        scope, receiver, name = found_callee
        self._depth += 1
        try:
            return [t for t in self._resolve_name(fid, scope, name, receiver, "type") if t.resolution != "name-match"]
        finally:
            self._depth -= 1

    def _through_decorator(self, fid: int, fn: Sym, found: Callable[[Sym], Iterable[Sym]]) -> list[Sym]:
        """``found(d)`` for each definition ``d`` the outermost decorator of ``fn`` names, looked at one level
        deeper, without repeats (:meth:`_decorated_types`, :meth:`_descriptor_getters`, :meth:`_wrappers`)."""
        targets = self._decorator_targets(fid, fn)
        out: list[Sym] = []
        self._depth += 1
        try:
            for t in targets:
                out.extend(c for c in found(t.sym) if c not in out)
        finally:
            self._depth -= 1
        return out

    def _decorated_types(self, fid: int, fn: Sym) -> list[Sym]:
        """Classes the outermost decorator of ``fn`` turns it into: a decorator class itself, or the classes
        a decorator function's return annotation names (``-> Union[Command, Callable[..., Command]]``)."""
        called = "(" in fn.decorators[0]

        def made(d: Sym) -> list[Sym]:
            if d.kind in _CLASS_KINDS and not called:
                return [d]
            if d.kind in ("function", "method"):
                return self._annotation_classes(d, every=True)
            return []

        return self._through_decorator(fid, fn, made)

    def _descriptor_getters(self, fid: int, fn: Sym, *, called: bool = False) -> list[Sym]:
        """The ``__get__`` of the descriptor class a decorator of this file turns ``fn`` into: the decorator is
        the class itself or a function returning one (``instanceproperty = lambda f: InstanceProperty(f)``).
        ``called``: and the ``__call__`` of a class that is the decorator itself (toolz's ``@curry def memoize``:
        calling memoize calls the instance, whose ``__call__`` runs the function it holds; not ``@Cls(...)``, whose
        ``__call__`` is given the function to wrap). Only for this file's functions and decorators: another file's
        bodies are not read here."""
        if fn.file_id != fid or fn.kind not in ("function", "method"):
            return []
        plain = "(" not in fn.decorators[0] if fn.decorators else False

        def getters(d: Sym) -> list[Sym]:
            if d.file_id != fid:
                return []
            classes = [d] if d.kind in _CLASS_KINDS else self._returns(d, fid) if d.kind in ("function", "method") else []
            hooks = ("__get__", "__call__") if called and plain and d.kind in _CLASS_KINDS else ("__get__",)
            return [g for g in (self.hierarchy.member(c.id, hook) for c in classes for hook in hooks) if g is not None]

        return self._through_decorator(fid, fn, getters)

    def _factory_accessors(self, fid: int, owner: Sym, callee: str, method: str) -> list[Target]:
        """``path_info = environ_getter('PATH_INFO')`` in a class body, where the function (of any file) returns
        ``property(fget, fset, ...)`` of functions it defines: the nested getter (``fget``) for a read, the setter
        for a write, told by their names (webob's descriptors; their file's return facts say it makes a property)."""
        out: list[Target] = []
        word = "get" if method == "__get__" else "set"
        for factory in self._bound(fid, owner, callee):
            if factory.kind != "function" or ("assign", "property") not in self.file_facts.returned(factory.file_id).get(factory.id, []):
                continue
            nested = [c for c in self.symbols.children(factory.id) if c.kind == "function"]
            out.extend(Target(c, "property", 0.9) for c in nested if word in c.name.lower())
        return out

    def _class_descriptor(self, fid: int, scope: Sym, name: str, method: str) -> list[Target]:
        """``self.count`` where the class body (or a base's of the same file) says ``count = Counter(...)``: the
        ``method`` (``__get__`` for a read, ``__set__`` for a write) of ``Counter``, if it has one; and where a class
        body of any file says ``count = property(...)``, its getter or setter."""
        cls = self.symbols.enclosing_class(scope)
        if cls is None or cls.kind != "class" or self._depth > 4:
            return []
        return self._descriptor_of(fid, cls, name, method)

    def _descriptor_of(self, fid: int, cls: Sym, name: str, method: str, *, properties_only: bool = False) -> list[Target]:
        """:meth:`_class_descriptor` for an instance of ``cls`` (``properties_only``: only a ``property(...)``).
        A descriptor class is looked for where the class body is in this file; a property's accessors in any
        file (the store names the attribute when a class body's statements change: store._class_statements)."""
        out: list[Target] = []
        for cid in self.hierarchy.linearized(cls.id):
            owner = self.symbols.sym(cid)
            stated = self.file_facts.variables(owner.file_id).get((cid, name), [])
            if not stated:
                continue
            self._depth += 1
            try:
                for kind, text in stated:
                    if kind == "assign" and text == "property":
                        # `next_run = property(get_next_run)`, `dict = property(_get_dict, _set_dict)`: the getter runs
                        # for a read, the setter for a write (schedule's `self.next_run`)
                        accessors = self._bound_in_body(owner.file_id, cid, name, stated)
                        if len(accessors) == 1 and _names_setter(accessors[0].name):
                            # the getter a lambda (cssutils's `style = property(lambda self: self._style, _setStyle)`)
                            accessors = [] if method == "__get__" else [accessors[0], accessors[0]]
                        for f in accessors[1:2] if method == "__set__" else accessors[:1]:
                            out.append(Target(f, "property", 0.9))
                        continue
                    if properties_only or owner.file_id != fid:
                        continue
                    for desc in self._resolve_type_text(fid, owner, type_name(text)) if kind == "assign" else []:
                        m = self.hierarchy.member(desc.id, method)
                        if m is not None and m not in [t.sym for t in out]:
                            out.append(Target(m, "descriptor", 0.9))
                    if kind == "assign" and method in ("__get__", "__set__"):
                        out.extend(t for t in self._factory_accessors(fid, owner, text, method) if t not in out)
            finally:
                self._depth -= 1
            break
        return out

    def _attribute_hooks(self, scope: Sym) -> list[Target]:
        """The ``__getattribute__`` methods a read of ``self.x`` in ``scope`` runs: its class's own (or a base's), and
        its subclasses' (dispatch); none inside one (it reads through ``object.__getattribute__``)."""
        if scope.name == "__getattribute__":
            return []
        cls = self.symbols.enclosing_class(scope)
        if cls is None or cls.kind != "class":
            return []
        found = self._getattribute.get(cls.id)
        if found is None:
            own = self.hierarchy.member(cls.id, "__getattribute__")
            found = [Target(own, "self", 1.0)] if own is not None and own.kind == "method" else []
            found += [Target(o, "dispatch", 0.7) for o in self.hierarchy.overrides(cls.id, "__getattribute__") if o != own]
            self._getattribute[cls.id] = found
        return found

    def _instance_classes(self, fid: int, scope: Sym, receiver: str) -> list[Sym]:
        """The classes of the instance a plain variable (or ``self.x``) holds, for a store or a read on it; none for a
        name that is a module or class of the file (no instance)."""
        head, _, rest = receiver.partition(".")
        if self._depth > 4 or not head.isidentifier():
            return []
        if rest and head not in _SELF_NAMES:
            return self._made_by_getattr(fid, scope, receiver)
        if self.lookup(fid, scope, head) and not self._local_name(fid, scope, head):
            return []
        found = [c for c in self._types_of(fid, scope, receiver) if c.kind == "class"]
        return found or (self._made_by_getattr(fid, scope, receiver) if "." in rest else [])

    def _local_name(self, fid: int, scope: Sym, name: str) -> bool:
        """Whether ``name`` is a local of the function ``scope``, which hides a definition or module of that name: a
        parameter (a fixture, `def test(pickler)`), or a variable the function assigns, local throughout it (python-ulid's
        `ulid = ULID()` in a module that did `import ulid`; a ``global`` statement's names are the module's facts:
        python.finalize)."""
        if name in _param_names(scope):
            return True
        if scope.kind not in ("function", "method"):
            return False
        return any(kind in ("assign", "alias") for kind, _text in self.file_facts.variables(fid).get((scope.id, name), ()))

    def _made_by_getattr(self, fid: int, scope: Sym, receiver: str) -> list[Sym]:
        """For ``cfg.section`` where ``cfg`` holds an instance (:meth:`_instance_classes`) of a class that has no member
        ``section`` but a ``__getattr__``, which runs for a name the instance lacks: the classes that returns (iniparse's
        ``cfg.new.option = 1``, where INIConfig's ``__getattr__`` makes an ``Undefined`` whose ``__setattr__`` adds the
        section)."""
        owner, _, attr = receiver.rpartition(".")
        if not owner or not attr.isidentifier() or attr.startswith("__"):
            return []
        out: list[Sym] = []
        self._depth += 1
        try:
            for cls in self._instance_classes(fid, scope, owner):
                hook = self.hierarchy.member(cls.id, "__getattr__")
                if hook is None or hook.kind != "method" or self.hierarchy.member(cls.id, attr) is not None:
                    continue
                if not self._binds_in_body(cls, attr):
                    out.extend(c for c in self._returns(hook, fid) if c.kind == "class" and c not in out)
        finally:
            self._depth -= 1
        return out

    def _typed_setattr(self, fid: int, scope: Sym, receiver: str) -> list[Target]:
        """The ``__setattr__`` a store on ``receiver`` runs, where what it holds is typed: its class's (or a base's), and
        its subclasses' as dispatch."""
        if not self.symbols.named("__setattr__"):
            return []
        out: list[Target] = []
        for cls in self._instance_classes(fid, scope, receiver):
            own = self.hierarchy.member(cls.id, "__setattr__")
            if own is not None and own.kind == "method" and own not in [t.sym for t in out]:
                out.append(Target(own, "typed", 0.9))
            out.extend(t for t in self._typed_dispatch(cls, "__setattr__") if t.sym not in [o.sym for o in out])
        return out

    def _typed_properties(self, fid: int, scope: Sym, receiver: str, name: str, method: str) -> list[Target]:
        """``rule.cssText`` (``method`` ``__get__``) or ``rule.cssText = v`` (``__set__``) where ``rule`` holds an
        instance of a class whose body says ``cssText = property(_getCssText, _setCssText)``: the accessor."""
        if not self._made_property(name):  # (most attributes: no class body makes one so, no receiver to type)
            return []
        out: list[Target] = []
        for cls in self._instance_classes(fid, scope, receiver):
            out.extend(t for t in self._descriptor_of(fid, cls, name, method, properties_only=True) if t not in out)
        return out

    def _made_property(self, name: str) -> bool:
        """Whether some class body of the index assigns ``name`` a ``property(...)`` (by the index of names, once per
        name: the stored files are final when the resolver runs)."""
        found = self._properties.get(name)
        if found is None:
            found = self._properties[name] = (
                self.conn.execute(
                    "SELECT 1 FROM refs r JOIN symbols s ON s.id = r.scope_id WHERE r.name = ? AND r.kind = 'assign'"
                    f" AND r.receiver = 'property' AND s.kind IN ({','.join('?' * len(_CLASS_KINDS))}) LIMIT 1",
                    (name, *sorted(_CLASS_KINDS)),
                ).fetchone()
                is not None
            )
        return found

    def _typed_dispatch(self, cls: Sym, name: str) -> list[Target]:
        """The overrides a call of ``name`` on a value typed ``cls`` may run. Each is one of several
        possible classes: the confidence falls with their number (a base of dozens of node classes), never below a
        family's name match for at most :data:`MAX_CANDIDATES` (parso's ``node.get_defined_names()`` on a ``BaseNode``:
        typing the receiver must not make its ten overrides less likely than the same call on an untyped one)."""
        found = self.hierarchy.overrides(cls.id, name)
        confidence = round(min(_TYPED_DISPATCH_CONFIDENCE, 2 * _TYPED_DISPATCH_CONFIDENCE / len(found)), 3) if found else 0
        if 1 < len(found) <= MAX_CANDIDATES:
            confidence = max(confidence, FAMILY_CONFIDENCE)
        return [Target(o, "dispatch", confidence, len(found)) for o in found]

    def _constructed(self, fid: int, scope: Sym, var: str) -> frozenset[int]:
        """The classes a variable of ``scope`` holds an instance of because it constructs them: each fact the scope
        states of it is ``var = Cls(...)`` or an annotation naming a class, and at least one names it by a call of
        the class. Such an instance runs its class's methods, never a subclass's override (stevedore's tests make
        ``em = ExtensionManager(...)``: ``em["t1"]`` is not HookManager.__getitem__), as ``Cls(...).name`` does
        (:meth:`_member_of_call_result`). Empty when any fact says otherwise (a parameter, a function's result,
        another variable, ``cls()``), or when the class or an in-repo base has a ``__new__``, which may make a
        subclass's instance."""
        if var in _SELF_NAMES or var in _param_names(scope):
            return frozenset()
        facts = self._facts_of(fid, scope, var)
        classes: set[int] = set()
        called = False
        for where, (kind, text) in facts:
            name_text = type_name(text) if kind == "assign" else ""
            if not name_text:
                return frozenset()
            receiver, _, name = name_text.rpartition(".")
            head = name_text.partition(".")[0]
            if (
                head in _SELF_NAMES  # `self.__class__(...)`: the instance's class, maybe a subclass
                # a variable holding class objects, not the class's own name (bigtree's `node_type: Type[Node] = Node`)
                or any(head in _param_names(s) for s in self._scope_chain(where))
                or self._facts_of(where.file_id, where, head)
            ):
                return frozenset()
            targets = self._resolve_name(where.file_id, where, name, receiver, "type")
            found = [t.sym for t in targets]
            if (
                not found
                or any(t.resolution not in _DEFINITION_BINDINGS for t in targets)
                or any(c.kind not in _CLASS_KINDS or self.hierarchy.member(c.id, "__new__") is not None for c in found)
            ):
                return frozenset()
            # `em = ExtensionManager(...)` calls the class on the line it assigns; an annotation alone (`em: T`) does not
            called = called or (where.id, var, text) in self.file_facts.constructions(where.file_id)
            classes.update(c.id for c in found)
        return frozenset(classes) if called else frozenset()

    def _member_of_call_result(
        self, fid: int, scope: Sym, name: str, callee: str, methods: Sequence[str] = ()
    ) -> list[Target]:
        """``Cls(...).name`` and ``make()(...).name`` where ``make`` is annotated to return a class; with ``methods``,
        a chain, ``Version.parse(v).bump_major().name``: each method on the classes the call before it returns
        (:meth:`_returns`), then ``name`` on the last ones."""
        if self._depth > 4 or not all(p.isidentifier() for p in callee.split(".")):
            return []
        receiver, _, fn = callee.rpartition(".")
        out: list[Target] = []
        self._depth += 1
        try:
            for t in self._resolve_name(fid, scope, fn, receiver, "type"):
                if t.resolution == "name-match":
                    continue
                classes = [t.sym] if t.sym.kind in _CLASS_KINDS else self._returns(t.sym, fid)
                exact = t.sym.kind in _CLASS_KINDS  # what a class makes; make() -> Base may return a subclass
                if name == "__call__" and not methods and t.sym.kind in ("function", "method"):
                    # make(...)(...): a closure it returns
                    out.extend(Target(f, "returned", 0.9) for f in self._returned_functions(fid, t.sym))
                    out.extend(self._returned_by_name(fid, t.sym))  # or a function of the module it names
                    out.extend(self._variable_lookups(fid, t.sym, RETURN_FACT))  # or a member it looks up by prefix
                for method in methods:
                    returned: list[Sym] = []
                    for cls in classes:
                        m = self._instance_member(cls.id, method)
                        if m is not None and m.kind in ("function", "method"):
                            returned += [c for c in self._returns(m, fid) if c not in returned]
                    classes, exact = returned, False
                for cls in classes:
                    m = self._instance_member(cls.id, name)
                    if m is not None:
                        out.append(Target(m, "typed", 0.9))
                    elif self.modules.file(fid)[1] == "python":  # `Query().name`: a class that lacks name runs its __getattr__
                        out.extend(self._getattr_hook(cls.id, name))
                    if not exact:
                        out.extend(self._typed_dispatch(cls, name))
        finally:
            self._depth -= 1
        return out

    def _returned_functions(self, fid: int, fn: Sym) -> list[Sym]:
        """The functions nested in ``fn`` that it returns by name (``def make(): def inner(): ...; return inner``), ``fn``
        of any file (its return facts: :meth:`FileFacts.returned`)."""
        out: list[Sym] = []
        # `@overload` stubs come first: every definition of the name in its scope may be the one that runs
        parent = fn.parent_id if fn.parent_id is not None else self.symbols.module_symbol(fn.file_id).id
        returned = self.file_facts.returned(fn.file_id)
        for definition in [c for c in self.symbols.children(parent) if c.name == fn.name] or [fn]:
            for kind, text in returned.get(definition.id, []):
                inner = self.symbols.child_map(definition.id).get(text) if kind == "alias" else None
                if inner is not None and inner.kind in ("function", "method") and inner not in out:
                    out.append(inner)
        return out

    def _returned_by_name(self, fid: int, fn: Sym, fact: str = RETURN_FACT) -> list[Target]:
        """The functions other than its own nested ones (and the classes) that a function of the file ``fid`` returns
        by name, directly or through a variable assigned them (``width_fn = _visible_width if x else len; return
        width_fn``): one of them is called (or constructed) where what it returns is (parameters, what a caller
        passes, are not followed). ``fact``
        ``return#1``: what position 1 of a tuple it returns holds (``return strings, padfn``), nested functions too."""
        if self._depth > 4:
            return []
        if fn.file_id != fid:
            return self._returned_elsewhere(fn) if fact == RETURN_FACT else []
        nested = self.symbols.child_map(fn.id)
        found: list[Sym] = []
        self._depth += 1
        try:
            for kind, text in self.file_facts.variables(fid).get((fn.id, fact), []):
                if kind != "alias" or not all(p.isidentifier() for p in text.split(".")):
                    continue
                if "." not in text and text in _param_names(fn):
                    continue
                # `func = make_attrgetter(...)` (in one branch) then `return func`: what that call returns; `checker =
                # TABLE.get(k)` then `return checker`: each function of the table
                for t in self._returned_callables_of(fid, fn, text) + self._looked_up_callables(fid, fn, text):
                    if t.sym not in found:
                        found.append(t.sym)
                if text in nested and fact == RETURN_FACT:  # (those _returned_functions gives)
                    continue
                receiver, _, name = text.rpartition(".")
                for t in self._resolve_name(fid, fn, name, receiver, "ref"):
                    if t.resolution != "name-match" and t.sym.kind in _RETURNED_CALLABLE_KINDS and t.sym not in found:
                        found.append(t.sym)
        finally:
            self._depth -= 1
        confidence = 0.9 if len(found) == 1 else _LOOKUP_CONFIDENCE
        return [Target(f, "returned", confidence, len(found)) for f in found]

    def _returned_elsewhere(self, fn: Sym) -> list[Target]:
        """For a function of another file: the functions and classes of its module (or that it imports) other than its
        own nested functions that it returns by name (``return functools.partial(update_wrapper, wrapped=wrapped)`` returns what calls
        ``update_wrapper``), through definitions and imports only (:meth:`_bound`)."""
        skip = self.symbols.child_map(fn.id).keys() | _param_names(fn)  # nested ones: _returned_functions; parameters: not followed
        found = [s for s in self._returned_bound(fn, "alias", skip) if s.kind in _RETURNED_CALLABLE_KINDS]
        confidence = 0.9 if len(found) == 1 else _LOOKUP_CONFIDENCE
        return [Target(f, "returned", confidence, len(found)) for f in found]

    def _calls_stored_parameter(self, fid: int, cls: Sym, rows: list[tuple[int, int, str, str, str, int]]) -> list[Sym]:
        """For a class of the file ``fid`` whose ``__init__`` stores a parameter in an attribute (``self.func = func``):
        its methods that call that attribute (``self.func(obj)``), read from the file's references ``rows``."""
        if cls.kind != "class" or cls.file_id != fid:
            return []
        cached = self._stored_calls.get(cls.id)
        if cached is None:
            cached = self._stored_calls[cls.id] = self._find_calls_of_stored(fid, cls, rows)
        return cached

    def _find_calls_of_stored(self, fid: int, cls: Sym, rows: list[tuple[int, int, str, str, str, int]]) -> list[Sym]:
        init = self.hierarchy.member(cls.id, "__init__")
        if init is None or init.file_id != fid:
            return []
        params = _param_names(init) - {"self"}
        facts = self.file_facts.variables(fid)
        stored = {
            var.partition(".")[2]
            for (scope_id, var), found in facts.items()
            if scope_id == init.id and var.startswith("self.") and any(k == "alias" and t in params for k, t in found)
        }
        if not stored:
            return []
        methods = {m.id: m for m in self.symbols.children(cls.id) if m.kind in ("function", "method")}
        out: list[Sym] = []
        for _, scope_id, kind, name, receiver, _ in rows:
            method = methods.get(scope_id) if kind == "call" and receiver == "self" and name in stored else None
            if method is not None and method not in out:
                out.append(method)
        return out

    def _held_generators(self, fid: int, scope: Sym, var: str) -> list[Target]:
        """The generator functions of the file ``fid`` whose call an attribute is assigned (``self._it =
        self._reader()``), directly or through a function returning one: iterating it runs their bodies (here, if
        nothing iterated it before)."""
        if self._depth > 4:
            return []
        facts = self.file_facts.variables(fid)
        found: list[Target] = []
        self._depth += 1
        try:
            for where, (kind, text) in self._facts_of(fid, scope, var):
                if kind != "assign" or not all(p.isidentifier() for p in text.split(".")):
                    continue
                receiver, _, name = text.rpartition(".")
                for t in self._resolve_name(fid, where, name, receiver, "type"):
                    if t.resolution == "name-match" or t.sym.file_id != fid or t.sym.kind not in ("function", "method"):
                        continue
                    made = [Target(t.sym, "generator", _GENERATOR_CONFIDENCE)] if (t.sym.id, "yield") in facts else []
                    for g in made + self._returned_generators(fid, t.sym):
                        if g.sym not in [f.sym for f in found]:
                            found.append(g)
        finally:
            self._depth -= 1
        return found

    def _returned_generators(self, fid: int, fn: Sym) -> list[Target]:
        """The generator functions of the file ``fid`` whose call a function of that file returns (``return
        _linux_platforms()``): the caller that iterates what ``fn`` returns runs their bodies (it may pass it on instead,
        and one of several runs: at most :data:`_GENERATOR_CONFIDENCE`)."""
        facts = self.file_facts.variables(fid)
        if fn.file_id != fid or fn.kind not in ("function", "method") or self._depth > 4:
            return []
        found: list[Sym] = []
        self._depth += 1
        try:
            for kind, text in facts.get((fn.id, RETURN_FACT), []):
                if kind != "assign" or not all(p.isidentifier() for p in text.split(".")):
                    continue
                receiver, _, name = text.rpartition(".")
                for t in self._resolve_name(fid, fn, name, receiver, "type"):
                    g = t.sym
                    if t.resolution != "name-match" and g.file_id == fid and (g.id, "yield") in facts and g not in found:
                        found.append(g)
        finally:
            self._depth -= 1
        confidence = round(min(_GENERATOR_CONFIDENCE, 1 / len(found)), 3) if found else 0
        return [Target(g, "generator", confidence, len(found)) for g in found]

    def _wrappers(self, fid: int, fn: Sym) -> list[Sym]:
        """What a call of ``fn``, a function of any file, runs first when a decorator function (of any file) wraps it:
        the nested function ``@deco`` returns (``@deco(...)``: the one that the function it returns returns).
        fastjsonschema's draft modules call ``self.l(...)`` of their base class's module, wrapped by ``@indent``."""
        if fn.kind not in ("function", "method") or not fn.decorators or self._depth > 4:
            return []
        called = "(" in fn.decorators[0]
        return self._through_any_decorator(fid, fn, lambda d: self._made_wrappers(fid, d, called))

    def _made_wrappers(self, fid: int, decorator: Sym, called: bool) -> list[Sym]:
        """The nested functions a decorator function returns (``called``, for ``@deco(...)``: those the function it
        returns returns)."""
        if decorator.kind not in ("function", "method"):
            return []
        returned = self._returned_functions(fid, decorator)
        return [w for f in returned for w in self._returned_functions(fid, f)] if called else returned

    def _enclosing_param(self, scope: Sym, name: str) -> bool:
        """Whether ``name`` is a parameter of a function enclosing ``scope`` (and no nearer definition hides it)."""
        s = scope
        while s.parent_id is not None:
            s = self.symbols.sym(s.parent_id)
            if s.kind not in ("function", "method"):
                return False
            if name in self.symbols.child_map(s.id):
                return False
            if name in _param_names(s):
                return True
        return False

    def _decorated_functions(self, fid: int, scope: Sym, name: str) -> list[Target]:
        """For a call of ``name`` in a wrapper a decorator of the file ``fid`` returns, where ``name`` is the
        decorator's parameter (the function it wraps): the functions of the file that decorator decorates
        (``@deco``; ``@factory(...)`` when the parameter is that of the decorator the factory returns)."""
        if scope.kind not in ("function", "method") or scope.file_id != fid or scope.parent_id is None:
            return []
        owner = self.symbols.sym(scope.parent_id)
        if owner.kind not in ("function", "method") or name not in _param_names(owner):
            return []
        if scope not in self._returned_functions(fid, owner):
            return []
        factory = self.symbols.sym(owner.parent_id) if owner.parent_id is not None else None
        called: bool | None
        if factory is not None and factory.kind in ("function", "method"):
            if owner not in self._returned_functions(fid, factory):
                return []
            decorator, called = factory, True  # @factory(...) returns owner, which returns the wrapper
        else:
            # `if func is None: return partial(deprecated, **options)`: used bare or with its options first
            decorator, called = owner, (None if self._returns_itself(fid, owner) else False)
        found = self._decorated_with(fid, decorator, called)
        if not called:  # `cmd_bump = deprecated(cli.cmd_bump, replace=...)`: decorated by a call written out
            found.extend(fn for fn in self._wrapped_by_calls(fid, decorator) if fn not in found)
        return _decorated_targets(found)

    def _decorated_with(self, fid: int, decorator: Sym, called: bool | None) -> list[Sym]:
        """The functions ``@decorator`` decorates (``called``: ``@decorator(...)``; None: either), of the file ``fid``
        and of other files (`@validator def email(...)` with `from .utils import validator`: their file says which
        decorator it is, and storing it names the decorator: affected.affected_files, "@name")."""
        found = [fn for fn in self._decorated_in(fid) if self._decorates(fn, decorator, called)]
        found.extend(fn for fn in self._decorated_elsewhere(fid, decorator.name) if self._decorates(fn, decorator, called))
        return found

    def _defined_here(self, fid: int, dotted: str) -> bool:
        """Whether the last part of ``dotted`` names a function of the file ``fid`` (a cheap test before a look-up)."""
        last = dotted.rpartition(".")[2]
        return any(s.file_id == fid and s.kind in ("function", "method") for s in self.symbols.named(last))

    def _registrars(self, fid: int, fn: Sym, name: str, receiver: str) -> list[Target]:
        """The functions that ``fn``'s decorator ``@receiver.name`` registers it with: ``receiver`` a plain name
        of a function (a click group, a singledispatch function), looked up where ``fn`` is defined (never a
        name-match); a property's ``@x.setter`` registers nothing that a call of ``x`` runs."""
        if not receiver.isidentifier() or name in _ACCESSOR_DECORATORS or fn.kind not in ("function", "method"):
            return []
        return [
            t
            for t in self._resolve_name(fid, self.symbols.defined_in(fn), receiver, "", "ref")
            if t.resolution != "name-match" and t.sym.kind in ("function", "method") and t.sym != fn
        ]

    def _decorated_by(self, fid: int, fn: Sym) -> list[Target]:
        """For a function of the file ``fid`` used as a decorator, ``@fn`` (or ``@factory(...)`` when the function that
        encloses it returns it): the functions it decorates, one of which its parameter holds each time it runs."""
        found = self._decorating.get(fn.id)
        if found is not None:
            return found
        found = self._decorating[fn.id] = []
        if fn.kind not in ("function", "method") or fn.file_id != fid:
            return found
        parent = self.symbols.sym(fn.parent_id) if fn.parent_id is not None else None
        called: bool | None
        if parent is not None and parent.kind in ("function", "method"):
            if fn not in self._returned_functions(fid, parent):
                return found
            decorator, called = parent, True
        else:
            decorator, called = fn, (None if self._returns_itself(fid, fn) else False)
        if decorator.name in self._decorated_table():  # (no function decorated by that name anywhere: nothing to ask)
            found.extend(_decorated_targets(self._decorated_with(fid, decorator, called)))
        if called:
            # and through a factory of the file returning what this one makes (cheap_repr's `try_register_repr(module,
            # name)`, which returns `register_repr(cls)` for a class it could import)
            for factory in self._forwarding_factories(fid, decorator):
                if factory.name in self._decorated_table():
                    known = {t.sym.id for t in found}
                    found.extend(t for t in _decorated_targets(self._decorated_with(fid, factory, True)) if t.sym.id not in known)
        return found

    def _forwarding_factories(self, fid: int, factory: Sym) -> list[Sym]:
        """The module-level functions of the file ``fid`` that return a call of ``factory`` (``return factory(x)``)."""
        module = self.symbols.module_symbol(fid)
        return [
            f
            for f in self.symbols.children(module.id)
            if f.kind == "function"
            and f.id != factory.id
            and any(kind == "assign" and text.rpartition(".")[2] == factory.name for _, (kind, text) in self._facts_of(fid, f, RETURN_FACT))
        ]

    def _returns_itself(self, fid: int, fn: Sym) -> bool:
        """Whether ``fn`` may return itself with options bound (``return partial(deprecated, version=...)``):
        a decorator that also takes its options first, ``@deprecated(version="2.10")``."""
        return any(
            kind == "alias" and text.rpartition(".")[2] == fn.name for _, (kind, text) in self._facts_of(fid, fn, RETURN_FACT)
        )

    def _decorates(self, fn: Sym, decorator: Sym, called: bool | None) -> bool:
        """Whether one of ``fn``'s decorators names ``decorator`` (``called``: ``@decorator(...)``; None: either),
        looked up where ``fn`` is (in another file than ``decorator``'s, by import only: never a name-match)."""
        fid = fn.file_id
        module_or_parent = self.symbols.defined_in(fn)
        for d in fn.decorators:
            head, paren, _ = d.partition("(")
            head = head.strip()
            if (called is not None and bool(paren) != called) or not all(p.isidentifier() for p in head.split(".")):
                continue
            receiver, _, last = head.rpartition(".")
            for t in self._resolve_name(fid, module_or_parent, last, receiver, "type"):
                if t.sym == decorator and (fid == decorator.file_id or t.resolution != "name-match"):
                    return True
        return False

    def _decorated_elsewhere(self, fid: int, name: str) -> list[Sym]:
        """The Python functions of other files than ``fid`` with a decorator whose last dotted part is ``name``."""
        return [fn for fn in self._decorated_table().get(name, ()) if fn.file_id != fid]

    def _decorated_table(self) -> dict[str, list[Sym]]:
        """Every decorated Python function, by the last dotted part of each of its decorators (one query a resolver)."""
        if self._decorated_by_name is None:
            by_name: dict[str, list[Sym]] = {}
            rows = self.conn.execute(
                f"SELECT {', '.join('s.' + c.strip() for c in SYM_COLUMNS.split(','))} FROM symbols s"
                " JOIN files f ON f.id=s.file_id WHERE s.decorators != '[]' AND f.language='python'"
                " AND s.kind IN ('function', 'method') ORDER BY f.path, s.qualname"
            )
            for fn in map(sym_from_row, rows):
                for last in {decorator_name(d) for d in fn.decorators}:
                    by_name.setdefault(last, []).append(fn)
            self._decorated_by_name = by_name
        return self._decorated_by_name

    def _wrapped_by_calls(self, fid: int, decorator: Sym) -> list[Sym]:
        """The functions given by name on the line of a call of ``decorator`` in the file ``fid``, or on the next line
        when that line names none (`cmd_compare = deprecated(` with its arguments below, as black wraps a long
        call); which argument a name fills is not told, as for the ``passed`` rule."""
        rows = self.conn.execute(
            "SELECT c.scope_id, c.receiver, r.name, r.receiver FROM refs c JOIN refs r ON r.file_id = c.file_id"
            " AND r.scope_id = c.scope_id AND r.kind = 'ref' AND (r.line = c.line OR (r.line = c.line + 1"
            " AND NOT EXISTS (SELECT 1 FROM refs o WHERE o.file_id = c.file_id AND o.scope_id = c.scope_id"
            " AND o.line = c.line AND o.kind = 'ref')))"
            " WHERE c.file_id = ? AND c.kind = 'call' AND c.name = ? ORDER BY r.id",
            (fid, decorator.name),
        ).fetchall()
        out: list[Sym] = []
        self._depth += 1
        try:
            for scope_id, call_receiver, name, receiver in rows:
                scope = self.symbols.sym(scope_id)
                if self._depth > 4 or not any(
                    t.sym == decorator for t in self._resolve_name(fid, scope, decorator.name, call_receiver, "type")
                ):
                    continue
                for t in self._resolve_name(fid, scope, name, receiver, "type"):
                    if t.resolution != "name-match" and t.sym.kind in ("function", "method") and t.sym not in out:
                        out.append(t.sym)
        finally:
            self._depth -= 1
        return out

    def _wrapper_class_calls(self, fid: int) -> list[tuple[Sym, list[tuple[Sym, int]]]]:
        """The ``__get__`` methods of the file with the functions of the file a decorator turns into their
        descriptor (and each one's line): reading the attribute runs ``__get__``, which runs the function; and the
        ``__call__`` methods of the decorator classes of the file with the functions they wrap."""
        getters = [g for name in ("__get__", "__call__") for g in self.symbols.named(name) if g.file_id == fid and g.kind == "method"]
        if not getters:
            return []
        made: dict[int, list[tuple[Sym, int]]] = {}
        for fn in self._decorated_in(fid):
            for getter in self._descriptor_getters(fid, fn, called=True):
                if getter in getters:
                    made.setdefault(getter.id, []).append((fn, self._start_line(fn)))
        return [(self.symbols.sym(gid), fns) for gid, fns in made.items()]

    def _start_line(self, s: Sym) -> int:
        row = self.conn.execute("SELECT start_line FROM symbols WHERE id=?", (s.id,)).fetchone()
        return int(row[0]) if row else 0

    def _decorated_in(self, fid: int) -> list[Sym]:
        """The decorated functions of a file (one query per file that asks)."""
        found = self._decorated_cache.get(fid)
        if found is None:
            rows = self.conn.execute(
                f"SELECT {SYM_COLUMNS} FROM symbols WHERE file_id=? AND decorators != '[]' ORDER BY qualname", (fid,)
            )
            found = self._decorated_cache[fid] = [
                s for s in (sym_from_row(r) for r in rows) if s.kind in ("function", "method")
            ]
        return found

    def _attribute(self, fid: int, target: Sym, part: str) -> Sym | None:
        if target.kind == "module":
            found = self.export(target.file_id, part)
            if found:
                return found[0].sym
            module = self.modules.file(target.file_id)[2]
            if module and self.modules.file(fid)[1] == "python":
                files = self.modules.module_files(fid, f"{module}.{part}", 0)
                return self.symbols.module_symbol(files[0]) if files else None
            return None
        if target.kind in _CLASS_KINDS:
            member = self.hierarchy.member(target.id, part)
            if member is None and self._is_enum(target):
                return target  # `Unit.YEARS`: a member of the enum, an instance of its class (`Unit.YEARS.describe()`)
            return member
        return None

    def _is_enum(self, cls: Sym) -> bool:
        """Whether a Python class derives from one of the standard library's enumerations (``class Unit(Enum)``)."""
        return any(self._base_names(c) & _ENUM_BASES for c in self.hierarchy.linearized(cls.id))

    def _renamed_fixtures(self) -> dict[str, list[Sym]]:
        """Fixtures by the name their decorator gives them (``@pytest.fixture(name="async_app")``: flask's tests)."""
        if self._renamed is None:
            self._renamed = {}
            for (sid,) in self.conn.execute("SELECT id FROM symbols WHERE decorators LIKE '%fixture%name%' ORDER BY id"):
                fn = self.symbols.sym(sid)
                for d in fn.decorators:
                    given = fixture_given_name(d) if _is_fixture_decorator(d) else None
                    if given is not None:
                        self._renamed.setdefault(given, []).append(fn)
        return self._renamed

    def _fixture(self, fid: int, scope: Sym, name: str, receiver: str) -> list[Target]:
        """pytest fixtures by parameter name (same class, same module, conftest.py upwards, nearest
        first) and unittest ``setUp`` through the class (``receiver`` is ``self``)."""
        if receiver == "self":
            cls = self.symbols.enclosing_class(scope)
            if cls is None:
                return []
            out: list[Target] = []
            for n in _SETUP_FAMILY.get(name, (name,)):
                m = self.hierarchy.member(cls.id, n)
                if m is not None:
                    out.append(Target(m, "fixture", 1.0))
                else:  # a test a subclass inherits runs that subclass's setUp (parsedatetime's `TestDayOffsets(test)`)
                    out.extend(Target(o, "dispatch", 0.7) for o in self.hierarchy.overrides(cls.id, n))
            return out
        if receiver == "module":  # `setup_module()`, `setUpModule()`: the module-level hooks of the test's module
            defined = self.symbols.child_map(self.symbols.module_symbol(fid).id)
            hooks = [defined.get(n) for n in _MODULE_SETUP_FAMILY.get(name, ())]
            return [Target(h, "fixture", 1.0) for h in hooks if h is not None and h.kind == "function"]
        candidates = [s for s in self.symbols.named(name) if any(_is_fixture_decorator(d) for d in s.decorators)]
        candidates += self._renamed_fixtures().get(name, [])
        if not candidates:
            return []
        path = self.modules.file(fid)[0]
        cls = self.symbols.enclosing_class(scope)
        if cls is not None:
            own = [c for c in candidates if c.parent_id == cls.id]
            if own:
                return [Target(own[0], "fixture", 1.0)]
        same = [c for c in candidates if c.file_id == fid and c.id != scope.id]
        if same:
            return [Target(same[0], "fixture", 1.0)]
        # imported into the test module (vulture's `from . import v`, a fixture of tests/__init__.py): pytest finds it
        # among the module's names
        module = self.symbols.module_symbol(fid)
        imported = [t.sym for t in self.lookup(fid, module, name)] if module is not None else []
        hit = [c for c in candidates if c in imported and c.id != scope.id]
        if hit:
            return [Target(hit[0], "fixture", 1.0)]
        directory = posixpath.dirname(path)
        while True:
            conftest = posixpath.join(directory, "conftest.py") if directory else "conftest.py"
            hit = [c for c in candidates if self.modules.file(c.file_id)[0] == conftest and c.id != scope.id]
            if hit:
                return [Target(hit[0], "fixture", 1.0)]
            if not directory:
                return []
            directory = posixpath.dirname(directory)


#: a test method's implicit ``setUp`` reference stands for every set-up hook unittest runs before it, and the tear-down
#: hooks it runs after it (an error there fails the test too: sqlitedict's subclasses' `tearDown` calling terminate()),
#: pytest's own (xunit) hooks of a test class too
_SETUP_FAMILY = {"setUp": CLASS_TEST_HOOKS}
#: sibling modules defining a function of one name that make a family of plug-ins (resolve.Resolver._module_family)
_MODULE_FAMILY_MIN = 3
#: the comparisons ``functools.total_ordering`` completes from whichever one a class defines (the first of these)
ORDERING_METHODS = ("__lt__", "__le__", "__gt__", "__ge__")

_MAPPING_MIXINS = {
    "get": "__getitem__", "__contains__": "__getitem__", "__eq__": "__getitem__", "__ne__": "__getitem__",
    "keys": "__iter__", "items": "__iter__", "values": "__iter__",
}
_SEQUENCE_MIXINS = {n: "__getitem__" for n in ("__contains__", "__iter__", "__reversed__", "index", "count")}
_SET_MIXINS = {
    **{n: "__contains__" for n in ("__le__", "__lt__", "__eq__", "__ne__", "__gt__", "__ge__", "isdisjoint")},
    **{n: "__iter__" for n in ("__and__", "__or__", "__sub__", "__xor__")},
}
#: the methods ``collections.abc``'s classes give a subclass, written on the abstract methods it defines: a call of one
#: on an instance of a class deriving from such a base (by its last name, the base outside the repository) that does
#: not define it runs the class's own method it is written on (pqdict's `self.update(data)` in `__init__` runs its
#: `__setitem__` for each item); the one a mixin calls first, where it calls several
ABC_MIXINS: dict[str, dict[str, str]] = {
    "Mapping": _MAPPING_MIXINS,
    "MutableMapping": {
        **_MAPPING_MIXINS,
        "update": "__setitem__", "setdefault": "__setitem__",
        "pop": "__delitem__", "popitem": "__delitem__", "clear": "__delitem__",
    },
    "Sequence": _SEQUENCE_MIXINS,
    "MutableSequence": {
        **_SEQUENCE_MIXINS,
        "append": "insert", "extend": "insert", "__iadd__": "insert",
        "pop": "__delitem__", "remove": "__delitem__", "reverse": "__setitem__",
    },
    "Set": _SET_MIXINS,
    "MutableSet": {
        **_SET_MIXINS,
        "clear": "discard", "pop": "discard", "remove": "discard", "__iand__": "discard", "__isub__": "discard",
        "__ior__": "add", "__ixor__": "add",
    },
}
_MIXIN_NAMES = frozenset(n for mixins in ABC_MIXINS.values() for n in mixins)
#: the module-level hooks a test's implicit ``setup_module`` reference stands for (every test of the module), and
#: ``setup_function`` (its module-level test functions): python.extra_references
_MODULE_SETUP_FAMILY = {"setup_module": MODULE_TEST_HOOKS, "setup_function": FUNCTION_TEST_HOOKS}

_INSERT_EDGE = (
    "INSERT INTO edges(src_id, dst_id, kind, file_id, dst_file_id, line, resolution, confidence, candidates)"
    " VALUES (?,?,?,?,?,?,?,?,?)"
)


def _callable_value(sym: Sym, language: str | None) -> bool:
    """Whether a name given as a value may be called by whoever receives it: a function (not a property, whose
    value is what its getter returns), or a Python class (calling it makes an instance)."""
    if sym.kind in ("function", "method"):
        return not _is_property(sym)
    return sym.kind in _CLASS_KINDS and language == "python"


def _is_getter(s: Sym) -> bool:
    """A property's getter: what reading the attribute runs (not its setter or deleter)."""
    return _is_property(s) and not any(d.endswith((".setter", ".deleter")) for d in s.decorators)


def _is_property(s: Sym) -> bool:
    """A method whose attribute is read, not called: ``@property`` and the like, by the decorator's name; and a
    descriptor decorator of another module of the project named so (clize's ``@util.property_once``: a descriptor
    class of the method's own file is followed to its ``__get__`` instead, :meth:`Resolver._descriptor_getters`)."""
    return s.kind in ("method", "function") and any(
        d in _PROPERTY_DECORATORS
        or d.endswith((".setter", ".getter", ".deleter", "cached_property"))
        or ("." in d and "(" not in d and "property" in d.rpartition(".")[2].lower())
        for d in s.decorators
    )


def _prefixed(member: Sym, prefix: str, scope: Sym) -> bool:
    """Whether ``getattr(x, "<prefix>" + ...)`` in ``scope`` may give the method ``member`` (``prefix``: a pattern of
    :func:`name_fits`; for an empty prefix, any but the special methods; never the scope itself)."""
    return (
        member.kind in ("function", "method")
        and name_fits(member.name, prefix)
        and member.name != prefix
        and member.id != scope.id
        and (bool(prefix) or not member.name.startswith("__"))
    )


def _names_setter(name: str) -> bool:
    """Whether a function's name says it sets a value (``_setStyle``, ``set_text``, ``text_setter``)."""
    lowered = name.lower().lstrip("_")
    return lowered.startswith("set") or lowered.endswith("setter")


def _table_targets(found: list[Sym]) -> list[Target]:
    """The functions of a table, one of which runs: each a guess among them (at most :data:`_LOOKUP_CONFIDENCE`)."""
    confidence = round(min(_LOOKUP_CONFIDENCE, 1 / len(found)), 3) if found else 0
    return [Target(f, "table", confidence, len(found)) for f in found]


def _decorated_targets(found: list[Sym]) -> list[Target]:
    """The functions a decorator decorates as targets of what runs them, each as likely as the others."""
    confidence = round(min(_DECORATED_CONFIDENCE, 1 / len(found)), 3) if found else 0
    return [Target(fn, "decorated", confidence, len(found)) for fn in found]


def _param_names(fn: Sym) -> set[str]:
    """A function's parameter names, without ``*``, ``**`` and the ``=`` of a default."""
    return {param_name(p) for p in fn.params}


def _is_fixture_decorator(d: str) -> bool:
    head = d.split("(", 1)[0]
    return head in ("fixture", "pytest.fixture", "pytest_asyncio.fixture", "pytest.yield_fixture")


#: the standard library's enumeration classes: a name of a subclass's body other than a method is a member, an instance
_ENUM_BASES = frozenset(("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"))
#: return annotations that name no class: what the ``return`` statements make tells more (marshmallow's
#: ``def _validate_all(self) -> typing.Callable[[typing.Any], None]: return And(*self.validators)``)
_UNTELLING_ANNOTATIONS = frozenset(("Callable", "Any", "object"))


def _bound_name(module: str, name: str | None, alias: str | None, python: bool) -> str | None:
    """The local name an import binds (None for a wildcard import)."""
    if name == "*":
        return None
    if name is None:
        if python:
            return alias or module.split(".")[0]
        return alias or _default_binding(module)
    return alias or name.split(".")[-1]


def _default_binding(module: str) -> str:
    """The name a whole-module import binds by default outside Python (Go: last path element)."""
    tail = module.rstrip("/").split("/")[-1]
    return tail.split("::")[-1].split(".")[0] if tail else module
