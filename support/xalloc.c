#include "xalloc.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p, size_t n) {
  if (!p && n) {
    fprintf(stderr, "%s: out of memory (requested %zu bytes)\n", cli_tool(), n);
    exit(2);
  }
  return p;
}

void *xmalloc(size_t n) { return check(malloc(n ? n : 1), n); }
void *xcalloc(size_t count, size_t size) { return check(calloc(count ? count : 1, size ? size : 1), count * size); }
void *xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1), n); }
char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}
