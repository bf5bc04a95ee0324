; definitions
(class_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @definition.struct
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list) @body) @definition.enum
(method_declaration name: (identifier) @name parameters: (parameter_list) @params body: (_)? @body) @definition.function
(constructor_declaration name: (identifier) @name parameters: (parameter_list) @params body: (_)? @body) @definition.function
(local_function_statement name: (identifier) @name parameters: (parameter_list) @params body: (_)? @body) @definition.function

; inheritance: the base list names the base class and the interfaces
([(class_declaration (base_list (_) @base)) (record_declaration (base_list (_) @base)) (struct_declaration (base_list (_) @base)) (interface_declaration (base_list (_) @base))]) @inherit

; calls: M(), obj.M(), Foo.Bar.M(), obj?.M(), M<T>(), new Foo(…)
(invocation_expression function: [(identifier) (generic_name) (member_access_expression)] @callee arguments: (argument_list) @args) @reference.call
(invocation_expression function: (conditional_access_expression condition: (_) @receiver (member_binding_expression name: (_) @callee)) arguments: (argument_list) @args) @reference.call
(object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @callee arguments: (argument_list)? @args) @reference.call

; method groups passed by name: Run(Handler), list.ForEach(Print)
(argument_list (argument . (identifier) @name .)) @reference.ref

; attributes
(attribute name: (_) @name) @reference.decorator

; using directives (csharp.py tells namespace imports from aliases)
(using_directive name: (identifier) @import.alias (_) @import.module) @import
(using_directive !name [(identifier) (qualified_name)] @import.module) @import

; local type facts for the resolver: parameters, locals and fields (fields at class scope), var x = new Foo()
(parameter type: [(identifier) (qualified_name) (generic_name)] @receiver name: (identifier) @name) @reference.assign
(variable_declaration type: [(identifier) (qualified_name) (generic_name)] @receiver (variable_declarator name: (identifier) @name)) @reference.assign
(variable_declarator name: (identifier) @name (object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @receiver)) @reference.assign
