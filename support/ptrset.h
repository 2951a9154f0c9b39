/* A set of pointers (open addressing): "seen already" for walks over shared structure, such as
   the hash-consed types, where visiting every occurrence would cost as the structure unshared. */
#ifndef RELAYKIT_PTRSET_H
#define RELAYKIT_PTRSET_H
#include <stdbool.h>
#include <stddef.h>

/* A zeroed PtrSet is empty and ready. */
typedef struct PtrSet {
  const void **slots;
  size_t cap, len;
} PtrSet;

/* Adds p (not NULL); true if it was not there yet. */
bool ptrset_add(PtrSet *s, const void *p);
void ptrset_free(PtrSet *s);

#endif
