"""Language registry: file extension → tree-sitter-language-pack name, and per-language hooks.

Each language is a module here with a tree-sitter query file (``<name>.scm``, package data) and a few
hooks for what a query cannot say (qualname separator, test conventions, docstrings).
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType

__all__ = ["LANGUAGES", "hooks_for", "language_for_path", "query_source"]

#: tree-sitter-language-pack names, in the order stats report them
LANGUAGES = ("python", "javascript", "typescript", "tsx", "go", "java", "rust", "c", "cpp", "ruby", "csharp")

_EXTENSIONS = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".rb": "ruby",
    ".cs": "csharp",
}

# one hook module may serve several grammars
_HOOK_MODULE = {"tsx": "typescript"}


def language_for_path(path: str) -> str | None:
    """The language of a repository path by its extension, or None when we do not index it."""
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return _EXTENSIONS.get(name[dot:].lower()) if dot > 0 else None


@cache
def hooks_for(language: str) -> ModuleType:
    """The hook module of a language (``crg_review.languages.<name>``)."""
    return importlib.import_module(f"{__name__}.{_HOOK_MODULE.get(language, language)}")


@cache
def query_source(language: str) -> str:
    """The tree-sitter query text for a language (package data)."""
    hooks = hooks_for(language)
    # QUERY_FILES (language -> file names, concatenated) lets grammars that share most node types share queries
    names = getattr(hooks, "QUERY_FILES", {}).get(language) or (getattr(hooks, "QUERY_FILE", f"{language}.scm"),)
    return "\n".join(_package_text(name) for name in names)


def _package_text(name: str) -> str:
    """A data file of this package, read beside this module; through importlib.resources (whose first use costs
    3-4 ms of imports in every process that parses) only when the package is no directory (a zip)."""
    try:
        with open(os.path.join(os.path.dirname(__file__), name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        from importlib.resources import files

        return (files(__name__) / name).read_text(encoding="utf-8")
