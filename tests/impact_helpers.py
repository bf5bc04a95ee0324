"""The sample project and the review helpers the change-impact tests share (test_touched, test_walk, ...)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .helpers import commit, make_repo, run_cli, write

CORE = """\
LIMIT = 10


def leaf(x):
    return x + 1


def mid(x):
    return leaf(x) * 2


def top(x):
    return mid(x) - 1


def api(x):
    return top(x)


class Shape:
    sides = 0

    def area(self):
        return 0

    def describe(self):
        return f"{self.sides}"
"""


STORE = """\
def make_db():
    return {"rows": []}


def connect():
    return object()


def reset():
    return None
"""


CONFTEST = """\
import pytest

from pkg.store import make_db


@pytest.fixture
def db():
    return make_db()
"""


def project(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/core.py", CORE)
    write(repo, "pkg/store.py", STORE)
    write(repo, "tests/__init__.py", "")
    write(repo, "tests/test_chain.py", "from pkg.core import api\n\n\ndef test_api():\n    assert api(1)\n")
    write(repo, "tests/test_other.py", "from pkg import core\n\n\ndef test_unrelated():\n    assert core is not None\n")
    write(repo, "tests/conftest.py", CONFTEST)
    write(repo, "tests/sub/conftest.py", "import pytest\n\n\n@pytest.fixture\ndef db():\n    return {}\n")
    write(repo, "tests/test_uses_db.py", "def test_top(db):\n    assert db\n")
    write(repo, "tests/sub/test_sub_db.py", "def test_sub(db):\n    assert db == {}\n")
    write(
        repo,
        "tests/test_unit.py",
        "import unittest\n\nfrom pkg.store import connect\n\n\nclass TestUnit(unittest.TestCase):\n"
        "    def setUp(self):\n        self.conn = connect()\n\n    def test_a(self):\n        assert self.conn\n",
    )
    write(
        repo,
        "tests/auto/conftest.py",
        "import pytest\n\nfrom pkg.store import reset\n\n\n@pytest.fixture(autouse=True)\ndef clean():\n    reset()\n",
    )
    write(repo, "tests/auto/test_auto.py", "def test_x():\n    assert True\n")
    commit(repo, "base")
    return repo


def review(capsys: Any, repo: Path, *args: str) -> dict[str, Any]:
    code, out, err = run_cli(
        capsys, "diff", "--repo", str(repo), "--db", str(repo.parent / "index.db"), "--format", "json", *args
    )
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def edit(repo: Path, path: str, old: str, new: str) -> None:
    p = repo / path
    text = p.read_text()
    assert old in text, (old, path)
    p.write_text(text.replace(old, new, 1))


def changed(data: dict[str, Any]) -> set[tuple[str, str]]:
    return {(c["qualname"], c["change"]) for c in data["changed"]}


def selected(data: dict[str, Any]) -> dict[str, tuple[int, str]]:
    return {t["nodeid"]: (t["depth"], t["reason"]) for t in data["tests"]}


def impacted(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {i["qualname"]: i for i in data["impacted"]}


def run_pytest(repo: Path, ids: list[str]) -> str:
    """Run the ids ``crg-review tests`` printed with real pytest in ``repo``; its summary (``3 passed``)."""
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *ids],
        cwd=repo, capture_output=True, text=True, check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout.strip().splitlines()[-1].split(" in ")[0]


def rules(data: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(f["rule"], f["file"], f["line"]) for f in data["findings"]]
