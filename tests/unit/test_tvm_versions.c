/*
 * The registry knows two TVM releases (typegen/ops/tvm_version.c): --tvm-version's spellings, and
 * every difference between v0.13.0 and v0.19.0 (an op or attribute that exists in one only is
 * accepted by that release and refused by the other with a message naming the release; the
 * relations that changed give each release's types, as measured on both TVM builds).  No TVM needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../../support/diag.h"
#include "../../typegen/infer/infer.h"
#include "op_test.h"

/* --tvm-version's spellings: the known releases, forks and pre-releases mapped to the nearest
   (said on stderr), the rest refused with the known releases named. */
static void test_choosing_a_release(void **state) {
  (void)state;
  char err[256];
  static const struct {
    const char *text;
    TvmRelease want;
  } ok[] = {{"0.13", TVM_0_13},   {"0.13.0", TVM_0_13},        {"v0.19.0", TVM_0_19},
            {"0.19", TVM_0_19},   {"0.19.dev0", TVM_0_19},     {"0.18.0+vendor", TVM_0_19},
            {"0.14.dev0", TVM_0_13}, {"0.11.1+fork", TVM_0_13}};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    if (!op_tvm_choose(ok[i].text, err, sizeof err)) fail_msg("%s: %s", ok[i].text, err);
    assert_int_equal(op_tvm(), ok[i].want);
    assert_string_equal(getenv("RELAYKIT_TVM_VERSION"), op_tvm_release_short(ok[i].want)); /* for the tools it runs */
  }
  assert_string_equal(op_tvm_name(), "0.13.0");
  static const struct {
    const char *text, *fragment;
  } bad[] = {{"0.15", "not 0.15 (for a TVM between them, give the nearest: --tvm-version 0.13)"},
             {"0.17.0", "give the nearest: --tvm-version 0.19"},
             {"0.20.0", "has no Relay"},
             {"1.0", "has no Relay"},
             {"0.5.0+x", "relaykit knows TVM 0.13 (v0.13.0) and 0.19 (v0.19.0), not 0.5.0+x"},
             {"latest", "'latest' is not a TVM version; relaykit knows 0.13 (v0.13.0) and 0.19 (v0.19.0)"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (op_tvm_choose(bad[i].text, err, sizeof err)) fail_msg("%s was accepted", bad[i].text);
    if (!strstr(err, bad[i].fragment)) fail_msg("%s: \"%s\" lacks \"%s\"", bad[i].text, err, bad[i].fragment);
  }
  assert_int_equal(op_tvm(), TVM_0_13); /* a refused value changes nothing */
}

/* The operator sets: the six Ethos-U ops are v0.13.0's, regular_non_max_suppression is v0.19.0's. */
static void test_operator_sets(void **state) {
  (void)state;
  static const char *const v13_only[] = {"contrib.ethosu.binary_elementwise", "contrib.ethosu.conv2d",
                                         "contrib.ethosu.depthwise_conv2d",   "contrib.ethosu.identity",
                                         "contrib.ethosu.pooling",            "contrib.ethosu.unary_elementwise"};
  size_t n13, n19;
  op_test_release("0.13");
  op_all(&n13);
  for (size_t i = 0; i < 6; i++) {
    assert_non_null(op_lookup(v13_only[i]));
    assert_null(op_lookup_in(v13_only[i], TVM_0_19));
  }
  assert_null(op_lookup("vision.regular_non_max_suppression"));
  assert_int_equal(op_tvm_elsewhere("vision.regular_non_max_suppression"), TVM_0_19);
  op_test_release("0.19");
  op_all(&n19);
  assert_int_equal(n13, 300); /* TVM v0.13.0's 302 Relay ops less hardswish and scatter (README) */
  assert_int_equal(n19, n13 - 6 + 1);
  assert_non_null(op_lookup("vision.regular_non_max_suppression"));
  for (size_t i = 0; i < 6; i++) {
    assert_null(op_lookup(v13_only[i]));
    assert_int_equal(op_tvm_elsewhere(v13_only[i]), TVM_0_13);
  }
  assert_int_equal(op_tvm_elsewhere("nn.conv2d"), TVM_0_13); /* in both: "elsewhere" is any other */
  assert_int_equal(op_tvm_elsewhere("my.custom_op"), -1);
}

/* rcheck's message for a call of an op the chosen release lacks: an error naming the release that
   has it (an op no release has is still typed from its ty= comment, with a warning). */
static char *check(const char *text) {
  AstModule *m = NULL;
  TyTable *types = NULL;
  Diag d;
  diag_init(&d, "t.relay", text, strlen(text));
  bool ok = check_text(text, strlen(text), true, &m, &types, &d);
  char *out = strdup(ok ? (d.warnings ? "accepted with a warning" : "accepted") : d.out.data ? d.out.data : "rejected");
  if (m) ast_free(m);
  if (types) ty_table_free(types);
  diag_free(&d);
  return out;
}

static void test_calls_of_an_op_another_release_has(void **state) {
  (void)state;
  const char *ethosu = "#[version = \"0.0.5\"]\n"
                       "def @main(%x: Tensor[(1, 8, 8, 3), int8]) {\n"
                       "  contrib.ethosu.identity(%x, %x) /* ty=Tensor[(1, 8, 8, 3), int8] */\n}\n";
  op_test_release("0.19");
  char *r = check(ethosu);
  assert_non_null(strstr(r, "operator contrib.ethosu.identity is not in TVM v0.19.0's registry (TVM v0.13.0 has it: "
                            "--tvm-version 0.13)"));
  free(r);
  const char *custom = "#[version = \"0.0.5\"]\n"
                       "def @main(%x: Tensor[(2), int8]) {\n  my.op(%x) /* ty=Tensor[(2), int8] */\n}\n";
  r = check(custom);
  assert_string_equal(r, "accepted with a warning");
  free(r);
  const char *nms = "#[version = \"0.0.5\"]\n"
                    "def @main(%b: Tensor[(1, 10, 4), float32], %s: Tensor[(1, 10, 3), float32]) {\n"
                    "  vision.regular_non_max_suppression(%b, %s, max_detections_per_class=3, max_detections=5, "
                    "num_classes=2, iou_threshold=0.5f, score_threshold=0.1f, "
                    "attrs_type_key=\"relay.attrs.RegularNonMaximumSuppressionAttrs\")\n}\n";
  r = check(nms);
  assert_string_equal(r, "accepted");
  free(r);
  op_test_release("0.13");
  r = check(nms);
  assert_non_null(strstr(r, "is not in TVM v0.13.0's registry (TVM v0.19.0 has it: --tvm-version 0.19)"));
  free(r);
  r = check(ethosu);
  assert_string_equal(r, "accepted");
  free(r);
  op_test_release("0.19");
}

/* Attributes one release has: accepted there, refused by the other naming the release. */
static void test_attributes_of_one_release(void **state) {
  (void)state;
  static const struct {
    const char *op, *args, *v13, *v19, *attr_v13, *attr_v19;
  } pairs[] = {
      {"vision.multibox_transform_loc", "Tensor[(1, 3, 5), float32], Tensor[(1, 20), float32], Tensor[(1, 5, 4), float32]",
       "clip=False", "keep_background=True", NULL, "keep_background"},
      {"qnn.dequantize", "Tensor[(4, 6), int8], float32, int32", "axis=1", "out_dtype=\"float16\"", NULL, "out_dtype"},
      {"qnn.simulated_dequantize", "Tensor[(4, 6), float32], int32, float32, int32", "axis=1", "out_dtype=\"float32\"",
       NULL, "out_dtype"},
      {"nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), int8]", "tile_rows=4, tile_cols=16",
       "tile_N=4, tile_K=16", "tile_rows", "tile_N"},
  };
  char want[256];
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    op_test_release("0.13");
    char *r = op_test_infer(pairs[i].op, pairs[i].args, pairs[i].v13);
    if (!strncmp(r, "error", 5)) fail_msg("v0.13.0: %s(%s): %s", pairs[i].op, pairs[i].v13, r);
    free(r);
    r = op_test_infer(pairs[i].op, pairs[i].args, pairs[i].v19);
    snprintf(want, sizeof want, "has no attribute '%s' in TVM v0.13.0 (TVM v0.19.0 has it: --tvm-version 0.19)",
             pairs[i].attr_v19);
    if (!strstr(r, want)) fail_msg("v0.13.0: %s(%s) gave \"%s\"", pairs[i].op, pairs[i].v19, r);
    free(r);
    op_test_release("0.19");
    r = op_test_infer(pairs[i].op, pairs[i].args, pairs[i].v19);
    if (!strncmp(r, "error", 5)) fail_msg("v0.19.0: %s(%s): %s", pairs[i].op, pairs[i].v19, r);
    free(r);
    if (!pairs[i].attr_v13) continue;
    r = op_test_infer(pairs[i].op, pairs[i].args, pairs[i].v13);
    snprintf(want, sizeof want, "has no attribute '%s' in TVM v0.19.0 (TVM v0.13.0 has it: --tvm-version 0.13)",
             pairs[i].attr_v13);
    if (!strstr(r, want)) fail_msg("v0.19.0: %s(%s) gave \"%s\"", pairs[i].op, pairs[i].v13, r);
    free(r);
  }
}

/* Required attributes per release: v0.19.0's parser needs dequantize's out_dtype written out. */
static void test_required_per_release(void **state) {
  (void)state;
  const char *args = "Tensor[(4, 6), int8], float32, int32";
  op_require_written(true);
  op_test_release("0.13");
  char *r = op_test_call("qnn.dequantize", args, "", false);
  assert_string_equal(r, "Tensor[(4, 6), float32]");
  free(r);
  op_test_release("0.19");
  r = op_test_call("qnn.dequantize", args, "", false);
  assert_non_null(strstr(r, "Cannot find required field 'out_dtype'"));
  free(r);
  r = op_test_call("qnn.dequantize", args, "out_dtype=\"float32\"", false);
  assert_string_equal(r, "Tensor[(4, 6), float32]");
  free(r);
  op_require_written(false);
  r = op_test_call("qnn.dequantize", args, "", false); /* by default the default is taken */
  assert_string_equal(r, "Tensor[(4, 6), float32]");
  free(r);
}

/* The relations that changed, each release's types (the programs of tests/tvm/, measured on both
   builds: the same call accepted by one and refused by the other). */
static void test_relations_per_release(void **state) {
  (void)state;
  const char *dw_args = "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 2, 3, 3, 3), float32]";
  const char *dw_attrs = "groups=4, channels=8, kernel_size=[3, 3, 3]";
  const char *q_args = "Tensor[(1, 4, 5, 5), int8], Tensor[(8, 2, 3, 3), int8], int32, int32, float32, Tensor[(%d), float32]";
  const char *q_attrs = "groups=2, channels=8, kernel_size=[3, 3], out_dtype=\"int32\"";
  char q8[256], q16[256];
  snprintf(q8, sizeof q8, q_args, 8);
  snprintf(q16, sizeof q16, q_args, 16);
  op_test_release("0.13");
  assert_rejects("nn.conv3d", dw_args, dw_attrs, "requires Tensor[(8, 1, 3, 3, 3), float32]");
  assert_infers("qnn.conv2d", q16, q_attrs, "Tensor[(1, 8, 3, 3), int32]");
  assert_rejects("qnn.conv2d", q8, q_attrs, "requires Tensor[(16), float32]");
  assert_rejects("qnn.quantize", "Tensor[(4, 6), float32], float32, int32", "out_dtype=\"uint16\"",
                 "Output type should be one of [int8, unit8, int16, int32] but was uint16");
  assert_rejects("qnn.dequantize", "Tensor[(4, 6), uint16], float32, int32", "",
                 "Input type should be one of the quantized types [unit8, int8, int16, int32] but was uint16");
  assert_infers("memory.alloc_storage", "int64, int64", "", "Storage[]");
  op_test_release("0.19");
  assert_infers("nn.conv3d", dw_args, dw_attrs, "Tensor[(1, 8, 3, 3, 3), float32]");
  assert_infers("qnn.conv2d", q8, q_attrs, "Tensor[(1, 8, 3, 3), int32]");
  assert_rejects("qnn.conv2d", q16, q_attrs, "requires Tensor[(8), float32]");
  assert_infers("qnn.quantize", "Tensor[(4, 6), float32], float32, int32", "out_dtype=\"uint16\"",
                "Tensor[(4, 6), uint16]");
  assert_infers("qnn.dequantize", "Tensor[(4, 6), uint16], float32, int32", "", "Tensor[(4, 6), float32]");
  assert_infers("qnn.dequantize", "Tensor[(4, 6), int8], float32, int32", "out_dtype=\"float16\"",
                "Tensor[(4, 6), float16]");
  assert_rejects("qnn.dequantize", "Tensor[(4, 6), int8], float32, int32", "out_dtype=\"float64\"",
                 "Output type should be one of [float16, float32] but was float64");
  assert_rejects("memory.alloc_storage", "int64, int64", "", "expects 3 arguments, got 2");
  assert_infers("memory.alloc_storage", "int64, Tensor[(2), int64], int64", "", "Storage[]");
  /* RegularNMSRel: both inputs 3-D, whatever their dtypes; the result's dtypes are fixed */
  const char *nms = "max_detections_per_class=3, max_detections=5, num_classes=2, iou_threshold=0.5f, "
                    "score_threshold=0.1f, attrs_type_key=\"relay.attrs.RegularNonMaximumSuppressionAttrs\"";
  assert_infers("vision.regular_non_max_suppression", "Tensor[(2, 10, 4), float16], Tensor[(2, 10, 3), int32]", nms,
                "(Tensor[(2, 5, 4), float32], Tensor[(2, 5), float32], Tensor[(2, 5), float32], Tensor[(2), int32])");
  assert_rejects("vision.regular_non_max_suppression", "Tensor[(10, 4), float32], Tensor[(1, 10, 3), float32]", nms,
                 "Input boxes should be 3-D.");
  assert_rejects("vision.regular_non_max_suppression", "Tensor[(1, 10, 4), float32], Tensor[(1, 10, 3), float32]",
                 "max_detections=5, attrs_type_key=\"relay.attrs.RegularNonMaximumSuppressionAttrs\"",
                 "Cannot find required field 'max_detections_per_class'");
  char *r = op_test_call("vision.regular_non_max_suppression", "Tensor[(1, 10, 4), float32], Tensor[(1, 10, 3), float32]",
                         "", false);
  assert_non_null(strstr(r, "the call has no attributes, which the type relation needs"));
  free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_choosing_a_release),        cmocka_unit_test(test_operator_sets),
      cmocka_unit_test(test_calls_of_an_op_another_release_has), cmocka_unit_test(test_attributes_of_one_release),
      cmocka_unit_test(test_required_per_release),      cmocka_unit_test(test_relations_per_release),
  };
  return cmocka_run_group_tests_name("tvm_versions", tests, NULL, NULL);
}
