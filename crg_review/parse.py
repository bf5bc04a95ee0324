"""File bytes → symbols, references, imports and bases, with tree-sitter (no I/O, no SQL).

The queries (``languages/<name>.scm``) are data. Capture names they use:

``@definition.<kind>`` a definition node with ``@name`` (and optional ``@body``, ``@params``);
``@reference.call`` a call with ``@callee`` (and optional ``@args``; with ``@receiver`` the callee node is the bare
name, for grammars without a node for ``receiver.name``: Java ``method_invocation``, Ruby ``call``);
``@reference.<kind>`` any other use with ``@name`` (and optional ``@receiver``);
``@import`` with ``@import.module`` / ``@import.name`` / ``@import.alias`` / ``@import.wildcard``;
``@inherit`` a definition node (the same node as its ``@definition.*``) with one ``@base``; an ``@inherit`` node
that is no definition (Rust ``impl Trait for Type``) is attributed by the ``inherit_owner`` hook;
``@expand.<what>`` a node the language's ``expand`` hook takes apart into calls and references (see below).

Compiling a query costs about 1 ms per pattern step below an expression node (tree-sitter analyses each step
against the grammar's parse table), once in every process that parses a file of the language. A query can
therefore capture such a node whole, ``(call) @expand.call``, and let ``expand(what, node, captures, source)``
read its fields: it returns ``(kind, name node, receiver node or None)`` items, and ``("call", callee node,
arguments node or None)`` for a call.

What a query cannot say is asked of the language's hook module (see ``languages/``); every hook has a
default here.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from pathlib import PurePosixPath
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .languages import hooks_for, query_source
from .model import MODULE_QUALNAME, Base, Import, ParseResult, Reference, Symbol

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Query

__all__ = ["Definition", "parse"]

_WS = re.compile(r"\s+")
_CONTINUED = re.compile(r"\\\r?\n[ \t]*")
_SEPARATORS = re.compile(r"(\?\.|\.|::|->)")


@dataclass
class Definition:
    """A definition while the file is being walked (tree-sitter node kept for the hooks)."""

    kind: str
    name: str
    node: Any
    name_node: Any
    body: Any = None
    params: Any = None
    parent: Definition | None = None
    qualname: str = ""
    bases: list[str] = field(default_factory=list)
    decorators: tuple[str, ...] = ()
    start: int = 0  # span in bytes (decorators included)
    end: int = 0
    #: spans in bytes inside the definition that run where the definition runs, not when it is called (Python's
    #: parameter default values and decorator arguments): their references belong to the enclosing scope too
    outside: tuple[tuple[int, int], ...] = ()


@cache
def _parser(language: str) -> Parser:
    from tree_sitter_language_pack import get_parser

    return get_parser(language)  # type: ignore[arg-type]


@cache
def _query(language: str) -> Query:
    from tree_sitter import Query
    from tree_sitter_language_pack import get_language

    return Query(get_language(language), query_source(language))  # type: ignore[arg-type]


def text(node: Node | None, source: bytes) -> str:
    """The source text of a node ('' for None), decoded leniently."""
    if node is None:
        return ""
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def one_line(value: str, limit: int = 300) -> str:
    """Collapse whitespace and cut to ``limit`` characters."""
    # most values have no whitespace to collapse (isprintable() is False for any other \s character)
    if not (value.isprintable() and "  " not in value and value[:1] != " " and value[-1:] != " "):
        if "\\\n" in value or "\\\r\n" in value:  # a line continued: `x.\<newline>    f` is `x.f`
            value = _CONTINUED.sub("", value)
        value = _WS.sub(" ", value).strip()
    return value if len(value) <= limit else value[: limit - 1] + "…"


# --- default hooks --------------------------------------------------------------------------------


def _default_split_callee(callee: str) -> tuple[str, str]:
    callee = callee.strip()
    over_lines = "\n" in callee  # a chain over lines: `super(B, self).\<newline>    f`, `(obj\n    .method)`
    if over_lines:
        callee = _CONTINUED.sub("", callee)
    if "?" not in callee and ":" not in callee and ">" not in callee:  # "." is the only separator: no regex
        receiver, _, name = callee.rpartition(".")
        return (receiver.strip(), name.strip()) if over_lines else (receiver, name)
    parts = _SEPARATORS.split(callee)
    if len(parts) == 1:
        return "", callee
    return "".join(parts[:-2]), parts[-1]


def _hook(hooks: ModuleType, name: str, default: Any) -> Any:
    return getattr(hooks, name, default)


def _default_signature(d: Definition, source: bytes) -> str:
    node = d.node
    end = d.body.start_byte if d.body is not None else node.end_byte
    sig = source[node.start_byte : end].decode("utf-8", "replace")
    if d.body is None:
        sig = sig.split("\n", 1)[0]
    return one_line(sig).rstrip(" {:")


# --- the walk -------------------------------------------------------------------------------------

#: per language, per query pattern: (category, capture key, what of @expand.<what>); from the first match of each
_ROLES: dict[str, dict[int, tuple[str, str, str]]] = {}


_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


def as_utf8(source: bytes, language: str) -> bytes:
    """Text that is not UTF-8, re-encoded as UTF-8 (tree-sitter reads UTF-8): Python's declared
    ``# coding:`` (PEP 263), else latin-1, which decodes any byte. Lines stay where they were."""
    try:
        source.decode("utf-8")
        return source
    except UnicodeDecodeError:
        pass
    encoding = "latin-1"
    if language == "python":
        head = b"\n".join(source.split(b"\n", 2)[:2])
        match = _CODING.search(head)
        if match:
            encoding = match.group(1).decode("ascii")
    try:
        return source.decode(encoding).encode("utf-8")
    except (LookupError, UnicodeDecodeError):
        return source.decode("latin-1").encode("utf-8")


def _role(caps: dict[str, Any]) -> tuple[str, str, str]:
    """What a pattern's matches are: a definition, an inheritance, a call, another reference, an import, or a node
    for the ``expand`` hook."""
    for k in caps:
        if k.startswith("definition."):
            return "definition", k, ""
        if k.startswith("expand."):
            return "expand", k, k[7:]
    if "inherit" in caps:
        return "inherit", "inherit", ""
    if "reference.call" in caps:
        return "call", "reference.call", ""
    for k in caps:
        if k.startswith("reference."):
            return "reference", k, ""
    if "import" in caps:
        return "import", "import", ""
    return "other", "", ""



def parse(source: bytes, path: str, language: str) -> ParseResult:
    """Parse one file. Syntax errors keep what tree-sitter recovered and set ``has_errors``."""
    from tree_sitter import QueryCursor

    hooks = hooks_for(language)
    source = as_utf8(source, language)
    tree = _parser(language).parse(source)
    root = tree.root_node
    result = ParseResult(language=language, has_errors=root.has_error)
    sep: str = _hook(hooks, "SEPARATOR", ".")
    split_callee = _hook(hooks, "split_callee", _default_split_callee)
    skip_reference = _hook(hooks, "skip_reference", None)
    call_args = _hook(hooks, "call_args", None)
    expand = _hook(hooks, "expand", None)

    defs: dict[tuple[int, int, str], Definition] = {}
    inherits: list[tuple[tuple[int, int], str, int]] = []
    foreign_inherits: dict[tuple[int, int], Node] = {}  # @inherit nodes, for the inherit_owner hook
    # offset, kind, order among equal offset and kind, name, receiver, line, arity, keywords
    raw_refs: list[tuple[int, str, int, str, str, int, int | None, tuple[str, ...]]] = []
    raw_imports: list[tuple[int, Import]] = []

    roles: dict[int, tuple[str, str, str]] = _ROLES.setdefault(language, {})
    callee_spans: set[tuple[int, int]] = set()
    attr_refs: list[tuple[tuple[int, int], tuple[int, str, int, str, str, int, None, tuple[str, ...]]]] = []
    for pattern, caps in QueryCursor(_query(language)).matches(root):
        role = roles.get(pattern)
        if role is None:
            role = roles[pattern] = _role(caps)
        category, key, what = role
        if category == "expand":
            node = caps[key][0]
            span = (node.start_byte, node.end_byte)
            if what == "attr" and span in callee_spans:  # a callee (its call came first): see attr_refs below
                continue
            for kind, first, second in expand(what, node, caps, source):
                # among references at one offset of one kind, the order of the nodes that ended the matches of
                # the per-shape patterns these replace: a call's arguments, another reference's receiver
                start = first.start_byte
                end = first.end_byte
                if kind == "call":
                    callee_spans.add((start, end))
                    receiver, name = split_callee(source[start:end].decode("utf-8", "replace"))
                    counts: tuple[int | None, tuple[str, ...]] = (None, ())
                    if second is not None and call_args is not None:
                        counts = call_args(second, source)
                    if name:
                        raw_refs.append((start, kind, end, name, receiver, first.start_point[0] + 1, *counts))
                    continue
                if second is None:
                    order, receiver = 0, ""
                else:
                    order = second.start_byte
                    receiver = one_line(source[order : second.end_byte].decode("utf-8", "replace"), 200)
                row = (
                    start,
                    kind,
                    order,
                    source[start:end].decode("utf-8", "replace"),
                    receiver,
                    first.start_point[0] + 1,
                    None,
                    (),
                )
                if kind == "attr":  # an attribute that is also a callee is already a call reference
                    attr_refs.append((span, row))
                else:
                    raw_refs.append(row)
            continue
        if category == "definition":
            node = caps[key][0]
            name_node = caps["name"][0] if "name" in caps else None
            kind = key[11:]
            name = hooks.definition_name(node, name_node, source) if hasattr(hooks, "definition_name") else text(
                name_node, source
            )
            if not name:
                continue
            dkey = (node.start_byte, node.end_byte, kind)
            if dkey not in defs:
                defs[dkey] = Definition(
                    kind=kind,
                    name=name,
                    node=node,
                    name_node=name_node,
                    body=caps["body"][0] if "body" in caps else None,
                    params=caps["params"][0] if "params" in caps else None,
                )
            continue
        if category == "inherit":
            node = caps["inherit"][0]
            foreign_inherits[(node.start_byte, node.end_byte)] = node
            for base in caps.get("base", []):
                inherits.append(((node.start_byte, node.end_byte), text(base, source), base.start_point[0] + 1))
            continue
        if category == "call":
            callee_node = caps["callee"][0]
            callee_spans.add((callee_node.start_byte, callee_node.end_byte))
            if "receiver" in caps:
                receiver, name = one_line(text(caps["receiver"][0], source), 200), text(callee_node, source)
            else:
                receiver, name = split_callee(text(callee_node, source))
            arity: int | None = None
            keywords: tuple[str, ...] = ()
            if "args" in caps and call_args is not None:
                arity, keywords = call_args(caps["args"][0], source)
            if name:
                raw_refs.append(
                    (callee_node.start_byte, "call", 0, name, receiver, callee_node.start_point[0] + 1, arity, keywords)
                )
            continue
        if category == "reference":
            if "name" not in caps:
                continue
            ref_node = caps[key][0]
            kind = key[10:]
            if skip_reference is not None and skip_reference(kind, ref_node):
                continue
            name_node = caps["name"][0]
            receiver = text(caps["receiver"][0], source) if "receiver" in caps else ""
            row = (
                name_node.start_byte,
                kind,
                0,
                text(name_node, source),
                one_line(receiver, 200) if receiver else "",
                name_node.start_point[0] + 1,
                None,
                (),
            )
            if kind == "attr":  # an attribute that is also a callee is already a call reference
                attr_refs.append(((ref_node.start_byte, ref_node.end_byte), row))
            else:
                raw_refs.append(row)
            continue
        if "import" in caps:
            node = caps["import"][0]
            make = _hook(hooks, "make_imports", None)
            items = (
                make(caps, source)
                if make is not None
                else [
                    Import(
                        module=text(caps["import.module"][0], source) if "import.module" in caps else "",
                        name=text(caps["import.name"][0], source) if "import.name" in caps else None,
                        alias=text(caps["import.alias"][0], source) if "import.alias" in caps else None,
                        level=0,
                        line=node.start_point[0] + 1,
                    )
                ]
            )
            for item in items:
                raw_imports.append((node.start_byte, item))

    raw_refs.extend(row for span, row in attr_refs if span not in callee_spans)
    ordered = _nest(list(defs.values()), hooks, source, sep)
    starts = [d.start for d in ordered]
    base_map: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for span, base_text, line in inherits:
        base_map.setdefault(span, []).append((base_text, line))

    module_symbol = Symbol(
        kind="module",
        name=_hook(hooks, "module_name", lambda p: PurePosixPath(p).stem)(path),
        qualname=MODULE_QUALNAME,
        start_line=1,
        end_line=max(1, root.end_point[0] + (1 if root.end_point[1] else 0)),
        docstring=_hook(hooks, "module_docstring", lambda r, s: "")(root, source),
        is_test=bool(_hook(hooks, "is_test_file", lambda p: False)(path)),
    )
    result.symbols.append(module_symbol)
    is_test = _hook(hooks, "is_test", lambda d, p, parent_test: False)
    docstring = _hook(hooks, "docstring", lambda d, s: "")
    signature = _hook(hooks, "signature", _default_signature)
    params = _hook(hooks, "params", lambda d, s: ())
    test_flags: dict[int, bool] = {}
    # `from django.test import TestCase as DjangoTestCase`: a base so named is the class imported (for test marks)
    imported_as = {imp.alias: imp.name for _, imp in raw_imports if imp.alias and imp.name and imp.name != "*"}
    # a definition's first line: the newlines before it, counted on from the previous one (they come in order)
    start_line, counted = 1, 0
    for d in ordered:
        start_line += source.count(b"\n", counted, d.start)
        counted = d.start
        parent_test = test_flags.get(id(d.parent), module_symbol.is_test) if d.parent else module_symbol.is_test
        d.bases = [imported_as.get(b, b) for b, _ in base_map.get((d.node.start_byte, d.node.end_byte), [])]  # is_test reads them
        flag = bool(is_test(d, path, parent_test))
        test_flags[id(d)] = flag
        result.symbols.append(
            Symbol(
                kind=d.kind,
                name=d.name,
                qualname=d.qualname,
                start_line=start_line,
                end_line=d.node.end_point[0] + 1,
                signature=signature(d, source),
                docstring=one_line(docstring(d, source), 2000),
                parent=d.parent.qualname if d.parent else None,
                is_test=flag,
                decorators=d.decorators,
                params=tuple(params(d, source)),
            )
        )
        for base_text, line in base_map.get((d.node.start_byte, d.node.end_byte), []):
            result.bases.append(Base(symbol=d.qualname, text=one_line(base_text, 200), line=line))
        foreign_inherits.pop((d.node.start_byte, d.node.end_byte), None)
    if not module_symbol.is_test and _hook(hooks, "is_test_module", lambda p, syms: False)(path, result.symbols):
        # a test module by what it holds, where its name is not one a runner takes by default from every project
        where = result.symbols.index(module_symbol)
        module_symbol = result.symbols[where] = module_symbol._replace(is_test=True)
    inherit_owner = _hook(hooks, "inherit_owner", lambda n, s: None)
    for span_key, node in foreign_inherits.items():
        owner = inherit_owner(node, source)
        if owner:
            for base_text, line in base_map.get(span_key, []):
                result.bases.append(Base(symbol=owner, text=one_line(base_text, 200), line=line))

    def scope_of(offset: int) -> str:
        """The qualname of the innermost definition around ``offset``."""
        d = definition_at(offset)
        return d.qualname if d is not None else MODULE_QUALNAME

    def definition_at(offset: int) -> Definition | None:
        i = bisect.bisect_right(starts, offset) - 1
        d = ordered[i] if i >= 0 else None
        while d is not None and not (d.start <= offset < d.end):
            d = d.parent
        return d

    def evaluated_in(d: Definition | None, offset: int) -> str | None:
        """Where code at ``offset`` inside ``d`` also runs when it is in a span ``d`` evaluates outside itself (a
        parameter default, a decorator argument): the scope that runs the definition; None otherwise."""
        if d is None or not d.outside or not any(a <= offset < b for a, b in d.outside):
            return None
        outer = d.parent
        while outer is not None and outer.outside and any(a <= offset < b for a, b in outer.outside):
            outer = outer.parent
        return outer.qualname if outer is not None else MODULE_QUALNAME

    seen: set[tuple[Any, ...]] = set()
    references = result.references
    make_tuple = tuple.__new__  # Reference(...) without its Python-level __new__: half a million per django build
    # what a definition evaluates where it is defined also belongs to it (the values of parameter defaults and of
    # `@pytest.mark.parametrize(...)` arguments reach the function): such references are kept in both scopes, but
    # for the kinds that only say what the definition uses (a lazy fixture named in a decorator's arguments)
    inside_kinds: frozenset[str] = _hook(hooks, "USES_INSIDE", frozenset())
    # value uses a language's finalize deduplicates itself, as it needs some of them at every line
    per_line: frozenset[str] = _hook(hooks, "USES_PER_LINE", frozenset())
    for offset, kind, _, name, receiver, line, arity, keywords in sorted(raw_refs, key=itemgetter(0, 1, 2)):
        at = definition_at(offset)
        inner = at.qualname if at is not None else MODULE_QUALNAME
        outer = evaluated_in(at, offset) if kind not in inside_kinds else None
        for scope in (inner,) if outer is None else (inner, outer):
            if kind != "call" and kind not in per_line:  # value uses are deduplicated per scope; every call site is kept
                k = (kind, name, receiver, scope)
                if k in seen:
                    continue
                seen.add(k)
            references.append(make_tuple(Reference, (kind, name, receiver, line, scope, arity, keywords)))
    extra = _hook(hooks, "extra_references", None)
    if extra is not None:
        result.references.extend(extra(result.symbols, path, source))
    for offset, imp in sorted(raw_imports, key=lambda r: r[0]):
        scope = scope_of(offset)
        result.imports.append(imp if scope == imp.scope else _with_scope(imp, scope))
    finalize = _hook(hooks, "finalize", None)
    if finalize is not None:
        finalize(result)
    return result


def _with_scope(imp: Import, scope: str) -> Import:
    return Import(imp.module, imp.name, imp.alias, imp.level, imp.line, scope)


def _nest(defs: list[Definition], hooks: ModuleType, source: bytes, sep: str) -> list[Definition]:
    """Order definitions by position, link each to its innermost enclosing definition, name them."""
    span = _hook(hooks, "span", lambda n: n)
    decorators = _hook(hooks, "decorators", lambda n, s: ())
    outside = _hook(hooks, "evaluated_outside", lambda n: ())
    for d in defs:
        outer = span(d.node)  # a node, or (start_byte, end_byte) when the span is several siblings
        d.start, d.end = outer if isinstance(outer, tuple) else (outer.start_byte, outer.end_byte)
        d.decorators = tuple(decorators(d.node, source))
        d.outside = tuple(outside(d.node))
    defs.sort(key=lambda d: (d.start, -d.end))
    refine = _hook(hooks, "refine_kind", lambda d: d.kind)
    qualify = _hook(hooks, "qualify", lambda d, s: (d.parent.qualname + s + d.name) if d.parent else d.name)
    stack: list[Definition] = []
    counts: dict[str, int] = {}
    for d in defs:
        while stack and not (d.start >= stack[-1].start and d.end <= stack[-1].end):
            stack.pop()
        d.parent = stack[-1] if stack else None
        d.kind = refine(d)
        qualname = qualify(d, sep)
        # the same qualname twice (overloads, redefinitions, if/else branches): keep them apart
        n = counts.get(qualname, 0)
        counts[qualname] = n + 1
        d.qualname = qualname if n == 0 else f"{qualname}#{n + 1}"
        stack.append(d)
    return defs
