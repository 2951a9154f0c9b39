/*
 * The schemas of TVM's attrs structs (include/tvm/relay/attrs/) whose ops sit in several
 * families, each declared once (see kit.h).  A field TVM declares without a default is spelled
 * None: the schema needs some spelling, and a relation that needs the value rejects None with TVM's
 * "Cannot find required field" message.
 */
#include "kit.h"

/* attrs/nn.h */
const OpAttrSpec kit_conv2d_attrs[] = {KIT_CONV_ATTRS("[1, 1]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"OIHW\"")};
const OpAttrSpec kit_conv2d_transpose_attrs[] = {
    KIT_CONV_T_ATTRS("[1, 1]", "[0, 0]", "[0, 0]", "[1, 1]", "\"NCHW\"", "\"IOHW\"")};
const OpAttrSpec kit_max_pool2d_attrs[] = {KIT_POOL_ATTRS("[1, 1]", "[0, 0]", "\"NCHW\"")};
const OpAttrSpec kit_avg_pool2d_attrs[] = {KIT_POOL_ATTRS("[1, 1]", "[0, 0]", "\"NCHW\""),
                                           {"count_include_pad", AT_BOOL, "False"}};
/* DenseAttrs, DensePackAttrs, BatchMatmulAttrs: units has no default (the printer always writes it,
   units=None included).  BatchMatmulAttrs's transpose_b defaults to False in C++; only the Python
   wrapper passes True, which is why TVM prints transpose_b=True. */
const OpAttrSpec kit_dense_attrs[] = {{"units", AT_INT, "None"}, {"out_dtype", AT_DTYPE, "\"\""}};
const OpAttrSpec kit_dense_pack_attrs[] = {
    {"units", AT_INT, "None"}, {"out_dtype", AT_DTYPE, "\"\""}, {"weight_layout", AT_STR, "\"NC\""}};
const OpAttrSpec kit_batch_matmul_attrs[] = {
    {"out_dtype", AT_DTYPE, "\"\""}, {"transpose_a", AT_BOOL, "False"}, {"transpose_b", AT_BOOL, "False"}};
const OpAttrSpec kit_softmax_attrs[] = {{"axis", AT_INT, "-1"}};
const OpAttrSpec kit_leaky_relu_attrs[] = {{"alpha", AT_FLOAT, "0.25f"}};
const OpAttrSpec kit_pad_attrs[] = {{"pad_width", AT_ANY, "None"}, {"pad_mode", AT_STR, "\"constant\""}};

/* UpSamplingAttrs, UpSampling3DAttrs: TVM declares the scales without a default.  nn.upsampling
   reads them, and a call without them is rejected (None, "Cannot find required field").
   dyn.nn.upsampling takes its scales as arguments: TVM's MakeUpSampling leaves the fields at
   make_object's zero, which its printer writes as scale_h=0f, so that is the default there (and
   None, which TVM's parser cannot set a double to, would be refused). */
#define UPSAMPLING_ATTRS(scale)                                                                              \
  {"scale_h", AT_FLOAT, scale}, {"scale_w", AT_FLOAT, scale}, {"layout", AT_STR, "\"NCHW\""},                \
      {"method", AT_STR, "\"nearest_neighbor\""}, {                                                          \
    "align_corners", AT_BOOL, "False"                                                                        \
  }
#define UPSAMPLING3D_ATTRS(scale)                                                                            \
  {"scale_d", AT_FLOAT, scale}, {"scale_h", AT_FLOAT, scale}, {"scale_w", AT_FLOAT, scale},                  \
      {"layout", AT_STR, "\"NCDHW\""}, {"method", AT_STR, "\"nearest_neighbor\""}, {                         \
    "coordinate_transformation_mode", AT_STR, "\"half_pixel\""                                               \
  }
const OpAttrSpec kit_upsampling_attrs[] = {UPSAMPLING_ATTRS("None")};
const OpAttrSpec kit_dyn_upsampling_attrs[] = {UPSAMPLING_ATTRS("0f")};
const OpAttrSpec kit_upsampling3d_attrs[] = {UPSAMPLING3D_ATTRS("None")};
const OpAttrSpec kit_dyn_upsampling3d_attrs[] = {UPSAMPLING3D_ATTRS("0f")};

/* attrs/image.h: Resize2DAttrs; roi holds floats, hence AT_ANY. */
const OpAttrSpec kit_resize2d_attrs[] = {{"size", AT_INTS, "None"},
                                         {"roi", AT_ANY, "None"},
                                         {"layout", AT_STR, "\"NCHW\""},
                                         {"method", AT_STR, "\"linear\""},
                                         {"coordinate_transformation_mode", AT_STR, "\"half_pixel\""},
                                         {"rounding_method", AT_STR, "\"round\""},
                                         {"cubic_alpha", AT_FLOAT, "-0.5f"},
                                         {"cubic_exclude", AT_INT, "0"},
                                         {"extrapolation_value", AT_FLOAT, "0f"},
                                         {"out_dtype", AT_DTYPE, "\"\""}};

/* attrs/transform.h */
const OpAttrSpec kit_cast_attrs[] = {{"dtype", AT_DTYPE, "\"\""}};
const OpAttrSpec kit_concatenate_attrs[] = {{"axis", AT_INT, "0"}};
const OpAttrSpec kit_init_op_attrs[] = {{"shape", AT_INTS, "None"}, {"dtype", AT_DTYPE, "\"\""}};
const OpAttrSpec kit_reshape_attrs[] = {{"newshape", AT_INTS, "None"}, {"allowzero", AT_BOOL, "False"}};
const OpAttrSpec kit_squeeze_attrs[] = {{"axis", AT_INTS, "None"}};
const OpAttrSpec kit_tile_attrs[] = {{"reps", AT_INTS, "None"}};
const OpAttrSpec kit_one_hot_attrs[] = {
    {"depth", AT_INT, "1"}, {"axis", AT_INT, "-1"}, {"dtype", AT_DTYPE, "\"\""}};
/* ShapeOfAttrs: TVM's default is the void dtype (NullValue<DataType>), which shape_of keeps.
   vm.shape_of's default here has always been int32, though it is the same struct in TVM (whose
   ShapeOf helper writes int64): a departure from TVM, kept so that nothing changes here. */
const OpAttrSpec kit_shape_of_attrs[] = {{"dtype", AT_DTYPE, "\"\""}};
const OpAttrSpec kit_vm_shape_of_attrs[] = {{"dtype", AT_DTYPE, "\"int32\""}};

/* qnn/attrs.h: DequantizeAttrs (qnn.dequantize, qnn.simulated_dequantize).  Only axis in v0.13.0;
   v0.19.0 declares out_dtype first, without a default (required: the printer always writes it;
   float32 is what its Python API passes). */
const OpAttrSpec kit_dequantize_attrs_v13[] = {{"axis", AT_INT, "-1"}};
const OpAttrSpec kit_dequantize_attrs[] = {{"out_dtype", AT_DTYPE, "\"float32\""}, {"axis", AT_INT, "-1"}};

/* attrs/algorithm.h */
const OpAttrSpec kit_topk_attrs[] = {{"k", AT_INT, "None"},
                                     {"axis", AT_INT, "-1"},
                                     {"ret_type", AT_STR, "\"both\""},
                                     {"is_ascend", AT_BOOL, "False"},
                                     {"dtype", AT_DTYPE, "\"\""}};
