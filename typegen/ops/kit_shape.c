/* TVM's InferNewShape, which reshape (ops/transform.c) and contrib_reverse_reshape
   (ops/transform_extra.c) both type with (see kit.h). */
#include "../../support/xalloc.h"
#include "kit.h"

#include <stdlib.h>

typedef VEC(int64_t) ShapeVec;

static void dims_push(ShapeVec *d, int64_t v) { VEC_PUSH(*d, v); }

static bool in_list(const size_t *xs, size_t n, size_t x) {
  for (size_t i = 0; i < n; i++)
    if (xs[i] == x) return true;
  return false;
}

/* InferNewShape (src/relay/op/tensor/transform.cc), forward direction: newshape with its special
   codes 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one into the next
   two), and allowzero (0 is a real zero).  Writes the shape into *o; false after op_fail. */
static bool infer_new_shape(OpCall *c, const Type *data, const int64_t *ns, size_t nn, bool allowzero,
                            ShapeVec *o) {
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
      int64_t merged;
      if (!kit_dim_mul(c, d1, d2, &merged)) goto done;
      dims_push(o, merged);
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
      if (other == -1 && known == 0 && d0 != KIT_ANY) {
        op_fail(c, -1, "reshape: division by zero splitting dimension %lld with -4", (long long)d0);
        goto done;
      }
      int64_t rest = d0 == KIT_ANY ? KIT_ANY : (known ? d0 / known : 0);
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
      if (in[j] == KIT_ANY) {
        dim = KIT_ANY;
        break;
      }
      if (!kit_fit(c, (KitWide)dim * in[j], &dim)) goto done;
    }
    if (dim != KIT_ANY)
      for (size_t j = 0; j < o->len; j++) {
        if (in_list(used_out.items, used_out.len, j)) continue;
        if (o->items[j] == KIT_ANY) {
          dim = KIT_ANY;
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

bool kit_reshape_infer(OpCall *c, const Type *data, const int64_t *ns, size_t nn, bool allowzero,
                       int64_t **out, size_t *nout) {
  ShapeVec o = {0};
  bool ok = infer_new_shape(c, data, ns, nn, allowzero, &o);
  if (!ok) free(o.items);
  *out = ok ? o.items : NULL;
  *nout = ok ? o.len : 0;
  return ok;
}
