/*
 * Sparse NN operators: sparse x dense products (CSR or BSR), the sparse convolution, the CSR
 * transpose and sparse + dense addition.  Each relation computes what TVM v0.13's XxxRel computes.
 * Facts from TVM v0.13 src/relay/op/nn/sparse.cc and the attribute structs SparseDenseAttrs,
 * SparseTransposeAttrs, SparseConv2DAttrs in include/tvm/relay/attrs/nn.h.
 *
 * A sparse matrix is three tensors: data (the non-zeros: a vector for CSR, (nnz_blocks, bs_r,
 * bs_c) blocks for BSR), indices and indptr (one more entry than rows or block rows).  The result
 * types follow from the shapes alone; an indptr of `?` extent gives a `?` row count.
 *
 * Where TVM dereferences an argument that is not a tensor, or indexes past a shape's rank, it
 * crashes; the relations reject such calls with a message instead.
 *
 * None of these ops has generators: a call only makes sense with index data (indices, indptr) that
 * describes a valid sparse matrix, which a type-directed generator cannot make (see
 * tests/unit/test_opgen.c).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(nn_sparse);

/* ================================================================== helpers the blocks below share */

/* Argument i as a tensor of rank at least `rank` (TVM reads its shape[rank - 1]). */
static const Type *ranked_arg(OpCall *c, size_t i, unsigned rank, const char *what) {
  const Type *t = op_tensor_arg(c, i);
  if (t && t->ndims < rank) {
    op_fail(c, (int)i, "%s: %s must have at least %u dimension%s, got rank %u", c->op->name, what, rank,
            rank == 1 ? "" : "s", t->ndims);
    return NULL;
  }
  return t;
}

/* A negative extent (an empty indptr's), which must not pass for `?` (-1). */
#define NEG INT64_MIN

/* The rows of a CSR / BSR matrix: indptr's extent minus one (times the block's rows for BSR).
   False after failing on an overflow. */
static bool sparse_rows(OpCall *c, const Type *data, const Type *indptr, int64_t *rows) {
  int64_t n = indptr->dims[0];
  if (n == KIT_ANY) return *rows = KIT_ANY, true;
  if (n == 0) return *rows = NEG, true;
  if (data->ndims == 1) return *rows = n - 1, true;
  return kit_dim_mul(c, n - 1, data->dims[1], rows); /* n - 1 >= 0 */
}

static const Type *checked(OpCall *c, DType dtype, const int64_t *o, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (o[i] == NEG)
      return op_fail(c, 3, "%s: the result would have a negative extent (an empty indptr)", c->op->name);
  return ty_tensor(c->types, dtype, o, n);
}

/* ------------------------------------------------------- nn.sparse_dense, nn.internal.sparse_dense_padded */

/* SparseDenseRel: dense (M, K) x sparse (N, K)^T -> (M, N); with sparse_lhs, sparse (M, K) x
   dense (N, K)^T -> (M, N) in the dense argument's dtype.  Arguments: dense, sparse data, sparse
   indices, sparse indptr. */
static const Type *sparse_dense_rel(OpCall *c) {
  const char *name = c->op->name;
  const Type *sdata = op_tensor_arg(c, 1);
  if (!sdata) return NULL;
  if (sdata->ndims != 1 && sdata->ndims != 3)
    return op_fail(c, 1, "%s: Check failed: %s_data->shape.size() == 1 || %s_data->shape.size() == 3 (the sparse data must be 1-D (CSR) or 3-D (BSR), got rank %u)",
                   name, op_bool(c, "sparse_lhs") ? "data" : "weight", op_bool(c, "sparse_lhs") ? "data" : "weight",
                   sdata->ndims);
  const Type *indptr = ranked_arg(c, 3, 1, "the indptr"), *dense = indptr ? ranked_arg(c, 0, 1, "the dense argument") : NULL;
  if (!dense) return NULL;
  int64_t rows;
  if (!sparse_rows(c, sdata, indptr, &rows)) return NULL;
  if (op_bool(c, "sparse_lhs")) {
    int64_t o[2] = {rows, dense->dims[0]};
    return checked(c, dense->dtype, o, 2);
  }
  int64_t o[2] = {dense->dims[0], rows};
  return checked(c, dense->dtype, o, 2);
}

/* SparseDenseAttrs (nn.sparse_dense and nn.internal.sparse_dense_padded), SparseConv2DAttrs;
   SparseTransposeAttrs has no fields and nn.sparse_add no attribute type. */
static const OpAttrSpec sparse_dense_attrs[] = {{"sparse_lhs", AT_BOOL, "False"}};

static const OpDef sparse_dense_ops[] = {
    KIT_OP("nn.sparse_dense", 4, sparse_dense_attrs, sparse_dense_rel),
    /* what sparse_dense becomes on GPUs (row lengths padded to a multiple of 32); same relation */
    KIT_OP("nn.internal.sparse_dense_padded", 4, sparse_dense_attrs, sparse_dense_rel),
};
OP_REGISTER(sparse_dense_ops);

/* ------------------------------------------------------------------ nn.sparse_transpose */

/* SparseTransposeRel: the transposed CSR matrix's three tensors have the types of the given ones. */
static const Type *sparse_transpose_rel(OpCall *c) {
  const char *name = c->op->name;
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims != 1) return op_fail(c, 0, "%s: Check failed: sparse_data->shape.size() == 1 (got %u)", name, data->ndims);
  const Type *indices = op_tensor_arg(c, 1);
  if (!indices) return NULL;
  if (indices->ndims != 1)
    return op_fail(c, 1, "%s: Check failed: sparse_indices->shape.size() == 1 (got %u)", name, indices->ndims);
  const Type *indptr = op_tensor_arg(c, 2);
  if (!indptr) return NULL;
  const Type *fields[3] = {data, indices, indptr};
  return ty_tuple(c->types, fields, 3);
}

static const OpDef sparse_transpose_ops[] = {
    KIT_OP_NOATTRS("nn.sparse_transpose", 3, sparse_transpose_rel),
};
OP_REGISTER(sparse_transpose_ops);

/* ------------------------------------------------------------------ nn.sparse_add */

/* SparseAddRel: dense + CSR sparse, of the dense argument's type. */
static const Type *sparse_add_rel(OpCall *c) {
  const char *name = c->op->name;
  const Type *dense = op_tensor_arg(c, 0), *sdata = dense ? op_tensor_arg(c, 1) : NULL;
  if (!sdata) return NULL;
  if (!dtype_eq(sdata->dtype, dense->dtype))
    return op_fail(c, 1, "%s: sparse tensor and dense tensor datatype should match.", name);
  if (sdata->ndims != 1) return op_fail(c, 1, "%s: sparse data tensor should be 1D.", name);
  const Type *indices = op_tensor_arg(c, 2);
  if (!indices) return NULL;
  if (indices->ndims != 1) return op_fail(c, 2, "%s: sparse indices tensor should be 1D.", name);
  return ty_tensor(c->types, dense->dtype, dense->dims, dense->ndims);
}

static const OpDef sparse_add_ops[] = {
    KIT_OP_NOATTRS("nn.sparse_add", 4, sparse_add_rel),
};
OP_REGISTER(sparse_add_ops);

/* ------------------------------------------------------------------ nn.sparse_conv2d */

/* SparseConv2dRel: a 1x1 (or kxk) convolution with a BSR (3-D data) or CSR-like (2-D data) weight:
   the output channels are the weight's rows; layout NHWC or NCHW. */
static const Type *sparse_conv2d_rel(OpCall *c) {
  const char *name = c->op->name;
  const Type *wdata = op_tensor_arg(c, 1);
  if (!wdata) return NULL;
  if (wdata->ndims < 1 || wdata->ndims > 3)
    return op_fail(c, 1, "%s: Check failed: weight_data->shape.size() == 1 || weight_data->shape.size() == 2 || "
                         "weight_data->shape.size() == 3 (got rank %u)", name, wdata->ndims);
  const Type *indptr = ranked_arg(c, 3, 1, "the indptr");
  const Type *data = indptr ? op_tensor_arg(c, 0) : NULL;
  if (!data) return NULL;
  const char *layout = op_str(c, "layout");
  bool nhwc = !strcmp(layout, "NHWC"), nchw = !strcmp(layout, "NCHW");
  if (wdata->ndims == 1 || (!nhwc && !nchw))
    return op_fail(c, 1, "%s: Unknown weight ndim %u for nn.sparse_conv2d, should be 2 or 3 (BSR)%s", name, wdata->ndims,
                   wdata->ndims == 1 ? "" : " (or the layout is neither NHWC nor NCHW)");
  if (data->ndims < 4) return op_fail(c, 0, "%s: the data must have rank 4, got %u", name, data->ndims);
  int64_t rows;
  if (!sparse_rows(c, wdata, indptr, &rows)) return NULL;
  const int64_t *d = data->dims;
  if (nhwc) {
    int64_t o[4] = {d[0], d[1], d[2], rows};
    return checked(c, data->dtype, o, 4);
  }
  int64_t o[4] = {d[0], rows, d[2], d[3]};
  return checked(c, data->dtype, o, 4);
}

static const OpAttrSpec sparse_conv2d_attrs[] = {{"layout", AT_STR, "\"NHWC\""}, {"kernel_size", AT_INTS, "[1, 1]"}};

static const OpDef sparse_conv2d_ops[] = {
    KIT_OP("nn.sparse_conv2d", 4, sparse_conv2d_attrs, sparse_conv2d_rel),
};
OP_REGISTER(sparse_conv2d_ops);
