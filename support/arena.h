/* Arena allocation: everything an AST or a type table owns lives in one arena and is freed at once. */
#ifndef RELAYKIT_ARENA_H
#define RELAYKIT_ARENA_H
#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
  ArenaBlock *head;  /* newest block; blocks are chained to older ones */
  size_t used;       /* bytes used in head */
} Arena;

void arena_init(Arena *a);
void arena_free(Arena *a);
/* Zeroed, max-aligned memory; ends the program with a message if the system is out of memory
   (xmalloc). */
void *arena_alloc(Arena *a, size_t size);
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* printf into the arena. */
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
