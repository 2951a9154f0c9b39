; Syntax highlighting for Relay text (TVM 0.0.5), for editors that use tree-sitter queries.

(line_comment) @comment
(block_comment) @comment
(version) @preproc
(metadata) @comment

[
  "def" "fn" "let" "if" "else" "match" "match?" "type" "extern"
  "free_var" "ref" "ref_read" "ref_write"
] @keyword

"Tensor" @type.builtin
(type_name (identifier) @type)
(type_call name: (identifier) @type)
(tensor_type dtype: (identifier) @type.builtin)
(type_definition name: (identifier) @type)
(extern_type_definition name: (identifier) @type)
(type_params (identifier) @type.parameter)
(incomplete_type) @type
(any_dim) @constant.builtin

(constructor_definition name: (identifier) @constructor)
(constructor_pattern constructor: (identifier) @constructor)
(wildcard_pattern) @variable.builtin

(function_definition name: (global) @function)
(global) @function
(call callee: (name) @function.call)
(attribute key: (name) @property)

(local) @variable
(graph_var) @variable.special
(param name: (local) @variable.parameter)
(meta_ref) @constant

(integer) @number
(float) @number
(boolean) @boolean
(string) @string

[ "=" "=>" "*" "/" "+" "-" "<" "<=" ">" ">=" "==" "!=" ] @operator
[ "(" ")" "[" "]" "{" "}" ] @punctuation.bracket
[ "," ";" ":" "." ] @punctuation.delimiter
