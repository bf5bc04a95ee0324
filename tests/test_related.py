"""Related code in the review: symbols similar to a changed one, neither its callers nor its callees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import commit, make_repo, run_cli, write

TWINS = '''def parse_user_record(line):
    """Split a user record line into its name, email and age fields."""
    name, email, age = line.split(",")
    return {"name": name.strip(), "email": email.strip(), "age": int(age)}


def parse_member_record(line):
    """Split a member record line into its name, email and age fields."""
    name, email, age = line.split(",")
    return {"name": name.strip(), "email": email.strip(), "age": int(age)}


def render_banner(title):
    return "*" * 10 + title + "*" * 10
'''


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "records.py", TWINS)
    commit(repo, "records")
    write(repo, "records.py", TWINS.replace('int(age)}', 'int(age), "kind": "user"}', 1))
    commit(repo, "user kind")
    return repo


def diff_json(capsys: pytest.CaptureFixture[str], repo: Path, db: Path) -> dict[str, object]:
    code, out, err = run_cli(capsys, "diff", "HEAD~1..HEAD", "--format", "json", "--repo", str(repo), "--db", str(db))
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_related_code_lists_the_similar_symbol_once_vectors_exist(
    capsys: pytest.CaptureFixture[str], repo: Path, tmp_path: Path
) -> None:
    db = tmp_path / "i.db"
    assert diff_json(capsys, repo, db)["related"] == []  # no vectors yet: the review loads no model
    code, _, err = run_cli(capsys, "search", "parse record", "--repo", str(repo), "--db", str(db))
    assert code == 0, err
    related = diff_json(capsys, repo, db)["related"]
    assert isinstance(related, list) and related, related
    first = related[0]
    assert first["qualname"] == "parse_member_record" and first["for"] == "parse_user_record"
    assert first["file"] == "records.py" and 0 < first["score"] <= 1
    assert all(r["qualname"] != "parse_user_record" for r in related)  # never the changed symbol itself
    code, text, _ = run_cli(capsys, "diff", "HEAD~1..HEAD", "--repo", str(repo), "--db", str(db))
    assert code == 0 and "related code" in text and "parse_member_record" in text
