/* Image relations against TVM's results: the shapes TVM v0.13's tests/python/relay/test_op_level5.py
   expects (test_resize1d_infer_type, test_resize3d_infer_type, TestCropAndResize,
   test_dilation2d_infer_type and TestDilation2DRun's configurations, test_affine_grid,
   test_grid_sample); symbolic sizes there are `?` here.  Messages are TVM's ICHECK texts
   (src/relay/op/image/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

static void test_resize1d(void **state) {
  (void)state;
  /* resize1d(x, (200,), None, "NCW", "linear", "align_corners"): the Python API's roi is (0, 0) */
  assert_infers("image.resize1d", "Tensor[(?, ?, 50), int8]",
                "size=[200], roi=[0f, 0f], layout=\"NCW\", coordinate_transformation_mode=\"align_corners\"",
                "Tensor[(?, ?, 200), int8]");
  assert_infers("image.resize1d", "Tensor[(2, 50, 3), float32]", "size=[7], roi=[0f, 0f], layout=\"NWC\"",
                "Tensor[(2, 7, 3), float32]");
  assert_infers("image.resize1d", "Tensor[(2, 3, 50), float32]",
                "size=[7], roi=[0f, 0f], out_dtype=\"float16\"", "Tensor[(2, 3, 7), float16]");
  assert_rejects("image.resize1d", "Tensor[(2, 3, 50), float32]", "size=[7, 7], roi=[0f, 0f]",
                 "param->size.size() == 1");
  assert_rejects("image.resize1d", "Tensor[(2, 3, 50), float32]", "size=[7]", "param->roi.size() == 2");
  assert_rejects("image.resize1d", "Tensor[(2, 3, 50), float32]", "size=[7], roi=[0f, 0f], layout=\"NCHW\"",
                 "Resize only support input layouts that are convertible from NCW. But got NCHW");
  assert_rejects("image.resize1d", "Tensor[(2, 3, 4, 50), float32]", "size=[7], roi=[0f, 0f]",
                 "Input shape size 4 mismatch with the expected shape size 3");
  assert_rejects("image.resize1d", "Tensor[(2, 3, 50), float32]", "size=[-2], roi=[0f, 0f]", "negative");
}

static void test_resize3d(void **state) {
  (void)state;
  const char *roi = "roi=[0f, 0f, 0f, 0f, 0f, 0f]";
  char attrs[256];
  snprintf(attrs, sizeof attrs,
           "size=[10, 10, 20], %s, layout=\"NCDHW\", coordinate_transformation_mode=\"align_corners\"", roi);
  assert_infers("image.resize3d", "Tensor[(?, ?, 4, 5, 6), int8]", attrs, "Tensor[(?, ?, 10, 10, 20), int8]");
  snprintf(attrs, sizeof attrs, "size=[10, 10, 20], %s, layout=\"NDHWC\"", roi);
  assert_infers("image.resize3d", "Tensor[(1, 4, 5, 6, 3), float32]", attrs,
                "Tensor[(1, 10, 10, 20, 3), float32]");
  snprintf(attrs, sizeof attrs, "size=[10, 10, 20], %s, layout=\"NCHW\"", roi);
  assert_rejects("image.resize3d", "Tensor[(1, 3, 4, 5, 6), float32]", attrs,
                 "Resize3d only support input layouts that are convertible from NCDHW. But got NCHW");
  assert_rejects("image.resize3d", "Tensor[(1, 3, 4, 5, 6), float32]",
                 "size=[10, 10, 20], roi=[0f, 0f, 0f, 0f]", "param->roi.size() == 6");
  assert_rejects("image.resize3d", "Tensor[(1, 3, 4, 5, 6), float32]", "", "param->size.size() == 3");
}

static void test_crop_and_resize(void **state) {
  (void)state;
  /* TestCropAndResize: NHWC (10, 224, 224, 3) and NCHW (5, 3, 255, 255), two boxes */
  assert_infers("image.crop_and_resize",
                "Tensor[(10, 224, 224, 3), float32], Tensor[(2, 4), float32], Tensor[(2), int32]",
                "crop_size=[20, 30], layout=\"NHWC\"", "Tensor[(2, 20, 30, 3), float32]");
  assert_infers("image.crop_and_resize",
                "Tensor[(5, 3, 255, 255), float32], Tensor[(2, 4), float32], Tensor[(2), int32]",
                "crop_size=[30, 30], method=\"nearest_neighbor\", extrapolation_value=0.5f",
                "Tensor[(2, 3, 30, 30), float32]");
  assert_infers("image.crop_and_resize",
                "Tensor[(5, 3, 255, 255), float32], Tensor[(?, 4), float32], Tensor[(?), int32]",
                "crop_size=[30, 30], out_dtype=\"float16\"", "Tensor[(?, 3, 30, 30), float16]");
  assert_rejects("image.crop_and_resize",
                 "Tensor[(5, 3, 255, 255), float32], Tensor[(2, 4), float32], Tensor[(2), int32]", "",
                 "IndexError: indexing 0 on an array of size 0");
  /* no defined() check: the undefined conversion fails in ForwardShape */
  assert_rejects("image.crop_and_resize",
                 "Tensor[(5, 3, 255, 255), float32], Tensor[(2, 4), float32], Tensor[(2), int32]",
                 "crop_size=[30, 30], layout=\"NCW\"", "Cannot operate on an undefined bijective layout");
}

static void test_dilation2d(void **state) {
  (void)state;
  /* test_dilation2d_infer_type: 224 - 8 + 1; the four-value strides and dilations are read in part */
  assert_infers("image.dilation2d", "Tensor[(?, 10, 224, 224), float32], Tensor[(10, 8, 8), float32]",
                "strides=[1, 1, 1, 1], padding=[0, 0, 0, 0], dilations=[1, 1, 1, 1]",
                "Tensor[(?, 10, 217, 217), float32]");
  /* TestDilation2DRun (NHWC data, HWI kernel) */
  const char *nhwc = "data_layout=\"NHWC\", kernel_layout=\"HWI\"";
  assert_infers("image.dilation2d", "Tensor[(1, 2, 2, 1), float32], Tensor[(2, 2, 1), float32]", nhwc,
                "Tensor[(1, 1, 1, 1), float32]");
  char attrs[256];
  snprintf(attrs, sizeof attrs, "padding=[0, 0, 1, 1], %s", nhwc);
  assert_infers("image.dilation2d", "Tensor[(2, 2, 2, 1), float32], Tensor[(2, 2, 1), float32]", attrs,
                "Tensor[(2, 2, 2, 1), float32]");
  assert_infers("image.dilation2d", "Tensor[(1, 2, 2, 1), float32], Tensor[(1, 2, 1), float32]", nhwc,
                "Tensor[(1, 2, 1, 1), float32]");
  snprintf(attrs, sizeof attrs, "padding=[1, 1], dilations=[2, 2], %s", nhwc);
  assert_infers("image.dilation2d", "Tensor[(1, 3, 3, 1), float32], Tensor[(2, 2, 1), float32]", attrs,
                "Tensor[(1, 3, 3, 1), float32]");
  snprintf(attrs, sizeof attrs, "strides=[1, 2], %s", nhwc);
  assert_infers("image.dilation2d", "Tensor[(1, 3, 4, 1), float32], Tensor[(2, 2, 1), float32]", attrs,
                "Tensor[(1, 2, 2, 1), float32]");
  /* the output channels are the kernel's; an unknown extent stays unknown */
  assert_infers("image.dilation2d", "Tensor[(1, 3, ?, 9), float32], Tensor[(4, 3, 3), float32]",
                "strides=[2, 2], out_dtype=\"float64\"", "Tensor[(1, 4, ?, 4), float64]");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 9, 9), float32], Tensor[(3, 3, 3), float32]",
                 "kernel_layout=\"OIHW\"",
                 "Dilation2D only support kernel layouts that are convertible from OIHW. But got OIHW");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 9, 9), float32], Tensor[(3, 3, 3), float32]",
                 "data_layout=\"NCW\"",
                 "Dilation2D only support input layouts that are convertible from NCHW");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 9, 9), float32], Tensor[(3, 3, 3), float32]",
                 "padding=[1, 1, 1]", "Padding size should be 1, 2 or 4, but got 3");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 2, 2), float32], Tensor[(3, 4, 4), float32]", "",
                 "negative");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 9, 9), float32], Tensor[(3, 3, 3), float32]",
                 "padding=[4611686018427387904, 1]", "overflows int64");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 9223372036854775807, 9), float32], Tensor[(3, 1, 1), float32]",
                 "padding=[1, 1]", "overflows int64");
  assert_rejects("image.dilation2d", "Tensor[(1, 3, 9, 9), float32], Tensor[(3, 3), float32]", "",
                 "Input shape size 2 mismatch with the expected shape size 3");
}

static void test_affine_grid(void **state) {
  (void)state;
  /* verify_affine_grid(1, (16, 32)) and (4, (16, 32)) */
  assert_infers("image.affine_grid", "Tensor[(1, 2, 3), float32]", "target_shape=[16, 32]",
                "Tensor[(1, 2, 16, 32), float32]");
  assert_infers("image.affine_grid", "Tensor[(4, 2, 3), float32]", "target_shape=[16, 32]",
                "Tensor[(4, 2, 16, 32), float32]");
  assert_rejects("image.affine_grid", "Tensor[(4, 3, 3), float32]", "target_shape=[16, 32]",
                 "data should be anaffine matrix with shape [batch_size, 2, 3]");
  assert_rejects("image.affine_grid", "Tensor[(4, 2, 3), float32]", "target_shape=[16]",
                 "target_shape should be 2D");
  assert_rejects("image.affine_grid", "Tensor[(4, 2, 3), float32]", "", "target_shape should be 2D");
}

static void test_grid_sample(void **state) {
  (void)state;
  /* test_grid_sample: 2-D (4, 4, 8, 8) with a (4, 2, 16, 16) grid, 3-D (4, 4, 4, 4, 4) with (4, 3, 8, 8, 8)
   */
  assert_infers("image.grid_sample", "Tensor[(4, 4, 8, 8), float32], Tensor[(4, 2, 16, 16), float32]",
                "method=\"bicubic\", padding_mode=\"border\", align_corners=False",
                "Tensor[(4, 4, 16, 16), float32]");
  assert_infers("image.grid_sample", "Tensor[(4, 4, 4, 4, 4), float32], Tensor[(4, 3, 8, 8, 8), float32]",
                "method=\"nearest\", layout=\"NCDHW\", padding_mode=\"reflection\"",
                "Tensor[(4, 4, 8, 8, 8), float32]");
  /* the default layout NCHW does not convert to NCDHW */
  assert_rejects("image.grid_sample", "Tensor[(4, 4, 4, 4, 4), float32], Tensor[(4, 3, 8, 8, 8), float32]",
                 "", "Cannot operate on an undefined bijective layout");
  assert_rejects("image.grid_sample", "Tensor[(4, 4, 8), float32], Tensor[(4, 2, 16, 16), float32]", "",
                 "must be 4-D or 5-D");
  assert_rejects("image.grid_sample", "Tensor[(4, 4, 8, 8), float32], Tensor[(4, 2, 16), float32]", "",
                 "IndexError: indexing 3 on an array of size 3");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resize1d),        cmocka_unit_test(test_resize3d),
      cmocka_unit_test(test_crop_and_resize), cmocka_unit_test(test_dilation2d),
      cmocka_unit_test(test_affine_grid),     cmocka_unit_test(test_grid_sample),
  };
  return cmocka_run_group_tests_name("ops_image", tests, NULL, NULL);
}
