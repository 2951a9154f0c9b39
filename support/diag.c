#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void diag_init(Diag *d, const char *file, const char *text, size_t len) {
  d->file = file;
  d->text = text;
  d->len = len;
  d->errors = 0;
  d->warnings = 0;
  sb_init(&d->out);
}

void diag_free(Diag *d) { sb_free(&d->out); }

/* A line ends at "\n", "\r\n" or a lone "\r", as in every editor (TVM's lexer counts "\n" only,
   but refuses a lone "\r"; a file with old Mac line endings got every message on line 1). */
void diag_line_col(const char *text, size_t len, size_t at, uint32_t *line, uint32_t *col) {
  if (at > len) at = len;
  uint32_t l = 1;
  size_t bol = 0;
  for (size_t i = 0; i < at; i++)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
      l++;
      bol = i + 1;
    }
  *line = l;
  *col = (uint32_t)(at - bol) + 1;
}

/* Shows at most this many bytes of a source line: one-line dumps can be megabytes long. */
enum { SHOWN_BEFORE = 60, SHOWN_AFTER = 60 };

static void show_line(Diag *d, size_t at) {
  size_t bol = at, eol = at;
  while (bol > 0 && d->text[bol - 1] != '\n' && d->text[bol - 1] != '\r') bol--;
  while (eol < d->len && d->text[eol] != '\n' && d->text[eol] != '\r') eol++;
  size_t from = at - bol > SHOWN_BEFORE ? at - SHOWN_BEFORE : bol;
  size_t to = eol - at > SHOWN_AFTER ? at + SHOWN_AFTER : eol;
  StrBuf *o = &d->out;
  sb_puts(o, "  ");
  if (from > bol) sb_puts(o, "...");
  for (size_t i = from; i < to; i++) {
    unsigned char c = (unsigned char)d->text[i];
    /* Keep the caret aligned and the terminal safe: control bytes and non-ASCII become '?'. */
    sb_putc(o, c == '\t' ? ' ' : (c < 0x20 || c >= 0x7f) ? '?' : (char)c);
  }
  if (to < eol) sb_puts(o, "...");
  sb_puts(o, "\n  ");
  if (from > bol) sb_puts(o, "   ");
  for (size_t i = from; i < at; i++) sb_putc(o, ' ');
  sb_puts(o, "^\n");
}

static void report(Diag *d, size_t at, const char *kind, const char *fmt, va_list ap) {
  uint32_t line, col;
  if (at > d->len) at = d->len;
  diag_line_col(d->text, d->len, at, &line, &col);
  sb_printf(&d->out, "%s:%u:%u: %s: ", d->file, line, col, kind);
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  sb_puts(&d->out, msg);
  sb_putc(&d->out, '\n');
  if (d->len > 0) show_line(d, at);
}

void diag_error(Diag *d, size_t at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(d, at, "error", fmt, ap);
  va_end(ap);
  d->errors++;
}

void diag_warning(Diag *d, size_t at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(d, at, "warning", fmt, ap);
  va_end(ap);
  d->warnings++;
}
