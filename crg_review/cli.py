"""Command line: parse arguments, call the library, print, map errors to exit codes.

Exit codes: 0 ok, 1 expected failure (message on stderr), 2 findings reached ``--fail-on``,
3 internal error (a bug: please report), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import __version__
from .errors import CrgError

if TYPE_CHECKING:
    from .gitio import SnapshotKind

__all__ = ["main"]

log = logging.getLogger("crg_review")

Handler = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        _COMMANDS[name] = fn
        return fn

    return register


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--repo", metavar="DIR", help="repository (default: discovered from the current directory)")
    common.add_argument("--db", metavar="PATH", help="index file (default: <git dir>/crg-review/index.db; env CRG_REVIEW_DB)")
    common.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    p = argparse.ArgumentParser(prog="crg-review", description="What a change can break: callers, tests, related code.")
    p.add_argument("--version", action="version", version=f"crg-review {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    s = sub.add_parser("index", parents=[common], help="index the repository (incrementally)")
    what = s.add_mutually_exclusive_group()
    what.add_argument("--staged", action="store_true", help="index the staged tree (git index)")
    what.add_argument("--rev", metavar="REV", help="index a commit's tree")
    s.add_argument("--full", action="store_true", help="rebuild from scratch")
    s.add_argument("--size-limit", type=int, metavar="BYTES", help="skip files larger than this (default 1 MiB)")

    s = sub.add_parser("stats", parents=[common], help="what the index holds")
    s.add_argument("--format", choices=("text", "json"), default="text")

    s = sub.add_parser("dump", parents=[common], help="canonical dump of the graph (for tests and benchmarks)")
    s.add_argument("--format", choices=("json",), default="json")

    for extend in _EXTENSIONS:
        extend(sub, common)
    return p


#: other modules add sub-commands here (diff, search, hooks, github), keeping this file thin
_EXTENSIONS: list[Callable[[Any, argparse.ArgumentParser], None]] = []


def _workspace(args: argparse.Namespace, prefetch: SnapshotKind | None = None) -> Any:
    from .workspace import open_workspace

    config_overrides = {}
    if getattr(args, "size_limit", None) is not None:
        config_overrides["size_limit"] = args.size_limit
    ws = open_workspace(args.repo, args.db, prefetch=prefetch)
    if config_overrides:
        ws.config = ws.config.with_overrides("command line", **config_overrides)
    return ws


def _progress_bar() -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A rich progress bar on a TTY (imported only then), nothing otherwise."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress("parsing", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True)
    task = bar.add_task("parse", total=None)
    bar.start()

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return update, bar.stop


@command("index")
def _index(args: argparse.Namespace) -> int:
    kind: SnapshotKind = "staged" if args.staged else "commit" if args.rev else "worktree"
    ws = _workspace(args, prefetch=kind)  # git stats the work tree while the indexer is imported

    from .indexer import Source

    source = Source(kind, args.rev)
    progress, stop = _progress_bar()
    try:
        report = ws.update(source, full=args.full, progress=progress)
        files = ws.store.file_count()
        embedded = _refresh_vectors(ws) if not report.unchanged else None
    finally:
        stop()
        ws.close()
    skipped = sum(report.skipped.values())
    what = "up to date" if report.unchanged else f"parsed {report.parsed} file(s), removed {report.deleted}"
    extra = f", skipped {skipped} ({', '.join(f'{k}: {v}' for k, v in sorted(report.skipped.items()))})" if skipped else ""
    vectors = f", {embedded} symbol text(s) embedded" if embedded else ""
    print(f"crg-review: index of {report.indexed} ({files} files) {what}{extra}{vectors} in {report.seconds:.2f}s")
    return 0


def _refresh_vectors(ws: Any) -> int | None:
    """Re-embed the symbols whose text changed, once the index holds vectors (someone ran ``crg-review
    search``); never the first embedding, so an index without search stays free of numpy and models."""
    if not ws.store.has_vectors():
        return None
    from .search import update_search_index

    with ws.store.atomic():
        return update_search_index(ws.store, ws.repo, model=ws.config.embed_model)


@command("stats")
def _stats(args: argparse.Namespace) -> int:
    ws = _workspace(args)
    try:
        data = ws.store.stats()
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps(data, indent=2, sort_keys=False))
        return 0
    print(f"index      {data['db_path']} ({data['db_bytes'] / 1e6:.1f} MB), indexed: {data['indexed'] or 'nothing yet'}")
    print(f"files      {data['files']} ({data['files_with_syntax_errors']} with syntax errors)")
    if data["skipped"]:
        print("skipped    " + ", ".join(f"{k}: {v}" for k, v in data["skipped"].items()))
    print(f"symbols    {data['symbols']}  " + ", ".join(f"{k}: {v}" for k, v in data["by_kind"].items()))
    print(f"edges      {data['edges']}  " + ", ".join(f"{k}: {v}" for k, v in data["edges_by_kind"].items()))
    print("resolution " + ", ".join(f"{k}: {v}" for k, v in data["resolution"].items()))
    print(f"unresolved {data['unresolved']} call(s)  " + ", ".join(f"{k}: {v}" for k, v in data["unresolved_by_reason"].items()))
    for language, counts in data["by_language"].items():
        print(f"  {language:<11} {counts['files']:>6} files {counts['symbols']:>8} symbols")
    return 0


@command("dump")
def _dump(args: argparse.Namespace) -> int:
    ws = _workspace(args)
    try:
        print(json.dumps(ws.store.dump(), separators=(",", ":")))
    finally:
        ws.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``crg-review`` command."""
    _load_extensions()
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="crg-review: %(message)s",
        stream=sys.stderr,
    )
    try:
        return _COMMANDS[args.command](args)
    except CrgError as exc:
        print(f"crg-review: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("crg-review: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug: say so in one line; the traceback only when asked for
        if os.environ.get("CRG_REVIEW_DEBUG") or getattr(args, "verbose", False):
            raise
        print(
            f"crg-review: internal error: {type(exc).__name__}: {exc} (rerun with -v for details and please report it)",
            file=sys.stderr,
        )
        return 3


def _load_extensions() -> None:
    """Import the modules that register further sub-commands (cheap: they import heavy libraries lazily)."""
    import importlib

    for name in _EXTENSION_MODULES:
        try:
            importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{name}":
                raise


_EXTENSION_MODULES = ("cli_review", "cli_search", "cli_publish")
