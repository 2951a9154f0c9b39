#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct ArenaBlock {
  ArenaBlock *prev;
  size_t size;
  max_align_t data[];
};

enum { ARENA_BLOCK = 64 * 1024 };

void arena_init(Arena *a) {
  a->head = NULL;
  a->used = 0;
}

void arena_free(Arena *a) {
  ArenaBlock *b = a->head;
  while (b) {
    ArenaBlock *prev = b->prev;
    free(b);
    b = prev;
  }
  a->head = NULL;
  a->used = 0;
}

void *arena_alloc(Arena *a, size_t size) {
  const size_t align = sizeof(max_align_t);
  size = (size + align - 1) / align * align;
  if (size == 0) size = align;
  if (!a->head || a->used + size > a->head->size) {
    /* Large requests get a block of their own so small ones do not waste the tail. */
    size_t want = size > ARENA_BLOCK / 4 ? size : ARENA_BLOCK;
    ArenaBlock *b = xmalloc(sizeof(ArenaBlock) + want);
    b->size = want;
    if (a->head && want != ARENA_BLOCK) {
      /* Keep filling the current small block: insert the big one behind it. */
      b->prev = a->head->prev;
      a->head->prev = b;
      memset(b->data, 0, size);
      return b->data;
    }
    b->prev = a->head;
    a->head = b;
    a->used = 0;
  }
  void *p = (char *)a->head->data + a->used;
  a->used += size;
  memset(p, 0, size);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}
