"""C extraction: functions through declarator chains, structs and typedefs, includes, test files."""

from __future__ import annotations

from crg_review.model import Import, Reference
from crg_review.parse import parse

SOURCE = b"""#include "list.h"
#include <stdlib.h>

/*
 * A singly linked list node.
 */
struct node {
    struct node *next;
    int value;
};

// A point.
// In two dimensions.
typedef struct {
    int x, y;
} point;

enum color { RED, GREEN };

/** Push a value; returns the new head. */
static struct node *push(struct node *head, int value) {
    struct node *n = malloc(sizeof *n);
    n->next = head;
    list_check(n);
    return n;
}

char **names(void) {
    qsort(table, count, sizeof(char *), compare_names);
    return table;
}

int sum(int count, ...) {
    return ops.add(count) + ops->total();
}

void on(int (*callback)(int), int) {}

int prototype_only(int x);
"""


def test_definitions() -> None:
    result = parse(SOURCE, "src/list.c", "c")
    symbols = {s.qualname: s for s in result.symbols}

    assert set(symbols) == {"<module>", "node", "point", "color", "push", "names", "sum", "on"}  # no prototypes
    assert symbols["<module>"].name == "src/list.c"
    node = symbols["node"]
    assert (node.kind, node.start_line, node.end_line) == ("struct", 7, 10)
    assert (node.signature, node.docstring) == ("struct node", "A singly linked list node.")
    point = symbols["point"]
    assert (point.kind, point.signature, point.docstring) == (
        "struct",
        "typedef struct point",
        "A point. In two dimensions.",
    )
    assert symbols["color"].kind == "enum"
    push = symbols["push"]
    assert (push.kind, push.start_line, push.end_line) == ("function", 21, 26)
    assert push.signature == "static struct node *push(struct node *head, int value)"
    assert push.docstring == "Push a value; returns the new head."
    assert push.params == ("head", "value")
    assert symbols["names"].params == ()  # (void)
    assert symbols["sum"].params == ("count", "*")
    assert symbols["on"].params == ("callback", "_")


def test_calls_and_includes() -> None:
    result = parse(SOURCE, "src/list.c", "c")
    refs = result.references

    assert Reference("call", "malloc", "", 22, "push", 1, ()) in refs
    assert Reference("call", "list_check", "", 24, "push", 1, ()) in refs
    assert Reference("call", "qsort", "", 29, "names", 4, ()) in refs
    assert Reference("ref", "compare_names", "", 29, "names", None, ()) in refs  # a callback
    assert Reference("call", "add", "ops", 34, "sum", 1, ()) in refs
    assert Reference("call", "total", "ops", 34, "sum", 0, ()) in refs  # ops->total()
    assert result.imports == [Import("list.h", None, None, 0, 1), Import("stdlib.h", None, None, 0, 2)]


def test_test_files_and_test_functions() -> None:
    source = b"void test_push(void) { push(0, 1); }\nstatic void helper(void) {}\n"
    for path in ("tests/list.c", "test/unit/list.c", "src/test_list.c", "src/list_test.c"):
        flags = {s.qualname: s.is_test for s in parse(source, path, "c").symbols}
        assert flags == {"<module>": True, "test_push": True, "helper": False}, path
    flags = {s.qualname: s.is_test for s in parse(source, "src/list.c", "c").symbols}
    assert flags == {"<module>": False, "test_push": False, "helper": False}


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""int good(int a) { return helper(a); }

int broken(int a {
    return 0;
}
"""
    result = parse(source, "x.c", "c")

    assert result.has_errors is True
    assert "good" in {s.qualname for s in result.symbols}
    assert Reference("call", "helper", "", 1, "good", 1, ()) in result.references
