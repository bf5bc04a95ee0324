"""``crg-review github`` against a local GitHub API (tests/github_server.py): one sticky comment per pull
request, pagination, a fork's read-only token, rate limits, the fork-safe comment file, inline reviews,
and a token that never shows up in anything crg-review writes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from crg_review import github
from crg_review.render import md_escape
from tests.github_server import BOT, FakeGitHub, running
from tests.helpers import Run, commit, crg, crg_env, git, make_repo, write

TOKEN = "ghs_crgTestToken0123456789abcdefABCDEF"

CALC = "def add(a, b):\n    return a + b\n\n\ndef total(xs):\n    s = 0\n    for x in xs:\n        s = add(s, x)\n    return s\n"
TESTS = "from calc import add, total\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"


class Project:
    """A repository with a pull request (``main`` → ``feature``) and the files of one Actions job."""

    def __init__(self, root: Path, tmp: Path, api: FakeGitHub) -> None:
        self.root, self.tmp, self.api = root, tmp, api
        self.summary = tmp / "summary.md"
        self.event_path = tmp / "event.json"

    def push(self, files: dict[str, str], msg: str = "change") -> str:
        """A new commit on the pull request's branch; the API and the event follow it."""
        for path, text in files.items():
            write(self.root, path, text)
        self.api.head_sha = commit(self.root, msg)
        return self.api.head_sha

    def run(self, *args: str, event: str = "pull_request", payload: dict | None = None, **env: str) -> Run:
        self.event_path.write_text(json.dumps(payload if payload is not None else self.api.event()))
        base = {k: v for k, v in crg_env().items() if not k.startswith(("GITHUB_", "PRE_COMMIT"))}
        base.update(
            GITHUB_EVENT_NAME=event,
            GITHUB_EVENT_PATH=str(self.event_path),
            GITHUB_REPOSITORY=self.api.repository,
            GITHUB_API_URL=self.api.api_url,
            GITHUB_STEP_SUMMARY=str(self.summary),
            GITHUB_TOKEN=TOKEN,
        )
        base.update(env)
        run = crg("github", "-v", *args, cwd=self.root, env=base)
        assert_no_token(run, self.summary, *self.tmp.glob("*.md"))
        return run


def assert_no_token(run: Run, *files: Path) -> None:
    assert TOKEN not in run.out and TOKEN not in run.err, run
    for f in files:
        if f.exists():
            assert TOKEN not in f.read_text(), f


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    root = make_repo(tmp_path / "repo")
    write(root, "calc.py", CALC)
    write(root, "tests/test_calc.py", TESTS)
    base = commit(root, "base")
    git(root, "switch", "-q", "-c", "feature")
    api = FakeGitHub(tokens={TOKEN: BOT}, base_sha=base)
    jobs = tmp_path / "job"
    jobs.mkdir()
    with running(api):
        p = Project(root, jobs, api)
        p.push({"calc.py": CALC.replace("return a + b", "return b + a")})
        yield p


def comment_posts(api: FakeGitHub) -> list[str]:
    return [r.method for r in api.writes() if "/issues/" in r.path]


def test_two_runs_leave_one_comment_edited_in_place(project: Project) -> None:
    first = project.run()
    assert first.code == 0, first
    assert "comment created" in first.out
    assert len(project.api.comments) == 1
    posted = project.api.comments[0]
    assert posted["body"].startswith(github.MARKER)
    assert "add" in posted["body"] and md_escape("test_add") in posted["body"]

    head = project.push({"calc.py": CALC.replace("return a + b", "return b + a").replace("s = 0", "s = 0  # sum")})
    second = project.run()
    assert second.code == 0, second
    assert "comment updated" in second.out
    assert len(project.api.comments) == 1
    assert project.api.comments[0]["id"] == posted["id"]
    assert f"pull-request {project.api.number} {head}" in project.api.comments[0]["body"]
    assert comment_posts(project.api) == ["POST", "PATCH"]

    third = project.run()
    assert "comment unchanged" in third.out
    assert comment_posts(project.api) == ["POST", "PATCH"]
    # an Actions token may not ask who it is: we never do
    assert not [r for r in project.api.requests if r.path == "/user"]
    # the token did reach the API (so the checks that it is never printed mean something)
    assert {r.headers.get("authorization") for r in project.api.requests} == {f"token {TOKEN}"}


def test_the_full_review_goes_to_the_job_summary(project: Project) -> None:
    run = project.run()
    assert run.code == 0, run
    summary = project.summary.read_text()
    assert md_escape("test_add") in summary and "total" in summary
    assert github.MARKER not in summary


def test_pagination_finds_our_comment_on_page_two_and_ignores_marker_copies(project: Project) -> None:
    api = project.api
    api.page_size = 2
    mallory = api.add_comment(f"{github.MARKER}\nquoted: looks like yours", login="mallory")
    for i in range(2):
        api.add_comment(f"comment {i}", login=f"user{i}")
    ours = api.add_comment(f"{github.MARKER}\nold review", login=BOT)  # 4th: page 2
    api.add_comment("later", login="user9")

    run = project.run()
    assert run.code == 0, run
    assert "comment updated" in run.out
    assert [c["id"] for c in api.comments if github.MARKER in c["body"]] == [mallory["id"], ours["id"]]
    assert "old review" not in ours["body"] and md_escape("test_add") in ours["body"]
    assert mallory["body"].endswith("looks like yours")
    assert comment_posts(api) == ["PATCH"]
    assert any(r.query.get("page") == ["2"] for r in api.requests if r.path.endswith("/issues/7/comments"))


def test_duplicates_from_a_race_are_folded_into_one(project: Project) -> None:
    first = project.api.add_comment(f"{github.MARKER}\nrun A", login=BOT)
    project.api.add_comment(f"{github.MARKER}\nrun B", login=BOT)
    run = project.run()
    assert run.code == 0, run
    assert [c["id"] for c in project.api.comments] == [first["id"]]


def test_fork_token_falls_back_to_the_job_summary(project: Project) -> None:
    project.api.read_only.add(TOKEN)
    project.api.head_repository = "forker/demo"
    run = project.run()
    assert run.code == 0, run
    assert project.api.comments == []
    assert "read-only token" in run.err and "fork-safe" in run.err
    summary = project.summary.read_text()
    assert md_escape("test_add") in summary and "read-only token" in summary
    assert "Traceback" not in run.err


def test_fork_fallback_still_honours_fail_on(project: Project) -> None:
    project.api.read_only.add(TOKEN)
    project.push({"calc.py": CALC.replace("def add(a, b)", "def plus(a, b)")})  # add() still called: an error
    assert project.run("--fail-on", "error").code == 2
    assert project.run("--fail-on", "never").code == 0


def test_rate_limits_are_waited_out(project: Project) -> None:
    api = project.api
    past = str(int(time.time()) - 5)  # the reset has passed: PyGithub's retry need not sleep long
    api.fail(
        "GET",
        r"/repos/octo/demo/issues/7/comments",
        403,
        {"message": "API rate limit exceeded for installation ID 1.", "documentation_url": "https://docs.github.com"},
        {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": past},
    )
    api.fail("POST", r"/repos/octo/demo/issues/7/comments", 429, {"message": "slow down"}, {"Retry-After": "0"})
    run = project.run()
    assert run.code == 0, run
    assert len(api.comments) == 1
    tries = [r.method for r in api.requests if r.path == "/repos/octo/demo/issues/7/comments"]
    assert tries == ["GET", "GET", "POST", "POST"]


def test_rate_limit_that_does_not_end_soon_fails_with_a_message(project: Project) -> None:
    later = str(int(time.time()) + 3600)  # beyond the longest wait crg-review accepts
    project.api.fail(
        "GET",
        r".*/issues/7/comments",
        403,
        {"message": "API rate limit exceeded for installation ID 1."},
        {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": later},
    )
    run = project.run()
    assert run.code == 1, run
    assert run.err.splitlines()[-1].startswith(
        "crg-review: error: updating the comment on pull request #7: GitHub's rate limit"
    )
    assert "rerun the job later" in run.err
    assert "Traceback" not in run.err


def test_unexpected_api_answer_fails_with_a_message(project: Project) -> None:
    project.api.fail("POST", r".*/issues/7/comments", 422, {"message": "Validation Failed"})
    run = project.run()
    assert run.code == 1, run
    assert (
        "crg-review: error: updating the comment on pull request #7: GitHub answered 422: Validation Failed" in run.err
    )
    assert "Traceback" not in run.err


def test_bad_token_is_an_error_without_the_token(project: Project) -> None:
    project.api.tokens.clear()
    run = project.run()
    assert run.code == 1
    assert "bad credentials" in run.err
    assert any(r.headers.get("authorization") == f"token {TOKEN}" for r in project.api.requests)


def test_token_from_the_command_line_is_not_printed_either(project: Project) -> None:
    run = project.run("--token", TOKEN, GITHUB_TOKEN="")
    assert run.code == 0, run
    assert len(project.api.comments) == 1


def test_no_token_keeps_the_review_in_the_summary(project: Project) -> None:
    run = project.run(GITHUB_TOKEN="")
    assert run.code == 0, run
    assert "no token" in run.err
    assert project.api.requests == []
    assert md_escape("test_add") in project.summary.read_text()


def test_comment_file_then_workflow_run_posts_it(project: Project) -> None:
    out = project.tmp / "artifact" / "comment.md"
    written = project.run("--comment-file", str(out), GITHUB_TOKEN="")
    assert written.code == 0, written
    assert project.api.requests == []
    text = out.read_text()
    assert text.startswith(github.MARKER) and md_escape("test_add") in text

    trusted = {"workflow_run": {"head_sha": project.api.head_sha, "id": 99}}
    posted = project.run("--post-comment-file", str(out), event="workflow_run", payload=trusted)
    assert posted.code == 0, posted
    assert len(project.api.comments) == 1
    assert md_escape("test_add") in project.api.comments[0]["body"]
    again = project.run("--post-comment-file", str(out), event="workflow_run", payload=trusted)
    assert "comment unchanged" in again.out and len(project.api.comments) == 1


def test_workflow_run_refuses_a_comment_file_for_another_commit(project: Project) -> None:
    out = project.tmp / "comment.md"
    assert project.run("--comment-file", str(out)).code == 0
    # the fork controls the artifact: it names a pull request whose head is not what the run reviewed
    other = {"workflow_run": {"head_sha": "2" * 40, "id": 99}}
    run = project.run("--post-comment-file", str(out), event="workflow_run", payload=other)
    assert run.code == 1
    assert "not written for the commit this workflow run reviewed" in run.err
    assert project.api.writes() == []


def test_workflow_run_skips_a_pull_request_that_moved_on(project: Project) -> None:
    out = project.tmp / "comment.md"
    assert project.run("--comment-file", str(out)).code == 0
    reviewed = project.api.head_sha
    project.push({"calc.py": CALC})
    run = project.run(
        "--post-comment-file", str(out), event="workflow_run", payload={"workflow_run": {"head_sha": reviewed}}
    )
    assert run.code == 0, run
    assert "not posting" in run.out
    assert project.api.writes() == []


def test_inline_review_comments_changed_lines_once(project: Project) -> None:
    # a new public function nobody calls or tests: a warning on a line the pull request adds
    project.push({"orphan.py": "import os\n\n\ndef nobody_calls_me(x):\n    return os.sep + x\n"})
    run = project.run("--inline")
    assert run.code == 0, run
    assert "inline review: 1 new comment(s)" in run.out
    (review,) = project.api.reviews
    assert review["commit_id"] == project.api.head_sha
    assert [(c["path"], c["line"], c["side"]) for c in review["comments"]] == [("orphan.py", 4, "RIGHT")]
    assert "nobody&#95;calls&#95;me" in review["comments"][0]["body"]
    again = project.run("--inline")
    assert "inline review: 0 new comment(s)" in again.out
    assert len(project.api.reviews) == 1  # nothing new to say: no second review


def test_other_events_have_nothing_to_review(project: Project) -> None:
    run = project.run(event="push", payload={"ref": "refs/heads/main"})
    assert run.code == 0
    assert "not a pull request" in run.out
    assert project.api.requests == []


def test_enterprise_api_url_with_a_path_prefix(project: Project) -> None:
    project.api.prefix = "/api/v3"
    run = project.run()
    assert run.code == 0, run
    assert len(project.api.comments) == 1


def test_missing_environment_says_what_is_needed(tmp_path: Path) -> None:
    env = {k: v for k, v in crg_env().items() if not k.startswith("GITHUB_")}
    run = crg("github", cwd=tmp_path, env=env)
    assert run.code == 1
    assert "GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY not set" in run.err


def test_base_commit_missing_names_the_fix(project: Project) -> None:
    project.api.base_sha = "3" * 40
    run = project.run()
    assert run.code == 1
    assert "3333333" in run.err and "fetch" in run.err


# -- the comment itself


def test_hostile_names_are_inert_in_the_posted_comment(project: Project) -> None:
    hostile = "<img src=x onerror=alert(1)> `tick` @someone <!-- x.py"
    project.push({hostile: "def f():\n    return 1\n", "calc.py": CALC.replace("return a + b", "return a+b")})
    run = project.run()
    assert run.code == 0, run
    body = project.api.comments[0]["body"]
    assert "img src=x" not in body.replace("&lt;img src=x", "")
    assert "<img" not in body
    assert "@someone" not in body
    assert "`tick`" not in body
    assert body.count("<!--") == 2  # our two markers only


def test_comment_stays_under_githubs_limit_on_a_huge_diff(project: Project) -> None:
    big = "".join(f"def function_number_{i}(a, b):\n    return a + b + {i}\n\n\n" for i in range(2500))
    project.push({"big.py": big})
    project.push({"big.py": big.replace("return a + b", "return b + a")})
    run = project.run()
    assert run.code == 0, run
    body = project.api.comments[0]["body"]
    assert len(body) < 65_536
    assert body.startswith(github.MARKER)
    assert len(project.summary.read_text()) > len(body)  # the job summary has all of it


def test_comment_body_is_capped_and_cannot_forge_markers() -> None:
    pull = github.PullRequestRef("o/r", 3, "a" * 40, "b" * 40, None)
    forged = f"{github.MARKER}\n<!-- crg-review:pull-request 9 {'c' * 40} -->\n" + "line\n" * 30_000
    body = github.comment_body(forged, pull)
    assert len(body) <= github.COMMENT_LIMIT
    assert body.count(github.MARKER) == 1
    markdown, number, head = github.parse_comment_file(body)
    assert (number, head) == (3, "b" * 40)
    assert "<!-- crg-review:" not in markdown  # the forged markers are quoted, inert
    assert "job summary has all of it" in body
