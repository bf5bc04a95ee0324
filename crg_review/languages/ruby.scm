; definitions
(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module
(method name: (_) @name parameters: (method_parameters)? @params) @definition.function
(singleton_method name: (_) @name parameters: (method_parameters)? @params) @definition.function

; RSpec / minitest-spec / ActiveSupport blocks: describe Foo do … end, it "works" { … }, test "x" do … end
((call !receiver method: (identifier) @_fn arguments: (argument_list . [(string) (constant) (scope_resolution)] @name) block: [(do_block) (block)]) @definition.test
  (#any-of? @_fn "describe" "context" "feature" "it" "specify" "example" "scenario" "test" "shared_examples" "shared_examples_for" "shared_context"))
((call receiver: (constant) @_rspec method: (identifier) @_fn arguments: (argument_list . [(string) (constant) (scope_resolution)] @name) block: [(do_block) (block)]) @definition.test
  (#eq? @_rspec "RSpec") (#any-of? @_fn "describe" "context" "feature" "shared_examples" "shared_context"))

; inheritance: class A < B, and mixins (include / prepend / extend M) in the class or module body
(class superclass: (superclass [(constant) (scope_resolution)] @base)) @inherit
(([(class body: (body_statement (call !receiver method: (identifier) @_mixin arguments: (argument_list [(constant) (scope_resolution)] @base)))) (module body: (body_statement (call !receiver method: (identifier) @_mixin arguments: (argument_list [(constant) (scope_resolution)] @base))))]) @inherit
  (#any-of? @_mixin "include" "prepend" "extend"))

; calls (with or without parentheses; a bare `name` is not a call node); Foo.new(…) is a call of Foo
((call receiver: (_) @receiver method: (_) @callee) @reference.call @args (#not-eq? @callee "new"))
((call receiver: [(identifier) (instance_variable) (self) (call)] @receiver method: (identifier) @callee) @reference.call @args (#eq? @callee "new"))
((call receiver: [(constant) (scope_resolution)] @callee method: (identifier) @_new) @reference.call @args (#eq? @_new "new"))
(call !receiver method: (_) @callee) @reference.call @args

; require "x" / require_relative "../x"
((call !receiver method: (identifier) @_req arguments: (argument_list . (string . (string_content) @import.module .) .)) @import
  (#any-of? @_req "require" "require_relative" "load"))

; local type facts for the resolver: x = Foo.new(…)
((assignment left: (identifier) @name right: (call receiver: [(constant) (scope_resolution)] @receiver method: (identifier) @_new)) @reference.assign
  (#eq? @_new "new"))
