/* Vision relations against TVM's results: the shapes TVM v0.13's tests/python/relay/test_op_level5.py
   (test_multibox_prior, test_get_valid_counts, test_non_max_suppression, test_multibox_transform_loc,
   test_roi_align, test_roi_pool, test_proposal, test_yolo_reorg_infer_shape,
   test_all_class_non_max_suppression) and test_any.py (test_all_class_non_max_suppression: a `?`
   box count) expect; the messages are TVM's ICHECK texts (src/relay/op/vision/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "op_test.h"

#define GVC_KEY "attrs_type_key=\"relay.attrs.GetValidCountsAttrs\""
#define NMS_KEY "attrs_type_key=\"relay.attrs.NonMaximumSuppressionAttrs\""
#define ACNMS_KEY "attrs_type_key=\"relay.attrs.AllClassNonMaximumSuppressionAttrs\""
#define ALIGN_KEY "attrs_type_key=\"relay.attrs.ROIAlignAttrs\""
#define POOL_KEY "attrs_type_key=\"relay.attrs.ROIPoolAttrs\""
#define PROPOSAL_KEY "attrs_type_key=\"relay.attrs.ProposalAttrs\""

static void test_multibox_prior(void **state) {
  (void)state;
  /* sizes (0.3, 1.5, 0.7), ratios (1.3, 2.4): 56 * 56 * 4 boxes */
  assert_infers("vision.multibox_prior", "Tensor[(1, 3, 56, 56), float32]",
                "sizes=[0.3f, 1.5f, 0.7f], ratios=[1.3f, 2.4f], steps=[2f, 1.5f], offsets=[0.2f, 0.3f], clip=True",
                "Tensor[(1, 12544, 4), float32]");
  /* the defaults: one size, one ratio */
  assert_infers("vision.multibox_prior", "Tensor[(1, 24, 32, 32), float32]", "", "Tensor[(1, 1024, 4), float32]");
  /* the batch does not matter; an unknown height makes the count unknown */
  assert_infers("vision.multibox_prior", "Tensor[(?, 24, 32, 32), float32]", "clip=False",
                "Tensor[(1, 1024, 4), float32]");
  assert_infers("vision.multibox_prior", "Tensor[(1, 24, ?, 32), float16]", "", "Tensor[(1, ?, 4), float16]");
  assert_rejects("vision.multibox_prior", "Tensor[(1, 3, 56), float32]", "",
                 "Input data should be 4D: [batch, channel, height, width]");
  assert_rejects("vision.multibox_prior", "Tensor[(1, 3, 5, 5), float32]", "sizes=[], ratios=[]", "negative");
  assert_rejects("vision.multibox_prior", "Tensor[(1, 3, 5, 5), float32]", "sizes=1f", "must be a list");
}

static void test_multibox_transform_loc(void **state) {
  (void)state;
  /* test_default_value: 3 anchors, 3 classes */
  assert_infers("vision.multibox_transform_loc",
                "Tensor[(1, 3, 3), float32], Tensor[(1, 12), float32], Tensor[(1, 3, 4), float32]", "",
                "(Tensor[(1, 3, 6), float32], Tensor[(1), int32])");
  /* test_threshold: a symbolic batch (`?` here), 5 anchors */
  assert_infers("vision.multibox_transform_loc",
                "Tensor[(?, 5, 5), float32], Tensor[(?, 20), float32], Tensor[(1, 5, 4), float32]",
                "threshold=0.02f, variances=[0.2f, 0.2f, 0.3f, 0.3f]",
                "(Tensor[(?, 5, 6), float32], Tensor[(?), int32])");
  assert_rejects("vision.multibox_transform_loc",
                 "Tensor[(1, 3, 3), float32], Tensor[(1, 12), float32], Tensor[(1, 4, 4), float32]", "",
                 "Number of anchors mismatch found");
  assert_rejects("vision.multibox_transform_loc",
                 "Tensor[(1, 3, 3), float32], Tensor[(1, 11), float32], Tensor[(1, 3, 4), float32]", "",
                 "# anchors mismatch with # loc.");
  assert_rejects("vision.multibox_transform_loc",
                 "Tensor[(1, 3, 3), float32], Tensor[(1, 12), float32], Tensor[(1, 3, 5), float32]", "",
                 "AssertEQ(anchor_shape[2], 4)");
  assert_rejects("vision.multibox_transform_loc",
                 "Tensor[(1, 3), float32], Tensor[(1, 12), float32], Tensor[(1, 3, 4), float32]", "",
                 "The dimension of class probability should be 3, but received 2");
  assert_rejects("vision.multibox_transform_loc",
                 "Tensor[(1, 0, 0), float32], Tensor[(1, 0), float32], Tensor[(1, 0, 4), float32]", "",
                 "Number of anchors must > 0.");
}

static void test_get_valid_counts(void **state) {
  (void)state;
  /* verify_get_valid_counts((1, 2500, 6), 0, 0, 1), ((3, 1000, 6), 0.55, 1, 0) */
  assert_infers("vision.get_valid_counts", "Tensor[(1, 2500, 6), float32], float32", "",
                "(Tensor[(1), int32], Tensor[(1, 2500, 6), float32], Tensor[(1, 2500), int32])");
  assert_infers("vision.get_valid_counts", "Tensor[(3, 1000, 6), float32], float32",
                "score_threshold=0.55f, id_index=1, score_index=0, " GVC_KEY,
                "(Tensor[(3), int32], Tensor[(3, 1000, 6), float32], Tensor[(3, 1000), int32])");
  assert_rejects("vision.get_valid_counts", "Tensor[(2500, 6), float32], float32", "", "Input data should be 3-D.");
  /* TVM registers no attrs type for it: keyword attributes need the key */
  assert_rejects("vision.get_valid_counts", "Tensor[(1, 2500, 6), float32], float32", "score_index=0",
                 "unable to determine the 'attrs_type_key'");
  assert_rejects("vision.get_valid_counts", "Tensor[(1, 2500, 6), float32], float32",
                 "attrs_type_key=\"relay.attrs.NonMaximumSuppressionAttrs\"", "attrs_type_key must be");
}

static void test_non_max_suppression(void **state) {
  (void)state;
  const char *args = "Tensor[(1, 5, 6), float32], Tensor[(1), int32], Tensor[(1, 5), int32], int32, float32";
  /* verify_nms: return_indices=False gives the data's type, True the indices and the count */
  assert_infers("vision.non_max_suppression", args, "force_suppress=True, top_k=2, return_indices=False, " NMS_KEY,
                "Tensor[(1, 5, 6), float32]");
  assert_infers("vision.non_max_suppression", args, "force_suppress=True, top_k=2, " NMS_KEY,
                "(Tensor[(1, 5), int32], Tensor[(1, 1), int32])");
  assert_infers("vision.non_max_suppression",
                "Tensor[(?, 5, 6), float32], Tensor[(?), int32], Tensor[(?, 5), int32], int32, float32",
                "return_indices=True, " NMS_KEY, "(Tensor[(?, 5), int32], Tensor[(?, 1), int32])");
  assert_infers("vision.non_max_suppression",
                "Tensor[(1, 5, 10), float32], Tensor[(1), int32], Tensor[(1, 5), int32], int32, float32",
                "return_indices=False, " NMS_KEY, "Tensor[(1, 5, 10), float32]");
  assert_rejects("vision.non_max_suppression",
                 "Tensor[(5, 6), float32], Tensor[(1), int32], Tensor[(1, 5), int32], int32, float32", NMS_KEY,
                 "Input data should be 3-D.");
  assert_rejects("vision.non_max_suppression",
                 "Tensor[(1, 5, 6), float32], Tensor[(1, 1), int32], Tensor[(1, 5), int32], int32, float32", NMS_KEY,
                 "Input valid count should be 1-D.");
  /* without attributes TVM's relation reads them through a null pointer */
  assert_rejects("vision.non_max_suppression", args, "", "the call has no attributes");
}

static void test_all_class_non_max_suppression(void **state) {
  (void)state;
  /* test_op_level5.py: boxes (2, 5, 4), scores (2, 2, 5): 2 * 2 * 5 rows */
  assert_infers("vision.all_class_non_max_suppression",
                "Tensor[(2, 5, 4), float32], Tensor[(2, 2, 5), float32], int64, float32, float32", ACNMS_KEY,
                "(Tensor[(20, 3), int64], Tensor[(1), int64])");
  /* test_any.py: an unknown box count */
  assert_infers("vision.all_class_non_max_suppression",
                "Tensor[(1, ?, 4), float32], Tensor[(1, 2, ?), float32], int64, float32, float32", ACNMS_KEY,
                "(Tensor[(?, 3), int64], Tensor[(1), int64])");
  assert_infers("vision.all_class_non_max_suppression",
                "Tensor[(1, ?, 4), float32], Tensor[(1, 2, ?), float32], int64, float32, float32",
                "output_format=\"tensorflow\", " ACNMS_KEY,
                "(Tensor[(1, ?, 2), int64], Tensor[(1, ?), float32], Tensor[(1), int64])");
  assert_infers("vision.all_class_non_max_suppression",
                "Tensor[(2, 5, 4), float32], Tensor[(2, 3, 5), float32], int64, float32, float32",
                "output_format=\"tensorflow\", " ACNMS_KEY,
                "(Tensor[(2, 15, 2), int64], Tensor[(2, 15), float32], Tensor[(2), int64])");
  assert_rejects("vision.all_class_non_max_suppression",
                 "Tensor[(2, 5), float32], Tensor[(2, 2, 5), float32], int64, float32, float32", ACNMS_KEY,
                 "Input boxes should be 3-D.");
  assert_rejects("vision.all_class_non_max_suppression",
                 "Tensor[(2, 5, 4), float32], Tensor[(2, 5), float32], int64, float32, float32", ACNMS_KEY,
                 "Input scores count should be 3-D.");
  assert_rejects("vision.all_class_non_max_suppression",
                 "Tensor[(2, 5, 4), float32], Tensor[(2, 2, 5), float32], int64, float32, float32",
                 "output_format=\"tensorflow\"", "unable to determine the 'attrs_type_key'");
}

static void test_roi_align_pool(void **state) {
  (void)state;
  /* verify_roi_align_nchw((1, 4, 16, 16), (32, 5), pooled_size=7, ...) and the NHWC form */
  assert_infers("vision.roi_align", "Tensor[(1, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                "pooled_size=[7, 7], spatial_scale=1f, " ALIGN_KEY, "Tensor[(32, 4, 7, 7), float32]");
  assert_infers("vision.roi_align", "Tensor[(4, 16, 16, 4), float32], Tensor[(32, 5), float32]",
                "pooled_size=[7, 7], spatial_scale=0.5f, sample_ratio=2, layout=\"NHWC\", mode=\"max\", " ALIGN_KEY,
                "Tensor[(32, 7, 7, 4), float32]");
  assert_rejects("vision.roi_align", "Tensor[(1, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                 "pooled_size=[7, 7], spatial_scale=1f, layout=\"HWCN\", " ALIGN_KEY, "Unexpected ROI Align layout");
  assert_rejects("vision.roi_align", "Tensor[(4, 16, 16), float32], Tensor[(32, 5), float32]",
                 "pooled_size=[7, 7], spatial_scale=1f, " ALIGN_KEY, "Input data should be 4-D.");
  assert_rejects("vision.roi_align", "Tensor[(1, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                 "spatial_scale=1f, " ALIGN_KEY, "Cannot find required field 'pooled_size'");
  assert_rejects("vision.roi_align", "Tensor[(1, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                 "pooled_size=[7], spatial_scale=1f, " ALIGN_KEY, "IndexError");
  /* verify_roi_pool((4, 4, 16, 16), (32, 5), pooled_size=7, spatial_scale=0.5) */
  assert_infers("vision.roi_pool", "Tensor[(4, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                "pooled_size=[7, 7], spatial_scale=0.5f, " POOL_KEY, "Tensor[(32, 4, 7, 7), float32]");
  assert_rejects("vision.roi_pool", "Tensor[(4, 4, 16, 16), float32], Tensor[(32), float32]",
                 "pooled_size=[7, 7], spatial_scale=0.5f, " POOL_KEY, "Input rois should be 2-D.");
  assert_rejects("vision.roi_pool", "Tensor[(4, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                 "pooled_size=[7, 7], spatial_scale=0.5f, layout=\"NCWH\", " POOL_KEY,
                 "vision.roi_pool does not support NCWH layout");
  assert_rejects("vision.roi_pool", "Tensor[(4, 4, 16, 16), float32], Tensor[(32, 5), float32]",
                 "pooled_size=[7, 7], spatial_scale=0.5f", "unable to determine the 'attrs_type_key'");
}

static void test_proposal(void **state) {
  (void)state;
  /* test_proposal: cls_prob (1, 2, 3, 3), bbox_pred (1, 4, 3, 3), im_info (1, 3), 4 boxes kept */
  const char *args = "Tensor[(1, 2, 3, 3), float32], Tensor[(1, 4, 3, 3), float32], Tensor[(1, 3), float32]";
  assert_infers("vision.proposal", args,
                "scales=[0.5f], ratios=[0.5f], feature_stride=16, threshold=0.7f, rpn_pre_nms_top_n=200, "
                "rpn_post_nms_top_n=4, rpn_min_size=16, " PROPOSAL_KEY,
                "Tensor[(4, 5), float32]");
  /* the default keeps 300 per image */
  assert_infers("vision.proposal",
                "Tensor[(2, 2, 3, 3), float32], Tensor[(2, 4, 3, 3), float32], Tensor[(2, 3), float32]",
                "iou_loss=True, " PROPOSAL_KEY, "Tensor[(600, 5), float32]");
  assert_infers("vision.proposal",
                "Tensor[(?, 2, 3, 3), float32], Tensor[(?, 4, 3, 3), float32], Tensor[(?, 3), float32]",
                "rpn_post_nms_top_n=4, " PROPOSAL_KEY, "Tensor[(?, 5), float32]");
  assert_rejects("vision.proposal",
                 "Tensor[(1, 2, 3, 3), float32], Tensor[(1, 4, 3, 3), float32], Tensor[(1, 4), float32]",
                 PROPOSAL_KEY, "AssertEQ(im_info->shape[1], 3)");
  assert_rejects("vision.proposal",
                 "Tensor[(1, 2, 3), float32], Tensor[(1, 4, 3, 3), float32], Tensor[(1, 3), float32]", PROPOSAL_KEY,
                 "The dimension of class probability should be 4, but received 3");
  assert_rejects("vision.proposal", args, "rpn_post_nms_top_n=-1, " PROPOSAL_KEY, "negative");
  assert_rejects("vision.proposal", args, "", "the call has no attributes");
}

static void test_yolo_reorg(void **state) {
  (void)state;
  /* verify_yolo_reorg((n, c, 20, 20), 10, ...) with n, c as `?`; ((1, 100, 20, 20), 10) and
     ((1, 4, 6, 6), 2) by the reference's shape */
  assert_infers("vision.yolo_reorg", "Tensor[(?, ?, 20, 20), float32]", "stride=10", "Tensor[(?, ?, 2, 2), float32]");
  assert_infers("vision.yolo_reorg", "Tensor[(1, 100, 20, 20), float32]", "stride=10",
                "Tensor[(1, 10000, 2, 2), float32]");
  assert_infers("vision.yolo_reorg", "Tensor[(1, 4, 6, 6), float32]", "stride=2", "Tensor[(1, 16, 3, 3), float32]");
  /* floor division; the default stride is 1 */
  assert_infers("vision.yolo_reorg", "Tensor[(1, 4, 7, 5), int8]", "stride=2", "Tensor[(1, 16, 3, 2), int8]");
  assert_infers("vision.yolo_reorg", "Tensor[(1, 4, 7, 5), int8]", "", "Tensor[(1, 4, 7, 5), int8]");
  assert_rejects("vision.yolo_reorg", "Tensor[(1, 4, 6), float32]", "stride=2", "Yolo reorg supports only 4 dimension.");
  assert_rejects("vision.yolo_reorg", "Tensor[(1, 4, 6, 6), float32]", "stride=0", "stride must be positive");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_multibox_prior),
      cmocka_unit_test(test_multibox_transform_loc),
      cmocka_unit_test(test_get_valid_counts),
      cmocka_unit_test(test_non_max_suppression),
      cmocka_unit_test(test_all_class_non_max_suppression),
      cmocka_unit_test(test_roi_align_pool),
      cmocka_unit_test(test_proposal),
      cmocka_unit_test(test_yolo_reorg),
  };
  return cmocka_run_group_tests_name("ops_vision", tests, NULL, NULL);
}
