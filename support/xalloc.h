/* malloc and friends that never return NULL: running out of memory ends the program with a message. */
#ifndef RELAYKIT_XALLOC_H
#define RELAYKIT_XALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* A growable array of T: `VEC(int) v = {0}; VEC_PUSH(v, 3);` then free(v.items). */
#define VEC(T) struct { T *items; size_t len, cap; }
#define VEC_PUSH(v, x)                                                              \
  do {                                                                              \
    if ((v).len == (v).cap) {                                                       \
      (v).cap = (v).cap ? (v).cap * 2 : 8;                                          \
      (v).items = xrealloc((v).items, (v).cap * sizeof(*(v).items));                \
    }                                                                               \
    (v).items[(v).len++] = (x);                                                     \
  } while (0)

#endif
