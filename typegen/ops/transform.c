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
 */
#include "../op.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"

#define ANY TY_DIM_ANY

/* ------------------------------------------------------------------ helpers */

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
    if (dims[i] == ANY)
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
    if (t->dims[i] == ANY) return false;
  return true;
}

static int64_t product(const Type *t) {
  int64_t p = 1;
  for (uint32_t i = 0; i < t->ndims; i++)
    p *= t->dims[i];
  return p;
}

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

/* ------------------------------------------------------------------ reshape */

static bool in_list(const size_t *xs, size_t n, size_t x) {
  for (size_t i = 0; i < n; i++)
    if (xs[i] == x) return true;
  return false;
}

/* InferNewShape (src/relay/op/tensor/transform.cc), forward direction: newshape with its special
   codes 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one into the next
   two), and allowzero (0 is a real zero).  Writes the shape into *o; false after op_fail. */
static bool infer_new_shape(OpCall *c, const Type *data, const int64_t *ns, size_t nn, bool allowzero,
                            Dims *o) {
  const size_t nin = data->ndims;
  const int64_t *in = data->dims;
  bool *used_in = xcalloc(nin ? nin : 1, sizeof *used_in);
  VEC(size_t) used_out = {0};
  size_t src = 0;
  long infer_idx = -1;
  bool ok = false;
  for (size_t i = 0; i < nn; i++) {
    int64_t v = ns[i];
    if (v > 0) {
      dims_push(o, v);
      src++;
    } else if (v == 0) {
      if (allowzero) {
        dims_push(o, 0);
        src++;
      } else {
        if (src >= nin) {
          op_fail(c, 0,
                  "reshape: newshape[%zu] = 0 copies input dimension %zu, but the input has %zu dimensions",
                  i, src, nin);
          goto done;
        }
        used_in[src] = true;
        VEC_PUSH(used_out, o->len);
        dims_push(o, in[src++]);
      }
    } else if (v == -1) {
      if (infer_idx >= 0) {
        op_fail(c, -1, "reshape: One and only one dim can be inferred");
        goto done;
      }
      /* TVM keeps the position in newshape, and later stores the inferred size at that position
         of the output, which differs from where the placeholder went once -2/-3/-4 came before. */
      infer_idx = (long)i;
      dims_push(o, 1);
      src++;
    } else if (v == -2) {
      while (src < nin) {
        used_in[src] = true;
        VEC_PUSH(used_out, o->len);
        dims_push(o, in[src++]);
      }
    } else if (v == -3) {
      if (src + 1 >= nin) {
        op_fail(c, 0,
                "reshape: newshape[%zu] = -3 merges input dimensions %zu and %zu, but the input has %zu "
                "dimensions",
                i, src, src + 1, nin);
        goto done;
      }
      int64_t d1 = in[src], d2 = in[src + 1];
      used_in[src] = used_in[src + 1] = true;
      src += 2;
      VEC_PUSH(used_out, o->len);
      dims_push(o, d1 == ANY || d2 == ANY ? ANY : d1 * d2);
    } else if (v == -4) {
      if (i + 2 >= nn) {
        op_fail(c, -1, "reshape: newshape[%zu] = -4 must be followed by the two dimensions to split into", i);
        goto done;
      }
      if (src >= nin) {
        op_fail(c, 0,
                "reshape: newshape[%zu] = -4 splits input dimension %zu, but the input has %zu dimensions", i,
                src, nin);
        goto done;
      }
      used_in[src] = true;
      int64_t d0 = in[src++], d1 = ns[++i], d2 = ns[++i];
      if (d1 == -1 && d2 == -1) {
        op_fail(c, -1, "reshape: Split dims cannot both be -1.");
        goto done;
      }
      if (d1 < -1 || d2 < -1) {
        op_fail(c, -1, "reshape: %lld is not a dimension to split into after -4",
                (long long)(d1 < -1 ? d1 : d2));
        goto done;
      }
      int64_t known = d1 == -1 ? d2 : d1, other = d1 == -1 ? d1 : d2;
      if (other == -1 && known == 0 && d0 != ANY) {
        op_fail(c, -1, "reshape: division by zero splitting dimension %lld with -4", (long long)d0);
        goto done;
      }
      int64_t rest = d0 == ANY ? ANY : (known ? d0 / known : 0);
      VEC_PUSH(used_out, o->len);
      dims_push(o, d1 == -1 ? rest : d1);
      VEC_PUSH(used_out, o->len);
      dims_push(o, d2 == -1 ? rest : d2);
    } else {
      op_fail(c, -1, "reshape: Unsupported special value: %lld", (long long)v);
      goto done;
    }
  }
  if (infer_idx >= 0) {
    /* What the unused input dimensions hold, divided by the output dimensions not copied. */
    int64_t dim = 1;
    for (size_t j = 0; j < nin; j++) {
      if (used_in[j]) continue;
      if (in[j] == ANY) {
        dim = ANY;
        break;
      }
      dim *= in[j];
    }
    if (dim != ANY)
      for (size_t j = 0; j < o->len; j++) {
        if (in_list(used_out.items, used_out.len, j)) continue;
        if (o->items[j] == ANY) {
          dim = ANY;
          break;
        }
        if (o->items[j] == 0) {
          op_fail(c, -1, "reshape: cannot infer the -1 dimension: division by a zero dimension");
          goto done;
        }
        dim /= o->items[j];
      }
    if ((size_t)infer_idx >= o->len) {
      op_fail(c, -1,
              "reshape: the inferred dimension (newshape[%ld] = -1) lies outside the %zu-dimensional result",
              infer_idx, o->len);
      goto done;
    }
    o->items[infer_idx] = dim;
  }
  ok = true;
done:
  free(used_in);
  free(used_out.items);
  return ok;
}

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
  bool ok = infer_new_shape(c, data, ns, nn, op_bool(c, "allowzero"), &o);
  free(ns);
  if (!ok) {
    free(o.items);
    return NULL;
  }
  bool dynamic = !all_static(data);
  int64_t osize = 1;
  for (size_t i = 0; i < o.len; i++) {
    if (o.items[i] == ANY)
      dynamic = true;
    else
      osize *= o.items[i];
  }
  if (!dynamic && osize != product(data)) {
    char *a = shape_str(data->dims, data->ndims, false), *b = shape_str(o.items, o.len, false);
    op_fail(c, 0, "reshape: Input tensor shape(%s) and reshaped shape(%s) are not compatible!", a, b);
    free(a);
    free(b);
    free(o.items);
    return NULL;
  }
  return dims_tensor(c, data->dtype, &o);
}

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
    int64_t osize = 1;
    for (size_t i = 0; i < o.len; i++) {
      if (o.items[i] == ANY)
        odyn = true;
      else
        osize *= o.items[i];
    }
    if (!odyn && osize != product(data)) {
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

/* InitOpAttrs as the dynamic broadcast_to declares them: the shape comes from the second argument. */
static const OpAttrSpec dyn_broadcast_to_attrs[] = {{"shape", AT_INTS, "None"}, {"dtype", AT_DTYPE, "\"\""}};

/* dyn.reshape and dyn.broadcast_to (ReshapeRel, BroadCastToRel in src/relay/op/dyn/tensor/
   transform.cc): the result's rank is the length of the shape tensor; every dimension is unknown. */
static const Type *dyn_reshape_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *shape = data ? op_tensor_arg(c, 1) : NULL;
  if (!shape) return NULL;
  if (shape->ndims == 0)
    return op_fail(c, 1, "%s: the new shape must be a 1-D tensor, got a scalar", c->op->name);
  if (shape->dims[0] == ANY) return op_fail(c, 1, "Dynamic Reshape doesn't support Dynamic Rank");
  Dims o = {0};
  for (int64_t i = 0; i < shape->dims[0]; i++)
    dims_push(&o, ANY);
  return dims_tensor(c, data->dtype, &o);
}

/* ------------------------------------------------------------------ axes */

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

/* SqueezeRel: axis None drops every static 1 (and needs a static shape); a list drops those axes,
   which must not be static dimensions other than 1. */
static const Type *squeeze_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  size_t nd = data->ndims;
  Dims o = {0};
  if (op_is_none(c, "axis")) {
    for (size_t i = 0; i < nd; i++) {
      if (data->dims[i] == ANY) {
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
    else if (data->dims[i] != ANY && data->dims[i] != 1) {
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

/* ExpandDimsRel: num_newaxis ones inserted at axis, axis in [-ndim - 1, ndim]. */
static const Type *expand_dims_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  int64_t axis;
  if (!data || !required_int(c, "axis", &axis)) return NULL;
  int64_t nd = data->ndims, k = op_int(c, "num_newaxis");
  if (k < 0)
    return op_fail(c, -1, "expand_dims only accepts `num_newaxis >= 0`, but got num_newaxis = %lld",
                   (long long)k);
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

/* ------------------------------------------------------------------ joining and splitting */

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
    if (d == ANY)
      dynamic_concat = true;
    else
      sum += d;
  }
  for (int64_t j = 0; j < nd; j++) {
    if (j == axis) {
      dims_push(&o, dynamic_concat ? ANY : sum);
      continue;
    }
    int64_t known = ANY;
    size_t nknown = 0;
    for (uint32_t i = 0; i < tup->nargs; i++) {
      int64_t d = tup->args[i]->dims[j];
      if (d == ANY) continue;
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
      dims_push(&o, ANY);
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
      if (j == axis || first->dims[j] == ANY || e->dims[j] == ANY || first->dims[j] == e->dims[j]) continue;
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
    if (dim != ANY && dim % sections != 0) {
      op_fail(
          c, 0,
          "split: indices_or_sections need to be able to divide input.shape[axis] (%lld sections of %lld)",
          (long long)sections, (long long)dim);
      goto done;
    }
    shape[axis] = dim == ANY ? ANY : dim / sections;
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
    if (dim != ANY && begin >= dim) {
      op_fail(c, 0, "split: The sum of sections must match the input.shape[axis]");
      goto done;
    }
    shape[axis] = dim == ANY ? ANY : dim - begin;
    fields[nfields++] = ty_tensor(c->types, data->dtype, shape, nd);
  }
  r = ty_tuple(c->types, fields, nfields);
done:
  free(fields);
  free(shape);
  return r;
}

/* ------------------------------------------------------------------ slicing */

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
    if (dim == ANY) {
      shape[ax] = ANY;
      continue;
    }
    if (strides[i] == 0) {
      op_fail(c, -1, "strided_slice: the stride for axis %lld is 0", (long long)ax);
      goto done;
    }
    int64_t b = canonical_index(begin[i], dim, strides[i]), e = canonical_index(end[i], dim, strides[i]);
    int64_t step = strides[i] < 0 ? -strides[i] : strides[i], interval = e > b ? e - b : b - e;
    if (strides[i] < 0 ? e > b : b > e) {
      op_fail(c, -1, "strided_slice: Input [Begin=%lld, End=%lld] is invalid for axis=%zu",
              (long long)begin[i], (long long)end[i], i);
      goto done;
    }
    shape[ax] = (interval + step - 1) / step;
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
  if (begin->ndims == 0 || begin->dims[0] == ANY)
    return op_fail(c, 1, "dyn.strided_slice: begin must be a 1-D tensor of static length");
  if (begin->dims[0] > (int64_t)data->ndims)
    return op_fail(c, 1, "the number of dynamic axes to slice should be less than or equal to the data rank");
  Dims o = {0};
  for (uint32_t i = 0; i < data->ndims; i++)
    dims_push(&o, (int64_t)i < begin->dims[0] ? ANY : data->dims[i]);
  return dims_tensor(c, data->dtype, &o);
}

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
    if (want != ANY && data->dims[a] != ANY && want > data->dims[a]) {
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

/* ------------------------------------------------------------------ indexing */

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
      if (di != ANY && di < 1)
        return op_fail(c, 1, "gather: indices dimension %lld on the axis must be >= 1", (long long)di);
    } else if (di != ANY && dd != ANY && di != dd) {
      return op_fail(c, 1, "gather: indices dimension %lld (%lld) does not match data's (%lld)", (long long)i,
                     (long long)di, (long long)dd);
    }
  }
  return ty_tensor(c->types, data->dtype, idx->dims, idx->ndims);
}

/* GatherNDRel: indices (M, Y_0, ..., Y_{K-1}) into data (X_0, ..., X_{N-1}) gives
   (Y_0, ..., Y_{K-1}, X_{M+B}, ..., X_{N-1}) with B = batch_dims; M must be static and <= N. */
static const Type *gather_nd_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *idx = data ? op_tensor_arg(c, 1) : NULL;
  if (!idx) return NULL;
  if (idx->ndims == 0) return op_fail(c, 1, "GatherND: indices must have at least one dimension");
  int64_t m = idx->dims[0], nd = data->ndims, bd = op_int(c, "batch_dims");
  if (m == ANY) {
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
    if (a != ANY && b != ANY && a != b)
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

/* ------------------------------------------------------------------ repetition */

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
    dims_push(&o, d == ANY ? ANY : d * r);
  }
  free(reps);
  return dims_tensor(c, data->dtype, &o);
}

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
  Dims o = {0};
  for (int64_t i = 0; i < nd; i++) {
    int64_t d = data->dims[i];
    dims_push(&o, i != pivot ? d : d == ANY ? ANY : d * repeats);
  }
  return dims_tensor(c, data->dtype, &o);
}

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

/* ------------------------------------------------------------------ broadcasting */

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
    same = t->dims[i] == want->dims[i] || t->dims[i] == ANY || want->dims[i] == ANY;
  if (!same) {
    char *s1 = ty_str(t), *s2 = ty_str(want);
    op_fail(c, 0, "%s: unable to unify: `%s` and `%s`", c->op->name, s1, s2);
    free(s1);
    free(s2);
  }
  return same;
}

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

/* ------------------------------------------------------------------ creation */

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

/* InitOpRel (zeros, ones): the shape and dtype attributes. */
static const Type *init_op_rel(OpCall *c) { return init_shape(c, op_dtype(c, "dtype")); }

/* FullLikeRel: data's type; the fill value must be a scalar. */
static const Type *full_like_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *fill = data ? op_tensor_arg(c, 1) : NULL;
  if (!fill) return NULL;
  if (fill->ndims != 0)
    return op_fail(c, 1, "The fill value should be a scalar but here it has dimension %u.", fill->ndims);
  return data;
}

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
  int64_t any = ANY;
  return ty_tensor(c->types, dt, &any, 1);
}

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

/* ShapeOfRel (src/relay/op/tensor/unary.cc): Tensor[(rank), dtype]; a scalar's shape is a scalar
   (RankShape gives no dimensions for rank 0). */
static const Type *shape_of_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t rank = data->ndims;
  return ty_tensor(c->types, op_dtype(c, "dtype"), &rank, rank ? 1 : 0);
}

/* ArgWhereRel: Tensor[(?, rank), int32]. */
static const Type *argwhere_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  int64_t dims[2] = {ANY, data->ndims};
  return ty_tensor(c->types, dt_int32, dims, 2);
}

/* ------------------------------------------------------------------ layouts */

enum { LAYOUT_MAX = 64 };

/* A parsed layout: "NCHW4c" is N, C, H, W (primal, factor 0) and c (subordinate, factor 4). */
typedef struct Layout {
  size_t n;
  char axis[LAYOUT_MAX];
  int64_t factor[LAYOUT_MAX];
} Layout;

/* Layout::Layout (src/tir/ir/data_layout.cc).  Returns 1 for a layout, 0 for the undefined
   layout ("" or "__undef__"), -1 after op_fail for a malformed one. */
static int parse_layout(OpCall *c, const char *name, Layout *l) {
  l->n = 0;
  if (!*name || !strcmp(name, "__undef__")) return 0;
  int64_t factor = 0;
  for (const char *p = name; *p; p++) {
    if (l->n == LAYOUT_MAX) {
      op_fail(c, -1, "Invalid layout %s: too many axes", name);
      return -1;
    }
    if (*p >= 'A' && *p <= 'Z') {
      if (factor != 0) {
        op_fail(c, -1, "Invalid layout %s: invalid factor size %lld before dimension %c", name,
                (long long)factor, *p);
        return -1;
      }
      l->axis[l->n] = *p;
      l->factor[l->n++] = 0;
    } else if (*p >= 'a' && *p <= 'z') {
      if (factor <= 0) {
        op_fail(c, -1, "Invalid layout %s: invalid factor size %lld for dimension %c", name,
                (long long)factor, *p);
        return -1;
      }
      l->axis[l->n] = *p;
      l->factor[l->n++] = factor;
      factor = 0;
    } else if (*p >= '0' && *p <= '9') {
      factor = factor * 10 + (*p - '0');
      if (factor > INT32_MAX) {
        op_fail(c, -1, "Invalid layout %s: factor too large", name);
        return -1;
      }
    } else {
      op_fail(c, -1, "Invalid layout %s", name);
      return -1;
    }
  }
  /* Trailing digits without an axis are ignored, as in TVM. */
  for (size_t i = 0; i < l->n; i++) {
    if (!l->factor[i]) continue;
    char primal = (char)(l->axis[i] - 'a' + 'A');
    bool found = false;
    for (size_t j = 0; j < l->n; j++)
      found |= l->axis[j] == primal;
    if (!found) {
      op_fail(c, -1, "Invalid layout %s: missing axis %c", name, primal);
      return -1;
    }
  }
  return 1;
}

/* Layout::FactorOf: the product of the split sizes of a primal axis's subordinates, or -1. */
static int64_t layout_factor(const Layout *l, char primal) {
  int64_t f = 1;
  bool has = false;
  for (size_t i = 0; i < l->n; i++)
    if (l->factor[i] && l->axis[i] == primal - 'A' + 'a') {
      has = true;
      f *= l->factor[i];
    }
  return has ? f : -1;
}

static char primal_of(char axis) { return axis >= 'a' && axis <= 'z' ? (char)(axis - 'a' + 'A') : axis; }

/* LayoutTransformRel: BijectiveLayout(src, dst).ForwardShape.  A primal dst axis X gets the
   input's X times src's split factor of X, divided (rounding up: shapediv) by dst's factor of X;
   a subordinate dst axis gets its split size.  Every dst axis must have its primal in src. */
static const Type *layout_transform_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  const char *sname = op_str(c, "src_layout"), *dname = op_str(c, "dst_layout");
  Layout src, dst;
  int s = parse_layout(c, sname, &src);
  if (s < 0) return NULL;
  int d = parse_layout(c, dname, &dst);
  if (d < 0) return NULL;
  if (!s || !d) return op_fail(c, -1, "layout_transform: cannot convert from/to undefined layout");
  for (size_t i = 0; i < dst.n; i++) {
    bool found = false;
    for (size_t j = 0; j < src.n; j++)
      found |= primal_of(src.axis[j]) == primal_of(dst.axis[i]);
    if (!found) return op_fail(c, -1, "layout_transform: cannot convert from %s to %s", sname, dname);
  }
  if (data->ndims != src.n)
    return op_fail(c, 0, "layout_transform: Input shape size %u mismatch with the expected shape size %zu",
                   data->ndims, src.n);
  for (size_t j = 0; j < src.n; j++)
    if (src.factor[j] && data->dims[j] != ANY && data->dims[j] != src.factor[j])
      return op_fail(c, 0, "layout_transform: Input shape mismatch at index %zu. Expected %lld, get %lld", j,
                     (long long)src.factor[j], (long long)data->dims[j]);
  Dims o = {0};
  for (size_t i = 0; i < dst.n; i++) {
    if (dst.factor[i]) {
      dims_push(&o, dst.factor[i]);
      continue;
    }
    /* Subordinate src axes contribute 0 to a shape (TVM binds their index variables to 0). */
    int64_t v = 0, sf = layout_factor(&src, dst.axis[i]), df = layout_factor(&dst, dst.axis[i]);
    for (size_t j = 0; j < src.n && v != ANY; j++)
      if (src.axis[j] == dst.axis[i]) v = data->dims[j] == ANY ? ANY : v + data->dims[j] * (sf > 0 ? sf : 1);
    if (v != ANY && df > 0) v = (v + df - 1) / df;
    dims_push(&o, v);
  }
  return dims_tensor(c, data->dtype, &o);
}

/* ------------------------------------------------------------------ sorting */

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

/* SortRel: data's type. */
static const Type *sort_rel(OpCall *c) { return op_tensor_arg(c, 0); }

/* ArgsortRel: data's shape in the dtype attribute. */
static const Type *argsort_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  return data ? ty_tensor(c->types, op_dtype(c, "dtype"), data->dims, data->ndims) : NULL;
}

/* ------------------------------------------------------------------ the table */

/* include/tvm/relay/attrs/transform.h and algorithm.h, fields in declaration order. */
static const OpAttrSpec reshape_attrs[] = {{"newshape", AT_INTS, "None"}, {"allowzero", AT_BOOL, "False"}};
static const OpAttrSpec reshape_like_attrs[] = {{"lhs_begin", AT_INT, "0"},
                                                {"lhs_end", AT_INT, "None"},
                                                {"rhs_begin", AT_INT, "0"},
                                                {"rhs_end", AT_INT, "None"}};
static const OpAttrSpec transpose_attrs[] = {{"axes", AT_INTS, "None"}};
static const OpAttrSpec squeeze_attrs[] = {{"axis", AT_INTS, "None"}};
static const OpAttrSpec expand_dims_attrs[] = {{"axis", AT_INT, "None"}, {"num_newaxis", AT_INT, "1"}};
static const OpAttrSpec concatenate_attrs[] = {{"axis", AT_INT, "0"}};
static const OpAttrSpec stack_attrs[] = {{"axis", AT_INT, "0"}};
static const OpAttrSpec split_attrs[] = {{"indices_or_sections", AT_INTS, "None"}, {"axis", AT_INT, "0"}};
static const OpAttrSpec strided_slice_attrs[] = {{"begin", AT_INTS, "None"},
                                                 {"end", AT_INTS, "None"},
                                                 {"strides", AT_INTS, "None"},
                                                 {"slice_mode", AT_STR, "\"end\""},
                                                 {"axes", AT_INTS, "None"}};
static const OpAttrSpec take_attrs[] = {
    {"batch_dims", AT_INT, "0"}, {"axis", AT_INT, "None"}, {"mode", AT_STR, "\"clip\""}};
static const OpAttrSpec tile_attrs[] = {{"reps", AT_INTS, "None"}};
static const OpAttrSpec repeat_attrs[] = {{"repeats", AT_INT, "None"}, {"axis", AT_INT, "None"}};
static const OpAttrSpec reverse_attrs[] = {{"axis", AT_INT, "None"}};
static const OpAttrSpec init_op_attrs[] = {{"shape", AT_INTS, "None"}, {"dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec arange_attrs[] = {{"start", AT_ANY, "None"},
                                          {"stop", AT_ANY, "None"},
                                          {"step", AT_ANY, "None"},
                                          {"dtype", AT_DTYPE, "None"}};
static const OpAttrSpec one_hot_attrs[] = {
    {"depth", AT_INT, "1"}, {"axis", AT_INT, "-1"}, {"dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec layout_transform_attrs[] = {{"src_layout", AT_STR, "None"},
                                                    {"dst_layout", AT_STR, "None"}};
static const OpAttrSpec shape_of_attrs[] = {{"dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec slice_like_attrs[] = {{"axes", AT_INTS, "None"}};
static const OpAttrSpec gather_attrs[] = {{"axis", AT_INT, "None"}};
static const OpAttrSpec gather_nd_attrs[] = {{"batch_dims", AT_INT, "0"}, {"index_rank", AT_INT, "None"}};
static const OpAttrSpec topk_attrs[] = {{"k", AT_INT, "None"},
                                        {"axis", AT_INT, "-1"},
                                        {"ret_type", AT_STR, "\"both\""},
                                        {"is_ascend", AT_BOOL, "False"},
                                        {"dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec argsort_attrs[] = {
    {"axis", AT_INT, "-1"}, {"is_ascend", AT_BOOL, "True"}, {"dtype", AT_DTYPE, "\"\""}};

#define OP(n, nargs, a, rel)                                                                                 \
  OP_ENTRY(n, nargs, nargs, a, sizeof a / sizeof a[0], rel)
#define OP_NOATTRS(n, nargs, rel)                                                                            \
  OP_ENTRY(n, nargs, nargs, NULL, 0, rel)

const OpDef op_family_transform[] = {
    OP("reshape", 1, reshape_attrs, reshape_rel),
    OP("reshape_like", 2, reshape_like_attrs, reshape_like_rel),
    OP("dyn.reshape", 2, reshape_attrs, dyn_reshape_rel),
    OP("dyn.broadcast_to", 2, dyn_broadcast_to_attrs, dyn_reshape_rel),
    OP("transpose", 1, transpose_attrs, transpose_rel),
    OP("squeeze", 1, squeeze_attrs, squeeze_rel),
    OP("expand_dims", 1, expand_dims_attrs, expand_dims_rel),
    OP("concatenate", 1, concatenate_attrs, concatenate_rel),
    OP("stack", 1, stack_attrs, stack_rel),
    OP("split", 1, split_attrs, split_rel),
    OP("strided_slice", 1, strided_slice_attrs, strided_slice_rel),
    OP("dyn.strided_slice", 4, strided_slice_attrs, dyn_strided_slice_rel),
    OP("slice_like", 2, slice_like_attrs, slice_like_rel),
    OP("take", 2, take_attrs, take_rel),
    OP("gather", 2, gather_attrs, gather_rel),
    OP("gather_nd", 2, gather_nd_attrs, gather_nd_rel),
    OP("tile", 1, tile_attrs, tile_rel),
    OP("repeat", 1, repeat_attrs, repeat_rel),
    OP("reverse", 1, reverse_attrs, reverse_rel),
    OP("broadcast_to", 1, init_op_attrs, broadcast_to_rel),
    OP_NOATTRS("broadcast_to_like", 2, broadcast_to_like_rel),
    OP_NOATTRS("collapse_sum_like", 2, collapse_sum_like_rel),
    OP_NOATTRS("where", 3, where_rel),
    OP("full", 1, init_op_attrs, full_rel),
    OP_NOATTRS("full_like", 2, full_like_rel),
    OP("zeros", 0, init_op_attrs, init_op_rel),
    OP("ones", 0, init_op_attrs, init_op_rel),
    OP("arange", 3, arange_attrs, arange_rel),
    OP("one_hot", 3, one_hot_attrs, one_hot_rel),
    OP("shape_of", 1, shape_of_attrs, shape_of_rel),
    OP_NOATTRS("argwhere", 1, argwhere_rel),
    OP("layout_transform", 1, layout_transform_attrs, layout_transform_rel),
    OP("topk", 1, topk_attrs, topk_rel),
    OP("sort", 1, argsort_attrs, sort_rel),
    OP("argsort", 1, argsort_attrs, argsort_rel),
};
const size_t op_family_transform_len = sizeof op_family_transform / sizeof op_family_transform[0];
