/*
 * GenCoG's vertex diversity, by its own definitions (Wang et al., ISSTA 2023; its artifact's
 * gencog/metric/div.py, VertexDiversity and _est_space), for the 21 operators its paper compares
 * on (its config.py's common_ops less nn.bias_add, ../shared/acceptance/gencog-common-ops.txt):
 *
 *   a vertex      an operator call, told apart by the exact shapes of its inputs that are not
 *                 parameters (a convolution's or dense's weight, prelu's alpha, pad's value,
 *                 batch_norm's four vectors are parameters) and by the values of the attributes
 *                 whose space GenCoG can estimate (more than one choice in its specification);
 *                 dtypes do not count;
 *   the space     per operator, max_dim ^ r x (2 when it takes more than one non-parameter input)
 *                 x (floor(log2(product of its attributes' choice counts)) + 1), with GenCoG's
 *                 max_dim = 4 and r the largest rank its first input may have (5 when free);
 *   diversity     per operator min(distinct vertices / space, 1), averaged over the operators.
 *
 * The spaces below were computed from GenCoG's own specifications (gencog/op/math.py, tensor.py and nn.py,
 * for_graph) with that formula; relaykit's own vertex diversity (stats.c) uses ranks and dtypes instead of
 * shapes and a space estimated by sampling.
 */
#include "../../support/strbuf.h"
#include "gen.h"

#include <stdio.h>
#include <string.h>

typedef struct GencogOp {
  const char *name;
  unsigned params;      /* bit i: argument i is a parameter (not hashed) */
  unsigned space;       /* _est_space's total */
  const char *attrs[7]; /* the attributes hashed (more than one choice), NULL-terminated */
} GencogOp;

static const GencogOp gencog_ops[] = {
    {"sigmoid", 0, 1024, {NULL}},
    {"add", 0, 2048, {NULL}},
    {"subtract", 0, 2048, {NULL}},
    {"multiply", 0, 2048, {NULL}},
    {"maximum", 0, 2048, {NULL}},
    {"minimum", 0, 2048, {NULL}},
    {"reshape", 0, 9216, {"newshape", NULL}},
    {"transpose", 0, 1024, {NULL}},
    {"concatenate", 0, 2048, {NULL}},
    {"strided_slice", 0, 1024, {NULL}},
    {"nn.relu", 0, 1024, {NULL}},
    {"nn.leaky_relu", 0, 1024, {NULL}},
    {"nn.prelu", 1u << 1, 1024, {NULL}},
    {"nn.softmax", 0, 1024, {NULL}},
    {"nn.conv1d", 1u << 1, 576, {"kernel_size", "channels", "strides", "padding", "dilation", NULL}},
    {"nn.conv2d",
     1u << 1,
     4608,
     {"kernel_size", "channels", "strides", "padding", "dilation", "groups", NULL}},
    {"nn.max_pool2d", 0, 3840, {"pool_size", "strides", "padding", "dilation", "ceil_mode", NULL}},
    {"nn.avg_pool2d",
     0,
     4096,
     {"pool_size", "strides", "padding", "dilation", "ceil_mode", "count_include_pad", NULL}},
    {"nn.pad", 1u << 1, 512, {"pad_mode", NULL}},
    {"nn.batch_norm", 0x1eu, 3072, {"center", "scale", NULL}},
    {"nn.dense", 1u << 1, 48, {"units", NULL}},
};

static const GencogOp *gencog_op(const OpDef *op) {
  for (size_t i = 0; i < sizeof gencog_ops / sizeof gencog_ops[0]; i++)
    if (!strcmp(gencog_ops[i].name, op->name)) return &gencog_ops[i];
  return NULL;
}

unsigned gen_gencog_space(const OpDef *op) {
  const GencogOp *g = gencog_op(op);
  return g ? g->space : 0;
}

static const AttrVal *attr_of(const OpDef *op, const OpPlan *plan, const char *name) {
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, name)) return &plan->attrs[k];
  return NULL;
}

static void shape(StrBuf *out, const Type *t) {
  sb_putc(out, '(');
  for (uint32_t i = 0; t->kind == TY_TENSOR && i < t->ndims; i++)
    sb_printf(out, "%s%lld", i ? "," : "", (long long)t->dims[i]);
  sb_putc(out, ')');
}

/* n integers of a list (or a single int) attribute as GenCoG holds them: a window's sizes per
   spatial axis, a padding before and after each (TVM's 1, 2 and 4-value forms spelled out). */
static size_t ints(const AttrVal *v, int64_t *out, size_t max) {
  if (!v || v->kind == ATTR_NONE) return 0;
  if (v->kind == ATTR_INT) return out[0] = v->i, 1;
  size_t n = 0;
  for (size_t i = 0; v->kind == ATTR_LIST && i < v->n && n < max; i++)
    if (v->items[i].kind == ATTR_INT) out[n++] = v->items[i].i;
  return n;
}

static void int_list(StrBuf *out, const int64_t *v, size_t n) {
  sb_putc(out, '[');
  for (size_t i = 0; i < n; i++)
    sb_printf(out, "%s%lld", i ? "," : "", (long long)v[i]);
  sb_putc(out, ']');
}

/* An attribute's value in GenCoG's form: what a call of TVM's text leaves to a default or to the
   weight's shape (kernel_size, channels, units: None) is the value it has; reshape's newshape is
   the shape made (GenCoG writes it out, TVM's text may say -1 or 0). */
static void gencog_value(StrBuf *out, const OpDef *op, const OpPlan *plan, const char *name) {
  const AttrVal *v = attr_of(op, plan, name);
  int64_t buf[16];
  size_t n = ints(v, buf, 16);
  size_t spatial = plan->result->kind == TY_TENSOR && plan->result->ndims > 2 ? plan->result->ndims - 2 : 0;
  const Type *w = plan->nargs > 1 ? plan->args[1] : NULL;
  if (!strcmp(name, "newshape") && plan->result->kind == TY_TENSOR) {
    shape(out, plan->result);
  } else if ((!strcmp(name, "kernel_size") && n == 0 && w && w->ndims > 2) ||
             ((!strcmp(name, "channels") || !strcmp(name, "units")) && n == 0 && w && w->ndims > 0)) {
    if (!strcmp(name, "kernel_size"))
      int_list(out, w->dims + 2, w->ndims - 2);
    else
      sb_printf(out, "%lld", (long long)w->dims[0]);
  } else if (!strcmp(name, "padding") && n > 0 && spatial > 0) {
    int64_t pad[16]; /* TVM's forms: one for all, one per axis (before = after), before and after */
    for (size_t i = 0; i < 2 * spatial && i < 16; i++)
      pad[i] = n == 1 ? buf[0] : n == spatial ? buf[i % spatial] : i < n ? buf[i] : 0;
    int_list(out, pad, 2 * spatial);
  } else if (n > 0 && v->kind == ATTR_LIST && (n == 1 && spatial > 1)) {
    int64_t same[8];
    for (size_t i = 0; i < spatial && i < 8; i++)
      same[i] = buf[0];
    int_list(out, same, spatial);
  } else if (n > 0 && v->kind == ATTR_LIST) {
    int_list(out, buf, n);
  } else if (v && v->kind == ATTR_INT) {
    sb_printf(out, "%lld", (long long)v->i);
  } else if (v && v->kind == ATTR_BOOL) {
    sb_puts(out, v->i ? "True" : "False");
  } else if (v && v->kind == ATTR_STR) {
    sb_puts(out, v->s);
  } else if (v && v->kind == ATTR_FLOAT) {
    sb_printf(out, "%g", v->f);
  } else {
    sb_puts(out, "None");
  }
}

char *gen_gencog_vertex(const OpDef *op, const OpPlan *plan) {
  const GencogOp *g = gencog_op(op);
  if (!g) return NULL;
  StrBuf out;
  sb_init(&out);
  for (size_t i = 0; i < plan->nargs; i++) {
    if (g->params >> i & 1u) continue;
    const Type *a = plan->args[i];
    if (a->kind == TY_TUPLE) /* concatenate's inputs */
      for (uint32_t k = 0; k < a->nargs; k++)
        shape(&out, a->args[k]);
    else
      shape(&out, a);
  }
  for (size_t k = 0; g->attrs[k]; k++) {
    sb_printf(&out, ";%s=", g->attrs[k]);
    gencog_value(&out, op, plan, g->attrs[k]);
  }
  return sb_take(&out);
}
