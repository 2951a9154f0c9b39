/*
 * Test support for attribute schemas: an op's schema as one line, "name=default, ..." in schema
 * order, to compare with TVM's attrs struct (declaration order, set_default values).
 */
#ifndef RELAYKIT_OP_SCHEMA_TEST_H
#define RELAYKIT_OP_SCHEMA_TEST_H

#include <stdio.h>
#include <string.h>

#include "../../typegen/ops/ops.h"

static void op_schema_str(const char *op_name, char *buf, size_t cap) {
  const OpDef *op = op_lookup(op_name);
  size_t len = 0;
  buf[0] = '\0';
  if (!op) {
    snprintf(buf, cap, "no such operator");
    return;
  }
  for (size_t i = 0; i < op->nattrs && len < cap; i++)
    len +=
        (size_t)snprintf(buf + len, cap - len, "%s%s=%s", i ? ", " : "", op->attrs[i].name, op->attrs[i].def);
}

/* Asserts an op's schema (cmocka). */
#define assert_schema(op, want)                                                                              \
  do {                                                                                                       \
    char got_[512];                                                                                          \
    op_schema_str(op, got_, sizeof got_);                                                                    \
    assert_string_equal(got_, want);                                                                         \
  } while (0)

#endif
