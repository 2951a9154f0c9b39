/* The operator registry: lookup, attribute values, and helpers shared by the relations. */
#include "ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parser/literal.h"
#include "../../support/xalloc.h"

/* ------------------------------------------------------------------ the registry */

/* Filled once on first use (a registry set up at start, never changed after).  `rows` holds every
   row of every release (an op changed between releases has a row per variant); `view` holds, per
   release, the rows that hold for it, one per op. */
static struct {
  bool ready;
  const OpDef **rows;
  size_t nrows;
  const OpDef **view[TVM_RELEASES];
  size_t len[TVM_RELEASES];
  Arena arena;          /* parsed defaults */
  const AttrVal **defs; /* per row (in `rows` order): its attribute defaults */
} reg;

static int by_name(const void *a, const void *b) {
  const OpDef *x = *(const OpDef *const *)a, *y = *(const OpDef *const *)b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->tvm > y->tvm) - (x->tvm < y->tvm); /* variants in a fixed order */
}

static bool attr_from_expr(const AstExpr *e, AttrVal *out, Arena *arena);

/* A default is spelled as Relay text; the parser reads it, as it reads a call's attributes. */
static AttrVal parse_default(const OpDef *op, const OpAttrSpec *spec) {
  AttrVal v = {.kind = ATTR_NONE};
  char *src = arena_printf(&reg.arena, "f(x=%s)", spec->def);
  Diag d;
  diag_init(&d, "default", src, strlen(src));
  AstModule *m = ast_parse(src, strlen(src), &d);
  if (!m || !m->body || m->body->kind != AST_CALL || m->body->attrs.len != 1 ||
      !attr_from_expr(m->body->attrs.items[0]->value, &v, &reg.arena)) {
    fprintf(stderr, "relaykit: bad default %s for attribute %s of %s\n", spec->def, spec->name, op->name);
    abort();
  }
  ast_free(m);
  diag_free(&d);
  return v;
}

/* Every family file, as Lua's linit.c lists its libraries: naming a family here is what makes a
   static library link its file, whose rows then reach the registry through the relaykit_ops
   section (ops.h).  Adding a family is a file and a line here. */
#define FAMILIES(X)                                                                                     \
  X(elemwise) X(reduce) X(nn) X(nn_conv) X(nn_extra) X(nn_grad) X(nn_sparse) X(qnn) X(qnn_elemwise)     \
  X(transform) X(transform_extra) X(transform_index) X(algorithm) X(image) X(vision) X(dyn) X(random)   \
  X(annotation) X(misc) X(misc_extra) X(ethosu)
#define DECLARE(fam) extern const OpFamily op_family_##fam;
FAMILIES(DECLARE)
#define ADDRESS(fam) &op_family_##fam,
static const OpFamily *const families[] = {FAMILIES(ADDRESS)};
enum { NFAMILIES = sizeof families / sizeof families[0] };

/* The section's bounds, which the linker defines. */
extern const OpRows *const __start_relaykit_ops[], *const __stop_relaykit_ops[];

bool op_tvm_holds(const OpDef *op, TvmRelease r) { return op->tvm == 0 || (op->tvm & OP_TVM_BIT(r)) != 0; }

/* Two rows of one op must hold for different releases, and each release's view one row per op. */
static void check_variants(void) {
  for (size_t i = 1; i < reg.nrows; i++) {
    const OpDef *a = reg.rows[i - 1], *b = reg.rows[i];
    if (strcmp(a->name, b->name)) continue;
    for (int r = 0; r < TVM_RELEASES; r++)
      if (op_tvm_holds(a, (TvmRelease)r) && op_tvm_holds(b, (TvmRelease)r)) {
        fprintf(stderr, "relaykit: operator %s is registered twice for TVM v%s\n", a->name,
                op_tvm_release_name((TvmRelease)r));
        abort();
      }
  }
}

static void registry_init(void) {
  if (reg.ready) return;
  size_t total = 0;
  for (const OpRows *const *r = __start_relaykit_ops; r < __stop_relaykit_ops; r++) {
    size_t f = 0;
    while (f < NFAMILIES && families[f] != *(*r)->family) f++;
    if (f == NFAMILIES) {
      fprintf(stderr, "relaykit: operator family %s is missing from op.c's list\n", (*(*r)->family)->name);
      abort();
    }
    total += (*r)->n;
  }
  reg.rows = xmalloc((total ? total : 1) * sizeof *reg.rows);
  for (const OpRows *const *r = __start_relaykit_ops; r < __stop_relaykit_ops; r++)
    for (size_t i = 0; i < (*r)->n; i++) reg.rows[reg.nrows++] = &(*r)->rows[i];
  qsort(reg.rows, reg.nrows, sizeof *reg.rows, by_name);
  check_variants();
  for (int v = 0; v < TVM_RELEASES; v++) {
    reg.view[v] = xmalloc((total ? total : 1) * sizeof *reg.view[v]);
    for (size_t i = 0; i < reg.nrows; i++)
      if (op_tvm_holds(reg.rows[i], (TvmRelease)v)) reg.view[v][reg.len[v]++] = reg.rows[i];
  }
  arena_init(&reg.arena);
  reg.defs = xcalloc(reg.nrows ? reg.nrows : 1, sizeof *reg.defs);
  for (size_t i = 0; i < reg.nrows; i++) {
    const OpDef *op = reg.rows[i];
    AttrVal *vals = arena_alloc(&reg.arena, (op->nattrs ? op->nattrs : 1) * sizeof *vals);
    for (size_t a = 0; a < op->nattrs; a++) vals[a] = parse_default(op, &op->attrs[a]);
    reg.defs[i] = vals;
  }
  reg.ready = true;
}

size_t op_family_size(const char *name) {
  size_t n = 0;
  for (const OpRows *const *r = __start_relaykit_ops; r < __stop_relaykit_ops; r++)
    if (!strcmp((*(*r)->family)->name, name))
      for (size_t i = 0; i < (*r)->n; i++) n += op_tvm_holds(&(*r)->rows[i], op_tvm());
  return n;
}

const OpDef *const *op_all(size_t *count) {
  registry_init();
  TvmRelease v = op_tvm();
  *count = reg.len[v];
  return reg.view[v];
}

/* The first of `n` name-sorted rows named `name`, or n. */
static size_t first_named(const OpDef *const *rows, size_t n, const char *name) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(rows[mid]->name, name) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && !strcmp(rows[lo]->name, name) ? lo : n;
}

const OpDef *op_lookup_in(const char *name, TvmRelease r) {
  registry_init();
  size_t i = first_named(reg.view[r], reg.len[r], name);
  return i == reg.len[r] ? NULL : reg.view[r][i];
}

const OpDef *op_lookup(const char *name) { return op_lookup_in(name, op_tvm()); }

/* The row's index in reg.rows (its defaults').  A copy of a row (kit_any_dtype's, kit_delegate's)
   is known by its name, as the chosen release's row. */
static size_t row_index(const OpDef *op) {
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = first_named(reg.rows, reg.nrows, op->name); i < reg.nrows && !strcmp(reg.rows[i]->name, op->name);
         i++)
      if (reg.rows[i] == op) return i;
    if (!(op = op_lookup(op->name))) break;
  }
  fprintf(stderr, "relaykit: internal error: an operator that is not a registered row\n");
  abort();
}

int op_tvm_elsewhere(const char *name) {
  for (int r = TVM_RELEASES - 1; r >= 0; r--)
    if (r != (int)op_tvm() && op_lookup_in(name, (TvmRelease)r)) return r;
  return -1;
}

int op_tvm_attr_elsewhere(const OpDef *op, const char *attr) {
  for (int r = TVM_RELEASES - 1; r >= 0; r--) {
    const OpDef *other = r == (int)op_tvm() ? NULL : op_lookup_in(op->name, (TvmRelease)r);
    for (size_t k = 0; other && k < other->nattrs; k++)
      if (!strcmp(other->attrs[k].name, attr)) return r;
  }
  return -1;
}

/* ------------------------------------------------------------------ attribute values */

static bool attr_from_expr(const AstExpr *e, AttrVal *out, Arena *arena) {
  const char *err;
  int bits;
  memset(out, 0, sizeof *out);
  switch (e->kind) {
  case AST_INT:
    out->kind = ATTR_INT;
    if (!lit_int(e->text, &out->i, &bits, &err)) return false;
    out->f = (double)out->i;
    return true;
  case AST_FLOAT:
    out->kind = ATTR_FLOAT;
    return lit_float(e->text, &out->f, &bits, &err);
  case AST_BOOL:
    out->kind = ATTR_BOOL;
    out->i = !strcmp(e->text, "True");
    return true;
  case AST_STRING:
    out->kind = ATTR_STR;
    out->s = arena_strndup(arena, e->text + 1, strlen(e->text) - 2);
    return true;
  case AST_NAME:
    if (!strcmp(e->text, "None") || !strcmp(e->text, "nullptr")) {
      out->kind = ATTR_NONE;
      return true;
    }
    out->kind = ATTR_STR; /* a bare word: TVM reads it as a string */
    out->s = e->text;
    return true;
  case AST_META:
  case AST_ANY:
    out->kind = ATTR_META;
    out->s = e->text;
    return true;
  case AST_PAREN:
    return attr_from_expr(e->a, out, arena);
  case AST_LIST: {
    AttrVal *items = arena_alloc(arena, (e->nitems ? e->nitems : 1) * sizeof *items);
    for (size_t i = 0; i < e->nitems; i++)
      if (!attr_from_expr(e->items[i], &items[i], arena)) return false;
    out->kind = ATTR_LIST;
    out->items = items;
    out->n = e->nitems;
    return true;
  }
  default:
    return false;
  }
}

static const char *attr_type_name(AttrType t) {
  static const char *const names[] = {[AT_INT] = "an integer", [AT_FLOAT] = "a float", [AT_BOOL] = "a bool",
                                      [AT_STR] = "a string", [AT_DTYPE] = "a dtype string",
                                      [AT_INTS] = "a list of integers", [AT_ANY] = "a value"};
  return names[t];
}

/* Whether a value fits attribute k's declared kind.  None fits every optional attribute but a
   plain double, which None cannot set in TVM ("Check failed: (expr.defined())" in its parser, e.g.
   dyn.nn.upsampling's scale_h=None).  (Ints and bools are left lenient: the schemas do not yet say
   which of them TVM declares Optional<Integer>.) */
static bool fits(const OpDef *op, size_t k, const AttrVal *v) {
  AttrType t = op->attrs[k].type;
  if (v->kind == ATTR_NONE) return t != AT_FLOAT || op_attr_boxed(op, k);
  if (v->kind == ATTR_META || t == AT_ANY) return true;
  switch (t) {
  case AT_INT: return v->kind == ATTR_INT || v->kind == ATTR_BOOL;
  case AT_FLOAT: return v->kind == ATTR_FLOAT || v->kind == ATTR_INT;
  case AT_BOOL: return v->kind == ATTR_BOOL || v->kind == ATTR_INT;
  case AT_STR: return v->kind == ATTR_STR;
  case AT_DTYPE: {
    DType d;
    return v->kind == ATTR_STR && dtype_parse(v->s, &d);
  }
  case AT_INTS:
    if (v->kind == ATTR_INT) return true;
    if (v->kind != ATTR_LIST) return false;
    for (size_t i = 0; i < v->n; i++)
      if (v->items[i].kind != ATTR_INT && v->items[i].kind != ATTR_META) return false;
    return true;
  default: return true;
  }
}

/* rcheck --tvm-strict: a required attribute left out is an error, as in TVM's parser.  Off by
   default: hand-written programs say nn.dense(%x, %w), and the default is what TVM means by the
   None they would have to write. */
static bool require_written;
void op_require_written(bool on) { require_written = on; }

const AttrVal *op_attrs_from_ast(const OpDef *op, const AstAttrs *attrs, Arena *arena, char *err, size_t errlen,
                                 const AstAttr **bad) {
  registry_init();
  *bad = NULL;
  AttrVal *vals = op_default_attrs(op, arena);
  const char *key = op_attrs_key(op);
  const AstAttr *keyed = NULL, *other = NULL;
  for (size_t i = 0; i < attrs->len; i++) {
    const AstAttr *a = attrs->items[i];
    if (key && !strcmp(a->key, "attrs_type_key")) {
      keyed = a;
      AstExpr *v = a->value;
      size_t n = strlen(key);
      if (v->kind != AST_STRING || strlen(v->text) != n + 2 || strncmp(v->text + 1, key, n) != 0) {
        *bad = a;
        snprintf(err, errlen, "attrs_type_key of %s must be \"%s\"", op->name, key);
        return NULL;
      }
      continue;
    }
    other = other ? other : a;
    size_t k = 0;
    while (k < op->nattrs && strcmp(op->attrs[k].name, a->key) != 0) k++;
    if (k == op->nattrs) {
      *bad = a;
      int r = op_tvm_attr_elsewhere(op, a->key);
      if (r >= 0)
        snprintf(err, errlen, "operator %s has no attribute '%s' in TVM v%s (TVM v%s has it: --tvm-version %s)",
                 op->name, a->key, op_tvm_name(), op_tvm_release_name((TvmRelease)r),
                 op_tvm_release_short((TvmRelease)r));
      else
        snprintf(err, errlen, "operator %s has no attribute '%s'", op->name, a->key);
      return NULL;
    }
    AttrVal v;
    if (!attr_from_expr(a->value, &v, arena) || !fits(op, k, &v)) {
      *bad = a;
      snprintf(err, errlen, "attribute '%s' of %s must be %s", a->key, op->name, attr_type_name(op->attrs[k].type));
      return NULL;
    }
    vals[k] = v;
  }
  if (key && other && !keyed) {
    *bad = other;
    snprintf(err, errlen,
             "TVM's parser cannot attach attributes to %s without attrs_type_key (write attrs_type_key=\"%s\")",
             op->name, key);
    return NULL;
  }
  /* An op registered without an attrs type gets no struct at all from a call that writes no
     attributes (TVM's parser attaches none), so nothing is required of it then. */
  bool no_struct = attrs->len == 0 && op_takes_attrs_key(op);
  for (size_t k = 0; k < op->nattrs && require_written && !no_struct; k++) {
    if (!op_attr_required(op, k)) continue;
    size_t i = 0;
    while (i < attrs->len && strcmp(attrs->items[i]->key, op->attrs[k].name) != 0) i++;
    if (i == attrs->len) {
      snprintf(err, errlen, "%s: Cannot find required field '%s' (TVM's parser needs it written out, e.g. %s=%s)",
               op->name, op->attrs[k].name, op->attrs[k].name, op->attrs[k].def ? op->attrs[k].def : "None");
      return NULL;
    }
  }
  return vals;
}

const Type *op_infer(OpCall *c, const OpDef *op, const Type *const *args, size_t nargs, const AstAttrs *attrs,
                     Arena *arena) {
  c->op = op;
  c->args = args;
  c->nargs = nargs;
  c->bad_arg = -1;
  c->err[0] = '\0';
  if ((int)nargs < op->min_args || (op->max_args >= 0 && (int)nargs > op->max_args)) {
    if (op->min_args == op->max_args)
      return op_fail(c, -1, "%s expects %d argument%s, got %zu", op->name, op->min_args, op->min_args == 1 ? "" : "s", nargs);
    return op_fail(c, -1, "%s expects %d to %d arguments, got %zu", op->name, op->min_args, op->max_args, nargs);
  }
  const AstAttr *bad;
  c->attrs = op_attrs_from_ast(op, attrs, arena, c->err, sizeof c->err, &bad);
  if (!c->attrs) return NULL;
  return op->relation(c);
}

static bool attr_equal(const AttrVal *a, const AttrVal *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case ATTR_NONE: return true;
  case ATTR_INT:
  case ATTR_BOOL: return a->i == b->i;
  case ATTR_FLOAT: return a->f == b->f;
  case ATTR_STR:
  case ATTR_META: return !strcmp(a->s, b->s);
  case ATTR_LIST:
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++)
      if (!attr_equal(&a->items[i], &b->items[i])) return false;
    return true;
  }
  return false;
}

bool op_attr_equals_default(const OpDef *op, size_t k, const AttrVal *v) {
  registry_init();
  return attr_equal(&reg.defs[row_index(op)][k], v);
}

bool op_attr_is_default(const OpDef *op, size_t k, const AttrVal *v) {
  return op_attr_equals_default(op, k, v) && !op_attr_required(op, k);
}

AttrVal *op_default_attrs(const OpDef *op, Arena *arena) {
  registry_init();
  AttrVal *vals = arena_alloc(arena, (op->nattrs ? op->nattrs : 1) * sizeof *vals);
  memcpy(vals, reg.defs[row_index(op)], op->nattrs * sizeof *vals);
  return vals;
}

/* ------------------------------------------------------------------ helpers */

const AttrVal *op_attr(const OpCall *c, const char *name) {
  for (size_t k = 0; k < c->op->nattrs; k++)
    if (!strcmp(c->op->attrs[k].name, name)) return &c->attrs[k];
  fprintf(stderr, "relaykit: internal error: %s has no attribute %s in its schema\n", c->op->name, name);
  abort();
}

int64_t op_int(const OpCall *c, const char *name) { return op_attr(c, name)->i; }
double op_float(const OpCall *c, const char *name) { return op_attr(c, name)->f; }
bool op_bool(const OpCall *c, const char *name) { return op_attr(c, name)->i != 0; }
bool op_is_none(const OpCall *c, const char *name) { return op_attr(c, name)->kind == ATTR_NONE; }

const char *op_str(const OpCall *c, const char *name) {
  const AttrVal *v = op_attr(c, name);
  return v->kind == ATTR_STR ? v->s : "";
}

size_t op_ints(const OpCall *c, const char *name, int64_t *out, size_t max) {
  const AttrVal *v = op_attr(c, name);
  if (v->kind == ATTR_INT) {
    if (max > 0) out[0] = v->i;
    return 1;
  }
  if (v->kind != ATTR_LIST) return 0;
  size_t n = 0;
  for (size_t i = 0; i < v->n && n < max; i++) out[n++] = v->items[i].kind == ATTR_INT ? v->items[i].i : TY_DIM_ANY;
  return v->n;
}

DType op_dtype(const OpCall *c, const char *name) {
  DType d = dt_void;
  dtype_parse(op_str(c, name), &d);
  return d;
}

const Type *op_fail(OpCall *c, int arg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  c->bad_arg = arg;
  return NULL;
}

const Type *op_tensor_arg(OpCall *c, size_t i) {
  const Type *t = c->args[i];
  if (t->kind == TY_TENSOR) return t;
  char *s = ty_str(t);
  op_fail(c, (int)i, "%s expects a tensor as argument %zu, got %s", c->op->name, i + 1, s);
  free(s);
  return NULL;
}

const Type *op_broadcast(OpCall *c, const Type *a, const Type *b, DType out) {
  size_t n = a->ndims > b->ndims ? a->ndims : b->ndims;
  int64_t *dims = xmalloc((n ? n : 1) * sizeof *dims);
  for (size_t i = 0; i < n; i++) {
    /* align from the right */
    int64_t da = i < n - a->ndims ? 1 : a->dims[i - (n - a->ndims)];
    int64_t db = i < n - b->ndims ? 1 : b->dims[i - (n - b->ndims)];
    /* TVM's order (ConcreteBroadcast): a 1 yields to the other side, then a `?` does. */
    if (da == 1) dims[i] = db;
    else if (db == 1) dims[i] = da;
    else if (da == TY_DIM_ANY) dims[i] = db;
    else if (db == TY_DIM_ANY) dims[i] = da;
    else if (da == db) dims[i] = da;
    else {
      free(dims);
      char *sa = ty_str(a), *sb = ty_str(b);
      op_fail(c, 1, "Incompatible broadcast type %s and %s", sa, sb);
      free(sa);
      free(sb);
      return NULL;
    }
  }
  const Type *t = ty_tensor(c->types, out, dims, n);
  free(dims);
  return t;
}

bool op_axis(int64_t axis, size_t rank, size_t *out) {
  if (axis < 0) axis += (int64_t)rank;
  if (axis < 0 || axis >= (int64_t)rank) return false;
  *out = (size_t)axis;
  return true;
}
