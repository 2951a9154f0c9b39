#include "strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void strset_init(StrSet *s) {
  s->cap = 64;
  s->len = 0;
  s->slots = xcalloc(s->cap, sizeof *s->slots);
}

void strset_free(StrSet *s) {
  for (size_t i = 0; i < s->cap; i++) free(s->slots[i]);
  free(s->slots);
  s->slots = NULL;
  s->cap = s->len = 0;
}

uint64_t str_hash(const char *str) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (; *str; str++) h = (h ^ (unsigned char)*str) * 1099511628211ULL;
  return h;
}

static void insert(char **slots, size_t cap, char *str) {
  size_t i = str_hash(str) & (cap - 1);
  while (slots[i]) i = (i + 1) & (cap - 1);
  slots[i] = str;
}

bool strset_contains(const StrSet *s, const char *str) {
  for (size_t i = str_hash(str) & (s->cap - 1); s->slots[i]; i = (i + 1) & (s->cap - 1))
    if (!strcmp(s->slots[i], str)) return true;
  return false;
}

bool strset_add(StrSet *s, const char *str) {
  size_t i = str_hash(str) & (s->cap - 1);
  for (; s->slots[i]; i = (i + 1) & (s->cap - 1))
    if (!strcmp(s->slots[i], str)) return false;
  if ((s->len + 1) * 2 > s->cap) {
    size_t cap = s->cap * 2;
    char **slots = xcalloc(cap, sizeof *slots);
    for (size_t k = 0; k < s->cap; k++)
      if (s->slots[k]) insert(slots, cap, s->slots[k]);
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
  }
  insert(s->slots, s->cap, xstrdup(str));
  s->len++;
  return true;
}

/* The slot of key, or the empty slot where it would go. */
static size_t count_slot(const char *const *keys, size_t cap, const char *key) {
  size_t i = str_hash(key) & (cap - 1);
  while (keys[i] && strcmp(keys[i], key) != 0) i = (i + 1) & (cap - 1);
  return i;
}

void strcounts_add(StrCounts *c, const char *key, size_t n) {
  if ((c->len + 1) * 2 > c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 64;
    const char **keys = xcalloc(cap, sizeof *keys);
    size_t *counts = xcalloc(cap, sizeof *counts);
    for (size_t i = 0; i < c->cap; i++)
      if (c->keys[i]) {
        size_t k = count_slot(keys, cap, c->keys[i]);
        keys[k] = c->keys[i];
        counts[k] = c->counts[i];
      }
    free(c->keys);
    free(c->counts);
    c->keys = keys;
    c->counts = counts;
    c->cap = cap;
  }
  size_t i = count_slot(c->keys, c->cap, key);
  if (!c->keys[i]) {
    c->keys[i] = key;
    c->len++;
  }
  c->counts[i] += n;
}

size_t strcounts_get(const StrCounts *c, const char *key) {
  if (!c->cap) return 0;
  size_t i = count_slot(c->keys, c->cap, key);
  return c->keys[i] ? c->counts[i] : 0;
}

void strcounts_free(StrCounts *c) {
  free(c->keys);
  free(c->counts);
  memset(c, 0, sizeof *c);
}
