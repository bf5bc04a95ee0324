"""TypeScript and TSX extraction: interfaces, implements, decorators, namespaces, types, JSX, tests."""

from __future__ import annotations

from crg_review.model import Base, Import, Reference
from crg_review.parse import parse

SOURCE = b"""import type { Request } from './http';
import express = require('express');

/** Something that can be stored. */
export interface Storable<T> extends Serializable, Keyed<T> {
  save(target: Store): Promise<void>;
  key: string;
}

export enum Color { Red, Green }

@Injectable({ providedIn: 'root' })
export class UserService extends BaseService<User> implements Storable<User>, OnInit {
  private cache = new Map<string, User>();

  constructor(private readonly http: HttpClient, retries?: number) {
    super(http);
  }

  /** Load one user. */
  @Memoize()
  async load(id: string, fresh = false): Promise<User> {
    const user = await this.http.get<User>(`/users/${id}`);
    return mapUser(user);
  }

  handle = (req: Request): void => {
    this.load(req.id);
  };
}

export abstract class Repo {
  abstract find(id: string): Entity;
}

namespace Api.V1 {
  export function route(path: string) {
    return express.Router(path);
  }
}
"""


def test_definitions() -> None:
    symbols = {s.qualname: s for s in parse(SOURCE, "src/user.service.ts", "typescript").symbols}

    assert symbols["<module>"].name == "src/user.service"
    storable = symbols["Storable"]
    assert (storable.kind, storable.start_line, storable.end_line) == ("interface", 5, 8)
    assert storable.signature == "export interface Storable<T> extends Serializable, Keyed<T>"
    assert storable.docstring == "Something that can be stored."
    assert symbols["Storable.save"].kind == "method"
    assert symbols["Color"].kind == "enum"
    service = symbols["UserService"]
    assert (service.kind, service.start_line, service.end_line) == ("class", 12, 30)
    assert service.decorators == ("Injectable({ providedIn: 'root' })",)
    assert service.signature == ("export class UserService extends BaseService<User> implements Storable<User>, OnInit")
    ctor = symbols["UserService.constructor"]
    assert ctor.params == ("http", "retries=")
    load = symbols["UserService.load"]
    assert (load.kind, load.start_line, load.end_line) == ("method", 21, 25)  # the decorator line included
    assert load.decorators == ("Memoize()",)
    assert load.signature == "async load(id: string, fresh = false): Promise<User>"
    assert load.docstring == "Load one user."
    assert load.params == ("id", "fresh=")
    assert symbols["UserService.handle"].params == ("req",)
    assert symbols["Repo.find"].signature == "abstract find(id: string): Entity"
    assert symbols["Api.V1.route"].kind == "function"


def test_calls_and_types() -> None:
    result = parse(SOURCE, "src/user.service.ts", "typescript")
    refs = result.references

    assert Reference("call", "Map", "", 14, "UserService", 0, ()) in refs
    assert Reference("call", "get", "this.http", 23, "UserService.load", 1, ()) in refs
    assert Reference("call", "mapUser", "", 24, "UserService.load", 1, ()) in refs
    assert Reference("call", "load", "this", 28, "UserService.handle", 1, ()) in refs
    assert Reference("call", "Router", "express", 38, "Api.V1.route", 1, ()) in refs
    types = {(r.name, r.scope) for r in refs if r.kind == "type"}
    assert {
        ("HttpClient", "UserService.constructor"),
        ("Promise", "UserService.load"),
        ("Entity", "Repo.find"),
    } <= types


def test_imports_and_bases() -> None:
    result = parse(SOURCE, "src/user.service.ts", "typescript")

    assert result.imports == [Import("./http", "Request", None, 0, 1), Import("express", None, "express", 0, 2)]
    assert result.bases == [
        Base("Storable", "Serializable", 5),
        Base("Storable", "Keyed<T>", 5),
        Base("UserService", "BaseService", 13),
        Base("UserService", "Storable<User>", 13),
        Base("UserService", "OnInit", 13),
    ]


def test_tsx_components_and_vitest_blocks() -> None:
    source = b"""import { render } from '@testing-library/react';
import { Button } from './Button';

export function Toolbar({ items }: Props): JSX.Element {
  return <Panel.Row>{items.map((i) => <Button key={i} onClick={save} />)}<span /></Panel.Row>;
}

describe('Toolbar', () => {
  test('renders', () => {
    render(<Toolbar items={[]} />);
  });
});
"""
    result = parse(source, "src/Toolbar.test.tsx", "tsx")
    symbols = {s.qualname: s for s in result.symbols}

    assert symbols["Toolbar"].params == ("{ items }",)
    assert symbols["<module>"].is_test is True
    assert symbols['describe "Toolbar" > test "renders"'].is_test is True
    calls = [(r.name, r.receiver, r.scope) for r in result.references if r.kind == "call"]
    assert ("Row", "Panel", "Toolbar") in calls
    assert ("Button", "", "Toolbar") in calls
    assert ("Toolbar", "", 'describe "Toolbar" > test "renders"') in calls
    assert not any(name == "span" for name, _, _ in calls)


def test_type_assertions_parse_in_typescript_only() -> None:
    source = b"const n = <number>value;\nfunction f(): void { g(); }\n"
    result = parse(source, "a.ts", "typescript")
    assert result.has_errors is False
    assert [r.name for r in result.references if r.kind == "call"] == ["g"]


def test_syntax_error_keeps_what_was_recovered() -> None:
    source = b"""export class Good {
  run(): void { helper(); }
}

export function broken(a: number {
  return a;
}
"""
    result = parse(source, "x.ts", "typescript")

    assert result.has_errors is True
    assert "Good.run" in {s.qualname for s in result.symbols}
    assert Reference("call", "helper", "", 2, "Good.run", 0, ()) in result.references


def test_type_facts() -> None:
    source = b"function pay(order: Order, gateway?: billing.Gateway, items: Array<Item> = []) {\n  const log: Logger = make();\n}\n"
    facts = [(r.name, r.receiver) for r in parse(source, "a.ts", "typescript").references if r.kind == "assign"]
    assert facts == [("order", "Order"), ("gateway", "billing.Gateway"), ("items", "Array<Item>"), ("log", "Logger")]
