"""Recall and precision of crg-review's call edges against a traced test run.

Reads the JSON of trace_callgraph.py, commits the same sdist into a fresh git repo, runs
``crg-review index --full`` and ``crg-review dump --format json`` on it, and compares the
``call`` edges:

- recall: traced project->project edges that crg-review has / traced edges;
- precision: crg-review call edges whose both ends ran during the tests and that were traced
  (directly or through library frames) / crg-review call edges whose both ends ran.

Each is given for all edges, per resolution method, and for confidence >= --min-confidence;
then a sample of missed edges (with their call-site kinds) and of untraced ones.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import CACHE_DIR, fetch_sdist, make_git_repo
from trace_callgraph import Edge, is_test_file

#: call sites a static resolver can be expected to see as a call
EXPLICIT_SITES = {"CALL", "CALL_FUNCTION_EX"}
#: crg-review names the 2nd, 3rd... definition of a name in one scope ``f#2``, ``f#3`` (overloads,
#: conditional defs); at run time there is one ``f``, so the suffix is dropped before comparing
REDEFINITION = re.compile(r"#\d+")
#: what runs when a class is called
CONSTRUCTORS = ("__init__", "__new__")


class OurEdge(NamedTuple):
    edge: Edge
    resolution: str
    confidence: float
    line: int | None  # the call site, when the dump gives it


class Unresolved(NamedTuple):
    name: str
    receiver: str
    reason: str


def run_crg(crg: Sequence[str], args: Sequence[str], repo: Path) -> str:
    """Run crg-review with args in repo; return stdout or stop with its stderr."""
    done = subprocess.run([*crg, *args], check=False, cwd=repo, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join([*crg, *args])} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def dump_graph(crg: Sequence[str], project: str, db: Path | None, tag: str = "recall") -> dict[str, Any]:
    """Index a fresh git repo of the project's sdist (``.cache/repos/NAME-VERSION-TAG``) and return
    crg-review's canonical dump."""
    name, version = project.split("==")
    repo = make_git_repo(fetch_sdist(name, version), CACHE_DIR / "repos" / f"{name}-{version}-{tag}")
    db = db or CACHE_DIR / "dbs" / f"{name}-{version}-{tag}.sqlite"
    for side in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        side.unlink(missing_ok=True)
    db.parent.mkdir(parents=True, exist_ok=True)
    loc = ["--repo", str(repo), "--db", str(db)]
    run_crg(crg, ["index", "--full", *loc], repo)
    dump: dict[str, Any] = json.loads(run_crg(crg, ["dump", "--format", "json", *loc], repo))
    return dump


def call_edges(dump: dict[str, Any]) -> list[OurEdge]:
    """crg-review's edges of kind ``call`` (columns after the seventh are optional: candidates, line)."""
    return [
        OurEdge(Edge(e[0], plain(e[1]), e[2], plain(e[3])), e[5], float(e[6]), e[8] if len(e) > 8 else None)
        for e in dump["edges"]
        if e[4] == "call"
    ]


def plain(qualname: str) -> str:
    """A dump qualname without crg-review's ``#N`` redefinition suffixes."""
    return REDEFINITION.sub("", qualname)


def constructor_edges(dump: dict[str, Any], ours: list[OurEdge]) -> set[Edge]:
    """For each call edge to a class K: edges to ``__init__``/``__new__`` of K and of each class
    K inherits from (per the dump's ``inherit`` edges), since any of those may be what ran."""
    classes = {(s[0], plain(s[1])) for s in dump["symbols"] if s[2] == "class"}
    bases: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for e in dump["edges"]:
        if e[4] == "inherit":
            bases[(e[0], plain(e[1]))].add((e[2], plain(e[3])))

    def lineage(cls: tuple[str, str]) -> set[tuple[str, str]]:
        seen, todo = {cls}, [cls]
        while todo:
            for base in bases.get(todo.pop(), ()):
                if base not in seen:
                    seen.add(base)
                    todo.append(base)
        return seen

    return {
        Edge(o.edge.caller_path, o.edge.caller, path, f"{qualname}.{method}")
        for o in ours
        if (o.edge.callee_path, o.edge.callee) in classes
        for path, qualname in lineage((o.edge.callee_path, o.edge.callee))
        for method in CONSTRUCTORS
    }


def unresolved_refs(dump: dict[str, Any]) -> dict[tuple[str, int], list[Unresolved]]:
    """crg-review's unresolved references ``[path, name, receiver, line, reason]`` by (path, line)."""
    found: dict[tuple[str, int], list[Unresolved]] = defaultdict(list)
    for path, name, receiver, line, reason in dump.get("unresolved", []):
        found[(path, line)].append(Unresolved(name, receiver, reason))
    return found


class Ratio(NamedTuple):
    label: str
    part: int
    whole: int

    def __str__(self) -> str:
        share = f"{self.part / self.whole:6.1%}" if self.whole else "   n/a"
        return f"{share} ({self.part}/{self.whole})"


def recall_rows(traced: set[Edge], ours: list[OurEdge], min_conf: float, via_class: set[Edge]) -> list[Ratio]:
    """Recall overall, counting a class call as its constructor too, at min confidence, and per
    resolution method."""
    by_res: dict[str, set[Edge]] = defaultdict(set)
    for o in ours:
        by_res[o.resolution].add(o.edge)
    every = {o.edge for o in ours}
    confident = {o.edge for o in ours if o.confidence >= min_conf}
    rows = [
        Ratio("any resolution", len(traced & every), len(traced)),
        Ratio("any, class call = its __init__", len(traced & (every | via_class)), len(traced)),
        Ratio(f"confidence >= {min_conf}", len(traced & confident), len(traced)),
    ]
    rows += [Ratio(f"resolution={res}", len(traced & edges), len(traced)) for res, edges in sorted(by_res.items())]
    return rows


def both_ran(edge: Edge, ran: set[tuple[str, str]]) -> bool:
    """Whether caller and callee were both entered during the traced run."""
    return (edge.caller_path, edge.caller) in ran and (edge.callee_path, edge.callee) in ran


def precision_rows(ran: set[tuple[str, str]], seen: set[Edge], ours: list[OurEdge], min_conf: float) -> list[Ratio]:
    """Precision over our edges whose both ends ran: overall, confident, per method."""
    groups: dict[str, set[Edge]] = defaultdict(set)
    for o in ours:
        if both_ran(o.edge, ran):
            groups["any resolution"].add(o.edge)
            if o.confidence >= min_conf:
                groups[f"confidence >= {min_conf}"].add(o.edge)
            groups[f"resolution={o.resolution}"].add(o.edge)
    order = ["any resolution", f"confidence >= {min_conf}", *sorted(k for k in groups if k.startswith("resolution="))]
    return [Ratio(label, len(groups[label] & seen), len(groups[label])) for label in order]


def describe_miss(
    edge: Edge,
    sites: Iterable[str],
    lines: Iterable[int],
    ours: list[OurEdge],
    symbols: set[tuple[str, str]],
    unresolved: dict[tuple[str, int], list[Unresolved]],
) -> str:
    """One line on a missed edge: call sites and lines, missing symbols, and what crg-review has at
    those lines instead (edges from the same caller, unresolved references)."""
    notes = [
        f"no {role} symbol"
        for path, qualname, role in (
            (edge.caller_path, edge.caller, "caller"),
            (edge.callee_path, edge.callee, "callee"),
        )
        if (path, qualname) not in symbols
    ]
    lines = sorted(lines)
    for line in lines[:3]:
        there = sorted(
            {
                f"{o.edge.callee_path}::{o.edge.callee} [{o.resolution}/{o.confidence:g}]"
                for o in ours
                if o.edge[:2] == edge[:2] and o.line == line
            }
        )
        notes += [f"L{line} we have {t}" for t in there[:2]]
        notes += [
            f"L{line} unresolved {u.receiver + '.' if u.receiver else ''}{u.name}: {u.reason}"
            for u in unresolved.get((edge.caller_path, line), [])[:2]
        ]
    return (
        f"{edge.caller_path}::{edge.caller} -> {edge.callee_path}::{edge.callee}  "
        f"sites={','.join(sorted(sites))} lines={','.join(map(str, lines[:5]))}"
        + (f"\n      {'; '.join(notes)}" if notes else "")
    )


def print_section(title: str, rows: list[Ratio]) -> None:
    print(title)
    width = max(len(r.label) for r in rows)
    for r in rows:
        print(f"  {r.label.ljust(width)}  {r}")


class Trace(NamedTuple):
    """The trace_callgraph.py output, as sets."""

    project: str
    edges: set[Edge]
    sites: dict[Edge, list[str]]
    lines: dict[Edge, list[int]]
    tests: set[Edge]
    test_sites: dict[Edge, list[str]]
    seen: set[Edge]  # every traced edge: direct, from tests, from module/class bodies, indirect
    ran: set[tuple[str, str]]

    def explicit(self, edges: set[Edge], sites: dict[Edge, list[str]]) -> set[Edge]:
        """The edges seen at least once at an explicit call site."""
        return {e for e in edges if EXPLICIT_SITES.intersection(sites[e])}


def read_trace(path: Path) -> Trace:
    """Load trace_callgraph.py's JSON."""
    data = json.loads(path.read_text())
    edges = [Edge(*e) for e in data["edges"]]
    tests = [Edge(*e) for e in data["test_edges"]]
    others = {Edge(*e[:4]) for e in data["indirect_edges"]} | {Edge(*e) for e in data["scope_edges"]}
    return Trace(
        project=data["project"],
        edges=set(edges),
        sites=dict(zip(edges, data["edge_sites"])),
        lines=dict(zip(edges, data["edge_lines"])),
        tests=set(tests),
        test_sites=dict(zip(tests, data["test_edge_sites"])),
        seen=set(edges) | set(tests) | others,
        ran={(p, q) for p, q in data["ran"]},
    )


def print_missed(trace: Trace, missed: list[Edge], ours: list[OurEdge], dump: dict[str, Any], sample: int) -> None:
    """A fixed-seed sample of traced edges crg-review does not have, with what it has instead."""
    symbols = {(s[0], plain(s[1])) for s in dump["symbols"]}
    unresolved = unresolved_refs(dump)
    print(f"sample of missed edges ({min(sample, len(missed))} of {len(missed)}):")
    for edge in sorted(random.Random(0).sample(missed, min(sample, len(missed)))):
        print("  " + describe_miss(edge, trace.sites[edge], trace.lines[edge], ours, symbols, unresolved))


def print_untraced(untraced: list[Edge], ours: list[OurEdge], sample: int) -> None:
    """A fixed-seed sample of crg-review's edges between functions that ran, never traced."""
    print(
        f"sample of our edges between functions that ran, never traced ({min(sample, len(untraced))} of {len(untraced)}):"
    )
    for edge in sorted(random.Random(1).sample(untraced, min(sample, len(untraced)))):
        res = sorted({f"{o.resolution}/{o.confidence:g}" for o in ours if o.edge == edge})
        print(f"  {edge.caller_path}::{edge.caller} -> {edge.callee_path}::{edge.callee}  [{', '.join(res)}]")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--trace",
        type=Path,
        default=CACHE_DIR / "trace" / "click-8.1.7.json",
        help="output of trace_callgraph.py (default: %(default)s)",
    )
    parser.add_argument("--crg", help="crg-review command (default: this python -m crg_review)")
    parser.add_argument("--db", type=Path, help="database path (default: under benchmarks/.cache/dbs/)")
    parser.add_argument(
        "--tag",
        default="recall",
        help="names the scratch repo .cache/repos/NAME-VERSION-TAG (and the default db): sessions with"
        " different tags can run side by side (default: %(default)s)",
    )
    parser.add_argument("--dump", type=Path, help="use this saved `crg-review dump --format json` instead of indexing")
    parser.add_argument("--min-confidence", type=float, default=0.5, help="confidence cut (default: %(default)s)")
    parser.add_argument("--sample", type=int, default=20, help="missed / untraced edges to show (default: %(default)s)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the figures as JSON to OUT")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    trace = read_trace(args.trace)
    crg = shlex.split(args.crg) if args.crg else [sys.executable, "-m", "crg_review"]
    dump = json.loads(args.dump.read_text()) if args.dump else dump_graph(crg, trace.project, args.db, args.tag)
    ours_all = call_edges(dump)
    ours = [o for o in ours_all if not is_test_file(o.edge.caller_path) and not is_test_file(o.edge.callee_path)]
    ours_tests = [o for o in ours_all if is_test_file(o.edge.caller_path) and not is_test_file(o.edge.callee_path)]
    via_class = constructor_edges(dump, ours_all)
    explicit = trace.explicit(trace.edges, trace.sites)
    conf = args.min_confidence
    sections = {
        "recall": ("recall, project->project", recall_rows(trace.edges, ours, conf, via_class)),
        "recall_explicit_sites": (
            "recall, project->project at explicit call sites (CALL, CALL_FUNCTION_EX; not on a decorator line)",
            recall_rows(explicit, ours, conf, via_class),
        ),
        "recall_tests": ("recall, test->project", recall_rows(trace.tests, ours_tests, conf, via_class)[:3]),
        "recall_tests_explicit_sites": (
            "recall, test->project at explicit call sites",
            recall_rows(trace.explicit(trace.tests, trace.test_sites), ours_tests, conf, via_class)[:3],
        ),
        "precision": (
            "precision, project->project edges whose both ends ran",
            precision_rows(trace.ran, trace.seen, ours, conf),
        ),
    }
    print(
        f"{trace.project}: {len(trace.edges)} traced project->project edges ({len(explicit)} at explicit call "
        f"sites), {len(trace.tests)} test->project; crg-review: {len(ours_all)} call edges, "
        f"{len(ours)} project->project"
    )
    for title, rows in sections.values():
        print_section(title, rows)
    missed = sorted(trace.edges - ({o.edge for o in ours} | via_class))
    untraced = sorted({o.edge for o in ours if both_ran(o.edge, trace.ran)} - trace.seen)
    print_missed(trace, missed, ours, dump, args.sample)
    print_untraced(untraced, ours, args.sample)
    if args.json:
        figures: dict[str, Any] = {
            key: {r.label: [r.part, r.whole] for r in rows} for key, (_, rows) in sections.items()
        }
        figures.update(project=trace.project, missed=[list(e) for e in missed], untraced=[list(e) for e in untraced])
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
