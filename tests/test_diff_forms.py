"""Every diff form (A..B, A...B, --staged, work tree) and the edge cases of reading a change."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .helpers import commit, git, make_repo, run_cli, write

A = "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n"


def base_repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/a.py", A)
    write(repo, "pkg/b.py", "from pkg.a import alpha\n\n\ndef gamma():\n    return alpha()\n")
    commit(repo, "base")
    return repo


def diff(capsys: Any, repo: Path, *args: str, code: int = 0) -> dict[str, Any]:
    got, out, err = run_cli(
        capsys, "diff", "--repo", str(repo), "--db", str(repo.parent / "i.db"), "--format", "json", *args
    )
    assert got == code, err
    return json.loads(out) if code == 0 else {"err": err}


def changed(data: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(c["file"], c["qualname"], c["change"]) for c in data["changed"]}


def indexed(capsys: Any, repo: Path) -> str:
    got, out, _ = run_cli(capsys, "stats", "--repo", str(repo), "--db", str(repo.parent / "i.db"), "--format", "json")
    assert got == 0
    return str(json.loads(out)["indexed"])


def edit(repo: Path, path: str, old: str, new: str) -> None:
    p = repo / path
    assert old in p.read_text()
    p.write_text(p.read_text().replace(old, new, 1))


def test_range_compares_two_commits_and_indexes_the_head_incrementally(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    first = git(repo, "rev-parse", "HEAD").strip()
    assert run_cli(capsys, "index", "--repo", str(repo), "--db", str(tmp_path / "i.db"))[0] == 0
    edit(repo, "pkg/a.py", "return 2", "return 3")
    second = commit(repo, "beta")
    edit(repo, "pkg/a.py", "return 1", "return 0")  # uncommitted: not part of the range
    data = diff(capsys, repo, f"{first}..{second}")
    assert changed(data) == {("pkg/a.py", "beta", "modified")}
    assert (data["base"], data["head"]) == (first, second)
    assert indexed(capsys, repo) == second
    assert data["stats"]["index"]["parsed"] == 1  # only the changed blob
    assert changed(diff(capsys, repo, first)) == {("pkg/a.py", "beta", "modified")}  # A means A..HEAD


def test_three_dots_compare_with_the_merge_base(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    git(repo, "checkout", "-q", "-b", "topic")
    edit(repo, "pkg/a.py", "return 2", "return 3")
    commit(repo, "topic")
    git(repo, "checkout", "-q", "main")
    edit(repo, "pkg/b.py", "return alpha()", "return alpha() + 1")
    commit(repo, "main moves on")
    assert changed(diff(capsys, repo, "main...topic")) == {("pkg/a.py", "beta", "modified")}
    assert changed(diff(capsys, repo, "main..topic")) == {
        ("pkg/a.py", "beta", "modified"),
        ("pkg/b.py", "gamma", "modified"),
    }


def test_staged_and_work_tree(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    edit(repo, "pkg/a.py", "return 1", "return 10")
    git(repo, "add", "pkg/a.py")
    edit(repo, "pkg/b.py", "return alpha()", "return alpha() * 2")
    staged = diff(capsys, repo, "--staged")
    assert changed(staged) == {("pkg/a.py", "alpha", "modified")}
    assert staged["head"] == "staged" and indexed(capsys, repo) == "staged"
    work = diff(capsys, repo)
    assert changed(work) == {("pkg/a.py", "alpha", "modified"), ("pkg/b.py", "gamma", "modified")}
    assert work["head"] == "worktree" and indexed(capsys, repo) == "worktree"
    # the impact follows the head side: gamma calls the changed alpha, b.py imports it
    assert [(i["qualname"], i["edge"]) for i in staged["impacted"]] == [("gamma", "call"), ("<module>", "import")]


def test_renames_map_symbols_across_the_move(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    git(repo, "mv", "pkg/a.py", "pkg/c.py")
    edit(repo, "pkg/c.py", "return 2", "return 4")
    edit(repo, "pkg/b.py", "from pkg.a import", "from pkg.c import")
    git(repo, "add", "-A")
    data = diff(capsys, repo, "--staged")
    assert changed(data) == {("pkg/c.py", "beta", "modified"), ("pkg/b.py", "<module>", "modified")}
    assert not [f for f in data["findings"] if f["rule"] == "CRG001"]  # the importer was updated


def test_deletions_and_additions(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    git(repo, "rm", "-q", "pkg/a.py")
    write(repo, "pkg/new.py", "def fresh():\n    return 1\n")
    git(repo, "add", "pkg/new.py")
    data = diff(capsys, repo, "--staged")
    assert changed(data) == {
        ("pkg/a.py", "alpha", "removed"),
        ("pkg/a.py", "beta", "removed"),
        ("pkg/new.py", "fresh", "added"),
    }
    # b.py still imports alpha from the deleted module
    assert {(f["rule"], f["file"], f["line"]) for f in data["findings"]} >= {("CRG001", "pkg/b.py", 1)}


def test_binary_and_mode_only_changes_touch_no_symbol(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    write(repo, "pkg/blob.py", b"\x00\x01binary\x00")
    commit(repo, "binary")
    write(repo, "pkg/blob.py", b"\x00\x02binary\x00")
    os.chmod(repo / "pkg/a.py", 0o755)
    data = diff(capsys, repo)
    assert data["changed"] == []
    files = data["stats"]["files"]
    assert (files["binary"], files["mode_only"], files["changed"]) == (1, 1, 2)


def test_merge_commits(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    edit(repo, "pkg/a.py", "return 2", "return 5")
    commit(repo, "feature")
    git(repo, "checkout", "-q", "main")
    edit(repo, "pkg/b.py", "return alpha()", "return alpha() - 1")
    commit(repo, "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    merge = git(repo, "rev-parse", "HEAD").strip()
    # a merge against its first parent: what the merge brought in
    data = diff(capsys, repo, "HEAD^1..HEAD")
    assert changed(data) == {("pkg/a.py", "beta", "modified")}
    assert data["head"] == merge and indexed(capsys, repo) == merge
    assert changed(diff(capsys, repo, "HEAD^2..HEAD")) == {("pkg/b.py", "gamma", "modified")}


def test_a_submodule_pointer_change(tmp_path: Path, capsys: Any) -> None:
    sub = make_repo(tmp_path / "sub")
    write(sub, "lib.py", "def f():\n    return 1\n")
    commit(sub, "sub 1")
    repo = base_repo(tmp_path)
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendored")
    commit(repo, "add submodule")
    write(sub, "lib.py", "def f():\n    return 2\n")
    commit(sub, "sub 2")
    git(repo / "vendored", "pull", "-q", "origin", "main")
    commit(repo, "bump submodule")
    data = diff(capsys, repo, "HEAD~1..HEAD")
    assert data["changed"] == [] and data["stats"]["files"]["submodule"] == 1


def test_before_the_first_commit(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "app.py", "def main():\n    return 0\n")
    git(repo, "add", "app.py")
    for args in (("--staged",), ()):
        data = diff(capsys, repo, *args)
        assert data["base"] is None
        assert changed(data) == {("app.py", "main", "added")}


def test_a_shallow_clone_without_the_base_names_the_fix(tmp_path: Path, capsys: Any) -> None:
    origin = base_repo(tmp_path)
    edit(origin, "pkg/a.py", "return 2", "return 3")
    commit(origin, "two")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{origin}", str(clone))
    data = diff(capsys, clone, "HEAD~1..HEAD", code=1)
    err = data["err"]
    assert err.startswith("crg-review: error: ") and err.count("\n") == 1
    assert "fetch-depth: 0" in err and "git fetch --deepen" in err
    assert "fetch-depth: 0" in diff(capsys, clone, "HEAD~1...HEAD", code=1)["err"]


def test_bad_ranges_and_no_repository_are_one_line_errors(tmp_path: Path, capsys: Any) -> None:
    repo = base_repo(tmp_path)
    for bad in ("nope..HEAD", "HEAD~5..HEAD", "a..b..c"):
        err = diff(capsys, repo, bad, code=1)["err"]
        assert err.startswith("crg-review: error: ") and err.count("\n") == 1, err
    plain = tmp_path / "plain"
    plain.mkdir()
    got, _, err = run_cli(capsys, "diff", "--repo", str(plain), "--db", str(tmp_path / "x.db"))
    assert got == 1 and "not a git repository" in err
    got, _, err = run_cli(capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "x.db"), "--depth", "-1")
    assert got == 1 and err.count("\n") == 1
    got, _, err = run_cli(capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "x.db"), "--max-impacted", "-5")
    assert got == 1 and "--max-impacted must be 0 or more" in err and err.count("\n") == 1
