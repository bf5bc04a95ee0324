"""Tests of the suite found beside the graph walk: doctests, tests made at run time, naming conventions.

The walk (:mod:`walk`) finds the test functions the index has; these add the ids pytest runs that the
index cannot name as functions (doctests of reached code, tests an ``exec`` or a class factory makes, the
tests of classes re-collected under another name) and the convention matches (``tests/test_<module>.py``).
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable
from functools import partial

from .collection import SnapshotFiles
from .graph import Graph
from .graphnodes import CONSTRUCTORS, FUNCTION_KINDS, IDENTIFIER, Node, chunks, first_name, is_conftest, is_special
from .languages import hooks_for, python
from .model import CLASS_KINDS, decorator_name
from .store import escape_like
from .walk import TestHit, add_hit, file_test, nodeid

__all__ = [
    "add_doctest_runners",
    "add_doctests",
    "add_exec_made_tests",
    "add_partly_parsed_tests",
    "add_recollected",
    "add_unparsed_tests",
    "convention_files",
    "convention_tests",
    "in_family",
    "name_guarded_tests",
    "name_remade_tests",
]


#: the languages of a Markdown code block that Sybil's Python parsers run (none given: a block of any language)
_PYTHON_BLOCK_TAGS = frozenset(("python", "py", "python3", "pycon", ""))
_RST_CODE_BLOCK = re.compile(r"\s*\.\. (?:code-block|code|sourcecode)::\s*(?:python3?|py|pycon)\s*$")


def add_recollected(graph: Graph, hits: dict[str, TestHit]) -> None:
    """Add the ids under which pytest runs a selected test again: its class, or the test function itself, imported
    into other test modules (``from .test_base import TestBase`` collects ``test_other.py::TestBase::test_x`` too)."""
    todo = [h for h in hits.values() if h.node.language == "python" and h.qualname and not h.nodeid]
    graph.collection.prefetch_test_imports({(h.node.path, h.qualname.partition(".")[0]) for h in todo})
    while todo:  # the hits added below are Python tests too
        h = todo.pop()
        head, dot, rest = h.qualname.partition(".")
        for path, file_id, bound in graph.collection.test_imports(h.node.path, head):
            qualname = f"{bound}{dot}{rest}"
            if f"{path}::{qualname}" not in hits:
                node = h.node._replace(path=path, file_id=file_id)
                add_hit(hits, node, qualname, h.depth, h.reason, h.sources)
                todo.append(hits[f"{path}::{qualname}"])


def name_guarded_tests(graph: Graph, hits: dict[str, TestHit]) -> None:
    """Give its file's node id to each Python test defined in a module-level block (``if SELENIUM: class
    TestInnerText``, ``try: ... except ImportError:``), and its class's to each test method a class body defines in
    one: the definition may not exist when pytest imports the module, and ``pytest file::TestInnerText`` then stops at
    "not found" without running the other ids; the file (the class) runs whatever tests it has."""
    python = [h for h in hits.values() if not h.nodeid and h.qualname and h.node.language == "python"]
    guarded = graph.collection.guarded_names({h.node.file_id for h in python}) if python else set()
    for h in python:
        parts = first_name(h.qualname).split(".")
        if (h.node.file_id, parts[0]) in guarded:
            h.nodeid = h.node.path
        elif len(parts) > 1 and (h.node.file_id, ".".join(parts[:2])) in guarded:
            # a method a class body defines in a block (`if sys.version_info >= (3, 12): def test_x(self)`): its class
            h.nodeid = nodeid(h.node.path, parts[0], h.node.language)
    # and the copies a subclass of another file inherits (asttokens' `class TestAstroid(test_mark_tokens.TestMarkTokens)`)
    inherited = [h for h in python if not h.nodeid and h.node.kind in CLASS_KINDS and h.qualname.count(".") == 1]
    bases = {c: graph.nodes(graph.transitive(c, "bases")) for c in {h.node.id for h in inherited}}
    base_files = {b.file_id for found in bases.values() for b in found.values()}
    named = graph.collection.guarded_names(base_files) if inherited else set()
    for h in inherited:
        method = first_name(h.qualname).partition(".")[2]
        if any((b.file_id, f"{first_name(b.qualname)}.{method}") in named for b in bases[h.node.id].values()):
            h.nodeid = nodeid(h.node.path, h.node.qualname, h.node.language)


def name_remade_tests(graph: Graph, hits: dict[str, TestHit]) -> None:
    """Give the class's node id to each decorated test method (by a decorator of the repository) of a class a
    metaclass of the repository makes (:meth:`CollectedTests.remade_test_classes`), and to each that a known library
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
    remade = graph.collection.remade_test_classes(headed) if headed else set()
    for h in decorated:
        cls = classes.get(h.node.parent_id)  # type: ignore[arg-type]
        if cls is None:
            continue
        if (cls.id in remade and graph.collection.decorated_here(h.node)) or _renamed_by_library(h.node, cls):
            h.nodeid = nodeid(cls.path, cls.qualname, cls.language)


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
    settings = graph.collection.doctest_settings()
    if settings is None or not reached:
        return

    named: list[dict[str, tuple[int, int]]] = []  # made when first needed: its loop runs over every reached node

    def reached_names() -> dict[str, tuple[int, int]]:
        if not named:
            named.append(_reached_names(graph, reached))
        return named[0]

    if settings.modules or settings.conftest_modules:
        def add(node: Node, depth: int, bits: int) -> None:
            if not settings.collects_from(node.path) or node.kind not in (*FUNCTION_KINDS, *CLASS_KINDS, "module"):
                return
            if not settings.modules and node.in_test_file:  # a conftest hook's: the project's modules, not its tests
                return
            named = _doctest_named(graph, node)
            if named is None:  # doctest never looks inside a function: no example of a nested definition runs
                return
            module = graph.collection.import_name(node.path, settings.namespace_packages)
            # (`index#3`, the third definition of the name: the one the class keeps, whose doctest runs as `index`)
            name = module if node.kind == "module" else f"{module}.{first_name(node.qualname)}"
            # (a module outside packages: its file, whose every doctest runs, rather than an id pytest may not know;
            # likewise a definition whose decorator may leave its name to something doctest skips or finds elsewhere)
            test = f"{node.path}::{name}" if module is not None and named else node.path
            if f"{test}#doctest" not in hits:
                hits[f"{test}#doctest"] = TestHit(node, node.qualname, depth, "doctest", bits, nodeid=test)

        for node in graph.collection.with_examples(reached):
            depth, _, bits = reached[node.id]
            add(node, depth + 1, bits)
        ran = {m.file_id: m for m in graph.nodes(executed).values() if m.id in reached}
        for node, words in graph.collection.docstring_examples():
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
    for folder, pattern in graph.collection.sybil_patterns():
        if graph.files is not None:
            for path in graph.files.find_tracked(partial(_matches_pattern, pattern), (folder,)):
                examples[path] = _example_words(graph.files.read_tracked(path), code_blocks=True)
    if not any(examples.values()):  # (django has test*.txt files: data, no examples)
        return
    names = dict(reached_names())
    # an example importing a module whose import runs a change runs it (tldextract's `TLD_EXTRACTOR = TLDExtract()`)
    for module in graph.nodes(executed).values():
        is_reached = module.id in reached and module.kind == "module"
        imported = graph.collection.import_name(module.path) if is_reached else None
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
    """The test files that run the doctests of modules themselves (:meth:`CollectedTests.doctest_runners`), run whole
    when an example of a module they import or name calls reached code by name, or when the import of one runs a change
    (reason ``doctest``): the walk cannot follow what a parametrized test hands to ``doctest.testmod``."""
    if not reached:
        return
    runners = graph.collection.doctest_runners()
    if not runners:
        return
    names = _reached_names(graph, reached)
    ran = {m.file_id: reached[m.id] for m in graph.nodes(executed).values() if m.id in reached}
    examples: dict[int, set[str]] = {}
    for node, words in graph.collection.docstring_examples():
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
            hits.setdefault(f"{path}::", TestHit(file_test(path), "", nearest[0] + 1, "doctest", nearest[1], nodeid=path))


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
    _add_naming_files(hits, _reached_names(graph, reached), _words(graph.files, tests), "unparsed")


def add_partly_parsed_tests(graph: Graph, hits: dict[str, TestHit], reached: dict[int, tuple[int, str, int]]) -> None:
    """A test file tree-sitter parsed only in part may hold tests the index lost after the error (a syntax the grammar
    does not know, or lines Python forgives: executing's test_main.py continues lines with backslashes below the
    indentation of their block, and the methods after them are the module's functions in the index, whose ids pytest
    does not know). Such a file is selected whole, in place of its tests, when one of them is; or when its text names
    reached code, as an unparsed one is: reason ``partial``."""
    paths = {
        path
        for (path,) in graph.conn.execute("SELECT path FROM files WHERE status = 'partial' AND is_test = 1")
        if not is_conftest(path)
    }
    if not paths:
        return
    selected: dict[str, tuple[int, int]] = {}  # path → the depth of its nearest selected test, their sources
    for key, h in list(hits.items()):
        if h.node.path in paths:
            depth, sources = selected.get(h.node.path, (h.depth, 0))
            selected[h.node.path] = (min(depth, h.depth), sources | h.sources)
            del hits[key]
    for path, (depth, sources) in selected.items():
        hits[f"{path}::"] = TestHit(file_test(path), "", depth, "partial", sources, nodeid=path)
    rest = sorted(paths - selected.keys())
    if rest and graph.files is not None and reached:
        _add_naming_files(hits, _reached_names(graph, reached), _words(graph.files, rest), "partial")


def add_exec_made_tests(graph: Graph, hits: dict[str, TestHit], reached: dict[int, tuple[int, str, int]]) -> None:
    """A test module whose body runs ``exec(...)`` may make tests from code the index never sees (configargparse
    execs CPython's own test_argparse.py, rewritten to use its parser, into its test module): those tests may use
    anything the module imports. Such a file is selected whole when the walk reaches code (not tests) of a file its body
    imports, or of another module of that file's package (reason ``exec``)."""
    rows = graph.conn.execute(
        "SELECT DISTINCT s.id, f.path FROM refs r JOIN symbols s ON s.id = r.scope_id JOIN files f ON f.id = r.file_id"
        " WHERE r.name = 'exec' AND r.kind = 'call' AND r.receiver = '' AND s.kind = 'module' AND f.language = 'python'"
    ).fetchall()
    modules = [(int(sid), str(path)) for sid, path in rows if not is_conftest(str(path))]
    if not modules or not reached:
        return
    nodes = graph.nodes(sid for sid, _ in modules)
    modules = [(sid, path) for sid, path in modules if sid in nodes and nodes[sid].in_test_file and _may_exec_tests(graph, path)]
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
            add_hit(hits, file_test(path), "", depth + 1, "exec", sources)


#: words without which code a test module runs with ``exec`` makes no test (no test function or class, no setattr)
_MAKES_TESTS = re.compile(r"\bdef\s+test|\bclass\s+Test|setattr|unittest|pytest|TestCase")


def _may_exec_tests(graph: Graph, path: str) -> bool:
    """Whether the module-level ``exec`` calls of a test module may make tests: not when each runs a string the module
    states (``exec(PY36_TESTS)`` of ``PY36_TESTS = \"\"\"class TDM(METypedDict): ...\"\"\"``, typing_inspect's classes in syntax
    older Pythons cannot parse) that defines no test function or class and attaches nothing."""
    import ast

    data = graph.files.read_tracked(path) if graph.files is not None else None
    if data is None:
        return True
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return True
    strings: dict[str, tuple[int, str]] = {}  # module-level names bound to a string literal: (line, text) of the last
    calls: list[ast.Call] = []
    todo: list[ast.AST] = list(tree.body)
    while todo:  # the module's statements, into if/try/with blocks but not into functions and classes
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for t in node.targets:
                if isinstance(t, ast.Name) and strings.get(t.id, (0, ""))[0] <= node.lineno:
                    strings[t.id] = (node.lineno, node.value.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "exec":
            calls.append(node)
        todo.extend(ast.iter_child_nodes(node))
    for call in calls:
        arg = call.args[0] if call.args else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            code = arg.value
        elif isinstance(arg, ast.Name) and arg.id in strings:
            code = strings[arg.id][1]
        else:
            return True  # code the module reads or builds: anything
        if _MAKES_TESTS.search(code):
            return True
    return False


def _reached_names(graph: Graph, reached: dict[int, tuple[int, str, int]]) -> dict[str, tuple[int, int]]:
    """Name → (depth, sources) of the reached functions, classes and methods; a special method or a constructor
    is named by its class (`a < b` runs ``__lt__``, `Box(1)` runs ``__init__``)."""
    nodes = graph.nodes(reached)
    parents = graph.nodes(
        n.parent_id for n in nodes.values() if n.parent_id is not None and (is_special(n.name) or n.name in CONSTRUCTORS)
    )
    named: dict[str, tuple[int, int]] = {}
    for sid, n in nodes.items():
        if n.kind not in FUNCTION_KINDS and n.kind not in CLASS_KINDS:
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


def _words(files: SnapshotFiles, paths: Iterable[str]) -> dict[str, set[str]]:
    """The identifiers in the text of each file (read from the snapshot, not from the index)."""
    return {path: set(IDENTIFIER.findall((files.read_tracked(path) or b"").decode("utf-8", "replace"))) for path in paths}


def _add_naming_files(
    hits: dict[str, TestHit], named: dict[str, tuple[int, int]], words_by_path: dict[str, set[str]], reason: str
) -> None:
    """Each file whose words name reached code, as a test run whole (one depth below the nearest named)."""
    for path, words in words_by_path.items():
        nearest = _nearest_named(named, words)
        if nearest is not None:
            test = TestHit(file_test(path), "", nearest[0] + 1, reason, nearest[1], nodeid=path)
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
            words.update(IDENTIFIER.findall(code[3:]))
        if not code_blocks:
            continue
        if fence:
            if code.startswith(fence):
                fence = ""
            elif python:
                words.update(IDENTIFIER.findall(code))
        elif code.startswith(("```", "~~~")):
            fence, python = code[:3], code.lstrip("`~").strip().lower() in _PYTHON_BLOCK_TAGS
        elif indent >= 0 and (not code or len(line) - len(code) > indent):
            words.update(IDENTIFIER.findall(code))
        else:
            directive = _RST_CODE_BLOCK.match(line)
            indent = len(line) - len(line.lstrip()) if directive is not None else -1
    return words


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
        if above.kind in FUNCTION_KINDS:
            return None
        parent = above.parent_id
    if node.kind not in FUNCTION_KINDS or all(decorator_name(d) in _DOCTEST_KEEPING_DECORATORS for d in node.decorators):
        return True
    runners = [
        r[0] for r in graph.conn.execute("SELECT src_id FROM edges WHERE dst_id = ? AND resolution = 'decorated'", (node.id,))
    ]
    return all(
        n.kind in FUNCTION_KINDS and any(decorator_name(d) == "wraps" for d in n.decorators)
        for n in graph.nodes(runners).values()
    )


def convention_tests(
    graph: Graph,
    files_by_path: dict[str, list[str]],
    names_by_path: dict[str, set[str]],
    covered_paths: set[str],
    found_files: set[str],
    methods_by_path: dict[str, dict[str, set[int]]] | None = None,
) -> dict[str, list[Node]]:
    """By changed path, the tests in its convention files (``files_by_path``: ``test_<module>.py`` / ``<module>_test.py``
    for a changed ``<module>.py``, :func:`convention_files`): those that name a
    changed symbol, or every test of the file when the graph found no test for that module at all; for a module of
    a family (``lang_RU.py`` among ``lang_*.py``), also when it found none in that file (``found_files``: num2words's
    changed ``lang_RU.py`` reaches other languages' tests through the base class, its own through a string).
    ``methods_by_path``: of the names, those only of changed methods, with their classes: a test naming such a name
    counts, in a test of a test class, only where it deals with one of those classes or their subclasses (:func:`_uses_of`)."""
    out: dict[str, list[Node]] = {}
    for path, files in sorted(files_by_path.items()):
        if not files:
            continue
        tests = graph.collection.tests_in_files(files)
        names = names_by_path.get(path, set())
        naming = _tests_naming(graph, tests, names, (methods_by_path or {}).get(path, {})) if names else []
        if naming:
            out[path] = naming
        elif path not in covered_paths or (found_files.isdisjoint(files) and in_family(graph, path)):
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


def in_family(graph: Graph, path: str) -> bool:
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


def _tests_naming(graph: Graph, tests: list[Node], names: set[str], methods: dict[str, set[int]]) -> list[Node]:
    """The tests that name one of ``names``; for a name in ``methods`` (method name → its classes), only those that
    deal with one of the classes or their subclasses."""
    if not tests:
        return []
    ids = {t.id: t for t in tests}
    named: dict[int, set[str]] = {}
    name_list = sorted(names)
    for chunk in chunks(sorted(ids)):
        ph = ",".join("?" * len(chunk))
        nph = ",".join("?" * len(name_list))
        for scope, name in graph.conn.execute(
            f"SELECT DISTINCT scope_id, name FROM refs WHERE scope_id IN ({ph}) AND name IN ({nph})", [*chunk, *name_list]
        ):
            named.setdefault(scope, set()).add(name)
    classes: dict[str, tuple[set[str], set[int]]] = {}  # method name → the names and ids of its classes' family
    for method, owners in methods.items():
        family = {c for owner in owners for c in (owner, *graph.descendants(owner))}
        members = {m.id for c in family for m in graph.children(c)}
        classes[method] = ({n.name for n in graph.nodes(family).values()}, family | members)
    # a name only of changed methods counts in a test of a test class where the test deals with one of their classes
    # (:func:`_uses_of`); a test function's class is not told by its context (tomlkit's parametrized
    # `test_arithmetic_result_does_not_share_trivia` adds to items of every type, parsed from strings): it counts
    test_classes = _test_classes(graph, tests)
    checked = [ids[scope] for scope, hit in named.items() if scope in test_classes and not hit.isdisjoint(classes)]
    named_classes, used = _uses_of(graph, checked, test_classes, {n for names, _ in classes.values() for n in names})
    found = [
        ids[scope]
        for scope, hit in named.items()
        if scope not in test_classes
        or any(
            name not in classes
            or not named_classes[scope].isdisjoint(classes[name][0])
            or not used[scope].isdisjoint(classes[name][1])
            for name in hit
        )
    ]
    return sorted(found, key=lambda t: (t.path, t.start_line))


def _test_classes(graph: Graph, tests: list[Node]) -> dict[int, Node]:
    """The class of each test that is a method of one (a test class, or a mixin), by test id."""
    parents = graph.nodes({t.parent_id for t in tests if t.parent_id is not None})
    found = {t.id: parents.get(t.parent_id) for t in tests if t.parent_id is not None}
    return {tid: cls for tid, cls in found.items() if cls is not None and cls.kind in CLASS_KINDS}


def _uses_of(
    graph: Graph, tests: list[Node], classes: dict[int, Node], names: set[str]
) -> tuple[dict[int, set[str]], dict[int, set[int]]]:
    """By test (a method of one of ``classes``, by test id), the class ``names`` it names and the symbols (ids) it
    uses, through its context: its test class (named after one of them, ``TestTuple`` for ``Tuple``; the class body
    and its other members), and what the test defines (a class of its own deriving from the project's). So a changed
    method's name counts in a test that makes the class (colander's ``def _makeOne(self): return Tuple()``) or names
    it (``schema_type = colander.Int`` in a class a test defines, ``Int`` being ``Integer``): a method name alone says
    little, ``test_colander.py`` calls ``serialize`` in 96 tests of twenty types, and a change of ``Tuple.serialize``
    fails seven of them."""
    named: dict[int, set[str]] = {t.id: set() for t in tests}
    used: dict[int, set[int]] = {t.id: set() for t in tests}
    context: dict[int, set[int]] = {}  # scope → the tests it is context of
    lowered = [(n, n.lower()) for n in names]
    for test in tests:
        parent = classes[test.id]
        named[test.id].update(n for n, low in lowered if low in parent.name.lower())
        scopes = [test.id, parent.id, *(c.id for c in graph.children(parent.id))]
        inner = [c.id for c in graph.children(test.id)]
        while inner:
            scopes += inner
            inner = [c.id for i in inner for c in graph.children(i)]
        for scope in scopes:
            context.setdefault(scope, set()).add(test.id)
    wanted = sorted(names)
    for chunk in chunks(sorted(context)):
        marks = ",".join("?" * len(chunk))
        for scope, name in graph.conn.execute(
            f"SELECT scope_id, name FROM refs WHERE scope_id IN ({marks}) AND name IN ({','.join('?' * len(wanted))})",
            [*chunk, *wanted],
        ):
            for t in context[scope]:
                named[t].add(name)
        # (a call matched by name only is no use of a class: `x.update()` is named, not known to be a Tuple's)
        for src, dst in graph.conn.execute(
            f"SELECT src_id, dst_id FROM edges WHERE src_id IN ({marks}) AND resolution NOT IN ('name-match', 'receiver-name')",
            chunk,
        ):
            for t in context[src]:
                used[t].add(dst)
    return named, used
