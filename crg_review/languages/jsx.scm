; JSX (javascript and tsx grammars): a component element is a call of the component; lowercase tags are HTML
((jsx_opening_element name: (identifier) @callee) @reference.call (#match? @callee "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @callee) @reference.call (#match? @callee "^[A-Z]"))
(jsx_opening_element name: (member_expression) @callee) @reference.call
(jsx_self_closing_element name: (member_expression) @callee) @reference.call
