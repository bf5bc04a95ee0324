"""Wall and CPU time of ``crg-review diff C~1..C --format json`` for one-line changes of widely used code.

perf_index.py times one change (``capfirst``). A review costs what its walk visits, so this script
takes a copy of a repository that already has a full index (perf_index.py leaves django's in
``.cache/repos/django-5.0.6-crg`` and ``.cache/dbs/django-5.0.6.sqlite``), commits one one-line change
per function named below (``_crg_probe = 1`` as the first body line), and for each commit runs the diff
twice as a whole process: the first run brings the index to the commit, the second is timed with the
index up to date. Prints, per change, the related tests and impacted symbols and the wall / CPU seconds
(min of ``--rounds`` timed runs). ``--crg`` times another build (a schema change needs its own
``--db``: pass a copy made with that build).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from fetch import CACHE_DIR, git, run_time_v

#: (file, qualname) of django 5.0.6 functions that many tests reach, a few that few reach
DJANGO_PROBES = (
    ("django/utils/text.py", "capfirst"),
    ("django/db/models/query.py", "QuerySet.filter"),
    ("django/utils/functional.py", "lazy"),
    ("django/forms/forms.py", "BaseForm.is_valid"),
    ("django/test/testcases.py", "SimpleTestCase.assertContains"),
    ("django/template/base.py", "Template.render"),
    ("django/http/response.py", "HttpResponseBase.set_cookie"),
    ("django/core/validators.py", "validate_ipv4_address"),
)


def _first_body_line(path: Path, qualname: str) -> tuple[int, int]:
    """(line, column) of the first body statement of ``qualname`` after its docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    scope: ast.AST = tree
    for part in qualname.split("."):
        scope = next(
            n
            for n in ast.iter_child_nodes(scope)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part
        )
    body = scope.body  # type: ignore[attr-defined]
    first = (
        body[1]
        if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        else body[0]
    )
    return first.lineno, first.col_offset


def probe_commit(repo: Path, path: str, qualname: str) -> str:
    """Commit ``_crg_probe = 1`` as the first body line of ``qualname``; return the commit id."""
    file = repo / path
    line, col = _first_body_line(file, qualname)
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(line - 1, " " * col + "_crg_probe = 1\n")
    file.write_text("".join(lines), encoding="utf-8")
    git(repo, "commit", "--quiet", "--no-verify", "-am", f"probe: {path}::{qualname}", date="2024-01-03T00:00:00+00:00")
    return git(repo, "rev-parse", "HEAD").strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=CACHE_DIR / "repos" / "django-5.0.6-crg")
    parser.add_argument("--db", type=Path, default=CACHE_DIR / "dbs" / "django-5.0.6.sqlite")
    parser.add_argument("--crg", help="crg-review command (default: this python -m crg_review)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = parser.parse_args()
    crg = shlex.split(args.crg) if args.crg else [sys.executable, "-m", "crg_review"]
    with tempfile.TemporaryDirectory(prefix="crg-wide-") as tmp:
        repo, db = Path(tmp) / "repo", Path(tmp) / "index.db"
        git(Path(tmp), "clone", "--quiet", str(args.repo.resolve()), str(repo))
        shutil.copyfile(args.db, db)
        commits = [(f"{path}::{qual}", probe_commit(repo, path, qual)) for path, qual in DJANGO_PROBES]
        print(f"command: {shlex.join(crg)} diff C~1..C --format json (load {os.getloadavg()[0]:.2f})")
        rows = []
        for label, commit in commits:
            out = Path(tmp) / "review.json"
            cmd = [*crg, "diff", f"{commit}~1..{commit}", "--format", "json", "--repo", str(repo), "--db", str(db)]
            run_time_v([*cmd, "--output", os.devnull], cwd=repo)  # brings the index to the commit
            runs = [run_time_v([*cmd, "--output", str(out)], cwd=repo) for _ in range(args.rounds)]
            review = json.loads(out.read_text(encoding="utf-8"))
            row = {
                "change": label,
                "tests": len(review["tests"]),
                "impacted": len(review["impacted"]),
                "wall": min(r.seconds for r in runs),
                "cpu": min(r.cpu_seconds for r in runs),
            }
            rows.append(row)
            print(
                f"{label}: {row['tests']} tests, {row['impacted']} impacted, wall {row['wall']:.2f} s, CPU {row['cpu']:.2f} s"
            )
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
