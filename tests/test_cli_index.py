"""``crg-review index / stats / dump`` as a user runs them: a fresh process, real exit codes and output."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from crg_review.languages import LANGUAGES

from .helpers import commit, crg, crg_env, git, make_repo, write

SOURCES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "class Base:\n    def run(self):\n        return helper()\n\n\ndef helper():\n    return 1\n",
    "pkg/app.py": (
        "from pkg.core import Base, helper\n\n\n"
        "class App(Base):\n    def go(self):\n        return self.run() + helper() + missing()\n"
    ),
    "tests/test_app.py": "from pkg.app import App\n\n\ndef test_go():\n    assert App().go()\n",
    "web/util.js": "export function add(a, b) { return a + b }\n",
    "web/main.js": "import { add } from './util.js'\nexport function main() { return add(1, 2) }\n",
    "web/types.ts": "export function typed(x: number): number { return x }\n",
    "web/view.tsx": "export function View() { return <div>hi</div> }\n",
    "go/main.go": "package main\n\nfunc helper() int { return 1 }\n\nfunc main() { helper() }\n",
    "java/App.java": "class App {\n  int run() { return helper(); }\n  int helper() { return 1; }\n}\n",
    "cs/App.cs": "class App {\n  int Run() { return Helper(); }\n  int Helper() { return 1; }\n}\n",
    "rs/main.rs": "fn helper() -> i32 { 1 }\n\nfn main() { helper(); }\n",
    "c/main.c": "int helper(void) { return 1; }\n\nint main(void) { return helper(); }\n",
    "c/main.h": "int helper(void);\n",
    "cpp/main.cpp": "int helper() { return 1; }\n\nint main() { return helper(); }\n",
    "rb/app.rb": "def helper\n  1\nend\n\ndef main\n  helper\nend\n",
}
EXPECTED_LANGUAGES = {
    "python": 4, "javascript": 2, "typescript": 1, "tsx": 1, "go": 1, "java": 1, "csharp": 1, "rust": 1, "c": 2,
    "cpp": 1, "ruby": 1,
}  # fmt: skip
STATS_KEYS = {
    "files", "symbols", "edges", "by_kind", "by_language", "unresolved", "resolution", "db_path", "db_bytes",
    "indexed", "skipped", "files_with_syntax_errors",
}  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    for path, content in SOURCES.items():
        write(repo, path, content)
    commit(repo, "initial")
    return repo


def ok(*args: str, **kwargs: object) -> str:
    run = crg(*args, **kwargs)  # type: ignore[arg-type]
    assert run.code == 0, run
    assert "Traceback" not in run.err
    return run.out


def stats(repo: Path, *extra: str) -> dict[str, object]:
    run = crg("stats", "--format", "json", "--repo", str(repo), *extra)
    assert run.code == 0, run
    return run.json()  # type: ignore[no-any-return]


def test_index_reports_what_it_did_and_how_many_files_the_index_holds(repo: Path) -> None:
    out = ok("index", "--repo", str(repo))
    assert re.fullmatch(r"crg-review: index of worktree \(16 files\) parsed 16 file\(s\), removed 0 in [\d.]+s\n", out)
    out = ok("index", "--repo", str(repo))
    assert re.fullmatch(r"crg-review: index of worktree \(16 files\) up to date in [\d.]+s\n", out)


def test_the_default_index_lives_in_the_git_common_dir(repo: Path, tmp_path: Path) -> None:
    ok("index", "--repo", str(repo))
    common = Path(git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir").strip())
    expected = common / "crg-review" / "index.db"
    assert expected.is_file()
    assert stats(repo)["db_path"] == str(expected)

    # a linked work tree shares the main repository's index, and the command runs from a subfolder
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "feature")
    run = crg("stats", "--format", "json", cwd=linked / "pkg")
    assert run.code == 0, run
    assert run.json()["db_path"] == str(expected)
    assert run.json()["files"] == 16
    assert not (linked / ".git").is_dir()  # a file pointing to the common dir: nothing was created there


def test_db_flag_and_environment_choose_the_index_file(repo: Path, tmp_path: Path) -> None:
    env_db = tmp_path / "from-env.db"
    flag_db = tmp_path / "from-flag.db"
    env = crg_env(CRG_REVIEW_DB=str(env_db))

    ok("index", "--repo", str(repo), env=env)
    assert env_db.is_file()
    assert not (repo / ".git" / "crg-review").exists()

    ok("index", "--repo", str(repo), "--db", str(flag_db), env=env)  # the flag wins over the environment
    assert flag_db.is_file()
    run = crg("stats", "--format", "json", "--repo", str(repo), "--db", str(flag_db), env=env)
    assert run.json()["db_path"] == str(flag_db)

    # a relative --db is relative to the current directory
    ok("index", "--db", "rel/idx.db", cwd=repo)
    assert (repo / "rel" / "idx.db").is_file()


def test_stats_json_has_the_documented_keys_and_agrees_with_the_dump(repo: Path) -> None:
    ok("index", "--repo", str(repo))
    data = stats(repo)
    assert STATS_KEYS <= set(data)
    dump = crg("dump", "--repo", str(repo)).json()

    assert data["files"] == len([f for f in dump["files"] if not f[3].startswith("skipped:")]) == 16
    assert data["symbols"] == len(dump["symbols"])
    assert data["edges"] == len(dump["edges"]) > 0
    assert data["unresolved"] == len(dump["unresolved"]) > 0  # missing() has no target
    assert sum(data["by_kind"].values()) == data["symbols"]  # type: ignore[union-attr]
    assert sum(data["resolution"].values()) == data["edges"]  # type: ignore[union-attr]
    assert set(data["resolution"]) == {e[5] for e in dump["edges"]}  # type: ignore[arg-type]
    assert {"module", "class", "function", "method"} <= set(data["by_kind"])  # type: ignore[arg-type]
    assert isinstance(data["db_bytes"], int) and data["db_bytes"] > 0
    assert data["db_bytes"] >= os.path.getsize(str(data["db_path"]))


def test_by_language_is_keyed_by_tree_sitter_language_pack_names(repo: Path) -> None:
    ok("index", "--repo", str(repo))
    by_language = stats(repo)["by_language"]
    assert isinstance(by_language, dict)
    assert set(by_language) == set(LANGUAGES)
    assert {lang: counts["files"] for lang, counts in by_language.items()} == EXPECTED_LANGUAGES
    dump = crg("dump", "--repo", str(repo)).json()
    language_of = {f[0]: f[1] for f in dump["files"]}
    for lang, counts in by_language.items():
        assert set(counts) == {"files", "symbols"}
        assert counts["symbols"] == sum(1 for s in dump["symbols"] if language_of[s[0]] == lang) > 0


def test_stats_json_is_deterministic(repo: Path, tmp_path: Path) -> None:
    ok("index", "--repo", str(repo))
    first = crg("stats", "--format", "json", "--repo", str(repo))
    second = crg("stats", "--format", "json", "--repo", str(repo))
    assert first.code == second.code == 0
    assert first.out == second.out  # byte for byte, key order included

    # the same tree in another clone gives the same figures (all but where the file is)
    other = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    ok("index", "--repo", str(other))
    a, b = stats(repo), stats(other)
    for key in ("db_path", "db_bytes"):
        a.pop(key), b.pop(key)
    assert a == b


def test_indexed_says_commit_id_staged_or_worktree(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD").strip()
    assert stats(repo)["indexed"] is None  # nothing yet

    out = ok("index", "--repo", str(repo), "--rev", "main")
    assert f"index of {head} " in out
    assert stats(repo)["indexed"] == head
    ok("index", "--repo", str(repo), "--rev", head[:8])
    assert stats(repo)["indexed"] == head

    ok("index", "--repo", str(repo), "--staged")
    assert stats(repo)["indexed"] == "staged"
    ok("index", "--repo", str(repo))
    assert stats(repo)["indexed"] == "worktree"


def test_rev_indexes_an_older_commit_and_full_rebuilds_to_the_same_dump(repo: Path, tmp_path: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "pkg/core.py", SOURCES["pkg/core.py"] + "\n\ndef later():\n    return helper()\n")
    commit(repo, "later")
    ok("index", "--repo", str(repo))
    ok("index", "--repo", str(repo), "--rev", first)
    incremental = crg("dump", "--repo", str(repo)).json()
    assert not any(s[1] == "later" for s in incremental["symbols"])
    ok("index", "--repo", str(repo), "--rev", first, "--full")
    assert crg("dump", "--repo", str(repo)).json() == incremental


def test_an_unknown_revision_is_a_one_line_error(repo: Path) -> None:
    run = crg("index", "--repo", str(repo), "--rev", "no-such-branch")
    assert run.code == 1, run
    assert run.err.count("\n") == 1 and "Traceback" not in run.err
    assert run.err.startswith("crg-review: error: unknown revision 'no-such-branch'")


def test_stats_text_is_readable(repo: Path) -> None:
    out = ok("stats", "--repo", str(repo))
    assert "indexed: nothing yet" in out
    ok("index", "--repo", str(repo))
    out = ok("stats", "--repo", str(repo))
    assert re.search(r"^files\s+16 \(0 with syntax errors\)$", out, re.MULTILINE)
    assert re.search(r"^\s+python\s+4 files\s+\d+ symbols$", out, re.MULTILINE)
    assert re.search(r"^symbols\s+\d+\s+.*function: \d+", out, re.MULTILINE)
    assert "indexed: worktree" in out


def test_dump_is_canonical_json(repo: Path) -> None:
    ok("index", "--repo", str(repo))
    dump = crg("dump", "--repo", str(repo)).json()
    assert set(dump) == {"files", "symbols", "edges", "unresolved"}
    assert dump["files"] == sorted(dump["files"])
    assert dump["edges"] == sorted(dump["edges"])
    assert ["pkg/app.py", "App.go", "pkg/core.py", "helper"] in [e[:4] for e in dump["edges"]]
