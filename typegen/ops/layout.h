/*
 * tir::Layout as TVM v0.13 reads it (src/tir/ir/data_layout.cc), for every relation that takes a
 * layout attribute (the NN, image, vision, dyn and transform families), and BijectiveLayout's
 * shape conversion.  "NCHW4c" is N, C, H, W (primal axes, factor 0) and c (a sub-axis of C whose
 * extent is its factor, 4).
 */
#ifndef RELAYKIT_OPS_LAYOUT_H
#define RELAYKIT_OPS_LAYOUT_H

#include "ops.h"

/* Axes (an axis may repeat, so more than 52) and characters a layout may have: relaykit's bounds. */
enum { LAYOUT_MAX = 64, LAYOUT_NAME_MAX = 256 };

typedef struct Layout {
  char name[LAYOUT_NAME_MAX];
  size_t ndim;
  char axis[LAYOUT_MAX];
  int64_t factor[LAYOUT_MAX]; /* a sub-axis's extent; 0 for primal axes */
} Layout;

/* Reads attribute `attr` (whose value is s) of the call as Layout's constructor does: 1 for a
   layout, 0 for the undefined layout ("" or "__undef__"), -1 after op_fail (`OP: invalid layout
   "S" for ATTR: WHY`, WHY in TVM's words) for what TVM rejects.  As in TVM, digits after the
   last axis are ignored and an axis may appear twice. */
int layout_attr(OpCall *c, const char *attr, const char *s, Layout *l);
/* The layout a relation computes through: defined, and no axis twice.  A departure from TVM,
   which accepts an axis twice and then computes with one of the copies (nn.conv2d with
   data_layout="NCHWC" on a 5-D input reads its channels from the last axis): relaykit refuses
   such a call rather than guess which copy TVM reads. */
bool layout_parse(OpCall *c, const char *attr, const char *s, Layout *l);
/* The position of an axis letter in the layout, or -1. */
int layout_index(const Layout *l, char axis);
/* Layout::FactorOf: the product of a primal axis's sub-axes' factors, or -1 when it has none. */
int64_t layout_factor(const Layout *l, char primal);
/* Whether tir::BijectiveLayout(a, b) is defined: both hold the same primal axes. */
bool layout_convertible(const Layout *a, const Layout *b);
/* BijectiveLayout(src, dst).ForwardShape (BackwardShape with the roles swapped): a primal axis's
   full extent is its dimension times its sub-axis's factor in src, floor-divided by its sub-axis's
   factor in dst; a sub-axis's dimension is its factor; `?` stays `?`.  `arg` names the argument
   whose shape it is, for messages (-1 for a computed shape). */
bool layout_convert(OpCall *c, int arg, const Layout *src, const int64_t *shape, size_t n, const Layout *dst,
                    int64_t *out);

#endif
