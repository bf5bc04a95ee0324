"""The real pre-commit framework with this repository as a hook repo: commits and pushes through it.

The hook repository is a clone of this repository's committed HEAD (pre-commit installs a hook repo
at a revision), so uncommitted changes are not what this test runs. pre-commit builds the hook's
virtualenv with pip (dependencies from the package index) once for the module: that takes minutes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import commit, git, git_run, make_repo, write

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CALC = "def add(a, b):\n    return a + b\n\n\ndef total(xs):\n    s = 0\n    for x in xs:\n        s = add(s, x)\n    return s\n"
TESTS = "from calc import add, total\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"


@dataclass
class HookRepo:
    path: Path
    rev: str
    home: Path  # PRE_COMMIT_HOME: the hook's virtualenv lives here, shared by the module's tests
    install_seconds: float = 0.0

    def env(self, **extra: str) -> dict[str, str]:
        env = {"PRE_COMMIT_HOME": str(self.home), "PRE_COMMIT_COLOR": "never", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        env.update(extra)
        return env

    def config(self, args: list[str] | None = None) -> str:
        lines = ["repos:", f"  - repo: {self.path}", f"    rev: {self.rev}", "    hooks:", "      - id: crg-review"]
        if args:
            lines.append(f"        args: [{', '.join(args)}]")
        return "\n".join(lines) + "\n"


def pre_commit(repo: Path, hook_repo: HookRepo, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "CRG_REVIEW_"))}
    env.update(hook_repo.env(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1"))
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args], cwd=repo, capture_output=True, text=True, env=env, check=False
    )


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> HookRepo:
    if not (ROOT / ".git").exists():
        pytest.skip("needs this project's git repository (a hook repo is installed at a revision)")
    base = tmp_path_factory.mktemp("precommit")
    clone = base / "crg-review"
    git(base, "clone", "-q", str(ROOT), str(clone))
    assert (clone / ".pre-commit-hooks.yaml").is_file(), "commit .pre-commit-hooks.yaml first"
    rev = git(clone, "rev-parse", "HEAD").strip()
    hook_repo = HookRepo(clone, rev, base / "home")
    # one repository that installs the hook's environment (the slow part), timed for the report
    warm = make_repo(base / "warm")
    write(warm, ".pre-commit-config.yaml", hook_repo.config())
    commit(warm, "config")
    started = time.monotonic()
    done = pre_commit(warm, hook_repo, "install-hooks")
    hook_repo.install_seconds = time.monotonic() - started
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"\npre-commit installed the crg-review hook environment in {hook_repo.install_seconds:.0f}s")
    return hook_repo


@pytest.fixture
def project(tmp_path: Path, hook_repo: HookRepo) -> Iterator[Path]:
    repo = make_repo(tmp_path / "project")
    write(repo, "calc.py", CALC)
    write(repo, "tests/test_calc.py", TESTS)
    write(repo, ".pre-commit-config.yaml", hook_repo.config())
    commit(repo, "base")
    installed = pre_commit(repo, hook_repo, "install", "-t", "pre-commit", "-t", "pre-push")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    yield repo


def test_commit_through_pre_commit_prints_the_review(project: Path, hook_repo: HookRepo) -> None:
    write(project, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(project, "add", "calc.py")
    first = git_run(project, "commit", "-m", "swap", env=hook_repo.env())
    output = first.stdout + first.stderr
    assert first.returncode == 0, output
    assert "crg-review (what this change can break)" in output and "Passed" in output
    assert "crg-review: first run: indexing this repository" in output
    assert "crg-review: staged change" in output
    assert "changed  1: calc.py::add (modified)" in output
    assert "callers  1 (1 direct): calc.py::total" in output
    assert "run      pytest tests/test_calc.py::test_add tests/test_calc.py::test_total" in output
    assert (project / ".git" / "crg-review" / "index.db").is_file()

    write(project, "calc.py", CALC.replace("return a + b", "return b + a").replace("s = 0", "s = 0  # sum"))
    git(project, "add", "calc.py")
    second = git_run(project, "commit", "-m", "comment", env=hook_repo.env())
    output = second.stdout + second.stderr
    assert second.returncode == 0, output
    assert "first run" not in output  # the index exists: updated incrementally
    assert "calc.py::total (modified)" in output
    assert git(project, "log", "--format=%s").splitlines() == ["comment", "swap", "base"]


def test_push_through_pre_commit_reviews_the_pushed_range(project: Path, hook_repo: HookRepo, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(project, "remote", "add", "origin", str(remote))
    pushed = git_run(project, "push", "-q", "origin", "main", env=hook_repo.env())
    assert pushed.returncode == 0, pushed.stderr  # a new history: nothing to compare with, never blocks
    base = git(project, "rev-parse", "HEAD").strip()
    write(project, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(project, "add", "calc.py")
    committed = git_run(project, "commit", "-q", "-m", "swap", env=hook_repo.env())
    assert committed.returncode == 0, committed.stderr
    head = git(project, "rev-parse", "HEAD").strip()
    done = git_run(project, "push", "origin", "main", env=hook_repo.env())
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert f"crg-review: push {base[:10]}..{head[:10]}" in output
    assert "calc.py::add (modified)" in output
    assert git(remote, "rev-parse", "main").strip() == head


def test_fail_on_in_the_users_config_blocks_the_commit(project: Path, hook_repo: HookRepo) -> None:
    write(project, ".pre-commit-config.yaml", hook_repo.config(["--fail-on", "error"]))
    write(project, "calc.py", CALC.replace("def add(a, b)", "def plus(a, b)"))  # total() still calls add()
    git(project, "add", "-A")
    refused = git_run(project, "commit", "-m", "rename", env=hook_repo.env())
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert "Failed" in output and "CRG001" in output and "findings reach --fail-on error" in output
    assert git(project, "log", "--format=%s").splitlines() == ["base"]


def test_its_own_failure_never_blocks_the_commit(project: Path, hook_repo: HookRepo) -> None:
    write(project, "calc.py", CALC.replace("def add(a, b)", "def plus(a, b)"))
    git(project, "add", "calc.py")
    done = git_run(project, "commit", "-m", "x", env=hook_repo.env(CRG_REVIEW_DB="/proc/no/such/dir/index.db"))
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "crg-review: warning: review skipped" in output and "Passed" in output
