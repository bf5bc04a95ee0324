"""Python: ``__qualname__`` without ``<locals>``, pytest/unittest test conventions, docstrings."""

from __future__ import annotations

import ast
import builtins
import fnmatch
import io
import json
import re
import tokenize
from collections.abc import Collection, Sequence
from itertools import pairwise
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import (
    CLASS_KINDS,
    FUNCTION_TEST_HOOKS,
    MAIN_SCOPE,
    MODULE_QUALNAME,
    MODULE_TEST_HOOKS,
    Import,
    ParseResult,
    Reference,
    Symbol,
    param_name,
    stored_method,
)

if TYPE_CHECKING:
    from ..parse import Definition

SEPARATOR = "."
#: bases that make a class a unittest test class (the last dotted part: ``unittest.TestCase``)
TEST_BASES = ("TestCase", "IsolatedAsyncioTestCase", "AsyncTestCase", "SimpleTestCase", "TransactionTestCase")


def _text(node: Any, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace") if node is not None else ""


def module_name(path: str) -> str:
    """Dotted module name of a path (``src/`` layouts keep the prefix; the resolver strips roots)."""
    p = PurePosixPath(path)
    parts = list(p.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or p.stem


#: the repository's pytest ``python_files`` (set by the indexer for the tree it parses); None: the default names
_TEST_FILE_PATTERNS: tuple[str, ...] | None = None


def set_test_file_patterns(patterns: Sequence[str] | None) -> None:
    """Which file names are test modules from now on in this process, besides ``test_*.py``, ``*_test.py``,
    ``tests.py`` and ``test.py``: those pytest's ``python_files`` of the tree being parsed names (``check_*.py``,
    ``Test*.py``). A pattern any module name matches (boolean.py's ``*.py``, with which pytest looks for tests in
    every module) tells no test code from the rest and is left out."""
    global _TEST_FILE_PATTERNS
    _TEST_FILE_PATTERNS = narrow_test_file_patterns(patterns)


def patterns_from_meta(text: str | None) -> tuple[str, ...] | None:
    """The python_files an index was built with (its meta ``python_files``, JSON; None: the default names)."""
    try:
        value = json.loads(text) if text else None
    except ValueError:
        return None
    return tuple(str(p) for p in value) if isinstance(value, list) and value else None


def narrow_test_file_patterns(patterns: Sequence[str] | None) -> tuple[str, ...] | None:
    """The patterns of ``python_files`` that do not match any module name (None: none such)."""
    narrow = tuple(p for p in patterns or () if not _matches_python_files("pkg/module.py", "module.py", (p,)))
    return narrow or None


def test_file_patterns() -> tuple[str, ...] | None:
    """The python_files in force in this process (:func:`set_test_file_patterns`)."""
    return _TEST_FILE_PATTERNS


def is_test_file(path: str) -> bool:
    name = path.rpartition("/")[2]  # PurePosixPath(path).name, without its cost once per definition
    if name.startswith("test_") or name.endswith("_test.py") or name in ("conftest.py", "tests.py", "test.py"):
        return True
    return _TEST_FILE_PATTERNS is not None and _matches_python_files(path, name, _TEST_FILE_PATTERNS)


def is_test_module(path: str, symbols: Sequence[Symbol]) -> bool:
    """A module named as unittest's discovery looks for them (``test*.py``: jsbeautifier's ``testpacker.py``, django's
    ``tests_async.py``) that defines tests is a test module, as those of pytest's names are; not one that only defines
    the test classes others derive from (django's ``testcases.py``) or helpers (``testing.py``)."""
    name = path.rpartition("/")[2]
    return (
        name.startswith("test")
        and name.endswith(".py")
        and any(s.is_test and s.kind in ("function", "method") for s in symbols)
    )


def _matches_python_files(path: str, name: str, patterns: tuple[str, ...]) -> bool:
    """pytest's matching of ``python_files``: a pattern without a ``/`` matches the file name, one with a ``/``
    the end of the path (``tests/*.py``); ``*`` crosses folders, as fnmatch's does."""
    for pattern in patterns:
        if "/" not in pattern:
            if fnmatch.fnmatchcase(name, pattern):
                return True
        elif fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(path, "*/" + pattern.lstrip("/")):
            return True
    return False


def span(node: Any) -> Any:
    """A decorated definition spans its decorators."""
    parent = node.parent
    return parent if parent is not None and parent.type == "decorated_definition" else node


#: reference kinds that belong to the definition only in spans evaluated outside it (:func:`evaluated_outside`): a
#: lazy fixture in a decorator's arguments is a fixture the test takes, nothing its module runs; a module a parametrize
#: value names for a command line is run by the test
USES_INSIDE = frozenset(("lazyfixture", "spawn"))
#: value uses kept at every line by the parser: finalize keeps one per scope, but those of a local holding an item of a
#: table at each line, where each call it is given to may call it (:func:`_one_use_per_scope`)
USES_PER_LINE = frozenset(("ref",))
_DEFAULT_PARAMETERS = frozenset(("default_parameter", "typed_default_parameter"))
#: default values that run nothing where the ``def`` runs (literals; a lambda's body runs when it is called)
_INERT_DEFAULTS = frozenset(("integer", "float", "true", "false", "none", "string", "lambda"))


def evaluated_outside(node: Any) -> list[tuple[int, int]]:
    """What a definition evaluates once, where the ``def`` or ``class`` statement runs (on import for one at module
    or class level), besides giving it the values: the default values of a function's parameters (``def
    __init__(self, retry=retry_if_exception_type())``) and the arguments of its decorators
    (``@retry(retry=stop_after(3))``, ``@pytest.mark.parametrize("v", cases())``; the decorator itself is left to
    the resolver, which reads it in the definition's scope)."""
    out = []
    parameters = node.child_by_field_name("parameters") if node.type == "function_definition" else None
    for p in parameters.named_children if parameters is not None else ():
        value = p.child_by_field_name("value") if p.type in _DEFAULT_PARAMETERS else None
        if value is not None and value.type not in _INERT_DEFAULTS:
            out.append((value.start_byte, value.end_byte))
    parent = node.parent
    for decorator in parent.named_children if parent is not None and parent.type == "decorated_definition" else ():
        expression = decorator.named_children[0] if decorator.type == "decorator" and decorator.named_children else None
        arguments = expression.child_by_field_name("arguments") if expression is not None and expression.type == "call" else None
        if arguments is not None:
            out.append((arguments.start_byte, arguments.end_byte))
    return out


def decorators(node: Any, source: bytes) -> tuple[str, ...]:
    parent = node.parent
    if parent is None or parent.type != "decorated_definition":
        return ()
    return tuple(_decorator_text(c, source) for c in parent.children if c.type == "decorator")


def _decorator_text(decorator: Any, source: bytes) -> str:
    """The expression of a decorator, without its ``@`` and a comment after it (``@property  # type: ignore``)."""
    expression = next((c for c in decorator.named_children if c.type != "comment"), None)
    return _text(expression, source).strip() if expression is not None else _text(decorator, source)[1:].strip()


_MAIN_CHECKS = frozenset(f"{a}=={b}" for q in "\"'" for a, b in (("__name__", f"{q}__main__{q}"), (f"{q}__main__{q}", "__name__")))


def definition_name(node: Any, name_node: Any, source: bytes) -> str:
    """A definition's name; ``__main__`` for the script entry block, nothing for another ``if`` (no definition)."""
    if name_node is not None:
        return _text(name_node, source)
    condition = node.child_by_field_name("condition") if node.type == "if_statement" else None
    if condition is not None and "".join(_text(condition, source).split()) in _MAIN_CHECKS:
        return MAIN_SCOPE
    return ""


def refine_kind(d: Definition) -> str:
    if d.kind == "main":  # the script entry: a function the interpreter calls when the file runs as a script
        return "function"
    if d.kind == "function" and d.parent is not None and d.parent.kind == "class":
        return "method"
    return d.kind


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """pytest: ``test*`` functions and ``Test*`` classes in test files; unittest: TestCase subclasses."""
    in_test_file = is_test_file(path) and not path.endswith("conftest.py")
    if d.kind == "class":
        if _in_function(d):  # a class a function defines is no test pytest collects (six's test functions make some)
            return False
        bases = [b.rsplit(".", 1)[-1] for b in d.bases]
        return (in_test_file and d.name.startswith("Test")) or any(b in TEST_BASES for b in bases)
    if _is_fixture(d.decorators):
        return False  # `@pytest.fixture def testconfig1()`: a fixture, which pytest does not collect as a test
    if d.kind == "method":
        return parent_test and d.name.startswith("test")
    if d.kind == "function":
        return in_test_file and d.parent is None and d.name.startswith("test")
    return False


def _is_fixture(decorators: Sequence[str]) -> bool:
    """Whether the decorators make a pytest fixture (``@pytest.fixture``, ``@fixture(scope=...)``)."""
    return any(d.split("(", 1)[0].endswith("fixture") for d in decorators)


def _in_function(d: Definition) -> bool:
    """Whether a function encloses the definition."""
    parent = d.parent
    while parent is not None:
        if parent.kind in ("function", "method"):
            return True
        parent = parent.parent
    return False


#: longest signature kept whole (``parse.one_line``'s default); longer ones keep their return annotation
_SIGNATURE_LIMIT = 300
#: a PEP 484 type comment of a function: ``# type: (int, str) -> bool``, the return type
_TYPE_COMMENT = re.compile(r"#\s*type:\s*\(.*\)\s*->\s*([^#\n]+)")


def signature(d: Definition, source: bytes) -> str:
    """``def f(x) -> T`` as written, whitespace collapsed; a long one is cut in its parameters, not in its
    return annotation (the resolver reads the classes a function returns from there)."""
    body = d.body.start_byte if d.body is not None else d.node.end_byte
    # up to the colon of the header: a comment after it comes before the body (`def f():  # note`), but for a PEP 484
    # type comment, whose return type is the function's annotation (`def to_uri(self):` then `# type: () -> URL`)
    end = max((c.end_byte for c in d.node.children if c.type == ":" and c.end_byte <= body), default=body)
    sig = " ".join(source[d.node.start_byte : end].decode("utf-8", "replace").split()).rstrip(" :")
    function = d.kind in ("function", "method")
    returns = d.node.child_by_field_name("return_type") if function else None
    typed = _TYPE_COMMENT.search(source[end:body].decode("utf-8", "replace")) if function and end < body else None
    if typed is not None and returns is None:
        sig += " -> " + typed.group(1).strip()
    if len(sig) <= _SIGNATURE_LIMIT:
        return sig
    if returns is None and typed is None:
        return sig[: _SIGNATURE_LIMIT - 1] + "…"
    annotation = _text(returns, source) if returns is not None else typed.group(1) if typed is not None else ""
    tail = " -> " + " ".join(annotation.split())[:120]
    return sig[: _SIGNATURE_LIMIT - len(tail) - 2] + "…)" + tail


def _docstring_of_block(block: Any, source: bytes) -> str:
    if block is None:
        return ""
    for child in block.named_children:
        if child.type == "comment":
            continue
        if child.type == "expression_statement" and child.named_children:
            child = child.named_children[0]
        return _strip_quotes(_text(child, source)) if child.type == "string" else ""
    return ""


def _strip_quotes(raw: str) -> str:
    i = 0
    while i < len(raw) and raw[i] in "rRbBuUfF":
        i += 1
    raw = raw[i:]
    for q in ('"""', "'''", '"', "'"):
        if raw.startswith(q) and raw.endswith(q) and len(raw) >= 2 * len(q):
            return raw[len(q) : -len(q)].strip()
    return raw.strip()


def docstring(d: Definition, source: bytes) -> str:
    return _docstring_of_block(d.body, source)


def module_docstring(root: Any, source: bytes) -> str:
    return _docstring_of_block(root, source)


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Parameter names: ``x``, ``x=`` (has a default), ``*args``, ``**kw``, ``*`` and ``/`` markers."""
    if d.params is None:
        return ()
    out: list[str] = []
    for p in d.params.named_children:
        t = p.type
        if t == "identifier":
            out.append(_text(p, source))
        elif t == "typed_parameter":
            inner = p.named_children[0] if p.named_children else None
            if inner is not None and inner.type == "list_splat_pattern":
                out.append("*" + _text(inner, source).lstrip("*"))
            elif inner is not None and inner.type == "dictionary_splat_pattern":
                out.append("**" + _text(inner, source).lstrip("*"))
            else:
                out.append(_text(inner, source))
        elif t in ("default_parameter", "typed_default_parameter"):
            out.append(_text(p.child_by_field_name("name"), source) + "=")
        elif t == "list_splat_pattern":
            out.append("*" + _text(p, source).lstrip("*"))
        elif t == "dictionary_splat_pattern":
            out.append("**" + _text(p, source).lstrip("*"))
        elif t == "keyword_separator":
            out.append("*")
        elif t == "positional_separator":
            out.append("/")
    return tuple(out)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    """Positional argument count (None when ``*args`` makes it unknown) and keyword names."""
    if args.type != "argument_list":
        return 1, ()
    if not args.named_child_count:
        return 0, ()
    positional = 0
    keywords: list[str] = []
    unknown = False
    for a in args.named_children:
        kind = a.type
        if kind == "keyword_argument":
            keywords.append(_text(a.child_by_field_name("name"), source))
        elif kind == "list_splat":
            unknown = True
        elif kind == "dictionary_splat":
            keywords.append("**")
        elif kind != "comment":
            positional += 1
    return (None if unknown else positional), tuple(keywords)


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    node = caps["import"][0]
    line = node.start_point[0] + 1
    raw_module = _text(caps["import.module"][0], source) if "import.module" in caps else ""
    level = len(raw_module) - len(raw_module.lstrip("."))
    module = raw_module[level:].replace(" ", "")
    if "import.wildcard" in caps:
        return [Import(module, "*", None, level, line)]
    name = _text(caps["import.name"][0], source) if "import.name" in caps else None
    alias = _text(caps["import.alias"][0], source) if "import.alias" in caps else None
    return [Import(module, name, alias, level, line)]


# --- expressions taken apart in Python (``@expand.<what>`` captures) ----------------------------------------
# Each function stands for the query patterns its comment shows; it returns ``(kind, name node, receiver node)``
# items, for a call ``("call", callee, arguments or None)`` (see parse.py).

_NAMES = frozenset(("identifier", "attribute"))
_OPERANDS = frozenset(("identifier", "attribute", "call"))
#: collections written out whose items an assignment tells (``xs = [Cls(...), y]``)
_DISPLAYS = frozenset(("list", "tuple", "expression_list", "set", "list_comprehension"))
_LOOKUP_NAMES = frozenset(("string", "binary_operator", "call", "identifier"))
_CAST_ARGS = frozenset(("identifier", "attribute", "subscript", "string"))
_BOUNDS = frozenset(("identifier", "attribute", "string"))
_COMPARISONS = frozenset(("<", "<=", "==", "!=", ">=", ">"))
_MEMBERSHIP = frozenset(("in", "not in"))
_CAST = re.compile(r"(^|[.])cast$")
_TYPEVAR = re.compile(r"(^|[.])TypeVar$")
#: calls whose result calls their first argument: ``partial(g, ...)``, and ``staticmethod(g)``/``classmethod(g)`` in a
#: class body
_PARTIAL = re.compile(r"(^|[.])(partial|staticmethod|classmethod)$")
_UPDATE_WRAPPER = re.compile(r"(^|[.])update_wrapper$")
Item = tuple[str, Any, Any]


def _partial_of(called: str, args: Any) -> Any:
    """The function ``partial(g, ...)`` (``staticmethod(g)``, ...) wraps, a name, given the called text and the
    arguments; else None."""
    first = _named_child(args, 0) if args is not None else None
    return first if first is not None and first.type in _NAMES and _PARTIAL.search(called) else None


def _member(kind: str, node: Any) -> list[Item]:
    """``x`` or ``receiver.x``: ``(attribute object: (_) @receiver attribute: (identifier) @name)``."""
    if node.type != "attribute":
        return [(kind, node, None)]
    name = node.child_by_field_name("attribute")
    receiver = node.child_by_field_name("object")
    if name is None or receiver is None or name.type != "identifier":
        return []
    return [(kind, name, receiver)]


def _enclosing(node: Any, types: Collection[str]) -> Any:
    """The nearest node above ``node`` of one of ``types`` (None when there is none)."""
    scope = node.parent
    while scope is not None and scope.type not in types:
        scope = scope.parent
    return scope


def _named_child(node: Any, index: int) -> Any:
    return node.named_child(index) if index < node.named_child_count else None


def _uncast(node: Any, source: bytes) -> Any:
    """The value of ``cast(T, value)``, a call ``return cast("Callable[..., str]", getattr(self, name))`` returns as it
    is; any other node unchanged."""
    function = _called_function(node)
    args = node.child_by_field_name("arguments") if function is not None else None
    if args is None or args.type != "argument_list" or args.named_child_count != 2:
        return node
    if not _CAST.search(source[function.start_byte : function.end_byte].decode("utf-8", "replace")):
        return node
    return _named_child(args, 1)


def _is_lookup(callee: Any, source: bytes) -> bool:
    """Whether a callee looks a member up by name: ``getattr``, or ``object.__getattribute__``, which skips the class's
    own ``__getattr__`` (mistune's renderer: ``object.__getattribute__(self, token["type"])``)."""
    return source[callee.start_byte : callee.end_byte] in (b"getattr", b"object.__getattribute__")


def _lookups(args: Any, source: bytes) -> list[tuple[Any, Any]]:
    """``getattr``'s object and name: ``(argument_list . (_) @receiver . [(string) (binary_operator) (call) (identifier)]
    @name)``; for a name taken from a table of names the function fills, ``getattr(ver, maptable[part])`` after
    ``maptable = {"major": "bump_major", ...}``, each name of the table; for a parameter a parametrize gives strings,
    each string."""
    receiver = _named_child(args, 0)
    name = _named_child(args, 1)
    if receiver is None or name is None:
        return []
    if name.type == "subscript":
        return [(receiver, value) for value in _table_of_names(name, source)]
    if name.type == "identifier":
        # `getattr(bl, method_name)` under `@pytest.mark.parametrize("method_name", ["debug", "info"])`: each name
        # (structlog's tests)
        given = [v for v in _parametrized_strings(args, _text(name, source), source) if v.type == "string"]
        if given:
            return [(receiver, value) for value in given]
    return [(receiver, name)] if name.type in _LOOKUP_NAMES else []


def _table_of_names(subscript: Any, source: bytes) -> list[Any]:
    """The string values of ``table = {k: "name", ...}`` in the function (or module) around ``table[...]``."""
    table = subscript.child_by_field_name("value")
    if table is None or table.type != "identifier":
        return []
    scope = _enclosing(subscript, ("function_definition", "module"))
    body = scope.child_by_field_name("body") if scope is not None and scope.type == "function_definition" else scope
    for right in _assigned_in(body, _text(table, source), source):
        if right.type == "dictionary":
            values = [p.child_by_field_name("value") for p in right.named_children if p.type == "pair"]
            if values and all(v is not None and v.type == "string" for v in values):
                return values
    return []


def _assigned_in(body: Any, name: str, source: bytes) -> list[Any]:
    """The values ``name = value`` statements of a body assign, not those of the functions and classes it defines."""
    out: list[Any] = []
    stack = list(body.named_children) if body is not None else []
    while stack:
        node = stack.pop()
        if node.type in ("function_definition", "class_definition", "decorated_definition", "lambda"):
            continue
        if node.type == "assignment":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and _text(left, source) == name:
                out.append(right)
            continue
        stack.extend(node.named_children)
    return out


def _call(node: Any, source: bytes) -> list[Item]:
    function = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if function is None or args is None:
        return []
    while function.type == "parenthesized_expression" and function.named_child_count == 1:
        function = function.named_children[0]  # `(self._rule)()`: json5's generated parser calls its rules so
    kind = function.type
    if kind == "call":  # f(...)(...): `type(self)(...)`, `getattr(obj, name)(...)`
        inner = function.child_by_field_name("function")
        inner_args = function.child_by_field_name("arguments")
        if inner is None or inner_args is None or inner.type not in _NAMES or inner_args.type != "argument_list":
            return []
        called = source[inner.start_byte : inner.end_byte] if inner.type == "identifier" else b""
        if called == b"type":
            # ((call function: (call function: (identifier) @_type arguments: (argument_list . (identifier) @name .)))
            #   @reference.typecall (#eq? @_type "type"))
            arg = _named_child(inner_args, 0)
            if inner_args.named_child_count == 1 and arg.type == "identifier":
                return [("typecall", arg, None)]
        elif _is_lookup(inner, source):  # @reference.getattrcall
            lookups = _lookups(inner_args, source)
            if lookups:
                return [("getattrcall", name, receiver) for receiver, name in lookups]
        # (call function: (call function: [(identifier) (attribute)]) @receiver) @reference.callresult: what
        # `make(...)` returns is called (its __call__, or a function it returns; made in finalize)
        return [("callresult", function, function)]
    if kind == "subscript":
        # (call function: (subscript value: [(identifier) (attribute)] @name)) @reference.itemcall: an item of a table
        # called, `self.operators[type(node.op)](left, right)` (a look-up of a variable of its own, in finalize)
        table = function.child_by_field_name("value")
        return [("itemcall", table, None)] if table is not None and table.type in _NAMES else []
    if kind not in _NAMES:
        return []
    # (call function: [(identifier) (attribute)] @callee arguments: (argument_list) @args) @reference.call
    # (call function: [(identifier) (attribute)] @callee arguments: (generator_expression)) @reference.call
    if args.type == "generator_expression":
        return [("call", function, None)]
    if args.type != "argument_list":
        return []
    out: list[Item] = [("call", function, args)]
    out.extend(_callbacks(function, args, source))
    if _is_lookup(function, source):  # @reference.getattr, as above
        out.extend(("getattr", name, receiver) for receiver, name in _lookups(args, source))
    last_name = _text(function, source).rpartition(".")[2]  # the callee's last name, asked once per call
    lazy = _lazy_fixture(last_name, args, source)
    if lazy is not None:  # `lf("table")` in a parametrize: the test takes the fixture `table`
        out.append(("lazyfixture", lazy, None))
    made = _imported_by_prefix(last_name, args, source)
    if made is not None:  # `import_module(f"marko.ext.{name}")`: one of the package's modules (modprefix, in finalize)
        out.append(("modprefix", made, None))
    rules = _ply_rules(function, last_name, args, source)
    if rules is not None:  # `lex.lex(module=self)`: the rules it calls by name (in finalize)
        out.append(rules)
    if last_name == "__setattr__":
        out.extend(_object_setattr(function, args, source))
    if kind == "attribute":
        out.extend(_added_items(function, args, source))
        entered = _named_child(args, 0)
        if last_name in _ENTERING_METHODS and entered is not None and entered.type in _OPERANDS:
            # `stack.enter_context(cm)`, click's `ctx.with_resource(cm)`: as `with cm:` (flask's `app.app_context()`)
            out.append(("with", entered, None))
        # (call function: (attribute object: (_) @receiver attribute: (identifier) @_get) arguments: (argument_list .
        #   [(identifier) (attribute)] @name)) @reference.keyarg (#any-of? @_get "get" "pop" "setdefault"): a mapping's
        #   look-up hashes its key (made in finalize, for a typed key)
        method = function.child_by_field_name("attribute")
        container = function.child_by_field_name("object")
        first = _named_child(args, 0)
        if (
            method is not None
            and container is not None
            and first is not None
            and first.type in _NAMES
            and source[method.start_byte : method.end_byte] in _KEYED_METHODS
        ):
            out.append(("keyarg", first, container))
    if kind == "identifier":
        called = source[function.start_byte : function.end_byte]
        name = called.decode("utf-8", "replace")
        if name in PROTOCOL_BUILTINS and (
            args.named_child_count == 1 or name in _PROTOCOL_OF_FIRST or _iterates_first(name, args)
        ):
            # ((call function: (identifier) @name arguments: (argument_list . [(identifier) (attribute) (call)]
            #   @receiver .)) @reference.protocol (#any-of? @name "str" "repr" ...))
            arg = _named_child(args, 0)
            if arg.type in _OPERANDS:
                out.append(("protocol", function, arg))
        return out
    if source.find(b"assert", function.start_byte, function.end_byte) < 0:  # most calls: no assertion
        return out
    method = function.child_by_field_name("attribute")
    if method is None or method.type != "identifier":
        return out
    called = source[method.start_byte : method.end_byte]
    if called[:6] != b"assert":
        return out
    first = _named_child(args, 0)
    second = _named_child(args, 1)
    if called in (b"assertIn", b"assertNotIn"):
        # (call function: (attribute attribute: (identifier) @_assert) arguments: (argument_list . (_) @name .
        #   [(identifier) (attribute) (call)] @receiver)) @reference.contains
        if first is not None and second is not None and second.type in _OPERANDS:
            out.append(("contains", first, second))
    elif called in (b"assertTrue", b"assertFalse"):
        # ... arguments: (argument_list . [(identifier) (attribute)] @receiver @name)) @reference.truth
        if first is not None and first.type in _NAMES:
            out.append(("truth", first, first))
    elif called in (b"assertEqual", b"assertNotEqual"):
        # ... arguments: (argument_list . [(identifier) (attribute) (call)] @receiver @name)) @reference.equality
        # ... arguments: (argument_list . (_) . [(identifier) (attribute) (call)] @receiver @name)) @reference.equality
        # (assertNotEqual fails unless `first != second`: __ne__, which object's answers with __eq__)
        how = "equality" if called == b"assertEqual" else "inequality"
        if first is not None and first.type in _OPERANDS:
            out.append((how, first, first))
        if second is not None and second.type in _OPERANDS:
            out.append((how, second, second))
    return out


#: methods that enter the context manager they are given and exit it later (``contextlib.ExitStack``, ``click.Context``)
_ENTERING_METHODS = frozenset(("enter_context", "with_resource"))
#: builtins that iterate their first argument whatever follows it (``enumerate(it, 1)``, ``sum(it, 0)``), and one
#: that does when it is its only positional one (``dict(pairs, x=1)``); the ordering builtins are read with one
#: argument only (with ``key=`` they compare what the key gives, not the items)
_ITERATING_FIRST = frozenset(("enumerate", "sum"))
#: builtins that run the protocol method of their first argument whatever follows it: ``format(x, spec)`` runs
#: ``x.__format__(spec)``, ``next(it, default)`` runs ``it.__next__()`` (not ``int(text, 16)``, which parses a string)
_PROTOCOL_OF_FIRST = frozenset(("format", "next"))
_ITERATING_ALONE = frozenset(("dict",))


def _iterates_first(name: str, args: Any) -> bool:
    """Whether a call of the builtin ``name`` with more than one argument iterates its first (see above)."""
    if name in _ITERATING_FIRST:
        return True
    positional = [a for a in args.named_children if a.type not in ("keyword_argument", "dictionary_splat", "comment")]
    return name in _ITERATING_ALONE and len(positional) == 1


#: methods that add their argument to a collection (``xs.append(v)``), and the position of that argument
_ADDING_METHODS = {b"append": 0, b"add": 0, b"appendleft": 0, b"insert": 1}


def _item_value(node: Any) -> Any:
    """A value whose class the resolver can tell, as an item of a collection: a name (a variable) or a call
    of a name (``Cls(...)``, ``make(...)``: the item text then has a parenthesis); else None."""
    if node is None:
        return None
    if node.type in _NAMES:
        return node
    function = _called_function(node) if node.type == "call" else None
    if function is None:
        return None
    # `partial(date_convert, ymd=1)`: the item calls date_convert (parse's `conv[group] = partial(...)`)
    wrapped = _partial_of(function.text.decode("utf-8", "replace"), node.child_by_field_name("arguments"))
    return wrapped if wrapped is not None else node


#: the suffixes of file names a two-part string more likely is than a module's member (``"settings.py"``,
#: ``"index.html"``; ``"colorlog.ColoredFormatter"`` in a logging configuration is a class)
FILE_SUFFIXES = frozenset((
    "py", "pyi", "pyc", "pyx", "pxd", "so", "txt", "md", "rst", "html", "htm", "xml", "json", "yml", "yaml", "toml",
    "ini", "cfg", "conf", "csv", "tsv", "js", "ts", "css", "scss", "png", "jpg", "jpeg", "gif", "svg", "ico", "pdf",
    "po", "mo", "sql", "db", "sqlite", "log", "tmp", "pkl", "pickle", "zip", "gz", "bz2", "xz", "tar", "whl", "egg",
    "in", "out", "bak", "lock",
))

#: the standard library's collections that hold what the literal they are made from holds (``deque([f, g])``)
_COLLECTION_TYPES = frozenset((b"deque", b"list", b"tuple", b"set", b"frozenset", b"dict", b"OrderedDict"))


def _collection_literal(node: Any) -> Any:
    """The list, tuple, set or dict display a collection is made from (``deque([a, b])``, ``collections.OrderedDict({k:
    a})``), or ``node`` itself."""
    function = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if function is None or args is None or args.type != "argument_list" or args.named_child_count != 1:
        return node
    name = function.child_by_field_name("attribute") if function.type == "attribute" else function
    literal = args.named_children[0]
    if name is None or name.text not in _COLLECTION_TYPES or literal.type not in (_DISPLAYS | {"dictionary"}):
        return node
    return literal


def _added_items(function: Any, args: Any, source: bytes) -> list[Item]:
    """(call function: (attribute object: [(identifier) (attribute)] @name attribute: (identifier) @_add) arguments:
    (argument_list . [(identifier) (attribute) (call function: [(identifier) (attribute)])] @receiver))
    @reference.item (#any-of? @_add "append" "add" "appendleft"; for "insert" the second argument; for "update" with a
    dictionary, each value): the collection ``@name`` holds values like ``@receiver`` (its element type, for the loops
    over it: resolve.Resolver._elements)."""
    container = function.child_by_field_name("object")
    method = function.child_by_field_name("attribute")
    if container is None or method is None or container.type not in _NAMES:
        return []
    added = source[method.start_byte : method.end_byte]
    table = _named_child(args, 0) if args.named_child_count == 1 else None
    if added == b"update" and table is not None and table.type == "dictionary":
        # `self.nodes.update({ast.Dict: self._eval_dict})`: the values go into the table, as in its literal
        return [("item", container, v) for v in map(_item_value, _dict_values(table)) if v is not None]
    if added == b"update" and table is not None and table.type in ("tuple", "list"):
        # `self.handlers.update((("type", self.generate_type), ...))`: the second of each pair
        pairs = [p.named_children for p in table.named_children if p.type in ("tuple", "list")]
        return [("item", container, v) for v in (_item_value(p[1]) for p in pairs if len(p) == 2) if v is not None]
    position = _ADDING_METHODS.get(added)
    if position is None or args.named_child_count != position + 1:
        return []
    value = _item_value(_named_child(args, position))
    return [("item", container, value)] if value is not None else []


#: functions of the standard library that call a function they are given before they return (``sorted``) or
#: while their result is iterated (``map``), mostly where they are called: the position of that argument
#: (None: only as a keyword) and its keyword
_CALLBACK_ARGUMENTS: dict[bytes, tuple[int | None, bytes]] = {
    b"map": (0, b""),
    b"filter": (0, b""),
    b"reduce": (0, b""),
    b"takewhile": (0, b""),
    b"dropwhile": (0, b""),
    b"filterfalse": (0, b""),
    b"starmap": (0, b""),
    b"accumulate": (1, b"func"),
    b"groupby": (1, b"key"),
    b"sorted": (None, b"key"),
    b"min": (None, b"key"),
    b"max": (None, b"key"),
    b"nsmallest": (None, b"key"),
    b"nlargest": (None, b"key"),
    b"sort": (None, b"key"),
    b"register": (0, b""),
}
#: functions of the standard library whose first argument is called when what they return is
_CALLABLE_WRAPPERS = frozenset((b"partial", b"cmp_to_key"))
#: methods of a compiled regular expression (and functions of the modules :data:`_REGEX_MODULES`) that call a
#: function given as the replacement for each match
_SUBSTITUTIONS = frozenset((b"sub", b"subn"))
_REGEX_MODULES = frozenset((b"re", b"regex"))
#: methods of a mapping that look their first argument up as a key
_KEYED_METHODS = frozenset((b"get", b"pop", b"setdefault"))
#: where those functions are named with a receiver (``functools.reduce``; ``xs.sort`` on any list)
_CALLBACK_MODULES = frozenset((b"functools", b"itertools", b"heapq"))
#: those named only with their own module: ``codecs.register(search)`` keeps ``search`` for later calls from anywhere
#: (any look-up of a codec not found yet, import-time code of other modules included): a call where it is registered
_QUALIFIED_CALLBACKS = {b"register": frozenset((b"codecs",))}


def _callbacks(function: Any, args: Any, source: bytes) -> list[Item]:
    """A function given by name to a standard one that calls it (``map(f, xs)``, ``sorted(xs, key=f)``,
    ``functools.reduce(f, xs)``): ``(call function: ... @_hof arguments: (argument_list . [(identifier)
    (attribute)] @name)) @reference.callback``, and the same for the keyword argument."""
    called = _last_name(function, source)
    spec = _CALLBACK_ARGUMENTS.get(called)
    owner = function.child_by_field_name("object") if function.type == "attribute" else None
    if called in _SUBSTITUTIONS and owner is not None:
        # `PATTERN.sub(repl, text)`, `re.sub(pattern, repl, text)`: a function given as the replacement runs per match
        # (given by name only: `v.sub(Vector(1, 2))` is arithmetic)
        position = 1 if source[owner.start_byte : owner.end_byte] in _REGEX_MODULES else 0
        return [item for item in _given_callback(args, position, b"repl", source) if item[0] == "callback"]
    if spec is None:
        return []
    modules = _QUALIFIED_CALLBACKS.get(called)
    if function.type == "attribute" and called != b"sort":
        module = function.child_by_field_name("object")
        if module is None or source[module.start_byte : module.end_byte] not in (modules or _CALLBACK_MODULES):
            return []
    elif modules is not None:  # a bare `register(f)`: the program's own function
        return []
    return _given_callback(args, *spec, source)


def _given_callback(args: Any, position: int | None, keyword: bytes, source: bytes) -> list[Item]:
    """The function given to a callback-taking call at ``position`` or as ``keyword`` (see :func:`_callbacks`)."""
    given = _named_child(args, position) if position is not None else None
    if given is not None and given.type == "keyword_argument":
        given = None
    if given is None and keyword:
        for arg in args.named_children:
            key = arg.child_by_field_name("name") if arg.type == "keyword_argument" else None
            if key is not None and source[key.start_byte : key.end_byte] == keyword:
                given = arg.child_by_field_name("value")
                break
    if given is not None and given.type == "call":
        # `sorted(xs, key=cmp_to_key(compare))`, `key=partial(f, ...)`: f runs; `key=make_key(alg)`: what
        # make_key returns runs, as in `make_key(alg)(x)` (@reference.callresult)
        made_by = given.child_by_field_name("function")
        if made_by is None or made_by.type not in _NAMES:
            return []
        if _last_name(made_by, source) not in _CALLABLE_WRAPPERS:
            return [("callresult", given, given)]
        given = _named_child(given.child_by_field_name("arguments"), 0)
    if given is None or given.type not in _NAMES:
        return []
    return _member("callback", given)


def _subscript(kind: str, node: Any) -> list[Item]:
    """(subscript value: [(identifier) (attribute) (call)] @receiver subscript: (_) @name) @reference.<kind>"""
    value = node.child_by_field_name("value")
    if value is None or value.type not in _OPERANDS:
        return []
    if kind == "getitem" and _stored_or_deleted(node):  # `x[k] = v` and `del x[k]` read nothing (`x[k] += 1` does)
        return []
    return [(kind, key, value) for key in node.children_by_field_name("subscript") if key.is_named]


def _stored_or_deleted(node: Any) -> bool:
    """Whether a subscript is the target of a plain assignment or of ``del`` (not of an augmented assignment)."""
    parent = node.parent
    if parent is not None and parent.type in ("expression_list", "pattern_list", "tuple_pattern"):
        parent = parent.parent  # `del a[k], b[k]`, `x[0], x[1] = pair`
    if parent is None:
        return False
    if parent.type == "delete_statement":
        return True
    left = parent.child_by_field_name("left") if parent.type == "assignment" else None
    return left is not None and left.start_byte <= node.start_byte and node.end_byte <= left.end_byte


def _assignment(node: Any, source: bytes) -> list[Item]:
    left = node.child_by_field_name("left")
    right = _assigned_value(node.child_by_field_name("right"))
    annotation = node.child_by_field_name("type")
    pairs = _paired(left, right)
    if pairs:  # `years, minutes = Unit["YEARS"], Unit["MINUTES"]`: each name as if assigned its own value
        return [item for name, value in pairs for item in _assigned(name, value, None, source)]
    return _assigned(left, right, annotation, source)


def _assigned_value(right: Any) -> Any:
    """What the right side of an assignment gives: the innermost value of a chain (``a = b = make()``: the inner
    assignment is one of its own), without parentheses around one value (``x = (Foo(...))``, as formatters break a
    long line over three)."""
    while right is not None:
        if right.type == "assignment":
            right = right.child_by_field_name("right")
        elif right.type == "parenthesized_expression" and right.named_child_count == 1 and right.named_children[0].type != "yield":
            right = right.named_children[0]
        else:
            return right
    return right


def _paired(left: Any, right: Any) -> list[tuple[Any, Any]]:
    """The (name, value) pairs of ``a, b = x, y`` (as many names as values, no starred one), else none."""
    if left is None or right is None or left.type not in ("pattern_list", "tuple_pattern"):
        return []
    if right.type not in ("expression_list", "tuple"):
        return []
    names, values = left.named_children, right.named_children
    if len(names) != len(values) or any(n.type != "identifier" for n in names):
        return []
    if any(v.type in ("list_splat", "parenthesized_list_splat") for v in values):
        return []
    return list(zip(names, values))


def _assigned(left: Any, right: Any, annotation: Any, source: bytes) -> list[Item]:
    """The items of ``left = right`` (see :func:`_assignment`)."""
    left_kind = left.type if left is not None else ""
    right_kind = right.type if right is not None else ""
    out: list[Item] = []
    # (assignment right: (identifier) @name) @reference.ref, and `right: (attribute object: ... attribute: ...)`
    if right_kind in _NAMES:
        out.extend(_member("ref", right))
    function = right.child_by_field_name("function") if right_kind == "call" else None
    # a name built before a getattr lookup: (assignment left: (identifier) @name right: [(string)
    #   (binary_operator left: (string)) (call function: (attribute object: (string)))] @receiver) @reference.namestr
    if left_kind == "identifier" and (
        right_kind == "string"
        or (right_kind == "binary_operator" and _field_type(right, "left") == "string")
        or (function is not None and function.type == "attribute" and _field_type(function, "object") == "string")
    ):
        out.append(("namestr", left, right))
    if left_kind == "identifier" and _strings_literal(right):
        out.append(("strings", left, right))  # `properties = ("fqdn", "ipv4")`: names a loop may give getattr
    if left_kind in _NAMES and right_kind == "call":
        # `ADAPTER_CLASSES = deque([DictAdapter, ...])`: the collection holds the items of the literal it is made from
        right = _collection_literal(right)
        right_kind = right.type
    if left_kind in _NAMES and right_kind == "dictionary":
        # (assignment left: [(identifier) (attribute)] @name right: (dictionary (pair value: [(identifier) (attribute)
        #   (call function: [(identifier) (attribute)])] @receiver))) @reference.item: a table of functions, say
        out.extend(("item", left, v) for v in map(_item_value, _dict_values(right)) if v is not None)
    if left_kind in _NAMES and right_kind == "dictionary_comprehension":
        # `FRAMES = {cls.type: cls for cls in _FRAME_CLASSES}` (hyperframe): the values, as a list comprehension's body
        body = right.child_by_field_name("body")
        value = _item_value(body.child_by_field_name("value")) if body is not None and body.type == "pair" else None
        if value is not None:
            out.append(("item", left, value))
    if left_kind == "identifier" or left_kind in ("pattern_list", "tuple_pattern"):
        # (assignment left: (identifier) @name right: [(subscript value: [(identifier) (attribute)] @receiver)
        #   (call function: (attribute object: [(identifier) (attribute)] @receiver attribute: (identifier) @_get))])
        #   @reference.lookup (#eq? @_get "get"): the variable holds an item of the collection (`f = TABLE.get(k)`);
        #   each name unpacked from one holds a part of it (h2's `func, target_state = _transitions[(state, input_)]`)
        container = right.child_by_field_name("value") if right_kind == "subscript" else None
        if function is not None and function.type == "attribute" and _field_type(function, "attribute") == "identifier":
            method = function.child_by_field_name("attribute")
            if source[method.start_byte : method.end_byte] == b"get":
                container = function.child_by_field_name("object")
        if container is not None and container.type in _NAMES:
            names = [left] if left_kind == "identifier" else [n for n in left.named_children if n.type == "identifier"]
            out.extend(("lookup", name, container) for name in names)
    if left_kind == "subscript" and _field_type(left, "value") in _NAMES:
        # (assignment left: (subscript value: [(identifier) (attribute)] @name) right: [(identifier) (attribute) (call
        #   function: [(identifier) (attribute)])] @receiver) @reference.item: `self.handlers[node] = handler`
        value = _item_value(right)
        if value is not None:
            out.append(("item", left.child_by_field_name("value"), value))
    if left_kind in _NAMES and right_kind in _DISPLAYS:
        # (assignment left: [(identifier) (attribute)] @name right: (list [(identifier) (attribute) (call function:
        #   [(identifier) (attribute)])] @receiver)) @reference.item, and tuples, sets, a list comprehension's body
        values = [right.child_by_field_name("body")] if right_kind == "list_comprehension" else right.named_children
        out.extend(("item", left, v) for v in map(_item_value, values) if v is not None)
    if left_kind in ("pattern_list", "tuple_pattern") and function is not None and function.type in _NAMES:
        # `strings, padfn = choose(...)`: each name holds a position of what the call returns (`unpack<i>`, in finalize)
        out.extend(
            (f"unpack{i}", part, function)
            for i, part in enumerate(left.named_children)
            if part.type == "identifier" and i < _MAX_UNPACKED
        )
    if left_kind in _NAMES:
        called = function if function is not None and function.type in _NAMES else None
        # (assignment left: [(identifier) (attribute)] @name right: (call function: [(identifier) (attribute)]
        #   @receiver)) @reference.assign
        if called is not None:
            # `instance = Cls.__new__(Cls, ...)` makes a Cls without its __init__ (zope.interface's `_create_ABCInterface`)
            attribute = called.child_by_field_name("attribute") if called.type == "attribute" else None
            newed = (
                attribute is not None
                and source[attribute.start_byte : attribute.end_byte] == b"__new__"
                and _field_type(called, "object") in _NAMES
            )
            out.append(("assign", left, called.child_by_field_name("object") if newed else called))
            # `cls = type(self)`: (assignment left: (identifier) @name right: (call function: (identifier) @_type
            #   arguments: (argument_list . (identifier) @receiver .))) @reference.typeof (#eq? @_type "type"):
            #   the variable holds the class of self (calling it makes another instance, as `type(self)(...)` does)
            args = right.child_by_field_name("arguments")
            if source[called.start_byte : called.end_byte] == b"type" and args is not None and args.named_child_count == 1:
                arg = _named_child(args, 0)
                if arg.type == "identifier":
                    out.append(("typeof", left, arg))
        # (assignment left: [(identifier) (attribute)] @name type: (type) @receiver) @reference.assign
        if annotation is not None and annotation.type == "type":
            out.append(("assign", left, annotation))
        # (assignment left: [(identifier) (attribute)] @name right: [(identifier) (attribute)] @receiver) @reference.alias
        if right_kind in _NAMES:
            out.append(("alias", left, right))
        # `self.key = key or make_key`, `f = a if x else b`: the name holds one of the operands; a type alias
        # `RetryBaseT = retry_base | Callable[..., bool]` (or `Union[...]`, `Optional[...]`) names each member
        out.extend(("alias", left, operand) for operand in _alternatives(right) + _union_members(right, source))
        # `context = context or Pickler(...)`: or an instance one of them makes
        out.extend(("assign", left, callee) for callee in _alternatives(right, calls=True))
        out.extend(("alias", left, fallback) for fallback in _fallback(right, source))
        if called is not None:
            args = right.child_by_field_name("arguments")
            if args is not None and args.type == "argument_list":
                called_name = source[called.start_byte : called.end_byte].decode("utf-8", "replace")
                # `x = cast(T, v)`: ... right: (call function: [(identifier) (attribute)] @_cast arguments: (argument_list
                #   . [(identifier) (attribute) (subscript) (string)] @receiver)) ... (#match? @_cast "(^|[.])cast$")
                first = _named_child(args, 0)
                if first is not None and first.type in _CAST_ARGS and _CAST.search(called_name):
                    out.append(("assign", left, first))
                    # `method = cast("Callable[...]", getattr(self, name))`: the variable holds what the call returns
                    # too (cssselect's translator: the type named says nothing of which method the look-up finds)
                    value = _named_child(args, 1)
                    if value is not None and value.type == "call" and args.named_child_count == 2:
                        out.extend(_assigned(left, value, None, source))
                # `T = TypeVar("T", bound=B)`: (assignment left: (identifier) @name right: (call function: ... @_typevar
                #   arguments: (argument_list (keyword_argument name: (identifier) @_bound value: [(identifier)
                #   (attribute) (string)] @receiver)))) @reference.alias (#match? @_typevar "(^|[.])TypeVar$")
                # `f = functools.partial(g, ...)`, `f = staticmethod(g)`: calling f calls g, ... (#match? @_partial ...)
                wrapped = _partial_of(called_name, args)
                if wrapped is not None:
                    out.append(("alias", left, wrapped))
                if left_kind == "identifier" and _TYPEVAR.search(called_name):
                    for arg in args.named_children:
                        if arg.type != "keyword_argument":
                            continue
                        key = arg.child_by_field_name("name")
                        value = arg.child_by_field_name("value")
                        if (
                            key is not None
                            and value is not None
                            and key.type == "identifier"
                            and source[key.start_byte : key.end_byte] == b"bound"
                            and value.type in _BOUNDS
                        ):
                            out.append(("alias", left, value))
    # (assignment left: (attribute object: (identifier) @receiver attribute: (identifier) @name)) @reference.store:
    # `self.x = v` runs the __set__ of a descriptor the class body makes x, `rule.x = v` a property's setter (kept for
    # receivers a type may be known for, in finalize)
    if left_kind == "attribute":
        out.extend(_member("store", left))
    # (assignment left: (subscript ...)) @reference.setitem
    if left_kind == "subscript":
        out.extend(_subscript("setitem", left))
    return out


#: positions of a returned or unpacked tuple that are followed
_MAX_UNPACKED = 8
#: the pseudo-variable of what position i of a returned tuple holds (``return#1``; see resolve.RETURN_FACT)
_RETURN_ITEM = "return#{}"


def _positions(references: list[Reference]) -> list[Reference]:
    """``returnitem<i>`` and ``unpack<i>`` items as facts: ``return#<i>`` aliases of what position i of a returned
    tuple holds, and ``unpack`` facts of a name given position i of what a call returns (``choose#1``)."""
    out: list[Reference] = []
    for r in references:
        if r.kind.startswith("returnitem"):
            r = r._replace(kind="alias", name=_RETURN_ITEM.format(r.kind[10:]))
        elif r.kind.startswith("unpack"):
            r = r._replace(kind="unpack", receiver=f"{r.receiver}#{r.kind[6:]}")
        out.append(r)
    return out


def _alternatives(node: Any, *, calls: bool = False) -> list[Any]:
    """The names an ``or``/``and`` chain or a conditional expression may evaluate to (its operands, not its
    condition); with ``calls``, the callees of the operands that are calls of a name (``context or Pickler(...)``)."""
    out: list[Any] = []
    while node is not None and node.type == "parenthesized_expression":  # `f = (c_speedup or py_version)`
        node = _named_child(node, 0)
    stack = [node] if node is not None and node.type in ("boolean_operator", "conditional_expression") else []
    while stack:
        n = stack.pop()
        if n.type == "boolean_operator":
            parts = [n.child_by_field_name("left"), n.child_by_field_name("right")]
        elif n.type == "conditional_expression":
            parts = [_named_child(n, 0), _named_child(n, 2)]
        elif n.type == "parenthesized_expression":
            parts = [_named_child(n, 0)]
        else:
            if n.type in _NAMES and not calls:
                out.append(n)
            elif n.type == "call" and calls and _called_function(n) is not None:
                out.append(_called_function(n))
            continue
        stack.extend(reversed([p for p in parts if p is not None]))
    return out


def _fallback(node: Any, source: bytes) -> list[Any]:
    """The default a look-up evaluates to when the key is missing, a name: ``kwargs.pop("storage",
    self.default_storage_class)``, ``options.get("factory", make)``, ``getattr(obj, "hook", default_hook)``."""
    if node is None or node.type != "call":
        return []
    function = _called_function(node)
    args = node.child_by_field_name("arguments")
    if function is None or args is None or args.type != "argument_list":
        return []
    called = _last_name(function, source)
    method = function.type == "attribute"
    position = 2 if called == b"getattr" and not method else 1 if method and called in (b"get", b"pop") else 0
    given = _named_child(args, position) if position and args.named_child_count == position + 1 else None
    return [given] if given is not None and given.type in _NAMES else []


#: a forward reference to a class: ``"Thing"``, ``'mod.Thing'``
_FORWARD = re.compile(rb"""(["'])[A-Za-z_][\w.]*\1""")


def _union_members(node: Any, source: bytes) -> list[Any]:
    """The names a union type spells: ``A | B | None``, ``Union[A, B]``, ``typing.Optional[A]`` (generic members,
    ``Callable[...]``, left out)."""
    if node is None:
        return []
    out: list[Any] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "binary_operator" and _field_type(n, "operator") == "|":
            stack.extend((n.child_by_field_name("right"), n.child_by_field_name("left")))
        elif n.type == "subscript":
            value = n.child_by_field_name("value")
            head = source[value.start_byte : value.end_byte].rpartition(b".")[2] if value is not None else b""
            if head in (b"Union", b"Optional"):
                stack.extend(reversed([k for k in n.children_by_field_name("subscript") if k.is_named]))
        elif n is not node and (n.type in _NAMES or (n.type == "string" and _FORWARD.fullmatch(source[n.start_byte : n.end_byte]))):
            out.append(n)
    return out


def _updated_wrapper(function: Any, call: Any, source: bytes) -> Any:
    """The wrapper ``functools.update_wrapper(wrapper, wrapped)`` returns, a name (through ``cast(T, wrapper)``):
    ``(call function: ... @_update arguments: (argument_list . [(identifier) (call function: ... @_cast
    arguments: (argument_list (_) . (identifier) @receiver))]))`` (#match? @_update "(^|[.])update_wrapper$")."""
    if not _UPDATE_WRAPPER.search(source[function.start_byte : function.end_byte].decode("utf-8", "replace")):
        return None
    args = call.child_by_field_name("arguments")
    first = _named_child(args, 0) if args is not None else None
    if first is not None and first.type == "call":
        first = _uncast(first, source)
    return first if first is not None and first.type == "identifier" else None


def _dict_values(dictionary: Any) -> list[Any]:
    """The value nodes of a dictionary display's ``key: value`` pairs."""
    return [p.child_by_field_name("value") for p in dictionary.named_children if p.type == "pair"]


def _field_type(node: Any, field: str) -> str:
    child = node.child_by_field_name(field)
    return child.type if child is not None else ""


def _last_name(callee: Any, source: bytes) -> bytes:
    """The name a callee ends with: ``sorted``, ``get`` of ``kwargs.get``."""
    end = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
    return source[end.start_byte : end.end_byte] if end is not None else b""


def _super_class(node: Any) -> bool:
    """Whether the argument ``node`` is the class of ``super(Cls, self)``: the class as a type, as in an annotation
    (a reference of kind ``type``). It makes no instance: the one it runs on was made by whoever called the
    constructor (dispatch.ImplicitCallers.constructed_via). (Not the class of ``isinstance(x, Cls)``: the object checked
    comes in there, and its special methods run there; bitmath's `best_prefix` checks `isinstance(self, Byte)`, then
    runs `abs(self) < Byte(1)`. Taken as a type, a bitmath replay selected 5 points less of its suite and missed 15
    failing tests more.)"""
    args = node.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    function = _called_function(call) if call is not None and call.type == "call" else None
    return function is not None and function.text == b"super" and _named_child(args, 0) == node


def _called_function(call: Any) -> Any:
    """The callee of a call when it is a name: ``(call function: [(identifier) (attribute)] @receiver)``."""
    function = call.child_by_field_name("function")
    return function if function is not None and function.type in _NAMES else None


def _binary(node: Any) -> list[Item]:
    # (binary_operator left: [(identifier) (attribute) (call)] @receiver operator: ["+" "-" ...] @name) @reference.operator
    # (binary_operator operator: ["+" "-" ...] @name right: [(identifier) (attribute) (call)] @receiver) @reference.roperator
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type not in OPERATOR_METHODS:
        return []
    return _operand_items(node, operator, "operator", "roperator")


def _augmented(node: Any) -> list[Item]:
    # (augmented_assignment left: [(identifier) (attribute) (call)] @receiver operator: ["+=" "/=" ...] @name)
    #   @reference.ioperator, and `right: ... @receiver` @reference.iroperator
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type[:-1] not in OPERATOR_METHODS:
        return []
    return _operand_items(node, operator, "ioperator", "iroperator")


def _operand_items(node: Any, operator: Any, left_kind: str, right_kind: str) -> list[Item]:
    """The operands of ``operator`` that are a name or a call: the left one as a ``left_kind`` item, the right one
    as a ``right_kind`` item."""
    out: list[Item] = []
    for field, kind in (("left", left_kind), ("right", right_kind)):
        operand = node.child_by_field_name(field)
        if operand is not None and operand.type in _OPERANDS:
            out.append((kind, operator, operand))
    return out


def _unary(node: Any) -> list[Item]:
    # (unary_operator operator: ["~" "-" "+"] @name argument: [(identifier) (attribute) (call)] @receiver) @reference.unary
    operator = node.child_by_field_name("operator")
    argument = node.child_by_field_name("argument")
    if operator is None or argument is None or operator.type not in UNARY_METHODS or argument.type not in _OPERANDS:
        return []
    return [("unary", operator, argument)]


#: a conversion of printf-style formatting: flags, width, precision, then the type (``%-8s``, ``%r``, ``%%``)
_PERCENT = re.compile(r"%(\([^)]*\))?[#0 +-]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)")
#: the methods the conversions run on an object (``%s`` its __str__, ``%r`` and ``%a`` its __repr__)
PERCENT_METHODS = {"s": "__str__", "r": "__repr__", "a": "__repr__"}


def _percent_format(node: Any, source: bytes) -> list[Item]:
    """``"%s: %r" % (a, b)``: ``pformat_s`` and ``pformat_r`` items, each conversion with the value it formats (made
    into calls of __str__ and __repr__ in finalize). Nothing for a mapping (``%(key)s``) or a ``*`` width."""
    operator = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator is None or operator.type != "%" or left is None or right is None or left.type != "string":
        return []
    raw = _text(left, source)
    prefix = raw[: len(raw) - len(raw.lstrip("rRuUbB"))]
    body = raw[len(prefix) :].strip("\"'")
    conversions = [m for m in _PERCENT.finditer(body) if m.group(4) != "%"]
    if not conversions or any(m.group(1) or m.group(2) == "*" or m.group(3) == "*" for m in conversions):
        return []
    values = right.named_children if right.type == "tuple" else [right]
    if len(values) != len(conversions):
        return []
    return [
        (f"pformat_{m.group(4)}", value, value)
        for m, value in zip(conversions, values)
        if m.group(4) in PERCENT_METHODS and value.type in _OPERANDS
    ]


def _comparison(node: Any) -> list[Item]:
    # (comparison_operator . [(identifier) (attribute) (call)] @receiver . ["<" "<=" "==" "!=" ">=" ">"] @name)
    #   @reference.operator
    # (comparison_operator ["<" "<=" "==" "!=" ">=" ">"] @name . [(identifier) (attribute) (call)] @receiver)
    #   @reference.roperator
    # (comparison_operator [(identifier) (attribute) (call)]? @name . ["in" "not in"] . [(identifier) (attribute)
    #   (call)] @receiver) @reference.contains (@name: the key, else the operator)
    children = node.children
    out: list[Item] = []
    if len(children) > 1 and children[0].type in _OPERANDS and children[1].type in _COMPARISONS:
        out.append(("operator", children[1], children[0]))
    for i, (operator, operand) in enumerate(pairwise(children)):
        if operand.type in _OPERANDS:
            if operator.type in _COMPARISONS:
                out.append(("roperator", operator, operand))
            elif operator.type in _MEMBERSHIP:
                key = children[i - 1] if i > 0 and children[i - 1].type in _OPERANDS else operator
                out.append(("contains", key, operand))
    return out


def _with_item(node: Any) -> list[Item]:
    # (with_item value: [(identifier) (attribute) (call)] @name) @reference.with
    # (with_item value: (as_pattern . [(identifier) (attribute) (call)] @name)) @reference.with
    # (with_item value: (as_pattern . (call function: [(identifier) (attribute)] @receiver) alias: (as_pattern_target
    #   (identifier) @name))) @reference.assign
    value = node.child_by_field_name("value")
    if value is None:
        return []
    if value.type in _OPERANDS:
        return [("with", value, None)]
    if value.type != "as_pattern":
        return []
    entered = _named_child(value, 0)
    if entered is None or entered.type not in _OPERANDS:
        return []
    out: list[Item] = [("with", entered, None)]
    function = _called_function(entered) if entered.type == "call" else None
    target = value.child_by_field_name("alias") if function is not None else None
    if target is not None and target.type == "as_pattern_target":
        out.extend(("assign", name, function) for name in target.named_children if name.type == "identifier")
    return out


def _strings_literal(node: Any) -> bool:
    """Whether a node is a tuple, list or set literal of plain strings (``("fqdn", "ipv4")``)."""
    if node is None or node.type not in ("tuple", "list", "set", "parenthesized_expression"):
        return False
    items = node.named_children
    return bool(items) and all(
        item.type == "string" and not any(c.type == "interpolation" for c in item.named_children) for item in items
    )


def _for(node: Any) -> list[Item]:
    # (for_statement left: (identifier) @name right: [(call function: [(identifier) (attribute)] @receiver)
    #   (identifier) @receiver (attribute) @receiver]) @reference.element, and the same in for_in_clause
    # (for_statement right: [(identifier) (attribute) (call)] @name) @reference.iterate, and in for_in_clause
    out: list[Item] = []
    left = node.child_by_field_name("left")
    for right in node.children_by_field_name("right"):  # several in a comprehension's `for x in a, b`
        if left is not None and left.type == "identifier" and _strings_literal(right):
            out.append(("strings", left, right))  # `for name in ("fqdn", "ipv4")`: x takes each (a getattr's name)
            continue
        sliced = _sliced(right)
        if sliced is not None and left is not None and left.type == "identifier":
            out.append(("element", left, sliced))  # `for rule in rules[:-1]`: an element of a slice is one of rules
        kind = right.type
        if kind not in _OPERANDS:
            continue
        if left is not None and left.type == "identifier":
            receiver = _called_function(right) if kind == "call" else right
            if receiver is not None:
                out.append(("element", left, receiver))
        elif left is not None and left.type in ("pattern_list", "tuple_pattern") and kind == "call":
            # `for key, func in self.handlers.items()`: the second name takes the values (an element of `X.items`)
            names = left.named_children
            function = _called_function(right)
            if len(names) == 2 and names[1].type == "identifier" and function is not None and function.type == "attribute":
                attribute = function.child_by_field_name("attribute")
                if attribute is not None and attribute.text == b"items":
                    out.append(("element", names[1], function))
        elif left is not None and left.type in ("pattern_list", "tuple_pattern") and kind in ("identifier", "attribute"):
            # `for type_, func in TYPES_TO_DIST_FUNC:` over a table of tuples: each name takes a part of an item, one of
            # the functions the table holds (resolve.Resolver._table_callables)
            out.extend(("element", name, right) for name in left.named_children if name.type == "identifier")
        # a comprehension iterates its iterables too (run by its owner: it is no function of its own)
        out.append(("iterate", right, None))
    return out


def _sliced(node: Any) -> Any:
    """The collection a slice is taken of (``rules`` in ``rules[:-1]``, a name or an attribute), or None."""
    if node.type != "subscript":
        return None
    value = node.child_by_field_name("value")
    indexes = node.children_by_field_name("subscript")
    if value is None or value.type not in ("identifier", "attribute") or [i.type for i in indexes] != ["slice"]:
        return None
    return value


def _interpolation(node: Any) -> list[Item]:
    # (interpolation expression: [(identifier) (attribute) (call)] @receiver [(type_conversion) (format_specifier)]?
    #   @name) @reference.format: `f"{x}"` runs format(x, ""), x.__format__ (object's calls x.__str__), `{x!r}`
    #   x.__repr__, `{x:>3}` x.__format__ (made in finalize from the text of @name: the conversion, the spec, or x)
    expression = node.child_by_field_name("expression")
    if expression is None or expression.type not in _OPERANDS:
        return []
    how = node.child_by_field_name("type_conversion") or node.child_by_field_name("format_specifier")
    return [("format", how if how is not None else expression, expression)]


#: methods that store their arguments in the object they are called on (`FILTERS.update({...})`)
STORING_METHODS = frozenset(("update", "append", "extend", "insert", "add", "setdefault", "__setitem__"))
#: values whose parts are what the enclosing statement stores (a call's arguments: `Format(line=f)`, `partial(f)`)
_CONTAINERS = frozenset(
    ("list", "tuple", "set", "expression_list", "parenthesized_expression", "argument_list", "conditional_expression")
)


#: a module run by path in a command line (``"tabulate/__init__.py"``, ``"./scripts/tool.py"``)
_SCRIPT_PATH = re.compile(r"^(?:\./)?[\w.-]+(?:/[\w.-]+)*\.py$")
_MODULE_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
#: a command word that could be a console script of the repository's package
_COMMAND = re.compile(r"^[A-Za-z_]\w*$")
#: calls that run a command line given as their first argument
_PROCESS_CALLS = frozenset(("run", "call", "check_call", "check_output", "Popen", "run_process"))
#: a string holding a dotted path of three parts or more (python.scm's `dotted` strings)
_DOTTED = re.compile(rb"""(["'])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}\1""")


#: where a string is a value the program passes or keeps: the field of its parent it must fill (None: any child)
_VALUE_POSITIONS: dict[str, str | None] = {
    "pair": "value",
    "keyword_argument": "value",
    "assignment": "right",
    "list": None,
    "tuple": None,
    "argument_list": None,
}


def _in_value_position(node: Any) -> bool:
    parent = node.parent
    if parent is None or parent.type not in _VALUE_POSITIONS:
        return False
    field_name = _VALUE_POSITIONS[parent.type]
    return field_name is None or parent.child_by_field_name(field_name) == node


def _run_by_process(node: Any, source: bytes) -> bool:
    """Whether the list ``node`` is the first argument of a call that starts a process (``subprocess.run``, ``Popen``)."""
    args = node.parent
    if args is None or args.type != "argument_list" or args.named_children[0] != node or args.parent is None:
        return False
    function = args.parent.child_by_field_name("function")
    return function is not None and _text(function, source).rpartition(".")[2] in _PROCESS_CALLS


def _spawned(node: Any, source: bytes) -> list[Item]:
    """``spawn`` items of a list or tuple that is a command line running a module of the repository: after the
    interpreter (``sys.executable`` or ``"python..."``), the string after ``"-m"`` or a string naming a ``.py`` file;
    or, in a list a process is started with, a first string that is a plain word (a console script)."""
    out: list[Item] = []
    interpreter = False
    before = None
    for i, child in enumerate(node.named_children):
        text = _string_value(child, source) if child.type == "string" else None
        if i == 0 and text is not None and _COMMAND.match(text) and not text.startswith("python") and _run_by_process(node, source):
            # `subprocess.run(["dotenv", "list"])`: a console script, named as its package most often is; the
            # resolver takes it for `-m dotenv`, which a package with a `__main__.py` (or a module's entry block) answers
            out.append(("spawn", child, None))
        if text is None:
            if interpreter and before == "-m" and child.type == "identifier":
                # `[sys.executable, "-m", module]` under `@pytest.mark.parametrize("module", ["pkg", "pkg.cli"])`
                for value in _parametrized_strings(node, _text(child, source), source):
                    if _MODULE_PATH.match(_string_value(value, source) or ""):
                        out.append(("spawn", value, None))
            if interpreter and before == "-c" and child.type == "identifier":
                # `script = """..."""` in the function, then `[sys.executable, "-c", script]`
                out.extend(("script", value, None) for value in _local_strings(node, _text(child, source), source))
            interpreter = interpreter or _text(child, source) == "sys.executable"
        elif interpreter and ((before == "-m" and _MODULE_PATH.match(text)) or _SCRIPT_PATH.match(text)):
            out.append(("spawn", child, None))
        elif interpreter and before == "-c":
            # `[sys.executable, "-c", "import pkg; print(pkg.extract(x))"]`: the code the child runs (tldextract's tests)
            out.append(("script", child, None))
        else:
            interpreter = interpreter or text.rsplit("/", 1)[-1].startswith("python")
        before = text
    return out


def _local_strings(node: Any, name: str, source: bytes) -> list[Any]:
    """The string literals the function around ``node`` assigns to the variable ``name`` (in its own body, not in a
    function it defines)."""
    scope = _enclosing(node, ("function_definition", "class_definition", "module"))
    if scope is None or scope.type != "function_definition":
        return []
    return [right for right in _assigned_in(scope.child_by_field_name("body"), name, source) if right.type == "string"]


def _script_uses(literal: str) -> list[tuple[str, str]]:
    """(module, name) pairs of what a ``python -c`` script literal uses: each module it imports (as its package and
    last name, ``("pkg", "mod")`` for ``import pkg.mod``), each name it imports from one, and each ``module.name`` of a
    module it imports (``pkg.extract(...)``); nothing for an f-string or a literal Python cannot read."""
    try:
        code = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return []
    if not isinstance(code, str):
        return []
    out: list[tuple[str, str]] = []
    bound: dict[str, str] = {}  # name the script binds → the module it is
    for found in _SCRIPT_IMPORT.finditer(code):
        origin, names = found.group(1), found.group(2) or found.group(3)
        if origin is not None:  # from pkg.mod import a, b as c
            for item in names.split(","):
                name, _, alias = item.strip().strip("()").partition(" as ")
                if name.strip().isidentifier():
                    out.append((origin, name.strip()))
                    bound[(alias or name).strip()] = f"{origin}.{name.strip()}"
            continue
        for item in names.split(","):  # import pkg.mod, other as o
            module, _, alias = item.strip().partition(" as ")
            module = module.strip()
            if _plain_chain(module):
                package, _, last = module.rpartition(".")
                out.append((package, last))
                if alias.strip():
                    bound[alias.strip()] = module  # `import pkg.mod as m`: m is pkg.mod
                else:
                    bound[module.split(".")[0]] = module.split(".")[0]  # `import pkg.mod` binds pkg
    for found in _TEXT_MEMBER.finditer(code):
        receiver, member = found.group(1), found.group(2)
        head, _, rest = receiver.partition(".")
        if head in bound:
            out.append((".".join(p for p in (bound[head], rest) if p), member))
    return list(dict.fromkeys(out))


def _parametrized_strings(node: Any, name: str, source: bytes) -> list[Any]:
    """The string literals ``@pytest.mark.parametrize`` gives the parameter ``name`` of the function around ``node``
    (``("module", ["pkg", "pkg.cli"])``, or one position of each tuple for ``("module, code", [("pkg", 0)])``)."""
    scope = _enclosing(node, ("function_definition", "class_definition", "module"))
    decorated = scope.parent if scope is not None and scope.type == "function_definition" else None
    if decorated is None or decorated.type != "decorated_definition":
        return []
    out: list[Any] = []
    for decorator in (c for c in decorated.named_children if c.type == "decorator"):
        call = _named_child(decorator, 0)
        function = call.child_by_field_name("function") if call is not None and call.type == "call" else None
        if function is None or not _text(function, source).endswith("parametrize"):
            continue
        args = call.child_by_field_name("arguments")
        names, values = (_named_child(args, 0), _named_child(args, 1)) if args is not None else (None, None)
        spelled = _string_value(names, source) if names is not None and names.type == "string" else None
        if spelled is None or values is None or values.type not in ("list", "tuple"):
            continue
        params = [p.strip() for p in spelled.split(",") if p.strip()]
        if name not in params:
            continue
        at = params.index(name)
        for case in values.named_children:
            value = case if len(params) == 1 else (_named_child(case, at) if case.type == "tuple" else None)
            if value is not None and value.type == "string":
                out.append(value)
    return out


#: the functions that import a module named by their first argument
_IMPORTERS = frozenset(("import_module", "__import__"))
#: the dotted package a module name made at run time starts with: `f"pkg.ext.{name}"`, `"pkg.ext." + name`,
#: `"pkg.ext.%s" % name` (the string's text, prefixes and quote included)
_MODULE_PREFIX = re.compile(r"^[rRbBfFuU]*[\"']([A-Za-z_][A-Za-z0-9_]*(?:[.][A-Za-z_][A-Za-z0-9_]*)*)[.](?:\{|%|[\"']$)")


def _imported_by_prefix(called: str, args: Any, source: bytes) -> Any:
    """The string that starts the module name ``import_module(...)`` or ``__import__(...)`` is given, where the
    name is made at run time under a package (``f"marko.ext.{name}"``, ``"markdown.extensions." + name``); else
    None (``called``: the callee's last name). A plugin loader: it imports one of the package's modules, which the
    resolver takes for any of them."""
    if called not in _IMPORTERS:
        return None
    first = _named_child(args, 0)
    if first is not None and first.type == "binary_operator":
        operator = first.child_by_field_name("operator")
        if operator is None or operator.type not in ("+", "%"):
            return None
        first = first.child_by_field_name("left")
    if first is None or first.type != "string" or not _MODULE_PREFIX.match(_text(first, source)):
        return None
    return first


#: PLY builds a lexer (`lex.lex()`) or a parser (`yacc.yacc()`) from the rules it finds by their name's prefix on the
#: object or module it is given (`module=self`), or else on the calling module; the lexer calls its `t_*` rules for
#: each token, the parser its `p_*` rules for each reduction
_PLY_RULE_PREFIXES = {"lex": "t_", "yacc": "p_"}
#: the quotes around a string literal's text
_QUOTES = "'\""


def _ply_rules(function: Any, called: str, args: Any, source: bytes) -> Item | None:
    """A ``rules`` item for a call of PLY's ``lex.lex(...)`` or ``yacc.yacc(...)`` (``called``: the callee's last name):
    the callee, and the object its ``module=`` (or ``object=``) keyword gives, None for the calling module. Only
    keywords are passed to them (pygments' ``lex(code, lexer)`` is another function)."""
    if called not in _PLY_RULE_PREFIXES:
        return None
    callee = _text(function, source)
    if callee not in (called, f"{called}.{called}") and not callee.endswith(f".{called}.{called}"):  # `ply.lex.lex`
        return None
    given = None
    for arg in args.named_children:
        if arg.type == "comment":
            continue
        if arg.type != "keyword_argument":
            return None
        key = arg.child_by_field_name("name")
        if key is not None and _text(key, source) in ("module", "object"):
            given = arg.child_by_field_name("value")
            if given is None or given.type not in _NAMES:  # `module=make()`: its rules are not known
                return None
    return ("rules", function, given)


def _object_setattr(function: Any, args: Any, source: bytes) -> list[Item]:
    """``object.__setattr__(self, "namespace", namespace)``, the way a class with a ``__setattr__`` of its own (or a
    frozen one) sets its attributes: a fact as ``self.namespace = namespace`` would be (``setattr_alias`` for a name,
    ``setattr_assign`` for a call, whose callee is the second node; made facts of ``self.<name>`` in finalize)."""
    if _text(function, source) != "object.__setattr__" or args.named_child_count != 3:
        return []
    owner, name, value = args.named_children
    if owner.type != "identifier" or _text(owner, source) != "self" or name.type != "string":
        return []
    if not _text(name, source).strip(_QUOTES).isidentifier():
        return []
    if value.type in _NAMES:
        return [("setattr_alias", name, value)]
    callee = value.child_by_field_name("function") if value.type == "call" else None
    return [("setattr_assign", name, callee)] if callee is not None and callee.type in _NAMES else []


#: pytest-lazy-fixture(s): a fixture named by a string, given as a parametrize value
_LAZY_FIXTURES = frozenset(("lf", "lazy_fixture", "lazy_fixtures"))


def _lazy_fixture(called: str, args: Any, source: bytes) -> Any:
    """The string naming a fixture in ``lf("name")`` / ``pytest.lazy_fixture("name")`` (``called``: the callee's last
    name), else None."""
    if called not in _LAZY_FIXTURES or args.named_child_count != 1:
        return None
    arg = _named_child(args, 0)
    return arg if arg.type == "string" and _string_value(arg, source) else None


def _collected_patterns(body: Any, source: bytes) -> list[Item]:
    """``collects_<how>`` items of a ``pytest_collect_file`` hook's body: the string literals it tests file
    names with, and how: ``prefix`` (``name.startswith("test")``), ``suffix`` (``path.suffix == ".yaml"``,
    ``path.ext in (".yml", ".yaml")``, ``name.endswith("_test.json")``), ``name`` (``path.name == "cases.txt"``)
    or ``glob`` (``fnmatch(name, "test*.txt")``, ``path.match(...)``). Other literals (messages) are left out."""
    out: list[Item] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "string":
            text = _string_value(node, source)
            how = _name_test(node, source) if text and len(text) <= 100 and "/" not in text else None
            if how is not None:
                out.append((f"collects_{how}", node, None))
            continue
        stack.extend(node.named_children)
    return out


#: what a comparison with an attribute of a path tests (``path.suffix == ".yaml"``)
_PATH_PARTS = {"suffix": "suffix", "ext": "suffix", "name": "name", "basename": "name"}
#: what a method called with the literal tests
_NAME_METHODS = {"startswith": "prefix", "endswith": "suffix", "fnmatch": "glob", "fnmatchcase": "glob", "match": "glob"}


def _name_test(string: Any, source: bytes) -> str | None:
    """How the file name test a string literal is part of uses it, or None when it is part of none."""
    node = string
    parent = node.parent
    if parent is not None and parent.type in ("tuple", "list", "set"):  # `path.ext in (".yml", ".yaml")`
        node, parent = parent, parent.parent
    if parent is None:
        return None
    if parent.type == "argument_list" and parent.parent is not None and parent.parent.type == "call":
        function = parent.parent.child_by_field_name("function")
        called = _text(function, source).rpartition(".")[2] if function is not None else ""
        return _NAME_METHODS.get(called)
    if parent.type == "comparison_operator":
        others = [c for c in parent.named_children if c.start_byte != node.start_byte]  # (a new object per visit)
        if len(others) == 1 and others[0].type == "attribute":
            attribute = others[0].child_by_field_name("attribute")
            return _PATH_PARTS.get(_text(attribute, source))
    return None


def _string_value(node: Any, source: bytes) -> str | None:
    """The value of a plain string literal (no f-string, no escapes), else None."""
    raw = _text(node, source)
    if raw[:1] not in "\"'" or "\\" in raw or len(raw) < 2 or raw[0] != raw[-1]:
        return None
    return raw[1:-1]


def _toplevel(node: Any, source: bytes) -> list[Item]:
    """``holds`` items of a module-level statement: each name in a value position (``x``, ``[x]``, ``{k: x}``,
    ``f(x)``, ``f(k=x)``, nested) with the module-level variable the statement stores it in (``V = ...``,
    ``V[k] = ...``, ``V.update(...)``), or with no variable (None) when the statement does something else with it
    (``register(x)``, ``obj.attr = x``, ``for f in (x, y): f()``): the walk then cannot say who reads it.
    Definitions' bodies are not module-level code; the blocks of ``if``/``try``/``with``/``for`` are, and a definition
    in one is ``guarded``."""
    out: list[Item] = []
    stack = [node]  # statements (this grammar has no expression_statement node: an expression stands for one)
    while stack:
        statement = stack.pop()
        kind = statement.type
        if kind in ("function_definition", "class_definition", "decorated_definition", "comment"):
            # a decorator's arguments are in the definition's scope; a definition in a block may not exist when the
            # module runs (`if SELENIUM: class TestInnerText`): a `guarded` item (suite.name_guarded_tests)
            defined = statement.child_by_field_name("definition") if kind == "decorated_definition" else statement
            name = defined.child_by_field_name("name") if defined is not None and statement is not node else None
            if name is not None:
                out.append(("guarded", name, None))
            continue
        if kind == "delete_statement":
            # `del TestJinja2Template` in an `except ImportError:` (bottle's tests): the module may not keep it
            targets = statement.named_children
            if len(targets) == 1 and targets[0].type == "expression_list":
                targets = targets[0].named_children
            out.extend(("guarded", target, None) for target in targets if target.type == "identifier")
            continue
        if not (kind.endswith(("_statement", "_clause")) or kind == "block"):
            _stored_values(statement, source, out)
            continue
        for child in statement.named_children:
            if kind == "block" or child.type.endswith(("_statement", "_clause")) or child.type == "block":
                stack.append(child)
            else:  # a condition, an iterable, a context manager
                _values(child, None, out)
    return out


def _class_block(node: Any) -> list[Item]:
    """``guarded`` items of a statement of a class body: the definitions in its ``if``/``try``/``with``/``for`` blocks
    (asttokens' `if sys.version_info >= (3, 12): def test_fstrings_3_12_plus(self)`), which the class may not have
    when its module runs (suite.name_guarded_tests)."""
    if node.type in ("function_definition", "class_definition", "decorated_definition", "expression_statement"):
        return []
    out: list[Item] = []
    stack = [node]
    while stack:
        statement = stack.pop()
        kind = statement.type
        if kind in ("function_definition", "class_definition", "decorated_definition"):
            defined = statement.child_by_field_name("definition") if kind == "decorated_definition" else statement
            name = defined.child_by_field_name("name") if defined is not None else None
            if name is not None:
                out.append(("guarded", name, None))
            continue
        stack.extend(c for c in statement.named_children if c.type.endswith(("_statement", "_clause", "definition")) or c.type == "block")
    return out


def _stored_values(expression: Any, source: bytes, out: list[Item]) -> None:
    """``holds`` items of one expression statement (see :func:`_toplevel`)."""
    kind = expression.type
    if kind in ("assignment", "augmented_assignment"):
        targets: list[Any] = []
        value = expression
        while value is not None and value.type in ("assignment", "augmented_assignment"):  # `A = B = {...}`
            targets.append(value.child_by_field_name("left"))
            value = value.child_by_field_name("right")
        if value is None:
            return
        held: list[Any] = []
        for target in targets:
            parts = target.named_children if target.type in ("pattern_list", "tuple_pattern") else [target]
            for part in parts:
                if part.type == "subscript":  # `V[k] = f`
                    part = part.child_by_field_name("value")
                held.append(part if part is not None and part.type == "identifier" else None)
        for variable in held or [None]:
            _values(value, variable, out)
        return
    if kind == "call":  # `V.update({...})`, `V.append(f)`
        function = expression.child_by_field_name("function")
        if function is not None and function.type == "attribute":
            receiver = function.child_by_field_name("object")
            method = function.child_by_field_name("attribute")
            if (
                receiver is not None
                and method is not None
                and receiver.type == "identifier"
                and source[method.start_byte : method.end_byte].decode("utf-8", "replace") in STORING_METHODS
            ):
                _values(expression.child_by_field_name("arguments"), receiver, out)
                return
    _values(expression, None, out)


def _values(node: Any, variable: Any, out: list[Item]) -> None:
    """A ``holds`` item for each name in a value position of ``node``."""
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        kind = n.type
        if kind in _NAMES or (kind == "string" and _DOTTED.fullmatch(n.text or b"")):
            out.append(("holds", n, variable))
        elif kind in _CONTAINERS or kind in ("list_splat", "dictionary_splat"):
            stack.extend(n.named_children)
        elif kind == "dictionary":
            for pair in n.named_children:
                value = pair.child_by_field_name("value") if pair.type == "pair" else pair
                if value is not None:
                    stack.append(value)
        elif kind == "keyword_argument":
            value = n.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind == "call":
            args = n.child_by_field_name("arguments")
            if args is not None:
                stack.append(args)


def expand(what: str, node: Any, caps: dict[str, list[Any]], source: bytes) -> list[Item]:
    """The calls and references an ``@expand.<what>`` capture stands for (see python.scm)."""
    if what == "ref" and node.type == "identifier" and _super_class(node):
        return [("superclass", node, None)]
    if what == "attr" or what == "ref" or what == "decorator" or what == "type":
        return _member(what, node)
    if what == "call":
        return _call(node, source)
    if what in SUBSCRIPT_METHODS:
        return _subscript(what, node)
    if what == "assignment":
        return _assignment(node, source)
    if what == "walrus":
        return _assigned(node.child_by_field_name("name"), node.child_by_field_name("value"), None, source)
    if what == "binary":
        return _binary(node) + _percent_format(node, source)
    if what == "unary":
        return _unary(node)
    if what == "augmented":
        return _augmented(node)
    if what == "comparison":
        return _comparison(node)
    if what == "with_item":
        return _with_item(node)
    if what == "returns":
        wrapped = node
        while node.type == "parenthesized_expression" and node.named_child_count == 1:  # `return (\n  f(x)\n)`
            node = _named_child(node, 0)
        if node is not wrapped and node.type in _NAMES:
            return [("alias", caps["name"][0], node), *_member("ref", node)]
        if node.type == "expression_list":  # `return a, b`: an alias per position (`returnitem<i>`, named in finalize)
            return [
                (f"returnitem{i}", caps["name"][0], item)
                for i, item in enumerate(node.named_children)
                if item.type in _NAMES and i < _MAX_UNPACKED
            ]
        operands = _alternatives(node)
        if operands:
            # `return iter_a if hasattr(node, "x") else iter_b`, `return (self._fn or default)`: each operand may be
            # what it returns (an alias of `return`), and each is handed out (a reference, as `return f`)
            return [("alias", caps["name"][0], o) for o in operands] + [m for o in operands for m in _member("ref", o)]
        # (return_statement "return" @name (call function: [(identifier) (attribute)] @receiver)) @reference.assign
        inner = _uncast(node, source)
        if inner.type == "call":  # `return cast(T, getattr(self, name))` returns what the inner call does
            node = inner
        elif inner is not node and inner.type in _NAMES:
            # `return cast(F, load_if_needed)`: a typed decorator returns its wrapper, as `return load_if_needed`
            return [("alias", caps["name"][0], inner), *_member("ref", inner)]
        function = _called_function(node)
        if function is None:
            return []
        out: list[Item] = [("assign", caps["name"][0], function)]
        wrapper = _updated_wrapper(function, node, source)
        if wrapper is not None:  # `return update_wrapper(wrapper, f)` returns wrapper: @reference.alias
            out.append(("alias", caps["name"][0], wrapper))
        called = source[function.start_byte : function.end_byte].decode("utf-8", "replace")
        wrapped = _partial_of(called, node.child_by_field_name("arguments"))
        if wrapped is not None:  # `return partial(g, ...)` returns what calls g
            out.append(("alias", caps["name"][0], wrapped))
        return out
    if what == "for_statement" or what == "for_in_clause":
        return _for(node)
    if what == "interpolation":
        return _interpolation(node)
    if what == "toplevel":
        return _toplevel(node, source)
    if what == "classblock":
        return _class_block(node)
    if what == "spawn":
        return _spawned(node, source)
    if what == "dotted":  # (the query's #match? keeps the strings that look like `pkg.mod.name`, as _DOTTED)
        return [("dotted", node, None)] if _in_value_position(node) else []
    if what == "collects":
        return _collected_patterns(node, source)
    raise ValueError(f"python.scm: no expansion for @expand.{what}")


#: binary operators and the stem of the methods they call (``+`` → ``__add__``, reflected ``__radd__``)
OPERATOR_METHODS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "//": "floordiv",
    "%": "mod",
    "**": "pow",
    "@": "matmul",
    "<<": "lshift",
    ">>": "rshift",
    "&": "and",
    "|": "or",
    "^": "xor",
}
#: unary operators: the method of the operand
UNARY_METHODS = {"~": "__invert__", "-": "__neg__", "+": "__pos__"}
#: comparisons: the method of the left operand, and the reflected one of the right
COMPARISON_METHODS = {
    "<": ("__lt__", "__gt__"),
    "<=": ("__le__", "__ge__"),
    "==": ("__eq__", "__eq__"),
    "!=": ("__ne__", "__ne__"),
    ">": ("__gt__", "__lt__"),
    ">=": ("__ge__", "__le__"),
}
#: builtins that call a protocol method of their one argument (``str(x)`` → ``x.__str__()``)
PROTOCOL_BUILTINS = {
    name: f"__{name}__"
    for name in (
        "str", "repr", "len", "hash", "iter", "next", "bool", "abs", "format", "reversed", "bytes", "int", "float", "dir",
    )
}  # fmt: skip
PROTOCOL_BUILTINS["print"] = "__str__"  # `print(frame)` prints str(frame) (hyperframe's Frame.explain)
# builtins that iterate their one argument (`list(x)`: x.__iter__())
PROTOCOL_BUILTINS.update(
    (name, "__iter__")
    for name in ("list", "tuple", "set", "frozenset", "sorted", "sum", "min", "max", "any", "all", "enumerate", "dict")
)
#: builtins that compare the items of their one argument, and with what (``max`` asks ``a > b``, or ``b < a``)
ORDERING_BUILTINS = {"sorted": ("__lt__",), "min": ("__lt__",), "max": ("__gt__", "__lt__")}
#: the variable that stands for an item the builtins of ORDERING_BUILTINS compare (a name no program uses)
ITEM_PREFIX = "__crg_item_"
#: builtins that size their argument before iterating it (``list(x)`` asks ``len(x)`` for a length hint)
LENGTH_HINTED = frozenset(("list", "tuple", "sorted"))

#: what an f-string's ``{x!r}``, ``{x!s}``, ``{x!a}`` and ``{x}`` run (``{x:spec}`` runs x.__format__ alone)
_FORMAT_METHODS = {"!r": ("__repr__",), "!a": ("__repr__",), "!s": ("__str__",), "": ("__format__", "__str__")}

_PROPERTIES = frozenset(("property", "cached_property"))
#: subscripts and membership: the method of the subscripted (or searched) object they run
SUBSCRIPT_METHODS = {
    "getitem": "__getitem__",
    "setitem": "__setitem__",
    "delitem": "__delitem__",
    "contains": "__contains__",
}

_NOT_FIXTURES = frozenset(("self", "cls", "request"))


#: the fixtures ``@pytest.mark.usefixtures("db", "app")`` names
_USEFIXTURES = re.compile(r"""(?:^|\.)usefixtures\((.*)\)$""", re.DOTALL)
_FIXTURE_NAME = re.compile(r"""["']([A-Za-z_]\w*)["']""")


def extra_references(symbols: list[Symbol], path: str, source: bytes = b"") -> list[Reference]:
    """Implicit uses: pytest fixtures named by the parameters of tests and fixtures or by ``usefixtures`` marks of
    tests and their classes, the unittest ``setUp`` family that runs before every test method (and the ``tearDown``
    family after it, and pytest's ``setup_method`` family), and the module's ``setup_module`` family (pytest's and
    unittest's ``setUpModule``) and ``setup_function`` family around its tests."""
    out: list[Reference] = []
    # a class of a test file may be a TestCase through bases of other files (``class BitStringTestCase(BaseTestCase)``
    # with ``from tests.base import BaseTestCase``: store.mark_inherited_tests), whose setUp runs before its tests
    in_test_file = is_test_file(path) and not path.endswith("conftest.py")
    # or a file of another name holding a TestCase subclass, whose subclasses there are test classes as well
    # (parsedatetime's tests/TestLocaleBase.py: `class TestDayOffsets(test)`, with a setUp of its own)
    in_test_file = in_test_file or any(s.kind == "class" and s.is_test for s in symbols)
    top = {s.name for s in symbols if s.kind == "function" and s.parent is None}
    # module-level functions run around its tests: every test, or its module-level test functions only (what the
    # references below stand for: resolve._MODULE_SETUP_FAMILY)
    module_hooks, function_hooks = bool(top.intersection(MODULE_TEST_HOOKS)), bool(top.intersection(FUNCTION_TEST_HOOKS))
    marked = {s.qualname: _used_fixtures(s.decorators) for s in symbols if s.kind == "class" and s.decorators}
    # `pytestmark = pytest.mark.usefixtures("db")` (or a list of marks) at the top of a test module: all its tests
    module_marked = _module_fixtures(source) if in_test_file and b"pytestmark" in source else []
    for s in symbols:
        if s.kind in ("function", "method") and (s.is_test or _is_fixture(s.decorators)):
            for p in s.params:
                if p and p[0] not in "*/" and not p.endswith("=") and p not in _NOT_FIXTURES:
                    out.append(Reference("fixture", p, "", s.start_line, s.qualname))
        test_method = s.kind == "method" and (s.is_test or (in_test_file and s.name.startswith("test")))
        if test_method:
            # one reference stands for the whole setUp family (the resolver follows all of them)
            out.append(Reference("fixture", "setUp", "self", s.start_line, s.qualname))
        if not (s.is_test and s.kind in ("function", "method")) and not test_method:
            continue
        if module_hooks:
            out.append(Reference("fixture", "setup_module", "module", s.start_line, s.qualname))
        if function_hooks and s.kind == "function" and s.parent is None:
            out.append(Reference("fixture", "setup_function", "module", s.start_line, s.qualname))
        # `@pytest.mark.usefixtures("db")` on the test, a class around it or the module's `pytestmark`
        used = _used_fixtures(s.decorators) + module_marked
        owner = s.parent
        while owner is not None:
            used += marked.get(owner, [])
            owner = owner.rpartition(".")[0] or None
        out.extend(Reference("fixture", name, "", s.start_line, s.qualname) for name in dict.fromkeys(used))
    return out + _text_code_references(symbols, path, source)


#: a call of a builtin that runs code given as text
_RUNS_TEXT = re.compile(rb"(?<![\w.])(?:eval|exec)\s*\(")
#: ``name.member`` (``name.member(`` for a call) in the text of a string literal
_TEXT_MEMBER = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*(\()?")


def _text_code_references(symbols: list[Symbol], path: str, source: bytes) -> list[Reference]:
    """In a module that runs code it builds as text (``eval``, ``exec``: cssselect2 compiles a selector into
    ``eval('lambda el: ' + source)`` from pieces such as ``f'any(... for el in el.ancestors)'``), the members that code
    uses: ``x.member`` in its string literals (docstrings and other triple-quoted prose left out), as uses of the
    function that writes the string; ``self`` and ``cls`` there are not the writer's own."""
    if not source or is_test_file(path) or not _RUNS_TEXT.search(source):
        return []
    try:
        tokens = [t for t in tokenize.tokenize(io.BytesIO(source).readline) if t.type == tokenize.STRING]
    except (tokenize.TokenError, SyntaxError):
        return []
    scopes = sorted(
        ((s.start_line, s.end_line, s.qualname) for s in symbols if s.kind in ("function", "method", *CLASS_KINDS)),
        reverse=True,
    )
    out: list[Reference] = []
    for token in tokens:
        text = token.string.lstrip("rRbBuUfF")
        if text.startswith(('"""', "'''")):
            continue
        line = token.start[0]
        scope = next((q for start, end, q in scopes if start <= line <= end), MODULE_QUALNAME)
        for found in _TEXT_MEMBER.finditer(text):
            receiver, member, called = found.groups()
            if receiver not in ("self", "cls"):
                out.append(Reference("call" if called else "attr", member, receiver, line, scope, None, ()))
    return out


#: an import statement of a ``python -c`` script: ``from pkg.mod import a, b`` (module, names) or ``import a.b, c as d``
_SCRIPT_IMPORT = re.compile(r"(?m)(?:^|;)\s*(?:from\s+([\w.]+)\s+import\s+([\w\s,()]+?)|import\s+([\w.\s,]+?))\s*(?=;|$)")
_PYTESTMARK = re.compile(rb"^pytestmark\s*(?::[^=]*)?=(.*?)(?=^\S|\Z)", re.MULTILINE | re.DOTALL)
_USEFIXTURES_IN_MARKS = re.compile(r"usefixtures\(([^)]*)\)")


def _module_fixtures(source: bytes) -> list[str]:
    """The fixtures the ``usefixtures`` marks of a module-level ``pytestmark`` name."""
    found = _PYTESTMARK.search(source)
    if found is None:
        return []
    marks = found.group(1).decode("utf-8", "replace")
    return [name for args in _USEFIXTURES_IN_MARKS.findall(marks) for name in _FIXTURE_NAME.findall(args)]


def _used_fixtures(decorators: Sequence[str]) -> list[str]:
    """The fixtures the ``usefixtures`` marks among ``decorators`` name."""
    out: list[str] = []
    for d in decorators:
        found = _USEFIXTURES.search(d)
        if found:
            out.extend(_FIXTURE_NAME.findall(found.group(1)))
    return out


_BUILTINS = frozenset(dir(builtins))


def _collection_locals(references: list[Reference]) -> set[tuple[str, str]]:
    """(scope, name) of the variables that hold a collection or an item of one (``item``, ``element``, ``lookup``
    facts): a local, but one holding functions may be given to a call."""
    return {(r.scope, r.name) for r in references if r.kind in ("item", "element", "lookup")}


def _one_use_per_scope(references: list[Reference]) -> list[Reference]:
    """``ref`` references one per scope, name and receiver (the first), as the parser keeps other value uses, but
    for a local that holds an item of a collection at every line: given to two calls (cheap_repr's ``helper =
    ReprHelper(level, func)`` then ``_try_repr(func, x)``), it is given to each (resolve: ``passed``)."""
    collections = _collection_locals(references)
    seen: set[tuple[str, str, str]] = set()
    out: list[Reference] = []
    for r in references:
        if r.kind == "ref" and (r.receiver or (r.scope, r.name) not in collections):
            key = (r.name, r.receiver, r.scope)
            if key in seen:
                continue
            seen.add(key)
        out.append(r)
    return out


def _plain_chain(text: str) -> bool:
    """Whether ``text`` is a name and its attributes (``cfg.new``), nothing called or subscripted."""
    return all(part.isidentifier() for part in text.split("."))


def finalize(result: ParseResult) -> None:
    """Drop value references that cannot name a definition: parameters and locals of their own
    scope, and builtins. They are most of what `ref` patterns catch and would only fill the index."""
    result.references = _one_use_per_scope(result.references)
    _module_globals(result)
    locals_by_scope: dict[str, set[str]] = {}
    for s in result.symbols:
        if s.params:
            locals_by_scope[s.qualname] = {param_name(p) for p in s.params}
    for r in result.references:
        if r.kind in ("assign", "namestr", "lookup", "unpack") and "." not in r.name:
            locals_by_scope.setdefault(r.scope, set()).add(r.name)
    # the literal names a variable takes (`for name in ("fqdn", "ipv4")`, or a loop over a local tuple of them)
    strings = {(r.scope, r.name): _STRING_ITEM.findall(r.receiver) for r in result.references if r.kind == "strings"}
    for r in result.references:
        if r.kind == "element" and (r.scope, r.receiver) in strings:
            strings.setdefault((r.scope, r.name), strings[(r.scope, r.receiver)])
    result.references = [r for r in result.references if r.kind != "strings"]
    result.references = _positions(result.references)
    _class_body_aliases(result)
    # `self(...)` runs the class's __call__ (a reference named after it: a class gaining one re-resolves the file);
    # `x = object.__getattribute__(self, name)` is a look-up as `x = getattr(self, name)` is
    result.references = [
        r._replace(name="__call__", receiver="self") if r.kind == "call" and r.name == "self" and not r.receiver
        else r._replace(receiver="getattr") if r.kind == "assign" and r.receiver == "object.__getattribute__"
        else r
        for r in result.references
    ]
    # one `yields` reference per generator function (resolve: a call of a function returning a call of one runs it)
    kept: list[Reference] = []
    generators: set[str] = set()
    for r in result.references:
        if r.kind == "yields":
            if r.scope in generators:
                continue
            generators.add(r.scope)
            r = r._replace(name="yield", receiver="")
        kept.append(r)
    result.references = _called_items(_compared_items(kept))
    _drop_unused_facts(result)
    typed = _typed_values(result)
    called_lookups = _called_lookups(result)
    built_names = {(r.scope, r.name): r.receiver for r in result.references if r.kind == "namestr"}
    collections = _collection_locals(result.references)
    module_names = _module_names(result)
    reads: set[tuple[str, str]] = set()
    # `V[k] = f` is a setitem and a getitem of the same subscript: no read
    written = {(r.scope, r.line, r.receiver) for r in result.references if r.kind == "setitem"}
    refs: list[Reference] = []
    for r in result.references:
        if r.kind == "namestr":
            continue
        if r.kind == "holds" and r.name in _BUILTINS:
            continue
        if (r.kind == "getitem" and (r.scope, r.line, r.receiver) not in written) or r.kind == "iterate":
            # `FORMATS[k]`, `for f in FORMATS`: a read of a module-level variable (a table of functions, maybe)
            # that no call reference records when its type is unknown; the walk asks who reads a table
            # (readers.ModuleReaders.table_readers)
            read = _one_line(r.receiver if r.kind == "getitem" else r.name)
            head = read.split(".", 1)[0].split("[", 1)[0].split("(", 1)[0]
            local = r.scope != MODULE_QUALNAME and head in locals_by_scope.get(r.scope, ())
            if head in module_names and not local and read not in typed and (r.scope, read) not in reads:
                reads.add((r.scope, read))
                refs.append(Reference("reads", read, "", r.line, r.scope, None, ()))
        if r.kind in ("getattr", "getattrcall"):
            if r.kind == "getattr" and (r.scope, r.line, r.receiver, r.name) in called_lookups:
                continue  # the getattrcall reference of the same lookup stands for it
            # `getattr(self, name.lower())`: the name built before, its case changed (`"_process_{}".format(...)`)
            built, case = _case_changed(r.name)
            looked_up = _looked_up_name(built_names.get((r.scope, built), built))
            if looked_up is None and built.isidentifier() and _one_line(r.receiver) in ("self", "cls"):
                # `getattr(self, node_type)` with a name made elsewhere (pyflakes's handlers, one per AST node
                # type): any member of the object, each a guess among many (resolve scales the confidence)
                looked_up, case = ("*", False), ""
            is_called = r.kind == "getattrcall" or r.scope in called_lookups
            receiver = _one_line(r.receiver)
            if looked_up is None and len(strings.get((r.scope, r.name), ())) <= _NAMES_LOOKED_UP:
                # `{p: getattr(ext, p) for p in ("fqdn", "ipv4")}`: each name (tldextract's cli)
                for name in strings.get((r.scope, r.name), ()):
                    refs.append(Reference("call" if is_called else "ref", name, receiver, r.line, r.scope, None, ()))
                    if not is_called:  # and a read, which runs a property's getter
                        refs.append(Reference("attr", name, receiver, r.line, r.scope, None, ()))
            if looked_up is not None:
                name, exact = looked_up
                if case:
                    name = getattr(name, case)()
                if exact:  # getattr(obj, "name"): obj.name, read or called
                    refs.append(Reference("call" if is_called else "ref", name, receiver, r.line, r.scope, None, ()))
                else:  # getattr(self, "visit_" + ...): any member of that prefix (resolve.LOOKUP_KINDS)
                    kind = "getattrcall" if is_called else "getattr"
                    refs.append(Reference(kind, name, receiver, r.line, r.scope, None, ()))
            continue
        if (
            r.kind in ("ref", "superclass")
            and not r.receiver
            and (r.name in _BUILTINS or r.name in locals_by_scope.get(r.scope, ()))
            and (r.scope, r.name) not in collections  # a local, but one holding functions may be given to a call
        ):
            continue
        if r.kind == "superclass":  # the class of `super(Cls, self)`: named as a type (_super_class)
            refs.append(r._replace(kind="type"))
            continue
        if r.kind == "with":
            # `with EXPR:` runs EXPR.__enter__() and EXPR.__exit__(): two calls on that receiver
            receiver = r.name if len(r.name) <= 200 else r.name[:200]
            refs.append(Reference("call", "__enter__", receiver, r.line, r.scope, 0, ()))
            refs.append(Reference("call", "__exit__", receiver, r.line, r.scope, 3, ()))
            continue
        if r.kind == "callresult":
            receiver = _one_line(r.receiver)
            if _made_by_call(receiver):
                refs.append(Reference("call", "__call__", receiver, r.line, r.scope, None, ()))
            continue
        if r.kind == "typeof":  # cls = type(self): an alias of self.__class__
            if r.receiver in ("self", "cls") and "." not in r.name:
                refs.append(Reference("alias", r.name, f"{r.receiver}.__class__", r.line, r.scope, None, ()))
            continue
        if r.kind == "typecall":  # type(self)(...)
            if r.name in ("self", "cls"):
                refs.append(Reference("call", "__class__", r.name, r.line, r.scope, None, ()))
                if r.name == "self":
                    refs.append(_own_class_init(r))
            continue
        if r.kind == "iterate":  # `for _ in EXPR` runs EXPR.__iter__()
            receiver = _one_line(r.name)
            # (on a name nothing types, for the class its whole name names: tinycss2's `(*coordinates, alpha) = color`)
            if receiver in typed or receiver == "self" or _made_by_call(receiver) or _NOUN.fullmatch(receiver):
                refs.append(Reference("call", "__iter__", receiver, r.line, r.scope, 0, ()))
            continue
        if r.kind == "store" and not (_plain_chain(r.receiver) or r.receiver.startswith("self.")):
            # kept where a type may be known: a property's setter, a descriptor's __set__ runs, and where an attribute
            # the class lacks may be what its __getattr__ makes (`cfg.new.option = 1`: resolve._made_by_getattr)
            continue
        if r.kind == "keyarg":  # x.get(key): like x[key], for the key alone
            key = _one_line(r.name)
            if (key in typed or _made_by_call(key)) and key != r.receiver:
                refs.append(Reference("hashkey", "__hash__", key, r.line, r.scope, 0, ()))
                refs.append(Reference("hashkey", "__eq__", key, r.line, r.scope, 1, ()))
            continue
        if r.kind in SUBSCRIPT_METHODS:
            # `x[k] = v` runs x.__setitem__(k, v), ... on a typed object or the instance itself (`self[k]`); the
            # target of `x[k] = v` also counts as read (kept simple: one reference per scope, key and kind)
            receiver = _one_line(r.receiver)
            if receiver in typed or receiver in ("self", "cls") or _made_by_call(receiver) or _typed_root(receiver, typed):
                arity = 2 if r.kind == "setitem" else 1
                refs.append(Reference("call", SUBSCRIPT_METHODS[r.kind], receiver, r.line, r.scope, arity, ()))
            key = _one_line(r.name)
            # a dict or a set hashes a typed key and compares it (resolve: "key"), one made there too (charset-normalizer's
            # `if CompatibleFamillyRange(a, b) in _COMPATIBLE_RANGE_FAMILIES:`)
            if (key in typed or _made_by_call(key)) and key != receiver:
                refs.append(Reference("hashkey", "__hash__", key, r.line, r.scope, 0, ()))
                refs.append(Reference("hashkey", "__eq__", key, r.line, r.scope, 1, ()))
            continue
        if r.kind in ("setattr_alias", "setattr_assign"):  # `object.__setattr__(self, "x", v)`: as `self.x = v`
            refs.append(Reference(r.kind[8:], f"self.{r.name.strip(_QUOTES)}", _one_line(r.receiver), r.line, r.scope, None, ()))
            continue
        if r.kind == "rules":  # PLY's `lex.lex(module=self)`: the `t_*` methods of the object's class; without a
            # module, the calling module's `t_*` functions
            prefix = _PLY_RULE_PREFIXES[r.name.rpartition(".")[2]]
            if r.receiver:
                refs.append(Reference("getattrcall", prefix + "*", _one_line(r.receiver), r.line, r.scope, None, ()))
            else:
                refs.extend(
                    Reference("call", s.name, "", r.line, r.scope, None, ())
                    for s in result.symbols
                    if s.kind == "function" and s.qualname == s.name and s.name.startswith(prefix)
                )
            continue
        if r.kind == "lazyfixture":  # `lf("table.rows")`: the fixture `table`
            name = r.name[1:-1].partition(".")[0]
            if name.isidentifier():
                refs.append(Reference("fixture", name, "", r.line, r.scope, None, ()))
            continue
        if r.kind.startswith("collects_"):  # a file name test: the literal, unquoted, and how it is used
            refs.append(Reference("collects", r.name[1:-1], r.kind[9:], r.line, r.scope, None, ()))
            continue
        if r.kind == "script":  # the code of `python -c "..."`: what it imports, and the members of those it uses
            refs.extend(Reference("dotted", last, module, r.line, r.scope, None, ()) for module, last in _script_uses(r.name))
            continue
        if r.kind == "dotted":  # "pkg.mod.name": name in pkg.mod (or the module pkg.mod.name)
            module, _, last = r.name[1:-1].rpartition(".")
            if "." in module or last.lower() not in FILE_SUFFIXES:  # "settings.py" names a file
                refs.append(Reference("dotted", last, module, r.line, r.scope, None, ()))
            continue
        if r.kind == "modprefix":  # `import_module(f"pkg.ext.{name}")`: a module of the package pkg.ext
            found = _MODULE_PREFIX.match(r.name)
            if found:
                package, _, last = found.group(1).rpartition(".")
                refs.append(Reference("modprefix", last, package, r.line, r.scope, None, ()))
            continue
        if r.kind == "holds" and r.name[:1] in ("'", '"'):  # a dotted path a module-level table holds (_values)
            refs.append(r._replace(name=r.name[1:-1]))
            continue
        if r.kind == "spawn":  # the module a command line runs: its `__main__` scope (or its __main__.py) is called
            refs.append(Reference("spawn", MAIN_SCOPE, r.name[1:-1].removeprefix("./"), r.line, r.scope, None, ()))
            continue
        if r.kind == "truth":
            # `if x:` runs x.__bool__(), or x.__len__() when its class has no __bool__
            receiver = _one_line(r.receiver)
            if receiver in typed or receiver in ("self", "cls"):
                refs.append(Reference("call", "__bool__", receiver, r.line, r.scope, 0, ()))
                refs.append(Reference("call", "__len__", receiver, r.line, r.scope, 0, ()))
            continue
        if r.kind == "format":
            if r.receiver in typed or r.receiver == "self" or _made_by_call(r.receiver):
                how = r.name[:2]  # the conversion, the spec or the value (see _interpolation)
                for method in _FORMAT_METHODS.get(how, ("__format__",) if how[:1] == ":" else _FORMAT_METHODS[""]):
                    refs.append(Reference("call", method, r.receiver, r.line, r.scope, 0, ()))
            continue
        if r.kind.startswith("pformat_"):  # "%r" % (x,): x.__repr__()
            if r.receiver in typed or r.receiver == "self" or _made_by_call(r.receiver):
                method = PERCENT_METHODS[r.kind[-1]]
                refs.append(Reference("call", method, r.receiver, r.line, r.scope, 0, ()))
            continue
        if r.kind in ("equality", "inequality"):  # assertEqual(a, b) compares as a == b does, assertNotEqual as a != b
            r = r._replace(kind="operator", name="==" if r.kind == "equality" else "!=")
        if r.kind in ("ioperator", "iroperator"):
            # `a /= b` runs a.__itruediv__(b), or a.__truediv__(b) where a's class has no __itruediv__ (both are
            # stated: which one a class has is not known here), or b.__rtruediv__(a)
            r = r._replace(kind="operator" if r.kind == "ioperator" else "roperator", name=r.name[:-1])
            if r.kind == "operator" and (r.receiver in typed or r.receiver == "self" or _made_by_call(r.receiver)):
                refs.append(Reference("call", f"__i{OPERATOR_METHODS[r.name]}__", r.receiver, r.line, r.scope, 1, ()))
        if r.kind in ("operator", "roperator", "protocol", "unary"):
            # `a % b` runs a.__mod__(b) (or b.__rmod__(a)), `a < b` a.__lt__(b) (or b.__gt__(a)), `str(a)` a.__str__()
            method = _protocol_method(r.kind, r.name)
            if method and (
                r.receiver in typed
                or r.receiver == "self"
                or _made_by_call(r.receiver)
                or (r.kind in ("operator", "roperator") and _NOUN.fullmatch(r.receiver) is not None)
            ):
                refs.append(Reference("call", method, r.receiver, r.line, r.scope, 0 if r.kind in ("protocol", "unary") else 1, ()))
                if r.kind == "protocol" and r.name in LENGTH_HINTED:
                    refs.append(Reference("call", "__len__", r.receiver, r.line, r.scope, 0, ()))
            continue
        if r.kind == "ordering":
            refs.append(r._replace(kind="call"))
            continue
        refs.append(r)
        if r.kind == "call" and r.name == "__class__" and r.receiver == "self":
            refs.append(_own_class_init(r))
        if r.kind == "call":
            called = f"{r.receiver}.{r.name}" if r.receiver else r.name
            if called in typed:  # a variable called: its class's __call__, or a class object constructed
                refs.append(Reference("call", "__call__", called, r.line, r.scope, r.arity, r.keywords))
    result.references = refs


#: the facts that bind a name (or fill the collection it names): those of a name a function declares ``global`` are the
#: module's
_BINDING_FACTS = frozenset(("assign", "alias", "item", "lookup", "element", "unpack", "namestr"))


def _module_globals(result: ParseResult) -> None:
    """Give the module the facts a function states about a name it declares ``global``: u-msgpack-python's ``__init()``
    sets ``pack = _pack3`` and fills ``_unpack_dispatch_table[code] = _unpack_integer`` for the module's other
    functions to use."""
    declared = {(r.scope, r.name) for r in result.references if r.kind == "global"}
    if not declared:
        return
    result.references = [
        r._replace(scope=MODULE_QUALNAME) if r.kind in _BINDING_FACTS and (r.scope, r.name) in declared else r
        for r in result.references
        if r.kind != "global"
    ]


def _own_class_init(r: Reference) -> Reference:
    """For ``self.__class__(...)`` or ``type(self)(...)``: a call of ``self.__init__``, which the object's own class
    runs: a subclass's override as well (boolean.py's ``Expression.literalize`` making an ``AND`` or an ``OR``)."""
    return Reference("call", "__init__", "self", r.line, r.scope, None, ())


#: the literal head of a name built for ``getattr``: ``"visit_" + x``, ``"do_%s" % x``, ``f"on_{x}"``,
#: ``"on_{}".format(x)``, or a whole literal name
_LOOKUP_TEXT = re.compile(r"""^([rRuU]?)(["'])([A-Za-z_][A-Za-z0-9_]*)(?:\2\s*([+%])|(%|\{)|\2\.format\(|\2$)""")
_LOOKUP_FSTRING = re.compile(r"""^[fF][rR]?(["'])([A-Za-z_][A-Za-z0-9_]*)\{""")


#: ``name.lower()``: a name whose case a ``str`` method changes (the method, then the name)
_CASE_CHANGE = re.compile(r"^(.*)\.(lower|upper|casefold)\(\)$", re.DOTALL)


def _case_changed(text: str) -> tuple[str, str]:
    """``("name", "lower")`` for ``name.lower()`` (``casefold`` as ``lower``), ``(text, "")`` for anything else."""
    m = _CASE_CHANGE.match(text)
    if m is None:
        return text, ""
    return m.group(1), "upper" if m.group(2) == "upper" else "lower"


#: a plain string of a literal of them that names an attribute (``"fqdn"`` in ``("fqdn", "ipv4")``)
_STRING_ITEM = re.compile(r"""(?<![\w])[rRuU]?["']([A-Za-z_]\w*)["']""")
#: at most this many names of a literal are followed as getattr's (a longer one is data, not a list of members)
_NAMES_LOOKED_UP = 32


#: what follows the last placeholder of a literal when it ends the literal: `_function` in `"xpath_{}_function"`,
#: `_pseudo` in `"xpath_%s_pseudo"`
_PLACEHOLDER_TAIL = re.compile(r"(?:\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa])([A-Za-z0-9_]+)$")


def _looked_up_name(text: str) -> tuple[str, bool] | None:
    """``(name, True)`` for a literal member name given to ``getattr``, ``(pattern, False)`` for a name built
    from a literal head: ``visit_*`` for ``"visit_" + x``, and with the literal's tail after its last placeholder,
    ``xpath_*_function`` for ``"xpath_{}_function".format(x)``, ``"xpath_%s_function" % x`` or ``f"xpath_{x}_function"``
    (cssselect's translator); None when nothing literal is known."""
    m = _LOOKUP_FSTRING.match(text)
    if m:
        return _lookup_pattern(text, m.group(1), m.start(2), m.group(2)), False
    m = _LOOKUP_TEXT.match(text)
    if m is None:
        return None
    if text.endswith(m.group(2)) and m.end() == len(text):
        return m.group(3), True
    return _lookup_pattern(text, m.group(2), m.start(3), m.group(3)), False


def _lookup_pattern(text: str, quote: str, start: int, prefix: str) -> str:
    """``prefix*tail`` for the literal of ``text`` opening at ``start`` and closed by ``quote`` (symbols.name_fits)."""
    end = text.find(quote, start)
    tail = _PLACEHOLDER_TAIL.search(text[start:end] if end >= 0 else text[start:])
    return f"{prefix}*{tail.group(1) if tail else ''}"


def _module_names(result: ParseResult) -> set[str]:
    """Names bound at module level that may hold values of other modules' or this one's definitions: the
    variables of ``holds`` references and the names module-level imports bind."""
    out = {r.receiver for r in result.references if r.kind == "holds" and r.receiver}
    for imp in result.imports:
        if imp.scope == MODULE_QUALNAME and imp.name != "*":
            out.add(imp.alias or imp.name or imp.module.split(".", 1)[0])
    return out


def _called_lookups(result: ParseResult) -> set[Any]:
    """What marks a ``getattr`` lookup as called: ``getattr(...)(...)`` (the same lookup's getattr reference,
    keyed by scope, line, receiver and text), and scopes that call a variable assigned from ``getattr``
    (``f = getattr(self, "parse_" + x)`` then ``f()``)."""
    out: set[Any] = set()
    assigned: dict[str, set[str]] = {}
    for r in result.references:
        if r.kind == "getattrcall":
            out.add((r.scope, r.line, r.receiver, r.name))
        elif r.kind == "assign" and r.receiver == "getattr" and "." not in r.name:
            assigned.setdefault(r.scope, set()).add(r.name)
    if assigned:
        out.update(
            r.scope for r in result.references if r.kind == "call" and not r.receiver and r.name in assigned.get(r.scope, ())
        )
    return out


def _compared_items(references: list[Reference]) -> list[Reference]:
    """``sorted(items)`` and ``items.sort()`` compare the items (no key given): an item of ``items``, as a loop's
    variable holds one (an ``element`` fact for a variable of its own), on which the comparison runs (``ordering``:
    made a call)."""
    out: list[Reference] = []
    for r in references:
        out.append(r)
        if not _plain_chain(r.receiver):
            continue
        if r.kind == "protocol" and r.name in ORDERING_BUILTINS:
            methods = ORDERING_BUILTINS[r.name]
        elif r.kind == "call" and r.name == "sort" and not r.arity and not r.keywords:
            methods = ORDERING_BUILTINS["sorted"]  # `args.sort()` (boolean.py's DualBase.simplify)
        else:
            continue
        item = f"{ITEM_PREFIX}{r.line}"
        out.append(Reference("element", item, r.receiver, r.line, r.scope, None, ()))
        out.extend(Reference("ordering", m, item, r.line, r.scope, 1, ()) for m in methods)
    return out


def _called_items(references: list[Reference]) -> list[Reference]:
    """``table[k](...)`` calls an item of ``table``: a variable of its own (``ITEM_PREFIX`` and ``c`` and the line)
    looks the item up (a ``lookup`` fact, as for ``f = table[k]``) and is called (its ``__call__``: resolve answers
    with the functions the table holds)."""
    out: list[Reference] = []
    for r in references:
        if r.kind != "itemcall":
            out.append(r)
            continue
        table = _one_line(r.name)
        if _plain_chain(table):
            item = f"{ITEM_PREFIX}c{r.line}"
            out.append(Reference("lookup", item, table, r.line, r.scope, None, ()))
            out.append(Reference("call", "__call__", item, r.line, r.scope, None, ()))
    return out


def _drop_unused_facts(result: ParseResult) -> None:
    """Keep the facts only the resolver's type questions read: what a function returns when the file calls
    it, and a loop variable's items when the loop body uses the variable as a receiver or operand."""
    # a decorator is called too: what it returns is what the decorated name holds (a descriptor, say)
    called = {r.name for r in result.references if r.kind in ("call", "decorator")}
    # a property runs on attribute reads: what it returns types `self.prop` (resolve.Resolver._types_of)
    called.update(s.name for s in result.symbols if any(d.rpartition(".")[2] in _PROPERTIES for d in s.decorators))
    functions = {s.qualname: s.name for s in result.symbols if s.kind in ("function", "method")}
    # special methods run without a call written by name (`iter(self)` runs __iter__: the calls made below)
    called.update(n for n in functions.values() if n.startswith("__") and n.endswith("__"))
    # a function put in a collection (`checker_lookup_functions.append(builtin_checker_lookup)`) is called by whoever
    # takes it out (`for lookup_func in checker_lookup_functions: checker = lookup_func(...)`)
    called.update(r.receiver for r in result.references if r.kind == "item" and r.receiver in functions.values())
    used: set[tuple[str, str]] = set()
    # a collection of functions given by name to a call (`self._sub(mo, methods_dict)`), or an item of one in a loop
    # (`self._plequal(a, b, norm) for norm in norms`): the function it goes to may call them (resolve: "passed")
    tables = {r.name for r in result.references if r.kind == "item"}
    given = {(r.scope, r.name) for r in result.references if r.kind == "ref" and not r.receiver}
    for r in result.references:
        if r.receiver:
            used.add((r.scope, r.receiver.split(".", 1)[0].split("(", 1)[0]))
        if r.kind in ("call", "with", "iterate"):
            used.add((r.scope, r.name.split(".", 1)[0].split("(", 1)[0]))
        if r.kind == "element" and r.receiver in tables and (r.scope, r.name) in given:
            used.add((r.scope, r.name))
    # what a called function returns may be a nested function that is called in turn (`@factory(...)` returns
    # `decorator`, which returns `wrapper`): keep the returns of the functions nested in called ones too
    kept = {q for q, name in functions.items() if name in called or functions.get(q.rpartition(".")[0]) in called}
    # the names a file's function may return for another file's call of its result to run: its functions, its
    # classes and the names it imports (`return Draft4`: fastjsonschema's `_get_code_generator_class(schema)(...)`)
    names_defined = set(functions.values()) | {s.name for s in result.symbols if s.kind in CLASS_KINDS}
    names_defined.update(i.alias or i.name for i in result.imports if i.name and i.name != "*")
    result.references.extend(_returned_through_variables(result.references))
    result.references = [
        r
        for r in result.references
        if not (
            r.name.partition("#")[0] == "return"
            and r.kind in ("assign", "alias")
            and r.scope not in kept
            # a nested function returned (a decorator's wrapper): other files' decorated functions run it
            and not (r.kind == "alias" and f"{r.scope}.{r.receiver}" in functions)
            # `return Indent(...)`: another file's calls of the function make what it names (resolve: _returned_classes)
            and not (r.kind == "assign" and r.name == "return" and (_names_maker(r.receiver) or r.receiver in _PROPERTIES))
            # `return partial(update_wrapper, ...)`, `return helper`: a function of the file (or a class, or a name it
            # imports), which another file's call of what it returns runs or constructs (resolve: _returned_elsewhere)
            and not (r.kind == "alias" and r.name == "return" and r.receiver in names_defined)
        )
        and not (r.kind == "element" and (r.scope, r.name) not in used)
    ]
    # an item looked up is kept for a call of it (`f = TABLE.get(k); f(x)`)
    # or in a function nested in the scope (`previous = self.nodes[ast.Name]`, then `def extra(node): ... previous(node)`)
    calls: set[tuple[str, str]] = set()
    for r in result.references:
        if r.kind == "call" and not r.receiver:
            scope = r.scope
            while scope:
                calls.add((scope, r.name))
                scope = scope.rpartition(".")[0]
    # or for a method called on it (`converter = CONVERTERS[lang]; converter.to_ordinal(n)`: an instance the table holds)
    result.references = [
        r
        for r in result.references
        if r.kind != "lookup" or (r.scope, r.name) in calls or (r.scope, r.name) in used or r.name.startswith(ITEM_PREFIX)
    ]
    # what a collection holds matters only to a loop over it that keeps its items (a variable of a loop read above),
    # to a look-up in it kept above, or to the call it is given to
    iterated = {r.receiver for r in result.references if r.kind in ("element", "lookup")}
    iterated.update([n.rpartition(".")[0] for n in iterated if n.endswith((".values", ".items"))])  # `X.values()`
    iterated.update([n.partition(".")[2] for n in iterated if n.startswith(("self.", "cls."))])  # a class body's
    # a table on self filled through a local name (`conv = self._type_conversions; conv[group] = int_convert(10)`)
    iterated.update([r.name for r in result.references if r.kind == "alias" and r.receiver.startswith("self.") and r.receiver in iterated])
    # (a collection given is kept in its own scope: the function it is given to sees what that scope put in it)
    # and a method of the file stored in a table on self (`self.handlers.update((("type", self.generate_type),))`): the
    # class's base in another file may call what the table holds (resolve.Resolver._table_callables)
    result.references = [
        r
        for r in result.references
        if r.kind != "item" or r.name in iterated or (r.scope, r.name) in given or _stores_own_method(r.name, r.receiver, names_defined)
    ]


def _stores_own_method(variable: str, value: str, methods: Collection[str]) -> bool:
    """Whether an ``item`` fact stores one of ``methods`` (those the file defines) in a table on self (model.stored_method)."""
    return stored_method(variable, value) and value.partition(".")[2] in methods


def _protocol_method(kind: str, name: str) -> str:
    """The method an operator (``kind`` operator: left operand, roperator: right) or a builtin calls."""
    if kind == "protocol":
        return PROTOCOL_BUILTINS.get(name, "")
    if kind == "unary":
        return UNARY_METHODS.get(name, "")
    if name in COMPARISON_METHODS:
        return COMPARISON_METHODS[name][kind == "roperator"]
    stem = OPERATOR_METHODS.get(name)
    if stem is None:
        return ""
    return f"__{stem}__" if kind == "operator" else f"__r{stem}__"


def _typed_values(result: ParseResult) -> set[str]:
    """Variables the file states a type or a value for (``x = f()``, ``x: T``, ``x = y``, ``for x in``): a
    call of one, or an operator or a loop on one, may run a method of a repository class. A class body's
    ``x: T = ...`` also stands for ``self.x`` and ``cls.x``, and a property of the file for ``self.x`` (what its
    getter returns: ``self.timer()`` calls it)."""
    classes = {s.qualname for s in result.symbols if s.kind == "class"}
    out = {
        f"self.{s.name}"
        for s in result.symbols
        if s.kind == "method" and any(d.rpartition(".")[2] in _PROPERTIES for d in s.decorators)
    }
    for r in result.references:
        if r.kind in ("assign", "alias", "element", "lookup", "unpack") and r.name.partition("#")[0] != "return":
            out.add(r.name)
            if r.scope in classes and "." not in r.name:
                out.update((f"self.{r.name}", f"cls.{r.name}"))
        elif r.kind == "fixture" and not r.receiver:  # a parameter a fixture gives: what it returns (attrs' `vi != other`)
            out.add(r.name)
    return out


def _class_body_aliases(result: ParseResult) -> None:
    """``__next__ = next``, ``__radd__ = __add__`` in a class body: the class has a method of that name which is
    the other one. It becomes a member of its own, of kind ``alias`` (one line, the other's parameters), that calls
    the other; whoever calls ``x.__next__()`` or iterates x, in any file, calls both (resolve.Resolver._aliased). A
    function of the module bound so (``_check = check``) likewise. A name the class defines otherwise, or binds more
    than once, is left alone. So is an attribute of a class of the module that the module sets after the class
    (``frozendict.__or__ = frozendict_or``, which frozendict does for Pythons whose dict has no ``|``)."""
    by_qualname = {s.qualname: s for s in result.symbols}
    functions = {s.name: s for s in result.symbols if s.kind == "function" and s.parent is None}
    bound: dict[tuple[str, str], list[Reference]] = {}
    for r in result.references:
        if r.kind in ("alias", "assign") and "." not in r.name and r.name != "return":
            bound.setdefault((r.scope, r.name), []).append(r)
    # `frozendict.__or__ = frozendict_or` at the top of the module, after the class: as if said in the class body
    patched: dict[tuple[str, str], list[Reference]] = {}
    for r in result.references:
        if r.kind in ("alias", "assign") and r.scope == MODULE_QUALNAME and r.name.count(".") == 1:
            owner_name, _, attr = r.name.partition(".")
            if attr.isidentifier():
                patched.setdefault((owner_name, attr), []).append(r)
    for key, refs in patched.items():
        if key not in bound:
            bound[key] = [r._replace(name=key[1]) for r in refs]
    made: list[Symbol] = []
    for (scope, name), refs in bound.items():
        owner = by_qualname.get(scope)
        r = refs[0]
        if owner is None or owner.kind not in CLASS_KINDS or len(refs) != 1 or r.kind != "alias" or f"{scope}.{name}" in by_qualname:
            continue
        method = by_qualname.get(f"{scope}.{r.receiver}")
        target = method if method is not None and method.kind == "method" else functions.get(r.receiver)
        if target is None or target.name == name:
            continue
        made.append(
            Symbol("alias", name, f"{scope}.{name}", r.line, r.line, signature=f"{name} = {r.receiver}", parent=scope, params=target.params)
        )
        result.references.append(Reference("call", r.receiver, "self" if target is method else "", r.line, f"{scope}.{name}"))
    result.symbols.extend(made)


def _returned_through_variables(references: list[Reference]) -> list[Reference]:
    """``vars = GetDict(data); return vars``: the function returns what the call makes, a fact of its own (``assign
    return GetDict``), since another file's resolution reads a function's return facts, not its variables (webob's
    ``Request.GET`` property)."""
    made: dict[tuple[str, str], list[str]] = {}
    for r in references:
        if r.kind == "assign" and r.name != "return" and r.name.isidentifier() and _names_maker(r.receiver):
            made.setdefault((r.scope, r.name), []).append(r.receiver)
    have = {(r.scope, r.receiver) for r in references if r.kind == "assign" and r.name == "return"}
    out: list[Reference] = []
    for r in references:
        if r.kind == "alias" and r.name == "return":
            for callee in made.get((r.scope, r.receiver), ()):
                if (r.scope, callee) not in have:
                    have.add((r.scope, callee))
                    out.append(Reference("assign", "return", callee, r.line, r.scope, None, ()))
    return out


def _typed_root(receiver: str, typed: set[str]) -> bool:
    """``req.GET``: an attribute of a variable the file states a value for (not of self or cls: their attributes
    are typed one by one), so that ``del req.GET[k]`` may run the ``__delitem__`` of what the property returns."""
    head, dot, rest = receiver.partition(".")
    return bool(dot) and head in typed and head not in ("self", "cls") and all(p.isidentifier() for p in rest.split("."))


def _names_maker(callee: str) -> bool:
    """A callee another file can look up in this one: a dotted name whose head is neither a builtin nor
    ``self``/``cls`` (``Indent``, ``nodes.Name``; not ``len`` or ``self._make``)."""
    head = callee.partition(".")[0]
    return head not in _BUILTINS and head not in ("self", "cls") and all(p.isidentifier() for p in callee.split("."))


#: a variable whose name may say its class (`version == other`: resolve.Resolver._named_after_receiver), a word of
#: three letters or more, no `self`
_NOUN = re.compile(r"(?!self$|cls$)[A-Za-z_]*[A-Za-z]{3}")


def _made_by_call(text: str) -> bool:
    """``Cls(...)``, ``make(...)``: a call of a name that is not a builtin (``len(x)`` is no object of ours)."""
    head = text.partition("(")[0]
    return bool(head) and text.endswith(")") and head not in _BUILTINS and all(p.isidentifier() for p in head.split("."))


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:200]
