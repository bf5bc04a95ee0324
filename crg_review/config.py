"""Settings from ``[tool.crg-review]`` in pyproject.toml, ``.crg-review.toml``, the environment and flags.

Later sources win: defaults < pyproject.toml < .crg-review.toml < environment < command line. Each value
remembers where it came from, for ``crg-review config``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .errors import ConfigError

__all__ = ["DEFAULT_EXCLUDES", "Config", "load_config", "loads_toml"]

DEFAULT_EXCLUDES = (
    "vendor/*",
    "*/vendor/*",
    "third_party/*",
    "*/third_party/*",
    "node_modules/*",
    "*/node_modules/*",
    "*.min.js",
    "site-packages/*",
    "*/site-packages/*",
)


@dataclass(frozen=True)
class Config:
    """Effective settings. ``sources`` maps a setting name to where its value came from."""

    depth: int = 3
    fail_on: str = "never"
    exclude: tuple[str, ...] = ()
    size_limit: int = 1024 * 1024
    embed_model: str = "fast"
    template_dir: str | None = None
    db: str | None = None
    #: seconds the hook's search for related tests may take (0: no limit); the list it prints is then a
    #: start, marked as such (``crg-review tests`` never stops early)
    hook_test_seconds: float = 0.5
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def excludes(self) -> tuple[str, ...]:
        return DEFAULT_EXCLUDES + self.exclude

    def with_overrides(self, origin: str, **values: Any) -> Config:
        """A copy with the non-None ``values`` set, recorded as coming from ``origin``."""
        given = {k: v for k, v in values.items() if v is not None}
        cfg = replace(self, **_validated(given, origin))
        cfg.sources.update(self.sources)
        # sources are keyed by field name: 'fail-on' in a TOML file is the field fail_on
        cfg.sources.update({k.replace("-", "_"): origin for k in given})
        return cfg


_FAIL_ON = ("error", "warning", "never")


def _validated(values: dict[str, Any], origin: str) -> dict[str, Any]:
    known = {f.name for f in fields(Config)} - {"sources"}
    out: dict[str, Any] = {}
    for key, value in values.items():
        key = key.replace("-", "_")
        if key not in known:
            raise ConfigError(f"{origin}: unknown setting '{key}' (known: {', '.join(sorted(known))})")
        if key in ("depth", "size_limit"):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"{origin}: '{key}' must be a non-negative integer, not {value!r}")
        elif key == "hook_test_seconds":
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"{origin}: 'hook-test-seconds' must be a non-negative number, not {value!r}")
            value = float(value)
        elif key == "fail_on":
            if value not in _FAIL_ON:
                raise ConfigError(f"{origin}: 'fail-on' must be one of {', '.join(_FAIL_ON)}, not {value!r}")
        elif key == "exclude":
            if isinstance(value, str):
                value = (value,)
            if not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{origin}: 'exclude' must be a list of glob patterns")
            value = tuple(value)
        elif not isinstance(value, str):
            raise ConfigError(f"{origin}: '{key}' must be a string, not {value!r}")
        out[key] = value
    return out


def loads_toml(text: str) -> dict[str, Any]:
    """TOML text as a table; the parser is imported on first use (about 13 ms under ``-X importtime``, which the
    hook would pay on every commit for files that hold nothing it reads). Raises ValueError when malformed."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib.loads(text)


def _read_toml(path: Path, *, mentions: bytes = b"") -> dict[str, Any]:
    """The TOML file at ``path``; an empty table, without parsing it, when it does not contain ``mentions``."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from exc
    if mentions not in data:
        return {}
    try:
        return loads_toml(data.decode("utf-8"))
    except ValueError as exc:  # tomllib.TOMLDecodeError, UnicodeDecodeError
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def load_config(root: Path) -> Config:
    """Settings for the repository at ``root`` (files and environment; flags are applied by the CLI)."""
    cfg = Config(sources={f.name: "default" for f in fields(Config) if f.name != "sources"})
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        section = _read_toml(pyproject, mentions=b"crg-review").get("tool", {}).get("crg-review", {})
        if section:
            cfg = cfg.with_overrides("pyproject.toml [tool.crg-review]", **section)
    dotfile = root / ".crg-review.toml"
    if dotfile.is_file():
        cfg = cfg.with_overrides(".crg-review.toml", **_read_toml(dotfile))
    env: dict[str, Any] = {}
    if os.environ.get("CRG_REVIEW_DB"):
        env["db"] = os.environ["CRG_REVIEW_DB"]
    if os.environ.get("CRG_REVIEW_EMBED_MODEL"):
        env["embed_model"] = os.environ["CRG_REVIEW_EMBED_MODEL"]
    return cfg.with_overrides("environment", **env) if env else cfg
