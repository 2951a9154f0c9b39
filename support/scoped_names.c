#include "scoped_names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strset.h"
#include "xalloc.h"

/* The slot holding name, or the empty slot where it would go. */
static NameSlot *slot_of(NameSlot *slots, size_t nslots, const char *name) {
  size_t i = str_hash(name) & (nslots - 1);
  while (slots[i].name && strcmp(slots[i].name, name) != 0) i = (i + 1) & (nslots - 1);
  return &slots[i];
}

static void grow(ScopedNames *s) {
  size_t n = s->nslots ? 2 * s->nslots : 64;
  NameSlot *slots = xcalloc(n, sizeof *slots);
  for (size_t i = 0; i < s->nslots; i++)
    if (s->slots[i].name) *slot_of(slots, n, s->slots[i].name) = s->slots[i];
  free(s->slots);
  s->slots = slots;
  s->nslots = n;
}

void names_bind(ScopedNames *s, const char *name, const void *value) {
  if ((s->used + 1) * 2 > s->nslots) grow(s);
  NameSlot *slot = slot_of(s->slots, s->nslots, name);
  if (!slot->name) {
    slot->name = name;
    s->used++;
  }
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->items = xrealloc(s->items, s->cap * sizeof *s->items);
  }
  s->items[s->len] = (ScopedName){name, value, slot->binding};
  slot->binding = ++s->len;
}

const void *names_find(const ScopedNames *s, const char *name, bool *found) {
  const NameSlot *slot = s->nslots ? slot_of(s->slots, s->nslots, name) : NULL;
  *found = slot && slot->binding;
  return *found ? s->items[slot->binding - 1].value : NULL;
}

void names_truncate(ScopedNames *s, size_t len) {
  /* Popped innermost first, so each name's slot goes back to the binding it hid. */
  for (; s->len > len; s->len--) {
    const ScopedName *b = &s->items[s->len - 1];
    slot_of(s->slots, s->nslots, b->name)->binding = b->shadowed;
  }
}

void names_free(ScopedNames *s) {
  free(s->items);
  free(s->slots);
  memset(s, 0, sizeof *s);
}
