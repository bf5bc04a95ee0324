; C++ only (with c.scm): classes, references, templates, qualified names, new

(class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class
(function_definition declarator: (reference_declarator (function_declarator declarator: (_) @name parameters: (parameter_list) @params)) body: (compound_statement) @body) @definition.function

; inheritance: class A : public B, private ns::C<T>
([(class_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) (struct_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base))]) @inherit

; calls: ns::f(), std::make_unique<T>(), obj.template get<T>(), new Foo(…)
(call_expression function: [(qualified_identifier) (template_function)] @callee arguments: (argument_list) @args) @reference.call
(new_expression type: [(type_identifier) (qualified_identifier) (template_type)] @callee arguments: (argument_list)? @args) @reference.call

; local type facts for the resolver: parameters, locals and members (members at class scope)
(parameter_declaration type: [(type_identifier) (template_type)] @receiver declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (reference_declarator (identifier) @name)]) @reference.assign
(declaration type: [(type_identifier) (template_type)] @receiver declarator: [(identifier) @name (init_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name)]) (pointer_declarator declarator: (identifier) @name)]) @reference.assign
(field_declaration type: [(type_identifier) (template_type)] @receiver declarator: [(field_identifier) @name (pointer_declarator declarator: (field_identifier) @name)]) @reference.assign
