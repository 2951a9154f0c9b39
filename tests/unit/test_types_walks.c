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
#include "../../support/ptrmap.h"
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

static void test_pointer_map(void **state) {
  (void)state;
  PtrMap m = {0};
  static int items[1000]; /* only their addresses matter */
  bool found = true;
  assert_null(ptrmap_get(&m, &items[0], &found)); /* an empty map answers */
  assert_false(found);
  for (int i = 0; i < 1000; i++) assert_true(ptrmap_put(&m, &items[i], i % 3 ? &items[999 - i] : NULL)); /* past several growths */
  for (int i = 0; i < 1000; i++) {
    assert_ptr_equal(ptrmap_get(&m, &items[i], &found), i % 3 ? &items[999 - i] : NULL);
    assert_true(found); /* a NULL value is there */
  }
  assert_false(ptrmap_put(&m, &items[5], &items[5])); /* replaced, not added */
  assert_ptr_equal(ptrmap_get(&m, &items[5], &found), &items[5]);
  assert_int_equal(m.len, 1000);
  ptrmap_free(&m);
  assert_true(ptrmap_put(&m, &items[0], NULL)); /* freed is empty and ready */
  ptrmap_free(&m);
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
      cmocka_unit_test(test_pointer_map),
      cmocka_unit_test(test_limits_through_nested_closures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
