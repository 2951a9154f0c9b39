; Foldable regions of Relay text: definitions, closures, branches, matches, the metadata blob.
[
  (function_definition)
  (type_definition)
  (function)
  (body)
  (block)
  (match)
  (match_arm)
  (tuple)
  (arguments)
  (metadata)
  (block_comment)
] @fold
