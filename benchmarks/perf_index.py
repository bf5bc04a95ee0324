"""Index speed, size and memory of crg-review against code-review-graph on one sdist.

Downloads the project's sdist, commits it into fresh git repositories (one per tool, the
same commit id), times ``crg-review index --full`` and the peer's ``build`` under
``/usr/bin/time -v``, then makes one-function commits and times the incremental
``crg-review index`` and ``crg-review diff HEAD~1..HEAD --format json`` after each.
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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import (  # noqa: E402
    CACHE_DIR,
    Timing,
    fetch_sdist,
    make_git_repo,
    make_venv,
    one_function_commit,
    peak_rss_and_wall,
    timed,
)

PEER = "code-review-graph"
PEER_VERSION = "2.3.9"
#: a function to touch per project, so runs edit the same place; others: first suitable file
PREFERRED_FILE = {"django": "django/utils/text.py"}

MB = 1024  # GNU time reports KiB
TARGET_BUILD_RATIO = 0.2
TARGET_DB_RATIO = 0.2
TARGET_PEAK_KB = 300 * MB
TARGET_INCREMENTAL_S = 0.25
TARGET_DIFF_S = 0.3


@dataclass
class ToolRun:
    """Figures for one tool on one tree."""

    build_s: float = 0.0
    build_peak_kb: int = 0
    db_bytes: int = 0
    update_s: list[float] = field(default_factory=list)
    update_peak_kb: list[int] = field(default_factory=list)
    diff_s: list[float] = field(default_factory=list)
    diff_peak_kb: list[int] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


def db_size(path: Path) -> int:
    """Bytes of an SQLite database together with its -wal / -shm side files."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists())


def remove_db(path: Path) -> None:
    """Delete an SQLite database and its side files, if present."""
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


def check_crg(crg: Sequence[str]) -> None:
    """Fail early, with what to do, if the crg-review command does not run."""
    seconds, done = timed([*crg, "--help"])
    if done.returncode != 0:
        raise SystemExit(
            f"`{shlex.join(crg)} --help` failed ({done.returncode}):\n{done.stderr.strip()}\n"
            "Install crg-review into this interpreter or pass --crg 'PATH/TO/crg-review'."
        )


def crg_json(crg: Sequence[str], *args: str, cwd: Path) -> Any:
    """Run a crg-review command that prints JSON on stdout and return it parsed."""
    done = subprocess.run([*crg, *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join([*crg, *args])} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def run_crg(crg: Sequence[str], repo: Path, db: Path, touches: int, prefer: str | None) -> ToolRun:
    """Full index, stats, then `touches` rounds of one-function commit + incremental index + diff."""
    loc = ["--repo", str(repo), "--db", str(db)]
    remove_db(db)
    db.parent.mkdir(parents=True, exist_ok=True)
    run = ToolRun()
    full = peak_rss_and_wall([*crg, "index", "--full", *loc], cwd=repo)
    run.build_s, run.build_peak_kb = full
    run.db_bytes = db_size(db)
    run.stats = crg_json(crg, "stats", "--format", "json", *loc, cwd=repo)
    for _ in range(touches):
        one_function_commit(repo, prefer)
        update = peak_rss_and_wall([*crg, "index", *loc], cwd=repo)
        run.update_s.append(update.seconds)
        run.update_peak_kb.append(update.peak_kb)
        diff = peak_rss_and_wall([*crg, "diff", "HEAD~1..HEAD", "--format", "json", *loc], cwd=repo)
        run.diff_s.append(diff.seconds)
        run.diff_peak_kb.append(diff.peak_kb)
    return run


def peer_env() -> dict[str, str]:
    """Environment for the peer: a private HOME, so a user's peer registry cannot redirect its DB."""
    home = CACHE_DIR / "peer-home"
    home.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home)}


def offline_prefix() -> list[str]:
    """``unshare -n`` (no network) when it works here, to prove the peer runs offline."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"]).returncode == 0:
        return ["unshare", "-n"]
    print("note: cannot run the peer without network (unshare -n); running it as is", file=sys.stderr)
    return []


def run_peer(version: str, repo: Path, touches: int, prefer: str | None) -> ToolRun:
    """The peer's default ``build``, its DB size, then `touches` rounds of commit + ``update``
    + ``detect-changes`` (its nearest command to ``diff``)."""
    py = make_venv(CACHE_DIR / "peer-venv", f"{PEER}=={version}")
    exe = str(py.parent / PEER)
    env, offline = peer_env(), offline_prefix()
    db = repo / ".code-review-graph" / "graph.db"
    run = ToolRun()
    run.build_s, run.build_peak_kb = peak_rss_and_wall(
        [*offline, exe, "build", "--repo", str(repo), "--quiet"], cwd=repo, env=env
    )
    run.db_bytes = db_size(db)
    for _ in range(touches):
        one_function_commit(repo, prefer)
        update = peak_rss_and_wall([*offline, exe, "update", "--repo", str(repo), "--quiet"],
                                   cwd=repo, env=env)
        run.update_s.append(update.seconds)
        run.update_peak_kb.append(update.peak_kb)
        diff = peak_rss_and_wall(
            [*offline, exe, "detect-changes", "--repo", str(repo), "--base", "HEAD~1"],
            cwd=repo, env=env,
        )
        run.diff_s.append(diff.seconds)
        run.diff_peak_kb.append(diff.peak_kb)
    return run


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "MB":
        return f"{value / MB:.1f} MB"
    return f"{value / 1e6:.1f} MB"  # bytes, decimal MB


def _ratio(ours: float | None, theirs: float | None) -> str:
    return f"{ours / theirs:.3f}x" if ours is not None and theirs else "-"


def rows(ours: ToolRun | None, peer: ToolRun | None) -> list[tuple[str, str, str, str, str]]:
    """Table rows: metric, crg-review, peer, ratio, target."""
    def pick(run: ToolRun | None, attr: str) -> float | None:
        if run is None:
            return None
        value = getattr(run, attr)
        return (_median(value) if value else None) if isinstance(value, list) else value

    def peak(run: ToolRun | None, attr: str) -> float | None:
        return max(getattr(run, attr)) if run and getattr(run, attr) else None

    spec = [
        ("full index wall", "build_s", "s", f"<= {TARGET_BUILD_RATIO}x peer"),
        ("full index peak RSS", "build_peak_kb", "MB", f"<= {TARGET_PEAK_KB // MB} MB"),
        ("database size", "db_bytes", "B", f"<= {TARGET_DB_RATIO}x peer"),
        ("incremental wall (median)", "update_s", "s", f"<= {TARGET_INCREMENTAL_S} s"),
        ("diff wall (median)", "diff_s", "s", f"<= {TARGET_DIFF_S} s"),
    ]
    table = []
    for label, attr, unit, target in spec:
        a, b = pick(ours, attr), pick(peer, attr)
        table.append((label, _fmt(a, unit), _fmt(b, unit), _ratio(a, b), target))
    for label, attr in (("incremental peak RSS (max)", "update_peak_kb"), ("diff peak RSS (max)", "diff_peak_kb")):
        a, b = peak(ours, attr), peak(peer, attr)
        table.append((label, _fmt(a, "MB"), _fmt(b, "MB"), _ratio(a, b), f"<= {TARGET_PEAK_KB // MB} MB"))
    return table


def verdicts(ours: ToolRun, peer: ToolRun | None) -> dict[str, bool | None]:
    """Each target met (True), missed (False), or not measurable without the peer (None)."""
    peak = max([ours.build_peak_kb, *ours.update_peak_kb, *ours.diff_peak_kb])
    return {
        "build_ratio": ours.build_s <= TARGET_BUILD_RATIO * peer.build_s if peer else None,
        "db_ratio": ours.db_bytes <= TARGET_DB_RATIO * peer.db_bytes if peer else None,
        "peak_rss": peak <= TARGET_PEAK_KB,
        "incremental": max(ours.update_s, default=0.0) <= TARGET_INCREMENTAL_S,
        "diff": max(ours.diff_s, default=0.0) <= TARGET_DIFF_S,
    }


def print_table(table: list[tuple[str, str, str, str, str]], peer_label: str) -> None:
    """Print the rows as an aligned plain-text table."""
    header = ("metric", "crg-review", peer_label, "ratio", "target")
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(len(header))]
    for r in [header, *table]:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", default="django==5.0.6", help="NAME==VERSION of the sdist (default: %(default)s)")
    parser.add_argument("--skip-peer", action="store_true", help=f"do not install and time {PEER}")
    parser.add_argument("--peer-version", default=PEER_VERSION, help="peer version (default: %(default)s)")
    parser.add_argument("--crg", help="crg-review command (default: this python -m crg_review)")
    parser.add_argument("--touches", type=int, default=3,
                        help="one-function commits, each followed by a timed update and diff (default: 3)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the figures as JSON to OUT")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    crg = shlex.split(args.crg) if args.crg else [sys.executable, "-m", "crg_review"]
    check_crg(crg)
    name, version = args.project.split("==")
    prefer = PREFERRED_FILE.get(name.lower())
    src = fetch_sdist(name, version)
    tag = f"{name}-{version}"

    ours_repo = make_git_repo(src, CACHE_DIR / "repos" / f"{tag}-crg")
    ours = run_crg(crg, ours_repo, CACHE_DIR / "dbs" / f"{tag}.sqlite", args.touches, prefer)
    peer = None
    if not args.skip_peer:
        peer = run_peer(args.peer_version, make_git_repo(src, CACHE_DIR / "repos" / f"{tag}-peer"),
                        args.touches, prefer)

    print(f"{args.project}: {ours.stats.get('files')} files, {ours.stats.get('symbols')} symbols, "
          f"{ours.stats.get('edges')} edges (crg-review stats)")
    print_table(rows(ours, peer), f"{PEER} {args.peer_version}")
    print("peer's incremental row is `update`, its diff row `detect-changes --base HEAD~1`")
    met = verdicts(ours, peer)
    print("targets: " + ", ".join(f"{k}={'-' if v is None else ('met' if v else 'MISSED')}" for k, v in met.items()))
    if args.json:
        args.json.write_text(json.dumps(
            {"project": args.project, "crg_review": asdict(ours),
             "peer": {"name": PEER, "version": args.peer_version, **asdict(peer)} if peer else None,
             "targets": met}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
