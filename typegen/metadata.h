/* The #[metadata] section: the types of meta[relay.Constant][i] constants. */
#ifndef RELAYKIT_METADATA_H
#define RELAYKIT_METADATA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "type.h"

typedef struct MetaConst {
  DType dtype;
  size_t ndims;
  int64_t dims[16];
} MetaConst;

typedef struct MetaTable {
  MetaConst *consts; /* meta[relay.Constant][i], in index order */
  size_t nconsts;
} MetaTable;

/* Reads the section (text from "#[metadata]" to the end, or NULL for none).  Each constant's
   shape and dtype come from the header of its base64 NDArray.  False with a message on error and,
   when `where` is not NULL, the byte offset in the section the message is about. */
bool meta_table_init(MetaTable *t, const char *metadata, char *err, size_t errlen, size_t *where);
void meta_table_free(MetaTable *t);
/* The type of a reference like "meta[relay.Constant][3]", or NULL if the table has no such entry. */
const Type *meta_constant_type(const MetaTable *t, TyTable *types, const char *ref);

/* Whether `ref` names a constant of the table. */
bool meta_has_constant(const MetaTable *t, const char *ref);

/* TVM's node graph (SaveJSON) in a section ("#[metadata]" then the JSON): the parsed JSON
   (json_decref it), or NULL with a message.  The one reader of that JSON: the table above and
   the reducer's rewrite (reduce/meta_json.c) both start here. */
json_t *meta_json_load(const char *section, char *err, size_t errlen, size_t *where);
/* Reports a section error (err, at `where` in the section) at its place in the text `diag`
   holds when that text is the one `m` was parsed from, else at the start. */
struct AstModule;
struct Diag;
void meta_report(struct Diag *diag, const struct AstModule *m, const char *err, size_t where);
/* Call attributes the section holds (a call's last argument meta[relay.attrs.X][i], as TVM prints
   the attributes of ops registered without an attrs type) become written attributes of their
   calls, attrs_type_key included where TVM's parser needs it (typegen/meta_attrs.c).  False with a
   message at the reference when one cannot be read.  Every load runs it before checking. */
bool meta_inline_attrs(struct AstModule *m, struct Diag *diag);
/* Whether e is such a reference (meta[relay.attrs....]): an unknown op's call keeps it as its
   attributes, which nothing types. */
struct AstExpr;
bool meta_is_attrs_ref(const struct AstExpr *e);
/* The Array node listing the constants, root map's "relay.Constant" entry; NULL if there is none. */
json_t *meta_json_constant_list(json_t *root);

#endif
