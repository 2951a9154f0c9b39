/* ScopedNames: the innermost binding wins, leaving a scope uncovers what it hid, and lookups stay
   right past the table's growth (the type checker's locals, graph values and globals); and the
   scope check that keeps its names in such tables (typegen/infer/scope.c) on untyped programs,
   where it is the guard rreduce reduces under. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../program/program.h"
#include "../../support/scoped_names.h"
#include "../../support/strbuf.h"

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

/* Loads text under the scope guard: "" when every name is bound, else the error.  Parameters
   carry no types, so inference fails and the scope check alone decides (p.guard PROG_SCOPED). */
static const char *scoped(const char *text) {
  static char err[2048];
  Program p;
  if (!prog_load_as(&p, "t", text, PROG_SCOPED, err, sizeof err)) return strstr(err, "error: ") ? strstr(err, "error: ") : err;
  assert_int_equal(p.guard, PROG_SCOPED);
  prog_free(&p);
  return "";
}

#define V "#[version = \"0.0.5\"]\n"

static void test_scope_check(void **state) {
  (void)state;
  /* a let's variable is visible after it, not in its value nor after its block */
  assert_string_equal(scoped(V "def @main(%x) { let %y = nn.relu(%x); %y }"), "");
  assert_non_null(strstr(scoped(V "def @main(%x) { let %y = (let %z = %x; %z); %z }"), "unbound variable %z"));
  assert_non_null(strstr(scoped(V "def @main(%x) { let %y = nn.relu(%y); %y }"), "unbound variable %y"));
  /* a closure bound by let sees itself; a parameter is gone after its function, its shadow too */
  assert_string_equal(scoped(V "def @main(%x) { let %f = fn (%n) { %f(%n) }; %f(%x) }"), "");
  assert_non_null(strstr(scoped(V "def @main(%x) { let %g = fn (%x, %q) { %q }; %q }"), "unbound variable %q"));
  assert_string_equal(scoped(V "def @main(%x) { let %g = fn (%x) { %x }; %g(%x) }"), "");
  /* %N for the rest of the text; globals and constructors wherever they are defined */
  assert_string_equal(scoped(V "def @main(%x) { %0 = nn.relu(%x); %1 = add(%0, %0); %1 }"), "");
  assert_non_null(strstr(scoped(V "def @main(%x) { %0 = add(%x, %1); %0 }"), "%1 is used before it is bound"));
  assert_string_equal(scoped(V "def @main(%x) { @later(%x) }\ndef @later(%y) { nn.relu(%y) }"), "");
  assert_non_null(strstr(scoped(V "def @main(%x) { @nowhere(%x) }"), "unknown global function @nowhere"));
  const char *adt = V "type T { A(int32), B }\n"
                      "def @main(%t) { match (%t) { A(%v) => %v, B => %w } }";
  assert_non_null(strstr(scoped(adt), "unbound variable %w")); /* %v ended with its arm */
  assert_string_equal(scoped(V "type T { A(int32), B }\ndef @main(%t) { match (%t) { A(%v) => %v, B => B } }"), "");
  assert_non_null(strstr(scoped(V "type T { A }\ndef @main(%t) { match (%t) { C => 0 } }"), "'C' is not a constructor"));
}

/* 20,000 untyped globals, each calling the one before it: names found in tables, not by a scan of
   the definitions per use (50,000 of them took minutes per candidate in rreduce).  Completes, and
   the last one's misspelled call is still found. */
static void test_scope_check_many_globals(void **state) {
  (void)state;
  enum { N = 20000 };
  StrBuf b = {0};
  sb_puts(&b, V "def @f0(%x) { nn.relu(%x) }\n");
  for (int i = 1; i < N; i++) sb_printf(&b, "def @f%d(%%x) { nn.relu(@f%d(%%x)) }\n", i, i - 1);
  sb_printf(&b, "def @main(%%x) { @f%d(%%x) }\n", N - 1);
  assert_string_equal(scoped(b.data), "");
  sb_printf(&b, "def @g(%%x) { @f%d(%%x) }\n", N);
  assert_non_null(strstr(scoped(b.data), "unknown global function @f20000"));
  sb_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shadowing_and_leaving_scopes),
      cmocka_unit_test(test_many_names_past_growth),
      cmocka_unit_test(test_scope_check),
      cmocka_unit_test(test_scope_check_many_globals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
