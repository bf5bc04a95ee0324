; definitions
(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(record_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(interface_declaration name: (identifier) @name body: (interface_body) @body) @definition.interface
(annotation_type_declaration name: (identifier) @name body: (annotation_type_body) @body) @definition.interface
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(method_declaration name: (identifier) @name parameters: (formal_parameters) @params body: (block)? @body) @definition.function
(constructor_declaration name: (identifier) @name parameters: (formal_parameters) @params body: (constructor_body) @body) @definition.function
(compact_constructor_declaration name: (identifier) @name body: (block) @body) @definition.function

; inheritance
(class_declaration superclass: (superclass (_) @base)) @inherit
(class_declaration interfaces: (super_interfaces (type_list (_) @base))) @inherit
(record_declaration interfaces: (super_interfaces (type_list (_) @base))) @inherit
(enum_declaration interfaces: (super_interfaces (type_list (_) @base))) @inherit
(interface_declaration (extends_interfaces (type_list (_) @base))) @inherit

; calls: m(), obj.m(), Util.m(), this.m(), super.m(), new Foo<>(), this(…) / super(…) in constructors
(method_invocation !object name: (identifier) @callee arguments: (argument_list) @args) @reference.call
(method_invocation object: (_) @receiver name: (identifier) @callee arguments: (argument_list) @args) @reference.call
(object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @callee arguments: (argument_list) @args) @reference.call
(object_creation_expression type: (generic_type [(type_identifier) (scoped_type_identifier)] @callee) arguments: (argument_list) @args) @reference.call

; method references (Foo::bar, this::bar) pass a method by name
(method_reference (_) @receiver . (identifier) @name .) @reference.ref

; annotations
(marker_annotation name: (_) @name) @reference.decorator
(annotation name: (_) @name) @reference.decorator

; imports (java.py splits module and name)
(import_declaration (scoped_identifier) @import.module (asterisk)? @import.wildcard) @import

; local type facts for the resolver: parameters, locals and fields (fields at class scope), var x = new Foo()
(formal_parameter type: [(type_identifier) (scoped_type_identifier) (generic_type)] @receiver name: (identifier) @name) @reference.assign
((local_variable_declaration type: [(type_identifier) (scoped_type_identifier) (generic_type)] @receiver declarator: (variable_declarator name: (identifier) @name)) @reference.assign (#not-eq? @receiver "var"))
(field_declaration type: [(type_identifier) (scoped_type_identifier) (generic_type)] @receiver declarator: (variable_declarator name: (identifier) @name)) @reference.assign
(variable_declarator name: (identifier) @name value: (object_creation_expression type: [(type_identifier) (scoped_type_identifier) (generic_type)] @receiver)) @reference.assign
