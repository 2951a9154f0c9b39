#define PCRE2_CODE_UNIT_WIDTH 8
#include "pattern.h"

#include <pcre2.h>
#include <stdio.h>

#include "xalloc.h"

struct Pattern {
  pcre2_code *code;
  pcre2_match_context *limits;
};

/* Backtracking steps one search may take: far more than any sane pattern needs on a test's
   output, few enough that `(a+)+b` on a megabyte of `a` ends in about a second. */
enum { MATCH_LIMIT = 10 * 1000 * 1000 };

Pattern *pattern_compile(const char *src, char *err, size_t errlen) {
  int code;
  PCRE2_SIZE at;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE, &code, &at, NULL);
  if (!re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    snprintf(err, errlen, "at offset %zu: %s", (size_t)at, (const char *)msg);
    return NULL;
  }
  Pattern *p = xcalloc(1, sizeof *p);
  p->code = re;
  p->limits = pcre2_match_context_create(NULL);
  pcre2_set_match_limit(p->limits, MATCH_LIMIT);
  return p;
}

bool pattern_search(const Pattern *p, const char *text, size_t len) {
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(p->code, NULL);
  int rc = pcre2_match(p->code, (PCRE2_SPTR)(text ? text : ""), text ? len : 0, 0, 0, md, p->limits);
  pcre2_match_data_free(md);
  return rc >= 0;
}

void pattern_free(Pattern *p) {
  if (!p) return;
  pcre2_code_free(p->code);
  pcre2_match_context_free(p->limits);
  free(p);
}
