"""TypeScript and TSX: the JavaScript hooks (see ``javascript``) over the typescript / tsx grammars.

Adds interfaces, enums, abstract classes and ``implements``. Qualnames as in JavaScript, prefixed with the
``namespace`` / ``module`` blocks a top-level definition sits in (``NS.helper``). TypeScript optional
parameters (``x?``) are reported as ``x=`` like parameters with a default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .javascript import (
    SEPARATOR,
    call_args,
    decorators,
    definition_name,
    docstring,
    finalize,
    is_test,
    is_test_file,
    make_imports,
    module_name,
    params,
    refine_kind,
    signature,
    span,
    split_callee,
)
from .javascript import qualify as _qualify

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

QUERY_FILES = {
    "typescript": ("ecmascript.scm", "typescript.scm"),
    "tsx": ("ecmascript.scm", "typescript.scm", "jsx.scm"),
}


def _namespace_prefix(node: Any, sep: str) -> str:
    """``A.B.`` for a definition inside ``namespace A.B { … }`` / ``module A { … }`` blocks."""
    names = []
    parent = node.parent
    while parent is not None:
        if parent.type in ("internal_module", "module"):
            name = parent.child_by_field_name("name")
            if name is not None and name.type != "string" and name.text:
                names.append(name.text.decode("utf-8", "replace"))
        parent = parent.parent
    return "".join(n + sep for n in reversed(names))


def qualify(d: Definition, sep: str) -> str:
    """As in JavaScript, top-level names prefixed with their namespaces (``Api.V1.route``)."""
    return _qualify(d, sep, _namespace_prefix(d.node, sep) if d.parent is None else "")
