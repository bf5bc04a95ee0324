"""Rust extraction: impl-qualified methods, traits, use trees, #[test] functions, syntax errors."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""//! Geometry primitives.
use crate::units::{Length, Angle as Deg};
use std::fmt;
use super::*;
use self::io::{self, read::{Reader, Source}};

/// A point in the plane.
#[derive(Debug, Clone)]
pub struct Point<T> {
    x: T,
}

/// Something with an area.
pub trait Shape: fmt::Debug + Clone {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("{}", self.area())
    }
}

impl<T: Copy> Point<T> {
    /// Makes a point.
    pub fn new(x: T, mut scale: i32) -> Self {
        Self::check(scale);
        let v = Vec::<T>::with_capacity(1);
        v.iter().map(convert).count();
        println!("{}", x);
        Point { x }
    }
}

impl Shape for Point<f64> {
    fn area(&self) -> f64 {
        geometry::zero()
    }
}

pub enum Kind { Round, Square }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makes_points() {
        let p = Point::new(1.0, 2);
        assert_eq!(p.area(), 0.0);
    }

    #[tokio::test]
    async fn async_case() {}

    fn fixture() -> Point<f64> { Point::new(0.0, 1) }
}
"""


def test_definitions() -> None:
    result = parse(SOURCE, "src/geometry/mod.rs", "rust")
    symbols = {s.qualname: s for s in result.symbols}

    module = symbols["<module>"]
    assert (module.name, module.docstring) == ("src::geometry", "Geometry primitives.")
    point = symbols["Point"]
    assert (point.kind, point.start_line, point.end_line) == ("struct", 8, 11)  # the attribute line included
    assert point.signature == "pub struct Point<T>"
    assert point.docstring == "A point in the plane."
    assert point.decorators == ("derive(Debug, Clone)",)
    shape = symbols["Shape"]
    assert (shape.kind, shape.docstring) == ("trait", "Something with an area.")
    assert symbols["Shape::area"].signature == "fn area(&self) -> f64"
    assert symbols["Shape::describe"].kind == "method"
    new = symbols["Point::new"]
    assert (new.kind, new.parent, new.start_line, new.end_line) == ("method", "Point", 23, 29)
    assert new.signature == "pub fn new(x: T, mut scale: i32) -> Self"
    assert new.docstring == "Makes a point."
    assert new.params == ("x", "scale")
    area = symbols["Point::area"]  # impl Shape for Point<f64>
    assert (area.kind, area.parent, area.params) == ("method", "Point", ("self",))
    assert symbols["Kind"].kind == "enum"
    assert symbols["tests"].kind == "module"
    assert symbols["tests::makes_points"].parent == "tests"


def test_calls_skip_macros() -> None:
    refs = parse(SOURCE, "src/geometry/mod.rs", "rust").references
    calls = [r for r in refs if r.kind == "call"]

    assert Reference("call", "check", "Self", 24, "Point::new", 1, ()) in calls
    assert Reference("call", "with_capacity", "Vec", 25, "Point::new", 1, ()) in calls  # turbofish dropped
    assert Reference("call", "map", "v.iter()", 26, "Point::new", 1, ()) in calls
    assert Reference("ref", "convert", "", 26, "Point::new", None, ()) in refs
    assert Reference("call", "zero", "geometry", 34, "Point::area", 0, ()) in calls
    assert Reference("call", "new", "Point", 46, "tests::makes_points", 2, ()) in calls
    names = {r.name for r in calls}
    assert not names & {"println", "format", "assert_eq"}  # macros are not calls
    assert "area" not in {r.name for r in calls if r.line in (17, 47)}  # not even inside macro arguments


def test_use_trees_and_bases() -> None:
    result = parse(SOURCE, "src/geometry/mod.rs", "rust")

    assert result.imports == [
        Import("crate::units", "Length", None, 0, 2),
        Import("crate::units", "Angle", "Deg", 0, 2),
        Import("std", "fmt", None, 0, 3),
        Import("super", "*", None, 0, 4),
        Import("self", "io", None, 0, 5),
        Import("self::io::read", "Reader", None, 0, 5),
        Import("self::io::read", "Source", None, 0, 5),
        Import("super", "*", None, 0, 42, "tests"),
    ]
    assert result.bases == [
        Base("Shape", "fmt::Debug", 14),
        Base("Shape", "Clone", 14),
        Base("Point", "Shape", 32),  # impl Shape for Point<f64>: the struct inherits the trait
    ]


def test_impl_inside_a_module_names_the_module() -> None:
    source = b"mod shapes {\n    struct Circle;\n    impl Draw for Circle { fn draw(&self) {} }\n}\n"
    result = parse(source, "src/lib.rs", "rust")

    assert [s.qualname for s in result.symbols] == ["<module>", "shapes", "shapes::Circle", "shapes::Circle::draw"]
    assert result.bases == [Base("shapes::Circle", "Draw", 3)]


def test_tests_are_marked() -> None:
    flags = {s.qualname: s.is_test for s in parse(SOURCE, "src/geometry/mod.rs", "rust").symbols}

    assert flags["tests"] is True
    assert flags["tests::makes_points"] is True
    assert flags["tests::async_case"] is True
    assert flags["tests::fixture"] is False
    assert flags["Point::new"] is False
    assert flags["<module>"] is False
    assert parse(b"fn t() {}", "tests/integration.rs", "rust").symbols[0].is_test is True


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""fn good() { helper(); }

fn broken( {
}

struct After;
"""
    result = parse(source, "src/x.rs", "rust")

    assert result.has_errors is True
    assert "good" in {s.qualname for s in result.symbols}
    assert Reference("call", "helper", "", 1, "good", 0, ()) in result.references


def test_type_facts() -> None:
    source = b"fn run(cfg: &Config, pool: Pool<Conn>) {\n    let srv = Server::new(cfg);\n    let p = Point { x: 1 };\n    let n: Counter = make();\n}\n"
    facts = [(r.name, r.receiver) for r in parse(source, "src/main.rs", "rust").references if r.kind == "assign"]
    assert facts == [("cfg", "Config"), ("pool", "Pool"), ("srv", "Server"), ("p", "Point"), ("n", "Counter")]
