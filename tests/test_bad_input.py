"""Inputs a real repository holds sooner or later: each is a counted skip in ``stats`` or a one-line
message with exit 1, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .helpers import Run, commit, crg, git, make_repo, write

GOOD = "def good():\n    return 1\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "good.py", GOOD)
    return repo


def index(repo: Path, *args: str) -> Run:
    """``crg-review index`` that must succeed without a traceback."""
    run = crg("index", "--repo", str(repo), *args)
    assert run.code == 0, run
    assert "Traceback" not in run.err and "internal error" not in run.err, run
    return run


def stats(repo: Path) -> dict[str, Any]:
    run = crg("stats", "--format", "json", "--repo", str(repo))
    assert run.code == 0, run
    return run.json()  # type: ignore[no-any-return]


def dump(repo: Path) -> dict[str, Any]:
    run = crg("dump", "--repo", str(repo))
    assert run.code == 0, run
    return run.json()  # type: ignore[no-any-return]


def status_of(repo: Path) -> dict[str, str]:
    return {f[0]: f[3] for f in dump(repo)["files"]}


def symbols_of(repo: Path, path: str) -> set[str]:
    return {s[1] for s in dump(repo)["symbols"] if s[0] == path}


def error_line(run: Run) -> str:
    """The one line an expected failure prints (exit 1, nothing else on stderr, no traceback)."""
    assert run.code == 1, run
    lines = run.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crg-review: error: "), run
    return lines[0]


# --- file contents ----------------------------------------------------------------------------------


def test_binary_file_with_a_source_extension_is_a_counted_skip(repo: Path) -> None:
    write(repo, "blob.py", b"def looks_like_code():\n    pass\n\x00\x01\x02\xff" * 10)
    commit(repo)
    run = index(repo)
    assert "skipped 1 (binary: 1)" in run.out
    data = stats(repo)
    assert data["skipped"] == {"binary": 1}
    assert data["files"] == 1
    assert status_of(repo)["blob.py"] == "skipped:binary"
    assert symbols_of(repo, "blob.py") == set()


def test_non_utf8_text_is_still_parsed(repo: Path) -> None:
    latin = (
        "# coding: latin-1\n# café\ndef naive():\n    \"\"\"Docstring, é.\"\"\"\n    return 'é'\n\n\n"
        "def after():\n    return naive()\n"
    )
    write(repo, "latin.py", latin.encode("latin-1"))
    write(repo, "web/latin.js", "// caf\xe9\nfunction after() { return '\xe9' }\n".encode("latin-1"))
    commit(repo)
    index(repo)
    data = stats(repo)
    assert data["skipped"] == {}
    assert data["files"] == 3 and data["files_with_syntax_errors"] == 0
    assert symbols_of(repo, "latin.py") == {"<module>", "naive", "after"}
    assert ["latin.py", "after", "latin.py", "naive"] in [e[:4] for e in dump(repo)["edges"]]
    assert "after" in symbols_of(repo, "web/latin.js")


def test_a_latin1_identifier_is_one_symbol(repo: Path) -> None:
    write(repo, "latin.py", "# coding: latin-1\ndef naïve():\n    return 1\n".encode("latin-1"))
    commit(repo)
    index(repo)
    assert symbols_of(repo, "latin.py") == {"<module>", "naïve"}
    assert stats(repo)["files_with_syntax_errors"] == 0


def test_utf8_bom_and_crlf_line_endings_are_parsed(repo: Path) -> None:
    source = b"\xef\xbb\xbfdef first():\r\n    return 1\r\n\r\n\r\ndef second():\r\n    return first()\r\n"
    write(repo, "bom.py", source)
    commit(repo)
    index(repo)
    assert symbols_of(repo, "bom.py") == {"<module>", "first", "second"}
    assert ["bom.py", "second", "bom.py", "first"] in [e[:4] for e in dump(repo)["edges"]]


def test_files_over_the_size_limit_are_a_counted_skip(repo: Path) -> None:
    write(repo, "big.py", "def big():\n    return 1\n" + "# padding\n" * 500)  # about 5 kB
    commit(repo)
    run = index(repo, "--size-limit", "4096")
    assert "skipped 1 (too-large: 1)" in run.out
    assert stats(repo)["skipped"] == {"too-large": 1}
    assert symbols_of(repo, "big.py") == set()
    index(repo)  # the default limit (1 MiB): it is parsed now
    assert stats(repo)["skipped"] == {}
    assert "big" in symbols_of(repo, "big.py")


def test_size_limit_from_pyproject(repo: Path) -> None:
    write(repo, "pyproject.toml", "[tool.crg-review]\nsize-limit = 10\n")
    commit(repo)
    index(repo)
    assert stats(repo)["skipped"] == {"too-large": 1}


def test_a_negative_size_limit_is_a_one_line_error(repo: Path) -> None:
    commit(repo)
    assert "size_limit" in error_line(crg("index", "--repo", str(repo), "--size-limit", "-1"))


def test_syntax_errors_keep_what_tree_sitter_recovers(repo: Path) -> None:
    write(
        repo,
        "broken.py",
        "def before():\n    return 1\n\n\nclass Kept:\n    def method(self):\n        return before()\n\n\n"
        "def broken(:\n    pass\n",
    )
    write(repo, "garbage.py", ")))) ((( ]]] def def class :::\n")
    commit(repo)
    index(repo)
    data = stats(repo)
    assert data["files_with_syntax_errors"] == 2
    assert data["files"] == 3 and data["skipped"] == {}
    assert status_of(repo)["broken.py"] == "partial"
    assert {"before", "Kept", "Kept.method"} <= symbols_of(repo, "broken.py")
    assert ["broken.py", "Kept.method", "broken.py", "before"] in [e[:4] for e in dump(repo)["edges"]]


def test_an_empty_source_file_is_indexed(repo: Path) -> None:
    write(repo, "empty.py", "")
    commit(repo)
    index(repo)
    assert status_of(repo)["empty.py"] == "ok"
    assert symbols_of(repo, "empty.py") == {"<module>"}


def test_a_non_utf8_file_name_is_indexed(repo: Path) -> None:
    write(repo, os.fsdecode(b"caf\xe9.py"), "def cafe():\n    return 1\n")
    commit(repo)
    run = index(repo)
    assert "(2 files)" in run.out
    assert symbols_of(repo, "caf\\xe9.py") == {"<module>", "cafe"}
    assert "up to date" in index(repo).out  # the stored name matches the next snapshot's


# --- symlinks and submodules ------------------------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory outside the repository, with code that must never appear in the index."""
    out = tmp_path / "outside"
    write(out, "secret.py", "def secret_outside():\n    return 1\n")
    return out


def no_secret(repo: Path) -> None:
    assert not any("secret" in s[1] for s in dump(repo)["symbols"])


def test_a_symlinked_source_file_pointing_outside_is_never_followed(repo: Path, outside: Path) -> None:
    os.symlink(outside / "secret.py", repo / "link.py")
    os.symlink("good.py", repo / "inside_link.py")  # inside the repository: a link is still not a file
    commit(repo)
    for args in ((), ("--staged",), ("--rev", "HEAD")):
        index(repo, *args, "--full")
        assert stats(repo)["skipped"] == {"symlink": 2}
        assert status_of(repo)["link.py"] == "skipped:symlink"
        no_secret(repo)


def test_a_symlinked_directory_is_not_descended(repo: Path, outside: Path) -> None:
    write(repo, "real/inner.py", "def inner():\n    return 1\n")
    os.symlink(outside, repo / "linked_out")
    os.symlink("real", repo / "linked_in")
    commit(repo)
    run = index(repo)
    assert "symlink: 2" in run.out
    statuses = status_of(repo)
    assert statuses["linked_out"] == statuses["linked_in"] == "skipped:symlink"
    assert not any(p.startswith(("linked_out/", "linked_in/")) for p in statuses)
    no_secret(repo)


def test_a_tracked_file_replaced_by_a_symlink_in_the_worktree_is_not_followed(repo: Path, outside: Path) -> None:
    write(repo, "mod.py", "def mod():\n    return 1\n")
    commit(repo)
    index(repo)
    (repo / "mod.py").unlink()
    os.symlink(outside / "secret.py", repo / "mod.py")  # a typechange, not staged
    index(repo)
    assert status_of(repo)["mod.py"] == "skipped:symlink"
    no_secret(repo)


def test_a_tracked_directory_replaced_by_a_symlink_in_the_worktree_is_not_followed(
    repo: Path, outside: Path
) -> None:
    write(repo, "pkg/secret.py", "def tracked():\n    return 1\n")  # same file name as outside
    commit(repo)
    index(repo)
    (repo / "pkg/secret.py").unlink()
    (repo / "pkg").rmdir()
    os.symlink(outside, repo / "pkg")
    index(repo)
    assert "pkg/secret.py" not in status_of(repo)  # gone from the worktree: purged, not read through the link
    no_secret(repo)


def test_a_submodule_is_a_counted_skip_and_not_descended(repo: Path, tmp_path: Path) -> None:
    sub = make_repo(tmp_path / "sub")
    write(sub, "inside_sub.py", "def in_submodule():\n    return 1\n")
    commit(sub)
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "third/sub")
    commit(repo, "add submodule")
    for args in ((), ("--staged",), ("--rev", "HEAD")):
        run = index(repo, *args, "--full")
        assert "submodule: 1" in run.out
        data = stats(repo)
        assert data["skipped"] == {"submodule": 1}
        assert data["files"] == 1
        assert status_of(repo)["third/sub"] == "skipped:submodule"
        assert not any("in_submodule" in s[1] for s in dump(repo)["symbols"])


# --- repositories with no history, and no repository --------------------------------------------------


def test_an_empty_repository_indexes_zero_files(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "empty")
    for args in ((), ("--staged",)):
        run = index(repo, *args)
        assert "(0 files)" in run.out
    data = stats(repo)
    assert (data["files"], data["symbols"], data["edges"]) == (0, 0, 0)
    line = error_line(crg("index", "--repo", str(repo), "--rev", "HEAD"))
    assert "no commits yet" in line


def test_an_unborn_head_with_staged_files_indexes_them(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "unborn")
    write(repo, "a.py", "def staged_fn():\n    return 1\n")
    git(repo, "add", "a.py")
    write(repo, "a.py", "def staged_fn():\n    return 1\n\n\ndef unstaged_fn():\n    return 2\n")

    run = index(repo, "--staged")
    assert "(1 files)" in run.out
    assert symbols_of(repo, "a.py") == {"<module>", "staged_fn"}
    assert stats(repo)["indexed"] == "staged"

    index(repo)
    assert symbols_of(repo, "a.py") == {"<module>", "staged_fn", "unstaged_fn"}
    assert "no commits yet" in error_line(crg("index", "--repo", str(repo), "--rev", "HEAD"))


@pytest.mark.parametrize("command", ["index", "stats", "dump"])
def test_not_a_git_repository_is_a_one_line_error(tmp_path: Path, command: str) -> None:
    plain = tmp_path / "plain"
    write(plain, "x.py", GOOD)
    line = error_line(crg(command, "--repo", str(plain)))
    assert "not a git repository" in line and str(plain) in line
    line = error_line(crg(command, cwd=plain))
    assert "not a git repository" in line


def test_a_db_path_that_cannot_be_created_is_a_one_line_error(repo: Path, tmp_path: Path) -> None:
    commit(repo)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    line = error_line(crg("index", "--repo", str(repo), "--db", str(blocker / "sub" / "index.db")))
    assert "cannot create the index" in line and "--db" in line
    assert blocker.read_text() == "not a directory\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_db_in_a_read_only_directory_is_a_one_line_error(repo: Path, tmp_path: Path) -> None:
    commit(repo)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        line = error_line(crg("index", "--repo", str(repo), "--db", str(ro / "index.db")))
        assert str(ro / "index.db") in line
    finally:
        ro.chmod(0o755)


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_a_db_under_proc_is_a_one_line_error(repo: Path) -> None:
    """A location nobody can write, root included."""
    commit(repo)
    line = error_line(crg("index", "--repo", str(repo), "--db", "/proc/crg-review/index.db"))
    assert "cannot create the index at /proc/crg-review/index.db" in line


def test_unresolved_merge_conflicts_are_a_one_line_error_but_a_commit_still_indexes(repo: Path) -> None:
    commit(repo, "base")
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "good.py", "def good():\n    return 2\n")
    commit(repo, "other")
    git(repo, "checkout", "-q", "main")
    write(repo, "good.py", "def good():\n    return 3\n")
    commit(repo, "main")
    with pytest.raises(AssertionError):
        git(repo, "merge", "-q", "other")  # conflicts
    for args in ((), ("--staged",)):
        line = error_line(crg("index", "--repo", str(repo), *args))
        assert "unresolved merge conflicts in good.py" in line
    index(repo, "--rev", "HEAD")
    assert symbols_of(repo, "good.py") == {"<module>", "good"}
