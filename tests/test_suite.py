"""Change impact on real temporary repositories: tests found beside the walk (doctests, made tests, conventions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import commit, git, make_repo, run_cli, write
from .impact_helpers import edit, impacted, project, review, rules, run_pytest, selected


def test_a_test_function_imported_into_another_test_module_runs_there_too(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "tests/test_reuse.py", "from tests.test_chain import test_api\nfrom tests.test_chain import test_api as _api\n")
    commit(repo, "reused test")
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    ids = set(selected(review(capsys, repo)))
    assert {"tests/test_chain.py::test_api", "tests/test_reuse.py::test_api"} <= ids
    assert "tests/test_reuse.py::_api" not in ids  # not a name pytest collects
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "tests/test_reuse.py::test_api" in out.split()
    assert run_pytest(repo, out.split()).endswith("passed")


DOCTESTED = {
    "pytest.ini": "[pytest]\naddopts = --doctest-modules --doctest-glob=*.rst\ntestpaths = src docs\npythonpath = src\n",
    "src/calc/__init__.py": "from .core import Box, add, sub\n",
    "src/calc/core.py": (
        "def _norm(x):\n    return int(x)\n\n\n"
        "def add(a, b):\n    \"\"\"Add.\n\n    >>> add(1, 2)\n    3\n    \"\"\"\n    return _norm(a) + _norm(b)\n\n\n"
        "def sub(a, b):\n    \"\"\"Subtract (no example).\"\"\"\n    return _norm(a) - _norm(b)\n\n\n"
        "class Box:\n    def __init__(self, v):\n        self.v = v\n\n"
        "    def __lt__(self, other):\n        return self.v < other.v\n"
    ),
    # src/ is no package: pytest names helpers.py `helpers` or `src.helpers` by its import mode, so its file is listed
    "src/helpers.py": "from calc import add\n\n\ndef double(x):\n    \"\"\"Twice.\n\n    >>> double(2)\n    4\n    \"\"\"\n    return add(x, x)\n",
    # a docstring whose example calls reached code that its function does not call
    "src/calc/report.py": "def show(n):\n    \"\"\"Show.\n\n    >>> from calc import add\n    >>> show(add(1, 1))\n    '2'\n    \"\"\"\n    return str(n)\n",
    "docs/usage.rst": "Usage\n=====\n\n>>> from calc import add\n>>> add(2, 2)\n4\n",
    "docs/boxes.rst": "Boxes\n\n>>> from calc import Box\n>>> Box(1) < Box(2)\nTrue\n",
    "docs/plain.rst": "Nothing of ours\n\n>>> 1 + 1\n2\n",
    "notes/usage.rst": ">>> from calc import add\n>>> add(0, 0)\n0\n",  # outside testpaths: never collected
}


def test_the_text_files_a_conftest_collects_with_sybil_are_doctests_below_its_folder(tmp_path: Path, capsys: Any) -> None:
    # parsel's docs/conftest.py: `pytest_collect_file = Sybil(parsers=[DocTestParser()], pattern="*.rst").pytest()`
    repo = make_repo(tmp_path / "repo")
    write(repo, "calc.py", "def add(a, b):\n    return a + b\n")
    write(
        repo,
        "docs/conftest.py",
        "from sybil import Sybil\nfrom sybil.parsers.doctest import DocTestParser\n\n"
        "pytest_collect_file = Sybil(parsers=[DocTestParser()], pattern='*.rst').pytest()\n",
    )
    write(repo, "docs/usage.rst", "Usage\n\n>>> from calc import add\n>>> add(2, 2)\n4\n")
    write(repo, "docs/plain.rst", ">>> 1 + 1\n2\n")
    write(repo, "notes/usage.rst", ">>> from calc import add\n>>> add(0, 0)\n0\n")  # no Sybil there
    commit(repo, "sybil docs")
    edit(repo, "calc.py", "return a + b", "return b + a")
    assert selected(review(capsys, repo)) == {"docs/usage.rst": (1, "doctest")}


def test_a_test_file_running_the_doctests_of_modules_it_imports_is_selected_whole(tmp_path: Path, capsys: Any) -> None:
    # formencode's tests/test_doctests.py: a parametrized test hands each module it imports to `doctest.testmod`
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/calc.py", 'def add(a, b):\n    """Add.\n\n    >>> add(1, 2)\n    3\n    """\n    return a + b\n')
    write(repo, "pkg/other.py", 'def sub(a, b):\n    """Sub.\n\n    >>> sub(2, 1)\n    1\n    """\n    return a - b\n\n\n'
          "def mul(a, b):\n    return a * b\n")
    write(
        repo,
        "tests/test_doctests.py",
        "import doctest\n\nimport pytest\n\nfrom pkg import calc\n\n\ndef run(module):\n"
        "    failed, _ = doctest.testmod(module)\n    assert failed == 0\n\n\n"
        "@pytest.mark.parametrize('runner,module', [(run, calc)])\ndef test_doctests(runner, module):\n    runner(module)\n",
    )
    commit(repo, "doctest runner")
    edit(repo, "pkg/calc.py", "return a + b", "return b + a")  # named in an example of calc, which the file imports
    db = str(tmp_path / "index.db")
    assert selected(review(capsys, repo, "--db", db)) == {"tests/test_doctests.py": (1, "doctest")}
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "1 passed"
    commit(repo, "add")
    edit(repo, "pkg/other.py", "return a - b", "return -b + a")  # an example of a module the file does not import
    assert "tests/test_doctests.py" not in selected(review(capsys, repo, "--db", db))
    # genshi's `def suite(): ... doctest.DocTestSuite(...)` serves `unittest.main(defaultTest="suite")`: pytest runs no
    # such suite
    write(
        repo,
        "tests/test_suite.py",
        "import doctest\nimport unittest\n\nfrom pkg import other\n\n\ndef test_sub():\n    assert other.mul(2, 2) == 4\n\n\n"
        "def suite():\n    return doctest.DocTestSuite(other)\n\n\nif __name__ == '__main__':\n"
        "    unittest.main(defaultTest='suite')\n    suite()\n",
    )
    commit(repo, "suite")
    edit(repo, "pkg/other.py", "return -b + a", "return a - b")
    assert "tests/test_suite.py" not in selected(review(capsys, repo, "--db", db))


def test_the_python_code_blocks_of_a_sybil_collected_file_are_its_examples(tmp_path: Path, capsys: Any) -> None:
    # tldextract's conftest.py: `Sybil(parsers=[PythonCodeBlockParser()], patterns=["README.md"])`; its README's
    # `import tldextract` runs the package, whose `TLD_EXTRACTOR = TLDExtract()` runs at import
    repo = make_repo(tmp_path / "repo")
    write(repo, "calc/__init__.py", "from calc.core import add, CACHE\n")
    write(repo, "calc/core.py", "def add(a, b):\n    return a + b\n\n\ndef load():\n    return {}\n\n\nCACHE = load()\n")
    write(repo, "calc/other.py", "def sub(a, b):\n    return a - b\n")
    write(
        repo,
        "conftest.py",
        "from sybil import Sybil\nfrom sybil.parsers.markdown import PythonCodeBlockParser\n\n"
        "pytest_collect_file = Sybil(parsers=[PythonCodeBlockParser()], patterns=['README.md', '*.rst']).pytest()\n",
    )
    write(repo, "README.md", "# calc\n\n```python\nimport calc\ncalc.add(1, 2)\n```\n\n```bash\nsub\n```\n")
    write(repo, "docs/other.rst", "Other\n\n.. code-block:: python\n\n    from calc.other import sub\n\nadd\n")
    commit(repo, "sybil readme")
    edit(repo, "calc/core.py", "return a + b", "return b + a")  # named in the README's code block
    assert selected(review(capsys, repo)) == {"README.md": (1, "doctest")}
    commit(repo, "add")
    edit(repo, "calc/core.py", "return {}", "return {1: 2}")  # runs when the README's `import calc` runs
    assert "README.md" in selected(review(capsys, repo))
    commit(repo, "load")
    edit(repo, "calc/other.py", "return a - b", "return -b + a")  # named in the rst's code block only
    assert selected(review(capsys, repo)) == {"docs/other.rst": (1, "doctest")}


def test_the_doctest_of_a_repeated_definition_runs_under_its_name(tmp_path: Path, capsys: Any) -> None:
    # overload stubs first: the parser numbers the implementation `OSet.index#3`, pytest names it `OSet.index`
    # (and a package's `__init__.py` by the package)
    repo = make_repo(tmp_path / "repo")
    write(repo, "pytest.ini", "[pytest]\naddopts = --doctest-modules\n")
    write(
        repo,
        "oset/__init__.py",
        "from typing import overload\n\n\nclass OSet:\n    def __init__(self, items):\n        self.items = list(items)\n\n"
        "    @overload\n    def index(self, key: int) -> int:\n        ...\n\n"
        "    @overload\n    def index(self, key: str) -> int:\n        ...\n\n"
        '    def index(self, key):\n        """Where key is.\n\n        >>> OSet([1, 2]).index(2)\n        1\n        """\n'
        "        return self.items.index(key)\n",
    )
    commit(repo, "oset")
    edit(repo, "oset/__init__.py", "return self.items.index(key)", "return self.items.index(key) + 0")
    db = str(tmp_path / "index.db")
    assert selected(review(capsys, repo, "--db", db)) == {"oset/__init__.py::oset.OSet.index": (1, "doctest")}
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "1 passed"


def test_every_doctest_of_a_module_whose_import_runs_the_change_is_selected(tmp_path: Path, capsys: Any) -> None:
    # pkg/__init__.py imports pkg.codec, whose import runs `setup()`: collecting any doctest of either module runs it
    repo = make_repo(tmp_path / "repo")
    write(repo, "pytest.ini", "[pytest]\naddopts = --doctest-modules\n")
    write(repo, "pkg/codec.py", "def setup():\n    return 1\n\n\nSETUP = setup()\n")
    write(
        repo,
        "pkg/__init__.py",
        'from . import codec\n\n\ndef fix(text):\n    """Fixed.\n\n    >>> fix("a")\n    \'a\'\n    """\n    return text\n',
    )
    write(repo, "pkg/other.py", 'def other(x):\n    """Other.\n\n    >>> other(1)\n    1\n    """\n    return x\n')
    commit(repo, "doctests")
    edit(repo, "pkg/codec.py", "return 1", "return 1 + 0")
    db = str(tmp_path / "index.db")
    tests = selected(review(capsys, repo, "--db", db))
    assert "pkg/__init__.py::pkg.fix" in tests, tests
    assert "pkg/other.py::pkg.other.other" not in tests, tests
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "1 passed"


DECORATED_DOCTESTS = '''\
import functools

__test__ = {}


class Node:
    def __init__(self, f):
        self.f = f

    def __call__(self, x):
        return self.f(x)


def node(f):
    __test__[f.__name__] = f
    return Node(f)


@node
def tag(x):
    """Tagged.

    >>> tag(1)
    2
    """
    return step(x)


def step(x):
    """One more.

    >>> step(1)
    2
    """

    def inner(y):
        """Not collected: doctest does not look inside functions.

        >>> inner(1)
        1
        """
        return y

    return inner(x) + 1


def logged(f):
    @functools.wraps(f)
    def wrapper(x):
        return f(x)

    return wrapper


@logged
def twice(x):
    """Twice, logged: a wrapper made with functools.wraps keeps the name.

    >>> twice(1)
    2
    """
    return step(x)


class Box:
    @staticmethod
    def make(x):
        """Made.

        >>> Box.make(1)
        2
        """
        return step(x)
'''


def test_doctests_a_root_conftest_hook_collects_are_selected(tmp_path: Path, capsys: Any) -> None:
    # babel enables doctests with a `pytest_collect_file` hook returning DoctestModule for its package's files, not
    # with --doctest-modules
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "conftest.py",
        "from _pytest.doctest import DoctestModule\n\n\ndef pytest_collect_file(file_path, parent):\n"
        "    if file_path.suffix == '.py' and file_path.parent.name == 'pkg':\n"
        "        return DoctestModule.from_parent(parent, path=file_path)\n",
    )
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/num.py", 'def double(x):\n    """Twice.\n\n    >>> double(2)\n    4\n    """\n    return x * 2\n')
    write(repo, "tests/test_num.py", "from pkg.num import double\n\n\ndef test_double():\n    assert double(1) == 2\n")
    commit(repo, "doctests by a hook")
    edit(repo, "pkg/num.py", "return x * 2", "return x + x")
    db = str(tmp_path / "index.db")
    tests = selected(review(capsys, repo, "--db", db))
    assert tests == {"pkg/num.py::pkg.num.double": (1, "doctest"), "tests/test_num.py::test_double": (1, "graph")}
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "2 passed"


def test_doctest_ids_name_what_doctest_collects(tmp_path: Path, capsys: Any) -> None:
    # pybtex's `@node` makes the name hold a Node and keeps the function in `__test__`, whose examples pytest runs as
    # `pkg.template.__test__.tag`: the file is given instead of `pkg.template.tag`, which pytest would not find (and
    # one id it cannot find makes it run nothing); a nested function's examples never run
    repo = make_repo(tmp_path / "repo")
    write(repo, "pytest.ini", "[pytest]\naddopts = --doctest-modules\n")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/template.py", DECORATED_DOCTESTS)
    commit(repo, "doctests")
    edit(repo, "pkg/template.py", "return y\n", "return y + 0\n")  # inner <- step <- tag, Box.make
    db = str(tmp_path / "index.db")
    tests = selected(review(capsys, repo, "--db", db))
    assert tests == {
        "pkg/template.py": (3, "doctest"),  # tag's examples, at the file
        "pkg/template.py::pkg.template.step": (2, "doctest"),
        "pkg/template.py::pkg.template.Box.make": (3, "doctest"),  # a static method keeps its name
        "pkg/template.py::pkg.template.twice": (3, "doctest"),
    }
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "4 passed"


def test_doctest_ids_of_a_package_in_a_namespace_follow_consider_namespace_packages(tmp_path: Path, capsys: Any) -> None:
    # jaraco.text: jaraco/ has no __init__.py, and with `consider_namespace_packages = true` pytest names the doctests of
    # jaraco/text/__init__.py `jaraco.text.wrap`; without the setting, `text.wrap`
    repo = make_repo(tmp_path / "repo")
    settings = "[pytest]\naddopts = --doctest-modules --import-mode importlib\nconsider_namespace_packages = true\n"
    write(repo, "pytest.ini", settings)
    write(
        repo,
        "ns/text/__init__.py",
        'def wrap(s):\n    """\n    >>> wrap("a")\n    \'[a]\'\n    """\n    return "[" + s + "]"\n',
    )
    commit(repo, "a package in a namespace")
    edit(repo, "ns/text/__init__.py", 'return "[" + s + "]"', 'return "[" + s + "]" + ""')
    db = str(tmp_path / "index.db")
    assert selected(review(capsys, repo, "--db", db)) == {"ns/text/__init__.py::ns.text.wrap": (1, "doctest")}
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "1 passed"
    write(repo, "pytest.ini", settings.replace("true", "false"))
    commit(repo, "no namespaces")
    edit(repo, "ns/text/__init__.py", 'return "[" + s + "]" + ""', 'return "[" + s + "]" + "" + ""')
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and out.split() == ["ns/text/__init__.py::text.wrap"]
    assert run_pytest(repo, out.split()) == "1 passed"


def test_doctests_of_reached_docstrings_and_doctest_files_naming_reached_code(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    for path, text in DOCTESTED.items():
        write(repo, path, text)
    commit(repo, "doctests")
    db = str(tmp_path / "index.db")

    edit(repo, "src/calc/core.py", "return int(x)", "return int(x) + 0")  # _norm: add and sub reach it
    tests = selected(review(capsys, repo, "--db", db))
    assert tests == {
        "src/calc/core.py::calc.core.add": (2, "doctest"),
        "src/calc/report.py::calc.report.show": (2, "doctest"),
        "src/helpers.py": (3, "doctest"),
        "docs/usage.rst": (2, "doctest"),
    }
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and sorted(out.split()) == [
        "docs/usage.rst", "src/calc/core.py::calc.core.add", "src/calc/report.py::calc.report.show", "src/helpers.py"
    ]
    assert run_pytest(repo, out.split()) == "4 passed"

    git(repo, "checkout", "src/calc/core.py")
    edit(repo, "src/calc/core.py", "return self.v < other.v", "return other.v > self.v")  # `<` in boxes.rst
    assert selected(review(capsys, repo, "--db", db)) == {"docs/boxes.rst": (1, "doctest")}

    git(repo, "checkout", "src/calc/core.py")
    edit(repo, "src/calc/core.py", "self.v = v", "self.v = v + 0")  # `Box(1)` runs Box.__init__
    assert selected(review(capsys, repo, "--db", db)) == {"docs/boxes.rst": (1, "doctest")}

    git(repo, "checkout", "src/calc/core.py")  # doctest files that change run themselves, others do not
    for path in ("docs/plain.rst", "notes/usage.rst", "docs/readme.md"):
        write(repo, path, ">>> 2 + 2\n4\n")
    assert selected(review(capsys, repo, "--db", db)) == {"docs/plain.rst": (0, "changed")}


def test_a_test_file_over_the_size_limit_is_selected_whole_when_it_names_reached_code(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pyproject.toml", "[tool.crg-review]\nsize-limit = 2000\n")
    padding = "".join(f"\n\ndef test_case_{i}():\n    assert CASES[{i}] == {i}\n" for i in range(80))
    write(repo, "tests/test_big_api.py", "from pkg.core import api\n\nCASES = list(range(80))\n" + padding)
    write(repo, "tests/test_big_other.py", "from pkg.store import connect\n\nCASES = list(range(80))\n" + padding)
    commit(repo, "generated tests")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 1 + 0")  # leaf <- mid <- top <- api
    tests = selected(review(capsys, repo))
    assert tests["tests/test_big_api.py"] == (4, "unparsed")
    assert "tests/test_big_other.py" not in tests  # it names nothing the change reaches
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "tests/test_big_api.py" in out.split()


PARTLY_PARSED = """\
from pkg.core import api
from pkg.store import connect


class TestContinued:
    def test_api(self):
        assert api(1)

    def test_dedented(self):
        (self
      .
    attr
  ) = 4
        assert self.attr == 4

    def test_connect(self):
        assert connect()
"""


def test_a_test_file_parsed_only_in_part_is_selected_as_a_file(tmp_path: Path, capsys: Any) -> None:
    # executing's test_main.py: lines continued below their block's indentation, which Python accepts and tree-sitter
    # does not; the methods after them are the module's functions in the index, ids pytest would not find
    repo = project(tmp_path)
    write(repo, "tests/test_partly.py", PARTLY_PARSED)
    commit(repo, "partly parsed")
    db = str(repo.parent / "index.db")
    assert run_cli(capsys, "index", "--repo", str(repo), "--db", db)[0] == 0
    code, out, _ = run_cli(capsys, "stats", "--format", "json", "--repo", str(repo), "--db", db)
    assert code == 0 and json.loads(out)["files_with_syntax_errors"] == 1  # what tree-sitter makes of it

    edit(repo, "pkg/store.py", "return object()", "return object() or None")  # connect: only the lost method calls it
    tests = selected(review(capsys, repo))
    assert tests["tests/test_partly.py"] == (1, "partial")
    assert not [t for t in tests if t.startswith("tests/test_partly.py::")]  # no id of the file's tests, right or wrong
    assert run_pytest(repo, ["tests/test_partly.py"]) == "3 passed"

    git(repo, "checkout", "pkg/store.py")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 1 + 0")  # leaf <- mid <- top <- api <- test_api
    tests = selected(review(capsys, repo))
    assert tests["tests/test_partly.py"] == (4, "partial")
    assert tests["tests/test_chain.py::test_api"] == (4, "graph")  # a file parsed whole keeps its ids

    git(repo, "checkout", "pkg/core.py")
    edit(repo, "pkg/core.py", "return 0", "return 1")  # Shape.area: the file names nothing it reaches
    assert "tests/test_partly.py" not in selected(review(capsys, repo))


def test_a_test_module_that_execs_code_is_selected_whole_when_a_change_reaches_what_it_imports(
    tmp_path: Path, capsys: Any
) -> None:
    # configargparse execs CPython's test_argparse.py, rewritten, into its test module: tests no definition names,
    # which may use anything the module imports
    repo = project(tmp_path)
    made = 'SOURCE = "def test_made():\\n    assert {call}\\n"\n\nexec(compile(SOURCE, "<made>", "exec"))\n'
    write(repo, "tests/test_exec_store.py", "from pkg import store\n\n" + made.format(call="store.connect()"))
    write(repo, "tests/test_exec_package.py", "import pkg.core\n\n" + made.format(call="pkg.core.api(1)"))
    write(repo, "pkg/__init__.py", "from . import core, store\n")
    write(repo, "other/__init__.py", "")
    write(repo, "other/util.py", "def helper():\n    return 2\n")
    write(repo, "tests/test_util.py", "from other.util import helper\n\n\ndef test_helper():\n    assert helper()\n")
    commit(repo, "tests made by exec")

    edit(repo, "pkg/store.py", "return object()", "return object() or None")  # connect: store.py is imported
    tests = selected(review(capsys, repo))
    assert tests["tests/test_exec_store.py"] == (1, "exec")
    assert tests["tests/test_exec_package.py"] == (1, "exec")  # `import pkg.core`: the package pkg, store.py in it
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "tests/test_exec_store.py" in out.split()
    assert run_pytest(repo, ["tests/test_exec_store.py"]) == "1 passed"

    git(repo, "checkout", "pkg/store.py")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 1 + 0")  # leaf <- mid <- top <- api
    tests = selected(review(capsys, repo))
    assert tests["tests/test_exec_package.py"] == (1, "exec")
    assert tests["tests/test_exec_store.py"] == (1, "exec")  # core.py is a module of store.py's package

    git(repo, "checkout", "pkg/core.py")
    edit(repo, "other/util.py", "return 2", "return 2 + 0")  # a package neither imports
    assert selected(review(capsys, repo)) == {"tests/test_util.py::test_helper": (1, "graph")}


def test_a_test_module_that_execs_a_string_it_states_without_tests_is_not_selected_whole(
    tmp_path: Path, capsys: Any
) -> None:
    # typing_inspect: `PY36_TESTS = """class TDM(METypedDict): ..."""`, then `exec(PY36_TESTS)` under a version check:
    # classes in syntax older Pythons cannot parse, which the tests use; no test is made
    repo = project(tmp_path)
    classes = 'CLASSES = """\nclass Point(dict):\n    x: int\n"""\n\nif True:\n    exec(CLASSES)\n\n\n'
    write(repo, "tests/test_exec_classes.py", "from pkg import store\n\n" + classes + "def test_point():\n    assert Point\n")
    made = 'TESTS = "def test_made():\\n    assert store.connect()\\n"\n\nexec(TESTS)\n'
    write(repo, "tests/test_exec_tests.py", "from pkg import store\n\n" + made)
    commit(repo, "code run by exec")
    edit(repo, "pkg/store.py", "return object()", "return object() or None")  # connect: store.py is imported
    tests = selected(review(capsys, repo))
    assert "tests/test_exec_classes.py" not in tests  # its test names nothing reached
    assert tests["tests/test_exec_tests.py"] == (1, "exec")  # a string that makes a test


def test_an_oversized_test_module_named_by_python_files_is_found_by_commands_that_do_not_index(
    tmp_path: Path, capsys: Any
) -> None:
    # `python_files = check_*.py`: tests/check_big.py is a test module over the size limit; `tests-for` reads the
    # index as built (its python_files), not whatever names this process last parsed with
    from crg_review.languages import python

    repo = project(tmp_path)
    write(repo, "pyproject.toml", "[tool.crg-review]\nsize-limit = 2000\n")
    write(repo, "pytest.ini", "[pytest]\npython_files = check_*.py\n")
    padding = "".join(f"\n\ndef test_case_{i}():\n    assert CASES[{i}] == {i}\n" for i in range(80))
    write(repo, "tests/check_big.py", "from pkg.core import api\n\nCASES = list(range(80))\n" + padding)
    commit(repo, "generated checks")
    db = str(tmp_path / "index.db")
    assert run_cli(capsys, "index", "--repo", str(repo), "--db", db)[0] == 0
    python.set_test_file_patterns(None)  # as in a process that has not indexed
    try:
        code, out, _ = run_cli(capsys, "tests-for", "pkg/core.py::leaf", "--repo", str(repo), "--db", db)
    finally:
        python.set_test_file_patterns(None)  # the names this process parses with: no other test's business
    assert code == 0 and "tests/check_big.py" in out.split()


def test_convention_matches_are_marked(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/util.py", "def fmt(x):\n    return str(x)\n")
    write(
        repo,
        "tests/test_util.py",
        "import importlib\n\n\ndef test_dynamic():\n    mod = importlib.import_module('pkg.util')\n"
        "    assert getattr(mod, 'f' + 'mt')(1)\n",
    )
    commit(repo, "util")
    edit(repo, "pkg/util.py", "str(x)", "repr(x)")
    data = review(capsys, repo)
    assert selected(data) == {"tests/test_util.py::test_dynamic": (0, "convention")}
    assert "CRG003" not in [r[0] for r in rules(data)]  # a convention test counts as a test


def test_a_convention_match_of_a_method_name_takes_the_tests_of_its_class_only(tmp_path: Path, capsys: Any) -> None:
    # colander: test_colander.py calls `serialize` in 96 tests of twenty type classes; a change of Tuple.serialize
    # fails those of TestTuple
    repo = project(tmp_path)
    write(
        repo,
        "pkg/kinds.py",
        "".join(
            f"class {k}:\n    def update(self, value):\n        return {k.lower()}(value)\n\n\n" for k in ("Tuple", "Dict", "Float")
        )
        + "class Integer(Float):\n    pass\n",
    )
    # the types come from a module the graph does not see imported, and `x.update()` is more often a dict's: only the
    # convention finds these tests, and only the names of their classes tell which type each deals with
    cases = "".join(
        f"class Test{name}(unittest.TestCase):\n    def _makeOne(self):\n        return TYPES['{name}']()\n\n"
        f"    def test_update(self):\n        assert self._makeOne().update([])\n\n\n"
        for name in ("Tuple", "Dict", "Integer")
    )
    write(
        repo,
        "tests/test_kinds.py",
        "import importlib\nimport unittest\n\nTYPES = vars(importlib.import_module('pkg.' + 'kinds'))\n\n\n" + cases
        + "def test_update_anything():\n    assert TYPES['Tuple']().update([])\n",
    )
    commit(repo, "kinds")
    edit(repo, "pkg/kinds.py", "return tuple(value)", "return tuple(value) + ()")
    # (and the test function, whose context tells no class: tomlkit's parametrized tests over items of every type)
    anything = {"tests/test_kinds.py::test_update_anything": (0, "convention")}
    assert selected(review(capsys, repo)) == {"tests/test_kinds.py::TestTuple::test_update": (0, "convention"), **anything}
    # a base class's method: the tests of its subclasses too (TestInteger)
    edit(repo, "pkg/kinds.py", "return float(value)", "return float(value) + 0")
    assert selected(review(capsys, repo)) == {
        "tests/test_kinds.py::TestTuple::test_update": (0, "convention"),
        "tests/test_kinds.py::TestInteger::test_update": (0, "convention"),
        **anything,
    }
    # a changed function of that name (not only a method): every test naming it
    edit(repo, "pkg/kinds.py", "class Integer(Float):", "def update(value):\n    return value\n\n\nclass Integer(Float):")
    assert len(selected(review(capsys, repo))) == 4


def test_a_test_file_named_after_the_last_word_of_a_module_goes_with_it(tmp_path: Path, capsys: Any) -> None:
    # num2words: `lang_RU.py`'s converter is found by a string the test passes; tests/test_ru.py tests it
    repo = project(tmp_path)
    write(repo, "pkg/lang_RU.py", "class Num2WordRU:\n    def to_cardinal(self, n):\n        return str(n)\n")
    write(repo, "pkg/lang_EN.py", "class Num2WordEN:\n    def to_cardinal(self, n):\n        return str(n)\n")
    write(
        repo,
        "pkg/convert.py",
        "import importlib\n\n\ndef num2words(n, lang, kind='cardinal'):\n    module = importlib.import_module('pkg.lang_' + lang.upper())\n"
        "    converter = getattr(module, 'Num2Word' + lang.upper())()\n    return eval('converter.to_' + kind)(n)\n",
    )
    for lang in ("ru", "en"):
        write(
            repo,
            f"tests/test_{lang}.py",
            f"from pkg.convert import num2words\n\n\ndef test_{lang}():\n    assert num2words(1, '{lang}')\n",
        )
    commit(repo, "converters")
    edit(repo, "pkg/lang_RU.py", "return str(n)", "return repr(n)")
    assert selected(review(capsys, repo)) == {"tests/test_ru.py::test_ru": (0, "convention")}
    # the graph finds a test of the module elsewhere, none in its own test file: that file's tests go with it still
    write(repo, "tests/test_direct.py", "from pkg.lang_RU import Num2WordRU\n\n\ndef test_direct():\n    assert Num2WordRU().to_cardinal(1)\n")
    commit(repo, "a direct test")
    edit(repo, "pkg/lang_RU.py", "return repr(n)", "return ascii(n)")
    assert selected(review(capsys, repo)) == {
        "tests/test_direct.py::test_direct": (1, "graph"), "tests/test_ru.py::test_ru": (0, "convention")
    }
    # a module of no family (xmltodict.py, its tests found in tests/test_dicttoxml.py): the graph's answer stands
    write(repo, "pkg/plain.py", "def g(n):\n    return n\n")
    write(repo, "tests/test_plain.py", "def test_plain():\n    assert eval('1')\n")
    write(repo, "tests/test_uses_plain.py", "from pkg.plain import g\n\n\ndef test_g():\n    assert g(1)\n")
    commit(repo, "a module of no family")
    edit(repo, "pkg/plain.py", "return n", "return +n")
    assert selected(review(capsys, repo)) == {"tests/test_uses_plain.py::test_g": (1, "graph")}


def test_a_convention_test_runs_in_the_test_classes_that_inherit_it_too(tmp_path: Path, capsys: Any) -> None:
    # num2words: tests/test_es_co.py's `Num2WordsESCOTest(test_es.Num2WordsESTest)` runs the Spanish tests again
    repo = project(tmp_path)
    write(repo, "pkg/lang_ES.py", "class Num2WordES:\n    def to_currency(self, n):\n        return str(n)\n")
    write(repo, "pkg/lang_EN.py", "class Num2WordEN:\n    def to_currency(self, n):\n        return str(n)\n")
    write(
        repo,
        "tests/test_es.py",
        "import unittest\n\n\nclass ESTest(unittest.TestCase):\n    lang = 'es'\n\n"
        "    def test_currency(self):\n        assert eval('1')\n\n    def test_other(self):\n        assert eval('2')\n",
    )
    write(
        repo,
        "tests/test_es_co.py",
        "from . import test_es\n\n\nclass ESCOTest(test_es.ESTest):\n    lang = 'es_CO'\n\n"
        "    def test_other(self):\n        assert eval('3')\n",
    )
    write(repo, "tests/__init__.py", "")
    commit(repo, "converters")
    edit(repo, "pkg/lang_ES.py", "return str(n)", "return repr(n)")
    assert selected(review(capsys, repo)) == {
        "tests/test_es.py::ESTest::test_currency": (0, "convention"),
        "tests/test_es.py::ESTest::test_other": (0, "convention"),
        "tests/test_es_co.py::ESCOTest::test_currency": (0, "convention"),  # not its own test_other
    }


def test_a_table_of_instances_lists_its_user_as_caller_and_leaves_the_tests_to_the_convention(
    tmp_path: Path, capsys: Any
) -> None:
    # num2words: `CONVERTER_CLASSES[lang]` holds one converter per language; a test picks one by its key
    repo = project(tmp_path)
    langs = ("ru", "en", "fr", "de", "es", "it")
    write(
        repo,
        "pkg/lang_base.py",
        "class Base:\n    def parse(self, text):\n        return int(text)\n\n"
        "    def to_ordinal(self, n):\n        return self.merge(n) + '.'\n\n    def merge(self, n):\n        return str(n)\n",
    )
    for lang in langs:
        write(
            repo,
            f"pkg/lang_{lang.upper()}.py",
            f"from .lang_base import Base\n\n\nclass Num2Word{lang.upper()}(Base):\n"
            "    def to_cardinal(self, n):\n        return str(n)\n"
            + ("\n    def merge(self, n):\n        return f'{n}'\n" if lang == "ru" else ""),
        )
        write(repo, f"tests/test_{lang}.py", f"from pkg.convert import num2words\n\n\ndef test_{lang}():\n    assert num2words('1', '{lang}')\n")
    write(
        repo,
        "pkg/convert.py",
        "from . import " + ", ".join(f"lang_{lang.upper()}" for lang in langs) + "\n\n"
        "CONVERTERS = {\n" + "".join(f"    '{lang}': lang_{lang.upper()}.Num2Word{lang.upper()}(),\n" for lang in langs) + "}\n\n\n"
        "def num2words(text, lang, to='cardinal'):\n    converter = CONVERTERS[lang]\n    n = converter.parse(text)\n"
        "    return getattr(converter, 'to_' + to)(n)\n",
    )
    commit(repo, "converters")
    edit(repo, "pkg/lang_RU.py", "return str(n)", "return repr(n)")
    data = review(capsys, repo)
    assert impacted(data)["num2words"]["depth"] == 1  # one of the table's converters: a caller
    assert selected(data) == {"tests/test_ru.py::test_ru": (0, "convention")}
    edit(repo, "pkg/lang_RU.py", "return repr(n)", "return str(n)")
    # an override the shared code calls (`self.merge(n)`) runs for the key that picks its class too
    edit(repo, "pkg/lang_RU.py", "f'{n}'", "f'{n!s}'")
    assert selected(review(capsys, repo)) == {"tests/test_ru.py::test_ru": (0, "convention")}
    edit(repo, "pkg/lang_RU.py", "f'{n!s}'", "f'{n}'")
    # what every converter inherits: each test that converts
    edit(repo, "pkg/lang_base.py", "int(text)", "int(text, 10)")
    assert set(selected(review(capsys, repo))) == {f"tests/test_{lang}.py::test_{lang}" for lang in langs}
    # without a test file named after the module, the tests through the table stand
    edit(repo, "pkg/lang_base.py", "int(text, 10)", "int(text)")
    git(repo, "rm", "-q", "tests/test_ru.py")
    commit(repo, "no test_ru.py")
    edit(repo, "pkg/lang_RU.py", "return str(n)", "return repr(n)")
    assert set(selected(review(capsys, repo))) == {f"tests/test_{lang}.py::test_{lang}" for lang in langs if lang != "ru"}


def test_a_test_class_imported_into_another_test_module_runs_there_too(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_base.py",
        "from pkg.core import api\n\n\nclass TestApi:\n    def test_api(self):\n        assert api(1)\n",
    )
    write(
        repo,
        "tests/test_more.py",
        "from tests.test_base import TestApi\nfrom tests.test_base import TestApi as _Base\n\n\n"
        "class TestMore(_Base):\n    pass\n",
    )
    commit(repo, "imported test class")
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    ids = set(selected(review(capsys, repo)))
    assert {
        "tests/test_base.py::TestApi::test_api",
        "tests/test_more.py::TestApi::test_api",  # pytest collects the imported name again
        "tests/test_more.py::TestMore::test_api",
    } <= ids
    assert "tests/test_more.py::_Base::test_api" not in ids


def test_a_testcase_imported_into_another_test_module_runs_there_under_any_name(tmp_path: Path, capsys: Any) -> None:
    # sqlitedict's `from test_temp_db import TempSqliteDictTest` in test_core.py: a TestCase is collected whatever its
    # name, a plain class only as Test*
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_base.py",
        "import unittest\n\nfrom pkg.core import api\n\n\nclass ApiCase(unittest.TestCase):\n"
        "    def test_api(self):\n        assert api(1)\n\n\nclass Helper:\n    def test_helper(self):\n"
        "        assert api(2)\n",
    )
    write(
        repo,
        "tests/test_more.py",
        "from tests.test_base import ApiCase, Helper\n",
    )
    write(repo, "tests/test_alias.py", "from tests.test_base import ApiCase as _Base\n")
    commit(repo, "imported test case")
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    ids = set(selected(review(capsys, repo)))
    assert {
        "tests/test_base.py::ApiCase::test_api",
        "tests/test_more.py::ApiCase::test_api",
        "tests/test_alias.py::_Base::test_api",
    } <= ids
    assert not {i for i in ids if "Helper" in i}  # not a test class: neither named Test* nor a TestCase
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "tests/test_alias.py::_Base::test_api" in out.split()
    assert run_pytest(repo, out.split()).endswith("passed")  # every id is one pytest finds


def test_a_test_class_whose_metaclass_makes_its_tests_is_selected_as_a_class(tmp_path: Path, capsys: Any) -> None:
    # uritemplate: `class TestURITemplate(unittest.TestCase, metaclass=RFCTemplateExamples)`, whose `__new__`
    # attaches a `test_<table>` closure per example table
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_tables.py",
        "import unittest\n\nfrom pkg.core import api\n\n\nclass Tables(type):\n    small = [1, 2]\n    large = [10, 20]\n\n"
        "    def __new__(cls, name, bases, attrs):\n        def make_test(values):\n            def _test_(self):\n"
        "                for v in values:\n                    self.assertTrue(api(v))\n\n            return _test_\n\n"
        "        for table in ('small', 'large'):\n            attrs['test_' + table] = make_test(getattr(Tables, table))\n"
        "        return type.__new__(cls, name, bases, attrs)\n\n\n"
        "class TestTables(unittest.TestCase, metaclass=Tables):\n    def test_static(self):\n        self.assertTrue(True)\n",
    )
    commit(repo, "tables")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 2")
    tests = selected(review(capsys, repo))
    assert "tests/test_tables.py::TestTables" in tests, tests
    assert run_pytest(repo, ["tests/test_tables.py::TestTables"]) == "3 passed"  # two the index cannot name


PARAMETRIZE = """\
import functools


def parametrize(values):
    def decorator(func):
        func.values = values
        return func

    return decorator


class Parametrizing(type):
    def __new__(mcls, name, bases, attrs):
        made = dict(attrs)
        for attr_name, attr in attrs.items():
            values = getattr(attr, "values", None)
            if values is None:
                continue
            for v in values:
                def bind(func, v):
                    @functools.wraps(func)
                    def case(self):
                        return func(self, v)
                    return case
                made[f"{attr_name}__{v}"] = bind(attr, v)
            del made[attr_name]
        return type.__new__(mcls, name, bases, made)


def parametrize_class(klass):
    return Parametrizing(klass.__name__, klass.__bases__, dict(klass.__dict__))
"""


@pytest.mark.parametrize(
    "header",
    ["@parametrize_class\nclass TestApi(unittest.TestCase):", "class TestApi(unittest.TestCase, metaclass=Parametrizing):"],
)
def test_the_tests_a_repository_metaclass_remakes_are_given_by_their_class(
    tmp_path: Path, capsys: Any, header: str
) -> None:
    # python-multipart: `@parametrize_class` calls its ParametrizingMetaclass, which replaces each `@parametrize`d
    # `test_http` by a `test_http__<case>` per case: `pytest file::TestFormParser::test_http` stops at "not found"
    repo = project(tmp_path)
    write(repo, "tests/compat.py", PARAMETRIZE)
    write(
        repo,
        "tests/test_cases.py",
        "import unittest\n\nfrom pkg.core import api\n\nfrom .compat import Parametrizing, parametrize, parametrize_class\n\n\n"
        f"{header}\n    @parametrize([1, 2])\n    def test_api(self, v):\n        self.assertTrue(api(v))\n\n"
        "    def test_plain(self):\n        self.assertTrue(api(0))\n\n\n"
        "class TestOther(unittest.TestCase):\n    @unittest.skipIf(False, 'never')\n    def test_kept(self):\n"
        "        self.assertTrue(api(3))\n",
    )
    commit(repo, "cases")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 2")
    data = review(capsys, repo)
    tests = selected(data)
    assert "tests/test_cases.py::TestApi" in tests, tests
    assert "tests/test_cases.py::TestApi::test_api" not in tests  # no such test once the class is made
    assert "tests/test_cases.py::TestApi::test_plain" in tests  # undecorated: its own name stays
    assert "tests/test_cases.py::TestOther::test_kept" in tests  # a class no metaclass of the repo makes
    remade = [t for t in data["tests"] if t["nodeid"] == "tests/test_cases.py::TestApi"]
    assert [t["qualname"] for t in remade] == ["TestApi.test_api"]
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0
    ids = [i for i in out.split() if i.startswith("tests/test_cases.py")]
    assert ids
    assert run_pytest(repo, ids) == "4 passed"  # test_api__1, test_api__2, test_plain, test_kept
    code, out, _ = run_cli(capsys, "tests-for", "pkg/core.py::api", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()].count("tests/test_cases.py::TestApi") == 1, out


def test_tests_parameterized_or_ddt_rename_are_given_by_their_class(tmp_path: Path, capsys: Any) -> None:
    # mistletoe: `@parameterized.expand([...]) def test_match(self, line)` becomes `test_match_0_...`; ddt's `@data(...)`
    # in a class marked `@ddt` becomes `test_x_1_...`: the method's own id names nothing pytest collects
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_libs.py",
        "import unittest\n\nfrom ddt import data, ddt\nfrom parameterized import parameterized\n\n"
        "from pkg.core import api\n\n\nclass TestExpand(unittest.TestCase):\n"
        "    @parameterized.expand([(1,), (2,)])\n    def test_api(self, v):\n        self.assertTrue(api(v))\n\n"
        "    def test_plain(self):\n        self.assertTrue(api(0))\n\n\n"
        "@ddt\nclass TestData(unittest.TestCase):\n    @data(1, 2)\n    def test_api(self, v):\n"
        "        self.assertTrue(api(v))\n\n\nclass TestNoDdt(unittest.TestCase):\n"
        "    @data(1, 2)\n    def test_api(self, v):\n        self.assertTrue(api(v))\n",
    )
    commit(repo, "libs")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 2")
    tests = selected(review(capsys, repo))
    assert {"tests/test_libs.py::TestExpand", "tests/test_libs.py::TestData"} <= set(tests), tests
    assert "tests/test_libs.py::TestExpand::test_api" not in tests
    assert "tests/test_libs.py::TestData::test_api" not in tests
    assert "tests/test_libs.py::TestExpand::test_plain" in tests
    assert "tests/test_libs.py::TestNoDdt::test_api" in tests  # no @ddt on the class: its `data` renames nothing


def test_a_test_module_that_makes_its_tests_on_import_is_selected_as_a_file(tmp_path: Path, capsys: Any) -> None:
    # mistune: `TestCommonMark.load_fixtures("commonmark.json")` at module level attaches a `test_<n>` per case
    repo = project(tmp_path)
    write(
        repo,
        "tests/cases.py",
        "import unittest\n\n\nclass CaseTest(unittest.TestCase):\n    @classmethod\n    def load_cases(cls, cases):\n"
        "        def attach(n, x):\n            def method(self):\n                self.check(x)\n\n"
        "            setattr(cls, f'test_{n}', method)\n\n"
        "        for n, x in enumerate(cases):\n            attach(n, x)\n\n"
        "    def check(self, x):\n        assert self.run_case(x)\n",
    )
    write(
        repo,
        "tests/test_cases.py",
        "from pkg.core import api\nfrom tests.cases import CaseTest\n\n\nclass TestApi(CaseTest):\n"
        "    def run_case(self, x):\n        return api(x)\n\n\nTestApi.load_cases([1, 2, 3])\n",
    )
    commit(repo, "generated tests")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 2")
    tests = selected(review(capsys, repo))
    assert "tests/test_cases.py" in tests, tests
    assert "tests/test_chain.py::test_api" in tests
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "tests/test_cases.py" in out.split()
    assert run_pytest(repo, ["tests/test_cases.py"]) == "3 passed"  # the three the index cannot name


def test_a_test_module_that_makes_test_methods_with_a_maker_on_import_is_selected_as_a_file(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_spec.py",
        "import unittest\n\nfrom pkg.core import api\n\n\nclass SpecTestCase(unittest.TestCase):\n    pass\n\n\n"
        "def _gen_test(value):\n    def test(self):\n        self.assertTrue(api(value))\n    return test\n\n\n"
        "for name in ('one', 'two'):\n    setattr(SpecTestCase, 'test_' + name,\n            _gen_test(1))\n",
    )
    commit(repo, "spec")
    edit(repo, "pkg/core.py", "def leaf(x):\n", "def leaf(x):\n    x = x or 0\n")
    tests = selected(review(capsys, repo))
    # yamllint's spec examples: the module attaches a test per example at import, named from data
    assert "tests/test_spec.py" in tests
    assert "tests/test_chain.py::test_api" in tests


def test_self_calls_in_a_function_made_to_become_a_method_of_a_class_of_its_file_are_followed(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "tests/common.py",
        "import unittest\n\nfrom pkg.core import api\n\n\nclass RuleTestCase(unittest.TestCase):\n"
        "    def check(self, value):\n        self.assertTrue(api(value))\n",
    )
    for n in range(17):  # yamllint's rule modules: too many `check`s for a name match of `self.check`
        write(repo, f"pkg/rules/r{n}.py", "def check(value):\n    return value\n")
    maker = (
        "\n\ndef _gen_test(value):\n    def test(self):\n        self.check(value)\n    return test\n\n\n"
        "for name in ('one', 'two'):\n    setattr({cls}, 'test_' + name, _gen_test(1))\n"
    )
    write(
        repo,
        "tests/test_spec.py",
        "from tests.common import RuleTestCase\n\n\nclass SpecTestCase(RuleTestCase):\n    rule_id = None\n"
        + maker.format(cls="SpecTestCase"),
    )
    write(
        repo,
        "tests/test_elsewhere.py",
        "import unittest\n\n\nclass OtherTestCase(unittest.TestCase):\n    def check(self, value):\n"
        "        self.assertTrue(value)\n" + maker.format(cls="OtherTestCase"),
    )
    write(repo, "tests/test_leaf.py", "from pkg.core import leaf\n\n\ndef test_leaf():\n    assert leaf(1)\n")
    write(
        repo,
        "tests/test_colons.py",
        "from tests.common import RuleTestCase\n\n\nclass ColonTestCase(RuleTestCase):\n"
        "    def test_colons(self):\n        self.check(1)\n",
    )
    commit(repo, "spec")
    edit(repo, "pkg/core.py", "def leaf(x):\n", "def leaf(x):\n    x = x or 0\n")
    tests = selected(review(capsys, repo))
    # yamllint's spec examples: `self` of the made `test` is the class of its file the maker's tests are set on,
    # a subclass of the one with `check`, however far `check` lies from the change; the other file's
    # `self.check` is its own class's
    assert {"tests/test_spec.py", "tests/test_colons.py::ColonTestCase::test_colons"} <= set(tests)
    assert not {"tests/test_elsewhere.py", "tests/test_elsewhere.py::OtherTestCase::test_one"} & set(tests)
