/* ScopedNames: the innermost binding wins, leaving a scope uncovers what it hid, and lookups stay
   right past the table's growth (the type checker's locals, graph values and globals). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../../support/scoped_names.h"

static const char *value(const ScopedNames *s, const char *name) {
  bool found;
  const char *v = names_find(s, name, &found);
  return found ? v : "(unbound)";
}

static void test_shadowing_and_leaving_scopes(void **state) {
  (void)state;
  ScopedNames s = {0};
  assert_string_equal(value(&s, "x"), "(unbound)"); /* an empty table answers */
  names_bind(&s, "x", "outer");
  names_bind(&s, "y", "y1");
  size_t mark = s.len;
  names_bind(&s, "x", "inner");
  names_bind(&s, "x", "innermost");
  assert_string_equal(value(&s, "x"), "innermost");
  names_truncate(&s, mark + 1);
  assert_string_equal(value(&s, "x"), "inner");
  names_truncate(&s, mark);
  assert_string_equal(value(&s, "x"), "outer");
  assert_string_equal(value(&s, "y"), "y1");
  names_truncate(&s, 0);
  assert_string_equal(value(&s, "x"), "(unbound)");
  names_bind(&s, "x", NULL); /* a NULL value is still a binding */
  bool found;
  assert_null(names_find(&s, "x", &found));
  assert_true(found);
  names_free(&s);
}

static void test_many_names_past_growth(void **state) {
  (void)state;
  enum { N = 5000 };
  static char names[N][16];
  ScopedNames s = {0};
  for (int i = 0; i < N; i++) {
    snprintf(names[i], sizeof names[i], "%d", i);
    names_bind(&s, names[i], names[i]);
  }
  for (int i = 0; i < N; i++) assert_string_equal(value(&s, names[i]), names[i]);
  names_truncate(&s, N / 2);
  for (int i = 0; i < N; i++) assert_string_equal(value(&s, names[i]), i < N / 2 ? names[i] : "(unbound)");
  names_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shadowing_and_leaving_scopes),
      cmocka_unit_test(test_many_names_past_growth),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
