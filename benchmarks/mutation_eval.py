"""Accuracy of crg-review's related tests, measured by mutation on real projects.

For each project (``NAME==VERSION`` of a PyPI sdist that ships its test suite):

1. commit the sdist into a fresh git repo (``.cache/repos/NAME-VERSION-mutation``, ``--tag`` names it)
   and index it;
2. run the project's suite once (its venv from trace_callgraph.py, the repo's source first on
   ``PYTHONPATH``) and keep the passing tests;
3. for N sampled functions of the package source (fixed seed; not in test files; more than one
   body statement besides the docstring; not nested in another function), replace the body by
   ``raise RuntimeError("crg-review mutant")`` (docstring, decorators and signature kept), commit,
   ask ``crg-review tests HEAD~1..HEAD`` and ``crg-review diff HEAD~1..HEAD --format json``, run the
   suite again, and ``git reset --hard HEAD~1``.

The failing tests of a mutant are the baseline-passing tests that now fail, error or are no
longer collected. A failing ``test_x[a]`` counts as found when crg-review listed ``test_x`` (or
its class or file). Figures, per project and overall:

- test recall: failing tests found / failing tests, micro (summed over mutants) and macro (mean
  of the per-mutant recall), over mutants that make at least one test fail;
- mutants found: share of those mutants for which at least one failing test is listed;
- selection: tests selected / tests collected, averaged over all mutants (every instance of a
  parametrized test counts; ``select_all`` counts as the whole suite); next to it the failing share,
  failing tests / tests collected averaged the same way: what a perfect selection would pick;
- direct-caller recall: for each mutated function, its project callers in the traced call graph
  (trace_callgraph.py: direct ``edges``, tests excluded) that the diff lists in ``impacted`` at
  depth 1, micro and macro over the functions that have traced callers; and the same (micro) for the
  callers seen at an explicit call site only (``CALL``, ``CALL_FUNCTION_EX``): the trace names whoever
  first iterates a generator as its caller, not the function that made it;
- unmatched ids (in ``--json``, and listed after the misses): ids crg-review listed that name no test the
  baseline run collected, nor a class or file of one; ``pytest`` stops at "not found" for such a node id (a
  doctest's id or a doctest file counts too when the run's settings collect no doctests).

``--rescore OUT.json`` recomputes the figures of a saved run (no suite runs, no crg-review).

Then, for each failing test that was not listed, why (printed and in ``--json``): ``import-time``
(the mutant breaks the import of test modules), ``test-unknown`` (no definition for the test id in
the index), ``missing-edge`` (every traced path from the test to the function uses a call the index
does not have: the first such edge is named, with its lines), ``weak-edge`` (the index has the path
only through an edge below the walk's confidence cut), ``not-traced`` (no traced path) or
``selection`` (a path of confident edges exists, so the walk itself stopped short).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fetch import CACHE_DIR, fetch_sdist, git, make_git_repo
from trace_callgraph import is_test_file, nested_blocks, own_config

DEFAULT_PROJECTS = ("click==8.1.7", "itsdangerous==2.2.0")
MUTANT_STATEMENT = 'raise RuntimeError("crg-review mutant")'
#: folders of an sdist that are not the package (when there is no src/ layout)
NOT_PACKAGE = {"docs", "doc", "examples", "example", "scripts", "tools", "benchmarks", "artwork", "build", "dist"}
#: crg-review names redefinitions ``f#2``; at run time there is one ``f``
REDEFINITION = re.compile(r"#\d+")
#: pytest parameter ids at the end of a node id
PARAMS = re.compile(r"\[.*\]$")
#: a pytest plugin that writes one JSON line per test phase; loaded with ``-p crg_mutation_outcomes``
OUTCOME_PLUGIN = '''\
"""Written by benchmarks/mutation_eval.py: record each test's outcome as JSON lines."""
import json
import os

_OUT = open(os.environ["CRG_MUTATION_OUT"], "a", encoding="utf-8")


def _write(**record):
    _OUT.write(json.dumps(record) + "\\n")
    _OUT.flush()


def pytest_sessionstart(session):
    _write(rootdir=str(session.config.rootpath))


def pytest_collectreport(report):
    if report.failed:
        _write(collect_error=report.nodeid)


def pytest_runtest_logreport(report):
    xfail = hasattr(report, "wasxfail")
    _write(nodeid=report.nodeid, when=report.when, outcome="skipped" if xfail else report.outcome)
'''


class Function(NamedTuple):
    """A function of the package source that can be mutated."""

    path: str  # repository-relative
    qualname: str  # classes and function names joined by dots (the trace's and the index's form)
    body_start: int  # first line of the first statement after the docstring
    body_end: int  # last line of the body
    indent: int  # column of the body's statements


class Suite(NamedTuple):
    """One run of a project's test suite: outcome per repository-relative node id."""

    outcomes: dict[str, str]  # passed | failed | skipped
    collect_errors: list[str]
    seconds: float
    timed_out: bool


class Mutant(NamedTuple):
    """What one mutant did and what crg-review said about it."""

    function: Function
    failing: list[str]  # baseline-passing node ids that no longer pass
    listed: list[str]  # crg-review tests output (repository-relative ids)
    select_all: str | None
    selected: int  # collected tests the listed ids stand for
    found: list[str]  # failing tests covered by the listed ids
    traced_callers: list[str]  # path::qualname
    depth1: list[str]  # impacted at depth 1, path::qualname
    reasons: dict[str, str]  # listed nodeid -> reason (graph, fixture, convention, ...)
    depths: dict[str, int]  # listed nodeid -> edges between the test and the changed function
    suite_seconds: float
    crg_seconds: float
    timed_out: bool
    collect_errors: list[str]  # test modules the mutant broke at import (node ids)
    traced_callers_explicit: tuple[str, ...] = ()  # those seen at an explicit call site (CALL, CALL_FUNCTION_EX)
    unmatched: tuple[str, ...] = ()  # listed ids that name no test the baseline collected (pytest: "not found")


# --- the functions to mutate ---------------------------------------------------------------------


def package_files(repo: Path) -> list[str]:
    """Tracked .py files of the package source: under src/ when there is one, else outside tests,
    docs, examples and the build scripts at the top."""
    # a file no import can name (parsimonious ships `grammar.py pre-rewriting-resolve_refs.py`) is dead code
    tracked = sorted(p for p in git(repo, "ls-files", "*.py").splitlines() if _importable(p))
    if any(p.startswith("src/") for p in tracked):
        return [p for p in tracked if p.startswith("src/") and not is_test_file(p)]
    return [
        p
        for p in tracked
        if not is_test_file(p)
        and p.split("/")[0] not in NOT_PACKAGE
        and not ("/" not in p and p in ("setup.py", "noxfile.py", "conftest.py", "fabfile.py", "tasks.py"))
    ]


def _importable(path: str) -> bool:
    """Whether a module path could be imported: every part a Python identifier (``pkg/sub/mod.py``)."""
    return all(part.isidentifier() for part in path.removesuffix(".py").split("/"))


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _functions(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualname, def) of functions at module or class level, conditional definitions included."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}{node.name}", node
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body, f"{prefix}{node.name}.")
        else:
            for block in nested_blocks(node):
                yield from _functions(block, prefix)


def mutable_functions(repo: Path) -> list[Function]:
    """Every function of the package source whose body has more than one statement (docstring aside)."""
    out: list[Function] = []
    for rel in package_files(repo):
        try:
            tree = ast.parse((repo / rel).read_bytes())
        except SyntaxError:
            continue
        for qualname, node in _functions(tree.body, ""):
            body = node.body[1:] if _is_docstring(node.body[0]) else node.body
            if len(body) < 2 or any(_decorator_name(d) == "overload" for d in node.decorator_list):
                continue
            first, last = body[0], body[-1]
            # a decorated definition starts at its first decorator (replacing it from its `def` line on would
            # leave the decorator before the raise: a syntax error that fails every import of the module)
            start = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", ()))])
            previous_end = node.body[0].end_lineno if first is not node.body[0] else node.lineno
            if start <= (previous_end or 0) or first.col_offset <= node.col_offset:
                continue  # a statement on the def or docstring line: no clean line range
            out.append(Function(rel, qualname, start, last.end_lineno or last.lineno, first.col_offset))
    return out


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def sample(functions: Sequence[Function], n: int, seed: int) -> list[Function]:
    """A deterministic sample of ``n`` functions, in file order."""
    chosen = random.Random(seed).sample(list(functions), min(n, len(functions)))
    return sorted(chosen, key=lambda f: (f.path, f.body_start))


def mutate(repo: Path, fn: Function) -> None:
    """Replace the body of ``fn`` by the mutant statement and commit."""
    path = repo / fn.path
    # the file's own line endings kept (mistletoe's are CRLF): rewritten with others, every line would differ
    lines = path.read_bytes().decode("utf-8").splitlines(keepends=True)
    # the body's own indentation: a file indented with tabs (pathspec) would not parse with spaces, and every
    # mutant would fail every test at import
    first = lines[fn.body_start - 1]
    indent = first[: len(first) - len(first.lstrip(" \t"))] or " " * fn.indent
    ending = first[len(first.rstrip("\r\n")) :] or "\n"
    lines[fn.body_start - 1 : fn.body_end] = [indent + MUTANT_STATEMENT + ending]
    path.write_text("".join(lines), encoding="utf-8", newline="")
    git(
        repo,
        "commit",
        "--quiet",
        "--no-verify",
        "-am",
        f"mutant: {fn.path}::{fn.qualname}",
        date="2024-01-02T00:00:00+00:00",
    )


# --- running the suite ---------------------------------------------------------------------------


class Project(NamedTuple):
    spec: str  # NAME==VERSION
    repo: Path
    db: Path
    python: Path  # the venv's python (pytest and the test requirements)
    env: dict[str, str]  # PYTHONPATH with the repo's source first
    trace: dict[str, Any]


def project_env(repo: Path, plugin_dir: Path) -> dict[str, str]:
    """Environment for the suite: the repo's source (src/ or the root) ahead of any installed copy."""
    source = repo / "src" if (repo / "src").is_dir() else repo
    path = [str(source), str(plugin_dir)]
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(path),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
    }


def run_suite(project: Project, out: Path, timeout: float, pytest_args: Sequence[str]) -> Suite:
    """Run the whole suite once; outcome per repository-relative node id (a test passes when none of
    its phases fails or skips)."""
    out.unlink(missing_ok=True)
    env = {**project.env, "CRG_MUTATION_OUT": str(out)}
    # a test module that no longer imports fails its own tests, not the whole session
    cmd = [str(project.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "crg_mutation_outcomes"]
    cmd += ["--continue-on-collection-errors", *own_config(project.repo, out.parent)]
    started = time.perf_counter()
    timed_out = False
    try:
        done = subprocess.run(
            [*cmd, *pytest_args],
            cwd=project.repo,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",  # a suite may print bytes that are not UTF-8 (tinycss2's does)
            timeout=timeout,
            check=False,
        )
        if "INTERNALERROR>" in done.stdout + done.stderr and not any(a.startswith("--tb") for a in pytest_args):
            # pytest itself failed while it rendered a failure (CPython gh-106905 in its `ast.parse` of the source:
            # "AST constructor recursion depth mismatch") and stopped: the tests after it never ran, and would count
            # as failing. Once more without tracebacks (the outcomes are all the run records).
            out.unlink(missing_ok=True)
            subprocess.run(
                [*cmd, *pytest_args, "--tb=no"],
                cwd=project.repo,
                env=env,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=max(timeout - (time.perf_counter() - started), 1.0),
                check=False,
            )
    except subprocess.TimeoutExpired:
        timed_out = True
    seconds = time.perf_counter() - started
    rootdir = project.repo
    outcomes: dict[str, str] = {}
    errors: list[str] = []
    rank = {"passed": 0, "skipped": 1, "failed": 2}
    for line in out.read_text(encoding="utf-8").splitlines() if out.exists() else []:
        record = json.loads(line)
        if "rootdir" in record:
            rootdir = Path(record["rootdir"])
        elif "collect_error" in record:
            errors.append(repo_nodeid(record["collect_error"], rootdir, project.repo))
        else:
            nodeid = repo_nodeid(record["nodeid"], rootdir, project.repo)
            old = outcomes.get(nodeid, "passed")
            outcomes[nodeid] = max(old, record["outcome"], key=rank.__getitem__)
    return Suite(outcomes, errors, seconds, timed_out)


def repo_nodeid(nodeid: str, rootdir: Path, repo: Path) -> str:
    """A pytest node id (relative to its rootdir) made relative to the repository root."""
    path, sep, rest = nodeid.partition("::")
    # pytest reports its rootdir with symlinks resolved (benchmarks/.cache may be one): compare real paths
    rel = os.path.relpath(os.path.normpath(rootdir.resolve() / path), repo.resolve()).replace(os.sep, "/")
    return f"{rel}{sep}{rest}"


def check_imports_from_repo(project: Project, functions: Sequence[Function]) -> None:
    """Stop if the suite would import the package from somewhere else than the repo."""
    source = project.repo / "src" if (project.repo / "src").is_dir() else project.repo
    names = sorted({Path(f.path).relative_to(source.relative_to(project.repo)).parts[0] for f in functions})
    names = [n.removesuffix(".py") for n in names]
    code = "import importlib.util,sys\nfor n in sys.argv[1:]:\n    print(importlib.util.find_spec(n).origin)"
    done = subprocess.run(
        [str(project.python), "-c", code, *names],
        check=True,
        cwd=project.repo,
        env=project.env,
        capture_output=True,
        text=True,
    )
    for name, origin in zip(names, done.stdout.split()):
        if origin == "None":  # a folder of scripts (jmespath's bin/): a namespace package, no file to compare
            continue
        if not Path(origin).resolve().is_relative_to(project.repo.resolve()):
            raise SystemExit(f"{name} is imported from {origin}, not from {project.repo}")


# --- crg-review ----------------------------------------------------------------------------------


def crg(cmd: Sequence[str], args: Sequence[str], project: Project) -> str:
    """Run crg-review in the project's repo; stdout (stops with stderr on failure)."""
    full = [*cmd, *args, "--repo", str(project.repo), "--db", str(project.db)]
    done = subprocess.run(full, cwd=project.repo, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 2):  # 2: findings reached --fail-on
        raise SystemExit(f"{shlex.join(full)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def collapse(nodeid: str) -> str:
    """``tests/t.py::test_x[a-1]`` → ``tests/t.py::test_x``."""
    return PARAMS.sub("", nodeid)


def covered(test: str, listed: set[str]) -> bool:
    """Whether a collected test id is one that running the listed ids runs (same test, or its class
    or file listed)."""
    base = collapse(test)
    if base in listed:
        return True
    parts = base.split("::")
    return any("::".join(parts[:i]) in listed for i in range(1, len(parts)))


def unmatched_ids(listed: Iterable[str], collected: Iterable[str]) -> list[str]:
    """The listed ids that name no collected test, nor a class or file of one: ``pytest`` stops at "not found" for
    such a node id (a doctest's id or file too, when the run does not collect doctests)."""
    names: set[str] = set()
    for test in collected:
        parts = collapse(test).split("::")
        names.update("::".join(parts[:i]) for i in range(1, len(parts) + 1))
    return sorted(i for i in listed if i not in names)


def plain(qualname: str) -> str:
    return REDEFINITION.sub("", qualname)


# --- one project ---------------------------------------------------------------------------------


def load_trace(spec: str, build: bool) -> dict[str, Any]:
    """trace_callgraph.py's output for the project, made (with the project's venv) when missing."""
    name, version = spec.split("==")
    path = CACHE_DIR / "trace" / f"{name}-{version}.json"
    if not path.exists():
        if not build:
            raise SystemExit(f"no trace at {path}: run benchmarks/trace_callgraph.py --project {spec}")
        subprocess.run([sys.executable, str(HERE / "trace_callgraph.py"), "--project", spec], check=True)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


#: call sites where the caller really calls the callee; a generator's body is entered from whoever first
#: iterates it (FOR_ITER, cfunc:list...), which need not be the function that made the generator
EXPLICIT_SITES = {"CALL", "CALL_FUNCTION_EX"}
#: sites that run a property's setter or deleter: an assignment or ``del`` of the attribute, or the builtin
ACCESSOR_SITES = {"setter": {"STORE_ATTR", "cfunc:setattr"}, "deleter": {"DELETE_ATTR", "cfunc:delattr"}}

#: callee path::qualname → caller path::qualname → the sites the trace saw the call at
TracedCallers = dict[str, dict[str, set[str]]]


def traced_callers(trace: dict[str, Any], *, explicit: bool = False) -> TracedCallers:
    """callee path::qualname → its direct project callers (path::qualname, with their sites), tests excluded;
    with ``explicit``, only those seen at an explicit call site. A recursive function is not its own caller here,
    nor is a function nested in it (``autocurry.autocurried``): the diff lists the changed function under
    ``changed``, never under ``impacted``, and a mutant's body no longer has the nested function."""
    out: TracedCallers = defaultdict(dict)
    for (caller_path, caller, callee_path, callee), sites in zip(trace["edges"], trace["edge_sites"]):
        if caller_path == callee_path and (caller == callee or caller.startswith(callee + ".")):
            continue
        if not explicit or EXPLICIT_SITES.intersection(sites):
            out[f"{callee_path}::{callee}"].setdefault(f"{caller_path}::{caller}", set()).update(sites)
    return out


def callers_of(callers: TracedCallers, fn: Function, accessor: str) -> list[str]:
    """The traced callers of the mutated ``fn``. The trace names a function by its qualname, which a property's
    getter, setter and deleter share: for a setter (or deleter) only the callers seen assigning (deleting) the
    attribute count, or calling through frames outside the tree (``via:``, which could be either); for a getter,
    those seen doing anything else (prettytable's ``_get_options`` reads 14 properties with ``getattr``: it
    calls their getters, not the setters the mutants replaced)."""
    found = callers.get(f"{fn.path}::{fn.qualname}", {})
    writes = set().union(*ACCESSOR_SITES.values())
    if accessor in ACCESSOR_SITES:
        want = ACCESSOR_SITES[accessor]
        keep = [c for c, sites in found.items() if want & sites or any(s.startswith("via:") for s in sites)]
    elif accessor == "getter":
        keep = [c for c, sites in found.items() if sites - writes]
    else:
        keep = list(found)
    return sorted(keep)


def accessor_kind(repo: Path, fn: Function) -> str:
    """``getter``, ``setter`` or ``deleter`` when ``fn`` (read from the unmutated tree) is one of a property's
    functions, else ``""``."""
    try:
        tree = ast.parse((repo / fn.path).read_bytes())
    except (OSError, SyntaxError):
        return ""
    for qualname, node in _functions(tree.body, ""):
        if qualname != fn.qualname or not node.lineno <= fn.body_start <= (node.end_lineno or node.lineno):
            continue
        for d in node.decorator_list:
            if isinstance(d, ast.Attribute) and d.attr in ACCESSOR_SITES:
                return d.attr
            if _decorator_name(d) in ("property", "cached_property"):
                return "getter"
    return ""


def setup_project(spec: str, crg_cmd: Sequence[str], plugin_dir: Path, build_trace: bool, tag: str) -> Project:
    name, version = spec.split("==")
    trace = load_trace(spec, build_trace)
    repo = make_git_repo(fetch_sdist(name, version), CACHE_DIR / "repos" / f"{name}-{version}-{tag}")
    db = CACHE_DIR / "dbs" / f"{name}-{version}-{tag}.sqlite"
    for side in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        side.unlink(missing_ok=True)
    db.parent.mkdir(parents=True, exist_ok=True)
    python = CACHE_DIR / "venvs" / name.lower() / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"no venv at {python}: run benchmarks/trace_callgraph.py --project {spec}")
    project = Project(spec, repo, db, python, project_env(repo, plugin_dir), trace)
    crg(crg_cmd, ["index", "--full"], project)
    return project


def failing_tests(baseline: Suite, suite: Suite) -> list[str]:
    """The baseline-passing ids that fail, error or are no longer collected in ``suite``. Parameter ids made
    from values in no stable order (a set of tuples holding None, whose hash is its address before Python
    3.12: isodate's ``test_date.py``) are renumbered from one run to the next: an id missing from ``suite``
    counts only when its test collects fewer instances than in the baseline; otherwise that test's failing
    instances count under their new ids."""
    now = suite.outcomes
    before = Counter(_test_of(t) for t in baseline.outcomes)
    after = Counter(_test_of(t) for t in now)
    failing: set[str] = set()
    renumbered: set[str] = set()
    for t, outcome in baseline.outcomes.items():
        if outcome != "passed":
            continue
        if t not in now and "[" in t and after[_test_of(t)] >= before[_test_of(t)]:
            renumbered.add(_test_of(t))
        elif now.get(t) not in ("passed", "skipped"):
            failing.add(t)
    failing.update(t for t, o in now.items() if o == "failed" and _test_of(t) in renumbered)
    return sorted(failing)


def _test_of(nodeid: str) -> str:
    """A test id without its parameters."""
    return nodeid.split("[", 1)[0]


def evaluate_mutant(
    project: Project,
    fn: Function,
    baseline: Suite,
    crg_cmd: Sequence[str],
    callers: tuple[TracedCallers, TracedCallers],
    args: argparse.Namespace,
    out: Path,
    timeout: float,
    recorded: Suite | None = None,
) -> Mutant:
    """Commit one mutant, ask crg-review, run the suite (or take its ``recorded`` outcome), revert."""
    accessor = accessor_kind(project.repo, fn)
    mutate(project.repo, fn)
    try:
        started = time.perf_counter()
        listed = crg(crg_cmd, ["tests", "HEAD~1..HEAD"], project).split()
        review = json.loads(crg(crg_cmd, ["diff", "HEAD~1..HEAD", "--format", "json"], project))
        crg_seconds = time.perf_counter() - started
        suite = recorded if recorded is not None else run_suite(project, out, timeout, args.pytest_args)
    finally:
        git(project.repo, "reset", "--quiet", "--hard", "HEAD~1")
    failing = failing_tests(baseline, suite)
    listed_set = set(listed)
    select_all = review.get("select_all")
    if select_all:
        found, selected = failing, len(baseline.outcomes)
    else:
        found = [t for t in failing if covered(t, listed_set)]
        selected = sum(1 for t in baseline.outcomes if covered(t, listed_set))
    depth1 = sorted({f"{i['file']}::{plain(i['qualname'])}" for i in review["impacted"] if i["depth"] == 1})
    return Mutant(
        function=fn,
        failing=failing,
        listed=sorted(listed_set),
        select_all=select_all,
        selected=selected,
        found=found,
        traced_callers=callers_of(callers[0], fn, accessor),
        depth1=depth1,
        reasons={t["nodeid"]: t["reason"] for t in review["tests"]},
        depths={t["nodeid"]: t["depth"] for t in review["tests"]},
        suite_seconds=round(suite.seconds, 2),
        crg_seconds=round(crg_seconds, 2),
        timed_out=suite.timed_out,
        collect_errors=suite.collect_errors,
        traced_callers_explicit=tuple(callers_of(callers[1], fn, accessor)),
        unmatched=tuple(unmatched_ids(listed_set, baseline.outcomes)),
    )


# --- why a failing test was missed ---------------------------------------------------------------

#: edges the related-test walk does not follow beyond the changed symbol (walk.TEST_EDGE_MIN_CONFIDENCE)
WEAK = 0.2

Key = tuple[str, str]  # (path, qualname)


class IndexGraph:
    """crg-review's graph from ``dump --format json``, forward, with what the walk adds: a call of a class
    reaches its constructors (and those of its bases), a call of a method may dispatch to an override."""

    def __init__(self, dump: dict[str, Any]) -> None:
        self.symbols = {(s[0], plain(s[1])): s[2] for s in dump["symbols"]}
        self.out: dict[Key, dict[Key, tuple[float, str]]] = defaultdict(dict)
        bases: dict[Key, set[Key]] = defaultdict(set)
        subclasses: dict[Key, set[Key]] = defaultdict(set)
        for src_path, src, dst_path, dst, kind, resolution, conf, *_ in dump["edges"]:
            if kind == "import":
                continue
            a, b = (src_path, plain(src)), (dst_path, plain(dst))
            if kind == "inherit":
                bases[a].add(b)
                subclasses[b].add(a)
                continue
            self._add(a, b, float(conf), f"{kind}/{resolution}")
        self.bases, self.subclasses = bases, subclasses
        for a, targets in list(self.out.items()):
            for b, (conf, how) in list(targets.items()):
                if self.symbols.get(b) == "class":
                    for cls in self._closure(b, bases):
                        for ctor in ("__init__", "__new__"):
                            self._add(a, (cls[0], f"{cls[1]}.{ctor}"), conf, how + "+constructor")
        methods: dict[Key, list[Key]] = defaultdict(list)  # class -> its methods
        for key, kind in self.symbols.items():
            if kind == "method" and "." in key[1]:
                methods[(key[0], key[1].rsplit(".", 1)[0])].append(key)
        for cls, ms in methods.items():
            for m in ms:
                name = m[1].rsplit(".", 1)[1]
                for sub in self._closure(cls, subclasses) - {cls}:
                    override = (sub[0], f"{sub[1]}.{name}")
                    if override in self.symbols:
                        self._add(m, override, 0.7, "dispatch")

    def _add(self, a: Key, b: Key, conf: float, how: str) -> None:
        if b not in self.out[a] or self.out[a][b][0] < conf:
            self.out[a][b] = (conf, how)

    @staticmethod
    def _closure(start: Key, step: dict[Key, set[Key]]) -> set[Key]:
        seen, todo = {start}, [start]
        while todo:
            for n in step.get(todo.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def test_function(self, nodeid: str) -> Key | None:
        """The function a collected test id runs: its own definition, or the one its class inherits, or
        that of a test class of the same name imported into the module."""
        path, *parts = collapse(nodeid).split("::")
        key = (path, ".".join(parts))
        if key in self.symbols or len(parts) < 2:
            return key if key in self.symbols else None
        cls, name = ".".join(parts[:-1]), parts[-1]
        owners = (
            [(path, cls)]
            if (path, cls) in self.symbols
            else [k for k, kind in self.symbols.items() if kind == "class" and k[1] == cls and is_test_file(k[0])]
        )
        for owner in owners:
            for base in sorted(self._closure(owner, self.bases)):
                if (base[0], f"{base[1]}.{name}") in self.symbols:
                    return (base[0], f"{base[1]}.{name}")
        return None


def trace_graph(trace: dict[str, Any], index: IndexGraph) -> dict[Key, dict[Key, list[int]]]:
    """The traced calls (direct, from tests, through library frames, from module bodies), forward, with
    the caller's lines; plus the index's fixture edges (pytest, not the test, calls a fixture)."""
    out: dict[Key, dict[Key, list[int]]] = defaultdict(dict)
    for group, lines in (("edges", "edge_lines"), ("test_edges", "test_edge_lines")):
        for edge, at in zip(trace[group], trace[lines]):
            out[(edge[0], edge[1])][(edge[2], edge[3])] = at
    for edge in trace["indirect_edges"] + trace["scope_edges"]:
        out[(edge[0], edge[1])].setdefault((edge[2], edge[3]), [])
    for a, targets in index.out.items():
        for b, (_, how) in targets.items():
            if how.startswith("fixture/"):
                out[a].setdefault(b, [])
    return out


def _path(start: Key, goal: Key, step: Any) -> list[Key] | None:
    """Shortest path start → goal, ``step(node)`` giving the next nodes."""
    prev: dict[Key, Key | None] = {start: None}
    todo = [start]
    while todo:
        nxt = []
        for n in todo:
            if n == goal:
                path = [n]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            for m in step(n):
                if m not in prev:
                    prev[m] = n
                    nxt.append(m)
        todo = nxt
    return None


class Miss(NamedTuple):
    cause: str  # import-time | test-unknown | not-traced | missing-edge | weak-edge | selection
    detail: str  # the edge that breaks the path, when there is one


def explain(
    test: str, fn: Function, mutant: Mutant, index: IndexGraph, traced: dict[Key, dict[Key, list[int]]]
) -> Miss:
    """Why crg-review did not list a failing test of a mutant (the causes found so far: HISTORY.md, "Main causes
    of the remaining misses")."""
    if test.split("::")[0] in mutant.collect_errors:
        return Miss("import-time", "the test module fails to import")
    start = index.test_function(test)
    if start is None:
        return Miss("test-unknown", collapse(test))
    goal = (fn.path, fn.qualname)
    in_index = _path(start, goal, lambda n: [m for m in traced.get(n, ()) if m in index.out.get(n, {})])
    if in_index is None:
        path = _path(start, goal, lambda n: traced.get(n, {}).keys())
        if path is None:
            if _path(start, goal, lambda n: index.out.get(n, {}).keys()) is None:
                return Miss("not-traced", "no traced path and no path in the index")
            return Miss("not-traced", "a path in the index only")
        for a, b in pairwise(path):
            if b not in index.out.get(a, {}):
                lines = ",".join(map(str, traced[a][b][:3]))
                return Miss("missing-edge", f"{a[0]}::{a[1]} -> {b[0]}::{b[1]} (line {lines or '?'})")
    strong = _path(
        start, goal, lambda n: [m for m in traced.get(n, ()) if index.out.get(n, {}).get(m, (0.0, ""))[0] >= WEAK]
    )
    if strong is None and in_index is not None:
        for a, b in pairwise(in_index):
            conf, how = index.out[a][b]
            if conf < WEAK:
                return Miss("weak-edge", f"{a[0]}::{a[1]} -> {b[0]}::{b[1]} [{how} {conf:g}]")
    return Miss("selection", " -> ".join(k[1] for k in (strong or in_index or [])))


def explain_project(project: Project, crg_cmd: Sequence[str], mutants: Sequence[Mutant]) -> dict[str, Any]:
    """Causes of the misses of one project, counted per missed test; the edges behind most of them."""
    crg(crg_cmd, ["index"], project)  # back to the base commit after the last reset
    index = IndexGraph(json.loads(crg(crg_cmd, ["dump", "--format", "json"], project)))
    traced = trace_graph(project.trace, index)
    causes: dict[str, int] = defaultdict(int)
    details: dict[tuple[str, str], list[str]] = defaultdict(list)
    for m in mutants:
        if m.timed_out:
            continue
        seen: set[str] = set()
        for t in m.failing:
            if t in m.found or collapse(t) in seen:
                continue
            seen.add(collapse(t))
            miss = explain(t, m.function, m, index, traced)
            causes[miss.cause] += 1
            details[(miss.cause, miss.detail)].append(f"{m.function.qualname}: {collapse(t)}")
    top = sorted(details.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return {
        "causes": dict(sorted(causes.items(), key=lambda kv: -kv[1])),
        "details": [{"cause": c, "detail": d, "tests": len(ts), "examples": ts[:3]} for (c, d), ts in top],
    }


def print_explanation(spec: str, explained: dict[str, Any], limit: int) -> None:
    print(
        f"why tests were missed, {spec} (missed tests, parameters collapsed): "
        + ", ".join(f"{c} {n}" for c, n in explained["causes"].items())
        or "none"
    )
    for d in explained["details"][: limit * 3]:
        print(f"  {d['tests']:>4}  {d['cause']}: {d['detail']}  e.g. {d['examples'][0]}")


# --- figures -------------------------------------------------------------------------------------


def figures(mutants: Sequence[tuple[Mutant, int]]) -> dict[str, Any]:
    """The metrics over (mutant, tests collected in its project) pairs (see the module docstring)."""
    done = [(m, total) for m, total in mutants if not m.timed_out]
    killing = [m for m, _ in done if m.failing]
    failing = sum(len(m.failing) for m in killing)
    found = sum(len(m.found) for m in killing)
    with_callers = [m for m, _ in done if m.traced_callers]
    traced = sum(len(m.traced_callers) for m in with_callers)
    hit = sum(len(set(m.traced_callers) & set(m.depth1)) for m in with_callers)
    explicit = sum(len(m.traced_callers_explicit) for m, _ in done)
    explicit_hit = sum(len(set(m.traced_callers_explicit) & set(m.depth1)) for m, _ in done)
    return {
        "mutants": len(mutants),
        "timed_out": len(mutants) - len(done),
        "killing": len(killing),
        "failing_tests": failing,
        "found_tests": found,
        "test_recall_micro": _ratio(found, failing),
        "test_recall_macro": _mean(len(m.found) / len(m.failing) for m in killing),
        "mutants_found": _ratio(sum(1 for m in killing if m.found), len(killing)),
        "selection": _mean(m.selected / total for m, total in done),
        "failing_share": _mean(len(m.failing) / total for m, total in done),
        "select_all": sum(1 for m, _ in done if m.select_all),
        "functions_with_traced_callers": len(with_callers),
        "traced_callers": traced,
        "callers_found": hit,
        "caller_recall_micro": _ratio(hit, traced),
        "caller_recall_macro": _mean(
            len(set(m.traced_callers) & set(m.depth1)) / len(m.traced_callers) for m in with_callers
        ),
        "traced_callers_explicit": explicit,
        "callers_found_explicit": explicit_hit,
        "caller_recall_explicit": _ratio(explicit_hit, explicit),
        # ids crg-review listed that name no collected test (distinct over the mutants)
        "unmatched_ids": len({i for m, _ in mutants for i in m.unmatched}),
    }


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return sum(vals) / len(vals) if vals else None


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


COLUMNS = (
    ("mutants", "mutants", str),
    ("killing", "killing", str),
    ("test recall (micro)", "test_recall_micro", _pct),
    ("(macro)", "test_recall_macro", _pct),
    (">=1 found", "mutants_found", _pct),
    ("selection", "selection", _pct),
    ("failing share", "failing_share", _pct),
    ("caller recall (micro)", "caller_recall_micro", _pct),
    ("(macro)", "caller_recall_macro", _pct),
    ("(explicit call sites)", "caller_recall_explicit", _pct),
)


def print_table(rows: dict[str, dict[str, Any]]) -> None:
    header = ["project", *[c[0] for c in COLUMNS]]
    body = [[name, *[fmt(row[key]) for _, key, fmt in COLUMNS]] for name, row in rows.items()]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("| " + " | ".join("-" * w for w in widths) + " |")
    for r in body:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    print("targets: test recall >= 90%, >=1 found >= 98%, selection <= 25%, caller recall >= 95%")


def print_misses(spec: str, mutants: Sequence[Mutant], limit: int) -> None:
    """Mutants with failing tests crg-review did not list, and traced callers missing at depth 1."""
    for m in mutants:
        if m.timed_out:
            print(f"  {m.function.path}::{m.function.qualname}: the suite timed out (left out of the figures)")
            continue
        missed = [t for t in m.failing if t not in m.found]
        lost = sorted(set(m.traced_callers) - set(m.depth1))
        if not missed and not lost:
            continue
        print(f"  {m.function.path}::{m.function.qualname}")
        if missed:
            shown = sorted({collapse(t) for t in missed})
            print(
                f"    missed {len(missed)}/{len(m.failing)} failing tests ({len(m.listed)} listed): "
                + ", ".join(shown[:limit])
                + (f" and {len(shown) - limit} more" if len(shown) > limit else "")
            )
        if lost:
            print(f"    traced callers not at depth 1: {', '.join(lost[:limit])}")
    unmatched = sorted({i for m in mutants for i in m.unmatched})
    if unmatched:
        print(f"  listed ids naming no collected test: {', '.join(unmatched[:limit])}" + (
            f" and {len(unmatched) - limit} more" if len(unmatched) > limit else ""
        ))


def run_project(spec: str, crg_cmd: Sequence[str], plugin_dir: Path, args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    project = setup_project(spec, crg_cmd, plugin_dir, args.build_trace, args.tag)
    functions = mutable_functions(project.repo)
    check_imports_from_repo(project, functions)
    out = plugin_dir / f"{spec.replace('==', '-')}-{args.tag}.jsonl"
    baseline = run_suite(project, out, args.timeout or 3600, args.pytest_args)
    timeout = args.timeout or max(60.0, 10 * baseline.seconds)
    passing = sum(1 for o in baseline.outcomes.values() if o == "passed")
    print(
        f"{spec}: {len(functions)} mutable functions; baseline {len(baseline.outcomes)} tests, {passing} passed,"
        f" {len(baseline.collect_errors)} collection errors, {baseline.seconds:.1f} s"
    )
    if baseline.timed_out or not passing:
        raise SystemExit(f"{spec}: the baseline suite did not run (timed out or nothing passed)")
    callers = (traced_callers(project.trace), traced_callers(project.trace, explicit=True))
    mutants: list[Mutant] = []
    replayed = _replayed(args.replay, spec, baseline, project.repo) if args.replay else None
    chosen = [f for f, _ in replayed] if replayed is not None else sample(functions, args.mutants, args.seed)
    for i, fn in enumerate(chosen, 1):
        recorded = replayed[i - 1][1] if replayed is not None else None
        m = evaluate_mutant(project, fn, baseline, crg_cmd, callers, args, out, timeout, recorded)
        mutants.append(m)
        status = "timeout" if m.timed_out else f"{len(m.found)}/{len(m.failing)} failing found"
        print(
            f"  [{i:>3}] {fn.path}::{fn.qualname}: {status}, {m.selected} selected"
            f"{' (all)' if m.select_all else ''}; callers {len(set(m.traced_callers) & set(m.depth1))}/"
            f"{len(m.traced_callers)}; suite {m.suite_seconds:.1f} s, crg {m.crg_seconds:.1f} s",
            flush=True,
        )
    result = figures([(m, len(baseline.outcomes)) for m in mutants])
    result["explained"] = explain_project(project, crg_cmd, mutants)
    result.update(
        total_tests=len(baseline.outcomes),
        baseline_passed=passing,
        mutable_functions=len(functions),
        seconds=round(time.perf_counter() - started, 1),
        mutant_records=mutants,
    )
    return result


def _replayed(saved: Path, spec: str, baseline: Suite, repo: Path) -> list[tuple[Function, Suite]]:
    """The mutants of ``spec`` in a saved ``--json`` run, each with its recorded suite outcome: the
    baseline's, with the tests that failed for that mutant failing (they do not depend on crg-review).
    A test id that names a file by its absolute path (html2text's ``test_command[/.../test/abbr.html-args0]``)
    named the scratch repository of that run: it is read as naming this run's."""
    projects = load_saved(saved)["projects"]
    if spec not in projects:
        raise SystemExit(f"{saved}: no run of {spec} in it")
    scratch = re.compile(r"[^\[\]\s]*/\.cache/repos/" + re.escape(spec.replace("==", "-") + "-") + r"[^/\]]+")
    out = []
    for md in projects[spec]["mutants_detail"]:
        failing = {scratch.sub(lambda _: str(repo), t) if "/.cache/repos/" in t else t for t in md["failing"]}
        outcomes = {t: ("failed" if t in failing else o) for t, o in baseline.outcomes.items()}
        suite = Suite(outcomes, md.get("collect_errors", []), md["suite_seconds"], md["timed_out"])
        out.append((Function(**md["function"]), suite))
    return out


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--projects", nargs="+", default=list(DEFAULT_PROJECTS), metavar="NAME==VERSION", help="default: %(default)s"
    )
    parser.add_argument("--mutants", type=int, default=40, help="functions mutated per project (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default: %(default)s)")
    parser.add_argument(
        "--timeout", type=float, help="seconds per suite run (default: 60 s or 10 times the baseline run, if longer)"
    )
    parser.add_argument("--pytest-args", type=shlex.split, default=[], help="extra pytest arguments, one string")
    parser.add_argument("--crg", help="crg-review command (default: this python -m crg_review)")
    parser.add_argument(
        "--tag",
        default="mutation",
        help="names the scratch repo and database (default: %(default)s): runs with"
        " different tags can run side by side",
    )
    parser.add_argument(
        "--build-trace", action="store_true", help="run trace_callgraph.py for a project that has no trace yet"
    )
    parser.add_argument(
        "--show", type=int, default=6, help="missed tests / callers shown per mutant (default: %(default)s)"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write figures and every mutant as JSON")
    parser.add_argument("--rescore", type=Path, metavar="OUT", help="only recompute the figures of a saved --json")
    parser.add_argument(
        "--replay",
        type=Path,
        metavar="OUT",
        help="re-ask crg-review about the mutants of a saved --json run, taking their recorded failing tests"
        " instead of running the suite per mutant (the baseline suite still runs once); --projects default to"
        " the saved run's; a .json.gz of --keep-outcomes too",
    )
    parser.add_argument(
        "--keep-outcomes",
        nargs=2,
        type=Path,
        metavar=("SAVED", "OUT"),
        help="write to OUT (.json.gz) what --replay needs of the saved --json run SAVED, then stop",
    )
    return parser.parse_args(argv)


#: what a replay needs of a mutant's recorded run (see :func:`keep_outcomes`)
OUTCOME_FIELDS = ("function", "failing", "collect_errors", "suite_seconds", "timed_out")


def load_saved(path: Path) -> dict[str, Any]:
    """A saved ``--json`` run, or the outcomes kept of one (``.json.gz``)."""
    if path.suffix == ".gz":
        import gzip

        return dict(json.loads(gzip.decompress(path.read_bytes()).decode("utf-8")))
    return dict(json.loads(path.read_text(encoding="utf-8")))


def keep_outcomes(saved: Path, out: Path) -> None:
    """Write what ``--replay`` reads of a saved run (per mutant: the function and the tests that failed),
    gzipped: a few tens of kilobytes that let a fresh clone replay the run without its suite runs."""
    import gzip

    projects = load_saved(saved)["projects"]
    kept = {
        "projects": {
            spec: {"mutants_detail": [{k: m[k] for k in OUTCOME_FIELDS if k in m} for m in r["mutants_detail"]]}
            for spec, r in projects.items()
        }
    }
    out.write_bytes(gzip.compress(json.dumps(kept, sort_keys=True).encode("utf-8"), mtime=0))


def rescore(path: Path) -> dict[str, dict[str, Any]]:
    """The per-project results of a saved ``--json`` run, with today's figures."""
    saved = json.loads(path.read_text())
    out: dict[str, dict[str, Any]] = {}
    for spec, r in saved["projects"].items():
        trace = load_trace(spec, False)
        callers = (traced_callers(trace), traced_callers(trace, explicit=True))
        source = fetch_sdist(*spec.split("=="))  # the unmutated tree, as the scratch repo was made from it
        mutants = []
        for m in r["mutants_detail"]:
            fn = Function(**m["function"])
            fields = {**m, "function": fn, "depths": m.get("depths", {}), "collect_errors": m.get("collect_errors", [])}
            accessor = accessor_kind(source, fn)
            fields["traced_callers"] = callers_of(callers[0], fn, accessor)
            fields["traced_callers_explicit"] = tuple(callers_of(callers[1], fn, accessor))
            mutants.append(Mutant(**fields))
        out[spec] = {
            **r,
            **figures([(m, r["total_tests"]) for m in mutants]),
            "mutant_records": mutants,
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.keep_outcomes:
        keep_outcomes(*args.keep_outcomes)
        return 0
    if args.rescore:
        rescored = rescore(args.rescore)
        rows = dict(rescored)
        if len(rows) > 1:
            rows["overall"] = figures([(m, r["total_tests"]) for r in rescored.values() for m in r["mutant_records"]])
        print_table(rows)
        return 0
    crg_cmd = shlex.split(args.crg) if args.crg else [sys.executable, "-m", "crg_review"]
    if args.replay and args.projects == list(DEFAULT_PROJECTS):
        args.projects = list(load_saved(args.replay)["projects"])
    plugin_dir = CACHE_DIR / "mutation"
    plugin_dir.mkdir(parents=True, exist_ok=True)
    plugin = plugin_dir / "crg_mutation_outcomes.py"
    if not plugin.exists() or plugin.read_text(encoding="utf-8") != OUTCOME_PLUGIN:  # another run may use it
        plugin.write_text(OUTCOME_PLUGIN, encoding="utf-8")
    per_project = {spec: run_project(spec, crg_cmd, plugin_dir, args) for spec in args.projects}
    print()
    for spec, result in per_project.items():
        print(f"misses, {spec} ({result['seconds']:.0f} s, {result['total_tests']} tests collected):")
        print_misses(spec, result["mutant_records"], args.show)
        print_explanation(spec, result["explained"], args.show)
    print()
    rows = {spec: r for spec, r in per_project.items()}
    if len(rows) > 1:
        rows["overall"] = figures([(m, r["total_tests"]) for r in per_project.values() for m in r["mutant_records"]])
    print_table(rows)
    if args.json:
        dumped = {
            "command": shlex.join(["benchmarks/mutation_eval.py", *(argv if argv is not None else sys.argv[1:])]),
            "seed": args.seed,
            "projects": {
                spec: {
                    **{k: v for k, v in r.items() if k != "mutant_records"},
                    "mutants_detail": [{**m._asdict(), "function": m.function._asdict()} for m in r["mutant_records"]],
                }
                for spec, r in per_project.items()
            },
            "overall": rows.get("overall"),
        }
        args.json.write_text(json.dumps(dumped, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
