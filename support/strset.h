/* A set of strings (open addressing), for counting distinct things. */
#ifndef RELAYKIT_STRSET_H
#define RELAYKIT_STRSET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct StrSet {
  char **slots;
  size_t cap, len;
} StrSet;

/* FNV-1a of a string: the hash of every string table here. */
uint64_t str_hash(const char *str);

void strset_init(StrSet *s);
void strset_free(StrSet *s);
/* Whether str is in the set. */
bool strset_contains(const StrSet *s, const char *str);
/* Adds a copy of str; true if it was not there yet. */
bool strset_add(StrSet *s, const char *str);

/* How many times each string was counted (keys are not copied: they must outlive the table). */
typedef struct StrCounts {
  const char **keys;
  size_t *counts;
  size_t cap, len;
} StrCounts;

/* A zeroed StrCounts is empty and ready. */
void strcounts_add(StrCounts *c, const char *key, size_t n);
size_t strcounts_get(const StrCounts *c, const char *key);
void strcounts_free(StrCounts *c);

#endif
