"""A repository, its settings and its index, opened together for one command."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import IndexBuildError

if TYPE_CHECKING:
    from .config import Config
    from .gitio import Snapshot, SnapshotKind
    from .indexer import Source, UpdateReport
    from .store import Store

__all__ = ["Workspace", "open_workspace"]


@dataclass
class Workspace:
    """What every command works on."""

    repo: object  # gitio.Repo (kept untyped here so that importing this module does not import pygit2)
    config: Config
    store: Store

    def update(
        self,
        source: Source,
        *,
        full: bool = False,
        progress: Callable[[int, int], None] | None = None,
    ) -> UpdateReport:
        """Bring the index to ``source`` (incrementally unless ``full``)."""
        from .indexer import update_index

        return update_index(
            self.store,
            self.repo,  # type: ignore[arg-type]
            source,
            full=full,
            size_limit=self.config.size_limit,
            excludes=self.config.excludes,
            progress=progress,
        )

    def find_tracked(self, match: Callable[[str], bool], under: Sequence[str] = ("",)) -> list[str]:
        """The files of the snapshot the index holds, parsed or not, below the folders ``under`` whose file
        name ``match`` accepts (none when they cannot be listed)."""
        from .errors import GitError

        snapshot = self._snapshot()
        if snapshot is None:
            return []
        try:
            return self.repo.find_paths(snapshot, match, under)  # type: ignore[attr-defined,no-any-return]
        except (GitError, KeyError):  # a tree garbage-collected since
            return []

    def read_tracked(self, path: str) -> bytes | None:
        """The content of ``path`` in the snapshot the index holds (a file that is not parsed, such as
        pytest's settings or a doctest text file); None when there is none to read."""
        from .errors import GitError

        snapshot = self._snapshot()
        if snapshot is None:
            return None
        try:
            return self.repo.read_path(snapshot, path)  # type: ignore[attr-defined,no-any-return]
        except (GitError, KeyError):
            return None

    def _snapshot(self) -> Snapshot | None:
        from .gitio import Snapshot

        return Snapshot.from_json(self.store.get_meta("snapshot"))

    def close(self) -> None:
        self.store.close()


def open_workspace(
    repo_dir: str | None,
    db: str | None = None,
    config: Config | None = None,
    *,
    prefetch: SnapshotKind | None = None,
) -> Workspace:
    """Open the repository at ``repo_dir`` (discovered upwards), its config and its index.

    ``prefetch``: the snapshot the caller will index, started in the background right away."""
    from .gitio import Repo

    repo = Repo(repo_dir or os.getcwd())
    if prefetch is not None:
        repo.prefetch(prefetch)
    # imported only now: while git takes the snapshot in the background
    from .config import load_config
    from .store import Store, default_db_path

    cfg = config or load_config(repo.root)
    if db:
        cfg = cfg.with_overrides("--db", db=db)
    path = Path(cfg.db) if cfg.db else default_db_path(repo.common_dir)
    if not path.is_absolute():
        path = Path(os.getcwd()) / path
    try:
        store = Store.open(path)
    except OSError as exc:
        raise IndexBuildError(f"cannot create the index at {path}: {exc.strerror} (use --db to choose a path)") from exc
    return Workspace(repo=repo, config=cfg, store=store)
