"""A small GitHub REST API on 127.0.0.1 for tests: the endpoints ``crg-review github`` calls, with state.

It answers like github.com for one repository and one pull request: issue comments (list with Link
pagination, create, edit, delete), the pull request and its review comments, reviews, commits, and
``GET /user`` refused as it is for an Actions token. Tests script failures (rate limits, a fork's
read-only token) with :meth:`FakeGitHub.fail` and read every request back from :attr:`FakeGitHub.requests`.
It logs nothing, so that a token sent to it can only leak through what crg-review itself prints.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["FakeGitHub", "Recorded", "Scripted", "running"]

BOT = "github-actions[bot]"


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str  # without the API prefix and the query
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


@dataclass
class Scripted:
    """An answer given instead of the real one, ``times`` times, to requests matching ``method`` and ``path``."""

    method: str
    path: str  # a regular expression matched against the whole path
    status: int
    headers: dict[str, str]
    body: Any
    times: int = 1


@dataclass
class FakeGitHub:
    """State of the fake API: one repository ``owner/name`` and its pull request ``number``."""

    owner: str = "octo"
    name: str = "demo"
    number: int = 7
    base_sha: str = "0" * 40
    head_sha: str = "1" * 40
    head_repository: str | None = None  # None: the same repository
    prefix: str = ""  # "/api/v3" for a GitHub Enterprise style URL
    page_size: int = 30  # the largest page served, whatever per_page asks
    #: token -> login of the comments it writes; unknown tokens get 401
    tokens: dict[str, str] = field(default_factory=dict)
    #: tokens that may read but not write (a fork's pull request)
    read_only: set[str] = field(default_factory=set)
    comments: list[dict[str, Any]] = field(default_factory=list)
    review_comments: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    scripted: list[Scripted] = field(default_factory=list)
    url: str = ""
    _next_id: int = 1000
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def repository(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def api_url(self) -> str:
        """What ``GITHUB_API_URL`` is set to."""
        return self.url + self.prefix

    def fail(
        self, method: str, path: str, status: int, body: Any, headers: dict[str, str] | None = None, times: int = 1
    ) -> None:
        """Answer the next ``times`` matching requests with ``status``/``body``/``headers``."""
        self.scripted.append(Scripted(method, path, status, headers or {}, body, times))

    def add_comment(self, body: str, login: str = BOT) -> dict[str, Any]:
        """A comment already on the pull request (as if written earlier by ``login``)."""
        with self._lock:
            return self._new_comment(body, login)

    def writes(self) -> list[Recorded]:
        """The requests that changed something."""
        return [r for r in self.requests if r.method in ("POST", "PATCH", "PUT", "DELETE")]

    # -- state

    def _new_comment(self, body: str, login: str) -> dict[str, Any]:
        self._next_id += 1
        cid = self._next_id
        comment = {
            "id": cid,
            "node_id": f"IC_{cid}",
            "body": body,
            "user": {
                "login": login,
                "id": abs(hash(login)) % 10**6,
                "type": "Bot" if login.endswith("[bot]") else "User",
            },
            "url": f"{self.api_url}/repos/{self.repository}/issues/comments/{cid}",
            "html_url": f"https://github.example/{self.repository}/pull/{self.number}#issuecomment-{cid}",
            "issue_url": f"{self.api_url}/repos/{self.repository}/issues/{self.number}",
            "created_at": "2024-01-01T00:00:00Z",
            "updated_at": "2024-01-01T00:00:00Z",
        }
        self.comments.append(comment)
        return comment

    def _repo_json(self) -> dict[str, Any]:
        return {
            "id": 1,
            "name": self.name,
            "full_name": self.repository,
            "owner": {"login": self.owner, "id": 2, "type": "Organization"},
            "private": False,
            "url": f"{self.api_url}/repos/{self.repository}",
            "html_url": f"https://github.example/{self.repository}",
            "default_branch": "main",
        }

    def _pull_json(self) -> dict[str, Any]:
        head_repo = self.head_repository or self.repository
        base = f"{self.api_url}/repos/{self.repository}"
        return {
            "id": 70,
            "number": self.number,
            "state": "open",
            "title": "a change",
            "url": f"{base}/pulls/{self.number}",
            "issue_url": f"{base}/issues/{self.number}",
            "html_url": f"https://github.example/{self.repository}/pull/{self.number}",
            "head": {"sha": self.head_sha, "ref": "feature", "repo": {"full_name": head_repo, "name": self.name}},
            "base": {"sha": self.base_sha, "ref": "main", "repo": self._repo_json()},
        }

    def event(self) -> dict[str, Any]:
        """The ``pull_request`` event payload GitHub would write to ``GITHUB_EVENT_PATH``."""
        return {
            "action": "synchronize",
            "number": self.number,
            "pull_request": self._pull_json(),
            "repository": self._repo_json(),
        }

    # -- HTTP

    def handle(self, method: str, raw_path: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, str], Any]:
        parts = urlsplit(raw_path)
        path = parts.path
        if self.prefix and path.startswith(self.prefix):
            path = path[len(self.prefix) :]
        query = parse_qs(parts.query)
        with self._lock:
            self.requests.append(Recorded(method, path, query, headers, body))
            for s in self.scripted:
                if s.times > 0 and s.method == method and re.fullmatch(s.path, path):
                    s.times -= 1
                    return s.status, s.headers, s.body
            token = _token(headers.get("authorization", ""))
            if token is None or token not in self.tokens:
                return 401, {}, {"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}
            if method != "GET" and token in self.read_only:
                return 403, {}, {"message": "Resource not accessible by integration", "status": "403"}
            return self._route(method, path, query, body, self.tokens[token])

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], body: Any, login: str
    ) -> tuple[int, dict[str, str], Any]:
        repo = f"/repos/{self.repository}"
        n = self.number
        if method == "GET" and path == "/user":
            return 403, {}, {"message": "Resource not accessible by integration"}
        if method == "GET" and path == repo:
            return 200, {}, self._repo_json()
        if method == "GET" and path == f"{repo}/pulls/{n}":
            return 200, {}, self._pull_json()
        if method == "GET" and path == f"{repo}/issues/{n}/comments":
            return self._page(f"{repo}/issues/{n}/comments", self.comments, query)
        if method == "POST" and path == f"{repo}/issues/{n}/comments":
            return 201, {}, self._new_comment(str(body["body"]), login)
        found = re.fullmatch(rf"{re.escape(repo)}/issues/comments/(\d+)", path)
        if found:
            comment = next((c for c in self.comments if c["id"] == int(found[1])), None)
            if comment is None:
                return 404, {}, {"message": "Not Found"}
            if method == "PATCH":
                if comment["user"]["login"] != login:
                    return 403, {}, {"message": "Must have admin rights to Repository."}
                comment["body"] = str(body["body"])
                comment["updated_at"] = "2024-01-02T00:00:00Z"
                return 200, {}, comment
            if method == "DELETE":
                self.comments.remove(comment)
                return 204, {}, None
            if method == "GET":
                return 200, {}, comment
        if method == "GET" and path == f"{repo}/pulls/{n}/comments":
            return self._page(f"{repo}/pulls/{n}/comments", self.review_comments, query)
        if method == "GET" and re.fullmatch(rf"{re.escape(repo)}/commits/[0-9a-f]+", path):
            sha = path.rsplit("/", 1)[1]
            return 200, {}, {"sha": sha, "url": f"{self.api_url}{repo}/commits/{sha}"}
        if method == "POST" and path == f"{repo}/pulls/{n}/reviews":
            if body.get("commit_id") not in (None, self.head_sha):
                return (
                    422,
                    {},
                    {"message": "Unprocessable Entity", "errors": ["commit_id is not part of the pull request"]},
                )
            self._next_id += 1
            review = {"id": self._next_id, "body": body.get("body"), "state": "COMMENTED", "user": {"login": login}}
            self.reviews.append({**review, "comments": body.get("comments", []), "commit_id": body.get("commit_id")})
            for c in body.get("comments", []):
                self._next_id += 1
                self.review_comments.append({"id": self._next_id, "user": {"login": login}, **c})
            return 200, {}, review
        return 404, {}, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}

    def _page(
        self, path: str, items: list[dict[str, Any]], query: dict[str, list[str]]
    ) -> tuple[int, dict[str, str], Any]:
        per_page = min(int(query.get("per_page", ["30"])[0]), self.page_size)
        page = int(query.get("page", ["1"])[0])
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page : page * per_page]
        links = []
        base = f"{self.api_url}{path}?per_page={per_page}"
        if page < last:
            links.append(f'<{base}&page={page + 1}>; rel="next"')
            links.append(f'<{base}&page={last}>; rel="last"')
        if page > 1:
            links.append(f'<{base}&page={page - 1}>; rel="prev"')
            links.append(f'<{base}&page=1>; rel="first"')
        return 200, ({"Link": ", ".join(links)} if links else {}), [dict(c) for c in chunk]


def _token(authorization: str) -> str | None:
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() in ("token", "bearer") and value.strip() else None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, extra, payload = self.server.api.handle(self.command, self.path, headers, body)
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-RateLimit-Limit", "5000")
        if "x-ratelimit-remaining" not in {k.lower() for k in extra}:
            self.send_header("X-RateLimit-Remaining", "4999")
        for key, value in extra.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: tests read :attr:`FakeGitHub.requests` instead."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, api: FakeGitHub) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.api = api


@contextmanager
def running(api: FakeGitHub) -> Iterator[FakeGitHub]:
    """Serve ``api`` on a free port of 127.0.0.1 while inside; ``api.url`` is its address."""
    server = _Server(api)
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, name="fake-github", daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
