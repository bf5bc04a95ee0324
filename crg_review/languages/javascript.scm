; JavaScript only (with ecmascript.scm and jsx.scm): class fields and heritage

(class_body (field_definition property: [(property_identifier) (private_property_identifier)] @name value: [(arrow_function parameters: (formal_parameters) @params body: (_) @body) (arrow_function parameter: (identifier) @params body: (_) @body) (function_expression parameters: (formal_parameters) @params body: (statement_block) @body)]) @definition.function)

; inheritance: class A extends B, const A = class extends B {}
(class_declaration (class_heritage (_) @base)) @inherit
(variable_declarator value: (class (class_heritage (_) @base))) @inherit
