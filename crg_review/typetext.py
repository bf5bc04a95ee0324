"""What the text of a type annotation or an expression names: the classes of ``Optional[Foo]``, ``A | B``,
``type[Foo]``, the items of ``Iterator[Foo]``, the calls of ``make(x).bump().copy()``.

Pure functions of a string (no index, no SQL): the resolver reads these texts from the facts the parser stores.
"""

from __future__ import annotations

__all__ = [
    "call_chain",
    "class_object_name",
    "class_object_names",
    "element_name",
    "split_top",
    "strip_generics",
    "type_head",
    "type_name",
    "type_names",
    "union_members",
    "unwrap",
]


def type_name(text: str) -> str:
    """The class named by an annotation or constructor text: ``Optional[Foo]`` → ``Foo``,
    ``Foo | None`` → ``Foo``, ``"Foo"`` → ``Foo``, ``mod.Cls`` → ``mod.Cls``."""
    head, args = unwrap(text)
    if args and head.rpartition(".")[2] in ("type", "Type"):
        head, _ = unwrap(args)
    text = strip_generics(head)
    return text if all(p.isidentifier() for p in text.split(".")) else ""


def union_members(text: str) -> list[str]:
    """The members of a union annotation, nested unions flattened (``File | Union[A, B] | None`` → File, A, B),
    ``None`` left out; else the annotation itself."""
    out: list[str] = []
    for part in split_top(text.strip().strip("'\"").strip(), "|"):
        part = part.strip("'\"").strip()
        if part in ("None", ""):
            continue
        head, bracket, rest = part.partition("[")
        if bracket and rest.endswith("]") and head.strip().rpartition(".")[2] in ("Union", "Optional"):
            out.extend(m for a in split_top(rest[:-1], ",") for m in union_members(a))
        else:
            out.append(part)
    return out


def type_names(text: str) -> list[str]:
    """Every class a union annotation names (``File | Field | None`` → File, Field; ``Union[A, B]`` → A, B),
    else the one :func:`type_name` gives."""
    return list(dict.fromkeys(name for part in union_members(text) if (name := type_name(part))))


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets and parentheses."""
    parts: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts]


def unwrap(text: str) -> tuple[str, str]:
    """An annotation without quotes, ``Optional``/``Union``/``| None`` around it: (generic head, arguments)
    of what remains, ``("Foo", "")`` for a plain name."""
    text = text.strip().strip("'\"").strip()
    while True:
        alternatives = [p for p in split_top(text, "|") if p not in ("None", "")]
        text = alternatives[0].strip("'\"").strip() if alternatives else ""
        head, bracket, rest = text.partition("[")
        if not bracket or not rest.endswith("]"):
            return text, ""
        head = head.strip()
        args = rest[:-1]
        if head.rpartition(".")[2] in ("Optional", "Union", "Annotated", "Final", "ClassVar"):
            text = split_top(args, ",")[0]
            continue
        return head, args


#: generic types whose first argument is the type of their items
_CONTAINERS = frozenset(
    (
        "Iterator", "Iterable", "Generator", "AsyncIterator", "AsyncIterable", "AsyncGenerator", "Reversible",
        "list", "List", "Sequence", "MutableSequence", "Collection", "Container", "set", "Set", "MutableSet",
        "frozenset", "FrozenSet", "AbstractSet", "deque", "Deque", "KeysView", "ValuesView", "tuple", "Tuple",
    )
)


def element_name(annotation: str) -> str:
    """The item type an iterable annotation names: ``Iterator[Foo]``, ``t.List["Foo"]``, ``tuple[Foo, ...]``
    → ``Foo`` ('' when it names none)."""
    head, args = unwrap(annotation)
    if not args or head.rpartition(".")[2] not in _CONTAINERS:
        return ""
    return type_name(split_top(args, ",")[0])


def type_head(annotation: str) -> str:
    """The last name of an annotation's head (``typing.Callable[[int], None]`` → ``Callable``)."""
    return annotation.strip("'\"").partition("[")[0].strip().rpartition(".")[2]


def class_object_name(annotation: str) -> str:
    """The class a ``type[Foo]`` / ``Type[Foo]`` annotation names ('' for other annotations)."""
    head, args = unwrap(annotation)
    if not args or head.rpartition(".")[2] not in ("type", "Type"):
        return ""
    return type_name(args)


def class_object_names(annotation: str) -> list[str]:
    """The classes a ``type[Foo]`` annotation names, or the ``type[...]`` members of a union (``Field |
    type[Field]``, ``Union[Field, Type[Field]]``)."""
    members = union_members(annotation)
    if len(members) == 1:  # (`Type[A] | Type[B]` is no `Type[...]` around `A] | Type[B`)
        found = class_object_name(members[0])
        return [found] if found else []
    return list(dict.fromkeys(name for part in members if (name := class_object_name(part))))


def call_chain(text: str) -> tuple[str, list[str]] | None:
    """``pkg.make(a, f(b))`` → ``("pkg.make", [])``; ``Version.parse(v).bump_major().copy()`` → ``("Version.parse",
    ["bump_major", "copy"])``: a call, then the methods called in turn on what it returns; None when ``text`` is not
    such a chain of calls."""
    head, paren, _ = text.partition("(")
    if not paren or not text.endswith(")") or not head or not all(p.isidentifier() for p in head.split(".")):
        return None
    methods: list[str] = []
    i = len(head)
    while True:
        depth = 0
        for j in range(i, len(text)):  # the argument list opening at i
            depth += text[j] == "("
            depth -= text[j] == ")"
            if depth == 0:
                break
        else:
            return None
        if j == len(text) - 1:
            return head, methods
        name, paren, _ = text[j + 1 :].partition("(")
        if text[j + 1] != "." or not paren or not name[1:].isidentifier():
            return None
        methods.append(name[1:])
        i = j + 1 + len(name)


def strip_generics(text: str) -> str:
    """A type's name without its generic arguments or call: ``Foo[int]`` → ``Foo``, ``Foo<T>`` → ``Foo``."""
    for ch in "[<(":
        text = text.split(ch, 1)[0]
    return text.strip()
