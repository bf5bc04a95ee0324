"""TypeScript and TSX: the JavaScript hooks (see ``javascript``) over the typescript / tsx grammars.

Adds interfaces, enums, abstract classes and ``implements``. Qualnames as in JavaScript, prefixed with the
``namespace`` / ``module`` blocks a top-level definition sits in (``NS.helper``). TypeScript optional
parameters (``x?``) are reported as ``x=`` like parameters with a default.
"""

from __future__ import annotations

from .javascript import (
    SEPARATOR,
    call_args,
    decorators,
    definition_name,
    docstring,
    is_test,
    is_test_file,
    make_imports,
    module_name,
    params,
    qualify,
    refine_kind,
    signature,
    span,
    split_callee,
)

__all__ = [
    "QUERY_FILES",
    "SEPARATOR",
    "call_args",
    "decorators",
    "definition_name",
    "docstring",
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
