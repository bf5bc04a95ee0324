"""Go extraction: receiver-qualified methods, embedding, imports, go test functions, syntax errors."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""// Package server serves HTTP.
package server

import (
	"fmt"
	stdhttp "net/http"
	. "example.com/dsl"
	_ "embed"
)

import "os"

// Server handles requests.
// It is safe for concurrent use.
type Server struct {
	Base
	*log.Logger
	addr string
}

type Handler interface {
	io.Closer
	Serve(w Writer, r *Request) error
}

type (
	// Options configure a Server.
	Options struct{ Port int }
	ID      int
)

//go:noinline
// Start listens on addr.
func (s *Server) Start(ctx context.Context, host, port string) (err error) {
	s.listen(host + port)
	fmt.Println("started", s.addr)
	stdhttp.HandleFunc("/", index)
	go func() {
		serve(ctx)
	}()
	return nil
}

func (Server) Name() string { return "server" }

func (c *Cache[K, V]) Get(key K) V { return c.items[key] }

// New returns a Server.
func New(addr string, opts ...Option) *Server {
	return &Server{addr: addr}
}
"""


def test_definitions_and_receiver_qualnames() -> None:
    result = parse(SOURCE, "internal/server/server.go", "go")
    symbols = {s.qualname: s for s in result.symbols}

    module = symbols["<module>"]
    assert (module.name, module.docstring, module.is_test) == ("internal/server", "Package server serves HTTP.", False)
    server = symbols["Server"]
    assert (server.kind, server.start_line, server.end_line) == ("struct", 15, 19)
    assert server.signature == "type Server struct"
    assert server.docstring == "Server handles requests. It is safe for concurrent use."
    assert symbols["Handler"].kind == "interface"
    options = symbols["Options"]
    assert (options.kind, options.docstring, options.start_line) == ("struct", "Options configure a Server.", 28)
    assert "ID" not in symbols  # named non-struct types are not symbols
    start = symbols["Server.Start"]
    assert (start.kind, start.name, start.parent) == ("method", "Start", "Server")
    assert (start.start_line, start.end_line) == (34, 42)
    assert start.signature == "func (s *Server) Start(ctx context.Context, host, port string) (err error)"
    assert start.docstring == "Start listens on addr."  # the //go: directive is not documentation
    assert start.params == ("ctx", "host", "port")
    assert symbols["Server.Name"].parent == "Server"
    assert symbols["Cache.Get"].parent == "Cache"  # type parameters dropped
    new = symbols["New"]
    assert (new.kind, new.parent, new.params, new.docstring) == (
        "function",
        None,
        ("addr", "*opts"),
        "New returns a Server.",
    )


def test_calls() -> None:
    refs = parse(SOURCE, "internal/server/server.go", "go").references

    assert Reference("call", "listen", "s", 35, "Server.Start", 1, ()) in refs
    assert Reference("call", "Println", "fmt", 36, "Server.Start", 2, ()) in refs
    assert Reference("call", "HandleFunc", "stdhttp", 37, "Server.Start", 2, ()) in refs
    assert Reference("call", "serve", "", 39, "Server.Start", 1, ()) in refs  # inside a func literal
    assert Reference("ref", "index", "", 37, "Server.Start", None, ()) in refs
    assert Reference("type", "Server", "", 50, "New", None, ()) in refs  # &Server{…}


def test_imports_and_embedding() -> None:
    result = parse(SOURCE, "internal/server/server.go", "go")

    assert result.imports == [
        Import("fmt", None, None, 0, 5),
        Import("net/http", None, "stdhttp", 0, 6),
        Import("example.com/dsl", "*", None, 0, 7),
        Import("embed", None, "_", 0, 8),
        Import("os", None, None, 0, 11),
    ]
    assert result.bases == [
        Base("Server", "Base", 16),
        Base("Server", "log.Logger", 17),
        Base("Handler", "io.Closer", 22),
    ]


def test_go_test_functions() -> None:
    source = b"""package server

func TestStart(t *testing.T) {
	t.Run("ok", func(t *testing.T) { New("x") })
}
func TestMain(m *testing.M) {}
func Testable() {}
func BenchmarkStart(b *testing.B) {}
func FuzzParse(f *testing.F) {}
func ExampleNew() {}
func helper() {}
"""
    flags = {s.qualname: s.is_test for s in parse(source, "server/server_test.go", "go").symbols}
    assert flags == {
        "<module>": True,
        "TestStart": True,
        "TestMain": False,
        "Testable": False,
        "BenchmarkStart": True,
        "FuzzParse": True,
        "ExampleNew": True,
        "helper": False,
    }
    outside = {s.qualname: s.is_test for s in parse(source, "server/server.go", "go").symbols}
    assert outside["TestStart"] is False


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""package x

func Good() { helper() }

func Broken( {
}

func (t *T) After() { Good() }
"""
    result = parse(source, "x.go", "go")

    assert result.has_errors is True
    qualnames = {s.qualname for s in result.symbols}
    assert "Good" in qualnames
    assert Reference("call", "helper", "", 3, "Good", 0, ()) in result.references


def test_type_facts() -> None:
    source = b"""package x

func (s *Server) Handle(w http.ResponseWriter, r *Request) {
	c := &Conn{}
	var buf bytes.Buffer
	s.serve(c)
}
"""
    facts = [(r.name, r.receiver, r.scope) for r in parse(source, "x.go", "go").references if r.kind == "assign"]
    assert facts == [
        ("s", "Server", "Server.Handle"),
        ("w", "http.ResponseWriter", "Server.Handle"),
        ("r", "Request", "Server.Handle"),
        ("c", "Conn", "Server.Handle"),
        ("buf", "bytes.Buffer", "Server.Handle"),
    ]
