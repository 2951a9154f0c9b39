/*
 * The type system's values: Relay types, interned, and what is done with them without a program.
 * The lowest layer of typegen/ (the operator registry, inference and the generator build on it);
 * its files include this header, support/ and parser/ only.
 *
 *   type.c      dtypes; construction (hash-consing: two types are equal exactly when they are the
 *               same pointer); printing in TVM's spelling
 *   unify.c     incomplete types (unknowns) and their solutions, found by unification;
 *               substitution of type variables
 *   type_ast.c  types written in a program (AstType) to interned types and back
 *
 * A TyTable owns every type made through it; types from different tables must not be mixed.
 */
#ifndef RELAYKIT_TYPES_H
#define RELAYKIT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../parser/ast.h"
#include "../../support/strbuf.h"

/* ------------------------------------------------------------------ dtypes */
typedef enum DTypeCode { DT_INT, DT_UINT, DT_FLOAT, DT_BFLOAT, DT_VOID } DTypeCode;

/* TVM's DataType: code, bits, lanes.  bool is uint1. */
typedef struct DType {
  uint8_t code;   /* DTypeCode */
  uint8_t bits;
  uint16_t lanes;
} DType;

#define DT(c, b) ((DType){(c), (b), 1})
extern const DType dt_bool, dt_int32, dt_int64, dt_float32, dt_void;

/* "float32", "int" (int32), "bool", "uint1x4", "bfloat16", "" (void).  False if not a dtype. */
bool dtype_parse(const char *s, DType *out);
/* Writes TVM's spelling ("float32", "bool", "int8x4", "" for void) into buf (>= 16 bytes). */
const char *dtype_str(DType d, char *buf);
bool dtype_eq(DType a, DType b);
bool dtype_is_float(DType d);
bool dtype_is_int(DType d); /* int or uint, not bool */
bool dtype_is_bool(DType d);

/* ------------------------------------------------------------------ types */
typedef enum TyKind {
  TY_TENSOR,     /* Tensor[(1, ?, 3), float32]; rank 0 prints as the dtype */
  TY_TUPLE,      /* (a, b) */
  TY_FUNC,       /* fn [A](a, b) -> r */
  TY_REF,        /* ref(T) */
  TY_CALL,       /* List[A], Storage[] (an ADT applied to arguments) */
  TY_VAR,        /* A: a type parameter */
  TY_INCOMPLETE, /* an unknown to be solved by unification; never equal to another */
} TyKind;

enum { TY_DIM_ANY = -1 }; /* the `?` dimension */

typedef struct Type Type;
struct Type {
  TyKind kind;
  DType dtype;               /* TENSOR */
  uint32_t ndims;            /* TENSOR */
  const int64_t *dims;       /* TENSOR: >= 0, or TY_DIM_ANY */
  uint32_t nargs;            /* TUPLE: fields; FUNC: parameters; REF: 1; CALL: arguments */
  const Type *const *args;
  const Type *ret;           /* FUNC */
  uint32_t ntparams;         /* FUNC: type parameters (TY_VAR) */
  const Type *const *tparams;
  const char *name;          /* CALL: the ADT; VAR: the parameter */
  uint32_t id;               /* INCOMPLETE: a number unique in the table */
  bool incomplete;           /* it is or contains an unknown: what unification and substitution
                                leave alone when false (so they need not walk a known type) */
  bool has_vars;             /* it is or contains a type variable (TY_VAR) */
  uint64_t hash;
};

typedef struct TyTable TyTable;

TyTable *ty_table_new(void);
void ty_table_free(TyTable *t);

const Type *ty_tensor(TyTable *t, DType dtype, const int64_t *dims, size_t ndims);
const Type *ty_scalar(TyTable *t, DType dtype);
const Type *ty_tuple(TyTable *t, const Type *const *fields, size_t n);
const Type *ty_func(TyTable *t, const Type *const *params, size_t n, const Type *ret, const Type *const *tparams,
                    size_t ntparams);
const Type *ty_ref(TyTable *t, const Type *inner);
const Type *ty_call(TyTable *t, const char *adt, const Type *const *args, size_t n);
const Type *ty_var(TyTable *t, const char *name);
const Type *ty_incomplete(TyTable *t);
const Type *ty_unit(TyTable *t); /* () */

/* Appends TVM's spelling of a type: `Tensor[(1, 3), float32]`, `(int32,)`, `fn (A) -> B`. */
void ty_print(const Type *ty, StrBuf *out);
/* The same, as a malloc'd string. */
char *ty_str(const Type *ty);
/* The same, or NULL when the spelling is longer than max bytes (0: any length); a long type costs
   no more than max bytes to tell. */
char *ty_str_upto(const Type *ty, size_t max);
/* Whether TVM's parser can read t back as an annotation: no ref(T), no polymorphic function type
   (fn [A]...), no unknowns (spec §7). */
bool ty_is_readable(const Type *t);
/* Number of elements of a static tensor type; -1 if a dimension is `?` or the product overflows int64. */
int64_t ty_num_elements(const Type *ty);

/* ------------------------------------------------------------------ unification (unify.c) */
typedef struct TySubst {
  TyTable *types;
  const Type **solution; /* indexed by an incomplete type's id; NULL while unknown */
  size_t cap;
} TySubst;

void ty_subst_init(TySubst *s, TyTable *types);
void ty_subst_free(TySubst *s);
/* The type with every solved unknown replaced by its solution, recursively. */
const Type *ty_subst_resolve(TySubst *s, const Type *t);
/* Makes a and b equal, solving unknowns; false if they cannot be (a `?` dimension matches any). */
bool ty_unify(TySubst *s, const Type *a, const Type *b);
/* Whether a (resolved) type still contains an unknown. */
bool ty_has_incomplete(const Type *t);
/* t rebuilt with each child type mapped by f (t itself when none changes). */
typedef const Type *(*TyMapFn)(void *ctx, const Type *t);
const Type *ty_map_children(TyTable *types, const Type *t, TyMapFn f, void *ctx);
/* Replaces the type variables `vars` in t by `with` (instantiation of a polymorphic type). */
const Type *ty_substitute_vars(TyTable *types, const Type *t, const Type *const *vars, const Type *const *with,
                               size_t n);

/* ------------------------------------------------------------------ annotations (type_ast.c) */
/* The type names in scope: type parameters of the enclosing functions (innermost last). */
typedef struct TyScope {
  const char *const *names;
  size_t len;
  const struct TyScope *outer;
} TyScope;

/* Converts an annotation.  Identifiers starting with int/uint/float/bool are dtypes (as in TVM),
   names in `scope` are type variables, any other name is an ADT.  `_` gives a fresh incomplete
   type.  On failure returns NULL with a message in err and the offending node in *bad. */
const Type *ty_from_ast(TyTable *t, const AstType *a, const TyScope *scope, char *err, size_t errlen,
                        const AstType **bad);
/* The annotation TVM would print for t: `Tensor[(1, 3), float32]`, `float32`, `(A, B)`, `List[A]`. */
AstType *ty_to_ast(AstModule *m, const Type *t);

#endif
