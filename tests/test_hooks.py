"""Plain git hooks: ``crg-review install-hooks`` (chaining, core.hooksPath, uninstall) and real commits
and pushes through the installed scripts; ``crg-review hook`` is fail-open and blocks only on --fail-on."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from crg_review import hooks
from crg_review.review import ChangedSymbol, Finding, Impacted, RelatedTest, Review
from tests.helpers import commit, crg, crg_env, git, git_run, make_repo, write

CRG = str(Path(sys.executable).parent / "crg-review")
CALC = "def add(a, b):\n    return a + b\n\n\ndef total(xs):\n    s = 0\n    for x in xs:\n        s = add(s, x)\n    return s\n"
TESTS = "from calc import add, total\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"
ROOT = Path(__file__).resolve().parent.parent


def clean_env(**extra: str) -> dict[str, str]:
    """crg_env() without the PRE_COMMIT_* variables of a hook that may be running these tests."""
    env = {k: v for k, v in crg_env().items() if not k.startswith("PRE_COMMIT")}
    env.update(extra)
    return env


def hook_env(**extra: str) -> dict[str, str]:
    """What a developer's shell passes to git: crg-review found through CRG_REVIEW."""
    env = {"CRG_REVIEW": CRG}
    env.update(extra)
    return env


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "repo")
    write(root, "calc.py", CALC)
    write(root, "tests/test_calc.py", TESTS)
    commit(root, "base")
    return root


def install(repo: Path, *args: str) -> str:
    run = crg("install-hooks", *args, cwd=repo, env=clean_env())
    assert run.code == 0, run
    return run.out


def legacy_hook(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def test_committed_hook_scripts_are_what_install_hooks_writes() -> None:
    for name in hooks.HOOK_TYPES:
        shipped = ROOT / "hooks" / name
        assert shipped.read_text() == hooks.script(name)
        assert shipped.stat().st_mode & stat.S_IXUSR


def test_install_then_commit_prints_the_review(repo: Path) -> None:
    out = install(repo)
    assert "pre-commit: installed" in out and "pre-push: installed" in out
    for name in hooks.HOOK_TYPES:
        path = repo / ".git" / "hooks" / name
        assert path.stat().st_mode & stat.S_IXUSR
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    done = git_run(repo, "commit", "-m", "swap", env=hook_env())
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "crg-review: staged change" in output
    assert "calc.py::add (modified)" in output
    assert "callers  1 (1 direct): calc.py::total" in output
    assert "pytest tests/test_calc.py::test_add tests/test_calc.py::test_total" in output


def test_installed_hook_pins_the_crg_review_that_installed_it(repo: Path) -> None:
    install(repo)
    text = (repo / ".git" / "hooks" / "pre-commit").read_text()
    assert f"CRG_REVIEW_EXE={CRG}" in text
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    # no CRG_REVIEW and no crg-review on PATH: the pinned path is used
    done = git_run(repo, "commit", "-m", "swap", env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "calc.py::add (modified)" in done.stdout + done.stderr


def test_chained_hook_that_fails_still_blocks_the_commit(repo: Path) -> None:
    old = legacy_hook(repo / ".git" / "hooks" / "pre-commit", "echo 'legacy hook: no commits today' >&2\nexit 7")
    original = old.read_text()
    out = install(repo)
    assert "pre-commit: chained" in out and "runs pre-commit.crg-review-chained first" in out
    assert (repo / ".git" / "hooks" / "pre-commit.crg-review-chained").read_text() == original

    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    refused = git_run(repo, "commit", "-m", "swap", env=hook_env())
    assert refused.returncode != 0
    assert "legacy hook: no commits today" in refused.stderr
    assert git(repo, "log", "--format=%s").splitlines() == ["base"]


def test_chained_hook_runs_first_then_the_review(repo: Path) -> None:
    seen = repo.parent / "seen"
    legacy_hook(repo / ".git" / "hooks" / "pre-commit", f"echo legacy >> '{seen}'")
    install(repo)
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    done = git_run(repo, "commit", "-m", "swap", env=hook_env())
    assert done.returncode == 0, done.stderr
    assert seen.read_text() == "legacy\n"
    assert "calc.py::add (modified)" in done.stdout + done.stderr


def test_uninstall_restores_what_was_there(repo: Path) -> None:
    hooks_dir = repo / ".git" / "hooks"
    old = legacy_hook(hooks_dir / "pre-commit", "exit 0  # the team's own hook")
    original = old.read_bytes()
    install(repo)
    install(repo)  # again: updates ours, never chains to itself
    assert not (hooks_dir / "pre-commit.crg-review-chained.crg-review-chained").exists()
    assert (hooks_dir / "pre-commit.crg-review-chained").read_bytes() == original

    out = install(repo, "--uninstall")
    assert "pre-commit: restored" in out and "pre-push: removed" in out
    assert (hooks_dir / "pre-commit").read_bytes() == original
    assert os.access(hooks_dir / "pre-commit", os.X_OK)
    assert not (hooks_dir / "pre-push").exists()
    assert not list(hooks_dir.glob("*crg-review*"))


def test_uninstall_leaves_hooks_that_are_not_ours(repo: Path) -> None:
    other = legacy_hook(repo / ".git" / "hooks" / "pre-push", "exit 0")
    out = install(repo, "--uninstall")
    assert "pre-push: skipped" in out and "not installed by crg-review" in out
    assert other.exists()


def test_core_hooks_path_is_respected(repo: Path) -> None:
    git(repo, "config", "core.hooksPath", ".githooks")
    legacy_hook(repo / ".githooks" / "pre-commit", "echo 'shared team hook' >&2")
    install(repo, "--hook", "pre-commit")
    assert (repo / ".githooks" / "pre-commit.crg-review-chained").exists()
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    done = git_run(repo, "commit", "-m", "swap", env=hook_env())
    assert done.returncode == 0, done.stderr
    assert "shared team hook" in done.stderr
    assert "calc.py::add (modified)" in done.stdout + done.stderr


def test_fail_on_baked_into_the_installed_hook_blocks(repo: Path) -> None:
    install(repo, "--fail-on", "error")
    write(repo, "calc.py", CALC.replace("def add(a, b)", "def plus(a, b)"))  # total() still calls add()
    git(repo, "add", "calc.py")
    refused = git_run(repo, "commit", "-m", "rename", env=hook_env())
    assert refused.returncode != 0
    output = refused.stdout + refused.stderr
    assert "CRG001" in output and "findings reach --fail-on error" in output
    assert git(repo, "log", "--format=%s").splitlines() == ["base"]


def test_review_failure_never_blocks_the_commit(repo: Path) -> None:
    install(repo)
    write(repo, "calc.py", CALC.replace("def add(a, b)", "def plus(a, b)"))
    git(repo, "add", "calc.py")
    # the index cannot be created: crg-review's own failure
    done = git_run(repo, "commit", "-m", "x", env=hook_env(CRG_REVIEW_DB="/proc/no/such/dir/index.db"))
    assert done.returncode == 0, done.stderr
    assert "crg-review: warning: review skipped" in done.stderr


def test_broken_crg_review_never_blocks_the_commit(repo: Path, tmp_path: Path) -> None:
    install(repo)
    broken = legacy_hook(tmp_path / "bin" / "crg-review", "echo 'Traceback: ImportError' >&2\nexit 1")
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    done = git_run(repo, "commit", "-m", "x", env=hook_env(CRG_REVIEW=str(broken)))
    assert done.returncode == 0, done.stderr
    assert "exited with status 1; not blocking the commit" in done.stderr


def test_missing_crg_review_never_blocks_the_commit(repo: Path) -> None:
    (repo / ".git" / "hooks").mkdir(exist_ok=True)
    path = repo / ".git" / "hooks" / "pre-commit"
    path.write_text(hooks.script("pre-commit"))  # the shipped script: nothing pinned
    path.chmod(0o755)
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    done = git_run(repo, "commit", "-m", "x", env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "crg-review: not found" in done.stderr


# -- pre-push


@pytest.fixture
def pushed(repo: Path, tmp_path: Path) -> Path:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "main")
    return remote


def test_pre_push_reviews_the_pushed_commits(repo: Path, pushed: Path) -> None:
    install(repo)
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    commit(repo, "swap")  # through the installed pre-commit hook (it finds the pinned crg-review)
    write(repo, "tests/test_calc.py", TESTS + "\n\ndef test_more():\n    assert add(0, 0) == 0\n")
    head = commit(repo, "more tests")
    done = git_run(repo, "push", "origin", "main", env=hook_env())
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "crg-review: push refs/heads/main" in output
    assert "calc.py::add (modified)" in output
    assert "tests/test_calc.py::test_more (added)" in output
    assert git(pushed, "rev-parse", "main").strip() == head


def test_pre_push_of_a_new_branch_compares_with_where_it_forked(repo: Path, pushed: Path) -> None:
    install(repo)
    git(repo, "switch", "-q", "-c", "topic")
    write(repo, "calc.py", CALC.replace("s = 0", "s = 0  # start"))
    commit(repo, "topic work")
    done = git_run(repo, "push", "origin", "topic", env=hook_env())
    assert done.returncode == 0, done.stderr
    assert "calc.py::total (modified)" in done.stdout + done.stderr
    assert "calc.py::add" not in done.stdout + done.stderr


def test_pre_push_chained_hook_gets_the_refs_and_its_failure_blocks(repo: Path, pushed: Path) -> None:
    got = repo.parent / "stdin-of-legacy"
    legacy_hook(repo / ".git" / "hooks" / "pre-push", f"cat > '{got}'\necho \"legacy pre-push for $1\" >&2\nexit 1")
    install(repo)
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    head = commit(repo, "swap")
    refused = git_run(repo, "push", "origin", "main", env=hook_env())
    assert refused.returncode != 0
    assert "legacy pre-push for origin" in refused.stderr
    assert got.read_text().split()[:2] == ["refs/heads/main", head]
    assert git(pushed, "rev-parse", "main").strip() != head


def test_hook_pre_push_reads_the_refs_on_stdin(repo: Path, pushed: Path) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    head = commit(repo, "swap")
    zero = "0" * 40
    refs = f"refs/heads/main {head} refs/heads/main {base}\nrefs/heads/gone {zero} refs/heads/gone {base}\n"
    proc = subprocess.run(
        [CRG, "hook", "--stage", "pre-push", "--remote", "origin"],
        cwd=repo,
        input=refs,
        capture_output=True,
        text=True,
        env=clean_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("crg-review: push") == 1
    assert f"crg-review: push refs/heads/main {base[:10]}..{head[:10]}" in proc.stdout
    assert "run      pytest tests/test_calc.py::test_add tests/test_calc.py::test_total" in proc.stdout


def test_hook_under_pre_commit_framework_variables_reviews_the_range(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    head = commit(repo, "swap")
    run = crg("hook", cwd=repo, env=clean_env(PRE_COMMIT_FROM_REF=base, PRE_COMMIT_TO_REF=head))
    assert run.code == 0, run
    assert f"crg-review: push {base[:10]}..{head[:10]}" in run.out
    assert "calc.py::add (modified)" in run.out


def test_hook_outside_a_repository_fails_open(tmp_path: Path) -> None:
    run = crg("hook", cwd=tmp_path, env=clean_env())
    assert run.code == 0
    assert run.err.startswith("crg-review: warning: review skipped (not a git repository")


# -- the short review


def _review(**kw: object) -> Review:
    base: dict[str, object] = {
        "base": "a" * 40,
        "head": "staged",
        "changed": [ChangedSymbol("m.py", "f", "f", "function", 1, 2, "modified")],
    }
    base.update(kw)
    return Review(**base)  # type: ignore[arg-type]


def test_short_review_caps_callers_and_lists_tests_to_run() -> None:
    impacted = [Impacted("c.py", f"caller{i}", "function", i, 1 + i % 2, ("f",), "call", 1.0) for i in range(5)]
    tests = [RelatedTest("tests/test_m.py", f"test_{i}", f"tests/test_m.py::test_{i}", 1, "graph") for i in range(2)]
    text = hooks.short_review(_review(impacted=impacted, tests=tests), label="staged change", run_command="X")
    assert "callers  5 (3 direct): c.py::caller0, c.py::caller2, c.py::caller4 (+2 more)" in text
    assert "run      pytest tests/test_m.py::test_0 tests/test_m.py::test_1" in text


def test_short_review_with_many_tests_points_to_the_full_list() -> None:
    tests = [RelatedTest("t.py", f"test_{i}", f"t.py::test_{i}", 1, "graph") for i in range(20)]
    text = hooks.short_review(_review(tests=tests), label="x", run_command="pytest $(crg-review tests --staged)")
    assert "tests    20: t.py::test_0, t.py::test_1, t.py::test_2 (+17 more)" in text
    assert text.endswith("run      pytest $(crg-review tests --staged)")


def test_short_review_names_cannot_drive_the_terminal() -> None:
    evil = "m\x1b[2J\x1b]0;owned\x07.py"
    review = _review(
        changed=[ChangedSymbol(evil, "f", "f", "function", 1, 2, "modified")],
        findings=[Finding("CRG001", "error", evil, 3, "uses \x1b[31mred")],
        select_all="conftest.py changed",
    )
    text = hooks.short_review(review, label="x", run_command="X")
    assert "\x1b" not in text and "\x07" not in text
    assert "m\\x1b[2J" in text
    assert "tests    all: conftest.py changed" in text and "run      pytest\n" in text + "\n"


def test_commit_all_reviews_what_git_commit_a_stages(repo: Path) -> None:
    install(repo)
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))  # not staged: commit -a stages it
    done = git_run(repo, "commit", "-a", "-m", "swap", env=hook_env())
    assert done.returncode == 0, done.stderr
    assert "calc.py::add (modified)" in done.stdout + done.stderr


def test_hook_that_runs_out_of_time_says_its_test_list_is_a_start(repo: Path) -> None:
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    write(repo, ".crg-review.toml", "hook-test-seconds = 1e-9\n")  # passed before the walk looks at a node
    run = crg("hook", cwd=repo, env=clean_env())
    assert run.code == 0, run
    # the test the convention names (test_add in tests/test_calc.py for calc.py::add) needs no walk
    assert "  tests    1+: tests/test_calc.py::test_add (search stopped after 1e-09 s: hook-test-seconds)" in run.out
    assert "  run      pytest $(crg-review tests --staged)" in run.out
    assert "CRG003" not in run.out  # a stopped search cannot say that no test reaches add
    tests = crg("tests", "--staged", cwd=repo, env=clean_env())  # never stops early
    assert tests.out.split() == ["tests/test_calc.py::test_add", "tests/test_calc.py::test_total"]


def test_hook_with_no_time_limit_lists_every_test(repo: Path) -> None:
    write(repo, "calc.py", CALC.replace("return a + b", "return b + a"))
    git(repo, "add", "calc.py")
    write(repo, ".crg-review.toml", "hook-test-seconds = 0\n")
    run = crg("hook", cwd=repo, env=clean_env())
    assert run.code == 0, run
    assert "  tests    2: tests/test_calc.py::test_add, tests/test_calc.py::test_total" in run.out
