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
