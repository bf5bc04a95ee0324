"""C++: the C hooks (see ``c``) plus classes, namespaces, out-of-line methods and gtest tests.

Qualnames: ``ns::Class::method``; namespaces are not symbols but prefix what is defined in them
(anonymous namespaces add nothing). An out-of-line definition ``void Widget::draw() {}`` is the method
``Widget::draw`` (prefixed by the namespaces it is written in) with the stand-in parent ``Widget``, even
when ``Widget`` is a namespace: the grammar cannot tell. ``TEST(Suite, Name)`` / ``TEST_F`` / ``TEST_P`` /
``TYPED_TEST`` blocks are symbols of kind ``test`` named ``Name`` with qualname ``Suite.Name`` (as
``--gtest_filter`` spells it). Templates span their ``template <…>`` line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._nodes import strip_generics, text
from .c import (
    SEPARATOR,
    call_args,
    docstring,
    finalize,
    is_test,
    is_test_file,
    make_imports,
    module_name,
    params,
    signature,
    split_callee,
)

if TYPE_CHECKING:
    from ..parse import Definition

__all__ = [
    "QUERY_FILES",
    "SEPARATOR",
    "call_args",
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

QUERY_FILES = {"cpp": ("c.scm", "cpp.scm")}

_TEST_MACROS = frozenset(("TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"))
_CLASS_KINDS = ("class", "struct")


def _node_text(node: Any) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _test_args(node: Any) -> list[str]:
    """(suite, name) of ``TEST(Suite, Name)``: the grammar reads the macro as a function with two parameters."""
    declarator = node.child_by_field_name("declarator")
    params_node = declarator.child_by_field_name("parameters") if declarator is not None else None
    if params_node is None:
        return []
    return [_node_text(p) for p in params_node.named_children if p.type == "parameter_declaration"]


def _is_test_macro(d: Definition) -> bool:
    return d.name_node is not None and d.name_node.type == "identifier" and _node_text(d.name_node) in _TEST_MACROS


def definition_name(node: Any, name_node: Any, source: bytes) -> str:
    """``Widget::draw`` → ``draw``; ``TEST(Suite, Name)`` → ``Name``."""
    raw = text(name_node, source)
    if name_node is not None and name_node.type == "qualified_identifier":
        return strip_generics(raw).rsplit("::", 1)[-1].strip()
    if raw in _TEST_MACROS and node.type == "function_definition":
        args = _test_args(node)
        return args[1] if len(args) == 2 else raw
    return raw


def span(node: Any) -> Any:
    """A template spans its ``template <…>`` line."""
    parent = node.parent
    return parent if parent is not None and parent.type == "template_declaration" else node


def refine_kind(d: Definition) -> str:
    if d.kind != "function":
        return d.kind
    if _is_test_macro(d):
        return "test"
    if d.name_node is not None and d.name_node.type == "qualified_identifier":
        return "method"
    return "method" if d.parent is not None and d.parent.kind in _CLASS_KINDS else "function"


def _namespace_prefix(node: Any, sep: str) -> str:
    names = []
    parent = node.parent
    while parent is not None:
        if parent.type == "namespace_definition":
            name = parent.child_by_field_name("name")
            if name is not None:
                names.append(_node_text(name).replace(" ", ""))
        parent = parent.parent
    return "".join(n + sep for n in reversed(names))


def qualify(d: Definition, sep: str) -> str:
    """Namespaces, enclosing classes, the scope of an out-of-line definition; ``Suite.Name`` for gtest."""
    if d.kind == "test":
        args = _test_args(d.node)
        return ".".join(args) if len(args) == 2 else d.name
    prefix = d.parent.qualname + sep if d.parent is not None else _namespace_prefix(d.node, sep)
    if d.name_node is not None and d.name_node.type == "qualified_identifier":
        scope = strip_generics(_node_text(d.name_node)).rsplit("::", 1)[0].replace(" ", "")
        from ..parse import Definition

        owner = scope.rsplit("::", 1)[-1]
        d.parent = Definition(
            kind="class", name=owner, node=d.node, name_node=None, qualname=prefix + scope, parent=d.parent
        )
        return prefix + scope + sep + d.name
    return prefix + d.name
