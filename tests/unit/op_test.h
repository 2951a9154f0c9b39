/*
 * Test support for operator relations: type one call from text.
 *   op_test_infer("add", "Tensor[(1, 3), float32], Tensor[(3), float32]", "")
 *     -> "Tensor[(1, 3), float32]"   (malloc'd; "error: <message>" when the relation rejects it)
 * Attributes are written as in a Relay call: "axis=1, keepdims=True".  An empty argument list
 * ("") types a call without arguments (zeros, ones).
 */
#ifndef RELAYKIT_OP_TEST_H
#define RELAYKIT_OP_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../typegen/ops/ops.h"
#include "../../typegen/types/types.h"

/* Checks against TVM release `version` ("0.13", "0.19") from now on: the tests of an op that
   changed between releases say which release they mean. */
static inline void op_test_release(const char *version) {
  char err[256];
  if (!op_tvm_choose(version, err, sizeof err)) {
    fprintf(stderr, "op_test_release: %s\n", err);
    abort();
  }
}

/* A cmocka group setup: the release the tests of a file were written for. */
static inline int op_test_v0_13(void **state) {
  (void)state;
  op_test_release("0.13");
  return 0;
}

/* Whether `attrs` (as written in a call) sets attribute `name`. */
static inline bool op_test_sets(const char *attrs, const char *name) {
  size_t n = strlen(name);
  for (const char *p = strstr(attrs, name); p; p = strstr(p + 1, name))
    if ((p == attrs || p[-1] == ' ' || p[-1] == ',') && p[n] == '=') return true;
  return false;
}

/* Types one call.  With fill_required, the attributes TVM's parser requires written out
   (op_attr_required) that `attrs` leaves out are added at the schema's default, and the
   attrs_type_key it needs on ops registered without an attrs type (op_attrs_key): relation tests
   write only what they test; the parser's rules have their own tests (test_ops_required.c). */
static inline char *op_test_call(const char *op_name, const char *arg_types, const char *given, bool fill_required) {
  const OpDef *op = op_lookup(op_name);
  if (!op) return strdup("error: no such operator");
  size_t acap = strlen(given) + 1;
  for (size_t k = 0; k < op->nattrs; k++) acap += strlen(op->attrs[k].name) + strlen(op->attrs[k].def ? op->attrs[k].def : "None") + 4;
  char *attrs = malloc(acap);
  strcpy(attrs, given);
  for (size_t k = 0; fill_required && k < op->nattrs; k++)
    if (op_attr_required(op, k) && !op_test_sets(given, op->attrs[k].name)) {
      if (*attrs) strcat(attrs, ", ");
      strcat(attrs, op->attrs[k].name);
      strcat(attrs, "=");
      strcat(attrs, op->attrs[k].def ? op->attrs[k].def : "None");
    }
  const char *key = op_attrs_key(op); /* and the key TVM's parser needs to attach attributes */
  if (fill_required && key && *attrs && !op_test_sets(attrs, "attrs_type_key")) {
    char *keyed = malloc(strlen(attrs) + strlen(key) + 24);
    sprintf(keyed, "%s, attrs_type_key=\"%s\"", attrs, key);
    free(attrs);
    attrs = keyed;
  }
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
  free(attrs);
  return result;
}

static inline char *op_test_infer(const char *op_name, const char *arg_types, const char *attrs) {
  return op_test_call(op_name, arg_types, attrs, true);
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
