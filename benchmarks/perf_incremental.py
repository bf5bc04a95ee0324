"""Wall time of ``crg-review index`` (the whole process) right after a one-function commit.

Works on a repository that already has a full index (perf_index.py leaves one in
``.cache/repos/django-5.0.6-crg``): each round commits one edited function (``fetch.one_function_commit``)
and times one ``crg-review index`` under ``/usr/bin/time -v``, then one more run that finds the index
up to date. With ``--diff``, the command timed is ``crg-review diff HEAD~1..HEAD --format json`` instead
(output discarded): right after the commit it brings the index to HEAD first, the second run finds it
there. Prints every round, then the minimum and median, with the load average before and after.
The rounds add commits to the repository (``git reset --hard`` to a saved commit undoes them).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
from pathlib import Path

from fetch import CACHE_DIR, TimeReport, one_function_commit, run_time_v


def _show(run: TimeReport) -> str:
    return f"{run.seconds:.3f} s (CPU {run.cpu_seconds:.2f} s)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=CACHE_DIR / "repos" / "django-5.0.6-crg")
    parser.add_argument("--prefer", default="django/utils/text.py", help="the file whose function is edited")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--db", help="index file (default: the repository's own, under its git dir)")
    parser.add_argument("--crg", help="crg-review command (default: this python -m crg_review)")
    parser.add_argument("--diff", action="store_true", help="time 'diff HEAD~1..HEAD --format json' instead")
    args = parser.parse_args()
    crg = shlex.split(args.crg) if args.crg else [sys.executable, "-m", "crg_review"]
    where = ["--repo", str(args.repo), *(["--db", args.db] if args.db else [])]
    index = [*crg, "index", *where]
    command = [*crg, "diff", "HEAD~1..HEAD", "--format", "json", "--output", os.devnull, *where] if args.diff else index
    print(f"command: {shlex.join(command)} (cwd {args.repo})")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    run_time_v(index, cwd=args.repo)  # bring the index to the work tree first
    after_commit: list[TimeReport] = []
    up_to_date: list[TimeReport] = []
    for i in range(args.rounds):
        one_function_commit(args.repo, args.prefer)
        after_commit.append(run_time_v(command, cwd=args.repo))
        up_to_date.append(run_time_v(command, cwd=args.repo))
        print(
            f"round {i + 1}: after a one-function commit {_show(after_commit[-1])}, up to date {_show(up_to_date[-1])}"
        )
    for name, runs in (("after a one-function commit", after_commit), ("up to date", up_to_date)):
        wall = [r.seconds for r in runs]
        cpu = [r.cpu_seconds for r in runs]
        print(
            f"{name}: wall min {min(wall):.3f} s, median {statistics.median(wall):.3f} s; "
            f"CPU min {min(cpu):.2f} s, median {statistics.median(cpu):.2f} s ({len(runs)} runs)"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
