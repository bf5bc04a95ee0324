"""Java: ``Outer.Inner.method`` qualnames, Javadoc, JUnit 3/4/5 tests.

Constructors are methods named after their class (``Foo.Foo``). Methods of anonymous classes belong to the
enclosing method (``Foo.run.call``, kind ``function``). The module name is the dotted file path
(``src.main.java.com.x.Foo``); the package clause is not read.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import count_args, doc_comment, one_line, text
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
    "module_name",
    "params",
    "refine_kind",
    "signature",
]

SEPARATOR = "."

_ANNOTATIONS = ("annotation", "marker_annotation")
_TEST_ANNOTATIONS = frozenset(
    ("Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Property", "Example")
)
_TEST_BASES = ("TestCase", "TestSuite")
_TEST_FILE = re.compile(r"^(Test\w*|\w+(Test|Tests|TestCase|IT))\.java$")
_TYPE_KINDS = ("class", "interface", "enum")
_DOC_COMMENTS = ("block_comment", "line_comment")


def module_name(path: str) -> str:
    return ".".join(PurePosixPath(path).with_suffix("").parts)


def is_test_file(path: str) -> bool:
    """Maven/Gradle ``src/test/`` trees and ``Test*`` / ``*Test`` / ``*Tests`` / ``*IT`` classes."""
    p = PurePosixPath(path)
    return "test" in p.parts[:-1] or bool(_TEST_FILE.match(p.name))


def _modifiers(node: Any) -> Any:
    return next((c for c in node.children if c.type == "modifiers"), None)


def _annotation_names(node: Any) -> list[str]:
    mods = _modifiers(node)
    if mods is None:
        return []
    names = []
    for c in mods.children:
        if c.type in _ANNOTATIONS:
            name = c.child_by_field_name("name")
            if name is not None and name.text:
                names.append(name.text.decode("utf-8", "replace").rsplit(".", 1)[-1])
    return names


def _has_test_method(body: Any) -> bool:
    return any(
        c.type == "method_declaration" and any(a in _TEST_ANNOTATIONS for a in _annotation_names(c))
        for c in body.named_children
    )


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """Methods annotated ``@Test`` (``@ParameterizedTest``, ``@RepeatedTest``, …) and the classes holding them;
    JUnit 3: ``test*`` methods of ``TestCase`` subclasses."""
    if d.kind == "class":
        if any(b.rsplit(".", 1)[-1].split("<", 1)[0] in _TEST_BASES for b in d.bases):
            return True
        return d.body is not None and _has_test_method(d.body)
    if d.kind == "method":
        if any(a in _TEST_ANNOTATIONS for a in _annotation_names(d.node)):
            return True
        parent = d.parent
        junit3 = parent is not None and any(b.rsplit(".", 1)[-1] in _TEST_BASES for b in parent.bases)
        return parent_test and junit3 and d.name.startswith("test")
    return False


def decorators(node: Any, source: bytes) -> tuple[str, ...]:
    """Annotations as written, without ``@``."""
    mods = _modifiers(node)
    if mods is None:
        return ()
    return tuple(text(c, source)[1:].strip() for c in mods.children if c.type in _ANNOTATIONS)


def refine_kind(d: Definition) -> str:
    if d.kind == "function" and d.parent is not None and d.parent.kind in _TYPE_KINDS:
        return "method"
    return d.kind


def _accept_doc(raw: str) -> bool:
    return raw.startswith(("/**", "///"))


def docstring(d: Definition, source: bytes) -> str:
    """The Javadoc block (``/** … */``) or Markdown doc comment (``///``) right above."""
    return doc_comment(d.node, source, _DOC_COMMENTS, _accept_doc)


def _after_annotations(node: Any) -> int:
    for c in node.children:
        if c.type == "modifiers":
            for m in c.children:
                if m.type not in _ANNOTATIONS and "comment" not in m.type:
                    return int(m.start_byte)
            continue
        if "comment" not in c.type:
            return int(c.start_byte)
    return int(node.start_byte)


def signature(d: Definition, source: bytes) -> str:
    """Modifiers and declaration up to the body, annotations left out."""
    end = d.body.start_byte if d.body is not None else d.node.end_byte
    return one_line(source[_after_annotations(d.node) : end].decode("utf-8", "replace")).rstrip(" {;")


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names; ``*rest`` for varargs ``String... rest``."""
    if d.params is None:
        return ()
    out: list[str] = []
    for p in d.params.named_children:
        if p.type == "formal_parameter":
            out.append(text(p.child_by_field_name("name"), source))
        elif p.type == "spread_parameter":
            decl = next((c for c in p.named_children if c.type == "variable_declarator"), None)
            out.append("*" + text(decl.child_by_field_name("name") if decl is not None else None, source))
    return tuple(out)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    return count_args(args, source)


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    """``import a.b.C`` → module ``a.b`` name ``C``; ``import a.b.*`` → module ``a.b`` name ``*``;
    ``import static a.b.C.m`` → module ``a.b.C`` name ``m``."""
    node = caps["import"][0]
    line = node.start_point[0] + 1
    dotted = text(caps["import.module"][0], source).replace(" ", "")
    if "import.wildcard" in caps:
        return [Import(dotted, "*", None, 0, line)]
    module, _, name = dotted.rpartition(".")
    return [Import(module, name, None, 0, line)]
