"""``action.yml`` and our workflows: their shape (inputs, cache, no pull_request_target) and the shell
steps of the action run for real (the commit fetching in a shallow clone, the review/post sequence)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import commit, git, make_repo, write

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
WORKFLOWS = {p.name: p.read_text() for p in sorted((ROOT / ".github" / "workflows").glob("*.yml"))}


def step(name: str) -> dict[str, Any]:
    found = [s for s in ACTION["runs"]["steps"] if s.get("name") == name]
    assert len(found) == 1, name
    return found[0]  # type: ignore[no-any-return]


def test_action_inputs_and_output() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"github-token", "depth", "fail-on", "inline", "comment", "python-version", "embed-model"} <= set(
        ACTION["inputs"]
    )
    assert ACTION["outputs"]["comment-file"]["value"] == "${{ steps.review.outputs.comment-file }}"


def test_action_never_pastes_inputs_or_event_text_into_scripts() -> None:
    # ${{ }} in a run: script is template injection; values go through env: instead
    for s in ACTION["runs"]["steps"]:
        assert "${{" not in s.get("run", ""), s["name"]


def test_action_installs_itself_and_caches_the_index_restore_only_on_pull_requests() -> None:
    assert '"$GITHUB_ACTION_PATH"' in step("Install crg-review")["run"]
    restore = step("Restore the index")
    assert restore["uses"].startswith("actions/cache/restore@")
    assert "SCHEMA_VERSION" in step("Install crg-review")["run"]
    assert "github.event.pull_request.base.sha" in restore["with"]["key"]
    save = step("Save the index (default branch)")
    assert save["uses"].startswith("actions/cache/save@")
    assert "github.event_name == 'push'" in save["if"] and "default_branch" in save["if"]
    assert not [s for s in ACTION["runs"]["steps"] if s.get("uses", "").startswith("actions/cache@")]


def test_workflows_never_use_pull_request_target() -> None:
    assert WORKFLOWS, "no workflows"
    for name, text in WORKFLOWS.items():
        triggers = yaml.safe_load(text)[True]  # yaml reads the key `on:` as True
        assert "pull_request_target" not in (triggers if isinstance(triggers, (dict, list)) else [triggers]), name


def test_fork_safe_pair() -> None:
    first = yaml.safe_load(WORKFLOWS["review-fork.yml"])
    second = yaml.safe_load(WORKFLOWS["review-fork-post.yml"])
    assert first["permissions"] == {"contents": "read"}
    assert "actions/upload-artifact@v4" in WORKFLOWS["review-fork.yml"]
    assert second[True]["workflow_run"]["workflows"] == [first["name"]]  # yaml reads `on:` as True
    assert second["permissions"]["pull-requests"] == "write"
    posting = second["jobs"]["post"]["steps"]
    for s in posting:
        assert "ref" not in (s.get("with") or {}), s  # never the pull request's code
    assert posting[-1]["with"]["post-comment-file"].endswith("/comment.md")


def test_ci_runs_the_readme_test_command() -> None:
    assert ".ci/run" in WORKFLOWS["ci.yml"]
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -e '.[test]' && python -m pytest -q" in readme
    assert "pip install -q -e '.[test]' && python -m pytest -q" in ci


# -- the shell steps, for real


def run_step(name: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    script = step(name)["run"]
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "GITHUB_", "INPUT_", "CRG"))}
    full.update({"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}, **env)
    # GitHub runs `shell: bash` as bash --noprofile --norc -eo pipefail
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        check=False,
    )


def test_fetch_step_brings_base_head_and_merge_base_into_a_shallow_clone(tmp_path: Path) -> None:
    origin = make_repo(tmp_path / "origin")
    git(origin, "config", "uploadpack.allowAnySHA1InWant", "true")  # as GitHub allows
    for i in range(30):
        write(origin, "f.py", f"x = {i}\n")
        commit(origin, f"main {i}")
    fork_point = git(origin, "rev-parse", "HEAD").strip()
    git(origin, "switch", "-q", "-c", "feature")
    for i in range(3):
        write(origin, "g.py", f"y = {i}\n")
        commit(origin, f"feature {i}")
    head = git(origin, "rev-parse", "HEAD").strip()
    git(origin, "switch", "-q", "main")
    for i in range(3):
        write(origin, "h.py", f"z = {i}\n")
        commit(origin, f"main after {i}")
    base = git(origin, "rev-parse", "HEAD").strip()

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth=1", "--no-local", f"file://{origin}", str(clone))
    assert subprocess.run(["git", "-C", str(clone), "cat-file", "-e", f"{head}^{{commit}}"], check=False).returncode
    done = run_step("Make sure the base and head commits are present", {"BASE_SHA": base, "HEAD_SHA": head}, clone)
    assert done.returncode == 0, done.stderr
    assert git(clone, "merge-base", base, head).strip() == fork_point


@pytest.fixture
def stub(tmp_path: Path) -> Path:
    """A stand-in crg-review that logs its arguments, writes the comment file and exits as told."""
    exe = tmp_path / "crg-review"
    exe.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> "{tmp_path}/calls"\n'
        'if [ "$2" = --comment-file ]; then mkdir -p "$(dirname "$3")"; echo review > "$3"; exit "${REVIEW_EXIT:-0}"; fi\n'
        "exit 0\n"
    )
    exe.chmod(0o755)
    return exe


def review_env(tmp_path: Path, stub: Path, **extra: str) -> dict[str, str]:
    env = {
        "CRG": str(stub),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_EVENT_NAME": "pull_request",
        "INPUT_DEPTH": "",
        "INPUT_FAIL_ON": "",
        "INPUT_INLINE": "false",
        "INPUT_COMMENT": "true",
    }
    env.update(extra)
    return env


def calls(tmp_path: Path) -> list[str]:
    return (tmp_path / "calls").read_text().splitlines()


def test_review_step_writes_then_posts_and_keeps_the_fail_on_status(tmp_path: Path, stub: Path) -> None:
    env = review_env(tmp_path, stub, INPUT_FAIL_ON="error", INPUT_INLINE="true", INPUT_DEPTH="2", REVIEW_EXIT="2")
    done = run_step("Review", env, tmp_path)
    assert done.returncode == 2, done.stderr
    file = f"{tmp_path}/runner/crg-review/comment.md"
    assert calls(tmp_path) == [
        f"github --comment-file {file} --depth 2 --fail-on error --inline",
        f"github --post-comment-file {file}",
    ]
    assert f"comment-file={file}" in (tmp_path / "output").read_text()


def test_review_step_without_comment_only_writes_the_file(tmp_path: Path, stub: Path) -> None:
    done = run_step("Review", review_env(tmp_path, stub, INPUT_COMMENT="false"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert calls(tmp_path) == [f"github --comment-file {tmp_path}/runner/crg-review/comment.md"]


def test_review_step_on_a_push_only_updates_the_index(tmp_path: Path, stub: Path) -> None:
    done = run_step("Review", review_env(tmp_path, stub, GITHUB_EVENT_NAME="push"), tmp_path)
    assert done.returncode == 0, done.stderr
    assert calls(tmp_path) == ["index --rev HEAD"]
