"""Build real temporary git repositories with the ``git`` command line, for any test module.

The environment is fixed (identity, no global or system config, no ``GIT_*`` variables inherited
from a hook that runs the tests), so results do not depend on the machine.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["GIT_ENV", "commit", "git", "make_repo", "write"]

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
