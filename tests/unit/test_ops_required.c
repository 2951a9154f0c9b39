/* What TVM v0.13's text parser demands of a call beyond its relation (typegen/ops/required.c):
   attributes it requires written out, and attrs_type_key on ops registered without an attrs type. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../../typegen/ops/ops.h"
#include "op_test.h"

static void test_every_required_pair_names_a_schema_attribute(void **state) {
  (void)state;
  const char *const(*pairs)[2];
  size_t n = op_required_table(&pairs);
  assert_true(n > 50);
  for (size_t i = 0; i < n; i++) { /* in the row of some release: qnn.dequantize's out_dtype is v0.19.0's */
    bool found = false;
    for (int r = 0; r < TVM_RELEASES && !found; r++) {
      const OpDef *op = op_lookup_in(pairs[i][0], (TvmRelease)r);
      size_t k = 0;
      while (op && k < op->nattrs && strcmp(op->attrs[k].name, pairs[i][1]) != 0) k++;
      if (!op || k == op->nattrs) continue;
      op_test_release(op_tvm_release_short((TvmRelease)r));
      assert_true(op_attr_required(op, k));
      found = true;
    }
    if (!found) fail_msg("required.c names %s.%s, which no release's schema has", pairs[i][0], pairs[i][1]);
  }
  op_test_release("0.19");
}

static void test_a_call_without_a_required_attribute_is_rejected_when_strict(void **state) {
  (void)state;
  const char *args = "Tensor[(2, 4), float32], Tensor[(3, 4), float32]";
  char *r = op_test_call("nn.dense", args, "", false); /* by default the default is taken */
  assert_string_equal(r, "Tensor[(2, 3), float32]");
  free(r);
  op_require_written(true); /* rcheck --tvm-strict */
  r = op_test_call("nn.dense", args, "", false);
  assert_non_null(strstr(r, "Cannot find required field 'units'"));
  assert_non_null(strstr(r, "units=None"));
  free(r);
  r = op_test_call("nn.dense", args, "units=None", false);
  assert_string_equal(r, "Tensor[(2, 3), float32]");
  free(r);
  r = op_test_call("strided_slice", "Tensor[(4), float32]", "begin=[0], end=[2], strides=[1]", false);
  assert_non_null(strstr(r, "Cannot find required field 'axes'"));
  free(r);
  r = op_test_call("strided_slice", "Tensor[(4), float32]", "begin=[0], end=[2], strides=[1], axes=None", false);
  assert_string_equal(r, "Tensor[(2), float32]");
  free(r);
  op_require_written(false);
}

static void test_attributes_of_an_op_without_attrs_type_need_its_key(void **state) {
  (void)state;
  const char *args = "Tensor[(3, 4), float32]";
  char *r = op_test_call("cumsum", args, "axis=1", false);
  assert_non_null(strstr(r, "attrs_type_key=\"relay.attrs.ScanopAttrs\""));
  free(r);
  r = op_test_call("cumsum", args, "axis=1, attrs_type_key=\"relay.attrs.ScanopAttrs\"", false);
  assert_string_equal(r, "Tensor[(3, 4), float32]");
  free(r);
  r = op_test_call("cumsum", args, "axis=1, attrs_type_key=\"relay.attrs.DenseAttrs\"", false);
  assert_non_null(strstr(r, "attrs_type_key of cumsum must be \"relay.attrs.ScanopAttrs\""));
  free(r);
  r = op_test_call("cumsum", args, "", false); /* no attributes: nothing to attach */
  assert_string_equal(r, "Tensor[(12), float32]");
  free(r);
}

/* What the generator and the reducer print carries both, so that TVM reads it. */
static void test_printing_writes_required_attributes_and_the_key(void **state) {
  (void)state;
  AstModule *m = ast_module_new(true);
  AstAttr *out[64];
  const OpDef *dense = op_lookup("nn.dense");
  AttrVal *vals = op_default_attrs(dense, &m->arena);
  size_t n = attrs_to_ast(m, dense, vals, out);
  bool units = false;
  for (size_t i = 0; i < n; i++) units = units || !strcmp(out[i]->key, "units");
  assert_true(units);
  const OpDef *cumsum = op_lookup("cumsum");
  vals = op_default_attrs(cumsum, &m->arena);
  /* all defaults: the key alone (without any attributes TVM v0.13.0's cumsum relation reads a
     null struct and crashes) */
  assert_int_equal(attrs_to_ast(m, cumsum, vals, out), 1);
  assert_string_equal(out[0]->key, "attrs_type_key");
  for (size_t k = 0; k < cumsum->nattrs; k++)
    if (!strcmp(cumsum->attrs[k].name, "axis")) vals[k] = (AttrVal){.kind = ATTR_INT, .i = 1, .f = 1};
  n = attrs_to_ast(m, cumsum, vals, out);
  assert_int_equal(n, 2);
  assert_string_equal(out[1]->key, "attrs_type_key");
  assert_string_equal(out[1]->value->text, "\"relay.attrs.ScanopAttrs\"");
  ast_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_required_pair_names_a_schema_attribute),
      cmocka_unit_test(test_a_call_without_a_required_attribute_is_rejected_when_strict),
      cmocka_unit_test(test_attributes_of_an_op_without_attrs_type_need_its_key),
      cmocka_unit_test(test_printing_writes_required_attributes_and_the_key),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
