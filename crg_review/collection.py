"""The tests the index holds and how the test runner collects them: the runnable tests of files and of test classes
(inherited ones too, and those another test module imports and so collects again), the classes a metaclass remakes,
the names pytest imports a module under, doctests (the settings, docstrings with examples, test files running
doctests themselves, Sybil's text files) and the files that are not Python a conftest's ``pytest_collect_file``
collects. A part of :class:`~graph.Graph`, which owns it as ``graph.collection``.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

from .graphnodes import FUNCTION_KINDS, IDENTIFIER, NODE_SQL, Node, as_node, chunks, first_name, in_list, is_conftest
from .languages.python import TEST_BASES
from .model import CLASS_KINDS

if TYPE_CHECKING:
    from .graph import Graph
    from .pytest_settings import DoctestSettings

__all__ = ["COLLECT_HOOK", "PYTEST_CLASS_PREFIX", "PYTEST_FUNCTION_PREFIX", "CollectedTests", "SnapshotFiles"]

#: folders that hold a project's packages rather than name one (``src/jaraco/text``: the namespace is ``jaraco``)
_SOURCE_ROOTS = frozenset(("src", "lib", "python"))


class SnapshotFiles(Protocol):
    """The files of the indexed snapshot, parsed or not (a :class:`~crg_review.workspace.Workspace`)."""

    def find_tracked(self, match: Callable[[str], bool], under: Sequence[str] = ("",)) -> list[str]: ...

    def read_tracked(self, path: str) -> bytes | None: ...


#: pytest's default ``python_classes``: a class bound to such a name in a test module is collected there
PYTEST_CLASS_PREFIX = "Test"
#: pytest's default ``python_functions``: a test function bound to such a name in a test module is collected there
PYTEST_FUNCTION_PREFIX = "test"
#: the pytest hook that collects tests from files that are not Python, and its collector classes' bases
COLLECT_HOOK = "pytest_collect_file"
_COLLECTOR_BASES = ("Item", "File", "Collector", "Module")
#: the file name patterns a Sybil collector is given (``pattern="*.rst"``, ``patterns=["*.md", "*.py"]``)
_SYBIL_PATTERN = re.compile(r"\bpatterns?\s*=\s*(\[[^\]]*\]|\"[^\"]*\"|'[^']*')")
_QUOTED = re.compile(r"[\"']([^\"']+)[\"']")
#: the functions of the standard library's doctest module that run the examples of a module given to them
_DOCTEST_RUNNERS = ("DocTestSuite", "run_docstring_examples", "testmod")


class CollectedTests:
    """The index's tests and the runner's collection (see the module docstring), cached per file and per question."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.conn: sqlite3.Connection = graph.conn
        #: the files of the indexed snapshot that are not parsed (:attr:`Graph.files <graph.Graph.files>`)
        self.files = graph.files
        self._doctest: DoctestSettings | None = None
        self._packages: frozenset[str] | None = None  # folders holding an __init__.py
        self._collected: dict[int, tuple[tuple[str, str], ...]] = {}  # conftest → its hook's (literal, how) name tests
        self._collector_classes: dict[int, frozenset[int]] = {}  # conftest file → its Item and File classes
        self._examples: list[tuple[Node, set[str]]] | None = None  # :meth:`docstring_examples`
        self._test_imports: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
        self._file_tests: dict[str, list[Node]] = {}  # path → its runnable tests

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

    def collected_files(self, node: Node) -> list[str]:
        """The files that are not Python whose tests a conftest's ``pytest_collect_file`` hook collects, when
        ``node`` is that hook or a method of a collector class of the same conftest (a subclass of pytest's
        ``Item`` or ``File``, which run those tests): tracked files below the conftest whose name passes the
        hook's literal name tests (:func:`_collected_name`)."""
        if node.language != "python" or not is_conftest(node.path) or node.kind == "module":
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
        rows = self.conn.execute(f"SELECT id FROM files WHERE path IN ({in_list(conftests)})", conftests)
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
        for chunk in chunks(sorted(file_ids)):
            out.update(
                (int(r[0]), str(r[1]) if "." not in str(r[2]) else first_name(str(r[2])))
                for r in self.conn.execute(
                    "SELECT r.file_id, r.name, s.qualname FROM refs r JOIN symbols s ON s.id = r.scope_id"
                    f" WHERE r.kind = 'guarded' AND r.file_id IN ({in_list(chunk)})",
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
            f" JOIN symbols s ON s.id = r.scope_id WHERE r.kind = 'call' AND r.name IN ({in_list(_DOCTEST_RUNNERS)})"
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

    def import_name(self, path: str, namespace: bool = False) -> str | None:
        """The module name pytest imports a Python file of a package under: its path from the topmost folder
        of the package (``src/pkg/mod.py`` → ``pkg.mod`` when ``src/`` is no package). None for a file in a
        folder that is no package: pytest names it by its import mode (``tool`` or ``scripts.tool``).
        ``namespace`` (pytest's ``consider_namespace_packages``): the folders above the package that are none count
        as namespace packages up to the root or a ``src`` folder (``jaraco/text/__init__.py`` → ``jaraco.text``:
        pytest takes the first name above that Python can import, most often the one from there)."""
        if self._packages is None:
            rows = self.conn.execute("SELECT path FROM files WHERE path LIKE '%__init__.py'")  # (_: any character)
            self._packages = frozenset(posixpath.dirname(r[0]) for r in rows if r[0].endswith("/__init__.py"))
        folders = path.split("/")[:-1]
        if folders and "/".join(folders) not in self._packages:
            return None
        top = len(folders)
        while top > 0 and "/".join(folders[:top]) in self._packages:
            top -= 1
        if namespace:
            while top > 0 and folders[top - 1] not in _SOURCE_ROOTS and folders[top - 1].isidentifier():
                top -= 1
        stem = posixpath.basename(path).removesuffix(".py")
        return ".".join(folders[top:] + ([] if stem == "__init__" else [stem]))

    def with_examples(self, ids: Iterable[int]) -> list[Node]:
        """The Python definitions among ``ids`` whose docstring holds doctest examples (``>>>``)."""
        ids = sorted(set(ids))
        found: list[int] = []
        for chunk in chunks(ids):
            found.extend(
                r[0]
                for r in self.conn.execute(
                    f"SELECT id FROM symbols WHERE id IN ({in_list(chunk)}) AND instr(docstring, '>>>') > 0", list(chunk)
                )
            )
        nodes = self.graph.nodes(found)
        return [nodes[i] for i in found if i in nodes and nodes[i].language == "python"]

    def docstring_examples(self) -> list[tuple[Node, set[str]]]:
        """Every Python definition whose docstring holds doctest examples, with the identifiers of its examples
        (what follows the first ``>>>``: the index keeps a docstring on one line)."""
        if self._examples is None:
            rows = self.conn.execute(
                "SELECT s.id, s.docstring FROM symbols s JOIN files f ON f.id = s.file_id"
                " WHERE f.language = 'python' AND instr(s.docstring, '>>>') > 0"
            ).fetchall()
            nodes = self.graph.nodes(r[0] for r in rows)
            self._examples = [
                (nodes[sid], set(IDENTIFIER.findall(text.partition(">>>")[2]))) for sid, text in rows if sid in nodes
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
        for chunk in chunks(want):
            rows = self.conn.execute(
                f"{NODE_SQL} WHERE f.path IN ({in_list(chunk)}) AND s.is_test != 0 ORDER BY f.path, s.start_line", chunk
            ).fetchall()
            for n in map(as_node, rows):
                if n.runnable_test:
                    self._file_tests[n.path].append(n)

    def tests_under(self, node: Node) -> list[Node]:
        """The runnable tests a test class (or test node) stands for, nested classes included."""
        if node.runnable_test:
            return [node]
        out: list[Node] = []
        for child in self.graph.children(node.id):
            if child.runnable_test:
                out.append(child)
            elif child.kind in CLASS_KINDS and child.is_test:
                out.extend(self.tests_under(child))
        return out

    def inherited_tests(self, method: Node) -> list[tuple[Node, str]]:
        """(test class, qualname) for a ``test*`` method, of a test class or of a mixin that is none: the test
        subclasses that inherit this very definition (none of them, nor a nearer base, overrides it) run it
        as their own test."""
        if method.kind != "method" or method.parent_id is None or not method.name.startswith("test"):
            return []
        subclasses = self.graph.transitive(method.parent_id, "subclasses")
        if not subclasses:
            return []
        classes = self.graph.nodes(subclasses)
        self.graph.load_children(subclasses)
        out: list[tuple[Node, str]] = []
        for cid in subclasses:
            cls = classes.get(cid)
            if cls is None or not cls.is_test or any(c.name == method.name for c in self.graph.children(cid)):
                continue
            owner = next(
                (b for b in self.graph.transitive(cid, "bases") if any(c.name == method.name for c in self.graph.children(b))),
                None,
            )
            if owner == method.parent_id:  # no nearer base defines the name
                out.append((cls, f"{cls.qualname}.{method.name}"))
        return out

    def in_made_test_class(self, method: Node) -> bool:
        """Whether ``method`` belongs to a module-level class of a test module named ``*Test`` or ``*Tests`` (a ``Test*``
        one is a test class already) that the index does not know as a test class because it or an in-repo base
        derives from a class it cannot see (``Fixtures = repeated_test.WithTestClass(Tests)``)."""
        if method.parent_id is None or not method.in_test_file:
            return False
        cls = self.graph.nodes([method.parent_id]).get(method.parent_id)
        if cls is None or cls.kind not in CLASS_KINDS or cls.is_test or cls.parent_id != self.graph.module_symbol(cls.file_id):
            return False
        if not cls.name.endswith(("Test", "Tests")):
            return False
        return any(self.graph.has_outside_base(c) for c in (cls.id, *self.graph.transitive(cls.id, "bases")))

    def base_tests(self, test_class: Node) -> list[tuple[Node, str]]:
        """(method, qualname under ``test_class``) for the ``test*`` methods a test class inherits from its
        in-repo bases, mixins that are no test class included (unittest and pytest collect inherited
        methods); the nearest definition of a name wins and the class's own methods are not listed."""
        if test_class.kind not in CLASS_KINDS or not test_class.is_test:
            return []
        bases = self.graph.transitive(test_class.id, "bases")
        if not bases:
            return []
        self.graph.load_children([test_class.id, *bases])
        seen = {c.name for c in self.graph.children(test_class.id)}
        out: list[tuple[Node, str]] = []
        for base in bases:
            for m in self.graph.children(base):
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
        for chunk in chunks(sorted(headers)):
            for src, dst, line in self.conn.execute(
                f"SELECT src_id, dst_id, line FROM edges WHERE src_id IN ({in_list(chunk)}) AND kind IN ('call','ref')", chunk
            ):
                if headers[src][0] <= line <= headers[src][1]:
                    named[src].add(dst)
        targets = self.graph.nodes({d for ds in named.values() for d in ds})
        # and what the class decorators among them call (`parametrize_class` calls the metaclass)
        calls: dict[int, set[int]] = {t.id: set() for t in targets.values() if t.kind in FUNCTION_KINDS}
        for chunk in chunks(sorted(calls)):
            for src, dst in self.conn.execute(
                f"SELECT src_id, dst_id FROM edges WHERE src_id IN ({in_list(chunk)}) AND kind='call'", chunk
            ):
                calls[src].add(dst)
        reached = [*targets.values(), *self.graph.nodes({d for ds in calls.values() for d in ds}).values()]
        metaclasses = {n.id for n in reached if n.kind in CLASS_KINDS and self.graph.is_metaclass(n.id)}
        return {cid for cid, ds in named.items() if any(m in metaclasses for d in ds for m in (d, *calls.get(d, ())))}

    def decorated_here(self, fn: Node) -> bool:
        """Whether a decorator of ``fn`` is a function of the repository (a call on its decorator lines resolves)."""
        row = self.conn.execute(
            "SELECT 1 FROM edges WHERE src_id=? AND kind='call' AND line >= ? AND line < ?",
            (fn.id, fn.start_line, fn.start_line + len(fn.decorators)),
        ).fetchone()
        return row is not None

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
        for chunk in chunks(want, 400):
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
        for chunk in chunks(sorted(tests)):
            for sid, fid, ipath, name, alias in self.conn.execute(
                "SELECT DISTINCT c.id, f.id, f.path, i.name, i.alias FROM symbols c"
                " JOIN edges e ON e.dst_id=c.id AND e.kind='import' JOIN symbols m ON m.id=e.src_id"
                " JOIN files f ON f.id=e.file_id JOIN imports i ON i.file_id=f.id AND i.line=e.line AND i.name=c.name"
                f" WHERE c.id IN ({in_list(chunk)}) AND m.kind='module' AND f.is_test=1 AND f.id != c.file_id",
                chunk,
            ):
                # DISTINCT per test, as asked one by one; `from test_temp_db import TempSqliteDictTest`, a TestCase, is
                # collected again whatever its name (sqlitedict's test_core.py), a test function as test*
                if (alias or name).startswith(prefixes[sid]):
                    found[tests[sid]].add((fid, ipath, name, alias))
        for k, rows in found.items():
            self._test_imports[k] = sorted((ipath, fid, alias or name) for fid, ipath, name, alias in rows)


def _unittest_class(qualname: str, is_test: int, signature: str) -> bool:
    """Whether a test class is a unittest TestCase subclass (which pytest collects whatever its name): marked through
    an in-repo base (``is_test`` 2), named otherwise than ``Test*``, or naming a TestCase base itself."""
    if is_test == 2 or (is_test == 1 and not qualname.startswith(PYTEST_CLASS_PREFIX)):
        return True
    bases = signature.partition("(")[2].rpartition(")")[0]
    return any(b.strip().rpartition(".")[2] in TEST_BASES for b in bases.split(","))


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
