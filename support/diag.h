/* Compiler-style diagnostics: `FILE:LINE:COL: error: message`, the source line, and a caret. */
#ifndef RELAYKIT_DIAG_H
#define RELAYKIT_DIAG_H
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

typedef struct Diag {
  const char *file;  /* name shown in messages ("<stdin>" for -) */
  const char *text;  /* the source the offsets point into */
  size_t len;
  int errors;        /* number of errors reported so far */
  int warnings;      /* number of warnings reported so far */
  StrBuf out;        /* the rendered messages */
} Diag;

void diag_init(Diag *d, const char *file, const char *text, size_t len);
void diag_free(Diag *d);
/* Reports an error at byte offset `at` of the source. */
void diag_error(Diag *d, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports a warning (`FILE:LINE:COL: warning: message`, the line and a caret) at `at`. */
void diag_warning(Diag *d, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1-based line and column (in bytes) of a byte offset; "\n", "\r\n" and a lone "\r" each end a
   line. */
void diag_line_col(const char *text, size_t len, size_t at, uint32_t *line, uint32_t *col);

#endif
