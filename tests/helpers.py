"""Build real temporary git repositories with the ``git`` command line, for any test module.

The environment is fixed (identity, no global or system config, no ``GIT_*`` variables inherited
from a hook that runs the tests), so results do not depend on the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "GIT_ENV",
    "Run",
    "commit",
    "crg",
    "crg_env",
    "fresh_dump",
    "full_index_dump",
    "git",
    "git_run",
    "make_repo",
    "python_package",
    "run_cli",
    "write",
]

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
}


def _env() -> dict[str, str]:
    # a git hook running the tests exports GIT_DIR / GIT_INDEX_FILE: they would point git elsewhere
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    return env


def git(repo: str | os.PathLike[str], *args: str) -> str:
    """Run ``git -C repo args...`` and return its stdout; fail with git's output on a non-zero exit."""
    proc = subprocess.run(
        ["git", "-C", os.fspath(repo), *args], capture_output=True, text=True, env=_env(), check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def make_repo(path: str | os.PathLike[str]) -> Path:
    """Create an empty repository (branch ``main``) at ``path`` and return it."""
    repo = Path(path)
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    return repo


def write(repo: str | os.PathLike[str], path: str, content: str | bytes) -> Path:
    """Write ``content`` (bytes as is, text as UTF-8 without newline translation) to ``repo/path``."""
    target = Path(repo, path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content.encode() if isinstance(content, str) else content)
    return target


def commit(repo: str | os.PathLike[str], msg: str = "commit", *, stage_all: bool = True) -> str:
    """Commit (after ``git add -A`` unless ``stage_all=False``) and return the new commit id."""
    if stage_all:
        git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", msg)
    return git(repo, "rev-parse", "HEAD").strip()


class Run:
    """The outcome of one ``crg-review`` process: exit code, stdout, stderr."""

    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self) -> Any:
        """stdout parsed as JSON."""
        return json.loads(self.out)

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out[-2000:]!r}, err={self.err[-2000:]!r})"


def crg_env(**extra: str) -> dict[str, str]:
    """The environment a ``crg-review`` process gets in tests: no inherited GIT_* or CRG_REVIEW_* variables."""
    env = {k: v for k, v in _env().items() if not k.startswith("CRG_REVIEW_")}
    env.update(extra)
    return env


def crg(*args: str, cwd: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None) -> Run:
    """Run ``python -m crg_review args...`` in a fresh process (the real command line, real exit code)."""
    proc = subprocess.run(
        [sys.executable, "-m", "crg_review", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env if env is not None else crg_env(),
        check=False,
        timeout=300,
    )
    return Run(proc)


def python_package(repo: str | os.PathLike[str], n_files: int, *, variant: str = "") -> None:
    """Write ``n_files`` small Python modules under ``pkg/`` that import and call each other (50 per folder).

    A ``variant`` (an identifier) adds a function ``g_<variant>`` to every file, changing every blob id.
    """
    per_dir = 50
    for i in range(n_files):
        d, k = divmod(i, per_dir)
        nxt = (k + 1) % per_dir
        write(repo, f"pkg/d{d}/__init__.py", "")
        write(
            repo,
            f"pkg/d{d}/m{k}.py",
            f"from pkg.d{d}.m{nxt} import f{nxt}\n\n\n"
            f"class C{k}:\n    def run(self):\n        return f{k}()\n\n\n"
            f"def f{k}():\n    return f{nxt}()\n"
            + (f"\n\ndef g_{variant}():\n    return C{k}().run()\n" if variant else ""),
        )


def fresh_dump(repo: str | os.PathLike[str], db: str | os.PathLike[str], *args: str) -> Any:
    """The canonical dump of a full index built from scratch in a new file ``db`` (``args``: --rev/--staged)."""
    path = Path(db)
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    built = crg("index", "--full", "--repo", os.fspath(repo), "--db", os.fspath(path), *args)
    assert built.code == 0, built
    dumped = crg("dump", "--repo", os.fspath(repo), "--db", os.fspath(path))
    assert dumped.code == 0, dumped
    return dumped.json()


def full_index_dump(repo: str | os.PathLike[str], db: str | os.PathLike[str], source: Any, **options: Any) -> Any:
    """The canonical dump of a full index of ``source`` (an ``indexer.Source``) built in-process from scratch
    in a new file ``db``; ``options`` go to ``update_index`` (``size_limit``, ``excludes``)."""
    from crg_review.gitio import Repo
    from crg_review.indexer import update_index
    from crg_review.store import Store

    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    store = Store.open(Path(db))
    try:
        update_index(store, Repo(repo), source, full=True, **options)
        return store.dump()
    finally:
        store.close()


def run_cli(capsys: object, *argv: str) -> tuple[int, str, str]:
    """Run ``crg-review argv...`` in-process; return (exit code, stdout, stderr) as captured by ``capsys``."""
    from crg_review.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()  # type: ignore[attr-defined]
    return code, out, err


def git_run(
    repo: str | os.PathLike[str], *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``git -C repo args...`` without raising, for commits and pushes a hook may refuse.

    ``env`` adds variables; ``PRE_COMMIT_*`` ones inherited from a hook that runs the tests are dropped.
    """
    full = {k: v for k, v in _env().items() if not k.startswith("PRE_COMMIT")}
    full.update(env or {})
    return subprocess.run(
        ["git", "-C", os.fspath(repo), *args], input=stdin, capture_output=True, text=True, env=full, check=False
    )
