"""C# extraction: nested types, XML doc comments, using directives, base lists, xUnit/NUnit/MSTest tests."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""using System;
using System.Collections.Generic;
using Json = Newtonsoft.Json.JsonConvert;
using static System.Math;

namespace Shop.Orders
{
    /// <summary>
    /// Places orders.
    /// </summary>
    [Service]
    public sealed class OrderService : ServiceBase<Order>, IOrderService
    {
        public OrderService(IRepository repo) : base(repo) { }

        /// <summary>Place one order.</summary>
        /// <param name="order">the order</param>
        public async Task<int> Place(Order order, bool notify = true, params string[] tags)
        {
            this.Validate(order);
            var id = await _repo.SaveAsync(order, retries: 3);
            Log?.Info("placed");
            Notifier.Default.Send(new OrderPlaced(id));
            tags.ToList().ForEach(Track);
            return Max(id, 0);
        }

        private int Count() => _repo.Count<Order>();

        public struct Line { public int Qty() { return 1; } }

        void Outer() { int Local(int x) => x; }
    }

    public interface IOrderService : IDisposable { Task<int> Place(Order order); }

    public enum Status { Open, Closed }
}
"""


def test_definitions() -> None:
    symbols = {s.qualname: s for s in parse(SOURCE, "src/Shop/OrderService.cs", "csharp").symbols}

    service = symbols["OrderService"]
    assert (service.kind, service.start_line, service.end_line) == ("class", 11, 33)
    assert service.signature == "public sealed class OrderService : ServiceBase<Order>, IOrderService"
    assert service.docstring == "Places orders."
    assert service.decorators == ("Service",)
    ctor = symbols["OrderService.OrderService"]
    assert (ctor.kind, ctor.params) == ("method", ("repo",))
    place = symbols["OrderService.Place"]
    assert (place.kind, place.parent, place.start_line, place.end_line) == ("method", "OrderService", 18, 26)
    assert place.signature == "public async Task<int> Place(Order order, bool notify = true, params string[] tags)"
    assert place.docstring == "Place one order. the order"
    assert place.params == ("order", "notify=", "*tags")
    assert symbols["OrderService.Count"].signature == "private int Count()"
    assert symbols["OrderService.Line"].kind == "struct"
    assert symbols["OrderService.Line.Qty"].kind == "method"
    assert symbols["OrderService.Outer.Local"].kind == "function"
    assert symbols["IOrderService"].kind == "interface"
    assert symbols["IOrderService.Place"].signature == "Task<int> Place(Order order)"
    assert symbols["Status"].kind == "enum"


def test_calls() -> None:
    refs = parse(SOURCE, "OrderService.cs", "csharp").references

    assert Reference("call", "Validate", "this", 20, "OrderService.Place", 1, ()) in refs
    assert Reference("call", "SaveAsync", "_repo", 21, "OrderService.Place", 1, ("retries",)) in refs
    assert Reference("call", "Info", "Log", 22, "OrderService.Place", 1, ()) in refs
    assert Reference("call", "Send", "Notifier.Default", 23, "OrderService.Place", 1, ()) in refs
    assert Reference("call", "OrderPlaced", "", 23, "OrderService.Place", 1, ()) in refs
    assert Reference("call", "ForEach", "tags.ToList()", 24, "OrderService.Place", 1, ()) in refs
    assert Reference("ref", "Track", "", 24, "OrderService.Place", None, ()) in refs
    assert Reference("call", "Max", "", 25, "OrderService.Place", 2, ()) in refs
    assert Reference("call", "Count", "_repo", 28, "OrderService.Count", 0, ()) in refs  # Count<Order>()


def test_imports_and_bases() -> None:
    result = parse(SOURCE, "OrderService.cs", "csharp")

    assert result.imports == [
        Import("System", "*", None, 0, 1),
        Import("System.Collections.Generic", "*", None, 0, 2),
        Import("Newtonsoft.Json", "JsonConvert", "Json", 0, 3),
        Import("System.Math", "*", None, 0, 4),
    ]
    assert result.bases == [
        Base("OrderService", "ServiceBase<Order>", 12),
        Base("OrderService", "IOrderService", 12),
        Base("IOrderService", "IDisposable", 35),
    ]


def test_xunit_nunit_and_mstest_tests() -> None:
    source = b"""public class OrderServiceTests
{
    [Fact]
    public void PlacesOrders() { new OrderService(repo).Place(order); }

    [Theory, InlineData(1)]
    public void Counts(int n) { }

    [Xunit.FactAttribute]
    public void Qualified() { }

    private void Helper() { }
}

[TestFixture]
public class Legacy
{
    [TestCase(1, 2)] public void Adds(int a, int b) { }
    [Test] public void Works() { }
}

[TestClass]
public class MsTests { [TestMethod] public void Runs() { } }

public class NotATest { public void TestSomething() { } }
"""
    result = parse(source, "tests/Shop.Tests/OrderServiceTests.cs", "csharp")
    flags = {s.qualname: s.is_test for s in result.symbols}

    assert flags == {
        "<module>": True,
        "OrderServiceTests": True,
        "OrderServiceTests.PlacesOrders": True,
        "OrderServiceTests.Counts": True,
        "OrderServiceTests.Qualified": True,
        "OrderServiceTests.Helper": False,
        "Legacy": True,
        "Legacy.Adds": True,
        "Legacy.Works": True,
        "MsTests": True,
        "MsTests.Runs": True,
        "NotATest": False,
        "NotATest.TestSomething": False,
    }
    assert parse(b"class A {}", "src/Shop/A.cs", "csharp").symbols[0].is_test is False


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""class Good
{
    void Run() { Helper(); }
    void Broken( { }
}
"""
    result = parse(source, "Good.cs", "csharp")

    assert result.has_errors is True
    assert {"Good", "Good.Run"} <= {s.qualname for s in result.symbols}
    assert Reference("call", "Helper", "", 3, "Good.Run", 0, ()) in result.references


def test_type_facts() -> None:
    source = b"""class Checkout {
    private IGateway _gateway;
    void Pay(Order order, List<Item> items) {
        Receipt receipt = _gateway.Charge(order);
        var mailer = new Mailer();
    }
}
"""
    facts = [
        (r.name, r.receiver, r.scope) for r in parse(source, "Checkout.cs", "csharp").references if r.kind == "assign"
    ]
    assert facts == [
        ("_gateway", "IGateway", "Checkout"),
        ("order", "Order", "Checkout.Pay"),
        ("items", "List<Item>", "Checkout.Pay"),
        ("receipt", "Receipt", "Checkout.Pay"),
        ("mailer", "Mailer", "Checkout.Pay"),
    ]
