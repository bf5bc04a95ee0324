"""C (and, through ``cpp``, the shared part of C++): functions, structs, includes, comment docs.

Qualnames are plain names: C has no namespaces. ``typedef struct { … } Name;`` defines ``Name``.
Declarations (prototypes) are not symbols, only definitions. ``#include "a/b.h"`` and
``#include <stdio.h>`` import modules ``a/b.h`` and ``stdio.h``.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import count_args, doc_comment, one_line, text
from ._nodes import drop_local_refs as finalize
from ._nodes import split_callee as _split_callee

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
    "module_name",
    "params",
    "signature",
    "split_callee",
]

SEPARATOR = "::"

_TEST_FILE = re.compile(r"(^test_.*|_test|_tests|_unittest)\.(c|cc|cpp|cxx|h|hh|hpp)$")
_NAME_DECLARATORS = ("pointer_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator")


def module_name(path: str) -> str:
    """The path itself: ``#include`` names files."""
    return path


def is_test_file(path: str) -> bool:
    """Files under ``test/`` / ``tests/`` and ``test_*.c`` / ``*_test.cc`` / ``*_unittest.cc`` files."""
    p = PurePosixPath(path)
    return any(d in ("test", "tests") for d in p.parts[:-1]) or bool(_TEST_FILE.search(p.name))


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """``test_*`` functions in test files (Unity, CMocka, Check); gtest ``TEST(…)`` blocks (C++) always."""
    if d.kind == "test":
        return True
    return d.kind == "function" and d.name.startswith("test") and is_test_file(path)


def split_callee(callee: str) -> tuple[str, str]:
    receiver, name = _split_callee(callee)
    return receiver, name.rsplit(" ", 1)[-1]  # obj.template get<T> → get


def _outer(node: Any) -> Any:
    parent = node.parent
    return parent if parent is not None and parent.type == "template_declaration" else node


def docstring(d: Definition, source: bytes) -> str:
    """The comment (``//`` lines, ``/* */``, ``///``, ``/** */``) right above the definition."""
    return doc_comment(_outer(d.node), source, ("comment",), lambda raw: True)


def signature(d: Definition, source: bytes) -> str:
    end = d.body.start_byte if d.body is not None else d.node.end_byte
    sig = one_line(source[d.node.start_byte : end].decode("utf-8", "replace")).rstrip(" {;")
    if d.node.type == "type_definition":  # typedef struct { … } Name → typedef struct Name
        sig = f"{sig} {d.name}"
    return sig


def _declared_name(node: Any, source: bytes) -> str:
    while node is not None and node.type in _NAME_DECLARATORS:
        inner = node.child_by_field_name("declarator")
        node = inner if inner is not None else (node.named_children[-1] if node.named_children else None)
    if node is not None and node.type == "function_declarator":  # int (*cb)(int)
        return _declared_name(node.child_by_field_name("declarator"), source)
    return text(node, source) if node is not None else "_"


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names (``_`` for an unnamed one; none for ``(void)``); ``x=`` with a C++ default; ``*`` for ``...``."""
    if d.params is None or d.kind == "test":
        return ()
    out: list[str] = []
    for p in d.params.children:
        if p.type in ("parameter_declaration", "optional_parameter_declaration"):
            declarator = p.child_by_field_name("declarator")
            if declarator is None and text(p, source).strip() == "void":
                continue
            name = _declared_name(declarator, source)
            out.append(name + "=" if p.type == "optional_parameter_declaration" else name)
        elif p.type in ("variadic_parameter", "...", "variadic_parameter_declaration"):
            out.append("*")
    return tuple(out)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    return count_args(args, source)


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    node = caps["import"][0]
    raw = text(caps["import.module"][0], source).strip()
    if len(raw) >= 2 and raw[0] in '"<':
        raw = raw[1:-1]
    return [Import(raw, None, None, 0, node.start_point[0] + 1)]
