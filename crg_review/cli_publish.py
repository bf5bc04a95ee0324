"""Sub-commands where users meet crg-review: ``hook``, ``install-hooks``, ``github`` and ``config``.

Imported by :func:`crg_review.cli._load_extensions`; heavy libraries (pygit2, PyGithub, jinja2) are
imported inside the commands.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from . import cli
from .errors import CrgError, PublishError

__all__: list[str] = []

log = logging.getLogger("crg_review")

_LEVELS = ("error", "warning", "never")


def _arguments(sub: Any, common: argparse.ArgumentParser) -> None:
    s = sub.add_parser(
        "hook",
        parents=[common],
        help="short review for a git hook (pre-commit: staged; pre-push: the pushed commits); never blocks on its own failure",
    )
    s.add_argument(
        "--stage",
        choices=("auto", "pre-commit", "pre-push"),
        default="auto",
        help="auto: pre-push when the pre-commit framework passes PRE_COMMIT_FROM_REF/TO_REF, else pre-commit",
    )
    s.add_argument("--remote", metavar="NAME", default="origin", help="pre-push from a plain git hook: the remote")
    s.add_argument("--fail-on", choices=_LEVELS, help="block (exit 2) when findings reach this level (default: never)")
    s.add_argument("--depth", type=int, metavar="N", help="caller depth (default: config, 3)")

    s = sub.add_parser(
        "install-hooks", parents=[common], help="install git hooks (pre-commit, pre-push), chaining to existing ones"
    )
    s.add_argument("--uninstall", action="store_true", help="remove them and restore the hooks they chained to")
    s.add_argument("--hook", action="append", choices=("pre-commit", "pre-push"), help="only this hook (repeatable)")
    s.add_argument("--fail-on", choices=_LEVELS, help="the installed hooks block at this level")

    s = sub.add_parser(
        "github", parents=[common], help="review a pull request in GitHub Actions: sticky comment, job summary"
    )
    s.add_argument("--token", metavar="TOKEN", help="GitHub token (default: env GITHUB_TOKEN; prefer the environment)")
    s.add_argument("--depth", type=int, metavar="N", help="caller depth (default: config, 3)")
    s.add_argument("--fail-on", choices=_LEVELS, help="exit 2 when findings reach this level (default: config)")
    s.add_argument(
        "--inline", action="store_true", help="also post one review with comments on changed lines for findings"
    )
    s.add_argument("--no-comment", action="store_true", help="do not post the sticky comment (job summary only)")
    s.add_argument(
        "--comment-file", metavar="PATH", help="write the comment to PATH instead of posting it (fork-safe recipe)"
    )
    s.add_argument(
        "--post-comment-file",
        metavar="PATH",
        help="post a comment written earlier with --comment-file (workflow_run half of the fork-safe recipe)",
    )
    s.add_argument(
        "--bot-login",
        metavar="LOGIN",
        help="login our comments are written by (default: env CRG_REVIEW_BOT_LOGIN or github-actions[bot])",
    )

    s = sub.add_parser("config", parents=[common], help="the effective settings and where each comes from")
    s.add_argument("--format", choices=("text", "json"), default="text")


cli._EXTENSIONS.append(_arguments)


# -- hook


@cli.command("hook")
def _hook(args: argparse.Namespace) -> int:
    """Fail-open: any failure of our own is a warning and exit 0; only ``--fail-on`` blocks."""
    try:
        reviews = _hook_reviews(args)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # fail-open by design: a broken review must never stop a commit or a push
        reason = str(exc) if isinstance(exc, CrgError) else f"{type(exc).__name__}: {exc}"
        print(f"crg-review: warning: review skipped ({reason}); not blocking", file=sys.stderr)
        log.info("the hook failed", exc_info=True)
        return 0
    from .findings import fail_reached

    blocked = False
    for text, findings in reviews:
        print(text)
        blocked |= bool(args.fail_on) and fail_reached(findings, args.fail_on)
    if blocked:
        print(
            f"crg-review: findings reach --fail-on {args.fail_on}: blocking (fix them, or skip once with --no-verify)"
        )
        return 2
    return 0


def _hook_reviews(args: argparse.Namespace) -> list[tuple[str, list[Any]]]:
    from .gitio import DiffSpec
    from .hooks import push_ranges, short_review
    from .impact import review_diff

    env = os.environ
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    stage = args.stage
    if stage == "auto":
        stage = "pre-push" if (from_ref and to_ref) or env.get("PRE_COMMIT_REMOTE_NAME") else "pre-commit"
    ws = cli._workspace(args)
    try:
        if not ws.store.get_meta("indexed"):
            print("crg-review: first run: indexing this repository (later runs are incremental)", file=sys.stderr)
        jobs: list[tuple[str, Any, str]] = []
        if stage == "pre-commit":
            jobs.append(("staged change", DiffSpec.parse(None, staged=True), "pytest $(crg-review tests --staged)"))
        elif from_ref and to_ref:
            jobs.append((f"push {from_ref[:10]}..{to_ref[:10]}", DiffSpec("range", from_ref, to_ref), ""))
        elif env.get("PRE_COMMIT_REMOTE_NAME"):
            print("crg-review: pushing a new history (no commit to compare with): nothing to review", file=sys.stderr)
        else:
            for r in push_ranges(sys.stdin.read().splitlines(), args.remote, ws.repo.root):
                if r.base is None:
                    print(f"crg-review: {r.ref} starts a new history: nothing to compare it with", file=sys.stderr)
                    continue
                jobs.append((f"push {r.ref} {r.base[:10]}..{r.head[:10]}", DiffSpec("range", r.base, r.head), ""))
        out = []
        for label, spec, run_command in jobs:
            review = review_diff(ws, spec, depth=args.depth, test_seconds=ws.config.hook_test_seconds)
            run_command = run_command or f"pytest $(crg-review tests {spec.base}..{spec.head})"
            out.append((short_review(review, label=label, run_command=run_command), list(review.findings)))
        return out
    finally:
        ws.close()


# -- install-hooks


@cli.command("install-hooks")
def _install_hooks(args: argparse.Namespace) -> int:
    from .hooks import HOOK_TYPES, install, uninstall

    root = args.repo or os.getcwd()
    hooks = tuple(args.hook or HOOK_TYPES)
    if args.uninstall:
        changes = uninstall(root, hooks=hooks)
    else:
        extra = ["--fail-on", args.fail_on] if args.fail_on else []
        changes = install(root, hooks=hooks, exe=_own_executable(), args=extra)
    for c in changes:
        print(f"crg-review: {c.hook}: {c.action} {c.path}" + (f" ({c.detail})" if c.detail else ""))
    return 0


def _own_executable() -> str | None:
    """The crg-review command running now, so that a hook finds it outside this virtualenv too."""
    argv0 = Path(sys.argv[0])
    if argv0.name == "crg-review" and argv0.is_file():
        return str(argv0.resolve())
    beside = Path(sys.executable).parent / "crg-review"  # python -m crg_review: the venv's console script
    if beside.is_file():
        return str(beside)
    import shutil  # here: every command imports this module, few need it (7 ms under -X importtime)

    return shutil.which("crg-review")


# -- github


@cli.command("github")
def _github(args: argparse.Namespace) -> int:
    from . import github

    token = args.token or os.environ.get("GITHUB_TOKEN") or None
    with github.redacted_logs(token):
        try:
            return _github_run(args, token)
        except CrgError as exc:
            if token and token in str(exc):
                redacted = type(exc)(str(exc).replace(token, "***"))
                raise redacted from None
            raise


def _github_env() -> tuple[str, dict[str, Any], str]:
    env = os.environ
    missing = [k for k in ("GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH", "GITHUB_REPOSITORY") if not env.get(k)]
    if missing:
        raise PublishError(f"{', '.join(missing)} not set: crg-review github runs inside GitHub Actions")
    try:
        with open(env["GITHUB_EVENT_PATH"], encoding="utf-8") as fh:
            event = json.load(fh)
    except (OSError, ValueError) as exc:
        raise PublishError(
            f"cannot read the event payload GITHUB_EVENT_PATH={env['GITHUB_EVENT_PATH']}: {exc}"
        ) from None
    return env["GITHUB_EVENT_NAME"], event, env["GITHUB_REPOSITORY"]


def _github_run(args: argparse.Namespace, token: str | None) -> int:
    from . import github
    from .findings import fail_reached
    from .gitio import DiffSpec
    from .impact import review_diff
    from .render import render

    event_name, event, repository = _github_env()
    api_url = os.environ.get("GITHUB_API_URL") or github.DEFAULT_API_URL
    summary = os.environ.get("GITHUB_STEP_SUMMARY") or None
    bot_login = args.bot_login or os.environ.get("CRG_REVIEW_BOT_LOGIN") or github.DEFAULT_BOT_LOGIN
    if args.post_comment_file:
        return _post_comment_file(args, event_name, event, repository, token, api_url, summary, bot_login)

    pull = github.pull_request_from_event(event_name, event, repository)
    if pull is None:
        print(f"crg-review: the '{event_name}' event is not a pull request: nothing to review")
        return 0
    ws = cli._workspace(args)
    try:
        fail_on = args.fail_on or ws.config.fail_on
        for sha in (pull.base_sha, pull.head_sha):
            ws.repo.resolve(sha)  # a clear message when a shallow clone lacks it
        spec = DiffSpec("merge_base", pull.base_sha, pull.head_sha)
        review = review_diff(ws, spec, depth=args.depth)
        markdown = render(review, "markdown", template_dir=ws.config.template_dir)
        # the job summary takes the whole review (GitHub allows 1 MiB there, 64 KiB in a comment)
        full = render(review, "markdown", template_dir=ws.config.template_dir, limit=github.SUMMARY_LIMIT)
        diff = ws.repo.diff(spec) if args.inline else None
    finally:
        ws.close()
    body = github.comment_body(markdown, pull)
    if summary:
        github.append_summary(summary, full)
    gh = github.client(token, api_url=api_url) if token else None

    if args.comment_file:
        Path(args.comment_file).parent.mkdir(parents=True, exist_ok=True)
        Path(args.comment_file).write_text(body, encoding="utf-8")
        print(f"crg-review: comment written to {args.comment_file} (not posted)")
    elif not args.no_comment:
        if gh is None:
            _fallback(summary, "no token (set GITHUB_TOKEN or pass --token): the review is only in the job summary")
        else:
            try:
                done = github.upsert_sticky_comment(gh, repository, pull.number, body, bot_login=bot_login)
                print(f"crg-review: comment {done.action}: {done.url}")
            except github.TokenForbidden as exc:
                _fallback(summary, str(exc))
    if diff is not None:
        from .render import md_escape

        comments = github.inline_comments(review.findings, diff, md_escape)
        if gh is None:
            _fallback(summary, "no token: the inline review was not posted")
        else:
            try:
                posted = github.post_inline_review(
                    gh, repository, pull.number, pull.head_sha, comments, bot_login=bot_login
                )
                print(f"crg-review: inline review: {posted} new comment(s) on changed lines")
            except github.TokenForbidden as exc:
                _fallback(summary, str(exc))
    if fail_reached(review.findings, fail_on):
        print(f"crg-review: findings reach --fail-on {fail_on}: failing the job", file=sys.stderr)
        return 2
    return 0


def _post_comment_file(
    args: argparse.Namespace,
    event_name: str,
    event: dict[str, Any],
    repository: str,
    token: str | None,
    api_url: str,
    summary: str | None,
    bot_login: str,
) -> int:
    """Post a comment written by the read-only half; the file is untrusted, the event is not."""
    from . import github

    try:
        text = Path(args.post_comment_file).read_text(encoding="utf-8")
    except OSError as exc:
        raise PublishError(f"cannot read the comment file {args.post_comment_file}: {exc.strerror}") from None
    markdown, number, written_for = github.parse_comment_file(text)
    if not token:
        raise PublishError("no token (set GITHUB_TOKEN or pass --token): cannot post the comment")
    gh = github.client(token, api_url=api_url)
    pull = github.pull_request_from_event(event_name, event, repository)
    if pull is None:
        if event_name != "workflow_run":
            raise PublishError(f"--post-comment-file runs on pull_request or workflow_run events, not '{event_name}'")
        head = github.workflow_run_head(event)
        if number is None or written_for != head:
            raise PublishError(
                "the comment file was not written for the commit this workflow run reviewed: not posting it"
            )
        current = github.head_of(gh, repository, number)
        if current != head:
            print(
                f"crg-review: pull request #{number} is now at {current[:12]}, not {head[:12]} (a newer push, or the "
                "comment file names another pull request): not posting"
            )
            return 0
        pull = github.PullRequestRef(repository, number, "", head, None)
    body = github.comment_body(markdown, pull)
    try:
        done = github.upsert_sticky_comment(gh, repository, pull.number, body, bot_login=bot_login)
    except github.TokenForbidden as exc:
        _fallback(summary, str(exc))
        return 0
    print(f"crg-review: comment {done.action}: {done.url}")
    return 0


def _fallback(summary: str | None, message: str) -> None:
    """Say why nothing was posted, on stderr and in the job summary; the job goes on."""
    from .github import append_summary

    print(f"crg-review: warning: {message}", file=sys.stderr)
    if summary:
        append_summary(summary, f"\n> [!WARNING]\n> crg-review: {message}\n")


# -- config


@cli.command("config")
def _config(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from .config import DEFAULT_EXCLUDES, Config, load_config
    from .gitio import Repo
    from .store import default_db_path

    repo = Repo(args.repo or os.getcwd())
    cfg = load_config(repo.root)
    if args.db:
        cfg = cfg.with_overrides("--db", db=args.db)
    rows: list[tuple[str, Any, str]] = []
    for f in fields(Config):
        if f.name == "sources":
            continue
        value = getattr(cfg, f.name)
        source = cfg.sources.get(f.name, "default")
        if f.name == "db" and value is None:
            value, source = str(default_db_path(repo.common_dir)), "default"
        rows.append((f.name.replace("_", "-"), list(value) if isinstance(value, tuple) else value, source))
    if args.format == "json":
        print(
            json.dumps(
                {"root": str(repo.root), "settings": {k: {"value": v, "source": s} for k, v, s in rows}}, indent=2
            )
        )
        return 0
    print(
        f"# effective settings for {repo.root} (later sources win: default < pyproject.toml < .crg-review.toml < environment < flags)"
    )
    width = max(len(k) for k, _, _ in rows)
    for key, value, source in rows:
        shown = "-" if value is None else value if isinstance(value, str) else json.dumps(value)
        print(f"{key:<{width}}  {shown}  ({source})")
    print(f"{'':<{width}}  always excluded as well: {' '.join(DEFAULT_EXCLUDES)}")
    return 0
