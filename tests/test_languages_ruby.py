"""Ruby extraction: Module::Class#method qualnames, mixins, requires, RSpec and minitest tests."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""# frozen_string_literal: true

require "json"
require_relative "../support/money"
require_relative "./tax"

# Shop domain.
module Shop
  # A shopping cart.
  # Holds line items.
  class Cart < Base::Record
    include Enumerable
    extend Forwardable

    # Adds an item.
    def add(item, qty = 1, *tags, notify: true, **opts, &block)
      @items << item
      validate!(item, strict: true)
      Receipt.new(item).deliver
      log "added"
      self.class.registry.store(self)
    end

    def self.build(attrs)
      new(**attrs)
    end

    class << self
      def empty = build({})
    end

    def total = sum(&:price)
  end
end

class Shop::Admin::Report; end

def helper(x)
  x
end
"""


def test_definitions() -> None:
    result = parse(SOURCE, "lib/shop/cart.rb", "ruby")
    symbols = {s.qualname: s for s in result.symbols}

    assert symbols["<module>"].name == "lib/shop/cart"
    shop = symbols["Shop"]
    assert (shop.kind, shop.start_line, shop.end_line, shop.docstring) == ("module", 8, 34, "Shop domain.")
    cart = symbols["Shop::Cart"]
    assert (cart.kind, cart.name, cart.parent, cart.start_line, cart.end_line) == ("class", "Cart", "Shop", 11, 33)
    assert cart.signature == "class Cart < Base::Record"
    assert cart.docstring == "A shopping cart. Holds line items."
    add = symbols["Shop::Cart#add"]
    assert (add.kind, add.parent, add.start_line, add.end_line) == ("method", "Shop::Cart", 16, 22)
    assert add.signature == "def add(item, qty = 1, *tags, notify: true, **opts, &block)"
    assert add.docstring == "Adds an item."
    assert add.params == ("item", "qty=", "*tags", "notify=", "**opts")
    build = symbols["Shop::Cart.build"]
    assert (build.kind, build.signature, build.params) == ("method", "def self.build(attrs)", ("attrs",))
    assert symbols["Shop::Cart.empty"].kind == "method"  # inside class << self
    assert symbols["Shop::Cart#total"].signature == "def total"
    deep = symbols["Shop::Admin::Report"]
    assert (deep.name, deep.parent) == ("Report", None)
    helper = symbols["helper"]
    assert (helper.kind, helper.params) == ("function", ("x",))


def test_calls() -> None:
    refs = parse(SOURCE, "lib/shop/cart.rb", "ruby").references
    scope = "Shop::Cart#add"

    assert Reference("call", "validate!", "", 18, scope, 1, ("strict",)) in refs
    assert Reference("call", "Receipt", "", 19, scope, 1, ()) in refs  # Receipt.new(item)
    assert Reference("call", "deliver", "Receipt.new(item)", 19, scope, 0, ()) in refs
    assert Reference("call", "log", "", 20, scope, 1, ()) in refs  # no parentheses
    assert Reference("call", "store", "self.class.registry", 21, scope, 1, ()) in refs
    assert Reference("call", "new", "", 25, "Shop::Cart.build", 0, ("**",)) in refs
    assert Reference("call", "build", "", 29, "Shop::Cart.empty", 1, ()) in refs


def test_requires_and_bases() -> None:
    result = parse(SOURCE, "lib/shop/cart.rb", "ruby")

    assert result.imports == [
        Import("json", None, None, 0, 3),
        Import("../support/money", None, None, 0, 4),
        Import("./tax", None, None, 0, 5),
    ]
    assert result.bases == [
        Base("Shop::Cart", "Base::Record", 11),
        Base("Shop::Cart", "Enumerable", 12),
        Base("Shop::Cart", "Forwardable", 13),
    ]


def test_rspec_blocks_are_tests() -> None:
    source = b"""require "spec_helper"

RSpec.describe Shop::Cart, type: :model do
  let(:cart) { Shop::Cart.new }

  it "adds items" do
    cart.add(item)
    expect(cart.total).to eq(3)
  end

  context "when empty" do
    it("totals zero") { expect(cart.total).to be_zero }
    specify { expect(cart).to be_empty }
  end
end
"""
    result = parse(source, "spec/shop/cart_spec.rb", "ruby")
    tests = {s.qualname: s for s in result.symbols if s.kind == "test"}

    assert list(tests) == [
        "describe Shop::Cart",
        'describe Shop::Cart > it "adds items"',
        'describe Shop::Cart > context "when empty"',
        'describe Shop::Cart > context "when empty" > it "totals zero"',
    ]
    adds = tests['describe Shop::Cart > it "adds items"']
    assert (adds.name, adds.start_line, adds.end_line, adds.is_test) == ("adds items", 6, 9, True)
    assert adds.signature == 'it "adds items"'
    assert result.symbols[0].is_test is True
    assert Reference("call", "add", "cart", 7, 'describe Shop::Cart > it "adds items"', 1, ()) in result.references


def test_minitest() -> None:
    source = b"""class CartTest < Minitest::Test
  def setup
    @cart = Cart.new
  end

  def test_total
    assert_equal 0, @cart.total
  end

  test "rails style" do
    assert true
  end
end
"""
    flags = {s.qualname: s.is_test for s in parse(source, "test/cart_test.rb", "ruby").symbols}
    assert flags == {
        "<module>": True,
        "CartTest": True,
        "CartTest#setup": False,
        "CartTest#test_total": True,
        'CartTest > test "rails style"': True,
    }
    elsewhere = {s.qualname: s.is_test for s in parse(source, "lib/cart_check.rb", "ruby").symbols}
    assert elsewhere["CartTest"] is True and elsewhere["CartTest#test_total"] is True  # by its base


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""class Good
  def run
    helper(1)
  end
end

def broken(
  1 +
"""
    result = parse(source, "x.rb", "ruby")

    assert result.has_errors is True
    assert {"Good", "Good#run"} <= {s.qualname for s in result.symbols}
    assert Reference("call", "helper", "", 3, "Good#run", 1, ()) in result.references


def test_type_facts() -> None:
    source = b"def checkout\n  cart = Shop::Cart.new\n  mailer = Mailer.new(cart)\n  total = cart.total\nend\n"
    facts = [(r.name, r.receiver) for r in parse(source, "a.rb", "ruby").references if r.kind == "assign"]
    assert facts == [("cart", "Shop::Cart"), ("mailer", "Mailer")]
