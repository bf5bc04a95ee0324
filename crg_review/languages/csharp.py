"""C#: ``Outer.Inner.Method`` qualnames (namespaces left out, as Java leaves out packages), XML doc
comments, xUnit / NUnit / MSTest tests.

Constructors are methods named after their type (``Foo.Foo``); local functions nest in their method
(``Foo.Run.Local``, kind ``function``). Properties, indexers and operators are not symbols: calls in them
belong to the type. ``using A.B;`` imports a namespace (name ``*``).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import count_args, doc_comment, one_line, split_callee, text
from ._nodes import drop_local_refs as finalize

if TYPE_CHECKING:
    from ..parse import Definition

__all__ = [
    "SEPARATOR",
    "call_args",
    "decorators",
    "docstring",
    "finalize",
    "is_test",
    "is_test_file",
    "make_imports",
    "params",
    "refine_kind",
    "signature",
    "split_callee",
]

SEPARATOR = "."

_TEST_ATTRIBUTES = frozenset(
    ("Fact", "Theory", "SkippableFact", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod")
)
_TEST_CLASS_ATTRIBUTES = frozenset(("TestClass", "TestFixture"))
_TYPE_KINDS = ("class", "struct", "interface", "enum")
_XML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_TEST_FILE = re.compile(r"Tests?\.cs$")


def is_test_file(path: str) -> bool:
    """``*Test.cs`` / ``*Tests.cs`` and anything in a ``test``/``tests``/``*.Tests`` directory."""
    p = PurePosixPath(path)
    dirs = [d.lower() for d in p.parts[:-1]]
    return bool(_TEST_FILE.search(p.name)) or any(
        d in ("test", "tests") or d.endswith((".tests", ".test")) for d in dirs
    )


def _attribute_names(node: Any) -> list[str]:
    names = []
    for c in node.children:
        if c.type == "attribute_list":
            for a in c.named_children:
                name = a.child_by_field_name("name") if a.type == "attribute" else None
                if name is not None and name.text:
                    short = name.text.decode("utf-8", "replace").rsplit(".", 1)[-1].split("<", 1)[0]
                    names.append(short.removesuffix("Attribute"))
    return names


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """Methods with ``[Fact]``, ``[Theory]``, ``[Test]``, ``[TestCase(…)]``, ``[TestMethod]``…, and classes marked
    ``[TestClass]`` / ``[TestFixture]`` or holding such methods."""
    if d.kind == "method":
        return any(a in _TEST_ATTRIBUTES for a in _attribute_names(d.node))
    if d.kind == "class":
        if any(a in _TEST_CLASS_ATTRIBUTES for a in _attribute_names(d.node)):
            return True
        return d.body is not None and any(
            c.type == "method_declaration" and any(a in _TEST_ATTRIBUTES for a in _attribute_names(c))
            for c in d.body.named_children
        )
    return False


def decorators(node: Any, source: bytes) -> tuple[str, ...]:
    """Attributes as written, one per attribute (``[A, B(1)]`` gives ``A`` and ``B(1)``)."""
    return tuple(
        text(a, source)
        for c in node.children
        if c.type == "attribute_list"
        for a in c.named_children
        if a.type == "attribute"
    )


def refine_kind(d: Definition) -> str:
    if d.kind == "function" and d.parent is not None and d.parent.kind in _TYPE_KINDS:
        return "method"
    return d.kind


def docstring(d: Definition, source: bytes) -> str:
    """The ``///`` XML doc comment (tags dropped) or ``/** … */`` block right above."""
    raw = doc_comment(d.node, source, ("comment",), lambda r: r.startswith(("///", "/**")))
    return _XML_TAG.sub("", raw).strip() if "<" in raw else raw


def signature(d: Definition, source: bytes) -> str:
    """Modifiers and declaration up to the body, attributes left out."""
    start = next((c.start_byte for c in d.node.children if c.type != "attribute_list"), d.node.start_byte)
    end = d.body.start_byte if d.body is not None else d.node.end_byte
    return one_line(source[start:end].decode("utf-8", "replace")).rstrip(" {;")


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names; ``c=`` with a default; ``*rest`` for ``params T[] rest``."""
    if d.params is None:
        return ()
    out: list[str] = []
    variadic = False
    for c in d.params.children:
        if c.type == "params":
            variadic = True
        elif c.type == "parameter":
            name = text(c.child_by_field_name("name"), source)
            if any(k.type == "params" for k in c.children):
                out.append("*" + name)
            else:
                out.append(name + "=" if any(k.type == "=" for k in c.children) else name)
        elif c.type == "identifier" and variadic:  # the grammar leaves `params T[] rest` unwrapped
            out.append("*" + text(c, source))
    return tuple(out)


def _keyword(arg: Any) -> str | None:
    name = arg.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None and name.text else None


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    """Positional count and named arguments (``M(1, x: 2)`` → ``(1, ("x",))``)."""
    return count_args(args, source, keyword=_keyword)


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    """``using A.B;`` / ``using static A.B.C;`` → module name ``*``; ``using X = A.B.C;`` → module ``A.B`` name ``C``
    alias ``X``."""
    node = caps["import"][0]
    line = node.start_point[0] + 1
    dotted = text(caps["import.module"][0], source).replace(" ", "")
    if "import.alias" in caps:
        module, _, name = dotted.rpartition(".")
        return [Import(module, name, text(caps["import.alias"][0], source), 0, line)]
    return [Import(dotted, "*", None, 0, line)]
