"""Hybrid search: a lexical leg (FTS5 BM25 + trigram substrings), a vector leg, a graph leg; RRF; boosts.

The search tables live beside the graph in the index and are brought up to date by
:func:`update_search_index` (to be called by the indexer after each update; a search calls it itself
when it finds the index changed since):

``search_marks``
    one row per symbol: the blob id of its file and the hash of the text it was embedded from. A row
    goes with its symbol (``ON DELETE CASCADE``): a symbol without one is new, one whose file blob
    changed is re-read (and re-embedded only if its text changed), a shrinking count means deletions.
``symbol_names_trigram``
    FTS5 trigram index of symbol names (rowid = symbol id), for identifiers given in part.
``vectors``
    (store.py) one vector per (model, text hash): the same text is never embedded twice.
``vector_matrix``
    every vector of a model in one BLOB, so that a new process loads them in one read (plus the few
    symbols marked since it was stored).

Degradation: no vectors → ``fts``; no FTS5 → ``keyword`` (``LIKE``); the answer names the ``mode``.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt

from .errors import ConfigError, CrgError
from .review import Related
from .store import Store, escape_like, fts_quote

if TYPE_CHECKING:
    from .embed import Embedder
    from .gitio import Repo

__all__ = [
    "MODES",
    "RRF_K",
    "Hit",
    "ParsedQuery",
    "SearchResult",
    "parse_query",
    "related_code",
    "rrf",
    "search",
    "update_search_index",
    "update_vectors",
]

log = logging.getLogger(__name__)
_T = TypeVar("_T")

RRF_K = 60
MODES = ("hybrid", "fts", "semantic", "keyword")
#: candidates each leg contributes to the fusion
LEG_DEPTH = 100
#: shortest stem searched as a prefix (``pars*`` for parse, parser, parsing)
PREFIX_MIN = 3
#: BM25 column weights: name words, qualified name, signature, docstring
FTS_WEIGHTS = "6.0, 3.0, 1.5, 0.75"
#: top hits of the lexical and of the vector leg whose neighbours the graph leg collects
GRAPH_SEEDS = 5
GRAPH_EDGE_KINDS = ("call", "import", "inherit")
GRAPH_FANOUT = 25
#: fused candidates whose boosts are computed
BOOST_CANDIDATES = 50

#: multiplicative boosts after fusion
BOOST_EXACT_QUALNAME = 2.0
BOOST_IDENTIFIER = 1.5
BOOST_CONTEXT_FILE = 1.5
BOOST_KIND = 1.3
#: a prior on what people look for: the implementation rather than its tests, a definition rather than a file
PRIOR = {"test": 0.8, "module": 0.8}

_STOP = frozenset(
    ["a", "an", "the", "of", "to", "in", "on", "for", "from", "by", "with", "and", "or", "not", "is", "are", "was", "be", "been", "being", "it", "its", "this", "that", "these", "those", "as", "at", "into", "over", "under", "than", "then", "there", "which", "who", "whom", "what", "where", "when", "why", "how", "do", "does", "did", "done", "can", "could", "should", "would", "will", "shall", "may", "might", "must", "some", "any", "all", "each", "every", "no", "nor", "only", "own", "same", "so", "such", "too", "very", "just", "also", "about", "above", "below", "between", "both", "i", "me", "my", "we", "our", "you", "your", "he", "she", "they", "them", "their", "if", "else", "code", "function", "method", "class", "find", "where's", "where", "does", "handle", "handles", "handling", "thing", "things", "using", "use", "used"]
)
_KIND_WORDS = {
    "class": "class",
    "classes": "class",
    "type": "class",
    "types": "class",
    "function": "function",
    "functions": "function",
    "func": "function",
    "method": "method",
    "methods": "method",
    "test": "test",
    "tests": "test",
    "module": "module",
    "modules": "module",
    "interface": "interface",
    "struct": "struct",
    "enum": "enum",
    "trait": "trait",
}
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*")
_PASCAL = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$|^[A-Z][a-z0-9]+[A-Z]\w*$")
_CAMEL = re.compile(r"^[a-z][a-z0-9]*[A-Z]\w*$")
_SUFFIXES = (
    "ations",
    "ation",
    "ions",
    "ion",
    "ings",
    "ing",
    "ors",
    "or",
    "ers",
    "er",
    "ies",
    "ied",
    "es",
    "ed",
    "e",
    "s",
)

_SEARCH_TABLES = (
    (
        "CREATE TABLE IF NOT EXISTS search_marks ("
        " symbol_id INTEGER PRIMARY KEY REFERENCES symbols(id) ON DELETE CASCADE,"
        " file_oid TEXT NOT NULL,"
        " text_hash TEXT NOT NULL,"
        " epoch INTEGER NOT NULL)"  # the search_epoch that wrote the row: the stored matrix catches up from it
    ),
)
#: tables of earlier layouts of this module, dropped (and rebuilt) when found
_OBSOLETE = ("search_symbols", "symbols_trigram", "search_matrix")
#: the layout of the search tables, kept in meta: another value (an index written by an earlier
#: crg-review) makes the next search update them, and the update migrates them
SEARCH_LAYOUT = "3"
#: names only (a module's is its dotted name): half the trigrams of qualified names; a dotted query
#: identifier is matched by its last part, then checked against the qualified name
_TRIGRAM_TABLE = "CREATE VIRTUAL TABLE IF NOT EXISTS symbol_names_trigram USING fts5(name, tokenize='trigram')"


# --- query preprocessing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ParsedQuery:
    """A query taken apart: identifiers as written, content words, kinds it asks for."""

    text: str
    identifiers: tuple[str, ...]
    words: tuple[str, ...]
    kinds: tuple[str, ...]

    @cached_property
    def stems(self) -> frozenset[str]:
        """The stems of :attr:`words`."""
        return frozenset(_stem(w) for w in self.words)


def _is_identifier(token: str) -> bool:
    return bool(
        "_" in token.strip("_")
        or "." in token
        or "::" in token
        or _PASCAL.match(token)
        or _CAMEL.match(token)
        or (token.isupper() and len(token) > 1)
    )


def parse_query(text: str) -> ParsedQuery:
    """Identifiers (``Context.invoke``, ``snake_case``, ``PascalCase``, ``camelCase``), words and kind hints."""
    from .embed import split_identifier

    tokens = _TOKEN.findall(text)
    identifiers = [t for t in tokens if _is_identifier(t)]
    if len(tokens) == 1 and not identifiers and tokens[0].lower() not in _STOP:
        identifiers = tokens  # a one-word query is a name
    kinds: list[str] = []
    words: list[str] = []
    for token in tokens:
        low = token.lower()
        if low in _KIND_WORDS and len(tokens) > 1:
            kinds.append(_KIND_WORDS[low])
            continue
        for w in split_identifier(token) if token in identifiers else [low]:
            if w not in _STOP and w not in words and (len(w) > 1 or w.isdigit()):
                words.append(w)
    for ident in identifiers:
        last = re.split(r"\.|::", ident)[-1]
        if _PASCAL.match(last) and "class" not in kinds:
            kinds.append("class")
    return ParsedQuery(text, tuple(dict.fromkeys(identifiers)), tuple(words), tuple(dict.fromkeys(kinds)))


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def fts_expression(q: ParsedQuery) -> str:
    """The FTS5 MATCH expression: any identifier whole, any word, the stem of an inflected word as a prefix
    (``addresses`` → ``address*``; a bare word is no prefix: ``filter*`` would match every ``filter_...``)."""
    terms: list[str] = []
    for ident in q.identifiers:
        for part in re.split(r"\.|::", ident):
            if part:
                terms.append(fts_quote(part.lower()))
    for w in q.words:
        terms.append(fts_quote(w))
        stem = _stem(w)
        if len(stem) >= PREFIX_MIN and stem != w:
            terms.append(fts_quote(stem) + "*")
    return " OR ".join(dict.fromkeys(terms))


# --- results ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """One search result; ``legs`` names the legs that found it."""

    name: str
    qualified_name: str
    kind: str
    file: str
    line: int
    language: str
    score: float
    legs: tuple[str, ...]
    symbol_id: int = field(default=0, compare=False)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "qualified_name": self.qualified_name,
            "kind": self.kind,
            "file": self.file,
            "line": self.line,
            "location": self.location,
            "language": self.language,
            "score": round(self.score, 6),
            "legs": list(self.legs),
        }


@dataclass(frozen=True)
class SearchResult:
    """The answer: which ``mode`` ran and the ranked hits."""

    query: str
    mode: str
    results: tuple[Hit, ...]

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "mode": self.mode, "results": [h.to_json() for h in self.results]}


def rrf(rankings: Mapping[str, Sequence[int]], k: int = RRF_K) -> dict[int, float]:
    """Reciprocal Rank Fusion: ``sum(1 / (k + rank))`` over the rankings (ranks start at 1)."""
    scores: dict[int, float] = defaultdict(float)
    for ranked in rankings.values():
        for rank, sid in enumerate(ranked, 1):
            scores[sid] += 1.0 / (k + rank)
    return dict(scores)


# --- keeping the search tables up to date ----------------------------------------------------------


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name=?", (name,)).fetchone() is not None


@functools.cache
def trigram_available() -> bool:
    """Whether this SQLite offers the FTS5 trigram tokenizer (3.34+)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()


def _git_blob_id(data: bytes) -> str:
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class _Sources:
    """Source lines of indexed files: the blob from git, else the work-tree file if its content is that blob."""

    def __init__(self, repo: Repo | None) -> None:
        self.repo = repo
        self._cache: dict[str, list[str]] = {}

    def lines(self, path: str, oid: str) -> list[str]:
        if self.repo is None:
            return []
        if oid not in self._cache:
            self._cache.clear()  # one file at a time: callers go file by file
            self._cache[oid] = self._read(path, oid)
        return self._cache[oid]

    def _read(self, path: str, oid: str) -> list[str]:
        assert self.repo is not None
        data: bytes | None
        try:
            data = self.repo.read_blob(oid)
        except CrgError:
            try:
                data = (Path(self.repo.root) / path).read_bytes()
            except OSError:
                data = None
            if data is not None and _git_blob_id(data) != oid:
                data = None
        if data is None:
            log.debug("no source for %s (%s): embedding it without its body", path, oid)
            return []
        return data.decode("utf-8", "replace").splitlines()


#: source lines of a symbol handed to :func:`embed.symbol_text` (header, docstring, first statements)
_TEXT_LINES = 200


def _symbol_texts(conn: sqlite3.Connection, ids: Sequence[int], sources: _Sources) -> dict[int, str]:
    from .embed import symbol_text

    out: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        rows = conn.execute(
            "SELECT s.id, s.kind, s.name, s.qualname, s.signature, s.docstring, s.start_line, s.end_line, f.path, f.oid"
            f" FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN ({','.join('?' * len(chunk))})"
            " ORDER BY f.id, s.id",
            chunk,
        ).fetchall()
        for sid, kind, name, qualname, sig, doc, start, end, path, oid in rows:
            lines = sources.lines(path, oid)
            # the header, the docstring and the first statements are near the top: no need to copy a whole class
            out[sid] = symbol_text(kind, name, qualname, sig, doc, lines[start - 1 : min(end, start + _TEXT_LINES)])
    return out


_STALE = (
    "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id LEFT JOIN search_marks m ON m.symbol_id = s.id"
    " WHERE m.symbol_id IS NULL OR m.file_oid != f.oid"
)
#: (database, model id) -> (data_version, total_changes) when the search tables were last seen up to date
_FRESH: dict[tuple[str, str | None], tuple[int, int]] = {}


def _version(conn: sqlite3.Connection) -> tuple[int, int]:
    # data_version moves when another connection commits, total_changes when this one writes
    return int(conn.execute("PRAGMA data_version").fetchone()[0]), conn.total_changes


def needs_update(store: Store, model_id: str | None) -> bool:
    """Whether a symbol is new or changed since the search tables were updated, one was deleted, or
    there are no vectors of ``model_id``. Remembered per process until the database changes."""
    conn = store.conn
    key = (str(store.path), model_id)
    if _FRESH.get(key) == _version(conn):
        return False
    if not _has_table(conn, "search_marks") or store.get_meta("search_layout") != SEARCH_LAYOUT:
        return True
    n_marks = conn.execute("SELECT count(*) FROM search_marks").fetchone()[0]
    if store.get_meta("search_marks") != str(n_marks) or (
        model_id is not None and store.get_meta("embed_model") != model_id
    ):
        return True
    updated = store.get_meta("updated_at")
    # updated by the indexer after its last update: trust it; else look for a symbol of a changed file
    stale = not (updated is not None and store.get_meta("search_synced") == updated) and (
        conn.execute(_STALE + " LIMIT 1").fetchone() is not None
    )
    if not stale:
        _FRESH[key] = _version(conn)
    return stale


def update_search_index(store: Store, repo: Repo | None = None, *, model: str | None = "fast") -> int:
    """Bring the search tables up to date with the symbols; embed the texts that have no vector yet.

    Call at the end of every index update, after ``updated_at`` is set (inside or after its transaction):
    a search trusts tables updated since the index was. ``repo`` supplies the bodies
    (embedded texts include their first lines); ``model`` is ``fast``, ``quality`` or None (no
    vectors). Only symbols of files whose blob changed get a new text; only new texts are embedded.
    Returns how many texts were embedded.
    """
    embedder = None
    if model is not None:
        from .embed import load_embedder

        embedder = load_embedder(model)
    return _update(store, repo, embedder)


def _update(store: Store, repo: Repo | None, embedder: Embedder | None) -> int:
    from .embed import text_hash

    sources = _Sources(repo)
    embedded = 0
    with store.atomic() as conn:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(search_marks)")}
        if columns and "epoch" not in columns:
            conn.execute("DROP TABLE search_marks")
            store.set_meta("search_marks", "-1")
        for table in _OBSOLETE:
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SEARCH_TABLES:
            conn.execute(statement)
        epoch = int(store.get_meta("search_epoch") or "0") + 1  # this update's, if it changes anything
        trigram = store.has_fts and trigram_available()
        if trigram:
            conn.execute(_TRIGRAM_TABLE)
        n_marks = conn.execute("SELECT count(*) FROM search_marks").fetchone()[0]
        last = store.get_meta("search_marks")
        deleted = last is None or int(last) != n_marks  # marks leave with their symbols (ON DELETE CASCADE)
        if deleted and trigram:
            conn.execute("DELETE FROM symbol_names_trigram WHERE rowid NOT IN (SELECT symbol_id FROM search_marks)")
        stale = [r[0] for r in conn.execute(_STALE + " ORDER BY s.file_id, s.id")]
        texts = _symbol_texts(conn, stale, sources)
        old_hashes = _hashes(conn, stale)
        oids = {
            r[0]: r[1]
            for chunk in _chunks(stale)
            for r in conn.execute(
                f"SELECT s.id, f.oid FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN ({_marks(chunk)})",
                chunk,
            )
        }
        hashes = {sid: text_hash(text) for sid, text in texts.items()}
        conn.executemany(
            "INSERT OR REPLACE INTO search_marks(symbol_id, file_oid, text_hash, epoch) VALUES (?, ?, ?, ?)",
            [(sid, oids[sid], h, epoch) for sid, h in hashes.items()],
        )
        changed_hashes = any(old_hashes.get(sid) not in (None, h) for sid, h in hashes.items())
        if trigram and stale:
            for chunk in _chunks(stale):
                conn.execute(f"DELETE FROM symbol_names_trigram WHERE rowid IN ({_marks(chunk)})", chunk)
                conn.execute(
                    "INSERT INTO symbol_names_trigram(rowid, name)"
                    f" SELECT s.id, s.name FROM symbols s WHERE s.id IN ({_marks(chunk)})",
                    chunk,
                )
        if embedder is not None:
            embedded = _embed_missing(store, embedder, texts, hashes, sources, epoch, gc=deleted or changed_hashes)
        n_marks = conn.execute("SELECT count(*) FROM search_marks").fetchone()[0]
        store.set_meta("search_marks", str(n_marks))
        store.set_meta("search_synced", store.get_meta("updated_at") or "")
        store.set_meta("search_layout", SEARCH_LAYOUT)
        if stale or embedded or deleted:
            store.set_meta("search_epoch", str(epoch))
    _FRESH[(str(store.path), embedder.model_id if embedder else None)] = _version(store.conn)
    return embedded


def _chunks(ids: Sequence[_T], size: int = 500) -> Iterator[Sequence[_T]]:
    for i in range(0, len(ids), size):
        yield ids[i : i + size]


def _marks(chunk: Sequence[int]) -> str:
    return ",".join("?" * len(chunk))


def _hashes(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, str]:
    return {
        r[0]: r[1]
        for chunk in _chunks(ids)
        for r in conn.execute(
            f"SELECT symbol_id, text_hash FROM search_marks WHERE symbol_id IN ({_marks(chunk)})", chunk
        )
    }


def _sweep(conn: sqlite3.Connection, model_id: str, changed: bool) -> None:
    """Drop the vectors no mark uses any more, once they are a tenth of the marks (a sweep reads both tables)."""
    if not changed:
        return
    n_vectors = conn.execute("SELECT count(*) FROM vectors WHERE model = ?", (model_id,)).fetchone()[0]
    n_marks = conn.execute("SELECT count(*) FROM search_marks").fetchone()[0]
    if n_vectors > 1.1 * n_marks:
        conn.execute(
            "DELETE FROM vectors WHERE model = ? AND text_hash NOT IN (SELECT text_hash FROM search_marks)", (model_id,)
        )


def _embed_missing(
    store: Store,
    embedder: Embedder,
    texts: dict[int, str],
    hashes: dict[int, str],
    sources: _Sources,
    epoch: int,
    *,
    gc: bool,
) -> int:
    """Embed every marked text without a vector of ``embedder``'s model; drop vectors nothing uses."""
    from .embed import text_hash, to_blob

    conn = store.conn
    previous = store.get_meta("embed_model")
    if previous != embedder.model_id:
        if previous is not None:
            log.warning(
                "the embedding model changed (%s -> %s): re-embedding every symbol", previous, embedder.model_id
            )
        conn.execute("DELETE FROM vectors WHERE model != ?", (embedder.model_id,))
    todo = [
        r[0]
        for r in conn.execute(
            "SELECT m.symbol_id FROM search_marks m LEFT JOIN vectors v ON v.model = ? AND v.text_hash = m.text_hash"
            " WHERE v.text_hash IS NULL ORDER BY m.symbol_id",
            (embedder.model_id,),
        )
    ]
    if not todo:
        _sweep(conn, embedder.model_id, gc)
        store.set_meta("embed_model", embedder.model_id)
        return 0
    todo_texts = {sid: texts[sid] for sid in todo if sid in texts}
    todo_texts.update(_symbol_texts(conn, [s for s in todo if s not in todo_texts], sources))
    by_hash: dict[str, str] = {}
    for sid, text in todo_texts.items():
        h = hashes.get(sid) or text_hash(text)
        by_hash.setdefault(h, text)
        if sid not in texts:  # recomputed (another model's first run): keep the mark in step with the text
            conn.execute("UPDATE search_marks SET text_hash = ?, epoch = ? WHERE symbol_id = ?", (h, epoch, sid))
    todo_hashes = list(by_hash)
    if len(todo_hashes) > 2000:
        log.info("embedding %d symbol texts with the %s model", len(todo_hashes), embedder.name)
    for chunk in _chunks(todo_hashes, 65536):  # one batch: the fast model tokenizes each distinct word once per batch
        vectors = embedder.embed([by_hash[h] for h in chunk])
        conn.executemany(
            "INSERT OR REPLACE INTO vectors(model, text_hash, vector) VALUES (?, ?, ?)",
            [(embedder.model_id, h, to_blob(v)) for h, v in zip(chunk, vectors, strict=True)],
        )
    store.set_meta("embed_model", embedder.model_id)
    _sweep(conn, embedder.model_id, gc)
    return len(todo_hashes)


#: the name the indexer integration is documented under
update_vectors = update_search_index


# --- the legs --------------------------------------------------------------------------------------


def _kind_clause(kind: str | None, alias: str = "s") -> tuple[str, tuple[Any, ...]]:
    if kind is None:
        return "", ()
    if kind == "test":
        return f" AND ({alias}.kind = 'test' OR ({alias}.is_test != 0 AND {alias}.kind != 'module'))", ()
    return f" AND {alias}.kind = ?", (kind,)


def _match(conn: sqlite3.Connection, table: str, expr: str, rank: str, kind: str | None, depth: int) -> list[int]:
    """Rowids of an FTS5 ``table`` matching ``expr``, best ``rank`` first, of symbols of ``kind`` if given."""
    clause, args = _kind_clause(kind)
    sql = (
        f"SELECT t.rowid FROM {table} t"
        + (" JOIN symbols s ON s.id = t.rowid" if clause else "")
        + f" WHERE {table} MATCH ?{clause} ORDER BY {rank} LIMIT ?"
    )
    try:
        return [r[0] for r in conn.execute(sql, (expr, *args, depth))]
    except sqlite3.OperationalError as exc:
        log.debug("%s query %r failed: %s", table, expr, exc)
        return []


def fts_leg(conn: sqlite3.Connection, q: ParsedQuery, kind: str | None = None, depth: int = LEG_DEPTH) -> list[int]:
    """Symbol ids by BM25 over names (split into words), qualified names, signatures and docstrings."""
    expr = fts_expression(q)
    return _match(conn, "symbols_fts", expr, f"bm25(symbols_fts, {FTS_WEIGHTS})", kind, depth) if expr else []


def trigram_leg(conn: sqlite3.Connection, q: ParsedQuery, kind: str | None = None, depth: int = LEG_DEPTH) -> list[int]:
    """Symbol ids whose name contains a query identifier as a substring (``ttleGua``); a dotted one
    (``Guard.allo``) by its last part, in a qualified name that contains it all.

    Plain words are BM25's: as substrings they match too much (``rate`` in ``generate``) and cost time.
    """
    if not q.identifiers or not _has_table(conn, "symbol_names_trigram"):
        return []
    found: list[int] = []
    for ident in q.identifiers:
        tail = re.split(r"\.|::", ident)[-1]
        if len(tail) < 3:
            continue
        ids = _match(conn, "symbol_names_trigram", fts_quote(tail), "bm25(symbol_names_trigram)", kind, 4 * depth)
        if tail != ident:
            dotted = ident.replace("::", ".").lower()
            quals = _rows(conn, ids)
            ids = [i for i in ids if i in quals and dotted in f"{quals[i].module}.{quals[i].qualname}".lower()]
        found.extend(i for i in ids if i not in found)
    return found[:depth]


def _like(term: str) -> str:
    return "%" + escape_like(term) + "%"


def keyword_leg(conn: sqlite3.Connection, q: ParsedQuery, kind: str | None = None, depth: int = LEG_DEPTH) -> list[int]:
    """Symbol ids by ``LIKE`` matches of the query terms (the fallback when SQLite has no FTS5)."""
    terms = list(dict.fromkeys([i.lower() for i in q.identifiers] + [_stem(w) for w in q.words]))[:12]
    if not terms:
        return []
    score_parts: list[str] = []
    where: list[str] = []
    args: list[Any] = []
    for t in terms:
        pattern = _like(t)
        score_parts.append(
            "(CASE WHEN s.name LIKE ? ESCAPE '\\' THEN 4 ELSE 0 END) + (CASE WHEN s.qualname LIKE ? ESCAPE '\\' THEN 2"
            " ELSE 0 END) + (CASE WHEN s.signature LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)"
            " + (CASE WHEN s.docstring LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)"
        )
        args.extend([pattern] * 4)
    for t in terms:
        where.append("s.name LIKE ? ESCAPE '\\' OR s.qualname LIKE ? ESCAPE '\\' OR s.docstring LIKE ? ESCAPE '\\'")
        args.extend([_like(t)] * 3)
    clause, kargs = _kind_clause(kind)
    sql = (
        f"SELECT s.id, {' + '.join(score_parts)} AS score FROM symbols s WHERE ({' OR '.join(where)}){clause}"
        " ORDER BY score DESC, length(s.name), s.id LIMIT ?"
    )
    return [r[0] for r in conn.execute(sql, (*args, *kargs, depth))]


@dataclass
class _Vectors:
    epoch: int
    ids: npt.NDArray[np.int64]  # ascending
    kinds: npt.NDArray[np.str_]
    tests: npt.NDArray[np.bool_]
    matrix: npt.NDArray[np.float32]

    @cached_property
    def _code(self) -> npt.NDArray[np.int64]:
        return np.flatnonzero(~self.tests)

    @cached_property
    def code_ids(self) -> npt.NDArray[np.int64]:
        """The ids of the symbols that are not tests (the rows of :attr:`code_matrix`)."""
        return self.ids[self._code]

    @cached_property
    def code_kinds(self) -> npt.NDArray[np.str_]:
        return self.kinds[self._code]

    @cached_property
    def code_matrix(self) -> npt.NDArray[np.float32]:
        """The vectors of the symbols that are not tests."""
        return np.ascontiguousarray(self.matrix[self._code])

    def index_of(self, symbol_id: int) -> int | None:
        """The matrix row of ``symbol_id``, None without a vector."""
        i = int(np.searchsorted(self.ids, symbol_id))
        return i if i < len(self.ids) and int(self.ids[i]) == symbol_id else None


_VECTOR_CACHE: dict[tuple[str, str], _Vectors] = {}
_CACHE_LOCK = threading.Lock()
#: test code for ranking: a test, a test file, or any file under a tests/ or test/ directory (fixtures,
#: test models and settings are not what a code search is after unless it says so)
_IS_TEST = (
    "(s.is_test OR f.is_test OR f.path LIKE 'tests/%' OR f.path LIKE 'test/%'"
    " OR f.path LIKE '%/tests/%' OR f.path LIKE '%/test/%')"
)
_MATRIX_FORMAT = "f32/tests-by-path/1"
#: the vectors of a model as one row (float32), so that a new process reads one BLOB instead of a row per
#: symbol; ``epoch`` is the search_epoch it was built at: a later process applies the marks written since
_MATRIX_TABLE = (
    "CREATE TABLE IF NOT EXISTS vector_matrix (model TEXT PRIMARY KEY, format TEXT NOT NULL,"
    " epoch INTEGER NOT NULL, ids BLOB NOT NULL, kinds TEXT NOT NULL, codes BLOB NOT NULL, tests BLOB NOT NULL,"
    " matrix BLOB NOT NULL)"
)
#: when the rows changed since the stored matrix exceed this share, it is rebuilt and stored again
_MATRIX_REBUILD_SHARE = 0.1


def load_vectors(store: Store, model_id: str, dim: int) -> _Vectors | None:
    """The stored vectors of ``model_id`` as one matrix (cached per process until the search tables change).

    Read from the stored matrix plus the few symbols changed since it was stored; rebuilt and stored
    again from the ``vectors`` table when much has changed.
    """
    conn = store.conn
    if (
        not _has_table(conn, "search_marks")
        or store.get_meta("embed_model") != model_id
        or store.get_meta("search_layout") != SEARCH_LAYOUT
    ):
        return None  # none yet, another model's, or an earlier layout (migrated by the next update)
    epoch = int(store.get_meta("search_epoch") or "0")
    key = (str(store.path), model_id)
    with _CACHE_LOCK:
        cached = _VECTOR_CACHE.get(key)
        if cached is not None and cached.epoch == epoch:
            return cached
    stored = _read_matrix(conn, model_id, dim)
    loaded = _catch_up(conn, stored, model_id, epoch, dim) if stored is not None else None
    if loaded is None:
        loaded = _build_matrix(store, model_id, epoch, dim)
    if loaded is not None:
        with _CACHE_LOCK:
            _VECTOR_CACHE[key] = loaded
    return loaded


def _read_matrix(conn: sqlite3.Connection, model_id: str, dim: int) -> _Vectors | None:
    if not _has_table(conn, "vector_matrix"):
        return None
    # a 20 MB BLOB reads about 3x faster through a memory map than through SQLite's page cache
    mapped = int(conn.execute("PRAGMA mmap_size").fetchone()[0])
    conn.execute("PRAGMA mmap_size=1073741824")
    try:
        row = conn.execute(
            "SELECT epoch, ids, kinds, codes, tests, matrix FROM vector_matrix WHERE model = ? AND format = ?",
            (model_id, _MATRIX_FORMAT),
        ).fetchone()
    finally:
        conn.execute(f"PRAGMA mmap_size={mapped}")
    if row is None or len(row[5]) != len(row[1]) // 8 * dim * 4:
        return None
    names = np.array(json.loads(row[2]))
    return _Vectors(
        epoch=int(row[0]),
        ids=np.frombuffer(row[1], dtype="<i8").astype(np.int64),
        kinds=names[np.frombuffer(row[3], dtype=np.uint8)],
        tests=np.frombuffer(row[4], dtype=np.bool_).copy(),
        matrix=np.frombuffer(row[5], dtype="<f4").reshape(-1, dim),  # float32 as stored: no conversion
    )


def _rows_since(conn: sqlite3.Connection, model_id: str, since: int) -> list[tuple[int, str, int, bytes]]:
    """(symbol id, kind, test?, vector) of the symbols whose mark was written after ``since`` (all for -1)."""
    return conn.execute(
        f"SELECT m.symbol_id, s.kind, {_IS_TEST}, v.vector FROM search_marks m JOIN vectors v"
        " ON v.model = ? AND v.text_hash = m.text_hash JOIN symbols s ON s.id = m.symbol_id"
        " JOIN files f ON f.id = s.file_id WHERE m.epoch > ? ORDER BY m.symbol_id",
        (model_id, since),
    ).fetchall()


def _catch_up(conn: sqlite3.Connection, stored: _Vectors, model_id: str, epoch: int, dim: int) -> _Vectors | None:
    """The stored matrix with the symbols deleted or (re)marked since it was stored; None if too much changed."""
    from .embed import from_blobs

    if stored.epoch == epoch:
        return stored
    changed = _rows_since(conn, model_id, stored.epoch)
    n_marks = int(conn.execute("SELECT count(*) FROM search_marks").fetchone()[0])
    if not changed and n_marks == len(stored.ids):
        return _Vectors(epoch, stored.ids, stored.kinds, stored.tests, stored.matrix)
    if len(changed) > _MATRIX_REBUILD_SHARE * max(len(stored.ids), 1):
        return None
    new_ids = np.fromiter((r[0] for r in changed), dtype=np.int64, count=len(changed))
    new_kinds = np.array([r[1] for r in changed] or [""])[: len(changed)]
    new_tests = np.array([bool(r[2]) for r in changed], dtype=np.bool_)
    new_rows = from_blobs((r[3] for r in changed), dim)
    pos = np.searchsorted(stored.ids, new_ids)
    found = pos < len(stored.ids)
    found[found] = stored.ids[pos[found]] == new_ids[found]
    if n_marks == len(stored.ids) and found.all() and new_kinds.dtype.itemsize <= stored.kinds.dtype.itemsize:
        # the usual edit: the same symbols (ids survive a re-parse), a few new vectors: one copy
        matrix, kinds, tests = stored.matrix.copy(), stored.kinds.copy(), stored.tests.copy()
        matrix[pos], kinds[pos], tests[pos] = new_rows, new_kinds, new_tests
        return _Vectors(epoch, stored.ids, kinds, tests, matrix)
    current = np.array(conn.execute("SELECT symbol_id FROM search_marks").fetchall(), dtype=np.int64).reshape(-1)
    keep = np.isin(stored.ids, current) & ~np.isin(stored.ids, new_ids)
    ids = np.concatenate([stored.ids[keep], new_ids])
    order = np.argsort(ids, kind="stable")
    return _Vectors(
        epoch=epoch,
        ids=ids[order],
        kinds=np.concatenate([stored.kinds[keep], new_kinds])[order],
        tests=np.concatenate([stored.tests[keep], new_tests])[order],
        matrix=np.concatenate([stored.matrix[keep], new_rows])[order],
    )


def _build_matrix(store: Store, model_id: str, epoch: int, dim: int) -> _Vectors | None:
    from .embed import from_blobs

    conn = store.conn
    rows = _rows_since(conn, model_id, -1)
    if not rows:
        return None
    kinds = [r[1] for r in rows]
    names = sorted(set(kinds))
    code = {k: i for i, k in enumerate(names)}
    built = _Vectors(
        epoch=epoch,
        ids=np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
        kinds=np.array(kinds),
        tests=np.fromiter((bool(r[2]) for r in rows), dtype=np.bool_, count=len(rows)),
        matrix=from_blobs((r[3] for r in rows), dim),
    )
    try:
        with store.atomic():
            conn.execute(_MATRIX_TABLE)
            conn.execute(
                "INSERT OR REPLACE INTO vector_matrix(model, format, epoch, ids, kinds, codes, tests, matrix)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    model_id,
                    _MATRIX_FORMAT,
                    epoch,
                    built.ids.astype("<i8").tobytes(),
                    json.dumps(names),
                    bytes(code[k] for k in kinds),
                    built.tests.tobytes(),
                    built.matrix.astype("<f4").tobytes(),
                ),
            )
    except (CrgError, sqlite3.OperationalError) as exc:  # locked or read-only: the next search builds it again
        log.debug("could not store the vector matrix: %s", exc)
    return built


def _top(scores: npt.NDArray[np.float32], depth: int) -> npt.NDArray[np.int64]:
    if len(scores) > depth:
        part = np.argpartition(-scores, depth)[:depth]
        return part[np.argsort(-scores[part], kind="stable")]
    return np.argsort(-scores, kind="stable")


def vector_leg(
    vectors: _Vectors,
    query_vector: npt.NDArray[np.float32],
    kind: str | None = None,
    depth: int = LEG_DEPTH,
    *,
    tests: bool = True,
) -> list[int]:
    """Symbol ids by cosine similarity to the query vector (k-NN over the stored matrix).

    ``tests=False`` searches the code only: tests are often most of a repository's symbols (django:
    58%), so this is also twice as fast.
    """
    if tests or kind == "test":
        ids, kinds, scores = vectors.ids, vectors.kinds, vectors.matrix @ query_vector
    else:
        ids, kinds, scores = vectors.code_ids, vectors.code_kinds, vectors.code_matrix @ query_vector
    if kind is not None:
        mask = (vectors.tests & (kinds != "module")) | (kinds == "test") if kind == "test" else kinds == kind
        scores = np.where(mask, scores, -np.inf).astype(np.float32)
    order = _top(scores, depth)
    return [int(ids[i]) for i in order if np.isfinite(scores[i])]


def graph_leg(conn: sqlite3.Connection, seeds: Sequence[int], hops: int = 2, depth: int = LEG_DEPTH) -> list[int]:
    """``seeds`` (hop 0) then their neighbours along call / import / inheritance edges (both ways), nearest first.

    The seeds stay in the ranking: left out, every lower lexical or semantic hit that happens to be
    their neighbour would get one more vote than the seeds themselves. Within a hop, neighbours of
    better seeds come first. Each node contributes at most :data:`GRAPH_FANOUT` neighbours each way
    (hubs such as ``reverse`` have thousands of callers), and a further hop is taken only while the
    ranking is shorter than ``depth``.
    """
    ranked: list[int] = list(dict.fromkeys(seeds))
    seen = set(ranked)
    frontier = list(ranked)
    kinds = ",".join(f"'{k}'" for k in GRAPH_EDGE_KINDS)
    out_sql = f"SELECT dst_id FROM edges WHERE src_id = ? AND kind IN ({kinds}) LIMIT {GRAPH_FANOUT}"
    in_sql = f"SELECT src_id FROM edges WHERE dst_id = ? AND kind IN ({kinds}) LIMIT {GRAPH_FANOUT}"
    for _ in range(hops):
        if len(ranked) >= depth or not frontier:
            break
        found: list[int] = []
        for node in frontier:  # in rank order: neighbours of better nodes first
            for sql in (out_sql, in_sql):
                for (other,) in conn.execute(sql, (node,)):
                    if other not in seen:
                        seen.add(other)
                        found.append(other)
            if len(ranked) + len(found) >= depth:
                break
        ranked.extend(found)
        frontier = found
    return ranked[:depth]


# --- search ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Row:
    id: int
    name: str
    qualname: str
    kind: str
    line: int
    path: str
    language: str
    module: str
    is_test: bool


def _rows(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, _Row]:
    ids = list(ids)
    out: dict[int, _Row] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        for r in conn.execute(
            "SELECT s.id, s.name, s.qualname, s.kind, s.start_line, f.path, coalesce(f.language, ''),"
            f" coalesce(f.module, ''), {_IS_TEST} FROM symbols s JOIN files f ON f.id = s.file_id"
            f" WHERE s.id IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            out[r[0]] = _Row(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8]))
    return out


def _is_kind(row: _Row, kind: str) -> bool:
    if kind == "test":
        return row.kind == "test" or (row.is_test and row.kind != "module")
    return row.kind == kind


def _qualified(row: _Row) -> str:
    return row.name if row.kind == "module" else row.qualname


NAME_WORDS_WEIGHT = 0.5


def _name_coverage(name: str, q: ParsedQuery) -> float:
    """The share of a name's words (stemmed) that the query has: 1.0 for ``erase_start_of_line`` and
    "erase from the start of the line"."""
    from .embed import split_identifier

    words = {_stem(w) for w in split_identifier(name) if w not in _STOP}
    if not words:
        return 0.0
    return len(words & q.stems) / len(words)


def _boost(row: _Row, q: ParsedQuery, context_files: frozenset[str]) -> float:
    factor = 1.0
    idents = {i.lower() for i in q.identifiers}
    qual = row.qualname.lower()
    full = {qual, _qualified(row).lower()}
    if row.module:
        full.add(f"{row.module}.{row.qualname}".lower())
    if idents & full or any(("." in i or "::" in i) and qual.endswith("." + i.replace("::", ".")) for i in idents):
        factor *= BOOST_EXACT_QUALNAME
    elif row.name.lower() in idents:
        factor *= BOOST_IDENTIFIER
    elif NAME_WORDS_WEIGHT:
        factor *= 1.0 + NAME_WORDS_WEIGHT * _name_coverage(row.name, q)
    kind = "test" if row.is_test else row.kind
    if q.kinds:
        if kind in q.kinds or row.kind in q.kinds:
            factor *= BOOST_KIND
    elif kind in PRIOR:
        factor *= PRIOR[kind]
    if row.path in context_files:
        factor *= BOOST_CONTEXT_FILE
    return factor


def _mode(store: Store, requested: str | None, have_vectors: bool) -> str:
    if requested not in (None, "auto", *MODES):
        raise ConfigError(f"unknown search mode '{requested}': use one of {', '.join(MODES)}")
    lexical = "fts" if store.has_fts else "keyword"
    if requested == "semantic":
        return "semantic" if have_vectors else lexical
    if requested in ("fts", "keyword"):
        return lexical if requested == "fts" or lexical == "keyword" else "keyword"
    if not store.has_fts:
        return "keyword"
    return "hybrid" if have_vectors else "fts"


def search(
    store: Store,
    query: str,
    *,
    repo: Repo | None = None,
    model: str | None = "fast",
    embedder: Embedder | None = None,
    kind: str | None = None,
    limit: int = 10,
    context_files: Iterable[str] = (),
    mode: str | None = None,
    legs: Sequence[str] | None = None,
    boosts: bool = True,
) -> SearchResult:
    """Search the index for ``query``; see the module docstring for the legs and the fallbacks.

    ``model`` (``fast`` | ``quality`` | None) picks the embedding model unless ``embedder`` is given.
    ``mode`` asks for ``hybrid`` (default: the best available), ``fts``, ``semantic`` or ``keyword``;
    ``legs`` keeps only some of ``lexical``, ``vector``, ``graph`` and ``boosts=False`` leaves the fused
    ranking unboosted (both for evaluations).
    """
    q = parse_query(query)
    if not q.words and not q.identifiers:  # nothing but filler ("the of", punctuation): nothing to look for
        return SearchResult(query=query, mode=_mode(store, mode, False), results=())
    if embedder is None and model is not None and mode not in ("fts", "keyword"):
        from .embed import load_embedder

        embedder = load_embedder(model)
    conn = store.conn
    if needs_update(store, embedder.model_id if embedder is not None else None):
        if repo is None and embedder is not None and _has_table(conn, "search_marks"):
            log.info("the search tables are behind the index: pass the repository to update them")
        else:
            try:
                _update(store, repo, embedder)
            except (CrgError, sqlite3.OperationalError) as exc:  # locked by an indexer, read-only: search what is there
                log.warning("could not update the search tables (%s): results may be incomplete", exc)
    vectors = load_vectors(store, embedder.model_id, embedder.dim) if embedder is not None else None
    ran = _mode(store, mode, vectors is not None)
    use = set(legs) if legs is not None else {"lexical", "vector", "graph"}

    # every available leg runs (the graph leg grows from the others' top hits); ``use`` picks the fused ones
    ranked: dict[str, list[int]] = {}
    sub_leg: dict[int, str] = {}
    depth = LEG_DEPTH
    if ran != "semantic":
        if ran == "keyword":
            lexical = keyword_leg(conn, q, kind, depth)
            sub_leg.update((sid, "keyword") for sid in lexical)
        else:
            bm25 = fts_leg(conn, q, kind, depth)
            in_bm25 = set(bm25)
            tri = [sid for sid in trigram_leg(conn, q, kind, depth) if sid not in in_bm25]
            sub_leg.update((sid, "trigram") for sid in tri)
            sub_leg.update((sid, "fts") for sid in bm25)
            lexical = bm25 + tri
        ranked["lexical"] = lexical
    if vectors is not None and embedder is not None and ran != "fts" and ("vector" in use or "graph" in use):
        from .embed import query_text

        qv = embedder.embed([query_text(query)])[0]
        if np.any(qv):
            # tests are searched by meaning only when asked for (a kind word or --kind test)
            ranked["vector"] = vector_leg(vectors, qv, kind, depth, tests="test" in q.kinds)
    if "graph" in use:
        # interleaved: the first lexical hit, the first semantic hit, the second lexical hit, ...
        tops = [r[:GRAPH_SEEDS] for r in ranked.values()]
        seeds = list(dict.fromkeys(top[i] for i in range(GRAPH_SEEDS) for top in tops if i < len(top)))
        neighbours = graph_leg(conn, seeds, depth=depth if kind is None else 4 * depth)
        if kind is not None:
            rows = _rows(conn, neighbours)
            neighbours = [s for s in neighbours if s in rows and _is_kind(rows[s], kind)]
        ranked["graph"] = neighbours[:depth]
    rankings = {leg: ids for leg, ids in ranked.items() if leg in use}
    found_by: dict[int, list[str]] = defaultdict(list)
    for leg, ids in rankings.items():
        for sid in ids:
            found_by[sid].append(sub_leg.get(sid, leg) if leg == "lexical" else leg)

    fused = rrf(rankings)
    # boosts need the rows: look at the best few dozen only (an exact name match is a lexical top hit anyway)
    candidates = sorted(fused, key=lambda s: -fused[s])[: max(limit * 5, BOOST_CANDIDATES)]
    rows = _rows(conn, candidates)
    contexts = frozenset(context_files)
    scored = sorted(
        ((fused[s] * (_boost(rows[s], q, contexts) if boosts else 1.0), s) for s in candidates if s in rows),
        key=lambda t: (-t[0], t[1]),
    )
    hits = tuple(
        Hit(
            name=rows[s].name,
            qualified_name=_qualified(rows[s]),
            kind=rows[s].kind,
            file=rows[s].path,
            line=rows[s].line,
            language=rows[s].language,
            score=score,
            legs=tuple(dict.fromkeys(found_by[s])),
            symbol_id=s,
        )
        for score, s in scored[:limit]
    )
    return SearchResult(query=query, mode=ran, results=hits)


# --- related code for reviews ----------------------------------------------------------------------

_CALLABLE = ("function", "method")
#: cosine similarity below which code is not called related
RELATED_MIN_SIMILARITY = 0.75
RELATED_PER_SYMBOL = 3


def related_code(
    store: Store,
    changed_symbol_ids: Sequence[int],
    exclude_ids: Iterable[int] = (),
    limit: int = 10,
    *,
    model: str = "fast",
    embedder: Embedder | None = None,
) -> list[Related]:
    """Code that may need the same change: the symbols most similar to each changed one.

    Leaves out the changed symbols, ``exclude_ids`` (e.g. the impacted ones), and each symbol's own
    callers and callees. Needs vectors (:func:`update_search_index`); without them returns nothing.
    """
    if not changed_symbol_ids:
        return []
    if embedder is None:
        from .embed import load_embedder

        embedder = load_embedder(model)
    vectors = load_vectors(store, embedder.model_id, embedder.dim)
    if vectors is None:
        log.info("no vectors in the index: no related code")
        return []
    conn = store.conn
    changed = list(dict.fromkeys(changed_symbol_ids))
    excluded = set(changed) | set(exclude_ids)
    info = _rows(conn, changed)
    found: list[tuple[float, int, str]] = []  # (cosine, related symbol, the changed qualname it is like)
    rows_of: dict[int, int] = {}
    for sid in changed:
        row = vectors.index_of(sid)
        if row is not None and sid in info and info[sid].kind != "module":
            rows_of[sid] = row
    targets = list(rows_of)
    if not targets:
        return []
    masks: dict[str, npt.NDArray[np.bool_]] = {}
    # one matrix product for every changed symbol
    own: npt.NDArray[np.float32] = vectors.matrix[[rows_of[sid] for sid in targets]]
    all_sims: npt.NDArray[np.float32] = vectors.matrix @ own.T
    for column, sid in enumerate(targets):
        callers_and_callees = {
            r[0]
            for r in conn.execute(
                "SELECT dst_id FROM edges WHERE src_id = ? UNION SELECT src_id FROM edges WHERE dst_id = ?", (sid, sid)
            )
        }
        kind = info[sid].kind
        if kind not in masks:  # like for like: callables with callables, classes with classes; not tests
            like = np.isin(vectors.kinds, _CALLABLE) if kind in _CALLABLE else vectors.kinds == kind
            masks[kind] = like & ~vectors.tests
        sims = np.where(masks[kind], all_sims[:, column], -1.0).astype(np.float32)
        taken = 0
        for i in _top(sims, 50):
            other, score = int(vectors.ids[i]), float(sims[i])
            if score < RELATED_MIN_SIMILARITY or taken >= RELATED_PER_SYMBOL:
                break
            if other not in excluded and other not in callers_and_callees:
                found.append((score, other, info[sid].qualname))
                excluded.add(other)  # reported once, for the changed symbol it is most like
                taken += 1
    found.sort(key=lambda t: (-t[0], t[1]))
    rows = _rows(conn, [other for _, other, _ in found[:limit]])
    return [
        Related(
            file=rows[other].path,
            qualname=_qualified(rows[other]),
            score=round(score, 4),
            for_=like_qualname,
            reason=f"similar to {like_qualname} (cosine {score:.2f}) and neither its caller nor its callee",
        )
        for score, other, like_qualname in found[:limit]
        if other in rows
    ]
