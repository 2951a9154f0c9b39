/* Every reduction pass in the order rreduce runs them (and the fuzz harness checks them). */
#include "reduce.h"

/* Largest cuts first: whole bodies, then suffixes, then unwrapped closures, then single values;
   then simplification of what is left, and tidying (annotations, attributes, literals) last;
   merging parameters comes after shapes, which may have made their types equal. */
const RedPass *const red_passes[RED_NPASSES] = {
    &red_pass_comments, &red_pass_body,   &red_pass_truncate, &red_pass_unwrap, &red_pass_dce,
    &red_pass_cut,      &red_pass_replace, &red_pass_fold,    &red_pass_globals, &red_pass_inline,
    &red_pass_fields,   &red_pass_meta,   &red_pass_annot,    &red_pass_attrs,   &red_pass_shapes,
    &red_pass_literals, &red_pass_params,  &red_pass_opaque,
};
