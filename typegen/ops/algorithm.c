/*
 * Algorithms on whole tensors: the scans (cumsum, cumprod), unique, searchsorted, and the Fourier
 * transforms dft and stft.
 *
 * Facts from TVM v0.13: src/relay/op/tensor/transform.cc (ScanopRel, UniqueRel, STFTRel, DFTRel),
 * src/relay/op/algorithm/searchsorted.cc (SearchSortedRel); attribute schemas from
 * include/tvm/relay/attrs/transform.h (ScanopAttrs, UniqueAttrs, StftAttrs, DFTAttrs) and
 * algorithm.h (SearchSortedAttrs); what the computes accept from python/tvm/topi/{scan,unique,
 * searchsorted,signal}.py.
 *
 * Departures from TVM: where TVM would read out of bounds (cumsum without an axis on a scalar, stft
 * on a scalar) or divide by zero (stft with hop_length=0) the relation rejects the call with a
 * message.  A dimension TVM computes as a non-constant expression (the product of a `?` with
 * another dimension in cumsum without an axis) is `?` here, the only non-constant dimension a
 * relaykit type has.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(algorithm);

/* ------------------------------------------------------------------ cumsum, cumprod */

/* ScanopRel (cumsum, cumprod): the dtype attribute, or data's when it is void; data's shape with an
   axis, else the flattened length.  TVM does not check the axis against the rank. */
static const Type *scan_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  DType dt = op_dtype(c, "dtype");
  if (dt.code == DT_VOID) dt = data->dtype;
  if (!op_is_none(c, "axis")) return ty_tensor(c->types, dt, data->dims, data->ndims);
  if (data->ndims == 0)
    return op_fail(c, 0, "%s: without an axis the data must have at least one dimension (TVM reads shape[0])",
                   c->op->name);
  int64_t n = data->dims[0];
  for (uint32_t i = 1; i < data->ndims; i++)
    if (!kit_dim_mul(c, n, data->dims[i], &n)) return NULL;
  return ty_tensor(c->types, dt, &n, 1);
}

/* cumsum/cumprod: with an axis the data has the result's shape; without one (a 1-D result) the data
   is any shape of that many elements.  The output dtype is the data's or set by the attribute. */
static bool scan_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  DType in = t->dtype;
  if (rng_chance(g->rng, 1, 3)) {
    in = opgen_dtype(g, OPDT_NUMERIC);
    kit_set_dtype(g, op, out, "dtype", t->dtype);
  }
  opgen_set_bool(g, op, out, "exclusive", rng_chance(g->rng, 1, 3));
  if (t->ndims == 1 && rng_chance(g->rng, 1, 2)) {
    int64_t dims[4];
    size_t rank = (size_t)rng_range(g->rng, 1, 4);
    kit_factors(g, t->dims[0], rank, dims);
    kit_arg(out, kit_tensor(g, in, dims, rank));
  } else {
    int64_t nd = t->ndims;
    opgen_set_int(g, op, out, "axis", kit_gen_axis(g, rng_range(g->rng, 0, nd - 1), nd));
    kit_arg(out, opgen_with_dtype(g, t, in));
  }
  out->result = t;
  return true;
}

static const OpAttrSpec scan_attrs[] = {
    {"axis", AT_INT, "None"}, {"dtype", AT_DTYPE, "\"\""}, {"exclusive", AT_BOOL, "False"}};

static const OpDef scan_ops[] = {
    /* the scans add or multiply numbers */
    KIT_OP("cumsum", 1, scan_attrs, scan_rel,
           KIT_GEN(OPDT_NUMERIC, kit_static_ranked, scan_solve, opgen_sample_by_solving)),
    KIT_OP("cumprod", 1, scan_attrs, scan_rel,
           KIT_GEN(OPDT_NUMERIC, kit_static_ranked, scan_solve, opgen_sample_by_solving)),
};
OP_REGISTER(scan_ops);

/* ------------------------------------------------------------------ unique */

/* UniqueRel: a 1-D input gives (unique, indices, inverse_indices, num_unique[, counts]); all but the
   first are int32. */
static const Type *unique_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims != 1) return op_fail(c, 0, "Unique: input must be 1-D tensor");
  const Type *idx = ty_tensor(c->types, dt_int32, data->dims, 1);
  int64_t one = 1;
  const Type *fields[5] = {data, idx, idx, ty_tensor(c->types, dt_int32, &one, 1), idx};
  return ty_tuple(c->types, fields, op_bool(c, "return_counts") ? 5 : 4);
}

/* unique: (Tensor[(n), d], three int32 vectors of n and (1), and one more of n with counts). */
static bool unique_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TUPLE || (t->nargs != 4 && t->nargs != 5)) return false;
  const Type *data = t->args[0];
  if (!kit_gen_ok(data, (OpDtypes)op->gen_dtypes, 1, 1)) return false;
  for (uint32_t i = 1; i < t->nargs; i++) {
    const Type *f = t->args[i];
    int64_t want = i == 3 ? 1 : data->dims[0];
    if (f->kind != TY_TENSOR || !dtype_eq(f->dtype, dt_int32) || f->ndims != 1 || f->dims[0] != want)
      return false;
  }
  return true;
}

static bool unique_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, t->args[0]);
  opgen_set_bool(g, op, out, "sorted", !rng_chance(g->rng, 1, 3));
  opgen_set_bool(g, op, out, "return_counts", t->nargs == 5);
  out->result = t;
  return true;
}

static bool unique_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *data = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 1, 1);
  const Type *idx = opgen_with_dtype(g, data, dt_int32);
  int64_t one = 1;
  const Type *fields[5] = {data, idx, idx, ty_tensor(g->types, dt_int32, &one, 1), idx};
  return unique_solve(g, op, ty_tuple(g->types, fields, rng_chance(g->rng, 1, 2) ? 5 : 4), out);
}

static const OpAttrSpec unique_attrs[] = {{"sorted", AT_BOOL, "True"}, {"return_counts", AT_BOOL, "False"}};

static const OpDef unique_ops[] = {
    KIT_OP("unique", 1, unique_attrs, unique_rel,
           KIT_GEN(OPDT_NUMERIC, unique_recognize, unique_solve, unique_sample)),
};
OP_REGISTER(unique_ops);

/* ------------------------------------------------------------------ searchsorted */

/* SearchSortedRel: values' shape in the dtype attribute.  A multi-dimensional sorted_sequence has
   values' rank and agrees with it on the outer axes where both are constants. */
static const Type *searchsorted_rel(OpCall *c) {
  const Type *seq = op_tensor_arg(c, 0), *values = seq ? op_tensor_arg(c, 1) : NULL;
  if (!values) return NULL;
  if (values->ndims == 0) return op_fail(c, 1, "The rank of `values` must be greater than one");
  if (seq->ndims > 1) {
    if (seq->ndims != values->ndims)
      return op_fail(c, 1,
                     "Ranks of `sorted_sequence` and values must be the same if `sorted_sequence` is "
                     "multi-dimensional.");
    for (uint32_t i = 0; i + 1 < values->ndims; i++)
      if (seq->dims[i] != KIT_ANY && values->dims[i] != KIT_ANY && seq->dims[i] != values->dims[i])
        return op_fail(c, 1, "`sorted_sequence and `values` do not have the same shape along outer axes");
  }
  return ty_tensor(c->types, op_dtype(c, "dtype"), values->dims, values->ndims);
}

/* searchsorted: indices (int32/int64) shaped like the values; the sorted sequence is 1-D or has the
   values' outer axes. */
static bool searchsorted_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX) &&
         (dtype_eq(t->dtype, dt_int32) || dtype_eq(t->dtype, dt_int64));
}

static bool searchsorted_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  DType dt = opgen_dtype(g, OPDT_NUMERIC);
  int64_t last = rng_range(g->rng, 1, g->policy->max_dim);
  if (t->ndims > 1 && rng_chance(g->rng, 1, 2)) {
    int64_t dims[KIT_RANK_MAX];
    memcpy(dims, t->dims, t->ndims * sizeof *dims);
    dims[t->ndims - 1] = last;
    kit_arg(out, kit_tensor(g, dt, dims, t->ndims));
  } else {
    kit_arg(out, kit_vec(g, dt, last));
  }
  kit_arg(out, opgen_with_dtype(g, t, dt));
  opgen_set_bool(g, op, out, "right", rng_chance(g->rng, 1, 2));
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static bool searchsorted_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  DType dt = rng_chance(g->rng, 1, 2) ? dt_int32 : dt_int64;
  return searchsorted_solve(g, op, opgen_tensor(g, dt, 1, g->policy->max_rank), out);
}

static const OpAttrSpec searchsorted_attrs[] = {{"right", AT_BOOL, "False"},
                                                {"dtype", AT_DTYPE, "\"int32\""}};

static const OpDef searchsorted_ops[] = {
    KIT_OP("searchsorted", 2, searchsorted_attrs, searchsorted_rel,
           KIT_GEN(OPDT_INT, searchsorted_recognize, searchsorted_solve, searchsorted_sample)),
};
OP_REGISTER(searchsorted_ops);

/* ------------------------------------------------------------------ dft */

/* DFTRel: (re_data's type, im_data's type). */
static const Type *dft_rel(OpCall *c) {
  const Type *re = op_tensor_arg(c, 0), *im = re ? op_tensor_arg(c, 1) : NULL;
  if (!im) return NULL;
  const Type *fields[2] = {re, im};
  return ty_tuple(c->types, fields, 2);
}

/* dft: the real and imaginary parts, two float tensors of one shape. */
static bool dft_recognize(const OpDef *op, const Type *t) {
  return t->kind == TY_TUPLE && t->nargs == 2 && t->args[0] == t->args[1] &&
         kit_gen_ok(t->args[0], (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX);
}

static bool dft_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, t->args[0]);
  kit_arg(out, t->args[1]);
  opgen_set_bool(g, op, out, "inverse", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static bool dft_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *part = opgen_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), 1, g->policy->max_rank);
  const Type *fields[2] = {part, part};
  return dft_solve(g, op, ty_tuple(g->types, fields, 2), out);
}

static const OpAttrSpec dft_attrs[] = {{"inverse", AT_BOOL, "False"}};

static const OpDef dft_ops[] = {
    /* the Fourier transforms compute with sines and cosines: floats */
    KIT_OP("dft", 2, dft_attrs, dft_rel, KIT_GEN(OPDT_FLOAT, dft_recognize, dft_solve, dft_sample)),
};
OP_REGISTER(dft_ops);

/* ------------------------------------------------------------------ stft */

/* STFTRel: [batch,] frequencies (n_fft/2+1 when onesided, else n_fft), frames
   (floordiv(len - n_fft, hop_length) + 1, `?` for a `?` length), 2.  A 2-D input's first axis is
   the batch; any other rank is read as 1-D (only its first axis counts).  The window is not
   checked. */
static const Type *stft_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "stft: the data must have at least one dimension");
  int64_t n_fft = (int32_t)op_int(c, "n_fft"), hop = (int32_t)op_int(c, "hop_length");
  int64_t dims[4];
  size_t n = 0, dim = 0;
  if (data->ndims == 2) {
    dims[n++] = data->dims[0];
    dim = 1;
  }
  dims[n++] = op_bool(c, "onesided") ? n_fft / 2 + 1 : n_fft;
  if (!kit_dim_ok(c, dims[n - 1])) return NULL;
  if (data->dims[dim] == KIT_ANY) {
    dims[n++] = KIT_ANY;
  } else {
    if (hop == 0) return op_fail(c, -1, "stft: Divide by zero (hop_length is 0)");
    dims[n++] = kit_floordiv(data->dims[dim] - n_fft, hop) + 1;
    if (!kit_dim_ok(c, dims[n - 1])) return NULL;
  }
  dims[n++] = 2;
  return ty_tensor(c->types, data->dtype, dims, n);
}

/* stft: [batch,] freqs, frames, 2 from a float signal of 1 (or 2, with the batch) dimensions.  The
   solver picks n_fft from the frequencies, a hop, and a length that gives the frames; the window has
   win_length <= n_fft entries. */
static bool stft_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 3, 4) && t->dims[t->ndims - 1] == 2 &&
         t->dims[t->ndims - 3] <= 4096 && t->dims[t->ndims - 2] <= 4096;
}

static bool stft_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  size_t b = t->ndims == 4;
  int64_t freqs = t->dims[b], frames = t->dims[b + 1], n_fft;
  bool onesided = rng_chance(g->rng, 1, 2);
  if (onesided)
    n_fft = freqs >= 2 && rng_chance(g->rng, 1, 2) ? 2 * freqs - 2 : 2 * freqs - 1;
  else
    n_fft = freqs;
  int64_t hop = rng_range(g->rng, 1, n_fft < 4 ? 4 : n_fft);
  int64_t len = n_fft + (frames - 1) * hop + rng_range(g->rng, 0, hop - 1);
  int64_t win = rng_range(g->rng, 1, n_fft);
  int64_t dims[2] = {t->dims[0], len};
  kit_arg(out, kit_tensor(g, t->dtype, b ? dims : dims + 1, b + 1));
  kit_arg(out, kit_vec(g, t->dtype, win));
  opgen_set_int(g, op, out, "n_fft", n_fft);
  opgen_set_int(g, op, out, "hop_length", hop);
  opgen_set_int(g, op, out, "win_length", win);
  opgen_set_bool(g, op, out, "normalized", rng_chance(g->rng, 1, 2));
  opgen_set_bool(g, op, out, "onesided", onesided);
  out->result = t;
  return true;
}

static bool stft_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t dims[4];
  size_t n = 0;
  if (rng_chance(g->rng, 1, 2)) dims[n++] = rng_range(g->rng, 1, 4);
  dims[n++] = rng_range(g->rng, 1, 9);
  dims[n++] = rng_range(g->rng, 1, 8);
  dims[n++] = 2;
  return stft_solve(g, op, kit_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), dims, n), out);
}

static const OpAttrSpec stft_attrs[] = {{"n_fft", AT_INT, "-1"},
                                        {"hop_length", AT_INT, "-1"},
                                        {"win_length", AT_INT, "-1"},
                                        {"normalized", AT_BOOL, "False"},
                                        {"onesided", AT_BOOL, "True"}};

static const OpDef stft_ops[] = {
    KIT_OP("stft", 2, stft_attrs, stft_rel, KIT_GEN(OPDT_FLOAT, stft_recognize, stft_solve, stft_sample)),
};
OP_REGISTER(stft_ops);
