/* (Being replaced by features.c; kept to compare them.) What a program reaches, for the campaign's feedback: the operators it calls and the edges
   between them (a value made by A read by B), read off the text TVM's printer layout gives
   (`%3 = nn.relu(%2)` and its type comment, one binding a line).  A cheap stand-in for coverage: a
   program joins the pool when it reaches an operator or an edge no earlier one did. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"

typedef struct Binding { /* %name -> the operator at the top of its value */
  char name[64];
  char op[64];
} Binding;

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static const char *producer(const Binding *b, size_t n, const char *name) {
  for (size_t i = n; i > 0; i--)
    if (!strcmp(b[i - 1].name, name)) return b[i - 1].op;
  return NULL;
}

/* One line without its comments: the variable it binds (or ""), and the tokens after '='. */
static void scan_line(const char *line, size_t len, Binding **b, size_t *n, size_t *cap,
                      void (*add)(void *ctx, const char *key), void *ctx) {
  char buf[4096];
  size_t k = 0;
  for (size_t i = 0; i < len && k + 1 < sizeof buf; i++) { /* drop comments */
    if (line[i] == '/' && i + 1 < len && line[i + 1] == '*') {
      const char *end = strstr(line + i, "*/");
      if (!end || end >= line + len) break;
      i = (size_t)(end - line) + 1;
      continue;
    }
    buf[k++] = line[i];
  }
  buf[k] = 0;
  char *eq = strstr(buf, " = ");
  char bound[64] = "";
  const char *rhs = buf;
  if (eq) {
    char *pct = eq;
    while (pct > buf && pct[-1] != '%' && pct[-1] != ' ') pct--;
    if (pct > buf && pct[-1] == '%') snprintf(bound, sizeof bound, "%.*s", (int)(eq - pct), pct);
    rhs = eq + 3;
  }
  char top[64] = "", key[160];
  for (const char *p = rhs; *p; p++) {
    if (*p == '%' && (isalnum((unsigned char)p[1]) || p[1] == '_')) { /* a value read here */
      char name[64];
      size_t m = 0;
      for (p++; (isalnum((unsigned char)*p) || *p == '_') && m + 1 < sizeof name; p++) name[m++] = *p;
      name[m] = 0;
      p--;
      const char *op = producer(*b, *n, name);
      if (op && *top) {
        snprintf(key, sizeof key, "edge:%s>%s", op, top);
        add(ctx, key);
      }
      continue;
    }
    if (!ident_start(*p) || (p > rhs && (ident_char(p[-1]) || p[-1] == '@' || p[-1] == '%'))) continue;
    const char *s = p;
    while (ident_char(*p)) p++;
    bool call = *p == '(';
    size_t m = (size_t)(p - s);
    p--;
    if (!call || m >= 64 || (m == 2 && !strncmp(s, "fn", 2))) continue;
    char op[64];
    snprintf(op, sizeof op, "%.*s", (int)m, s);
    snprintf(key, sizeof key, "op:%s", op);
    add(ctx, key);
    if (*top) { /* nested inside the line's first call */
      snprintf(key, sizeof key, "edge:%s>%s", op, top);
      add(ctx, key);
    } else {
      snprintf(top, sizeof top, "%s", op);
    }
  }
  if (*bound && *top) {
    if (*n == *cap) *b = xrealloc(*b, (*cap = *cap ? *cap * 2 : 64) * sizeof **b);
    snprintf((*b)[*n].name, sizeof (*b)[*n].name, "%s", bound);
    snprintf((*b)[*n].op, sizeof (*b)[*n].op, "%s", top);
    (*n)++;
  }
}

void fuzz_text_features(const char *text, void (*add)(void *ctx, const char *key), void *ctx) {
  Binding *b = NULL;
  size_t n = 0, cap = 0;
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    /* a new function starts a new scope of graph numbers */
    if (!strncmp(line, "def ", 4)) n = 0;
    scan_line(line, len, &b, &n, &cap, add, ctx);
    line = end ? end + 1 : NULL;
  }
  free(b);
}
