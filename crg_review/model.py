"""The records that flow through the pipeline: what parsing finds in one file.

Records are NamedTuples: a full build sends hundreds of thousands of them from parser processes to
the writer, and tuples pickle an order of magnitude faster than dataclasses.

Parsing produces these from bytes alone (no I/O, no SQL); the store persists them and
the resolver turns references and imports into edges between symbols.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

__all__ = [
    "CLASS_KINDS",
    "MODULE_QUALNAME",
    "SYMBOL_KINDS",
    "Base",
    "Import",
    "ParseResult",
    "Reference",
    "Symbol",
    "decorator_name",
    "param_name",
]

#: kinds of symbols that have members and bases
CLASS_KINDS = frozenset(("class", "struct", "interface", "trait", "enum"))

#: qualname of the symbol that stands for a whole file (module / translation unit)
MODULE_QUALNAME = "<module>"
#: the qualified name of a Python module's `if __name__ == "__main__":` block, a scope of its own (languages/python.py)
MAIN_SCOPE = "__main__"
#: the pseudo-variable whose facts say what a function returns (``return Cls(...)``, ``return x``)
RETURN_FACT = "return"
#: kinds of references that are facts of a scope's variables, not uses (facts.FileFacts.variables)
FACT_KINDS = ("assign", "alias", "element", "item", "lookup", "getattr", "yields", "unpack")
#: kinds of symbols that run when called
FUNCTION_KINDS = frozenset(("function", "method"))
#: the hooks unittest and pytest run around each test method of a class (found through the test's class), those they
#: run around every test of a module, and those around its module-level test functions (module-level functions)
CLASS_TEST_HOOKS = (
    *("setUp", "asyncSetUp", "setUpClass", "setUpTestData", "tearDown", "asyncTearDown", "tearDownClass"),
    *("setup_method", "teardown_method", "setup_class", "teardown_class"),
)
MODULE_TEST_HOOKS = ("setup_module", "teardown_module", "setUpModule", "tearDownModule")
FUNCTION_TEST_HOOKS = ("setup_function", "teardown_function")


def stored_method(variable: str, value: str) -> bool:
    """Whether an ``item`` fact stores a method of the object in a table on it (``self.handlers`` holds
    ``self.generate_type``): a fact a base class of another file reads (facts.FileFacts.stored_methods), which the
    store names to the files that may read it when it changes."""
    return variable.startswith("self.") and value.startswith("self.") and value.count(".") == 1

SYMBOL_KINDS = (
    "module",
    "class",
    "struct",
    "interface",
    "trait",
    "enum",
    "function",
    "method",
    "test",  # a test that is not a function definition (JS/TS `it("...")`, RSpec `it "..."`)
)


def param_name(param: str) -> str:
    """The name a parameter of :attr:`Symbol.params` binds: ``x=`` (a default), ``*args``, ``**kw`` → ``x``, ``args``,
    ``kw``."""
    return param.lstrip("*").rstrip("=")


def calls_a_parameter(params: Iterable[str], refs: Iterable[tuple[str, str, str]]) -> bool:
    """Whether a function with ``params`` calls one of them, an item of one, or a loop's variable over one, by its
    references (kind, name, receiver): what the resolver counts as calling a parameter (a function given to it
    runs there)."""
    names = {param_name(p) for p in params} - {"self", "cls", ""}
    if not names:
        return False
    refs = list(refs)
    loop_over: dict[str, list[str]] = {}
    for kind, name, receiver in refs:
        if kind == "element":
            loop_over.setdefault(name, []).append(receiver)
    for kind, name, receiver in refs:
        if kind == "lookup" and receiver in names:
            return True
        if kind in ("call", "callback") and not receiver and (
            name in names or any(over in names for over in loop_over.get(name, ()))
        ):
            return True
    return False


#: the kinds of references :func:`calls_a_parameter` reads
PARAMETER_CALL_KINDS = ("call", "callback", "lookup", "element")

_Scope = TypeVar("_Scope", bound=Hashable)


def parameter_callers(
    params: Callable[[_Scope], Iterable[str] | None], refs: Iterable[tuple[_Scope, str, str, str]]
) -> set[_Scope]:
    """The scopes whose references (scope, kind, name, receiver) call a parameter (:func:`calls_a_parameter`);
    ``params`` gives a scope's parameters (None: no function)."""
    by_scope: dict[_Scope, list[tuple[str, str, str]]] = {}
    for scope, kind, name, receiver in refs:
        if kind in PARAMETER_CALL_KINDS:
            by_scope.setdefault(scope, []).append((kind, name, receiver))
    found: set[_Scope] = set()
    for scope, rs in by_scope.items():
        given = params(scope)
        if given is not None and calls_a_parameter(given, rs):
            found.add(scope)
    return found


def decorator_name(text: str) -> str:
    """The name a decorator's text ends with: ``app.route("/")`` → ``route``, ``validator`` → ``validator``."""
    return text.partition("(")[0].strip().rpartition(".")[2]


_GIVEN_NAME = re.compile(r"""\bname\s*=\s*(['"])([A-Za-z_]\w*)\1""")


def fixture_given_name(decorator: str) -> str | None:
    """The name a pytest fixture's decorator gives it instead of the function's: ``pytest.fixture(name="app")``."""
    head, paren, args = decorator.partition("(")
    if not paren or head.strip().rpartition(".")[2] not in ("fixture", "yield_fixture"):
        return None
    found = _GIVEN_NAME.search(args)
    return found[2] if found else None


class Symbol(NamedTuple):
    """A definition. ``qualname`` follows the language's own convention (Python: __qualname__
    without ``<locals>``); ``parent`` is the qualname of the enclosing definition or None at top level."""

    kind: str
    name: str
    qualname: str
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    signature: str = ""
    docstring: str = ""
    parent: str | None = None
    is_test: bool = False
    decorators: tuple[str, ...] = ()  # decorator / annotation / attribute texts, without '@' / '#[' ']'
    params: tuple[str, ...] = ()  # parameter names; '*args', '**kw', '*' marker, 'x=' has a default


class Reference(NamedTuple):
    """A use of a name inside ``scope`` (a qualname, MODULE_QUALNAME at top level).

    ``kind``: ``call`` (callee), ``ref`` (a name passed or stored as a value, e.g. a callback),
    ``attr`` (attribute read, a call if it resolves to a property), ``decorator``, ``type`` (a class named as a type:
    an annotation, the class of ``super(Cls, self)``); Python also
    records ``holds`` (a name a module-level statement stores, ``receiver`` the variable it goes into, empty
    when none is known) and ``reads`` (a subscript or loop over a module-level or imported name, ``name``
    the expression), which resolve to no edge: the walk asks who reads a table (readers.ModuleReaders.table_readers).
    ``receiver`` is the text before the last separator of the callee (``self``, ``os.path``,
    ``super()``), empty for a bare name.
    """

    kind: str
    name: str
    receiver: str
    line: int
    scope: str
    arity: int | None = None  # positional arguments at a call site; None when unknown (*args)
    keywords: tuple[str, ...] = ()  # keyword argument names at a call site ('**' for **kwargs)


class Import(NamedTuple):
    """An import binding. ``module`` as written (``os.path``, ``./util``, ``fmt``), ``name`` the imported
    member (None for a whole-module import), ``alias`` the local name bound (None: the default binding),
    ``level`` the Python relative level (number of leading dots)."""

    module: str
    name: str | None
    alias: str | None
    level: int
    line: int
    scope: str = MODULE_QUALNAME


class Base(NamedTuple):
    """``symbol`` (a qualname) inherits from / implements ``text`` (a base expression as written)."""

    symbol: str
    text: str
    line: int


@dataclass
class ParseResult:
    """Everything extracted from one file."""

    language: str
    symbols: list[Symbol] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    imports: list[Import] = field(default_factory=list)
    bases: list[Base] = field(default_factory=list)
    has_errors: bool = False  # tree-sitter reported syntax errors (what it recovered is kept)
