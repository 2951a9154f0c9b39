/*
 * Test support for operator relations: type one call from text.
 *   op_test_infer("add", "Tensor[(1, 3), float32], Tensor[(3), float32]", "")
 *     -> "Tensor[(1, 3), float32]"   (malloc'd; "error: <message>" when the relation rejects it)
 * Attributes are written as in a Relay call: "axis=1, keepdims=True".  An empty argument list
 * ("") types a call without arguments (zeros, ones).
 */
#ifndef RELAYKIT_OP_TEST_H
#define RELAYKIT_OP_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../typegen/op.h"
#include "../../typegen/type_ast.h"

static char *op_test_infer(const char *op_name, const char *arg_types, const char *attrs) {
  const OpDef *op = op_lookup(op_name);
  if (!op) return strdup("error: no such operator");
  size_t cap = strlen(arg_types) + strlen(attrs) + 64;
  char *src = malloc(cap);
  if (*arg_types) snprintf(src, cap, "fn (%%a: (%s,)) { f(%%a%s%s) }", arg_types, *attrs ? ", " : "", attrs);
  else snprintf(src, cap, "fn (%%a: ()) { f(%s) }", attrs);
  Diag d;
  diag_init(&d, "test", src, strlen(src));
  AstModule *m = ast_parse(src, strlen(src), &d);
  char *result;
  if (!m) {
    size_t n = strlen(d.out.data) + 32;
    result = malloc(n);
    snprintf(result, n, "error: bad test input: %s", d.out.data);
  } else {
    TyTable *t = ty_table_new();
    char err[256];
    const AstType *bad;
    const Type *tuple = ty_from_ast(t, m->body->fn->params[0]->type, NULL, err, sizeof err, &bad);
    if (!tuple) {
      result = malloc(strlen(err) + 32);
      sprintf(result, "error: bad test types: %s", err);
    } else {
      OpCall c = {.types = t};
      const Type *r = op_infer(&c, op, tuple->args, tuple->nargs, &m->body->fn->body->attrs, &m->arena);
      if (r) result = ty_str(r);
      else {
        result = malloc(strlen(c.err) + 8);
        sprintf(result, "error: %s", c.err);
      }
    }
    ty_table_free(t);
    ast_free(m);
  }
  diag_free(&d);
  free(src);
  return result;
}

/* Asserts the result of op_test_infer (cmocka). */
#define assert_infers(op, args, attrs, want)        \
  do {                                              \
    char *got_ = op_test_infer(op, args, attrs);    \
    assert_string_equal(got_, want);                \
    free(got_);                                     \
  } while (0)

/* Asserts that the relation rejects the call with a message containing `fragment`. */
#define assert_rejects(op, args, attrs, fragment)                                        \
  do {                                                                                   \
    char *got_ = op_test_infer(op, args, attrs);                                         \
    if (strncmp(got_, "error: ", 7) != 0 || !strstr(got_, fragment))                     \
      fail_msg("%s(%s; %s) gave \"%s\", expected an error with \"%s\"", op, args, attrs, got_, fragment); \
    free(got_);                                                                          \
  } while (0)

#endif
