"""Rendering: hostile names render inert in markdown, the comment stays under 60,000 characters, SARIF's
shape, terminal colour only when asked, template overrides."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from crg_review.findings import RULES
from crg_review.render import MARKDOWN_LIMIT, md_escape, render, sarif
from crg_review.review import ChangedSymbol, Finding, Impacted, RelatedTest, Review

from .helpers import commit, git, make_repo, run_cli, write

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "`rm -rf /`",
    "@someone",
    "<!-- hidden",
    "[click](https://evil.example)",
    "**bold** __init__ ~~x~~",
    "#123",
    ":smile:",
    "</code></details><script>alert(1)</script>",
]
ALLOWED_TAGS = {"details", "summary", "b", "code", "a"}


def hostile_review() -> Review:
    r = Review(base="a" * 40, head="b" * 40, head_commit="b" * 40, web_url="https://github.com/o/r")
    for i, name in enumerate(HOSTILE):
        r.changed.append(ChangedSymbol(f"pkg/{name}.py", name, name, "function", i + 1, i + 2, "signature", name, name))
        r.impacted.append(Impacted(f"pkg/{name}.py", name, "function", i + 1, 1, (name, name), "call", 1.0))
        r.tests.append(RelatedTest(f"tests/{name}.py", name, f"tests/{name}.py::{name}", 1, "graph"))
        r.findings.append(Finding("CRG001", "error", f"pkg/{name}.py", i + 1, f"uses {name}"))
    r.select_all = "pyproject.toml changed @team <b>"
    return r


def tags(markdown: str) -> set[str]:
    return {m.lower() for m in re.findall(r"<\s*/?\s*([A-Za-z!][^\s>/]*)", markdown)}


def test_hostile_names_render_inert_in_markdown() -> None:
    out = render(hostile_review(), "markdown")
    assert tags(out) <= ALLOWED_TAGS, tags(out) - ALLOWED_TAGS
    for raw in ("<img", "<!--", "<script", "@someone", "`rm", "[click]", "**bold**", "__init__", "#123", ":smile:"):
        assert raw not in out, raw
    assert "&lt;img src&#61;x onerror&#61;alert&#40;1&#41;&gt;" in out
    assert "&#64;&#8205;someone" in out  # the mention is broken by a zero-width joiner
    # every code span is an HTML <code> element: no backtick from a name can open or close one
    assert "`" not in out.replace("`crg-review diff --format json`", "")


def test_md_escape_keeps_plain_names_readable_in_the_browser() -> None:
    import html

    for name in HOSTILE + ["pkg/core.py", "Shape.area"]:
        assert html.unescape(md_escape(name)).replace("\u200d", "") == name


def test_links_point_at_the_blob_of_the_head_commit_with_line_anchors() -> None:
    out = render(hostile_review(), "markdown")
    links = re.findall(r'href="([^"]+)"', out)
    assert links and all(link.startswith("https&#58;//github.com/o/r/blob/" + "b" * 40 + "/") for link in links)
    assert all(re.search(r"#L\d+$", link.replace("&#35;&#8205;", "#")) for link in links)
    assert all("<" not in link and " " not in link for link in links)


def test_no_links_without_a_known_remote() -> None:
    r = hostile_review()
    r.web_url = None
    assert "href=" not in render(r, "markdown")


def test_a_huge_review_is_capped_below_60000_characters_with_a_note() -> None:
    r = Review(base="a" * 40, head="b" * 40)
    for i in range(5000):
        name = f"module_{i}.Function_{i}_" + "x" * 80
        r.changed.append(ChangedSymbol(f"pkg/m{i}.py", name, name, "function", 1, 2, "modified"))
        r.impacted.append(Impacted(f"pkg/m{i}.py", name, "function", i + 1, 1, (name,), "call", 1.0))
        r.tests.append(RelatedTest(f"tests/t{i}.py", name, f"tests/t{i}.py::{name}", 1, "graph"))
    out = render(r, "markdown")
    assert len(out) < MARKDOWN_LIMIT
    assert "left out" in out
    assert out.count("<details") == out.count("</details>")  # still well-formed


def test_a_huge_real_diff_through_the_command_line(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "README.md", "x\n")
    commit(repo, "base")
    body = "".join(
        f"def function_number_{i}_with_a_long_name(argument_{i}):\n    return argument_{i}\n\n\n" for i in range(3000)
    )
    write(repo, "pkg/big.py", body)
    commit(repo, "big")
    code, out, _ = run_cli(
        capsys, "diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", str(tmp_path / "i.db"), "--format", "markdown"
    )
    assert code == 0
    assert len(out) < MARKDOWN_LIMIT and "left out" in out
    assert "3000</b>" in out or "**3000**" in out  # the counts still tell the whole size


def test_hostile_file_names_from_a_real_repository(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    name = "pkg/<img src=x onerror=alert(1)> @someone `x`.py"
    write(repo, name, "def f():\n    return 1\n")
    commit(repo, "base")
    git(repo, "remote", "add", "origin", "git@github.com:o/r.git")
    write(repo, name, "def f():\n    return 2\n")
    head = commit(repo, "change")
    code, out, _ = run_cli(
        capsys, "diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", str(tmp_path / "i.db"), "--format", "markdown"
    )
    assert code == 0
    assert tags(out) <= ALLOWED_TAGS and "@someone" not in out and "`x`" not in out
    assert f'href="https&#58;//github.com/o/r/blob/{head}/pkg/%3Cimg%20src%3Dx' in out  # percent-encoded path


def test_sarif_shape() -> None:
    r = hostile_review()
    r.findings.append(Finding("CRG003", "warning", "pkg/a.py", 0, "untested"))
    doc = json.loads(render(r, "sarif"))
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-2.1.0.json")
    (run,) = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "crg-review" and driver["version"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == sorted(RULES)
    for rule in driver["rules"]:
        assert rule["name"] and rule["shortDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    assert len(run["results"]) == len(r.findings)
    for result, finding in zip(run["results"], r.findings, strict=True):
        assert result["ruleId"] == finding.rule and ids[result["ruleIndex"]] == finding.rule
        assert result["level"] in ("error", "warning", "note", "none")
        assert result["message"]["text"] == finding.message
        loc = result["locations"][0]["physicalLocation"]
        assert not loc["artifactLocation"]["uri"].startswith("/") and " " not in loc["artifactLocation"]["uri"]
        assert loc["region"]["startLine"] >= 1
    assert sarif(Review(base=None, head="worktree"))["runs"][0]["results"] == []


def test_json_is_the_review_contract() -> None:
    r = hostile_review()
    assert json.loads(render(r, "json")) == json.loads(json.dumps(r.to_json()))


@pytest.mark.parametrize(
    "tests",
    [
        [],
        [RelatedTest("t.py", "},\n      {", "t.py::x", 0, "}" + ",\n      " + "{")],
        [RelatedTest(f"tests/{n}.py", n, f"tests/{n}.py::{n}", i, "graph") for i, n in enumerate(HOSTILE)],
    ],
)
def test_json_text_is_json_dumps_indent_2(tests: list[RelatedTest]) -> None:
    # the flat record lists are encoded by the C encoder, the text must stay json.dumps(indent=2)'s
    r = hostile_review()
    r.tests = tests
    r.stats = {"tests": len(tests), "nested": {"a": [1, 2.5, None, True]}, "empty": []}
    assert render(r, "json") == json.dumps(r.to_json(), indent=2) + "\n"


def test_text_colour_only_when_asked_and_control_characters_stripped() -> None:
    r = hostile_review()
    r.changed.append(ChangedSymbol("pkg/\x1b[31mevil.py", "f\x07", "f", "function", 1, 1, "modified"))
    plain = render(r, "text")
    assert "\x1b" not in plain and "\x07" not in plain
    coloured = render(r, "text", color=True)
    assert "\x1b[1m" in coloured
    assert "\x1b[31mevil" not in coloured


def test_text_lists_at_most_max_tests_tests_and_counts_the_rest() -> None:
    r = Review(base="a" * 40, head="b" * 40)
    r.tests = [RelatedTest(f"tests/t{i}.py", f"test_{i}", f"tests/t{i}.py::test_{i}", 1, "graph") for i in range(250)]
    capped = render(r, "text", max_tests=100)
    assert "tests/t99.py::test_99" in capped and "tests/t100.py::test_100" not in capped
    assert "... 150 more" in capped
    assert "250 tests" in capped.splitlines()[0]  # the summary line counts them all
    everything = render(r, "text")
    assert "tests/t249.py::test_249" in everything and "more (" not in everything
    assert "more (" not in render(r, "text", max_tests=250)


def test_the_command_line_caps_the_tests_of_the_text_format_only(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "a.py", "def f():\n    return 1\n")
    tests = "".join(f"def test_{i}():\n    assert f() == 1\n\n\n" for i in range(5))
    write(repo, "tests/test_a.py", "from a import f\n\n\n" + tests)
    commit(repo, "base")
    write(repo, "a.py", "def f():\n    return 1 + 0\n")
    commit(repo, "change")
    db = str(tmp_path / "i.db")
    code, out, _ = run_cli(capsys, "diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", db, "--max-tests", "2")
    assert code == 0 and out.count("tests/test_a.py::test_") == 2 and "... 3 more" in out
    code, out, _ = run_cli(capsys, "diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", db)
    assert out.count("tests/test_a.py::test_") == 5 and "more (" not in out  # the default, 100, lists them all
    args = ("diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", db, "--max-tests", "2")
    code, out, _ = run_cli(capsys, *args, "--format", "json")
    assert len(json.loads(out)["tests"]) == 5
    code, _, err = run_cli(capsys, "diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", db, "--max-tests", "-1")
    assert code == 1 and err.strip() == "crg-review: error: --max-tests must be 0 or more, not -1"


def test_the_command_line_never_colours_a_pipe(tmp_path: Path, capsys: Any) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "a.py", "def f():\n    return 1\n")
    commit(repo, "base")
    write(repo, "a.py", "def f():\n    return 2\n")
    code, out, _ = run_cli(capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "i.db"))
    assert code == 0 and "modified" in out and "\x1b" not in out


def test_template_dir_overrides_a_shipped_template(tmp_path: Path, capsys: Any) -> None:
    templates = tmp_path / "tpl"
    templates.mkdir()
    (templates / "diff.txt.j2").write_text("CUSTOM {{ review.changed|length }} {{ review.head }}\n")
    r = Review(base=None, head="worktree")
    assert render(r, "text", template_dir=str(templates)) == "CUSTOM 0 worktree\n"
    assert render(r, "markdown", template_dir=str(templates)).startswith("### crg-review")  # others still shipped
    repo = make_repo(tmp_path / "repo")
    write(repo, "a.py", "def f():\n    return 1\n")
    commit(repo, "base")
    code, out, _ = run_cli(
        capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "i.db"), "--template-dir", str(templates)
    )
    assert (code, out) == (0, "CUSTOM 0 worktree\n")
    code, _, err = run_cli(
        capsys, "diff", "--repo", str(repo), "--db", str(tmp_path / "i.db"), "--template-dir", str(tmp_path / "nope")
    )
    assert code == 1 and "template directory" in err


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_an_empty_review_renders(fmt: str) -> None:
    out = render(Review(base=None, head="staged"), fmt)
    assert "0 changed" in out or "**0**" in out
