; TypeScript only (with ecmascript.scm; tsx adds jsx.scm): declarations, class fields, heritage, types

; definitions
(abstract_class_declaration name: (_) @name body: (class_body) @body) @definition.class
(interface_declaration name: (_) @name body: (interface_body) @body) @definition.interface
(enum_declaration name: (_) @name body: (enum_body) @body) @definition.enum
(class_body (public_field_definition name: [(property_identifier) (private_property_identifier)] @name value: [(arrow_function parameters: (formal_parameters) @params body: (_) @body) (arrow_function parameter: (identifier) @params body: (_) @body) (function_expression parameters: (formal_parameters) @params body: (statement_block) @body)]) @definition.function)
(class_body (abstract_method_signature name: (_) @name parameters: (formal_parameters) @params) @definition.function)
(interface_body (method_signature name: (_) @name parameters: (formal_parameters) @params) @definition.function)

; inheritance: extends / implements of classes, extends of interfaces
([(class_declaration (class_heritage (extends_clause value: (_) @base))) (abstract_class_declaration (class_heritage (extends_clause value: (_) @base)))]) @inherit
([(class_declaration (class_heritage (implements_clause (_) @base))) (abstract_class_declaration (class_heritage (implements_clause (_) @base)))]) @inherit
(variable_declarator value: (class (class_heritage (extends_clause value: (_) @base)))) @inherit
(interface_declaration (extends_type_clause type: (_) @base)) @inherit

; type annotations name the classes and interfaces a function takes and returns
(type_annotation (type_identifier) @name) @reference.type
(type_annotation (generic_type name: (type_identifier) @name)) @reference.type

; import fs = require("fs")
(import_statement (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module))) @import

; `await x.get<T>()` parses as a call of the await expression (grammar quirk with type arguments)
(call_expression function: (await_expression [(identifier) (member_expression)] @callee) arguments: (arguments) @args) @reference.call

; local type facts: typed parameters and variables
(required_parameter pattern: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @receiver)) @reference.assign
(optional_parameter pattern: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @receiver)) @reference.assign
(variable_declarator name: (identifier) @name type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @receiver)) @reference.assign
