/*
 * The operator registry: one OpDef per Relay operator, holding its attribute schema (names, kinds,
 * defaults as TVM declares them) and its forward type relation (what TVM's XxxRel computes).
 *
 *   op.c            lookup, attribute values (parsed from the AST, defaults filled in), helpers
 *                   the relations share (argument checks, broadcasting, messages)
 *   ops/<family>.c  the entries, one family a file (the list is registry_init's in op.c)
 *   ops/<family>.c  the entries: elemwise.c, reduce.c, nn.c, transform.c, misc.c, vision.c, image.c,
 *                   dyn.c, random.c (the last four share ops/spatial_util.c)
 *
 * Each OpDef also holds the RFC's recognizer / solver / sampler beside `relation` (opgen.h).
 */
#ifndef RELAYKIT_OP_H
#define RELAYKIT_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/ast.h"
#include "type.h"

/* ------------------------------------------------------------------ attribute values */
typedef enum AttrKind {
  ATTR_NONE,   /* None / nullptr / an absent optional attribute */
  ATTR_INT,
  ATTR_FLOAT,
  ATTR_BOOL,
  ATTR_STR,    /* without the quotes */
  ATTR_LIST,   /* [a, b, ...], possibly nested */
  ATTR_META,   /* meta[VirtualDevice][0] and other opaque references: s holds the text */
} AttrKind;

typedef struct AttrVal {
  AttrKind kind;
  int64_t i;                   /* INT, BOOL (0/1) */
  double f;                    /* FLOAT (and INT, converted) */
  const char *s;               /* STR, META */
  const struct AttrVal *items; /* LIST */
  size_t n;
} AttrVal;

/* The kind of value an attribute holds, as TVM's attrs struct declares it. */
typedef enum AttrType {
  AT_INT,    /* int, IntImm */
  AT_FLOAT,  /* double */
  AT_BOOL,
  AT_STR,    /* String (layouts, modes) */
  AT_DTYPE,  /* DataType, written as a string: dtype="int32"; "" is void */
  AT_INTS,   /* Array<IntImm> or Array<PrimExpr>; may also be None when optional */
  AT_ANY,    /* anything (e.g. virtual devices, nested arrays) */
} AttrType;

typedef struct OpAttrSpec {
  const char *name;
  AttrType type;
  const char *def; /* default, spelled as a Relay attribute value: "1", "[1, 1]", "\"NCHW\"", "None" */
} OpAttrSpec;

/* ------------------------------------------------------------------ relations */
enum { OP_ERR_MAX = 512 };
/* The largest rank a relation builds: an attribute such as expand_dims' num_newaxis could ask for
   billions of dimensions, which would only exhaust memory before failing. */
enum { OP_RANK_LIMIT = 1 << 16 };

typedef struct OpDef OpDef;

/* One call being typed: the argument types (resolved, never incomplete) and the attributes
   (one per schema entry, in schema order, defaults filled in). */
typedef struct OpCall {
  TyTable *types;
  const OpDef *op;
  const Type *const *args;
  size_t nargs;
  const AttrVal *attrs;
  int bad_arg;             /* set by a failing relation: which argument is at fault, or -1 */
  char err[OP_ERR_MAX];    /* set by a failing relation */
} OpCall;

/* Returns the result type, or NULL after filling c->err (use op_fail). */
typedef const Type *(*OpRelation)(OpCall *c);

struct OpGen;
struct OpPlan;

struct OpDef {
  const char *name;          /* "nn.conv2d" */
  int min_args, max_args;    /* number of positional arguments */
  const OpAttrSpec *attrs;   /* schema, in TVM's declaration order */
  size_t nattrs;
  OpRelation relation;
  /* The RFC's generators (typegen/opgen.h); NULL where the op is not generated yet. */
  int gen_dtypes;            /* OpDtypes: the dtypes the generators use */
  bool (*recognize)(const OpDef *op, const Type *t);
  bool (*solve)(struct OpGen *g, const OpDef *op, const Type *t, struct OpPlan *out);
  bool (*sample)(struct OpGen *g, const OpDef *op, struct OpPlan *out);
};

/* A table entry without generators; families add recognize/solve/sample with designated fields. */
#define OP_ENTRY(n, lo, hi, a, na, rel) \
  { .name = (n), .min_args = (lo), .max_args = (hi), .attrs = (a), .nattrs = (na), .relation = (rel) }

/* Every registered op, sorted by name. */
const OpDef *const *op_all(size_t *count);
const OpDef *op_lookup(const char *name);

/* Builds the attribute values of a call from its AST attributes, filling defaults.  `arena` owns
   the result.  On an unknown attribute or a value of the wrong kind returns NULL, with a message
   in err and the offending attribute in *bad (NULL when the problem is not one attribute). */
const AttrVal *op_attrs_from_ast(const OpDef *op, const AstAttrs *attrs, Arena *arena, char *err, size_t errlen,
                                 const AstAttr **bad);

/* Types one call: builds its attribute values and runs the relation.  Returns the result type, or
   NULL with a message in c->err (and c->bad_arg).  `c` needs only `types` set on entry. */
const Type *op_infer(OpCall *c, const OpDef *op, const Type *const *args, size_t nargs, const AstAttrs *attrs,
                     Arena *arena);

/* Whether value v of attribute k equals the schema's default. */
bool op_attr_equals_default(const OpDef *op, size_t k, const AttrVal *v);
/* Whether the printer may leave attribute k out: it has its default and TVM's parser does not
   require it (op_attr_required). */
bool op_attr_is_default(const OpDef *op, size_t k, const AttrVal *v);
/* Whether TVM declares attribute k an object (Array, IntImm, FloatImm, String; typegen/ops/required.c)
   rather than a plain int, double, bool or string: only objects can be None. */
bool op_attr_boxed(const OpDef *op, size_t k);
/* Whether op is registered without an attrs type, so that its calls carry attrs_type_key: the
   table above, or a schema with the key as a field (vision.*, dyn.expand_dims). */
bool op_takes_attrs_key(const OpDef *op);
/* Whether TVM's text parser requires attribute k of op written out (typegen/ops/required.c). */
bool op_attr_required(const OpDef *op, size_t k);
/* For an op TVM registers without an attrs type, the attrs_type_key its calls must carry when
   they have attributes (typegen/ops/required.c); NULL for the others. */
const char *op_attrs_key(const OpDef *op);
/* Whether a call that leaves out a required attribute is an error (rcheck --tvm-strict), as in
   TVM's parser; by default the schema's default is taken. */
void op_require_written(bool on);
/* The (op, attribute) pairs of that table, for tests. */
size_t op_required_table(const char *const (**pairs)[2]);
/* A copy of the op's default attribute values, one per schema entry, in `arena`. */
AttrVal *op_default_attrs(const OpDef *op, Arena *arena);

/* ------------------------------------------------------------------ helpers for relations */
const AttrVal *op_attr(const OpCall *c, const char *name); /* aborts if the schema has no such name */
int64_t op_int(const OpCall *c, const char *name);
double op_float(const OpCall *c, const char *name);
bool op_bool(const OpCall *c, const char *name);
const char *op_str(const OpCall *c, const char *name);
bool op_is_none(const OpCall *c, const char *name);
/* The integers of a list attribute (or a single int as a list of one); returns the count, at most max. */
size_t op_ints(const OpCall *c, const char *name, int64_t *out, size_t max);
/* The dtype named by a string attribute; void for "". */
DType op_dtype(const OpCall *c, const char *name);

/* Fails the relation: formats c->err, records the argument at fault (or -1), returns NULL. */
const Type *op_fail(OpCall *c, int arg, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Argument i as a tensor type, or NULL after failing with a message. */
const Type *op_tensor_arg(OpCall *c, size_t i);
/* NumPy broadcasting of two shapes, as TVM's BroadcastRel; NULL with a message if incompatible. */
const Type *op_broadcast(OpCall *c, const Type *a, const Type *b, DType out);
/* Normalises a possibly negative axis against rank; false if out of range. */
bool op_axis(int64_t axis, size_t rank, size_t *out);

/* ------------------------------------------------------------------ families */
#define OP_FAMILY(name) extern const OpDef op_family_##name[]; extern const size_t op_family_##name##_len
OP_FAMILY(elemwise);
OP_FAMILY(reduce);
OP_FAMILY(nn);
OP_FAMILY(transform);
OP_FAMILY(misc);
OP_FAMILY(qnn);
OP_FAMILY(qnn_elemwise);
OP_FAMILY(annotation);
OP_FAMILY(misc_extra);
OP_FAMILY(ethosu);
OP_FAMILY(nn_conv);
OP_FAMILY(nn_sparse);
OP_FAMILY(nn_grad);
OP_FAMILY(vision);
OP_FAMILY(image);
OP_FAMILY(dyn);
OP_FAMILY(random);
OP_FAMILY(algorithm);
OP_FAMILY(transform_extra);
OP_FAMILY(transform_index);
OP_FAMILY(nn_extra);

#endif
