"""Sub-commands about change impact: ``diff``, ``tests`` and the graph questions (``callers``, ``impact``,
``dependents``, ``imports``, ``tests-for``). Imported by ``cli._load_extensions``; heavy imports are lazy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import cli
from .errors import ConfigError
from .languages import language_for_path

_FORMATS = ("text", "markdown", "json", "sarif")


def _add_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    s = sub.add_parser("diff", parents=[common], help="what a change can break: impacted code, tests, findings")
    _range_args(s)
    s.add_argument("--depth", type=int, metavar="N", help="how many edges up to list dependants (default: config, 3)")
    s.add_argument("--format", choices=_FORMATS, default="text")
    s.add_argument("--fail-on", choices=("error", "warning", "never"), help="exit 2 when findings reach this level")
    s.add_argument("--template-dir", metavar="DIR", help="templates that override the shipped ones (same file names)")
    s.add_argument("--output", "-o", metavar="FILE", help="write the review to FILE instead of standard output")
    s.add_argument("--max-impacted", type=int, metavar="N", help="list at most N dependants (default 200)")
    s.add_argument(
        "--max-tests",
        type=int,
        metavar="N",
        help="the text format lists at most N related tests, the rest counted (default 100; the other formats and"
        " `crg-review tests` list them all)",
    )

    s = sub.add_parser("tests", parents=[common], help="related tests of a change, one runnable id per line")
    _range_args(s)
    s.add_argument(
        "--none-marker",
        metavar="TEXT",
        default="",
        help="print TEXT when no test is related (default: print nothing; pytest with no ids runs everything)",
    )
    s.add_argument("--format", choices=("lines", "json"), default="lines")

    s = sub.add_parser("callers", parents=[common], help="who calls SYMBOL (path::qualname or a unique name)")
    s.add_argument("symbol", metavar="SYMBOL")
    s.add_argument("--depth", type=int, default=1, metavar="N", help="callers of callers up to N (default 1)")
    s.add_argument("--format", choices=("text", "json"), default="text")

    s = sub.add_parser("impact", parents=[common], help="what breaks if PATH or SYMBOL changes")
    s.add_argument("target", metavar="PATH|SYMBOL")
    s.add_argument("--depth", type=int, metavar="N", help="default: config, 3")
    s.add_argument("--format", choices=("text", "json"), default="text")

    s = sub.add_parser("dependents", parents=[common], help="files that use PATH")
    s.add_argument("path", metavar="PATH")
    s.add_argument("--format", choices=("text", "json"), default="text")

    s = sub.add_parser("imports", parents=[common], help="what PATH imports, and which files that resolves to")
    s.add_argument("path", metavar="PATH")
    s.add_argument("--format", choices=("text", "json"), default="text")

    s = sub.add_parser("tests-for", parents=[common], help="tests that reach SYMBOL")
    s.add_argument("symbol", metavar="SYMBOL")
    s.add_argument("--format", choices=("lines", "text", "json"), default="text")


def _range_args(s: argparse.ArgumentParser) -> None:
    s.add_argument(
        "range",
        nargs="?",
        metavar="RANGE",
        help="A..B, A...B (merge base: for PRs) or A (A..HEAD); none: HEAD vs the working tree",
    )
    s.add_argument("--staged", action="store_true", help="the staged changes (index vs HEAD, or vs RANGE's revision)")


cli._EXTENSIONS.append(_add_commands)


def _checked_depth(depth: int | None, flag: str = "--depth") -> int | None:
    if depth is not None and depth < 0:
        raise ConfigError(f"{flag} must be 0 or more, not {depth}")
    return depth


def _review(args: argparse.Namespace, ws: Any) -> Any:
    from .gitio import DiffSpec
    from .impact import DEFAULT_CAP, review_diff

    spec = DiffSpec.parse(args.range, staged=args.staged)
    cap = _checked_depth(getattr(args, "max_impacted", None), "--max-impacted")
    return review_diff(
        ws, spec, depth=_checked_depth(getattr(args, "depth", None)), cap=DEFAULT_CAP if cap is None else cap
    )


def _emit(text: str, output: str | None) -> None:
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write {output}: {exc.strerror}") from exc
    else:
        sys.stdout.write(text)


@cli.command("diff")
def _diff(args: argparse.Namespace) -> int:
    from .findings import fail_reached
    from .impact import paused_collection
    from .render import TEXT_TESTS, render

    ws = cli._workspace(args)
    try:
        ws.config = ws.config.with_overrides(
            "command line", fail_on=args.fail_on, template_dir=args.template_dir, depth=args.depth
        )
        review = _review(args, ws)
    finally:
        ws.close()
    color = args.format == "text" and not args.output and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    max_tests = _checked_depth(args.max_tests, "--max-tests")
    with paused_collection():
        text = render(
            review,
            args.format,
            template_dir=ws.config.template_dir,
            color=color,
            max_tests=TEXT_TESTS if max_tests is None else max_tests,
        )
    _emit(text, args.output)
    return 2 if fail_reached(review.findings, ws.config.fail_on) else 0


@cli.command("tests")
def _tests(args: argparse.Namespace) -> int:
    ws = cli._workspace(args)
    try:
        review = _review(args, ws)
        root = Path(ws.repo.root)
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps({"select_all": review.select_all, "tests": [t.nodeid for t in review.tests]}, indent=2))
        return 0
    if review.select_all:
        # pytest without ids runs the whole suite (its configured testpaths): exactly what is wanted
        print(f"crg-review: every test is selected: {review.select_all}", file=sys.stderr)
        return 0
    # pytest's ids: a Python test's or file's, or a file of no language it collects tests from (a conftest hook's
    # data file, a doctest text file), run whole; other languages' tests are run by their own runners
    pytest_ids = {t.nodeid for t in review.tests if t.nodeid and language_for_path(t.file) in ("python", None)}
    ids = sorted(_runnable(pytest_ids, root))
    if not ids:
        if args.none_marker:
            print(args.none_marker)
        return 0
    print("\n".join(ids))
    return 0


def _runnable(nodeids: set[str], root: Path) -> set[str]:
    """Node ids relative to the current directory when that is inside the repository (pytest's view)."""
    cwd = Path.cwd().resolve()
    try:
        cwd.relative_to(root)
    except ValueError:
        return nodeids
    files: dict[str, str] = {}  # a test file's path from the current directory, once per file
    out = set()
    for nodeid in nodeids:
        path, sep, rest = nodeid.partition("::")
        if path not in files:
            files[path] = Path(os.path.relpath(root / path, cwd)).as_posix()
        out.add(f"{files[path]}{sep}{rest}")
    return out


@cli.command("callers")
def _callers(args: argparse.Namespace) -> int:
    from .impact import callers, resolve_symbol

    ws = cli._workspace(args)
    try:
        node = resolve_symbol(ws.store, args.symbol)
        found = callers(ws.store, node, depth=_checked_depth(args.depth) or 0)
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps({"symbol": f"{node.path}::{node.qualname}", "callers": [_row(i) for i in found]}, indent=2))
        return 0
    if not found:
        print(f"no callers of {node.path}::{node.qualname} in the index")
    for i in found:
        via = " <- ".join(i.via[:-1]) if len(i.via) > 1 else ""
        print(
            f"{i.file}:{i.line} {i.qualname}  (depth {i.depth}, {i.edge}, {i.confidence:.2f}{', via ' + via if via else ''})"
        )
    return 0


def _row(x: Any) -> dict[str, Any]:
    from .review import record_json

    return record_json(x)


@cli.command("impact")
def _impact(args: argparse.Namespace) -> int:
    from .graph import Graph
    from .impact import resolve_symbol, review_symbols
    from .render import TEXT_TESTS, render

    ws = cli._workspace(args)
    try:
        depth = _checked_depth(args.depth)
        store = ws.store
        target = args.target
        nodes = Graph(store.conn).file_nodes(target) if "::" not in target else []
        if not nodes:
            nodes = [resolve_symbol(store, target)]
        review = review_symbols(
            store, nodes, depth=ws.config.depth if depth is None else depth, head=target, files=ws
        )
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps(review.to_json(), indent=2))
        return 0
    sys.stdout.write(render(review, "text", template_dir=ws.config.template_dir, max_tests=TEXT_TESTS))
    return 0


@cli.command("dependents")
def _dependents(args: argparse.Namespace) -> int:
    from .impact import dependents

    ws = cli._workspace(args)
    try:
        rows = dependents(ws.store, args.path)
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps({"file": args.path, "dependents": rows}, indent=2))
        return 0
    for r in rows:
        print(f"{r['file']}  ({r['edges']} edge(s): {', '.join(r['kinds'])})")
    return 0


@cli.command("imports")
def _imports(args: argparse.Namespace) -> int:
    from .impact import imports_of

    ws = cli._workspace(args)
    try:
        rows = imports_of(ws.store, args.path)
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps({"file": args.path, "imports": rows}, indent=2))
        return 0
    for r in rows:
        what = "." * r["level"] + r["module"] + (f" : {r['name']}" if r["name"] else "")
        alias = f" as {r['alias']}" if r["alias"] else ""
        where = ", ".join(r["resolved"]) or "(outside the repository)"
        print(f"{r['line']:>5} {what}{alias} -> {where}")
    return 0


@cli.command("tests-for")
def _tests_for(args: argparse.Namespace) -> int:
    from .impact import resolve_symbol, tests_for

    ws = cli._workspace(args)
    try:
        node = resolve_symbol(ws.store, args.symbol)
        found = tests_for(ws.store, node, files=ws)
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps({"symbol": f"{node.path}::{node.qualname}", "tests": [_row(t) for t in found]}, indent=2))
        return 0
    if args.format == "lines":
        print("\n".join(sorted({t.nodeid for t in found})))
        return 0
    if not found:
        print(f"no test reaches {node.path}::{node.qualname}")
    shown: set[str] = set()
    for t in found:  # nearest first; a remade class's tests share its id (suite.name_remade_tests)
        if t.nodeid not in shown:
            shown.add(t.nodeid)
            print(f"{t.nodeid}  ({t.reason}{f', depth {t.depth}' if t.depth else ''})")
    return 0
