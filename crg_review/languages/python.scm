; definitions
(class_definition name: (identifier) @name body: (block) @body) @definition.class
(function_definition name: (identifier) @name parameters: (parameters) @params body: (block) @body) @definition.function

; inheritance: positional superclasses only (metaclass= and other keywords are not bases)
(class_definition superclasses: (argument_list [(identifier) (attribute) (subscript)] @base)) @inherit

; calls: f(), obj.m(), super().m(), f()()
(call function: [(identifier) (attribute)] @callee arguments: (argument_list) @args) @reference.call
(call function: [(identifier) (attribute)] @callee arguments: (generator_expression)) @reference.call

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
(assignment left: (identifier) @name type: (type) @receiver) @reference.assign
(typed_parameter (identifier) @name type: (type) @receiver) @reference.assign
(typed_default_parameter name: (identifier) @name type: (type) @receiver) @reference.assign
(assignment left: [(identifier) (attribute)] @name right: [(identifier) (attribute)] @receiver) @reference.alias

; context managers: `with EXPR [as x]` calls EXPR.__enter__ and EXPR.__exit__ (split in finalize)
(with_item value: [(identifier) (attribute) (call)] @name) @reference.with
(with_item value: (as_pattern . [(identifier) (attribute) (call)] @name)) @reference.with
; `x = y` in a with statement's `as` target binds the entered value: kept simple, the target is typed
(with_item value: (as_pattern . (call function: [(identifier) (attribute)] @receiver) alias: (as_pattern_target (identifier) @name))) @reference.assign
