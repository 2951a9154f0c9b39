#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void sb_init(StrBuf *sb) {
  sb->data = NULL;
  sb->len = sb->cap = 0;
}

void sb_free(StrBuf *sb) {
  free(sb->data);
  sb_init(sb);
}

static void reserve(StrBuf *sb, size_t extra) {
  if (sb->len + extra + 1 <= sb->cap) return;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < sb->len + extra + 1) cap *= 2;
  sb->data = xrealloc(sb->data, cap);
  sb->cap = cap;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
  reserve(sb, n);
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_putc(StrBuf *sb, char c) { sb_putn(sb, &c, 1); }

void sb_printf(StrBuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  reserve(sb, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
}

char *sb_take(StrBuf *sb) {
  if (!sb->data) sb_putn(sb, "", 0);
  char *p = sb->data;
  sb_init(sb);
  return p;
}
