"""Render a :class:`~crg_review.review.Review`: jinja2 only here, over the packaged ``templates/``.

``text`` and ``markdown`` come from templates (``diff.txt.j2``, ``diff.md.j2``) that a team can override
with ``--template-dir`` (or ``template-dir`` in the configuration): a file of the same name there wins.
``json`` is ``Review.to_json()``; ``sarif`` is SARIF 2.1.0 built as data (a template cannot guarantee
valid JSON). Markdown escapes every name it prints, so hostile file or symbol names render inert.
"""

from __future__ import annotations

import json
import re
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .errors import ConfigError
from .review import Review

if TYPE_CHECKING:
    from jinja2 import Environment

__all__ = ["FORMATS", "MARKDOWN_LIMIT", "TEXT_TESTS", "md_escape", "render", "review_json", "sarif"]

FORMATS = ("text", "markdown", "json", "sarif")
#: GitHub refuses comments of 65,536 characters or more; stay well below
MARKDOWN_LIMIT = 60_000
#: how many related tests the terminal review lists by default (``--max-tests``); `crg-review tests` prints them all
TEXT_TESTS = 100
#: longest name a rendered row shows (longer ones are cut with an ellipsis)
NAME_LIMIT = 200

_TEMPLATES = {"text": "diff.txt.j2", "markdown": "diff.md.j2"}
_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note"}

# characters markdown, HTML or GitHub's mention / reference / emoji filters would interpret
_MD_ENTITIES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
    "`": "&#96;",
    "*": "&#42;",
    "_": "&#95;",
    "[": "&#91;",
    "]": "&#93;",
    "(": "&#40;",
    ")": "&#41;",
    "~": "&#126;",
    "|": "&#124;",
    "\\": "&#92;",
    ":": "&#58;",
    "!": "&#33;",
    "=": "&#61;",
    "+": "&#43;",
    "-": "&#45;",
    "{": "&#123;",
    "}": "&#125;",
    "$": "&#36;",
    # a zero-width joiner after @ and # keeps GitHub from linking @mentions and #references, which it
    # finds in the rendered text (where entities are already decoded)
    "@": "&#64;&#8205;",
    "#": "&#35;&#8205;",
}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _cut(value: Any, limit: int = NAME_LIMIT) -> str:
    text = _CONTROL.sub("", str(value)).replace("\n", " ").replace("\r", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def md_escape(value: Any, limit: int = NAME_LIMIT) -> str:
    """Text that GitHub markdown shows literally: no HTML, markdown, code spans, mentions or references."""
    return "".join(_MD_ENTITIES.get(ch, ch) for ch in _cut(value, limit))


def _term(value: Any, limit: int = NAME_LIMIT) -> str:
    """A name safe for a terminal: control characters and bidi overrides removed."""
    return _cut(value, limit)


_ANSI = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}


def _environment(template_dir: str | None, *, markdown: bool, color: bool) -> Environment:
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

    loaders = []
    if template_dir:
        if not Path(template_dir).is_dir():
            raise ConfigError(f"template directory {template_dir} does not exist (check --template-dir)")
        loaders.append(FileSystemLoader(template_dir))
    loaders.append(FileSystemLoader(str(packaged_templates())))
    env = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=False,  # markdown escapes explicitly with |md (HTML escaping alone leaves @, ` and _ live)
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
    )

    def paint(text: Any, *styles: str) -> str:
        if not color or not styles:
            return str(text)
        codes = ";".join(_ANSI[s] for s in styles if s in _ANSI)
        return f"\x1b[{codes}m{text}\x1b[0m"

    env.filters["md"] = md_escape
    env.filters["t"] = _term
    env.filters["paint"] = paint
    env.filters["url"] = lambda v: quote(str(v), safe="/")
    env.globals["markdown"] = markdown
    return env


def packaged_templates() -> Path:
    """The directory of the shipped templates (``crg_review.templates`` in a wheel; ``templates/`` in a checkout)."""
    from importlib.util import find_spec

    try:
        spec = find_spec("crg_review.templates")
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if (Path(location) / "diff.md.j2").is_file():
            return Path(location)
    return Path(__file__).resolve().parent.parent / "templates"


def _blob_url(review: Review, path: str, line: int) -> str | None:
    if not review.web_url or not review.head_commit:
        return None
    return f"{review.web_url}/blob/{review.head_commit}/{quote(path, safe='/')}#L{max(line, 1)}"


def _context(review: Review, limits: dict[str, int]) -> dict[str, Any]:
    rules = _rules()
    return {
        "review": review,
        "changed": review.changed[: limits["changed"]],
        "impacted": review.impacted[: limits["impacted"]],
        "tests": review.tests[: limits["tests"]],
        "findings": review.findings[: limits["findings"]],
        "omitted": {
            k: max(0, len(getattr(review, k)) - limits[k]) for k in ("changed", "impacted", "tests", "findings")
        },
        "cut_note": limits.get("cut", 0),
        "rules": rules,
        "link": lambda path, line: _blob_url(review, path, line),
        "short": (review.head or "")[:12],
        "base_short": (review.base or "")[:12],
    }


def _rules() -> dict[str, tuple[str, str, str]]:
    from .findings import RULES

    return RULES


def render(
    review: Review,
    fmt: str,
    *,
    template_dir: str | None = None,
    color: bool = False,
    limit: int = MARKDOWN_LIMIT,
    max_tests: int | None = None,
) -> str:
    """The review in ``fmt`` (text | markdown | json | sarif); ``max_tests`` caps the tests the text lists
    (the rest counted), for a terminal: a change to a widely used function relates thousands of them."""
    if fmt == "json":
        return review_json(review.to_json()) + "\n"
    if fmt == "sarif":
        return json.dumps(sarif(review), indent=2) + "\n"
    if fmt not in _TEMPLATES:
        raise ConfigError(f"unknown format '{fmt}' (choose one of {', '.join(FORMATS)})")
    markdown = fmt == "markdown"
    env = _environment(template_dir, markdown=markdown, color=color and not markdown)
    template = env.get_template(_TEMPLATES[fmt])
    full = {k: len(getattr(review, k)) for k in ("changed", "impacted", "tests", "findings")}
    limits = dict(full)
    if not markdown:
        if max_tests is not None:
            limits["tests"] = min(limits["tests"], max(0, max_tests))
        return template.render(**_context(review, limits))
    # shrink the longest lists until the comment fits, then say what was left out
    for _ in range(40):
        out = template.render(**_context(review, limits))
        if len(out) < limit:
            return out
        if not any(limits.values()):
            break
        biggest = max(limits, key=lambda k: limits[k])
        limits[biggest] = limits[biggest] // 2
    note = "\n\n*(crg-review: the review was too long for a comment; run `crg-review diff` locally for all of it.)*\n"
    return out[: limit - len(note) - 1] + note


_SCALARS = frozenset((str, int, float, bool, type(None)))
#: the text between two records of a list at the top level of ``json.dumps(..., indent=2)``: C-encoded
#: with this item separator, a flat record already has the line breaks and indentation of its fields
_FIELD_SEPARATOR = ",\n      "


def _flat_records(value: Any) -> bool:
    """A non-empty list of non-empty dicts of scalars by string keys (type checks at C speed: ``map``, ``set``)."""
    return (
        type(value) is list
        and bool(value)
        and set(map(type, value)) == {dict}
        and all(value)
        and set(map(type, chain.from_iterable(value))) == {str}
        and set(map(type, chain.from_iterable(map(dict.values, value)))) <= _SCALARS
    )


def review_json(data: dict[str, Any]) -> str:
    """``json.dumps(data, indent=2)``, the same text, faster: with an indent the json module encodes in
    Python, a generator call per value (a big django review lists 13,000 tests: a tenth of a second). The
    top-level lists of flat records (fields all scalars) go through the C encoder instead, in one call each:
    its item separator carries the indentation of the fields, and the records are then told apart by
    ``},\n      {``, which no scalar can contain (a string's line breaks are escaped)."""
    flat = {k for k, v in data.items() if type(k) is str and _flat_records(v)}
    if not flat:
        return json.dumps(data, indent=2)
    text = json.dumps({k: [] if k in flat else v for k, v in data.items()}, indent=2)
    # no cycle check: the records hold scalars only (it halves the time: a dict of ids per container)
    encoder = json.JSONEncoder(separators=(_FIELD_SEPARATOR, ": "), check_circular=False)
    for k in flat:
        records = encoder.encode(data[k])  # [{"a": 1,\n      "b": 2},\n      {"a": ...}]
        body = records[2:-2].replace("}" + _FIELD_SEPARATOR + "{", "\n    },\n    {\n      ")
        key = json.dumps(k)
        text = text.replace(f"\n  {key}: []", f"\n  {key}: [\n    {{\n      {body}\n    }}\n  ]", 1)
    return text


def sarif(review: Review) -> dict[str, Any]:
    """SARIF 2.1.0: one run, the rules as ``tool.driver.rules``, every finding a result."""
    from . import __version__
    from .findings import RULES

    rule_ids = sorted(RULES)
    results = []
    for f in review.findings:
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "level": _SARIF_LEVEL.get(f.severity, "note"),
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": quote(f.file, safe="/"), "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": max(f.line, 1)},
                    }
                }
            ],
        }
        if f.rule in RULES:
            result["ruleIndex"] = rule_ids.index(f.rule)
        results.append(result)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "crg-review",
                "version": __version__,
                "informationUri": "https://pypi.org/project/crg-review/",
                "rules": [
                    {
                        "id": rid,
                        "name": RULES[rid][0],
                        "shortDescription": {"text": RULES[rid][2]},
                        "defaultConfiguration": {"level": _SARIF_LEVEL[RULES[rid][1]]},
                    }
                    for rid in rule_ids
                ],
            }
        },
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    if review.head_commit:
        run["versionControlProvenance"] = (
            [{"repositoryUri": review.web_url or "", "revisionId": review.head_commit}] if review.web_url else []
        )
        if not run["versionControlProvenance"]:
            del run["versionControlProvenance"]
    return {"$schema": _SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
