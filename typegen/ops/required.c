/*
 * Attributes TVM's text parser requires: fields of the op's attrs struct declared without a
 * default (TVM_ATTR_FIELD without set_default), so that a call omitting them is rejected with
 * "Cannot find required field" even where the relation would accept the default.  Read off TVM
 * v0.13.0 itself (tvm.ir.make_node on each op's attrs_type_key; see tests/tvm/ and bench/RESULTS.md,
 * "Fidelity"), and off v0.19.0 for the fields it added; the schema's default is what `X=None` (or
 * the usual value) means.  relaykit prints these attributes always, so that what rgen, rmutate and
 * rreduce write TVM reads; `rcheck --tvm-strict` rejects a call without them, as TVM does (by
 * default their default is taken).  A pair holds where the op's row (of the chosen release) has
 * the attribute: qnn.dequantize's and qnn.simulated_dequantize's out_dtype and the gemm transform's tile_N and tile_K are
 * v0.19.0's, tile_rows and tile_cols v0.13.0's.
 */
#include <string.h>

#include "ops.h"

static const char *const required[][2] = {
    {"annotation.cast_hint", "dtype"},
    {"annotation.compiler_begin", "compiler"},
    {"annotation.compiler_end", "compiler"},
    {"arange", "start"},
    {"arange", "stop"},
    {"arange", "step"},
    {"arange", "dtype"},
    {"broadcast_to", "shape"},
    {"cast", "dtype"},
    {"clip", "a_min"},
    {"collapse_sum_to", "shape"},
    {"clip", "a_max"},
    {"contrib_reverse_reshape", "newshape"},
    {"dyn.broadcast_to", "shape"},
    {"dyn.full", "shape"},
    {"dyn.nn.pad", "pad_width"},
    {"dyn.nn.upsampling", "scale_h"},
    {"dyn.nn.upsampling", "scale_w"},
    {"dyn.nn.upsampling3d", "scale_d"},
    {"dyn.nn.upsampling3d", "scale_h"},
    {"dyn.nn.upsampling3d", "scale_w"},
    {"dyn.ones", "shape"},
    {"dyn.reshape", "newshape"},
    {"dyn.strided_slice", "begin"},
    {"dyn.strided_slice", "end"},
    {"dyn.strided_slice", "strides"},
    {"dyn.strided_slice", "axes"},
    {"dyn.tile", "reps"},
    {"dyn.topk", "k"},
    {"dyn.zeros", "shape"},
    {"einsum", "equation"},
    {"fixed_point_multiply", "multiplier"},
    {"fixed_point_multiply", "shift"},
    {"fixed_point_multiply_per_axis", "axes"},
    {"full", "shape"},
    {"image.affine_grid", "target_shape"},
    {"layout_transform", "src_layout"},
    {"layout_transform", "dst_layout"},
    {"nn.avg_pool1d", "pool_size"},
    {"nn.avg_pool2d", "pool_size"},
    {"nn.avg_pool2d_grad", "pool_size"},
    {"nn.avg_pool3d", "pool_size"},
    {"nn.batch_to_space_nd", "crops"},
    {"nn.bitserial_dense", "units"},
    {"nn.contrib_conv2d_gemm_weight_transform", "tile_K"},
    {"nn.contrib_conv2d_gemm_weight_transform", "tile_N"},
    {"nn.contrib_conv2d_gemm_weight_transform", "tile_cols"},
    {"nn.contrib_conv2d_gemm_weight_transform", "tile_rows"},
    {"nn.contrib_dense_pack", "units"},
    {"nn.dense", "units"},
    {"nn.l2_normalize", "eps"},
    {"nn.l2_normalize", "axis"},
    {"nn.matmul", "units"},
    {"nn.max_pool1d", "pool_size"},
    {"nn.max_pool2d", "pool_size"},
    {"nn.max_pool2d_grad", "pool_size"},
    {"nn.max_pool3d", "pool_size"},
    {"nn.mirror_pad", "pad_width"},
    {"nn.pad", "pad_width"},
    {"nn.space_to_batch_nd", "paddings"},
    {"nn.upsampling", "scale_h"},
    {"nn.upsampling", "scale_w"},
    {"nn.upsampling3d", "scale_d"},
    {"nn.upsampling3d", "scale_h"},
    {"nn.upsampling3d", "scale_w"},
    {"ones", "shape"},
    {"qnn.avg_pool2d", "pool_size"},
    {"qnn.contrib_dense_pack", "units"},
    {"qnn.dense", "units"},
    {"qnn.dequantize", "out_dtype"},
    {"qnn.quantize", "out_dtype"},
    {"qnn.simulated_dequantize", "out_dtype"},
    {"random.normal", "out_shape"},
    {"random.threefry_generate", "out_shape"},
    {"random.uniform", "out_shape"},
    {"reinterpret", "dtype"},
    {"repeat", "repeats"},
    {"reshape", "newshape"},
    {"slice_like", "axes"},
    {"sparse_to_dense", "output_shape"},
    {"split", "indices_or_sections"},
    {"strided_slice", "begin"},
    {"strided_slice", "end"},
    {"strided_slice", "strides"},
    {"strided_slice", "axes"},
    {"tile", "reps"},
    {"topk", "k"},
    {"transpose", "axes"},
    {"vision.get_valid_counts", "score_threshold"},
    {"vision.regular_non_max_suppression", "iou_threshold"},
    {"vision.regular_non_max_suppression", "max_detections"},
    {"vision.regular_non_max_suppression", "max_detections_per_class"},
    {"vision.regular_non_max_suppression", "num_classes"},
    {"vision.regular_non_max_suppression", "score_threshold"},
    {"vision.roi_align", "pooled_size"},
    {"vision.roi_align", "spatial_scale"},
    {"vision.roi_pool", "pooled_size"},
    {"vision.roi_pool", "spatial_scale"},
    {"zeros", "shape"},
};

/* Ops TVM registers without an attrs type (no set_attrs_type), though its Python API makes
   their calls with attributes and its printer writes them: its parser attaches written attributes
   to such a call only with attrs_type_key="..." naming the struct ("unable to determine the
   'attrs_type_key'" otherwise).  vision.* and dyn.expand_dims model this in their schemas. */
static const char *const keyed[][2] = {
    {"annotation.cast_hint", "relay.attrs.CastHintAttrs"},
    {"annotation.compiler_begin", "relay.attrs.CompilerAttrs"},
    {"annotation.compiler_end", "relay.attrs.CompilerAttrs"},
    {"annotation.with_funcid", "relay.attrs.WithFuncIdAttrs"},
    {"collapse_sum_to", "relay.attrs.InitOpAttrs"},
    {"cumprod", "relay.attrs.ScanopAttrs"},
    {"cumsum", "relay.attrs.ScanopAttrs"},
    {"dft", "relay.attrs.DFTAttrs"},
    {"nn.dilate", "relay.attrs.DilateAttrs"},
    {"scatter_elements", "relay.attrs.ScatterElementsAttrs"},
    {"scatter_nd", "relay.attrs.ScatterNDAttrs"},
    {"stft", "relay.attrs.StftAttrs"},
    {"trilu", "relay.attrs.TriluAttrs"},
    {"unique", "relay.attrs.UniqueAttrs"},
};

const char *op_attrs_key(const OpDef *op) {
  for (size_t i = 0; i < sizeof keyed / sizeof *keyed; i++)
    if (!strcmp(keyed[i][0], op->name)) return keyed[i][1];
  return NULL;
}

bool op_takes_attrs_key(const OpDef *op) {
  if (op_attrs_key(op)) return true;
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, "attrs_type_key")) return true; /* vision.*, dyn.expand_dims */
  return false;
}

bool op_attr_required(const OpDef *op, size_t k) {
  for (size_t i = 0; i < sizeof required / sizeof *required; i++)
    if (!strcmp(required[i][0], op->name) && !strcmp(required[i][1], op->attrs[k].name)) return true;
  return false;
}

/* Scalar fields the structs of those ops declare as objects (IntImm, FloatImm, String) where the
   schema has a plain kind: None can set them, and TVM's JSON holds them as node indices.  Read off
   TVM v0.13.0 (AttrsListFieldInfo of each struct); every other int, double, bool and string field
   of an op's struct is a plain value. */
static const char *const boxed[][2] = {
    {"cumprod", "axis"},          {"cumprod", "exclusive"},         {"cumsum", "axis"},
    {"cumsum", "exclusive"},      {"dft", "inverse"},               {"scatter_elements", "axis"},
    {"scatter_elements", "reduction"}, {"scatter_nd", "mode"},      {"vision.get_valid_counts", "score_threshold"},
    {"vision.regular_non_max_suppression", "iou_threshold"},
    {"vision.regular_non_max_suppression", "max_detections"},
    {"vision.regular_non_max_suppression", "max_detections_per_class"},
    {"vision.regular_non_max_suppression", "num_classes"},
    {"vision.regular_non_max_suppression", "score_threshold"},
};

bool op_attr_boxed(const OpDef *op, size_t k) {
  if (op->attrs[k].type == AT_INTS || op->attrs[k].type == AT_ANY) return true; /* Arrays, objects */
  for (size_t i = 0; i < sizeof boxed / sizeof *boxed; i++)
    if (!strcmp(boxed[i][0], op->name) && !strcmp(boxed[i][1], op->attrs[k].name)) return true;
  return false;
}

size_t op_required_table(const char *const (**pairs)[2]) {
  *pairs = required;
  return sizeof required / sizeof *required;
}
