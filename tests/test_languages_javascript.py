"""JavaScript extraction: classes, functions, CommonJS and ES imports, Jest tests, JSX, syntax errors."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""import React from 'react';
import { render as draw, useState } from '../lib/dom';
import * as path from './path';
import './styles.css';
const fs = require('fs');
const { join, resolve: res } = require('./util');
export { Button, Link as A } from './widgets';
export * from './shared';

/**
 * A cart of items.
 * @class
 */
export class Cart extends Store.Base {
  #items = [];

  /** Add one item. */
  add(item, qty = 1, ...tags) {
    this.#items.push(item);
    this.emit('add', item);
    return new Receipt(item, qty);
  }

  static empty() {
    return new Cart();
  }

  onClick = (event) => {
    this.add(event.target);
  };
}

function total(cart, { discount }) {
  function round(x) {
    return Math.round(x);
  }
  return round(cart.items.map(price).reduce(sum, 0));
}

export const format = async (value) => value.toFixed(2);

Cart.prototype.legacy = function (a) {
  return total(a);
};

module.exports.helper = (x) => x;

const App = () => <Layout.Main><CartView cart={cart} /><div /></Layout.Main>;
"""


def test_definitions() -> None:
    symbols = {s.qualname: s for s in parse(SOURCE, "src/cart.js", "javascript").symbols}

    assert symbols["<module>"].name == "src/cart"
    cart = symbols["Cart"]
    assert (cart.kind, cart.start_line, cart.end_line) == ("class", 14, 31)
    assert cart.signature == "export class Cart extends Store.Base"
    assert cart.docstring == "A cart of items. @class"
    add = symbols["Cart.add"]
    assert (add.kind, add.parent, add.start_line, add.end_line) == ("method", "Cart", 18, 22)
    assert add.signature == "add(item, qty = 1, ...tags)"
    assert add.docstring == "Add one item."
    assert add.params == ("item", "qty=", "*tags")
    assert symbols["Cart.empty"].signature == "static empty()"
    assert symbols["Cart.onClick"].kind == "method"
    assert symbols["Cart.onClick"].params == ("event",)
    assert symbols["total"].params == ("cart", "{ discount }")
    assert symbols["total.round"].kind == "function"
    fmt = symbols["format"]
    assert (fmt.kind, fmt.signature, fmt.params) == ("function", "export const format = async (value) =>", ("value",))
    assert symbols["Cart.legacy"].kind == "function"  # Cart.prototype.legacy = function
    assert symbols["helper"].kind == "function"  # module.exports.helper = …
    assert symbols["App"].start_line == 48


def test_calls() -> None:
    result = parse(SOURCE, "src/cart.js", "javascript")
    calls = [r for r in result.references if r.kind == "call"]

    assert Reference("call", "push", "this.#items", 19, "Cart.add", 1, ()) in calls
    assert Reference("call", "emit", "this", 20, "Cart.add", 2, ()) in calls
    assert Reference("call", "Receipt", "", 21, "Cart.add", 2, ()) in calls  # new Receipt(…)
    assert Reference("call", "Cart", "", 25, "Cart.empty", 0, ()) in calls
    assert Reference("call", "add", "this", 29, "Cart.onClick", 1, ()) in calls
    assert Reference("call", "round", "Math", 35, "total.round", 1, ()) in calls
    assert Reference("call", "reduce", "cart.items.map(price)", 37, "total", 2, ()) in calls
    assert Reference("call", "total", "", 43, "Cart.legacy", 1, ()) in calls
    # JSX components are calls; HTML tags are not
    jsx = [(r.name, r.receiver) for r in calls if r.line == 48]
    assert jsx == [("Main", "Layout"), ("CartView", "")]
    refs = {(r.name, r.scope) for r in result.references if r.kind == "ref"}
    assert {("price", "total"), ("sum", "total")} <= refs


def test_imports_and_reexports() -> None:
    result = parse(SOURCE, "src/cart.js", "javascript")

    assert result.imports == [
        Import("react", "default", "React", 0, 1),
        Import("../lib/dom", "render", "draw", 0, 2),
        Import("../lib/dom", "useState", None, 0, 2),
        Import("./path", "*", "path", 0, 3),
        Import("./styles.css", None, None, 0, 4),
        Import("fs", None, "fs", 0, 5),
        Import("./util", "join", None, 0, 6),
        Import("./util", "resolve", "res", 0, 6),
        Import("./widgets", "Button", None, 0, 7),
        Import("./widgets", "Link", "A", 0, 7),
        Import("./shared", "*", None, 0, 8),
    ]


def test_bases() -> None:
    source = b"class A extends B {}\nconst C = class extends mixin(A, D) {};\n"
    assert parse(source, "a.js", "javascript").bases == [Base("A", "B", 1), Base("C", "mixin(A, D)", 2)]


def test_jest_blocks_are_test_symbols_owning_their_calls() -> None:
    source = b"""import { total } from '../cart';

describe('total', () => {
  beforeEach(() => setup());

  it('sums prices', async () => {
    expect(total(cart)).toBe(3);
  });

  describe.each([1, 2])('table', () => {});

  it.only(`handles ${'empty'} carts`, function () {
    expect(total([])).toBe(0);
  });
});
"""
    result = parse(source, "src/__tests__/cart.js", "javascript")
    tests = {s.qualname: s for s in result.symbols if s.kind == "test"}

    assert list(tests) == [
        'describe "total"',
        'describe "total" > it "sums prices"',
        'describe "total" > it "handles ${\'empty\'} carts"',
    ]
    sums = tests['describe "total" > it "sums prices"']
    assert (sums.name, sums.start_line, sums.end_line, sums.is_test) == ("sums prices", 6, 8, True)
    assert sums.parent == 'describe "total"'
    assert sums.signature == "it('sums prices', async () =>"
    assert result.symbols[0].is_test is True
    assert Reference("call", "total", "", 7, 'describe "total" > it "sums prices"', 1, ()) in result.references
    assert Reference("call", "setup", "", 4, 'describe "total"', 0, ()) in result.references


def test_test_files() -> None:
    source = b"it('x', () => {});\n"
    assert parse(source, "src/cart.test.js", "javascript").symbols[0].is_test is True
    assert parse(source, "src/cart.spec.jsx", "javascript").symbols[0].is_test is True
    assert parse(source, "src/__tests__/cart.js", "javascript").symbols[0].is_test is True
    assert parse(source, "src/cart.js", "javascript").symbols[0].is_test is False
    assert parse(source, "src/contest.js", "javascript").symbols[0].is_test is False


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""function ok(a) { return a; }

function broken( {
  return 1;

class Later {
  run() { ok(1); }
}
"""
    result = parse(source, "x.js", "javascript")

    assert result.has_errors is True
    qualnames = {s.qualname for s in result.symbols}
    assert "ok" in qualnames
    assert any(r.name == "ok" and r.kind == "call" for r in result.references)


def test_type_facts_and_local_names() -> None:
    source = (
        b"function checkout(cart, qty) {\n  const receipt = new Receipt(cart);\n  submit(cart, format, receipt);\n}\n"
    )
    refs = parse(source, "a.js", "javascript").references

    assert Reference("assign", "receipt", "Receipt", 2, "checkout", None, ()) in refs
    # parameters and typed locals name no definition: only `format` is kept as a value use
    assert [r.name for r in refs if r.kind == "ref"] == ["format"]
