/* tir::Layout, BijectiveLayout's shape conversion, and the relations' checks against a canonical
   layout (see kit.h). */
#include "kit.h"

#include <stdio.h>
#include <string.h>

static int bad(OpCall *c, const char *attr, const char *s, const char *why) {
  op_fail(c, -1, "%s: invalid layout \"%s\" for %s: %s", c->op->name, s, attr, why);
  return -1;
}

int kit_layout_attr(OpCall *c, const char *attr, const char *s, KitLayout *l) {
  memset(l, 0, sizeof *l);
  if (!*s || !strcmp(s, "__undef__")) return 0;
  if (strlen(s) >= sizeof l->name) return bad(c, attr, s, "too long");
  strcpy(l->name, s);
  char why[96];
  int64_t f = 0;
  for (const char *p = s; *p; p++) {
    if (*p >= '0' && *p <= '9') {
      f = f * 10 + (*p - '0');
      if (f > INT32_MAX) return bad(c, attr, s, "factor too large");
      continue;
    }
    bool upper = *p >= 'A' && *p <= 'Z', lower = *p >= 'a' && *p <= 'z';
    if (!upper && !lower) return bad(c, attr, s, "axes are letters, optionally preceded by a factor");
    if (upper && f) {
      snprintf(why, sizeof why, "invalid factor size %lld before dimension %c", (long long)f, *p);
      return bad(c, attr, s, why);
    }
    if (lower && !f) {
      snprintf(why, sizeof why, "invalid factor size 0 for dimension %c", *p);
      return bad(c, attr, s, why);
    }
    if (l->ndim == KIT_LAYOUT_MAX) return bad(c, attr, s, "too many axes");
    l->axis[l->ndim] = *p;
    l->factor[l->ndim++] = lower ? f : 0;
    f = 0;
  }
  for (size_t i = 0; i < l->ndim; i++)
    if (l->factor[i] && kit_layout_index(l, (char)(l->axis[i] - 'a' + 'A')) < 0) {
      snprintf(why, sizeof why, "missing axis %c", l->axis[i] - 'a' + 'A');
      return bad(c, attr, s, why);
    }
  return 1;
}

bool kit_layout_parse(OpCall *c, const char *attr, const char *s, KitLayout *l) {
  int r = kit_layout_attr(c, attr, s, l);
  if (r == 0) bad(c, attr, s, "an empty (undefined) layout cannot be converted");
  if (r <= 0) return false;
  for (size_t i = 0; i < l->ndim; i++)
    if (kit_layout_index(l, l->axis[i]) != (int)i) {
      char why[64];
      snprintf(why, sizeof why, "axis %c appears twice", l->axis[i]);
      return bad(c, attr, s, why) > 0;
    }
  return true;
}

int kit_layout_index(const KitLayout *l, char axis) {
  for (size_t i = 0; i < l->ndim; i++)
    if (l->axis[i] == axis) return (int)i;
  return -1;
}

int64_t kit_layout_factor(const KitLayout *l, char primal) {
  int64_t f = 1;
  bool has = false;
  for (size_t i = 0; i < l->ndim; i++)
    if (l->factor[i] && l->axis[i] == primal - 'A' + 'a') {
      has = true;
      f *= l->factor[i];
    }
  return has ? f : -1;
}

bool kit_layout_convertible(const KitLayout *a, const KitLayout *b) {
  size_t na = 0, nb = 0;
  for (size_t i = 0; i < a->ndim; i++)
    if (!a->factor[i]) {
      na++;
      if (kit_layout_index(b, a->axis[i]) < 0) return false;
    }
  for (size_t i = 0; i < b->ndim; i++)
    nb += !b->factor[i];
  return na == nb;
}

bool kit_layout_convert(OpCall *c, int arg, const KitLayout *src, const int64_t *shape, size_t n,
                        const KitLayout *dst, int64_t *out) {
  if (n != src->ndim) {
    if (arg >= 0)
      op_fail(c, arg,
              "%s: argument %d has rank %zu, but its layout %s has %zu dimensions (TVM: Input shape size %zu "
              "mismatch "
              "with the expected shape size %zu)",
              c->op->name, arg + 1, n, src->name, src->ndim, n, src->ndim);
    else
      op_fail(c, -1, "%s: Input shape size %zu mismatch with the expected shape size %zu (layout %s)",
              c->op->name, n, src->ndim, src->name);
    return false;
  }
  for (size_t i = 0; i < n; i++)
    if (src->factor[i] && shape[i] != TY_DIM_ANY && shape[i] != src->factor[i]) {
      op_fail(c, arg, "%s: Input shape mismatch at index %zu. Expected %lld, get %lld (layout %s)",
              c->op->name, i, (long long)src->factor[i], (long long)shape[i], src->name);
      return false;
    }
  for (size_t j = 0; j < dst->ndim; j++) {
    if (dst->factor[j]) {
      out[j] = dst->factor[j];
      continue;
    }
    char primal = dst->axis[j], sub = (char)(primal - 'A' + 'a');
    int64_t v = shape[kit_layout_index(src, primal)];
    int si = kit_layout_index(src, sub), di = kit_layout_index(dst, sub);
    if (v != TY_DIM_ANY) {
      if (si >= 0 && __builtin_mul_overflow(v, src->factor[si], &v)) {
        op_fail(c, arg, "%s: axis %c's extent overflows int64 (layout %s)", c->op->name, primal, src->name);
        return false;
      }
      if (di >= 0) v = kit_floordiv(v, dst->factor[di]);
    }
    out[j] = v;
  }
  return true;
}

bool kit_layout_to_canon(OpCall *c, const char *attr, const char *s, const KitLayout *canon, KitLayout *l,
                         const char *fmt) {
  if (!kit_layout_parse(c, attr, s, l)) return false;
  if (kit_layout_convertible(l, canon)) return true;
  char msg[256];
  snprintf(msg, sizeof msg, fmt, canon->name, s);
  op_fail(c, -1, "%s: %s", c->op->name, msg);
  return false;
}

bool kit_layout_to(OpCall *c, const char *attr, const char *canon, const char *fmt, KitLayout *l,
                   KitLayout *cl) {
  kit_layout_parse(c, "", canon, cl);
  if (!kit_layout_parse(c, attr, op_str(c, attr), l)) return false;
  if (kit_layout_convertible(l, cl)) return true;
  if (!fmt) {
    op_fail(c, -1, "%s: Cannot operate on an undefined bijective layout (%s to %s)", c->op->name, l->name,
            canon);
    return false;
  }
  char msg[256];
  snprintf(msg, sizeof msg, fmt, l->name);
  op_fail(c, -1, "%s: %s", c->op->name, msg);
  return false;
}

bool kit_pad_totals(OpCall *c, size_t nd, int64_t *pad) {
  int64_t p[6];
  long n = kit_const_ints(c, "padding", p, 6);
  if (n < 0) return false;
  bool overflow = false;
  if (n == 1) {
    for (size_t i = 0; i < nd; i++)
      overflow |= __builtin_add_overflow(p[0], p[0], &pad[i]);
  } else if ((size_t)n == nd) {
    for (size_t i = 0; i < nd; i++)
      overflow |= __builtin_add_overflow(p[i], p[i], &pad[i]);
  } else if ((size_t)n == 2 * nd) {
    for (size_t i = 0; i < nd; i++)
      overflow |= __builtin_add_overflow(p[i], p[i + nd], &pad[i]);
  } else {
    static const char *const counts[] = {"", "1 or 2", "1, 2 or 4", "1, 3 or 6"};
    op_fail(c, -1, "%s: Padding size should be %s, but got %ld", c->op->name, counts[nd], n);
    return false;
  }
  if (overflow) {
    op_fail(c, -1, "%s: the total padding overflows int64", c->op->name);
    return false;
  }
  return true;
}
