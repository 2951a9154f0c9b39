/* Reading and checking generator policies (policy.c). */
#ifndef RELAYKIT_POLICY_H
#define RELAYKIT_POLICY_H

#include "gen.h"

/* Overrides p's fields with those a JSON file sets:
   {"fuel": 32, "weights": {"op": 60, "if": 3, ...}, "allow_ops": [...], "deny_ops": [...],
    "max_rank": 4, "max_dim": 8, "max_elements": 4096, "flops_budget": 0,
    "float_dtypes": ["float32"], "int_dtypes": ["int32"], "main_params_max": 3,
    "min_rank": 0, "float_only": false, "forward": false}
   Strings live in `arena`.  False with a message (FILE:LINE:COL for JSON errors). */
bool gen_policy_load(GenPolicy *p, const char *path, Arena *arena, char *err, size_t errlen);
/* Sets the weight of a construct by name ("op", "if", ...); false for an unknown name. */
bool gen_policy_set_weight(GenPolicy *p, const char *construct, long long w);
/* Checks limits and operator names. */
bool gen_policy_check(const GenPolicy *p, char *err, size_t errlen);

#endif
