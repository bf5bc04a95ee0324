"""Git hooks: the scripts ``crg-review install-hooks`` puts in place (chaining to the hooks already
there), the ranges a push reviews, and the short terminal review a hook prints.

Hook plumbing asks the ``git`` command line rather than pygit2: where git looks for hooks
(``core.hooksPath``, linked work trees) and which commits a push sends must be exactly git's answer.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import CrgError, GitError
from .review import Review

__all__ = [
    "CHAINED_SUFFIX",
    "HOOK_TYPES",
    "HookChange",
    "PushRange",
    "hooks_dir",
    "install",
    "push_ranges",
    "script",
    "short_review",
    "uninstall",
]

log = logging.getLogger(__name__)

HOOK_TYPES = ("pre-commit", "pre-push")
#: an existing hook is renamed to ``<name><CHAINED_SUFFIX>`` and run first by ours
CHAINED_SUFFIX = ".crg-review-chained"
_SIGNATURE = "# crg-review-hook: 1"
_ZERO = "0" * 40

_SCRIPT = """\
#!/bin/sh
# crg-review git hook ({hook}): {what}
{signature}
# Installed by `crg-review install-hooks`; `crg-review install-hooks --uninstall` removes it and puts
# back the hook that was here before. That hook, if any, is kept as {hook}{chained} and runs
# first: its failure still stops the {action}. crg-review itself never blocks on its own failure
# (a warning, exit 0); it blocks only when its arguments include --fail-on.
CRG_REVIEW_EXE={exe}
CRG_REVIEW_ARGS={args}
chained="$(dirname -- "$0")/{hook}{chained}"
{body}
exe=${{CRG_REVIEW:-$CRG_REVIEW_EXE}}
if [ -z "$exe" ] || [ ! -x "$exe" ]; then
    exe=$(command -v crg-review 2>/dev/null)
fi
if [ -z "$exe" ]; then
    echo "crg-review: not found (pip install crg-review, or set CRG_REVIEW); skipping the review" >&2
    exit 0
fi
{run}
status=$?
# 2: findings reached --fail-on; any other failure belongs to crg-review and must not block
if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
    echo "crg-review: exited with status $status; not blocking the {action}" >&2
    status=0
fi
exit "$status"
"""

_PRE_COMMIT_BODY = """\
if [ -f "$chained" ] && [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi"""
_PRE_COMMIT_RUN = '"$exe" hook --stage pre-commit $CRG_REVIEW_ARGS'

# the refs git writes on stdin go to the chained hook and to crg-review alike
_PRE_PUSH_BODY = """\
refs=$(cat)
feed() {
    if [ -n "$refs" ]; then printf '%s\\n' "$refs"; fi
}
if [ -f "$chained" ] && [ -x "$chained" ]; then
    feed | "$chained" "$@" || exit $?
fi"""
_PRE_PUSH_RUN = 'feed | "$exe" hook --stage pre-push --remote "$1" $CRG_REVIEW_ARGS'

_PARTS = {
    "pre-commit": ("a short review of the staged change", "commit", _PRE_COMMIT_BODY, _PRE_COMMIT_RUN),
    "pre-push": ("a short review of the commits being pushed", "push", _PRE_PUSH_BODY, _PRE_PUSH_RUN),
}


def script(hook: str, *, exe: str | None = None, args: Sequence[str] = ()) -> str:
    """The hook script for ``hook`` (pre-commit | pre-push); ``exe``: the crg-review to run when found."""
    what, action, body, run = _PARTS[hook]
    return _SCRIPT.format(
        hook=hook,
        what=what,
        action=action,
        signature=_SIGNATURE,
        chained=CHAINED_SUFFIX,
        exe=shlex.quote(exe) if exe else "''",
        args=shlex.quote(" ".join(args)) if args else "''",
        body=body,
        run=run,
    )


@dataclass(frozen=True)
class HookChange:
    """What install or uninstall did to one hook: ``action`` is installed | updated | chained |
    removed | restored | skipped, with ``detail`` for people."""

    hook: str
    path: Path
    action: str
    detail: str = ""


def _git(repo_dir: Path, *args: str) -> str:
    try:
        proc = subprocess.run(["git", *args], cwd=repo_dir, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise GitError(f"cannot run git ({exc.strerror}): install git or put it on PATH") from None
    if proc.returncode != 0:
        raise GitError(f"git {' '.join(args)} failed in {repo_dir}: {proc.stderr.strip()} (run inside a git work tree)")
    return proc.stdout.strip()


def hooks_dir(repo_dir: str | os.PathLike[str]) -> Path:
    """Where git runs hooks from for this repository (``core.hooksPath`` respected), made absolute."""
    root = Path(repo_dir)
    found = Path(_git(root, "rev-parse", "--git-path", "hooks"))
    return found if found.is_absolute() else (root / found).resolve()


def _is_ours(path: Path) -> bool:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            return _SIGNATURE in fh.read(4096)
    except (OSError, IsADirectoryError):
        return False


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def install(
    repo_dir: str | os.PathLike[str],
    *,
    hooks: Iterable[str] = HOOK_TYPES,
    exe: str | None = None,
    args: Sequence[str] = (),
) -> list[HookChange]:
    """Install our hooks; a hook already there (not ours) is renamed to ``<name>.crg-review-chained`` and run first."""
    directory = hooks_dir(repo_dir)
    directory.mkdir(parents=True, exist_ok=True)
    changes = []
    for hook in hooks:
        path, chained = directory / hook, directory / f"{hook}{CHAINED_SUFFIX}"
        action = "installed"
        if _exists(path) and _is_ours(path):
            action = "updated"
        elif _exists(path):
            if _exists(chained):
                raise CrgError(
                    f"{path} exists and so does {chained.name}: move one of them away, then run install-hooks again"
                )
            path.rename(chained)
            action = "chained"
        text = script(hook, exe=exe, args=args)
        tmp = path.with_name(f".{hook}.crg-review-tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.chmod(0o755)
        tmp.replace(path)
        detail = f"runs {chained.name} first" if _exists(chained) else ""
        if _exists(chained) and not os.access(chained, os.X_OK):
            detail = f"{chained.name} is not executable: git did not run it before, and neither will this hook"
        changes.append(HookChange(hook, path, action, detail))
        log.info("%s %s", action, path)
    return changes


def uninstall(repo_dir: str | os.PathLike[str], *, hooks: Iterable[str] = HOOK_TYPES) -> list[HookChange]:
    """Remove our hooks and put back the ones they chained to; hooks that are not ours are left alone."""
    directory = hooks_dir(repo_dir)
    changes = []
    for hook in hooks:
        path, chained = directory / hook, directory / f"{hook}{CHAINED_SUFFIX}"
        if not _exists(path):
            changes.append(HookChange(hook, path, "skipped", "not installed"))
            continue
        if not _is_ours(path):
            changes.append(HookChange(hook, path, "skipped", "not installed by crg-review: left as it is"))
            continue
        path.unlink()
        if _exists(chained):
            chained.rename(path)
            changes.append(HookChange(hook, path, "restored", f"the hook from before ({chained.name}) is back"))
        else:
            changes.append(HookChange(hook, path, "removed"))
    return changes


@dataclass(frozen=True)
class PushRange:
    """The commits one pushed ref sends: ``base..head`` (``base`` None: a new history, nothing to compare)."""

    ref: str
    base: str | None
    head: str


def push_ranges(lines: Iterable[str], remote: str, repo_dir: str | os.PathLike[str]) -> list[PushRange]:
    """Parse what git writes to a pre-push hook (``<local ref> <local sha> <remote ref> <remote sha>``).

    A deleted ref is skipped; for a new branch the base is the parent of the first commit the remote
    does not have (as the pre-commit framework does).
    """
    root = Path(repo_dir)
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) != 4:
            continue
        local_ref, local_sha, _remote_ref, remote_sha = parts
        if local_sha == _ZERO:
            continue
        if remote_sha != _ZERO and _has_commit(root, remote_sha):
            out.append(PushRange(local_ref, remote_sha, local_sha))
            continue
        new = _git(root, "rev-list", local_sha, "--topo-order", "--reverse", "--not", f"--remotes={remote}")
        if not new:
            continue
        first = new.splitlines()[0]
        parents = _git(root, "rev-list", "--parents", "-n", "1", first).split()[1:]
        out.append(PushRange(local_ref, parents[0] if parents else None, local_sha))
    return out


def _has_commit(root: Path, sha: str) -> bool:
    proc = subprocess.run(["git", "cat-file", "-e", f"{sha}^{{commit}}"], cwd=root, capture_output=True, check=False)
    return proc.returncode == 0


# -- the short review


def _plain(text: str) -> str:
    """Terminal-safe: control characters (escape sequences in a file name) become visible, not active."""
    return "".join(c if unicodedata.category(c)[0] != "C" else repr(c)[1:-1] for c in text)


def _names(items: Sequence[str], top: int) -> str:
    shown = ", ".join(_plain(i) for i in items[:top])
    return shown + (f" (+{len(items) - top} more)" if len(items) > top else "")


def short_review(review: Review, *, label: str, run_command: str, top: int = 3, max_test_ids: int = 6) -> str:
    """A few lines for a hook: changed symbols, callers (count and the top few), tests and how to run
    them, findings. ``run_command`` lists every related test when there are many (e.g. ``pytest
    $(crg-review tests --staged)``)."""
    lines = [f"crg-review: {label}"]
    if not review.changed:
        lines.append("  no changed symbols")
    else:
        changed = [f"{c.file}::{c.qualname} ({c.change})" for c in review.changed]
        lines.append(f"  changed  {len(changed)}: {_names(changed, top)}")
    callers = sorted(review.impacted, key=lambda i: (i.depth, -i.confidence, i.file, i.qualname))
    direct = sum(1 for i in callers if i.depth == 1)
    cut = int(review.stats.get("impacted_cut", 0) or 0)
    if callers:
        total = len(callers) + cut
        lines.append(
            f"  callers  {total} ({direct} direct): {_names([f'{i.file}::{i.qualname}' for i in callers], top)}"
        )
    elif review.changed:
        lines.append("  callers  none found")
    if review.select_all:
        lines.append(f"  tests    all: {_plain(review.select_all)}")
        lines.append("  run      pytest")
    elif review.stats.get("tests_stopped_after") is not None:  # the walk stopped at the hook's time limit
        ids = [t.nodeid or f"{t.file}::{t.qualname}" for t in review.tests]
        seconds = review.stats["tests_stopped_after"]
        found = f"{len(ids)}+: {_names(ids, top)}" if ids else "none yet"
        lines.append(f"  tests    {found} (search stopped after {seconds:g} s: hook-test-seconds)")
        lines.append(f"  run      {run_command}")
    elif review.tests:
        ids = [t.nodeid or f"{t.file}::{t.qualname}" for t in review.tests]
        lines.append(f"  tests    {len(ids)}: {_names(ids, top)}")
        if len(ids) <= max_test_ids:
            lines.append("  run      pytest " + " ".join(shlex.quote(_plain(i)) for i in ids))
        else:
            lines.append(f"  run      {run_command}")
    elif review.changed:
        lines.append("  tests    none reach the change")
    for f in review.findings:
        lines.append(f"  {f.severity:<8} {_plain(f.file)}:{f.line} {f.rule} {_plain(f.message)}")
    return "\n".join(lines)
