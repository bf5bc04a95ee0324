"""CPU time of the stages of one ``crg-review diff --format json`` review: the walks and the rendering alone.

The whole-process figures (perf_incremental.py --diff) mix start-up, the index update and parsing with
the graph walks; this runs the review in a child process (``python -m crg_review``'s own functions, the
index brought up to date first) several times and prints, per stage, the minimum and the median CPU
seconds (``time.process_time``, the cyclic collector paused as the CLI does): ``walk_tests`` (related tests),
``walk_dependants`` (impacted), ``review`` (all of ``review_diff``) and ``render`` (the JSON text).

    python benchmarks/perf_review.py --repo .cache/repos/django-5.0.6-crg [--range HEAD~1..HEAD] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fetch import CACHE_DIR

STAGES = ("walk_tests", "walk_dependants")


def _child(repo: str, db: str | None, spec: str, rounds: int) -> None:
    import functools
    import gc
    import time

    from crg_review import impact
    from crg_review.gitio import DiffSpec
    from crg_review.render import render
    from crg_review.workspace import open_workspace

    spent: dict[str, float] = {}

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - started

        return run

    for name in STAGES:
        setattr(impact, name, timed(name, getattr(impact, name)))
    runs: list[dict[str, float]] = []
    for _ in range(rounds + 1):  # the first one brings the index to the head side: not counted
        spent.clear()
        ws = open_workspace(repo, db)
        gc.disable()
        started = time.process_time()
        review = impact.review_diff(ws, DiffSpec.parse(spec, staged=False))
        reviewed = time.process_time()
        render(review, "json")
        spent["review"] = reviewed - started
        spent["render"] = time.process_time() - reviewed
        gc.enable()
        ws.close()
        runs.append(dict(spent, tests=len(review.tests)))
    print(json.dumps(runs[1:]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=CACHE_DIR / "repos" / "django-5.0.6-crg")
    parser.add_argument("--db", help="index file (default: the repository's own, under its git dir)")
    parser.add_argument("--range", default="HEAD~1..HEAD", help="the diff reviewed (default HEAD~1..HEAD)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(str(args.repo), args.db, args.range, args.rounds)
        return 0
    command = [sys.executable, __file__, "--child", "--repo", str(args.repo), "--range", args.range]
    command += ["--rounds", str(args.rounds), *(["--db", args.db] if args.db else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"review failed ({done.returncode})")
    runs = json.loads(done.stdout.splitlines()[-1])
    print(f"{args.range} on {args.repo}: {int(runs[0]['tests'])} tests, {len(runs)} rounds (CPU seconds)")
    for stage in (*STAGES, "review", "render"):
        values = [r.get(stage, 0.0) for r in runs]
        print(f"  {stage:16} min {min(values):.3f}  median {statistics.median(values):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
