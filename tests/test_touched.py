"""Change impact on real temporary repositories: touched symbols (modified, added, removed, signature)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .impact_helpers import changed, edit, project, review


def test_a_method_body_change_touches_the_method(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "        return 0\n", "        return 1\n")
    assert changed(review(capsys, repo)) == {("Shape.area", "modified")}


def test_a_class_body_change_outside_methods_touches_the_class(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "    sides = 0\n", "    sides = 4\n")
    assert changed(review(capsys, repo)) == {("Shape", "modified")}


def test_a_module_level_change_touches_the_module_and_blank_lines_touch_nothing(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "LIMIT = 10\n", "LIMIT = 11\n")
    data = review(capsys, repo)
    assert changed(data) == {("<module>", "modified")}
    assert data["changed"][0]["kind"] == "module"
    edit(repo, "pkg/core.py", "LIMIT = 11\n", "LIMIT = 10\n\n\n# a comment\n")
    assert changed(review(capsys, repo)) == set()


def test_added_removed_and_signature_changes(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "def top(x):\n", "def top(x, y=0):\n")
    edit(repo, "pkg/core.py", "def api(x):\n    return top(x)\n", "def api2(x):\n    return top(x)\n")
    (repo / "pkg/core.py").write_text((repo / "pkg/core.py").read_text() + "\n\ndef extra():\n    return 1\n")
    data = review(capsys, repo)
    assert changed(data) == {("top", "signature"), ("api", "removed"), ("api2", "added"), ("extra", "added")}
    sig = next(c for c in data["changed"] if c["qualname"] == "top")
    assert (sig["old_signature"], sig["new_signature"]) == ("def top(x)", "def top(x, y=0)")
    removed = next(c for c in data["changed"] if c["qualname"] == "api")
    assert removed["start_line"] == 16  # lines of a removed symbol are those of the old side
