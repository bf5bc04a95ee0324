"""C++ extraction: namespaces, classes, out-of-line methods, templates, base classes, gtest tests."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""#include "widget.h"
#include <memory>

namespace ui {
namespace detail {

/// Draws things on a canvas.
class Widget : public Base, protected mixins::Observable<Widget> {
 public:
  explicit Widget(int id);
  virtual ~Widget();

  // Paint onto the canvas.
  void paint(Canvas& canvas, int layer = 0) const override {
    canvas.clear();
    this->prepare();
    helpers::log("paint");
    auto brush = std::make_unique<Brush>(layer);
    delegate_->on_paint(*this);
  }

  struct Options { bool visible() const { return true; } };
};

}  // namespace detail

// Out-of-line definition.
void Widget::resize(int w, int h) {
  paint(nullptr);
  Widget* copy = new Widget(w);
}

Widget::Widget(int id) : Base(id) {}

template <typename T>
T clamp(T value, T low, T high) {
  return std::max(low, std::min(value, high));
}

namespace {
int hidden() { return 0; }
}

}  // namespace ui

int main(int argc, char** argv) { return run(argc, argv); }
"""


def test_definitions() -> None:
    result = parse(SOURCE, "src/ui/widget.cc", "cpp")
    symbols = {s.qualname: s for s in result.symbols}

    widget = symbols["ui::detail::Widget"]
    assert (widget.kind, widget.name, widget.start_line, widget.end_line) == ("class", "Widget", 8, 23)
    assert widget.signature == "class Widget : public Base, protected mixins::Observable<Widget>"
    assert widget.docstring == "Draws things on a canvas."
    paint = symbols["ui::detail::Widget::paint"]
    assert (paint.kind, paint.parent, paint.start_line, paint.end_line) == ("method", "ui::detail::Widget", 14, 20)
    assert paint.signature == "void paint(Canvas& canvas, int layer = 0) const override"
    assert paint.docstring == "Paint onto the canvas."
    assert paint.params == ("canvas", "layer=")
    assert symbols["ui::detail::Widget::Options"].kind == "struct"
    assert symbols["ui::detail::Widget::Options::visible"].kind == "method"
    resize = symbols["ui::Widget::resize"]  # out-of-line, written in namespace ui
    assert (resize.kind, resize.name, resize.parent) == ("method", "resize", "ui::Widget")
    assert resize.docstring == "Out-of-line definition."
    assert symbols["ui::Widget::Widget"].signature == "Widget::Widget(int id) : Base(id)"
    clamp = symbols["ui::clamp"]
    assert (clamp.kind, clamp.start_line, clamp.end_line) == ("function", 35, 38)  # template line included
    assert clamp.signature == "T clamp(T value, T low, T high)"
    assert symbols["ui::hidden"].kind == "function"  # anonymous namespaces add nothing
    assert symbols["main"].params == ("argc", "argv")


def test_calls() -> None:
    refs = parse(SOURCE, "src/ui/widget.cc", "cpp").references
    scope = "ui::detail::Widget::paint"

    assert Reference("call", "clear", "canvas", 15, scope, 0, ()) in refs
    assert Reference("call", "prepare", "this", 16, scope, 0, ()) in refs
    assert Reference("call", "log", "helpers", 17, scope, 1, ()) in refs
    assert Reference("call", "make_unique", "std", 18, scope, 1, ()) in refs
    assert Reference("call", "on_paint", "delegate_", 19, scope, 1, ()) in refs
    assert Reference("call", "Widget", "", 30, "ui::Widget::resize", 1, ()) in refs  # new Widget(w)
    assert Reference("call", "min", "std", 37, "ui::clamp", 2, ()) in refs


def test_includes_and_bases() -> None:
    result = parse(SOURCE, "src/ui/widget.cc", "cpp")

    assert result.imports == [Import("widget.h", None, None, 0, 1), Import("memory", None, None, 0, 2)]
    assert result.bases == [
        Base("ui::detail::Widget", "Base", 8),
        Base("ui::detail::Widget", "mixins::Observable<Widget>", 8),
    ]


def test_gtest_macros_are_tests() -> None:
    source = b"""#include <gtest/gtest.h>

namespace {

TEST(WidgetTest, Paints) {
  Widget w(1);
  w.paint(canvas);
}

TEST_F(WidgetFixture, Resizes) { widget_.resize(1, 2); }

void Helper() {}

}  // namespace
"""
    result = parse(source, "tests/widget_test.cc", "cpp")
    symbols = {s.qualname: s for s in result.symbols}

    assert set(symbols) == {"<module>", "WidgetTest.Paints", "WidgetFixture.Resizes", "Helper"}
    paints = symbols["WidgetTest.Paints"]
    assert (paints.kind, paints.name, paints.is_test, paints.params) == ("test", "Paints", True, ())
    assert (paints.start_line, paints.end_line) == (5, 8)
    assert symbols["Helper"].is_test is False
    assert symbols["<module>"].is_test is True
    assert Reference("call", "paint", "w", 7, "WidgetTest.Paints", 1, ()) in result.references


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""class Good {
  void run() { helper(); }
};

void broken( {
"""
    result = parse(source, "x.cpp", "cpp")

    assert result.has_errors is True
    assert {"Good", "Good::run"} <= {s.qualname for s in result.symbols}
    assert Reference("call", "helper", "", 2, "Good::run", 0, ()) in result.references


def test_type_facts() -> None:
    source = b"""class Renderer {
  Canvas* canvas_;
  void draw(Scene& scene, Camera* cam) {
    Frame frame(1);
    Brush* brush = new Brush();
  }
};
"""
    facts = [(r.name, r.receiver, r.scope) for r in parse(source, "r.cc", "cpp").references if r.kind == "assign"]
    assert facts == [
        ("canvas_", "Canvas", "Renderer"),
        ("scene", "Scene", "Renderer::draw"),
        ("cam", "Camera", "Renderer::draw"),
        ("frame", "Frame", "Renderer::draw"),
        ("brush", "Brush", "Renderer::draw"),
    ]
