/* Interned types and attribute values back to AST, for programs relaykit writes. */
#ifndef RELAYKIT_TO_AST_H
#define RELAYKIT_TO_AST_H

#include "../parser/ast.h"
#include "op.h"
#include "type.h"

/* The annotation TVM would print for t: `Tensor[(1, 3), float32]`, `float32`, `(A, B)`, `List[A]`. */
AstType *ty_to_ast(AstModule *m, const Type *t);
/* An attribute value as Relay text writes it: 3, 0.5f, True, "NCHW", None, [1, 2]. */
AstExpr *attr_to_ast(AstModule *m, const AttrVal *v);
/* The attributes of a call, leaving out those at their default (as TVM's printer does), and the
   attrs_type_key some ops always carry (op_attrs_key); `out` has room for nattrs + 1. */
size_t attrs_to_ast(AstModule *m, const OpDef *op, const AttrVal *vals, AstAttr **out);

#endif
