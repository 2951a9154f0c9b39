/* The meta, attrs and literals passes and dce's type-definition deletion: what each proposes on
   small programs (rt_apply aborts on an ill-typed proposal), and the metadata rewrite on the
   corpus.  Run from the repository root (the corpus is ../shared/corpus). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "../../reduce/meta_json.h"
#include "../../support/fileio.h"
#include "../../typegen/infer/infer.h"
#include "reduce_test.h"

/* Three constants: float32 (2, 2), float32 (3), int32 (2, 3), sharing one VirtualDevice node (4).
   The node numbers are in the comments. */
#define META3 \
    "#[metadata]\n" \
    "{\"root\": 1, \"nodes\": [\n" \
    "  {\"type_key\": \"\"},\n" /* 0 */ \
    "  {\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]},\n" /* 1 */ \
    "  {\"type_key\": \"Array\", \"data\": [3, 10, 14]},\n" /* 2 */ \
    "  {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"6\", \"data\": \"0\", \"span\": \"0\", \"virtual_device_\": \"4\"}},\n" /* 3 */ \
    "  {\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"-1\", \"memory_scope\": \"5\", \"target\": \"0\", \"virtual_device_id\": \"-1\"}},\n" /* 4 */ \
    "  {\"type_key\": \"runtime.String\"},\n" /* 5 */ \
    "  {\"type_key\": \"relay.TensorType\", \"attrs\": {\"dtype\": \"float32\", \"shape\": \"7\", \"span\": \"0\"}},\n" /* 6 */ \
    "  {\"type_key\": \"Array\", \"data\": [8, 9]},\n" /* 7 */ \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"2\"}},\n" /* 8 */ \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"2\"}},\n" /* 9 */ \
    "  {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"11\", \"data\": \"1\", \"span\": \"0\", \"virtual_device_\": \"4\"}},\n" /* 10 */ \
    "  {\"type_key\": \"relay.TensorType\", \"attrs\": {\"dtype\": \"float32\", \"shape\": \"12\", \"span\": \"0\"}},\n" /* 11 */ \
    "  {\"type_key\": \"Array\", \"data\": [13]},\n" /* 12 */ \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"3\"}},\n" /* 13 */ \
    "  {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"15\", \"data\": \"2\", \"span\": \"0\", \"virtual_device_\": \"4\"}},\n" /* 14 */ \
    "  {\"type_key\": \"relay.TensorType\", \"attrs\": {\"dtype\": \"int32\", \"shape\": \"16\", \"span\": \"0\"}},\n" /* 15 */ \
    "  {\"type_key\": \"Array\", \"data\": [17, 18]},\n" /* 16 */ \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"2\"}},\n" /* 17 */ \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"3\"}}\n" /* 18 */ \
    "], \"b64ndarrays\": [\n" \
    "  \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAIAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\",\n" \
    "  \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQADAAAAAAAAAAwAAAAAAAAAAAAAAAAAAAAAAAAA\",\n" \
    "  \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAAgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"\n" \
    "], \"attrs\": {\"tvm_version\": \"0.13.0\"}}\n" \

/* Uses the 2nd and 3rd constants only. */
static const char uses_two[] = RT_V
    "def @main(%x: Tensor[(3), float32], %y: Tensor[(2, 3), int32]) {\n"
    "  %0 = add(%x, meta[relay.Constant][1]);\n"
    "  %1 = multiply(%y, meta[relay.Constant][2]);\n"
    "  (%0, %1)\n"
    "}\n"
    "\n" META3;

/* The type of @main in a program text. */
static char *main_type(const char *text) {
  Program p;
  char err[512];
  if (!prog_load(&p, "candidate", text, true, err, sizeof err)) fail_msg("%s", err);
  char *s = ty_str(prog_main(p.m)->fn->type);
  prog_free(&p);
  return s;
}

static json_t *metadata_json(const char *text) {
  const char *m = strstr(text, "#[metadata]");
  assert_non_null(m);
  json_error_t e;
  json_t *j = json_loads(strchr(m, '{'), 0, &e);
  assert_non_null(j);
  return j;
}

static void test_meta_drops_the_unused_constant_and_renumbers(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_meta, uses_two), 1);
  char *c = rt_apply(&red_pass_meta, uses_two, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "add(%x, meta[relay.Constant][0])"));
  assert_non_null(strstr(c, "multiply(%y, meta[relay.Constant][1])"));
  assert_null(strstr(c, "meta[relay.Constant][2]"));
  char *before = main_type(uses_two), *after = main_type(c);
  assert_string_equal(before, after);
  free(before);
  free(after);
  /* the graph: nodes 3, 6..9 (constant 0, its type, shape and dims) and ndarray 0 are gone; the
     others keep their order, renumbered */
  json_t *j = metadata_json(c), *nodes = json_object_get(j, "nodes");
  assert_int_equal(json_array_size(nodes), 14);
  json_t *list = json_object_get(json_array_get(nodes, 2), "data");
  assert_int_equal(json_array_size(list), 2);
  assert_int_equal(json_integer_value(json_array_get(list, 0)), 5);
  assert_int_equal(json_integer_value(json_array_get(list, 1)), 9);
  json_t *c1 = json_object_get(json_array_get(nodes, 5), "attrs"), *c2 = json_object_get(json_array_get(nodes, 9), "attrs");
  assert_string_equal(json_string_value(json_object_get(c1, "_checked_type_")), "6");
  assert_string_equal(json_string_value(json_object_get(c1, "virtual_device_")), "3");
  assert_string_equal(json_string_value(json_object_get(c1, "data")), "0");
  assert_string_equal(json_string_value(json_object_get(c2, "_checked_type_")), "10");
  assert_string_equal(json_string_value(json_object_get(c2, "data")), "1");
  json_t *vd = json_object_get(json_array_get(nodes, 3), "attrs");
  assert_string_equal(json_string_value(json_object_get(vd, "memory_scope")), "4");
  assert_int_equal(json_array_size(json_object_get(j, "b64ndarrays")), 2);
  json_decref(j);
  /* what the checker reads back: shapes and dtypes of the two kept constants */
  MetaTable t;
  char err[256];
  assert_true(meta_table_init(&t, strstr(c, "#[metadata]"), err, sizeof err, NULL));
  assert_int_equal(t.nconsts, 2);
  assert_int_equal(t.consts[0].ndims, 1);
  assert_int_equal(t.consts[0].dims[0], 3);
  assert_int_equal(t.consts[1].ndims, 2);
  assert_int_equal(t.consts[1].dtype.code, DT_INT);
  meta_table_free(&t);
  /* a fixpoint, and deterministic */
  assert_int_equal(rt_count(&red_pass_meta, c), 0);
  char *again = rt_apply(&red_pass_meta, uses_two, 0);
  assert_string_equal(c, again);
  free(again);
  free(c);
}

static void test_meta_drops_the_section_nothing_references(void **state) {
  (void)state;
  const char *p = RT_V "def @main(%x: float32) {\n  %x\n}\n\n" META3;
  assert_int_equal(rt_count(&red_pass_meta, p), 1);
  char *c = rt_apply(&red_pass_meta, p, 0);
  assert_non_null(c);
  assert_null(strstr(c, "#[metadata]"));
  free(c);
  /* every constant used: nothing to do */
  const char *all = RT_V
      "def @main(%x: float32) {\n"
      "  (meta[relay.Constant][0], meta[relay.Constant][1], meta[relay.Constant][2])\n"
      "}\n\n" META3;
  assert_int_equal(rt_count(&red_pass_meta, all), 0);
}

static void test_meta_leaves_a_graph_it_does_not_understand(void **state) {
  (void)state;
  /* an unknown node type with attributes: its numbers might be references or values */
  char *p = strdup(uses_two);
  char *vd = strstr(p, "\"VirtualDevice\"");
  memcpy(vd, "\"MysteryThing\"", strlen("\"MysteryThing\""));
  memmove(vd + strlen("\"MysteryThing\""), vd + strlen("\"VirtualDevice\""), strlen(vd + strlen("\"VirtualDevice\"")) + 1);
  assert_null(rt_apply(&red_pass_meta, p, 0));
  free(p);
}

/* Keeping every constant of a real model rewrites its metadata byte for byte: the printer
   writes what TVM writes. */
static void test_meta_json_round_trips_corpus_metadata(void **state) {
  (void)state;
  const char *files[] = {"../shared/corpus/features/constants_metadata.relay",
                         "../shared/corpus/models/synthetic.bound.relay"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    size_t len;
    char *text = file_read(files[f], &len);
    if (!text) fail_msg("cannot read %s (run from the repository root)", files[f]);
    const char *section = strstr(text, "#[metadata]");
    MetaTable t;
    char err[256];
    assert_true(meta_table_init(&t, section, err, sizeof err, NULL));
    size_t keep[64];
    for (size_t i = 0; i < t.nconsts; i++) keep[i] = i;
    char *out = meta_json_keep_constants(section, keep, t.nconsts, err, sizeof err);
    assert_non_null(out);
    assert_string_equal(out, section);
    free(out);
    meta_table_free(&t);
    free(text);
  }
}

/* ------------------------------------------------------------------ consts, and constants that shrink */

/* Both constants @main reads become parameters of their types; the one it does not read stays. */
static void test_consts_turns_constants_into_parameters(void **state) {
  (void)state;
  assert_int_equal(rt_count(&red_pass_consts, uses_two), 2);
  char *c = rt_apply(&red_pass_consts, uses_two, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "%const0: Tensor[(3), float32]"));
  assert_non_null(strstr(c, "add(%x, %const0)"));
  assert_non_null(strstr(c, "multiply(%y, meta[relay.Constant][2])"));
  free(c);
  Program p;
  char err[512];
  assert_true(prog_load(&p, "test", uses_two, true, err, sizeof err));
  assert_true(rt_check_chunk(&red_pass_consts, &p, 0, 2, true)); /* both at once, as one by one */
  char *both = red_propose_range(&p, &red_pass_consts, 0, 2);
  *strstr(both, "#[metadata]") = '\0';
  assert_null(strstr(both, "meta[relay.Constant]["));
  assert_non_null(strstr(both, "%const0: Tensor[(2, 3), int32], %const1: Tensor[(3), float32]"));
  free(both);
  prog_free(&p);
}

/* One int32 (2, 3) constant holding 0..5. */
#define META_RANGE \
    "#[metadata]\n" \
    "{\"root\": 1, \"nodes\": [\n" \
    "  {\"type_key\": \"\"},\n" \
    "  {\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]},\n" \
    "  {\"type_key\": \"Array\", \"data\": [3]},\n" \
    "  {\"type_key\": \"relay.Constant\", \"attrs\": {\"_checked_type_\": \"4\", \"data\": \"0\", \"span\": \"0\", \"virtual_device_\": \"0\"}},\n" \
    "  {\"type_key\": \"relay.TensorType\", \"attrs\": {\"dtype\": \"int32\", \"shape\": \"5\", \"span\": \"0\"}},\n" \
    "  {\"type_key\": \"Array\", \"data\": [6, 7]},\n" \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"2\"}},\n" \
    "  {\"type_key\": \"IntImm\", \"attrs\": {\"dtype\": \"int32\", \"span\": \"0\", \"value\": \"3\"}}\n" \
    "], \"b64ndarrays\": [\n" \
    "  \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAAgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAAAAAQAAAAIAAAADAAAABAAAAAUAAAA=\"\n" \
    "], \"attrs\": {\"tvm_version\": \"0.13.0\"}}\n"

/* The NDArray of the only constant of `section`: its shape, and its int32 elements (at most 8). */
static size_t constant_data(const char *section, int64_t *dims, size_t *ndims, int32_t *elems) {
  json_t *j = metadata_json(section);
  const char *b64 = json_string_value(json_array_get(json_object_get(j, "b64ndarrays"), 0));
  unsigned char bytes[256];
  size_t n = 0;
  unsigned acc = 0;
  int bits = 0;
  for (const char *q = b64; *q && *q != '='; q++) {
    const char *digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    acc = (acc << 6) | (unsigned)(strchr(digits, *q) - digits);
    if ((bits += 6) >= 8) bytes[n++] = (unsigned char)(acc >> (bits -= 8));
  }
  json_decref(j);
  memcpy(&bits, bytes + 24, 4);
  *ndims = (size_t)bits;
  memcpy(dims, bytes + 32, *ndims * 8);
  int64_t size;
  memcpy(&size, bytes + 32 + *ndims * 8, 8);
  memcpy(elems, bytes + 40 + *ndims * 8, (size_t)size);
  return (size_t)size / 4;
}

/* A size cut in a constant keeps the first elements along that axis; its type node follows. */
static void test_resize_constants_cuts_the_data(void **state) {
  (void)state;
  int64_t dims[4];
  int32_t e[8];
  size_t nd, changed;
  char err[256];
  char *cut = meta_json_resize_constants(META_RANGE, 3, 1, &changed, err, sizeof err);
  assert_non_null(cut);
  assert_int_equal(changed, 1);
  assert_int_equal(constant_data(cut, dims, &nd, e), 2);
  assert_int_equal(nd, 2);
  assert_int_equal(dims[0], 2);
  assert_int_equal(dims[1], 1);
  assert_int_equal(e[0], 0);
  assert_int_equal(e[1], 3); /* rows [0 1 2] and [3 4 5] keep their first element */
  assert_non_null(strstr(cut, "\"value\": \"1\""));
  assert_null(strstr(cut, "\"value\": \"3\""));
  MetaTable t;
  assert_true(meta_table_init(&t, cut, err, sizeof err, NULL)); /* what the checker reads */
  assert_int_equal(t.consts[0].dims[1], 1);
  meta_table_free(&t);
  free(cut);
  cut = meta_json_resize_constants(META_RANGE, 2, 1, &changed, err, sizeof err);
  assert_int_equal(constant_data(cut, dims, &nd, e), 3);
  assert_int_equal(dims[0], 1);
  assert_int_equal(e[0], 0);
  assert_int_equal(e[2], 2);
  free(cut);
  /* no such size: the section as it was */
  cut = meta_json_resize_constants(META_RANGE, 7, 1, &changed, err, sizeof err);
  assert_int_equal(changed, 0);
  assert_string_equal(cut, META_RANGE);
  free(cut);
}

/* Sizes a constant pins shrink with it: the input's 3 and the constant's (a dense's weight must
   match), and the 2 only the constant has. */
static void test_shapes_shrink_constants_with_the_inputs(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(1, 3), int32]) {\n"
      "  nn.dense(%x, meta[relay.Constant][0])\n"
      "}\n"
      "\n" META_RANGE;
  /* 3 and 2 (to 1, to half), int32 to float32 (all, the one), %x's unit dim, all halved */
  assert_int_equal(rt_count(&red_pass_shapes, p), 8);
  char *c = rt_apply(&red_pass_shapes, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "%x: Tensor[(1, 1), int32]"));
  MetaTable t;
  char err[256];
  assert_true(meta_table_init(&t, strstr(c, "#[metadata]"), err, sizeof err, NULL));
  assert_int_equal(t.consts[0].dims[0], 2);
  assert_int_equal(t.consts[0].dims[1], 1);
  meta_table_free(&t);
  free(c);
  c = rt_apply(&red_pass_shapes, p, 2); /* 2 -> 1: the constant alone */
  assert_non_null(c);
  assert_non_null(strstr(c, "%x: Tensor[(1, 3), int32]"));
  assert_true(meta_table_init(&t, strstr(c, "#[metadata]"), err, sizeof err, NULL));
  assert_int_equal(t.consts[0].dims[0], 1);
  meta_table_free(&t);
  free(c);
}

/* ------------------------------------------------------------------ attrs */
static void test_attrs_reset_keeps_the_type(void **state) {
  (void)state;
  /* channels and kernel_size follow from the weight; strides is written with its default */
  const char *p = RT_V
      "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) -> Tensor[(1, 4, 6, 6), float32] {\n"
      "  nn.conv2d(%x, %w, strides=[1, 1], channels=4, kernel_size=[3, 3])\n"
      "}\n";
  /* two opportunities per attribute not at its default: reset it, or its integers to 1 */
  assert_int_equal(rt_count(&red_pass_attrs, p), 4);
  char *c = rt_apply(&red_pass_attrs, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.conv2d(%x, %w, strides=[1, 1], kernel_size=[3, 3])"));
  free(c);
  c = rt_apply(&red_pass_attrs, p, 2);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.conv2d(%x, %w, strides=[1, 1], channels=4)"));
  free(c);
  /* channels=1 and kernel_size=[1, 1] contradict the weight: the guard refuses both */
  assert_null(rt_apply(&red_pass_attrs, p, 1));
  assert_null(rt_apply(&red_pass_attrs, p, 3));
}

static void test_attrs_shrink_integers_to_one(void **state) {
  (void)state;
  /* pool_size has no default: only shrinking it can make the window, and so the input, smaller */
  const char *p = RT_V "def @main(%x: Tensor[(1, 2, 9, 9), float32]) {\n  nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2])\n}\n";
  assert_int_equal(rt_count(&red_pass_attrs, p), 4);
  assert_null(rt_apply(&red_pass_attrs, p, 0)); /* pool_size is required */
  char *c = rt_apply(&red_pass_attrs, p, 1);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.max_pool2d(%x, pool_size=[1, 1], strides=[2, 2])"));
  free(c);
  c = rt_apply(&red_pass_attrs, p, 3);
  assert_non_null(c);
  assert_non_null(strstr(c, "nn.max_pool2d(%x, pool_size=[3, 3], strides=[1, 1])"));
  free(c);
}

static void test_attrs_reset_that_breaks_typing_is_not_proposed(void **state) {
  (void)state;
  /* without axis, sum reduces everything: a scalar, not the declared result */
  const char *p = RT_V "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2), float32] {\n  sum(%x, axis=[1])\n}\n";
  assert_int_equal(rt_count(&red_pass_attrs, p), 2);
  assert_null(rt_apply(&red_pass_attrs, p, 0));
  char *c = rt_apply(&red_pass_attrs, p, 1); /* axis=[1] has no integer above 1: nothing */
  assert_null(c);
}

static void test_attrs_of_an_op_without_attrs_type(void **state) {
  (void)state;
  /* attrs_type_key is not in cumsum's schema: it is an opportunity only once it stands alone */
  const char *p = RT_V "def @main(%x: Tensor[(2, 3), float32]) {\n"
                       "  cumsum(%x, axis=1, attrs_type_key=\"relay.attrs.ScanopAttrs\")\n}\n";
  assert_int_equal(rt_count(&red_pass_attrs, p), 2);
  char *c = rt_apply(&red_pass_attrs, p, 0);
  assert_non_null(c);
  assert_non_null(strstr(c, "cumsum(%x, attrs_type_key=\"relay.attrs.ScanopAttrs\")"));
  assert_int_equal(rt_count(&red_pass_attrs, c), 2);
  char *d = rt_apply(&red_pass_attrs, c, 0);
  assert_non_null(d);
  assert_non_null(strstr(d, "cumsum(%x)"));
  free(d);
  free(c);
}

/* ------------------------------------------------------------------ literals */
static void test_literals_shrink_to_zero_then_one_in_their_width(void **state) {
  (void)state;
  const char *p = RT_V
      "def @main(%x: Tensor[(2), float32]) {\n"
      "  %0 = add(%x, 2.5f);\n"
      "  %1 = multiply(%0, 1f);\n"
      "  %2 = nn.leaky_relu(%1, alpha=0.2f);\n"
      "  (%2, -3i16, 0f16)\n"
      "}\n";
  /* 2.5f: 0f, 1f;  1f: 0f;  -3i16: 0i16, 1i16;  0f16: none;  alpha is an attribute */
  size_t n = rt_count(&red_pass_literals, p);
  assert_int_equal(n, 5);
  const char *expect[] = {"add(%x, 0f)", "add(%x, 1f)", "multiply(%0, 0f)", "(%2, 0i16, 0f16)", "(%2, 1i16, 0f16)"};
  bool seen[5] = {false};
  for (size_t i = 0; i < n; i++) {
    char *c = rt_apply(&red_pass_literals, p, i);
    assert_non_null(c);
    assert_non_null(strstr(c, "alpha=0.2f"));
    for (size_t k = 0; k < 5; k++) seen[k] |= strstr(c, expect[k]) != NULL;
    free(c);
  }
  for (size_t k = 0; k < 5; k++) assert_true(seen[k]);
  assert_int_equal(rt_count(&red_pass_literals, RT_V "def @main() {\n  (0, 1f, -1i64)\n}\n"), 2);
}

/* ------------------------------------------------------------------ dce: type definitions */
static void test_dce_deletes_unused_type_definitions(void **state) {
  (void)state;
  /* Outer names Inner in a field only: once Outer goes, Inner is unused too */
  const char *p = RT_V
      "type Inner {\n  I(int32),\n}\n\n"
      "type Outer {\n  O(Inner[]),\n}\n\n"
      "type Used {\n  U,\n}\n\n"
      "def @main(%x: Used[]) {\n  %x\n}\n";
  char *c = rt_apply(&red_pass_dce, p, 0);
  assert_non_null(c);
  assert_null(strstr(c, "Inner"));
  assert_null(strstr(c, "Outer"));
  assert_non_null(strstr(c, "type Used"));
  free(c);
}

static void test_dce_keeps_a_type_whose_constructor_a_pattern_uses(void **state) {
  (void)state;
  const char *p = RT_V
      "type Opt {\n  Nothing,\n  Just(int32),\n}\n\n"
      "def @main(%x) {\n  match (%x) {\n    Just(%y) => %y,\n    _ => 0,\n  }\n}\n";
  assert_null(rt_apply(&red_pass_dce, p, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_meta_drops_the_unused_constant_and_renumbers),
      cmocka_unit_test(test_meta_drops_the_section_nothing_references),
      cmocka_unit_test(test_meta_leaves_a_graph_it_does_not_understand),
      cmocka_unit_test(test_meta_json_round_trips_corpus_metadata),
      cmocka_unit_test(test_consts_turns_constants_into_parameters),
      cmocka_unit_test(test_resize_constants_cuts_the_data),
      cmocka_unit_test(test_shapes_shrink_constants_with_the_inputs),
      cmocka_unit_test(test_attrs_reset_keeps_the_type), cmocka_unit_test(test_attrs_shrink_integers_to_one),
      cmocka_unit_test(test_attrs_reset_that_breaks_typing_is_not_proposed),
      cmocka_unit_test(test_attrs_of_an_op_without_attrs_type),
      cmocka_unit_test(test_literals_shrink_to_zero_then_one_in_their_width),
      cmocka_unit_test(test_dce_deletes_unused_type_definitions),
      cmocka_unit_test(test_dce_keeps_a_type_whose_constructor_a_pattern_uses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
