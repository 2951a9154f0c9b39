#define _GNU_SOURCE /* program_invocation_short_name */
#include "xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p, size_t n) {
  if (!p && n) {
    /* the tool's name as cli_tool() gives it, read here: cli.c allocates, so xalloc.c, the leaf,
       does not call into it */
    fprintf(stderr, "%s: out of memory (requested %zu bytes)\n", program_invocation_short_name, n);
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
