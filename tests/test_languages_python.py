"""Python extraction: definitions, calls, imports, bases, tests, recovery from syntax errors."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b'''"""Shapes and their areas."""
import os.path as osp
from ..geometry import Point, Vector as V
from .util import *


class Shape(Base, metaclass=ABCMeta):
    """A closed figure."""

    @property
    def area(self) -> float:
        return self.width * self.height

    @staticmethod
    def parse(text, *args, sep=",", **kw):
        """Read a shape."""
        parts = osp.join(text, sep=sep)
        return Shape.build(parts, *args)

    class Meta:
        pass


def helper(x, /, y=1, *, z):
    def inner():
        return helper(1, z=2)
    return map(inner, [x])
'''


def test_definitions_have_qualnames_lines_signatures_and_docstrings() -> None:
    result = parse(SOURCE, "pkg/shapes.py", "python")
    symbols = {s.qualname: s for s in result.symbols}

    assert symbols["<module>"].name == "pkg.shapes"
    assert symbols["<module>"].docstring == "Shapes and their areas."
    shape = symbols["Shape"]
    assert (shape.kind, shape.start_line, shape.end_line) == ("class", 7, 21)
    assert shape.signature == "class Shape(Base, metaclass=ABCMeta)"
    assert shape.docstring == "A closed figure."
    area = symbols["Shape.area"]
    assert (area.kind, area.parent, area.start_line) == ("method", "Shape", 10)  # decorators included
    assert area.decorators == ("property",)
    parse_ = symbols["Shape.parse"]
    assert parse_.params == ("text", "*args", "sep=", "**kw")
    assert parse_.docstring == "Read a shape."
    assert symbols["Shape.Meta"].kind == "class"
    assert symbols["helper"].params == ("x", "/", "y=", "*", "z")
    assert symbols["helper.inner"].kind == "function"


def test_a_signature_ends_at_the_colon_of_its_header() -> None:
    # zope.interface's `def _create_ABCInterface():` has a comment before its body: the signature is no annotation
    source = b'def make():  # a two-step process (see below)\n    return 1\n\n\nclass A(B):  # note\n    pass\n\n\n' \
        b'def k(x={"a": 1}) -> dict[str, int]: return x\n'
    symbols = {s.qualname: s for s in parse(source, "m.py", "python").symbols}
    assert symbols["make"].signature == "def make()"
    assert symbols["A"].signature == "class A(B)"
    assert symbols["k"].signature == 'def k(x={"a": 1}) -> dict[str, int]'
    # hyperlink's PEP 484 type comments: the return type is the annotation
    typed = b'def to_uri(self):\n    # type: () -> URL\n    return 1\n\n\ndef g(x) -> int:  # type: () -> str\n    return x\n'
    symbols = {s.qualname: s for s in parse(typed, "m.py", "python").symbols}
    assert symbols["to_uri"].signature == "def to_uri(self) -> URL"
    assert symbols["g"].signature == "def g(x) -> int"


def test_calls_have_receivers_scopes_and_argument_shapes() -> None:
    result = parse(SOURCE, "pkg/shapes.py", "python")
    calls = [r for r in result.references if r.kind == "call"]

    assert Reference("call", "join", "osp", 17, "Shape.parse", 1, ("sep",)) in calls
    assert Reference("call", "build", "Shape", 18, "Shape.parse", None, ()) in calls  # *args: arity unknown
    assert Reference("call", "helper", "", 26, "helper.inner", 1, ("z",)) in calls
    refs = {(r.kind, r.name, r.scope) for r in result.references}
    assert ("ref", "inner", "helper") in refs  # passed to map()
    assert ("decorator", "property", "Shape.area") in refs  # decorators are inside the span


def test_imports_and_bases() -> None:
    result = parse(SOURCE, "pkg/shapes.py", "python")

    assert result.imports == [
        Import("os.path", None, "osp", 0, 2),
        Import("geometry", "Point", None, 2, 3),
        Import("geometry", "Vector", "V", 2, 3),
        Import("util", "*", None, 1, 4),
    ]
    assert result.bases == [Base("Shape", "Base", 7)]  # metaclass= is no base


def test_pytest_and_unittest_tests_are_marked() -> None:
    source = b"""import unittest

class TestParser:
    def test_reads(self):
        assert parse("x")

    def helper(self):
        pass

def test_top():
    pass

class Legacy(unittest.TestCase):
    def test_old(self):
        pass
"""
    in_tests = {s.qualname: s.is_test for s in parse(source, "tests/test_parser.py", "python").symbols}
    assert in_tests == {
        "<module>": True,
        "TestParser": True,
        "TestParser.test_reads": True,
        "TestParser.helper": False,
        "test_top": True,
        "Legacy": True,
        "Legacy.test_old": True,
    }
    elsewhere = {s.qualname: s.is_test for s in parse(source, "app/parser.py", "python").symbols}
    assert elsewhere["TestParser"] is False and elsewhere["test_top"] is False
    assert elsewhere["Legacy"] is True and elsewhere["Legacy.test_old"] is True  # TestCase anywhere


def test_a_testcase_imported_under_another_name_makes_test_classes() -> None:
    # semantic_version's `from django.test import TestCase as DjangoTestCase`
    source = b"""from django.test import TestCase as DjangoTestCase
from .helpers import Helper as Base


class FieldMigrationTests(DjangoTestCase):
    def test_migrate(self):
        pass


class Other(Base):
    def test_like(self):
        pass
"""
    marks = {s.qualname: s.is_test for s in parse(source, "tests/django_checks.py", "python").symbols}
    assert marks["FieldMigrationTests"] is True and marks["FieldMigrationTests.test_migrate"] is True
    assert marks["Other"] is False and marks["Other.test_like"] is False
    bases = parse(source, "tests/django_checks.py", "python").bases
    assert [b.text for b in bases] == ["DjangoTestCase", "Base"]  # stored as written: resolution follows the import


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""def good(a):
    return a + 1

def broken(:
    pass

class After:
    def m(self):
        good(2)
"""
    result = parse(source, "x.py", "python")

    assert result.has_errors is True
    qualnames = {s.qualname for s in result.symbols}
    assert {"good", "After", "After.m"} <= qualnames
    assert Reference("call", "good", "", 9, "After.m", 1, ()) in result.references


def test_a_comment_after_a_decorator_is_no_part_of_it() -> None:
    source = b"class Spec:\n    @property  # type: ignore[override]\n    def prereleases(self):\n        return True\n"
    (method,) = [s for s in parse(source, "spec.py", "python").symbols if s.name == "prereleases"]
    assert method.decorators == ("property",)


def test_module_level_statements_record_which_variable_holds_each_name_they_store() -> None:
    source = b"""from .filters import FILTERS as DEFAULTS
FORMATS = {
    "pipe": Format(line=_pipe_line, cols=[str]),
}
A = B = plain
TABLE["x"] = setter
TABLE.update({"y": updated})
register(loose)
if FLAG:
    obj.attr = attached


def reader(name):
    FORMATS.get(name)
    for f in DEFAULTS:
        f()
    return TABLE[name]


def local(name, TABLE):
    return TABLE[name]
"""
    refs = parse(source, "pkg/fmt.py", "python").references
    holds = {(r.name, r.receiver) for r in refs if r.kind == "holds"}
    assert {("_pipe_line", "FORMATS"), ("plain", "A"), ("plain", "B"), ("setter", "TABLE"), ("updated", "TABLE")} <= holds
    assert {("loose", ""), ("attached", "")} <= holds  # stored where no variable says who reads it
    assert not any(name == "str" for name, _ in holds)  # builtins are no definitions
    reads = {(r.name, r.scope) for r in refs if r.kind == "reads"}
    # a subscript and a loop over module-level names (no call reference records them); `TABLE["x"] = ...`
    # is a write, and a parameter TABLE no module-level one
    assert reads == {("DEFAULTS", "reader"), ("TABLE", "reader")}


def test_the_script_entry_block_is_a_scope_and_command_lines_spawn_modules() -> None:
    src = b"""import subprocess, sys

def main():
    pass

if __name__ == "__main__":
    main()

if DEBUG:
    main()

if __name__ == '__main__':
    main()
else:
    main()

def test_run():
    subprocess.run([sys.executable, "-m", "pkg.cli", "--x"])
    subprocess.run(("python3", "./tools/gen.py"))
    subprocess.run(["git", "commit", "-m", "message"])
    names = ["a.py", "b.py"]
    words = ["tool", "x"]
"""
    result = parse(src, "tests/test_x.py", "python")
    mains = [(s.kind, s.qualname, s.start_line, s.end_line) for s in result.symbols if s.name == "__main__"]
    assert mains == [("function", "__main__", 6, 7)]  # not the other ifs, nor a guard with an else branch
    calls = sorted((r.line, r.scope) for r in result.references if r.kind == "call" and r.name == "main")
    assert calls == [(7, "__main__"), (10, "<module>"), (13, "<module>"), (15, "<module>")]
    spawns = [(r.name, r.receiver, r.scope) for r in result.references if r.kind == "spawn"]
    # a plain first word of a process's command line may be a console script (resolved only if a package of the
    # repository is named so); a list of words given to no process is none
    assert spawns == [
        ("__main__", "pkg.cli", "test_run"),
        ("__main__", "tools/gen.py", "test_run"),
        ("__main__", "git", "test_run"),
    ]


def test_fixtures_named_test_and_classes_a_function_defines_are_no_tests() -> None:
    # configobj: `@pytest.fixture def testconfig1()`; six: `def test_assertCountEqual(): class TestAssertCountEqual(
    # unittest.TestCase): def test(self)`: pytest collects neither, so `file::testconfig1` would stop it at "not found"
    source = b"""import unittest

import pytest


@pytest.fixture
def testconfig1():
    return {}


def test_uses(testconfig1):
    assert testconfig1 == {}


def test_count_equal():
    class TestCountEqual(unittest.TestCase):
        def test(self):
            self.assertTrue(True)

    TestCountEqual("test").test()


class TestValues:
    @pytest.fixture
    def testconfig3(self):
        return {}

    def test_values(self, testconfig3):
        assert testconfig3 == {}
"""
    marked = {s.qualname: s.is_test for s in parse(source, "tests/test_configobj.py", "python").symbols}
    assert marked == {
        "<module>": True,
        "testconfig1": False,
        "test_uses": True,
        "test_count_equal": True,
        "test_count_equal.TestCountEqual": False,
        "test_count_equal.TestCountEqual.test": False,
        "TestValues": True,
        "TestValues.testconfig3": False,
        "TestValues.test_values": True,
    }


def test_a_collect_file_hook_records_the_file_name_tests_it_makes() -> None:
    src = b"""import pytest

def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".yaml" and file_path.name.startswith("test"):
        return YamlFile.from_parent(parent, path=file_path)
    if fnmatch.fnmatch(file_path.name, 'case_*.txt') or file_path.ext in (".yml", ".json"):
        raise ValueError("not a case file: see docs/cases.md")
    if file_path.name == "cases.toml" or str(file_path).endswith("_spec.json"):
        return None

def other_hook(path):
    return path.endswith(".json")
"""
    result = parse(src, "tests/conftest.py", "python")
    collects = sorted((r.name, r.receiver) for r in result.references if r.kind == "collects")
    # the message and another function's literal are no name tests
    assert collects == [
        (".json", "suffix"),
        (".yaml", "suffix"),
        (".yml", "suffix"),
        ("_spec.json", "suffix"),
        ("case_*.txt", "glob"),
        ("cases.toml", "name"),
        ("test", "prefix"),
    ]
    assert {r.scope for r in result.references if r.kind == "collects"} == {"pytest_collect_file"}


def test_facts_of_alternatives_tuples_generators_and_calls_of_self() -> None:
    source = b"""class Handler:
    def __init__(self, key=None):
        self.key = key or make_key
        self.pick = a if key else b

    def __call__(self):
        return State()

    def __enter__(self):
        state = self()
        return list(self), tuple(state), set(self)


def choose(strings):
    return strings, _padleft


def align(strings):
    strings, padfn = choose(strings)
    return padfn


def numbers():
    yield 1
    yield 2
"""
    refs = parse(source, "pkg/h.py", "python").references
    facts = {(r.kind, r.name, r.receiver, r.scope) for r in refs}
    # `x = a or b`, `x = a if c else b`: x holds either operand
    assert {("alias", "self.key", "key", "Handler.__init__"), ("alias", "self.key", "make_key", "Handler.__init__")} <= facts
    assert {("alias", "self.pick", "a", "Handler.__init__"), ("alias", "self.pick", "b", "Handler.__init__")} <= facts
    # self() runs __call__; list(x) and tuple(x) ask x's length, set(x) does not
    assert ("call", "__call__", "self", "Handler.__enter__") in facts
    assert ("call", "__len__", "self", "Handler.__enter__") in facts
    assert ("call", "__len__", "state", "Handler.__enter__") in facts
    assert sum(1 for r in refs if r.kind == "call" and r.name == "__len__") == 2
    # positions of a returned tuple and of an unpacking
    assert {("alias", "return#0", "strings", "choose"), ("alias", "return#1", "_padleft", "choose")} <= facts
    assert {("unpack", "strings", "choose#0", "align"), ("unpack", "padfn", "choose#1", "align")} <= facts
    # one `yields` reference per generator function
    assert [(r.name, r.scope) for r in refs if r.kind == "yields"] == [("yield", "numbers")]


def test_parameter_defaults_are_evaluated_where_the_def_runs() -> None:
    source = (
        b"class Retrying:\n"
        b"    def __init__(self, retry=make_retry(), stop: int = limits.default(), n=3, key=lambda v: pick(v)):\n"
        b"        self.retry = retry or make_retry()\n"
    )
    calls = [(r.name, r.scope, r.line) for r in parse(source, "m.py", "python").references if r.kind == "call"]
    # run when the class body runs (on import), and their values are __init__'s
    assert {("make_retry", "Retrying", 2), ("default", "Retrying", 2)} <= set(calls)
    assert {("make_retry", "Retrying.__init__", 2), ("default", "Retrying.__init__", 2)} <= set(calls)
    assert ("make_retry", "Retrying.__init__", 3) in calls  # the call in the body
    assert ("pick", "Retrying.__init__", 2) in calls and ("pick", "Retrying", 2) not in calls  # a lambda runs when called


def test_decorator_arguments_are_evaluated_where_the_def_runs() -> None:
    source = (
        b"@retry(stop=stop_after(3))\ndef flaky():\n    return work()\n\n\n"
        b"@pytest.mark.parametrize('v', [lf('db'), cases()])\ndef test_v(v):\n    assert v\n"
    )
    refs = {(r.kind, r.name, r.scope) for r in parse(source, "test_m.py", "python").references}
    assert {("call", "stop_after", "<module>"), ("call", "cases", "<module>")} <= refs  # on import
    assert ("call", "cases", "test_v") in refs  # whose values the test gets
    assert {("call", "retry", "flaky"), ("call", "work", "flaky")} <= refs  # the decorator stays with its function
    assert ("call", "retry", "<module>") not in refs
    assert ("fixture", "db", "test_v") in refs and ("fixture", "db", "<module>") not in refs  # a fixture the test takes


def test_a_module_name_made_at_run_time_under_a_package_is_a_module_prefix() -> None:
    source = (
        b"import importlib\nfrom importlib import import_module\n\n\ndef load(name, kind):\n"
        b"    a = import_module(f'marko.ext.{name}')\n    b = importlib.import_module('markdown.extensions.' + name)\n"
        b"    c = __import__('dialects.%s' % kind)\n    d = import_module(name)\n    e = import_module(f'{name}.ext')\n"
        b"    return a, b, c, d, e, import_module('pkg.whole')\n"
    )
    refs = [(r.name, r.receiver, r.line) for r in parse(source, "m.py", "python").references if r.kind == "modprefix"]
    assert refs == [("ext", "marko", 6), ("extensions", "markdown", 7), ("dialects", "", 8)]


def test_a_cast_returned_name_is_returned_as_the_name() -> None:
    # pycountry's typed decorator: `return cast(F, load_if_needed)` returns its wrapper, as `return load_if_needed`
    source = b"from typing import cast\n\n\ndef lazy_load(f):\n    def load_if_needed(self):\n        return f(self)\n\n    return cast(F, load_if_needed)\n"
    refs = {(r.kind, r.name, r.receiver) for r in parse(source, "m.py", "python").references if r.scope == "lazy_load"}
    assert ("alias", "return", "load_if_needed") in refs and ("ref", "load_if_needed", "") in refs


def test_functions_given_in_parentheses_to_break_a_line_are_references() -> None:
    source = (
        "from pkg import kw\n\n\nV = create(\n    validators={\n        \"a\": kw.a,\n        \"b\": (\n"
        "            kw.b\n        ),\n        \"c\": (\n            local\n        ),\n    },\n"
        "    default=(\n        kw.d\n    ),\n)\n"
    )
    refs = {(r.kind, r.name, r.receiver, r.line) for r in parse(source.encode(), "pkg/v.py", "python").references}
    # jsonschema's `"unevaluatedProperties": (\n _legacy_keywords.unevaluatedProperties_draft2019\n),`
    assert {("ref", "a", "kw", 6), ("ref", "b", "kw", 8), ("ref", "local", "", 11), ("ref", "d", "kw", 15)} <= refs


def test_the_class_super_is_given_is_named_as_a_type() -> None:
    source = (
        "from pkg import Size, Unit\n\n\nclass Big(Size):\n    def __init__(self, n):\n"
        "        super(Big, self).__init__(n)\n\n\n"
        "def same(a, b):\n    return isinstance(b, (int, Unit)) or issubclass(a, Size)\n"
    )
    refs = {(r.kind, r.name, r.line) for r in parse(source.encode(), "pkg/v.py", "python").references}
    # super's first argument: a type, as in an annotation
    assert ("type", "Big", 6) in refs and ("ref", "Big", 6) not in refs
    # an isinstance or issubclass check names a value: the object checked comes in there, and its special methods run
    # there (bitmath's `best_prefix`: `isinstance(self, Byte)`, then `abs(self) < Byte(1)`)
    assert {("ref", "Unit", 10), ("ref", "Size", 10)} <= refs
