"""Search speed on a real project (django by default): embedding cost of an index, search latency.

Prints:

* ``index``: wall time of ``crg-review index --full`` (no embeddings);
* ``search tables``: wall time of a process that fills the search tables of that index (trigram,
  symbol texts, vectors of the default ``fast`` model) with :func:`crg_review.search.update_search_index`,
  and the ratio ``(index + search tables) / index`` (target <= 1.3);
* ``in-process search``: p50 / p90 of one :func:`crg_review.search.search` call, model and vectors
  loaded (after one warm-up search), over identifier and natural-language queries (target p50 <= 10 ms);
* ``crg-review search``: p50 wall time of the whole command, a new process each time (target <= 0.5 s).

Usage: ``python benchmarks/search_speed.py [--project django==5.0.6 | --repo DIR] [--model fast] [--json FILE]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import CACHE_DIR, fetch_sdist, make_git_repo

QUERIES = {
    "identifier": [
        "QuerySet.filter",
        "get_object_or_404",
        "HttpResponseRedirect",
        "slugify",
        "csrf_exempt",
        "ModelAdmin.get_queryset",
        "reverse_lazy",
        "EmailMessage.send",
        "parse_datetime",
        "makemigrations",
        "SessionBase",
        "cached_property",
        "Paginator.page",
        "render_to_string",
        "make_password",
    ],
    "natural language": [
        "validate an email address",
        "send an email to the site admins",
        "parse a date from a string",
        "hash a password with a salt",
        "split a list of objects into pages",
        "render a template to a string",
        "store uploaded files on disk",
        "cache the response of a view",
        "sign a value with the secret key",
        "create database tables from migrations",
        "escape html in user input",
        "translate a message into the active language",
        "redirect to the login page when the user is not authenticated",
        "compress the response with gzip",
        "check that a url is safe to redirect to",
    ],
}


def wall(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Run ``cmd``; return (seconds, stdout). Fails loudly on a non-zero exit."""
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return seconds, done.stdout


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


UPDATE = """
import sys, time
t0 = time.perf_counter()
from crg_review.gitio import Repo
from crg_review.search import update_search_index
from crg_review.store import Store
from pathlib import Path
store = Store.open(Path(sys.argv[1]))
n = update_search_index(store, Repo(sys.argv[2]), model=sys.argv[3])
store.close()
print(n, time.perf_counter() - t0)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--project", default="django==5.0.6", help="NAME==VERSION of a PyPI sdist (default: %(default)s)"
    )
    parser.add_argument("--repo", type=Path, help="use this git repository instead of the sdist")
    parser.add_argument("--model", default="fast", choices=("fast", "quality"))
    parser.add_argument("--repeat", type=int, default=5, help="in-process runs of each query (default 5)")
    parser.add_argument("--processes", type=int, default=10, help="whole-process searches (default 10)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()

    if args.repo:
        repo = args.repo.resolve()
        label = repo.name
    else:
        name, version = args.project.split("==")
        repo = make_git_repo(fetch_sdist(name, version), CACHE_DIR / "search-speed" / f"{name}-{version}")
        label = args.project
    db = CACHE_DIR / "search-speed" / f"{repo.name}.db"
    db.parent.mkdir(parents=True, exist_ok=True)
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    crg = str(Path(sys.executable).with_name("crg-review"))
    env = {**os.environ, "CRG_REVIEW_EMBED_MODEL": args.model}

    load_before = os.getloadavg()[0]
    index_s, _ = wall([crg, "index", "--full", "--repo", str(repo), "--db", str(db)], env)
    update_s, out = wall([sys.executable, "-c", UPDATE, str(db), str(repo), args.model], env)
    embedded, inner_s = out.split()
    ratio = (index_s + update_s) / index_s

    from crg_review.gitio import Repo
    from crg_review.search import search
    from crg_review.store import Store

    store = Store.open(db)
    n_symbols = store.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    gitrepo = Repo(repo)
    search(store, "warm up", repo=gitrepo, model=args.model)
    latencies: dict[str, list[float]] = {}
    cpu_ms: list[float] = []  # CPU time of the searching thread: what an idle machine would take
    for kind, queries in QUERIES.items():
        for _ in range(args.repeat):
            for q in queries:
                started, cpu = time.perf_counter(), time.thread_time()
                search(store, q, repo=gitrepo, model=args.model)
                latencies.setdefault(kind, []).append((time.perf_counter() - started) * 1000)
                cpu_ms.append((time.thread_time() - cpu) * 1000)
    everything = [x for v in latencies.values() for x in v]
    store.close()

    process_s: list[float] = []
    queries = [q for qs in QUERIES.values() for q in qs]
    for i in range(args.processes):
        q = queries[(i * 7) % len(queries)]
        seconds, _ = wall([crg, "search", q, "--repo", str(repo), "--db", str(db)], env)
        process_s.append(seconds)

    print(
        f"{label}: {n_symbols} symbols, model {args.model}, {os.cpu_count()} CPUs, load average before / after "
        f"{load_before:.2f} / {os.getloadavg()[0]:.2f} (other processes slow every figure down)"
    )
    print(f"index --full (no embeddings)  {index_s:7.2f} s")
    print(
        f"search tables ({embedded} texts)   {update_s:7.2f} s  (in-process {float(inner_s):.2f} s)"
        f"   ratio {ratio:.2f}  (target <= 1.3)"
    )
    for kind, values in latencies.items():
        print(
            f"in-process search, {kind:<16} p50 {statistics.median(values):6.2f} ms  p90 {percentile(values, 0.9):6.2f} ms"
        )
    print(
        f"in-process search, all              p50 {statistics.median(everything):6.2f} ms  "
        f"p90 {percentile(everything, 0.9):6.2f} ms  (target p50 <= 10 ms)"
    )
    print(
        f"in-process search, CPU time         p50 {statistics.median(cpu_ms):6.2f} ms  p90 {percentile(cpu_ms, 0.9):6.2f} ms"
    )
    print(
        f"crg-review search (process)         p50 {statistics.median(process_s):6.3f} s   "
        f"max {max(process_s):.3f} s  (target <= 0.5 s)"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "project": label,
                    "symbols": n_symbols,
                    "model": args.model,
                    "index_s": index_s,
                    "search_tables_s": update_s,
                    "ratio": ratio,
                    "search_ms_p50": statistics.median(everything),
                    "search_cpu_ms_p50": statistics.median(cpu_ms),
                    "search_ms_p90": percentile(everything, 0.9),
                    "process_s_p50": statistics.median(process_s),
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
