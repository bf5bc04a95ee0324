"""Change impact: the review of a diff, and the graph questions asked without one.

The pipeline for a diff (:func:`review_diff`): read the diff (gitio), bring the index to the head side
of it (incremental), map hunks to the innermost symbols of both sides (:mod:`touched`), then walk the
graph backwards (``dst → src``) from the touched symbols (:mod:`walk`): the dependants up to ``depth``
edges away and the tests that reach a change, plus the tests found beside the walk (:mod:`suite`) and the
findings (:mod:`findings`).

Everything is computed from the head-side index, so the same diff gives the same review whatever state
the index was in before. The graph questions (``callers``, ``impact``, ``tests-for``, ...) reuse the walks.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .collection import SnapshotFiles
from .errors import CrgError
from .findings import (
    SEVERITY_RANK,
    incompatible_calls,
    is_public,
    is_registered,
    make_finding,
    removed_module_imports,
    removed_references,
)
from .graph import Graph
from .graphnodes import FUNCTION_KINDS, NODE_SQL, Node, as_node
from .model import CLASS_KINDS, MAIN_SCOPE
from .review import ChangedSymbol, Finding, Impacted, Related, RelatedTest, Review
from .suite import (
    add_doctest_runners,
    add_doctests,
    add_exec_made_tests,
    add_partly_parsed_tests,
    add_recollected,
    add_unparsed_tests,
    convention_files,
    convention_tests,
    in_family,
    name_guarded_tests,
    name_remade_tests,
)
from .touched import Touched, source_for, touched_symbols
from .walk import Deadline, Reach, TestHit, add_hit, file_test, nodeid, rank_impacted, walk_dependants, walk_tests

if TYPE_CHECKING:
    from .gitio import DiffSpec, Repo
    from .store import Store
    from .workspace import Workspace

__all__ = [
    "DEFAULT_CAP",
    "RUNNER_PACKAGES",
    "callers",
    "dependents",
    "find_symbols",
    "imports_of",
    "paused_collection",
    "related_code_for",
    "resolve_symbol",
    "review_diff",
    "review_symbols",
    "tests_for",
]

log = logging.getLogger(__name__)


#: most impacted symbols a review lists (the rest is counted in ``stats.impacted_cut``)
DEFAULT_CAP = 200
#: packages pytest imports whenever it runs (itself and the dependencies it imports on start-up): a project that is
#: one of them runs its tests under the code it changes
RUNNER_PACKAGES = frozenset(("pytest", "_pytest", "pluggy", "iniconfig"))


@contextmanager
def paused_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector: a big review makes hundreds of thousands of small objects and
    keeps them all, and the collector would walk them again and again for nothing (a tenth of the django
    review's time). It runs again afterwards: the command line also runs in-process (tests, hooks)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def review_diff(
    ws: Workspace,
    spec: DiffSpec,
    *,
    depth: int | None = None,
    cap: int = DEFAULT_CAP,
    test_seconds: float | None = None,
) -> Review:
    """Review the change ``spec`` describes: index brought to its head side, then the walks and rules.
    ``test_seconds``: a time limit for the search for related tests (the hook's; None or 0: none)."""
    started = time.perf_counter()
    repo: Repo = ws.repo  # type: ignore[assignment]
    diff = repo.diff(spec)
    t_diff = time.perf_counter()
    report = ws.update(source_for(diff))  # the collector runs: a rebuild leaves cycles behind
    t_index = time.perf_counter()
    with paused_collection():
        graph = Graph(ws.store.conn, files=ws)
        touched = touched_symbols(repo, graph, diff, ws.config.excludes)
        review = _analyze(
            graph,
            touched,
            depth=ws.config.depth if depth is None else depth,
            cap=cap,
            base=diff.base_commit,
            head=diff.head_label,
            deadline=Deadline(test_seconds) if test_seconds else None,
        )
        review.related = related_code_for(ws, review)
    review.head_commit = diff.head_commit  # staged and work-tree content has no blob URL
    review.web_url = repo.remote_web_url()
    review.stats["files"] = touched.files
    review.stats["index"] = {
        "parsed": report.parsed,
        "deleted": report.deleted,
        "resolved_files": report.resolved_files,
    }
    done = time.perf_counter()
    review.stats["timings"] = {
        "diff": round(t_diff - started, 4),
        "index": round(t_index - t_diff, 4),
        "analysis": round(done - t_index, 4),
        "total": round(done - started, 4),
    }
    return review


def related_code_for(ws: Workspace, review: Review, limit: int = 3) -> list[Related]:
    """Code similar to the changed symbols that is neither their caller nor their callee ("may need the
    same change"). Only when the index already has vectors (``crg-review search`` fills them): a review
    never loads an embedding model on its own, so the pre-commit path stays fast."""
    conn = ws.store.conn
    if not ws.store.has_vectors():
        return []

    def ids(rows: Iterable[tuple[str, str]]) -> list[int]:
        out: list[int] = []
        for path, qualname in rows:
            row = conn.execute(
                "SELECT s.id FROM symbols s JOIN files f ON f.id=s.file_id WHERE f.path=? AND s.qualname=?",
                (path, qualname),
            ).fetchone()
            if row is not None:
                out.append(int(row[0]))
        return out

    changed = ids((c.file, c.qualname) for c in review.changed if c.change != "removed" and c.kind != "module")
    if not changed:
        return []
    from .search import related_code, update_search_index

    try:
        with ws.store.atomic():
            update_search_index(ws.store, ws.repo, model=ws.config.embed_model)  # type: ignore[arg-type]
        return related_code(
            ws.store,
            changed,
            ids((i.file, i.qualname) for i in review.impacted),
            limit,
            model=ws.config.embed_model,
        )
    except CrgError as exc:
        log.warning("related code left out: %s", exc)
        return []


def _runner_package_changed(graph: Graph, starts: Sequence[int]) -> str | None:
    """Why every test is selected when the change is to a package pytest itself imports before it runs a test
    (:data:`RUNNER_PACKAGES`: developing pluggy or iniconfig, the checkout's code is the runner's): a fault there can
    stop every test, whatever calls it; None otherwise."""
    for node in sorted(graph.nodes(starts).values(), key=attrgetter("path", "start_line")):
        if node.language != "python" or node.in_test_file:
            continue
        name = graph.collection.import_name(node.path)
        top = name.partition(".")[0] if name else ""
        if top in RUNNER_PACKAGES:
            return f"{node.path} changed: pytest imports {top} before it runs any test"
    return None


def _plugin_hook_changed(graph: Graph, starts: Sequence[int]) -> str | None:
    """Why every test is selected when a changed function is a pytest hook (``pytest_configure``, ...) of a module
    the project loads as a plugin (:func:`~crg_review.pytest_settings.registered_plugins`): pytest calls it for the
    whole session; None otherwise."""
    hooks = [
        n
        for n in graph.nodes(starts).values()
        if n.kind == "function" and n.name.startswith("pytest_") and n.language == "python" and not n.in_test_file
    ]
    if not hooks or graph.files is None:
        return None
    from .pytest_settings import registered_plugins

    plugins = registered_plugins(graph.files.read_tracked)
    for hook in hooks:
        if hook.parent_id == graph.module_symbol(hook.file_id) and graph.collection.import_name(hook.path) in plugins:
            return f"{hook.path}: {hook.name} changed, a hook of a pytest plugin this project loads: it runs for every test"
    return None


def _analyze(
    graph: Graph,
    touched: Touched,
    *,
    depth: int,
    cap: int,
    base: str | None,
    head: str,
    deadline: Deadline | None = None,
) -> Review:
    review = Review(base=base, head=head, changed=list(touched.changed), select_all=touched.select_all)
    if review.select_all is None:
        review.select_all = _plugin_hook_changed(graph, sorted(touched.start_ids))
    if review.select_all is None:
        review.select_all = _runner_package_changed(graph, sorted(touched.start_ids))
    head_paths = {r[0] for r in graph.conn.execute("SELECT path FROM files WHERE status NOT LIKE 'skipped:%'")}
    findings: list[Finding] = []

    # references to removed symbols: findings, and dependants known without an edge
    starts = sorted(touched.start_ids)
    index_of = {sid: i for i, sid in enumerate(starts)}
    seeds: dict[int, Reach] = {}
    test_seeds: dict[int, tuple[int, str]] = {}
    extra_bits = len(starts)
    for r in touched.removed:
        refs = removed_references(graph, r, head_paths)
        label = r.symbol.qualname
        for ref in refs:
            what = f"{r.symbol.kind} {label}"
            hint = f" (renamed to {r.renamed_to}?)" if r.renamed_to else ""
            verb = "imports" if ref.kind == "import" else "uses"
            findings.append(
                make_finding("CRG001", ref.file, ref.line, f"{verb} {what} from {r.path}, which this change removes{hint}")
            )
            if ref.scope_id not in seeds:
                seeds[ref.scope_id] = Reach(1, 1.0, (label,), ref.kind if ref.kind != "call" else "call", line=ref.line)
            test_seeds.setdefault(ref.scope_id, (extra_bits, ref.kind))
        extra_bits += 1
    for old_path, new_path in touched.removed_modules:
        findings.extend(removed_module_imports(graph, old_path, new_path, head_paths))

    # impacted: bounded reverse BFS
    reach = walk_dependants(graph, starts, depth, seeds=seeds) if depth > 0 else {}
    review.impacted, cut = rank_impacted(graph, reach, cap)

    # related tests: unbounded, with attribution to the changed symbols
    walked: dict[int, tuple[int, str, int]] = {}
    ran: set[int] = set()
    start_nodes = graph.nodes(starts)
    conv_files = {p: convention_files(graph, p) for p in {*touched.changed_paths, *(n.path for n in start_nodes.values())}}
    plugins = {p for p in {n.path for n in start_nodes.values()} if conv_files[p] and in_family(graph, p)}
    keyed = {sid for sid, n in start_nodes.items() if n.path in plugins}
    hits = walk_tests(graph, starts, seeds=test_seeds, deadline=deadline, state=walked, executed=ran, keyed=keyed)
    stopped = deadline is not None and deadline.reached
    add_doctests(graph, hits, walked, ran)
    add_doctest_runners(graph, hits, walked, ran)
    add_unparsed_tests(graph, hits, walked)
    add_exec_made_tests(graph, hits, walked)
    for path in sorted(touched.other_paths):  # changed test files that are not Python
        if graph.collection.collects_tests(path):
            node = file_test(path)
            hits[f"{path}::"] = TestHit(node, "", 0, "changed", 0, nodeid=path)  # (a file the walk found, too)
    nodes = graph.nodes(starts)
    for sid in starts:  # changed tests run themselves
        n = nodes.get(sid)
        if n is not None and (n.runnable_test or (n.is_test and n.kind in CLASS_KINDS)):
            for t in graph.collection.tests_under(n):
                add_hit(hits, t, t.qualname, 0, "changed", 1 << index_of[sid])
    reached = 0
    for h in hits.values():
        reached |= h.sources
    covered_paths = {nodes[sid].path for sid, i in index_of.items() if reached >> i & 1 and sid in nodes}
    names_by_path: dict[str, set[str]] = {}
    methods_by_path: dict[str, dict[str, set[int]]] = {}  # names of changed methods, with their classes
    others: set[tuple[str, str]] = set()  # (path, name) of other changed symbols
    for sid in starts:
        n = nodes.get(sid)
        if n is not None and n.kind != "module":
            names_by_path.setdefault(n.path, set()).add(n.name)
            if n.kind == "method" and n.parent_id is not None:
                methods_by_path.setdefault(n.path, {}).setdefault(n.name, set()).add(n.parent_id)
            else:
                others.add((n.path, n.name))
    for r in touched.removed:
        names_by_path.setdefault(r.path, set()).add(r.symbol.name)
        others.add((r.path, r.symbol.name))
    for path, name in others:  # a name some other changed symbol has too counts wherever it is named
        methods_by_path.get(path, {}).pop(name, None)
    found_files = {h.node.path for h in hits.values()}
    conv = convention_tests(
        graph,
        {p: conv_files[p] for p in touched.changed_paths},
        names_by_path,
        covered_paths,
        found_files,
        methods_by_path,
    )
    conv_paths = {path for path, tests in conv.items() if tests}
    for t in (t for tests in conv.values() for t in tests):
        key = f"{t.path}::{t.qualname}"
        if key not in hits:
            hits[key] = TestHit(t, t.qualname, 0, "convention", 0)
        # and the copies test subclasses inherit, which run it too (num2words's `Num2WordsESCOTest(Num2WordsESTest)`
        # in test_es_co.py, for the Spanish converter its Colombian one inherits)
        for cls, qual in graph.collection.inherited_tests(t):
            if f"{cls.path}::{qual}" not in hits:
                add_hit(hits, cls, qual, 0, "convention", 0)
    add_partly_parsed_tests(graph, hits, walked)
    add_recollected(graph, hits)
    name_remade_tests(graph, hits)
    name_guarded_tests(graph, hits)
    review.tests = sorted(
        (
            RelatedTest(
                file=h.node.path,
                qualname=h.qualname,
                nodeid=h.nodeid or nodeid(h.node.path, h.qualname, h.node.language),
                depth=h.depth,
                reason=h.reason,
            )
            for h in hits.values()
        ),
        key=attrgetter("depth", "nodeid"),
    )
    # tests a plain `pytest` run never collects (outside the settings' testpaths: attrs' `bench/`, with `testpaths =
    # "tests"`) are not the suite's; given by id they would run anyway, with plug-ins the suite does not load. A changed
    # one stays: whoever changed it may run it
    settings = graph.collection.doctest_settings()
    if settings is not None and settings.testpaths:
        # (pytest skips the testpaths that match nothing, and collects from the root when none does: wheel's
        # `testpaths = ["test"]` with its tests in `tests/`)
        indexed = tuple(p for p in settings.testpaths if graph.collection.has_files_under(p))
        settings = replace(settings, testpaths=indexed)
    if settings is not None and settings.testpaths:
        kept = [t for t in review.tests if t.reason == "changed" or not t.file.endswith(".py") or settings.collects_from(t.file)]
        if len(kept) < len(review.tests):
            review.stats["tests_outside_testpaths"] = len(review.tests) - len(kept)
            review.tests = kept

    # rules on changed symbols
    tested_bits = 0
    for h in hits.values():
        tested_bits |= h.sources
    changed_ids = set(starts)
    for sid in starts:
        n = nodes.get(sid)
        if n is None:
            continue
        cs = touched.start_ids[sid]
        if cs.change == "signature":
            findings.extend(incompatible_calls(graph, n, changed_ids))
        if n.kind not in FUNCTION_KINDS or n.is_test or n.in_test_file:
            continue
        # a walk stopped at its deadline cannot say that no test reaches a symbol
        tested = bool(tested_bits >> index_of[sid] & 1) or n.path in conv_paths or stopped
        if cs.change in ("modified", "signature") and not tested:
            what = (
                'the script entry block (if __name__ == "__main__")'
                if n.qualname == MAIN_SCOPE and n.language == "python"
                else f"{n.kind} {n.qualname}"
            )
            findings.append(
                make_finding("CRG003", n.path, n.start_line, f"{what} changed and no test reaches it")
            )
        if cs.change == "added" and is_public(n) and not tested and not is_registered(n) and not n.name.startswith("__"):
            users = graph.incoming([sid])[sid]
            if not users and not graph.base_methods(n):
                findings.append(
                    make_finding(
                        "CRG004", n.path, n.start_line, f"new public {n.kind} {n.qualname} has no caller and no test"
                    )
                )
    review.findings = _unique_findings(findings)
    if stopped and deadline is not None:
        review.stats["tests_stopped_after"] = deadline.seconds
    review.stats.update(
        {
            "changed": len(review.changed),
            "impacted": len(review.impacted),
            "impacted_total": len(reach),
            "impacted_cut": cut,
            "depth": depth,
            "tests": len(review.tests),
            "findings": len(review.findings),
            "findings_by_severity": _count(f.severity for f in review.findings),
        }
    )
    return review


def _unique_findings(findings: list[Finding]) -> list[Finding]:
    """One finding per rule and place (the first, most specific, wins), most severe first."""
    seen: set[tuple[str, str, int]] = set()
    out = []
    for f in findings:
        key = (f.rule, f.file, f.line)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return sorted(out, key=lambda f: (-SEVERITY_RANK.get(f.severity, 0), f.rule, f.file, f.line, f.message))


def _count(items: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in items:
        out[i] = out.get(i, 0) + 1
    return dict(sorted(out.items()))


def find_symbols(store: Store, text: str) -> list[Node]:
    """Symbols named by ``path::qualname``, a qualname or a bare name (all matches, for ambiguity)."""
    graph = Graph(store.conn)
    if "::" in text:
        path, _, qual = text.partition("::")
        rows = store.conn.execute(f"{NODE_SQL} WHERE f.path=? AND s.qualname=?", (path, qual)).fetchall()
    else:
        rows = store.conn.execute(
            f"{NODE_SQL} WHERE s.qualname=? AND s.kind != 'module' ORDER BY f.path, s.start_line", (text,)
        ).fetchall()
        if not rows:
            rows = store.conn.execute(
                f"{NODE_SQL} WHERE s.name=? AND s.kind != 'module' ORDER BY f.path, s.start_line", (text,)
            ).fetchall()
    del graph
    return [as_node(r) for r in rows]


def resolve_symbol(store: Store, text: str) -> Node:
    """The one symbol ``text`` names; a :class:`CrgError` listing the candidates when it is ambiguous."""
    found = find_symbols(store, text)
    if not found:
        raise CrgError(f"no symbol '{text}' in the index (give path::qualname, or run crg-review index)")
    if len(found) > 1:
        shown = ", ".join(f"{n.path}::{n.qualname}" for n in found[:20])
        more = f" and {len(found) - 20} more" if len(found) > 20 else ""
        raise CrgError(f"'{text}' is ambiguous: {shown}{more} (pass one as path::qualname)")
    return found[0]


def review_symbols(
    store: Store,
    nodes: Sequence[Node],
    *,
    depth: int,
    cap: int = DEFAULT_CAP,
    head: str = "",
    files: SnapshotFiles | None = None,
) -> Review:
    """What breaks if these symbols change: the same walks as a diff review, without a diff. ``files``: the
    indexed snapshot's files (for the tests a conftest collects from data files, and doctests)."""
    graph = Graph(store.conn, files=files)
    touched = Touched()
    for n in nodes:
        cs = ChangedSymbol(n.path, n.qualname, n.name, n.kind, n.start_line, n.end_line, "modified")
        touched.changed.append(cs)
        touched.start_ids[n.id] = cs
        if n.kind != "module" or len(nodes) == 1:
            touched.changed_paths.add(n.path)
    review = _analyze(graph, touched, depth=depth, cap=cap, base=None, head=head)
    review.findings = [f for f in review.findings if f.rule != "CRG003"]  # nothing changed: no rule on changes
    review.stats["findings"] = len(review.findings)
    return review


def callers(store: Store, node: Node, *, depth: int = 1) -> list[Impacted]:
    """Who calls or references ``node`` (tests included), up to ``depth`` calls away."""
    graph = Graph(store.conn)
    reach = walk_dependants(
        graph, [node.id], depth, kinds=frozenset(("call", "ref", "fixture", "dispatch")), include_tests=True
    )
    kept, _ = rank_impacted(graph, reach, -1)
    return kept


def tests_for(store: Store, node: Node, files: SnapshotFiles | None = None) -> list[RelatedTest]:
    """The tests that reach ``node``."""
    return review_symbols(store, [node], depth=0, files=files).tests


def _file_id(store: Store, path: str) -> int:
    row = store.conn.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
    if row is None:
        raise CrgError(f"{path} is not in the index (give a repository-relative path, or run crg-review index)")
    return int(row[0])


def dependents(store: Store, path: str) -> list[dict[str, Any]]:
    """Files with edges into ``path``: ``{file, edges, kinds}``, most edges first."""
    fid = _file_id(store, path)
    rows = store.conn.execute(
        "SELECT f.path, count(*), group_concat(DISTINCT e.kind) FROM edges e JOIN files f ON f.id=e.file_id"
        " WHERE e.dst_file_id=? AND e.file_id != ? GROUP BY f.path",
        (fid, fid),
    ).fetchall()
    out = [{"file": p, "edges": n, "kinds": sorted(k.split(","))} for p, n, k in rows]
    return sorted(out, key=lambda d: (-d["edges"], d["file"]))


def imports_of(store: Store, path: str) -> list[dict[str, Any]]:
    """The imports of ``path``: ``{line, module, name, alias, level, resolved: [files]}`` (empty: outside the repository)."""
    fid = _file_id(store, path)
    out = []
    for line, module, name, alias, level in store.conn.execute(
        "SELECT line, module, name, alias, level FROM imports WHERE file_id=? ORDER BY line, id", (fid,)
    ).fetchall():
        targets = sorted(
            {
                r[0]
                for r in store.conn.execute(
                    "SELECT DISTINCT f.path FROM edges e JOIN files f ON f.id=e.dst_file_id"
                    " WHERE e.file_id=? AND e.kind='import' AND e.line=?",
                    (fid, line),
                )
            }
        )
        out.append({"line": line, "module": module, "name": name, "alias": alias, "level": level, "resolved": targets})
    return out
