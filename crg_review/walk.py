"""The reverse walks from the touched symbols: dependants (:func:`walk_dependants`) and tests (:func:`walk_tests`).

- dependants: every symbol up to ``depth`` edges away, with the path back (``via``), the kind of the last
  edge and a confidence (the product of the edge confidences along the path), ranked and capped;
- tests: test functions that reach a touched symbol, however deep, up to :data:`TEST_DEPTH_WINDOW` edges
  beyond its nearest test (import edges of whole modules are not followed: importing a module does not
  exercise its functions, unless module-level code calls the change), fixtures, ``setUp`` and ``tearDown``.
"""

from __future__ import annotations

import io
import posixpath
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .graph import Graph
from .graphnodes import CONSTRUCTORS, FUNCTION_KINDS, EdgeIn, Node, first_name, is_conftest, is_special
from .model import CLASS_KINDS, CLASS_TEST_HOOKS, FUNCTION_TEST_HOOKS, MODULE_TEST_HOOKS
from .resolve import FAMILY_CONFIDENCE
from .review import Impacted
from .store import escape_like

__all__ = [
    "DEADLINE_CHECK_NODES",
    "DISPATCH_CONFIDENCE",
    "FREE_IMPORT_LEVEL",
    "OVERRIDE_CONFIDENCE",
    "RECEIVER_GUESS_MAX_DEPTH",
    "TEST_DEPTH_WINDOW",
    "TEST_EDGE_MIN_CONFIDENCE",
    "Deadline",
    "Reach",
    "TestHit",
    "add_hit",
    "file_test",
    "nodeid",
    "rank_impacted",
    "walk_dependants",
    "walk_tests",
]


#: the related tests of a changed symbol are those at most this many edges farther from it than its nearest
#: test: a long chain of calls past the nearest tests is ever less likely to run (benchmarks/mutation_eval.py
#: on click 8.1.7: of the tests listed more than 6 edges beyond the nearest one, 6 % failed with the function
#: broken)
TEST_DEPTH_WINDOW = 6
#: a module whose body runs a change at most this many edges above it fails to import, and so does every module
#: importing it: those imports count nothing for the test window (:func:`walk_tests`)
FREE_IMPORT_LEVEL = 3
#: beyond the first edge, the test walk ignores edges less certain than this (name matches among many)
TEST_EDGE_MIN_CONFIDENCE = 0.2
#: how the resolver tells a call that runs one of the functions of a table the code takes one from by a key known
#: when it runs (or the wrapper a decorator made of one): however many, any caller may run each, so the walk follows
#: each whatever its share (segno's `_VALID_SERIALIZERS[ext](...)`, one of 12 writers). Not a descriptor's `__get__`
#: running one of the getters made with it (resolve: `decorated`): which one, the attribute read tells
_ONE_OF_KNOWN = frozenset(("table", "wrapper"))
#: confidence of a virtual edge from a call of an overridden base method to an override (dispatch)
DISPATCH_CONFIDENCE = 0.7
#: confidence of a virtual edge from the callers of an override to the base method it replaces
OVERRIDE_CONFIDENCE = 0.3
#: the test walk guesses receivers for the changed methods and their callers this many edges away
RECEIVER_GUESS_MAX_DEPTH = 1
#: the test walk looks at its :class:`Deadline` before every this many nodes
DEADLINE_CHECK_NODES = 256
#: module-level functions Python calls on a module object (PEP 562)
_MODULE_HOOKS = frozenset(("__getattr__", "__dir__"))
_SETUPS = frozenset((*CLASS_TEST_HOOKS, *MODULE_TEST_HOOKS, *FUNCTION_TEST_HOOKS))
#: public methods of Python's built-in types and files: ``x.update()`` on a receiver the resolver could not
#: type is more likely a dict's than the one project method of that name
_BUILTIN_METHODS = frozenset(
    name
    for t in (dict, list, set, frozenset, str, bytes, bytearray, tuple, int, float, io.TextIOWrapper, io.BytesIO)
    for name in dir(t)
    if not name.startswith("_")
)
#: special methods that may run where an instance is made in a class body (or its class is), on import: the others
#: run where it is used, and a class body's ``widget = FileInput()`` (wtforms) makes one for the users of its class
_RUN_ON_MAKING = CONSTRUCTORS | frozenset(
    ("__set_name__", "__init_subclass__", "__class_getitem__", "__mro_entries__", "__hash__", "__eq__")
)
_KIND_ORDER = {"call": 0, "dispatch": 1, "inherit": 2, "fixture": 3, "ref": 4, "override": 5, "import": 6}


@dataclass
class Reach:
    depth: int
    confidence: float
    via: tuple[str, ...]
    edge: str
    reason: str = "graph"
    line: int = 0


def walk_dependants(
    graph: Graph,
    starts: Iterable[int],
    depth: int,
    *,
    seeds: dict[int, Reach] | None = None,
    kinds: frozenset[str] | None = None,
    include_tests: bool = False,
) -> dict[int, Reach]:
    """Reverse BFS from ``starts`` up to ``depth`` edges: every dependant with its shallowest depth and,
    at that depth, its most confident path. ``seeds`` are dependants known without an edge (depth 1)."""
    start_set = set(starts)
    reach: dict[int, Reach] = {s: Reach(0, 1.0, (), "") for s in start_set}
    level: dict[int, Reach] = dict(reach)
    for d in range(1, depth + 1):
        nxt: dict[int, Reach] = {}
        if d == 1:
            nxt.update({k: v for k, v in (seeds or {}).items() if k not in reach})
        nodes = graph.nodes(level)
        incoming = graph.incoming(level)
        graph.nodes({e.src for edges in incoming.values() for e in edges})
        graph.prefetch(nodes.values())
        for dst, r in sorted(level.items()):
            dst_node = nodes.get(dst)
            if dst_node is None:
                continue
            edges = graph.callers_of(dst_node, incoming) + graph.dispatch.constructed_via(dst_node)
            edges += graph.dispatch.closure_maker(dst_node) + graph.receivers.copied_by(dst_node)
            if kinds is None or "dispatch" in kinds:
                edges += [
                    EdgeIn(b.id, dst, "dispatch", DISPATCH_CONFIDENCE, "dispatch", b.start_line)
                    for b in graph.base_methods(dst_node)
                ]
                edges += graph.receivers.receiver_guesses(dst_node) if d == 1 else []
            if d == 1:
                edges += graph.dispatch.protocol_callers(dst_node) + graph.dispatch.family_protocol_callers(dst_node)
                edges += graph.dispatch.callable_callers(dst_node)
            if kinds is None and d == 1:
                edges += [
                    EdgeIn(o.id, dst, "override", OVERRIDE_CONFIDENCE, "override", o.start_line)
                    for o in graph.overriding_methods(dst_node)
                ]
            for e in edges:
                if (kinds is not None and e.kind not in kinds) or e.src in reach:
                    continue
                conf = r.confidence * e.confidence
                old = nxt.get(e.src)
                if old is None or (conf, -_KIND_ORDER.get(e.kind, 9)) > (old.confidence, -_KIND_ORDER.get(old.edge, 9)):
                    nxt[e.src] = Reach(d, conf, (dst_node.label, *r.via), e.kind, line=e.line)
        src_nodes = graph.nodes(nxt)
        level = {
            sid: cand
            for sid, cand in nxt.items()
            if sid in src_nodes and (include_tests or not (src_nodes[sid].is_test or src_nodes[sid].in_test_file))
        }
        reach.update(level)
        if not level:
            break
    return {k: v for k, v in reach.items() if k not in start_set}


def rank_impacted(graph: Graph, reach: dict[int, Reach], cap: int) -> tuple[list[Impacted], int]:
    """Rank dependants (confident and near first) and cut to ``cap``; returns (kept, number cut)."""
    nodes = graph.nodes(reach)
    rows = []
    for sid, r in reach.items():
        n = nodes[sid]
        score = r.confidence * (0.85 ** (r.depth - 1))
        rows.append(
            (
                (-score, r.depth, _KIND_ORDER.get(r.edge, 9), n.path, n.start_line, n.qualname),
                Impacted(
                    file=n.path,
                    qualname=n.qualname,
                    kind=n.kind,
                    line=n.start_line,
                    depth=r.depth,
                    via=r.via,
                    edge=r.edge,
                    confidence=round(r.confidence, 3),
                ),
            )
        )
    rows.sort(key=lambda x: x[0])
    kept = [i for _, i in rows[:cap]] if cap >= 0 else [i for _, i in rows]
    return kept, max(0, len(rows) - len(kept))


@dataclass(slots=True)  # one per selected test: thousands
class TestHit:
    node: Node
    qualname: str
    depth: int
    reason: str
    sources: int  # bit set of start indexes
    nodeid: str = ""  # when it is not the node's (a doctest's)


class Deadline:
    """A time limit for :func:`walk_tests` (the hook's): ``reached`` tells whether the walk stopped at it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.perf_counter() + seconds
        self.reached = False

    def passed(self) -> bool:
        self.reached = self.reached or time.perf_counter() > self.at
        return self.reached


def walk_tests(
    graph: Graph,
    starts: Sequence[int],
    *,
    seeds: dict[int, tuple[int, str]] | None = None,
    deadline: Deadline | None = None,
    state: dict[int, tuple[int, str, int]] | None = None,
    executed: set[int] | None = None,
    keyed: Collection[int] = (),
) -> dict[str, TestHit]:
    """Tests that reach any of ``starts`` (unbounded reverse BFS). ``seeds``: node → (start index, edge
    kind) for dependants known without an edge (references to removed symbols). Keyed by node id.
    ``keyed``: starts in plug-in modules with tests named after them, whose tests the walk does not look for through a
    table of instances (``CONVERTERS[lang]``): the key that picks their class is what their own tests give.
    With a ``deadline``, the walk stops when it passes (checked every few hundred nodes): the tests found
    until then, nearest first, are returned. ``state``, when given, is filled with every node reached:
    node → (depth, reason, bit set of the starts it reaches); ``executed``, with the modules whose import runs a change."""
    bit_of = {sid: 1 << i for i, sid in enumerate(starts)}
    keyed_bits = 0
    for sid in keyed:
        keyed_bits |= bit_of.get(sid, 0)
    # node → (depth, reason, sources)
    if state is None:
        state = {}
    state.update((sid, (0, "changed", bit_of[sid])) for sid in starts)
    queue: dict[int, int] = dict(bit_of)  # node → new source bits to push further
    for sid, (index, _kind) in (seeds or {}).items():
        bits = 1 << index
        d, reason, have = state.get(sid, (1, "graph", 0))
        state[sid] = (d, reason, have | bits)
        queue[sid] = queue.get(sid, 0) | bits
    hits: dict[str, TestHit] = {}
    start_set = set(starts)
    if executed is None:
        executed = set()  # modules whose body runs a changed symbol: importing them runs it
    plain: set[int] = set(starts)  # nodes reached through an edge of another kind than those of `only`
    # nodes reached only as a wrapper from a function it wraps ("decorated"), or only as the maker of a nested
    # function it returns ("closure": calling the maker makes the function, it does not run it; "wrapped": so reached
    # from a wrapper that was itself reached only from a function it wraps)
    only: dict[int, str] = {}
    # nodes reached only from the overrides a `self.m()` of theirs dispatches to (resolve: "dispatch"; only "dispatched"):
    # the classes of those overrides, one of whose family the instance is (qrcode's BaseImage.__init__ calls
    # `self.new_image()`: reached from PilImage.new_image, it runs for a PilImage, not for the PyPNGImage a test makes)
    dispatched: dict[int, set[int]] = {}
    window = _DepthWindow()
    levels: dict[int, int] = {}  # node → the depth the window counts, where it differs from its depth
    cache = graph._nodes  # every node the loop below asks about is loaded a level ahead
    while queue:
        nodes = graph.nodes(queue)
        incoming = graph.incoming(queue)
        graph.nodes({e.src for edges in incoming.values() for e in edges})  # one query for the level
        graph.prefetch(nodes.values(), subclasses_of_tests=True)
        _prefetch_receiver_checks(graph, queue, nodes, incoming, state, levels, window, start_set)
        test_classes = {n.id for n in nodes.values() if n.is_test and n.kind in CLASS_KINDS}
        graph.load_children(test_classes)  # their tests (tests_under), and the subclasses that inherit them
        graph.prefetch_closure(test_classes, "subclasses")
        ran = [nodes[d] for d in queue if d in executed and d in nodes]  # modules whose import runs a change
        graph.readers.prefetch_file_importers(ran)
        graph.collection.prefetch_tests_in_files(n.path for n in ran if n.in_test_file and not is_conftest(n.path))
        nxt: dict[int, int] = {}
        guessed: list[tuple[EdgeIn, Node, int, int, str, int]] = []  # name matches whose scope is to be checked
        for done, (dst, bits) in enumerate(sorted(queue.items())):
            if deadline is not None and done % DEADLINE_CHECK_NODES == 0 and deadline.passed():
                return hits
            node = nodes.get(dst)
            if node is None:
                continue
            depth, reason, _ = state[dst]
            level = levels.get(dst, depth)  # the depth the window counts (see _window_step)
            here = state[dst][2] & window.open_at(level)
            if here and (node.runnable_test or (node.is_test and node.kind in CLASS_KINDS)):
                _add_tests(graph, hits, graph.collection.tests_under(node), max(depth, 0), reason, here)
                for test_class in [node] if node.kind in CLASS_KINDS else []:
                    for _method, qual in graph.collection.base_tests(test_class):
                        add_hit(hits, test_class, qual, max(depth, 0), reason, here)
                    if test_class.in_test_file and test_class.parent_id == graph.module_symbol(test_class.file_id):
                        # and the class, for the tests its metaclass or a class method attaches (uritemplate's
                        # `metaclass=RFCTemplateExamples` makes a `test_<level>` per table): names the index lacks
                        add_hit(hits, test_class, test_class.qualname, max(depth, 0), reason, here)
                window.found(here, level)
            elif here and node.kind == "method" and not node.is_test and node.name.startswith("test"):
                mixed_in = graph.collection.inherited_tests(node)  # a test method of a mixin that is no test class
                for cls, qual in mixed_in:
                    add_hit(hits, cls, qual, max(depth, 0), reason, here)
                if mixed_in:
                    window.found(here, level)
            elif (
                here and node.kind == "method" and not node.is_test and not incoming.get(dst)
                and graph.collection.in_made_test_class(node)
            ):
                # a method nothing calls, of a class of a test module whose base a library makes: tests its metaclass
                # makes call it (clize's `class DecoHelpTests(FunctionFixtures)` over `repeated_test.WithTestClass(...)`
                # makes a `test_<name>` calling `_test` per tuple of its body); their names are not known, the file is.
                # No nearest test for the window: the file's tests may be anywhere past it (a first version that was one
                # cut 16 of the 64 failing tests of clize's `elements_from_autodetected_docstring`)
                add_hit(hits, file_test(node.path), "", max(depth, 0), reason, here)
            below = state[dst][2] & window.open_at(level + 1)
            if below and _is_autouse(node):
                _add_tests(graph, hits, _autouse_scope(graph, node), depth + 1, "fixture", below)
                window.found(below, level + 1)
            collected = graph.collection.collected_files(node) if below and node.in_test_file else []
            for path in collected:  # tests a conftest collects from data files, which run this collector
                add_hit(hits, file_test(path), "", depth + 1, "collected", below)
            if collected:
                window.found(below, level + 1)
            bits &= window.open_at(level + 1)
            if not bits:
                continue
            if dst in executed:
                if node.in_test_file:  # a test module (or conftest.py) that runs the change on import
                    _add_tests(graph, hits, _module_tests(graph, node.path), depth + 1, "graph", below)
                    if not is_conftest(node.path):
                        # and the file: its import may make tests the index cannot name (mistune's module-level
                        # `TestCommonMark.load_fixtures("commonmark.json")` attaches a `test_<n>` per case)
                        add_hit(hits, file_test(node.path), "", depth + 1, "graph", below)
                    window.found(below, level + 1)
                edges = graph.readers.file_importers(node)
            else:
                # a function given by name to one that calls it (resolve: "passed") runs for the scope that gives it,
                # whose reference the walk follows: the receiving function's other callers give other functions
                edges = [e for e in graph.callers_of(node, incoming) if e.resolution != "passed"]
                if any(e.resolution == "decorated" for e in edges) and any(
                    e.kind == "call" and e.resolution != "decorated" for e in edges
                ):
                    # a decorated function called by name runs through the wrapper from those calls; the
                    # wrapper's other callers run the other functions it decorates (`@curry def flip`)
                    edges = [e for e in edges if e.resolution != "decorated"]
                if only.get(dst) == "decorated":
                    # a wrapper reached from a function it wraps: the calls of the other functions it wraps are
                    # edges into it too (resolve: "wrapper"), and they do not run this one
                    edges = [e for e in edges if e.resolution != "wrapper"]
            overridden = graph.base_methods(node)
            if overridden:  # rarely: no list built for the thousands of other nodes of a level
                edges += [EdgeIn(b.id, dst, "dispatch", DISPATCH_CONFIDENCE, "dispatch", 0) for b in overridden]
            made_for_later: Collection[EdgeIn] = ()
            family = _dispatch_family(graph, node, dispatched[dst]) if only.get(dst) == "dispatched" else None
            if family is not None:
                # a call through `self` or `super()` in a method of a class outside the family is on another instance,
                # and a construction of a class outside it (`B()` running the `__init__` B inherits) makes another; so
                # is a typed call whose every receiver the scope makes of a class outside it (bibtexparser's
                # `AddEnclosingMiddleware(...).transform(library)` runs its own `transform_entry`, through `self`)
                edges = [
                    e
                    for e in edges
                    if not (e.resolution in ("self", "super") and _caller_class(graph, e) not in family)
                    and not (e.resolution == "constructor" and graph.classes_called_on(e.src, [e.line]).get(e.line, set()).isdisjoint(family))
                    and not (e.resolution == "typed" and graph.receivers.on_other_instances(e.src, node.name, family))
                ]
            if not node.runnable_test:  # the runner runs a test: no constructor, copy hook or maker does
                made = _made_for_tests(graph, node, family)
                if family is not None:  # (and a class outside the family naming this one in its header makes none)
                    makers = graph.nodes(e.src for e in made)
                    made = [e for e in made if e.src in family or e.src not in makers or makers[e.src].kind not in CLASS_KINDS]
                if (
                    made
                    and is_special(node.name)
                    and node.name not in _RUN_ON_MAKING
                    and node.parent_id is not None
                    and not graph.is_metaclass(node.parent_id)  # (a class made: its metaclass's __setattr__ runs)
                ):
                    made_for_later = set(made)
                edges += made + graph.receivers.copied_by(node) + graph.dispatch.closure_maker(node)
                edges += graph.dispatch.classes_made(node, made)
                if depth <= RECEIVER_GUESS_MAX_DEPTH:
                    edges += graph.receivers.receiver_guesses(node)
                edges += graph.receivers.self_callers(node)
            if node.name in _MODULE_HOOKS and node.kind == "function" and node.language == "python":
                module = graph.module_symbol(node.file_id)
                if module is not None and node.parent_id == module:
                    # a module's own __getattr__ (PEP 562) runs for any name the module lacks, which code that
                    # imports it probes without naming (hasattr, inspect, pytest's collection): as if on import
                    edges = [*edges, EdgeIn(module, dst, "call", 1.0, "import-time", node.start_line)]
            if not edges:
                continue
            missing = [e.src for e in edges if e.src not in cache]
            if missing:
                graph.nodes(missing)
            # x.m() matched by name: weak among many candidates, or when m is also a method of a built-in
            # type (x.update() is more often a dict's); followed when the scope (or its fixtures, or its
            # class) makes or names m's class, as in ``def test(runner): runner.invoke(...)``. A function so named
            # (mando's test command `def append(...)` for `real_args.append(x)`) is never a guess followed: no
            # class of its own tells the receiver's
            demoted = node.kind in FUNCTION_KINDS and node.language == "python" and node.name in _BUILTIN_METHODS
            floor = 0.0 if dst in start_set else TEST_EDGE_MIN_CONFIDENCE
            # a function nothing calls, only named: one stored at import time in a module's table
            # (`FORMATS = {"pipe": Format(line=_pipe_line)}`) is called by whoever reads the table, which only
            # the module's importers can
            # (and a special method's class so stored, h11's `READERS = {SEND_BODY: {"chunked": ChunkedReader, ...}}`,
            # makes instances for whoever reads the table, whose `__call__` they run)
            stored = node.kind in FUNCTION_KINDS and all(e.kind == "ref" for e in edges)
            if node.kind in FUNCTION_KINDS and any(cache[e.src].kind == "module" for e in edges if e.src in cache):
                # where the graph knows who reads that table, those scopes stand for the module, whose
                # importers (every module above it, often the whole suite) the walk would take otherwise;
                # likewise for an instance the module makes and stores, for a method run on it later
                edges = _through_tables(graph, node, edges)
                missing = [e.src for e in edges if e.src not in cache]
                if missing:
                    graph.nodes(missing)
            made_only = only.get(dst)
            maker_only = made_only in ("closure", "wrapped")
            # reached only as a function stored by the scopes above (`self.parse_mlstring = mlscanstring` in hjson's
            # HjsonDecoder.__init__): a module body making such an object at import and keeping it in a variable holds
            # the change, it does not run it; whoever reads the variable may (:func:`_holds`, ModuleReaders.kept_readers).
            # Handed to a call instead (idna's `codecs.register(search_function)`), or read where the graph cannot
            # follow (the module body itself, mistune's `html = create_markdown(...)` used below it), its users are
            # not known: the module's importers stand for them
            held = made_only == "held"
            for e in edges:
                src = cache.get(e.src)
                if src is None:
                    continue
                if (
                    maker_only
                    and e.kind == "call"
                    and (src.kind == "module" or src.kind in CLASS_KINDS or _decorates(e, src))
                    and not (made_only == "closure" and _applies_made(graph, e, src, node, plain))
                ):
                    # `one = deco(_one)` on import, `@deco def f` being defined: they make the nested function; for
                    # `@validator def ipv4`, the name ipv4 then holds it (a wrapper), so a caller of ipv4 runs it
                    # (unless the walk came to the wrapper from a function it wraps: `other`'s wraps another)
                    if made_only == "closure" and src.kind in FUNCTION_KINDS and _decorates(e, src):
                        _reach(state, levels, nxt, plain, only, dispatched, e, src, node, bits, depth, level, reason)
                    if (
                        made_only == "closure"
                        and src.kind == "module"
                        and src.in_test_file
                        and not is_conftest(src.path)
                        and graph.readers.makes_tests_at(src, e.line)
                    ):
                        # a test module making such functions into tests on import, whose names the index lacks
                        # (yamllint's `setattr(SpecificationTestCase, "test_" + name, _gen_test(...))`): the file
                        add_hit(hits, file_test(src.path), "", depth + 1, "graph", bits)
                        window.found(bits, level + 1)
                    continue
                if held and src.kind == "module" and e.kind == "call" and e.confidence >= TEST_EDGE_MIN_CONFIDENCE:
                    readers = graph.readers.kept_readers(src, node, e)
                    if readers is not None:  # the scopes reading the variable the object is kept in stand for the module
                        graph.nodes([r.src for r in readers])
                        for r in readers:
                            if r.src in cache:
                                _reach(state, levels, nxt, plain, only, dispatched, r, cache[r.src], node, bits, depth, level, reason)
                        continue
                runs_on_import = src.kind == "module" and (
                    (e.kind == "call" and e.confidence >= TEST_EDGE_MIN_CONFIDENCE)
                    or e.resolution == "import-time"
                    or (stored and e.confidence >= TEST_EDGE_MIN_CONFIDENCE)
                )
                class_body = (
                    e.kind == "call"
                    and not held
                    and src.kind in CLASS_KINDS
                    and e not in made_for_later  # reached as a class, whose users stand for the instance's
                    and graph.runs_on_import(src)
                )
                if runs_on_import or (class_body and (not src.in_test_file or e.confidence >= TEST_EDGE_MIN_CONFIDENCE)):
                    # module or class body code runs the change whenever the module is imported (a test class's
                    # `variant = TypeBuilder.make_variant(...)`: its module fails to import, every test in it fails)
                    module = src.id if src.kind == "module" else graph.module_symbol(src.file_id)
                    if module is not None and module not in executed:
                        executed.add(module)
                        # a module importing one whose import fails fails to import too, however long the chain:
                        # an import counts nothing for the test window (svgwrite's validators, built on import of a
                        # module nine imports below its tests)
                        # (when the change runs near the module body: a long walk to it is a guess, and the window
                        # keeps what a guess reaches from taking every importer of the package)
                        imported = dst in executed and e.kind == "import" and level <= FREE_IMPORT_LEVEL
                        levels.setdefault(module, level if imported else level + 1)
                        known = state.get(module, (depth + 1, "graph", 0))
                        state[module] = (min(known[0], depth + 1), known[1], known[2] | bits)
                        nxt[module] = nxt.get(module, 0) | known[2] | bits
                        if module == e.src:
                            continue
                if e.kind == "import" and src.kind == "module":
                    # importing a module is no test of its functions; for a module-level change the
                    # importing test files' tests are the closest we know
                    if not (dst in start_set and node.kind == "module" and src.in_test_file):
                        continue
                    _add_tests(graph, hits, graph.collection.tests_in_files([src.path]), depth + 1, "graph", state[dst][2])
                    continue
                if _guessed(e, demoted, floor):
                    prev = state.get(e.src)
                    if prev is None or bits & ~prev[2]:
                        # checked once the level's other edges are followed: most scopes an x.m() matched by
                        # name comes from are reached through them too (django's capfirst: two in three)
                        guessed.append((e, node, bits, depth, reason, level))
                    continue
                if e.confidence < floor and e.resolution not in _ONE_OF_KNOWN:
                    continue
                if e.resolution == "instances" and bits & keyed_bits:
                    if bits & ~keyed_bits:
                        _reach(state, levels, nxt, plain, only, dispatched, e, src, node, bits & ~keyed_bits, depth, level, reason)
                    continue
                _reach(state, levels, nxt, plain, only, dispatched, e, src, node, bits, depth, level, reason)
        for e, node, bits, depth, reason, level in guessed:
            prev = state.get(e.src)
            if (prev is None or bits & ~prev[2]) and graph.receivers.uses_class_of(e.src, node):
                _reach(state, levels, nxt, plain, only, dispatched, e, cache[e.src], node, bits, depth, level, reason)
        queue = nxt
    return hits


def _reach(
    state: dict[int, tuple[int, str, int]],
    levels: dict[int, int],
    nxt: dict[int, int],
    plain: set[int],
    only: dict[int, str],
    dispatched: dict[int, set[int]],
    e: EdgeIn,
    src: Node,
    node: Node,
    bits: int,
    depth: int,
    level: int,
    reason: str,
) -> None:
    """Record, in :func:`walk_tests`, that ``src`` (``e.src``) reaches ``node`` (at ``depth``, ``level`` for the
    window) for the changes in ``bits``."""
    new_reason = "graph" if reason == "changed" else reason
    if e.kind == "fixture":
        new_reason = "setup" if node.name in _SETUPS else "fixture"
    how = "decorated" if e.resolution == "decorated" else "closure" if _makes_closure(e, node) else ""
    if how == "closure" and only.get(node.id) == "decorated":
        how = "wrapped"  # the maker of a wrapper reached from a function it wraps: its other decorations wrap others
    elif not how and _holds(e, src, node, only):
        how = "held"
    classes: set[int] = set()  # for "dispatched": the classes of the overrides
    if not how and _dispatches_to(e, src, node) and node.parent_id is not None:
        how, classes = "dispatched", {node.parent_id}
    elif not how and e.resolution in ("self", "super") and src.kind == "method" and only.get(node.id) == "dispatched":
        how, classes = "dispatched", dispatched.get(node.id, set())  # the same instance, through `self`
    was = only.get(e.src)
    if not how:
        plain.add(e.src)
        only.pop(e.src, None)
    elif e.src not in plain and only.get(e.src, how) == how:
        only[e.src] = how
    else:  # reached both ways: as if plainly
        plain.add(e.src)
        only.pop(e.src, None)
    widened = False  # a node expanded under a constraint that no longer holds (or holds for more classes)
    if only.get(e.src) == "dispatched":
        known = dispatched.setdefault(e.src, set())
        widened = bool(known) and not classes <= known
        known.update(classes)
    elif was == "dispatched":
        dispatched.pop(e.src, None)
        widened = True
    prev = state.get(e.src)
    if prev is None:
        state[e.src] = (depth + 1, new_reason, bits)
        levels.setdefault(e.src, level + _window_step(src, node))
        nxt[e.src] = nxt.get(e.src, 0) | bits
    elif bits & ~prev[2]:
        added = bits & ~prev[2]
        state[e.src] = (prev[0], prev[1], prev[2] | added)
        nxt[e.src] = nxt.get(e.src, 0) | added
    elif widened:  # walked again from there, without the constraint it was walked under
        nxt[e.src] = nxt.get(e.src, 0) | prev[2]


def _dispatches_to(e: EdgeIn, src: Node, node: Node) -> bool:
    """Whether ``src`` reaches the method ``node`` as a ``self.m()`` of a base class that dispatches to the override
    ``node`` (resolve: "dispatch"), or as the base method ``node`` overrides (the walk's "dispatch" edges), for an
    instance of the override's class."""
    return (
        e.kind in ("call", "dispatch")
        and e.resolution == "dispatch"
        and src.kind == "method"
        and node.kind == "method"
        and node.parent_id is not None
        and node.language == "python"
    )


def _dispatch_family(graph: Graph, node: Node, overriding: set[int]) -> set[int] | None:
    """The classes an instance running ``node`` may be of, when the walk reached it only from the overrides in the
    classes ``overriding`` that a call of its own dispatches to: their families (:meth:`Graph.family`). None when a
    class there does not derive from ``node``'s (a call on another object of a base type, not on ``self``)."""
    if node.parent_id is None or not all(node.parent_id in graph.transitive(c, "bases") for c in overriding):
        return None
    return graph.family(overriding)


def _caller_class(graph: Graph, e: EdgeIn) -> int | None:
    """The class whose method makes the call ``e`` (None for a function)."""
    src = graph.nodes([e.src]).get(e.src)
    if src is None or src.kind != "method" or src.parent_id is None:
        return None
    return src.parent_id


def _holds(e: EdgeIn, src: Node, node: Node, only: dict[int, str]) -> bool:
    """Whether ``src`` only keeps ``node`` for later, in :func:`walk_tests`: a function or method naming a function
    without calling it (``self.parse_mlstring = mlscanstring``), or calling one that only keeps the change so (making
    the object that holds it: ``HjsonDecoder(...)``, or a factory of such objects)."""
    if src.kind not in FUNCTION_KINDS:
        return False
    if e.kind == "ref":
        return node.kind in FUNCTION_KINDS
    return e.kind == "call" and only.get(node.id) == "held"


def _window_step(src: Node, dst: Node) -> int:
    """How far a call from ``src`` to ``dst`` counts for the test window: nothing for a call of a private method of
    the caller's own class (a recursive descent parser's `_parse_statement` -> `_parse_jump_statement` -> ... is
    one object's inner work, ten calls below the test that calls `parse`), one edge otherwise (a public method
    counts: django's form and field methods call one another, and counting them free doubled the tests of a
    validator); nothing for a call of a memoised function without parameters (:func:`_loads_once`)."""
    same = src.kind == "method" and dst.kind == "method" and src.parent_id == dst.parent_id
    if same and dst.name.startswith("_") and not dst.name.startswith("__"):
        return 0
    return 0 if _loads_once(dst) else 1


#: decorators that memoise a function's result for the process (with or without arguments: ``@lru_cache(maxsize=1)``)
_MEMOISERS = frozenset(("cache", "functools.cache", "lru_cache", "functools.lru_cache"))


def _loads_once(node: Node) -> bool:
    """Whether ``node`` is a Python function without parameters whose result is memoised
    (``@functools.cache def _load_models()``): it computes once what every caller shares (a model file parsed, a
    registry built), whatever the caller, so a call of it counts nothing for the test window (chardet's
    `parse_models_bin`, parsed by such a loader eight calls below `detect`, has a unit test at depth 1 too)."""
    if node.kind != "function" or node.language != "python" or node.decorators_json == "[]" or node.params_json != "[]":
        return False
    return any(d.partition("(")[0].strip() in _MEMOISERS for d in node.decorators)


def _makes_closure(e: EdgeIn, node: Node) -> bool:
    """Whether ``e`` goes from the function ``node`` is nested in to ``node``: the closure edge of the walk,
    or the maker's own reference (``return wrapper``)."""
    return e.resolution == "closure" or (e.kind == "ref" and e.src == node.parent_id)


def _decorates(e: EdgeIn, src: Node) -> bool:
    """Whether the call ``e`` out of ``src`` is that of one of its decorators (on its first lines: the
    parser gives a decorator's call the scope of the function it decorates)."""
    return bool(src.decorators_json != "[]" and e.line < src.start_line + len(src.decorators))


def _applies_made(graph: Graph, e: EdgeIn, src: Node, maker: Node, plain: set[int]) -> bool:
    """Whether the call ``e`` of ``maker`` out of ``src`` is a decorator with arguments, ``@maker(...)``, on a
    definition in ``src``, where a function ``maker`` makes runs the change (is in ``plain``, not only a maker
    itself): it is applied there at once (``@dispatch_on("obj") def f`` runs the nested ``gen_func_dec`` when the
    module is imported; ``@retry(3) def f`` runs ``deco``, which only makes the wrapper that runs the change)."""
    if not any(c.id in plain for c in graph.children(maker.id) if c.kind in FUNCTION_KINDS):
        return False
    for child in graph.children(src.id):
        decorators = child.decorators
        if child.start_line <= e.line < child.start_line + len(decorators):
            return any(d.split("(", 1)[0].rpartition(".")[2] == maker.name and "(" in d for d in decorators)
    return False


def _made_for_tests(graph: Graph, method: Node, within: Collection[int] | None = None) -> list[EdgeIn]:
    """:meth:`ImplicitCallers.constructed_via` for the test walk, without an autouse fixture that only names the class
    of a special method (``doctest_namespace["Version"] = Version``): it runs for every test and registers the class,
    it makes no instance; the tests that use instances reach the method through edges of their own."""
    made = graph.dispatch.constructed_via(method, within)
    if not made or not is_special(method.name):
        return made
    namers = graph.nodes(e.src for e in made if e.kind == "ref")
    return [e for e in made if e.kind != "ref" or e.src not in namers or not _is_autouse(namers[e.src])]


def _through_tables(graph: Graph, fn: Node, edges: list[EdgeIn]) -> list[EdgeIn]:
    """``edges`` into a function with each confident reference from a module body replaced by the readers of
    the variables it is stored in (:meth:`ModuleReaders.table_readers`), and each construction of an instance by a
    module body, for a method run on it later, by the readers of the variable holding the instance
    (:meth:`ModuleReaders.instance_readers`), where they are known."""
    out: list[EdgeIn] = []
    for e in edges:
        src = graph._nodes.get(e.src)
        if src is not None and src.kind == "module" and e.confidence >= TEST_EDGE_MIN_CONFIDENCE:
            readers = None
            if e.kind == "ref":
                readers = graph.readers.table_readers(src, fn, e)
            elif e.kind == "call" and e.resolution != "import-time" and fn.kind == "method":
                readers = graph.readers.instance_readers(src, fn, e)
            if readers is not None:
                out += readers
                continue
        out.append(e)
    return out


def _prefetch_receiver_checks(
    graph: Graph,
    queue: dict[int, int],
    nodes: dict[int, Node],
    incoming: dict[int, list[EdgeIn]],
    state: dict[int, tuple[int, str, int]],
    levels: dict[int, int],
    window: _DepthWindow,
    start_set: set[int],
) -> None:
    """Load in a few queries what the receiver checks of a level of :func:`walk_tests` ask (a superset:
    the window only closes further while the level runs)."""
    checks: dict[int, set[int]] = {}
    for dst, bits in queue.items():
        node = nodes.get(dst)
        if node is None or node.kind != "method":
            continue
        edges: Sequence[EdgeIn] = incoming.get(dst, ())
        if graph.aliases(node):
            edges = graph.callers_of(node, incoming)
        constructed = node.name in CONSTRUCTORS or is_special(node.name)
        if not (edges or constructed) or not bits & window.open_at(levels.get(dst, state[dst][0]) + 1):
            continue  # most nodes of a level: no callers
        if constructed:
            edges = [*edges, *graph.dispatch.constructed_via(node)]
        if not edges:
            continue
        demoted = node.language == "python" and node.name in _BUILTIN_METHODS
        floor = 0.0 if dst in start_set else TEST_EDGE_MIN_CONFIDENCE
        scopes = {
            e.src
            for e in edges
            if _guessed(e, demoted, floor)
            and (e.src not in state or bits & ~state[e.src][2])
        }
        if scopes:
            checks[dst] = scopes
    if checks:
        graph.prefetch_receiver_checks(checks)


def _guessed(e: EdgeIn, demoted: bool, floor: float) -> bool:
    """Whether the walk follows an edge only once the receiver check passes: an ``x.m()`` matched by name that
    is weak among many candidates, or whose m is also a built-in type's method (``demoted``), unless every
    candidate is a method of one class family (resolve.FAMILY_CONFIDENCE: mistletoe's ``token_type.read(lines)``
    over its token classes). A call on a receiver named after the class (resolve: ``receiver-name``) is followed
    unless m is also a built-in type's method (``self._cache.get(k)`` is more often a dict's than an LRUCache's)."""
    if e.resolution == "receiver-name":
        return demoted or e.confidence < floor
    if e.resolution != "name-match":
        return False
    family = e.candidates > 1 and e.confidence >= FAMILY_CONFIDENCE
    return (demoted and not family) or e.confidence < floor


class _DepthWindow:
    """Per changed symbol, the depth of its nearest test; the walk stops looking for its tests
    :data:`TEST_DEPTH_WINDOW` edges beyond it."""

    def __init__(self) -> None:
        self.first: dict[int, int] = {}  # source bit → depth of its nearest test
        self.seen = 0  # sources with a test
        self._open: dict[int, int] = {}  # depth → mask of the sources that are no longer open there

    def found(self, sources: int, depth: int) -> None:
        """Tests of ``sources`` were found at ``depth``."""
        new = sources & ~self.seen
        if not new:
            return
        self.seen |= new
        while new:
            low = new & -new
            self.first[low] = depth
            new ^= low
        self._open.clear()

    def open_at(self, depth: int) -> int:
        """A mask that clears the sources whose window closed before ``depth``."""
        if depth not in self._open:
            closed = 0
            for bit, first in self.first.items():
                if depth > first + TEST_DEPTH_WINDOW:
                    closed |= bit
            self._open[depth] = ~closed
        return self._open[depth]


def _add_tests(
    graph: Graph, hits: dict[str, TestHit], tests: Iterable[Node], depth: int, reason: str, sources: int
) -> None:
    """Each test, and the same test again in the test subclasses that inherit it."""
    tests = list(tests)
    graph.prefetch_closure(
        {t.parent_id for t in tests if t.kind == "method" and t.parent_id is not None and t.name.startswith("test")},
        "subclasses",
    )
    for t in tests:
        add_hit(hits, t, t.qualname, depth, reason, sources)
        for sub, qual in graph.collection.inherited_tests(t):
            add_hit(hits, sub, qual, depth, reason, sources)


def add_hit(hits: dict[str, TestHit], node: Node, qualname: str, depth: int, reason: str, sources: int) -> None:
    key = f"{node.path}::{qualname}"
    old = hits.get(key)
    if old is None:
        hits[key] = TestHit(node, qualname, depth, reason, sources)
    else:
        if depth < old.depth:
            old.depth, old.reason = depth, reason
        old.sources |= sources


def file_test(path: str) -> Node:
    """A test file that is not Python (pytest runs every test it collects from it), as a node."""
    return Node(0, 0, path, "", "", posixpath.basename(path), "test", 1, 1, None, 1, 1, "[]", "[]", "")


def _is_autouse(node: Node) -> bool:
    if "fixture" not in node.decorators_json:  # most nodes: no need to decode
        return False
    return node.kind in FUNCTION_KINDS and any(
        d.split("(", 1)[0].endswith("fixture") and "autouse=True" in d.replace(" ", "") for d in node.decorators
    )


def _autouse_scope(graph: Graph, fixture: Node) -> list[Node]:
    """The tests an autouse fixture runs for: its class, its module, or below its conftest.py."""
    parent = graph.nodes([fixture.parent_id]).get(fixture.parent_id) if fixture.parent_id else None
    if parent is not None and parent.kind in CLASS_KINDS:
        return graph.collection.tests_under(parent)
    return _module_tests(graph, fixture.path)


def _module_tests(graph: Graph, path: str) -> list[Node]:
    """The tests a test module's code affects: its own, or every test below a conftest.py."""
    if not is_conftest(path):
        return graph.collection.tests_in_files([path])
    directory = posixpath.dirname(path)
    prefix = directory + "/" if directory else ""
    paths = [
        r[0]
        for r in graph.conn.execute(
            "SELECT path FROM files WHERE is_test=1 AND path LIKE ? ESCAPE '\\'", (escape_like(prefix) + "%",)
        )
    ]
    return graph.collection.tests_in_files(paths)


def nodeid(path: str, qualname: str, language: str) -> str:
    """The pytest node id of a Python test (``tests/test_x.py::TestA::test_b``); the file for others."""
    if language != "python":
        return path
    return f"{path}::{first_name(qualname).replace('.', '::')}"
