"""Change impact on real temporary repositories: the reverse walks, dependants and related tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import commit, git, make_repo, run_cli, write
from .impact_helpers import changed, edit, impacted, project, review, run_pytest, selected

# --- impacted (walk_dependants) -------------------------------------------------------------------


def test_impacted_depth_via_edge_and_confidence(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    data = review(capsys, repo, "--depth", "2")
    got = impacted(data)
    assert set(got) == {"mid", "top"}
    assert (got["mid"]["depth"], got["mid"]["via"], got["mid"]["edge"], got["mid"]["confidence"]) == (
        1,
        ["leaf"],
        "call",
        1.0,
    )
    assert (got["top"]["depth"], got["top"]["via"]) == (2, ["mid", "leaf"])
    assert set(impacted(review(capsys, repo, "--depth", "3"))) == {"mid", "top", "api"}
    assert impacted(review(capsys, repo, "--depth", "0")) == {}


def test_confidence_is_the_product_along_the_path(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/shapes.py",
        "class A:\n    def go(self):\n        return 1\n\n\nclass B:\n    def go(self):\n        return 2\n\n\n"
        "def use(o):\n    return o.go()\n\n\ndef outer():\n    return use(None)\n",
    )
    commit(repo, "shapes")
    edit(repo, "pkg/shapes.py", "        return 1\n", "        return 3\n")
    got = impacted(review(capsys, repo))
    assert got["use"]["confidence"] == pytest.approx(0.25)  # a name match among two methods
    assert (got["outer"]["depth"], got["outer"]["confidence"]) == (2, pytest.approx(0.25))


def test_impacted_is_capped_and_the_cut_counted(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    data = review(capsys, repo, "--max-impacted", "1")
    assert [i["qualname"] for i in data["impacted"]] == ["mid"]  # the nearest, most confident one
    assert data["stats"]["impacted_total"] == 3 and data["stats"]["impacted_cut"] == 2


def test_a_changed_override_impacts_callers_of_the_base_method(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/animals.py",
        "class Animal:\n    def speak(self):\n        return ''\n\n\nclass Dog(Animal):\n    def speak(self):\n"
        "        return 'woof'\n\n\ndef chorus(a):\n    return Animal.speak(a)\n",
    )
    commit(repo, "animals")
    edit(repo, "pkg/animals.py", "'woof'", "'WOOF'")
    got = impacted(review(capsys, repo))
    assert got["Animal.speak"]["edge"] == "dispatch"
    assert got["chorus"]["depth"] == 2 and got["chorus"]["via"] == ["Animal.speak", "Dog.speak"]


# --- related tests (walk_tests) -------------------------------------------------------------------


def test_tests_reach_a_function_four_calls_deep_but_not_through_module_imports(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    data = review(capsys, repo)
    assert selected(data) == {"tests/test_chain.py::test_api": (4, "graph")}


def test_fixtures_follow_conftest_scoping(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/store.py", '{"rows": []}', '{"rows": [1]}')
    got = selected(review(capsys, repo))
    assert got == {"tests/test_uses_db.py::test_top": (2, "fixture")}  # tests/sub has its own `db`


def test_unittest_setup_selects_the_test_methods(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/store.py", "    return object()\n", "    return object() or 1\n")
    assert selected(review(capsys, repo)) == {"tests/test_unit.py::TestUnit::test_a": (2, "setup")}


def test_a_tear_down_of_a_subclass_selects_the_test_methods_it_inherits(tmp_path: Path, capsys: Any) -> None:
    # sqlitedict: `class InMemorySqliteDictTest(TempSqliteDictTest)` adds `def tearDown(self): self.d.terminate()`,
    # which runs after each test it inherits; an error there fails the test
    repo = project(tmp_path)
    write(repo, "pkg/close.py", "def terminate(conn):\n    return conn\n")
    write(
        repo,
        "tests/test_closing.py",
        "import unittest\n\nfrom pkg.close import terminate\n\n\nclass BaseCase(unittest.TestCase):\n"
        "    def tearDown(self):\n        pass\n\n"
        "    def test_b(self):\n        assert True\n\n\nclass ClosingCase(BaseCase):\n"
        "    def tearDown(self):\n        terminate(self)\n",
    )
    commit(repo, "tear down")
    edit(repo, "pkg/close.py", "    return conn\n", "    return conn or 1\n")
    tests = selected(review(capsys, repo))
    assert tests["tests/test_closing.py::ClosingCase::test_b"] == (3, "setup")  # through the base's tearDown


XUNIT = """\
import unittest

from pkg import hooks


def setup_module(module):
    hooks.module_hook()


def teardown_function(function):
    hooks.function_hook()


def test_plain():
    assert True


class TestX:
    @classmethod
    def setup_class(cls):
        hooks.class_hook()

    def teardown_method(self, method):
        hooks.method_hook()

    def test_m(self):
        assert True


class Case(unittest.TestCase):
    def test_c(self):
        assert True
"""


@pytest.mark.parametrize(
    ("hook", "expected"),
    [
        ("module_hook", {"tests/test_xunit.py::test_plain", "tests/test_xunit.py::TestX::test_m", "tests/test_xunit.py::Case::test_c"}),
        ("function_hook", {"tests/test_xunit.py::test_plain"}),
        ("class_hook", {"tests/test_xunit.py::TestX::test_m"}),
        ("method_hook", {"tests/test_xunit.py::TestX::test_m"}),
    ],
)
def test_pytest_setup_and_teardown_hooks_select_the_tests_they_run_around(
    tmp_path: Path, capsys: Any, hook: str, expected: set[str]
) -> None:
    # pytest's xunit-style hooks: `setup_module`, `teardown_function` at module level, `setup_class` and
    # `teardown_method` in a test class (unittest's `setUpModule` is of the module family too)
    repo = project(tmp_path)
    names = ("module_hook", "function_hook", "class_hook", "method_hook")
    write(repo, "pkg/hooks.py", "".join(f"def {n}():\n    return 1\n\n\n" for n in names))
    write(repo, "tests/test_xunit.py", XUNIT)
    commit(repo, "xunit hooks")
    edit(repo, "pkg/hooks.py", f"def {hook}():\n    return 1\n", f"def {hook}():\n    return 2\n")
    tests = selected(review(capsys, repo))
    assert set(tests) == expected
    assert {reason for _, reason in tests.values()} == {"setup"}


def test_usefixtures_marks_select_the_tests_they_mark(tmp_path: Path, capsys: Any) -> None:
    # `@pytest.mark.usefixtures("db")` on a class or a test names the fixture as a parameter would
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_marked.py",
        "import pytest\n\n\n@pytest.mark.usefixtures('db')\nclass TestMarked:\n    def test_a(self):\n"
        "        assert True\n\n\n@pytest.mark.usefixtures(\"other\", \"db\")\ndef test_b():\n    assert True\n\n\n"
        "def test_unmarked():\n    assert True\n",
    )
    write(
        repo,
        "tests/test_module_marked.py",
        "import pytest\n\npytestmark = [\n    pytest.mark.slow,\n    pytest.mark.usefixtures('db'),\n]\n\n\n"
        "def test_c():\n    assert True\n",
    )
    commit(repo, "marked")
    edit(repo, "pkg/store.py", 'return {"rows": []}', 'return {"rows": [1]}')  # make_db, which fixture db returns
    tests = selected(review(capsys, repo))
    assert tests["tests/test_marked.py::TestMarked::test_a"] == (2, "fixture")
    assert tests["tests/test_marked.py::test_b"] == (2, "fixture")
    assert tests["tests/test_module_marked.py::test_c"] == (2, "fixture")  # the module's pytestmark
    assert "tests/test_marked.py::test_unmarked" not in tests


def test_an_autouse_fixture_selects_every_test_below_its_conftest(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/store.py", "    return None\n", "    return 0\n")
    assert selected(review(capsys, repo)) == {"tests/auto/test_auto.py::test_x": (2, "fixture")}


def test_an_autouse_fixture_that_only_names_a_class_runs_none_of_its_special_methods(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/version.py", "class Version:\n    def __str__(self):\n        return 'v1'\n")
    write(
        repo,
        "tests/named/conftest.py",
        "import pytest\n\nfrom pkg.version import Version\n\n\n@pytest.fixture(autouse=True)\n"
        "def namespace(doctest_namespace):\n    doctest_namespace['Version'] = Version\n",
    )
    write(
        repo,
        "tests/named/test_named.py",
        "from pkg.version import Version\n\n\ndef test_str():\n    assert str(Version()) == 'v1'\n\n\n"
        "def test_plain():\n    assert True\n",
    )
    commit(repo, "a class named by an autouse fixture")
    edit(repo, "pkg/version.py", "return 'v1'", "return 'v2'")
    tests = selected(review(capsys, repo))
    assert "tests/named/test_named.py::test_str" in tests
    assert "tests/named/test_named.py::test_plain" not in tests  # the fixture registers the class, makes no instance


COLLECTING_CONFTEST = """\
import json

import pytest

from pkg.core import api


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".json" and file_path.name.startswith("cases"):
        return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    def collect(self):
        for i, (x, want) in enumerate(json.loads(self.path.read_text())):
            yield CaseItem.from_parent(self, name=f"case{i}", x=x, want=want)


class CaseItem(pytest.Item):
    def __init__(self, *, x, want, **kwargs):
        super().__init__(**kwargs)
        self.x, self.want = x, want

    def runtest(self):
        assert api(self.x) == self.want
"""


def test_tests_a_conftest_hook_collects_from_data_files_are_selected_as_files(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "tests/data/conftest.py", COLLECTING_CONFTEST)
    write(repo, "tests/data/cases_api.json", "[[1, 3], [2, 5]]\n")
    write(repo, "tests/data/notes.txt", "not collected\n")
    write(repo, "tests/data/other.json", "{}\n")  # not named cases*: `pytest tests/data/other.json` says "not found"
    write(repo, "tests/cases_above.json", "[]\n")  # above the conftest: not its to collect
    commit(repo, "data-driven tests")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 1 + 0")  # leaf, which api reaches through top and mid
    tests = selected(review(capsys, repo))
    assert tests["tests/data/cases_api.json"] == (5, "collected")  # leaf <- mid <- top <- api <- runtest
    assert not {"tests/cases_above.json", "tests/data/notes.txt", "tests/data/other.json"} & set(tests)
    assert "tests/test_chain.py::test_api" in tests

    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "tests/data/cases_api.json" in out.split()
    assert run_pytest(repo, out.split()) == "3 passed"  # two cases and test_api

    git(repo, "checkout", "pkg/core.py")
    edit(repo, "pkg/store.py", "return None", "return 0")  # reset: no collector reaches it
    assert not any(t.endswith(".json") for t in selected(review(capsys, repo)))
    git(repo, "checkout", "pkg/store.py")
    write(repo, "tests/data/cases_api.json", "[[1, 3]]\n")  # a data file that changes runs itself
    write(repo, "tests/data/notes.txt", "still not collected\n")
    write(repo, "tests/data/other.json", "[]\n")
    assert selected(review(capsys, repo)) == {"tests/data/cases_api.json": (0, "changed")}


def test_a_hook_a_base_constructor_calls_runs_for_instances_of_the_overriding_class_only(
    tmp_path: Path, capsys: Any
) -> None:
    # qrcode's `BaseImage.__init__` calls `self.new_image()`: a change of `PilImage.new_image` runs where a PilImage is
    # made, not where a sibling class inheriting the same constructor is, nor one whose constructor calls it by super()
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "base.py",
        "class Base:\n    def __init__(self):\n        self.value = self.setup()\n\n    def setup(self):\n        return 0\n\n\n"
        "class A(Base):\n    def setup(self):\n        return 1\n\n\nclass A2(A):\n    pass\n\n\n"
        "class B(Base):\n    def setup(self):\n        return 2\n\n\n"
        "class C(Base):\n    def __init__(self):\n        super().__init__()\n",
    )
    for name, cls in (("a", "A"), ("a2", "A2"), ("b", "B"), ("c", "C")):
        write(repo, f"tests/test_{name}.py", f"from base import {cls}\n\n\ndef test_{name}():\n    assert {cls}().value >= 0\n")
    write(repo, "tests/test_any.py", "import base\n\n\ndef test_any():\n    assert base.Base().value == 0\n")
    commit(repo, "hooks")
    edit(repo, "base.py", "return 1\n", "return 1 + 0\n")
    # (a construction of the base itself stays: `cls()` in a classmethod of the base resolves to it, and makes any
    # subclass)
    assert set(selected(review(capsys, repo))) == {
        "tests/test_a.py::test_a",
        "tests/test_a2.py::test_a2",
        "tests/test_any.py::test_any",
    }


def test_a_template_method_runs_an_override_for_instances_of_its_class_only(tmp_path: Path, capsys: Any) -> None:
    # bibtexparser's `BlockMiddleware.transform` calls `self.transform_block`, which calls `self.transform_entry`: a
    # change of one middleware's `transform_entry` runs where that middleware transforms, not where a sibling does
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "base.py",
        "class Middleware:\n    def transform(self, lib):\n        return [self.transform_block(b) for b in lib]\n\n"
        "    def transform_block(self, block):\n        return self.transform_entry(block)\n\n"
        "    def transform_entry(self, entry):\n        return entry\n\n\n"
        "class Upper(Middleware):\n    def transform_entry(self, entry):\n        return entry.upper()\n\n\n"
        "class Lower(Middleware):\n    def transform_entry(self, entry):\n        return entry.lower()\n\n\n"
        "def run(middleware, lib):\n    return middleware.transform(lib)\n\n\ndef make():\n    return Lower()\n",
    )
    write(
        repo,
        "tests/test_upper.py",
        "from base import Upper\n\n\ndef test_upper():\n    m = Upper()\n    assert m.transform(['a']) == ['A']\n\n\n"
        "def test_upper_inline():\n    assert Upper().transform(['a']) == ['A']\n",
    )
    write(
        repo,
        "tests/test_lower.py",
        "from base import Lower\n\n\ndef test_lower():\n    m = Lower()\n    assert m.transform(['A']) == ['a']\n\n\n"
        "def test_lower_inline():\n    assert Lower().transform(['A']) == ['a']\n",
    )
    write(
        repo,
        "tests/test_other.py",
        "from base import Lower, Middleware, Upper, make, run\n\n\n"
        "def test_both():\n    m = Lower()\n    assert m.transform(['A']) == ['a']\n    m = Upper()\n"
        "    assert m.transform(['a']) == ['A']\n\n\n"
        "def test_run():\n    assert run(Upper(), ['a']) == ['A']\n\n\n"
        "def test_made():\n    m: Middleware = make()\n    assert m.transform(['A']) == ['a']\n\n\n"
        "def test_either():\n    u = Upper()\n    m = Lower() if u else Upper()\n    assert m.transform(['a'])\n",
    )
    commit(repo, "middlewares")
    edit(repo, "base.py", "return entry.upper()", "return entry.upper() + ''")
    # each call on an object made of another class is left out; an object from elsewhere may be of any, and so may
    # one made where a class of the family is made too (an edge keeps the first line a scope makes Upper on)
    assert set(selected(review(capsys, repo))) == {
        "tests/test_upper.py::test_upper",
        "tests/test_upper.py::test_upper_inline",
        "tests/test_other.py::test_both",
        "tests/test_other.py::test_run",
        "tests/test_other.py::test_made",
        "tests/test_other.py::test_either",
    }


def test_a_test_file_class_deriving_from_a_testcase_of_a_helper_module_is_a_test_class(
    tmp_path: Path, capsys: Any
) -> None:
    # `from helper import SkippableTest` (tests/ on sys.path, as pytest puts it): BackendBase and JsonCase are
    # unittest classes though neither is named Test* nor names TestCase (jsonpickle's backend tests)
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/codec.py", "def encode(x):\n    return str(x)\n")
    write(repo, "tests/helper.py", "import unittest\n\n\nclass SkippableTest(unittest.TestCase):\n    pass\n")
    write(
        repo,
        "tests/backend_test.py",
        "from helper import SkippableTest\n\nfrom pkg.codec import encode\n\n\nclass BackendBase(SkippableTest):\n"
        "    def roundtrip(self):\n        return encode(1)\n\n    def test_none(self):\n        assert encode(None)\n\n\n"
        "class JsonCase(BackendBase):\n    def test_json(self):\n        assert self.roundtrip() == '1'\n",
    )
    commit(repo, "backends")
    edit(repo, "pkg/codec.py", "return str(x)", "return str(x) + ''")
    db = str(tmp_path / "index.db")
    assert set(selected(review(capsys, repo, "--db", db))) == {
        "tests/backend_test.py::BackendBase::test_none",
        "tests/backend_test.py::JsonCase::test_none",
        "tests/backend_test.py::JsonCase::test_json",
    }
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "3 passed"


def test_the_set_up_of_a_helper_module_base_class_runs_before_the_tests_of_its_subclasses(
    tmp_path: Path, capsys: Any
) -> None:
    # pyasn1: `class BaseTestCase(unittest.TestCase)` in tests/base.py calls `debug.setLogger(...)` in its setUp, and
    # the test modules' `class BitStringTestCase(BaseTestCase)` inherit it: a change of setLogger reaches their tests
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/debug.py", "LOG = None\n\n\ndef set_logger(log):\n    global LOG\n    LOG = log\n")
    write(repo, "pkg/univ.py", "def bits(x):\n    return bin(x)\n")
    write(repo, "tests/__init__.py", "")
    write(
        repo,
        "tests/base.py",
        "import unittest\n\nfrom pkg import debug\n\n\nclass BaseTestCase(unittest.TestCase):\n"
        "    def setUp(self):\n        debug.set_logger(print)\n",
    )
    write(
        repo,
        "tests/test_univ.py",
        "from tests.base import BaseTestCase\n\nfrom pkg import univ\n\n\nclass BitStringTestCase(BaseTestCase):\n"
        "    def test_bits(self):\n        assert univ.bits(2) == '0b10'\n",
    )
    commit(repo, "base test case")
    edit(repo, "pkg/debug.py", "LOG = log", "LOG = log or None")
    db = str(tmp_path / "index.db")
    assert set(selected(review(capsys, repo, "--db", db))) == {"tests/test_univ.py::BitStringTestCase::test_bits"}
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and run_pytest(repo, out.split()) == "1 passed"


def test_the_set_up_of_a_test_class_deriving_from_a_testcase_of_a_file_of_no_test_name_reaches_its_tests(
    tmp_path: Path, capsys: Any
) -> None:
    # parsedatetime's tests/TestLocaleBase.py (its tests run with python_files=Test*.py): `class test(unittest.TestCase)`,
    # then `class TestDayOffsets(test)` whose setUp makes what a change touches; its own test and the one it inherits run
    repo = make_repo(tmp_path / "repo")
    write(repo, "pytest.ini", "[pytest]\npython_files = Test*.py\n")
    write(repo, "pkg/__init__.py", "def calendar(locale):\n    return locale\n")
    write(repo, "tests/__init__.py", "")
    write(
        repo,
        "tests/TestLocaleBase.py",
        "import unittest\n\nimport pkg\n\n\nclass test(unittest.TestCase):\n    def testTimes(self):\n        assert True\n\n\n"
        "class TestDayOffsets(test):\n    def setUp(self):\n        self.cal = pkg.calendar('fr')\n\n"
        "    def test_day(self):\n        assert self.cal == 'fr'\n",
    )
    commit(repo, "locale tests")
    edit(repo, "pkg/__init__.py", "return locale", "return str(locale)")
    db = str(tmp_path / "index.db")
    tests = set(selected(review(capsys, repo, "--db", db)))
    assert {"tests/TestLocaleBase.py::TestDayOffsets::test_day", "tests/TestLocaleBase.py::TestDayOffsets::testTimes"} <= tests
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", db)
    assert code == 0 and "2 passed" in run_pytest(repo, [t for t in out.split() if "TestDayOffsets" in t])


def test_a_method_dispatched_by_name_among_too_many_classes_is_reached_from_the_users_of_its_class(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    # four families of five, each with an abstract `apply` its base's own `self.apply(...)` dispatches to
    ops = "".join(
        f"\n\nclass Base{f}:\n    def apply(self, target):\n        raise NotImplementedError\n\n"
        f"    def twice(self, target):\n        return self.apply(self.apply(target))\n"
        + "".join(f"\n\nclass Op{f * 5 + i}(Base{f}):\n    def apply(self, target):\n        return target + {f * 5 + i}\n" for i in range(5))
        for f in range(4)
    )
    write(repo, "pkg/ops.py", ops.lstrip())
    write(repo, "pkg/engine.py", "def run(target, spec):\n    return spec.apply(target)  # any Op: too many to guess\n")
    write(
        repo,
        "tests/test_ops.py",
        "from pkg.engine import run\nfrom pkg.ops import Op3, Op5\n\n\n"
        "def test_op3():\n    assert run(1, Op3()) == 4\n\n\ndef test_op5():\n    assert run(1, Op5()) == 6\n",
    )
    commit(repo, "a protocol of its own")
    edit(repo, "pkg/ops.py", "return target + 3", "return target + 3 + 0")
    tests = selected(review(capsys, repo))
    assert "tests/test_ops.py::test_op3" in tests
    assert "tests/test_ops.py::test_op5" not in tests  # it makes no Op3


PROTOCOL_OPS = "".join(
    f"\n\nclass Op{i}:\n    def apply(self, target):\n        return target + {i}\n" for i in range(20)
).lstrip()


def test_the_calls_by_name_of_a_method_among_too_many_classes_are_listed_among_its_callers(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/ops.py", PROTOCOL_OPS)
    write(repo, "pkg/engine.py", "def run(target, spec):\n    return spec.apply(target)  # any of twenty Ops\n")
    commit(repo, "a protocol of its own")
    edit(repo, "pkg/ops.py", "return target + 3", "return target + 3 + 0")
    data = review(capsys, repo)
    run = impacted(data)["run"]
    assert (run["file"], run["depth"], run["edge"]) == ("pkg/engine.py", 1, "call")
    assert run["confidence"] == pytest.approx(0.5 / 20)  # a name match among twenty definitions
    code, out, _ = run_cli(capsys, "callers", "pkg/ops.py::Op3.apply", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0 and "pkg/engine.py:1 run  (depth 1, call" in out


def test_a_parameter_called_where_nothing_says_what_it_holds_may_call_any_callable_object(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    validators = "".join(
        f"class Check{i}:\n    def __call__(self, value):\n        return value > {i}\n\n\n" for i in range(3)
    )
    write(repo, "pkg/checks.py", validators)
    write(
        repo,
        "pkg/schema.py",
        "def compile_scalar(schema):\n    def validate(data):\n        return schema(data)\n\n    return validate\n\n\n"
        "def apply(fn, data):\n    return fn(data)\n\n\n"
        "def run_twice(data):\n    f = len\n    return f(data)\n",
    )
    write(repo, "tests/test_checks.py", "def test_call(check):\n    return check(1)\n")
    commit(repo, "validators given to a schema")
    edit(repo, "pkg/checks.py", "return value > 1", "return value > 1 + 0")
    found = impacted(review(capsys, repo))
    for name in ("compile_scalar.validate", "apply"):  # a parameter of its own or of the function it is nested in
        assert (found[name]["depth"], found[name]["edge"]) == (1, "call")
        assert found[name]["confidence"] == round(0.5 / 3, 3)  # any of the three __call__ methods
    assert "run_twice" not in found  # a local variable: the resolver knows what it holds
    assert "test_call" not in found  # tests are not callers


def test_a_method_name_called_by_name_everywhere_lists_none_of_those_calls_as_callers(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/ops.py", PROTOCOL_OPS)
    write(repo, "pkg/engine.py", "".join(f"def run{i}(target, spec):\n    return spec.apply(target)\n\n\n" for i in range(31)))
    commit(repo, "thirty-one places call apply on objects of unknown type")
    edit(repo, "pkg/ops.py", "return target + 3", "return target + 3 + 0")
    assert not any(q.startswith("run") for q in impacted(review(capsys, repo)))


def test_a_class_given_to_a_function_that_makes_it_is_made_for_those_who_give_it(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/messages.py",
        "class Message:\n    def __init__(self, name):\n        self.name = name\n\n\n"
        "class Unused(Message):\n    def __init__(self, name):\n        super().__init__(name)\n        self.kind = 'unused'\n\n\n"
        "class Undefined(Message):\n    pass\n",
    )
    write(
        repo,
        "pkg/checker.py",
        "from pkg import messages\n\n\nclass Checker:\n    def __init__(self):\n        self.found = []\n\n"
        "    def report(self, message_class, name):\n        self.found.append(message_class(name))\n\n"
        "    def unused(self, name):\n        self.report(messages.Unused, name)\n\n"
        "    def undefined(self, name):\n        self.report(messages.Undefined, name)\n",
    )
    write(
        repo,
        "tests/test_checker.py",
        "from pkg.checker import Checker\n\n\ndef test_unused():\n    Checker().unused('x')\n\n\n"
        "def test_undefined():\n    Checker().undefined('y')\n",
    )
    commit(repo, "messages made by the function they are given to")
    edit(repo, "pkg/messages.py", "self.kind = 'unused'", "self.kind = 'unused!'")
    data = review(capsys, repo)
    assert impacted(data)["Checker.report"]["depth"] == 1  # it makes the instance
    tests = selected(data)
    assert "tests/test_checker.py::test_unused" in tests
    assert "tests/test_checker.py::test_undefined" not in tests  # report makes the class it is given


def test_a_function_called_in_a_parameter_default_runs_when_its_module_is_imported(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/policy.py", "def default_policy():\n    return {'tries': 3}\n")
    write(
        repo,
        "pkg/retrying.py",
        "from pkg.policy import default_policy\n\n\nclass Retrying:\n"
        "    def __init__(self, policy=default_policy()):\n        self.policy = policy\n",
    )
    write(repo, "tests/test_retrying.py", "from pkg import retrying\n\n\ndef test_module():\n    assert retrying\n")
    commit(repo, "a default value made on import")
    edit(repo, "pkg/policy.py", "{'tries': 3}", "{'tries': 4}")
    tests = selected(review(capsys, repo))
    assert "tests/test_retrying.py::test_module" in tests  # importing pkg.retrying runs default_policy()


def test_a_method_looked_up_by_a_name_made_elsewhere_is_reached_from_who_calls_what_is_looked_up(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/checker.py",
        "class Checker:\n    def __init__(self, nodes):\n        self.found = []\n        for node in nodes:\n"
        "            self.handle(node)\n\n"
        "    def handler_of(self, node_class):\n        node_type = node_class.__name__.upper()\n"
        "        return getattr(self, node_type)\n\n"
        "    def handle(self, node):\n        handler = self.handler_of(node.__class__)\n        handler(node)\n\n"
        "    def ASSERT(self, node):\n        self.found.append('assert')\n\n"
        "    def DICT(self, node):\n        self.found.append('dict')\n\n"
        "    def __repr__(self):\n        return ', '.join(repr(getattr(self, n)) for n in ('found',))\n",
    )
    write(
        repo,
        "tests/test_checker.py",
        "from pkg.checker import Checker\n\n\nclass Assert:\n    pass\n\n\n"
        "def test_assert():\n    assert Checker([Assert()]).found == ['assert']\n",
    )
    commit(repo, "handlers looked up by node type")
    edit(repo, "pkg/checker.py", "self.found.append('assert')", "self.found.append('assert!')")
    data = review(capsys, repo)
    handle = impacted(data)["Checker.handle"]
    assert handle["depth"] == 1 and handle["confidence"] < 0.5  # one of the class's methods
    assert "Checker.__repr__" not in impacted(data)  # it reads what it looks up: data, not methods
    assert "tests/test_checker.py::test_assert" in selected(data)


def test_calls_of_private_methods_of_one_class_do_not_close_the_test_window(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    chain = "".join(f"    def {'p' if i == 0 else '_p'}{i}(self):\n        return self._p{i + 1}()\n\n" for i in range(10))
    write(
        repo,
        "pkg/parser.py",
        "def make_node():\n    return {'node': 1}\n\n\nclass Parser:\n" + chain + "    def _p10(self):\n        return make_node()\n",
    )
    write(
        repo,
        "tests/test_parser.py",
        "from pkg.parser import Parser, make_node\n\n\ndef test_node():\n    assert make_node()\n\n\n"
        "def test_parse():\n    assert Parser().p0()\n",
    )
    commit(repo, "a recursive descent, eleven calls deep")
    edit(repo, "pkg/parser.py", "{'node': 1}", "{'node': 2}")
    tests = selected(review(capsys, repo))
    assert tests["tests/test_parser.py::test_node"] == (1, "graph")
    assert tests["tests/test_parser.py::test_parse"] == (12, "graph")  # one object's work: one step of the window


def test_calls_of_a_memoised_loader_without_parameters_do_not_close_the_test_window(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    # detect -> s1 -> ... -> s4 -> tables -> (cached) _load -> parse_tables: seven calls from the public API, and a
    # unit test of parse_tables at depth 1
    chain = "".join(f"def s{i}(data):\n    return s{i + 1}(data)\n\n\n" for i in range(1, 4))
    write(
        repo,
        "pkg/detect.py",
        "import functools\n\n\ndef parse_tables(raw):\n    return {'t': raw}\n\n\n"
        "@functools.cache\ndef _load():\n    return parse_tables(b'models')\n\n\n"
        "def tables():\n    return _load()\n\n\n" + chain + "def s4(data):\n    return tables()\n\n\n"
        "def detect(data):\n    return s1(data)\n",
    )
    write(
        repo,
        "tests/test_detection.py",
        "from pkg.detect import detect, parse_tables\n\n\ndef test_parse_tables():\n    assert parse_tables(b'x')\n\n\n"
        "def test_detect():\n    assert detect(b'abc')\n",
    )
    commit(repo, "a model file parsed once, deep below the public API")
    edit(repo, "pkg/detect.py", "{'t': raw}", "{'tables': raw}")
    tests = selected(review(capsys, repo))
    assert tests["tests/test_detection.py::test_parse_tables"] == (1, "graph")
    # eight edges deep, past the window (1 + 6), but the call of the loader counts nothing for it
    assert tests["tests/test_detection.py::test_detect"] == (8, "graph")
    edit(repo, "pkg/detect.py", "@functools.cache\n", "")  # a loader run on every call: calls of it count as any do
    commit(repo, "no cache")
    edit(repo, "pkg/detect.py", "{'tables': raw}", "{'t': raw}")
    assert "tests/test_detection.py::test_detect" not in selected(review(capsys, repo))


def test_a_fixture_named_by_a_lazy_fixture_string_is_taken_by_the_parametrized_test(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_lazy.py",
        "import pytest\nfrom pytest_lazy_fixtures import lf\n\n\n"
        "@pytest.mark.parametrize('value', [lf('db'), lf('db.rows')])\ndef test_lazy(value):\n    assert value\n\n\n"
        "@pytest.mark.parametrize('value', [1, 2])\ndef test_plain(value):\n    assert value\n",
    )
    commit(repo, "lazy fixtures")
    edit(repo, "pkg/store.py", '{"rows": []}', '{"rows": [1]}')  # make_db, which the fixture db returns
    tests = selected(review(capsys, repo))
    assert tests["tests/test_lazy.py::test_lazy"] == (2, "fixture")
    assert "tests/test_lazy.py::test_plain" not in tests


def test_a_module_getattr_runs_for_every_importer_of_its_module(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/compat.py", "import warnings\n\n\ndef deprecated_name(name):\n    raise AttributeError(name)\n")
    write(repo, "pkg/__init__.py", "from .compat import deprecated_name\n\n\ndef __getattr__(name):\n    return deprecated_name(name)\n")
    commit(repo, "a module __getattr__ (PEP 562)")
    edit(repo, "pkg/compat.py", "raise AttributeError(name)", "raise AttributeError(f'{name}')")
    tests = selected(review(capsys, repo))
    assert "tests/test_other.py::test_unrelated" in tests  # `from pkg import core`: pytest may probe pkg.__test__


def test_a_bound_method_a_function_returns_runs_for_whoever_calls_what_it_returns(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/validate.py",
        "class Any:\n    def __init__(self, *options):\n        self.options = options\n\n"
        "    def compile(self):\n        return self._run\n\n"
        "    def _run(self, value):\n        return value in self.options\n",
    )
    # another module, which cannot see what compile returns
    write(repo, "pkg/checker.py", "def check(rule, value):\n    compiled = rule.compile()\n    return compiled(value)\n")
    write(
        repo,
        "tests/test_checks.py",  # no test_validate.py: that name alone would select it (convention)
        "from pkg.checker import check\nfrom pkg.validate import Any\n\n\ndef test_any():\n    assert check(Any(1, 2), 1)\n",
    )
    commit(repo, "validators compiled to bound methods")
    edit(repo, "pkg/validate.py", "return value in self.options", "return value in tuple(self.options)")
    assert selected(review(capsys, repo))["tests/test_checks.py::test_any"] == (3, "graph")


def test_a_call_on_a_library_object_is_no_guessed_caller_of_a_method_of_the_same_name(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/version.py",
        "import re\n\n\nclass Version:\n    _REGEX = re.compile('[0-9]+')\n\n    def match(self, spec):\n"
        "        return spec == 'x'\n\n    @classmethod\n    def parse(cls, text):\n"
        "        found = cls._REGEX.match(text)\n        return cls() if found else None\n\n\n"
        "def check(version, other):\n    return Version.parse('1') and other.match('x')\n",
    )
    commit(repo, "a regex and a method of the same name")
    edit(repo, "pkg/version.py", "return spec == 'x'", "return spec == 'y'")
    callers = impacted(review(capsys, repo))
    assert "Version.parse" not in callers  # re's Pattern.match, not Version.match
    assert "check" in callers  # `other` may be a Version: check uses the class


def test_callers_of_an_overload_stub_reach_the_implementation(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/over.py",
        "from typing import overload\n\n\n@overload\ndef conv(x: int) -> int: ...\n\n\n@overload\n"
        "def conv(x: str) -> str: ...\n\n\ndef conv(x):\n    return x\n\n\ndef user():\n    return conv(1)\n",
    )
    commit(repo, "overloads")
    edit(repo, "pkg/over.py", "    return x\n", "    return x * 1\n")
    data = review(capsys, repo)
    assert changed(data) == {("conv#3", "modified")}
    assert impacted(data)["user"]["via"] == ["conv#3"]


def test_a_method_called_on_an_object_from_a_fixture_is_tested_by_that_test(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    others = "".join(f"\n\nclass Other{i}:\n    def fetch(self):\n        return {i}\n" for i in range(3))
    write(
        repo,
        "pkg/client.py",
        "def helper():\n    return 1\n\n\nclass Client:\n    def fetch(self):\n        return helper()\n" + others,
    )
    write(
        repo,
        "tests/test_client.py",
        "import pytest\n\nfrom pkg.client import Client\n\n\n@pytest.fixture\ndef client():\n    return Client()\n\n\n"
        "def test_fetch(client):\n    assert client.fetch() == 1\n",
    )
    commit(repo, "client")
    edit(repo, "pkg/client.py", "    return 1\n", "    return 2\n")
    # client.fetch() matches four methods by name (too weak to follow); the fixture builds a Client
    assert selected(review(capsys, repo)) == {"tests/test_client.py::test_fetch": (2, "graph")}


def test_a_weak_name_match_deep_in_the_walk_is_followed_when_a_fixture_builds_the_class(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    others = "".join(f"\n\nclass Other{i}:\n    def run(self):\n        return {i}\n" for i in range(6))
    write(
        repo,
        "pkg/runner.py",
        "def parse(x):\n    return x\n\n\ndef main(x):\n    return parse(x)\n\n\n"
        "class Runner:\n    def run(self, x):\n        return main(x)\n" + others,
    )
    write(
        repo,
        "tests/test_runner.py",
        "import pytest\n\nfrom pkg.runner import Runner\n\n\n@pytest.fixture\ndef runner():\n    return Runner()\n\n\n"
        "def test_run(runner):\n    assert runner.run(1) == 1\n\n\ndef test_other(thing):\n    assert thing.run(1)\n",
    )
    commit(repo, "runner")
    edit(repo, "pkg/runner.py", "    return x\n", "    return x + 0\n")
    # runner.run() matches seven methods by name, two calls away from the change
    assert selected(review(capsys, repo)) == {"tests/test_runner.py::test_run": (3, "graph")}


def test_a_module_named_in_a_string_runs_its_body_where_the_string_is_used(tmp_path: Path, capsys: Any) -> None:
    # tablib's `registry.register('ods', 'tablib.formats._ods.ODSFormat')`: the registry imports the module when a
    # format is asked for, and the module's body calls set_date_style
    repo = project(tmp_path)
    write(repo, "pkg/ods.py", "def set_date_style(style):\n    return style\n\n\nDATE = set_date_style('iso')\n\n\n"
          "class ODSFormat:\n    title = 'ods'\n")
    write(
        repo,
        "pkg/registry.py",
        "from importlib import import_module\n\nFORMATS = {}\n\n\ndef load(key):\n"
        "    module, _, name = FORMATS[key].rpartition('.')\n    return getattr(import_module(module), name)\n\n\n"
        "def register_builtins():\n    FORMATS['ods'] = 'pkg.ods.ODSFormat'\n",
    )
    write(
        repo,
        "tests/test_formats.py",
        "from pkg.registry import load, register_builtins\n\n\ndef test_ods():\n    register_builtins()\n"
        "    assert load('ods').title\n\n\ndef test_nothing_registered():\n    assert load\n",
    )
    commit(repo, "lazy formats")
    edit(repo, "pkg/ods.py", "    return style\n", "    return style or 'iso'\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_formats.py::test_ods" in tests
    assert "tests/test_formats.py::test_nothing_registered" not in tests


def test_a_hook_of_an_outside_base_is_reached_from_a_configuration_naming_its_class(tmp_path: Path, capsys: Any) -> None:
    # colorlog's `"()": "colorlog.ColoredFormatter"` given to logging.config.dictConfig: logging makes the formatter and
    # calls its formatMessage, which overrides logging.Formatter's and calls it through super()
    repo = project(tmp_path)
    write(
        repo,
        "pkg/fmt.py",
        "import logging\n\n\nclass Colored(logging.Formatter):\n    def formatMessage(self, record):\n"
        "        return super().formatMessage(record) + '!'\n",
    )
    write(
        repo,
        "tests/test_logconf.py",
        "import logging.config\n\n\ndef test_config():\n"
        "    logging.config.dictConfig({'version': 1, 'formatters': {'c': {'()': 'pkg.fmt.Colored'}}})\n",
    )
    commit(repo, "formatter")
    edit(repo, "pkg/fmt.py", "+ '!'", "+ '?'")
    assert selected(review(capsys, repo))["tests/test_logconf.py::test_config"] == (1, "graph")


def test_a_constructor_is_reached_through_references_to_its_class(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/sign.py",
        "class Signer:\n    def __init__(self, key):\n        self.key = key\n\n\n"
        "class Serializer:\n    signer = Signer\n\n    def make_signer(self):\n        return self.signer('k')\n",
    )
    write(
        repo,
        "tests/test_serial.py",
        "from pkg.sign import Serializer\n\n\ndef test_make():\n    assert Serializer().make_signer()\n",
    )
    commit(repo, "signer")
    edit(repo, "pkg/sign.py", "        self.key = key\n", "        self.key = key or 'x'\n")
    assert "tests/test_serial.py::test_make" in selected(review(capsys, repo))


def test_a_function_called_at_import_time_selects_the_tests_that_import_its_module(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/registry.py", "def make(name):\n    return {'name': name}\n\n\nDEFAULT = make('d')\n")
    write(repo, "pkg/facade.py", "import pkg.registry\n\n\ndef show():\n    return 1\n")
    write(repo, "tests/test_facade.py", "from pkg.facade import show\n\n\ndef test_show():\n    assert show()\n")
    commit(repo, "import-time call")
    edit(repo, "pkg/registry.py", "    return {'name': name}\n", "    return {'name': name.upper()}\n")
    tests = selected(review(capsys, repo))
    # importing pkg.facade imports pkg.registry, whose body calls make()
    assert "tests/test_facade.py::test_show" in tests
    assert "tests/test_chain.py::test_api" not in tests


def test_a_decorator_runs_when_the_module_it_decorates_in_is_imported(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/marks.py",
        "def plain(fn):\n    fn.marked = True\n    return fn\n\n\n"
        "def signature(*specs):\n    def record(fn):\n        fn.specs = specs\n        return fn\n\n    return record\n",
    )
    write(
        repo,
        "pkg/funcs.py",
        "from pkg.marks import plain, signature\n\n\n@plain\ndef top(x):\n    return x\n\n\n"
        "class Functions:\n    @signature('number')\n    def absolute(self, x):\n        return abs(x)\n\n\n"
        "def other():\n    return 2\n",
    )
    write(repo, "tests/test_funcs.py", "from pkg.funcs import other\n\n\ndef test_other():\n    assert other() == 2\n")
    commit(repo, "decorators")
    # the module body runs plain(top) and the class body signature('number'): importing pkg.funcs runs both
    edit(repo, "pkg/marks.py", "    fn.marked = True\n", "    fn.marked = 1\n")
    assert "tests/test_funcs.py::test_other" in selected(review(capsys, repo))
    commit(repo, "plain")
    edit(repo, "pkg/marks.py", "    def record(fn):\n", "    specs = tuple(specs)\n\n    def record(fn):\n")
    data = review(capsys, repo)
    assert changed(data) == {("signature", "modified")}
    assert "tests/test_funcs.py::test_other" in selected(data)
    assert "tests/test_chain.py::test_api" not in selected(data)


def test_a_call_in_a_package_init_runs_for_every_import_from_the_package(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/sub/__init__.py", "from pkg.sub.registry import setup\n\nsetup()\n")
    write(repo, "pkg/sub/registry.py", "def prepare():\n    return 1\n\n\ndef setup():\n    return prepare()\n")
    write(repo, "pkg/sub/tools.py", "def tool():\n    return 2\n")
    write(
        repo,
        "tests/test_tools.py",
        "from pkg.sub.tools import tool\n\n\ndef test_tool():\n    assert tool()\n\n\n"
        "class TestBase:\n    def test_base(self):\n        assert tool()\n\n\nclass TestMore(TestBase):\n    pass\n",
    )
    commit(repo, "package init calls setup")
    edit(repo, "pkg/sub/registry.py", "    return 1\n", "    return 3\n")
    tests = selected(review(capsys, repo))
    # importing pkg.sub.tools runs pkg/sub/__init__.py first, which calls setup() and so prepare()
    assert "tests/test_tools.py::test_tool" in tests
    assert "tests/test_tools.py::TestMore::test_base" in tests  # inherited: it runs again in the subclass
    assert "tests/test_chain.py::test_api" not in tests  # pkg/__init__.py runs nothing


def test_a_name_shared_with_a_builtin_method_is_not_followed_without_its_class(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/bar.py",
        "def draw():\n    return 1\n\n\nclass Bar:\n    def update(self):\n        return draw()\n\n\n"
        "def merge(a, b):\n    a.update(b)\n    return a\n\n\ndef tick(bar):\n    bar.update()\n    return Bar\n",
    )
    write(
        repo,
        "tests/test_merge.py",
        "from pkg.bar import merge, tick\n\n\ndef test_merge():\n    assert merge({}, {})  == {}\n\n\n"
        "def test_tick():\n    assert tick(None)\n",
    )
    commit(repo, "bar")
    edit(repo, "pkg/bar.py", "    return 1\n", "    return 2\n")
    # a.update(b) is a dict's; bar.update() sits in a function that names Bar
    assert set(selected(review(capsys, repo))) == {"tests/test_merge.py::test_tick"}


def test_a_function_named_like_a_builtin_method_is_no_guess_for_a_method_call(tmp_path: Path, capsys: Any) -> None:
    # mando: a test module's command `def append(...)` matched by name for `real_args.append(x)` in the parser; the
    # walk took the parser to reach every test of the project
    repo = project(tmp_path)
    write(repo, "pkg/cli.py", "def parse(args):\n    real = []\n    for a in args:\n        real.append(a)\n    return real\n")
    write(repo, "pkg/commands.py", "def append(x):\n    return helper(x)\n\n\ndef helper(x):\n    return [x]\n")
    write(
        repo,
        "tests/test_cli.py",
        "from pkg.cli import parse\nfrom pkg.commands import append\n\n\ndef test_parse():\n    assert parse([1])\n\n\n"
        "def test_append():\n    assert append(1)\n",
    )
    commit(repo, "cli")
    edit(repo, "pkg/commands.py", "    return [x]\n", "    return [x, x]\n")
    assert set(selected(review(capsys, repo))) == {"tests/test_cli.py::test_append"}


def test_a_built_in_method_name_of_one_class_family_is_followed(tmp_path: Path, capsys: Any) -> None:
    # `t.read(lines)` over token classes handed in: `read` is also a file's method, yet every `read` of the project
    # is one of the Token family's, so the scanner calls the changed one (mistletoe's tokenize_block)
    repo = project(tmp_path)
    write(
        repo,
        "pkg/tokens.py",
        "class Token:\n    pass\n\n\n"
        + "".join(f"class T{i}(Token):\n    @staticmethod\n    def read(lines):\n        return lines[{i}:]\n\n\n" for i in range(3))
        + "def scan(lines, kinds):\n    return [k.read(lines) for k in kinds]\n",
    )
    write(
        repo,
        "tests/test_scan.py",
        "from pkg import tokens\n\n\ndef test_scan():\n    assert tokens.scan([1], [tokens.T0, tokens.T1])\n",
    )
    commit(repo, "tokens")
    edit(repo, "pkg/tokens.py", "lines[1:]", "lines[2:]")
    assert "tests/test_scan.py::test_scan" in selected(review(capsys, repo))


def test_a_call_on_a_receiver_named_after_its_class_is_followed(tmp_path: Path, capsys: Any) -> None:
    # pystache: `lambda engine, stack: engine.render(template, stack)` handed to a method that calls it with a
    # RenderEngine; four classes define `render`, but only one is named after `engine`. `get` is also a dict's method:
    # `cache.get(k)` is followed only where the scope names the class, as for any name match
    repo = project(tmp_path)
    others = "".join(f"class Other{i}:\n    def render(self, t):\n        return t\n\n    def get(self, k):\n        return k\n\n\n" for i in range(3))
    write(
        repo,
        "pkg/painting.py",
        "class RenderEngine:\n    def render(self, t):\n        return t.upper()\n\n\n"
        "class Cache:\n    def get(self, k):\n        return k * 2\n\n\n" + others,
    )
    write(
        repo,
        "pkg/renderer.py",
        "def render_string(t, final):\n    return final(lambda engine: engine.render(t))\n\n\n"
        "def lookup(k, cache):\n    return cache.get(k)\n",
    )
    write(
        repo,
        "tests/test_renderer.py",
        "from pkg import painting, renderer\n\n\n"
        "def test_render():\n    assert renderer.render_string('a', lambda f: f(painting.RenderEngine())) == 'A'\n\n\n"
        "def test_lookup():\n    assert renderer.lookup(2, {2: 3}) == 3\n",
    )
    commit(repo, "renderer")
    edit(repo, "pkg/painting.py", "t.upper()", "t.lower()")
    assert "tests/test_renderer.py::test_render" in selected(review(capsys, repo))
    commit(repo, "render")
    edit(repo, "pkg/painting.py", "k * 2", "k * 3")
    assert "tests/test_renderer.py::test_lookup" not in selected(review(capsys, repo))


def test_tests_far_beyond_the_nearest_one_are_cut(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    chain = "def f0():\n    return 1\n" + "".join(f"\n\ndef f{i}():\n    return f{i - 1}()\n" for i in range(1, 10))
    write(repo, "pkg/deep.py", chain)  # (not pkg/chain.py: tests/test_chain.py would go with it by convention)
    write(
        repo,
        "tests/test_far.py",
        "from pkg.deep import f0, f6, f7\n\n\ndef test_near():\n    assert f0()\n\n\n"
        "def test_edge():\n    assert f6()\n\n\ndef test_far():\n    assert f7()\n",
    )
    commit(repo, "chain")
    edit(repo, "pkg/deep.py", "    return 1\n", "    return 2\n")
    # the nearest test is 1 edge away: 6 more are allowed
    assert set(selected(review(capsys, repo))) == {"tests/test_far.py::test_near", "tests/test_far.py::test_edge"}


# --- the batched graph answers as the node-by-node one would --------------------------------------


HIERARCHY = """\
class Base:
    def run(self):
        return 1

    def stop(self):
        return 0


class A(Base):
    def run(self):
        return 2


class B(Base):
    pass


class C(A, B):
    def stop(self):
        return 3


class D(C):
    pass


class E(B):
    def run(self):
        return self.stop()


def make():
    return E()
"""


HIERARCHY_TESTS = """\
import unittest

import pytest

from pkg.shapes import A, Base, D, make


@pytest.fixture
def thing():
    return make()


@pytest.fixture
def other(thing):
    return thing


def test_run(other):
    assert other.run()


def test_stop():
    assert D().stop() == 3


class TestBase(unittest.TestCase):
    def setUp(self):
        self.obj = A()

    def test_run(self):
        assert self.obj.run()


class TestMore(TestBase):
    def test_base(self):
        assert Base().stop() == 0
"""


def _indexed_hierarchy(tmp_path: Path, capsys: Any) -> tuple[Path, Path]:
    repo = project(tmp_path)
    write(repo, "pkg/shapes.py", HIERARCHY)
    write(repo, "tests/test_shapes.py", HIERARCHY_TESTS)
    commit(repo, "shapes")
    db = repo.parent / "index.db"
    code, _, err = run_cli(capsys, "index", "--repo", str(repo), "--db", str(db))
    assert code == 0, err
    return repo, db


def test_the_first_subclasses_are_those_of_the_whole_tree_in_the_same_order(tmp_path: Path, capsys: Any) -> None:
    from crg_review.graph import Graph
    from crg_review.store import Store

    _, db = _indexed_hierarchy(tmp_path, capsys)
    store = Store.open(db)
    try:
        classes = [r[0] for r in store.conn.execute("SELECT id FROM symbols WHERE kind='class' ORDER BY id")]
        assert len(classes) >= 6
        for cls in classes:
            whole = Graph(store.conn).transitive(cls, "subclasses")
            for limit in range(len(whole) + 2):
                assert Graph(store.conn).subclasses_first(cls, limit) == whole[:limit], (cls, limit)
    finally:
        store.close()


class _NodeByNode:
    """A Graph that loads nothing ahead: every question is answered when asked, one node at a time."""

    def prefetch(self, nodes: Any, *, subclasses_of_tests: bool = False) -> None:
        pass

    def prefetch_receiver_checks(self, checks: Any) -> None:
        pass


def test_the_walks_give_the_same_answers_without_loading_a_level_ahead(tmp_path: Path, capsys: Any) -> None:
    from crg_review.graph import Graph
    from crg_review.store import Store
    from crg_review.walk import walk_dependants, walk_tests

    _, db = _indexed_hierarchy(tmp_path, capsys)
    lazy_graph = type("LazyGraph", (_NodeByNode, Graph), {})
    store = Store.open(db)
    try:
        ids = [r[0] for r in store.conn.execute("SELECT id FROM symbols ORDER BY id")]
        some_tests = 0
        for sid in ids:
            batched, lazy = Graph(store.conn), lazy_graph(store.conn)
            hits = walk_tests(batched, [sid])
            assert hits == walk_tests(lazy, [sid]), sid
            assert walk_dependants(batched, [sid], 3) == walk_dependants(lazy, [sid], 3), sid
            some_tests += bool(hits)
        assert some_tests > 10
    finally:
        store.close()


# --- related tests (walk_tests), continued --------------------------------------------------------


def test_test_methods_of_a_mixin_run_as_tests_of_the_test_subclasses(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/cache.py", "class LRU:\n    def get(self, key):\n        return key\n\n    def put(self, key):\n        return key\n")
    write(
        repo,
        "tests/mixins.py",
        "class CacheTests:\n    Cache = None\n\n    def test_get(self):\n        assert self.Cache().get(1) == 1\n\n"
        "    def test_put(self):\n        from pkg.cache import LRU\n        assert LRU().put(1) == 1\n",
    )
    write(
        repo,
        "tests/test_lru.py",
        "import unittest\n\nfrom pkg.cache import LRU\n\nfrom .mixins import CacheTests\n\n\n"
        "class TestLRU(unittest.TestCase, CacheTests):\n    Cache = LRU\n\n    def test_own(self):\n        pass\n\n\n"
        "class TestOther(unittest.TestCase, CacheTests):\n    def test_put(self):\n        pass\n",
    )
    commit(repo, "mixin")
    # the test class is reached (its body names LRU): its inherited test methods are listed under it
    write(repo, "pkg/cache.py", "class LRU:\n    def __init__(self):\n        pass\n\n    def get(self, key):\n        return key\n\n    def put(self, key):\n        return key\n")
    commit(repo, "init")
    edit(repo, "pkg/cache.py", "        pass\n", "        self.n = 0\n")
    tests = selected(review(capsys, repo))
    assert {"tests/test_lru.py::TestLRU::test_get", "tests/test_lru.py::TestLRU::test_put"} <= set(tests)
    assert not any(t.startswith("tests/mixins.py") for t in tests)  # the mixin alone is not collected
    commit(repo, "n")
    # a mixin's test method reached directly: each test subclass that inherits it, not the one overriding it
    edit(repo, "pkg/cache.py", "        return key\n\n    def put", "        return key\n\n    def other(self):\n        return 0\n\n    def put")
    commit(repo, "other")
    edit(repo, "pkg/cache.py", "    def put(self, key):\n        return key\n", "    def put(self, key):\n        return [key]\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_lru.py::TestLRU::test_put" in tests
    assert "tests/test_lru.py::TestOther::test_put" not in tests


def test_a_special_method_is_reached_through_the_users_of_its_class(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/lazy.py",
        "class Undefined:\n    def __getattr__(self, name):\n        return self\n\n    def __str__(self):\n        return ''\n\n\n"
        "class Debug(Undefined):\n    pass\n\n\n"
        "def render(value):\n    return getattr(value, 'x')\n\n\n"
        "def show(u: Undefined):\n    return str(u)\n\n\n"
        "def make(cls):\n    return cls()\n\n\n"
        "def default():\n    return make(Debug)\n",
    )
    write(
        repo,
        "tests/test_lazy.py",
        "from pkg.lazy import Debug, make, render, show\n\n\ndef test_render():\n    assert render(make(Debug))\n\n\n"
        "def test_direct():\n    assert render(Debug()) is None\n\n\n"
        "def test_other():\n    assert render(1) is None\n\n\ndef test_show():\n    assert show(None) == ''\n",
    )
    commit(repo, "lazy")
    # getattr(value, 'x') on an unknown object: where the class (or a subclass inheriting the method) is passed
    # as a value, its instances are made out of the resolver's sight; a direct Debug() is not such a use (the
    # resolver types what it makes), nor is Debug's class statement naming its base
    edit(repo, "pkg/lazy.py", "        return self\n", "        return None\n")
    data = review(capsys, repo)
    assert "tests/test_lazy.py::test_render" in selected(data)
    assert "tests/test_lazy.py::test_direct" not in selected(data)
    assert "default" in impacted(data) and "show" not in impacted(data)  # an annotation types its uses
    commit(repo, "getattr")
    # __str__ has a typed caller (show): its tests, and still those of the users of the class (the resolver
    # sees only the sites it can type); a test of neither is not selected
    edit(repo, "pkg/lazy.py", "        return ''\n", "        return 'u'\n")
    tests = selected(review(capsys, repo))
    assert {"tests/test_lazy.py::test_show", "tests/test_lazy.py::test_render"} <= set(tests)
    assert not {"tests/test_lazy.py::test_other", "tests/test_lazy.py::test_direct"} & set(tests)


def test_super_names_a_class_without_making_an_instance(tmp_path: Path, capsys: Any) -> None:
    # spans: `super(DiscreteRange, self).__init__(...)` names the class as a type, as an annotation does: the instance
    # was made by whoever called the constructor (a direct call the resolver types), not there; a class given as a
    # value (`[Size]`) is made out of the resolver's sight, and stands for the users of its special methods
    repo = project(tmp_path)
    write(
        repo,
        "pkg/size.py",
        "class Size:\n    def __init__(self, n):\n        self.n = n\n\n    def __add__(self, other):\n"
        "        return Size(self.n + other.n)\n\n\n"
        "class Big(Size):\n    def __init__(self, n):\n        super(Big, self).__init__(n * 1000)\n\n\n"
        "def parse(text):\n    kinds = [Size]\n    return kinds[0](int(text))\n",
    )
    write(
        repo,
        "tests/test_size.py",
        "from pkg.size import Big, parse\n\n\ndef test_parse():\n    assert parse('1')\n\n\n"
        "def test_big():\n    assert Big(1).n == 1000\n",
    )
    commit(repo, "size")
    edit(repo, "pkg/size.py", "        return Size(self.n + other.n)\n", "        return Size(self.n - other.n)\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_size.py::test_parse" in tests
    assert "tests/test_size.py::test_big" not in tests


def test_an_instance_a_class_body_makes_runs_its_special_methods_for_the_users_of_that_class(
    tmp_path: Path, capsys: Any
) -> None:
    # wtforms: `widget = widgets.FileInput()` in FileField's body makes the widget on import; its __call__ runs where
    # a FileField is rendered, not for every test that imports the module (the whole suite, before)
    repo = project(tmp_path)
    write(
        repo,
        "pkg/widgets.py",
        "class FileInput:\n    def __call__(self, field):\n        return '<input type=file>'\n\n    def __init__(self):\n"
        "        self.kind = 'file'\n",
    )
    write(
        repo,
        "pkg/fields.py",
        "from .widgets import FileInput\n\n\nclass FileField:\n    widget = FileInput()\n\n    def render(self):\n"
        "        return self.widget(self)\n\n\nclass TextField:\n    pass\n",
    )
    write(repo, "tests/test_file.py", "from pkg.fields import FileField\n\n\ndef test_file():\n    assert FileField()\n")
    write(repo, "tests/test_text.py", "from pkg.fields import TextField\n\n\ndef test_text():\n    assert TextField()\n")
    commit(repo, "widgets")
    edit(repo, "pkg/widgets.py", "        return '<input type=file>'\n", "        return '<input type=\"file\">'\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_file.py::test_file" in tests
    assert "tests/test_text.py::test_text" not in tests
    commit(repo, "quotes")
    # its __init__ runs where the instance is made: on import of the module
    edit(repo, "pkg/widgets.py", "        self.kind = 'file'\n", "        self.kind = 'files'\n")
    assert "tests/test_text.py::test_text" in selected(review(capsys, repo))


def test_a_function_of_a_table_the_code_takes_one_from_is_followed_however_many_it_holds(
    tmp_path: Path, capsys: Any
) -> None:
    # segno's `_VALID_SERIALIZERS[ext](...)`: one of twelve writers runs, each a 1/12 share, below the walk's cut for
    # guesses; a helper of one writer was found only by tests of the writer itself
    repo = project(tmp_path)
    writers = "".join(f"def write_{k}():\n    return _color()\n\n\n" for k in "abcdef")
    table = ", ".join(f"'{k}': write_{k}" for k in "abcdef")
    write(
        repo,
        "pkg/writers.py",
        f"def _color():\n    return 'black'\n\n\n{writers}_TABLE = {{{table}}}\n\n\n"
        "def save(kind):\n    serializer = _TABLE[kind]\n    return serializer()\n",
    )
    write(repo, "pkg/cli.py", "from pkg import writers\n\nCHOICES = [kind for kind, _func in writers._TABLE.items()]\n")
    write(repo, "tests/test_save.py", "from pkg.writers import save\n\n\ndef test_save():\n    assert save('a')\n")
    commit(repo, "writers")
    edit(repo, "pkg/writers.py", "    return 'black'\n", "    return 'white'\n")
    assert "tests/test_save.py::test_save" in selected(review(capsys, repo))


def test_a_chain_of_imports_of_a_module_that_runs_a_change_counts_nothing_for_the_test_window(
    tmp_path: Path, capsys: Any
) -> None:
    # svgwrite: validators built on import of a module nine imports below the tests that fail with them
    repo = project(tmp_path)
    write(repo, "pkg/m0.py", "from pkg.core import leaf\n\nVALUE = leaf(1)\n")
    for i in range(1, 9):
        write(repo, f"pkg/m{i}.py", f"from pkg import m{i - 1}\n\nNAME = {i}\n")
    write(repo, "tests/test_top.py", "import pkg.m8\n\n\ndef test_top():\n    assert pkg.m8.NAME\n")
    # a module body that runs the change further off (api -> top -> mid -> leaf): a guess, whose imports count
    write(repo, "pkg/n0.py", "from pkg.core import api\n\nVALUE = api(1)\n")
    for i in range(1, 6):
        write(repo, f"pkg/n{i}.py", f"from pkg import n{i - 1}\n\nNAME = {i}\n")
    write(repo, "tests/test_far.py", "import pkg.n5\n\n\ndef test_far():\n    assert pkg.n5.NAME\n")
    write(repo, "tests/test_near.py", "from pkg.core import leaf\n\n\ndef test_near():\n    assert leaf(1)\n")
    commit(repo, "chain")
    edit(repo, "pkg/core.py", "def leaf(x):\n", "def leaf(x):\n    x = x or 0\n")
    tests = selected(review(capsys, repo))
    assert tests["tests/test_near.py::test_near"][0] == 1  # the nearest test: the window starts there
    assert "tests/test_top.py::test_top" in tests
    assert "tests/test_far.py::test_far" not in tests


def test_a_metaclass_method_runs_where_a_class_it_makes_is_defined(tmp_path: Path, capsys: Any) -> None:
    # wtforms' FormMeta.__setattr__: every `class F(Form)` of a test module runs it on import
    repo = project(tmp_path)
    write(
        repo,
        "pkg/meta.py",
        "class FormMeta(type):\n    def __setattr__(cls, name, value):\n        type.__setattr__(cls, name, value)\n",
    )
    write(repo, "pkg/forms.py", "from .meta import FormMeta\n\n\nclass Form(metaclass=FormMeta):\n    pass\n")
    write(
        repo,
        "tests/test_forms.py",
        "from pkg.forms import Form\n\n\nclass Login(Form):\n    user = 'x'\n\n\ndef test_plain():\n    assert True\n",
    )
    write(repo, "tests/test_none.py", "import pkg.meta\n\n\ndef test_none():\n    assert pkg.meta\n")
    commit(repo, "forms")
    edit(repo, "pkg/meta.py", "        type.__setattr__(cls, name, value)\n", "        super().__setattr__(name, value)\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_forms.py::test_plain" in tests
    assert "tests/test_none.py::test_none" not in tests


def test_an_inherited_test_runs_in_the_subclasses_that_inherit_that_definition(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_over.py",
        "from pkg.core import api, leaf\n\n\nclass TestA:\n    def test_x(self):\n        assert api(1)\n\n\n"
        "class TestB(TestA):\n    def test_x(self):\n        assert leaf(1)\n\n\n"
        "class TestC(TestB):\n    pass\n\n\nclass TestD(TestA):\n    pass\n",
    )
    commit(repo, "overridden test")
    edit(repo, "pkg/core.py", "def api(x):\n", "def api(x):\n    x = x or 0\n")
    tests = selected(review(capsys, repo))
    assert {"tests/test_over.py::TestA::test_x", "tests/test_over.py::TestD::test_x"} <= set(tests)
    # TestC runs TestB's test_x, which does not call api
    assert not {"tests/test_over.py::TestB::test_x", "tests/test_over.py::TestC::test_x"} & set(tests)


def test_a_callable_object_is_reached_through_the_callers_of_its_class(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/curry.py",
        "class curry:\n    def __init__(self, func):\n        self.func = func\n\n"
        "    def __call__(self, *args):\n        return self.func(*args)\n\n    def __eq__(self, other):\n"
        "        return self.func == other.func\n\n\n"
        "class lazyattr:\n    def __init__(self, fget):\n        self.fget = fget\n\n"
        "    def __get__(self, obj, owner=None):\n        return self.fget(obj)\n\n\n"
        "class Box:\n    @lazyattr\n    def size(self):\n        return 1\n",
    )
    write(repo, "pkg/api.py", "from pkg.curry import curry\n\n\ndef _add(a, b):\n    return a + b\n\n\nadd = curry(_add)\n")
    write(
        repo,
        "tests/test_apply.py",
        "from pkg.api import add\nfrom pkg.curry import Box\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\n"
        "def test_box():\n    assert Box().size == 1\n",
    )
    write(repo, "tests/test_unrelated.py", "from pkg.core import leaf\n\n\ndef test_leaf():\n    assert leaf(1)\n")
    commit(repo, "curry")
    # `add = curry(_add)` at import time: whoever imports pkg.api calls the instance later
    edit(repo, "pkg/curry.py", "        return self.func(*args)\n", "        return self.func(*args[:2])\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_apply.py::test_add" in tests
    assert "tests/test_unrelated.py::test_leaf" not in tests
    commit(repo, "call")
    # a descriptor made in a class body runs on every access of the attribute
    edit(repo, "pkg/curry.py", "        return self.fget(obj)\n", "        return self.fget(obj) if obj else self\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_apply.py::test_box" in tests
    assert "tests/test_unrelated.py::test_leaf" not in tests
    commit(repo, "get")
    # __eq__ is not made to be called later: a call of the class alone does not reach it
    edit(repo, "pkg/curry.py", "        return self.func == other.func\n", "        return self.func is other.func\n")
    assert "tests/test_apply.py::test_add" not in selected(review(capsys, repo))
    commit(repo, "eq")
    # an iterable made to be handed on: bleach's `LinkifyFilter(source=...)`, which a serializer loops over
    write(repo, "pkg/serializer.py", "def render(walker):\n    out = []\n    for token in walker:\n        out.append(token)\n    return out\n")
    write(repo, "pkg/stream.py", "from pkg.serializer import render\n\n\nclass Filter:\n    def __init__(self, source):\n"
          "        self.source = source\n\n    def __iter__(self):\n        yield from self.source\n\n\n"
          "def clean(text):\n    filtered = Filter(source=text)\n    return render(filtered)\n")
    write(repo, "tests/test_text.py", "from pkg.stream import clean\n\n\ndef test_clean():\n    assert clean('ab') == ['a', 'b']\n")
    commit(repo, "stream")
    edit(repo, "pkg/stream.py", "        yield from self.source\n", "        yield from list(self.source)\n")
    assert "tests/test_text.py::test_clean" in selected(review(capsys, repo))


def test_a_nested_function_is_reached_through_the_callers_of_the_function_that_makes_it(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/memo.py",
        "import functools\n\n\ndef cached(store):\n    def decorator(func):\n        def wrapper(*args):\n"
        "            if args not in store:\n                store[args] = func(*args)\n            return store[args]\n\n"
        "        return functools.update_wrapper(wrapper, func)\n\n    return decorator\n\n\n"
        "def plain(x):\n    return x\n",
    )
    write(
        repo,
        "tests/test_memo.py",
        "from pkg.memo import cached, plain\n\n\ndef test_wrapped():\n    f = cached({})(lambda n: n)\n    assert f(1) == 1\n\n\n"
        "def test_plain():\n    assert plain(1) == 1\n",
    )
    write(
        repo,
        "pkg/hooks.py",
        "HOOKS = []\n\n\ndef register(fn):\n    HOOKS.append(fn)\n    return fn\n\n\n"
        "def fire():\n    return [f() for f in HOOKS]\n\n\n"
        "def install():\n    @register\n    def on_save():\n        return 1\n\n    return len(HOOKS)\n",
    )
    write(
        repo,
        "tests/test_events.py",
        "from pkg.hooks import fire, install\n\n\ndef test_install():\n    install()\n    assert fire() == [1]\n\n\n"
        "def test_fire():\n    assert fire() is not None\n",
    )
    commit(repo, "memo")
    # the wrapper is called through what cached(...)(...) returned: the test that made it calls it
    edit(repo, "pkg/memo.py", "            return store[args]\n", "            return store.get(args)\n")
    data = review(capsys, repo)
    assert "tests/test_memo.py::test_wrapped" in selected(data)
    assert "tests/test_memo.py::test_plain" not in selected(data)
    assert impacted(data)["cached.decorator"]["depth"] == 1
    commit(repo, "get")
    # a nested function handed to a registry by a decorator: nothing names it, its maker's callers run it, and so
    # does whoever calls the registry's items once a maker ran (test_fire after test_install, in one pytest run)
    edit(repo, "pkg/hooks.py", "        return 1\n", "        return 2\n")
    data = review(capsys, repo)
    assert "tests/test_events.py::test_install" in selected(data)
    assert "tests/test_events.py::test_fire" in selected(data)
    assert impacted(data)["install"]["depth"] == 1


def test_a_function_named_by_a_dotted_path_in_a_table_is_run_by_the_readers_of_the_table(
    tmp_path: Path, capsys: Any
) -> None:
    # mistune: `_plugins = {"footnotes": "mistune.plugins.footnotes.footnotes"}`, read by `import_plugin(name)`
    repo = project(tmp_path)
    write(repo, "pkg/plugins/__init__.py", "_plugins = {'strike': 'pkg.plugins.strike.strike'}\n\n\n"
          "def import_plugin(name):\n    import importlib\n    mod, _, fn = _plugins[name].rpartition('.')\n"
          "    return getattr(importlib.import_module(mod), fn)\n")
    write(repo, "pkg/plugins/strike.py", "def strike(text):\n    return '~' + text\n")
    write(repo, "tests/test_plugins.py", "from pkg.plugins import import_plugin\n\n\n"
          "def test_strike():\n    assert import_plugin('strike')('a') == '~a'\n")
    commit(repo, "plugins")
    edit(repo, "pkg/plugins/strike.py", "return '~' + text", "return '~~' + text")
    tests = selected(review(capsys, repo))
    assert "tests/test_plugins.py::test_strike" in tests, tests
    assert "tests/test_chain.py::test_api" not in tests


def test_a_fixture_named_like_a_test_is_not_selected(tmp_path: Path, capsys: Any) -> None:
    # configobj: `@pytest.fixture def testconfig1()`; `pytest tests/test_cfg.py::testconfig1` stops at "not found"
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_cfg.py",
        "import pytest\n\nfrom pkg.core import api\n\n\n@pytest.fixture\ndef testconfig1():\n    return api(1)\n\n\n"
        "def test_config(testconfig1):\n    assert testconfig1\n",
    )
    commit(repo, "cfg")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 2")
    tests = selected(review(capsys, repo))
    assert "tests/test_cfg.py::test_config" in tests
    assert "tests/test_cfg.py::testconfig1" not in tests
    code, out, _ = run_cli(capsys, "tests", "--repo", str(repo), "--db", str(repo.parent / "index.db"))
    assert code == 0
    assert run_pytest(repo, [i for i in out.split() if i.startswith("tests/test_cfg.py")]) == "1 passed"


def test_an_operator_method_is_called_by_the_methods_of_its_hierarchy_that_use_the_operator(
    tmp_path: Path, capsys: Any
) -> None:
    # boolean.py: the nodes of an expression tree compare their arguments, of unknown type, with `==`
    repo = project(tmp_path)
    write(
        repo,
        "pkg/expr.py",
        "class Expr:\n    def __init__(self, *args):\n        self.args = list(args)\n\n"
        "    def __eq__(self, other):\n        return self.args == getattr(other, 'args', None)\n\n\n"
        "class Op(Expr):\n    def absorb(self, x):\n        return [a for a in self.args if a == x]\n\n"
        "    def has(self, x):\n        for a in self.args:\n            if a == x:\n                return True\n        return False\n\n\n"
        "class Other:\n    def same(self, a, b):\n        return a == b\n",
    )
    commit(repo, "expr")
    edit(repo, "pkg/expr.py", "getattr(other, 'args', None)", "getattr(other, 'args', ())")
    found = impacted(review(capsys, repo))
    assert found["Op.absorb"]["depth"] == 1 and found["Op.has"]["depth"] == 1, found
    assert "Other.same" not in found  # `==` outside the hierarchy: no guess


@pytest.mark.parametrize("base", ["", "(dict)"])
def test_a_pickling_hook_is_reached_from_the_scopes_that_pickle_its_class(
    tmp_path: Path, capsys: Any, base: str
) -> None:
    # (a class deriving from one the index does not have: its hooks are not those dict's methods call)
    repo = project(tmp_path)
    write(
        repo,
        "pkg/ttl.py",
        "import copy\n\n\n"
        f"class TTL{base}:\n    def __init__(self, ttl):\n        self.ttl = ttl\n\n"
        "    def __setstate__(self, state):\n        self.__dict__.update(state)\n\n\n"
        "class Other:\n    pass\n\n\nDEFAULT = TTL(60)\n\n\n"
        "def lookup(table, err):\n    table[DEFAULT] = 1\n    return copy.copy(err)\n",
    )
    write(repo, "tests/test_lookup.py", "from pkg.ttl import lookup\n\n\ndef test_lookup():\n    assert lookup({}, 1)\n")
    write(
        repo,
        "tests/test_bare.py",
        "from pickle import dumps, loads\n\nfrom pkg.ttl import TTL\n\n\ndef test_bare():\n    assert loads(dumps(TTL(1))).ttl == 1\n",
    )
    write(
        repo,
        "tests/test_default.py",
        "import pickle\n\nfrom pkg.ttl import DEFAULT\n\n\ndef test_default():\n"
        "    assert pickle.loads(pickle.dumps(DEFAULT)).ttl == 60\n",
    )
    write(
        repo,
        "tests/test_expiry.py",
        "import copy\nimport pickle\n\nfrom pkg.ttl import TTL, Other\n\n\n"
        "def test_pickle():\n    c = TTL(3)\n    assert pickle.loads(pickle.dumps(c)).ttl == 3\n\n\n"
        "def test_make():\n    assert TTL(3).ttl == 3\n\n\n"
        "def test_other():\n    assert copy.deepcopy(Other())\n",
    )
    commit(repo, "ttl")
    edit(repo, "pkg/ttl.py", "        self.__dict__.update(state)\n", "        self.__dict__.update(state, ttl=0)\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_expiry.py::test_pickle" in tests
    assert "tests/test_default.py::test_default" in tests  # an instance of a module's variable pickled
    assert "tests/test_bare.py::test_bare" in tests  # `from pickle import dumps, loads`
    # making one without pickling it does not run the hook; pickling another class does not either, nor library
    # code that copies something else and reads the instance
    assert not {"tests/test_expiry.py::test_make", "tests/test_expiry.py::test_other", "tests/test_lookup.py::test_lookup"} & set(tests)


def test_a_method_only_an_outside_base_class_calls_is_reached_through_the_uses_of_its_class(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/wrap.py",
        "import textwrap\n\n\nclass Wrapper(textwrap.TextWrapper):\n    def _wrap_chunks(self, chunks):\n"
        "        return super()._wrap_chunks(chunks)\n\n\nclass Plain(object):\n    def unused(self):\n"
        "        return 1\n\n    def used(self):\n        return 2\n\n\n"
        "def wrap_cols(text):\n    return Wrapper(width=10).wrap(text)\n\n\n"
        "def plain():\n    return Plain().used()\n",
    )
    write(
        repo,
        "tests/test_layout.py",
        "from pkg.wrap import plain, wrap_cols\n\n\ndef test_wrap():\n    assert wrap_cols('a b')\n\n\n"
        "def test_plain():\n    assert plain() == 2\n",
    )
    commit(repo, "wrapper")
    # TextWrapper.wrap calls _wrap_chunks: whoever makes a Wrapper and uses it runs the override
    edit(repo, "pkg/wrap.py", "        return super()._wrap_chunks(chunks)\n", "        return super()._wrap_chunks(chunks[:])\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_layout.py::test_wrap" in tests
    assert "tests/test_layout.py::test_plain" not in tests
    commit(repo, "chunks")
    # a class deriving from object only: nothing outside the repository calls its uncalled method
    edit(repo, "pkg/wrap.py", "    def unused(self):\n        return 1\n", "    def unused(self):\n        return 3\n")
    assert "tests/test_layout.py::test_plain" not in selected(review(capsys, repo))
    commit(repo, "unused")
    # a mixin's hook, the outside base joining it in a subclass (parsel's TranslatorMixin next to cssselect's class)
    write(
        repo,
        "pkg/mixed.py",
        "import textwrap\n\n\nclass ChunkMixin:\n    def _split(self, text):\n        return text.split()\n\n\n"
        "class Mixed(ChunkMixin, textwrap.TextWrapper):\n    pass\n\n\ndef mixed_cols(text):\n"
        "    return Mixed(width=10).wrap(text)\n",
    )
    write(repo, "tests/test_columns.py", "from pkg.mixed import mixed_cols\n\n\ndef test_mixed():\n    assert mixed_cols('a b')\n")
    commit(repo, "mixin")
    edit(repo, "pkg/mixed.py", "        return text.split()\n", "        return text.split(' ')\n")
    assert "tests/test_columns.py::test_mixed" in selected(review(capsys, repo))


def test_a_method_only_looked_up_by_a_made_name_in_a_class_with_an_outside_base_is_a_hook(
    tmp_path: Path, capsys: Any
) -> None:
    """beniget: `DefUseChains(ast.NodeVisitor)` whose `visit_Module` and `visit_ClassDef` only its own `getattr(self,
    "visit_" + ...)` names, in a method `visit_Module` calls; the test calls `DefUseChains().visit(tree)`, which
    `ast.NodeVisitor.visit` dispatches."""
    repo = project(tmp_path)
    write(
        repo,
        "pkg/chains.py",
        "import ast\n\n\nclass Chains(ast.NodeVisitor):\n    def visit_Module(self, node):\n        return self.later(node.body)\n\n"
        "    def visit_ClassDef(self, node):\n        return 1\n\n"
        "    def later(self, nodes):\n        return [getattr(self, 'visit_' + type(n).__name__)(n) for n in nodes]\n\n\n"
        "class Own:\n    def visit_X(self, node):\n        return 2\n\n"
        "    def later(self, nodes):\n        return [getattr(self, 'visit_' + type(n).__name__)(n) for n in nodes]\n\n\n"
        "def own():\n    return Own()\n",
    )
    write(
        repo,
        "tests/test_walk.py",
        "import ast\n\nfrom pkg.chains import Chains, own\n\n\ndef test_chains():\n"
        "    Chains().visit(ast.parse('class A: pass'))\n\n\ndef test_own():\n    assert own()\n",
    )
    commit(repo, "chains")
    edit(repo, "pkg/chains.py", "        return 1\n", "        return 3\n")
    assert "tests/test_walk.py::test_chains" in selected(review(capsys, repo))
    commit(repo, "visit")
    # a class of the repository alone: only its own look-up runs the method, which no test reaches
    edit(repo, "pkg/chains.py", "        return 2\n", "        return 4\n")
    assert "tests/test_walk.py::test_own" not in selected(review(capsys, repo))


def test_a_visitor_made_by_a_classmethod_of_its_base_runs_its_hooks_and_a_decorator_of_its_body_runs_on_import(
    tmp_path: Path, capsys: Any
) -> None:
    """radon: `ComplexityVisitor.from_code(src)` where the base `CodeVisitor(ast.NodeVisitor)` has `@classmethod def
    from_code(cls, ...)`: `cls(...)` makes a ComplexityVisitor, whose `visit_FunctionDef` `ast.NodeVisitor.visit` runs;
    and `HalsteadVisitor`'s body defines `def dispatch(meth)` and decorates with `@dispatch`, which runs on import."""
    repo = project(tmp_path)
    write(
        repo,
        "pkg/visitors.py",
        "import ast\n\n\nclass CodeVisitor(ast.NodeVisitor):\n    @classmethod\n    def from_code(cls, src):\n"
        "        visitor = cls()\n        visitor.visit(ast.parse(src))\n        return visitor\n\n\n"
        "class ComplexityVisitor(CodeVisitor):\n    def visit_FunctionDef(self, node):\n        return 1\n\n\n"
        "class HalsteadVisitor(CodeVisitor):\n    def dispatch(meth):\n        return meth\n\n"
        "    @dispatch\n    def visit_BinOp(self, node):\n        return 2\n",
    )
    # a registration at a module's top (jsonpickle's `DatetimeHandler.handles(datetime.datetime)`) makes nothing
    write(
        repo,
        "pkg/other.py",
        "from pkg.visitors import HalsteadVisitor\n\n\ndef helper():\n    return 0\n\n\nHalsteadVisitor.from_code('x = 1')\n",
    )
    write(
        repo,
        "tests/test_visit.py",
        "from pkg.visitors import ComplexityVisitor\n\n\ndef test_complexity():\n"
        "    assert ComplexityVisitor.from_code('def f(): pass')\n",
    )
    write(repo, "tests/test_other.py", "from pkg.other import helper\n\n\ndef test_helper():\n    assert helper() == 0\n")
    commit(repo, "visitors")
    edit(repo, "pkg/visitors.py", "        return 1\n", "        return 3\n")
    assert "tests/test_visit.py::test_complexity" in selected(review(capsys, repo))
    commit(repo, "visit")
    edit(repo, "pkg/visitors.py", "        return 2\n", "        return 4\n")
    assert "tests/test_other.py::test_helper" not in selected(review(capsys, repo))
    commit(repo, "binop")
    edit(repo, "pkg/visitors.py", "        return meth\n", "        return meth or None\n")
    tests = selected(review(capsys, repo))  # the decorator runs when pkg.visitors is imported: by both test modules
    assert {"tests/test_visit.py::test_complexity", "tests/test_other.py::test_helper"} <= set(tests)


def test_a_tzinfo_method_that_datetime_calls_is_reached_from_the_users_of_its_class(tmp_path: Path, capsys: Any) -> None:
    """pytz: `DstTzInfo(BaseTzInfo)`, `BaseTzInfo(tzinfo)`; C `datetime` calls `fromutc` for `dt.astimezone(tz)`,
    so a test making the zone reaches it, though `normalize` also calls it in the repository (and is called itself)."""
    repo = project(tmp_path)
    write(
        repo,
        "pkg/tz.py",
        "from datetime import timedelta, tzinfo\n\n\nclass BaseTzInfo(tzinfo):\n    def utcoffset(self, dt):\n"
        "        return timedelta(0)\n\n\nclass DstTzInfo(BaseTzInfo):\n    def fromutc(self, dt):\n"
        "        return dt.replace(tzinfo=self)\n\n    def normalize(self, dt):\n        return self.fromutc(dt)\n\n\n"
        "class Plain:\n    def fromutc(self, dt):\n        return dt\n\n\n"
        "def timezone(name):\n    return DstTzInfo()\n\n\ndef plain():\n    return Plain()\n\n\n"
        "def normal(dt):\n    return DstTzInfo().normalize(dt) and Plain().fromutc(dt)\n",
    )
    write(
        repo,
        "tests/test_zones.py",
        "from datetime import datetime, timezone as utc\n\nfrom pkg.tz import plain, timezone\n\n\n"
        "def test_convert():\n    assert datetime(2020, 1, 1, tzinfo=utc.utc).astimezone(timezone('x'))\n\n\n"
        "def test_plain():\n    assert plain()\n",
    )
    commit(repo, "zones")
    edit(repo, "pkg/tz.py", "return dt.replace(tzinfo=self)", "return dt.replace(tzinfo=self) or None")
    assert "tests/test_zones.py::test_convert" in selected(review(capsys, repo))
    commit(repo, "fromutc")
    # a class of no such base: only the repository's calls run its method of that name
    edit(repo, "pkg/tz.py", "        return dt\n", "        return dt or None\n")
    assert "tests/test_zones.py::test_plain" not in selected(review(capsys, repo))


def test_an_override_of_an_outside_base_method_is_reached_from_the_users_of_its_class(tmp_path: Path, capsys: Any) -> None:
    """flask: `class FlaskClient(werkzeug.test.Client)` overrides `open` (calling `super().open(...)`), which werkzeug's
    `Client.get` runs: a test's `client.get("/")` reaches it, though `session` also calls it in the repository."""
    repo = project(tmp_path)
    write(
        repo,
        "pkg/testing.py",
        "from http.client import HTTPConnection\n\n\nclass Client(HTTPConnection):\n    def request(self, *a, **kw):\n"
        "        return super().request(*a, **kw)\n\n    def session(self):\n        return self.request('GET', '/')\n\n"
        "    def close(self):\n        return None\n\n\ndef make_client():\n    return Client('localhost')\n\n\n"
        "def shutdown():\n    return Client('x').close()\n\n\ndef warm():\n    return Client('y').session()\n",
    )
    write(
        repo,
        "tests/test_client.py",
        "from pkg.testing import make_client\n\n\ndef test_get():\n    assert make_client().getresponse\n",
    )
    commit(repo, "client")
    edit(repo, "pkg/testing.py", "        return super().request(*a, **kw)", "        return super().request(*a, **kw) or None")
    assert "tests/test_client.py::test_get" in selected(review(capsys, repo))
    commit(repo, "request")
    # a method calling no outside method of its name, which the repository calls: only those calls run it
    edit(repo, "pkg/testing.py", "        return None\n", "        return 0\n")
    assert "tests/test_client.py::test_get" not in selected(review(capsys, repo))
    # the base's method called by the name of the base as written (pyquery's `XPathExprOrig.join(self, ...)`, where
    # `XPathExprOrig = cssselect.xpath.XPathExpr`), though a call of that name on an unknown object may be it too
    commit(repo, "close")
    write(
        repo,
        "pkg/expr.py",
        "from http import client\n\nConnection = client.HTTPConnection\n\n\nclass Expr(Connection):\n"
        "    def connect(self):\n        return Connection.connect(self)\n\n\n"
        "def make():\n    return Expr('localhost')\n\n\ndef other(thing):\n    return thing.connect()\n",
    )
    write(repo, "tests/test_building.py", "from pkg.expr import make\n\n\ndef test_make():\n    assert make()\n")
    commit(repo, "expr")
    edit(repo, "pkg/expr.py", "return Connection.connect(self)", "return Connection.connect(self) or None")
    assert "tests/test_building.py::test_make" in selected(review(capsys, repo))


def test_methods_requests_and_html_parser_call_are_reached_from_the_uses_of_their_class(
    tmp_path: Path, capsys: Any
) -> None:
    # requests-mock's `Adapter(BaseAdapter).send`, which requests runs once a test mounts the adapter (a direct call
    # of it elsewhere does not make the class's uses less its callers); html2text's `HTML2Text(HTMLParser)` handlers,
    # which `feed()` runs
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "pkg/__init__.py",
        "from html.parser import HTMLParser\n\nfrom requests.adapters import BaseAdapter\n\n\n"
        "class Adapter(BaseAdapter):\n    def send(self, request, **kwargs):\n        return request\n\n\n"
        "class Text(HTMLParser):\n    def handle_data(self, data):\n        self.out = data\n\n\n"
        "def direct(adapter):\n    return adapter.send(None)\n",
    )
    write(
        repo,
        "tests/test_mount.py",
        "import requests\n\nfrom pkg import Adapter\n\n\ndef test_mount():\n    s = requests.Session()\n"
        "    s.mount('mock://', Adapter())\n",
    )
    write(repo, "tests/test_text.py", "from pkg import Text\n\n\ndef test_feed():\n    Text().feed('<p>x</p>')\n")
    commit(repo, "adapters")
    edit(repo, "pkg/__init__.py", "        return request\n", "        return request or None\n")
    assert "tests/test_mount.py::test_mount" in selected(review(capsys, repo))
    commit(repo, "send")
    edit(repo, "pkg/__init__.py", "        self.out = data\n", "        self.out = data.strip()\n")
    assert "tests/test_text.py::test_feed" in selected(review(capsys, repo))


def test_methods_the_import_system_and_logging_call_are_reached_from_the_uses_of_their_class(
    tmp_path: Path, capsys: Any
) -> None:
    # bottle's `sys.meta_path.append(_ImportRedirect(...))` at import: its find_spec runs for every later import;
    # structlog's `ProcessorFormatter(logging.Formatter).format`, which logging calls (no super() call in a body
    # a mutant replaced)
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "pkg/__init__.py",
        "import logging\nimport sys\n\n\nclass Redirect:\n    def find_spec(self, name, path, target=None):\n        return None\n\n\n"
        "class Plain:\n    def find(self, name):\n        return None\n\n\n"
        "class Fmt(logging.Formatter):\n    def format(self, record):\n        return 'x'\n\n\n"
        "sys.meta_path.append(Redirect())\nPLAIN = Plain()\n\n\ndef make_formatter():\n    return Fmt()\n",
    )
    write(repo, "tests/test_app.py", "import pkg\n\n\ndef test_app():\n    assert pkg.PLAIN\n")
    write(
        repo,
        "tests/test_logs.py",
        "import logging\n\nfrom pkg import make_formatter\n\n\ndef test_logs():\n    h = logging.StreamHandler()\n"
        "    h.setFormatter(make_formatter())\n",
    )
    commit(repo, "hooks")
    edit(repo, "pkg/__init__.py", "        return None\n\n\nclass Plain", "        return None or None\n\n\nclass Plain")
    assert {"tests/test_app.py::test_app", "tests/test_logs.py::test_logs"} <= set(selected(review(capsys, repo)))
    commit(repo, "find_spec")
    edit(repo, "pkg/__init__.py", "return 'x'", "return 'y'")
    assert "tests/test_logs.py::test_logs" in selected(review(capsys, repo))
    commit(repo, "format")
    edit(repo, "pkg/__init__.py", "    def find(self, name):\n        return None", "    def find(self, name):\n        return 0")
    assert not selected(review(capsys, repo))  # a method of no such protocol: nothing calls it


def test_a_function_stored_in_a_module_table_is_reached_through_the_importers_of_the_module(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/fmt.py",
        "def _pipe_line(widths):\n    return '|'.join('-' * w for w in widths)\n\n\n"
        "def _called(widths):\n    return widths\n\n\n"
        "class Format:\n    def __init__(self, line):\n        self.line = line\n\n\n"
        "FORMATS = {'pipe': Format(line=_pipe_line), 'plain': Format(line=_called)}\n\n\n"
        "def render(name, widths):\n    return FORMATS[name].line(_called(widths))\n",
    )
    write(repo, "pkg/other.py", "def other():\n    return 1\n")
    write(repo, "tests/test_table.py", "from pkg.fmt import render\n\n\ndef test_pipe():\n    assert render('pipe', [1])\n")
    write(repo, "tests/test_more.py", "from pkg.other import other\n\n\ndef test_other():\n    assert other()\n")
    commit(repo, "formats")
    # nothing calls _pipe_line by name: whoever reads FORMATS does, and only importers of pkg.fmt can
    edit(repo, "pkg/fmt.py", "    return '|'.join('-' * w for w in widths)\n", "    return ':'.join('-' * w for w in widths)\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_table.py::test_pipe" in tests
    assert "tests/test_more.py::test_other" not in tests


def test_a_weak_name_match_is_followed_when_a_builder_wires_the_two_classes(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    others = "".join(f"\n\nclass Other{i}:\n    def process(self, x):\n        return {i}\n" for i in range(6))
    write(
        repo,
        "pkg/stack.py",
        "class Stack:\n    def __init__(self):\n        self.filters = []\n\n"
        "    def enable(self):\n        self.on = True\n\n"
        "    def run(self, x):\n        for f in self.filters:\n            x = f.process(x)\n        return x\n",
    )
    write(
        repo,
        "pkg/filters.py",
        "class Upper:\n    def process(self, x):\n        return self.up(x)\n\n"
        "    def up(self, x):\n        return x.upper()\n" + others,
    )
    write(
        repo,
        "pkg/build.py",
        "from pkg.filters import Upper\n\n\n"
        "def build(stack):\n    stack.enable()\n    stack.filters.append(Upper())\n    return stack\n",
    )
    write(
        repo,
        "pkg/api.py",
        "from pkg.build import build\nfrom pkg.stack import Stack\n\n\n"
        "def shout(x):\n    return build(Stack()).run(x)\n",
    )
    write(repo, "tests/test_api.py", "from pkg.api import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    commit(repo, "stack")
    edit(repo, "pkg/filters.py", "return x.upper()", "return x.upper() + ''")
    # f.process(x) in Stack.run matches seven methods by name, one call away from the change; build()
    # makes an Upper and enables a stack
    assert selected(review(capsys, repo)) == {"tests/test_api.py::test_shout": (4, "graph")}


def test_a_function_stored_in_a_module_table_is_reached_through_the_readers_of_the_table(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/fmt.py",
        "def _pipe_line(widths):\n    return '|'.join('-' * w for w in widths)\n\n\n"
        "class Format:\n    def __init__(self, line):\n        self.line = line\n\n\n"
        "FORMATS = {\n    'pipe': Format(\n        line=_pipe_line,\n    ),\n}\n"
        "names = sorted(FORMATS.keys())\n\n\n"
        "def render(name, widths):\n    return FORMATS.get(name).line(widths)\n\n\n"
        "def width(widths):\n    return sum(widths)\n\n\n"
        "ALL = [FORMATS]\n\n\n"
        "def first_line(name):\n    return ALL[0][name].line\n",
    )
    # a re-export under another name, read by a subscript in a third module
    write(repo, "pkg/defaults.py", "from pkg.fmt import FORMATS as DEFAULT_FORMATS  # noqa: F401\n")
    write(repo, "pkg/env.py", "from pkg.defaults import DEFAULT_FORMATS\n\n\ndef line_of(name):\n    return DEFAULT_FORMATS[name].line\n")
    write(repo, "tests/test_table.py", "from pkg.fmt import render\n\n\ndef test_pipe():\n    assert render('pipe', [1])\n")
    write(repo, "tests/test_env.py", "from pkg.env import line_of\n\n\ndef test_line():\n    assert line_of('pipe')([1])\n")
    write(repo, "tests/test_width.py", "from pkg.fmt import width\n\n\ndef test_width():\n    assert width([1]) == 1\n")
    write(repo, "tests/test_all.py", "from pkg.fmt import first_line\n\n\ndef test_first():\n    assert first_line('pipe')([1])\n")
    write(repo, "pkg/cli.py", "from pkg import fmt\n\n\ndef show(name):\n    return fmt.FORMATS[name].line\n")
    write(repo, "tests/test_cli.py", "from pkg.cli import show\n\n\ndef test_show():\n    assert show('pipe')([1])\n")
    commit(repo, "formats")
    edit(repo, "pkg/fmt.py", "    return '|'.join('-' * w for w in widths)\n", "    return ':'.join('-' * w for w in widths)\n")
    tests = selected(review(capsys, repo))
    # the readers of FORMATS (render, line_of through the re-export, first_line through the copy in ALL) call
    # _pipe_line; width imports the module but never reads the table
    assert "tests/test_table.py::test_pipe" in tests
    assert "tests/test_env.py::test_line" in tests
    assert "tests/test_all.py::test_first" in tests
    assert "tests/test_cli.py::test_show" in tests  # `from pkg import fmt`, then `fmt.FORMATS[name]`
    assert "tests/test_width.py::test_width" not in tests


def test_a_function_a_module_body_hands_to_a_call_is_still_reached_through_the_importers_of_the_module(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/fmt.py",
        "HOOKS = []\n\n\ndef register(f):\n    HOOKS.append(f)\n\n\n"
        "def _pipe_line(widths):\n    return '|'.join('-' * w for w in widths)\n\n\n"
        "FORMATS = {'pipe': _pipe_line}\nregister(_pipe_line)\n\n\n"
        "def width(widths):\n    return sum(widths)\n",
    )
    write(repo, "tests/test_width.py", "from pkg.fmt import width\n\n\ndef test_width():\n    assert width([1]) == 1\n")
    commit(repo, "formats")
    edit(repo, "pkg/fmt.py", "    return '|'.join('-' * w for w in widths)\n", "    return ':'.join('-' * w for w in widths)\n")
    # register() keeps it where the graph cannot follow: any importer of the module may run it
    assert "tests/test_width.py::test_width" in selected(review(capsys, repo))


def test_a_called_function_also_stored_in_a_table_does_not_reach_every_importer_of_the_module(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/checks.py",
        "def check_v4(value):\n    return value.count('.') == 3\n\n\n"
        "def check_any(value):\n    return check_v4(value) or ':' in value\n\n\n"
        "CHECKS = {'v4': [check_v4], 'any': [check_any]}\n\n\n"
        "def checks_for(kind):\n    return CHECKS[kind]\n\n\n"
        "def plain(value):\n    return value\n",
    )
    write(repo, "tests/test_checks.py", "from pkg.checks import checks_for\n\n\ndef test_v4():\n    assert checks_for('v4')[0]('1.2.3.4')\n")
    write(repo, "tests/test_plain.py", "from pkg.checks import plain\n\n\ndef test_plain():\n    assert plain(1) == 1\n")
    commit(repo, "checks")
    edit(repo, "pkg/checks.py", "    return value.count('.') == 3\n", "    return value.count('.') >= 3\n")
    tests = selected(review(capsys, repo))
    # the reference in CHECKS made the module check_v4's caller, and so every test importing pkg.checks
    assert "tests/test_checks.py::test_v4" in tests
    assert "tests/test_plain.py::test_plain" not in tests


def test_a_method_run_on_an_instance_a_module_stores_is_reached_through_the_readers_of_the_instance(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/checks.py",
        "class Checker:\n    def __init__(self, sep):\n        self.sep = sep\n\n"
        "    def __call__(self, value):\n        return self.sep in value\n\n\n"
        "check_email = Checker('@')\n\n\n"
        "def clean(value):\n    return check_email(value)\n\n\n"
        "def plain(value):\n    return value\n",
    )
    write(repo, "tests/test_clean.py", "from pkg.checks import clean\n\n\ndef test_clean():\n    assert clean('a@b')\n")
    write(repo, "tests/test_plain.py", "from pkg.checks import plain\n\n\ndef test_plain():\n    assert plain(1) == 1\n")
    commit(repo, "checks")
    edit(repo, "pkg/checks.py", "        return self.sep in value\n", "        return value.count(self.sep) == 1\n")
    tests = selected(review(capsys, repo))
    # making the instance at import runs __init__, not __call__: whoever uses check_email calls it
    assert "tests/test_clean.py::test_clean" in tests
    assert "tests/test_plain.py::test_plain" not in tests


def test_an_object_a_module_makes_that_only_keeps_the_changed_function_does_not_select_its_importers(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/decoder.py",
        "def scan_multiline(text):\n    return text.strip()\n\n\n"
        "def make_decoder():\n    return Decoder()\n\n\n"
        "class Decoder:\n    def __init__(self):\n        self.parse_multiline = scan_multiline\n\n"
        "    def decode(self, text):\n        return self.parse_multiline(text)\n\n\n"
        "_default_decoder = Decoder()\n_other_decoder = make_decoder()\n\n\n"
        "def plain(value):\n    return value\n",
    )
    write(
        repo,
        "tests/test_decode.py",
        "from pkg.decoder import Decoder\n\n\ndef test_decode():\n    assert Decoder().decode(' a ') == 'a'\n",
    )
    write(repo, "tests/test_plain.py", "from pkg.decoder import plain\n\n\ndef test_plain():\n    assert plain(1) == 1\n")
    # idna's `codecs.register(search_function)`, a function handing out what runs the change, given to a call: who
    # calls it is not known, the importers of the module stand for them
    write(
        repo,
        "pkg/codec.py",
        "import codecs\n\nfrom pkg.decoder import scan_multiline\n\n\n"
        "def search(name):\n    return codecs.CodecInfo(name=name, encode=None, decode=scan_multiline)\n\n\n"
        "codecs.register(search)\n",
    )
    write(repo, "tests/test_codec.py", "import pkg.codec\n\n\ndef test_registered():\n    assert pkg.codec\n")
    commit(repo, "decoder")
    edit(repo, "pkg/decoder.py", "    return text.strip()\n", "    return text.strip(' ')\n")
    tests = selected(review(capsys, repo))
    # making the decoders at import stores scan_multiline in them (directly, or through a factory): only a use of a
    # decoder runs it, and the graph follows decode() to it
    assert "tests/test_decode.py::test_decode" in tests
    assert not {"tests/test_plain.py::test_plain", "tests/test_plain.py"} & set(tests)
    assert "tests/test_codec.py::test_registered" in tests


def test_a_method_a_module_table_names_through_its_class_is_run_by_the_readers_of_the_table(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(
        repo,
        "pkg/machine.py",
        "from typing import Callable\n\n\nclass Machine:\n    def on_open(self):\n        return 'open'\n\n"
        "    def close(self):\n        return self._transitions\n\n\n"
        "def process(machine, key):\n    handler, _state = _transitions[key]\n    return handler(machine)\n\n\n"
        "_transitions: dict[str, tuple[Callable[[Machine], str], str]] = {'open': (Machine.on_open, 'opened')}\n\n\n"
        "def plain(value):\n    return value\n",
    )
    write(
        repo,
        "tests/test_process.py",
        "from pkg.machine import Machine, process\n\n\ndef test_process():\n    assert process(Machine(), 'open')\n",
    )
    write(repo, "tests/test_plain.py", "from pkg.machine import Machine, plain\n\n\ndef test_plain():\n    assert plain(Machine)\n")
    commit(repo, "machine")
    edit(repo, "pkg/machine.py", "        return 'open'\n", "        return 'opened'\n")
    tests = selected(review(capsys, repo))
    # h2's state machine: `Machine.on_open` in the table is a reference of the method (no call on an unknown object
    # that uses Machine)
    assert "tests/test_process.py::test_process" in tests
    assert not {"tests/test_plain.py::test_plain", "tests/test_plain.py"} & set(tests)
    # handed out by a function that reads the table, the function stands for the module; `self._transitions` is an
    # instance's attribute, no read of the module's table by a scope no import explains
    edit(repo, "pkg/machine.py", "def process(machine, key):\n    handler, _state = _transitions[key]\n    return handler(machine)\n",
         "def handler_for(key):\n    return _transitions[key][0]\n")
    edit(repo, "tests/test_process.py", "Machine, process", "Machine, handler_for")
    edit(repo, "tests/test_process.py", "process(Machine(), 'open')", "handler_for('open')(Machine())")
    commit(repo, "handler_for")
    edit(repo, "pkg/machine.py", "        return 'opened'\n", "        return 'open'\n")
    tests = selected(review(capsys, repo))
    assert "tests/test_process.py::test_process" in tests
    assert not {"tests/test_plain.py::test_plain", "tests/test_plain.py"} & set(tests)


def test_a_table_a_module_object_is_read_from_by_name_keeps_the_importers_of_its_module(
    tmp_path: Path, capsys: Any
) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/views.py", "def index(request):\n    return 'index'\n")
    write(repo, "pkg/conf.py", "def path(route, view):\n    return (route, view)\n")
    write(repo, "pkg/urls.py", "from pkg import views\nfrom pkg.conf import path\n\nurlpatterns = [path('', views.index)]\n")
    write(
        repo,
        "pkg/resolver.py",
        "import importlib\n\n\ndef resolve(conf, request):\n"
        "    return getattr(importlib.import_module(conf), 'urlpatterns')[0][1](request)\n",
    )
    write(
        repo,
        "tests/test_urls.py",
        "from pkg import urls\nfrom pkg.resolver import resolve\n\n\n"
        "def test_index():\n    assert urls and resolve('pkg.urls', None)\n",
    )
    commit(repo, "urls")
    edit(repo, "pkg/views.py", "    return 'index'\n", "    return 'home'\n")
    # like django's URL resolver, resolve() imports the module by its dotted name and reads the table by its
    # name: no import says so, and the walk keeps the importers of pkg.urls rather than no reader at all
    assert "tests/test_urls.py::test_index" in selected(review(capsys, repo))


def test_a_decorated_function_called_by_name_is_not_reached_through_its_siblings_wrapper(
    tmp_path: Path, capsys: Any
) -> None:
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "pkg/ops.py",
        "def deco(fn):\n    def wrapper(*args):\n        return fn(*args)\n\n    return wrapper\n\n\n"
        "@deco\ndef one(x):\n    return x + 1\n\n\n@deco\ndef two(x):\n    return x * 2\n",
    )
    write(
        repo,
        "tests/test_ops.py",
        "from pkg.ops import one, two\n\n\ndef test_one():\n    assert one(1) == 2\n\n\n"
        "def test_two():\n    assert two(2) == 4\n",
    )
    commit(repo, "ops")
    edit(repo, "pkg/ops.py", "return x + 1", "return x + 1 + 0")
    data = review(capsys, repo)
    assert "deco.wrapper" in impacted(data)  # the wrapper runs it: a caller all the same
    # but test_two's calls of the wrapper run two, not one
    assert set(selected(data)) == {"tests/test_ops.py::test_one"}


def test_a_function_wrapped_by_a_call_written_out_reaches_the_callers_of_the_wrapped_name_only(
    tmp_path: Path, capsys: Any
) -> None:
    repo = make_repo(tmp_path / "repo")
    write(
        repo,
        "pkg/ops.py",
        "def deco(fn):\n    def wrapper(*args):\n        return fn(*args)\n\n    return wrapper\n\n\n"
        "@deco\ndef other(x):\n    return x * 2\n\n\ndef _one(x):\n    return x + 1\n\n\none = deco(_one)\n",
    )
    write(
        repo,
        "tests/test_ops.py",
        "from pkg.ops import one, other\n\n\ndef test_one():\n    assert one(1) == 2\n\n\n"
        "def test_other():\n    assert other(2) == 4\n",
    )
    commit(repo, "ops")
    edit(repo, "pkg/ops.py", "return x + 1", "return x + 1 + 0")
    tests = selected(review(capsys, repo))
    assert "tests/test_ops.py::test_one" in tests
    assert "tests/test_ops.py::test_other" not in tests  # other's calls reach the wrapper, not _one


CLI = '''import sys


def main(argv):
    return len(argv)


def helper():
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


@pytest.mark.parametrize("package_main", ["main([])\n", "if __name__ == '__main__':\n    main([])\n"])
def test_a_script_entry_block_runs_only_for_the_tests_that_run_the_module(
    capsys: Any, tmp_path: Path, package_main: str
) -> None:
    """What `if __name__ == "__main__":` calls is not run on import: a change of it reaches the tests that run the
    module as a command (`-m pkg.cli`, `-m pkg` through pkg/__main__.py, with or without an entry block of its own,
    a path after the interpreter, a console script named as the package), not the tests that import the module."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/cli.py", CLI)
    write(repo, "pkg/__main__.py", "from pkg.cli import main\n\n" + package_main)
    write(repo, "tools/gen.py", "from pkg.cli import main\n\nif __name__ == '__main__':\n    main([])\n")
    write(
        repo,
        "tests/test_commands.py",
        "import subprocess\nimport sys\n\nimport pytest\n\nfrom pkg.cli import helper\n\n\n"
        "def test_helper():\n    assert helper() == 1\n\n\n"
        "def test_module():\n    subprocess.run([sys.executable, '-m', 'pkg.cli', 'x'], check=True)\n\n\n"
        "def test_package():\n    subprocess.run((sys.executable, '-m', 'pkg'), check=True)\n\n\n"
        "def test_script():\n    cmd = [sys.executable, 'tools/gen.py']\n    subprocess.run(cmd, check=True)\n\n\n"
        "def test_console_script():\n    subprocess.check_output(['pkg', 'x'])\n\n\n"
        "def test_not_a_command():\n    assert ['git', 'commit', '-m', 'pkg.cli'] and ['tools/gen.py'] and ['pkg', 'x']\n\n\n"
        # the module a parameter names (charset-normalizer's test_cli.py)
        "@pytest.mark.parametrize('code, module', [(0, 'pkg.cli'), (1, 'json')])\n"
        "def test_parametrized(code, module):\n    subprocess.run([sys.executable, '-m', module])\n",
    )
    commit(repo, "cli")
    changed = CLI.replace("return len(argv)", "return len(argv) + 1")
    write(repo, "pkg/cli.py", changed)
    commit(repo, "change main")
    tests = {t["qualname"]: t for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]}
    assert set(tests) == {"test_module", "test_package", "test_script", "test_console_script", "test_parametrized"}, tests
    write(repo, "pkg/cli.py", changed.replace("sys.exit(main(sys.argv))", "sys.exit(main(sys.argv[1:]))"))
    commit(repo, "change the entry block")
    got = review(capsys, repo, "HEAD~1..HEAD")
    assert [(c["qualname"], c["kind"]) for c in got["changed"]] == [("__main__", "function")]
    assert {t["qualname"] for t in got["tests"]} == {"test_module", "test_parametrized"}
    assert got["findings"] == []
    write(repo, "tools/gen.py", "from pkg.cli import main\n\nif __name__ == '__main__':\n    main([1])\n")
    write(repo, "tests/test_commands.py", "def test_nothing():\n    pass\n")
    commit(repo, "no test runs the tool")
    (finding,) = review(capsys, repo, "HEAD~1..HEAD")["findings"]
    assert finding["rule"] == "CRG003" and finding["file"] == "tools/gen.py", finding
    assert finding["message"].startswith('the script entry block (if __name__ == "__main__") changed'), finding


def test_a_child_interpreter_running_code_given_with_dash_c_runs_what_that_code_uses(capsys: Any, tmp_path: Path) -> None:
    # tldextract's tests: `[sys.executable, "-c", "import tldextract; print(tldextract.extract('x').suffix)"]`, and a
    # `script = """..."""` of the test given the same way
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "from pkg.core import extract, load\n\nTABLE = load()\n")
    write(repo, "pkg/core.py", "def load():\n    return {}\n\n\ndef extract(x):\n    return x\n")
    write(repo, "pkg/other.py", "def helper():\n    return 1\n")
    write(
        repo,
        "tests/test_child.py",
        "import subprocess\nimport sys\n\n\n"
        "def test_inline():\n    subprocess.run([sys.executable, '-c', \"import pkg; print(pkg.extract('x'))\"], check=True)\n\n\n"
        "def test_script():\n    script = '''\nfrom pkg.other import helper\nhelper()\n'''\n"
        "    subprocess.run([sys.executable, '-c', script], check=True)\n\n\n"
        "def test_unrelated():\n    subprocess.run([sys.executable, '-c', 'print(1)'], check=True)\n",
    )
    commit(repo, "child tests")
    for path, old, new, expected in (
        ("pkg/core.py", "return x", "return x + ''", {"test_inline"}),  # called by the script
        # run when the scripts import pkg (`from pkg.other import helper` imports pkg first)
        ("pkg/core.py", "return {}", "return {1: 1}", {"test_inline", "test_script"}),
        ("pkg/other.py", "return 1", "return 2", {"test_script"}),  # imported by name and called
    ):
        edit(repo, path, old, new)
        assert {t["qualname"] for t in review(capsys, repo)["tests"]} == expected, (path, old)
        commit(repo, "change")


def test_a_function_given_to_another_is_called_by_it_but_tested_through_the_scope_that_gives_it(
    capsys: Any, tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "sigs.py", "def is_arity(n, f):\n    return True\n\n\ndef num_args(f):\n    return 1\n")
    write(
        repo,
        "fz.py",
        "import sigs\n\n\ndef check(spec, func, builtin, *args):\n    return builtin(*args)\n\n\n"
        "def arity(n, func):\n    return check(None, func, sigs.is_arity, n, func)\n\n\n"
        "def required(func):\n    return check(None, func, sigs.num_args, func)\n",
    )
    write(
        repo,
        "tests/test_fz.py",
        "from fz import arity, required\n\n\ndef test_arity():\n    assert arity(1, len)\n\n\n"
        "def test_required():\n    assert required(len)\n",
    )
    commit(repo, "fz")
    write(repo, "sigs.py", "def is_arity(n, f):\n    return n > 0\n\n\ndef num_args(f):\n    return 1\n")
    commit(repo, "change is_arity")
    got = review(capsys, repo, "HEAD~1..HEAD")
    depth1 = {(i["qualname"], i["edge"]) for i in got["impacted"] if i["depth"] == 1}
    assert depth1 == {("check", "call"), ("arity", "ref")}, got["impacted"]
    assert [t["qualname"] for t in got["tests"]] == ["test_arity"]  # not test_required: it gives check num_args


def test_a_method_called_on_a_makers_parameter_is_reached_when_a_callers_caller_builds_its_class(
    capsys: Any, tmp_path: Path
) -> None:
    """`cache.setdefault(...)` in a decorator's wrapper, `cache` a parameter of the decorator factory: the name
    alone is weak (`setdefault` is also a dict's), but the code that builds the cache (a caller of a caller of
    the factory) says it is this class."""
    repo = make_repo(tmp_path / "repo")
    cache = (
        "class Cache:\n    def setdefault(self, k, v):\n        return v\n\n\nclass FIFOCache(Cache):\n    pass\n\n\n"
        "def cached(cache):\n    def decorator(func):\n        def wrapper(*a):\n"
        "            return cache.setdefault(a, func(*a))\n\n        return wrapper\n\n    return decorator\n"
    )
    write(repo, "cache.py", cache)
    write(
        repo,
        "func.py",
        "from cache import FIFOCache, cached\n\n\ndef _cache(cache):\n    def decorator(func):\n"
        "        return cached(cache)(func)\n\n    return decorator\n\n\n"
        "def fifo_cache(maxsize):\n    return _cache(FIFOCache())\n",
    )
    write(
        repo,
        "tests/test_func.py",
        "from func import fifo_cache\n\n\ndef test_fifo():\n    assert fifo_cache(2)(lambda n: n)(1) == 1\n\n\n"
        "def test_dict():\n    assert {}.setdefault(1, 2) == 2\n",
    )
    commit(repo, "caches")
    write(repo, "cache.py", cache.replace("        return v\n", "        return [v]\n", 1))
    commit(repo, "change setdefault")
    assert [t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]] == ["test_fifo"]


def test_a_wrapper_a_decorator_of_another_file_returns_runs_for_the_callers_of_each_function_it_decorates(
    capsys: Any, tmp_path: Path
) -> None:
    """`@validator def ipv4` binds ipv4 to the wrapper `validator` returns: a change of the wrapper (or of what it
    calls) reaches the tests that call ipv4 (or `@retry(3) def ipv6`: the factory's decorator's wrapper), not
    the tests of functions the decorator does not decorate."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/utils.py",
        "class ValidationError(Exception):\n    def __init__(self, func):\n        self.func = func\n\n\n"
        "def validator(func):\n    def wrapper(*args):\n        value = func(*args)\n"
        "        return True if value else ValidationError(func)\n\n    return wrapper\n\n\n"
        "def retry(n):\n    def deco(func):\n        def wrapper(*args):\n            return helper(func(*args))\n\n"
        "        return wrapper\n\n    return deco\n\n\ndef helper(x):\n    return x\n",
    )
    write(
        repo,
        "pkg/ip.py",
        "from .utils import retry, validator\n\n\n@validator\ndef ipv4(value):\n    return '.' in value\n\n\n"
        "@retry(3)\ndef ipv6(value):\n    return ':' in value\n\n\ndef plain(value):\n    return value\n",
    )
    write(
        repo,
        "tests/test_ip.py",
        "from pkg.ip import ipv4, ipv6, plain\n\n\ndef test_ipv4():\n    assert ipv4('1.2.3.4')\n\n\n"
        "def test_ipv6():\n    assert ipv6('::1')\n\n\ndef test_plain():\n    assert plain(1)\n",
    )
    commit(repo, "validators")
    edit(repo, "pkg/utils.py", "self.func = func", "self.func = func\n        self.args = ()")
    commit(repo, "change the error")
    assert {t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]} == {"test_ipv4"}
    edit(repo, "pkg/utils.py", "def helper(x):\n    return x", "def helper(x):\n    return x or None")
    commit(repo, "change what the factory's wrapper calls")
    assert {t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]} == {"test_ipv6"}


def test_a_decorator_factory_applied_with_arguments_on_import_selects_the_tests_of_the_importing_module(
    capsys: Any, tmp_path: Path
) -> None:
    """`@dispatch_on("obj") def area` at module level calls `dispatch_on`, then at once the function it returns,
    which runs `make`: a change of `make` breaks the import of every module so decorated, here `tests/test.py`
    (a test file by name: pytest collects it when named, unittest's `test*.py` always). The tests of a module
    that only keeps the factory's result for later (`later = dispatch_on("x")`) are not selected."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/dispatch.py",
        "def make(name):\n    code = compile(name, name, 'eval')\n    return code\n\n\n"
        "def dispatch_on(arg):\n    def gen(func):\n        make(arg)\n        return func\n\n    return gen\n",
    )
    write(
        repo,
        "tests/test.py",
        "import unittest\n\nfrom pkg.dispatch import dispatch_on\n\n\n@dispatch_on('obj')\ndef area(obj):\n"
        "    return 0\n\n\nclass AreaTest(unittest.TestCase):\n    def test_zero(self):\n"
        "        self.assertEqual(len(''), 0)\n",
    )
    write(
        repo,
        "tests/test_later.py",
        "from pkg.dispatch import dispatch_on\n\nlater = dispatch_on('x')\n\n\ndef test_later():\n"
        "    assert later is not None\n",
    )
    commit(repo, "dispatch")
    edit(repo, "pkg/dispatch.py", "    return code\n", "    return code or None\n")
    commit(repo, "change make")
    ids = {t["nodeid"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]}
    assert {i.split("::")[0] for i in ids} == {"tests/test.py"} and "tests/test.py::AreaTest::test_zero" in ids


def test_a_dataclass_post_init_runs_for_every_construction_of_its_class(capsys: Any, tmp_path: Path) -> None:
    """The `__init__` a dataclass generates calls `__post_init__`: a test that makes a `Point` runs it; one
    that only uses another class does not."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/shapes.py",
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Point:\n    x: int\n    y: int\n\n"
        "    def __post_init__(self):\n        self.norm = abs(self.x)\n        self.norm += abs(self.y)\n\n\n"
        "class Label:\n    def __init__(self, text):\n        self.text = text\n",
    )
    write(
        repo,
        "tests/test_shapes.py",
        "from pkg.shapes import Label, Point\n\n\ndef make(x):\n    return Point(x, x)\n\n\n"
        "def test_point():\n    assert make(1).norm == 2\n\n\ndef test_label():\n    assert Label('a').text == 'a'\n",
    )
    commit(repo, "shapes")
    edit(repo, "pkg/shapes.py", "self.norm += abs(self.y)", "self.norm += abs(self.y) + 0")
    commit(repo, "change __post_init__")
    assert {t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]} == {"test_point"}


def test_a_test_class_body_that_runs_a_change_selects_every_test_of_its_module(capsys: Any, tmp_path: Path) -> None:
    """`variant = make(1)` in the body of a test class runs when pytest imports the module: if `make` breaks, so
    does the import, and every test of the module fails, not only the class's; another module's tests do not."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/build.py", "def make(n):\n    value = n + 1\n    return value\n\n\ndef other():\n    return 2\n")
    write(
        repo,
        "tests/test_build.py",
        "from pkg.build import make, other\n\n\nclass TestMade:\n    variant = make(1)\n\n    def test_variant(self):\n"
        "        assert self.variant == 2\n\n\nclass TestOther:\n    def test_other(self):\n        assert other() == 2\n",
    )
    write(repo, "tests/test_more.py", "from pkg.build import other\n\n\ndef test_more():\n    assert other() == 2\n")
    commit(repo, "build")
    edit(repo, "pkg/build.py", "value = n + 1", "value = n + 1 + 0")
    commit(repo, "change make")
    ids = {t["nodeid"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]}
    assert {i.split("::")[0] for i in ids} == {"tests/test_build.py"}
    assert "tests/test_build.py::TestOther::test_other" in ids or "tests/test_build.py" in ids


def test_a_property_setter_is_not_reached_from_a_scope_reading_every_property_by_name(
    capsys: Any, tmp_path: Path
) -> None:
    """prettytable: `_get_options` reads each option with `getattr(self, option)`, which may run any getter; a
    changed setter stands for its getter's readers, not for that guess (every rendering test would be selected)."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/table.py",
        "class Table:\n    _options = ['width']\n\n    def __init__(self):\n        self._width = 0\n\n"
        "    @property\n    def width(self):\n        return self._width\n\n"
        "    @width.setter\n    def width(self, val):\n        self._width = int(val)\n\n"
        "    def options(self):\n        return {o: getattr(self, o) for o in self._options}\n",
    )
    write(
        repo,
        "tests/test_render.py",
        "from pkg.table import Table\n\n\ndef test_options():\n    assert Table().options()\n\n\n"
        "def test_width():\n    t = Table()\n    t.width = 3\n    assert t.width == 3\n",
    )
    commit(repo, "table")
    edit(repo, "pkg/table.py", "self._width = int(val)", "self._width = int(val) + 0")
    commit(repo, "change the setter")
    assert {t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]} == {"test_width"}


def test_a_class_a_test_function_defines_runs_with_that_test_only(capsys: Any, tmp_path: Path) -> None:
    """`class X(with_meta(Meta))` inside a test function runs when that test runs, not when pytest imports the
    module: the other tests of the module are not selected (six's with_metaclass selected all 200)."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/meta.py", "def with_meta(meta):\n    base = meta('tmp', (), {})\n    return base\n")
    write(
        repo,
        "tests/test_classes.py",
        "from pkg.meta import with_meta\n\n\ndef test_meta():\n    class X(with_meta(type)):\n        pass\n\n\n"
        "def test_unused():\n    class Y(with_meta(type)):\n        pass\n    assert 1\n\n\n"
        "def test_other():\n    assert 1\n\n\nclass TestGroup:\n    def test_in_class(self):\n        assert 1\n",
    )
    commit(repo, "meta")
    edit(repo, "pkg/meta.py", "base = meta('tmp', (), {})", "base = meta('tmp', (object,), {})")
    commit(repo, "change with_meta")
    assert {t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]} == {"test_meta", "test_unused"}


def test_a_function_a_parameter_defaults_to_is_reached_from_the_users_of_that_function(
    capsys: Any, tmp_path: Path
) -> None:
    """`def __init__(self, default=enc_default)` holds `enc_default`, which `json.dumps(default=self.default)`
    calls later: the tests that make a `Fmt` with the default reach it."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/f.py",
        "import json\n\n\ndef enc_default(obj):\n    return str(obj)\n\n\nclass Fmt:\n"
        "    def __init__(self, default=enc_default, n: int = 0):\n        self.default = default\n\n"
        "    def dump(self, x):\n        return json.dumps(x, default=self.default)\n",
    )
    write(
        repo,
        "tests/test_f.py",
        "from pkg.f import Fmt\n\n\ndef test_dump():\n    assert Fmt().dump({1: object()})\n\n\n"
        "def test_other():\n    assert 1\n",
    )
    commit(repo, "formatter")
    edit(repo, "pkg/f.py", "return str(obj)", "return str(obj) + ''")
    commit(repo, "change the default encoder")
    assert {t["qualname"] for t in review(capsys, repo, "HEAD~1..HEAD")["tests"]} == {"test_dump"}


def test_a_method_nothing_calls_in_a_test_class_a_library_makes_selects_its_file(tmp_path: Path, capsys: Any) -> None:
    # clize: `Fixtures = repeated_test.WithTestClass(Tests)`; `class DecoHelpTests(FunctionFixtures)` holds tuples its
    # metaclass makes into `test_<name>` methods calling `_test`: nothing in the index calls `_test`
    repo = project(tmp_path)
    write(
        repo,
        "tests/fixtures.py",
        "import unittest\n\nfrom repeated import WithTestClass\n\nFixtures = WithTestClass(unittest.TestCase)\n\n\n"
        "class ApiFixtures(Fixtures):\n    pass\n",
    )
    write(
        repo,
        "tests/test_made.py",
        "from pkg.core import api\nfrom tests.fixtures import ApiFixtures\n\n\nclass ApiTests(ApiFixtures):\n"
        "    def _test(self, x, expected):\n        self.assertEqual(api(x), expected)\n\n    one = 1, 5\n",
    )
    write(
        repo,
        "tests/test_plain.py",
        "from pkg.core import api\n\n\nclass ApiHelperTests:\n    def _check(self):\n        return api(2)\n",
    )
    commit(repo, "made tests")
    edit(repo, "pkg/core.py", "return x + 1", "return x + 1 + 0")  # leaf <- mid <- top <- api <- ApiTests._test
    tests = selected(review(capsys, repo))
    assert tests["tests/test_made.py"] == (4, "graph")
    assert not [t for t in tests if t.startswith("tests/test_plain.py")]  # a plain class: pytest collects nothing there


def test_a_rule_ply_finds_by_name_is_reached_from_the_users_of_the_lexer_it_builds(tmp_path: Path, capsys: Any) -> None:
    """pyhcl: `hcl.loads` parses with a parser whose `Lexer()` builds PLY's lexer by `lex.lex(module=self)`; the
    lexer calls the class's `t_*` rules by name. A test that only tokenizes with a lexer of its own runs none."""
    repo = project(tmp_path)
    write(repo, "pkg/ply/__init__.py", "")
    write(repo, "pkg/ply/lex.py", "def lex(module=None, debug=False):\n    return module\n")
    write(
        repo,
        "pkg/hcl.py",
        "from .ply import lex\n\n\nclass Lexer:\n    def t_NUMBER(self, t):\n        return int(t)\n\n"
        "    def __init__(self):\n        self.lex = lex.lex(module=self, debug=False)\n\n\n"
        "class Plain:\n    def t_NUMBER(self, t):\n        return t\n\n\n"
        "def loads(text):\n    return [Lexer(), text]\n",
    )
    write(
        repo,
        "tests/test_use.py",
        "from pkg.hcl import Plain, loads\n\n\ndef test_loads():\n    assert loads('1')\n\n\n"
        "def test_plain():\n    assert Plain().t_NUMBER('1')\n",
    )
    commit(repo, "hcl")
    edit(repo, "pkg/hcl.py", "        return int(t)\n", "        return float(t)\n")
    got = selected(review(capsys, repo))
    assert "tests/test_use.py::test_loads" in got
    assert "tests/test_use.py::test_plain" not in got


def test_a_special_method_the_module_sets_on_its_class_runs_for_the_users_of_the_class(tmp_path: Path, capsys: Any) -> None:
    """frozendict: `frozendict.__or__ = frozendict_or` below the class; its tests hold the class in an attribute of the
    test class (`FrozendictClass = frozendict`) and run `self.FrozendictClass(...) | other`, whose receiver is untyped:
    the users of the class stand for those of its special methods, this one as well."""
    repo = project(tmp_path)
    write(
        repo,
        "pkg/fd.py",
        "class frozendict(dict):\n    def __new__(cls, *args):\n        return dict.__new__(cls, *args)\n\n\n"
        "def frozendict_or(self, other):\n    return frozendict({**self, **other})\n\n\n"
        "frozendict.__or__ = frozendict_or\n",
    )
    write(
        repo,
        "tests/test_union.py",
        "from pkg.fd import frozendict\n\n\nclass TestUnion:\n    FrozendictClass = frozendict\n\n"
        "    def test_or(self):\n        assert self.FrozendictClass({1: 2}) | {3: 4}\n",
    )
    commit(repo, "fd")
    edit(repo, "pkg/fd.py", "    return frozendict({**self, **other})\n", "    return frozendict({**other, **self})\n")
    assert "tests/test_union.py::TestUnion::test_or" in selected(review(capsys, repo))


def test_a_unittest_module_named_for_unittest_discovery_fails_to_import_with_its_package(tmp_path: Path, capsys: Any) -> None:
    """jsbeautifier: `def beautify(string, opts=default_options())` in the package's `__init__.py` runs on import of any
    module below it; `unpackers/tests/testpacker.py` (unittest's `test*.py`, not pytest's `test_*.py`) imports one of
    them, so every test of it fails when `default_options` breaks."""
    repo = project(tmp_path)
    write(repo, "pkg/options.py", "def default_options():\n    return {'indent': 4}\n")
    write(repo, "pkg/__init__.py", "from pkg.options import default_options\n\n\ndef beautify(text, opts=default_options()):\n    return text\n")
    write(repo, "pkg/unpackers/__init__.py", "")
    write(repo, "pkg/unpackers/packer.py", "def unpack(text):\n    return text[::-1]\n")
    write(repo, "pkg/unpackers/tests/__init__.py", "")
    write(
        repo,
        "pkg/unpackers/tests/testpacker.py",
        "import unittest\n\nfrom pkg.unpackers.packer import unpack\n\n\nclass TestPacker(unittest.TestCase):\n"
        "    def test_unpack(self):\n        self.assertEqual(unpack('ab'), 'ba')\n",
    )
    commit(repo, "packer")
    edit(repo, "pkg/options.py", "    return {'indent': 4}\n", "    return {'indent': 2}\n")
    assert "pkg/unpackers/tests/testpacker.py::TestPacker::test_unpack" in selected(review(capsys, repo))
