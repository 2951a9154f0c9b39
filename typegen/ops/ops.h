/*
 * The operator registry: one OpDef per Relay operator, the single source of truth for its
 * attribute schema (names, kinds, defaults as TVM declares them), its forward type relation (what
 * TVM's XxxRel computes) and the RFC's generators (recognizer, solver, sampler).  Sits on
 * typegen/types/; inference (typegen/infer/) and the generator (typegen/gen/) sit on it.
 *
 * The registry (these files include this header, types/, parser/ and support/ only):
 *   op.c        the list of families, the registry (filled from the relaykit_ops section at
 *               start-up), lookup, attribute values (parsed from the AST, defaults filled in), the
 *               helpers every relation uses (argument checks, broadcasting)
 *   opgen.c     the generators' side: plans, random types within a policy, attribute setters,
 *               the generic generators whole families share (unary, broadcasting, comparison)
 *   required.c  what TVM v0.13's text parser demands beyond the schemas: required attributes,
 *               attrs_type_key, boxed scalars
 *   attr_ast.c  attribute values back to AST, for the calls relaykit writes
 *   tvm_version.c  the TVM releases the registry describes (v0.13.0, v0.19.0), what differs
 *               between them, and the one this process checks against (--tvm-version, else the
 *               TVM the TVM scripts would import, else the newest)
 *
 * The kit (kit.h is its map; kit*.c): the helpers the families share, prefix kit_.
 *
 * TVM's operator set, one family a file, each including kit.h only and never another family:
 *   elemwise.c   unary, binary and comparison ops, clip, cast, leaky_relu, fixed_point_multiply
 *   reduce.c     sum, mean, max, min, prod, all, any, argmax, argmin, variance
 *   nn.c         dense, matmul, pools, normalisations, softmax, bias_add, pad, dropout, upsampling,
 *                image.resize2d, qnn.quantize / dequantize / requantize
 *   nn_conv.c    the convolutions (qnn.conv2d too), Winograd, GEMM, bitserial, correlation
 *   nn_extra.c   depth_to_space, space_to_batch_nd, mirror_pad, dilate, fifo_buffer, the losses
 *   nn_grad.c    the pooling gradients, conv2d_backward_weight
 *   nn_sparse.c  sparse_dense, sparse_transpose, sparse_add, sparse_conv2d
 *   qnn.c        qnn.dense, batch_matmul, conv2d_transpose, avg_pool2d, concatenate
 *   qnn_elemwise.c  the quantized elementwise and broadcasting ops
 *   transform.c  reshape, transpose, concatenate, split, slicing, take, gather, tile, where, full,
 *                arange, one_hot, layout_transform, shape_of, topk, sort
 *   transform_extra.c  collapse_sum_to, einsum, meshgrid, sliding_window, trilu, ...
 *   transform_index.c  adv_index, scatter, unravel_index, the sparse index ops
 *   algorithm.c  cumsum, cumprod, unique, searchsorted, dft, stft
 *   image.c, vision.c, random.c, dyn.c, annotation.c, misc.c, misc_extra.c, ethosu.c
 * A family file holds its helpers first, then one block per op (or per group of ops sharing a
 * relation): relation, generators, schema (unless the kit's, for a struct several families use)
 * and its rows, registered with OP_REGISTER (below).  Adding an op to a family is one block.
 *
 * The generators' invariants, tested for every op over many seeds (tests/unit/test_opgen.c):
 *
 *   sample() = plan   =>  relation(plan.args, plan.attrs) == plan.result  and  recognize(plan.result)
 *   recognize(T)      =>  solve(T) = plan  with  relation(plan.args, plan.attrs) == T
 */
#ifndef RELAYKIT_OPS_H
#define RELAYKIT_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../parser/ast.h"
#include "../../support/rng.h"
#include "../types/types.h"

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
  unsigned tvm;              /* the TVM releases this row holds for (OP_TVM_ONLY); 0: every one */
  int min_args, max_args;    /* number of positional arguments */
  const OpAttrSpec *attrs;   /* schema, in TVM's declaration order */
  size_t nattrs;
  OpRelation relation;
  /* The RFC's generators (opgen.c); NULL where the op is not generated yet. */
  int gen_dtypes;            /* OpDtypes: the dtypes the generators use */
  bool (*recognize)(const OpDef *op, const Type *t);
  bool (*solve)(struct OpGen *g, const OpDef *op, const Type *t, struct OpPlan *out);
  bool (*sample)(struct OpGen *g, const OpDef *op, struct OpPlan *out);
};

/* ------------------------------------------------------------------ TVM releases (tvm_version.c) */
/* The TVM releases whose Relay registries relaykit describes, oldest first.  Most rows hold for
   every one; an op that exists in some only, or whose schema or relation changed, has a row per
   variant, each naming its releases (OP_TVM_ONLY), so the difference is data in the op's block.
   Everything below (lookup, op_all, defaults, required attributes) answers for the release this
   process checks against. */
typedef enum TvmRelease { TVM_0_13, TVM_0_19, TVM_RELEASES } TvmRelease;
#define OP_TVM_BIT(r) (1u << (r))
/* A row's designated field: it holds for release r only (TVM_0_13, TVM_0_19). */
#define OP_TVM_ONLY(r) .tvm = OP_TVM_BIT(r)

/* The release this process checks against: chosen by op_tvm_choose, else resolved on first use
   (RELAYKIT_TVM_VERSION, else the TVM the TVM scripts would import, else the newest), and exported
   as RELAYKIT_TVM_VERSION for the relaykit tools this process runs. */
TvmRelease op_tvm(void);
const char *op_tvm_name(void); /* "0.19.0" */
/* How it was chosen: "--tvm-version 0.13", "the TVM python3 imports: 0.19.0 at /x/tvm", ... */
const char *op_tvm_how(void);
const char *op_tvm_release_name(TvmRelease r); /* "0.19.0" */
const char *op_tvm_release_short(TvmRelease r); /* "0.19", as --tvm-version takes it */
/* The releases relaykit knows, for messages: "0.13 (v0.13.0) and 0.19 (v0.19.0)". */
const char *op_tvm_known(void);
/* --tvm-version TEXT: 0.13 or 0.19 (v0.19.0 and 0.19.dev0 too; a fork's 0.18.0+vendor maps to the
   nearest, said once on stderr).  False with the reason in err (naming the known releases). */
bool op_tvm_choose(const char *text, char *err, size_t errlen);
/* The tools' option: `{"tvm-version", required_argument, NULL, OP_OPT_TVM_VERSION}` in getopt's
   table, then `case OP_OPT_TVM_VERSION: if (!op_tvm_option(optarg)) return 2; break;`, and
   `op_tvm_print_version(PROG)` for --version (relaykit's version, then the release and how it was
   chosen). */
enum { OP_OPT_TVM_VERSION = 0x7456 };
#define OP_TVM_VERSION_OPTION {"tvm-version", required_argument, NULL, OP_OPT_TVM_VERSION}
#define OP_TVM_VERSION_HELP                                                                              \
  "      --tvm-version V  TVM V's Relay registry: 0.13 or 0.19 (default: the TVM the TVM scripts\n"    \
  "                   would import, else 0.19, the last release with Relay)\n"
bool op_tvm_option(const char *arg);
int op_tvm_print_version(const char *prog);
/* When nothing says the release (no --tvm-version, RELAYKIT_TVM_VERSION, or TVM with Relay to
   import), the newest is a guess: the first program the process checks, if ill-typed under it,
   may settle the process on an older release it type-checks under (a file TVM v0.13.0 printed).
   op_tvm_first_check says whether this check may (true once, at the process's first check, and
   only then); op_tvm_try makes r the release for a trial; op_tvm_settle_on keeps r for the rest
   of the process, says so on stderr naming `file`, and exports it to the tools it runs. */
bool op_tvm_first_check(void);
void op_tvm_try(TvmRelease r);
void op_tvm_settle_on(TvmRelease r, const char *file);
/* Whether row `op` holds for release r. */
bool op_tvm_holds(const OpDef *op, TvmRelease r);
/* For messages about what the chosen release lacks: a release other than the chosen one that has
   an operator `name`, or in which `op`'s operator takes an attribute `attr`; -1 when none. */
int op_tvm_elsewhere(const char *name);
int op_tvm_attr_elsewhere(const OpDef *op, const char *attr);

/* A table entry without generators; families add recognize/solve/sample with designated fields. */
#define OP_ENTRY(n, lo, hi, a, na, rel, ...) \
  { .name = (n), .min_args = (lo), .max_args = (hi), .attrs = (a), .nattrs = (na), .relation = (rel), __VA_ARGS__ }

/* Every op of the chosen release (op_tvm), sorted by name. */
const OpDef *const *op_all(size_t *count);
const OpDef *op_lookup(const char *name);
/* The row of operator `name` for release r, or NULL. */
const OpDef *op_lookup_in(const char *name, TvmRelease r);

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

/* ------------------------------------------------------------------ back to AST (attr_ast.c) */
/* An attribute value as Relay text writes it: 3, 0.5f, True, "NCHW", None, [1, 2]. */
AstExpr *attr_to_ast(AstModule *m, const AttrVal *v);
/* The attributes of a call, leaving out those at their default (as TVM's printer does), and the
   attrs_type_key some ops always carry (op_attrs_key); `out` has room for nattrs + 1. */
size_t attrs_to_ast(AstModule *m, const OpDef *op, const AttrVal *vals, AstAttr **out);

/* ------------------------------------------------------------------ registration */
/* A family file opens with OP_FAMILY(name), which defines op_family_<name>; op.c lists every
   family, as Lua's linit.c lists its libraries.  Each block of ops in the file ends with its rows
   and OP_REGISTER(rows): the registration goes to the linker section relaykit_ops, which the
   registry walks at start-up (__start_relaykit_ops .. __stop_relaykit_ops), so that an op's row
   sits with its relation and generators and adding an op is one place.  The list in op.c is what
   makes a static library link every family file (nothing else refers to one); the registry sorts
   the ops by name, so the order of files, blocks and rows does not matter.  Why a linker section:
   standard C cannot collect definitions spread over a file, and its alternatives (a list of each
   file's blocks at its end, or in op.c) put back the table far from the functions; GCC and Clang
   on ELF, which relaykit builds with, define __start_/__stop_ for a section named like a C
   identifier.  registry_init aborts on rows of a family op.c does not list. */
typedef struct OpFamily {
  const char *name; /* "nn": the file ops/nn.c */
} OpFamily;

typedef struct OpRows {
  const OpDef *rows;
  size_t n;
  const OpFamily *const *family;
} OpRows;

#define OP_FAMILY(fam)                                                                                  \
  extern const OpFamily op_family_##fam;                                                                \
  const OpFamily op_family_##fam = {#fam};                                                              \
  static const OpFamily *const op_family_here = &op_family_##fam
/* Pointers, not the OpRows themselves, go to the section: they pack without gaps whatever the
   compiler's alignment of larger objects or a sanitizer's red zones around them. */
#define OP_REGISTER(rows)                                                                               \
  static const OpRows rows##_entry = {rows, sizeof rows / sizeof rows[0], &op_family_here};             \
  static const OpRows *const rows##_registered __attribute__((used, section("relaykit_ops"))) =        \
      &rows##_entry

/* The number of ops family `name` registers (tests). */
size_t op_family_size(const char *name);

/* ================================================================== generators (opgen.c) */

/* What generated types may look like (the generator's policy narrows these further). */
typedef struct OpGenPolicy {
  unsigned max_rank;        /* tensors have rank 0..max_rank */
  int64_t max_dim;          /* every dimension in 1..max_dim */
  int64_t max_elements;     /* a bound on any tensor's element count */
  bool uniform_shapes;      /* random shapes are drawn alike over every shape within the limits (a
                               rank by how many shapes it has), not a rank first alike over the ranks:
                               more distinct shapes, at the price of larger tensors */
  const DType *float_dtypes; /* the float dtypes to draw from */
  size_t nfloat_dtypes;
  const DType *int_dtypes;   /* the integer dtypes to draw from */
  size_t nint_dtypes;
} OpGenPolicy;

extern const OpGenPolicy opgen_default_policy;

typedef struct OpGen {
  TyTable *types;
  Rng *rng;
  Arena *arena;              /* owns attribute values of plans */
  const OpGenPolicy *policy;
} OpGen;

enum { OP_MAX_ARGS = 8 };

/* A call the solver or sampler proposes: argument types, attribute values, and the result. */
typedef struct OpPlan {
  const Type *args[OP_MAX_ARGS];
  size_t nargs;
  AttrVal *attrs;     /* one per schema entry, defaults where the plan chose nothing */
  const Type *result;
} OpPlan;

/* Which dtypes an op's generators use: what TVM's compute accepts, beyond what the relation checks. */
typedef enum OpDtypes { OPDT_ANY, OPDT_FLOAT, OPDT_NUMERIC, OPDT_INT, OPDT_BOOL } OpDtypes;

/* ------------------------------------------------------------------ plans */
/* A plan for `op` with every attribute at its default and no arguments. */
void opgen_plan_init(OpGen *g, const OpDef *op, OpPlan *plan);
void opgen_set_int(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, int64_t v);
void opgen_set_float(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, double v);
void opgen_set_bool(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, bool v);
void opgen_set_str(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const char *v);
void opgen_set_ints(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const int64_t *v, size_t n);
/* Any value (nested lists, lists of floats). */
void opgen_set_attr(const OpDef *op, OpPlan *plan, const char *name, AttrVal v);
/* Runs the op's relation on a plan; the result type, or NULL (c->err says why). */
const Type *opgen_run(OpGen *g, const OpDef *op, const OpPlan *plan, OpCall *c);

/* ------------------------------------------------------------------ random types */
/* Whether d belongs to a dtype class (recognizers use this; the policy narrows only generation). */
bool opgen_dtype_in_class(OpDtypes cls, DType d);
DType opgen_dtype(OpGen *g, OpDtypes cls);
/* A random tensor type of the given dtype with rank in [min_rank, max_rank] within the policy. */
const Type *opgen_tensor(OpGen *g, DType dtype, unsigned min_rank, unsigned max_rank);
/* n random dimensions in [1, max_dim] whose product stays within `budget` elements (each takes at
   most what the rest of the budget allows). */
void opgen_dims(OpGen *g, size_t n, int64_t budget, int64_t *dims);
/* The same shape with another dtype. */
const Type *opgen_with_dtype(OpGen *g, const Type *t, DType dtype);
/* A shape that broadcasts with t to exactly t: maybe some leading dimensions dropped, some others
   turned to 1. */
const Type *opgen_partner(OpGen *g, const Type *t, DType dtype);

/* ------------------------------------------------------------------ shared generators */
/* One tensor argument, result of the same type (IdentityRel ops): dtype class in op->gen_dtypes. */
bool opgen_unary_recognize(const OpDef *op, const Type *t);
bool opgen_unary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool opgen_unary_sample(OpGen *g, const OpDef *op, OpPlan *out);
/* Two tensors broadcasting to the result (BroadcastRel ops). */
bool opgen_binary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool opgen_binary_sample(OpGen *g, const OpDef *op, OpPlan *out);
/* Two tensors of one numeric dtype broadcasting to a bool result (BroadcastCompRel ops). */
bool opgen_compare_recognize(const OpDef *op, const Type *t);
bool opgen_compare_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out);
bool opgen_compare_sample(OpGen *g, const OpDef *op, OpPlan *out);
/* Any sampler built from a solver: draws a type the recognizer accepts, then solves it. */
bool opgen_sample_by_solving(OpGen *g, const OpDef *op, OpPlan *out);

#endif
