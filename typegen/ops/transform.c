/* placeholder until the transform family lands */
#include "../op.h"

static const Type *none_rel(OpCall *c) { return op_fail(c, -1, "not implemented"); }
const OpDef op_family_transform[] = {{"__placeholder_transform", 0, 0, NULL, 0, none_rel}};
const size_t op_family_transform_len = 0;
