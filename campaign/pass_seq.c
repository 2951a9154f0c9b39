/* Pass sequences, Tzer's second dimension: the passes TVM runs before relay.build, mutated with
   the program.  A sequence is kept as one string, the passes joined by ';' (a pass spec may hold
   commas: `CombineParallelDense(min_num_branches=2)`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"

/* Every relay.transform pass of TVM v0.13.0 that needs no argument (checked with inspect on the
   build), with arguments where the defaults would do nothing on small graphs (CombineParallel*
   wants 3 branches) or refuse to run (EtaExpand expands nothing by default and says so).  Left
   out: passes that need the module's own data (SimplifyFCTranspose's weight names,
   DenseToSparse), ToCPS (an expression function, not a pass), ManifestLifetimes (VM-internal). */
const char *const fuzz_pass_names[] = {
    "FoldConstant", "FuseOps", "DefuseOps", "SimplifyExpr", "SimplifyInference", "EliminateCommonSubexpr",
    "DeadCodeElimination", "FoldScaleAxis", "ForwardFoldScaleAxis", "BackwardFoldScaleAxis", "CanonicalizeOps",
    "CanonicalizeCast", "CombineParallelConv2D(min_num_branches=2)", "CombineParallelDense(min_num_branches=2)",
    "CombineParallelBatchMatmul(min_num_branches=2)", "DynamicToStatic", "ToANormalForm", "ToGraphNormalForm",
    "ToBasicBlockNormalForm", "AlterOpLayout", "Legalize", "FastMath", "LazyGradientInit", "PartialEvaluate",
    "Inline", "LambdaLift", "FakeQuantizationToInteger", "FlattenAtrousConv", "ToMixedPrecision", "InferType",
    "EtaExpand(expand_constructor=True, expand_global_var=True)", "FirstOrderGradient", "ConvertLayout({'nn.conv2d': ['NHWC', 'default']})",
};
const size_t fuzz_npass_names = sizeof fuzz_pass_names / sizeof *fuzz_pass_names;

/* Other values of the arguments a pass takes (TVM v0.13's defaults aside), which a pass-only
   round of coverage feedback may choose (Tzer mutates pass arguments too).  A sequence holds a
   pass either as fuzz_pass_names spells it or as one of these. */
static const char *const pass_variants[] = {
    "FuseOps(fuse_opt_level=0)", "FuseOps(fuse_opt_level=1)", "FuseOps(fuse_opt_level=2)", "FuseOps(fuse_opt_level=3)",
    "CombineParallelConv2D(min_num_branches=3)", "CombineParallelDense(min_num_branches=3)",
    "CombineParallelBatchMatmul(min_num_branches=3)", "FoldConstant(fold_qnn=True)",
    "DeadCodeElimination(inline_once=True)", "DeadCodeElimination(ignore_impurity=True)",
    "ToMixedPrecision('bfloat16')", "EtaExpand(expand_constructor=True, expand_global_var=False)",
};

typedef struct Seq {
  const char *items[FUZZ_MAX_PASSES];
  size_t len;
} Seq;

static const char *known(const char *s, size_t n) {
  for (size_t i = 0; i < fuzz_npass_names; i++)
    if (strlen(fuzz_pass_names[i]) == n && !strncmp(fuzz_pass_names[i], s, n)) return fuzz_pass_names[i];
  for (size_t i = 0; i < sizeof pass_variants / sizeof *pass_variants; i++)
    if (strlen(pass_variants[i]) == n && !strncmp(pass_variants[i], s, n)) return pass_variants[i];
  return NULL;
}

/* The name of a pass spec: up to its argument list. */
static size_t spec_name_len(const char *spec) { return strcspn(spec, "("); }

/* Splits seq into known names; false on an unknown one or too many. */
static bool split(const char *seq, Seq *out) {
  out->len = 0;
  while (seq && *seq) {
    const char *end = strchr(seq, ';');
    size_t n = end ? (size_t)(end - seq) : strlen(seq);
    const char *name = known(seq, n);
    if (!name || out->len == FUZZ_MAX_PASSES) return false;
    out->items[out->len++] = name;
    seq = end ? end + 1 : NULL;
  }
  return true;
}

static char *join(const Seq *s) {
  StrBuf sb;
  sb_init(&sb);
  for (size_t i = 0; i < s->len; i++) {
    if (i) sb_putc(&sb, ';');
    sb_puts(&sb, s->items[i]);
  }
  return sb_take(&sb);
}

static const char *any_pass(Rng *rng, const FuzzPassSet *v) { return v->names[rng_index(rng, v->n)]; }

void fuzz_pass_set_all(FuzzPassSet *v) {
  v->names = fuzz_pass_names;
  v->n = fuzz_npass_names;
}

bool fuzz_pass_set_parse(FuzzPassSet *v, const char *list, char *err, size_t errlen) {
  size_t cap = 1;
  for (const char *p = list; *p; p++) cap += *p == ',';
  const char **names = xcalloc(cap, sizeof *names);
  size_t n = 0;
  for (const char *s = list; s;) {
    const char *end = strchr(s, ',');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    const char *name = NULL;
    for (size_t i = 0; i < fuzz_npass_names && !name; i++) /* by name: `CombineParallelDense` too */
      if (!strncmp(fuzz_pass_names[i], s, len) && (fuzz_pass_names[i][len] == 0 || fuzz_pass_names[i][len] == '('))
        name = fuzz_pass_names[i];
    if (!name || !len) {
      snprintf(err, errlen, "--passes: unknown pass '%.*s' (rfuzz --list-passes)", (int)len, s);
      free(names);
      return false;
    }
    names[n++] = name;
    s = end ? end + 1 : NULL;
  }
  v->names = names;
  v->n = n;
  return true;
}

char *fuzz_passes_random(Rng *rng, const FuzzPassSet *v) {
  Seq s = {.len = (size_t)rng_range(rng, 0, 4)};
  for (size_t i = 0; i < s.len; i++) s.items[i] = any_pass(rng, v);
  return join(&s);
}

char *fuzz_passes_mutate(Rng *rng, const char *seq, const FuzzPassSet *v) {
  Seq s;
  if (!split(seq, &s)) s.len = 0;
  /* insert when empty, never grow past the cap, and only swap or delete what is there */
  int how = s.len == 0 ? 0 : s.len == FUZZ_MAX_PASSES ? 1 + (int)rng_range(rng, 0, 2) : (int)rng_range(rng, 0, 3);
  size_t at = s.len ? rng_index(rng, s.len) : 0;
  switch (how) {
  case 0: { /* insert */
    size_t pos = (size_t)rng_range(rng, 0, (int64_t)s.len);
    memmove(&s.items[pos + 1], &s.items[pos], (s.len - pos) * sizeof *s.items);
    s.items[pos] = any_pass(rng, v);
    s.len++;
    break;
  }
  case 1: /* delete */
    memmove(&s.items[at], &s.items[at + 1], (s.len - at - 1) * sizeof *s.items);
    s.len--;
    break;
  case 2: s.items[at] = any_pass(rng, v); break; /* replace */
  default: { /* swap two (reorder) */
    size_t other = rng_index(rng, s.len);
    const char *t = s.items[at];
    s.items[at] = s.items[other];
    s.items[other] = t;
    break;
  }
  }
  return join(&s);
}

static bool has_other_arguments(const char *spec) {
  size_t n = spec_name_len(spec);
  for (size_t i = 0; i < sizeof pass_variants / sizeof *pass_variants; i++)
    if (spec_name_len(pass_variants[i]) == n && !strncmp(pass_variants[i], spec, n)) return true;
  return false;
}

/* Another spelling of a pass with arguments: a variant of the same pass (pass_variants, or the
   plain spelling of fuzz_pass_names), or NULL when it has none. */
static const char *other_arguments(Rng *rng, const char *spec) {
  size_t n = spec_name_len(spec);
  const char *choices[16];
  size_t k = 0;
  const char *const *lists[2] = {fuzz_pass_names, pass_variants};
  size_t lens[2] = {fuzz_npass_names, sizeof pass_variants / sizeof *pass_variants};
  for (int l = 0; l < 2; l++)
    for (size_t i = 0; i < lens[l] && k < 16; i++)
      if (spec_name_len(lists[l][i]) == n && !strncmp(lists[l][i], spec, n) && strcmp(lists[l][i], spec))
        choices[k++] = lists[l][i];
  return k ? choices[rng_index(rng, k)] : NULL;
}

char *fuzz_passes_mutate_args(Rng *rng, const char *seq, const FuzzPassSet *v) {
  Seq s;
  if (split(seq, &s) && s.len && rng_chance(rng, 1, 3)) {
    size_t with[FUZZ_MAX_PASSES], k = 0; /* the passes that have other arguments */
    for (size_t i = 0; i < s.len; i++)
      if (has_other_arguments(s.items[i])) with[k++] = i;
    if (k) {
      size_t at = with[rng_index(rng, k)];
      s.items[at] = other_arguments(rng, s.items[at]);
      return join(&s);
    }
  }
  return fuzz_passes_mutate(rng, seq, v);
}

bool fuzz_passes_valid(const char *seq) {
  Seq s;
  return split(seq, &s);
}

void fuzz_pass_features(const char *seq, void (*add)(void *ctx, const char *key), void *ctx) {
  char prev[160] = "";
  for (const char *s = seq; s && *s;) {
    const char *end = strchr(s, ';');
    size_t n = end ? (size_t)(end - s) : strlen(s);
    char cur[160], key[340];
    snprintf(cur, sizeof cur, "%.*s", (int)n, s);
    snprintf(key, sizeof key, "passes:%s>%s", prev, cur);
    add(ctx, key);
    snprintf(prev, sizeof prev, "%s", cur);
    s = end ? end + 1 : NULL;
  }
}
