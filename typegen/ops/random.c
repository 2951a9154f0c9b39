/*
 * Random number operators: the Threefry key operations (threefry_generate, threefry_split) and the
 * samplers built on them (uniform, normal, multinomial).  A key is a Tensor[(10), uint64]; every op
 * returns a new key with its values.  Facts from TVM v0.13 src/relay/op/random/kernel.cc and
 * include/tvm/relay/attrs/random.h.
 *
 * The relations assign the key type (and uniform/normal's scalar bounds) to their arguments, as
 * TVM's reporter->Assign does: an argument of another type is rejected.  Departures from TVM,
 * deliberate: a negative out_shape entry or num_samples (a negative dimension) and multinomial on a
 * scalar (TVM reads before the shape's start) are rejected.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(random);

/* ================================================================== helpers the blocks below share */

static const DType dt_uint64 = {DT_UINT, 64, 1};

static const Type *key_type(TyTable *t) {
  const int64_t ten = 10;
  return ty_tensor(t, dt_uint64, &ten, 1);
}

static const Type *with_key(OpCall *c, const Type *values) {
  const Type *f[2] = {key_type(c->types), values};
  return ty_tuple(c->types, f, 2);
}

/* out_shape as dimensions (required; non-negative); the count, or -1 after failing. */
static long out_shape(OpCall *c, int64_t *dims) {
  if (!kit_required(c, "out_shape")) return -1;
  long n = kit_ints_opt(c, "out_shape", dims, KIT_RANK_MAX);
  if (n > KIT_RANK_MAX) {
    op_fail(c, -1, "%s: out_shape has more than %d dimensions", c->op->name, KIT_RANK_MAX);
    return -1;
  }
  if (n >= 0 && !kit_nonneg_as(c, "out_shape", dims, (size_t)n)) return -1;
  return n;
}

/* ================================================================== generators */

static bool is_key(const Type *k) {
  return k->kind == TY_TENSOR && dtype_eq(k->dtype, dt_uint64) && k->ndims == 1 && k->dims[0] == 10;
}

/* (key, values) with values a static tensor of the class (rank lo..). */
static const Type *keyed_values(const Type *t, OpDtypes cls, unsigned lo) {
  if (t->kind != TY_TUPLE || t->nargs != 2 || !is_key(t->args[0])) return NULL;
  return kit_gen_ok(t->args[1], cls, lo, KIT_RANK_MAX) ? t->args[1] : NULL;
}

/* Samplers: a random static values tensor, paired with the key, then solved. */
static bool keyed_sample(OpGen *g, const OpDef *op, OpPlan *out, DType dt, unsigned lo) {
  size_t rank = (size_t)rng_range(g->rng, lo, g->policy->max_rank);
  const Type *f[2] = {key_type(g->types), kit_rand_tensor(g, dt, rank, g->policy->max_elements)};
  const Type *t = ty_tuple(g->types, f, 2);
  return op->recognize(op, t) && op->solve(g, op, t, out);
}

/* ------------------------------------------------------------------ random.threefry_generate */

/* ThreefryGenerateRel: (key, out_shape random uint64s). */
static const Type *threefry_generate_rel(OpCall *c) {
  int64_t dims[KIT_RANK_MAX];
  long n = out_shape(c, dims);
  if (n < 0 || !kit_assign_type(c, 0, key_type(c->types))) return NULL;
  return with_key(c, ty_tensor(c->types, dt_uint64, dims, (size_t)n));
}

static bool threefry_generate_recognize(const OpDef *op, const Type *t) {
  (void)op;
  const Type *v = keyed_values(t, OPDT_INT, 0);
  return v && dtype_eq(v->dtype, dt_uint64);
}

static bool threefry_generate_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, key_type(g->types));
  opgen_set_ints(g, op, out, "out_shape", t->args[1]->dims, t->args[1]->ndims);
  out->result = t;
  return true;
}

static bool threefry_generate_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return keyed_sample(g, op, out, dt_uint64, 0);
}

/* include/tvm/relay/attrs/random.h; out_shape has no default. */
static const OpAttrSpec threefry_generate_attrs[] = {{"out_shape", AT_INTS, "None"}};

static const OpDef threefry_generate_ops[] = {
    KIT_OP("random.threefry_generate", 1, threefry_generate_attrs, threefry_generate_rel,
           KIT_GEN(OPDT_INT, threefry_generate_recognize, threefry_generate_solve, threefry_generate_sample)),
};
OP_REGISTER(threefry_generate_ops);

/* ------------------------------------------------------------------ random.threefry_split */

/* ThreefrySplitRel: (key, key). */
static const Type *threefry_split_rel(OpCall *c) {
  if (!kit_assign_type(c, 0, key_type(c->types))) return NULL;
  return with_key(c, key_type(c->types));
}

static bool threefry_split_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return t->kind == TY_TUPLE && t->nargs == 2 && is_key(t->args[0]) && t->args[1] == t->args[0];
}

static bool threefry_split_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, key_type(g->types));
  out->result = t;
  return true;
}

static bool threefry_split_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *f[2] = {key_type(g->types), key_type(g->types)};
  return threefry_split_solve(g, op, ty_tuple(g->types, f, 2), out);
}

static const OpDef threefry_split_ops[] = {
    {.name = "random.threefry_split",
     .min_args = 1,
     .max_args = 1,
     .relation = threefry_split_rel,
     KIT_GEN(OPDT_INT, threefry_split_recognize, threefry_split_solve, threefry_split_sample)},
};
OP_REGISTER(threefry_split_ops);

/* ------------------------------------------------------------------ random.uniform, random.normal */

/* UniformRel / NormalRel: out_dtype float32 or float64; the two bounds are scalars of it. */
static const Type *distribution(OpCall *c, const char *what) {
  int64_t dims[KIT_RANK_MAX];
  long n = out_shape(c, dims);
  if (n < 0) return NULL;
  DType dt = op_dtype(c, "out_dtype");
  if (dt.code != DT_FLOAT || dt.lanes != 1 || (dt.bits != 32 && dt.bits != 64)) {
    char buf[16];
    return op_fail(c, -1, "We only support generating %s random value of type float32 or float64, got %s.",
                   what, kit_dtype_name(dt, buf));
  }
  const Type *scalar = ty_scalar(c->types, dt);
  if (!kit_assign_type(c, 0, key_type(c->types)) || !kit_assign_type(c, 1, scalar) || !kit_assign_type(c, 2, scalar))
    return NULL;
  return with_key(c, ty_tensor(c->types, dt, dims, (size_t)n));
}

static const Type *uniform_rel(OpCall *c) { return distribution(c, "uniform"); }

static const Type *normal_rel(OpCall *c) { return distribution(c, "Normal"); }

static bool distribution_recognize(const OpDef *op, const Type *t) {
  (void)op;
  const Type *v = keyed_values(t, OPDT_FLOAT, 0);
  return v && (v->dtype.bits == 32 || v->dtype.bits == 64);
}

static bool distribution_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  const Type *v = t->args[1];
  opgen_plan_init(g, op, out);
  kit_arg(out, key_type(g->types));
  kit_arg(out, kit_scalar(g, v->dtype));
  kit_arg(out, kit_scalar(g, v->dtype));
  opgen_set_ints(g, op, out, "out_shape", v->dims, v->ndims);
  kit_set_dtype(g, op, out, "out_dtype", v->dtype);
  out->result = t;
  return true;
}

static bool distribution_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return keyed_sample(g, op, out, rng_chance(g->rng, 1, 2) ? dt_float32 : (DType){DT_FLOAT, 64, 1}, 0);
}

static const OpAttrSpec distribution_attrs[] = {{"out_shape", AT_INTS, "None"},
                                                {"out_dtype", AT_DTYPE, "\"\""}};

static const OpDef distribution_ops[] = {
    KIT_OP("random.uniform", 3, distribution_attrs, uniform_rel,
           KIT_GEN(OPDT_FLOAT, distribution_recognize, distribution_solve, distribution_sample)),
    KIT_OP("random.normal", 3, distribution_attrs, normal_rel,
           KIT_GEN(OPDT_FLOAT, distribution_recognize, distribution_solve, distribution_sample)),
};
OP_REGISTER(distribution_ops);

/* ------------------------------------------------------------------ random.multinomial */

/* MultinomialRel: probs (..., K) gives (key, (..., num_samples) int32). */
static const Type *multinomial_rel(OpCall *c) {
  const Type *probs = c->args[1];
  if (probs->kind != TY_TENSOR) {
    /* TVM's message prints the key's type here, not the probabilities'. */
    char *s = ty_str(c->args[0]);
    op_fail(c, 1, "multinomial: expect input type to be TensorType but get %s", s);
    free(s);
    return NULL;
  }
  if (probs->ndims == 0)
    return op_fail(c, 1, "%s: probs must have at least one dimension (TVM reads before its shape)",
                   c->op->name);
  if (probs->ndims > KIT_RANK_MAX) return op_fail(c, 1, "%s: rank above %d", c->op->name, KIT_RANK_MAX);
  int64_t dims[KIT_RANK_MAX], k = op_int(c, "num_samples");
  memcpy(dims, probs->dims, (probs->ndims - 1) * sizeof *dims);
  dims[probs->ndims - 1] = k;
  if (!kit_nonneg_as(c, "num_samples", &k, 1) || !kit_assign_type(c, 0, key_type(c->types))) return NULL;
  return with_key(c, ty_tensor(c->types, dt_int32, dims, probs->ndims));
}

static bool multinomial_recognize(const OpDef *op, const Type *t) {
  (void)op;
  const Type *v = keyed_values(t, OPDT_INT, 1);
  return v && dtype_eq(v->dtype, dt_int32);
}

static bool multinomial_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  const Type *v = t->args[1];
  int64_t dims[KIT_RANK_MAX], n = v->ndims, el = 1;
  memcpy(dims, v->dims, (size_t)n * sizeof *dims);
  for (int64_t i = 0; i < n - 1; i++)
    el *= dims[i];
  opgen_dims(g, 1, kit_budget(g, t) / el, &dims[n - 1]);
  static const DType floats[] = {{DT_FLOAT, 32, 1}, {DT_FLOAT, 64, 1}};
  opgen_plan_init(g, op, out);
  kit_arg(out, key_type(g->types));
  kit_arg(out, kit_tensor(g, floats[rng_index(g->rng, 2)], dims, (size_t)n));
  if (v->dims[n - 1] != 1 || rng_chance(g->rng, 1, 3))
    opgen_set_int(g, op, out, "num_samples", v->dims[n - 1]);
  out->result = t;
  return true;
}

static bool multinomial_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return keyed_sample(g, op, out, dt_int32, 1);
}

static const OpAttrSpec multinomial_attrs[] = {{"num_samples", AT_INT, "1"}};

static const OpDef multinomial_ops[] = {
    KIT_OP("random.multinomial", 2, multinomial_attrs, multinomial_rel,
           KIT_GEN(OPDT_INT, multinomial_recognize, multinomial_solve, multinomial_sample)),
};
OP_REGISTER(multinomial_ops);
