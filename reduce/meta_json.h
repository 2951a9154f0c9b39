/* Rewriting TVM's #[metadata] node graph for the meta pass (pass_meta.c) and the shapes pass
   (pass_shapes.c: constants shrink with the sizes they share with the program). */
#ifndef RELAYKIT_META_JSON_H
#define RELAYKIT_META_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* A new #[metadata] section (malloc'd) holding only the constants keep[0..nkeep) (indices into
   the relay.Constant list, ascending): they become constants 0..nkeep-1, and every node and
   b64ndarrays entry nothing reaches any more is gone, the rest renumbered in their old order.
   Printed as TVM prints it.  NULL with a message when the section cannot be rewritten safely
   (a node whose references we do not know, a malformed graph). */
char *meta_json_keep_constants(const char *section, const size_t *keep, size_t nkeep, char *err, size_t errlen);

/* A new #[metadata] section (malloc'd) in which every dimension of size `from` of every constant
   becomes `to` (< from): the constant keeps the elements whose index along that axis is below
   `to`, and its type node states the new shape.  *changed (may be NULL) counts the constants
   resized; the section comes back unchanged when none has such a dimension.  NULL with a message
   when the section cannot be rewritten (an NDArray or a graph it cannot read). */
char *meta_json_resize_constants(const char *section, long long from, long long to, size_t *changed, char *err,
                                 size_t errlen);

#endif
