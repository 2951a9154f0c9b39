/*
 * Comment attachment.  TVM writes `/ * ty=T span=S * /` right after the node it describes
 * (a call, a constant, a parameter's type, a let binder, ...), so a comment is attached to the
 * node that ends last before it; among nodes ending at the same byte, to the outermost one
 * (the binder `%x: T`, not the type `T`; the call `f(x)`, not its last argument).  User comments
 * follow the same rule; comments before any node are the file's leading comments.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "lower.h"

typedef struct Ranked {
  AstNode *node;
  size_t order; /* creation order: parents are made after their children */
} Ranked;

static int by_end_then_outermost(const void *pa, const void *pb) {
  const Ranked *a = pa, *b = pb;
  if (a->node->span.end != b->node->span.end) return a->node->span.end < b->node->span.end ? -1 : 1;
  if (a->node->span.start != b->node->span.start) return a->node->span.start < b->node->span.start ? -1 : 1;
  return a->order > b->order ? -1 : a->order < b->order ? 1 : 0;
}

/* A `// text` line comment becomes `/ * text * /`: the printer joins lines, so a line comment
   would swallow what follows it.  Delimiters inside are broken up so nesting stays balanced. */
static const char *as_block_comment(Arena *arena, const char *src, uint32_t s, uint32_t e) {
  const char *t = src + s + 2;
  size_t n = e - s - 2;
  while (n > 0 && (t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t')) n--;
  char *out = arena_alloc(arena, 2 * n + 8), *p = out;
  memcpy(p, "/*", 2);
  p += 2;
  if (n == 0 || t[0] != ' ') *p++ = ' ';
  for (size_t i = 0; i < n; i++) {
    *p++ = t[i];
    if (i + 1 < n && ((t[i] == '*' && t[i + 1] == '/') || (t[i] == '/' && t[i + 1] == '*'))) *p++ = ' ';
  }
  memcpy(p, " */", 4);
  return out;
}

size_t block_comment_length(const char *src, size_t len) {
  size_t depth = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    if (src[i] == '/' && src[i + 1] == '*') {
      depth++;
      i++;
    } else if (src[i] == '*' && src[i + 1] == '/') {
      i++;
      if (--depth == 0) return i + 1;
    }
  }
  return 0;
}

static void append(AstComment **list, AstComment *c) {
  while (*list) list = &(*list)->next;
  *list = c;
}

/* The comment node that starts at byte s, if one does: the smallest node spanning s's first two
   bytes, when it is a comment and starts there (a '/' inside a string, a name or another comment
   finds that instead). */
static bool comment_at(TSNode root, uint32_t s, TSNode *out, bool *line) {
  TSNode n = ts_node_descendant_for_byte_range(root, s, s + 1);
  if (ts_node_is_null(n) || ts_node_start_byte(n) != s) return false;
  const char *type = ts_node_type(n);
  *line = !strcmp(type, "line_comment");
  *out = n;
  return *line || !strcmp(type, "block_comment");
}

bool attach_comments(AstModule *m, TSNode root, const char *src, Diag *diag, AstNodeList *nodes) {
  /* Comments are found from where their text can start (a '/' followed by '*' or '/'), each
     looked up in the tree, instead of by a walk of the whole tree: on 100 MB of code without
     comments the walk was a sixth of the time to read it. */
  Ranked *ranked = NULL; /* sorted when the first comment needs them */
  bool ok = true;
  uint32_t len = ts_node_end_byte(root);
  for (uint32_t at = 0; at + 1 < len;) {
    const char *slash = memchr(src + at, '/', len - at - 1);
    if (!slash) break;
    uint32_t s = (uint32_t)(slash - src);
    TSNode n;
    bool line;
    if ((slash[1] != '*' && slash[1] != '/') || !comment_at(root, s, &n, &line)) {
      at = s + 1;
      continue;
    }
    if (!ranked) {
      ranked = xmalloc((nodes->len ? nodes->len : 1) * sizeof *ranked);
      for (size_t i = 0; i < nodes->len; i++) ranked[i] = (Ranked){nodes->items[i], i};
      qsort(ranked, nodes->len, sizeof *ranked, by_end_then_outermost);
    }
    uint32_t e = ts_node_end_byte(n);
    if (!line && block_comment_length(src + s, e - s) != e - s) {
      diag_error(diag, s, "unterminated comment: '/*' is never closed (comments nest in Relay)");
      ok = false;
    }
    AstComment *cm = arena_alloc(&m->arena, sizeof *cm);
    cm->text = line ? as_block_comment(&m->arena, src, s, e) : arena_strndup(&m->arena, src + s, e - s);
    /* The last node ending at or before the comment, outermost first among equals. */
    size_t lo = 0, hi = nodes->len;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (ranked[mid].node->span.end <= s) lo = mid + 1;
      else hi = mid;
    }
    if (lo == 0) append(&m->leading, cm);
    else {
      uint32_t end = ranked[lo - 1].node->span.end;
      size_t first = lo - 1;
      while (first > 0 && ranked[first - 1].node->span.end == end) first--;
      append(&ranked[first].node->comments, cm);
    }
    at = e > s ? e : s + 1;
  }
  free(ranked);
  return ok;
}
