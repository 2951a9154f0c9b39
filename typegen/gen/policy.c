/* Generator policies: the constructs, the defaults, and policies from JSON files (rgen --policy FILE;
   flags override what a file sets). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

/* The constructs' names in policies and flags ("op", "if", ...). */
static const char *const construct_names[GEN_NCONSTRUCTS] = {
    [GEN_OP] = "op", [GEN_REUSE] = "reuse", [GEN_LET] = "let", [GEN_IF] = "if", [GEN_TUPLE] = "tuple",
    [GEN_CLOSURE] = "closure", [GEN_GLOBAL] = "global", [GEN_RECURSION] = "recursion", [GEN_POLY] = "poly",
    [GEN_ADT] = "adt", [GEN_REF] = "ref", [GEN_SIDE_OP] = "side_op",
    [GEN_DYNAMIC] = "dynamic",
};

void gen_policy_default(GenPolicy *p) {
  memset(p, 0, sizeof *p);
  p->types = opgen_default_policy;
  p->fuel = 32;
  static const unsigned w[GEN_NCONSTRUCTS] = {
      [GEN_OP] = 60, [GEN_REUSE] = 12, [GEN_LET] = 4, [GEN_IF] = 3, [GEN_TUPLE] = 4, [GEN_CLOSURE] = 3,
      [GEN_GLOBAL] = 2, [GEN_RECURSION] = 1, [GEN_POLY] = 1, [GEN_ADT] = 2, [GEN_REF] = 1, [GEN_SIDE_OP] = 8,
  };
  memcpy(p->weights, w, sizeof w);
  p->main_params_max = 3;
}

bool gen_policy_allows(const GenPolicy *p, const OpDef *op) {
  if (!op->sample) return false;
  /* a forward program is meant to run: a dyn.* op drawn at random would take its shape from
     whatever an input holds (the dynamic detour reads one with shape_of: gen_plumbing) */
  if (p->forward && !strncmp(op->name, "dyn.", 4)) return false;
  for (size_t i = 0; i < p->ndeny; i++)
    if (!strcmp(p->deny_ops[i], op->name)) return false;
  if (p->nallow == 0) return true;
  for (size_t i = 0; i < p->nallow; i++)
    if (!strcmp(p->allow_ops[i], op->name)) return true;
  return false;
}

static const char **strings(json_t *arr, Arena *arena, size_t *n) {
  *n = json_array_size(arr);
  const char **out = arena_alloc(arena, (*n ? *n : 1) * sizeof *out);
  for (size_t i = 0; i < *n; i++) {
    const char *s = json_string_value(json_array_get(arr, i));
    out[i] = s ? arena_strdup(arena, s) : "";
  }
  return out;
}

static bool dtypes(json_t *arr, Arena *arena, const DType **out, size_t *n, const char *key, char *err, size_t errlen) {
  *n = json_array_size(arr);
  if (*n == 0) {
    snprintf(err, errlen, "\"%s\" must be a non-empty list of dtype names", key);
    return false;
  }
  DType *d = arena_alloc(arena, *n * sizeof *d);
  for (size_t i = 0; i < *n; i++) {
    const char *s = json_string_value(json_array_get(arr, i));
    if (!s || !dtype_parse(s, &d[i]) || d[i].code == DT_VOID) {
      snprintf(err, errlen, "\"%s\": not a dtype: %s", key, s ? s : "(not a string)");
      return false;
    }
  }
  *out = d;
  return true;
}

bool gen_policy_load(GenPolicy *p, const char *path, Arena *arena, char *err, size_t errlen) {
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    snprintf(err, errlen, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
    return false;
  }
  bool ok = false;
  if (!json_is_object(root)) {
    snprintf(err, errlen, "%s: the policy must be a JSON object", path);
    goto out;
  }
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if (!strcmp(key, "fuel") && json_is_integer(v)) p->fuel = (unsigned)json_integer_value(v);
    else if (!strcmp(key, "max_rank") && json_is_integer(v)) p->types.max_rank = (unsigned)json_integer_value(v);
    else if (!strcmp(key, "max_dim") && json_is_integer(v)) p->types.max_dim = json_integer_value(v);
    else if (!strcmp(key, "max_elements") && json_is_integer(v)) p->types.max_elements = json_integer_value(v);
    else if (!strcmp(key, "flops_budget") && json_is_integer(v)) p->flops_budget = json_integer_value(v);
    else if (!strcmp(key, "main_params_max") && json_is_integer(v)) p->main_params_max = (unsigned)json_integer_value(v);
    else if (!strcmp(key, "min_rank") && json_is_integer(v)) p->min_rank = (unsigned)json_integer_value(v);
    else if (!strcmp(key, "uniform_shapes") && json_is_boolean(v))
      p->types.uniform_shapes = json_is_true(v);
    else if (!strcmp(key, "float_only") && json_is_boolean(v)) p->float_only = json_is_true(v);
    else if (!strcmp(key, "forward") && json_is_boolean(v)) p->forward = json_is_true(v);
    else if (!strcmp(key, "directed") && json_is_boolean(v))
      p->directed = json_is_true(v);
    else if (!strcmp(key, "allow_ops") && json_is_array(v)) p->allow_ops = strings(v, arena, &p->nallow);
    else if (!strcmp(key, "deny_ops") && json_is_array(v)) p->deny_ops = strings(v, arena, &p->ndeny);
    else if (!strcmp(key, "float_dtypes") && json_is_array(v)) {
      if (!dtypes(v, arena, &p->types.float_dtypes, &p->types.nfloat_dtypes, key, err, errlen)) goto out;
    } else if (!strcmp(key, "int_dtypes") && json_is_array(v)) {
      if (!dtypes(v, arena, &p->types.int_dtypes, &p->types.nint_dtypes, key, err, errlen)) goto out;
    } else if (!strcmp(key, "weights") && json_is_object(v)) {
      const char *wk;
      json_t *wv;
      json_object_foreach(v, wk, wv) {
        if (!gen_policy_set_weight(p, wk, json_integer_value(wv)) || !json_is_integer(wv)) {
          snprintf(err, errlen, "%s: unknown construct or bad weight in \"weights\": %s", path, wk);
          goto out;
        }
      }
    } else {
      snprintf(err, errlen, "%s: unknown key or wrong kind of value: \"%s\"", path, key);
      goto out;
    }
  }
  ok = gen_policy_check(p, err, errlen);
out:
  json_decref(root);
  return ok;
}

bool gen_policy_set_weight(GenPolicy *p, const char *construct, long long w) {
  if (w < 0 || w > 1000000) return false;
  for (int i = 0; i < GEN_NCONSTRUCTS; i++)
    if (!strcmp(construct_names[i], construct)) {
      p->weights[i] = (unsigned)w;
      return true;
    }
  return false;
}

bool gen_policy_check(const GenPolicy *p, char *err, size_t errlen) {
  if (p->types.max_rank > 8) return snprintf(err, errlen, "max_rank must be at most 8"), false;
  if (p->min_rank > p->types.max_rank) return snprintf(err, errlen, "min_rank must not exceed max_rank"), false;
  if (p->types.max_dim < 1) return snprintf(err, errlen, "max_dim must be at least 1"), false;
  if (p->types.max_elements < 1) return snprintf(err, errlen, "max_elements must be at least 1"), false;
  if (p->weights[GEN_OP] == 0) return snprintf(err, errlen, "the weight of \"op\" must not be 0"), false;
  for (size_t i = 0; i < p->nallow; i++)
    if (!op_lookup(p->allow_ops[i]) || !op_lookup(p->allow_ops[i])->sample)
      return snprintf(err, errlen, "allow_ops: %s is not an operator the generator knows", p->allow_ops[i]), false;
  for (size_t i = 0; i < p->ndeny; i++)
    if (!op_lookup(p->deny_ops[i]))
      return snprintf(err, errlen, "deny_ops: %s is not a registered operator", p->deny_ops[i]), false;
  return true;
}
