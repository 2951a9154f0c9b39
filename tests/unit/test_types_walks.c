/* Walks over types that nest: a type's spelling cut off at a length (what rmutate leaves out of a
   mutant), the pointer set that visits each shared type once, and the limits over a module's types
   found through the types inside closures' types, however deep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../program/program.h"
#include "../../support/ptrset.h"
#include "../../support/strbuf.h"
#include "../../typegen/gen/gen.h"

static void test_spelling_cut_off(void **state) {
  (void)state;
  TyTable *types = ty_table_new();
  int64_t dims[] = {1, 3};
  const Type *t = ty_tensor(types, (DType){DT_FLOAT, 32, 1}, dims, 2);
  for (int i = 0; i < 3; i++) t = ty_func(types, NULL, 0, t, NULL, 0);
  const char *full = "fn () -> fn () -> fn () -> Tensor[(1, 3), float32]";
  char *s = ty_str(t);
  assert_string_equal(s, full);
  free(s);
  s = ty_str_upto(t, strlen(full)); /* exactly the limit: written */
  assert_non_null(s);
  assert_string_equal(s, full);
  free(s);
  assert_null(ty_str_upto(t, strlen(full) - 1));
  assert_null(ty_str_upto(t, 4));
  s = ty_str_upto(t, 0); /* 0: any length */
  assert_string_equal(s, full);
  free(s);
  ty_table_free(types);
}

static void test_pointer_set(void **state) {
  (void)state;
  PtrSet s = {0};
  int items[1000];
  for (int i = 0; i < 1000; i++) assert_true(ptrset_add(&s, &items[i])); /* past several growths */
  for (int i = 0; i < 1000; i++) assert_false(ptrset_add(&s, &items[i]));
  assert_int_equal(s.len, 1000);
  ptrset_free(&s);
  assert_true(ptrset_add(&s, &items[0])); /* freed is empty and ready */
  ptrset_free(&s);
}

/* Closures nested `depth` deep around a constant of type T: the tensor is reached only through
   the closures' types (each the next one's result), as the limits walk must find it. */
static char *nested_closures(unsigned depth, const char *constant) {
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "#[version = \"0.0.5\"]\ndef @main() {\n");
  for (unsigned i = 0; i < depth; i++) sb_puts(&b, "fn () { ");
  sb_puts(&b, constant);
  for (unsigned i = 0; i < depth; i++) sb_puts(&b, " }");
  sb_puts(&b, "\n}\n");
  return sb_take(&b);
}

static void test_limits_through_nested_closures(void **state) {
  (void)state;
  char *text = nested_closures(1500, "zeros(shape=[4, 5], dtype=\"float32\")");
  Program p;
  char msg[512];
  assert_true(prog_load(&p, "nested", text, false, msg, sizeof msg));
  OpGenPolicy limits = {.max_rank = 1, .max_dim = 2, .max_elements = 2};
  const Type *misfit = gen_module_misfit(p.m, &limits);
  assert_non_null(misfit);
  char *s = ty_str(misfit);
  assert_string_equal(s, "Tensor[(4, 5), float32]");
  free(s);
  gen_limits_widen_module(&limits, p.m);
  assert_int_equal(limits.max_rank, 2);
  assert_int_equal(limits.max_dim, 5);
  assert_int_equal(limits.max_elements, 20);
  assert_null(gen_module_misfit(p.m, &limits));
  prog_free(&p);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spelling_cut_off),
      cmocka_unit_test(test_pointer_set),
      cmocka_unit_test(test_limits_through_nested_closures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
