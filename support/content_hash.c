#include "content_hash.h"

#include <git2.h>

void content_hash(const char *text, size_t len, char out[CONTENT_HASH_HEX + 1]) {
  git_oid oid;
  git_odb_hash(&oid, text, len, GIT_OBJECT_BLOB);
  git_oid_tostr(out, CONTENT_HASH_HEX + 1, &oid);
}
