#include "ptrset.h"

#include <stdint.h>
#include <stdlib.h>

#include "xalloc.h"

static size_t slot_of(const void *const *slots, size_t cap, const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL; /* Fibonacci hashing: pointers share low bits */
  size_t i = (size_t)(h >> 32) & (cap - 1);
  while (slots[i] && slots[i] != p) i = (i + 1) & (cap - 1);
  return i;
}

bool ptrset_add(PtrSet *s, const void *p) {
  if ((s->len + 1) * 2 > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    const void **slots = xcalloc(cap, sizeof *slots);
    for (size_t k = 0; k < s->cap; k++)
      if (s->slots[k]) slots[slot_of(slots, cap, s->slots[k])] = s->slots[k];
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
  }
  size_t i = slot_of(s->slots, s->cap, p);
  if (s->slots[i]) return false;
  s->slots[i] = p;
  s->len++;
  return true;
}

void ptrset_free(PtrSet *s) {
  free(s->slots);
  s->slots = NULL;
  s->cap = s->len = 0;
}
