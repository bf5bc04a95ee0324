"""The command line of change impact: ``tests`` (runnable ids), ``--output``, and the graph questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .helpers import commit, crg, git, make_repo, run_cli, write


def project(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/core.py",
        "def leaf(x):\n    return x + 1\n\n\ndef mid(x):\n    return leaf(x) * 2\n\n\n"
        "def other():\n    return 0\n\n\ndef lonely():\n    return 7\n",
    )
    write(repo, "pkg/extra.py", "def leaf():\n    return 'another leaf'\n")
    write(repo, "pkg/api.py", "from pkg.core import mid\nimport os\n\n\ndef serve(x):\n    return mid(x)\n")
    write(repo, "tests/__init__.py", "")
    write(repo, "tests/test_api.py", "from pkg.api import serve\n\n\ndef test_serve():\n    assert serve(1) == 4\n")
    write(repo, "tests/test_misc.py", "from pkg.core import other\n\n\ndef test_other():\n    assert other() == 0\n")
    commit(repo, "base")
    return repo


def cli(capsys: Any, repo: Path, *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, *args, "--repo", str(repo), "--db", str(repo.parent / "i.db"))


def staged_leaf_ids(repo: Path, tmp_path: Path) -> list[str]:
    """Stage a change of ``leaf`` and return what ``crg-review tests --staged`` prints, one id a line."""
    p = repo / "pkg/core.py"
    p.write_text(p.read_text().replace("return x + 1", "return x + 1  # staged"))
    git(repo, "add", "pkg/core.py")
    listed = crg("tests", "--staged", "--repo", str(repo), "--db", str(tmp_path / "i.db"), cwd=repo)
    assert listed.code == 0, listed
    return listed.out.split()


def run_pytest(repo: Path, ids: list[str]) -> subprocess.CompletedProcess[str]:
    """A real pytest run of ``ids`` in the repository, outside this run's git and pytest environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PYTEST_"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *ids],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


def test_pytest_runs_exactly_the_selected_tests(tmp_path: Path) -> None:
    repo = project(tmp_path)
    ids = staged_leaf_ids(repo, tmp_path)
    assert ids == ["tests/test_api.py::test_serve"]
    run = run_pytest(repo, ids)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_a_test_method_defined_under_a_condition_in_its_class_body_is_listed_by_its_class(tmp_path: Path) -> None:
    # asttokens' `if sys.version_info >= (3, 12): def test_fstrings_3_12_plus(self)`: false here, so `pytest
    # file::TestMarks::test_new` would stop at "not found" and run none of the other ids
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_marks.py",
        "import sys\nfrom pkg.api import serve\n\n\nclass TestMarks:\n    if sys.version_info >= (9, 0):\n"
        "        def test_new(self):\n            assert serve(1) == 4\n\n"
        "    def test_old(self):\n        assert serve(0) == 2\n\n\n"
        "class TestOther:\n    def test_new(self):\n        assert serve(2) == 6\n",
    )
    # and a subclass in another file inherits it (asttokens' `class TestAstroid(test_mark_tokens.TestMarkTokens)`)
    write(repo, "tests/test_sub.py", "from tests import test_marks\n\n\nclass TestSub(test_marks.TestMarks):\n    pass\n")
    commit(repo, "marks tests")
    ids = staged_leaf_ids(repo, tmp_path)
    assert ids == [
        "tests/test_api.py::test_serve", "tests/test_marks.py::TestMarks", "tests/test_marks.py::TestMarks::test_old",
        "tests/test_marks.py::TestOther::test_new", "tests/test_sub.py::TestSub", "tests/test_sub.py::TestSub::test_old",
    ]
    run = run_pytest(repo, ids)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "4 passed" in run.stdout, run.stdout


def test_a_test_defined_under_a_module_level_condition_is_listed_by_its_file(tmp_path: Path) -> None:
    # pyquery's `if SELENIUM: class TestInnerText`: false here, so `pytest file::TestInnerText` would stop at "not found"
    # and run none of the other ids
    repo = project(tmp_path)
    write(
        repo,
        "tests/test_browser.py",
        "import os\nfrom pkg.api import serve\n\nBROWSER = os.environ.get('NO_SUCH_BROWSER')\n\n"
        "if BROWSER:\n    class TestInBrowser:\n        def test_serve(self):\n            assert serve(1) == 4\n\n"
        "try:\n    import no_such_module\nexcept ImportError:\n    def test_without():\n        assert serve(2) == 6\n\n\n"
        "def test_plain():\n    assert serve(0) == 2\n",
    )
    # bottle's test_jinja2.py: `del TestJinja2Template` when jinja2 is missing
    write(
        repo,
        "tests/test_engine.py",
        "from pkg.api import serve\n\n\nclass TestEngine:\n    def test_serve(self):\n        assert serve(1) == 4\n\n\n"
        "try:\n    import no_such_engine\nexcept ImportError:\n    del TestEngine\n",
    )
    commit(repo, "browser tests")
    ids = staged_leaf_ids(repo, tmp_path)
    assert ids == [
        "tests/test_api.py::test_serve", "tests/test_browser.py", "tests/test_browser.py::test_plain", "tests/test_engine.py"
    ]
    run = run_pytest(repo, ids)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout, run.stdout  # test_engine.py collects nothing


def test_no_related_test_prints_nothing_or_the_marker(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    p = repo / "pkg/core.py"
    p.write_text(p.read_text().replace("return 7", "return 8"))
    assert cli(capsys, repo, "tests") == (0, "", "")
    code, out, _ = cli(capsys, repo, "tests", "--none-marker", "NONE")
    assert (code, out) == (0, "NONE\n")


def test_select_all_prints_no_ids_and_says_why_on_stderr(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pytest.ini", "[pytest]\n")
    git(repo, "add", "pytest.ini")
    code, out, err = cli(capsys, repo, "tests", "--none-marker", "NONE")
    assert (code, out) == (0, "")
    assert "every test is selected" in err and "pytest.ini" in err
    code, out, _ = cli(capsys, repo, "tests", "--format", "json")
    assert json.loads(out)["select_all"]


def test_ids_are_relative_to_the_current_directory(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    p = repo / "pkg/core.py"
    p.write_text(p.read_text().replace("return 0", "return 0  # changed"))
    monkeypatch.chdir(repo / "tests")
    code, out, _ = cli(capsys, repo, "tests")
    assert (code, out) == (0, "test_misc.py::test_other\n")


def test_output_writes_a_file(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    p = repo / "pkg/core.py"
    p.write_text(p.read_text().replace("return 0", "return 1"))
    target = tmp_path / "review.json"
    code, out, _ = cli(capsys, repo, "diff", "--format", "json", "--output", str(target))
    assert (code, out) == (0, "")
    assert json.loads(target.read_text())["tests"][0]["nodeid"] == "tests/test_misc.py::test_other"


def test_callers_with_depth_text_and_json(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    assert cli(capsys, repo, "index")[0] == 0
    code, out, _ = cli(capsys, repo, "callers", "pkg/core.py::leaf")
    assert code == 0 and out.splitlines() == ["pkg/core.py:5 mid  (depth 1, call, 1.00)"]
    code, out, _ = cli(capsys, repo, "callers", "pkg/core.py::leaf", "--depth", "3", "--format", "json")
    data = json.loads(out)
    assert data["symbol"] == "pkg/core.py::leaf"
    got = {(c["qualname"], c["depth"]) for c in data["callers"]}
    assert got == {("mid", 1), ("serve", 2), ("test_serve", 3)}


def test_an_ambiguous_or_unknown_symbol_is_a_one_line_error(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    assert cli(capsys, repo, "index")[0] == 0
    code, out, err = cli(capsys, repo, "callers", "leaf")
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "pkg/core.py::leaf" in err and "pkg/extra.py::leaf" in err
    code, _, err = cli(capsys, repo, "tests-for", "nothing_here")
    assert code == 1 and "no symbol" in err
    assert cli(capsys, repo, "callers", "mid")[0] == 0  # a unique bare name is enough


def test_impact_of_a_symbol_and_of_a_path(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    assert cli(capsys, repo, "index")[0] == 0
    code, out, _ = cli(capsys, repo, "impact", "mid", "--format", "json")
    data = json.loads(out)
    assert code == 0 and {i["qualname"] for i in data["impacted"]} == {"serve", "<module>"}
    assert [t["nodeid"] for t in data["tests"]] == ["tests/test_api.py::test_serve"]
    code, out, _ = cli(capsys, repo, "impact", "pkg/core.py", "--format", "json")
    data = json.loads(out)
    assert {t["nodeid"] for t in data["tests"]} == {"tests/test_api.py::test_serve", "tests/test_misc.py::test_other"}
    code, out, _ = cli(capsys, repo, "impact", "pkg/core.py")
    assert code == 0 and "tests/test_misc.py::test_other" in out


def test_dependents_and_imports(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    assert cli(capsys, repo, "index")[0] == 0
    code, out, _ = cli(capsys, repo, "dependents", "pkg/core.py", "--format", "json")
    files = [d["file"] for d in json.loads(out)["dependents"]]
    assert code == 0 and sorted(files) == ["pkg/api.py", "tests/test_misc.py"]
    code, out, _ = cli(capsys, repo, "imports", "pkg/api.py", "--format", "json")
    rows = {(r["module"], r["name"]): r["resolved"] for r in json.loads(out)["imports"]}
    assert rows == {("pkg.core", "mid"): ["pkg/core.py"], ("os", None): []}
    code, out, _ = cli(capsys, repo, "imports", "pkg/api.py")
    assert "(outside the repository)" in out
    code, _, err = cli(capsys, repo, "dependents", "nope.py")
    assert code == 1 and "not in the index" in err


def test_tests_for(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    assert cli(capsys, repo, "index")[0] == 0
    code, out, _ = cli(capsys, repo, "tests-for", "pkg/core.py::leaf", "--format", "lines")
    assert (code, out) == (0, "tests/test_api.py::test_serve\n")
    code, out, _ = cli(capsys, repo, "tests-for", "lonely")
    assert code == 0 and "no test reaches" in out


def test_the_index_update_of_a_diff_runs_with_the_garbage_collector(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the analysis pauses the collector; a rebuild the diff starts makes cycles it must collect (django: 35 MiB)
    import gc

    from crg_review.workspace import Workspace

    repo = project(tmp_path)
    seen: list[bool] = []
    update = Workspace.update

    def recording(self: Workspace, *args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return update(self, *args, **kwargs)

    monkeypatch.setattr(Workspace, "update", recording)
    p = repo / "pkg/core.py"
    p.write_text(p.read_text().replace("return 0", "return 1"))
    code, out, _ = cli(capsys, repo, "diff", "--format", "json")
    assert code == 0 and json.loads(out)["tests"]
    assert seen == [True]
    assert gc.isenabled()
