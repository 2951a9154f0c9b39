/* Types: dtypes, hash-consed construction, TVM's printed spelling. */
#include "types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/arena.h"
#include "../../support/xalloc.h"

const DType dt_bool = {DT_UINT, 1, 1}, dt_int32 = {DT_INT, 32, 1}, dt_int64 = {DT_INT, 64, 1},
            dt_float32 = {DT_FLOAT, 32, 1}, dt_void = {DT_VOID, 0, 0};

/* ------------------------------------------------------------------ dtypes */

bool dtype_parse(const char *s, DType *out) {
  if (!*s) {
    *out = dt_void;
    return true;
  }
  if (!strcmp(s, "bool")) {
    *out = dt_bool;
    return true;
  }
  static const struct {
    const char *prefix;
    DTypeCode code;
  } prefixes[] = {{"bfloat", DT_BFLOAT}, {"float", DT_FLOAT}, {"uint", DT_UINT}, {"int", DT_INT}};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    size_t n = strlen(prefixes[i].prefix);
    if (strncmp(s, prefixes[i].prefix, n) != 0) continue;
    const char *p = s + n;
    long bits = 32, lanes = 1;
    if (*p >= '0' && *p <= '9') bits = strtol(p, (char **)&p, 10);
    else if (prefixes[i].code == DT_BFLOAT) return false;
    if (*p == 'x') {
      p++;
      if (*p < '0' || *p > '9') return false;
      lanes = strtol(p, (char **)&p, 10);
    }
    if (*p || bits <= 0 || bits > 64 || lanes <= 0 || lanes > 65535) return false;
    *out = (DType){(uint8_t)prefixes[i].code, (uint8_t)bits, (uint16_t)lanes};
    return true;
  }
  return false;
}

const char *dtype_str(DType d, char *buf) {
  static const char *const names[] = {[DT_INT] = "int", [DT_UINT] = "uint", [DT_FLOAT] = "float", [DT_BFLOAT] = "bfloat"};
  if (d.code == DT_VOID) buf[0] = '\0';
  else if (dtype_is_bool(d)) strcpy(buf, "bool");
  else if (d.lanes > 1) sprintf(buf, "%s%ux%u", names[d.code], d.bits, d.lanes);
  else sprintf(buf, "%s%u", names[d.code], d.bits);
  return buf;
}

bool dtype_eq(DType a, DType b) { return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes; }
bool dtype_is_float(DType d) { return d.code == DT_FLOAT || d.code == DT_BFLOAT; }
bool dtype_is_bool(DType d) { return d.code == DT_UINT && d.bits == 1 && d.lanes == 1; }
bool dtype_is_int(DType d) { return (d.code == DT_INT || d.code == DT_UINT) && !dtype_is_bool(d); }

/* ------------------------------------------------------------------ the table */

struct TyTable {
  Arena arena;
  const Type **slots; /* open addressing; NULL = empty */
  size_t cap, len;
  uint32_t next_incomplete;
};

TyTable *ty_table_new(void) {
  TyTable *t = xcalloc(1, sizeof *t);
  arena_init(&t->arena);
  t->cap = 1024;
  t->slots = xcalloc(t->cap, sizeof *t->slots);
  return t;
}

void ty_table_free(TyTable *t) {
  if (!t) return;
  arena_free(&t->arena);
  free(t->slots);
  free(t);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

static uint64_t hash_str(uint64_t h, const char *s) {
  for (; s && *s; s++) h = mix(h, (unsigned char)*s);
  return h;
}

static uint64_t hash_of(const Type *ty) {
  uint64_t h = mix(ty->kind + 1, ((uint64_t)ty->dtype.code << 32) | ((uint64_t)ty->dtype.bits << 16) | ty->dtype.lanes);
  h = mix(h, ty->ndims);
  h = mix(h, ty->id); /* every incomplete type is distinct: unhashed, they all probe one cluster */
  for (uint32_t i = 0; i < ty->ndims; i++) h = mix(h, (uint64_t)ty->dims[i]);
  h = mix(h, ty->nargs);
  for (uint32_t i = 0; i < ty->nargs; i++) h = mix(h, (uint64_t)(uintptr_t)ty->args[i]);
  h = mix(h, (uint64_t)(uintptr_t)ty->ret);
  for (uint32_t i = 0; i < ty->ntparams; i++) h = mix(h, (uint64_t)(uintptr_t)ty->tparams[i]);
  return hash_str(h, ty->name);
}

/* Structural equality of a candidate with an interned type: children are already interned. */
static bool same(const Type *a, const Type *b) {
  if (a->kind != b->kind || !dtype_eq(a->dtype, b->dtype) || a->ndims != b->ndims || a->nargs != b->nargs ||
      a->ret != b->ret || a->ntparams != b->ntparams || a->id != b->id)
    return false;
  if (a->ndims && memcmp(a->dims, b->dims, a->ndims * sizeof *a->dims)) return false;
  for (uint32_t i = 0; i < a->nargs; i++)
    if (a->args[i] != b->args[i]) return false;
  for (uint32_t i = 0; i < a->ntparams; i++)
    if (a->tparams[i] != b->tparams[i]) return false;
  if ((a->name == NULL) != (b->name == NULL)) return false;
  return !a->name || !strcmp(a->name, b->name);
}

static void grow(TyTable *t) {
  size_t cap = t->cap * 2;
  const Type **slots = xcalloc(cap, sizeof *slots);
  for (size_t i = 0; i < t->cap; i++) {
    const Type *ty = t->slots[i];
    if (!ty) continue;
    size_t j = ty->hash & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = ty;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
}

/* Returns the interned twin of `cand` (a stack value whose arrays may be temporary), copying it
   into the arena the first time. */
static const Type *intern(TyTable *t, Type cand) {
  cand.hash = hash_of(&cand);
  size_t i = cand.hash & (t->cap - 1);
  for (; t->slots[i]; i = (i + 1) & (t->cap - 1))
    if (t->slots[i]->hash == cand.hash && same(t->slots[i], &cand)) return t->slots[i];
  Type *ty = arena_alloc(&t->arena, sizeof *ty);
  *ty = cand;
  ty->incomplete = cand.kind == TY_INCOMPLETE;
  ty->has_vars = cand.kind == TY_VAR;
  for (uint32_t k = 0; k < cand.nargs; k++) {
    ty->incomplete |= cand.args[k]->incomplete;
    ty->has_vars |= cand.args[k]->has_vars;
  }
  if (cand.ret) ty->incomplete |= cand.ret->incomplete, ty->has_vars |= cand.ret->has_vars;
  if (cand.ndims) {
    int64_t *dims = arena_alloc(&t->arena, cand.ndims * sizeof *dims);
    memcpy(dims, cand.dims, cand.ndims * sizeof *dims);
    ty->dims = dims;
  }
  if (cand.nargs) {
    const Type **args = arena_alloc(&t->arena, cand.nargs * sizeof *args);
    memcpy(args, cand.args, cand.nargs * sizeof *args);
    ty->args = args;
  }
  if (cand.ntparams) {
    const Type **tp = arena_alloc(&t->arena, cand.ntparams * sizeof *tp);
    memcpy(tp, cand.tparams, cand.ntparams * sizeof *tp);
    ty->tparams = tp;
  }
  if (cand.name) ty->name = arena_strdup(&t->arena, cand.name);
  t->slots[i] = ty;
  if (++t->len * 2 > t->cap) grow(t);
  return ty;
}

const Type *ty_tensor(TyTable *t, DType dtype, const int64_t *dims, size_t ndims) {
  return intern(t, (Type){.kind = TY_TENSOR, .dtype = dtype, .ndims = (uint32_t)ndims, .dims = dims});
}

const Type *ty_scalar(TyTable *t, DType dtype) { return ty_tensor(t, dtype, NULL, 0); }

const Type *ty_tuple(TyTable *t, const Type *const *fields, size_t n) {
  return intern(t, (Type){.kind = TY_TUPLE, .nargs = (uint32_t)n, .args = fields});
}

const Type *ty_unit(TyTable *t) { return ty_tuple(t, NULL, 0); }

const Type *ty_func(TyTable *t, const Type *const *params, size_t n, const Type *ret, const Type *const *tparams,
                    size_t ntparams) {
  return intern(t, (Type){.kind = TY_FUNC, .nargs = (uint32_t)n, .args = params, .ret = ret,
                          .ntparams = (uint32_t)ntparams, .tparams = tparams});
}

const Type *ty_ref(TyTable *t, const Type *inner) {
  return intern(t, (Type){.kind = TY_REF, .nargs = 1, .args = &inner});
}

const Type *ty_call(TyTable *t, const char *adt, const Type *const *args, size_t n) {
  return intern(t, (Type){.kind = TY_CALL, .name = adt, .nargs = (uint32_t)n, .args = args});
}

const Type *ty_var(TyTable *t, const char *name) { return intern(t, (Type){.kind = TY_VAR, .name = name}); }

const Type *ty_incomplete(TyTable *t) {
  return intern(t, (Type){.kind = TY_INCOMPLETE, .id = ++t->next_incomplete});
}

/* ------------------------------------------------------------------ printing */

/* Spells ty onto out; false as soon as out holds more than `limit` bytes (the rest unspelled), so
   that telling a type too long to write costs no more than the limit. */
static bool spell(const Type *ty, StrBuf *out, size_t limit);

static bool spell_list(const Type *const *ts, size_t n, StrBuf *out, size_t limit) {
  for (size_t i = 0; i < n; i++) {
    if (i) sb_puts(out, ", ");
    if (!spell(ts[i], out, limit)) return false;
  }
  return true;
}

static bool spell(const Type *ty, StrBuf *out, size_t limit) {
  char buf[32];
  if (out->len > limit) return false;
  switch (ty->kind) {
  case TY_TENSOR:
    if (ty->ndims == 0 && ty->dtype.code != DT_VOID) {
      sb_puts(out, dtype_str(ty->dtype, buf));
      break;
    }
    sb_puts(out, "Tensor[(");
    for (uint32_t i = 0; i < ty->ndims && out->len <= limit; i++) {
      if (i) sb_puts(out, ", ");
      if (ty->dims[i] == TY_DIM_ANY) sb_putc(out, '?');
      else sb_printf(out, "%lld", (long long)ty->dims[i]);
    }
    sb_puts(out, "), ");
    sb_puts(out, dtype_str(ty->dtype, buf));
    sb_putc(out, ']');
    break;
  case TY_TUPLE:
    sb_putc(out, '(');
    if (!spell_list(ty->args, ty->nargs, out, limit)) return false;
    if (ty->nargs == 1) sb_putc(out, ',');
    sb_putc(out, ')');
    break;
  case TY_FUNC:
    sb_puts(out, "fn ");
    if (ty->ntparams) {
      sb_putc(out, '[');
      if (!spell_list(ty->tparams, ty->ntparams, out, limit)) return false;
      sb_putc(out, ']');
    }
    sb_putc(out, '(');
    if (!spell_list(ty->args, ty->nargs, out, limit)) return false;
    sb_puts(out, ") -> ");
    if (!spell(ty->ret, out, limit)) return false;
    break;
  case TY_REF:
    sb_puts(out, "ref(");
    if (!spell(ty->args[0], out, limit)) return false;
    sb_putc(out, ')');
    break;
  case TY_CALL:
    sb_puts(out, ty->name);
    sb_putc(out, '[');
    if (!spell_list(ty->args, ty->nargs, out, limit)) return false;
    sb_putc(out, ']');
    break;
  case TY_VAR:
    sb_puts(out, ty->name);
    break;
  case TY_INCOMPLETE:
    sb_printf(out, "?%u", ty->id);
    break;
  }
  return out->len <= limit;
}

void ty_print(const Type *ty, StrBuf *out) { spell(ty, out, SIZE_MAX); }

char *ty_str(const Type *ty) { return ty_str_upto(ty, 0); }

char *ty_str_upto(const Type *ty, size_t max) {
  StrBuf sb;
  sb_init(&sb);
  if (!spell(ty, &sb, max ? max : SIZE_MAX)) {
    free(sb.data);
    return NULL;
  }
  return sb_take(&sb);
}

int64_t ty_num_elements(const Type *ty) {
  int64_t n = 1;
  for (uint32_t i = 0; i < ty->ndims; i++) {
    if (ty->dims[i] < 0 || __builtin_mul_overflow(n, ty->dims[i], &n)) return -1;
  }
  return n;
}

bool ty_is_readable(const Type *t) {
  if (t->kind == TY_REF || t->kind == TY_INCOMPLETE || (t->kind == TY_FUNC && t->ntparams)) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!ty_is_readable(t->args[i])) return false;
  return !t->ret || ty_is_readable(t->ret);
}
