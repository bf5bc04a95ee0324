"""One small exception tree; the CLI maps it to exit codes and one-line messages."""

from __future__ import annotations

__all__ = ["ConfigError", "CrgError", "GitError", "IndexBuildError", "LockedError", "PublishError"]


class CrgError(Exception):
    """A user-facing error: the message says what went wrong and what to do next."""

    exit_code = 1


class GitError(CrgError):
    """The repository, a revision or a range could not be read."""


class IndexBuildError(CrgError):
    """The index could not be built or opened."""


class LockedError(IndexBuildError):
    """Another crg-review process holds the index lock."""


class ConfigError(CrgError):
    """Invalid configuration or command-line options."""


class PublishError(CrgError):
    """A review could not be published (GitHub API, permissions)."""
