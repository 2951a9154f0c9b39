/*
 * Transform operators: reshaping (reshape, reshape_like, transpose, squeeze, expand_dims),
 * joining and splitting (concatenate, stack, split), slicing and indexing (strided_slice, take,
 * gather, gather_nd, slice_like, ...), broadcasting (broadcast_to, where, collapse_sum_like, ...),
 * tensor creation (full, zeros, ones, arange, one_hot), layouts, shape_of, and the sorting family
 * (topk, sort, argsort), with the dynamic dyn.reshape and dyn.strided_slice.
 *
 * Facts from TVM v0.13: src/relay/op/tensor/transform.cc and transform.h, unary.cc (shape_of),
 * src/relay/op/algorithm/{topk,sort,argsort}.cc, src/relay/op/dyn/tensor/transform.cc,
 * include/tvm/topi/detail/strided_slice.h and src/tir/ir/data_layout.cc; attribute schemas from
 * include/tvm/relay/attrs/transform.h and algorithm.h.
 *
 * A field TVM declares without a default (the caller must give it) is spelled "None" in the
 * schemas below; a relation rejects the missing value where TVM's would fail on it.  Where TVM
 * would crash or read out of bounds on a bad input (no message of its own), the relation rejects
 * the call with a message naming the problem instead.
 *
 * Each op (or group of ops sharing a relation) is one block below: its relation, its generators
 * (recognizer, solver, sampler; see ops/ops.h, checked by tests/unit/test_opgen.c), its schema
 * (TVM's attrs struct, fields in declaration order) and its rows.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"
#include "kit.h"

OP_FAMILY(transform);

/* ================================================================== helpers the blocks below share */

/* A shape being built; dims_tensor interns it and releases the storage. */
typedef VEC(int64_t) Dims;

static void dims_push(Dims *d, int64_t v) { VEC_PUSH(*d, v); }

static const Type *dims_tensor(OpCall *c, DType dt, Dims *d) {
  const Type *t = ty_tensor(c->types, dt, d->items, d->len);
  free(d->items);
  *d = (Dims){0};
  return t;
}

/* A shape as TVM prints it in messages: "[1, ?, 3]", or without brackets "1,?,3" (reshape's
   message).  malloc'd. */
static char *shape_str(const int64_t *dims, size_t n, bool brackets) {
  StrBuf sb;
  sb_init(&sb);
  if (brackets) sb_putc(&sb, '[');
  for (size_t i = 0; i < n; i++) {
    if (i) sb_puts(&sb, brackets ? ", " : ",");
    if (dims[i] == KIT_ANY)
      sb_putc(&sb, '?');
    else
      sb_printf(&sb, "%lld", (long long)dims[i]);
  }
  if (brackets) sb_putc(&sb, ']');
  return sb_take(&sb);
}

/* The integers of a list attribute (a single integer counts as a list of one), malloc'd into
   *out.  False when the attribute is None or holds anything but constant integers: these
   relations need the values themselves. */
static bool int_list(const OpCall *c, const char *name, int64_t **out, size_t *n) {
  const AttrVal *v = op_attr(c, name);
  *out = NULL;
  *n = 0;
  if (v->kind == ATTR_INT) {
    *out = xmalloc(sizeof **out);
    (*out)[0] = v->i;
    *n = 1;
    return true;
  }
  if (v->kind != ATTR_LIST) return false;
  for (size_t i = 0; i < v->n; i++)
    if (v->items[i].kind != ATTR_INT) return false;
  *out = xmalloc((v->n ? v->n : 1) * sizeof **out);
  for (size_t i = 0; i < v->n; i++)
    (*out)[i] = v->items[i].i;
  *n = v->n;
  return true;
}

/* An integer attribute that TVM requires (declared without a default). */
static bool required_int(OpCall *c, const char *name, int64_t *out) {
  if (op_is_none(c, name) || op_attr(c, name)->kind != ATTR_INT) {
    op_fail(c, -1, "%s: attribute '%s' must be given as an integer", c->op->name, name);
    return false;
  }
  *out = op_int(c, name);
  return true;
}

static bool all_static(const Type *t) {
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] == KIT_ANY) return false;
  return true;
}

/* The element count of static dims, or -1 when it does not fit in int64 (a hostile shape such
   as reshape's newshape=[50, 32, 12, 63333333333333334]): then it equals no real count. */
static int64_t count_of(const int64_t *dims, size_t n) {
  int64_t p = 1;
  for (size_t i = 0; i < n; i++)
    if (__builtin_mul_overflow(p, dims[i], &p)) return -1;
  return p;
}

static int64_t product(const Type *t) { return count_of(t->dims, t->ndims); }

/* The shape attribute of the InitOpAttrs ops (full, zeros, ones, broadcast_to), which their
   relations require.  TVM would build a type with a negative dimension from a negative entry; a
   Type cannot hold one (-1 is `?`), so it is rejected. */
static const Type *init_shape(OpCall *c, DType dt) {
  int64_t *shape;
  size_t n;
  if (!int_list(c, "shape", &shape, &n)) {
    free(shape);
    return op_fail(c, -1, "%s: shape must be given as a list of integers", c->op->name);
  }
  for (size_t i = 0; i < n; i++)
    if (shape[i] < 0) {
      int64_t bad = shape[i];
      free(shape);
      return op_fail(c, -1, "%s: shape dimension %lld is negative", c->op->name, (long long)bad);
    }
  const Type *t = ty_tensor(c->types, dt, shape, n);
  free(shape);
  return t;
}

/* ------------------------------------------------------------------ generators */

/* The RFC's recognizers, solvers and samplers (ops/ops.h).  A solver builds the argument
   types and attributes backwards from the wanted result; every choice is drawn from g->rng so that
   solving one type twice gives different calls.  Recognizers accept only what their solvers can
   produce exactly, which for most ops here means static shapes with every dimension at least 1
   (a `?` or a 0 could only come from unusual inputs the solvers do not build). */

/* Tuple fields the generators handle (split results, stack inputs). */
enum { GEN_FIELDS_MAX = 64 };

static void gen_shuffle(OpGen *g, int64_t *xs, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = rng_index(g->rng, i);
    int64_t tmp = xs[i - 1];
    xs[i - 1] = xs[j];
    xs[j] = tmp;
  }
}

/* ------------------------------------------------------------------ reshape */

/* ReshapeRel (src/relay/op/tensor/transform.cc): InferNewShape, then the element counts must agree
   when both shapes are static. */
static const Type *reshape_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t *ns;
  size_t nn;
  if (!int_list(c, "newshape", &ns, &nn)) {
    free(ns);
    return op_fail(c, -1, "reshape: newshape must be a list of integers");
  }
  Dims o = {0};
  bool ok = kit_reshape_infer(c, data, ns, nn, op_bool(c, "allowzero"), &o.items, &o.len);
  free(ns);
  if (!ok) return NULL;
  bool dynamic = !all_static(data);
  for (size_t i = 0; i < o.len; i++) dynamic |= o.items[i] == KIT_ANY;
  if (!dynamic && (count_of(o.items, o.len) != product(data) || product(data) < 0)) {
    char *a = shape_str(data->dims, data->ndims, false), *b = shape_str(o.items, o.len, false);
    op_fail(c, 0, "reshape: Input tensor shape(%s) and reshaped shape(%s) are not compatible!", a, b);
    free(a);
    free(b);
    free(o.items);
    return NULL;
  }
  return dims_tensor(c, data->dtype, &o);
}

/* reshape: an input of the same element count and a newshape that mixes literal sizes with TVM's
   codes.  The input is built together with newshape: 0, -3, -4 and -2 copy input dimensions (so
   those are fixed), literals and -1 consume one input dimension each whose size is free; the free
   ones share what is left of the element count.  -1 comes only before -4 and -2, since TVM stores
   the inferred size at -1's position in newshape, which differs from its output position after
   them (infer_new_shape copies that quirk). */
static bool reshape_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  int64_t ns[3 * KIT_RANK_MAX + 1], in[2 * KIT_RANK_MAX + 4];
  bool fixed[2 * KIT_RANK_MAX + 4];
  size_t nns = 0, nin = 0;
  bool inferred = false, shifted = false, tail = false, zero_code = false;
  int64_t fixed_product = 1;
#define FIX(v) (fixed[nin] = true, fixed_product *= (v), in[nin++] = (v))
#define FREE() (fixed[nin] = false, in[nin++] = 1)
  for (size_t j = 0; j < n && !tail; j++) {
    int64_t d = t->dims[j];
    size_t pick = rng_index(g->rng, 12);
    if (pick == 0 && !inferred && !shifted) {
      ns[nns++] = -1;
      inferred = true;
      FREE();
    } else if (pick == 1) {
      ns[nns++] = 0;
      zero_code = true;
      FIX(d);
    } else if (pick == 2) {
      int64_t a = kit_divisor(g, d, d);
      ns[nns++] = -3;
      FIX(a);
      FIX(d / a);
    } else if (pick == 3 && j + 1 < n) {
      int64_t d2 = t->dims[j + 1];
      bool first_inferred = rng_chance(g->rng, 1, 3);
      ns[nns++] = -4;
      ns[nns++] = first_inferred ? -1 : d;
      ns[nns++] = !first_inferred && rng_chance(g->rng, 1, 2) ? -1 : d2;
      FIX(d * d2);
      j++;
      shifted = true;
    } else if (pick == 4 && rng_chance(g->rng, 1, 2)) {
      ns[nns++] = -2;
      for (size_t k = j; k < n; k++)
        FIX(t->dims[k]);
      tail = shifted = true;
    } else {
      ns[nns++] = d;
      FREE();
    }
  }
  if (!tail) {
    if (rng_chance(g->rng, 1, 8))
      ns[nns++] = -2; /* copies nothing: the input ends here */
    else
      for (int64_t extra = rng_range(g->rng, 0, 2); extra > 0 && nin < g->policy->max_rank; extra--)
        FREE(); /* unused trailing input dimensions, part of the element count */
  }
#undef FIX
#undef FREE
  int64_t free_dims[2 * KIT_RANK_MAX + 4];
  size_t nfree = 0;
  for (size_t i = 0; i < nin; i++)
    nfree += !fixed[i];
  /* The free dimensions hold the elements the copied ones do not (exactly the literals' and
     -1's sizes, in some other factorization). */
  int64_t rest = product(t) / fixed_product;
  if (nfree) kit_factors(g, rest, nfree, free_dims);
  for (size_t i = 0, k = 0; i < nin; i++)
    if (!fixed[i]) in[i] = free_dims[k++];
  kit_arg(out, kit_tensor(g, t->dtype, in, nin));
  opgen_set_ints(g, op, out, "newshape", ns, nns);
  /* allowzero changes only what a 0 code means, so it may be set whenever none is used. */
  if (!zero_code && rng_chance(g->rng, 1, 6)) opgen_set_bool(g, op, out, "allowzero", true);
  out->result = t;
  return true;
}

static const OpDef reshape_ops[] = {
    KIT_OP("reshape", 1, kit_reshape_attrs, reshape_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, reshape_solve)),
};
OP_REGISTER(reshape_ops);

/* ------------------------------------------------------------------ reshape_like */

/* ReshapeLikeRel / infer_reshape_like: data's dims before lhs_begin, shape_like's dims
   [rhs_begin, rhs_end), data's dims from lhs_end; sizes must agree when data is static. */
static const Type *reshape_like_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *like = data ? op_tensor_arg(c, 1) : NULL;
  if (!like) return NULL;
  int64_t ln = data->ndims, rn = like->ndims;
  int64_t lb = op_int(c, "lhs_begin"), rb = op_int(c, "rhs_begin");
  int64_t le = op_is_none(c, "lhs_end") ? ln : op_int(c, "lhs_end");
  int64_t re = op_is_none(c, "rhs_end") ? rn : op_int(c, "rhs_end");
  if (lb < 0) lb += ln;
  if (le < 0) le += ln;
  if (rb < 0) rb += rn;
  if (re < 0) re += rn;
  /* TVM indexes the shapes with these unchecked; out of range it reads past the arrays. */
  if (lb < 0 || lb > ln || le < 0 || (rb < re && (rb < 0 || re > rn)))
    return op_fail(
        c, -1,
        "reshape_like: the axis ranges [0, %lld) and [%lld, %lld) of data (rank %lld) and [%lld, %lld) of "
        "shape_like (rank %lld) are out of range",
        (long long)lb, (long long)le, (long long)ln, (long long)ln, (long long)rb, (long long)re,
        (long long)rn);
  Dims o = {0};
  for (int64_t i = 0; i < lb; i++)
    dims_push(&o, data->dims[i]);
  for (int64_t i = rb; i < re; i++)
    dims_push(&o, like->dims[i]);
  for (int64_t i = le; i < ln; i++)
    dims_push(&o, data->dims[i]);
  if (all_static(data)) {
    bool odyn = false;
    for (size_t i = 0; i < o.len; i++) odyn |= o.items[i] == KIT_ANY;
    if (!odyn && (count_of(o.items, o.len) != product(data) || product(data) < 0)) {
      char *a = shape_str(data->dims, data->ndims, true), *b = shape_str(o.items, o.len, true);
      op_fail(c, 1,
              "Reshape inputs size should be compatible, but found data_shape %s not same as output_shape %s",
              a, b);
      free(a);
      free(b);
      free(o.items);
      return NULL;
    }
  }
  return dims_tensor(c, data->dtype, &o);
}

/* reshape_like: the result is data[:lhs_begin] + like[rhs_begin:rhs_end] + data[lhs_end:].  The
   result is cut into a data prefix, a middle taken from shape_like (between random extra
   dimensions) and a data suffix; data holds a refactoring of the middle in between, so the
   element counts agree.  A third of the calls take the common form: every attribute at its
   default, shape_like of the result's shape. */
static bool reshape_like_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims;
  bool plain = rng_chance(g->rng, 1, 3);
  int64_t p = plain ? 0 : rng_range(g->rng, 0, n), q = plain ? n : rng_range(g->rng, p, n), mid = 1;
  for (int64_t i = p; i < q; i++)
    mid *= t->dims[i];
  int64_t data[KIT_RANK_MAX + 3], like[KIT_RANK_MAX + 4];
  int64_t nx = rng_range(g->rng, mid > 1 ? 1 : 0, 3), nd = 0, nl = 0;
  for (int64_t i = 0; i < p; i++)
    data[nd++] = t->dims[i];
  if (nx) kit_factors(g, mid, (size_t)nx, data + nd);
  nd += nx;
  for (int64_t i = q; i < n; i++)
    data[nd++] = t->dims[i];
  int64_t na = plain ? 0 : rng_range(g->rng, 0, 2), nb = plain ? 0 : rng_range(g->rng, 0, 2), extra[4];
  opgen_dims(g, (size_t)(na + nb), g->policy->max_elements / mid, extra);
  memcpy(like, extra, na * sizeof *like);
  nl = na;
  for (int64_t i = p; i < q; i++)
    like[nl++] = t->dims[i];
  memcpy(like + nl, extra + na, nb * sizeof *like);
  nl += nb;
  kit_arg(out, kit_tensor(g, t->dtype, data, (size_t)nd));
  kit_arg(out, kit_tensor(g, opgen_dtype(g, OPDT_ANY), like, (size_t)nl));
  out->result = t;
  if (plain) return true;
  /* Negative spellings count from the end; they exist only for positions before the end. */
  int64_t lb = p, le = p + nx, rb = na, re = na + (q - p);
  if (lb < nd && rng_chance(g->rng, 1, 4)) lb -= nd;
  opgen_set_int(g, op, out, "lhs_begin", lb);
  if (le < nd || !rng_chance(g->rng, 1, 2))
    opgen_set_int(g, op, out, "lhs_end", le < nd ? kit_gen_axis(g, le, nd) : le);
  if (rb < nl && rng_chance(g->rng, 1, 4)) rb -= nl;
  opgen_set_int(g, op, out, "rhs_begin", rb);
  if (re < nl || !rng_chance(g->rng, 1, 2))
    opgen_set_int(g, op, out, "rhs_end", re < nl ? kit_gen_axis(g, re, nl) : re);
  out->result = t;
  return true;
}

static const OpAttrSpec reshape_like_attrs[] = {{"lhs_begin", AT_INT, "0"},
                                                {"lhs_end", AT_INT, "None"},
                                                {"rhs_begin", AT_INT, "0"},
                                                {"rhs_end", AT_INT, "None"}};

static const OpDef reshape_like_ops[] = {
    KIT_OP("reshape_like", 2, reshape_like_attrs, reshape_like_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, reshape_like_solve)),
};
OP_REGISTER(reshape_like_ops);

/* ------------------------------------------------------------------ dyn.reshape, dyn.broadcast_to */

/* dyn.reshape and dyn.broadcast_to (ReshapeRel, BroadCastToRel in src/relay/op/dyn/tensor/
   transform.cc): the result's rank is the length of the shape tensor; every dimension is unknown. */
static const Type *dyn_reshape_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *shape = data ? op_tensor_arg(c, 1) : NULL;
  if (!shape) return NULL;
  if (shape->ndims == 0)
    return op_fail(c, 1, "%s: the new shape must be a 1-D tensor, got a scalar", c->op->name);
  if (shape->dims[0] == KIT_ANY) return op_fail(c, 1, "Dynamic Reshape doesn't support Dynamic Rank");
  if (shape->dims[0] > OP_RANK_LIMIT) /* billions of dimensions would only exhaust memory */
    return op_fail(c, 1, "%s: a shape of %lld values would make a tensor of rank %lld (the limit is %d)", c->op->name,
                   (long long)shape->dims[0], (long long)shape->dims[0], OP_RANK_LIMIT);
  Dims o = {0};
  for (int64_t i = 0; i < shape->dims[0]; i++)
    dims_push(&o, KIT_ANY);
  return dims_tensor(c, data->dtype, &o);
}

/* dyn.reshape, dyn.broadcast_to: the result is all `?`, its rank the length of the shape tensor.
   The data is any tensor (the element count is checked only when the program runs; for
   broadcast_to the data's rank stays within the result's). */
static bool dyn_shape_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TENSOR || t->ndims < 1 || t->ndims > KIT_RANK_MAX ||
      !opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype))
    return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] != KIT_ANY) return false;
  return true;
}

static bool dyn_shape_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  bool bcast = !strcmp(op->name, "dyn.broadcast_to");
  unsigned max_rank = bcast ? t->ndims : g->policy->max_rank;
  kit_arg(out, opgen_tensor(g, t->dtype, bcast ? 0 : 1, max_rank));
  int64_t len = t->ndims;
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), &len, 1));
  out->result = t;
  return true;
}

static bool dyn_shape_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t dims[KIT_RANK_MAX];
  size_t n = (size_t)rng_range(g->rng, 1, g->policy->max_rank);
  for (size_t i = 0; i < n; i++)
    dims[i] = KIT_ANY;
  return dyn_shape_solve(g, op, kit_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), dims, n), out);
}

static const OpDef dyn_shape_ops[] = {
    KIT_OP("dyn.reshape", 2, kit_reshape_attrs, dyn_reshape_rel,
           KIT_GEN(OPDT_ANY, dyn_shape_recognize, dyn_shape_solve, dyn_shape_sample)),
    KIT_OP("dyn.broadcast_to", 2, kit_init_op_attrs, dyn_reshape_rel,
           KIT_GEN(OPDT_ANY, dyn_shape_recognize, dyn_shape_solve, dyn_shape_sample)),
};
OP_REGISTER(dyn_shape_ops);

/* ------------------------------------------------------------------ transpose */

/* TransposeRel: axes None reverses; otherwise a permutation of [0, ndim) (negatives count from
   the end). */
static const Type *transpose_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t nd = data->ndims;
  Dims o = {0};
  if (op_is_none(c, "axes")) {
    for (int64_t i = nd - 1; i >= 0; i--)
      dims_push(&o, data->dims[i]);
    return dims_tensor(c, data->dtype, &o);
  }
  int64_t *axes;
  size_t n;
  if (!int_list(c, "axes", &axes, &n)) {
    free(axes);
    return op_fail(c, -1, "transpose: axes must be a list of integers");
  }
  const Type *r = NULL;
  bool *used = xcalloc(nd ? nd : 1, sizeof *used);
  if ((int64_t)n != nd) {
    op_fail(c, -1, "Dimension mismatch: axes has %zu elements, but data.ndim = %lld", n, (long long)nd);
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    int64_t a = axes[i];
    if (a < -nd || a >= nd) {
      op_fail(c, -1,
              "transpose only allows each `axis` in `axes` in range [-data.ndim, data.ndim), but got axis = "
              "%lld, and "
              "data.ndim = %lld",
              (long long)a, (long long)nd);
      goto done;
    }
    if (a < 0) a += nd;
    if (used[a]) {
      op_fail(c, -1, "Duplicate axes in transpose: %lld", (long long)a);
      goto done;
    }
    used[a] = true;
    dims_push(&o, data->dims[a]);
  }
  r = dims_tensor(c, data->dtype, &o);
done:
  free(o.items);
  free(used);
  free(axes);
  return r;
}

/* transpose: a random permutation; the input holds result dimension i at position perm[i].  The
   reversal is sometimes left to axes=None. */
static bool transpose_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  int64_t perm[KIT_RANK_MAX], in[KIT_RANK_MAX];
  bool reverse = rng_chance(g->rng, 1, 4);
  for (size_t i = 0; i < n; i++)
    perm[i] = reverse ? (int64_t)(n - 1 - i) : (int64_t)i;
  if (!reverse) gen_shuffle(g, perm, n);
  for (size_t i = 0; i < n; i++)
    in[perm[i]] = t->dims[i];
  kit_arg(out, kit_tensor(g, t->dtype, in, n));
  if (!reverse || rng_chance(g->rng, 1, 2)) {
    for (size_t i = 0; i < n; i++)
      perm[i] = kit_gen_axis(g, perm[i], (int64_t)n);
    opgen_set_ints(g, op, out, "axes", perm, n);
  }
  out->result = t;
  return true;
}

static const OpAttrSpec transpose_attrs[] = {{"axes", AT_INTS, "None"}};

static const OpDef transpose_ops[] = {
    KIT_OP("transpose", 1, transpose_attrs, transpose_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, transpose_solve)),
};
OP_REGISTER(transpose_ops);

/* ------------------------------------------------------------------ squeeze */

/* SqueezeRel: axis None drops every static 1 (and needs a static shape); a list drops those axes,
   which must not be static dimensions other than 1. */
static const Type *squeeze_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  size_t nd = data->ndims;
  Dims o = {0};
  if (op_is_none(c, "axis")) {
    for (size_t i = 0; i < nd; i++) {
      if (data->dims[i] == KIT_ANY) {
        free(o.items);
        return op_fail(c, 0, "axis needs to be defined for dynamic input.");
      }
      if (data->dims[i] != 1) dims_push(&o, data->dims[i]);
    }
    return dims_tensor(c, data->dtype, &o);
  }
  int64_t *axes;
  size_t n;
  if (!int_list(c, "axis", &axes, &n)) {
    free(axes);
    return op_fail(c, -1, "squeeze: axis must be a list of integers");
  }
  bool *drop = xcalloc(nd ? nd : 1, sizeof *drop);
  const Type *r = NULL;
  for (size_t i = 0; i < n; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + (int64_t)nd : axes[i];
    if (a < 0 || a >= (int64_t)nd) {
      op_fail(c, -1, "squeeze: axis %lld is out of range for data.ndim = %zu", (long long)axes[i], nd);
      goto done;
    }
    drop[a] = true;
  }
  for (size_t i = 0; i < nd; i++) {
    if (!drop[i])
      dims_push(&o, data->dims[i]);
    else if (data->dims[i] != KIT_ANY && data->dims[i] != 1) {
      op_fail(c, 0, "cannot squeeze axis with dimension not equal to 1 (axis %zu has dimension %lld)", i,
              (long long)data->dims[i]);
      goto done;
    }
  }
  r = dims_tensor(c, data->dtype, &o);
done:
  free(o.items);
  free(drop);
  free(axes);
  return r;
}

/* squeeze: ones inserted into the result at random positions, named by axis; axis=None when the
   result has no 1 of its own (None would drop those too). */
static bool squeeze_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims, k = (size_t)rng_range(g->rng, 0, 2), nd = n + k;
  bool inserted[KIT_RANK_MAX + 2] = {false};
  for (size_t placed = 0; placed < k;) {
    size_t at = rng_index(g->rng, nd);
    if (!inserted[at]) inserted[at] = true, placed++;
  }
  int64_t in[KIT_RANK_MAX + 2], axes[2];
  bool own_ones = false;
  size_t na = 0;
  for (size_t i = 0, j = 0; i < nd; i++) {
    if (inserted[i]) {
      in[i] = 1;
      axes[na++] = kit_gen_axis(g, (int64_t)i, (int64_t)nd);
    } else {
      in[i] = t->dims[j++];
      own_ones |= in[i] == 1;
    }
  }
  gen_shuffle(g, axes, na);
  kit_arg(out, kit_tensor(g, t->dtype, in, nd));
  if (own_ones || rng_chance(g->rng, 2, 3)) opgen_set_ints(g, op, out, "axis", axes, na);
  out->result = t;
  return true;
}

static const OpDef squeeze_ops[] = {
    KIT_OP("squeeze", 1, kit_squeeze_attrs, squeeze_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, squeeze_solve)),
};
OP_REGISTER(squeeze_ops);

/* ------------------------------------------------------------------ expand_dims */

/* ExpandDimsRel: num_newaxis ones inserted at axis, axis in [-ndim - 1, ndim]. */
static const Type *expand_dims_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t axis;
  if (!data || !required_int(c, "axis", &axis)) return NULL;
  int64_t nd = data->ndims, k = op_int(c, "num_newaxis");
  if (k < 0)
    return op_fail(c, -1, "expand_dims only accepts `num_newaxis >= 0`, but got num_newaxis = %lld",
                   (long long)k);
  if (k > OP_RANK_LIMIT - nd)
    return op_fail(c, -1, "expand_dims: num_newaxis = %lld would make a tensor of rank %llu (the limit is %d)",
                   (long long)k, (unsigned long long)nd + (unsigned long long)k, OP_RANK_LIMIT); /* no overflow */
  if (axis < -nd - 1 || axis > nd)
    return op_fail(
        c, -1,
        "expand_dims only accepts `axis` in [-data.ndim - 1, data.ndim], but got axis = %lld, and data.ndim "
        "= %lld",
        (long long)axis, (long long)nd);
  int64_t pivot = axis < 0 ? nd + axis + 1 : axis;
  Dims o = {0};
  for (int64_t i = 0; i < pivot; i++)
    dims_push(&o, data->dims[i]);
  for (int64_t i = 0; i < k; i++)
    dims_push(&o, 1);
  for (int64_t i = pivot; i < nd; i++)
    dims_push(&o, data->dims[i]);
  return dims_tensor(c, data->dtype, &o);
}

/* expand_dims: a run of ones in the result is the inserted one (num_newaxis = its length, maybe
   shortened); without ones, num_newaxis = 0 inserts nothing. */
static bool expand_dims_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  size_t ones[KIT_RANK_MAX], nones = 0;
  for (size_t i = 0; i < n; i++)
    if (t->dims[i] == 1) ones[nones++] = i;
  size_t pivot, k = 0;
  if (nones && !rng_chance(g->rng, 1, 8)) {
    pivot = ones[rng_index(g->rng, nones)];
    size_t run = 0;
    while (pivot + run < n && t->dims[pivot + run] == 1)
      run++;
    k = (size_t)rng_range(g->rng, 1, (int64_t)run);
  } else {
    pivot = rng_index(g->rng, n + 1);
  }
  int64_t in[KIT_RANK_MAX], nd = 0;
  for (size_t i = 0; i < n; i++)
    if (i < pivot || i >= pivot + k) in[nd++] = t->dims[i];
  kit_arg(out, kit_tensor(g, t->dtype, in, (size_t)nd));
  /* axis in [-nd - 1, nd]: a negative one counts insertion points from the end. */
  opgen_set_int(g, op, out, "axis", rng_chance(g->rng, 1, 3) ? (int64_t)pivot - nd - 1 : (int64_t)pivot);
  if (k != 1 || rng_chance(g->rng, 1, 3)) opgen_set_int(g, op, out, "num_newaxis", (int64_t)k);
  out->result = t;
  return true;
}

/* Random tensors seldom have ones to insert, so the sampler makes a result with 1..2 of them. */
static bool expand_dims_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  size_t k = (size_t)rng_range(g->rng, 1, 2);
  unsigned max_rank = g->policy->max_rank > k ? g->policy->max_rank - (unsigned)k : 0;
  const Type *in = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 0, max_rank);
  size_t pivot = rng_index(g->rng, in->ndims + 1);
  int64_t dims[KIT_RANK_MAX + 2];
  size_t n = 0;
  for (size_t i = 0; i <= in->ndims; i++) {
    if (i == pivot)
      for (size_t j = 0; j < k; j++)
        dims[n++] = 1;
    if (i < in->ndims) dims[n++] = in->dims[i];
  }
  return expand_dims_solve(g, op, kit_tensor(g, in->dtype, dims, n), out);
}

static const OpAttrSpec expand_dims_attrs[] = {{"axis", AT_INT, "None"}, {"num_newaxis", AT_INT, "1"}};

static const OpDef expand_dims_ops[] = {
    KIT_OP("expand_dims", 1, expand_dims_attrs, expand_dims_rel,
           KIT_GEN(OPDT_ANY, kit_static_any, expand_dims_solve, expand_dims_sample)),
};
OP_REGISTER(expand_dims_ops);

/* ------------------------------------------------------------------ concatenate, stack */

/* The fields of a tuple argument that must all be tensors (TVM downcasts each to TensorType). */
static bool tensor_fields(OpCall *c, size_t arg, const char *notuple_fmt) {
  const Type *t = c->args[arg];
  if (t->kind != TY_TUPLE) {
    char *s = ty_str(t);
    op_fail(c, (int)arg, notuple_fmt, s);
    free(s);
    return false;
  }
  if (t->nargs == 0) {
    op_fail(c, (int)arg, "%s requires a non-empty tuple of tensors", c->op->name);
    return false;
  }
  for (uint32_t i = 0; i < t->nargs; i++)
    if (t->args[i]->kind != TY_TENSOR) {
      char *s = ty_str(t->args[i]);
      op_fail(c, (int)arg, "%s requires a tuple of tensors, but field %u is %s", c->op->name, i, s);
      free(s);
      return false;
    }
  return true;
}

/* ConcatenateRel (src/relay/op/tensor/transform.h): same rank and dtype; the concatenated axis
   adds up (unknown if any input's is); another axis takes the common static size, where a `?`
   in some input counts as agreeing, and stays unknown when the concatenated axis is static but
   some input is unknown there. */
static const Type *concatenate_rel(OpCall *c) {
  if (!tensor_fields(c, 0, "concatenate requires a tuple of tensors as the first argument, found %s"))
    return NULL;
  const Type *tup = c->args[0], *first = tup->args[0];
  int64_t nd = first->ndims, axis = op_int(c, "axis");
  if (axis < -nd || axis >= nd)
    return op_fail(c, -1,
                   "concatenate only accepts `axis` in [-ndim, ndim), but got axis = %lld, and ndim = %lld",
                   (long long)axis, (long long)nd);
  if (axis < 0) axis += nd;
  for (uint32_t i = 0; i < tup->nargs; i++) {
    if ((int64_t)tup->args[i]->ndims != nd)
      return op_fail(c, 0, "relay.concatenate requires all tensors have the same ndim");
    if (!dtype_eq(tup->args[i]->dtype, first->dtype))
      return op_fail(c, 0, "relay.concatenate requires all tensors have the same dtype");
  }
  Dims o = {0};
  bool dynamic_concat = false;
  int64_t sum = 0;
  for (uint32_t i = 0; i < tup->nargs; i++) {
    int64_t d = tup->args[i]->dims[axis];
    if (d == KIT_ANY)
      dynamic_concat = true;
    else
      sum += d;
  }
  for (int64_t j = 0; j < nd; j++) {
    if (j == axis) {
      dims_push(&o, dynamic_concat ? KIT_ANY : sum);
      continue;
    }
    int64_t known = KIT_ANY;
    size_t nknown = 0;
    for (uint32_t i = 0; i < tup->nargs; i++) {
      int64_t d = tup->args[i]->dims[j];
      if (d == KIT_ANY) continue;
      if (nknown++ && d != known) {
        free(o.items);
        return op_fail(
            c, 0, "relay.concatenate requires all tensors have the same shape on non-concatenating axes");
      }
      known = d;
    }
    if (nknown == tup->nargs || (nknown > 0 && dynamic_concat))
      dims_push(&o, known);
    else
      dims_push(&o, KIT_ANY);
  }
  return dims_tensor(c, first->dtype, &o);
}

/* StackRel: a new axis of size len(tuple) at axis in [-(ndim+1), ndim+1).  The shape check
   mirrors TVM's, which skips input dimension `axis` (an output position) rather than none. */
static const Type *stack_rel(OpCall *c) {
  if (!tensor_fields(c, 0, "stack: expect input type to be TupleType but get %s")) return NULL;
  const Type *tup = c->args[0], *first = tup->args[0];
  int64_t nd = first->ndims, axis = op_int(c, "axis");
  if (axis < -(nd + 1) || axis >= nd + 1)
    return op_fail(c, -1,
                   "stack only accepts `axis` in [-(ndim+1), ndim+1), but got axis = %lld, and ndim = %lld",
                   (long long)axis, (long long)nd);
  if (axis < 0) axis += nd + 1;
  for (uint32_t i = 0; i < tup->nargs; i++) {
    const Type *e = tup->args[i];
    if ((int64_t)e->ndims != nd) return op_fail(c, 0, "relay.stack requires all tensors have the same ndim");
    if (!dtype_eq(e->dtype, first->dtype))
      return op_fail(c, 0, "relay.stack requires all tensors have the same dtype");
    for (int64_t j = 0; j < nd; j++) {
      if (j == axis || first->dims[j] == KIT_ANY || e->dims[j] == KIT_ANY || first->dims[j] == e->dims[j]) continue;
      return op_fail(c, 0, "relay.stack requires all tensors have the same shape on non-stacking axes");
    }
  }
  Dims o = {0};
  for (int64_t i = 0; i < axis; i++)
    dims_push(&o, first->dims[i]);
  dims_push(&o, tup->nargs);
  for (int64_t i = axis; i < nd; i++)
    dims_push(&o, first->dims[i]);
  return dims_tensor(c, first->dtype, &o);
}

/* concatenate: the result cut along an axis into 1..4 parts of positive size. */
static bool concatenate_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims, a = rng_range(g->rng, 0, n - 1), d = t->dims[a];
  int64_t m = rng_range(g->rng, 1, d < 4 ? d : 4), cuts[5] = {0};
  /* m - 1 distinct cut points in (0, d), sorted, between 0 and d. */
  for (int64_t k = 1; k < m;) {
    int64_t c = rng_range(g->rng, 1, d - 1);
    bool dup = false;
    for (int64_t j = 1; j < k; j++)
      dup |= cuts[j] == c;
    if (!dup) cuts[k++] = c;
  }
  for (int64_t i = 1; i < m; i++)
    for (int64_t j = i; j > 1 && cuts[j - 1] > cuts[j]; j--) {
      int64_t tmp = cuts[j];
      cuts[j] = cuts[j - 1];
      cuts[j - 1] = tmp;
    }
  cuts[m] = d;
  const Type *fields[4];
  int64_t dims[KIT_RANK_MAX];
  memcpy(dims, t->dims, n * sizeof *dims);
  for (int64_t i = 0; i < m; i++) {
    dims[a] = cuts[i + 1] - cuts[i];
    fields[i] = kit_tensor(g, t->dtype, dims, (size_t)n);
  }
  kit_arg(out, ty_tuple(g->types, fields, (size_t)m));
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, a, n));
  out->result = t;
  return true;
}

/* stack: the result's axis of size m is m equal tensors without it; only axes of at most
   GEN_FIELDS_MAX qualify. */
static bool stack_recognize(const OpDef *op, const Type *t) {
  if (!kit_static_ranked(op, t)) return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] <= GEN_FIELDS_MAX) return true;
  return false;
}

static bool stack_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims;
  int64_t a;
  do
    a = rng_range(g->rng, 0, n - 1);
  while (t->dims[a] > GEN_FIELDS_MAX);
  int64_t in[KIT_RANK_MAX], nd = 0;
  for (int64_t i = 0; i < n; i++)
    if (i != a) in[nd++] = t->dims[i];
  const Type *field = kit_tensor(g, t->dtype, in, (size_t)nd), *fields[GEN_FIELDS_MAX];
  for (int64_t i = 0; i < t->dims[a]; i++)
    fields[i] = field;
  kit_arg(out, ty_tuple(g->types, fields, (size_t)t->dims[a]));
  /* axis in [-(nd+1), nd+1) */
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, a, nd + 1));
  out->result = t;
  return true;
}

static const OpAttrSpec stack_attrs[] = {{"axis", AT_INT, "0"}};

static const OpDef concatenate_ops[] = {
    KIT_OP("concatenate", 1, kit_concatenate_attrs, concatenate_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_ranked, concatenate_solve)),
    KIT_OP("stack", 1, stack_attrs, stack_rel,
           KIT_GEN(OPDT_ANY, stack_recognize, stack_solve, opgen_sample_by_solving)),
};
OP_REGISTER(concatenate_ops);

/* ------------------------------------------------------------------ split */

/* SplitRel: an integer splits the axis into that many equal parts (it must divide a static
   size); a list of ascending indices cuts it before each index.  The result is a tuple. */
static const Type *split_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "split: Input shape cannot be empty");
  int64_t nd = data->ndims, axis = op_int(c, "axis");
  if (axis < 0) axis += nd;
  if (axis < 0 || axis >= nd)
    return op_fail(c, -1, "split: axis should be within the input dimension range.");
  const AttrVal *ios = op_attr(c, "indices_or_sections");
  int64_t dim = data->dims[axis];
  const Type **fields = NULL;
  size_t nfields = 0;
  const Type *r = NULL;
  int64_t *shape = xmalloc(nd * sizeof *shape);
  memcpy(shape, data->dims, nd * sizeof *shape);
  if (ios->kind == ATTR_INT) {
    int64_t sections = ios->i;
    /* TVM would divide by zero, or produce nothing, for sections < 1. */
    if (sections < 1 || sections > (1 << 24)) {
      op_fail(c, -1,
              "split: indices_or_sections must be a positive number of sections (at most 2^24), got %lld",
              (long long)sections);
      goto done;
    }
    if (dim != KIT_ANY && dim % sections != 0) {
      op_fail(
          c, 0,
          "split: indices_or_sections need to be able to divide input.shape[axis] (%lld sections of %lld)",
          (long long)sections, (long long)dim);
      goto done;
    }
    shape[axis] = dim == KIT_ANY ? KIT_ANY : dim / sections;
    fields = xmalloc(sections * sizeof *fields);
    for (int64_t i = 0; i < sections; i++)
      fields[nfields++] = ty_tensor(c->types, data->dtype, shape, nd);
  } else {
    int64_t *idx;
    size_t n;
    if (!int_list(c, "indices_or_sections", &idx, &n)) {
      free(idx);
      op_fail(c, -1, "split: indices_or_sections must be an integer or a list of integers");
      goto done;
    }
    fields = xmalloc((n + 1) * sizeof *fields);
    int64_t begin = 0;
    for (size_t i = 0; i < n; i++) {
      if (idx[i] <= begin) {
        free(idx);
        op_fail(c, -1, "split: indices_or_sections need to be a sorted ascending list");
        goto done;
      }
      shape[axis] = idx[i] - begin;
      begin = idx[i];
      fields[nfields++] = ty_tensor(c->types, data->dtype, shape, nd);
    }
    free(idx);
    if (dim != KIT_ANY && begin >= dim) {
      op_fail(c, 0, "split: The sum of sections must match the input.shape[axis]");
      goto done;
    }
    shape[axis] = dim == KIT_ANY ? KIT_ANY : dim - begin;
    fields[nfields++] = ty_tensor(c->types, data->dtype, shape, nd);
  }
  r = ty_tuple(c->types, fields, nfields);
done:
  free(fields);
  free(shape);
  return r;
}

/* The axis on which split's fields differ, or -1 when they all agree; -2 when they differ on more
   than one (or do not share rank and dtype). */
static int split_axis(const Type *t) {
  const Type *f0 = t->args[0];
  int axis = -1;
  for (uint32_t i = 1; i < t->nargs; i++) {
    const Type *f = t->args[i];
    if (f->ndims != f0->ndims || !dtype_eq(f->dtype, f0->dtype)) return -2;
    for (uint32_t j = 0; j < f0->ndims; j++)
      if (f->dims[j] != f0->dims[j]) {
        if (axis >= 0 && axis != (int)j) return -2;
        axis = (int)j;
      }
  }
  return axis;
}

/* split: a tuple of 1..GEN_FIELDS_MAX tensors that agree except on one axis. */
static bool split_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || t->nargs < 1 || t->nargs > GEN_FIELDS_MAX) return false;
  int64_t sum = 0;
  for (uint32_t i = 0; i < t->nargs; i++) {
    if (!kit_static_ranked(op, t->args[i])) return false;
    sum += product(t->args[i]);
    if (sum > KIT_ELEMENTS_MAX) return false;
  }
  return split_axis(t) != -2;
}

/* The data is the fields joined along the axis; equal parts may be asked for as a number of
   sections, any parts as the ascending cut indices. */
static bool split_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const Type *f0 = t->args[0];
  const int64_t nd = f0->ndims, m = t->nargs;
  int axis = split_axis(t);
  bool equal = axis < 0;
  if (equal) axis = (int)rng_index(g->rng, (size_t)nd);
  int64_t cuts[GEN_FIELDS_MAX], sum = 0;
  for (int64_t i = 0; i < m; i++) {
    sum += t->args[i]->dims[axis];
    cuts[i] = sum;
  }
  int64_t dims[KIT_RANK_MAX];
  memcpy(dims, f0->dims, nd * sizeof *dims);
  dims[axis] = sum;
  kit_arg(out, kit_tensor(g, f0->dtype, dims, (size_t)nd));
  if (equal && rng_chance(g->rng, 2, 3))
    opgen_set_int(g, op, out, "indices_or_sections", m);
  else
    opgen_set_ints(g, op, out, "indices_or_sections", cuts, (size_t)m - 1);
  if (axis != 0 || rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "axis", kit_gen_axis(g, axis, nd));
  out->result = t;
  return true;
}

/* A tuple of 1..4 fields: one random shape, the fields' sizes on an axis either all equal or
   each drawn anew. */
static bool split_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *base = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 1, g->policy->max_rank);
  size_t m = rng_chance(g->rng, 1, 6) ? 1 : (size_t)rng_range(g->rng, 2, 4);
  const size_t nd = base->ndims, axis = rng_index(g->rng, nd);
  bool equal = rng_chance(g->rng, 1, 2);
  int64_t dims[KIT_RANK_MAX];
  memcpy(dims, base->dims, nd * sizeof *dims);
  int64_t rest = product(base) / dims[axis];
  /* The data holds all fields: equal fields as many as the budget allows. */
  if (equal && (int64_t)m * product(base) > g->policy->max_elements)
    m = (size_t)(g->policy->max_elements / product(base) > 1 ? g->policy->max_elements / product(base) : 1);
  const Type *fields[4];
  for (size_t i = 0; i < m; i++) {
    if (!equal) {
      int64_t cap = g->policy->max_elements / (int64_t)m / rest;
      if (cap > g->policy->max_dim) cap = g->policy->max_dim;
      dims[axis] = rng_range(g->rng, 1, cap < 1 ? 1 : cap);
    }
    fields[i] = kit_tensor(g, base->dtype, dims, nd);
  }
  return split_solve(g, op, ty_tuple(g->types, fields, m), out);
}

static const OpAttrSpec split_attrs[] = {{"indices_or_sections", AT_INTS, "None"}, {"axis", AT_INT, "0"}};

static const OpDef split_ops[] = {
    KIT_OP("split", 1, split_attrs, split_rel, KIT_GEN(OPDT_ANY, split_recognize, split_solve, split_sample)),
};
OP_REGISTER(split_ops);

/* ------------------------------------------------------------------ strided_slice, dyn.strided_slice */

/* topi::detail::CanonicalizeIndex: a negative index counts from the end, then the index is
   clamped to [0, extent] ([-1, extent - 1] for a negative stride). */
static int64_t canonical_index(int64_t index, int64_t extent, int64_t stride) {
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? extent - 1 : extent;
  if (index < 0) index += extent;
  return index < lo ? lo : index > hi ? hi : index;
}

/* StridedSliceRel with topi::StridedSliceOutputShape.  Without axes, begin/end/strides are
   padded to the rank (begin 0 or "max" by the stride's sign, end "max" or 0, stride 1).  In
   "size" mode the strides count as 1 and end is a length (negative: to the end).  An unknown
   dimension stays unknown. */
static const Type *strided_slice_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  static const char *const names[] = {"begin", "end", "strides"};
  int64_t *v[3] = {NULL, NULL, NULL}, *axes = NULL;
  size_t n[3] = {0, 0, 0}, naxes = 0;
  const Type *r = NULL;
  int64_t *shape = NULL;
  const int64_t max_range = INT64_MAX;
  for (int k = 0; k < 3; k++)
    if (!int_list(c, names[k], &v[k], &n[k])) {
      op_fail(c, -1, "strided_slice received invalid %s %s", names[k],
              op_is_none(c, names[k]) ? "None" : "(not a list of integers)");
      goto done;
    }
  int64_t *begin = v[0], *end = v[1], *strides = v[2];
  const size_t nd = data->ndims;
  bool size_mode = !strcmp(op_str(c, "slice_mode"), "size");
  if (!size_mode && strcmp(op_str(c, "slice_mode"), "end") != 0) {
    op_fail(c, -1, "strided_slice: slice_mode must be \"end\" or \"size\", got \"%s\"",
            op_str(c, "slice_mode"));
    goto done;
  }
  if (!op_is_none(c, "axes")) {
    if (!int_list(c, "axes", &axes, &naxes)) {
      op_fail(c, -1, "strided_slice: axes must be a list of integers");
      goto done;
    }
    if (naxes != n[0] || naxes != n[1] || naxes != n[2]) {
      op_fail(c, -1, "strided_slice: axes, begin, end, and strides must have the same length");
      goto done;
    }
    for (size_t i = 0; i < naxes; i++)
      if (axes[i] < 0 || axes[i] >= (int64_t)nd) {
        op_fail(c, -1, "strided_slice: axis %lld is out of range for data.ndim = %zu", (long long)axes[i],
                nd);
        goto done;
      }
  } else {
    if (n[0] > nd || n[1] > nd || n[2] > nd) {
      op_fail(c, -1, "strided_slice: begin, end and strides have more entries than the data's %zu dimensions",
              nd);
      goto done;
    }
    naxes = nd;
    axes = xmalloc((nd ? nd : 1) * sizeof *axes);
    for (size_t i = 0; i < nd; i++)
      axes[i] = (int64_t)i;
    for (int k = 0; k < 3; k++)
      v[k] = xrealloc(v[k], (nd ? nd : 1) * sizeof *v[k]);
    begin = v[0], end = v[1], strides = v[2];
    for (size_t i = n[2]; i < nd; i++)
      strides[i] = 1;
    for (size_t i = n[0]; i < nd; i++)
      begin[i] = strides[i] > 0 ? 0 : max_range;
    for (size_t i = n[1]; i < nd; i++)
      end[i] = strides[i] < 0 ? 0 : max_range;
  }
  /* ConvertToVec: the values the output shape is computed from. */
  for (size_t i = 0; i < naxes; i++) {
    if (size_mode) {
      strides[i] = 1;
      /* TVM adds in int64 and lets it wrap. */
      end[i] = end[i] < 0 ? max_range : (int64_t)((uint64_t)begin[i] + (uint64_t)end[i]);
    }
  }
  shape = xmalloc((nd ? nd : 1) * sizeof *shape);
  if (nd) memcpy(shape, data->dims, nd * sizeof *shape);
  for (size_t i = 0; i < naxes; i++) {
    int64_t ax = axes[i], dim = data->dims[ax];
    if (dim == KIT_ANY) {
      shape[ax] = KIT_ANY;
      continue;
    }
    if (strides[i] == 0) {
      op_fail(c, -1, "strided_slice: the stride for axis %lld is 0", (long long)ax);
      goto done;
    }
    int64_t b = canonical_index(begin[i], dim, strides[i]), e = canonical_index(end[i], dim, strides[i]);
    KitWide step = strides[i] < 0 ? -(KitWide)strides[i] : strides[i]; /* -INT64_MIN is 2^63 */
    int64_t interval = e > b ? e - b : b - e;
    if (strides[i] < 0 ? e > b : b > e) {
      op_fail(c, -1, "strided_slice: Input [Begin=%lld, End=%lld] is invalid for axis=%zu",
              (long long)begin[i], (long long)end[i], i);
      goto done;
    }
    shape[ax] = (int64_t)((interval + step - 1) / step); /* at most interval */
  }
  r = ty_tensor(c->types, data->dtype, shape, nd);
done:
  for (int k = 0; k < 3; k++)
    free(v[k]);
  free(axes);
  free(shape);
  return r;
}

/* dyn.strided_slice: StridedSliceRel in src/relay/op/dyn/tensor/transform.cc.  The first
   len(begin) dimensions become unknown, the rest are kept. */
static const Type *dyn_strided_slice_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *begin = data ? op_tensor_arg(c, 1) : NULL;
  if (!begin) return NULL;
  if (begin->ndims == 0 || begin->dims[0] == KIT_ANY)
    return op_fail(c, 1, "dyn.strided_slice: begin must be a 1-D tensor of static length");
  if (begin->dims[0] > (int64_t)data->ndims)
    return op_fail(c, 1, "the number of dynamic axes to slice should be less than or equal to the data rank");
  Dims o = {0};
  for (uint32_t i = 0; i < data->ndims; i++)
    dims_push(&o, (int64_t)i < begin->dims[0] ? KIT_ANY : data->dims[i]);
  return dims_tensor(c, data->dtype, &o);
}

/* strided_slice: each sliced axis draws a begin, a stride (sometimes > 1 or negative) and an input
   size large enough; the end makes ceil(|end - begin| / |stride|) the result's size.  The
   attributes use TVM's spellings: negative indices count from the end, an end past the extent is
   clamped, a negative stride's end of -1 is written below -extent.  Axes are chosen by an axes
   list or as a prefix (TVM pads begin/end/strides to the whole axis); "size" mode gives lengths
   instead of ends.  The input stays within the element budget (an axis over it is sliced
   whole). */
static bool strided_slice_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  /* At least one axis is sliced: TVM v0.13's relation crashes on empty begin/end/strides
     ("indexing 0 on an array of size 0", apache/tvm#11679), so such a call only ever finds
     that one bug (measured: 24 of 200 rgen programs before, tests/tvm/fidelity.py). */
  if (t->ndims == 0) return false;
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  const int64_t budget = kit_budget(g, t);
  bool size_mode = rng_chance(g->rng, 1, 5), use_axes = n > 0 && rng_chance(g->rng, 1, 3);
  int64_t axes[KIT_RANK_MAX], begin[KIT_RANK_MAX], end[KIT_RANK_MAX], strides[KIT_RANK_MAX], in[KIT_RANK_MAX];
  size_t na = 0;
  if (use_axes) {
    for (size_t i = 0; i < n; i++)
      if (rng_chance(g->rng, 1, 2)) axes[na++] = (int64_t)i;
    if (!na) axes[na++] = (int64_t)rng_index(g->rng, n);
    gen_shuffle(g, axes, na);
  } else {
    na = (size_t)rng_range(g->rng, 1, (int64_t)n);
    for (size_t i = 0; i < na; i++)
      axes[i] = (int64_t)i;
  }
  if (n) memcpy(in, t->dims, n * sizeof *in); /* a scalar has no dims array */
  int64_t elements = product(t);
  for (size_t i = 0; i < na; i++) {
    const int64_t ax = axes[i], o = t->dims[ax];
    int64_t s = 1, b, e, d;
    if (!size_mode) {
      if (rng_chance(g->rng, 1, 4))
        s = -rng_range(g->rng, 1, 2);
      else if (rng_chance(g->rng, 1, 3))
        s = rng_range(g->rng, 2, 3);
    }
    int64_t step = s < 0 ? -s : s;
    if (s > 0) {
      b = rng_range(g->rng, 0, 2);
      e = b + (o - 1) * step + 1 + rng_range(g->rng, 0, step - 1);
      d = e + rng_range(g->rng, 0, 2);
    } else {
      e = rng_range(g->rng, -1, 1);
      b = e + (o - 1) * step + 1 + rng_range(g->rng, 0, step - 1);
      d = b + 1 + rng_range(g->rng, 0, 2);
    }
    if (elements / o * d > budget) { /* too big: the whole axis */
      s = 1, b = 0, e = d = o;
    }
    elements = elements / o * d;
    in[ax] = d;
    strides[i] = s;
    if (size_mode) {
      begin[i] = b;
      end[i] = e == d && rng_chance(g->rng, 1, 2) ? -1 : o;
      continue;
    }
    begin[i] = b > 0 && b < d && rng_chance(g->rng, 1, 3) ? b - d : b;
    if (e == -1)
      end[i] = -d - 1 - rng_range(g->rng, 0, 3);
    else if (e == d)
      end[i] = rng_chance(g->rng, 1, 2) ? d + rng_range(g->rng, 1, 100) : d;
    else
      end[i] = e > 0 && rng_chance(g->rng, 1, 3) ? e - d : e;
  }
  kit_arg(out, kit_tensor(g, t->dtype, in, n));
  opgen_set_ints(g, op, out, "begin", begin, na);
  opgen_set_ints(g, op, out, "end", end, na);
  opgen_set_ints(g, op, out, "strides", strides, na);
  if (size_mode) opgen_set_str(g, op, out, "slice_mode", "size");
  if (use_axes) opgen_set_ints(g, op, out, "axes", axes, na);
  out->result = t;
  return true;
}

/* dyn.strided_slice: the first len(begin) dimensions are `?`, the rest static. */
static bool dyn_strided_slice_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TENSOR || t->ndims < 1 || t->ndims > KIT_RANK_MAX || t->dims[0] != KIT_ANY ||
      !opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype))
    return false;
  uint32_t k = 0;
  while (k < t->ndims && t->dims[k] == KIT_ANY)
    k++;
  int64_t el = 1;
  for (uint32_t i = k; i < t->ndims; i++) {
    if (t->dims[i] < 1 || t->dims[i] > KIT_ELEMENTS_MAX / el) return false;
    el *= t->dims[i];
  }
  return true;
}

/* The data's sliced dimensions are drawn anew; begin, end and strides are int tensors of length k. */
static bool dyn_strided_slice_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t k = 0, in[KIT_RANK_MAX], el = 1;
  while (k < (int64_t)t->ndims && t->dims[k] == KIT_ANY)
    k++;
  for (uint32_t i = (uint32_t)k; i < t->ndims; i++)
    el *= t->dims[i];
  opgen_dims(g, (size_t)k, g->policy->max_elements / el, in);
  memcpy(in + k, t->dims + k, (t->ndims - k) * sizeof *in);
  kit_arg(out, kit_tensor(g, t->dtype, in, t->ndims));
  DType idx = kit_index_dtype(g);
  const Type *vec = kit_tensor(g, idx, &k, 1);
  kit_arg(out, vec);
  kit_arg(out, vec);
  kit_arg(out, vec);
  out->result = t;
  return true;
}

static bool dyn_strided_slice_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *base = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 1, g->policy->max_rank);
  int64_t dims[KIT_RANK_MAX];
  size_t k = (size_t)rng_range(g->rng, 1, base->ndims);
  for (size_t i = 0; i < base->ndims; i++)
    dims[i] = i < k ? KIT_ANY : base->dims[i];
  return dyn_strided_slice_solve(g, op, kit_tensor(g, base->dtype, dims, base->ndims), out);
}

static const OpAttrSpec strided_slice_attrs[] = {{"begin", AT_INTS, "None"},
                                                 {"end", AT_INTS, "None"},
                                                 {"strides", AT_INTS, "None"},
                                                 {"slice_mode", AT_STR, "\"end\""},
                                                 {"axes", AT_INTS, "None"}};

static const OpDef strided_slice_ops[] = {
    KIT_OP("strided_slice", 1, strided_slice_attrs, strided_slice_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, strided_slice_solve)),
    KIT_OP("dyn.strided_slice", 4, strided_slice_attrs, dyn_strided_slice_rel,
           KIT_GEN(OPDT_ANY, dyn_strided_slice_recognize, dyn_strided_slice_solve, dyn_strided_slice_sample)),
};
OP_REGISTER(strided_slice_ops);

/* ------------------------------------------------------------------ slice_like */

/* SliceLikeRel: the dims of shape_like on the chosen axes (all shared axes when axes is None),
   which must not exceed data's where both are static. */
static const Type *slice_like_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *like = data ? op_tensor_arg(c, 1) : NULL;
  if (!like) return NULL;
  size_t nd = data->ndims, nl = like->ndims;
  int64_t *shape = xmalloc((nd ? nd : 1) * sizeof *shape), *axes = NULL;
  size_t naxes = 0;
  const Type *r = NULL;
  if (nd) memcpy(shape, data->dims, nd * sizeof *shape);
  if (op_is_none(c, "axes")) {
    naxes = nd < nl ? nd : nl;
    axes = xmalloc((naxes ? naxes : 1) * sizeof *axes);
    for (size_t i = 0; i < naxes; i++)
      axes[i] = (int64_t)i;
  } else {
    if (!int_list(c, "axes", &axes, &naxes)) {
      op_fail(c, -1, "slice_like: axes must be a list of integers");
      goto done;
    }
    if (naxes == 0) {
      op_fail(c, -1, "slice_like: Axes cannot be empty.");
      goto done;
    }
  }
  for (size_t i = 0; i < naxes; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + (int64_t)nd : axes[i];
    if (a >= (int64_t)nl) {
      op_fail(c, 1, "slice_like: Axis %lld exceeds dimension %zu of target_shape.", (long long)a, nl);
      goto done;
    }
    if (a < 0 || a >= (int64_t)nd) {
      op_fail(c, -1, "slice_like: axis %lld is out of range for data.ndim = %zu", (long long)axes[i], nd);
      goto done;
    }
    int64_t want = like->dims[a];
    if (want != KIT_ANY && data->dims[a] != KIT_ANY && want > data->dims[a]) {
      op_fail(c, 1, "slice_like: End index of axis %lld exceeds input shape: %lld vs %lld", (long long)a,
              (long long)want, (long long)data->dims[a]);
      goto done;
    }
    shape[a] = want;
  }
  r = ty_tensor(c->types, data->dtype, shape, nd);
done:
  free(shape);
  free(axes);
  return r;
}

/* slice_like: data is the result, larger on the axes that shape_like (of any dtype) cuts to the
   result's size; axes=None cuts the leading min(rank) axes. */
static bool slice_like_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  const int64_t budget = kit_budget(g, t);
  bool none = n == 0 || rng_chance(g->rng, 1, 3);
  bool cut[KIT_RANK_MAX] = {false};
  int64_t axes[KIT_RANK_MAX], like[KIT_RANK_MAX + 2], in[KIT_RANK_MAX];
  size_t na = 0, nl;
  if (none) {
    nl = (size_t)rng_range(g->rng, 0, (int64_t)n + 2);
    for (size_t i = 0; i < n && i < nl; i++)
      cut[i] = true;
  } else {
    for (size_t i = 0; i < n; i++)
      if (rng_chance(g->rng, 1, 2)) axes[na++] = (int64_t)i;
    if (!na) axes[na++] = (int64_t)rng_index(g->rng, n);
    int64_t hi = 0;
    for (size_t i = 0; i < na; i++) {
      cut[axes[i]] = true;
      if (axes[i] > hi) hi = axes[i];
    }
    nl = (size_t)rng_range(g->rng, hi + 1, (int64_t)n + 1);
  }
  int64_t cut_elements = 1;
  for (size_t i = 0; i < n; i++)
    if (cut[i]) cut_elements *= t->dims[i];
  /* shape_like's other dimensions are free: within what the cut ones leave of the budget. */
  opgen_dims(g, nl, g->policy->max_elements / cut_elements, like);
  int64_t elements = product(t);
  for (size_t i = 0; i < n; i++) {
    in[i] = t->dims[i];
    if (!cut[i]) continue;
    like[i] = t->dims[i];
    int64_t grown = t->dims[i] + rng_range(g->rng, 0, 2);
    if (elements / in[i] * grown <= budget) {
      elements = elements / in[i] * grown;
      in[i] = grown;
    }
  }
  kit_arg(out, kit_tensor(g, t->dtype, in, n));
  kit_arg(out, kit_tensor(g, opgen_dtype(g, OPDT_ANY), like, nl));
  if (!none) {
    for (size_t i = 0; i < na; i++)
      axes[i] = kit_gen_axis(g, axes[i], (int64_t)n);
    opgen_set_ints(g, op, out, "axes", axes, na);
  }
  out->result = t;
  return true;
}

static const OpAttrSpec slice_like_attrs[] = {{"axes", AT_INTS, "None"}};

static const OpDef slice_like_ops[] = {
    KIT_OP("slice_like", 2, slice_like_attrs, slice_like_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, slice_like_solve)),
};
OP_REGISTER(slice_like_ops);

/* ------------------------------------------------------------------ take */

/* TakeRel: axis None takes from the flattened data (the result has the indices' shape);
   otherwise data[:axis] + indices[batch_dims:] + data[axis+1:].  Mirrors TVM in adjusting axis,
   not batch_dims, when batch_dims is negative, and in allowing axis == ndim. */
static const Type *take_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *idx = data ? op_tensor_arg(c, 1) : NULL;
  if (!idx) return NULL;
  /* is_int() || is_uint() in TVM, which lets bool (uint1) through. */
  if (idx->dtype.code != DT_INT && idx->dtype.code != DT_UINT)
    return op_fail(c, 1, "indices of take must be tensor of integer");
  if (op_is_none(c, "axis")) return ty_tensor(c->types, data->dtype, idx->dims, idx->ndims);
  int64_t nd = data->ndims, ni = idx->ndims, axis = op_int(c, "axis"), bd = op_int(c, "batch_dims");
  if (axis < 0) axis += nd;
  if (bd < 0) axis += ni;
  if (axis > nd)
    return op_fail(c, -1, "take: axis should be with in data shape, but got = %lld", (long long)axis);
  if (bd > ni)
    return op_fail(c, -1, "take: batch_dims should be with in indices shape, but got = %lld", (long long)bd);
  if (bd > axis)
    return op_fail(c, -1, "take: batch_dims should be less than or equal to axis, but got = %lld",
                   (long long)bd);
  /* Out of range here, TVM indexes the shapes at negative positions. */
  if (bd < 0 || axis < 0)
    return op_fail(c, -1, "take: axis %lld and batch_dims %lld are out of range", (long long)axis,
                   (long long)bd);
  Dims o = {0};
  for (int64_t i = 0; i < axis; i++)
    dims_push(&o, data->dims[i]);
  for (int64_t i = bd; i < ni; i++)
    dims_push(&o, idx->dims[i]);
  for (int64_t i = axis + 1; i < nd; i++)
    dims_push(&o, data->dims[i]);
  return dims_tensor(c, data->dtype, &o);
}

/* take: the result is data[:axis] + indices[batch_dims:] + data[axis+1:], so it is cut into a data
   prefix, the indices' own dimensions and a data suffix; the batch dimensions lead both data and
   indices (as TVM's compute requires).  axis=None takes from the flattened data: the indices
   have the result's shape. */
static bool take_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims;
  DType idx = kit_index_dtype(g);
  if (rng_chance(g->rng, 1, 4)) {
    kit_arg(out, opgen_tensor(g, t->dtype, 1, g->policy->max_rank));
    kit_arg(out, kit_tensor(g, idx, t->dims, (size_t)n));
  } else {
    int64_t a = rng_range(g->rng, 0, n), len = rng_range(g->rng, 0, n - a);
    int64_t bd = rng_chance(g->rng, 1, 3) ? rng_range(g->rng, 0, a < 2 ? a : 2) : 0;
    int64_t data[KIT_RANK_MAX + 1], ind[KIT_RANK_MAX], nd = 0, ni = 0;
    for (int64_t i = 0; i < a; i++)
      data[nd++] = t->dims[i];
    int64_t kept = product(t);
    for (int64_t i = a; i < a + len; i++)
      kept /= t->dims[i];
    opgen_dims(g, 1, g->policy->max_elements / kept, data + nd++); /* the axis taken from */
    for (int64_t i = a + len; i < n; i++)
      data[nd++] = t->dims[i];
    for (int64_t i = 0; i < bd; i++)
      ind[ni++] = t->dims[i];
    for (int64_t i = a; i < a + len; i++)
      ind[ni++] = t->dims[i];
    kit_arg(out, kit_tensor(g, t->dtype, data, (size_t)nd));
    kit_arg(out, kit_tensor(g, idx, ind, (size_t)ni));
    opgen_set_int(g, op, out, "axis", kit_gen_axis(g, a, nd));
    if (bd) opgen_set_int(g, op, out, "batch_dims", bd);
  }
  static const char *const modes[] = {"clip", "wrap", "fast"};
  size_t mode = rng_index(g->rng, 3);
  if (mode) opgen_set_str(g, op, out, "mode", modes[mode]);
  out->result = t;
  return true;
}

static const OpAttrSpec take_attrs[] = {
    {"batch_dims", AT_INT, "0"}, {"axis", AT_INT, "None"}, {"mode", AT_STR, "\"clip\""}};

static const OpDef take_ops[] = {
    KIT_OP("take", 2, take_attrs, take_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, take_solve)),
};
OP_REGISTER(take_ops);

/* ------------------------------------------------------------------ gather */

/* GatherRel: indices has data's rank and shape except on axis (at least 1 there); the result
   has the indices' shape and data's dtype. */
static const Type *gather_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *idx = data ? op_tensor_arg(c, 1) : NULL;
  int64_t axis;
  if (!idx) return NULL;
  if (idx->dtype.code != DT_INT) return op_fail(c, 1, "gather: indices of take must be tensor of integer");
  if (!required_int(c, "axis", &axis)) return NULL;
  int64_t nd = data->ndims;
  if (idx->ndims != data->ndims)
    return op_fail(c, 1, "gather: data and indices must have the same rank, got %lld and %u", (long long)nd,
                   idx->ndims);
  if (axis < 0) axis += nd;
  if (axis < 0 || axis >= nd)
    return op_fail(c, -1, "gather: axis %lld is out of range for data.ndim = %lld",
                   (long long)op_int(c, "axis"), (long long)nd);
  for (int64_t i = 0; i < nd; i++) {
    int64_t di = idx->dims[i], dd = data->dims[i];
    if (i == axis) {
      if (di != KIT_ANY && di < 1)
        return op_fail(c, 1, "gather: indices dimension %lld on the axis must be >= 1", (long long)di);
    } else if (di != KIT_ANY && dd != KIT_ANY && di != dd) {
      return op_fail(c, 1, "gather: indices dimension %lld (%lld) does not match data's (%lld)", (long long)i,
                     (long long)di, (long long)dd);
    }
  }
  return ty_tensor(c->types, data->dtype, idx->dims, idx->ndims);
}

/* gather: the indices have the result's shape; data agrees except on the axis. */
static bool gather_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims, a = rng_range(g->rng, 0, n - 1);
  int64_t data[KIT_RANK_MAX];
  memcpy(data, t->dims, n * sizeof *data);
  data[a] = rng_range(g->rng, 1, g->policy->max_dim);
  kit_arg(out, kit_tensor(g, t->dtype, data, (size_t)n));
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), t->dims, (size_t)n));
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, a, n));
  out->result = t;
  return true;
}

static const OpAttrSpec gather_attrs[] = {{"axis", AT_INT, "None"}};

static const OpDef gather_ops[] = {
    KIT_OP("gather", 2, gather_attrs, gather_rel, KIT_SOLVED(OPDT_ANY, kit_static_ranked, gather_solve)),
};
OP_REGISTER(gather_ops);

/* ------------------------------------------------------------------ gather_nd */

/* GatherNDRel: indices (M, Y_0, ..., Y_{K-1}) into data (X_0, ..., X_{N-1}) gives
   (Y_0, ..., Y_{K-1}, X_{M+B}, ..., X_{N-1}) with B = batch_dims; M must be static and <= N. */
static const Type *gather_nd_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *idx = data ? op_tensor_arg(c, 1) : NULL;
  if (!idx) return NULL;
  if (idx->ndims == 0) return op_fail(c, 1, "GatherND: indices must have at least one dimension");
  int64_t m = idx->dims[0], nd = data->ndims, bd = op_int(c, "batch_dims");
  if (m == KIT_ANY) {
    char *s = shape_str(idx->dims, idx->ndims, true);
    op_fail(c, 1, "GatherND needs a static shape for the first axis of indices, got %s", s);
    free(s);
    return NULL;
  }
  if (m > nd) return op_fail(c, 1, "GatherND: indices shape does satisfy.");
  if (bd < 0 || bd > nd || bd + 1 > (int64_t)idx->ndims)
    return op_fail(c, -1, "GatherND: batch_dims %lld is out of range", (long long)bd);
  for (int64_t i = 0; i < bd; i++) {
    int64_t a = data->dims[i], b = idx->dims[i + 1];
    if (a != KIT_ANY && b != KIT_ANY && a != b)
      return op_fail(c, 1, "GatherND: batch dimension %lld differs: %lld in data, %lld in indices",
                     (long long)i, (long long)a, (long long)b);
  }
  Dims o = {0};
  for (uint32_t i = 1; i < idx->ndims; i++)
    dims_push(&o, idx->dims[i]);
  for (int64_t i = m + bd; i < nd; i++)
    dims_push(&o, data->dims[i]);
  return dims_tensor(c, data->dtype, &o);
}

/* gather_nd: indices (M, Y...) into data (B..., X_0..X_{M-1}, S...) give (Y..., S...), where the
   result's first k dimensions are Y (batch dimensions B leading them) and the rest are S. */
static bool gather_nd_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims, k = rng_range(g->rng, 0, n);
  int64_t bd = rng_chance(g->rng, 1, 3) ? rng_range(g->rng, 0, k < 2 ? k : 2) : 0,
          m = rng_range(g->rng, 1, 2), y = 1;
  for (int64_t i = 0; i < k; i++)
    y *= t->dims[i];
  if (m * y > kit_budget(g, t)) m = 1; /* the indices hold m * |Y| elements */
  int64_t data[KIT_RANK_MAX + 2], ind[KIT_RANK_MAX + 1], nd = 0, ni = 0;
  for (int64_t i = 0; i < bd; i++)
    data[nd++] = t->dims[i];
  opgen_dims(g, (size_t)m, g->policy->max_elements / product(t), data + nd);
  nd += m;
  for (int64_t i = k; i < n; i++)
    data[nd++] = t->dims[i];
  ind[ni++] = m;
  for (int64_t i = 0; i < k; i++)
    ind[ni++] = t->dims[i];
  kit_arg(out, kit_tensor(g, t->dtype, data, (size_t)nd));
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), ind, (size_t)ni));
  if (bd) opgen_set_int(g, op, out, "batch_dims", bd);
  if (rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "index_rank", m);
  out->result = t;
  return true;
}

static const OpAttrSpec gather_nd_attrs[] = {{"batch_dims", AT_INT, "0"}, {"index_rank", AT_INT, "None"}};

static const OpDef gather_nd_ops[] = {
    KIT_OP("gather_nd", 2, gather_nd_attrs, gather_nd_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, gather_nd_solve)),
};
OP_REGISTER(gather_nd_ops);

/* ------------------------------------------------------------------ tile */

/* TileRel: reps and the shape are aligned from the right (the shorter padded with 1s); each
   static dimension is multiplied by its rep, an unknown stays unknown. */
static const Type *tile_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t *reps;
  size_t nr;
  if (!int_list(c, "reps", &reps, &nr)) {
    free(reps);
    return op_fail(c, -1, "tile: repetition array is not defined. data.ndim = %u", data->ndims);
  }
  for (size_t i = 0; i < nr; i++)
    if (reps[i] <= 0) {
      int64_t bad = reps[i];
      free(reps);
      return op_fail(c, -1, "Tile reps value should always be larger than 0, but get: %lld", (long long)bad);
    }
  size_t nd = data->ndims, n = nd > nr ? nd : nr;
  Dims o = {0};
  for (size_t i = 0; i < n; i++) {
    int64_t d = i < n - nd ? 1 : data->dims[i - (n - nd)];
    int64_t r = i < n - nr ? 1 : reps[i - (n - nr)];
    int64_t dr;
    if (d != KIT_ANY && __builtin_mul_overflow(d, r, &dr)) {
      free(reps);
      free(o.items);
      return op_fail(c, -1, "tile: dimension %lld times reps %lld overflows int64", (long long)d, (long long)r);
    }
    dims_push(&o, d == KIT_ANY ? KIT_ANY : dr);
  }
  free(reps);
  return dims_tensor(c, data->dtype, &o);
}

/* tile: each result dimension is an input dimension times a rep dividing it.  Either the data has
   the full rank and reps cover a suffix (the rest repeat once), or reps have the full rank and
   the data a suffix (the leading dimensions are reps alone). */
static bool tile_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims;
  bool full_data = rng_chance(g->rng, 1, 2);
  int64_t short_len = rng_range(g->rng, 0, n), nd = full_data ? n : short_len, nr = full_data ? short_len : n;
  int64_t in[KIT_RANK_MAX], reps[KIT_RANK_MAX];
  for (int64_t i = 0; i < n; i++) {
    bool has_data = i >= n - nd, has_rep = i >= n - nr;
    int64_t r = !has_rep ? 1 : !has_data ? t->dims[i] : kit_divisor(g, t->dims[i], t->dims[i]);
    if (has_data) in[i - (n - nd)] = t->dims[i] / r;
    if (has_rep) reps[i - (n - nr)] = r;
  }
  kit_arg(out, kit_tensor(g, t->dtype, in, (size_t)nd));
  opgen_set_ints(g, op, out, "reps", reps, (size_t)nr);
  out->result = t;
  return true;
}

static const OpDef tile_ops[] = {
    KIT_OP("tile", 1, kit_tile_attrs, tile_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, tile_solve)),
};
OP_REGISTER(tile_ops);

/* ------------------------------------------------------------------ repeat */

/* RepeatRel: the axis grows repeats times (unknown stays unknown). */
static const Type *repeat_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t repeats, axis;
  if (!data || !required_int(c, "repeats", &repeats) || !required_int(c, "axis", &axis)) return NULL;
  int64_t nd = data->ndims;
  if (repeats < 1)
    return op_fail(c, -1, "repeat only accepts `repeats >= 1`, but got repeats = %lld", (long long)repeats);
  if (axis < -nd - 1 || axis > nd)
    return op_fail(c, -1,
                   "repeat only accepts `axis` in [-data.ndim - 1, data.ndim], but got axis = %lld, and "
                   "data.ndim = %lld",
                   (long long)axis, (long long)nd);
  int64_t pivot = axis < 0 ? nd + axis : axis;
  /* TVM accepts these two ends of the range, then reads the shape out of bounds. */
  if (pivot < 0 || pivot >= nd)
    return op_fail(c, -1, "repeat: axis %lld names no dimension of data.ndim = %lld", (long long)axis,
                   (long long)nd);
  int64_t grown = KIT_ANY;
  if (data->dims[pivot] != KIT_ANY && __builtin_mul_overflow(data->dims[pivot], repeats, &grown))
    return op_fail(c, -1, "repeat: dimension %lld times repeats %lld overflows int64", (long long)data->dims[pivot],
                   (long long)repeats);
  Dims o = {0};
  for (int64_t i = 0; i < nd; i++) {
    int64_t d = data->dims[i];
    dims_push(&o, i != pivot ? d : d == KIT_ANY ? KIT_ANY : grown);
  }
  return dims_tensor(c, data->dtype, &o);
}

/* repeat: an axis's size is the input's times a divisor. */
static bool repeat_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims, a = rng_range(g->rng, 0, n - 1), r = kit_divisor(g, t->dims[a], t->dims[a]);
  int64_t in[KIT_RANK_MAX];
  memcpy(in, t->dims, n * sizeof *in);
  in[a] /= r;
  kit_arg(out, kit_tensor(g, t->dtype, in, (size_t)n));
  opgen_set_int(g, op, out, "repeats", r);
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, a, n));
  out->result = t;
  return true;
}

static const OpAttrSpec repeat_attrs[] = {{"repeats", AT_INT, "None"}, {"axis", AT_INT, "None"}};

static const OpDef repeat_ops[] = {
    KIT_OP("repeat", 1, repeat_attrs, repeat_rel, KIT_SOLVED(OPDT_ANY, kit_static_ranked, repeat_solve)),
};
OP_REGISTER(repeat_ops);

/* ------------------------------------------------------------------ reverse */

/* ReverseRel: the type is unchanged; axis must be in [-ndim, ndim). */
static const Type *reverse_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t axis;
  if (!data || !required_int(c, "axis", &axis)) return NULL;
  int64_t nd = data->ndims;
  if (axis < -nd || axis >= nd)
    return op_fail(
        c, -1,
        "reverse only accepts `axis` in [-data.ndim, data.ndim - 1], but got axis = %lld, and data.ndim = "
        "%lld",
        (long long)axis, (long long)nd);
  return data;
}

/* reverse: the same type, any axis. */
static bool reverse_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, rng_range(g->rng, 0, t->ndims - 1), t->ndims));
  return true;
}

static const OpAttrSpec reverse_attrs[] = {{"axis", AT_INT, "None"}};

static const OpDef reverse_ops[] = {
    KIT_OP("reverse", 1, reverse_attrs, reverse_rel, KIT_SOLVED(OPDT_ANY, kit_static_ranked, reverse_solve)),
};
OP_REGISTER(reverse_ops);

/* ----------------------------------------------------- broadcast_to, broadcast_to_like, collapse_sum_like */

/* BroadcastRel asked to produce `want` (TVM assigns the target type first, then unifies it with
   the broadcast of a and b): the broadcast must exist and match `want` (a `?` matches anything). */
static bool broadcasts_to(OpCall *c, const Type *a, const Type *b, const Type *want) {
  if (!dtype_eq(a->dtype, b->dtype)) {
    char da[16], db[16];
    op_fail(c, 1, "data types %s and %s do not match in BroadcastRel", dtype_str(a->dtype, da),
            dtype_str(b->dtype, db));
    return false;
  }
  const Type *t = op_broadcast(c, a, b, a->dtype);
  if (!t) return false;
  bool same = t->ndims == want->ndims;
  for (uint32_t i = 0; same && i < t->ndims; i++)
    same = t->dims[i] == want->dims[i] || t->dims[i] == KIT_ANY || want->dims[i] == KIT_ANY;
  if (!same) {
    char *s1 = ty_str(t), *s2 = ty_str(want);
    op_fail(c, 0, "%s: unable to unify: `%s` and `%s`", c->op->name, s1, s2);
    free(s1);
    free(s2);
  }
  return same;
}

/* BroadCastToRel: the shape attribute with data's dtype, which data must broadcast to. */
static const Type *broadcast_to_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *out = data ? init_shape(c, data->dtype) : NULL;
  return out && broadcasts_to(c, data, out, out) ? out : NULL;
}

/* BroadCastToLikeRel: the type of the second argument, which the first must broadcast to. */
static const Type *broadcast_to_like_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *like = data ? op_tensor_arg(c, 1) : NULL;
  if (!like) return NULL;
  return broadcasts_to(c, data, like, like) ? like : NULL;
}

/* CollapseSumLikeRel: the type of the second argument, which must broadcast to the first. */
static const Type *collapse_sum_like_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *like = data ? op_tensor_arg(c, 1) : NULL;
  if (!like) return NULL;
  return broadcasts_to(c, data, like, data) ? like : NULL;
}

/* broadcast_to: data broadcasting to the shape attribute (the result); data keeps the dtype. */
static bool broadcast_to_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, opgen_partner(g, t, t->dtype));
  opgen_set_ints(g, op, out, "shape", t->dims, t->ndims);
  out->result = t;
  return true;
}

/* broadcast_to_like: the result is the `like` argument's type; data broadcasts to it. */
static bool broadcast_to_like_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, opgen_partner(g, t, t->dtype));
  kit_arg(out, t);
  out->result = t;
  return true;
}

/* collapse_sum_like: the result is `like`, which must broadcast to data: data has maybe more
   leading dimensions, and any size where `like` has a 1. */
static bool collapse_sum_like_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  int64_t data[KIT_RANK_MAX + 2], lead = 0, grow[KIT_RANK_MAX];
  if (n + 2 <= g->policy->max_rank || rng_chance(g->rng, 1, 4)) lead = rng_range(g->rng, 0, 2);
  int64_t room = g->policy->max_elements / product(t);
  opgen_dims(g, (size_t)lead, room, data);
  for (int64_t i = 0; i < lead; i++)
    room /= data[i];
  opgen_dims(g, n, room, grow);
  for (size_t i = 0; i < n; i++)
    data[lead + i] = t->dims[i] == 1 && rng_chance(g->rng, 1, 2) ? grow[i] : t->dims[i];
  kit_arg(out, kit_tensor(g, t->dtype, data, lead + n));
  kit_arg(out, t);
  out->result = t;
  return true;
}

static const OpDef broadcast_ops[] = {
    KIT_OP("broadcast_to", 1, kit_init_op_attrs, broadcast_to_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, broadcast_to_solve)),
    KIT_OP_NOATTRS("broadcast_to_like", 2, broadcast_to_like_rel,
                   KIT_SOLVED(OPDT_ANY, kit_static_any, broadcast_to_like_solve)),
    /* a sum: numbers only */
    KIT_OP_NOATTRS("collapse_sum_like", 2, collapse_sum_like_rel,
                   KIT_SOLVED(OPDT_NUMERIC, kit_static_any, collapse_sum_like_solve)),
};
OP_REGISTER(broadcast_ops);

/* ------------------------------------------------------------------ where */

/* WhereRel: x and y share a dtype; the result is the broadcast of condition with the broadcast of
   x and y. */
static const Type *where_rel(OpCall *c) {
  const Type *cond = op_tensor_arg(c, 0), *x = cond ? op_tensor_arg(c, 1) : NULL,
             *y = x ? op_tensor_arg(c, 2) : NULL;
  if (!y) return NULL;
  if (!dtype_eq(x->dtype, y->dtype)) {
    char dx[16], dy[16];
    return op_fail(c, 2, "x and y must have the same dtype: %s vs %s", dtype_str(x->dtype, dx),
                   dtype_str(y->dtype, dy));
  }
  const Type *xy = op_broadcast(c, x, y, x->dtype);
  return xy ? op_broadcast(c, cond, xy, xy->dtype) : NULL;
}

/* where: one of condition, x, y has the result's shape and the others broadcast to it; the
   condition is bool, x and y the result's dtype. */
static bool where_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  size_t full = rng_index(g->rng, 3);
  for (size_t i = 0; i < 3; i++) {
    DType dt = i == 0 ? dt_bool : t->dtype;
    kit_arg(out, i == full ? opgen_with_dtype(g, t, dt) : opgen_partner(g, t, dt));
  }
  out->result = t;
  return true;
}

static const OpDef where_ops[] = {
    KIT_OP_NOATTRS("where", 3, where_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, where_solve)),
};
OP_REGISTER(where_ops);

/* ------------------------------------------------------------------ full */

/* FullRel: the shape attribute; the dtype attribute, or the fill value's when it is void. */
static const Type *full_rel(OpCall *c) {
  const Type *fill = op_tensor_arg(c, 0);
  if (!fill) return NULL;
  DType dt = op_dtype(c, "dtype");
  if (dt.bits == 0) dt = fill->dtype;
  if (fill->ndims != 0)
    return op_fail(c, 0, "Fill value should be a scalar but has dimension %u.", fill->ndims);
  return init_shape(c, dt);
}

/* full: the shape attribute; the dtype attribute, or when left out the fill value's dtype (a
   given dtype lets the fill value have any). */
static bool full_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  opgen_set_ints(g, op, out, "shape", t->dims, t->ndims);
  if (rng_chance(g->rng, 1, 3)) {
    kit_arg(out, ty_scalar(g->types, t->dtype));
  } else {
    kit_arg(out, ty_scalar(g->types, opgen_dtype(g, OPDT_ANY)));
    kit_set_dtype(g, op, out, "dtype", t->dtype);
  }
  out->result = t;
  return true;
}

static const OpDef full_ops[] = {
    KIT_OP("full", 1, kit_init_op_attrs, full_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, full_solve)),
};
OP_REGISTER(full_ops);

/* ------------------------------------------------------------------ full_like */

/* FullLikeRel: data's type; the fill value must be a scalar. */
static const Type *full_like_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *fill = data ? op_tensor_arg(c, 1) : NULL;
  if (!fill) return NULL;
  if (fill->ndims != 0)
    return op_fail(c, 1, "The fill value should be a scalar but here it has dimension %u.", fill->ndims);
  return data;
}

/* full_like: the data has the result's type; the fill value is a scalar of its dtype. */
static bool full_like_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, t);
  kit_arg(out, ty_scalar(g->types, t->dtype));
  out->result = t;
  return true;
}

static const OpDef full_like_ops[] = {
    KIT_OP_NOATTRS("full_like", 2, full_like_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, full_like_solve)),
};
OP_REGISTER(full_like_ops);

/* ------------------------------------------------------------------ zeros, ones */

/* InitOpRel (zeros, ones): the shape and dtype attributes. */
static const Type *init_op_rel(OpCall *c) { return init_shape(c, op_dtype(c, "dtype")); }

/* zeros, ones: no arguments; shape and dtype are attributes. */
static bool init_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  opgen_set_ints(g, op, out, "shape", t->dims, t->ndims);
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef init_ops[] = {
    KIT_OP("zeros", 0, kit_init_op_attrs, init_op_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, init_solve)),
    KIT_OP("ones", 0, kit_init_op_attrs, init_op_rel, KIT_SOLVED(OPDT_ANY, kit_static_any, init_solve)),
};
OP_REGISTER(init_ops);

/* ------------------------------------------------------------------ arange */

/* ArangeRel: start, stop and step are scalars of dtype.  TVM computes the length when the three
   attributes are constants; a relation sees only types, so the length is always `?` here (TVM
   too prints Tensor[(?), dtype] when they are not constants). */
static const Type *arange_rel(OpCall *c) {
  DType dt = op_dtype(c, "dtype");
  const Type *scalar = ty_scalar(c->types, dt);
  for (size_t i = 0; i < 3; i++)
    if (c->args[i] != scalar) {
      char *want = ty_str(scalar), *got = ty_str(c->args[i]);
      op_fail(c, (int)i, "arange: start, stop and step must have type %s, but argument %zu has %s", want,
              i + 1, got);
      free(want);
      free(got);
      return NULL;
    }
  int64_t any = KIT_ANY;
  return ty_tensor(c->types, dt, &any, 1);
}

/* arange: always Tensor[(?), dtype] here (the relation sees the scalars' types, not values). */
static bool arange_recognize(const OpDef *op, const Type *t) {
  return t->kind == TY_TENSOR && t->ndims == 1 && t->dims[0] == KIT_ANY &&
         opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype);
}

static bool arange_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const Type *scalar = ty_scalar(g->types, t->dtype);
  for (int i = 0; i < 3; i++)
    kit_arg(out, scalar);
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static bool arange_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t any = KIT_ANY;
  return arange_solve(g, op, kit_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), &any, 1), out);
}

static const OpAttrSpec arange_attrs[] = {{"start", AT_ANY, "None"},
                                          {"stop", AT_ANY, "None"},
                                          {"step", AT_ANY, "None"},
                                          {"dtype", AT_DTYPE, "None"}};

static const OpDef arange_ops[] = {
    KIT_OP("arange", 3, arange_attrs, arange_rel,
           KIT_GEN(OPDT_NUMERIC, arange_recognize, arange_solve, arange_sample)),
};
OP_REGISTER(arange_ops);

/* ------------------------------------------------------------------ one_hot */

/* OneHotRel: indices' shape with depth inserted at axis (-1: last), in the dtype attribute. */
static const Type *one_hot_rel(OpCall *c) {
  const Type *idx = op_tensor_arg(c, 0);
  if (!idx) return NULL;
  int64_t depth = op_int(c, "depth"), axis = op_int(c, "axis"), nd = idx->ndims;
  if (depth <= 0) return op_fail(c, -1, "one_hot: depth must be > 0, got %lld", (long long)depth);
  int64_t at = axis == -1 ? nd : axis;
  /* Any other axis would make TVM read past the indices' shape. */
  if (at < 0 || at > nd)
    return op_fail(c, -1, "one_hot: axis %lld is out of range for indices.ndim = %lld", (long long)axis,
                   (long long)nd);
  Dims o = {0};
  for (int64_t i = 0, j = 0; i < nd + 1; i++)
    dims_push(&o, i == at ? depth : idx->dims[j++]);
  return dims_tensor(c, op_dtype(c, "dtype"), &o);
}

/* one_hot: one result axis is the depth, the others the indices' shape; on and off values are
   scalars of the result's dtype.  The axis is spelled -1 only for the last (the relation takes
   no other negative). */
static bool one_hot_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const int64_t n = t->ndims, at = rng_range(g->rng, 0, n - 1);
  int64_t ind[KIT_RANK_MAX], ni = 0;
  for (int64_t i = 0; i < n; i++)
    if (i != at) ind[ni++] = t->dims[i];
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), ind, (size_t)ni));
  kit_arg(out, ty_scalar(g->types, t->dtype));
  kit_arg(out, ty_scalar(g->types, t->dtype));
  opgen_set_int(g, op, out, "depth", t->dims[at]);
  opgen_set_int(g, op, out, "axis", at == n - 1 && rng_chance(g->rng, 1, 2) ? -1 : at);
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef one_hot_ops[] = {
    KIT_OP("one_hot", 3, kit_one_hot_attrs, one_hot_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_ranked, one_hot_solve)),
};
OP_REGISTER(one_hot_ops);

/* ------------------------------------------------------------------ shape_of */

/* ShapeOfRel (src/relay/op/tensor/unary.cc): Tensor[(rank), dtype]; a scalar's shape is a scalar
   (RankShape gives no dimensions for rank 0). */
static const Type *shape_of_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t rank = data->ndims;
  return ty_tensor(c->types, op_dtype(c, "dtype"), &rank, rank ? 1 : 0);
}

/* shape_of: Tensor[(rank), dtype] from data of that rank (a scalar's shape is a scalar). */
static bool shape_of_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TENSOR || !opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype)) return false;
  return t->ndims == 0 || (t->ndims == 1 && t->dims[0] >= 1 && t->dims[0] <= KIT_RANK_MAX);
}

static bool shape_of_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t dims[KIT_RANK_MAX];
  size_t rank = t->ndims ? (size_t)t->dims[0] : 0;
  opgen_dims(g, rank, g->policy->max_elements, dims);
  gen_shuffle(g, dims, rank); /* gen_dims spends the budget front first */
  kit_arg(out, kit_tensor(g, opgen_dtype(g, OPDT_ANY), dims, rank));
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef shape_of_ops[] = {
    /* shape_of and argwhere produce indices */
    KIT_OP("shape_of", 1, kit_shape_of_attrs, shape_of_rel,
           KIT_GEN(OPDT_INT, shape_of_recognize, shape_of_solve, opgen_sample_by_solving)),
};
OP_REGISTER(shape_of_ops);

/* ------------------------------------------------------------------ argwhere */

/* ArgWhereRel: Tensor[(?, rank), int32]. */
static const Type *argwhere_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t dims[2] = {KIT_ANY, data->ndims};
  return ty_tensor(c->types, dt_int32, dims, 2);
}

/* argwhere: Tensor[(?, rank), int32] from data of that rank. */
static bool argwhere_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return t->kind == TY_TENSOR && dtype_eq(t->dtype, dt_int32) && t->ndims == 2 && t->dims[0] == KIT_ANY &&
         t->dims[1] >= 0 && t->dims[1] <= KIT_RANK_MAX;
}

static bool argwhere_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t dims[KIT_RANK_MAX];
  size_t rank = (size_t)t->dims[1];
  opgen_dims(g, rank, g->policy->max_elements, dims);
  gen_shuffle(g, dims, rank);
  kit_arg(out, kit_tensor(g, opgen_dtype(g, OPDT_ANY), dims, rank));
  out->result = t;
  return true;
}

static bool argwhere_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t dims[2] = {KIT_ANY, rng_range(g->rng, 1, g->policy->max_rank)};
  return argwhere_solve(g, op, kit_tensor(g, dt_int32, dims, 2), out);
}

static const OpDef argwhere_ops[] = {
    KIT_OP_NOATTRS("argwhere", 1, argwhere_rel,
                   KIT_GEN(OPDT_INT, argwhere_recognize, argwhere_solve, argwhere_sample)),
};
OP_REGISTER(argwhere_ops);

/* ------------------------------------------------------------------ layout_transform */

static char primal_of(char axis) { return axis >= 'a' && axis <= 'z' ? (char)(axis - 'a' + 'A') : axis; }

/* LayoutTransformRel: BijectiveLayout(src, dst).ForwardShape.  A primal dst axis X gets the
   input's X times src's split factor of X, divided (rounding up: shapediv) by dst's factor of X;
   a subordinate dst axis gets its split size.  Every dst axis must have its primal in src. */
static const Type *layout_transform_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *sname = op_str(c, "src_layout"), *dname = op_str(c, "dst_layout");
  KitLayout src, dst;
  int s = kit_layout_attr(c, "src_layout", sname, &src);
  if (s < 0) return NULL;
  int d = kit_layout_attr(c, "dst_layout", dname, &dst);
  if (d < 0) return NULL;
  if (!s || !d) return op_fail(c, -1, "layout_transform: cannot convert from/to undefined layout");
  for (size_t i = 0; i < dst.ndim; i++) {
    bool found = false;
    for (size_t j = 0; j < src.ndim; j++)
      found |= primal_of(src.axis[j]) == primal_of(dst.axis[i]);
    if (!found) return op_fail(c, -1, "layout_transform: cannot convert from %s to %s", sname, dname);
  }
  if (data->ndims != src.ndim)
    return op_fail(c, 0, "layout_transform: Input shape size %u mismatch with the expected shape size %zu",
                   data->ndims, src.ndim);
  for (size_t j = 0; j < src.ndim; j++)
    if (src.factor[j] && data->dims[j] != KIT_ANY && data->dims[j] != src.factor[j])
      return op_fail(c, 0, "layout_transform: Input shape mismatch at index %zu. Expected %lld, get %lld", j,
                     (long long)src.factor[j], (long long)data->dims[j]);
  Dims o = {0};
  for (size_t i = 0; i < dst.ndim; i++) {
    if (dst.factor[i]) {
      dims_push(&o, dst.factor[i]);
      continue;
    }
    /* Subordinate src axes contribute 0 to a shape (TVM binds their index variables to 0). */
    int64_t v = 0, sf = kit_layout_factor(&src, dst.axis[i]), df = kit_layout_factor(&dst, dst.axis[i]);
    for (size_t j = 0; j < src.ndim && v != KIT_ANY; j++)
      if (src.axis[j] == dst.axis[i] && data->dims[j] == KIT_ANY) v = KIT_ANY;
      else if (src.axis[j] == dst.axis[i] && !kit_fit(c, v + (KitWide)data->dims[j] * (sf > 0 ? sf : 1), &v)) {
        free(o.items);
        return NULL;
      }
    if (v != KIT_ANY && df > 0) v = (int64_t)(((KitWide)v + df - 1) / df); /* v, df > 0: fits */
    dims_push(&o, v);
  }
  return dims_tensor(c, data->dtype, &o);
}

/* layout_transform between the usual layouts: any rank 1..5 as a permutation of "C", "NC",
   "NCW", "NCHW", "NCDHW" into another; rank 5 also as packing NCHW-like data into NCHW<f>c with
   the last dimension as the factor; rank 4 also as unpacking NCHW<f>c, f dividing the result's
   C.  Packing keeps C a multiple of f (TVM would pad otherwise). */
static bool layout_transform_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX) && t->ndims <= 5;
}

static void gen_layout(OpGen *g, const char *base, char *out) {
  size_t n = strlen(base);
  memcpy(out, base, n + 1);
  for (size_t i = n; i > 1; i--) {
    size_t j = rng_index(g->rng, i);
    char tmp = out[i - 1];
    out[i - 1] = out[j];
    out[j] = tmp;
  }
}

static size_t layout_pos(const char *layout, char axis) { return (size_t)(strchr(layout, axis) - layout); }

static bool layout_transform_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const char *const bases[] = {"", "C", "NC", "NCW", "NCHW", "NCDHW"};
  opgen_plan_init(g, op, out);
  const size_t n = t->ndims;
  char src[32], dst[32];
  int64_t in[5];
  size_t mode = 0; /* 0: permute, 1: pack, 2: unpack */
  if (n == 5 && t->dims[4] <= 1024 && rng_chance(g->rng, 1, 2)) mode = 1;
  if (n == 4) {
    gen_layout(g, "NCHW", dst);
    if (t->dims[layout_pos(dst, 'C')] > 1 && rng_chance(g->rng, 1, 2)) mode = 2;
  }
  if (mode == 0) {
    gen_layout(g, bases[n], src);
    gen_layout(g, bases[n], dst);
    for (size_t j = 0; j < n; j++)
      in[j] = t->dims[layout_pos(dst, src[j])];
  } else if (mode == 1) {
    int64_t f = t->dims[4];
    gen_layout(g, "NCHW", src);
    gen_layout(g, "NCHW", dst);
    snprintf(dst + 4, sizeof dst - 4, "%lldc", (long long)f);
    for (size_t j = 0; j < 4; j++)
      in[j] = t->dims[layout_pos(dst, src[j])] * (src[j] == 'C' ? f : 1);
  } else {
    int64_t c = t->dims[layout_pos(dst, 'C')], f;
    do
      f = kit_divisor(g, c, 1024);
    while (f == 1 && c <= 1024); /* a factor of 1 only when nothing else is small enough */
    gen_layout(g, "NCHW", src);
    for (size_t j = 0; j < 4; j++)
      in[j] = t->dims[layout_pos(dst, src[j])] / (src[j] == 'C' ? f : 1);
    in[4] = f;
    snprintf(src + 4, sizeof src - 4, "%lldc", (long long)f);
  }
  kit_arg(out, kit_tensor(g, t->dtype, in, mode == 2 ? 5 : mode == 1 ? 4 : n));
  opgen_set_str(g, op, out, "src_layout", src);
  opgen_set_str(g, op, out, "dst_layout", dst);
  out->result = t;
  return true;
}

static const OpAttrSpec layout_transform_attrs[] = {{"src_layout", AT_STR, "None"},
                                                    {"dst_layout", AT_STR, "None"}};

static const OpDef layout_transform_ops[] = {
    KIT_OP("layout_transform", 1, layout_transform_attrs, layout_transform_rel,
           KIT_GEN(OPDT_ANY, layout_transform_recognize, layout_transform_solve, opgen_sample_by_solving)),
};
OP_REGISTER(layout_transform_ops);

/* ------------------------------------------------------------------ topk */

/* TopKRel: the axis shrinks to k (k < 1 keeps it); values have data's dtype, indices the dtype
   attribute; ret_type picks both (a tuple), values or indices. */
static const Type *topk_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t k;
  if (!data || !required_int(c, "k", &k)) return NULL;
  int64_t nd = data->ndims, axis = op_int(c, "axis");
  if (axis < 0) axis += nd;
  if (axis < 0 || axis >= nd)
    return op_fail(
        c, -1,
        "topk: axis %lld is out of range for data.ndim = %lld (Check failed: axis >= 0 && axis < ndim)",
        (long long)op_int(c, "axis"), (long long)nd);
  const char *ret = op_str(c, "ret_type");
  bool both = !strcmp(ret, "both"), values = !strcmp(ret, "values"), indices = !strcmp(ret, "indices");
  if (!both && !values && !indices) return op_fail(c, -1, "topk: Unsupported ret type: %s", ret);
  int64_t *shape = xmalloc((nd ? nd : 1) * sizeof *shape);
  memcpy(shape, data->dims, nd * sizeof *shape);
  if (k >= 1) shape[axis] = k;
  const Type *vt = ty_tensor(c->types, data->dtype, shape, nd),
             *it = ty_tensor(c->types, op_dtype(c, "dtype"), shape, nd);
  free(shape);
  if (values) return vt;
  if (indices) return it;
  const Type *fields[2] = {vt, it};
  return ty_tuple(c->types, fields, 2);
}

/* topk: with ret_type "both" a (values, indices) pair of one shape; alone, values (data's numeric
   dtype) or indices (an int dtype).  The axis shrinks to k; k < 1 keeps the whole axis. */
static bool topk_recognize(const OpDef *op, const Type *t) {
  if (t->kind == TY_TUPLE)
    return t->nargs == 2 && kit_gen_ok(t->args[0], (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX) &&
           kit_gen_ok(t->args[1], OPDT_INT, 1, KIT_RANK_MAX) && t->args[0]->ndims == t->args[1]->ndims &&
           !memcmp(t->args[0]->dims, t->args[1]->dims, t->args[0]->ndims * sizeof *t->args[0]->dims);
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX);
}

static bool topk_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const Type *shape = t->kind == TY_TUPLE ? t->args[0] : t;
  DType data_dt, idx_dt;
  if (t->kind == TY_TUPLE) {
    data_dt = shape->dtype, idx_dt = t->args[1]->dtype;
    if (rng_chance(g->rng, 1, 2)) opgen_set_str(g, op, out, "ret_type", "both");
  } else if (dtype_is_int(t->dtype) && rng_chance(g->rng, 1, 2)) {
    data_dt = opgen_dtype(g, (OpDtypes)op->gen_dtypes), idx_dt = t->dtype;
    opgen_set_str(g, op, out, "ret_type", "indices");
  } else {
    data_dt = t->dtype, idx_dt = kit_index_dtype(g);
    opgen_set_str(g, op, out, "ret_type", "values");
  }
  const int64_t n = shape->ndims, a = rng_range(g->rng, 0, n - 1), k = shape->dims[a];
  int64_t in[KIT_RANK_MAX];
  memcpy(in, shape->dims, n * sizeof *in);
  int64_t grown = k + rng_range(g->rng, 0, 3);
  if (product(shape) / k * grown <= kit_budget(g, shape)) in[a] = grown;
  kit_arg(out, kit_tensor(g, data_dt, in, (size_t)n));
  /* k < 1 means the whole axis. */
  opgen_set_int(g, op, out, "k", in[a] == k && rng_chance(g->rng, 1, 3) ? -rng_range(g->rng, 0, 1) : k);
  if (a != n - 1 || rng_chance(g->rng, 1, 2)) opgen_set_int(g, op, out, "axis", kit_gen_axis(g, a, n));
  opgen_set_bool(g, op, out, "is_ascend", rng_chance(g->rng, 1, 2));
  kit_set_dtype(g, op, out, "dtype", idx_dt);
  out->result = t;
  return true;
}

static bool topk_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *t = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 1, g->policy->max_rank);
  if (rng_chance(g->rng, 1, 2)) {
    const Type *fields[2] = {t, opgen_with_dtype(g, t, kit_index_dtype(g))};
    t = ty_tuple(g->types, fields, 2);
  }
  return topk_solve(g, op, t, out);
}

static const OpDef topk_ops[] = {
    /* sorting compares numbers; argsort's result is its indices */
    KIT_OP("topk", 1, kit_topk_attrs, topk_rel,
           KIT_GEN(OPDT_NUMERIC, topk_recognize, topk_solve, topk_sample)),
};
OP_REGISTER(topk_ops);

/* ------------------------------------------------------------------ sort, argsort */

/* SortRel: data's type. */
static const Type *sort_rel(OpCall *c) { return op_tensor_arg(c, 0); }

/* ArgsortRel: data's shape in the dtype attribute. */
static const Type *argsort_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  return data ? ty_tensor(c->types, op_dtype(c, "dtype"), data->dims, data->ndims) : NULL;
}

/* sort: data's type, any axis. */
static bool sort_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, rng_range(g->rng, 0, t->ndims - 1), t->ndims));
  opgen_set_bool(g, op, out, "is_ascend", rng_chance(g->rng, 1, 2));
  return true;
}

/* argsort: numeric data of the result's shape; the result's int dtype is the attribute. */
static bool argsort_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, opgen_with_dtype(g, t, opgen_dtype(g, OPDT_NUMERIC)));
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, rng_range(g->rng, 0, t->ndims - 1), t->ndims));
  opgen_set_bool(g, op, out, "is_ascend", rng_chance(g->rng, 1, 2));
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpAttrSpec argsort_attrs[] = {
    {"axis", AT_INT, "-1"}, {"is_ascend", AT_BOOL, "True"}, {"dtype", AT_DTYPE, "\"\""}};

static const OpDef sort_ops[] = {
    KIT_OP("sort", 1, argsort_attrs, sort_rel, KIT_SOLVED(OPDT_NUMERIC, kit_static_ranked, sort_solve)),
    KIT_OP("argsort", 1, argsort_attrs, argsort_rel, KIT_SOLVED(OPDT_INT, kit_static_ranked, argsort_solve)),
};
OP_REGISTER(sort_ops);
