"""``crg-review search QUERY``: hybrid search over the index (imports the search stack only when it runs)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from . import cli
from .errors import ConfigError

__all__: list[str] = []

_KINDS = ("module", "class", "struct", "interface", "trait", "enum", "function", "method", "test")


def _add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    s = sub.add_parser("search", parents=[common], help="find code by name or by what it does")
    s.add_argument("query", metavar="QUERY", help="words, identifiers (Context.invoke, snake_case, CamelCase) or both")
    s.add_argument("--kind", choices=_KINDS, help="only symbols of this kind")
    s.add_argument("--limit", type=int, default=10, metavar="N", help="number of results (default 10)")
    s.add_argument(
        "--context-file",
        action="append",
        default=[],
        metavar="FILE",
        help="rank symbols of this file higher (repeatable; e.g. the files of your change)",
    )
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.add_argument("--embed-model", choices=("fast", "quality"), help="embedding model (default: config embed_model)")
    s.add_argument(
        "--mode", choices=("hybrid", "fts", "semantic", "keyword"), help="restrict the legs (default: best available)"
    )


cli._EXTENSIONS.append(_add_parser)


def _repo_relative(root: Path, given: str) -> str:
    """A path as the index stores it: relative to the repository root, '/' separators."""
    path = Path(given)
    absolute = path if path.is_absolute() else Path(os.getcwd()) / path
    try:
        return absolute.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


@cli.command("search")
def _search(args: argparse.Namespace) -> int:
    from .search import search

    if args.limit < 1:
        raise ConfigError("--limit must be at least 1")
    ws = cli._workspace(args)
    try:
        if args.embed_model:
            ws.config = ws.config.with_overrides("--embed-model", embed_model=args.embed_model)
        if ws.store.get_meta("indexed") is None:
            raise ConfigError("the repository is not indexed yet: run `crg-review index` first")
        root = Path(ws.repo.root)
        result = search(
            ws.store,
            args.query,
            repo=ws.repo,
            model=ws.config.embed_model,
            kind=args.kind,
            limit=args.limit,
            context_files=[_repo_relative(root, f) for f in args.context_file],
            mode=args.mode,
        )
    finally:
        ws.close()
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
        return 0
    if not result.results:
        print(f"no results ({result.mode})")
        return 0
    width = max(len(h.location) for h in result.results)
    for h in result.results:
        print(f"{h.location:<{width}}  {h.kind:<8} {h.qualified_name}  [{'+'.join(h.legs)} {h.score:.4f}]")
    print(f"({result.mode}: {len(result.results)} result(s))")
    return 0
