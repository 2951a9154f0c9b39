/* Content hashes for caches and deduplication: git's blob hash (libgit2's git_odb_hash), so a
   hash rreduce or rmutate prints is the one `git hash-object` gives for the same text.  Nothing
   to set up first: libgit2 is made ready on the first hash (libgit.h). */
#ifndef RELAYKIT_CONTENT_HASH_H
#define RELAYKIT_CONTENT_HASH_H

#include <stddef.h>

/* Hex digits in a hash (git's SHA-1); a buffer for one holds CONTENT_HASH_HEX + 1 bytes. */
enum { CONTENT_HASH_HEX = 40 };

/* The hash of text[0..len) as lowercase hex, NUL-terminated. */
void content_hash(const char *text, size_t len, char out[CONTENT_HASH_HEX + 1]);

#endif
