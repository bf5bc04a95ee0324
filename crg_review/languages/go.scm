; definitions: types (struct / interface), functions, methods (qualified by their receiver type in go.py)
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type) @body) @definition.interface
(function_declaration name: (identifier) @name parameters: (parameter_list) @params body: (block)? @body) @definition.function
(method_declaration name: (field_identifier) @name parameters: (parameter_list) @params body: (block)? @body) @definition.method

; embedding: struct { Base; *pkg.Other } and interface { io.Reader }
(type_spec type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base)))) @inherit
(type_spec type: (interface_type (type_elem . [(type_identifier) (qualified_type)] @base .))) @inherit

; calls: f(), pkg.F(), x.M(), and struct literals as constructions of their type
(call_expression function: [(identifier) (selector_expression)] @callee arguments: (argument_list) @args) @reference.call
(composite_literal type: [(type_identifier) (qualified_type)] @name) @reference.type

; functions passed by name: http.HandleFunc("/", index), sort.Slice(xs, less)
(argument_list (identifier) @name) @reference.ref

; imports
(import_spec name: (_)? @import.alias path: (_) @import.module) @import

; local type facts for the resolver: parameters and receivers (pointers unwrapped), x := Foo{…} / &Foo{…}, var x Foo
(parameter_declaration name: (identifier) @name type: [(type_identifier) @receiver (qualified_type) @receiver (pointer_type [(type_identifier) (qualified_type)] @receiver)]) @reference.assign
(var_spec name: (identifier) @name type: [(type_identifier) @receiver (qualified_type) @receiver (pointer_type [(type_identifier) (qualified_type)] @receiver)]) @reference.assign
(short_var_declaration left: (expression_list . (identifier) @name .) right: (expression_list . [(composite_literal type: [(type_identifier) (qualified_type)] @receiver) (unary_expression operand: (composite_literal type: [(type_identifier) (qualified_type)] @receiver))] .)) @reference.assign
