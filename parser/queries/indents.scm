; Indentation of Relay text as TVM's printer lays it out: two spaces per level inside braces,
; brackets and parentheses (the capture names of nvim-treesitter's and Helix's indent queries).
[
  (body)
  (block)
  (match)
  (type_definition)
  (arguments)
  (param_list)
  (tuple)
  (attribute_list)
] @indent.begin

[ "}" "]" ")" ] @indent.branch @indent.end

(block_comment) @indent.auto
(metadata) @indent.ignore
