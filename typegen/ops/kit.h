/*
 * The operator kit: everything the family files (ops/<family>.c) share, behind one prefix (kit_,
 * KIT_).  A family file includes this header only (it brings ops.h); the registry's own files and
 * everything outside ops/ never include it.
 *
 *   kit.c         relation helpers: attribute readers, argument checks (TVM's reporter->Assign),
 *                 dimension arithmetic, messages, the QNN checks, running another op's relation
 *   kit_layout.c  tir::Layout as TVM reads it, BijectiveLayout's shape conversion, padding totals
 *   kit_shape.c   TVM's InferNewShape (reshape and contrib_reverse_reshape)
 *   kit_gen.c     generator helpers: what a solver can take apart, random shapes within the
 *                 policy, samplers, attribute setters, the sliding-window solver
 *   kit_attrs.c   the schemas of TVM's attrs structs that ops of several families take
 *
 * Where two helpers below do nearly the same thing, they differ in a message or in the random
 * numbers they draw, and the difference is relied on (the corpus outputs and the tests pin both).
 */
#ifndef RELAYKIT_OPS_KIT_H
#define RELAYKIT_OPS_KIT_H

#include "ops.h"

/* ================================================================== bounds and table rows */

#define KIT_ANY ((int64_t)TY_DIM_ANY)
#define KIT_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Ranks the helpers and generators handle (bounds their local arrays). */
enum { KIT_RANK_MAX = 16 };
/* Element counts stay far from int64 overflow when solvers multiply dimensions. */
#define KIT_ELEMENTS_MAX ((int64_t)INT32_MAX)

/* A table row: the relation part, then the generators (dtype class, recognizer, solver, sampler).
   Rows without generators end after the relation. */
#define KIT_GEN(cls, rec, sol, sam) .gen_dtypes = (cls), .recognize = (rec), .solve = (sol), .sample = (sam)
/* A sampler that draws a type the recognizer accepts and solves it. */
#define KIT_SOLVED(cls, rec, sol) KIT_GEN(cls, rec, sol, opgen_sample_by_solving)
#define KIT_OP(n, nargs, a, rel, ...)                                                                        \
  {                                                                                                          \
    .name = (n), .min_args = (nargs), .max_args = (nargs), .attrs = (a), .nattrs = KIT_NELEMS(a),            \
    .relation = (rel), __VA_ARGS__                                                                           \
  }
#define KIT_OP_NOATTRS(n, nargs, rel, ...)                                                                   \
  { .name = (n), .min_args = (nargs), .max_args = (nargs), .relation = (rel), __VA_ARGS__ }

/* ================================================================== relations (kit.c) */

/* ------------------------------------------------------------------ attributes */
/* TVM stops on a field declared without a default that the call does not give; the schemas spell
   those defaults None, so None means "missing": false after failing with TVM's "Cannot find
   required field" message. */
bool kit_required(OpCall *c, const char *name);

/* Three readers of a list attribute (a single integer counts as a list of one), for three kinds
   of relations; each returns the count, or -1 after failing.
   kit_ints: the value is required; anything but a list of at most `max` constant integers fails.
   kit_ints_opt: None reads as an empty list (an undefined Array has size 0); a value that is not a
     list fails, and so does an item that is not a constant.  The count may exceed max (out holds
     the first max).
   kit_const_ints: the values the NN relations compute with: an item that is not a constant, or
     -1, fails; None or a value of another kind reads as empty.  The count may exceed max. */
long kit_ints(OpCall *c, const char *name, int64_t *out, size_t max);
long kit_ints_opt(OpCall *c, const char *name, int64_t *out, size_t max);
long kit_const_ints(OpCall *c, const char *name, int64_t *out, size_t max);
/* kit_const_ints, needing at least `need` values (TVM reads the first `need`; a shorter list
   makes it index out of range). */
bool kit_ints_need(OpCall *c, const char *name, size_t need, int64_t *out, size_t max);
/* A list of (a, b) pairs of constant integers (pad_width, paddings, crops), at most `max` pairs;
   the count, or -1 after failing.  `pair_msg` formats the message for an item that is not a pair
   (arguments: the index and its length). */
long kit_pairs(OpCall *c, const char *name, int64_t (*out)[2], size_t max, const char *pair_msg);
/* The number of items of a list attribute: 0 for None, -1 after failing when it is neither. */
long kit_list_len(OpCall *c, const char *name);
/* An Integer / int attribute the relation reads (a bool counts); None fails. */
bool kit_int_attr(OpCall *c, const char *name, int64_t *out);
/* Positive integers only (strides and dilations divide or scale a dimension). */
bool kit_all_positive(OpCall *c, const char *name, const int64_t *v, size_t n);
/* The attrs_type_key check of an op TVM registers without set_attrs_type (vision.*,
   dyn.expand_dims): its parser builds the attributes only from an explicit attrs_type_key, and
   without attributes the call has none, which a relation that reads them (`reads_attrs`) cannot
   handle. */
bool kit_keyed_attrs(OpCall *c, const char *key, bool reads_attrs);

/* ------------------------------------------------------------------ messages */
/* TVM's spelling of a dtype in messages ("void" for the empty dtype); buf holds >= 16 bytes. */
const char *kit_dtype_name(DType d, char *buf);
/* A shape as TVM prints an Array<PrimExpr>: "[1, ?, 3]".  Writes into buf. */
const char *kit_dims_str(const int64_t *dims, size_t n, char *buf, size_t cap);
bool kit_dtype_in(DType d, const DType *set, size_t n);

/* ------------------------------------------------------------------ arguments and results */
/* Argument i as a tensor of exactly `rank` dimensions; otherwise fails with `msg` (TVM's ICHECK
   text, completed by the rank found). */
const Type *kit_ranked(OpCall *c, size_t i, size_t rank, const char *msg);
/* reporter->Assign(types[i], Tensor[dims, dtype]): argument i must unify with that type, where a
   `?` on either side matches any dimension.  The message names the first conflicting dimension. */
bool kit_assign(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n);
/* The same, worded as other relations word it: KIT_ASSIGN_UNCHECKED does not first require a
   tensor (any other type just does not unify), KIT_ASSIGN_BRIEF names no dimension. */
enum { KIT_ASSIGN_UNCHECKED = 1, KIT_ASSIGN_BRIEF = 2 };
bool kit_assign_as(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n, int how);
/* kit_assign_as(KIT_ASSIGN_UNCHECKED) with the type wanted given whole. */
bool kit_assign_type(OpCall *c, size_t i, const Type *want);
/* The out_dtype attribute, or `data`'s dtype when it is void (bits() == 0). */
DType kit_out_dtype(OpCall *c, DType data);
/* A writable copy of a tensor's dims (at least one slot); kit_tensor_free interns a scratch shape
   and frees it. */
int64_t *kit_dims_dup(const Type *t);
const Type *kit_tensor_free(OpCall *c, DType dtype, int64_t *dims, size_t n);
/* A tensor of `rank` unknown dimensions. */
const Type *kit_all_any(OpCall *c, DType dt, size_t rank);
/* IdentityRel: argument 0, a tensor, is the result (unary math, lrn, ...); kit_pass_through_rel
   lets a value of any type through (annotations, device copies). */
const Type *kit_identity_rel(OpCall *c);
const Type *kit_pass_through_rel(OpCall *c);
/* Runs the relation of op `target` (whose attribute schema this op's includes) on the arguments
   `which` of this call, with this call's attributes (matched by name) and this op's name in
   messages; a failure's argument index is mapped back to this call's. */
const Type *kit_delegate(OpCall *c, const char *target, const size_t *which, size_t n);

/* ------------------------------------------------------------------ dimension arithmetic */
/* Whether two dimensions can be the same (a `?` matches anything). */
static inline bool kit_dim_match(int64_t a, int64_t b) { return a == b || a == KIT_ANY || b == KIT_ANY; }
/* Shape formulas over attribute values and dimensions (paddings, strides, block sizes: a user may
   write any int64) are computed in KitWide, 128 bits, where a sum of a few int64 terms, each a
   product of at most two, cannot overflow; kit_fit brings the result back.  TVM folds the same
   formula on int64 constants, where an overflow wraps around into a nonsense shape (undefined
   behaviour in its C++), so relaykit fails the call there instead: a located error.  A formula
   casts its first operand of every product and sum to KitWide, never a partial result computed in
   int64. */
typedef __int128 KitWide;
/* *out = v when v fits int64; false after failing "OP: the shape arithmetic overflows int64". */
bool kit_fit(OpCall *c, KitWide v, int64_t *out);
/* tvm::floordiv in KitWide, b != 0. */
static inline KitWide kit_wide_floordiv(KitWide a, KitWide b) {
  KitWide q = a / b;
  return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
}
/* a * b on dimensions, `?` absorbing (TVM builds a non-constant expression there); false after
   failing (kit_fit) when the product overflows. */
bool kit_dim_mul(OpCall *c, int64_t a, int64_t b, int64_t *out);
/* A dimension times / plus a constant k (any integer, -1 included), `?` staying `?`; false after
   failing when the result overflows. */
bool kit_dim_times(OpCall *c, int64_t d, int64_t k, int64_t *out);
bool kit_dim_plus(OpCall *c, int64_t d, int64_t k, int64_t *out);
/* a * b as TVM's constant folding makes it: 0 absorbs everything, then `?` does; a product that
   overflows int64 is not a constant either (`?`). */
int64_t kit_dim_mul_folded(int64_t a, int64_t b);
/* tvm::floordiv (indexdiv) on constants, b != 0; kit_dim_floordiv lets `?` through. */
int64_t kit_floordiv(int64_t a, int64_t b);
int64_t kit_dim_floordiv(int64_t a, int64_t b);
/* a + b and a * b, false when the result does not fit int64 (no `?` here). */
bool kit_add_exact(int64_t a, int64_t b, int64_t *out);
bool kit_mul_exact(int64_t a, int64_t b, int64_t *out);
/* A result dimension must not be negative (a type here cannot hold one, and -1 would read as
   `?`).  kit_nonneg checks constants (never dimensions holding `?`), kit_dim_ok one computed
   value, kit_nonneg_as names what makes the dimension.  False after failing. */
bool kit_nonneg(OpCall *c, const int64_t *dims, size_t n);
bool kit_dim_ok(OpCall *c, int64_t v);
bool kit_nonneg_as(OpCall *c, const char *what, const int64_t *v, size_t n);

/* ------------------------------------------------------------------ QNN (src/relay/qnn/utils.h) */
/* int8 / uint8: what most QNN relations accept as quantized data. */
extern const DType kit_q8[2];
/* The data argument's dtype must be one of `set`: "Expected <what> for <role> but was <dtype>". */
bool kit_qnn_data_dtype(OpCall *c, size_t i, const DType *set, size_t n, const char *what, const char *role);
/* IsScalarType and AssignType as the QNN ops' relations word them: argument i is a rank-0 tensor of
   `dtype`; argument i has `dtype` and is a scalar or a vector of `len` elements (`?` matches). */
bool kit_qnn_scalar(OpCall *c, size_t i, DType dtype, const char *what);
bool kit_qnn_assign(OpCall *c, size_t i, DType dtype, int64_t len);
/* The same two checks as the quantize, requantize and conv2d relations word them: the argument is
   first checked to be a tensor (op_tensor_arg), a vector goes through kit_assign. */
bool kit_qnn_scalar_arg(OpCall *c, size_t i, DType dtype, const char *what);
bool kit_qnn_assign_arg(OpCall *c, size_t i, DType dtype, int64_t len);

/* ================================================================== layouts (kit_layout.c) */

/* tir::Layout as TVM v0.13 reads it (src/tir/ir/data_layout.cc): "NCHW4c" is N, C, H, W (primal
   axes, factor 0) and c (a sub-axis of C whose extent is its factor, 4).  An axis may repeat, so
   more than 52 axes fit. */
enum { KIT_LAYOUT_MAX = 64, KIT_LAYOUT_NAME_MAX = 256 };
typedef struct KitLayout {
  char name[KIT_LAYOUT_NAME_MAX];
  size_t ndim;
  char axis[KIT_LAYOUT_MAX];
  int64_t factor[KIT_LAYOUT_MAX]; /* a sub-axis's extent; 0 for primal axes */
} KitLayout;

/* Reads attribute `attr` (whose value is s) as Layout's constructor does: 1 for a layout, 0 for
   the undefined layout ("" or "__undef__"), -1 after op_fail (`OP: invalid layout "S" for ATTR:
   WHY`) for what TVM rejects.  As in TVM, digits after the last axis are ignored and an axis may
   appear twice. */
int kit_layout_attr(OpCall *c, const char *attr, const char *s, KitLayout *l);
/* The layout a relation computes through: defined, and no axis twice.  A departure from TVM, which
   accepts an axis twice and then computes with one of the copies: relaykit refuses such a call
   rather than guess which copy TVM reads. */
bool kit_layout_parse(OpCall *c, const char *attr, const char *s, KitLayout *l);
/* The position of an axis letter in the layout, or -1. */
int kit_layout_index(const KitLayout *l, char axis);
/* Layout::FactorOf: the product of a primal axis's sub-axes' factors, or -1 when it has none. */
int64_t kit_layout_factor(const KitLayout *l, char primal);
/* Whether tir::BijectiveLayout(a, b) is defined: both hold the same primal axes. */
bool kit_layout_convertible(const KitLayout *a, const KitLayout *b);
/* BijectiveLayout(src, dst).ForwardShape (BackwardShape with the roles swapped): a primal axis's
   full extent is its dimension times its sub-axis's factor in src, floor-divided by its sub-axis's
   factor in dst; a sub-axis's dimension is its factor; `?` stays `?`.  `arg` names the argument
   whose shape it is, for messages (-1 for a computed shape). */
bool kit_layout_convert(OpCall *c, int arg, const KitLayout *src, const int64_t *shape, size_t n,
                        const KitLayout *dst, int64_t *out);
/* Two ways relations check a layout attribute against the canonical layout they compute in:
   kit_layout_to_canon parses s (attribute `attr`) and fails with fmt (two %s: the canonical
   layout's name, then s) when it does not convert to `canon`; kit_layout_to reads `attr` itself,
   parses `canon` into *cl, and fails with fmt (one %s: the layout) or, when fmt is NULL, with
   TVM's message for an undefined BijectiveLayout. */
bool kit_layout_to_canon(OpCall *c, const char *attr, const char *s, const KitLayout *canon, KitLayout *l,
                         const char *fmt);
bool kit_layout_to(OpCall *c, const char *attr, const char *canon, const char *fmt, KitLayout *l,
                   KitLayout *cl);
/* The total padding per spatial axis (before + after), as GetPaddingWidth / GetPaddingHeightWidth /
   GetPaddingDepthHeightWidth and the pool relations read the padding attribute: one value pads
   every side, `nd` values pad both sides of each axis, 2*nd values are all befores then all
   afters. */
bool kit_pad_totals(OpCall *c, size_t nd, int64_t *pad);

/* ================================================================== shapes (kit_shape.c) */

/* TVM's InferNewShape (src/relay/op/tensor/transform.cc): the shape `newshape` (ns[0..nn), with
   reshape's special codes 0, -1, -2, -3, -4 and allowzero) gives for `data`, as a malloc'd array
   *out of *nout dimensions.  False after op_fail. */
bool kit_reshape_infer(OpCall *c, const Type *data, const int64_t *ns, size_t nn, bool allowzero,
                       int64_t **out, size_t *nout);

/* ================================================================== generators (kit_gen.c) */

/* ------------------------------------------------------------------ recognizing */
/* A type a solver can take apart: a static tensor of the class, dimensions >= 1, rank in [lo, hi]
   (hi at most KIT_RANK_MAX), element count within KIT_ELEMENTS_MAX. */
bool kit_gen_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi);
/* The NN solvers' test: a static tensor of the op's dtype class, rank in [lo, hi], every dimension
   >= min_dim, with no bound on the element count. */
bool kit_gen_ok_dims(const OpDef *op, const Type *t, unsigned lo, unsigned hi, int64_t min_dim);
/* Recognizers: kit_gen_ok with the op's class, any rank (kit_static_any), rank >= 1
   (kit_static_ranked), rank >= 2 (kit_static_matrix). */
bool kit_static_any(const OpDef *op, const Type *t);
bool kit_static_ranked(const OpDef *op, const Type *t);
bool kit_static_matrix(const OpDef *op, const Type *t);
/* Recognizers of one rank and the op's class: kit_rank3/4/5 as kit_gen_ok (the element count
   bounded), kit_nn_rank3/4/5 as kit_gen_ok_dims with dimensions >= 1 (no bound). */
bool kit_rank3(const OpDef *op, const Type *t);
bool kit_rank4(const OpDef *op, const Type *t);
bool kit_rank5(const OpDef *op, const Type *t);
bool kit_nn_rank3(const OpDef *op, const Type *t);
bool kit_nn_rank4(const OpDef *op, const Type *t);
bool kit_nn_rank5(const OpDef *op, const Type *t);
/* A tensor of the class whose dimensions are all `?`, rank in [lo, hi]. */
bool kit_all_any_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi);
/* A static tensor type (no `?`) whose dtype is in `set`. */
bool kit_static_in(const Type *t, const DType *set, size_t n);

/* ------------------------------------------------------------------ random shapes */
/* The elements a solver may spend on one input: the policy's budget, or the result's size when
   that is bigger (an input is rarely smaller than the result it makes). */
int64_t kit_budget(OpGen *g, const Type *result);
/* An input derived from the result (a window's input is about stride x output + kernel) may be
   larger than the policy's max_elements, up to this. */
int64_t kit_derived_budget(const OpGen *g);
/* A random tensor of exactly `rank` dimensions (at most KIT_RANK_MAX) within max_dim and `budget`
   elements (opgen_dims).  Unlike opgen_tensor it does not stop at the policy's max_rank. */
const Type *kit_rand_tensor(OpGen *g, DType dt, size_t rank, int64_t budget);
const Type *kit_tensor(OpGen *g, DType dt, const int64_t *dims, size_t n);
const Type *kit_scalar(OpGen *g, DType dt);
/* A vector Tensor[(n), dt]. */
const Type *kit_vec(OpGen *g, DType dt, int64_t n);
/* n factors of total (n >= 1) into out, most within max_dim where the divisors allow. */
void kit_factors(OpGen *g, int64_t total, size_t n, int64_t *out);
/* Three ways to draw a divisor of n >= 1, each with its own use of the random numbers:
   kit_divisor: uniformly among those at most cap (1 always qualifies), drawn as it goes;
   kit_divisor_of: uniformly among those at most max found by trial division up to sqrt(n);
   kit_divisor_from: uniformly among those at least lo, or 0 when there is none. */
int64_t kit_divisor(OpGen *g, int64_t n, int64_t cap);
int64_t kit_divisor_of(OpGen *g, int64_t n, int64_t max);
int64_t kit_divisor_from(OpGen *g, int64_t n, int64_t lo);
int64_t kit_prod(const int64_t *v, size_t n);
/* Reorders a shape between two plain layouts (no packed axes): dst in layout `to` from src in `from`. */
void kit_permute(const char *from, const int64_t *src, const char *to, int64_t *dst);

/* ------------------------------------------------------------------ random choices */
/* int32 or int64: the dtypes of shapes, indices and counts. */
DType kit_index_dtype(OpGen *g);
const char *kit_pick_str(OpGen *g, const char *const *items, size_t n);
double kit_pick_float(OpGen *g, const double *v, size_t n);
DType kit_pick_dtype(OpGen *g, const DType *set, size_t n);
/* An axis attribute for position a of a rank-nd range, sometimes spelled from the end. */
static inline int64_t kit_gen_axis(OpGen *g, int64_t a, int64_t nd) {
  return rng_chance(g->rng, 1, 3) ? a - nd : a;
}

/* ------------------------------------------------------------------ samplers */
/* Draws result types until the op's recognizer accepts one that its solver solves (64 tries):
   kit_sample_rank: tensors of exactly `rank`, dtype of the op's class;
   kit_sample_ranked: rank in [lo, hi] (hi capped by the policy unless lo needs more), of dtype
     `fixed` or, when that is void, of the op's class;
   kit_sample_in: rank in [lo, hi] within the policy, dtype in `set`. */
bool kit_sample_rank(OpGen *g, const OpDef *op, OpPlan *out, size_t rank);
bool kit_sample_ranked(OpGen *g, const OpDef *op, OpPlan *out, unsigned lo, unsigned hi, DType fixed);
bool kit_sample_in(OpGen *g, const OpDef *op, OpPlan *out, const DType *set, size_t n, unsigned lo,
                   unsigned hi);

/* ------------------------------------------------------------------ plans */
/* Appends an argument. */
static inline void kit_arg(OpPlan *p, const Type *t) { p->args[p->nargs++] = t; }
/* Attribute setters the opgen_set_* family lacks: a dtype (as its string), lists of floats, a list
   of pairs. */
void kit_set_dtype(OpGen *g, const OpDef *op, OpPlan *p, const char *name, DType d);
void kit_set_floats(OpGen *g, const OpDef *op, OpPlan *p, const char *name, const double *v, size_t n);
void kit_set_pairs(OpGen *g, const OpDef *op, OpPlan *p, const char *name, const int64_t (*pairs)[2],
                   size_t n);
/* out_dtype: the relations fall back to the data's dtype for "", so naming that dtype gives the
   same result; sometimes (1 in 4) it is named, so both spellings get generated. */
void kit_maybe_out_dtype(OpGen *g, const OpDef *op, OpPlan *plan, DType d);
/* `op` with its generators' dtype class widened to every dtype: lets an op's recognizer and solver
   plan the shape of a call whose dtypes another op's generator then chooses (QNN). */
OpDef kit_any_dtype(const char *name);
/* Copies the attribute values of plan `from` (of op `src`) into plan `to` (of op `dst`), by name. */
void kit_copy_attrs(const OpDef *src, const OpPlan *from, const OpDef *dst, OpPlan *to);

/* ------------------------------------------------------------------ sliding windows */
/* One window per spatial axis, for convolutions and pools: kernel, stride, dilation, padding before
   and after, a transposed convolution's output padding, and the input extent they need. */
enum { KIT_WIN_CONV, KIT_WIN_CONV_T, KIT_WIN_POOL };
/* padding spelled [p], [p_axis...] or [before..., after...] */
enum { KIT_PAD_ONE, KIT_PAD_PER_AXIS, KIT_PAD_FULL };
typedef struct KitWindow {
  size_t nd;
  int pad_form;
  int64_t k[3], s[3], dil[3], pb[3], pa[3], opad[3], in[3];
} KitWindow;
/* Chooses a window for each axis such that an input of extent w->in[i] gives output o[i] (the
   relation's formula inverted); false when the random choice needs an input of extent < 1 (the
   caller tries again).  `minimal` picks the identity window, which always works; `ceil_mode` is
   a pool's; `full_pad` spells the padding in full. */
bool kit_window_solve(OpGen *g, int kind, size_t nd, const int64_t *o, bool minimal, bool ceil_mode,
                      bool full_pad, KitWindow *w);
/* strides, dilation and padding as the window chose them. */
void kit_set_window(OpGen *g, const OpDef *op, OpPlan *out, const KitWindow *w);

/* ================================================================== shared schemas (kit_attrs.c) */

/* TVM's attrs structs whose ops sit in several families, each declared once; an op whose struct
   no other family uses keeps its schema beside it.  The sizes are checked against the definitions. */

/* Conv1DAttrs, Conv2DAttrs, Conv3DAttrs and (after tile_size) Conv2DWinogradAttrs,
   Conv3DWinogradAttrs (attrs/nn.h), in declaration order: channels and kernel_size default to null. */
#define KIT_CONV_ATTRS(strides, padding, dilation, data_layout, kernel_layout)                               \
  {"strides", AT_INTS, strides}, {"padding", AT_INTS, padding}, {"dilation", AT_INTS, dilation},             \
      {"groups", AT_INT, "1"}, {"channels", AT_INT, "None"}, {"kernel_size", AT_INTS, "None"},               \
      {"data_layout", AT_STR, data_layout}, {"kernel_layout", AT_STR, kernel_layout},                        \
      {"out_layout", AT_STR, "\"\""}, {                                                                      \
    "out_dtype", AT_DTYPE, "\"\""                                                                            \
  }
/* Conv1DTransposeAttrs, Conv2DTransposeAttrs: channels and kernel_size first, output_padding before
   padding. */
#define KIT_CONV_T_ATTRS(strides, outpad, padding, dilation, data_layout, kernel_layout)                     \
  {"channels", AT_INT, "None"}, {"kernel_size", AT_INTS, "None"}, {"strides", AT_INTS, strides},             \
      {"output_padding", AT_INTS, outpad}, {"padding", AT_INTS, padding}, {"dilation", AT_INTS, dilation},   \
      {"groups", AT_INT, "1"}, {"data_layout", AT_STR, data_layout},                                         \
      {"kernel_layout", AT_STR, kernel_layout}, {"out_layout", AT_STR, "\"\""}, {                            \
    "out_dtype", AT_DTYPE, "\"\""                                                                            \
  }
/* MaxPool*Attrs / AvgPool*Attrs: pool_size is required; dilation is declared before padding. */
#define KIT_POOL_ATTRS(ones, zeros, layout)                                                                  \
  {"pool_size", AT_INTS, "None"}, {"strides", AT_INTS, ones}, {"dilation", AT_INTS, ones},                   \
      {"padding", AT_INTS, zeros}, {"layout", AT_STR, layout}, {"out_layout", AT_STR, "\"\""}, {             \
    "ceil_mode", AT_BOOL, "False"                                                                            \
  }

extern const OpAttrSpec kit_conv2d_attrs[10];           /* Conv2DAttrs */
extern const OpAttrSpec kit_conv2d_transpose_attrs[11]; /* Conv2DTransposeAttrs */
extern const OpAttrSpec kit_max_pool2d_attrs[7];        /* MaxPool2DAttrs */
extern const OpAttrSpec kit_avg_pool2d_attrs[8];        /* AvgPool2DAttrs */
extern const OpAttrSpec kit_dense_attrs[2];             /* DenseAttrs */
extern const OpAttrSpec kit_dense_pack_attrs[3];        /* DensePackAttrs */
extern const OpAttrSpec kit_batch_matmul_attrs[3];      /* BatchMatmulAttrs */
extern const OpAttrSpec kit_softmax_attrs[1];           /* SoftmaxAttrs */
extern const OpAttrSpec kit_leaky_relu_attrs[1];        /* LeakyReluAttrs */
extern const OpAttrSpec kit_pad_attrs[2];               /* PadAttrs */
extern const OpAttrSpec kit_resize2d_attrs[10];         /* Resize2DAttrs */
extern const OpAttrSpec kit_cast_attrs[1];              /* CastAttrs */
extern const OpAttrSpec kit_concatenate_attrs[1];       /* ConcatenateAttrs */
extern const OpAttrSpec kit_init_op_attrs[2];           /* InitOpAttrs */
extern const OpAttrSpec kit_reshape_attrs[2];           /* ReshapeAttrs */
extern const OpAttrSpec kit_squeeze_attrs[1];           /* SqueezeAttrs */
extern const OpAttrSpec kit_tile_attrs[1];              /* TileAttrs */
extern const OpAttrSpec kit_one_hot_attrs[3];           /* OneHotAttrs */
extern const OpAttrSpec kit_topk_attrs[5];              /* TopKAttrs */
extern const OpAttrSpec kit_dequantize_attrs_v13[1];    /* DequantizeAttrs, v0.13.0 */
extern const OpAttrSpec kit_dequantize_attrs[2];        /* DequantizeAttrs, v0.19.0 */
/* UpSamplingAttrs, UpSampling3DAttrs and ShapeOfAttrs: one struct, two defaults (kit_attrs.c says
   why) — the static op's and the dyn or VM op's. */
extern const OpAttrSpec kit_upsampling_attrs[5], kit_dyn_upsampling_attrs[5];
extern const OpAttrSpec kit_upsampling3d_attrs[6], kit_dyn_upsampling3d_attrs[6];
extern const OpAttrSpec kit_shape_of_attrs[1], kit_vm_shape_of_attrs[1];

#endif
