"""Where a module lives: the files of the repository (path, language, module name) and the file or files an import
of a module name or path can mean, per language (Python's packages, relative imports and ``src/`` layouts,
JavaScript's and TypeScript's extensions, Go's and Java's package directories, Rust's ``mod.rs``, C includes, Ruby's
``require``).
"""

from __future__ import annotations

import posixpath
import sqlite3

__all__ = ["ModuleMap"]

_JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts")
#: look-ups of paths by suffix answered one scan at a time before an index of every suffix is built at once: an update
#: asks a few, a full build thousands (as hierarchy.py's look-ups of subclasses)
_ONE_BY_ONE = 64


class ModuleMap:
    """The files of the index by id and path, and what an import from one of them can mean. Caches per instance,
    as the resolver that owns it does (one per update, after all the update's files are stored)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._files: dict[int, tuple[str, str | None, str | None]] = {}
        self._path_ids: dict[str, int] | None = None
        self._module_cache: dict[tuple[str, int, int], list[int]] = {}
        self._suffixes: dict[str, list[tuple[str, int]]] | None = None
        self._suffix_hits: dict[str, list[tuple[str, int]]] = {}
        self._by_file_name: dict[str, list[tuple[str, int]]] | None = None

    def file(self, file_id: int) -> tuple[str, str | None, str | None]:
        """(path, language, module) of a file."""
        if file_id not in self._files:
            row = self.conn.execute("SELECT path, language, module FROM files WHERE id=?", (file_id,)).fetchone()
            self._files[file_id] = (row[0], row[1], row[2])
        return self._files[file_id]

    def path_ids(self) -> dict[str, int]:
        """Ids of the indexed files by path (skipped files left out)."""
        if self._path_ids is None:
            self._path_ids = {
                r[0]: r[1] for r in self.conn.execute("SELECT path, id FROM files WHERE status NOT LIKE 'skipped:%'")
            }
        return self._path_ids

    def module_files(self, importer: int, module: str, level: int) -> list[int]:
        """Files an import of ``module`` (relative ``level``) from file ``importer`` can mean."""
        key = (module, level, importer)
        if key not in self._module_cache:
            self._module_cache[key] = self._module_files(importer, module, level)
        return self._module_cache[key]

    def _module_files(self, importer: int, module: str, level: int) -> list[int]:
        path, language, _ = self.file(importer)
        paths = self.path_ids()
        directory = posixpath.dirname(path)
        if language == "python":
            if level:
                base = directory
                for _ in range(level - 1):
                    base = posixpath.dirname(base)
                rel = module.replace(".", "/")
                stem = posixpath.join(base, rel) if rel else base
                return _first_existing(paths, [stem + ".py", stem + "/__init__.py", stem + ".pyi", stem + "/__init__.pyi"])
            return self._python_absolute(importer, module)
        if language in ("javascript", "typescript", "tsx"):
            if not module.startswith("."):
                return []
            stem = posixpath.normpath(posixpath.join(directory, module))
            candidates = [stem] + [stem + e for e in _JS_EXTENSIONS] + [stem + "/index" + e for e in _JS_EXTENSIONS]
            if stem.endswith((".js", ".mjs", ".cjs", ".jsx")):  # TS sources imported with a .js suffix
                root = stem.rsplit(".", 1)[0]
                candidates += [root + ".ts", root + ".tsx", root + ".mts", root + ".cts"]
            return _first_existing(paths, candidates)
        if language == "go":
            return self._directory_suffix(module, (".go",))
        if language == "java":
            # `import a.b.C` is module a.b, name C: the package's files (C is looked up in them);
            # `import static a.b.C.m` is module a.b.C: the class's file
            rel = module.replace(".", "/")
            return self._directory_suffix(rel, (".java",), whole=True) or _first_existing_suffix(paths, rel + ".java")
        if language == "rust":
            parts = module.split("::")
            if parts and parts[0] in ("crate", "self", "super"):
                parts = parts[1:]
            out: list[int] = []
            while parts and not out:
                rel = "/".join(parts)
                out = _first_existing_suffix(paths, rel + ".rs") or _first_existing_suffix(paths, rel + "/mod.rs")
                parts = parts[:-1]
            return out
        if language in ("c", "cpp"):
            local = posixpath.normpath(posixpath.join(directory, module))
            return _first_existing(paths, [local]) or _first_existing_suffix(paths, module)
        if language == "ruby":
            rel = module if module.endswith(".rb") else module + ".rb"
            local = posixpath.normpath(posixpath.join(directory, rel))
            return _first_existing(paths, [local]) or _first_existing_suffix(paths, rel.lstrip("./"))
        return []

    def _python_absolute(self, importer: int, module: str) -> list[int]:
        paths = self.path_ids()
        rel = module.replace(".", "/")
        found = _first_existing(paths, [rel + ".py", rel + "/__init__.py", rel + ".pyi", rel + "/__init__.pyi"])
        if found:
            return found
        # src/ layouts and nested roots: the same module path under some directory; the nearest wins
        matches = [(p, i) for suffix in ("/" + rel + ".py", "/" + rel + "/__init__.py") for p, i in self._ending(suffix)]
        if not matches:
            return []
        importer_path = self.file(importer)[0]

        def in_package(path: str) -> bool:
            # where the import's first name lies in a package, that directory is on no import path: flask's
            # `tests/test_apps/cliapp/inner1/inner2/flask.py` is no `import flask` of its tests (src/flask is)
            return path.rsplit("/" + rel, 1)[0] + "/__init__.py" in paths

        matches.sort(key=lambda m: (in_package(m[0]), -len(posixpath.commonprefix([m[0], importer_path])), len(m[0]), m[0]))
        return [matches[0][1]]

    def _ending(self, suffix: str) -> list[tuple[str, int]]:
        """The Python files whose path ends with ``suffix`` (``/pkg/mod.py``), sorted: looked up among the
        files of that name for the first :data:`_ONE_BY_ONE` suffixes, then in an index of every suffix."""
        if self._suffixes is None and len(self._suffix_hits) < _ONE_BY_ONE:
            found = self._suffix_hits.get(suffix)
            if found is None:
                if self._by_file_name is None:
                    self._by_file_name = {}
                    for p, i in sorted(self.path_ids().items()):
                        if p.endswith((".py", ".pyi")):
                            self._by_file_name.setdefault(p.rpartition("/")[2], []).append((p, i))
                same_name = self._by_file_name.get(suffix.rpartition("/")[2], [])
                found = self._suffix_hits[suffix] = [(p, i) for p, i in same_name if p.endswith(suffix)]
            return found
        if self._suffixes is None:
            self._suffixes = _suffix_index(self.path_ids())
        return self._suffixes.get(suffix, [])

    def _directory_suffix(self, module: str, extensions: tuple[str, ...], *, whole: bool = False) -> list[int]:
        """Files directly in the directory whose path ends with ``module`` (the longest suffix that
        exists, or only the whole of it)."""
        paths = self.path_ids()
        parts = module.strip("/").split("/")
        for n in range(len(parts), len(parts) - 1 if whole else 0, -1):
            suffix = "/".join(parts[-n:])
            hits = sorted(
                i
                for p, i in paths.items()
                if p.endswith(extensions)
                and not p.endswith("_test.go")
                and (posixpath.dirname(p) == suffix or posixpath.dirname(p).endswith("/" + suffix))
            )
            if hits:
                return hits
        return []


def _first_existing(paths: dict[str, int], candidates: list[str]) -> list[int]:
    for c in candidates:
        c = c.lstrip("./") if c.startswith("./") else c
        if c in paths:
            return [paths[c]]
    return []


def _first_existing_suffix(paths: dict[str, int], suffix: str) -> list[int]:
    if suffix in paths:
        return [paths[suffix]]
    hits = sorted((len(p), p, i) for p, i in paths.items() if p.endswith("/" + suffix))
    return [hits[0][2]] if hits else []


def _suffix_index(paths: dict[str, int]) -> dict[str, list[tuple[str, int]]]:
    """Python paths by every '/'-suffix (``/pkg/mod.py``)."""
    out: dict[str, list[tuple[str, int]]] = {}
    for p, i in sorted(paths.items()):
        if not p.endswith((".py", ".pyi")):
            continue
        parts = p.split("/")
        for n in range(1, len(parts)):
            out.setdefault("/" + "/".join(parts[n:]), []).append((p, i))
    return out
