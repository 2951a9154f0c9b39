/* NN, image and QNN relations against TVM's results.  Cases marked with a corpus file take their
   argument types and result from the `ty=` comments of ../shared/corpus (TVM v0.13); the others
   are worked out from TVM's relations by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define T4(a, b, c, d, dt) "Tensor[(" #a ", " #b ", " #c ", " #d "), " #dt "]"

/* ------------------------------------------------------------------ convolutions */

static void test_conv2d(void **state) {
  (void)state;
  /* models/resnet-18.relay %2 and %34 */
  assert_infers("nn.conv2d", "Tensor[(1, 3, 224, 224), float32], Tensor[(64, 3, 7, 7), float32]",
                "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7]", "Tensor[(1, 64, 112, 112), float32]");
  assert_infers("nn.conv2d", "Tensor[(1, 64, 56, 56), float32], Tensor[(128, 64, 1, 1), float32]",
                "strides=[2, 2], padding=[0, 0, 0, 0], channels=128, kernel_size=[1, 1]", "Tensor[(1, 128, 28, 28), float32]");
  /* models/resnet-18_NHWC.relay %2: NHWC data, HWIO weight */
  assert_infers("nn.conv2d", "Tensor[(1, 224, 224, 3), float32], Tensor[(7, 7, 3, 64), float32]",
                "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7], data_layout=\"NHWC\", kernel_layout=\"HWIO\"",
                "Tensor[(1, 112, 112, 64), float32]");
  /* models/mobilenet.relay %4: depthwise */
  assert_infers("nn.conv2d", "Tensor[(1, 32, 112, 112), float32], Tensor[(32, 1, 3, 3), float32]",
                "padding=[1, 1, 1, 1], groups=32, channels=32, kernel_size=[3, 3]", "Tensor[(1, 32, 112, 112), float32]");
  /* tvm-tests/printed/test_micro_model_library_format__2.relay: depthwise NHWC / HWOI, out_dtype */
  assert_infers("nn.conv2d", "Tensor[(1, 56, 56, 128), int16], Tensor[(3, 3, 128, 1), int16]",
                "padding=[1, 1, 1, 1], groups=128, channels=128, kernel_size=[3, 3], data_layout=\"NHWC\", "
                "kernel_layout=\"HWOI\", out_dtype=\"int32\"",
                "Tensor[(1, 56, 56, 128), int32]");
  /* tvm-tests/printed/test_crt_aot_usmp__1.relay: two-value padding, mixed dtypes */
  assert_infers("nn.conv2d", "Tensor[(1, 3, 64, 64), uint8], Tensor[(3, 3, 5, 5), int8]",
                "padding=[2, 2], channels=3, kernel_size=[5, 5], out_dtype=\"int32\"", "Tensor[(1, 3, 64, 64), int32]");
  /* tvm-tests/printed/test_sub_graph__11.relay: everything from the weight */
  assert_infers("nn.conv2d", "Tensor[(1, 3, 32, 32), float32], Tensor[(3, 3, 5, 5), float32]", "",
                "Tensor[(1, 3, 28, 28), float32]");
  /* `?` propagates: the batch, and a spatial axis */
  assert_infers("nn.conv2d", "Tensor[(?, 3, 224, 224), float32], Tensor[(64, 3, 7, 7), float32]",
                "strides=[2, 2], padding=[3, 3, 3, 3], channels=64, kernel_size=[7, 7]", "Tensor[(?, 64, 112, 112), float32]");
  assert_infers("nn.conv2d", "Tensor[(1, 3, ?, 224), float32], Tensor[(64, 3, 7, 7), float32]", "strides=[2, 2], padding=[3]",
                "Tensor[(1, 64, ?, 112), float32]");
  /* dilation, and an output layout */
  assert_infers("nn.conv2d", "Tensor[(1, 8, 32, 32), float32], Tensor[(16, 8, 3, 3), float32]", "dilation=[2, 2]",
                "Tensor[(1, 16, 28, 28), float32]");
  assert_infers("nn.conv2d", "Tensor[(1, 8, 32, 32), float32], Tensor[(16, 8, 3, 3), float32]",
                "padding=[1, 1], out_layout=\"NHWC\"", "Tensor[(1, 32, 32, 16), float32]");
  /* packed layouts: C split into blocks of 4 in, 16 out */
  assert_infers("nn.conv2d", "Tensor[(1, 16, 56, 56, 4), float32], Tensor[(64, 64, 3, 3), float32]",
                "padding=[1, 1], data_layout=\"NCHW4c\", out_layout=\"NCHW16c\"", "Tensor[(1, 4, 56, 56, 16), float32]");
}

static void test_conv2d_rejects(void **state) {
  (void)state;
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 224), float32], Tensor[(64, 3, 7, 7), float32]", "",
                 "argument 1 has rank 3, but its layout NCHW has 4 dimensions");
  assert_rejects("nn.conv2d", "Tensor[(1, 4, 224, 224), float32], Tensor[(64, 3, 7, 7), float32]", "",
                 "conv2d: requires that `4`, the input channels (4) divided by groups (1)");
  assert_rejects("nn.conv2d", "Tensor[(1, 4, 224, 224), float32], Tensor[(64, 3, 7, 7), float32]",
                 "channels=64, kernel_size=[7, 7]",
                 "argument 2 has type Tensor[(64, 3, 7, 7), float32], but the relation requires Tensor[(64, 4, 7, 7), float32]");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 224, 224), float32], Tensor[(64, 3, 7, 7), float32]", "channels=32",
                 "the first dimensions of the weight tensor ([64, 3, 7, 7])does not match the number of channels (32)");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 224, 224), float32], Tensor[(64, 3, 7, 7), float32]", "kernel_size=[3, 3]",
                 "shape of weight is inconsistent with kernel_size, kernel_size=[3, 3] wshape=[64, 3, 7, 7]");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16, 16), float32], Tensor[(64, 3, 7, 7), float32]", "data_layout=\"NCDHW\"",
                 "conv2d only support input layouts that are convertible from NCHW. The provided layout is: NCDHW");
  /* digits after the last axis are ignored, as in TVM: OIH4 is OIH */
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16), float32], Tensor[(64, 3, 7, 7), float32]", "kernel_layout=\"OIH4\"",
                 "convertible from OIHW. The provided layout is: OIH4");
  assert_infers("nn.conv2d", "Tensor[(1, 3, 16, 16), float32], Tensor[(64, 3, 7, 7), float32]", "kernel_layout=\"OIHW4\"",
                 "Tensor[(1, 64, 10, 10), float32]");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16), float32], Tensor[(64, 3, 7, 7), float32]", "kernel_layout=\"OIHw\"",
                 "invalid layout \"OIHw\" for kernel_layout: invalid factor size 0 for dimension w");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16, 2), float32], Tensor[(64, 3, 7, 7), float32]", "data_layout=\"NCHWC\"",
                 "invalid layout \"NCHWC\" for data_layout: axis C appears twice");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16), float32], Tensor[(64, 3, 3, 3), float32]", "padding=[1, 1, 1]",
                 "Padding size should be 1, 2 or 4, but got 3");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 4, 4), float32], Tensor[(64, 3, 7, 7), float32]", "",
                 "the output height would be negative");
  /* exactly -1 (TVM's type says Tensor[(1, 4, -1, -1), float32]) must not pass for `?` */
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 1, 1), float32], Tensor[(4, 3, 3, 3), float32]", "",
                 "the output height would be negative (-1)");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16), float32]", "", "expects 2 arguments");
  assert_rejects("nn.conv2d", "Tensor[(1, 3, 16, 16), float32], Tensor[(64, 3, 3, 3), float32]", "strides=[0, 1]",
                 "'strides' must hold positive integers");
}

static void test_conv1d_conv3d(void **state) {
  (void)state;
  assert_infers("nn.conv1d", "Tensor[(1, 3, 100), float32], Tensor[(8, 3, 5), float32]", "padding=[2, 2]",
                "Tensor[(1, 8, 100), float32]");
  assert_infers("nn.conv1d", "Tensor[(1, 3, 100), float32], Tensor[(8, 3, 5), float32]",
                "strides=[2], padding=[2, 2], channels=8, kernel_size=[5]", "Tensor[(1, 8, 50), float32]");
  assert_infers("nn.conv1d", "Tensor[(1, 100, 3), float32], Tensor[(5, 3, 8), float32]",
                "padding=[2, 2], data_layout=\"NWC\", kernel_layout=\"WIO\"", "Tensor[(1, 100, 8), float32]");
  assert_rejects("nn.conv1d", "Tensor[(1, 3, 100), float32], Tensor[(8, 3, 5), float32]", "padding=[2]",
                 "attribute 'padding' needs 2 values, got 1");
  assert_rejects("nn.conv1d", "Tensor[(1, 3, 100), float32], Tensor[(8, 3, 5), float32]", "data_layout=\"NCHW\"",
                 "Conv only support input layouts that are convertible from NCW. But got NCHW");
  /* models/resnet3d-18.relay %2 and %14 */
  assert_infers("nn.conv3d", "Tensor[(1, 3, 16, 112, 112), float32], Tensor[(64, 3, 3, 7, 7), float32]",
                "strides=[1, 2, 2], padding=[1, 3, 3, 1, 3, 3], channels=64, kernel_size=[3, 7, 7]",
                "Tensor[(1, 64, 16, 56, 56), float32]");
  assert_infers("nn.conv3d", "Tensor[(1, 64, 16, 56, 56), float32], Tensor[(64, 64, 1, 1, 1), float32]",
                "padding=[0, 0, 0, 0, 0, 0], channels=64, kernel_size=[1, 1, 1]", "Tensor[(1, 64, 16, 56, 56), float32]");
  assert_infers("nn.conv3d", "Tensor[(1, 16, 112, 112, 3), float32], Tensor[(3, 7, 7, 3, 64), float32]",
                "strides=[1, 2, 2], padding=[1, 3, 3], data_layout=\"NDHWC\", kernel_layout=\"DHWIO\"",
                "Tensor[(1, 16, 56, 56, 64), float32]");
  assert_rejects("nn.conv3d", "Tensor[(1, 3, 16, 112, 112), float32], Tensor[(64, 3, 3, 7, 7), float32]", "padding=[1, 1]",
                 "Padding size should be 1, 3 or 6, but got 2");
}

static void test_conv_transpose(void **state) {
  (void)state;
  /* models/dcgan.relay %3 and %15 (IOHW weights) */
  assert_infers("nn.conv2d_transpose", "Tensor[(1, 1024, 4, 4), float32], Tensor[(1024, 512, 4, 4), float32]",
                "channels=512, kernel_size=[4, 4], strides=[2, 2], padding=[1, 1, 1, 1]", "Tensor[(1, 512, 8, 8), float32]");
  assert_infers("nn.conv2d_transpose", "Tensor[(1, 128, 32, 32), float32], Tensor[(128, 3, 4, 4), float32]",
                "channels=3, kernel_size=[4, 4], strides=[2, 2], padding=[1, 1, 1, 1]", "Tensor[(1, 3, 64, 64), float32]");
  assert_infers("nn.conv2d_transpose", "Tensor[(1, 1024, 4, 4), float32], Tensor[(1024, 512, 4, 4), float32]",
                "strides=[2, 2], output_padding=[1, 1], padding=[1, 1]", "Tensor[(1, 512, 9, 9), float32]");
  assert_rejects("nn.conv2d_transpose", "Tensor[(1, 1000, 4, 4), float32], Tensor[(1024, 512, 4, 4), float32]", "",
                 "Conv2DTransposed: shape of weight is inconsistent with in_channels");
  assert_infers("nn.conv1d_transpose", "Tensor[(1, 16, 10), float32], Tensor[(16, 8, 3), float32]", "strides=[2], padding=[1]",
                "Tensor[(1, 8, 19), float32]");
  assert_infers("nn.conv1d_transpose", "Tensor[(?, 16, 10), float32], Tensor[(16, 8, 3), float32]",
                "channels=8, kernel_size=[3], strides=[2], padding=[1, 1], output_padding=[1]", "Tensor[(?, 8, 20), float32]");
}

/* ------------------------------------------------------------------ dense, matmul */

static void test_dense(void **state) {
  (void)state;
  /* models/resnet-18.relay %88, models/dcgan.relay %0 */
  assert_infers("nn.dense", "Tensor[(1, 512), float32], Tensor[(1000, 512), float32]", "units=1000",
                "Tensor[(1, 1000), float32]");
  assert_infers("nn.dense", "Tensor[(1, 100), float32], Tensor[(16384, 100), float32]", "units=16384",
                "Tensor[(1, 16384), float32]");
  /* tvm-tests/printed/test_ir_parser__134.relay: units=None takes the weight's rows */
  assert_infers("nn.dense", "Tensor[(2, 4), float32], Tensor[(2, 4), float32]", "units=None", "Tensor[(2, 2), float32]");
  assert_infers("nn.dense", "Tensor[(?, 5, 512), float32], Tensor[(10, 512), float32]", "", "Tensor[(?, 5, 10), float32]");
  assert_infers("nn.dense", "Tensor[(8, 16), int8], Tensor[(4, 16), int8]", "out_dtype=\"int32\"", "Tensor[(8, 4), int32]");
  assert_rejects("nn.dense", "Tensor[(1, 512), float32], Tensor[(1000, 256), float32]", "",
                 "the reduction dimensions do not match: 512 in Tensor[(1, 512), float32] and 256 in Tensor[(1000, 256), float32]");
  assert_rejects("nn.dense", "Tensor[(1, 512), float32], Tensor[(1000, 256), float32]", "units=1000",
                 "but the relation requires Tensor[(1000, 512), float32]");
  assert_rejects("nn.dense", "float32, Tensor[(1000, 256), float32]", "", "must have at least one dimension");
  assert_rejects("nn.dense", "Tensor[(1, 512), float32], Tensor[(1, 1000, 512), float32]", "", "must be 2-D");
}

static void test_matmul(void **state) {
  (void)state;
  assert_infers("nn.matmul", "Tensor[(4, 8), float32], Tensor[(8, 16), float32]", "", "Tensor[(4, 16), float32]");
  assert_infers("nn.matmul", "Tensor[(8, 4), float32], Tensor[(8, 16), float32]", "transpose_a=True", "Tensor[(4, 16), float32]");
  assert_infers("nn.matmul", "Tensor[(4, 8), float32], Tensor[(16, 8), float32]", "transpose_b=True", "Tensor[(4, 16), float32]");
  assert_rejects("nn.matmul", "Tensor[(4, 8), float32], Tensor[(16, 8), float32]", "", "the reduction dimensions do not match");
  /* tvm-tests/test_compiler_function_utils__1.relay: transpose_b=True is printed, so the C++
     default is False */
  assert_infers("nn.batch_matmul", "Tensor[(600, 32, 64), float16], Tensor[(600, 32, 64), float16]",
                "out_dtype=\"float16\", transpose_b=True", "Tensor[(600, 32, 32), float16]");
  assert_infers("nn.batch_matmul", "Tensor[(2, 3, 4), float32], Tensor[(2, 4, 5), float32]", "", "Tensor[(2, 3, 5), float32]");
  assert_infers("nn.batch_matmul", "Tensor[(1, 3, 4), float32], Tensor[(5, 4, 6), float32]", "", "Tensor[(5, 3, 6), float32]");
  assert_infers("nn.batch_matmul", "Tensor[(?, 3, 4), float32], Tensor[(5, 4, 6), float32]", "", "Tensor[(?, 3, 6), float32]");
  assert_rejects("nn.batch_matmul", "Tensor[(2, 3, 4), float32], Tensor[(2, 5, 6), float32]", "",
                 "BatchDot: shapes of x and y is inconsistent, x shape=[2, 3, 4], y shape=[2, 5, 6]");
  assert_rejects("nn.batch_matmul", "Tensor[(2, 3, 4), float32], Tensor[(3, 4, 6), float32]", "",
                 "BatchDot: batch dimensions don't match");
  assert_rejects("nn.batch_matmul", "Tensor[(3, 4), float32], Tensor[(2, 4, 6), float32]", "", "both arguments must be 3-D");
}

/* ------------------------------------------------------------------ pooling */

static void test_pools(void **state) {
  (void)state;
  /* models/resnet-18.relay %6, models/resnet-18_NHWC.relay %6 */
  assert_infers("nn.max_pool2d", T4(1, 64, 112, 112, float32), "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]",
                T4(1, 64, 56, 56, float32));
  assert_infers("nn.max_pool2d", T4(1, 112, 112, 64, float32),
                "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], layout=\"NHWC\"", T4(1, 56, 56, 64, float32));
  /* tvm-tests/printed/test_crt_aot_usmp__1.relay, test_legalize__7.relay */
  assert_infers("nn.max_pool2d", T4(1, 3, 64, 64, int32), "pool_size=[3, 3]", T4(1, 3, 62, 62, int32));
  assert_infers("nn.max_pool2d", T4(1, 4, 4, 3, int8), "pool_size=[4, 4], strides=[4, 4], padding=[0, 0, 0, 0], layout=\"NHWC\"",
                T4(1, 1, 1, 3, int8));
  assert_infers("nn.max_pool2d", T4(1, 1, 5, 5, float32), "pool_size=[2, 2], strides=[2, 2]", T4(1, 1, 2, 2, float32));
  assert_infers("nn.max_pool2d", T4(1, 1, 5, 5, float32), "pool_size=[2, 2], strides=[2, 2], ceil_mode=True",
                T4(1, 1, 3, 3, float32));
  assert_infers("nn.max_pool2d", "Tensor[(?, 64, ?, 112), float32]", "pool_size=[3, 3], strides=[2, 2], padding=[1]",
                "Tensor[(?, 64, ?, 56), float32]");
  assert_infers("nn.max_pool2d", T4(1, 1, 9, 9, float32), "pool_size=[3, 3], dilation=[2, 2]", T4(1, 1, 5, 5, float32));
  /* features/attrs_ops.relay %3 */
  assert_infers("nn.avg_pool2d", T4(1, 8, 32, 32, float32), "pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]",
                T4(1, 8, 16, 16, float32));
  assert_infers("nn.avg_pool2d", T4(1, 8, 32, 32, float32), "pool_size=[2, 2], count_include_pad=True", T4(1, 8, 31, 31, float32));
  assert_infers("nn.max_pool1d", "Tensor[(1, 3, 10), float32]", "pool_size=[3]", "Tensor[(1, 3, 8), float32]");
  assert_infers("nn.avg_pool1d", "Tensor[(1, 3, 10), float32]", "pool_size=[3], strides=[2], padding=[1, 2]",
                "Tensor[(1, 3, 6), float32]");
  assert_infers("nn.max_pool3d", "Tensor[(1, 2, 8, 8, 8), float32]", "pool_size=[2, 2, 2], strides=[2, 2, 2]",
                "Tensor[(1, 2, 4, 4, 4), float32]");
  assert_infers("nn.avg_pool3d", "Tensor[(1, 8, 8, 8, 2), float32]", "pool_size=[3, 3, 3], padding=[1], layout=\"NDHWC\"",
                "Tensor[(1, 8, 8, 8, 2), float32]");
}

static void test_pool_rejects(void **state) {
  (void)state;
  assert_rejects("nn.max_pool2d", "Tensor[(5), float32]", "pool_size=[3, 3]", "Pool2D only support input >= 2-D");
  assert_rejects("nn.max_pool2d", "Tensor[(1, 3, 10), float32]", "pool_size=[3, 3], layout=\"NCW\"",
                 "Invalid layout NCW. Pool2D layout must have H and W, which cannot be split");
  assert_rejects("nn.max_pool2d", T4(1, 3, 10, 10, float32), "pool_size=[3, 3], padding=[1, 1, 1]",
                 "Padding size should be 1, 2 or 4, but got 3");
  assert_rejects("nn.max_pool2d", T4(1, 3, 10, 10, float32), "", "Cannot find required field 'pool_size'");
  assert_rejects("nn.avg_pool2d", T4(1, 3, 10, 10, float32), "pool_size=[3]", "attribute 'pool_size' needs 2 values, got 1");
  assert_rejects("nn.max_pool3d", "Tensor[(1, 2, 8, 8, 8), float32]", "pool_size=[2, 2, 2], layout=\"NCDHW2d\"",
                 "Pool3D layout must have D, H and W, which cannot be split");
}

static void test_global_and_adaptive_pools(void **state) {
  (void)state;
  /* models/resnet-18.relay %86, models/resnet-18_NHWC.relay %86, models/resnet-18_float16.relay */
  assert_infers("nn.global_avg_pool2d", T4(1, 512, 7, 7, float32), "", T4(1, 512, 1, 1, float32));
  assert_infers("nn.global_avg_pool2d", T4(1, 7, 7, 512, float32), "layout=\"NHWC\"", T4(1, 1, 1, 512, float32));
  assert_infers("nn.global_avg_pool2d", T4(1, 512, 7, 7, float16), "", T4(1, 512, 1, 1, float16));
  assert_infers("nn.global_max_pool2d", "Tensor[(?, 64, ?, ?), float32]", "", "Tensor[(?, 64, 1, 1), float32]");
  /* models/resnet3d-18.relay %85 */
  assert_infers("nn.adaptive_avg_pool3d", "Tensor[(1, 512, 2, 7, 7), float32]", "output_size=[1, 1, 1]",
                "Tensor[(1, 512, 1, 1, 1), float32]");
  assert_infers("nn.adaptive_max_pool3d", "Tensor[(1, 512, 2, 7, 7), float32]", "output_size=[1]",
                "Tensor[(1, 512, 1, 1, 1), float32]");
  assert_infers("nn.adaptive_avg_pool2d", T4(1, 64, 32, 32, float32), "output_size=[7]", T4(1, 64, 7, 7, float32));
  assert_infers("nn.adaptive_max_pool2d", T4(1, 64, 32, 32, float32), "output_size=[7, 5], layout=\"NHWC\"",
                T4(1, 7, 5, 32, float32));
  assert_infers("nn.adaptive_avg_pool2d", T4(1, 64, 32, 32, float32), "", T4(1, 64, 32, 32, float32));
  assert_infers("nn.adaptive_avg_pool1d", "Tensor[(1, 8, 20), float32]", "output_size=[5]", "Tensor[(1, 8, 5), float32]");
  assert_infers("nn.adaptive_max_pool1d", "Tensor[(1, 8, 20), float32]", "", "Tensor[(1, 8, 20), float32]");
  assert_rejects("nn.adaptive_avg_pool2d", T4(1, 64, 32, 32, float32), "output_size=[1, 2, 3]",
                 "output_size can have up to 2 elements.");
  assert_rejects("nn.global_avg_pool2d", "Tensor[(1, 512, 7), float32]", "", "layout NCHW puts W at index 3, but the data has rank 3");
}

/* ------------------------------------------------------------------ normalisation and friends */

static void test_batch_norm(void **state) {
  (void)state;
  const char *vec3 = "Tensor[(3), float32]";
  char args[512];
  /* models/resnet-18.relay %0: a tuple of (data, mean, var) */
  snprintf(args, sizeof args, "%s, %s, %s, %s, %s", T4(1, 3, 224, 224, float32), vec3, vec3, vec3, vec3);
  assert_infers("nn.batch_norm", args, "epsilon=2e-05f, scale=False",
                "(Tensor[(1, 3, 224, 224), float32], Tensor[(3), float32], Tensor[(3), float32])");
  /* models/resnet-18_NHWC.relay %0: axis=3 */
  snprintf(args, sizeof args, "%s, %s, %s, %s, %s", T4(1, 224, 224, 3, float32), vec3, vec3, vec3, vec3);
  assert_infers("nn.batch_norm", args, "axis=3, epsilon=2e-05f, scale=False",
                "(Tensor[(1, 224, 224, 3), float32], Tensor[(3), float32], Tensor[(3), float32])");
  assert_infers("nn.batch_norm", args, "axis=-1",
                "(Tensor[(1, 224, 224, 3), float32], Tensor[(3), float32], Tensor[(3), float32])");
  /* a `?` channel count unifies with the parameters' */
  snprintf(args, sizeof args, "%s, %s, %s, %s, %s", "Tensor[(?, ?, 8, 8), float32]", vec3, vec3, vec3, vec3);
  assert_infers("nn.batch_norm", args, "",
                "(Tensor[(?, ?, 8, 8), float32], Tensor[(?), float32], Tensor[(?), float32])");
  snprintf(args, sizeof args, "%s, %s, %s, %s, %s", T4(1, 4, 8, 8, float32), vec3, vec3, vec3, vec3);
  assert_rejects("nn.batch_norm", args, "",
                 "argument 2 has type Tensor[(3), float32], but the relation requires Tensor[(4), float32] (dimension 0 "
                 "conflicts: 3 does not match 4)");
  snprintf(args, sizeof args, "%s, %s, %s, %s, %s", T4(1, 3, 8, 8, float32), vec3, vec3, vec3, "Tensor[(3), float16]");
  assert_rejects("nn.batch_norm", args, "", "argument 5 has type Tensor[(3), float16]");
  snprintf(args, sizeof args, "%s, %s, %s, %s, %s", T4(1, 3, 8, 3, float32), vec3, vec3, vec3, vec3);
  assert_rejects("nn.batch_norm", args, "axis=-2", "axis -2 is out of range for a tensor of rank 4");
  assert_rejects("nn.batch_norm", T4(1, 3, 8, 3, float32), "", "expects 5 arguments");
}

static void test_other_norms(void **state) {
  (void)state;
  assert_infers("nn.layer_norm", "Tensor[(2, 5, 16), float32], Tensor[(16), float32], Tensor[(16), float32]", "",
                "Tensor[(2, 5, 16), float32]");
  assert_rejects("nn.layer_norm", "Tensor[(2, 5, 16), float32], Tensor[(5), float32], Tensor[(5), float32]", "",
                 "argument 2 has type Tensor[(5), float32], but the relation requires Tensor[(16), float32]");
  assert_infers("nn.group_norm", T4(1, 32, 8, 8, float32) ", Tensor[(32), float32], Tensor[(32), float32]", "num_groups=4",
                T4(1, 32, 8, 8, float32));
  assert_infers("nn.instance_norm", T4(1, 3, 8, 8, float32) ", Tensor[(3), float32], Tensor[(3), float32]", "",
                T4(1, 3, 8, 8, float32));
  assert_rejects("nn.instance_norm", "Tensor[(4, 3), float32], Tensor[(3), float32], Tensor[(3), float32]", "",
                 "the data must have rank > 2, got 2");
  assert_infers("nn.lrn", T4(1, 3, 8, 8, float32), "size=3, alpha=0.0001f", T4(1, 3, 8, 8, float32));
  assert_infers("nn.l2_normalize", T4(1, 3, 8, 8, float32), "eps=1e-10f, axis=[1]", T4(1, 3, 8, 8, float32));
  /* the harness writes the required eps out as None, which no double takes */
  assert_rejects("nn.l2_normalize", T4(1, 3, 8, 8, float32), "axis=[1]", "'eps' of nn.l2_normalize must be a float");
}

static void test_softmax(void **state) {
  (void)state;
  /* models/resnet-18.relay: the last call */
  assert_infers("nn.softmax", "Tensor[(1, 1000), float32]", "", "Tensor[(1, 1000), float32]");
  assert_infers("nn.softmax", T4(1, 4, 4, 8, float32), "axis=3", T4(1, 4, 4, 8, float32));
  assert_infers("nn.log_softmax", "Tensor[(?, 10), float16]", "axis=-2", "Tensor[(?, 10), float16]");
  assert_rejects("nn.softmax", "Tensor[(1, 1000), float32]", "axis=2", "Wrong axis (2) not in expected range: [-2, 2)");
  assert_rejects("nn.log_softmax", "Tensor[(1, 1000), float32]", "axis=-3", "Wrong axis (-3) not in expected range: [-2, 2)");
  assert_rejects("nn.softmax", "(Tensor[(1, 1000), float32],)", "", "expects a tensor");
}

static void test_bias_add_prelu(void **state) {
  (void)state;
  /* models/resnet-18.relay %89, tvm-tests/printed/test_pass_auto_quantize__6.relay */
  assert_infers("nn.bias_add", "Tensor[(1, 1000), float32], Tensor[(1000), float32]", "axis=-1", "Tensor[(1, 1000), float32]");
  assert_infers("nn.bias_add", T4(1, 4, 16, 16, float32) ", Tensor[(4), float32]", "", T4(1, 4, 16, 16, float32));
  assert_rejects("nn.bias_add", T4(1, 4, 16, 16, float32) ", Tensor[(16), float32]", "",
                 "argument 2 has type Tensor[(16), float32], but the relation requires Tensor[(4), float32]");
  assert_rejects("nn.bias_add", T4(1, 4, 16, 16, float32) ", Tensor[(4), float32]", "axis=4",
                 "The axis in bias_add must be in range for the shape; attempted to access index 4 of [1, 4, 16, 16]");
  assert_infers("nn.prelu", T4(1, 64, 56, 56, float32) ", Tensor[(64), float32]", "", T4(1, 64, 56, 56, float32));
  assert_infers("nn.prelu", T4(1, 56, 56, 64, float32) ", Tensor[(64), float32]", "axis=3", T4(1, 56, 56, 64, float32));
  assert_rejects("nn.prelu", T4(1, 56, 56, 64, float32) ", Tensor[(64), float32]", "axis=-1", "Wrong axis (-1)value.");
}

static void test_pad(void **state) {
  (void)state;
  /* features/attrs_ops.relay %4 */
  assert_infers("nn.pad", T4(1, 8, 16, 16, float32) ", float32", "pad_width=[[0, 0], [0, 0], [1, 1], [2, 2]]",
                T4(1, 8, 18, 20, float32));
  assert_infers("nn.pad", "Tensor[(?, 8, 16), float32], float32", "pad_width=[[1, 1], [0, 0], [2, 3]], pad_mode=\"edge\"",
                "Tensor[(?, 8, 21), float32]");
  assert_infers("nn.pad", "Tensor[(4, 8), int8], int32", "pad_width=[[-1, 0], [0, 2]]", "Tensor[(3, 10), int8]");
  assert_rejects("nn.pad", "Tensor[(4, 8), float32], float32", "pad_width=[[1, 1]]",
                 "There should be as many pad width pairs as shape dimensions but the shape has 2 dimensions and there are 1 "
                 "pad width pairs.");
  assert_rejects("nn.pad", "Tensor[(4, 8), float32], float32", "pad_width=[[1, 1], [1, 2, 3]]",
                 "Each pad width element should be a pair but at index 1 there are 3 elements.");
  assert_rejects("nn.pad", "Tensor[(4, 8), float32], float32", "pad_width=[[-5, 0], [0, 0]]",
                 "Output shape post padding should be positive but got -1");
  assert_rejects("nn.pad", "Tensor[(4, 8), float32]", "pad_width=[[1, 1], [1, 1]]", "expects 2 arguments");
  assert_rejects("nn.pad", "Tensor[(4, 8), float32], float32", "", "Cannot find required field 'pad_width'");
}

static void test_dropout_flatten_upsampling(void **state) {
  (void)state;
  /* models/vgg-11.relay %33, models/squeezenet_v1.1.relay %94 */
  assert_infers("nn.dropout", "Tensor[(1, 4096), float32]", "",
                "(Tensor[(1, 4096), float32], Tensor[(1, 4096), float32])");
  assert_infers("nn.dropout", T4(1, 512, 13, 13, float32), "rate=0.25f",
                "(Tensor[(1, 512, 13, 13), float32], Tensor[(1, 512, 13, 13), float32])");
  /* models/resnet-18.relay %87 */
  assert_infers("nn.batch_flatten", T4(1, 512, 1, 1, float32), "", "Tensor[(1, 512), float32]");
  assert_infers("nn.batch_flatten", T4(?, 512, ?, 7, float32), "", "Tensor[(?, ?), float32]");
  assert_infers("nn.batch_flatten", "Tensor[(6), int32]", "", "Tensor[(6, 1), int32]");
  assert_rejects("nn.batch_flatten", "float32", "", "at least one dimension");
  assert_infers("nn.upsampling", T4(1, 16, 32, 32, float32), "scale_h=2f, scale_w=2f", T4(1, 16, 64, 64, float32));
  /* TVM folds round() to nearest with ties to even (measured on TVM v0.13.0: 7 x 1.5 gives 10,
     16 x 0.5 gives 8, 1 x 2.5 gives 2, 5 x 1.5 gives 8) */
  assert_infers("nn.upsampling", T4(1, 7, 7, 16, float32), "scale_h=1.5f, scale_w=0.5f, layout=\"NHWC\"",
                T4(1, 10, 4, 16, float32));
  assert_infers("nn.upsampling", T4(1, 1, 1, 5, float32), "scale_h=2.5f, scale_w=1.5f", T4(1, 1, 2, 8, float32));
  assert_rejects("nn.upsampling", T4(1, 16, 32, 32, float32), "scale_h=None, scale_w=2f",
                 "attribute 'scale_h' of nn.upsampling must be a float");
  /* the harness writes the required scale_w out as None, which no double takes */
  assert_rejects("nn.upsampling", T4(1, 16, 32, 32, float32), "scale_h=2f", "'scale_w' of nn.upsampling must be a float");
  assert_infers("nn.upsampling3d", "Tensor[(1, 4, 8, 8, 8), float32]", "scale_d=2f, scale_h=2f, scale_w=1f",
                "Tensor[(1, 4, 16, 16, 8), float32]");
}

static void test_resize2d(void **state) {
  (void)state;
  /* features/attrs_ops.relay %1 */
  assert_infers("image.resize2d", T4(1, 16, 16, 8, float32),
                "size=[32, 32], roi=[0f, 0f, 0f, 0f], layout=\"NHWC\", coordinate_transformation_mode=\"align_corners\", "
                "rounding_method=\"\"",
                T4(1, 32, 32, 8, float32));
  assert_infers("image.resize2d", T4(?, 3, 10, 10, uint8), "size=[20, 5], roi=[0f, 0f, 0f, 0f], out_dtype=\"float32\"",
                T4(?, 3, 20, 5, float32));
  assert_rejects("image.resize2d", T4(1, 3, 10, 10, float32), "size=[20], roi=[0f, 0f, 0f, 0f]", "size must have 2 values");
  assert_rejects("image.resize2d", T4(1, 3, 10, 10, float32), "size=[20, 20], roi=[0f, 0f, 0f, 0f], layout=\"NCW\"",
                 "Resize only support input layouts that are convertible from NCHW. But got NCW");
}

/* ------------------------------------------------------------------ QNN */

static void test_qnn(void **state) {
  (void)state;
  /* features/qnn_ops.relay, all four calls */
  assert_infers("qnn.quantize", T4(1, 3, 8, 8, float32) ", float32, int32", "out_dtype=\"int8\"", T4(1, 3, 8, 8, int8));
  assert_infers("qnn.conv2d", T4(1, 3, 8, 8, int8) ", " T4(8, 3, 3, 3, int8) ", int32, int32, float32, float32",
                "padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3], out_dtype=\"int32\"", T4(1, 8, 8, 8, int32));
  assert_infers("qnn.requantize", T4(1, 8, 8, 8, int32) ", float32, int32, float32, int32", "out_dtype=\"int8\"",
                T4(1, 8, 8, 8, int8));
  assert_infers("qnn.dequantize", T4(1, 8, 8, 8, int8) ", float32, int32", "", T4(1, 8, 8, 8, float32));
  /* per-channel parameters follow the axis */
  assert_infers("qnn.quantize", T4(1, 8, 4, 4, float32) ", Tensor[(8), float32], Tensor[(8), int32]",
                "out_dtype=\"uint8\", axis=1", T4(1, 8, 4, 4, uint8));
  assert_infers("qnn.conv2d", T4(1, 3, 8, 8, uint8) ", " T4(8, 3, 3, 3, int8) ", int32, int32, float32, Tensor[(8), float32]",
                "out_dtype=\"int32\"", T4(1, 8, 6, 6, int32));
  assert_infers("qnn.dequantize", T4(1, 8, 8, 8, int8) ", Tensor[(1), float32], Tensor[(1), int32]", "", T4(1, 8, 8, 8, float32));
  assert_rejects("qnn.quantize", T4(1, 8, 4, 4, float32) ", Tensor[(3), float32], Tensor[(8), int32]", "out_dtype=\"int8\", axis=1",
                 "argument 2 has type Tensor[(3), float32], but the relation requires Tensor[(8), float32]");
  assert_rejects("qnn.quantize", T4(1, 3, 8, 8, int32) ", float32, int32", "out_dtype=\"int8\"",
                 "Input type should be one of float32 but was int32");
  assert_rejects("qnn.quantize", T4(1, 3, 8, 8, float32) ", float32, int32", "out_dtype=\"float16\"",
                 "Output type should be one of [int8, unit8, int16, uint16, int32] but was float16");
  assert_rejects("qnn.quantize", T4(1, 3, 8, 8, float32) ", float32, int32", "", "but was void");
  assert_rejects("qnn.dequantize", T4(1, 8, 8, 8, float32) ", float32, int32", "",
                 "Input type should be one of the quantized types");
  assert_rejects("qnn.dequantize", T4(1, 8, 8, 8, int8) ", float32, int8", "", "Expected type is int32 but received int8");
  assert_rejects("qnn.requantize", T4(1, 8, 8, 8, int32) ", float32, int32, Tensor[(8), float32], int32", "out_dtype=\"int8\"",
                 "argument 4 (output_scale) must be a scalar float32");
  assert_rejects("qnn.conv2d", T4(1, 3, 8, 8, float32) ", " T4(8, 3, 3, 3, int8) ", int32, int32, float32, float32",
                 "out_dtype=\"int32\"", "Expected qnn conv2d type(int8, uint8, int16) for input but was float32");
  assert_rejects("qnn.conv2d", T4(1, 3, 8, 8, int8) ", " T4(8, 3, 3, 3, int8) ", int32, int32, float32, float32", "",
                 "Expected qnn conv2d type(int16, int32, int64) for output but was void");
}

/* ------------------------------------------------------------------ the schemas */

static void test_schemas(void **state) {
  (void)state;
  /* Attribute names in TVM's declaration order, and a few defaults that are easy to get wrong. */
  const OpDef *conv = op_lookup("nn.conv2d");
  assert_non_null(conv);
  static const char *const conv_names[] = {"strides",     "padding",     "dilation",   "groups",    "channels",
                                           "kernel_size", "data_layout", "kernel_layout", "out_layout", "out_dtype"};
  assert_int_equal(conv->nattrs, 10);
  for (size_t i = 0; i < conv->nattrs; i++) assert_string_equal(conv->attrs[i].name, conv_names[i]);
  const OpDef *pool = op_lookup("nn.avg_pool2d");
  assert_string_equal(pool->attrs[2].name, "dilation"); /* declared before padding */
  assert_string_equal(pool->attrs[3].name, "padding");
  assert_string_equal(pool->attrs[7].name, "count_include_pad");
  const OpDef *bmm = op_lookup("nn.batch_matmul");
  assert_string_equal(bmm->attrs[2].name, "transpose_b");
  assert_string_equal(bmm->attrs[2].def, "False");
  const OpDef *tconv = op_lookup("nn.conv2d_transpose");
  assert_string_equal(tconv->attrs[3].name, "output_padding");
  assert_string_equal(tconv->attrs[8].def, "\"IOHW\"");
  assert_string_equal(op_lookup("nn.batch_norm")->attrs[1].def, "1e-05f");
  assert_string_equal(op_lookup("nn.layer_norm")->attrs[0].def, "-1");
  assert_string_equal(op_lookup("image.resize2d")->attrs[5].def, "\"round\"");
  assert_string_equal(op_lookup("qnn.requantize")->attrs[1].def, "\"None\"");
  /* Every op in the family resolves, and no name is registered twice (the registry aborts then). */
  static const char *const names[] = {
      "nn.conv1d", "nn.conv2d", "nn.conv3d", "nn.conv2d_transpose", "nn.conv1d_transpose", "nn.dense", "nn.matmul",
      "nn.batch_matmul", "nn.max_pool1d", "nn.max_pool2d", "nn.max_pool3d", "nn.avg_pool1d", "nn.avg_pool2d",
      "nn.avg_pool3d", "nn.global_avg_pool2d", "nn.global_max_pool2d", "nn.adaptive_avg_pool1d",
      "nn.adaptive_avg_pool2d", "nn.adaptive_avg_pool3d", "nn.adaptive_max_pool1d", "nn.adaptive_max_pool2d",
      "nn.adaptive_max_pool3d", "nn.batch_norm", "nn.layer_norm", "nn.group_norm", "nn.instance_norm", "nn.softmax",
      "nn.log_softmax", "nn.bias_add", "nn.pad", "nn.dropout", "nn.lrn", "nn.l2_normalize", "nn.upsampling",
      "nn.upsampling3d", "nn.batch_flatten", "nn.prelu", "image.resize2d", "qnn.conv2d", "qnn.quantize",
      "qnn.dequantize", "qnn.requantize", "nn.contrib_conv2d_NCHWc"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (!op_lookup(names[i])) fail_msg("%s is not registered", names[i]);
  }
  /* the seven convolutions among them (conv*, contrib_conv2d_NCHWc, qnn.conv2d) are family nn_conv's */
  assert_int_equal(op_family_size("nn"), sizeof names / sizeof names[0] - 7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv2d),
      cmocka_unit_test(test_conv2d_rejects),
      cmocka_unit_test(test_conv1d_conv3d),
      cmocka_unit_test(test_conv_transpose),
      cmocka_unit_test(test_dense),
      cmocka_unit_test(test_matmul),
      cmocka_unit_test(test_pools),
      cmocka_unit_test(test_pool_rejects),
      cmocka_unit_test(test_global_and_adaptive_pools),
      cmocka_unit_test(test_batch_norm),
      cmocka_unit_test(test_other_norms),
      cmocka_unit_test(test_softmax),
      cmocka_unit_test(test_bias_add_prelu),
      cmocka_unit_test(test_pad),
      cmocka_unit_test(test_dropout_flatten_upsampling),
      cmocka_unit_test(test_resize2d),
      cmocka_unit_test(test_qnn),
      cmocka_unit_test(test_schemas),
  };
  return cmocka_run_group_tests_name("ops_nn", tests, NULL, NULL);
}
