/*
 * Type inference over a whole module, as TVM's InferType does it: every expression, binder and
 * pattern variable gets a type (AstNode.type), or the first error is reported at its location.
 * Sits on the operator registry (typegen/ops/) for calls of operators and on typegen/types/; its
 * files include this header, ../ops/ops.h (which brings ../types/types.h), parser/ and support/.
 *
 *   infer.c       expressions, bindings, functions, globals, type definitions, constructors,
 *                 patterns, calls of operators
 *   exhaust.c     exhaustiveness of `match` (TVM's UnmatchedCases)
 *   scope.c       what TVM checks of a bare expression: names in scope, meta references
 *   metadata.c    the #[metadata] section: its JSON, the types of meta[relay.Constant][i]
 *   meta_attrs.c  call attributes held in the section, back into the calls
 *   check_text.c  parse, then check as TVM's parser does (the entry the tools use)
 *   rcheck.c      the rcheck program
 */
#ifndef RELAYKIT_INFER_H
#define RELAYKIT_INFER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../parser/ast.h"
#include "../ops/ops.h"

/* Infers the types of `m`.  Types are made in `types`.  Returns false after reporting the first
   error to `diag` (FILE:LINE:COL of the offending expression). */
bool infer_module(AstModule *m, TyTable *types, Diag *diag);

/* What TVM checks of a parsed expression (expression mode runs no InferType): variables bound
   in scope, names and meta references that resolve (scope.c).  False after reporting. */
bool scope_check_module(const AstModule *m, Diag *diag);

/* Parses `text` and checks it as TVM's parser does: a module is type-checked (types made in a new
   table), a bare expression only scope-checked, or refused when !expressions_ok (the reducer and
   the mutator need a typed @main).  On failure *m and *types are NULL and diag holds the first
   error (check_text.c). */
bool check_text(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag);
/* The same; *parsed (if not NULL) says whether the text parsed, so a caller with a weaker check
   in reserve does not parse a text that cannot parse a second time (100 MB of garbage: minutes). */
bool check_text_parsed(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag,
                       bool *parsed);

/* ------------------------------------------------------------------ exhaustiveness (exhaust.c) */
/* Does every value of the scrutinee's type match some arm?  (`match?` skips the check.)  What the
   check needs to know of the program's ADTs: */
typedef struct AdtInfo {
  /* The constructors of ADT `adt` (in definition order) and their field types, or 0 if unknown. */
  size_t (*ctors)(void *ctx, const char *adt, const char *const **names, const Type *const *const **fields,
                  const size_t **nfields);
  void *ctx;
} AdtInfo;

/* True if the arms' patterns cover every value of `scrutinee`.  When they do not, writes an
   example of an unmatched value (like "Cons(_, Nil)") to `missing`. */
bool match_is_exhaustive(AstMatchArm *const *arms, size_t narms, const Type *scrutinee, const AdtInfo *adts,
                         char *missing, size_t missing_len);

/* ------------------------------------------------------------------ #[metadata] (metadata.c, meta_attrs.c) */
typedef struct MetaConst {
  DType dtype;
  size_t ndims;
  int64_t dims[16];
} MetaConst;

typedef struct MetaTable {
  MetaConst *consts; /* meta[relay.Constant][i], in index order */
  size_t nconsts;
} MetaTable;

/* Reads the section (text from "#[metadata]" to the end, or NULL for none).  Each constant's
   shape and dtype come from the header of its base64 NDArray.  False with a message on error and,
   when `where` is not NULL, the byte offset in the section the message is about. */
bool meta_table_init(MetaTable *t, const char *metadata, char *err, size_t errlen, size_t *where);
void meta_table_free(MetaTable *t);
/* The type of a reference like "meta[relay.Constant][3]", or NULL if the table has no such entry. */
const Type *meta_constant_type(const MetaTable *t, TyTable *types, const char *ref);

/* Whether `ref` names a constant of the table. */
bool meta_has_constant(const MetaTable *t, const char *ref);

/* TVM's node graph (SaveJSON) in a section ("#[metadata]" then the JSON): the parsed JSON
   (json_decref it), or NULL with a message.  The one reader of that JSON: the table above and
   the reducer's rewrite (reduce/meta_json.c) both start here. */
json_t *meta_json_load(const char *section, char *err, size_t errlen, size_t *where);
/* Reports a section error (err, at `where` in the section) at its place in the text `diag`
   holds when that text is the one `m` was parsed from, else at the start. */
struct AstModule;
struct Diag;
void meta_report(struct Diag *diag, const struct AstModule *m, const char *err, size_t where);
/* Call attributes the section holds (a call's last argument meta[relay.attrs.X][i], as TVM prints
   the attributes of ops registered without an attrs type) become written attributes of their
   calls, attrs_type_key included where TVM's parser needs it (meta_attrs.c).  False with a
   message at the reference when one cannot be read.  Every load runs it before checking. */
bool meta_inline_attrs(struct AstModule *m, struct Diag *diag);
/* Whether e is such a reference (meta[relay.attrs....]): an unknown op's call keeps it as its
   attributes, which nothing types. */
struct AstExpr;
bool meta_is_attrs_ref(const struct AstExpr *e);
/* The Array node listing the constants, root map's "relay.Constant" entry; NULL if there is none. */
json_t *meta_json_constant_list(json_t *root);

#endif
