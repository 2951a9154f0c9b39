/* Rewriting TVM's #[metadata] node graph for the meta pass (pass_meta.c). */
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

#endif
