"""Incremental equals full: random edit sequences on a small Python package, compared by canonical dump."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from crg_review.gitio import Repo
from crg_review.indexer import Source, update_index
from crg_review.store import Store

from .helpers import git, make_repo

FILES = ("pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/sub/__init__.py", "pkg/sub/c.py", "tests/test_t.py")
FUNCS = tuple(f"f{i}" for i in range(6))
CLASSES = ("C0", "C1", "C2")
#: m2 is rendered a classmethod (what it returns, called on its class, is an instance of it); a class with a
#: __getattr__ answers the calls of names it lacks
METHODS = ("m0", "m1", "__init__", "__getattr__", "m2", "test_m")
#: a base of no file: a class deriving from it (or from a class of another file that does) is a unittest test class
TESTCASE = ("unittest", "TestCase")
#: decorators whose wrapper calls (or not: ``calls`` empty) the function it wraps, in any file
DECOS = ("d0", "d1")
#: what a function is decorated with: a decorator, or a function it registers with (`@f0.command()`)
DECORATING = (*DECOS, "f0", "f1")
#: `made`: a method called on what a function returns (`f0().m0()`: the class its `return C1()` makes, or its
#: decorator's wrapper's); `store` and `loop`: a method stored in a table on self (`self.t.update((("k", self.m0),))`)
#: and the table's items called (`for k, f in self.t.items(): f()`), in any class of the hierarchy; `inst`: a method
#: called on an instance another module makes at its top (`from pkg.a import in_C0` then `in_C0.m0()`)
STYLES = (
    "local", "from", "alias", "module", "relative", "package", "ctor", "method", "var", "modalias", "cmvar", "own",
    "made", "store", "loop", "inst",
)  # fmt: skip
#: every file ends with `al_<name> = <name>` for every name, defined there or not (the indexer never runs the
#: code): an edit elsewhere changes what an unchanged alias means


@dataclass
class Def:
    kind: str  # function | class | decorator
    name: str
    calls: list[tuple[str, str, str]] = field(default_factory=list)  # (file, name, style)
    deco: tuple[str, str] | None = None  # a function's decorator: (file, name)
    returns: tuple[str, str] | None = None  # a function's (or a decorator's wrapper's) `return C()`: (file, class)
    base: tuple[str, str] | None = None
    methods: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)


def module_of(path: str) -> str:
    return path[:-3].replace("/__init__", "").replace("/", ".")


def render(files: dict[str, list[Def]], path: str, reexports: dict[str, list[str]]) -> str:
    imports: list[str] = []
    body: list[str] = []
    here = module_of(path)

    def call_expr(target_file: str, name: str, style: str) -> str:
        mod = module_of(target_file)
        if target_file == path or style in ("local", "own"):  # `own` outside a method: a plain call
            return f"{name}()"
        if style == "alias":
            imports.append(f"from {mod} import {name} as {name}_al")
            return f"{name}_al()"
        if style == "module":
            alias = "m_" + mod.replace(".", "_")
            imports.append(f"import {mod} as {alias}")
            return f"{alias}.{name}()"
        if style == "relative" and path.startswith("pkg/") and target_file.startswith("pkg/"):
            pkg_here = here if path.endswith("__init__.py") else here.rsplit(".", 1)[0]
            if mod.startswith(pkg_here + ".") or mod == pkg_here:
                rel = mod[len(pkg_here) :].lstrip(".")
                imports.append(f"from .{rel} import {name}" if rel else f"from . import {name}")
                return f"{name}()"
        if style == "var" and name in CLASSES:
            imports.append(f"from {mod} import {name}")
            return f"{name}().m0()"
        if style == "cmvar" and name in CLASSES:  # `C.m2()` is a C where m2 is a classmethod; zz, if C lacks it
            imports.append(f"from {mod} import {name}")
            return f"{name}.m2().zz()"
        if style == "inst" and name in CLASSES:
            imports.append(f"from {mod} import in_{name}")
            return f"in_{name}.m0()"
        if style == "made" and name in FUNCS:
            imports.append(f"from {mod} import {name}")
            return f"{name}().m0()"
        if style == "modalias":
            imports.append(f"from {mod} import al_{name}")
            return f"al_{name}()"
        if style == "package":
            imports.append(f"from pkg import {name}")
            return f"{name}()"
        imports.append(f"from {mod} import {name}")
        return f"{name}()"

    for d in files.get(path, []):
        if d.kind == "decorator":
            body.extend([f"def {d.name}(func):", "    def wrapper(*a):"])
            if d.calls:
                body.append("        func(*a)")
            body.append(f"        return {call_expr(*d.returns, 'from')}" if d.returns else "        return a")
            body.extend(["    return wrapper", ""])
            continue
        if d.kind == "function":
            if d.deco is not None:
                deco_file, deco_name = d.deco
                if deco_file != path:
                    imports.append(f"from {module_of(deco_file)} import {deco_name}")
                # a function name: `@f0.command()` registers the function with f0 (a click group)
                body.append(f"@{deco_name}.command()" if deco_name in FUNCS else f"@{deco_name}")
            body.append(f"def {d.name}(x=None):")
            body.extend(f"    {call_expr(*c)}" for c in d.calls)
            body.append(f"    return {call_expr(*d.returns, 'from')}" if d.returns else "    return x")
        else:
            base = ""
            if d.base == TESTCASE:
                imports.append("import unittest")
                base = "(unittest.TestCase)"
            elif d.base is not None:
                base_file, base_name = d.base
                if base_file == path:
                    base = f"({base_name})"
                else:
                    imports.append(f"from {module_of(base_file)} import {base_name}")
                    base = f"({base_name})"
            body.append(f"class {d.name}{base}:")
            if not d.methods:
                body.append("    pass")
            for m, calls in d.methods.items():
                if m == "m2":
                    body.append("    @classmethod")
                body.append(f"    def {m}(self):" if m != "__getattr__" else "    def __getattr__(self, name):")
                for tf, tn, style in calls:
                    if style == "method":
                        body.append(f"        self.{tn}()")
                    elif style == "ctor":
                        body.append(f"        super().{tn}()")
                    elif style == "own":  # another instance of the object's own class: a subclass's __init__ runs
                        body.append("        self.__class__()")
                    elif style == "var":
                        body.append(f"        v = {call_expr(tf, tn, 'from')}")
                        body.append("        v.m1()")
                    elif style == "store":
                        body.append(f"        self.t.update((('k', self.{tn}),))")
                    elif style == "loop":
                        body.append("        for k, f in self.t.items():")
                        body.append("            f()")
                    else:
                        body.append(f"        {call_expr(tf, tn, style)}")
                body.append("        return None")
        body.append("")
    for mod_file in reexports.get(path, []):
        imports.append(f"from {module_of(mod_file)} import *")
    body.extend(f"al_{name} = {name}" for name in FUNCS + CLASSES)
    body.extend(f"in_{name} = {name}()" for name in CLASSES)  # an instance, made at import time
    return "\n".join(sorted(set(imports)) + [""] + body) + "\n"


names = st.sampled_from(FUNCS + CLASSES)
files_st = st.sampled_from(FILES)


@st.composite
def a_call(draw: st.DrawFn) -> tuple[str, str, str]:
    return (draw(files_st), draw(names), draw(st.sampled_from(STYLES)))


@st.composite
def a_def(draw: st.DrawFn) -> Def:
    kind = draw(st.sampled_from(("function", "function", "class", "decorator")))
    if kind == "decorator":
        calls = [("", "func", "")] if draw(st.booleans()) else []
        return Def("decorator", draw(st.sampled_from(DECOS)), calls=calls, returns=draw(a_return()))
    if kind == "function":
        deco = (draw(files_st), draw(st.sampled_from(DECORATING))) if draw(st.integers(0, 2)) == 0 else None
        calls = draw(st.lists(a_call(), max_size=3))
        return Def("function", draw(st.sampled_from(FUNCS)), calls=calls, deco=deco, returns=draw(a_return()))
    methods = {
        m: [
            (draw(files_st), draw(st.sampled_from(METHODS)), draw(st.sampled_from(("method", "store", "loop"))))
            if draw(st.booleans())
            else draw(a_call())
            for _ in range(draw(st.integers(0, 2)))
        ]
        for m in draw(st.lists(st.sampled_from(METHODS), max_size=2, unique=True))
    }
    return Def("class", draw(st.sampled_from(CLASSES)), base=draw(a_base()), methods=methods)


@st.composite
def a_base(draw: st.DrawFn) -> tuple[str, str] | None:
    which = draw(st.integers(0, 3))
    return None if which == 0 else TESTCASE if which == 1 else (draw(files_st), draw(st.sampled_from(CLASSES)))


@st.composite
def a_return(draw: st.DrawFn) -> tuple[str, str] | None:
    return (draw(files_st), draw(st.sampled_from(CLASSES))) if draw(st.booleans()) else None


def add_def(files: dict[str, list[Def]], path: str, d: Def) -> None:
    defs = files.setdefault(path, [])
    defs[:] = [x for x in defs if x.name != d.name] + [d]


@st.composite
def edit(draw: st.DrawFn, files: dict[str, list[Def]], reexports: dict[str, list[str]]) -> str:
    op = draw(st.sampled_from(("add", "remove", "rename", "move", "delete_file", "reexport", "touch_calls")))
    path = draw(files_st)
    defs = files.get(path, [])
    if op == "add" or not defs:
        add_def(files, path, draw(a_def()))
        return f"add in {path}"
    d = draw(st.sampled_from(defs))
    if op == "remove":
        defs.remove(d)
    elif op == "rename":
        defs.remove(d)
        d.name = draw(st.sampled_from({"function": FUNCS, "decorator": DECOS}.get(d.kind, CLASSES)))
        add_def(files, path, d)
    elif op == "move":
        defs.remove(d)
        add_def(files, draw(files_st), d)
    elif op == "delete_file":
        files.pop(path, None)
    elif op == "reexport":
        target = draw(files_st)
        if path.endswith("__init__.py") and target != path:
            lst = reexports.setdefault(path, [])
            if target in lst:
                lst.remove(target)
            else:
                lst.append(target)
    else:
        if d.kind == "decorator":
            d.calls = [] if d.calls else [("", "func", "")]
            d.returns = draw(a_return())
        elif d.kind == "function":
            d.calls = draw(st.lists(a_call(), max_size=3))
            d.deco = (draw(files_st), draw(st.sampled_from(DECORATING))) if draw(st.booleans()) else None
            d.returns = draw(a_return())
        else:
            d.base = draw(a_base())
    return f"{op} {d.name} in {path}"


def write_tree(repo: Path, files: dict[str, list[Def]], reexports: dict[str, list[str]]) -> None:
    for path in FILES:
        target = repo / path
        if path in files or path in reexports:
            target.parent.mkdir(parents=True, exist_ok=True)
            text = render(files, path, reexports)
            target.write_text(text)
            note(f"--- {path}\n{text}")  # the tree of each step, shown when an example fails
        elif target.exists():
            target.unlink()
    git(repo, "add", "-A")


def full_dump(repo: Path, db: Path) -> dict[str, object]:
    if db.exists():
        db.unlink()
    store = Store.open(db)
    try:
        update_index(store, Repo(repo), Source("staged"), full=True)
        return store.dump()
    finally:
        store.close()


def edit_steps(
    repo: Path, tmp_path: Path, steps: list[tuple[str, str | None]], picked: Callable[[list[object]], bool]
) -> list[list[tuple[object, object]]]:
    """Index ``repo``, then apply each step (a file's new text, or None: delete it) and update incrementally,
    asserting after each that the index equals a full one; the (dst path, dst qualname) of the ``picked`` edges
    after each step."""
    store = Store.open(tmp_path / "inc.db")
    try:
        update_index(store, Repo(repo), Source("staged"))
        out = []
        for path, text in steps:
            if text is None:
                (repo / path).unlink()
            else:
                (repo / path).write_text(text)
            git(repo, "add", "-A")
            update_index(store, Repo(repo), Source("staged"))
            dump = store.dump()
            assert dump == full_dump(repo, tmp_path / "full.db"), path
            out.append(sorted((e[2], e[3]) for e in dump["edges"] if picked(e)))  # type: ignore[arg-type]
        return out
    finally:
        store.close()


EXAMPLES = int(os.environ.get("CRG_HYPOTHESIS_EXAMPLES", "200"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), initial=st.dictionaries(files_st, st.lists(a_def(), max_size=3), max_size=6))
def test_incremental_equals_full(tmp_path_factory: object, data: st.DataObject, initial: dict[str, list[Def]]) -> None:
    base = tmp_path_factory.mktemp("inc")  # type: ignore[attr-defined]
    repo = make_repo(base / "repo")
    files: dict[str, list[Def]] = {}
    for path, defs in initial.items():
        for d in defs:
            add_def(files, path, d)
    reexports: dict[str, list[str]] = {}
    write_tree(repo, files, reexports)
    inc_db = base / "inc.db"
    store = Store.open(inc_db)
    try:
        update_index(store, Repo(repo), Source("staged"))
        for _ in range(data.draw(st.integers(1, 4), label="steps")):
            data.draw(edit(files, reexports), label="edit")
            write_tree(repo, files, reexports)
            update_index(store, Repo(repo), Source("staged"))
            assert store.dump() == full_dump(repo, base / "full.db")
    finally:
        store.close()
        shutil.rmtree(base, ignore_errors=True)


def test_an_unchanged_module_alias_follows_the_name_it_aliases(tmp_path: Path) -> None:
    # `al_f1 = f1` stays as it is while f1 comes into being: the file importing al_f1 now reaches f1
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    (repo / "pkg/a.py").write_text("def f0():\n    return 0\n\n\nal_f0 = f0\nal_f1 = f1\n")
    (repo / "pkg/b.py").write_text("from pkg.a import al_f0, al_f1\n\n\ndef g():\n    return al_f0(), al_f1()\n")
    git(repo, "add", "-A")
    store = Store.open(tmp_path / "inc.db")
    try:
        update_index(store, Repo(repo), Source("staged"))
        (repo / "pkg/a.py").write_text("def f0():\n    return 0\n\n\ndef f1():\n    return 1\n\n\nal_f0 = f0\nal_f1 = f1\n")
        git(repo, "add", "-A")
        update_index(store, Repo(repo), Source("staged"))
        assert store.dump() == full_dump(repo, tmp_path / "full.db")
    finally:
        store.close()


def test_a_command_line_follows_the_entry_block_and_the_main_file_it_runs(tmp_path: Path) -> None:
    # the test file never changes while the module it runs gains and loses its entry block and __main__.py
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    (repo / "pkg/cli.py").write_text("def main():\n    return 0\n")
    (repo / "test_cli.py").write_text(
        "import sys\n\n\ndef test_cli():\n    return [sys.executable, '-m', 'pkg.cli'], (sys.executable, '-m', 'pkg')\n"
    )
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/cli.py", "def main():\n    return 0\n\n\nif __name__ == '__main__':\n    main()\n"),
        ("pkg/__main__.py", "from pkg.cli import main\n\nmain()\n"),
        ("pkg/cli.py", "def main():\n    return 1\n"),
        ("pkg/__main__.py", None),
    ]
    spawned = edit_steps(repo, tmp_path, steps, lambda e: e[5] == "spawn")
    main, package = ("pkg/cli.py", "__main__"), ("pkg/__main__.py", "<module>")
    assert spawned == [[main], [package, main], [package], []], spawned


def test_a_decorator_wrapper_follows_the_functions_other_files_decorate_with_it(tmp_path: Path) -> None:
    # the wrapper in pkg/deco.py calls each function decorated with `@check`; those are in other files, which
    # gain, lose and re-import them while deco.py stays as it is (but for the last step)
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    deco = "def check(func):\n    def wrapper(*a):\n        return func(*a)\n\n    return wrapper\n"
    (repo / "pkg/deco.py").write_text(deco)
    (repo / "pkg/other.py").write_text("def check(func):\n    return func\n")
    (repo / "pkg/a.py").write_text("def one():\n    return 1\n")
    git(repo, "add", "-A")
    decorated = "from pkg.deco import check\n\n\n@check\ndef one():\n    return 1\n"
    steps: list[tuple[str, str | None]] = [
        ("pkg/a.py", decorated),  # a function gains the decorator
        ("pkg/b.py", decorated.replace("one", "two")),  # a new file decorates with it
        ("pkg/b.py", decorated.replace("one", "two") + "\n\n@check\ndef three():\n    return 3\n"),  # same imports
        ("pkg/a.py", decorated.replace("pkg.deco", "pkg.other")),  # a file imports a decorator of that name elsewhere
        ("pkg/reexport.py", "from pkg.deco import check\n"),
        ("pkg/a.py", decorated.replace("pkg.deco", "pkg.reexport")),  # ... and through a re-export
        ("pkg/reexport.py", "from pkg.other import check\n"),  # the re-export names the other one
        ("pkg/reexport.py", "VALUE = 1\n"),  # ... then none
        ("pkg/reexport.py", "VALUE = 1\nfrom pkg.deco import *\n"),  # ... then deco's again, unnamed (a.py stays)
        ("pkg/b.py", None),  # the file goes
        ("pkg/deco.py", deco.replace("func(*a)", "a")),  # the wrapper stops calling it
    ]
    callers = [[q for _, q in step] for step in edit_steps(repo, tmp_path, steps, lambda e: e[1] == "check.wrapper")]
    assert callers[:3] == [["one"], ["one", "two"], ["one", "three", "two"]], callers
    assert callers[6:] == [["three", "two"], ["three", "two"], ["one", "three", "two"], ["one"], []], callers


def test_a_registry_a_decorator_fills_follows_the_functions_other_files_decorate_with_it(tmp_path: Path) -> None:
    # `main` calls the items of HANDLERS and HOOKS, which `@command(...)` (a factory) and `@hook` (no function nested
    # in it) fill with the functions they decorate: those come and go in other files while cli.py stays as it is
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    cli = (
        "HANDLERS = {}\nHOOKS = []\n\n\ndef command(name):\n    def register(fn):\n        HANDLERS[name] = fn\n"
        "        return fn\n\n    return register\n\n\ndef hook(fn):\n    HOOKS.append(fn)\n    return fn\n\n\n"
        "def main(argv):\n    for h in HOOKS:\n        h(argv)\n    return HANDLERS[argv[0]](argv)\n"
    )
    (repo / "pkg/cli.py").write_text(cli)
    (repo / "pkg/a.py").write_text("def one(argv):\n    return 1\n")
    git(repo, "add", "-A")
    command = "from pkg.cli import command\n\n\n@command('one')\ndef one(argv):\n    return 1\n"
    hooked = "from pkg.cli import hook\n\n\n@hook\ndef two(argv):\n    return 2\n"
    steps: list[tuple[str, str | None]] = [
        ("pkg/a.py", command),  # a function gains the decorator
        ("pkg/b.py", hooked),  # a new file decorates with the other one
        ("pkg/b.py", hooked + "\n\n@hook\ndef three(argv):\n    return 3\n"),  # same imports
        ("pkg/a.py", "def one(argv):\n    return 1\n"),  # ... and loses it
        ("pkg/b.py", None),  # the file goes
        ("pkg/cli.py", cli.replace("HOOKS.append(fn)", "pass")),  # the decorator stops filling the table
    ]
    callees = [[q for _, q in step] for step in edit_steps(repo, tmp_path, steps, lambda e: e[1] == "main")]
    assert callees == [["one"], ["one", "two"], ["one", "three", "two"], ["three", "two"], [], []], callees


def test_an_instance_a_decorator_makes_follows_the_functions_other_files_decorate_with_it(tmp_path: Path) -> None:
    # pybtex's `@builtin("=")`: the decorator keeps each function in a `Builtin`, whose `execute` calls it; the
    # decorated functions come and go in other files while builtins.py stays as it is (but for the last step)
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    maker = (
        "class Builtin:\n    def __init__(self, function):\n        self.f = function\n\n"
        "    def execute(self, i):\n        return self.f(i)\n\n\n"
        "def builtin(name):\n    def _builtin(function):\n        return Builtin(function)\n\n    return _builtin\n"
    )
    (repo / "pkg/builtins.py").write_text(maker)
    (repo / "pkg/a.py").write_text("def one(i):\n    return 1\n")
    git(repo, "add", "-A")
    decorated = "from pkg.builtins import builtin\n\n\n@builtin('=')\ndef one(i):\n    return 1\n"
    steps: list[tuple[str, str | None]] = [
        ("pkg/a.py", decorated),  # a function gains the decorator
        ("pkg/b.py", decorated.replace("one", "two")),  # a new file decorates with it
        ("pkg/a.py", decorated.replace("@builtin('=')\n", "")),  # ... and one loses it
        ("pkg/b.py", None),  # the file goes
        ("pkg/a.py", decorated),
        ("pkg/builtins.py", maker.replace("return self.f(i)", "return i")),  # the method stops calling it
    ]
    callers = [[q for _, q in step] for step in edit_steps(repo, tmp_path, steps, lambda e: e[1] == "Builtin.execute")]
    assert callers == [["one"], ["one", "two"], ["two"], [], ["one"], []], callers


def test_a_dotted_path_in_a_string_follows_the_module_it_names(tmp_path: Path) -> None:
    # pkg/plugins.py never changes while the module and the function its strings name come and go
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    (repo / "pkg/plugins.py").write_text("PLUGINS = {'fn': 'pkg.ext.fns.fn', 'mod': 'pkg.ext.fns'}\n")
    (repo / "pkg/ext").mkdir()
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/ext/__init__.py", ""),
        ("pkg/ext/fns.py", "def other():\n    return 0\n"),
        ("pkg/ext/fns.py", "def fn():\n    return 1\n"),
        ("pkg/ext/__init__.py", "from .fns import fn\n"),
        ("pkg/ext/fns.py", "def fn2():\n    return 2\n"),
        ("pkg/ext/fns.py", None),
    ]
    expected = [[], ["<module>"], ["<module>", "fn"], ["<module>", "fn"], ["<module>"], []]
    named = [[q for _, q in step] for step in edit_steps(repo, tmp_path, steps, lambda e: e[4:6] == ["ref", "string"])]
    assert named == expected, named
    # each is imported there too (a module body runs where the string is used)
    imported = [[q for _, q in step] for step in edit_steps(repo, tmp_path, steps, lambda e: e[4:6] == ["import", "string"])]
    assert imported == expected, imported


def test_a_loader_importing_a_module_name_made_at_run_time_follows_the_package(tmp_path: Path) -> None:
    # pkg/loader.py never changes while the package its `import_module(f"pkg.ext.{name}")` names gains and loses modules
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    (repo / "pkg/loader.py").write_text(
        "from importlib import import_module\n\n\ndef load(name):\n    return import_module(f'pkg.ext.{name}')\n"
    )
    (repo / "pkg/ext/toc").mkdir(parents=True)
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/ext/__init__.py", ""),
        ("pkg/ext/gfm.py", "def make():\n    return 1\n"),
        ("pkg/ext/toc/__init__.py", ""),
        ("pkg/ext/toc/deep.py", "X = 1\n"),
        ("pkg/ext/gfm.py", None),
        ("pkg/ext/__init__.py", None),
    ]
    expected = [[], ["pkg/ext/gfm.py"], ["pkg/ext/gfm.py", "pkg/ext/toc/__init__.py"]]
    expected += [["pkg/ext/gfm.py", "pkg/ext/toc/__init__.py"], ["pkg/ext/toc/__init__.py"], []]
    steps_found = edit_steps(repo, tmp_path, steps, lambda e: e[0] == "pkg/loader.py" and e[4:6] == ["import", "string"])
    assert [[p for p, _ in step] for step in steps_found] == expected


def test_a_call_through_getattr_follows_the_class_gaining_and_losing_it(tmp_path: Path) -> None:
    # `db.insert(1)` in pkg/use.py runs DB.__getattr__ while DB lacks insert; pkg/use.py, which does not name DB
    # (it gets one from pkg/make.py), never changes
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    db = "class DB:\n    def table(self):\n        return 1\n"
    hook = "\n    def __getattr__(self, name):\n        return self.table\n"
    (repo / "pkg/db.py").write_text(db)
    (repo / "pkg/make.py").write_text("from pkg.db import DB\n\n\ndef make() -> DB:\n    return DB()\n")
    (repo / "pkg/use.py").write_text("from pkg.make import make\n\n\ndef run():\n    db = make()\n    return db.insert(1)\n")
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/db.py", db + hook),  # the class gains __getattr__
        ("pkg/db.py", db + hook + "\n    def insert(self, doc):\n        return doc\n"),  # ... and insert itself
        ("pkg/db.py", db + hook),  # insert goes
        ("pkg/db.py", db),  # __getattr__ goes
    ]
    callers = edit_steps(repo, tmp_path, steps, lambda e: e[1] == "run" and e[4] == "call")
    # (the hook returns the bound method `self.table`, which the call runs)
    assert callers == [
        [("pkg/db.py", "DB.__getattr__"), ("pkg/db.py", "DB.table"), ("pkg/make.py", "make")],
        [("pkg/db.py", "DB.insert"), ("pkg/make.py", "make")],
        [("pkg/db.py", "DB.__getattr__"), ("pkg/db.py", "DB.table"), ("pkg/make.py", "make")],
        [("pkg/make.py", "make")],
    ], callers


def test_an_instance_from_a_classmethod_follows_its_decorator(tmp_path: Path) -> None:
    # `ref = Ref.parse(text)` in pkg/use.py is a Ref while parse is a classmethod of Ref; pkg/use.py never changes
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    ref = "class Ref:\n    {}\n    def parse(cls, text):\n        return text\n\n    def norm(self):\n        return self\n"
    (repo / "pkg/ref.py").write_text(ref.format("pass\n"))
    (repo / "pkg/use.py").write_text("from pkg.ref import Ref\n\n\ndef run():\n    ref = Ref.parse('a')\n    return ref.norm()\n")
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/ref.py", ref.format("@classmethod")),  # parse becomes a classmethod
        ("pkg/ref.py", ref.format("@staticmethod")),  # ... then a staticmethod
        ("pkg/ref.py", ref.format("@classmethod")),
        ("pkg/ref.py", ref.format("@classmethod").replace("def parse(cls, text):", "def parse(cls, text) -> str:")),
    ]
    callers = edit_steps(repo, tmp_path, steps, lambda e: e[1] == "run" and e[5] == "typed")
    assert callers == [[("pkg/ref.py", "Ref.norm")], [], [("pkg/ref.py", "Ref.norm")], []], callers


def test_a_property_of_another_file_follows_the_accessors_its_statement_names(tmp_path: Path) -> None:
    # `rule.text = v` and `rule.text` in pkg/use.py run the accessors `text = property(...)` in pkg/rule.py names;
    # pkg/use.py never changes while the statement gains a setter, swaps them, then goes
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    rule = "class Rule:\n    def _get(self):\n        return 1\n\n    def _set(self, v):\n        self._v = v\n\n{}"
    (repo / "pkg/rule.py").write_text(rule.format("    text = property(_get)\n"))
    (repo / "pkg/use.py").write_text(
        "from pkg.rule import Rule\n\n\ndef run(rule: Rule):\n    rule.text = 2\n    return rule.text\n"
    )
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/rule.py", rule.format("    text = property(_get, _set)\n")),
        ("pkg/rule.py", rule.format("    text = property(\n        _set,\n        _get,\n    )\n")),
        ("pkg/rule.py", rule.format("    other = 1\n")),
    ]
    callers = edit_steps(repo, tmp_path, steps, lambda e: e[1] == "run" and e[5] == "property")
    assert callers == [
        [("pkg/rule.py", "Rule._get"), ("pkg/rule.py", "Rule._set")],
        [("pkg/rule.py", "Rule._get"), ("pkg/rule.py", "Rule._set")],
        [],
    ], callers


def test_an_attribute_a_base_class_of_another_file_states_follows_its_statements(tmp_path: Path) -> None:
    # `self.session.get()` in pkg/view.py and pkg/deep.py (subclasses of pkg/base.py's Base, at two depths) runs the
    # get of the class Base's __init__ stores in self.session; those two files never change
    repo = make_repo(tmp_path / "repo")
    (repo / "pkg").mkdir()
    (repo / "pkg/__init__.py").write_text("")
    (repo / "pkg/http.py").write_text(
        "class Session:\n    def get(self):\n        return 1\n\n\nclass Other:\n    def get(self):\n        return 2\n"
    )
    base = "from pkg.http import Session, Other\n\n\nclass Base:\n    def __init__(self):\n        {}\n"
    (repo / "pkg/base.py").write_text(base.format("self.session = Session()"))
    (repo / "pkg/view.py").write_text(
        "from pkg.base import Base\n\n\nclass View(Base):\n    def run(self):\n        return self.session.get()\n"
    )
    (repo / "pkg/deep.py").write_text(
        "from pkg.view import View\n\n\nclass Deep(View):\n    def run(self):\n        return self.session.get()\n"
    )
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("pkg/base.py", base.format("self.session = Other()")),
        ("pkg/base.py", base.format("self.other = Other()")),
        ("pkg/base.py", base.format("self.session = Session()").replace("Session, Other", "Other as Session")),
    ]
    callers = edit_steps(repo, tmp_path, steps, lambda e: e[1] == "View.run" and e[4] == "call" and e[5] == "typed")
    assert callers == [[("pkg/http.py", "Other.get")], [], [("pkg/http.py", "Other.get")]], callers


def test_a_function_given_to_another_file_follows_whether_that_file_calls_its_parameter(tmp_path: Path) -> None:
    # marks.py gives util.visit_tree two methods; only util.py changes: its function stops calling the parameter,
    # calls it again through a loop, is renamed, and comes back
    repo = make_repo(tmp_path / "repo")
    calling = "def visit_tree(node, previsit):\n    return previsit(node)\n"
    (repo / "util.py").write_text(calling)
    (repo / "marks.py").write_text(
        "import util\n\n\nclass Marks:\n    def run(self, node):\n        return util.visit_tree(node, self._before)\n\n"
        "    def _before(self, n):\n        return n\n"
    )
    git(repo, "add", "-A")
    steps: list[tuple[str, str | None]] = [
        ("util.py", "def visit_tree(node, previsit):\n    return [node, previsit]\n"),  # keeps it
        ("util.py", "def visit_tree(node, previsit):\n    for f in previsit:\n        f(node)\n"),  # a loop over it
        ("util.py", "def walk(node, previsit):\n    return previsit(node)\n"),  # renamed: marks.py names nothing
        ("util.py", calling),
    ]
    picked = [[q for _, q in step] for step in edit_steps(repo, tmp_path, steps, lambda e: e[1] in ("visit_tree", "walk"))]
    assert picked == [[], ["Marks._before"], [], ["Marks._before"]], picked
