/**
 * Tree-sitter grammar for Apache TVM's Relay IR text format, version 0.0.5.
 *
 * Follows ../shared/relay-text-format.md (TVM v0.13.0's tokenizer.h / parser.cc).  The grammar
 * accepts module files (definitions), expression files (one expression sequence) and the
 * printer-only forms TVM writes but cannot read back (§7): `ref(T)` and `fn [A](A) -> A` types,
 * `Tensor[(2), ]`, `meta[..][..]` types, `let %x = match ..;` and `let %x = let %y = ..;`.
 *
 * Section numbers in comments refer to the specification.
 */

// A comma-separated list with an optional trailing comma (§3, list(X)).
const commaSep = (rule) => optional(commaSep1(rule));
const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)), optional(','));

// `[A](params) -> T { body }`, shared by `def @f` and `fn` (§3.2).
const functionRest = ($) => [
  optional(field('type_params', $.type_params)),
  field('params', $.param_list),
  optional(seq('-', '>', field('return_type', $._type))),
  field('body', $.body),
];

const PREC = {
  compare_eq: 7,
  compare: 8,
  additive: 10,
  multiplicative: 12,
  call: 20,
  projection: 21,
};

module.exports = grammar({
  name: 'relay',

  // Nested block comments and the #[metadata] blob need a scanner (§2.2, §2.3).
  externals: ($) => [$.block_comment, $.metadata],

  extras: ($) => [/[ \t\r\n]/, $.line_comment, $.block_comment],

  word: ($) => $.identifier,

  conflicts: ($) => [
    // `(e)` is a parenthesised expression; `(e,)` a tuple: decided after `e`.
    [$.tuple, $.parenthesized],
  ],

  rules: {
    // §1: one root for module mode, expression mode and header-less str() dumps.
    source_file: ($) =>
      seq(
        optional($.version),
        optional(choice(repeat1($._definition), $._sequence_or_item)),
        optional($.metadata),
      ),

    // #[version = "0.0.5"]; the value is checked when lowering.
    version: ($) => token(seq('#[', /[ \t]*version[^\]\n]*/, ']')),

    line_comment: ($) => token(seq('//', /[^\n]*/)),

    // ---------------------------------------------------------------- §3.1 definitions
    _definition: ($) => choice($.function_definition, $.type_definition, $.extern_type_definition),

    // def @f[A](%x: A, attr=1) -> A { body }
    function_definition: ($) => seq('def', field('name', $.global), ...functionRest($)),

    // type List[A] { Cons(A, List[A]), Nil }
    type_definition: ($) =>
      seq(
        'type',
        field('name', $.identifier),
        optional(field('type_params', $.type_params)),
        optional(seq('{', commaSep($.constructor_definition), '}')),
      ),

    extern_type_definition: ($) =>
      seq('extern', 'type', field('name', $.identifier), optional(field('type_params', $.type_params))),

    constructor_definition: ($) =>
      seq(field('name', $.identifier), optional(seq('(', commaSep(field('field', $._type)), ')'))),

    type_params: ($) => seq('[', commaSep($.identifier), ']'),

    // §3.2: parameters, then key=value function attributes, one comma list.
    param_list: ($) => seq('(', commaSep(choice($.param, $.attribute)), ')'),

    param: ($) =>
      seq(
        field('name', $.local),
        optional(seq('{', commaSep(field('attribute', $.attribute)), '}')),
        optional(seq(':', field('type', $._type))),
      ),

    body: ($) => seq('{', $._sequence_or_item, '}'),

    // ---------------------------------------------------------------- §3.3 sequences
    // A sequence is bindings and statements followed by one value; a single item needs no node.
    _sequence_or_item: ($) => choice($.sequence, $._sequence_item),

    sequence: ($) => seq(repeat1($._statement), field('result', $._sequence_item)),

    _statement: ($) => choice($.let_binding, $.graph_binding, $.free_var, $.expression_statement),

    // `e1; e2`: e1 is evaluated for its effect.
    expression_statement: ($) => seq($._sequence_item, ';'),

    let_binding: ($) => seq('let', field('binder', $.binder), '=', field('value', $._binding_value), ';'),

    graph_binding: ($) => seq(field('name', $.graph_var), '=', field('value', $._binding_value), ';'),

    free_var: ($) => seq('free_var', field('binder', $.binder), ';'),

    binder: ($) => seq(field('name', $.local), optional(seq(':', field('type', $._type)))),

    // TVM reads only an expression here; its printer also writes `match` and bare let chains (§7).
    _binding_value: ($) => choice($._expression, $.match, $.binding_sequence),

    // `let %x = let %y = v; %y;`: a let chain used as a let value, as TVM prints it.  It holds no
    // expression statements, so the `;` after its result ends the enclosing binding.
    binding_sequence: ($) =>
      seq(repeat1(choice($.let_binding, $.graph_binding)), field('result', $._expression)),

    // §0.5: match and blocks are sequence items, not operands.
    _sequence_item: ($) => choice($._expression, $.match, $.block),

    block: ($) => seq('{', $._sequence_or_item, '}'),

    // ---------------------------------------------------------------- §3.4 expressions
    _expression: ($) => choice($.binary_expression, $._call_or_atom),

    binary_expression: ($) => {
      const table = [
        [PREC.multiplicative, choice('*', '/')],
        [PREC.additive, choice('+', '-')],
        [PREC.compare, choice('<', '<=', '>', '>=')],
        [PREC.compare_eq, choice('==', '!=')],
      ];
      return choice(
        ...table.map(([p, op]) =>
          prec.left(p, seq(field('left', $._expression), field('operator', op), field('right', $._expression))),
        ),
      );
    },

    _call_or_atom: ($) => choice($.call, $._atomic),

    call: ($) => prec(PREC.call, seq(field('callee', $._call_or_atom), field('arguments', $.arguments))),

    arguments: ($) => seq('(', commaSep(choice($._sequence_or_item, $.attribute)), ')'),

    _atomic: ($) =>
      choice(
        $.projection,
        $.integer,
        $.float,
        $.boolean,
        $.local,
        $.graph_var,
        $.global,
        $.meta_ref,
        $.name,
        $.function,
        $.if,
        $.ref,
        $.ref_read,
        $.ref_write,
        $.tuple,
        $.parenthesized,
      ),

    // %t.0 — at most one projection, on an atom (§3.4).
    projection: ($) =>
      prec(PREC.projection, seq(field('tuple', $._atomic), '.', field('index', $.integer))),

    // nn.conv2d, Cons, None: an operator or a constructor, told apart by the type checker.
    name: ($) => prec.right(seq($.identifier, repeat(seq('.', $.identifier)))),

    function: ($) => seq('fn', ...functionRest($)),

    if: ($) =>
      seq(
        'if',
        '(',
        field('condition', $._sequence_or_item),
        ')',
        field('then', $.body),
        'else',
        field('else', $.body),
      ),

    ref: ($) => seq('ref', '(', $._sequence_or_item, ')'),
    ref_read: ($) => seq('ref_read', '(', $._sequence_or_item, ')'),
    ref_write: ($) => seq('ref_write', '(', $._sequence_or_item, ',', $._sequence_or_item, ')'),

    // (), (a,), (a, b)
    tuple: ($) =>
      seq(
        '(',
        optional(seq($._sequence_or_item, ',', optional(commaSep1($._sequence_or_item)))),
        ')',
      ),

    parenthesized: ($) => seq('(', $._sequence_or_item, ')'),

    // ---------------------------------------------------------------- §3.5 match
    match: ($) =>
      seq(
        field('keyword', choice('match', 'match?')),
        field('scrutinee', $._atomic),
        '{',
        commaSep($.match_arm),
        '}',
      ),

    match_arm: ($) => seq(field('pattern', $._pattern), '=>', field('body', $._sequence_or_item)),

    _pattern: ($) => choice($.wildcard_pattern, $.var_pattern, $.constructor_pattern, $.tuple_pattern),

    wildcard_pattern: ($) => '_',
    var_pattern: ($) => seq(field('name', $.local), optional(seq(':', field('type', $._type)))),
    constructor_pattern: ($) =>
      seq(field('constructor', $.identifier), optional(seq('(', commaSep($._pattern), ')'))),
    tuple_pattern: ($) => seq('(', commaSep($._pattern), ')'),

    // ---------------------------------------------------------------- §3.6 types
    _type: ($) =>
      choice(
        $.tensor_type,
        $.tuple_type,
        $.function_type,
        $.type_call,
        $.type_name,
        $.ref_type,
        $.incomplete_type,
        $.meta_ref,
      ),

    // Tensor[(1, ?, 3), float32]; the printer writes `Tensor[(2), ]` for a void dtype.
    tensor_type: ($) =>
      seq('Tensor', '[', field('shape', $.shape), ',', optional(field('dtype', $.identifier)), ']'),

    shape: ($) => seq('(', commaSep(choice($.integer, $.any_dim, $.meta_ref)), ')'),

    any_dim: ($) => '?',

    tuple_type: ($) => seq('(', commaSep($._type), ')'),

    function_type: ($) =>
      seq(
        'fn',
        optional(field('type_params', $.type_params)),
        '(',
        commaSep(field('argument', $._type)),
        ')',
        seq('-', '>'),
        field('return_type', $._type),
      ),

    // List[A], Storage[]
    type_call: ($) => seq(field('name', $.identifier), '[', commaSep(field('argument', $._type)), ']'),

    // float32, int, A (type variable), Storage (ADT without arguments)
    type_name: ($) => $.identifier,

    ref_type: ($) => seq('ref', '(', $._type, ')'),

    incomplete_type: ($) => '_',

    // ---------------------------------------------------------------- §3.7 attributes
    attribute: ($) => seq(field('key', $.name), '=', field('value', $._attribute_value)),

    _attribute_value: ($) =>
      choice(
        $.integer,
        $.float,
        $.boolean,
        $.string,
        $.meta_ref,
        $.name,
        $.any_dim,
        $.attribute_list,
        $.attribute_paren,
      ),

    attribute_list: ($) => seq('[', commaSep($._attribute_value), ']'),
    attribute_paren: ($) => seq('(', $._attribute_value, ')'),

    // ---------------------------------------------------------------- §2 tokens
    local: ($) => token(seq('%', /[A-Za-z_][A-Za-z0-9_\/]*/)),
    graph_var: ($) => token(seq('%', /[0-9]+/)),
    global: ($) => token(seq('@', /[A-Za-z_][A-Za-z0-9_\/]*/)),
    identifier: ($) => /[A-Za-z_][A-Za-z0-9_\/]*/,
    boolean: ($) => choice('True', 'False'),

    // Width suffixes are read liberally and checked when lowering, so `1i8` gets a clear error.
    integer: ($) => token(seq(/-*/, /[0-9]+/, optional(seq('i', /[0-9]*/)))),
    float: ($) =>
      token(
        choice(
          seq(/-*/, /[0-9]+/, optional(seq('.', /[0-9]*/)), optional(seq(/[eE]/, /[+-]?/, /[0-9]+/)), 'f', /[0-9]*/),
          seq(/-*/, 'inff'),
        ),
      ),

    // No escapes in TVM's lexer; the printer escapes `\"`, so accept it (§2.7).
    string: ($) => token(seq('"', repeat(choice(/[^"\\]/, /\\(.|\n)/)), '"')),

    // meta[relay.Constant][0]
    meta_ref: ($) => token(seq('meta[', /[^\]]*/, '][', /[^\]]*/, ']')),
  },
});
