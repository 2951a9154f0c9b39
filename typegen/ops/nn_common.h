/*
 * Helpers of the NN relations and generators (defined in ops/nn.c) that the other NN families
 * (ops/nn_conv*.c, nn_grad.c, nn_sparse.c) share: argument and attribute checks, layouts checked
 * against a canonical one (tir::Layout itself is ops/layout.h), padding totals, Conv2DRel, and the generators' random tensors and
 * sliding-window solver.  Each is documented at its definition in nn.c.
 */
#ifndef RELAYKIT_OPS_NN_COMMON_H
#define RELAYKIT_OPS_NN_COMMON_H

#include "ops.h"
#include "layout.h"
#include "opx.h"

/* ------------------------------------------------------------------ relations */
const char *dims_str(const int64_t *d, size_t n, char *buf, size_t cap);
int64_t *dims_dup(const Type *t);
const Type *tensor_free(OpCall *c, DType dtype, int64_t *dims, size_t n);
bool required(OpCall *c, const char *name);
long ints_attr(OpCall *c, const char *name, int64_t *out, size_t max);
bool ints_need(OpCall *c, const char *name, size_t need, int64_t *out, size_t max);
bool all_positive(OpCall *c, const char *name, const int64_t *v, size_t n);
bool assign_arg(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n);

bool layout_to_canon(OpCall *c, const char *attr, const char *s, const Layout *canon, Layout *l, const char *fmt);
bool pad_totals(OpCall *c, size_t nd, int64_t *pad);

/* Conv2DRel (convolution.cc), as nn.conv2d uses it (ops/nn.c). */
const Type *conv2d_rel(OpCall *c);
/* Conv2DWinogradRel<Conv2DAttrs>, which TVM registers for nn.contrib_conv2d_NCHWc (ops/nn_conv.c). */
const Type *conv2d_nchwc_rel(OpCall *c);

/* The attributes of Conv1DAttrs, Conv2DAttrs, Conv3DAttrs and (after tile_size) Conv2DWinogradAttrs,
   Conv3DWinogradAttrs (attrs/nn.h), in declaration order: channels and kernel_size default to null. */
#define CONV_ATTRS(strides, padding, dilation, data_layout, kernel_layout)                                          \
  {"strides", AT_INTS, strides}, {"padding", AT_INTS, padding}, {"dilation", AT_INTS, dilation},                   \
      {"groups", AT_INT, "1"}, {"channels", AT_INT, "None"}, {"kernel_size", AT_INTS, "None"},                     \
      {"data_layout", AT_STR, data_layout}, {"kernel_layout", AT_STR, kernel_layout}, {"out_layout", AT_STR, "\"\""}, \
      {"out_dtype", AT_DTYPE, "\"\""}
/* MaxPool*Attrs / AvgPool*Attrs: pool_size is required; dilation is declared before padding. */
#define POOL_ATTRS(ones, zeros, layout)                                                                     \
  {"pool_size", AT_INTS, "None"}, {"strides", AT_INTS, ones}, {"dilation", AT_INTS, ones},                 \
      {"padding", AT_INTS, zeros}, {"layout", AT_STR, layout}, {"out_layout", AT_STR, "\"\""},             \
      {"ceil_mode", AT_BOOL, "False"}

/* ------------------------------------------------------------------ generators */
bool gen_tensor_ok(const OpDef *op, const Type *t, unsigned lo, unsigned hi, int64_t min_dim);
bool rank4_recognize(const OpDef *op, const Type *t);
bool rank5_recognize(const OpDef *op, const Type *t);
const Type *rand_tensor(OpGen *g, DType dtype, size_t rank);
bool sample_ranked(OpGen *g, const OpDef *op, OpPlan *out, unsigned lo, unsigned hi, DType fixed);
void set_dtype_attr(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, DType d);
void maybe_out_dtype(OpGen *g, const OpDef *op, OpPlan *plan, DType d);
int64_t pick_divisor(OpGen *g, int64_t n, int64_t lo);
void permute(const char *from, const int64_t *src, const char *to, int64_t *dst);

/* One window per spatial axis, for convolutions and pools: kernel, stride, dilation, padding before
   and after, a transposed convolution's output padding, and the input extent they need. */
enum { WIN_CONV, WIN_CONV_T, WIN_POOL };
enum { PAD_ONE, PAD_PER_AXIS, PAD_FULL }; /* padding spelled [p], [p_axis...] or [before..., after...] */
typedef struct Window {
  size_t nd;
  int pad_form;
  int64_t k[3], s[3], dil[3], pb[3], pa[3], opad[3], in[3];
} Window;

bool window_solve(OpGen *g, int kind, size_t nd, const int64_t *o, bool minimal, bool ceil_mode, bool full_pad,
                  Window *w);
void set_window(OpGen *g, const OpDef *op, OpPlan *out, const Window *w);
int64_t prod(const int64_t *v, size_t n);
int64_t derived_budget(const OpGen *g);

#endif
