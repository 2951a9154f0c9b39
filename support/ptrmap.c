#include "ptrmap.h"

#include <stdint.h>
#include <stdlib.h>

#include "xalloc.h"

/* key's slot, or the empty slot where it would go; cap is a power of two, never full. */
static size_t slot_of(const void *const *keys, size_t cap, const void *key) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ULL; /* Fibonacci hashing: pointers share low bits */
  size_t i = (size_t)(h >> 32) & (cap - 1);
  while (keys[i] && keys[i] != key) i = (i + 1) & (cap - 1);
  return i;
}

bool ptrmap_put(PtrMap *m, const void *key, const void *value) {
  if ((m->len + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    const void **keys = xcalloc(cap, sizeof *keys), **values = xcalloc(cap, sizeof *values);
    for (size_t k = 0; k < m->cap; k++)
      if (m->keys[k]) {
        size_t i = slot_of(keys, cap, m->keys[k]);
        keys[i] = m->keys[k];
        values[i] = m->values[k];
      }
    free(m->keys);
    free(m->values);
    m->keys = keys;
    m->values = values;
    m->cap = cap;
  }
  size_t i = slot_of(m->keys, m->cap, key);
  bool added = !m->keys[i];
  m->keys[i] = key;
  m->values[i] = value;
  m->len += added;
  return added;
}

const void *ptrmap_get(const PtrMap *m, const void *key, bool *found) {
  size_t i = m->cap ? slot_of(m->keys, m->cap, key) : 0;
  *found = m->cap && m->keys[i];
  return *found ? m->values[i] : NULL;
}

void ptrmap_free(PtrMap *m) {
  free(m->keys);
  free(m->values);
  m->keys = m->values = NULL;
  m->cap = m->len = 0;
}
