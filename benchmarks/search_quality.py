"""Search quality: MRR@10 and recall@10 of each search leg alone and fused, on a real PyPI project.

Queries with known targets:

* **docstring summaries**: the first sentence of the docstrings of ~120 functions, methods and classes of
  the package, chosen deterministically (every n-th candidate with a 4-25 word summary);
* **paraphrases**: hand-written questions in ``benchmarks/search_queries/<project>.json``, worded as a
  reviewer would ask, mostly without the target's words.

The docstrings of every target are deleted from the source before it is committed and indexed, so a query
never meets its own text. The tree is indexed with the real ``crg-review index`` and the search tables are
filled by :func:`crg_review.search.update_search_index`; then each query runs with the lexical leg alone
(FTS5 BM25 + trigram), the vector leg alone, the graph leg alone (neighbours of the lexical and vector top
hits, ranked by hops) and all fused (RRF, boosts).

Usage: ``python benchmarks/search_quality.py [--project rich==13.7.1] [--model fast|quality] [--show-misses]``
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import CACHE_DIR, fetch_sdist, make_git_repo

QUERIES_DIR = Path(__file__).resolve().parent / "search_queries"
N_SUMMARY_QUERIES = 120
#: label -> (legs fused, boosts applied). A leg alone is its own ranking; "fused" is what search returns:
#: RRF over the three legs, then the boosts. The other rows show what the fusion and the boosts each add.
CONFIGS = {
    "lexical": (("lexical",), False),
    "vector": (("vector",), False),
    "graph": (("graph",), False),
    "rrf": (("lexical", "vector", "graph"), False),
    "lexical+boosts": (("lexical",), True),
    "fused": (("lexical", "vector", "graph"), True),
}


@dataclass(frozen=True)
class Case:
    """One query and the symbol it should find (``file`` relative to the repository)."""

    query: str
    file: str
    qualname: str
    source: str  # summary | paraphrase


def _defs(tree: ast.AST) -> list[tuple[str, ast.AST]]:
    """(qualname, node) of every function, method and class, nested ones with dotted qualnames."""
    out: list[tuple[str, ast.AST]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qual = f"{prefix}{child.name}"
                out.append((qual, child))
                visit(child, qual + ".")
            elif not isinstance(child, (ast.Lambda,)):
                visit(child, prefix)

    visit(tree, "")
    return out


def summary(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, on one line."""
    para = " ".join(doc.strip().split("\n\n")[0].split())
    first = para.split(". ")[0].rstrip(".")
    return first


def candidates(src: Path, package: str) -> list[Case]:
    """Every documented definition of ``package`` with a usable summary, in a fixed order."""
    out: list[Case] = []
    for path in sorted((src / package).rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for qual, node in _defs(tree):
            doc = ast.get_docstring(node)  # type: ignore[arg-type]
            name = qual.rsplit(".", 1)[-1]
            if not doc or name.startswith("__") or "<" in qual:
                continue
            s = summary(doc)
            if 4 <= len(s.split()) <= 25 and not s.lower().startswith(("see ", "alias", "deprecated", "same as")):
                out.append(Case(s, rel, qual, "summary"))
    # one query per target; drop summaries shared by several definitions (overloads, copies)
    counts: dict[str, int] = {}
    for c in out:
        counts[c.query.lower()] = counts.get(c.query.lower(), 0) + 1
    return [c for c in out if counts[c.query.lower()] == 1]


def pick(cases: list[Case], n: int) -> list[Case]:
    """Every k-th case, deterministic."""
    step = max(1, len(cases) // n)
    return cases[::step][:n]


def strip_docstrings(repo: Path, targets: set[tuple[str, str]]) -> int:
    """Delete the docstrings of ``targets`` ((file, qualname)) from the work tree; returns how many."""
    by_file: dict[str, set[str]] = {}
    for file, qual in targets:
        by_file.setdefault(file, set()).add(qual)
    removed = 0
    for file, quals in by_file.items():
        path = repo / file
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        spans = []
        for qual, node in _defs(ast.parse(text)):
            body = getattr(node, "body", [])
            if qual in quals and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                first = body[0]
                replacement = None
                if len(body) == 1:
                    replacement = " " * first.col_offset + "pass\n"
                spans.append((first.lineno, first.end_lineno or first.lineno, replacement))
        for start, end, replacement in sorted(spans, reverse=True):
            lines[start - 1 : end] = [replacement] if replacement else []
            removed += 1
        path.write_text("".join(lines), encoding="utf-8")
    return removed


def load_paraphrases(project: str) -> list[Case]:
    """Hand-written queries for ``project`` (a NAME), if the file exists."""
    path = QUERIES_DIR / f"{project}.json"
    if not path.exists():
        return []
    return [Case(q["query"], q["file"], q["qualname"], "paraphrase") for q in json.loads(path.read_text())]


def evaluate(cases: list[Case], run: object, k: int = 10) -> tuple[float, float, list[tuple[Case, int | None]]]:
    """MRR@k and recall@k of ``run(query) -> [(file, qualname), ...]`` over ``cases``."""
    rr = 0.0
    found = 0
    ranks: list[tuple[Case, int | None]] = []
    for case in cases:
        results = run(case.query)  # type: ignore[operator]
        rank = next((i for i, r in enumerate(results[:k], 1) if r == (case.file, case.qualname)), None)
        ranks.append((case, rank))
        if rank is not None:
            rr += 1.0 / rank
            found += 1
    return rr / len(cases), found / len(cases), ranks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--project", default="rich==13.7.1", help="NAME==VERSION of a PyPI sdist (default: %(default)s)"
    )
    parser.add_argument("--package", help="the package directory inside the sdist (default: NAME)")
    parser.add_argument("--model", default="fast", choices=("fast", "quality"))
    parser.add_argument("--show-misses", action="store_true", help="print the queries the fused search misses")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    from crg_review.gitio import Repo
    from crg_review.search import search, update_search_index
    from crg_review.store import Store

    name, version = args.project.split("==")
    src = fetch_sdist(name, version)
    package = args.package or name.replace("-", "_")
    paraphrases = load_paraphrases(name)
    chosen = pick(candidates(src, package), N_SUMMARY_QUERIES)
    taken = {(c.file, c.qualname) for c in chosen}
    cases = chosen + paraphrases
    repo = make_git_repo(src, CACHE_DIR / "search-quality" / f"{name}-{version}")
    removed = strip_docstrings(repo, {(c.file, c.qualname) for c in cases})
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-qam", "strip target docstrings", "--no-verify"],
        check=True,
        env={
            "GIT_AUTHOR_NAME": "b",
            "GIT_AUTHOR_EMAIL": "b@x",
            "GIT_COMMITTER_NAME": "b",
            "GIT_COMMITTER_EMAIL": "b@x",
            "PATH": "/usr/bin:/bin",
        },
    )
    db = repo.parent / f"{name}-{version}-{args.model}.db"
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    crg = Path(sys.executable).with_name("crg-review")
    subprocess.run([str(crg), "index", "--repo", str(repo), "--db", str(db)], check=True)
    store = Store.open(db)
    started = time.perf_counter()
    embedded = update_search_index(store, Repo(repo), model=args.model)
    embed_s = time.perf_counter() - started
    n_symbols = store.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    missing = [
        c
        for c in cases
        if not store.conn.execute(
            "SELECT 1 FROM symbols s JOIN files f ON f.id=s.file_id WHERE f.path=? AND s.qualname=?",
            (c.file, c.qualname),
        ).fetchone()
    ]
    if missing:
        raise SystemExit(f"{len(missing)} target(s) not in the index, e.g. {missing[0]}")

    print(
        f"{args.project}: {n_symbols} symbols, {len(chosen)} summary + {len(paraphrases)} paraphrase queries, "
        f"{removed} target docstrings removed; model {args.model}: {embedded} texts embedded in {embed_s:.1f}s"
    )
    print(f"{'ranking':<15} {'MRR@10':>8} {'R@10':>6} {'MRR@10 sum.':>12} {'MRR@10 para.':>13}")
    figures: dict[str, dict[str, float]] = {}
    misses = []
    for label, (legs, boosts) in CONFIGS.items():

        def run(query: str, legs: tuple[str, ...] = legs, boosts: bool = boosts) -> list[tuple[str, str]]:
            hits = search(store, query, model=args.model, legs=legs, boosts=boosts, limit=10).results
            return [(h.file, h.qualified_name) for h in hits]

        mrr, recall, ranks = evaluate(cases, run)
        parts = {}
        for source in ("summary", "paraphrase"):
            sub = [r for c, r in ranks if c.source == source]
            parts[source] = sum(1.0 / r for r in sub if r) / len(sub) if sub else float("nan")
        figures[label] = {
            "mrr@10": mrr,
            "recall@10": recall,
            "mrr@10_summary": parts["summary"],
            "mrr@10_paraphrase": parts["paraphrase"],
        }
        print(f"{label:<15} {mrr:>8.3f} {recall:>6.3f} {parts['summary']:>12.3f} {parts['paraphrase']:>13.3f}")
        if label == "fused":
            misses = [(c, r) for c, r in ranks if r != 1]
    if args.show_misses:
        for c, r in misses:
            print(f"  rank {r or '-':>2}  [{c.source[:4]}] {c.query!r} -> {c.file}::{c.qualname}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"project": args.project, "model": args.model, "queries": len(cases), "figures": figures}, indent=2
            )
            + "\n"
        )
    del taken
    store.close()


if __name__ == "__main__":
    main()
