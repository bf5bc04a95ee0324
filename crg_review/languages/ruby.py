"""Ruby: ``Module::Class#method`` qualnames, ``#`` comment docs, RSpec and minitest tests.

Qualnames: classes and modules nest with ``::`` (``class A::B`` inside ``module M`` is ``M::A::B``);
instance methods are ``Class#method``, singleton methods (``def self.m``, methods inside
``class << self``) are ``Class.m``; a method outside any class is its bare name. Modules are symbols of
kind ``module``. ``Foo.new(…)`` is a call of ``Foo``; ``include`` / ``prepend`` / ``extend M`` make ``M`` a
base. RSpec blocks are symbols of kind ``test`` named after their description, qualname segments the
callee and the description joined with `` > ``: ``describe Cart > it "totals"``.
``require_relative "x"`` imports ``./x``.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from ..model import Import
from ._nodes import doc_comment, one_line, split_callee, text, unquote
from ._nodes import drop_local_refs as finalize

if TYPE_CHECKING:
    from ..parse import Definition

__all__ = [
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
    "split_callee",
]

SEPARATOR = "::"

_TEST_FILE = re.compile(r"(_spec|_test)\.rb$|^test_.*\.rb$")
_TEST_BASES = ("Minitest::Test", "MiniTest::Unit::TestCase", "Test::Unit::TestCase", "ActiveSupport::TestCase")
_OWNER_KINDS = ("class", "module")
_DIRECTIVE = re.compile(r"^#\s*(frozen_string_literal|rubocop:|typed:|encoding:|-\*-)")


def module_name(path: str) -> str:
    """The path without ``.rb``, as ``require`` names it."""
    return str(PurePosixPath(path).with_suffix(""))


def is_test_file(path: str) -> bool:
    """``*_spec.rb``, ``*_test.rb`` and ``test_*.rb`` files."""
    return bool(_TEST_FILE.search(PurePosixPath(path).name))


def is_test(d: Definition, path: str, parent_test: bool) -> bool:
    """RSpec / ActiveSupport blocks; minitest ``test_*`` methods of test classes and the classes themselves."""
    if d.kind == "test":
        return True
    if d.kind == "class":
        return any(b.lstrip(":") in _TEST_BASES for b in d.bases) or (is_test_file(path) and d.name.endswith("Test"))
    return d.kind == "method" and parent_test and d.name.startswith("test_")


def definition_name(node: Any, name_node: Any, source: bytes) -> str:
    """``A::B`` → ``B``; a test is named by its description (a string, or a constant as written)."""
    raw = text(name_node, source)
    if name_node is None:
        return ""
    if name_node.type == "string":
        return unquote(raw)
    if name_node.type == "scope_resolution" and node.type in ("class", "module"):
        return raw.rsplit("::", 1)[-1]
    return raw


def refine_kind(d: Definition) -> str:
    if d.kind == "function" and d.parent is not None and d.parent.kind in _OWNER_KINDS:
        return "method"
    return d.kind


def _singleton(node: Any) -> bool:
    if node.type == "singleton_method":
        return True
    parent = node.parent
    if parent is not None and parent.type == "body_statement":
        parent = parent.parent
    return parent is not None and parent.type == "singleton_class"


def _node_text(node: Any) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def qualify(d: Definition, sep: str) -> str:
    if d.kind == "test":
        callee = _node_text(d.node.child_by_field_name("method"))
        described = d.name_node
        segment = (
            f'{callee} "{d.name}"' if described is not None and described.type == "string" else f"{callee} {d.name}"
        )
        return f"{d.parent.qualname} > {segment}" if d.parent is not None else segment
    if d.kind in _OWNER_KINDS:
        written = _node_text(d.node.child_by_field_name("name")).replace(" ", "").lstrip(":")
        return (d.parent.qualname + sep + written) if d.parent is not None else written
    if d.parent is None:
        return d.name
    marker = "." if _singleton(d.node) else ("#" if d.parent.kind in _OWNER_KINDS else sep)
    return d.parent.qualname + marker + d.name


def _accept_doc(raw: str) -> bool:
    return raw.startswith("#") and not _DIRECTIVE.match(raw)


def docstring(d: Definition, source: bytes) -> str:
    """The ``#`` comment lines right above (magic comments such as ``frozen_string_literal`` left out)."""
    return doc_comment(d.node, source, ("comment",), _accept_doc)


def signature(d: Definition, source: bytes) -> str:
    """``def name(params)``, ``class Name < Base``, ``module Name``, ``it "…"``."""
    node = d.node
    if d.kind == "test":
        block = node.child_by_field_name("block")
        end = block.start_byte if block is not None else node.end_byte
    else:
        last = None
        for field in ("parameters", "superclass", "name"):
            last = node.child_by_field_name(field)
            if last is not None:
                break
        end = last.end_byte if last is not None else node.end_byte
    return one_line(source[node.start_byte : end].decode("utf-8", "replace"))


def params(d: Definition, source: bytes) -> tuple[str, ...]:
    """Names; ``b=`` optional; ``*rest``, ``**opts``; ``*`` before keyword parameters when no splat precedes
    them (as Python marks keyword-only parameters); block parameters (``&blk``) left out."""
    if d.params is None:
        return ()
    out: list[str] = []
    splat = False
    for p in d.params.named_children:
        t = p.type
        name = _node_text(p.child_by_field_name("name"))
        if t == "identifier":
            out.append(_node_text(p))
        elif t == "optional_parameter":
            out.append(name + "=")
        elif t == "splat_parameter":
            splat = True
            out.append("*" + name)
        elif t == "hash_splat_parameter":
            out.append("**" + name)
        elif t == "keyword_parameter":
            if not splat:
                out.append("*")
                splat = True
            out.append(name + "=" if p.child_by_field_name("value") is not None else name)
        elif t == "forward_parameter":
            out.append("*")
        elif t == "destructured_parameter":
            out.append(one_line(_node_text(p), 100))
    return tuple(out)


def call_args(args: Any, source: bytes) -> tuple[int | None, tuple[str, ...]]:
    """Positional count (None with ``*splat``) and keyword names (``key:`` / ``:key =>``; ``**`` for ``**opts``).

    ``args`` is the call node: a call without arguments has no argument list to capture."""
    if args.type == "call":
        args = args.child_by_field_name("arguments")
        if args is None:
            return 0, ()
    positional = 0
    keywords: list[str] = []
    unknown = False
    for a in args.named_children:
        t = a.type
        if t == "pair":
            key = a.child_by_field_name("key")
            if key is not None and key.type in ("hash_key_symbol", "simple_symbol"):
                keywords.append(_node_text(key).lstrip(":"))
        elif t == "splat_argument":
            unknown = True
        elif t == "hash_splat_argument":
            keywords.append("**")
        elif t not in ("block_argument", "comment"):
            positional += 1
    return (None if unknown else positional), tuple(keywords)


def make_imports(caps: dict[str, list[Any]], source: bytes) -> list[Import]:
    node = caps["import"][0]
    module = text(caps["import.module"][0], source)
    method = _node_text(node.child_by_field_name("method"))
    if method == "require_relative" and not module.startswith("."):
        module = "./" + module
    return [Import(module, None, None, 0, node.start_point[0] + 1)]
