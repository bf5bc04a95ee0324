"""The records of the code graph as the walks read it (:class:`Node`, :class:`EdgeIn`), how rows of the index
become them, the ``IN (...)`` lists their queries ask with, and what a symbol's kind and name say (a function, a
constructor, a special method Python calls itself, a conftest).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, NamedTuple

from .resolve import PROTOCOL_METHODS

__all__ = [
    "CONSTRUCTORS",
    "FUNCTION_KINDS",
    "IDENTIFIER",
    "NODE_SQL",
    "EdgeIn",
    "Node",
    "as_node",
    "chunks",
    "first_name",
    "in_list",
    "is_conftest",
    "is_special",
    "padded",
]

FUNCTION_KINDS = frozenset(("function", "method"))
_RUNNABLE_KINDS = frozenset(("function", "method", "test"))
#: what constructing an instance runs: a dataclass's generated __init__ calls __post_init__ (attrs: __attrs_post_init__)
CONSTRUCTORS = frozenset(("__init__", "__new__", "__post_init__", "__attrs_post_init__"))


class Node(NamedTuple):
    """A symbol of the index with what the walks need (a tuple: one review can load tens of thousands)."""

    id: int
    file_id: int
    path: str
    language: str
    qualname: str
    name: str
    kind: str
    start_line: int
    end_line: int
    parent_id: int | None
    is_test: int  # as stored: 0, 1 (the parser's mark) or 2 (a subclass of a test class of another file)
    in_test_file: int
    decorators_json: str
    params_json: str
    signature: str

    @property
    def decorators(self) -> tuple[str, ...]:
        """Decorator texts without ``@``."""
        return tuple(json.loads(self.decorators_json))

    @property
    def params(self) -> tuple[str, ...]:
        """Parameter names as the parser records them (``x``, ``x=``, ``*args``, ``**kw``, ``*``, ``/``)."""
        return tuple(json.loads(self.params_json))

    @property
    def label(self) -> str:
        """How a path (``via``) names this node: the qualname, the file path for a module."""
        return self.path if self.kind == "module" else self.qualname

    @property
    def runnable_test(self) -> bool:
        """A test a runner can select (a test function or method, or a JS/Ruby ``it`` block)."""
        return bool(self.is_test) and self.kind in _RUNNABLE_KINDS


class EdgeIn(NamedTuple):
    """An edge seen from its destination."""

    src: int
    dst: int
    kind: str
    confidence: float
    resolution: str
    line: int
    candidates: int = 1  # definitions a name match chose among


NODE_SQL = (
    "SELECT s.id, s.file_id, f.path, coalesce(f.language, ''), s.qualname, s.name, s.kind, s.start_line,"
    " s.end_line, s.parent_id, s.is_test, f.is_test, s.decorators, s.params, s.signature"
    " FROM symbols s JOIN files f ON f.id = s.file_id"
)
# rows become records without a Python call per row (NamedTuple._make is one): a review makes tens of thousands
as_node: Callable[[Sequence[Any]], Node] = partial(tuple.__new__, Node)


def chunks(items: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    """Slices of at most ``size`` items for ``IN (...)`` lists (padded: :func:`padded`)."""
    for i in range(0, len(items), size):
        yield padded(items[i : i + size], size)


def padded(items: Sequence[Any], limit: int = 1 << 20) -> Sequence[Any]:
    """``items`` for an ``IN (...)`` list, padded to a power of two (at most ``limit``) by repeating the last
    one (a value twice in an IN list changes nothing): statement texts then repeat, and sqlite3's statement
    cache spares compiling most of the thousand queries of a big review."""
    n = len(items)
    size = min(limit, 1 << (n - 1).bit_length()) if n else 0
    return items if size <= n else [*items, *[items[-1]] * (size - n)]


def in_list(ids: Sequence[Any]) -> str:
    """The ``?, ?, ...`` of an ``IN (...)`` list of ``ids``."""
    return ",".join("?" * len(ids))


def is_conftest(path: str) -> bool:
    return path == "conftest.py" or path.endswith("/conftest.py")  # (posixpath.basename: asked for every node)


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_special(name: str) -> bool:
    """A special method Python calls itself, other than the constructors (``__getattr__``, ``__getitem__``,
    ``__bool__``, ...; not a project's own ``__html__``, which is called by name)."""
    return name in PROTOCOL_METHODS and name not in CONSTRUCTORS


def first_name(qualname: str) -> str:
    """A qualname without the parser's numbers of repeated definitions (``C#2.f#3`` → ``C.f``)."""
    if "#" not in qualname:
        return qualname
    return ".".join(p.split("#", 1)[0] for p in qualname.split("."))
