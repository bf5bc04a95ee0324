"""Change impact on real temporary repositories: findings (removed still used, incompatible calls, --fail-on)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crg_review.findings import _arity_problem

from .helpers import commit, git, run_cli, write
from .impact_helpers import edit, project, review, rules, selected


def test_removed_symbol_still_referenced(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/use.py", "from pkg.core import leaf\n\n\ndef twice(x):\n    return leaf(leaf(x))\n")
    commit(repo, "use")
    edit(repo, "pkg/core.py", "def leaf(x):\n    return x + 1\n\n\n", "")
    data = review(capsys, repo)
    found = [r for r in rules(data) if r[0] == "CRG001"]
    assert ("CRG001", "pkg/use.py", 1) in found  # the import
    assert ("CRG001", "pkg/use.py", 5) in found  # the call through it
    assert ("CRG001", "pkg/core.py", 5) in found  # mid still calls leaf
    assert all(f["severity"] == "error" for f in data["findings"] if f["rule"] == "CRG001")
    # tests that reach the places still using it are related: they will fail
    assert "tests/test_chain.py::test_api" in selected(data)


def test_a_removed_method_whose_name_became_an_attribute_is_no_finding(tmp_path: Path, capsys: Any) -> None:
    # crg-review's own Resolver: the method `facts` gave way to an attribute `self.facts = FileFacts(conn)`, whose
    # `self.facts.variables(...)` calls were reported as uses of the removed method
    repo = project(tmp_path)
    write(
        repo,
        "pkg/resolver.py",
        "class Facts:\n    def variables(self, fid):\n        return [fid]\n\n\n"
        "class Resolver:\n    def __init__(self):\n        self.cache = {}\n\n"
        "    def facts(self, fid):\n        return [fid]\n\n    def resolve(self, fid):\n        return self.facts(fid)\n\n\n"
        "class Other:\n    def __init__(self):\n        self.facts = 1\n\n    def go(self, r):\n        return r\n",
    )
    commit(repo, "a resolver")
    edit(
        repo,
        "pkg/resolver.py",
        "        self.cache = {}\n\n    def facts(self, fid):\n        return [fid]\n\n    def resolve(self, fid):\n        return self.facts(fid)\n",
        "        self.facts = Facts()\n\n    def resolve(self, fid):\n        return self.facts.variables(fid)\n",
    )
    assert "CRG001" not in [r[0] for r in rules(review(capsys, repo))]
    # the attribute another class stores is no excuse: a call left in the class that lost the method is a finding
    git(repo, "checkout", "--", "pkg/resolver.py")
    edit(repo, "pkg/resolver.py", "    def facts(self, fid):\n        return [fid]\n\n", "")
    assert ("CRG001", "pkg/resolver.py", 11) in rules(review(capsys, repo))


def test_removed_method_still_called_through_self(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "    def area(self):\n        return 0\n\n", "")
    edit(repo, "pkg/core.py", 'return f"{self.sides}"', "return self.area()")
    data = review(capsys, repo)
    assert ("CRG001", "pkg/core.py", 24) in rules(data)


def test_renamed_module_still_imported(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    git(repo, "mv", "pkg/store.py", "pkg/storage.py")
    data = review(capsys, repo)
    found = {(f["file"], f["line"]) for f in data["findings"] if f["rule"] == "CRG001"}
    assert {("tests/conftest.py", 3), ("tests/test_unit.py", 3), ("tests/auto/conftest.py", 3)} <= found
    assert any("renamed to pkg/storage.py" in f["message"] for f in data["findings"])


def test_a_rename_is_named_in_the_message(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "def top(x):", "def summit(x):")
    data = review(capsys, repo)
    assert any(f["rule"] == "CRG001" and "renamed to summit" in f["message"] for f in data["findings"])


@pytest.mark.parametrize(
    ("new", "call", "problem"),
    [
        ("def scale(x, factor, *, mode):", "scale(1, 2)", "required keyword argument 'mode'"),
        ("def scale(x):", "scale(1, 2)", "2 positional argument(s)"),
        ("def scale(x, k):", "scale(1, factor=2)", "keyword 'factor'"),
        ("def scale(x, factor, extra):", "scale(1, 2)", "required argument 'extra'"),
    ],
)
def test_incompatible_calls_after_a_signature_change(
    tmp_path: Path, capsys: Any, new: str, call: str, problem: str
) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/scale.py", "def scale(x, factor):\n    return x * factor\n")
    write(repo, "pkg/caller.py", f"from pkg.scale import scale\n\n\ndef run():\n    return {call}\n")
    commit(repo, "scale")
    edit(repo, "pkg/scale.py", "def scale(x, factor):", new)
    data = review(capsys, repo)
    found = [f for f in data["findings"] if f["rule"] == "CRG002"]
    assert [(f["file"], f["line"]) for f in found] == [("pkg/caller.py", 5)]
    assert problem in found[0]["message"]


def test_a_compatible_signature_change_is_no_finding(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/scale.py", "def scale(x, factor):\n    return x * factor\n")
    write(repo, "pkg/caller.py", "from pkg.scale import scale\n\n\ndef run():\n    return scale(1, factor=2)\n")
    commit(repo, "scale")
    edit(repo, "pkg/scale.py", "def scale(x, factor):", "def scale(x, factor=1, *, mode='a'):")
    assert not [f for f in review(capsys, repo)["findings"] if f["rule"] == "CRG002"]


@pytest.mark.parametrize(
    ("params", "arity", "keywords", "bound", "ok"),
    [
        (("x", "y="), 1, (), 0, True),
        (("x", "y="), 3, (), 0, False),
        (("x", "*args"), 5, (), 0, True),
        (("x", "/", "y"), 1, ("x", "y"), 0, False),  # x is positional-only
        (("x", "**kw"), 1, ("anything",), 0, True),
        (("self", "x"), 1, (), 1, True),
        (("self", "x"), 2, (), 1, False),
        (("x",), None, (), 0, True),  # *args at the call site: unknown
        (("x", "*", "k"), 1, ("**",), 0, True),  # **kwargs at the call site may carry k
        (("x",), 1, ("x",), 0, False),  # twice
    ],
)
def test_arity_rules(
    params: tuple[str, ...], arity: int | None, keywords: tuple[str, ...], bound: int, ok: bool
) -> None:
    assert (_arity_problem(params, arity, keywords, bound) is None) is ok


def test_changed_function_without_tests_and_new_unused_public_function(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, "pkg/lonely.py", "def alone():\n    return 1\n")
    commit(repo, "lonely")
    edit(repo, "pkg/lonely.py", "return 1", "return 2")
    extra = "\n\ndef fresh():\n    return 3\n\n\ndef _private():\n    return 4\n\n\n@register\ndef hooked():\n    return 5\n"
    (repo / "pkg/lonely.py").write_text((repo / "pkg/lonely.py").read_text() + extra)
    data = review(capsys, repo)
    assert ("CRG003", "pkg/lonely.py", 1) in rules(data)
    assert [r for r in rules(data) if r[0] == "CRG004"] == [("CRG004", "pkg/lonely.py", 5)]
    assert {f["severity"] for f in data["findings"]} == {"warning"}


def test_a_tested_change_has_no_untested_warning(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    edit(repo, "pkg/core.py", "    return x + 1\n", "    return x + 2\n")
    assert rules(review(capsys, repo)) == []


@pytest.mark.parametrize(
    ("fail_on", "change", "code"),
    [
        ("error", "remove", 2),
        ("error", "untested", 0),
        ("warning", "untested", 2),
        ("never", "remove", 0),
    ],
)
def test_fail_on_sets_the_exit_code(tmp_path: Path, capsys: Any, fail_on: str, change: str, code: int) -> None:
    repo = project(tmp_path)
    if change == "remove":
        edit(repo, "pkg/core.py", "def leaf(x):\n    return x + 1\n\n\n", "")
    else:
        edit(repo, "pkg/core.py", "        return 0\n", "        return 1\n")
    got, _, _ = run_cli(capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "i.db"), "--fail-on", fail_on)
    assert got == code


def test_fail_on_from_the_configuration(tmp_path: Path, capsys: Any) -> None:
    repo = project(tmp_path)
    write(repo, ".crg-review.toml", 'fail-on = "warning"\n')
    edit(repo, "pkg/core.py", "        return 0\n", "        return 1\n")
    got, _, _ = run_cli(capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "i.db"))
    assert got == 2
    got, _, _ = run_cli(capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "i.db"), "--fail-on", "never")
    assert got == 0
