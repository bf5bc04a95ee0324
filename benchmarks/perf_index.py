"""Index speed, size and memory of crg-review against code-review-graph on one sdist.

Downloads the project's sdist, commits it into fresh git repositories (one per tool, the
same commit id), times ``crg-review index --full`` and the peer's ``build`` under
``/usr/bin/time -v``, then makes one-function commits and times, after each, the incremental
``crg-review index`` and ``crg-review diff HEAD~1..HEAD --format json`` (the peer: ``update``
and ``detect-changes --base HEAD~1``). Every figure is one whole process: start-up included.
Prints a table, the ratios and the targets; ``--json`` also writes them to a file.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import (
    CACHE_DIR,
    TimeReport,
    fetch_sdist,
    make_git_repo,
    make_venv,
    one_function_commit,
    run_time_v,
    timed,
)

PEER = "code-review-graph"
PEER_VERSION = "2.3.9"
#: a function to touch per project, so runs edit the same place; others: first suitable file
PREFERRED_FILE = {"django": "django/utils/text.py"}

KIB = 1024  # GNU time reports KiB; sizes are printed in MiB
TARGET_BUILD_RATIO = 0.2
TARGET_DB_RATIO = 0.2
TARGET_PEAK_KB = 300 * KIB
TARGET_INCREMENTAL_S = 0.25
TARGET_DIFF_S = 0.3


@dataclass
class ToolRun:
    """Figures for one tool on one tree: the full build, then one update and diff per commit."""

    build: TimeReport
    db_bytes: int
    updates: list[TimeReport] = field(default_factory=list)
    diffs: list[TimeReport] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "build": self.build._asdict(),
            "db_bytes": self.db_bytes,
            "updates": [u._asdict() for u in self.updates],
            "diffs": [d._asdict() for d in self.diffs],
            "stats": self.stats,
        }


def db_size(path: Path) -> int:
    """Bytes of an SQLite database together with its -wal / -shm side files."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists())


def remove_db(path: Path) -> None:
    """Delete an SQLite database and its side files, if present."""
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


def check_crg(crg: Sequence[str]) -> None:
    """Fail early, with what to do, if the crg-review command does not run."""
    _, done = timed([*crg, "--help"])
    if done.returncode != 0:
        raise SystemExit(
            f"`{shlex.join(crg)} --help` failed ({done.returncode}):\n{done.stderr.strip()}\n"
            "Install crg-review into this interpreter or pass --crg 'PATH/TO/crg-review'."
        )


def has_command(crg: Sequence[str], name: str) -> bool:
    """Whether this crg-review build has the sub-command (``diff`` came after ``index``)."""
    return timed([*crg, name, "--help"])[1].returncode == 0


def crg_json(crg: Sequence[str], *args: str, cwd: Path) -> Any:
    """Run a crg-review command that prints JSON on stdout and return it parsed."""
    done = subprocess.run([*crg, *args], check=False, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join([*crg, *args])} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def run_crg(crg: Sequence[str], repo: Path, db: Path, touches: int, prefer: str | None) -> ToolRun:
    """Full index and stats, then `touches` rounds of one-function commit + index + diff."""
    loc = ["--repo", str(repo), "--db", str(db)]
    remove_db(db)
    db.parent.mkdir(parents=True, exist_ok=True)
    with_diff = has_command(crg, "diff")
    if not with_diff:
        print("note: this crg-review has no `diff` command yet; diff not timed", file=sys.stderr)
    run = ToolRun(run_time_v([*crg, "index", "--full", *loc], cwd=repo), 0)
    run.db_bytes = db_size(db)
    run.stats = crg_json(crg, "stats", "--format", "json", *loc, cwd=repo)
    for _ in range(touches):
        one_function_commit(repo, prefer)
        run.updates.append(run_time_v([*crg, "index", *loc], cwd=repo))
        if with_diff:
            run.diffs.append(run_time_v([*crg, "diff", "HEAD~1..HEAD", "--format", "json", *loc], cwd=repo))
    return run


def peer_env() -> dict[str, str]:
    """Environment for the peer: a private HOME, so a user's peer registry cannot redirect its DB."""
    home = CACHE_DIR / "peer-home"
    home.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home)}


def offline_prefix() -> list[str]:
    """``unshare -n`` (no network) when it works here, to prove the peer runs offline."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"], check=False).returncode == 0:
        return ["unshare", "-n"]
    print("note: cannot run the peer without network (unshare -n); running it as is", file=sys.stderr)
    return []


def run_peer(version: str, repo: Path, touches: int, prefer: str | None) -> ToolRun:
    """The peer's default ``build`` and DB size (``<repo>/.code-review-graph/graph.db``), then
    `touches` rounds of commit + ``update`` + ``detect-changes`` (its nearest to ``diff``)."""
    exe = str(make_venv(CACHE_DIR / "peer-venv", f"{PEER}=={version}").parent / PEER)
    env, offline = peer_env(), offline_prefix()

    def peer(*args: str) -> TimeReport:
        return run_time_v([*offline, exe, *args, "--repo", str(repo)], cwd=repo, env=env)

    run = ToolRun(peer("build", "--quiet"), 0)
    run.db_bytes = db_size(repo / ".code-review-graph" / "graph.db")
    for _ in range(touches):
        one_function_commit(repo, prefer)
        run.updates.append(peer("update", "--quiet"))
        run.diffs.append(peer("detect-changes", "--base", "HEAD~1"))
    return run


Metric = Callable[[ToolRun], float | None]


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


METRICS: list[tuple[str, str, Metric, str]] = [
    ("full index wall", "s", lambda r: r.build.seconds, f"<= {TARGET_BUILD_RATIO}x peer"),
    ("full index CPU (user+sys)", "s", lambda r: r.build.cpu_seconds, ""),
    ("full index peak RSS", "KiB", lambda r: r.build.peak_kb, f"<= {TARGET_PEAK_KB // KIB} MiB"),
    ("database size", "B", lambda r: r.db_bytes, f"<= {TARGET_DB_RATIO}x peer"),
    (
        "incremental wall (median)",
        "s",
        lambda r: _median([u.seconds for u in r.updates]),
        f"<= {TARGET_INCREMENTAL_S} s",
    ),
    (
        "incremental wall (max)",
        "s",
        lambda r: max((u.seconds for u in r.updates), default=None),
        f"<= {TARGET_INCREMENTAL_S} s",
    ),
    ("incremental CPU (median)", "s", lambda r: _median([u.cpu_seconds for u in r.updates]), ""),
    (
        "incremental peak RSS (max)",
        "KiB",
        lambda r: max((u.peak_kb for u in r.updates), default=None),
        f"<= {TARGET_PEAK_KB // KIB} MiB",
    ),
    ("diff wall (median)", "s", lambda r: _median([d.seconds for d in r.diffs]), f"<= {TARGET_DIFF_S} s"),
    ("diff wall (max)", "s", lambda r: max((d.seconds for d in r.diffs), default=None), f"<= {TARGET_DIFF_S} s"),
    (
        "diff peak RSS (max)",
        "KiB",
        lambda r: max((d.peak_kb for d in r.diffs), default=None),
        f"<= {TARGET_PEAK_KB // KIB} MiB",
    ),
]


def _fmt(value: float | None, unit: str) -> str:
    """Seconds as seconds; KiB (from GNU time) and bytes as MiB."""
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:.3f} s"
    mib = value / KIB if unit == "KiB" else value / KIB / KIB
    return f"{mib:.1f} MiB" if mib >= 10 else f"{mib:.3f} MiB"


def table(ours: ToolRun | None, peer: ToolRun | None) -> list[tuple[str, str, str, str, str]]:
    """Rows: metric, crg-review, peer, ratio crg-review/peer, target."""
    rows = []
    for label, unit, metric, target in METRICS:
        a = metric(ours) if ours else None
        b = metric(peer) if peer else None
        ratio = f"{a / b:.3f}x" if a is not None and b else "-"
        rows.append((label, _fmt(a, unit), _fmt(b, unit), ratio, target))
    return rows


def verdicts(ours: ToolRun, peer: ToolRun | None) -> dict[str, bool | None]:
    """Each target met (True), missed (False), or not measured (None). Times: the worst run."""
    peak = max([ours.build.peak_kb, *(u.peak_kb for u in ours.updates), *(d.peak_kb for d in ours.diffs)])
    return {
        "build_ratio": ours.build.seconds <= TARGET_BUILD_RATIO * peer.build.seconds if peer else None,
        "db_ratio": ours.db_bytes <= TARGET_DB_RATIO * peer.db_bytes if peer else None,
        "peak_rss": peak <= TARGET_PEAK_KB,
        "incremental": max(u.seconds for u in ours.updates) <= TARGET_INCREMENTAL_S if ours.updates else None,
        "diff": max(d.seconds for d in ours.diffs) <= TARGET_DIFF_S if ours.diffs else None,
    }


def print_table(rows: list[tuple[str, str, str, str, str]], peer_label: str) -> None:
    """Print the rows as an aligned plain-text table."""
    header = ("metric", "crg-review", peer_label, "ratio", "target")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", default="django==5.0.6", help="NAME==VERSION of the sdist (default: %(default)s)")
    parser.add_argument("--crg", help="crg-review command (default: this python -m crg_review)")
    parser.add_argument("--skip-peer", action="store_true", help=f"do not install and time {PEER}")
    parser.add_argument("--skip-crg", action="store_true", help="time the peer only")
    parser.add_argument("--peer-version", default=PEER_VERSION, help="peer version (default: %(default)s)")
    parser.add_argument(
        "--touches",
        type=int,
        default=3,
        help="one-function commits, each followed by a timed update and diff (default: 3)",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the figures as JSON to OUT")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    crg = shlex.split(args.crg) if args.crg else [sys.executable, "-m", "crg_review"]
    if not args.skip_crg:
        check_crg(crg)
    name, version = args.project.split("==")
    prefer = PREFERRED_FILE.get(name.lower())
    src = fetch_sdist(name, version)
    tag = f"{name}-{version}"

    ours = peer = None
    if not args.skip_crg:
        repo = make_git_repo(src, CACHE_DIR / "repos" / f"{tag}-crg")
        ours = run_crg(crg, repo, CACHE_DIR / "dbs" / f"{tag}.sqlite", args.touches, prefer)
        s = ours.stats
        print(
            f"{args.project}: crg-review indexed {s.get('files')} files, {s.get('symbols')} symbols, "
            f"{s.get('edges')} edges"
        )
    if not args.skip_peer:
        repo = make_git_repo(src, CACHE_DIR / "repos" / f"{tag}-peer")
        peer = run_peer(args.peer_version, repo, args.touches, prefer)
    print_table(table(ours, peer), f"{PEER} {args.peer_version}")
    if peer:
        print(f"({PEER}: `build` with default post-processing, `update`, `detect-changes --base HEAD~1`)")
    met = verdicts(ours, peer) if ours else {}
    if met:
        print(
            "targets: " + ", ".join(f"{k} {'-' if v is None else ('met' if v else 'MISSED')}" for k, v in met.items())
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "project": args.project,
                    "crg_review": ours.as_json() if ours else None,
                    "peer": {"name": PEER, "version": args.peer_version, **peer.as_json()} if peer else None,
                    "targets": met,
                },
                indent=2,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
