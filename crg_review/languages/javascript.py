"""JavaScript (and, through ``typescript``, TypeScript/TSX): ES modules and CommonJS, Jest/Mocha/Vitest tests.

Qualnames: ``Class.method``, ``outer.inner`` for functions nested in functions, ``Foo.bar`` for
``Foo.prototype.bar = function`` and ``bar`` for ``exports.bar = …``. A test block (``describe``/``it``/
``test`` called with a string and a function) is a symbol of kind ``test`` whose qualname segment is the
callee and the quoted description, nested blocks joined with `` > ``: ``describe "Parser" > it "reads"``;
the space and the quotes keep it apart from any identifier. Object-literal methods are not symbols.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import count_args, doc_comment, one_line, preceding_siblings, split_callee, text, unquote
from ._nodes import drop_local_refs as finalize

if TYPE_CHECKING:
    from ..parse import Definition

__all__ = [
    "QUERY_FILES",
    "SEPARATOR",
    "call_args",
    "decorators",
    "definition_name",
    "docstring",
    "finalize",
    "is_test",
    "is_test_file",
    "make_imports",
    "module_name",
    "params",
    "qualify",
    "refine_kind",
    "signature",
    "span",
    "split_callee",
]

SEPARATOR = "."
QUERY_FILES = {"javascript": ("ecmascript.scm", "javascript.scm", "jsx.scm")}

_TEST_FILE = re.compile(r"\.(test|spec)\.[cm]?[jt]sx?$")
_SOURCE_SUFFIX = re.compile(r"\.[cm]?[jt]sx?$")
_METHOD_PARENTS = ("class", "interface")
_COMMONJS_EXPORTS = ("exports", "module.exports")


def module_name(path: str) -> str:
    """The path as an import specifier would name it: extension and a trailing ``/index`` dropped."""
    name = _SOURCE_SUFFIX.sub("", path)
    name = name.removesuffix("/index")
    return name or PurePosixPath(path).stem


def is_test_file(path: str) -> bool:
    """``*.test.*`` / ``*.spec.*`` files and anything under ``__tests__/``."""
    p = PurePosixPath(path)
    return bool(_TEST_FILE.search(p.name)) or "__tests__" in p.parts[:-1]


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """Test blocks are tests wherever they are; functions never (helpers in test files are not tests)."""
    return d.kind == "test"


def definition_name(node: Any, name_node: Any, source: bytes) -> str:
    """A test's name is its description string; anything else is named by its identifier."""
    if name_node is None:
        return ""
    raw = text(name_node, source)
    return unquote(raw) if name_node.type in ("string", "template_string") else raw


def _outer(node: Any) -> Any:
    """The statement a definition is written as: ``export …``, ``const f = …``, ``obj.m = …;``."""
    if node.type == "variable_declarator":
        decl = node.parent
        if decl is not None and sum(1 for c in decl.named_children if c.type == "variable_declarator") == 1:
            node = decl
    elif node.type == "assignment_expression":
        parent = node.parent
        if parent is not None and parent.type == "expression_statement":
            node = parent
    parent = node.parent
    if parent is not None and parent.type == "export_statement":
        node = parent
    return node


def span(node: Any) -> Any:
    """The whole statement, with the decorators written before a class member."""
    outer = _outer(node)
    if node.parent is not None and node.parent.type == "class_body":
        before = preceding_siblings(node, ("decorator",))
        if before:
            return (before[0].start_byte, outer.end_byte)
    return outer


def decorators(node: Any, source: bytes) -> tuple[str, ...]:
    found = [c for c in node.children if c.type == "decorator"]
    parent = node.parent
    if parent is not None:
        if parent.type == "export_statement":
            found = [c for c in parent.children if c.type == "decorator"] + found
        elif parent.type == "class_body":
            found = preceding_siblings(node, ("decorator",)) + found
    return tuple(text(c, source)[1:].strip() for c in found)


def refine_kind(d: Definition) -> str:
    if d.kind == "function" and d.parent is not None and d.parent.kind in _METHOD_PARENTS:
        return "method"
    return d.kind


def _test_segment(d: Definition) -> str:
    callee = d.node.child_by_field_name("function")
    if callee is not None and callee.type == "member_expression":
        callee = callee.child_by_field_name("object")  # it.only → it: adding .only keeps the qualname
    word = _node_text(callee) or "test"
    return f'{word} "{d.name}"'


def qualify(d: Definition, sep: str, top_prefix: str = "") -> str:
    """``Class.method``, ``outer.inner``, ``Foo.bar`` for ``Foo.prototype.bar = …``; ``top_prefix`` goes before
    top-level names (TypeScript namespaces)."""
    if d.kind == "test":
        segment = _test_segment(d)
        return f"{d.parent.qualname} > {segment}" if d.parent is not None else segment
    prefix = d.parent.qualname + sep if d.parent is not None else top_prefix
    if d.node.type == "assignment_expression":
        left = d.node.child_by_field_name("left")
        obj = one_line(_node_text(left.child_by_field_name("object")), 200)
        obj = obj.removesuffix(".prototype")
        if obj in _COMMONJS_EXPORTS:
            return prefix + d.name
        if obj != "this":
            return prefix + obj + sep + d.name
    return prefix + d.name


def _node_text(node: Any) -> str:
    # qualify gets no source: a node keeps its tree's text
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def docstring(d: Definition, source: bytes) -> str:
    """The JSDoc block (``/** … */``) right above the definition (decorators in between are fine)."""
    return doc_comment(_outer(d.node), source, ("comment",), lambda raw: raw.startswith("/**"), ("decorator",))


def signature(d: Definition, source: bytes) -> str:
    """From the statement start (``export``, ``const``, modifiers; decorators left out) up to the body."""
    outer = _outer(d.node)
    if d.kind == "test":  # it("works", async () => — up to the callback's body
        args = d.node.child_by_field_name("arguments")
        fn = args.named_children[1] if args is not None and len(args.named_children) > 1 else None
        body = fn.child_by_field_name("body") if fn is not None else None
        end = body.start_byte if body is not None else d.node.end_byte
        return one_line(source[d.node.start_byte : end].decode("utf-8", "replace")).rstrip(" {:")
    if d.body is None:
        return one_line(text(d.node, source).split("\n", 1)[0]).rstrip(" {:;")
    start = next((c.start_byte for c in outer.children if c.type != "decorator"), outer.start_byte)
    if outer.type == "export_statement":
        decl = outer.child_by_field_name("declaration")
        if decl is not None:  # export @dec class X → skip the inner decorators too
            inner = next((c.start_byte for c in decl.children if c.type != "decorator"), decl.start_byte)
            if inner > decl.start_byte:
                return one_line(
                    (source[start : decl.start_byte] + source[inner : d.body.start_byte]).decode("utf-8", "replace")
                ).rstrip(" {:")
    return one_line(source[start : d.body.start_byte].decode("utf-8", "replace")).rstrip(" {:")


def _param_name(p: Any, source: bytes) -> str | None:
    t = p.type
    if t in ("identifier", "this"):
        return text(p, source)
    if t == "assignment_pattern":
        return _pattern_text(p.child_by_field_name("left"), source) + "="
    if t == "rest_pattern":
        inner = p.named_children[0] if p.named_children else None
        return "*" + (_pattern_text(inner, source) if inner is not None else "")
    if t in ("required_parameter", "optional_parameter"):  # TypeScript
        pattern = p.child_by_field_name("pattern")
        name = _param_name(pattern, source) if pattern is not None else None
        if name is None:
            return None
        optional = t == "optional_parameter" or p.child_by_field_name("value") is not None
        return name + "=" if optional and not name.endswith("=") and not name.startswith("*") else name
    if "comment" in t or t == "decorator":
        return None
    return _pattern_text(p, source)


def _pattern_text(node: Any, source: bytes) -> str:
    return one_line(text(node, source), 100)


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names; ``x=`` optional (default value or TypeScript ``x?``), ``*rest`` for ``...rest``, destructuring as
    written."""
    p = d.params
    if p is None:
        return ()
    if p.type == "identifier":  # x => …
        return (text(p, source),)
    return tuple(n for n in (_param_name(c, source) for c in p.named_children) if n is not None)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    """Positional count; None with a ``...spread`` argument. JavaScript has no keyword arguments."""
    return count_args(args, source, spread=("spread_element",))


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    """ES imports and re-exports, ``import x = require()`` and ``const … = require()``.

    ``import x`` → name ``default`` alias ``x``; ``import * as ns`` / ``export * as ns`` → name ``*`` alias ``ns``;
    ``const d = require()`` and ``import './side-effect'`` → name None.
    """
    node = caps["import"][0]
    module = text(caps["import.module"][0], source) if "import.module" in caps else ""
    line = node.start_point[0] + 1
    alias = text(caps["import.alias"][0], source) if "import.alias" in caps else None
    if "import.default" in caps:
        return [Import(module, "default", text(caps["import.default"][0], source), 0, line)]
    if "import.wildcard" in caps:
        return [Import(module, "*", alias, 0, line)]
    name = text(caps["import.name"][0], source) if "import.name" in caps else None
    return [Import(module, name, alias, 0, line)]
