; C, and the part of the C++ queries the two grammars share (cpp.scm adds classes, namespaces, new)

; definitions: functions (the name sits in a declarator chain: int *f(void), char **g(void))
(function_definition declarator: (function_declarator declarator: (_) @name parameters: (parameter_list) @params) body: (compound_statement) @body) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name parameters: (parameter_list) @params)) body: (compound_statement) @body) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name parameters: (parameter_list) @params))) body: (compound_statement) @body) @definition.function
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum
; typedef struct { … } Name;
(type_definition type: (struct_specifier !name body: (field_declaration_list) @body) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (enum_specifier !name body: (enumerator_list) @body) declarator: (type_identifier) @name) @definition.enum

; calls: f(), s->f(), s.f()
(call_expression function: [(identifier) (field_expression)] @callee arguments: (argument_list) @args) @reference.call

; functions passed by name: qsort(a, n, size, compare), signal(SIGINT, on_interrupt)
(argument_list (identifier) @name) @reference.ref

; includes: "local.h" and <system.h>
(preproc_include path: [(string_literal) (system_lib_string)] @import.module) @import
