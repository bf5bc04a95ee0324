"""Embeddings: symbol texts, both models loaded offline, fastembed parity, incremental re-embedding."""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from crg_review import embed
from crg_review.gitio import Repo
from crg_review.indexer import Source, update_index
from crg_review.search import update_search_index
from crg_review.store import Store

from .helpers import commit, make_repo, write

BILLING = '''\
"""Invoices and payments."""

import decimal
import logging
import smtplib
from dataclasses import dataclass

log = logging.getLogger(__name__)
CURRENCY = "EUR"
RETRIES = 3
TIMEOUT = 10.0


def compute_invoice_total(lines, tax_rate):
    """Sum the line amounts and add the tax."""
    subtotal = sum(line.amount for line in lines)
    return subtotal * (1 + tax_rate)


def send_reminder_email(customer):
    # remind customers of unpaid invoices
    mailer = connect_smtp()
    mailer.send(customer.email, "Your invoice is overdue")


def connect_smtp():
    return object()


class PaymentGateway:
    """Charges credit cards through the payment provider."""

    def charge(self, card, amount):
        return self.provider.charge(card.number, amount)
'''


def test_symbol_text_has_name_words_signature_docstring_and_body() -> None:
    lines = BILLING.splitlines()[13:17]
    text = embed.symbol_text(
        "function",
        "compute_invoice_total",
        "compute_invoice_total",
        "def compute_invoice_total(lines, tax_rate)",
        "Sum the line amounts and add the tax.",
        lines,
    )
    assert text.startswith("function compute invoice total. lines tax rate. Sum the line amounts")
    assert "subtotal" in text and "amount" in text
    assert text.count("Sum the line") == 1  # the docstring is not read again from the body


def test_symbol_text_is_bounded() -> None:
    body = ["def f():"] + [f"    variable_{i} = other_name_{i}" for i in range(500)]
    text = embed.symbol_text("function", "f", "f", "def f()", "word " * 300, body)
    assert len(text.split()) <= embed.MAX_WORDS


def test_query_text_splits_identifiers() -> None:
    assert embed.query_text("where is getUserName used") == "where is get user name used"
    assert embed.query_text("Context.invoke and rate_limit") == "context invoke and rate limit"


def test_fast_model_vectors_are_normalized_and_meaningful() -> None:
    model = embed.load_embedder("fast")
    vectors = model.embed(["send an email to the customer", "mail a message to a client", "parse a date string", ""])
    assert vectors.shape == (4, model.dim) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-5)
    assert not vectors[3].any()  # no tokens, no direction
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    # one text alone or in a batch: the same vector
    assert np.allclose(model.embed(["parse a date string"])[0], vectors[2], atol=1e-5)


def test_fastembed_computes_the_same_vectors_from_the_shipped_static_model() -> None:
    """The static model is in fastembed's StaticTextEmbedding layout, and our numpy arithmetic is its own."""
    from fastembed.common.model_description import DenseModelDescription, ModelSource
    from fastembed.text.static_embedding import StaticTextEmbedding

    ours = embed.load_embedder("fast")

    class Shipped(StaticTextEmbedding):
        @classmethod
        def _list_supported_models(cls) -> list[DenseModelDescription]:
            return [
                DenseModelDescription(
                    model="crg-review/static",
                    dim=ours.dim,
                    sources=ModelSource(hf="crg-review/static"),
                    model_file="model.safetensors",
                    license="apache-2.0",
                    description="",
                    size_in_GB=0.02,
                )
            ]

    theirs = Shipped("crg-review/static", specific_model_path=str(embed.STATIC_DIR))
    texts = ["function compute invoice total. lines tax rate", "class payment gateway. charges credit cards", "x"]
    expected = np.asarray(list(theirs.embed(texts)), dtype=np.float32)
    assert np.allclose(ours.embed(texts), expected, atol=2e-3)


def test_models_load_and_embed_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither model touches the network: every connection attempt is recorded and refused."""
    attempts: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "FASTEMBED_CACHE_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(embed, "_LOADED", {})
    for name in embed.MODEL_NAMES:
        model = embed.load_embedder(name)
        vectors = model.embed(["charge a credit card", "compute the invoice total"])
        assert vectors.shape == (2, model.dim)
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert attempts == []


def test_quality_model_ranks_paraphrases() -> None:
    model = embed.load_embedder("quality")
    v = model.embed(["limit how many requests a client sends", "rate limiter", "render a table as html"])
    assert v[0] @ v[1] > v[0] @ v[2]


def test_unknown_model_is_a_config_error() -> None:
    from crg_review.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown embed_model 'huge'"):
        embed.load_embedder("huge")


def test_static_model_files_stay_small() -> None:
    size = sum(p.stat().st_size for p in embed.STATIC_DIR.iterdir())
    assert size <= 20_000_000
    assert (embed.STATIC_DIR / "LICENSE").read_text().startswith("\n                                 Apache License")
    assert (embed.MINILM_DIR / "LICENSE").is_file()


# --- incremental: only changed texts are embedded ------------------------------------------------------


def _index(repo: Path, db: Path, model: str = "fast") -> tuple[Store, int]:
    store = Store.open(db)
    update_index(store, Repo(repo), Source("worktree"))
    return store, update_search_index(store, Repo(repo), model=model)


def _vector_rows(store: Store) -> int:
    return int(store.conn.execute("SELECT count(*) FROM vectors").fetchone()[0])


def test_reindexing_embeds_only_changed_symbols(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "billing.py", BILLING)
    write(repo, "other.py", "def unrelated():\n    return 1\n")
    commit(repo)
    db = tmp_path / "index.db"
    store, embedded = _index(repo, db)
    n_symbols = store.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    assert embedded == n_symbols == _vector_rows(store) == 8

    # nothing changed: nothing embedded
    assert update_search_index(store, Repo(repo)) == 0

    # one body changes: its file is re-parsed (new symbol ids) but only that text is embedded again
    write(repo, "billing.py", BILLING.replace("return object()", "return make_connection('smtp.example.com')"))
    update_index(store, Repo(repo), Source("worktree"))
    assert update_search_index(store, Repo(repo)) == 1
    assert _vector_rows(store) == 8  # the old vector of connect_smtp is gone

    # a deleted file takes its marks and vectors along
    (repo / "other.py").unlink()
    update_index(store, Repo(repo), Source("worktree"))
    assert update_search_index(store, Repo(repo)) == 0
    assert _vector_rows(store) == 6

    # another model: everything is embedded again, with a message, and the old vectors are dropped
    with caplog.at_level(logging.WARNING, logger="crg_review"):
        assert update_search_index(store, Repo(repo), model="quality") == 6
    assert "embedding model changed" in caplog.text
    models = {r[0] for r in store.conn.execute("SELECT DISTINCT model FROM vectors")}
    assert models == {embed.load_embedder("quality").model_id}
    store.close()


def test_texts_include_the_body_of_worktree_files_in_a_new_process(tmp_path: Path) -> None:
    """A work-tree blob is not in git's object database: the body is read from the file when it still matches."""
    repo = make_repo(tmp_path / "repo")
    write(repo, "billing.py", BILLING)
    commit(repo)
    write(repo, "billing.py", BILLING.replace("subtotal = sum", "grand_subtotal = sum"))
    db = tmp_path / "index.db"
    store = Store.open(db)
    update_index(store, Repo(repo), Source("worktree"))
    from crg_review.search import _Sources, _symbol_texts

    sid = store.conn.execute("SELECT id FROM symbols WHERE name='compute_invoice_total'").fetchone()[0]
    fresh = Repo(repo)  # has not seen the work-tree snapshot
    assert "grand subtotal" in _symbol_texts(store.conn, [sid], _Sources(fresh))[sid]
    store.close()


@pytest.mark.parametrize("env", ["fast", "quality"])
def test_embed_model_setting_comes_from_the_environment(
    env: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from crg_review.config import load_config

    monkeypatch.setenv("CRG_REVIEW_EMBED_MODEL", env)
    assert load_config(tmp_path).embed_model == env
    assert os.environ["CRG_REVIEW_EMBED_MODEL"] == env
