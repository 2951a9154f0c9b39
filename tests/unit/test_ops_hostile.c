/*
 * Hostile attribute values (issue 29): every integer attribute of every operator, set to
 * INT64_MAX, INT64_MIN, -1, 2^62 and a few more, one at a time (a list's items one by one and all
 * together), on calls the generators sample (several seeds) and on hand-written calls of the
 * operators that have no generators.  A relation must reject such a call or give a type without a
 * negative dimension; built with `make SAN=1`, UndefinedBehaviorSanitizer also stops the test at
 * any signed overflow in the shape arithmetic on the way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#include "../../support/arena.h"

enum { SEEDS = 40 };

static const int64_t hostile[] = {INT64_MAX, INT64_MIN, -1, (int64_t)1 << 62, INT64_MAX / 2 + 1, INT32_MAX, -INT64_MAX};

/* Whether every dimension of t (a tensor, or tensors inside a tuple) is `?` or not negative. */
static bool sane(const Type *t) {
  if (t->kind == TY_TENSOR)
    for (uint32_t i = 0; i < t->ndims; i++)
      if (t->dims[i] < 0 && t->dims[i] != TY_DIM_ANY) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!sane(t->args[i])) return false;
  return !t->ret || sane(t->ret);
}

/* The number of integers in v (a list's items, nested). */
static size_t int_leaves(const AttrVal *v) {
  if (v->kind == ATTR_INT) return 1;
  size_t n = 0;
  for (size_t i = 0; v->kind == ATTR_LIST && i < v->n; i++) n += int_leaves(&v->items[i]);
  return n;
}

/* v with integer number `which` (SIZE_MAX: every one) replaced by x; *seen counts them. */
static AttrVal with_leaf(const AttrVal *v, size_t which, int64_t x, size_t *seen, Arena *arena) {
  AttrVal out = *v;
  if (v->kind == ATTR_INT) {
    if (which == SIZE_MAX || which == *seen) out.i = x, out.f = (double)x;
    ++*seen;
  } else if (v->kind == ATTR_LIST) {
    AttrVal *items = arena_alloc(arena, (v->n ? v->n : 1) * sizeof *items);
    for (size_t i = 0; i < v->n; i++) items[i] = with_leaf(&v->items[i], which, x, seen, arena);
    out.items = items;
  }
  return out;
}

typedef struct Case {
  const OpDef *op;
  const Type *const *args;
  size_t nargs;
  const AttrVal *attrs;
} Case;

static unsigned failures; /* each is printed; the test fails at its end, having tried them all */

/* Runs the relation with attribute k replaced by v (holding x); a type it gives must be sane. */
static void run_with(const Case *base, size_t k, AttrVal v, int64_t x, TyTable *types, Arena *arena) {
  AttrVal *attrs = arena_alloc(arena, base->op->nattrs * sizeof *attrs);
  memcpy(attrs, base->attrs, base->op->nattrs * sizeof *attrs);
  attrs[k] = v;
  OpCall c = {.types = types, .op = base->op, .args = base->args, .nargs = base->nargs, .attrs = attrs, .bad_arg = -1};
  const Type *r = base->op->relation(&c);
  if (r && !sane(r)) {
    char *s = ty_str(r);
    print_error("%s with %s = %lld (or a list holding it) gave %s\n", base->op->name, base->op->attrs[k].name,
                (long long)x, s);
    free(s);
    failures++;
  }
}

/* Every hostile value in every integer position of every integer-valued attribute of the call, and
   hostile doubles in the float ones (scales that multiply a dimension). */
static void attack(const Case *base, TyTable *types, Arena *arena) {
  static const double floats[] = {1e300, -1e300, 1e19, -1e19, 9.3e18, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0};
  for (size_t k = 0; k < base->op->nattrs; k++) {
    AttrType at = base->op->attrs[k].type;
    if (at == AT_FLOAT)
      for (size_t h = 0; h < sizeof floats / sizeof *floats; h++)
        run_with(base, k, (AttrVal){.kind = ATTR_FLOAT, .f = floats[h]}, (int64_t)h, types, arena);
    if (at != AT_INT && at != AT_INTS && at != AT_ANY) continue;
    const AttrVal *orig = &base->attrs[k];
    size_t leaves = int_leaves(orig);
    for (size_t h = 0; h < sizeof hostile / sizeof *hostile; h++) {
      int64_t x = hostile[h];
      AttrVal scalar = {.kind = ATTR_INT, .i = x, .f = (double)x};
      if (at == AT_INT || orig->kind == ATTR_NONE) run_with(base, k, scalar, x, types, arena);
      if (at != AT_INT && (orig->kind == ATTR_NONE || orig->kind == ATTR_INT)) { /* a list of one, and of four */
        AttrVal *four = arena_alloc(arena, 4 * sizeof *four);
        for (int i = 0; i < 4; i++) four[i] = scalar;
        run_with(base, k, (AttrVal){.kind = ATTR_LIST, .items = four, .n = 1}, x, types, arena);
        run_with(base, k, (AttrVal){.kind = ATTR_LIST, .items = four, .n = 4}, x, types, arena);
      }
      for (size_t j = 0; j <= leaves && leaves; j++) {
        size_t seen = 0;
        run_with(base, k, with_leaf(orig, j == leaves ? SIZE_MAX : j, x, &seen, arena), x, types, arena);
      }
    }
  }
}

/* Huge dimensions in the argument types (a program may declare Tensor[(9223372036854775807), ...]):
   each dimension of each tensor argument, one at a time, and all of an argument's together. */
static void attack_shapes(const Case *base, TyTable *types, Arena *arena) {
  static const int64_t huge[] = {INT64_MAX, (int64_t)1 << 62, (int64_t)1 << 32, INT32_MAX};
  for (size_t i = 0; i < base->nargs; i++) {
    const Type *t = base->args[i];
    if (t->kind != TY_TENSOR || !t->ndims) continue;
    for (size_t h = 0; h < sizeof huge / sizeof *huge; h++)
      for (uint32_t j = 0; j <= t->ndims; j++) {
        int64_t dims[64];
        if (t->ndims > 64) break;
        for (uint32_t k = 0; k < t->ndims; k++) dims[k] = k == j || j == t->ndims ? huge[h] : t->dims[k];
        const Type **args = arena_alloc(arena, base->nargs * sizeof *args);
        memcpy(args, base->args, base->nargs * sizeof *args);
        args[i] = ty_tensor(types, t->dtype, dims, t->ndims);
        OpCall c = {.types = types, .op = base->op, .args = args, .nargs = base->nargs, .attrs = base->attrs, .bad_arg = -1};
        const Type *r = base->op->relation(&c);
        if (r && !sane(r)) {
          char *s = ty_str(r), *a = ty_str(args[i]);
          print_error("%s with argument %zu of type %s gave %s\n", base->op->name, i + 1, a, s);
          free(s), free(a);
          failures++;
        }
      }
  }
}

/* One release's operators; a row two releases share is attacked once. */
static size_t attack_sampled(TvmRelease release) {
  size_t n, attacked = 0;
  const OpDef *const *ops = op_all(&n);
  for (size_t i = 0; i < n; i++) {
    if (!ops[i]->sample || (release > 0 && op_lookup_in(ops[i]->name, release - 1) == ops[i])) continue;
    TyTable *types = ty_table_new();
    Arena arena;
    arena_init(&arena);
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
      Rng rng = rng_seed(seed, 29);
      OpGen g = {types, &rng, &arena, &opgen_default_policy};
      OpPlan plan;
      if (!ops[i]->sample(&g, ops[i], &plan)) continue;
      Case base = {ops[i], plan.args, plan.nargs, plan.attrs};
      attack(&base, types, &arena);
      attack_shapes(&base, types, &arena);
    }
    attacked++;
    arena_free(&arena);
    ty_table_free(types);
  }
  return attacked;
}

/* Every release's rows: the variants of an op (v0.19.0's gemm transform, dequantize, ...) too. */
static void test_sampled_calls(void **state) {
  (void)state;
  size_t attacked = 0;
  for (int r = 0; r < TVM_RELEASES; r++) {
    op_test_release(op_tvm_release_short((TvmRelease)r));
    attacked += attack_sampled((TvmRelease)r);
  }
  print_message("hostile attribute values on sampled calls of %zu operator rows\n", attacked);
  assert_int_equal(failures, 0);
}

/* Operators without generators that read integer attributes, each with a call TVM accepts. */
static const char *const by_hand[][3] = {
    {"contrib.ethosu.conv2d", "Tensor[(1, 56, 72, 55), int8], Tensor[(122, 3, 2, 55), int8], Tensor[(122, 10), uint8], Tensor[(0), int8]",
     "ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12, weight_zero_point=12, kernel_shape=[3, 2], "
     "ofm_channels=122, strides=[1, 2], padding=[0, 1, 2, 3], dilation=[2, 1]"},
    {"contrib.ethosu.depthwise_conv2d", "Tensor[(1, 46, 71, 55), int8], Tensor[(55, 3, 2, 1), int8], Tensor[(55, 10), uint8], Tensor[(0), int8]",
     "ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12, weight_zero_point=12, kernel_shape=[3, 2], "
     "ofm_channels=55, strides=[1, 2], padding=[0, 1, 2, 3], dilation=[2, 1]"},
    {"contrib.ethosu.pooling", "Tensor[(1, 56, 72, 55), int8], Tensor[(0), int8]",
     "pooling_type=\"AVG\", ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12, pool_shape=[3, 2], "
     "ofm_channels=55, ofm_dtype=\"int8\", strides=[1, 2], padding=[0, 1, 2, 3]"},
    {"contrib.ethosu.pooling", "Tensor[(1, 56, 4, 72, 16), int8], Tensor[(0), int8]",
     "pooling_type=\"MAX\", ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12, pool_shape=[3, 2], "
     "ofm_channels=55, ofm_dtype=\"int8\", strides=[1, 2], padding=[0, 1, 2, 3], ifm_layout=\"NHCWB16\", ofm_layout=\"NHCWB16\""},
    {"contrib.ethosu.binary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(1, 4, 5, 33), int8], Tensor[(0), int8]",
     "operator_type=\"ADD\", ifm_scale=1f, ifm_zero_point=0, ifm2_scale=1f, ifm2_zero_point=0, ofm_scale=1f, "
     "ofm_zero_point=0, ifm_channels=33, ifm2_channels=33, ofm_dtype=\"int8\""},
    {"contrib.ethosu.identity", "Tensor[(241, 7, 755), int8], Tensor[(0), int8]",
     "ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12"},
    {"contrib.ethosu.unary_elementwise", "Tensor[(1, 4, 5, 33), int8], Tensor[(0), int8]",
     "operator_type=\"ABS\", ifm_scale=0.5f, ifm_zero_point=10, ofm_scale=0.25f, ofm_zero_point=12, ofm_channels=33"},
    {"nn.contrib_dense_pack", "Tensor[(1, 64), float32], Tensor[(4, 64, 16), float32]", "units=None, weight_layout=\"NC16n\""},
    {"qnn.contrib_dense_pack", "Tensor[(2, 16), uint8], Tensor[(2, 4, 8, 4), int8], int32, int32, float32, float32",
     "units=None, out_dtype=\"int32\", weight_layout=\"NC8n4c\""},
    {"nn.sparse_conv2d", "Tensor[(1, 8, 8, 16), float32], Tensor[(20, 1), float32], Tensor[(20), int32], Tensor[(9), int32]",
     "kernel_size=[1, 1]"},
    {"nn.sparse_dense", "Tensor[(4, 10), float32], Tensor[(20), float32], Tensor[(20), int32], Tensor[(9), int32]", ""},
    {"relay.op.annotation.simulated_quantize", "Tensor[(1, 16, 64, 64), float32], float32, float32, float32",
     "kind=1, sign=True, rounding=\"round\""},
};

static void test_calls_by_hand(void **state) {
  (void)state;
  failures = 0;
  for (size_t i = 0; i < sizeof by_hand / sizeof *by_hand; i++) {
    /* in the release that has the op (the Ethos-U ops are v0.13.0's) */
    int r = op_lookup_in(by_hand[i][0], TVM_0_19) ? TVM_0_19 : TVM_0_13;
    op_test_release(op_tvm_release_short((TvmRelease)r));
    const OpDef *op = op_lookup(by_hand[i][0]);
    assert_non_null(op);
    /* the call as op_test_call types it, kept to be taken apart */
    char *ok = op_test_infer(by_hand[i][0], by_hand[i][1], by_hand[i][2]);
    if (!strncmp(ok, "error: ", 7)) fail_msg("%s: the hand-written call is rejected: %s", by_hand[i][0], ok);
    free(ok);
    char src[1024];
    snprintf(src, sizeof src, "fn (%%a: (%s,)) { f(%%a%s%s) }", by_hand[i][1], *by_hand[i][2] ? ", " : "", by_hand[i][2]);
    Diag d;
    diag_init(&d, "test", src, strlen(src));
    AstModule *m = ast_parse(src, strlen(src), &d);
    assert_non_null(m);
    TyTable *types = ty_table_new();
    char err[256];
    const AstType *bad;
    const AstAttr *bad_attr;
    const Type *tuple = ty_from_ast(types, m->body->fn->params[0]->type, NULL, err, sizeof err, &bad);
    assert_non_null(tuple);
    const AttrVal *attrs = op_attrs_from_ast(op, &m->body->fn->body->attrs, &m->arena, err, sizeof err, &bad_attr);
    assert_non_null(attrs);
    Case base = {op, tuple->args, tuple->nargs, attrs};
    attack(&base, types, &m->arena);
    attack_shapes(&base, types, &m->arena);
    ty_table_free(types);
    ast_free(m);
    diag_free(&d);
  }
  assert_int_equal(failures, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sampled_calls),
      cmocka_unit_test(test_calls_by_hand),
  };
  return cmocka_run_group_tests_name("ops_hostile", tests, NULL, NULL);
}
