; definitions
(class_definition name: (identifier) @name body: (block) @body) @definition.class
(function_definition name: (identifier) @name parameters: (parameters) @params body: (block) @body) @definition.function

; inheritance: positional superclasses only (metaclass= and other keywords are not bases)
(class_definition superclasses: (argument_list [(identifier) (attribute) (subscript)] @base)) @inherit

; calls: f(), obj.m(), super().m(), f()()
(call function: [(identifier) (attribute)] @callee arguments: (argument_list) @args) @reference.call
(call function: [(identifier) (attribute)] @callee arguments: (generator_expression)) @reference.call

; `type(self)(...)` makes another instance of the class (made a call of self.__class__ in finalize)
((call function: (call function: (identifier) @_type arguments: (argument_list . (identifier) @name .))) @reference.typecall
  (#eq? @_type "type"))

; decorators are calls of the decorator (with or without arguments)
(decorator (identifier) @name) @reference.decorator
(decorator (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.decorator

; functions passed by name: map(f, xs), Thread(target=run), callbacks in lists/dicts/assignments
(argument_list (identifier) @name) @reference.ref
(argument_list (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.ref
(keyword_argument value: (identifier) @name) @reference.ref
(keyword_argument value: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.ref
(assignment right: (identifier) @name) @reference.ref
(assignment right: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.ref
(list (identifier) @name) @reference.ref
(tuple (identifier) @name) @reference.ref
(pair value: (identifier) @name) @reference.ref
(return_statement (identifier) @name) @reference.ref

; `getattr(obj, "name")` and `getattr(self, f"visit_{...}")`: a member looked up by its name or by a literal
; prefix (visitor dispatch); `getattr(...)(...)` calls it (made in finalize)
((call function: (identifier) @_getattr arguments: (argument_list . (_) @receiver . [(string) (binary_operator) (call) (identifier)] @name)) @reference.getattr
  (#eq? @_getattr "getattr"))
((call function: (call function: (identifier) @_getattr arguments: (argument_list . (_) @receiver . [(string) (binary_operator) (call) (identifier)] @name))) @reference.getattrcall
  (#eq? @_getattr "getattr"))
; a name built before the lookup: `method = "visit_" + type(node).__name__` then `getattr(self, method)`
(assignment left: (identifier) @name right: [(string) (binary_operator left: (string)) (call function: (attribute object: (string)))] @receiver) @reference.namestr

; attribute reads (resolved only when they name a property)
(attribute object: (_) @receiver attribute: (identifier) @name) @reference.attr

; type annotations and isinstance-style uses of classes
(type (identifier) @name) @reference.type
(type (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.type

; imports
(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.wildcard) @import

; local type facts: `x = Cls(...)`, `self.x = Cls(...)`, annotations; aliases `a = b`
(assignment left: [(identifier) (attribute)] @name right: (call function: [(identifier) (attribute)] @receiver)) @reference.assign
(assignment left: [(identifier) (attribute)] @name type: (type) @receiver) @reference.assign
(typed_parameter (identifier) @name type: (type) @receiver) @reference.assign
(typed_default_parameter name: (identifier) @name type: (type) @receiver) @reference.assign
(assignment left: [(identifier) (attribute)] @name right: [(identifier) (attribute)] @receiver) @reference.alias
; a parameter's default names what it holds when the caller passes none (`key=keys.hashkey`, `delitem=Base.__delitem__`)
(default_parameter name: (identifier) @name value: [(identifier) (attribute)] @receiver) @reference.alias
(typed_default_parameter name: (identifier) @name value: [(identifier) (attribute)] @receiver) @reference.alias
; `x = cast(T, v)` states x's type; `T = TypeVar("T", bound=B)` makes T stand for B
((assignment left: [(identifier) (attribute)] @name right: (call function: [(identifier) (attribute)] @_cast arguments: (argument_list . [(identifier) (attribute) (subscript) (string)] @receiver))) @reference.assign
  (#match? @_cast "(^|[.])cast$"))
((assignment left: (identifier) @name right: (call function: [(identifier) (attribute)] @_typevar arguments: (argument_list (keyword_argument name: (identifier) @_bound value: [(identifier) (attribute) (string)] @receiver)))) @reference.alias
  (#match? @_typevar "(^|[.])TypeVar$")
  (#eq? @_bound "bound"))
; what a function returns, as facts of the pseudo-variable `return` (resolve.RETURN_FACT)
(return_statement "return" @name (call function: [(identifier) (attribute)] @receiver)) @reference.assign
(return_statement "return" @name [(identifier) (attribute)] @receiver) @reference.alias
; `for x in EXPR`: x holds an item of EXPR (its element type); the loop calls EXPR.__iter__ (made in finalize)
(for_statement left: (identifier) @name right: [(call function: [(identifier) (attribute)] @receiver) (identifier) @receiver (attribute) @receiver]) @reference.element
(for_in_clause left: (identifier) @name right: [(call function: [(identifier) (attribute)] @receiver) (identifier) @receiver (attribute) @receiver]) @reference.element
(for_statement right: [(identifier) (attribute) (call)] @name) @reference.iterate

; binary operators call a method of the left operand, or the reflected one of the right (made in finalize)
(binary_operator left: [(identifier) (attribute) (call)] @receiver operator: ["+" "-" "*" "/" "//" "%" "**" "@" "<<" ">>" "&" "|" "^"] @name) @reference.operator
(binary_operator operator: ["+" "-" "*" "/" "//" "%" "**" "@" "<<" ">>" "&" "|" "^"] @name right: [(identifier) (attribute) (call)] @receiver) @reference.roperator
; comparisons likewise (`a < b`: a.__lt__(b) or b.__gt__(a)); builtins that call a protocol method of their
; argument (`str(x)`: x.__str__())
(comparison_operator . [(identifier) (attribute) (call)] @receiver . ["<" "<=" "==" "!=" ">=" ">"] @name) @reference.operator
(comparison_operator ["<" "<=" "==" "!=" ">=" ">"] @name . [(identifier) (attribute) (call)] @receiver) @reference.roperator
((call function: (identifier) @name arguments: (argument_list . [(identifier) (attribute) (call)] @receiver .)) @reference.protocol
  (#any-of? @name "str" "repr" "len" "hash" "iter" "next" "bool" "abs" "format" "reversed" "bytes" "int" "float"
    "list" "tuple" "set" "frozenset" "sorted" "sum" "min" "max" "any" "all" "enumerate" "dict"))

; subscripts call a method of the subscripted object: `x[k]` x.__getitem__, `x[k] = v` x.__setitem__, `del x[k]`
; x.__delitem__, `k in x` x.__contains__ (made in finalize; @name is the key, the method comes from the kind)
(subscript value: [(identifier) (attribute) (call)] @receiver subscript: (_) @name) @reference.getitem
(assignment left: (subscript value: [(identifier) (attribute) (call)] @receiver subscript: (_) @name)) @reference.setitem
(augmented_assignment left: (subscript value: [(identifier) (attribute) (call)] @receiver subscript: (_) @name)) @reference.setitem
(delete_statement (subscript value: [(identifier) (attribute) (call)] @receiver subscript: (_) @name)) @reference.delitem
(comparison_operator (_) ["in" "not in"] @name . [(identifier) (attribute) (call)] @receiver) @reference.contains

; truthiness: `if x:`, `while x:`, `not x`, `assert x` call x.__bool__ (or x.__len__ without one; made in finalize)
(if_statement condition: [(identifier) (attribute)] @receiver @name) @reference.truth
(elif_clause condition: [(identifier) (attribute)] @receiver @name) @reference.truth
(while_statement condition: [(identifier) (attribute)] @receiver @name) @reference.truth
(not_operator argument: [(identifier) (attribute)] @receiver @name) @reference.truth
(assert_statement . [(identifier) (attribute)] @receiver @name) @reference.truth

; unittest's assertions run the same methods: `assertIn(k, x)` x.__contains__, `assertTrue(x)` x.__bool__,
; `assertEqual(a, b)` as `a == b` (made in finalize)
((call function: (attribute attribute: (identifier) @_assert) arguments: (argument_list . (_) @name . [(identifier) (attribute) (call)] @receiver)) @reference.contains
  (#any-of? @_assert "assertIn" "assertNotIn"))
((call function: (attribute attribute: (identifier) @_assert) arguments: (argument_list . [(identifier) (attribute)] @receiver @name)) @reference.truth
  (#any-of? @_assert "assertTrue" "assertFalse"))
((call function: (attribute attribute: (identifier) @_assert) arguments: (argument_list . [(identifier) (attribute) (call)] @receiver @name)) @reference.equality
  (#any-of? @_assert "assertEqual" "assertNotEqual"))
((call function: (attribute attribute: (identifier) @_assert) arguments: (argument_list . (_) . [(identifier) (attribute) (call)] @receiver @name)) @reference.equality
  (#any-of? @_assert "assertEqual" "assertNotEqual"))

; context managers: `with EXPR [as x]` calls EXPR.__enter__ and EXPR.__exit__ (split in finalize)
(with_item value: [(identifier) (attribute) (call)] @name) @reference.with
(with_item value: (as_pattern . [(identifier) (attribute) (call)] @name)) @reference.with
; `x = y` in a with statement's `as` target binds the entered value: kept simple, the target is typed
(with_item value: (as_pattern . (call function: [(identifier) (attribute)] @receiver) alias: (as_pattern_target (identifier) @name))) @reference.assign
