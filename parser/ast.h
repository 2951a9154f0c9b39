/*
 * The Relay AST: one struct per syntactic category, every node in an arena, every node with a
 * source span and the comments attached to it.  This header is the map of the parser library:
 *
 *   parse.c     text -> tree-sitter tree -> AST (syntax errors, input checks)
 *   lower.c     tree-sitter tree -> AST (lower.h)
 *   literal.c   literal spellings -> values, and their checks (literal.h)
 *   comments.c  attaches `/ * ty=... * /` and other comments to the node they follow
 *   build.c     making nodes in a program (the generator, the reducer, the mutator)
 *   clone.c     deep copies of a module or an expression
 *   children.c  an expression's sub-expressions, in one order (ast_children)
 *   print.c     AST -> canonical text (TVM's layout)
 *   dump.c      AST -> S-expression without spans (for diffing two ASTs)
 *   join.c      several modules as one, for rfmt --join (join.h)
 *   rfmt.c      the rfmt command
 *   grammar.js, src/  the tree-sitter grammar and the parser generated from it (src/scanner.c:
 *               nested comments and #[metadata])
 *   queries/    editors' highlighting, folds, indents and locals; test/corpus/ the grammar's
 *               tests; bindings/ (with Cargo.toml, binding.gyp, package.json, tree-sitter.json)
 *               the grammar for Rust and Node
 *   vendor/tree-sitter/  tree-sitter's runtime (0.20.8), built into relaykit (its README.md says
 *               why: Debian's 0.20.7 corrupts its heap on a node of more than 65,535 children)
 *
 * The AST keeps what the text says, not what it means: parentheses, graph numbers (`%3`),
 * literal spellings (`1e-05f`) and name spellings survive, so printing a parsed file gives the
 * same program back.  Meaning (which name is an operator, which a constructor) is the type
 * checker's business.
 */
#ifndef RELAYKIT_AST_H
#define RELAYKIT_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../support/arena.h"
#include "../support/diag.h"

typedef struct AstComment AstComment;
typedef struct AstExpr AstExpr;
typedef struct AstType AstType;
typedef struct AstPattern AstPattern;

/* Where a node came from.  Nodes made by a program (not parsed) have line == 0. */
typedef struct AstSpan {
  uint32_t start, end;  /* byte range in the source */
  uint32_t line, col;   /* 1-based position of `start` */
} AstSpan;

/* A comment kept with the node it follows: TVM's `/ * ty=T span=S * /`, or a user's comment. */
struct AstComment {
  const char *text;  /* verbatim, delimiters included; line comments are kept as block comments */
  AstComment *next;
};

/* Fields every node starts with, so comments can be attached without knowing the node's kind. */
struct Type;

typedef struct AstNode {
  AstSpan span;
  AstComment *comments;
  const struct Type *type; /* filled by type inference (typegen/infer/infer.c); NULL before */
  bool opaque;             /* a call of an operator the registry does not know, typed from its
                              `/ * ty=... * /` comment (typegen/infer/infer.c): the printer keeps that
                              comment whatever its options, since nothing else types the call */
} AstNode;

/* key=value, in calls, function parameter lists and `%x {k=v}` parameter attributes. */
typedef struct AstAttr {
  AstNode node;
  const char *key;  /* possibly dotted: relay.reshape_only */
  AstExpr *value;   /* an AST_INT/FLOAT/BOOL/STRING/NAME/META/ANY/LIST/PAREN expression */
} AstAttr;

typedef struct AstAttrs {
  AstAttr **items;
  size_t len;
} AstAttrs;

/* ------------------------------------------------------------------ types */
typedef enum AstTypeKind {
  AST_TY_TENSOR,      /* Tensor[(1, ?, 3), float32] */
  AST_TY_NAME,        /* float32, int, A (type variable), Storage (ADT) */
  AST_TY_CALL,        /* List[A], Storage[] */
  AST_TY_TUPLE,       /* (), (T,), (T, U) */
  AST_TY_FUNC,        /* fn [A](A) -> A */
  AST_TY_REF,         /* ref(T) (printer-only) */
  AST_TY_INCOMPLETE,  /* _ */
  AST_TY_META,        /* meta[IncompleteType][0] (printer-only) */
} AstTypeKind;

/* One dimension of a tensor shape. */
typedef struct AstDim {
  enum { AST_DIM_INT, AST_DIM_ANY, AST_DIM_META } kind;
  const char *text;  /* spelling: "3", "3i64", "?", "meta[tir.SizeVar][0]" */
} AstDim;

struct AstType {
  AstNode node;
  AstTypeKind kind;
  const char *name;      /* NAME, CALL: the name; TENSOR: dtype ("" for void); META: the ref */
  AstDim *dims;          /* TENSOR */
  size_t ndims;
  AstType **args;        /* CALL: arguments; TUPLE: fields; FUNC: parameter types; REF: [0] */
  size_t nargs;
  const char **type_params;  /* FUNC */
  size_t ntype_params;
  AstType *ret;          /* FUNC */
};

/* ------------------------------------------------------------------ expressions */
typedef enum AstExprKind {
  /* atoms */
  AST_INT,       /* text: "1", "-42i64"; see literal.h for the value */
  AST_FLOAT,     /* text: "1e-05f", "3f16", "-inff" */
  AST_BOOL,      /* text: "True" / "False" */
  AST_STRING,    /* text with quotes (attribute values only) */
  AST_LOCAL,     /* text: name without '%' */
  AST_GRAPH,     /* text: digits without '%' */
  AST_GLOBAL,    /* text: name without '@' */
  AST_NAME,      /* text: operator or constructor name, possibly dotted */
  AST_META,      /* text: "meta[relay.Constant][0]" */
  AST_ANY,       /* `?` (attribute values only) */
  /* compound */
  AST_CALL,      /* callee(args, attrs) */
  AST_BINARY,    /* lhs op rhs (hand-written only; TVM prints calls) */
  AST_TUPLE,     /* (a, b), (a,), () */
  AST_PROJ,      /* tuple.index */
  AST_PAREN,     /* (e): kept so that printing does not change the tree */
  AST_FN,        /* fn [A](params, attrs) -> T { body } */
  AST_IF,        /* if (cond) { then } else { else } */
  AST_MATCH,     /* match (e) { arms }, match? ... */
  AST_REF,       /* ref(e) */
  AST_REF_READ,  /* ref_read(e) */
  AST_REF_WRITE, /* ref_write(r, v) */
  AST_SEQ,       /* statements; result — a body with bindings */
  AST_BLOCK,     /* { e } used as a sequence item (TVM prints match arms this way) */
  AST_LIST,      /* [a, b] (attribute values only) */
} AstExprKind;

/* A variable being bound: parameter, let, free_var. */
typedef struct AstBinder {
  AstNode node;
  const char *name;  /* without '%' */
  AstAttrs attrs;    /* `%x {virtual_device=...}` parameter attributes */
  AstType *type;     /* annotation, or NULL */
} AstBinder;

typedef enum AstStmtKind {
  AST_STMT_LET,    /* let binder = value; */
  AST_STMT_GRAPH,  /* %N = value; */
  AST_STMT_FREE,   /* free_var binder; */
  AST_STMT_EXPR,   /* value;  (evaluated for its effect) */
} AstStmtKind;

typedef struct AstStmt {
  AstNode node;
  AstStmtKind kind;
  AstBinder *binder;  /* LET, FREE */
  const char *graph;  /* GRAPH: the digits */
  AstExpr *value;     /* LET, GRAPH, EXPR */
  const struct Type *value_type; /* filled by type inference */
} AstStmt;

typedef struct AstMatchArm {
  AstNode node;
  AstPattern *pattern;
  AstExpr *body;
} AstMatchArm;

/* Parameters and attributes of `def` and `fn`. */
typedef struct AstFunc {
  const char **type_params;
  size_t ntype_params;
  AstBinder **params;
  size_t nparams;
  AstAttrs attrs;    /* function attributes, after the parameters */
  AstType *ret;      /* or NULL */
  AstExpr *body;
  const struct Type *type; /* the function's type, filled by type inference */
} AstFunc;

struct AstExpr {
  AstNode node;
  AstExprKind kind;
  const char *text;   /* atoms; BINARY: the operator; MATCH: "match" or "match?" */
  AstExpr *a, *b;     /* CALL: callee; BINARY: lhs, rhs; PROJ, PAREN, REF*, BLOCK: a; IF: cond
                         in a; MATCH: scrutinee in a; REF_WRITE: a, b; SEQ: result in a */
  AstExpr **items;    /* CALL: positional arguments; TUPLE: fields; LIST: elements */
  size_t nitems;
  AstAttrs attrs;     /* CALL */
  unsigned index;     /* PROJ */
  const char *index_text; /* PROJ: spelling of the index */
  AstFunc *fn;        /* FN */
  AstExpr *then_, *else_;   /* IF */
  AstMatchArm **arms; /* MATCH */
  size_t narms;
  AstStmt **stmts;    /* SEQ */
  size_t nstmts;
};

/* ------------------------------------------------------------------ patterns */
typedef enum AstPatternKind { AST_PAT_WILDCARD, AST_PAT_VAR, AST_PAT_CTOR, AST_PAT_TUPLE } AstPatternKind;

struct AstPattern {
  AstNode node;
  AstPatternKind kind;
  const char *name;      /* VAR: without '%'; CTOR: constructor */
  AstType *type;         /* VAR: annotation or NULL */
  AstPattern **items;    /* CTOR (when has_args), TUPLE */
  size_t nitems;
  bool has_args;         /* CTOR: written with parentheses */
};

/* ------------------------------------------------------------------ definitions */
typedef struct AstCtorDef {
  AstNode node;
  const char *name;
  AstType **fields;
  size_t nfields;
} AstCtorDef;

typedef enum AstDefKind { AST_DEF_FN, AST_DEF_TYPE, AST_DEF_EXTERN_TYPE } AstDefKind;

typedef struct AstDef {
  AstNode node;
  AstDefKind kind;
  const char *name;      /* FN: without '@'; TYPE: the type's name */
  AstFunc *fn;           /* FN */
  const char **type_params; /* TYPE */
  size_t ntype_params;
  AstCtorDef **ctors;    /* TYPE */
  size_t nctors;
} AstDef;

/* A whole file: module mode (defs) or expression mode (body). */
typedef struct AstModule {
  Arena arena;           /* owns every node */
  bool has_version;      /* starts with #[version = "0.0.5"] */
  AstDef **defs;
  size_t ndefs;
  AstExpr *body;         /* expression mode; NULL in module mode */
  const char *metadata;  /* "#[metadata]..." verbatim to the end of the file, or NULL */
  uint32_t metadata_at;  /* its byte offset in the parsed text, so its errors can be located */
  AstComment *leading;   /* comments before the first node (license headers) */
  unsigned trailing_newlines; /* blank lines at the end, kept as found (1 or 2) */
} AstModule;

/* ------------------------------------------------------------------ building (build.c)
   Nodes made by a program (the generator, the reducer, the mutator) live in the module's arena and
   have no span.  Strings are copied.  Arrays passed in are copied too. */
AstModule *ast_module_new(bool has_version);
AstExpr *ast_new_atom(AstModule *m, AstExprKind kind, const char *text); /* INT..META, ANY */
AstExpr *ast_new_unary(AstModule *m, AstExprKind kind, AstExpr *a);      /* PAREN, BLOCK, REF, REF_READ */
AstExpr *ast_new_ref_write(AstModule *m, AstExpr *ref, AstExpr *value);
AstExpr *ast_new_call(AstModule *m, AstExpr *callee, AstExpr *const *args, size_t nargs, AstAttr *const *attrs,
                      size_t nattrs);
AstExpr *ast_new_tuple(AstModule *m, AstExpr *const *items, size_t n);
AstExpr *ast_new_list(AstModule *m, AstExpr *const *items, size_t n); /* attribute lists */
AstExpr *ast_new_proj(AstModule *m, AstExpr *tuple, unsigned index);
AstExpr *ast_new_if(AstModule *m, AstExpr *cond, AstExpr *then_, AstExpr *else_);
AstExpr *ast_new_match(AstModule *m, bool partial, AstExpr *scrutinee, AstMatchArm *const *arms, size_t n);
AstExpr *ast_new_seq(AstModule *m, AstStmt *const *stmts, size_t n, AstExpr *result); /* result if n == 0 */
AstExpr *ast_new_fn(AstModule *m, AstFunc *f);
AstFunc *ast_new_func(AstModule *m, const char *const *type_params, size_t ntype_params, AstBinder *const *params,
                      size_t nparams, AstType *ret, AstExpr *body);
AstBinder *ast_new_binder(AstModule *m, const char *name, AstType *type);
AstStmt *ast_new_let(AstModule *m, AstBinder *b, AstExpr *value);
AstStmt *ast_new_graph(AstModule *m, unsigned number, AstExpr *value);
AstAttr *ast_new_attr(AstModule *m, const char *key, AstExpr *value);
AstMatchArm *ast_new_arm(AstModule *m, AstPattern *p, AstExpr *body);
AstPattern *ast_new_pattern(AstModule *m, AstPatternKind kind, const char *name, AstPattern *const *items, size_t n);
AstType *ast_new_type(AstModule *m, AstTypeKind kind, const char *name, AstType *const *args, size_t nargs);
AstType *ast_new_tensor_type(AstModule *m, const char *dtype, const char *const *dims, size_t ndims);
AstDef *ast_new_fn_def(AstModule *m, const char *name, AstFunc *f);
AstDef *ast_new_type_def(AstModule *m, const char *name, const char *const *type_params, size_t ntype_params,
                         AstCtorDef *const *ctors, size_t nctors);
AstCtorDef *ast_new_ctor(AstModule *m, const char *name, AstType *const *fields, size_t nfields);
/* Appends a definition to the module. */
void ast_module_add(AstModule *m, AstDef *d);

/* Parses a whole file.  On error returns NULL and writes FILE:LINE:COL messages to `diag`. */
AstModule *ast_parse(const char *text, size_t len, Diag *diag);
/* From now on a parse stops, failing ("interrupted while parsing"), once *flag is non-zero: a
   program that a signal stops need not wait for the rest of a long parse. */
void ast_parse_cancel_on(const size_t *flag);
/* Which tool reads, for the memory it needs: a text that cannot fit is refused before it is
   parsed, with the limit stated, estimated from the text's tokens and bytes at the tool's cost
   (parse.c, measured).  A tool's main sets its own before it reads its input (rreduce and rmutate
   go back to AST_TOOL_READ for their candidates); AST_TOOL_READ (rfmt's) is the default. */
typedef enum AstTool { AST_TOOL_READ, AST_TOOL_CHECK, AST_TOOL_REDUCE, AST_TOOL_MUTATE } AstTool;
void ast_parse_for(AstTool tool);
void ast_free(AstModule *m);
/* A deep copy of m in a fresh arena (clone.c): nodes, arrays, strings, spans and comments are
   copied; the inferred `type`/`value_type`/`fn->type` pointers are kept as they are, so they still
   point into the TyTable m was typed with, which must outlive the copy.  ast_free() the result. */
AstModule *ast_module_clone(const AstModule *m);
/* A deep copy of e into `into`'s arena.  With keep_annotations its comments and inferred types
   come along (code duplicated inside one typed module: an inlined global); without, they are
   dropped (code moved from one module into another: rmutate's crossover). */
AstExpr *ast_expr_copy(AstModule *into, const AstExpr *e, bool keep_annotations);

/* An expression's sub-expressions that are values (not attribute values, types or patterns), one
   slot at a time, in one fixed order: a, b, items, then_, else_, match arm bodies, statement
   values, a closure's body.  A sequence's result (a) thus comes before its bindings: the order the
   reducer numbers its opportunities in (changing it would renumber them); walks that need the
   bindings first (the scoped walk) handle sequences themselves.  Empty slots are skipped.
     for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));) ...  */
typedef struct AstChildren {
  AstExpr *e;
  unsigned part;
  size_t i;
} AstChildren;
AstChildren ast_children(AstExpr *e);
AstExpr **ast_next_child(AstChildren *it);

/* Options of the printer. */
typedef struct AstPrintOptions {
  bool strip_types;     /* drop `/ * ty=... * /` (and span) comments TVM writes */
  bool strip_comments;  /* drop every comment, license headers too (a reduced program's last step) */
  bool keep_spans;      /* with strip_types: drop only the ty= comments, keep span= ones */
  /* When set, nodes with a type (AstNode.type) get `/ * ty=T * /` as TVM writes it, replacing
     any ty comment they had and merging with their span comment: `/ * ty=T span=S * /`.
     Returns the spelling of a type, malloc'd, or NULL when it is longer than max bytes (max 0:
     any length). */
  char *(*type_text)(const struct Type *type, size_t max);
  /* With type_text: a type whose spelling is longer than this many bytes is not written (0: no
     limit), save on an opaque call, which nothing else types.  A closure's type holds the types
     of all the closures inside it, so writing each one grows as the nesting depth squared. */
  size_t max_type_text;
  /* When set, called as each expression, binder or statement that has comments starts to be
     printed, with its byte offset in the output: where a marked node ended up, without parsing
     the output again.  A block (AST_SEQ) is reported where its result starts: its comments,
     which follow the result, are the result's (TVM writes them there).  Attributes and types
     with comments are reported too. */
  void (*node_start)(const AstNode *node, size_t offset, void *ctx);
  void *node_ctx;
  bool every_node; /* node_start for every expression, binder and statement, comments or not */
} AstPrintOptions;

/* Canonical text of a module, in TVM's layout; free() the result. */
char *ast_print(const AstModule *m, const AstPrintOptions *opts);
/* The " span=S * /" part that ends a TVM `/ * ty=T span=S * /` comment, or NULL. */
const char *ast_comment_span(const char *comment);
/* The AST as an S-expression without spans or comments; free() the result. */
char *ast_dump(const AstModule *m);

#endif
