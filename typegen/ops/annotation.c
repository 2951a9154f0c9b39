/*
 * Annotations: annotation.bitpack_start, bitpack_end, cast_hint, checkpoint, compiler_begin,
 * compiler_end (src/relay/op/annotation/annotation.cc, attrs in include/tvm/relay/attrs/annotation.h),
 * annotation.with_funcid (src/relay/transforms/partial_eval.cc), relay.op.annotation.simulated_quantize
 * (src/relay/quantize/quantize.cc, attrs in src/relay/quantize/quantize.h) and debug
 * (src/relay/op/debug.cc, include/tvm/relay/attrs/debug.h).  annotation.stop_fusion is in ops/misc.c.
 *
 * The annotations and debug use IdentityRel, which assigns the argument's type to the result
 * whatever it is (tuples too), so they pass any value through.
 *
 * Departure: annotation.with_funcid registers no type relation in TVM (partial evaluation adds and
 * strips it internally), so TVM cannot type a call to it either; here such a call is rejected with
 * a message saying so.
 *
 * Generators: the pass-through annotations on tensors (compiler regions named "default", the name
 * AnnotateTarget gives unsupported regions; cast_hint with a random dtype, which changes no type)
 * Not generated: annotation.with_funcid (no relation), debug (its debug_func attribute is an EnvFunc,
 * which has no text spelling) and simulated_quantize, whose struct key TVM v0.13 also gives
 * qnn.simulated_quantize's struct, so that TVM's parser cannot read a call of it back ("does not
 * have field 'kind'"); a generated program would only test that.
 */

#include <stdlib.h>

#include "kit.h"

OP_FAMILY(annotation);

/* ---------------------- annotation.bitpack_start, bitpack_end, cast_hint, checkpoint, compiler_begin, ... */

/* Generated as the value passed through, with a string or dtype attribute set to some value. */
static bool pass_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!opgen_unary_solve(g, op, t, out)) return false;
  if (op->nattrs && op->attrs[0].type == AT_STR) opgen_set_str(g, op, out, op->attrs[0].name, "default");
  if (op->nattrs && op->attrs[0].type == AT_DTYPE) {
    char buf[16];
    opgen_set_str(g, op, out, op->attrs[0].name, dtype_str(opgen_dtype(g, OPDT_ANY), buf));
  }
  return true;
}

/* CastHintAttrs: dtype; CompilerAttrs: compiler (neither has a default).  WithFuncIdAttrs: fid
   (-1).  quantize::SimulatedQuantizeAttrs: kind (no default), sign (true), rounding ("round").
   DebugAttrs: debug_func, an EnvFunc. */
static const OpAttrSpec cast_hint_attrs[] = {{"dtype", AT_DTYPE, "None"}};

static const OpAttrSpec compiler_attrs[] = {{"compiler", AT_STR, "None"}};

static const OpAttrSpec debug_attrs[] = {{"debug_func", AT_ANY, "None"}};

#define PASS_GEN KIT_GEN(OPDT_ANY, opgen_unary_recognize, pass_solve, opgen_sample_by_solving)

#define PASS(n) {.name = (n), .min_args = 1, .max_args = 1, .relation = kit_pass_through_rel, PASS_GEN}

#define PASS_ATTRS(n, a) \
  {.name = (n), .min_args = 1, .max_args = 1, .attrs = (a), .nattrs = KIT_NELEMS(a), .relation = kit_pass_through_rel, PASS_GEN}

static const OpDef pass_through_ops[] = {
    PASS("annotation.bitpack_start"),
    PASS("annotation.bitpack_end"),
    PASS_ATTRS("annotation.cast_hint", cast_hint_attrs),
    PASS("annotation.checkpoint"),
    PASS_ATTRS("annotation.compiler_begin", compiler_attrs),
    PASS_ATTRS("annotation.compiler_end", compiler_attrs),
    OP_ENTRY("debug", 1, 1, debug_attrs, KIT_NELEMS(debug_attrs), kit_pass_through_rel),
};
OP_REGISTER(pass_through_ops);

/* ------------------------------------------------------------------ annotation.with_funcid */

static const Type *with_funcid_rel(OpCall *c) {
  return op_fail(c, -1, "%s has no type relation in TVM (partial evaluation adds and removes it internally)", c->op->name);
}

static const OpAttrSpec with_funcid_attrs[] = {{"fid", AT_INT, "-1"}};

static const OpDef with_funcid_ops[] = {
    OP_ENTRY("annotation.with_funcid", 1, 1, with_funcid_attrs, KIT_NELEMS(with_funcid_attrs),
             with_funcid_rel),
};
OP_REGISTER(with_funcid_ops);

/* ----------------------------------------------------------------- relay.op.annotation.simulated_quantize */

/* SimulatedQuantizeRel (quantize.cc): a tensor of rank >= 1; dom_scale, clip_min and clip_max are
   assigned float32 scalars; the result has the data's type. */
static const Type *simulated_quantize_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "%s: Input shape cannot be empty", c->op->name);
  static const char *const names[] = {"", "dom_scale", "clip_min", "clip_max"};
  for (size_t i = 1; i <= 3; i++) {
    const Type *t = c->args[i];
    if (t->kind != TY_TENSOR || t->ndims != 0 || !dtype_eq(t->dtype, dt_float32)) {
      char *s = ty_str(t);
      op_fail(c, (int)i, "%s: argument %zu (%s) has type %s, but the relation requires float32", c->op->name, i + 1,
              names[i], s);
      free(s);
      return NULL;
    }
  }
  return data;
}

static const OpAttrSpec simulated_quantize_attrs[] = {
    {"kind", AT_INT, "None"}, {"sign", AT_BOOL, "True"}, {"rounding", AT_STR, "\"round\""}};

static const OpDef simulated_quantize_ops[] = {
    /* Not generated: TVM v0.13's parser cannot read a call of it back (see the top). */
    OP_ENTRY("relay.op.annotation.simulated_quantize", 4, 4, simulated_quantize_attrs,
             KIT_NELEMS(simulated_quantize_attrs), simulated_quantize_rel),
};
OP_REGISTER(simulated_quantize_ops);
