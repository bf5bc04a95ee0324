"""Dynamic call graph of a project's own test suite: the ground truth for resolution_recall.py.

Downloads the project's sdist, copies it to a scratch tree, installs it (editable) with pytest
into its own venv under ``benchmarks/.cache/venvs/``, runs its tests with calltrace_plugin.py
(``sys.setprofile``) and writes the calls between the project's own functions as JSON::

    {"project": ..., "edges": [[caller_path, caller_qualname, callee_path, callee_qualname], ...],
     "edge_sites": [[site, ...], ...], "edge_lines": [[line, ...], ...], "test_edges": [...], ...,
     "indirect_edges": [[..., via], ...], "ran": [[path, qualname], ...], ...}

Paths are relative to the sdist's root, which is the root of the git repo that
``fetch.make_git_repo`` makes from it. Qualnames are ``co_qualname`` without ``<locals>``.

- ``edges``: caller and callee are functions in project (non-test) files, and the caller's
  frame is the callee's immediate Python caller (builtins in between are allowed and show in
  ``edge_sites`` as ``cfunc:NAME``); ``edge_sites`` and ``edge_lines`` run parallel to it:
  the call-site kinds seen (an opcode name such as ``CALL`` or ``LOAD_ATTR`` for a property,
  ``cfunc:NAME``, or ``decorator`` for a call made on an ``@`` line) and the caller's lines.
- ``test_edges`` (with ``test_edge_sites``, ``test_edge_lines``): the same with the caller in
  a test file (tests/, test_*.py, conftest.py).
- ``scope_edges``: the caller is a module or class body (decorators, class attributes).
- ``indirect_edges``: Python frames outside the project stand between the two (contextlib,
  functools, logging, pytest); ``via`` names the first of them.
- ``ran``: every project function that was entered at least once.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import shutil
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fetch import CACHE_DIR, fetch_sdist, make_venv, timed

DEFAULT_PROJECT = "click==8.1.7"
#: where projects pin their test requirements (pytest included); the first one found is used
REQUIREMENT_FILES = (
    "requirements/tests.txt",
    "requirements/test.txt",
    "requirements-test.txt",
    "test-requirements.txt",
    "requirements/testing.txt",
)
TEST_DIRS = {"tests", "test", "testing"}


class Edge(NamedTuple):
    caller_path: str
    caller: str
    callee_path: str
    callee: str


def is_test_file(rel: str) -> bool:
    """A test file: under a tests/test/testing folder, or named test_*.py, *_test.py, conftest.py."""
    parts = rel.split("/")
    name = parts[-1]
    return (
        bool(TEST_DIRS.intersection(parts[:-1]))
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def _defs(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, bool]]:
    """(qualname, is_function) of every def and class in body, nested ones included."""
    for node in body:
        for child in nested_blocks(node):
            yield from _defs(child, prefix)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qualname = f"{prefix}{node.name}"
            yield qualname, not isinstance(node, ast.ClassDef)
            yield from _defs(node.body, f"{qualname}.")


def nested_blocks(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    """Statement lists under an if/for/while/try/with (not under a def or class)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(node, "handlers", []):
        yield handler.body
    for case in getattr(node, "cases", []):
        yield case.body


def static_functions(root: Path, rel: str) -> set[str]:
    """Qualnames of the functions (not classes) defined in one file, per ``ast``."""
    try:
        tree = ast.parse((root / rel).read_bytes())
    except (SyntaxError, OSError):
        return set()
    return {q for q, is_function in _defs(tree.body, "") if is_function}


def prepare_tree(name: str, version: str) -> Path:
    """A fresh scratch copy of the extracted sdist (editable installs write into it)."""
    src = fetch_sdist(name, version)
    tree = CACHE_DIR / "trace" / f"{name}-{version}"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(src, tree, symlinks=True)
    return tree


def prepare_venv(name: str, tree: Path, extra: Sequence[str]) -> Path:
    """The project's venv with its pinned test requirements (or plain pytest) and the project
    installed editable; return its python."""
    pinned = next((tree / f for f in REQUIREMENT_FILES if (tree / f).is_file()), None)
    deps = ["-r", str(pinned)] if pinned else ["pytest"]
    deps += extra
    py = make_venv(CACHE_DIR / "venvs" / name.lower(), *deps)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "-e", str(tree)], check=True)
    return py


#: where pytest reads its settings from, and the section it looks for there
PYTEST_CONFIGS = (
    ("pytest.ini", ""),
    (".pytest.ini", ""),
    ("pyproject.toml", "[tool.pytest.ini_options]"),
    ("pyproject.toml", "[tool.pytest]"),  # pytest 9's native TOML table
    ("tox.ini", "[pytest]"),
    ("setup.cfg", "[tool:pytest]"),
)


def own_config(repo: Path, scratch: Path) -> list[str]:
    """pytest arguments that keep a project without pytest settings from picking up those of a folder
    above it (this repository's pyproject.toml, say): an empty ini file and the repo as rootdir."""
    for name, section in PYTEST_CONFIGS:
        path = repo / name
        if path.is_file() and section in path.read_text(encoding="utf-8", errors="replace"):
            return []
    empty = scratch / "empty-pytest.ini"
    if not empty.exists():
        empty.write_text("[pytest]\n", encoding="utf-8")
    return ["-c", str(empty), "--rootdir", str(repo)]


def run_pytest(py: Path, tree: Path, pytest_args: Sequence[str], raw: Path | None) -> tuple[float, int]:
    """Run the suite (traced when raw is given); return (wall seconds, pytest exit code)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # a project without pytest settings would pick up those of a folder above it (this repository's)
    cmd = [str(py), "-m", "pytest", "-q", "-p", "no:cacheprovider", *own_config(tree, CACHE_DIR), *pytest_args]
    if raw is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
        env["CRG_TRACE_ROOT"], env["CRG_TRACE_OUT"] = str(tree), str(raw)
        cmd[3:3] = ["-p", "calltrace_plugin"]
    seconds, done = timed(cmd, cwd=tree, env=env)
    tail = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"  pytest {'traced' if raw else 'untraced'}: {seconds:.1f} s, exit {done.returncode}: {tail}")
    if done.returncode not in (0, 1):  # 1: some tests failed, the trace is still usable
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"pytest failed to run ({done.returncode})")
    return seconds, done.returncode


class SourceLines:
    """Lines of the tree's files, read once each."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self.files: dict[str, list[str]] = {}

    def starts_with_at(self, rel: str, line: int) -> bool:
        """Whether the line is a decorator line (``@...``)."""
        if rel not in self.files:
            self.files[rel] = (self.tree / rel).read_text(encoding="utf-8", errors="replace").splitlines()
        lines = self.files[rel]
        return 0 < line <= len(lines) and lines[line - 1].lstrip().startswith("@")


def classify(raw: dict[str, Any], tree: Path) -> dict[str, Any]:
    """Turn the plugin's raw records into the published edge lists.

    A call made on a decorator line gets the site ``decorator``: both the decorator
    expression's own call (``@command()``) and the application of the decorator run there.
    """
    functions: dict[str, set[str]] = {}
    source = SourceLines(tree)

    def is_function(rel: str, qualname: str) -> bool:
        if rel not in functions:
            functions[rel] = static_functions(tree, rel)
        return qualname in functions[rel]

    direct: dict[str, dict[Edge, tuple[set[str], set[int]]]] = {"edges": {}, "test_edges": {}}
    scope_edges: set[Edge] = set()
    indirect: dict[Edge, str] = {}
    for caller_path, caller, callee_path, callee, site, hops, line, _count in raw["edges"]:
        edge = Edge(caller_path, caller, callee_path, callee)
        if is_test_file(callee_path):
            continue
        if hops:
            indirect.setdefault(edge, site)
            continue
        if not is_test_file(caller_path) and not is_function(caller_path, caller):
            scope_edges.add(edge)
            continue
        if source.starts_with_at(caller_path, line):
            site = "decorator"
        group = direct["test_edges" if is_test_file(caller_path) else "edges"]
        sites, lines = group.setdefault(edge, (set(), set()))
        sites.add(site)
        lines.add(line)
    ran = sorted({(p, q) for p, q in raw["ran"] if not is_test_file(p)})
    unknown = sorted({f"{p}::{q}" for p, q in ran if not is_function(p, q)})
    result: dict[str, Any] = {}
    for name, group in direct.items():
        order = sorted(group)
        prefix = "" if name == "edges" else "test_"
        result[name] = [list(e) for e in order]
        result[f"{prefix}edge_sites"] = [sorted(group[e][0]) for e in order]
        result[f"{prefix}edge_lines"] = [sorted(group[e][1]) for e in order]
    return {
        **result,
        "scope_edges": [list(e) for e in sorted(scope_edges)],
        "indirect_edges": [[*e, via] for e, via in sorted(indirect.items())],
        "ran": [list(r) for r in ran],
        "ran_not_found_by_ast": unknown,
    }


def summarize(result: dict[str, Any]) -> None:
    """Print counts and the site kinds of the direct edges."""
    kinds: dict[str, int] = defaultdict(int)
    for site_list in result["edge_sites"]:
        for site in site_list:
            kinds[site.split(":")[0] if site.startswith("cfunc:") else site] += 1
    print(
        f"{result['project']}: {len(result['edges'])} direct project->project edges, "
        f"{len(result['test_edges'])} test->project, {len(result['scope_edges'])} from module/class "
        f"bodies, {len(result['indirect_edges'])} indirect; {len(result['ran'])} project functions ran"
    )
    print(
        "  call sites of direct edges: "
        + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
    )
    if result["ran_not_found_by_ast"]:
        print(
            f"  {len(result['ran_not_found_by_ast'])} functions that ran have no matching def per ast, "
            f"e.g. {result['ran_not_found_by_ast'][:3]}"
        )


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", default=DEFAULT_PROJECT, help="NAME==VERSION of the sdist (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="output JSON (default: benchmarks/.cache/trace/NAME-VERSION.json)")
    parser.add_argument("--deps", default="", help="extra test requirements to pip-install, space-separated")
    parser.add_argument("--pytest-args", default="", help="extra pytest arguments, e.g. 'tests -k \"not slow\"'")
    parser.add_argument("--no-baseline", action="store_true", help="skip the untraced run that times the suite")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    name, version = args.project.split("==")
    out = args.out or CACHE_DIR / "trace" / f"{name}-{version}.json"
    tree = prepare_tree(name, version)
    py = prepare_venv(name, tree, args.deps.split())
    pytest_args = shlex.split(args.pytest_args)
    untraced = None if args.no_baseline else run_pytest(py, tree, pytest_args, None)[0]
    raw_path = out.with_suffix(".raw.json")
    traced, exit_code = run_pytest(py, tree, pytest_args, raw_path)
    raw = json.loads(raw_path.read_text())
    result = {
        "project": args.project,
        "python": raw["python"],
        "pytest_exit": exit_code,
        "seconds_untraced": untraced and round(untraced, 2),
        "seconds_traced": round(traced, 2),
        **classify(raw, tree),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    summarize(result)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
