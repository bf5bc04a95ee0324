"""Change impact: touched symbols, reverse BFS to dependants, related tests and findings.

The pipeline for a diff (:func:`review_diff`): read the diff (gitio), bring the index to the head side
of it (incremental), map hunks to the innermost symbols of both sides (the old side is parsed in memory),
then walk the graph backwards (``dst → src``) from the touched symbols:

- ``impacted``: every dependant up to ``depth`` edges away, with the path back (``via``), the kind of the
  last edge and a confidence (product of the edge confidences along the path), ranked and capped;
- ``tests``: test functions that reach a touched symbol, however deep, up to :data:`TEST_DEPTH_WINDOW` edges
  beyond its nearest test, calls of a private method of the caller's class not counted (import edges of whole modules are not followed: importing a module does not
  exercise its functions, unless module-level code calls the change), plus fixtures, ``setUp`` (and ``tearDown``) and
  naming conventions;
- ``findings``: deterministic rules (:data:`RULES`).

Everything is computed from the head-side index, so the same diff gives the same review whatever state
the index was in before. The graph questions (``callers``, ``impact``, ``tests-for``, ...) reuse the walks.
"""

from __future__ import annotations

import fnmatch
import gc
import io
import json
import logging
import posixpath
import re
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import groupby
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .errors import CrgError
from .languages import hooks_for, language_for_path, python
from .languages.python import TEST_BASES
from .model import (
    CLASS_KINDS,
    CLASS_TEST_HOOKS,
    FUNCTION_TEST_HOOKS,
    MAIN_SCOPE,
    MODULE_QUALNAME,
    MODULE_TEST_HOOKS,
    Symbol,
    decorator_name,
    param_name,
)
from .resolve import FAMILY_CONFIDENCE, PROTOCOL_METHODS
from .review import ChangedSymbol, Finding, Impacted, Related, RelatedTest, Review
from .store import escape_like

if TYPE_CHECKING:
    from .gitio import Diff, DiffSpec, FileChange, Repo
    from .indexer import Source
    from .pytest_settings import DoctestSettings
    from .store import Store
    from .workspace import Workspace


class SnapshotFiles(Protocol):
    """The files of the indexed snapshot, parsed or not (a :class:`~crg_review.workspace.Workspace`)."""

    def find_tracked(self, match: Callable[[str], bool], under: Sequence[str] = ("",)) -> list[str]: ...

    def read_tracked(self, path: str) -> bytes | None: ...

__all__ = [
    "DEFAULT_CAP",
    "RULES",
    "Graph",
    "Node",
    "callers",
    "dependents",
    "fail_reached",
    "find_symbols",
    "imports_of",
    "nodeid",
    "review_diff",
    "review_symbols",
    "source_for",
    "tests_for",
]

log = logging.getLogger(__name__)

#: most impacted symbols a review lists (the rest is counted in ``stats.impacted_cut``)
DEFAULT_CAP = 200
#: the related tests of a changed symbol are those at most this many edges farther from it than its nearest
#: test: a long chain of calls past the nearest tests is ever less likely to run (benchmarks/mutation_eval.py
#: on click 8.1.7: of the tests listed more than 6 edges beyond the nearest one, 6 % failed with the function
#: broken)
TEST_DEPTH_WINDOW = 6
#: a module whose body runs a change at most this many edges above it fails to import, and so does every module
#: importing it: those imports count nothing for the test window (:func:`walk_tests`)
FREE_IMPORT_LEVEL = 3
#: beyond the first edge, the test walk ignores edges less certain than this (name matches among many)
TEST_EDGE_MIN_CONFIDENCE = 0.2
#: how the resolver tells a call that runs one of the functions of a table the code takes one from by a key known
#: when it runs (or the wrapper a decorator made of one): however many, any caller may run each, so the walk follows
#: each whatever its share (segno's `_VALID_SERIALIZERS[ext](...)`, one of 12 writers). Not a descriptor's `__get__`
#: running one of the getters made with it (resolve: `decorated`): which one, the attribute read tells
_ONE_OF_KNOWN = frozenset(("table", "wrapper"))
#: confidence of a virtual edge from a call of an overridden base method to an override (dispatch)
DISPATCH_CONFIDENCE = 0.7
#: confidence of a virtual edge from the callers of an override to the base method it replaces
OVERRIDE_CONFIDENCE = 0.3
#: confidence of ``obj.m()`` in a scope that also uses m's class (the receiver's type is unknown)
RECEIVER_GUESS_CONFIDENCE = 0.5
#: calls a scope makes that count for what it uses (and the factory hop behind them)
FACTORY_MIN_CONFIDENCE = 0.5
#: the test walk guesses receivers for the changed methods and their callers this many edges away
RECEIVER_GUESS_MAX_DEPTH = 1
#: subclasses whose use counts as a use of the method's class in the receiver guess
RECEIVER_GUESS_MAX_CLASSES = 50
#: a method name used at more call sites than this is too common for the receiver guess
RECEIVER_GUESS_MAX_REFS = 2000
#: a method's name called on objects of unknown type at at most this many places that the resolver left
#: ambiguous (more classes define it than it matches): those places are listed among its callers
PROTOCOL_MAX_SITES = 30
#: the calls ``x.<name>()`` (bound as ``?``) that the resolver left ambiguous: more classes define the name
#: than it matches
_AMBIGUOUS_CALLS = (
    "FROM refs r JOIN unresolved u ON u.file_id = r.file_id AND u.ref_id = r.id"
    " WHERE r.name = ? AND r.kind = 'call' AND r.receiver != '' AND u.reason = 'ambiguous'"
)
#: the test walk looks at its :class:`Deadline` before every this many nodes
DEADLINE_CHECK_NODES = 256
#: asked about more scopes than this at once, the family check reads every edge into the family instead
#: (one query, kept for the rest of the review) of the edges out of those scopes
FAMILY_SCAN_SCOPES = 50

#: pytest's default ``python_classes``: a class bound to such a name in a test module is collected there
PYTEST_CLASS_PREFIX = "Test"
#: pytest's default ``python_functions``: a test function bound to such a name in a test module is collected there
PYTEST_FUNCTION_PREFIX = "test"

#: files whose change affects every test (at the repository root)
CONFIG_FILES = ("conftest.py", "pyproject.toml", "setup.cfg", "tox.ini", "pytest.ini")

#: rule id → (name, severity, description)
RULES: dict[str, tuple[str, str, str]] = {
    "CRG001": (
        "removed-symbol-still-referenced",
        "error",
        "A symbol or module removed or renamed by the change is still imported or called.",
    ),
    "CRG002": (
        "incompatible-call",
        "error",
        "A call passes a number or names of arguments the changed signature does not accept.",
    ),
    "CRG003": (
        "changed-function-untested",
        "warning",
        "A changed function is reached by no test (through the graph, fixtures or naming conventions).",
    ),
    "CRG004": (
        "new-public-function-unused",
        "warning",
        "A new public function has no caller and no test.",
    ),
}

_SEVERITY_RANK = {"note": 0, "warning": 1, "error": 2}
_FUNCTION_KINDS = frozenset(("function", "method"))
#: the pytest hook that collects tests from files that are not Python, and its collector classes' bases
COLLECT_HOOK = "pytest_collect_file"
_COLLECTOR_BASES = ("Item", "File", "Collector", "Module")
#: module-level functions Python calls on a module object (PEP 562)
_MODULE_HOOKS = frozenset(("__getattr__", "__dir__"))
_RUNNABLE_KINDS = frozenset(("function", "method", "test"))
_CLASS_KINDS = CLASS_KINDS
_SETUPS = frozenset((*CLASS_TEST_HOOKS, *MODULE_TEST_HOOKS, *FUNCTION_TEST_HOOKS))
#: the file name patterns a Sybil collector is given (``pattern="*.rst"``, ``patterns=["*.md", "*.py"]``)
_SYBIL_PATTERN = re.compile(r"\bpatterns?\s*=\s*(\[[^\]]*\]|\"[^\"]*\"|'[^']*')")
_QUOTED = re.compile(r"[\"']([^\"']+)[\"']")
#: the languages of a Markdown code block that Sybil's Python parsers run (none given: a block of any language)
_PYTHON_BLOCK_TAGS = frozenset(("python", "py", "python3", "pycon", ""))
_RST_CODE_BLOCK = re.compile(r"\s*\.\. (?:code-block|code|sourcecode)::\s*(?:python3?|py|pycon)\s*$")
#: what constructing an instance runs: a dataclass's generated __init__ calls __post_init__ (attrs: __attrs_post_init__)
_CONSTRUCTORS = frozenset(("__init__", "__new__", "__post_init__", "__attrs_post_init__"))
#: the functions of the standard library's doctest module that run the examples of a module given to them
_DOCTEST_RUNNERS = ("DocTestSuite", "run_docstring_examples", "testmod")
#: public methods of Python's built-in types and files: ``x.update()`` on a receiver the resolver could not
#: type is more likely a dict's than the one project method of that name
_BUILTIN_METHODS = frozenset(
    name
    for t in (dict, list, set, frozenset, str, bytes, bytearray, tuple, int, float, io.TextIOWrapper, io.BytesIO)
    for name in dir(t)
    if not name.startswith("_")
)
#: packages pytest imports whenever it runs (itself and the dependencies it imports on start-up): a project that is
#: one of them runs its tests under the code it changes
RUNNER_PACKAGES = frozenset(("pytest", "_pytest", "pluggy", "iniconfig"))
#: lines a `setattr(...)` call's arguments may span (a made test function given on a line of its own)
_SETATTR_SPAN = 3
#: special methods that run where an instance is used, not where it is made: a call of the class makes one
#: for later (``take = curry(_take)`` then ``take(2, xs)`` elsewhere; a descriptor made in a class body runs on
#: every attribute access; an iterable made to be handed on: bleach's ``LinkifyFilter(source=...)`` given to a
#: serializer that loops over its argument), so the scopes that call the class stand for its unknown users
_RUN_LATER = frozenset(("__call__", "__get__", "__set__", "__delete__", "__set_name__", "__iter__"))
#: special methods that may run where an instance is made in a class body (or its class is), on import: the others
#: run where it is used, and a class body's ``widget = FileInput()`` (wtforms) makes one for the users of its class
_RUN_ON_MAKING = _CONSTRUCTORS | frozenset(
    ("__set_name__", "__init_subclass__", "__class_getitem__", "__mro_entries__", "__hash__", "__eq__")
)
#: what pickle and copy call on an object: they run wherever an instance of the class is pickled or copied
_COPY_METHODS = frozenset(
    ("__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__getnewargs__", "__getnewargs_ex__")
    + ("__copy__", "__deepcopy__")
)
#: ``pickle.dumps(x)``, ``copy.deepcopy(x)``: the calls that run them, by module and function name
_COPY_MODULES = frozenset(("pickle", "_pickle", "cPickle", "cloudpickle", "dill", "copy"))
_COPY_CALLS = ("dumps", "loads", "dump", "load", "copy", "deepcopy")
#: bases that call no method of their subclasses by name (a class deriving only from these has no framework
#: calling into it)
_INERT_BASES = frozenset(
    ("object", "Generic", "Protocol", "ABC", "Exception", "BaseException", "NamedTuple", "TypedDict", "Enum")
)
#: methods a well-known class of the standard library calls on the instances of its subclasses, from code the index
#: does not have (C `datetime` calls a tzinfo's `fromutc` for `dt.astimezone(tz)` and `datetime.now(tz)`): the uses of
#: such a subclass stand for their callers as well, even where the repository calls them too (pytz's DstTzInfo)
_OUTSIDE_PROTOCOLS = {
    "tzinfo": frozenset(("utcoffset", "dst", "tzname", "fromutc")),
    "JSONEncoder": frozenset(("default",)),
    "Thread": frozenset(("run",)),
    "Handler": frozenset(("emit", "format", "filter", "handle", "flush")),
    "StreamHandler": frozenset(("emit", "format", "filter", "handle", "flush")),
    # logging calls a formatter's (structlog's `ProcessorFormatter(logging.Formatter)`) and a filter's methods
    "Formatter": frozenset(("format", "formatTime", "formatException", "formatStack", "formatMessage", "usesTime")),
    "Filter": frozenset(("filter",)),
    "NodeVisitor": frozenset(("generic_visit",)),
    "NodeTransformer": frozenset(("generic_visit",)),
    # requests calls a mounted transport adapter's (requests-mock's `Adapter(BaseAdapter).send`, after `session.mount`)
    "BaseAdapter": frozenset(("send", "close")),
    "HTTPAdapter": frozenset(("send", "close", "build_response", "get_connection", "cert_verify", "add_headers")),
    # html.parser's `feed()` calls a parser subclass's handlers
    "HTMLParser": frozenset(
        (
            "handle_starttag", "handle_endtag", "handle_startendtag", "handle_data", "handle_comment",
            "handle_entityref", "handle_charref", "handle_decl", "handle_pi", "unknown_decl",
        )
    ),
    # socketserver and http.server call a request handler's
    "BaseRequestHandler": frozenset(("setup", "handle", "finish")),
    "StreamRequestHandler": frozenset(("setup", "handle", "finish")),
    "BaseHTTPRequestHandler": frozenset(("do_GET", "do_POST", "do_PUT", "do_DELETE", "do_HEAD", "do_PATCH", "log_message")),
}
_OUTSIDE_PROTOCOL_NAMES = frozenset(n for names in _OUTSIDE_PROTOCOLS.values() for n in names)
#: methods the import system calls on any object in ``sys.meta_path`` or ``sys.path_hooks`` (a duck-typed protocol:
#: no base says so), for every import after it is put there (bottle's `_ImportRedirect.find_spec`)
_IMPORT_HOOKS = frozenset(("find_spec", "find_module", "load_module", "create_module", "exec_module"))
#: calls on a module-level table that hand out none of its values (`FORMATS.keys()`) or store into it
#: (`FILTERS.update({...})`, as python.STORING_METHODS): a module body making them calls nothing it holds
_TABLE_KEEPING = frozenset(
    ("keys", "__len__", "__contains__", "__bool__", "update", "append", "extend", "insert", "add", "setdefault", "__setitem__")
)
_PLAIN_DECORATORS = frozenset(("staticmethod", "classmethod", "property", "abstractmethod", "abc.abstractmethod"))
_KIND_ORDER = {"call": 0, "dispatch": 1, "inherit": 2, "fixture": 3, "ref": 4, "override": 5, "import": 6}


# --- the graph -----------------------------------------------------------------------------------


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


_NODE_SQL = (
    "SELECT s.id, s.file_id, f.path, coalesce(f.language, ''), s.qualname, s.name, s.kind, s.start_line,"
    " s.end_line, s.parent_id, s.is_test, f.is_test, s.decorators, s.params, s.signature"
    " FROM symbols s JOIN files f ON f.id = s.file_id"
)
_EDGE_COLUMNS = "src_id, dst_id, kind, confidence, resolution, line, candidates"
# rows become records without a Python call per row (NamedTuple._make is one): a review makes tens of thousands
_node: Callable[[Sequence[Any]], Node] = partial(tuple.__new__, Node)
_edge: Callable[[Sequence[Any]], EdgeIn] = partial(tuple.__new__, EdgeIn)
_DST = itemgetter(1)  # EdgeIn.dst


def _chunks(items: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    """Slices of at most ``size`` items for ``IN (...)`` lists (padded: :func:`_padded`)."""
    for i in range(0, len(items), size):
        yield _padded(items[i : i + size], size)


def _padded(items: Sequence[Any], limit: int = 1 << 20) -> Sequence[Any]:
    """``items`` for an ``IN (...)`` list, padded to a power of two (at most ``limit``) by repeating the last
    one (a value twice in an IN list changes nothing): statement texts then repeat, and sqlite3's statement
    cache spares compiling most of the thousand queries of a big review."""
    n = len(items)
    size = min(limit, 1 << (n - 1).bit_length()) if n else 0
    return items if size <= n else [*items, *[items[-1]] * (size - n)]


def _in(ids: Sequence[Any]) -> str:
    return ",".join("?" * len(ids))


class Graph:
    """Read-only, cached queries over the index's symbols and edges.

    A walk asks about a whole level at once (:meth:`prefetch`), so that each kind of fact costs one query per
    level rather than one per node; the per-node methods answer from the caches and load what is missing.
    """

    def __init__(self, conn: sqlite3.Connection, files: SnapshotFiles | None = None) -> None:
        self.conn = conn
        #: the files of the indexed snapshot that are not parsed (data files a conftest collects, doctest text
        #: files, pytest's settings); None: not known (every question about them answers "none")
        self.files = files
        self._doctest: DoctestSettings | None = None
        self._packages: frozenset[str] | None = None  # folders holding an __init__.py
        self._collected: dict[int, tuple[tuple[str, str], ...]] = {}  # conftest → its hook's (literal, how) name tests
        self._collector_classes: dict[int, frozenset[int]] = {}  # conftest file → its Item and File classes
        self._nodes: dict[int, Node] = {}
        self._absent: set[int] = set()
        self._incoming: dict[int, list[EdgeIn]] = {}
        self._bases: dict[int, list[int]] = {}
        self._subclasses: dict[int, list[int]] = {}
        self._children: dict[int, list[Node]] = {}
        self._methods: dict[int, dict[str, list[Node]]] = {}  # class → method name → methods
        self._names_above: dict[int, frozenset[str]] = {}  # class → method names of its bases
        self._aliases: dict[int, dict[str, list[int]]] = {}
        self._closure: dict[tuple[int, str], list[int]] = {}
        self._guesses: dict[int, list[EdgeIn]] = {}
        self._self_sites: dict[str, list[tuple[int, int]]] | None = None  # name → `self.name` sites of would-be methods
        self._copied: dict[int, list[EdgeIn]] = {}  # pickling hook → the scopes that pickle its class's objects
        self._copy_site_lines: dict[int, int] | None = None  # every scope that pickles or copies → its line
        self._families: dict[int, frozenset[int]] = {}
        self._outside_bases: dict[int, bool] = {}  # class → whether it names a base the index does not have
        self._written: dict[int, tuple[str, ...]] = {}  # class → :meth:`_written_bases`
        self._defines: dict[str, dict[int, bool]] = {}  # name → class → :meth:`_defining` (children not loaded)
        self._protocols: dict[str, bool] = {}  # method name → :meth:`_dispatched_by_name`
        self._parameter_calls: list[tuple[int, int]] | None = None  # :meth:`callable_callers`' sites
        self._examples: list[tuple[Node, set[str]]] | None = None  # :meth:`docstring_examples`
        self._fixtures: dict[int, list[int]] = {}  # scope → the fixtures it takes
        self._fixture_reach: dict[int, frozenset[int]] = {}
        self._class_scopes: dict[int, frozenset[int]] = {}  # class → :meth:`_class_reach`
        self._below_scopes: dict[int, frozenset[int]] = {}  # class → :meth:`_hierarchy_reach`
        self._family_checked: dict[int, set[int]] = {}  # class → scopes whose own edges were looked at
        self._family_hits: dict[int, set[int]] = {}  # class → those of them with an edge into its family
        self._wired_cache: dict[tuple[int, int], bool] = {}  # (owner, class) → :meth:`_wired`
        self._users: dict[int, set[int]] = {}  # node → :meth:`_confident_users` of it alone
        self._value_namers: dict[str, frozenset[int]] = {}  # name → scopes naming it as a value
        self._metaclasses: dict[int, bool] = {}  # class → whether it derives from `type`
        self._family_complete: set[int] = set()  # classes whose hits hold every scope with such an edge
        self._family_users: dict[int, dict[int, bool]] = {}  # class → scope → the same, fixtures included
        self._class_family: dict[tuple[int, int], bool] = {}
        self._modules: dict[int, int | None] = {}
        self._test_imports: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
        self._file_refs: dict[int, list[tuple[int, str, str, str, int]]] = {}
        self._importers: dict[int, list[tuple[int, int]]] = {}  # file → (src, line) of imports from other files
        self._file_tests: dict[str, list[Node]] = {}  # path → its runnable tests
        self._refs_roots: dict[int, dict[str, list[tuple[int, str, str, str, int]]]] = {}
        self._rooted: dict[tuple[int, str], list[tuple[int, str, str, str, int]]] = {}  # :meth:`_refs_rooted`
        self._bindings: dict[int, frozenset[str]] = {}
        self._table_readers: dict[tuple[int, int, int, float], list[EdgeIn] | None] = {}

    # nodes and edges

    def nodes(self, ids: Iterable[int]) -> dict[int, Node]:
        """Nodes by id (missing ids are left out)."""
        ids = list(ids)
        cache = self._nodes
        want = {i for i in ids if i not in cache} - self._absent
        if want:
            self._load_nodes(want)
        return {i: cache[i] for i in ids if i in cache}

    def _load_nodes(self, want: set[int]) -> None:
        cache = self._nodes
        for chunk in _chunks(sorted(want)):
            for n in map(_node, self.conn.execute(f"{_NODE_SQL} WHERE s.id IN ({_in(chunk)})", chunk)):
                cache[n.id] = n
        self._absent.update(i for i in want if i not in cache)

    def node(self, sid: int) -> Node:
        return self.nodes([sid])[sid]

    def file_nodes(self, path: str) -> list[Node]:
        """Every symbol of a file, in source order."""
        rows = self.conn.execute(f"{_NODE_SQL} WHERE f.path = ? ORDER BY s.start_line, s.id", (path,)).fetchall()
        out = [_node(r) for r in rows]
        for n in out:
            self._nodes.setdefault(n.id, n)
        return out

    def incoming(self, ids: Iterable[int]) -> dict[int, list[EdgeIn]]:
        """Edges into each of ``ids`` (``src → id``), self-loops left out."""
        ids = list(ids)
        cache = self._incoming
        want = sorted({i for i in ids if i not in cache})
        if want:
            for i in want:
                cache[i] = []
            for chunk in _chunks(want):
                # the index on dst_id yields (dst_id, id) in order: no sort, and one list per destination
                rows = self.conn.execute(
                    f"SELECT {_EDGE_COLUMNS} FROM edges WHERE dst_id IN ({_in(chunk)}) AND src_id != dst_id"
                    " ORDER BY dst_id, id",
                    chunk,
                )
                for dst, edges in groupby(map(_edge, rows), _DST):
                    cache[dst] = list(edges)
        return {i: cache[i] for i in ids}

    # definitions of the same name

    def aliases(self, node: Node) -> list[int]:
        """Other definitions of the same qualname in the same file (``f``, ``f#2``: ``typing.overload``
        stubs, conditional definitions): the resolver binds calls to the first one only."""
        if node.kind not in _FUNCTION_KINDS:
            return []
        groups = self._aliases.get(node.file_id)
        if groups is None:
            self._load_aliases([node.file_id])
            groups = self._aliases[node.file_id]
        if not groups:
            return []
        group = groups.get(node.qualname.split("#", 1)[0], [])
        return [i for i in group if i != node.id]

    def _load_aliases(self, file_ids: Iterable[int]) -> None:
        want = sorted({f for f in file_ids if f not in self._aliases})
        for f in want:
            self._aliases[f] = {}
        bases: set[str] = set()
        for chunk in _chunks(want):
            for sid, fid, qualname in self.conn.execute(
                f"SELECT id, file_id, qualname FROM symbols WHERE file_id IN ({_in(chunk)}) AND instr(qualname, '#') > 0"
                " ORDER BY file_id, qualname, id",
                chunk,
            ):
                base = qualname.split("#", 1)[0]
                self._aliases[fid].setdefault(base, []).append(sid)
                bases.add(base)
        with_groups = [f for f in want if self._aliases[f]]
        if not with_groups:
            return
        names = sorted(bases)
        for chunk in _chunks(with_groups):
            for sid, fid, qualname in self.conn.execute(
                f"SELECT id, file_id, qualname FROM symbols WHERE file_id IN ({_in(chunk)})"
                f" AND qualname IN ({_in(names)})",
                [*chunk, *names],
            ):
                group = self._aliases[fid].get(qualname)
                if group is not None:
                    group.insert(0, sid)

    def callers_of(self, node: Node, incoming: dict[int, list[EdgeIn]]) -> list[EdgeIn]:
        """Edges into ``node`` and into its aliases (as edges into ``node``)."""
        edges = list(incoming.get(node.id, ()))
        others = self.aliases(node)
        if others:
            # a property's setter stands for its getter's readers (who sets it mostly reads it too), but not for a
            # scope that reads every property by a name made elsewhere (`getattr(self, option)`: a guess)
            setter = any(d.endswith((".setter", ".deleter")) for d in node.decorators)
            for e in (e for edges_in in self.incoming(others).values() for e in edges_in):
                if e.src != node.id and not (setter and e.resolution == "getattr"):
                    edges.append(e._replace(dst=node.id))
        return edges

    # classes

    def bases(self, class_id: int) -> list[int]:
        """In-repo base classes (direct)."""
        if class_id not in self._bases:
            self._load_inherit([class_id], "bases")
        return self._bases[class_id]

    def subclasses(self, class_id: int) -> list[int]:
        """In-repo direct subclasses."""
        if class_id not in self._subclasses:
            self._load_inherit([class_id], "subclasses")
        return self._subclasses[class_id]

    def _load_inherit(self, ids: Iterable[int], which: str) -> None:
        cache = self._bases if which == "bases" else self._subclasses
        want = sorted({i for i in ids if i not in cache})
        if not want:
            return
        for i in want:
            cache[i] = []
        sql = (
            "SELECT src_id, dst_id FROM edges WHERE src_id IN ({}) AND kind='inherit' ORDER BY line, id"
            if which == "bases"
            else "SELECT dst_id, src_id FROM edges WHERE dst_id IN ({}) AND kind='inherit' ORDER BY src_id"
        )
        for chunk in _chunks(want):
            for key, value in self.conn.execute(sql.format(_in(chunk)), chunk):
                cache[key].append(value)

    def classes_called_at(self, scope: int, line: int) -> set[int]:
        """The classes ``scope`` calls (constructs) at ``line``."""
        kinds = sorted(_CLASS_KINDS)
        return {
            r[0]
            for r in self.conn.execute(
                "SELECT e.dst_id FROM edges e JOIN symbols s ON s.id = e.dst_id WHERE e.src_id = ? AND e.line = ?"
                f" AND e.kind = 'call' AND s.kind IN ({_in(kinds)})",
                (scope, line, *kinds),
            )
        }

    def family(self, classes: Iterable[int]) -> set[int]:
        """The classes an instance of one of ``classes`` may also be an instance of, or be seen as: each class, its
        in-repo bases and its subclasses."""
        out: set[int] = set()
        for c in classes:
            out.add(c)
            out.update(self._transitive(c, "bases"))
            out.update(self._transitive(c, "subclasses"))
        return out

    def _transitive(self, start: int, which: str) -> list[int]:
        """Transitive bases or subclasses, nearest first."""
        key = (start, which)
        found = self._closure.get(key)
        if found is None:
            cache = self._bases if which == "bases" else self._subclasses
            # a walk level has usually loaded the hierarchy already (prefetch): load only what is missing
            if start not in cache:
                self.prefetch_closure([start], which)
            seen: dict[int, None] = {}  # ordered: nearest first
            queue = deque(cache[start])
            while queue:
                c = queue.popleft()
                if c in seen or c == start:
                    continue
                seen[c] = None
                step = cache.get(c)
                if step is None:
                    self.prefetch_closure([c], which)
                    step = cache[c]
                queue.extend(step)
            found = self._closure[key] = list(seen)
        return found

    def _subclasses_first(self, start: int, limit: int) -> list[int]:
        """``_transitive(start, "subclasses")[:limit]`` without walking the whole tree below a class that
        hundreds of classes extend: the same breadth-first order, expanding a class only when the classes
        already known do not make ``limit`` (a level of expansions is one query)."""
        if (start, "subclasses") in self._closure:
            return self._closure[(start, "subclasses")][:limit]
        seen: dict[int, None] = {}
        queue = deque(self.subclasses(start))
        pending: list[int] = []  # found, not expanded yet: their subclasses come after everything queued
        while len(seen) < limit:
            if not queue:
                if not pending:
                    break
                self._load_inherit(pending, "subclasses")
                for c in pending:
                    queue.extend(self._subclasses[c])
                pending = []
                continue
            c = queue.popleft()
            if c in seen or c == start:
                continue
            seen[c] = None
            pending.append(c)
        return list(seen)

    def prefetch_closure(self, starts: Iterable[int], which: str) -> None:
        """Load the transitive bases or subclasses of ``starts``: one query per level of the hierarchy."""
        cache = self._bases if which == "bases" else self._subclasses
        seen: set[int] = set()
        frontier = {s for s in starts if (s, which) not in self._closure}  # a known closure is loaded already
        while frontier:
            self._load_inherit(frontier, which)
            seen |= frontier
            frontier = {c for f in frontier for c in cache[f]} - seen

    def children(self, sid: int) -> list[Node]:
        """Definitions directly inside a symbol."""
        if sid not in self._children:
            self._load_children([sid])
        return self._children[sid]

    def _load_children(self, ids: Iterable[int]) -> None:
        want = sorted({i for i in ids if i not in self._children})
        for i in want:
            self._children[i] = []
        for chunk in _chunks(want):
            for n in map(
                _node,
                self.conn.execute(
                    f"{_NODE_SQL} WHERE s.parent_id IN ({_in(chunk)}) ORDER BY s.start_line, s.id", chunk
                ),
            ):
                self._children[n.parent_id].append(n)  # type: ignore[index]
                self._nodes.setdefault(n.id, n)

    def _methods_of(self, class_ids: Sequence[int]) -> list[dict[str, list[Node]]]:
        """For each class, its methods by name (source order)."""
        missing = [c for c in class_ids if c not in self._methods]
        if missing:
            self._load_children(missing)
            for c in missing:
                by_name: dict[str, list[Node]] = {}
                for m in self._children[c]:
                    if m.kind == "method":
                        by_name.setdefault(m.name, []).append(m)
                self._methods[c] = by_name
        return [self._methods[c] for c in class_ids]

    def base_methods(self, method: Node) -> list[Node]:
        """Same-name methods of the (transitive) base classes: calls to them may dispatch to ``method``."""
        if method.kind != "method" or method.parent_id is None or method.name.startswith("__"):
            return []
        names = self._names_above.get(method.parent_id)
        if names is None:  # the method names of every base class, to answer most methods without a loop
            above = self._methods_of(self._transitive(method.parent_id, "bases"))
            names = self._names_above[method.parent_id] = frozenset(n for by_name in above for n in by_name)
        if method.name not in names:
            return []
        out: list[Node] = []
        for by_name in self._methods_of(self._transitive(method.parent_id, "bases")):
            out.extend(by_name.get(method.name, ()))
        return out

    def overriding_methods(self, method: Node) -> list[Node]:
        """Same-name methods of the (transitive) subclasses."""
        if method.kind != "method" or method.parent_id is None or method.name.startswith("__"):
            return []
        classes = self._transitive(method.parent_id, "subclasses")
        if not classes:
            return []
        out: list[Node] = []
        for by_name in self._methods_of(classes):
            out.extend(by_name.get(method.name, ()))
        return out

    # what scopes use: the receiver guess

    def receiver_guesses(self, method: Node) -> list[EdgeIn]:
        """Scopes that call ``x.<name>()`` on an unknown receiver and also use the method's class (or a
        subclass, or get one from a fixture): likely callers the resolver could not pin down."""
        if method.id not in self._guesses:
            self._guesses[method.id] = self._receiver_guesses(method)
        return self._guesses[method.id]

    def class_family(self, method: Node) -> frozenset[int]:
        """The method's class, its subclasses and their ``__init__``: what a scope calls or names when it
        makes or names an object that has the method (empty for a function)."""
        if method.kind != "method" or method.parent_id is None:
            return frozenset()
        if method.parent_id not in self._families:
            # a base of hundreds of classes (an ORM model) is used everywhere: its subclasses say little
            classes = [method.parent_id, *self._subclasses_first(method.parent_id, RECEIVER_GUESS_MAX_CLASSES)]
            self._load_children(classes)
            ids = set(classes)
            for cls in classes:
                ids.update(c.id for c in self._children[cls] if c.name == "__init__")
            self._families[method.parent_id] = frozenset(ids)
        return self._families[method.parent_id]

    def _load_fixtures(self, scopes: Iterable[int]) -> None:
        """The fixtures each scope takes (its ``fixture`` edges), fixtures of fixtures included."""
        frontier = {s for s in scopes if s not in self._fixtures}
        while frontier:  # one query per level
            want = sorted(frontier)
            for s in want:
                self._fixtures[s] = []
            for chunk in _chunks(want, 900):
                for src, dst in self.conn.execute(
                    f"SELECT src_id, dst_id FROM edges WHERE src_id IN ({_in(chunk)}) AND kind='fixture'", chunk
                ):
                    self._fixtures[src].append(dst)
            frontier = {f for s in want for f in self._fixtures[s] if f not in self._fixtures}

    def _with_fixtures(self, scope: int) -> frozenset[int]:
        """The scope and every fixture it takes, directly or through other fixtures."""
        found = self._fixture_reach.get(scope)
        if found is None:
            if scope not in self._fixtures:
                self._load_fixtures([scope])
            seen = {scope}
            todo = [scope]
            while todo:  # pytest refuses fixture cycles; stop at one anyway
                for f in self._fixtures[todo.pop()]:
                    if f not in seen:
                        seen.add(f)
                        todo.append(f)
            found = self._fixture_reach[scope] = frozenset(seen)
        return found

    def family_users(self, method: Node, scopes: Iterable[int]) -> set[int]:
        """The scopes that build or name the method's class or a subclass (:meth:`class_family`): an edge
        to one, or a call of a function that calls one that is a class or a constructor (factories: ``bar =
        progressbar(...)`` builds a ProgressBar), from the scope itself or from a fixture it takes (fixtures
        of fixtures too: a test gets its objects from its fixtures)."""
        family = self.class_family(method)
        if not family:
            return set()
        answers = self._family_users.setdefault(method.parent_id, {})  # type: ignore[arg-type]
        scopes = set(scopes)
        new = [s for s in scopes if s not in answers]
        if new:
            self._load_fixtures(new)
            reach = [self._fixture_reach.get(s) or self._with_fixtures(s) for s in new]
            hits = self._family_hits_among(method, set().union(*reach))  # set algebra: thousands of scopes per level
            for s, xs in zip(new, reach):
                answers[s] = not hits.isdisjoint(xs)
        return {s for s in scopes if answers[s]}

    def _family_hits_among(self, method: Node, scopes: set[int]) -> set[int]:
        """The family hits of the method's class known so far, with every one among ``scopes`` (their own edges, no
        fixtures): :meth:`_family_edges_from` for the scopes not looked at yet, or for every scope at once when
        they are many (one pass over the family's edges)."""
        family = self.class_family(method)
        checked = self._family_checked.setdefault(method.parent_id, set())  # type: ignore[arg-type]
        hits = self._family_hits.setdefault(method.parent_id, set())  # type: ignore[arg-type]
        todo = scopes - checked
        if todo and method.parent_id not in self._family_complete:
            if len(todo) > FAMILY_SCAN_SCOPES:
                hits |= self._family_edges_from(family, None)
                self._family_complete.add(method.parent_id)  # type: ignore[arg-type]
            else:
                hits |= self._family_edges_from(family, sorted(todo))
                checked |= todo
        return hits

    def _family_edges_from(self, family: frozenset[int], scopes: Sequence[int] | None) -> set[int]:
        """The scopes (of ``scopes``; None: any) with an edge to a member of ``family``, or a call (confidence
        at least :data:`FACTORY_MIN_CONFIDENCE`) of a function with such a call of a member that is a class
        or a constructor. The database does the filtering: the edges themselves are never loaded."""
        members = sorted(family)
        nodes = self.nodes(members)
        made = [m for m in members if m in nodes and (nodes[m].kind in _CLASS_KINDS or nodes[m].name in _CONSTRUCTORS)]
        hit: set[int] = set()
        members, made = list(_padded(members)), list(_padded(made))
        for chunk in [None] if scopes is None else _chunks(scopes):
            among = "" if chunk is None else f" AND src_id IN ({_in(chunk)})"
            hit.update(
                r[0]
                for r in self.conn.execute(
                    f"SELECT DISTINCT src_id FROM edges WHERE dst_id IN ({_in(members)}){among}",
                    [*members, *(chunk or ())],
                )
            )
            if made:
                hit.update(
                    r[0]
                    for r in self.conn.execute(
                        "SELECT DISTINCT e1.src_id FROM edges e2 JOIN edges e1 ON e1.dst_id = e2.src_id"
                        f" WHERE e2.dst_id IN ({_in(made)}) AND e2.kind = 'call' AND e2.confidence >= ?"
                        f" AND e1.kind = 'call' AND e1.confidence >= ?{among.replace('src_id', 'e1.src_id')}",
                        [*made, FACTORY_MIN_CONFIDENCE, FACTORY_MIN_CONFIDENCE, *(chunk or ())],
                    )
                )
        return hit

    def uses_class_of(self, scope: int, method: Node) -> bool:
        """Whether ``scope`` (or a fixture it takes, or, for a method, its class) builds or names the
        method's class or a subclass: an ``x.<name>()`` there whose receiver the resolver could not
        type is then likely this method."""
        if not self.class_family(method):
            return False
        known = self._family_users.get(method.parent_id)  # type: ignore[arg-type]
        if known is not None and known.get(scope):
            return True
        if (known is None or scope not in known) and self.family_users(method, [scope]):
            return True
        node = self.nodes([scope]).get(scope)
        if node is None:
            return False
        if node.kind != "method" or node.parent_id is None:
            return self._wired(node.id, method)
        return self._class_uses_family(node.parent_id, method) or self._wired(node.parent_id, method)

    def _method_to_be(self, fn: Node, method: Node) -> bool:
        """Whether ``fn`` is a function written to become a method of a class of its own file that has the
        method: its first parameter is ``self`` and its file defines the method's class or a subclass (a test
        maker's ``def test(self): self.check(...)``, attached with ``setattr(SpecTestCase, name, make(...))``)."""
        if fn.kind not in _FUNCTION_KINDS or fn.params[:1] != ("self",):
            return False
        classes = self.nodes(self.class_family(method))
        return any(c.file_id == fn.file_id and c.kind in _CLASS_KINDS for c in classes.values())

    def _wired(self, owner: int, method: Node) -> bool:
        """Whether a scope outside the tests that builds or names the method's class also uses ``owner`` (a
        class: itself or one of its methods; else a function) through a sure enough edge: a builder that
        puts instances of the one into the other (``stack.enable_grouping(); stack.stmtprocess.append(ReindentFilter())``
        for ``for f in self.stmtprocess: f.process(stmt)`` in ``FilterStack.run``)."""
        key = (owner, method.parent_id or 0)
        found = self._wired_cache.get(key)
        if found is None:
            node = self.nodes([owner]).get(owner)
            members = [owner]
            if node is not None and node.kind in _CLASS_KINDS:
                members += [c.id for c in self.children(owner) if c.kind in _FUNCTION_KINDS]
            found = False
            # a nested function's receiver may be a parameter of a function around it, which that function's callers
            # fill (`def cached(cache): def decorator(f): def wrapper(*a): cache.setdefault(...)`): the makers stand
            # for it, and the builder may be a caller of a caller (`fifo_cache` makes a FIFOCache and calls `_cache`,
            # whose nested `decorator` calls `cached`)
            hops = 2 if node is not None and self._makers(node) else 1
            for hop in range(hops):
                members += [m.id for n in self.nodes(members).values() for m in self._makers(n)]
                taken = set(members)
                users = self._confident_users(members) - taken
                if self._project_builders(method, users):
                    found = True
                    break
                if hop + 1 < hops:
                    members = sorted(users | taken)
            self._wired_cache[key] = found
        return found

    def _project_builders(self, method: Node, scopes: set[int]) -> list[int]:
        """The scopes of ``scopes`` that build or name the method's class family (:meth:`_family_hits_among`) in code
        of the project: a test that uses both classes is a user, not a builder. A check asks about the few users of
        its members, never about every builder of a family (thousands for a django model field) and what they use."""
        hits = self._family_hits_among(method, scopes)
        return [s for s, n in self.nodes(hits.intersection(scopes)).items() if not n.in_test_file]

    def _makers(self, node: Node) -> list[Node]:
        """The functions a function is nested in, innermost first."""
        out: list[Node] = []
        while node.kind in _FUNCTION_KINDS and node.parent_id is not None:
            parent = self.nodes([node.parent_id]).get(node.parent_id)
            if parent is None or parent.kind not in _FUNCTION_KINDS:
                break
            out.append(parent)
            node = parent
        return out

    def runs_on_import(self, node: Node) -> bool:
        """Whether the body of a class runs when its module is imported: no function encloses it (a class a
        test function defines runs with that test only)."""
        while node.parent_id is not None:
            parent = self.nodes([node.parent_id]).get(node.parent_id)
            if parent is None or parent.kind in _FUNCTION_KINDS:
                return False
            node = parent
        return True

    def _confident_users(self, ids: Sequence[int]) -> set[int]:
        """The scopes with an edge of confidence at least FACTORY_MIN_CONFIDENCE into any of ``ids`` (kept per
        node: the same classes and their methods come up for every class family a level checks)."""
        self._load_users(ids)
        return set().union(*(self._users[i] for i in ids))

    def _load_users(self, ids: Iterable[int]) -> None:
        # from the edges the walk loaded already, else the sources alone (half the members a builder check asks
        # about never come up in the walk: a class's methods); a self-loop (left out) would add a node to itself
        missing = sorted({i for i in ids if i not in self._users})
        want = []
        for i in missing:
            edges = self._incoming.get(i)
            if edges is None:
                want.append(i)
                self._users[i] = set()
            else:
                self._users[i] = {e.src for e in edges if e.confidence >= FACTORY_MIN_CONFIDENCE}
        for chunk in _chunks(want):
            for dst, src in self.conn.execute(
                f"SELECT dst_id, src_id FROM edges WHERE dst_id IN ({_in(chunk)}) AND src_id != dst_id"
                " AND confidence >= ?",
                [*chunk, FACTORY_MIN_CONFIDENCE],
            ):
                self._users[dst].add(src)

    def _class_uses_family(self, class_id: int, method: Node) -> bool:
        """Whether a class body or one of its own methods builds or names the method's class (``signer =
        Signer`` in the body tells what ``signer.unsign()`` in a method means)."""
        key = (class_id, method.parent_id or 0)
        if key not in self._class_family:
            members = [class_id, *(c.id for c in self.children(class_id) if c.kind in _FUNCTION_KINDS)]
            self._class_family[key] = bool(self.family_users(method, members))
        return self._class_family[key]

    def prefetch_receiver_checks(self, checks: dict[int, set[int]]) -> None:
        """Answer, in a few queries, what :meth:`uses_class_of` will be asked for ``{method id: scopes}``."""
        methods = self.nodes(checks)
        self._load_inherit(
            {
                m.parent_id
                for m in methods.values()
                if m.kind == "method" and m.parent_id is not None and m.parent_id not in self._families
            },
            "subclasses",
        )
        scope_nodes = self.nodes({s for ss in checks.values() for s in ss})
        self._load_fixtures(scope_nodes)
        by_family: dict[int, tuple[Node, set[int]]] = {}
        for mid, scopes in checks.items():
            method = methods.get(mid)
            if method is not None and self.class_family(method):
                by_family.setdefault(method.parent_id, (method, set()))[1].update(scopes)  # type: ignore[arg-type]
        for method, scopes in by_family.values():
            users = self.family_users(method, scopes)
            owners = (scope_nodes.get(s) for s in scopes - users)
            self._prefetch_class_family(
                {n.parent_id for n in owners if n is not None and n.kind == "method" and n.parent_id is not None},
                method,
            )

    def _receiver_guesses(self, method: Node) -> list[EdgeIn]:
        if method.kind != "method" or method.parent_id is None or method.name.startswith("__"):
            return []
        # not the calls on an object the resolver knows is a library's (unresolved as external)
        outside = (
            " AND NOT EXISTS (SELECT 1 FROM unresolved u WHERE u.file_id = r.file_id AND u.ref_id = r.id"
            " AND u.reason = 'external')"
        )
        (count,) = self.conn.execute(
            "SELECT count(*) FROM refs r WHERE name=? AND kind IN ('call','attr') AND receiver != ''" + outside,
            (method.name,),
        ).fetchone()
        if count == 0 or count > RECEIVER_GUESS_MAX_REFS:
            return []
        # not the sites the resolver pinned to this very method (h2's `H2StreamStateMachine.recv_alt_svc` named in a
        # module-level table: a reference of the method, no call on an unknown object)
        pinned = {(r[0], r[1]) for r in self.conn.execute("SELECT src_id, line FROM edges WHERE dst_id=?", (method.id,))}
        sites: dict[int, int] = {}
        for scope, line, receiver in self.conn.execute(
            "SELECT scope_id, line, receiver FROM refs r WHERE name=? AND kind IN ('call','attr') AND receiver != ''"
            + outside,
            (method.name,),
        ):
            if receiver not in ("self", "cls") and not receiver.startswith("super") and (scope, line) not in pinned:
                sites.setdefault(scope, line)
        if not sites:
            return []
        users = self.family_users(method, sites)
        return [
            EdgeIn(s, method.id, "call", RECEIVER_GUESS_CONFIDENCE, "receiver-guess", sites[s])
            for s in sorted(users)
            if s != method.id
        ]

    def self_callers(self, method: Node) -> list[EdgeIn]:
        """``self.m()`` in functions written to become methods of a class of their file that has the method
        (:meth:`_method_to_be`: a test maker's ``def test(self): self.check(...)``), at any depth of the walk: the
        resolver leaves them to a name match, and nothing else says whose ``self`` it is."""
        if method.kind != "method" or method.parent_id is None:
            return []
        if self._self_sites is None:
            self._self_sites = {}
            # the few such functions first, then their files' references (no scan of every reference)
            made = self.conn.execute(
                "SELECT id, file_id FROM symbols WHERE kind = 'function' AND params LIKE '[\"self\"%'"
            ).fetchall()
            ids = {sid for sid, _ in made}
            for chunk in _chunks(sorted({fid for _, fid in made})):
                for scope, name, line in self.conn.execute(
                    f"SELECT scope_id, name, min(line) FROM refs WHERE file_id IN ({_in(chunk)})"
                    " AND kind IN ('call','attr') AND receiver = 'self' GROUP BY scope_id, name",
                    chunk,
                ):
                    if scope in ids:
                        self._self_sites.setdefault(name, []).append((scope, line))
        sites = self._self_sites.get(method.name)
        if not sites:
            return []
        fns = self.nodes(s for s, _ in sites)
        return [
            EdgeIn(s, method.id, "call", RECEIVER_GUESS_CONFIDENCE, "receiver-guess", line)
            for s, line in sites
            if s in fns and s != method.id and self._method_to_be(fns[s], method)
        ]

    # modules

    def module_symbol(self, file_id: int) -> int | None:
        """The module symbol of a file."""
        if file_id not in self._modules:
            row = self.conn.execute(
                "SELECT id FROM symbols WHERE file_id=? AND kind='module' ORDER BY id LIMIT 1", (file_id,)
            ).fetchone()
            self._modules[file_id] = row[0] if row else None
        return self._modules[file_id]

    def file_importers(self, module: Node) -> list[EdgeIn]:
        """Import edges into any symbol of the module's file, as edges into the module: importing any name
        of a module runs its body. A package's ``__init__.py`` runs before any of its modules, so importing
        anything below the package runs it too."""
        package = _package_dir(module)
        if package is None:
            self.prefetch_file_importers([module])
            rows: Iterable[tuple[int, int]] = self._importers[module.file_id]
        else:
            # the files first (CROSS JOIN keeps that order), then their import edges: left to itself, SQLite
            # reads every edge into those files (edges_dst_file), ten times the work for a top package
            rows = self.conn.execute(
                "SELECT DISTINCT e.src_id, e.line FROM files f CROSS JOIN edges e INDEXED BY edges_import"
                " ON e.dst_file_id=f.id"
                " WHERE (f.path LIKE ? ESCAPE '\\') AND e.kind='import' AND e.file_id != ? ORDER BY e.src_id, e.line",
                (escape_like(package) + "%", module.file_id),
            )
        return [EdgeIn(src, module.id, "import", 1.0, "import-time", line) for src, line in rows]

    def prefetch_file_importers(self, modules: Iterable[Node]) -> None:
        """Load the import edges into the files of many modules (not packages: :meth:`file_importers`) at once."""
        want = sorted({m.file_id for m in modules if m.file_id not in self._importers and _package_dir(m) is None})
        for f in want:
            self._importers[f] = []
        for chunk in _chunks(want):
            for f, src, line in self.conn.execute(
                "SELECT DISTINCT dst_file_id, src_id, line FROM edges"
                f" WHERE dst_file_id IN ({_in(chunk)}) AND kind='import' AND file_id != dst_file_id"
                " ORDER BY dst_file_id, src_id, line",
                chunk,
            ):
                self._importers[f].append((src, line))

    def table_readers(self, module: Node, fn: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        """For a function the module body names (``edge``) without calling it: the scopes that read the
        module-level variables the naming statements store it in (``FORMATS = {"pipe": Format(line=fn)}``;
        ``FORMATS.get(name)`` in a function of the module, or of a module importing ``FORMATS``, also under an
        alias or through a re-export), as edges into ``fn``. None when some statement does something else
        with it (``register(fn)``, ``obj.attr = fn``, a module body reading the table): what runs it is not
        known, and the caller takes the module's importers; likewise when the module names ``fn`` under
        another name (an import alias) or names something else that leads to it (its class, for a special
        method run on the class's instances: who makes them is not who reads the table)."""
        key = (module.id, fn.id, 0, edge.confidence)
        if key not in self._table_readers:
            self._table_readers[key] = self._find_table_readers(module, fn, edge)
        return self._table_readers[key]

    def _find_table_readers(self, module: Node, fn: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        holds = [
            r
            for r in self._refs_of(module.file_id)
            if r[0] == module.id and r[1] == "holds" and r[2].rpartition(".")[2] == fn.name
        ]
        if not holds or any(not r[3] for r in holds):
            return None
        return self._readers_of(module, fn, [r[3] for r in holds], edge.confidence)

    def instance_readers(self, module: Node, method: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        """For a method Python runs on instances later (``__call__``, a framework hook: Graph.constructed_via
        gives the construction as its caller) and an instance the module body makes: the readers of the
        variable the module stores it in (``validate_email = EmailValidator()``: whoever calls or passes on
        ``validate_email``), as edges into the method; None when the statement stores it in no variable."""
        key = (module.id, method.id, edge.line, edge.confidence)  # one instance per construction
        if key not in self._table_readers:
            self._table_readers[key] = self._find_instance_readers(module, method, edge)
        return self._table_readers[key]

    def _find_instance_readers(self, module: Node, method: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        if method.kind != "method" or method.parent_id is None or method.name in _CONSTRUCTORS:
            return None
        classes = {method.parent_id, *self._transitive(method.parent_id, "subclasses")}
        made = self._stored_instances(module, edge.line, {n.name for n in self.nodes(classes).values()})
        if not made or any("." in name or "[" in name for name in made):
            return None
        return self._readers_of(module, method, made, edge.confidence)

    def _stored_instances(self, module: Node, line: int, class_names: set[str]) -> list[str]:
        """The module-level variables the module body assigns, at ``line``, a call of a class named in
        ``class_names`` (``validate_email = EmailValidator()``; ``x.y`` or ``T[k]`` targets as written)."""
        return [
            r[2]
            for r in self._refs_of(module.file_id)
            if r[0] == module.id and r[1] == "assign" and r[4] == line and r[3].rpartition(".")[2] in class_names
        ]

    def _readers_of(self, module: Node, fn: Node, variables: list[str], confidence: float) -> list[EdgeIn] | None:
        """The scopes reading module-level ``variables`` of ``module`` (see :meth:`table_readers`) as edges into
        ``fn``; None when the module body itself uses one of them, or when a scope no import explains reads
        one by its name as an attribute."""
        todo = deque((module.file_id, module.id, v) for v in variables)
        seen: set[tuple[int, str]] = set()
        readers: dict[int, int] = {}  # scope → line of its first read
        guessed: dict[int, int] = {}  # the same for reads by attribute name only
        asked: set[str] = set()
        modules: set[int] = set()  # the modules whose bodies were looked at
        while todo:
            fid, mid, variable = todo.popleft()
            if (fid, variable) in seen:
                continue
            seen.add((fid, variable))
            reads = [r for r in self._refs_rooted(fid, _root(variable)) if _reads_variable(variable, r)]
            at_import = [r for r in reads if r[0] == mid]
            stored_lines = {r[4] for r in at_import if r[1] in ("holds", "assign", "alias")}
            for scope, kind, name, receiver, line in at_import:
                if kind == "holds":  # `ALL = [FORMATS, ...]`: another variable holds what this one does
                    if not receiver:
                        return None
                    todo.append((fid, mid, receiver))
                elif kind in ("assign", "alias") and receiver:  # `DEFAULTS = FORMATS.copy()`, `DEFAULTS = FORMATS`
                    if "." in name:
                        return None
                    todo.append((fid, mid, name))
                elif kind == "call" and (_table_access(variable, receiver, name) in _TABLE_KEEPING or line in stored_lines):
                    continue  # `sorted(FORMATS.keys())`, `FILTERS.update(...)`, `DEFAULTS = FORMATS.copy()`
                elif kind not in ("ref", "attr", "type"):  # the module body uses the table: it may call fn
                    return None
            for r in reads:
                if r[0] != mid and r[0] != fn.id:
                    readers.setdefault(r[0], r[4])
            if "." in variable:
                continue  # `mod.FORMATS` in an importer: no name other modules import
            for scope, importer, line, imported in self._importers_of(fid, self.node(mid).name, variable):
                importer_module = self.module_symbol(importer)
                if scope != importer_module:  # an import inside a function: that function reads it
                    readers.setdefault(scope, line)
                elif importer_module is not None:
                    todo.append((importer, importer_module, imported))
            modules.add(mid)
            if variable not in asked:
                asked.add(variable)
                guessed.update(self._attribute_readers(variable, fn.id))
        if any(scope not in readers and scope not in modules for scope in guessed):
            # the name is read as an attribute of an object of unknown type where no import explains it: a
            # module object got by its dotted name (`getattr(urlconf_module, "urlpatterns")`, django's URL
            # resolver), or a namesake. Those readers hand the table on (`reverse()` reads urlpatterns too):
            # followed, they took django's set_cookie from 312 tests to 6,614; the module's importers stay
            return None
        return [EdgeIn(scope, fn.id, "ref", confidence, "stored", line) for scope, line in sorted(readers.items())]

    def _attribute_readers(self, variable: str, exclude: int) -> dict[int, int]:
        """Scopes reading ``obj.variable`` (or calling it), with a line, where ``obj`` is not a dotted name an
        import of the file binds (``uuid.UUID`` is another module's; an import of this one is followed as such)."""
        out: dict[int, int] = {}
        for scope, line, receiver, file_id in self.conn.execute(
            "SELECT scope_id, line, receiver, file_id FROM refs"
            " WHERE name=? AND receiver != '' AND kind IN ('ref','attr','call')",
            (variable,),
        ):
            bound = all(p.isidentifier() for p in receiver.split(".")) and (
                receiver.partition(".")[0] in self._import_bindings(file_id)
            )
            # (`self.V` is an instance's or a class's own: h2's H2ConnectionStateMachine reads its class's `_transitions`,
            # no module's table of that name)
            if scope != exclude and not bound and receiver not in ("self", "cls"):  # `importlib.import_module(conf).V`
                out.setdefault(scope, line)
        return out

    def _import_bindings(self, file_id: int) -> frozenset[str]:
        """The names a file's imports bind (in any scope)."""
        if file_id not in self._bindings:
            self._bindings[file_id] = frozenset(
                r[1] or (r[0] if r[0] and r[0] != "*" else r[2].partition(".")[0])
                for r in self.conn.execute("SELECT name, alias, module FROM imports WHERE file_id=?", (file_id,))
            )
        return self._bindings[file_id]

    def _refs_by_root(self, file_id: int) -> dict[str, list[tuple[int, str, str, str, int]]]:
        """A file's references (:meth:`_refs_of`) by the name :func:`_reads_variable` looks at first: a
        table's readers are found among the few that start with its name, not all of a big module's."""
        found = self._refs_roots.get(file_id)
        if found is None:
            found = self._refs_roots[file_id] = {}
            for r in self._refs_of(file_id):
                _scope, kind, name, receiver, _line = r
                text = receiver if kind in ("assign", "alias") or (kind != "holds" and receiver) else name
                found.setdefault(_root(text), []).append(r)
        return found

    def _refs_rooted(self, file_id: int, root: str) -> list[tuple[int, str, str, str, int]]:
        """``_refs_by_root(file_id).get(root, [])``, without loading the file's other references: the importers of
        a table are a thousand files for a django module, whose references are read for one name each."""
        by_root = self._refs_roots.get(file_id)
        if by_root is not None:
            return by_root.get(root, [])
        found = self._rooted.get((file_id, root))
        if found is None:
            # the text :meth:`_refs_by_root` takes the root of, compared with the root and the character after it
            text = "CASE WHEN kind IN ('assign', 'alias') OR (kind != 'holds' AND receiver != '') THEN receiver ELSE name END"
            found = self._rooted[(file_id, root)] = [
                (r[0], r[1], r[2], r[3], r[4])
                for r in self.conn.execute(
                    f"SELECT scope_id, kind, name, receiver, line FROM refs WHERE file_id=? AND substr({text}, 1, ?) = ?"
                    f" AND (length({text}) = ? OR substr({text}, ?, 1) IN ('.', '[', '(')) ORDER BY id",
                    (file_id, len(root), root, len(root), len(root) + 1),
                )
            ]
        return found

    def _refs_of(self, file_id: int) -> list[tuple[int, str, str, str, int]]:
        """(scope, kind, name, receiver, line) of a file's references."""
        if file_id not in self._file_refs:
            self._file_refs[file_id] = [
                (r[0], r[1], r[2], r[3], r[4])
                for r in self.conn.execute(
                    "SELECT scope_id, kind, name, receiver, line FROM refs WHERE file_id=? ORDER BY id", (file_id,)
                )
            ]
        return self._file_refs[file_id]

    def has_files_under(self, testpath: str) -> bool:
        """Whether the index holds a file below a pytest ``testpaths`` entry (a folder, or a glob pattern of them)."""
        from .pytest_settings import under_testpath

        if not any(c in testpath for c in "*?["):  # a folder (or a file): one look-up by prefix, no scan of every path
            prefix = testpath + "/"
            row = self.conn.execute(
                "SELECT 1 FROM files WHERE path = ? OR substr(path, 1, ?) = ? LIMIT 1", (testpath, len(prefix), prefix)
            ).fetchone()
            return row is not None
        return any(under_testpath(r[0], testpath) for r in self.conn.execute("SELECT path FROM files"))

    def makes_tests_at(self, module: Node, line: int) -> bool:
        """Whether the module body makes what it computes at ``line`` a test: an attribute a ``setattr`` call sets
        (starting up to a few lines above: its arguments may span lines) or a variable named like a test."""
        return any(
            r[0] == module.id
            and (
                (r[1] == "call" and r[2] == "setattr" and line - _SETATTR_SPAN <= r[4] <= line)
                or (r[1] in ("assign", "alias") and r[4] == line and r[2].startswith("test"))
            )
            for r in self._refs_of(module.file_id)
        )

    def kept_readers(self, module: Node, fn: Node, edge: EdgeIn) -> list[EdgeIn] | None:
        """For a call ``edge`` of the module body whose result only holds ``fn`` (walk_tests' "held"): the scopes that
        read the module-level variables the body keeps it in (``_default_decoder = HjsonDecoder(...)``, read by
        ``loads``), as edges into ``fn``; None when it keeps it in none, or when they are not all known
        (:meth:`_readers_of`): the module's importers then stand for its users."""
        variables = [
            r[2]
            for r in self._refs_of(module.file_id)
            if r[0] == module.id and r[4] == edge.line and r[1] in ("assign", "alias") and r[2].isidentifier()
        ]
        return self._readers_of(module, fn, variables, edge.confidence) if variables else None

    def _importers_of(self, file_id: int, module_name: str, variable: str) -> list[tuple[int, int, int, str]]:
        """Imports of a module-level ``variable`` of a file: (scope, file, line, the name or dotted expression the
        importer reads it by: ``V``, ``ALIAS``, ``mod.V``). An import is the module's when an import edge of its
        line goes into the file, or when it names the module's last component: the resolver sends a re-exported
        name (``from .defaults import DEFAULT_FILTERS``) to where it is defined, not through the module."""
        stem = module_name.rpartition(".")[2]  # a module symbol's name is its dotted module name
        path = self.conn.execute("SELECT path FROM files WHERE id=?", (file_id,)).fetchone()
        package = path is not None and posixpath.basename(path[0]) == "__init__.py"
        lines = {
            (r[0], r[1])  # plain tuples: the store's connection makes sqlite3.Row objects
            for r in self.conn.execute(
                "SELECT DISTINCT file_id, line FROM edges WHERE dst_file_id=? AND kind='import' AND file_id != ?",
                (file_id, file_id),
            )
        }
        rows = self.conn.execute(
            "SELECT scope_id, file_id, line, module, module_tail, name, alias FROM imports"
            " WHERE (name IN (?, ?, '*') OR (name IS NULL AND (module_tail=? OR module=? OR module LIKE ? ESCAPE '\\')))"
            " AND file_id != ?",
            (variable, stem, stem, stem, escape_like(stem) + ".%", file_id),
        ).fetchall()
        out: list[tuple[int, int, int, str]] = []
        for scope, importer, line, module, tail, name, alias in rows:
            top = package and name is None and module.partition(".")[0] == stem
            if (importer, line) not in lines and tail != stem and not top and not (name == stem and not module.strip(".")):
                continue
            if name == variable and (tail == stem or (importer, line) in lines):  # `from mod import V [as A]`
                out.append((scope, importer, line, alias or variable))
            elif name == "*" and tail == stem:
                out.append((scope, importer, line, variable))
            elif name is None and tail == stem:  # `import pkg.mod [as m]`
                out.append((scope, importer, line, f"{alias or module}.{variable}"))
            elif name is None and not alias and package and module.partition(".")[0] == stem:
                out.append((scope, importer, line, f"{stem}.{variable}"))  # `import pkg.sub` binds pkg too
            elif name == stem and name != variable:  # `from pkg import mod [as m]`
                out.append((scope, importer, line, f"{alias or name}.{variable}"))
        return out

    def constructed_via(self, method: Node, within: Collection[int] | None = None) -> list[EdgeIn]:
        """For ``__init__``/``__new__``: the calls of and references to its class and to the subclasses
        that inherit it, as edges into the method (``signer_class = Signer`` then ``self.signer_class()``
        constructs it too). For Python's other special methods, the references to the class as a value
        (``Cache = LRUCache`` in a test class, ``Environment(undefined=DebugUndefined)``): Python runs them on
        the instances (``getattr(obj, name)`` → ``__getattr__``, ``if obj:``, ``obj[k]``, ``x in obj``), and
        instances made from a class passed around are of a type the resolver cannot see where they are used
        (a direct ``Cls(...)`` types its variable: those uses resolve as calls). ``within``: only of those classes."""
        if method.kind != "method" or method.parent_id is None:
            return []
        if method.name in _COPY_METHODS and method.language == "python":
            return []  # pickle and copy run them, not the object's other users (:meth:`copied_by`)
        special = method.name not in _CONSTRUCTORS
        hook = special and not _is_special(method.name) and self.framework_hook(method)
        if special and not hook and not (_is_special(method.name) and method.language == "python"):
            return []
        frontier = [method.parent_id]  # load the hierarchy a level at a time: the walk below asks class by class
        seen = set(frontier)
        overriding: set[int] = set()  # the subclasses met that define the name again (their own constructor)
        while frontier:
            self._load_inherit(frontier, "subclasses")
            subs = [s for f in frontier for s in self._subclasses[f] if s not in seen]
            seen.update(subs)
            again = self._defining(subs, method.name)
            overriding |= again
            frontier = [s for s in subs if s not in again]
        classes = [method.parent_id]
        taken = set(classes)  # a model base of django's tests has thousands of subclasses
        todo = [method.parent_id]
        while todo:
            for sub in self.subclasses(todo.pop()):
                if sub not in taken and sub not in overriding:
                    classes.append(sub)
                    taken.add(sub)
                    todo.append(sub)
        if within is not None:
            classes = [c for c in classes if c in within]
        # a subclass naming its base in its class statement is no use of an instance
        skip = {method.parent_id, *(self._transitive(method.parent_id, "subclasses") if special else ())}
        # an instance made to be called or to sit in a class runs these far from where it is made
        calls = not special or hook or (method.name in _RUN_LATER and method.language == "python")
        out: list[EdgeIn] = []
        for cls, edges in self.incoming(classes).items():
            # (a class given to a function that calls it, resolve's "passed": made there for whoever gives it, whose
            # reference is among these edges; the function's other callers give other classes)
            found = [
                e
                for e in edges
                if (e.kind == "ref" or (e.kind == "call" and calls)) and e.src not in skip and e.resolution != "passed"
            ]
            if special and found:
                # a value, not an annotation (`-> Cls` types what it returns: those uses resolve as calls)
                name = self.nodes([cls])[cls].name
                found = [e for e in found if e.kind == "call" or self._names_as_value(e.src, name)]
            out.extend(e._replace(dst=method.id) for e in found)
        return out

    def _defining(self, classes: Sequence[int], name: str) -> set[int]:
        """The classes of ``classes`` that define ``name`` themselves (a child of that name): from their children where
        loaded, else one query per 500 classes that loads no children (hundreds of subclasses of a django model base
        or field, for one constructor)."""
        known = self._defines.setdefault(name, {})
        want = sorted({c for c in classes if c not in known and c not in self._children})
        for c in want:
            known[c] = False
        for chunk in _chunks(want):
            for (parent,) in self.conn.execute(
                f"SELECT DISTINCT parent_id FROM symbols WHERE parent_id IN ({_in(chunk)}) AND name = ?", [*chunk, name]
            ):
                known[parent] = True
        return {
            c
            for c in classes
            if (known[c] if c in known else any(child.name == name for child in self._children[c]))
        }

    def framework_hook(self, method: Node) -> bool:
        """Whether only code that dispatches on the object can call ``method``: a Python method that nothing
        in the repository calls (but by a name made at run time), names or overrides, of a class deriving (itself or through its in-repo
        bases) from a class the index does not have (``TextWrapper._wrap_chunks``, ``Thread.run``,
        ``JSONEncoder.default``: that base's own methods call it on the instances), or whose name the
        repository calls on objects of unknown type among too many classes to guess (:meth:`_dispatched_by_name`).
        The calls of and references to the class stand for its callers (:meth:`constructed_via`)."""
        if method.kind != "method" or method.parent_id is None or method.language != "python":
            return False
        if method.runnable_test:  # the test runner calls it: a test is where a walk ends, not a hook
            return False
        if method.name in _OUTSIDE_PROTOCOL_NAMES and self._outside_protocol(method):
            return True
        if method.name in _IMPORT_HOOKS:  # the uses of its class, where an instance goes into sys.meta_path, stand for it
            return True
        overrides = bool(self.base_methods(method))
        if not overrides and self._extends_outside_method(method):
            return True
        incoming = self.incoming([method.id])[method.id]
        # a look-up by a name made at run time (`getattr(self, "visit_" + name)`) dispatches as the outside base may:
        # beniget's `DefUseChains.visit_ClassDef`, which `gast.NodeVisitor.visit` runs too
        dispatched = all(e.resolution == "getattr" for e in incoming)
        # (or a mixin's, the outside base joining it in a subclass: parsel's `class HTMLTranslator(TranslatorMixin,
        # cssselect.HTMLTranslator)`, whose `xpath_element` cssselect's methods call)
        if dispatched and not overrides:
            hierarchy = [
                method.parent_id,
                *self._transitive(method.parent_id, "bases"),
                *self._transitive(method.parent_id, "subclasses"),
            ]
            self._load_written_bases(hierarchy)
            if any(self._has_outside_base(c) for c in hierarchy):
                return True
        # a protocol method may also be reached from a base's `self.m()` (dispatch), and override the base's own
        # (an abstract one): those are some of its callers, not the call by name on objects of unknown type
        return all(e.resolution == "dispatch" for e in incoming) and self._dispatched_by_name(method.name)

    def _extends_outside_method(self, method: Node) -> bool:
        """Whether ``method`` calls ``super().<its name>(...)`` (or ``Base.<its name>(self, ...)`` of a base its class
        names) in a class deriving from a class the index does not have: an override of that base's method, which the
        base's other methods call on the instances (flask's ``FlaskClient.open``, run by werkzeug's ``Client.get`` in
        every ``client.get(...)`` of the tests; pyquery's ``XPathExpr.join``, which calls ``XPathExprOrig.join(self,
        ...)`` and which cssselect's translator calls)."""
        assert method.parent_id is not None
        # the classes first (cached per class): few derive from an outside class, and the reference is one query
        if not any(self._has_outside_base(c) for c in (method.parent_id, *self._transitive(method.parent_id, "bases"))):
            return False
        written = [b for b in self._written_bases(method.parent_id) if b not in _INERT_BASES]
        found = self.conn.execute(
            "SELECT 1 FROM refs WHERE file_id=? AND scope_id=? AND kind='call' AND name=?"
            f" AND (receiver LIKE 'super%' OR receiver IN ({','.join('?' * len(written))})) LIMIT 1",
            (method.file_id, method.id, method.name, *written),
        ).fetchone()
        return found is not None

    def _outside_protocol(self, method: Node) -> bool:
        """Whether the class of ``method`` or one of its in-repo bases derives from a class of :data:`_OUTSIDE_PROTOCOLS`
        (by the base's last name as written) that calls methods of this name."""
        assert method.parent_id is not None
        return any(
            method.name in _OUTSIDE_PROTOCOLS.get(name, ())
            for cid in (method.parent_id, *self._transitive(method.parent_id, "bases"))
            for name in self._written_bases(cid)
        )

    def _dispatched_by_name(self, name: str) -> bool:
        """Whether the repository calls a method of this name on objects of unknown type with too many
        definitions to guess from (``spec.glomit(target, scope)`` with thirty classes defining ``glomit``): a
        protocol of its own, whose implementations run for the objects made from their classes."""
        found = self._protocols.get(name)
        if found is None:
            found = self._protocols[name] = (
                self.conn.execute(
                    f"SELECT 1 {_AMBIGUOUS_CALLS} LIMIT 1", (name,)
                ).fetchone()
                is not None
            )
        return found

    def _protocol_sites(self, name: str) -> list[tuple[int, int]]:
        """The (scope, line) of the calls ``x.<name>()`` that the resolver left ambiguous, one per scope, as
        many as PROTOCOL_MAX_SITES + 1 scopes (a row limit keeps a common name cheap: the walk asks for a
        changed method only)."""
        sites: dict[int, int] = {}
        for scope, line in self.conn.execute(
            f"SELECT r.scope_id, r.line {_AMBIGUOUS_CALLS} LIMIT ?", (name, 20 * PROTOCOL_MAX_SITES)
        ):
            sites.setdefault(int(scope), int(line))
            if len(sites) > PROTOCOL_MAX_SITES:
                break
        return sorted(sites.items())

    def protocol_callers(self, method: Node) -> list[EdgeIn]:
        """The scopes that call the method's name on objects of unknown type where more classes define it than
        the resolver matches (:meth:`_dispatched_by_name`): each may run this implementation (``_glom`` calls
        ``spec.glomit()``), with the confidence of a name match among that many. None when more than
        PROTOCOL_MAX_SITES scopes do: a name that common says nothing of who calls which."""
        if method.kind != "method" or _is_special(method.name):
            return []
        sites = self._protocol_sites(method.name)
        if not sites or len(sites) > PROTOCOL_MAX_SITES:
            return []
        (defined,) = self.conn.execute(
            "SELECT count(*) FROM symbols WHERE name = ? AND kind = 'method'", (method.name,)
        ).fetchone()
        return _protocol_edges(method, sites, int(defined))

    def family_protocol_callers(self, method: Node) -> list[EdgeIn]:
        """For a special method Python runs for an operator or a builtin (``__eq__`` for ``==`` and ``in``,
        ``__lt__`` for ``<`` and sorting, ``__repr__`` for ``repr()``): the methods of its class hierarchy (every
        class below its topmost in-repo bases) that use it on objects of unknown type. In a recursive structure
        (an expression tree whose nodes compare their arguments) the operands are likely of the hierarchy. None
        when more than PROTOCOL_MAX_SITES methods do, or the hierarchy is larger than a receiver guess takes;
        the confidence of a name match among the hierarchy's definitions of the method."""
        if (
            method.kind != "method"
            or method.parent_id is None
            or method.language != "python"
            or not _is_special(method.name)
            or method.name in _COPY_METHODS
        ):
            return []
        tops = [c for c in [method.parent_id, *self._transitive(method.parent_id, "bases")] if not self.bases(c)]
        classes = set(tops)
        for top in tops:
            classes.update(self._transitive(top, "subclasses"))
        if len(classes) > RECEIVER_GUESS_MAX_CLASSES:
            return []
        self._load_children(classes)
        members = [c for cls in classes for c in self._children[cls] if c.kind in _FUNCTION_KINDS]
        scopes = sorted(m.id for m in members if m.id != method.id)
        sites: dict[int, int] = {}
        for chunk in _chunks(scopes):
            for scope, line in self.conn.execute(
                f"SELECT scope_id, min(line) FROM refs WHERE scope_id IN ({_in(chunk)}) AND name = ?"
                " AND kind IN ('call', 'hashkey') GROUP BY scope_id",
                [*chunk, method.name],
            ):
                sites[scope] = line
        if not sites or len(sites) > PROTOCOL_MAX_SITES:
            return []
        return _protocol_edges(method, sorted(sites.items()), sum(1 for m in members if m.name == method.name))

    def callable_callers(self, method: Node) -> list[EdgeIn]:
        """For a Python class's ``__call__``: the scopes outside the tests that call one of their parameters, or a
        parameter of a function they are nested in, where the resolver found nothing it holds (voluptuous's
        ``def _compile_scalar(schema): ... def validate_callable(path, data): return schema(data)`` runs every
        validator object a schema is made of). Each may run this one, with the confidence of a name match among the
        project's ``__call__`` methods; none when more than PROTOCOL_MAX_SITES scopes do (callbacks everywhere)."""
        if method.kind != "method" or method.name != "__call__" or method.language != "python":
            return []
        if self._parameter_calls is None:
            self._parameter_calls = self._find_parameter_calls()
        sites = self._parameter_calls
        if not sites or len(sites) > PROTOCOL_MAX_SITES:
            return []
        (defined,) = self.conn.execute(
            "SELECT count(*) FROM symbols WHERE name = '__call__' AND kind = 'method'"
        ).fetchone()
        return _protocol_edges(method, sites, int(defined))

    def _find_parameter_calls(self) -> list[tuple[int, int]]:
        """The (scope, line) of :meth:`callable_callers`, one per scope, as many as PROTOCOL_MAX_SITES + 1."""
        # a superset from the database (the name in the scope's or its parent's parameter list, no edge out of that
        # line): the parameter lists are checked below, with the functions further out
        rows = self.conn.execute(
            "SELECT r.scope_id, r.line, r.name FROM refs r JOIN files f ON f.id = r.file_id"
            " JOIN symbols s ON s.id = r.scope_id LEFT JOIN symbols p ON p.id = s.parent_id"
            " WHERE r.kind = 'call' AND r.receiver = '' AND f.language = 'python' AND f.is_test = 0"
            " AND s.kind IN ('function', 'method')"
            " AND (instr(s.params, r.name) > 0 OR (p.kind IN ('function', 'method') AND instr(p.params, r.name) > 0))"
            " AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.src_id = r.scope_id AND e.line = r.line AND e.kind = 'call')"
        )  # read lazily, a batch at a time: past PROTOCOL_MAX_SITES scopes the answer is "too many", whichever they are
        sites: dict[int, int] = {}
        while len(sites) <= PROTOCOL_MAX_SITES and (batch := rows.fetchmany(500)):
            nodes = self.nodes(r[0] for r in batch)
            for scope_id, line, name in batch:
                node = nodes.get(scope_id)
                if node is None or node.in_test_file:
                    continue
                if any(name == param_name(p) for n in [node, *self._makers(node)] for p in n.params):
                    sites[scope_id] = min(line, sites.get(scope_id, line))
                    if len(sites) > PROTOCOL_MAX_SITES:
                        break
        return sorted(sites.items())

    def _has_outside_base(self, class_id: int) -> bool:
        """Whether a class names more bases (inert ones left out) than the index resolved in the repository."""
        found = self._outside_bases.get(class_id)
        if found is None:
            named = sum(1 for name in self._written_bases(class_id) if name not in _INERT_BASES)
            found = self._outside_bases[class_id] = named > len(self.bases(class_id))
        return found

    def _load_written_bases(self, classes: Sequence[int]) -> None:
        """Load what :meth:`_has_outside_base` asks about many classes (their in-repo and written bases) in a few
        queries: a django model base has thousands of subclasses, two queries each one by one."""
        todo = sorted({c for c in classes if c not in self._outside_bases})
        if not todo:
            return
        self._load_inherit(todo, "bases")
        nodes = self.nodes(c for c in todo if c not in self._written)
        written: dict[int, list[str]] = {c: [] for c in nodes}
        for chunk in _chunks(sorted({n.file_id for n in nodes.values()})):
            for sid, fid, name in self.conn.execute(
                f"SELECT symbol_id, file_id, name FROM bases WHERE file_id IN ({_in(chunk)}) ORDER BY file_id, id", chunk
            ):
                if sid in written and nodes[sid].file_id == fid:
                    written[sid].append(name)
        for c, names in written.items():
            self._written[c] = tuple(names)

    def _written_bases(self, class_id: int) -> tuple[str, ...]:
        """The last names of a class's bases as written, in the repository or not (``datetime.tzinfo`` -> tzinfo)."""
        found = self._written.get(class_id)
        if found is None:
            node = self.nodes([class_id]).get(class_id)
            rows = (
                self.conn.execute("SELECT name FROM bases WHERE file_id=? AND symbol_id=?", (node.file_id, class_id))
                if node is not None
                else ()
            )
            found = self._written[class_id] = tuple(name for (name,) in rows)
        return found

    def closure_maker(self, fn: Node) -> list[EdgeIn]:
        """For a function defined in a function: the enclosing function, as a caller. It runs the inner one,
        returns it (a decorator's wrapper, a factory's closure: whoever called the maker calls what it got)
        or hands it on (a callback): in each case the maker's callers are where the inner function runs.
        A Python class defined in a function: its body runs when the function does."""
        nested_class = fn.kind in _CLASS_KINDS and fn.language == "python"
        if (fn.kind not in _FUNCTION_KINDS and not nested_class) or fn.parent_id is None:
            return []
        maker = self.nodes([fn.parent_id]).get(fn.parent_id)
        if maker is None or maker.kind not in _FUNCTION_KINDS:
            return []
        return [EdgeIn(maker.id, fn.id, "call", 1.0, "closure", fn.start_line)]

    def classes_made(self, method: Node, made: Sequence[EdgeIn]) -> list[EdgeIn]:
        """For a method a metaclass of the repository runs when it makes a class (any but ``__call__``, which runs
        when the class is called: wtforms' ``FormMeta.__setattr__``): the scopes whose code makes a class naming the
        metaclass in its header (``made``: the uses of the metaclass, :meth:`constructed_via`) or deriving from one,
        each defined where it runs on import (a module body) or when its function runs."""
        if not made or method.name == "__call__" or not _is_special(method.name) or method.parent_id is None:
            return []
        if not self._is_metaclass(method.parent_id):
            return []
        named = self.nodes(e.src for e in made if e.kind == "ref")
        headers = [c for c, n in named.items() if n.kind in _CLASS_KINDS]
        # (one query for the classes, one for where they are defined: a base form has a class per test)
        classes = self.nodes(dict.fromkeys([*headers, *(s for c in headers for s in self._transitive(c, "subclasses"))]))
        scopes = self.nodes(c.parent_id for c in classes.values() if c.parent_id is not None)
        out: list[EdgeIn] = []
        for cls in classes.values():
            where = scopes.get(cls.parent_id) if cls.parent_id is not None else None
            if where is not None:
                how = "import-time" if where.kind == "module" else "metaclass"
                out.append(EdgeIn(where.id, method.id, "call", 1.0, how, cls.start_line))
        return out

    def copied_by(self, method: Node) -> list[EdgeIn]:
        """For a pickling or copying hook (``__reduce__``, ``__setstate__``, ``__deepcopy__``, ...): the scopes
        that call ``pickle.dumps``/``loads``, ``copy.copy``/``deepcopy`` and use the method's class (or get one
        from a fixture, or have it in their class body): what they pickle is likely one of its instances."""
        if method.kind != "method" or method.name not in _COPY_METHODS or method.language != "python":
            return []
        if method.id not in self._copied:
            sites = self._copy_sites()
            users = self._copy_users(method, set(sites))
            self._copied[method.id] = [
                EdgeIn(s, method.id, "call", RECEIVER_GUESS_CONFIDENCE, "copy-protocol", sites[s])
                for s in sorted(users)
            ]
        return self._copied[method.id]

    def _copy_sites(self) -> dict[int, int]:
        """The scopes that call ``pickle.dumps``/``loads``, ``copy.copy``/``deepcopy`` (also as a bare name a file
        imports from such a module: ``from pickle import dumps``), with the line of the first such call; read once."""
        if self._copy_site_lines is None:
            imported = {
                (fid, name)
                for fid, name in self.conn.execute(
                    f"SELECT file_id, coalesce(alias, name) FROM imports WHERE module IN ({_in(sorted(_COPY_MODULES))})"
                    f" AND name IN ({_in(_COPY_CALLS)})",
                    [*sorted(_COPY_MODULES), *_COPY_CALLS],
                )
            }
            sites: dict[int, int] = {}
            for scope, line, receiver, name, fid in self.conn.execute(
                "SELECT scope_id, line, receiver, name, file_id FROM refs WHERE kind='call'"
                f" AND name IN ({_in(_COPY_CALLS)})",
                _COPY_CALLS,
            ):
                module = receiver.rpartition(".")[2]
                if module in _COPY_MODULES or (not receiver and (name in ("copy", "deepcopy") or (fid, name) in imported)):
                    sites.setdefault(scope, line)
            self._copy_site_lines = sites
        return self._copy_site_lines

    def _copy_users(self, method: Node, scopes: set[int]) -> set[int]:
        """The scopes that use the method's class (:meth:`uses_class_of`), or that are methods of a class
        one of whose subclasses names it in its body (a mixin's ``pickle.dumps(self.Cache())`` pickles what
        ``Cache = TTLCache`` in the class mixing it in says). A few queries for all of them: a project that
        copies in hundreds of places (django) asks this for every copy hook a change reaches."""
        if not self.class_family(method):
            return set()
        users = self.family_users(method, scopes)
        users |= self._held_instance_users(method, scopes - users)
        nodes = self.nodes(scopes - users)
        owners = {s: n.parent_id for s, n in nodes.items() if n.kind == "method" and n.parent_id is not None}
        # (:meth:`_class_uses_family` of the class or of a subclass: what their members reach, kept per class)
        below = self._hierarchy_reach(sorted(set(owners.values())))
        hits = self._family_hits_among(method, set().union(*below.values()))
        users.update(s for s, c in owners.items() if not hits.isdisjoint(below[c]))
        return users

    def _hierarchy_reach(self, classes: Sequence[int]) -> dict[int, frozenset[int]]:
        """For each class, :meth:`_class_reach` of itself and of every class below it, in one set (kept per class:
        the copy hooks of a family each ask about the same classes that copy)."""
        missing = [c for c in classes if c not in self._below_scopes]
        for c in missing:
            family = [c, *self._transitive(c, "subclasses")]
            self._below_scopes[c] = frozenset().union(*self._class_reach(family))
        return {c: self._below_scopes[c] for c in classes}

    def _held_instance_users(self, method: Node, scopes: set[int]) -> set[int]:
        """The test code among ``scopes`` that reads a module-level variable of the same name as one a module body
        assigns an instance of the method's class or a subclass (``T = TType()`` in glom, ``pickle.dumps(T.a)`` in a
        test; the constructions are the classes' incoming calls, which the walk has loaded).
        (Library code that copies something and reads such a variable, glom's ``glom()`` with ``scope[T]`` and
        ``copy.copy(err)``, is every test's caller: what it copies is seldom that instance.)"""
        nodes = {s: n for s, n in self.nodes(scopes).items() if n.in_test_file}
        if not nodes:
            return set()
        classes = {c: n for c, n in self.nodes(self.class_family(method)).items() if n.kind in _CLASS_KINDS}
        names = {n.name for n in classes.values()}
        incoming = self.incoming(classes)
        makers = self.nodes({e.src for edges in incoming.values() for e in edges})
        held = {
            variable
            for edges in incoming.values()
            for e in edges
            if e.kind == "call" and e.src in makers and makers[e.src].kind == "module"
            for variable in self._stored_instances(makers[e.src], e.line, names)
            if variable.isidentifier()
        }
        if not held:
            return set()
        return {
            s
            for s, n in nodes.items()
            if any(r[0] == s for name in held for r in self._refs_by_root(n.file_id).get(name, ()))
        }

    def _prefetch_class_family(self, classes: Iterable[int], method: Node) -> None:
        """Answer :meth:`_class_uses_family` for many classes at once: :meth:`family_users` of their members, asked
        per class through what the members reach (:meth:`_class_reach`, kept across families: django's copy hooks
        ask this about the same few thousand classes for each of thirty families)."""
        key = method.parent_id or 0
        todo = sorted({c for c in classes if (c, key) not in self._class_family})
        if not todo:
            return
        if not self.class_family(method):
            for c in todo:
                self._class_family[(c, key)] = False
            return
        reach = self._class_reach(todo)
        hits = self._family_hits_among(method, set().union(*reach))
        for c, xs in zip(todo, reach):
            self._class_family[(c, key)] = not hits.isdisjoint(xs)

    def _class_reach(self, classes: Sequence[int]) -> list[frozenset[int]]:
        """For each class, the scopes whose edges say whether it uses a class family (:meth:`family_users` of
        its members): the class, its own functions, and the fixtures they take (fixtures of fixtures too)."""
        missing = [c for c in classes if c not in self._class_scopes]
        if missing:
            self._load_children(missing)
            members = {c: [c, *(m.id for m in self._children[c] if m.kind in _FUNCTION_KINDS)] for c in missing}
            self._load_fixtures([i for ids in members.values() for i in ids])
            for c, ids in members.items():
                self._class_scopes[c] = frozenset().union(*(self._with_fixtures(i) for i in ids))
        return [self._class_scopes[c] for c in classes]

    def _names_as_value(self, scope: int, name: str) -> bool:
        """Whether ``scope`` names ``name`` as a value (assigned, passed, returned, or spelt in a dotted string: a
        logging configuration's ``"()": "colorlog.ColoredFormatter"``), not only in annotations."""
        namers = self._value_namers.get(name)
        if namers is None:  # one query per class name: a walk asks about every scope that uses the class
            rows = self.conn.execute(
                "SELECT DISTINCT scope_id FROM refs WHERE name=? AND kind IN ('ref', 'dotted')", (name,)
            )
            namers = self._value_namers[name] = frozenset(r[0] for r in rows)
        return scope in namers

    # tests

    def collected_files(self, node: Node) -> list[str]:
        """The files that are not Python whose tests a conftest's ``pytest_collect_file`` hook collects, when
        ``node`` is that hook or a method of a collector class of the same conftest (a subclass of pytest's
        ``Item`` or ``File``, which run those tests): tracked files below the conftest whose name passes the
        hook's literal name tests (:func:`_collected_name`)."""
        if node.language != "python" or not _is_conftest(node.path) or node.kind == "module":
            return []
        tests = self._hook_tests(node.file_id)
        if not tests:
            return []
        classes = self._collector_classes.get(node.file_id)
        if classes is None:
            rows = self.conn.execute("SELECT symbol_id, name FROM bases WHERE file_id=?", (node.file_id,))
            classes = self._collector_classes[node.file_id] = frozenset(
                int(r[0]) for r in rows if str(r[1]).endswith(_COLLECTOR_BASES)
            )
        if node.qualname != COLLECT_HOOK and node.parent_id not in classes:
            return []
        return (
            self.files.find_tracked(partial(_collected_name, tests), [posixpath.dirname(node.path)])
            if self.files is not None
            else []
        )

    def collects_tests(self, path: str) -> bool:
        """Whether pytest collects tests from ``path``, a file that is not Python: a doctest text file of the
        settings (below ``testpaths``), or a file whose name a ``pytest_collect_file`` hook of a conftest.py
        in its folder or above compares paths with."""
        name = posixpath.basename(path)
        if name.endswith(".py"):
            return False
        settings = self.doctest_settings()
        if (
            settings is not None
            and settings.configured
            and any(fnmatch.fnmatchcase(name, g) for g in settings.globs)
            and settings.collects_from(path)
        ):
            return True
        folders = path.split("/")[:-1]
        conftests = ["/".join([*folders[:i], "conftest.py"]) for i in range(len(folders) + 1)]
        rows = self.conn.execute(f"SELECT id FROM files WHERE path IN ({_in(conftests)})", conftests)
        return any(_collected_name(self._hook_tests(fid), name) for (fid,) in rows)

    def _hook_tests(self, file_id: int) -> tuple[tuple[str, str], ...]:
        """The (literal, how) file name tests of the ``pytest_collect_file`` hook of a conftest (none: no hook)."""
        tests = self._collected.get(file_id)
        if tests is None:
            rows = self.conn.execute("SELECT DISTINCT name, receiver FROM refs WHERE file_id=? AND kind='collects'", (file_id,))
            tests = self._collected[file_id] = tuple(sorted((r[0], r[1]) for r in rows))
        return tests

    def guarded_names(self, file_ids: Iterable[int]) -> set[tuple[int, str]]:
        """(file id, name) of the definitions the files make in a module-level block, and (file id, ``Class.name``) of
        those a class body makes in one (the parser's ``guarded`` references, whose scope is the definition itself:
        impact.name_guarded_tests)."""
        out: set[tuple[int, str]] = set()
        for chunk in _chunks(sorted(file_ids)):
            out.update(
                (int(r[0]), str(r[1]) if "." not in str(r[2]) else _first_name(str(r[2])))
                for r in self.conn.execute(
                    "SELECT r.file_id, r.name, s.qualname FROM refs r JOIN symbols s ON s.id = r.scope_id"
                    f" WHERE r.kind = 'guarded' AND r.file_id IN ({_in(chunk)})",
                    chunk,
                )
            )
        return out

    def sybil_patterns(self) -> list[tuple[str, str]]:
        """(folder, file name pattern) of each conftest.py that makes the examples of text files tests with Sybil
        (``Sybil(..., pattern="*.rst")`` or ``patterns=[...]``): the files of that name below its folder."""
        if self.files is None:
            return []
        rows = self.conn.execute(
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.kind = 'call' AND r.name = 'Sybil' AND f.path LIKE '%conftest.py' ORDER BY f.path"
        ).fetchall()
        out: list[tuple[str, str]] = []
        for (path,) in rows:
            if posixpath.basename(path) != "conftest.py":
                continue
            text = (self.files.read_tracked(path) or b"").decode("utf-8", "replace")
            for given in _SYBIL_PATTERN.findall(text):
                out.extend((posixpath.dirname(path), p) for p in _QUOTED.findall(given))
        return out

    def doctest_runners(self) -> dict[str, set[int]]:
        """Test files that run doctests themselves (``doctest.testmod(module)``, ``doctest.DocTestSuite(module)``: a
        parametrized test hides which module): each with the files of the repository it imports or names (formencode's
        tests/test_doctests.py imports the modules whose examples it runs; icalendar's names them as dotted strings).
        The call must be in a test, the module body, or a function the file's code calls or names outside its
        ``__main__`` block (genshi's ``def suite(): ... DocTestSuite(...)`` serves ``unittest.main(defaultTest="suite")``
        there, which pytest never runs)."""
        rows = self.conn.execute(
            f"SELECT DISTINCT r.file_id, f.path FROM refs r JOIN files f ON f.id = r.file_id"
            f" JOIN symbols s ON s.id = r.scope_id WHERE r.kind = 'call' AND r.name IN ({_in(_DOCTEST_RUNNERS)})"
            " AND f.is_test = 1 AND f.language = 'python'"
            " AND (r.receiver = 'doctest' OR (r.receiver = '' AND EXISTS (SELECT 1 FROM imports i"
            " WHERE i.file_id = r.file_id AND i.module = 'doctest' AND i.name = r.name)))"
            " AND (s.is_test = 1 OR s.kind = 'module' OR EXISTS (SELECT 1 FROM edges e JOIN symbols c ON c.id = e.src_id"
            " WHERE e.dst_id = s.id AND e.src_id != s.id AND e.file_id = r.file_id AND c.qualname != '__main__'))",
            list(_DOCTEST_RUNNERS),
        ).fetchall()
        out: dict[str, set[int]] = {}
        for file_id, path in rows:
            out[path] = {
                r[0]
                for r in self.conn.execute(
                    "SELECT DISTINCT e.dst_file_id FROM edges e JOIN files f ON f.id = e.dst_file_id"
                    " WHERE e.file_id = ? AND e.dst_file_id != ? AND e.kind IN ('import', 'ref') AND f.is_test = 0",
                    (file_id, file_id),
                )
            }
        return out

    def doctest_settings(self) -> DoctestSettings | None:
        """The repository's pytest doctest settings (None when its files cannot be read)."""
        if self.files is None:
            return None
        if self._doctest is None:
            from .pytest_settings import doctest_settings

            self._doctest = doctest_settings(self.files.read_tracked)
        return self._doctest

    def import_name(self, path: str) -> str | None:
        """The module name pytest imports a Python file of a package under: its path from the topmost folder
        of the package (``src/pkg/mod.py`` → ``pkg.mod`` when ``src/`` is no package). None for a file in a
        folder that is no package: pytest names it by its import mode (``tool`` or ``scripts.tool``)."""
        if self._packages is None:
            rows = self.conn.execute("SELECT path FROM files WHERE path LIKE '%__init__.py'")  # (_: any character)
            self._packages = frozenset(posixpath.dirname(r[0]) for r in rows if r[0].endswith("/__init__.py"))
        folders = path.split("/")[:-1]
        if folders and "/".join(folders) not in self._packages:
            return None
        top = len(folders)
        while top > 0 and "/".join(folders[:top]) in self._packages:
            top -= 1
        stem = posixpath.basename(path).removesuffix(".py")
        return ".".join(folders[top:] + ([] if stem == "__init__" else [stem]))

    def with_examples(self, ids: Iterable[int]) -> list[Node]:
        """The Python definitions among ``ids`` whose docstring holds doctest examples (``>>>``)."""
        ids = sorted(set(ids))
        found: list[int] = []
        for chunk in _chunks(ids):
            found.extend(
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM symbols WHERE id IN ({_in(chunk)}) AND instr(docstring, '>>>') > 0", list(chunk)
                )
            )
        nodes = self.nodes(found)
        return [nodes[i] for i in found if i in nodes and nodes[i].language == "python"]

    def docstring_examples(self) -> list[tuple[Node, set[str]]]:
        """Every Python definition whose docstring holds doctest examples, with the identifiers of its examples
        (what follows the first ``>>>``: the index keeps a docstring on one line)."""
        if self._examples is None:
            rows = self.conn.execute(
                "SELECT s.id, s.docstring FROM symbols s JOIN files f ON f.id = s.file_id"
                " WHERE f.language = 'python' AND instr(s.docstring, '>>>') > 0"
            ).fetchall()
            nodes = self.nodes(r[0] for r in rows)
            self._examples = [
                (nodes[sid], set(_WORD.findall(text.partition(">>>")[2]))) for sid, text in rows if sid in nodes
            ]
        return self._examples

    def tests_in_files(self, paths: Iterable[str]) -> list[Node]:
        """Runnable tests of the given files (by path, then line)."""
        wanted = sorted(set(paths))
        self.prefetch_tests_in_files(wanted)
        return [t for p in wanted for t in self._file_tests[p]]

    def prefetch_tests_in_files(self, paths: Iterable[str]) -> None:
        """Load the runnable tests of many files at once (a walk level reaches hundreds of test modules)."""
        want = sorted({p for p in paths if p not in self._file_tests})
        for p in want:
            self._file_tests[p] = []
        for chunk in _chunks(want):
            rows = self.conn.execute(
                f"{_NODE_SQL} WHERE f.path IN ({_in(chunk)}) AND s.is_test != 0 ORDER BY f.path, s.start_line", chunk
            ).fetchall()
            for n in map(_node, rows):
                if n.runnable_test:
                    self._file_tests[n.path].append(n)

    def tests_under(self, node: Node) -> list[Node]:
        """The runnable tests a test class (or test node) stands for, nested classes included."""
        if node.runnable_test:
            return [node]
        out: list[Node] = []
        for child in self.children(node.id):
            if child.runnable_test:
                out.append(child)
            elif child.kind in _CLASS_KINDS and child.is_test:
                out.extend(self.tests_under(child))
        return out

    def inherited_tests(self, method: Node) -> list[tuple[Node, str]]:
        """(test class, qualname) for a ``test*`` method, of a test class or of a mixin that is none: the test
        subclasses that inherit this very definition (none of them, nor a nearer base, overrides it) run it
        as their own test."""
        if method.kind != "method" or method.parent_id is None or not method.name.startswith("test"):
            return []
        subclasses = self._transitive(method.parent_id, "subclasses")
        if not subclasses:
            return []
        classes = self.nodes(subclasses)
        self._load_children(subclasses)
        out: list[tuple[Node, str]] = []
        for cid in subclasses:
            cls = classes.get(cid)
            if cls is None or not cls.is_test or any(c.name == method.name for c in self._children[cid]):
                continue
            owner = next(
                (b for b in self._transitive(cid, "bases") if any(c.name == method.name for c in self.children(b))),
                None,
            )
            if owner == method.parent_id:  # no nearer base defines the name
                out.append((cls, f"{cls.qualname}.{method.name}"))
        return out

    def base_tests(self, test_class: Node) -> list[tuple[Node, str]]:
        """(method, qualname under ``test_class``) for the ``test*`` methods a test class inherits from its
        in-repo bases, mixins that are no test class included (unittest and pytest collect inherited
        methods); the nearest definition of a name wins and the class's own methods are not listed."""
        if test_class.kind not in _CLASS_KINDS or not test_class.is_test:
            return []
        bases = self._transitive(test_class.id, "bases")
        if not bases:
            return []
        self._load_children([test_class.id, *bases])
        seen = {c.name for c in self._children[test_class.id]}
        out: list[tuple[Node, str]] = []
        for base in bases:
            for m in self._children[base]:
                if m.name not in seen and m.kind == "method" and m.name.startswith("test"):
                    out.append((m, f"{test_class.qualname}.{m.name}"))
                seen.add(m.name)
        return out

    def remade_test_classes(self, classes: Iterable[Node]) -> set[int]:
        """The test classes of ``classes`` that a metaclass of the repository makes, named by ``metaclass=`` or
        reached through a class decorator of the repository that calls one (python-multipart's
        ``@parametrize_class`` calls its ``ParametrizingMetaclass``, which replaces each ``@parametrize``'d
        ``test_http`` by a ``test_http__<case>`` per case): the names of their tests are the metaclass's."""
        # what each header names: its decorators, then the line of `class`, where `metaclass=` is (one query)
        headers = {c.id: (c.start_line, c.start_line + len(c.decorators)) for c in classes}
        named: dict[int, set[int]] = {cid: set() for cid in headers}
        for chunk in _chunks(sorted(headers)):
            for src, dst, line in self.conn.execute(
                f"SELECT src_id, dst_id, line FROM edges WHERE src_id IN ({_in(chunk)}) AND kind IN ('call','ref')", chunk
            ):
                if headers[src][0] <= line <= headers[src][1]:
                    named[src].add(dst)
        targets = self.nodes({d for ds in named.values() for d in ds})
        # and what the class decorators among them call (`parametrize_class` calls the metaclass)
        calls: dict[int, set[int]] = {t.id: set() for t in targets.values() if t.kind in _FUNCTION_KINDS}
        for chunk in _chunks(sorted(calls)):
            for src, dst in self.conn.execute(
                f"SELECT src_id, dst_id FROM edges WHERE src_id IN ({_in(chunk)}) AND kind='call'", chunk
            ):
                calls[src].add(dst)
        reached = [*targets.values(), *self.nodes({d for ds in calls.values() for d in ds}).values()]
        metaclasses = {n.id for n in reached if n.kind in _CLASS_KINDS and self._is_metaclass(n.id)}
        return {cid for cid, ds in named.items() if any(m in metaclasses for d in ds for m in (d, *calls.get(d, ())))}

    def decorated_here(self, fn: Node) -> bool:
        """Whether a decorator of ``fn`` is a function of the repository (a call on its decorator lines resolves)."""
        row = self.conn.execute(
            "SELECT 1 FROM edges WHERE src_id=? AND kind='call' AND line >= ? AND line < ?",
            (fn.id, fn.start_line, fn.start_line + len(fn.decorators)),
        ).fetchone()
        return row is not None

    def _is_metaclass(self, class_id: int) -> bool:
        """Whether a class derives from ``type``, itself or through its bases in the repository."""
        found = self._metaclasses.get(class_id)
        if found is None:
            ids = [class_id, *self._transitive(class_id, "bases")]
            row = self.conn.execute(f"SELECT 1 FROM bases WHERE symbol_id IN ({_in(ids)}) AND name='type'", ids).fetchone()
            found = self._metaclasses[class_id] = row is not None
        return found

    def test_imports(self, path: str, name: str) -> list[tuple[str, int, str]]:
        """(path, file id, bound name) of the test modules that import the test class or function ``name`` of
        ``path`` at module level under a name pytest collects (``Test*``, any for a TestCase; ``test*``): it runs
        there again."""
        key = (path, name)
        if key not in self._test_imports:
            self.prefetch_test_imports([key])
        return self._test_imports[key]

    def prefetch_test_imports(self, keys: Iterable[tuple[str, str]]) -> None:
        """Answer :meth:`test_imports` for many (path, name) at once: the tests in one query per 400, then their
        importers in one query per 500 tests."""
        want = sorted({k for k in keys if k not in self._test_imports})
        if not want:
            return
        tests: dict[int, tuple[str, str]] = {}
        prefixes: dict[int, str] = {}  # the names pytest collects it under, as a prefix ("": a TestCase, any)
        for chunk in _chunks(want, 400):
            # CROSS JOIN keeps the keys the outer loop: each one is two index look-ups
            for sid, path, qualname, kind, is_test, signature in self.conn.execute(
                f"WITH k(path, qualname) AS (VALUES {','.join(['(?,?)'] * len(chunk))})"
                " SELECT c.id, k.path, k.qualname, c.kind, c.is_test, c.signature FROM k CROSS JOIN files cf"
                " CROSS JOIN symbols c WHERE cf.path=k.path AND c.file_id=cf.id AND c.qualname=k.qualname",
                [x for k in chunk for x in k],
            ):
                tests[sid] = (path, qualname)
                if kind != "class":
                    prefixes[sid] = PYTEST_FUNCTION_PREFIX
                else:
                    prefixes[sid] = "" if _unittest_class(qualname, int(is_test), str(signature)) else PYTEST_CLASS_PREFIX
        found: dict[tuple[str, str], set[tuple[int, str, str, str | None]]] = {k: set() for k in want}
        for chunk in _chunks(sorted(tests)):
            for sid, fid, ipath, name, alias in self.conn.execute(
                "SELECT DISTINCT c.id, f.id, f.path, i.name, i.alias FROM symbols c"
                " JOIN edges e ON e.dst_id=c.id AND e.kind='import' JOIN symbols m ON m.id=e.src_id"
                " JOIN files f ON f.id=e.file_id JOIN imports i ON i.file_id=f.id AND i.line=e.line AND i.name=c.name"
                f" WHERE c.id IN ({_in(chunk)}) AND m.kind='module' AND f.is_test=1 AND f.id != c.file_id",
                chunk,
            ):
                # DISTINCT per test, as asked one by one; `from test_temp_db import TempSqliteDictTest`, a TestCase, is
                # collected again whatever its name (sqlitedict's test_core.py), a test function as test*
                if (alias or name).startswith(prefixes[sid]):
                    found[tests[sid]].add((fid, ipath, name, alias))
        for k, rows in found.items():
            self._test_imports[k] = sorted((ipath, fid, alias or name) for fid, ipath, name, alias in rows)

    # a level of a walk at once

    def prefetch(self, nodes: Iterable[Node], *, subclasses_of_tests: bool = False) -> None:
        """Load what the per-node questions of a walk level ask about ``nodes``: aliases of functions, the
        base classes of methods and their methods (dispatch); with ``subclasses_of_tests``, the test classes
        that inherit test methods."""
        files: set[int] = set()
        classes: set[int] = set()
        test_classes: set[int] = set()
        for n in nodes:
            if n.kind in _FUNCTION_KINDS:
                if n.file_id not in self._aliases:
                    files.add(n.file_id)
                if n.kind == "method" and n.parent_id is not None:
                    if not n.name.startswith("__"):
                        classes.add(n.parent_id)
                    if subclasses_of_tests and n.is_test:
                        test_classes.add(n.parent_id)
        if files:
            self._load_aliases(files)
        todo = [c for c in classes if (c, "bases") not in self._closure]
        if todo:
            self.prefetch_closure(todo, "bases")
            ancestors = {a for c in todo for a in self._transitive(c, "bases")}
            self._methods_of(sorted(ancestors))
        todo = [c for c in test_classes if (c, "subclasses") not in self._closure]
        if todo:
            self.prefetch_closure(todo, "subclasses")
            below = sorted({s for c in todo for s in self._transitive(c, "subclasses")})
            self.nodes(below)
            self._load_children(below)


# --- touched symbols -----------------------------------------------------------------------------


@dataclass
class Removed:
    """A symbol of the old side that the head side no longer has."""

    path: str  # old path
    symbol: Symbol
    parent: Symbol | None
    language: str
    renamed_to: str | None = None


@dataclass
class Touched:
    """What the hunks of a diff touch."""

    changed: list[ChangedSymbol] = field(default_factory=list)
    start_ids: dict[int, ChangedSymbol] = field(default_factory=dict)  # head symbol id → change
    removed: list[Removed] = field(default_factory=list)
    removed_modules: list[tuple[str, str | None]] = field(default_factory=list)  # (old path, new path or None)
    changed_paths: set[str] = field(default_factory=set)  # head paths of changed source files
    other_paths: set[str] = field(default_factory=set)  # head paths of changed files of no language (test data?)
    select_all: str | None = None
    files: dict[str, int] = field(default_factory=dict)


def source_for(diff: Diff) -> Source:
    """The index snapshot that is the head side of ``diff``."""
    from .indexer import Source

    if diff.head_commit is not None:
        return Source("commit", diff.head_commit)
    return Source("staged") if diff.spec.kind == "staged" else Source("worktree")


def _excluded(path: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, p) for p in patterns)


def _innermost(symbols: Sequence[Any], line: int) -> Any:
    """The innermost symbol whose span contains ``line`` (the module symbol when none does)."""
    best = None
    for s in symbols:
        if s.start_line <= line <= s.end_line and (
            best is None or (s.end_line - s.start_line) <= (best.end_line - best.start_line)
        ):
            best = s
    return best


def _lines(hunk_start: int, count: int) -> range:
    # a side with no lines (a pure insertion or deletion) touches nothing on that side: the other side's
    # lines say what changed
    return range(hunk_start, hunk_start + count)


def _blank(text_lines: Sequence[bytes], line: int) -> bool:
    if not 1 <= line <= len(text_lines):
        return True
    s = text_lines[line - 1].strip()
    return not s or s.startswith((b"#", b"//"))


def _norm_sig(sig: str) -> str:
    return " ".join(sig.split())


def touched_symbols(repo: Repo, graph: Graph, diff: Diff, excludes: Sequence[str]) -> Touched:
    """Map the diff's hunks to symbols of both sides; symbols added, removed and with new signatures."""
    from .parse import parse

    out = Touched()
    counts = {"changed": 0, "source": 0, "binary": 0, "submodule": 0, "mode_only": 0, "skipped": 0}
    for change in diff.changes:
        counts["changed"] += 1
        path = change.path
        if "/" not in path and path in CONFIG_FILES and out.select_all is None:
            out.select_all = f"{path} changed: it configures every test"
        if any(m == 0o160000 for m in (change.old_mode, change.new_mode)):
            counts["submodule"] += 1
            continue
        if change.binary:
            counts["binary"] += 1
            continue
        if change.status in ("modified", "typechange") and not change.hunks and change.old_oid == change.new_oid:
            counts["mode_only"] += 1
            continue
        old_lang = language_for_path(change.old_path) if change.old_path else None
        new_lang = language_for_path(change.new_path) if change.new_path else None
        if old_lang is None and new_lang is None:
            if change.new_path:  # a doctest text file, or data a conftest collects tests from, runs itself
                out.other_paths.add(change.new_path)
            continue
        if _excluded(path, excludes):
            counts["skipped"] += 1
            continue
        counts["source"] += 1
        _file_changes(repo, graph, change, old_lang, new_lang, out, parse)
    out.files = counts
    return out


def _file_changes(
    repo: Repo, graph: Graph, change: FileChange, old_lang: str | None, new_lang: str | None, out: Touched, parse: Any
) -> None:
    old_symbols: list[Symbol] = []
    old_lines: list[bytes] = []
    is_symlink = any(m == 0o120000 for m in (change.old_mode, change.new_mode))
    if change.old_oid and change.old_path and old_lang and change.status != "added" and not is_symlink:
        data = repo.read_blob(change.old_oid)
        if b"\0" not in data[:8192]:
            old_symbols = parse(data, change.old_path, old_lang).symbols
            old_lines = data.splitlines()
    new_nodes: list[Node] = []
    new_lines: list[bytes] = []
    if change.new_path and new_lang and change.status != "deleted" and not is_symlink:
        new_nodes = graph.file_nodes(change.new_path)
        if new_nodes and change.new_oid:
            new_lines = repo.read_blob(change.new_oid).splitlines()
    if change.new_path and new_nodes:
        out.changed_paths.add(change.new_path)
    old_by_q = {s.qualname: s for s in old_symbols}
    new_by_q = {n.qualname: n for n in new_nodes}
    whole_file = change.status in ("added", "deleted") or (change.status != "deleted" and not old_symbols and new_nodes)
    if change.status in ("deleted", "renamed") and change.old_path and old_lang == "python":
        out.removed_modules.append((change.old_path, change.new_path if change.status == "renamed" else None))

    touched_old: set[str] = set()
    touched_new: set[str] = set()
    if not whole_file:
        for h in change.hunks:
            if old_symbols:
                for line in _lines(h.old_start, h.old_lines):
                    s = _innermost(old_symbols, line)
                    if s is not None and not (s.kind == "module" and _blank(old_lines, line)):
                        touched_old.add(s.qualname)
            if new_nodes:
                for line in _lines(h.new_start, h.new_lines):
                    n = _innermost(new_nodes, line)
                    if n is not None and not (n.kind == "module" and _blank(new_lines, line)):
                        touched_new.add(n.qualname)

    def changed_symbol(q: str, change_kind: str, path: str, s: Any, old: Symbol | None = None) -> ChangedSymbol:
        return ChangedSymbol(
            file=path,
            qualname=q,
            name=s.name,
            kind=s.kind,
            start_line=s.start_line,
            end_line=s.end_line,
            change=change_kind,
            old_signature=old.signature if old is not None else "",
            new_signature=s.signature if change_kind != "removed" else "",
        )

    removed_q = [q for q in old_by_q if q not in new_by_q and q != MODULE_QUALNAME]
    added_q = [q for q in new_by_q if q not in old_by_q and q != MODULE_QUALNAME]
    entries: list[tuple[int, ChangedSymbol, int | None]] = []
    removed_here: list[Removed] = []
    for q in removed_q:
        s = old_by_q[q]
        parent = old_by_q.get(s.parent) if s.parent else None
        if parent is not None and parent.qualname in removed_q:
            continue  # the enclosing definition is removed too: report that one
        assert change.old_path is not None
        entries.append((s.start_line, changed_symbol(q, "removed", change.old_path, s), None))
        removed_here.append(Removed(change.old_path, s, parent, old_lang or ""))
    for q in added_q:
        n = new_by_q[q]
        parent_node = graph.nodes([n.parent_id]).get(n.parent_id) if n.parent_id is not None else None
        if parent_node is not None and parent_node.qualname in added_q:
            continue
        entries.append((n.start_line, changed_symbol(q, "added", n.path, n), n.id))
    for q in sorted((touched_old | touched_new) - set(removed_q) - set(added_q)):
        n = new_by_q.get(q)
        old = old_by_q.get(q)
        if n is None:
            continue
        if n.kind == "module" and whole_file:
            continue
        kind = "modified"
        if (
            old is not None
            and n.kind != "module"
            and (_norm_sig(old.signature) != _norm_sig(n.signature) or tuple(old.params) != n.params)
        ):
            kind = "signature"
        entries.append((n.start_line, changed_symbol(q, kind, n.path, n, old), n.id))
    if whole_file and not entries and new_nodes:  # a script without definitions: the module itself
        n = new_by_q[MODULE_QUALNAME]
        entries.append(
            (1, changed_symbol(MODULE_QUALNAME, "added" if change.status == "added" else "modified", n.path, n), n.id)
        )
    _name_renames(removed_here, [new_by_q[q] for q in added_q])
    out.removed.extend(removed_here)
    for _, cs, sid in sorted(entries, key=lambda e: (e[1].file, e[0], e[1].qualname)):
        out.changed.append(cs)
        if sid is not None:
            out.start_ids[sid] = cs


def _name_renames(removed: list[Removed], added: list[Node]) -> None:
    """A removed symbol with exactly one added symbol of the same kind under the same parent: a rename."""
    for r in removed:
        parent = r.symbol.parent or MODULE_QUALNAME
        same = [
            a for a in added if a.kind == r.symbol.kind and (a.qualname.rpartition(".")[0] or MODULE_QUALNAME) == parent
        ]
        if len(same) == 1:
            r.renamed_to = same[0].qualname


# --- walks ---------------------------------------------------------------------------------------


@dataclass
class Reach:
    depth: int
    confidence: float
    via: tuple[str, ...]
    edge: str
    reason: str = "graph"
    line: int = 0


def walk_dependants(
    graph: Graph,
    starts: Iterable[int],
    depth: int,
    *,
    seeds: dict[int, Reach] | None = None,
    kinds: frozenset[str] | None = None,
    include_tests: bool = False,
) -> dict[int, Reach]:
    """Reverse BFS from ``starts`` up to ``depth`` edges: every dependant with its shallowest depth and,
    at that depth, its most confident path. ``seeds`` are dependants known without an edge (depth 1)."""
    start_set = set(starts)
    reach: dict[int, Reach] = {s: Reach(0, 1.0, (), "") for s in start_set}
    level: dict[int, Reach] = dict(reach)
    for d in range(1, depth + 1):
        nxt: dict[int, Reach] = {}
        if d == 1:
            nxt.update({k: v for k, v in (seeds or {}).items() if k not in reach})
        nodes = graph.nodes(level)
        incoming = graph.incoming(level)
        graph.nodes({e.src for edges in incoming.values() for e in edges})
        graph.prefetch(nodes.values())
        for dst, r in sorted(level.items()):
            dst_node = nodes.get(dst)
            if dst_node is None:
                continue
            edges = graph.callers_of(dst_node, incoming) + graph.constructed_via(dst_node)
            edges += graph.closure_maker(dst_node) + graph.copied_by(dst_node)
            if kinds is None or "dispatch" in kinds:
                edges += [
                    EdgeIn(b.id, dst, "dispatch", DISPATCH_CONFIDENCE, "dispatch", b.start_line)
                    for b in graph.base_methods(dst_node)
                ]
                edges += graph.receiver_guesses(dst_node) if d == 1 else []
            if d == 1:
                edges += graph.protocol_callers(dst_node) + graph.family_protocol_callers(dst_node)
                edges += graph.callable_callers(dst_node)
            if kinds is None and d == 1:
                edges += [
                    EdgeIn(o.id, dst, "override", OVERRIDE_CONFIDENCE, "override", o.start_line)
                    for o in graph.overriding_methods(dst_node)
                ]
            for e in edges:
                if (kinds is not None and e.kind not in kinds) or e.src in reach:
                    continue
                conf = r.confidence * e.confidence
                old = nxt.get(e.src)
                if old is None or (conf, -_KIND_ORDER.get(e.kind, 9)) > (old.confidence, -_KIND_ORDER.get(old.edge, 9)):
                    nxt[e.src] = Reach(d, conf, (dst_node.label, *r.via), e.kind, line=e.line)
        src_nodes = graph.nodes(nxt)
        level = {
            sid: cand
            for sid, cand in nxt.items()
            if sid in src_nodes and (include_tests or not (src_nodes[sid].is_test or src_nodes[sid].in_test_file))
        }
        reach.update(level)
        if not level:
            break
    return {k: v for k, v in reach.items() if k not in start_set}


def rank_impacted(graph: Graph, reach: dict[int, Reach], cap: int) -> tuple[list[Impacted], int]:
    """Rank dependants (confident and near first) and cut to ``cap``; returns (kept, number cut)."""
    nodes = graph.nodes(reach)
    rows = []
    for sid, r in reach.items():
        n = nodes[sid]
        score = r.confidence * (0.85 ** (r.depth - 1))
        rows.append(
            (
                (-score, r.depth, _KIND_ORDER.get(r.edge, 9), n.path, n.start_line, n.qualname),
                Impacted(
                    file=n.path,
                    qualname=n.qualname,
                    kind=n.kind,
                    line=n.start_line,
                    depth=r.depth,
                    via=r.via,
                    edge=r.edge,
                    confidence=round(r.confidence, 3),
                ),
            )
        )
    rows.sort(key=lambda x: x[0])
    kept = [i for _, i in rows[:cap]] if cap >= 0 else [i for _, i in rows]
    return kept, max(0, len(rows) - len(kept))


@dataclass(slots=True)  # one per selected test: thousands
class TestHit:
    node: Node
    qualname: str
    depth: int
    reason: str
    sources: int  # bit set of start indexes
    nodeid: str = ""  # when it is not the node's (a doctest's)


class Deadline:
    """A time limit for :func:`walk_tests` (the hook's): ``reached`` tells whether the walk stopped at it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.perf_counter() + seconds
        self.reached = False

    def passed(self) -> bool:
        self.reached = self.reached or time.perf_counter() > self.at
        return self.reached


def walk_tests(
    graph: Graph,
    starts: Sequence[int],
    *,
    seeds: dict[int, tuple[int, str]] | None = None,
    deadline: Deadline | None = None,
    state: dict[int, tuple[int, str, int]] | None = None,
    executed: set[int] | None = None,
    keyed: Collection[int] = (),
) -> dict[str, TestHit]:
    """Tests that reach any of ``starts`` (unbounded reverse BFS). ``seeds``: node → (start index, edge
    kind) for dependants known without an edge (references to removed symbols). Keyed by node id.
    ``keyed``: starts in plug-in modules with tests named after them, whose tests the walk does not look for through a
    table of instances (``CONVERTERS[lang]``): the key that picks their class is what their own tests give.
    With a ``deadline``, the walk stops when it passes (checked every few hundred nodes): the tests found
    until then, nearest first, are returned. ``state``, when given, is filled with every node reached:
    node → (depth, reason, bit set of the starts it reaches); ``executed``, with the modules whose import runs a change."""
    bit_of = {sid: 1 << i for i, sid in enumerate(starts)}
    keyed_bits = 0
    for sid in keyed:
        keyed_bits |= bit_of.get(sid, 0)
    # node → (depth, reason, sources)
    if state is None:
        state = {}
    state.update((sid, (0, "changed", bit_of[sid])) for sid in starts)
    queue: dict[int, int] = dict(bit_of)  # node → new source bits to push further
    for sid, (index, _kind) in (seeds or {}).items():
        bits = 1 << index
        d, reason, have = state.get(sid, (1, "graph", 0))
        state[sid] = (d, reason, have | bits)
        queue[sid] = queue.get(sid, 0) | bits
    hits: dict[str, TestHit] = {}
    start_set = set(starts)
    if executed is None:
        executed = set()  # modules whose body runs a changed symbol: importing them runs it
    plain: set[int] = set(starts)  # nodes reached through an edge of another kind than those of `only`
    # nodes reached only as a wrapper from a function it wraps ("decorated"), or only as the maker of a nested
    # function it returns ("closure": calling the maker makes the function, it does not run it; "wrapped": so reached
    # from a wrapper that was itself reached only from a function it wraps)
    only: dict[int, str] = {}
    # nodes reached only from the overrides a `self.m()` of theirs dispatches to (resolve: "dispatch"; only "dispatched"):
    # the classes of those overrides, one of whose family the instance is (qrcode's BaseImage.__init__ calls
    # `self.new_image()`: reached from PilImage.new_image, it runs for a PilImage, not for the PyPNGImage a test makes)
    dispatched: dict[int, set[int]] = {}
    window = _DepthWindow()
    levels: dict[int, int] = {}  # node → the depth the window counts, where it differs from its depth
    cache = graph._nodes  # every node the loop below asks about is loaded a level ahead
    while queue:
        nodes = graph.nodes(queue)
        incoming = graph.incoming(queue)
        graph.nodes({e.src for edges in incoming.values() for e in edges})  # one query for the level
        graph.prefetch(nodes.values(), subclasses_of_tests=True)
        _prefetch_receiver_checks(graph, queue, nodes, incoming, state, levels, window, start_set)
        test_classes = {n.id for n in nodes.values() if n.is_test and n.kind in _CLASS_KINDS}
        graph._load_children(test_classes)  # their tests (tests_under), and the subclasses that inherit them
        graph.prefetch_closure(test_classes, "subclasses")
        ran = [nodes[d] for d in queue if d in executed and d in nodes]  # modules whose import runs a change
        graph.prefetch_file_importers(ran)
        graph.prefetch_tests_in_files(n.path for n in ran if n.in_test_file and not _is_conftest(n.path))
        nxt: dict[int, int] = {}
        guessed: list[tuple[EdgeIn, Node, int, int, str, int]] = []  # name matches whose scope is to be checked
        for done, (dst, bits) in enumerate(sorted(queue.items())):
            if deadline is not None and done % DEADLINE_CHECK_NODES == 0 and deadline.passed():
                return hits
            node = nodes.get(dst)
            if node is None:
                continue
            depth, reason, _ = state[dst]
            level = levels.get(dst, depth)  # the depth the window counts (see _window_step)
            here = state[dst][2] & window.open_at(level)
            if here and (node.runnable_test or (node.is_test and node.kind in _CLASS_KINDS)):
                _add_tests(graph, hits, graph.tests_under(node), max(depth, 0), reason, here)
                for test_class in [node] if node.kind in _CLASS_KINDS else []:
                    for _method, qual in graph.base_tests(test_class):
                        _add_hit(hits, test_class, qual, max(depth, 0), reason, here)
                    if test_class.in_test_file and test_class.parent_id == graph.module_symbol(test_class.file_id):
                        # and the class, for the tests its metaclass or a class method attaches (uritemplate's
                        # `metaclass=RFCTemplateExamples` makes a `test_<level>` per table): names the index lacks
                        _add_hit(hits, test_class, test_class.qualname, max(depth, 0), reason, here)
                window.found(here, level)
            elif here and node.kind == "method" and not node.is_test and node.name.startswith("test"):
                mixed_in = graph.inherited_tests(node)  # a test method of a mixin that is no test class
                for cls, qual in mixed_in:
                    _add_hit(hits, cls, qual, max(depth, 0), reason, here)
                if mixed_in:
                    window.found(here, level)
            below = state[dst][2] & window.open_at(level + 1)
            if below and _is_autouse(node):
                _add_tests(graph, hits, _autouse_scope(graph, node), depth + 1, "fixture", below)
                window.found(below, level + 1)
            collected = graph.collected_files(node) if below and node.in_test_file else []
            for path in collected:  # tests a conftest collects from data files, which run this collector
                _add_hit(hits, _file_test(path), "", depth + 1, "collected", below)
            if collected:
                window.found(below, level + 1)
            bits &= window.open_at(level + 1)
            if not bits:
                continue
            if dst in executed:
                if node.in_test_file:  # a test module (or conftest.py) that runs the change on import
                    _add_tests(graph, hits, _module_tests(graph, node.path), depth + 1, "graph", below)
                    if not _is_conftest(node.path):
                        # and the file: its import may make tests the index cannot name (mistune's module-level
                        # `TestCommonMark.load_fixtures("commonmark.json")` attaches a `test_<n>` per case)
                        _add_hit(hits, _file_test(node.path), "", depth + 1, "graph", below)
                    window.found(below, level + 1)
                edges = graph.file_importers(node)
            else:
                # a function given by name to one that calls it (resolve: "passed") runs for the scope that gives it,
                # whose reference the walk follows: the receiving function's other callers give other functions
                edges = [e for e in graph.callers_of(node, incoming) if e.resolution != "passed"]
                if any(e.resolution == "decorated" for e in edges) and any(
                    e.kind == "call" and e.resolution != "decorated" for e in edges
                ):
                    # a decorated function called by name runs through the wrapper from those calls; the
                    # wrapper's other callers run the other functions it decorates (`@curry def flip`)
                    edges = [e for e in edges if e.resolution != "decorated"]
                if only.get(dst) == "decorated":
                    # a wrapper reached from a function it wraps: the calls of the other functions it wraps are
                    # edges into it too (resolve: "wrapper"), and they do not run this one
                    edges = [e for e in edges if e.resolution != "wrapper"]
            overridden = graph.base_methods(node)
            if overridden:  # rarely: no list built for the thousands of other nodes of a level
                edges += [EdgeIn(b.id, dst, "dispatch", DISPATCH_CONFIDENCE, "dispatch", 0) for b in overridden]
            made_for_later: Collection[EdgeIn] = ()
            family = _dispatch_family(graph, node, dispatched[dst]) if only.get(dst) == "dispatched" else None
            if family is not None:
                # a call through `self` or `super()` in a method of a class outside the family is on another instance,
                # and a construction of a class outside it (`B()` running the `__init__` B inherits) makes another
                edges = [
                    e
                    for e in edges
                    if not (e.resolution in ("self", "super") and _caller_class(graph, e) not in family)
                    and not (e.resolution == "constructor" and graph.classes_called_at(e.src, e.line).isdisjoint(family))
                ]
            if not node.runnable_test:  # the runner runs a test: no constructor, copy hook or maker does
                made = _made_for_tests(graph, node, family)
                if family is not None:  # (and a class outside the family naming this one in its header makes none)
                    makers = graph.nodes(e.src for e in made)
                    made = [e for e in made if e.src in family or e.src not in makers or makers[e.src].kind not in _CLASS_KINDS]
                if (
                    made
                    and _is_special(node.name)
                    and node.name not in _RUN_ON_MAKING
                    and node.parent_id is not None
                    and not graph._is_metaclass(node.parent_id)  # (a class made: its metaclass's __setattr__ runs)
                ):
                    made_for_later = set(made)
                edges += made + graph.copied_by(node) + graph.closure_maker(node) + graph.classes_made(node, made)
                if depth <= RECEIVER_GUESS_MAX_DEPTH:
                    edges += graph.receiver_guesses(node)
                edges += graph.self_callers(node)
            if node.name in _MODULE_HOOKS and node.kind == "function" and node.language == "python":
                module = graph.module_symbol(node.file_id)
                if module is not None and node.parent_id == module:
                    # a module's own __getattr__ (PEP 562) runs for any name the module lacks, which code that
                    # imports it probes without naming (hasattr, inspect, pytest's collection): as if on import
                    edges = [*edges, EdgeIn(module, dst, "call", 1.0, "import-time", node.start_line)]
            if not edges:
                continue
            missing = [e.src for e in edges if e.src not in cache]
            if missing:
                graph.nodes(missing)
            # x.m() matched by name: weak among many candidates, or when m is also a method of a built-in
            # type (x.update() is more often a dict's); followed when the scope (or its fixtures, or its
            # class) makes or names m's class, as in ``def test(runner): runner.invoke(...)``. A function so named
            # (mando's test command `def append(...)` for `real_args.append(x)`) is never a guess followed: no
            # class of its own tells the receiver's
            demoted = node.kind in _FUNCTION_KINDS and node.language == "python" and node.name in _BUILTIN_METHODS
            floor = 0.0 if dst in start_set else TEST_EDGE_MIN_CONFIDENCE
            # a function nothing calls, only named: one stored at import time in a module's table
            # (`FORMATS = {"pipe": Format(line=_pipe_line)}`) is called by whoever reads the table, which only
            # the module's importers can
            # (and a special method's class so stored, h11's `READERS = {SEND_BODY: {"chunked": ChunkedReader, ...}}`,
            # makes instances for whoever reads the table, whose `__call__` they run)
            stored = node.kind in _FUNCTION_KINDS and all(e.kind == "ref" for e in edges)
            if node.kind in _FUNCTION_KINDS and any(cache[e.src].kind == "module" for e in edges if e.src in cache):
                # where the graph knows who reads that table, those scopes stand for the module, whose
                # importers (every module above it, often the whole suite) the walk would take otherwise;
                # likewise for an instance the module makes and stores, for a method run on it later
                edges = _through_tables(graph, node, edges)
                missing = [e.src for e in edges if e.src not in cache]
                if missing:
                    graph.nodes(missing)
            made_only = only.get(dst)
            maker_only = made_only in ("closure", "wrapped")
            # reached only as a function stored by the scopes above (`self.parse_mlstring = mlscanstring` in hjson's
            # HjsonDecoder.__init__): a module body making such an object at import and keeping it in a variable holds
            # the change, it does not run it; whoever reads the variable may (:func:`_holds`, Graph.kept_readers).
            # Handed to a call instead (idna's `codecs.register(search_function)`), or read where the graph cannot
            # follow (the module body itself, mistune's `html = create_markdown(...)` used below it), its users are
            # not known: the module's importers stand for them
            held = made_only == "held"
            for e in edges:
                src = cache.get(e.src)
                if src is None:
                    continue
                if (
                    maker_only
                    and e.kind == "call"
                    and (src.kind == "module" or src.kind in _CLASS_KINDS or _decorates(e, src))
                    and not (made_only == "closure" and _applies_made(graph, e, src, node, plain))
                ):
                    # `one = deco(_one)` on import, `@deco def f` being defined: they make the nested function; for
                    # `@validator def ipv4`, the name ipv4 then holds it (a wrapper), so a caller of ipv4 runs it
                    # (unless the walk came to the wrapper from a function it wraps: `other`'s wraps another)
                    if made_only == "closure" and src.kind in _FUNCTION_KINDS and _decorates(e, src):
                        _reach(state, levels, nxt, plain, only, dispatched, e, src, node, bits, depth, level, reason)
                    if (
                        made_only == "closure"
                        and src.kind == "module"
                        and src.in_test_file
                        and not _is_conftest(src.path)
                        and graph.makes_tests_at(src, e.line)
                    ):
                        # a test module making such functions into tests on import, whose names the index lacks
                        # (yamllint's `setattr(SpecificationTestCase, "test_" + name, _gen_test(...))`): the file
                        _add_hit(hits, _file_test(src.path), "", depth + 1, "graph", bits)
                        window.found(bits, level + 1)
                    continue
                if held and src.kind == "module" and e.kind == "call" and e.confidence >= TEST_EDGE_MIN_CONFIDENCE:
                    readers = graph.kept_readers(src, node, e)
                    if readers is not None:  # the scopes reading the variable the object is kept in stand for the module
                        graph.nodes([r.src for r in readers])
                        for r in readers:
                            if r.src in cache:
                                _reach(state, levels, nxt, plain, only, dispatched, r, cache[r.src], node, bits, depth, level, reason)
                        continue
                runs_on_import = src.kind == "module" and (
                    (e.kind == "call" and e.confidence >= TEST_EDGE_MIN_CONFIDENCE)
                    or e.resolution == "import-time"
                    or (stored and e.confidence >= TEST_EDGE_MIN_CONFIDENCE)
                )
                class_body = (
                    e.kind == "call"
                    and not held
                    and src.kind in _CLASS_KINDS
                    and e not in made_for_later  # reached as a class, whose users stand for the instance's
                    and graph.runs_on_import(src)
                )
                if runs_on_import or (class_body and (not src.in_test_file or e.confidence >= TEST_EDGE_MIN_CONFIDENCE)):
                    # module or class body code runs the change whenever the module is imported (a test class's
                    # `variant = TypeBuilder.make_variant(...)`: its module fails to import, every test in it fails)
                    module = src.id if src.kind == "module" else graph.module_symbol(src.file_id)
                    if module is not None and module not in executed:
                        executed.add(module)
                        # a module importing one whose import fails fails to import too, however long the chain:
                        # an import counts nothing for the test window (svgwrite's validators, built on import of a
                        # module nine imports below its tests)
                        # (when the change runs near the module body: a long walk to it is a guess, and the window
                        # keeps what a guess reaches from taking every importer of the package)
                        imported = dst in executed and e.kind == "import" and level <= FREE_IMPORT_LEVEL
                        levels.setdefault(module, level if imported else level + 1)
                        known = state.get(module, (depth + 1, "graph", 0))
                        state[module] = (min(known[0], depth + 1), known[1], known[2] | bits)
                        nxt[module] = nxt.get(module, 0) | known[2] | bits
                        if module == e.src:
                            continue
                if e.kind == "import" and src.kind == "module":
                    # importing a module is no test of its functions; for a module-level change the
                    # importing test files' tests are the closest we know
                    if not (dst in start_set and node.kind == "module" and src.in_test_file):
                        continue
                    _add_tests(graph, hits, graph.tests_in_files([src.path]), depth + 1, "graph", state[dst][2])
                    continue
                if _guessed(e, demoted, floor):
                    prev = state.get(e.src)
                    if prev is None or bits & ~prev[2]:
                        # checked once the level's other edges are followed: most scopes an x.m() matched by
                        # name comes from are reached through them too (django's capfirst: two in three)
                        guessed.append((e, node, bits, depth, reason, level))
                    continue
                if e.confidence < floor and e.resolution not in _ONE_OF_KNOWN:
                    continue
                if e.resolution == "instances" and bits & keyed_bits:
                    if bits & ~keyed_bits:
                        _reach(state, levels, nxt, plain, only, dispatched, e, src, node, bits & ~keyed_bits, depth, level, reason)
                    continue
                _reach(state, levels, nxt, plain, only, dispatched, e, src, node, bits, depth, level, reason)
        for e, node, bits, depth, reason, level in guessed:
            prev = state.get(e.src)
            if (prev is None or bits & ~prev[2]) and graph.uses_class_of(e.src, node):
                _reach(state, levels, nxt, plain, only, dispatched, e, cache[e.src], node, bits, depth, level, reason)
        queue = nxt
    return hits


def _reach(
    state: dict[int, tuple[int, str, int]],
    levels: dict[int, int],
    nxt: dict[int, int],
    plain: set[int],
    only: dict[int, str],
    dispatched: dict[int, set[int]],
    e: EdgeIn,
    src: Node,
    node: Node,
    bits: int,
    depth: int,
    level: int,
    reason: str,
) -> None:
    """Record, in :func:`walk_tests`, that ``src`` (``e.src``) reaches ``node`` (at ``depth``, ``level`` for the
    window) for the changes in ``bits``."""
    new_reason = "graph" if reason == "changed" else reason
    if e.kind == "fixture":
        new_reason = "setup" if node.name in _SETUPS else "fixture"
    how = "decorated" if e.resolution == "decorated" else "closure" if _makes_closure(e, node) else ""
    if how == "closure" and only.get(node.id) == "decorated":
        how = "wrapped"  # the maker of a wrapper reached from a function it wraps: its other decorations wrap others
    elif not how and _holds(e, src, node, only):
        how = "held"
    classes: set[int] = set()  # for "dispatched": the classes of the overrides
    if not how and _dispatches_to(e, src, node) and node.parent_id is not None:
        how, classes = "dispatched", {node.parent_id}
    elif not how and e.resolution in ("self", "super") and src.kind == "method" and only.get(node.id) == "dispatched":
        how, classes = "dispatched", dispatched.get(node.id, set())  # the same instance, through `self`
    was = only.get(e.src)
    if not how:
        plain.add(e.src)
        only.pop(e.src, None)
    elif e.src not in plain and only.get(e.src, how) == how:
        only[e.src] = how
    else:  # reached both ways: as if plainly
        plain.add(e.src)
        only.pop(e.src, None)
    widened = False  # a node expanded under a constraint that no longer holds (or holds for more classes)
    if only.get(e.src) == "dispatched":
        known = dispatched.setdefault(e.src, set())
        widened = bool(known) and not classes <= known
        known.update(classes)
    elif was == "dispatched":
        dispatched.pop(e.src, None)
        widened = True
    prev = state.get(e.src)
    if prev is None:
        state[e.src] = (depth + 1, new_reason, bits)
        levels.setdefault(e.src, level + _window_step(src, node))
        nxt[e.src] = nxt.get(e.src, 0) | bits
    elif bits & ~prev[2]:
        added = bits & ~prev[2]
        state[e.src] = (prev[0], prev[1], prev[2] | added)
        nxt[e.src] = nxt.get(e.src, 0) | added
    elif widened:  # walked again from there, without the constraint it was walked under
        nxt[e.src] = nxt.get(e.src, 0) | prev[2]


def _dispatches_to(e: EdgeIn, src: Node, node: Node) -> bool:
    """Whether ``src`` reaches the method ``node`` as a ``self.m()`` of a base class that dispatches to the override
    ``node`` (resolve: "dispatch"), or as the base method ``node`` overrides (the walk's "dispatch" edges), for an
    instance of the override's class."""
    return (
        e.kind in ("call", "dispatch")
        and e.resolution == "dispatch"
        and src.kind == "method"
        and node.kind == "method"
        and node.parent_id is not None
        and node.language == "python"
    )


def _dispatch_family(graph: Graph, node: Node, overriding: set[int]) -> set[int] | None:
    """The classes an instance running ``node`` may be of, when the walk reached it only from the overrides in the
    classes ``overriding`` that a call of its own dispatches to: their families (:meth:`Graph.family`). None when a
    class there does not derive from ``node``'s (a call on another object of a base type, not on ``self``)."""
    if node.parent_id is None or not all(node.parent_id in graph._transitive(c, "bases") for c in overriding):
        return None
    return graph.family(overriding)


def _caller_class(graph: Graph, e: EdgeIn) -> int | None:
    """The class whose method makes the call ``e`` (None for a function)."""
    src = graph.nodes([e.src]).get(e.src)
    if src is None or src.kind != "method" or src.parent_id is None:
        return None
    return src.parent_id


def _holds(e: EdgeIn, src: Node, node: Node, only: dict[int, str]) -> bool:
    """Whether ``src`` only keeps ``node`` for later, in :func:`walk_tests`: a function or method naming a function
    without calling it (``self.parse_mlstring = mlscanstring``), or calling one that only keeps the change so (making
    the object that holds it: ``HjsonDecoder(...)``, or a factory of such objects)."""
    if src.kind not in _FUNCTION_KINDS:
        return False
    if e.kind == "ref":
        return node.kind in _FUNCTION_KINDS
    return e.kind == "call" and only.get(node.id) == "held"


def _window_step(src: Node, dst: Node) -> int:
    """How far a call from ``src`` to ``dst`` counts for the test window: nothing for a call of a private method of
    the caller's own class (a recursive descent parser's `_parse_statement` -> `_parse_jump_statement` -> ... is
    one object's inner work, ten calls below the test that calls `parse`), one edge otherwise (a public method
    counts: django's form and field methods call one another, and counting them free doubled the tests of a
    validator)."""
    same = src.kind == "method" and dst.kind == "method" and src.parent_id == dst.parent_id
    return 0 if same and dst.name.startswith("_") and not dst.name.startswith("__") else 1


def _makes_closure(e: EdgeIn, node: Node) -> bool:
    """Whether ``e`` goes from the function ``node`` is nested in to ``node``: the closure edge of the walk,
    or the maker's own reference (``return wrapper``)."""
    return e.resolution == "closure" or (e.kind == "ref" and e.src == node.parent_id)


def _decorates(e: EdgeIn, src: Node) -> bool:
    """Whether the call ``e`` out of ``src`` is that of one of its decorators (on its first lines: the
    parser gives a decorator's call the scope of the function it decorates)."""
    return bool(src.decorators_json != "[]" and e.line < src.start_line + len(src.decorators))


def _applies_made(graph: Graph, e: EdgeIn, src: Node, maker: Node, plain: set[int]) -> bool:
    """Whether the call ``e`` of ``maker`` out of ``src`` is a decorator with arguments, ``@maker(...)``, on a
    definition in ``src``, where a function ``maker`` makes runs the change (is in ``plain``, not only a maker
    itself): it is applied there at once (``@dispatch_on("obj") def f`` runs the nested ``gen_func_dec`` when the
    module is imported; ``@retry(3) def f`` runs ``deco``, which only makes the wrapper that runs the change)."""
    if not any(c.id in plain for c in graph.children(maker.id) if c.kind in _FUNCTION_KINDS):
        return False
    for child in graph.children(src.id):
        decorators = child.decorators
        if child.start_line <= e.line < child.start_line + len(decorators):
            return any(d.split("(", 1)[0].rpartition(".")[2] == maker.name and "(" in d for d in decorators)
    return False


def _made_for_tests(graph: Graph, method: Node, within: Collection[int] | None = None) -> list[EdgeIn]:
    """:meth:`Graph.constructed_via` for the test walk, without an autouse fixture that only names the class of a
    special method (``doctest_namespace["Version"] = Version``): it runs for every test and registers the class,
    it makes no instance; the tests that use instances reach the method through edges of their own."""
    made = graph.constructed_via(method, within)
    if not made or not _is_special(method.name):
        return made
    namers = graph.nodes(e.src for e in made if e.kind == "ref")
    return [e for e in made if e.kind != "ref" or e.src not in namers or not _is_autouse(namers[e.src])]


def _through_tables(graph: Graph, fn: Node, edges: list[EdgeIn]) -> list[EdgeIn]:
    """``edges`` into a function with each confident reference from a module body replaced by the readers of
    the variables it is stored in (:meth:`Graph.table_readers`), and each construction of an instance by a
    module body, for a method run on it later, by the readers of the variable holding the instance
    (:meth:`Graph.instance_readers`), where they are known."""
    out: list[EdgeIn] = []
    for e in edges:
        src = graph._nodes.get(e.src)
        if src is not None and src.kind == "module" and e.confidence >= TEST_EDGE_MIN_CONFIDENCE:
            readers = None
            if e.kind == "ref":
                readers = graph.table_readers(src, fn, e)
            elif e.kind == "call" and e.resolution != "import-time" and fn.kind == "method":
                readers = graph.instance_readers(src, fn, e)
            if readers is not None:
                out += readers
                continue
        out.append(e)
    return out


def _prefetch_receiver_checks(
    graph: Graph,
    queue: dict[int, int],
    nodes: dict[int, Node],
    incoming: dict[int, list[EdgeIn]],
    state: dict[int, tuple[int, str, int]],
    levels: dict[int, int],
    window: _DepthWindow,
    start_set: set[int],
) -> None:
    """Load in a few queries what the receiver checks of a level of :func:`walk_tests` ask (a superset:
    the window only closes further while the level runs)."""
    checks: dict[int, set[int]] = {}
    for dst, bits in queue.items():
        node = nodes.get(dst)
        if node is None or node.kind != "method":
            continue
        edges: Sequence[EdgeIn] = incoming.get(dst, ())
        if graph.aliases(node):
            edges = graph.callers_of(node, incoming)
        constructed = node.name in _CONSTRUCTORS or _is_special(node.name)
        if not (edges or constructed) or not bits & window.open_at(levels.get(dst, state[dst][0]) + 1):
            continue  # most nodes of a level: no callers
        if constructed:
            edges = [*edges, *graph.constructed_via(node)]
        if not edges:
            continue
        demoted = node.language == "python" and node.name in _BUILTIN_METHODS
        floor = 0.0 if dst in start_set else TEST_EDGE_MIN_CONFIDENCE
        scopes = {
            e.src
            for e in edges
            if _guessed(e, demoted, floor)
            and (e.src not in state or bits & ~state[e.src][2])
        }
        if scopes:
            checks[dst] = scopes
    if checks:
        graph.prefetch_receiver_checks(checks)


def _guessed(e: EdgeIn, demoted: bool, floor: float) -> bool:
    """Whether the walk follows an edge only once the receiver check passes: an ``x.m()`` matched by name that
    is weak among many candidates, or whose m is also a built-in type's method (``demoted``), unless every
    candidate is a method of one class family (resolve.FAMILY_CONFIDENCE: mistletoe's ``token_type.read(lines)``
    over its token classes). A call on a receiver named after the class (resolve: ``receiver-name``) is followed
    unless m is also a built-in type's method (``self._cache.get(k)`` is more often a dict's than an LRUCache's)."""
    if e.resolution == "receiver-name":
        return demoted or e.confidence < floor
    if e.resolution != "name-match":
        return False
    family = e.candidates > 1 and e.confidence >= FAMILY_CONFIDENCE
    return (demoted and not family) or e.confidence < floor


class _DepthWindow:
    """Per changed symbol, the depth of its nearest test; the walk stops looking for its tests
    :data:`TEST_DEPTH_WINDOW` edges beyond it."""

    def __init__(self) -> None:
        self.first: dict[int, int] = {}  # source bit → depth of its nearest test
        self.seen = 0  # sources with a test
        self._open: dict[int, int] = {}  # depth → mask of the sources that are no longer open there

    def found(self, sources: int, depth: int) -> None:
        """Tests of ``sources`` were found at ``depth``."""
        new = sources & ~self.seen
        if not new:
            return
        self.seen |= new
        while new:
            low = new & -new
            self.first[low] = depth
            new ^= low
        self._open.clear()

    def open_at(self, depth: int) -> int:
        """A mask that clears the sources whose window closed before ``depth``."""
        if depth not in self._open:
            closed = 0
            for bit, first in self.first.items():
                if depth > first + TEST_DEPTH_WINDOW:
                    closed |= bit
            self._open[depth] = ~closed
        return self._open[depth]


def _add_tests(
    graph: Graph, hits: dict[str, TestHit], tests: Iterable[Node], depth: int, reason: str, sources: int
) -> None:
    """Each test, and the same test again in the test subclasses that inherit it."""
    tests = list(tests)
    graph.prefetch_closure(
        {t.parent_id for t in tests if t.kind == "method" and t.parent_id is not None and t.name.startswith("test")},
        "subclasses",
    )
    for t in tests:
        _add_hit(hits, t, t.qualname, depth, reason, sources)
        for sub, qual in graph.inherited_tests(t):
            _add_hit(hits, sub, qual, depth, reason, sources)


def _add_hit(hits: dict[str, TestHit], node: Node, qualname: str, depth: int, reason: str, sources: int) -> None:
    key = f"{node.path}::{qualname}"
    old = hits.get(key)
    if old is None:
        hits[key] = TestHit(node, qualname, depth, reason, sources)
    else:
        if depth < old.depth:
            old.depth, old.reason = depth, reason
        old.sources |= sources


def add_recollected(graph: Graph, hits: dict[str, TestHit]) -> None:
    """Add the ids under which pytest runs a selected test again: its class, or the test function itself, imported
    into other test modules (``from .test_base import TestBase`` collects ``test_other.py::TestBase::test_x`` too)."""
    todo = [h for h in hits.values() if h.node.language == "python" and h.qualname and not h.nodeid]
    graph.prefetch_test_imports({(h.node.path, h.qualname.partition(".")[0]) for h in todo})
    while todo:  # the hits added below are Python tests too
        h = todo.pop()
        head, dot, rest = h.qualname.partition(".")
        for path, file_id, bound in graph.test_imports(h.node.path, head):
            qualname = f"{bound}{dot}{rest}"
            if f"{path}::{qualname}" not in hits:
                node = h.node._replace(path=path, file_id=file_id)
                _add_hit(hits, node, qualname, h.depth, h.reason, h.sources)
                todo.append(hits[f"{path}::{qualname}"])


def name_guarded_tests(graph: Graph, hits: dict[str, TestHit]) -> None:
    """Give its file's node id to each Python test defined in a module-level block (``if SELENIUM: class
    TestInnerText``, ``try: ... except ImportError:``), and its class's to each test method a class body defines in
    one: the definition may not exist when pytest imports the module, and ``pytest file::TestInnerText`` then stops at
    "not found" without running the other ids; the file (the class) runs whatever tests it has."""
    python = [h for h in hits.values() if not h.nodeid and h.qualname and h.node.language == "python"]
    guarded = graph.guarded_names({h.node.file_id for h in python}) if python else set()
    for h in python:
        parts = _first_name(h.qualname).split(".")
        if (h.node.file_id, parts[0]) in guarded:
            h.nodeid = h.node.path
        elif len(parts) > 1 and (h.node.file_id, ".".join(parts[:2])) in guarded:
            # a method a class body defines in a block (`if sys.version_info >= (3, 12): def test_x(self)`): its class
            h.nodeid = nodeid(h.node.path, parts[0], h.node.language)
    # and the copies a subclass of another file inherits (asttokens' `class TestAstroid(test_mark_tokens.TestMarkTokens)`)
    inherited = [h for h in python if not h.nodeid and h.node.kind in _CLASS_KINDS and h.qualname.count(".") == 1]
    bases = {c: graph.nodes(graph._transitive(c, "bases")) for c in {h.node.id for h in inherited}}
    named = graph.guarded_names({b.file_id for found in bases.values() for b in found.values()}) if inherited else set()
    for h in inherited:
        method = _first_name(h.qualname).partition(".")[2]
        if any((b.file_id, f"{_first_name(b.qualname)}.{method}") in named for b in bases[h.node.id].values()):
            h.nodeid = nodeid(h.node.path, h.node.qualname, h.node.language)


def name_remade_tests(graph: Graph, hits: dict[str, TestHit]) -> None:
    """Give the class's node id to each decorated test method (by a decorator of the repository) of a class a
    metaclass of the repository makes (:meth:`Graph.remade_test_classes`), and to each that a known library
    renames (:func:`_renamed_by_library`): the method may be replaced by tests of other names, and ``pytest
    file::Class::method`` for a name the class no longer has runs nothing (pytest stops at "not found"); the class
    runs whatever tests it has."""
    decorated = [
        h
        for h in hits.values()
        if not h.nodeid
        and h.node.kind == "method"
        and h.node.language == "python"
        and h.qualname == h.node.qualname
        and h.node.decorators_json != "[]"
        and h.node.parent_id is not None
    ]
    if not decorated:
        return
    classes = graph.nodes({h.node.parent_id for h in decorated if h.node.parent_id is not None})
    headed = [c for c in classes.values() if c.decorators_json != "[]" or "metaclass=" in c.signature]
    remade = graph.remade_test_classes(headed) if headed else set()
    for h in decorated:
        cls = classes.get(h.node.parent_id)  # type: ignore[arg-type]
        if cls is None:
            continue
        if (cls.id in remade and graph.decorated_here(h.node)) or _renamed_by_library(h.node, cls):
            h.nodeid = nodeid(cls.path, cls.qualname, cls.language)


def _unittest_class(qualname: str, is_test: int, signature: str) -> bool:
    """Whether a test class is a unittest TestCase subclass (which pytest collects whatever its name): marked through
    an in-repo base (``is_test`` 2), named otherwise than ``Test*``, or naming a TestCase base itself."""
    if is_test == 2 or (is_test == 1 and not qualname.startswith(PYTEST_CLASS_PREFIX)):
        return True
    bases = signature.partition("(")[2].rpartition(")")[0]
    return any(b.strip().rpartition(".")[2] in TEST_BASES for b in bases.split(","))


def _renamed_by_library(method: Node, cls: Node) -> bool:
    """Whether a library known to replace a test method by methods of other names does so here: parameterized's
    ``@parameterized.expand(cases)`` (``test_match_0_...``, mistletoe), ddt's ``@data(...)`` in a class marked
    ``@ddt`` (``test_x_1_...``)."""
    heads = {d.split("(", 1)[0] for d in method.decorators}
    if any(h.endswith(".expand") and h.split(".", 1)[0] == "parameterized" for h in heads):
        return True
    ddt = any(d.split("(", 1)[0] in ("ddt", "ddt.ddt") for d in cls.decorators)
    return ddt and any(h.rpartition(".")[2] in ("data", "idata", "file_data") for h in heads)


def add_doctests(
    graph: Graph, hits: dict[str, TestHit], reached: dict[int, tuple[int, str, int]], executed: Iterable[int] = ()
) -> None:
    """pytest's doctests that run reached code: with ``--doctest-modules``, the examples in the docstring of
    each reached definition (their id ``path::module.qualname``), and every example of a module whose import
    runs a change (``executed``: pytest imports the module to collect them); and the doctest text files pytest collects
    (``--doctest-glob``, by default ``test*.txt``) whose examples name a reached function or class, or a
    reached method (a special method: its class), matched by name (reason ``doctest``)."""
    settings = graph.doctest_settings()
    if settings is None or not reached:
        return

    named: list[dict[str, tuple[int, int]]] = []  # made when first needed: its loop runs over every reached node

    def reached_names() -> dict[str, tuple[int, int]]:
        if not named:
            named.append(_reached_names(graph, reached))
        return named[0]

    if settings.modules or settings.conftest_modules:
        def add(node: Node, depth: int, bits: int) -> None:
            if not settings.collects_from(node.path) or node.kind not in (*_FUNCTION_KINDS, *_CLASS_KINDS, "module"):
                return
            if not settings.modules and node.in_test_file:  # a conftest hook's: the project's modules, not its tests
                return
            named = _doctest_named(graph, node)
            if named is None:  # doctest never looks inside a function: no example of a nested definition runs
                return
            module = graph.import_name(node.path)
            # (`index#3`, the third definition of the name: the one the class keeps, whose doctest runs as `index`)
            name = module if node.kind == "module" else f"{module}.{_first_name(node.qualname)}"
            # (a module outside packages: its file, whose every doctest runs, rather than an id pytest may not know;
            # likewise a definition whose decorator may leave its name to something doctest skips or finds elsewhere)
            test = f"{node.path}::{name}" if module is not None and named else node.path
            if f"{test}#doctest" not in hits:
                hits[f"{test}#doctest"] = TestHit(node, node.qualname, depth, "doctest", bits, nodeid=test)

        for node in graph.with_examples(reached):
            depth, _, bits = reached[node.id]
            add(node, depth + 1, bits)
        ran = {m.file_id: m for m in graph.nodes(executed).values() if m.id in reached}
        for node, words in graph.docstring_examples():
            module = ran.get(node.file_id)
            if module is not None:  # a module whose import runs the change: collecting its examples runs it
                depth, _, bits = reached[module.id]
                add(node, depth + 1, bits)
            # and the docstrings whose examples call reached code by name (`>>> algebra = BooleanAlgebra()` in the
            # docstring of another class): one depth below the nearest they name, as for the text files below
            nearest = _nearest_named(reached_names(), words)
            if nearest is not None:
                add(node, nearest[0] + 1, nearest[1])

    def doctest_text(name: str) -> bool:
        return not name.endswith(".py") and any(fnmatch.fnmatchcase(name, g) for g in settings.globs)

    # a repository without pytest settings (django) is not searched for pytest's default `test*.txt` doctests:
    # listing its tree costs 10-30 ms a review, for files that are data there
    texts = graph.files.find_tracked(doctest_text, settings.testpaths or ("",)) if graph.files and settings.configured else []
    examples = {path: _example_words(graph.files.read_tracked(path) if graph.files is not None else None) for path in texts}
    # and the text files a conftest.py collects through Sybil, below its folder (parsel's docs/conftest.py:
    # `pytest_collect_file = Sybil(parsers=[DocTestParser()], pattern="*.rst").pytest()`), whose code blocks are
    # examples too (tldextract's `Sybil(parsers=[PythonCodeBlockParser()], patterns=["README.md"])`)
    for folder, pattern in graph.sybil_patterns():
        if graph.files is not None:
            for path in graph.files.find_tracked(partial(_matches_pattern, pattern), (folder,)):
                examples[path] = _example_words(graph.files.read_tracked(path), code_blocks=True)
    if not any(examples.values()):  # (django has test*.txt files: data, no examples)
        return
    names = dict(reached_names())
    # an example importing a module whose import runs a change runs it (tldextract's `TLD_EXTRACTOR = TLDExtract()`)
    for module in graph.nodes(executed).values():
        imported = graph.import_name(module.path) if module.id in reached and module.kind == "module" else None
        if imported is None:
            continue
        name = imported.rpartition(".")[2]
        depth, _, bits = reached[module.id]
        if name not in names or names[name][0] > depth:
            names[name] = (depth, bits)
    _add_naming_files(hits, names, examples, "doctest")


def add_doctest_runners(
    graph: Graph, hits: dict[str, TestHit], reached: dict[int, tuple[int, str, int]], executed: Iterable[int] = ()
) -> None:
    """The test files that run the doctests of modules themselves (:meth:`Graph.doctest_runners`), run whole when an
    example of a module they import or name calls reached code by name, or when the import of one runs a change (reason
    ``doctest``): the walk cannot follow what a parametrized test hands to ``doctest.testmod``."""
    if not reached:
        return
    runners = graph.doctest_runners()
    if not runners:
        return
    names = _reached_names(graph, reached)
    ran = {m.file_id: reached[m.id] for m in graph.nodes(executed).values() if m.id in reached}
    examples: dict[int, set[str]] = {}
    for node, words in graph.docstring_examples():
        examples.setdefault(node.file_id, set()).update(words)
    for path, files in sorted(runners.items()):
        nearest = _nearest_named(names, (w for f in files for w in examples.get(f, ())))
        imported = [ran[f] for f in files if f in ran]
        if imported:  # collecting a module's examples imports it
            depth = min(d for d, _, _ in imported)
            bits = 0
            for _, _, b in imported:
                bits |= b
            nearest = (depth, bits) if nearest is None else (min(depth, nearest[0]), nearest[1] | bits)
        if nearest is not None:
            hits.setdefault(f"{path}::", TestHit(_file_test(path), "", nearest[0] + 1, "doctest", nearest[1], nodeid=path))


def add_unparsed_tests(graph: Graph, hits: dict[str, TestHit], reached: dict[int, tuple[int, str, int]]) -> None:
    """Test files over the size limit are not parsed, so the walk cannot reach their tests: such a file is
    selected whole when its text names a reached function, class or method, as a doctest text file is
    (reason ``unparsed``)."""
    rows = graph.conn.execute("SELECT path, language FROM files WHERE status = 'skipped:too-large'").fetchall()
    if not rows:
        return
    # Python test modules as the index was built: with the python_files of the tree's pytest settings
    row = graph.conn.execute("SELECT value FROM meta WHERE key='python_files'").fetchone()
    python.set_test_file_patterns(python.patterns_from_meta(row[0] if row else None))
    tests = [str(p) for p, lang in rows if lang and hooks_for(lang).is_test_file(p)]
    if not tests or graph.files is None or not reached:
        return
    texts = {path: set(_WORD.findall((graph.files.read_tracked(path) or b"").decode("utf-8", "replace"))) for path in tests}
    _add_naming_files(hits, _reached_names(graph, reached), texts, "unparsed")


def add_exec_made_tests(graph: Graph, hits: dict[str, TestHit], reached: dict[int, tuple[int, str, int]]) -> None:
    """A test module whose body runs ``exec(...)`` may make tests from code the index never sees (configargparse
    execs CPython's own test_argparse.py, rewritten to use its parser, into its test module): those tests may use
    anything the module imports. Such a file is selected whole when the walk reaches code (not tests) of a file its body
    imports, or of another module of that file's package (reason ``exec``)."""
    rows = graph.conn.execute(
        "SELECT DISTINCT s.id, f.path FROM refs r JOIN symbols s ON s.id = r.scope_id JOIN files f ON f.id = r.file_id"
        " WHERE r.name = 'exec' AND r.kind = 'call' AND r.receiver = '' AND s.kind = 'module' AND f.language = 'python'"
    ).fetchall()
    modules = [(int(sid), str(path)) for sid, path in rows if not _is_conftest(str(path))]
    if not modules or not reached:
        return
    nodes = graph.nodes(sid for sid, _ in modules)
    modules = [(sid, path) for sid, path in modules if sid in nodes and nodes[sid].in_test_file]
    if not modules:
        return
    # the reached code's files: depth and sources of the nearest node of each
    by_path: dict[str, tuple[int, int]] = {}
    for sid, n in graph.nodes(reached).items():
        if n.in_test_file:  # the tests the walk found, not code the made tests may use
            continue
        depth, _, bits = reached[sid]
        old = by_path.get(n.path)
        by_path[n.path] = (min(depth, old[0]), old[1] | bits) if old else (depth, bits)
    for module, path in modules:
        imported = graph.conn.execute(
            "SELECT DISTINCT f.path FROM edges e JOIN files f ON f.id = e.dst_file_id"
            " WHERE e.src_id = ? AND e.kind = 'import' AND e.dst_file_id != e.file_id",
            (module,),
        ).fetchall()
        files = {str(p) for (p,) in imported}
        # a module of a package: the package's other modules too (`import pkg.core` binds pkg; `from pkg import
        # store` may sit next to `pkg.api` the made code reaches through it)
        folders = tuple({posixpath.dirname(p) + "/" for p in files if "/" in p})
        found = [v for p, v in by_path.items() if p != path and (p in files or (folders and p.startswith(folders)))]
        if found:
            depth = min(d for d, _ in found)
            sources = 0
            for _, bits in found:
                sources |= bits
            _add_hit(hits, _file_test(path), "", depth + 1, "exec", sources)


def _reached_names(graph: Graph, reached: dict[int, tuple[int, str, int]]) -> dict[str, tuple[int, int]]:
    """Name → (depth, sources) of the reached functions, classes and methods; a special method or a constructor
    is named by its class (`a < b` runs ``__lt__``, `Box(1)` runs ``__init__``)."""
    nodes = graph.nodes(reached)
    parents = graph.nodes(
        n.parent_id for n in nodes.values() if n.parent_id is not None and (_is_special(n.name) or n.name in _CONSTRUCTORS)
    )
    named: dict[str, tuple[int, int]] = {}
    for sid, n in nodes.items():
        if n.kind not in _FUNCTION_KINDS and n.kind not in _CLASS_KINDS:
            continue
        name = n.name
        if n.name.startswith("__") and n.parent_id in parents:
            name = parents[n.parent_id].name
        depth, _, bits = reached[sid]
        old = named.get(name)
        named[name] = (min(depth, old[0]), old[1] | bits) if old else (depth, bits)
    return named


def _matches_pattern(pattern: str, name: str) -> bool:
    return fnmatch.fnmatchcase(name, pattern)


def _add_naming_files(
    hits: dict[str, TestHit], named: dict[str, tuple[int, int]], words_by_path: dict[str, set[str]], reason: str
) -> None:
    """Each file whose words name reached code, as a test run whole (one depth below the nearest named)."""
    for path, words in words_by_path.items():
        nearest = _nearest_named(named, words)
        if nearest is not None:
            test = TestHit(_file_test(path), "", nearest[0] + 1, reason, nearest[1], nodeid=path)
            hits.setdefault(f"{path}::", test)


def _nearest_named(named: dict[str, tuple[int, int]], words: Iterable[str]) -> tuple[int, int] | None:
    """The depth of the nearest reached code ``words`` name and the changes all of it reaches (:func:`_reached_names`);
    None when they name none."""
    found = [named[w] for w in words if w in named]
    if not found:
        return None
    bits = 0
    for _, b in found:
        bits |= b
    return min(d for d, _ in found), bits


def _collected_name(tests: tuple[tuple[str, str], ...], name: str) -> bool:
    """Whether a file name passes the name tests of a ``pytest_collect_file`` hook: every prefix it asks for, and
    one of its suffixes, names and globs (a hook naming none is not understood: nothing passes). pytest stops
    with "not found" on a file given by path that no collector takes, so a guess must not be too wide."""
    if name.endswith(".py"):
        return False
    prefixes = [literal for literal, how in tests if how == "prefix"]
    stem = name.partition(".")[0]
    if not all(name.startswith(p) or stem.startswith(p) for p in prefixes):
        return False
    return any(
        (how == "suffix" and name.endswith(literal))
        or (how == "name" and name == literal)
        or (how == "glob" and fnmatch.fnmatchcase(name, literal))
        for literal, how in tests
    )


def _protocol_edges(method: Node, sites: list[tuple[int, int]], defined: int) -> list[EdgeIn]:
    """Edges into ``method`` from the (scope, line) ``sites`` that call its name on objects of unknown type, with the
    confidence of a name match among the ``defined`` methods of that name (its own call sites left out)."""
    confidence = round(0.5 / max(defined, 1), 3)
    return [EdgeIn(scope, method.id, "call", confidence, "protocol", line) for scope, line in sites if scope != method.id]


def _is_conftest(path: str) -> bool:
    return path == "conftest.py" or path.endswith("/conftest.py")  # (posixpath.basename: asked for every node)


def _file_test(path: str) -> Node:
    """A test file that is not Python (pytest runs every test it collects from it), as a node."""
    return Node(0, 0, path, "", "", posixpath.basename(path), "test", 1, 1, None, 1, 1, "[]", "[]", "")


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _example_words(data: bytes | None, *, code_blocks: bool = False) -> set[str]:
    """The identifiers of the doctest examples of a text (lines starting ``>>>`` or ``...``); with ``code_blocks``,
    of its Python code blocks too (Markdown's fenced blocks, reStructuredText's ``.. code-block:: python``)."""
    if not data:
        return set()
    words: set[str] = set()
    fence, python = "", False  # the fence of the Markdown code block the line is in, and whether it is Python's
    indent = -1  # the indent of the reStructuredText code-block directive the lines below belong to
    for line in data.decode("utf-8", "replace").splitlines():
        code = line.lstrip()
        if code.startswith((">>>", "...")):
            words.update(_WORD.findall(code[3:]))
        if not code_blocks:
            continue
        if fence:
            if code.startswith(fence):
                fence = ""
            elif python:
                words.update(_WORD.findall(code))
        elif code.startswith(("```", "~~~")):
            fence, python = code[:3], code.lstrip("`~").strip().lower() in _PYTHON_BLOCK_TAGS
        elif indent >= 0 and (not code or len(line) - len(code) > indent):
            words.update(_WORD.findall(code))
        else:
            directive = _RST_CODE_BLOCK.match(line)
            indent = len(line) - len(line.lstrip()) if directive is not None else -1
    return words


def _is_special(name: str) -> bool:
    """A special method Python calls itself, other than the constructors (``__getattr__``, ``__getitem__``,
    ``__bool__``, ...; not a project's own ``__html__``, which is called by name)."""
    return name in PROTOCOL_METHODS and name not in _CONSTRUCTORS


def _is_autouse(node: Node) -> bool:
    if "fixture" not in node.decorators_json:  # most nodes: no need to decode
        return False
    return node.kind in _FUNCTION_KINDS and any(
        d.split("(", 1)[0].endswith("fixture") and "autouse=True" in d.replace(" ", "") for d in node.decorators
    )


def _autouse_scope(graph: Graph, fixture: Node) -> list[Node]:
    """The tests an autouse fixture runs for: its class, its module, or below its conftest.py."""
    parent = graph.nodes([fixture.parent_id]).get(fixture.parent_id) if fixture.parent_id else None
    if parent is not None and parent.kind in _CLASS_KINDS:
        return graph.tests_under(parent)
    return _module_tests(graph, fixture.path)


def _module_tests(graph: Graph, path: str) -> list[Node]:
    """The tests a test module's code affects: its own, or every test below a conftest.py."""
    if not _is_conftest(path):
        return graph.tests_in_files([path])
    directory = posixpath.dirname(path)
    prefix = directory + "/" if directory else ""
    paths = [
        r[0]
        for r in graph.conn.execute(
            "SELECT path FROM files WHERE is_test=1 AND path LIKE ? ESCAPE '\\'", (escape_like(prefix) + "%",)
        )
    ]
    return graph.tests_in_files(paths)


def _reads_variable(variable: str, ref: tuple[int, str, str, str, int]) -> bool:
    """Whether a reference (scope, kind, name, receiver, line) reads ``variable`` (``V`` or ``mod.V``): ``V``,
    ``V.get(k)``, ``V[k]``, ``x = V``, ``mod.V``; a ``holds`` reference stores it (``ALL = [V]``)."""
    _scope, kind, name, receiver, _line = ref
    if kind == "assign" or kind == "alias":
        return _starts_with(receiver, variable)
    if kind == "holds":  # the receiver is where the value goes
        return _starts_with(name, variable)
    if not receiver:
        return _starts_with(name, variable)
    return _starts_with(receiver, variable) or f"{receiver}.{name}" == variable


def _root(text: str) -> str:
    """The name an access starts with: ``V`` for ``V``, ``V.get(k)``, ``V[k]``; ``mod`` for ``mod.V``. Whatever
    :func:`_reads_variable` finds for a variable starts with the variable's own root."""
    return _ROOT_END.split(text, maxsplit=1)[0]


_ROOT_END = re.compile(r"[.\[(]")


def _table_access(variable: str, receiver: str, name: str) -> str:
    """The member of ``variable`` a call reference uses first: ``keys`` for ``V.keys()`` (receiver ``V``, name
    ``keys``) and for ``sorted(V.keys())`` (receiver ``V.keys()``, name ``__iter__``)."""
    if receiver == variable:
        return name
    rest = receiver[len(variable) :]
    return re.split(r"[.\[(]", rest[1:], maxsplit=1)[0] if rest.startswith(".") else ""


def _starts_with(text: str, variable: str) -> bool:
    """``text`` is ``variable`` or an access through it (``V.x``, ``V[k]``, ``V(...)``)."""
    return text.startswith(variable) and (len(text) == len(variable) or text[len(variable)] in ".[(")


def _package_dir(module: Node) -> str | None:
    """``a/b/`` for the module ``a/b/__init__.py`` (Python); None for any other module."""
    if module.language != "python" or posixpath.basename(module.path) != "__init__.py":
        return None
    parent = posixpath.dirname(module.path)
    return parent + "/" if parent else None


def nodeid(path: str, qualname: str, language: str) -> str:
    """The pytest node id of a Python test (``tests/test_x.py::TestA::test_b``); the file for others."""
    if language != "python":
        return path
    return f"{path}::{_first_name(qualname).replace('.', '::')}"


#: decorators after which doctest still finds a definition's examples under its own name (they keep a routine, or
#: something doctest looks into, with the function's docstring)
_DOCTEST_KEEPING_DECORATORS = frozenset((
    "staticmethod", "classmethod", "property", "setter", "getter", "deleter", "abstractmethod", "lru_cache", "cache",
    "wraps", "contextmanager", "asynccontextmanager", "singledispatch", "overload", "override", "final",
))


def _doctest_named(graph: Graph, node: Node) -> bool | None:
    """Whether pytest's doctest runs the examples of ``node``'s docstring under the id its qualname gives: None when it
    never runs them (a definition inside a function, which doctest does not look into); False when it may run them
    under another name or not at all (a decorator that makes the name hold an object doctest skips, such as pybtex's
    ``@node`` returning a ``Node`` and keeping the function in the module's ``__test__`` table, run as
    ``module.__test__.tag``); the caller then gives the file, every example of which runs. A decorator of the
    repository is known by what runs the function it decorates (resolve: ``decorated`` edges): a wrapper made with
    ``functools.wraps`` keeps the name, another wrapper or an object's method does not; a decorator the index does not
    know (another package's, or one that returns the function itself) is taken to keep it."""
    parent = node.parent_id
    while parent is not None:
        above = graph.nodes([parent]).get(parent)
        if above is None or above.kind == "module":
            break
        if above.kind in _FUNCTION_KINDS:
            return None
        parent = above.parent_id
    if node.kind not in _FUNCTION_KINDS or all(decorator_name(d) in _DOCTEST_KEEPING_DECORATORS for d in node.decorators):
        return True
    runners = [
        r[0] for r in graph.conn.execute("SELECT src_id FROM edges WHERE dst_id = ? AND resolution = 'decorated'", (node.id,))
    ]
    return all(
        n.kind in _FUNCTION_KINDS and any(decorator_name(d) == "wraps" for d in n.decorators)
        for n in graph.nodes(runners).values()
    )


def _first_name(qualname: str) -> str:
    """A qualname without the parser's numbers of repeated definitions (``C#2.f#3`` → ``C.f``)."""
    if "#" not in qualname:
        return qualname
    return ".".join(p.split("#", 1)[0] for p in qualname.split("."))


def convention_tests(
    graph: Graph,
    files_by_path: dict[str, list[str]],
    names_by_path: dict[str, set[str]],
    covered_paths: set[str],
    found_files: set[str],
) -> dict[str, list[Node]]:
    """By changed path, the tests in its convention files (``files_by_path``: ``test_<module>.py`` / ``<module>_test.py``
    for a changed ``<module>.py``, :func:`convention_files`): those that name a
    changed symbol, or every test of the file when the graph found no test for that module at all; for a module of
    a family (``lang_RU.py`` among ``lang_*.py``), also when it found none in that file (``found_files``: num2words's
    changed ``lang_RU.py`` reaches other languages' tests through the base class, its own through a string)."""
    out: dict[str, list[Node]] = {}
    for path, files in sorted(files_by_path.items()):
        if not files:
            continue
        tests = graph.tests_in_files(files)
        names = names_by_path.get(path, set())
        naming = _tests_naming(graph, tests, names) if names else []
        if naming:
            out[path] = naming
        elif path not in covered_paths or (found_files.isdisjoint(files) and _in_family(graph, path)):
            out[path] = tests
    return out


def convention_files(graph: Graph, path: str) -> list[str]:
    """The test files named after a Python module by convention (:func:`_convention_names`); none for a test file."""
    base = posixpath.basename(path)
    if not path.endswith(".py") or base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py":
        return []
    stem = base[:-3]
    if stem == "__init__":
        stem = posixpath.basename(posixpath.dirname(path)) or stem
    wanted = _convention_names(stem)
    return [
        r[0]
        for r in graph.conn.execute(
            "SELECT path FROM files WHERE is_test=1 AND ("
            + " OR ".join(["path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\'"] * len(wanted))
            + ")",
            [p for w in wanted for p in ("%/" + escape_like(w), escape_like(w))],
        )
    ]


def _in_family(graph: Graph, path: str) -> bool:
    """Whether a module is one of several of its folder named alike, by a first word and another (``lang_RU.py``,
    ``lang_EN.py``): plug-ins, whose shared code makes the graph reach every member's tests from any of them."""
    folder, _, base = path.rpartition("/")
    prefix, sep, _ = base.partition("_")
    if not sep or not prefix:
        return False
    pattern = escape_like(f"{folder}/{prefix}_" if folder else f"{prefix}_") + "%.py"
    (count,) = graph.conn.execute(
        "SELECT count(*) FROM files WHERE path LIKE ? ESCAPE '\\' AND is_test=0", (pattern,)
    ).fetchone()
    return bool(count > 1)


def _convention_names(stem: str) -> tuple[str, ...]:
    """The test file names, lower case, that go by convention with a module's stem: ``test_<stem>.py`` and
    ``<stem>_test.py``; and for a stem of several words, those of its last word (num2words's ``lang_RU.py`` and
    ``tests/test_ru.py``)."""
    words = [stem.lower()]
    last = stem.rpartition("_")[2].lower()
    if last != words[0] and len(last) > 1:
        words.append(last)
    return tuple(name for w in words for name in (f"test_{w}.py", f"{w}_test.py"))


def _tests_naming(graph: Graph, tests: list[Node], names: set[str]) -> list[Node]:
    if not tests:
        return []
    ids = {t.id: t for t in tests}
    found: list[Node] = []
    name_list = sorted(names)
    for chunk in _chunks(sorted(ids)):
        ph = ",".join("?" * len(chunk))
        nph = ",".join("?" * len(name_list))
        for (scope,) in graph.conn.execute(
            f"SELECT DISTINCT scope_id FROM refs WHERE scope_id IN ({ph}) AND name IN ({nph})", [*chunk, *name_list]
        ):
            found.append(ids[scope])
    return sorted(found, key=lambda t: (t.path, t.start_line))


# --- findings ------------------------------------------------------------------------------------


def _finding(rule: str, file: str, line: int, message: str) -> Finding:
    return Finding(rule=rule, severity=RULES[rule][1], file=file, line=line, message=message)


def _stem(path: str) -> str:
    """``pkg/core.py`` → ``pkg/core``; ``pkg/__init__.py`` → ``pkg``."""
    stem = path.rsplit(".", 1)[0]
    return stem[: -len("/__init__")] if stem.endswith("/__init__") else ("" if stem == "__init__" else stem)


def _import_stem(importer: str, module: str, level: int) -> str:
    """The path stem a Python import names, relative imports resolved against the importer."""
    rel = module.replace(".", "/")
    if not level:
        return rel
    base = posixpath.dirname(importer)
    for _ in range(level - 1):
        base = posixpath.dirname(base)
    return posixpath.join(base, rel) if rel else base


def _stem_matches(file_stem: str, import_stem: str) -> bool:
    return bool(import_stem) and (file_stem == import_stem or file_stem.endswith("/" + import_stem))


@dataclass
class Reference:
    file: str
    line: int
    scope_id: int
    kind: str  # import | call | ref


def removed_references(graph: Graph, removed: Removed, head_paths: set[str]) -> list[Reference]:
    """Places in the head index that still import or use a removed symbol (Python imports, bare names
    in its own file, ``module.name`` through an import of its module, ``self.name``/``Class.name`` for
    methods) and resolve to nothing else of that name."""
    conn = graph.conn
    s = removed.symbol
    name = s.name
    file_stem = _stem(removed.path)
    out: list[Reference] = []
    is_method = removed.parent is not None and removed.parent.kind in _CLASS_KINDS
    top_level = removed.parent is None
    if not (top_level or is_method):
        return []
    importing: set[int] = set()  # files that import the name from the removed symbol's module
    if top_level and removed.language == "python":
        for fid, path, scope, module, level, line in conn.execute(
            "SELECT i.file_id, f.path, i.scope_id, i.module, i.level, i.line FROM imports i JOIN files f ON f.id=i.file_id"
            " WHERE i.name=?",
            (name,),
        ):
            if _stem_matches(file_stem, _import_stem(path, module, level)) and not _import_resolves(
                conn, fid, line, name
            ):
                out.append(Reference(path, line, scope, "import"))
                importing.add(fid)
    module_names = _module_bindings(conn, removed) if top_level and removed.language == "python" else {}
    rows = conn.execute(
        "SELECT r.id, r.file_id, f.path, r.scope_id, r.receiver, r.line, r.kind FROM refs r JOIN files f ON f.id=r.file_id"
        " WHERE r.name=? AND r.kind IN ('call','ref','attr','decorator','type')",
        (name,),
    ).fetchall()
    parent_name = removed.parent.name if removed.parent is not None else ""
    for rid, fid, path, scope, receiver, line, kind in rows:
        if top_level:
            same_file = receiver == "" and (path == removed.path or fid in importing)
            via_module = receiver != "" and receiver in module_names.get(fid, ())
            if not (same_file or via_module):
                continue
        else:
            own_file = path == removed.path
            if receiver in ("self", "cls") or receiver.startswith("super"):
                if not own_file and not _in_subclass_file(conn, fid, parent_name):
                    continue
            elif receiver != parent_name:
                continue
        if _ref_resolves(conn, rid, scope, name):
            continue
        out.append(Reference(path, line, scope, "call" if kind in ("call", "decorator") else "ref"))
    seen: set[tuple[str, int]] = set()
    unique = []
    for r in sorted(out, key=lambda r: (r.file, r.line)):
        if (r.file, r.line) not in seen:
            seen.add((r.file, r.line))
            unique.append(r)
    return unique


def _import_resolves(conn: sqlite3.Connection, fid: int, line: int, name: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM edges e JOIN symbols d ON d.id=e.dst_id WHERE e.file_id=? AND e.kind='import' AND e.line=?"
            " AND d.name=? LIMIT 1",
            (fid, line, name),
        ).fetchone()
        is not None
    )


def _ref_resolves(conn: sqlite3.Connection, rid: int, scope: int, name: str) -> bool:
    """Whether a reference still means some definition of ``name`` (other than by a bare name match)."""
    if conn.execute("SELECT 1 FROM unresolved WHERE ref_id=? LIMIT 1", (rid,)).fetchone() is not None:
        return False
    return (
        conn.execute(
            "SELECT 1 FROM edges e JOIN symbols d ON d.id=e.dst_id WHERE e.src_id=? AND d.name=?"
            " AND e.resolution NOT IN ('name-match', 'receiver-name') LIMIT 1",
            (scope, name),
        ).fetchone()
        is not None
    )


def _in_subclass_file(conn: sqlite3.Connection, fid: int, class_name: str) -> bool:
    return (
        conn.execute("SELECT 1 FROM bases WHERE file_id=? AND name=? LIMIT 1", (fid, class_name)).fetchone() is not None
    )


def _module_bindings(conn: sqlite3.Connection, removed: Removed) -> dict[int, set[str]]:
    """file id → receiver texts that name the removed symbol's module there (``core``, ``pkg.core``, alias)."""
    file_stem = _stem(removed.path)
    tail = posixpath.basename(file_stem)
    out: dict[int, set[str]] = {}
    for fid, path, module, name, alias, level in conn.execute(
        "SELECT i.file_id, f.path, i.module, i.name, i.alias, i.level FROM imports i JOIN files f ON f.id=i.file_id"
        " WHERE (i.name IS NULL AND (i.module_tail=? OR i.module=?)) OR i.name=?",
        (tail, tail, tail),
    ):
        if name is None and _stem_matches(file_stem, _import_stem(path, module, level)):
            out.setdefault(fid, set()).add(alias or module)
        elif name == tail and _stem_matches(
            file_stem, _import_stem(path, f"{module}.{name}" if module else name, level)
        ):
            out.setdefault(fid, set()).add(alias or name)
    return out


def removed_module_imports(graph: Graph, old_path: str, new_path: str | None, head_paths: set[str]) -> list[Finding]:
    """Imports of a deleted or renamed Python module that nothing in the head provides any more."""
    stem = _stem(old_path)
    if any(_stem(p) == stem for p in head_paths if p.endswith((".py", ".pyi"))):
        return []
    old_module = stem.replace("/", ".")
    where = f"renamed to {new_path}" if new_path else "deleted"
    tail = posixpath.basename(stem)
    out = []
    for path, module, name, level, line in graph.conn.execute(
        "SELECT f.path, i.module, i.name, i.level, i.line FROM imports i JOIN files f ON f.id=i.file_id"
        " WHERE i.module_tail=? OR i.name=?",
        (tail, tail),
    ):
        direct = _stem_matches(stem, _import_stem(path, module, level))
        submodule = name == tail and _stem_matches(
            stem, _import_stem(path, f"{module}.{name}" if module else name, level)
        )
        if direct or submodule:
            out.append(_finding("CRG001", path, line, f"imports module {old_module}, which this change {where}"))
    return out


def _arity_problem(params: tuple[str, ...], arity: int | None, keywords: Sequence[str], bound: int) -> str | None:
    """Why a call with ``arity`` positional arguments and ``keywords`` cannot bind to ``params``
    (after dropping ``bound`` leading parameters: self/cls), or None."""
    ps = list(params[bound:])
    positional: list[str] = []  # names that accept positional arguments
    posonly: set[str] = set()
    kwonly: list[str] = []
    star = kwstar = False
    seen_star = False
    for p in ps:
        if p == "/":
            posonly.update(x.rstrip("=") for x in positional)
            continue
        if p == "*":
            seen_star = True
            continue
        if p.startswith("**"):
            kwstar = True
            continue
        if p.startswith("*"):
            star = seen_star = True
            continue
        (kwonly if seen_star else positional).append(p)
    kws = [k for k in keywords if k != "**"]
    splat_kw = "**" in keywords
    names_pos = [p.rstrip("=") for p in positional]
    if arity is not None and arity > len(positional) and not star:
        return f"passes {arity} positional argument(s), the new signature takes {len(positional)}"
    keyword_ok = {n for n in names_pos if n not in posonly} | {p.rstrip("=") for p in kwonly}
    for k in kws:
        if k not in keyword_ok and not kwstar:
            return f"passes keyword '{k}', which the new signature does not accept"
        if arity is not None and k in names_pos[:arity]:
            return f"passes '{k}' both by position and by keyword"
    if arity is None or splat_kw:
        return None
    for i, p in enumerate(positional):
        n = p.rstrip("=")
        if not p.endswith("=") and i >= arity and n not in kws:
            return f"does not pass required argument '{n}'"
    for p in kwonly:
        if not p.endswith("=") and p not in kws:
            return f"does not pass required keyword argument '{p}'"
    return None


def _bound_params(graph: Graph, target: Node, via_constructor: bool) -> int:
    if target.kind != "method":
        return 0
    plain = {d.split("(", 1)[0] for d in target.decorators}
    if "staticmethod" in plain:
        return 0
    return 1 if target.params and not target.params[0].startswith("*") else 0


def incompatible_calls(graph: Graph, target: Node, changed_ids: set[int]) -> list[Finding]:
    """Call sites of a function whose signature changed that no longer bind to its parameters (Python)."""
    if target.language != "python" or target.kind not in _FUNCTION_KINDS:
        return []
    callers_in = [
        e
        for e in graph.incoming([target.id])[target.id]
        if e.kind == "call" and e.resolution not in ("name-match", "receiver-name", "dispatch", "receiver-guess")
    ]
    out: list[Finding] = []
    for e in callers_in:
        via_ctor = e.resolution == "constructor"
        rows = graph.conn.execute(
            "SELECT r.line, r.arity, r.keywords, r.receiver, r.name, f.path FROM refs r JOIN files f ON f.id=r.file_id"
            " WHERE r.scope_id=? AND r.kind='call' AND r.name=? ORDER BY r.line",
            (e.src, _called_name(graph, target, via_ctor)),
        ).fetchall()
        for line, arity, keywords, receiver, _name, path in rows:
            bound = _bound_params(graph, target, via_ctor)
            if target.kind == "method" and not via_ctor:
                # Class.method(obj, ...) passes self explicitly
                parent = graph.nodes([target.parent_id]).get(target.parent_id) if target.parent_id else None
                if (
                    parent is not None
                    and receiver == parent.name
                    and "classmethod" not in {d.split("(", 1)[0] for d in target.decorators}
                ):
                    bound = 0
            problem = _arity_problem(target.params, arity, [k for k in keywords.split(",") if k], bound)
            if problem:
                out.append(
                    _finding(
                        "CRG002",
                        path,
                        line,
                        f"call of {target.qualname} {problem} ({target.signature})",
                    )
                )
    return out


def _called_name(graph: Graph, target: Node, via_ctor: bool) -> str:
    if via_ctor and target.parent_id is not None:
        return graph.node(target.parent_id).name
    return target.name


def _public(node: Node) -> bool:
    parts = node.qualname.split(".")
    return not any(p.startswith("_") for p in parts)


def _registered(node: Node) -> bool:
    """Decorated by something other than staticmethod/classmethod/property: a framework calls it."""
    return any(d.split("(", 1)[0] not in _PLAIN_DECORATORS for d in node.decorators)


def fail_reached(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether findings reach the ``--fail-on`` level (error | warning | never)."""
    if fail_on == "never":
        return False
    level = _SEVERITY_RANK[fail_on]
    return any(_SEVERITY_RANK.get(f.severity, 0) >= level for f in findings)


# --- the review of a diff ------------------------------------------------------------------------


@contextmanager
def paused_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector: a big review makes hundreds of thousands of small objects and
    keeps them all, and the collector would walk them again and again for nothing (a tenth of the django
    review's time). It runs again afterwards: the command line also runs in-process (tests, hooks)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def review_diff(
    ws: Workspace,
    spec: DiffSpec,
    *,
    depth: int | None = None,
    cap: int = DEFAULT_CAP,
    test_seconds: float | None = None,
) -> Review:
    """Review the change ``spec`` describes: index brought to its head side, then the walks and rules.
    ``test_seconds``: a time limit for the search for related tests (the hook's; None or 0: none)."""
    started = time.perf_counter()
    repo: Repo = ws.repo  # type: ignore[assignment]
    diff = repo.diff(spec)
    t_diff = time.perf_counter()
    report = ws.update(source_for(diff))  # the collector runs: a rebuild leaves cycles behind
    t_index = time.perf_counter()
    with paused_collection():
        graph = Graph(ws.store.conn, files=ws)
        touched = touched_symbols(repo, graph, diff, ws.config.excludes)
        review = _analyze(
            graph,
            touched,
            depth=ws.config.depth if depth is None else depth,
            cap=cap,
            base=diff.base_commit,
            head=diff.head_label,
            deadline=Deadline(test_seconds) if test_seconds else None,
        )
        review.related = related_code_for(ws, review)
    review.head_commit = diff.head_commit  # staged and work-tree content has no blob URL
    review.web_url = repo.remote_web_url()
    review.stats["files"] = touched.files
    review.stats["index"] = {
        "parsed": report.parsed,
        "deleted": report.deleted,
        "resolved_files": report.resolved_files,
    }
    done = time.perf_counter()
    review.stats["timings"] = {
        "diff": round(t_diff - started, 4),
        "index": round(t_index - t_diff, 4),
        "analysis": round(done - t_index, 4),
        "total": round(done - started, 4),
    }
    return review


def related_code_for(ws: Workspace, review: Review, limit: int = 3) -> list[Related]:
    """Code similar to the changed symbols that is neither their caller nor their callee ("may need the
    same change"). Only when the index already has vectors (``crg-review search`` fills them): a review
    never loads an embedding model on its own, so the pre-commit path stays fast."""
    conn = ws.store.conn
    if not ws.store.has_vectors():
        return []

    def ids(rows: Iterable[tuple[str, str]]) -> list[int]:
        out: list[int] = []
        for path, qualname in rows:
            row = conn.execute(
                "SELECT s.id FROM symbols s JOIN files f ON f.id=s.file_id WHERE f.path=? AND s.qualname=?",
                (path, qualname),
            ).fetchone()
            if row is not None:
                out.append(int(row[0]))
        return out

    changed = ids((c.file, c.qualname) for c in review.changed if c.change != "removed" and c.kind != "module")
    if not changed:
        return []
    from .search import related_code, update_search_index

    try:
        with ws.store.atomic():
            update_search_index(ws.store, ws.repo, model=ws.config.embed_model)  # type: ignore[arg-type]
        return related_code(
            ws.store,
            changed,
            ids((i.file, i.qualname) for i in review.impacted),
            limit,
            model=ws.config.embed_model,
        )
    except CrgError as exc:
        log.warning("related code left out: %s", exc)
        return []


def _runner_package_changed(graph: Graph, starts: Sequence[int]) -> str | None:
    """Why every test is selected when the change is to a package pytest itself imports before it runs a test
    (:data:`RUNNER_PACKAGES`: developing pluggy or iniconfig, the checkout's code is the runner's): a fault there can
    stop every test, whatever calls it; None otherwise."""
    for node in sorted(graph.nodes(starts).values(), key=attrgetter("path", "start_line")):
        if node.language != "python" or node.in_test_file:
            continue
        name = graph.import_name(node.path)
        top = name.partition(".")[0] if name else ""
        if top in RUNNER_PACKAGES:
            return f"{node.path} changed: pytest imports {top} before it runs any test"
    return None


def _plugin_hook_changed(graph: Graph, starts: Sequence[int]) -> str | None:
    """Why every test is selected when a changed function is a pytest hook (``pytest_configure``, ...) of a module
    the project loads as a plugin (:func:`~crg_review.pytest_settings.registered_plugins`): pytest calls it for the
    whole session; None otherwise."""
    hooks = [
        n
        for n in graph.nodes(starts).values()
        if n.kind == "function" and n.name.startswith("pytest_") and n.language == "python" and not n.in_test_file
    ]
    if not hooks or graph.files is None:
        return None
    from .pytest_settings import registered_plugins

    plugins = registered_plugins(graph.files.read_tracked)
    for hook in hooks:
        if hook.parent_id == graph.module_symbol(hook.file_id) and graph.import_name(hook.path) in plugins:
            return f"{hook.path}: {hook.name} changed, a hook of a pytest plugin this project loads: it runs for every test"
    return None


def _analyze(
    graph: Graph,
    touched: Touched,
    *,
    depth: int,
    cap: int,
    base: str | None,
    head: str,
    deadline: Deadline | None = None,
) -> Review:
    review = Review(base=base, head=head, changed=list(touched.changed), select_all=touched.select_all)
    if review.select_all is None:
        review.select_all = _plugin_hook_changed(graph, sorted(touched.start_ids))
    if review.select_all is None:
        review.select_all = _runner_package_changed(graph, sorted(touched.start_ids))
    head_paths = {r[0] for r in graph.conn.execute("SELECT path FROM files WHERE status NOT LIKE 'skipped:%'")}
    findings: list[Finding] = []

    # references to removed symbols: findings, and dependants known without an edge
    starts = sorted(touched.start_ids)
    index_of = {sid: i for i, sid in enumerate(starts)}
    seeds: dict[int, Reach] = {}
    test_seeds: dict[int, tuple[int, str]] = {}
    extra_bits = len(starts)
    for r in touched.removed:
        refs = removed_references(graph, r, head_paths)
        label = r.symbol.qualname
        for ref in refs:
            what = f"{r.symbol.kind} {label}"
            hint = f" (renamed to {r.renamed_to}?)" if r.renamed_to else ""
            verb = "imports" if ref.kind == "import" else "uses"
            findings.append(
                _finding("CRG001", ref.file, ref.line, f"{verb} {what} from {r.path}, which this change removes{hint}")
            )
            if ref.scope_id not in seeds:
                seeds[ref.scope_id] = Reach(1, 1.0, (label,), ref.kind if ref.kind != "call" else "call", line=ref.line)
            test_seeds.setdefault(ref.scope_id, (extra_bits, ref.kind))
        extra_bits += 1
    for old_path, new_path in touched.removed_modules:
        findings.extend(removed_module_imports(graph, old_path, new_path, head_paths))

    # impacted: bounded reverse BFS
    reach = walk_dependants(graph, starts, depth, seeds=seeds) if depth > 0 else {}
    review.impacted, cut = rank_impacted(graph, reach, cap)

    # related tests: unbounded, with attribution to the changed symbols
    walked: dict[int, tuple[int, str, int]] = {}
    ran: set[int] = set()
    start_nodes = graph.nodes(starts)
    conv_files = {p: convention_files(graph, p) for p in {*touched.changed_paths, *(n.path for n in start_nodes.values())}}
    plugins = {p for p in {n.path for n in start_nodes.values()} if conv_files[p] and _in_family(graph, p)}
    keyed = {sid for sid, n in start_nodes.items() if n.path in plugins}
    hits = walk_tests(graph, starts, seeds=test_seeds, deadline=deadline, state=walked, executed=ran, keyed=keyed)
    stopped = deadline is not None and deadline.reached
    add_doctests(graph, hits, walked, ran)
    add_doctest_runners(graph, hits, walked, ran)
    add_unparsed_tests(graph, hits, walked)
    add_exec_made_tests(graph, hits, walked)
    for path in sorted(touched.other_paths):  # changed test files that are not Python
        if graph.collects_tests(path):
            node = _file_test(path)
            hits[f"{path}::"] = TestHit(node, "", 0, "changed", 0, nodeid=path)  # (a file the walk found, too)
    nodes = graph.nodes(starts)
    for sid in starts:  # changed tests run themselves
        n = nodes.get(sid)
        if n is not None and (n.runnable_test or (n.is_test and n.kind in _CLASS_KINDS)):
            for t in graph.tests_under(n):
                _add_hit(hits, t, t.qualname, 0, "changed", 1 << index_of[sid])
    reached = 0
    for h in hits.values():
        reached |= h.sources
    covered_paths = {nodes[sid].path for sid, i in index_of.items() if reached >> i & 1 and sid in nodes}
    names_by_path: dict[str, set[str]] = {}
    for sid in starts:
        n = nodes.get(sid)
        if n is not None and n.kind != "module":
            names_by_path.setdefault(n.path, set()).add(n.name)
    for r in touched.removed:
        names_by_path.setdefault(r.path, set()).add(r.symbol.name)
    found_files = {h.node.path for h in hits.values()}
    conv = convention_tests(
        graph, {p: conv_files[p] for p in touched.changed_paths}, names_by_path, covered_paths, found_files
    )
    conv_paths = {path for path, tests in conv.items() if tests}
    for t in (t for tests in conv.values() for t in tests):
        key = f"{t.path}::{t.qualname}"
        if key not in hits:
            hits[key] = TestHit(t, t.qualname, 0, "convention", 0)
        # and the copies test subclasses inherit, which run it too (num2words's `Num2WordsESCOTest(Num2WordsESTest)`
        # in test_es_co.py, for the Spanish converter its Colombian one inherits)
        for cls, qual in graph.inherited_tests(t):
            if f"{cls.path}::{qual}" not in hits:
                _add_hit(hits, cls, qual, 0, "convention", 0)
    add_recollected(graph, hits)
    name_remade_tests(graph, hits)
    name_guarded_tests(graph, hits)
    review.tests = sorted(
        (
            RelatedTest(
                file=h.node.path,
                qualname=h.qualname,
                nodeid=h.nodeid or nodeid(h.node.path, h.qualname, h.node.language),
                depth=h.depth,
                reason=h.reason,
            )
            for h in hits.values()
        ),
        key=attrgetter("depth", "nodeid"),
    )
    # tests a plain `pytest` run never collects (outside the settings' testpaths: attrs' `bench/`, with `testpaths =
    # "tests"`) are not the suite's; given by id they would run anyway, with plug-ins the suite does not load. A changed
    # one stays: whoever changed it may run it
    settings = graph.doctest_settings()
    if settings is not None and settings.testpaths:
        # (pytest skips the testpaths that match nothing, and collects from the root when none does: wheel's
        # `testpaths = ["test"]` with its tests in `tests/`)
        settings = replace(settings, testpaths=tuple(p for p in settings.testpaths if graph.has_files_under(p)))
    if settings is not None and settings.testpaths:
        kept = [t for t in review.tests if t.reason == "changed" or not t.file.endswith(".py") or settings.collects_from(t.file)]
        if len(kept) < len(review.tests):
            review.stats["tests_outside_testpaths"] = len(review.tests) - len(kept)
            review.tests = kept

    # rules on changed symbols
    tested_bits = 0
    for h in hits.values():
        tested_bits |= h.sources
    changed_ids = set(starts)
    for sid in starts:
        n = nodes.get(sid)
        if n is None:
            continue
        cs = touched.start_ids[sid]
        if cs.change == "signature":
            findings.extend(incompatible_calls(graph, n, changed_ids))
        if n.kind not in _FUNCTION_KINDS or n.is_test or n.in_test_file:
            continue
        # a walk stopped at its deadline cannot say that no test reaches a symbol
        tested = bool(tested_bits >> index_of[sid] & 1) or n.path in conv_paths or stopped
        if cs.change in ("modified", "signature") and not tested:
            what = (
                'the script entry block (if __name__ == "__main__")'
                if n.qualname == MAIN_SCOPE and n.language == "python"
                else f"{n.kind} {n.qualname}"
            )
            findings.append(
                _finding("CRG003", n.path, n.start_line, f"{what} changed and no test reaches it")
            )
        if cs.change == "added" and _public(n) and not tested and not _registered(n) and not n.name.startswith("__"):
            users = graph.incoming([sid])[sid]
            if not users and not graph.base_methods(n):
                findings.append(
                    _finding(
                        "CRG004", n.path, n.start_line, f"new public {n.kind} {n.qualname} has no caller and no test"
                    )
                )
    review.findings = _unique_findings(findings)
    if stopped and deadline is not None:
        review.stats["tests_stopped_after"] = deadline.seconds
    review.stats.update(
        {
            "changed": len(review.changed),
            "impacted": len(review.impacted),
            "impacted_total": len(reach),
            "impacted_cut": cut,
            "depth": depth,
            "tests": len(review.tests),
            "findings": len(review.findings),
            "findings_by_severity": _count(f.severity for f in review.findings),
        }
    )
    return review


def _unique_findings(findings: list[Finding]) -> list[Finding]:
    """One finding per rule and place (the first, most specific, wins), most severe first."""
    seen: set[tuple[str, str, int]] = set()
    out = []
    for f in findings:
        key = (f.rule, f.file, f.line)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return sorted(out, key=lambda f: (-_SEVERITY_RANK.get(f.severity, 0), f.rule, f.file, f.line, f.message))


def _count(items: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return dict(sorted(out.items()))


# --- graph questions without a diff ---------------------------------------------------------------


def find_symbols(store: Store, text: str) -> list[Node]:
    """Symbols named by ``path::qualname``, a qualname or a bare name (all matches, for ambiguity)."""
    graph = Graph(store.conn)
    if "::" in text:
        path, _, qual = text.partition("::")
        rows = store.conn.execute(f"{_NODE_SQL} WHERE f.path=? AND s.qualname=?", (path, qual)).fetchall()
    else:
        rows = store.conn.execute(
            f"{_NODE_SQL} WHERE s.qualname=? AND s.kind != 'module' ORDER BY f.path, s.start_line", (text,)
        ).fetchall()
        if not rows:
            rows = store.conn.execute(
                f"{_NODE_SQL} WHERE s.name=? AND s.kind != 'module' ORDER BY f.path, s.start_line", (text,)
            ).fetchall()
    del graph
    return [_node(r) for r in rows]


def resolve_symbol(store: Store, text: str) -> Node:
    """The one symbol ``text`` names; a :class:`CrgError` listing the candidates when it is ambiguous."""
    found = find_symbols(store, text)
    if not found:
        raise CrgError(f"no symbol '{text}' in the index (give path::qualname, or run crg-review index)")
    if len(found) > 1:
        shown = ", ".join(f"{n.path}::{n.qualname}" for n in found[:20])
        more = f" and {len(found) - 20} more" if len(found) > 20 else ""
        raise CrgError(f"'{text}' is ambiguous: {shown}{more} (pass one as path::qualname)")
    return found[0]


def review_symbols(
    store: Store,
    nodes: Sequence[Node],
    *,
    depth: int,
    cap: int = DEFAULT_CAP,
    head: str = "",
    files: SnapshotFiles | None = None,
) -> Review:
    """What breaks if these symbols change: the same walks as a diff review, without a diff. ``files``: the
    indexed snapshot's files (for the tests a conftest collects from data files, and doctests)."""
    graph = Graph(store.conn, files=files)
    touched = Touched()
    for n in nodes:
        cs = ChangedSymbol(n.path, n.qualname, n.name, n.kind, n.start_line, n.end_line, "modified")
        touched.changed.append(cs)
        touched.start_ids[n.id] = cs
        if n.kind != "module" or len(nodes) == 1:
            touched.changed_paths.add(n.path)
    review = _analyze(graph, touched, depth=depth, cap=cap, base=None, head=head)
    review.findings = [f for f in review.findings if f.rule != "CRG003"]  # nothing changed: no rule on changes
    review.stats["findings"] = len(review.findings)
    return review


def callers(store: Store, node: Node, *, depth: int = 1) -> list[Impacted]:
    """Who calls or references ``node`` (tests included), up to ``depth`` calls away."""
    graph = Graph(store.conn)
    reach = walk_dependants(
        graph, [node.id], depth, kinds=frozenset(("call", "ref", "fixture", "dispatch")), include_tests=True
    )
    kept, _ = rank_impacted(graph, reach, -1)
    return kept


def tests_for(store: Store, node: Node, files: SnapshotFiles | None = None) -> list[RelatedTest]:
    """The tests that reach ``node``."""
    return review_symbols(store, [node], depth=0, files=files).tests


def _file_id(store: Store, path: str) -> int:
    row = store.conn.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
    if row is None:
        raise CrgError(f"{path} is not in the index (give a repository-relative path, or run crg-review index)")
    return int(row[0])


def dependents(store: Store, path: str) -> list[dict[str, Any]]:
    """Files with edges into ``path``: ``{file, edges, kinds}``, most edges first."""
    fid = _file_id(store, path)
    rows = store.conn.execute(
        "SELECT f.path, count(*), group_concat(DISTINCT e.kind) FROM edges e JOIN files f ON f.id=e.file_id"
        " WHERE e.dst_file_id=? AND e.file_id != ? GROUP BY f.path",
        (fid, fid),
    ).fetchall()
    out = [{"file": p, "edges": n, "kinds": sorted(k.split(","))} for p, n, k in rows]
    return sorted(out, key=lambda d: (-d["edges"], d["file"]))


def imports_of(store: Store, path: str) -> list[dict[str, Any]]:
    """The imports of ``path``: ``{line, module, name, alias, level, resolved: [files]}`` (empty: outside the repository)."""
    fid = _file_id(store, path)
    out = []
    for line, module, name, alias, level in store.conn.execute(
        "SELECT line, module, name, alias, level FROM imports WHERE file_id=? ORDER BY line, id", (fid,)
    ).fetchall():
        targets = sorted(
            {
                r[0]
                for r in store.conn.execute(
                    "SELECT DISTINCT f.path FROM edges e JOIN files f ON f.id=e.dst_file_id"
                    " WHERE e.file_id=? AND e.kind='import' AND e.line=?",
                    (fid, line),
                )
            }
        )
        out.append({"line": line, "module": module, "name": name, "alias": alias, "level": level, "resolved": targets})
    return out
