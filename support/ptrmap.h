/* A map from pointers to pointers (open addressing): "seen already" and "worked out already" for
   walks over shared or nested structure (the hash-consed types, the values of nested ifs), where
   doing the work at every occurrence would cost as the structure's depth squared. */
#ifndef RELAYKIT_PTRMAP_H
#define RELAYKIT_PTRMAP_H
#include <stdbool.h>
#include <stddef.h>

/* A zeroed PtrMap is empty and ready. */
typedef struct PtrMap {
  const void **keys;
  const void **values;
  size_t cap, len;
} PtrMap;

/* Maps key (not NULL) to value; true if key was not there yet (an old value is replaced). */
bool ptrmap_put(PtrMap *m, const void *key, const void *value);
/* key's value (NULL when absent; *found tells a NULL value from an absent key). */
const void *ptrmap_get(const PtrMap *m, const void *key, bool *found);
void ptrmap_free(PtrMap *m);

#endif
