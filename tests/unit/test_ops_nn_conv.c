/* Convolution variants (typegen/ops/nn_conv.c) against TVM v0.13's relations.  Cases marked "TVM
   test" take their types from tests/python/relay (test_op_level1.py, test_op_level2.py,
   test_op_level5.py: `checked_type == relay.TensorType(...)`); "corpus" cases come from the `ty=`
   comments of ../shared/corpus; the others are worked out from the relations by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

/* ------------------------------------------------------------------ conv3d_transpose */

static void test_conv3d_transpose(void **state) {
  (void)state;
  /* TVM test test_conv3d_transpose_infer_type: the weight follows from channels and kernel_size */
  assert_infers("nn.conv3d_transpose", "Tensor[(?, 10, 224, 224, 224), float32], Tensor[(10, 2, 3, 3, 3), float32]",
                "channels=2, kernel_size=[3, 3, 3], padding=[1, 1, 1]", "Tensor[(?, 2, 224, 224, 224), float32]");
  /* ... from the weight, mixed precision; and different input and weight dtypes */
  assert_infers("nn.conv3d_transpose", "Tensor[(?, 10, 224, 224, 224), int8], Tensor[(10, 12, 3, 3, 3), int8]",
                "out_dtype=\"int32\"", "Tensor[(?, 12, 226, 226, 226), int32]");
  assert_infers("nn.conv3d_transpose", "Tensor[(?, 10, 224, 224, 224), uint8], Tensor[(10, 12, 3, 3, 3), int8]",
                "out_dtype=\"int32\"", "Tensor[(?, 12, 226, 226, 226), int32]");
  /* strides, output padding */
  assert_infers("nn.conv3d_transpose", "Tensor[(1, 4, 3, 3, 3), float32], Tensor[(4, 8, 2, 2, 2), float32]",
                "strides=[2, 2, 2], output_padding=[1, 1, 1]", "Tensor[(1, 8, 7, 7, 7), float32]");
  /* Sic: from the weight, the output height takes the kernel's width and the output width its
     height; from kernel_size, each axis its own. */
  assert_infers("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 8, 1, 3, 5), float32]", "",
                "Tensor[(1, 8, 5, 9, 7), float32]");
  assert_infers("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 8, 1, 3, 5), float32]",
                "channels=8, kernel_size=[1, 3, 5]", "Tensor[(1, 8, 5, 7, 9), float32]");
  /* NDHWC data, output layout */
  assert_infers("nn.conv3d_transpose", "Tensor[(1, 5, 5, 5, 4), float32], Tensor[(4, 8, 3, 3, 3), float32]",
                "data_layout=\"NDHWC\", out_layout=\"NCDHW\"", "Tensor[(1, 8, 7, 7, 7), float32]");
  assert_rejects("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 8, 3, 3, 3), float32]",
                 "kernel_size=[3, 3, 1]", "shape of weight is inconsistent with kernel_size");
  assert_rejects("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 8, 3, 3, 3), float32]",
                 "channels=6", "inconsistent out_channels");
  assert_rejects("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(5, 8, 3, 3, 3), float32]", "",
                 "input channels");
  assert_rejects("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 8, 3, 3, 3), float32]",
                 "channels=8, kernel_size=[3, 3, 3], dilation=[1, 1]", "dilation must have 3 values");
  assert_rejects("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5, 5), float32], Tensor[(4, 8, 3, 3, 3), float32]",
                 "data_layout=\"NCHW\"",
                 "Conv3d_transpose only support input layouts that are convertible from NCDHW. But got NCHW");
  assert_rejects("nn.conv3d_transpose", "Tensor[(1, 4, 5, 5), float32], Tensor[(4, 8, 3, 3, 3), float32]", "",
                 "argument 1 has rank 4");
}

/* ------------------------------------------------------------------ Winograd, NCHWc, GEMM */

static void test_winograd(void **state) {
  (void)state;
  /* the weight (pre-transformed, tile 4: 6x6) is not checked */
  assert_infers("nn.contrib_conv2d_winograd_without_weight_transform",
                "Tensor[(1, 64, 56, 56), float32], Tensor[(6, 6, 64, 64), float32]",
                "tile_size=4, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]", "Tensor[(1, 64, 56, 56), float32]");
  assert_infers("nn.contrib_conv2d_winograd_without_weight_transform", "Tensor[(1, 64, 56, 56), float32], (int32, int32)",
                "tile_size=2, strides=[2, 2], channels=32, kernel_size=[3, 3], out_dtype=\"float16\"",
                "Tensor[(1, 32, 27, 27), float16]");
  /* `/` truncates: (2 - 3) / 2 + 1 is 1 */
  assert_infers("nn.contrib_conv2d_winograd_without_weight_transform", "Tensor[(1, 1, 2, 2), float32], Tensor[(1), float32]",
                "tile_size=2, strides=[2, 2], channels=1, kernel_size=[3, 3]", "Tensor[(1, 1, 1, 1), float32]");
  assert_rejects("nn.contrib_conv2d_winograd_without_weight_transform",
                 "Tensor[(1, 64, 56, 56), float32], Tensor[(6, 6, 64, 64), float32]", "tile_size=4, channels=64",
                 "The kernel size and channels of a Conv must be set or inferred by previous pass");
  assert_rejects("nn.contrib_conv2d_winograd_without_weight_transform",
                 "Tensor[(1, 64, 56, 56), float32], Tensor[(6, 6, 64, 64), float32]", "channels=64, kernel_size=[3, 3]",
                 "Cannot find required field 'tile_size'");
  assert_rejects("nn.contrib_conv2d_winograd_without_weight_transform",
                 "Tensor[(1, 64, 56, 56), float32], Tensor[(6, 6, 64, 64), float32]",
                 "tile_size=4, channels=64, kernel_size=[3, 3], kernel_layout=\"OIDHW\"",
                 "Conv only support kernel layouts that are convertible from OIHW. But got OIDHW");

  assert_infers("nn.contrib_conv3d_winograd_without_weight_transform",
                "Tensor[(1, 32, 16, 16, 16), float32], Tensor[(6, 6, 6, 16, 32), float32]",
                "tile_size=4, padding=[1, 1, 1], channels=16, kernel_size=[3, 3, 3]",
                "Tensor[(1, 16, 16, 16, 16), float32]");
  /* sic: a `?` depth leaves the height as it is */
  assert_infers("nn.contrib_conv3d_winograd_without_weight_transform", "Tensor[(1, 4, ?, 8, 8), float32], Tensor[(1), float32]",
                "tile_size=2, channels=4, kernel_size=[3, 3, 3]", "Tensor[(1, 4, ?, 8, 6), float32]");
  assert_rejects("nn.contrib_conv3d_winograd_without_weight_transform",
                 "Tensor[(1, 4, 8, 8, 8), float32], Tensor[(1), float32]", "tile_size=2, channels=4, kernel_size=[3, 3]",
                 "kernel_size must have 3 values");

  /* corpus tvm-tests/printed/test_crt_aot__1.relay: Conv2DWinogradRel on packed layouts */
  assert_infers("nn.contrib_conv2d_NCHWc", "Tensor[(1, 1, 4, 4, 4), float32], Tensor[(1, 1, 3, 3, 4, 4), float32]",
                "padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3], data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\", "
                "out_layout=\"NCHW4c\"",
                "Tensor[(1, 1, 4, 4, 4), float32]");
  assert_rejects("nn.contrib_conv2d_NCHWc", "Tensor[(1, 1, 4, 4, 4), float32], Tensor[(1, 1, 3, 3, 4, 4), float32]",
                 "padding=[1, 1, 1, 1], data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\", out_layout=\"NCHW4c\"",
                 "The kernel size and channels of a Conv must be set");

  /* Conv2DRel on packed layouts, depthwise: 32 channels in blocks of 8 */
  assert_infers("nn.contrib_depthwise_conv2d_NCHWc", "Tensor[(1, 4, 56, 56, 8), float32], Tensor[(4, 1, 3, 3, 1, 8), float32]",
                "padding=[1, 1], groups=32, channels=32, kernel_size=[3, 3], data_layout=\"NCHW8c\", "
                "kernel_layout=\"OIHW1i8o\", out_layout=\"NCHW8c\"",
                "Tensor[(1, 4, 56, 56, 8), float32]");
  assert_rejects("nn.contrib_depthwise_conv2d_NCHWc", "Tensor[(1, 4, 56, 56, 8), float32], Tensor[(4, 2, 3, 3, 1, 8), float32]",
                 "padding=[1, 1], groups=32, channels=32, kernel_size=[3, 3], data_layout=\"NCHW8c\", "
                 "kernel_layout=\"OIHW1i8o\", out_layout=\"NCHW8c\"",
                 "dimension 1 conflicts");
}

static void test_weight_transforms(void **state) {
  (void)state;
  assert_infers("nn.contrib_conv2d_winograd_weight_transform", "Tensor[(64, 32, 3, 3), float32]", "tile_size=4",
                "Tensor[(6, 6, 64, 32), float32]");
  assert_infers("nn.contrib_conv2d_winograd_weight_transform", "Tensor[(64, ?, 3, 5), float16]", "tile_size=2",
                "Tensor[(4, 6, 64, ?), float16]");
  assert_rejects("nn.contrib_conv2d_winograd_weight_transform", "Tensor[(64, 32, 3), float32]", "tile_size=4",
                 "Only support NCHW normal kernel layout");
  assert_rejects("nn.contrib_conv2d_winograd_weight_transform", "Tensor[(64, 32, 3, 3), float32]", "",
                 "Cannot find required field 'tile_size'");
  /* a depth of 3..7 is transformed; otherwise it stays last */
  assert_infers("nn.contrib_conv3d_winograd_weight_transform", "Tensor[(16, 8, 3, 3, 3), float32]", "tile_size=4",
                "Tensor[(6, 6, 6, 16, 8), float32]");
  assert_infers("nn.contrib_conv3d_winograd_weight_transform", "Tensor[(16, 8, 1, 3, 3), float32]", "tile_size=4",
                "Tensor[(6, 6, 1, 16, 8), float32]");
  assert_rejects("nn.contrib_conv3d_winograd_weight_transform", "Tensor[(16, 8, ?, 3, 3), float32]", "tile_size=4",
                 "must be a constant");
  assert_rejects("nn.contrib_conv3d_winograd_weight_transform", "Tensor[(16, 8, 3, 3), float32]", "tile_size=4",
                 "Only support NCDHW normal kernel layout");
  assert_infers("nn.contrib_conv2d_winograd_nnpack_weight_transform", "Tensor[(64, 32, 3, 3), float32]",
                "convolution_algorithm=2", "Tensor[(64, 32, 8, 8), float32]");
  assert_infers("nn.contrib_conv2d_winograd_nnpack_weight_transform", "Tensor[(64, 32, 3, 3), float32]",
                "convolution_algorithm=2, out_dtype=\"float16\"", "Tensor[(64, 32, 8, 8), float16]");
  assert_rejects("nn.contrib_conv2d_winograd_nnpack_weight_transform", "Tensor[(64, 32, 3, 3), float32]", "",
                 "Cannot find required field 'convolution_algorithm'");
  /* HWIO (3, 3, 64, 128): K = 576 in tiles of 16, N = 128 in tiles of 4; then padded up (v0.13.0) */
  op_test_release("0.13");
  assert_infers("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 64, 128), int8]", "tile_rows=4, tile_cols=16",
                "Tensor[(32, 36, 4, 16), int8]");
  assert_infers("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), int8]", "tile_rows=4, tile_cols=16",
                "Tensor[(3, 2, 4, 16), int8]");
  assert_rejects("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 10), int8]", "tile_rows=4, tile_cols=16",
                 "Only support HWIO kernel layout");
  /* v0.19.0: tile_N and tile_K, K padded to four tiles, (k, n) tiles but for 8-bit integers (measured
     on v0.19.0: (3, 3, 5, 7) with tiles 4 and 4 gives (2, 12, 4, 4)) */
  op_test_release("0.19");
  assert_infers("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 64, 128), int8]", "tile_N=4, tile_K=16",
                "Tensor[(32, 36, 4, 16), int8]");
  assert_infers("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), int8]", "tile_N=4, tile_K=16",
                "Tensor[(3, 4, 4, 16), int8]");
  assert_infers("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), float32]", "tile_N=4, tile_K=16",
                "Tensor[(3, 4, 16, 4), float32]");
  assert_infers("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 5, 7), float32]", "tile_N=4, tile_K=4",
                "Tensor[(2, 12, 4, 4), float32]");
  assert_rejects("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), int8]", "tile_N=0, tile_K=16",
                 "tile_N and tile_K must be positive");
  assert_rejects("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), int8]", "tile_N=4",
                 "Cannot find required field 'tile_K'");
  op_test_release("0.13");
  assert_rejects("nn.contrib_conv2d_gemm_weight_transform", "Tensor[(3, 3, 3, 10), int8]", "tile_rows=4",
                 "Cannot find required field 'tile_cols'");
  op_test_release("0.19");
}

static void test_gemm(void **state) {
  (void)state;
  assert_infers("nn.contrib_conv2d_gemm_without_weight_transform", "Tensor[(1, 56, 56, 64), int8], Tensor[(32, 36, 4, 16), int8]",
                "padding=[1, 1, 1, 1], channels=128, kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\", "
                "out_dtype=\"int32\"",
                "Tensor[(1, 56, 56, 128), int32]");
  /* Conv2DAttrs' default layouts are NCHW / OIHW, which convert to NHWC / HWIO */
  assert_infers("nn.contrib_conv2d_gemm_without_weight_transform", "Tensor[(1, 64, 56, 56), float32], Tensor[(1), float32]",
                "strides=[2, 2], channels=8, kernel_size=[3, 3]", "Tensor[(1, 8, 27, 27), float32]");
  /* sic: W's `?` leaves H as it is; H is computed from W's extent's test */
  assert_infers("nn.contrib_conv2d_gemm_without_weight_transform", "Tensor[(1, 56, ?, 64), float32], Tensor[(1), float32]",
                "channels=8, kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\"", "Tensor[(1, 56, ?, 8), float32]");
  assert_rejects("nn.contrib_conv2d_gemm_without_weight_transform", "Tensor[(1, 56, 56, 64), float32], Tensor[(1), float32]",
                 "kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\"", "kernel size and channels of a Conv must be set");
  assert_rejects("nn.contrib_conv2d_gemm_without_weight_transform", "Tensor[(1, 56, 56, 64), float32], Tensor[(1), float32]",
                 "channels=8, kernel_size=[3, 3], data_layout=\"NDHWC\", kernel_layout=\"HWIO\"",
                 "Conv only support input layouts that are convertible from NHWC. But got NDHWC");
}

/* ------------------------------------------------------------------ deformable */

static void test_deformable_conv2d(void **state) {
  (void)state;
  /* TVM test TestDeformableConv2D (batch 1, 4 channels in and out, 4 deformable groups, 3x3, 16x16) */
  assert_infers("nn.deformable_conv2d",
                "Tensor[(1, 4, 16, 16), float32], Tensor[(1, 72, 16, 16), float32], Tensor[(4, 4, 3, 3), float32]",
                "padding=[1, 1], deformable_groups=4, channels=4, kernel_size=[3, 3]", "Tensor[(1, 4, 16, 16), float32]");
  /* groups 2, NHWC / HWIO, 1 deformable group */
  assert_infers("nn.deformable_conv2d",
                "Tensor[(2, 16, 16, 4), float32], Tensor[(2, 16, 16, 18), float32], Tensor[(3, 3, 2, 4), float32]",
                "padding=[1, 1], groups=2, channels=4, kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\"",
                "Tensor[(2, 16, 16, 4), float32]");
  /* everything from the weight */
  assert_infers("nn.deformable_conv2d",
                "Tensor[(1, 4, 10, 10), float32], Tensor[(1, 18, 8, 8), float32], Tensor[(6, 4, 3, 3), float32]", "",
                "Tensor[(1, 6, 8, 8), float32]");
  assert_rejects("nn.deformable_conv2d",
                 "Tensor[(1, 4, 16, 16), float32], Tensor[(1, 36, 16, 16), float32], Tensor[(4, 4, 3, 3), float32]",
                 "padding=[1, 1], deformable_groups=4, channels=4, kernel_size=[3, 3]", "argument 2 has type");
  /* the inferred weight has the data's dtype */
  assert_rejects("nn.deformable_conv2d",
                 "Tensor[(1, 4, 16, 16), float32], Tensor[(1, 18, 16, 16), float32], Tensor[(4, 4, 3, 3), float16]",
                 "padding=[1, 1], channels=4, kernel_size=[3, 3]", "argument 3 has type");
  assert_rejects("nn.deformable_conv2d",
                 "Tensor[(1, 4, 16, 16), float32], Tensor[(1, 18, 16, 16), float32], Tensor[(4, 4, 3, 3), float32]",
                 "data_layout=\"NCW\"",
                 "deformable_conv2d only support input layouts that are convertible from NCHW. The provided layout is: NCW");
  assert_rejects("nn.deformable_conv2d",
                 "Tensor[(1, 4, 16, 16), float32], Tensor[(1, 18, 14, 14), float32], Tensor[(4, 4, 3, 3), float32]",
                 "kernel_size=[5, 5]", "inconsistent with kernel_size");
}

/* ------------------------------------------------------------------ bitserial, dense_pack, correlation */

static void test_bitserial(void **state) {
  (void)state;
  /* TVM test test_bitpack_infer_type */
  assert_infers("nn.bitpack", "Tensor[(32, 32, 128, 128), int16]", "bits=1, pack_axis=1, bit_axis=4, pack_type=\"uint16\"",
                "Tensor[(32, 2, 128, 128, 1), uint16]");
  /* the bit axis goes before axis bit_axis; the default -1 adds none */
  assert_infers("nn.bitpack", "Tensor[(4, 32, 8), int32]", "bits=2, pack_axis=1, bit_axis=1, pack_type=\"uint8\"",
                "Tensor[(4, 2, 4, 8), uint8]");
  assert_infers("nn.bitpack", "Tensor[(4, 32, 8), int32]", "pack_type=\"uint32\"", "Tensor[(4, 1, 8), uint32]");
  assert_infers("nn.bitpack", "Tensor[(4, ?, 8), int32]", "pack_type=\"uint8\", bit_axis=3, bits=3",
                "Tensor[(4, ?, 8, 3), uint8]");
  assert_rejects("nn.bitpack", "Tensor[(32, 32, 128, 128), int16]", "bit_axis=4", "pack_type must be set");
  /* TVM test test_bitserial_conv2d_infer_type (the Python API passes out_dtype="int16") */
  assert_infers("nn.bitserial_conv2d", "Tensor[(?, 32, 224, 224), int16], Tensor[(32, 32, 3, 3), int16]",
                "padding=[0, 0], channels=32, kernel_size=[3, 3], pack_dtype=\"uint32\", out_dtype=\"int16\"",
                "Tensor[(?, 32, 222, 222), int16]");
  assert_infers("nn.bitserial_conv2d", "Tensor[(1, 224, 224, 32), int8], Tensor[(3, 3, 32, 64), int8]",
                "strides=[2, 2], padding=[1, 1], channels=64, data_layout=\"NHWC\", kernel_layout=\"HWIO\", out_dtype=\"int32\"",
                "Tensor[(1, 112, 112, 64), int32]");
  assert_rejects("nn.bitserial_conv2d", "Tensor[(1, 32, 224, 224), int16], Tensor[(32, 32, 3, 3), int16]",
                 "kernel_size=[3, 3], out_dtype=\"int16\"", "param->channels.defined()");
  assert_rejects("nn.bitserial_conv2d", "Tensor[(1, 32, 224, 224), int16], Tensor[(32, 32, 3, 3), int16]", "channels=32",
                 "out_dtype must be set");
  /* TVM test test_bitserial_dense */
  assert_infers("nn.bitserial_dense", "Tensor[(?, ?), int16], Tensor[(?, 32), int16]", "units=32",
                "Tensor[(?, 32), int16]");
  assert_infers("nn.bitserial_dense", "Tensor[(4, 8), int8], Tensor[(16, 8), int8]", "units=16, out_dtype=\"int32\"",
                "Tensor[(4, 16), int32]");
  assert_rejects("nn.bitserial_dense", "Tensor[(4, 8), int8], Tensor[(16, 8), int8]", "", "'units'");
  assert_rejects("nn.bitserial_dense", "int8, Tensor[(16, 8), int8]", "units=16", "at least one dimension");
}

static void test_dense_pack(void **state) {
  (void)state;
  /* (N / 16, K, 16) */
  assert_infers("nn.contrib_dense_pack", "Tensor[(1, 64), float32], Tensor[(4, 64, 16), float32]",
                "units=None, weight_layout=\"NC16n\"", "Tensor[(1, 64), float32]");
  assert_infers("nn.contrib_dense_pack", "Tensor[(8, 64), uint8], Tensor[(2, 16, 16, 4), int8]",
                "units=None, out_dtype=\"int32\", weight_layout=\"NC16n4c\"", "Tensor[(8, 32), int32]");
  assert_rejects("nn.contrib_dense_pack", "Tensor[(1, 2, 64), float32], Tensor[(4, 64, 16), float32]", "",
                 "Only 2D data is supported");
  assert_rejects("nn.contrib_dense_pack", "Tensor[(1, 64), float32], Tensor[(64, 64), float32]", "",
                 "Expect weight to be 3D or 4D");
}

static void test_correlation(void **state) {
  (void)state;
  /* TVM test test_correlation, its five cases (padding p is [p, p]) */
  assert_infers("nn.correlation", "Tensor[(1, 3, 10, 10), float32], Tensor[(1, 3, 10, 10), float32]",
                "max_displacement=4, padding=[4, 4]", "Tensor[(1, 81, 10, 10), float32]");
  assert_infers("nn.correlation", "Tensor[(1, 3, 10, 10), float32], Tensor[(1, 3, 10, 10), float32]",
                "max_displacement=5, padding=[5, 5]", "Tensor[(1, 121, 10, 10), float32]");
  assert_infers("nn.correlation", "Tensor[(5, 1, 4, 4), float32], Tensor[(5, 1, 4, 4), float32]",
                "kernel_size=3, stride1=2, padding=[2, 2]", "Tensor[(5, 9, 2, 2), float32]");
  assert_infers("nn.correlation", "Tensor[(5, 1, 6, 4), float32], Tensor[(5, 1, 6, 4), float32]",
                "kernel_size=3, stride1=2, stride2=2, padding=[2, 2], is_multiply=False", "Tensor[(5, 1, 3, 2), float32]");
  assert_infers("nn.correlation", "Tensor[(5, 1, 11, 11), float32], Tensor[(5, 1, 11, 11), float32]",
                "kernel_size=5, padding=[2, 2], is_multiply=False", "Tensor[(5, 9, 9, 9), float32]");
  assert_rejects("nn.correlation", "Tensor[(1, 3, 10, 10), float32], Tensor[(1, 3, 10, 10), float32]",
                 "layout=\"NHWC\"", "layout not supported.");
  assert_rejects("nn.correlation", "Tensor[(1, 3, 10, 10), float32], Tensor[(1, 3, 10), float32]", "", "data2 must have rank 4");
  assert_rejects("nn.correlation", "Tensor[(1, 3, 10, 10), float32], Tensor[(1, 3, 10, 10), float32]",
                 "padding=[1, 2, 3]", "Padding size should be 1, 2 or 4, but got 3");
}

/* ------------------------------------------------------------------ schemas */

static void check_names(const char *op_name, const char *const *names, size_t n) {
  const OpDef *op = op_lookup(op_name);
  assert_non_null(op);
  assert_int_equal(op->nattrs, n);
  for (size_t i = 0; i < n; i++) assert_string_equal(op->attrs[i].name, names[i]);
}

static void test_schemas(void **state) {
  (void)state;
  static const char *const conv3d_t[] = {"channels", "kernel_size", "strides", "output_padding", "padding", "dilation",
                                         "groups", "data_layout", "kernel_layout", "out_layout", "out_dtype"};
  check_names("nn.conv3d_transpose", conv3d_t, 11);
  assert_string_equal(op_lookup("nn.conv3d_transpose")->attrs[8].def, "\"IODHW\"");
  static const char *const wino[] = {"tile_size", "strides", "padding", "dilation", "groups", "channels",
                                     "kernel_size", "data_layout", "kernel_layout", "out_layout", "out_dtype"};
  check_names("nn.contrib_conv2d_winograd_without_weight_transform", wino, 11);
  check_names("nn.contrib_conv3d_winograd_without_weight_transform", wino, 11);
  assert_string_equal(op_lookup("nn.contrib_conv3d_winograd_without_weight_transform")->attrs[7].def, "\"NCDHW\"");
  static const char *const deform[] = {"strides", "padding", "dilation", "deformable_groups", "groups", "channels",
                                       "kernel_size", "data_layout", "kernel_layout", "out_layout", "out_dtype"};
  check_names("nn.deformable_conv2d", deform, 11);
  /* BinaryConv2DAttrs declares kernel_size before channels */
  static const char *const bconv[] = {"strides", "padding", "kernel_size", "channels", "activation_bits", "weight_bits",
                                      "data_layout", "kernel_layout", "pack_dtype", "out_dtype", "unipolar"};
  check_names("nn.bitserial_conv2d", bconv, 11);
  assert_string_equal(op_lookup("nn.bitserial_conv2d")->attrs[2].def, "[3, 3]");
  static const char *const bpack[] = {"bits", "pack_axis", "bit_axis", "pack_type", "name"};
  check_names("nn.bitpack", bpack, 5);
  assert_string_equal(op_lookup("nn.bitpack")->attrs[2].def, "-1");
  static const char *const bdense[] = {"units", "data_bits", "weight_bits", "pack_dtype", "out_dtype", "unipolar"};
  check_names("nn.bitserial_dense", bdense, 6);
  static const char *const corr[] = {"kernel_size", "max_displacement", "stride1", "stride2", "padding", "is_multiply",
                                     "layout"};
  check_names("nn.correlation", corr, 7);
  assert_string_equal(op_lookup("nn.correlation")->attrs[5].def, "True");
  static const char *const dpack[] = {"units", "out_dtype", "weight_layout"};
  check_names("nn.contrib_dense_pack", dpack, 3);
  static const char *const gemm_wt_v13[] = {"tile_rows", "tile_cols"}, *const gemm_wt[] = {"tile_N", "tile_K"};
  op_test_release("0.13");
  check_names("nn.contrib_conv2d_gemm_weight_transform", gemm_wt_v13, 2);
  op_test_release("0.19");
  check_names("nn.contrib_conv2d_gemm_weight_transform", gemm_wt, 2);
  static const char *const nnpack[] = {"convolution_algorithm", "out_dtype"};
  check_names("nn.contrib_conv2d_winograd_nnpack_weight_transform", nnpack, 2);
  assert_int_equal(op_lookup("nn.contrib_depthwise_conv2d_NCHWc")->nattrs, 10);
  assert_int_equal(op_lookup("nn.contrib_conv2d_gemm_without_weight_transform")->nattrs, 10);
  assert_int_equal(op_family_size("nn_conv"), 22);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv3d_transpose), cmocka_unit_test(test_winograd),    cmocka_unit_test(test_weight_transforms),
      cmocka_unit_test(test_gemm),             cmocka_unit_test(test_deformable_conv2d), cmocka_unit_test(test_bitserial),
      cmocka_unit_test(test_dense_pack),       cmocka_unit_test(test_correlation), cmocka_unit_test(test_schemas),
  };
  return cmocka_run_group_tests_name("ops_nn_conv", tests, NULL, NULL);
}
