"""Rust: ``::`` qualnames, impl blocks qualified by their type, ``///`` docs, ``#[test]`` functions.

Qualnames: ``free_fn``, ``module::free_fn`` for inline ``mod`` blocks (kind ``module``), ``Type::method``
for functions in ``impl Type`` and ``impl Trait for Type`` (the parent is ``Type`` although the impl block
is not a symbol), ``Trait::method`` for trait items. ``impl Trait for Type`` records ``Type`` inheriting
``Trait``. Generic arguments are dropped from the type (``impl<T> Stack<T>`` → ``Stack::push``).
Macros (``println!``, ``vec!``) are not calls; their arguments are not looked into.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import count_args, doc_comment, one_line, preceding_siblings, split_callee, strip_generics, text
from ._nodes import drop_local_refs as finalize

if TYPE_CHECKING:
    from ..parse import Definition

__all__ = [
    "SEPARATOR",
    "call_args",
    "decorators",
    "docstring",
    "finalize",
    "inherit_owner",
    "is_test",
    "is_test_file",
    "make_imports",
    "module_docstring",
    "module_name",
    "params",
    "qualify",
    "refine_kind",
    "signature",
    "span",
    "split_callee",
]

SEPARATOR = "::"

_TEST_ATTRIBUTE = re.compile(r"^(\w+::)*(test|rstest|test_case|wasm_bindgen_test|quickcheck)\b")
_COMMENTS = ("line_comment", "block_comment")
_ATTRIBUTES = ("attribute_item",)
_WS = re.compile(r"\s+")


def module_name(path: str) -> str:
    """The file path joined with ``::`` (``src/net/tcp.rs`` → ``src::net::tcp``); ``mod.rs``, ``lib.rs`` and
    ``main.rs`` stand for their directory."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    if len(parts) > 1 and parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return "::".join(parts) or PurePosixPath(path).stem


def is_test_file(path: str) -> bool:
    """Integration tests (``tests/``) and ``tests.rs`` modules."""
    p = PurePosixPath(path)
    return "tests" in p.parts[:-1] or p.name == "tests.rs"


def span(node: Any) -> Any:
    """An item with the attributes written above it."""
    attributes = preceding_siblings(node, _ATTRIBUTES)
    return (attributes[0].start_byte, node.end_byte) if attributes else node


def decorators(node: Any, source: bytes) -> tuple[str, ...]:
    """Outer attributes without ``#[`` ``]``: ``test``, ``tokio::test``, ``cfg(test)``."""
    return tuple(one_line(text(a, source)[2:-1]) for a in preceding_siblings(node, _ATTRIBUTES))


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """Functions with ``#[test]``, ``#[tokio::test]``, ``#[rstest]``…; modules under ``#[cfg(test)]``."""
    if d.kind == "module":
        return any(_WS.sub("", a) == "cfg(test)" for a in d.decorators) or (parent_test and d.name == "tests")
    if d.kind in ("function", "method"):
        return any(_TEST_ATTRIBUTE.match(a) for a in d.decorators)
    return False


def _impl_of(node: Any) -> Any:
    parent = node.parent
    if parent is not None and parent.type == "declaration_list":
        grand = parent.parent
        if grand is not None and grand.type == "impl_item":
            return grand
    return None


def _type_name(impl: Any) -> str:
    t = impl.child_by_field_name("type")
    while t is not None and t.type in ("reference_type", "pointer_type", "generic_type"):
        t = t.child_by_field_name("type")
    if t is None or not t.text:
        return ""
    return strip_generics(t.text.decode("utf-8", "replace")).rsplit("::", 1)[-1]


def refine_kind(d: Definition) -> str:
    if d.kind == "function" and (_impl_of(d.node) is not None or (d.parent is not None and d.parent.kind == "trait")):
        return "method"
    return d.kind


def qualify(d: Definition, sep: str) -> str:
    """``Type::method`` for impl blocks: the method is re-parented onto a stand-in for the type."""
    prefix = d.parent.qualname + sep if d.parent is not None else ""
    impl = _impl_of(d.node) if d.kind == "method" else None
    owner = _type_name(impl) if impl is not None else ""
    if not owner:
        return prefix + d.name
    from ..parse import Definition

    d.parent = Definition(
        kind="struct", name=owner, node=impl, name_node=None, qualname=prefix + owner, parent=d.parent
    )
    return prefix + owner + sep + d.name


def inherit_owner(node: Any, source: bytes) -> str | None:
    """``impl Trait for Type``: the qualname of ``Type`` (inline ``mod`` blocks included)."""
    owner = _type_name(node)
    if not owner:
        return None
    mods = []
    parent = node.parent
    while parent is not None:
        if parent.type == "mod_item":
            mods.append(text(parent.child_by_field_name("name"), source))
        parent = parent.parent
    return "::".join([*reversed(mods), owner])


def _is_outer_doc(raw: str) -> bool:
    return (raw.startswith("///") and not raw.startswith("////")) or (raw.startswith("/**") and raw != "/**/")


def docstring(d: Definition, source: bytes) -> str:
    """``///`` lines or a ``/** */`` block right above (attributes in between are fine)."""
    return doc_comment(d.node, source, _COMMENTS, _is_outer_doc, _ATTRIBUTES)


def module_docstring(root: Any, source: bytes) -> str:
    """The ``//!`` lines at the top of the file."""
    lines = []
    for c in root.children:
        raw = text(c, source) if c.type == "line_comment" else ""
        if not raw.startswith("//!"):
            break
        lines.append(raw[3:].strip())
    return "\n".join(lines).strip()


def signature(d: Definition, source: bytes) -> str:
    end = d.body.start_byte if d.body is not None else d.node.end_byte
    return one_line(source[d.node.start_byte : end].decode("utf-8", "replace")).rstrip(" {;")


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names (``self`` for any receiver form, patterns as written)."""
    if d.params is None:
        return ()
    out: list[str] = []
    for p in d.params.named_children:
        if p.type == "self_parameter":
            out.append("self")
        elif p.type == "parameter":
            out.append(one_line(text(p.child_by_field_name("pattern"), source), 100))
        elif p.type == "variadic_parameter":
            out.append("*")
    return tuple(out)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    return count_args(args, source, ignore=("line_comment", "block_comment", "attribute_item"))


def _path(node: Any, source: bytes) -> list[str]:
    return [p for p in _WS.sub("", text(node, source)).split("::") if p]


def _expand(node: Any, prefix: list[str], source: bytes, out: list[tuple[list[str], str | None, bool]]) -> None:
    """Flatten a use tree into (path, alias, wildcard) triples."""
    t = node.type
    if t == "scoped_use_list":
        path = node.child_by_field_name("path")
        inner = node.child_by_field_name("list")
        if inner is not None:
            _expand(inner, prefix + (_path(path, source) if path is not None else []), source, out)
    elif t == "use_list":
        for c in node.named_children:
            _expand(c, prefix, source, out)
    elif t == "use_as_clause":
        path = node.child_by_field_name("path")
        out.append((prefix + _path(path, source), text(node.child_by_field_name("alias"), source), False))
    elif t == "use_wildcard":
        path = next((c for c in node.named_children), None)
        out.append((prefix + (_path(path, source) if path is not None else []), None, True))
    elif "comment" not in t:
        out.append((prefix + _path(node, source), None, False))


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    """``use a::b::{c, d as e, f::*}`` → (``a::b``, ``c``), (``a::b``, ``d`` as ``e``), (``a::b::f``, ``*``);
    ``use a::b::{self}`` → (``a``, ``b``); ``use serde;`` / ``extern crate serde`` → (``serde``, None)."""
    node = caps["import"][0]
    line = node.start_point[0] + 1
    if node.type == "extern_crate_declaration":
        alias = text(caps["import.alias"][0], source) if "import.alias" in caps else None
        return [Import(text(caps["import.module"][0], source), None, alias, 0, line)]
    found: list[tuple[list[str], str | None, bool]] = []
    _expand(caps["import.module"][0], [], source, found)
    out = []
    for parts, alias, wildcard in found:
        if wildcard:
            out.append(Import("::".join(parts), "*", None, 0, line))
            continue
        if parts and parts[-1] == "self":
            parts = parts[:-1]
        if len(parts) == 1:
            out.append(Import(parts[0], None, alias, 0, line))
        elif parts:
            out.append(Import("::".join(parts[:-1]), parts[-1], alias, 0, line))
    return out
