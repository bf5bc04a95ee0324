"""Go: methods qualified by their receiver type, ``go test`` conventions, godoc comments.

Qualnames: ``Func`` for functions, ``Type.Method`` for methods (``func (s *Server[T]) Run()`` →
``Server.Run``, the parent is ``Server`` although the method is not nested in it). Structs and interfaces
are symbols; other named types (``type ID int``) are not. Embedded fields and embedded interfaces are
bases. Function literals are not symbols: their calls belong to the enclosing function.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import count_args, doc_comment, one_line, split_callee, text, unquote
from ._nodes import drop_local_refs as finalize

if TYPE_CHECKING:
    from ..parse import Definition

__all__ = [
    "SEPARATOR",
    "call_args",
    "docstring",
    "finalize",
    "is_test",
    "is_test_file",
    "make_imports",
    "module_docstring",
    "module_name",
    "params",
    "qualify",
    "signature",
    "split_callee",
]

SEPARATOR = "."

_TEST_FUNC = re.compile(r"^(Test|Benchmark|Fuzz)([^a-z]|$)|^Example")


def module_name(path: str) -> str:
    """The package directory (every file of a directory is one package); the file stem at the root."""
    p = PurePosixPath(path)
    return str(p.parent) if str(p.parent) != "." else p.stem


def is_test_file(path: str) -> bool:
    return path.endswith("_test.go")


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """``TestXxx`` / ``BenchmarkXxx`` / ``FuzzXxx`` / ``ExampleXxx`` functions in ``*_test.go`` (not TestMain)."""
    return d.kind == "function" and d.name != "TestMain" and bool(_TEST_FUNC.match(d.name)) and is_test_file(path)


def _receiver_type(node: Any) -> str:
    receiver = node.child_by_field_name("receiver")
    decl = receiver.named_children[0] if receiver is not None and receiver.named_children else None
    t = decl.child_by_field_name("type") if decl is not None else None
    while t is not None and t.type in ("pointer_type", "generic_type", "parenthesized_type"):
        t = t.child_by_field_name("type") if t.type == "generic_type" else (t.named_children or [None])[0]
    return t.text.decode("utf-8", "replace") if t is not None and t.text else ""


def qualify(d: Definition, sep: str) -> str:
    """``Type.Method``: a method is re-parented onto a stand-in for its receiver type."""
    if d.kind != "method":
        return d.name
    owner = _receiver_type(d.node)
    if not owner:
        return d.name
    from ..parse import Definition

    d.parent = Definition(kind="struct", name=owner, node=d.node, name_node=None, qualname=owner, parent=d.parent)
    return owner + sep + d.name


def _is_directive(raw: str) -> bool:
    return raw.startswith(("//go:", "//nolint", "//+build", "//lint:"))


def docstring(d: Definition, source: bytes) -> str:
    """The comment block right above (a grouped ``type ( … )`` spec has its own)."""
    node = d.node
    if node.type == "type_spec":
        decl = node.parent
        grouped = decl is not None and any(c.type == "(" for c in decl.children[:2])
        if not grouped and decl is not None:
            node = decl
    return doc_comment(node, source, ("comment",), lambda raw: not _is_directive(raw))


def module_docstring(root: Any, source: bytes) -> str:
    """The package comment (right above ``package``)."""
    clause = next((c for c in root.named_children if c.type == "package_clause"), None)
    return doc_comment(clause, source, ("comment",), lambda raw: not _is_directive(raw)) if clause else ""


def signature(d: Definition, source: bytes) -> str:
    if d.node.type == "type_spec":
        raw = text(d.node, source)
        return one_line("type " + raw.split("{", 1)[0])
    end = d.body.start_byte if d.body is not None else d.node.end_byte
    return one_line(source[d.node.start_byte : end].decode("utf-8", "replace"))


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names (``_`` for an unnamed parameter); ``*xs`` for a variadic ``xs ...T``."""
    if d.params is None:
        return ()
    out: list[str] = []
    for p in d.params.named_children:
        if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        names = [text(c, source) for c in p.children_by_field_name("name")] or ["_"]
        if p.type == "variadic_parameter_declaration":
            names = ["*" + n for n in names]
        out.extend(names)
    return tuple(out)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    """Positional count; None for ``f(xs...)``. Go has no keyword arguments."""
    return count_args(args, source, spread=("variadic_argument",))


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    """``import "fmt"`` → module ``fmt``; ``alias "p/x"`` → alias; ``. "p"`` → name ``*``; ``_ "p"`` → alias ``_``."""
    node = caps["import"][0]
    module = unquote(text(caps["import.module"][0], source))
    alias = text(caps["import.alias"][0], source) if "import.alias" in caps else None
    line = node.start_point[0] + 1
    if alias == ".":
        return [Import(module, "*", None, 0, line)]
    return [Import(module, None, alias, 0, line)]
