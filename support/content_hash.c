#include "content_hash.h"

#include <git2.h>

#include "libgit.h"

/* The wrapper's constant is libgit2's: a hash fills the buffer its callers size with it. */
_Static_assert(CONTENT_HASH_HEX == GIT_OID_HEXSZ, "CONTENT_HASH_HEX is git's hex object id length");

void content_hash(const char *text, size_t len, char out[CONTENT_HASH_HEX + 1]) {
  libgit_ready();
  git_oid oid;
  git_odb_hash(&oid, text, len, GIT_OBJECT_BLOB);
  git_oid_tostr(out, CONTENT_HASH_HEX + 1, &oid);
}
