"""The review: what a change touches, what depends on it, the tests that reach it, and findings.

These records are the contract between impact analysis (``impact.py``), search (related code), the
renderers (``render.py`` + ``templates/``) and the publishers (hook, GitHub). ``Review.to_json()`` is
the documented ``crg-review/diff/1`` JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["SCHEMA", "ChangedSymbol", "Finding", "Impacted", "Related", "RelatedTest", "Review", "record_json"]

SCHEMA = "crg-review/diff/1"


@dataclass(frozen=True)
class ChangedSymbol:
    """A symbol the diff touches. ``change``: added | modified | removed | signature."""

    file: str
    qualname: str
    name: str
    kind: str
    start_line: int
    end_line: int
    change: str
    old_signature: str = ""
    new_signature: str = ""


@dataclass(frozen=True)
class Impacted:
    """A dependant of a changed symbol: ``via`` is the path of qualnames back to the changed one."""

    file: str
    qualname: str
    kind: str
    line: int
    depth: int
    via: tuple[str, ...]
    edge: str
    confidence: float


@dataclass(frozen=True)
class RelatedTest:
    """A test that reaches a changed symbol (``reason``: graph | fixture | setup | convention | config)."""

    file: str
    qualname: str
    nodeid: str
    depth: int
    reason: str


@dataclass(frozen=True)
class Finding:
    """A deterministic rule's result. ``severity``: error | warning | note."""

    rule: str
    severity: str
    file: str
    line: int
    message: str


@dataclass(frozen=True)
class Related:
    """Code similar to a changed symbol that is neither its caller nor its callee."""

    file: str
    qualname: str
    score: float
    for_: str  # the changed symbol's qualname (``for`` in JSON)
    reason: str = ""


@dataclass
class Review:
    """Everything one review says."""

    base: str | None
    head: str
    changed: list[ChangedSymbol] = field(default_factory=list)
    impacted: list[Impacted] = field(default_factory=list)
    tests: list[RelatedTest] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    related: list[Related] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    select_all: str | None = None  # why every test is selected (a config file changed), else None
    web_url: str | None = None  # https://github.com/owner/repo when known, for links
    head_commit: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``crg-review/diff/1`` object."""
        return {
            "schema": SCHEMA,
            "base": self.base,
            "head": self.head,
            "changed": [record_json(c) for c in self.changed],
            "impacted": [record_json(i) for i in self.impacted],
            "tests": [record_json(t) for t in self.tests],
            "findings": [record_json(f) for f in self.findings],
            "related": [record_json(r) for r in self.related],
            "select_all": self.select_all,
            "stats": self.stats,
        }


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def record_json(record: Any) -> dict[str, Any]:
    """One record as a JSON object: its fields in order, ``via`` as a list, ``for_`` as ``for``. (Not
    ``dataclasses.asdict``: its deep copy of every value costs more than the whole walk of a big review.)"""
    cls = type(record)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(record))
    d = dict(record.__dict__)  # the dataclass's __init__ sets the fields in order: a copy at C speed
    if len(d) != len(names):  # an attribute set after __init__, or a field without one
        d = {name: getattr(record, name) for name in names}
    if "via" in d:
        d["via"] = list(d["via"])
    if "for_" in d:
        d["for"] = d.pop("for_")
    return d
