/*
 * More transform operators: collapse_sum_to, contrib_reverse_reshape, einsum, invert_permutation,
 * matrix_set_diag, meshgrid, reverse_sequence, sequence_mask, sliding_window, strided_set and
 * trilu.  (The indexing ones, adv_index, scatter_* and sparse_*, are in ops/transform_index.c.)
 *
 * Facts from TVM v0.13: src/relay/op/tensor/transform.cc (CollapseSumToRel, ReverseReshapeRel with
 * InferNewShape, MatrixSetDiagRel, MeshgridRel, ReverseSequenceRel, SequenceMaskRel,
 * SlidingWindowRel, StridedSetRel, TriluRel; invert_permutation registers IdentityRel),
 * src/relay/op/tensor/math.cc (EinsumRel) with src/topi/einsum.cc (EinsumEquation::FromString,
 * EinsumBuilder::InferShape) and include/tvm/topi/detail/broadcast.h (BroadcastShape); attribute
 * schemas from include/tvm/relay/attrs/transform.h.
 *
 * TVM's reporter->Assert / AssertEQ results are ignored by MatrixSetDiagRel (so its shape checks
 * are no checks), but checked where a relation wraps them in ICHECK (reverse_sequence).  Where TVM
 * would index out of bounds or crash (a negative axis in sliding_window, a diagonal of rank 0,
 * an output label einsum's inputs lack, ...) the relation rejects the call with a message naming
 * the problem.  A dimension TVM computes as a non-constant expression from a `?` is `?` here.
 *
 * Below the relations, the RFC's generators.  einsum's solver writes explicit equations (and the
 * implicit form when it means the same) without ellipses or broadcasting; the others build exactly
 * the shapes TVM's computes expect, which is narrower than what the relations accept.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"
#include "kit.h"

OP_FAMILY(transform_extra);

/* ------------------------------------------------------------------ collapse_sum_to */

/* CollapseSumToRel: the shape attribute (or `?` times the length of the shape argument when it is
   None) in data's dtype, which must broadcast with data to data's shape. */
static const Type *collapse_sum_to_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *shape = data ? op_tensor_arg(c, 1) : NULL;
  if (!shape) return NULL;
  if (shape->ndims == 0 || shape->dims[0] == KIT_ANY)
    return op_fail(c, 1, "collapse_sum_to: Parameter must have static rank");
  int64_t dims[KIT_RANK_MAX];
  long n;
  if (op_is_none(c, "shape")) {
    if (shape->dims[0] > KIT_RANK_MAX)
      return op_fail(c, 1, "collapse_sum_to: rank %lld is too large", (long long)shape->dims[0]);
    n = (long)shape->dims[0];
    for (long i = 0; i < n; i++)
      dims[i] = KIT_ANY;
  } else if ((n = kit_ints(c, "shape", dims, KIT_RANK_MAX)) < 0 || !kit_nonneg(c, dims, (size_t)n)) {
    return NULL;
  }
  const Type *out = ty_tensor(c->types, data->dtype, dims, (size_t)n);
  /* BroadcastRel(data, out) -> data */
  const Type *b = op_broadcast(c, data, out, data->dtype);
  if (!b) return NULL;
  bool same = b->ndims == data->ndims;
  for (uint32_t i = 0; same && i < b->ndims; i++)
    same = kit_dim_match(b->dims[i], data->dims[i]);
  if (!same) {
    char *s1 = ty_str(b), *s2 = ty_str(data);
    op_fail(c, 0, "collapse_sum_to: unable to unify: `%s` and `%s`", s1, s2);
    free(s1);
    free(s2);
    return NULL;
  }
  return out;
}

/* collapse_sum_to: data broadcasts the result (more leading dimensions, 1s widened); the shape
   attribute is the result's, the shape argument a vector of its rank. */
static bool collapse_sum_to_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t dims[KIT_RANK_MAX];
  size_t n = 0, room = KIT_RANK_MAX - t->ndims;
  size_t extra = (size_t)rng_range(g->rng, 0, room < 2 ? (int64_t)room : 2);
  for (size_t i = 0; i < extra; i++)
    dims[n++] = rng_range(g->rng, 1, g->policy->max_dim);
  for (uint32_t i = 0; i < t->ndims; i++)
    dims[n++] =
        t->dims[i] == 1 && rng_chance(g->rng, 1, 2) ? rng_range(g->rng, 1, g->policy->max_dim) : t->dims[i];
  kit_arg(out, kit_tensor(g, t->dtype, dims, n));
  kit_arg(out, kit_vec(g, kit_index_dtype(g), t->ndims));
  opgen_set_ints(g, op, out, "shape", t->dims, t->ndims);
  out->result = t;
  return true;
}

static const OpDef collapse_sum_to_ops[] = {
    /* a sum: numbers only */
    KIT_OP("collapse_sum_to", 2, kit_init_op_attrs, collapse_sum_to_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_any, collapse_sum_to_solve)),
};
OP_REGISTER(collapse_sum_to_ops);

/* ------------------------------------------------------------------ contrib_reverse_reshape */

/* ReverseReshapeRel: InferNewShape on the reversed shape with the reversed newshape, reversed back;
   the element counts must agree when both shapes are static. */
static const Type *reverse_reshape_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (op_is_none(c, "newshape") ||
      (op_attr(c, "newshape")->kind != ATTR_LIST && op_attr(c, "newshape")->kind != ATTR_INT))
    return op_fail(c, -1, "contrib_reverse_reshape: newshape must be a list of integers");
  size_t nn = op_attr(c, "newshape")->kind == ATTR_LIST ? op_attr(c, "newshape")->n : 1;
  int64_t *ns = xmalloc((nn ? nn : 1) * sizeof *ns),
          *rev = xmalloc((data->ndims ? data->ndims : 1) * sizeof *rev);
  long got = kit_ints(c, "newshape", ns, nn);
  const Type *result = NULL;
  if (got < 0) goto done;
  for (size_t i = 0; i < nn / 2; i++) {
    int64_t t = ns[i];
    ns[i] = ns[nn - 1 - i];
    ns[nn - 1 - i] = t;
  }
  for (uint32_t i = 0; i < data->ndims; i++)
    rev[i] = data->dims[data->ndims - 1 - i];
  const Type *rdata = ty_tensor(c->types, data->dtype, rev, data->ndims);
  int64_t *o;
  size_t no;
  if (!kit_reshape_infer(c, rdata, ns, nn, op_bool(c, "allowzero"), &o, &no)) goto done;
  bool dynamic = false, exact = true; /* a count that overflows int64 equals no real count */
  int64_t osize = 1, isize = 1;
  for (size_t i = 0; i < no; i++) {
    if (o[i] == KIT_ANY)
      dynamic = true;
    else
      exact &= kit_mul_exact(osize, o[i], &osize);
  }
  for (uint32_t i = 0; i < data->ndims; i++) {
    if (data->dims[i] == KIT_ANY)
      dynamic = true;
    else
      exact &= kit_mul_exact(isize, data->dims[i], &isize);
  }
  if (!dynamic && (!exact || osize != isize)) {
    op_fail(c, 0, "contrib_reverse_reshape: Input tensor shape and reshaped shape are not compatible");
  } else {
    for (size_t i = 0; i < no / 2; i++) {
      int64_t t = o[i];
      o[i] = o[no - 1 - i];
      o[no - 1 - i] = t;
    }
    result = ty_tensor(c->types, data->dtype, o, no);
  }
  free(o);
done:
  free(ns);
  free(rev);
  return result;
}

/* contrib_reverse_reshape: an input of as many elements; newshape is the result's shape with, from
   the right, some dimensions the input shares at the same place spelled 0 and maybe one -1. */
static bool reverse_reshape_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t total = 1, in[4], ns[KIT_RANK_MAX];
  for (uint32_t i = 0; i < t->ndims; i++)
    total *= t->dims[i];
  size_t nin = (size_t)rng_range(g->rng, 1, 4), m = t->ndims;
  kit_factors(g, total, nin, in);
  bool zero = false;
  for (size_t j = 0; j < m; j++) {
    size_t p = m - 1 - j;
    ns[p] = t->dims[p];
    if (j < nin && in[nin - 1 - j] == t->dims[p] && rng_chance(g->rng, 1, 3)) {
      ns[p] = 0;
      zero = true;
    }
  }
  if (m && rng_chance(g->rng, 1, 2)) {
    size_t p = rng_index(g->rng, m);
    if (ns[p] != 0) ns[p] = -1;
  }
  kit_arg(out, kit_tensor(g, t->dtype, in, nin));
  opgen_set_ints(g, op, out, "newshape", ns, m);
  if (!zero && rng_chance(g->rng, 1, 4)) opgen_set_bool(g, op, out, "allowzero", true);
  out->result = t;
  return true;
}

static const OpDef contrib_reverse_reshape_ops[] = {
    KIT_OP("contrib_reverse_reshape", 1, kit_reshape_attrs, reverse_reshape_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_any, reverse_reshape_solve)),
};
OP_REGISTER(contrib_reverse_reshape_ops);

/* ------------------------------------------------------------------ einsum */

enum { EIN_MAX_OPERANDS = 32, EIN_MAX_LABELS = 64, EIN_ELLIPSIS = '\0' };

typedef struct EinSub {
  char label[EIN_MAX_LABELS]; /* letters; EIN_ELLIPSIS for "..." */
  size_t n;
} EinSub;

typedef struct EinEq {
  EinSub in[EIN_MAX_OPERANDS];
  size_t nin;
  EinSub out;
} EinEq;

static bool ein_push(OpCall *c, EinSub *s, char l) {
  if (s->n == EIN_MAX_LABELS) {
    op_fail(c, -1, "einsum: a subscript has more than %d labels", EIN_MAX_LABELS);
    return false;
  }
  s->label[s->n++] = l;
  return true;
}

/* EinsumEquation::FromString: inputs separated by ',', an optional "->" before the output (a ','
   after it starts yet another input, as TVM reads it), spaces ignored, "..." at most once per
   subscript.  Without an arrow the output is every label used once, then sorted, with the
   ellipsis first. */
static bool ein_parse(OpCall *c, const char *eq, EinEq *e) {
  memset(e, 0, sizeof *e);
  EinSub cur = {{0}, 0};
  bool arrow = false, ellipsis = false;
  size_t n = strlen(eq);
  for (size_t i = 0; i < n; i++) {
    char ch = eq[i];
    if (ch == ' ') continue;
    if (ch == '-' || ch == ',') {
      if (ch == '-') {
        if (arrow) return op_fail(c, -1, "einsum: Equation can only have one arrow") != NULL;
        if (!(i + 1 < n && eq[i + 1] == '>'))
          return op_fail(c, -1, "einsum: Cannot parse the Einsum equation: invalid arrow") != NULL;
        i++;
        arrow = true;
      }
      if (e->nin == EIN_MAX_OPERANDS)
        return op_fail(c, -1, "einsum: more than %d operands", EIN_MAX_OPERANDS) != NULL;
      e->in[e->nin++] = cur;
      cur.n = 0;
      ellipsis = false;
    } else if (ch == '.') {
      if (ellipsis)
        return op_fail(c, -1, "einsum: Ellipsis can only appear once for each input and output") != NULL;
      if (!(i + 2 < n && eq[i + 1] == '.' && eq[i + 2] == '.'))
        return op_fail(c, -1, "einsum: Cannot parse the Einsum equation: invalid ellipsis") != NULL;
      if (!ein_push(c, &cur, EIN_ELLIPSIS)) return false;
      ellipsis = true;
      i += 2;
    } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      if (!ein_push(c, &cur, ch)) return false;
    } else {
      return op_fail(c, -1, "einsum: Cannot parse the Einsum equation: invalid character %c in equation %s",
                     ch, eq) != NULL;
    }
  }
  if (arrow) {
    e->out = cur;
    return true;
  }
  if (e->nin == EIN_MAX_OPERANDS)
    return op_fail(c, -1, "einsum: more than %d operands", EIN_MAX_OPERANDS) != NULL;
  e->in[e->nin++] = cur;
  int counts[128] = {0};
  for (size_t k = 0; k < e->nin; k++)
    for (size_t i = 0; i < e->in[k].n; i++)
      counts[(unsigned char)e->in[k].label[i]]++;
  for (int l = 0; l < 128; l++)
    if (counts[l] && (l == EIN_ELLIPSIS || counts[l] == 1) && !ein_push(c, &e->out, (char)l)) return false;
  return true;
}

/* detail::BroadcastShape for the shapes the ellipses cover: right-aligned; equal or 1 as usual; a
   `?` against a constant gives the constant (and `?` against `?`, TVM's max(), gives `?`). */
static bool ein_broadcast(OpCall *c, const int64_t *a, size_t na, const int64_t *b, size_t nb, int64_t *out,
                          size_t *nout) {
  size_t n = na > nb ? na : nb;
  for (size_t i = 1; i <= n; i++) {
    int64_t x = i <= na ? a[na - i] : 1, y = i <= nb ? b[nb - i] : 1, r;
    if (i > na)
      r = y;
    else if (i > nb)
      r = x;
    else if (x == y && x != KIT_ANY)
      r = x;
    else if (x == 1)
      r = y;
    else if (y == 1)
      r = x;
    else if (x == KIT_ANY && y == KIT_ANY)
      r = KIT_ANY;
    else if (x == KIT_ANY)
      r = y;
    else if (y == KIT_ANY)
      r = x;
    else {
      char sa[256], sb[256];
      return op_fail(c, 0, "einsum: Incompatible broadcast dims: %lld and %lld in: %s and %s", (long long)x,
                     (long long)y, kit_dims_str(a, na, sa, sizeof sa),
                     kit_dims_str(b, nb, sb, sizeof sb)) != NULL;
    }
    out[n - i] = r;
  }
  *nout = n;
  return true;
}

/* EinsumRel: a tuple of tensors of one dtype; the shape from EinsumBuilder::InferShape. */
static const Type *einsum_rel(OpCall *c) {
  const Type *tup = c->args[0];
  if (tup->kind != TY_TUPLE) {
    char *s = ty_str(tup);
    op_fail(c, 0, "einsum requires a tuple of tensors as the first argument, found %s", s);
    free(s);
    return NULL;
  }
  if (tup->nargs == 0) return op_fail(c, 0, "einsum requires a non-empty tuple of tensors");
  for (uint32_t i = 0; i < tup->nargs; i++)
    if (tup->args[i]->kind != TY_TENSOR) {
      char *s = ty_str(tup->args[i]);
      op_fail(c, 0, "einsum requires a tuple of tensors, but field %u is %s", i, s);
      free(s);
      return NULL;
    }
  DType dt = tup->args[0]->dtype;
  for (uint32_t i = 1; i < tup->nargs; i++)
    if (!dtype_eq(tup->args[i]->dtype, dt))
      return op_fail(c, 0, "relay.einsum requires all tensors have the same dtype");
  if (!kit_required(c, "equation")) return NULL;
  EinEq *e = xmalloc(sizeof *e);
  const Type *result = NULL;
  int64_t ext[128], ell[KIT_RANK_MAX * 4], tmp[KIT_RANK_MAX * 4], out[EIN_MAX_LABELS * 2 + KIT_RANK_MAX * 4];
  bool have[128] = {0}, have_ell = false;
  size_t nell = 0, nout = 0;
  if (!ein_parse(c, op_str(c, "equation"), e)) goto done;
  if (e->nin != tup->nargs) {
    op_fail(c, 0, "einsum: Number of operands does not match the equation (%zu in the equation, %u given)",
            e->nin, tup->nargs);
    goto done;
  }
  /* The sub-shape each ellipsis covers, broadcast together; the widest one first. */
  size_t ell_op[EIN_MAX_OPERANDS], ell_at[EIN_MAX_OPERANDS], ell_n[EIN_MAX_OPERANDS], nells = 0;
  for (size_t k = 0; k < e->nin; k++) {
    const EinSub *s = &e->in[k];
    const Type *t = tup->args[k];
    size_t cur = 0;
    for (size_t i = 0; i < s->n; i++) {
      char l = s->label[i];
      if (l == EIN_ELLIPSIS) {
        long en = (long)t->ndims - (long)s->n + 1;
        if (en < 0) {
          op_fail(c, 0, "einsum: operand %zu has rank %u, fewer than the labels of its subscript", k,
                  t->ndims);
          goto done;
        }
        ell_op[nells] = k;
        ell_at[nells] = cur;
        ell_n[nells++] = (size_t)en;
        cur += (size_t)en;
        continue;
      }
      if (cur >= t->ndims) {
        op_fail(c, 0, "einsum: operand %zu has rank %u, fewer than the labels of its subscript", k, t->ndims);
        goto done;
      }
      int64_t x = t->dims[cur++];
      int li = (unsigned char)l;
      if (!have[li]) {
        have[li] = true;
        ext[li] = x;
      } else if (ext[li] == KIT_ANY || x == KIT_ANY) {
        ext[li] = KIT_ANY;
      } else if (ext[li] != x) {
        if (ext[li] != 1 && x != 1) {
          op_fail(c, 0, "einsum: Cannot broadcast extents %lld and %lld", (long long)ext[li], (long long)x);
          goto done;
        }
        ext[li] = ext[li] > x ? ext[li] : x;
      }
    }
    if (cur != t->ndims) {
      op_fail(c, 0,
              "einsum: Check failed: current_dim == input_shape.size() (operand %zu has rank %u, its "
              "subscript %zu labels)",
              k, t->ndims, cur);
      goto done;
    }
  }
  if (nells) {
    size_t widest = 0;
    for (size_t k = 1; k < nells; k++)
      if (ell_n[k] > ell_n[widest]) widest = k;
    if (ell_n[widest] > KIT_RANK_MAX * 2) {
      op_fail(c, 0, "einsum: an ellipsis covers too many dimensions");
      goto done;
    }
    nell = ell_n[widest];
    for (size_t i = 0; i < nell; i++)
      ell[i] = tup->args[ell_op[widest]]->dims[ell_at[widest] + i];
    for (size_t k = 0; k < nells; k++) {
      int64_t sub[KIT_RANK_MAX * 2]; /* ell_n[k] <= ell_n[widest], checked above */
      for (size_t i = 0; i < ell_n[k]; i++)
        sub[i] = tup->args[ell_op[k]]->dims[ell_at[k] + i];
      if (!ein_broadcast(c, ell, nell, sub, ell_n[k], tmp, &nell)) goto done;
      if (nell) memcpy(ell, tmp, nell * sizeof *ell);
    }
    have_ell = true;
  }
  for (size_t i = 0; i < e->out.n; i++) {
    char l = e->out.label[i];
    if (l == EIN_ELLIPSIS) {
      if (have_ell && nell) memcpy(out + nout, ell, nell * sizeof *out);
      nout += have_ell ? nell : 0;
      continue;
    }
    if (!have[(unsigned char)l]) {
      op_fail(c, -1, "einsum: the output label '%c' appears in no input", l);
      goto done;
    }
    out[nout++] = ext[(unsigned char)l];
  }
  result = ty_tensor(c->types, dt, out, nout);
done:
  free(e);
  return result;
}

/* einsum: the result's dimensions get distinct labels, up to two more labels are summed over, and
   one to three operands each take a random subset (every label used somewhere), in random order.
   The equation is explicit, or implicit when that reads the same. */
static bool einsum_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  char pool[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  size_t npool = sizeof pool - 1;
  for (size_t i = npool; i > 1; i--) {
    size_t j = rng_index(g->rng, i);
    char x = pool[i - 1];
    pool[i - 1] = pool[j];
    pool[j] = x;
  }
  size_t r = t->ndims, nc = (size_t)rng_range(g->rng, 0, 2), nl = r + nc,
         nops = (size_t)rng_range(g->rng, 1, 3);
  int64_t ext[KIT_RANK_MAX + 2];
  for (size_t i = 0; i < nl; i++)
    ext[i] = i < r ? t->dims[i] : rng_range(g->rng, 1, g->policy->max_dim);
  bool member[3][KIT_RANK_MAX + 2] = {{false}};
  for (size_t l = 0; l < nl; l++) {
    bool any = false;
    for (size_t k = 0; k < nops; k++)
      any |= member[k][l] = rng_chance(g->rng, 1, 2);
    if (!any) member[rng_index(g->rng, nops)][l] = true;
  }
  char eq[8 * (KIT_RANK_MAX + 4)];
  size_t len = 0;
  int counts[KIT_RANK_MAX + 2] = {0};
  const Type *fields[3];
  for (size_t k = 0; k < nops; k++) {
    size_t idx[KIT_RANK_MAX + 2], n = 0;
    for (size_t l = 0; l < nl; l++)
      if (member[k][l]) idx[n++] = l;
    for (size_t i = n; i > 1; i--) {
      size_t j = rng_index(g->rng, i), x = idx[i - 1];
      idx[i - 1] = idx[j];
      idx[j] = x;
    }
    int64_t dims[KIT_RANK_MAX + 2];
    if (k) eq[len++] = ',';
    for (size_t i = 0; i < n; i++) {
      eq[len++] = pool[idx[i]];
      dims[i] = ext[idx[i]];
      counts[idx[i]]++;
    }
    fields[k] = kit_tensor(g, t->dtype, dims, n);
  }
  /* The implicit output: the labels used once, sorted. */
  char implicit[KIT_RANK_MAX + 3], explicit_[KIT_RANK_MAX + 3];
  size_t ni = 0;
  for (int ch = 0; ch < 128; ch++)
    for (size_t l = 0; l < nl; l++)
      if (pool[l] == ch && counts[l] == 1) implicit[ni++] = (char)ch;
  for (size_t i = 0; i < r; i++)
    explicit_[i] = pool[i];
  if (!(ni == r && !memcmp(implicit, explicit_, r) && rng_chance(g->rng, 1, 2))) {
    eq[len++] = '-';
    eq[len++] = '>';
    memcpy(eq + len, explicit_, r);
    len += r;
  }
  eq[len] = '\0';
  kit_arg(out, ty_tuple(g->types, fields, nops));
  opgen_set_str(g, op, out, "equation", eq);
  out->result = t;
  return true;
}

static const OpAttrSpec einsum_attrs[] = {{"equation", AT_STR, "None"}};

static const OpDef einsum_ops[] = {
    KIT_OP("einsum", 1, einsum_attrs, einsum_rel, KIT_SOLVED(OPDT_NUMERIC, kit_static_any, einsum_solve)),
};
OP_REGISTER(einsum_ops);

/* ------------------------------------------------------------------ invert_permutation (IdentityRel) */

/* invert_permutation: a permutation vector of int32 or int64. */
static bool invert_permutation_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 1, 1) &&
         (dtype_eq(t->dtype, dt_int32) || dtype_eq(t->dtype, dt_int64));
}

static bool invert_permutation_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, t);
  out->result = t;
  return true;
}

static bool invert_permutation_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return invert_permutation_solve(g, op, opgen_tensor(g, kit_index_dtype(g), 1, 1), out);
}

static const OpDef invert_permutation_ops[] = {
    KIT_OP_NOATTRS(
        "invert_permutation", 1, kit_identity_rel,
        KIT_GEN(OPDT_INT, invert_permutation_recognize, invert_permutation_solve, invert_permutation_sample)),
};
OP_REGISTER(invert_permutation_ops);

/* ------------------------------------------------------------------ matrix_set_diag */

/* MatrixSetDiagRel: the input's type.  k1 <= k2 is checked; the shape assertions are not (TVM
   ignores their results), but the dimensions they read must exist. */
static const Type *matrix_set_diag_rel(OpCall *c) {
  const Type *in = op_tensor_arg(c, 0), *diag = in ? op_tensor_arg(c, 1) : NULL;
  int64_t k1, k2;
  if (!diag || !kit_int_attr(c, "k1", &k1) || !kit_int_attr(c, "k2", &k2)) return NULL;
  if (k2 < k1)
    return op_fail(c, -1, "matrix_set_diag: Check failed: param->k2 >= param->k1 (%lld vs. %lld)",
                   (long long)k2, (long long)k1);
  long ni = in->ndims, nd = diag->ndims;
  if (ni < 2) return op_fail(c, 0, "matrix_set_diag: the input must have at least 2 dimensions, got %ld", ni);
  if (nd < 1 || (k1 != k2 && nd < 2))
    return op_fail(c, 1, "matrix_set_diag: the diagonal must have at least %d dimension%s, got %ld",
                   k1 != k2 ? 2 : 1, k1 != k2 ? "s" : "", nd);
  if (nd - 2 > ni || (k1 == k2 && nd >= 2 && nd - 2 >= ni))
    return op_fail(c, 1, "matrix_set_diag: the diagonal has rank %ld, too large for an input of rank %ld", nd,
                   ni);
  return in;
}

/* The length of the longest diagonal in k1..k2 of an m x n matrix (offset k holds
   min(m + min(k, 0), n - max(k, 0)) elements, most at the offset nearest 0). */
static int64_t diag_len(int64_t m, int64_t n, int64_t k1, int64_t k2) {
  int64_t k = k1 > 0 ? k1 : k2 < 0 ? k2 : 0;
  int64_t a = m + (k < 0 ? k : 0), b = n - (k > 0 ? k : 0);
  return a < b ? a : b;
}

/* matrix_set_diag: a band k1..k2 of diagonals that exist, and a diagonal tensor of the shape the
   compute reads: the batch dimensions, the band's width when k1 < k2, the longest diagonal. */
static bool matrix_set_diag_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  size_t nd = t->ndims;
  int64_t m = t->dims[nd - 2], n = t->dims[nd - 1];
  int64_t k1 = rng_range(g->rng, -(m - 1 < 3 ? m - 1 : 3), n - 1 < 3 ? n - 1 : 3), k2 = k1;
  if (rng_chance(g->rng, 1, 2)) k2 = rng_range(g->rng, k1, n - 1 < k1 + 3 ? n - 1 : k1 + 3);
  int64_t dims[KIT_RANK_MAX + 1];
  size_t nd2 = 0;
  for (size_t i = 0; i + 2 < nd; i++)
    dims[nd2++] = t->dims[i];
  if (k1 != k2) dims[nd2++] = k2 - k1 + 1;
  dims[nd2++] = diag_len(m, n, k1, k2);
  kit_arg(out, t);
  kit_arg(out, kit_tensor(g, t->dtype, dims, nd2));
  opgen_set_int(g, op, out, "k1", k1);
  opgen_set_int(g, op, out, "k2", k2);
  opgen_set_bool(g, op, out, "super_diag_right_align", rng_chance(g->rng, 1, 2));
  opgen_set_bool(g, op, out, "sub_diag_right_align", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static const OpAttrSpec matrix_set_diag_attrs[] = {{"k1", AT_INT, "0"},
                                                   {"k2", AT_INT, "0"},
                                                   {"super_diag_right_align", AT_BOOL, "True"},
                                                   {"sub_diag_right_align", AT_BOOL, "False"}};

static const OpDef matrix_set_diag_ops[] = {
    KIT_OP("matrix_set_diag", 2, matrix_set_diag_attrs, matrix_set_diag_rel,
           KIT_SOLVED(OPDT_NUMERIC, kit_static_matrix, matrix_set_diag_solve)),
};
OP_REGISTER(matrix_set_diag_ops);

/* ------------------------------------------------------------------ meshgrid */

/* MeshgridRel: scalars and vectors of one dtype; every output has one dimension per input (a
   scalar's is 1), the first two swapped for "xy". */
static const Type *meshgrid_rel(OpCall *c) {
  const Type *tup = c->args[0];
  if (tup->kind != TY_TUPLE) {
    char *s = ty_str(tup);
    op_fail(c, 0, "meshgrid requires a tuple of tensors as the first argument, found %s", s);
    free(s);
    return NULL;
  }
  size_t n = tup->nargs;
  if (n == 0) return op_fail(c, 0, "meshgrid requires a non-empty tuple of tensors");
  for (size_t i = 0; i < n; i++)
    if (tup->args[i]->kind != TY_TENSOR) {
      char *s = ty_str(tup->args[i]);
      op_fail(c, 0, "meshgrid requires a tuple of tensors, but field %zu is %s", i, s);
      free(s);
      return NULL;
    }
  DType dt = tup->args[0]->dtype;
  int64_t *grid = xmalloc(n * sizeof *grid);
  const Type **fields = xmalloc(n * sizeof *fields), *result = NULL;
  for (size_t i = 0; i < n; i++) {
    const Type *e = tup->args[i];
    if (!dtype_eq(e->dtype, dt)) {
      op_fail(c, 0, "relay.meshgrid requires all tensors have the same dtype");
      goto done;
    }
    if (e->ndims > 1) {
      op_fail(c, 0, "relay.meshgrid requires all tensors be either scalars or 1-D vectors.");
      goto done;
    }
    grid[i] = e->ndims ? e->dims[0] : 1;
  }
  if (!strcmp(op_str(c, "indexing"), "xy") && n >= 2) {
    int64_t t = grid[0];
    grid[0] = grid[1];
    grid[1] = t;
  }
  const Type *g = ty_tensor(c->types, dt, grid, n);
  for (size_t i = 0; i < n; i++)
    fields[i] = g;
  result = ty_tuple(c->types, fields, n);
done:
  free(grid);
  free(fields);
  return result;
}

/* meshgrid: n grids of one type with n dimensions; input i is a vector of grid dimension i (the
   first two swapped for "xy"), or a scalar where that is 1. */
static bool meshgrid_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || t->nargs == 0 || t->nargs > 4) return false;
  for (uint32_t i = 1; i < t->nargs; i++)
    if (t->args[i] != t->args[0]) return false;
  return kit_gen_ok(t->args[0], (OpDtypes)op->gen_dtypes, t->nargs, t->nargs);
}

static bool meshgrid_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  size_t n = t->nargs;
  const Type *grid = t->args[0], *in[4];
  bool xy = n >= 2 && rng_chance(g->rng, 1, 2);
  for (size_t i = 0; i < n; i++) {
    int64_t d = grid->dims[xy && i < 2 ? 1 - i : i];
    in[i] = kit_tensor(g, grid->dtype, &d, d == 1 && rng_chance(g->rng, 1, 2) ? 0 : 1);
  }
  kit_arg(out, ty_tuple(g->types, in, n));
  if (xy || rng_chance(g->rng, 1, 4)) opgen_set_str(g, op, out, "indexing", xy ? "xy" : "ij");
  out->result = t;
  return true;
}

static bool meshgrid_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  size_t n = (size_t)rng_range(g->rng, 1, 3);
  const Type *grid = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), (unsigned)n, (unsigned)n);
  if (grid->ndims != n) return false;
  const Type *fields[3] = {grid, grid, grid};
  return meshgrid_solve(g, op, ty_tuple(g->types, fields, n), out);
}

static const OpAttrSpec meshgrid_attrs[] = {{"indexing", AT_STR, "\"ij\""}};

static const OpDef meshgrid_ops[] = {
    KIT_OP("meshgrid", 1, meshgrid_attrs, meshgrid_rel,
           KIT_GEN(OPDT_ANY, meshgrid_recognize, meshgrid_solve, meshgrid_sample)),
};
OP_REGISTER(meshgrid_ops);

/* ------------------------------------------------------------------ reverse_sequence */

/* ReverseSequenceRel: data's type; seq_lengths is a vector of integers as long as the batch axis. */
static const Type *reverse_sequence_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *len = data ? op_tensor_arg(c, 1) : NULL;
  if (!len) return NULL;
  if (len->ndims != 1) return op_fail(c, 1, "For reverse_sequnece, seq_lengths must be a 1D vector");
  if (len->dtype.code != DT_INT)
    return op_fail(c, 1, "For reverse_sequnece, seq_lengths must be tensor of integer");
  int64_t nd = data->ndims, batch, seq;
  if (!kit_int_attr(c, "batch_axis", &batch) || !kit_int_attr(c, "seq_axis", &seq)) return NULL;
  if (batch < -nd || batch >= nd)
    return op_fail(
        c, -1,
        "reverse_sequence only accepts `batch_axis` in [-data.ndim, data.ndim - 1], but got batch_axis = "
        "%lld, and data.ndim = %lld",
        (long long)batch, (long long)nd);
  if (batch < 0) batch += nd;
  if (!kit_dim_match(len->dims[0], data->dims[batch]))
    return op_fail(c, 1,
                   "For reverse_sequnece seq_lengths size should match with dimension of batch axis, but got "
                   "dimension of batch_axis = %lld, and seq_length size = %lld",
                   (long long)data->dims[batch], (long long)len->dims[0]);
  if (seq < -nd || seq >= nd)
    return op_fail(
        c, -1,
        "reverse_sequnece only accepts `seq_axis` in [-data.ndim, data.ndim - 1], but got seq_axis = %lld, "
        "and data.ndim = %lld",
        (long long)seq, (long long)nd);
  return data;
}

/* reverse_sequence: two different axes; seq_lengths as long as the batch axis. */
static bool reverse_sequence_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t nd = t->ndims, batch = rng_range(g->rng, 0, nd - 1), seq = rng_range(g->rng, 0, nd - 2);
  if (seq >= batch) seq++;
  kit_arg(out, t);
  kit_arg(out, kit_vec(g, kit_index_dtype(g), t->dims[batch]));
  opgen_set_int(g, op, out, "batch_axis", batch);
  opgen_set_int(g, op, out, "seq_axis", seq);
  out->result = t;
  return true;
}

static const OpAttrSpec reverse_sequence_attrs[] = {{"seq_axis", AT_INT, "1"}, {"batch_axis", AT_INT, "0"}};

static const OpDef reverse_sequence_ops[] = {
    KIT_OP("reverse_sequence", 2, reverse_sequence_attrs, reverse_sequence_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_matrix, reverse_sequence_solve)),
};
OP_REGISTER(reverse_sequence_ops);

/* ------------------------------------------------------------------ sequence_mask */

/* SequenceMaskRel: data's type; valid_length is a vector as long as the other of the first two
   axes (axis is 0 or 1), of any dtype. */
static const Type *sequence_mask_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *len = data ? op_tensor_arg(c, 1) : NULL;
  int64_t axis;
  if (!len || !kit_int_attr(c, "axis", &axis)) return NULL;
  if (axis != 0 && axis != 1)
    return op_fail(c, -1, "sequence_mask: Check failed: param->axis == 0 || param->axis == 1");
  if ((int64_t)data->ndims <= 1 - axis)
    return op_fail(c, 0, "sequence_mask: the data must have at least %lld dimensions, got %u",
                   (long long)(2 - axis), data->ndims);
  return kit_assign_as(c, 1, len->dtype, &data->dims[1 - axis], 1, KIT_ASSIGN_BRIEF) ? data : NULL;
}

/* sequence_mask: axis 0 or 1; valid_length as long as the other one. */
static bool sequence_mask_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t axis = rng_range(g->rng, 0, 1);
  static const double masks[] = {0.0, -1.0, 0.5, -10000.0};
  kit_arg(out, t);
  kit_arg(out, kit_vec(g, kit_index_dtype(g), t->dims[1 - axis]));
  opgen_set_int(g, op, out, "axis", axis);
  opgen_set_float(g, op, out, "mask_value", masks[rng_index(g->rng, 4)]);
  out->result = t;
  return true;
}

static const OpAttrSpec sequence_mask_attrs[] = {{"mask_value", AT_FLOAT, "0f"}, {"axis", AT_INT, "0"}};

static const OpDef sequence_mask_ops[] = {
    /* the mask value is a float */
    KIT_OP("sequence_mask", 2, sequence_mask_attrs, sequence_mask_rel,
           KIT_SOLVED(OPDT_FLOAT, kit_static_matrix, sequence_mask_solve)),
};
OP_REGISTER(sequence_mask_ops);

/* ------------------------------------------------------------------ sliding_window */

/* SlidingWindowRel: the dimensions before axis, then per window dimension the number of window
   positions floordiv(len - (window - 1) + stride - 1, stride), then the window's shape. */
static const Type *sliding_window_rel(OpCall *c) {
  const Type *data = c->args[0];
  if (data->kind != TY_TENSOR) {
    char *s = ty_str(data);
    op_fail(c, 0, "SlidingWindow operator expects input to be of TensorType but got %s", s);
    free(s);
    return NULL;
  }
  int64_t axis, win[KIT_RANK_MAX], str[KIT_RANK_MAX], dims[2 * KIT_RANK_MAX];
  if (!kit_required(c, "axis") || !kit_int_attr(c, "axis", &axis)) return NULL;
  long nw = kit_ints(c, "window_shape", win, KIT_RANK_MAX),
       ns = nw < 0 ? -1 : kit_ints(c, "strides", str, KIT_RANK_MAX);
  if (ns < 0) return NULL;
  if (axis < 0 || axis > (int64_t)data->ndims - nw) /* axis + nw could overflow */
    return op_fail(c, -1, "sliding_window: axis %lld with %ld window dimensions does not fit data of rank %u",
                   (long long)axis, nw, data->ndims);
  if (ns < nw) return op_fail(c, -1, "sliding_window: %ld strides for %ld window dimensions", ns, nw);
  size_t n = 0;
  for (int64_t i = 0; i < axis; i++)
    dims[n++] = data->dims[i];
  for (long i = 0; i < nw; i++) {
    int64_t len = data->dims[axis + i];
    if (len == KIT_ANY) {
      dims[n++] = KIT_ANY;
      continue;
    }
    if (str[i] == 0) return op_fail(c, -1, "sliding_window: Divide by zero (stride %ld is 0)", i);
    if (!kit_fit(c, kit_wide_floordiv((KitWide)len - ((KitWide)win[i] - 1) + str[i] - 1, str[i]), &dims[n++]) ||
        !kit_dim_ok(c, dims[n - 1]))
      return NULL;
  }
  if (!kit_nonneg(c, win, (size_t)nw)) return NULL;
  for (long i = 0; i < nw; i++)
    dims[n++] = win[i];
  return ty_tensor(c->types, data->dtype, dims, n);
}

/* sliding_window: the last k dimensions are the window, the k before them its positions; strides
   of 1 to 3 and input lengths that give those positions. */
static bool sliding_window_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t nd = t->ndims, k = rng_range(g->rng, 1, nd / 2), axis = nd - 2 * k;
  int64_t win[KIT_RANK_MAX], str[KIT_RANK_MAX], dims[KIT_RANK_MAX];
  for (int64_t i = 0; i < axis; i++)
    dims[i] = t->dims[i];
  for (int64_t i = 0; i < k; i++) {
    int64_t o = t->dims[axis + i];
    win[i] = t->dims[axis + k + i];
    str[i] = rng_range(g->rng, 1, 3);
    dims[axis + i] = win[i] + (o - 1) * str[i] + rng_range(g->rng, 0, str[i] - 1);
  }
  kit_arg(out, kit_tensor(g, t->dtype, dims, (size_t)(axis + k)));
  opgen_set_int(g, op, out, "axis", axis);
  opgen_set_ints(g, op, out, "window_shape", win, (size_t)k);
  opgen_set_ints(g, op, out, "strides", str, (size_t)k);
  out->result = t;
  return true;
}

static const OpAttrSpec sliding_window_attrs[] = {
    {"axis", AT_INT, "None"}, {"window_shape", AT_INTS, "None"}, {"strides", AT_INTS, "None"}};

static const OpDef sliding_window_ops[] = {
    KIT_OP("sliding_window", 1, sliding_window_attrs, sliding_window_rel,
           KIT_SOLVED(OPDT_ANY, kit_static_matrix, sliding_window_solve)),
};
OP_REGISTER(sliding_window_ops);

/* ------------------------------------------------------------------ strided_set */

/* StridedSetRel: the type of the first argument, whatever it is (nothing else is checked). */
static const Type *strided_set_rel(OpCall *c) { return c->args[0]; }

/* strided_set: a value tensor no larger than the data, and begin/end/strides vectors of its rank. */
static bool strided_set_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t dims[KIT_RANK_MAX];
  for (uint32_t i = 0; i < t->ndims; i++)
    dims[i] = rng_range(g->rng, 1, t->dims[i]);
  DType idx = kit_index_dtype(g);
  kit_arg(out, t);
  kit_arg(out, kit_tensor(g, t->dtype, dims, t->ndims));
  for (int i = 0; i < 3; i++)
    kit_arg(out, kit_vec(g, idx, t->ndims));
  out->result = t;
  return true;
}

static const OpDef strided_set_ops[] = {
    KIT_OP_NOATTRS("strided_set", 5, strided_set_rel,
                   KIT_SOLVED(OPDT_ANY, kit_static_ranked, strided_set_solve)),
};
OP_REGISTER(strided_set_ops);

/* ------------------------------------------------------------------ trilu */

/* TriluRel: data's type; k is a 0-D tensor. */
static const Type *trilu_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *k = data ? op_tensor_arg(c, 1) : NULL;
  if (!k) return NULL;
  if (k->ndims != 0) {
    char *s = ty_str(k);
    op_fail(c, 1, "Trilu: k must be a 0-D tensor but get %s", s);
    free(s);
    return NULL;
  }
  return data;
}

/* trilu: a matrix (or a batch of them) and a scalar k. */
static bool trilu_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, t);
  kit_arg(out, ty_scalar(g->types, kit_index_dtype(g)));
  opgen_set_bool(g, op, out, "upper", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static const OpAttrSpec trilu_attrs[] = {{"upper", AT_BOOL, "True"}};

static const OpDef trilu_ops[] = {
    KIT_OP("trilu", 2, trilu_attrs, trilu_rel, KIT_SOLVED(OPDT_NUMERIC, kit_static_matrix, trilu_solve)),
};
OP_REGISTER(trilu_ops);
