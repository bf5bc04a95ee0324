"""Resolution of references to symbols, import-aware, on real repositories indexed by the real pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from crg_review.gitio import Repo
from crg_review.indexer import Source, update_index
from crg_review.store import Store

from .helpers import git, make_repo, write

Edge = tuple[str, str, str, str, str, str]  # src path, src qualname, dst path, dst qualname, kind, resolution


def index(repo: Path, files: dict[str, str], db: Path) -> tuple[set[Edge], list[list[object]], dict[str, object]]:
    for path, text in files.items():
        write(repo, path, text)
    git(repo, "add", "-A")
    store = Store.open(db)
    try:
        update_index(store, Repo(repo), Source("staged"))
        dump = store.dump()
        stats = store.stats()
    finally:
        store.close()
    edges = {tuple(e[:6]) for e in dump["edges"]}
    return edges, dump["edges"], stats  # type: ignore[return-value]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def calls(edges: set[Edge], src: str) -> set[tuple[str, str, str]]:
    """(dst path, dst qualname, resolution) of the call edges leaving ``src`` (``path::qualname``)."""
    path, qualname = src.split("::")
    return {(e[2], e[3], e[5]) for e in edges if e[0] == path and e[1] == qualname and e[4] == "call"}


PKG = {
    "pkg/__init__.py": "from .core import Engine, run\nfrom .util import *\n",
    "pkg/util.py": "def helper(x):\n    return [x]\n\ndef _private():\n    return 1\n",
    "pkg/core.py": """import os
import pkg.util
import pkg.util as pu
from . import util
from .util import helper as h


class Base:
    def go(self):
        return self.step()

    def step(self):
        return 1

    @classmethod
    def make(cls):
        return cls.build()

    @classmethod
    def build(cls):
        return cls()


class Engine(Base):
    def __init__(self, n):
        self.n = n

    def step(self):
        super().step()
        return h(self.n)

    @property
    def size(self):
        return os.path.join("a")

    def all_forms(self):
        pkg.util.helper(1)
        pu.helper(2)
        util.helper(3)
        return self.size


def deco(fn):
    return fn


@deco
def run(n):
    e = Engine(n)
    callback(_visit)
    return e.go()


def callback(fn):
    return fn()


def _visit():
    return 0


def outer():
    def inner():
        return 1
    return inner()
""",
}


def test_python_import_forms_resolve_to_the_defining_symbol(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, PKG, tmp_path / "i.db")
    forms = calls(edges, "pkg/core.py::Engine.all_forms")
    helper = ("pkg/util.py", "helper")
    # import pkg.util / import pkg.util as pu / from . import util: module attribute calls
    assert (*helper, "module") in forms
    # from .util import helper as h (relative, aliased)
    assert (*helper, "import") in calls(edges, "pkg/core.py::Engine.step")
    # `from pkg import run` through the package's re-export reaches the defining module
    write(repo, "tests/test_core.py", "from pkg import run, helper\n\ndef test_run():\n    run(1)\n    helper(2)\n")
    edges, _, _ = index(repo, {}, tmp_path / "i.db")
    test_calls = calls(edges, "tests/test_core.py::test_run")
    assert ("pkg/core.py", "run", "import") in test_calls
    assert (*helper, "import") in test_calls  # through `from .util import *` in pkg/__init__.py


def test_methods_resolve_through_self_cls_super_and_bases(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, PKG, tmp_path / "i.db")
    go = calls(edges, "pkg/core.py::Base.go")
    assert ("pkg/core.py", "Base.step", "self") in go
    assert ("pkg/core.py", "Engine.step", "dispatch") in go  # the override a self call can reach
    assert ("pkg/core.py", "Base.step", "super") in calls(edges, "pkg/core.py::Engine.step")
    assert ("pkg/core.py", "Base.build", "self") in calls(edges, "pkg/core.py::Base.make")  # cls.build()


def test_constructors_properties_decorators_callbacks_and_nested_functions(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, PKG, tmp_path / "i.db")
    run = calls(edges, "pkg/core.py::run")
    assert ("pkg/core.py", "Engine", "local") in run
    assert ("pkg/core.py", "Engine.__init__", "constructor") in run
    assert ("pkg/core.py", "Base.go", "typed") in run  # e = Engine(n); e.go() via the base class
    assert ("pkg/core.py", "Engine.size", "property") in calls(edges, "pkg/core.py::Engine.all_forms")
    assert ("pkg/core.py", "deco", "local") in calls(edges, "pkg/core.py::run")  # @deco is a call of deco
    refs = {(e[2], e[3]) for e in edges if e[0] == "pkg/core.py" and e[1] == "run" and e[4] == "ref"}
    assert ("pkg/core.py", "_visit") in refs  # passed by name
    assert ("pkg/core.py", "outer.inner", "local") in calls(edges, "pkg/core.py::outer")


def test_external_and_builtin_calls_are_counted_not_guessed(repo: Path, tmp_path: Path) -> None:
    edges, _, stats = index(repo, PKG, tmp_path / "i.db")
    assert not any(e[3] == "join" for e in edges)  # os.path.join is not a repository function
    reasons = stats["unresolved_by_reason"]
    assert isinstance(reasons, dict) and reasons.get("external", 0) >= 1 and reasons.get("builtin", 0) >= 1


def test_a_variable_of_the_scope_is_no_name_match_of_a_function_elsewhere(repo: Path, tmp_path: Path) -> None:
    files = {
        "handlers.py": "def handler(x):\n    return x\n\n\ndef step(x):\n    return x\n",
        "use.py": (
            "import importlib\n\n\ndef by_name(name):\n    handler = getattr(importlib, name)\n    return handler(1)\n\n\n"
            "def each(steps):\n    for step in steps:\n        step(2)\n\n\n"
            "def unknown():\n    return handler(3)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "use.py::by_name") == set()  # a variable holding what getattr gave
    assert calls(edges, "use.py::each") == set()  # a loop variable
    # a name nothing in the file binds is still matched by name
    assert calls(edges, "use.py::unknown") == {("handlers.py", "handler", "name-match")}


def test_a_value_in_parentheses_or_at_the_end_of_a_chain_types_each_name(repo: Path, tmp_path: Path) -> None:
    # black breaks a long right side into `x = (` ... `)`; zope.interface's `cache = self._v_cache = (Cache(...))`
    edges, _, _ = index(
        repo,
        {
            "m.py": "class Foo:\n    def go(self):\n        return 1\n\n\nclass Other:\n    def go(self):\n        return 2\n\n\n"
            "def wrapped():\n    x = (\n        Foo()\n    )\n    return x.go()\n\n\n"
            "def chained():\n    y = z = (Foo())\n    return y.go() + z.go()\n",
        },
        tmp_path / "i.db",
    )
    for scope in ("m.py::wrapped", "m.py::chained"):
        assert {c for c in calls(edges, scope) if c[1].endswith(".go")} == {("m.py", "Foo.go", "typed")}, scope


def test_a_walrus_binds_a_variable_as_an_assignment_does(repo: Path, tmp_path: Path) -> None:
    # tinycss2's tests: `if not (color := parse_color(text)): ...` then `(*coordinates, alpha) = color`
    files = {
        "colors.py": (
            "class Color:\n    def __iter__(self):\n        return iter((1, 2))\n\n    def hue(self):\n        return 1\n\n\n"
            "def parse_color(text):\n    return Color()\n"
        ),
        "use.py": (
            "from colors import parse_color\n\n\ndef check(text):\n    if not (color := parse_color(text)):\n"
            "        return None\n    (*coordinates, alpha) = color\n    return color.hue()\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "use.py::check") == {
        ("colors.py", "parse_color", "import"),
        ("colors.py", "Color.__iter__", "typed"),
        ("colors.py", "Color.hue", "typed"),
    }


def test_an_attribute_of_what_a_call_makes_is_typed_by_the_class_methods(repo: Path, tmp_path: Path) -> None:
    # semantic_version's `self._clause = Spec(s).clause`: a Clause, not a Spec
    files = {
        "spec.py": (
            "class Clause:\n    def match(self, v):\n        return True\n\n\n"
            "class Spec:\n    def __init__(self, s):\n        self.clause = Clause()\n\n    def match(self, v):\n"
            "        return False\n\n\n"
            "class Holder:\n    def __init__(self, s):\n        self._clause = Spec(s).clause\n\n"
            "    def check(self, v):\n        return self._clause.match(v)\n"
        ),
    }
    files["fluent.py"] = (
        "class Parser:\n    def map(self, f):\n        return Parser()\n\n    def __or__(self, other):\n        return self\n\n\n"
        "def regex(p):\n    return Parser()\n\n\ndef alt(group):\n    simple = regex('[0-9]+').map(int)\n    return simple | group\n"
    )
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "spec.py::Holder.check") == {("spec.py", "Clause.match", "typed")}
    # an assigned call on a call's result keeps the type of the first callee's result (parsy's fluent Parser)
    assert ("fluent.py", "Parser.__or__", "typed") in calls(edges, "fluent.py::alt")


def test_an_operator_on_an_untyped_name_runs_the_dunder_of_the_class_named_after_it(repo: Path, tmp_path: Path) -> None:
    # semantic_version's Range.match: `version == self.target` for `def match(self, version)`
    files = {
        "version.py": (
            "class Version:\n    def __eq__(self, other):\n        return True\n\n    def __lt__(self, other):\n"
            "        return True\n\n    def __repr__(self):\n        return 'v'\n\n    def __iter__(self):\n        return iter(())\n\n\n"
            "class Other:\n    def __eq__(self, other):\n        return False\n"
        ),
        # tinycss2's test helper `(*coordinates, alpha) = color` for `def _build_color(color)`
        # and pyasn1's `tagClass, tagFormat, tagId = singleTag`
        "build.py": (
            "def build(version):\n    (*parts, last) = version\n    return [p for p in version]\n\n\n"
            "def encode(singleVersion):\n    a, b = singleVersion\n    return a\n"
        ),
        "ranges.py": (
            "class Range:\n    def __init__(self, target):\n        self.target = target\n\n"
            "    def match(self, version):\n        return version == self.target or version < self.target\n\n"
            "    def same(self, thing):\n        return thing == self.target\n\n"
            "    def show(self):\n        version = self.target\n        return repr(version)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "ranges.py::Range.match") == {
        ("version.py", "Version.__eq__", "receiver-name"),
        ("version.py", "Version.__lt__", "receiver-name"),
    }
    assert calls(edges, "ranges.py::Range.same") == set()  # a name that says nothing: no guess
    # an operator or a loop only: `repr(version)` stays ambiguous, for the walk to reach every class's __repr__ from it
    assert calls(edges, "ranges.py::Range.show") == set()
    assert calls(edges, "build.py::build") == {("version.py", "Version.__iter__", "receiver-name")}
    assert calls(edges, "build.py::encode") == {("version.py", "Version.__iter__", "receiver-name")}


def test_a_bare_name_match_keeps_confidence_and_candidate_count(repo: Path, tmp_path: Path) -> None:
    files = {
        "a.py": "class A:\n    def close(self):\n        pass\n",
        "b.py": "class B:\n    def close(self):\n        pass\n",
        "c.py": "def shut(thing):\n    thing.close()\n",
    }
    _, raw, _ = index(repo, files, tmp_path / "i.db")
    matched = [e for e in raw if e[0] == "c.py" and e[1] == "shut" and e[4] == "call"]
    assert {(e[2], e[3]) for e in matched} == {("a.py", "A.close"), ("b.py", "B.close")}
    assert all(e[5] == "name-match" and e[6] == 0.25 and e[7] == 2 for e in matched)


def test_a_name_match_among_one_class_family_is_a_likely_polymorphic_call(repo: Path, tmp_path: Path) -> None:
    # `for token_type in token_types: token_type.start(line)`: every `start` is a method of a class deriving from
    # Token (which has none of its own): a call of the family's method, as sure as FAMILY_CONFIDENCE
    from crg_review.resolve import FAMILY_CONFIDENCE

    tokens = "class Token:\n    pass\n\n\n" + "".join(
        f"class T{i}(Token):\n    @classmethod\n    def start(cls, line):\n        return line == {i}\n\n\n" for i in range(4)
    )
    files = {
        "pkg/tokens.py": tokens,
        "pkg/other.py": "class Clock:\n    def stop(self):\n        pass\n\n\nclass Timer:\n    def stop(self):\n        pass\n",
        "pkg/use.py": "def scan(line, token_types):\n    for t in token_types:\n        if t.start(line):\n            return t\n\n\n"
        "def halt(x):\n    x.stop()\n",
    }
    _, raw, _ = index(repo, files, tmp_path / "i.db")
    scan = [e for e in raw if e[1] == "scan" and e[4] == "call"]
    assert {e[3] for e in scan} == {f"T{i}.start" for i in range(4)}
    assert {(e[5], e[6], e[7]) for e in scan} == {("name-match", FAMILY_CONFIDENCE, 4)}
    halt = [e for e in raw if e[1] == "halt" and e[4] == "call"]  # two unrelated classes: a plain name match
    assert {(e[5], e[6]) for e in halt} == {("name-match", 0.25)}
    # one class leaves the family (in another file than the caller): the caller is re-resolved
    changed = tokens.replace("class T3(Token):", "class T3:")
    assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/tokens.py": changed})
    store = Store.open(tmp_path / "i.db")
    try:
        raw = store.dump()["edges"]
    finally:
        store.close()
    assert {e[6] for e in raw if e[1] == "scan" and e[4] == "call"} == {0.125}


def test_a_receiver_of_unknown_type_named_after_a_class_prefers_that_class(repo: Path, tmp_path: Path) -> None:
    # pystache: `render_func = lambda engine, stack: engine.render(template, stack)`, given to a method that calls it
    # with a RenderEngine: nothing types `engine`, but among the four `render` methods one is RenderEngine's
    files = {
        "pkg/engine.py": "class RenderEngine:\n    def render(self, t, stack):\n        return t\n",
        "pkg/nodes.py": "class Node:\n    def render(self, engine, stack):\n        return ''\n\n\n"
        "class _EscapeNode:\n    def render(self, engine, stack):\n        return ''\n\n\n"
        "class Template:\n    def render(self, engine, stack):\n        return ''\n",
        "pkg/view.py": "class View:\n    def render(self):\n        return ''\n",
        "pkg/renderer.py": "def render_string(template, final):\n"
        "    render_func = lambda engine, stack: engine.render(template, stack)\n    return final(render_func)\n\n\n"
        "def draw(self_engine, thing):\n    return thing.render()\n\n\n"
        "def paint(x):\n    return x._render_engine.render(1, 2)\n\n\n"
        "def walk(tree):\n    return [node.render(1, 2) for node in tree]\n\n\n"
        "def show(mainEngine):\n    return mainEngine.render(1, 2)\n",
    }
    _, raw, _ = index(repo, files, tmp_path / "i.db")

    def targets(scope: str) -> set[tuple[str, str, float, int]]:
        return {(e[3], e[5], e[6], e[7]) for e in raw if e[1] == scope and e[4] == "call"}

    every = {"RenderEngine.render", "Node.render", "_EscapeNode.render", "Template.render", "View.render"}
    plain = ("name-match", 0.1, 5)
    assert targets("render_string") == {("RenderEngine.render", "receiver-name", 0.5, 1)} | {
        (c, *plain) for c in every - {"RenderEngine.render"}
    }
    assert targets("paint") == targets("render_string")  # the last word(s) of an attribute, underscores aside
    assert targets("show") == targets("render_string")  # a main engine is an engine
    assert targets("draw") == {(c, *plain) for c in every}  # `thing` names no class
    # two classes named after `node`: a family by name, each as likely as a class family's method
    from crg_review.resolve import FAMILY_CONFIDENCE

    assert targets("walk") == {(c, "receiver-name", FAMILY_CONFIDENCE, 2) for c in ("Node.render", "_EscapeNode.render")} | {
        (c, *plain) for c in every - {"Node.render", "_EscapeNode.render"}
    }
    # a name too common to match stays ambiguous though one class is named after the receiver (glom's spec.glomit()
    # over thirty classes, one of them Spec): the test walk reaches those from the calls left ambiguous
    many = {f"pkg/g{i}.py": f"class G{i}:\n    def glomit(self, t):\n        return t\n" for i in range(17)}
    many["pkg/spec.py"] = "class Spec:\n    def glomit(self, t):\n        return t\n\n\ndef run(spec, t):\n    return spec.glomit(t)\n"
    _, raw2, stats = index(repo, many, tmp_path / "g.db")
    assert not [e for e in raw2 if e[1] == "run" and e[4] == "call"]
    assert stats["unresolved_by_reason"].get("ambiguous") == 1  # type: ignore[union-attr]
    for path in many:
        (repo / path).unlink()
    git(repo, "add", "-A")
    # the class renamed in its own file: the caller in another file is resolved again, as a full build would
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db", {"pkg/engine.py": files["pkg/engine.py"].replace("RenderEngine", "Painter")}
    )
    assert {(e[3], e[5]) for e in edges if e[1] == "render_string" and e[4] == "call"} == {
        (c, "name-match") for c in every - {"RenderEngine.render"} | {"Painter.render"}
    }


def test_an_instance_made_at_the_top_of_another_module_types_the_name_importing_it(repo: Path, tmp_path: Path) -> None:
    # jsonpickle: `json = JSONBackend()` in backend.py, `from .backend import json` then `json.decode(s)` and
    # `backend = backend or json; backend.decode(s)` in unpickler.py; a package re-exporting it passes it on
    files = {
        "pkg/__init__.py": "from .backend import json\n",
        "pkg/impl.py": "class JSONBackend:\n    def decode(self, s):\n        return s\n",
        "pkg/backend.py": "from .impl import JSONBackend\n\n\nclass Other:\n    def decode(self, s):\n        return s\n\n\n"
        "json = JSONBackend()\n",
        "pkg/unpickler.py": "from .backend import json\n\n\ndef decode(s, backend=None):\n    backend = backend or json\n"
        "    return backend.decode(s)\n\n\ndef plain(s):\n    return json.decode(s)\n",
        "app.py": "from pkg import json\n\n\ndef load(s):\n    return json.decode(s)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for caller in ("pkg/unpickler.py::decode", "pkg/unpickler.py::plain", "app.py::load"):
        assert {(d[0], d[1]) for d in calls(edges, caller)} == {("pkg/impl.py", "JSONBackend.decode")}, caller
    # the module makes another instance: its importers (and theirs) are re-resolved
    changed = files["pkg/backend.py"].replace("json = JSONBackend()", "json = Other()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/backend.py": changed})
    assert {(d[0], d[1]) for d in calls(edges, "app.py::load")} == {("pkg/backend.py", "Other.decode")}
    # the class it makes moves to another file: backend.py re-resolves its import, and so do the importers of json
    moved = {"pkg/impl.py": "", "pkg/other.py": files["pkg/impl.py"].replace("JSONBackend", "Other"),
             "pkg/backend.py": "from .other import Other\n\n\njson = Other()\n"}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", moved)
    assert {(d[0], d[1]) for d in calls(edges, "pkg/unpickler.py::plain")} == {("pkg/other.py", "Other.decode")}


def test_calling_an_instance_a_module_makes_at_its_top_runs_its_call_method(repo: Path, tmp_path: Path) -> None:
    # pyasn1: `from pyasn1.codec.ber import encoder` then `encoder.encode(value)`, where encoder.py ends with
    # `encode = Encoder()`: the call runs Encoder.__call__ (and a module re-exporting such an instance passes it on)
    files = {
        "pkg/__init__.py": "",
        "pkg/encoder.py": "class Encoder:\n    def __call__(self, value):\n        return b''\n\n\n"
        "class Other:\n    def __call__(self, value):\n        return b'x'\n\n\nencode = Encoder()\n",
        "pkg/der.py": "from pkg.encoder import encode\n",
        "tests/test_enc.py": "from pkg import der, encoder\n\n\ndef test_encode():\n    assert encoder.encode(1) == b''\n\n\n"
        "def test_der():\n    assert der.encode(1) == b''\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for test in ("tests/test_enc.py::test_encode", "tests/test_enc.py::test_der"):
        assert ("pkg/encoder.py", "Encoder.__call__", "typed") in calls(edges, test), test
    # the module makes an instance of another class: the test file is re-resolved
    changed = files["pkg/encoder.py"].replace("encode = Encoder()", "encode = Other()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/encoder.py": changed})
    assert {d[1] for d in calls(edges, "tests/test_enc.py::test_encode")} == {"Other.__call__"}
    assert {d[1] for d in calls(edges, "tests/test_enc.py::test_der")} == {"Other.__call__"}


def test_a_parameter_annotated_with_an_outside_class_may_hold_a_subclass_of_the_repository(repo: Path, tmp_path: Path) -> None:
    # argh: `def parse_and_resolve(parser: argparse.ArgumentParser)` calls `parser.parse_args(argv)`, and the parser
    # its callers give is an ArghParser, `class ArghParser(argparse.ArgumentParser)` overriding parse_args
    files = {
        "pkg/__init__.py": "",
        "pkg/helpers.py": "import argparse\n\n\nclass ArghParser(argparse.ArgumentParser):\n"
        "    def parse_args(self, args=None):\n        return super().parse_args(args)\n\n\n"
        "class Other:\n    def parse_args(self, args=None):\n        return args\n",
        "pkg/dispatching.py": "import argparse\n\n\ndef parse_and_resolve(parser: argparse.ArgumentParser, argv=None):\n"
        "    return parser.parse_args(argv)\n\n\n"
        "def build(argv):\n    parser = argparse.ArgumentParser()\n    return parser.parse_args(argv)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/dispatching.py::parse_and_resolve") == {("pkg/helpers.py", "ArghParser.parse_args", "dispatch")}
    assert calls(edges, "pkg/dispatching.py::build") == set()  # made by argparse: an ArgumentParser, nothing of ours
    # ArghParser derives from another class now: the caller is resolved again, as a full build would
    changed = files["pkg/helpers.py"].replace("class ArghParser(argparse.ArgumentParser):", "class ArghParser(dict):")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/helpers.py": changed})
    assert not {c for c in calls(edges, "pkg/dispatching.py::parse_and_resolve") if c[2] == "dispatch"}


def test_an_imported_instance_follows_its_class_when_the_module_it_comes_from_rebinds_it(repo: Path, tmp_path: Path) -> None:
    # only late.py changes (it re-exports Late from b instead of a): backend.py imports Late from it, and app.py
    # imports `worker` from backend.py, whose instance is now of the other class (affected.affected_files: module-level
    # facts naming a changed name pass the change on to the importers of what they make)
    method = "    def run_soon(self):\n        return 1\n"
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "class Late:\n" + method,
        "pkg/b.py": "class Late:\n" + method,
        "pkg/late.py": "from .a import Late\n",
        "pkg/backend.py": "from .late import Late\n\nworker = Late()\n",
        "app.py": "from pkg.backend import worker\n\n\ndef wait():\n    return worker.run_soon()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {(d[0], d[1]) for d in calls(edges, "app.py::wait")} == {("pkg/a.py", "Late.run_soon")}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/late.py": "from .b import Late\n"})
    assert {(d[0], d[1]) for d in calls(edges, "app.py::wait")} == {("pkg/b.py", "Late.run_soon")}


def test_iterating_an_iterator_calls_its_next_method(repo: Path, tmp_path: Path) -> None:
    # anytree: `for n in PreOrderIter(node)` and `tuple(PreOrderIter(node))`, where the base's __iter__ returns self
    iters = (
        "class AbstractIter:\n    def __init__(self, node):\n        self.node = node\n\n    def __iter__(self):\n"
        "        return self\n\n\nclass PreOrderIter(AbstractIter):\n    pass\n\n\n"
        "class Lines:\n    def __iter__(self):\n        yield 1\n"
    )
    step = "\n    def __next__(self):\n        raise StopIteration\n"
    files = {
        "pkg/iters.py": iters.replace("        return self\n", "        return self\n" + step, 1),
        "pkg/use.py": "from .iters import Lines, PreOrderIter\n\n\ndef walk(node):\n    for n in PreOrderIter(node):\n"
        "        print(n)\n\n\ndef desc(node):\n    return tuple(PreOrderIter(node))[1:]\n\n\n"
        "def lines():\n    return list(Lines())\n\n\n"
        "def size(node):\n    for size, _ in enumerate(PreOrderIter(node), 1):\n        continue\n    return size\n\n\n"
        "def table():\n    return dict(Lines(), x=1)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # enumerate(it, 1) iterates it (anytree's NodeMixin.size), as dict(pairs, x=1) iterates pairs
    assert ("pkg/iters.py", "AbstractIter.__next__", "iterator") in calls(edges, "pkg/use.py::size")
    assert ("pkg/iters.py", "Lines.__iter__") in {(d[0], d[1]) for d in calls(edges, "pkg/use.py::table")}
    for caller in ("walk", "desc"):
        assert ("pkg/iters.py", "AbstractIter.__next__", "iterator") in calls(edges, f"pkg/use.py::{caller}")
    assert ("pkg/iters.py", "Lines.__iter__") in {(d[0], d[1]) for d in calls(edges, "pkg/use.py::lines")}
    assert not any(d[1].endswith("__next__") for d in calls(edges, "pkg/use.py::lines"))  # a generator: no __next__
    # the base loses its __next__: the iterating files are re-resolved
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/iters.py": iters})
    assert not any(d[1].endswith("__next__") for d in calls(edges, "pkg/use.py::walk"))


def test_a_loop_unpacking_a_table_of_tuples_calls_the_functions_it_holds(repo: Path, tmp_path: Path) -> None:
    # deepdiff: `for type_, func in TYPES_TO_DIST_FUNC: ... func(num1, num2)` over `[(only_numbers, _numbers), ...]`
    files = {
        "pkg/dist.py": "def _numbers(a, b):\n    return a - b\n\n\ndef _dates(a, b):\n    return a - b\n\n\n"
        "def other(a, b):\n    return 0\n\n\nTABLE = [\n    (int, _numbers),\n    (float, _dates),\n]\n\n\n"
        "def distance(a, b):\n    for type_, func in TABLE:\n        if isinstance(a, type_):\n            return func(a, b)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {(d[1], d[2]) for d in calls(edges, "pkg/dist.py::distance")} >= {("_numbers", "table"), ("_dates", "table")}
    assert "other" not in {d[1] for d in calls(edges, "pkg/dist.py::distance")}


def test_an_attribute_named_like_a_class_that_the_program_sets_later_holds_that_class(
    repo: Path, tmp_path: Path
) -> None:
    # boolean.py: `AND = None` in the base class, set by the algebra with setattr; `self.AND(...)` makes an AND
    files = {
        "alg.py": "class Expr:\n    AND = None\n\n    def __and__(self, other):\n        return self.AND(self, other)\n\n"
        "    def lower(self):\n        return self.and_(self)\n\n\n"
        "class AND(Expr):\n    def __init__(self, *args):\n        self.args = args\n",
        "other.py": "class AND:\n    pass\n\n\ndef and_(x):\n    return x\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    made = calls(edges, "alg.py::Expr.__and__")
    assert {("alg.py", "AND", "name-match"), ("alg.py", "AND.__init__", "constructor"), ("other.py", "AND", "name-match")} <= made
    assert all(dst != "AND" for _, dst, _ in calls(edges, "alg.py::Expr.lower"))


def test_a_table_of_bound_methods_filled_by_getattr_of_a_prefix_calls_each(repo: Path, tmp_path: Path) -> None:
    # asteval: the handlers are looked up by name into a dict, which `run` takes one of and calls
    files = {
        "interp.py": "class Interp:\n    def __init__(self):\n        self.handlers = {}\n"
        "        for node in ('add', 'sub'):\n            handler = getattr(self, f'on_{node}', self.missing)\n"
        "            self.handlers[node] = handler\n\n"
        "    def run(self, node):\n        handler = self.handlers[node]\n        return handler(node)\n\n"
        "    def on_add(self, node):\n        return 1\n\n    def on_sub(self, node):\n        return 2\n\n"
        "    def missing(self, node):\n        return 0\n\n    def other(self):\n        return 3\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # and the default of the look-up, stored when a handler is missing
    table = {dst for _, dst, how in calls(edges, "interp.py::Interp.run") if how == "table"}
    assert table == {"Interp.on_add", "Interp.on_sub", "Interp.missing"}


def test_a_store_on_a_name_the_class_lacks_runs_the_setattr_of_what_its_getattr_returns(repo: Path, tmp_path: Path) -> None:
    # iniparse: `cfg.new.option = 1` where INIConfig's `__getattr__` returns an `Undefined` for a section it lacks,
    # whose `__setattr__` (`__setitem__`) adds the section; a member of the class (`cfg.data.x = 1`) is no look-up through it
    files = {
        "config.py": "from typing import Union\n\n\nclass Undefined:\n    def __init__(self, name, namespace):\n"
        "        object.__setattr__(self, 'name', name)\n\n    def __setattr__(self, name, value):\n"
        "        self.namespace.add(self.name, name, value)\n\n    def __setitem__(self, name, value):\n"
        "        self.namespace.add(self.name, name, value)\n\n\n"
        "class Data:\n    def __setattr__(self, name, value):\n        object.__setattr__(self, name, value)\n\n\n"
        "class Namespace:\n    data = Data()\n\n    def __getattr__(self, name) -> Union[object, 'Undefined']:\n"
        "        return Undefined(name, self)\n\n    def add(self, section, name, value):\n        return None\n",
        "use.py": "from config import Namespace\n\n\ndef fill():\n    cfg = Namespace()\n    cfg.new.option = 1\n\n\n"
        "def member():\n    cfg = Namespace()\n    cfg.data.x = 1\n\n\n"
        "def item():\n    cfg = Namespace()\n    cfg.new['option'] = 1\n\n\n"
        "class Holder:\n    def setUp(self):\n        self.cfg = Namespace()\n\n"
        "    def test_it(self):\n        self.cfg.section.key = 'v'\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("config.py", "Undefined.__setattr__", "typed") in calls(edges, "use.py::fill")
    assert ("config.py", "Undefined.__setattr__", "typed") in calls(edges, "use.py::Holder.test_it")
    assert not any(dst == "Undefined.__setattr__" for _, dst, _ in calls(edges, "use.py::member"))
    assert ("config.py", "Undefined.__setitem__", "typed") in calls(edges, "use.py::item")  # and `cfg.new["option"] = 1`


def test_a_function_taken_from_a_table_and_given_to_a_call_is_called_by_the_function_calling_that_parameter(
    repo: Path, tmp_path: Path
) -> None:
    # cheap_repr: `func = repr_registry.get(cls)` then `_try_repr(func, x)`, whose `func(x)` runs a function
    # `@register_repr(cls)` stored in the registry (given to `ReprHelper(level, func)` the line before); a function no
    # table holds is not given there
    files = {
        "reprs.py": "registry = {}\n\n\ndef register(cls):\n    def decorator(func):\n        registry[cls] = func\n"
        "        return func\n\n    return decorator\n\n\n@register(dict)\ndef repr_dict(x):\n    return '{}'\n\n\n"
        "def repr_plain(x):\n    return '?'\n\n\n"
        "def try_register(name):\n    return register(__builtins__[name])\n\n\n"
        "@try_register('set')\ndef repr_set(x):\n    return 'set()'\n\n\n"
        "def _try(func, x):\n    try:\n        return func(x)\n    except Exception:\n        return '?'\n\n\n"
        "def describe(func):\n    return func.__name__\n\n\n"
        "def cheap(x):\n    func = registry.get(type(x))\n    if func:\n        name = describe(func)\n"
        "        return _try(func, x) or name\n    return ''\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("reprs.py", "repr_dict", "passed") in calls(edges, "reprs.py::_try")
    # and one a factory returning `register(cls)` decorates (cheap_repr's `try_register_repr`)
    assert ("reprs.py", "repr_set", "passed") in calls(edges, "reprs.py::_try")
    assert not any(dst == "repr_plain" for _, dst, _ in calls(edges, "reprs.py::_try"))


def test_a_method_the_module_sets_on_its_class_after_it_is_one_of_the_class(repo: Path, tmp_path: Path) -> None:
    # frozendict: `frozendict.__or__ = frozendict_or` below the class, for Pythons whose dict has no `|`; then
    # `MAP | other` on a module-level frozendict runs frozendict_or
    files = {
        "fd.py": "class frozendict(dict):\n    def __new__(cls, *args):\n        return dict.__new__(cls)\n\n\n"
        "def frozendict_or(self, other):\n    return frozendict({**self, **other})\n\n\n"
        "frozendict.__or__ = frozendict_or\n",
        "cool.py": "from fd import frozendict\n\nMAP = frozendict({int: str})\n\n\n"
        "def conversion_map(custom):\n    return MAP | custom\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {("fd.py", "frozendict.__or__"), ("fd.py", "frozendict_or")} <= {c[:2] for c in calls(edges, "cool.py::conversion_map")}


def test_object_setattr_on_self_types_the_attribute_as_an_assignment_does(repo: Path, tmp_path: Path) -> None:
    # iniparse's Undefined, whose own __setattr__ adds a section: `object.__setattr__(self, "namespace", namespace)`
    # in __init__, then `self.namespace.make(...)` in another method runs the annotated class's method
    files = {
        "ns.py": "class Namespace:\n    def make(self, name):\n        return name\n\n\n"
        "class Other:\n    def make(self, name):\n        return None\n\n\n"
        "class Undefined:\n    def __init__(self, name, namespace: Namespace):\n"
        "        object.__setattr__(self, 'namespace', namespace)\n\n"
        "    def __setattr__(self, name, value):\n        return self.namespace.make(name)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {c for c in calls(edges, "ns.py::Undefined.__setattr__") if c[1].endswith(".make")} == {("ns.py", "Namespace.make", "typed")}


def test_a_variable_a_function_assigns_hides_a_module_of_its_name(repo: Path, tmp_path: Path) -> None:
    # python-ulid's `__main__.build`: `import ulid` at the top, then `ulid = ULID()` and `str(ulid)`, `ulid.hex`
    files = {
        "ulid/__init__.py": "class ULID:\n    def __str__(self):\n        return 'u'\n\n    def to_uuid(self):\n        return 1\n\n"
        "    def __setattr__(self, name, value):\n        object.__setattr__(self, name, value)\n",
        "ulid/__main__.py": "import ulid\nfrom ulid import ULID\n\n\ndef build():\n    ulid = ULID()\n    ulid.tag = 1\n"
        "    return str(ulid), ulid.to_uuid()\n\n\ndef module():\n    return ulid.ULID()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    got = {(c[1], c[2]) for c in calls(edges, "ulid/__main__.py::build") if c[1].startswith("ULID.")}
    # (and a store on it runs the class's __setattr__)
    assert got == {("ULID.__str__", "typed"), ("ULID.to_uuid", "typed"), ("ULID.__setattr__", "typed")}
    assert ("ulid/__init__.py", "ULID", "module") in calls(edges, "ulid/__main__.py::module")


def test_ply_calls_the_rules_it_finds_by_prefix_on_the_object_or_module_it_is_given(repo: Path, tmp_path: Path) -> None:
    # pyhcl: `self.lex = lex.lex(module=self)` builds a lexer that calls the class's `t_*` methods for each token, and
    # `yacc.yacc()` without a module a parser calling the calling module's `p_*` functions; pygments' `lex(code, lexer)`
    # is another function
    files = {
        "ply/lex.py": "def lex(module=None, debug=False):\n    return module\n",
        "ply/yacc.py": "def yacc(module=None, debug=False):\n    return module\n",
        "lexer.py": "from ply import lex\n\n\nclass Lexer:\n    def t_NUMBER(self, t):\n        return t\n\n"
        "    def t_error(self, t):\n        return None\n\n    def token_count(self):\n        return 0\n\n"
        "    def __init__(self):\n        self.lex = lex.lex(module=self, debug=False)\n",
        "grammar.py": "from ply import yacc\n\n\ndef p_expression(p):\n    p[0] = p[1]\n\n\n"
        "def parse_number(p):\n    return p\n\n\ndef build():\n    return yacc.yacc(debug=False)\n\n\n"
        "def colour(code, lex):\n    return lex(code, 'python')\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    rules = {(dst, how) for path, dst, how in calls(edges, "lexer.py::Lexer.__init__") if path == "lexer.py"}
    assert rules == {("Lexer.t_NUMBER", "getattr"), ("Lexer.t_error", "getattr")}
    assert ("grammar.py", "p_expression", "local") in calls(edges, "grammar.py::build")
    assert not any(dst == "parse_number" for _, dst, _ in calls(edges, "grammar.py::build"))
    assert not any(dst.startswith("p_") for _, dst, _ in calls(edges, "grammar.py::colour"))


def test_an_attribute_assigned_on_self_runs_the_class_setattr(repo: Path, tmp_path: Path) -> None:
    files = {
        "group.py": "class Base:\n    def __setattr__(self, name, value):\n        object.__setattr__(self, name, value)\n\n\n"
        "class Group(Base):\n    def __init__(self, name):\n        self.name = name\n\n\n"
        "class Plain:\n    def __init__(self, name):\n        self.name = name\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("group.py", "Base.__setattr__", "self") in calls(edges, "group.py::Group.__init__")
    assert not calls(edges, "group.py::Plain.__init__")


def test_a_sort_key_made_by_a_call_runs_what_the_call_returns(repo: Path, tmp_path: Path) -> None:
    # natsort: `sorted(seq, key=natsort_keygen(alg))` where natsort_keygen returns `partial(natsort_key, ...)`
    files = {
        "keys.py": "def natural(x, alg=0):\n    return x\n",
        "sort.py": "import functools\nfrom functools import partial\n\nfrom keys import natural\n\n\n"
        "def keygen(alg):\n    return partial(natural, alg=alg)\n\n\n"
        "def compare(a, b):\n    return 0\n\n\n"
        "def natsorted(seq, alg=0):\n    return sorted(seq, key=keygen(alg))\n\n\n"
        "def cmpsorted(seq):\n    return sorted(seq, key=functools.cmp_to_key(compare))\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("keys.py", "natural") in {(p, q) for p, q, _ in calls(edges, "sort.py::natsorted")}
    assert ("sort.py", "compare") in {(p, q) for p, q, _ in calls(edges, "sort.py::cmpsorted")}


def test_a_parameter_annotated_with_a_union_type_alias_holds_its_classes(repo: Path, tmp_path: Path) -> None:
    # tenacity: `stop: "StopBaseT" = stop_never`, `StopBaseT = stop_base | typing.Callable[...]`, `self.stop(state)`
    files = {
        "stop.py": "import typing\n\n\nclass stop_base:\n    def __call__(self, state):\n        return False\n\n\n"
        "class stop_after(stop_base):\n    def __call__(self, state):\n        return True\n\n\n"
        "StopT = stop_base | typing.Callable[[int], bool]\nMaybeStop = typing.Optional['stop_base']\n",
        "retry.py": "from stop import MaybeStop, StopT\n\n\nclass Retrying:\n"
        "    def __init__(self, stop: \"StopT\" = None, other: MaybeStop = None):\n        self.stop = stop\n        self.other = other\n\n"
        "    def run(self):\n        return self.stop(1)\n\n    def check(self):\n        return self.other(2)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for method in ("run", "check"):
        assert {"stop_base.__call__", "stop_after.__call__"} <= {q for _, q, _ in calls(edges, f"retry.py::Retrying.{method}")}


def test_a_dotted_path_in_a_string_names_the_definition(repo: Path, tmp_path: Path) -> None:
    # mistune's plugin table, django's settings: "pkg.mod.name" in a dict, a list, an argument
    files = {
        "pkg/__init__.py": "",
        "pkg/plugins/__init__.py": "_plugins = {'fn': 'pkg.plugins.fns.fn', 'other': 'elsewhere.mod.thing'}\n",
        "pkg/plugins/fns.py": "def fn(md):\n    return md\n",
        "pkg/load.py": "from importlib import import_module\n\n\ndef load():\n"
        "    return import_module('pkg.plugins.fns'), find('pkg.plugins.fns.fn')\n\n\ndef find(path):\n    return path\n",
        # two parts: a class a package offers (colorlog's `"()": "colorlog.ColoredFormatter"` for logging's dictConfig),
        # not a file name (`"pkg.py"`, where pkg/__init__.py defines `py`)
        "pkg/config.py": "import logging.config\n\n\ndef configure():\n"
        "    logging.config.dictConfig({'formatters': {'c': {'()': 'pkg.Formatter'}}})\n    return open('pkg.py')\n",
    }
    files["pkg/__init__.py"] = "class Formatter:\n    pass\n\n\ndef py():\n    return 0\n"
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    strings = {(e[0], e[1], e[2], e[3]) for e in edges if e[5] == "string" and e[4] == "ref"}
    assert strings == {
        ("pkg/plugins/__init__.py", "<module>", "pkg/plugins/fns.py", "fn"),
        ("pkg/load.py", "load", "pkg/plugins/fns.py", "fn"),
        ("pkg/load.py", "load", "pkg/plugins/fns.py", "<module>"),
        ("pkg/config.py", "configure", "pkg/__init__.py", "Formatter"),
    }


def test_a_call_continued_over_lines_resolves_as_on_one(repo: Path, tmp_path: Path) -> None:
    # arpeggio's export.py: `super(PTDOTExportVisitor, self).\<newline>    visit_parse_tree_node(node)`; and a chain
    # in parentheses with the dot on the next line
    files = {
        "pkg/__init__.py": "",
        "pkg/v.py": (
            "class Base:\n    def visit(self, node):\n        return node\n\n    def other(self):\n        return 0\n\n\n"
            "class Child(Base):\n    def visit(self, node):\n        return super(Child, self).\\\n            visit(node)\n\n"
            "    def chain(self):\n        return (self\n                .other())\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/v.py", "Base.visit", "super") in calls(edges, "pkg/v.py::Child.visit")
    assert ("pkg/v.py", "Base.other", "self") in calls(edges, "pkg/v.py::Child.chain")


def test_reading_an_attribute_of_an_unknown_object_runs_the_getattr_of_a_class_named_after_it(
    repo: Path, tmp_path: Path
) -> None:
    # radon: `self.config.exclude` where `self.config = config`, a parameter, and `class Config` serves its values
    # from a dict in `__getattr__`; a reading of an object named after no such class runs none
    files = {
        "pkg/__init__.py": "",
        "pkg/cli.py": (
            "class Config:\n    def __init__(self, **kw):\n        self.values = kw\n\n"
            "    def __getattr__(self, attr):\n        return self.values[attr]\n\n\n"
            "class Other:\n    def __getattr__(self, attr):\n        return 1\n"
        ),
        "pkg/harvest.py": (
            "class Harvester:\n    def __init__(self, config):\n        self.config = config\n\n"
            "    def run(self):\n        return self.config.exclude\n\n\n"
            "def plain(thing):\n    return thing.value\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/cli.py", "Config.__getattr__", "receiver-name") in calls(edges, "pkg/harvest.py::Harvester.run")
    assert not calls(edges, "pkg/harvest.py::plain")


def test_a_property_a_factory_makes_in_a_class_body_runs_its_nested_getter_and_setter(repo: Path, tmp_path: Path) -> None:
    # webob: `path_info = environ_getter('PATH_INFO')` in Request's body; descriptors.py's environ_getter returns
    # `property(fget, fset, ...)` of functions it defines. A factory returning a plain function makes no property
    descriptors = (
        "def environ_getter(key):\n    def fget(req):\n        return req.environ[key]\n\n"
        "    def fset(req, val):\n        req.environ[key] = val\n    return property(fget, fset, doc='x')\n"
    )
    files = {
        "wo/__init__.py": "",
        "wo/descriptors.py": descriptors,
        "wo/request.py": (
            "from wo.descriptors import environ_getter\n\n\nclass Request:\n    path_info = environ_getter('PATH_INFO')\n\n"
            "    def path(self):\n        return self.path_info\n\n    def move(self, p):\n        self.path_info = p\n"
        ),
    }
    db = tmp_path / "i.db"
    edges, _, _ = index(repo, files, db)
    assert ("wo/descriptors.py", "environ_getter.fget", "property") in calls(edges, "wo/request.py::Request.path")
    assert ("wo/descriptors.py", "environ_getter.fset", "property") in calls(edges, "wo/request.py::Request.move")
    assert ("wo/descriptors.py", "environ_getter.fset") not in {c[:2] for c in calls(edges, "wo/request.py::Request.path")}
    # the factory no longer makes a property: the other file's reads run nothing of it, as in a full build
    plain = descriptors.replace("return property(fget, fset, doc='x')", "return fget")
    edges = assert_incremental_equals_full(repo, tmp_path, db, {"wo/descriptors.py": plain})
    assert ("wo/descriptors.py", "environ_getter.fget") not in {c[:2] for c in calls(edges, "wo/request.py::Request.path")}


def test_super_of_a_class_deriving_from_an_outside_base_is_no_name_match(repo: Path, tmp_path: Path) -> None:
    # colorlog's `class ColoredFormatter(logging.Formatter)` calling `super().formatMessage(record)`: logging's method,
    # not the method itself nor another class's of that name; a mixin without bases still guesses by name
    files = {
        "fmt.py": "import logging\n\n\nclass Colored(logging.Formatter):\n    def formatMessage(self, record):\n"
        "        return super().formatMessage(record) + '!'\n\n\nclass Other:\n    def formatMessage(self, record):\n"
        "        return record\n\n\nclass Mixin:\n    def formatMessage(self, record):\n"
        "        return super().formatMessage(record)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "fmt.py::Colored.formatMessage") == set()
    assert calls(edges, "fmt.py::Mixin.formatMessage") == {
        ("fmt.py", "Colored.formatMessage", "name-match"), ("fmt.py", "Other.formatMessage", "name-match")
    }


def test_a_property_made_by_a_call_runs_its_getter_and_setter_on_self(repo: Path, tmp_path: Path) -> None:
    # schedule's `next_run = property(get_next_run)` read as `self.next_run`; tablib's `dict = property(_get_dict,
    # _set_dict)` written as `self.dict = rows`
    files = {
        "data.py": "class Dataset:\n    def _get_dict(self):\n        return self._data\n\n"
        "    def _set_dict(self, rows):\n        self._data = rows\n\n    dict = property(_get_dict, _set_dict)\n\n"
        "    def rows(self):\n        return self.dict\n\n    def load(self, rows):\n        self.dict = rows\n",
        # written over several lines (cssutils's `mediaText = property(\n _getMediaText,\n _setMediaText, doc=...)`)
        "media.py": "class MediaList:\n    def _get_text(self):\n        return self._t\n\n"
        "    def _set_text(self, t):\n        self._t = t\n\n    text = property(\n        _get_text,\n        _set_text,\n"
        "        doc='the text',\n    )\n    other = property(len)\n\n    def show(self):\n        return self.text\n\n"
        "    def load(self, t):\n        self.text = t\n",
        # a lambda for the getter (cssutils's `style = property(\n lambda self: self._style,\n _setStyle, doc=...)`):
        # the one function named is the setter
        "page.py": "class Page:\n    def _setStyle(self, s):\n        self._style = s\n\n"
        "    style = property(\n        lambda self: self._style,\n        _setStyle,\n    )\n\n"
        "    def show(self):\n        return self.style\n\n    def load(self, s):\n        self.style = s\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "page.py::Page.load") == {("page.py", "Page._setStyle", "property")}
    assert calls(edges, "page.py::Page.show") == set()
    assert calls(edges, "data.py::Dataset.rows") == {("data.py", "Dataset._get_dict", "property")}
    assert calls(edges, "data.py::Dataset.load") == {("data.py", "Dataset._set_dict", "property")}
    assert calls(edges, "media.py::MediaList.show") == {("media.py", "MediaList._get_text", "property")}
    assert calls(edges, "media.py::MediaList.load") == {("media.py", "MediaList._set_text", "property")}


def test_a_method_under_a_descriptor_decorator_of_the_project_is_read_as_a_property(repo: Path, tmp_path: Path) -> None:
    # clize's `@util.property_once def signature(self)` (a descriptor class of another module), read as `self.signature`
    files = {
        "util.py": "class property_once:\n    def __init__(self, func):\n        self.func = func\n\n"
        "    def __get__(self, obj, owner):\n        return self.func(obj)\n",
        "runner.py": "from . import util\n\n\nclass Clize:\n    @util.property_once\n    def signature(self):\n        return 1\n\n"
        "    def __call__(self):\n        return self.signature\n\n"
        "    @util.once\n    def helper(self):\n        return 2\n\n    def show(self):\n        return self.helper\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "runner.py::Clize.__call__") == {("runner.py", "Clize.signature", "property")}
    assert calls(edges, "runner.py::Clize.show") == set()  # `@util.once`: not named as a property


def test_a_property_made_by_a_call_runs_its_accessors_on_a_typed_instance_of_another_file(
    repo: Path, tmp_path: Path
) -> None:
    # cssutils's `rule.cssText = v` and `return rule.cssText` on a CSSRule (`cssText = property(_getCssText, ...)`)
    files = {
        "rule.py": "class Rule:\n    def _get(self):\n        return 1\n\n    def _set(self, v):\n        self._v = v\n\n"
        "    text = property(_get, _set)\n",
        "use.py": "from rule import Rule\n\n\ndef read(rule: Rule):\n    return rule.text\n\n\n"
        "def write(rule: Rule):\n    rule.text = 1\n\n\ndef made():\n    rule = Rule()\n    rule.text = 2\n    print(rule.text)\n\n\n"
        "class Sub(Rule):\n    def load(self):\n        self.text = 3\n\n\ndef untyped(rule):\n    rule.text = 4\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    accessors = {("rule.py", "Rule._get", "property"), ("rule.py", "Rule._set", "property")}
    assert calls(edges, "use.py::read") & accessors == {("rule.py", "Rule._get", "property")}
    assert calls(edges, "use.py::write") & accessors == {("rule.py", "Rule._set", "property")}
    assert calls(edges, "use.py::made") & accessors == accessors
    assert calls(edges, "use.py::Sub.load") & accessors == {("rule.py", "Rule._set", "property")}
    assert calls(edges, "use.py::untyped") & accessors == set()


def test_calling_an_attribute_holding_a_class_object_constructs_it(repo: Path, tmp_path: Path) -> None:
    # docopt-ng: `raise tokens.error("...")` where Tokens.__init__ stores `self.error = error`, a parameter
    # `error: Type[DocoptExit] | Type[LangError] = DocoptExit`
    files = {
        "m.py": "from typing import Type\n\n\nclass DocoptExit(Exception):\n    def __init__(self, message=''):\n"
        "        super().__init__(message)\n\n\nclass LangError(Exception):\n    pass\n\n\n"
        "class Tokens(list):\n    def __init__(self, source, error: Type[DocoptExit] | Type[LangError] = DocoptExit):\n"
        "        super().__init__(source)\n        self.error = error\n\n\n"
        "def parse_longer(tokens: Tokens):\n    raise tokens.error('bad')\n\n\n"
        "def parse_other():\n    t = Tokens([])\n    raise t.error('bad')\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for fn in ("parse_longer", "parse_other"):
        found = {(q, r) for _, q, r in calls(edges, f"m.py::{fn}")}
        assert {("DocoptExit", "typed"), ("LangError", "typed"), ("DocoptExit.__init__", "constructor")} <= found, found


def test_a_loader_importing_a_module_name_made_at_run_time_imports_each_module_of_the_package(
    repo: Path, tmp_path: Path
) -> None:
    # marko's `load_extension`: `import_module(f"marko.ext.{name}")`, whichever extension a user names
    files = {
        "marko/__init__.py": "",
        "marko/helpers.py": "from importlib import import_module\n\n\ndef load_extension(name):\n"
        "    return import_module(f'marko.ext.{name}').make_extension()\n",
        "marko/ext/__init__.py": "",
        "marko/ext/toc.py": "def make_extension():\n    return 1\n",
        "marko/ext/gfm/__init__.py": "from .renderer import R\n",
        "marko/ext/gfm/renderer.py": "class R:\n    pass\n",
        "marko/ext/notes.txt": "",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    imported = {(e[2], e[3], e[5]) for e in edges if e[:2] == ("marko/helpers.py", "load_extension") and e[4] == "import"}
    assert imported == {("marko/ext/toc.py", "<module>", "string"), ("marko/ext/gfm/__init__.py", "<module>", "string")}


def test_iterating_an_instance_of_a_subscripted_collection_subclass_gives_its_items(repo: Path, tmp_path: Path) -> None:
    # unidiff: `class PatchedFile(list[Hunk])` whose `__str__` joins `str(hunk) for hunk in self`
    files = {
        "patch.py": "class Line:\n    def __str__(self):\n        return 'x'\n\n\n"
        "class Hunk(list[Line]):\n    def __str__(self):\n        return ''.join(str(line) for line in self)\n\n\n"
        "class PatchedFile(list[Hunk]):\n    def __str__(self):\n        return ''.join(str(hunk) for hunk in self)\n\n\n"
        "class Plain(list):\n    def __str__(self):\n        return ''.join(str(x) for x in self)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("patch.py", "Line.__str__", "typed") in calls(edges, "patch.py::Hunk.__str__")
    assert ("patch.py", "Hunk.__str__", "typed") in calls(edges, "patch.py::PatchedFile.__str__")
    assert not any(q.endswith("__str__") for _, q, _ in calls(edges, "patch.py::Plain.__str__"))


def test_a_look_up_by_prefix_on_self_finds_the_methods_of_mixins(repo: Path, tmp_path: Path) -> None:
    # marko: `getattr(self, "render_" + element.get_type())` in Renderer.render runs an extension's
    # `GFMRendererMixin.render_table`, mixed into the renderer at run time (`type("R", (*mixins, HTMLRenderer), {})`)
    files = {
        "pkg/renderer.py": "class Renderer:\n    def render(self, element):\n"
        "        return getattr(self, 'render_' + element.kind)(element)\n\n\n"
        "class HTMLRenderer(Renderer):\n    def render_paragraph(self, element):\n        return 'p'\n",
        "pkg/gfm.py": "class GFMRendererMixin:\n    def render_table(self, element):\n        return 't'\n\n"
        "    def helper(self):\n        return 1\n\n\nclass Other:\n    def render_other(self, element):\n        return 'o'\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = {(p, q) for p, q, _ in calls(edges, "pkg/renderer.py::Renderer.render")}
    assert {("pkg/renderer.py", "HTMLRenderer.render_paragraph"), ("pkg/gfm.py", "GFMRendererMixin.render_table")} <= found
    assert ("pkg/gfm.py", "Other.render_other") not in found and ("pkg/gfm.py", "GFMRendererMixin.helper") not in found


def test_the_wrapper_a_typed_decorator_returns_through_cast_calls_the_functions_it_decorates(
    repo: Path, tmp_path: Path
) -> None:
    # pycountry: `def lazy_load(f: F) -> F: def load_if_needed(self, ...): ... return f(self, ...)` then
    # `return cast(F, load_if_needed)`, decorating Database.get and Database.lookup
    files = {
        "db.py": "from typing import Callable, TypeVar, cast\n\nF = TypeVar('F', bound=Callable)\n\n\n"
        "def lazy_load(f: F) -> F:\n    def load_if_needed(self, *args):\n        return f(self, *args)\n\n"
        "    return cast(F, load_if_needed)\n\n\nclass Database:\n    @lazy_load\n    def get(self, key):\n"
        "        return key\n\n    @lazy_load\n    def lookup(self, value):\n        return value\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {q for _, q, _ in calls(edges, "db.py::lazy_load.load_if_needed")} >= {"Database.get", "Database.lookup"}


def test_a_bare_name_is_no_method_of_another_scope(repo: Path, tmp_path: Path) -> None:
    # mando's `command, a = self.parse(args); return command(*a)` is not SubProgram.command; a plain function is
    files = {
        "core.py": "class Program:\n    def command(self, f):\n        return f\n\n"
        "    def parse(self, args):\n        return args, []\n\n    def execute(self, args):\n"
        "        command, a = self.parse(args)\n        return command(*a), helper(a)\n",
        "other.py": "def helper(x):\n    return x\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = {(p, q) for p, q, _ in calls(edges, "core.py::Program.execute")}
    assert ("core.py", "Program.command") not in found
    assert ("core.py", "Program.parse") in found and ("other.py", "helper") in found


def test_a_parameter_defaulting_to_a_function_calls_it_in_nested_functions(repo: Path, tmp_path: Path) -> None:
    # astor's `def dump_tree(node, iter_node=iter_node): def dump(n): ... iter_node(n)` (a "runtime optimization")
    files = {
        "util.py": "def iter_node(n):\n    return [n]\n\n\ndef other(n):\n    return n\n",
        "dump.py": "from util import iter_node, other\n\n\ndef dump_tree(node, iter_node=iter_node, fn=other, plain=None):\n"
        "    def dump(n):\n        return iter_node(n), fn(n), plain(n)\n\n    return dump(node)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "dump.py::dump_tree.dump")
    assert {("util.py", "iter_node"), ("util.py", "other")} <= {(p, q) for p, q, _ in found}
    assert all(q != "dump_tree" for _, q, _ in found)  # and `plain`, no default naming a definition, calls nothing known


def test_pytest_fixtures_resolve_with_conftest_scoping_and_unittest_setup(repo: Path, tmp_path: Path) -> None:
    files = {
        "conftest.py": "import pytest\n\n@pytest.fixture\ndef app():\n    return 1\n",
        "tests/conftest.py": "import pytest\n\n@pytest.fixture\ndef app():\n    return 2\n",
        "tests/test_a.py": (
            "import unittest\n\ndef test_uses(app):\n    assert app\n\n"
            "class T(unittest.TestCase):\n    def setUp(self):\n        pass\n\n    def test_x(self):\n        pass\n"
        ),
        "other/test_b.py": "def test_root(app):\n    assert app\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    fixtures = {(e[0], e[1], e[2], e[3]) for e in edges if e[4] == "fixture"}
    assert ("tests/test_a.py", "test_uses", "tests/conftest.py", "app") in fixtures  # the nearest conftest wins
    assert ("other/test_b.py", "test_root", "conftest.py", "app") in fixtures
    assert ("tests/test_a.py", "T.test_x", "tests/test_a.py", "T.setUp") in fixtures


def test_javascript_go_and_java_imports(repo: Path, tmp_path: Path) -> None:
    files = {
        "src/lib/math.ts": "export function add(a: number, b: number) { return a + b; }\n",
        "src/index.ts": "import { add as plus } from './lib/math';\nexport function run() { return plus(1, 2); }\n",
        "go.mod": "module example.com/demo\n",
        "pkg/util/util.go": "package util\nfunc Double(x int) int { return x * 2 }\n",
        "cmd/main.go": 'package main\nimport "example.com/demo/pkg/util"\nfunc main() { println(util.Double(2)) }\n',
        "j/com/acme/util/Strings.java": "package com.acme.util;\npublic class Strings { public static String shout(String s) { return s; } }\n",
        "j/com/acme/app/Main.java": (
            "package com.acme.app;\nimport com.acme.util.Strings;\n"
            "public class Main { void run() { Strings.shout(\"x\"); } }\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("src/lib/math.ts", "add", "import") in calls(edges, "src/index.ts::run")
    assert ("pkg/util/util.go", "Double", "module") in calls(edges, "cmd/main.go::main")
    assert ("j/com/acme/util/Strings.java", "Strings.shout", "class") in calls(edges, "j/com/acme/app/Main.java::Main.run")


def assert_incremental_equals_full(repo: Path, tmp_path: Path, db: Path, changes: dict[str, str]) -> set[Edge]:
    """Apply ``changes`` on top of the index in ``db`` (incrementally) and check that the result equals a
    fresh full index; the edges after the change."""
    for path, text in changes.items():
        write(repo, path, text)
    git(repo, "add", "-A")
    results = []
    for target, full in ((db, False), (tmp_path / f"full-{len(list(tmp_path.iterdir()))}.db", True)):
        store = Store.open(target)
        try:
            update_index(store, Repo(repo), Source("staged"), full=full)
            results.append(store.dump())
        finally:
            store.close()
    assert results[0] == results[1]
    return {tuple(e[:6]) for e in results[0]["edges"]}  # type: ignore[index]


def test_a_mixins_super_call_runs_the_next_class_of_its_subclasses_order(repo: Path, tmp_path: Path) -> None:
    # hyperframe: `class DataFrame(Padding, Frame)`, and Padding's `super().__init__(...)` runs Frame's
    frames = (
        "class Frame:\n    def __init__(self, sid, **kw):\n        self.sid = sid\n\n\n"
        "class Padding:\n    def __init__(self, sid, pad=0, **kw):\n        super().__init__(sid, **kw)\n\n\n"
        "class Priority:\n    def __init__(self, sid, weight=0, **kw):\n        super().__init__(sid, **kw)\n"
    )
    data = (
        "from frames import Frame, Padding, Priority\n\n\n"
        "class DataFrame(Padding, Frame):\n    def __init__(self, sid, **kw):\n        super().__init__(sid, **kw)\n"
    )
    edges, _, _ = index(repo, {"frames.py": frames, "data.py": data}, tmp_path / "i.db")
    # the bases in the order written (not by name: Frame sorts before Padding)
    assert calls(edges, "data.py::DataFrame.__init__") == {("frames.py", "Padding.__init__", "super")}
    assert calls(edges, "frames.py::Padding.__init__") == {("frames.py", "Frame.__init__", "super")}
    assert calls(edges, "frames.py::Priority.__init__") == set()  # no subclass: nothing after it
    # another subclass puts Priority after Padding: both may run; a subclass gone takes its order away
    headers = "\n\nclass HeadersFrame(Padding, Priority, Frame):\n    pass\n"
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"data.py": data + headers})
    assert calls(edges, "frames.py::Padding.__init__") == {
        ("frames.py", "Frame.__init__", "super"),
        ("frames.py", "Priority.__init__", "super"),
    }
    assert calls(edges, "frames.py::Priority.__init__") == {("frames.py", "Frame.__init__", "super")}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"data.py": "X = 1\n"})
    assert calls(edges, "frames.py::Padding.__init__") == set()


def test_a_module_inside_a_package_is_no_top_level_import_of_its_name(repo: Path, tmp_path: Path) -> None:
    # flask's tests/test_apps/cliapp/inner1/inner2/flask.py is no `from flask import Flask` of its conftest.py
    files = {
        "src/flask/__init__.py": "class Flask:\n    def __init__(self, name):\n        self.name = name\n",
        "tests/apps/__init__.py": "",
        "tests/apps/inner/__init__.py": "",
        "tests/apps/inner/flask.py": "class Flask:\n    def __init__(self, name):\n        pass\n",
        "tests/conftest.py": "from flask import Flask\n\n\ndef make():\n    return Flask('x')\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("src/flask/__init__.py", "Flask", "import") in calls(edges, "tests/conftest.py::make")
    assert not any(d[0].startswith("tests/apps") for d in calls(edges, "tests/conftest.py::make"))
    # a directory that is no package any more: its module is a top-level one, the nearest
    (repo / "tests/apps/inner/__init__.py").unlink()
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {})
    assert ("tests/apps/inner/flask.py", "Flask", "import") in calls(edges, "tests/conftest.py::make")


def test_a_fixture_is_taken_by_the_name_its_decorator_gives_it(repo: Path, tmp_path: Path) -> None:
    # flask's tests: `@pytest.fixture(name="async_app") def _async_app():`, then `def test_x(async_app)`
    conftest = "import pytest\n\n\n@pytest.fixture(name=\"async_app\")\ndef _async_app():\n    return 1\n"
    files = {"tests/conftest.py": conftest, "tests/test_a.py": "def test_x(async_app):\n    assert async_app\n"}
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    fixtures = {(e[0], e[1], e[2], e[3]) for e in edges if e[4] == "fixture"}
    assert ("tests/test_a.py", "test_x", "tests/conftest.py", "_async_app") in fixtures
    # the name changed: the test's parameter names no fixture any more
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db", {"tests/conftest.py": conftest.replace('"async_app"', '"sync_app"')}
    )
    assert not any(e[4] == "fixture" and e[1] == "test_x" for e in edges)


def test_tables_made_by_comprehensions_hold_the_classes_iterated(repo: Path, tmp_path: Path) -> None:
    # hyperframe's `FRAMES = {cls.type: cls for cls in _FRAME_CLASSES}`, then `FRAMES[type](stream_id)`
    files = {
        "frames.py": (
            "class Data:\n    type = 0\n\n    def __init__(self, sid):\n        self.sid = sid\n\n\n"
            "class Ping:\n    type = 6\n\n    def __init__(self, sid):\n        self.sid = sid\n\n\n"
            "_CLASSES = [Data, Ping]\nFRAMES = {cls.type: cls for cls in _CLASSES}\nLISTED = [c for c in _CLASSES]\n\n\n"
            "def by_type(t, sid):\n    return FRAMES[t](sid)\n\n\ndef by_index(i, sid):\n    return LISTED[i](sid)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    made = {("frames.py", "Data.__init__", "constructor"), ("frames.py", "Ping.__init__", "constructor")}
    assert made <= calls(edges, "frames.py::by_type")
    assert made <= calls(edges, "frames.py::by_index")


def test_a_subscripted_generic_class_called_constructs_it(repo: Path, tmp_path: Path) -> None:
    # flask's class body `testing = ConfigAttribute[bool]("TESTING")`
    files = {
        "config.py": (
            "import typing as t\n\nT = t.TypeVar('T')\n\n\nclass ConfigAttribute(t.Generic[T]):\n"
            "    def __init__(self, name):\n        self.name = name\n"
        ),
        "app.py": (
            "from config import ConfigAttribute\n\n\nclass App:\n    testing = ConfigAttribute[bool]('TESTING')\n\n\n"
            "class Sub(ConfigAttribute):\n    def __init__(self, name):\n        super().__init__(name)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("config.py", "ConfigAttribute.__init__", "constructor") in calls(edges, "app.py::App")
    # that class, not a subclass: their constructors are no guesses (wrapt's `ObjectProxy[int](x)`)
    assert not any(q == "Sub.__init__" for _, q, _ in calls(edges, "app.py::App"))


def test_code_a_module_builds_as_text_and_evaluates_uses_the_members_it_names(repo: Path, tmp_path: Path) -> None:
    # cssselect2: `self.test = eval('lambda el: ' + source, ...)`, source made of `f'any(({inner}) for el in el.ancestors)'`
    files = {
        "tree.py": "class Node:\n    @property\n    def ancestors(self):\n        return []\n\n"
        "    def iter_children(self):\n        return iter(())\n\n    @property\n    def unused(self):\n        return 1\n",
        "compiler.py": (
            "class Selector:\n    def __init__(self, source):\n        self.test = eval('lambda el: ' + source, {}, {})\n\n\n"
            "def descendant(inner):\n    return f'any(({inner}) for el in el.ancestors)'\n\n\n"
            "def children():\n    return 'el.iter_children()'\n\n\n"
            "def prose():\n    \"\"\"Not code: see el.unused.\"\"\"\n    return 'self.unused'\n"
        ),
        # no `eval` here: a string is a string
        "other.py": "def label():\n    return 'el.ancestors'\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {d[1] for d in calls(edges, "compiler.py::descendant")} == {"Node.ancestors"}
    assert {d[1] for d in calls(edges, "compiler.py::children")} == {"Node.iter_children"}
    assert calls(edges, "compiler.py::prose") == set()
    assert calls(edges, "other.py::label") == set()


def test_a_variable_holding_an_imported_module_calls_its_functions(repo: Path, tmp_path: Path) -> None:
    # netaddr's IPAddress: `self._module = _ipv6` (or `_ipv4`), then `self._module.int_to_str(...)`
    files = {
        "strategy/__init__.py": "",
        "strategy/ipv4.py": "def int_to_str(x):\n    return str(x)\n",
        "strategy/ipv6.py": "def int_to_str(x):\n    return str(x)\n",
        "ip.py": (
            "from strategy import ipv4 as _ipv4, ipv6 as _ipv6\n\n\nclass IPAddress:\n    def __init__(self, v6):\n"
            "        self._module = _ipv6 if v6 else _ipv4\n\n    def __str__(self):\n"
            "        return self._module.int_to_str(1)\n\n\ndef only_six():\n    mod = _ipv6\n    return mod.int_to_str(2)\n"
        ),
    }
    edges, raw, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "ip.py::IPAddress.__str__") == {
        ("strategy/ipv4.py", "int_to_str", "module"),
        ("strategy/ipv6.py", "int_to_str", "module"),
    }
    assert calls(edges, "ip.py::only_six") == {("strategy/ipv6.py", "int_to_str", "module")}
    assert {e[6] for e in raw if e[1] == "only_six" and e[4] == "call"} == {1.0}


def test_a_variable_aliased_to_its_own_attribute_resolves_without_end(repo: Path, tmp_path: Path) -> None:
    # `node = node.parent`: what the variable holds is asked of what it held (a module? a class?) only so deep
    files = {
        "tree.py": (
            "def climb(node):\n    while node:\n        node = node.parent\n    return node.run()\n\n\n"
            "class Runner:\n    def run(self):\n        return 1\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "tree.py::climb") == {("tree.py", "Runner.run", "name-match")}


def test_a_file_whose_resolution_nests_too_deep_loses_its_edges_not_the_index(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from crg_review.resolve import Resolver

    original = Resolver._resolve_file

    def deep(self: Resolver, fid: int) -> None:
        if self.modules.file(fid)[0] == "bad.py":
            raise RecursionError("maximum recursion depth exceeded")
        original(self, fid)

    monkeypatch.setattr(Resolver, "_resolve_file", deep)
    files = {
        "good.py": "def helper():\n    return 1\n\n\ndef caller():\n    return helper()\n",
        "bad.py": "from good import helper\n\n\ndef other():\n    return helper()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "good.py::caller") == {("good.py", "helper", "local")}
    assert not any(e[0] == "bad.py" for e in edges)
    assert "bad.py: a reference nests too deep to resolve" in caplog.text


def test_printing_an_object_runs_its_str(repo: Path, tmp_path: Path) -> None:
    # hyperframe's Frame.explain: `frame, length = Frame.parse_frame_header(...)`, later `print(frame)`
    files = {
        "frames.py": (
            "class Frame:\n    def __repr__(self):\n        return 'Frame'\n\n\nclass Named:\n    def __str__(self):\n"
            "        return 'n'\n\n\ndef explain():\n    frame = Frame()\n    print(frame)\n    named = Named()\n"
            "    print(named)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {"Frame.__repr__", "Named.__str__"} <= {q for _, q, _ in calls(edges, "frames.py::explain")}


def test_what_a_function_returns_through_another_files_function_types_its_callers(repo: Path, tmp_path: Path) -> None:
    # tinycss2: color5.parse_color says `color = color4.parse_color(input); if color: return color`
    files = {
        "pkg/__init__.py": "",
        "pkg/color4.py": (
            "class Color:\n    def __iter__(self):\n        return iter(())\n\n\nclass Other:\n    def __iter__(self):\n"
            "        return iter(())\n\n\ndef parse_color(x):\n    return Color()\n"
        ),
        "pkg/color5.py": "from . import color4\n\n\ndef parse5(x):\n    color = color4.parse_color(x)\n    return color\n",
        "use.py": (
            "from pkg.color5 import parse5\n\n\ndef check(s):\n    (*coords, alpha) = parse5(s)\n"
            "    return alpha\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/color4.py", "Color.__iter__", "typed") in calls(edges, "use.py::check")
    # the first function returns another class: the file two calls away follows (incremental = full)
    changed = files["pkg/color4.py"].replace("    return Color()", "    return Other()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/color4.py": changed})
    iterated = {q for _, q, r in calls(edges, "use.py::check") if r == "typed"}
    assert iterated == {"Other.__iter__"}


def test_alternative_imports_of_one_name_all_resolve(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": (
            "try:\n    from ._speedups import escape\nexcept ImportError:\n    from ._native import escape\n"
        ),
        "pkg/_native.py": "def escape(s):\n    return s\n",
        "tests/test_e.py": "from pkg import escape\n\ndef test_escape():\n    escape('<')\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/_native.py", "escape", "import") in calls(edges, "tests/test_e.py::test_escape")
    # the first alternative appears in the repository: both bindings may be the one in effect
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db", {"pkg/_speedups.py": "def escape(s):\n    return s\n"}
    )
    assert {("pkg/_native.py", "escape", "import"), ("pkg/_speedups.py", "escape", "import")} <= calls(
        edges, "tests/test_e.py::test_escape"
    )


CALLABLES = {
    "pkg/types.py": (
        "class ParamType:\n    def __call__(self, value):\n        return self.convert(value)\n\n"
        "    def convert(self, value):\n        return value\n\n\n"
        "class Signer:\n    def __init__(self, key):\n        self.key = key\n\n\n"
        "def convert_type(ty) -> ParamType:\n    return ParamType()\n"
    ),
    "pkg/core.py": (
        "from .types import ParamType, Signer, convert_type\n\n\n"
        "class Parameter:\n    signer: type[Signer] = Signer\n\n"
        "    def __init__(self, ty, signer: 'type[Signer] | None' = None):\n"
        "        self.type = convert_type(ty)\n        self.signer = signer or self.signer\n\n"
        "    def cast(self, value):\n        def convert(v):\n            return self.type(v)\n\n"
        "        return convert(value)\n\n"
        "    def sign(self):\n        return self.signer('key')\n\n\n"
        "def run(t: ParamType, make=Signer):\n    maker = Signer\n    maker('k')\n    return t(1)\n"
    ),
}


def test_calls_of_typed_variables_reach_call_or_the_constructor(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, CALLABLES, tmp_path / "i.db")
    # self.type = convert_type(...) -> ParamType: calling it runs ParamType.__call__ (nested function too)
    assert ("pkg/types.py", "ParamType.__call__", "typed") in calls(edges, "pkg/core.py::Parameter.cast.convert")
    assert ("pkg/types.py", "ParamType.__call__", "typed") in calls(edges, "pkg/core.py::run")  # t: ParamType
    # `signer: type[Signer]` in the class body: calling self.signer constructs a Signer
    sign = calls(edges, "pkg/core.py::Parameter.sign")
    assert {("pkg/types.py", "Signer", "typed"), ("pkg/types.py", "Signer.__init__", "constructor")} <= sign
    assert ("pkg/types.py", "Signer.__init__", "constructor") in calls(edges, "pkg/core.py::run")  # maker = Signer
    assert not any(d[1] == "Signer.__call__" for d in calls(edges, "pkg/core.py::run"))
    # ParamType loses __call__ (in another file): the callers are re-resolved
    changed = CALLABLES["pkg/types.py"].replace("def __call__(self, value)", "def call(self, value)")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/types.py": changed})
    assert not any(d[1].endswith("__call__") for d in calls(edges, "pkg/core.py::Parameter.cast.convert"))


def test_new_instances_of_the_own_class(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/base.py": "class Base:\n    pass\n",
        "pkg/markup.py": (
            "from .base import Base\n\n\n"
            "class Markup(Base):\n    def __new__(cls, text=''):\n        return super().__new__(cls)\n\n"
            "    def join(self, seq):\n        return self.__class__(seq)\n\n"
            "    def copy(self):\n        return type(self)(self)\n\n"
            "    @classmethod\n    def make(cls):\n        return cls()\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for method in ("join", "copy", "make"):
        found = calls(edges, f"pkg/markup.py::Markup.{method}")
        assert {("pkg/markup.py", "Markup", "self"), ("pkg/markup.py", "Markup.__new__", "constructor")} <= found
    # the base (another file) gains an __init__: Markup() runs it too
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db", {"pkg/base.py": "class Base:\n    def __init__(self, text=''):\n        pass\n"}
    )
    assert ("pkg/base.py", "Base.__init__", "constructor") in calls(edges, "pkg/markup.py::Markup.make")


def test_cls_called_in_a_function_nested_in_a_classmethod(repo: Path, tmp_path: Path) -> None:
    # babel's Locale.parse: `def _try_load(parts): return cls(*parts)` inside the classmethod
    files = {
        "pkg/base.py": "class Base:\n    pass\n",
        "pkg/locale.py": (
            "from .base import Base\n\n\n"
            "class Locale(Base):\n    @classmethod\n    def parse(cls, text):\n"
            "        def _try_load(parts):\n            return cls(*parts)\n\n"
            "        def _shadowed():\n            cls = dict\n            return cls()\n\n"
            "        return _try_load(text.split())\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/locale.py", "Locale", "self") in calls(edges, "pkg/locale.py::Locale.parse._try_load")
    assert not {c for c in calls(edges, "pkg/locale.py::Locale.parse._shadowed") if c[1].startswith("Locale")}
    # the base gains an __init__: the nested call runs it too
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db", {"pkg/base.py": "class Base:\n    def __init__(self, *parts):\n        pass\n"}
    )
    assert ("pkg/base.py", "Base.__init__", "constructor") in calls(edges, "pkg/locale.py::Locale.parse._try_load")


OPERATORS = {
    "pkg/version.py": (
        "class Version:\n    def __init__(self, text):\n        self.text = text\n\n"
        "    def __lt__(self, other):\n        return self.text < other.text\n\n"
        "    def __str__(self):\n        return self.text\n\n"
        "    def __mod__(self, arg):\n        return self\n\n"
        "    def __radd__(self, other):\n        return self\n\n"
        "    def __neg__(self):\n        return self\n\n"
        "    def __invert__(self):\n        return self\n"
    ),
    "tests/test_v.py": (
        "from pkg.version import Version\n\n\n"
        "def test_ops(low: Version):\n    high = Version('2')\n    assert low < high\n"
        "    assert str(high) == '2'\n    assert Version('%s') % 1\n    assert 'x' + high\n    assert 1 + 2\n"
        "    assert -high and ~low and -1\n"
    ),
}


def test_operators_and_protocol_builtins_call_the_methods_of_typed_operands(repo: Path, tmp_path: Path) -> None:
    edges, _, stats = index(repo, OPERATORS, tmp_path / "i.db")
    found = calls(edges, "tests/test_v.py::test_ops")
    for method in ("__lt__", "__str__", "__mod__", "__radd__", "__neg__", "__invert__"):
        assert ("pkg/version.py", f"Version.{method}", "typed") in found
    # protocol calls on unknown operands are no unresolved calls of the user's
    assert stats["unresolved"] == stats["unresolved_by_reason"].get("builtin", 0)  # type: ignore[attr-defined]
    # Version gains __eq__ and loses __str__ (renamed __repr__): the test is re-resolved
    changed = OPERATORS["pkg/version.py"].replace("__str__", "__repr__") + "\n    def __eq__(self, other):\n        return True\n"
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/version.py": changed})
    assert ("pkg/version.py", "Version.__str__", "typed") not in calls(edges, "tests/test_v.py::test_ops")



def test_format_and_next_with_a_second_argument_call_the_protocol_of_the_first(repo: Path, tmp_path: Path) -> None:
    # bitmath's `format(size, ".1f")`, and `next(it, None)`; `int(text, 16)` parses a string, no `__int__` runs
    files = {
        "pkg/size.py": "class Size:\n    def __format__(self, spec):\n        return spec\n\n    def __int__(self):\n"
        "        return 1\n\n\nclass Walk:\n    def __next__(self):\n        raise StopIteration\n",
        "tests/test_size.py": "from pkg.size import Size, Walk\n\n\n"
        "def test_format():\n    size = Size()\n    assert format(size, '.1f') == '.1f'\n\n\n"
        "def test_next():\n    w = Walk()\n    assert next(w, None) is None\n\n\n"
        "def test_int():\n    size = Size()\n    assert int(size, 16)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/size.py", "Size.__format__", "typed") in calls(edges, "tests/test_size.py::test_format")
    assert ("pkg/size.py", "Walk.__next__", "typed") in calls(edges, "tests/test_size.py::test_next")
    assert not any(d[1] == "Size.__int__" for d in calls(edges, "tests/test_size.py::test_int"))


def test_an_augmented_assignment_calls_the_in_place_method_or_else_the_binary_one(repo: Path, tmp_path: Path) -> None:
    # furl: `f /= 'a'` on a furl, which has __truediv__ and no __itruediv__; `total += part` on a class with both
    files = {
        "pkg/url.py": "class Url:\n    def __truediv__(self, path):\n        return self\n\n\n"
        "class Total:\n    def __iadd__(self, n):\n        return self\n\n    def __add__(self, n):\n        return self\n\n\n"
        "class Step:\n    def __rsub__(self, n):\n        return self\n",
        "tests/test_url.py": "from pkg.url import Step, Total, Url\n\n\n"
        "def test_div():\n    f = Url()\n    f /= 'a'\n\n\n"
        "def test_add(total: Total):\n    total += 1\n\n\n"
        "def test_sub(n):\n    s = Step()\n    n.count -= s\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "tests/test_url.py::test_div") >= {("pkg/url.py", "Url.__truediv__", "typed")}
    assert {m for _, m, r in calls(edges, "tests/test_url.py::test_add") if r == "typed"} == {"Total.__iadd__", "Total.__add__"}
    assert ("pkg/url.py", "Step.__rsub__", "typed") in calls(edges, "tests/test_url.py::test_sub")
    # Url gains __itruediv__: the test is re-resolved
    changed = files["pkg/url.py"].replace("class Total:", "    def __itruediv__(self, path):\n        return self\n\n\nclass Total:")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/url.py": changed})
    assert ("pkg/url.py", "Url.__itruediv__", "typed") in calls(edges, "tests/test_url.py::test_div")


def test_a_subscript_of_a_dict_subclass_runs_its_missing_hook(repo: Path, tmp_path: Path) -> None:
    # munch: `Munch.__getattr__` reads `self[k]`, and `DefaultFactoryMunch.__missing__` answers an absent key
    files = {
        "pkg/__init__.py": "",
        "pkg/m.py": (
            "class Munch(dict):\n    def __getattr__(self, k):\n        return self[k]\n\n\n"
            "class Default(Munch):\n    def __missing__(self, k):\n        return None\n\n\n"
            "class Plain:\n    def __getitem__(self, k):\n        return k\n\n\n"
            "def use(d: Default, p: Plain):\n    return d['x'], p['y']\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/m.py", "Default.__missing__", "dispatch") in calls(edges, "pkg/m.py::Munch.__getattr__")
    use = calls(edges, "pkg/m.py::use")
    assert {("pkg/m.py", "Default.__missing__", "typed"), ("pkg/m.py", "Plain.__getitem__", "typed")} <= use
    assert not {d for d in use if d[1].startswith("Munch.")}
    # a class with a __getitem__ of its own answers there: no subclass's __missing__
    changed = files["pkg/m.py"].replace("class Munch(dict):\n", "class Munch(dict):\n    def __getitem__(self, k):\n        return 1\n\n")
    edges, _, _ = index(repo, {"pkg/m.py": changed}, tmp_path / "i.db")
    assert ("pkg/m.py", "Default.__missing__", "dispatch") not in calls(edges, "pkg/m.py::Munch.__getattr__")

ITERATION = {
    "pkg/model.py": (
        "import typing as t\n\n\n"
        "class Item:\n    def run(self):\n        return 1\n\n\n"
        "class Bag:\n    def __iter__(self) -> t.Iterator[Item]:\n        return iter([])\n\n\n"
        "def items() -> 't.List[Item]':\n    return []\n"
    ),
    "pkg/use.py": (
        "from .model import Bag, items\n\n\n"
        "def each():\n    for item in items():\n        item.run()\n\n\n"
        "def bag():\n    b = Bag()\n    for x in b:\n        x.run()\n    return [y.run() for y in Bag()]\n"
    ),
}


def test_loop_variables_hold_the_items_of_typed_iterables(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, ITERATION, tmp_path / "i.db")
    assert ("pkg/model.py", "Item.run", "typed") in calls(edges, "pkg/use.py::each")
    bag = calls(edges, "pkg/use.py::bag")
    assert {("pkg/model.py", "Item.run", "typed"), ("pkg/model.py", "Bag.__iter__", "typed")} <= bag
    # the return annotation changes in another file: the loop in pkg/use.py is re-resolved
    changed = ITERATION["pkg/model.py"].replace("def items() -> 't.List[Item]'", "def items() -> 't.List[int]'")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/model.py": changed})
    assert ("pkg/model.py", "Item.run", "typed") not in calls(edges, "pkg/use.py::each")


def test_returns_of_unannotated_functions_of_the_same_file(repo: Path, tmp_path: Path) -> None:
    long_params = ", ".join(f"option_{i}: 'Optional[int]' = None" for i in range(12))
    files = {
        "pkg/__init__.py": "",
        "pkg/bar.py": (
            "class ProgressBar:\n    def __enter__(self):\n        return self\n\n"
            "    def __exit__(self, *exc):\n        self.render_finish()\n\n"
            "    def render_finish(self):\n        pass\n\n\n"
            f"def progressbar(iterable, {long_params}) -> 'ProgressBar':\n    return ProgressBar()\n"
        ),
        "tests/test_bar.py": (
            "import pkg.bar\n\n\n"
            "def _create(**kwargs):\n    bar = pkg.bar.progressbar(range(3))\n    return bar\n\n\n"
            "def test_bar():\n    with _create(label='x') as bar:\n        pass\n\n\n"
            # as `with`: an ExitStack's or a click context's `enter_context` (flask's `ctx.with_resource(...)`)
            "def test_stacked(stack):\n    stack.enter_context(pkg.bar.progressbar(range(3)))\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # the return annotation of a signature longer than the stored limit is kept
    found = calls(edges, "tests/test_bar.py::test_bar")
    entered = {("pkg/bar.py", "ProgressBar.__enter__", "typed"), ("pkg/bar.py", "ProgressBar.__exit__", "typed")}
    assert entered <= found
    assert entered <= calls(edges, "tests/test_bar.py::test_stacked")
    # the helper's body changes (same file): nothing stale
    changed = files["tests/test_bar.py"].replace("return bar", "return None")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"tests/test_bar.py": changed})
    assert ("pkg/bar.py", "ProgressBar.__exit__", "typed") not in calls(edges, "tests/test_bar.py::test_bar")


def test_what_a_function_of_another_file_makes_in_its_returns_types_the_result(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/shapes.py": (
            "class Square:\n    def area(self):\n        return 4\n\n\n"
            "class Circle:\n    def area(self):\n        return 3\n\n\n"
            "class Block:\n    def __enter__(self):\n        return self\n\n    def __exit__(self, *exc):\n        pass\n"
        ),
        "pkg/make.py": (
            "from .shapes import Square, Block\n\n\n"
            "def square():\n    return Square()\n\n\n"
            "def block(func):\n    def wrapper(self, line):\n        func(self, line)\n        return Block()\n"
            "    return wrapper\n"
        ),
        "pkg/use.py": (
            "from .make import square, block\n\n\n"
            "def total():\n    s = square()\n    return s.area()\n\n\n"
            "class Writer:\n    @block\n    def line(self, text):\n        return text\n\n"
            "    def write(self):\n        with self.line('x'):\n            pass\n"
        ),
        # a file that does not import the decorated method's module calls it on what another function returns
        "pkg/factory.py": "from .use import Writer\n\n\ndef writer() -> Writer:\n    return Writer()\n",
        "pkg/sub.py": "from .factory import writer\n\n\nclass Report:\n    def body(self):\n        with writer().line('y'):\n            pass\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/shapes.py", "Square.area", "typed") in calls(edges, "pkg/use.py::total")
    assert ("pkg/shapes.py", "Circle.area", "typed") not in calls(edges, "pkg/use.py::total")
    # the wrapper a decorator of another file returns makes a Block: `with` runs its __enter__ and __exit__
    assert ("pkg/shapes.py", "Block.__enter__", "typed") in calls(edges, "pkg/use.py::Writer.write")
    assert ("pkg/shapes.py", "Block.__exit__", "typed") in calls(edges, "pkg/sub.py::Report.body")
    # what the function returns changes: the file that calls it is resolved again
    made = files["pkg/make.py"].replace("return Square()", "return Circle()").replace("Square, Block", "Circle, Block")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/make.py": made})
    assert ("pkg/shapes.py", "Circle.area", "typed") in calls(edges, "pkg/use.py::total")
    # so does what the wrapper returns (a function nested in the decorator the caller names)
    made = made.replace("return Block()", "return None")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/make.py": made})
    assert ("pkg/shapes.py", "Block.__enter__", "typed") not in calls(edges, "pkg/use.py::Writer.write")
    assert ("pkg/shapes.py", "Block.__exit__", "typed") not in calls(edges, "pkg/sub.py::Report.body")
    # the decorated method's file binds the decorator's name to another definition
    wrapped = files["pkg/use.py"].replace("from .make import square, block", "from .make import square\nfrom .other import block")
    other = "from .shapes import Block\n\n\ndef block(func):\n    def wrapper(self, line):\n        return Block()\n    return wrapper\n"
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/use.py": wrapped, "pkg/other.py": other})
    assert ("pkg/shapes.py", "Block.__exit__", "typed") in calls(edges, "pkg/sub.py::Report.body")
    # a dotted decorator: what its last name's wrapper returns changes, then what its first name is bound to
    dotted = wrapped.replace("from .other import block", "from . import make as deco").replace("@block", "@deco.block")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/use.py": dotted})
    assert ("pkg/shapes.py", "Block.__exit__", "typed") not in calls(edges, "pkg/sub.py::Report.body")
    made = made.replace("return None", "return Block()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/make.py": made})
    assert ("pkg/shapes.py", "Block.__exit__", "typed") in calls(edges, "pkg/sub.py::Report.body")
    other = other.replace("return Block()", "return None")
    assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/other.py": other})
    dotted = dotted.replace("import make as deco", "import other as deco")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/use.py": dotted})
    assert ("pkg/shapes.py", "Block.__exit__", "typed") not in calls(edges, "pkg/sub.py::Report.body")
    # and what the name it returns is bound to (an import of the module, nothing else in it changes)
    made = made.replace("from .shapes import Circle, Block", "from .shapes import Block\nfrom .shapes import Square as Circle")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/make.py": made})
    assert ("pkg/shapes.py", "Square.area", "typed") in calls(edges, "pkg/use.py::total")


def test_an_item_of_a_table_of_instances_holds_their_classes(repo: Path, tmp_path: Path) -> None:
    files = {
        "num/__init__.py": (
            "from . import lang_en, lang_fr\n\n"
            "CONVERTERS = {\n    'en': lang_en.English(),\n    'fr': lang_fr.French(),\n}\n\n\n"
            "def words(number, lang='en', to='cardinal'):\n    converter = CONVERTERS[lang]\n"
            "    number = converter.parse(number)\n    return getattr(converter, 'to_{}'.format(to))(number)\n"
        ),
        "num/base.py": "class Base:\n    def parse(self, text):\n        return int(text)\n\n    def to_cardinal(self, n):\n        return str(n)\n",
        "num/lang_en.py": "from .base import Base\n\n\nclass English(Base):\n    def to_ordinal(self, n):\n        return f'{n}th'\n",
        "num/lang_fr.py": "from .base import Base\n\n\nclass French(Base):\n    def to_ordinal(self, n):\n        return f'{n}e'\n",
        "num/other.py": "class Other:\n    def parse(self, text):\n        return text\n",
    }
    _, dumped, _ = index(repo, files, tmp_path / "i.db")
    # each as sure as the share of the table's classes that have it: a base's method both inherit, one's own
    sure = {(e[2], e[3]): e[6] for e in dumped if e[:2] == ["num/__init__.py", "words"] and e[5] == "instances"}
    assert sure == {
        ("num/base.py", "Base.parse"): 0.9,
        ("num/base.py", "Base.to_cardinal"): 0.5,  # a member looked up by a prefix: at most _LOOKUP_CONFIDENCE
        ("num/lang_en.py", "English.to_ordinal"): 0.25,
        ("num/lang_fr.py", "French.to_ordinal"): 0.25,
    }
    assert not any(e[3] == "Other.parse" for e in dumped)


def test_a_table_of_methods_a_subclass_of_another_file_fills_is_called_by_the_base(repo: Path, tmp_path: Path) -> None:
    # fastjsonschema: CodeGeneratorDraft04 adds its generate_* methods to a table its base's method calls
    files = {
        "gen/__init__.py": "",
        "gen/base.py": (
            "class Generator:\n    def __init__(self):\n        self.table = {}\n\n"
            "    def run(self, definition):\n        for key, func in self.table.items():\n            if key in definition:\n"
            "                func()\n\n    def each(self):\n        for func in self.table.values():\n            func()\n"
        ),
        "gen/draft.py": (
            "from .base import Generator\n\n\nclass Draft(Generator):\n    def __init__(self):\n        super().__init__()\n"
            "        self.table.update((('type', self.gen_type), ('enum', self.gen_enum)))\n\n"
            "    def gen_type(self):\n        return 1\n\n    def gen_enum(self):\n        return 2\n\n    def other(self):\n        return 3\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for scope in ("gen/base.py::Generator.run", "gen/base.py::Generator.each"):
        assert {("gen/draft.py", "Draft.gen_type"), ("gen/draft.py", "Draft.gen_enum")} <= {c[:2] for c in calls(edges, scope)}
        assert ("gen/draft.py", "Draft.other") not in {c[:2] for c in calls(edges, scope)}
    # the subclass stores another method (the base's file is resolved again) ...
    draft = files["gen/draft.py"].replace("('enum', self.gen_enum)", "('other', self.other)")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"gen/draft.py": draft})
    found = {c[:2] for c in calls(edges, "gen/base.py::Generator.run")}
    assert ("gen/draft.py", "Draft.other") in found and ("gen/draft.py", "Draft.gen_enum") not in found
    # ... or one it does not define yet (another class of the file has one of that name), then defines it
    draft = draft.replace("('other', self.other)", "('late', self.gen_late)")
    draft += "\n\nclass Helper:\n    def gen_late(self):\n        return 4\n"
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"gen/draft.py": draft})
    assert ("gen/draft.py", "Helper.gen_late") not in {c[:2] for c in calls(edges, "gen/base.py::Generator.run")}
    draft = draft.replace("    def other(self):", "    def gen_late(self):\n        return 5\n\n    def other(self):")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"gen/draft.py": draft})
    assert ("gen/draft.py", "Draft.gen_late") in {c[:2] for c in calls(edges, "gen/base.py::Generator.run")}


def test_what_a_function_of_another_file_returns_by_name_runs_where_the_result_is_called(repo: Path, tmp_path: Path) -> None:
    files = {
        "fn/__init__.py": "",
        "fn/decorators.py": (
            "import functools\n\n\ndef update_wrapper(wrapper, wrapped):\n    wrapper.__wrapped__ = wrapped\n    return wrapper\n\n\n"
            "def wraps(wrapped):\n    return functools.partial(update_wrapper, wrapped=wrapped)\n\n\n"
            "def make():\n    def inner():\n        return 1\n\n    def other():\n        return 2\n\n    return inner\n\n\n"
            "def logged(func):\n    def wrapper(*args):\n        return func(*args)\n\n    return wrapper\n"
        ),
        "fn/calc.py": (
            "from .decorators import logged, make, wraps\n\n\n"
            "def memo(func):\n    @wraps(func)\n    def wrapper(*args):\n        return func(*args)\n\n    return wrapper\n\n\n"
            "def go():\n    f = make()\n    return f()\n\n\ndef go2():\n    return make()()\n\n\n"
            "@logged\ndef traced(x):\n    return x\n\n\ndef caller():\n    return traced(1)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("fn/decorators.py", "update_wrapper", "returned") in calls(edges, "fn/calc.py::memo")
    for scope in ("fn/calc.py::go", "fn/calc.py::go2"):
        assert {c[:2] for c in calls(edges, scope)} >= {("fn/decorators.py", "make"), ("fn/decorators.py", "make.inner")}
        assert ("fn/decorators.py", "make.other") not in {c[:2] for c in calls(edges, scope)}
    # a call of a function another file's decorator wraps runs the wrapper
    assert ("fn/decorators.py", "logged.wrapper", "wrapper") in calls(edges, "fn/calc.py::caller")
    # what the functions return changes: the file calling them is resolved again
    changed = files["fn/decorators.py"].replace("    return inner\n", "    return other\n")
    changed = changed.replace("partial(update_wrapper,", "partial(make,")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"fn/decorators.py": changed})
    assert ("fn/decorators.py", "make.other") in {c[:2] for c in calls(edges, "fn/calc.py::go")}
    assert ("fn/decorators.py", "update_wrapper", "returned") not in calls(edges, "fn/calc.py::memo")


def test_a_call_of_a_decorated_function_of_another_file_runs_its_wrapper(repo: Path, tmp_path: Path) -> None:
    # fastjsonschema: the draft generators call `self.l(...)` of their base class's module, where `@indent` wraps it
    files = {
        "pkg/__init__.py": "",
        "pkg/ind.py": "def indent(func):\n    def wrapper(self, line):\n        return func(self, line)\n\n    return wrapper\n\n\n"
        "def other(func):\n    def inner(self, line):\n        return func(self, line)\n\n    return inner\n",
        "pkg/gen.py": "from .ind import indent\n\n\nclass Generator:\n    @indent\n    def l(self, line):\n        return line\n",
        "pkg/draft.py": "from .gen import Generator\n\n\nclass Draft(Generator):\n    def generate(self):\n"
        "        return self.l('x')\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/ind.py", "indent.wrapper", "wrapper") in calls(edges, "pkg/draft.py::Draft.generate")
    # the decorated file takes another decorator: the calling file is resolved again
    changed = files["pkg/gen.py"].replace("import indent", "import other").replace("@indent", "@other")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/gen.py": changed})
    found = calls(edges, "pkg/draft.py::Draft.generate")
    assert ("pkg/ind.py", "other.inner", "wrapper") in found and ("pkg/ind.py", "indent.wrapper", "wrapper") not in found
    # and the decorator's file returns another function
    changed_ind = files["pkg/ind.py"].replace("    return inner\n", "    return func\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/ind.py": changed_ind})
    assert ("pkg/ind.py", "other.inner", "wrapper") not in calls(edges, "pkg/draft.py::Draft.generate")


def test_a_variable_assigned_an_or_of_a_parameter_and_an_instance_holds_the_instance(repo: Path, tmp_path: Path) -> None:
    # jsonpickle's encode(): `context = context or Pickler(...)`, then `context.flatten(value)`
    files = {
        "jp/__init__.py": "",
        "jp/pickler.py": (
            "class Pickler:\n    def flatten(self, v):\n        return v\n\n\n"
            "class Handler:\n    def flatten(self, v):\n        return v\n\n\n"
            "def encode(value, context=None):\n    context = context or Pickler()\n    return context.flatten(value)\n\n\n"
            "def encode2(value, context=None):\n    context = Pickler() if context is None else context\n    return context.flatten(value)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for scope in ("jp/pickler.py::encode", "jp/pickler.py::encode2"):
        assert ("jp/pickler.py", "Pickler.flatten", "typed") in calls(edges, scope)
        assert ("jp/pickler.py", "Handler.flatten") not in {c[:2] for c in calls(edges, scope)}


def test_a_name_bound_to_a_parenthesized_or_calls_each_operand(repo: Path, tmp_path: Path) -> None:
    # simplejson: `encode_basestring_ascii = (c_encode_basestring_ascii or py_encode_basestring_ascii)`, called
    # directly and through a parameter defaulting to it; a function returning such an `or` hands out both
    files = {
        "sj/__init__.py": "",
        "sj/enc.py": (
            "c_encode = None\n\n\ndef py_encode(s):\n    return s\n\n\n"
            "encode = (c_encode or py_encode)\n\n\n"
            "def picked():\n    return (c_encode or py_encode)\n\n\n"
            "class Encoder:\n    def encode(self, o):\n        return encode(o)\n\n"
            "    def iterencode(self, o, _encoder=encode):\n        return _encoder(o)\n\n"
            "    def late(self, o):\n        fn = picked()\n        return fn(o)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for scope in ("Encoder.encode", "Encoder.iterencode", "Encoder.late"):
        assert ("sj/enc.py", "py_encode") in {c[:2] for c in calls(edges, f"sj/enc.py::{scope}")}, scope


def test_a_property_of_a_typed_variable_types_what_is_called_on_it(repo: Path, tmp_path: Path) -> None:
    # webob: `del req.GET["foo"]` runs the __delitem__ of the GetDict the property makes (returned through a
    # variable, `vars = GetDict(data); return vars`, in another file), and so does `req.GET.on_change()`
    files = {
        "wo/__init__.py": "",
        "wo/md.py": (
            "class MultiDict:\n    def __delitem__(self, key):\n        pass\n\n\n"
            "class GetDict(MultiDict):\n    def on_change(self):\n        pass\n\n\n"
            "class Other:\n    def on_change(self):\n        pass\n\n\n"
            "class Request:\n    @property\n    def GET(self):\n        vars = GetDict()\n        return vars\n\n"
            "    def plain(self):\n        return GetDict()\n"
        ),
        "tests/test_md.py": (
            "from wo.md import Request\n\n\ndef test_del():\n    req = Request()\n    del req.GET['foo']\n\n\n"
            "def test_change():\n    req = Request()\n    req.GET.on_change()\n\n\n"
            "def test_plain():\n    req = Request()\n    del req.plain['foo']\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("wo/md.py", "MultiDict.__delitem__", "typed") in calls(edges, "tests/test_md.py::test_del")
    assert ("wo/md.py", "GetDict.on_change", "typed") in calls(edges, "tests/test_md.py::test_change")
    assert ("wo/md.py", "Other.on_change") not in {c[:2] for c in calls(edges, "tests/test_md.py::test_change")}
    # a method is no property: its result is not what the attribute holds
    assert ("wo/md.py", "MultiDict.__delitem__") not in {c[:2] for c in calls(edges, "tests/test_md.py::test_plain")}


def test_a_class_body_alias_of_a_method_is_a_member_another_file_reaches(repo: Path, tmp_path: Path) -> None:
    # webob's AppIterRange: `def next(self)` then `__next__ = next`, driven by iterating an instance in another file;
    # `__radd__ = __add__` likewise, and a module function bound in the body (`_check = check`)
    it = (
        "def check(x):\n    return x\n\n\n"
        "class Range:\n    def __iter__(self):\n        return self\n\n    def next(self):\n        return 1\n\n"
        "    __next__ = next\n\n    def __add__(self, other):\n        return self\n\n    __radd__ = __add__\n"
        "    _check = check\n"
    )
    files = {
        "wo/__init__.py": "",
        "wo/it.py": it,
        "tests/test_it.py": (
            "from wo.it import Range\n\n\ndef test_list():\n    assert list(Range()) == []\n\n\n"
            "def test_step():\n    r = Range()\n    r.__next__()\n    r.__radd__(1)\n    r._check(2)\n"
        ),
    }
    db = tmp_path / "i.db"
    edges, _, _ = index(repo, files, db)
    assert ("wo/it.py", "Range.next") in {c[:2] for c in calls(edges, "tests/test_it.py::test_list")}
    step = {c[:2] for c in calls(edges, "tests/test_it.py::test_step")}
    assert {("wo/it.py", "Range.next"), ("wo/it.py", "Range.__add__"), ("wo/it.py", "check")} <= step
    # the alias names a member of its own (what a change of its line touches), which calls what it binds
    assert ("wo/it.py", "Range.next") in {c[:2] for c in calls(edges, "wo/it.py::Range.__next__")}
    # binding the name to another method re-resolves the other file: as a full build does
    edges = assert_incremental_equals_full(repo, tmp_path, db, {"wo/it.py": it.replace("__next__ = next", "__next__ = __iter__")})
    step = {c[:2] for c in calls(edges, "tests/test_it.py::test_step")}
    assert ("wo/it.py", "Range.__iter__") in step and ("wo/it.py", "Range.next") not in step


def test_a_table_of_bound_methods_calls_the_overrides_of_subclasses(repo: Path, tmp_path: Path) -> None:
    # mistletoe's BaseRenderer: `self.render_map = {"Quote": self.render_quote, ...}`, then
    # `self.render_map[token.__class__.__name__](token)`; JiraRenderer overrides render_quote in another file
    files = {
        "md/__init__.py": "",
        "md/base.py": (
            "class BaseRenderer:\n    def __init__(self):\n        self.render_map = {'Quote': self.render_quote}\n\n"
            "    def render(self, token):\n        return self.render_map[token.__class__.__name__](token)\n\n"
            "    def render_quote(self, token):\n        return ''\n\n    def render_other(self, token):\n        return ''\n"
        ),
        "md/jira.py": (
            "from .base import BaseRenderer\n\n\nclass JiraRenderer(BaseRenderer):\n"
            "    def render_quote(self, token):\n        return 'bq.'\n\n    def render_other(self, token):\n        return 'x'\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = {c[:2] for c in calls(edges, "md/base.py::BaseRenderer.render")}
    assert {("md/base.py", "BaseRenderer.render_quote"), ("md/jira.py", "JiraRenderer.render_quote")} <= found
    assert ("md/jira.py", "JiraRenderer.render_other") not in found
    # the subclass loses its override: the base's file is resolved again
    jira = files["md/jira.py"].replace("    def render_quote(self, token):\n        return 'bq.'\n\n", "")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"md/jira.py": jira})
    assert ("md/jira.py", "JiraRenderer.render_quote") not in {c[:2] for c in calls(edges, "md/base.py::BaseRenderer.render")}


def test_a_parameter_naming_a_fixture_holds_what_the_fixture_returns(repo: Path, tmp_path: Path) -> None:
    # jsonpickle's tests: `def pickler(): return jsonpickle.pickler.Pickler()`, then `def test_x(pickler): pickler.flatten(...)`
    files = {
        "jp/__init__.py": "",
        "jp/pickler.py": "class Pickler:\n    def flatten(self, v):\n        return v\n\n\nclass Other:\n    def flatten(self, v):\n        return v\n",
        "tests/conftest.py": "import pytest\n\nimport jp.pickler\n\n\n@pytest.fixture\ndef shared():\n    return jp.pickler.Pickler()\n",
        "tests/test_p.py": (
            "import pytest\n\nimport jp.pickler\n\n\n@pytest.fixture\ndef pickler():\n    return jp.pickler.Pickler()\n\n\n"
            "def test_flatten(pickler):\n    assert pickler.flatten(1)\n\n\ndef test_shared(shared):\n    assert shared.flatten(1)\n\n\n"
            "def helper(pickler):\n    return pickler.flatten(1)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for scope in ("tests/test_p.py::test_flatten", "tests/test_p.py::test_shared"):
        assert ("jp/pickler.py", "Pickler.flatten", "typed") in calls(edges, scope)
        assert ("jp/pickler.py", "Other.flatten") not in {c[:2] for c in calls(edges, scope)}
    # a function that is neither a test nor a fixture gets no fixture
    assert ("jp/pickler.py", "Pickler.flatten", "typed") not in calls(edges, "tests/test_p.py::helper")
    # the conftest's fixture makes another class: the test is resolved again
    conftest = files["tests/conftest.py"].replace("jp.pickler.Pickler()", "jp.pickler.Other()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"tests/conftest.py": conftest})
    assert ("jp/pickler.py", "Other.flatten", "typed") in calls(edges, "tests/test_p.py::test_shared")


def test_an_item_stored_in_a_nested_function_keeps_the_type_the_function_around_states(repo: Path, tmp_path: Path) -> None:
    # configobj's validate(): `section = self`, then in the nested validate_entry `section[entry] = check`
    files = {
        "cfg/__init__.py": "",
        "cfg/obj.py": (
            "class Section(dict):\n    def __setitem__(self, key, value):\n        dict.__setitem__(self, key, value)\n\n\n"
            "class Config(Section):\n    def validate(self, section=None):\n        if section is None:\n            section = self\n\n"
            "        def validate_entry(entry, check):\n            section[entry] = check\n\n"
            "        for key, value in section.items():\n            validate_entry(key, value.strip())\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("cfg/obj.py", "Section.__setitem__", "typed") in calls(edges, "cfg/obj.py::Config.validate.validate_entry")


def test_sorting_a_collection_compares_its_items(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/keys.py": (
            "class Key:\n    def __init__(self, k):\n        self.k = k\n\n"
            "    def __lt__(self, other):\n        return self.k < other.k\n\n"
            "    def __gt__(self, other):\n        return self.k > other.k\n"
        ),
        "pkg/use.py": (
            "from .keys import Key\n\n\n"
            "def ordered():\n    items = [Key(2), Key(1)]\n    return sorted(items)\n\n\n"
            "def largest():\n    items = [Key(2), Key(1)]\n    return max(items)\n\n\n"
            "def by_id():\n    items = [Key(2), Key(1)]\n    return sorted(items, key=id)\n\n\n"
            "def in_place():\n    items = [Key(2), Key(1)]\n    items.sort()\n    return items\n\n\n"
            "def in_place_by_id():\n    items = [Key(2), Key(1)]\n    items.sort(key=id)\n    return items\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/keys.py", "Key.__lt__", "typed") in calls(edges, "pkg/use.py::ordered")
    assert ("pkg/keys.py", "Key.__lt__", "typed") in calls(edges, "pkg/use.py::in_place")  # boolean.py's args.sort()
    assert ("pkg/keys.py", "Key.__lt__", "typed") not in calls(edges, "pkg/use.py::in_place_by_id")
    assert ("pkg/keys.py", "Key.__gt__", "typed") in calls(edges, "pkg/use.py::largest")
    assert not any(d[1].startswith("Key.__") and d[1] != "Key.__init__" for d in calls(edges, "pkg/use.py::by_id"))


CHAINED = {
    "pkg/__init__.py": "",
    "pkg/version.py": (
        "class Version:\n"
        "    @classmethod\n    def parse(cls, text) -> 'Version':\n        return cls()\n\n"
        "    def bump_major(self) -> 'Version':\n        return Version()\n\n"
        "    def __str__(self):\n        return 'v'\n\n\n"
        "class Query:\n"
        "    def where(self, x):\n        return self\n\n"
        "    def limit(self, n):\n        return self\n\n"
        "    def run(self):\n        return []\n\n\n"
        "def fluent():\n    return Query().where(1).limit(2).run()\n"
    ),
    "pkg/old.py": (
        "from .version import Version\n\n\n"
        "def bump_major(text):\n    return str(Version.parse(text).bump_major())\n\n\n"
        "def other(text):\n    return Version.parse(text).bump_major().bump_major()\n"
    ),
}


def test_calls_chained_on_what_calls_return(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, CHAINED, tmp_path / "i.db")
    # str() of the second call's result: the class the method's annotation names (another file's)
    assert ("pkg/version.py", "Version.__str__", "typed") in calls(edges, "pkg/old.py::bump_major")
    assert ("pkg/version.py", "Version.bump_major", "typed") in calls(edges, "pkg/old.py::other")
    # a fluent interface: `return self` in the same file's methods
    assert ("pkg/version.py", "Query.run", "typed") in calls(edges, "pkg/version.py::fluent")
    # the annotation in the middle of the chain changes (and what the method returns): the file using it is re-resolved
    changed = CHAINED["pkg/version.py"].replace("def bump_major(self) -> 'Version':", "def bump_major(self):")
    changed = changed.replace("return Version()", "return str(self)")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/version.py": changed})
    assert ("pkg/version.py", "Version.__str__", "typed") not in calls(edges, "pkg/old.py::bump_major")


DECORATED = {
    "pkg/core.py": (
        "import typing as t\n\n\n"
        "class Command:\n    def main(self):\n        pass\n\n\n"
        "class Group(Command):\n    def command(self, f) -> Command:\n        return Command()\n\n\n"
        "def command(name=None) -> t.Callable[[t.Any], Command]:\n    return Command\n\n\n"
        "def group(name=None) -> 't.Union[Group, t.Callable[..., Group]]':\n    return Group\n"
    ),
    "tests/test_cli.py": (
        "import pkg.core as click\n\n\n"
        "def test_cli():\n    @click.command()\n    def cli():\n        pass\n\n    cli.main()\n\n"
        "    @click.group()\n    def grp():\n        pass\n\n    @grp.command\n    def sub():\n        pass\n\n    sub.main()\n"
    ),
}


def test_decorated_functions_hold_what_the_decorator_returns(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, DECORATED, tmp_path / "i.db")
    assert ("pkg/core.py", "Command.main", "typed") in calls(edges, "tests/test_cli.py::test_cli")
    assert ("pkg/core.py", "Group.command", "typed") in calls(edges, "tests/test_cli.py::test_cli.sub")
    # the decorator's annotation changes in another file: the test is re-resolved
    changed = DECORATED["pkg/core.py"].replace("t.Callable[[t.Any], Command]", "t.Any")
    changed = changed.replace("def command(self, f) -> Command", "def command(self, f)")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/core.py": changed})
    assert ("pkg/core.py", "Command.main", "typed") not in calls(edges, "tests/test_cli.py::test_cli")


def test_protocols_casts_and_bound_type_variables(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/json.py": "class CompactJSON:\n    def dumps(self, obj):\n        return ''\n",
        "pkg/ser.py": (
            "import typing as t\n\nfrom .json import CompactJSON\n\n\n"
            "class Serial(t.Protocol):\n    def dumps(self, obj): ...\n\n\n"
            "class Command:\n    def __init__(self, name):\n        pass\n\n\n"
            "CmdType = t.TypeVar('CmdType', bound='Command')\n\n\n"
            "def dump(serializer: Serial):\n    return serializer.dumps({})\n\n\n"
            "def make(cls=None):\n    if cls is None:\n        cls = t.cast(t.Type[CmdType], Command)\n    return cls('x')\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # a value typed by a protocol may be any class with the method: the name decides, not the protocol
    assert ("pkg/json.py", "CompactJSON.dumps", "name-match") in calls(edges, "pkg/ser.py::dump")
    assert ("pkg/ser.py", "Command.__init__", "constructor") in calls(edges, "pkg/ser.py::make")


def test_imports_of_variables_and_calls_of_a_projects_own_special_methods(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/conf.py": "def load():\n    return {}\n\n\nSETTINGS = load()\n",
        "pkg/html.py": (
            "class Safe:\n    def __html__(self):\n        return ''\n\n\n"
            "class Signer:\n    def sign(self):\n        return 1\n\n\n"
            "class Timed(Signer):\n    def sign(self):\n        return 2\n\n\n"
            "def make() -> Signer:\n    return Timed()\n\n\n"
            "def render(obj):\n    make().sign()\n    return obj.__html__()\n"
        ),
        "tests/test_conf.py": "from pkg.conf import SETTINGS\n\n\ndef test_settings():\n    assert SETTINGS == {}\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # importing a variable runs the module's body: an import edge to the module
    imports = {(e[0], e[2], e[3]) for e in edges if e[4] == "import"}
    assert ("tests/test_conf.py", "pkg/conf.py", "<module>") in imports
    render = calls(edges, "pkg/html.py::render")
    assert ("pkg/html.py", "Safe.__html__", "name-match") in render  # a special method of the project's own
    assert {("pkg/html.py", "Signer.sign", "typed"), ("pkg/html.py", "Timed.sign", "dispatch")} <= render
    # SETTINGS becomes a function: the import binds it
    changed = files["pkg/conf.py"].replace("SETTINGS = load()", "def SETTINGS():\n    return load()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/conf.py": changed})
    assert ("tests/test_conf.py", "pkg/conf.py", "SETTINGS") in {(e[0], e[2], e[3]) for e in edges if e[4] == "import"}


VISITORS = {
    "pkg/visitor.py": (
        "class NodeVisitor:\n"
        "    def get_visitor(self, node):\n"
        "        return getattr(self, f\"visit_{type(node).__name__}\", None)\n\n"
        "    def visit(self, node):\n        f = self.get_visitor(node)\n        return f(node) if f else None\n\n\n"
        "class Parser:\n"
        "    def parse_statement(self, token):\n        f = getattr(self, \"parse_\" + token)\n        return f()\n\n"
        "    def dispatch(self, token):\n        return getattr(self, \"do_%s\" % token)()\n\n"
        "    def named(self):\n        return getattr(self, \"parse_for\")\n\n"
        "    def built(self, node):\n        method = 'do_' + node\n        visitor = getattr(self, method, None)\n"
        "        return visitor()\n\n"
        "    def parse_for(self):\n        return 1\n\n"
        "    def do_it(self):\n        return 2\n\n"
        "    def other(self):\n        return 3\n"
    ),
    "pkg/gen.py": (
        "from .visitor import NodeVisitor\n\n\n"
        "class CodeGenerator(NodeVisitor):\n"
        "    def visit_If(self, node):\n        return node\n\n"
        "    def helper(self):\n        return 0\n"
    ),
}


def test_members_looked_up_by_a_literal_name_or_prefix(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, VISITORS, tmp_path / "i.db")
    # the visitor returns the method (a reference); a subclass's method of that prefix is one it may return
    refs = {(e[2], e[3], e[5]) for e in edges if e[:2] == ("pkg/visitor.py", "NodeVisitor.get_visitor") and e[4] == "ref"}
    assert refs == {("pkg/gen.py", "CodeGenerator.visit_If", "getattr")}
    # what it returns is called in `visit` (the returned look-up is followed in the same file)
    assert ("pkg/gen.py", "CodeGenerator.visit_If", "getattr") in calls(edges, "pkg/visitor.py::NodeVisitor.visit")
    # looked up and called: a call of each member of the prefix, and of nothing else
    parse = calls(edges, "pkg/visitor.py::Parser.parse_statement")
    assert parse == {("pkg/visitor.py", "Parser.parse_for", "getattr")}
    assert calls(edges, "pkg/visitor.py::Parser.dispatch") == {("pkg/visitor.py", "Parser.do_it", "getattr")}
    # the name built in a variable first (the idiom of ast.NodeVisitor)
    assert calls(edges, "pkg/visitor.py::Parser.built") == {("pkg/visitor.py", "Parser.do_it", "getattr")}
    # a whole literal name is that member
    named = {(e[3], e[4]) for e in edges if e[:2] == ("pkg/visitor.py", "Parser.named")}
    assert ("Parser.parse_for", "ref") in named
    # another file's subclass gains a member of the prefix: the visitor's file is re-resolved
    changed = VISITORS["pkg/gen.py"].replace("def helper(self)", "def visit_For(self, node)")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/gen.py": changed})
    refs = {e[3] for e in edges if e[:2] == ("pkg/visitor.py", "NodeVisitor.get_visitor") and e[4] == "ref"}
    assert refs == {"CodeGenerator.visit_If", "CodeGenerator.visit_For"}
    assert {d[1] for d in calls(edges, "pkg/visitor.py::NodeVisitor.visit")} >= refs
    # a new class becomes a visitor (bases change in a third file)
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db",
        {"pkg/opt.py": "from .visitor import NodeVisitor\n\n\nclass Optimizer(NodeVisitor):\n    def visit_Const(self, n):\n        return n\n"},
    )
    refs = {e[3] for e in edges if e[:2] == ("pkg/visitor.py", "NodeVisitor.get_visitor") and e[4] == "ref"}
    assert "Optimizer.visit_Const" in refs
    assert ("pkg/opt.py", "Optimizer.visit_Const", "getattr") in calls(edges, "pkg/visitor.py::NodeVisitor.visit")


def test_a_prefix_looked_up_on_an_object_of_unknown_class_is_a_name_match_among_few_families(
    repo: Path, tmp_path: Path
) -> None:
    # mccabe: `getattr(self.visitor, 'visit' + className, self.default)` where `visitor` is a parameter
    files = {
        "pkg/walk.py": (
            "class Walker:\n"
            "    def preorder(self, tree, visitor):\n        self.visitor = visitor\n        return self.dispatch(tree)\n\n"
            "    def dispatch(self, node):\n"
            "        meth = getattr(self.visitor, 'visit' + type(node).__name__, self.default)\n"
            "        return meth(node)\n\n"
            "    def default(self, node):\n        return None\n\n"
            "    def short(self, node):\n        return getattr(node, 'vi' + node.kind)()\n"
        ),
        "pkg/graphs.py": (
            "class GraphVisitor:\n"
            "    def visitIf(self, node):\n        return 1\n\n"
            "    def visitFor(self, node):\n        return 2\n\n"
            "    def helper(self):\n        return 0\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/walk.py::Walker.dispatch") == {
        ("pkg/graphs.py", "GraphVisitor.visitFor", "name-match"),
        ("pkg/graphs.py", "GraphVisitor.visitIf", "name-match"),
        ("pkg/walk.py", "Walker.default", "self"),  # the look-up's default
    }
    assert calls(edges, "pkg/walk.py::Walker.short") == set()  # a head of two letters says too little
    # a method of that prefix appears in another file: the look-up is resolved again
    more = {"pkg/more.py": "class Printer:\n    def visitWhile(self, node):\n        return 3\n"}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", more)
    assert ("pkg/more.py", "Printer.visitWhile", "name-match") in calls(edges, "pkg/walk.py::Walker.dispatch")
    # methods of that prefix in more than MAX_FAMILIES unrelated classes: no guess at all
    many = {f"pkg/v{i}.py": f"class V{i}:\n    def visitName(self, node):\n        return {i}\n" for i in range(3)}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", many)
    assert calls(edges, "pkg/walk.py::Walker.dispatch") == {("pkg/walk.py", "Walker.default", "self")}


def test_object_getattribute_is_a_look_up_and_a_cast_returns_its_value(repo: Path, tmp_path: Path) -> None:
    # mistune's renderer: `_get_method` returns `cast(..., object.__getattribute__(self, name))`, which
    # `render_token` calls: any method of the renderer (or of a subclass) may run there
    files = {
        "pkg/core.py": (
            "from typing import cast\n\n\n"
            "class BaseRenderer:\n"
            "    def _get_method(self, name):\n"
            "        return cast(\"Callable[..., str]\", object.__getattribute__(self, name))\n\n"
            "    def render_token(self, token):\n        func = self._get_method(token['type'])\n"
            "        return func(token)\n\n"
            "    def plain(self, name):\n        return object.__getattribute__(self, name)()\n"
        ),
        "pkg/md.py": (
            "from .core import BaseRenderer\n\n\n"
            "class MarkdownRenderer(BaseRenderer):\n"
            "    def text(self, token):\n        return token['raw']\n\n"
            "    def paragraph(self, token):\n        return token['raw'] + '\\n'\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    rendered = {d[1] for d in calls(edges, "pkg/core.py::BaseRenderer.render_token")}
    assert {"MarkdownRenderer.text", "MarkdownRenderer.paragraph"} <= rendered
    assert {"MarkdownRenderer.text", "MarkdownRenderer.paragraph"} <= {d[1] for d in calls(edges, "pkg/core.py::BaseRenderer.plain")}


def test_an_instance_of_the_objects_own_class_runs_a_subclass_constructor(repo: Path, tmp_path: Path) -> None:
    # boolean.py: `self.__class__(*args)` in a base method makes an AND when self is an AND
    files = {
        "pkg/base.py": (
            "class Expr:\n"
            "    def __init__(self, *args):\n        self.args = args\n\n"
            "    def copy(self):\n        return self.__class__(*self.args)\n\n"
            "    def copy2(self):\n        return type(self)(*self.args)\n"
        ),
        "pkg/ops.py": (
            "from .base import Expr\n\n\n"
            "class AND(Expr):\n    def __init__(self, *args):\n        super().__init__(*args)\n        self.op = '&'\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for scope in ("pkg/base.py::Expr.copy", "pkg/base.py::Expr.copy2"):
        assert ("pkg/ops.py", "AND.__init__", "dispatch") in calls(edges, scope)
        assert ("pkg/base.py", "Expr.__init__", "constructor") in calls(edges, scope)
    # another file's subclass gains a constructor: the base's file is resolved again
    more = {"pkg/more.py": "from .base import Expr\n\n\nclass OR(Expr):\n    def __init__(self, *args):\n        self.args = args\n"}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", more)
    assert ("pkg/more.py", "OR.__init__", "dispatch") in calls(edges, "pkg/base.py::Expr.copy")


def test_a_variable_holds_the_default_of_a_look_up(repo: Path, tmp_path: Path) -> None:
    # tinydb: `storage = kwargs.pop('storage', self.default_storage_class)` then `storage(*args)`
    files = {
        "pkg/store.py": "class JSONStorage:\n    def __init__(self, path=None):\n        self.path = path\n",
        "pkg/db.py": (
            "from .store import JSONStorage\n\n\n"
            "def make():\n    return 1\n\n\n"
            "def default_hook():\n    return 2\n\n\n"
            "class DB:\n    default_storage_class = JSONStorage\n\n"
            "    def __init__(self, *args, **kwargs):\n"
            "        storage = kwargs.pop('storage', self.default_storage_class)\n"
            "        self.storage = storage(*args)\n\n"
            "    def build(self, opts, obj):\n"
            "        f = opts.get('factory', make)\n        h = getattr(obj, 'hook', default_hook)\n"
            "        g = opts.get('factory')\n        return f(), h(), g()\n\n"
            "    def plain(self):\n        p = get('factory', make)\n        return p()\n\n\n"
            "def get(key, value):\n    return key\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/store.py", "JSONStorage.__init__") in {d[:2] for d in calls(edges, "pkg/db.py::DB.__init__")}
    assert {("pkg/db.py", "make"), ("pkg/db.py", "default_hook")} <= {d[:2] for d in calls(edges, "pkg/db.py::DB.build")}
    # a function of the program named get is no mapping's look-up: what it returns is not its second argument
    assert ("pkg/db.py", "make") not in {d[:2] for d in calls(edges, "pkg/db.py::DB.plain")}


def test_a_name_looked_up_from_a_table_of_names_is_each_name_of_the_table(repo: Path, tmp_path: Path) -> None:
    # semver's cmd_bump: `maptable = {"major": "bump_major", ...}` then `getattr(ver, maptable[part])()`
    files = {
        "pkg/version.py": (
            "class Version:\n"
            "    def bump_major(self):\n        return 1\n\n"
            "    def bump_minor(self):\n        return 2\n\n"
            "    def other(self):\n        return 3\n"
        ),
        "pkg/cli.py": (
            "from .version import Version\n\n\n"
            "def cmd_bump(part):\n"
            "    maptable = {'major': 'bump_major', 'minor': 'bump_minor'}\n"
            "    ver = Version()\n    func = getattr(ver, maptable[part])\n    return func()\n\n\n"
            "def direct(part):\n    table = {'major': 'bump_major'}\n    return getattr(Version(), table[part])()\n\n\n"
            "def mixed(part):\n    table = {'major': 'bump_major', 'n': 1}\n    return getattr(Version(), table[part])()\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    bumps = {("pkg/version.py", "Version.bump_major"), ("pkg/version.py", "Version.bump_minor")}
    assert {d[:2] for d in calls(edges, "pkg/cli.py::cmd_bump") if d[1].startswith("Version.")} == bumps
    assert ("pkg/version.py", "Version.bump_major") in {d[:2] for d in calls(edges, "pkg/cli.py::direct")}
    # a table holding anything but names is no table of names
    assert ("pkg/version.py", "Version.bump_major") not in {d[:2] for d in calls(edges, "pkg/cli.py::mixed")}


def test_a_member_read_by_a_name_made_elsewhere_runs_the_property_getters(repo: Path, tmp_path: Path) -> None:
    # prettytable: `options[option] = getattr(self, option)` for each name of `self._options`
    files = {
        "pkg/table.py": (
            "class Table:\n"
            "    _options = ['width', 'style']\n\n"
            "    @property\n    def width(self):\n        return self._width\n\n"
            "    @width.setter\n    def width(self, val):\n        self._width = val\n\n"
            "    @property\n    def style(self):\n        return 'plain'\n\n"
            "    def helper(self):\n        return 1\n\n"
            "    def get_options(self):\n"
            "        return {option: getattr(self, option) for option in self._options}\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    read = {d[1] for d in calls(edges, "pkg/table.py::Table.get_options") if d[2] == "getattr"}
    assert read == {"Table.width", "Table.style"}  # the getters; not the setter, not a plain method


def test_a_subscript_of_a_dict_subclass_without_getitem_runs_its_missing(repo: Path, tmp_path: Path) -> None:
    # addict: `Dict.__getattr__` returns `self.__getitem__(item)`; dict's own __getitem__ calls __missing__
    files = {
        "pkg/ad.py": (
            "class Dict(dict):\n"
            "    def __getattr__(self, item):\n        return self.__getitem__(item)\n\n"
            "    def __missing__(self, name):\n        return self.__class__()\n\n\n"
            "class Own(dict):\n    def __getitem__(self, k):\n        return 1\n\n"
            "    def __missing__(self, name):\n        return 0\n\n\n"
            "def use():\n    d = Dict()\n    o = Own()\n    return d['a'], o['b']\n\n\n"
            "class Point:\n    def __eq__(self, other):\n        return True\n\n"
            "    def differs(self, other):\n        return self != other\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # the same instance look-up on self: `self != other` runs __eq__ where the class has no __ne__
    assert ("pkg/ad.py", "Point.__eq__") in {d[:2] for d in calls(edges, "pkg/ad.py::Point.differs")}
    assert ("pkg/ad.py", "Dict.__missing__") in {d[:2] for d in calls(edges, "pkg/ad.py::Dict.__getattr__")}
    used = {d[:2] for d in calls(edges, "pkg/ad.py::use")}
    assert ("pkg/ad.py", "Dict.__missing__") in used
    assert ("pkg/ad.py", "Own.__getitem__") in used and ("pkg/ad.py", "Own.__missing__") not in used
    # the class gets its own __getitem__: `d['a']` runs that instead
    changed = files["pkg/ad.py"].replace(
        "    def __missing__(self, name):\n        return self.__class__()\n",
        "    def __missing__(self, name):\n        return self.__class__()\n\n    def __getitem__(self, k):\n        return 2\n",
    )
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/ad.py": changed})
    assert ("pkg/ad.py", "Dict.__missing__") not in {d[:2] for d in calls(edges, "pkg/ad.py::use")}


def test_a_looked_up_name_built_with_format_and_its_case_changed(repo: Path, tmp_path: Path) -> None:
    # `name = "_process_{cls}".format(cls=type(node).__name__)` then `getattr(self, name.lower(), default)(node)`
    files = {
        "pkg/filters.py": (
            "class Reindent:\n"
            "    def _process(self, node):\n"
            "        func_name = '_process_{cls}'.format(cls=type(node).__name__)\n"
            "        func = getattr(self, func_name.lower(), self._process_default)\n"
            "        func(node)\n\n"
            "    def _strip(self, node):\n"
            "        return getattr(self, 'Strip_{}'.format(node).upper())(node)\n\n"
            "    def _process_where(self, node):\n        return 1\n\n"
            "    def _process_default(self, node):\n        return 2\n\n"
            "    def STRIP_ALL(self, node):\n        return 3\n\n"
            "    def other(self, node):\n        return 4\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    process = {d[1] for d in calls(edges, "pkg/filters.py::Reindent._process") if d[2] == "getattr"}
    assert process == {"Reindent._process_where"}
    # the default is held by the variable too: a plain call of the method
    assert ("pkg/filters.py", "Reindent._process_default", "self") in calls(edges, "pkg/filters.py::Reindent._process")
    assert calls(edges, "pkg/filters.py::Reindent._strip") == {("pkg/filters.py", "Reindent.STRIP_ALL", "getattr")}


def test_items_of_a_collection_the_function_fills_are_typed(repo: Path, tmp_path: Path) -> None:
    # `groups = []; groups.append(Group(...))` then `[g for g in groups if g]` runs Group.__bool__; a list
    # written out or comprehended types its items too, `yield from` iterates; an annotation of the collection wins
    files = {
        "pkg/groups.py": (
            "class Group:\n"
            "    def __bool__(self):\n        return True\n\n"
            "    def __iter__(self):\n        return iter(())\n\n"
            "    def size(self):\n        return 0\n\n\n"
            "class Other:\n"
            "    def size(self):\n        return 1\n\n\n"
            "def make():\n    return Group()\n\n\n"
            "def build(values):\n"
            "    groups = []\n"
            "    this_group = Group()\n"
            "    for v in values:\n"
            "        groups.append(this_group)\n"
            "        this_group = Group()\n"
            "    return [group for group in groups if group]\n\n\n"
            "def sizes():\n"
            "    shown = [make(), make()]\n"
            "    return [g.size() for g in shown]\n\n\n"
            "def chained(values):\n"
            "    gs = [Group() for v in values]\n"
            "    for g in gs:\n"
            "        yield from g\n\n\n"
            "class Stack:\n"
            "    def __init__(self):\n        self.filters = []\n        self.filters.append(Group())\n\n"
            "    def run(self):\n        return [f.size() for f in self.filters]\n\n\n"
            "def annotated(values):\n"
            "    xs: list[Other] = []\n"
            "    xs.append(make())\n"
            "    return [x.size() for x in xs]\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/groups.py", "Group.__bool__", "typed") in calls(edges, "pkg/groups.py::build")
    assert ("pkg/groups.py", "Group.size", "typed") in calls(edges, "pkg/groups.py::sizes")
    assert ("pkg/groups.py", "Group.__iter__", "typed") in calls(edges, "pkg/groups.py::chained")
    # an attribute's items: other files may add others (`stack.filters.append(Other())`): a name-match stays
    attribute = calls(edges, "pkg/groups.py::Stack.run")
    assert ("pkg/groups.py", "Other.size", "name-match") in attribute
    annotated = calls(edges, "pkg/groups.py::annotated")
    assert ("pkg/groups.py", "Other.size", "typed") in annotated
    assert ("pkg/groups.py", "Group.size", "typed") not in annotated


def test_a_method_name_of_many_overrides_in_few_hierarchies_is_matched(repo: Path, tmp_path: Path) -> None:
    # more definitions than MAX_CANDIDATES of `as_const`, all overrides in two class hierarchies: a call on an
    # unknown receiver may run each (a name-match of low confidence); a name of as many unrelated classes is not
    from crg_review.resolve import MAX_CANDIDATES, MAX_FAMILIES

    n = MAX_CANDIDATES + 2
    nodes = "class Expr:\n    def as_const(self):\n        return 0\n\n\n" + "".join(
        f"class E{i}(Expr):\n    def as_const(self):\n        return {i}\n\n\n" for i in range(n)
    )
    nodes += "class Pair:\n    def as_const(self):\n        return 1\n\n\n"
    other = "".join(f"class U{i}:\n    def fetch(self):\n        return {i}\n\n\n" for i in range(MAX_FAMILIES + 1))
    other += "".join(f"class V{i}(U{i % (MAX_FAMILIES + 1)}):\n    def fetch(self):\n        return {i}\n\n\n" for i in range(n))
    files = {
        "pkg/nodes.py": nodes,
        "pkg/other.py": other,
        "pkg/use.py": "def fold(args):\n    return [x.as_const() for x in args]\n\n\ndef load(x):\n    return x.fetch()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    fold = calls(edges, "pkg/use.py::fold")
    assert {d[1] for d in fold} == {"Expr.as_const", "Pair.as_const", *(f"E{i}.as_const" for i in range(n))}
    assert {d[2] for d in fold} == {"name-match"}
    assert calls(edges, "pkg/use.py::load") == set()  # MAX_FAMILIES + 1 hierarchies: ambiguous
    # one root becomes a subclass of another (in another file): the caller is re-resolved
    changed = other.replace(f"class U{MAX_FAMILIES}:", f"class U{MAX_FAMILIES}(U0):")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/other.py": changed})
    assert len(calls(edges, "pkg/use.py::load")) == MAX_FAMILIES + 1 + n


def test_a_decorator_of_a_nested_function_is_called_by_the_enclosing_function(repo: Path, tmp_path: Path) -> None:
    # `def make(): @deco def visit(...): ...; return visit`: running make applies deco
    files = {
        "pkg/deco.py": "def deco(f):\n    return f\n",
        "pkg/make.py": (
            "from .deco import deco\n\n\n"
            "def make(op):\n    @deco\n    def visit(node):\n        return op\n\n    return visit\n\n\n"
            "@deco\ndef top():\n    return 1\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/deco.py", "deco", "import") in calls(edges, "pkg/make.py::make")
    assert ("pkg/deco.py", "deco", "import") in calls(edges, "pkg/make.py::make.visit")  # as before
    assert ("pkg/deco.py", "deco", "import") in calls(edges, "pkg/make.py::top")


def test_a_function_taken_from_a_table_the_file_fills_is_each_of_the_table(repo: Path, tmp_path: Path) -> None:
    # `FUNCS = {"iso": utils.from_iso, ...}` in a class body (and a subclass's own), `func = self.FUNCS.get(fmt)`
    # then `func(value)`; a module-level table looked up by subscript
    files = {
        "pkg/utils.py": "def from_iso(v):\n    return v\n\ndef from_rfc(v):\n    return v\n\ndef from_date(v):\n    return v\n",
        "pkg/fields.py": (
            "from . import utils\nfrom .utils import from_rfc\n\n\n"
            "class DateTime:\n"
            "    FUNCS = {'iso': utils.from_iso, 'rfc': from_rfc}\n\n"
            "    def _deserialize(self, value, fmt):\n"
            "        func = self.FUNCS.get(fmt)\n"
            "        if func:\n            return func(value)\n        return value\n\n\n"
            "class Date(DateTime):\n"
            "    FUNCS = {'iso': utils.from_date}\n\n\n"
            "def upper(v):\n    return v\n\n\n"
            "TABLE = {'u': upper, 'i': utils.from_iso}\n\n\n"
            "def apply(k, v):\n    fn = TABLE[k]\n    return fn(v)\n\n\n"
            "def unrelated(k, v):\n    fn = {}.get(k)\n    return fn(v)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    deserialize = calls(edges, "pkg/fields.py::DateTime._deserialize")
    assert {(d[1], d[2]) for d in deserialize if d[2] == "table"} == {
        ("from_iso", "table"), ("from_rfc", "table"), ("from_date", "table")
    }
    assert {(d[1], d[2]) for d in calls(edges, "pkg/fields.py::apply")} >= {("upper", "table"), ("from_iso", "table")}
    assert not {d for d in calls(edges, "pkg/fields.py::unrelated") if d[2] == "table"}


def test_a_collection_made_from_a_literal_holds_its_items(repo: Path, tmp_path: Path) -> None:
    # itemadapter's `ADAPTER_CLASSES = deque([DictAdapter, ...])` in a class body, looped over and each called; the
    # same made at module level, where the variable is also assigned what the call returns
    files = {
        "ad.py": (
            "from collections import deque, OrderedDict\n\n\n"
            "class DictAdapter:\n    def __init__(self, item):\n        self.item = item\n\n\n"
            "class DataAdapter:\n    def __init__(self, item):\n        self.item = item\n\n\n"
            "def plain(v):\n    return v\n\n\n"
            "ADAPTERS = deque([DictAdapter, DataAdapter])\n"
            "CONVERTERS = OrderedDict({'plain': plain})\n"
            "OTHERS = deque()\n\n\n"
            "class ItemAdapter:\n    ADAPTER_CLASSES = deque([DictAdapter, DataAdapter])\n\n"
            "    def __init__(self, item):\n        for cls in self.ADAPTER_CLASSES:\n"
            "            self.adapter = cls(item)\n\n\n"
            "def adapt(item):\n    for cls in ADAPTERS:\n        return cls(item)\n\n\n"
            "def convert(k, v):\n    fn = CONVERTERS[k]\n    return fn(v)\n\n\n"
            "def other(item):\n    for cls in OTHERS:\n        return cls(item)\n"
        ),
        "holder.py": (
            "from ad import DictAdapter, DataAdapter\n\n\n"
            "class Lookup:\n    def lookup(self, key):\n        return key\n\n    @classmethod\n"
            "    def is_item(cls, item):\n        return True\n\n\n"
            "class Holder:\n    KINDS = [Lookup, DictAdapter]\n\n    def __init__(self, item):\n"
            "        for kind in self.KINDS:\n            if kind.is_item(item):\n"
            "                self.adapter = kind(item)\n\n"
            "    def get(self, key):\n        return self.adapter.lookup(key)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    made = {("ad.py", "DictAdapter.__init__", "constructor"), ("ad.py", "DataAdapter.__init__", "constructor")}
    assert made <= calls(edges, "ad.py::ItemAdapter.__init__")
    assert made <= calls(edges, "ad.py::adapt")
    assert ("ad.py", "plain", "table") in calls(edges, "ad.py::convert")
    assert not {d for d in calls(edges, "ad.py::other") if d[1].endswith("__init__")}  # an empty deque holds nothing
    # a variable holding one of a table's classes: its members are each class's, what calling it makes an instance
    assert ("holder.py", "Lookup.is_item", "instances") in calls(edges, "holder.py::Holder.__init__")
    assert ("holder.py", "Lookup.lookup", "typed") in calls(edges, "holder.py::Holder.get")


def test_a_table_of_bound_methods_a_subclass_adds_to_calls_those_too(repo: Path, tmp_path: Path) -> None:
    # simpleeval: `self.nodes = {ast.Num: self._eval_num}` in the base, `self.nodes.update({...})` in a subclass
    files = {
        "pkg/__init__.py": "",
        "pkg/ev.py": (
            "class Eval:\n    def __init__(self):\n        self.nodes = {int: self._eval_num}\n\n"
            "    def _eval_num(self, n):\n        return n\n\n"
            "    def _eval(self, node):\n        handler = self.nodes[type(node)]\n        return handler(node)\n\n\n"
            "class Compound(Eval):\n    def __init__(self):\n        super().__init__()\n"
            "        self.nodes.update({list: self._eval_list})\n        self.other = {}\n"
            "        self.other.update({str: self._eval_str})\n\n"
            "    def _eval_list(self, node):\n        return [self._eval(n) for n in node]\n\n"
            "    def _eval_str(self, node):\n        return node\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    table = {d[1] for d in calls(edges, "pkg/ev.py::Eval._eval") if d[2] == "table"}
    assert table == {"Eval._eval_num", "Compound._eval_list"}  # not what another table of the subclass holds



def test_a_table_made_from_a_module_table_calls_its_functions(repo: Path, tmp_path: Path) -> None:
    # simpleeval: `operators = DEFAULT_OPERATORS.copy()` (or a parameter's default), `self.operators = operators`,
    # then `self.operators[type(node.op)](left, right)` or `op = self.operators[k]; op(a)`
    files = {
        "pkg/__init__.py": "",
        "pkg/ev.py": (
            "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return -a\n\n\ndef noop():\n    return None\n\n\n"
            "DEFAULT = {'+': add, '-': neg}\nHOOKS = [noop]\n\n\n"
            "class Eval:\n    def __init__(self, operators=None):\n        if operators is None:\n"
            "            operators = DEFAULT.copy()\n        self.operators = operators\n\n"
            "    def binop(self, k, a, b):\n        return self.operators[k](a, b)\n\n"
            "    def unary(self, k, a):\n        op = self.operators[k]\n        return op(a)\n\n\n"
            "class Hooks:\n    def __init__(self, hooks=HOOKS):\n        self.hooks = hooks\n\n"
            "    def run(self, i):\n        return self.hooks[i]()\n\n\n"
            "def unrelated(d, k):\n    return d[k]()\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for scope in ("Eval.binop", "Eval.unary"):
        assert {d[1] for d in calls(edges, f"pkg/ev.py::{scope}") if d[2] == "table"} == {"add", "neg"}
    assert {d[1] for d in calls(edges, "pkg/ev.py::Hooks.run") if d[2] == "table"} == {"noop"}
    assert not {d for d in calls(edges, "pkg/ev.py::unrelated") if d[2] == "table"}




def test_a_collection_given_in_one_scope_keeps_its_type_in_a_nested_one(repo: Path, tmp_path: Path) -> None:
    # configobj's validate: `section` given to a call there, and `section[entry] = check` in a nested function,
    # which must still see what the function around it says `section` is
    files = {
        "pkg/__init__.py": "",
        "pkg/conf.py": (
            "class Section(dict):\n    def __setitem__(self, k, v):\n        dict.__setitem__(self, k, v)\n\n\n"
            "def keep(x):\n    return x\n\n\n"
            "def validate(section: Section):\n    keep(section)\n\n"
            "    def entry(k, check):\n        section[k] = check\n\n    return entry\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/conf.py", "Section.__setitem__", "typed") in calls(edges, "pkg/conf.py::validate.entry")

def test_an_item_looked_up_and_called_in_a_nested_function_is_each_of_the_table(repo: Path, tmp_path: Path) -> None:
    # simpleeval's comprehensions: `previous = self.nodes[ast.Name]`, then a closure calls `previous(node)`
    files = {
        "pkg/__init__.py": "",
        "pkg/ev.py": (
            "class Ev:\n    def __init__(self):\n        self.nodes = {int: self._num, str: self._name}\n\n"
            "    def _num(self, n):\n        return n\n\n    def _name(self, n):\n        return n\n\n"
            "    def comp(self, extra):\n        previous = self.nodes[str]\n\n"
            "        def extra_names(node):\n            if node in extra:\n                return extra[node]\n"
            "            return previous(node)\n\n        return extra_names\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {d[1] for d in calls(edges, "pkg/ev.py::Ev.comp.extra_names") if d[2] == "table"} == {"Ev._num", "Ev._name"}

def test_functions_given_in_a_collection_are_called_by_the_function_given_it(repo: Path, tmp_path: Path) -> None:
    # inflect: `methods: dict[str, Callable] = {"plural": self.plural, ...}` given to `_sub(mo, methods)`, which calls
    # `methods[name](*args)`; `norms = self.plural, self.ordinal` iterated, each given to `_plequal(a, b, norm)`,
    # which calls `pl(a)`; `keep(self.plural, ...)` does not call what it is given
    files = {
        "pkg/__init__.py": "",
        "pkg/eng.py": (
            "class Engine:\n    def plural(self, w):\n        return w + 's'\n\n"
            "    def ordinal(self, n):\n        return str(n)\n\n"
            "    def other(self, n):\n        return n\n\n"
            "    def _sub(self, name, methods):\n        return methods[name](1)\n\n"
            "    def inflect(self, text):\n        methods: dict = {\n            'plural': self.plural,\n"
            "            'ordinal': self.ordinal,\n        }\n        return self._sub(text, methods)\n\n"
            "    def _plequal(self, a, b, pl):\n        return pl(a) == b\n\n"
            "    def compare(self, a, b):\n        norms = self.plural, self.ordinal\n"
            "        return any(self._plequal(a, b, norm) for norm in norms)\n\n"
            "    def keep(self, *fs):\n        return list(fs)\n\n"
            "    def stored(self):\n        kept = (self.other,)\n        return self.keep(kept)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {d[1] for d in calls(edges, "pkg/eng.py::Engine._sub") if d[2] == "passed"} == {"Engine.plural", "Engine.ordinal"}
    assert {d[1] for d in calls(edges, "pkg/eng.py::Engine._plequal") if d[2] == "passed"} == {
        "Engine.plural", "Engine.ordinal"
    }
    assert not {d for d in calls(edges, "pkg/eng.py::Engine.keep") if d[2] == "passed"}
    # the tuple's functions are named by the scope that builds it: the walk goes from them to it
    refs = {(e[3], e[5]) for e in edges if e[1] == "Engine.compare" and e[4] == "ref"}
    assert {("Engine.plural", "self"), ("Engine.ordinal", "self")} <= refs



def test_functions_given_in_a_list_to_a_function_looping_over_it_are_called_there(repo: Path, tmp_path: Path) -> None:
    # json5's generated parser: `self._seq([self._a, self._b])` where `_seq(self, rules)` runs `for rule in rules:
    # rule()`; a loop over something else (`for rule in self.extra: rule()`) calls none of what it is given
    files = {
        "pkg/__init__.py": "",
        "pkg/parser.py": (
            "class Parser:\n    extra = ()\n\n    def _seq(self, rules):\n        for rule in rules:\n            rule()\n\n"
            "    def _first(self, rules):\n        for rule in rules[:1]:\n            rule()\n\n"
            "    def _other(self, rules):\n        for rule in self.extra:\n            rule()\n\n"
            "    def _a(self):\n        return 1\n\n    def _b(self):\n        return 2\n\n"
            "    def _c(self):\n        return 3\n\n"
            "    def parse(self):\n        self._seq([self._a, self._b])\n        self._first([self._c])\n"
            "        self._other([self._a])\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {d[1] for d in calls(edges, "pkg/parser.py::Parser._seq") if d[2] == "passed"} == {"Parser._a", "Parser._b"}
    assert {d[1] for d in calls(edges, "pkg/parser.py::Parser._first") if d[2] == "passed"} == {"Parser._c"}
    assert not {d for d in calls(edges, "pkg/parser.py::Parser._other") if d[2] == "passed"}

SUBSCRIPTS = {
    "pkg/cache.py": (
        "class Cache:\n"
        "    def __getitem__(self, key):\n        return key\n\n"
        "    def pop(self, key):\n        value = self[key]\n        del self[key]\n        return value\n\n"
        "    def setdefault(self, key, value):\n        if key not in self:\n            self[key] = value\n        return value\n\n\n"
        "class LRUCache(Cache):\n"
        "    def __delitem__(self, key):\n        pass\n\n"
        "    def __setitem__(self, key, value):\n        pass\n\n"
        "    def __contains__(self, key):\n        return True\n\n\n"
        "def use(data: dict, cache: LRUCache):\n    data['k'] = 1\n    cache['k'] = data['k']\n    del cache['j'], data['j']\n"
    ),
}


def test_subscripts_and_membership_call_the_methods_of_the_object(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, SUBSCRIPTS, tmp_path / "i.db")
    # self[key] on the base class: its own __getitem__, and what subclasses define (dispatch)
    pop = calls(edges, "pkg/cache.py::Cache.pop")
    assert {("pkg/cache.py", "Cache.__getitem__", "self"), ("pkg/cache.py", "LRUCache.__delitem__", "dispatch")} <= pop
    default = calls(edges, "pkg/cache.py::Cache.setdefault")
    assert {("pkg/cache.py", "LRUCache.__setitem__", "dispatch"), ("pkg/cache.py", "LRUCache.__contains__", "dispatch")} <= default
    # a typed receiver; a dict's subscripts are no call of the project
    use = calls(edges, "pkg/cache.py::use")
    # the target of `x[k] = v` or of `del x[k]` is not read (it was, by the query of every subscript, until ho33)
    assert use == {("pkg/cache.py", "LRUCache.__setitem__", "typed"), ("pkg/cache.py", "LRUCache.__delitem__", "typed")}
    # the subclass (another file) defines __getitem__: the base's self[key] reaches it too
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db",
        {"pkg/ttl.py": "from .cache import Cache\n\n\nclass TTLCache(Cache):\n    def __getitem__(self, key):\n        return 1\n"},
    )
    assert ("pkg/ttl.py", "TTLCache.__getitem__", "dispatch") in calls(edges, "pkg/cache.py::Cache.pop")


def test_iterating_builtins_and_truthiness_call_the_methods_of_typed_objects(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/seek.py": (
            "class Seekable:\n    def __iter__(self):\n        return self\n\n    def __bool__(self):\n        return True\n\n\n"
            "class Bucket:\n    def __len__(self):\n        return 0\n\n\n"
            "def use(items):\n    s = Seekable()\n    if s:\n        return sorted(Seekable())\n    b = Bucket()\n"
            "    assert not b\n    return b\n\n\n"
            "def other(items):\n    if items:\n        return list(items)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    use = calls(edges, "pkg/seek.py::use")
    assert {
        ("pkg/seek.py", "Seekable.__iter__", "typed"),
        ("pkg/seek.py", "Seekable.__bool__", "typed"),
        ("pkg/seek.py", "Bucket.__len__", "typed"),
    } <= use
    assert calls(edges, "pkg/seek.py::other") == set()  # items is of unknown type: no guess


def test_unpacking_a_typed_object_iterates_it(repo: Path, tmp_path: Path) -> None:
    # pyasn1: `tagClass, tagFormat, tagId = singleTag` runs Tag.__iter__
    files = {
        "pkg/tag.py": "class Tag:\n    def __iter__(self):\n        return iter((1, 2))\n\n\n"
        "def make():\n    return Tag()\n\n\n"
        "def split(t: Tag):\n    cls, num = t\n    [a, b] = make()\n    return cls, num, a, b\n\n\n"
        "def pair(n):\n    x, y = n\n    return x, y\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/tag.py::split") >= {("pkg/tag.py", "Tag.__iter__", "typed")}
    assert not {c for c in calls(edges, "pkg/tag.py::pair") if c[1] == "Tag.__iter__"}  # n of unknown type: no guess


def test_what_a_class_attribute_holding_a_class_makes_is_typed(repo: Path, tmp_path: Path) -> None:
    # pyasn1: `STREAMING_DECODER = StreamingDecoder` in the class body, then in a classmethod
    # `streamingDecoder = cls.STREAMING_DECODER(substrate)` and `for asn1Object in streamingDecoder:`
    files = {
        "pkg/dec.py": "class StreamingDecoder:\n    def __iter__(self):\n        return iter(())\n\n"
        "    def close(self):\n        pass\n\n\n"
        "class Decoder:\n    STREAMING_DECODER = StreamingDecoder\n\n    @classmethod\n    def decode(cls, data):\n"
        "        streaming = cls.STREAMING_DECODER()\n        out = [x for x in streaming]\n        streaming.close()\n"
        "        return out\n",
    }
    files["pkg/alg.py"] = (
        "class Expr:\n    def simplify(self):\n        return self\n\n\nclass Symbol(Expr):\n    pass\n\n\n"
        "class NOT(Expr):\n    def simplify(self):\n        return self\n\n\n"
        "class Algebra:\n    def __init__(self, symbol_class=None):\n        self.Symbol = symbol_class or Symbol\n\n"
        "    def parse(self, tokens):\n        ast = [self.Symbol(tokens[0]), NOT]\n        parsed = ast[0]\n"
        "        return parsed.simplify()\n"
    )
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/dec.py::Decoder.decode") >= {
        ("pkg/dec.py", "StreamingDecoder.__iter__", "typed"),
        ("pkg/dec.py", "StreamingDecoder.close", "typed"),
    }
    # boolean.py: `self.Symbol(...)` (set from a parameter) among other items of a list does not type what is taken
    # from the list: a name match still reaches every override of simplify()
    assert ("pkg/alg.py", "NOT.simplify", "name-match") in calls(edges, "pkg/alg.py::Algebra.parse")


def test_a_union_annotation_types_a_variable_with_each_of_its_classes(repo: Path, tmp_path: Path) -> None:
    # python-multipart: `writer: File | Field | Base64Decoder | QuotedPrintableDecoder | None` then `writer.write(data)`
    files = {
        "pkg/io.py": "".join(f"class {c}:\n    def write(self, data):\n        return data\n\n\n" for c in ("File", "Decoder", "Other"))
        + "def feed(writer: File | Decoder | None, data):\n    return writer.write(data)\n\n\n"
        "def old(writer: 'Union[File, Decoder]', data):\n    return writer.write(data)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    expected = {("pkg/io.py", "File.write", "typed"), ("pkg/io.py", "Decoder.write", "typed")}
    assert calls(edges, "pkg/io.py::feed") == expected
    assert calls(edges, "pkg/io.py::old") == expected


def test_a_parenthesized_callee_is_called(repo: Path, tmp_path: Path) -> None:
    # json5's generated parser: `self._not(lambda: (self._sqchar__c0__s0_n_g_)())`
    files = {
        "pkg/parser.py": "class Parser:\n    def _rule(self):\n        return 1\n\n"
        "    def _not(self, f):\n        return not f()\n\n"
        "    def go(self):\n        return self._not(lambda: (self._rule)())\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/parser.py", "Parser._rule", "self") in calls(edges, "pkg/parser.py::Parser.go")


def test_unittest_assertions_call_the_protocol_methods_of_typed_objects(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/bucket.py": (
            "class Bucket:\n    def __contains__(self, key):\n        return True\n\n"
            "    def __bool__(self):\n        return True\n\n    def __eq__(self, other):\n        return True\n\n\n"
            "class Url:\n    def __eq__(self, other):\n        return True\n\n    def __ne__(self, other):\n        return False\n\n"
            "    def __dir__(self):\n        return []\n"
        ),
        "tests/test_bucket.py": (
            "import unittest\n\nfrom pkg.bucket import Bucket, Url\n\n\n"
            "class BucketTests(unittest.TestCase):\n"
            "    def test_in(self):\n        b = Bucket()\n        self.assertIn(10, b)\n\n"
            "    def test_true(self):\n        b = Bucket()\n        self.assertTrue(b)\n\n"
            "    def test_equal(self):\n        b = Bucket()\n        self.assertEqual([], b)\n\n"
            "    def test_differ(self):\n        u = Url()\n        b = Bucket()\n        self.assertNotEqual(u, b)\n\n"
            "    def test_dir(self):\n        u = Url()\n        self.assertTrue(dir(u))\n\n"
            "    def test_unknown(self):\n        self.assertIn(10, self.items)\n        self.assertEqual(self.items, [])\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/bucket.py", "Bucket.__contains__", "typed") in calls(edges, "tests/test_bucket.py::BucketTests.test_in")
    assert ("pkg/bucket.py", "Bucket.__bool__", "typed") in calls(edges, "tests/test_bucket.py::BucketTests.test_true")
    assert ("pkg/bucket.py", "Bucket.__eq__", "typed") in calls(edges, "tests/test_bucket.py::BucketTests.test_equal")
    # assertNotEqual compares with != : Url's own __ne__, and Bucket's __eq__ (it has no __ne__)
    differ = {(d[1], d[2]) for d in calls(edges, "tests/test_bucket.py::BucketTests.test_differ")}
    assert {("Url.__ne__", "typed"), ("Bucket.__eq__", "typed")} <= differ and ("Url.__eq__", "typed") not in differ
    assert ("pkg/bucket.py", "Url.__dir__", "typed") in calls(edges, "tests/test_bucket.py::BucketTests.test_dir")  # dir(u)
    unknown = calls(edges, "tests/test_bucket.py::BucketTests.test_unknown")
    assert not {e for e in unknown if e[0] == "pkg/bucket.py"}  # self.items: of unknown type, no guess


def test_a_parameter_called_runs_what_its_default_names(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/keys.py": "def hashkey(*args):\n    return args\n",
        "pkg/cache.py": (
            "from . import keys\n\n\n"
            "class Cache:\n    def __delitem__(self, key):\n        pass\n\n\n"
            "class LRU(Cache):\n"
            "    def __delitem__(self, key, cache_delitem=Cache.__delitem__):\n        cache_delitem(self, key)\n\n\n"
            "def cached(cache, key=keys.hashkey):\n    def wrapper(*args):\n        return cache[key(*args)]\n\n"
            "    return wrapper\n\n\n"
            "def plain(key, callback=None):\n    return key(1)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/cache.py", "Cache.__delitem__", "class") in calls(edges, "pkg/cache.py::LRU.__delitem__")
    assert ("pkg/keys.py", "hashkey", "module") in calls(edges, "pkg/cache.py::cached.wrapper")
    assert calls(edges, "pkg/cache.py::plain") == set()  # no default: a parameter of unknown value
    # the default's target is renamed in another file: the call follows
    edges = assert_incremental_equals_full(
        repo, tmp_path, tmp_path / "i.db", {"pkg/keys.py": "def hashkey2(*args):\n    return args\n"}
    )
    assert not any(d[1] == "hashkey" for d in calls(edges, "pkg/cache.py::cached.wrapper"))


def test_a_property_read_on_self_holds_what_the_getter_returns(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/timer.py": "class Timer:\n    def __enter__(self):\n        return 1\n\n    def __exit__(self, *exc):\n        pass\n",
        "pkg/base.py": (
            "from .timer import Timer\n\n\n"
            "class Timed:\n    def __init__(self):\n        self._timer = Timer()\n\n"
            "    @property\n    def timer(self):\n        return self._timer\n\n"
            "    def expire(self):\n        with self.timer as t:\n            return t\n"
        ),
        "pkg/ttl.py": (
            "from .base import Timed\n\n\n"
            "class TTL(Timed):\n    def pop(self):\n        with self.timer as t:\n            return t\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/timer.py", "Timer.__enter__", "typed") in calls(edges, "pkg/base.py::Timed.expire")
    # in another file only the getter's annotation tells (its body is not read there)
    assert not any(d[1] == "Timer.__enter__" for d in calls(edges, "pkg/ttl.py::TTL.pop"))
    annotated = files["pkg/base.py"].replace("def timer(self):", "def timer(self) -> Timer:")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/base.py": annotated})
    assert ("pkg/timer.py", "Timer.__enter__", "typed") in calls(edges, "pkg/ttl.py::TTL.pop")


@pytest.mark.parametrize("level", [1, 2])
def test_a_package_module_appearing_re_resolves_relative_imports_from_it(repo: Path, tmp_path: Path, level: int) -> None:
    # `from . import f0` names the package by position, not by text: when pkg/__init__.py appears or goes,
    # the importing file must be resolved again even though it mentions none of the new file's names
    importer = "pkg/a.py" if level == 1 else "pkg/sub/a.py"
    dots = "." * level
    index(repo, {importer: f"from {dots} import f0\n\n\ndef use():\n    f0()\n"}, tmp_path / "i.db")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/__init__.py": "class C0:\n    pass\n"})
    assert any(e[0] == importer and e[2] == "pkg/__init__.py" for e in edges)  # the import now reaches the package
    (repo / "pkg/__init__.py").unlink()
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {})
    assert not any(e[2] == "pkg/__init__.py" for e in edges)


def test_reading_an_attribute_a_descriptor_decorates_runs_its_get(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "pkg/desc.py": (
                "class Lazy:\n    def __init__(self, fget):\n        self.fget = fget\n\n"
                "    def __get__(self, obj, owner=None):\n        return self.fget(obj)\n\n\n"
                "def lazy(fget=None, doc=None):\n    return Lazy(fget)\n\n\n"
                "def tagged(fn):\n    return fn\n\n\n"
                "class Box:\n    @lazy\n    def size(self):\n        return 1\n\n"
                "    @Lazy\n    def name(self):\n        return 'b'\n\n"
                "    @tagged\n    def plain(self):\n        return 0\n\n"
                "    def show(self):\n        return (self.size, self.name, self.plain)\n"
            ),
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "pkg/desc.py::Box.show")
    # through a function returning the descriptor class, and through the class itself
    assert ("pkg/desc.py", "Lazy.__get__", "descriptor") in found
    assert {("pkg/desc.py", "Box.size", "property"), ("pkg/desc.py", "Box.name", "property")} <= found
    # a decorator returning no descriptor makes no property: reading the attribute calls nothing
    assert not any(q == "Box.plain" for _, q, _ in found)
    # the descriptor's __get__ runs each getter made with it
    assert calls(edges, "pkg/desc.py::Lazy.__get__") == {
        ("pkg/desc.py", "Box.size", "decorated"),
        ("pkg/desc.py", "Box.name", "decorated"),
    }



def test_calling_a_function_a_decorator_class_wraps_runs_its_call(repo: Path, tmp_path: Path) -> None:
    # toolz's `@curry def memoize(...)`: the name holds a curry, whose __call__ runs the function it keeps
    edges, _, _ = index(
        repo,
        {
            "pkg/fn.py": (
                "from functools import partial\n\n\nclass curry:\n    def __init__(self, func, *args):\n"
                "        self._partial = partial(func, *args)\n\n    def __call__(self, *args):\n"
                "        return self._partial(*args)\n\n\n"
                "class register:\n    def __init__(self, name):\n        self.name = name\n\n"
                "    def __call__(self, func):\n        return func\n\n\n"
                "@curry\ndef memoize(func, cache=None):\n    return func\n\n\n"
                "@curry\ndef get(key, seq):\n    return seq[key]\n\n\n"
                "@register('x')\ndef handler():\n    return 1\n"
            ),
        },
        tmp_path / "i.db",
    )
    assert calls(edges, "pkg/fn.py::curry.__call__") == {("pkg/fn.py", "memoize", "decorated"), ("pkg/fn.py", "get", "decorated")}
    # `@register(...)` gives the function to __call__, which wraps it and runs nothing
    assert calls(edges, "pkg/fn.py::register.__call__") == set()

def test_a_module_level_alias_is_imported_as_what_it_names(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "pkg/__init__.py": "",
            "pkg/omd.py": (
                "class OrderedMultiDict:\n    def update(self, other):\n        return self\n\n\n"
                "OMD = OrderedMultiDict\nMultiDict = OMD\nFLAGS = 3\n"
            ),
            "tests/test_omd.py": (
                "from pkg.omd import OMD, MultiDict, FLAGS\n\n\ndef test_update():\n    omd = OMD()\n"
                "    omd.update({})\n    return MultiDict(), FLAGS\n"
            ),
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "tests/test_omd.py::test_update")
    # `omd = OMD()` types omd: update is the class's, not a name match among dict-like methods
    assert ("pkg/omd.py", "OrderedMultiDict", "reexport") in found
    assert ("pkg/omd.py", "OrderedMultiDict.update", "typed") in found
    # the imports of OMD and of an alias of it (MultiDict) reach the class; a plain value aliases nothing
    imported = [e for e in edges if e[0] == "tests/test_omd.py" and e[4] == "import"]
    assert sum(1 for e in imported if e[3] == "OrderedMultiDict") == 1  # one edge per (src, dst, kind)
    assert not any(q == "FLAGS" for _, q, _ in found)


def test_an_object_formats_measures_and_compares_itself_through_its_own_methods(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/bag.py": (
            "class Bag:\n"
            "    def __str__(self):\n        return 'bag'\n\n"
            "    def __repr__(self):\n        return f'<Bag {self}>'\n\n"
            "    def __len__(self):\n        return 0\n\n"
            "    def __iter__(self):\n        return iter([])\n\n"
            "    def __eq__(self, other):\n        return str(self) == str(other)\n\n"
            "    def __ne__(self, other):\n        return not (self == other)\n\n"
            "    def describe(self):\n        return f'{self!r}: {len(self)} {[x for x in self]}'\n\n\n"
            "def show(n):\n    b = Bag()\n    return f'{b} {n}' + ''.join(str(y) for y in b)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/bag.py", "Bag.__str__", "self") in calls(edges, "pkg/bag.py::Bag.__repr__")
    assert ("pkg/bag.py", "Bag.__str__", "self") in calls(edges, "pkg/bag.py::Bag.__eq__")
    assert ("pkg/bag.py", "Bag.__eq__", "self") in calls(edges, "pkg/bag.py::Bag.__ne__")
    assert {("pkg/bag.py", f"Bag.{m}", "self") for m in ("__repr__", "__len__", "__iter__")} <= calls(
        edges, "pkg/bag.py::Bag.describe"
    )
    # a typed value in an f-string and a generator expression's iterable
    assert {("pkg/bag.py", "Bag.__str__", "typed"), ("pkg/bag.py", "Bag.__iter__", "typed")} <= calls(
        edges, "pkg/bag.py::show"
    )
    # `{n}`: a parameter of unknown type formats through no method of ours
    assert {d[1] for d in calls(edges, "pkg/bag.py::show")} == {"Bag", "Bag.__str__", "Bag.__iter__"}


def test_a_function_given_to_a_standard_one_that_calls_it_is_called(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/spec.py": (
            "import functools\nimport itertools\n\n\n"
            "class Spec:\n    def __init__(self, text):\n        self.text = text\n\n"
            "    def width(self):\n        return 1\n\n"
            "    def widths(self, specs):\n        return max(specs, key=self.width)\n\n\n"
            "def combine(a, b):\n    return a\n\n\n"
            "def short(s):\n    return len(s) < 3\n\n\n"
            "def parse(texts, func):\n"
            "    specs = frozenset(map(Spec, texts))\n"
            "    head = list(itertools.takewhile(short, texts))\n"
            "    texts.sort(key=len)\n"
            "    return functools.reduce(combine, specs), head, list(map(func, texts)), sorted(texts, key=short)\n"
        ),
    }
    edges, _, stats = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/spec.py::parse")
    assert {d[1] for d in found} == {"Spec", "Spec.__init__", "short", "combine"}  # no parameter, no builtin
    assert ("pkg/spec.py", "Spec.width", "self") in calls(edges, "pkg/spec.py::Spec.widths")
    # a function given that is no definition (a parameter, a builtin) is no unresolved call of the user's
    assert set(stats["unresolved_by_reason"]) <= {"builtin", "external"}  # type: ignore[call-overload]


def test_a_function_given_as_a_regular_expression_replacement_is_called(repo: Path, tmp_path: Path) -> None:
    # w3lib's `_ent_re.sub(convert_entity, text)`, webob's `_rx_unquote.sub(_ch_unquote, v)`, `re.sub(p, repl, s)`
    files = {
        "pkg/text.py": (
            "import re\n\n_RE = re.compile('a')\n\n\n"
            "def upper(m):\n    return m.group(0).upper()\n\n\n"
            "def lower(m):\n    return m.group(0).lower()\n\n\n"
            "class Vector:\n    def sub(self, other):\n        return self\n\n\n"
            "def shout(text):\n    def nested(m):\n        return '!'\n\n"
            "    return _RE.sub(upper, text), re.sub('b', lower, text), _RE.subn(nested, text)\n\n\n"
            "def arithmetic(v):\n    return v.sub(Vector()), v.sub(upper.__name__)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {d[1] for d in calls(edges, "pkg/text.py::shout")} == {"upper", "lower", "shout.nested"}
    assert {d[1] for d in calls(edges, "pkg/text.py::arithmetic")} == {"Vector", "Vector.sub"}


def test_a_name_assigned_several_functions_or_a_partial_calls_each(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/rows.py": (
            "from functools import partial\n\n\n"
            "def basic_row(lines, row):\n    return lines\n\n\n"
            "def multiline_row(lines, row, pad):\n    return lines\n\n\n"
            "def pad_left(s):\n    return s\n\n\n"
            "def pad_right(s):\n    return s\n\n\n"
            "def table(rows, multiline, right):\n"
            "    if multiline:\n        append_row = partial(multiline_row, pad=1)\n"
            "    else:\n        append_row = basic_row\n"
            "    padfn = pad_left\n    if right:\n        padfn = pad_right\n"
            "    return [append_row([], padfn(r)) for r in rows]\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = {d[1] for d in calls(edges, "pkg/rows.py::table")}
    assert found == {"basic_row", "multiline_row", "pad_left", "pad_right"}  # functools.partial is no definition


def test_an_attribute_a_base_class_types_is_typed_in_its_subclasses(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/nodes.py": (
            "class Expr:\n    def as_const(self):\n        return 1\n\n\n"
            "class Stream:\n    def expect(self):\n        return 2\n\n\n"
            "class BinExpr(Expr):\n    left: Expr\n\n    def __init__(self):\n        self.stream = Stream()\n\n\n"
            "class And(BinExpr):\n    def as_const(self):\n        self.stream.expect()\n        return self.left.as_const()\n"
        ),
        "pkg/more.py": "from .nodes import BinExpr\n\n\nclass Or(BinExpr):\n    def as_const(self):\n        return self.left.as_const()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/nodes.py::And.as_const")
    assert {("pkg/nodes.py", "Expr.as_const", "typed"), ("pkg/nodes.py", "Stream.expect", "typed")} <= found
    # and in a subclass of another file (the store names the base when its facts change, so that file follows)
    assert ("pkg/nodes.py", "Expr.as_const", "typed") in calls(edges, "pkg/more.py::Or.as_const")
    # the base's annotation changes: the subclasses' calls follow
    changed = files["pkg/nodes.py"].replace("    left: Expr\n", "    left: Stream\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/nodes.py": changed})
    assert ("pkg/nodes.py", "Expr.as_const", "typed") not in calls(edges, "pkg/nodes.py::And.as_const")
    assert ("pkg/nodes.py", "Expr.as_const", "typed") not in calls(edges, "pkg/more.py::Or.as_const")


DECORATORS = {
    "pkg/deco.py": (
        "import typing as t\nfrom functools import update_wrapper, wraps\n\n\n"
        "def optimize(f):\n"
        "    def new_func(self, node):\n        return f(self, node)\n\n"
        "    return update_wrapper(t.cast(t.Any, new_func), f)\n\n\n"
        "def cached(key):\n"
        "    def decorator(func):\n"
        "        @wraps(func)\n        def wrapper(*args):\n            return func(*args)\n\n"
        "        return wrapper\n\n"
        "    return decorator\n\n\n"
        "@t.overload\ndef command(name: str) -> t.Any: ...\n\n\n"
        "def command(name):\n    def make(f):\n        return f\n\n    return make\n\n\n"
        "class Generator:\n"
        "    @optimize\n    def visit_Call(self, node):\n        return node\n\n"
        "    @optimize\n    def visit_Name(self, node):\n        return node\n\n"
        "    def visit_Block(self, node):\n        return self.visit_Call(node)\n\n\n"
        "@cached(key=1)\ndef lookup(x):\n    return x\n\n\n"
        "def lru_cache(f):\n    return cached(key=2)(f)\n\n\n"
        "def group(f):\n    return command('x')(f)\n\n\n"
        "def use():\n    return lookup(1)\n"
    ),
}


def test_decorator_functions_of_the_same_file_wrap_and_are_unwrapped(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(repo, DECORATORS, tmp_path / "i.db")
    # calling a decorated function runs the wrapper its decorator returns (through update_wrapper, t.cast, @wraps)
    assert ("pkg/deco.py", "optimize.new_func", "wrapper") in calls(edges, "pkg/deco.py::Generator.visit_Block")
    assert ("pkg/deco.py", "cached.decorator.wrapper", "wrapper") in calls(edges, "pkg/deco.py::use")
    # the wrapper calls the functions the decorator decorates
    assert {d[1:] for d in calls(edges, "pkg/deco.py::optimize.new_func")} == {
        ("Generator.visit_Call", "decorated"),
        ("Generator.visit_Name", "decorated"),
    }
    assert ("pkg/deco.py", "lookup", "decorated") in calls(edges, "pkg/deco.py::cached.decorator.wrapper")
    # a function a call returns, called (past an @overload stub)
    assert ("pkg/deco.py", "cached.decorator", "returned") in calls(edges, "pkg/deco.py::lru_cache")
    assert ("pkg/deco.py", "command#2.make", "returned") in calls(edges, "pkg/deco.py::group")  # the 2nd definition
    # the wrapper no longer calls the function it wraps: its edges go
    changed = DECORATORS["pkg/deco.py"].replace("        return f(self, node)\n", "        return node\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/deco.py": changed})
    assert calls(edges, "pkg/deco.py::optimize.new_func") == set()


def test_calling_a_property_of_the_file_calls_what_its_getter_returns(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/timed.py": (
            "class Timer:\n    def __call__(self):\n        return 0\n\n\n"
            "class Timed:\n    def __init__(self):\n        self.__timer = Timer()\n\n"
            "    @property\n    def timer(self):\n        return self.__timer\n\n\n"
            "class TTL(Timed):\n    def expired(self, item):\n        return self.timer() > item\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/timed.py::TTL.expired")
    assert ("pkg/timed.py", "Timer.__call__", "typed") in found
    # the getter returns an instance: calling it constructs nothing
    assert not any(d[1] in ("Timer", "Timer.__init__") for d in found)


def test_a_typed_key_of_a_mapping_is_hashed_and_compared(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/keys.py": (
            "class Key:\n    def __hash__(self):\n        return 0\n\n    def __eq__(self, other):\n        return True\n\n\n"
            "class SingleKey(Key):\n    def __hash__(self):\n        return 1\n\n\n"
            "class Container:\n"
            "    def __init__(self):\n        self._map = {}\n\n"
            "    def append(self, key: Key, plain):\n"
            "        if key in self._map:\n            return self._map.get(key)\n"
            "        self._map[plain] = 1\n        return plain in self._map\n\n"
            "    def same(self, key: Key, other):\n        self._map[key] = 1\n        return key == other\n\n"
            "    def made(self, a):\n        return SingleKey(a) in KNOWN\n\n\nKNOWN = frozenset()\n"
        ),
    }
    edges, dump, _ = index(repo, files, tmp_path / "i.db")
    # a key made where it is looked up (charset-normalizer's `if CompatibleFamillyRange(a, b) in KNOWN:`)
    assert {d[1] for d in calls(edges, "pkg/keys.py::Container.made")} >= {"SingleKey.__hash__", "Key.__eq__"}
    found = calls(edges, "pkg/keys.py::Container.append")
    assert {(d[1], d[2]) for d in found} == {("Key.__hash__", "key"), ("Key.__eq__", "key"), ("SingleKey.__hash__", "key")}
    assert all(e[6] <= 0.4 for e in dump if e[1] == "Container.append" and e[4] == "call")  # a list hashes nothing
    # a surer reason for the same edge wins: the comparison, not the subscript
    assert ("pkg/keys.py", "Key.__eq__", "typed") in calls(edges, "pkg/keys.py::Container.same")


def test_an_attribute_a_class_body_makes_a_descriptor_runs_its_get_and_set(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/desc.py": "class Counter:\n    def __get__(self, obj, owner=None):\n        return 1\n\n"
        "    def __set__(self, obj, value):\n        pass\n",
        "pkg/stats.py": (
            "from .desc import Counter\n\n\n"
            "class Stats:\n    count = Counter()\n    label = 'stats'\n\n"
            "    def __init__(self):\n        self.count = 0\n\n"
            "    def mean(self):\n        return self.count + len(self.label)\n\n\n"
            "class MoreStats(Stats):\n    def total(self):\n        return self.count\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {(d[1], d[2]) for d in calls(edges, "pkg/stats.py::Stats.mean")} == {("Counter.__get__", "descriptor")}
    # a write runs __set__ alone
    assert {(d[1], d[2]) for d in calls(edges, "pkg/stats.py::Stats.__init__")} == {("Counter.__set__", "descriptor")}
    assert ("pkg/desc.py", "Counter.__get__", "descriptor") in calls(edges, "pkg/stats.py::MoreStats.total")
    # the descriptor class loses __get__ (another file): the reads follow
    changed = files["pkg/desc.py"].replace("__get__", "get")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/desc.py": changed})
    assert calls(edges, "pkg/stats.py::Stats.mean") == set()


def test_what_a_method_returns_by_a_look_up_by_prefix_is_called_in_place(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/spec.py": (
            "class Specifier:\n"
            "    def _get_operator(self, op):\n        return getattr(self, f'_compare_{op}')\n\n"
            "    def _compare_equal(self, a, b):\n        return a == b\n\n"
            "    def _compare_less(self, a, b):\n        return a < b\n\n"
            "    def compatible(self, a, b):\n        return self._get_operator('equal')(a, b)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {(d[1], d[2]) for d in calls(edges, "pkg/spec.py::Specifier.compatible")} == {
        ("Specifier._get_operator", "self"),
        ("Specifier._compare_equal", "getattr"),
        ("Specifier._compare_less", "getattr"),
    }


def test_a_caught_exception_and_a_classmethods_cls_are_typed(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/errors.py": "class ParseError(Exception):\n    def __str__(self):\n        return 'parse'\n",
        "pkg/point.py": (
            "from . import errors\n\n\n"
            "class Point:\n    def __init__(self, x):\n        self.x = x\n\n"
            "    @classmethod\n    def parse(cls, text):\n"
            "        try:\n            return cls(int(text))\n"
            "        except (ValueError, errors.ParseError) as e:\n            raise ValueError(str(e)) from e\n\n\n"
            "class Point3(Point):\n    def __init__(self, x, z=0):\n        super().__init__(x)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/point.py::Point.parse")
    assert ("pkg/errors.py", "ParseError.__str__", "typed") in found
    # cls(...) constructs the class the method was called on: a subclass's __init__ may run
    assert {("pkg/point.py", "Point.__init__", "constructor"), ("pkg/point.py", "Point3.__init__", "dispatch")} <= found


def test_a_variable_assigned_a_returned_closure_calls_it(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/streams.py": (
            "def make_cached(getter):\n    def func():\n        return getter()\n\n    return func\n\n\n"
            "def stdout():\n    return 1\n\n\n"
            "default_stdout = make_cached(stdout)\n\n\n"
            "def echo():\n    out = default_stdout()\n    return out\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/streams.py", "make_cached.func", "returned") in calls(edges, "pkg/streams.py::echo")


def test_a_parameter_of_an_enclosing_function_is_no_outer_definition(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/apply.py": (
            "def func():\n    return 0\n\n\n"
            "def once(func):\n    def inner():\n        return func()\n\n    return inner\n\n\n"
            "def later(callback):\n    def inner():\n        return callback()\n\n    return inner\n\n\n"
            "def default(key=func):\n    def inner():\n        return key()\n\n    return inner\n"
        ),
        "pkg/other.py": "def callback():\n    return 1\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    # `func` in once.inner is once's parameter, not the module's func; `callback` no name-match either
    assert calls(edges, "pkg/apply.py::once.inner") == set()
    assert calls(edges, "pkg/apply.py::later.inner") == set()
    # a default that names a definition still tells
    assert ("pkg/apply.py", "func", "local") in calls(edges, "pkg/apply.py::default.inner")


def test_a_union_annotation_naming_a_class_object_makes_the_class_or_a_subclass(repo: Path, tmp_path: Path) -> None:
    # marshmallow's `def _resolve_field_instance(cls_or_instance: Field | type[Field])` calling `cls_or_instance()`
    files = {
        "f.py": "import typing\n\n\nclass Field:\n    def __init__(self):\n        self.x = 1\n\n\n"
        "class Date(Field):\n    def __init__(self):\n        self.y = 2\n\n\n"
        "def resolve(cls_or_instance: Field | type[Field]) -> Field:\n    return cls_or_instance()\n\n\n"
        "def resolve2(cls_or_instance: typing.Union[Field, typing.Type[Field]]) -> Field:\n"
        "    return cls_or_instance()\n\n\n"
        "def plain(field: Field | None) -> Field:\n    return field()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    for fn in ("resolve", "resolve2"):
        assert {("f.py", "Field.__init__", "constructor"), ("f.py", "Date.__init__", "dispatch")} <= calls(edges, f"f.py::{fn}")
    assert not {d for d in calls(edges, "f.py::plain") if d[1].endswith("__init__")}  # an instance, called


def test_str_of_an_object_whose_class_has_only_a_repr_runs_the_repr(repo: Path, tmp_path: Path) -> None:
    # marshmallow: `invalid_fields = self.set_class()` with `set_class = OrderedSet` in the class body, then
    # f"...{invalid_fields}." (object.__str__ calls __repr__); an Exception subclass has the __str__ of Exception
    files = {
        "s.py": "class OrderedSet:\n    def __repr__(self):\n        return 'OrderedSet()'\n\n\n"
        "class Error(Exception):\n    def __repr__(self):\n        return 'Error()'\n\n\n"
        "class Schema:\n    set_class = OrderedSet\n\n    def _init_fields(self):\n"
        "        invalid_fields = self.set_class()\n        return f'Invalid fields: {invalid_fields}.'\n\n"
        "    def err(self):\n        e = Error()\n        return str(e)\n\n"
        "    def url(self):\n        u = URL()\n        return str(u)\n\n\n"
        # hyperlink: `__str__ = to_text` in the class body
        "class URL:\n    def to_text(self):\n        return ''\n\n    def __repr__(self):\n        return 'URL()'\n\n"
        "    __str__ = to_text\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("s.py", "OrderedSet.__repr__", "typed") in calls(edges, "s.py::Schema._init_fields")
    assert ("s.py", "Error.__repr__", "typed") not in calls(edges, "s.py::Schema.err")
    assert {d[1] for d in calls(edges, "s.py::Schema.url")} >= {"URL.to_text"}
    assert "URL.__repr__" not in {d[1] for d in calls(edges, "s.py::Schema.url")}


def test_a_return_annotation_naming_no_class_leaves_the_return_statements_to_tell(repo: Path, tmp_path: Path) -> None:
    # marshmallow's `@property def _validate_all(self) -> typing.Callable[[typing.Any], None]: return
    # And(*self.validators)`, called as `self._validate_all(value)`: And.__call__ runs
    files = {
        "v.py": "import typing\n\n\nclass And:\n    def __call__(self, value):\n        return value\n\n\n"
        "class Field:\n    @property\n    def _validate_all(self) -> typing.Callable[[typing.Any], None]:\n"
        "        return And()\n\n    @property\n    def _count(self) -> int:\n        return And()\n\n"
        "    def _validate(self, value):\n        self._validate_all(value)\n\n"
        "    def _counted(self, value):\n        return self._count(value)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("v.py", "And.__call__", "typed") in calls(edges, "v.py::Field._validate")
    assert ("v.py", "And.__call__", "typed") not in calls(edges, "v.py::Field._counted")  # `-> int` is believed


def test_a_member_of_an_enumeration_is_an_instance_of_its_class(repo: Path, tmp_path: Path) -> None:
    # humanize's `years = Unit["YEARS"]` then `minutes < years` (Unit.__lt__); `Unit.YEARS.describe()`; `c = Color.RED`
    files = {
        "e.py": "import enum\nfrom enum import Enum\n\n\nclass Unit(Enum):\n    DAYS = 0\n    YEARS = 1\n\n"
        "    def __lt__(self, other):\n        return self.value < other.value\n\n"
        "    def describe(self):\n        return self.name\n\n\n"
        "class Color(enum.IntEnum):\n    RED = 1\n\n    def describe(self):\n        return '#f00'\n\n\n"
        "class Plain:\n    RED = 1\n\n    def describe(self):\n        return 'plain'\n\n\n"
        "def compare():\n    years = Unit['YEARS']\n    days = Unit['DAYS']\n    return days < years\n\n\n"
        "def compare_pair():\n    years, days = Unit['YEARS'], Unit['DAYS']\n    return days < years\n\n\n"
        "def member():\n    return Unit.YEARS.describe()\n\n\n"
        "def held():\n    c = Color.RED\n    return c.describe()\n\n\n"
        "def plain():\n    c = Plain.RED\n    return c.describe()\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("e.py", "Unit.__lt__", "typed") in calls(edges, "e.py::compare")
    assert ("e.py", "Unit.__lt__", "typed") in calls(edges, "e.py::compare_pair")  # `a, b = x, y` pairs them
    assert calls(edges, "e.py::member") == {("e.py", "Unit.describe", "class")}
    assert calls(edges, "e.py::held") == {("e.py", "Color.describe", "typed")}
    assert ("e.py", "Plain.describe", "typed") not in calls(edges, "e.py::plain")  # an int, not a Plain


def test_a_class_object_in_a_variable_may_be_a_subclass(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/errors.py": (
            "class ParseError(Exception):\n    def __init__(self, line):\n        self.line = line\n\n\n"
            "class EmptyKeyError(ParseError):\n    def __init__(self, line):\n        super().__init__(line)\n"
        ),
        "pkg/source.py": (
            "from .errors import ParseError\n\n\n"
            "def parse_error(exception: 'type[ParseError]' = ParseError):\n    return exception(1)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/source.py::parse_error")
    assert ("pkg/errors.py", "EmptyKeyError.__init__", "dispatch") in found
    assert ("pkg/errors.py", "ParseError.__init__", "constructor") in found


def test_a_class_given_to_a_method_that_calls_a_parameter_is_made_by_it(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "messages.py": "class Message:\n    def __init__(self, filename):\n        self.filename = filename\n\n\n"
            "class Unused(Message):\n    def __init__(self, filename, name):\n        super().__init__(filename)\n"
            "        self.name = name\n\n\n"
            "class Undefined(Message):\n    pass\n",
            "checker.py": "import messages\n\n\nclass Checker:\n    def __init__(self):\n        self.found = []\n\n"
            "    def report(self, message_class, *args):\n        self.found.append(message_class('f.py', *args))\n\n"
            "    def keep(self, message_class):\n        self.found.append(message_class)\n\n"
            "    def unused(self, name):\n        self.report(messages.Unused, name)\n\n"
            "    def undefined(self):\n        self.report(messages.Undefined)\n        self.keep(messages.Unused)\n",
        },
        tmp_path / "i.db",
    )
    made = calls(edges, "checker.py::Checker.report")
    assert {("messages.py", "Unused", "passed"), ("messages.py", "Unused.__init__", "passed")} <= made
    # a class without an __init__ of its own runs the one it inherits
    assert {("messages.py", "Undefined", "passed"), ("messages.py", "Message.__init__", "passed")} <= made
    assert calls(edges, "checker.py::Checker.keep") == set()  # it stores the class it is given, never calls it


def test_a_function_given_to_a_function_of_the_file_that_calls_a_parameter_is_called_by_it(
    repo: Path, tmp_path: Path
) -> None:
    edges, _, _ = index(
        repo,
        {
            "sigs.py": "def is_arity(n, f):\n    return True\n",
            "fz.py": "import sigs\n\n\ndef check(spec, func, builtin, *args):\n    return builtin(*args)\n\n\n"
            "def arity(n, func):\n    return check(None, func, sigs.is_arity, n, func)\n\n\n"
            "def keep(f):\n    return [f]\n\n\ndef other():\n    return keep(sigs.is_arity)\n\n\n"
            "def widths(lines, width_fn=len):\n    return max(map(width_fn, lines))\n\n\n"
            "def choose(multiline):\n    line_width_fn = sigs.is_arity\n"
            "    return lambda s: widths(s, line_width_fn) if multiline else line_width_fn\n\n\n"
            "def force(stream, is_binary, find_binary):\n    return is_binary(stream) and find_binary(stream)\n\n\n"
            "def is_reader(stream):\n    return True\n\n\n"
            "def reader(stream):\n    return force(\n        stream,\n        is_reader,\n        sigs.is_arity,\n    )\n",
        },
        tmp_path / "i.db",
    )
    # a call over several lines: the functions below its first line are its arguments
    assert {("fz.py", "is_reader", "passed"), ("sigs.py", "is_arity", "passed")} <= calls(edges, "fz.py::force")
    assert calls(edges, "fz.py::check") == {("sigs.py", "is_arity", "passed")}
    # given to map() in the function called: called too (through a variable assigned it, in a lambda)
    assert ("sigs.py", "is_arity", "passed") in calls(edges, "fz.py::widths")
    assert calls(edges, "fz.py::keep") == set()  # it stores the function it is given, never calls it
    assert ("fz.py", "arity", "sigs.py", "is_arity", "ref", "module") in edges


def test_not_equal_runs_eq_where_the_class_has_no_ne(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "tz.py": "class Fixed:\n    def __eq__(self, other):\n        return True\n\n\n"
            "class Both:\n    def __eq__(self, other):\n        return True\n\n    def __ne__(self, other):\n"
            "        return False\n\n\ndef differ():\n    return Fixed() != None, Both() != None\n",
        },
        tmp_path / "i.db",
    )
    eq_ne = {c for c in calls(edges, "tz.py::differ") if c[1].endswith(("__eq__", "__ne__"))}
    assert eq_ne == {("tz.py", "Fixed.__eq__", "typed"), ("tz.py", "Both.__ne__", "typed")}


def test_a_function_bound_in_a_class_body_is_what_self_calls_by_that_name(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/util.py": "def check(entry):\n    return entry\n",
        "pkg/spec.py": (
            "from pkg import util\n\n\ndef local(entry):\n    return entry\n\n\n"
            "class Spec:\n    _match = staticmethod(util.check)\n    _local = local\n\n"
            "    def run(self, entry):\n        return self._match(entry) and self._local(entry)\n\n\n"
            "class Strict(Spec):\n    def again(self, entry):\n        return self._match(entry)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/spec.py::Spec.run") >= {
        ("pkg/util.py", "check", "class-attribute"),
        ("pkg/spec.py", "local", "class-attribute"),
    }
    assert ("pkg/util.py", "check", "class-attribute") in calls(edges, "pkg/spec.py::Strict.again")  # inherited


def test_a_function_bound_in_a_class_body_is_called_through_a_typed_receiver(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/native.py": (
            "def native_concat(values):\n    return values\n\n\n"
            "class NativeEnvironment:\n    concat = staticmethod(native_concat)\n\n\n"
            "class NativeTemplate:\n    environment_class = NativeEnvironment\n\n"
            "    def render(self, values):\n        return self.environment_class.concat(values)\n\n\n"
            "def run(env: NativeEnvironment):\n    return env.concat([])\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/native.py", "native_concat", "class-attribute") in calls(edges, "pkg/native.py::run")
    assert ("pkg/native.py", "native_concat", "class-attribute") in calls(edges, "pkg/native.py::NativeTemplate.render")


def test_a_variable_holding_type_of_self_makes_another_instance(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/version.py": (
            "class Version:\n    def __init__(self, major):\n        self.major = major\n\n"
            "    def bump(self):\n        cls = type(self)\n        return cls(self.major + 1)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/version.py", "Version.__init__", "constructor") in calls(edges, "pkg/version.py::Version.bump")


def test_printf_style_formatting_runs_str_and_repr_of_what_it_formats(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/node.py": (
            "class Node:\n    def __str__(self):\n        return 'n'\n\n    def __repr__(self):\n        return 'N'\n\n"
            "    def show(self, width):\n        return '%-8s|%r|%d%%' % (self, self, width)\n\n"
            "    def keyed(self):\n        return '%(a)s' % {'a': self}\n\n\n"
            "def label(text):\n    node = Node()\n    return 'node %r' % node\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/node.py::Node.show") == {
        ("pkg/node.py", "Node.__str__", "self"),
        ("pkg/node.py", "Node.__repr__", "self"),
    }
    assert calls(edges, "pkg/node.py::Node.keyed") == set()  # a mapping: which key is which is not followed
    assert ("pkg/node.py", "Node.__repr__", "typed") in calls(edges, "pkg/node.py::label")


def test_a_variable_holding_only_what_an_outside_call_returns_is_no_name_match(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/version.py": (
            "import re\nfrom typing import ClassVar, Pattern\n\n\ndef match(text, spec):\n    return text == spec\n\n\n"
            "class Version:\n    _REGEX: ClassVar[Pattern[str]] = re.compile('x')\n\n    @classmethod\n    def parse(cls, text):\n"
            "        found = cls._REGEX.match(text)\n        return found.group(0)\n\n"
            "    def check(self, other):\n        return other.match(self)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/version.py::Version.parse") == set()  # re's Pattern.match and Match.group
    # an object the resolver knows nothing about may still be the project's
    assert ("pkg/version.py", "match", "name-match") in calls(edges, "pkg/version.py::Version.check")


def test_a_wrapper_calls_a_function_decorated_by_a_call_written_out(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/cli.py": "def cmd_bump(args):\n    return args\n\n\ndef cmd_check(args):\n    return args\n",
        "pkg/old.py": (
            "from pkg import cli\n\n\ndef deprecated(func, replace=None):\n"
            "    def wrapper(*args, **kwargs):\n        return func(*args, **kwargs)\n\n    return wrapper\n\n\n"
            "cmd_bump = deprecated(cli.cmd_bump, replace='semver.cli.cmd_bump')\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/cli.py", "cmd_bump", "decorated") in calls(edges, "pkg/old.py::deprecated.wrapper")
    assert ("pkg/cli.py", "cmd_check", "decorated") not in calls(edges, "pkg/old.py::deprecated.wrapper")
    # the call wrapped over lines (its arguments below it, as black writes a long call)
    wrapped = files["pkg/old.py"] + "cmd_check = deprecated(\n    cli.cmd_check, replace='semver.cli.cmd_check'\n)\nother = cli\n"
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/old.py": wrapped})
    assert ("pkg/cli.py", "cmd_check", "decorated") in calls(edges, "pkg/old.py::deprecated.wrapper")


def test_a_decorator_taking_its_options_first_wraps_the_functions_it_decorates_with_them(
    repo: Path, tmp_path: Path
) -> None:
    # semver: `if func is None: return partial(deprecated, ...)` serves both `@deprecated` and `@deprecated(version=...)`
    files = {
        "pkg/old.py": (
            "from functools import partial, wraps\n\n\n"
            "def deprecated(func=None, *, version=None):\n"
            "    if func is None:\n        return partial(deprecated, version=version)\n\n"
            "    @wraps(func)\n    def wrapper(*args, **kwargs):\n        return func(*args, **kwargs)\n\n    return wrapper\n\n\n"
            "def plain(func):\n    def inner(*args):\n        return func(*args)\n\n    return inner\n\n\n"
            "@deprecated(version='2.10')\ndef match(a, b):\n    return a == b\n\n\n"
            "@deprecated\ndef parse(a):\n    return a\n\n\n"
            "@plain(1)\ndef other(a):\n    return a\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    wrapped = {d[1] for d in calls(edges, "pkg/old.py::deprecated.wrapper") if d[2] == "decorated"}
    assert wrapped == {"match", "parse"}
    # a decorator that does not return itself is not applied by a call: `@plain(1)` decorates with what plain returns
    assert "other" not in {d[1] for d in calls(edges, "pkg/old.py::plain.inner")}


def test_a_class_bound_in_a_subclass_body_is_what_the_base_may_make(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/lists.py": "class BarrelList(list):\n    def __init__(self, items=()):\n        super().__init__(items)\n\n\nBList = BarrelList\n",
        "pkg/queues.py": (
            "from pkg.lists import BList\n\n\nclass BasePriorityQueue:\n    _backend_type = list\n\n"
            "    def __init__(self):\n        self._pq = self._backend_type()\n\n\n"
            "class SortedPriorityQueue(BasePriorityQueue):\n    _backend_type = BList\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    made = {(path, qualname) for path, qualname, _how in calls(edges, "pkg/queues.py::BasePriorityQueue.__init__")}
    assert ("pkg/lists.py", "BarrelList.__init__") in made


def test_a_function_given_to_set_defaults_is_what_args_calls_by_that_keyword(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/cli.py": (
            "import argparse\n\n\ndef cmd_bump(args):\n    return 1\n\n\ndef cmd_check(args):\n    return 2\n\n\n"
            "def createparser():\n    parser = argparse.ArgumentParser()\n    sub = parser.add_subparsers()\n"
            "    sub.add_parser('bump').set_defaults(func=cmd_bump)\n"
            "    sub.add_parser('check').set_defaults(func=cmd_check, other=1)\n    return parser\n\n\n"
            "def process(args):\n    return args.func(args)\n\n\ndef unrelated(args):\n    return args.other_func(args)\n\n\n"
            "def typed(args: argparse.Namespace) -> int:\n    return args.func(args)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/cli.py::process") == {
        ("pkg/cli.py", "cmd_bump", "argparse"),
        ("pkg/cli.py", "cmd_check", "argparse"),
    }
    # the namespace annotated with argparse's own class (an outside type) is the same namespace
    assert calls(edges, "pkg/cli.py::typed") == calls(edges, "pkg/cli.py::process")
    assert calls(edges, "pkg/cli.py::unrelated") == set()


def test_a_module_attribute_in_a_tuple_list_or_dict_is_a_reference(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/conv.py": "def hex_to_name(x):\n    return x\n\n\ndef name_to_hex(x):\n    return x\n",
        "tests/test_conv.py": (
            "from pkg import conv\n\n\ndef test_variants():\n"
            "    for converter, value in ((conv.hex_to_name, 1), [conv.name_to_hex, 2]):\n        converter(value)\n\n\n"
            "def test_table():\n    return {'a': conv.name_to_hex}\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    refs = {(e[1], e[3]) for e in edges if e[0] == "tests/test_conv.py" and e[4] == "ref"}
    assert {("test_variants", "hex_to_name"), ("test_variants", "name_to_hex"), ("test_table", "name_to_hex")} <= refs


def test_list_tuple_and_sorted_ask_the_length_of_what_they_copy(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "bag.py": "class Bag:\n    def __len__(self):\n        return 0\n\n    def __iter__(self):\n"
            "        return iter([])\n\n    def keys(self):\n        return list(self)\n\n"
            "    def unique(self):\n        return set(self)\n\n\n"
            "def frozen():\n    b = Bag()\n    return tuple(b), sorted(b)\n",
        },
        tmp_path / "i.db",
    )
    assert ("bag.py", "Bag.__len__", "self") in calls(edges, "bag.py::Bag.keys")
    assert ("bag.py", "Bag.__len__", "typed") in calls(edges, "bag.py::frozen")
    # a set is built item by item: no length hint
    assert calls(edges, "bag.py::Bag.unique") == {("bag.py", "Bag.__iter__", "self")}


def test_calling_an_attribute_calls_the_functions_it_is_assigned_by_name(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "keys.py": "def make_key(args):\n    return args\n",
            "cache.py": "from keys import make_key\n\n\ndef return_none(exc):\n    return None\n\n\n"
            "class Cached:\n    def __init__(self, func, cache, key=None, handler=return_none):\n"
            "        def _get_cache():\n            return cache\n\n"
            "        self.get_cache = _get_cache\n        self.key_func = key or make_key\n"
            "        self.handler = handler\n        self.func = func\n\n"
            "    def __call__(self, *args):\n        cache = self.get_cache()\n        key = self.key_func(args)\n"
            "        try:\n            return self.func(*args)\n        except Exception as e:\n"
            "            return self.handler(e)\n",
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "cache.py::Cached.__call__")
    assert {
        ("cache.py", "Cached.__init__._get_cache", "held"),
        ("keys.py", "make_key", "held"),
        ("cache.py", "return_none", "held"),
    } <= found
    # `func` is a parameter without a default: what a caller passes is not seen
    assert not {d for d in found if d[1] not in ("Cached.__init__._get_cache", "make_key", "return_none")}


def test_a_call_of_an_overloaded_method_returns_what_any_of_its_definitions_returns(repo: Path, tmp_path: Path) -> None:
    # automat's `TypeMachineBuilder.state`: a TypedState for one argument, a TypedDataState for two
    files = {
        "states.py": "class TypedState:\n    def upon(self, x):\n        return x\n\n\n"
        "class TypedDataState:\n    def upon(self, x):\n        return x\n",
        "builder.py": "from typing import overload\n\nfrom states import TypedDataState, TypedState\n\n\nclass Builder:\n"
        "    @overload\n    def state(self, name: str) -> TypedState: ...\n"
        "    @overload\n    def state(self, name: str, factory: int) -> TypedDataState: ...\n"
        "    def state(self, name, factory=None):\n        return TypedState() if factory is None else TypedDataState()\n",
        "use.py": "from builder import Builder\n\n\ndef use():\n    return Builder().state('a', 1).upon(2)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {("states.py", "TypedState.upon"), ("states.py", "TypedDataState.upon")} <= {c[:2] for c in calls(edges, "use.py::use")}
    # the overloads and the implementation (the definition a call runs) change: the calling file is resolved again
    changed = files["builder.py"].replace(") -> TypedDataState: ...", ") -> TypedState: ...")
    changed = changed.replace("else TypedDataState()", "else TypedState()")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"builder.py": changed})
    assert ("states.py", "TypedDataState.upon") not in {c[:2] for c in calls(edges, "use.py::use")}


def test_a_class_statement_whose_base_is_an_instance_calls_the_instance_class(repo: Path, tmp_path: Path) -> None:
    # zope.interface: `Interface = InterfaceClass("Interface")`, then `class IFoo(Interface)` calls InterfaceClass(...);
    # `ABCInterface` is made by `ABCInterfaceClass.__new__(ABCInterfaceClass, ...)` in a function (a comment after the
    # `def` line's colon is no return annotation)
    files = {
        "iface.py": "class InterfaceClass:\n    def __init__(self, name, bases=(), attrs=None):\n        self.name = name\n\n\n"
        "class ABCInterfaceClass(InterfaceClass):\n    def __init__(self, name, bases=(), attrs=None):\n"
        "        InterfaceClass.__init__(self, name)\n\n\n"
        "Interface = InterfaceClass('Interface')\n\n\n"
        "def _create():  # two steps\n    instance = ABCInterfaceClass.__new__(ABCInterfaceClass, 'ABC')\n"
        "    InterfaceClass.__init__(instance, 'ABC')\n    return instance\n\n\nABCInterface = _create()\n",
        "defs.py": "from iface import ABCInterface, Interface\n\n\nclass IFoo(Interface):\n    pass\n\n\n"
        "class IBar(ABCInterface):\n    pass\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("iface.py", "InterfaceClass.__init__", "instance-base") in calls(edges, "defs.py::IFoo")
    assert ("iface.py", "ABCInterfaceClass.__init__", "instance-base") in calls(edges, "defs.py::IBar")
    # the variable is bound to another class's instance: the file using it is resolved again
    changed = files["iface.py"].replace("Interface = InterfaceClass('Interface')", "Interface = ABCInterfaceClass('I')")
    changed += (
        "\n\nclass Implements(InterfaceClass):\n    @classmethod\n    def named(cls, name):\n"
        "        inst = cls.__new__(cls)\n        inst.__init__(name)\n        return inst\n"
    )
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"iface.py": changed})
    assert ("iface.py", "ABCInterfaceClass.__init__", "instance-base") in calls(edges, "defs.py::IFoo")
    # zope.interface's `Implements.named`: `cls.__new__(cls)` makes an instance of the class too
    assert ("iface.py", "InterfaceClass.__init__", "typed") in calls(edges, "iface.py::Implements.named")


def test_a_local_alias_of_an_attribute_calls_the_function_the_attribute_holds(repo: Path, tmp_path: Path) -> None:
    # astor's code generator: `write = self.write` before a loop of `write(...)` calls, where __init__ assigned a
    # nested function to the attribute
    edges, _, _ = index(
        repo,
        {
            "gen.py": "class Gen:\n    def __init__(self):\n        def write(*params):\n            return params\n\n"
            "        self.write = write\n\n"
            "    def visit(self, node):\n        write = self.write\n        write('(')\n        write(node)\n",
        },
        tmp_path / "i.db",
    )
    assert calls(edges, "gen.py::Gen.visit") == {("gen.py", "Gen.__init__.write", "held")}


def test_a_cast_of_a_getattr_look_up_is_called_as_the_look_up_of_a_prefix_and_a_tail(repo: Path, tmp_path: Path) -> None:
    # cssselect: `method = cast("Callable[[XPathExpr], XPathExpr]", getattr(self, method_name, None))`, then `method(x)`,
    # where `method_name = "xpath_{}_function".format(...)`: a method named so, not the other `xpath_` ones
    files = {
        "tr.py": "from typing import cast\n\n\nclass Translator:\n    def xpath_lang_function(self, x):\n"
        "        return x\n\n    def xpath_lang_pseudo(self, x):\n        return x\n\n"
        "    def xpath_function(self, name, x):\n"
        "        method_name = 'xpath_{}_function'.format(name)\n"
        "        method = cast('Callable[[str], str]', getattr(self, method_name, None))\n        return method(x)\n\n"
        "    def xpath_pseudo(self, name, x):\n        return getattr(self, 'xpath_%s_pseudo' % name)(x)\n\n"
        "    def xpath_combinator(self, name, x):\n        return getattr(self, f'xpath_{name}_combinator')(x)\n",
        "html.py": "from tr import Translator\n\n\nclass HTMLTranslator(Translator):\n    pass\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "tr.py::Translator.xpath_function") == {("tr.py", "Translator.xpath_lang_function", "getattr")}
    assert calls(edges, "tr.py::Translator.xpath_pseudo") == {("tr.py", "Translator.xpath_lang_pseudo", "getattr")}
    # no method fits `xpath_*_combinator`: any of the prefix may be the one
    assert {d[1] for d in calls(edges, "tr.py::Translator.xpath_combinator")} == {
        "Translator.xpath_lang_function",
        "Translator.xpath_lang_pseudo",
        "Translator.xpath_function",
        "Translator.xpath_pseudo",
    }
    # a subclass gains a method that fits: the look-up is resolved again, to it alone
    changed = files["html.py"].replace("    pass\n", "    def xpath_child_combinator(self, x):\n        return x\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"html.py": changed})
    assert calls(edges, "tr.py::Translator.xpath_combinator") == {("html.py", "HTMLTranslator.xpath_child_combinator", "getattr")}


def test_a_look_up_whose_tail_no_member_has_finds_the_members_of_its_prefix(repo: Path, tmp_path: Path) -> None:
    # formencode: `name = "_%s__singleton" % cls.__name__` names what `setattr(cls, name, cls())` stored: what
    # `getattr(cls, name)` finds is not known, any member of the prefix may be it
    files = {
        "decl.py": "class Declarative:\n    def _run(self):\n        return 1\n\n    @classmethod\n    def singleton(cls):\n"
        "        name = '_%s__singleton' % cls.__name__\n        if not hasattr(cls, name):\n"
        "            setattr(cls, name, cls())\n        return getattr(cls, name)()\n",
        "sub.py": "from decl import Declarative\n\n\nclass Sub(Declarative):\n    pass\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("decl.py", "Declarative._run", "getattr") in calls(edges, "decl.py::Declarative.singleton")
    # a subclass gains a member of the prefix: the look-up is resolved again
    changed = files["sub.py"].replace("    pass\n", "    def _check(self):\n        return 2\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"sub.py": changed})
    assert ("sub.py", "Sub._check", "getattr") in calls(edges, "decl.py::Declarative.singleton")


def test_calling_self_runs_the_class_call_method_and_types_what_it_returns(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "source.py": "class State:\n    def __enter__(self):\n        return self\n\n\n"
            "class Handler:\n    def __call__(self, *args):\n        return State()\n\n"
            "    def __enter__(self):\n        state = self()\n        return state.__enter__()\n",
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "source.py::Handler.__enter__")
    assert {("source.py", "Handler.__call__", "self"), ("source.py", "State.__enter__", "typed")} <= found
    assert ("source.py", "Handler.__enter__", "typed") not in found  # `state` is no Handler


def test_calling_what_a_function_returns_by_name_constructs_the_classes_it_names(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "gen/drafts.py": "class Draft4:\n    def __init__(self, schema):\n        self.schema = schema\n\n\n"
            "class Draft7(Draft4):\n    def __init__(self, schema):\n        super().__init__(schema)\n\n\n"
            "def generator_class(schema):\n    if 'draft-04' in schema:\n        return Draft4\n    return Draft7\n\n\n"
            "def build(schema):\n    return generator_class(schema)(schema)\n",
            "gen/api.py": "from .drafts import generator_class\n\n\n"
            "def factory(schema):\n    return generator_class(schema)(schema)\n\n\n"
            "def later(schema):\n    cls = generator_class(schema)\n    return cls(schema)\n\n\n"
            "def names(schema):\n    return generator_class(schema).__name__\n",
        },
        tmp_path / "i.db",
    )
    # what a function returns by name (of its module or another) is constructed where its result is called
    for caller in ("gen/api.py::factory", "gen/api.py::later", "gen/drafts.py::build"):
        found = calls(edges, caller)
        assert {("gen/drafts.py", "Draft4.__init__", "constructor"), ("gen/drafts.py", "Draft7.__init__", "constructor")} <= found
    assert not {d for d in calls(edges, "gen/api.py::names") if d[1].endswith("__init__")}  # read, not called


def test_a_variable_assigned_what_a_function_returns_by_name_calls_that_function(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "tab.py": "def _visible_width(s):\n    return len(s)\n\n\n"
            "def choose_width_fn(has_invisible, fallback=len):\n    if has_invisible:\n"
            "        line_width_fn = _visible_width\n    else:\n        line_width_fn = len\n"
            "    width_fn = line_width_fn\n    return width_fn\n\n\n"
            "def fallback_of(f):\n    return f\n\n\n"
            "def align(strings, has_invisible):\n    width_fn = choose_width_fn(has_invisible)\n"
            "    widths = list(map(width_fn, strings))\n    return widths, width_fn(strings[0])\n\n\n"
            "def table(rows):\n    same = fallback_of(_visible_width)\n    return same(rows)\n\n\n"
            "def widths(strings):\n    f = choose_width_fn(True)\n    return list(map(f, strings))\n",
        },
        tmp_path / "i.db",
    )
    assert ("tab.py", "_visible_width", "returned") in calls(edges, "tab.py::align")
    assert ("tab.py", "_visible_width", "returned") in calls(edges, "tab.py::widths")  # given to map
    # a function returning its parameter returns what a caller passes: not followed
    assert ("tab.py", "_visible_width", "returned") not in calls(edges, "tab.py::table")


def test_a_property_given_to_a_function_that_calls_a_parameter_is_its_value_not_a_function(
    repo: Path, tmp_path: Path
) -> None:
    edges, _, _ = index(
        repo,
        {
            "source.py": "class ParseError(Exception):\n    pass\n\n\n"
            "class Source:\n    @property\n    def current(self):\n        return 'c'\n\n"
            "    def parse_error(self, exception=ParseError, *args):\n        return exception(*args)\n\n"
            "    def fail(self):\n        raise self.parse_error(ParseError, self.current)\n",
        },
        tmp_path / "i.db",
    )
    assert ("source.py", "Source.current", "passed") not in calls(edges, "source.py::Source.parse_error")
    assert ("source.py", "Source.current", "property") in calls(edges, "source.py::Source.fail")


def test_iterating_what_a_function_returns_runs_the_generator_whose_call_it_returns(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "tags.py": "def _linux_platforms():\n    yield 'linux'\n\n\n"
            "def _generic_platforms():\n    yield from _linux_platforms()\n\n\n"
            "def _name():\n    return 'x'\n\n\n"
            "def platform_tags(linux):\n    if linux:\n        return _linux_platforms()\n"
            "    return _generic_platforms()\n\n\n"
            "def name():\n    return _name()\n\n\n"
            "def compatible_tags():\n    return list(platform_tags(True)), name()\n",
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "tags.py::compatible_tags")
    assert {("tags.py", "_linux_platforms", "generator"), ("tags.py", "_generic_platforms", "generator")} <= found
    assert ("tags.py", "_name", "generator") not in found  # no generator: name() runs it itself
    assert {d for d in found if d[2] == "generator"} == {
        ("tags.py", "_linux_platforms", "generator"), ("tags.py", "_generic_platforms", "generator")
    }


def test_a_name_defined_in_one_branch_and_assigned_in_another_is_either(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "nodes.py": "class Node:\n    def __init__(self, *args):\n        self.args = args\n\n\n"
            "class Add(Node):\n    pass\n\n\nclass Sub(Node):\n    pass\n",
            "parser.py": "import nodes\n\n_math_nodes = {'add': nodes.Add, 'sub': nodes.Sub}\n\n\n"
            "class Parser:\n    def parse_primary(self):\n        return 1\n\n"
            "    def parse_expression(self, flag=True):\n        return 2\n\n"
            "    def parse_tuple(self, simplified):\n        if simplified:\n            parse = self.parse_primary\n"
            "        else:\n\n            def parse():\n                return self.parse_expression(False)\n\n"
            "        return [parse()]\n\n"
            "    def parse_math(self, kind, left, right):\n        cls = _math_nodes[kind]\n"
            "        return cls(left, right)\n",
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "parser.py::Parser.parse_tuple")
    assert {("parser.py", "Parser.parse_tuple.parse", "local"), ("parser.py", "Parser.parse_primary", "self")} <= found
    # a local variable named cls holds what it is assigned, not the class of the method
    math = calls(edges, "parser.py::Parser.parse_math")
    assert ("nodes.py", "Node.__init__", "constructor") in math
    assert {("nodes.py", "Add", "table"), ("nodes.py", "Sub", "table")} <= math


def test_a_function_defined_in_one_branch_and_made_by_a_call_in_another_is_either(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "filters.py": "def make_attrgetter(attribute):\n    def attrgetter(item):\n        return item[attribute]\n\n"
            "    return attrgetter\n\n\n"
            "def prepare_map(args):\n    if args:\n        func = make_attrgetter(args[0])\n    else:\n\n"
            "        def func(item):\n            return item\n\n    return func\n\n\n"
            "def do_map(value, args):\n    func = prepare_map(args)\n    return [func(v) for v in value]\n\n\n"
            "def do_sum(value, attribute):\n    if attribute:\n        func = make_attrgetter(attribute)\n    else:\n\n"
            "        def func(x):\n            return x\n\n    return sum(func(v) for v in value)\n",
        },
        tmp_path / "i.db",
    )
    assert {("filters.py", "do_sum.func", "local"), ("filters.py", "make_attrgetter.attrgetter", "returned")} <= calls(
        edges, "filters.py::do_sum"
    )
    assert {("filters.py", "prepare_map.func", "returned"), ("filters.py", "make_attrgetter.attrgetter", "returned")} <= calls(
        edges, "filters.py::do_map"
    )


def test_a_name_unpacked_from_a_returned_tuple_calls_the_function_at_its_position(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "tab.py": "def _padleft(w, s):\n    return s\n\n\ndef _padright(w, s):\n    return s\n\n\n"
            "def _strip(s):\n    return s\n\n\n"
            "def choose(strings, right):\n    if right:\n        padfn = _padleft\n    else:\n        padfn = _padright\n"
            "    return _strip, padfn\n\n\n"
            "def align(strings, right):\n    clean, padfn = choose(strings, right)\n"
            "    return [padfn(1, s) for s in strings]\n",
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "tab.py::align")
    assert {("tab.py", "_padleft", "returned"), ("tab.py", "_padright", "returned")} <= found
    assert ("tab.py", "_strip", "returned") not in found  # position 0, never called


def test_a_function_given_to_a_class_that_stores_and_calls_it_is_called_by_the_method_calling_it(
    repo: Path, tmp_path: Path
) -> None:
    edges, _, _ = index(
        repo,
        {
            "stats.py": "class _StatsProperty:\n    def __init__(self, name, func):\n        self.name = name\n"
            "        self.func = func\n\n    def __get__(self, obj, objtype=None):\n        return self.func(obj)\n\n"
            "    def describe(self):\n        return self.name\n\n\n"
            "def _calc_mean(stats):\n    return 0\n\n\n"
            "class Stats:\n    mean = _StatsProperty('mean', _calc_mean)\n",
        },
        tmp_path / "i.db",
    )
    assert ("stats.py", "_calc_mean", "passed") in calls(edges, "stats.py::_StatsProperty.__get__")
    assert ("stats.py", "_calc_mean", "passed") not in calls(edges, "stats.py::_StatsProperty.describe")


def test_a_method_called_on_a_built_in_class_is_no_name_match(repo: Path, tmp_path: Path) -> None:
    # ecdsa's `int.from_bytes(ent_256, "big")` matched its four `Point*.from_bytes` by name
    edges, _, _ = index(
        repo,
        {
            "points.py": "class Point:\n    @classmethod\n    def from_bytes(cls, data):\n        return cls()\n\n"
            "    def keys(self):\n        return []\n",
            "util.py": "def bits(data):\n    return int.from_bytes(data, 'big')\n\n\ndef table(names):\n"
            "    return dict.fromkeys(names)\n\n\ndef point(p, data):\n    return p.from_bytes(data)\n\n\n"
            "def named(int, data):\n    return int.from_bytes(data)\n",
            "shadow.py": "from points import Point as int\n\n\ndef made(data):\n    return int.from_bytes(data)\n",
        },
        tmp_path / "i.db",
    )
    assert not calls(edges, "util.py::bits")
    assert ("points.py", "Point.from_bytes", "name-match") in calls(edges, "util.py::point")  # an untyped receiver
    assert ("points.py", "Point.from_bytes", "name-match") in calls(edges, "util.py::named")  # a parameter named `int`
    assert {q for _, q, _ in calls(edges, "shadow.py::made")} == {"Point.from_bytes"}  # `int` bound to a class here


BUILTINS = """\
class Builtin:
    def __init__(self, function):
        self.f = function

    def execute(self, interpreter):
        self.f(interpreter)

    def describe(self):
        return repr(self.f)


builtins = {}


def builtin(name):
    def _builtin(function):
        builtin_obj = Builtin(function)
        builtins[name] = builtin_obj
        return builtin_obj

    return _builtin


@builtin(">")
def operator_more(interpreter):
    return 1


def plain(interpreter):
    return 2
"""


def test_a_function_decorated_into_an_instance_that_keeps_and_calls_it_is_called_by_the_method_calling_it(
    repo: Path, tmp_path: Path
) -> None:
    # pybtex's `@builtin("=") def operator_equals`: the decorator makes `Builtin(function)`, whose `execute` calls
    # `self.f`; the functions it decorates in other files too
    edges, _, _ = index(
        repo,
        {
            "bib/builtins.py": BUILTINS,
            "bib/more.py": "from .builtins import builtin\n\n\n@builtin('<')\ndef operator_less(interpreter):\n"
            "    return 0\n",
        },
        tmp_path / "i.db",
    )
    found = {(path, name) for path, name, _ in calls(edges, "bib/builtins.py::Builtin.execute")}
    assert {("bib/builtins.py", "operator_more"), ("bib/more.py", "operator_less")} <= found
    assert ("bib/builtins.py", "plain") not in found  # not decorated
    assert not calls(edges, "bib/builtins.py::Builtin.describe")  # reads the attribute, calls nothing


def test_a_special_method_returning_a_generator_call_runs_it_where_python_calls_the_method(
    repo: Path, tmp_path: Path
) -> None:
    edges, _, _ = index(
        repo,
        {
            "bar.py": "class ProgressBar:\n    def __iter__(self):\n        return self.generator()\n\n"
            "    def __next__(self):\n        return next(iter(self))\n\n"
            "    def generator(self):\n        yield 1\n",
        },
        tmp_path / "i.db",
    )
    assert ("bar.py", "ProgressBar.generator", "generator") in calls(edges, "bar.py::ProgressBar.__next__")


def test_iterating_an_attribute_assigned_a_generator_call_runs_the_generator(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "cb.py": "class callback_iter:\n    def __init__(self, func):\n        self._iterator = self._reader()\n"
            "        self._other = self._size()\n\n"
            "    def __next__(self):\n        return next(self._iterator), next(self._other)\n\n"
            "    def _reader(self):\n        yield 1\n\n    def _size(self):\n        return 1\n",
        },
        tmp_path / "i.db",
    )
    found = calls(edges, "cb.py::callback_iter.__next__")
    assert ("cb.py", "callback_iter._reader", "generator") in found
    assert not any(d[1] == "callback_iter._size" for d in found)  # no generator: it ran in __init__


def test_an_attribute_given_a_class_attribute_that_wraps_a_function_calls_that_function(repo: Path, tmp_path: Path) -> None:
    edges, _, _ = index(
        repo,
        {
            "signer.py": "def _lazy_sha1(string=b''):\n    return string\n\n\n"
            "class Signer:\n    default_digest_method = staticmethod(_lazy_sha1)\n\n"
            "    def __init__(self, digest_method=None):\n        if digest_method is None:\n"
            "            digest_method = self.default_digest_method\n        self.digest_method = digest_method\n\n"
            "    def derive_key(self, secret):\n        return self.digest_method(secret)\n",
        },
        tmp_path / "i.db",
    )
    assert ("signer.py", "_lazy_sha1", "held") in calls(edges, "signer.py::Signer.derive_key")


def test_a_function_registered_by_a_decorator_of_another_is_run_by_that_one(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/main.py": (
            "import click\nfrom functools import singledispatch\n\n\n@click.group()\n@click.option('--file')\n"
            "def cli(file):\n    pass\n\n\n@singledispatch\ndef show(x):\n    return x\n\n\n"
            "@show.register(int)\ndef _(x):\n    return x + 1\n\n\n"
            "class Box:\n    @property\n    def size(self):\n        return 1\n\n"
            "    @size.setter\n    def size(self, value):\n        pass\n"
        ),
        "pkg/commands.py": (
            "import click\n\nfrom pkg.main import cli\n\n\n@cli.command(name='list')\n@click.pass_context\n"
            "def list_values(ctx):\n    return 1\n\n\n@cli.group()\ndef sub():\n    pass\n\n\n"
            "@sub.command\ndef deep():\n    return 2\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/main.py::cli") == {
        ("pkg/commands.py", "list_values", "registered"),
        ("pkg/commands.py", "sub", "registered"),
    }
    assert calls(edges, "pkg/commands.py::sub") == {("pkg/commands.py", "deep", "registered")}
    assert ("pkg/main.py", "_", "registered") in calls(edges, "pkg/main.py::show")
    assert not any(e[5] == "registered" and e[1].startswith("Box") for e in edges)


def test_a_registry_filled_by_a_decorator_of_the_file_calls_every_function_it_decorates(repo: Path, tmp_path: Path) -> None:
    # crg-review's own command line: `@cli.command("diff")` stores the handler in `_COMMANDS`, which `main` calls
    files = {
        "pkg/cli.py": (
            "HANDLERS = {}\nHOOKS = []\nOTHER = {}\n\n\n"
            "def command(name):\n    def register(fn):\n        HANDLERS[name] = fn\n        return fn\n\n    return register\n\n\n"
            "def hook(fn):\n    HOOKS.append(fn)\n    return fn\n\n\n"
            "def main(argv):\n    for h in HOOKS:\n        h(argv)\n    return HANDLERS[argv[0]](argv)\n\n\n"
            "def other(argv):\n    return OTHER[argv[0]](argv)\n\n\n"
            "def named(fn):\n    HANDLERS['x'] = plain\n    return fn\n\n\n"
            "def given(HANDLERS, fn):\n    HANDLERS['x'] = fn\n\n\ndef plain(argv):\n    return 0\n"
        ),
        "pkg/commands.py": (
            "from pkg import cli\nfrom pkg.cli import hook, named\n\n\n@cli.command('diff')\ndef diff(argv):\n    return 1\n\n\n"
            "@hook\ndef setup(argv):\n    return 2\n\n\n@named\ndef kept(argv):\n    return 3\n\n\ndef plain(argv):\n    return 4\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {(d[1], d[2]) for d in calls(edges, "pkg/cli.py::main") if d[0] == "pkg/commands.py"} == {
        ("diff", "table"),
        ("setup", "table"),
    }
    # what a decorator stores by name is the item, not what it decorates; a parameter of that name is another table
    assert ("pkg/cli.py", "plain", "table") in calls(edges, "pkg/cli.py::main")
    assert not any(d[0] == "pkg/commands.py" for d in calls(edges, "pkg/cli.py::other"))


def test_an_alternate_constructor_inherited_from_an_outside_base_makes_the_class(repo: Path, tmp_path: Path) -> None:
    # jsonmerge's `LocalRefResolver.from_schema(schema)`: a classmethod of jsonschema's RefResolver, whose `cls(...)`
    # makes the subclass
    files = {
        "pkg/res.py": (
            "from jsonschema import RefResolver\n\n\nclass LocalRefResolver(RefResolver):\n"
            "    def __init__(self, base, schema):\n        super().__init__(base, schema)\n\n\n"
            "class Plain:\n    def __init__(self):\n        self.x = 1\n"
        ),
        "pkg/use.py": (
            "from pkg.res import LocalRefResolver, Plain\n\n\ndef make(schema):\n"
            "    return LocalRefResolver.from_schema(schema)\n\n\ndef other(schema):\n"
            "    return LocalRefResolver.resolve_remote(schema), Plain.from_anything(schema)\n\n\n"
            "LocalRefResolver.from_schema({})\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {("pkg/res.py", "LocalRefResolver", "class"), ("pkg/res.py", "LocalRefResolver.__init__", "constructor")} <= calls(
        edges, "pkg/use.py::make"
    )
    # another name, a class of the repository's own, or a module's top (where such a call may register the class)
    assert not any(d[1].startswith(("LocalRefResolver", "Plain")) for d in calls(edges, "pkg/use.py::other"))
    assert not any(d[1].startswith("LocalRefResolver") for d in calls(edges, "pkg/use.py::<module>"))


def test_a_class_body_holding_what_a_factory_returns_refers_to_that_function(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/env.py": (
            "def _field2method(kind):\n    def method(self, name):\n        return name\n\n    return method\n\n\n"
            "def _plain(kind):\n    return kind\n\n\n"
            "class Env:\n    int: object = _field2method('int')\n    str = _field2method('str')\n    name = _plain('x')\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    held = {(e[2], e[3], e[4], e[5]) for e in edges if e[0] == "pkg/env.py" and e[1] == "Env" and e[5] == "class-attribute"}
    assert held == {("pkg/env.py", "_field2method.method", "ref", "class-attribute")}


def test_a_codec_search_function_registered_on_import_is_called_there(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/codec.py": (
            "import codecs\n\n\ndef search_function(name):\n    return None\n\n\n"
            "def other(name):\n    return None\n\n\ndef register(f):\n    return f\n\n\n"
            "codecs.register(search_function)\nregister(other)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/codec.py::<module>") == {
        ("pkg/codec.py", "search_function", "local"),
        ("pkg/codec.py", "register", "local"),
    }


def test_a_member_a_class_lacks_runs_its_getattr(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/db.py": (
            "class Table:\n    def insert(self, doc):\n        return doc\n\n\n"
            "class DB:\n    def table(self):\n        return Table()\n\n"
            "    def __getattr__(self, name):\n        return getattr(self.table(), name)\n\n\n"
            "class Plain:\n    def close(self):\n        return None\n"
        ),
        "tests/test_db.py": (
            "from pkg.db import DB, Plain\n\n\ndef test_insert():\n    db = DB()\n    db.insert(1)\n    db.table()\n"
            "    db.__len__()\n\n\ndef test_plain():\n    p = Plain()\n    p.insert(1)\n\n\n"
            "def test_made():\n    assert DB().rows == Plain().close()\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    hooked = {(e[1], e[3]) for e in edges if e[5] == "getattr-hook"}
    # db.insert goes through __getattr__, as DB().rows does; db.table is found; a special method and a class
    # without one do not
    assert hooked == {("test_insert", "DB.__getattr__"), ("test_made", "DB.__getattr__")}


def test_a_member_a_class_neither_defines_nor_sets_on_self_runs_its_own_getattr(repo: Path, tmp_path: Path) -> None:
    # astor's SourceGenerator: `self.get_pp(node)` in its visitors is made by its __getattr__
    gen = (
        "class Gen:\n    def __init__(self, write):\n        self.write = write\n\n"
        "    def __getattr__(self, name):\n        return lambda node: name\n\n"
        "    def real(self):\n        return 1\n\n"
        "    def visit(self, node):\n        self.write(node)\n        self.real()\n        return self.get_pp(node)\n"
    )
    edges, _, _ = index(repo, {"pkg/gen.py": gen}, tmp_path / "i.db")
    hooked = {(e[1], e[3]) for e in edges if e[5] == "getattr-hook"}
    # get_pp is nowhere; write is set on self in __init__, real is a method: neither goes through the hook
    assert hooked == {("Gen.visit", "Gen.__getattr__")}
    # the class starts setting get_pp on its instances: the hook is no longer what `self.get_pp` runs
    sets = gen.replace("        self.write = write\n", "        self.write = write\n        self.get_pp = write\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/gen.py": sets})
    assert not {(e[1], e[3]) for e in edges if e[5] == "getattr-hook"}


def test_a_call_through_getattr_runs_the_bound_method_it_returns(repo: Path, tmp_path: Path) -> None:
    # cssutils's error handler: `self._log.error(msg)` (a class attribute `_log = ErrorHandler()` of a base class in
    # another file) runs `__getattr__`, which returns `self.__handle`, which the call runs
    files = {
        "pkg/errors.py": (
            "class _Handler:\n    def __getattr__(self, name):\n        self._name = name\n        return self.__handle\n\n"
            "    def __handle(self, msg):\n        return msg\n\n    def other(self):\n        return 1\n\n\n"
            "class Handler(_Handler):\n    pass\n"
        ),
        "pkg/base.py": "from pkg.errors import Handler\n\n\nclass Base:\n    _log = Handler()\n",
        "pkg/rule.py": (
            "from pkg.base import Base\n\n\nclass Rule(Base):\n    def parse(self):\n        self._log.error('bad')\n\n"
            "    def level(self):\n        return self._log.level\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    hooked = {(e[1], e[3]) for e in edges if e[5] == "getattr-hook"}
    # a read of an attribute runs the hook alone
    assert hooked == {
        ("Rule.parse", "_Handler.__getattr__"), ("Rule.parse", "_Handler.__handle"), ("Rule.level", "_Handler.__getattr__")
    }, hooked


def test_a_member_a_class_lacks_is_the_one_of_the_attribute_its_getattr_forwards_to(repo: Path, tmp_path: Path) -> None:
    # oauthlib's OpenID grants: `GrantTypeBase.__getattr__` returns `getattr(self.proxy_target, attr)`, and
    # `HybridGrant.__init__` sets `self.proxy_target = OAuth2AuthorizationCodeGrant(...)` and registers `self.add_token`
    files = {
        "pkg/oauth2.py": (
            "class CodeGrant:\n    def add_token(self, token):\n        return token\n\n"
            "    @property\n    def scopes(self):\n        return []\n"
        ),
        "pkg/base.py": "class GrantTypeBase:\n    def __getattr__(self, attr):\n        return getattr(self.proxy_target, attr)\n",
        "pkg/hybrid.py": (
            "from pkg.base import GrantTypeBase\nfrom pkg.oauth2 import CodeGrant\n\n\n"
            "class HybridGrant(GrantTypeBase):\n    def __init__(self):\n        self.proxy_target = CodeGrant()\n"
            "        self.modifiers = [self.add_token]\n\n"
            "    def run(self):\n        return self.add_token(1), self.scopes, self.missing()\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    delegated = {(e[1], e[3], e[4]) for e in edges if e[5] == "getattr-hook" and e[2] == "pkg/oauth2.py"}
    assert delegated == {
        ("HybridGrant.__init__", "CodeGrant.add_token", "ref"),
        ("HybridGrant.run", "CodeGrant.add_token", "call"),
        ("HybridGrant.run", "CodeGrant.scopes", "call"),
    }, delegated
    # the hook forwards elsewhere: the index follows (every file is re-resolved, as when a hook comes or goes)
    changed = files["pkg/base.py"].replace("getattr(self.proxy_target, attr)", "getattr(self.other, attr)")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/base.py": changed})
    assert not {e for e in edges if e[5] == "getattr-hook" and e[2] == "pkg/oauth2.py"}


def test_a_getattr_name_taken_from_a_literal_of_names_or_a_parametrize_is_each_of_them(repo: Path, tmp_path: Path) -> None:
    # tldextract's cli: `properties = ("fqdn", "ipv4", ...)`, `{prop: getattr(ext, prop) for prop in properties}`, where
    # `ext = tld_extract(url)` is what the `__call__` of `tld_extract = TLDExtract()` returns
    files = {
        "pkg/res.py": (
            "class Result:\n    @property\n    def fqdn(self):\n        return 1\n\n"
            "    @property\n    def ipv4(self):\n        return 2\n\n    def show(self):\n        return 3\n\n\n"
            "class Extract:\n    def __call__(self, url) -> Result:\n        return Result()\n"
        ),
        "pkg/cli.py": (
            "from pkg.res import Extract, Result\n\n\ndef main():\n    extract = Extract()\n    ext = extract('a.b')\n"
            "    properties = ('fqdn', 'ipv4')\n"
            "    return {prop: getattr(ext, prop) for prop in properties}\n\n\n"
            "def each(ext: Result):\n    for name in ['show']:\n        getattr(ext, name)()\n\n\n"
            "def other(ext: Result, names):\n    return [getattr(ext, n) for n in names]\n"
        ),
        # structlog's `getattr(bl, method_name)("event")` under a parametrize of method names
        "tests/test_res.py": (
            "import pytest\n\nfrom pkg.res import Result\n\n\n@pytest.mark.parametrize('name', ['show', 'fqdn'])\n"
            "def test_each(name):\n    assert getattr(Result(), name)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    looked_up = {(e[1], e[3], e[4]) for e in edges if e[0] == "pkg/cli.py" and e[3].startswith("Result.")}
    # (a property read is a call of its getter too)
    assert looked_up == {
        ("main", "Result.fqdn", "ref"), ("main", "Result.ipv4", "ref"), ("main", "Result.fqdn", "call"),
        ("main", "Result.ipv4", "call"), ("each", "Result.show", "call"),
    }, looked_up
    tested = {(e[3], e[4]) for e in edges if e[0] == "tests/test_res.py" and e[3].startswith("Result.")}
    assert tested == {("Result.show", "ref"), ("Result.fqdn", "ref")}, tested


def test_a_typed_call_is_no_less_likely_than_an_untyped_one_among_a_family(repo: Path, tmp_path: Path) -> None:
    # parso's `node.get_defined_names()` on a `BaseNode` (ten overrides): as likely as a name match over one class family
    subclasses = "".join(f"class N{i}(Base):\n    def names(self):\n        return {i}\n\n\n" for i in range(8))
    files = {
        "pkg/nodes.py": "class Base:\n    pass\n\n\n" + subclasses
        + "def typed(node: Base):\n    return node.names()\n\n\ndef untyped(node):\n    return node.names()\n",
    }
    _, rows, _ = index(repo, files, tmp_path / "i.db")
    typed = {(e[3], e[5], e[6]) for e in rows if e[1] == "typed" and e[4] == "call"}
    untyped = {(e[3], e[5], e[6]) for e in rows if e[1] == "untyped" and e[4] == "call"}
    assert len(typed) == len(untyped) == 8
    assert {c for _, r, c in typed if r == "dispatch"} == {c for _, r, c in untyped if r == "name-match"} == {0.3}


def test_a_store_runs_the_setattr_of_a_subclass_or_of_the_typed_class(repo: Path, tmp_path: Path) -> None:
    # webob's `class Request(AdhocAttrMixin, BaseRequest)`: `self.body = b` in BaseRequest runs the mixin's
    # `__setattr__` on a Request; cssutils's `newStyle.cssText = tokens` on a CSSStyleDeclaration runs its own
    files = {
        "pkg/req.py": (
            "class AdhocAttrMixin:\n    def __setattr__(self, name, value):\n        object.__setattr__(self, name, value)\n\n\n"
            "class BaseRequest:\n    def load(self, b):\n        self.body = b\n\n\n"
            "class Request(AdhocAttrMixin, BaseRequest):\n    pass\n\n\n"
            "class Plain:\n    def load(self, b):\n        self.body = b\n"
        ),
        "pkg/style.py": (
            "class Declaration:\n    def __setattr__(self, name, value):\n        object.__setattr__(self, name, value)\n\n\n"
            "def parse(tokens):\n    style = Declaration()\n    style.text = tokens\n    return style\n\n\n"
            "def untyped(style):\n    style.text = 1\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/req.py", "AdhocAttrMixin.__setattr__", "dispatch") in calls(edges, "pkg/req.py::BaseRequest.load")
    assert not {c for c in calls(edges, "pkg/req.py::Plain.load") if c[1].endswith("__setattr__")}
    assert ("pkg/style.py", "Declaration.__setattr__", "typed") in calls(edges, "pkg/style.py::parse")
    assert not {c for c in calls(edges, "pkg/style.py::untyped") if c[1].endswith("__setattr__")}
    # the mixin moves to a file of its own, which Request's file imports: BaseRequest's file, which names neither,
    # follows
    moved = {
        "pkg/mixin.py": files["pkg/req.py"].split("\n\n\nclass BaseRequest")[0] + "\n",
        "pkg/base.py": "class BaseRequest:\n    def load(self, b):\n        self.body = b\n",
        "pkg/req.py": "from pkg.base import BaseRequest\nfrom pkg.mixin import AdhocAttrMixin\n\n\n"
        "class Request(AdhocAttrMixin, BaseRequest):\n    pass\n",
    }
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", moved)
    assert ("pkg/mixin.py", "AdhocAttrMixin.__setattr__", "dispatch") in calls(edges, "pkg/base.py::BaseRequest.load")
    without = {**moved, "pkg/mixin.py": "class AdhocAttrMixin:\n    pass\n"}
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", without)
    assert not {c for c in calls(edges, "pkg/base.py::BaseRequest.load") if c[1].endswith("__setattr__")}
    # and gains it again (no edge of the file into it to say so: a class gaining __setattr__ re-resolves every file)
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/mixin.py": moved["pkg/mixin.py"]})
    assert ("pkg/mixin.py", "AdhocAttrMixin.__setattr__", "dispatch") in calls(edges, "pkg/base.py::BaseRequest.load")


def test_a_read_of_self_runs_the_getattribute_of_the_class_or_a_subclass(repo: Path, tmp_path: Path) -> None:
    # pyte's `HistoryScreen(Screen).__getattribute__` runs for every `self.x` read in Screen's methods
    files = {
        "pkg/screen.py": (
            "class Screen:\n    def draw(self, x):\n        return self.buffer, self.cursor()\n\n"
            "    def cursor(self):\n        return 1\n\n\n"
            "class HistoryScreen(Screen):\n    def __getattribute__(self, attr):\n        return object.__getattribute__(self, attr)\n\n"
            "    def prev(self):\n        return self.history\n\n\n"
            "class Plain:\n    def draw(self):\n        return self.buffer\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    hook = ("pkg/screen.py", "HistoryScreen.__getattribute__")
    assert (*hook, "dispatch") in calls(edges, "pkg/screen.py::Screen.draw")
    assert (*hook, "self") in calls(edges, "pkg/screen.py::HistoryScreen.prev")
    assert not {c for c in calls(edges, "pkg/screen.py::HistoryScreen.__getattribute__") if c[1] == hook[1]}
    assert not {c for c in calls(edges, "pkg/screen.py::Plain.draw") if c[1].endswith("__getattribute__")}


def test_an_instance_from_a_classmethod_of_another_file_is_of_its_class(repo: Path, tmp_path: Path) -> None:
    files = {
        "pkg/ref.py": (
            "class Ref:\n    def __init__(self, text):\n        self.text = text\n\n    @classmethod\n"
            "    def parse(cls, text):\n        return cls(text.strip())\n\n    @staticmethod\n    def helper(text):\n"
            "        return text\n\n    def __eq__(self, other):\n        return self.text == other\n\n"
            "    def normalize(self):\n        return self\n"
        ),
        "tests/test_ref.py": (
            "from pkg.ref import Ref\n\n\ndef test_parse():\n    ref = Ref.parse(' a ')\n    assert ref == 'a'\n"
            "    ref.normalize()\n\n\ndef test_helper():\n    text = Ref.helper('a')\n    assert text == 'a'\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    typed = {(e[1], e[3]) for e in edges if e[0] == "tests/test_ref.py" and e[5] == "typed"}
    assert typed == {("test_parse", "Ref.__eq__"), ("test_parse", "Ref.normalize")}


def test_a_function_returned_by_a_conditional_expression_is_called_by_whoever_calls_the_result(
    repo: Path, tmp_path: Path
) -> None:
    files = {
        "pkg/m.py": (
            "def iter_a(node):\n    return [node]\n\n\ndef iter_b(node):\n    return []\n\n\n"
            "def choose(node):\n    return iter_a if hasattr(node, 'x') else iter_b\n\n\n"
            "def walk(node):\n    it = choose(node)\n    for c in it(node):\n        yield c\n\n\n"
            "def pick(f=None):\n    return f or iter_b\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/m.py::walk") == {
        ("pkg/m.py", "choose", "local"),
        ("pkg/m.py", "iter_a", "returned"),
        ("pkg/m.py", "iter_b", "returned"),
    }
    refs = {(e[1], e[3]) for e in edges if e[4] == "ref"}
    assert {("choose", "iter_a"), ("choose", "iter_b"), ("pick", "iter_b")} <= refs


def test_an_attribute_holding_a_class_given_by_name_is_that_class(repo: Path, tmp_path: Path) -> None:
    # boolean.py: `self.Symbol = Symbol_class or Symbol` in __init__, then `map(self.Symbol, args)`,
    # `self.normalize(expr, self.AND)` where normalize calls `operation(...)`, and `isinstance(x, self.AND)`
    files = {
        "pkg/__init__.py": "",
        "pkg/expr.py": (
            "class Symbol:\n    def __init__(self, name):\n        self.name = name\n\n\n"
            "class AND:\n    def __init__(self, *args):\n        self.args = args\n"
        ),
        "pkg/algebra.py": (
            "from .expr import AND, Symbol\n\n\nclass Algebra:\n"
            "    def __init__(self, Symbol_class=None, AND_class=None):\n"
            "        self.Symbol = Symbol_class or Symbol\n        self.AND = AND_class or AND\n        self.label = 'x'\n\n"
            "    def symbols(self, *args):\n        return tuple(map(self.Symbol, args))\n\n"
            "    def labels(self, *args):\n        return list(map(self.label, args))\n\n"
            "    def normalize(self, expr, operation):\n        return operation(expr, expr)\n\n"
            "    def cnf(self, expr):\n        return self.normalize(expr, self.AND)\n\n"
            "    def is_and(self, expr):\n        return isinstance(expr, self.AND)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert {("pkg/expr.py", "Symbol", "typed"), ("pkg/expr.py", "Symbol.__init__", "constructor")} <= calls(
        edges, "pkg/algebra.py::Algebra.symbols"
    )
    assert not calls(edges, "pkg/algebra.py::Algebra.labels") - {("pkg/algebra.py", "Algebra.label", "self")}
    assert {("pkg/expr.py", "AND", "passed"), ("pkg/expr.py", "AND.__init__", "passed")} <= calls(
        edges, "pkg/algebra.py::Algebra.normalize"
    )
    refs = {(e[3], e[5]) for e in edges if e[1] == "Algebra.is_and" and e[4] == "ref"}
    assert ("AND", "typed") in refs


def test_a_table_on_self_filled_through_a_local_name_is_called_with_its_items(repo: Path, tmp_path: Path) -> None:
    # parse: `conv = self._type_conversions` then `conv[group] = int_convert(10)` or `partial(date_convert, ymd=1)` in
    # one method, `self._type_conversions[k](value)` in another: an instance's __call__ runs, or the partial's function
    files = {
        "pkg/__init__.py": "",
        "pkg/parser.py": (
            "from functools import partial\n\n\nclass int_convert:\n    def __init__(self, base):\n        self.base = base\n\n"
            "    def __call__(self, s):\n        return int(s, self.base)\n\n\n"
            "class Plain:\n    pass\n\n\n"
            "def date_convert(s, ymd=None):\n    return s\n\n\n"
            "def percentage(s):\n    return float(s) / 100\n\n\n"
            "class Parser:\n    def __init__(self):\n        self._type_conversions = {}\n        self._other = {}\n\n"
            "    def handle(self, group, kind):\n        conv = self._type_conversions\n        other = self._other\n"
            "        if kind == 'd':\n            conv[group] = int_convert(10)\n        elif kind == 'ti':\n"
            "            conv[group] = partial(date_convert, ymd=1)\n        elif kind == '%':\n            conv[group] = percentage\n"
            "        else:\n            other[group] = Plain()\n\n"
            "    def evaluate(self, k, value):\n        return self._type_conversions[k](value)\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    table = {d[1] for d in calls(edges, "pkg/parser.py::Parser.evaluate") if d[2] == "table"}
    assert table == {"int_convert.__call__", "date_convert", "percentage"}


def test_functions_returned_by_look_ups_a_collection_holds_are_called_where_the_result_is(
    repo: Path, tmp_path: Path
) -> None:
    # typeguard: `for lookup_func in checker_lookup_functions: checker = lookup_func(...); checker(value)` where the
    # module appends `builtin_checker_lookup`, which returns `origin_type_checkers.get(t)` or `check_protocol` by name
    files = {
        "pkg/__init__.py": "",
        "pkg/checkers.py": (
            "def check_list(value):\n    return isinstance(value, list)\n\n\n"
            "def check_set(value):\n    return isinstance(value, set)\n\n\n"
            "def check_protocol(value):\n    return True\n\n\n"
            "def unrelated(value):\n    return value\n\n\n"
            "origin_type_checkers = {list: check_list, set: check_set}\n"
            "checker_lookup_functions = []\n\n\n"
            "def builtin_checker_lookup(origin_type):\n    checker = origin_type_checkers.get(origin_type)\n"
            "    if checker is not None:\n        return checker\n    if origin_type is object:\n"
            "        return check_protocol\n    return None\n\n\n"
            "checker_lookup_functions.append(builtin_checker_lookup)\n\n\n"
            "def check_type_internal(value, origin_type):\n    for lookup_func in checker_lookup_functions:\n"
            "        checker = lookup_func(origin_type)\n        if checker:\n            checker(value)\n"
            "            return\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/checkers.py::check_type_internal")
    assert {"builtin_checker_lookup"} <= {d[1] for d in found if d[2] == "table"}
    assert {d[1] for d in found if d[2] == "returned"} == {"check_list", "check_set", "check_protocol"}


def test_names_unpacked_from_an_item_of_a_table_hold_its_parts(repo: Path, tmp_path: Path) -> None:
    # h2's state machine: `func, target_state = _transitions[(self.state, input_)]` then `func(self, previous)`
    files = {
        "pkg/machine.py": (
            "class Machine:\n"
            "    def __init__(self):\n        self.state = 'idle'\n\n"
            "    def open(self, previous):\n        return ['opened']\n\n"
            "    def close(self, previous):\n        return ['closed']\n\n"
            "    def process(self, event):\n"
            "        func, target = _transitions[(self.state, event)]\n"
            "        previous, self.state = self.state, target\n"
            "        return func(self, previous)\n\n\n"
            "def unrelated(self, previous):\n    return []\n\n\n"
            "_transitions = {\n"
            "    ('idle', 'send'): (Machine.open, 'open'),\n"
            "    ('open', 'end'): (Machine.close, 'closed'),\n"
            "}\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    process = calls(edges, "pkg/machine.py::Machine.process")
    assert {(q, r) for _p, q, r in process} >= {("Machine.open", "table"), ("Machine.close", "table")}
    assert not any(q == "unrelated" for _p, q, _r in process)


def test_what_a_function_binds_to_a_name_it_declares_global_is_the_modules(repo: Path, tmp_path: Path) -> None:
    # u-msgpack-python's `__init()`: `global pack, _unpack_table`, then `pack = _pack3` and `_unpack_table[k] = f`
    files = {
        "pkg/codec.py": (
            "def _pack3(obj):\n    return bytes(obj)\n\n\n"
            "def _unpack_int(code):\n    return int(code)\n\n\n"
            "def _unpack(code):\n    return _unpack_table[code](code)\n\n\n"
            "def __init():\n"
            "    global pack, _unpack_table\n"
            "    pack = _pack3\n"
            "    _unpack_table = {}\n"
            "    _unpack_table[1] = _unpack_int\n\n\n"
            "__init()\n"
        ),
        "pkg/use.py": "from pkg.codec import pack\n\n\ndef dump(obj):\n    return pack(obj)\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/codec.py", "_unpack_int", "table") in calls(edges, "pkg/codec.py::_unpack")
    assert ("pkg/codec.py", "_pack3") in {(p, q) for p, q, _r in calls(edges, "pkg/use.py::dump")}
    # the importer follows when the function stops declaring the name global
    changed = files["pkg/codec.py"].replace("    global pack, _unpack_table\n", "    global _unpack_table\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/codec.py": changed})
    assert not {q for _p, q, _r in calls(edges, "pkg/use.py::dump")} & {"_pack3"}


def test_a_field_of_the_class_body_called_on_self_is_no_method_of_another_class(repo: Path, tmp_path: Path) -> None:
    # attrs' `_OptionalValidator` says `validator = attrib()` and calls `self.validator(...)`: not
    # `_CountingAttr.validator`, a method of an unrelated class; a subclass's method of that name stays a candidate
    files = {
        "pkg/fields.py": (
            "def attrib():\n    return None\n\n\n"
            "class Counting:\n    def validator(self, meth):\n        return meth\n\n\n"
            "class Optional:\n    validator = attrib()\n\n"
            "    def __call__(self, value):\n        return self.validator(value)\n\n\n"
            "class Base:\n    check = None\n\n"
            "    def run(self, value):\n        return self.check(value)\n\n\n"
            "class Strict(Base):\n    def check(self, value):\n        return value\n\n\n"
            "class Other:\n    def check(self, value):\n        return value\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert "Counting.validator" not in {q for _p, q, _r in calls(edges, "pkg/fields.py::Optional.__call__")}
    run = {q for _p, q, _r in calls(edges, "pkg/fields.py::Base.run")}
    assert "Strict.check" in run
    assert "Other.check" not in run


def test_a_comparison_on_a_fixture_value_runs_its_class_methods_and_total_ordering_fills_in(
    repo: Path, tmp_path: Path
) -> None:
    # attrs' test_version_info.py: `@pytest.fixture(name="vi")` returns a VersionInfo, `vi != other`, `vi <= (19, 2)`;
    # VersionInfo defines __eq__ and __lt__ under `@total_ordering`
    files = {
        "pkg/version.py": (
            "from functools import total_ordering\n\n\n@total_ordering\nclass Version:\n"
            "    def __init__(self, n):\n        self.n = n\n\n"
            "    def __eq__(self, other):\n        return self.n == other\n\n"
            "    def __lt__(self, other):\n        return self.n < other\n"
        ),
        "tests/test_version.py": (
            "import pytest\n\nfrom pkg.version import Version\n\n\n"
            "@pytest.fixture(name='vi')\ndef _vi():\n    return Version(1)\n\n\n"
            "def test_ne(vi):\n    assert vi != 2\n\n\n"
            "def test_le():\n    v = Version(1)\n    assert v <= 2\n"
        ),
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert ("pkg/version.py", "Version.__eq__") in {(p, q) for p, q, _r in calls(edges, "tests/test_version.py::test_ne")}
    assert ("pkg/version.py", "Version.__lt__") in {(p, q) for p, q, _r in calls(edges, "tests/test_version.py::test_le")}
    # the class losing total_ordering: `<=` runs nothing of it, incrementally as in a full index
    plain = files["pkg/version.py"].replace("@total_ordering\n", "")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/version.py": plain})
    assert ("pkg/version.py", "Version.__lt__") not in {(p, q) for p, q, _r in calls(edges, "tests/test_version.py::test_le")}


def test_a_fixture_imported_into_the_test_module_is_the_one_its_tests_take(repo: Path, tmp_path: Path) -> None:
    # vulture's tests: `v` is a fixture of tests/__init__.py, and each test module says `from . import v`
    files = {
        "tests/__init__.py": "import pytest\n\n\n@pytest.fixture\ndef v():\n    return 1\n",
        "tests/test_a.py": "from . import v\n\nassert v\n\n\ndef test_x(v):\n    assert v\n",
        "other/helpers.py": "import pytest\n\n\n@pytest.fixture\ndef v():\n    return 2\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    fixtures = {(e[0], e[1], e[2], e[3]) for e in edges if e[4] == "fixture"}
    assert ("tests/test_a.py", "test_x", "tests/__init__.py", "v") in fixtures
    assert not any(f[2] == "other/helpers.py" for f in fixtures)


def test_a_function_of_sibling_plugin_modules_called_on_an_unknown_module_is_each_of_them(
    repo: Path, tmp_path: Path
) -> None:
    # yamllint's rule modules, kept in a dict and called as `rule.check(...)` in the linter: a family of modules
    rules = {f"pkg/rules/{n}.py": f"ID = '{n}'\n\n\ndef check(conf, token):\n    return []\n" for n in ("braces", "colons", "commas")}
    files = {
        **rules,
        "pkg/rules/__init__.py": "from pkg.rules import braces, colons, commas\n\nRULES = {m.ID: m for m in (braces, colons, commas)}\n",
        "pkg/linter.py": "def problems(rules, conf, token):\n    for rule in rules:\n        yield from rule.check(conf, token)\n",
        "pkg/other.py": "def check(x):\n    return x\n",
    }
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    found = calls(edges, "pkg/linter.py::problems")
    assert {(p, q) for p, q, _r in found} >= {(f"pkg/rules/{n}.py", "check") for n in ("braces", "colons", "commas")}
    assert ("pkg/other.py", "check") not in {(p, q) for p, q, _r in found}


def test_a_function_given_to_a_function_of_another_file_that_calls_a_parameter_is_called_there(
    repo: Path, tmp_path: Path
) -> None:
    edges, _, _ = index(
        repo,
        {
            "util.py": "def visit_tree(node, previsit, postvisit):\n    for n in node:\n        postvisit(previsit(n))\n\n\n"
            "def each(items, fns):\n    for fn in fns:\n        fn(items)\n\n\n"
            "def keep(node, f):\n    return [node, f]\n",
            "marks.py": "import util\n\n\nclass Marks:\n    def run(self, node):\n"
            "        util.visit_tree(node, self._before, self._after)\n        util.keep(node, self._kept)\n\n"
            "    def _before(self, n):\n        return n\n\n    def _after(self, n):\n        return n\n\n"
            "    def _kept(self, n):\n        return n\n\n\n"
            "def one(x):\n    return x\n\n\ndef both(items):\n    return util.each(items, [one])\n",
            "test_util.py": "import util\n\n\ndef test_visit():\n    def seen(n):\n        return n\n\n"
            "    util.visit_tree([1], seen, seen)\n",
        },
        tmp_path / "i.db",
    )
    # asttokens' `util.visit_tree(node, self._visit_before_children, self._visit_after_children)`
    assert {("marks.py", "Marks._before", "passed"), ("marks.py", "Marks._after", "passed")} <= calls(
        edges, "util.py::visit_tree"
    )
    assert ("marks.py", "one", "passed") in calls(edges, "util.py::each")  # a list of them, looped over
    assert calls(edges, "util.py::keep") == set()  # it keeps what it is given, never calls it
    # what a test gives is no use of the project's function by the project (boltons' `remap(..., enter=enter)`)
    assert not {e for e in calls(edges, "util.py::visit_tree") if e[0] == "test_util.py"}


MANAGERS = (
    "class Manager:\n    def get(self, name):\n        return name\n\n"
    "    def again(self):\n        other = self.__class__()\n        return other.get('a')\n\n\n"
    "class Hooks(Manager):\n    def get(self, name):\n        return [name]\n"
)


def test_an_instance_a_scope_constructs_runs_its_own_class_methods_not_the_overrides(repo: Path, tmp_path: Path) -> None:
    # stevedore's tests: `em = extension.ExtensionManager(...)` then `em["t1"]`, never HookManager.__getitem__
    uses = (
        "from pkg import managers\nfrom pkg.managers import Manager\n\n\n"
        "def exact():\n    m: Manager\n    m = managers.Manager()\n    return m.get('a')\n\n\n"
        "def given(m: Manager):\n    return m.get('a')\n\n\n"
        "def build() -> Manager:\n    return managers.Hooks()\n\n\n"
        "def declared():\n    m: Manager = build()\n    return m.get('a')\n\n\n"
        "def either(flag):\n    m = Manager()\n    if flag:\n        m = build()\n    return m.get('a')\n\n\n"
        "def of_kind(kind: type[Manager] = Manager):\n    m = kind()\n    return m.get('a')\n"
    )
    files = {"pkg/__init__.py": "", "pkg/managers.py": MANAGERS, "pkg/uses.py": uses}
    edges, _, _ = index(repo, files, tmp_path / "i.db")
    assert calls(edges, "pkg/uses.py::exact") >= {("pkg/managers.py", "Manager.get", "typed")}
    assert ("pkg/managers.py", "Hooks.get", "dispatch") not in calls(edges, "pkg/uses.py::exact")
    # a parameter, a function's result, a class object given (bigtree's `node_type: Type[Node] = Node`), the instance's
    # own class (boolean.py's `self.__class__(*args)`): maybe a subclass's instance
    for scope in ("uses.py::given", "uses.py::declared", "uses.py::either", "uses.py::of_kind", "managers.py::Manager.again"):
        assert ("pkg/managers.py", "Hooks.get", "dispatch") in calls(edges, f"pkg/{scope}")
    # a class whose __new__ may make another class's instance: the overrides stay
    made = MANAGERS.replace("class Manager:\n", "class Manager:\n    def __new__(cls, *args):\n        return object.__new__(Hooks)\n\n")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/managers.py": made})
    assert ("pkg/managers.py", "Hooks.get", "dispatch") in calls(edges, "pkg/uses.py::exact")
    edges = assert_incremental_equals_full(repo, tmp_path, tmp_path / "i.db", {"pkg/managers.py": MANAGERS})
    assert ("pkg/managers.py", "Hooks.get", "dispatch") not in calls(edges, "pkg/uses.py::exact")


def test_a_collections_abc_mixin_runs_the_method_of_its_subclass_it_is_written_on(repo: Path, tmp_path: Path) -> None:
    # pqdict: `self.update(data)` in the constructor of a MutableMapping subclass runs MutableMapping.update, which
    # runs `self[k] = v`: the subclass's __setitem__; `pq.get(k)` its __getitem__ (Mapping.get), `k in seq` a
    # Sequence's __getitem__; a base of that name in the repository is no such mixin
    edges, _, _ = index(
        repo,
        {
            "pq.py": (
                "from collections.abc import MutableMapping, Sequence\n\n\n"
                "class PQ(MutableMapping):\n    def __init__(self, data=()):\n        self._d = {}\n        self.update(data)\n\n"
                "    def __setitem__(self, k, v):\n        self._d[k] = v\n\n    def __getitem__(self, k):\n        return self._d[k]\n\n"
                "    def __delitem__(self, k):\n        del self._d[k]\n\n    def __iter__(self):\n        return iter(self._d)\n\n"
                "    def __len__(self):\n        return len(self._d)\n\n\n"
                "class Row(Sequence):\n    def __getitem__(self, i):\n        return i\n\n    def __len__(self):\n        return 1\n\n\n"
                "def use(pq: PQ, row: Row):\n    return pq.get('a'), 1 in row\n"
            ),
            "own.py": (
                "class Set:\n    def union(self, x):\n        return self\n\n\n"
                "class Mine(Set):\n    def __contains__(self, i):\n        return True\n\n\n"
                "def other(m: Mine):\n    return m.isdisjoint(1)\n"
            ),
        },
        tmp_path / "i.db",
    )
    assert ("pq.py", "PQ.__setitem__", "self") in calls(edges, "pq.py::PQ.__init__")
    assert {("pq.py", "PQ.__getitem__", "typed"), ("pq.py", "Row.__getitem__", "typed")} <= calls(edges, "pq.py::use")
    assert not {dst for _path, dst, _how in calls(edges, "own.py::other")} & {"Mine.__contains__", "Set.union"}


def test_a_call_of_an_overloaded_function_runs_its_implementation_not_a_stub(repo: Path, tmp_path: Path) -> None:
    # pqdict's `pqdict.minpq`, confuse's `as_template`: `@overload` stubs come first and never run; the last definition
    # does (without an edge to it, a walk took it for a hook of an outside base, called by every construction)
    edges, _, _ = index(
        repo,
        {
            "pq.py": (
                "from typing import overload\n\n\nclass PQ:\n    @overload\n    @classmethod\n    def make(cls) -> 'PQ': ...\n"
                "    @overload\n    @classmethod\n    def make(cls, n: int) -> 'PQ': ...\n    @classmethod\n"
                "    def make(cls, n=0):\n        return cls()\n\n\n"
                "@overload\ndef conv(x: int) -> int: ...\n@overload\ndef conv(x: str) -> str: ...\ndef conv(x):\n    return x\n\n\n"
                "def use():\n    return PQ.make(1), conv(2)\n"
            ),
        },
        tmp_path / "i.db",
    )
    assert {("pq.py", "PQ.make#3"), ("pq.py", "conv#3")} <= {(p, q) for p, q, _how in calls(edges, "pq.py::use")}
    assert not {("pq.py", "PQ.make"), ("pq.py", "conv")} & {(p, q) for p, q, _how in calls(edges, "pq.py::use")}
