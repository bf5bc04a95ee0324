"""Change impact on real temporary repositories: the review as a whole (select-all, JSON contract, testpaths)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import commit, git, make_repo, write
from .impact_helpers import CONFTEST, edit, project, review, selected


def test_a_changed_test_selects_itself(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "tests/test_uses_db.py", "assert db\n", "assert db is not None\n")
    assert selected(review(capsys, repo)) == {"tests/test_uses_db.py::test_top": (0, "changed")}


@pytest.mark.parametrize("config", ["pyproject.toml", "conftest.py", "setup.cfg", "tox.ini", "pytest.ini"])
def test_root_test_configuration_selects_all(tmp_path: Path, capsys: Any, config: str) -> None:
    repo = project(tmp_path)
    write(repo, config, "# changed\n")
    git(repo, "add", config)  # a work-tree review sees tracked files, like git diff HEAD
    data = review(capsys, repo)
    assert data["select_all"] and config in data["select_all"]
    write(repo, "tests/conftest.py", CONFTEST + "\n# nested conftest: not everything\n")
    git(repo, "rm", "-q", "--cached", config)
    assert review(capsys, repo)["select_all"] is None


def test_the_json_contract(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "def leaf(x):\n    return x + 1\n", "def leaf(x, y):\n    return x + y\n")
    base = git(repo, "rev-parse", "HEAD").strip()
    data = review(capsys, repo)
    assert data["schema"] == "crg-review/diff/1"
    assert (data["base"], data["head"]) == (base, "worktree")
    assert {"changed", "impacted", "tests", "findings", "stats"} <= set(data)
    assert set(data["changed"][0]) >= {"file", "qualname", "name", "kind", "start_line", "end_line", "change"}
    assert {c["change"] for c in data["changed"]} <= {"added", "modified", "removed", "signature"}
    assert set(data["impacted"][0]) == {"file", "qualname", "kind", "line", "depth", "via", "edge", "confidence"}
    assert set(data["tests"][0]) == {"file", "qualname", "nodeid", "depth", "reason"}
    assert set(data["findings"][0]) == {"rule", "severity", "file", "line", "message"}
    stats = data["stats"]
    assert {"changed", "impacted", "impacted_total", "impacted_cut", "tests", "findings", "timings"} <= set(stats)
    assert {"diff", "index", "analysis", "total"} <= set(stats["timings"])
    assert all("\\" not in c["file"] and not c["file"].startswith("/") for c in data["changed"])


def test_tests_outside_the_settings_testpaths_are_not_listed_unless_changed(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pyproject.toml", '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    write(repo, "bench/test_speed.py", "from pkg.core import api\n\n\ndef test_speed():\n    assert api(2)\n")
    commit(repo, "bench")
    edit(repo, "pkg/core.py", "def leaf(x):\n", "def leaf(x):\n    x = x or 0\n")
    data = review(capsys, repo)
    tests = selected(data)
    # attrs' `bench/` with `testpaths = "tests"`: a plain pytest run never collects it
    assert "tests/test_chain.py::test_api" in tests
    assert not [t for t in tests if t.startswith("bench/")]
    assert data["stats"]["tests_outside_testpaths"] == 1
    edit(repo, "bench/test_speed.py", "api(2)", "api(3)")
    assert "bench/test_speed.py::test_speed" in selected(review(capsys, repo))
    # testpaths that match no folder are skipped, and with none left pytest collects from the root (wheel's
    # `testpaths = ["test"]`, its tests in `tests/`)
    write(repo, "pyproject.toml", '[tool.pytest.ini_options]\ntestpaths = ["test"]\n')
    commit(repo, "testpaths")
    edit(repo, "pkg/core.py", "    x = x or 0\n", "    x = x or 1\n")
    assert {"tests/test_chain.py::test_api", "bench/test_speed.py::test_speed"} <= set(selected(review(capsys, repo)))


@pytest.mark.parametrize(
    ("packaging", "text"),
    [
        ("pyproject.toml", '[project]\nname = "pkg"\n\n[project.entry-points.pytest11]\nmine = "pkg.plugin"\n'),
        ("setup.cfg", "[metadata]\nname = pkg\n\n[options.entry_points]\npytest11 =\n    mine = pkg.plugin\n"),
        ("setup.py", 'from setuptools import setup\n\nsetup(entry_points={"pytest11": ["mine = pkg.plugin"]})\n'),
        ("conftest.py", 'pytest_plugins = ["pkg.plugin"]\n'),
    ],
)
def test_a_hook_of_a_pytest_plugin_the_project_loads_selects_all(
    capsys: Any, tmp_path: Path, packaging: str, text: str
) -> None:
    """pytest calls `pytest_configure` of every plugin it loads, and the project's own entry point (`pytest11`)
    or root `pytest_plugins` loads `pkg.plugin` for the whole suite; the same hook in a module no one loads as a
    plugin, or another function of the plugin, selects nothing more."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    hooks = "def pytest_configure(config):\n    config.seen = 1\n    return None\n\n\ndef helper():\n    return 1\n"
    write(repo, "pkg/plugin.py", hooks)
    write(repo, "pkg/other.py", hooks)
    write(repo, "tests/test_a.py", "def test_a():\n    assert 1\n")
    write(repo, packaging, text)
    commit(repo, "plugin")
    edit(repo, "pkg/plugin.py", "config.seen = 1", "config.seen = 2")
    commit(repo, "change the hook")
    data = review(capsys, repo, "HEAD~1..HEAD")
    assert data["select_all"] and "pkg/plugin.py" in data["select_all"]
    edit(repo, "pkg/other.py", "config.seen = 1", "config.seen = 2")
    edit(repo, "pkg/plugin.py", "return 1", "return 2")
    commit(repo, "change a hook of no plugin and a helper of the plugin")
    assert review(capsys, repo, "HEAD~1..HEAD")["select_all"] is None


def test_a_change_to_a_package_pytest_imports_on_start_up_selects_all(capsys: Any, tmp_path: Path) -> None:
    """Developing pluggy (or iniconfig), pytest runs on the checkout's code: a fault in what pytest calls on start-up
    stops every test, which no call in the project shows. Another package, or pluggy's tests, select as usual."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "src/pluggy/__init__.py", "from ._manager import PluginManager\n")
    write(repo, "src/pluggy/_manager.py", "class PluginManager:\n    def unblock(self, name):\n        return name\n")
    write(repo, "src/other/__init__.py", "def unblock(name):\n    return name\n")
    write(repo, "testing/test_other.py", "from other import unblock\n\n\ndef test_unblock():\n    assert unblock(1)\n")
    commit(repo, "pluggy")
    edit(repo, "src/pluggy/_manager.py", "return name", "return [name]")
    commit(repo, "change pluggy")
    data = review(capsys, repo, "HEAD~1..HEAD")
    assert data["select_all"] and "pytest imports pluggy" in data["select_all"]
    edit(repo, "src/other/__init__.py", "return name", "return [name]")
    commit(repo, "change another package")
    data = review(capsys, repo, "HEAD~1..HEAD")
    assert data["select_all"] is None and selected(data) == {"testing/test_other.py::test_unblock": (1, "graph")}
