; The part of the JavaScript queries that the javascript, typescript and tsx grammars share.
; javascript.scm / typescript.scm add what differs (class fields and heritage, TypeScript declarations).

; definitions
(class_declaration name: (_) @name body: (class_body) @body) @definition.class
(variable_declarator name: (identifier) @name value: (class body: (class_body) @body)) @definition.class
(function_declaration name: (identifier) @name parameters: (formal_parameters) @params body: (statement_block) @body) @definition.function
(generator_function_declaration name: (identifier) @name parameters: (formal_parameters) @params body: (statement_block) @body) @definition.function
(class_body (method_definition name: [(property_identifier) (private_property_identifier)] @name parameters: (formal_parameters) @params body: (statement_block) @body) @definition.function)
(variable_declarator name: (identifier) @name value: [(arrow_function parameters: (formal_parameters) @params body: (_) @body) (arrow_function parameter: (identifier) @params body: (_) @body) (function_expression parameters: (formal_parameters) @params body: (statement_block) @body) (generator_function parameters: (formal_parameters) @params body: (statement_block) @body)]) @definition.function
; obj.m = function () {}, Foo.prototype.m = …, exports.m = …
(assignment_expression left: (member_expression property: (property_identifier) @name) right: [(arrow_function parameters: (formal_parameters) @params body: (_) @body) (arrow_function parameter: (identifier) @params body: (_) @body) (function_expression parameters: (formal_parameters) @params body: (statement_block) @body)]) @definition.function

; tests: describe("…", () => {…}), it.only("…", function () {…})
((call_expression function: (identifier) @_fn arguments: (arguments . [(string) (template_string)] @name . [(arrow_function) (function_expression)])) @definition.test
  (#any-of? @_fn "describe" "context" "suite" "it" "test" "specify"))
((call_expression function: (member_expression object: (identifier) @_fn property: (property_identifier) @_mod) arguments: (arguments . [(string) (template_string)] @name . [(arrow_function) (function_expression)])) @definition.test
  (#any-of? @_fn "describe" "context" "suite" "it" "test" "specify")
  (#any-of? @_mod "only" "skip" "todo" "concurrent" "failing" "sequential"))

; calls: f(), obj.m(), a?.b(), new Foo()
(call_expression function: [(identifier) (member_expression)] @callee arguments: (arguments) @args) @reference.call
(new_expression constructor: [(identifier) (member_expression)] @callee arguments: (arguments)? @args) @reference.call

; functions passed by name: arr.map(fn), el.addEventListener("click", onClick)
(arguments (identifier) @name) @reference.ref

; imports and re-exports
(import_statement (import_clause (identifier) @import.default) source: (string (string_fragment) @import.module)) @import
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_)? @import.alias))) source: (string (string_fragment) @import.module)) @import
(import_statement (import_clause (namespace_import (identifier) @import.alias) @import.wildcard) source: (string (string_fragment) @import.module)) @import
(import_statement . "import" . source: (string (string_fragment) @import.module)) @import
(export_statement (export_clause (export_specifier name: (_) @import.name alias: (_)? @import.alias)) source: (string (string_fragment) @import.module)) @import
(export_statement "*" @import.wildcard source: (string (string_fragment) @import.module)) @import
(export_statement (namespace_export (_) @import.alias) @import.wildcard source: (string (string_fragment) @import.module)) @import
((variable_declarator name: (identifier) @import.alias value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_req "require"))
((variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @import.name) value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_req "require"))
((variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)) value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @import.module) .))) @import
  (#eq? @_req "require"))

; local type facts for the resolver: const x = new Foo()
(variable_declarator name: (identifier) @name value: (new_expression constructor: [(identifier) (member_expression)] @receiver)) @reference.assign
