/* The pipeline a TVM test runs (pipeline.h): its JSON, its description, its passes' arguments. */
#include "pipeline.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/strbuf.h"
#include "../support/xalloc.h"

static char **strings_dup(char *const *v, size_t n) {
  char **out = xcalloc(n ? n : 1, sizeof *out);
  for (size_t i = 0; i < n; i++) out[i] = xstrdup(v[i]);
  return out;
}

static void strings_free(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* A JSON array of strings into *v; false when it is something else. */
static bool strings_from(json_t *a, char ***v, size_t *n) {
  if (!json_is_array(a)) return false;
  *n = json_array_size(a);
  *v = xcalloc(*n ? *n : 1, sizeof **v);
  for (size_t i = 0; i < *n; i++) {
    const char *s = json_string_value(json_array_get(a, i));
    if (!s) return false;
    (*v)[i] = xstrdup(s);
  }
  return true;
}

bool red_pipeline_parse(RedPipeline *p, const char *json, const char *where, char *err, size_t errlen) {
  *p = (RedPipeline){.opt_level = -1};
  json_error_t je;
  json_t *j = json_loads(json, 0, &je);
  if (!json_is_object(j)) {
    snprintf(err, errlen, "%s: not a pipeline (a JSON object): %s", where, j ? "not an object" : je.text);
    json_decref(j);
    return false;
  }
  const char *bad = NULL;
  json_t *v;
  if ((v = json_object_get(j, "check"))) {
    if (json_is_string(v)) p->check = xstrdup(json_string_value(v));
    else bad = "check";
  }
  if ((v = json_object_get(j, "passes")) && !(p->has_passes = strings_from(v, &p->passes, &p->npasses))) bad = "passes";
  if ((v = json_object_get(j, "opt_level"))) {
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 4) p->opt_level = (int)json_integer_value(v);
    else bad = "opt_level";
  }
  if ((v = json_object_get(j, "disabled_pass")) && !strings_from(v, &p->disabled, &p->ndisabled)) bad = "disabled_pass";
  if ((v = json_object_get(j, "ran")) && !strings_from(v, &p->ran, &p->nran)) bad = "ran";
  json_decref(j);
  if (bad) {
    snprintf(err, errlen, "%s: pipeline field \"%s\" is not %s", where, bad,
             !strcmp(bad, "opt_level") ? "an integer from 0 to 4" : !strcmp(bad, "check") ? "a string" : "a list of strings");
    red_pipeline_free(p);
    return false;
  }
  return true;
}

static json_t *strings_json(char *const *v, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) json_array_append_new(a, json_string(v[i]));
  return a;
}

static char *to_json(const RedPipeline *p, bool with_ran) {
  json_t *j = json_object();
  if (p->check) json_object_set_new(j, "check", json_string(p->check));
  if (p->has_passes) json_object_set_new(j, "passes", strings_json(p->passes, p->npasses));
  if (p->opt_level >= 0) json_object_set_new(j, "opt_level", json_integer(p->opt_level));
  /* disabled passes only where there is a PassContext to disable them in */
  if (p->opt_level >= 0 || p->ndisabled) json_object_set_new(j, "disabled_pass", strings_json(p->disabled, p->ndisabled));
  if (with_ran) json_object_set_new(j, "ran", strings_json(p->ran, p->nran));
  char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  char *out = xstrdup(s);
  free(s);
  return out;
}

/* The functions of TVM's relay.transform (0.6 to 0.19) that make a pass. */
static const char *const tvm_passes[] = {
    "AlterOpLayout", "AnnotateSpans", "AnnotateTarget", "AnnotateUsedMemory", "AutoSchedulerLayoutRewrite",
    "BackwardFoldScaleAxis", "BatchingOps", "CanonicalizeCast", "CanonicalizeOps", "CapturePostDfsIndexInSpans",
    "CollagePartition", "CombineParallelBatchMatmul", "CombineParallelConv2D", "CombineParallelDense",
    "Conv2dToSparse", "Conv2dToSparse2", "ConvertLayout", "DeadCodeElimination", "DefuseOps", "DenseToSparse",
    "DivToMul", "DynamicToStatic", "EliminateCommonSubexpr", "EtaExpand", "FakeQuantizationToInteger", "FastMath",
    "FirstOrderGradient", "FlattenAtrousConv", "FoldConstant", "FoldExplicitPadding", "FoldScaleAxis",
    "ForwardFoldScaleAxis", "FuseOps", "InferType", "Inline", "InlineCompositeFunctions", "LambdaLift",
    "LazyGradientInit", "Legalize", "ManifestLifetimes", "MarkCompilerFunctionsAsExtern", "MergeComposite",
    "MergeCompilerRegions", "MetaScheduleLayoutRewrite", "OutlineCompilerFunctionsWithExistingGlobalSymbols",
    "PartialEvaluate", "PartitionGraph", "PlanDevices", "RemoveStandaloneReshapes", "RemoveUnusedFunctions",
    "RewriteAnnotatedOps", "SimplifyExpr", "SimplifyExprPostAlterOp", "SimplifyFCTranspose", "SimplifyInference",
    "SplitArgs", "ToANormalForm", "ToBasicBlockNormalForm", "ToCPS", "ToGraphNormalForm", "ToMixedPrecision",
};

/* Name or Name(...) with balanced brackets and closed quotes, nothing after. */
static bool spec_shaped(const char *spec, size_t *name_len) {
  size_t n = 0;
  while (spec[n] == '_' || isalnum((unsigned char)spec[n])) n++;
  *name_len = n;
  if (!n || isdigit((unsigned char)spec[0])) return false;
  if (!spec[n]) return true;
  if (spec[n] != '(') return false;
  int depth = 0;
  char quote = 0;
  const char *s = spec + n;
  for (; *s; s++) {
    if (quote) {
      if (*s == '\\' && s[1]) s++;
      else if (*s == quote) quote = 0;
    } else if (*s == '"' || *s == '\'') {
      quote = *s;
    } else if (*s == '(' || *s == '[' || *s == '{') {
      depth++;
    } else if (*s == ')' || *s == ']' || *s == '}') {
      if (--depth == 0) break;
    }
  }
  return *s == ')' && !s[1] && !quote;
}

bool red_pipeline_check(const RedPipeline *p, const char *where, char *err, size_t errlen) {
  for (size_t i = 0; p->has_passes && i < p->npasses; i++) {
    size_t n;
    if (!spec_shaped(p->passes[i], &n)) {
      snprintf(err, errlen, "%s: pass '%s' does not parse: write Name or Name(literal arguments)", where, p->passes[i]);
      return false;
    }
    bool known = false;
    for (size_t k = 0; k < sizeof tvm_passes / sizeof *tvm_passes && !known; k++)
      known = strlen(tvm_passes[k]) == n && !strncmp(tvm_passes[k], p->passes[i], n);
    if (!known) {
      snprintf(err, errlen, "%s: unknown pass '%.*s' (not a relay.transform pass of TVM 0.6 to 0.19)", where, (int)n,
               p->passes[i]);
      return false;
    }
  }
  return true;
}

char *red_pipeline_json(const RedPipeline *p) { return to_json(p, false); }
char *red_pipeline_json_ran(const RedPipeline *p) { return to_json(p, true); }

void red_pipeline_copy(RedPipeline *to, const RedPipeline *from) {
  *to = *from;
  to->check = from->check ? xstrdup(from->check) : NULL;
  to->passes = strings_dup(from->passes, from->npasses);
  to->disabled = strings_dup(from->disabled, from->ndisabled);
  to->ran = strings_dup(from->ran, from->nran);
}

void red_pipeline_free(RedPipeline *p) {
  free(p->check);
  strings_free(p->passes, p->npasses);
  strings_free(p->disabled, p->ndisabled);
  strings_free(p->ran, p->nran);
  *p = (RedPipeline){.opt_level = -1};
}

/* The name of a pass spec: "FuseOps(fuse_opt_level=2)" -> "FuseOps" (length). */
static size_t name_len(const char *spec) { return strcspn(spec, "( \t"); }

bool red_pipeline_disabled(const RedPipeline *p, const char *name) {
  size_t n = name_len(name);
  for (size_t i = 0; i < p->ndisabled; i++)
    if (name_len(p->disabled[i]) == n && !strncmp(p->disabled[i], name, n)) return true;
  return false;
}

/* Whether the ordered pass list names this pass: those run whatever the PassContext disables
   (tvm-pass makes them required), so disabling them says nothing. */
static bool listed(const RedPipeline *p, const char *name) {
  size_t n = name_len(name);
  for (size_t i = 0; p->has_passes && i < p->npasses; i++)
    if (name_len(p->passes[i]) == n && !strncmp(p->passes[i], name, n)) return true;
  return false;
}

const char **red_pipeline_enabled(const RedPipeline *p, size_t *n) {
  const char **out = xcalloc(p->nran ? p->nran : 1, sizeof *out);
  *n = 0;
  for (size_t i = 0; i < p->nran; i++) {
    if (red_pipeline_disabled(p, p->ran[i]) || listed(p, p->ran[i])) continue;
    bool seen = false;
    for (size_t k = 0; k < *n && !seen; k++) seen = !strcmp(out[k], p->ran[i]);
    if (!seen) out[(*n)++] = p->ran[i];
  }
  return out;
}

/* "A, B and C" (sep ", "), or "A then B then C" (sep and last_sep " then "). */
static void list_words(StrBuf *b, const char *const *v, size_t n, const char *sep, const char *last_sep) {
  for (size_t i = 0; i < n; i++) {
    if (i) sb_puts(b, i + 1 == n ? last_sep : sep);
    sb_puts(b, v[i]);
  }
}

char *red_pipeline_describe(const RedPipeline *p) {
  StrBuf b = {NULL, 0, 0};
  if (p->has_passes) {
    if (p->npasses) list_words(&b, (const char *const *)p->passes, p->npasses, " then ", " then ");
    else sb_puts(&b, "no pass");
  }
  if (p->opt_level >= 0) {
    if (b.len) sb_puts(&b, "; ");
    sb_printf(&b, "opt level %d", p->opt_level);
    size_t nen;
    const char **en = red_pipeline_enabled(p, &nen);
    if (p->nran && p->ndisabled) {
      sb_printf(&b, ", %zu of its passes disabled; ", p->ndisabled);
      if (nen) {
        list_words(&b, en, nen, ", ", " and ");
        sb_puts(&b, nen == 1 ? " still runs" : " still run");
      } else {
        sb_puts(&b, "none of those that ran is left");
      }
    } else if (p->ndisabled) {
      sb_printf(&b, ", disabled: ");
      list_words(&b, (const char *const *)p->disabled, p->ndisabled, ", ", " and ");
    }
    free(en);
  }
  if (!b.len) sb_puts(&b, "the test's own pipeline");
  return b.data;
}

char *red_pipeline_script_args(const RedPipeline *p) {
  StrBuf b = {NULL, 0, 0};
  sb_puts(&b, "");
  for (size_t i = 0; p->has_passes && i < p->npasses; i++) sb_printf(&b, "%s'%s'", b.len ? " " : "", p->passes[i]);
  if (p->opt_level >= 0) sb_printf(&b, "%s--opt-level %d", b.len ? " " : "", p->opt_level);
  if (p->ndisabled) {
    sb_printf(&b, "%s--disabled-pass ", b.len ? " " : "");
    for (size_t i = 0; i < p->ndisabled; i++) sb_printf(&b, "%s%s", i ? "," : "", p->disabled[i]);
  }
  return b.data;
}

/* ------------------------------------------------------------------ arguments */

/* The top-level arguments of spec: their spans [start, end) of the value (after `k=`), at most
   max; the count.  0 for a spec without parentheses. */
static size_t arg_spans(const char *spec, size_t (*span)[2], size_t max) {
  const char *open = strchr(spec, '(');
  if (!open) return 0;
  size_t n = 0, depth = 0, start = (size_t)(open - spec) + 1;
  char quote = 0;
  for (size_t i = start; spec[i]; i++) {
    char ch = spec[i];
    if (quote) {
      if (ch == quote) quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'') quote = ch;
    else if (ch == '(' || ch == '[' || ch == '{') depth++;
    else if ((ch == ')' || ch == ']' || ch == '}') && depth) depth--;
    else if ((ch == ',' || ch == ')') && depth == 0) {
      size_t s = start, e = i;
      while (s < e && isspace((unsigned char)spec[s])) s++;
      while (e > s && isspace((unsigned char)spec[e - 1])) e--;
      for (size_t k = s; k < e; k++) /* k=v: the value only */
        if (spec[k] == '=') {
          s = k + 1;
          while (s < e && isspace((unsigned char)spec[s])) s++;
          break;
        }
      if (e > s && n < max) span[n][0] = s, span[n][1] = e, n++;
      start = i + 1;
      if (ch == ')') break;
    }
  }
  return n;
}

enum { ARGS_MAX = 16, LOWER_MAX = 3 };

/* The lower values of the literal spec[s, e): *n of them, ascending ("0", "1", "half"). */
static void lower_values(const char *spec, size_t s, size_t e, long long out[LOWER_MAX], size_t *n, bool *boolean) {
  *n = 0;
  *boolean = false;
  if (e - s == 4 && !strncmp(spec + s, "True", 4)) {
    *boolean = true;
    out[(*n)++] = 0;
    return;
  }
  long long v = 0;
  for (size_t k = s; k < e; k++) {
    if (!isdigit((unsigned char)spec[k]) || v > 100000000000LL) return; /* not a plain non-negative integer */
    v = v * 10 + (spec[k] - '0');
  }
  long long cand[3] = {0, 1, v / 2};
  for (size_t c = 0; c < 3; c++) {
    bool dup = false;
    for (size_t k = 0; k < *n; k++) dup |= out[k] == cand[c];
    if (cand[c] < v && !dup) out[(*n)++] = cand[c];
  }
}

size_t red_pass_arg_count(const char *spec) {
  size_t span[ARGS_MAX][2];
  return arg_spans(spec, span, ARGS_MAX);
}

size_t red_pass_arg_lower_count(const char *spec, size_t j) {
  size_t span[ARGS_MAX][2], n = arg_spans(spec, span, ARGS_MAX), nl;
  if (j >= n) return 0;
  long long lv[LOWER_MAX];
  bool boolean;
  lower_values(spec, span[j][0], span[j][1], lv, &nl, &boolean);
  return nl;
}

char *red_pass_arg_lowered(const char *spec, size_t j, size_t k) {
  size_t span[ARGS_MAX][2], n = arg_spans(spec, span, ARGS_MAX), nl;
  if (j >= n) return NULL;
  long long lv[LOWER_MAX];
  bool boolean;
  lower_values(spec, span[j][0], span[j][1], lv, &nl, &boolean);
  if (k >= nl) return NULL;
  StrBuf b = {NULL, 0, 0};
  sb_printf(&b, "%.*s", (int)span[j][0], spec);
  if (boolean) sb_puts(&b, "False");
  else sb_printf(&b, "%lld", lv[k]);
  sb_puts(&b, spec + span[j][1]);
  return b.data;
}
