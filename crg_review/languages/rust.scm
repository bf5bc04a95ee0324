; definitions (impl blocks are no symbols: rust.py qualifies their functions by the implemented type)
(struct_item name: (type_identifier) @name body: (_)? @body) @definition.struct
(union_item name: (type_identifier) @name body: (_) @body) @definition.struct
(enum_item name: (type_identifier) @name body: (enum_variant_list) @body) @definition.enum
(trait_item name: (type_identifier) @name body: (declaration_list) @body) @definition.trait
(mod_item name: (identifier) @name body: (declaration_list) @body) @definition.module
(function_item name: (identifier) @name parameters: (parameters) @params body: (block) @body) @definition.function
(function_signature_item name: (identifier) @name parameters: (parameters) @params) @definition.function

; inheritance: supertraits, and `impl Trait for Type` (attributed to Type by rust.py's inherit_owner)
(trait_item bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @base)) @inherit
(impl_item trait: (_) @base type: (_)) @inherit

; calls: f(), x.m(), Type::new(), module::f(); macros (println!) are not calls
(call_expression function: [(identifier) (field_expression) (scoped_identifier) (generic_function)] @callee arguments: (arguments) @args) @reference.call

; functions passed by name: iter.map(parse), spawn(worker)
(arguments (identifier) @name) @reference.ref

; use declarations (rust.py expands use trees)
(use_declaration argument: (_) @import.module) @import
(extern_crate_declaration name: (identifier) @import.module alias: (identifier)? @import.alias) @import

; local type facts for the resolver: typed parameters and lets, let x = Foo::new(…) / Foo { … }
(parameter pattern: (identifier) @name type: [(type_identifier) @receiver (generic_type type: (type_identifier) @receiver) (reference_type type: (type_identifier) @receiver)]) @reference.assign
(let_declaration pattern: (identifier) @name type: [(type_identifier) @receiver (generic_type type: (type_identifier) @receiver) (reference_type type: (type_identifier) @receiver)]) @reference.assign
(let_declaration pattern: (identifier) @name value: [(call_expression function: (scoped_identifier path: (identifier) @receiver)) (struct_expression name: (type_identifier) @receiver)]) @reference.assign
