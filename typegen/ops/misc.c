/*
 * Operators that are not math: device annotations, memory and VM primitives, lowered calls.
 * Facts from TVM v0.13 src/relay/op/annotation/, src/relay/op/memory/, src/relay/op/vm/,
 * src/relay/op/call/call.cc.  These take values of any type, not only tensors.
 */

#include <stdlib.h>

#include "kit.h"

OP_FAMILY(misc);

/* --------------------- on_device, device_copy, annotation.stop_fusion: the value passes through unchanged */

/* Generated: annotations that leave a value unchanged.  Not generated: device copies, memory and
   VM primitives and lowered calls, which lowering passes introduce; a program that holds them
   before those passes is outside what users reduce or fuzz. */
#define PASS_THROUGH_GEN \
  .gen_dtypes = OPDT_ANY, .recognize = opgen_unary_recognize, .solve = opgen_unary_solve, .sample = opgen_unary_sample

static const OpAttrSpec on_device_attrs[] = {
    {"virtual_device", AT_ANY, "None"}, {"constrain_result", AT_BOOL, "False"}, {"constrain_body", AT_BOOL, "True"}};

static const OpAttrSpec device_copy_attrs[] = {{"src_virtual_device", AT_ANY, "None"},
                                               {"dst_virtual_device", AT_ANY, "None"}};

static const OpDef pass_through_ops[] = {
    {.name = "on_device",
     .min_args = 1,
     .max_args = 1,
     .attrs = on_device_attrs,
     .nattrs = KIT_NELEMS(on_device_attrs),
     .relation = kit_pass_through_rel,
     PASS_THROUGH_GEN},
    OP_ENTRY("device_copy", 1, 1, device_copy_attrs, KIT_NELEMS(device_copy_attrs), kit_pass_through_rel),
    {.name = "annotation.stop_fusion",
     .min_args = 1,
     .max_args = 1,
     .relation = kit_pass_through_rel,
     PASS_THROUGH_GEN},
};
OP_REGISTER(pass_through_ops);

/* ------------------------------------------------------------------ memory.kill */

/* memory.kill: consumes a value, yields (). */
static const Type *unit_rel(OpCall *c) { return ty_unit(c->types); }

static const OpDef memory_kill_ops[] = {
    OP_ENTRY("memory.kill", 1, 1, NULL, 0, unit_rel),
};
OP_REGISTER(memory_kill_ops);

/* ------------------------------------------------------------------ memory.alloc_storage */

/* AllocStorageRel: a Storage object, the core prelude's extern type (printed `Storage[]`).  Its
   arguments are (size, alignment) in v0.13.0 and (size, shape, alignment) in v0.19.0, where the
   shape must be a tensor. */
static const Type *alloc_storage_rel(OpCall *c) { return ty_call(c->types, "Storage", NULL, 0); }

static const Type *alloc_storage_shape_rel(OpCall *c) {
  if (c->args[1]->kind != TY_TENSOR) return op_fail(c, 1, "%s: Check failed: tt != nullptr: must be tensor type", c->op->name);
  return alloc_storage_rel(c);
}

static const OpAttrSpec alloc_storage_attrs[] = {{"virtual_device", AT_ANY, "None"}, {"dtype_hint", AT_DTYPE, "\"float32\""}};

static const OpDef memory_alloc_storage_ops[] = {
    OP_ENTRY("memory.alloc_storage", 2, 2, alloc_storage_attrs, KIT_NELEMS(alloc_storage_attrs), alloc_storage_rel,
             OP_TVM_ONLY(TVM_0_13)),
    OP_ENTRY("memory.alloc_storage", 3, 3, alloc_storage_attrs, KIT_NELEMS(alloc_storage_attrs),
             alloc_storage_shape_rel, OP_TVM_ONLY(TVM_0_19)),
};
OP_REGISTER(memory_alloc_storage_ops);

/* ------------------------------------------------------------------ memory.alloc_tensor */

/* AllocTensorRel: the tensor's shape comes from const_shape (or assert_shape), dtype from dtype. */
static const Type *alloc_tensor_rel(OpCall *c) {
  int64_t dims[64];
  const char *which = op_is_none(c, "const_shape") ? "assert_shape" : "const_shape";
  if (op_is_none(c, which)) return op_fail(c, -1, "memory.alloc_tensor needs a constant shape to be typed");
  size_t n = op_ints(c, which, dims, 64);
  if (n > 64) return op_fail(c, -1, "memory.alloc_tensor: rank above 64");
  return ty_tensor(c->types, op_dtype(c, "dtype"), dims, n);
}

static const OpAttrSpec alloc_tensor_attrs[] = {{"dtype", AT_DTYPE, "\"float32\""},
                                                {"const_shape", AT_INTS, "None"},
                                                {"assert_shape", AT_INTS, "None"}};

static const OpDef memory_alloc_tensor_ops[] = {
    OP_ENTRY("memory.alloc_tensor", 2, 3, alloc_tensor_attrs, KIT_NELEMS(alloc_tensor_attrs),
             alloc_tensor_rel),
};
OP_REGISTER(memory_alloc_tensor_ops);

/* ------------------------------------------------------------------ vm.shape_of */

/* ShapeOfRel in the VM dialect: a 1-D tensor with one element per dimension. */
static const Type *vm_shape_of_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0);
  if (!t) return NULL;
  int64_t rank = t->ndims;
  return ty_tensor(c->types, op_dtype(c, "dtype"), &rank, 1);
}

static const OpDef vm_shape_of_ops[] = {
    OP_ENTRY("vm.shape_of", 1, 1, kit_vm_shape_of_attrs, KIT_NELEMS(kit_vm_shape_of_attrs), vm_shape_of_rel),
};
OP_REGISTER(vm_shape_of_ops);

/* ------------------------------------------------------------------ vm.reshape_tensor */

/* ReshapeTensorRel: the shape is the newshape attribute, the dtype the data's. */
static const Type *vm_reshape_tensor_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0);
  if (!t) return NULL;
  int64_t dims[64];
  size_t n = op_ints(c, "newshape", dims, 64);
  if (n > 64) return op_fail(c, -1, "vm.reshape_tensor: rank above 64");
  return ty_tensor(c->types, t->dtype, dims, n);
}

static const OpAttrSpec reshape_tensor_attrs[] = {{"newshape", AT_INTS, "[]"}};

static const OpDef vm_reshape_tensor_ops[] = {
    OP_ENTRY("vm.reshape_tensor", 2, 2, reshape_tensor_attrs, KIT_NELEMS(reshape_tensor_attrs),
             vm_reshape_tensor_rel),
};
OP_REGISTER(vm_reshape_tensor_ops);

/* ------------------------------------------------------------------ call_lowered */

/* CallLoweredRel: call_lowered(f, (args...)) has f's result type. */
static const Type *call_lowered_rel(OpCall *c) {
  const Type *f = c->args[0];
  if (f->kind != TY_FUNC) return op_fail(c, 0, "call_lowered expects a function as its first argument");
  if (c->args[1]->kind != TY_TUPLE) return op_fail(c, 1, "call_lowered expects a tuple of arguments");
  if (c->args[1]->nargs != f->nargs)
    return op_fail(c, 1, "call_lowered: the function takes %u arguments, the tuple holds %u", f->nargs,
                   c->args[1]->nargs);
  return f->ret;
}

static const OpAttrSpec call_lowered_attrs[] = {{"metadata", AT_ANY, "None"}};

static const OpDef call_lowered_ops[] = {
    OP_ENTRY("call_lowered", 2, 2, call_lowered_attrs, KIT_NELEMS(call_lowered_attrs), call_lowered_rel),
};
OP_REGISTER(call_lowered_ops);
