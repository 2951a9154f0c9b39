/* The pipeline a TVM test runs (reduce/pipeline.h) and the passes that reduce it (pass_pipe.c),
   without a test process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../reduce/reduce.h"

static RedPipeline parse(const char *json) {
  RedPipeline p;
  char err[256];
  if (!red_pipeline_parse(&p, json, "test", err, sizeof err)) fail_msg("%s", err);
  return p;
}

static void test_json_round_trip(void **state) {
  (void)state;
  RedPipeline p = parse("{\"check\": \"pass\", \"passes\": [\"FoldConstant\", \"FuseOps(fuse_opt_level=2)\"], "
                        "\"opt_level\": 3, \"disabled_pass\": [\"AlterOpLayout\"], \"ran\": [\"InferType\"]}");
  assert_true(p.has_passes);
  assert_int_equal(p.npasses, 2);
  assert_int_equal(p.opt_level, 3);
  assert_int_equal(p.nran, 1);
  char *j = red_pipeline_json(&p); /* "ran" is the test's to say, never rreduce's */
  assert_string_equal(j, "{\"check\":\"pass\",\"passes\":[\"FoldConstant\",\"FuseOps(fuse_opt_level=2)\"],"
                         "\"opt_level\":3,\"disabled_pass\":[\"AlterOpLayout\"]}");
  free(j);
  red_pipeline_free(&p);
  RedPipeline q = parse("{\"check\": \"typecheck\"}");
  assert_false(q.has_passes);
  assert_int_equal(q.opt_level, -1);
  j = red_pipeline_json(&q); /* no PassContext: no disabled passes to speak of */
  assert_string_equal(j, "{\"check\":\"typecheck\"}");
  free(j);
  red_pipeline_free(&q);
}

static void test_bad_json(void **state) {
  (void)state;
  const char *bad[] = {"[1]", "{\"opt_level\": 7}", "{\"passes\": [1]}", "{\"ran\": \"x\"}", "not json", "{\"check\": 3}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    RedPipeline p;
    char err[256];
    assert_false(red_pipeline_parse(&p, bad[i], "X.pipeline-ran", err, sizeof err));
    assert_non_null(strstr(err, "X.pipeline-ran"));
  }
}

static void test_arguments(void **state) {
  (void)state;
  assert_int_equal(red_pass_arg_count("FoldConstant"), 0);
  assert_int_equal(red_pass_arg_count("FuseOps(fuse_opt_level=2)"), 1);
  assert_int_equal(red_pass_arg_lower_count("FuseOps(fuse_opt_level=2)", 0), 2); /* 0, 1 */
  char *a = red_pass_arg_lowered("FuseOps(fuse_opt_level=2)", 0, 0);
  assert_string_equal(a, "FuseOps(fuse_opt_level=0)");
  free(a);
  a = red_pass_arg_lowered("FuseOps(fuse_opt_level=2)", 0, 1);
  assert_string_equal(a, "FuseOps(fuse_opt_level=1)");
  free(a);
  assert_null(red_pass_arg_lowered("FuseOps(fuse_opt_level=2)", 0, 2));
  /* a string, a list and a negative number are not lowered; True is, to False */
  assert_int_equal(red_pass_arg_count("ToMixedPrecision(\"float16\", [1, 2], -1, x=True)"), 4);
  assert_int_equal(red_pass_arg_lower_count("ToMixedPrecision(\"float16\", [1, 2], -1, x=True)", 0), 0);
  assert_int_equal(red_pass_arg_lower_count("ToMixedPrecision(\"float16\", [1, 2], -1, x=True)", 1), 0);
  assert_int_equal(red_pass_arg_lower_count("ToMixedPrecision(\"float16\", [1, 2], -1, x=True)", 2), 0);
  a = red_pass_arg_lowered("ToMixedPrecision(\"float16\", [1, 2], -1, x=True)", 3, 0);
  assert_string_equal(a, "ToMixedPrecision(\"float16\", [1, 2], -1, x=False)");
  free(a);
  assert_int_equal(red_pass_arg_lower_count("P(100)", 0), 3); /* 0, 1, 50 */
  a = red_pass_arg_lowered("P(100)", 0, 2);
  assert_string_equal(a, "P(50)");
  free(a);
}

/* Applies opportunities [lo, hi) of a pipeline pass to a copy; the copy's JSON. */
static char *applied(const RedPass *pass, const RedPipeline *p, size_t lo, size_t hi) {
  RedPipeline q;
  red_pipeline_copy(&q, p);
  bool ok = pass->apply_pipeline(&q, lo, hi);
  char *j = ok ? red_pipeline_json(&q) : NULL;
  red_pipeline_free(&q);
  return j;
}

static void test_pipeline_passes(void **state) {
  (void)state;
  RedPipeline p = parse("{\"passes\": [\"A\", \"B(k=3)\", \"C\"], \"opt_level\": 2, \"disabled_pass\": [\"X\"], "
                        "\"ran\": [\"InferType\", \"X\", \"Y\", \"InferType\", \"Z\"]}");
  assert_null(red_pass_pipe_passes.count);
  assert_int_equal(red_pass_pipe_passes.count_pipeline(&p), 3);
  char *j = applied(&red_pass_pipe_passes, &p, 0, 2);
  assert_non_null(strstr(j, "\"passes\":[\"C\"]"));
  free(j);
  assert_int_equal(red_pass_pipe_args.count_pipeline(&p), 2); /* k: 0, 1 (3/2 is 1 again) */
  j = applied(&red_pass_pipe_args, &p, 0, 1);
  assert_non_null(strstr(j, "\"B(k=0)\""));
  free(j);
  /* enabled: the passes that ran, each once, not disabled: InferType, Y, Z */
  assert_int_equal(red_pass_pipe_disable.count_pipeline(&p), 3);
  j = applied(&red_pass_pipe_disable, &p, 1, 3);
  assert_non_null(strstr(j, "\"disabled_pass\":[\"X\",\"Y\",\"Z\"]"));
  free(j);
  assert_int_equal(red_pass_pipe_opt.count_pipeline(&p), 2);
  j = applied(&red_pass_pipe_opt, &p, 0, 1);
  assert_non_null(strstr(j, "\"opt_level\":0"));
  free(j);
  char *d = red_pipeline_describe(&p);
  assert_string_equal(d, "A then B(k=3) then C; opt level 2, 1 of its passes disabled; InferType, Y and Z still run");
  free(d);
  char *args = red_pipeline_script_args(&p);
  assert_string_equal(args, "'A' 'B(k=3)' 'C' --opt-level 2 --disabled-pass X");
  free(args);
  red_pipeline_free(&p);
  RedPipeline none = parse("{\"check\": \"my-test\"}"); /* a test with no pipeline to reduce */
  assert_int_equal(red_pass_pipe_passes.count_pipeline(&none), 0);
  assert_int_equal(red_pass_pipe_disable.count_pipeline(&none), 0);
  assert_int_equal(red_pass_pipe_opt.count_pipeline(&none), 0);
  red_pipeline_free(&none);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_bad_json),
                                     cmocka_unit_test(test_arguments), cmocka_unit_test(test_pipeline_passes)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
