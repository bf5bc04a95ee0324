"""Java extraction: nested types, constructors, Javadoc, imports, extends/implements, JUnit tests."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""package com.shop.cart;

import java.util.List;
import java.util.*;
import static java.util.Objects.requireNonNull;
import static org.junit.Assert.*;

/**
 * A shopping cart.
 * Holds line items.
 */
@Entity
public class Cart<T extends Item> extends AbstractCart<T> implements Serializable, Comparable<Cart<T>> {

    /** One line of the cart. */
    public static class Line {
        int qty(int base, String... codes) {
            return Math.max(base, this.min());
        }
    }

    public Cart(List<T> items) {
        this.items = requireNonNull(items);
    }

    /// Adds an item.
    @Override
    public synchronized void add(T item) throws CartException {
        super.add(item);
        validate(item);
        events.publish(new ItemAdded(item), Priority.HIGH);
        items.forEach(this::track);
    }

    abstract int size();

    interface Listener extends EventListener { void changed(Cart<?> cart); }

    enum State implements Labeled { OPEN, CLOSED; String label() { return name(); } }
}
"""


def test_definitions() -> None:
    symbols = {s.qualname: s for s in parse(SOURCE, "src/main/java/com/shop/cart/Cart.java", "java").symbols}

    assert symbols["<module>"].name == "src.main.java.com.shop.cart.Cart"
    cart = symbols["Cart"]
    assert (cart.kind, cart.start_line, cart.end_line) == ("class", 12, 40)
    assert cart.signature == (
        "public class Cart<T extends Item> extends AbstractCart<T> implements Serializable, Comparable<Cart<T>>"
    )
    assert cart.docstring == "A shopping cart. Holds line items."
    assert cart.decorators == ("Entity",)
    line = symbols["Cart.Line"]
    assert (line.kind, line.parent, line.docstring) == ("class", "Cart", "One line of the cart.")
    qty = symbols["Cart.Line.qty"]
    assert (qty.kind, qty.params, qty.signature) == ("method", ("base", "*codes"), "int qty(int base, String... codes)")
    ctor = symbols["Cart.Cart"]
    assert (ctor.kind, ctor.params, ctor.start_line) == ("method", ("items",), 22)
    add = symbols["Cart.add"]
    assert (add.start_line, add.end_line) == (27, 33)  # the annotation line included
    assert add.signature == "public synchronized void add(T item) throws CartException"
    assert add.docstring == "Adds an item."
    assert add.decorators == ("Override",)
    assert symbols["Cart.size"].signature == "abstract int size()"
    assert symbols["Cart.Listener"].kind == "interface"
    assert symbols["Cart.Listener.changed"].kind == "method"
    assert symbols["Cart.State"].kind == "enum"
    assert symbols["Cart.State.label"].parent == "Cart.State"


def test_calls() -> None:
    refs = parse(SOURCE, "Cart.java", "java").references

    assert Reference("call", "max", "Math", 18, "Cart.Line.qty", 2, ()) in refs
    assert Reference("call", "min", "this", 18, "Cart.Line.qty", 0, ()) in refs
    assert Reference("call", "requireNonNull", "", 23, "Cart.Cart", 1, ()) in refs
    assert Reference("call", "add", "super", 29, "Cart.add", 1, ()) in refs
    assert Reference("call", "validate", "", 30, "Cart.add", 1, ()) in refs
    assert Reference("call", "publish", "events", 31, "Cart.add", 2, ()) in refs
    assert Reference("call", "ItemAdded", "", 31, "Cart.add", 1, ()) in refs  # new ItemAdded(…)
    assert Reference("ref", "track", "this", 32, "Cart.add", None, ()) in refs  # this::track
    assert Reference("decorator", "Override", "", 27, "Cart.add", None, ()) in refs


def test_imports_and_bases() -> None:
    result = parse(SOURCE, "Cart.java", "java")

    assert result.imports == [
        Import("java.util", "List", None, 0, 3),
        Import("java.util", "*", None, 0, 4),
        Import("java.util.Objects", "requireNonNull", None, 0, 5),
        Import("org.junit.Assert", "*", None, 0, 6),
    ]
    assert result.bases == [
        Base("Cart", "AbstractCart<T>", 13),
        Base("Cart", "Serializable", 13),
        Base("Cart", "Comparable<Cart<T>>", 13),
        Base("Cart.Listener", "EventListener", 37),
        Base("Cart.State", "Labeled", 39),
    ]


def test_junit_tests_and_their_classes() -> None:
    source = b"""package com.shop.cart;

class CartTest {
    @Test
    void addsItems() { new Cart<>(List.of()).add(item); }

    @org.junit.jupiter.params.ParameterizedTest
    @ValueSource(ints = {1, 2})
    void counts(int n) {}

    @RepeatedTest(3)
    void repeats() {}

    void helper() {}

    @Nested
    class WhenEmpty {
        @Test void isEmpty() {}
    }
}

class LegacyCartTest extends junit.framework.TestCase {
    public void testTotal() {}
    public void setUp() {}
}

class Plain { void testLooksLikeATest() {} }
"""
    result = parse(source, "src/test/java/com/shop/cart/CartTest.java", "java")
    flags = {s.qualname: s.is_test for s in result.symbols}

    assert flags == {
        "<module>": True,
        "CartTest": True,
        "CartTest.addsItems": True,
        "CartTest.counts": True,
        "CartTest.repeats": True,
        "CartTest.helper": False,
        "CartTest.WhenEmpty": True,
        "CartTest.WhenEmpty.isEmpty": True,
        "LegacyCartTest": True,
        "LegacyCartTest.testTotal": True,
        "LegacyCartTest.setUp": False,
        "Plain": False,
        "Plain.testLooksLikeATest": False,
    }
    assert Reference("call", "add", "new Cart<>(List.of())", 5, "CartTest.addsItems", 1, ()) in result.references


def test_test_files() -> None:
    source = b"class A {}\n"
    for path, expected in [
        ("src/test/java/a/A.java", True),
        ("src/main/java/a/ATest.java", True),
        ("src/main/java/a/ATests.java", True),
        ("src/main/java/a/AIT.java", True),
        ("src/main/java/a/Attest.java", False),
        ("src/main/java/a/A.java", False),
    ]:
        assert parse(source, path, "java").symbols[0].is_test is expected, path


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""class Good {
    void run() { helper(); }
    void broken( { }
}
"""
    result = parse(source, "Good.java", "java")

    assert result.has_errors is True
    assert {"Good", "Good.run"} <= {s.qualname for s in result.symbols}
    assert Reference("call", "helper", "", 2, "Good.run", 0, ()) in result.references


def test_type_facts() -> None:
    source = b"""class Checkout {
    private PaymentGateway gateway;
    void pay(Order order, List<Item> items) {
        Receipt receipt = gateway.charge(order);
        var mailer = new Mailer();
    }
}
"""
    facts = [
        (r.name, r.receiver, r.scope) for r in parse(source, "Checkout.java", "java").references if r.kind == "assign"
    ]
    assert facts == [
        ("gateway", "PaymentGateway", "Checkout"),  # a field: visible from every method
        ("order", "Order", "Checkout.pay"),
        ("items", "List<Item>", "Checkout.pay"),
        ("receipt", "Receipt", "Checkout.pay"),
        ("mailer", "Mailer", "Checkout.pay"),  # `var` is no type: the constructor tells
    ]
