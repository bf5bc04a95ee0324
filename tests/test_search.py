"""Hybrid search on a real small repository indexed by the real pipeline: each leg, RRF, boosts, fallbacks."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from crg_review import search as S
from crg_review.gitio import Repo
from crg_review.indexer import Source, update_index
from crg_review.store import Store

from .helpers import commit, crg, make_repo, write

THROTTLE = '''\
import time


class ThrottleGuard:
    """Refuses callers that exceed their request budget per time window."""

    def __init__(self, per_second):
        self.per_second = per_second
        self.seen = {}

    def allow(self, client_id):
        now = time.monotonic()
        window = [t for t in self.seen.get(client_id, []) if now - t < 1.0]
        if len(window) >= self.per_second:
            return False
        self.seen[client_id] = window + [now]
        return True
'''

CART = """\
from shop.pricing import apply_discount


def add_item_to_cart(cart, item, quantity=1):
    cart.setdefault(item.sku, 0)
    cart[item.sku] += quantity


def compute_total_price(cart, catalog, percent_off=0):
    total = sum(catalog[sku].price * n for sku, n in cart.items())
    return apply_discount(total, percent_off)


def empty_cart(cart):
    cart.clear()
"""

PRICING = """\
def apply_discount(price, percent):
    return price * (100 - percent) / 100


def round_to_cents(amount):
    return round(amount, 2)
"""

USERS = """\
class UserRepository:
    def __init__(self, db):
        self.db = db

    def find_by_email(self, email):
        return self.db.query("SELECT * FROM users WHERE email = ?", email)


def getUserName(user):
    return user.first_name + " " + user.last_name


class AdminUser(UserRepository):
    pass
"""

TESTS = """\
from shop.cart import compute_total_price


def test_compute_total_price():
    assert compute_total_price({}, {}) == 0
"""


def shop(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo, "shop/__init__.py", "")
    write(repo, "shop/throttle.py", THROTTLE)
    write(repo, "shop/cart.py", CART)
    write(repo, "shop/pricing.py", PRICING)
    write(repo, "shop/users.py", USERS)
    write(repo, "tests/test_cart.py", TESTS)
    commit(repo)
    return repo


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, Repo]]:
    tmp = tmp_path_factory.mktemp("search")
    repo = Repo(shop(tmp))
    store = Store.open(tmp / "index.db")
    update_index(store, repo, Source("commit", "HEAD"))
    S.update_search_index(store, repo)
    yield store, repo
    store.close()


def sid(store: Store, qualname: str) -> int:
    return int(store.conn.execute("SELECT id FROM symbols WHERE qualname = ?", (qualname,)).fetchone()[0])


def names(store: Store, ids: list[int]) -> list[str]:
    rows = {r[0]: r[1] for r in store.conn.execute("SELECT id, qualname FROM symbols")}
    return [rows[i] for i in ids]


# --- query preprocessing ---------------------------------------------------------------------------


def test_query_identifiers_words_and_kinds() -> None:
    q = S.parse_query("where does Context.invoke call get_user_name or parseArgs in the HttpServer class")
    assert q.identifiers == ("Context.invoke", "get_user_name", "parseArgs", "HttpServer")
    assert {"get", "user", "name", "parse", "args", "http", "server", "context", "invoke"} <= set(q.words)
    assert "the" not in q.words and "class" not in q.words
    assert q.kinds == ("class",)
    assert S.parse_query("discount").identifiers == ("discount",)  # a one-word query is a name
    assert S.parse_query("functions that send email").kinds == ("function",)


def test_fts_expression_quotes_user_text() -> None:
    expr = S.fts_expression(S.parse_query('totals "OR" NEAR(x) discounts'))
    assert '"totals"' in expr and '"total"*' in expr and '"discount"*' in expr
    assert "NEAR(" not in expr.replace('"near"', "")


# --- each leg --------------------------------------------------------------------------------------


def test_fts_leg_matches_split_identifier_words(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    found = names(store, S.fts_leg(store.conn, S.parse_query("total price")))
    assert set(found[:2]) == {"compute_total_price", "test_compute_total_price"}
    assert names(store, S.fts_leg(store.conn, S.parse_query("user name")))[0] == "getUserName"


def test_trigram_leg_finds_substrings(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    assert names(store, S.trigram_leg(store.conn, S.parse_query("ttleGua"))) == ["ThrottleGuard"]
    assert names(store, S.trigram_leg(store.conn, S.parse_query("Guard.allo"))) == ["ThrottleGuard.allow"]
    assert names(store, S.trigram_leg(store.conn, S.parse_query("cart.compute_total_pr"))) == ["compute_total_price"]
    assert S.trigram_leg(store.conn, S.parse_query("pricing.compute_total_pr")) == []  # not in that module
    assert names(store, S.trigram_leg(store.conn, S.parse_query("rottleGu")))[0] == "ThrottleGuard"
    assert S.fts_leg(store.conn, S.parse_query("rottleGu")) == []  # BM25 sees whole words (and prefixes) only


def test_vector_leg_finds_code_by_meaning(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    from crg_review.embed import load_embedder, query_text

    model = load_embedder("fast")
    vectors = S.load_vectors(store, model.model_id, model.dim)
    assert vectors is not None and len(vectors.ids) == store.conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
    q = model.embed([query_text("rate limiting requests")])[0]
    top = names(store, S.vector_leg(vectors, q)[:3])
    assert {"ThrottleGuard", "ThrottleGuard.allow"} & set(top), top
    assert S.fts_leg(store.conn, S.parse_query("rate limiting")) == []  # no shared word at all
    only_classes = names(store, S.vector_leg(vectors, q, kind="class"))
    assert set(only_classes) == {"ThrottleGuard", "UserRepository", "AdminUser"}


def test_vector_leg_searches_tests_only_when_asked(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    from crg_review.embed import load_embedder, query_text

    model = load_embedder("fast")
    vectors = S.load_vectors(store, model.model_id, model.dim)
    assert vectors is not None
    q = model.embed([query_text("compute the total price of a cart")])[0]
    test = sid(store, "test_compute_total_price")
    assert test in S.vector_leg(vectors, q)
    assert test not in S.vector_leg(vectors, q, tests=False)
    assert S.vector_leg(vectors, q, kind="test", tests=False) == [test]


def test_graph_leg_ranks_neighbours_by_hops(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    ranked = names(store, S.graph_leg(store.conn, [sid(store, "test_compute_total_price")]))
    assert ranked[0] == "test_compute_total_price"  # the seed itself, hop 0
    assert ranked.index("compute_total_price") < ranked.index("apply_discount")  # hop 1 before hop 2
    assert "round_to_cents" not in ranked and "getUserName" not in ranked  # not connected


def test_graph_leg_follows_inheritance(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    assert "UserRepository" in names(store, S.graph_leg(store.conn, [sid(store, "AdminUser")]))


def test_keyword_leg_uses_like_and_escapes_wildcards(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    assert names(store, S.keyword_leg(store.conn, S.parse_query("find_by_email")))[0] == "UserRepository.find_by_email"
    assert S._like("100%_sure") == "%100\\%\\_sure%"
    assert S.keyword_leg(store.conn, S.parse_query("total_price"))[0] == sid(store, "compute_total_price")
    # unescaped, '_' would match the 'u' of getusername
    assert S.keyword_leg(store.conn, S.ParsedQuery("get_ser", ("get_ser",), (), ())) == []


# --- fusion and boosts -----------------------------------------------------------------------------


def test_rrf_sums_reciprocal_ranks_with_k_60() -> None:
    fused = S.rrf({"a": [1, 2, 3], "b": [3, 1]})
    assert fused[1] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[3] == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2] == pytest.approx(1 / 62)
    assert sorted(fused, key=lambda s: -fused[s]) == [1, 3, 2]
    assert fused[2] < fused[3]  # found by two legs beats a better rank in one
    assert S.RRF_K == 60


def test_hybrid_search_fuses_all_legs(indexed: tuple[Store, Repo]) -> None:
    store, repo = indexed
    result = S.search(store, "rate limiting per client", repo=repo)
    assert result.mode == "hybrid"
    top = result.results[0]
    assert top.qualified_name.startswith("ThrottleGuard")
    assert "vector" in top.legs and "graph" in top.legs
    assert top.location == f"shop/throttle.py:{top.line}" and top.language == "python"
    assert [h.score for h in result.results] == sorted((h.score for h in result.results), reverse=True)


def _score(result: S.SearchResult, qualname: str) -> float:
    return next(h.score for h in result.results if h.qualified_name == qualname)


def test_exact_qualified_name_boost(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    exact = S.search(store, "UserRepository.find_by_email", limit=20)
    assert exact.results[0].qualified_name == "UserRepository.find_by_email"
    plain = S.search(store, "user repository find by email", limit=20)
    ratio_exact = _score(exact, "UserRepository.find_by_email") / _score(exact, "UserRepository")
    ratio_plain = _score(plain, "UserRepository.find_by_email") / _score(plain, "UserRepository")
    assert ratio_exact > ratio_plain


def test_identifier_boost(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    method = sid(store, "UserRepository.find_by_email")
    row = S._rows(store.conn, [method])[method]
    assert S._boost(row, S.parse_query("who calls find_by_email"), frozenset()) == S.BOOST_IDENTIFIER
    assert S._boost(row, S.parse_query("UserRepository.find_by_email"), frozenset()) == S.BOOST_EXACT_QUALNAME
    assert S._boost(row, S.parse_query("look up an email address"), frozenset()) == 1.0 + S.NAME_WORDS_WEIGHT
    assert S._boost(row, S.parse_query("look up an address"), frozenset()) == 1.0
    assert S.search(store, "apply_discount").results[0].qualified_name == "apply_discount"


def test_name_words_boost_prefers_the_name_the_query_spells_out() -> None:
    q = S.parse_query("erase from the start of the line")
    assert S._name_coverage("erase_start_of_line", q) == 1.0
    assert S._name_coverage("erase_end_of_line", q) == pytest.approx(2 / 3)
    assert S._name_coverage("__init__", q) == 0.0


def test_kind_boost_from_the_query(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    rows = S._rows(store.conn, [sid(store, "UserRepository"), sid(store, "UserRepository.find_by_email")])
    q = S.parse_query("user repository class")
    # a class, and every word of its name is in the query
    assert S._boost(rows[sid(store, "UserRepository")], q, frozenset()) == S.BOOST_KIND * (1 + S.NAME_WORDS_WEIGHT)
    assert S._boost(rows[sid(store, "UserRepository.find_by_email")], q, frozenset()) == 1.0
    assert S.search(store, "users class").results[0].kind == "class"


def test_tests_and_modules_rank_below_code_unless_asked_for(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    found = [h.qualified_name for h in S.search(store, "compute total price").results]
    assert found.index("compute_total_price") < found.index("test_compute_total_price")
    asked = S.search(store, "compute total price tests").results
    assert asked[0].qualified_name == "test_compute_total_price"


def test_context_files_boost(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    plain = S.search(store, "discount", limit=20)
    boosted = S.search(store, "discount", limit=20, context_files=["shop/pricing.py"])
    assert _score(boosted, "apply_discount") == pytest.approx(_score(plain, "apply_discount") * S.BOOST_CONTEXT_FILE)
    assert _score(boosted, "compute_total_price") == pytest.approx(_score(plain, "compute_total_price"))


def test_kind_filter_and_limit(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    result = S.search(store, "user", kind="method", limit=2)
    assert len(result.results) == 2
    assert all(h.kind == "method" for h in result.results)
    tests_only = S.search(store, "total price", kind="test")
    assert [h.qualified_name for h in tests_only.results] == ["test_compute_total_price"]


# --- degradation -----------------------------------------------------------------------------------


def test_without_vectors_the_mode_is_fts(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    result = S.search(store, "total price", model=None)
    assert result.mode == "fts"
    assert result.results[0].qualified_name == "compute_total_price"
    assert all("vector" not in h.legs for h in result.results)


def test_an_index_without_vectors_searches_in_fts_mode(tmp_path: Path) -> None:
    repo = Repo(shop(tmp_path))
    store = Store.open(tmp_path / "index.db")
    update_index(store, repo, Source("commit", "HEAD"))
    S.update_search_index(store, repo, model=None)  # marks and trigram only
    result = S.search(store, "price", model="fast")  # no repo: cannot embed now, searches what is there
    assert result.mode == "fts" and result.results
    store.close()


def test_without_fts5_the_mode_is_keyword(tmp_path: Path) -> None:
    repo = Repo(shop(tmp_path))
    store = Store.open(tmp_path / "index.db")
    update_index(store, repo, Source("commit", "HEAD"))
    store.has_fts = False  # as on an SQLite built without FTS5
    result = S.search(store, "total price", repo=repo)
    assert result.mode == "keyword"
    assert result.results[0].qualified_name == "compute_total_price"
    assert "keyword" in result.results[0].legs
    no_vectors = S.search(store, "total price", model=None)
    assert no_vectors.mode == "keyword" and no_vectors.results[0].qualified_name == "compute_total_price"
    store.close()


def test_semantic_mode_uses_vectors_only(indexed: tuple[Store, Repo]) -> None:
    store, _ = indexed
    result = S.search(store, "rate limiting", mode="semantic")
    assert result.mode == "semantic"
    assert all(set(h.legs) <= {"vector", "graph"} for h in result.results)


def test_a_query_of_filler_words_finds_nothing(indexed: tuple[Store, Repo]) -> None:
    for query in ("", "the of", '"*()'):
        assert S.search(indexed[0], query).results == ()


def test_unknown_mode_is_an_error(indexed: tuple[Store, Repo]) -> None:
    from crg_review.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown search mode"):
        S.search(indexed[0], "x", mode="magic")


def test_search_tables_follow_index_changes(tmp_path: Path) -> None:
    """Renamed and deleted symbols leave the trigram table; reused symbol ids are not confused."""
    root = shop(tmp_path)
    repo = Repo(root)
    store = Store.open(tmp_path / "index.db")
    update_index(store, repo, Source("worktree"))
    S.update_search_index(store, repo)
    write(root, "shop/users.py", USERS.replace("getUserName", "getDisplayLabel"))
    (root / "shop" / "throttle.py").unlink()
    update_index(store, repo, Source("worktree"))
    assert S.needs_update(store, None)
    found = S.search(store, "DisplayLab", repo=repo).results
    assert found[0].qualified_name == "getDisplayLabel"
    assert not S.trigram_leg(store.conn, S.parse_query("getUserName"))
    assert not S.trigram_leg(store.conn, S.parse_query("ttleGua"))
    trigram_ids = {r[0] for r in store.conn.execute("SELECT rowid FROM symbol_names_trigram")}
    assert trigram_ids == {r[0] for r in store.conn.execute("SELECT id FROM symbols")}
    assert not S.needs_update(store, None)
    store.close()


def test_a_new_process_reads_the_stored_vector_matrix(
    indexed: tuple[Store, Repo], monkeypatch: pytest.MonkeyPatch
) -> None:
    store, repo = indexed
    first = S.search(store, "rate limiting per client", repo=repo)
    monkeypatch.setattr(S, "_VECTOR_CACHE", {})  # as in a new process

    def no_rebuild(*args: object) -> None:
        raise AssertionError("the stored matrix should have been read")

    monkeypatch.setattr(S, "_build_matrix", no_rebuild)
    assert S.search(store, "rate limiting per client", repo=repo) == first


def test_an_unknown_schema_rebuild_drops_the_search_tables_cleanly(tmp_path: Path) -> None:
    root = shop(tmp_path)
    store = Store.open(tmp_path / "index.db")
    update_index(store, Repo(root), Source("worktree"))
    S.update_search_index(store, Repo(root))
    store.conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    store.close()
    store = Store.open(tmp_path / "index.db")  # rebuilt empty, search tables included
    assert not S._has_table(store.conn, "search_marks")
    update_index(store, Repo(root), Source("worktree"))
    assert S.search(store, "discount", repo=Repo(root)).results[0].qualified_name == "apply_discount"
    store.close()


def test_search_tables_of_an_earlier_layout_are_migrated_not_read(tmp_path: Path) -> None:
    """An index whose search tables an earlier crg-review wrote (marks without epochs, the old matrix
    table, no layout key) is searched after one update, never read as if it were current."""
    root = shop(tmp_path)
    repo = Repo(root)
    store = Store.open(tmp_path / "index.db")
    update_index(store, repo, Source("worktree"))
    S.update_search_index(store, repo)
    conn = store.conn
    with store.atomic():
        conn.execute("CREATE TABLE old_marks AS SELECT symbol_id, file_oid, text_hash FROM search_marks")
        conn.execute("DROP TABLE search_marks")
        conn.execute("ALTER TABLE old_marks RENAME TO search_marks")
        conn.execute("DROP TABLE IF EXISTS vector_matrix")
        conn.execute("CREATE TABLE search_matrix (model TEXT PRIMARY KEY, epoch TEXT NOT NULL)")
        conn.execute("DELETE FROM meta WHERE key = 'search_layout'")
    store.close()
    S._FRESH.clear()
    S._VECTOR_CACHE.clear()
    store = Store.open(tmp_path / "index.db")
    assert S.needs_update(store, None)
    from crg_review.embed import load_embedder

    model = load_embedder("fast")
    assert S.load_vectors(store, model.model_id, model.dim) is None
    found = S.search(store, "apply a discount to a price", repo=repo)
    assert found.mode == "hybrid"
    assert found.results[0].qualified_name == "apply_discount"
    assert not S._has_table(store.conn, "search_matrix")
    assert "epoch" in {r[1] for r in store.conn.execute("PRAGMA table_info(search_marks)")}
    store.close()


def test_a_new_process_catches_up_on_symbols_changed_since_the_matrix_was_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = shop(tmp_path)
    repo = Repo(root)
    store = Store.open(tmp_path / "index.db")
    update_index(store, repo, Source("worktree"))
    S.update_search_index(store, repo)
    S.search(store, "discount", repo=repo)  # stores the matrix
    write(root, "shop/pricing.py", PRICING.replace("round_to_cents", "add_shipping_fee"))
    (root / "shop" / "throttle.py").unlink()
    update_index(store, repo, Source("worktree"))
    S.update_search_index(store, repo)
    monkeypatch.setattr(S, "_VECTOR_CACHE", {})  # as in a new process
    monkeypatch.setattr(S, "_MATRIX_REBUILD_SHARE", 0.5)  # a small repository: a file is a big share

    def no_rebuild(*args: object) -> None:
        raise AssertionError("a few changed symbols should not rebuild the matrix")

    monkeypatch.setattr(S, "_build_matrix", no_rebuild)
    from crg_review.embed import load_embedder

    model = load_embedder("fast")
    vectors = S.load_vectors(store, model.model_id, model.dim)
    assert vectors is not None
    assert set(vectors.ids.tolist()) == {r[0] for r in store.conn.execute("SELECT id FROM symbols")}
    assert list(vectors.ids) == sorted(vectors.ids)
    found = S.search(store, "add shipping fee", repo=repo, mode="semantic").results
    assert found[0].qualified_name == "add_shipping_fee"
    store.close()


# --- related code ----------------------------------------------------------------------------------


def test_related_code_leaves_out_callers_and_callees(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    write(
        root,
        "fmt.py",
        '''\
def format_price_eur(amount):
    """Format an amount of money in euros."""
    return f"{amount:.2f} EUR"


def format_price_usd(amount):
    """Format an amount of money in dollars."""
    return f"${amount:.2f}"


def format_price_gbp(amount):
    """Format an amount of money in pounds."""
    return format_price_eur(amount).replace("EUR", "GBP")


def open_socket(host, port):
    return (host, port)
''',
    )
    commit(root)
    repo = Repo(root)
    store = Store.open(tmp_path / "index.db")
    update_index(store, repo, Source("commit", "HEAD"))
    S.update_search_index(store, repo)
    eur = sid(store, "format_price_eur")
    related = S.related_code(store, [eur], exclude_ids=[], limit=5)
    assert [r.qualname for r in related] == ["format_price_usd"]  # gbp calls eur: it is impact, not related
    assert related[0].for_ == "format_price_eur" and related[0].file == "fmt.py"
    assert "cosine" in related[0].reason
    assert S.related_code(store, [eur], exclude_ids=[sid(store, "format_price_usd")]) == []
    assert S.related_code(store, [], exclude_ids=[]) == []
    store.close()


# --- the command line ------------------------------------------------------------------------------


def test_cli_search_json(tmp_path: Path) -> None:
    root = shop(tmp_path)
    db = tmp_path / "index.db"
    assert crg("index", "--repo", str(root), "--db", str(db)).code == 0
    run = crg("search", "compute total price", "--repo", str(root), "--db", str(db), "--format", "json", "--limit", "3")
    assert run.code == 0, run
    data = run.json()
    assert data["query"] == "compute total price" and data["mode"] == "hybrid"
    assert len(data["results"]) == 3
    first = data["results"][0]
    assert set(first) == {"name", "qualified_name", "kind", "file", "line", "location", "language", "score", "legs"}
    assert first["qualified_name"] == "compute_total_price" and first["location"] == "shop/cart.py:9"

    text = crg(
        "search",
        "discount",
        "--repo",
        str(root),
        "--db",
        str(db),
        "--kind",
        "function",
        "--context-file",
        str(root / "shop" / "pricing.py"),
    )
    assert text.code == 0 and text.out.splitlines()[0].startswith("shop/pricing.py:1")
    assert text.out.rstrip().endswith("(hybrid: 4 result(s))") or "hybrid" in text.out.splitlines()[-1]


def test_cli_index_re_embeds_changed_symbols_once_the_index_has_vectors(tmp_path: Path) -> None:
    root = shop(tmp_path)
    db = tmp_path / "index.db"
    write(root, "shop/extra.py", "def shipping_fee(weight):\n    return weight * 2\n")
    commit(root, "extra")
    assert crg("index", "--repo", str(root), "--db", str(db)).code == 0
    write(root, "shop/extra.py", "def shipping_fee(weight):\n    return weight * 3\n")
    before = crg("index", "--repo", str(root), "--db", str(db))
    assert before.code == 0 and "embedded" not in before.out  # no vectors yet: none are made
    store = Store.open(db)
    assert not store.has_vectors()
    store.close()

    assert crg("search", "discount", "--repo", str(root), "--db", str(db)).code == 0
    store = Store.open(db)
    total = store.conn.execute("SELECT count(*) FROM search_marks").fetchone()[0]
    store.close()
    write(root, "shop/extra.py", "def shipping_fee(weight, zone):\n    return weight * zone\n")
    run = crg("index", "--repo", str(root), "--db", str(db))
    assert run.code == 0, run
    embedded = int(run.out.split(" symbol text(s) embedded")[0].rsplit(", ", 1)[1])
    assert 1 <= embedded < total  # the changed function (and its module), not every symbol
    store = Store.open(db)
    from crg_review.embed import load_embedder

    assert not S.needs_update(store, load_embedder("fast").model_id)
    found = S.search(store, "shipping fee by zone", mode="semantic").results
    assert found[0].qualified_name == "shipping_fee"
    store.close()


def test_cli_search_with_the_quality_model_and_a_mode(tmp_path: Path) -> None:
    root = shop(tmp_path)
    db = tmp_path / "index.db"
    assert crg("index", "--repo", str(root), "--db", str(db)).code == 0
    common = ("--repo", str(root), "--db", str(db), "--format", "json")
    quality = crg("search", "limit requests per client", *common, "--embed-model", "quality")
    assert quality.code == 0, quality
    assert quality.json()["mode"] == "hybrid"
    assert quality.json()["results"][0]["qualified_name"].startswith("ThrottleGuard")
    fts = crg("search", "total price", *common, "--mode", "fts")
    assert fts.code == 0 and fts.json()["mode"] == "fts"
    assert all("vector" not in r["legs"] for r in fts.json()["results"])


def test_cli_search_before_indexing_says_what_to_do(tmp_path: Path) -> None:
    root = shop(tmp_path)
    run = crg("search", "x", "--repo", str(root), "--db", str(tmp_path / "none.db"))
    assert run.code == 1 and "crg-review index" in run.err


def test_search_does_not_import_fastembed_for_the_fast_model(tmp_path: Path) -> None:
    root = shop(tmp_path)
    db = tmp_path / "index.db"
    assert crg("index", "--repo", str(root), "--db", str(db)).code == 0
    import subprocess
    import sys

    code = (
        "import sys; from crg_review.cli import main; rc = main(['search', 'price', '--repo', sys.argv[1], "
        "'--db', sys.argv[2]]); print('FASTEMBED', 'fastembed' in sys.modules); sys.exit(rc)"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(root), str(db)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "FASTEMBED False" in proc.stdout


def test_json_result_round_trips(indexed: tuple[Store, Repo]) -> None:
    result = S.search(indexed[0], "discount")
    assert json.loads(json.dumps(result.to_json()))["results"][0]["legs"]
    assert isinstance(sqlite3.sqlite_version, str)
