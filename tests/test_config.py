"""``crg-review config``: the effective settings and where each one came from."""

from __future__ import annotations

from pathlib import Path

import pytest

from crg_review.config import Config, load_config
from crg_review.errors import ConfigError
from tests.helpers import crg, crg_env, make_repo, write


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def settings(repo: Path, *args: str, **env: str) -> dict[str, dict[str, object]]:
    run = crg("config", "--format", "json", *args, cwd=repo, env=crg_env(**env))
    assert run.code == 0, run
    data = run.json()
    assert data["root"] == str(repo.resolve())
    return data["settings"]  # type: ignore[no-any-return]


def test_defaults_say_so(repo: Path) -> None:
    got = settings(repo)
    assert got["depth"] == {"value": 3, "source": "default"}
    assert got["fail-on"] == {"value": "never", "source": "default"}
    assert got["db"] == {"value": str(repo.resolve() / ".git" / "crg-review" / "index.db"), "source": "default"}
    assert set(got) == {"depth", "fail-on", "exclude", "size-limit", "embed-model", "template-dir", "db", "hook-test-seconds"}


def test_each_value_names_its_source_and_later_sources_win(repo: Path) -> None:
    write(
        repo,
        "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.crg-review]\ndepth = 5\nfail-on = "warning"\nexclude = ["gen/*"]\n',
    )
    write(repo, ".crg-review.toml", 'fail-on = "error"\nsize-limit = 2048\n')
    got = settings(repo, "--db", "elsewhere.db", CRG_REVIEW_EMBED_MODEL="small")
    assert got["depth"] == {"value": 5, "source": "pyproject.toml [tool.crg-review]"}
    assert got["exclude"] == {"value": ["gen/*"], "source": "pyproject.toml [tool.crg-review]"}
    assert got["fail-on"] == {"value": "error", "source": ".crg-review.toml"}
    assert got["size-limit"] == {"value": 2048, "source": ".crg-review.toml"}
    assert got["embed-model"] == {"value": "small", "source": "environment"}
    assert got["db"] == {"value": "elsewhere.db", "source": "--db"}
    assert got["template-dir"] == {"value": None, "source": "default"}


def test_text_output_is_one_line_per_setting(repo: Path) -> None:
    write(repo, ".crg-review.toml", "depth = 2\n")
    run = crg("config", cwd=repo, env=crg_env())
    assert run.code == 0, run
    lines = run.out.splitlines()
    assert lines[0].startswith(f"# effective settings for {repo.resolve()}")
    assert "depth              2  (.crg-review.toml)" in lines
    assert "template-dir       -  (default)" in lines
    assert "hook-test-seconds  0.5  (default)" in lines
    assert any(line.strip().startswith("always excluded as well: vendor/*") for line in lines)


def test_invalid_setting_is_an_error_naming_the_file(repo: Path) -> None:
    write(repo, ".crg-review.toml", 'fail-on = "sometimes"\n')
    run = crg("config", cwd=repo, env=crg_env())
    assert run.code == 1
    assert run.err == (
        "crg-review: error: .crg-review.toml: 'fail-on' must be one of error, warning, never, not 'sometimes'\n"
    )


def test_unknown_setting_lists_the_known_ones(repo: Path) -> None:
    write(repo, "pyproject.toml", "[tool.crg-review]\ndepht = 4\n")
    run = crg("config", cwd=repo, env=crg_env())
    assert run.code == 1
    assert "unknown setting 'depht'" in run.err and "depth" in run.err


def test_outside_a_repository_says_what_to_do(tmp_path: Path) -> None:
    run = crg("config", cwd=tmp_path, env=crg_env())
    assert run.code == 1
    assert run.err.startswith("crg-review: error: not a git repository")


def test_hook_time_limit_must_be_a_non_negative_number(repo: Path) -> None:
    write(repo, ".crg-review.toml", "hook-test-seconds = -1\n")
    run = crg("config", cwd=repo, env=crg_env())
    assert run.code == 1
    assert run.err == "crg-review: error: .crg-review.toml: 'hook-test-seconds' must be a non-negative number, not -1\n"


def test_a_pyproject_without_a_crg_review_table_is_not_parsed(repo: Path) -> None:
    # the project's own pyproject.toml is not ours to judge: broken TOML there is an error only when it holds
    # our table (the hook does not pay for parsing it on every commit)
    write(repo, "pyproject.toml", "[project\nname = 'x'\n")
    assert load_config(repo).depth == Config().depth
    write(repo, "pyproject.toml", "[tool.crg-review\ndepth = 4\n")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config(repo)
