/*
 * Annotations (typegen/ops/annotation.c) against TVM v0.13.  IdentityRel passes any value through:
 * tests/python/relay/test_op_level10.py (test_checkpoint: checkpoint of a tensor and of a tuple
 * keeps its type), test_pass_partition_graph.py (compiler_begin / compiler_end around tensors);
 * simulated_quantize as src/relay/quantize/quantize.cc types it (test_pass_auto_quantize.py's
 * annotated graphs: (1, 16, 64, 64) float32 data, float32 scalar scales).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

static void test_identity(void **state) {
  (void)state;
  static const char *const ops[] = {"annotation.bitpack_start", "annotation.bitpack_end", "annotation.checkpoint", "debug"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    assert_infers(ops[i], "Tensor[(1, 16, ?), float32]", "", "Tensor[(1, 16, ?), float32]");
    assert_infers(ops[i], "(Tensor[(2), int8], float32)", "", "(Tensor[(2), int8], float32)");
    assert_rejects(ops[i], "float32, float32", "", "expects 1 argument");
  }
  assert_infers("annotation.cast_hint", "Tensor[(1, 4), float32]", "dtype=\"int8\"", "Tensor[(1, 4), float32]");
  assert_rejects("annotation.cast_hint", "Tensor[(1, 4), float32]", "dtype=8", "must be a dtype string");
  assert_infers("annotation.compiler_begin", "Tensor[(10, 10), float32]", "compiler=\"ccompiler\"", "Tensor[(10, 10), float32]");
  assert_infers("annotation.compiler_end", "Tensor[(10, 10), float32]", "compiler=\"ccompiler\"", "Tensor[(10, 10), float32]");
  assert_rejects("annotation.compiler_end", "Tensor[(10, 10), float32]", "target=\"x\"", "has no attribute 'target'");
  /* debug's only attribute is debug_func (an EnvFunc); annotation.with_funcid's fid defaults to -1 */
  assert_string_equal(op_lookup("debug")->attrs[0].name, "debug_func");
  assert_string_equal(op_lookup("annotation.with_funcid")->attrs[0].def, "-1");
}

static void test_with_funcid(void **state) {
  (void)state;
  assert_rejects("annotation.with_funcid", "Tensor[(3), float32]", "fid=0", "has no type relation in TVM");
}

#define SQ "relay.op.annotation.simulated_quantize"

static void test_simulated_quantize(void **state) {
  (void)state;
  assert_infers(SQ, "Tensor[(1, 16, 64, 64), float32], float32, float32, float32", "kind=1, sign=True, rounding=\"round\"",
                "Tensor[(1, 16, 64, 64), float32]");
  assert_infers(SQ, "Tensor[(3), float16], float32, float32, float32", "kind=2", "Tensor[(3), float16]");
  assert_rejects(SQ, "float32, float32, float32, float32", "kind=1", "Input shape cannot be empty");
  assert_rejects(SQ, "Tensor[(3), float32], Tensor[(1), float32], float32, float32", "kind=1", "(dom_scale) has type Tensor[(1), float32]");
  assert_rejects(SQ, "Tensor[(3), float32], float32, float32, int32", "kind=1", "(clip_max) has type int32");
  const OpDef *op = op_lookup(SQ);
  assert_int_equal(op->nattrs, 3);
  assert_string_equal(op->attrs[1].def, "True");
  assert_string_equal(op->attrs[2].def, "\"round\"");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identity),
      cmocka_unit_test(test_with_funcid),
      cmocka_unit_test(test_simulated_quantize),
  };
  return cmocka_run_group_tests_name("ops_annotation", tests, NULL, NULL);
}
