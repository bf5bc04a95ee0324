; definitions
(class_definition name: (identifier) @name body: (block) @body) @definition.class
(function_definition name: (identifier) @name parameters: (parameters) @params body: (block) @body) @definition.function

; the script entry `if __name__ == "__main__":` at module level is a scope of its own named `__main__`
; (python.definition_name; other ifs are left out there): what it calls does not run on import. One with an
; elif or else branch stays part of the module (those branches run on import)
(module (if_statement condition: (comparison_operator) consequence: (block) @body !alternative) @definition.main)

; a command line that runs a module of the repository (`[sys.executable, "-m", "pkg.cli"]`, `["python", "tool.py"]`):
; a `spawn` reference to that module's `__main__` scope (python.finalize, resolve: "spawn")
[(list) (tuple)] @expand.spawn

; a dotted path in a string names a definition of the repository (`"mistune.plugins.footnotes.footnotes"` in a registry,
; django's settings, `import_string("pkg.mod.func")`, `"()": "colorlog.ColoredFormatter"` in a logging configuration): a
; `dotted` reference (python.finalize, which leaves out file names such as `"settings.py"`; resolve: "string", and only
; a definition of the repository: `"os.path"` names none); where a value is (a dict value, an item, an argument, the
; right side of an assignment: python.expand "dotted"), not a docstring
((string) @expand.dotted (#match? @expand.dotted "^[\"'][A-Za-z_][A-Za-z0-9_]*([.][A-Za-z_][A-Za-z0-9_]*){1,}[\"']$"))

; a conftest's `pytest_collect_file` hook collects test items from files that are not Python (`.yaml`, `.docopt`):
; the file patterns it compares paths with (python.expand "collects"; graph.Graph.collected_files)
(function_definition name: (identifier) @_hook body: (block) @expand.collects (#eq? @_hook "pytest_collect_file"))

; inheritance: positional superclasses only (metaclass= and other keywords are not bases)
(class_definition superclasses: (argument_list [(identifier) (attribute) (subscript)] @base)) @inherit

; Expressions (calls, attributes, subscripts, operators) and assignments are captured whole and taken apart by
; python.expand: tree-sitter analyses every pattern step below a node against the grammar when it compiles the
; query, about 1 ms a step under an expression node, and reading a few fields in Python costs less.

; calls: f(), obj.m(), super().m(), f()(); what their shape implies (expand.call): `type(self)(...)`,
; `getattr(obj, "name")`, `str(x)`, unittest's assertions
(call) @expand.call

; decorators are calls of the decorator (with or without arguments)
(decorator [(identifier) (attribute)] @expand.decorator)

; functions passed by name: map(f, xs), Thread(target=run), callbacks in lists/dicts/assignments
; (and assignments `x = f`, in expand.assignment)
(argument_list [(identifier) (attribute)] @expand.ref)
(keyword_argument value: [(identifier) (attribute)] @expand.ref)
(list (identifier) @name) @reference.ref
(tuple (identifier) @name) @reference.ref
(pair value: (identifier) @name) @reference.ref
(list (attribute) @expand.ref)
(tuple (attribute) @expand.ref)
(pair value: (attribute) @expand.ref)
; a value wrapped in parentheses to break the line: `"unevaluatedProperties": (\n    _legacy_keywords.f\n),`
(pair value: (parenthesized_expression (identifier) @name)) @reference.ref
(pair value: (parenthesized_expression (attribute) @expand.ref))
(keyword_argument value: (parenthesized_expression [(identifier) (attribute)] @expand.ref))
; `norms = self.plural_noun, self.plural_verb`: a tuple without parentheses, assigned
(assignment right: (expression_list (identifier) @name) @reference.ref)
(assignment right: (expression_list (attribute) @expand.ref))
(return_statement (identifier) @name) @reference.ref
; `global pack` in a function: what it then binds to `pack` is the module's (in finalize)
(global_statement (identifier) @name) @reference.global
; `return self._run`: a bound method handed out, called by whoever calls what the function returns
(return_statement (attribute) @expand.ref)

; `getattr(obj, "name")` and `getattr(self, f"visit_{...}")`: a member looked up by its name or by a literal
; prefix (visitor dispatch); `getattr(...)(...)` calls it (made in finalize): in expand.call; a name built before
; the lookup (`method = "visit_" + type(node).__name__` then `getattr(self, method)`): in expand.assignment

; attribute reads (resolved only when they name a property)
(attribute) @expand.attr

; type annotations and isinstance-style uses of classes
(type [(identifier) (attribute)] @expand.type)

; module-level statements: which module-level variable holds each name a statement stores, as in
; `FORMATS = {"pipe": Format(line=_pipe_line)}` (a `holds` reference: the name, the variable; python.toplevel)
(module (_) @expand.toplevel)

; the blocks of a class body: a definition in one may not exist (`if sys.version_info >= (3, 12): def test_x(self)`)
(class_definition body: (block (_) @expand.classblock))

; imports
(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.wildcard) @import

; local type facts: `x = Cls(...)`, `self.x = Cls(...)`, annotations, aliases `a = b` and `a = partial(b, ...)`, `x = cast(T, v)`,
; `T = TypeVar("T", bound=B)` (T stands for B), `x[k] = v`: expand.assignment
(assignment) @expand.assignment
; `if (m := pattern.match(s)):` binds m as `m = pattern.match(s)` would
(named_expression) @expand.walrus
(typed_parameter (identifier) @name type: (type) @receiver) @reference.assign
(typed_default_parameter name: (identifier) @name type: (type) @receiver) @reference.assign
; `except E as e` (`except (E, F) as e`): e holds an instance of E (or F)
(except_clause (as_pattern . [(identifier) (attribute)] @receiver alias: (as_pattern_target (identifier) @name))) @reference.assign
(except_clause (as_pattern . (tuple [(identifier) (attribute)] @receiver) alias: (as_pattern_target (identifier) @name))) @reference.assign
; a parameter's default names what it holds when the caller passes none (`key=keys.hashkey`, `delitem=Base.__delitem__`)
(default_parameter name: (identifier) @name value: [(identifier) (attribute)] @receiver) @reference.alias
(typed_default_parameter name: (identifier) @name value: [(identifier) (attribute)] @receiver) @reference.alias
; ... and the function holds what it names (`json_default=orjson_default`: a function it may call or hand on)
(default_parameter value: (identifier) @name) @reference.ref
(typed_default_parameter value: (identifier) @name) @reference.ref
(default_parameter value: (attribute) @expand.ref)
(typed_default_parameter value: (attribute) @expand.ref)
; what a function returns, as facts of the pseudo-variable `return` (resolve.RETURN_FACT)
(return_statement "return" @name (call) @expand.returns)
(return_statement "return" @name [(identifier) (attribute)] @receiver) @reference.alias
; `return strings, padfn`: what each position of the tuple holds (`return#1` aliases padfn; in expand.returns)
(return_statement "return" @name (expression_list) @expand.returns)
; `return a if cond else b`, `return a or b`: each operand (in expand.returns)
(return_statement "return" @name [(conditional_expression) (boolean_operator) (parenthesized_expression)] @expand.returns)
; `for x in EXPR`: x holds an item of EXPR (its element type); the loop calls EXPR.__iter__ (made in finalize)
(for_statement) @expand.for_statement
(for_in_clause) @expand.for_in_clause
; `yield from EXPR` iterates EXPR too, and so does unpacking it (`tag_class, tag_id = tag`)
(yield "from" [(identifier) (attribute) (call)] @name) @reference.iterate
(assignment left: [(pattern_list) (tuple_pattern) (list_pattern)] right: [(identifier) (attribute) (call)] @name) @reference.iterate
; a function with a `yield` is a generator: its body runs when what a call of it returns is iterated (one `yields`
; reference per function, in finalize)
(yield) @name @reference.yields

; binary operators call a method of the left operand, or the reflected one of the right (made in finalize)
(binary_operator) @expand.binary
; augmented assignments the in-place method of the target, or the binary one without it (`x /= y`: x.__itruediv__,
; else x.__truediv__, or y.__rtruediv__; made in finalize)
(augmented_assignment) @expand.augmented
; unary ones a method of their operand: `~x` x.__invert__(), `-x` x.__neg__(), `+x` x.__pos__() (made in finalize)
(unary_operator) @expand.unary
; f-string interpolations format their value: `{x}` x.__format__ / x.__str__, `{x!r}` x.__repr__ (made in finalize)
(interpolation) @expand.interpolation
; comparisons likewise (`a < b`: a.__lt__(b) or b.__gt__(a)), and `k in x` (below); builtins that call a protocol
; method of their argument (`str(x)`: x.__str__()) are in expand.call
(comparison_operator) @expand.comparison

; subscripts call a method of the subscripted object: `x[k]` x.__getitem__, `x[k] = v` x.__setitem__, `del x[k]`
; x.__delitem__, `k in x` x.__contains__ (made in finalize; @name is the key, the method comes from the kind)
(subscript) @expand.getitem
(augmented_assignment left: (subscript) @expand.setitem)
(delete_statement (subscript) @expand.delitem)
(delete_statement (expression_list (subscript) @expand.delitem))

; truthiness: `if x:`, `while x:`, `not x`, `assert x` call x.__bool__ (or x.__len__ without one; made in finalize)
(if_statement condition: [(identifier) (attribute)] @receiver @name) @reference.truth
(elif_clause condition: [(identifier) (attribute)] @receiver @name) @reference.truth
(while_statement condition: [(identifier) (attribute)] @receiver @name) @reference.truth
(not_operator argument: [(identifier) (attribute)] @receiver @name) @reference.truth
(assert_statement . [(identifier) (attribute)] @receiver @name) @reference.truth
; a comprehension's filter (`[g for g in gs if g]`) and the left operand of `and`/`or` are tested the same way
(if_clause [(identifier) (attribute)] @receiver @name) @reference.truth
(boolean_operator left: [(identifier) (attribute)] @receiver @name) @reference.truth

; unittest's assertions run the same methods: `assertIn(k, x)` x.__contains__, `assertTrue(x)` x.__bool__,
; `assertEqual(a, b)` as `a == b` (made in finalize): in expand.call

; context managers: `with EXPR [as x]` calls EXPR.__enter__ and EXPR.__exit__ (split in finalize)
; `with f() as x` binds the entered value: kept simple, x is typed by f (expand.with_item)
(with_item) @expand.with_item
