"""Publishing a review on GitHub, and the only module that imports PyGithub.

One **sticky comment** per pull request: found again by a hidden marker *and* its author's login, edited
in place, never duplicated. An Actions token may not call ``GET /user``, so the login is not asked for:
it is ``github-actions[bot]`` (the author of every comment made with ``GITHUB_TOKEN``) unless the caller
names another (``--bot-login`` for a personal or GitHub App token). A comment carrying the marker but
written by anyone else is never touched: quoting our comment must not let a user have it overwritten.

Callers pass a :class:`github.Github` client in (see :func:`client`), so tests point it at a local server.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests
from github import Auth, Github, GithubException, GithubRetry, RateLimitExceededException
from github.PullRequest import ReviewComment

from .errors import PublishError
from .gitio import Diff
from .review import Finding

__all__ = [
    "COMMENT_LIMIT",
    "DEFAULT_API_URL",
    "DEFAULT_BOT_LOGIN",
    "MARKER",
    "SUMMARY_LIMIT",
    "InlineComment",
    "PullRequestRef",
    "StickyComment",
    "TokenForbidden",
    "append_summary",
    "client",
    "comment_body",
    "inline_comments",
    "parse_comment_file",
    "post_inline_review",
    "pull_request_from_event",
    "redacted_logs",
    "upsert_sticky_comment",
    "workflow_run_head",
]

log = logging.getLogger(__name__)

# PyGithub attaches a handler of its own that prints INFO records to stderr; the CLI decides what is
# shown (and redacts it), so PyGithub's records go to the root logger's handlers like everyone else's
_pygithub_log = logging.getLogger("github")
for _handler in list(_pygithub_log.handlers):
    if type(_handler) is logging.StreamHandler:
        _pygithub_log.removeHandler(_handler)
_pygithub_log.setLevel(logging.NOTSET)

DEFAULT_API_URL = "https://api.github.com"
DEFAULT_BOT_LOGIN = "github-actions[bot]"
#: the hidden first line of our sticky comment
MARKER = "<!-- crg-review:sticky-comment -->"
_PULL_LINE = re.compile(r"<!-- crg-review:pull-request (\d+) ([0-9a-f]{7,64}) -->")
_FINDING_MARK = "<!-- crg-review:finding {key} -->"
#: GitHub rejects comment bodies longer than 65,536 characters; stay clear of it
COMMENT_LIMIT = 65_000
#: GitHub shows at most 1 MiB of a step summary
SUMMARY_LIMIT = 1_000_000
_FORK_HINT = (
    "the token cannot write to this pull request (a pull request from a fork gets a read-only token): "
    "the review is in the job summary; to comment on pull requests from forks use the fork-safe "
    "workflow pair described in the README (GitHub Action section)"
)


class TokenForbidden(PublishError):
    """The token may read but not write (403): typically a pull request from a fork."""


@dataclass(frozen=True)
class PullRequestRef:
    """The pull request a workflow runs for, from its event payload."""

    repository: str  # owner/name of the base repository
    number: int
    base_sha: str
    head_sha: str
    head_repository: str | None  # owner/name the head branch lives in (a fork's differs)

    @property
    def from_fork(self) -> bool:
        """True when the head branch lives in another repository (its token is read-only)."""
        return self.head_repository is not None and self.head_repository != self.repository


@dataclass(frozen=True)
class StickyComment:
    """What :func:`upsert_sticky_comment` did: ``action`` is created | updated | unchanged."""

    action: str
    id: int
    url: str
    login: str
    removed_duplicates: int = 0


@dataclass(frozen=True)
class InlineComment:
    """A review comment on one line of the pull request's head side."""

    path: str
    line: int
    body: str
    key: str  # identifies the finding across runs, so that a rerun does not repeat it


def client(
    token: str | None,
    *,
    api_url: str = DEFAULT_API_URL,
    retries: int = 5,
    max_rate_limit_wait: float = 300.0,
    timeout: int = 30,
) -> Github:
    """A PyGithub client that waits out rate limits (403/429 with ``retry-after`` or a reset time).

    ``max_rate_limit_wait`` caps one wait: a CI job should fail with a message rather than sleep for an hour.
    """
    retry = GithubRetry(
        total=retries,
        backoff_factor=1.0,
        max_rate_limit_wait=max_rate_limit_wait,
        status_forcelist=[429, *range(500, 600)],
        # GithubRetry retries GET and POST; editing a comment is a PATCH
        allowed_methods=GithubRetry.DEFAULT_ALLOWED_METHODS | {"GET", "POST", "PATCH"},
    )
    return Github(
        auth=Auth.Token(token) if token else None,
        base_url=api_url.rstrip("/"),
        retry=retry,
        timeout=timeout,
        user_agent="crg-review",
    )


# -- the event


def pull_request_from_event(event_name: str, event: Mapping[str, Any], repository: str) -> PullRequestRef | None:
    """The pull request of a ``pull_request``/``pull_request_target`` event, None for other events."""
    if event_name not in ("pull_request", "pull_request_target"):
        return None
    try:
        pr = event["pull_request"]
        head_repo = (pr["head"].get("repo") or {}).get("full_name")
        return PullRequestRef(
            repository=repository,
            number=int(pr["number"]),
            base_sha=str(pr["base"]["sha"]),
            head_sha=str(pr["head"]["sha"]),
            head_repository=str(head_repo) if head_repo else None,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PublishError(f"the {event_name} event has no usable pull_request ({exc!r}): is GITHUB_EVENT_PATH right?")


def workflow_run_head(event: Mapping[str, Any]) -> str:
    """The head commit of the run a ``workflow_run`` event reports on (trusted: GitHub writes it)."""
    try:
        return str(event["workflow_run"]["head_sha"])
    except (KeyError, TypeError) as exc:
        raise PublishError(f"the workflow_run event has no head_sha ({exc!r}): is GITHUB_EVENT_PATH right?")


# -- the comment


def comment_body(markdown: str, pull: PullRequestRef | None = None) -> str:
    """The sticky comment: the marker, the pull request it was made for, and the review, capped in size."""
    lines = [MARKER]
    if pull is not None:
        lines.append(f"<!-- crg-review:pull-request {pull.number} {pull.head_sha} -->")
    head = "\n".join(lines) + "\n"
    # a review must not carry our markers itself (it would be found as ours, or point elsewhere)
    text = markdown.replace("<!-- crg-review:", "<!-- crg-review-quoted:")
    budget = COMMENT_LIMIT - len(head)
    if len(text) > budget:
        note = "\n\n… the review is cut here (GitHub's comment size limit): the job summary has all of it.\n"
        cut = text.rfind("\n", 0, budget - len(note))
        text = text[: cut if cut > 0 else budget - len(note)] + note
    return head + text


def parse_comment_file(text: str) -> tuple[str, int | None, str | None]:
    """A comment written with ``--comment-file``: (review markdown, pull request number, head commit).

    The file is untrusted when it comes from a fork's workflow: only the review text is used as is,
    and the caller checks the number and commit against GitHub before posting.
    """
    found = _PULL_LINE.search(text)
    number, head = (int(found[1]), found[2]) if found else (None, None)
    body = "\n".join(line for line in text.splitlines() if not line.startswith("<!-- crg-review:"))
    return body.lstrip("\n"), number, head


def upsert_sticky_comment(
    gh: Github, repository: str, number: int, body: str, *, bot_login: str = DEFAULT_BOT_LOGIN
) -> StickyComment:
    """Create the sticky comment, or edit ours in place; extra copies of ours (from a race) are deleted."""
    with _api(f"updating the comment on pull request #{number}"):
        issue = gh.get_repo(repository, lazy=True).get_issue(number)
        ours = [c for c in issue.get_comments() if c.user.login == bot_login and (c.body or "").startswith(MARKER)]
        if not ours:
            created = issue.create_comment(body)
            login = created.user.login
            if login != bot_login:
                log.warning(
                    "the comment was posted as %s, not %s: pass --bot-login %s so that the next run edits it "
                    "instead of adding another",
                    login,
                    bot_login,
                    login,
                )
            return StickyComment("created", created.id, created.html_url, login)
        keep, *extra = sorted(ours, key=lambda c: c.id)
        for duplicate in extra:
            duplicate.delete()
        if keep.body == body:
            return StickyComment("unchanged", keep.id, keep.html_url, keep.user.login, len(extra))
        keep.edit(body)
        return StickyComment("updated", keep.id, keep.html_url, keep.user.login, len(extra))


def head_of(gh: Github, repository: str, number: int) -> str:
    """The commit the pull request's head branch points at now."""
    with _api(f"reading pull request #{number}"):
        return str(gh.get_repo(repository, lazy=True).get_pull(number).head.sha)


# -- inline review


def inline_comments(findings: Iterable[Finding], diff: Diff, escape: Any) -> list[InlineComment]:
    """The findings that sit on lines the diff adds or changes, as review comments (``escape``: str -> str
    makes a name inert in Markdown). Other lines cannot take a comment in GitHub's review API."""
    changed: dict[str, list[tuple[int, int]]] = {}
    for change in diff.changes:
        if change.new_path is None:
            continue
        spans = [(h.new_start, h.new_start + h.new_lines - 1) for h in change.hunks if h.new_lines > 0]
        if spans:
            changed[change.new_path] = spans
    out: list[InlineComment] = []
    for f in findings:
        if not any(lo <= f.line <= hi for lo, hi in changed.get(f.file, ())):
            continue
        key = f"{f.rule}:{f.file}:{_digest(f.message)}"
        text = f"**crg-review** {escape(f.severity)} `{f.rule}`: {escape(f.message)}"
        out.append(InlineComment(f.file, f.line, f"{_FINDING_MARK.format(key=key)}\n{text}", key))
    return out


def post_inline_review(
    gh: Github,
    repository: str,
    number: int,
    head_sha: str,
    comments: Sequence[InlineComment],
    *,
    bot_login: str = DEFAULT_BOT_LOGIN,
) -> int:
    """Post the comments not already made by an earlier run, as ONE review; returns how many were posted."""
    if not comments:
        return 0
    with _api(f"posting the review of pull request #{number}"):
        repo = gh.get_repo(repository, lazy=True)
        pull = repo.get_pull(number)
        seen = {
            m.group(1)
            for c in pull.get_review_comments()
            if c.user.login == bot_login
            for m in [re.match(r"<!-- crg-review:finding (\S+) -->", c.body or "")]
            if m
        }
        fresh = [c for c in comments if c.key not in seen]
        if not fresh:
            return 0
        payload: list[ReviewComment] = [
            {"path": c.path, "line": c.line, "side": "RIGHT", "body": c.body} for c in fresh
        ]
        pull.create_review(
            commit=repo.get_commit(head_sha),
            body=f"crg-review: {len(fresh)} finding(s) on changed lines.",
            event="COMMENT",
            comments=payload,
        )
        return len(fresh)


# -- job summary and secrets


def append_summary(path: str | Path, markdown: str) -> None:
    """Append to the job summary file (``GITHUB_STEP_SUMMARY``), within GitHub's size limit."""
    if len(markdown) > SUMMARY_LIMIT:
        markdown = markdown[:SUMMARY_LIMIT] + "\n\n… cut at GitHub's job summary size limit.\n"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(markdown.rstrip("\n") + "\n")


class _Redact(logging.Filter):
    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.secret in message:
            record.msg, record.args = message.replace(self.secret, "***"), None
        if record.exc_info and record.exc_info[1] is not None and self.secret in str(record.exc_info[1]):
            record.exc_info, record.exc_text = None, None
        return True


@contextmanager
def redacted_logs(secret: str | None) -> Iterator[None]:
    """While inside, no log handler of the process writes ``secret`` (defence in depth: PyGithub masks it too)."""
    if not secret:
        yield
        return
    guard = _Redact(secret)
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in ("github", "urllib3", "requests"))]
    handlers = {h for logger in loggers for h in logger.handlers}
    for handler in handlers:
        handler.addFilter(guard)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(guard)


# -- errors


@contextmanager
def _api(doing: str) -> Iterator[None]:
    """Map PyGithub and network errors to one-line :class:`PublishError` messages."""
    try:
        yield
    except RateLimitExceededException as exc:
        raise PublishError(
            f"{doing}: GitHub's rate limit is exhausted ({_message(exc)}): rerun the job later"
        ) from None
    except GithubException as exc:
        message = _message(exc)
        if exc.status == 403:
            raise TokenForbidden(f"{doing}: {message}: {_FORK_HINT}") from None
        if exc.status == 401:
            raise PublishError(f"{doing}: bad credentials: check the token (GITHUB_TOKEN or --token)") from None
        if exc.status == 404:
            raise PublishError(
                f"{doing}: not found ({message}): check GITHUB_REPOSITORY, the pull request number and that the "
                "token may read the repository"
            ) from None
        raise PublishError(f"{doing}: GitHub answered {exc.status}: {message}") from None
    except requests.exceptions.RequestException as exc:
        raise PublishError(
            f"{doing}: cannot reach the GitHub API ({type(exc).__name__}): check GITHUB_API_URL"
        ) from None


def _message(exc: GithubException) -> str:
    data = exc.data
    if isinstance(data, dict) and data.get("message"):
        return str(data["message"])
    if exc.message:
        return exc.message
    return json.dumps(data)[:200] if data else f"HTTP {exc.status}"


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
