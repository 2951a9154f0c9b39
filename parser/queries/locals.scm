; Scopes, definitions and references of Relay text, for editors' "go to definition" and
; "highlight uses" (the capture names Neovim's nvim-treesitter and Helix document).

; scopes: a definition's or closure's parameters and body; a match arm's pattern variables
(function_definition) @local.scope
(function) @local.scope
(match_arm) @local.scope
(type_definition) @local.scope

; definitions
(function_definition name: (global) @local.definition.function)
(param name: (local) @local.definition.parameter)
(binder name: (local) @local.definition.var)
(graph_binding name: (graph_var) @local.definition.var)
(var_pattern name: (local) @local.definition.var)
(type_definition name: (identifier) @local.definition.type)
(constructor_definition name: (identifier) @local.definition.constructor)
(type_params (identifier) @local.definition.type)

; references: every other use of a name
(local) @local.reference
(graph_var) @local.reference
(global) @local.reference
