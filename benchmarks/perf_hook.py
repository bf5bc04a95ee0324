"""What a commit through the crg-review hook costs on flask (target: <= 1 s added once the index exists).

Commits a one-line change to a function N times through the hook and N times with ``--no-verify``
and prints the medians and their difference. ``--framework`` goes through the pre-commit framework
(this repository's HEAD as hook repo, installed once into ``benchmarks/.cache/pre-commit-home``);
otherwise through the plain git hook of ``crg-review install-hooks``.

``--with-vectors`` runs one ``crg-review search`` after the first commit, so the index holds vectors
and every later review also brings them up to date (numpy, the stored matrix, the embedding table).

    python benchmarks/perf_hook.py [--framework] [--with-vectors] [--runs 5] [--project flask==3.0.3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import CACHE_DIR, GIT_ENV, fetch_sdist, git, make_git_repo

ROOT = Path(__file__).resolve().parent.parent
CRG = Path(sys.executable).parent / "crg-review"


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "CRG_REVIEW"))}
    env.update(GIT_ENV)
    env.update(extra or {})
    return env


def _commit(repo: Path, message: str, *, verify: bool, env: dict[str, str]) -> tuple[float, str]:
    args = ["git", "-C", str(repo), "commit", "-q", "-m", message] + ([] if verify else ["--no-verify"])
    started = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"commit failed:\n{done.stdout}\n{done.stderr}")
    return seconds, done.stdout + done.stderr


def _touch(repo: Path, path: str, i: int) -> None:
    """Change one function: a new first statement in the body of the function named ``send_static_file``
    (or any def with a body on the next line)."""
    file = repo / path
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    for n, line in enumerate(lines):
        if line.lstrip().startswith("def ") and line.rstrip().endswith(":") and n + 1 < len(lines):
            body = lines[n + 1]
            indent = body[: len(body) - len(body.lstrip())]
            if indent and not body.lstrip().startswith(('"""', "'''")):
                lines.insert(n + 1, f"{indent}_crg_hook_bench = {i}\n")
                file.write_text("".join(lines), encoding="utf-8")
                git(repo, "add", path)
                return
    raise SystemExit(f"no function to change in {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", default="flask==3.0.3")
    parser.add_argument("--file", default="src/flask/helpers.py", help="repo-relative file whose function changes")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--framework", action="store_true", help="through the pre-commit framework")
    parser.add_argument("--with-vectors", action="store_true", help="fill the vectors (one search) before timing")
    args = parser.parse_args()

    name, version = args.project.split("==")
    repo = make_git_repo(fetch_sdist(name, version), CACHE_DIR / "repos" / f"{name}-{version}-hook")
    env = _env()
    if args.framework:
        home = CACHE_DIR / "pre-commit-home"
        env = _env({"PRE_COMMIT_HOME": str(home)})
        rev = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
        config = f"repos:\n  - repo: {ROOT}\n    rev: {rev}\n    hooks:\n      - id: crg-review\n"
        (repo / ".pre-commit-config.yaml").write_text(config)
        git(repo, "add", ".pre-commit-config.yaml")
        git(repo, "commit", "-q", "--no-verify", "-m", "pre-commit config")
        for step in (["install", "-t", "pre-commit"], ["install-hooks"]):
            subprocess.run([sys.executable, "-m", "pre_commit", *step], cwd=repo, env=env, check=True)
    else:
        subprocess.run([str(CRG), "install-hooks", "--hook", "pre-commit"], cwd=repo, env=env, check=True)

    _touch(repo, args.file, 0)
    first, output = _commit(repo, "first: builds the index", verify=True, env=env)
    print(f"{name} {version}: first commit through the hook (builds the index): {first:.2f}s")
    if args.with_vectors:
        started = time.perf_counter()
        subprocess.run([str(CRG), "search", "send a file"], cwd=repo, env=env, check=True, capture_output=True)
        print(f"vectors filled by one crg-review search: {time.perf_counter() - started:.2f}s")
    with_hook, without = [], []
    for i in range(1, args.runs + 1):
        _touch(repo, args.file, i)
        seconds, output = _commit(repo, f"hook {i}", verify=True, env=env)
        with_hook.append(seconds)
        _touch(repo, args.file, 100 + i)
        without.append(_commit(repo, f"plain {i}", verify=False, env=env)[0])
    hooked, plain = statistics.median(with_hook), statistics.median(without)
    how = "pre-commit framework" if args.framework else "plain git hook"
    print(f"commit with the hook ({how}), median of {args.runs}: {hooked:.3f}s")
    print(f"commit with --no-verify, median of {args.runs}: {plain:.3f}s")
    print(f"added by the hook: {hooked - plain:.3f}s (target <= 1 s)")
    print("last hook output:\n" + output.rstrip())


if __name__ == "__main__":
    main()
