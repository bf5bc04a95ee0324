"""Tree-sitter node helpers the language hook modules share: doc comments, spans, callees, arguments.

Hooks run once per definition, call or import (not per node), so these helpers may walk a few
siblings or ancestors but never a whole subtree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from typing import TYPE_CHECKING, Any

from ..parse import one_line, text

if TYPE_CHECKING:
    from ..model import ParseResult

__all__ = [
    "clean_comment",
    "comments_before",
    "count_args",
    "doc_comment",
    "drop_local_refs",
    "one_line",
    "preceding_siblings",
    "split_callee",
    "strip_generics",
    "text",
    "unquote",
]

_SEPARATORS = re.compile(r"(\?\.|\.|::|->)")
_GENERICS = re.compile(r"(::)?<[^<>()]*(<[^<>()]*>[^<>()]*)*>")
_COMMENT_MARKERS = re.compile(r"^\s*(/\*\*?|///?!?|#+|\*(?!/))\s?")
_COMMENT_END = re.compile(r"\s*\*+/\s*$")


def unquote(value: str) -> str:
    """A string literal's contents: its quotes (``'``, ``"`` or backticks) removed."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"`":
        return value[1:-1]
    return value


def comments_before(node: Any, comment_types: Container[str], skip_types: Container[str] = ()) -> list[Any]:
    """The comment nodes directly above ``node``, top to bottom: no blank line between them and the node.

    Nodes of ``skip_types`` (attributes between a doc comment and its item) are stepped over. When ``node``
    is the first child of a wrapper that starts where it does (a Ruby body, a C++ template), the comments
    before the wrapper count.
    """
    found: list[Any] = []
    current = node
    line = node.start_point[0]
    while True:
        prev = current.prev_sibling
        while prev is None:
            parent = current.parent
            if parent is None or parent.start_byte != current.start_byte or parent.parent is None:
                return found[::-1]
            current = parent
            prev = current.prev_sibling
        if prev.type in skip_types:
            current, line = prev, prev.start_point[0]
            continue
        if prev.type not in comment_types or prev.end_point[0] < line - 1:
            return found[::-1]
        found.append(prev)
        current, line = prev, prev.start_point[0]


def clean_comment(raw: str) -> str:
    """Comment text without ``//``, ``///``, ``#``, ``/** */`` and leading ``*`` markers, one line per line."""
    lines = raw.splitlines()
    out = []
    for i, ln in enumerate(lines):
        if i == len(lines) - 1:
            ln = _COMMENT_END.sub("", ln)
        out.append(_COMMENT_MARKERS.sub("", ln, count=1).rstrip())
    return "\n".join(out).strip()


def doc_comment(
    node: Any,
    source: bytes,
    comment_types: Container[str],
    accept: Callable[[str], bool],
    skip_types: Container[str] = (),
) -> str:
    """The doc comment right above ``node``: the nearest block comment, or the run of line comments,
    that ``accept`` (called with the raw text of each comment) takes."""
    comments = comments_before(node, comment_types, skip_types)
    if not comments:
        return ""
    raws = [text(c, source) for c in comments]
    if raws[-1].startswith("/*"):  # a block comment stands alone
        return clean_comment(raws[-1]) if accept(raws[-1]) else ""
    run: list[str] = []
    for raw in reversed(raws):
        if raw.startswith("/*") or not accept(raw):
            break
        run.append(raw)
    return "\n".join(clean_comment(r) for r in reversed(run))


def preceding_siblings(node: Any, types: Container[str]) -> list[Any]:
    """The run of siblings of ``types`` directly before ``node`` (comments in between are stepped over)."""
    found = []
    prev = node.prev_named_sibling
    while prev is not None and (prev.type in types or "comment" in prev.type):
        if prev.type in types:
            found.append(prev)
        prev = prev.prev_named_sibling
    return found[::-1]


def strip_generics(value: str) -> str:
    """``Vec::<u8>::new`` → ``Vec::new``, ``make_unique<Foo>`` → ``make_unique`` (one nesting level)."""
    return _GENERICS.sub("", value) if "<" in value else value


def split_callee(callee: str) -> tuple[str, str]:
    """(receiver, name) of a callee text split at its last ``.``, ``?.``, ``::`` or ``->``; the receiver is
    collapsed to one line (call chains span lines) and generic arguments are dropped."""
    callee = strip_generics(callee.strip())
    parts = _SEPARATORS.split(callee)
    if len(parts) == 1:
        return "", callee
    return one_line("".join(parts[:-2]), 200), parts[-1].strip()


def count_args(
    args: Any,
    source: bytes,
    *,
    spread: Container[str] = (),
    keyword: Callable[[Any], str | None] | None = None,
    ignore: Container[str] = ("comment", "line_comment", "block_comment"),
) -> tuple[int | None, tuple[str, ...]]:
    """Positional count (None when a ``spread`` node makes it unknown) and keyword names of an argument list."""
    positional = 0
    keywords: list[str] = []
    unknown = False
    for a in args.named_children:
        if a.type in ignore:
            continue
        if a.type in spread:
            unknown = True
            continue
        name = keyword(a) if keyword is not None else None
        if name is not None:
            keywords.append(name)
        else:
            positional += 1
    return (None if unknown else positional), tuple(keywords)


def drop_local_refs(result: ParseResult) -> None:
    """The ``finalize`` hook: drop value references (``ref``) to a parameter or typed local of their own scope.

    ``(arguments (identifier))`` patterns mostly catch variables; only the names that can be a function
    passed by name are worth resolving."""
    local: dict[str, set[str]] = {}
    for s in result.symbols:
        if s.params:
            local[s.qualname] = {p.lstrip("*").rstrip("=") for p in s.params}
    for r in result.references:
        if r.kind == "assign":
            local.setdefault(r.scope, set()).add(r.name)
    if local:
        result.references = [
            r
            for r in result.references
            if not (r.kind == "ref" and not r.receiver and r.name in local.get(r.scope, ()))
        ]
