/* --match patterns (support/pattern.h): Python's re.search(p, text, re.MULTILINE), by length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../support/pattern.h"

static bool search(const char *pattern, const char *text, size_t len) {
  char err[256];
  Pattern *p = pattern_compile(pattern, err, sizeof err);
  if (!p) fail_msg("%s: %s", pattern, err);
  bool found = pattern_search(p, text, len);
  pattern_free(p);
  return found;
}

#define S(p, t) search(p, t, strlen(t))

static void test_perl_classes_and_lazy_quantifiers(void **state) {
  (void)state;
  assert_true(S("Check failed: \\(\\w+ == \\d+\\)", "x\nCheck failed: (ndim == 4) is false\n"));
  assert_false(S("Check failed: \\(\\w+ == \\d+\\)", "Check failed: (ndim == four)"));
  assert_true(S("TVMError:\\s+shape", "TVMError:\t shape mismatch"));
  assert_true(S("a.*?b", "a--b--b"));
  assert_true(S("(?i)segmentation fault", "Segmentation Fault"));
}

/* re.MULTILINE: ^ and $ at every line; `.` does not cross a newline. */
static void test_lines(void **state) {
  (void)state;
  assert_true(S("^Error: bad$", "Traceback\nError: bad\n  at x"));
  assert_false(S("Traceback.*Error", "Traceback\nError: bad"));
  assert_true(S("Traceback[\\s\\S]*Error", "Traceback\nError: bad"));
}

/* A NUL byte in a test's output hides nothing after it. */
static void test_nul_bytes(void **state) {
  (void)state;
  const char text[] = "binary\0garbage\nCheck failed: x";
  assert_true(search("Check failed", text, sizeof text - 1));
  assert_false(search("Check failed", text, 6));
}

static void test_bad_patterns_and_runaway_searches(void **state) {
  (void)state;
  char err[256];
  assert_null(pattern_compile("(unclosed", err, sizeof err));
  assert_non_null(strstr(err, "at offset"));
  assert_null(pattern_compile("a{2,1}", err, sizeof err));
  /* catastrophic backtracking ends (as no match) instead of hanging */
  size_t n = 1 << 16;
  char *as = malloc(n + 1);
  memset(as, 'a', n);
  as[n] = '\0';
  assert_false(search("(a+)+b", as, n));
  free(as);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_perl_classes_and_lazy_quantifiers),
      cmocka_unit_test(test_lines),
      cmocka_unit_test(test_nul_bytes),
      cmocka_unit_test(test_bad_patterns_and_runaway_searches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
