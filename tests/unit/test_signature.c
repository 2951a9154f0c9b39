/* Failure signatures: masking, first/last lines, stack frames, and the ERE for rreduce --match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../interestingness/signature.h"
#include "../../support/pattern.h"

static const RunSigMasks masks = {{"/work/tmp/relaykit.AbC123", "/private/relaykit.AbC123"}, "bug7.relay"};

static char *norm(const char *line) {
  StrBuf sb;
  sb_init(&sb);
  run_signature_line(line, strlen(line), &masks, &sb, NULL);
  return sb_take(&sb);
}

static void assert_norm(const char *line, const char *want) {
  char *got = norm(line);
  if (strcmp(got, want)) fail_msg("normalising '%s': got '%s', want '%s'", line, got, want);
  free(got);
}

static RunSignature sig(const char *out) {
  RunSignature s;
  run_signature(out, strlen(out), &masks, &s);
  return s;
}

static bool ere_matches(const char *ere, const char *text) {
  char err[256];
  Pattern *re = pattern_compile(ere, err, sizeof err);
  if (!re) fail_msg("bad pattern %s: %s", ere, err);
  bool ok = pattern_search(re, text, strlen(text));
  pattern_free(re);
  return ok;
}

static void test_masks_addresses_numbers_hashes(void **state) {
  (void)state;
  assert_norm("segfault at 0x7f3a2b1c00 (pid 4242)", "segfault at <addr> (pid <n>)");
  assert_norm("commit 3fa9c0b1e2 failed", "commit <hex> failed");
  assert_norm("took 10ms, shape (1, 3, 224, 224)", "took <n>ms, shape (<n>, <n>, <n>, <n>)");
  assert_norm("a 1.5e-05 b", "a <n>.<n>e-<n> b");
  /* digits inside identifiers stay; so do hex-looking words without a digit */
  assert_norm("nn.conv2d expects int32 on x86_64; deadbeef", "nn.conv2d expects int32 on x86_64; deadbeef");
}

static void test_masks_paths_and_folds_space(void **state) {
  (void)state;
  assert_norm("  error in /work/tmp/relaykit.AbC123/bug7.relay:12:3  ", "error in <tmp>/<file>:<n>:<n>");
  assert_norm("cwd=/private/relaykit.AbC123 file bug7.relay", "cwd=<tmp> file <file>");
  assert_norm("see /tmp/tmpx81_q/model.py:40\tand\t\tmore", "see <tmp>:<n> and more");
  assert_norm("mybug7.relay is another file", "mybug7.relay is another file");
}

static void test_long_lines_are_cut(void **state) {
  (void)state;
  char line[2000];
  memset(line, 'a', sizeof line - 1);
  for (size_t i = 100; i < sizeof line - 1; i += 100) line[i] = ' ';
  line[sizeof line - 1] = '\0';
  char *got = norm(line);
  assert_true(strlen(got) < RUN_SIG_LINE_MAX + 110);
  free(got);
}

static void test_first_and_last_lines(void **state) {
  (void)state;
  RunSignature s = sig("\n  Error: bad shape at 0x7fff12 \nsome detail 42\n\nAborted (core dumped)\n\n");
  assert_string_equal(s.text, "Error: bad shape at <addr> | Aborted (core dumped)");
  assert_non_null(s.match);
  assert_true(ere_matches(s.match, "Error: bad shape at 0x1"));
  assert_false(ere_matches(s.match, "Error: bad type at 0x1"));
  run_signature_free(&s);
  s = sig("only one line 7\n");
  assert_string_equal(s.text, "only one line <n>");
  run_signature_free(&s);
  s = sig(" \n\t\n");
  assert_null(s.text);
  assert_null(s.match);
  run_signature_free(&s);
}

/* The ERE escapes what ERE syntax would read, and matches the same error from another run. */
static void test_match_escapes_and_generalises(void **state) {
  (void)state;
  const char *out = "Check failed: (x.size() == 3) is false: [a|b]*? {1} ^$ \\ at /work/tmp/relaykit.AbC123/bug7.relay\n";
  RunSignature s = sig(out);
  assert_non_null(s.match);
  assert_true(ere_matches(s.match, out));
  assert_true(ere_matches(s.match, "Check failed: (x.size() == 4) is false: [a|b]*? {1} ^$ \\ at /tmp/relaykit.Zz9/bug7.relay"));
  assert_false(ere_matches(s.match, "Check failed: (y.size() == 4) is false"));
  run_signature_free(&s);
}

static void test_python_traceback(void **state) {
  (void)state;
  const char *out = "Traceback (most recent call last):\n"
                    "  File \"/tmp/x9/run.py\", line 12, in <module>\n"
                    "    main()\n"
                    "  File \"/usr/lib/tvm/relay/build.py\", line 340, in build_module\n"
                    "    mod = f(mod)\n"
                    "  File \"/usr/lib/tvm/relay/transform.py\", line 77, in fold_constant3\n"
                    "    raise ValueError(\"at 0x7f00aa\")\n"
                    "ValueError: at 0x7f00aa\n";
  RunSignature s = sig(out);
  assert_string_equal(s.text, "ValueError: at <addr>");
  assert_non_null(s.match);
  assert_true(ere_matches(s.match, out));
  assert_false(ere_matches(s.match, "ValueError: bad units\n"));
  run_signature_free(&s);
  /* a trace cut before its exception (the process was killed): the frames name it */
  char cut[1024];
  snprintf(cut, sizeof cut, "%.*s", (int)(strstr(out, "ValueError") - out), out);
  s = sig(cut);
  assert_string_equal(s.text, "stack: <module> | fold_constant3");
  assert_true(ere_matches(s.match, cut));
  assert_false(ere_matches(s.match, "in fold_constant\n"));
  run_signature_free(&s);
}

/* Type-relation errors share their frames (TypeSolver::Solve); their checks tell them apart. */
static void test_check_failed_and_diagnostics_name_the_group(void **state) {
  (void)state;
  const char *frames = "Traceback (most recent call last):\n"
                       "  2: tvm::relay::TypeSolver::Solve()\n"
                       "  1: tvm::relay::BroadcastRel(tvm::runtime::Array<tvm::Type, void> const&, int)\n"
                       "  0: tvm::runtime::detail::LogFatal::Entry::Finalize()\n";
  char a[2048], b[2048];
  snprintf(a, sizeof a, "tvm.error.InternalError: %s  File \"/src/relay/op/type_relations.cc\", line 90\n"
           "InternalError: Check failed: (t0->dtype == t1->dtype) is false: 3 vs 7\n", frames);
  snprintf(b, sizeof b, "tvm.error.InternalError: %s  File \"/src/relay/op/tensor/transform.cc\", line 1200\n"
           "InternalError: Check failed: (axis < ndim) is false: axis 5 out of range\n", frames);
  RunSignature sa = sig(a), sb = sig(b);
  assert_string_equal(sa.text, "Check failed: (t0->dtype == t1->dtype) is false: <n> vs <n>");
  assert_string_equal(sb.text, "Check failed: (axis < ndim) is false: axis <n> out of range");
  assert_true(ere_matches(sa.match, a));
  assert_false(ere_matches(sa.match, b));
  run_signature_free(&sa);
  run_signature_free(&sb);
  /* a check wrapped in another: the inner one names it, not the wrapper's time stamp */
  sa = sig("InternalError: Check failed: (false) is false: [21:51:24] /tvm/include/tvm/runtime/container/array.h:414: "
           "InternalError: Check failed: (0 <= i && i < p->size_) is false: IndexError: indexing 0 on an array of size 0\n");
  assert_string_equal(sa.text, "Check failed: (<n> <= i && i < p->size_) is false: IndexError: indexing <n> on an array of size <n>");
  run_signature_free(&sa);
  /* the script's own verdict line carries the same check: the same group */
  sa = sig("tvm-build: interesting (in stage build): Check failed: (axis < ndim) is false: axis 2 out of range\n");
  assert_string_equal(sa.text, "Check failed: (axis < ndim) is false: axis <n> out of range");
  run_signature_free(&sa);
  /* a diagnostic says more than "DiagnosticError: ... diagnostics were emitted" */
  sa = sig("error: the function is provided too many arguments expected 1, found 7\n"
           " --> from_string:5:13\n"
           "tvm.error.DiagnosticError: Traceback (most recent call last):\n"
           "  0: tvm::DiagnosticContext::Render()\n"
           "DiagnosticError: one or more error diagnostics were emitted, please check diagnostic render for output.\n");
  assert_string_equal(sa.text, "error: the function is provided too many arguments expected <n>, found <n>");
  run_signature_free(&sa);
  /* a word that merely ends in Error, without ": ", is no exception line */
  sa = sig("first line\nIOError happened\n");
  assert_string_equal(sa.text, "first line | IOError happened");
  run_signature_free(&sa);
}

static void test_asan_and_gdb_frames(void **state) {
  (void)state;
  const char *out = "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010\n"
                    "    #0 0x4f7e2a in tvm::relay::Solve(int, float) /src/solver.cc:12:3\n"
                    "    #1 0x4f7f00 in ty_infer /src/infer.c:99\n"
                    "    #2 0x7f1234567890 (/lib/x86_64-linux-gnu/libc.so.6+0x29d90)\n"
                    "SUMMARY: AddressSanitizer: heap-use-after-free\n";
  RunSignature s = sig(out);
  assert_string_equal(s.text, "stack: tvm::relay::Solve | libc.so.<n>");
  assert_true(ere_matches(s.match, out));
  run_signature_free(&s);
  /* without an address or a header, "#1 thing" is not a frame */
  s = sig("#1 thing went wrong\n");
  assert_string_equal(s.text, "#<n> thing went wrong");
  run_signature_free(&s);
}

static void test_tvm_stack_traces(void **state) {
  (void)state;
  const char *out = "tvm._ffi.base.TVMError: Traceback (most recent call last):\n"
                    "  3: TVMFuncCall\n"
                    "  2: tvm::relay::transform::InferType()::{lambda}::operator()(tvm::IRModule) const\n"
                    "        at /src/relay/transform.cc:120\n"
                    "  1: tvm::relay::TypeSolver::Solve()\n"
                    "  0: tvm::relay::BroadcastRel(tvm::runtime::Array<tvm::Type, void> const&, int)\n"
                    "  File \"/src/relay/analysis/type_solver.cc\", line 622\n"
                    "TVMError: Check failed: false\n";
  RunSignature s = sig(out);
  assert_string_equal(s.text, "Check failed: false");
  assert_true(ere_matches(s.match, out));
  run_signature_free(&s);
  /* "N: text" without a header is an ordinary line */
  s = sig("1: error: mismatch\n");
  assert_string_equal(s.text, "<n>: error: mismatch");
  run_signature_free(&s);
  /* TVM's older format */
  s = sig("[12:00:01] src/x.cc:42: Check failed\nStack trace:\n"
          "  [bt] (0) /usr/lib/libtvm.so(tvm::relay::Foo+0x1b) [0x7f0000001234]\n"
          "  [bt] (1) /usr/lib/libtvm.so(+0x4455) [0x7f0000005678]\n");
  assert_string_equal(s.text, "stack: tvm::relay::Foo | libtvm.so");
  run_signature_free(&s);
}

static void test_frame_parser(void **state) {
  (void)state;
  const char *name;
  size_t n;
  const char *line = "  #0  foo (a=1) at x.c:3";
  assert_false(run_signature_frame(line, strlen(line), false, &name, &n));
  assert_true(run_signature_frame(line, strlen(line), true, &name, &n));
  assert_int_equal(n, 3);
  assert_memory_equal(name, "foo", 3);
  line = "#4 0xdead in (anonymous namespace)::Visit(x) a.cc:1";
  assert_true(run_signature_frame(line, strlen(line), false, &name, &n));
  assert_int_equal(n, strlen("(anonymous namespace)::Visit"));
  line = "plain text";
  assert_false(run_signature_frame(line, strlen(line), true, &name, &n));
}

/* Outputs that differ only in what is masked get the same signature. */
static void test_stable_across_runs(void **state) {
  (void)state;
  RunSigMasks a = {{"/tmp/relaykit.aaaaaa", NULL}, "x1.relay"}, b = {{"/tmp/relaykit.bbbbbb", NULL}, "longer_name.relay"};
  const char *oa = "error at 0x7f11 in /tmp/relaykit.aaaaaa/x1.relay (cwd /tmp/relaykit.aaaaaa), step 3\ndone 5\n";
  const char *ob = "error at 0x7fee22 in /tmp/relaykit.bbbbbb/longer_name.relay (cwd /tmp/relaykit.bbbbbb), step 41\ndone 6\n";
  RunSignature sa, sb;
  run_signature(oa, strlen(oa), &a, &sa);
  run_signature(ob, strlen(ob), &b, &sb);
  assert_string_equal(sa.text, sb.text);
  assert_string_equal(sa.text, "error at <addr> in <tmp>/<file> (cwd <tmp>), step <n> | done <n>");
  assert_true(ere_matches(sa.match, ob));
  run_signature_free(&sa);
  run_signature_free(&sb);
}

static void test_numbered_names(void **state) {
  (void)state;
  /* numbers that number things inside names vary between runs and go */
  assert_norm("Cannot find tvm.relay.op._make.foo_1957039620", "Cannot find tvm.relay.op._make.foo_<n>");
  assert_norm("in fused_nn_conv2d_add_3 and run12345", "in fused_nn_conv2d_add_<n> and run<n>");
  /* digits that are part of a name stay */
  assert_norm("conv3d int8 x86_64", "conv3d int8 x86_64");
}

/* One megabyte-long line (one word): the signature and its pattern stay short, and match. */
static void test_a_huge_line_is_capped(void **state) {
  (void)state;
  size_t n = 1 << 20;
  char *out = malloc(n + 2);
  memset(out, 'x', n);
  out[n] = '\n';
  out[n + 1] = '\0';
  RunSignature s;
  run_signature(out, n + 1, &masks, &s);
  assert_non_null(s.text);
  assert_true(strlen(s.text) <= RUN_SIG_LINE_MAX);
  assert_non_null(s.match);
  assert_true(strlen(s.match) <= 2 * RUN_SIG_LINE_MAX);
  assert_true(ere_matches(s.match, out));
  run_signature_free(&s);
  free(out);
}

/* TVM's warnings on its way are not the failure (TVM issue 11704's build: the tuning warning, then
   the script's verdict line); an output of warnings alone still has one. */
static void test_warnings_are_not_the_failure(void **state) {
  (void)state;
  RunSignature s = sig("One or more operators have not been tuned. Please tune your model for better performance. "
                       "Incorrect result may occur.\n"
                       "tvm-build: interesting (in stage build): too many values to unpack (expected 2)\n");
  assert_string_equal(s.text, "tvm-build: interesting (in stage build): too many values to unpack (expected <n>)");
  run_signature_free(&s);
  s = sig("[10:01:02] /src/te_compiler.cc:12: Warning: no schedule for x\n");
  assert_non_null(strstr(s.text, "Warning: no schedule"));
  run_signature_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_huge_line_is_capped),
      cmocka_unit_test(test_masks_addresses_numbers_hashes),
      cmocka_unit_test(test_numbered_names),
      cmocka_unit_test(test_masks_paths_and_folds_space),
      cmocka_unit_test(test_long_lines_are_cut),
      cmocka_unit_test(test_first_and_last_lines),
      cmocka_unit_test(test_warnings_are_not_the_failure),
      cmocka_unit_test(test_match_escapes_and_generalises),
      cmocka_unit_test(test_python_traceback),
      cmocka_unit_test(test_asan_and_gdb_frames),
      cmocka_unit_test(test_tvm_stack_traces),
    cmocka_unit_test(test_check_failed_and_diagnostics_name_the_group),
      cmocka_unit_test(test_frame_parser),
      cmocka_unit_test(test_stable_across_runs),
  };
  return cmocka_run_group_tests_name("signature", tests, NULL, NULL);
}
