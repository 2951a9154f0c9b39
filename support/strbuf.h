/* A growable byte string, used by every printer. */
#ifndef RELAYKIT_STRBUF_H
#define RELAYKIT_STRBUF_H
#include <stddef.h>

typedef struct StrBuf {
  char *data;  /* always NUL-terminated once anything was appended */
  size_t len, cap;
} StrBuf;

void sb_init(StrBuf *sb);
void sb_free(StrBuf *sb);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_puts(StrBuf *sb, const char *s);
void sb_putc(StrBuf *sb, char c);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the buffer to the caller (free() it); the StrBuf is left empty. */
char *sb_take(StrBuf *sb);

#endif
