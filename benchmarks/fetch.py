"""Shared helpers for the benchmark scripts: fetch an sdist, commit it, time a command.

Everything downloaded or built lands in ``benchmarks/.cache/`` (gitignored). The only
network use is ``pip download`` from the package index pip is configured with.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "CACHE_DIR",
    "TimeReport",
    "Timing",
    "fetch_sdist",
    "git",
    "make_git_repo",
    "make_venv",
    "one_function_commit",
    "peak_rss_and_wall",
    "run_time_v",
    "timed",
]

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
TIME_BIN = Path("/usr/bin/time")

#: fixed identity and dates so the same sdist always gives the same commit ids
GIT_ENV = {
    "GIT_AUTHOR_NAME": "crg-bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "crg-bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}

#: the statement one_function_commit inserts; harmless, and easy to grep for
BENCH_STATEMENT = "_crg_bench = 1"


class Timing(NamedTuple):
    """Wall-clock seconds and peak resident set size of one process run under /usr/bin/time."""

    seconds: float
    peak_kb: int


class TimeReport(NamedTuple):
    """Timing plus CPU seconds (user + system): steadier than wall time on a busy machine."""

    seconds: float
    peak_kb: int
    cpu_seconds: float


def git(repo: Path, *args: str, date: str | None = None) -> str:
    """Run ``git -C repo args...`` with the fixed identity; return stdout."""
    env = {**os.environ, **GIT_ENV}
    if date is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True, text=True)
    return done.stdout


def _sdist_archive(name: str, version: str, cache: Path) -> Path:
    """Download (once) the sdist archive of name==version into cache; return its path."""
    pattern = re.compile(
        rf"^{re.sub(r'[-_.]+', '[-_.]+', name)}-{re.escape(version)}\.(tar\.gz|zip|tar\.bz2)$", re.IGNORECASE
    )
    found = [p for p in cache.iterdir() if pattern.match(p.name)] if cache.is_dir() else []
    if not found:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"{name}=={version}",
                "-d",
                str(cache),
            ],
            check=True,
        )
        found = [p for p in cache.iterdir() if pattern.match(p.name)]
    if not found:
        raise SystemExit(f"pip download gave no sdist for {name}=={version} in {cache}")
    return found[0]


def _extract(archive: Path, dest: Path) -> Path:
    """Extract archive into dest; return the single top-level directory it holds."""
    dest.mkdir(parents=True, exist_ok=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(dest, filter="data")
    entries = list(dest.iterdir())
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else dest


def fetch_sdist(name: str, version: str, dest: Path | None = None) -> Path:
    """Download name==version's sdist via pip (cached) and extract it; return the source root.

    ``dest`` defaults to ``.cache/src/NAME-VERSION``; an existing extraction is reused.
    """
    target = dest or CACHE_DIR / "src" / f"{name}-{version}"
    if target.is_dir() and any(target.iterdir()):
        entries = list(target.iterdir())
        return entries[0] if len(entries) == 1 and entries[0].is_dir() else target
    archive = _sdist_archive(name, version, CACHE_DIR / "sdists")
    return _extract(archive, target)


def make_git_repo(src_dir: Path, dest: Path) -> Path:
    """Copy src_dir to a fresh dest (replacing it) and commit everything in one reproducible commit."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src_dir, dest, symlinks=True)
    git(dest, "init", "--quiet", "--initial-branch=main")
    git(dest, "add", "--all", "--force")
    git(dest, "commit", "--quiet", "--no-verify", "-m", f"import {src_dir.name}")
    return dest


def _first_body_line(tree: ast.Module) -> tuple[int, int] | None:
    """(line, column) of the first body statement of the first function in ``ast.walk`` order
    (breadth first: top-level functions before methods), if any.

    A body whose first statement shares the ``def`` line (``def f(): pass``) or that is only a
    docstring is skipped; a docstring is stepped over.
    """
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
        if first is body[0] and _is_docstring(first):
            continue
        if first.lineno > node.lineno and first.col_offset > node.col_offset:
            return first.lineno, first.col_offset
    return None


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _candidate_files(repo: Path, prefer: str | None) -> list[Path]:
    """Tracked .py files, the preferred one first, then the rest sorted by path (not tests)."""
    tracked = [repo / p for p in git(repo, "ls-files", "*.py").splitlines()]
    files = sorted(p for p in tracked if "test" not in p.relative_to(repo).as_posix())
    if prefer:
        files.sort(key=lambda p: p.relative_to(repo).as_posix() != prefer)
    return files


def one_function_commit(repo: Path, prefer: str | None = None) -> str:
    """Insert ``_crg_bench = 1`` as the first body line of one function and commit it.

    Picks the first function (``ast.walk`` order) of ``prefer`` (a repo-relative path) or else
    of the first suitable tracked non-test .py file. Returns the repo-relative path edited.
    """
    for path in _candidate_files(repo, prefer):
        text = path.read_bytes().decode("utf-8")  # its own line endings kept
        try:
            spot = _first_body_line(ast.parse(text))
        except SyntaxError:
            continue
        if spot is None:
            continue
        line, col = spot
        lines = text.splitlines(keepends=True)
        ending = lines[line - 1][len(lines[line - 1].rstrip("\r\n")) :] or "\n"
        lines.insert(line - 1, " " * col + BENCH_STATEMENT + ending)
        path.write_text("".join(lines), encoding="utf-8", newline="")
        rel = path.relative_to(repo).as_posix()
        git(
            repo,
            "commit",
            "--quiet",
            "--no-verify",
            "-am",
            f"bench: touch one function in {rel}",
            date="2024-01-02T00:00:00+00:00",
        )
        return rel
    raise SystemExit(f"no function to edit in {repo}")


def _parse_time_v(report: str) -> TimeReport:
    """Read wall clock, CPU time and max RSS out of GNU time's ``-v`` report."""
    found = {}
    for key, pattern in (
        ("wall", r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)"),
        ("rss", r"Maximum resident set size \(kbytes\): (\d+)"),
        ("user", r"User time \(seconds\): ([\d.]+)"),
        ("sys", r"System time \(seconds\): ([\d.]+)"),
    ):
        match = re.search(pattern, report)
        if not match:
            raise RuntimeError(f"could not read /usr/bin/time -v output:\n{report}")
        found[key] = match.group(1)
    seconds = 0.0
    for part in found["wall"].split(":"):
        seconds = seconds * 60 + float(part)
    return TimeReport(seconds, int(found["rss"]), float(found["user"]) + float(found["sys"]))


def run_time_v(cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> TimeReport:
    """Run cmd under ``/usr/bin/time -v``; return wall seconds, peak KiB and CPU seconds.

    Wall time is measured here with ``perf_counter`` (GNU time prints only centiseconds);
    the peak RSS is GNU time's, i.e. the largest of the process and its waited-for children.
    Stops the script, showing the output, if cmd fails.
    """
    if not TIME_BIN.exists():
        raise SystemExit("/usr/bin/time is missing: apt-get install -y time")
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        seconds, done = timed([str(TIME_BIN), "-v", "-o", report.name, *cmd], cwd=cwd, env=env)
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
            raise SystemExit(f"command failed ({done.returncode}): {' '.join(cmd)}")
        parsed = _parse_time_v(report.read())
    return parsed._replace(seconds=seconds)


def peak_rss_and_wall(cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> Timing:
    """Run cmd under ``/usr/bin/time -v``; return (seconds, peak_kb). Fails if cmd fails."""
    report = run_time_v(cmd, cwd=cwd, env=env)
    return Timing(report.seconds, report.peak_kb)


def timed(
    cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None
) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run cmd capturing output; return (wall seconds, completed process)."""
    start = time.perf_counter()
    done = subprocess.run(list(cmd), check=False, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, done


def make_venv(dest: Path, *requirements: str, python: str = sys.executable) -> Path:
    """Create a venv at dest (once) and pip-install requirements into it; return its python."""
    py = dest / "bin" / "python"
    if not py.exists():
        subprocess.run([python, "-m", "venv", str(dest)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    if requirements:
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", *requirements], check=True)
    return py


def _main() -> None:
    parser = argparse.ArgumentParser(
        description="Fetch an sdist and commit it into a fresh git repo (helpers for the benchmarks)."
    )
    parser.add_argument("project", help="NAME==VERSION, e.g. django==5.0.6")
    parser.add_argument(
        "--repo", type=Path, help="where to make the git repo (default: benchmarks/.cache/repos/NAME-VERSION)"
    )
    parser.add_argument("--touch", action="store_true", help="also make the one-function commit")
    parser.add_argument("--prefer", metavar="FILE", help="repo-relative file whose first function --touch edits")
    args = parser.parse_args()
    name, version = args.project.split("==")
    src = fetch_sdist(name, version)
    repo = make_git_repo(src, args.repo or CACHE_DIR / "repos" / f"{name}-{version}")
    print(repo)
    if args.touch:
        print(one_function_commit(repo, args.prefer))


if __name__ == "__main__":
    _main()
